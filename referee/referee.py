"""The replay loop: apply each logged event to the table, check it against the actions that
were legal at that point, collect violations, and settle the hand.

The loop is shared by every variant; a ruleset supplies flags, shapes, settlement and the
dealer rule. Violations are values. A violation after which the table no longer follows the
log (an event out of turn, an impossible tile, a false win) halts the replay: later events
are not judged, and the settlement is not recomputed, so one fault gives one finding.
"""
from __future__ import annotations

from dataclasses import dataclass

from referee import actions as A
from referee import tiles as T
from referee.codes import CODES
from referee.proto import record_pb2 as pb
from referee.rules.base import KongInfo, Outcome, Ruleset, WinInfo
from referee.state import ADDED, CHI, CONCEALED, EXPOSED, KONG, PON, Meld, Seat, Table, Wall
from referee.verdict import CLEAN, ERROR, UNREPLAYABLE, VIOLATIONS, Decision, Verdict, Violation

UNKNOWN = -1  # a wall position the platform did not log
KONG_KINDS = {pb.CONCEALED: CONCEALED, pb.EXPOSED: EXPOSED, pb.ADDED: ADDED}


class Unreplayable(Exception):
    """The record cannot be replayed at all; the message says why."""


class Halt(Exception):
    """Raised after a violation that leaves the table unable to follow the log."""


# Phases of play: whose move it is and what kind of move.
@dataclass
class Turn:
    seat: int
    drew: bool  # holds a freshly drawn tile (self-draw win and own kongs possible)
    replacement: bool = False  # that tile was a kong replacement


@dataclass
class DrawDue:
    seat: int
    replacement: bool


@dataclass
class Claim:
    """The window after a discard: each other seat may declare one claim or pass."""
    discarder: int
    tile: int
    index: int
    declared: dict  # seat -> (Action, event index)


@dataclass
class Rob:
    """The window after a 补杠: other seats may rob it."""
    konger: int
    tile: int
    index: int
    declared: dict


@dataclass
class Ended:
    pass


