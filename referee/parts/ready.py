"""Ready declarations (听, 夹听, 报听): when a seat may declare, and what the declaration locks.

A declaration is an action of its own (actions.READY_DISCARD, JIATING_DISCARD, CHI_READY,
OPENING_READY). Its legality is the part's common check (not declared before, ready after it)
plus the ruleset's `ready_conditions` hook (e.g. 哈尔滨's 开门/幺九/刻 conditions). The lock is a
ReadyLock: discard the drawn tile, no calls, kongs only if they keep the hand ready.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import compress

from referee import actions as A
from referee import tiles as T
from referee.state import CHI, Meld

Issue = tuple[str, str] | None
# The codes a ready declaration's own issue carries (declaration_issue, call_declaration_issue).
DECLARATION_CODES = frozenset(("READY_TWICE", "READY_NOT_TENPAI", "READY_CONDITIONS", "READY_NOT_OPEN"))


@dataclass(frozen=True)
class ReadyLock:
    """What a declared seat may no longer do. Messages name the declaration as the rule book does."""
    discard_code: str  # a discard other than the tile just drawn
    call_code: str  # a call (the kinds in `calls`)
    kong_code: str  # a kong that breaks the ready hand (or changes its waits, with same_waits)
    calls: tuple[str, ...] = (A.PON,)
    same_waits: bool = False  # kongs must keep the declared waits, not just some wait
    kong_needs_drawn: bool = False  # a kong must use the tile just drawn (大连 DL-A14)
    discard_text: str = "seat {seat} is 听 and drew {drawn} but discarded {tile}"
    call_text: str = "seat {seat} is 听 and may not 碰"
    kong_text: str = "after 杠 {tile} seat {seat}'s hand waits on nothing"
    waits_text: str = "after 杠 {tile} seat {seat}'s waits change"
    drawn_text: str = "after 听 seat {seat} may only kong with the tile it drew ({drawn}), not {tile}"

    def issue(self, legality, seat: int, action: A.Action) -> Issue:
        s = legality.table.seats[seat]
        kind, tile = action.kind, action.tile
        if kind in A.DISCARDS:
            if s.drawn is not None and tile != s.drawn:  # (the detail is written if flagged: the trace asks often)
                drawn = s.drawn
                return self.discard_code, lambda: self.discard_text.format(seat=seat, drawn=T.label(drawn),
                                                                           tile=T.label(tile))
            return None
        if kind in self.calls:
            return self.call_code, self.call_text.format(seat=seat)
        if kind in A.KONG_FROM_HAND:
            if self.kong_needs_drawn and kind != A.KONG_EXPOSED and tile != s.drawn:
                drawn = T.label(s.drawn) if s.drawn is not None else "none"
                return self.kong_code, self.drawn_text.format(seat=seat, drawn=drawn, tile=T.label(tile))
            if not s.ready_waits:
                return None  # the declaration kept no wait (that was its own finding): none to lose
            hand, melds = legality.hand_after_kong(seat, tile, A.KONG_FROM_HAND[kind])
            waits = legality.rules.lock_waits(s.ready, hand, melds, legality.waits_of_hand(hand, melds))
            if self.same_waits and waits != s.ready_waits:
                return self.kong_code, self.waits_text.format(seat=seat, tile=T.label(tile))
            if not waits:
                return self.kong_code, self.kong_text.format(seat=seat, tile=T.label(tile))
        return None

    def discards(self, s) -> tuple[int, ...] | None:
        """The kinds whose plain discard issue() allows the seat: the tile it drew, any without one."""
        return None if s.drawn is None else (s.drawn,)


class NoReady:
    """No ready declaration (宁乡's 报听 aside, 推倒胡, 鸡平胡 (3))."""
    declares: tuple[str, ...] = ()  # the action kinds that declare
    # Each later declaration with a discard is the first one with conditions added (大连's 夹听 is a
    # 听 with one edge or closed wait): where the first is not legal, no later one is.
    refines_first = False
    events: tuple[str, ...] = ()  # declaration events this part handles
    lock: ReadyLock | None = None
    required_to_win = False  # only a declared seat may win (哈尔滨, 大连)

    def declaration_issue(self, legality, seat: int, action: A.Action, hand: list[int], melds) -> Issue:
        return None

    def call_declaration_issue(self, legality, seat: int, action: A.Action) -> Issue:
        """Why a call that declares (吃听) may not be made, or None."""
        return None

    def lock_issue(self, legality, seat: int, action: A.Action) -> Issue:
        s = legality.table.seats[seat]
        if s.ready and self.lock is not None:
            return self.lock.issue(legality, seat, action)
        return None

    def lock_discards(self, s) -> tuple[int, ...] | None:
        """The kinds a declared seat's plain discard passes lock_issue with (None: any), so the
        move generator asks about no other."""
        return None if self.lock is None else self.lock.discards(s)


class DiscardReady(NoReady):
    """听 declared together with a discard (河北 HB.3, 哈尔滨 HRB.3, 大连 DL.3): legal when the
    hand after the discard is ready and the ruleset's conditions hold; once only."""

    def __init__(self, lock: ReadyLock | None, declares: tuple[str, ...] = (A.READY_DISCARD,),
                 required_to_win: bool = False, refines_first: bool = False):
        self.lock, self.declares, self.required_to_win = lock, declares, required_to_win
        self.refines_first = refines_first

    def declaration_issue(self, legality, seat, action, hand, melds):
        s = legality.table.seats[seat]
        if s.ready:
            return "READY_TWICE", f"seat {seat} declared 听 again"
        if not legality.waits_of_hand(hand, melds):
            return self.not_tenpai(seat, action.tile, hand)
        return legality.rules.ready_conditions(legality.view, seat, action, tuple(hand), tuple(melds))

    @staticmethod
    def not_tenpai(seat: int, tile: int, hand: list[int]) -> Issue:
        return "READY_NOT_TENPAI", lambda: (f"seat {seat} declared 听 discarding {T.label(tile)}, "
                                            f"leaving {T.format_counts(hand)}, which waits on nothing")

    def call_declaration_issue(self, legality, seat, action):
        """吃听 (哈尔滨 HRB.2): legal when some discard after the 吃 leaves a legal 听; the reason
        the best discard fails otherwise."""
        s = legality.table.seats[seat]
        if s.ready:
            return "READY_TWICE", f"seat {seat} declared 听 again"
        claimed = legality.phase().tile
        hand = list(s.hand)
        for t in (action.tile, action.tile + 1, action.tile + 2):
            if t != claimed:
                hand[t] -= 1
        melds = list(s.melds) + [Meld(CHI, action.tile, None, claimed_tile=claimed)]
        # Only a discard that may leave the hand ready (ready_candidates: a superset, found
        # without a wait search) can make the 听 legal or fail for a reason other than
        # READY_NOT_TENPAI; of the others only the last held tile's can be the one reported.
        candidates = legality.rules.ready_candidates(hand, melds, legality.table.wilds)
        first = None
        for t in sorted(t for t in candidates if hand[t] > 0):  # in kind order, as held
            after = list(hand)  # its own list: a reason is written later, from the hand it names
            after[t] -= 1
            issue = self.declaration_issue(legality, seat, A.Action(A.READY_DISCARD, t), after, melds)
            if issue is None:
                return None
            if first is None or first[0] == "READY_NOT_TENPAI":
                first = issue
        chow = [action.tile, action.tile + 1, action.tile + 2]
        if first is not None and first[0] != "READY_NOT_TENPAI":
            code, detail = first
        else:  # (the trace asks this for every 吃 it lists: the best discard is found only if flagged)
            code, detail = "READY_NOT_TENPAI", lambda: self.best_not_tenpai(hand, candidates)
        # Written only when flagged; the best discard's detail may itself be a function (see
        # referee/legal.py Issue).
        return code, lambda: (f"吃听 {T.format_tiles(chow)}: no discard after it leaves a legal 听 "
                              f"({detail() if callable(detail) else detail})")

    @staticmethod
    def best_not_tenpai(hand: list[int], candidates) -> str:
        """Why no discard after a 吃 leaves a ready hand, named by one discard it could make (none
        was made yet): the last held tile (in kind order) where it is no candidate, else the last
        held candidate (every candidate's hand waited on nothing)."""
        held = list(compress(range(len(hand)), hand))  # (counts 0..4: ready_candidates checked)
        tiles = [t for t in held if t not in candidates][-1:] or [t for t in held if t in candidates][-1:]
        if not tiles:
            return "no tile is left to discard"
        after = list(hand)
        after[tiles[0]] -= 1
        return (f"discarding {T.label(tiles[0])} would leave {T.format_counts(after)}, which waits on nothing; "
                f"so would any other discard")


class OpeningReady(NoReady):
    """报听 (SPEC NX.3): a non-dealer whose dealt hand is ready declares it right after the deal
    (after the indicator flip, before the dealer's first discard), without a discard."""
    declares = (A.OPENING_READY,)
    events = ("ready",)

    def __init__(self, lock: ReadyLock, after_indicator: bool = True):
        self.lock, self.after_indicator = lock, after_indicator

    def on_event(self, replay, event) -> bool:
        seat = event.seat
        replay.note_deal_decision(seat, A.Action(A.OPENING_READY))
        s = replay.table.seats[seat]
        if replay.flag_issue(self.declaration_issue(replay.legality, seat, A.Action(A.OPENING_READY), None, None),
                             seat):
            return True  # binds nothing and earns nothing: one finding, no lock to breach
        s.ready = A.BAOTING
        s.ready_waits = replay.rules.lock_waits(s.ready, s.hand, s.melds, replay.legality.waits(seat))
        return True

    def declaration_issue(self, legality, seat, action, hand, melds):
        table = legality.table
        s = table.seats[seat]
        if seat == table.dealer:
            return "BAOTING_BY_DEALER", f"seat {seat} is the dealer"
        if not table.deal_window or (self.after_indicator and table.indicator is None) or s.ready:
            return "BAOTING_OUT_OF_WINDOW", (f"seat {seat} declared 报听 outside the window between the 正王 "
                                             f"flip and the dealer's first discard")
        forbidden = legality.rules.forbid(legality.view, seat, action)  # (宁乡: a 封东 seat declares nothing)
        if forbidden:
            return forbidden
        if not legality.waits(seat):
            return "BAOTING_NOT_TENPAI", lambda: f"seat {seat}'s hand {s.concealed()} waits on nothing"
        return legality.rules.ready_conditions(legality.view, seat, action, tuple(s.hand), tuple(s.melds))
