"""The replay loop: apply each logged event to the table, check it against the actions that
were legal at that point, collect violations, and settle the hand.

The loop knows no variant. A ruleset supplies its parts (the end of the wall, kong
resolution, wildcards, ready declarations, the 漏胡 rule, settlement add-ons), a few hooks,
and any phases of its own (referee/phases.py); legality comes from referee/legal.py. Violations
are values. A violation after which the table no longer follows the log (an event out of
turn, an impossible tile, a false win) halts the replay: later events are not judged and the
settlement is not recomputed, so one fault gives one finding.
"""
from __future__ import annotations

from dataclasses import replace
from functools import partial
from operator import itemgetter

from referee import SCHEMA_VERSION
from referee import actions as A
from referee import offers
from referee import tiles as T
from referee.codes import CODES
from referee.legal import DISCARD_OF, DRAW_ACTION, Legality
from referee.parts.ready import DECLARATION_CODES
from referee.phases import Claim, DealWindow, DrawDue, Ended, Phase, Rob, Turn
from referee.proto import record_pb2 as pb
from referee.outcome import CallInfo, KongInfo, Outcome, WinInfo
from referee.parts.missed import NoMissedWinRule
from referee.rules.base import Ruleset
from referee.state import ADDED, BORROWED, CHI, CONCEALED, DEALT, EXPOSED, KONG, KONG_LABELS, PON, Meld, Seat, Table, \
    Wall, deal_seats
from referee.verdict import (CLEAN, DECLARED, ERROR, IMPLIED, OVERRIDDEN, REFUSED, TOOK_EFFECT, UNREPLAYABLE,
                             VIOLATIONS, Decision, Verdict, Violation)

__all__ = ["Claim", "DrawDue", "Ended", "Halt", "Replay", "Rob", "Turn", "Unreplayable", "referee"]

UNKNOWN = -1  # a wall position the platform did not log
KONG_KINDS = {pb.CONCEALED: CONCEALED, pb.EXPOSED: EXPOSED, pb.ADDED: ADDED, pb.BORROWED: BORROWED}
KONG_ACTIONS = {CONCEALED: A.KONG_CONCEALED, ADDED: A.KONG_ADDED, BORROWED: A.KONG_BORROWED}
# Declarations outside the turn order, and what a ruleset without them is told.
NOT_HERE = {"indicator": "an indicator flip is not part of play here",
            "ready": "{name} has no ready declaration outside a discard",
            "feng_dong": "{name} has no 封东",
            "horses": "{name} has no horses (买马)"}
# The enum field of each event kind that has one, and the values its enum defines.
ENUM_FIELDS = {kind: (name, enum, frozenset(enum.values())) for kind, name, enum in (
    ("win", "kind", pb.WinKind), ("kong", "kind", pb.KongKind), ("discard", "ready", pb.ReadyKind),
    ("chi", "ready", pb.ReadyKind), ("ready", "kind", pb.ReadyKind), ("indicator", "kind", pb.IndicatorKind))}
# Values the schema defines that an event of the kind never carries, and why.
MISPLACED_VALUES = {
    "discard": ({pb.BAOTING}, "a discard declares 听 (TING) or 夹听 (JIATING); 报听 is an event of its own"),
    "chi": ({pb.BAOTING, pb.JIATING}, "a 吃 declares 听 (TING, 吃听) or nothing"),
    "ready": ({pb.READY_NONE, pb.TING, pb.JIATING}, "a ready event is 报听 (BAOTING); 听 comes with a discard"),
}
WIND_CODES = (pb.E, pb.S, pb.W, pb.N)  # the Tile codes a round_wind may hold (0: not logged, East)
FROM_CODE = T.FROM_CODE
EVENT_ORDER = itemgetter(0, 1, 2)  # a Decision's event_index, seat and window: the decisions table's order
PASS = A.Action(A.PASS)
DEAL_ORDER = tuple(tuple(deal_seats(dealer)) for dealer in range(4))
OTHERS = tuple(tuple((seat + k) % 4 for k in (1, 2, 3)) for seat in range(4))  # in play order
NEXT = tuple((seat + 1) % 4 for seat in range(4))
NOBODY: frozenset[int] = frozenset()  # the seats whose claim took effect, when nobody claimed
CLAIMS = frozenset(("pass", "win", "pon", "kong", "chi"))  # events that declare in a claim window
PLAIN = frozenset(("draw", "pass", "pon"))  # kinds with no enum, never a declaration: checked in the phase
WIN_KIND_LABELS = {pb.SELF_DRAW: "a 自摸 (SELF_DRAW)", pb.DISCARD: "a win on a discard (DISCARD)",
                   pb.ROB_KONG: "a 抢杠胡 (ROB_KONG)"}
READY_ACTIONS = {pb.TING: A.READY_DISCARD, pb.JIATING: A.JIATING_DISCARD, pb.BAOTING: A.READY_DISCARD}


class Unreplayable(Exception):
    """The record cannot be replayed at all; the message says why."""


class Halt(Exception):
    """Raised after a violation that leaves the table unable to follow the log."""


