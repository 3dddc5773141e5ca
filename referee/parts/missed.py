"""漏胡: what a seat loses by letting a win go.

Every rule book reports a passed win (an info note, or a violation under 托管); this part says
what it costs afterwards. The marks live on the seat (Seat.ron_locked, Seat.self_locked).
"""
from __future__ import annotations

from referee import actions as A
from referee import tiles as T

Issue = tuple[str, str] | None
RON_LOCKED = "RON_AFTER_MISSED_WIN"
PASSED_FOR_GOOD = "WIN_AFTER_PASSED_WIN"


class NoMissedWinRule:
    """No consequence (河北 HB-A14, 推倒胡 TDH-A5, 哈尔滨 HRB-A4)."""
    name = "none"
    code = ""  # the code a win against this rule is reported with
    special_tiles = True  # a win passed on a 杠上炮, 抢杠 or 海底炮 tile counts too (NX.4 [REC])

    def passed(self, seat, win: A.Action) -> None:
        """The seat let this win go."""

    def moved(self, seat) -> None:
        """The seat drew, called or made a kong (动牌)."""

    def issue(self, seat, action: A.Action, tile: int) -> Issue:
        """Why the seat may not make this win now, or None."""
        return None


class AnyUntilDraw(NoMissedWinRule):
    """After passing a win on a discard, no win on any discard until the seat draws or calls
    (宁乡 NX.4); self-draw is unaffected."""
    name = "any_until_draw"
    code = RON_LOCKED

    def __init__(self, special_tiles: bool = True):
        self.special_tiles = special_tiles

    def passed(self, seat, win):
        if win.kind != A.SELF_WIN:
            seat.ron_locked = "all"

    def moved(self, seat):
        seat.ron_locked = None

    def issue(self, seat, action, tile):
        if action.kind != A.SELF_WIN and seat.ron_locked is not None and (
                seat.ron_locked == "all" or tile in seat.ron_locked):
            return RON_LOCKED, (f"seat {seat.index} passed a win and may not win on a discard until it draws or "
                                f"changes its hand")
        return None


class SameKindUntilMove(AnyUntilDraw):
    """After passing a win on a discard, no win on that tile kind until the seat next 动牌:
    碰, 吃, 杠 or draws (鸡平胡 J.4)."""
    name = "same_kind_until_draw"

    def passed(self, seat, win):
        if win.kind != A.SELF_WIN:  # passing a robbable 补杠 counts as passing its tile (J.4 [REC])
            seat.ron_locked = (seat.ron_locked if isinstance(seat.ron_locked, set) else set()) | {win.tile}

    def issue(self, seat, action, tile):
        if action.kind != A.SELF_WIN and isinstance(seat.ron_locked, set) and tile in seat.ron_locked:
            return RON_LOCKED, (f"seat {seat.index} passed a win on {T.label(tile)} and may not win on it until it "
                                f"next draws, calls or makes a kong (动牌)")
        return None


class Permanent(NoMissedWinRule):
    """Passing a win on a discard forfeits every later win on a discard, and passing a
    self-draw every later self-draw, for the rest of the hand (大连 DL.4, supplement S5). A robbed
    补杠 is another seat's tile, as a discard is (its konger pays as the discarder, DL-A8)."""
    name = "permanent"
    code = PASSED_FOR_GOOD

    def passed(self, seat, win):
        if win.kind == A.SELF_WIN:
            seat.self_locked = True
        else:
            seat.ron_locked = "all"

    def issue(self, seat, action, tile):
        if action.kind == A.SELF_WIN and seat.self_locked:
            return PASSED_FOR_GOOD, f"seat {seat.index} passed a self-drawn win earlier and may not win by self-draw"
        if action.kind != A.SELF_WIN and seat.ron_locked is not None:
            return PASSED_FOR_GOOD, (f"seat {seat.index} passed a win on another seat's tile earlier (a discard or "
                                     f"a robbed kong) and may not win on one again this hand")
        return None


RULES = {r.name: r for r in (NoMissedWinRule(), AnyUntilDraw(), SameKindUntilMove(), Permanent())}
