"""Referee throughput on simulated hands: hands/s and events/s per core, against the floor.

The corpus (N simulated hands of one ruleset, fixed seed) is generated once and cached under
/tmp. Then, on one core, each figure covers the whole corpus, timed on hands the timing process
has never judged (benchmarks/unseen.py: each half in a fresh process warmed on the other half):

  floor          decode each record and walk its events (what any reader pays)
  referee        verify_bytes(trace=False): decode, replay, check, settle, compare
  referee+trace  verify_bytes(trace=True): also every decision point's legal set

and a cProfile of the referee pass (top costs by own time). Target: 2,000 Hebei hands/s/core.

    python benchmarks/referee_speed.py                      # 10,000 Hebei hands, seed 1
    python benchmarks/referee_speed.py --hands 2000 --seed 7 --ruleset hebei
"""
from __future__ import annotations

import argparse
import cProfile
import io
import multiprocessing
import os
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout
sys.path.insert(0, str(Path(__file__).resolve().parent))

from referee import archive, records, shapes  # noqa: E402
from referee.proto import record_pb2 as pb  # noqa: E402
from referee.rules import RULESETS, get_ruleset  # noqa: E402
from referee import simulate as simulate_module  # noqa: E402
from referee.simulate import simulate_hand  # noqa: E402
from referee.verify import verify_bytes  # noqa: E402
from corpora import CACHE, digest  # noqa: E402
from unseen import unseen_rate  # noqa: E402

TARGET = 2000  # Hebei hands per second per core


def one_hand(job: tuple[str, int, int]) -> bytes:
    ruleset, seed, index = job
    return records.to_binary(simulate_hand(get_ruleset(ruleset), {}, seed, index)[0])


def code_digest() -> str:
    """A short digest of the code that decides what a simulated hand looks like (policy and engine)."""
    root = Path(simulate_module.__file__).resolve().parent
    sources = [root / "simulate.py", root / "referee.py", *sorted((root / "rules").glob("*.py"))]
    return digest(sources)


def corpus_path(ruleset: str, hands: int, seed: int, jobs: int) -> Path:
    """The cached corpus, generated (in parallel, deterministically) when missing; the file name
    carries a digest of the simulator and engine, so a change to either makes a new corpus."""
    path = CACHE / f"{ruleset}-seed{seed}-{hands}-{code_digest()}.tfrecord"
    if not path.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        start = time.perf_counter()
        work = [(ruleset, seed, i) for i in range(hands)]
        with multiprocessing.Pool(jobs) as pool:
            payloads = pool.map(one_hand, work, chunksize=64)
        archive.write_archive(path, payloads)
        print(f"generated {hands} {ruleset} hands in {time.perf_counter() - start:.1f} s -> {path}")
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ruleset", default="hebei", choices=sorted(RULESETS))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes for generating the corpus")
    parser.add_argument("--profile-hands", type=int, default=2000, help="hands under cProfile (0: none)")
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args(argv)

    path = corpus_path(args.ruleset, args.hands, args.seed, args.jobs)
    payloads = [frame.payload for frame in archive.iter_archive(path) if isinstance(frame, archive.Frame)]
    events = sum(len(pb.GameRecord.FromString(p).events) for p in payloads)
    hands = len(payloads)
    print(f"corpus: {hands} {args.ruleset} hands, {events} events ({events / hands:.1f} per hand), "
          f"{sum(map(len, payloads)) / hands:.0f} bytes per hand; shape kernels {shapes.KERNELS}")

    floor, plain, traced = (hands / unseen_rate(path, mode) for mode in ("floor", "plain", "trace"))
    print(f"{'pass':<16}{'CPU s':>9}{'hands/s':>10}{'events/s':>12}{'x floor':>9}")
    for label, seconds in (("floor", floor), ("referee", plain), ("referee+trace", traced)):
        print(f"{label:<16}{seconds:>9.2f}{hands / seconds:>10.0f}{events / seconds:>12.0f}{seconds / floor:>9.1f}")
    rate = hands / plain
    verdict = "meets" if rate >= TARGET else f"is {TARGET / rate:.1f}x short of"
    print(f"referee alone (minus the floor): {hands / (plain - floor):.0f} hands/s; "
          f"{rate:.0f} hands/s/core {verdict} the {TARGET} target")

    if args.profile_hands:
        sample = payloads[:args.profile_hands]
        verify_bytes(payloads[0])  # warm the shape tables once, as a long-running worker would be
        profiler = cProfile.Profile()
        profiler.enable()
        for data in sample:
            verify_bytes(data)
        profiler.disable()
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out)
        stats.sort_stats("tottime").print_stats(args.top)
        print(f"\ncProfile of the referee pass over {len(sample)} hands, top {args.top} by own time:")
        print("\n".join(line for line in out.getvalue().splitlines() if line.strip()
                        and not line.startswith(("   Ordered", "   List reduced"))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
