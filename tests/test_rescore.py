"""`mjref rescore`: the bundled archive under changed Hebei options, checked against verdicts computed one
by one; the same table bytes in process and with 2 workers; damage and unreplayable records as error rows;
the tables read by DuckDB and Polars; bad options refused before anything runs."""
from __future__ import annotations

import pathlib

import pyarrow.parquet as pq
import pytest

from pipelines import synthetic
from pipelines.files import list_archives
from pipelines.rescore_job import RescoreConfig, run_rescore
from pipelines.rows import money_moved
from pipelines.schemas import RESCORE_TABLES
from pipelines.tables import list_table_files, read_table
from referee import archive, records
from referee.cli import main as cli_main
from referee.rules import overrides_change
from referee.verdict import UNREPLAYABLE
from referee.verify import verify_record

ARCHIVE = pathlib.Path(__file__).resolve().parents[1] / "samples" / "archives" / "samples.tfrecord"
# Doubles every Hebei amount (money moves) and lifts the ready lock (verdicts change).
OVERRIDES = {"hb_room_multiplier": "2", "hb_ready_lock": "false"}


def oracle(path: str, overrides: dict) -> dict:
    """Per (source, offset): both verdicts, computed one by one (no shortcut for untouched records);
    plus the offsets of frames that do not decode and the count of corrupt spans."""
    [f] = list_archives([path])
    verdicts, undecodable, spans = {}, [], 0
    for item in archive.scan(archive.read_bytes(f.path)):
        if isinstance(item, archive.CorruptSpan):
            spans += 1
            continue
        try:
            record = records.parse_binary(item.payload)
        except records.RecordError:
            undecodable.append(item.offset)
            continue
        verdicts[(f.path, item.offset)] = (record, verify_record(record), verify_record(record, overrides))
    return {"verdicts": verdicts, "undecodable": undecodable, "spans": spans}


def payments(v):
    return None if v.recomputed is None else list(v.recomputed.payments)


def at(values, seat):
    """A seat's amount, None when unknown (no settlement, or a claimed result listing fewer seats)."""
    return values[seat] if values is not None and seat < len(values) else None


def rescore(inputs, out, overrides=OVERRIDES, *beam_args) -> dict:
    return run_rescore(RescoreConfig(inputs=[str(p) for p in inputs], out=str(out), overrides=dict(overrides),
                                     beam_args=list(beam_args), progress_interval=0))


@pytest.fixture(scope="module")
def expected():
    return oracle(str(ARCHIVE), OVERRIDES)


@pytest.fixture(scope="module")
def in_process(tmp_path_factory):
    out = tmp_path_factory.mktemp("rescore") / "in_process"
    return out, rescore([ARCHIVE], out)


def test_tables_equal_verdicts_computed_one_by_one(in_process, expected):
    out, manifest = in_process
    games = {(g["source"], g["offset"]): g for g in read_table(str(out), "rescore_games").to_pylist()}
    seats = read_table(str(out), "rescore_seats").to_pylist()
    assert set(games) == set(expected["verdicts"])  # no sample record is unreplayable under both
    for key, (record, own, new) in expected["verdicts"].items():
        g = games[key]
        assert (g["game_id"], g["ruleset"], g["status_own"], g["status_new"]) == (
            own.game_id, own.ruleset, own.status, new.status)
        assert g["violations_own"] == sorted(v.code for v in own.violations)
        assert g["violations_new"] == sorted(v.code for v in new.violations)
        assert g["verdict_changed"] == (g["status_own"] != g["status_new"] or g["violations_own"] != g["violations_new"])
        assert (g["recomputed_own"], g["recomputed_new"]) == (payments(own), payments(new))
        assert g["claimed_payments"] == (None if own.claimed is None else list(own.claimed))
        assert (g["mismatch_own"], g["mismatch_new"]) == (own.mismatch, new.mismatch)
        if record.ruleset.name != "hebei":  # the overrides are Hebei's: other rulesets are left alone
            assert not g["verdict_changed"] and not g["payments_changed"] and g["money_moved"] in (0, None)
    by_key = {}
    for s in seats:
        by_key.setdefault((s["source"], s["offset"]), []).append(s)
    assert set(by_key) == set(games)
    for key, rows in by_key.items():
        _record, own, new = expected["verdicts"][key]
        assert [r["seat"] for r in rows] == list(range(len(rows))) and len(rows) >= 4
        for r in rows:
            seat = r["seat"]
            o, n, c = (at(values, seat) for values in (payments(own), payments(new), own.claimed))
            assert (r["claimed"], r["recomputed_own"], r["recomputed_new"]) == (c, o, n)
            assert r["difference"] == (None if o is None or n is None else n - o)
            assert r["new_minus_claimed"] == (None if c is None or n is None else n - c)


