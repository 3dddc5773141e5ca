"""Whole simulated matches against the match checks, and every match fault kind against them.

    python benchmarks/match_checks.py --matches 1000 --hands-per-match 4 --seed 1 [--ruleset NAME ...]

For each ruleset: simulate the matches (with offered actions), judge every record, check every
match (referee/match.py, what `mjref verify` and the audit run) and count what is found; then
inject each match fault kind into every match and count the matches where exactly the labelled
finding is found. Clean matches must show no finding and equal totals; every faulted match must
be caught. Prints one line per ruleset and exits 1 if anything is off.
"""
from __future__ import annotations

import argparse
import multiprocessing
import pathlib
import sys
import time
from collections import Counter

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.match import check_match, hand_of  # noqa: E402
from referee.match_faults import MATCH_FAULT_KINDS, inject_match, match_rng  # noqa: E402
from referee.rules import RULESETS, get_ruleset  # noqa: E402
from referee.simulate import simulate_match  # noqa: E402
from referee.verdict import ERROR  # noqa: E402
from referee.verify import verify_record  # noqa: E402


def findings(match) -> tuple[list, object]:
    """The record-level errors and the MatchResult of one match's records."""
    verdicts = [verify_record(r) for r in match]
    errors = [v.code for verdict in verdicts for v in verdict.violations if v.severity == ERROR]
    return errors, check_match([hand_of(r, v, r.game_id) for r, v in zip(match, verdicts)])


def one_match(job) -> dict:
    ruleset, seed, number, hands = job
    match = simulate_match(get_ruleset(ruleset), {}, seed, number, hands, offers=True)
    errors, result = findings(match)
    out = {"clean": not errors and not result.findings and result.claimed_totals == result.recomputed_totals,
           "hands": len(match), "caught": Counter(), "placed": Counter()}
    for kind in MATCH_FAULT_KINDS.values():
        faulty = inject_match(kind, match, match_rng(kind.name, seed, match[0].match_id))
        if faulty is None:
            continue
        out["placed"][kind.name] += 1
        labelled = {r.game_id for r in faulty if r.HasField("fault")}
        errors, result = findings(faulty)
        found = [(f.code, faulty[f.carrier].game_id) for f in result.findings if f.severity == ERROR]
        if not errors and [code for code, _ in found] == [kind.code] and {g for _, g in found} == labelled:
            out["caught"][kind.name] += 1
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--hands-per-match", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ruleset", action="append", choices=sorted(RULESETS))
    parser.add_argument("--jobs", type=int, default=multiprocessing.cpu_count())
    args = parser.parse_args()
    ok = True
    with multiprocessing.Pool(args.jobs) as pool:
        for ruleset in args.ruleset or sorted(RULESETS):
            start = time.perf_counter()
            jobs = [(ruleset, args.seed, n, args.hands_per_match) for n in range(args.matches)]
            results = pool.map(one_match, jobs, chunksize=4)
            clean = sum(r["clean"] for r in results)
            placed = sum((r["placed"] for r in results), Counter())
            caught = sum((r["caught"] for r in results), Counter())
            faults = ", ".join(f"{k} {caught[k]}/{placed[k]}" for k in sorted(MATCH_FAULT_KINDS))
            print(f"{ruleset:<15} {clean}/{len(results)} matches clean ({sum(r['hands'] for r in results):,} hands); "
                  f"faults caught exactly: {faults}; {time.perf_counter() - start:.0f} s", flush=True)
            ok &= clean == len(results) and caught == placed and sum(placed.values()) > 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
