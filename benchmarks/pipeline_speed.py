"""Hands per second of the audit pipeline against the referee alone, and peak memory.

    python benchmarks/pipeline_speed.py --records 5000 --repeat 3
    python benchmarks/pipeline_speed.py --archive hands.tfrecord    # an archive you already have
    python benchmarks/pipeline_speed.py --rescore hb_room_multiplier=2   # also `mjref rescore`, same input

Measures, on one archive: the referee alone (verify_bytes over the frames in a loop, one core),
the pipeline in process (1 worker) and with 2 worker processes, each pipeline figure against
the referee alone per core, and the peak RSS of each pipeline run (its own process, and the
largest of its worker processes). Each pipeline run is a fresh child process so its memory
figure is its own. With --repeat each figure is the best of that many runs (a shared machine
is noisy). A pipeline's wall clock includes start-up and writing the Parquet tables, as a
user would see it (the manifest's wall_clock_seconds).

Beam's start-up does not grow with the archive (about 1.4 s in process, 1.5 s more to start
worker processes), so the same pipeline scales better on a larger archive. To show both, each
mode also audits the archive's first --startup-hands records, and the last lines give the ratio
of 2 workers to 1 as measured and past that start-up: (wall - wall of the small run) per mode.

Without --archive, N Hebei records are built from HandBuilder scripts (pipelines/synthetic.py:
long 荒庄 play-outs, self-drawn and discard wins, some tampered settlements) and kept in
$MJREF_BENCH_CACHE (default /tmp/mjref-bench), under a name that carries N, the seed and a
digest of the code that builds them (100,000 take about 80 s to build).

With --rescore KEY=VALUE (repeatable) the rescore (pipelines/rescore_job.py) runs beside the audit
in each mode, on the same archive. It judges each record twice (its own options, the overrides)
wherever an override changes one of its ruleset's values, so on an archive of that ruleset alone
the referee's share of its cost doubles.
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import resource
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from corpora import CACHE, digest  # noqa: E402
from referee import archive  # noqa: E402

MODES = {
    "pipeline, 1 worker (in process)": [],
    "pipeline, 2 worker processes": ["--direct_num_workers=2", "--direct_running_mode=multi_processing"],
}


def build_archive(path: pathlib.Path, n: int, seed: int) -> None:
    from pipelines.synthetic import payloads

    t0 = time.perf_counter()
    count = archive.write_archive(path, payloads(n, seed=seed))
    print(f"built {count:,} records in {time.perf_counter() - t0:.1f} s -> {path} "
          f"({path.stat().st_size / 1e6:.1f} MB)")


def cached_archive(n: int, seed: int) -> pathlib.Path:
    """The synthetic archive of n records, built once per version of the code that builds it."""
    root = pathlib.Path(__file__).resolve().parents[1]
    sources = [root / "pipelines" / "synthetic.py", root / "referee" / "builder.py", root / "referee" / "records.py"]
    path = CACHE / f"synthetic-seed{seed}-{n}-{digest(sources)}.tfrecord"
    if not path.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        build_archive(path, n, seed)  # write_archive renames into place: never a partial file
    return path


def head_archive(path: pathlib.Path, n: int, to: pathlib.Path) -> pathlib.Path:
    """The first n frames of an archive, for timing start-up."""
    frames = (item.payload for item in archive.iter_archive(path) if isinstance(item, archive.Frame))
    archive.write_archive(to, (p for _, p in zip(range(n), frames)))
    return to


def referee_alone(path: pathlib.Path, decisions: bool, repeat: int) -> tuple[int, float]:
    """Frames and the best time of `repeat` loops of verify_bytes over them."""
    from referee.verify import verify_bytes

    frames = [item.payload for item in archive.iter_archive(path) if isinstance(item, archive.Frame)]
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for payload in frames:
            verify_bytes(payload, None, decisions)
        best = min(best, time.perf_counter() - t0)
    return len(frames), best


def run_one(path: str, out: str, decisions: bool, rescore: list[str], beam_args: list[str]) -> None:
    """In a child process: one audit (or, with `rescore` options, one rescore); prints its manifest
    figures and this process's peak RSS."""
    if rescore:
        from pipelines.rescore_job import RescoreConfig, run_rescore
        from referee.options import to_dict

        manifest = run_rescore(RescoreConfig(inputs=[path], out=out, overrides=to_dict(rescore),
                                             beam_args=beam_args, progress_interval=3600))
    else:
        from pipelines.job import AuditConfig, run_audit

        manifest = run_audit(AuditConfig(inputs=[path], out=out, decisions=decisions, beam_args=beam_args,
                                         progress_interval=3600))
    print(json.dumps({
        "frames": manifest["records_in"]["frames"],
        "wall": manifest["wall_clock_seconds"],
        "reconciled": manifest["reconciliation"]["ok"],
        # ru_maxrss is in KiB on Linux; children = the largest worker process that has exited.
        "rss_self_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "rss_children_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
    }))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--records", type=int, default=5000, help="records to build when no --archive is given")
    ap.add_argument("--archive", help="audit this archive instead of building one")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--startup-hands", type=int, default=100,
                    help="records of the small run per mode that measures start-up (default 100)")
    ap.add_argument("--decisions", action="store_true", help="also trace decisions (the --decisions table)")
    ap.add_argument("--repeat", type=int, default=1, help="best of this many runs of each measurement")
    ap.add_argument("--rescore", action="append", default=[], metavar="KEY=VALUE",
                    help="also time `mjref rescore` under these options (repeatable)")
    ap.add_argument("--run-one", nargs=2, help=argparse.SUPPRESS)  # internal: PATH OUT, then Beam flags
    args, beam_args = ap.parse_known_args()
    if args.run_one is not None:
        run_one(*args.run_one, args.decisions, args.rescore, beam_args)
        return
    if beam_args:
        ap.error(f"unrecognized arguments: {' '.join(beam_args)}")

    work = pathlib.Path(tempfile.mkdtemp(prefix="mjref-bench-"))
    try:
        path = pathlib.Path(args.archive) if args.archive else cached_archive(args.records, args.seed)
        small = head_archive(path, args.startup_hands, work / "head.tfrecord")
        print(f"{os.cpu_count()} cores, Python {sys.version.split()[0]}, decisions={'on' if args.decisions else 'off'}")
        n, secs = referee_alone(path, args.decisions, args.repeat)
        base = n / secs
        print(f"{'referee alone (1 core)':<34}{n:>8,} hands {secs:8.2f} s {base:>9,.0f} hands/s")
        jobs = [("pipeline", [])] + ([("rescore", args.rescore)] if args.rescore else [])
        walls: dict[tuple[str, int], tuple[float, float]] = {}  # (job, workers) -> (wall, start-up wall)
        for (job, rescore), (mode, beam_args) in ((j, m) for j in jobs for m in MODES.items()):
            label = mode if job == "pipeline" else mode.replace("pipeline", "rescore")
            workers = 2 if beam_args else 1

            def best_run(archive_path: pathlib.Path) -> dict:
                runs = []
                for i in range(args.repeat):
                    out = work / f"out-{job}-{workers}-{i}"
                    cmd = [sys.executable, __file__, "--run-one", str(archive_path), str(out), *beam_args]
                    if args.decisions:
                        cmd.insert(2, "--decisions")
                    for option in rescore:
                        cmd[2:2] = ["--rescore", option]
                    proc = subprocess.run(cmd, capture_output=True, text=True)
                    if proc.returncode != 0:
                        sys.exit(f"{label} failed:\n{proc.stderr[-3000:]}")
                    runs.append(json.loads(proc.stdout.strip().splitlines()[-1]))
                    shutil.rmtree(out, ignore_errors=True)
                return min(runs, key=lambda run: run["wall"])

            r, startup = best_run(path), best_run(small)
            walls[job, workers] = r["wall"], startup["wall"]
            rate = r["frames"] / r["wall"]
            print(f"{label:<34}{r['frames']:>8,} hands {r['wall']:8.2f} s {rate:>9,.0f} hands/s  "
                  f"{rate / (base * workers):5.2f} of referee-alone per core  "
                  f"peak RSS {r['rss_self_mb']:,.0f} MB (+ worker {r['rss_children_mb']:,.0f} MB)  "
                  f"start-up ({startup['frames']:,} hands) {startup['wall']:.2f} s"
                  + ("" if r["reconciled"] and startup["reconciled"] else "  NOT RECONCILED"))
        for job, _ in jobs:
            (one, one_start), (two, two_start) = walls[job, 1], walls[job, 2]
            print(f"{job}: 2 workers vs 1 {one / two:.2f}x as measured, "
                  f"{(one - one_start) / max(two - two_start, 1e-9):.2f}x past start-up")
        # Figures are only comparable on an otherwise idle machine: say if it was not.
        print(f"load average over the last 1/5 min: {os.getloadavg()[0]:.2f} / {os.getloadavg()[1]:.2f} "
              f"(this benchmark alone keeps it near 1, or 2 during the 2-worker run)")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
