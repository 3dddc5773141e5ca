"""How a completed kong is resolved: a replacement tile from the tail, or 打筛."""
from __future__ import annotations

from dataclasses import dataclass, field

from referee import actions as A
from referee import tiles as T
from referee.phases import DrawDue, Ended, Phase, Turn
from referee.verdict import DECLARED, TOOK_EFFECT

UNKNOWN = -1  # a wall position the platform did not log


class TailReplacement:
    """补牌: the konger draws one tile from the back of the wall; the kong needs a live tile."""
    draws_replacement = True

    def closer(self, seat: int):
        """The kind of event that carries a kong on (its tile is not read)."""
        from referee.proto import record_pb2 as pb

        return pb.Event(seat=seat, draw=pb.Draw(replacement=True))

    @staticmethod
    def continues(event) -> bool:
        """Does this event carry a kong on (the konger's next event, already checked)?"""
        return event.WhichOneof("kind") == "draw" and event.draw.replacement

    def why_not_kong(self, replay) -> tuple[str, str] | None:
        if replay.live() < 1:
            return "DRAW_FROM_RESERVE", "a kong with no live tile left for its replacement"
        return None

    def after_kong(self, replay, seat: int) -> Phase:
        return DrawDue.of(seat, True)


class Dashai:
    """打筛 (SPEC NX.2): instead of a replacement, two tiles are revealed from the front of the
    wall. The konger may win on either (杠上开花, once per winning tile); else the nearest seat
    that can win on one wins (杠上炮); else both go to the konger's river, nobody may call them,
    and the konger's 下家 draws. After its 打筛 the konger may only draw and discard."""
    LOCK = "打筛"
    draws_replacement = False

    def closer(self, seat: int):
        from referee.proto import record_pb2 as pb

        return pb.Event(seat=seat, dashai=pb.DashaiReveal())

    @staticmethod
    def continues(event) -> bool:
        return event.WhichOneof("kind") == "dashai"

    def __init__(self, needs_two_tiles: bool, code: str, lock_blocks_win: bool = False):
        self.needs_two_tiles = needs_two_tiles  # NX-A19
        self.code = code  # the ruleset's code for a kong its 打筛 cannot follow
        self.lock_blocks_win = lock_blocks_win  # the lock after the 打筛 forbids winning too

    def why_not_kong(self, replay) -> tuple[str, str] | None:
        if self.needs_two_tiles and replay.table.wall.remaining < 2:
            return self.code, "a kong needs two tiles left in the wall for 打筛"
        return None

    def after_kong(self, replay, seat: int) -> Phase:
        return DashaiDue(seat)


@dataclass
class DashaiDue(Phase):
    """The konger is to reveal its two 打筛 tiles."""
    konger: int
    name = "dashai_due"

    def on_event(self, replay, kind, event):
        if kind != "dashai" or event.seat != self.konger:
            replay.flag("OUT_OF_TURN", event.seat, f"seat {event.seat} logged {kind} but seat {self.konger} is to "
                        f"reveal its 打筛 tiles", fatal=True)
        logged = [replay.event_tile(code, event.seat) for code in event.dashai.tiles]
        wall = replay.table.wall
        count = min(2, wall.remaining)
        if len(logged) != count:
            replay.flag("DRAW_MISMATCH", self.konger, f"打筛 reveals {len(logged)} tiles; {count} were due",
                        fatal=True)
        tiles = []
        for t in logged:
            expected = wall.take_front()
            if expected == UNKNOWN:
                replay.count_unlogged(self.konger, t)
            elif expected != t:
                replay.flag("DRAW_MISMATCH", self.konger, f"打筛 reveals {T.label(t)} where the wall holds "
                            f"{T.label(expected)}")
            tiles.append(t)
        # Draw and discard only; winning stays unless the rule book's lock forbids it too.
        replay.table.seats[self.konger].locks[Dashai.LOCK] = replay.rules.kong_draw.lock_blocks_win
        replay.phase = DashaiWindow(self.konger, tuple(tiles), replay.index)

    def legal(self, replay, seat):
        return [A.Action(A.REVEAL)] if seat == self.konger else []

    def seat_to_act(self):
        return self.konger

    def event_for(self, replay, seat: int, action: A.Action):
        from referee.proto import record_pb2 as pb

        wall = replay.table.wall
        shown = wall.tiles[wall.front:wall.front + min(2, wall.remaining)]
        return pb.Event(seat=seat, dashai=pb.DashaiReveal(tiles=[T.to_proto(t) for t in shown]))

    def describe(self):
        return f"seat {self.konger} is to reveal its 打筛 tiles"


