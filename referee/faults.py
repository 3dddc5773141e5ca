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
from dataclasses import dataclass, replace
from typing import Callable, Iterator

from referee import actions as A
from referee import archive, records
from referee import tiles as T
from referee.proto import record_pb2 as pb
from referee.parts.bao import BAO_CHANGE
from referee.referee import Claim, DrawDue, Halt, Replay, Rob, Turn, Unreplayable
from referee.rules import Ruleset, RulesetError, get_ruleset
from referee.codes import applies_to
from referee.outcome import KongInfo, Outcome
from referee.builder import fill_claim
from referee.simulate import DEFAULT_POLICY, DeadEnd, SelfPlay, progress
from referee.state import CONCEALED, EXPOSED, KONG, Meld
from referee.verdict import ERROR

RECORD = -1  # label event_index for a fault in the record as a whole (wall, deal, claimed result)
IMPOSSIBLE_CODES = (10, 20, 30, 40, 48, 50, 99)  # no tile has these proto codes
MAX_TRIES = 8  # places a kind tries (in seeded order) before it skips a record
NO_KIND_YET = "no fault kind yet (its sample under samples/ covers it)"
SKIPPED_CODES = {
    "MISSED_WIN": "an info note (漏胡 allowed in Hebei), not a fault",
    "CALL_AFTER_DASHAI": NO_KIND_YET,
    "BAOTING_BY_DEALER": NO_KIND_YET,
    "BAOTING_OUT_OF_WINDOW": NO_KIND_YET,
    "BAOTING_NOT_TENPAI": NO_KIND_YET,
    "BAOTING_HAND_CHANGE": NO_KIND_YET,
    "RON_ON_KING": NO_KIND_YET,
    "HAIDI_NOT_DISCARDED": NO_KIND_YET,
    "DASHAI_RON_NOT_NEAREST": NO_KIND_YET,
    "MATCH_STATE_MISMATCH": "a finding across the records of a match: one record cannot carry it (tests/test_match.py)",
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

    def rigged_wall(self, m: Moment, tile: int) -> list[int] | None:
        """The wall with `tile` moved under the next normal draw (from a later undrawn place)."""
        wall = list(self.clean.wall)
        code = T.to_proto(tile)
        if wall[m.front] == code:
            return wall
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
            raise NoPlace  # no undrawn copy to put under the draw
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
    index = ctx.pick(a.normal_draws())
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


def runs_with(m: Moment, seat: int, tile: int) -> list[list[int]]:
    """The tile pairs a seat could show to 吃 `tile` (the rest of a sequence it holds)."""
    if T.is_honor(tile):
        return []
    base, hand = tile - tile % 9, m.hands[seat]
    return [[t for t in (low, low + 1, low + 2) if t != tile] for low in range(tile - 2, tile + 1)
            if low >= base and low + 2 < base + 9 and all(hand[t] for t in (low, low + 1, low + 2) if t != tile)]


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
    sites = quiet_call_sites(ctx, lambda m, s, d, t: s != (d + 1) % 4 and t not in wilds and any(
        not wilds & set(run) for run in runs_with(m, s, t)))

    def build(site) -> Injected:
        j, seat = site
        tile = discard_tile(a.events[j])
        runs = [run for run in runs_with(a.moments[j + 1], seat, tile) if not wilds & set(run)]
        return Injected(ctx.play_on(j + 1, [chi_event(seat, ctx.rng.choice(runs))]), j + 1)

    return ctx.attempt(sites, build)


def pon_without_pair(ctx: Context) -> Injected | None:
    """A seat 碰s a discard holding fewer than two of it."""
    a = ctx.analysis

    def build(site) -> Injected:
        j, seat = site
        return Injected(ctx.play_on(j + 1, [pon_event(seat, discard_tile(a.events[j]))]), j + 1)

    return ctx.attempt(quiet_call_sites(ctx, lambda m, s, d, t: m.hands[s][t] < 2), build)


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
                     and not m.auto[s] for w in ctx.waits(m.hands[s], m.melds[s]) if w not in ctx.analysis.wilds)

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

    def build(site) -> Injected:
        k, seat, tile = site
        code = T.to_proto(tile)
        forged = [pb.Event(seat=seat, draw=pb.Draw(tile=code)),
                  pb.Event(seat=seat, kong=pb.Kong(kind=pb.CONCEALED, tile=code))]
        return Injected(ctx.play_on(k, forged, wall=ctx.rigged_wall(a.moments[k], tile)), k + 1)

    return ctx.attempt(sites, build)


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
    """A seat with three sets down (four tiles in hand) 碰s a discard: 手把一."""
    if not applies_to("CALL_AT_FOUR", ctx.rules.name):
        return None
    a = ctx.analysis

    def build(site) -> Injected:
        j, seat = site
        return Injected(ctx.play_on(j + 1, [pon_event(seat, discard_tile(a.events[j]))]), j + 1)

    return ctx.attempt(quiet_call_sites(ctx, lambda m, s, d, t: len(m.melds[s]) >= 3 and m.hands[s][t] >= 2), build)


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

    def build(site) -> Injected:
        k, seat, tile = site
        code = T.to_proto(tile)
        forged = [pb.Event(seat=seat, draw=pb.Draw(tile=code)),
                  pb.Event(seat=seat, kong=pb.Kong(kind=pb.CONCEALED, tile=code))]
        return Injected(ctx.play_on(k, forged, wall=ctx.rigged_wall(a.moments[k], tile)), k + 1)

    return ctx.attempt(sites, build)


