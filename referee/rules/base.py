"""The base ruleset: flags for what is allowed, small hooks for what differs, named options.

A variant subclasses Ruleset, sets its flags, lists its options ([REC] rulings with the
SPEC default) and overrides the few hooks where its rule book differs. The replay loop
(referee/referee.py) and the shape analysis (referee/shapes.py) are shared and never copied.
"""
from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Mapping

from referee import shapes
from referee import tiles as T
from referee.state import ADDED, PON, Meld, Wall

NO_MISSED_WIN_RULE = "none"  # 漏胡 has no consequence (HB-A14)
REPLACEMENT, DASHAI = "replacement", "dashai"  # how a kong is resolved
_ORPHANS_OF = operator.itemgetter(*T.TERMINALS_AND_HONORS)


class RulesetError(ValueError):
    """An unknown ruleset, option or option value."""


@dataclass(frozen=True)
class Option:
    name: str
    default: bool | int | str
    help: str
    spec: str = ""  # the SPEC ruling it implements, e.g. "HB-A3"
    choices: tuple[str, ...] = ()

    def parse(self, text: str) -> bool | int | str:
        if isinstance(self.default, bool):
            lowered = text.strip().lower()
            if lowered in ("1", "true", "yes", "on"):
                return True
            if lowered in ("0", "false", "no", "off"):
                return False
            raise RulesetError(f"option {self.name} takes true or false, not {text!r}")
        if isinstance(self.default, int):
            try:
                return int(text)
            except ValueError:
                raise RulesetError(f"option {self.name} takes a whole number, not {text!r}") from None
        if self.choices and text not in self.choices:
            raise RulesetError(f"option {self.name} takes one of {', '.join(self.choices)}, not {text!r}")
        return text


@dataclass
class WinInfo:
    """One winner as the replay saw it."""
    seat: int
    kind: str  # actions.SELF_WIN, RON or ROB_WIN
    tile: int
    from_seat: int | None  # the discarder or robbed konger; None for a self-draw
    hand: list[int]  # concealed tiles including the winning tile
    melds: list[Meld]
    event_index: int
    after_replacement: bool = False  # self-draw on a kong replacement or 打筛 tile (杠上开花)
    last_tile: bool = False  # won with the last live tile (海底)
    instant: tuple[str, ...] = ()  # 起手/instant hands declared (Ningxiang), no shape needed
    opening: bool = False  # the dealer's dealt fourteen (天胡)
    ready: bool = False  # the seat had declared 听/报听
    on_kong_reveal: bool = False  # a win on another seat's 打筛 tile (杠上炮)


@dataclass
class KongInfo:
    seat: int
    kong_kind: str
    tile: int
    from_seat: int | None
    event_index: int


@dataclass
class Outcome:
    """How the hand ended: the input to settlement and to the dealer rule."""
    dealer: int
    wins: list[WinInfo] = field(default_factory=list)
    kongs: list[KongInfo] = field(default_factory=list)
    exhaustive: bool = False  # 荒庄 / 流局
    haidi_taker: int | None = None  # who took the 海底 tile in a drawn hand (Ningxiang dealer rule)
    all_feng_dong: bool = False  # all four chose 封东 at the start
    birds: list[int] = field(default_factory=list)  # 扎鸟 tiles
    birds_logged: bool = False


