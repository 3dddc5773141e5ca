"""`mjref simulate`: self-play hand records, deterministic by seed, played with the referee's own
legal actions.

A hand is played by driving a referee Replay: at each decision point the driver asks the
Replay which actions are legal for the seat(s) concerned, a simple policy picks one, the
chosen event is appended to the record and stepped through the Replay. The record is written
as a platform would log it: a shuffled wall in draw order, every event, the claimed result
from the ruleset's own settlement. Nothing here decides legality; only the policy is ours.
The same (ruleset, options, seed, hand index) always gives the same record, byte for byte.
"""
from __future__ import annotations

import pathlib
import random
import sys
from dataclasses import dataclass, replace
from itertools import repeat
from operator import floordiv
from typing import Iterator

from referee import REFEREE_VERSION, SCHEMA_VERSION
from referee import actions as A
from referee import archive, records, shapes
from referee import tiles as T
from referee.builder import fill_claim
from referee.match import MatchProgress
from referee.offers import offers_at
from referee.proto import record_pb2 as pb
from referee.options import option_pair, to_dict
from referee.outcome import Outcome
from referee.referee import Claim, DrawDue, Ended, Replay, Rob, Turn
from referee.rules import RULESETS, Ruleset, RulesetError, get_ruleset
from referee.state import ADDED
from referee.verdict import ERROR

OWN_KONGS = A.OWN_KONGS  # tiles each takes from the hand
DISCARDS = (A.DISCARD, A.READY_DISCARD)

# How a hand ended, as the tests and the docs name it.
SELF_DRAW, DISCARD_WIN, ROBBED_KONG, KONG_REPLACEMENT_WIN = "self-draw", "discard win", "robbed kong", \
    "kong replacement win"
EXHAUSTIVE_DRAW, MULTIPLE_WINNERS = "exhaustive draw", "multiple winners"
ENDINGS = (SELF_DRAW, DISCARD_WIN, ROBBED_KONG, KONG_REPLACEMENT_WIN, EXHAUSTIVE_DRAW, MULTIPLE_WINNERS)


class SimulationError(RuntimeError):
    """The driver produced a record its own referee rejects: a bug here or in the engine."""


class DeadEnd(SimulationError):
    """The referee offers a seat no legal move at all (a gap in a ruleset)."""


@dataclass(frozen=True)
class Policy:
    """How often the players do the optional things (the rest is heading for a win by shape)."""
    pass_win: float = 0.06  # decline a win (Hebei allows it: an info 漏胡 note)
    log_pass: float = 0.75  # a declined win is logged as an explicit 过
    call: float = 0.85  # take a 碰/吃 that lowers the hand's cost
    even_call: float = 0.4  # take one that keeps the cost (open hands make kongs and robbed kongs)
    kong: float = 0.9  # take a kong that does not raise the cost
    ready: float = 0.5  # declare 听 when a ready discard is legal
    opening_ready: float = 0.5  # declare 报听 after the deal when the ruleset has it and allows it
    auto_play: float = 0.12  # per hand: one seat goes into 托管 at some point
    steer: float = 0.9  # take a kong that can be robbed or wins on its replacement


DEFAULT_POLICY = Policy()


# -- the hand's cost: how far a hand is from winning (fewer is better) --------------------------
def hand_cost(rules: Ruleset, hand: list[int], open_hand: bool) -> int:
    """Tiles still missing, counted as shapes.standard_cost counts them (a ready 3k+1 hand is 1)."""
    cost = shapes.standard_cost(hand)
    if rules.seven_pairs and not open_hand:
        cost = min(cost, pairs_to_make(hand))
    return cost


def pairs_to_make(hand: list[int]) -> int:
    """Pairs a seven-pairs hand still lacks (four of a kind holds two)."""
    return 7 - sum(map(floordiv, hand, repeat(2, len(hand))))


def _neighbourhood(tile: int) -> slice:
    if T.is_honor(tile):
        return slice(tile, tile + 1)
    base = tile - tile % 9
    return slice(max(base, tile - 2), min(base + 8, tile + 2) + 1)


