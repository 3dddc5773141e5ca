"""Throughput of referee.shapes (issue 10 goals), one figure per line.

    python benchmarks/shapes_speed.py --hands 20000 --seed 1 [--baseline 115f5f4]

Hands (deterministic from --seed) are built from three kinds: "win" (4 random sets and a
pair), "near" (a win with one tile swapped for another) and "wall" (drawn from the 136-tile
wall, almost never ready). Mixes:
  win checks, 14 tiles, no wilds, three mixes: half winning (1/2 win, 1/4 near, 1/4 wall),
           play-like (1/10 win, 3/10 near, 6/10 wall) and wall only.
  waits    13 tiles: a win or near hand minus one tile, or 13 from the wall (1/2, 1/4, 1/4);
           "with 1-4 wilds": the same with 1, 2, 3 or 4 of its tiles turned wild.
  restricted  the wild mixes with room 3 for 5m and the pair 2/5/8 suited (cost path).

Each figure is measured twice: "first pass" right after clear_caches(), and "warm" (best
of three further passes). Rates are per second of this process's CPU time, so other work
on a shared machine does not count against them (it still slows caches; compare ratios).
Goals (issue 10): win >= 1,000,000/s warm and at least the `mahjong` package's
Agari().is_agari on the same hands (`pip install -e '.[bench]'`); waits with wilds
>= 100,000/s; first pass within 10 % of warm.

--baseline REV also times referee/shapes.py as it was at git revision REV (e.g. 115f5f4,
the memoized per-suit DP) on the first 2,000 hands of the same mixes; its last row pits the
path the engine took for wild variants (a full win check per kind) against standard_waits.
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


def mix(rng: random.Random, n: int, size: int, shares: tuple[float, float, float],
        wilds_of=lambda i: 0) -> list[tuple[list[int], int]]:
    """(naturals, wilds) hands of `size` tiles, wilds included, in shares win/near/wall."""
    hands = []
    cut_win, cut_near = shares[0], shares[0] + shares[1]
    for i in range(n):
        wilds = wilds_of(i)
        pick = (i * 0.6180339887) % 1.0  # spread the kinds evenly through the list
        if pick >= cut_near:
            vec = counts(rng.sample(WALL, size - wilds))
        else:
            vec = winning(rng)
            if pick >= cut_win:
                vec = swap(rng, vec)
            vec = drop(rng, vec, 14 - size + wilds)
        hands.append((vec, wilds))
    return hands


HALF = (0.5, 0.25, 0.25)
PLAY = (0.1, 0.3, 0.6)
WALL_ONLY = (0.0, 0.0, 1.0)


def timed(fn, hands, module=shapes) -> tuple[float, float]:
    """(first pass after module.clear_caches(), best of three warm passes) in hands/s."""
    module.clear_caches()
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
    print(f"{label:<40} first pass {first:>11,.0f}/s   warm {warm:>11,.0f}/s   first/warm {first / warm:5.2f}{note}")
    return warm


def load_baseline(rev: str):
    """referee/shapes.py at git revision `rev`, as a module."""
    import types
    source = subprocess.run(["git", "show", f"{rev}:referee/shapes.py"], cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout
    module = types.ModuleType(f"shapes_{rev}")
    module.__dict__["__name__"] = module.__name__
    sys.modules[module.__name__] = module  # dataclasses look the module up
    exec(compile(source, f"{rev}:referee/shapes.py", "exec"), module.__dict__)
    return module


def compare(rev: str, hands_by_name: dict) -> None:
    old = load_baseline(rev)
    new = shapes
    rows = [  # (label, mix, old call, new call)
        ("is_standard_win, no wilds, half winning", "win",
         lambda v, w: old.is_standard_win(v), lambda v, w: new.is_standard_win(v)),
        ("waits, 13 tiles, no wilds", "waits", old.waits, new.standard_waits),
        ("waits, 13 tiles, 1-4 wilds", "wild", old.waits, new.standard_waits),
        ("old: a win check per kind; new: standard_waits", "wild",
         lambda v, w: old.waits(v, w, win=lambda c, x: old.is_standard_win(c, x)), new.standard_waits),
    ]
    print(f"baseline: referee/shapes.py at {rev}, first 2,000 hands of each mix "
          "(first pass = right after its clear_caches())")
    for label, key, old_call, new_call in rows:
        hands = hands_by_name[key][:2000]
        old_first, old_warm = timed(old_call, hands, old)
        _, new_warm = timed(new_call, hands, new)
        print(f"  {label:<48} old first pass {old_first:>8,.0f}/s  old warm {old_warm:>8,.0f}/s  "
              f"new warm {new_warm:>9,.0f}/s  x{new_warm / old_warm:,.0f} warm, x{new_warm / old_first:,.0f} first pass")


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
    parser.add_argument("--baseline", metavar="REV", help="also time referee/shapes.py at this git revision")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    n = args.hands

    print(f"import referee.shapes (tables decompressed and indexed): {import_time() * 1000:.0f} ms")

    try:
        from mahjong.agari import Agari
    except ImportError:
        agari = None
        print("mahjong package not installed (pip install -e '.[bench]'): no Agari comparison")
    else:
        agari = Agari()
    kept = {}
    for name, shares in (("half winning", HALF), ("play-like", PLAY), ("wall", WALL_ONLY)):
        hands = mix(rng, n, 14, shares)
        kept.setdefault("win", hands)
        wins = sum(shapes.is_standard_win(v) for v, _ in hands)
        print(f"win checks, 14 tiles, no wilds, {name} mix ({wins / n:.0%} win):")
        ours = report("  is_standard_win", lambda v, w: shapes.is_standard_win(v), hands, 1e6)
        if agari is not None:
            theirs = report("  mahjong Agari().is_agari", lambda v, w: agari.is_agari(v), hands)
            print(f"  ours / theirs: {ours / theirs:.2f}x (is_agari also accepts seven pairs and orphans)")

    hands = kept["waits"] = mix(rng, n, 13, HALF)
    ready = sum(bool(shapes.standard_waits(v)) for v, _ in hands)
    print(f"waits, 13 tiles, no wilds ({ready / n:.0%} ready):")
    report("  standard_waits", shapes.standard_waits, hands)
    report("  waits (the generic API)", shapes.waits, hands)
    report("  hand_waits + seven pairs + orphans",
           lambda v, w: shapes.hand_waits(v, w, seven_pairs=True, thirteen_orphans=True), hands)
    report("  standard_waits, wall hands", shapes.standard_waits, mix(rng, n, 13, WALL_ONLY))

    wild = kept["wild"] = mix(rng, n, 13, HALF, lambda i: 1 + i % 4)
    ready = sum(bool(shapes.standard_waits(v, w)) for v, w in wild)
    print(f"waits, 13 tiles with 1-4 wilds ({ready / n:.0%} ready):")
    report("  standard_waits", shapes.standard_waits, wild, 1e5)
    report("  hand_waits + seven pairs + orphans",
           lambda v, w: shapes.hand_waits(v, w, seven_pairs=True, thirteen_orphans=True), wild)
    win_wild = mix(rng, n, 14, HALF, lambda i: 1 + i % 4)
    wins = sum(shapes.is_standard_win(v, w) for v, w in win_wild)
    print(f"wins, 14 tiles with 1-4 wilds ({wins / n:.0%} win):")
    report("  is_standard_win", shapes.is_standard_win, win_wild)
    report("  standard_cost", lambda v, w: shapes.standard_cost(v), win_wild)

    room = [4] * KINDS
    room[4] = 3  # a Ningxiang indicator (5m): one copy is out of play
    print("room 3 for 5m and the pair 2/5/8 suited (the cost path), the same wild hands:")
    report("  is_standard_win", lambda v, w: shapes.is_standard_win(v, w, room=room, pair_kinds=JIANG), win_wild)
    report("  standard_waits", lambda v, w: shapes.standard_waits(v, w, room=room, pair_kinds=JIANG), wild)
    if args.baseline:
        compare(args.baseline, kept)


if __name__ == "__main__":
    main()