class Ruleset:
    name = "base"
    title = ""
    spec_section = ""
    tile_kinds: tuple[int, ...] = tuple(range(T.KINDS))
    copies = 4
    # Winning shapes beyond 4 sets + a pair (concealed hands only).
    seven_pairs = False
    thirteen_orphans = False
    # Calls.
    chi_allowed = False
    chi_from_left_only = True
    multiple_ron = True  # 一炮多响
    robbable_kongs: tuple[str, ...] = (ADDED,)
    # 听 declared together with a discard, and what it locks.
    ready_with_discard = False
    ready_locks_discard = False
    ready_forbids_pon = False
    ready_kong_keeps_tenpai = False
    missed_win_rule = NO_MISSED_WIN_RULE  # or "any_until_draw", "same_kind_until_draw"
    # Variant mechanisms, off in the base.
    kong_draws = REPLACEMENT  # or DASHAI: two tiles revealed from the wall (Ningxiang)
    haidi_roaming = False  # 海底漫游: the last tile is offered around the table
    has_indicator = False  # a flipped indicator tile sets the wildcards (正王, 鬼, 宝)
    opening_ready = False  # 报听 right after the deal, without a discard
    has_feng_dong = False
    has_instant_hands = False  # 起手 hands declared by any seat right after the deal
    options: tuple[Option, ...] = ()

    def __init__(self, values: Mapping[str, str] | None = None):
        known = {o.name: o for o in self.options}
        self.values: dict[str, bool | int | str] = {o.name: o.default for o in self.options}
        for key, text in (values or {}).items():
            if key not in known:
                raise RulesetError(f"unknown rule option {key!r} for ruleset {self.name}")
            self.values[key] = known[key].parse(text)

    def __getitem__(self, option: str):
        return self.values[option]

    # A ruleset instance judges one hand: a flipped indicator sets its wildcards.
    indicator: int | None = None
    wild_kinds: frozenset[int] = frozenset()

    def set_indicator(self, tile: int) -> None:
        self.indicator = tile

    def split_wilds(self, hand: list[int]) -> tuple[list[int], int]:
        """(natural tiles, number of wildcards) of a concealed hand."""
        if not self.wild_kinds:
            return hand, 0
        naturals, wilds = list(hand), 0
        for t in self.wild_kinds:
            wilds += naturals[t]
            naturals[t] = 0
        return naturals, wilds

    # -- what a variant forbids beyond the common rules -------------------------------------
    def forbid(self, replay, seat: int, action) -> tuple[str, str] | None:
        """(code, detail) if the variant forbids this action for this seat now, else None.

        The replay supplies the context (phase, seat flags); the common checks (tiles held,
        shapes, priority, the ready lock) are the replay's own.
        """
        return None

    def allows_multiple_ron(self, last_tile: bool) -> bool:
        return self.multiple_ron

    def may_borrow_kong(self, melds: list[Meld], tile: int) -> bool:
        return False

    def instant_hands(self, hand: list[int], melds: list[Meld], opening: bool) -> tuple[str, ...]:
        """Hands that win without a shape (Ningxiang 起手 hands); none in the base."""
        return ()

    def best_tile(self, replay, seat: int, tiles: list[int], source: int) -> int:
        """The tile a seat is settled on when it could take more than one (NX-A10)."""
        return tiles[0]

    def bird_count(self, remaining: int, outcome: "Outcome") -> int:
        return 0

    def explain_mismatch(self, outcome: "Outcome", claimed) -> tuple[str, str] | None:
        """A more specific code for a claimed settlement that differs from ours, if one fits."""
        return None

    # -- the wall ---------------------------------------------------------------------------
    @property
    def wall_size(self) -> int:
        return len(self.tile_kinds) * self.copies

    def live_tiles(self, wall: Wall) -> int:
        """Tiles a normal draw may still take; at 0 with a draw due the hand is drawn."""
        return wall.remaining

    # -- shapes -----------------------------------------------------------------------------
    def is_win(self, hand: list[int], melds: list[Meld]) -> bool:
        """Is this concealed hand (winning tile included) with these melds a winning shape?"""
        if max(hand) > self.copies:
            return False  # a logged fifth copy (already a violation) wins nothing
        naturals, wilds = self.split_wilds(hand)
        if shapes.is_standard_win(naturals, wilds):
            return True
        return not melds and (
            self.seven_pairs and shapes.is_seven_pairs(naturals, wilds)
            or self.thirteen_orphans and shapes.is_thirteen_orphans(naturals, wilds, self.orphan_pair_kinds()))

    def win_shapes(self, hand: list[int], melds: list[Meld]) -> list[str]:
        found = []
        if shapes.is_standard_win(hand):
            found.append("standard")
        if not melds:
            if self.seven_pairs and shapes.is_seven_pairs(hand):
                found.append("seven_pairs")
            if self.thirteen_orphans and shapes.is_thirteen_orphans(hand, pair_kinds=self.orphan_pair_kinds()):
                found.append("thirteen_orphans")
        return found

    def orphan_pair_kinds(self):
        return None

    def added_kong_tiles(self, hand: list[int], melds: list[Meld], drawn: int | None) -> list[int]:
        """Tiles this seat may 补杠 now: a 碰 of the tile plus a fourth one in hand."""
        return [m.tile for m in melds if m.kind == PON and hand[m.tile]]

    def waits(self, hand: list[int], melds: list[Meld]) -> tuple[int, ...]:
        """The tiles that would complete this 3k+1 hand (SPEC 0.3 tenpai check)."""
        if not self._may_be_ready(hand, melds):
            return ()
        if self.wild_kinds:  # a drawn tile may itself be wild: try every kind the slow way
            return shapes.waits(hand, win=lambda counts, _wilds: self.is_win(counts, melds), kinds=self.tile_kinds)
        found = set(shapes.waits(hand, kinds=self.tile_kinds))  # the fast, per-suit path
        if not melds:
            trial = list(hand)
            specials = []
            if self.seven_pairs:  # only a tile joining an odd count can complete seven pairs
                specials += [(t, lambda c: shapes.is_seven_pairs(c)) for t in self.tile_kinds if hand[t] % 2]
            if self.thirteen_orphans:
                pairs = self.orphan_pair_kinds()
                specials += [(t, lambda c: shapes.is_thirteen_orphans(c, pair_kinds=pairs))
                             for t in T.TERMINALS_AND_HONORS]
            for t, complete in specials:
                if t not in found and trial[t] < 4:
                    trial[t] += 1
                    if complete(trial):
                        found.add(t)
                    trial[t] -= 1
        return tuple(sorted(found))

    def _may_be_ready(self, hand: list[int], melds: list[Meld]) -> bool:
        """Cheap necessary condition for tenpai, so most hands skip the full wait search."""
        if max(hand) > self.copies:
            return False
        naturals, wilds = self.split_wilds(hand)
        if shapes.standard_cost(naturals) <= wilds + 1:
            return True
        if melds:
            return False
        # list.count and itemgetter run in C: these two checks run on almost every hand.
        if self.seven_pairs and naturals.count(2) + naturals.count(3) + 2 * naturals.count(4) + wilds >= 6:
            return True
        if self.thirteen_orphans and 13 - _ORPHANS_OF(naturals).count(0) + wilds >= 12:
            return True
        return False

    def is_tenpai(self, hand: list[int], melds: list[Meld]) -> bool:
        return bool(self.waits(hand, melds))

    # -- settlement -------------------------------------------------------------------------
    def settle(self, outcome: Outcome):
        raise NotImplementedError

    def next_dealer(self, outcome: Outcome) -> int:
        raise NotImplementedError
