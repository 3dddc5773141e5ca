"""Issue 13's speed targets: the dispute view of one hand under 0.5 s, the report of a
100,000-record audit under 10 s.

    python benchmarks/view_speed.py [--records 100000] [--real]

1. The view: every sample record through `hand_page` (timeline + page) in process, and the
   longest sample end to end through `mjref view` in a fresh Python (start-up included).
2. The report: audit tables of N records, then `write_report` on them (the default 25 dispute
   views included). By default the tables are the real audit of samples/archives (every code,
   both rulesets, real payments and error rows) tiled to N records (each copy names its own
   archive, a symlink to the sample archive, offsets unchanged) with the manifest's counts
   scaled to match, so the report reconciles. With --real, N generated Hebei hands (pipelines/synthetic.py) are audited by
   `mjref audit` first (about a minute per 100,000 on one core).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import pathlib
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pyarrow as pa  # noqa: E402
import pyarrow.compute as pc  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

from pipelines import report as R  # noqa: E402
from referee import records  # noqa: E402
from referee.render.command import hand_page  # noqa: E402

SAMPLES = ROOT / "samples"
ARCHIVE = SAMPLES / "archives" / "samples.tfrecord"


def bench_view() -> None:
    paths = sorted(p for p in SAMPLES.rglob("*.textproto") if "malformed" not in p.parts)
    timings = []
    for path in paths:
        record = records.read_record(path)
        best = math.inf
        for _ in range(3):
            t0 = time.perf_counter()
            _, page = hand_page(str(path), record)
            best = min(best, time.perf_counter() - t0)
        timings.append((best, len(record.events), len(page), path))
    timings.sort(key=lambda t: -t[0])
    slowest = timings[0]
    print(f"view, in process (timeline + page, best of 3) over {len(paths)} samples: median "
          f"{statistics.median(t for t, *_ in timings) * 1000:.0f} ms, slowest {slowest[0] * 1000:.0f} ms "
          f"({slowest[3].relative_to(ROOT)}, {slowest[1]} events, {slowest[2] / 1000:.0f} kB)")
    longest = max(timings, key=lambda t: t[1])[3]
    with tempfile.TemporaryDirectory() as tmp:
        out = f"{tmp}/v.html"
        command = [sys.executable, "-m", "referee.cli", "view", str(longest), "--out", out]
        subprocess.run(command, cwd=ROOT, capture_output=True)
        how = "`mjref view`"
        if not pathlib.Path(out).exists():  # `view` is not wired into referee/cli.py yet: our own parser
            code = ("import argparse,sys;from referee.render.command import add_view_command as a;"
                    "p=argparse.ArgumentParser();a(p.add_subparsers());x=p.parse_args(sys.argv[1:]);x.func(x)")
            command = [sys.executable, "-c", code, "view", str(longest), "--out", out]
            how = "the view command"
        # Bytecode is cached as in an installed package (this environment may turn that off).
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        subprocess.run(command, cwd=ROOT, check=True, capture_output=True, env=env)  # warm the caches
        runs = []
        for _ in range(3):
            cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            subprocess.run(command, cwd=ROOT, check=True, capture_output=True, env=env)
            wall = time.perf_counter() - t0
            cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            runs.append((wall, cpu1.ru_utime + cpu1.ru_stime - cpu0.ru_utime - cpu0.ru_stime))
    wall, cpu = min(runs)
    print(f"view, {how} end to end in a fresh Python (imports included, best of 3): {wall * 1000:.0f} ms wall, "
          f"{cpu * 1000:.0f} ms CPU, for {longest.relative_to(ROOT)}")


# -- the report ------------------------------------------------------------------------------------
def audit(inputs: list[str], out: pathlib.Path) -> None:
    done = subprocess.run([sys.executable, "-m", "referee.cli", "audit", *inputs, "--out", str(out)], cwd=ROOT,
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"the audit failed: {done.stderr[-2000:]}")


def _scale(obj, factor: int):
    if isinstance(obj, bool):
        return obj
    if isinstance(obj, int):
        return obj * factor
    if isinstance(obj, dict):
        return {k: _scale(v, factor) for k, v in obj.items()}
    return obj


def tile(src: pathlib.Path, dst: pathlib.Path, records_wanted: int, archives: pathlib.Path) -> int:
    """dst: src's tables repeated until they hold at least records_wanted games rows; returns the
    number of copies. Copy k's records name the archive archives/copyK.tfrecord (a symlink to the
    sample archive, so every record's view can be read back) and their game ids end in -K."""
    games = R.read_table(src, "games", None)
    copies = max(1, math.ceil(records_wanted / games.num_rows))
    archives.mkdir(parents=True, exist_ok=True)
    for k in range(1, copies):
        (archives / f"copy{k:05d}.tfrecord").symlink_to(ARCHIVE.resolve())
    for name in R.TABLE_NAMES:
        files = sorted((src / name).glob("*.parquet"))
        if not files:
            continue
        table = pa.concat_tables([pq.read_table(f) for f in files])
        source_col = "file" if name == "errors" else "source"
        parts = []
        for k in range(copies):
            if k == 0:
                parts.append(table)
                continue
            copy = str(archives / f"copy{k:05d}.tfrecord")
            t = table.set_column(table.schema.get_field_index(source_col), table.schema.field(source_col),
                                 pc.replace_substring(table[source_col], str(ARCHIVE.resolve()), copy))
            if "game_id" in t.column_names:
                ids = pc.if_else(pc.is_null(t["game_id"]), t["game_id"],
                                 pc.binary_join_element_wise(t["game_id"], pa.scalar(f"-{k}"), ""))
                t = t.set_column(t.schema.get_field_index("game_id"), t.schema.field("game_id"), ids)
            parts.append(t.cast(table.schema))
        (dst / name).mkdir(parents=True, exist_ok=True)
        pq.write_table(pa.concat_tables(parts), dst / name / "part-00000-of-00001.parquet",
                       compression="zstd", row_group_size=65_536)
    manifest = json.loads((src / "manifest.json").read_text())
    for key in ("records_in", "corrupt", "verdicts", "violations", "errors", "tables", "frame_bytes"):
        manifest[key] = _scale(manifest[key], copies)
    for info in manifest["tables"].values():
        info["files"] = 1
    manifest["out"] = str(dst)
    rec = manifest["reconciliation"]
    for key in ("records_in", "verdict_rows", "error_rows"):
        rec[key] *= copies
    (dst / "manifest.json").write_text(json.dumps(manifest, sort_keys=True))
    return copies


