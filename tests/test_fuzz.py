"""Fuzzing: whatever a record or an archive holds, nothing escapes, nothing is lost.

Hypothesis strategies over GameRecord (random events, fields, enum values, sizes, built on the
sample records and a few self-play hands) and byte-level mutation of framed archives
(pipelines/fuzz.py, the same code benchmarks/fuzz_audit.py runs at scale). Each asserts:
  * no exception escapes the referee, with bugs *not* contained (contain_bugs=False), and no
    record takes longer than SLOW_SECONDS;
  * the referee step turns every frame into exactly one games row or one error row, and every
    row it passes fits its Arrow schema;
  * a fuzzed archive audited end to end reconciles, with one row per intact frame.

The examples are derandomized, so CI sees the same cases every run. MJREF_FUZZ=deep explores:
random cases, many more of them (and hypothesis prints any failure's seed and shrunk record).
"""
from __future__ import annotations

import functools
import os
import pathlib
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipelines import fuzz
from pipelines import rows as R
from pipelines.judge import ERRORS, GAMES, MATCH_HANDS, JudgeFn
from pipelines.schemas import RESCORE_TABLES, TABLES
from pipelines.tables import to_batch
from pipelines.validate import MAX_STRING_BYTES, RowValidator
from referee import archive, records
from referee.proto import record_pb2 as pb
from referee.verdict import CLEAN, UNREPLAYABLE, VIOLATIONS
from referee.verify import verify_record

ROOT = pathlib.Path(__file__).resolve().parent.parent
DEEP = os.environ.get("MJREF_FUZZ") == "deep"
SLOW_SECONDS = 5.0  # a hang detector, not a benchmark: records take milliseconds


def fuzz_settings(examples: int):
    return settings(max_examples=examples * (25 if DEEP else 1), derandomize=not DEEP, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture], database=None)


@functools.cache
def bases() -> tuple[bytes, ...]:
    """Clean and faulty records to mutate: every sample, and self-play hands of both rulesets."""
    samples = [records.to_binary(records.read_record(p)) for d in ("hebei", "ningxiang")
               for p in sorted((ROOT / "samples" / d).glob("*.textproto"))]
    return tuple(fuzz.base_payloads(per_ruleset=3, seed=8, extra=samples))


@functools.cache
def judge_fn(decisions: bool) -> JudgeFn:
    fn = JudgeFn(decisions=decisions)
    fn.setup()
    return fn


def judge_frame(payload: bytes, decisions: bool = True) -> tuple[str, list]:
    """The referee step on one frame, without a runner: ("games" | "errors", its outputs)."""
    out = list(judge_fn(decisions).process(("fuzz.tfrecord", 0, len(payload) + 16, payload)))
    # A record with a match id also goes to the match checks, replayable or not (pipelines/matches.py):
    # that output is no table row.
    out = [o for o in out if getattr(o, "tag", None) != MATCH_HANDS]
    main = [o for o in out if not hasattr(o, "tag")]
    errors = [o.value for o in out if getattr(o, "tag", None) == ERRORS]
    if errors:
        assert len(errors) == 1 and len(out) == 1, out  # an error row is the record's only output
        return ERRORS, errors
    assert len(main) == 1, out  # exactly one games row, then its other rows
    return GAMES, out


def check_record(record: pb.GameRecord) -> None:
    """The properties every record must have, however damaged."""
    start = time.perf_counter()
    verdict = verify_record(record, contain_bugs=False, trace=True)  # a referee bug raises here
    assert time.perf_counter() - start < SLOW_SECONDS
    assert verdict.status in (CLEAN, VIOLATIONS, UNREPLAYABLE)
    if verdict.status == UNREPLAYABLE:
        assert verdict.reason
    n = len(record.events)
    for v in verdict.violations:
        assert v.event_index is None or 0 <= v.event_index < n, v
    for d in verdict.decisions:
        assert 0 <= d.event_index < max(n, 1), d
        assert d.effect in ("took effect", "declared", "overridden", "refused", "implied")
    payload = records.to_binary(record)
    kind, out = judge_frame(payload)
    rows = {GAMES: [], **{t: [] for t in TABLES}}
    if kind == ERRORS:
        rows["errors"] = out
        assert out[0]["stage"] in ("decode", "replay", "write"), out  # never referee_exception
    else:
        for o in out:
            table = getattr(o, "tag", GAMES)
            rows[table] += o.value if hasattr(o, "tag") else [o]
    for table, table_rows in rows.items():
        if table_rows:  # what the referee step lets through, Arrow converts
            assert to_batch(table_rows, TABLES[table]).num_rows == len(table_rows)


