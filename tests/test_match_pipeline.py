"""The audit's checks across the hands of a match: the matches and match_violations tables.

One archive holds clean simulated matches of two rulesets, a match of each injected match fault
and hands without a match id. The tables must equal `referee.match` run one match at a time (what
`mjref verify` does), find every injected fault on the record it labels, reconcile in the
manifest, read in DuckDB and Polars, and be the same bytes in process and with 2 workers.
"""
from __future__ import annotations

import hashlib
import random

import pytest

from pipelines import job as J
from pipelines import rows as R
from pipelines.tables import list_table_files, read_table
from referee import archive, records
from referee.match import MatchCollector
from referee.match_faults import MATCH_FAULT_KINDS, inject_match
from referee.rules import get_ruleset
from referee.simulate import simulate, simulate_match
from referee.verify import verify_record

MATCH_TABLES = ("matches", "match_violations")


@pytest.fixture(scope="module")
def match_archive(tmp_path_factory):
    """(path, the labelled faults: {(match_id, game_id): code}) of the archive described above."""
    payloads, labelled = [], {}
    harbin = get_ruleset("harbin")
    for number in range(3):
        payloads += [records.to_binary(r) for r in simulate_match(harbin, {}, 5, number, 5)]
    hebei = get_ruleset("hebei")
    for number, kind in enumerate(sorted(MATCH_FAULT_KINDS)):
        match = simulate_match(hebei, {}, 6, number, 5)
        faulty = inject_match(MATCH_FAULT_KINDS[kind], match, random.Random(number))
        assert faulty is not None, kind
        for r in faulty:
            if r.HasField("fault"):
                labelled[(r.match_id, r.game_id)] = r.fault.expected_code
        payloads += [records.to_binary(r) for r in faulty]
    payloads += [records.to_binary(r) for r in simulate("dalian", 3, 7)]  # no match id: never grouped
    path = tmp_path_factory.mktemp("matches") / "matches.tfrecord"
    archive.write_archive(path, payloads)
    assert len(labelled) == len(MATCH_FAULT_KINDS)
    return path, labelled


def one_by_one(path) -> tuple[list[dict], list[dict]]:
    """The two tables from referee.match: the records of each match collected, then checked."""
    collector = MatchCollector()
    for frame in archive.iter_archive(path):
        record = records.parse_binary(frame.payload)
        if collector.wants(record):
            hand_source, offset = str(path), frame.offset
            collector.add(record, verify_record(record), hand_source, offset)
    matches, violations = [], []
    for result in collector.finish():
        hands = [hand for hand, _ in collector.matches[result.match_id]]
        matches.append(R.match_row(result))
        violations += R.match_violation_rows(result, hands)
    return matches, violations


def table_rows(out, name) -> list[dict]:
    return read_table(str(out), name).to_pylist()


def digest(out, name) -> str:
    h = hashlib.sha256()
    for f in sorted(list_table_files(str(out), name)):
        h.update(open(f, "rb").read())
    return h.hexdigest()


@pytest.fixture(scope="module")
def audited(match_archive, tmp_path_factory):
    out = tmp_path_factory.mktemp("run") / "in_process"
    manifest = J.run_audit(J.AuditConfig(inputs=[str(match_archive[0])], out=str(out), beam_args=[]))
    return out, manifest


def test_the_tables_equal_the_checks_one_match_at_a_time(match_archive, audited):
    out, _ = audited
    matches, violations = one_by_one(match_archive[0])
    key = lambda r: (r["match_id"], r.get("hand_index", 0), r.get("code", ""), r.get("game_id", ""))  # noqa: E731
    assert table_rows(out, "matches") == sorted(matches, key=lambda r: r["match_id"])
    assert sorted(table_rows(out, "match_violations"), key=key) == sorted(violations, key=key)
    assert len(matches) == 3 + len(MATCH_FAULT_KINDS)  # the hands without a match id are in no match


def test_every_injected_fault_is_found_on_the_record_it_labels_and_nothing_else(match_archive, audited):
    out, _ = audited
    _, labelled = match_archive
    found = {(r["match_id"], r["game_id"]): r["code"] for r in table_rows(out, "match_violations")
             if r["severity"] == "error"}
    assert found == labelled
    by_match = {r["match_id"]: r for r in table_rows(out, "matches")}
    for match_id, _game in labelled:
        assert by_match[match_id]["status"] == "violations"
    clean = [r for r in by_match.values() if r["match_id"].startswith("sim-harbin")]
    assert len(clean) == 3 and all(r["status"] == "clean" and not r["totals_mismatch"] for r in clean)
    assert all(r["claimed_totals"] == r["recomputed_totals"] is not None for r in clean)


