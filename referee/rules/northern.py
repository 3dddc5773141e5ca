"""What the two 宝 rule books (哈尔滨 HRB, 大连 DL) share: a win needs a declared 听, a winning
hand must meet conditions beyond its shape, calls stop at four tiles in hand (手把一), and a 听
seat's own draw of the 宝 kind is a wildcard (摸宝).

The shape of a win is the engine's (4 sets + a pair, no 七对); its conditions are the rule
book's `hand_issue` (the whole hand: suits, 幺九) and `reading_issue` (one decomposition:
a sequence, a 刻). A wait is *valid* when the hand it completes meets them; only valid waits
make a 听 legal, and a win on a shape that fails them is WIN_CONDITIONS. Shape waits stay the
engine's waits (they drive the ready lock and the simulator), so the move generator needs no
change for the conditions: they are this rule book's `forbid` and `ready_conditions` hooks.
"""
from __future__ import annotations

from referee import actions as A
from referee import shapes
from referee import tiles as T
from referee.outcome import WinInfo
from referee.rules.base import Ruleset
from referee.scoring import CHOW, PUNG, HandView
from referee.state import CHI, melds_key

CALLS = (A.PON, A.CHI, A.CHI_READY, A.KONG_EXPOSED, A.KONG_CONCEALED, A.KONG_ADDED)
FLOOR = 4  # tiles that must stay in hand: no call at four (手把一)
_MEMO_LIMIT = 200_000