class Replay:
    def __init__(self, record: pb.GameRecord, rules: Ruleset, trace: bool = False):
        self.record = record
        self.rules = rules
        self.trace = trace
        self.violations: list[Violation] = []
        self.decisions: list[Decision] = []
        self.index: int | None = None
        self.last_draw: list[int | None] = [None] * 4
        self.last_live_draw = False  # the latest draw took the last live tile (海底)
        self._waits: list[tuple | None] = [None] * 4  # per seat: (tiles key, waits)
        self.drawn_tile_wins = False  # the active seat's latest draw completes its hand
        self.table: Table | None = None
        self.outcome = Outcome(dealer=record.dealer)
        self.phase = None

    # -- findings ---------------------------------------------------------------------------
    def flag(self, code: str, seat: int | None, detail: str, fatal: bool = False, index: int | None = -2) -> None:
        c = CODES[code]
        at = self.index if index == -2 else index
        self.violations.append(Violation(code, seat, at, f"{c.term} ({c.gloss}): {detail}", c.severity))
        if fatal:
            raise Halt

    def flag_issue(self, issue: tuple[str, str] | None, seat: int, fatal: bool = False) -> bool:
        if issue is None:
            return False
        self.flag(issue[0], seat, issue[1], fatal)
        return True

    # -- the deal ---------------------------------------------------------------------------
    def _tile(self, code: int, what: str) -> int:
        try:
            t = T.from_proto(code)
        except ValueError:
            raise Unreplayable(f"{what} holds impossible tile code {code}") from None
        return t

    def _deal(self) -> Table:
        record, rules = self.record, self.rules
        if record.dealer > 3:
            raise Unreplayable(f"dealer seat {record.dealer} does not exist (seats are 0-3)")
        if record.players and len(record.players) != 4:
            raise Unreplayable(f"{len(record.players)} players listed; every variant seats 4")
        seats = [Seat(i) for i in range(4)]
        dealer = record.dealer
        if record.wall:
            tiles = [self._tile(code, f"wall[{i}]") for i, code in enumerate(record.wall)]
            self._check_wall(tiles)
            if len(tiles) < 53:
                raise Unreplayable(f"the wall has {len(tiles)} tiles, too few to deal 53")
            wall = Wall(tiles)
            order = [(dealer + k) % 4 for k in range(4)]
            for _round in range(3):
                for s in order:
                    for _ in range(4):
                        seats[s].hand[wall.take_front()] += 1
            for s in order:
                seats[s].hand[wall.take_front()] += 1
            last = wall.take_front()
            seats[dealer].hand[last] += 1
            self.last_draw[dealer] = last
            table = Table(seats, dealer, wall)
        else:
            if len(record.initial_hands) != 4:
                raise Unreplayable("the record has neither a wall nor four initial hands")
            seen = [0] * T.KINDS
            for s, hand in enumerate(record.initial_hands):
                for code in hand.tiles:
                    t = self._tile(code, f"initial_hands[{s}]")
                    seats[s].hand[t] += 1
                    seen[t] += 1
                want = 14 if s == dealer else 13
                if len(hand.tiles) != want:
                    self.flag("TILE_COUNT", s, f"seat {s} was dealt {len(hand.tiles)} tiles, not {want}",
                              fatal=True, index=None)
            wall = Wall([UNKNOWN] * (rules.wall_size - 53))
            self.last_draw[dealer] = T.from_proto(record.initial_hands[dealer].tiles[-1])
            table = Table(seats, dealer, wall)
            table.seen = seen
            self._check_counts(seen, "the dealt hands")
        return table

    def _check_wall(self, tiles: list[int]) -> None:
        counts = T.counts(tiles)
        self._check_counts(counts, "the wall")
        if len(tiles) != self.rules.wall_size:
            self.flag("TILE_CONSERVATION", None, f"the wall has {len(tiles)} tiles; {self.rules.name} uses "
                      f"{self.rules.wall_size}", index=None)

    def _check_counts(self, counts: list[int], where: str) -> None:
        kinds = set(self.rules.tile_kinds)
        for t, c in enumerate(counts):
            if c > self.rules.copies or (c and t not in kinds):
                allowed = self.rules.copies if t in kinds else 0
                self.flag("TILE_CONSERVATION", None,
                          f"{where} holds {c} × {T.label(t)}; the set has {allowed}", index=None)

    # -- the loop ---------------------------------------------------------------------------
    def run(self) -> None:
        """Deal and replay every event. Raises Unreplayable when the record cannot be dealt."""
        try:
            self.begin()
            for index, event in enumerate(self.record.events):
                self.index = index
                self.step(event)
            self.index = None
            self.finish()
        except Halt:
            self.phase = None

    def begin(self) -> None:
        """Deal; the dealer then acts on its 14th tile as on a draw."""
        self.table = self._deal()
        self.phase = Turn(self.table.dealer, drew=True)
        dealer = self.table.seats[self.table.dealer]
        self.drawn_tile_wins = self.rules.is_win(dealer.hand, dealer.melds)

    def step(self, event: pb.Event) -> None:
        kind = event.WhichOneof("kind")
        if kind is None:
            self.flag("ILLEGAL_ACTION", None, "an event with no kind (unknown to schema v1?)", fatal=True)
        if event.seat > 3:
            self.flag("OUT_OF_TURN", None, f"seat {event.seat} does not exist (seats are 0-3)", fatal=True)
        if kind == "auto_play":  # 托管 markers may come at any time
            self.table.seats[event.seat].auto_play = event.auto_play.on
            return
        while True:
            phase = self.phase
            if isinstance(phase, Claim):
                if self.declare_claim(kind, event, phase):
                    return
                self.close_claim(phase, event)
            elif isinstance(phase, Rob):
                if self.declare_rob(kind, event, phase):
                    return
                self.close_rob(phase, event)
            elif isinstance(phase, Turn):
                return self.on_turn(kind, event, phase)
            elif isinstance(phase, DrawDue):
                return self.on_draw_due(kind, event, phase)
            else:
                if kind == "birds":
                    return
                self.flag("EVENT_AFTER_END", event.seat, f"{kind} by seat {event.seat} after the hand ended",
                          fatal=True)

    def finish(self) -> None:
        phase = self.phase
        if isinstance(phase, Claim):
            self.close_claim(phase, None)
        elif isinstance(phase, Rob):
            self.close_rob(phase, None)
        phase = self.phase
        if isinstance(phase, DrawDue) and not phase.replacement and self.live() <= 0:
            self.outcome.exhaustive = True  # the wall ran out: 荒庄, logged or not
            self.phase = Ended()
        if not isinstance(self.phase, Ended):
            self.flag("HAND_INCOMPLETE", None, f"the record stops while {self.describe_phase()}", index=None)
            self.phase = None

    def describe_phase(self) -> str:
        phase = self.phase
        if isinstance(phase, Turn):
            return f"seat {phase.seat} is to act"
        if isinstance(phase, DrawDue):
            return f"seat {phase.seat} is to draw"
        return "the hand is in play"

    # -- tiles from events ------------------------------------------------------------------
    def event_tile(self, code: int, seat: int) -> int:
        try:
            t = T.from_proto(code)
        except ValueError:
            self.flag("IMPOSSIBLE_TILE", seat, f"tile code {code} is no tile", fatal=True)
        if t not in self.rules.tile_kinds:
            self.flag("IMPOSSIBLE_TILE", seat, f"{T.label(t)} is not used in {self.rules.name}", fatal=True)
        return t

    def live(self) -> int:
        return self.rules.live_tiles(self.table.wall)

    # -- the active seat's turn ---------------------------------------------------------------
    def turn_action(self, kind: str, event: pb.Event, phase: Turn) -> A.Action:
        seat = phase.seat
        if kind == "discard":
            tile = self.event_tile(event.discard.tile, seat)
            ready = event.discard.ready != pb.READY_NONE
            return A.Action(A.READY_DISCARD if ready else A.DISCARD, tile)
        if kind == "win":
            if event.win.kind not in (pb.SELF_DRAW, pb.WIN_UNSPECIFIED):
                self.illegal(seat, f"a {pb.WinKind.Name(event.win.kind)} win with no discard to take", phase)
            return A.Action(A.SELF_WIN, self.last_draw[seat])
        if kind == "kong":
            tile = self.event_tile(event.kong.tile, seat)
            kong_kind = KONG_KINDS.get(event.kong.kind)
            if kong_kind == CONCEALED:
                return A.Action(A.KONG_CONCEALED, tile)
            if kong_kind == ADDED:
                return A.Action(A.KONG_ADDED, tile)
            self.illegal(seat, f"a {pb.KongKind.Name(event.kong.kind)} kong with no discard to take", phase)
        self.illegal(seat, f"{kind}", phase)

    def illegal(self, seat: int, what: str, phase) -> None:
        legal = A.describe_set(self.legal_actions(seat, phase))
        self.flag("ILLEGAL_ACTION", seat, f"seat {seat} logged {what}; legal here: {legal}", fatal=True)

    def on_turn(self, kind: str, event: pb.Event, phase: Turn) -> None:
        seat = phase.seat
        if event.seat != seat:
            legal = A.describe_set(self.legal_actions(seat, phase))
            self.flag("OUT_OF_TURN", event.seat, f"seat {event.seat} logged {kind} but seat {seat} is to act "
                      f"({legal})", fatal=True)
        action = self.turn_action(kind, event, phase)
        self.note_decision(seat, "turn", phase, action)
        if phase.drew and action.kind != A.SELF_WIN:
            self.check_missed_win(seat, A.Action(A.SELF_WIN, self.last_draw[seat]), phase)
        if action.kind in (A.DISCARD, A.READY_DISCARD):
            self.flag_issue(self.why_not_discard(seat, action.tile, action.kind == A.READY_DISCARD), seat)
            self.apply_discard(seat, action)
        elif action.kind == A.SELF_WIN:
            self.flag_issue(self.why_not_self_win(seat, phase), seat, fatal=True)
            self.apply_self_win(seat, phase, event)
        else:
            self.flag_issue(self.why_not_own_kong(seat, action, phase), seat)
            self.apply_own_kong(seat, action)

    # -- legality: each check returns None when legal, else (code, detail) --------------------
    def why_not_discard(self, seat: int, tile: int, ready: bool):
        s = self.table.seats[seat]
        if not s.hand[tile]:
            return "DISCARD_NOT_HELD", f"seat {seat} discarded {T.label(tile)} but holds {s.concealed()}"
        drawn = self.last_draw[seat]
        if self.rules.ready_locks_discard and s.ready and drawn is not None and tile != drawn:
            return "READY_LOCK_BREACH", (f"seat {seat} is 听 and drew {T.label(drawn)} but discarded "
                                         f"{T.label(tile)}")
        if ready:
            if not self.rules.ready_with_discard:
                return "ILLEGAL_ACTION", f"{self.rules.name} has no 听 declaration with a discard"
            if s.ready:
                return "READY_TWICE", f"seat {seat} declared 听 again"
            after = list(s.hand)
            after[tile] -= 1
            if not self.rules.is_tenpai(after, s.melds):
                return "READY_NOT_TENPAI", (f"seat {seat} declared 听 discarding {T.label(tile)}, leaving "
                                            f"{T.format_counts(after)}, which waits on nothing")
        return None

    def why_not_self_win(self, seat: int, phase: Turn):
        s = self.table.seats[seat]
        if not phase.drew:
            return "FALSE_WIN", f"seat {seat} declared 自摸 without drawing a tile"
        if not self.rules.is_win(s.hand, s.melds):
            return "FALSE_WIN", f"seat {seat} declared 自摸 with {s.concealed()}{self.melds_text(s)}, not a winning hand"
        return None

    def why_not_own_kong(self, seat: int, action: A.Action, phase: Turn):
        s, tile = self.table.seats[seat], action.tile
        if not phase.drew:
            return "ILLEGAL_CALL", f"seat {seat} may not kong in the turn it called (only after a draw)"
        if action.kind == A.KONG_CONCEALED and s.hand[tile] != 4:
            return "ILLEGAL_CALL", f"暗杠 {T.label(tile)} needs four in hand; seat {seat} holds {s.hand[tile]}"
        if action.kind == A.KONG_ADDED and tile not in self.rules.added_kong_tiles(s.hand, s.melds,
                                                                                   self.last_draw[seat]):
            return "ILLEGAL_CALL", f"补杠 {T.label(tile)} needs a 碰 of it and the fourth tile in hand"
        if self.live() < 1:
            return "DRAW_FROM_RESERVE", f"a kong with no live tile left for its replacement"
        return self.why_not_ready_kong(seat, tile, 4 if action.kind == A.KONG_CONCEALED else 1)

    def why_not_ready_kong(self, seat: int, tile: int, from_hand: int):
        s = self.table.seats[seat]
        if not (s.ready and self.rules.ready_kong_keeps_tenpai):
            return None
        after = list(s.hand)
        after[tile] -= from_hand
        melds = s.melds + [Meld(KONG, tile, None, CONCEALED)]
        if not self.rules.is_tenpai(after, melds):
            return "READY_KONG_BREAKS_TENPAI", f"after 杠 {T.label(tile)} seat {seat}'s hand waits on nothing"
        return None

    def why_not_ron(self, seat: int, tile: int):
        if not self.can_ron(seat, tile):
            s = self.table.seats[seat]
            return "FALSE_WIN", (f"seat {seat} declared 胡 on {T.label(tile)} with {s.concealed()}"
                                 f"{self.melds_text(s)}, not a winning hand")
        return None

    def can_ron(self, seat: int, tile: int) -> bool:
        return tile in self.waits_of(seat)

    def waits_of(self, seat: int) -> tuple[int, ...]:
        """The seat's waits, recomputed only when its own tiles have changed (they are
        asked for on every other seat's discard)."""
        s = self.table.seats[seat]
        key = (tuple(s.hand), len(s.melds))
        cached = self._waits[seat]
        if cached is None or cached[0] != key:
            cached = self._waits[seat] = (key, self.rules.waits(s.hand, s.melds))
        return cached[1]

    def why_not_call(self, seat: int, action: A.Action, discarder: int):
        s, tile = self.table.seats[seat], action.tile
        if action.kind == A.CHI:
            if not self.rules.chi_allowed:
                return "CHI_FORBIDDEN", f"seat {seat} took {T.label(tile)} by 吃; {self.rules.name} has no 吃"
            if self.rules.chi_from_left_only and seat != self.table.next_seat(discarder):
                return "ILLEGAL_CALL", f"吃 only from the 上家; seat {discarder} is not seat {seat}'s 上家"
            return None
        if action.kind == A.PON:
            if s.hand[tile] < 2:
                return "ILLEGAL_CALL", f"碰 {T.label(tile)} needs a pair; seat {seat} holds {s.hand[tile]}"
            if s.ready and self.rules.ready_forbids_pon:
                return "READY_PON", f"seat {seat} is 听 and may not 碰"
            return None
        if s.hand[tile] != 3:
            return "ILLEGAL_CALL", f"明杠 {T.label(tile)} needs three in hand; seat {seat} holds {s.hand[tile]}"
        if self.live() < 1:
            return "DRAW_FROM_RESERVE", "a kong with no live tile left for its replacement"
        return self.why_not_ready_kong(seat, tile, 3)

    @staticmethod
    def melds_text(s: Seat) -> str:
        return "".join(f" [{m}]" for m in s.melds)

    # -- legal action sets (for traces and for explaining an illegal action) ------------------
    def legal_actions(self, seat: int, phase) -> list[A.Action]:
        s = self.table.seats[seat]
        legal: list[A.Action] = []
        if isinstance(phase, Turn) and phase.seat == seat:
            if self.why_not_self_win(seat, phase) is None:
                legal.append(A.Action(A.SELF_WIN, self.last_draw[seat]))
            for t in range(T.KINDS):
                if s.hand[t] == 4:
                    legal.append(A.Action(A.KONG_CONCEALED, t))
            legal.extend(A.Action(A.KONG_ADDED, t) for t in self.rules.added_kong_tiles(s.hand, s.melds,
                                                                                        self.last_draw[seat]))
            legal = [a for a in legal if a.kind == A.SELF_WIN or self.why_not_own_kong(seat, a, phase) is None]
            for t in range(T.KINDS):
                if s.hand[t]:
                    if self.why_not_discard(seat, t, False) is None:
                        legal.append(A.Action(A.DISCARD, t))
                    if self.rules.ready_with_discard and self.why_not_discard(seat, t, True) is None:
                        legal.append(A.Action(A.READY_DISCARD, t))
        elif isinstance(phase, Claim) and seat != phase.discarder:
            tile = phase.tile
            legal.append(A.Action(A.PASS))
            if self.can_ron(seat, tile):
                legal.append(A.Action(A.RON, tile))
            for kind in (A.PON, A.KONG_EXPOSED):
                if self.why_not_call(seat, A.Action(kind, tile), phase.discarder) is None:
                    legal.append(A.Action(kind, tile))
            if self.rules.chi_allowed:
                for low in self.chi_options(seat, tile):
                    if self.why_not_call(seat, A.Action(A.CHI, low), phase.discarder) is None:
                        legal.append(A.Action(A.CHI, low))
        elif isinstance(phase, Rob) and seat != phase.konger:
            legal.append(A.Action(A.PASS))
            if self.can_ron(seat, phase.tile):
                legal.append(A.Action(A.ROB_WIN, phase.tile))
        elif isinstance(phase, DrawDue) and seat == phase.seat:
            legal.append(A.Action(A.DRAW))
        return legal

    def chi_options(self, seat: int, tile: int) -> list[int]:
        """Lowest tiles of the sequences the seat could complete with this tile."""
        if T.is_honor(tile):
            return []
        hand, rank = self.table.seats[seat].hand, T.rank_of(tile)
        lows = []
        for low_rank in (rank - 2, rank - 1, rank):
            if 1 <= low_rank <= 7:
                low = tile - (rank - low_rank)
                if all(hand[t] for t in (low, low + 1, low + 2) if t != tile):
                    lows.append(low)
        return lows

    def note_decision(self, seat: int, window: str, phase, taken: A.Action) -> None:
        if self.trace:
            legal = tuple(str(a) for a in self.legal_actions(seat, phase))
            self.decisions.append(Decision(self.index, seat, window, legal, str(taken)))

    def check_missed_win(self, seat: int, win: A.Action, phase) -> None:
        """A win the seat could have declared and did not: 漏胡, a violation under auto-play."""
        if win.kind == A.SELF_WIN:
            possible = phase.drew and self.drawn_tile_wins
        else:
            possible = self.can_ron(seat, win.tile)
        if not possible:
            return
        s = self.table.seats[seat]
        tile = T.label(win.tile) if win.tile is not None else "the drawn tile"
        index = self.index if win.kind == A.SELF_WIN else phase.index
        if s.auto_play:
            self.flag("AUTO_WIN_MISSED", seat, f"seat {seat} was in auto-play and could win on {tile}; "
                      f"the system must win for it", index=index)
        else:
            self.flag("MISSED_WIN", seat, f"seat {seat} could win on {tile} and did not", index=index)

    # -- applying actions -------------------------------------------------------------------
    def apply_discard(self, seat: int, action: A.Action) -> None:
        s = self.table.seats[seat]
        if s.hand[action.tile]:
            s.hand[action.tile] -= 1
        s.river.append(action.tile)
        if action.kind == A.READY_DISCARD:
            s.ready = True
        self.last_draw[seat] = None
        self.phase = Claim(seat, action.tile, self.index, {})

    def apply_self_win(self, seat: int, phase: Turn, event: pb.Event) -> None:
        s = self.table.seats[seat]
        tile = self.last_draw[seat]
        self.outcome.wins.append(WinInfo(seat, A.SELF_WIN, tile, None, list(s.hand), list(s.melds), self.index,
                                         after_replacement=phase.replacement, last_tile=self.last_live_draw))
        self.phase = Ended()

    def apply_own_kong(self, seat: int, action: A.Action) -> None:
        s, tile = self.table.seats[seat], action.tile
        if action.kind == A.KONG_CONCEALED:
            s.hand[tile] = max(0, s.hand[tile] - 4)
            s.melds.append(Meld(KONG, tile, None, CONCEALED))
            self.outcome.kongs.append(KongInfo(seat, CONCEALED, tile, None, self.index))
            self.phase = DrawDue(seat, replacement=True)
            return
        s.hand[tile] = max(0, s.hand[tile] - 1)
        for meld in s.melds:
            if meld.kind == PON and meld.tile == tile:
                meld.kind, meld.kong_kind = KONG, ADDED
                break
        if ADDED in self.rules.robbable_kongs:
            self.phase = Rob(seat, tile, self.index, {})
        else:
            self.outcome.kongs.append(KongInfo(seat, ADDED, tile, None, self.index))
            self.phase = DrawDue(seat, replacement=True)

    # -- the claim window after a discard -------------------------------------------------------
    def claim_action(self, kind: str, event: pb.Event, tile: int) -> A.Action | None:
        if kind == "pass":
            return A.Action(A.PASS)
        if kind == "win":
            return A.Action(A.RON, tile)
        if kind == "pon":
            return A.Action(A.PON, tile)
        if kind == "kong" and event.kong.kind == pb.EXPOSED:
            return A.Action(A.KONG_EXPOSED, tile)
        if kind == "chi":
            shown = sorted(self.event_tile(code, event.seat) for code in event.chi.tiles)
            run = sorted(shown + [tile])
            if len(shown) != 2 or T.is_honor(run[0]) or run != list(range(run[0], run[0] + 3)) or \
                    T.suit_of(run[0]) != T.suit_of(run[2]):
                self.flag("ILLEGAL_CALL", event.seat, f"吃 {T.format_tiles(shown)} does not make a sequence with "
                          f"{T.label(tile)}", fatal=True)
            return A.Action(A.CHI, run[0])
        return None

    def declare_claim(self, kind: str, event: pb.Event, phase: Claim) -> bool:
        """Take one seat's declaration in the window; False when the event closes the window."""
        if event.seat == phase.discarder:
            return False
        action = self.claim_action(kind, event, phase.tile)
        if action is None:
            return False
        seat = event.seat
        if seat in phase.declared:
            self.flag("ILLEGAL_ACTION", seat, f"seat {seat} declared twice on one discard", fatal=True)
        for code in self.claimed_tile_codes(kind, event):
            if code and self.event_tile(code, seat) != phase.tile:
                self.flag("ILLEGAL_CALL" if kind != "win" else "FALSE_WIN", seat,
                          f"seat {seat} claimed {T.label(self.event_tile(code, seat))} but the discard is "
                          f"{T.label(phase.tile)}", fatal=True)
        if action.kind == A.RON:
            self.flag_issue(self.why_not_ron(seat, phase.tile), seat, fatal=True)
        elif action.kind != A.PASS:
            self.flag_issue(self.why_not_call(seat, action, phase.discarder), seat)
        phase.declared[seat] = (action, self.index)
        return True

    @staticmethod
    def claimed_tile_codes(kind: str, event: pb.Event) -> list[int]:
        if kind == "win":
            return [event.win.tile]
        if kind == "pon":
            return [event.pon.tile]
        if kind == "kong":
            return [event.kong.tile]
        return []

    def continues(self, seat: int, action: A.Action, closer: pb.Event | None) -> bool:
        """Does the closing event carry on this call (the caller discards, or draws its replacement)?"""
        if closer is None or closer.seat != seat:
            return False
        kind = closer.WhichOneof("kind")
        if action.kind == A.KONG_EXPOSED:
            return kind == "draw" and closer.draw.replacement
        return kind == "discard"

    def close_claim(self, phase: Claim, closer: pb.Event | None) -> None:
        declared = phase.declared
        if not declared and not self.trace:  # the common case: nobody claimed
            for seat in self.others(phase.discarder):
                self.check_missed_win(seat, A.Action(A.RON, phase.tile), phase)
            self.phase = DrawDue(self.table.next_seat(phase.discarder), replacement=False)
            return
        wins = sorted((s for s, (a, _) in declared.items() if a.kind == A.RON),
                      key=lambda s: self.table.distance(phase.discarder, s))
        calls = {s: a for s, (a, _) in declared.items() if a.kind in A.CALLS}
        taken = next((s for s, a in calls.items() if self.continues(s, a, closer)), None)
        if taken is None and calls and not wins:
            taken = max(calls, key=lambda s: (A.PRIORITY[calls[s].kind], -self.table.distance(phase.discarder, s)))
        for seat in self.others(phase.discarder):
            action = declared.get(seat, (A.Action(A.PASS), None))[0]
            self.note_claim_decision(seat, phase, action)
            if action.kind != A.RON:
                self.check_missed_win(seat, A.Action(A.RON, phase.tile), phase)
        if taken is not None:
            call = calls[taken]
            higher = [s for s, (a, _) in declared.items() if A.PRIORITY[a.kind] > A.PRIORITY[call.kind]]
            for seat in higher:
                self.flag("CLAIM_PRIORITY", taken, f"seat {taken}'s {call} took the discard over seat {seat}'s "
                          f"{declared[seat][0]} (胡 > 碰/杠 > 吃)", index=declared[taken][1])
            self.apply_call(taken, call, phase)
            return
        if wins:
            if not self.rules.multiple_ron:
                self.yield_to_nearest(wins, phase.discarder, declared)
                wins = wins[:1]
            for seat in wins:
                s = self.table.seats[seat]
                hand = list(s.hand)
                hand[phase.tile] += 1
                self.outcome.wins.append(WinInfo(seat, A.RON, phase.tile, phase.discarder, hand, list(s.melds),
                                                 declared[seat][1]))
            self.phase = Ended()
            return
        self.phase = DrawDue(self.table.next_seat(phase.discarder), replacement=False)

    def yield_to_nearest(self, winners: list[int], source: int, declared: dict) -> None:
        """Without 一炮多响 only the nearest seat in play order wins (截胡); a further win is a violation."""
        for seat in winners[1:]:
            self.flag("MULTIPLE_RON", seat, f"seat {seat} also declared 胡 on seat {source}'s tile; only the "
                      f"nearest seat, {winners[0]}, wins (no 一炮多响)", index=declared[seat][1])

    def note_claim_decision(self, seat: int, phase, action: A.Action) -> None:
        if self.trace:
            legal = tuple(str(a) for a in self.legal_actions(seat, phase))
            if legal == (A.PASS,) and action.kind == A.PASS:
                return  # nothing to decide
            self.decisions.append(Decision(phase.index, seat, "claim" if isinstance(phase, Claim) else "rob",
                                           legal, str(action)))

    def others(self, seat: int) -> list[int]:
        return [(seat + k) % 4 for k in (1, 2, 3)]

    def apply_call(self, seat: int, call: A.Action, phase: Claim) -> None:
        s, tile = self.table.seats[seat], phase.tile
        river = self.table.seats[phase.discarder].river
        if river and river[-1] == tile:
            river.pop()  # a claimed tile leaves the discarder's river
        if call.kind == A.CHI:
            for t in (call.tile, call.tile + 1, call.tile + 2):
                if t != tile and s.hand[t]:
                    s.hand[t] -= 1
            s.melds.append(Meld(CHI, call.tile, phase.discarder, claimed_tile=tile))
            self.phase = Turn(seat, drew=False)
        elif call.kind == A.PON:
            s.hand[tile] = max(0, s.hand[tile] - 2)
            s.melds.append(Meld(PON, tile, phase.discarder, claimed_tile=tile))
            self.phase = Turn(seat, drew=False)
        else:
            s.hand[tile] = max(0, s.hand[tile] - 3)
            s.melds.append(Meld(KONG, tile, phase.discarder, EXPOSED, claimed_tile=tile))
            self.outcome.kongs.append(KongInfo(seat, EXPOSED, tile, phase.discarder, self.index))
            self.phase = DrawDue(seat, replacement=True)
        self.last_draw[seat] = None

    # -- the rob-kong window after a 补杠 -------------------------------------------------------
    def declare_rob(self, kind: str, event: pb.Event, phase: Rob) -> bool:
        if event.seat == phase.konger or kind not in ("win", "pass"):
            return False
        seat = event.seat
        if seat in phase.declared:
            self.flag("ILLEGAL_ACTION", seat, f"seat {seat} declared twice on one kong", fatal=True)
        if kind == "win":
            self.flag_issue(self.why_not_ron(seat, phase.tile), seat, fatal=True)
            phase.declared[seat] = (A.Action(A.ROB_WIN, phase.tile), self.index)
        else:
            phase.declared[seat] = (A.Action(A.PASS), self.index)
        return True

    def close_rob(self, phase: Rob, closer: pb.Event | None) -> None:
        robbers = sorted((s for s, (a, _) in phase.declared.items() if a.kind == A.ROB_WIN),
                         key=lambda s: self.table.distance(phase.konger, s))
        for seat in self.others(phase.konger):
            action = phase.declared.get(seat, (A.Action(A.PASS), None))[0]
            self.note_claim_decision(seat, phase, action)
            if action.kind != A.ROB_WIN:
                self.check_missed_win(seat, A.Action(A.ROB_WIN, phase.tile), phase)
        konger = self.table.seats[phase.konger]
        if robbers:
            if not self.rules.multiple_ron:
                self.yield_to_nearest(robbers, phase.konger, phase.declared)
                robbers = robbers[:1]
            for meld in konger.melds:  # the robbed kong never completes (HB-A6)
                if meld.kind == KONG and meld.kong_kind == ADDED and meld.tile == phase.tile:
                    meld.kind, meld.kong_kind = PON, None
                    break
            for seat in robbers:
                s = self.table.seats[seat]
                hand = list(s.hand)
                hand[phase.tile] += 1
                self.outcome.wins.append(WinInfo(seat, A.ROB_WIN, phase.tile, phase.konger, hand, list(s.melds),
                                                 phase.declared[seat][1]))
            self.phase = Ended()
            return
        self.outcome.kongs.append(KongInfo(phase.konger, ADDED, phase.tile, None, phase.index))
        self.phase = DrawDue(phase.konger, replacement=True)

    # -- draws ------------------------------------------------------------------------------
    def on_draw_due(self, kind: str, event: pb.Event, phase: DrawDue) -> None:
        live = self.live()
        if kind == "exhaustive_draw":
            if phase.replacement or live > 0:
                self.flag("ILLEGAL_EXHAUSTIVE_DRAW", event.seat, f"荒庄 declared with {max(live, 0)} live tiles "
                          f"left and seat {phase.seat} to draw", fatal=True)
            self.outcome.exhaustive = True
            self.phase = Ended()
            return
        if kind != "draw" or event.seat != phase.seat:
            if not phase.replacement and live <= 0:
                self.flag("EVENT_AFTER_END", event.seat, f"{kind} by seat {event.seat} after the wall ran out "
                          "(荒庄)", fatal=True)
            what = "its kong replacement" if phase.replacement else "a tile"
            self.flag("OUT_OF_TURN", event.seat, f"seat {event.seat} logged {kind} but seat {phase.seat} is to "
                      f"draw {what}", fatal=True)
        seat = phase.seat
        if event.draw.replacement != phase.replacement:
            due = "a kong replacement from the back" if phase.replacement else "a normal draw from the front"
            self.flag("DRAW_MISMATCH", seat, f"seat {seat}'s draw is logged as the other kind; {due} was due")
        if not phase.replacement and live <= 0:
            self.flag("DRAW_FROM_RESERVE", seat, f"seat {seat} drew with no live tile left (the reserve of "
                      f"{self.table.wall.remaining} tiles must stay)")
        self.last_live_draw = not phase.replacement and live == 1
        tile = self.take_tile(seat, event, phase.replacement)
        s = self.table.seats[seat]
        self.drawn_tile_wins = tile in self.waits_of(seat)
        s.hand[tile] += 1
        self.last_draw[seat] = tile
        self.phase = Turn(seat, drew=True, replacement=phase.replacement)

    def take_tile(self, seat: int, event: pb.Event, replacement: bool) -> int:
        """The drawn tile: the logged one, checked against the wall (or counted when there is none)."""
        wall = self.table.wall
        if wall.remaining <= 0:
            self.flag("DRAW_FROM_RESERVE", seat, "a draw from an empty wall", fatal=True)
        expected = wall.take_back() if replacement else wall.take_front()
        logged = self.event_tile(event.draw.tile, seat) if event.draw.tile else None
        if expected == UNKNOWN:
            if logged is None:
                self.flag("DRAW_MISMATCH", seat, "a draw with no tile, and the record has no wall", fatal=True)
            seen = self.table.seen
            seen[logged] += 1
            if seen[logged] > self.rules.copies:
                self.flag("TILE_CONSERVATION", seat, f"{T.label(logged)} drawn as copy {seen[logged]}; the set has "
                          f"{self.rules.copies}")
            return logged
        if logged is not None and logged != expected:
            self.flag("DRAW_MISMATCH", seat, f"seat {seat} drew {T.label(logged)} where the wall holds "
                      f"{T.label(expected)}")
            return logged
        return expected


