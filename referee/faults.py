"""`mjref inject`: turns clean hand records into records that each carry exactly one known fault,
labelled in GameRecord.fault, for measuring what the referee detects.

One fault kind per error code the referee reports. Each kind is a small function that picks
a place in the record (deterministically from the seed) and makes one change there, keeping
the rest of the record consistent so that the referee should report that code and no other
error. A kind changes the record in one of two ways:

* an edit in place (a wall tile, a seat, a payment, a cut), when nothing later depends on it;
* a forged action at a chosen point, after which the hand is played on to its end by the
  simulator's legal play (referee.simulate.SelfPlay) and the claimed result is settled again,
  because the rest of the hand depends on it. Such a kind may also rig the wall: swap an
  undrawn tile under the next draw, so that a seat draws and lets go of the tile the fault
  needs (for example a tile two seats can win on).

Places are chosen from the table as it stood before each event, read from a replay of the
clean record, with the ruleset's own shape functions (is_win, is_tenpai). The legal part of
a forged scene (the discard that is let go, the win that another call overrides) must also
be among the referee's legal actions at that point; the faulty action itself is never
checked with the referee, so the detection benchmark measures the referee, not itself.
A kind with no suitable place in a record skips it. SKIPPED_CODES says which codes have no
kind, and why.
"""
from __future__ import annotations

import pathlib
import random
import sys
import weakref
from dataclasses import dataclass, replace
from typing import Callable, Iterator

from referee import actions as A
from referee import archive, offers, records
from referee import tiles as T
from referee.proto import record_pb2 as pb
from referee.parts.bao import BAO_CHANGE
from referee.referee import Claim, DrawDue, Halt, Replay, Rob, Turn, Unreplayable
from referee.rules import Ruleset, RulesetError, get_ruleset
from referee.codes import applies_to
from referee.legal import CHI_SHAPES
from referee.outcome import KongInfo, Outcome, WinInfo
from referee.builder import fill_claim
from referee.simulate import DEFAULT_POLICY, DeadEnd, SelfPlay, progress
from referee.state import CONCEALED, EXPOSED, KONG, Meld, Seat
from referee.verdict import ERROR

RECORD = -1  # label event_index for a fault in the record as a whole (wall, deal, claimed result)
IMPOSSIBLE_CODES = (10, 20, 30, 40, 48, 50, 99)  # no tile has these proto codes
MAX_TRIES = 8  # places a kind tries (in seeded order) before it skips a record
NO_KIND_YET = "no fault kind yet (its sample under samples/ covers it)"
SKIPPED_CODES = {
    "MISSED_WIN": "an info note (漏胡 allowed in Hebei), not a fault",
    "MATCH_STATE_MISMATCH": "a finding across the records of a match: one record cannot carry it (tests/test_match.py)",
    "MATCH_WIND_MISMATCH": "a finding across the records of a match (tests/test_match.py)",
    "MATCH_RULES_CHANGED": "a finding across the records of a match (tests/test_match.py)",
    "MATCH_TOTALS_NOT_CARRIED": "a finding across the records of a match (tests/test_match.py)",
    "MATCH_DEALER_MISMATCH": "a finding across the records of a match: match kind dealer_skipped",
    "MATCH_HAND_MISSING": "a finding across the records of a match: match kind hand_missing",
    "MATCH_HAND_DUPLICATED": "a finding across the records of a match: match kind hand_duplicated",
    "MATCH_TOTALS_MISMATCH": "a finding across the records of a match: match kind total_altered",
}


class NoPlace(Exception):
    """The place a kind chose does not work after all (the legal part of its scene is not legal)."""


@dataclass(frozen=True)
class Legal:
    """A forged event that must be legal where it falls (a scene's setting, not its fault);
    with log=False it is only checked: the seat could do it, and does something else."""
    event: pb.Event
    log: bool = True


# -- reading the clean record -----------------------------------------------------------------
class NotClean(ValueError):
    """A record the injector cannot start from: it already breaks a rule, or cannot be replayed."""


@dataclass
class Moment:
    """The table just before one event is applied.

    A claim window still open at that point is closed by the event itself, so the moment
    before a caller's discard shows the caller's hand before its call; read the moment after
    the discard for the hand it leaves."""
    hands: tuple[list[int], ...]
    melds: tuple[list[Meld], ...]
    ready: tuple[bool, ...]
    auto: tuple[bool, ...]
    last_draw: tuple[int | None, ...]
    front: int  # wall position of the next normal draw
    back: int  # end of the undrawn part (replacements come from just before it)
    live: int
    indicator: int | None = None  # the flipped indicator (宝) now
    wild_draw: tuple[bool, ...] = (False,) * 4  # the seat's drawn tile is a wildcard for it (摸宝)
    locked: tuple[bool, ...] = (False,) * 4  # the seat passed a win and its 漏胡 rule holds it
    positions: tuple[int, ...] | None = None  # each undrawn place's index in the logged wall, if shifted


def snapshot(replay: Replay) -> Moment:
    seats, wall, rules = replay.table.seats, replay.table.wall, replay.rules
    wild = tuple(s.drawn is not None and rules.drawn_wild_wins(replay.view, i, s.drawn) for i, s in enumerate(seats))
    shifted = bool(wall.positions) and wall.positions[-1] != len(wall.positions) - 1
    return Moment(tuple(list(s.hand) for s in seats), tuple([replace(m) for m in s.melds] for s in seats),
                  tuple(s.ready for s in seats), tuple(s.auto_play for s in seats), tuple(replay.last_draw),
                  wall.front, wall.back, replay.live(), replay.table.indicator, wild,
                  tuple(s.ron_locked is not None or s.self_locked for s in seats),
                  tuple(wall.positions) if shifted else None)


class Analysis:
    """A clean record replayed once: the table before every event, and how the hand ended."""

    def __init__(self, record: pb.GameRecord, rules: Ruleset):
        self.rules = rules
        replay = Replay(record, rules)
        self.moments: list[Moment] = []
        try:
            replay.begin()
            for index, event in enumerate(record.events):
                self.moments.append(snapshot(replay))
                replay.index = index
                replay.step(event)
        except (Unreplayable, Halt):
            raise NotClean(f"{record.game_id}: the record cannot be replayed to its end") from None
        self.moments.append(snapshot(replay))
        replay.index = None
        replay.finish()
        if replay.phase is None or any(v.severity == ERROR for v in replay.violations):
            raise NotClean(f"{record.game_id}: the record is not clean")
        self.outcome: Outcome = replay.outcome
        self.events = record.events
        self.legality = replay.legality  # the hand's shape questions, under its wildcards
        # Wall positions of flipped indicators that stay in the wall (a draw there is logged twice).
        self.flipped = {e.indicator.wall_index for e in record.events if e.WhichOneof("kind") == "indicator"}
        self.wilds = replay.table.wilds
        self.after_hand_tiles = sum(len(part.due(replay)) for part in rules.after_hand)  # birds
        self.final_positions = list(replay.table.wall.positions)
        # Wall places an indicator flip revealed: a fault that moves their tile would break the flip.
        self.indicator_positions = {e.indicator.wall_index for e in record.events
                                    if e.WhichOneof("kind") == "indicator" and e.indicator.wall_index}

    def kind(self, index: int) -> str | None:
        return self.events[index].WhichOneof("kind") if 0 <= index < len(self.events) else None

    def normal_draws(self) -> list[int]:
        return [i for i, e in enumerate(self.events) if e.WhichOneof("kind") == "draw" and not e.draw.replacement]

    def discards(self) -> list[int]:
        return [i for i, e in enumerate(self.events) if e.WhichOneof("kind") == "discard"]

    def quiet_discards(self) -> list[int]:
        """Discards nobody declared on: the next event is the next seat's normal draw."""
        return [i for i in self.discards() if self.kind(i + 1) == "draw" and not self.events[i + 1].draw.replacement]

    @property
    def exhaustive(self) -> bool:
        return not self.outcome.wins


# -- one injection ----------------------------------------------------------------------------
@dataclass
class Injected:
    record: pb.GameRecord
    event_index: int  # where the referee should report it; RECORD for the record as a whole


class Context:
    """What a fault kind works with: the clean record, its ruleset, its analysis and a seeded rng."""

    def __init__(self, record: pb.GameRecord, rules: Ruleset, rng: random.Random, analysis: Analysis | None = None):
        self.clean, self.rng = record, rng
        self.analysis = analysis or Analysis(record, rules)  # NotClean when there is nothing to start from
        self.rules = self.analysis.rules
        self._waits: dict[tuple, tuple[int, ...]] = {}

    def copy(self) -> pb.GameRecord:
        record = pb.GameRecord()
        record.CopyFrom(self.clean)
        return record

    def pick(self, candidates):
        candidates = list(candidates)
        return self.rng.choice(candidates) if candidates else None

    # -- the table, read with the ruleset's shape functions ---------------------------------
    def can_win(self, m: Moment, seat: int, tile: int) -> bool:
        """Would this seat's hand (3k+1 tiles) win with one more `tile`? (The ruleset's waits.)"""
        return tile in self.waits(m.hands[seat], m.melds[seat])

    def waits(self, hand: list[int], melds: list[Meld]) -> tuple[int, ...]:
        key = (tuple(hand), tuple((x.kind, x.tile, x.kong_kind) for x in melds))
        found = self._waits.get(key)
        if found is None:
            found = self._waits[key] = self.analysis.legality.waits_of_hand(list(hand), list(melds))
        return found

    def anyone_can_win(self, m: Moment, tile: int, besides: int) -> bool:
        return any(self.can_win(m, s, tile) for s in range(4) if s != besides)

    # -- forging and playing on ------------------------------------------------------------
    def attempt(self, sites, build) -> Injected | None:
        """build(site) for sites in seeded order until one works (at most MAX_TRIES)."""
        sites = list(sites)
        self.rng.shuffle(sites)
        for site in sites[:MAX_TRIES]:
            try:
                return build(site)
            except NoPlace:
                continue
        return None

    @staticmethod
    def is_legal(player: SelfPlay, event: pb.Event) -> bool:
        """Is the event among the referee's legal actions for its seat right now?"""
        replay, phase, kind = player.replay, player.replay.phase, event.WhichOneof("kind")
        if kind == "draw":
            return True  # a draw is never a choice; where it comes from is the wall's business
        if isinstance(phase, Turn):
            action = replay.turn_action(kind, event, phase)
        elif isinstance(phase, Claim):
            action = replay.claim_action(kind, event, phase.tile)
        elif isinstance(phase, Rob) and kind == "win":
            action = A.Action(A.ROB_WIN, phase.tile)
        else:
            return False
        return action is not None and action in replay.legal_actions(event.seat, phase)

    def play_on(self, cut: int, forged: list, wall: list[int] | None = None,
                options: dict[str, str] | None = None, then=None, finish: bool = True) -> pb.GameRecord:
        """The clean record up to event `cut`, then the forged events, then legal play to the end.

        A forged Legal(event) must be legal where it falls, else NoPlace. `then(player)` may log
        more events before play resumes. With finish=False the record ends after the forged
        events (for a fault that halts the referee); otherwise the hand is played out and its
        claimed result settled again.
        """
        record = self.copy()
        del record.events[cut:]
        if wall is not None:
            record.ClearField("wall")
            record.wall.extend(wall)
        rules = self.rules
        if options:
            for key, value in options.items():
                record.ruleset.options[key] = value
            rules = get_ruleset(record.ruleset.name, dict(record.ruleset.options))
        replay = Replay(record, rules)
        replay.begin()
        for index, event in enumerate(record.events):
            replay.index = index
            replay.step(event)
        player = SelfPlay(record, rules, random.Random(self.rng.random()), DEFAULT_POLICY, replay)
        try:
            for position, item in enumerate(forged, 1):
                if isinstance(item, Legal):
                    if not self.is_legal(player, item.event):
                        raise NoPlace
                    if not item.log:
                        continue
                    item = item.event
                if not finish and position == len(forged):
                    record.events.append(item)  # the fault that halts the referee: logged, not applied
                    return record
                player.emit(item)
            if then is not None:
                then(player)
            if not finish:
                return record
            outcome = player.play()
        except DeadEnd:
            raise NoPlace from None  # the fault left a seat with no legal move: try another place
        except Halt:
            raise RuntimeError(f"{record.game_id}: a forged event halted the replay: {replay.violations[-1:]}")
        fill_claim(record, rules, outcome)
        return record

    def draw_and_kong(self, k: int, seat: int, tile: int) -> Injected:
        """At normal draw k the seat draws `tile` (rigged under the draw) and makes a 暗杠 of it; the
        hand plays on; the label is the kong."""
        code = T.to_proto(tile)
        forged = [pb.Event(seat=seat, draw=pb.Draw(tile=code)),
                  pb.Event(seat=seat, kong=pb.Kong(kind=pb.CONCEALED, tile=code))]
        return Injected(self.play_on(k, forged, wall=self.rigged_wall(self.analysis.moments[k], tile)), k + 1)

    def rigged_wall(self, m: Moment, tile: int) -> list[int] | None:
        """The wall with `tile` moved under the next normal draw (from a later undrawn place); None
        when no copy is left, or when that draw takes a flipped indicator (logged at the flip too)."""
        wall = list(self.clean.wall)
        code = T.to_proto(tile)
        if wall[m.front] == code:
            return wall
        if m.front in self.analysis.flipped:
            return None  # that draw takes a flipped indicator, logged at the flip too
        spots = [q for q in self.undrawn_places(m)[1:] if wall[q] == code]
        if not spots:
            return None
        q = spots[0]
        wall[m.front], wall[q] = wall[q], wall[m.front]
        return wall

    def undrawn_places(self, m: Moment) -> list[int]:
        """The logged wall indexes of the undrawn wall at a moment, the next draw's first, less the
        places an indicator flip reveals."""
        places = m.positions[m.front:m.back] if m.positions is not None else range(m.front, m.back)
        return [q for q in places if q not in self.analysis.indicator_positions]

    def spare_positions(self) -> list[int]:
        """Wall positions the hand never uses: not drawn, not revealed (a bird, an indicator)."""
        a = self.analysis
        final = a.moments[-1]
        places = a.final_positions[final.front + a.after_hand_tiles:final.back]
        return [q for q in places if q not in a.indicator_positions]

    def let_go_sites(self, want: Callable[[Moment, int, int], bool]) -> list[tuple[int, int, int]]:
        """(draw index, seat, tile): a seat could draw `tile` there and discard it at once (摸打),
        with want(moment, seat, tile) true. No seat in 托管 may be able to win on the tile (it
        could not let it go), a copy must still be undrawn, and it must not be a wildcard."""
        if not self.clean.wall:
            return []
        a, sites = self.analysis, []
        for k in a.normal_draws():
            m, seat = a.moments[k], a.events[k].seat
            undrawn = {T.from_proto(self.clean.wall[q]) for q in self.undrawn_places(m)} - set(self.analysis.wilds)
            if m.front in a.flipped:  # that draw takes a flipped indicator: no other tile can be put there
                undrawn = {T.from_proto(self.clean.wall[m.front])} - set(self.analysis.wilds)
            for tile in sorted(undrawn):
                if any(m.auto[s] and self.can_win(m, s, tile) for s in range(4)):
                    continue  # a seat in 托管 would have to win on it
                if want(m, seat, tile):
                    sites.append((k, seat, tile))
        return sites

    def let_go(self, site: tuple[int, int, int], declarations: list, options: dict[str, str] | None = None,
               then=None, finish: bool = True) -> tuple[pb.GameRecord, int]:
        """Rig the draw at a site, log the 摸打 (it must be legal) and the declarations, play on;
        returns the record and the index of the first declaration."""
        k, seat, tile = site
        code = T.to_proto(tile)
        forged = [Legal(pb.Event(seat=seat, draw=pb.Draw(tile=code))),
                  Legal(pb.Event(seat=seat, discard=pb.Discard(tile=code)))]
        wall = self.rigged_wall(self.analysis.moments[k], tile)
        if wall is None:
            raise NoPlace  # no undrawn copy to put under the draw, or it takes a flipped indicator
        record = self.play_on(k, forged + declarations, wall=wall, options=options, then=then, finish=finish)
        return record, k + 2


