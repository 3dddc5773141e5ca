"""The Arrow schemas of the audit's output tables, declared once with explicit types and nullability.

Every table is a directory of Parquet files (out/games/, out/violations/, ...). Each schema
carries the referee and schema versions in its metadata, so a file read on its own says which
referee wrote it. Seats are int8 (0-3); money is int64; offsets are int64 byte offsets into the
uncompressed archive. Join tables on (source, offset): game_id is the platform's and need not be
unique across archives.

Every record's rows are checked against these schemas before they are written
(pipelines/validate.py): a value that does not fit (a seat past int8, a string over
validate.MAX_STRING_BYTES) makes the record an error row of stage "write".
"""
from __future__ import annotations

import pyarrow as pa

from referee import REFEREE_VERSION, SCHEMA_VERSION

# Bump when a column is added, removed or changes meaning.
# 2: decisions.effect; errors.stage "write".
# 3: the matches and match_violations tables (checks across the hands of a match).
# 4: the rescore_games and rescore_seats tables of `mjref rescore`.
TABLE_VERSION = 5


def _schema(name: str, *fields: pa.Field) -> pa.Schema:
    return pa.schema(fields, metadata={
        "mjref.table": name,
        "mjref.table_version": str(TABLE_VERSION),
        "mjref.referee_version": REFEREE_VERSION,
        "mjref.schema_version": str(SCHEMA_VERSION),
    })


def _f(name: str, type_: pa.DataType, nullable: bool = False) -> pa.Field:
    return pa.field(name, type_, nullable=nullable)


SEAT = pa.int8()
MONEY = pa.int64()
PATTERN = pa.struct([_f("name", pa.string()), _f("value", pa.int64())])

GAMES = _schema(
    "games",
    _f("source", pa.string()),
    _f("offset", pa.int64()),
    _f("game_id", pa.string()),
    _f("ruleset", pa.string()),
    _f("match_id", pa.string(), nullable=True),  # null: a record of no match
    _f("hand_index", pa.int32(), nullable=True),  # its place in that match; null with match_id
    _f("status", pa.string()),  # clean | violations (unreplayable records are error rows, with the reason)
    _f("event_count", pa.int32()),
    _f("winners", pa.list_(_f("item", SEAT))),
    _f("claimed_payments", pa.list_(_f("item", MONEY)), nullable=True),  # null: the record claims nothing
    _f("recomputed_payments", pa.list_(_f("item", MONEY)), nullable=True),  # null: the hand did not end
    _f("mismatch", pa.bool_()),
    _f("violation_count", pa.int32()),
    _f("error_count", pa.int32()),  # violations of severity "error"
    _f("referee_version", pa.string()),
    _f("schema_version", pa.int32()),
)

VIOLATIONS = _schema(
    "violations",
    _f("game_id", pa.string()),
    _f("source", pa.string()),
    _f("offset", pa.int64()),
    _f("event_index", pa.int32(), nullable=True),  # null: the record as a whole
    _f("seat", SEAT, nullable=True),  # null: the table, not one seat
    _f("code", pa.string()),
    _f("severity", pa.string()),
    _f("message", pa.string()),
)

SETTLEMENTS = _schema(
    "settlements",
    _f("game_id", pa.string()),
    _f("source", pa.string()),
    _f("offset", pa.int64()),
    _f("seat", SEAT),
    _f("claimed", MONEY, nullable=True),
    _f("recomputed", MONEY, nullable=True),
    _f("kong_payment", MONEY, nullable=True),
    _f("patterns", pa.list_(_f("item", PATTERN))),
)

ERRORS = _schema(
    "errors",
    _f("file", pa.string()),
    _f("offset", pa.int64()),
    _f("length", pa.int64()),
    _f("stage", pa.string()),  # framing | decode | replay | referee_exception | write
    _f("reason", pa.string()),
    _f("game_id", pa.string(), nullable=True),  # known from stage "replay" on
)

DECISIONS = _schema(
    "decisions",
    _f("game_id", pa.string()),
    _f("source", pa.string()),
    _f("offset", pa.int64()),
    _f("event_index", pa.int32()),
    _f("seat", SEAT),
    _f("window", pa.string()),
    _f("legal", pa.list_(_f("item", pa.string()))),
    _f("taken", pa.string()),
    _f("effect", pa.string()),  # took effect | declared (outranked) | overridden (by a lower claim) | refused | implied
)

