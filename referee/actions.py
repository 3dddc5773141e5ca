"""The action model: what a seat can do at a decision point, as small comparable values."""
from __future__ import annotations

from typing import NamedTuple

from referee import tiles as T

DRAW = "draw"
DISCARD = "discard"
READY_DISCARD = "ready+discard"  # 听 declared with this discard
SELF_WIN = "win self-draw"
RON = "win on discard"
ROB_WIN = "win robbing kong"
PON = "pon"
CHI = "chi"
KONG_CONCEALED = "kong concealed"
KONG_EXPOSED = "kong exposed"
KONG_ADDED = "kong added"
KONG_BORROWED = "kong borrowing the indicator"  # 借子开杠 (Ningxiang)
PASS = "pass"
OPENING_READY = "ready at the deal"  # 报听 (Ningxiang)
TAKE_HAIDI = "take the last tile"  # 海底漫游 (Ningxiang)
REVEAL = "reveal two tiles"  # 打筛 (Ningxiang)

WINS = (SELF_WIN, RON, ROB_WIN)
CALLS = (PON, CHI, KONG_EXPOSED)
# Claim priority in the window after a discard: 胡 > 碰/杠 > 吃 > 过 (SPEC 0.3).
PRIORITY = {RON: 3, PON: 2, KONG_EXPOSED: 2, CHI: 1, PASS: 0}


class Action(NamedTuple):
    kind: str
    tile: int | None = None  # for CHI: the lowest tile of the sequence

    def __str__(self) -> str:
        if self.tile is None:
            return self.kind
        if self.kind == CHI:
            return f"{self.kind} {T.format_tiles([self.tile, self.tile + 1, self.tile + 2])}"
        return f"{self.kind} {T.NAMES[self.tile]}"


def describe_set(actions) -> str:
    """'discard 1m, discard 5p, pass' in a stable order."""
    return ", ".join(sorted({str(a) for a in actions})) or "nothing"
