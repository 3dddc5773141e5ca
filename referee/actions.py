"""The action model: what a seat can do at a decision point, as small comparable values."""
from __future__ import annotations

from typing import NamedTuple

from referee import tiles as T
from referee.proto import record_pb2 as pb

DRAW = "draw"
DISCARD = "discard"
READY_DISCARD = "ready+discard"  # 听 declared with this discard
JIATING_DISCARD = "jiating+discard"  # 夹听 declared with this discard (a unique closed or edge wait)
SELF_WIN = "win self-draw"
RON = "win on discard"
ROB_WIN = "win robbing kong"
PON = "pon"
CHI = "chi"
CHI_READY = "chi+ready"  # 吃听: a 吃 that declares 听 at once
KONG_CONCEALED = "kong concealed"
KONG_EXPOSED = "kong exposed"
KONG_ADDED = "kong added"
KONG_BORROWED = "kong borrowing the indicator"  # 借子开杠
PASS = "pass"
OPENING_READY = "ready at the deal"  # 报听: no discard, right after the deal
TAKE_HAIDI = "take the last tile"  # 海底漫游: the last tile is offered around
REVEAL = "reveal two tiles"  # 打筛: a kong resolved by two revealed tiles
FLIP = "flip the indicator"  # a 宝 (or 换宝) that is due before the next draw

# The ready declaration each action makes (actions.TING etc. are the Seat.ready values).
TING, JIATING, BAOTING = "听", "夹听", "报听"
DECLARES = {READY_DISCARD: TING, JIATING_DISCARD: JIATING, CHI_READY: TING, OPENING_READY: BAOTING}

WINS = (SELF_WIN, RON, ROB_WIN)
DISCARDS = (DISCARD, READY_DISCARD, JIATING_DISCARD)
CALLS = (PON, CHI, CHI_READY, KONG_EXPOSED)
OWN_KONGS = {KONG_CONCEALED: 4, KONG_ADDED: 1, KONG_BORROWED: 0}  # tiles each takes from the hand
KONG_FROM_HAND = {**OWN_KONGS, KONG_EXPOSED: 3}
AFTER_PON_KONGS = (KONG_ADDED, KONG_BORROWED)  # own kongs a rule book may allow right after a 碰 (kong_after_pon)
# Claim priority in the window after a discard: 胡 > 碰/杠 > 吃 > 过 (SPEC 0.3).
PRIORITY = {RON: 3, PON: 2, KONG_EXPOSED: 2, CHI: 1, CHI_READY: 1, PASS: 0}


class Action(NamedTuple):
    kind: str
    tile: int | None = None  # for CHI: the lowest tile of the sequence

    def __str__(self) -> str:
        if self.tile is None:
            return self.kind
        if self.kind in (CHI, CHI_READY):
            return f"{self.kind} {T.format_tiles([self.tile, self.tile + 1, self.tile + 2])}"
        return f"{self.kind} {T.NAMES[self.tile]}"


class _Labels(dict):
    """str(action), remembered: traces write the same few hundred actions over and over, and a
    dict's own look-up (label below) is the cheapest way there."""

    def __missing__(self, action: Action) -> str:
        text = self[action] = str(action)
        return text


label = _Labels().__getitem__  # label(action) -> str(action)


def describe_set(actions) -> str:
    """'discard 1m, discard 5p, pass' in a stable order."""
    return ", ".join(sorted({str(a) for a in actions})) or "nothing"


READY_KINDS = {READY_DISCARD: pb.TING, JIATING_DISCARD: pb.JIATING, CHI_READY: pb.TING}
WIN_KINDS = {SELF_WIN: pb.SELF_DRAW, RON: pb.DISCARD, ROB_WIN: pb.ROB_KONG}
KONG_KINDS = {KONG_CONCEALED: pb.CONCEALED, KONG_EXPOSED: pb.EXPOSED, KONG_ADDED: pb.ADDED,
              KONG_BORROWED: pb.BORROWED}


def to_event(seat: int, action: Action, claimed: int | None = None) -> pb.Event:
    """The event a platform logs for this action (`claimed`: the discard a 吃 takes).

    Draws, reveals and offers depend on the wall: their phases build those events."""
    kind, tile = action.kind, action.tile
    code = T.to_proto(tile) if tile is not None else 0
    if kind in DISCARDS:
        return pb.Event(seat=seat, discard=pb.Discard(tile=code, ready=READY_KINDS.get(kind, pb.READY_NONE)))
    if kind in WIN_KINDS:
        return pb.Event(seat=seat, win=pb.Win(kind=WIN_KINDS[kind], tile=code))
    if kind == PON:
        return pb.Event(seat=seat, pon=pb.Pon(tile=code))
    if kind in KONG_KINDS:
        return pb.Event(seat=seat, kong=pb.Kong(kind=KONG_KINDS[kind], tile=code))
    if kind in (CHI, CHI_READY):
        shown = [t for t in (tile, tile + 1, tile + 2) if t != claimed]
        return pb.Event(seat=seat, chi=pb.Chi(tiles=[T.to_proto(t) for t in shown],
                                              ready=READY_KINDS.get(kind, pb.READY_NONE)))
    if kind == PASS:
        return pb.Event(seat=seat, **{"pass": pb.Pass()})
    if kind == OPENING_READY:
        return pb.Event(seat=seat, ready=pb.Ready(kind=pb.BAOTING))
    raise ValueError(f"no event is logged for {action} by itself")