@dataclass
class DashaiWindow(Phase):
    """The window on the two revealed tiles."""
    konger: int
    tiles: tuple[int, ...]
    index: int
    declared: dict = field(default_factory=dict)  # seat -> list of (Action, event index)
    passed: dict = field(default_factory=dict)  # seat -> the event index of its logged pass
    window = True
    special_tile = True  # 杠上炮
    name = "dashai"

    def self_wins(self, replay, tile: int) -> bool:
        s = replay.table.seats[self.konger]
        hand = list(s.hand)
        hand[tile] += 1
        return replay.legality.is_win(hand, s.melds)  # (a wildcard within room, as on any draw)

    def own_win_issue(self, replay, tile: int):
        """Why the konger may not take 杠上开花 on a revealed tile its hand wins on: the conditions
        of any self-drawn win (a lock such as 封东, a 漏胡 mark), or None."""
        return replay.legality.self_win_issue(self.konger, A.Action(A.SELF_WIN, tile))

    def own_wins(self, replay, tile: int) -> bool:
        return self.self_wins(replay, tile) and self.own_win_issue(replay, tile) is None

    def konger_may_win(self, replay) -> bool:
        """"如打筛玩家能胡牌，则其他玩家不能胡打筛的牌": while the konger may win on a revealed tile,
        nobody else may win on either, whether the konger takes it or not."""
        return any(self.own_wins(replay, tile) for tile in set(self.tiles))

    def konger_first_issue(self, replay, seat: int, tile: int):
        if self.konger_may_win(replay):
            return "DASHAI_RON_NOT_NEAREST", (f"seat {seat} declared 胡 on seat {self.konger}'s 打筛 tile "
                                              f"{T.label(tile)}, but seat {self.konger} may win on its own 打筛 "
                                              f"tiles, and then nobody else may (优先打筛玩家胡牌)")
        return None

    def declare(self, replay, kind, event):
        if kind not in ("win", "pass"):
            if event.seat != self.konger and self.claims_a_tile(replay, kind, event):
                replay.flag("ILLEGAL_CALL", event.seat, f"seat {event.seat} logged {kind} on seat {self.konger}'s 打筛 "
                            f"tiles; nobody may 吃, 碰 or 杠 them (NX-A9)", fatal=True)
            return False
        seat = event.seat
        if kind == "pass":
            self.passed[seat] = replay.index
            return True
        tile = replay.event_tile(event.win.tile, seat) if event.win.tile else self.unsaid_tile(replay, seat)
        action = A.Action(A.SELF_WIN if seat == self.konger else A.RON, tile)
        replay.check_win_kind(event, *((A.SELF_WIN, "on its own 打筛 tile (杠上开花)") if seat == self.konger else
                                       (A.RON, f"on seat {self.konger}'s 打筛 tile (杠上炮)")))
        if tile not in self.tiles:
            replay.refuse_win(seat, self, action, ("FALSE_WIN", f"seat {seat} declared 胡 on {T.label(tile)}, which "
                                                                f"is not a revealed 打筛 tile"))
        if seat == self.konger:
            replay.refuse_win(seat, self, action, self.own_win_issue(replay, tile) if self.self_wins(replay, tile) else
                              ("FALSE_WIN", f"seat {seat} declared 杠上开花 on {T.label(tile)}, which does not "
                                            f"complete its hand"))
        else:
            replay.refuse_win(seat, self, action, self.konger_first_issue(replay, seat, tile)
                              or replay.legality.why_not_ron(seat, tile, action))
        self.declared.setdefault(seat, []).append((action, replay.index))
        return True

    def unsaid_tile(self, replay, seat: int) -> int:
        """The revealed tile a win that names none takes: the first the seat has not won on yet that
        wins for it (both may: "两张都能胡则算胡2次"), else the first not won on yet."""
        left = [t for t in self.tiles if t not in {a.tile for a, _ in self.declared.get(seat, [])}] or list(self.tiles)
        wins = (lambda t: self.own_wins(replay, t)) if seat == self.konger else \
            (lambda t: replay.legality.can_ron(seat, t))
        return next((t for t in left if wins(t)), left[0])

    def claims_a_tile(self, replay, kind, event) -> bool:
        """Is the event a 吃, or a 碰/杠 of a revealed tile: a call on the 打筛 tiles?"""
        return kind == "chi" or any(T.FROM_CODE.get(code) in self.tiles
                                    for code in replay.claimed_tile_codes(kind, event))

    def close(self, replay, closer):
        konger, declared, table = self.konger, self.declared, replay.table
        own = [(a, i) for a, i in declared.get(konger, []) if a.kind == A.SELF_WIN]
        claimants = sorted((s for s, items in declared.items() if s != konger and items),
                           key=lambda s: table.distance(konger, s))
        if replay.trace:  # 杠上开花 takes effect, else the nearest 杠上炮
            self.note_decisions(replay, {konger} if own else set(claimants[:1]))
        if table.deal_window and (own or claimants):  # the dealer's kong before its first discard: a win
            replay.play_begins(konger, (own or declared[claimants[0]])[0][1])  # on its 打筛 tiles ends it too
        for tile in sorted(set(self.tiles) - {a.tile for a, _ in own}):
            if self.own_wins(replay, tile):
                replay.flag("MISSED_WIN", konger, f"seat {konger} could win on its 打筛 tile {T.label(tile)} and "
                            f"did not", index=self.passed.get(konger, self.index))
        if own:  # 杠上开花: once per winning tile ("两张都能胡则算胡2次")
            for action, index in own:
                replay.add_win(konger, A.SELF_WIN, action.tile, None, index, after_replacement=True)
            replay.phase = Ended()
            return
        if not claimants:
            if not self.konger_may_win(replay):  # passing a 杠上炮 is a missed win too (and starts a 漏胡 lock)
                for seat in replay.others(konger):
                    for tile in sorted(set(self.tiles)):
                        replay.check_missed_win(seat, A.Action(A.RON, tile), self, at=self.passed.get(seat))
            table.seats[konger].river.extend(self.tiles)  # NX-A9: nobody may call them
            if sum(table.seats[konger].hand) % 3 == 2:
                replay.phase = DiscardAfterBorrow(konger, False)
            else:
                replay.due_draw(table.next_seat(konger))
            return
        winner = claimants[0]
        for seat in replay.others(konger)[:replay.others(konger).index(winner)]:
            for tile in sorted(set(self.tiles)):  # a nearer seat that let its 杠上炮 go, as on a discard
                replay.check_missed_win(seat, A.Action(A.RON, tile), self, at=self.passed.get(seat))
        for seat in claimants[1:]:
            replay.flag("DASHAI_RON_NOT_NEAREST", seat, f"seat {seat} won on seat {konger}'s 打筛 tile, but seat "
                        f"{winner} is nearer and wins it alone (杠上炮)", index=declared[seat][0][1])
        # NX-A10: settled once, on the best tile it could take, declared or not (the declared first)
        named = [a.tile for a, _ in declared[winner]]
        could = [t for t in sorted(set(self.tiles)) if t not in named and replay.legality.can_ron(winner, t)]
        tile = replay.rules.best_tile(replay.view, winner, named + could, konger)
        replay.add_win(winner, A.RON, tile, konger, declared[winner][0][1], on_kong_reveal=True,
                       face_tile=replay.rules.discard_at_face(replay.view, tile))
        replay.phase = Ended()

    def pending(self):
        return [(seat, action) for seat, items in sorted(self.declared.items()) for action, _ in items]

    def revealed(self):
        return self.tiles

    def note_decisions(self, replay, winners: set[int]) -> None:
        """Each seat's choice on the revealed tiles, for the trace: every win it declared, else its
        pass (logged, or implied by the event that closed the window)."""
        for seat in self.order(replay):
            for action, at in self.declared.get(seat) or [(A.Action(A.PASS), self.passed.get(seat))]:
                replay.note_window_decision(seat, self, action, at, TOOK_EFFECT if seat in winners else DECLARED)

    def legal(self, replay, seat):
        legal = [A.Action(A.PASS)]
        others_may = seat != self.konger and not self.konger_may_win(replay)
        for tile in sorted(set(self.tiles)):
            if seat == self.konger and self.own_wins(replay, tile):
                legal.append(A.Action(A.SELF_WIN, tile))
            elif others_may and replay.legality.can_ron(seat, tile):
                legal.append(A.Action(A.RON, tile))
        return legal

    def order(self, replay):
        return [self.konger] + replay.others(self.konger)


@dataclass(frozen=True)
class DiscardAfterBorrow(Turn):
    """After a fruitless 打筛 of a 借子开杠 made with a tile to spare (after a draw or a 碰: the
    borrowed indicator took none from the hand), the konger holds 3k+2 tiles and discards one, as
    after any draw; NX-A9's "14 − 4 = 10" holds only for a kong that took its fourth tile from the
    hand. A record in which the 下家 draws at once (NX-A9 read literally) is accepted too: the
    konger keeps the spare tile, and with it a hand that can no longer win."""

    def on_event(self, replay, kind, event):
        after = replay.table.next_seat(self.seat)
        if kind in ("draw", "kong") and event.seat == after:  # its draw, or a 借子开杠 in its place
            replay.due_draw(after)
            return replay.phase.on_event(replay, kind, event)
        replay.on_turn(kind, event, self)

    def legal(self, replay, seat):
        if seat == replay.table.next_seat(self.seat):
            return DrawDue.of(seat, False).legal(replay, seat)
        return super().legal(replay, seat)