# -- strategies over GameRecord ------------------------------------------------------------------
TILE_CODES = st.one_of(st.sampled_from(fuzz.TILES), st.integers(-(1 << 31), (1 << 31) - 1))
ENUM_VALUES = st.one_of(st.integers(-2, 6), st.sampled_from([99, 1 << 20, (1 << 31) - 1, -(1 << 31)]))
SEATS = st.one_of(st.integers(0, 3), st.integers(0, (1 << 32) - 1))
INDEX = st.integers(0, 400)


@st.composite
def events(draw) -> pb.Event:
    """One event of any kind with random fields: tiles, enum values, flags, sizes."""
    event = pb.Event(seat=draw(SEATS))
    kind = draw(st.sampled_from(fuzz.EVENT_KINDS))
    sub = getattr(event, kind)
    sub.SetInParent()
    for fd in sub.DESCRIPTOR.fields:
        if not draw(st.booleans()):
            continue
        if fd.is_repeated:
            getattr(sub, fd.name).extend(draw(st.lists(TILE_CODES, max_size=6)))
        elif fd.type == fd.TYPE_ENUM:
            setattr(sub, fd.name, draw(TILE_CODES if fd.enum_type.name == "Tile" else ENUM_VALUES))
        elif fd.type == fd.TYPE_BOOL:
            setattr(sub, fd.name, draw(st.booleans()))
        else:
            setattr(sub, fd.name, draw(st.integers(-(1 << 31), (1 << 31) - 1)))
    if draw(st.integers(0, 9)) == 0:
        event.offered.add(kind=draw(ENUM_VALUES), tiles=draw(st.lists(TILE_CODES, max_size=3)))
    return event


EDITS = st.one_of(
    st.tuples(st.just("insert"), INDEX, events()),
    st.tuples(st.just("delete"), INDEX),
    st.tuples(st.just("swap"), INDEX, INDEX),
    st.tuples(st.just("duplicate"), INDEX),
    st.tuples(st.just("truncate"), INDEX),
    st.tuples(st.just("enum"), INDEX, ENUM_VALUES),
    st.tuples(st.just("seat"), INDEX, SEATS),
    st.tuples(st.just("payments"), st.lists(st.integers(-(1 << 63), (1 << 63) - 1), max_size=320)),
    st.tuples(st.just("winners"), st.lists(st.integers(0, (1 << 32) - 1), max_size=6)),
    st.tuples(st.just("option"), st.sampled_from(fuzz._OPTION_NAMES), st.one_of(
        st.sampled_from(fuzz._OPTION_VALUES), st.text(max_size=20))),
    st.tuples(st.just("ruleset"), st.one_of(st.sampled_from(fuzz.RULESETS), st.text(max_size=12))),
    st.tuples(st.just("game_id"), st.one_of(st.text(max_size=40),
                                            st.integers(0, 3).map(lambda k: "g" * (MAX_STRING_BYTES - 1 + k)))),
    st.tuples(st.just("wall"), st.lists(TILE_CODES, max_size=160)),
    st.tuples(st.just("dealer"), SEATS),
    st.tuples(st.just("players"), st.integers(0, 9)),
    st.tuples(st.just("patterns"), st.lists(st.tuples(SEATS, st.text(max_size=8), st.integers(-(1 << 63), (1 << 63) - 1)),
                                            max_size=5)),
)


def apply(record: pb.GameRecord, edit: tuple) -> None:
    op, *args = edit
    ev = record.events
    n = len(ev)
    if op == "insert":
        ev.insert(args[0] % (n + 1), args[1])
    elif op == "delete" and n:
        del ev[args[0] % n]
    elif op == "swap" and n:
        i, j = args[0] % n, args[1] % n
        a, b = pb.Event(), pb.Event()
        a.CopyFrom(ev[i])
        b.CopyFrom(ev[j])
        ev[i].CopyFrom(b)
        ev[j].CopyFrom(a)
    elif op == "duplicate" and n:
        copy = pb.Event()
        copy.CopyFrom(ev[args[0] % n])
        ev.insert(args[0] % n, copy)
    elif op == "truncate" and n:
        del ev[args[0] % n:]
    elif op == "enum" and n:
        event = ev[args[0] % n]
        kind = event.WhichOneof("kind")
        if kind in ("win", "kong", "ready", "indicator"):
            getattr(event, kind).kind = args[1]
        elif kind == "discard":
            event.discard.ready = args[1]
    elif op == "seat" and n:
        ev[args[0] % n].seat = args[1]
    elif op == "payments":
        del record.claimed.payments[:]
        record.claimed.payments.extend(args[0])
    elif op == "winners":
        del record.claimed.winners[:]
        record.claimed.winners.extend(args[0])
    elif op == "option":
        record.ruleset.options[args[0]] = args[1]
    elif op == "ruleset":
        record.ruleset.name = args[0]
    elif op == "game_id":
        record.game_id = args[0]
    elif op == "wall":
        del record.wall[:]
        record.wall.extend(args[0])
    elif op == "dealer":
        record.dealer = args[0]
    elif op == "players":
        del record.players[:]
        for i in range(args[0]):
            record.players.add(player_id=f"p{i}")
    elif op == "patterns":
        for seat, name, value in args[0]:
            record.claimed.patterns.add(seat=seat, name=name, value=value)


