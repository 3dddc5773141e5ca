"""The table during replay: wall, hands, melds, rivers and per-seat flags; and the read-only
views of it that ruleset hooks see. No rules here."""
from __future__ import annotations

from dataclasses import dataclass, field
from operator import attrgetter
from types import MappingProxyType

from referee import tiles as T

PON, CHI, KONG = "pon", "chi", "kong"
CONCEALED, EXPOSED, ADDED, BORROWED = "concealed", "exposed", "added", "borrowed"
KONG_LABELS = {CONCEALED: "暗杠", EXPOSED: "明杠", ADDED: "补杠", BORROWED: "借子杠"}

DEALT = 53  # 13 tiles to each seat and a 14th to the dealer
WINDS = "ESWN"  # seat winds in play order from the dealer, who is East


def deal_seats(dealer: int) -> list[int]:
    """Who receives each dealt tile, in the order the deal takes them from the front of the
    wall: three rounds of four tiles to each seat from the dealer, one more each, then the
    dealer's fourteenth."""
    order = [(dealer + k) % 4 for k in range(4)]
    return [s for _round in range(3) for s in order for _ in range(4)] + order + [dealer]


@dataclass
class Meld:
    kind: str  # PON, CHI or KONG
    tile: int  # the pung/kong tile, or the lowest tile of a chow
    from_seat: int | None  # whose discard was claimed; None for a concealed kong
    kong_kind: str | None = None  # CONCEALED, EXPOSED, ADDED or BORROWED for kongs
    claimed_tile: int | None = None

    @property
    def is_open(self) -> bool:
        """Breaks 门清: every meld but a concealed kong."""
        return not (self.kind == KONG and self.kong_kind == CONCEALED)

    @property
    def tiles(self) -> list[int]:
        if self.kind == CHI:
            return [self.tile, self.tile + 1, self.tile + 2]
        return [self.tile] * (4 if self.kind == KONG else 3)

    @property
    def label(self) -> str:
        if self.kind == KONG:
            return KONG_LABELS.get(self.kong_kind, "杠")
        return {PON: "碰", CHI: "吃"}[self.kind]

    def __str__(self) -> str:
        return f"{self.label} {T.format_tiles(self.tiles)}"


_MELD_KEY = attrgetter("kind", "tile", "kong_kind")


def melds_key(melds) -> tuple:
    """What of a seat's melds its waits, room and readings depend on, as a dict key."""
    return tuple(map(_MELD_KEY, melds)) if melds else ()


@dataclass
class Seat:
    index: int
    hand: list[int] = field(default_factory=lambda: [0] * T.KINDS)
    melds: list[Meld] = field(default_factory=list)
    river: list[int] = field(default_factory=list)
    drawn: int | None = None  # the tile just drawn, until the seat discards or calls
    drawn_live: int | None = None  # live tiles left before that draw (self-draw-only last draws)
    ready: str = ""  # the ready declaration made (actions.TING, JIATING, BAOTING), "" for none
    ready_waits: tuple[int, ...] = ()  # the waits its declaration holds it to (Ruleset.lock_waits)
    auto_play: bool = False
    discarded: bool = False  # has made its first discard (ends its 起手 window)
    # 摸打 locks: draw and discard only, by the rule that set them (封东, 打筛); True if the
    # lock also forbids winning.
    locks: dict[str, bool] = field(default_factory=dict)
    # 漏胡 marks: "all", or the kinds this seat may not win on by discard; and no self-draw.
    ron_locked: str | set[int] | None = None
    self_locked: bool = False
    # Bumped whenever the concealed tiles or melds change, so cached waits know to look again.
    version: int = 0

    @property
    def tile_count(self) -> int:
        """Tiles held, a kong counted as three (so 13 between turns, 14 on turn)."""
        return sum(self.hand) + 3 * len(self.melds)

    @property
    def is_open(self) -> bool:
        """开门: has made a 吃, 碰 or exposed kong."""
        return any(m.is_open for m in self.melds)

    def concealed(self) -> str:
        return T.format_counts(self.hand)


@dataclass
class Wall:
    """The logged wall: the deal and draws take from the front, replacements from the back."""
    tiles: list[int]
    front: int = 0
    back: int = 0  # exclusive end of the undrawn part
    replacements: int = 0  # kong replacement tiles taken so far (K in SPEC HB-A5)
    # Each tile's index in the logged wall (GameRecord.wall): tiles taken out of the middle
    # (an indicator set aside, a replacement before a reserve) shift the ones after them.
    positions: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.back = len(self.tiles)
        self.positions = list(range(len(self.tiles)))

    @property
    def remaining(self) -> int:
        return self.back - self.front

    def take_front(self) -> int:
        tile = self.tiles[self.front]
        self.front += 1
        return tile

    def remove(self, index: int) -> int:
        """Take a tile out of play from anywhere in the undrawn wall (an indicator flip)."""
        tile = self.tiles.pop(index)
        self.positions.pop(index)
        self.back -= 1
        return tile

    def index_of(self, logged: int) -> int | None:
        """Where the tile logged at GameRecord.wall[logged] is now, or None if it was taken out."""
        try:
            return self.positions.index(logged)
        except ValueError:
            return None

    def take_back(self, skip: int = 0) -> int:
        """A kong replacement: the last undrawn tile, or the last before `skip` set-aside tiles."""
        self.replacements += 1
        if skip:
            return self.remove(self.back - 1 - skip)
        self.back -= 1
        return self.tiles[self.back]


