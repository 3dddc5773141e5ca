"""Referee rates on records the timing process has never judged.

Some memos outlive a hand: the shape tables' per-suit entries (which real archives reuse too) and
哈尔滨/大连's winning-tile memo, keyed by a whole hand. A second pass over the same records, or a
pass in the process that simulated them, looks those hands up instead of judging them: it
flattered 哈尔滨 by 12% (20% with the trace). So each figure here comes from fresh processes:
one judges half of the archive to warm up, then times the other half; a second does the same
with the halves swapped. Rates are per CPU-second of the timing process.

    python benchmarks/unseen.py ARCHIVE [--mode plain|trace|floor] [--cold]
"""
from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODES = ("floor", "plain", "trace")

_HALF = """
import sys, time
sys.path.insert(0, {root!r})
from referee import archive, records
from referee.verify import verify_bytes

def walk(data):  # the floor: decode a record and touch every event
    for event in records.parse_binary(data).events:
        event.WhichOneof("kind")

judge = {{"floor": walk, "plain": verify_bytes, "trace": lambda d: verify_bytes(d, trace=True)}}[{mode!r}]
data = [f.payload for f in archive.iter_archive({path!r}) if isinstance(f, archive.Frame)]
half = len(data) // 2
timed, other = (data[:half], data[half:]) if {first!r} else (data[half:], data[:half])
for d in other if {warm!r} else ():
    judge(d)
start = time.process_time()
for d in timed:
    judge(d)
print(len(timed), time.process_time() - start)
"""


def half_seconds(path: Path, mode: str, first: bool, warm: bool, root: Path = ROOT) -> tuple[int, float]:
    """(records timed, CPU seconds) for one half of the archive in a fresh process; with `warm`,
    after judging the other half."""
    script = _HALF.format(root=str(root), path=str(path), mode=mode, first=first, warm=warm)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    count, seconds = out.split()
    return int(count), float(seconds)


def unseen_halves(path: Path, mode: str = "plain", root: Path = ROOT) -> list[tuple[int, float]]:
    """Both halves of the archive, each timed in a warm process that never saw it (mode: floor,
    plain or trace): half_seconds of each."""
    return [half_seconds(path, mode, first, True, root) for first in (True, False)]


def per_second(runs: list[tuple[int, float]]) -> float:
    """Records per CPU-second over these (records, seconds) runs."""
    return sum(n for n, _ in runs) / sum(s for _, s in runs)


def unseen_rate(path: Path, mode: str = "plain", root: Path = ROOT) -> float:
    """Records per CPU-second over the whole archive, on unseen records (unseen_halves)."""
    return per_second(unseen_halves(path, mode, root))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("archive", type=Path)
    parser.add_argument("--mode", choices=MODES, default="plain")
    parser.add_argument("--cold", action="store_true", help="the first half in a fresh process, no warm-up")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose referee to time")
    args = parser.parse_args()
    if args.cold:
        n, seconds = half_seconds(args.archive, args.mode, True, False, args.root)
        print(f"{n / seconds:.0f} hands/s ({args.mode}, cold, first half)")
    else:
        print(f"{unseen_rate(args.archive, args.mode, args.root):.0f} hands/s ({args.mode}, unseen halves)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
