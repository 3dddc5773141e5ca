"""宝 (SPEC HRB.1, DL.3.4): an indicator whose kind is a wildcard only for a 听 seat's own draw.

Unlike the table-wide wildcards of parts/wilds.py, the 宝 never enters `Table.wilds`: a 宝-kind
tile discarded by another seat, or drawn before 听, is a plain tile ("別人打出的寶牌,不算寶牌。
聽牌前摸到的寶牌不能算寶牌"). A 听 seat that draws one may use it as any tile (摸宝); the
ruleset's `drawn_wild_wins` hook asks `wild_for`. What differs between the rule books is a
parameter of the part:

    source           LAST: the last wall tile after the deal, flipped at once and kept at the
                     tail (哈尔滨 HRB.1); DICE: counted by dice from the back of the wall when a
                     听 seat next draws and no 宝 exists yet, staying in the wall (大连 DL.3.4)
    old_leaves_play  after 换宝 the old indicator is dead, out of play (HRB-A9); otherwise it
                     stays where it lies (DL "原来的宝牌放回原位"; HRB with the option off: at the tail)
    chongbao         a 听 seat that first sees a 宝 (or a new one after 换宝) may win on its kind
                     at once (大连 冲宝); it sees it on its next draw
    change_at        tiles of the 宝 kind lying in the discards that force 换宝 (three)
    back_stacks      how far from the back a dice-chosen 宝 may lie (two dice: 12 stacks); with
                     fewer stacks left any undrawn tile will do (DL-A15: count modulo the stacks)
    leaves_play      a dice-chosen 宝 is set aside out of play when flipped, never drawn (大连 with
                     DL-A5 off); by default it stays in the wall and may be drawn
    declined_is_pass a 听 seat that lets a 冲宝 or a 摸宝 go has passed a self-draw (大连 DL.4);
                     otherwise only the 漏胡 note is written

Records carry IndicatorFlip(kind BAO or BAO_CHANGE, tile, wall_index). The part's phases:
BaoFlip (a flip is due before the next normal draw; a record that draws instead is BAO_MISSING,
reported once per 宝) and BaoLook (冲宝: the window in which a 听 seat seeing the 宝 for the
first time may win on it, before its draw). A flip where none is due is BAO_UNDUE, and the
table follows the log. The per-hand state is a BaoState on the table (`Table.parts["bao"]`).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from referee import actions as A
from referee import tiles as T
from referee.parts.wilds import NoWilds, check_logged_wilds
from referee.phases import DrawDue, Ended, Phase

UNKNOWN = -1  # a wall position the platform did not log
LAST, DICE = "last", "dice"
BAO, BAO_CHANGE = 3, 4  # IndicatorKind values (record.proto)


@dataclass
class BaoState:
    """The 宝 during one hand."""
    round: int = 0  # 宝 set so far this hand: 1 after the first flip, one more per 换宝
    seen: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # the round each seat has looked at
    waived: int = -1  # the round whose due flip the record skipped (reported once, then judged as logged)
    changes: int = 0  # 换宝 so far
    dead: list[int] = field(default_factory=list)  # indicators taken out of play (old ones, a dice 宝 set aside)
    declined: dict = field(default_factory=dict)  # seat -> the 冲宝 it let go, a pass from its next draw on


class Bao(NoWilds):
    events = ("indicator",)
    name = "bao"

    def __init__(self, source: str, old_leaves_play: bool, chongbao: bool = False, change_at: int = 3,
                 back_stacks: int = 12, leaves_play: bool = False, declined_is_pass: bool = True):
        if source not in (LAST, DICE):
            raise ValueError(f"a 宝 comes from the last tile or by dice, not {source!r}")
        self.source, self.old_leaves_play, self.chongbao = source, old_leaves_play, chongbao
        self.change_at, self.back_stacks = change_at, back_stacks
        self.leaves_play, self.declined_is_pass = leaves_play, declined_is_pass

    # -- state ------------------------------------------------------------------------------
    def at_deal(self, table) -> None:
        table.parts[self.name] = BaoState()

    def state(self, table) -> BaoState:
        state = table.parts.get(self.name)
        if state is None:
            state = table.parts[self.name] = BaoState()
        return state

    def has_seen(self, state: BaoState | None, seat: int, ready: bool) -> bool:
        """Has this 听 seat looked at the current 宝? (哈尔滨: a 听 seat may look whenever it likes.)"""
        if not ready or state is None or not state.round:
            return False
        return self.source == LAST or state.seen[seat] == state.round

    def wild_for(self, view, seat: int, tile: int) -> bool:
        """Is `tile`, just drawn by `seat`, a wildcard for it (摸宝)? Only a 听 seat's own draw of the
        宝 kind, once it has seen the 宝."""
        s = view.seats[seat]
        return tile == view.indicator and self.has_seen(view.part(self.name), seat, bool(s.ready))

    def seat_wilds(self, view, seat: int) -> tuple[int, ...]:
        s = view.seats[seat]
        if view.indicator is not None and self.has_seen(view.part(self.name), seat, bool(s.ready)):
            return (view.indicator,)
        return ()

    def declined_draw_is_pass(self, view, seat: int, tile: int) -> bool:
        """Does letting the win on this drawn tile go count as a passed self-draw? A 摸宝 only
        with `declined_is_pass` (a drawn 宝 kind is a 摸宝 even where it is also a wait)."""
        return self.declined_is_pass or not self.wild_for(view, seat, tile)

    @staticmethod
    def in_discards(table, kind: int) -> int:
        """Tiles of this kind lying in the discards (a claimed tile has left them)."""
        return sum(s.river.count(kind) for s in table.seats)

    # -- the deal ---------------------------------------------------------------------------
    def event_due(self, replay):
        """哈尔滨: the platform flips the last wall tile after the deal (the simulator logs it)."""
        if self.source != LAST or replay.table.indicator is not None:
            return None
        return self.flip_event(replay, replay.table.dealer, BAO, change=False)

    # -- before a normal draw ---------------------------------------------------------------
    def before_draw(self, replay, seat: int, phase):
        """换宝 when three of the 宝 kind lie in the discards; the first 宝 at a 听 seat's draw (大连);
        then a 听 seat that has not seen the current 宝 looks at it (冲宝)."""
        if not isinstance(phase, DrawDue) or phase.replacement or replay.live() <= 0:
            return phase
        table = replay.table
        state = self.state(table)
        if seat in state.declined:  # DL.3.4 item 7: its drawn tile could still win; this one cannot
            replay.rules.missed_win.passed(table.seats[seat], state.declined.pop(seat))
        ready = bool(table.seats[seat].ready)
        if table.indicator is None:
            if state.waived != 0 and (self.source == LAST or ready):
                return BaoFlip(self, seat, BAO, phase)
            return phase
        if state.waived != state.round and self.in_discards(table, table.indicator) >= self.change_at:
            return BaoFlip(self, seat, BAO_CHANGE, phase)
        if self.source == DICE and ready and state.seen[seat] != state.round:
            if self.chongbao:
                return BaoLook(self, seat, phase, replay.index)
            state.seen[seat] = state.round
        return phase

    # -- flips ------------------------------------------------------------------------------
    def target(self, wall, state: BaoState, change: bool) -> int:
        """Where a LAST-source 宝 lies now (its index in the undrawn wall): the last tile; after 换宝
        the tile before the old one (which leaves, or stays at the tail)."""
        if self.old_leaves_play:
            return wall.back - 1 - (1 if change else 0)
        return wall.back - 1 - state.changes - (1 if change else 0)

    def allowed(self, wall) -> range:
        """Where a DICE-source 宝 may lie in the undrawn wall: two dice count 2 to `back_stacks`
        stacks from its back, so never the last stack. A single tile a kong replacement left at
        the tail may be read as a stack or not, so both readings pass. With fewer stacks left than
        that, the count goes round them (DL-A15): anywhere."""
        loose = wall.replacements % 2
        if wall.remaining - loose < 2 * self.back_stacks:
            return range(wall.front, wall.back)
        return range(wall.back - loose - 2 * self.back_stacks, wall.back - 2 + loose)

    def flip_event(self, replay, seat: int, kind: int, change: bool):
        """The flip a platform logs now, read off the wall (the simulator's dice for DICE)."""
        from referee.proto import record_pb2 as pb

        wall, state = replay.table.wall, self.state(replay.table)
        if self.source == LAST:
            index = self.target(wall, state, change)
        else:
            stacks = 2 + (wall.front + state.round) % 11  # two dice: 2..12 stacks from the back
            index = max(wall.back - 2 * min(stacks, self.back_stacks), wall.front) if wall.remaining else wall.back - 1
        return pb.Event(seat=seat, indicator=pb.IndicatorFlip(kind=kind, tile=T.to_proto(wall.tiles[index]),
                                                               wall_index=wall.positions[index]))

    def on_event(self, replay, event) -> bool:
        """A 宝 flip or 换宝 in the log: checked against the wall and applied (the table follows the log)."""
        if replay.phase is not None and replay.phase.window:
            replay.close_window(event)  # e.g. the discard window the 换宝 comes after
        table, seat = replay.table, event.seat
        flip = event.indicator
        if flip.kind not in (0, BAO, BAO_CHANGE):  # (0: unsaid, the kind that is due)
            replay.flag("ILLEGAL_ACTION", seat, "only 宝 flips (BAO, BAO_CHANGE) are part of play here")
        tile = replay.event_tile(flip.tile, seat)
        phase = replay.phase
        due = isinstance(phase, BaoFlip)
        change = table.indicator is not None
        if not due and (change or self.source != LAST):
            what = "换宝" if change else "a 宝 flip"
            why = (f"only {self.in_discards(table, table.indicator)} of the 宝 {T.label(table.indicator)} lie in the "
                   f"discards; {self.change_at} force 换宝" if change else "no 听 seat is about to draw")
            replay.flag("BAO_UNDUE", seat, f"{what} to {T.label(tile)} where none is due: {why}")
        elif flip.kind == BAO_CHANGE and not change:
            replay.flag("BAO_UNDUE", seat, f"换宝 to {T.label(tile)} where no 宝 is set yet: the first 宝 flip is due")
        elif flip.kind == BAO and change:
            replay.flag("BAO_UNDUE", seat, f"a first 宝 flip to {T.label(tile)} where the 宝 {T.label(table.indicator)} "
                        f"is set: what is due is 换宝 (logged as BAO_CHANGE)")
        self.flip(replay, seat, tile, flip.wall_index, change)
        check_logged_wilds(replay, seat, flip, frozenset((tile,)))  # the 宝 kind (wild for 听 seats only)
        if due:
            replay.phase = self.before_draw(replay, phase.seat, phase.then)
        return True

    def flip(self, replay, seat: int, tile: int, logged: int, change: bool) -> None:
        table = replay.table
        wall, state = table.wall, self.state(table)
        unknown = bool(wall.tiles) and wall.tiles[0] == UNKNOWN
        if self.source == LAST:
            expected = self.target(wall, state, change)
            # Kept at the tail behind the reserve that replacements skip, a 宝 is never drawn: it is
            # counted as it is shown (else when it is drawn, or leaves play).
            counted = unknown and replay.rules.wall_end.replacement_skip > 0
            if change and self.old_leaves_play and wall.remaining:
                self.leave_play(replay, seat, wall.back - 1, table.indicator, unknown and not counted)  # the old 宝
            if counted:
                replay.count_unlogged(seat, tile)
            elif unknown:
                self.check_shown(replay, seat, tile)
            else:
                self.check(replay, seat, tile, logged, [expected], "the last wall tile")
        else:
            if not unknown:
                self.check(replay, seat, tile, logged, list(self.allowed(wall)),
                           f"2 to {self.back_stacks} stacks from the back of the wall (two dice)")
            elif not self.leaves_play:
                self.check_shown(replay, seat, tile)
            if self.leaves_play:
                self.set_aside(replay, seat, tile, logged, unknown)
        table.indicator = tile
        state.round += 1
        state.changes += change

    @staticmethod
    def check_shown(replay, seat: int, tile: int) -> None:
        """A 宝 that stays in a wall the record does not log is counted if it is drawn; shown where every
        copy of its kind is in play already, it is one too many."""
        if replay.table.seen[tile] >= replay.rules.copies:
            replay.flag("TILE_CONSERVATION", seat, f"the 宝 is shown as {T.label(tile)}, where every copy of it is "
                        f"in play already")

    def set_aside(self, replay, seat: int, tile: int, logged: int, unknown: bool) -> None:
        """A dice-chosen 宝 that leaves play: out of the wall where it was flipped, and dead."""
        table = replay.table
        wall = table.wall
        index = wall.index_of(logged) if logged else None
        if index is None or not wall.front <= index < wall.back:  # the platform did not say where
            places = [i for i in self.allowed(wall) if unknown or wall.tiles[i] == tile]
            if not places:
                return  # no such tile where the 宝 may lie (flagged by check): none to take out
            index = places[-1]
        self.leave_play(replay, seat, index, tile, unknown)

    def leave_play(self, replay, seat: int, index: int, tile: int, count: bool) -> None:
        """An indicator out of the undrawn wall at `index` and dead (`count`: a wall the record does
        not log counts it as seen now)."""
        table = replay.table
        if count:
            replay.count_unlogged(seat, tile)  # revealed as it leaves play
        table.wall.remove(index)
        table.dead[tile] += 1
        self.state(table).dead.append(tile)

    @staticmethod
    def check(replay, seat: int, tile: int, logged: int, allowed: list[int], where: str) -> None:
        """The flipped tile must be where the rule puts it, and be the wall's tile there."""
        wall = replay.table.wall
        index = wall.index_of(logged) if logged else None
        if logged and index not in allowed:
            replay.flag("DRAW_MISMATCH", seat, f"the 宝 is flipped at wall[{logged}], not {where}")
            return
        if index is None:  # the platform did not say where: any allowed place holding the tile
            if not any(wall.tiles[i] == tile for i in allowed):
                replay.flag("DRAW_MISMATCH", seat, f"the 宝 is logged as {T.label(tile)}, which no tile {where} is")
            return
        if wall.tiles[index] != tile:
            replay.flag("DRAW_MISMATCH", seat, f"the 宝 is logged as {T.label(tile)} but wall[{logged}] holds "
                        f"{T.label(wall.tiles[index])}")

    # -- 冲宝 ------------------------------------------------------------------------------
    @staticmethod
    def chongbao_issue(replay, seat: int):
        """Why the seat may not win on the 宝 kind it has just seen (冲宝), or None."""
        legality, tile = replay.legality, replay.table.indicator
        if tile is None or tile not in legality.waits(seat):
            return "FALSE_WIN", (f"seat {seat} declared 冲宝 but the 宝 {T.label(tile) if tile is not None else '(none)'}"
                                 f" does not complete {replay.table.seats[seat].concealed()}")
        action = A.Action(A.SELF_WIN, tile)
        return legality.win_issue(seat, action, tile) or replay.rules.forbid(replay.view, seat, action)


@dataclass
class BaoFlip(Phase):
    """A 宝 flip (or 换宝) is due before the seat's next normal draw."""
    part: Bao
    seat: int
    kind: int  # BAO or BAO_CHANGE
    then: Phase  # the draw that follows
    name = "bao"

    def on_event(self, replay, kind, event):
        """Anything but the flip: the 宝 was not set when due. Reported once; play goes on as logged."""
        state = self.part.state(replay.table)
        state.waived = state.round
        what = "换宝 (three of the 宝 kind lie in the discards)" if self.kind == BAO_CHANGE else "a 宝 flip"
        replay.flag("BAO_MISSING", self.seat, f"{what} was due before seat {self.seat}'s draw; the record has "
                    f"{kind} instead")
        replay.phase = self.part.before_draw(replay, self.seat, self.then)
        replay.dispatch(kind, event)

    def legal(self, replay, seat):
        return [A.Action(A.FLIP)] if seat == self.seat else []

    def seat_to_act(self):
        return self.seat

    def event_for(self, replay, seat, action):
        return self.part.flip_event(replay, seat, self.kind, change=self.kind == BAO_CHANGE)

    def describe(self):
        return f"{'换宝' if self.kind == BAO_CHANGE else 'the 宝 flip'} is due before seat {self.seat} draws"


@dataclass
class BaoLook(Phase):
    """冲宝: a 听 seat looks at a 宝 it has not seen, before its draw; it may win on its kind at once
    ("上听后看宝时，若发现宝牌正好是要胡的牌，可以直接胡")."""
    part: Bao
    seat: int
    then: Phase  # the draw that follows
    index: int | None
    declared: list = field(default_factory=list)  # (Action, event index)
    window = True
    name = "chongbao"

    def declare(self, replay, kind, event):
        if event.seat != self.seat or kind not in ("win", "pass"):
            return False
        if self.declared:
            replay.flag("ILLEGAL_ACTION", self.seat, f"seat {self.seat} declared twice on one look at the 宝",
                        fatal=True)
        if kind == "pass":
            self.declared.append((A.Action(A.PASS), replay.index))
            return True
        bao = replay.table.indicator
        replay.check_win_kind(event, A.SELF_WIN, "on the 宝 it looks at (冲宝)")
        logged = replay.event_tile(event.win.tile, self.seat) if event.win.tile else bao
        if logged != bao:
            replay.refuse_win(self.seat, self, A.Action(A.SELF_WIN, logged),
                              ("FALSE_WIN", f"seat {self.seat} declared 冲宝 on {T.label(logged)}; the 宝 is "
                                            f"{T.label(bao)}"))
        replay.refuse_win(self.seat, self, A.Action(A.SELF_WIN, bao), self.part.chongbao_issue(replay, self.seat))
        self.declared.append((A.Action(A.SELF_WIN, bao), replay.index))
        return True

    def close(self, replay, closer):
        state = self.part.state(replay.table)
        state.seen[self.seat] = state.round
        bao = replay.table.indicator
        if replay.trace:
            action, at = self.declared[0] if self.declared else (A.Action(A.PASS), None)
            replay.note_window_decision(self.seat, self, action, at)
        wins = [index for action, index in self.declared if action.kind == A.SELF_WIN]
        if wins:
            replay.add_win(self.seat, A.SELF_WIN, bao, None, wins[0], by_indicator=True)
            replay.phase = Ended()
            return
        if self.part.chongbao_issue(replay, self.seat) is None:
            # A passed self-draw (DL-A7, DL.4) from the seat's next draw on: the turn goes on, and the
            # tile it draws now may still win (DL.3.4 item 7, "冲宝 is settled before the drawn tile is
            # used"). Without `declined_is_pass` the 漏胡 note is all it costs.
            win = A.Action(A.SELF_WIN, bao)
            at = self.declared[0][1] if self.declared else None  # its logged 过, if any
            replay.check_missed_win(self.seat, win, self, possible=True, marks=False, at=at)
            if self.part.declined_is_pass:
                state.declined[self.seat] = win
        replay.phase = self.then

    def pending(self):
        return [(self.seat, action) for action, _ in self.declared if action.kind != A.PASS]

    def legal(self, replay, seat):
        """冲宝 when the 宝 completes the hand. Declining needs no event: the draw closes the look (an
        explicit 过 is taken, but one logged while a discard's window is open belongs to that window)."""
        if seat != self.seat or self.part.chongbao_issue(replay, seat) is not None:
            return []
        return [A.Action(A.SELF_WIN, replay.table.indicator)]

    def order(self, replay):
        return [self.seat]

    def describe(self):
        return f"seat {self.seat} looks at the 宝 before drawing (冲宝)"
