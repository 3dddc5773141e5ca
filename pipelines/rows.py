"""A verdict as table rows (dicts keyed by the column names in pipelines/schemas.py). Pure: no Beam.

Kept apart from the DoFns so the mapping can be tested, and reused, without a pipeline. Values
are coerced to the column types here, inside the referee step and its exception handler: a
verdict holding a value that does not fit (a referee bug) becomes that record's error row
instead of failing a whole batch later, when the Arrow table is built.
"""
from __future__ import annotations

from referee import REFEREE_VERSION, SCHEMA_VERSION
from referee.verdict import Verdict


def _opt_int(x) -> int | None:
    return None if x is None else int(x)


def _ints(xs) -> list[int] | None:
    return None if xs is None else [int(x) for x in xs]


def error_row(file: str, offset: int, length: int, stage: str, reason: str, game_id: str | None = None) -> dict:
    return {"file": file, "offset": offset, "length": length, "stage": stage, "reason": reason,
            "game_id": game_id or None}


def game_row(source: str, offset: int, v: Verdict) -> dict:
    return {
        "source": source,
        "offset": offset,
        "game_id": str(v.game_id),
        "ruleset": str(v.ruleset),
        "status": str(v.status),
        "reason": str(v.reason) if v.reason else None,
        "event_count": int(v.event_count),
        "winners": _ints(v.winners),
        "claimed_payments": _ints(v.claimed),
        "recomputed_payments": _ints(v.recomputed.payments) if v.recomputed is not None else None,
        "mismatch": bool(v.mismatch),
        "violation_count": len(v.violations),
        "error_count": len(v.errors),
        "referee_version": REFEREE_VERSION,
        "schema_version": SCHEMA_VERSION,
    }


def violation_rows(source: str, offset: int, v: Verdict) -> list[dict]:
    return [{"game_id": str(v.game_id), "source": source, "offset": offset, "event_index": _opt_int(x.event_index),
             "seat": _opt_int(x.seat), "code": str(x.code), "severity": str(x.severity), "message": str(x.message)}
            for x in v.violations]


def settlement_rows(source: str, offset: int, v: Verdict, seats: int = 4) -> list[dict]:
    """One row per seat, whether or not the hand settled (unknown amounts are null), so the
    table always has seats x games rows and joins need no outer join to see a missing settlement."""
    rec, claimed = v.recomputed, v.claimed
    seats = max(seats, len(claimed or ()), len(rec.payments) if rec else 0)
    patterns: dict[int, list[dict]] = {}
    for p in rec.patterns if rec else ():
        patterns.setdefault(int(p.seat), []).append({"name": str(p.name), "value": int(p.value)})

    def at(values, seat):
        return int(values[seat]) if values is not None and seat < len(values) else None

    return [{"game_id": str(v.game_id), "source": source, "offset": offset, "seat": seat,
             "claimed": at(claimed, seat),
             "recomputed": at(rec.payments if rec else None, seat),
             "kong_payment": at(rec.kong_payments if rec else None, seat),
             "patterns": patterns.get(seat, [])}
            for seat in range(seats)]


def decision_rows(source: str, offset: int, v: Verdict) -> list[dict]:
    return [{"game_id": str(v.game_id), "source": source, "offset": offset, "event_index": int(d.event_index),
             "seat": int(d.seat), "window": str(d.window), "legal": [str(a) for a in d.legal], "taken": str(d.taken)}
            for d in v.decisions]