NEIGHBOURHOOD = tuple(_neighbourhood(t) for t in range(T.KINDS))  # the kinds a tile works with


def connectivity(hand: list[int], tile: int) -> int:
    """Held tiles a tile works with (same kind, or near it in its suit): low = safe to let go."""
    return sum(hand[NEIGHBOURHOOD[tile]]) - 1


def new_record(rules: Ruleset, options: dict[str, str], seed: int, index: int,
               match: MatchProgress | None = None, number: int = 0) -> tuple[pb.GameRecord, random.Random]:
    """An unplayed record for hand `index`: identity, dealer, a shuffled wall; and its random stream.

    An independent hand has no match id and dealer `index % 4`. A hand of a match (`match`, the
    match's progress, for match `number`) gets its match fields from it: hand index, dealer, round
    wind, 流局 in a row and running totals."""
    if match is None:
        rng = random.Random(f"mjref-simulate/{rules.name}/{seed}/{index}")  # never the global generator
        game_id = f"sim-{rules.name}-{seed}-{index:06d}"
    else:
        rng = random.Random(f"mjref-simulate/{rules.name}/{seed}/{number}/{match.hand_index}")
        game_id = f"{match.match_id}-{match.hand_index:03d}"
    record = pb.GameRecord(schema_version=SCHEMA_VERSION, game_id=game_id, hand_index=index,
                           platform=f"mjref-simulate {REFEREE_VERSION}", dealer=index % 4, round_wind=pb.E)
    if match is not None:
        match.stamp(record)
    record.ruleset.name = rules.name
    for key, value in sorted(options.items()):
        record.ruleset.options[key] = value
    for seat in range(4):
        record.players.add(player_id=f"sim-p{seat}")
    record.dice.extend([rng.randint(1, 6), rng.randint(1, 6)])
    wall = [t for t in rules.tile_kinds for _ in range(rules.copies)]
    rng.shuffle(wall)
    record.wall.extend(T.to_proto(t) for t in wall)
    return record, rng


def ending(outcome: Outcome) -> str:
    """The ENDINGS name of how a hand ended."""
    if not outcome.wins:
        return EXHAUSTIVE_DRAW
    if len({w.seat for w in outcome.wins}) > 1:
        return MULTIPLE_WINNERS
    win = outcome.wins[0]
    if win.kind == A.ROB_WIN:
        return ROBBED_KONG
    if win.kind == A.RON:
        return DISCARD_WIN
    return KONG_REPLACEMENT_WIN if win.after_replacement else SELF_DRAW


