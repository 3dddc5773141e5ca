"""The `mjref` command end to end: every sample's verdict, bad input, listings, exit status."""
import io
import json
import pathlib
import re
import subprocess
import sys
from collections import Counter

import pytest

from referee import archive, records
from referee.cli import main
from referee.rules import RULESETS

ROOT = pathlib.Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"


def expectations(path: pathlib.Path) -> tuple[str, list[str]]:
    """The expected status and findings written beside a sample (header or .expect sidecar)."""
    text = path.read_text(encoding="utf-8") if path.suffix == ".textproto" else \
        path.with_name(path.name + ".expect").read_text(encoding="utf-8")
    status = re.search(r"expect-status: (\w+)", text).group(1)
    return status, sorted(re.findall(r"expect: (\S+)", text))


def run_json(capsys, *args) -> tuple[int, list[dict]]:
    code = main(["verify", "--json", *map(str, args)])
    out = capsys.readouterr().out
    return code, [json.loads(line) for line in out.splitlines()]


def findings(verdict: dict) -> list[str]:
    return sorted(f"{v['code']}@{'record' if v['event_index'] is None else v['event_index']}"
                  for v in verdict["violations"])


SAMPLE_FILES = sorted(p for p in SAMPLES.rglob("*") if p.suffix in (".textproto", ".binpb"))


