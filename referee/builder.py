"""Builds hand records from a readable script: who holds what, who draws what, who does what.

The builder lays out a wall that makes the script true (the deal in deal order, then the
normal draws, then the rest of the set; kong replacements at the back), so samples, tests
and the simulator all write records exactly as a platform would.
"""
from __future__ import annotations

import random

from referee import REFEREE_VERSION, SCHEMA_VERSION
from referee import tiles as T
from referee.proto import record_pb2 as pb
from referee.referee import Ended, Replay
from referee.rules import get_ruleset
from referee.state import DEALT, Wall, deal_seats
from referee.verdict import ERROR

KONG_KIND = {"concealed": pb.CONCEALED, "exposed": pb.EXPOSED, "added": pb.ADDED, "borrowed": pb.BORROWED}
WIN_KIND = {"self": pb.SELF_DRAW, "discard": pb.DISCARD, "rob": pb.ROB_KONG}
OFFER_KINDS = {"draw": pb.ACT_DRAW, "discard": pb.ACT_DISCARD, "chi": pb.ACT_CHI, "pon": pb.ACT_PON,
               "kong": pb.ACT_KONG, "ready": pb.ACT_READY, "win": pb.ACT_WIN, "pass": pb.ACT_PASS,
               "feng_dong": pb.ACT_FENG_DONG, "haidi": pb.ACT_HAIDI}


def _tiles(spec) -> list[int]:
    """Tiles from notation ('3p', '12p'), one tile index, or a list of indices."""
    if isinstance(spec, str):
        return T.parse(spec)
    return [spec] if isinstance(spec, int) else list(spec)


