"""referee.faults: every fault kind is reported with its own code (and no other error) where its
label says, and `mjref inject` labels, passes through and refuses what it should."""
from __future__ import annotations

from collections import Counter

import pytest

from referee import archive, records
from referee.cli import main
from referee.codes import CODES, applies_to
from referee.faults import FAULT_KINDS, SKIPPED_CODES, Analysis, fault_rng, inject_one
from referee.rules import RULESETS, get_ruleset
from referee.simulate import simulate_hand
from referee.verdict import ERROR
from referee.verify import verify_bytes

PER_KIND = 20  # faulty records checked per kind and ruleset
HANDS = {"hebei": 200, "ningxiang": 120, "guangdong_tdh": 160}  # clean hands each kind may pick from
SEED = 9


@pytest.fixture(scope="module")
def corpora():
    """(record, ruleset, analysis) for clean simulated hands of every supported ruleset."""
    out = {}
    for name in sorted(RULESETS):
        rules = get_ruleset(name)
        hands = []
        for index in range(HANDS.get(name, 120)):
            record, _ = simulate_hand(rules, {}, SEED, index)
            hands.append((index, record, Analysis(record, rules)))
        out[name] = (rules, hands)
    return out


def test_every_error_code_has_a_kind_or_a_reason():
    covered = {k.code for k in FAULT_KINDS.values()}
    errors = {c.code for c in CODES.values() if c.severity == ERROR}
    assert covered <= errors  # every kind expects an error-severity code
    assert errors - covered - set(SKIPPED_CODES) == set()
    assert not covered & set(SKIPPED_CODES)
    hebei = {c.code for c in CODES.values() if c.severity == ERROR and applies_to(c.code, "hebei")
             and c.level == "hand"}
    assert hebei <= covered  # every code Hebei data can produce has a kind
    # Match-level codes cannot be carried by one record: their kinds fault whole matches (tests/test_match.py).
    from referee.match_faults import MATCH_FAULT_KINDS

    assert {k.code for k in MATCH_FAULT_KINDS.values()} <= {c.code for c in CODES.values() if c.level == "match"}


@pytest.mark.parametrize("name", sorted(FAULT_KINDS))
def test_each_kind_is_reported_with_its_own_code(corpora, name):
    kind = FAULT_KINDS[name]
    injected, problems = Counter(), []
    for ruleset, (rules, hands) in corpora.items():
        for index, record, analysis in hands:
            if injected[ruleset] >= PER_KIND:
                break
            faulty = inject_one(kind, record, rules, fault_rng(name, SEED, index), analysis)
            if faulty is None:
                continue
            injected[ruleset] += 1
            label = faulty.fault
            assert (label.kind, label.expected_code) == (name, kind.code)
            assert records.parse_binary(records.to_binary(faulty)).fault == label  # the label survives
            verdict = verify_bytes(records.to_binary(faulty))
            found = [(v.code, -1 if v.event_index is None else v.event_index) for v in verdict.errors]
            if found != [(kind.code, label.event_index)]:
                problems.append((record.game_id, label.event_index, found))
    assert sum(injected.values()) > 0, f"{name} found no place in any simulated hand"
    assert not problems, problems[:5]


def test_kinds_sharing_one_analysis_do_not_disturb_each_other(corpora):
    """The benchmark reuses one Analysis for every kind: each result must equal a fresh one's."""
    for rules, hands in corpora.values():
        for index, record, analysis in hands[:4]:
            for name, kind in FAULT_KINDS.items():
                shared = inject_one(kind, record, rules, fault_rng(name, 2, index), analysis)
                fresh = inject_one(kind, record, get_ruleset(rules.name), fault_rng(name, 2, index))
                assert (shared is None) == (fresh is None), (name, record.game_id)
                assert shared is None or records.to_binary(shared) == records.to_binary(fresh), (name, record.game_id)


def test_injection_is_deterministic(corpora):
    rules, hands = corpora["hebei"]
    index, record, _ = hands[0]
    for name in ("discard_not_held", "pon_over_win", "wrong_payment"):
        first = inject_one(FAULT_KINDS[name], record, rules, fault_rng(name, 1, index))
        again = inject_one(FAULT_KINDS[name], record, rules, fault_rng(name, 1, index))
        assert first is None and again is None or records.to_binary(first) == records.to_binary(again)


@pytest.fixture(scope="module")
def clean_archive(tmp_path_factory, corpora):
    path = tmp_path_factory.mktemp("inject") / "clean.tfrecord"
    archive.write_archive(path, [records.to_binary(r) for _, r, _ in corpora["hebei"][1][:30]])
    return path


def frames(path):
    return [f.payload for f in archive.iter_archive(path) if isinstance(f, archive.Frame)]


def test_inject_labels_selected_records_and_passes_the_rest(clean_archive, tmp_path, capsys):
    out = tmp_path / "faulty.tfrecord"
    assert main(["inject", "--kind", "seat_out_of_turn", "--in", str(clean_archive), "--out", str(out),
                 "--rate", "0.5", "--seed", "3"]) == 0
    assert "injected" in capsys.readouterr().err
    before, after = frames(clean_archive), frames(out)
    assert len(after) == len(before)
    labelled = 0
    for old, new in zip(before, after):
        record = records.parse_binary(new)
        if record.HasField("fault"):
            labelled += 1
            assert record.fault.expected_code == "OUT_OF_TURN"
            assert [v.code for v in verify_bytes(new).errors] == ["OUT_OF_TURN"]
        else:
            assert new == old  # not selected: the very same bytes
    assert 0 < labelled < len(before)


def test_inject_is_deterministic_by_seed(clean_archive, tmp_path):
    outs = []
    for name, seed in (("a", 4), ("b", 4), ("c", 5)):
        outs.append(tmp_path / f"{name}.tfrecord")
        assert main(["inject", "--kind", "wrong_payment", "--in", str(clean_archive), "--out", str(outs[-1]),
                     "--rate", "0.5", "--seed", str(seed), "--quiet"]) == 0
    assert outs[0].read_bytes() == outs[1].read_bytes() != outs[2].read_bytes()


def test_inject_list_shows_every_kind(capsys):
    assert main(["inject", "--list"]) == 0
    out = capsys.readouterr().out
    for kind in FAULT_KINDS.values():
        assert kind.name in out and kind.code in out
    for code in SKIPPED_CODES:
        assert code in out


def test_unknown_kind_and_missing_arguments_exit_2(clean_archive, tmp_path, capsys):
    assert main(["inject", "--kind", "nonsense", "--in", str(clean_archive), "--out", str(tmp_path / "x")]) == 2
    assert "unknown fault kind 'nonsense'" in capsys.readouterr().err
    assert main(["inject", "--kind", "false_win"]) == 2
    assert "required" in capsys.readouterr().err
    assert main(["inject", "--kind", "false_win", "--in", str(tmp_path / "missing.tfrecord"),
                 "--out", str(tmp_path / "y.tfrecord")]) == 2
    assert main(["inject", "--kind", "false_win", "--in", str(clean_archive), "--out", str(tmp_path / "z"),
                 "--rate", "2"]) == 2