@pytest.mark.parametrize("path", SAMPLE_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_sample_gives_its_expected_verdict(capsys, path):
    status, expected = expectations(path)
    code, [verdict] = run_json(capsys, path)
    assert verdict["status"] == status
    assert findings(verdict) == expected
    assert code == {"clean": 0, "violations": 1, "unreplayable": 2}[status]
    if status == "unreplayable":
        assert verdict["reason"]


def sample_codes(ruleset: str) -> set[str]:
    seen = set()
    for path in (SAMPLES / ruleset).glob("*.textproto"):
        seen.update(e.split("@")[0] for e in expectations(path)[1])
    return seen


def test_hebei_samples_cover_every_hebei_and_common_code():
    from referee.codes import CODES, applies_to

    hebei_codes = {c.code for c in CODES.values() if applies_to(c.code, "hebei") and c.level == "hand"}
    assert hebei_codes - sample_codes("hebei") == set()


@pytest.mark.parametrize("ruleset", ["ningxiang", "guangdong_jph3", "guangdong_gg5"])
def test_samples_cover_every_code_of_their_ruleset(ruleset):
    """Each code a ruleset reports beyond the common ones has a sample of that ruleset."""
    from referee.codes import CODES, applies_to

    own = {c.code for c in CODES.values() if c.variants != "all" and applies_to(c.code, ruleset) and c.level == "hand"}
    assert own - sample_codes(ruleset) == set()


def test_guangdong_tdh_samples_cover_every_tdh_code_and_ending():
    from referee.codes import CODES, applies_to

    seen, clean = set(), set()
    for path in (SAMPLES / "guangdong_tdh").glob("*.textproto"):
        status, expected = expectations(path)
        seen.update(e.split("@")[0] for e in expected)
        if status == "clean":
            clean.add(path.stem)
    assert {c.code for c in CODES.values() if c.variants != "all" and applies_to(c.code, "guangdong_tdh")} - seen \
        == set()
    assert {"clean_self_draw", "clean_discard_win", "clean_robbed_kong", "clean_kong_replacement_win",
            "clean_exhaustive_draw", "clean_two_winners"} <= clean


@pytest.mark.parametrize("ruleset", ["harbin", "dalian"])
def test_bao_family_samples_cover_every_code_of_their_ruleset(ruleset):
    """Every code the ruleset reports, bar the match-level ones (they need several records), has a sample."""
    from referee.codes import CODES, applies_to

    seen = set()
    for path in (SAMPLES / ruleset).glob("*.textproto"):
        seen.update(e.split("@")[0] for e in expectations(path)[1])
    own = {c.code for c in CODES.values() if c.variants != "all" and applies_to(c.code, ruleset)}
    assert own - seen == {c.code for c in CODES.values() if c.level == "match"} & own


def test_samples_are_regenerated_byte_for_byte(tmp_path):
    sys.path.insert(0, str(SAMPLES))
    try:
        import make_samples
        make_samples.write_all(tmp_path)
    finally:
        sys.path.pop(0)
    fresh = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*.textproto"))
    for path in fresh:
        assert (tmp_path / path).read_bytes() == (SAMPLES / path).read_bytes(), path
    checked_in = sorted(p.relative_to(SAMPLES) for ruleset in RULESETS
                        for p in (SAMPLES / ruleset).glob("*.textproto"))
    assert fresh == checked_in


def test_sample_archive_is_up_to_date():
    sys.path.insert(0, str(SAMPLES))
    try:
        import make_archive
    finally:
        sys.path.pop(0)
    data, _count = make_archive.build()
    assert data == (SAMPLES / "archives" / "samples.tfrecord").read_bytes()


def test_directory_verdicts_and_exit_status(capsys):
    code, verdicts = run_json(capsys, SAMPLES / "hebei")
    assert code == 1
    assert len(verdicts) == len(list((SAMPLES / "hebei").glob("*.textproto")))
    required = {"game_id", "ruleset", "status", "violations", "settlement", "mismatch"}
    for v in verdicts:
        assert required <= v.keys()
        assert {"claimed", "recomputed"} <= v["settlement"].keys()
        for finding in v["violations"]:
            assert {"code", "seat", "event_index", "message"} <= finding.keys()
    clean = [v for v in verdicts if v["status"] == "clean"]
    assert all(len(v["settlement"]["recomputed"]) == 4 for v in clean)
    assert main(["verify", str(SAMPLES / "hebei" / "clean_self_draw.textproto")]) == 0
    assert main(["verify", str(SAMPLES / "malformed")]) == 2


def test_text_verdict_reads_for_an_arbiter(capsys):
    main(["verify", str(SAMPLES / "hebei" / "ready_lock_breach.textproto")])
    out = capsys.readouterr().out
    assert "VIOLATIONS (1)" in out
    assert "READY_LOCK_BREACH at event 10, seat 1" in out
    assert "听后换牌 (ready lock breach)" in out


@pytest.mark.parametrize("content, reason", [
    (b"\x0a\xff\xff\xff", "unreadable"),  # truncated binary
    (None, "no such file"),
])
def test_unreadable_input_is_a_message_not_a_traceback(tmp_path, capsys, content, reason):
    path = tmp_path / "broken.binpb"
    if content is not None:
        path.write_bytes(content)
    code, [verdict] = run_json(capsys, path)
    assert code == 2 and verdict["status"] == "unreplayable" and reason in verdict["reason"]


def test_empty_directory_is_reported(tmp_path, capsys):
    code, [verdict] = run_json(capsys, tmp_path)
    assert code == 2 and "no record files" in verdict["reason"]


def test_option_from_the_command_line_overrides_the_record(capsys):
    path = SAMPLES / "hebei" / "clean_two_winners.textproto"
    code, [verdict] = run_json(capsys, path)
    assert code == 0
    code = main(["verify", "--json", "--option", "hb_multiple_ron=false", str(path)])
    verdict = json.loads(capsys.readouterr().out)
    assert code == 1 and "MULTIPLE_RON" in findings(verdict)[0]
    # A value no ruleset takes is a usage error before any record is read, not a verdict per record.
    code = main(["verify", "--json", "--option", "hb_multiple_ron=perhaps", str(path)])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert "usage: mjref verify" in err and "true or false, not 'perhaps'" in err


def test_missed_win_rule_option_turns_a_passed_win_into_a_lock(capsys):
    # clean_missed_win_note: seat 1 passes the dealer's 3p, then draws 3p itself (self-draw is never locked).
    path = SAMPLES / "hebei" / "clean_missed_win_note.textproto"
    assert main(["verify", "--option", "hb_missed_win_rule=any_until_draw", str(path)]) == 0
    capsys.readouterr()
    # With a 漏胡 rule: pass seat 2's 3p, then win on seat 3's 3p before drawing again.
    from referee.builder import HandBuilder
    from referee.verify import verify_record

    b = HandBuilder("hb-locked", options={"hb_missed_win_rule": "same_kind_until_draw"}).deal(
        "159m139p159sSWNCF", "123m456m789m12pEE", "246m268p268sSWNP", "378m37p347sFPCSW")
    b.discard(0, "F").draw(1, "N").discard(1, "N").draw(2, "3p").discard(2, "3p")  # 0-4: seat 1 passes 3p
    record = b.draw(3, "4p").discard(3, "3p").win(1, "discard", "3p").build(claim=False)  # 5-7
    codes = [v.code for v in verify_record(record).violations]
    assert codes == ["MISSED_WIN", "RON_AFTER_MISSED_WIN"]
    record.ruleset.options["hb_missed_win_rule"] = "none"
    codes = [v.code for v in verify_record(record).violations]
    assert codes == ["MISSED_WIN"]


def test_listings(capsys):
    assert main(["rulesets"]) == 0
    out = capsys.readouterr().out
    assert "hebei" in out and "hb_multiple_ron = true [HB-A1]" in out
    assert main(["codes"]) == 0
    out = capsys.readouterr().out
    assert "READY_LOCK_BREACH" in out and "漏胡" in out


def test_console_script_runs_without_traceback():
    result = subprocess.run([sys.executable, "-m", "referee.cli", "verify", str(SAMPLES / "malformed")],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr + result.stdout


# -- issue 8: usage errors, empty inputs, the summary, unpack, the trace -------------------------
CLAIM_PRIORITY = SAMPLES / "hebei" / "claim_priority.textproto"


@pytest.mark.parametrize("command", ["verify", "audit"])
@pytest.mark.parametrize("pair, message", [
    ("novalue", "takes KEY=VALUE"),
    ("=true", "takes KEY=VALUE"),
])
def test_a_malformed_option_is_a_usage_error(capsys, tmp_path, command, pair, message):
    extra = ["--out", str(tmp_path / "out")] if command == "audit" else []
    with pytest.raises(SystemExit) as exit_:
        main([command, "--option", pair, *extra, str(CLAIM_PRIORITY)])
    err = capsys.readouterr().err
    assert exit_.value.code == 2
    assert f"usage: mjref {command}" in err and message in err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("command", ["verify", "audit"])
@pytest.mark.parametrize("pair, message", [
    ("hb_multiple_ron=banana", "takes true or false, not 'banana'"),
    ("no_such_option=1", "unknown rule option 'no_such_option'"),
    ("nx_birds=-3", "nx_birds takes a whole number from 0 to 54, not '-3'"),
    ("hb_room_multiplier=0", "hb_room_multiplier takes a whole number of at least 1, not '0'"),
    ("hb_cap=1_0", "hb_cap takes a whole number of at least 0, not '1_0'"),
    ("hb_reserve_tiles=200", "hb_reserve_tiles takes a whole number from 0 to 83, not '200'"),  # more than the wall
    ("tdh_horses=40", "tdh_horses takes a whole number from 0 to 20, not '40'"),
])
def test_an_option_no_ruleset_takes_is_rejected_before_any_work(capsys, tmp_path, command, pair, message):
    extra = ["--out", str(tmp_path / "out")] if command == "audit" else []
    code = main([command, "--option", pair, *extra, str(SAMPLES / "archives" / "samples.tfrecord")])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert f"usage: mjref {command}" in err and message in err
    assert not (tmp_path / "out").exists()  # the audit never started


def test_a_records_own_option_out_of_range_is_no_verdict(capsys):
    """A record whose own options hold a value the rule book cannot take (a negative bird count) is
    not judged under it, blaming the platform for the birds: it is unreplayable, with the reason."""
    from referee import records
    from referee.verify import verify_record

    record = records.parse_text((SAMPLES / "ningxiang" / "clean_discard_win.textproto").read_text())
    record.ruleset.options["nx_birds"] = "-3"
    verdict = verify_record(record)
    assert verdict.status == "unreplayable" and "nx_birds takes a whole number from 0 to 54" in verdict.reason


def test_an_option_of_another_ruleset_leaves_the_record_alone(capsys):
    # hb_* options are Hebei's: a Ningxiang record ignores them rather than failing.
    path = next((SAMPLES / "ningxiang").glob("clean_*.textproto"))
    code, [verdict] = run_json(capsys, "--option", "hb_multiple_ron=false", path)
    assert code == 0 and verdict["status"] == "clean"


def test_option_parsing_is_shared_without_an_import_cycle():
    # The audit's command line must not import the CLI that builds it.
    code = ("import sys, pipelines.audit; "
            "assert 'referee.cli' not in sys.modules, 'pipelines.audit imports referee.cli'; print('ok')")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert result.stdout.strip() == "ok", result.stderr


@pytest.mark.parametrize("name, content", [
    ("empty.tfrecord", b""),
    ("empty.tfrecord.gz", None),  # a valid gzip stream of nothing
    ("empty.tfrecord.zst", None),
])
def test_an_empty_archive_says_so_and_exits_2(tmp_path, capsys, name, content):
    path = tmp_path / name
    if content is None:
        archive.write_archive(path, [])
    else:
        path.write_bytes(content)
    code = main(["verify", str(path)])
    out = capsys.readouterr().out
    assert code == 2
    assert f"no record in {path}" in out
    assert "0 records" in out and "1 input with no record" in out
    code, [verdict] = run_json(capsys, path)
    assert code == 2 and verdict["status"] == "unreplayable" and verdict["reason"] == f"no record in {path}"


@pytest.mark.parametrize("name, content", [
    ("empty.textproto", b""),
    ("comments.textproto", b"# nothing but a comment\n\n"),
    ("empty.binpb", b""),
    ("defaults.binpb", b"\x08\x00"),  # schema_version 0, written out: still nothing set
])
def test_an_empty_record_file_is_an_empty_record(tmp_path, capsys, name, content):
    path = tmp_path / name
    path.write_bytes(content)
    code, [verdict] = run_json(capsys, path)
    assert code == 2
    assert "empty record" in verdict["reason"] and "ruleset" not in verdict["reason"]


def test_verify_takes_the_archive_at_offset_names_it_prints(capsys):
    """ARCHIVE@OFFSET (each record's `source`) verifies that one record, traced if asked; an offset
    where a corrupt span starts says why, one where nothing starts says so."""
    path = SAMPLES / "archives" / "samples.tfrecord"
    _, verdicts = run_json(capsys, path)
    judged = next(v for v in verdicts if v["status"] == "violations")
    span = next(v for v in verdicts if "corrupt span" in (v["reason"] or ""))
    code, [alone] = run_json(capsys, judged["source"])
    assert code == 1 and alone == judged
    assert main(["verify", "--trace", judged["source"]]) == 1 and "legal:" in capsys.readouterr().out
    code, [damaged] = run_json(capsys, span["source"])
    assert code == 2 and damaged["reason"] == span["reason"]
    code, [nothing] = run_json(capsys, f"{path}@5")
    assert code == 2 and "no record starts at byte offset 5" in nothing["reason"]


def test_verify_on_an_archive_ends_with_a_summary(capsys):
    path = SAMPLES / "archives" / "samples.tfrecord"
    code, verdicts = run_json(capsys, path)
    statuses = Counter(v["status"] for v in verdicts)
    by_code = Counter(f["code"] for v in verdicts for f in v["violations"])
    damaged = 3  # the archive's damage (make_archive.py): garbage, an undecodable payload, a truncated tail
    in_archive = sum(1 for d in SAMPLES.iterdir() if d.is_dir() and d.name not in ("archives", "malformed")
                     for _ in d.glob("*.textproto")) + damaged
    assert code == 2 and len(verdicts) == in_archive  # JSON lines stay one object per record ...
    main(["verify", "--json", str(path)])
    err = capsys.readouterr().err  # ... and the summary goes to stderr
    assert err.startswith(f"summary: {in_archive} records: {statuses['clean']} clean")
    main(["verify", str(path)])
    out = capsys.readouterr().out
    summary = out[out.index("summary: "):]
    assert (f"{statuses['violations']} with violations, {statuses['unreplayable']} unreplayable or unreadable"
            in summary)
    for code_, n in by_code.items():
        assert re.search(rf"^    {code_}( \(note\))? +{n}$", summary, re.M), code_
    # One record, one file: no summary, the verdict is the whole answer.
    main(["verify", str(CLAIM_PRIORITY)])
    assert "summary:" not in capsys.readouterr().out


def test_only_findings_prints_only_records_with_a_finding(capsys):
    path = SAMPLES / "hebei"
    _, every = run_json(capsys, path)
    code = main(["verify", "--json", "--only-findings", str(path)])
    captured = capsys.readouterr()
    shown = [json.loads(line) for line in captured.out.splitlines()]
    assert code == 1
    assert [v["game_id"] for v in shown] == [v["game_id"] for v in every
                                             if v["status"] != "clean" or v["violations"]]
    assert any(v["status"] == "clean" and v["violations"] for v in shown)  # a note is a finding
    assert len(shown) < len(every)
    assert f"summary: {len(every)} records" in captured.err  # every record is still counted


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_a_progress_bar_only_on_a_terminal(capsys, monkeypatch):
    path = str(SAMPLES / "archives" / "samples.tfrecord")
    main(["verify", "--only-findings", path])
    plain = capsys.readouterr()
    assert "verify:" not in plain.err and "%" not in plain.err  # stderr is not a terminal here
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(["verify", "--only-findings", path]) == 2
    assert "verify:" in terminal.getvalue() and "records" in terminal.getvalue()
    assert capsys.readouterr().out == plain.out  # the bar never mixes into stdout


def test_unpack_refuses_a_non_empty_directory_unless_forced(tmp_path, capsys):
    packed = tmp_path / "a.tfrecord"
    assert main(["pack", str(SAMPLES / "hebei"), "--out", str(packed)]) == 0
    out = tmp_path / "out"
    assert main(["unpack", str(packed), "--out-dir", str(out)]) == 0  # new directory
    first = sorted(p.name for p in out.iterdir())
    (out / first[0]).write_text("edited by hand", encoding="utf-8")
    capsys.readouterr()
    assert main(["unpack", str(packed), "--out-dir", str(out)]) == 2
    err = capsys.readouterr().err
    assert "is not empty" in err and "--force" in err
    assert (out / first[0]).read_text(encoding="utf-8") == "edited by hand"  # nothing overwritten
    assert main(["unpack", str(packed), "--out-dir", str(out), "--force"]) == 0
    assert (out / first[0]).read_text(encoding="utf-8") != "edited by hand"
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["unpack", str(packed), "--out-dir", str(empty)]) == 0  # an empty directory is fine
    assert main(["unpack", str(packed), "--out-dir", str(packed)]) == 2  # a file is not a directory


def test_trace_shows_each_claim_at_its_own_event_and_whether_it_took_effect(capsys):
    main(["verify", "--trace", str(CLAIM_PRIORITY)])
    out = capsys.readouterr().out
    # Seat 1's win and seat 3's pon are declared on events 1 and 2 (not under the discard, event 0).
    # Seat 3's lower 碰 took the tile against priority: seat 1's win was overridden, not outranked.
    assert "event 1 seat 1 claim: declared win on discard 3p, overridden: a lower claim took effect instead" in out
    assert "event 2 seat 3 claim: took pon 3p;" in out
    code, [verdict] = run_json(capsys, "--trace", CLAIM_PRIORITY)
    claims = [d for d in verdict["decisions"] if d["window"] == "claim"]
    assert [(d["event_index"], d["seat"], d["taken"], d["effect"]) for d in claims] == [
        (1, 1, "win on discard 3p", "overridden"), (2, 3, "pon 3p", "took effect")]
    # Without 一炮多响 a farther 胡 is outranked by the nearer one.
    main(["verify", "--trace", str(SAMPLES / "hebei" / "multiple_ron.textproto")])
    assert "seat 2 claim: declared win on discard 3p, outranked: did not take effect" in capsys.readouterr().out
    main(["verify", "--trace", str(SAMPLES / "hebei" / "clean_two_winners.textproto")])
    assert "seat 1 claim: pass (implied: nothing logged)" in capsys.readouterr().out


def test_trace_shows_the_legal_set_of_a_win_that_stops_the_referee(capsys):
    """A win the rules refuse in a window (here 漏胡: RON_AFTER_MISSED_WIN) ends the replay; the
    trace still shows what was legal at it, which is what the finding is about."""
    code, [verdict] = run_json(capsys, "--trace", SAMPLES / "ningxiang" / "ron_after_missed_win.textproto")
    [finding] = [v for v in verdict["violations"] if v["severity"] == "error"]
    at = [d for d in verdict["decisions"] if d["event_index"] == finding["event_index"] and d["seat"] == finding["seat"]]
    assert [(d["window"], d["legal"], d["taken"], d["effect"]) for d in at] == [
        ("claim", ["pass"], "win on discard 2s", "refused")]


@pytest.mark.parametrize("sample, window, legal", [
    ("guangdong_jph3/rob_direct_kong", "claim", ["pass", "win on discard 3p", "chi 123p"]),
    ("guangdong_gg5/rob_concealed_kong", "rob", ["pass"])])
def test_trace_shows_a_rob_of_a_kong_that_cannot_be_robbed(capsys, sample, window, legal):
    """(An independent trace review.) 抢杠胡 on a 直杠 or an 暗杠 (ROB_NOT_ROBBABLE) is a refused win in
    the trace like any other; on a 直杠 its legal set is the discard's own window, where the seat
    could have won on the discard (the trace listed nothing there)."""
    code, [verdict] = run_json(capsys, "--trace", SAMPLES / f"{sample}.textproto")
    [finding] = [v for v in verdict["violations"] if v["code"] == "ROB_NOT_ROBBABLE"]
    at = [d for d in verdict["decisions"] if d["event_index"] == finding["event_index"] and d["seat"] == finding["seat"]]
    assert [(d["window"], d["legal"], d["effect"]) for d in at] == [(window, legal, "refused")]


def test_trace_keeps_the_kong_a_refused_rob_answers():
    """(A record from a review of this change.) On a 直杠 the refused 抢杠胡 is listed, and so is the
    kong it answers, which took the discard (it vanished with the window, which never closed)."""
    import pathlib

    from referee import records
    from referee.verify import verify_record

    path = pathlib.Path(__file__).parent / "records" / "hb_rob_exposed_kong.textproto"
    verdict = verify_record(records.read_record(path), trace=True)
    claims = [(d.event_index, d.seat, d.taken, d.effect) for d in verdict.decisions if d.window == "claim"]
    assert claims == [(1, 1, "kong exposed 9m", "took effect"), (2, 2, "win robbing kong 9m", "refused")]


def test_trace_lists_decisions_in_event_order(capsys):
    """A claim window's choices are noted when it closes; the trace still reads in event order (an
    independent trace review found event 2 listed before event 1)."""
    for path in sorted(SAMPLES.glob("*/*.textproto")):
        code, [verdict] = run_json(capsys, "--trace", path)
        indexes = [d["event_index"] for d in verdict["decisions"]]
        assert indexes == sorted(indexes), path


# -- out-of-range enum values are findings; referee bugs are told apart ---------------------------
def _with(record, kind, field, value):
    """Set the field on the first event of this kind, or on a new last event of it."""
    for index, event in enumerate(record.events):
        if event.WhichOneof("kind") == kind:
            setattr(getattr(event, kind), field, value)
            return index
    event = record.events.add(seat=0)
    setattr(getattr(event, kind), field, value)
    return len(record.events) - 1


@pytest.mark.parametrize("kind, field, value", [
    ("win", "kind", 5), ("win", "kind", -1), ("win", "kind", 99), ("kong", "kind", 99),
    ("discard", "ready", 77), ("indicator", "kind", -5),
])
def test_an_unknown_enum_value_is_a_finding_at_its_event(kind, field, value):
    from referee.verify import verify_record

    record = records.read_record(SAMPLES / "hebei" / "clean_robbed_kong.textproto")
    index = _with(record, kind, field, value)
    verdict = verify_record(record, contain_bugs=False)  # it must not raise at all
    assert verdict.status == "violations", verdict.reason
    invalid = [v for v in verdict.violations if v.code == "INVALID_VALUE"]
    assert invalid and invalid[0].event_index == index and str(value) in invalid[0].message


def test_a_referee_bug_is_contained_for_the_cli_and_raised_for_the_pipeline(monkeypatch, capsys):
    from referee import verify

    def broken(record, rules, trace=False, offers=None):
        return {}["no such key"]

    monkeypatch.setattr(verify, "referee", broken)
    record = records.read_record(CLAIM_PRIORITY)
    verdict = verify.verify_record(record)
    assert verdict.status == "unreplayable"
    assert verdict.reason.startswith(verify.INTERNAL_ERROR + ": KeyError: 'no such key' at test_cli.py:")
    assert verdict.reason.endswith(" in broken")
    with pytest.raises(KeyError):
        verify.verify_record(record, contain_bugs=False)
    with pytest.raises(KeyError):
        verify.verify_bytes(records.to_binary(record), contain_bugs=False)
    assert main(["verify", str(CLAIM_PRIORITY)]) == 2
    assert "UNREPLAYABLE: internal referee error (please report): KeyError" in capsys.readouterr().out


def test_a_file_named_twice_is_read_once(tmp_path, capsys):
    """verify reads each file once, as the audit does: named twice, or inside a directory named too,
    a match's hands were judged twice and each called a duplicate of itself (MATCH_HAND_DUPLICATED)."""
    out = tmp_path / "m.tfrecord"
    assert main(["simulate", "--ruleset", "harbin", "--matches", "2", "--hands-per-match", "4", "--seed", "3",
                 "--out", str(out)]) == 0
    capsys.readouterr()
    code, once = run_json(capsys, out)
    assert code == 0 and len(once) == 8
    code, lines = run_json(capsys, out, out, tmp_path)
    assert code == 0
    assert lines == once


@pytest.mark.parametrize("name, code, at, seat", [("hb_false_selfdraw_trace", "FALSE_WIN", 32, 1),
                                                  ("hrb_selfdraw_without_ready_trace", "WIN_WITHOUT_READY", 79, 2)])
def test_trace_says_a_self_drawn_win_the_rules_refuse_was_refused(name, code, at, seat):
    """README: a choice is marked refused where it "was a win the rules refused (the finding at that
    event, where the referee stops)". A refused win on a discard said so; a refused 自摸 said "took
    effect" (found by an independent fault injector, 145 of 145 forged)."""
    from referee import records
    from referee.verify import verify_record

    verdict = verify_record(records.read_record(pathlib.Path(__file__).parent / "records" / f"{name}.textproto"),
                            trace=True)
    assert [(v.code, v.event_index, v.seat) for v in verdict.errors] == [(code, at, seat)]
    [decision] = [d for d in verdict.decisions if d.event_index == at]
    assert (decision.seat, decision.taken.startswith("win self-draw"), decision.effect) == (seat, True, "refused")


def test_trace_says_a_false_opening_hand_was_refused():
    """宁乡's 起手 hand declared by a seat that holds none: FALSE_WIN, and the deal window's decision
    is refused, not "took effect"."""
    from referee import records
    from referee.verify import verify_record

    record = records.read_record(SAMPLES / "ningxiang" / "clean_opening_hand.textproto")
    at = next(i for i, e in enumerate(record.events) if e.WhichOneof("kind") == "win")
    assert verify_record(record, trace=True).decisions[0].effect == "took effect"
    record.events[at].seat = 2  # seat 2 is dealt 万 and holds no 起手 hand
    verdict = verify_record(record, trace=True)
    assert [(v.code, v.event_index, v.seat) for v in verdict.errors] == [("FALSE_WIN", at, 2)]
    [decision] = [d for d in verdict.decisions if d.seat == 2 and d.window == "deal"]
    assert (decision.event_index, decision.taken, decision.effect) == (at, "win self-draw", "refused")


def test_a_hard_linked_copy_is_the_same_file(tmp_path, capsys):
    out = tmp_path / "m.tfrecord"
    assert main(["simulate", "--ruleset", "hebei", "--matches", "1", "--hands-per-match", "3", "--seed", "3",
                 "--out", str(out)]) == 0
    (tmp_path / "link.tfrecord").hardlink_to(out)
    capsys.readouterr()
    code, once = run_json(capsys, out)
    assert run_json(capsys, out, tmp_path / "link.tfrecord") == (code, once)