class HandBuilder:
    def __init__(self, game_id: str, ruleset: str = "hebei", dealer: int = 0, seed: int = 0,
                 options: dict[str, str] | None = None, round_wind: str = "E"):
        self.rules = get_ruleset(ruleset, options)
        self.record = pb.GameRecord(schema_version=SCHEMA_VERSION, game_id=game_id, dealer=dealer,
                                    platform=f"mjref-builder {REFEREE_VERSION}",
                                    round_wind=T.to_proto(_tiles(round_wind)[0]))
        self.record.ruleset.name = ruleset
        for key, value in sorted((options or {}).items()):
            self.record.ruleset.options[key] = value
        for seat in range(4):
            self.record.players.add(player_id=f"p{seat}")
        self.seed = seed
        self.hands: list[list[int]] | None = None
        self.indicator: int | None = None  # flipped to the back of the wall
        self.front_flip: tuple[int, int] | None = None  # (front draw position, tile) of an indicator at the front
        self.set_aside: list[int] = []  # horse tiles, from the very back of the wall
        self.last_tiles: list[int] = []
        self.front_draws: list[int] = []
        self.back_draws: list[int] = []
        # Rule books whose script places tiles by wall position (a replacement from before a reserve,
        # a 宝 flip) keep the wall as the script takes from it: logged wall index -> tile.
        self.positional = bool(self.rules.wall_end.replacement_skip) or hasattr(self.rules.wilds, "flip_event")
        self.slots: dict[int, int] = {}
        self.sym = Wall(list(range(self.rules.wall_size)))
        self.sym.front = DEALT
        self.bao_changes = 0

    # -- the deal and the draws -----------------------------------------------------------------
    def deal(self, *hands) -> "HandBuilder":
        """Four hands in seat order; the dealer's has 14 tiles (its last one is the 14th dealt)."""
        self.hands = [_tiles(h) for h in hands]
        for seat, hand in enumerate(self.hands):
            want = 14 if seat == self.record.dealer else 13
            if len(hand) != want:
                raise ValueError(f"seat {seat} is dealt {len(hand)} tiles, not {want}: {T.format_tiles(hand)}")
        return self

    def _event(self, seat: int) -> pb.Event:
        return self.record.events.add(seat=seat)

    def draw(self, seat: int, tile, replacement: bool = False) -> "HandBuilder":
        t = _tiles(tile)[0]
        if not replacement and self.front_flip is not None and self.front_flip[0] == len(self.front_draws) \
                and t != self.front_flip[1]:
            raise ValueError(f"the indicator {T.label(self.front_flip[1])} was flipped at the front of the wall: "
                             f"the next draw takes it, not {T.label(t)}")
        if self.positional and replacement:
            self._place(self.sym.take_back(self.rules.wall_end.replacement_skip), t)
        else:
            (self.back_draws if replacement else self.front_draws).append(t)
            if not replacement:
                self.sym.take_front()
        self._event(seat).draw.CopyFrom(pb.Draw(tile=T.to_proto(t), replacement=replacement))
        return self

    # -- actions ----------------------------------------------------------------------------
    def discard(self, seat: int, tile, ready: bool = False, jiating: bool = False) -> "HandBuilder":
        event = self._event(seat)
        event.discard.tile = T.to_proto(_tiles(tile)[0])
        if ready or jiating:
            event.discard.ready = pb.JIATING if jiating else pb.TING
        return self

    def pon(self, seat: int, tile) -> "HandBuilder":
        self._event(seat).pon.tile = T.to_proto(_tiles(tile)[0])
        return self

    def chi(self, seat: int, shown, ready: bool = False) -> "HandBuilder":
        """吃 showing these two tiles; with `ready` it is a 吃听 (its discard declares 听)."""
        event = self._event(seat)
        event.chi.tiles.extend(T.to_proto(t) for t in _tiles(shown))
        if ready:
            event.chi.ready = pb.TING
        return self

    def kong(self, seat: int, kind: str, tile) -> "HandBuilder":
        self._event(seat).kong.CopyFrom(pb.Kong(kind=KONG_KIND[kind], tile=T.to_proto(_tiles(tile)[0])))
        return self

    def win(self, seat: int, kind: str, tile) -> "HandBuilder":
        self._event(seat).win.CopyFrom(pb.Win(kind=WIN_KIND[kind], tile=T.to_proto(_tiles(tile)[0])))
        return self

    def pass_(self, seat: int) -> "HandBuilder":
        getattr(self._event(seat), "pass").SetInParent()  # `pass` is a Python keyword
        return self

    def flip_indicator(self, tile, wilds=None) -> "HandBuilder":
        """The indicator flip (正王, 鬼), where the ruleset's part flips it: the back of the wall, or
        the first undrawn tile after the deal (then the next normal draw takes it). `wilds`: the
        wild kinds the platform logs with it (default: the rule's own, where the part logs them)."""
        part = self.rules.wilds
        t = _tiles(tile)[0]
        if getattr(part, "position", "back") == "front":
            self.front_flip = (len(self.front_draws), t)
            index = DEALT + len(self.front_draws)
        else:
            self.indicator = t
            index = self.rules.wall_size - 1 - len(self.set_aside)
        if wilds is None:
            wilds = sorted(part.wilds_of(t)) if getattr(part, "logs_wilds", False) else []
        self._event(self.record.dealer).indicator.CopyFrom(
            pb.IndicatorFlip(kind=getattr(part, "kind", pb.KING), tile=T.to_proto(t), wall_index=index,
                             wilds=[T.to_proto(w) for w in _tiles(wilds)]))
        return self

    def horses(self, seat: int, tiles) -> "HandBuilder":
        """买马: the seat's horse tiles, set aside from the very back of the wall before play."""
        shown = _tiles(tiles)
        first = self.rules.wall_size - 1 - len(self.set_aside)
        self.set_aside.extend(shown)
        self._event(seat).horses.CopyFrom(pb.HorseSetAside(tiles=[T.to_proto(t) for t in shown],
                                                           wall_index=[first - k for k in range(len(shown))]))
        return self

    def bao(self, tile, seat: int | None = None, stacks: int | None = None, change: bool = False) -> "HandBuilder":
        """A 宝 flip (or 换宝 with `change`): the tile goes where the rule book's 宝 lies: the last
        wall tile (哈尔滨: the old 宝 leaves play first, or stays behind it), or `stacks` stacks from
        the back of the undrawn wall (大连's dice)."""
        t = _tiles(tile)[0]
        part, sym = self.rules.wilds, self.sym
        if stacks is None:
            index = sym.back - 1 - (1 if change and part.old_leaves_play else 0)
            if not part.old_leaves_play:
                index = sym.back - 1 - self.bao_changes - (1 if change else 0)
        else:
            index = sym.back - 2 * stacks
        position = sym.positions[index]
        self._place(position, t)
        if change and stacks is None and part.old_leaves_play:
            sym.remove(sym.back - 1)
        self.bao_changes += change
        kind = pb.BAO_CHANGE if change else pb.BAO
        self._event(self.record.dealer if seat is None else seat).indicator.CopyFrom(
            pb.IndicatorFlip(kind=kind, tile=T.to_proto(t), wall_index=position))
        return self

    def offer(self, *actions: str) -> "HandBuilder":
        """The actions the platform offered the seat before the last event (Event.offered), each as
        'KIND [TILES]': 'pass', 'draw', 'win 3p', 'pon 3p', 'kong 3p', 'discard 5p', 'chi 12p' (the two
        tiles shown), 'ready 5p' (听 with that discard), 'haidi', 'feng_dong'."""
        event = self.record.events[-1]
        for text in actions:
            name, _, tiles = text.partition(" ")
            event.offered.add(kind=OFFER_KINDS[name], tiles=[T.to_proto(t) for t in _tiles(tiles)] if tiles else [])
        return self

    def match_state(self, consecutive_draws: int) -> "HandBuilder":
        """流局 in a row before this hand, as the platform keeps it (哈尔滨 3-流局 包牌)."""
        self.record.match_state.consecutive_draws = consecutive_draws
        return self

    def _place(self, position: int, tile: int) -> None:
        if self.slots.get(position, tile) != tile:
            raise ValueError(f"wall[{position}] is placed twice: {T.label(self.slots[position])} and {T.label(tile)}")
        self.slots[position] = tile

    def baoting(self, seat: int) -> "HandBuilder":
        self._event(seat).ready.kind = pb.BAOTING
        return self

    def feng_dong(self, seat: int) -> "HandBuilder":
        self._event(seat).feng_dong.SetInParent()
        return self

    def dashai(self, seat: int, tiles) -> "HandBuilder":
        """打筛: the two tiles come from the front of the wall, like draws."""
        shown = _tiles(tiles)
        self.front_draws.extend(shown)
        self._event(seat).dashai.tiles.extend(T.to_proto(t) for t in shown)
        return self

    def haidi(self, seat: int, accepted: bool) -> "HandBuilder":
        self._event(seat).haidi.accepted = accepted
        return self

    def birds(self, tiles) -> "HandBuilder":
        shown = _tiles(tiles)
        self.front_draws.extend(shown)
        self._event(self.record.dealer).birds.tiles.extend(T.to_proto(t) for t in shown)
        return self

    def auto_play(self, seat: int, on: bool = True) -> "HandBuilder":
        self._event(seat).auto_play.on = on
        return self

    def exhaustive_draw(self) -> "HandBuilder":
        self._event(self.record.dealer).exhaustive_draw.SetInParent()
        return self

    def draw_discard(self, seat: int, tile) -> "HandBuilder":
        """摸打: draw a tile and discard it at once."""
        return self.draw(seat, tile).discard(seat, tile)

    def play_out(self, seat: int, end: bool = True, leave: int = 0) -> "HandBuilder":
        """摸打 from `seat` on, each seat in turn, until `leave` live tiles are left, then 荒庄.

        The tiles come from the rest of the set in seed order (the pinned last tiles last), so
        only hands that cannot win on them keep the record clean. `next_seat` is who would
        draw next.
        """
        if self.positional:
            rest = iter(self.rest_tiles())
            while self.rules.live_tiles(self.sym) > leave:
                position = self.sym.positions[self.sym.front]
                self.draw_discard(seat, self.slots[position] if position in self.slots else next(rest))
                seat = (seat + 1) % 4
            self.next_seat = seat
            return self.exhaustive_draw() if end else self
        wall = Wall([0] * (self.rules.wall_size - DEALT))
        wall.front, wall.replacements = len(self.front_draws), len(self.back_draws)
        wall.back -= len(self.back_draws) + (self.indicator is not None) + len(self.set_aside)
        rest = iter(self.rest_tiles())
        pending = self._pending_flip()
        while self.rules.live_tiles(wall) > leave:
            self.draw_discard(seat, pending[0] if pending else next(rest))
            pending = []
            wall.front += 1
            seat = (seat + 1) % 4
        self.next_seat = seat
        return self.exhaustive_draw() if end else self

    def pin_last(self, tiles) -> "HandBuilder":
        """Put these tiles last in the live wall (the 海底), whatever the seed."""
        self.last_tiles = _tiles(tiles)
        return self

    def _tail(self) -> list[int]:
        """The back of the wall: replacements (the first one last), then the flipped indicator,
        then the horses (the first one last)."""
        return self.back_draws[::-1] + ([self.indicator] if self.indicator is not None else []) + self.set_aside[::-1]

    def _pending_flip(self) -> list[int]:
        """The indicator flipped at the front, if no draw has taken it yet."""
        if self.front_flip is not None and self.front_flip[0] == len(self.front_draws):
            return [self.front_flip[1]]
        return []

    def rest_tiles(self) -> list[int]:
        """The tiles the script has not placed yet, in the order the wall will hold them:
        the rest of the set in seed order, then the pinned last tiles not yet drawn."""
        front, tail = self._deal_order() + self.front_draws + self._pending_flip(), self._tail()
        if self.positional:
            tail = [t for position, t in sorted(self.slots.items()) if position >= len(front)]
        live_end = self.rules.wall_size - len(tail)
        overlap = max(0, len(front) - (live_end - len(self.last_tiles)))
        pinned = self.last_tiles[overlap:]
        pool = T.counts(front + tail + pinned)
        rest = []
        for t in self.rules.tile_kinds:
            spare = self.rules.copies - pool[t]
            if spare < 0:
                raise ValueError(f"the script uses {-spare} too many × {T.label(t)}")
            rest.extend([t] * spare)
        random.Random(self.seed).shuffle(rest)
        return rest + pinned

    # -- the wall ---------------------------------------------------------------------------
    def _deal_order(self) -> list[int]:
        """The dealt tiles in the order the deal takes them from the front of the wall."""
        next_tile = [iter(hand) for hand in self.hands]
        return [next(next_tile[s]) for s in deal_seats(self.record.dealer)]

    def layout_wall(self) -> list[int]:
        """Deal, then the scripted draws, then the rest of the set, then the back of the wall (or,
        placing by position, every placed tile where it lies and the rest of the set around them)."""
        if not self.positional:
            return self._deal_order() + self.front_draws + self._pending_flip() + self.rest_tiles() + self._tail()
        front = self._deal_order() + self.front_draws + self._pending_flip()
        wall: list[int | None] = front + [None] * (self.rules.wall_size - len(front))
        for position, t in self.slots.items():
            if wall[position] is not None and wall[position] != t:
                raise ValueError(f"wall[{position}] is drawn as {T.label(wall[position])} and placed as {T.label(t)}")
            wall[position] = t
        rest = iter(self.rest_tiles())
        return [t if t is not None else next(rest) for t in wall]

    def build(self, claim: bool = True, strict: bool = True) -> pb.GameRecord:
        """The finished record; with `claim` the claimed result is the referee's own settlement.

        `strict` insists that the script is clean; samples of violations turn it off.
        """
        self.record.ClearField("wall")
        self.record.wall.extend(T.to_proto(t) for t in self.layout_wall())
        if claim:
            replay = Replay(self.record, self.rules)
            replay.run()
            errors = [v for v in replay.violations if v.severity == ERROR]
            if not isinstance(replay.phase, Ended) or (strict and errors):
                raise ValueError(f"the script does not end the hand cleanly: {errors}")
            fill_claim(self.record, self.rules, replay.outcome)
        return self.record


def fill_claim(record: pb.GameRecord, rules, outcome) -> None:
    """The claimed result a correct platform writes: the ruleset's own settlement of the outcome."""
    settlement = rules.settle(outcome)
    claimed = record.claimed
    claimed.Clear()
    claimed.winners.extend(sorted({w.seat for w in outcome.wins}))
    claimed.payments.extend(settlement.payments)
    claimed.kong_payments.extend(settlement.kong_payments)
    for p in settlement.patterns:
        claimed.patterns.add(seat=p.seat, name=p.name, value=p.value)
    claimed.has_next_dealer = True
    claimed.next_dealer = rules.next_dealer(outcome)
