"""Two checkouts' referee rates on the same hands, alternating, best of several rounds.

A shared host moves a single timing by 10-30% from one minute to the next, more than most
changes are worth; so each round times every checkout in turn (unseen.py's fresh processes,
untraced and traced), and the best round of each counts.

    python benchmarks/side_by_side.py BASE_CHECKOUT [--hands 500] [--rounds 3] [--rulesets hebei dalian]

BASE_CHECKOUT is another working tree (`git worktree add /tmp/base <commit>`; build its compiled
kernels with `python setup.py build_ext --inplace` there, or both run the Python ones). The hands
are simulated by this checkout, so both judge the same records.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from referee import archive, records  # noqa: E402
from referee.rules import RULESETS, get_ruleset  # noqa: E402
from referee.simulate import simulate_hand  # noqa: E402
from unseen import unseen_rate  # noqa: E402


def corpus(name: str, hands: int, seed: int, work: Path) -> Path:
    rules = get_ruleset(name)
    path = work / f"{name}.tfrecord"
    archive.write_archive(path, (records.to_binary(simulate_hand(rules, {}, seed, i)[0]) for i in range(hands)))
    return path


def best_rates(path: Path, roots: list[Path], rounds: int) -> list[tuple[float, float]]:
    """Per checkout, the best (untraced, traced) hands/s over the rounds, checkouts alternating."""
    best = [(0.0, 0.0) for _ in roots]
    for _ in range(rounds):
        for i, root in enumerate(roots):
            plain, traced = unseen_rate(path, "plain", root), unseen_rate(path, "trace", root)
            best[i] = (max(best[i][0], plain), max(best[i][1], traced))
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", type=Path, help="the checkout to compare this one with")
    parser.add_argument("--hands", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--rulesets", nargs="+", choices=sorted(RULESETS), default=sorted(RULESETS))
    args = parser.parse_args(argv)
    roots = [args.base.resolve(), ROOT]
    print(f"{args.base} -> {ROOT}: best of {args.rounds} alternating rounds, {args.hands} hands each, "
          f"hands/s per CPU-second on unseen records")
    print("| ruleset | referee h/s | with trace h/s | trace / no trace |")
    print("|---|---|---|---|")
    with tempfile.TemporaryDirectory() as work:
        for name in args.rulesets:
            (p0, t0), (p1, t1) = best_rates(corpus(name, args.hands, args.seed, Path(work)), roots, args.rounds)
            print(f"| {name} | {p0:,.0f} -> {p1:,.0f} ({p1 / p0 - 1:+.0%}) | {t0:,.0f} -> {t1:,.0f} "
                  f"({t1 / t0 - 1:+.0%}) | {p0 / t0:.2f}x -> {p1 / t1:.2f}x |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
