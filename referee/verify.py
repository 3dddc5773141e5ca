"""From a record (or its bytes) to a verdict: choose the ruleset and its options, then replay.

This is the one entry point the CLI and the pipelines share. It never raises on data: an
undecodable record, an unknown ruleset or option, or a record the referee cannot replay all
come back as an `unreplayable` verdict with the reason.

A referee bug (an exception from the replay) is another matter. With contain_bugs=True (the
default, for the CLI) it too becomes an `unreplayable` verdict, whose reason starts with
INTERNAL_ERROR and names the innermost frame. With contain_bugs=False (the audit pipeline) it
propagates, so the pipeline's exception handler files it as a `referee_exception` row.
"""
from __future__ import annotations

import os
import traceback
from typing import Mapping

from referee import records
from referee.offers import may_have_offers
from referee.proto import record_pb2 as pb
from referee.referee import referee
from referee.rules import RulesetError, get_ruleset
from referee.verdict import UNREPLAYABLE, Verdict

INTERNAL_ERROR = "internal referee error (please report)"


def where(err: BaseException) -> str:
    """`file.py:LINE in function` of the innermost frame of err's traceback ('' if none)."""
    frames = traceback.extract_tb(err.__traceback__)
    if not frames:
        return ""
    last = frames[-1]
    return f"{os.path.basename(last.filename)}:{last.lineno} in {last.name}"


def verify_record(record: pb.GameRecord, overrides: Mapping[str, str] | None = None,
                  trace: bool = False, contain_bugs: bool = True, offers: bool | None = None) -> Verdict:
    """Judge one record; `overrides` (from the command line) win over the record's own options.
    `offers`: whether any event may carry the platform's offers, where the caller knows it from the
    record's bytes (None: the replay looks at the events)."""
    if not contain_bugs:
        return _judge(record, overrides, trace, offers)
    try:
        return _judge(record, overrides, trace, offers)
    except Exception as err:  # a referee bug must not take a batch down; the reason says so
        at = where(err)
        return Verdict(record.game_id, record.ruleset.name, UNREPLAYABLE, event_count=len(record.events),
                       reason=f"{INTERNAL_ERROR}: {type(err).__name__}: {err}" + (f" at {at}" if at else ""))


def _judge(record: pb.GameRecord, overrides: Mapping[str, str] | None, trace: bool, offers: bool | None) -> Verdict:
    name = record.ruleset.name
    try:
        rules = get_ruleset(name, dict(record.ruleset.options), overrides)
    except RulesetError as err:
        return Verdict(record.game_id, name, UNREPLAYABLE, reason=str(err), event_count=len(record.events))
    return referee(record, rules, trace, offers)


def verify_bytes(data: bytes, overrides: Mapping[str, str] | None = None, trace: bool = False,
                 contain_bugs: bool = True) -> Verdict:
    try:
        record = records.parse_binary(data)
    except records.RecordError as err:
        return Verdict("", "", UNREPLAYABLE, reason=f"unreadable: {err}")
    return verify_record(record, overrides, trace, contain_bugs, offers=may_have_offers(data))