class SelfPlay:
    """Plays a hand to its end from wherever its Replay stands, logging each event it takes.

    Every phase of the shared replay loop is driven the same way for every ruleset: ask the
    Replay for the seat's legal actions, let the policy choose, log the event, step it. The
    fault injector uses the same driver to finish a hand after it forged one action.
    """

    def __init__(self, record: pb.GameRecord, rules: Ruleset, rng: random.Random,
                 policy: Policy = DEFAULT_POLICY, replay: Replay | None = None, offers: bool = False):
        self.record, self.rules, self.rng, self.policy = record, rules, rng, policy
        if replay is None:
            replay = Replay(record, rules, offers=False)
            replay.begin()
        self.replay = replay
        self.offers = offers  # log the actions offered at each decision (Event.offered)
        self.auto_play_at: tuple[int, int] | None = None  # (seat, its turn number) for 托管

    # -- logging ----------------------------------------------------------------------------
    def emit(self, event: pb.Event, phase=None) -> None:
        """Log one event and apply it. `phase`: the decision point the event answers; with offers on,
        the event carries what a correct platform offered the seat there (referee/offers.py)."""
        if phase is not None and self.offers:
            event.offered.extend(offers_at(self.replay, phase, event.seat))
        self.record.events.append(event)
        self.replay.index = len(self.record.events) - 1
        self.replay.step(event)

    def close_window(self, closer: pb.Event | None) -> None:
        """Resolve an open claim, rob or 打筛 window as the next event will, before that event is chosen.

        The caller of a 碰 must see its hand after the call to choose its discard; the
        Replay resolves a window when the next event arrives, so we resolve it with that
        event's seat and kind (its tile is not read) at the index it will have.
        """
        self.replay.index = len(self.record.events)
        self.replay.close_window(closer)

    def end(self) -> None:
        """Close the last window (a declared win ends the hand there) and settle."""
        self.replay.index = None
        self.replay.finish()

    def emit_due(self, parts) -> None:
        """Log every event these deal-time parts say a platform logs now (event_due, asked until None)."""
        for part in parts:
            event = part.event_due(self.replay)
            while event is not None:
                self.emit(event)
                event = part.event_due(self.replay)

    # -- the loop ---------------------------------------------------------------------------
    def open_hand(self) -> None:
        """The deal-time events: what the ruleset's wildcards and deal-time parts log at the deal
        (an indicator flip, horses set aside), then any 报听."""
        replay, rules = self.replay, self.rules
        self.emit_due((rules.wilds, *rules.before_play))
        if A.OPENING_READY in rules.ready.declares:
            action = A.Action(A.OPENING_READY)
            for seat in replay.others(self.record.dealer):
                if rules.ready.declaration_issue(replay.legality, seat, action, None, None) is None and \
                        self.rng.random() < self.policy.opening_ready:
                    self.emit(replay.phase.event_for(replay, seat, action))

    def play(self) -> Outcome:
        """Play to the end of the hand; return the outcome (the record holds the events)."""
        turns = [0, 0, 0, 0]
        while True:
            phase = self.replay.phase
            if isinstance(phase, Turn):
                if phase.drew:
                    turns[phase.seat] += 1
                    if self.auto_play_at == (phase.seat, turns[phase.seat]):
                        self.emit(pb.Event(seat=phase.seat, auto_play=pb.AutoPlay(on=True)))
                self.on_turn(phase)
            elif isinstance(phase, Claim):
                self.on_claim(phase)
            elif isinstance(phase, Rob):
                self.on_rob(phase)
            elif isinstance(phase, DrawDue):
                self.on_draw_due(phase)
            elif isinstance(phase, Ended):
                break
            elif phase is None:
                raise SimulationError(f"{self.record.game_id}: the replay halted: {self.replay.violations[-1:]}")
            elif phase.window:
                self.on_window(phase)
            else:
                self.on_choice(phase)
        self.end()
        self.log_after_hand()
        return self.replay.outcome

    # -- the active seat --------------------------------------------------------------------
    def seat(self, seat: int):
        return self.replay.table.seats[seat]

    def wants_win(self, seat: int) -> bool:
        """托管 always wins; a player now and then lets a win go."""
        return self.seat(seat).auto_play or self.rng.random() >= self.policy.pass_win

    def on_turn(self, phase: Turn) -> None:
        seat = phase.seat
        legal = self.replay.legal_actions(seat, phase)
        win = next((a for a in legal if a.kind == A.SELF_WIN), None)
        # (A seat with no legal discard, such as a 宁乡 报听 seat that drew a 纯王, must take its win.)
        if win is not None and (self.wants_win(seat) or not any(a.kind in A.DISCARDS for a in legal)):
            self.emit(phase.event_for(self.replay, seat, win), phase)
            return
        discard, cost = self.best_discard(seat, legal)
        kong = self.choose_own_kong(seat, legal, cost)
        if kong is not None:
            self.emit(phase.event_for(self.replay, seat, kong), phase)
            return
        self.emit(phase.event_for(self.replay, seat, self.discard_action(discard, legal)), phase)

    def discard_action(self, tile: int, legal: list[A.Action]) -> A.Action:
        """The discard, declaring 听 with it now and then where that is legal."""
        declare = [a for a in legal if a.tile == tile and a.kind in A.DECLARES]
        # After a 吃听 the discard must declare; otherwise now and then, the kind by chance if several.
        if declare and (A.Action(A.DISCARD, tile) not in legal or self.rng.random() < self.policy.ready):
            return declare[0] if len(declare) == 1 else self.rng.choice(declare)
        return A.Action(A.DISCARD, tile)

    def cost(self, hand: list[int], open_hand: bool) -> int:
        naturals, wilds = self.rules.split_wilds(hand, self.replay.table.wilds)
        return max(hand_cost(self.rules, naturals, open_hand) - wilds, 0)

    def best_discard(self, seat: int, legal: list[A.Action]) -> tuple[int, int]:
        """The legal discard leaving the cheapest hand (then most waits, then least connected)."""
        s = self.seat(seat)
        hand, open_hand = list(s.hand), any(m.is_open for m in s.melds)
        tiles = sorted({a.tile for a in legal if a.kind in DISCARDS})
        if not tiles:
            raise DeadEnd(f"{self.record.game_id}: seat {seat} has no legal discard "
                          f"({self.seat(seat).concealed()}, drew {self.replay.last_draw[seat]})")
        costs = self.discard_costs(hand, open_hand)
        waits_of_hand, melds, chance = self.replay.legality.waits_of_hand, s.melds, self.rng.random
        scored = []
        for t in tiles:
            cost = costs[t]
            if cost <= 1:  # only a hand one tile from ready may wait on something
                hand[t] -= 1
                scored.append((cost, -len(waits_of_hand(hand, melds)), chance(), t))
                hand[t] += 1
            else:
                scored.append((cost, 0, chance(), t))
        best = min(scored)[:2]
        # Connectivity breaks the ties of the best (cost, waits) only: it is asked of those alone.
        _, _, tile = min((connectivity(hand, t), chance, t) for cost, waits, chance, t in scored
                         if (cost, waits) == best)
        return tile, best[0]

    def discard_costs(self, hand: list[int], open_hand: bool) -> dict[int, int]:
        """self.cost of the hand less each held kind, from one look at the hand's parts."""
        wilds = self.replay.table.wilds
        naturals, count = self.rules.split_wilds(hand, wilds)
        costs = shapes.discard_costs(naturals)  # the held natural kinds: a new dict, ours to change
        if self.rules.seven_pairs and not open_hand:
            pairs = pairs_to_make(naturals)
            for t, cost in costs.items():
                costs[t] = min(cost, pairs + (1 - naturals[t] % 2))  # an even count loses a pair
        if count:
            for t, cost in costs.items():
                costs[t] = max(cost - count, 0)
            # A wildcard let go, of whichever wild kind: the naturals stay, one wild fewer.
            wild_let_go = max(hand_cost(self.rules, naturals, open_hand) - (count - 1), 0)
            for t in wilds:
                if hand[t]:
                    costs[t] = wild_let_go
        return costs

    def choose_own_kong(self, seat: int, legal: list[A.Action], discard_cost: int) -> A.Action | None:
        """A legal own kong that does not make the hand worse, taken now and then."""
        s = self.seat(seat)
        open_hand = any(m.is_open for m in s.melds)
        for action in legal:
            if action.kind not in OWN_KONGS:
                continue
            if self.kong_makes_a_story(seat, action.kind, action.tile) and self.rng.random() < self.policy.steer:
                return action
            hand = list(s.hand)
            hand[action.tile] -= OWN_KONGS[action.kind]
            cost = self.cost(hand, open_hand or action.kind != A.KONG_CONCEALED)
            if cost <= discard_cost and self.rng.random() < self.policy.kong:
                return action
        return None

    def kong_makes_a_story(self, seat: int, kind: str, tile: int) -> bool:
        """The generator's thumb on the scale, so rare endings show up in small corpora: a 补杠
        another seat can rob, or a kong whose replacement tile (read off the wall) completes the hand."""
        replay, rules = self.replay, self.rules
        if kind == A.KONG_ADDED and ADDED in rules.robbable_kongs and \
                any(tile in replay.waits_of(other) for other in replay.others(seat)):
            return True
        wall = replay.table.wall
        if not rules.kong_draw.draws_replacement or wall.remaining <= rules.wall_end.replacement_skip:
            return False
        hand, melds = replay.hand_after_kong(seat, tile, A.KONG_FROM_HAND[kind])
        hand = list(hand)
        hand[wall.tiles[wall.back - 1 - rules.wall_end.replacement_skip]] += 1
        return replay.legality.is_win(hand, melds)

    # -- the claim window after a discard -----------------------------------------------------
    def on_claim(self, phase: Claim) -> None:
        pending = self.pending_call(phase.declared)
        if pending is None:
            order = [s for s in self.replay.others(phase.discarder) if s not in phase.declared]
            may_claim = self.replay.legality.may_claim
            if not phase.declared and not any(may_claim(s, phase.tile, phase.discarder) for s in order):
                return self.close_window(None)  # 过 is all any seat may do: nothing to choose, no chance drawn
            options = {s: self.replay.legal_actions(s, phase) for s in order}
            several = self.rules.allows_multiple_ron(last_tile=phase.last_tile)
            declared = any(a.kind == A.RON for a, _ in phase.declared.values())
            if self.declare_wins(options, phase.tile, pb.DISCARD, several, declared, phase) or declared:
                return self.end()
            pending = self.choose_call(phase, options)
        if pending is None:
            return self.close_window(None)  # nobody takes the tile: the next seat draws
        seat, call = pending
        if call.kind == A.KONG_EXPOSED:  # the kind of event that carries a kong on (its tiles are not read)
            self.close_window(self.rules.kong_draw.closer(seat))
        else:
            self.close_window(pb.Event(seat=seat, discard=pb.Discard()))

    @staticmethod
    def pending_call(declared: dict) -> tuple[int, A.Action] | None:
        """A 碰/杠/吃 already declared in this window (a forged one, when the injector continues)."""
        calls = [(s, a) for s, (a, _) in declared.items() if a.kind in A.CALLS]
        return max(calls, key=lambda c: A.PRIORITY[c[1].kind]) if calls else None

    def declare_wins(self, options: dict[int, list[A.Action]], tile: int, kind: int, several: bool,
                     declared: bool = False, phase=None) -> list[int]:
        """Log the 胡 declarations of the seats that take their win, in play order; 过 for some that don't.

        Without 一炮多响 only one seat declares (none more when `declared`: one already has). A
        seat in 托管 must win, and the referee counts a seat a nearer winner outranks as having
        missed its win; so a seat in 托管 that can win is the one that does, and a nearer seat
        lets the tile go (an engine gap, docs/SIMULATE.md)."""
        able = [s for s, legal in options.items() if any(a.kind in (A.RON, A.ROB_WIN) for a in legal)]
        automatic = [s for s in able if self.seat(s).auto_play]
        only = None
        if not several and automatic:
            if declared or len(automatic) > 1:
                raise DeadEnd(f"{self.record.game_id}: seats {automatic} in 托管 can win where only one may")
            only = automatic[0]
        winners = []
        for seat in able:
            takes = seat == only if only is not None else (several or not (winners or declared)) and \
                self.wants_win(seat)
            if takes:
                winners.append(seat)
                self.emit(pb.Event(seat=seat, win=pb.Win(kind=kind, tile=T.to_proto(tile))), phase)
            elif self.rng.random() < self.policy.log_pass:
                self.emit(pb.Event(seat=seat, **{"pass": pb.Pass()}), phase)
        return winners

    def choose_call(self, phase: Claim, options: dict[int, list[A.Action]]) -> tuple[int, A.Action] | None:
        """The first seat (by priority, then play order) for which a legal call lowers its cost."""
        best = None
        for seat, legal in options.items():
            if seat in phase.declared:  # a seat that logged 过 on its win has used its one declaration
                continue
            for action in legal:
                if action.kind in A.CALLS and self.call_helps(seat, action, phase.tile):
                    key = (self.rules.priority[action.kind], -self.replay.table.distance(phase.discarder, seat))
                    if best is None or key > best[0]:
                        best = (key, seat, action)
        if best is None:
            return None
        _, seat, action = best
        self.emit(phase.event_for(self.replay, seat, action), phase)
        return seat, action

    def call_helps(self, seat: int, action: A.Action, tile: int) -> bool:
        s = self.seat(seat)
        hand = list(s.hand)
        before = self.cost(hand, any(m.is_open for m in s.melds))
        if action.kind in (A.CHI, A.CHI_READY):
            for t in (action.tile, action.tile + 1, action.tile + 2):
                if t != tile:
                    hand[t] -= 1
        else:
            hand[tile] -= 3 if action.kind == A.KONG_EXPOSED else 2
        if action.kind == A.KONG_EXPOSED:  # a replacement tile follows: keeping the cost is enough
            if self.kong_makes_a_story(seat, action.kind, tile) and self.rng.random() < self.policy.steer:
                return True
            return self.cost(hand, True) <= before and self.rng.random() < self.policy.kong
        if not any(hand):
            return False  # nothing left to discard (only after a forged call broke the tile count)
        after = min(self.discard_costs(hand, True).values())  # the best discard after the call
        if after < before:
            return self.rng.random() < self.policy.call
        return after == before and self.rng.random() < self.policy.even_call

    # -- the rob window after a 补杠 ------------------------------------------------------------
    def on_rob(self, phase: Rob) -> None:
        order = [s for s in self.replay.others(phase.konger) if s not in phase.declared]
        options = {s: self.replay.legal_actions(s, phase) for s in order}
        declared = any(a.kind == A.ROB_WIN for a, _ in phase.declared.values())
        several = self.rules.allows_multiple_ron(last_tile=False)
        if self.declare_wins(options, phase.tile, pb.ROB_KONG, several, declared, phase) or declared:
            return self.end()
        self.close_window(None)  # the kong stands: the konger resolves it

    # -- a ruleset's own phases ----------------------------------------------------------------
    def on_window(self, phase) -> None:
        """A window of the ruleset's own (e.g. on 打筛 tiles): the first seat in turn that can win
        and wants to takes every win it has; else nobody, and the window closes."""
        for seat in phase.order(self.replay):
            wins = [a for a in phase.legal(self.replay, seat) if a.kind in A.WINS]
            if not wins:
                continue
            if self.wants_win(seat):
                for action in wins:
                    self.emit(phase.event_for(self.replay, seat, action), phase)
                return self.end()
            if A.Action(A.PASS) in phase.legal(self.replay, seat) and self.rng.random() < self.policy.log_pass:
                self.emit(phase.event_for(self.replay, seat, A.Action(A.PASS)), phase)
        self.close_window(None)

    def on_choice(self, phase) -> None:
        """A one-seat decision of the ruleset's own (an 打筛 reveal, the 海底 offer)."""
        seat = phase.seat_to_act()
        legal = phase.legal(self.replay, seat)
        if A.Action(A.TAKE_HAIDI) in legal:  # take the last tile when it may win, else now and then
            take = bool(self.replay.waits_of(seat)) or self.rng.random() < 0.3
            action = A.Action(A.TAKE_HAIDI) if take else A.Action(A.PASS)
        elif len(legal) == 1:
            action = legal[0]
        else:
            raise DeadEnd(f"{self.record.game_id}: no policy for {phase.name} with {A.describe_set(legal)}")
        self.emit(phase.event_for(self.replay, seat, action), phase)

    # -- draws ------------------------------------------------------------------------------
    def on_draw_due(self, phase: DrawDue) -> None:
        replay = self.replay
        if not phase.replacement and replay.live() <= 0:
            self.emit(pb.Event(seat=self.record.dealer, exhaustive_draw=pb.ExhaustiveDraw()))
            return
        if replay.legality.borrows and not phase.replacement:  # a 借子开杠 in place of the draw, now and then
            borrow = next((a for a in phase.legal(replay, phase.seat) if a.kind == A.KONG_BORROWED), None)
            if borrow is not None and self.rng.random() < self.policy.kong:
                self.emit(phase.event_for(replay, phase.seat, borrow), phase)
                return
        self.emit(phase.event_for(replay, phase.seat, A.Action(A.DRAW)), phase)

    def log_after_hand(self) -> None:
        """What the platform shows after the hand (扎鸟 birds), from the wall."""
        for part in self.rules.after_hand:
            event = part.event_due(self.replay)
            if event is not None:
                self.emit(event)


