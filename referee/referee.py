"""The replay loop: apply each logged event to the table, check it against the actions that
were legal at that point, collect violations, and settle the hand.

The loop is shared by every variant; a ruleset supplies flags, shapes, a hook for what it
forbids beyond the common rules, settlement and the dealer rule. Violations are values. A
violation after which the table no longer follows the log (an event out of turn, an
impossible tile, a false win) halts the replay: later events are not judged and the
settlement is not recomputed, so one fault gives one finding.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from referee import actions as A
from referee import tiles as T
from referee.codes import CODES
from referee.proto import record_pb2 as pb
from referee.rules.base import DASHAI, KongInfo, Outcome, Ruleset, WinInfo
from referee.state import (ADDED, BORROWED, CHI, CONCEALED, DEALT, EXPOSED, KONG, PON, Meld, Seat, Table, Wall,
                           deal_seats)
from referee.verdict import (CLEAN, DECLARED, ERROR, IMPLIED, TOOK_EFFECT, UNREPLAYABLE, VIOLATIONS, Decision,
                             Verdict, Violation)

UNKNOWN = -1  # a wall position the platform did not log
KONG_KINDS = {pb.CONCEALED: CONCEALED, pb.EXPOSED: EXPOSED, pb.ADDED: ADDED, pb.BORROWED: BORROWED}
DEAL_EVENTS = ("indicator", "ready", "feng_dong")
# The enum field of each event kind that has one.
ENUM_FIELDS = {"win": ("kind", pb.WinKind), "kong": ("kind", pb.KongKind), "discard": ("ready", pb.ReadyKind),
               "ready": ("kind", pb.ReadyKind), "indicator": ("kind", pb.IndicatorKind)}  # declarations not bound to the turn order


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
    last_tile: bool = False  # the discard is the 海底 tile (海底炮 may be won by several)


@dataclass
class Rob:
    """The window after a 补杠: other seats may rob it."""
    konger: int
    tile: int
    index: int
    declared: dict


@dataclass
class DashaiDue:
    """打筛 (Ningxiang): after a kong the konger reveals two tiles instead of a replacement."""
    konger: int


@dataclass
class Dashai:
    """The window on the two revealed tiles: the konger may win on either (杠上开花), else
    the nearest seat that can win on one (杠上炮)."""
    konger: int
    tiles: tuple[int, ...]
    index: int
    declared: dict = field(default_factory=dict)  # seat -> list of (Action, event index)


@dataclass
class HaidiOffer:
    """海底漫游: the last tile is offered to each seat in turn from the one due to draw."""
    seat: int
    first: int


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
        self.haidi_taker: int | None = None
        self.deal_window = True  # before the dealer's first discard (报听, 正王 flip, 起手 hands)
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
            return T.from_proto(code)
        except ValueError:
            raise Unreplayable(f"{what} holds impossible tile code {code}") from None

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
            if len(tiles) < DEALT:
                raise Unreplayable(f"the wall has {len(tiles)} tiles, too few to deal {DEALT}")
            wall = Wall(tiles)
            for s in deal_seats(dealer):
                tile = wall.take_front()
                seats[s].hand[tile] += 1
            self.last_draw[dealer] = tile  # the dealer's fourteenth comes last
            return Table(seats, dealer, wall)
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
        self.last_draw[dealer] = T.from_proto(record.initial_hands[dealer].tiles[-1])
        table = Table(seats, dealer, Wall([UNKNOWN] * (rules.wall_size - DEALT)))
        table.seen = seen
        self._check_counts(seen, "the dealt hands")
        return table

    def _check_wall(self, tiles: list[int]) -> None:
        self._check_counts(T.counts(tiles), "the wall")
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
        self.rules.set_indicator(None)  # a ruleset instance may judge many hands, one at a time
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
        self.check_enums(kind, event)
        if kind == "auto_play":  # 托管 markers may come at any time
            self.table.seats[event.seat].auto_play = event.auto_play.on
            return
        if kind in DEAL_EVENTS and not isinstance(self.phase, Ended):
            return self.on_declaration(kind, event)
        if kind == "win" and self.deal_window and self.rules.has_instant_hands and isinstance(self.phase, Turn) \
                and event.seat != self.phase.seat:
            return self.on_opening_win(event)
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
            elif isinstance(phase, Dashai):
                if self.declare_on_dashai(kind, event, phase):
                    return
                self.close_dashai(phase)
            elif isinstance(phase, Turn):
                return self.on_turn(kind, event, phase)
            elif isinstance(phase, DrawDue):
                return self.on_draw_due(kind, event, phase)
            elif isinstance(phase, HaidiOffer):
                return self.on_haidi_offer(kind, event, phase)
            elif isinstance(phase, DashaiDue):
                return self.on_dashai_due(kind, event, phase)
            else:
                return self.on_after_end(kind, event)

    def check_enums(self, kind: str, event: pb.Event) -> None:
        """Proto3 keeps an enum value the schema does not define: it is a finding, never a crash."""
        field = ENUM_FIELDS.get(kind)
        if field is None:
            return
        name, enum = field
        value = getattr(getattr(event, kind), name)
        if value not in enum.values():
            self.flag("INVALID_VALUE", event.seat, f"{kind}.{name} is {value}, which {enum.DESCRIPTOR.name} does not "
                      f"define", fatal=True)

    def close_window(self, closer: pb.Event | None) -> None:
        """Resolve an open claim, rob or 打筛 window as if `closer` (or the end) came next."""
        phase = self.phase
        if isinstance(phase, Claim):
            self.close_claim(phase, closer)
        elif isinstance(phase, Rob):
            self.close_rob(phase, closer)
        elif isinstance(phase, Dashai):
            self.close_dashai(phase)

    def finish(self) -> None:
        self.close_window(None)
        phase = self.phase
        if isinstance(phase, DrawDue) and not phase.replacement and self.live() <= 0:
            self.end_drawn()  # the wall ran out: 荒庄, logged or not
        if not isinstance(self.phase, Ended):
            self.flag("HAND_INCOMPLETE", None, f"the record stops while {self.describe_phase()}", index=None)
            self.phase = None
            return
        if self.outcome.wins:
            self.settle_birds(None)

    def end_drawn(self) -> None:
        self.outcome.exhaustive = True
        self.outcome.haidi_taker = self.haidi_taker
        self.phase = Ended()

    def describe_phase(self) -> str:
        phase = self.phase
        if isinstance(phase, Turn):
            return f"seat {phase.seat} is to act"
        if isinstance(phase, (DrawDue, HaidiOffer)):
            return f"seat {phase.seat} is to draw"
        if isinstance(phase, DashaiDue):
            return f"seat {phase.konger} is to reveal its 打筛 tiles"
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

    # -- declarations outside the turn order: 正王 flip, 报听, 封东 ------------------------------
    def on_declaration(self, kind: str, event: pb.Event) -> None:
        seat, rules = event.seat, self.rules
        if kind == "indicator":
            if not rules.has_indicator or rules.indicator is not None or not self.deal_window:
                self.flag("ILLEGAL_ACTION", seat, "an indicator flip is not part of play here", fatal=True)
            tile = self.event_tile(event.indicator.tile, seat)
            self.take_indicator(seat, tile, event.indicator.wall_index)
            rules.set_indicator(tile)
            for s in range(4):
                self._waits[s] = None
            dealer = self.table.seats[self.table.dealer]
            self.drawn_tile_wins = rules.is_win(dealer.hand, dealer.melds)
            return
        s = self.table.seats[seat]
        if kind == "ready":
            if not rules.opening_ready:
                self.flag("ILLEGAL_ACTION", seat, f"{rules.name} has no ready declaration outside a discard",
                          fatal=True)
            self.flag_issue(rules.forbid(self, seat, A.Action(A.OPENING_READY)), seat)
            s.ready, s.ready_waits = True, self.waits_of(seat)
            return
        if not rules.has_feng_dong:
            self.flag("ILLEGAL_ACTION", seat, f"{rules.name} has no 封东", fatal=True)
        s.feng_dong = True
        if self.deal_window and all(x.feng_dong for x in self.table.seats):
            self.outcome.all_feng_dong = True  # all four at the start: the hand ends at once
            self.phase = Ended()

    def take_indicator(self, seat: int, tile: int, wall_index: int) -> None:
        """The flipped tile leaves play: check it against the wall and take it out."""
        wall = self.table.wall
        if wall.tiles and wall.tiles[0] == UNKNOWN:
            self.table.seen[tile] += 1
            wall.back -= 1
            return
        index = wall_index if wall_index else wall.back - 1
        if not wall.front <= index < wall.back:
            self.flag("DRAW_MISMATCH", seat, f"the indicator is flipped at wall[{index}], outside the undrawn wall",
                      fatal=True)
        if wall.tiles[index] != tile:
            self.flag("DRAW_MISMATCH", seat, f"the indicator is logged as {T.label(tile)} but wall[{index}] holds "
                      f"{T.label(wall.tiles[index])}")
        wall.remove(index)

    def on_opening_win(self, event: pb.Event) -> None:
        """A 起手 hand declared by a seat other than the one to act, right after the deal."""
        seat = event.seat
        s = self.table.seats[seat]
        instant = self.rules.instant_hands(s.hand, s.melds, opening=True)
        issue = self.rules.forbid(self, seat, A.Action(A.SELF_WIN))
        if not instant or issue:
            self.flag_issue(issue, seat, fatal=True)
            self.flag("FALSE_WIN", seat, f"seat {seat} declared a 起手 win with {s.concealed()}, which holds no "
                      f"instant hand", fatal=True)
        self.outcome.wins.append(WinInfo(seat, A.SELF_WIN, None, None, list(s.hand), list(s.melds), self.index,
                                         instant=instant))
        self.phase = Ended()

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
            if kong_kind == BORROWED:
                return A.Action(A.KONG_BORROWED, tile)
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
            self.apply_self_win(seat, phase)
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
        return self.rules.forbid(self, seat, A.Action(A.DISCARD, tile))

    def why_not_self_win(self, seat: int, phase: Turn):
        s = self.table.seats[seat]
        if not phase.drew:
            return "FALSE_WIN", f"seat {seat} declared 自摸 without drawing a tile"
        if not (self.rules.is_win(s.hand, s.melds) or self.rules.instant_hands(s.hand, s.melds, self.opening(seat))):
            return "FALSE_WIN", f"seat {seat} declared 自摸 with {s.concealed()}{self.melds_text(s)}, not a winning hand"
        return self.rules.forbid(self, seat, A.Action(A.SELF_WIN, self.last_draw[seat]))

    def opening(self, seat: int) -> bool:
        """Before the seat's first discard (起手)."""
        return self.deal_window or not self.table.seats[seat].discarded

    def why_not_own_kong(self, seat: int, action: A.Action, phase: Turn):
        s, tile = self.table.seats[seat], action.tile
        if not phase.drew:
            return "ILLEGAL_CALL", f"seat {seat} may not kong in the turn it called (only after a draw)"
        if action.kind == A.KONG_CONCEALED and s.hand[tile] != 4:
            return "ILLEGAL_CALL", f"暗杠 {T.label(tile)} needs four in hand; seat {seat} holds {s.hand[tile]}"
        if action.kind == A.KONG_ADDED and tile not in self.rules.added_kong_tiles(s.hand, s.melds,
                                                                                   self.last_draw[seat]):
            return "ILLEGAL_CALL", f"补杠 {T.label(tile)} needs a 碰 of it and the fourth tile in hand"
        if action.kind == A.KONG_BORROWED and not self.rules.may_borrow_kong(s.melds, tile):
            return "ILLEGAL_CALL", f"借子开杠 {T.label(tile)} needs a 碰 of the 正王"
        if self.rules.kong_draws != DASHAI and self.live() < 1:
            return "DRAW_FROM_RESERVE", "a kong with no live tile left for its replacement"
        from_hand = {A.KONG_CONCEALED: 4, A.KONG_ADDED: 1, A.KONG_BORROWED: 0}[action.kind]
        return self.why_not_ready_kong(seat, tile, from_hand) or self.rules.forbid(self, seat, action)

    def hand_after_kong(self, seat: int, tile: int, from_hand: int) -> tuple[list[int], list[Meld]]:
        s = self.table.seats[seat]
        after = list(s.hand)
        after[tile] -= from_hand
        melds = [m for m in s.melds if not (m.kind == PON and m.tile == tile)]
        return after, melds + [Meld(KONG, tile, None, CONCEALED)]

    def why_not_ready_kong(self, seat: int, tile: int, from_hand: int):
        s = self.table.seats[seat]
        if not (s.ready and self.rules.ready_kong_keeps_tenpai):
            return None
        if not self.rules.is_tenpai(*self.hand_after_kong(seat, tile, from_hand)):
            return "READY_KONG_BREAKS_TENPAI", f"after 杠 {T.label(tile)} seat {seat}'s hand waits on nothing"
        return None

    def why_not_ron(self, seat: int, tile: int, action: A.Action):
        if tile not in self.waits_of(seat):
            s = self.table.seats[seat]
            return "FALSE_WIN", (f"seat {seat} declared 胡 on {T.label(tile)} with {s.concealed()}"
                                 f"{self.melds_text(s)}, not a winning hand")
        s = self.table.seats[seat]
        if s.ron_locked is not None and (s.ron_locked == "all" or tile in s.ron_locked):
            return "RON_AFTER_MISSED_WIN", (f"seat {seat} passed a win and may not win on a discard until it "
                                            f"draws or changes its hand")
        return self.rules.forbid(self, seat, action)

    def can_ron(self, seat: int, tile: int, action: A.Action | None = None) -> bool:
        if tile not in self.waits_of(seat):
            return False  # the common answer, found without building anything
        return self.why_not_ron(seat, tile, action or A.Action(A.RON, tile)) is None

    def waits_of(self, seat: int) -> tuple[int, ...]:
        """The seat's waits, recomputed only when its own tiles have changed (they are
        asked for on every other seat's discard)."""
        s = self.table.seats[seat]
        cached = self._waits[seat]  # (version, tiles key, waits)
        if cached is not None and cached[0] == s.version:
            return cached[2]  # untouched since: the usual case for the three seats not acting
        key = (*s.hand, len(s.melds))
        if cached is None or cached[1] != key:  # a draw then a discard of it leaves the same tiles
            cached = (s.version, key, self.rules.waits(s.hand, s.melds))
        self._waits[seat] = (s.version, key, cached[2])
        return cached[2]

    def why_not_call(self, seat: int, action: A.Action, discarder: int):
        s, tile = self.table.seats[seat], action.tile
        if action.kind == A.CHI:
            if not self.rules.chi_allowed:
                return "CHI_FORBIDDEN", f"seat {seat} took {T.label(tile)} by 吃; {self.rules.name} has no 吃"
            if self.rules.chi_from_left_only and seat != self.table.next_seat(discarder):
                return "CHI_NOT_FROM_LEFT", f"吃 only from the 上家; seat {discarder} is not seat {seat}'s 上家"
            return self.rules.forbid(self, seat, action)
        if action.kind == A.PON:
            if s.hand[tile] < 2:
                return "ILLEGAL_CALL", f"碰 {T.label(tile)} needs a pair; seat {seat} holds {s.hand[tile]}"
            if s.ready and self.rules.ready_forbids_pon:
                return "READY_PON", f"seat {seat} is 听 and may not 碰"
            return self.rules.forbid(self, seat, action)
        if s.hand[tile] != 3:
            return "ILLEGAL_CALL", f"明杠 {T.label(tile)} needs three in hand; seat {seat} holds {s.hand[tile]}"
        if self.rules.kong_draws != DASHAI and self.live() < 1:
            return "DRAW_FROM_RESERVE", "a kong with no live tile left for its replacement"
        return self.why_not_ready_kong(seat, tile, 3) or self.rules.forbid(self, seat, action)

    @staticmethod
    def melds_text(s: Seat) -> str:
        return "".join(f" [{m}]" for m in s.melds)

    # -- legal action sets (for traces, the simulator, and explaining an illegal action) -----
    def legal_actions(self, seat: int, phase) -> list[A.Action]:
        s = self.table.seats[seat]
        legal: list[A.Action] = []
        if isinstance(phase, Turn) and phase.seat == seat:
            if self.why_not_self_win(seat, phase) is None:
                legal.append(A.Action(A.SELF_WIN, self.last_draw[seat]))
            kongs = [A.Action(A.KONG_CONCEALED, t) for t in range(T.KINDS) if s.hand[t] == 4]
            kongs += [A.Action(A.KONG_ADDED, t) for t in self.rules.added_kong_tiles(s.hand, s.melds,
                                                                                    self.last_draw[seat])]
            kongs += [A.Action(A.KONG_BORROWED, m.tile) for m in s.melds if self.rules.may_borrow_kong(s.melds, m.tile)]
            legal += [a for a in kongs if self.why_not_own_kong(seat, a, phase) is None]
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
            if self.can_ron(seat, phase.tile, A.Action(A.ROB_WIN, phase.tile)):
                legal.append(A.Action(A.ROB_WIN, phase.tile))
        elif isinstance(phase, Dashai):
            legal.append(A.Action(A.PASS))
            for tile in sorted(set(phase.tiles)):
                if seat == phase.konger and self.dashai_self_wins(seat, tile):
                    legal.append(A.Action(A.SELF_WIN, tile))
                elif seat != phase.konger and self.can_ron(seat, tile):
                    legal.append(A.Action(A.RON, tile))
        elif isinstance(phase, DrawDue) and seat == phase.seat:
            legal.append(A.Action(A.DRAW))
        elif isinstance(phase, HaidiOffer) and seat == phase.seat:
            legal += [A.Action(A.TAKE_HAIDI), A.Action(A.PASS)]
        elif isinstance(phase, DashaiDue) and seat == phase.konger:
            legal.append(A.Action(A.REVEAL))
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
        """A win the seat could have declared and did not: 漏胡, a violation under auto-play.

        Passing a win on a discard also starts the ruleset's 漏胡 lock, if it has one."""
        if win.kind == A.SELF_WIN:
            possible = phase.drew and self.drawn_tile_wins and \
                self.rules.forbid(self, seat, A.Action(A.SELF_WIN, win.tile)) is None
        else:
            possible = self.can_ron(seat, win.tile, win)
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
        if win.kind != A.SELF_WIN:
            rule = self.rules.missed_win_rule
            if rule == "any_until_draw":
                s.ron_locked = "all"
            elif rule == "same_kind_until_draw":
                s.ron_locked = (s.ron_locked if isinstance(s.ron_locked, set) else set()) | {win.tile}

    def hand_changed(self, seat: int) -> None:
        """A draw or a call: the 漏胡 lock ends."""
        self.table.seats[seat].ron_locked = None

    # -- applying actions -------------------------------------------------------------------
    def apply_discard(self, seat: int, action: A.Action) -> None:
        s = self.table.seats[seat]
        if s.hand[action.tile]:
            s.hand[action.tile] -= 1
        s.version += 1
        s.river.append(action.tile)
        s.discarded = True
        if action.kind == A.READY_DISCARD:
            s.ready = True
        last_tile = self.haidi_taker == seat and self.live() <= 0
        self.last_draw[seat] = None
        self.deal_window = False
        self.phase = Claim(seat, action.tile, self.index, {}, last_tile)

    def apply_self_win(self, seat: int, phase: Turn) -> None:
        s = self.table.seats[seat]
        tile = self.last_draw[seat]
        instant = () if self.rules.is_win(s.hand, s.melds) else self.rules.instant_hands(s.hand, s.melds,
                                                                                         self.opening(seat))
        self.outcome.wins.append(WinInfo(
            seat, A.SELF_WIN, tile, None, list(s.hand), list(s.melds), self.index,
            after_replacement=phase.replacement, last_tile=self.last_live_draw, instant=instant,
            opening=self.deal_window and seat == self.table.dealer, ready=s.ready))
        self.phase = Ended()

    def apply_own_kong(self, seat: int, action: A.Action) -> None:
        s, tile = self.table.seats[seat], action.tile
        self.hand_changed(seat)
        s.version += 1
        if action.kind == A.KONG_CONCEALED:
            s.hand[tile] = max(0, s.hand[tile] - 4)
            s.melds.append(Meld(KONG, tile, None, CONCEALED))
            self.outcome.kongs.append(KongInfo(seat, CONCEALED, tile, None, self.index))
            return self.after_kong(seat)
        if action.kind == A.KONG_BORROWED:
            self.upgrade_pon(s, tile, BORROWED)
            self.outcome.kongs.append(KongInfo(seat, BORROWED, tile, None, self.index))
            return self.after_kong(seat)
        s.hand[tile] = max(0, s.hand[tile] - 1)
        self.upgrade_pon(s, tile, ADDED)
        if ADDED in self.rules.robbable_kongs:
            self.phase = Rob(seat, tile, self.index, {})
        else:
            self.outcome.kongs.append(KongInfo(seat, ADDED, tile, None, self.index))
            self.after_kong(seat)

    @staticmethod
    def upgrade_pon(s: Seat, tile: int, kong_kind: str) -> None:
        for meld in s.melds:
            if meld.kind == PON and meld.tile == tile:
                meld.kind, meld.kong_kind = KONG, kong_kind
                return

    def after_kong(self, seat: int) -> None:
        """A completed kong takes its replacement from the back, or reveals two tiles (打筛)."""
        self.phase = DashaiDue(seat) if self.rules.kong_draws == DASHAI else DrawDue(seat, replacement=True)

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
            self.flag_issue(self.why_not_ron(seat, phase.tile, action), seat, fatal=True)
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
        """Does the closing event carry on this call (the caller discards, or resolves its kong)?"""
        if closer is None or closer.seat != seat:
            return False
        kind = closer.WhichOneof("kind")
        if action.kind == A.KONG_EXPOSED:
            return kind == "dashai" or (kind == "draw" and closer.draw.replacement)
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
        outranked = self.outranked(wins, phase.discarder, phase.last_tile) if taken is None else set()
        several = self.rules.allows_multiple_ron(last_tile=phase.last_tile)
        effective = {taken} if taken is not None else set(wins if several else wins[:1])
        for seat in self.others(phase.discarder):
            action = declared.get(seat, (A.Action(A.PASS), None))[0]
            self.note_claim_decision(seat, phase, effective)
            if action.kind != A.RON and seat not in outranked:
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
            if not self.rules.allows_multiple_ron(last_tile=phase.last_tile):
                self.yield_to_nearest(wins, phase.discarder, declared)
                wins = wins[:1]
            for seat in wins:
                self.add_ron(seat, phase.tile, phase.discarder, declared[seat][1], last_tile=phase.last_tile)
            self.phase = Ended()
            return
        self.phase = DrawDue(self.table.next_seat(phase.discarder), replacement=False)

    def add_ron(self, seat: int, tile: int, source: int, index: int, kind: str = A.RON, **flags) -> None:
        s = self.table.seats[seat]
        hand = list(s.hand)
        hand[tile] += 1
        self.outcome.wins.append(WinInfo(seat, kind, tile, source, hand, list(s.melds), index, ready=s.ready,
                                         **flags))

    def outranked(self, winners: list[int], source: int, last_tile: bool) -> set[int]:
        """Seats farther from the source than the nearest winner: without 一炮多响 they could
        not have won, so letting the tile go is no missed win (and starts no 漏胡 lock)."""
        if not winners or self.rules.allows_multiple_ron(last_tile=last_tile):
            return set()
        nearest = self.table.distance(source, winners[0])
        return {s for s in self.others(source) if self.table.distance(source, s) > nearest}

    def yield_to_nearest(self, winners: list[int], source: int, declared: dict) -> None:
        """Without 一炮多响 only the nearest seat in play order wins (截胡); a further win is a violation."""
        for seat in winners[1:]:
            at = declared[seat][1] if isinstance(declared[seat], tuple) else declared[seat][0][1]
            self.flag("MULTIPLE_RON", seat, f"seat {seat} also declared 胡 on seat {source}'s tile; only the "
                      f"nearest seat, {winners[0]}, wins (no 一炮多响)", index=at)

    def note_claim_decision(self, seat: int, phase, effective: set[int]) -> None:
        """The seat's choice in a claim or rob window, at the event that logged it: a declaration
        that took effect, one a higher claim outranked, or a pass implied by the next event."""
        if self.trace:
            action, at = phase.declared.get(seat, (A.Action(A.PASS), None))
            legal = tuple(str(a) for a in self.legal_actions(seat, phase))
            if legal == (A.PASS,) and action.kind == A.PASS:
                return  # nothing to decide
            window = {Claim: "claim", Rob: "rob", Dashai: "dashai"}[type(phase)]
            if at is None:
                effect = IMPLIED
            elif action.kind == A.PASS or seat in effective:
                effect = TOOK_EFFECT
            else:
                effect = DECLARED
            self.decisions.append(Decision(phase.index if at is None else at, seat, window, legal, str(action),
                                           effect))

    def others(self, seat: int) -> list[int]:
        return [(seat + k) % 4 for k in (1, 2, 3)]

    def apply_call(self, seat: int, call: A.Action, phase: Claim) -> None:
        s, tile = self.table.seats[seat], phase.tile
        river = self.table.seats[phase.discarder].river
        if river and river[-1] == tile:
            river.pop()  # a claimed tile leaves the discarder's river
        self.hand_changed(seat)
        s.version += 1
        self.last_draw[seat] = None
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
            self.after_kong(seat)

    # -- the rob-kong window after a 补杠 -------------------------------------------------------
    def declare_rob(self, kind: str, event: pb.Event, phase: Rob) -> bool:
        if event.seat == phase.konger or kind not in ("win", "pass"):
            return False
        seat = event.seat
        if seat in phase.declared:
            self.flag("ILLEGAL_ACTION", seat, f"seat {seat} declared twice on one kong", fatal=True)
        if kind == "win":
            action = A.Action(A.ROB_WIN, phase.tile)
            self.flag_issue(self.why_not_ron(seat, phase.tile, action), seat, fatal=True)
            phase.declared[seat] = (action, self.index)
        else:
            phase.declared[seat] = (A.Action(A.PASS), self.index)
        return True

    def close_rob(self, phase: Rob, closer: pb.Event | None) -> None:
        robbers = sorted((s for s, (a, _) in phase.declared.items() if a.kind == A.ROB_WIN),
                         key=lambda s: self.table.distance(phase.konger, s))
        outranked = self.outranked(robbers, phase.konger, False)
        several = self.rules.allows_multiple_ron(last_tile=False)
        for seat in self.others(phase.konger):
            action = phase.declared.get(seat, (A.Action(A.PASS), None))[0]
            self.note_claim_decision(seat, phase, set(robbers if several else robbers[:1]))
            if action.kind != A.ROB_WIN and seat not in outranked:
                self.check_missed_win(seat, A.Action(A.ROB_WIN, phase.tile), phase)
        konger = self.table.seats[phase.konger]
        if robbers:
            if not self.rules.allows_multiple_ron(last_tile=False):
                self.yield_to_nearest(robbers, phase.konger, phase.declared)
                robbers = robbers[:1]
            for meld in konger.melds:  # the robbed kong never completes (HB-A6)
                if meld.kind == KONG and meld.kong_kind == ADDED and meld.tile == phase.tile:
                    meld.kind, meld.kong_kind = PON, None
                    break
            for seat in robbers:
                self.add_ron(seat, phase.tile, phase.konger, phase.declared[seat][1], kind=A.ROB_WIN)
            self.phase = Ended()
            return
        self.outcome.kongs.append(KongInfo(phase.konger, ADDED, phase.tile, None, phase.index))
        self.after_kong(phase.konger)

    # -- 打筛: two revealed tiles instead of a replacement (Ningxiang) ----------------------------
    def on_dashai_due(self, kind: str, event: pb.Event, phase: DashaiDue) -> None:
        if kind != "dashai" or event.seat != phase.konger:
            self.flag("OUT_OF_TURN", event.seat, f"seat {event.seat} logged {kind} but seat {phase.konger} is to "
                      f"reveal its 打筛 tiles", fatal=True)
        logged = [self.event_tile(code, event.seat) for code in event.dashai.tiles]
        wall = self.table.wall
        count = min(2, wall.remaining)
        if len(logged) != count:
            self.flag("DRAW_MISMATCH", phase.konger, f"打筛 reveals {len(logged)} tiles; {count} were due",
                      fatal=True)
        tiles = []
        for t in logged:
            expected = wall.take_front()
            if expected == UNKNOWN:
                self.count_unlogged(phase.konger, t)
            elif expected != t:
                self.flag("DRAW_MISMATCH", phase.konger, f"打筛 reveals {T.label(t)} where the wall holds "
                          f"{T.label(expected)}")
            tiles.append(t)
        self.table.seats[phase.konger].dashai_locked = True
        self.phase = Dashai(phase.konger, tuple(tiles), self.index)

    def dashai_self_wins(self, konger: int, tile: int) -> bool:
        s = self.table.seats[konger]
        hand = list(s.hand)
        hand[tile] += 1
        return self.rules.is_win(hand, s.melds)

    def declare_on_dashai(self, kind: str, event: pb.Event, phase: Dashai) -> bool:
        if kind not in ("win", "pass"):
            return False
        seat = event.seat
        if kind == "pass":
            phase.declared.setdefault(seat, [])
            return True
        tile = self.event_tile(event.win.tile, seat) if event.win.tile else phase.tiles[0]
        if tile not in phase.tiles:
            self.flag("FALSE_WIN", seat, f"seat {seat} declared 胡 on {T.label(tile)}, which is not a revealed "
                      f"打筛 tile", fatal=True)
        if seat == phase.konger:
            if not self.dashai_self_wins(seat, tile):
                self.flag("FALSE_WIN", seat, f"seat {seat} declared 杠上开花 on {T.label(tile)}, which does not "
                          f"complete its hand", fatal=True)
            action = A.Action(A.SELF_WIN, tile)
        else:
            action = A.Action(A.RON, tile)
            self.flag_issue(self.why_not_ron(seat, tile, action), seat, fatal=True)
        phase.declared.setdefault(seat, []).append((action, self.index))
        return True

    def close_dashai(self, phase: Dashai) -> None:
        konger, declared = phase.konger, phase.declared
        own = [(a, i) for a, i in declared.get(konger, []) if a.kind == A.SELF_WIN]
        for tile in sorted(set(phase.tiles) - {a.tile for a, _ in own}):
            if self.dashai_self_wins(konger, tile):
                self.flag("MISSED_WIN", konger, f"seat {konger} could win on its 打筛 tile {T.label(tile)} and "
                          f"did not", index=phase.index)
        if own:  # 杠上开花: once per winning tile ("两张都能胡则算胡2次")
            s = self.table.seats[konger]
            for action, index in own:
                hand = list(s.hand)
                hand[action.tile] += 1
                self.outcome.wins.append(WinInfo(konger, A.SELF_WIN, action.tile, None, hand, list(s.melds), index,
                                                 after_replacement=True, ready=s.ready))
            self.phase = Ended()
            return
        claimants = sorted((s for s, items in declared.items() if s != konger and items),
                           key=lambda s: self.table.distance(konger, s))
        if not claimants:  # passing a 杠上炮 is a missed win too (and starts a 漏胡 lock)
            for seat in self.others(konger):
                for tile in sorted(set(phase.tiles)):
                    self.check_missed_win(seat, A.Action(A.RON, tile), phase)
        if claimants:
            winner = claimants[0]
            for seat in claimants[1:]:
                self.flag("DASHAI_RON_NOT_NEAREST", seat, f"seat {seat} won on seat {konger}'s 打筛 tile, but seat "
                          f"{winner} is nearer and wins it alone (杠上炮)", index=declared[seat][0][1])
            tile = self.rules.best_tile(self, winner, [a.tile for a, _ in declared[winner]], konger)
            self.add_ron(winner, tile, konger, declared[winner][0][1], on_kong_reveal=True)
            self.phase = Ended()
            return
        self.table.seats[konger].river.extend(phase.tiles)  # NX-A9: nobody may call them
        self.phase = DrawDue(self.table.next_seat(konger), replacement=False)

    # -- draws ------------------------------------------------------------------------------
    def on_draw_due(self, kind: str, event: pb.Event, phase: DrawDue) -> None:
        live = self.live()
        if not phase.replacement and live == 1 and self.rules.haidi_roaming:
            self.phase = HaidiOffer(phase.seat, phase.seat)  # the last tile roams the table
            return self.on_haidi_offer(kind, event, self.phase)
        if kind == "exhaustive_draw":
            if phase.replacement or live > 0:
                self.flag("ILLEGAL_EXHAUSTIVE_DRAW", event.seat, f"荒庄 declared with {max(live, 0)} live tiles "
                          f"left and seat {phase.seat} to draw", fatal=True)
            return self.end_drawn()
        if kind != "draw" or event.seat != phase.seat:
            if not phase.replacement and live <= 0:
                self.flag("EVENT_AFTER_END", event.seat, f"{kind} by seat {event.seat} after the wall ran out "
                          "(荒庄)", fatal=True)
            what = "its kong replacement" if phase.replacement else "a tile"
            self.flag("OUT_OF_TURN", event.seat, f"seat {event.seat} logged {kind} but seat {phase.seat} is to "
                      f"draw {what}", fatal=True)
        self.draw(phase.seat, event, phase.replacement)

    def draw(self, seat: int, event: pb.Event, replacement: bool) -> None:
        live = self.live()
        if event.draw.replacement != replacement:
            due = "a kong replacement from the back" if replacement else "a normal draw from the front"
            self.flag("DRAW_MISMATCH", seat, f"seat {seat}'s draw is logged as the other kind; {due} was due")
        if not replacement and live <= 0:
            self.flag("DRAW_FROM_RESERVE", seat, f"seat {seat} drew with no live tile left (the reserve of "
                      f"{self.table.wall.remaining} tiles must stay)")
        self.last_live_draw = not replacement and live == 1
        tile = self.take_tile(seat, event, replacement)
        s = self.table.seats[seat]
        self.drawn_tile_wins = tile in self.waits_of(seat)
        s.hand[tile] += 1
        s.version += 1
        self.last_draw[seat] = tile
        self.hand_changed(seat)
        self.phase = Turn(seat, drew=True, replacement=replacement)

    def on_haidi_offer(self, kind: str, event: pb.Event, phase: HaidiOffer) -> None:
        """海底漫游: the seat offered the last tile takes it (and draws) or declines it."""
        if event.seat != phase.seat or kind not in ("haidi", "draw"):
            self.flag("OUT_OF_TURN", event.seat, f"seat {event.seat} logged {kind} but the 海底 tile is offered "
                      f"to seat {phase.seat}", fatal=True)
        if kind == "draw" or event.haidi.accepted:
            self.haidi_taker = phase.seat
            self.phase = DrawDue(phase.seat, replacement=False)
            if kind == "draw":  # a platform that logs only the draw: taking it is accepting it
                self.draw(phase.seat, event, False)
            return
        following = self.table.next_seat(phase.seat)
        if following == phase.first:
            self.end_drawn()  # all four declined: 流局
        else:
            self.phase = HaidiOffer(following, phase.first)

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
            self.count_unlogged(seat, logged)
            return logged
        if logged is not None and logged != expected:
            self.flag("DRAW_MISMATCH", seat, f"seat {seat} drew {T.label(logged)} where the wall holds "
                      f"{T.label(expected)}")
            return logged
        return expected

    def count_unlogged(self, seat: int, tile: int) -> None:
        """Without a logged wall every revealed tile is counted: a fifth copy is a violation."""
        seen = self.table.seen
        seen[tile] += 1
        if seen[tile] > self.rules.copies:
            self.flag("TILE_CONSERVATION", seat, f"{T.label(tile)} appears as copy {seen[tile]}; the set has "
                      f"{self.rules.copies}")

    # -- after the hand: birds -------------------------------------------------------------------
    def on_after_end(self, kind: str, event: pb.Event) -> None:
        if kind == "birds" and self.outcome.wins and not self.outcome.birds_logged:
            return self.settle_birds(event)
        self.flag("EVENT_AFTER_END", event.seat, f"{kind} by seat {event.seat} after the hand ended", fatal=True)

    def settle_birds(self, event: pb.Event | None) -> None:
        """扎鸟: the birds come from the wall after the hand; a logged reveal must match it."""
        if event is not None:
            self.outcome.birds_logged = True
        elif self.outcome.birds_logged:
            return
        count = self.rules.bird_count(self.table.wall.remaining, self.outcome)
        if count == 0 and event is None:
            return
        wall = self.table.wall
        logged = [self.event_tile(code, event.seat) for code in event.birds.tiles] if event is not None else None
        due = [wall.tiles[wall.front + k] for k in range(count)]
        if logged is not None:
            if len(logged) != count:
                self.flag("BIRD_MISMATCH", None, f"{len(logged)} birds revealed; {count} were due")
            elif UNKNOWN not in due and logged != due:
                self.flag("BIRD_MISMATCH", None, f"birds revealed as {T.format_tiles(logged)} where the wall holds "
                          f"{T.format_tiles(due)}")
            birds = logged if UNKNOWN in due or len(logged) != count else due
        elif UNKNOWN in due:
            birds = []  # no wall and no reveal: nothing to count
        else:
            birds = due
        self.outcome.birds = list(birds)


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
        code, detail = rules.explain_mismatch(outcome, claimed) or ("SETTLEMENT_MISMATCH", "")
        flag(code, None, f"claimed {list(claimed.payments)}, recomputed {list(recomputed.payments)}"
             + (f"; {detail}" if detail else ""), index=None)
    if claimed.has_next_dealer and claimed.next_dealer != rules.next_dealer(outcome):
        flag("NEXT_DEALER_MISMATCH", None, f"the platform names seat {claimed.next_dealer} as next dealer; the "
             f"rule gives seat {rules.next_dealer(outcome)}", index=None)
