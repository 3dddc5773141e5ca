"""The issue-4 acceptance run: audit a large generated archive with injected corruption and
check that nothing is lost.

    python benchmarks/big_audit.py --records 100000 [--workers 2]

Builds N Hebei records (pipelines/synthetic.py) into one archive with damage of every kind the
reader must survive (a smashed byte, garbage between frames, an undecodable payload, an
unknown ruleset, a truncated tail), runs `mjref audit` on it, and checks the manifest: records
in = verdict rows + error rows, every corrupt span in `errors`, every whole record in `games`.
"""
import argparse
import json
import pathlib
import resource
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pipelines.synthetic import corrupt_archive, payloads  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    work = pathlib.Path(tempfile.mkdtemp(prefix="mjref-big-audit-"))
    archive_path = work / "hands.tfrecord"
    t0 = time.perf_counter()
    damage = corrupt_archive(archive_path, list(payloads(args.records, seed=1)))
    print(f"built {args.records:,} records + damage in {time.perf_counter() - t0:.0f} s: {damage}")
    command = [sys.executable, "-m", "referee.cli", "audit", str(archive_path), "--out", str(work / "out")]
    if args.workers > 1:
        command += [f"--direct_num_workers={args.workers}", "--direct_running_mode=multi_processing"]
    t0 = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    print(done.stdout[-2500:])
    manifest = json.loads((work / "out" / "manifest.json").read_text())
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    records_in = manifest["records_in"]
    print(f"exit {done.returncode}; {wall:.0f} s wall; {args.records / wall:,.0f} hands/s end to end; "
          f"peak RSS of the largest process {rss:.0f} MB")
    print(f"records in: {json.dumps(records_in)}; reconciled: {manifest['reconciliation']['ok']}")
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
