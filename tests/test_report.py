"""The audit report (`mjref report OUT_DIR`): made from a real audit of the sample archive, its
counts reconcile with the manifest, its figures match the tables, it is deterministic and
escaped, and in headless Chromium it shows the counts, the charts and a working link to the
dispute view of a record with findings, with no network request and no console error."""
from __future__ import annotations

import argparse
import json
import pathlib
import re
import shutil

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from chromium import browser, opened  # noqa: F401  (browser is a fixture)
from pipelines import job as J
from pipelines import report as R
from pipelines.schemas import TABLES
from referee.codes import CODES

ROOT = pathlib.Path(__file__).resolve().parent.parent
ARCHIVE = ROOT / "samples" / "archives" / "samples.tfrecord"
# Every sample record, plus the archive's damage: garbage, an undecodable payload, a truncated tail
# (the smashed frame stands in for the record it hid). See samples/make_archive.py.
RECORDS_IN = sum(1 for d in (ROOT / "samples").iterdir() if d.is_dir() and d.name not in ("archives", "malformed")
                 for _ in d.glob("*.textproto")) + 3


def run_report(*argv) -> int:
    parser = argparse.ArgumentParser(prog="mjref")
    R.add_report_command(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["report", *map(str, argv)])
    return args.func(args)


@pytest.fixture(scope="module")
def audit_dir(tmp_path_factory) -> pathlib.Path:
    """`mjref audit samples/archives --out DIR`: every sample record in (plus the archive's damage), all but
    4 of them verdicts, and 4 error rows."""
    out = tmp_path_factory.mktemp("audit") / "out"
    manifest = J.run_audit(J.AuditConfig(inputs=[str(ARCHIVE)], out=str(out), progress_interval=0))
    assert manifest["reconciliation"]["ok"]
    return out


@pytest.fixture
def audit_copy(audit_dir, tmp_path) -> pathlib.Path:
    copy = tmp_path / "audit"
    shutil.copytree(audit_dir, copy, ignore=shutil.ignore_patterns("report.html", "views"))
    return copy


def table(out: pathlib.Path, name: str) -> pa.Table:
    return pa.concat_tables([pq.read_table(p) for p in sorted((out / name).glob("*.parquet"))])


def test_counts_reconcile_with_the_manifest(audit_copy):
    manifest = json.loads((audit_copy / "manifest.json").read_text())
    f = R.compute(audit_copy)
    assert f.games + f.errors == manifest["records_in"]["total"] == RECORDS_IN
    assert f.by_status == manifest["verdicts"]["by_status"]
    assert f.mismatches == manifest["verdicts"]["settlement_mismatches"]
    assert {c: sum(per.values()) for c, per in f.by_code.items()} == manifest["violations"]["by_code"]
    assert sum(n for n in f.by_stage.values()) == manifest["errors"]["total"] == 4
    _, ok = R.reconciliation_section(f, manifest)
    assert ok
    assert run_report(audit_copy) == 0
    page = (audit_copy / "report.html").read_text()
    assert 'class="callout ok" id="reconciled"' in page and "✗" not in page


def test_figures_match_the_tables(audit_copy):
    f = R.compute(audit_copy)
    games = table(audit_copy, "games").to_pylist()
    violations = table(audit_copy, "violations").to_pylist()
    rulesets = {(g["source"], g["offset"]): g["ruleset"] for g in games}
    by_code: dict = {}
    for v in violations:
        per = by_code.setdefault(v["code"], {})
        per[rulesets[(v["source"], v["offset"])]] = per.get(rulesets[(v["source"], v["offset"])], 0) + 1
    assert f.by_code == by_code
    assert {"hebei", "ningxiang"} <= set(f.by_code["MULTIPLE_RON"])  # one code, several rulesets
    money = sum(sum(abs(c - r) for c, r in zip(g["claimed_payments"], g["recomputed_payments"])) // 2
                for g in games if g["mismatch"])
    assert f.money_total == money > 0
    assert f.findings_total == sum(1 for g in games if g["violation_count"])
    assert f.claimed_unsettled == sum(1 for g in games if g["claimed_payments"] is not None
                                      and g["recomputed_payments"] is None)
    # Most money in dispute first; each record's codes are its violations'.
    assert [d.money for d in f.findings] == sorted((d.money for d in f.findings), reverse=True)
    first = f.findings[0]
    assert sorted(first.codes) == sorted(v["code"] for v in violations
                                         if (v["source"], v["offset"]) == first.key)
    assert f.longest[0]["event_count"] == max(g["event_count"] for g in games)


