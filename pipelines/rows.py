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


def game_row(source: str, offset: int, v: Verdict, match_id: str = "", hand_index: int = 0) -> dict:
    return {
        "source": source,
        "offset": offset,
        "game_id": str(v.game_id),
        "ruleset": str(v.ruleset),
        "match_id": str(match_id) if match_id else None,
        "hand_index": int(hand_index) if match_id else None,
        "status": str(v.status),
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


# -- mjref rescore: one record under its own options ("own") and under the overrides ("new") -------
def _payments(v: Verdict) -> list[int] | None:
    return _ints(v.recomputed.payments) if v.recomputed is not None else None


def _minus(a, b) -> int | None:
    return None if a is None or b is None else int(a) - int(b)


def _codes(v: Verdict) -> list[str]:
    return sorted(str(x.code) for x in v.violations)


def money_moved(own: list[int] | None, new: list[int] | None) -> int | None:
    """What changes hands between the two settlements: the larger of what the seats gain and what they
    lose (the two are equal when both settle zero-sum; a coin room's house fee is not). None if either
    side is unknown (a hand that did not end or could not be replayed)."""
    if own is None or new is None:
        return None
    diffs = [(new[i] if i < len(new) else 0) - (own[i] if i < len(own) else 0)
             for i in range(max(len(own), len(new)))]
    return max(sum(d for d in diffs if d > 0), -sum(d for d in diffs if d < 0))


def rescore_game_row(source: str, offset: int, own: Verdict, new: Verdict) -> dict:
    """The rescore_games row of one record: both verdicts side by side."""
    own_pay, new_pay = _payments(own), _payments(new)
    return {
        "source": source,
        "offset": offset,
        "game_id": str(own.game_id),
        "ruleset": str(own.ruleset),
        "status_own": str(own.status),
        "status_new": str(new.status),
        "reason_own": str(own.reason) if own.reason else None,
        "reason_new": str(new.reason) if new.reason else None,
        "violations_own": _codes(own),
        "violations_new": _codes(new),
        "verdict_changed": own.status != new.status or _codes(own) != _codes(new),
        "claimed_payments": _ints(own.claimed),
        "recomputed_own": own_pay,
        "recomputed_new": new_pay,
        "payments_changed": own_pay != new_pay,
        "money_moved": money_moved(own_pay, new_pay),
        "mismatch_own": bool(own.mismatch),
        "mismatch_new": bool(new.mismatch),
        "referee_version": REFEREE_VERSION,
    }


def rescore_seat_rows(source: str, offset: int, own: Verdict, new: Verdict, seats: int = 4) -> list[dict]:
    """One rescore_seats row per seat, as settlement_rows: every seat, unknown amounts null."""
    claimed, own_pay, new_pay = own.claimed, _payments(own), _payments(new)
    seats = max(seats, len(claimed or ()), len(own_pay or ()), len(new_pay or ()))

    def at(values, seat):
        return int(values[seat]) if values is not None and seat < len(values) else None

    rows = []
    for seat in range(seats):
        c, o, n = at(claimed, seat), at(own_pay, seat), at(new_pay, seat)
        rows.append({"source": source, "offset": offset, "game_id": str(own.game_id), "ruleset": str(own.ruleset),
                     "seat": seat, "claimed": c, "recomputed_own": o, "recomputed_new": n,
                     "difference": _minus(n, o), "new_minus_claimed": _minus(n, c)})
    return rows
