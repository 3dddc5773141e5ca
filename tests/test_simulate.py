"""referee.simulate: simulated hands verify clean, end in every way, and come out byte for byte
the same for the same seed."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from referee import archive, records
from referee.cli import main
from referee.rules import RULESETS, get_ruleset
from referee.simulate import DISCARD_WIN, ENDINGS, SELF_DRAW, ending, simulate, simulate_hand
from referee.verdict import CLEAN
from referee.verify import verify_bytes

# A Hebei corpus that ends in every way: hands 0-47 of seed 2 (self-draws, discard wins, a 荒庄
# at 22, a kong replacement win at 40, two winners at 47) and hand 15 of seed 3 (a robbed kong,
# about 1 hand in 1,000). A change to the policy or the engine may move these rare endings:
# docs/SIMULATE.md shows how to find new ones.
ENDINGS_CORPUS = [(2, i) for i in range(48)] + [(3, 15)]


def judge(record):
    verdict = verify_bytes(records.to_binary(record))
    assert verdict.status == CLEAN, (record.game_id, [(v.code, v.event_index, v.message) for v in verdict.errors])
    return verdict


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
@settings(max_examples=30, derandomize=True, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), index=st.integers(0, 10**6))
def test_any_simulated_hand_verifies_clean(ruleset, seed, index):
    record, outcome = simulate_hand(get_ruleset(ruleset), {}, seed, index)
    verdict = judge(record)
    assert list(record.claimed.payments) == list(verdict.recomputed.payments)
    assert sorted(record.claimed.winners) == sorted({w.seat for w in outcome.wins})
    assert record.dealer == index % 4 and record.hand_index == index


def test_rule_options_are_written_and_obeyed():
    for record in simulate("hebei", 40, seed=11, options={"hb_multiple_ron": "false"}):
        assert record.ruleset.options["hb_multiple_ron"] == "false"
        judge(record)


@pytest.fixture(scope="module")
def hebei_corpus():
    rules = get_ruleset("hebei")
    return [simulate_hand(rules, {}, seed, i) for seed, i in ENDINGS_CORPUS + [(4, i) for i in range(150)]]


def test_a_corpus_verifies_clean(hebei_corpus):
    for record, _ in hebei_corpus:
        judge(record)


def test_hands_end_in_every_way(hebei_corpus):
    seen = {ending(outcome) for _, outcome in hebei_corpus}
    assert seen == set(ENDINGS), f"missing: {set(ENDINGS) - seen}"


def test_optional_moves_appear(hebei_corpus):
    kinds = set()
    for record, _ in hebei_corpus:
        for event in record.events:
            kind = event.WhichOneof("kind")
            kinds.add(f"{kind}:{event.discard.ready}" if kind == "discard" else kind)
    assert {"pon", "kong", "pass", "auto_play", "exhaustive_draw", "discard:1"} <= kinds


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_every_ruleset_ends_by_self_draw_and_discard(ruleset):
    seen = {ending(simulate_hand(get_ruleset(ruleset), {}, 5, i)[1]) for i in range(40)}
    assert {SELF_DRAW, DISCARD_WIN} <= seen


def test_same_seed_same_bytes_other_seed_other_bytes(tmp_path):
    paths = {}
    for name, seed in (("a", 5), ("b", 5), ("c", 6)):
        paths[name] = tmp_path / f"{name}.tfrecord"
        assert main(["simulate", "--ruleset", "hebei", "--hands", "12", "--seed", str(seed), "--out",
                     str(paths[name]), "--quiet"]) == 0
    assert paths["a"].read_bytes() == paths["b"].read_bytes()
    assert paths["a"].read_bytes() != paths["c"].read_bytes()
    frames = [f for f in archive.iter_archive(paths["a"]) if isinstance(f, archive.Frame)]
    assert len(frames) == 12
    ids = [records.parse_binary(f.payload).game_id for f in frames]
    assert ids == [f"sim-hebei-5-{i:06d}" for i in range(12)]
    assert len({records.parse_binary(f.payload).dealer for f in frames}) == 4


def test_textproto_directory_holds_the_same_records(tmp_path):
    out = tmp_path / "hands"
    assert main(["simulate", "--hands", "3", "--seed", "2", "--out", str(out), "--format", "textproto",
                 "--quiet"]) == 0
    files = sorted(out.glob("*.textproto"))
    assert len(files) == 3
    expected = list(simulate("hebei", 3, seed=2))
    assert [records.read_record(f) for f in files] == expected
    assert main(["verify", str(out)]) == 0


def test_bad_arguments_exit_2(tmp_path, capsys):
    assert main(["simulate", "--hands", "1", "--out", str(tmp_path / "x.tfrecord"), "--option", "nope=1"]) == 2
    assert "unknown rule option" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main(["simulate", "--ruleset", "nowhere", "--hands", "1", "--out", str(tmp_path / "y.tfrecord")])
    assert exc.value.code == 2


@pytest.mark.parametrize("ruleset, expected", [
    ("harbin", {"bao", "bao_change", "ting", "chi_ting", "mobao"}),
    ("dalian", {"bao", "bao_change", "ting", "jiating", "mobao", "chongbao"}),
])
def test_the_bao_family_plays_as_a_platform_would(ruleset, expected):
    """The simulator declares 听 (吃听, 夹听), logs the 宝 flips and 换宝 its part asks for, and wins by
    摸宝 and 冲宝 (30 hands of seed 2)."""
    seen = set()
    for index in range(30):
        record, outcome = simulate_hand(get_ruleset(ruleset), {}, 2, index)
        for event in record.events:
            kind = event.WhichOneof("kind")
            if kind == "indicator":
                seen.add("bao" if event.indicator.kind == 3 else "bao_change")
            elif kind == "discard" and event.discard.ready:
                seen.add("jiating" if event.discard.ready == 3 else "ting")
            elif kind == "chi" and event.chi.ready:
                seen.add("chi_ting")
        seen.update("mobao" for w in outcome.wins if w.drawn_wild)
        seen.update("chongbao" for w in outcome.wins if w.by_indicator)
    assert expected <= seen, expected - seen


def test_an_archive_path_without_an_archive_name_is_refused(tmp_path, capsys):
    # Written there, the archive would read back as one unreadable record: refuse it up front.
    assert main(["simulate", "--hands", "1", "--out", str(tmp_path / "out")]) == 2
    assert "ends in .tfrecord" in capsys.readouterr().err and not (tmp_path / "out").exists()
    assert main(["simulate", "--hands", "1", "--out", str(tmp_path / "out.tfrecord.zst"), "--quiet"]) == 0
