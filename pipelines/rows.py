"""A verdict as table rows (dicts keyed by the column names in pipelines/schemas.py). Pure: no Beam.

Kept apart from the DoFns so the mapping can be tested, and reused, without a pipeline.
"""
from __future__ import annotations

from referee import REFEREE_VERSION, SCHEMA_VERSION
from referee.verdict import Verdict


def error_row(file: str, offset: int, length: int, stage: str, reason: str, game_id: str | None = None) -> dict:
    return {"file": file, "offset": offset, "length": length, "stage": stage, "reason": reason,
            "game_id": game_id or None}


def game_row(source: str, offset: int, v: Verdict) -> dict:
    return {
        "source": source,
        "offset": offset,
        "game_id": v.game_id,
        "ruleset": v.ruleset,
        "status": v.status,
        "reason": v.reason or None,
        "event_count": v.event_count,
        "winners": list(v.winners),
        "claimed_payments": list(v.claimed) if v.claimed is not None else None,
        "recomputed_payments": list(v.recomputed.payments) if v.recomputed is not None else None,
        "mismatch": v.mismatch,
        "violation_count": len(v.violations),
        "error_count": len(v.errors),
        "referee_version": REFEREE_VERSION,
        "schema_version": SCHEMA_VERSION,
    }


def violation_rows(source: str, offset: int, v: Verdict) -> list[dict]:
    return [{"game_id": v.game_id, "source": source, "offset": offset, "event_index": x.event_index,
             "seat": x.seat, "code": x.code, "severity": x.severity, "message": x.message}
            for x in v.violations]


def settlement_rows(source: str, offset: int, v: Verdict, seats: int = 4) -> list[dict]:
    """One row per seat, whether or not the hand settled (unknown amounts are null), so the
    table always has seats x games rows and joins need no outer join to see a missing settlement."""
    rec, claimed = v.recomputed, v.claimed
    seats = max(seats, len(claimed or ()), len(rec.payments) if rec else 0)
    patterns: dict[int, list[dict]] = {}
    for p in rec.patterns if rec else ():
        patterns.setdefault(p.seat, []).append({"name": p.name, "value": p.value})

    def at(values, seat):
        return values[seat] if values is not None and seat < len(values) else None

    return [{"game_id": v.game_id, "source": source, "offset": offset, "seat": seat,
             "claimed": at(claimed, seat),
             "recomputed": at(rec.payments if rec else None, seat),
             "kong_payment": at(rec.kong_payments if rec else None, seat),
             "patterns": patterns.get(seat, [])}
            for seat in range(seats)]


def decision_rows(source: str, offset: int, v: Verdict) -> list[dict]:
    return [{"game_id": v.game_id, "source": source, "offset": offset, "event_index": d.event_index,
             "seat": d.seat, "window": d.window, "legal": list(d.legal), "taken": d.taken}
            for d in v.decisions]