class Replay:
    def __init__(self, record: pb.GameRecord, rules: Ruleset, trace: bool = False, offers: bool | None = None):
        self.record = record
        self.rules = rules
        self.trace = trace
        # May an event carry the platform's offers? None: look at the events (a caller that read the
        # record's bytes knows it cheaper: offers.may_have_offers).
        self.offers = offers if offers is not None else any(len(e.offered) for e in record.events)
        self.violations: list[Violation] = []
        self.decisions: list[Decision] = []
        self.index: int | None = None
        self.drawn_tile_wins = False  # the active seat's latest draw completes its hand
        self.declaration_judged = False  # a 吃听 whose 听 was found illegal at the 吃: its discard is not judged again
        self.mismatched_draws: list[tuple[int, int]] = []  # (event, the wall's tile) of each DRAW_MISMATCH
        self.table: Table | None = None
        self.legality: Legality | None = None
        self.outcome = Outcome(dealer=record.dealer, draws_before=record.match_state.consecutive_draws)
        self.phase: Phase | None = None
        self.quiet = False  # take the usual events without the dispatch (set at the deal)

    # -- findings ---------------------------------------------------------------------------
    def flag(self, code: str, seat: int | None, detail: str, fatal: bool = False, index: int | None = -2) -> None:
        c = CODES[code]
        at = self.index if index == -2 else index
        self.violations.append(Violation(code, seat, at, f"{c.term} ({c.gloss}): {detail}", c.severity))
        if fatal:
            raise Halt

    def flag_issue(self, issue, seat: int, fatal: bool = False) -> bool:
        """Report a (code, detail) from the move generator or a hook; None is no issue."""
        if issue is None:
            return False
        code, detail = issue
        self.flag(code, seat, detail() if callable(detail) else detail, fatal)
        return True

    # -- the deal ---------------------------------------------------------------------------
    @staticmethod
    def _tiles(codes, where) -> list[int]:
        """Tile indices of proto codes; `where(position)` names the place of an impossible one."""
        tiles = list(map(FROM_CODE.get, codes))
        if None in tiles:
            at = tiles.index(None)
            raise Unreplayable(f"{where(at)} holds impossible tile code {codes[at]}")
        return tiles

    def _deal(self) -> Table:
        record, rules = self.record, self.rules
        if record.dealer > 3:
            raise Unreplayable(f"dealer seat {record.dealer} does not exist (seats are 0-3)")
        if record.players and len(record.players) != 4:
            raise Unreplayable(f"{len(record.players)} players listed; every variant seats 4")
        if record.schema_version not in (0, SCHEMA_VERSION):
            raise Unreplayable(f"the record says it was written with schema version {record.schema_version}; this "
                               f"referee reads version {SCHEMA_VERSION}, and fields of another may mean other things")
        seats = [Seat(i) for i in range(4)]
        dealer = record.dealer
        round_wind = T.from_proto(record.round_wind) if record.round_wind in WIND_CODES else T.from_proto(pb.E)
        if record.round_wind not in WIND_CODES and record.round_wind != pb.TILE_UNSPECIFIED:
            self.flag("INVALID_VALUE", None, f"round_wind is {record.round_wind}, which is no wind (E, S, W or N); the "
                      f"hand is judged with East", index=None)
        if record.wall:
            tiles = self._tiles(record.wall, lambda i: f"wall[{i}]")
            self._check_wall(tiles)
            if len(tiles) < DEALT:
                raise Unreplayable(f"the wall has {len(tiles)} tiles, too few to deal {DEALT}")
            wall = Wall(tiles)
            for s, tile in zip(DEAL_ORDER[dealer], tiles):
                seats[s].hand[tile] += 1
            wall.front = DEALT
            seats[dealer].drawn = tiles[DEALT - 1]  # the dealer's fourteenth comes last
            self._check_initial_hands(seats)
            return Table(seats, dealer, wall, round_wind)
        if len(record.initial_hands) != 4:
            raise Unreplayable("the record has neither a wall nor four initial hands")
        seen = [0] * T.KINDS
        for s, hand in enumerate(record.initial_hands):
            for t in self._tiles(hand.tiles, lambda _i, s=s: f"initial_hands[{s}]"):
                seats[s].hand[t] += 1
                seen[t] += 1
            want = 14 if s == dealer else 13
            if len(hand.tiles) != want:
                self.flag("TILE_COUNT", s, f"seat {s} was dealt {len(hand.tiles)} tiles, not {want}",
                          fatal=True, index=None)
        seats[dealer].drawn = T.from_proto(record.initial_hands[dealer].tiles[-1])
        table = Table(seats, dealer, Wall([UNKNOWN] * (rules.wall_size - DEALT)), round_wind)
        table.seen = seen
        self._check_counts(seen, "the dealt hands")
        return table

    def _check_initial_hands(self, seats: list[Seat]) -> None:
        """A record with a wall needs no initial_hands; any it logs must be the wall's deal."""
        for s, hand in enumerate(self.record.initial_hands[:4]):
            logged = T.counts(self._tiles(hand.tiles, lambda _i, s=s: f"initial_hands[{s}]"))
            if logged != seats[s].hand:
                self.flag("DRAW_MISMATCH", s, f"initial_hands[{s}] logs {T.format_counts(logged)}, but the wall deals "
                          f"seat {s} {T.format_counts(seats[s].hand)}", index=None)

    def _check_wall(self, tiles: list[int]) -> None:
        self._check_counts(T.counts(tiles), "the wall")
        if len(tiles) != self.rules.wall_size:
            self.flag("TILE_CONSERVATION", None, f"the wall has {len(tiles)} tiles; {self.rules.name} uses "
                      f"{self.rules.wall_size}", index=None)

    def _check_counts(self, counts: list[int], where: str) -> None:
        kinds = self.rules.kind_set
        if max(counts) <= self.rules.copies and len(kinds) == T.KINDS:
            return  # (the usual answer, without a look at each kind)
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
        # () -> tiles a normal draw may still take; a partial, since it is asked several times an event.
        self.live = partial(self.rules.wall_end.live, self.table.wall)
        self.legality = Legality(self.table, self.rules, self.live, lambda: self.phase)
        rules = self.rules
        # A 漏胡 rule that ignores moves is not called on every draw.
        self._moves_matter = type(rules.missed_win).moved is not NoMissedWinRule.moved
        # The quiet moves (quiet_draw, quiet_discard) skip the layers between an event and its
        # handler where they change nothing (they note the trace's decisions as the phases would);
        # an offer is judged by the phase that takes the event.
        self.quiet = not self.offers and "discard" not in rules.declarations
        self.rules.wilds.at_deal(self.table)
        self.phase = Turn.of(self.table.dealer, drew=True)
        self.wilds_changed()

    @property
    def view(self):
        return self.legality.view

    def step(self, event: pb.Event) -> None:
        kind = event.WhichOneof("kind")
        if self.quiet and (kind == "draw" and self.quiet_draw(event) or kind == "discard" and self.quiet_discard(event)):
            return
        if kind not in PLAIN:
            self.screen(kind, event)
            if kind == "auto_play" or (kind in self.rules.declarations and not isinstance(self.phase, Ended)
                                       and self.rules.declarations[kind](self, event)):
                return
        elif event.seat > 3:
            self.flag("OUT_OF_TURN", None, f"seat {event.seat} does not exist (seats are 0-3)", fatal=True)
        elif kind == "pass" and self.table.deal_window and self.deal_pass(event):
            return
        self.dispatch(kind, event)

    def deal_pass(self, event: pb.Event) -> bool:
        """A 过 logged in the deal window by a seat other than the one to act, where it may declare
        something (宁乡's 报听, 起手 hands, 封东 at any time): it declines that. Its offers are judged
        against what it may declare there."""
        phase, seat = self.phase, event.seat
        if type(phase) is not Turn or seat == phase.seat or not (
                "feng_dong" in self.rules.declarations or len(self.legality.deal_actions(seat)) > 1):
            return False
        if self.offers and len(event.offered):
            self.violations += offers.diff(self, DealWindow(self.index), event)
        self.note_deal_decision(seat, PASS)
        return True

    def dispatch(self, kind: str, event: pb.Event) -> None:
        """Hand the event to the phase: an open window takes it as a declaration or is closed by it.
        The platform's offers, when the event carries them, are judged against the legal set of
        the phase that takes it (referee/offers.py)."""
        offered = self.offers and len(event.offered)
        while True:
            phase = self.phase
            if not phase.window:
                if offered:
                    self.violations += offers.diff(self, phase, event)
                return phase.on_event(self, kind, event)
            if offers.declare(self, phase, kind, event) if offered else phase.declare(self, kind, event):
                return
            phase.close(self, event)

    def screen(self, kind: str | None, event: pb.Event) -> None:
        """The checks every event of a kind with more to it than a tile gets first: it has a kind,
        a seat that exists, enum values the schema defines; 托管 markers; declarations a
        ruleset without them may not log."""
        if kind is None:
            self.flag("ILLEGAL_ACTION", None, "an event with no kind (unknown to schema v1?)", fatal=True)
        if event.seat > 3:
            self.flag("OUT_OF_TURN", None, f"seat {event.seat} does not exist (seats are 0-3)", fatal=True)
        if kind in ENUM_FIELDS:
            # Proto3 keeps an enum value the schema does not define: a finding, never a crash.
            name, enum, defined = ENUM_FIELDS[kind]
            value = getattr(getattr(event, kind), name)
            if value not in defined:
                self.flag("INVALID_VALUE", event.seat, f"{kind}.{name} is {value}, which {enum.DESCRIPTOR.name} "
                          f"does not define", fatal=True)
            if kind in MISPLACED_VALUES and value in MISPLACED_VALUES[kind][0] and (
                    kind not in NOT_HERE or kind in self.rules.declarations):  # (else NOT_HERE's finding below)
                self.flag("INVALID_VALUE", event.seat, f"{kind}.{name} is {enum.Name(value)}: "
                          f"{MISPLACED_VALUES[kind][1]}", fatal=True)
        if kind == "win" and event.win.kind == pb.ROB_KONG and not isinstance(self.phase, Rob):
            self.check_rob(event)
        if kind == "auto_play":  # 托管 markers may come at any time
            self.table.seats[event.seat].auto_play = event.auto_play.on
        elif kind in NOT_HERE and kind not in self.rules.declarations and not isinstance(self.phase, Ended):
            self.flag("ILLEGAL_ACTION", event.seat, NOT_HERE[kind].format(name=self.rules.name), fatal=True)

    def check_rob(self, event: pb.Event) -> None:
        """A win logged as robbing a kong with no rob window open: if it answers a kong just made
        (a 暗杠, a 明杠 on a discard: kinds the rule book does not let be robbed), that is the
        finding; with no kong to rob the kind is wrong, and the phase then judges the event as it
        would any other win there."""
        events = self.record.events
        at = self.index - 1
        while at >= 0 and events[at].WhichOneof("kind") in ("pass", "win"):
            at -= 1  # other declarations on the same kong
        if at < 0 or events[at].WhichOneof("kind") != "kong" or events[at].seat == event.seat:
            self.flag("ILLEGAL_ACTION", event.seat, f"seat {event.seat}'s win is logged as 抢杠胡, but no kong is "
                      f"being made to rob")
            return
        kong = events[at].kong
        label = {pb.CONCEALED: "暗杠", pb.EXPOSED: "明杠", pb.ADDED: "补杠", pb.BORROWED: "借子杠"}.get(kong.kind, "杠")
        robbable = "/".join(KONG_LABELS[k] for k in self.rules.robbable_kongs) or "no kong"
        tile = FROM_CODE.get(kong.tile)
        if self.trace and tile is not None:  # the decision the finding is about, where the replay stops
            rob, phase = A.Action(A.ROB_WIN, tile), self.phase
            if type(phase) is Claim and event.seat != phase.discarder:  # a 直杠: the discard's window, still open
                for seat, (action, at) in phase.declared.items():  # the kong itself, and any other choice logged
                    self.note_window_decision(seat, phase, action, at)
                self.note_window_decision(event.seat, phase, rob, self.index, REFUSED)
            else:
                self.decisions.append(Decision(self.index, event.seat, Rob.name, (A.PASS,), A.label(rob), REFUSED))
        self.flag("ROB_NOT_ROBBABLE", event.seat, f"seat {event.seat} declared 抢杠胡 on seat {events[at].seat}'s "
                  f"{label}; in {self.rules.name} only a {robbable} can be robbed", fatal=True)

    def close_window(self, closer: pb.Event | None) -> None:
        """Resolve an open window as if `closer` (or the end) came next."""
        if self.phase is not None and self.phase.window:
            self.phase.close(self, closer)

    def finish(self) -> None:
        self.close_window(None)
        self.outcome.indicator, self.outcome.round_wind = self.table.indicator, self.table.round_wind
        for part in self.rules.before_play:
            part.at_finish(self)  # e.g. horses that were never set aside
        self.outcome.ready = [s.ready for s in self.table.seats]
        phase = self.phase
        if isinstance(phase, DrawDue) and not phase.replacement and self.live() <= 0:
            self.end_drawn()  # the wall ran out: 荒庄, logged or not
        if not isinstance(self.phase, Ended):
            self.flag("HAND_INCOMPLETE", None, f"the record stops while {self.describe_phase()}", index=None)
            self.phase = None
            return
        for part in self.rules.after_hand:
            part.at_finish(self)

    def end_drawn(self) -> None:
        self.outcome.exhaustive = True
        self.outcome.haidi_taker = self.table.haidi_taker
        self.phase = Ended()

    def end(self) -> None:
        """The hand is over (a win, or a declaration that ends it)."""
        self.phase = Ended()

    def describe_phase(self) -> str:
        return self.phase.describe()

    # -- tiles from events ------------------------------------------------------------------
    def event_tile(self, code: int, seat: int) -> int:
        t = FROM_CODE.get(code)
        if t is None:
            self.flag("IMPOSSIBLE_TILE", seat, f"tile code {code} is no tile", fatal=True)
        if t not in self.rules.kind_set:
            self.flag("IMPOSSIBLE_TILE", seat, f"{T.label(t)} is not used in {self.rules.name}", fatal=True)
        return t

    def wilds_changed(self) -> None:
        """The wildcards were set or changed: cached waits are stale, and the dealer's dealt
        fourteen may now win."""
        self.legality.forget_waits()
        if isinstance(self.phase, Turn) and self.phase.drew:
            s = self.table.seats[self.phase.seat]
            self.drawn_tile_wins = self.legality.is_win(s.hand, s.melds) or self.legality.instant_win(self.phase.seat)

    # -- compatibility views used by tools and tests ----------------------------------------
    @property
    def last_draw(self) -> list[int | None]:
        return [s.drawn for s in self.table.seats]

    def legal_actions(self, seat: int, phase: Phase | None = None) -> list[A.Action]:
        return (phase or self.phase).legal(self, seat)

    def waits_of(self, seat: int) -> tuple[int, ...]:
        return self.legality.waits(seat)

    def can_ron(self, seat: int, tile: int, action: A.Action | None = None) -> bool:
        return self.legality.can_ron(seat, tile, action)

    def hand_after_kong(self, seat: int, tile: int, from_hand: int):
        return self.legality.hand_after_kong(seat, tile, from_hand)

    # -- quiet moves: the usual events, taken without the dispatch --------------------------------
    def quiet_draw(self, event: pb.Event) -> bool:
        """The next seat's draw after a discard nobody declared on and nobody waits on: the
        window closes with nothing to check (close_claim) and the draw is due (due_draw). False
        when the event is anything else: the phases take it."""
        phase = self.phase
        if type(phase) is not Claim or phase.declared:
            return False
        seat, tile, others = NEXT[phase.discarder], phase.tile, OTHERS[phase.discarder]
        if event.seat != seat or self.legality.waiting_on(tile, others):
            return False
        if self.trace:  # each seat that could call let the tile go (close_claim notes the same)
            may_call = self.legality.may_call
            for other in others:
                if may_call(other, tile, phase.discarder):
                    self.note_claim_decision(other, phase, NOBODY)
        self.due_draw(seat)
        due = self.phase
        if type(due) is DrawDue and due.seat == seat and not due.replacement:
            if self.trace:
                self.note_draw_decision(due, DRAW_ACTION)
            self.draw(seat, event, False, self.live())
        else:  # a part's step comes first (a 宝 flip, the 海底 offer): the phase takes the event
            self.dispatch("draw", event)
        return True

    def quiet_discard(self, event: pb.Event) -> bool:
        """A plain discard by the seat to act, of a tile that exists, when the drawn tile does not
        win (so no 漏胡 to check): what on_turn would do, without the dispatch. False otherwise."""
        phase, discard = self.phase, event.discard
        if type(phase) is not Turn or event.seat != phase.seat or discard.ready or phase.ready_call or \
                phase.drew and self.drawn_tile_wins:
            return False
        tile = FROM_CODE.get(discard.tile)
        if tile is None or tile not in self.rules.kind_set:
            return False
        if self.trace:
            self.note_decision(phase.seat, "turn", phase, DISCARD_OF[tile])
        self.discard(phase.seat, DISCARD_OF[tile], phase)
        return True

    # -- the active seat's turn ---------------------------------------------------------------
    def turn_action(self, kind: str, event: pb.Event, phase: Turn) -> A.Action:
        seat = phase.seat
        if kind == "discard":
            tile = self.event_tile(event.discard.tile, seat)
            action = READY_ACTIONS.get(event.discard.ready, A.DISCARD)
            if phase.ready_call and action == A.DISCARD:
                action = A.READY_DISCARD  # the discard after a 吃听 declares 听 by itself ("吃后自动报听")
            return A.Action(action, tile)
        if kind == "win":
            self.check_win_kind(event, A.SELF_WIN, "on its own tiles")
            drawn = self.table.seats[seat].drawn
            self.check_own_win_tile(event, drawn)
            return A.Action(A.SELF_WIN, drawn)
        if kind == "kong":
            tile = self.event_tile(event.kong.tile, seat)
            action = KONG_ACTIONS.get(KONG_KINDS.get(event.kong.kind))
            if action is None:
                self.illegal(seat, f"a {pb.KongKind.Name(event.kong.kind)} kong with no discard to take", phase)
            return A.Action(action, tile)
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
        legality = self.legality
        refused = legality.why_not_self_win(seat, phase) if action.kind == A.SELF_WIN else None
        if self.trace:  # (a win the rules refuse is the finding at this event, where the replay stops)
            self.note_decision(seat, "turn", phase, action, REFUSED if refused else TOOK_EFFECT)
        if phase.drew and self.drawn_tile_wins and action.kind != A.SELF_WIN:
            drawn = self.table.seats[seat].drawn
            self.check_missed_win(seat, A.Action(A.SELF_WIN, drawn), phase,
                                  marks=self.rules.wilds.declined_draw_is_pass(self.view, seat, drawn))
        if action.kind in A.DISCARDS:
            self.discard(seat, action, phase)
        elif action.kind == A.SELF_WIN:
            self.flag_issue(refused, seat, fatal=True)
            self.apply_self_win(seat, phase)
        else:
            for issue in legality.every_issue(legality.why_not_own_kong(seat, action, phase), seat, action):
                self.flag_issue(issue, seat)
            self.apply_own_kong(seat, action)

    def discard(self, seat: int, action: A.Action, phase: Turn) -> None:
        judged = action
        if phase.ready_call and self.declaration_judged:  # one 吃听, one finding (at the 吃): not its 听 again
            judged = DISCARD_OF[action.tile]
        self.flag_issue(self.legality.why_not_discard(seat, judged), seat)
        self.apply_discard(seat, action, phase.replacement)

    def note_decision(self, seat: int, window: str, phase, taken: A.Action, effect: str = TOOK_EFFECT) -> None:
        if self.trace:
            legal = tuple(map(A.label, phase.legal(self, seat)))
            self.decisions.append(Decision(self.index, seat, window, legal, A.label(taken), effect))

    def check_missed_win(self, seat: int, win: A.Action, phase, possible: bool | None = None,
                         marks: bool = True, at: int | None = None) -> None:
        """A win the seat could have declared and did not: 漏胡, a violation under auto-play where
        the system must win for the seat (Ruleset.auto_play_wins). The finding is at `at`, the
        event where the seat logged its choice instead (a 过, a call), as the trace notes it; with
        nothing logged, at the discard or kong that offered the win, or the turn's own event.

        Passing a win also marks the seat under the ruleset's 漏胡 rule, if it has one (unless
        `marks` is False: the part marks it later). A part's own window (e.g. 冲宝) says whether
        the win was `possible`."""
        legality = self.legality
        if possible is not None:
            pass
        elif win.kind == A.SELF_WIN:
            possible = phase.drew and self.drawn_tile_wins and \
                legality.win_issue(seat, win, win.tile) is None and \
                self.rules.forbid(self.view, seat, A.Action(A.SELF_WIN, win.tile)) is None
        else:
            possible = legality.can_ron(seat, win.tile, win)
        if not possible:
            return
        s = self.table.seats[seat]
        what = f"on {T.label(win.tile)}" if win.tile is not None else "on the drawn tile"
        instant = win.kind == A.SELF_WIN and legality.instant and not legality.holds_win(seat) and \
            legality.instant_hands(seat)
        if instant:  # a hand that wins with no shape
            what = "with " + "+".join(instant)
        index = at if at is not None else self.index if win.kind == A.SELF_WIN else phase.index
        if self.legality.must_win(seat):
            self.flag("AUTO_WIN_MISSED", seat, f"seat {seat} was in auto-play and could win {what}; "
                      f"the system must win for it", index=index)
        else:
            self.flag("MISSED_WIN", seat, f"seat {seat} could win {what} and did not", index=index)
        if marks and (self.rules.missed_win.special_tiles or not phase.special_tile):
            self.rules.missed_win.passed(s, win)

    def moved(self, seat: int) -> None:
        """A draw, a call or a kong (动牌): the seat's hand changed."""
        s = self.table.seats[seat]
        s.version += 1
        if self._moves_matter:
            self.rules.missed_win.moved(s)

    # -- applying actions -------------------------------------------------------------------
    def apply_discard(self, seat: int, action: A.Action, after_kong: bool = False) -> None:
        s, table = self.table.seats[seat], self.table
        table.kong_discard = after_kong
        if s.hand[action.tile]:
            s.hand[action.tile] -= 1
        s.version += 1
        s.river.append(action.tile)
        s.discarded = True
        if action.kind in A.DECLARES and not s.ready:  # a second declaration (READY_TWICE) changes nothing
            s.ready = A.DECLARES[action.kind]
            s.ready_waits = self.rules.lock_waits(s.ready, s.hand, s.melds, self.legality.waits(seat))
        last_tile = table.haidi_taker == seat and self.live() <= 0
        s.drawn = None
        if table.deal_window:
            self.play_begins(seat)
            table.deal_window = False
        self.phase = Claim(seat, action.tile, self.index, {}, last_tile)

    def play_begins(self, seat: int, at: int | None = None) -> None:
        """The deal window closes: the dealer's first discard, or a win on the dealt tiles (`at`: its
        event, when it is not the current one)."""
        self.rules.wilds.play_begins(self, seat)
        if self.trace:  # the seats that declared nothing there let their chance go
            noted = {d.seat for d in self.decisions if d.window == DealWindow.name}
            for other in self.others(self.table.dealer):
                if other not in noted:
                    self.note_window_decision(other, DealWindow(self.index if at is None else at), PASS, None)

    def note_deal_decision(self, seat: int, action: A.Action, declared: str = TOOK_EFFECT) -> None:
        """A declaration in the deal window (报听, a 起手 hand), for the trace."""
        if self.trace and self.table.deal_window and seat != self.table.dealer:
            self.note_window_decision(seat, DealWindow(self.index), action, self.index, declared)

    def apply_self_win(self, seat: int, phase: Turn) -> None:
        s = self.table.seats[seat]
        if self.table.deal_window:
            self.play_begins(seat)
        legality = self.legality
        instant = self.rules.instant_hands(self.view, s.hand, s.melds, legality.opening(seat))
        drawn_wild = s.drawn is not None and self.rules.drawn_wild_wins(self.view, seat, s.drawn)
        self.add_win(seat, A.SELF_WIN, s.drawn, None, self.index, in_hand=True,
                     after_replacement=phase.replacement, last_tile=self.table.last_live_draw, instant=instant,
                     opening=self.table.deal_window and seat == self.table.dealer, drawn_wild=drawn_wild)
        self.end()

    def add_win(self, seat: int, kind: str, tile: int | None, source: int | None, index: int,
                in_hand: bool = False, **flags) -> None:
        """Record a winner; the winning tile is added to its hand unless it holds it already."""
        s = self.table.seats[seat]
        hand = list(s.hand)
        if not in_hand:
            hand[tile] += 1
        flags.setdefault("ready", s.ready)
        self.outcome.wins.append(WinInfo(seat, kind, tile, source, hand, list(s.melds), index,
                                         wilds=self.table.wilds, room=self.legality.room(s.melds), **flags))

    def apply_own_kong(self, seat: int, action: A.Action) -> None:
        s, tile = self.table.seats[seat], action.tile
        self.moved(seat)
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
        """A completed kong is resolved by the ruleset's part: a replacement, or 打筛. A kong with too
        few tiles left for that was flagged where it was made; the table cannot follow the log past it."""
        if self.rules.kong_draw.why_not_kong(self) is not None:
            raise Halt
        self.phase = self.rules.kong_draw.after_kong(self, seat)

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
            return A.Action(A.CHI_READY if event.chi.ready else A.CHI, run[0])
        return None

    def declare_claim(self, kind: str, event: pb.Event, phase: Claim) -> bool:
        """Take one seat's declaration in the window; False when the event closes the window."""
        if kind not in CLAIMS or event.seat == phase.discarder:
            return False
        if kind == "win" and event.win.kind == pb.SELF_DRAW:
            if self.rules.wilds.chongbao:
                return False  # no claim on the discard: a self-drawn win after it (冲宝 on a 宝 seen before a draw)
            self.check_win_kind(event, A.RON, f"on seat {phase.discarder}'s discard of {T.label(phase.tile)}")
        action = self.claim_action(kind, event, phase.tile)
        if action is None:
            return False
        seat = event.seat
        if seat in phase.declared:
            if action.kind == A.PASS and phase.declared[seat][0].kind == A.PASS:
                return False  # a second 过 answers what comes next (大连: its look at the 宝, 冲宝)
            self.flag("ILLEGAL_ACTION", seat, f"seat {seat} declared twice on one discard", fatal=True)
        self.check_claimed_tile(kind, event, phase.tile, "the discard is")
        if action.kind == A.RON:
            self.refuse_win(seat, phase, action, self.legality.why_not_ron(seat, phase.tile, action))
        elif action.kind != A.PASS:
            legality = self.legality
            for issue in legality.every_issue(legality.why_not_call(seat, action, phase.discarder), seat, action):
                self.flag_issue(issue, seat)
        phase.declared[seat] = (action, self.index)
        return True

    def check_win_kind(self, event: pb.Event, win: str, what: str) -> None:
        """A win logged with another kind than the only one (A.SELF_WIN, RON or ROB_WIN) its window
        takes (record.proto WinKind; WIN_UNSPECIFIED leaves it unsaid, and screen judged a 抢杠胡 outside
        a rob window): ILLEGAL_ACTION, and the win is judged as the window's."""
        logged, kind = event.win.kind, A.WIN_KINDS[win]
        if logged not in (pb.WIN_UNSPECIFIED, kind, pb.ROB_KONG):
            self.flag("ILLEGAL_ACTION", event.seat, f"seat {event.seat}'s win {what} is {WIN_KIND_LABELS[kind]}, "
                      f"but it is logged as {WIN_KIND_LABELS.get(logged, logged)}")

    def check_own_win_tile(self, event: pb.Event, drawn: int | None) -> None:
        """A self-drawn win names the tile it wins on, where it names one: the tile just drawn, or a
        tile the seat holds where no drawn tile is the winning one (record.proto Win.tile): at the
        deal, before the seat's first discard (an instant hand needs no winning tile), and for a
        drawn wildcard (摸宝: the 宝, or the tile it stands for)."""
        code, seat = event.win.tile, event.seat
        if not code:
            return
        logged = self.event_tile(code, seat)
        hand, legality = self.table.seats[seat].hand, self.legality
        if drawn is not None and legality.drawn_wild and self.rules.drawn_wild_wins(self.view, seat, drawn):
            return  # 摸宝: the 宝 drawn, or the tile it stands for
        if drawn is not None and (self.table.deal_window or legality.instant and legality.opening(seat)):
            drawn = None
        if logged != drawn if drawn is not None else not hand[logged]:
            held = f"the tile it drew is {T.label(drawn)}" if drawn is not None else f"it holds no {T.label(logged)}"
            self.flag("FALSE_WIN", seat, f"seat {seat} declared 自摸 on {T.label(logged)}, but {held}", fatal=True)

    def refuse_win(self, seat: int, phase, action: A.Action, issue) -> None:
        """A win declared in a window that may not be taken stops the replay there; the trace first
        notes the seat's legal set, the decision the finding is about."""
        if issue is not None:
            if self.trace:
                self.note_window_decision(seat, phase, action, self.index, REFUSED)
            self.flag_issue(issue, seat, fatal=True)

    def check_claimed_tile(self, kind: str, event: pb.Event, tile: int, what: str) -> None:
        """A claim or win must name the tile it takes (record.proto: "for DISCARD and ROB_KONG it must
        be the claimed tile"): another is ILLEGAL_CALL, or FALSE_WIN for a win."""
        seat = event.seat
        for code in self.claimed_tile_codes(kind, event):
            if code and self.event_tile(code, seat) != tile:
                self.flag("ILLEGAL_CALL" if kind != "win" else "FALSE_WIN", seat,
                          f"seat {seat} claimed {T.label(self.event_tile(code, seat))} but {what} "
                          f"{T.label(tile)}", fatal=True)

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
        """Does the closing event carry on this call (the caller discards, resolves its kong, or
        makes the 补杠 a rule book allows right after a 碰)?"""
        if closer is None or closer.seat != seat:
            return False
        if action.kind == A.KONG_EXPOSED:
            return self.rules.kong_draw.continues(closer)
        kind = closer.WhichOneof("kind")
        rules = self.rules
        return kind == "discard" or kind == "kong" and (action.kind == A.PON and rules.kong_after_pon
                                                        or action.kind in (A.PON, A.CHI) and rules.kong_after_call)

    def close_claim(self, phase: Claim, closer: pb.Event | None) -> None:
        declared, table = phase.declared, self.table
        if not declared:  # the common case: nobody claimed
            tile, waits = phase.tile, self.legality.waits
            for seat in OTHERS[phase.discarder]:
                if self.trace:
                    self.note_claim_decision(seat, phase, NOBODY)
                if tile in waits(seat):
                    self.check_missed_win(seat, A.Action(A.RON, tile), phase)
            self.due_draw(table.next_seat(phase.discarder))
            return
        wins = sorted((s for s, (a, _) in declared.items() if a.kind == A.RON),
                      key=lambda s: table.distance(phase.discarder, s))
        calls = {s: a for s, (a, _) in declared.items() if a.kind in A.CALLS}
        taken = next((s for s, a in calls.items() if self.continues(s, a, closer)), None)
        priority = self.rules.priority
        if taken is None and calls and not wins:
            taken = max(calls, key=lambda s: (priority[calls[s].kind], -table.distance(phase.discarder, s)))
        several = self.rules.allows_multiple_ron(last_tile=phase.last_tile)
        outranked = self.outranked(wins, phase.discarder, phase.last_tile) if taken is None else set()
        effective = {taken} if taken is not None else set(wins if several else wins[:1])
        # The claims a lower one took the tile from, against priority (CLAIM_PRIORITY below).
        higher = [] if taken is None else \
            [s for s, (a, _) in declared.items() if priority[a.kind] > priority[calls[taken].kind]]
        for seat in self.others(phase.discarder):
            action, at = declared.get(seat, (PASS, None))
            self.note_claim_decision(seat, phase, effective, higher)
            if action.kind != A.RON and seat not in outranked:
                self.check_missed_win(seat, A.Action(A.RON, phase.tile), phase, at=at)
        if taken is not None:
            call = calls[taken]
            for seat in higher:
                self.flag("CLAIM_PRIORITY", taken, f"seat {taken}'s {call} took the discard over seat {seat}'s "
                          f"{declared[seat][0]} (胡 > 碰/杠 > 吃)", index=declared[taken][1])
            self.apply_call(taken, call, phase)
            return
        if wins:
            if not several:
                self.yield_to_nearest(wins, phase.discarder, declared)
                wins = wins[:1]
            for seat in wins:
                self.add_win(seat, A.RON, phase.tile, phase.discarder, declared[seat][1], last_tile=phase.last_tile,
                             after_kong_discard=table.kong_discard,
                             last_discard=table.last_live_draw and self.live() <= 0,
                             face_tile=self.rules.discard_at_face(self.view, phase.tile))
            self.end()
            return
        self.due_draw(table.next_seat(phase.discarder))

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
            self.flag("MULTIPLE_RON", seat, f"seat {seat} also declared 胡 on seat {source}'s tile; only the "
                      f"nearest seat, {winners[0]}, wins (no 一炮多响)", index=declared[seat][1])

    def note_claim_decision(self, seat: int, phase, effective: set[int], overridden=()) -> None:
        """The seat's choice in a claim or rob window, at the event that logged it: a declaration
        that took effect, one a higher claim outranked, one a lower claim overrode, or a pass
        implied by the next event."""
        if self.trace:
            action, at = phase.declared.get(seat, (PASS, None))
            if at is None and type(phase) is Claim and not self.legality.may_claim(seat, phase.tile, phase.discarder):
                return  # nothing to decide: the hot path of a trace skips building the legal set
            self.note_window_decision(seat, phase, action, at, TOOK_EFFECT if seat in effective else
                                      OVERRIDDEN if seat in overridden else DECLARED)

    def note_window_decision(self, seat: int, phase, action: A.Action, at: int | None,
                             declared: str = TOOK_EFFECT) -> None:
        """A seat's choice in a window (`at`: the event that logged it; None: a pass implied by
        the event that closed it, noted at the one that opened it; `declared`: what became of a
        logged declaration other than a pass). Called only when tracing."""
        actions = self.legal_actions(seat, phase)
        legal = tuple(map(A.label, actions))
        if (not legal or legal[0] != A.PASS) and not self.legality.forced_win(seat, actions):
            legal = (A.PASS, *legal)  # a seat may always decline in a window (but a 托管 seat that must win)
        if legal == (A.PASS,) and action.kind == A.PASS:
            return  # nothing to decide
        effect = IMPLIED if at is None else TOOK_EFFECT if action.kind == A.PASS else declared
        self.decisions.append(Decision(phase.index if at is None else at, seat, phase.name, legal, A.label(action),
                                       effect))

    @staticmethod
    def others(seat: int) -> list[int]:
        return list(OTHERS[seat])

    def apply_call(self, seat: int, call: A.Action, phase: Claim) -> None:
        s, tile = self.table.seats[seat], phase.tile
        river = self.table.seats[phase.discarder].river
        if river and river[-1] == tile:
            river.pop()  # a claimed tile leaves the discarder's river
        self.moved(seat)
        s.drawn = None
        if call.kind in (A.CHI, A.CHI_READY):
            for t in (call.tile, call.tile + 1, call.tile + 2):
                if t != tile and s.hand[t]:
                    s.hand[t] -= 1
            s.melds.append(Meld(CHI, call.tile, phase.discarder, claimed_tile=tile))
            # 吃听: the discard that follows declares 听 (and fixes the waits).
            self.phase = Turn.of(seat, drew=False, ready_call=call.kind == A.CHI_READY)
            at = phase.declared[seat][1]
            self.declaration_judged = call.kind == A.CHI_READY and any(
                v.event_index == at and v.seat == seat and v.code in DECLARATION_CODES for v in self.violations)
        elif call.kind == A.PON:
            s.hand[tile] = max(0, s.hand[tile] - 2)
            s.melds.append(Meld(PON, tile, phase.discarder, claimed_tile=tile))
            self.phase = Turn.of(seat, drew=False)
        else:
            s.hand[tile] = max(0, s.hand[tile] - 3)
            s.melds.append(Meld(KONG, tile, phase.discarder, EXPOSED, claimed_tile=tile))
            self.outcome.kongs.append(KongInfo(seat, EXPOSED, tile, phase.discarder, self.index))
            self.after_kong(seat)
        meld = s.melds[-1]
        self.outcome.calls.append(CallInfo(seat, meld.kind, tile, phase.discarder, self.index,
                                           sum(m.is_open for m in s.melds)))

    # -- the rob-kong window after a 补杠 -------------------------------------------------------
    def declare_rob(self, kind: str, event: pb.Event, phase: Rob) -> bool:
        if event.seat == phase.konger or kind not in ("win", "pass"):
            return False
        seat = event.seat
        if seat in phase.declared:
            self.flag("ILLEGAL_ACTION", seat, f"seat {seat} declared twice on one kong", fatal=True)
        if kind == "win":
            action = A.Action(A.ROB_WIN, phase.tile)
            self.check_win_kind(event, A.ROB_WIN, f"on seat {phase.konger}'s 补杠 of {T.label(phase.tile)}")
            self.check_claimed_tile(kind, event, phase.tile, "the kong being robbed is of")
            self.refuse_win(seat, phase, action, self.legality.why_not_ron(seat, phase.tile, action))
            phase.declared[seat] = (action, self.index)
        else:
            phase.declared[seat] = (A.Action(A.PASS), self.index)
        return True

    def close_rob(self, phase: Rob, closer: pb.Event | None) -> None:
        robbers = sorted((s for s, (a, _) in phase.declared.items() if a.kind == A.ROB_WIN),
                         key=lambda s: self.table.distance(phase.konger, s))
        several = self.rules.allows_multiple_ron(last_tile=False)
        outranked = self.outranked(robbers, phase.konger, False)
        for seat in self.others(phase.konger):
            action, at = phase.declared.get(seat, (PASS, None))
            self.note_claim_decision(seat, phase, set(robbers if several else robbers[:1]))
            if action.kind != A.ROB_WIN and seat not in outranked:
                self.check_missed_win(seat, A.Action(A.ROB_WIN, phase.tile), phase, at=at)
        konger = self.table.seats[phase.konger]
        if robbers:
            if not several:
                self.yield_to_nearest(robbers, phase.konger, phase.declared)
                robbers = robbers[:1]
            for meld in konger.melds:  # the robbed kong never completes (HB-A6)
                if meld.kind == KONG and meld.kong_kind == ADDED and meld.tile == phase.tile:
                    meld.kind, meld.kong_kind = PON, None
                    break
            for seat in robbers:
                self.add_win(seat, A.ROB_WIN, phase.tile, phase.konger, phase.declared[seat][1])
            self.end()
            return
        self.outcome.kongs.append(KongInfo(phase.konger, ADDED, phase.tile, None, phase.index))
        self.after_kong(phase.konger)

    # -- draws ------------------------------------------------------------------------------
    def due_draw(self, seat: int) -> None:
        """A normal draw is due: the ruleset's end of the wall says in which form, and its
        wildcard part may put a step of its own first (a 宝 flip, a look at the 宝)."""
        self.phase = self.rules.wilds.before_draw(self, seat, self.rules.wall_end.draw_phase(self, seat))

    def on_draw_due(self, kind: str, event: pb.Event, phase: DrawDue) -> None:
        live = self.live()
        if kind == "exhaustive_draw":
            # (A replacement due with no live tile left follows a kong already flagged: 荒庄 is all that can follow.)
            if live > 0:
                self.flag("ILLEGAL_EXHAUSTIVE_DRAW", event.seat, f"荒庄 declared with {max(live, 0)} live tiles "
                          f"left and seat {phase.seat} to draw", fatal=True)
            return self.end_drawn()
        if kind == "kong" and event.seat == phase.seat and event.kong.kind == pb.BORROWED and not phase.replacement:
            return self.borrow_for_draw(phase, event)
        if kind != "draw" or event.seat != phase.seat:
            if not phase.replacement and live <= 0:
                self.flag("EVENT_AFTER_END", event.seat, f"{kind} by seat {event.seat} after the wall ran out "
                          "(荒庄)", fatal=True)
            what = "its kong replacement" if phase.replacement else "a tile"
            self.flag("OUT_OF_TURN", event.seat, f"seat {event.seat} logged {kind} but seat {phase.seat} is to "
                      f"draw {what}", fatal=True)
        if self.trace:
            self.note_draw_decision(phase, DRAW_ACTION)
        self.draw(phase.seat, event, phase.replacement, live)

    def borrow_for_draw(self, phase: DrawDue, event: pb.Event) -> None:
        """借子开杠 in place of the due draw: the borrowed indicator is the turn's tile (SPEC NX.2)."""
        seat = phase.seat
        action = A.Action(A.KONG_BORROWED, self.event_tile(event.kong.tile, seat))
        if self.trace:
            self.note_draw_decision(phase, action)
        self.flag_issue(self.legality.why_not_kong_here(seat, action), seat)
        self.apply_own_kong(seat, action)

    def note_draw_decision(self, phase: DrawDue, taken: A.Action) -> None:
        """A due draw is a decision only where a 借子开杠 may take its place (it needs a 碰)."""
        if self.legality.borrows and self.table.seats[phase.seat].melds and len(phase.legal(self, phase.seat)) > 1:
            self.note_decision(phase.seat, "draw", phase, taken)

    def draw(self, seat: int, event: pb.Event, replacement: bool, live: int | None = None) -> None:
        """Take the seat's draw (`live`: the live count before it, if the caller has it)."""
        table, draw = self.table, event.draw
        if live is None:
            live = self.live()
        if draw.replacement != replacement:
            due = "a kong replacement from the back" if replacement else "a normal draw from the front"
            self.flag("DRAW_MISMATCH", seat, f"seat {seat}'s draw is logged as the other kind; {due} was due")
        if not replacement and live <= 0:
            self.flag("DRAW_FROM_RESERVE", seat, f"seat {seat} drew with no live tile left (the reserve of "
                      f"{table.wall.remaining} tiles must stay)")
        tile = self.take_tile(seat, draw, replacement)
        # The 海底 tile: the draw that takes the last live tile (HB.1), a kong replacement too (TDH.6.1
        # "摸到牌墙中的最后一张牌").
        table.last_live_draw = live > 0 and self.live() <= 0
        s = table.seats[seat]
        wins = self.legality.draw_wins(seat, tile)
        s.hand[tile] += 1
        s.drawn, s.drawn_live = tile, live
        s.version += 1
        if self._moves_matter:
            self.rules.missed_win.moved(s)
        self.drawn_tile_wins = wins or self.legality.drawn_wild and self.rules.drawn_wild_wins(self.view, seat, tile) \
            or self.legality.instant_win(seat)
        self.phase = Turn.of(seat, True, replacement)

    def take_tile(self, seat: int, draw: pb.Draw, replacement: bool) -> int:
        """The drawn tile: the logged one, checked against the wall (or counted when there is none)."""
        wall = self.table.wall
        skip = self.rules.wall_end.replacement_skip if replacement else 0
        if wall.back - skip <= wall.front:
            self.flag("DRAW_FROM_RESERVE", seat, f"a kong replacement with no tile before the {skip} kept at the tail"
                      if skip else "a draw from an empty wall", fatal=True)
        expected = wall.take_back(skip) if replacement else wall.take_front()
        code = draw.tile
        if code and code in FROM_CODE and FROM_CODE[code] == expected:
            return expected  # the usual case: the logged tile is the wall's
        logged = self.event_tile(code, seat) if code else None
        if expected == UNKNOWN:
            if logged is None:
                self.flag("DRAW_MISMATCH", seat, "a draw with no tile, and the record has no wall", fatal=True)
            self.count_unlogged(seat, logged)
            return logged
        if logged is not None and logged != expected:
            self.flag("DRAW_MISMATCH", seat, f"seat {seat} drew {T.label(logged)} where the wall holds "
                      f"{T.label(expected)}")
            self.mismatched_draws.append((self.index, expected))
            return logged
        return expected

    def count_unlogged(self, seat: int, tile: int) -> None:
        """Without a logged wall every revealed tile is counted: a fifth copy is a violation."""
        seen = self.table.seen
        seen[tile] += 1
        if seen[tile] > self.rules.copies:
            self.flag("TILE_CONSERVATION", seat, f"{T.label(tile)} appears as copy {seen[tile]}; the set has "
                      f"{self.rules.copies}")

    # -- after the hand ---------------------------------------------------------------------
    def on_after_end(self, kind: str, event: pb.Event) -> None:
        for part in self.rules.after_hand:
            if part.on_event(self, kind, event):
                return
        self.flag("EVENT_AFTER_END", event.seat, f"{kind} by seat {event.seat} after the hand ended", fatal=True)


