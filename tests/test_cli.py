"""The `mjref` command end to end: every sample's verdict, bad input, listings, exit status."""
import json
import pathlib
import re
import subprocess
import sys

import pytest

from referee.cli import main

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


def test_hebei_samples_cover_every_hebei_and_common_code():
    from referee.codes import CODES

    seen = set()
    for path in (SAMPLES / "hebei").glob("*.textproto"):
        seen.update(e.split("@")[0] for e in expectations(path)[1])
    hebei_codes = {c.code for c in CODES.values() if c.variants in ("all", "hebei")}
    assert hebei_codes - seen == set()


def test_ningxiang_samples_cover_every_ningxiang_code():
    from referee.codes import CODES

    seen = set()
    for path in (SAMPLES / "ningxiang").glob("*.textproto"):
        seen.update(e.split("@")[0] for e in expectations(path)[1])
    assert {c.code for c in CODES.values() if c.variants == "ningxiang"} - seen == set()


@pytest.mark.parametrize("ruleset", ["harbin", "dalian"])
def test_bao_family_samples_cover_every_code_of_their_ruleset(ruleset):
    """Every code the ruleset reports, bar the match-level one (it needs several records), has a sample."""
    from referee.codes import CODES, applies_to

    seen = set()
    for path in (SAMPLES / ruleset).glob("*.textproto"):
        seen.update(e.split("@")[0] for e in expectations(path)[1])
    own = {c.code for c in CODES.values() if c.variants != "all" and applies_to(c.code, ruleset)}
    assert own - seen == {"MATCH_STATE_MISMATCH"} & own


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
    rulesets = sorted({p.parts[0] for p in fresh})
    checked_in = sorted(p.relative_to(SAMPLES) for ruleset in rulesets
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
    code = main(["verify", "--json", "--option", "hb_multiple_ron=perhaps", str(path)])
    verdict = json.loads(capsys.readouterr().out)
    assert code == 2 and "true or false" in verdict["reason"]


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