@fuzz_settings(200)
@given(base=st.integers(0, 10 ** 6), edits=st.lists(EDITS, min_size=1, max_size=4))
def test_any_edit_of_a_record_is_judged_without_an_exception(base, edits):
    pool = bases()
    record = records.parse_binary(pool[base % len(pool)])
    for edit in edits:
        apply(record, edit)
    check_record(record)


@fuzz_settings(250)
@given(rng=st.randoms(use_true_random=False))
def test_random_record_mutations_are_judged_without_an_exception(rng):
    record = records.parse_binary(rng.choice(bases()))
    fuzz.mutate_record(record, rng)
    check_record(record)


@fuzz_settings(250)
@given(rng=st.randoms(use_true_random=False))
def test_byte_level_damage_with_valid_checksums_is_one_row(rng):
    payload = fuzz.mutate_payload(rng.choice(bases()), rng)
    try:
        record = records.parse_binary(payload)
    except records.RecordError:
        kind, [row] = judge_frame(payload)
        assert kind == ERRORS and row["stage"] == "decode"
        return
    check_record(record)


def test_the_crafted_enum_values_are_findings_not_exceptions():
    for kind, value in (("win", 5), ("win", -1), ("win", 99), ("kong", 99)):
        for payload in bases():
            record = records.parse_binary(payload)
            hits = [i for i, e in enumerate(record.events) if e.WhichOneof("kind") == kind]
            if hits:
                getattr(record.events[hits[0]], kind).kind = value
                verdict = verify_record(record, contain_bugs=False)
                assert any(v.code == "INVALID_VALUE" and v.event_index == hits[0] for v in verdict.violations)
                break
        else:
            pytest.fail(f"no base record has a {kind} event")


# -- the row check agrees with Arrow ------------------------------------------------------------
ANY_VALUE = st.one_of(
    st.none(), st.booleans(), st.integers(-(1 << 70), 1 << 70), st.floats(allow_nan=True),
    st.text(max_size=20), st.just("\ud800"), st.binary(max_size=4),
    st.lists(st.one_of(st.integers(-300, 300), st.text(max_size=3), st.none()), max_size=3),
    st.just([{"name": "x", "value": 1}]), st.just([{"name": "x"}]), st.just({"name": "x", "value": 1}),
)


@fuzz_settings(200)
@given(table=st.sampled_from(sorted({**TABLES, **RESCORE_TABLES})), column=st.integers(0, 20), value=ANY_VALUE,
       data=st.data())
def test_every_row_the_check_passes_converts_to_arrow(table, column, value, data):
    schema = {**TABLES, **RESCORE_TABLES}[table]

    def verdict():
        return verify_record(records.parse_binary(bases()[0]))

    # A valid row of this table, then one column replaced by an arbitrary value.
    row = {"games": lambda: R.game_row("s", 0, verify_record(records.parse_binary(bases()[0]))),
           "violations": lambda: {"game_id": "g", "source": "s", "offset": 0, "event_index": None, "seat": 1,
                                  "code": "C", "severity": "error", "message": "m"},
           "settlements": lambda: {"game_id": "g", "source": "s", "offset": 0, "seat": 0, "claimed": None,
                                   "recomputed": 1, "kong_payment": None, "patterns": [{"name": "p", "value": 2}]},
           "errors": lambda: R.error_row("f", 0, 1, "write", "r"),
           "decisions": lambda: {"game_id": "g", "source": "s", "offset": 0, "event_index": 0, "seat": 0,
                                 "window": "turn", "legal": ["a"], "taken": "a", "effect": "took effect"},
           "matches": lambda: {"match_id": "m", "ruleset": "hebei", "records": 2, "hands": 2, "first_hand": 0,
                               "last_hand": 1, "missing_hands": 0, "duplicate_records": 0, "unfinished_hands": 0,
                               "claimed_totals": [1, -1, 0, 0], "recomputed_totals": None, "totals_mismatch": False,
                               "violation_count": 0, "status": "clean"},
           "match_violations": lambda: {"match_id": "m", "hand_index": 1, "game_id": "g", "source": "s",
                                        "offset": 0, "code": "C", "severity": "error", "message": "m"},
           "rescore_games": lambda: R.rescore_game_row("s", 0, verdict(), verdict()),
           "rescore_seats": lambda: R.rescore_seat_rows("s", 0, verdict(), verdict())[0]}[table]()
    assert RowValidator(table, schema).first_problem([row]) is None
    row[schema.names[column % len(schema.names)]] = value
    problem = RowValidator(table, schema).first_problem([row])
    if problem is None:
        assert to_batch([row], schema).num_rows == 1
    else:
        assert problem.startswith(f"{table}.")