def referee(record: pb.GameRecord, rules: Ruleset, trace: bool = False) -> Verdict:
    """Replay one record under one ruleset and return its verdict."""
    game_id = record.game_id
    replay = Replay(record, rules, trace)
    try:
        replay.run()
    except Unreplayable as err:
        return Verdict(game_id, rules.name, UNREPLAYABLE, reason=str(err), event_count=len(record.events))
    verdict = Verdict(game_id, rules.name, CLEAN, violations=replay.violations, decisions=replay.decisions,
                      event_count=len(record.events))
    claimed = record.claimed if record.HasField("claimed") else None
    if claimed is not None and claimed.payments:
        verdict.claimed = tuple(claimed.payments)
    if isinstance(replay.phase, Ended):
        outcome = replay.outcome
        verdict.winners = tuple(sorted({w.seat for w in outcome.wins}))
        verdict.recomputed = rules.settle(outcome)
        if claimed is not None:
            compare_claim(replay, claimed, verdict)
    verdict.status = VIOLATIONS if any(v.severity == ERROR for v in verdict.violations) else CLEAN
    return verdict


def compare_claim(replay: Replay, claimed: pb.ClaimedResult, verdict: Verdict) -> None:
    """The platform's result against the recomputed one: each disagreement is a violation."""
    rules, outcome, recomputed = replay.rules, replay.outcome, verdict.recomputed
    flag = replay.flag
    if list(claimed.winners) and sorted(claimed.winners) != list(verdict.winners) or (
            not claimed.winners and verdict.winners and claimed.payments):
        flag("WINNERS_MISMATCH", None, f"the platform names winners {sorted(claimed.winners)}; the events give "
             f"{list(verdict.winners)}", index=None)
    if claimed.payments and len(claimed.payments) != 4:
        flag("CLAIM_MALFORMED", None, f"{len(claimed.payments)} payments claimed; one per seat (4) expected",
             index=None)
    elif claimed.payments and tuple(claimed.payments) != recomputed.payments:
        void = outcome.exhaustive and (any(claimed.kong_payments) or tuple(claimed.payments) == rules.settle(
            Outcome(outcome.dealer, kongs=outcome.kongs)).payments)
        if void:
            flag("KONG_PAYMENT_IN_DRAW", None, f"the hand is 荒庄 and kong payments {list(claimed.payments)} were "
                 "made; every kong payment is void", index=None)
        else:
            flag("SETTLEMENT_MISMATCH", None, f"claimed {list(claimed.payments)}, recomputed "
                 f"{list(recomputed.payments)}", index=None)
    if claimed.has_next_dealer and claimed.next_dealer != rules.next_dealer(outcome):
        flag("NEXT_DEALER_MISMATCH", None, f"the platform names seat {claimed.next_dealer} as next dealer; the "
             f"rule gives seat {rules.next_dealer(outcome)}", index=None)