# -- event builders -------------------------------------------------------------------------------
def win_event(seat: int, kind: int, tile: int) -> pb.Event:
    return pb.Event(seat=seat, win=pb.Win(kind=kind, tile=T.to_proto(tile)))


def pon_event(seat: int, tile: int) -> pb.Event:
    return pb.Event(seat=seat, pon=pb.Pon(tile=T.to_proto(tile)))


def pass_event(seat: int) -> pb.Event:
    return pb.Event(seat=seat, **{"pass": pb.Pass()})


def discard_tile(event: pb.Event) -> int:
    return T.from_proto(event.discard.tile)


# -- the fault kinds: record integrity ------------------------------------------------------------
def fifth_copy_in_wall(ctx: Context) -> Injected | None:
    """A wall tile the hand never uses becomes a fifth copy of a kind."""
    if not ctx.clean.wall:
        return None
    spot = ctx.pick(ctx.spare_positions())
    if spot is None:
        return None
    record = ctx.copy()
    counts = T.counts(T.from_proto(c) for c in record.wall)
    kinds = [t for t in ctx.rules.tile_kinds if counts[t] >= ctx.rules.copies and T.to_proto(t) != record.wall[spot]]
    record.wall[spot] = T.to_proto(ctx.rng.choice(kinds))
    return Injected(record, RECORD)


def short_initial_hand(ctx: Context) -> Injected | None:
    """The platform logs no wall, and one seat was dealt a tile too few (少牌)."""
    record = ctx.copy()
    if record.wall:
        replay = Replay(record, ctx.rules)
        replay.begin()  # the dealt hands, and the dealer's 14th tile (it must come last)
        record.ClearField("wall")
        for s, seat in enumerate(replay.table.seats):
            tiles = [t for t, n in enumerate(seat.hand) for _ in range(n)]
            if s == record.dealer:
                tiles.remove(replay.last_draw[s])
                tiles.append(replay.last_draw[s])
            record.initial_hands.add().tiles.extend(T.to_proto(t) for t in tiles)
    seat = ctx.pick(s for s in range(4) if s != record.dealer)
    hand = record.initial_hands[seat].tiles
    del hand[ctx.rng.randrange(len(hand))]
    return Injected(record, RECORD)


def impossible_tile_code(ctx: Context) -> Injected | None:
    """A discard names a tile code that is no tile."""
    index = ctx.pick(ctx.analysis.discards())
    if index is None:
        return None
    record = ctx.copy()
    record.events[index].discard.tile = ctx.rng.choice(IMPOSSIBLE_CODES)
    return Injected(record, index)


def invalid_enum_value(ctx: Context) -> Injected | None:
    """A discard carries a ready kind that the schema does not define (a corrupt enum)."""
    index = ctx.pick(ctx.analysis.discards())
    if index is None:
        return None
    record = ctx.copy()
    record.events[index].discard.ready = ctx.rng.choice((4, 9, 99, -1))
    return Injected(record, index)


def tampered_draw(ctx: Context) -> Injected | None:
    """The wall tile under a draw is swapped with an unused one: the log no longer matches the wall."""
    if not ctx.clean.wall:
        return None
    a = ctx.analysis
    index = ctx.pick(i for i in a.normal_draws() if a.moments[i].front not in a.flipped)  # logged at the flip too
    if index is None:
        return None
    record = ctx.copy()
    p = a.moments[index].front
    spots = [q for q in ctx.spare_positions() if record.wall[q] != record.wall[p]]
    if not spots:
        return None
    q = ctx.rng.choice(spots)
    record.wall[p], record.wall[q] = record.wall[q], record.wall[p]
    return Injected(record, index)


def draw_into_reserve(ctx: Context) -> Injected | None:
    """After the last live tile, the next seat draws from the reserve instead of the hand being drawn (荒庄)."""
    a = ctx.analysis
    if not a.exhaustive or not ctx.clean.wall or a.kind(len(a.events) - 1) != "exhaustive_draw":
        return None
    cut = len(a.events) - 1
    if a.moments[cut].front >= a.moments[cut].back:
        return None

    def draw_reserve(player: SelfPlay) -> None:
        player.close_window(None)  # the last discard's window closes; a draw is due
        seat, wall = player.replay.phase.seat, player.replay.table.wall
        player.emit(pb.Event(seat=seat, draw=pb.Draw(tile=T.to_proto(wall.tiles[wall.front]))))

    return Injected(ctx.play_on(cut, [], then=draw_reserve), cut)


def seat_out_of_turn(ctx: Context) -> Injected | None:
    """A draw is logged for a seat whose turn it is not."""
    index = ctx.pick(ctx.analysis.normal_draws())
    if index is None:
        return None
    record = ctx.copy()
    event = record.events[index]
    event.seat = ctx.rng.choice([s for s in range(4) if s != event.seat])
    return Injected(record, index)


def pon_on_own_turn(ctx: Context) -> Injected | None:
    """A seat logs a 碰 of the tile it has just drawn, on its own turn (no discard to take)."""
    index = ctx.pick(ctx.analysis.normal_draws())
    if index is None:
        return None
    record = ctx.copy()
    draw = record.events[index]
    record.events.insert(index + 1, pb.Event(seat=draw.seat, pon=pb.Pon(tile=draw.draw.tile)))
    return Injected(record, index + 1)


def event_after_end(ctx: Context) -> Injected | None:
    """The log goes on after the hand ended: one more discard."""
    record = ctx.copy()
    seat = (record.events[-1].seat + 1) % 4 if record.events else 0
    record.events.add(seat=seat, discard=pb.Discard(tile=T.to_proto(ctx.rng.choice(ctx.rules.tile_kinds))))
    return Injected(record, len(record.events) - 1)


def truncated_record(ctx: Context) -> Injected | None:
    """The log stops mid-hand: every event from some normal draw on is lost."""
    index = ctx.pick(ctx.analysis.normal_draws())
    if index is None:
        return None
    record = ctx.copy()
    del record.events[index:]
    return Injected(record, RECORD)


def early_exhaustive_draw(ctx: Context) -> Injected | None:
    """荒庄 is declared where a seat should draw a live tile; the log ends there."""
    index = ctx.pick(ctx.analysis.normal_draws())
    if index is None:
        return None
    record = ctx.copy()
    del record.events[index:]
    record.events.add(seat=record.dealer, exhaustive_draw=pb.ExhaustiveDraw())
    return Injected(record, index)


def wrong_bird_tile(ctx: Context) -> Injected | None:
    """The platform shows a bird (扎鸟) that is not the tile the wall holds there."""
    birds = [i for i, e in enumerate(ctx.clean.events) if e.WhichOneof("kind") == "birds" and e.birds.tiles]
    index = ctx.pick(birds)
    if index is None:
        return None
    record = ctx.copy()
    tiles = record.events[index].birds.tiles
    k = ctx.rng.randrange(len(tiles))
    tiles[k] = T.to_proto(ctx.rng.choice([t for t in ctx.rules.tile_kinds if T.to_proto(t) != tiles[k]]))
    return Injected(record, index)


# -- the fault kinds: actions -------------------------------------------------------------------
def discard_not_held(ctx: Context) -> Injected | None:
    """A seat discards a tile it does not hold; the hand plays on from there."""
    a = ctx.analysis
    sites = [(j, t) for j in a.discards() for t in ctx.rules.tile_kinds
             if not a.moments[j].hands[a.events[j].seat][t]]

    def build(site) -> Injected:
        j, tile = site
        discard = pb.Event(seat=a.events[j].seat, discard=pb.Discard(tile=T.to_proto(tile)))
        return Injected(ctx.play_on(j, [discard]), j)

    return ctx.attempt(sites, build)


def wild_discarded(ctx: Context) -> Injected | None:
    """A seat discards a wildcard it holds, which its ruleset never lets go; the hand plays on."""
    a = ctx.analysis
    wilds = set(ctx.analysis.wilds)
    sites = [(j, t) for j in a.discards() for t in sorted(wilds) if a.moments[j].hands[a.events[j].seat][t]
             and (a.moments[j].last_draw[a.events[j].seat] is None or not a.moments[j].ready[a.events[j].seat])]

    def build(site) -> Injected:
        j, tile = site
        discard = pb.Event(seat=a.events[j].seat, discard=pb.Discard(tile=T.to_proto(tile)))
        return Injected(ctx.play_on(j, [discard]), j)

    return ctx.attempt(sites, build)


def quiet_call_sites(ctx: Context, want: Callable[[Moment, int, int, int], bool]) -> list[tuple[int, int]]:
    """(discard index, caller) where nobody declared and nobody could win on the tile, and want(...)."""
    a, sites = ctx.analysis, []
    for j in a.quiet_discards():
        m, discarder, tile = a.moments[j + 1], a.events[j].seat, discard_tile(a.events[j])
        if ctx.anyone_can_win(m, tile, besides=discarder):
            continue
        sites.extend((j, s) for s in range(4) if s != discarder and want(m, s, discarder, tile))
    return sites


def free_caller(ctx: Context, m: Moment, seat: int) -> bool:
    """May the seat call as far as the rules besides the one a kind breaks go: not 听 (a 听 seat's call
    breaks its lock too) and, where the rule book stops calls there, not at four tiles in hand?
    A call that broke two rules would be two findings, and a kind injects one fault."""
    return not m.ready[seat] and not (len(m.melds[seat]) >= 3 and applies_to("CALL_AT_FOUR", ctx.rules.name))


def runs_with(m: Moment, seat: int, tile: int) -> list[list[int]]:
    """The tile pairs a seat could show to 吃 `tile` (the rest of a sequence it holds)."""
    hand = m.hands[seat]
    return [[a, b] for _low, a, b in CHI_SHAPES[tile] if hand[a] and hand[b]]


