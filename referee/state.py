"""The table during replay: wall, hands, melds, rivers and per-seat flags. No rules here."""
from __future__ import annotations

from dataclasses import dataclass, field

from referee import tiles as T

PON, CHI, KONG = "pon", "chi", "kong"
CONCEALED, EXPOSED, ADDED, BORROWED = "concealed", "exposed", "added", "borrowed"


DEALT = 53  # 13 tiles to each seat and a 14th to the dealer


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
    kong_kind: str | None = None  # CONCEALED, EXPOSED or ADDED for kongs
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

    def __str__(self) -> str:
        if self.kind == KONG:
            label = {CONCEALED: "暗杠", EXPOSED: "明杠", ADDED: "补杠", BORROWED: "借子杠"}.get(self.kong_kind, "杠")
        else:
            label = {PON: "碰", CHI: "吃"}[self.kind]
        return f"{label} {T.format_tiles(self.tiles)}"


@dataclass
class Seat:
    index: int
    hand: list[int] = field(default_factory=lambda: [0] * T.KINDS)
    melds: list[Meld] = field(default_factory=list)
    river: list[int] = field(default_factory=list)
    ready: bool = False  # 听 or 报听 declared
    ready_waits: tuple[int, ...] = ()  # the waits when 报听 was declared
    auto_play: bool = False
    discarded: bool = False  # has made its first discard (ends its 起手 window)
    feng_dong: bool = False  # 封东: face down, draw and discard only
    dashai_locked: bool = False  # after its 打筛: draw and discard only
    # 漏胡 lock: "all", or the kinds this seat may not win on by discard until it draws.
    ron_locked: str | set[int] | None = None
    # Bumped whenever the concealed tiles or melds change, so cached waits know to look again.
    version: int = 0

    @property
    def tile_count(self) -> int:
        """Tiles held, a kong counted as three (so 13 between turns, 14 on turn)."""
        return sum(self.hand) + 3 * len(self.melds)

    def concealed(self) -> str:
        return T.format_counts(self.hand)


@dataclass
class Wall:
    """The logged wall: the deal and draws take from the front, replacements from the back."""
    tiles: list[int]
    front: int = 0
    back: int = 0  # exclusive end of the undrawn part
    replacements: int = 0  # kong replacement tiles taken so far (K in SPEC HB-A5)

    def __post_init__(self) -> None:
        self.back = len(self.tiles)

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
        self.back -= 1
        return tile

    def take_back(self) -> int:
        self.back -= 1
        self.replacements += 1
        return self.tiles[self.back]


@dataclass
class Table:
    seats: list[Seat]
    dealer: int
    wall: Wall  # of unknown tiles when the platform did not log it
    # Tiles seen when the wall is not logged, for conservation checks.
    seen: list[int] = field(default_factory=lambda: [0] * T.KINDS)

    def next_seat(self, seat: int) -> int:
        return (seat + 1) % 4

    def distance(self, from_seat: int, to_seat: int) -> int:
        """Steps in play order from one seat to another (1 = 下家)."""
        return (to_seat - from_seat) % 4