def test_the_money_moved_is_the_sum_over_the_verdicts(in_process, expected):
    out, manifest = in_process
    total, changed_games, changed_verdicts, hebei_moved = 0, 0, 0, 0
    for _record, own, new in expected["verdicts"].values():
        o, n = payments(own), payments(new)
        if o is not None and n is not None:
            moved = sum(max(b - a, 0) for a, b in zip(o, n))  # Hebei settles zero-sum: gains = losses
            assert moved == sum(abs(b - a) for a, b in zip(o, n)) // 2
            total += moved
            hebei_moved += moved if own.ruleset == "hebei" else 0
        changed_games += o != n
        changed_verdicts += own.status != new.status or sorted(v.code for v in own.violations) != sorted(
            v.code for v in new.violations)
    r = manifest["rescore"]
    assert total > 0 and changed_games > 0 and changed_verdicts > 0
    assert (r["money_moved"], r["payments_changed"], r["verdicts_changed"]) == (total, changed_games, changed_verdicts)
    assert r["by_ruleset"]["hebei"]["money_moved"] == hebei_moved == total
    assert r["games"] == len(expected["verdicts"]) == sum(f["games"] for f in r["by_ruleset"].values())
    assert sum(r["verdict_changes"].values()) == changed_verdicts and r["verdict_changes"]["violations -> clean"] >= 1
    seats = read_table(str(out), "rescore_seats").to_pylist()
    assert sum(s["difference"] for s in seats if s["difference"] and s["difference"] > 0) == total


def test_damage_is_error_rows_and_the_counts_reconcile(in_process, expected):
    out, manifest = in_process
    errors = read_table(str(out), "rescore_games"), read_table(str(out), "errors").to_pylist()
    by_stage = {}
    for e in errors[1]:
        by_stage[e["stage"]] = by_stage.get(e["stage"], 0) + 1
    assert by_stage == {"framing": expected["spans"], "decode": len(expected["undecodable"])}
    assert manifest["errors"]["by_stage"]["framing"] == expected["spans"] > 0
    assert manifest["reconciliation"]["ok"], manifest["reconciliation"]
    assert manifest["records_in"]["total"] == errors[0].num_rows + len(errors[1])
    for name, info in manifest["tables"].items():
        assert info["rows"] == info["rows_written"], name
    assert manifest["options"]["rule_options"] == dict(sorted(OVERRIDES.items()))


def test_files_carry_their_schemas_and_duckdb_and_polars_read_them(in_process):
    out, manifest = in_process
    for name, schema in RESCORE_TABLES.items():
        for path in list_table_files(str(out), name):
            assert pq.read_schema(path).equals(schema, check_metadata=True), name
    duckdb = pytest.importorskip("duckdb")
    moved = duckdb.sql(f"select sum(money_moved) from '{out}/rescore_games/*.parquet'").fetchall()[0][0]
    assert moved == manifest["rescore"]["money_moved"]
    by_ruleset = dict(duckdb.sql(f"select ruleset, count(*) from '{out}/rescore_seats/*.parquet' "
                                 "where difference <> 0 group by ruleset").fetchall())
    assert set(by_ruleset) == {"hebei"}
    pl = pytest.importorskip("polars")
    games = pl.read_parquet(f"{out}/rescore_games/")
    assert games.height == manifest["rescore"]["games"]
    assert games.filter(pl.col("verdict_changed")).height == manifest["rescore"]["verdicts_changed"]
    assert pl.read_parquet(f"{out}/errors/").height == manifest["errors"]["total"]


