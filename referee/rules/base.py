"""The base ruleset: the parts a rule book composes, its flags, its options and its hooks.

A variant subclasses Ruleset the way a python-chess variant subclasses Board: it sets a few
class attributes (the tile set, the shapes, what calls exist), picks its parts in `configure`
(the end of the wall, kong resolution, wildcards, ready declarations, the 漏胡 rule, the
add-ons after the hand), lists its options ([REC] rulings with the SPEC default) and overrides
the few hooks where its rule book differs. Hooks see a read-only TableView (referee/state.py),
never the replay. The replay loop (referee/referee.py), the move generator (referee/legal.py)
and the shape analysis (referee/shapes.py) are shared and never copied.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Container, Mapping

from referee import actions as A
from referee import shapes
from referee import tiles as T
from referee.parts.kongs import TailReplacement
from referee.parts.missed import NoMissedWinRule
from referee.parts.ready import NoReady
from referee.parts.walls import PlayToTheEnd
from referee.parts.wilds import NoWilds
from referee.outcome import NO_WILDS, KongInfo, Outcome, WinInfo
from referee.state import ADDED, PON, Meld

__all__ = ["KongInfo", "Option", "Outcome", "Ruleset", "RulesetError", "WinInfo"]
ALL_KINDS = range(T.KINDS)


class RulesetError(ValueError):
    """An unknown ruleset, option or option value."""


@dataclass(frozen=True)
class Option:
    name: str
    default: bool | int | str
    help: str
    spec: str = ""  # the SPEC ruling it implements, e.g. "HB-A3"
    choices: tuple[str, ...] = ()
    least: int = 0  # a whole-number option's smallest value (1 for a multiplier or a base)
    most: int | None = None  # its largest, where a table bounds it (tiles left in the wall after the deal)

    def parse(self, text: str) -> bool | int | str:
        if isinstance(self.default, bool):
            lowered = text.strip().lower()
            if lowered in ("1", "true", "yes", "on"):
                return True
            if lowered in ("0", "false", "no", "off"):
                return False
            raise RulesetError(f"option {self.name} takes true or false, not {text!r}")
        if isinstance(self.default, int):
            digits = text.strip()
            if not (digits.isascii() and digits.isdigit()) or not self.least <= int(digits) <= (self.most or int(digits)):
                bound = f"from {self.least} to {self.most}" if self.most is not None else f"of at least {self.least}"
                raise RulesetError(f"option {self.name} takes a whole number {bound}, not {text!r}")
            return int(digits)
        if self.choices and text not in self.choices:
            raise RulesetError(f"option {self.name} takes one of {', '.join(self.choices)}, not {text!r}")
        return text


class Ruleset:
    name = "base"
    title = ""
    spec_section = ""
    tile_kinds: tuple[int, ...] = tuple(range(T.KINDS))
    copies = 4
    # Winning shapes beyond 4 sets + a pair (concealed hands only).
    seven_pairs = False
    thirteen_orphans = False
    # Does a wildcard complete a hand wherever a natural tile does, whatever its face? Not where some
    # place takes only natural tiles (宁乡's 2/5/8 pair, read so): with_wild_waits then tries each kind.
    wild_fills_any_place = True
    # Calls.
    chi_allowed = False
    chi_from_left_only = True
    multiple_ron = True  # 一炮多响
    robbable_kongs: tuple[str, ...] = (ADDED,)
    kong_after_pon = False  # may a seat 补杠 in the turn of a 碰 (that one or an older one), before its discard?
    kong_after_call = False  # may it make any own kong (暗杠 too) in the turn of a 吃 or 碰, before its discard?
    added_kong_with_held_tile = True  # may a 补杠's fourth tile be one held from before, not only the one drawn?
    # Does the system win for a seat in 托管 (auto-play)? Only then is a win it lets go an error
    # (AUTO_WIN_MISSED); elsewhere it is a pass like any other (MISSED_WIN and the 漏胡 rule).
    auto_play_wins = False
    # Claim priority after a discard: 胡 > 碰/杠 > 吃 (SPEC 0.3); a rule book may rank a call otherwise.
    priority: Mapping[str, int] = A.PRIORITY
    options: tuple[Option, ...] = ()
    # Does settlement read GameRecord.match_state.consecutive_draws (checked across a match)?
    reads_draws_before = False
    # Does the rule book keep a round wind (风圈) that advances with the deal (checked across a match)?
    round_wind_advances = False
    # May forbid() reject a plain discard? False lets the move generator skip asking it for
    # every held tile; guarded_discards narrows it (tests/test_legal_fast.py holds both).
    forbids_discards = True
    # Parts, replaced in configure() by the variants that have them.
    wall_end = PlayToTheEnd()
    kong_draw = TailReplacement()
    wilds = NoWilds()
    ready = NoReady()
    missed_win = NoMissedWinRule()
    before_play: tuple = ()  # parts that act at the deal, beside the wildcards (horses set aside, 买马)
    after_hand: tuple = ()  # parts that act when the hand is over (birds)

    def __init__(self, values: Mapping[str, str] | None = None):
        known = {o.name: o for o in self.options}
        self.values: dict[str, bool | int | str] = {o.name: o.default for o in self.options}
        for key, text in (values or {}).items():
            if key not in known:
                raise RulesetError(f"unknown rule option {key!r} for ruleset {self.name}")
            self.values[key] = known[key].parse(text)
        self.kind_set = frozenset(self.tile_kinds)
        self._counts_held = bytes(range(self.copies + 1))  # the counts a hand may hold of a kind
        self._allowed = shapes.kind_masks(self.kind_set)
        self.configure()
        self.declarations = {kind: part.on_event for part in (self.wilds, self.ready, *self.before_play)
                             for kind in part.events}
        self.declarations.update(self.own_declarations())

    def __getitem__(self, option: str):
        return self.values[option]

    def configure(self) -> None:
        """Pick the parts from the option values (a variant overrides this)."""

    def own_declarations(self) -> dict:
        """Event kinds outside the turn order this rule book handles itself: kind -> handler(replay, event),
        returning False when the event is not one (then the loop treats it as usual)."""
        return {}

    def may_declare(self, view, seat: int, kind: str) -> bool:
        """May the seat log this declaration of the rule book's own (an own_declarations kind) now?
        (For offers: an offered declaration the seat may not make is OFFER_ILLEGAL.)"""
        return kind in self.declarations

    # -- what a variant forbids beyond the common rules (hooks see a TableView) ---------------
    def forbid(self, view, seat: int, action) -> tuple[str, str] | None:
        """(code, detail) if the variant forbids this action for this seat now, else None.

        The common checks (tiles held, shapes, priority, the ready lock) are the move
        generator's own (referee/legal.py); this hook adds what the rule book forbids besides.
        """
        return None

    def wild_meld_issue(self, view, seat: int, action) -> tuple[str, str] | None:
        """(code, detail) for a 碰 or kong the seat holds too few of the kind for unless its
        wildcards stand in (the move generator asks only then): the rule book's word on wilds in
        melds. None: the call is short of tiles, as any other (ILLEGAL_CALL)."""
        return None

    def guarded_discards(self, view, seat: int) -> Container[int]:
        """The kinds whose plain discard forbid() may reject for this seat now: listing a turn's
        legal discards, the move generator asks forbid() about these alone (forbid stays the
        judge, and the one asked about a logged discard). Every kind, unless the rule book knows
        better (its wilds); forbids_discards = False says none ever is."""
        return ALL_KINDS

    def discard_win_issue(self, win: WinInfo) -> tuple[str, str] | None:
        """(code, detail) if the rule book forbids this hand (the discard added, WinInfo of kind
        RON) to win on a discard, whatever its shape (推倒胡: a hand that scores only 鸡胡)."""
        return None

    def ready_conditions(self, view, seat: int, action, hand: tuple[int, ...], melds) -> tuple[str, str] | None:
        """Conditions on a ready declaration beyond a ready hand (e.g. 哈尔滨's 开门, 幺九, 刻)."""
        return None

    def lock_waits(self, ready: str, hand: list[int], melds, waits: tuple[int, ...]) -> tuple[int, ...]:
        """The waits a seat's declaration (`ready`: 听, 夹听, 报听) holds it to, for this 3k+1 hand with
        these shape `waits`: kept as it declares, and checked after a kong under a lock that wants
        the same waits. Here the shape waits themselves."""
        return waits

    def drawn_wild_wins(self, view, seat: int, tile: int) -> bool:
        """May the seat win by using the tile it has just drawn (in its hand now) as a wildcard
        (哈尔滨/大连 摸宝)? Wildcards of the whole table are the table's, not this hook's."""
        return False

    def allows_multiple_ron(self, last_tile: bool) -> bool:
        return self.multiple_ron

    def discard_at_face(self, view, tile: int) -> bool:
        """Is a tile of a wild kind that a seat takes or wins from another (the claim window's discard,
        an 打筛 tile) its natural face (宁乡 NX.5, NX-A12)? Elsewhere a discarded wild stays wild."""
        return False

    def may_borrow_kong(self, view, seat: int, tile: int) -> bool:
        return False

    def instant_hands(self, view, hand: list[int], melds: list[Meld], opening: bool) -> tuple[str, ...]:
        """Hands that win without a shape (宁乡 起手 hands); none in the base."""
        return ()

    def deal_window_win(self, view, seat: int) -> bool:
        """May a seat other than the dealer declare a 起手 hand in the deal window (宁乡 NX-A4)?"""
        return False

    def best_tile(self, view, seat: int, tiles: list[int], source: int) -> int:
        """The tile a seat is settled on when it could take more than one (NX-A10)."""
        return tiles[0]

    def explain_mismatch(self, outcome: Outcome, claimed) -> tuple[str, str] | None:
        """A more specific code for a claimed settlement that differs from ours, if one fits."""
        return None

    def misapplied(self, outcome: Outcome, code: str):
        """The Settlement a platform pays when it gets the one rule a settlement code names wrong
        (a cap not applied, a liability ignored), or None when this rule book has no such slip or
        it changes nothing here. explain_mismatch and the fault injector (referee/faults.py) use it."""
        return None

    # -- the wall ---------------------------------------------------------------------------
    @property
    def wall_size(self) -> int:
        return len(self.tile_kinds) * self.copies

    def live_tiles(self, wall) -> int:
        """Tiles a normal draw may still take; at 0 with a draw due the hand is drawn."""
        return self.wall_end.live(wall)

    # -- shapes -----------------------------------------------------------------------------
    @staticmethod
    def split_wilds(hand: list[int], wilds: frozenset[int] = NO_WILDS) -> tuple[list[int], int]:
        """(natural tiles, number of wildcards) of a concealed hand."""
        if not wilds:
            return hand, 0
        naturals, count = list(hand), 0
        for t in wilds:
            count += naturals[t]
            naturals[t] = 0
        return naturals, count

    def is_win(self, hand: list[int], melds: list[Meld], wilds: frozenset[int] = NO_WILDS,
               room: list[int] | None = None) -> bool:
        """Is this concealed hand (winning tile included) with these melds a winning shape?"""
        if max(hand) > self.copies:
            return False  # a logged fifth copy (already a violation) wins nothing
        naturals, count = self.split_wilds(hand, wilds)
        if shapes.is_standard_win(naturals, count, room=room):
            return True
        return not melds and (
            self.seven_pairs and shapes.is_seven_pairs(naturals, count, room=room)
            or self.thirteen_orphans and shapes.is_thirteen_orphans(naturals, count, self.orphan_pair_kinds(),
                                                                    room=room))

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
        """Tiles this seat may 补杠 now: a 碰 of the tile plus a fourth one in hand (the one just
        drawn, unless added_kong_with_held_tile)."""
        return [m.tile for m in melds if m.kind == PON and hand[m.tile] and
                (self.added_kong_with_held_tile or m.tile == drawn)]

    def waits(self, hand: list[int], melds: list[Meld], wilds: frozenset[int] = NO_WILDS,
              room: list[int] | None = None) -> tuple[int, ...]:
        """The tiles that would complete this 3k+1 hand (SPEC 0.3 tenpai check): natural kinds
        from the shape tables, and any wild kind whose copy would complete it as a wildcard."""
        if not wilds and room is None and self.copies == 4:
            # The kernel reads the hand as it is; a count outside 0..4 waits on nothing there too.
            if melds:
                return shapes.natural_waits(hand, self._allowed)
            return shapes.natural_waits(hand, self._allowed, self.seven_pairs, self.thirteen_orphans,
                                        self.orphan_pair_kinds())
        counts = self.counts_of(hand)
        if counts is None:
            return ()
        concealed = not melds
        naturals, count = self.split_wilds(counts, wilds)
        found = shapes.wild_waits(bytes(naturals), count, room, self._allowed, self.seven_pairs and concealed,
                                  self.thirteen_orphans and concealed,
                                  self.orphan_pair_kinds() if concealed else None)
        if not wilds:
            return found
        if not found:
            return ()  # a wild's copy stands for some tile: if none completes the hand, neither does it
        return self.with_wild_waits(found, hand, melds, wilds, room)

    def counts_of(self, hand: list[int]) -> bytes | None:
        """The hand's counts as bytes; None for a count below 0 or above the copies (a logged
        fifth copy, already a violation): such a hand waits on nothing."""
        try:
            counts = bytes(hand)
        except ValueError:
            return None
        return None if counts.translate(None, self._counts_held) else counts

    def with_wild_waits(self, found, hand, melds, wilds, room) -> tuple[int, ...]:
        """Natural waits that are not wild kinds, plus each wild kind whose copy completes the hand.
        `found`: tiles that complete the hand as naturals."""
        waits = [t for t in found if t not in wilds]
        open_kinds = [t for t in sorted(wilds & self.kind_set) if hand[t] < self.copies]
        if open_kinds and (not found or not self.wild_fills_any_place):
            # Where a wild fills any place, a copy of any wild kind is one more wildcard (is_win
            # sees a hand only through split_wilds and its largest count): one trial answers for
            # every such kind; and when a natural tile completes the hand, the wildcard standing
            # for it does too: no trial. Elsewhere a wild's face may matter: a trial per kind.
            if self.wild_fills_any_place:
                trial = list(hand)
                trial[open_kinds[0]] += 1
                if not self.is_win(trial, melds, wilds, room):
                    open_kinds = []
            else:
                open_kinds = [t for t in open_kinds if self.is_win(
                    [c + (k == t) for k, c in enumerate(hand)], melds, wilds, room)]
        return tuple(sorted(waits + open_kinds))

    def ready_candidates(self, hand: list[int], melds: list[Meld], wilds: frozenset[int] = NO_WILDS) -> set[int]:
        """Kinds whose discard might leave this 3k+2 hand ready: a superset of the true ones,
        found without a wait search (the move generator checks each in full)."""
        naturals, count = self.split_wilds(hand, wilds)
        concealed = not melds
        found = shapes.ready_candidates(naturals, count, concealed and self.seven_pairs,
                                        concealed and self.thirteen_orphans)
        if count:
            found.update(wilds)
        return found

    def is_tenpai(self, hand: list[int], melds: list[Meld], wilds: frozenset[int] = NO_WILDS) -> bool:
        return bool(self.waits(hand, melds, wilds))

    # -- settlement -------------------------------------------------------------------------
    def settle(self, outcome: Outcome):
        raise NotImplementedError

    def next_dealer(self, outcome: Outcome) -> int:
        raise NotImplementedError

    def first_dealer(self) -> int | None:
        """The seat that must deal a match's first hand, where the rule book fixes it (else None)."""
        return None
