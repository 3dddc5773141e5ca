"""Builds referee/shape_tables.py, the per-suit tables behind referee.shapes.

    python -m referee.shape_build           # rewrite referee/shape_tables.py (about 15 s)
    python -m referee.shape_build --check   # exit 1 if the shipped module is stale

One suit is nine counts 0..4, so there are 5**9 = 1,953,125 suit vectors. Each has an index,
sum(count[r] * 5**r); ranks are base-5 digits, so adding one tile of rank r adds 5**r. For
every index the tables hold

* C0: the fewest wilds that turn the suit into sets (pungs and chows) only,
* C2: the fewest wilds that turn it into sets plus exactly one pair,

under the physical limit (a kind never totals more than 4 copies, naturals plus wilds) and
with all-wild sets allowed. The costs never exceed 9, so they ship as one byte per index,
C0 | C2 << 4, with 15 for "impossible" (only C2 of 4 copies of every rank): 1.95 MB that
compress to a few kilobytes.

Also shipped:
* COMPLETE_DELTAS: the indexes of the complete suits of at most 14 tiles (C0 or C2 is 0),
  delta-coded; the no-wild win check turns them into a dict at import.
* STEP_EXCEPTIONS: adding one tile of rank r changes a cost by -1 or +2 (costs are fixed
  mod 3) except in 1,303 cases, +5 or to impossible; each is i | kind << 21 | r << 22 |
  impossible << 26 (kind 0 for C0, 1 for C2). referee.shapes derives the -1 cases itself.

The costs come from a dynamic programme over ranks 1..9 (the same one referee.shapes runs
for capped hands, in its min-cost form). The state after a rank is (a, b, paired): a chows
need the next rank as their last tile, b chows need the next two ranks. At most two chows
start at one rank, which loses nothing: three equal chows are the same tiles as three pungs.
Vectors sharing a prefix share its state map, and distinct state maps are few (about 27,000),
so memoizing one step on (rank, state map, count) makes the whole table a walk over the
1.95 M vectors.
"""
from __future__ import annotations

import argparse
import array
import hashlib
import lzma
import sys
import textwrap
import time
from base64 import b85encode
from pathlib import Path

RANKS = 9
VECTORS = 5 ** RANKS
IMP = 255  # table value: no number of wilds completes this suit
POW5 = tuple(5 ** r for r in range(RANKS))
MAX_COMPLETE_TILES = 14

_OUT = Path(__file__).with_name("shape_tables.py")


def _state(a: int, b: int, paired: int) -> int:
    return a * 6 + b * 2 + paired


def _moves() -> list[list[list[tuple[int, int]]]]:
    """moves[rank][state] = [(copies f of this rank used, next state), ...]."""
    table = []
    for rank in range(RANKS):
        per_state = []
        for a in range(3):
            for b in range(3):
                for paired in (0, 1):
                    moves = []
                    for s in range(3) if rank <= 6 else (0,):  # chows start at ranks 1..7
                        for pung in (0, 3):
                            for pair in (0,) if paired else (0, 2):
                                f = a + b + s + pung + pair
                                if f <= 4:
                                    moves.append((f, _state(b, s, 1 if paired or pair else 0)))
                    per_state.append(moves)
        table.append(per_state)
    return table


def suit_costs() -> tuple[bytes, bytes]:
    """(C0, C2): 5**9 bytes each, indexed by sum(count[r] * 5**r)."""
    moves = _moves()
    memo: dict[tuple[int, tuple[int, ...], int], tuple[int, ...]] = {}
    c0 = bytearray(VECTORS)
    c2 = bytearray(VECTORS)

    def step(rank: int, costs: tuple[int, ...], n: int) -> tuple[int, ...]:
        key = (rank, costs, n)
        out = memo.get(key)
        if out is None:
            nxt = [IMP] * 18
            for state, cost in enumerate(costs):
                if cost < IMP:
                    for f, to in moves[rank][state]:
                        if f >= n and cost + f - n < nxt[to]:
                            nxt[to] = cost + f - n
            out = memo[key] = tuple(nxt)
        return out

    def walk(rank: int, costs: tuple[int, ...], index: int) -> None:
        if rank == RANKS:
            # No chow is open after rank 9, so the answers sit in states (0, 0, paired).
            c0[index] = costs[_state(0, 0, 0)]
            c2[index] = costs[_state(0, 0, 1)]
            return
        for n in range(5):
            walk(rank + 1, step(rank, costs, n), index + n * POW5[rank])

    walk(0, (0,) + (IMP,) * 17, 0)
    return bytes(c0), bytes(c2)