def simulate_hand(rules: Ruleset, options: dict[str, str], seed: int, index: int,
                  policy: Policy = DEFAULT_POLICY, offers: bool = False, match: MatchProgress | None = None,
                  number: int = 0) -> tuple[pb.GameRecord, Outcome]:
    """One complete, clean hand record and its outcome (`offers`: log the offered actions at each
    decision; `match`, `number`: a hand of a match, see new_record).

    Where the referee leaves no clean way on (a DeadEnd: in Ningxiang a 报听 seat that draws a
    纯王, or two seats in 托管 able to win one discard), the hand is dealt again from the same
    seed without 报听 and 托管, so it stays deterministic.
    """
    record, rng = new_record(rules, options, seed, index, match, number)
    player = SelfPlay(record, rules, rng, policy, offers=offers)
    try:
        player.open_hand()
        if rng.random() < policy.auto_play:
            player.auto_play_at = (rng.randrange(4), rng.randint(1, 12))
        outcome = player.play()
    except DeadEnd:
        if not (policy.opening_ready or policy.auto_play):
            raise
        return simulate_hand(rules, options, seed, index, replace(policy, opening_ready=0.0, auto_play=0.0), offers,
                             match, number)
    errors = [v for v in player.replay.violations if v.severity == ERROR]
    if errors:
        raise SimulationError(f"{record.game_id}: self-play broke a rule: {errors[0]}")
    fill_claim(record, rules, outcome)
    return record, outcome


