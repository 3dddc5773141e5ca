"""The referee's output: violations, the recomputed settlement and the diff. Plain values."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

CLEAN, VIOLATIONS, UNREPLAYABLE = "clean", "violations", "unreplayable"
ERROR, INFO = "error", "info"
# What became of a decision: it happened; it was declared but a higher (or nearer) claim outranked
# it; it was declared and a lower claim took effect against priority (CLAIM_PRIORITY); it was a win
# the rules refuse (the finding at its event; the referee stops there); or the seat logged nothing
# and the next event implies it let the chance go.
TOOK_EFFECT, DECLARED, OVERRIDDEN, REFUSED, IMPLIED = "took effect", "declared", "overridden", "refused", "implied"


@dataclass(frozen=True)
class Violation:
    code: str
    seat: int | None
    # Index into GameRecord.events; None for the record as a whole (deal, settlement).
    event_index: int | None
    message: str
    severity: str = ERROR


@dataclass(frozen=True)
class PatternScore:
    seat: int
    name: str
    value: int


@dataclass(frozen=True)
class Settlement:
    # Net per seat for the hand, kong money included; positive = receives.
    payments: tuple[int, ...]
    kong_payments: tuple[int, ...]
    patterns: tuple[PatternScore, ...] = ()
    # Human-readable lines: who pays whom and why.
    lines: tuple[str, ...] = ()


class Decision(NamedTuple):
    """One decision point for one seat: what was legal and what it chose (for traces).

    event_index is the event that logged the choice (for an implied pass, the discard or kong
    that opened the window). A named tuple: a traced hand makes one at nearly every event, and
    a frozen dataclass takes three times as long to build."""
    event_index: int
    seat: int
    window: str
    legal: tuple[str, ...]
    taken: str
    effect: str = TOOK_EFFECT


@dataclass
class Verdict:
    game_id: str
    ruleset: str
    status: str
    reason: str = ""  # why a record is unreplayable
    violations: list[Violation] = field(default_factory=list)
    recomputed: Settlement | None = None
    claimed: tuple[int, ...] | None = None
    winners: tuple[int, ...] = ()
    event_count: int = 0
    decisions: list[Decision] = field(default_factory=list)
    # The seat the dealer rule gives for the next hand, recomputed from the events (None if the hand
    # did not end); the match checks (referee/match.py) compare the next record's dealer with it.
    next_dealer: int | None = None
    # Findings across the hands of its match that concern this record (referee/match.py), when its
    # match was checked: they leave `status` the hand's own, as the audit's games table has it.
    match_findings: list[Violation] = field(default_factory=list)

    @property
    def drawn(self) -> bool:
        """The hand ended with no winner (流局/荒庄)."""
        return self.recomputed is not None and not self.winners

    @property
    def mismatch(self) -> bool:
        return (
            self.recomputed is not None
            and self.claimed is not None
            and tuple(self.recomputed.payments) != tuple(self.claimed)
        )

    @property
    def errors(self) -> list[Violation]:
        return [v for v in self.violations if v.severity == ERROR]

    @property
    def match_errors(self) -> list[Violation]:
        return [v for v in self.match_findings if v.severity == ERROR]

    def to_json(self) -> dict:
        return {
            "game_id": self.game_id,
            "ruleset": self.ruleset,
            "status": self.status,
            "reason": self.reason or None,
            "violations": [violation_json(v) for v in self.violations],
            "winners": list(self.winners),
            "settlement": {
                "claimed": list(self.claimed) if self.claimed is not None else None,
                "recomputed": list(self.recomputed.payments) if self.recomputed else None,
                "kong_payments": list(self.recomputed.kong_payments) if self.recomputed else None,
                "patterns": [
                    {"seat": p.seat, "name": p.name, "value": p.value}
                    for p in (self.recomputed.patterns if self.recomputed else ())
                ],
                "lines": list(self.recomputed.lines) if self.recomputed else [],  # who pays whom, and why
            },
            "mismatch": self.mismatch,
        }


def violation_json(v: Violation) -> dict:
    return {"code": v.code, "severity": v.severity, "seat": v.seat, "event_index": v.event_index, "message": v.message}