# Across the hands of a match (referee/match.py): records grouped by match_id, ordered by hand_index.
MATCHES = _schema(
    "matches",
    _f("match_id", pa.string()),
    _f("ruleset", pa.string()),  # of its first record
    _f("records", pa.int32()),  # records seen, duplicates included
    _f("hands", pa.int32()),  # distinct hand indices
    _f("first_hand", pa.int64()),
    _f("last_hand", pa.int64()),
    _f("missing_hands", pa.int64()),  # hand indices missing between the first and the last
    _f("duplicate_records", pa.int32()),
    _f("unfinished_hands", pa.int32()),  # hands that could not be replayed or did not end
    _f("claimed_totals", pa.list_(_f("item", MONEY)), nullable=True),  # the platform's final running totals
    _f("recomputed_totals", pa.list_(_f("item", MONEY)), nullable=True),  # null: a hand missing or unfinished
    _f("totals_mismatch", pa.bool_()),
    _f("violation_count", pa.int32()),  # match-level findings
    _f("status", pa.string()),  # clean | violations (match-level findings only)
)

MATCH_VIOLATIONS = _schema(
    "match_violations",
    _f("match_id", pa.string()),
    _f("hand_index", pa.int64()),  # the hand it concerns (a gap: its first missing index)
    # The record that carries it (a gap: the first record after it).
    _f("game_id", pa.string()),
    _f("source", pa.string()),
    _f("offset", pa.int64()),
    _f("code", pa.string()),
    _f("severity", pa.string()),
    _f("message", pa.string()),
)

# `mjref rescore` (pipelines/rescore.py): each record under its own options and under --option overrides.
# "own" is the verdict under the record's options, "new" under the overrides.
RESCORE_GAMES = _schema(
    "rescore_games",
    _f("source", pa.string()),
    _f("offset", pa.int64()),
    _f("game_id", pa.string()),
    _f("ruleset", pa.string()),
    _f("status_own", pa.string()),  # clean | violations | unreplayable (unreplayable under both: an error row)
    _f("status_new", pa.string()),
    _f("reason_own", pa.string(), nullable=True),  # why unreplayable
    _f("reason_new", pa.string(), nullable=True),
    _f("violations_own", pa.list_(_f("item", pa.string()))),  # violation codes, sorted, notes included
    _f("violations_new", pa.list_(_f("item", pa.string()))),
    _f("verdict_changed", pa.bool_()),  # the status or the violation codes differ
    _f("claimed_payments", pa.list_(_f("item", MONEY)), nullable=True),  # null: the record claims nothing
    _f("recomputed_own", pa.list_(_f("item", MONEY)), nullable=True),  # null: the hand did not end
    _f("recomputed_new", pa.list_(_f("item", MONEY)), nullable=True),
    _f("payments_changed", pa.bool_()),  # recomputed_new differs from recomputed_own (null included)
    _f("money_moved", MONEY, nullable=True),  # max(what seats gain, what seats lose); null: a side unknown
    _f("mismatch_own", pa.bool_()),  # claimed and recomputed differ (both known)
    _f("mismatch_new", pa.bool_()),
    _f("referee_version", pa.string()),
)

RESCORE_SEATS = _schema(
    "rescore_seats",
    _f("source", pa.string()),
    _f("offset", pa.int64()),
    _f("game_id", pa.string()),
    _f("ruleset", pa.string()),
    _f("seat", SEAT),
    _f("claimed", MONEY, nullable=True),
    _f("recomputed_own", MONEY, nullable=True),
    _f("recomputed_new", MONEY, nullable=True),
    _f("difference", MONEY, nullable=True),  # recomputed_new - recomputed_own
    _f("new_minus_claimed", MONEY, nullable=True),  # recomputed_new - claimed
)

TABLES: dict[str, pa.Schema] = {
    "games": GAMES,
    "violations": VIOLATIONS,
    "settlements": SETTLEMENTS,
    "errors": ERRORS,
    "decisions": DECISIONS,
    "matches": MATCHES,
    "match_violations": MATCH_VIOLATIONS,
}

# The columns a table is sorted by to compare two runs (rows are written in no fixed order).
KEYS: dict[str, tuple[str, ...]] = {
    "games": ("source", "offset"),
    "violations": ("source", "offset", "event_index", "seat", "code", "message"),
    "settlements": ("source", "offset", "seat"),
    "errors": ("file", "offset", "stage"),
    "decisions": ("source", "offset", "event_index", "seat", "window"),
    "matches": ("match_id",),
    "match_violations": ("match_id", "hand_index", "code", "source", "offset", "message"),
    "rescore_games": ("source", "offset"),
    "rescore_seats": ("source", "offset", "seat"),
}

# The tables of `mjref rescore`.
RESCORE_TABLES: dict[str, pa.Schema] = {
    "rescore_games": RESCORE_GAMES,
    "rescore_seats": RESCORE_SEATS,
    "errors": ERRORS,
}

STAGES = ("framing", "decode", "replay", "referee_exception", "write")