def referee(record: pb.GameRecord, rules: Ruleset, trace: bool = False, offers: bool | None = None) -> Verdict:
    """Replay one record under one ruleset and return its verdict (`offers`: see Replay).

    A draw logged as another tile than the wall's is DRAW_MISMATCH, and play goes on with the
    logged tile: usually what the seat was given. Where the play after it fits the wall's tile
    instead (the log's tile is what is wrong), that reading would blame every later move of the
    seat; so the hand is judged both ways and the reading with fewer findings is kept, the
    mismatch reported in either."""
    verdict, mismatched = judge_replay(record, rules, trace, offers)
    if not mismatched or len(verdict.errors) == len(mismatched):
        return verdict
    wall_read = pb.GameRecord()
    wall_read.CopyFrom(record)
    for index, tile in mismatched:
        wall_read.events[index].draw.tile = T.to_proto(tile)
    other, _ = judge_replay(wall_read, rules, trace, offers)
    if other.status == UNREPLAYABLE or len(other.errors) >= len(verdict.errors) - len(mismatched):
        return verdict
    found = [replace(v, message=f"{v.message}; the seat's play after it fits the wall's tile, so the hand is judged "
                                 f"with that") for v in verdict.violations if v.code == "DRAW_MISMATCH"]
    other.violations = sorted(found + other.violations,
                              key=lambda v: v.event_index if v.event_index is not None else len(record.events))
    other.status = VIOLATIONS
    return other


