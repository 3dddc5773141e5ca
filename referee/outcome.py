"""How a hand ended, as the replay saw it: the winners, the kongs, the draw. Settlement and the
dealer rule read only this. Plain values."""
from __future__ import annotations

from dataclasses import dataclass, field

from referee.state import Meld

NO_WILDS: frozenset[int] = frozenset()


@dataclass
class WinInfo:
    """One winner as the replay saw it."""
    seat: int
    kind: str  # actions.SELF_WIN, RON or ROB_WIN
    tile: int | None
    from_seat: int | None  # the discarder or robbed konger; None for a self-draw
    hand: list[int]  # concealed tiles including the winning tile
    melds: list[Meld]
    event_index: int
    after_replacement: bool = False  # self-draw on a kong replacement or 打筛 tile (杠上开花)
    last_tile: bool = False  # won with the last live tile (海底)
    instant: tuple[str, ...] = ()  # 起手/instant hands declared, no shape needed
    opening: bool = False  # the dealer's dealt fourteen (天胡)
    ready: str = ""  # the ready declaration the seat had made (听, 夹听, 报听)
    on_kong_reveal: bool = False  # a win on another seat's 打筛 tile (杠上炮)
    after_kong_discard: bool = False  # a win on the discard its discarder made right after a kong (杠上炮)
    last_discard: bool = False  # a win on the discard made after the last live draw (海底炮)
    wilds: frozenset[int] = NO_WILDS  # kinds that were wild in the hand
    room: list[int] | None = None  # copies each kind could total in the concealed hand (with wilds)
    drawn_wild: bool = False  # a self-draw whose drawn tile the seat could use as a wildcard (摸宝)
    by_indicator: bool = False  # won on the indicator's kind on first seeing it, no tile drawn (冲宝)
    face_tile: bool = False  # the winning tile, of a wild kind, counts at face value (a discarded 纯王, NX-A12)

    def naturals_and_wilds(self) -> tuple[list[int], int]:
        """(natural tiles, number of wildcards) of the concealed hand, winning tile included."""
        naturals, count = list(self.hand), 0
        for t in self.wilds:
            count += naturals[t]
            naturals[t] = 0
        if self.face_tile and self.tile in self.wilds:
            naturals[self.tile] += 1
            count -= 1
        return naturals, count


@dataclass
class KongInfo:
    seat: int
    kong_kind: str
    tile: int
    from_seat: int | None
    event_index: int


@dataclass
class CallInfo:
    """A discard taken by 吃, 碰 or 明杠 (liability rules ask who fed whom, and in which order)."""
    seat: int
    kind: str  # state.CHI, PON or KONG
    tile: int
    from_seat: int
    event_index: int
    sets_down: int  # the caller's exposed sets after this call


@dataclass
class Outcome:
    """How the hand ended: the input to settlement and to the dealer rule."""
    dealer: int
    wins: list[WinInfo] = field(default_factory=list)
    kongs: list[KongInfo] = field(default_factory=list)
    exhaustive: bool = False  # 荒庄 / 流局
    haidi_taker: int | None = None  # who took the 海底 tile in a drawn hand (海底漫游)
    declared_end: str = ""  # a declaration that ended the hand at once (e.g. all four 封东)
    birds: list[int] = field(default_factory=list)  # 扎鸟 tiles
    birds_logged: bool = False
    horses: dict[int, tuple[int, ...]] = field(default_factory=dict)  # 买马: each seat's horse tiles, as set aside
    round_wind: int = 27  # the prevailing wind (a tile index)
    indicator: int | None = None  # the flipped indicator (正王, 鬼 indicator, 宝), if any
    calls: list[CallInfo] = field(default_factory=list)  # every claimed discard, in play order
    ready: list[str] = field(default_factory=list)  # each seat's ready declaration at the end ('' for none)
    draws_before: int = 0  # 流局 in a row before this hand (GameRecord.match_state.consecutive_draws)