def test_the_manifest_counts_the_matches_from_the_tables(audited):
    out, manifest = audited
    m = manifest["matches"]
    rows = table_rows(out, "matches")
    assert m["total"] == len(rows) == manifest["tables"]["matches"]["rows_written"]
    assert m["by_status"] == {"clean": 3, "violations": len(MATCH_FAULT_KINDS)}
    assert m["totals_mismatches"] == sum(r["totals_mismatch"] for r in rows) >= 1  # total_altered, at least
    violations = table_rows(out, "match_violations")
    assert m["violations"] == len(violations)
    assert sum(m["violations_by_code"].values()) == len(violations)
    assert manifest["reconciliation"]["ok"]


def test_duckdb_and_polars_read_the_match_tables(audited):
    out, manifest = audited
    duckdb = pytest.importorskip("duckdb")
    pl = pytest.importorskip("polars")
    for name in MATCH_TABLES:
        n = duckdb.sql(f"select count(*) from read_parquet('{out}/{name}/*.parquet')").fetchall()[0][0]
        assert n == manifest["tables"][name]["rows_written"] == pl.read_parquet(f"{out}/{name}/").height, name
    joined = duckdb.sql(f"""select m.match_id, count(v.code) from '{out}/matches/*.parquet' m
                            left join '{out}/match_violations/*.parquet' v using (match_id)
                            group by m.match_id, m.violation_count having count(v.code) <> m.violation_count""")
    assert joined.fetchall() == []
    totals = pl.read_parquet(f"{out}/matches/").filter(pl.col("totals_mismatch"))
    assert totals.height == manifest["matches"]["totals_mismatches"]


def test_two_workers_write_the_same_match_table_bytes(match_archive, audited, tmp_path):
    out = tmp_path / "two_workers"
    J.run_audit(J.AuditConfig(inputs=[str(match_archive[0])], out=str(out), progress_interval=0,
                              beam_args=["--direct_num_workers", "2", "--direct_running_mode", "multi_processing"]))
    for name in MATCH_TABLES:
        assert digest(out, name) == digest(audited[0], name), name


def test_the_report_shows_and_reconciles_the_match_findings(audited, tmp_path):
    """`mjref report` counts the match findings from their table, lists them, and reconciles the two
    match tables with the manifest: rows lost from either make it exit 3."""
    import json
    import shutil

    import pyarrow.parquet as pq

    from pipelines import report

    out, _manifest = audited
    copy = tmp_path / "copy"
    shutil.copytree(out, copy, ignore=shutil.ignore_patterns("report.html", "views"))
    found = table_rows(copy, "match_violations")
    assert found
    path, ok = report.write_report(copy, views=0)
    page = path.read_text()
    assert ok and 'id="matches"' in page
    for code in {r["code"] for r in found}:
        assert f"<code>{code}</code>" in page
    assert f"{len(found):,} match findings" in page
    manifest = json.loads((copy / "manifest.json").read_text())
    assert report.compute(copy).match_violations == manifest["matches"]["violations"]
    for name in MATCH_TABLES:  # drop one row of each match table
        damaged = copy.parent / f"damaged-{name}"
        shutil.copytree(copy, damaged, ignore=shutil.ignore_patterns("report.html", "views"))
        [f] = list_table_files(str(damaged), name)
        t = pq.read_table(f)
        pq.write_table(t.slice(0, t.num_rows - 1).replace_schema_metadata(t.schema.metadata), f)
        assert report.write_report(damaged, views=0)[1] is False, name


def test_games_rows_carry_their_match_so_a_match_joins_to_its_hands(match_archive, audited):
    """games.match_id and games.hand_index (null for a hand of no match): each match's hands and
    their record count, from the tables alone (found by the data-team review)."""
    out, _ = audited
    games = table_rows(out, "games")
    by_match: dict[str, list[int]] = {}
    for g in games:
        if g["match_id"] is not None:
            by_match.setdefault(g["match_id"], []).append(g["hand_index"])
    assert sum(1 for g in games if g["match_id"] is None and g["hand_index"] is None) == 3  # the 大连 hands
    matches = {m["match_id"]: m for m in table_rows(out, "matches")}
    assert set(by_match) == set(matches)
    harbin = [sorted(hands) for match_id, hands in by_match.items() if match_id.startswith("sim-harbin")]
    assert harbin == [list(range(5))] * 3


def test_a_match_id_too_long_to_be_a_key_makes_write_error_rows(tmp_path):
    """An over-long match id (over 64 KiB) would be cut in the match tables, and two matches share a
    key: its records are `write` error rows instead, in no match (found by the data-team review)."""
    payloads = []
    for tail in "ab":
        for record in simulate_match(get_ruleset("hebei"), {}, 8, 0, 2):
            record.match_id = "M" * 70_000 + tail
            payloads.append(records.to_binary(record))
    path = tmp_path / "long.tfrecord"
    archive.write_archive(path, payloads)
    out = tmp_path / "out"
    manifest = J.run_audit(J.AuditConfig(inputs=[str(path)], out=str(out), beam_args=[]))
    assert manifest["reconciliation"]["ok"] and table_rows(out, "matches") == []
    errors = table_rows(out, "errors")
    assert len(errors) == 4 and {e["stage"] for e in errors} == {"write"}
    assert all("games.match_id" in e["reason"] for e in errors)
