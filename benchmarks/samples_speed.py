"""How fast `mjref verify` judges the bundled samples: the whole command, and the referee alone.

    python benchmarks/samples_speed.py [--repeat 20]
"""
import argparse
import pathlib
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee import records  # noqa: E402
from referee.verify import verify_record  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    paths = sorted(p for d in ("hebei", "ningxiang", "guangdong_tdh")
                   for p in (ROOT / "samples" / d).glob("*.textproto"))
    loaded = [records.read_record(p) for p in paths]
    events = sum(len(r.events) for r in loaded)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "referee.cli", "verify", *map(str, paths)], cwd=ROOT,
                   stdout=subprocess.DEVNULL, check=False)
    command = time.perf_counter() - start
    print(f"mjref verify on {len(paths)} sample records ({events} events): {command:.2f} s wall, start-up included")
    best = float("inf")
    for _ in range(args.repeat):
        start = time.process_time()
        for record in loaded:
            verify_record(record)
        best = min(best, time.process_time() - start)
    print(f"referee alone on the samples: {len(loaded) / best:,.0f} records/s, {events / best:,.0f} events/s "
          f"(CPU time, best of {args.repeat})")


if __name__ == "__main__":
    main()
