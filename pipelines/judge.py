"""The referee step: each frame's payload -> table rows, or exactly one error row.

Expected failures are values: a payload that is not a GameRecord is an error row of stage
"decode"; a record the referee calls unreplayable (unknown ruleset, bad option, broken deal)
is one of stage "replay"; a record whose rows do not fit the table schemas (a seat past int8,
an over-long string: pipelines/validate.py) is one of stage "write", so that one odd record
never fails the Parquet writers for the whole job. The referee runs with contain_bugs=False:
an exception from it is a bug, and reaches `.with_exception_handling()`, which files the record
as an error row of stage "referee_exception" naming the exception and its innermost frame; none
of the rows the record had produced are emitted (partial=False).
"""
from __future__ import annotations

import os
import re
from typing import Any, Mapping, Tuple

import apache_beam as beam
from apache_beam.pvalue import TaggedOutput

from pipelines.rows import decision_rows, error_row, game_row, settlement_rows, violation_rows
from pipelines.schemas import TABLES
from pipelines.validate import MAX_STRING_BYTES, validators
from referee import records
from referee.match import hand_of
from referee.offers import may_have_offers
from referee.verdict import UNREPLAYABLE
from referee.verify import verify_record

GAMES, VIOLATIONS, SETTLEMENTS, DECISIONS, ERRORS = "games", "violations", "settlements", "decisions", "errors"
MATCH_HANDS = "match_hands"  # (match_id, referee.match.Hand) of every judged record with a match id
CRASHED = "referee_exceptions"


class JudgeFn(beam.DoFn):
    """(source, offset, length, payload) -> a games row (main) and lists of its violation,
    settlement and decision rows, or one error row. Parsing happens here so that only bytes
    cross stage boundaries."""

    def __init__(self, overrides: Mapping[str, str] | None = None, decisions: bool = False):
        super().__init__()
        self._overrides = dict(overrides or {})
        self._decisions = decisions

    def setup(self):
        self._check = validators(TABLES)

    def process(self, element):
        source, offset, length, payload = element
        record = yield from parse_frame(element)
        if record is None:
            return
        verdict = judge(record, payload, self._overrides, trace=self._decisions)
        # Its facts for the checks across its match (pipelines/matches.py), unless its match id cannot
        # be a key there (over-long: then its games row is a "write" error row, and it is in no match).
        in_match = bool(record.match_id) and len(record.match_id.encode()) <= MAX_STRING_BYTES
        if in_match:
            yield TaggedOutput(MATCH_HANDS, (record.match_id, hand_of(record, verdict, source, offset, self._overrides)))
        if verdict.status == UNREPLAYABLE:
            yield TaggedOutput(ERRORS, error_row(source, offset, length, "replay", verdict.reason, verdict.game_id))
            return
        # A record's rows of one table travel as one list: one element instead of many per record.
        out = {GAMES: game_row(source, offset, verdict, record.match_id, record.hand_index),
               SETTLEMENTS: settlement_rows(source, offset, verdict, seats=len(record.players) or 4)}
        if verdict.violations:
            out[VIOLATIONS] = violation_rows(source, offset, verdict)
        if self._decisions and verdict.decisions:
            out[DECISIONS] = decision_rows(source, offset, verdict)
        if (yield from write_problem(self._check, out, element, verdict.game_id)):
            return
        yield out.pop(GAMES)
        for table, rows in out.items():
            yield TaggedOutput(table, rows)


# -- what every judging step does, shared with the rescore (pipelines/rescore.py) ----------------
def parse_frame(element):
    """A generator step: the frame's GameRecord, or None after yielding its "decode" error row.
    Use as `record = yield from parse_frame(element)` inside a DoFn's process."""
    source, offset, length, payload = element
    try:
        return records.parse_binary(payload)
    except records.RecordError as err:
        yield TaggedOutput(ERRORS, error_row(source, offset, length, "decode", str(err)))
        return None


def judge(record, payload: bytes, overrides: Mapping[str, str] | None, trace: bool = False):
    """verify_record with referee bugs raised (for with_exception_handling); whether any event may
    carry offered actions is known from the bytes (saves a look at every event)."""
    return verify_record(record, overrides, trace=trace, contain_bugs=False, offers=may_have_offers(payload))


def write_problem(checks, out: Mapping[str, object], element, game_id: str):
    """A generator step: True after yielding the one "write" error row if any of `out`'s rows (table
    name -> a row or a list of rows) does not fit its schema (pipelines/validate.py), else False."""
    source, offset, length, _payload = element
    for table, rows in out.items():
        problem = checks[table].first_problem(rows)
        if problem is not None:
            yield TaggedOutput(ERRORS, error_row(source, offset, length, "write", problem, game_id))
            return True
    return False


def with_error_rows(frames, label: str, fn: beam.DoFn, main: str, types: Mapping[str, object]) -> dict:
    """frames | ParDo(fn) with its outputs (`types`: tag -> element type, ERRORS among them) and a
    referee bug of any record as its "referee_exception" error row: {main and every tag: PCollection},
    ERRORS holding fn's error rows and those."""
    tags = list(types)
    out = frames | label >> (
        beam.ParDo(fn)
        .with_output_types(dict, **types)
        .with_outputs(*tags, main=main)
        .with_exception_handling(dead_letter_tag=CRASHED)
    )
    crashed = out[CRASHED] | f"{label}ExceptionRows" >> beam.Map(exception_row)
    result = {tag: out[tag] for tag in [main] + tags if tag != ERRORS}
    result[ERRORS] = (out[ERRORS], crashed) | f"{label}Errors" >> beam.Flatten()
    return result


_FRAME_LINE = re.compile(r'File "([^"]*)", line (\d+), in (\S+)')


def exception_row(dead_letter) -> dict:
    """A with_exception_handling dead letter, (element, (type, repr, traceback lines)), as an error row."""
    (source, offset, length, payload), (_type, exc_repr, tb) = dead_letter
    where = ""
    for line in reversed(tb or ()):
        m = _FRAME_LINE.search(line)
        if m:  # the innermost frame, without the machine-specific directory
            where = f" at {os.path.basename(m.group(1))}:{m.group(2)} in {m.group(3)}"
            break
    try:  # it parsed once already, or the referee would not have run
        game_id = records.parse_binary(payload).game_id
    except Exception:
        game_id = None
    return error_row(source, offset, length, "referee_exception", f"{exc_repr}{where}", game_id)


class Judge(beam.PTransform):
    """Frames -> {games, violations, settlements, [decisions,] errors} row PCollections, and
    match_hands: (match_id, Hand) for the match checks."""

    def __init__(self, overrides: Mapping[str, str] | None = None, decisions: bool = False):
        super().__init__()
        self._overrides = dict(overrides or {})
        self._decisions = decisions

    def expand(self, frames):
        tags = [ERRORS, VIOLATIONS, SETTLEMENTS, MATCH_HANDS] + ([DECISIONS] if self._decisions else [])
        types = {ERRORS: dict, MATCH_HANDS: Tuple[str, Any]}  # (key, value): what GroupByKey takes
        return with_error_rows(frames, "Referee", JudgeFn(self._overrides, self._decisions), GAMES,
                               {tag: types.get(tag, list) for tag in tags})