class BaoFamily(Ruleset):
    chi_allowed = True
    multiple_ron = False  # 截和: only the nearest seat counter-clockwise wins on a discard
    bugang_at_four = True  # 补杠 stays legal at four tiles in hand (it does not shrink the hand)
    forbids_discards = False  # forbid() judges wins and calls only
    concealed_kong_opens = False  # a 暗杠 alone is 开门 for 听 (哈尔滨 HRB.3 says it is not)
    ready_on_shape_wait = False  # a shape wait is enough for 听 and the lock (DL.3.2 says only valid waits)

    def __init__(self, values=None):
        self._reasons: dict = {}
        self._valid: dict = {}
        super().__init__(values)

    # -- conditions on a winning hand (the variant writes these two) ----------------------------
    def hand_issue(self, v: HandView) -> str | None:
        """Why the whole hand (melds included) is no win of this rule book, whatever its reading."""
        return None

    def reading_issue(self, v: HandView) -> str | None:
        """Why this decomposition is no win of this rule book."""
        return None

    # -- valid wins and waits ------------------------------------------------------------------
    def win_reason(self, hand, melds) -> str | None:
        """None when the concealed hand (winning tile included) with these melds is a legal win;
        else why not (the first decomposition's reason)."""
        key = (tuple(hand), melds_key(melds))
        if key in self._reasons:
            return self._reasons[key]
        reason = self._win_reason(list(hand), list(melds))
        if len(self._reasons) > _MEMO_LIMIT:
            self._reasons.clear()
        self._reasons[key] = reason
        return reason

    def _win_reason(self, hand: list[int], melds: list) -> str | None:
        if not self.is_win(hand, melds):
            return "not a winning shape (four sets and a pair)"
        win = WinInfo(0, A.SELF_WIN, None, None, hand, melds, 0)
        issue = self.hand_issue(HandView(win, "standard"))
        if issue:
            return issue
        first = None
        for d in shapes.decompositions(hand):
            issue = self.reading_issue(HandView(win, "standard", d))
            if issue is None:
                return None
            first = first or issue
        return first or "not a winning shape (four sets and a pair)"

    def valid_readings(self, hand, melds) -> list[HandView]:
        """The decompositions of a legal win that meet the conditions."""
        win = WinInfo(0, A.SELF_WIN, None, None, list(hand), list(melds), 0)
        if self.win_reason(hand, melds) is not None:
            return []
        views = (HandView(win, "standard", d) for d in shapes.decompositions(list(hand)))
        return [v for v in views if self.reading_issue(v) is None]

    def valid_waits(self, hand, melds) -> tuple[int, ...]:
        """The tiles that complete this 3k+1 hand into a legal win (shape and conditions)."""
        key = (tuple(hand), melds_key(melds))
        found = self._valid.get(key)
        if found is None:
            trial = list(hand)
            found = []
            for t in self.waits(trial, list(melds)):
                trial[t] += 1
                if self.win_reason(trial, melds) is None:
                    found.append(t)
                trial[t] -= 1
            found = tuple(found)
            if len(self._valid) > _MEMO_LIMIT:
                self._valid.clear()
            self._valid[key] = found
        return found

    def why_not_wait(self, hand, melds, tile: int) -> str | None:
        trial = list(hand)
        trial[tile] += 1
        return self.win_reason(trial, melds)

    # -- hooks ------------------------------------------------------------------------------
    def drawn_wild_wins(self, view, seat: int, tile: int) -> bool:
        """摸宝: a 听 seat's own draw of the 宝 kind stands for any tile its hand waits on, so it
        always wins ("Since the hand is tenpai, this is always a win", HRB.5; DL.3.4). A wait whose
        copies are all in sight is still a wait (REC-global-1), so the 宝 may stand for it."""
        s = view.seats[seat]
        if not self.wilds.wild_for(view, seat, tile) or not s.hand[tile]:
            return False  # (a drawn tile since melded into a kong is no longer the seat's to win with)
        hand = list(s.hand)
        hand[tile] -= 1
        return bool(self.valid_waits(hand, s.melds))

    def ready_conditions(self, view, seat: int, action, hand, melds):
        """听 needs 开门 (a 暗杠 does not open), four tiles in hand, and a valid wait."""
        opened = bool(melds) if self.concealed_kong_opens else any(m.is_open for m in melds)
        if not opened:
            return "READY_NOT_OPEN", f"seat {seat} declared 听 without 开门 (no 吃, 碰 or 明杠 yet)"
        if sum(hand) < FLOOR:
            return "READY_CONDITIONS", f"seat {seat} declared 听 with {sum(hand)} tiles in hand; at least {FLOOR} must stay"
        valid = self.valid_waits(hand, melds)
        if not valid and not self.ready_on_shape_wait:  # (the shape wait itself is the part's check)
            return "READY_CONDITIONS", lambda: self.no_valid_wait(seat, hand, melds)  # written only if flagged
        return self.declaration_issue(view, seat, action, hand, melds, valid)

    def lock_waits(self, ready, hand, melds, waits):
        """Only valid waits are waits (DL.3.2; HRB.3's lock keeps the tiles the hand may win on),
        unless a shape wait is enough (`ready_on_shape_wait`)."""
        if not waits:
            return ()
        return tuple(waits) if self.ready_on_shape_wait else self.valid_waits(hand, melds)

    def no_valid_wait(self, seat: int, hand, melds) -> str:
        shape = self.waits(list(hand), list(melds))
        reason = self.why_not_wait(hand, melds, shape[0]) if shape else "no wait"
        return (f"seat {seat} declared 听 with {T.format_counts(list(hand))}, which waits on "
                f"{T.format_tiles(shape)} but no legal win: {reason}")

    def declaration_issue(self, view, seat: int, action, hand, melds, valid):
        """A declaration's own conditions beyond a valid wait (大连 夹听)."""
        return None

    def forbid(self, view, seat: int, action):
        kind = action.kind
        if kind in A.WINS:
            return self.win_forbidden(view, seat, action)
        if kind in CALLS:
            s = view.seats[seat]
            if len(s.melds) >= 3 and not (kind == A.KONG_ADDED and self.bugang_at_four):
                return "CALL_AT_FOUR", (f"seat {seat} has {FLOOR} tiles left in hand: no more 吃, 碰 or 杠 "
                                        f"(手把一)")
            return self.forbid_call(view, seat, action)
        return None

    def forbid_call(self, view, seat: int, action):
        """What the rule book forbids of a call besides the four-tile floor."""
        return None

    def win_forbidden(self, view, seat: int, action):
        """The conditions on a win: on the hand with the winning tile (or with the drawn 宝 as a wildcard)."""
        s = view.seats[seat]
        hand, melds = list(s.hand), list(s.melds)
        if (sum(hand) + 3 * len(melds)) % 3 == 1:  # the tile comes from outside: a discard, a kong, the 宝
            hand[action.tile] += 1
        elif s.drawn is not None and self.drawn_wild_wins(view, seat, s.drawn):
            return None  # 摸宝: the 宝 stands for a valid wait
        elif self.instant_hands(view, hand, melds, False):
            return None
        reason = self.win_reason(hand, melds)
        if reason is None:
            return None
        return "WIN_CONDITIONS", f"seat {seat}'s hand {T.format_counts(hand)} is not a legal win here: {reason}"

    # -- helpers for patterns ------------------------------------------------------------------
    @staticmethod
    def concealed_chows(v: HandView) -> list[int]:
        return [low for kind, low in v.concealed_sets if kind == CHOW]

    @staticmethod
    def has_set(v: HandView, kind: str) -> bool:
        return any(k == kind for k, _ in v.sets)

    @staticmethod
    def open_seats(outcome) -> set[int]:
        """开门: the seats that took a discard by 吃, 碰 or 明杠."""
        return {c.seat for c in outcome.calls}

    @staticmethod
    def rest_of(win: WinInfo) -> list[int]:
        """The winner's concealed hand without the winning tile (13-tile basis)."""
        hand = list(win.hand)
        if win.tile is not None:
            hand[win.tile] -= 1
        return hand


__all__ = ["BaoFamily", "CALLS", "CHI", "CHOW", "FLOOR", "PUNG"]
