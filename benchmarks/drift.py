"""Refactor without drift: the verdict of every record of some archives, as one JSON line each,
saved before a change and compared after it.

    python benchmarks/drift.py ARCHIVE... --save before.jsonl [--trace]
    python benchmarks/drift.py ARCHIVE... --compare before.jsonl [--trace]

Each line is the record's source position and `mjref verify --json` object (with the decision
trace under --trace). --compare prints the first differences and exits 1 if any line differs.
Build the archives once (e.g. `mjref simulate`, then `mjref inject` per fault kind) and keep
them, so that a change to the simulator does not change what is compared.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee import archive  # noqa: E402
from referee.verify import verify_bytes  # noqa: E402

TRACE = False


def judge(item) -> str:
    source, payload = item
    verdict = verify_bytes(payload, trace=TRACE)
    row = {"source": source, **verdict.to_json()}
    if TRACE:
        row["decisions"] = [d._asdict() for d in verdict.decisions]
    return json.dumps(row, ensure_ascii=False, sort_keys=True)


def items(paths: list[str]):
    for path in paths:
        for frame in archive.iter_archive(path):
            if isinstance(frame, archive.CorruptSpan):
                continue
            yield f"{pathlib.Path(path).name}@{frame.offset}", frame.payload


def init(trace: bool) -> None:
    global TRACE
    TRACE = trace


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("archives", nargs="+")
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--save")
    group.add_argument("--compare")
    parser.add_argument("--trace", action="store_true", help="include every decision point")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    with multiprocessing.Pool(args.workers, initializer=init, initargs=(args.trace,)) as pool:
        lines = pool.map(judge, items(args.archives), chunksize=64)
    if args.save:
        pathlib.Path(args.save).write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"saved {len(lines)} verdicts to {args.save}")
        return 0
    before = pathlib.Path(args.compare).read_text(encoding="utf-8").splitlines()
    differ = [(a, b) for a, b in zip(before, lines) if a != b]
    if len(before) != len(lines):
        print(f"{len(before)} verdicts before, {len(lines)} now")
    for a, b in differ[:5]:
        print(f"- {a}\n+ {b}\n")
    print(f"{len(lines)} verdicts compared: {len(differ)} differ")
    return 1 if differ or len(before) != len(lines) else 0


if __name__ == "__main__":
    sys.exit(main())
