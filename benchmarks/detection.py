"""Detection report: how well the referee finds faults injected into simulated hands.

For every supported ruleset: N clean simulated hands (any error-severity violation on them is
a false positive), then each fault kind injected into each of the same N hands (a hand with
no place for the kind is skipped). Per violation code the table gives:

  injected   records labelled with the code
  detected   of those, the records where the referee reports the code
  recall     detected / injected
  precision  of all records (clean and faulty) where the code is reported, the share labelled with it
  located    detected records where the code is reported at the labelled event (or on the record)
  exact      detected records where it is the only error reported
  skipped    hands the kind found no place in
  clean FP   clean hands reporting the code

Targets: 100% recall, 100% precision, no false positives. Misses (MISS), faulty records with
another error as well (EXTRA) and kinds that raised (CRASH) are listed, three per kind.

    python benchmarks/detection.py --hands 200 --seed 1        # about a minute on 2 cores
    python benchmarks/detection.py --hands 10000 --seed 1      # the full run (see docs/SIMULATE.md)
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from referee import records  # noqa: E402
from referee.faults import FAULT_KINDS, SKIPPED_CODES, Analysis, fault_rng, inject_one  # noqa: E402
from referee.rules import RULESETS, get_ruleset  # noqa: E402
from referee.simulate import simulate_hand  # noqa: E402
from referee.verify import verify_bytes  # noqa: E402


@dataclass
class Outcome:
    """What the referee said about one record."""
    kind: str | None  # the injected kind; None for the clean hand
    game_id: str
    codes: tuple[str, ...]  # error codes reported
    located: bool = False


def errors_of(data: bytes) -> list:
    verdict = verify_bytes(data)
    if verdict.status == "unreplayable":
        return [("UNREPLAYABLE", None)]
    return [(v.code, v.event_index) for v in verdict.errors]


def judge_hand(job: tuple[str, int, int]) -> list[Outcome | tuple[str, str]]:
    """Simulate hand `index`, judge it clean, then inject and judge every kind (one worker's unit)."""
    ruleset, seed, index = job
    rules = get_ruleset(ruleset)
    record, _ = simulate_hand(rules, {}, seed, index)
    clean = records.to_binary(record)
    found = errors_of(clean)
    results: list = [Outcome(None, record.game_id, tuple(c for c, _ in found))]
    analysis = Analysis(record, rules)
    for name, kind in FAULT_KINDS.items():
        try:
            faulty = inject_one(kind, record, rules, fault_rng(name, seed, index), analysis)
        except Exception as err:  # a bug in a kind: count it and go on with the run
            results.append(("crashed", name, f"{record.game_id}: {type(err).__name__}: {err}"))
            continue
        if faulty is None:
            results.append(("skipped", name))
            continue
        found = errors_of(records.to_binary(faulty))
        label = faulty.fault
        at = None if label.event_index < 0 else label.event_index
        results.append(Outcome(name, record.game_id, tuple(c for c, _ in found),
                               any(c == label.expected_code and i == at for c, i in found)))
    return results


@dataclass
class Row:
    injected: int = 0
    detected: int = 0
    located: int = 0
    exact: int = 0
    skipped: int = 0
    reported: int = 0  # records of any kind (or clean) where the code is reported
    reported_right: int = 0
    clean_fp: int = 0
    crashed: int = 0  # the kind raised instead of injecting or skipping
    notes: list = field(default_factory=list)  # misses, extra codes, crashes: one line each


def report(ruleset: str, hands: int, results: list, elapsed: float) -> bool:
    """Print the table for one ruleset; True when every target is met."""
    rows: dict[str, Row] = defaultdict(Row)
    code_of = {k.name: k.code for k in FAULT_KINDS.values()}
    clean_bad = Counter()
    for item in results:
        if isinstance(item, tuple):
            row = rows[code_of[item[1]]]
            if item[0] == "crashed":
                row.crashed += 1
                row.notes.append(f"CRASH {item[2]}")
            else:
                row.skipped += 1
            continue
        expected = code_of.get(item.kind) if item.kind else None
        for code in set(item.codes):
            rows[code].reported += 1
            rows[code].reported_right += code == expected
            if expected is None:
                rows[code].clean_fp += 1
                clean_bad[code] += 1
        if expected is None:
            continue
        row = rows[expected]
        row.injected += 1
        if expected in item.codes:
            row.detected += 1
            row.located += item.located
            row.exact += set(item.codes) == {expected}
            if set(item.codes) != {expected}:
                row.notes.append(f"EXTRA {item.game_id}: also reported {sorted(set(item.codes) - {expected})}")
        else:
            row.notes.append(f"MISS {item.game_id}: reported {list(item.codes) or 'nothing'}")
    print(f"\n== {ruleset}: {hands} clean hands, each fault kind injected into each ({elapsed:.0f} s)")
    header = f"{'code':<26}{'kind':<26}{'injected':>9}{'detected':>9}{'recall':>8}{'precision':>10}" \
             f"{'located':>8}{'exact':>7}{'skipped':>8}{'clean FP':>9}"
    print(header)
    print("-" * len(header))
    ok = True
    for kind in FAULT_KINDS.values():
        row = rows[kind.code]
        recall = row.detected / row.injected if row.injected else float("nan")
        precision = row.reported_right / row.reported if row.reported else float("nan")
        ok &= row.detected == row.injected and row.reported_right == row.reported and not row.clean_fp \
            and not row.crashed
        print(f"{kind.code:<26}{kind.name:<26}{row.injected:>9}{row.detected:>9}{recall:>8.2%}{precision:>10.2%}"
              f"{row.located:>8}{row.exact:>7}{row.skipped:>8}{row.clean_fp:>9}")
    unlabelled = sorted(set(rows) - {k.code for k in FAULT_KINDS.values()})
    for code in unlabelled:  # reported, but no kind injects it
        row = rows[code]
        print(f"{code:<26}{'(no kind)':<26}{0:>9}{0:>9}{'':>8}{0.0:>10.2%}{'':>8}{'':>7}{'':>8}{row.clean_fp:>9}")
        ok = False
    clean_total = sum(1 for item in results if isinstance(item, Outcome) and item.kind is None and item.codes)
    print(f"clean hands with any error (false positives): {clean_total} of {hands}"
          + (f" {dict(clean_bad)}" if clean_bad else ""))
    for code, why in SKIPPED_CODES.items():
        print(f"not injected: {code}: {why}")
    for kind in FAULT_KINDS.values():
        row = rows[kind.code]
        for note in row.notes[:3]:
            print(f"{kind.code} ({kind.name}): {note}")
        if row.crashed:
            print(f"CRASHED {kind.code} ({kind.name}): {row.crashed} records")
    print("targets (100% recall, 100% precision, 0 false positives):", "met" if ok else "NOT met")
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200, help="clean hands per ruleset (default 200)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    parser.add_argument("--ruleset", action="append", choices=sorted(RULESETS),
                        help="only these rulesets (default: every supported one)")
    args = parser.parse_args(argv)
    all_ok = True
    for ruleset in args.ruleset or sorted(RULESETS):
        start = time.perf_counter()
        jobs = [(ruleset, args.seed, i) for i in range(args.hands)]
        results: list = []
        if args.jobs > 1:
            with multiprocessing.Pool(args.jobs) as pool:
                for part in pool.imap(judge_hand, jobs, chunksize=8):
                    results.extend(part)
        else:
            for job in jobs:
                results.extend(judge_hand(job))
        all_ok &= report(ruleset, args.hands, results, time.perf_counter() - start)
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
