"""Settlement add-ons: kong money, and tiles revealed after the hand (birds 扎鸟)."""
from __future__ import annotations

from typing import Callable

from referee import tiles as T
from referee.outcome import Outcome
from referee.state import CONCEALED, EXPOSED

UNKNOWN = -1  # a wall position the platform did not log


class KongMoney:
    """杠分: what each completed kong earns its konger (a robbed kong never completes).

    `exposed` is paid by the discarder alone (放杠), or by each other seat with `exposed_each`;
    `added` (补杠) and `concealed` (暗杠) by each other seat. `void_in_draw`: nothing in 荒庄
    (河北); `winners_only`: only the winner's kongs earn (大连).
    """

    def __init__(self, exposed: int, added: int, concealed: int, exposed_each: bool = False,
                 void_in_draw: bool = False, winners_only: bool = False, labels=("放杠", "明杠", "暗杠")):
        self.exposed, self.added, self.concealed = exposed, added, concealed
        self.exposed_each, self.void_in_draw, self.winners_only = exposed_each, void_in_draw, winners_only
        self.labels = labels

    def pay(self, ledger, outcome: Outcome, multiplier: int = 1) -> None:
        if self.void_in_draw and outcome.exhaustive:
            return
        winners = {w.seat for w in outcome.wins}
        exposed_label, added_label, concealed_label = self.labels
        for kong in outcome.kongs:
            if self.winners_only and kong.seat not in winners:
                continue
            if kong.kong_kind == EXPOSED and not self.exposed_each:
                ledger.pay(kong.from_seat, kong.seat, self.exposed * multiplier, exposed_label, kong=True)
                continue
            if kong.kong_kind == CONCEALED:
                each, label = self.concealed, concealed_label
            else:
                each, label = (self.exposed, added_label) if kong.kong_kind == EXPOSED else (self.added, added_label)
            for payer in range(4):
                if payer != kong.seat:
                    ledger.pay(payer, kong.seat, each * multiplier, label, kong=True)


class Birds:
    """扎鸟 (SPEC NX.6.2): after a win, tiles from the front of the wall are shown as birds; a
    logged reveal must be the wall's tiles. `count(remaining, outcome)` says how many are due."""
    events = ("birds",)

    def __init__(self, count: Callable[[int, Outcome], int]):
        self.count = count

    def on_event(self, replay, kind: str, event) -> bool:
        if kind == "birds" and replay.outcome.wins and not replay.outcome.birds_logged:
            self.reveal(replay, event)
            return True
        return False

    def at_finish(self, replay) -> None:
        if replay.outcome.wins:
            self.reveal(replay, None)

    def due(self, replay) -> list[int]:
        """The birds the wall holds for this hand (empty if none are due)."""
        wall, outcome = replay.table.wall, replay.outcome
        count = self.count(wall.remaining, outcome) if outcome.wins else 0
        return wall.tiles[wall.front:wall.front + count]

    def event_due(self, replay):
        """The reveal a platform logs after the hand, or None (the simulator writes it)."""
        from referee.proto import record_pb2 as pb

        tiles = self.due(replay)
        if not tiles or replay.outcome.birds_logged:
            return None
        return pb.Event(seat=replay.record.dealer, birds=pb.BirdReveal(tiles=[T.to_proto(t) for t in tiles]))

    def reveal(self, replay, event) -> None:
        outcome = replay.outcome
        if event is not None:
            outcome.birds_logged = True
        elif outcome.birds_logged:
            return
        due = self.due(replay)
        if not due and event is None:
            return
        logged = [replay.event_tile(code, event.seat) for code in event.birds.tiles] if event is not None else None
        if logged is not None:
            if len(logged) != len(due):
                replay.flag("BIRD_MISMATCH", None, f"{len(logged)} birds revealed; {len(due)} were due")
            elif UNKNOWN not in due and logged != due:
                replay.flag("BIRD_MISMATCH", None, f"birds revealed as {T.format_tiles(logged)} where the wall "
                            f"holds {T.format_tiles(due)}")
            birds = logged if UNKNOWN in due or len(logged) != len(due) else due
        elif UNKNOWN in due:
            birds = []  # no wall and no reveal: nothing to count
        else:
            birds = due
        outcome.birds = list(birds)


def counted_seat(tile: int, anchor: int) -> int:
    """The seat a bird or horse tile points at, counting from `anchor` in play order: ranks 1/5/9
    and 东 the anchor, 2/6, 南 and 中 its 下家, 3/7, 西 and 发 its 对家, 4/8, 北 and 白 its 上家."""
    step = (T.rank_of(tile) - 1) if tile < 27 else (0, 1, 2, 3, 1, 2, 3)[tile - 27]
    return (anchor + step) % 4
