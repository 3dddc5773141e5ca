"""Throughput of referee.shapes (issue 10 goals), one figure per line.

    python benchmarks/shapes_speed.py --hands 20000 --seed 1

Hand mixes (deterministic from --seed):
  win      14 tiles, no wilds: 1/2 winning (4 sets + a pair), 1/4 a winning hand with one
           tile swapped, 1/4 drawn from the 136-tile wall.
  waits    13 tiles, no wilds: 1/2 a winning hand minus one tile (tenpai), 1/4 the same
           with one more tile swapped, 1/4 from the wall.
  wild     13 tiles of which 1-4 are wilds (as many hands of each): the same three kinds,
           wilds replacing random tiles.
  exact    the wild mix through the exact path (room 3 for one kind, a 2/5/8 pair).

Each figure is measured twice: "first pass" right after clear_caches() (on a fresh process,
so tables were only loaded at import), and "warm" (best of three further passes). Goals:
win >= 1,000,000/s warm and at least the `mahjong` package's Agari().is_agari on the same
hands (install with `pip install -e '.[bench]'`); wild waits >= 100,000/s; first pass within
10 % of warm. Machine load moves every absolute figure; compare the ratios printed.
"""
from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout

from referee import shapes  # noqa: E402
from referee.tiles import KINDS, counts  # noqa: E402

WALL = [t for t in range(KINDS) for _ in range(4)]
CHOWS = [t for t in range(27) if t % 9 <= 6]
JIANG = tuple(t for t in range(27) if t % 9 in (1, 4, 7))


def winning(rng: random.Random) -> list[int]:
    """Four random sets and a pair within the 4-copy limit."""
    while True:
        vec = [0] * KINDS
        vec[rng.randrange(KINDS)] += 2
        for _ in range(4):
            if rng.random() < 0.6:
                s = rng.choice(CHOWS)
                for k in (s, s + 1, s + 2):
                    vec[k] += 1
            else:
                vec[rng.randrange(KINDS)] += 3
        if max(vec) <= 4:
            return vec


def swap(rng: random.Random, vec: list[int]) -> list[int]:
    vec = list(vec)
    vec[rng.choice([t for t in range(KINDS) if vec[t]])] -= 1
    vec[rng.choice([t for t in range(KINDS) if vec[t] < 4])] += 1
    return vec


def drop(rng: random.Random, vec: list[int], n: int) -> list[int]:
    vec = list(vec)
    for _ in range(n):
        vec[rng.choice([t for t in range(KINDS) if vec[t]])] -= 1
    return vec


def mix(rng: random.Random, n: int, size: int, wilds_of) -> list[tuple[list[int], int]]:
    """(naturals, wilds) hands of `size` tiles: 1/2 from a win, 1/4 swapped, 1/4 wall."""
    hands = []
    for i in range(n):
        wilds = wilds_of(i)
        kind = i % 4
        if kind == 3:
            vec = counts(rng.sample(WALL, size - wilds))
        else:
            vec = winning(rng)
            if kind == 2:
                vec = swap(rng, vec)
            vec = drop(rng, vec, 14 - size + wilds)
        hands.append((vec, wilds))
    return hands


def timed(fn, hands) -> tuple[float, float]:
    """(first pass after clear_caches, best of three warm passes) in hands/s."""
    shapes.clear_caches()
    start = time.process_time()
    for vec, wilds in hands:
        fn(vec, wilds)
    first = len(hands) / (time.process_time() - start)
    warm = 0.0
    for _ in range(3):
        start = time.process_time()
        for vec, wilds in hands:
            fn(vec, wilds)
        warm = max(warm, len(hands) / (time.process_time() - start))
    return first, warm


def report(label: str, fn, hands, goal: float | None = None) -> float:
    first, warm = timed(fn, hands)
    note = f"  (goal {goal:,.0f}/s: {'met' if warm >= goal else 'MISSED'})" if goal else ""
    print(f"{label:<44} first pass {first:>11,.0f}/s   warm {warm:>11,.0f}/s   first/warm {first / warm:5.2f}{note}")
    return warm


def import_time() -> float:
    """Seconds to import referee.shapes (tables included) in a fresh interpreter, tiles excluded."""
    code = ("import time, referee.tiles; t = time.process_time(); import referee.shapes; "
            "print(time.process_time() - t)")
    runs = [float(subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                                 check=True).stdout) for _ in range(3)]
    return min(runs)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000, help="hands per figure")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    n = args.hands

    print(f"import referee.shapes (tables decompressed and indexed): {import_time() * 1000:.0f} ms")

    win_hands = mix(rng, n, 14, lambda i: 0)
    rate = report("is_standard_win, 14 tiles, no wilds", lambda v, w: shapes.is_standard_win(v), win_hands, 1e6)
    wins = sum(shapes.is_standard_win(v) for v, _ in win_hands)
    try:
        from mahjong.agari import Agari
    except ImportError:
        print("mahjong package not installed (pip install -e '.[bench]'): no Agari comparison")
    else:
        agari = Agari()
        theirs = report("mahjong Agari().is_agari, same hands", lambda v, w: agari.is_agari(v), win_hands)
        print(f"  ours / theirs: {rate / theirs:.2f}x  ({wins / n:.0%} of the hands win; is_agari also "
              f"accepts seven pairs and thirteen orphans)")

    wait_hands = mix(rng, n, 13, lambda i: 0)
    report("standard_waits, 13 tiles, no wilds", shapes.standard_waits, wait_hands)
    report("waits (generic API), 13 tiles, no wilds", shapes.waits, wait_hands)
    tenpai = sum(bool(shapes.standard_waits(v)) for v, _ in wait_hands)
    print(f"  {tenpai / n:.0%} of these hands are ready")

    wild_hands = mix(rng, n, 13, lambda i: 1 + i // 4 % 4)
    report("standard_waits, 13 tiles with 1-4 wilds", shapes.standard_waits, wild_hands, 1e5)
    tenpai = sum(bool(shapes.standard_waits(v, w)) for v, w in wild_hands)
    print(f"  {tenpai / n:.0%} of these hands are ready")
    report("hand_waits + seven pairs + orphans, 1-4 wilds",
           lambda v, w: shapes.hand_waits(v, w, seven_pairs=True, thirteen_orphans=True), wild_hands)
    win_wild = [(swap(rng, v) if i % 3 == 0 else v, w) for i, (v, w) in enumerate(mix(rng, n, 14, lambda i: 1 + i % 4))]
    report("is_standard_win, 14 tiles with 1-4 wilds", shapes.is_standard_win, win_wild)

    room = [4] * KINDS
    room[4] = 3  # a Ningxiang indicator (5m): one copy is out of play
    report("exact path: is_standard_win, room + 2/5/8 pair",
           lambda v, w: shapes.is_standard_win(v, w, room=room, pair_kinds=JIANG), win_wild)
    report("exact path: standard_waits, room + 2/5/8 pair",
           lambda v, w: shapes.standard_waits(v, w, room=room, pair_kinds=JIANG), wild_hands)


if __name__ == "__main__":
    main()