def simulate(ruleset: str, hands: int, seed: int, options: dict[str, str] | None = None,
             policy: Policy = DEFAULT_POLICY, offers: bool = False) -> Iterator[pb.GameRecord]:
    """`hands` records, hand index 0..hands-1, each its own deterministic game (no match id)."""
    options = dict(options or {})
    rules = get_ruleset(ruleset, options)
    for index in range(hands):
        yield simulate_hand(rules, options, seed, index, policy, offers)[0]


def first_dealer(rules: Ruleset, seed: int, number: int) -> int:
    """Who deals a simulated match's first hand: the rule book's seat where it fixes one (鸡平胡 with
    fixed seat winds: seat 0, East), else a seat drawn from the match's own stream."""
    fixed = rules.first_dealer()
    return fixed if fixed is not None else random.Random(f"mjref-simulate/{rules.name}/{seed}/{number}").randrange(4)


def simulate_match(rules: Ruleset, options: dict[str, str], seed: int, number: int, hands: int,
                   policy: Policy = DEFAULT_POLICY, offers: bool = False) -> list[pb.GameRecord]:
    """Match `number`: `hands` hands played in order, each dealt as the dealer rule gives after the
    one before it (`rules.next_dealer` of its outcome), with the round wind, the 流局 in a row and
    the running totals a correct platform keeps (referee.match.MatchProgress)."""
    progress = MatchProgress(f"sim-{rules.name}-{seed}-m{number:06d}", first_dealer(rules, seed, number),
                             rules.round_wind_advances)
    played = []
    for index in range(hands):
        record, outcome = simulate_hand(rules, options, seed, index, policy, offers, progress, number)
        progress.after(record, rules.next_dealer(outcome), not outcome.wins)
        played.append(record)
    return played


