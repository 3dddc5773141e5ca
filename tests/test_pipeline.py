"""The Beam audit pipeline: nothing lost, same tables on every runner, reconciliation that bites.

One damaged archive (40 HandBuilder records plus every kind of damage), a small zstd archive and
a truncated gzip file are audited in process, with 2 worker processes and through the portable
Job API; the tables must equal a plain sequential replay and each other, row for row.
"""
from __future__ import annotations

import json
import os
import pathlib
import re
import socket
import subprocess
import sys
import time

import pyarrow.parquet as pq
import pytest
from apache_beam.io.restriction_trackers import OffsetRange, OffsetRestrictionTracker
from apache_beam.options.pipeline_options import PipelineOptions
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipelines import job as J
from pipelines import rows as R
from pipelines import runner as RUN
from pipelines import synthetic
from pipelines.files import list_archives
from pipelines.reader import ERRORS as READER_ERRORS
from pipelines.reader import ReadArchiveFn
from pipelines.schemas import KEYS, TABLES
from pipelines.tables import list_table_files, read_table
from referee import archive, records
from referee.cli import main as cli_main
from referee.verdict import UNREPLAYABLE
from referee.verify import verify_record

MJREF = os.path.join(os.path.dirname(sys.executable), "mjref")
ALL_TABLES = ("games", "violations", "settlements", "errors", "decisions")


