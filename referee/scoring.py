"""Scoring mechanisms shared by every variant: patterns (番种) as small declarative units,
the reading of a winning hand that scores highest, and a ledger of who pays whom."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable, Iterable

from referee import shapes
from referee import tiles as T
from referee.outcome import WinInfo
from referee.state import CHI

PUNG, CHOW = "pung", "chow"


class HandView:
    """One reading of a winning hand: its shape and, for 4 sets + a pair, one decomposition.

    Patterns ask it questions; each answer is derived, never stored separately.
    """

    def __init__(self, win: WinInfo, shape: str, decomposition: shapes.Decomposition | None = None):
        self.win = win
        self.shape = shape
        self.decomposition = decomposition

    @cached_property
    def all_tiles(self) -> list[int]:
        """Concealed plus melded tiles, a kong counted as four."""
        vector = list(self.win.hand)
        for meld in self.win.melds:
            for t in meld.tiles:
                vector[t] += 1
        return vector

    @cached_property
    def suits(self) -> set[int]:
        """Suits present (0 万, 1 筒, 2 条), honors left out."""
        return {T.suit_of(t) for t, c in enumerate(self.all_tiles) if c and t < 27}

    @cached_property
    def has_honors(self) -> bool:
        return any(self.all_tiles[t] for t in T.HONORS)

    @property
    def open_melds(self):
        return [m for m in self.win.melds if m.is_open]

    @cached_property
    def sets(self) -> list[tuple[str, int]]:
        """Every set of a standard reading: concealed ones from the decomposition, then melds."""
        if self.decomposition is None:
            return []
        melded = [(CHOW if m.kind == CHI else PUNG, m.tile) for m in self.win.melds]
        return list(self.decomposition.sets) + melded

    @property
    def concealed_sets(self) -> tuple[tuple[str, int], ...]:
        return self.decomposition.sets if self.decomposition else ()

    def has_chows(self, *lows: int) -> bool:
        """Does this reading hold a chow starting at each of these tiles (all distinct sets)?"""
        pool = [low for kind, low in self.sets if kind == CHOW]
        for low in lows:
            if low not in pool:
                return False
            pool.remove(low)
        return True


@dataclass(frozen=True)
class Pattern:
    name: str  # as the rule book writes it
    gloss: str
    value: int
    applies: Callable[[HandView], bool]
    replaces: tuple[str, ...] = ()


def evaluate(patterns: Iterable[Pattern], view: HandView) -> list[Pattern]:
    """The patterns this reading scores, after the replacements the rule book states."""
    hits = [p for p in patterns if p.applies(view)]
    replaced = {name for p in hits for name in p.replaces}
    return [p for p in hits if p.name not in replaced]


def readings(win: WinInfo, shape_names: Iterable[str]) -> list[HandView]:
    """Every reading of the hand: one per decomposition for the standard shape, one per special."""
    views = []
    for shape in shape_names:
        if shape == "standard":
            views.extend(HandView(win, shape, d) for d in shapes.decompositions(win.hand))
        else:
            views.append(HandView(win, shape))
    return views


def best_reading(patterns: tuple[Pattern, ...], views: list[HandView]) -> tuple[HandView, list[Pattern]]:
    """The reading worth most to the winner (SPEC REC-global-2); the first one on a tie."""
    best = None
    for view in views:
        scored = evaluate(patterns, view)
        total = sum(p.value for p in scored)
        if best is None or total > best[0]:
            best = (total, view, scored)
    if best is None:
        raise ValueError("a winning hand with no reading")
    return best[1], best[2]


@dataclass
class Transfer:
    payer: int
    payee: int
    amount: int
    reason: str
    kong: bool = False


@dataclass
class Ledger:
    """Who pays whom and why; nets and explanation lines derive from it."""
    transfers: list[Transfer] = field(default_factory=list)

    def pay(self, payer: int, payee: int, amount: int, reason: str, kong: bool = False) -> None:
        if amount:
            self.transfers.append(Transfer(payer, payee, amount, reason, kong))

    def nets(self, kong_only: bool = False) -> tuple[int, ...]:
        net = [0, 0, 0, 0]
        for t in self.transfers:
            if kong_only and not t.kong:
                continue
            net[t.payer] -= t.amount
            net[t.payee] += t.amount
        return tuple(net)

    def lines(self) -> tuple[str, ...]:
        return tuple(f"seat {t.payer} -> seat {t.payee}: {t.amount} ({t.reason})" for t in self.transfers)

    def cap(self, limit: int) -> None:
        """Clip each seat's net to ±limit, keeping the hand zero-sum.

        A seat that would gain more than the limit has what each payer owes it reduced
        pro rata (rounded down); then a seat that would lose more has its payments reduced
        the same way (SPEC HB-A11).
        """
        for gaining in (True, False):
            nets = self.nets()
            for seat in range(4):
                over = nets[seat] > limit if gaining else nets[seat] < -limit
                if not over:
                    continue
                mine = [t for t in self.transfers if (t.payee if gaining else t.payer) == seat]
                gross = sum(t.amount for t in mine)
                # What flows the other way stays as it is.
                counter = gross - nets[seat] if gaining else gross + nets[seat]
                target = limit + counter
                for t in mine:
                    t.amount = t.amount * target // gross
