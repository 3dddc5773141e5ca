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
from pipelines.validate import validators
from referee import records
from referee.match import hand_of
from referee.offers import OFFERS_HINT, may_have_offers
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
        try:
            record = records.parse_binary(payload)
        except records.RecordError as err:
            yield TaggedOutput(ERRORS, error_row(source, offset, length, "decode", str(err)))
            return
        # Whether any event may carry offered actions, known from the bytes (saves a look at every event).
        token = OFFERS_HINT.set(may_have_offers(payload))
        try:
            verdict = verify_record(record, self._overrides, trace=self._decisions, contain_bugs=False)
        finally:
            OFFERS_HINT.reset(token)
        if record.match_id:  # its facts for the checks across its match (pipelines/matches.py)
            yield TaggedOutput(MATCH_HANDS, (record.match_id, hand_of(record, verdict, source, offset, self._overrides)))
        if verdict.status == UNREPLAYABLE:
            yield TaggedOutput(ERRORS, error_row(source, offset, length, "replay", verdict.reason, verdict.game_id))
            return
        # A record's rows of one table travel as one list: one element instead of many per record.
        out = {GAMES: game_row(source, offset, verdict),
               SETTLEMENTS: settlement_rows(source, offset, verdict, seats=len(record.players) or 4)}
        if verdict.violations:
            out[VIOLATIONS] = violation_rows(source, offset, verdict)
        if self._decisions and verdict.decisions:
            out[DECISIONS] = decision_rows(source, offset, verdict)
        for table, rows in out.items():
            problem = self._check[table].first_problem(rows)
            if problem is not None:
                yield TaggedOutput(ERRORS, error_row(source, offset, length, "write", problem, verdict.game_id))
                return
        yield out.pop(GAMES)
        for table, rows in out.items():
            yield TaggedOutput(table, rows)


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
        out = frames | "Referee" >> (
            beam.ParDo(JudgeFn(self._overrides, self._decisions))
            .with_output_types(dict, **{tag: types.get(tag, list) for tag in tags})
            .with_outputs(*tags, main=GAMES)
            .with_exception_handling(dead_letter_tag=CRASHED)
        )
        crashed = out[CRASHED] | "ExceptionRows" >> beam.Map(exception_row)
        result = {tag: out[tag] for tag in [GAMES] + tags if tag != ERRORS}
        result[ERRORS] = (out[ERRORS], crashed) | "JudgeErrors" >> beam.Flatten()
        return result