def test_report_writes_views_and_links_them(audit_copy):
    assert run_report(audit_copy, "--views", 3, "--limit", 10, "--listed", 5) == 0
    page = (audit_copy / "report.html").read_text()
    views = sorted((audit_copy / "views").glob("*.html"))
    assert len(views) == 3
    links = re.findall(r'class="view-link" href="([^"]+)"', page)
    assert len(links) == 3
    for link in links:
        assert (audit_copy / link.split("#")[0]).exists()
    # The records beyond --views give the command that makes their view; beyond --limit, a name
    # list of --listed more; the rest are counted, with the query that finds them.
    assert page.count("mjref view ") == 7
    assert len(re.findall(r'<ol class="more" start="11">(.*?)</ol>', page, re.S)[0].split("<li>")) - 1 == 5
    f = R.compute(audit_copy)
    left = f.findings_total - 15
    assert f"… and {left:,} more records with findings" in page


def test_report_is_deterministic(audit_copy, tmp_path):
    run_report(audit_copy, "--views", 2)
    first = {p.name: p.read_bytes() for p in [audit_copy / "report.html", *(audit_copy / "views").glob("*")]}
    run_report(audit_copy, "--views", 2)
    second = {p.name: p.read_bytes() for p in [audit_copy / "report.html", *(audit_copy / "views").glob("*")]}
    assert first == second


def test_counts_that_do_not_reconcile_are_shown(audit_copy, capsys):
    manifest = json.loads((audit_copy / "manifest.json").read_text())
    manifest["verdicts"]["total"] += 1
    (audit_copy / "manifest.json").write_text(json.dumps(manifest))
    assert run_report(audit_copy, "--views", 0) == 3
    page = (audit_copy / "report.html").read_text()
    assert 'class="callout bad" id="reconciled"' in page and "✗ differs" in page
    assert "do NOT reconcile" in capsys.readouterr().out


def test_tables_without_a_manifest(audit_copy):
    (audit_copy / "manifest.json").unlink()
    assert run_report(audit_copy, "--views", 0) == 0
    assert "No manifest.json here" in (audit_copy / "report.html").read_text()


def test_no_tables_is_a_message(tmp_path, capsys):
    assert run_report(tmp_path) == 2
    assert "no games table" in capsys.readouterr().err


def test_table_text_is_escaped(tmp_path):
    """Game ids, sources and reasons come from records and archives: untrusted text."""
    evil = '<script>alert(1)</script><img src=x onerror="alert(2)">'
    out = tmp_path / "evil"
    rows = {
        "games": [{"source": evil, "offset": 0, "game_id": evil, "ruleset": evil, "status": "violations",
                   "reason": None, "event_count": 3, "winners": [], "claimed_payments": [1, -1, 0, 0],
                   "recomputed_payments": [0, 0, 0, 0], "mismatch": True, "violation_count": 1, "error_count": 1,
                   "referee_version": "x", "schema_version": 1}],
        "violations": [{"game_id": evil, "source": evil, "offset": 0, "event_index": 1, "seat": 0, "code": evil,
                        "severity": "error", "message": evil}],
        "errors": [{"file": evil, "offset": 5, "length": 9, "stage": "decode", "reason": evil, "game_id": evil}],
    }
    for name, schema in TABLES.items():
        (out / name).mkdir(parents=True)
        pq.write_table(pa.Table.from_pylist(rows.get(name, []), schema=schema), out / name / "part-0.parquet")
    assert run_report(out, "--views", 5) == 0  # the archive does not exist: no view, the command instead
    page = (out / "report.html").read_text()
    assert evil not in page and "<img" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_money_beyond_int64_is_shown_exactly(tmp_path):
    """Claimed payments are sint64: one hand's money in dispute (half the sum of |claimed - recomputed|)
    can pass 2^63. The report ranks it first and shows the exact amount; it used to stop on an
    OverflowError, and write no page."""
    out = tmp_path / "big"
    game = {"source": "a.tfrecord", "offset": 0, "game_id": "big", "ruleset": "hebei", "status": "violations",
            "reason": None, "event_count": 3, "winners": [], "claimed_payments": [2**63 - 1, -2**63, 5, 7],
            "recomputed_payments": [0, 0, 0, 0], "mismatch": True, "violation_count": 1, "error_count": 1,
            "referee_version": "x", "schema_version": 1}
    small = {**game, "offset": 9, "game_id": "small", "claimed_payments": [4, -4, 0, 0]}
    rows = {"games": [small, game],
            "violations": [{"game_id": g["game_id"], "source": "a.tfrecord", "offset": g["offset"], "event_index": None,
                            "seat": None, "code": "SETTLEMENT_MISMATCH", "severity": "error", "message": "m"}
                           for g in (small, game)]}
    for name, schema in TABLES.items():
        (out / name).mkdir(parents=True)
        pq.write_table(pa.Table.from_pylist(rows.get(name, []), schema=schema), out / name / "part-0.parquet")
    figures = R.compute(out)
    exact = (2**63 - 1 + 2**63 + 5 + 7 + 1) // 2  # (an odd sum: half of it, rounded up)
    assert [d.money for d in figures.findings] == [exact, 4]
    assert figures.money_total == exact + 4
    assert run_report(out) == 0 and f"{exact + 4:,}" in (out / "report.html").read_text()