def chi_event(seat: int, shown: list[int]) -> pb.Event:
    return pb.Event(seat=seat, chi=pb.Chi(tiles=[T.to_proto(t) for t in shown]))


def chi_forbidden(ctx: Context) -> Injected | None:
    """The discarder's 下家 takes the tile by 吃 in a ruleset without 吃."""
    if ctx.rules.chi_allowed:
        return None
    a = ctx.analysis

    def build(site) -> Injected:
        j, seat = site
        shown = ctx.rng.choice(runs_with(a.moments[j + 1], seat, discard_tile(a.events[j])))
        return Injected(ctx.play_on(j + 1, [chi_event(seat, shown)]), j + 1)

    return ctx.attempt(quiet_call_sites(ctx, lambda m, s, d, t: s == (d + 1) % 4 and runs_with(m, s, t)), build)


def chi_not_from_left(ctx: Context) -> Injected | None:
    """A seat other than the discarder's 下家 takes the tile by 吃, where only the 下家 may."""
    if not (ctx.rules.chi_allowed and ctx.rules.chi_from_left_only):
        return None
    a = ctx.analysis
    wilds = set(ctx.analysis.wilds)
    sites = quiet_call_sites(ctx, lambda m, s, d, t: s != (d + 1) % 4 and t not in wilds and free_caller(ctx, m, s)
                             and any(not wilds & set(run) for run in runs_with(m, s, t)))

    def build(site) -> Injected:
        j, seat = site
        tile = discard_tile(a.events[j])
        runs = [run for run in runs_with(a.moments[j + 1], seat, tile) if not wilds & set(run)]
        return Injected(ctx.play_on(j + 1, [chi_event(seat, ctx.rng.choice(runs))]), j + 1)

    return ctx.attempt(sites, build)


def runs_not_held(m: Moment, seat: int, tile: int) -> list[list[int]]:
    """The tile pairs that make a sequence with `tile`, at least one of them not held by the seat."""
    hand = m.hands[seat]
    return [[a, b] for _low, a, b in CHI_SHAPES[tile] if not (hand[a] and hand[b])]


def chi_without_run(ctx: Context) -> Injected | None:
    """The discarder's 下家 takes the tile by 吃, showing a tile it does not hold."""
    if not ctx.rules.chi_allowed:
        return None
    a = ctx.analysis
    wilds = set(a.wilds)

    def runs(m: Moment, seat: int, tile: int) -> list[list[int]]:
        return [run for run in runs_not_held(m, seat, tile) if not wilds & {tile, *run}]

    def build(site) -> Injected:
        j, seat = site
        shown = ctx.rng.choice(runs(a.moments[j + 1], seat, discard_tile(a.events[j])))
        return Injected(ctx.play_on(j + 1, [chi_event(seat, shown)]), j + 1)

    return ctx.attempt(quiet_call_sites(ctx, lambda m, s, d, t: s == (d + 1) % 4 and free_caller(ctx, m, s)
                                        and runs(m, s, t)), build)


def pon_without_pair(ctx: Context) -> Injected | None:
    """A seat 碰s a discard holding fewer than two of it (and too few wildcards to make them up)."""
    a = ctx.analysis

    def build(site) -> Injected:
        j, seat = site
        return Injected(ctx.play_on(j + 1, [pon_event(seat, discard_tile(a.events[j]))]), j + 1)

    wilds = set(a.wilds)
    dragons = set(T.DRAGONS) if applies_to("PON_DRAGON", ctx.rules.name) else set()

    def short(m: Moment, seat: int, tile: int) -> bool:  # short of a pair, even counting its wildcards
        return m.hands[seat][tile] + sum(m.hands[seat][w] for w in wilds if w != tile) < 2

    # (Not a dragon where a dragon may never be pong'd, nor a pair its wildcards would make: other findings.)
    return ctx.attempt(quiet_call_sites(ctx, lambda m, s, d, t: short(m, s, t) and t not in dragons
                                        and free_caller(ctx, m, s)), build)


def pon_over_win(ctx: Context) -> Injected | None:
    """One seat declares 胡 on a discard, yet another seat's 碰 takes the tile (胡 > 碰)."""

    def pairs(m: Moment, seat: int, tile: int) -> list[tuple[int, int]]:
        """(winner, caller): the only seat able to win on the tile, and a seat holding a pair of it."""
        winners = [s for s in range(4) if s != seat and ctx.can_win(m, s, tile)]
        if len(winners) != 1:
            return []
        return [(winners[0], s) for s in range(4) if s not in (seat, winners[0]) and m.hands[s][tile] >= 2]

    def build(site) -> Injected:
        k, seat, tile = site
        winner, caller = ctx.rng.choice(pairs(ctx.analysis.moments[k], seat, tile))
        record, index = ctx.let_go(site, [Legal(win_event(winner, pb.DISCARD, tile)), Legal(pon_event(caller, tile))])
        return Injected(record, index + 1)

    return ctx.attempt(ctx.let_go_sites(lambda m, s, t: bool(pairs(m, s, t))), build)


def multiple_ron_option(rules: Ruleset) -> dict[str, str] | None:
    """The rule options under which only the nearest seat may win on a discard (截胡)."""
    if not rules.multiple_ron:
        return {}
    for option in rules.options:
        if option.name.endswith("multiple_ron") and option.default is True:
            return {option.name: "false"}
    return None


def second_ron(ctx: Context) -> Injected | None:
    """Two seats win on one discard where only the nearest may (no 一炮多响)."""
    options = multiple_ron_option(ctx.rules)
    if options is None:
        return None

    def winners(m: Moment, seat: int, tile: int) -> list[int]:
        return [s for s in ((seat + k) % 4 for k in (1, 2, 3)) if ctx.can_win(m, s, tile)]

    def build(site) -> Injected:
        k, seat, tile = site
        first, second = winners(ctx.analysis.moments[k], seat, tile)[:2]

        def one_winner_only(player: SelfPlay) -> None:
            if player.rules.allows_multiple_ron(last_tile=player.replay.phase.last_tile):
                raise NoPlace  # e.g. a 海底 discard, which several may win on

        record, index = ctx.let_go(site, [Legal(win_event(first, pb.DISCARD, tile)),
                                          Legal(win_event(second, pb.DISCARD, tile))],
                                   options=options, then=one_winner_only)
        return Injected(record, index + 1)

    return ctx.attempt(ctx.let_go_sites(lambda m, s, t: len(winners(m, s, t)) >= 2), build)


def false_win(ctx: Context) -> Injected | None:
    """A seat declares 胡 on a discard, or 自摸, with a hand that does not win; the log ends there."""
    a, rules = ctx.analysis, ctx.rules
    sites = []
    for j in a.quiet_discards():
        m, tile = a.moments[j + 1], discard_tile(a.events[j])
        sites.extend((j + 1, win_event(s, pb.DISCARD, tile)) for s in range(4)
                     if s != a.events[j].seat and not ctx.can_win(m, s, tile))
    for k in a.normal_draws():
        m, seat = a.moments[k + 1], a.events[k].seat
        hand, melds = m.hands[seat], m.melds[seat]
        if not a.legality.is_win(hand, melds) and not rules.instant_hands(a.legality.view, hand, melds, True) \
                and not rules.instant_hands(a.legality.view, hand, melds, False) and not m.wild_draw[seat]:
            sites.append((k + 1, win_event(seat, pb.SELF_DRAW, m.last_draw[seat])))
    site = ctx.pick(sites)
    if site is None:
        return None
    index, win = site
    record = ctx.copy()
    del record.events[index:]
    record.events.append(win)
    return Injected(record, index)


def win_after_passing(ctx: Context) -> Injected | None:
    """A seat lets a win on a discard go (过), then wins on a later discard, where its ruleset's 漏胡
    rule forfeits every later win on a discard for the hand."""
    return ron_after_passing(ctx, "WIN_AFTER_PASSED_WIN")


def ron_after_passing(ctx: Context, code: str = "RON_AFTER_MISSED_WIN") -> Injected | None:
    """A seat lets a win on a discard go (过), then wins on the next discard before it has drawn,
    where its ruleset's 漏胡 lock forbids that."""
    if ctx.rules.missed_win.code != code:
        return None
    a = ctx.analysis
    sites = []
    for j in a.discards():
        if a.kind(j + 1) not in ("draw", "pass") or a.kind(j + 1) == "draw" and a.events[j + 1].draw.replacement:
            continue
        m, discarder, tile = a.moments[j + 1], a.events[j].seat, discard_tile(a.events[j])
        drawer = (discarder + 1) % 4
        sites.extend((j, s, w) for s in range(4) if s not in (discarder, drawer) and ctx.can_win(m, s, tile)
                     and not m.auto[s] for w in ctx.waits(m.hands[s], m.melds[s]) if w not in ctx.analysis.wilds
                     and locked_after(ctx.rules, tile, w))

    def build(site) -> Injected:
        j, seat, tile = site
        m = a.moments[j + 1]
        drawer = (a.events[j].seat + 1) % 4
        wall = ctx.rigged_wall(m, tile)
        passed = discard_tile(a.events[j])
        others = [s for s in range(4) if s not in (seat, a.events[j].seat)]
        if wall is None or any(ctx.can_win(m, s, tile) and (m.auto[s] or s == drawer) for s in others) \
                or any(m.auto[s] and ctx.can_win(m, s, passed) for s in others):
            raise NoPlace  # the drawer would win on the tile, or a seat in 托管 would have to win on one
        code = T.to_proto(tile)
        forged = [Legal(win_event(seat, pb.DISCARD, passed), log=False), pass_event(seat),
                  Legal(pb.Event(seat=drawer, draw=pb.Draw(tile=code))),
                  Legal(pb.Event(seat=drawer, discard=pb.Discard(tile=code))), win_event(seat, pb.DISCARD, tile)]
        return Injected(ctx.play_on(j + 1, forged, wall=wall, finish=False), j + 4)

    return ctx.attempt(sites, build)


def locked_after(rules: Ruleset, passed: int, tile: int) -> bool:
    """Does the ruleset's 漏胡 rule bar a win on `tile` after a seat passed a win on `passed`
    (every tile, or that kind only)?"""
    seat = Seat(-1)
    rules.missed_win.passed(seat, A.Action(A.RON, passed))
    return rules.missed_win.issue(seat, A.Action(A.RON, tile), tile) is not None


# -- the fault kinds: 听 ------------------------------------------------------------------------------
def lock_code(rules: Ruleset, which: str) -> str | None:
    """The code the ruleset's ready lock reports for one kind of breach (None: no lock)."""
    lock = rules.ready.lock
    return getattr(lock, which) if lock is not None else None


def ready_not_tenpai(ctx: Context) -> Injected | None:
    """听 declared with a discard that leaves a hand waiting on nothing."""
    if A.READY_DISCARD not in ctx.rules.ready.declares:
        return None
    a = ctx.analysis
    sites = []
    for j in a.discards():
        seat = a.events[j].seat
        if a.moments[j].ready[seat] or a.events[j].discard.ready:
            continue
        after = a.moments[j + 1]  # after the discard (and after any call it closed)
        if not ctx.waits(after.hands[seat], after.melds[seat]):
            sites.append(j)

    def build(j: int) -> Injected:
        event = pb.Event()
        event.CopyFrom(a.events[j])
        event.discard.ready = pb.TING
        return Injected(ctx.play_on(j, [event]), j)

    return ctx.attempt(sites, build)


def ready_seat_discards(ctx: Context, after_draw: bool) -> list[int]:
    """Discards by seats that declared 听 earlier (optionally: right after their own draw)."""
    a = ctx.analysis
    return [j for j in a.discards() if a.moments[j].ready[a.events[j].seat]
            and (not after_draw or a.moments[j].last_draw[a.events[j].seat] is not None)]


def ready_twice(ctx: Context) -> Injected | None:
    """A seat that is already 听 declares it again with a later discard."""
    if A.READY_DISCARD not in ctx.rules.ready.declares:
        return None
    j = ctx.pick(ready_seat_discards(ctx, after_draw=False))
    if j is None:
        return None
    record = ctx.copy()
    record.events[j].discard.ready = pb.TING  # the discard itself is unchanged, so nothing later moves
    return Injected(record, j)


def ready_lock_breach(ctx: Context) -> Injected | None:
    """A 听 seat keeps the tile it drew and lets go of another one."""
    if not lock_code(ctx.rules, "discard_code") == "READY_LOCK_BREACH":
        return None
    a = ctx.analysis
    sites = []
    for j in ready_seat_discards(ctx, after_draw=True):
        m, seat = a.moments[j], a.events[j].seat
        drawn = m.last_draw[seat]
        sites.extend((j, t) for t in range(T.KINDS) if m.hands[seat][t] and t != drawn)

    def build(site) -> Injected:
        j, tile = site
        discard = pb.Event(seat=a.events[j].seat, discard=pb.Discard(tile=T.to_proto(tile)))
        return Injected(ctx.play_on(j, [discard]), j)

    return ctx.attempt(sites, build)