def bench_report(n: int, real: bool) -> None:
    with tempfile.TemporaryDirectory(prefix="mjref-report-") as tmp:
        work = pathlib.Path(tmp)
        out = work / "audit"
        t0 = time.perf_counter()
        if real:
            from pipelines.synthetic import corrupt_archive, payloads

            corrupt_archive(work / "hands.tfrecord", list(payloads(n, seed=1)))
            audit([str(work / "hands.tfrecord")], out)
            how = f"a real `mjref audit` of {n:,} generated Hebei hands with damage"
        else:
            audit([str(ARCHIVE)], work / "samples")
            copies = tile(work / "samples", out, n, work / "archives")
            how = f"the sample archive's audit tiled {copies:,} times"
        games = pq.ParquetFile(next((out / "games").glob("*.parquet"))).metadata.num_rows
        rows = {name: R.footer_rows(out, name) for name in R.TABLE_NAMES}
        print(f"report input: {how} ({time.perf_counter() - t0:.0f} s to make): "
              + ", ".join(f"{k} {v:,}" for k, v in rows.items() if v is not None))
        timings = []
        for _ in range(3):
            t0 = time.perf_counter()
            path, ok = R.write_report(out)
            timings.append(time.perf_counter() - t0)
        views = len(list((out / "views").glob("*.html")))
        t0 = time.perf_counter()
        R.write_report(out, views=0)
        no_views = time.perf_counter() - t0
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"report of {games:,} verdict rows: {min(timings):.2f} s best of 3 (runs "
              + ", ".join(f"{t:.2f}" for t in timings) + f"), {views} dispute views included; "
              f"{no_views:.2f} s without views; report.html {path.stat().st_size / 1000:,.0f} kB; "
              f"reconciled: {ok}; peak RSS of this process {rss:,.0f} MB")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--real", action="store_true", help="audit generated hands instead of tiling the samples")
    parser.add_argument("--skip-view", action="store_true")
    args = parser.parse_args()
    if not args.skip_view:
        bench_view()
    bench_report(args.records, args.real)
    with open("/proc/loadavg") as fh:
        print(f"load average: {fh.read().split()[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