def test_a_claim_off_by_one_point_is_money_in_dispute(tmp_path):
    """A claim that does not sum to zero, one point off: half of 1 was shown as 0, "0 points paid to
    the wrong seats" for a SETTLEMENT_MISMATCH hand (found by an independent fuzzer)."""
    out = tmp_path / "one"
    game = {"source": "a.tfrecord", "offset": 0, "game_id": "one", "ruleset": "hebei", "status": "violations",
            "reason": None, "event_count": 3, "winners": [1], "claimed_payments": [-8, 20, -6, -5],
            "recomputed_payments": [-8, 20, -6, -6], "mismatch": True, "violation_count": 1, "error_count": 1,
            "referee_version": "x", "schema_version": 1}
    rows = {"games": [game], "violations": [{"game_id": "one", "source": "a.tfrecord", "offset": 0, "event_index": None,
                                             "seat": None, "code": "SETTLEMENT_MISMATCH", "severity": "error",
                                             "message": "m"}]}
    for name, schema in TABLES.items():
        (out / name).mkdir(parents=True)
        pq.write_table(pa.Table.from_pylist(rows.get(name, []), schema=schema), out / name / "part-0.parquet")
    figures = R.compute(out)
    assert [d.money for d in figures.findings] == [1] and figures.money_total == 1


# -- in the browser ------------------------------------------------------------------------------
def test_report_in_the_browser(browser, audit_copy, tmp_path):  # noqa: F811
    # Enough views to reach past the records whose only findings are in their claimed results
    # (they dispute the most money, so they come first).
    run_report(audit_copy, "--views", 20)
    report = audit_copy / "report.html"
    views = set((audit_copy / "views").glob("*.html"))
    with opened(browser, report, allowed=views) as w:
        page = w.page
        assert page.locator("#reconciled").is_visible()
        assert "Reconciled" in page.locator("#reconciled").inner_text()
        assert page.locator("#chart-codes svg rect").count() > 40
        assert page.locator("#chart-rulesets svg").is_visible()
        assert page.locator("#money-total").inner_text() == str(R.compute(audit_copy).money_total)
        assert "MULTIPLE_RON" in page.locator("table.codes").inner_text()
        assert CODES["MULTIPLE_RON"].term in page.locator("table.codes").inner_text()
        assert page.locator("#unreplayable table.errors tr").count() == 5  # header + 4 error rows
        page.screenshot(path=str(tmp_path / "report.png"), full_page=True)
        # Follow a record's link: its dispute view opens at its first finding.
        link = page.locator("a.view-link").first
        href = link.get_attribute("href")
        link.click()
        page.wait_for_selector("#position")
        assert page.url.split("#")[0].endswith(href.split("#")[0])
        assert href.endswith("#end")  # its findings are on the record as a whole: the hand's end
        assert page.locator("#slider").input_value() == page.locator("#slider").get_attribute("max")
        assert page.locator("#frame-findings").is_visible()
        assert page.locator("table.settlement td.claimed").count() == 4
        page.screenshot(path=str(tmp_path / "report-view.png"), full_page=True)
        # A record with a finding at an event opens there.
        page.go_back()
        link = page.locator("a.view-link[href*='#event-']").first
        event = re.search(r"#event-(\d+)$", link.get_attribute("href")).group(1)
        link.click()
        page.wait_for_selector("#position")
        assert page.locator("#position").inner_text() == f"event {event}:"
        assert page.locator("#frame-findings").is_visible()


def test_report_prints(browser, audit_copy, tmp_path):  # noqa: F811
    run_report(audit_copy, "--views", 0)
    with opened(browser, audit_copy / "report.html") as w:
        w.page.emulate_media(media="print")
        assert w.page.locator("#chart-codes").is_visible()
        w.page.pdf(path=str(tmp_path / "report.pdf"), format="A4")
    assert (tmp_path / "report.pdf").stat().st_size > 10_000


def test_audit_report_flag_writes_the_report(audit_copy, capsys):
    """What `mjref audit ... --report` does once pipelines/audit.py calls the two hooks."""
    parser = argparse.ArgumentParser()
    R.add_report_flag(parser)
    manifest = json.loads((audit_copy / "manifest.json").read_text())
    manifest["out"] = str(audit_copy)
    assert R.report_after_audit(parser.parse_args([]), manifest) == 0
    assert not (audit_copy / "report.html").exists()
    assert R.report_after_audit(parser.parse_args(["--report", "--report-views", "2"]), manifest) == 0
    assert (audit_copy / "report.html").exists() and len(list((audit_copy / "views").glob("*.html"))) == 2
    assert f"report: {audit_copy / 'report.html'}" in capsys.readouterr().out
    manifest["out"] = "gs://bucket/audit"
    assert R.report_after_audit(parser.parse_args(["--report"]), manifest) == 2
