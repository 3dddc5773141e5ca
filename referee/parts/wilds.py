"""Wildcards: which kinds stand for any tile in a concealed hand, and where they come from."""
from __future__ import annotations

from typing import Callable

from referee import tiles as T

UNKNOWN = -1  # a wall position the platform did not log
INDICATOR_NAMES = {1: "正王", 2: "鬼"}  # by IndicatorKind (record.proto): KING, GHOST


class NoWilds:
    """No wildcards (河北, 鸡平胡)."""
    events: tuple[str, ...] = ()  # declaration events this part handles
    chongbao = False  # a 听 seat may win on an indicator it looks at before its draw (大连's 冲宝, parts/bao.py)

    def at_deal(self, table) -> None:
        """Set the table's wilds when they are known before play."""

    def event_due(self, replay):
        """The event a platform logs for this part at the deal (the simulator writes it), or None."""
        return None

    def before_draw(self, replay, seat: int, phase):
        """The phase when a normal draw is due: the draw itself, or a step of this part first."""
        return phase

    def play_begins(self, replay, seat: int) -> None:
        """The deal window closes (the dealer's first discard, or a win on the dealt tiles)."""

    def declined_draw_is_pass(self, view, seat: int, tile: int) -> bool:
        """Does letting the win on this drawn tile go count as a passed self-draw (漏胡)? Yes,
        unless the part says otherwise for its wildcards (大连's 摸宝, parts/bao.py)."""
        return True

    def seat_wilds(self, view, seat: int) -> tuple[int, ...]:
        """Kinds wild for this seat's own draw beyond the table's wilds (the 宝 of a 听 seat that has
        seen it), for the dispute view."""
        return ()


class FixedWild(NoWilds):
    """The same kind is wild in every hand (e.g. 推倒胡's 白板做鬼 room option)."""

    def __init__(self, kind: int):
        self.kind = kind

    def at_deal(self, table) -> None:
        table.wilds = frozenset({self.kind})


def check_logged_wilds(replay, seat: int, flip, wilds) -> None:
    """IndicatorFlip.wilds, where the platform logs them: each code a tile, and the kinds those the
    rule makes wild with this flip (WILDS_MISMATCH)."""
    if flip.wilds:
        logged = {replay.event_tile(code, seat) for code in flip.wilds}
        if logged != wilds:
            replay.flag("WILDS_MISMATCH", seat, f"the platform made {T.format_tiles(sorted(logged))} wild after the "
                        f"flip of {T.label(T.from_proto(flip.tile))}; the rule makes {T.format_tiles(sorted(wilds))} wild")


class FlippedIndicator(NoWilds):
    """An indicator tile flipped after the deal sets the wildcards: 宁乡's 正王 (its two
    neighbours are wild, and the flipped tile leaves play) or 推倒胡's 鬼 (the successor is wild,
    and the indicator stays in the wall). The flip comes before the dealer's first discard.

    `position` is where a platform flips it when the log does not say (IndicatorFlip.wall_index
    unset): "back", the last tile of the wall (宁乡), or "front", the first undrawn tile after
    the deal (推倒胡 "翻出牌墙中的第一张牌"; it is then drawn like any other tile). With
    `logs_wilds` the platform logs the wild kinds it derived with the flip (the simulator
    writes them); a logged set that differs from `wilds_of` is a WILDS_MISMATCH.
    """
    events = ("indicator",)

    def __init__(self, wilds_of: Callable[[int], frozenset[int]], leaves_play: bool, kind: int = 1,
                 position: str = "back", logs_wilds: bool = False):
        self.wilds_of = wilds_of
        self.leaves_play = leaves_play
        self.kind = kind  # IndicatorKind: KING (正王) or GHOST (鬼)
        self.position, self.logs_wilds = position, logs_wilds

    def default_index(self, wall) -> int:
        return wall.front if self.position == "front" else wall.back - 1

    def event_due(self, replay):
        """The platform flips the tile at the part's position."""
        from referee.proto import record_pb2 as pb

        wall = replay.table.wall
        if replay.table.indicator is not None:
            return None
        index = self.default_index(wall)
        tile = wall.tiles[index]
        wilds = [T.to_proto(t) for t in sorted(self.wilds_of(tile))] if self.logs_wilds else []
        return pb.Event(seat=replay.table.dealer, indicator=pb.IndicatorFlip(
            kind=self.kind, tile=T.to_proto(tile), wall_index=index, wilds=wilds))

    def on_event(self, replay, event) -> bool:
        table, seat = replay.table, event.seat
        if table.indicator is not None or not table.deal_window:
            replay.flag("ILLEGAL_ACTION", seat, "an indicator flip is not part of play here", fatal=True)
        if event.indicator.kind not in (0, self.kind):  # (0: unsaid)
            from referee.proto import record_pb2 as pb

            name = pb.IndicatorKind.Name
            replay.flag("ILLEGAL_ACTION", seat, f"the flip here is the {INDICATOR_NAMES.get(self.kind, '')} indicator "
                        f"({name(self.kind)}), logged as {name(event.indicator.kind)}")
        tile = replay.event_tile(event.indicator.tile, seat)
        self.check_wall(replay, seat, tile, event.indicator.wall_index)
        table.indicator = tile
        table.wilds = self.wilds_of(tile)
        check_logged_wilds(replay, seat, event.indicator, table.wilds)
        if self.leaves_play:
            table.dead[tile] += 1
        replay.wilds_changed()
        return True

    def play_begins(self, replay, seat: int) -> None:
        """The flip belongs to the deal: a record without one is judged with no wildcards."""
        if replay.table.indicator is None:
            replay.flag("INDICATOR_MISSING", seat, f"no {INDICATOR_NAMES.get(self.kind, '')} indicator was flipped "
                        f"before play began: the hand is judged without wildcards")

    def check_wall(self, replay, seat: int, tile: int, wall_index: int) -> None:
        """The flipped tile must be the logged wall's; one that leaves play is taken out."""
        table = replay.table
        wall = table.wall
        if wall.tiles and wall.tiles[0] == UNKNOWN:
            if self.leaves_play:  # an indicator that stays is counted when it is drawn
                table.seen[tile] += 1
                wall.back -= 1
            return
        index = wall_index if wall_index else self.default_index(wall)
        if not wall.front <= index < wall.back:
            replay.flag("DRAW_MISMATCH", seat, f"the indicator is flipped at wall[{index}], outside the undrawn "
                        f"wall", fatal=True)
        if wall.tiles[index] != tile:
            replay.flag("DRAW_MISMATCH", seat, f"the indicator is logged as {T.label(tile)} but wall[{index}] "
                        f"holds {T.label(wall.tiles[index])}")
        if self.leaves_play:
            wall.remove(index)