def simulate_matches(ruleset: str, matches: int, hands_per_match: int, seed: int,
                     options: dict[str, str] | None = None, policy: Policy = DEFAULT_POLICY,
                     offers: bool = False) -> Iterator[pb.GameRecord]:
    """`matches` whole matches of `hands_per_match` hands each, match by match, hand by hand."""
    options = dict(options or {})
    rules = get_ruleset(ruleset, options)
    for number in range(matches):
        yield from simulate_match(rules, options, seed, number, hands_per_match, policy, offers)


# -- the command ----------------------------------------------------------------------------
def progress(items, total: int, quiet: bool, what: str):
    """tqdm on stderr when someone is watching; the items unchanged otherwise."""
    if quiet or not sys.stderr.isatty():
        return items
    from tqdm import tqdm

    return tqdm(items, total=total, unit=what, file=sys.stderr)


def write_textproto_dir(out: pathlib.Path, recs) -> int:
    out.mkdir(parents=True, exist_ok=True)
    count = 0
    for record in recs:
        (out / f"{count:06d}-{record.game_id}.textproto").write_text(records.to_text(record), encoding="utf-8")
        count += 1
    return count


def cmd_simulate(args) -> int:
    try:
        options = to_dict(args.option)
        get_ruleset(args.ruleset, options)
    except RulesetError as err:
        print(f"mjref simulate: {err}", file=sys.stderr)
        return 2
    if (args.hands is None) == (args.matches is None):
        print("mjref simulate: give --hands N, or --matches M with --hands-per-match K", file=sys.stderr)
        return 2
    if args.matches is not None:
        if args.matches < 0 or args.hands_per_match is None or args.hands_per_match < 1:
            print("mjref simulate: --matches takes 0 or more, with --hands-per-match 1 or more", file=sys.stderr)
            return 2
        total = args.matches * args.hands_per_match
        recs = simulate_matches(args.ruleset, args.matches, args.hands_per_match, args.seed, options,
                                offers=args.offers)
    else:
        if args.hands < 0 or args.hands_per_match is not None:
            print("mjref simulate: --hands must be 0 or more (--hands-per-match goes with --matches)", file=sys.stderr)
            return 2
        total = args.hands
        recs = simulate(args.ruleset, args.hands, args.seed, options, offers=args.offers)
    out = pathlib.Path(args.out)
    if args.format == "tfrecord" and not archive.is_archive_path(out):
        # Readers tell an archive by its name: any other would be read back as a single record.
        print(f"mjref simulate: {args.out}: an archive's name ends in .tfrecord (or .tfrecords), optionally "
              f".gz or .zst; for a directory of records give --format textproto", file=sys.stderr)
        return 2
    recs = progress(recs, total, args.quiet, "hand")
    try:
        if args.format == "textproto":
            count = write_textproto_dir(out, recs)
        else:
            count = archive.write_archive(out, (records.to_binary(r) for r in recs))
    except OSError as err:
        print(f"mjref simulate: cannot write {out}: {err.strerror}", file=sys.stderr)
        return 2
    if not args.quiet:
        matches = f" in {args.matches} matches" if args.matches is not None else ""
        print(f"simulated {count} {args.ruleset} hands{matches} (seed {args.seed}) into {out}", file=sys.stderr)
    return 0