def ready_pon(ctx: Context) -> Injected | None:
    """A 听 seat takes a discard by 碰."""
    if not lock_code(ctx.rules, "call_code") == "READY_PON":
        return None

    def callers(m: Moment, seat: int, tile: int) -> list[int]:
        if ctx.anyone_can_win(m, tile, besides=seat):
            return []
        return [s for s in range(4) if s != seat and m.ready[s] and m.hands[s][tile] >= 2]

    def build(site) -> Injected:
        k, seat, tile = site
        caller = ctx.rng.choice(callers(ctx.analysis.moments[k], seat, tile))
        record, index = ctx.let_go(site, [pon_event(caller, tile)])
        return Injected(record, index)

    return ctx.attempt(ctx.let_go_sites(lambda m, s, t: bool(callers(m, s, t))), build)


def ready_kong_breaks_tenpai(ctx: Context) -> Injected | None:
    """A 听 seat makes a kong that leaves it waiting on nothing: a 暗杠 on the fourth copy it draws,
    or a 明杠 on the fourth copy another seat lets go (the draw is rigged from an undrawn copy)."""
    if not lock_code(ctx.rules, "kong_code") == "READY_KONG_BREAKS_TENPAI" or not ctx.clean.wall:
        return None
    a = ctx.analysis

    def breaks(m: Moment, seat: int, tile: int) -> bool:
        """A 听 seat holding three of `tile` is not ready after a kong of it (and the kong can draw)."""
        if not m.ready[seat] or m.hands[seat][tile] != 3 or m.live < 2:
            return False
        after = list(m.hands[seat])
        after[tile] = 0
        return not ctx.waits(after, m.melds[seat] + [Meld(KONG, tile, None, CONCEALED)])

    def exposers(m: Moment, seat: int, tile: int) -> list[int]:
        """听 seats that could 明杠 the tile another seat lets go, when nobody else could win on it."""
        found = [s for s in range(4) if s != seat and breaks(m, s, tile)]
        if len(found) != 1 or any(ctx.can_win(m, s, tile) for s in range(4) if s not in (seat, found[0])):
            return []
        return found

    sites = [("concealed", k, a.events[k].seat, t) for k in a.normal_draws() for t in range(T.KINDS)
             if breaks(a.moments[k], a.events[k].seat, t) and ctx.rigged_wall(a.moments[k], t) is not None
             and not (a.moments[k].auto[a.events[k].seat] and ctx.can_win(a.moments[k], a.events[k].seat, t))]
    sites += [("exposed",) + site for site in ctx.let_go_sites(lambda m, s, t: bool(exposers(m, s, t)))]

    def build(site) -> Injected:
        how, k, seat, tile = site
        m, code = a.moments[k], T.to_proto(tile)
        if how == "exposed":
            konger = exposers(m, seat, tile)[0]
            record, index = ctx.let_go((k, seat, tile), [pb.Event(seat=konger, kong=pb.Kong(kind=pb.EXPOSED, tile=code))])
            return Injected(record, index)
        forged = [pb.Event(seat=seat, draw=pb.Draw(tile=code)),
                  pb.Event(seat=seat, kong=pb.Kong(kind=pb.CONCEALED, tile=code))]
        return Injected(ctx.play_on(k, forged, wall=ctx.rigged_wall(m, tile)), k + 1)

    return ctx.attempt(sites, build)


def ready_call(ctx: Context) -> Injected | None:
    """A 听 seat takes a discard by 碰 (its lock forbids every call), with fewer than three sets down."""
    if not lock_code(ctx.rules, "call_code") == "READY_CALL":
        return None

    def callers(m: Moment, seat: int, tile: int) -> list[int]:
        if ctx.anyone_can_win(m, tile, besides=seat):
            return []
        if tile in T.DRAGONS and applies_to("PON_DRAGON", ctx.rules.name):
            return []  # a more specific fault
        return [s for s in range(4) if s != seat and m.ready[s] and m.hands[s][tile] >= 2 and len(m.melds[s]) < 3]

    def build(site) -> Injected:
        k, seat, tile = site
        caller = ctx.rng.choice(callers(ctx.analysis.moments[k], seat, tile))
        record, index = ctx.let_go(site, [pon_event(caller, tile)])
        return Injected(record, index)

    return ctx.attempt(ctx.let_go_sites(lambda m, s, t: bool(callers(m, s, t))), build)


def ready_kong_changes_waits(ctx: Context) -> Injected | None:
    """A 听 seat (fewer than three sets down) draws the fourth copy of a triplet it holds and makes a
    暗杠 that leaves it waiting on nothing, where a kong after 听 must keep the waits (换听)."""
    if not lock_code(ctx.rules, "kong_code") == "READY_WAITS_CHANGED" or not ctx.clean.wall:
        return None
    a = ctx.analysis

    def changes(m: Moment, seat: int, tile: int) -> bool:
        if not m.ready[seat] or m.hands[seat][tile] != 3 or m.live < 2 or len(m.melds[seat]) >= 3:
            return False
        if tile == m.indicator or m.auto[seat] and ctx.can_win(m, seat, tile):
            return False  # drawing it could be a win the seat must take
        after = list(m.hands[seat])
        after[tile] = 0
        return not ctx.waits(after, m.melds[seat] + [Meld(KONG, tile, None, CONCEALED)])

    sites = [(k, a.events[k].seat, t) for k in a.normal_draws() for t in range(T.KINDS)
             if changes(a.moments[k], a.events[k].seat, t) and ctx.rigged_wall(a.moments[k], t) is not None]

    return ctx.attempt(sites, lambda site: ctx.draw_and_kong(*site))


# -- the fault kinds: the 宝 family (听 required, conditions, the 宝) ------------------------------------
def win_without_ready(ctx: Context) -> Injected | None:
    """A seat that has not declared 听 wins on a discard its hand completes, where only a 听 seat may
    win; the log ends there."""
    if not ctx.rules.ready.required_to_win:
        return None
    a = ctx.analysis
    sites = []
    for j in a.quiet_discards():
        m, tile = a.moments[j + 1], discard_tile(a.events[j])
        sites.extend((j + 1, s, tile) for s in range(4)
                     if s != a.events[j].seat and not m.ready[s] and ctx.can_win(m, s, tile))
    site = ctx.pick(sites)
    if site is None:
        return None
    index, seat, tile = site
    record = ctx.copy()
    del record.events[index:]
    record.events.append(win_event(seat, pb.DISCARD, tile))
    return Injected(record, index)


def ron_in_last_draws(ctx: Context) -> Injected | None:
    """After one of the last live draws (self-draw only), a 听 seat wins on the tile the drawer lets
    go (the draw is rigged); the log ends there."""
    wall_end = ctx.rules.wall_end
    if not wall_end.self_draw_only_last:
        return None

    def winners(m: Moment, seat: int, tile: int) -> list[int]:
        if not wall_end.ron_forbidden(m.live):  # m is before the draw: the live count the draw starts from
            return []
        return [s for s in range(4) if s != seat and m.ready[s] and not m.locked[s] and ctx.can_win(m, s, tile)]

    def build(site) -> Injected:
        k, seat, tile = site
        winner = ctx.rng.choice(winners(ctx.analysis.moments[k], seat, tile))
        record, index = ctx.let_go(site, [win_event(winner, pb.DISCARD, tile)], finish=False)
        return Injected(record, index)

    return ctx.attempt(ctx.let_go_sites(lambda m, s, t: bool(winners(m, s, t))), build)


def indicator_flip_sites(ctx: Context) -> list[int]:
    """Indicator flips during play (not at the deal): a 换宝, or a 宝 chosen at a 听 seat's draw."""
    return [i for i, e in enumerate(ctx.clean.events) if e.WhichOneof("kind") == "indicator" and i > 0]


def bao_not_set(ctx: Context) -> Injected | None:
    """A 宝 flip (a 换宝, or the first 宝 at a 听 seat's draw) is due, and the record draws instead."""
    if not applies_to("BAO_MISSING", ctx.rules.name):
        return None

    def build(cut: int) -> Injected:
        def draw_instead(player: SelfPlay) -> None:
            replay = player.replay
            phase = replay.phase
            seat = phase.seat_to_act()
            if seat is None or A.Action(A.FLIP) not in phase.legal(replay, seat):
                raise NoPlace
            wall = replay.table.wall
            player.emit(pb.Event(seat=seat, draw=pb.Draw(tile=T.to_proto(wall.tiles[wall.front]))))

        return Injected(ctx.play_on(cut, [], then=draw_instead), cut)

    return ctx.attempt(indicator_flip_sites(ctx), build)


def bao_set_undue(ctx: Context) -> Injected | None:
    """A 换宝 is logged before a draw where none is due; the hand plays on with the new 宝."""
    part = ctx.rules.wilds
    if not applies_to("BAO_UNDUE", ctx.rules.name) or not hasattr(part, "flip_event"):
        return None
    a = ctx.analysis
    sites = [k for k in a.normal_draws() if a.moments[k].indicator is not None and a.kind(k - 1) != "indicator"]

    def build(k: int) -> Injected:
        def flip(player: SelfPlay) -> None:
            replay = player.replay
            if replay.phase.window:
                player.close_window(pb.Event(seat=a.events[k].seat, draw=pb.Draw()))
            if not isinstance(replay.phase, DrawDue) or replay.phase.seat != a.events[k].seat:
                raise NoPlace
            player.emit(part.flip_event(replay, a.events[k].seat, BAO_CHANGE, change=True))

        return Injected(ctx.play_on(k, [], then=flip), k)

    return ctx.attempt(sites, build)


def ready_condition_fault(code: str):
    """听 declared with a discard that leaves a ready hand the rule book's conditions reject
    (READY_NOT_OPEN: not opened yet; READY_CONDITIONS: no wait makes a legal win)."""
    def inject(ctx: Context) -> Injected | None:
        if A.READY_DISCARD not in ctx.rules.ready.declares:
            return None
        a = ctx.analysis
        sites = []
        for j in a.discards():
            seat = a.events[j].seat
            if a.moments[j].ready[seat] or a.events[j].discard.ready or a.kind(j - 1) == "chi":
                continue
            after = a.moments[j + 1]
            hand, melds = after.hands[seat], after.melds[seat]
            if not ctx.waits(hand, melds):
                continue
            action = A.Action(A.READY_DISCARD, discard_tile(a.events[j]))
            issue = ctx.rules.ready_conditions(a.legality.view, seat, action, tuple(hand), tuple(melds))
            if issue is not None and issue[0] == code:
                sites.append(j)

        def build(j: int) -> Injected:
            event = pb.Event()
            event.CopyFrom(a.events[j])
            event.discard.ready = pb.TING
            return Injected(ctx.play_on(j, [event]), j)

        return ctx.attempt(sites, build)

    inject.__doc__ = ready_condition_fault.__doc__
    return inject


def jiating_on_several_waits(ctx: Context) -> Injected | None:
    """A 听 declaration is logged as 夹听 where the hand has more than one winning tile (or no edge or
    closed wait); the hand plays on."""
    if A.JIATING_DISCARD not in ctx.rules.ready.declares:
        return None
    a = ctx.analysis
    sites = []
    for j in a.discards():
        if a.events[j].discard.ready != pb.TING:
            continue
        seat, after = a.events[j].seat, a.moments[j + 1]
        action = A.Action(A.JIATING_DISCARD, discard_tile(a.events[j]))
        issue = ctx.rules.ready_conditions(a.legality.view, seat, action, tuple(after.hands[seat]),
                                           tuple(after.melds[seat]))
        if issue is not None and issue[0] == "JIATING_ILLEGAL":
            sites.append(j)

    def build(j: int) -> Injected:
        event = pb.Event()
        event.CopyFrom(a.events[j])
        event.discard.ready = pb.JIATING
        return Injected(ctx.play_on(j, [event]), j)

    return ctx.attempt(sites, build)


def win_failing_conditions(ctx: Context) -> Injected | None:
    """A 听 seat wins on a discard that completes its shape but not the rule book's conditions (no
    sequence, no 刻, a missing suit, no 幺九); the log ends there."""
    reason = getattr(ctx.rules, "win_reason", None)
    if reason is None:
        return None
    a = ctx.analysis
    sites = []
    for j in a.quiet_discards():
        m, tile = a.moments[j + 1], discard_tile(a.events[j])
        if ctx.rules.wall_end.ron_forbidden(m.live + 1):
            continue
        for s in range(4):
            if s == a.events[j].seat or not m.ready[s] or m.locked[s] or not ctx.can_win(m, s, tile):
                continue
            hand = list(m.hands[s])
            hand[tile] += 1
            if reason(hand, m.melds[s]) is not None:
                sites.append((j + 1, s, tile))
    site = ctx.pick(sites)
    if site is None:
        return None
    index, seat, tile = site
    record = ctx.copy()
    del record.events[index:]
    record.events.append(win_event(seat, pb.DISCARD, tile))
    return Injected(record, index)