def judge_replay(record: pb.GameRecord, rules: Ruleset, trace: bool = False,
                 offers: bool | None = None) -> tuple[Verdict, list[tuple[int, int]]]:
    """One replay's verdict, and its mismatched draws (Replay.mismatched_draws)."""
    game_id = record.game_id
    replay = Replay(record, rules, trace, offers)
    try:
        replay.run()
    except Unreplayable as err:
        return Verdict(game_id, rules.name, UNREPLAYABLE, reason=str(err), event_count=len(record.events)), []
    # In event order (a window's choices are noted when it closes, a later event's sometimes first).
    decisions = sorted(replay.decisions, key=EVENT_ORDER) if replay.decisions else replay.decisions
    verdict = Verdict(game_id, rules.name, CLEAN, violations=replay.violations, decisions=decisions,
                      event_count=len(record.events))
    claimed = record.claimed if record.HasField("claimed") else None
    if claimed is not None and claimed.payments:
        verdict.claimed = tuple(claimed.payments)
    if isinstance(replay.phase, Ended):
        outcome = replay.outcome
        verdict.winners = tuple(sorted({w.seat for w in outcome.wins}))
        verdict.recomputed = rules.settle(outcome)
        verdict.next_dealer = rules.next_dealer(outcome)
        if claimed is not None:
            compare_claim(replay, claimed, verdict)
    verdict.status = VIOLATIONS if any(v.severity == ERROR for v in verdict.violations) else CLEAN
    return verdict, replay.mismatched_draws


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
    elif claimed.kong_payments and len(claimed.kong_payments) != 4:
        flag("CLAIM_MALFORMED", None, f"{len(claimed.kong_payments)} kong payments claimed; one per seat (4) "
             f"expected", index=None)
    elif claimed.kong_payments and tuple(claimed.kong_payments) != recomputed.kong_payments:
        # (checked where the nets agree: a wrong net is the one finding of a wrong payment)
        flag("SETTLEMENT_MISMATCH", None, f"the kong money (杠分) of the payments is claimed as "
             f"{list(claimed.kong_payments)}, recomputed {list(recomputed.kong_payments)}", index=None)
    if claimed.has_next_dealer and claimed.next_dealer != verdict.next_dealer:
        flag("NEXT_DEALER_MISMATCH", None, f"the platform names seat {claimed.next_dealer} as next dealer; the "
             f"rule gives seat {verdict.next_dealer}", index=None)
