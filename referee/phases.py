"""Phases of play: whose move it is and what kind of move, as small values the replay loop
dispatches on.

A phase either waits for one seat's event (`on_event`), or is a window that collects
declarations from several seats (`declare`) and is resolved by the event that follows them
(`close`). The generic phases here delegate to the replay's own handlers; a part of a ruleset
(打筛, 海底漫游, ...) adds phases of its own by subclassing Phase, and the loop needs no change.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from referee import actions as A
from referee import tiles as T
from referee.proto import record_pb2 as pb


class Phase:
    window = False  # True for a window: several seats may declare before it is resolved
    special_tile = False  # a window on a tile won by 杠上炮, 抢杠 or 海底炮 (a 漏胡 rule may spare its pass)
    name = "phase"  # the decision window's name in traces

    def on_event(self, replay, kind: str, event) -> None:
        raise NotImplementedError

    def declare(self, replay, kind: str, event) -> bool:
        """Take one declaration in the window; False when the event closes the window instead."""
        return False

    def pending(self) -> list[tuple[int, A.Action]]:
        """The declarations an open window holds until it closes (seat, action), for the dispute view."""
        return []

    def revealed(self) -> tuple[int, ...]:
        """Tiles shown on the table that no seat holds yet (打筛 tiles), for the dispute view."""
        return ()

    def close(self, replay, closer) -> None:
        """Resolve the window as if `closer` (an event, or None at the end) came next."""

    def legal(self, replay, seat: int) -> list[A.Action]:
        """What this seat may do now (empty if it has no decision here)."""
        return []

    def describe(self) -> str:
        return "the hand is in play"

    def order(self, replay) -> list[int]:
        """A window's seats in the order they decide (for the simulator)."""
        return []

    def seat_to_act(self) -> int | None:
        """The one seat a non-window phase waits for."""
        return None

    def event_for(self, replay, seat: int, action: A.Action) -> pb.Event:
        """The event a platform logs for this action here (the simulator and the injector write it)."""
        return A.to_event(seat, action, getattr(self, "tile", None))


@dataclass(frozen=True)
class Turn(Phase):
    seat: int
    drew: bool  # holds a freshly drawn tile (self-draw win and own kongs possible)
    replacement: bool = False  # that tile was a kong replacement
    ready_call: bool = False  # after a call that declared 听 (吃听): this turn's discard completes the declaration
    name = "turn"

    @staticmethod
    @cache
    def of(seat: int, drew: bool, replacement: bool = False, ready_call: bool = False) -> Turn:
        """The phase, shared: a value with 32 possibilities is not built anew at every draw."""
        return Turn(seat, drew, replacement, ready_call)

    def on_event(self, replay, kind, event):
        replay.on_turn(kind, event, self)

    def legal(self, replay, seat):
        return replay.legality.turn_actions(seat, self) if seat == self.seat else []

    def seat_to_act(self):
        return self.seat

    def describe(self):
        return f"seat {self.seat} is to act"


@dataclass(frozen=True)
class DrawDue(Phase):
    seat: int
    replacement: bool
    name = "draw"

    @staticmethod
    @cache
    def of(seat: int, replacement: bool) -> DrawDue:
        """The phase, shared (see Turn.of)."""
        return DrawDue(seat, replacement)

    def on_event(self, replay, kind, event):
        replay.on_draw_due(kind, event, self)

    def legal(self, replay, seat):
        return replay.legality.draw_actions(seat, self) if seat == self.seat else []

    def seat_to_act(self):
        return self.seat

    def event_for(self, replay, seat, action):
        if action.kind != A.DRAW:  # a 借子开杠 in place of the draw
            return super().event_for(replay, seat, action)
        wall, skip = replay.table.wall, replay.rules.wall_end.replacement_skip
        tile = wall.tiles[wall.back - 1 - skip] if self.replacement else wall.tiles[wall.front]
        return pb.Event(seat=seat, draw=pb.Draw(tile=T.to_proto(tile), replacement=self.replacement))

    def describe(self):
        return f"seat {self.seat} is to draw"


@dataclass
class Claim(Phase):
    """The window after a discard: each other seat may declare one claim or pass."""
    discarder: int
    tile: int
    index: int
    declared: dict  # seat -> (Action, event index)
    last_tile: bool = False  # the discard is the 海底 tile (海底炮 may be won by several)
    window = True
    name = "claim"

    def declare(self, replay, kind, event):
        return replay.declare_claim(kind, event, self)

    def pending(self):
        return [(seat, action) for seat, (action, _) in sorted(self.declared.items()) if action.kind != A.PASS]

    def close(self, replay, closer):
        replay.close_claim(self, closer)

    def legal(self, replay, seat):
        return replay.legality.claim_actions(seat, self) if seat != self.discarder else []

    def order(self, replay):
        return replay.others(self.discarder)

    @property
    def special_tile(self) -> bool:
        return self.last_tile  # 海底炮


@dataclass
class Rob(Phase):
    """The window after a 补杠: other seats may rob it."""
    konger: int
    tile: int
    index: int
    declared: dict
    window = True
    special_tile = True  # 抢杠
    name = "rob"

    def declare(self, replay, kind, event):
        return replay.declare_rob(kind, event, self)

    pending = Claim.pending

    def close(self, replay, closer):
        replay.close_rob(self, closer)

    def legal(self, replay, seat):
        return replay.legality.rob_actions(seat, self) if seat != self.konger else []

    def order(self, replay):
        return replay.others(self.konger)


@dataclass(frozen=True)
class DealWindow(Phase):
    """The deal window as the trace sees it: what a seat other than the dealer may declare before
    the dealer's first discard (宁乡's 报听 and 起手 hands). The phase meanwhile is the dealer's turn."""
    index: int  # the event that closed it
    name = "deal"

    def legal(self, replay, seat):
        return replay.legality.deal_actions(seat)


@dataclass
class Ended(Phase):
    name = "ended"

    def on_event(self, replay, kind, event):
        replay.on_after_end(kind, event)

    def describe(self):
        return "the hand is over"