def digits(index: int) -> list[int]:
    return [index // POW5[r] % 5 for r in range(RANKS)]


def complete_suits(c0: bytes, c2: bytes) -> list[int]:
    """Sorted indexes of suits of at most 14 tiles that are sets, or sets and a pair."""
    return [i for i in range(VECTORS) if (c0[i] == 0 or c2[i] == 0) and sum(digits(i)) <= MAX_COMPLETE_TILES]


def step_exceptions(c0: bytes, c2: bytes) -> list[int]:
    """Every (index, kind, rank) whose extra tile moves the cost by neither -1 nor +2."""
    found = []
    for kind, costs in enumerate((c0, c2)):
        for r in range(RANKS):
            step = POW5[r]
            for start in range(0, VECTORS, 5 * step):  # indexes whose rank-r digit is 0..3
                before = costs[start:start + 4 * step]
                after = costs[start + step:start + 5 * step]
                for j, (x, y) in enumerate(zip(before, after)):
                    if x == IMP or y - x in (-1, 2):
                        continue
                    if y != IMP and y - x != 5:
                        raise AssertionError(f"cost step {y - x} at index {start + j}, rank {r}")
                    found.append((start + j) | kind << 21 | r << 22 | (y == IMP) << 26)
    return sorted(found)


def _blob(raw: bytes) -> str:
    # A dictionary just above the payload (2 MB) compresses as well as the preset's 64 MB,
    # and decompressing allocates only that much at import.
    filters = [{"id": lzma.FILTER_LZMA2, "preset": 9 | lzma.PRESET_EXTREME, "dict_size": 1 << 21}]
    packed = b85encode(lzma.compress(raw, filters=filters)).decode("ascii")
    lines = textwrap.wrap(packed, 96)
    return "(\n" + "".join(f'    "{line}"\n' for line in lines) + ")"


def _uint32(values: list[int]) -> bytes:
    packed = array.array("I", values)
    if sys.byteorder != "little":
        packed.byteswap()
    return packed.tobytes()


def payloads() -> dict[str, bytes]:
    c0, c2 = suit_costs()
    assert max(c0) <= 9 and max(x for x in c2 if x != IMP) <= 9 and IMP not in c0
    packed = bytes(a | (15 if b == IMP else b) << 4 for a, b in zip(c0, c2))
    complete = complete_suits(c0, c2)
    deltas = [complete[0]] + [b - a for a, b in zip(complete, complete[1:])]
    return {
        "SUIT_COSTS": packed,
        "COMPLETE_DELTAS": _uint32(deltas),
        "STEP_EXCEPTIONS": _uint32(step_exceptions(c0, c2)),
    }


def render() -> str:
    parts = [
        '"""Generated by `python -m referee.shape_build`; do not edit. See that module for the layout."""',
        "",
        "# Base-85 of the LZMA-compressed payload; SHA-256 of the raw payload.",
    ]
    for name, raw in payloads().items():
        parts.append(f"{name} = {_blob(raw)}")
        parts.append(f'{name}_SHA256 = "{hashlib.sha256(raw).hexdigest()}"')
        parts.append(f"{name}_SIZE = {len(raw)}")
    return "\n".join(parts) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare with the shipped module")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    text = render()
    elapsed = time.perf_counter() - start
    if args.check:
        same = _OUT.exists() and _OUT.read_text() == text
        print(f"{_OUT.name} is {'up to date' if same else 'STALE'} ({elapsed:.1f} s)")
        return 0 if same else 1
    _OUT.write_text(text)
    print(f"wrote {_OUT} ({len(text):,} bytes) in {elapsed:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
