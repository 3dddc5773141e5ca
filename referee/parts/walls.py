"""The end of the wall: which tiles a normal draw may take, and what happens at the last one."""
from __future__ import annotations

from dataclasses import dataclass

from referee import actions as A
from referee.phases import DrawDue, Phase
from referee.state import Wall


class PlayToTheEnd:
    """No reserve: every tile may be drawn; the hand is drawn (流局) when the wall is empty."""
    self_draw_only_last = 0  # the last N live draws may win by self-draw only (their discards are no 点炮)
    replacement_skip = 0  # tiles at the tail a kong replacement passes over

    def live(self, wall: Wall) -> int:
        """Tiles a normal draw may still take; at 0 with a draw due the hand is drawn."""
        return wall.remaining

    def draw_phase(self, replay, seat: int) -> Phase:
        """The phase when a normal draw is due."""
        return DrawDue.of(seat, False)

    def ron_forbidden(self, drawn_live: int | None) -> bool:
        """Is a discard made after a draw that left `drawn_live` live tiles no 点炮?"""
        return 0 < self.self_draw_only_last and drawn_live is not None and drawn_live <= self.self_draw_only_last


class Reserve(PlayToTheEnd):
    """The last `tiles` of the wall are never drawn (河北 6 墩, 大连 7 墩, 哈尔滨 4 墩 + 宝).

    With `odd_tail`, a single tile left at the tail by kong replacements does not count as a
    stack of the reserve and is not drawable either (SPEC HB-A5: live = R − 12 − (K mod 2)).
    With `replacements_skip_reserve`, kong replacements come from just before the reserve
    instead of from the tail itself (SPEC HRB-A10).
    """

    def __init__(self, tiles: int, odd_tail: bool = False, self_draw_only_last: int = 0,
                 replacements_skip_reserve: bool = False):
        self.tiles, self.odd_tail = tiles, odd_tail
        self.self_draw_only_last = self_draw_only_last
        self.replacement_skip = tiles if replacements_skip_reserve else 0

    def live(self, wall: Wall) -> int:
        odd = wall.replacements % 2 if self.odd_tail else 0
        return wall.back - wall.front - self.tiles - odd


class HaidiRoaming(PlayToTheEnd):
    """海底漫游: the last tile is offered to each seat in turn from the one due to draw; the first
    to accept takes it (and must win with it or discard it); if all four decline, 流局."""

    def draw_phase(self, replay, seat: int) -> Phase:
        if replay.live() == 1:
            return HaidiOffer(seat, seat)
        return DrawDue.of(seat, False)


@dataclass
class HaidiOffer(Phase):
    seat: int
    first: int  # the seat the tile was offered to first
    name = "haidi"

    def on_event(self, replay, kind, event):
        if event.seat != self.seat or kind not in ("haidi", "draw"):
            replay.flag("OUT_OF_TURN", event.seat, f"seat {event.seat} logged {kind} but the 海底 tile is offered "
                        f"to seat {self.seat}", fatal=True)
        taken = kind == "draw" or event.haidi.accepted
        replay.note_decision(self.seat, self.name, self, A.Action(A.TAKE_HAIDI) if taken else A.Action(A.PASS))
        if taken:
            replay.table.haidi_taker = self.seat
            replay.phase = DrawDue.of(self.seat, False)
            if kind == "draw":  # a platform that logs only the draw: taking it is accepting it
                replay.draw(self.seat, event, False)
            return
        following = replay.table.next_seat(self.seat)
        if following == self.first:
            replay.end_drawn()  # all four declined: 流局
        else:
            replay.phase = HaidiOffer(following, self.first)

    def legal(self, replay, seat):
        return [A.Action(A.TAKE_HAIDI), A.Action(A.PASS)] if seat == self.seat else []

    def seat_to_act(self):
        return self.seat

    def event_for(self, replay, seat: int, action: A.Action):
        from referee.proto import record_pb2 as pb

        return pb.Event(seat=seat, haidi=pb.HaidiOffer(accepted=action.kind == A.TAKE_HAIDI))

    def describe(self):
        return f"seat {self.seat} is to draw"