def call_at_four(ctx: Context) -> Injected | None:
    """A seat with three sets down (four tiles in hand), not 听, 碰s a discard: 手把一 (a 听 seat's 碰
    would break its lock too: two findings)."""
    if not applies_to("CALL_AT_FOUR", ctx.rules.name):
        return None
    a = ctx.analysis

    def build(site) -> Injected:
        j, seat = site
        return Injected(ctx.play_on(j + 1, [pon_event(seat, discard_tile(a.events[j]))]), j + 1)

    return ctx.attempt(quiet_call_sites(ctx, lambda m, s, d, t: len(m.melds[s]) >= 3 and m.hands[s][t] >= 2
                                        and not m.ready[s]), build)


def pon_of_a_dragon(ctx: Context) -> Injected | None:
    """A seat holding a pair of a dragon 碰s a discarded one, where dragons are never pong'd."""
    if not applies_to("PON_DRAGON", ctx.rules.name):
        return None
    a = ctx.analysis
    dragons = set(T.DRAGONS)

    def build(site) -> Injected:
        j, seat = site
        return Injected(ctx.play_on(j + 1, [pon_event(seat, discard_tile(a.events[j]))]), j + 1)

    return ctx.attempt(quiet_call_sites(ctx, lambda m, s, d, t: t in dragons and m.hands[s][t] >= 2
                                        and not m.ready[s] and len(m.melds[s]) < 3), build)


def concealed_kong_unopened(ctx: Context) -> Injected | None:
    """A seat that has not opened draws the fourth copy of a triplet it holds and makes a 暗杠, where
    that needs 开门 first (the draw is rigged)."""
    if not applies_to("CONCEALED_KONG_UNOPENED", ctx.rules.name) or not ctx.clean.wall:
        return None
    a = ctx.analysis

    def closed_triplet(m: Moment, seat: int, tile: int) -> bool:
        return (m.hands[seat][tile] == 3 and not any(x.is_open for x in m.melds[seat]) and len(m.melds[seat]) < 3
                and m.live >= 2 and not m.ready[seat] and tile != m.indicator)

    sites = [(k, a.events[k].seat, t) for k in a.normal_draws() for t in range(T.KINDS)
             if closed_triplet(a.moments[k], a.events[k].seat, t) and ctx.rigged_wall(a.moments[k], t) is not None]

    return ctx.attempt(sites, lambda site: ctx.draw_and_kong(*site))


def nearer_winner(ctx: Context, m: Moment, discarder: int, seat: int, tile: int) -> bool:
    """Without 一炮多响 a nearer seat that can win outranks this one: letting the tile go then
    misses nothing, so such a place shows no fault."""
    if ctx.rules.allows_multiple_ron(last_tile=False):
        return False
    nearer = [(discarder + k) % 4 for k in range(1, (seat - discarder) % 4)]
    return any(ctx.can_win(m, n, tile) for n in nearer)


def auto_play_passes_win(ctx: Context) -> Injected | None:
    """A seat goes into 托管 just before a win, and the system lets the win go (where the system
    must win for it: Ruleset.auto_play_wins)."""
    if not ctx.rules.auto_play_wins:
        return None
    a = ctx.analysis
    sites = []
    for k, e in enumerate(a.events):
        if e.WhichOneof("kind") == "draw":
            m, seat = a.moments[k + 1], e.seat
            if not m.auto[seat] and ctx.analysis.legality.is_win(m.hands[seat], m.melds[seat]):
                sites.append(("self", k, seat))
    for j in a.discards():
        m, tile = a.moments[j + 1], discard_tile(a.events[j])
        if a.kind(j + 1) in ("pon", "kong", "chi") and a.events[j + 1].seat != a.events[j].seat:
            continue  # a call was declared: keep to windows the simulator resolves the usual way
        discarder = a.events[j].seat
        sites.extend(("ron", j, s) for s in range(4) if s != discarder and not m.auto[s]
                     and ctx.can_win(m, s, tile) and not nearer_winner(ctx, m, discarder, s, tile))

    def build(site) -> Injected:
        how, at, seat = site
        auto = pb.Event(seat=seat, auto_play=pb.AutoPlay(on=True))
        if how == "ron":  # 托管 from inside the window; the system logs 过, where the finding is
            win = win_event(seat, pb.DISCARD, discard_tile(a.events[at]))
            return Injected(ctx.play_on(at + 1, [auto, Legal(win, log=False), pass_event(seat)]), at + 2)

        def let_win_go(player: SelfPlay) -> None:
            # The seat's choices as if it were not in 托管 (which leaves it the win alone): the fault.
            legal = player.replay.legality.free_turn_actions(seat, player.replay.phase)
            if not any(x.kind == A.SELF_WIN for x in legal):
                raise NoPlace
            tile, _ = player.best_discard(seat, legal)
            phase = player.replay.phase
            player.emit(phase.event_for(player.replay, seat, player.discard_action(tile, legal)))

        return Injected(ctx.play_on(at + 1, [auto], then=let_win_go), at + 2)

    return ctx.attempt(sites, build)


# -- the fault kinds: wildcards, kongs and horses ------------------------------------------------------
def wild_kong(ctx: Context) -> Injected | None:
    """A seat holding three wildcards draws the fourth (the draw is rigged) and makes a 暗杠 of them, where
    a wildcard may not be used in a 碰/杠."""
    if not applies_to("WILD_IN_MELD", ctx.rules.name) or not ctx.clean.wall:
        return None
    a = ctx.analysis
    sites = []
    for k in a.normal_draws():
        m, seat = a.moments[k], a.events[k].seat
        for wild in sorted(a.wilds):
            if m.hands[seat][wild] == 3 and m.live >= 2 and ctx.rigged_wall(m, wild) is not None:
                hand = list(m.hands[seat])
                hand[wild] += 1
                if not (m.auto[seat] and a.legality.is_win(hand, m.melds[seat])):
                    sites.append((k, seat, wild))

    return ctx.attempt(sites, lambda site: ctx.draw_and_kong(*site))


def discard_win_forbidden(ctx: Context) -> Injected | None:
    """A seat declares 胡 on a discard with a hand its rule book lets win only by self-draw (推倒胡: a hand
    that scores only 鸡胡); the drawer's 摸打 is rigged to let the tile go, and the log ends at the win."""
    if not applies_to("JIHU_ON_DISCARD", ctx.rules.name):
        return None
    a = ctx.analysis

    def winners(m: Moment, seat: int, tile: int) -> list[int]:
        found = []
        for other in ((seat + k) % 4 for k in (1, 2, 3)):
            if ctx.can_win(m, other, tile):
                hand = list(m.hands[other])
                hand[tile] += 1
                win = WinInfo(other, A.RON, tile, seat, hand, list(m.melds[other]), 0, wilds=a.wilds,
                              room=a.legality.room(m.melds[other]))
                issue = ctx.rules.discard_win_issue(win)
                if issue is not None and issue[0] == "JIHU_ON_DISCARD":
                    found.append(other)
        return found

    def build(site) -> Injected:
        k, seat, tile = site
        winner = ctx.rng.choice(winners(a.moments[k], seat, tile))
        record, index = ctx.let_go(site, [win_event(winner, pb.DISCARD, tile)], finish=False)
        return Injected(record, index)

    return ctx.attempt(ctx.let_go_sites(lambda m, s, t: bool(winners(m, s, t))), build)


def indicator_not_flipped(ctx: Context) -> Injected | None:
    """The deal's indicator flip (宁乡's 正王, 推倒胡's 鬼) is never logged; the hand plays on without
    wildcards, and the referee reports it where play begins (the dealer's first discard, or a win)."""
    flips = [i for i, e in enumerate(ctx.clean.events) if e.WhichOneof("kind") == "indicator"]
    if not applies_to("INDICATOR_MISSING", ctx.rules.name) or not flips:
        return None

    record = ctx.play_on(flips[0], [], then=lambda player: player.emit_due(player.rules.before_play))  # horses
    starts = next(i for i in range(flips[0], len(record.events)) if record.events[i].WhichOneof("kind") in
                  ("discard", "win"))
    return Injected(record, starts)


def wrong_wilds(ctx: Context) -> Injected | None:
    """The platform logs another kind than the rule's successor as the wildcard it derived from the flip."""
    if not applies_to("WILDS_MISMATCH", ctx.rules.name):
        return None
    flips = [i for i, e in enumerate(ctx.clean.events) if e.WhichOneof("kind") == "indicator" and e.indicator.wilds]
    index = ctx.pick(flips)
    if index is None:
        return None
    record = ctx.copy()
    wilds = record.events[index].indicator.wilds
    right = set(wilds)
    wrong = ctx.rng.choice([T.to_proto(t) for t in ctx.rules.tile_kinds if T.to_proto(t) not in right])
    wilds[ctx.rng.randrange(len(wilds))] = wrong
    return Injected(record, index)


def wrong_horse_tile(ctx: Context) -> Injected | None:
    """A seat's horse (买马) is logged as another tile than the one set aside from the wall."""
    horses = [i for i, e in enumerate(ctx.clean.events) if e.WhichOneof("kind") == "horses" and e.horses.tiles]
    index = ctx.pick(horses) if ctx.clean.wall else None
    if index is None:
        return None
    record = ctx.copy()
    tiles = record.events[index].horses.tiles
    k = ctx.rng.randrange(len(tiles))
    tiles[k] = T.to_proto(ctx.rng.choice([t for t in ctx.rules.tile_kinds if T.to_proto(t) != tiles[k]]))
    return Injected(record, index)


def horses_wrong_anchor(ctx: Context) -> Injected | None:
    """The platform counts the horses from the wrong seat: from each winner in 一炮多响, or from the dealer."""
    record, outcome = claimed_fault(ctx), ctx.analysis.outcome
    if record is None or not outcome.wins or not outcome.horses or not applies_to("HORSE_MISMAPPED", ctx.rules.name):
        return None
    right = tuple(record.claimed.payments)
    for anchor in ("each_winner", "dealer"):
        wrong = ctx.rules.settle(outcome, horse_anchor=anchor).payments
        if wrong != right:
            record.claimed.ClearField("payments")
            record.claimed.payments.extend(wrong)
            return Injected(record, RECORD)
    return None  # the horses land the same either way


# -- the fault kinds: the claimed result ------------------------------------------------------------
def kong_while_not_ready(ctx: Context) -> Injected | None:
    """A seat makes a 明杠 on a discard with a hand ready neither before nor after it, where a kong needs a
    ready hand."""
    if not applies_to("KONG_NOT_READY", ctx.rules.name):
        return None  # only some rule books tie kongs to a ready hand

    def unready_triple(m: Moment, seat: int, discarder: int, tile: int) -> bool:
        if m.hands[seat][tile] != 3 or m.melds[seat] or m.ready[seat] or tile in ctx.analysis.wilds:
            return False  # no melds: no 打筛 lock yet; not 报听; no wild in a meld
        after = list(m.hands[seat])
        after[tile] = 0
        kong = [Meld(KONG, tile, discarder, EXPOSED)]
        return not ctx.waits(m.hands[seat], []) and not ctx.waits(after, kong)

    def build(site) -> Injected:
        j, seat = site
        kong = pb.Event(seat=seat, kong=pb.Kong(kind=pb.EXPOSED, tile=ctx.analysis.events[j].discard.tile))
        return Injected(ctx.play_on(j + 1, [kong]), j + 1)

    return ctx.attempt(quiet_call_sites(ctx, unready_triple), build)


def feng_dong_then_win(ctx: Context) -> Injected | None:
    """The winner chose 封东 just before declaring its win (a 封东 seat may not win)."""
    if "feng_dong" not in ctx.rules.declarations:
        return None
    wins = [i for i, e in enumerate(ctx.clean.events) if e.WhichOneof("kind") == "win"]
    if not wins:
        return None
    record = ctx.copy()
    index = wins[0]
    seat = record.events[index].seat
    record.events.insert(index, pb.Event(seat=seat, feng_dong=pb.FengDong()))
    return Injected(record, index + 1)


def birds_from_winner(ctx: Context) -> Injected | None:
    """The platform counts the birds from the winner instead of from the dealer."""
    record, outcome = claimed_fault(ctx), ctx.analysis.outcome
    if record is None or not outcome.birds or not applies_to("BIRD_MISMAPPED", ctx.rules.name):
        return None
    wrong = ctx.rules.settle(outcome, bird_anchor="winner").payments
    if wrong == tuple(record.claimed.payments):
        return None  # the birds land the same either way
    record.claimed.ClearField("payments")
    record.claimed.payments.extend(wrong)
    return Injected(record, RECORD)