# -- inputs and the sequential reference ------------------------------------------------------
CUT_RECORDS = 3  # whole records in the readable half of cut.tfrecord.gz (12 written)


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    d = tmp_path_factory.mktemp("archives")
    damage = synthetic.corrupt_archive(d / "hands.tfrecord", synthetic.payloads(40, seed=11))
    archive.write_archive(d / "more.tfrecord.zst", synthetic.payloads(6, seed=12))
    archive.write_archive(d / "whole.tfrecord.gz", synthetic.payloads(12, seed=13))
    gz = (d / "whole.tfrecord.gz").read_bytes()
    (d / "cut.tfrecord.gz").write_bytes(gz[: len(gz) // 2])  # a damaged compressed stream: a prefix is read
    (d / "whole.tfrecord.gz").unlink()
    return {"dir": d, "damage": damage, "paths": [str(d / "hands.tfrecord"), str(d)]}


def reference(paths: list[str]) -> dict[str, list[dict]]:
    """The tables as a plain loop over referee.archive.scan and the referee would write them."""
    out = {name: [] for name in ALL_TABLES}
    for f in list_archives(paths):
        for item in archive.iter_archive(f.path):
            if isinstance(item, archive.CorruptSpan):
                out["errors"].append(R.error_row(f.path, item.offset, item.length, "framing", item.reason))
                continue
            try:
                record = records.parse_binary(item.payload)
            except records.RecordError as err:
                out["errors"].append(R.error_row(f.path, item.offset, item.length, "decode", str(err)))
                continue
            v = verify_record(record, None, trace=True)
            if v.status == UNREPLAYABLE:
                out["errors"].append(R.error_row(f.path, item.offset, item.length, "replay", v.reason, v.game_id))
                continue
            out["games"].append(R.game_row(f.path, item.offset, v))
            out["violations"] += R.violation_rows(f.path, item.offset, v)
            out["settlements"] += R.settlement_rows(f.path, item.offset, v, len(record.players))
            out["decisions"] += R.decision_rows(f.path, item.offset, v)
    return out


def canonical(rows: list[dict], name: str) -> list[dict]:
    """Rows in a fixed order: by the table's key columns, then by everything."""
    def key(r):
        return (tuple((r[k] is None, r[k] or 0) if k in ("event_index", "seat") else r[k] for k in KEYS[name]),
                json.dumps(r, sort_keys=True, ensure_ascii=False))
    return sorted(rows, key=key)


def tables_of(out) -> dict[str, list[dict]]:
    return {name: canonical(read_table(str(out), name).to_pylist(), name) for name in ALL_TABLES}


def audit(inputs, out, *beam_args, **kw) -> dict:
    return J.run_audit(J.AuditConfig(inputs=inputs["paths"], out=str(out), decisions=True,
                                     beam_args=list(beam_args), **kw))


@pytest.fixture(scope="module")
def expected(inputs):
    return {name: canonical(rows, name) for name, rows in reference(inputs["paths"]).items()}


@pytest.fixture(scope="module")
def in_process(inputs, tmp_path_factory):
    out = tmp_path_factory.mktemp("run") / "in_process"
    return out, audit(inputs, out)


# -- (a) in process ---------------------------------------------------------------------------
def test_in_process_tables_equal_a_sequential_replay(in_process, expected):
    out, manifest = in_process
    got = tables_of(out)
    for name in ALL_TABLES:
        assert got[name] == expected[name], name
    assert manifest["reconciliation"] == {
        # hands: 41 frames (40 records - 1 smashed + 1 undecodable + 1 "nope") + 3 spans; zst: 6; cut gz:
        # the records before the cut, and the record it went through
        "ok": True, "records_in": 41 + 3 + 6 + CUT_RECORDS + 1, "verdict_rows": len(expected["games"]),
        "error_rows": len(expected["errors"]), "problems": []}


def test_every_kind_of_damage_is_one_error_row(in_process, inputs):
    out, manifest = in_process
    errors = read_table(str(out), "errors").to_pylist()
    hands = list_archives(inputs["paths"][:1])[0].path
    dmg = inputs["damage"]
    by_stage = {}
    for e in errors:
        by_stage.setdefault(e["stage"], []).append(e)
    assert {(e["file"].endswith("cut.tfrecord.gz"), e["reason"].split(":")[0]) for e in by_stage["framing"]} == {
        (False, archive.PAYLOAD_CRC), (False, archive.GARBAGE), (False, archive.TRUNCATED), (True, archive.DAMAGED)}
    # The cut compressed file: the records before the cut are games rows; the one it cut is the error.
    cut = str(inputs["dir"] / "cut.tfrecord.gz")
    [cut_span] = [e for e in by_stage["framing"] if e["file"] == cut]
    cut_games = [g for g in read_table(str(out), "games").to_pylist() if g["source"] == cut]
    assert len(cut_games) == CUT_RECORDS and max(g["offset"] for g in cut_games) < cut_span["offset"]
    # Each corrupt span of the walk is exactly one framing row, offset and length included.
    spans = [i for i in archive.scan(archive.read_bytes(hands)) if isinstance(i, archive.CorruptSpan)]
    assert sorted((e["offset"], e["length"], e["reason"]) for e in by_stage["framing"] if e["file"] == hands) == [
        (s.offset, s.length, s.reason) for s in spans]
    assert any(s.offset == dmg.garbage_offset for s in spans) and spans[-1].offset == dmg.truncated_offset
    [decode] = by_stage["decode"]
    assert decode["offset"] == dmg.undecodable_offset and decode["game_id"] is None
    [replay] = by_stage["replay"]
    assert replay["game_id"] == dmg.bad_ruleset_game and "nope" in replay["reason"]
    assert "referee_exception" not in by_stage
    games = {g["game_id"] for g in read_table(str(out), "games").to_pylist()}
    assert dmg.smashed_game not in games and dmg.bad_ruleset_game not in games
    assert manifest["errors"]["by_stage"] == {"framing": 4, "decode": 1, "replay": 1, "referee_exception": 0,
                                              "write": 0}
    assert manifest["corrupt"]["spans"] == 4 == manifest["records_in"]["corrupt_spans"]
    assert manifest["corrupt"]["bytes"] == sum(s.length for s in spans) + cut_span["length"]  # uncompressed bytes


def test_manifest_counts_come_from_the_tables(in_process):
    out, manifest = in_process
    games = read_table(str(out), "games").to_pylist()
    violations = read_table(str(out), "violations").to_pylist()
    assert manifest["verdicts"]["total"] == len(games)
    statuses = {}
    for g in games:
        statuses[g["status"]] = statuses.get(g["status"], 0) + 1
    assert manifest["verdicts"]["by_status"] == statuses and set(statuses) <= {"clean", "violations"}
    assert manifest["verdicts"]["settlement_mismatches"] == sum(g["mismatch"] for g in games) > 0
    assert sum(manifest["violations"]["by_code"].values()) == len(violations) == manifest["violations"]["total"]
    for name, info in manifest["tables"].items():
        assert info["rows"] == info["rows_written"] == len(read_table(str(out), name))
    assert manifest["records_in"]["total"] == manifest["verdicts"]["total"] + manifest["errors"]["total"]
    assert manifest["versions"]["referee"] and manifest["wall_clock_seconds"] > 0
    assert manifest["hands_per_second"] > 0 and manifest["options"]["decisions"] is True
    assert json.loads((out / "manifest.json").read_text()) == manifest
    assert not (out / J.TALLY_FILE).exists()


def test_parquet_files_carry_the_declared_schemas(in_process):
    out, _ = in_process
    for name in ALL_TABLES:
        files = list_table_files(str(out), name)
        assert files, name
        for path in files:
            schema = pq.read_schema(path)
            assert schema.equals(TABLES[name], check_metadata=True), name
            assert pq.ParquetFile(path).metadata.row_group(0).column(0).compression == "ZSTD"


def test_duckdb_and_polars_read_each_directory_as_a_table(in_process):
    out, manifest = in_process
    duckdb = pytest.importorskip("duckdb")
    for name in ALL_TABLES:
        n = duckdb.sql(f"select count(*) from read_parquet('{out}/{name}/*.parquet')").fetchall()[0][0]
        assert n == manifest["tables"][name]["rows_written"], name
    top = duckdb.sql(f"""select code, count(*) n from '{out}/violations/*.parquet' group by code""").fetchall()
    assert dict(top) == manifest["violations"]["by_code"]
    pl = pytest.importorskip("polars")
    for name in ALL_TABLES:
        assert pl.read_parquet(f"{out}/{name}/").height == manifest["tables"][name]["rows_written"], name
    games = pl.scan_parquet(f"{out}/games/").filter(pl.col("mismatch")).collect()
    assert games.height == manifest["verdicts"]["settlement_mismatches"]


# -- (b) two worker processes, (c) the portable Job API ----------------------------------------
def test_two_worker_processes_write_the_same_tables(inputs, in_process, tmp_path, capfd):
    out = tmp_path / "two_workers"
    manifest = audit(inputs, out, "--direct_num_workers", "2", "--direct_running_mode", "multi_processing",
                     progress_interval=0)
    assert manifest["reconciliation"]["ok"]
    assert tables_of(out) == tables_of(in_process[0])
    # The one big archive was split: both workers wrote (a bundle each, at least) ...
    assert len(list_table_files(str(out), "games")) >= 2
    # ... and both judged records. The workers got our pipeline options: Beam's own INFO lines
    # are off there (we set that option), our progress lines are on.
    err = capfd.readouterr().err
    assert len(set(re.findall(r"audit progress \[worker (\d+)\]", err))) == 2
    assert "INFO:apache_beam" not in err


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("localhost", 0))
        return s.getsockname()[1]


@pytest.fixture
def job_service(tmp_path):
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "apache_beam.runners.portability.local_job_service_main", "--port", str(port)],
        stdout=open(tmp_path / "job_service.log", "wb"), stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                pytest.fail(f"job service exited: {(tmp_path / 'job_service.log').read_text()[-2000:]}")
            try:
                socket.create_connection(("localhost", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail("job service did not listen within 60 s")
                time.sleep(0.2)
        yield f"localhost:{port}"
    finally:
        proc.kill()
        proc.wait(timeout=30)


@pytest.mark.portable
def test_portable_job_api_writes_the_same_tables(inputs, in_process, job_service, tmp_path):
    out = tmp_path / "portable"
    manifest = audit(inputs, out, "--runner=PortableRunner", f"--job_endpoint={job_service}",
                     "--environment_type=LOOPBACK")
    assert manifest["reconciliation"]["ok"] and manifest["options"]["runner"] == "PortableRunner"
    assert tables_of(out) == tables_of(in_process[0])


# -- reconciliation and the safety net ---------------------------------------------------------
def test_cli_exits_nonzero_when_a_record_goes_missing(inputs, tmp_path):
    out = tmp_path / "lost"
    proc = subprocess.run([MJREF, "audit", *inputs["paths"], "--out", str(out), "--test-drop-game", "syn-11-000005"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 3, proc.stderr
    assert "RECONCILIATION FAILED" in proc.stderr and "1 record(s) unaccounted for" in proc.stderr
    assert "NOT RECONCILED" in proc.stdout
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["reconciliation"]["ok"] is False


def test_a_referee_bug_is_an_error_row_not_a_crash(inputs, monkeypatch, tmp_path):
    from pipelines import judge

    def buggy(record, overrides=None, trace=False, contain_bugs=True, offers=None):
        assert contain_bugs is False  # the pipeline wants referee bugs raised, not contained
        if record.game_id == "syn-11-000007":
            raise ZeroDivisionError("boom")
        return verify_record(record, overrides, trace, contain_bugs, offers)

    monkeypatch.setattr(judge, "verify_record", buggy)  # the in-process runner shares this module
    manifest = J.run_audit(J.AuditConfig(inputs=inputs["paths"][:1], out=str(tmp_path / "bug")))
    assert manifest["reconciliation"]["ok"] and manifest["errors"]["by_stage"]["referee_exception"] == 1
    [row] = [e for e in read_table(str(tmp_path / "bug"), "errors").to_pylist() if e["stage"] == "referee_exception"]
    assert row["reason"].startswith("ZeroDivisionError('boom') at test_pipeline.py:")
    assert row["reason"].endswith(" in buggy") and row["game_id"] == "syn-11-000007"
    games = read_table(str(tmp_path / "bug"), "games").to_pylist()
    assert "syn-11-000007" not in {g["game_id"] for g in games}
    violations = read_table(str(tmp_path / "bug"), "settlements").to_pylist()
    assert "syn-11-000007" not in {v["game_id"] for v in violations}  # no partial output


# -- the splittable reader, without a runner ---------------------------------------------------
def read_ranges(path: str, size: int, cuts: list[int]) -> list:
    """Run the reader over the partition of [0, size) at `cuts`, as a runner would."""
    bounds = [0, *sorted(set(c for c in cuts if 0 < c < size)), size]
    got = []
    for start, stop in zip(bounds, bounds[1:]):
        tracker = OffsetRestrictionTracker(OffsetRange(start, stop))
        got += list(ReadArchiveFn().process((path, size, ""), tracker=tracker))
        tracker.check_done()
    return got


def as_items(outputs) -> list[tuple]:
    items = []
    for o in outputs:
        if hasattr(o, "tag"):
            assert o.tag == READER_ERRORS
            items.append(("span", o.value["offset"], o.value["length"], o.value["reason"]))
        else:
            items.append(("frame", o[1], o[2], o[3]))
    return items


def walk(data: bytes) -> list[tuple]:
    return [("frame", i.offset, i.length, i.payload) if isinstance(i, archive.Frame)
            else ("span", i.offset, i.length, i.reason) for i in archive.scan(data)]


@pytest.fixture(scope="module")
def garbled(inputs, tmp_path_factory):
    """The damaged archive with garbage in front too, so there is a leading span at 0."""
    path = tmp_path_factory.mktemp("garbled") / "lead.tfrecord"
    path.write_bytes(b"\x07" * 23 + open(inputs["paths"][0], "rb").read())
    return str(path)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cuts=st.lists(st.integers(0, 30_000), max_size=12))
def test_any_partition_reads_each_frame_and_span_exactly_once(garbled, cuts):
    data = open(garbled, "rb").read()
    assert as_items(read_ranges(garbled, len(data), cuts)) == walk(data)


def test_dynamic_split_mid_range_loses_nothing(garbled):
    data = open(garbled, "rb").read()
    for fraction in (0.0, 0.1, 0.5, 0.9):
        for after in (0, 1, 5, 17):
            tracker = OffsetRestrictionTracker(OffsetRange(0, len(data)))
            gen = ReadArchiveFn().process((garbled, len(data), ""), tracker=tracker)
            got = [next(gen) for _ in range(after)]
            split = tracker.try_split(fraction)
            got += list(gen)
            tracker.check_done()
            if split:
                residual = OffsetRestrictionTracker(split[1])
                got += list(ReadArchiveFn().process((garbled, len(data), ""), tracker=residual))
                residual.check_done()
            assert as_items(got) == walk(data), (fraction, after)


def test_initial_split_gives_several_parts_for_one_file(inputs):
    from pipelines.reader import ArchiveRestrictions

    path, size = inputs["paths"][0], os.path.getsize(inputs["paths"][0])
    provider = ArchiveRestrictions()
    parts = list(provider.split((path, size, ""), provider.initial_restriction((path, size, ""))))
    assert len(parts) >= 2 and parts[0].start == 0 and parts[-1].stop == size
    assert all(a.stop == b.start for a, b in zip(parts, parts[1:]))
    assert list(provider.split((path, size, "zstd"), OffsetRange(0, 1))) == [OffsetRange(0, 1)]


# -- the runner factory and the command line -----------------------------------------------------
def test_local_runs_get_an_fnapi_runner_with_the_options_encoded():
    from apache_beam.runners.portability.fn_api_runner.fn_runner import FnApiRunner

    for flags in ([], ["--runner=DirectRunner"], ["--runner=FnApiRunner"]):
        options = PipelineOptions(flags + ["--direct_num_workers=2"])
        runner = RUN.make_runner(options)
        assert isinstance(runner, FnApiRunner), flags  # never DirectRunner: it would try Prism first
        encoded = dict(runner._provision_info.provision_info.pipeline_options)
        assert encoded["beam:option:direct_num_workers:v1"] == "2"
        assert encoded["beam:option:direct_running_mode:v1"] == "multi_processing"  # workers alone imply it
    in_memory = PipelineOptions(["--direct_num_workers=2", "--direct_running_mode=in_memory"])
    RUN.make_runner(in_memory)
    assert in_memory.get_all_options()["direct_running_mode"] == "in_memory"  # an explicit mode is kept
    assert RUN.make_runner(PipelineOptions(["--runner=PortableRunner", "--job_endpoint=x:1"])) is None


def test_cli_passes_beam_flags_through_and_reports_bad_input(tmp_path, capsys):
    from referee.cli import build_parser

    args = build_parser().parse_args(
        ["audit", "a.tfrecord", "b.tfrecord", "--runner", "PortableRunner", "--out", "o", "--job_endpoint=h:1",
         "--direct_num_workers", "2", "--option", "hb_cap=0", "--decisions", "--save_main_session"])
    assert args.inputs == ["a.tfrecord", "b.tfrecord"] and args.out == "o" and args.decisions
    assert args.option == [("hb_cap", "0")]
    assert args.beam_args == ["--runner=PortableRunner", "--job_endpoint=h:1", "--direct_num_workers=2",
                              "--save_main_session"]
    assert cli_main(["audit", str(tmp_path / "missing.tfrecord"), "--out", str(tmp_path / "o")]) == 2
    assert "no such file or directory" in capsys.readouterr().err


def test_rows_become_tables_in_order_in_bounded_batches():
    from apache_beam.utils.windowed_value import WindowedValue

    from pipelines.schemas import ERRORS
    from pipelines.tables import RowsToTables

    rows = [R.error_row("f", i, 1, "framing", f"r{i}") for i in range(25)]
    fn = RowsToTables(ERRORS, batch_rows=10, chunk_rows=3)
    fn.start_bundle()
    tables = []
    for item in (rows[:2], rows[2], rows[3:9], *rows[9:]):  # lists of a record's rows, or single rows
        tables += list(fn.process(item))
    tables += [w.value for w in fn.finish_bundle() if isinstance(w, WindowedValue)]
    assert [t.num_rows for t in tables] == [12, 12, 1]
    assert all(t.schema.equals(ERRORS, check_metadata=True) for t in tables)
    assert [r for t in tables for r in t.to_pylist()] == rows


def test_inputs_name_files_directories_and_globs_each_once(inputs, tmp_path):
    from pipelines.files import InputError

    d = inputs["dir"]
    listed = list_archives([str(d / "hands.tfrecord"), str(d), str(d / "*.zst")])
    assert [os.path.basename(a.path) for a in listed] == ["hands.tfrecord", "cut.tfrecord.gz", "more.tfrecord.zst"]
    assert [a.compression for a in listed] == ["", "gzip", "zstd"]
    for bad, message in ((tmp_path / "nope.tfrecord", "no such file"), (tmp_path / "*.tfrecord", "matches no file"),
                         (tmp_path, "no archive files")):
        with pytest.raises(InputError, match=message):
            list_archives([str(bad)])


def test_files_a_directory_leaves_out_are_named_not_dropped(tmp_path, capsys):
    """A hidden archive or another name under a directory is not read by audit nor verify (one rule,
    archive.walk_dir), and each names it: the manifest's inputs.not_read, verify's summary."""
    from referee.cli import main

    source = pathlib.Path(__file__).parent.parent / "samples" / "archives" / "samples.tfrecord"
    (tmp_path / "a.tfrecord").write_bytes(source.read_bytes())
    (tmp_path / ".b.tfrecord").write_bytes(source.read_bytes())
    (tmp_path / "c.tfrec").write_bytes(source.read_bytes())
    sample = source.parent.parent / "hebei" / "ready_lock_breach.textproto"
    (tmp_path / "D.TEXTPROTO").write_bytes(sample.read_bytes())  # a record file, whatever the case
    not_read: list[str] = []
    assert [os.path.basename(a.path) for a in list_archives([str(tmp_path)], not_read)] == ["a.tfrecord"]
    assert [os.path.basename(p) for p in not_read] == [".b.tfrecord", "D.TEXTPROTO", "c.tfrec"]  # archives only
    main(["verify", "--only-findings", str(tmp_path)])
    out = capsys.readouterr().out
    assert "not read: 2 file(s)" in out and ".b.tfrecord" in out and "c.tfrec" in out
    assert "D.TEXTPROTO: game hb-ready-lock" in out  # (read, and it has a finding)


# -- issue 8: one record never fails the job ----------------------------------------------------
def crafted_records() -> dict[str, "records.GameRecord"]:
    """Records whose rows cannot all be written, or that once made the referee raise."""
    out = {}
    r = synthetic.build_record("crafted-304-payments", "self_draw_win", seed=3)
    del r.claimed.payments[:]
    r.claimed.payments.extend(range(-152, 152))  # 304 seats' payments: seat 128 does not fit int8
    out["304 payments"] = r
    r = synthetic.build_record("crafted-players", "discard_win", seed=4)
    for i in range(200):
        r.players.add(player_id=f"p{i}")
    out["204 players"] = r  # unreplayable: a replay error row, never 204 settlement rows
    r = synthetic.build_record("crafted-" + "x" * 70_000, "draw", seed=5)  # a game id over the string limit
    out["long game id"] = r
    r = synthetic.build_record("crafted-multiplier", "self_draw_win", seed=6)
    r.ruleset.options["hb_room_multiplier"] = str(10 ** 20)  # amounts past int64
    r.ruleset.options["hb_cap"] = "0"
    out["int64 overflow"] = r
    for value in (5, -1, 99):
        r = synthetic.build_record(f"crafted-win-kind-{value}", "self_draw_win", seed=7)
        next(e for e in r.events if e.HasField("win")).win.kind = value
        out[f"win kind {value}"] = r
    return out


def test_records_that_do_not_fit_the_tables_are_error_rows_and_the_rest_is_written(tmp_path):
    crafted = crafted_records()
    good = synthetic.payloads(44, seed=21)
    payloads = good[:20] + [records.to_binary(r) for r in crafted.values()] + good[20:]
    path = tmp_path / "crafted.tfrecord"
    archive.write_archive(path, payloads)
    out = tmp_path / "out"
    manifest = J.run_audit(J.AuditConfig(inputs=[str(path)], out=str(out), decisions=True))
    assert manifest["reconciliation"]["ok"], manifest["reconciliation"]
    assert manifest["records_in"]["total"] == 44 + len(crafted)
    errors = {e["game_id"][:40]: e for e in read_table(str(out), "errors").to_pylist()}
    write = {k: e for k, e in errors.items() if e["stage"] == "write"}
    assert set(write) == {"crafted-304-payments", "crafted-" + "x" * 32, "crafted-multiplier"}
    assert write["crafted-304-payments"]["reason"].startswith("settlements.seat (row 129 of 304): 128 does not fit int8")
    assert errors["crafted-players"]["stage"] == "replay" and "204 players" in errors["crafted-players"]["reason"]
    assert "over the 65,536-byte limit" in write["crafted-" + "x" * 32]["reason"]
    assert "does not fit int64" in write["crafted-multiplier"]["reason"]
    assert len(write["crafted-" + "x" * 32]["game_id"].encode()) <= 65_536  # the error row itself is cut to fit
    assert manifest["errors"]["by_stage"]["write"] == 3 and manifest["errors"]["by_stage"]["referee_exception"] == 0
    # The out-of-range enum values are findings at their event, with every table written.
    games = {g["game_id"]: g for g in read_table(str(out), "games").to_pylist()}
    assert len(games) == 44 + 3
    violations = read_table(str(out), "violations").to_pylist()
    for value in (5, -1, 99):
        gid = f"crafted-win-kind-{value}"
        assert games[gid]["status"] == "violations"
        [v] = [v for v in violations if v["game_id"] == gid]
        assert v["code"] == "INVALID_VALUE" and v["event_index"] is not None and str(value) in v["message"]
    settlements = read_table(str(out), "settlements").to_pylist()
    assert len(settlements) == 4 * len(games)
    decisions = read_table(str(out), "decisions")
    assert set(decisions.column("effect").to_pylist()) <= {"took effect", "declared", "overridden", "refused", "implied"}


def test_every_row_the_validator_passes_converts_and_every_error_row_fits():
    from pipelines.schemas import ERRORS
    from pipelines.tables import to_batch
    from pipelines.validate import RowValidator

    long = "长" * 30_000  # 90,000 bytes of UTF-8
    row = R.error_row("f" * 100_000, 1, 2, "write", long + "\ud800", game_id=long)
    assert RowValidator("errors", ERRORS).first_problem([row]) is None
    assert to_batch([row], ERRORS).num_rows == 1
    assert row["reason"].endswith("bytes in all]") and len(row["reason"].encode()) <= 65_536


def test_one_record_with_more_rows_than_a_chunk_is_split_into_batches():
    from apache_beam.utils.windowed_value import WindowedValue

    from pipelines.schemas import ERRORS
    from pipelines.tables import RowsToTables

    rows = [R.error_row("f", i, 1, "framing", f"r{i}") for i in range(10)]
    fn = RowsToTables(ERRORS, batch_rows=100, chunk_rows=3)
    fn.start_bundle()
    assert list(fn.process(rows)) == []
    [table] = [w.value for w in fn.finish_bundle() if isinstance(w, WindowedValue)]
    assert [b.num_rows for b in table.to_batches()] == [3, 3, 3, 1] and table.to_pylist() == rows


def test_an_empty_archive_writes_a_manifest_and_exits_2(tmp_path):
    empty = tmp_path / "empty.tfrecord"
    empty.write_bytes(b"")
    out = tmp_path / "out"
    proc = subprocess.run([MJREF, "audit", str(empty), "--out", str(out)], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert f"no record in {empty}" in proc.stderr and f"no record in {empty}" in proc.stdout
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["records_in"]["total"] == 0 and manifest["reconciliation"]["ok"]
    assert manifest["inputs"]["empty"] == [str(empty)] and manifest["inputs"]["files"][0]["records_in"] == 0
    for name in ("games", "violations", "settlements", "errors"):
        assert len(list_table_files(str(out), name)) == 1  # an empty table, not a missing path