@dataclass
class Table:
    seats: list[Seat]
    dealer: int
    wall: Wall  # of unknown tiles when the platform did not log it
    round_wind: int = 27  # the prevailing wind, a tile index (东 by default)
    # Tiles seen when the wall is not logged, for conservation checks.
    seen: list[int] = field(default_factory=lambda: [0] * T.KINDS)
    indicator: int | None = None  # the flipped indicator (正王, 鬼 indicator, 宝)
    wilds: frozenset[int] = frozenset()  # kinds wild in every concealed hand now
    dead: list[int] = field(default_factory=lambda: [0] * T.KINDS)  # copies out of play, per kind
    deal_window: bool = True  # before the dealer's first discard (报听, indicator flips, 起手 hands)
    last_live_draw: bool = False  # the latest normal draw took the last live tile (海底)
    haidi_taker: int | None = None  # who took the 海底 tile, where the last tile is offered around
    kong_discard: bool = False  # the last discard came right after its discarder's kong (杠上炮)
    # Per-hand state a part keeps (e.g. the 宝: which seats have looked at it), by part name.
    parts: dict = field(default_factory=dict)

    def next_seat(self, seat: int) -> int:
        return (seat + 1) % 4

    def distance(self, from_seat: int, to_seat: int) -> int:
        """Steps in play order from one seat to another (1 = 下家)."""
        return (to_seat - from_seat) % 4

    def seat_wind(self, seat: int) -> int:
        """The seat's wind as a tile index: the dealer is East (SPEC J-A10)."""
        return 27 + (seat - self.dealer) % 4


class SeatView:
    """A seat as ruleset hooks see it: read-only."""
    __slots__ = ("_seat",)

    def __init__(self, seat: Seat):
        self._seat = seat

    # Plain reads are C getters (attrgetter), not lambdas: hooks read them for each action weighed.
    index = property(attrgetter("_seat.index"))
    hand = property(lambda self: tuple(self._seat.hand), doc="concealed counts (34)")
    melds = property(lambda self: tuple(self._seat.melds))
    river = property(lambda self: tuple(self._seat.river))
    drawn = property(attrgetter("_seat.drawn"), doc="the tile just drawn, or None")
    ready = property(attrgetter("_seat.ready"), doc="the ready declaration made, or ''")
    ready_waits = property(attrgetter("_seat.ready_waits"))
    auto_play = property(attrgetter("_seat.auto_play"))
    discarded = property(attrgetter("_seat.discarded"))
    locks = property(lambda self: MappingProxyType(self._seat.locks), doc="read-only, not a copy: asked per action")
    is_open = property(attrgetter("_seat.is_open"))

    def count(self, tile: int) -> int:
        """Copies of a kind in the concealed hand."""
        return self._seat.hand[tile]

    def concealed(self) -> str:
        return self._seat.concealed()


class TableView:
    """The table as ruleset hooks see it: read-only, plus the questions hooks may ask about
    hands (waits, the hand after a kong), answered by the move generator."""
    __slots__ = ("_legality", "_table", "seats")

    def __init__(self, legality):
        self._legality, self._table = legality, legality.table
        self.seats = tuple(SeatView(s) for s in self._table.seats)

    dealer = property(attrgetter("_table.dealer"))
    round_wind = property(attrgetter("_table.round_wind"))
    indicator = property(attrgetter("_table.indicator"))
    wilds = property(attrgetter("_table.wilds"))
    deal_window = property(attrgetter("_table.deal_window"))
    last_live_draw = property(attrgetter("_table.last_live_draw"))
    haidi_taker = property(attrgetter("_table.haidi_taker"))
    kong_discard = property(attrgetter("_table.kong_discard"),
                            doc="the last discard came right after its discarder's kong (杠上炮)")
    wall_remaining = property(attrgetter("_table.wall.remaining"))
    phase = property(lambda self: self._legality.phase(), doc="the decision window now (read it, never change it)")
    live = property(lambda self: self._legality.live(), doc="tiles a normal draw may still take")

    def waits(self, seat: int) -> tuple[int, ...]:
        """The seat's winning tiles now (its concealed hand must be 3k+1)."""
        return self._legality.waits(seat)

    def waits_of_hand(self, hand, melds) -> tuple[int, ...]:
        """The winning tiles of any 3k+1 hand with these melds, under the table's wildcards."""
        return self._legality.waits_of_hand(list(hand), list(melds))

    def room(self, seat: int) -> list[int] | None:
        """Copies each kind may total in the seat's concealed hand, where wilds could overstep it."""
        return self._legality.room(self._table.seats[seat].melds)

    def hand_after_kong(self, seat: int, tile: int, from_hand: int):
        """(concealed counts, melds) the seat would have after a kong of `tile`."""
        return self._legality.hand_after_kong(seat, tile, from_hand)

    def next_seat(self, seat: int) -> int:
        return (seat + 1) % 4

    def seat_wind(self, seat: int) -> int:
        return self._table.seat_wind(seat)

    def part(self, name: str):
        """A part's per-hand state (read it, never change it), or None."""
        return self._table.parts.get(name)