def claimed_fault(ctx: Context) -> pb.GameRecord | None:
    record = ctx.copy()
    return record if record.HasField("claimed") and len(record.claimed.payments) == 4 else None


def wrong_payment(ctx: Context) -> Injected | None:
    """The platform moves a few points from one seat to another in a won hand."""
    record = claimed_fault(ctx)
    outcome = ctx.analysis.outcome
    if record is None or not outcome.wins:
        return None
    for _ in range(MAX_TRIES):
        giver, taker = ctx.rng.sample(range(4), 2)
        amount = ctx.rng.randint(1, 4)
        record.claimed.payments[giver] -= amount
        record.claimed.payments[taker] += amount
        if ctx.rules.explain_mismatch(outcome, record.claimed) is None:
            return Injected(record, RECORD)
        record.CopyFrom(ctx.clean)  # that wrong payment is a more specific fault (e.g. birds from the winner)
    return None


def kong_paid_in_draw(ctx: Context) -> Injected | None:
    """荒庄, yet the platform pays kong money (for the hand's kongs, or a 暗杠 it made up)."""
    record = claimed_fault(ctx)
    a = ctx.analysis
    if record is None or not a.exhaustive or not applies_to("KONG_PAYMENT_IN_DRAW", ctx.rules.name):
        return None  # kong money may stand in this ruleset's 荒庄
    kongs = a.outcome.kongs or [KongInfo(ctx.rng.randrange(4), CONCEALED, ctx.rng.choice(ctx.rules.tile_kinds),
                                         None, RECORD)]
    paid = ctx.rules.settle(Outcome(a.outcome.dealer, kongs=list(kongs)))
    if not any(paid.kong_payments) or any(ctx.rules.settle(a.outcome).kong_payments):
        return None  # kong money stands in this ruleset's 荒庄, or kongs earn nothing
    for field in ("payments", "kong_payments"):
        record.claimed.ClearField(field)
        getattr(record.claimed, field).extend(paid.kong_payments)
    return Injected(record, RECORD)


def wrong_winners(ctx: Context) -> Injected | None:
    """The platform names other winners than the events show."""
    record = claimed_fault(ctx)
    if record is None:
        return None
    actual = sorted(record.claimed.winners)
    choices = [[s] for s in range(4) if [s] != actual] + ([[0, 1]] if actual != [0, 1] else [])
    record.claimed.ClearField("winners")
    record.claimed.winners.extend(ctx.rng.choice(choices))
    return Injected(record, RECORD)


def wrong_next_dealer(ctx: Context) -> Injected | None:
    """The platform names a next dealer the dealer rule does not give."""
    record = claimed_fault(ctx)
    if record is None or not record.claimed.has_next_dealer:
        return None
    record.claimed.next_dealer = ctx.rng.choice([s for s in range(4) if s != record.claimed.next_dealer])
    return Injected(record, RECORD)


def missing_payment(ctx: Context) -> Injected | None:
    """The claimed result pays three seats (or five), not four."""
    record = claimed_fault(ctx)
    if record is None:
        return None
    if ctx.rng.random() < 0.5:
        del record.claimed.payments[ctx.rng.randrange(4)]
    else:
        record.claimed.payments.append(0)
    return Injected(record, RECORD)


# -- the fault kinds: 报听, 打筛, the 正王 and the 海底 (SPEC NX.2-NX.4) ------------------------------------
def ready_event(seat: int) -> pb.Event:
    return pb.Event(seat=seat, ready=pb.Ready(kind=pb.BAOTING))


def feng_dong_seats(ctx: Context, before: int) -> set[int]:
    """Seats that chose 封东 before event `before` (its lock would be reported first)."""
    return {e.seat for e in ctx.clean.events[:before] if e.WhichOneof("kind") == "feng_dong"}


def first_discard(ctx: Context) -> int | None:
    """The hand's first discard, which closes the 报听 window the deal opens."""
    discards = ctx.analysis.discards()
    return discards[0] if discards else None


LONG_HAND_REACH = 36  # a won hand is played on only if it left at most this many live tiles (turns cost)
_long_hands: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # clean Analysis -> (record, Analysis)


def long_hand(ctx: Context) -> Context | None:
    """The clean hand played on from its first win with every win let go (漏胡: an info note), so that it
    runs on to kongs, their 打筛 and the 海底: a Context on that record, or None where that does not work.
    It is played once per record, from a seed of its own, for every kind that asks (the benchmark shares
    one Analysis between kinds)."""
    wins = [i for i, e in enumerate(ctx.clean.events) if e.WhichOneof("kind") == "win"]
    if not wins:
        return ctx  # it ran to its end already
    if not ctx.clean.wall:
        return None  # the rest of the wall is unknown
    if ctx.analysis not in _long_hands:
        own = Context(ctx.clean, ctx.rules, random.Random(ctx.clean.SerializeToString(deterministic=True)),
                      ctx.analysis)

        def let_wins_go(player: SelfPlay) -> None:
            player.policy = replace(player.policy, pass_win=1.0)  # a seat in 托管 still wins

        try:
            record = own.play_on(wins[0], [], then=let_wins_go)
            _long_hands[ctx.analysis] = record, Analysis(record, ctx.rules)
        except (NoPlace, NotClean):
            _long_hands[ctx.analysis] = None
    found = _long_hands[ctx.analysis]
    return Context(found[0], ctx.rules, ctx.rng, found[1]) if found else None


def clean_or_long(ctx: Context, inject: Callable[[Context], Injected | None],
                  reach: int = LONG_HAND_REACH) -> Injected | None:
    """inject(ctx) on the clean record, or where it finds no place there, on its long hand (if the hand
    ended with at most `reach` live tiles left)."""
    found = inject(ctx)
    if found is None and ctx.analysis.moments[-1].live <= reach:
        long = long_hand(ctx)
        found = inject(long) if long not in (None, ctx) else None
    return found


def baoting_by_dealer(ctx: Context) -> Injected | None:
    """The dealer declares 报听 before its first discard (only a 闲家 may); the hand plays on (a 报听
    the rules did not allow binds nothing)."""
    j = first_discard(ctx)
    if not applies_to("BAOTING_BY_DEALER", ctx.rules.name) or j is None:
        return None
    return Injected(ctx.play_on(j, [ready_event(ctx.clean.dealer)]), j)


def baoting_not_tenpai(ctx: Context) -> Injected | None:
    """A 闲家 whose dealt hand waits on nothing declares 报听 in its window; the hand plays on (unbound)."""
    j = first_discard(ctx)
    if not applies_to("BAOTING_NOT_TENPAI", ctx.rules.name) or j is None:
        return None
    m = ctx.analysis.moments[j]
    seats = [s for s in range(4) if s not in (ctx.clean.dealer, ctx.analysis.events[j].seat) and not m.ready[s]
             and not ctx.waits(m.hands[s], m.melds[s])]
    return ctx.attempt(seats, lambda seat: Injected(ctx.play_on(j, [ready_event(seat)]), j))


def baoting_out_of_window(ctx: Context) -> Injected | None:
    """A 闲家 with a ready hand declares 报听 after the hand's first discard, just before one of its draws."""
    j = first_discard(ctx)
    if not applies_to("BAOTING_OUT_OF_WINDOW", ctx.rules.name) or j is None:
        return None
    a = ctx.analysis

    def ready_non_dealer(k: int) -> bool:
        m, seat = a.moments[k], a.events[k].seat
        return seat != ctx.clean.dealer and not m.ready[seat] and bool(ctx.waits(m.hands[seat], m.melds[seat]))

    sites = [k for k in a.normal_draws() if k > j and ready_non_dealer(k)]
    return ctx.attempt(sites, lambda k: Injected(ctx.play_on(k, [ready_event(a.events[k].seat)]), k))


def keeps_draw(ctx: Context, discards: list[int]) -> Injected | None:
    """At one of these discards (each right after the seat's own draw) the seat keeps the drawn tile and
    lets go of another one it holds (never a wildcard); the hand plays on."""
    a, wilds = ctx.analysis, set(ctx.analysis.wilds)
    sites = []
    for j in discards:
        m, seat = a.moments[j], a.events[j].seat
        if seat not in feng_dong_seats(ctx, j):  # a 封东 seat's lock would be reported first
            sites.extend((j, t) for t in range(T.KINDS)
                         if m.hands[seat][t] and t != m.last_draw[seat] and t not in wilds)

    def build(site) -> Injected:
        j, tile = site
        discard = pb.Event(seat=a.events[j].seat, discard=pb.Discard(tile=T.to_proto(tile)))
        return Injected(ctx.play_on(j, [discard]), j)

    return ctx.attempt(sites, build)


def baoting_hand_change(ctx: Context) -> Injected | None:
    """A 报听 seat keeps the tile it drew and lets go of another one (not at the 海底, whose rule comes first)."""
    if not applies_to("BAOTING_HAND_CHANGE", ctx.rules.name) or not any(ctx.analysis.moments[-1].ready):
        return None
    return clean_or_long(ctx, lambda c: keeps_draw(c, [j for j in ready_seat_discards(c, after_draw=True)
                                                       if c.analysis.moments[j].live > 0]),
                         reach=len(ctx.clean.wall))  # few hands have a 报听: play on any of them


def haidi_not_discarded(ctx: Context) -> Injected | None:
    """The seat that took the 海底 tile and did not win keeps it and lets go of another one."""
    if not applies_to("HAIDI_NOT_DISCARDED", ctx.rules.name):
        return None

    def taken(c: Context) -> list[int]:
        """The 海底 taker's discard: the one made holding the last live tile, just drawn."""
        a = c.analysis
        return [j for j in a.discards()
                if a.moments[j].live == 0 and a.moments[j].last_draw[a.events[j].seat] is not None]

    return clean_or_long(ctx, lambda c: keeps_draw(c, taken(c)))


def ron_on_king(ctx: Context) -> Injected | None:
    """A seat wins on the 正王 another seat draws and lets go (only a self-drawn 正王 wins); the log ends there."""
    king = ctx.analysis.outcome.indicator
    if not applies_to("RON_ON_KING", ctx.rules.name) or king is None:
        return None
    a, code = ctx.analysis, T.to_proto(king)
    sites = [(k, seat, winner) for k, seat, _ in ctx.let_go_sites(lambda m, s, t: t == king)
             for winner in range(4) if winner != seat and ctx.can_win(a.moments[k], winner, king)]

    def build(site) -> Injected:
        k, seat, winner = site

        def let_king_go(player: SelfPlay) -> None:
            for event in (pb.Event(seat=seat, draw=pb.Draw(tile=code)),
                          pb.Event(seat=seat, discard=pb.Discard(tile=code))):
                if not ctx.is_legal(player, event):
                    raise NoPlace
                player.emit(event)
            s = player.replay.table.seats[winner]
            if player.replay.legality.win_issue(winner, A.Action(A.RON, king), king) or any(s.locks.values()):
                raise NoPlace  # 漏胡 (or a lock such as 封东) would keep the seat from any win on a discard
            player.record.events.append(win_event(winner, pb.DISCARD, king))  # the fault halts the referee

        record = ctx.play_on(k, [], wall=ctx.rigged_wall(a.moments[k], king), then=let_king_go, finish=False)
        return Injected(record, k + 2)

    return ctx.attempt(sites, build)


def stacked_wall(ctx: Context, m: Moment, tiles: list[int]) -> list[int] | None:
    """The wall with `tiles` moved (each from a later undrawn place) to the next places drawn from m.front on."""
    wall = list(ctx.clean.wall)
    for p, tile in enumerate(tiles, m.front):
        spots = [q for q in range(p, m.back) if wall[q] == T.to_proto(tile)]
        if not spots:
            return None
        wall[p], wall[spots[0]] = wall[spots[0]], wall[p]
    return wall


def kong_sites(ctx: Context) -> list[tuple[int, int, int]]:
    """(draw index, seat, tile): the seat holds three of a tile (not a wildcard) and could draw an undrawn
    fourth there and make a 暗杠 (ready before or after it; letting a win with it go is allowed, an info
    note), with the wall long enough for its 打筛 and a few more draws."""
    a, wilds, sites = ctx.analysis, set(ctx.analysis.wilds), []
    for k in a.normal_draws():
        m, seat = a.moments[k], a.events[k].seat
        if m.live >= 6:
            undrawn = {T.from_proto(code) for code in ctx.clean.wall[m.front:m.back]}
            sites.extend((k, seat, t) for t in sorted(undrawn - wilds) if m.hands[seat][t] == 3
                         and (ctx.waits(m.hands[seat], m.melds[seat]) or kong_waits(ctx, m, seat, t)[seat])
                         and not (m.auto[seat] and ctx.can_win(m, seat, t)))  # 托管 would have to win with it
    return sites


def kong_waits(ctx: Context, m: Moment, seat: int, tile: int) -> list[tuple[int, ...]]:
    """Each seat's waits once `seat` has drawn the fourth `tile` and made its 暗杠 (the others' as at m)."""
    after = list(m.hands[seat])
    after[tile] = 0
    return [ctx.waits(after, m.melds[seat] + [Meld(KONG, tile, None, CONCEALED)]) if s == seat
            else ctx.waits(m.hands[s], m.melds[s]) for s in range(4)]


