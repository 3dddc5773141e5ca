"""Every figure of issue 10's speed table in one run, side by side with its goal, for every ruleset.

    python benchmarks/speed_table.py                      # 1,000 hands per ruleset, every ruleset
    python benchmarks/speed_table.py --hands 3000 --rulesets hebei ningxiang --no-audit

Per ruleset (one core): `mjref simulate` hands/s (generating the corpus this run uses), the floor
(decode a record and touch every event), the referee (decode, replay, every check, settle,
compare), the referee with the decision trace, their ratios, and the referee's first pass in a
fresh process against a warm pass. The floor and referee rates are each timed on hands the
timing process has never judged (benchmarks/unseen.py: memos that outlive a hand would
otherwise flatter a second look at the same records). Then the shape checks against the
external `mahjong` package (`pip install -e '.[bench]'`; skipped if absent), and the audit with
1 and 2 workers (benchmarks/pipeline_speed.py on its synthetic Hebei archive, 100,000 hands by
default). Rates are per second of CPU time of the process measured (less sensitive to a shared
machine than wall time); the audit's are wall time.
"""
from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from referee import archive, records, shapes  # noqa: E402
from referee.rules import RULESETS, get_ruleset  # noqa: E402
from referee.simulate import simulate_hand  # noqa: E402
from unseen import half_seconds, per_second, unseen_halves, unseen_rate  # noqa: E402

GOALS = {"hebei": 2000, "ningxiang": 1000}  # referee hands/s/core (issue 10); the others: no goal stated


def ruleset_rows(name: str, hands: int, seed: int, work: Path) -> tuple[list[str], Path]:
    rules = get_ruleset(name)
    start = time.process_time()
    corpus = [records.to_binary(simulate_hand(rules, {}, seed, i)[0]) for i in range(hands)]
    simulate = hands / (time.process_time() - start)
    path = work / f"{name}.tfrecord"
    archive.write_archive(path, iter(corpus))
    events = sum(len(records.parse_binary(d).events) for d in corpus) / hands
    # This process simulated (so judged) every hand: the rates come from fresh ones (unseen.py).
    floor, traced = unseen_rate(path, "floor"), unseen_rate(path, "trace")
    halves = unseen_halves(path, "plain")
    rate = per_second(halves)
    # The first half in a fresh process, cold, against the same half after the other (warm caches).
    count, cold = half_seconds(path, "plain", first=True, warm=False)
    first, warm = count / cold, per_second(halves[:1])
    goal = GOALS.get(name)
    rows = [
        f"{name}: {hands} simulated hands, {events:.0f} events each",
        f"  referee, hands/s/core             {rate:>10,.0f}   goal {goal or '-':>6}"
        + (f"   {'met' if rate >= goal else 'MISSED'}" if goal else ""),
        f"  floor (decode + walk), hands/s    {floor:>10,.0f}",
        f"  referee / floor                   {floor / rate:>10.1f}x  goal <= 15x   "
        + ("met" if floor / rate <= 15 else "MISSED"),
        f"  referee with trace, hands/s       {traced:>10,.0f}",
        f"  trace / no trace                  {rate / traced:>10.2f}x  goal <= 1.5x  "
        + ("met" if rate / traced <= 1.5 else "MISSED"),
        f"  first pass vs warm (fresh process) {first:>9,.0f} vs {warm:,.0f} hands/s: {first / warm:.2f}   "
        f"goal >= 0.90 {'met' if first / warm >= 0.9 else 'MISSED'}",
        f"  mjref simulate, hands/s/core      {simulate:>10,.0f}   goal   1000   "
        + ("met" if simulate >= 1000 else "MISSED"),
    ]
    return rows, path


def loop_rate(check, hands) -> float:
    """Best of three passes of `check(vec)` over the hands, called as a user would (no wrapper)."""
    best = 0.0
    for _ in range(3):
        start = time.process_time()
        for vec, _w in hands:
            check(vec)
        best = max(best, len(hands) / (time.process_time() - start))
    return best


def shape_rows() -> list[str]:
    import shapes_speed as S

    rng = random.Random(1)
    wins = S.mix(rng, 20000, 14, S.HALF)
    # Ours and the external package's are timed by the same loop, each a direct call.
    ours = loop_rate(shapes.is_standard_win, wins)
    rows = [f"win check, half winning mix, hands/s   {ours:>10,.0f}   goal 1,000,000   "
            + ("met" if ours >= 1_000_000 else "MISSED")]
    try:
        from mahjong.agari import Agari

        theirs = loop_rate(Agari().is_agari, wins)
        rows.append(f"  mahjong Agari().is_agari, same hands {theirs:>8,.0f}   ours / theirs {ours / theirs:.2f}")
    except ImportError:
        rows.append("  (the mahjong package is not installed: pip install -e '.[bench]')")
    wild = S.mix(rng, 20000, 13, S.HALF, wilds_of=lambda i: 1 + i % 4)
    _first, waits = S.timed(lambda vec, w: shapes.standard_waits(vec, w), wild)
    rows.append(f"wild-aware waits (1-4 wilds), hands/s   {waits:>10,.0f}   goal   100,000   "
                + ("met" if waits >= 100_000 else "MISSED"))
    return rows


def audit_rows(hands: int) -> list[str]:
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "pipeline_speed.py"), "--records", str(hands)],
                          capture_output=True, text=True)
    rates = [float(m.replace(",", "")) for m in re.findall(r"([\d,]+) hands/s", proc.stdout)]
    ratios = re.search(r"pipeline: 2 workers vs 1 ([\d.]+)x as measured, ([\d.]+)x past start-up", proc.stdout)
    if proc.returncode != 0 or len(rates) < 3 or ratios is None:
        return [f"audit: pipeline_speed failed: {proc.stderr[-500:]}"]
    alone, one, _two = rates[:3]
    measured, past = float(ratios[1]), float(ratios[2])
    return [f"audit, 1 worker vs referee alone      {one / alone:>10.2f}   ({hands:,} hands)",
            f"audit, 2 workers vs 1                 {measured:>10.2f}x  goal >= 1.8x  "
            + ("met" if measured >= 1.8 else "MISSED"),
            f"  past Beam's start-up                {past:>10.2f}x"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rulesets", nargs="+", default=sorted(RULESETS), choices=sorted(RULESETS))
    parser.add_argument("--no-audit", action="store_true", help="skip the 1- and 2-worker audit runs")
    parser.add_argument("--audit-hands", type=int, default=100_000,
                        help="records of the audit runs (default 100,000: Beam's start-up of a few seconds "
                             "weighs on a smaller archive; the last row shows the ratio without it)")
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores, Python {sys.version.split()[0]}, load average {os.getloadavg()[0]:.2f}, "
          f"shape kernels {shapes.KERNELS} (MJREF_PURE_PYTHON=1: the Python ones)")
    with tempfile.TemporaryDirectory(prefix="mjref-speed-") as tmp:
        work = Path(tmp)
        paths = {}
        for name in args.rulesets:
            rows, paths[name] = ruleset_rows(name, args.hands, args.seed, work)
            print("\n".join(rows), flush=True)
        print("\n".join(shape_rows()), flush=True)
        if not args.no_audit:
            print("\n".join(audit_rows(args.audit_hands)), flush=True)
    print(f"load average at the end {os.getloadavg()[0]:.2f} (figures from a shared machine are noisy)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