def test_two_workers_write_the_same_bytes(in_process, tmp_path):
    out = tmp_path / "two_workers"
    manifest = rescore([ARCHIVE], out, OVERRIDES, "--direct_num_workers=2", "--direct_running_mode=multi_processing")
    assert manifest["reconciliation"]["ok"] and manifest["rescore"] == in_process[1]["rescore"]
    for name in RESCORE_TABLES:
        mine = list_table_files(str(in_process[0]), name)
        theirs = list_table_files(str(out), name)
        assert [pathlib.Path(p).name for p in mine] == [pathlib.Path(p).name for p in theirs], name
        for a, b in zip(mine, theirs):
            assert pathlib.Path(a).read_bytes() == pathlib.Path(b).read_bytes(), name


def test_unreplayable_under_both_is_an_error_row_under_one_a_games_row(tmp_path):
    path = tmp_path / "hands.tfrecord"
    damage = synthetic.corrupt_archive(path, synthetic.payloads(12, seed=31))
    fixed = synthetic.build_record("bad-cap-fixed-by-override", "self_draw_win", seed=32)
    fixed.ruleset.options["hb_cap"] = "lots"  # unreplayable as recorded, replayable under hb_cap=0
    extra = tmp_path / "extra.tfrecord"
    archive.write_archive(extra, [records.to_binary(fixed)])
    manifest = rescore([path, extra], tmp_path / "out", {"hb_cap": "0"})
    assert manifest["reconciliation"]["ok"], manifest["reconciliation"]
    errors = read_table(str(tmp_path / "out"), "errors").to_pylist()
    [replay] = [e for e in errors if e["stage"] == "replay"]
    assert replay["game_id"] == damage.bad_ruleset_game and "nope" in replay["reason"]
    games = {g["game_id"]: g for g in read_table(str(tmp_path / "out"), "rescore_games").to_pylist()}
    g = games["bad-cap-fixed-by-override"]
    assert (g["status_own"], g["recomputed_own"], g["money_moved"]) == (UNREPLAYABLE, None, None)
    assert "lots" in g["reason_own"] and g["status_new"] != UNREPLAYABLE and g["recomputed_new"] is not None
    assert g["verdict_changed"] and g["payments_changed"]
    assert manifest["rescore"]["money_unknown"] >= 1


def test_bad_or_missing_options_exit_2_before_anything_is_written(tmp_path, capsys):
    out = tmp_path / "out"
    assert cli_main(["rescore", str(ARCHIVE), "--out", str(out), "--option", "hb_cap=banana"]) == 2
    assert "mjref rescore: error: --option: option hb_cap takes a whole number" in capsys.readouterr().err
    assert cli_main(["rescore", str(ARCHIVE), "--out", str(out), "--option", "no_such_option=1"]) == 2
    with pytest.raises(SystemExit) as stop:
        cli_main(["rescore", str(ARCHIVE), "--out", str(out)])
    assert stop.value.code == 2 and "--option" in capsys.readouterr().err
    assert not out.exists()


def test_the_command_prints_the_summary(tmp_path, capsys):
    out = tmp_path / "out"
    assert cli_main(["rescore", str(ARCHIVE), "--out", str(out), "--option", "hb_room_multiplier=3",
                     "--progress-seconds", "0"]) == 0
    text = capsys.readouterr().out
    assert "under hb_room_multiplier=3" in text and "money moved" in text and "reconciled" in text
    assert (out / "manifest.json").exists()


def test_money_moved_is_what_changes_hands():
    assert money_moved([10, -10, 0, 0], [20, -20, 0, 0]) == 10
    assert money_moved([3, -1, -1, -1], [1, -3, -3, -3]) == 8  # a coin room's fee: everyone loses, nobody gains
    assert money_moved(None, [1, -1, 0, 0]) is None


def test_overrides_change_only_what_the_ruleset_reads():
    assert overrides_change("hebei", {}, {"hb_cap": "500"})
    assert not overrides_change("hebei", {}, {"hb_cap": "1000"})  # the default: the same rules
    assert not overrides_change("hebei", {"hb_cap": "500"}, {"hb_cap": "500"})
    assert not overrides_change("ningxiang", {}, {"hb_cap": "500"})  # not an option of that ruleset
    assert overrides_change("hebei", {"hb_cap": "lots"}, {"hb_cap": "0"})  # cannot tell: replay both
