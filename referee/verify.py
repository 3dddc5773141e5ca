"""From a record (or its bytes) to a verdict: choose the ruleset and its options, then replay.

This is the one entry point the CLI and the pipelines share. It never raises on data: an
undecodable record, an unknown ruleset or option, or a record the referee cannot replay all
come back as an `unreplayable` verdict with the reason.
"""
from __future__ import annotations

from typing import Mapping

from referee import records
from referee.proto import record_pb2 as pb
from referee.referee import referee
from referee.rules import RulesetError, get_ruleset
from referee.verdict import UNREPLAYABLE, Verdict


def verify_record(record: pb.GameRecord, overrides: Mapping[str, str] | None = None,
                  trace: bool = False) -> Verdict:
    """Judge one record; `overrides` (from the command line) win over the record's own options."""
    name = record.ruleset.name
    try:
        rules = get_ruleset(name, dict(record.ruleset.options), overrides)
    except RulesetError as err:
        return Verdict(record.game_id, name, UNREPLAYABLE, reason=str(err), event_count=len(record.events))
    try:
        return referee(record, rules, trace)
    except Exception as err:  # a referee bug must not take a batch down; the reason says so
        return Verdict(record.game_id, name, UNREPLAYABLE, event_count=len(record.events),
                       reason=f"internal referee error (please report): {type(err).__name__}: {err}")


def verify_bytes(data: bytes, overrides: Mapping[str, str] | None = None, trace: bool = False) -> Verdict:
    try:
        record = records.parse_binary(data)
    except records.RecordError as err:
        return Verdict("", "", UNREPLAYABLE, reason=f"unreadable: {err}")
    return verify_record(record, overrides, trace)
