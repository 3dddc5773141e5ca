"""A verdict as table rows (dicts keyed by the column names in pipelines/schemas.py). Pure: no Beam.

Kept apart from the DoFns so the mapping can be tested, and reused, without a pipeline. The
rows of a record are checked against the schemas in the referee step (pipelines/validate.py): a
record holding a value that does not fit its column becomes one error row of stage "write".
Error rows themselves always fit: their text is cut to the string limit here.
"""
from __future__ import annotations

from pipelines.validate import MAX_STRING_BYTES, utf8_length
from referee import REFEREE_VERSION, SCHEMA_VERSION
from referee.verdict import Verdict

CUT_MARK = " ... [cut: {n:,} bytes in all]"


def _opt_int(x) -> int | None:
    return None if x is None else int(x)


def _ints(xs) -> list[int] | None:
    return None if xs is None else [int(x) for x in xs]


def fit_text(text, limit: int = MAX_STRING_BYTES) -> str:
    """text as a str that any string column takes: valid UTF-8 of at most `limit` bytes, a long
    one cut at a character boundary with a note of its full size."""
    if type(text) is not str:
        text = str(text)
    n = utf8_length(text)
    if n is None:  # a lone surrogate: show it escaped rather than lose the row
        text = text.encode("utf-8", "backslashreplace").decode("utf-8")
        n = len(text.encode("utf-8"))
    if n <= limit:
        return text
    mark = CUT_MARK.format(n=n)
    head = text.encode("utf-8")[: limit - len(mark.encode("utf-8"))].decode("utf-8", "ignore")
    return head + mark


def error_row(file: str, offset: int, length: int, stage: str, reason: str, game_id: str | None = None) -> dict:
    """One error row; it always fits the errors schema (long text is cut, see fit_text)."""
    return {"file": fit_text(file), "offset": int(offset), "length": int(length), "stage": stage,
            "reason": fit_text(reason), "game_id": fit_text(game_id) if game_id else None}


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
             "seat": int(d.seat), "window": str(d.window), "legal": [str(a) for a in d.legal], "taken": str(d.taken),
             "effect": str(d.effect)}
            for d in v.decisions]


def match_row(result) -> dict:
    """One matches row for a referee.match.MatchResult."""
    def totals(xs):
        return None if xs is None else [int(x) for x in xs]

    return {"match_id": fit_text(result.match_id), "ruleset": fit_text(result.ruleset), "records": result.records,
            "hands": result.hands, "first_hand": int(result.first_hand), "last_hand": int(result.last_hand),
            "missing_hands": int(result.missing_hands), "duplicate_records": result.duplicate_records,
            "unfinished_hands": result.unfinished, "claimed_totals": totals(result.claimed_totals),
            "recomputed_totals": totals(result.recomputed_totals), "totals_mismatch": bool(result.totals_mismatch),
            "violation_count": len(result.findings), "status": result.status}


def match_violation_rows(result, hands) -> list[dict]:
    """The match_violations rows of a MatchResult; `hands` is the list check_match was given."""
    rows = []
    for f in result.findings:
        carrier = hands[f.carrier]
        rows.append({"match_id": fit_text(result.match_id), "hand_index": int(f.hand_index),
                     "game_id": fit_text(carrier.game_id), "source": fit_text(carrier.source),
                     "offset": int(carrier.offset or 0), "code": f.code, "severity": f.severity,
                     "message": fit_text(f.message)})
    return rows