def add_simulate_command(sub) -> None:
    sim = sub.add_parser("simulate", help="generate self-play hand records, deterministic by seed",
                         description="Play complete hands with the referee's own legal actions and write them "
                                     "as a platform would (wall, every event, claimed settlement).")
    sim.add_argument("--ruleset", default="hebei", choices=sorted(RULESETS))
    sim.add_argument("--hands", type=int, default=None, help="how many independent hands (no match id)")
    sim.add_argument("--matches", type=int, default=None,
                     help="how many whole matches instead: hands dealt by the dealer rule, with the round wind, "
                          "流局 count and running totals a platform keeps (with --hands-per-match)")
    sim.add_argument("--hands-per-match", type=int, default=None, metavar="K", help="hands in each match")
    sim.add_argument("--offers", action="store_true",
                     help="log at each decision the actions a correct platform offers the seat (Event.offered)")
    sim.add_argument("--seed", type=int, default=0, help="same seed, same records, byte for byte")
    sim.add_argument("--out", required=True,
                     help="archive path (.tfrecord, .tfrecord.gz, .tfrecord.zst) or, with --format "
                          "textproto, a directory")
    sim.add_argument("--format", choices=["tfrecord", "textproto"], default="tfrecord")
    sim.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", type=option_pair,
                     help="a rule option, written into every record (repeatable)")
    sim.add_argument("--quiet", action="store_true", help="no progress bar or summary")
    sim.set_defaults(func=cmd_simulate)