def kong_scene(ctx: Context, k: int, seat: int, wall: list[int] | None,
               then: Callable[[SelfPlay], None]) -> pb.GameRecord:
    """The seat draws the fourth of a tile, makes a 暗杠 (both legal) and reveals its 打筛 tiles, on a wall
    rigged with the tile and what follows; then(player)."""
    if wall is None:
        raise NoPlace
    code = wall[ctx.analysis.moments[k].front]

    def reveal(player: SelfPlay) -> None:
        player.emit(player.replay.phase.event_for(player.replay, seat, A.Action(A.REVEAL)))
        then(player)

    forged = [Legal(pb.Event(seat=seat, draw=pb.Draw(tile=code))),
              Legal(pb.Event(seat=seat, kong=pb.Kong(kind=pb.CONCEALED, tile=code)))]
    return ctx.play_on(k, forged, wall=wall, then=reveal)


def call_after_dashai(ctx: Context) -> Injected | None:
    """After its 暗杠 and 打筛, the konger takes its 下家's next discard by 碰 (it may only draw and discard).

    The wall is rigged for the kong, for 打筛 tiles nobody can win on, and for a tile the konger holds a
    pair of, which the 下家 draws and lets go."""
    if not applies_to("CALL_AFTER_DASHAI", ctx.rules.name):
        return None

    def place(c: Context) -> Injected | None:
        a, wilds = c.analysis, set(c.analysis.wilds)

        def build(site) -> Injected:
            k, konger, tile = site
            m = a.moments[k]
            undrawn = {T.from_proto(code) for code in c.clean.wall[m.front:m.back]} - wilds
            waits, drawer = kong_waits(c, m, konger, tile), (konger + 1) % 4
            quiet = sorted(undrawn.difference(*waits))  # nobody could win on these
            # The 下家's tile: it may not win with it, nor may a seat in 托管 (others may let the win go).
            automatic = [w for s, w in enumerate(waits) if m.auto[s]]
            pairs = [t for t in sorted(undrawn.difference(waits[drawer], *automatic))
                     if m.hands[konger][t] >= 2 and t != tile]
            if not pairs or not quiet:
                raise NoPlace
            shown = c.rng.choice(pairs)
            discard = pb.Event(seat=drawer, discard=pb.Discard(tile=T.to_proto(shown)))

            def pon_next_discard(player: SelfPlay) -> None:
                player.close_window(None)  # nobody can win on the revealed tiles
                replay = player.replay
                player.emit(replay.phase.event_for(replay, drawer, A.Action(A.DRAW)))
                if not c.is_legal(player, discard) or A.Action(A.SELF_WIN, shown) in replay.legal_actions(drawer):
                    raise NoPlace  # (an instant hand such as 黑天胡 would win with it)
                player.emit(discard)
                player.emit(pon_event(konger, shown))

            wall = stacked_wall(c, m, [tile, c.rng.choice(quiet), c.rng.choice(quiet), shown])
            return Injected(kong_scene(c, k, konger, wall, pon_next_discard), k + 5)

        return c.attempt(kong_sites(c), build)

    return clean_or_long(ctx, place)


def dashai_ron_not_nearest(ctx: Context) -> Injected | None:
    """After a 暗杠, two seats win on its 打筛 tiles where only the one nearest the konger may (杠上炮).

    The wall is rigged for the kong and for two 打筛 tiles: one each of the two can win on."""
    if not applies_to("DASHAI_RON_NOT_NEAREST", ctx.rules.name):
        return None

    def place(c: Context) -> Injected | None:
        a, wilds = c.analysis, set(c.analysis.wilds)

        def wins(site) -> list[list[int]]:
            """For each other seat in play order from the konger, the undrawn tiles it could win on (and the
            konger could not)."""
            k, konger, tile = site
            m = a.moments[k]
            waits = kong_waits(c, m, konger, tile)
            undrawn = {T.from_proto(code) for code in c.clean.wall[m.front:m.back]} - wilds - set(waits[konger])
            return [sorted(undrawn & set(waits[(konger + i) % 4])) for i in (1, 2, 3)]

        def build(site) -> Injected:
            k, konger, tile = site
            near, far = [((konger + i + 1) % 4, c.rng.choice(w)) for i, w in enumerate(wins(site)) if w][:2]

            def two_wins(player: SelfPlay) -> None:
                replay, window = player.replay, player.replay.phase
                for seat, shown in (near, far):
                    if A.Action(A.RON, shown) not in window.legal(replay, seat):
                        raise NoPlace  # a 漏胡 keeps it from winning
                for seat, shown in (near, far):
                    player.emit(window.event_for(replay, seat, A.Action(A.RON, shown)))
                player.end()

            wall = stacked_wall(c, a.moments[k], [tile, near[1], far[1]])
            return Injected(kong_scene(c, k, konger, wall, two_wins), k + 4)

        return c.attempt([site for site in kong_sites(c) if sum(map(bool, wins(site))) >= 2], build)

    return clean_or_long(ctx, place)
def rob_unrobbable_kong(ctx: Context) -> Injected | None:
    """A seat declares 抢杠胡 on a 暗杠, or on a 直杠 just made on a discard, where only a 补杠 can be
    robbed; the log ends there."""
    rules, a = ctx.rules, ctx.analysis
    kinds = {pb.CONCEALED: CONCEALED, pb.EXPOSED: EXPOSED}
    sites = []
    for j, event in enumerate(a.events):
        if event.WhichOneof("kind") != "kong" or kinds.get(event.kong.kind) in (None, *rules.robbable_kongs):
            continue
        busy = {event.seat}
        if event.kong.kind == pb.EXPOSED:  # the claim window is open: the discarder and who declared in it
            d = max(i for i in a.discards() if i < j)
            busy |= {a.events[d].seat} | {a.events[i].seat for i in range(d + 1, j)}
        sites.extend((j, s) for s in range(4) if s not in busy)
    site = ctx.pick(sites)
    if site is None:
        return None
    j, seat = site
    record = ctx.copy()
    del record.events[j + 1:]
    record.events.append(pb.Event(seat=seat, win=pb.Win(kind=pb.ROB_KONG, tile=a.events[j].kong.tile)))
    return Injected(record, j + 1)


def misapplied_claim(ctx: Context, code: str) -> Injected | None:
    """The claimed result a platform pays when it gets the rule `code` names wrong (the ruleset's
    misapplied hook), where that changes the payments and the referee would name nothing else."""
    record, outcome = claimed_fault(ctx), ctx.analysis.outcome
    if record is None or not applies_to(code, ctx.rules.name):
        return None
    wrong = ctx.rules.misapplied(outcome, code)
    if wrong is None:
        return None
    for field in ("payments", "kong_payments"):
        record.claimed.ClearField(field)
        getattr(record.claimed, field).extend(getattr(wrong, field))
    explained = ctx.rules.explain_mismatch(outcome, record.claimed)
    return Injected(record, RECORD) if explained and explained[0] == code else None


def cap_not_applied(ctx: Context) -> Injected | None:
    """The platform pays a hand inside the 爆胡 cap for all its 番, above the cap."""
    return misapplied_claim(ctx, "FAN_CAP_NOT_APPLIED")


def floor_not_applied(ctx: Context) -> Injected | None:
    """The platform pays a 杠上开花, 海底捞月, 抢杠 or 一炮三响 hand below the cap it must be paid as."""
    return misapplied_claim(ctx, "FAN_FLOOR_NOT_APPLIED")


def extras_on_special(ctx: Context) -> Injected | None:
    """The platform adds 附加 (自摸, 风位, 风圈, 三元, 听) to a special hand, which is paid alone."""
    return misapplied_claim(ctx, "EXTRAS_ON_SPECIAL")


def liability_ignored(ctx: Context) -> Injected | None:
    """The platform charges a liable win (包) to its usual payers instead of the liable seat."""
    return misapplied_claim(ctx, "LIABILITY_IGNORED")


# -- the fault kinds: the platform's offered actions (referee/offers.py) --------------------------------
OFFER_EVENTS = frozenset(("draw", "discard", "chi", "pon", "kong", "win", "pass", "haidi"))
TAKEN_KIND = {"draw": pb.ACT_DRAW, "discard": pb.ACT_DISCARD, "chi": pb.ACT_CHI, "pon": pb.ACT_PON,
              "kong": pb.ACT_KONG, "win": pb.ACT_WIN, "pass": pb.ACT_PASS}


class OfferProbe(Replay):
    """A replay that keeps, for every event with offers, the legal set (in the platform's form) of
    the phase that took it, and the tile an offer there may leave out."""

    def __init__(self, record: pb.GameRecord, rules: Ruleset):
        super().__init__(record, rules, offers=True)
        self.offer_probe: dict[int, tuple[set, int | None]] = {}


def offer_sites(ctx: Context) -> dict[int, tuple[set, int | None, offers.Key | None]]:
    """event index -> (legal keys, context tile, the key of what the event did) for every event of a
    seat's choice that a platform can show offers for, read by replaying the clean record with a
    placeholder offer on each (the referee's own legal sets)."""
    probe_record = ctx.copy()
    for event in probe_record.events:
        if event.WhichOneof("kind") in OFFER_EVENTS:
            del event.offered[:]
            event.offered.add(kind=pb.ACT_PASS)
    probe = OfferProbe(probe_record, ctx.rules)
    probe.run()
    sites = {}
    for index, (legal, context) in sorted(probe.offer_probe.items()):
        event = ctx.clean.events[index]
        kind = event.WhichOneof("kind")
        if kind == "haidi":
            taken = (pb.ACT_HAIDI, ()) if event.haidi.accepted else offers.PASS_KEY
        else:
            taken = offers.read_offer(pb.OfferedAction(kind=TAKEN_KIND[kind], tiles=taken_tiles(event, kind)), context)
            if kind == "discard" and event.discard.ready:
                taken = (pb.ACT_READY, taken[1])
            if kind == "chi" and event.chi.ready:
                taken = (pb.ACT_READY, taken[1])
        if legal:
            sites[index] = (legal, context, taken if isinstance(taken, tuple) else None)
    return sites


def taken_tiles(event: pb.Event, kind: str) -> list[int]:
    if kind == "discard":
        return [event.discard.tile]
    if kind == "chi":
        return list(event.chi.tiles)
    if kind in ("pon", "kong", "win"):
        return [getattr(event, kind).tile]
    return []


def with_offers(ctx: Context, index: int, keys) -> pb.GameRecord:
    record = ctx.copy()
    event = record.events[index]
    del event.offered[:]
    event.offered.extend(pb.OfferedAction(kind=kind, tiles=[T.to_proto(t) for t in tiles])
                         for kind, tiles in sorted(keys))
    return record


def offer_dropped(ctx: Context) -> Injected | None:
    """The platform leaves a legal action out of a seat's offers (a win first, where one was legal:
    the platform made the seat miss it), at one decision point; everything else as it was."""
    sites = offer_sites(ctx)
    wins = [(i, k) for i, (legal, _, taken) in sites.items() for k in sorted(legal)
            if k[0] == pb.ACT_WIN and k != taken]
    others = [(i, k) for i, (legal, _, taken) in sites.items() for k in sorted(legal) if k != taken]
    site = ctx.pick(wins) or ctx.pick(others)
    if site is None:
        return None
    index, dropped = site
    return Injected(with_offers(ctx, index, sites[index][0] - {dropped}), index)


def offer_added(ctx: Context) -> Injected | None:
    """The platform offers a seat one action that is not legal there (a win, a 碰 or a kong of the
    tile at hand, a 过 on its own turn, a discard of a tile it does not hold), besides the legal ones."""
    sites = offer_sites(ctx)
    if not sites:
        return None
    index = ctx.pick(sorted(sites))
    legal, context, _ = sites[index]
    candidates = [(pb.ACT_PASS, ())]
    if context is not None:
        candidates += [(pb.ACT_WIN, (context,)), (pb.ACT_PON, (context,)), (pb.ACT_KONG, (context,))]
    held = ctx.analysis.moments[index].hands[ctx.clean.events[index].seat]
    candidates += [(pb.ACT_DISCARD, (t,)) for t in ctx.rules.tile_kinds if not held[t]]
    added = ctx.pick(k for k in candidates if k not in legal)
    if added is None:
        return None
    return Injected(with_offers(ctx, index, legal | {added}), index)


# -- the catalogue ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class FaultKind:
    name: str
    code: str  # the violation code the referee must report
    inject: Callable[[Context], Injected | None]

    @property
    def about(self) -> str:
        return " ".join(self.inject.__doc__.split("\n\n")[0].split())


