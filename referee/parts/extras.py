"""Settlement add-ons: kong money, tiles revealed after the hand (birds 扎鸟), and tiles set aside
before play (horses 买马)."""
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

        def reason(label: str, each: int) -> str:  # the room's multiplier (or base) shown where it applies
            return label if multiplier == 1 else f"{label} {each} × {multiplier}"

        for kong in outcome.kongs:
            if self.winners_only and kong.seat not in winners:
                continue
            if kong.kong_kind == EXPOSED and not self.exposed_each:
                ledger.pay(kong.from_seat, kong.seat, self.exposed * multiplier, reason(exposed_label, self.exposed),
                           kong=True)
                continue
            if kong.kong_kind == CONCEALED:
                each, label = self.concealed, concealed_label
            else:
                each, label = (self.exposed, added_label) if kong.kong_kind == EXPOSED else (self.added, added_label)
            for payer in range(4):
                if payer != kong.seat:
                    ledger.pay(payer, kong.seat, each * multiplier, reason(label, each), kong=True)


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
            birds = logged if UNKNOWN in due else due  # the rule's birds where the wall shows them
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


class Horses:
    """买马 (SPEC TDH.1, TDH.6.4): before play each seat is given `per_seat` horse tiles, set aside
    from the back of the wall and never drawn (one `horses` event per seat, in the deal window;
    the first event takes the wall's last tile, see record.proto HorseSetAside). After a win each
    horse points at a seat counted from an anchor (`counted_seat`) and its owner shares that
    seat's result for the hand: on a winner, each loser pays the owner what it paid that winner;
    on a loser, the owner pays the winner(s) what that loser paid; on a bystander, nothing.
    Kong money is not counted, and horses are void in 流局 (no hand money to share).

    `owner_pays_self`: a horse owner who is also one of the winner's payers pays itself, which
    nets to zero (TDH-A11); else the other payers cover the owner's own part evenly.
    `limits_room`: horse tiles count as out of play for what a wildcard may stand for.
    `on_owner_counts`: a horse that points at its own owner shares the owner's result like any
    other (TDH.6.4 [REC]); else it has no effect.
    """
    events = ("horses",)
    code = "HORSE_MISMATCH"

    def __init__(self, per_seat: int, owner_pays_self: bool = True, limits_room: bool = False,
                 on_owner_counts: bool = True):
        self.per_seat, self.owner_pays_self, self.limits_room = per_seat, owner_pays_self, limits_room
        self.on_owner_counts = on_owner_counts

    # -- the deal ---------------------------------------------------------------------------
    def on_event(self, replay, event) -> bool:
        table, seat, outcome = replay.table, event.seat, replay.outcome
        if not table.deal_window or seat in outcome.horses:
            replay.flag(self.code, seat, f"seat {seat}'s horses are set aside once, before play", fatal=True)
        logged = [replay.event_tile(code, seat) for code in event.horses.tiles]
        if len(logged) != self.per_seat:
            replay.flag(self.code, seat, f"seat {seat} was given {len(logged)} horses; the room gives "
                        f"{self.per_seat} each")
        wall, indexes = table.wall, list(event.horses.wall_index)
        start = table.parts.setdefault("horses", wall.back)  # the back of the wall before any horse
        if indexes and len(indexes) != len(logged):  # where logged, one position per horse
            replay.flag(self.code, seat, f"seat {seat}'s {len(logged)} horses are logged at {len(indexes)} wall positions")
        shift = self.shift(replay)
        tiles = []
        for k, tile in enumerate(logged):
            if wall.remaining <= 0:
                replay.flag(self.code, seat, "no wall left to set the horses aside from", fatal=True)
            wall.back -= 1
            expected = wall.tiles[wall.back]
            if expected == UNKNOWN:
                replay.count_unlogged(seat, tile)
                tiles.append(tile)
                continue
            if k < len(indexes) and indexes[k] != wall.back + shift:
                replay.flag(self.code, seat, f"horse {T.label(tile)} is logged at wall[{indexes[k]}]; horses come "
                            f"from the back of the wall, wall[{wall.back + shift}] here")
            elif expected != tile:
                replay.flag(self.code, seat, f"horse logged as {T.label(tile)} where the wall holds "
                            f"{T.label(expected)}")
            tiles.append(expected)  # the wall's tile is the horse
        outcome.horses[seat] = tuple(tiles if len(logged) == self.per_seat else self.due(wall, start, seat, table.dealer)
                                     or tiles)
        if self.limits_room:
            for t in tiles:
                table.dead[t] += 1
            replay.wilds_changed()
        return True

    def event_due(self, replay):
        """The next seat's horses (in play order from the dealer), as a platform logs them, or None."""
        from referee.proto import record_pb2 as pb

        table, outcome = replay.table, replay.outcome
        seat = next((s for s in ((table.dealer + k) % 4 for k in range(4)) if s not in outcome.horses), None)
        if seat is None or not self.per_seat:
            return None
        wall, shift = table.wall, self.shift(replay)
        indexes = [wall.back - 1 - k for k in range(self.per_seat)]
        return pb.Event(seat=seat, horses=pb.HorseSetAside(tiles=[T.to_proto(wall.tiles[i]) for i in indexes],
                                                           wall_index=[i + shift for i in indexes]))

    def due(self, wall, start: int, seat: int, dealer: int) -> list[int]:
        """The seat's horses as the room gives them, for a seat given another number: `per_seat` tiles
        from the back of the wall as it was before the first horse, in order from the dealer ([]
        where the wall does not show them)."""
        rank = (seat - dealer) % 4
        places = [start - 1 - rank * self.per_seat - k for k in range(self.per_seat)]
        tiles = [wall.tiles[i] for i in places if wall.front <= i]
        return tiles if len(tiles) == self.per_seat and UNKNOWN not in tiles else []

    @staticmethod
    def shift(replay) -> int:
        """Tiles taken out of the wall list before the back (an indicator that leaves play): a
        position at the back is that much further on in GameRecord.wall."""
        return len(replay.record.wall) - len(replay.table.wall.tiles) if replay.record.wall else 0

    def at_finish(self, replay) -> None:
        if not self.per_seat:
            return
        missing = [s for s in range(4) if s not in replay.outcome.horses]
        if missing:
            replay.flag(self.code, None, f"no horses logged for seat(s) {missing}; the room gives "
                        f"{self.per_seat} each", index=None)

    # -- settlement -------------------------------------------------------------------------
    def pay(self, ledger, horses: dict[int, tuple[int, ...]], groups, label: str = "买马") -> None:
        """Add each horse's transfers. `groups` is a list of (anchor seat, hand transfers): the
        horses are counted from the anchor and share the results those transfers make."""
        for anchor, transfers in groups:
            transfers = [t for t in transfers if not t.kong]
            for owner, tiles in sorted(horses.items()):
                for tile in tiles:
                    target = counted_seat(tile, anchor)
                    if target == owner and not self.on_owner_counts:
                        continue
                    why = f"{label}: seat {owner}'s horse {T.label(tile)} is on seat {target}"
                    won = [t for t in transfers if t.payee == target]
                    lost = [t for t in transfers if t.payer == target]
                    for payer, amount in self.winner_shares(owner, won):
                        ledger.pay(payer, owner, amount, why + " (won)")
                    for t in lost:
                        if t.payee != owner:
                            ledger.pay(owner, t.payee, t.amount, why + " (lost)")

    def winner_shares(self, owner: int, won) -> list[tuple[int, int]]:
        """(payer, amount) the owner of a horse on a winner receives: each of the winner's payers
        pays it what it paid the winner (TDH-A11)."""
        shares = [(t.payer, t.amount) for t in won if t.payer != owner]
        own = sum(t.amount for t in won if t.payer == owner)
        if self.owner_pays_self or not own or not shares:
            return shares  # the owner's own part nets to zero
        payers = sorted({p for p, _ in shares}, key=lambda p: (p - owner) % 4)
        each, rest = divmod(own, len(payers))
        extra = {p: each + (1 if k < rest else 0) for k, p in enumerate(payers)}
        return shares + [(p, a) for p, a in extra.items() if a]
