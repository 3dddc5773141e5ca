"""Throughput of referee.shapes on random hands drawn from a 136-tile wall.

Cold: the memoized suit table is cleared before every call (the worst case, each suit
costed from scratch). Warm: the same hands again after one pass filled the table.

    python benchmarks/shapes_speed.py --hands 20000 --seed 1
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from referee import shapes  # noqa: E402
from referee.tiles import KINDS, counts  # noqa: E402

WALL = [t for t in range(KINDS) for _ in range(4)]


def draw(rng: random.Random, n: int, size: int, wilds: int) -> list[list[int]]:
    """n hands of `size` tiles, `wilds` of which are wild (so size - wilds naturals)."""
    return [counts(rng.sample(WALL, size - wilds)) for _ in range(n)]


def rate(fn, hands, wilds: int, cold: bool) -> float:
    if cold:
        start = time.perf_counter()
        for h in hands:
            shapes.clear_caches()
            fn(h, wilds)
        elapsed = time.perf_counter() - start
    else:
        for h in hands:  # fill the table first
            fn(h, wilds)
        start = time.perf_counter()
        for h in hands:
            fn(h, wilds)
        elapsed = time.perf_counter() - start
    return len(hands) / elapsed


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000, help="hands per figure")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    labels = {0: "no wilds", 1: "1 wild", 2: "2 wilds"}
    for wilds in (0, 1, 2):
        win_hands = draw(rng, args.hands, 14, wilds)
        wait_hands = draw(rng, args.hands, 13, wilds)
        for cold in (True, False):
            temp = "cold" if cold else "warm"
            r = rate(shapes.is_standard_win, win_hands, wilds, cold)
            print(f"is_standard_win ({labels[wilds]}, {temp}): {r:.0f} hands/s")
            r = rate(shapes.waits, wait_hands, wilds, cold)
            print(f"waits 13-tile ({labels[wilds]}, {temp}): {r:.0f} hands/s")
    print(f"suit table after the run: {shapes._suit_costs.cache_info().currsize} entries")


if __name__ == "__main__":
    main()