def nearer_winner(ctx: Context, m: Moment, discarder: int, seat: int, tile: int) -> bool:
    """Without 一炮多响 a nearer seat that can win outranks this one: letting the tile go then
    misses nothing, so such a place shows no fault."""
    if ctx.rules.allows_multiple_ron(last_tile=False):
        return False
    nearer = [(discarder + k) % 4 for k in range(1, (seat - discarder) % 4)]
    return any(ctx.can_win(m, n, tile) for n in nearer)


def auto_play_passes_win(ctx: Context) -> Injected | None:
    """A seat goes into 托管 just before a win, and the system lets the win go."""
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
        if how == "ron":  # 托管 from inside the window; the system logs 过

            win = win_event(seat, pb.DISCARD, discard_tile(a.events[at]))
            return Injected(ctx.play_on(at + 1, [auto, Legal(win, log=False), pass_event(seat)]), at)

        def let_win_go(player: SelfPlay) -> None:
            legal = player.replay.legal_actions(seat, player.replay.phase)
            if not any(x.kind == A.SELF_WIN for x in legal):
                raise NoPlace
            tile, _ = player.best_discard(seat, legal)
            phase = player.replay.phase
            player.emit(phase.event_for(player.replay, seat, player.discard_action(tile, legal)))

        return Injected(ctx.play_on(at + 1, [auto], then=let_win_go), at + 2)

    return ctx.attempt(sites, build)


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
    if record is None or not a.exhaustive:
        return None
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
        for code, why in SKIPPED_CODES.items():
            print(f"{'(none)':<{width}}  {code:<24}  {why}")
        return 0
    missing = [flag for flag, value in (("--kind", args.kind), ("--in", args.input), ("--out", args.out)) if not value]
    if missing:
        print(f"mjref inject: {', '.join(missing)} required (or --list)", file=sys.stderr)
        return 2
    kind = FAULT_KINDS.get(args.kind)
    if kind is None:
        print(f"mjref inject: unknown fault kind {args.kind!r}; `mjref inject --list` shows them", file=sys.stderr)
        return 2
    if not 0.0 <= args.rate <= 1.0:
        print("mjref inject: --rate takes a fraction from 0 to 1", file=sys.stderr)
        return 2
    if not pathlib.Path(args.input).is_file():
        print(f"mjref inject: no such archive: {args.input}", file=sys.stderr)
        return 2
    try:
        stats = inject_archive(kind, args.input, args.out, args.rate, args.seed, args.quiet)
    except (OSError, archive.ArchiveError) as err:
        print(f"mjref inject: {err}", file=sys.stderr)
        return 2
    if not args.quiet:
        print(f"{kind.name} ({kind.code}): injected {stats.injected}, skipped {stats.skipped} (no suitable "
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
    inject.add_argument("--kind", help="the fault kind (see --list)")
    inject.add_argument("--in", dest="input", metavar="ARCHIVE", help="clean records (TFRecord archive)")
    inject.add_argument("--out", metavar="ARCHIVE", help="where to write every record, faulty or not")
    inject.add_argument("--rate", type=float, default=1.0, help="fraction of records to fault (default 1)")
    inject.add_argument("--seed", type=int, default=0, help="same seed, same choices")
    inject.add_argument("--quiet", action="store_true", help="no progress bar or summary")
    inject.set_defaults(func=cmd_inject)