@fuzz_settings(100)
@given(file=st.text(), reason=st.one_of(st.text(), st.integers(0, 3).map(lambda k: "é" * (40_000 + k))),
       game_id=st.one_of(st.none(), st.text()), offset=st.integers(0, (1 << 63) - 1))
def test_an_error_row_always_fits(file, reason, game_id, offset):
    row = R.error_row(file, offset, 1, "write", reason, game_id)
    assert RowValidator("errors", TABLES["errors"]).first_problem([row]) is None
    assert to_batch([row], TABLES["errors"]).num_rows == 1


# -- archives ------------------------------------------------------------------------------------
@fuzz_settings(40)
@given(seed=st.integers(0, 1 << 30), n=st.integers(0, 30), cuts=st.lists(st.integers(0, 1 << 16), max_size=6))
def test_a_damaged_archive_is_read_as_every_intact_frame_once(seed, n, cuts):
    from apache_beam.io.restriction_trackers import OffsetRange, OffsetRestrictionTracker

    from pipelines.reader import ReadArchiveFn

    stats = fuzz.ArchiveStats()
    data = b"".join(fuzz.fuzzed_archive(list(bases()), n, seed, damage_every=4, stats=stats))
    walk = list(archive.scan(data))
    assert sum(isinstance(i, archive.Frame) for i in walk) == stats.frames  # no intact frame is lost
    path = f"/tmp/mjref-fuzz-{os.getpid()}.tfrecord"
    with open(path, "wb") as fh:
        fh.write(data)
    try:
        bounds = [0, *sorted({c % (len(data) + 1) for c in cuts} - {0, len(data)}), len(data)]
        got = []
        for start, stop in zip(bounds, bounds[1:]):
            tracker = OffsetRestrictionTracker(OffsetRange(start, stop))
            got += [(o.value["offset"], "span") if hasattr(o, "tag") else (o[1], "frame")
                    for o in ReadArchiveFn().process((path, len(data), ""), tracker=tracker)]
        assert got == [(i.offset, "frame" if isinstance(i, archive.Frame) else "span") for i in walk]
    finally:
        os.unlink(path)
    for item in walk:
        if isinstance(item, archive.Frame):
            judge_frame(item.payload, decisions=False)  # one row each, never an exception


def test_a_fuzzed_archive_audit_reconciles_with_one_row_per_record(tmp_path):
    """End to end through Beam: 400 fuzzed records with framing damage, in process."""
    from pipelines import job as J
    from pipelines.tables import read_table

    path = tmp_path / "fuzzed.tfrecord"
    stats = fuzz.write_archive(path, list(bases()), 400, seed=2024, damage_every=15)
    manifest = J.run_audit(J.AuditConfig(inputs=[str(path)], out=str(tmp_path / "out"), decisions=True))
    rec = manifest["reconciliation"]
    assert rec["ok"], rec
    assert manifest["records_in"]["frames"] == stats.frames  # every intact frame was read ...
    errors = read_table(str(tmp_path / "out"), "errors").to_pylist()
    judged = [e for e in errors if e["stage"] != "framing"]
    assert manifest["verdicts"]["total"] + len(judged) == stats.frames  # ... and is exactly one row
    assert manifest["errors"]["by_stage"]["referee_exception"] == 0
    assert manifest["records_in"]["corrupt_spans"] == len(errors) - len(judged) > 0
    # The same rows a plain loop over the frames gives.
    seen = {(e["offset"], e["stage"]) for e in judged}
    for item in archive.scan(path.read_bytes()):
        if isinstance(item, archive.Frame):
            kind, out = judge_frame(item.payload, decisions=True)
            if kind == ERRORS:
                assert (item.offset, out[0]["stage"]) in seen


def test_fuzzed_archives_are_deterministic():
    # Same seed, same bytes: the benchmark's archive can be rebuilt to find a record again.
    a = b"".join(fuzz.fuzzed_archive(list(bases()), 50, seed=7))
    b = b"".join(fuzz.fuzzed_archive(list(bases()), 50, seed=7))
    assert a == b and a != b"".join(fuzz.fuzzed_archive(list(bases()), 50, seed=8))