FAULT_KINDS: dict[str, FaultKind] = {
    k.name: k
    for k in (
        FaultKind("fifth_copy_in_wall", "TILE_CONSERVATION", fifth_copy_in_wall),
        FaultKind("short_initial_hand", "TILE_COUNT", short_initial_hand),
        FaultKind("impossible_tile_code", "IMPOSSIBLE_TILE", impossible_tile_code),
        FaultKind("invalid_enum_value", "INVALID_VALUE", invalid_enum_value),
        FaultKind("tampered_draw", "DRAW_MISMATCH", tampered_draw),
        FaultKind("draw_into_reserve", "DRAW_FROM_RESERVE", draw_into_reserve),
        FaultKind("seat_out_of_turn", "OUT_OF_TURN", seat_out_of_turn),
        FaultKind("pon_on_own_turn", "ILLEGAL_ACTION", pon_on_own_turn),
        FaultKind("event_after_end", "EVENT_AFTER_END", event_after_end),
        FaultKind("truncated_record", "HAND_INCOMPLETE", truncated_record),
        FaultKind("early_exhaustive_draw", "ILLEGAL_EXHAUSTIVE_DRAW", early_exhaustive_draw),
        FaultKind("wrong_bird_tile", "BIRD_MISMATCH", wrong_bird_tile),
        FaultKind("discard_not_held", "DISCARD_NOT_HELD", discard_not_held),
        FaultKind("wild_discarded", "WILD_DISCARDED", wild_discarded),
        FaultKind("chi_forbidden", "CHI_FORBIDDEN", chi_forbidden),
        FaultKind("chi_not_from_left", "CHI_NOT_FROM_LEFT", chi_not_from_left),
        FaultKind("pon_without_pair", "ILLEGAL_CALL", pon_without_pair),
        FaultKind("chi_without_run", "ILLEGAL_CALL", chi_without_run),
        FaultKind("ron_after_passing", "RON_AFTER_MISSED_WIN", ron_after_passing),
        FaultKind("pon_over_win", "CLAIM_PRIORITY", pon_over_win),
        FaultKind("second_ron", "MULTIPLE_RON", second_ron),
        FaultKind("false_win", "FALSE_WIN", false_win),
        FaultKind("ready_not_tenpai", "READY_NOT_TENPAI", ready_not_tenpai),
        FaultKind("ready_twice", "READY_TWICE", ready_twice),
        FaultKind("ready_lock_breach", "READY_LOCK_BREACH", ready_lock_breach),
        FaultKind("ready_pon", "READY_PON", ready_pon),
        FaultKind("ready_kong_breaks_tenpai", "READY_KONG_BREAKS_TENPAI", ready_kong_breaks_tenpai),
        FaultKind("auto_play_passes_win", "AUTO_WIN_MISSED", auto_play_passes_win),
        FaultKind("wrong_payment", "SETTLEMENT_MISMATCH", wrong_payment),
        FaultKind("kong_paid_in_draw", "KONG_PAYMENT_IN_DRAW", kong_paid_in_draw),
        FaultKind("wrong_winners", "WINNERS_MISMATCH", wrong_winners),
        FaultKind("wrong_next_dealer", "NEXT_DEALER_MISMATCH", wrong_next_dealer),
        FaultKind("missing_payment", "CLAIM_MALFORMED", missing_payment),
        FaultKind("kong_while_not_ready", "KONG_NOT_READY", kong_while_not_ready),
        FaultKind("feng_dong_then_win", "FENGDONG_BREACH", feng_dong_then_win),
        FaultKind("birds_from_winner", "BIRD_MISMAPPED", birds_from_winner),
        FaultKind("baoting_by_dealer", "BAOTING_BY_DEALER", baoting_by_dealer),
        FaultKind("baoting_not_tenpai", "BAOTING_NOT_TENPAI", baoting_not_tenpai),
        FaultKind("baoting_out_of_window", "BAOTING_OUT_OF_WINDOW", baoting_out_of_window),
        FaultKind("baoting_hand_change", "BAOTING_HAND_CHANGE", baoting_hand_change),
        FaultKind("haidi_not_discarded", "HAIDI_NOT_DISCARDED", haidi_not_discarded),
        FaultKind("call_after_dashai", "CALL_AFTER_DASHAI", call_after_dashai),
        FaultKind("ron_on_king", "RON_ON_KING", ron_on_king),
        FaultKind("dashai_ron_not_nearest", "DASHAI_RON_NOT_NEAREST", dashai_ron_not_nearest),
        FaultKind("wild_kong", "WILD_IN_MELD", wild_kong),
        FaultKind("discard_win_forbidden", "JIHU_ON_DISCARD", discard_win_forbidden),
        FaultKind("wrong_wilds", "WILDS_MISMATCH", wrong_wilds),
        FaultKind("indicator_not_flipped", "INDICATOR_MISSING", indicator_not_flipped),
        FaultKind("wrong_horse_tile", "HORSE_MISMATCH", wrong_horse_tile),
        FaultKind("horses_wrong_anchor", "HORSE_MISMAPPED", horses_wrong_anchor),
        FaultKind("rob_unrobbable_kong", "ROB_NOT_ROBBABLE", rob_unrobbable_kong),
        FaultKind("cap_not_applied", "FAN_CAP_NOT_APPLIED", cap_not_applied),
        FaultKind("floor_not_applied", "FAN_FLOOR_NOT_APPLIED", floor_not_applied),
        FaultKind("extras_on_special", "EXTRAS_ON_SPECIAL", extras_on_special),
        FaultKind("liability_ignored", "LIABILITY_IGNORED", liability_ignored),
        FaultKind("win_without_ready", "WIN_WITHOUT_READY", win_without_ready),
        FaultKind("ron_in_last_draws", "RON_IN_LAST_DRAWS", ron_in_last_draws),
        FaultKind("win_after_passing", "WIN_AFTER_PASSED_WIN", win_after_passing),
        FaultKind("ready_not_open", "READY_NOT_OPEN", ready_condition_fault("READY_NOT_OPEN")),
        FaultKind("ready_fails_conditions", "READY_CONDITIONS", ready_condition_fault("READY_CONDITIONS")),
        FaultKind("ready_call", "READY_CALL", ready_call),
        FaultKind("ready_kong_changes_waits", "READY_WAITS_CHANGED", ready_kong_changes_waits),
        FaultKind("call_at_four", "CALL_AT_FOUR", call_at_four),
        FaultKind("win_failing_conditions", "WIN_CONDITIONS", win_failing_conditions),
        FaultKind("bao_not_set", "BAO_MISSING", bao_not_set),
        FaultKind("bao_set_undue", "BAO_UNDUE", bao_set_undue),
        FaultKind("pon_of_a_dragon", "PON_DRAGON", pon_of_a_dragon),
        FaultKind("concealed_kong_unopened", "CONCEALED_KONG_UNOPENED", concealed_kong_unopened),
        FaultKind("jiating_on_several_waits", "JIATING_ILLEGAL", jiating_on_several_waits),
        FaultKind("offer_dropped", "OFFER_MISSING", offer_dropped),
        FaultKind("offer_added", "OFFER_ILLEGAL", offer_added),
    )
}


def fault_rng(kind: str, seed: int, index: int) -> random.Random:
    return random.Random(f"mjref-inject/{kind}/{seed}/{index}")


def inject_one(kind: FaultKind, record: pb.GameRecord, rules: Ruleset, rng: random.Random,
               analysis: Analysis | None = None) -> pb.GameRecord | None:
    """The record with this fault and its label, or None when the record has no place for it."""
    ctx = Context(record, rules, rng, analysis)
    try:
        injected = kind.inject(ctx)
    except NoPlace:
        injected = None
    if injected is None:
        return None
    out = injected.record
    out.fault.CopyFrom(pb.FaultLabel(kind=kind.name, expected_code=kind.code, event_index=injected.event_index))
    return out


@dataclass
class InjectStats:
    injected: int = 0
    skipped: int = 0  # selected, but the record had no place for the fault
    passed: int = 0  # not selected: written unchanged
    unusable: int = 0  # selected, but not a clean replayable record: written unchanged
    undecodable: int = 0  # payloads that are not records: written unchanged
    corrupt_spans: int = 0  # damaged archive bytes: not written


def inject_archive(kind: FaultKind, in_path, out_path, rate: float, seed: int, quiet: bool = True) -> InjectStats:
    stats = InjectStats()
    rulesets: dict[tuple, Ruleset] = {}

    def payloads() -> Iterator[bytes]:
        for index, item in enumerate(progress(archive.iter_archive(in_path), None, quiet, "record")):
            if isinstance(item, archive.CorruptSpan):
                stats.corrupt_spans += 1
                continue
            rng = fault_rng(kind.name, seed, index)
            if rng.random() >= rate:
                stats.passed += 1
                yield item.payload
                continue
            try:
                record = records.parse_binary(item.payload)
            except records.RecordError:
                stats.undecodable += 1
                yield item.payload
                continue
            try:
                key = (record.ruleset.name, tuple(sorted(record.ruleset.options.items())))
                if key not in rulesets:
                    rulesets[key] = get_ruleset(key[0], dict(key[1]))
                out = inject_one(kind, record, rulesets[key], rng)
            except (RulesetError, NotClean):
                stats.unusable += 1
                yield item.payload
                continue
            if out is None:
                stats.skipped += 1
                yield item.payload
            else:
                stats.injected += 1
                yield records.to_binary(out)

    archive.write_archive(out_path, payloads())
    return stats


# -- the command --------------------------------------------------------------------------------------
def cmd_inject(args) -> int:
    if args.list:
        width = max(len(k) for k in FAULT_KINDS)
        for kind in FAULT_KINDS.values():
            print(f"{kind.name:<{width}}  {kind.code:<24}  {kind.about}")
        from referee.match_faults import MATCH_FAULT_KINDS

        for kind in MATCH_FAULT_KINDS.values():
            print(f"{kind.name:<{width}}  {kind.code:<24}  (a whole match) {kind.about}")
        for code, why in SKIPPED_CODES.items():
            print(f"{'(none)':<{width}}  {code:<24}  {why}")
        return 0
    missing = [flag for flag, value in (("--kind", args.kind), ("--in", args.input), ("--out", args.out)) if not value]
    if missing:
        print(f"mjref inject: {', '.join(missing)} required (or --list)", file=sys.stderr)
        return 2
    from referee.match_faults import MATCH_FAULT_KINDS, inject_match_archive

    kind = FAULT_KINDS.get(args.kind) or MATCH_FAULT_KINDS.get(args.kind)
    if kind is None:
        print(f"mjref inject: unknown fault kind {args.kind!r}; `mjref inject --list` shows them", file=sys.stderr)
        return 2
    if not 0.0 <= args.rate <= 1.0:
        print("mjref inject: --rate takes a fraction from 0 to 1", file=sys.stderr)
        return 2
    if not pathlib.Path(args.input).is_file():
        print(f"mjref inject: no such archive: {args.input}", file=sys.stderr)
        return 2
    whole_matches = kind.name in MATCH_FAULT_KINDS
    try:
        if whole_matches:
            stats = InjectStats()
            inject_match_archive(kind, args.input, args.out, args.rate, args.seed, stats)
        else:
            stats = inject_archive(kind, args.input, args.out, args.rate, args.seed, args.quiet)
    except (OSError, archive.ArchiveError) as err:
        print(f"mjref inject: {err}", file=sys.stderr)
        return 2
    if not args.quiet:
        unit = " matches" if whole_matches else ""
        print(f"{kind.name} ({kind.code}): injected {stats.injected}{unit}, skipped {stats.skipped} (no suitable "
              f"place), passed {stats.passed} unchanged -> {args.out}", file=sys.stderr)
    for what, count in (("records not clean or not replayable, passed through", stats.unusable),
                        ("undecodable payloads passed through", stats.undecodable),
                        ("corrupt spans dropped", stats.corrupt_spans)):
        if count:
            print(f"mjref inject: {count} {what}", file=sys.stderr)
    return 2 if stats.corrupt_spans else 0


def add_inject_command(sub) -> None:
    inject = sub.add_parser("inject", help="inject one labelled fault kind into clean records",
                            description="Mutate clean records (e.g. from `mjref simulate`) into records that "
                                        "each carry exactly one known fault, labelled in record.fault.")
    inject.add_argument("--list", action="store_true", help="list the fault kinds and their codes")
    inject.add_argument("--kind", help="the fault kind (see --list); a match kind faults whole matches (records "
                                         "grouped by match_id)")
    inject.add_argument("--in", dest="input", metavar="ARCHIVE", help="clean records (TFRecord archive)")
    inject.add_argument("--out", metavar="ARCHIVE", help="where to write every record, faulty or not")
    inject.add_argument("--rate", type=float, default=1.0,
                        help="fraction of records (of matches, for a match kind) to fault (default 1)")
    inject.add_argument("--seed", type=int, default=0, help="same seed, same choices")
    inject.add_argument("--quiet", action="store_true", help="no progress bar or summary")
    inject.set_defaults(func=cmd_inject)

