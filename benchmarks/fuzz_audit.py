"""The issue-8 acceptance run: a large mutated archive through `mjref audit`, 0 crashes, 0 lost records.

    python benchmarks/fuzz_audit.py --records 1000000 --workers 1 2 [--seed 1] [--bases 100] [--keep DIR]

Builds an archive of N fuzzed records with pipelines/fuzz.py, the code tests/test_fuzz.py runs:
self-play hands of both rulesets and every sample record, each written unchanged (10%), mutated
as a record (50%: fields, enum values, tiles, seats, sizes, events inserted, deleted, swapped,
duplicated, truncated, options, rulesets, claimed results), damaged as bytes under valid
checksums (35%), or replaced by random bytes (5%); with framing damage between frames (garbage,
broken checksums, cut frames, zero runs), duplicated frames and sometimes a truncated tail.
Generation is split into chunks of 10,000 records seeded by (seed, chunk), so the archive is
the same bytes for any --gen-procs.

Then `mjref audit` runs on it once per --workers value (the command line itself, in a
subprocess), and the run checks:
  * exit status 0 and the manifest reconciled (records in = verdict rows + error rows);
  * every intact frame written was read (manifest frames = frames written = a sequential scan);
  * every frame is exactly one row: games rows + decode/replay/write/referee_exception rows;
  * 0 referee_exception rows (no crash), and the runs agree on every count.
Figures (wall time, records/s, peak RSS, counts by status and stage) go to stdout and to
DIR/fuzz_audit.json.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pipelines import fuzz  # noqa: E402
from referee import archive, records  # noqa: E402

CHUNK = 10_000


def build_bases(per_ruleset: int, seed: int) -> list[bytes]:
    samples = [records.to_binary(records.read_record(p)) for d in ("hebei", "ningxiang")
               for p in sorted((ROOT / "samples" / d).glob("*.textproto"))]
    return fuzz.base_payloads(per_ruleset=per_ruleset, seed=seed, extra=samples)


_BASES: list[bytes] = []


def _init(bases: list[bytes]) -> None:
    _BASES[:] = bases


def _chunk(job: tuple[int, int, int, bool]) -> tuple[bytes, dict]:
    seed, index, n, last = job
    stats = fuzz.ArchiveStats()
    # Only the archive's end may have a truncated tail.
    data = b"".join(fuzz.fuzzed_archive(_BASES, n, seed * 1_000_003 + index, stats=stats, tail=last))
    return data, vars(stats)


def build_archive(path: pathlib.Path, bases: list[bytes], n: int, seed: int, procs: int) -> dict:
    jobs = [(seed, i, min(CHUNK, n - i * CHUNK), (i + 1) * CHUNK >= n) for i in range((n + CHUNK - 1) // CHUNK)]
    total = Counter()
    damage = Counter()
    with open(path, "wb") as out, multiprocessing.Pool(procs, _init, (bases,)) as pool:
        for data, stats in pool.imap(_chunk, jobs):
            out.write(data)
            damage.update(stats.pop("damage"))
            total.update(stats)
    return {**total, "damage": dict(damage)}


def scan_counts(path: pathlib.Path) -> dict:
    frames = spans = 0
    for item in archive.iter_archive(path):
        if type(item) is archive.Frame:
            frames += 1
        else:
            spans += 1
    return {"frames": frames, "spans": spans}


def run_audit(path: pathlib.Path, out: pathlib.Path, workers: int) -> dict:
    command = [sys.executable, "-m", "referee.cli", "audit", str(path), "--out", str(out)]
    if workers > 1:
        command += [f"--direct_num_workers={workers}", "--direct_running_mode=multi_processing"]
    t0 = time.perf_counter()
    # Output to files, not pipes: nobody reads a pipe while the run goes on, and a full one
    # (progress lines from every worker) would block the audit.
    log_out, log_err = out.with_name(out.name + ".stdout.log"), out.with_name(out.name + ".stderr.log")
    with open(log_out, "w") as fo, open(log_err, "w") as fe:
        proc = subprocess.Popen(command, cwd=ROOT, stdout=fo, stderr=fe, text=True)
        peak = _watch_rss(proc)
    wall = time.perf_counter() - t0
    stdout, stderr = log_out.read_text(), log_err.read_text()
    manifest = json.loads((out / "manifest.json").read_text()) if (out / "manifest.json").exists() else None
    return {"workers": workers, "exit": proc.returncode, "wall_seconds": round(wall, 1), "stdout": stdout,
            "stderr_tail": stderr[-3000:], "manifest": manifest, "peak_rss_mb": peak}


def _memory_tree(pid: int) -> dict[str, float]:
    """MB of pid and its descendants, from /proc: the largest RSS, and the largest and total
    anonymous RSS. The reader memory-maps the archive, so RSS also counts the archive's pages it
    has read (clean file pages the kernel can drop); RssAnon is the memory the audit allocated."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as fh:
                    ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    rss, anon, todo = [], [], [pid]
    while todo:
        p = todo.pop()
        todo += children.get(p, [])
        try:
            with open(f"/proc/{p}/status") as fh:
                status = dict(line.split(":", 1) for line in fh if ":" in line)
        except OSError:
            continue
        rss.append(int(status.get("VmRSS", "0 kB").split()[0]) / 1024)
        anon.append(int(status.get("RssAnon", "0 kB").split()[0]) / 1024)
    return {"largest_rss": max(rss, default=0.0), "largest_anon": max(anon, default=0.0),
            "all_anon": sum(anon)}


def _watch_rss(proc: subprocess.Popen) -> dict:
    peak: dict[str, float] = {}
    while proc.poll() is None:
        for key, value in _memory_tree(proc.pid).items():
            peak[key] = max(peak.get(key, 0.0), value)
        time.sleep(1.0)
    return {key: round(value) for key, value in peak.items()}


def check(run: dict, written: dict, scanned: dict) -> list[str]:
    problems = []
    m = run["manifest"]
    if run["exit"] != 0:
        problems.append(f"exit status {run['exit']}")
    if m is None:
        return problems + ["no manifest"]
    if not m["reconciliation"]["ok"]:
        problems.append("not reconciled: " + "; ".join(m["reconciliation"]["problems"]))
    frames = m["records_in"]["frames"]
    if frames != written["frames"] or frames != scanned["frames"]:
        problems.append(f"frames: manifest {frames:,}, written {written['frames']:,}, scanned {scanned['frames']:,}")
    if m["records_in"]["corrupt_spans"] != scanned["spans"]:
        problems.append(f"spans: manifest {m['records_in']['corrupt_spans']:,}, scanned {scanned['spans']:,}")
    by_stage = m["errors"]["by_stage"]
    judged = m["verdicts"]["total"] + sum(n for stage, n in by_stage.items() if stage != "framing")
    if judged != frames:
        problems.append(f"{frames:,} frames but {judged:,} games + non-framing error rows")
    if by_stage.get("referee_exception"):
        problems.append(f"{by_stage['referee_exception']:,} referee_exception rows (crashes)")
    return problems


def counts(m: dict) -> dict:
    return {"records_in": m["records_in"], "verdicts": m["verdicts"], "errors": m["errors"]["by_stage"],
            "violations": m["violations"]["total"], "tables": {k: v["rows_written"] for k, v in m["tables"].items()}}


def write_reasons(out: pathlib.Path, top: int = 8) -> list[tuple[str, int]]:
    """The most common reasons of `write` error rows, numbers masked so that alike ones group."""
    import pyarrow.compute as pc

    from pipelines.tables import read_table

    errors = read_table(str(out), "errors")
    if not errors.num_rows:
        return []
    write = errors.filter(pc.equal(errors.column("stage"), "write")).column("reason").to_pylist()
    return Counter(re.sub(r"-?\d[\d,]*", "N", r)[:100] for r in write).most_common(top)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bases", type=int, default=100, help="self-play hands per ruleset to mutate")
    parser.add_argument("--gen-procs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--keep", default=None, metavar="DIR", help="work directory (default: a new temporary one)")
    args = parser.parse_args()
    work = pathlib.Path(args.keep) if args.keep else pathlib.Path(tempfile.mkdtemp(prefix="mjref-fuzz-audit-"))
    work.mkdir(parents=True, exist_ok=True)
    path = work / "fuzzed.tfrecord"
    report: dict = {"records": args.records, "seed": args.seed, "bases_per_ruleset": args.bases}

    t0 = time.perf_counter()
    bases = build_bases(args.bases, args.seed)
    report["bases"] = len(bases)
    t1 = time.perf_counter()
    written = build_archive(path, bases, args.records, args.seed, args.gen_procs)
    t2 = time.perf_counter()
    scanned = scan_counts(path)
    report.update(written=written, scanned=scanned, archive_bytes=path.stat().st_size,
                  seconds={"bases": round(t1 - t0, 1), "archive": round(t2 - t1, 1)})
    print(f"{len(bases)} base records in {t1 - t0:.0f} s; archive of {written['frames']:,} intact frames "
          f"({path.stat().st_size / 1e6:,.0f} MB) in {t2 - t1:.0f} s with {args.gen_procs} processes")
    print(f"  payloads: {written.get('unmutated', 0):,} unchanged, {written.get('record_mutations', 0):,} mutated "
          f"records, {written.get('byte_mutations', 0):,} byte-damaged, {written.get('random_payloads', 0):,} random")
    print(f"  framing damage: {json.dumps(written['damage'])}; sequential scan: {scanned['frames']:,} frames, "
          f"{scanned['spans']:,} corrupt spans", flush=True)

    runs, failed = [], False
    for workers in args.workers:
        out = work / f"out-{workers}w"
        shutil.rmtree(out, ignore_errors=True)
        run = run_audit(path, out, workers)
        problems = check(run, written, scanned)
        failed |= bool(problems)
        m = run["manifest"]
        rate = m["records_in"]["total"] / run["wall_seconds"] if m else 0
        mem = run["peak_rss_mb"]
        print(f"\n== mjref audit, {workers} worker(s): exit {run['exit']}, {run['wall_seconds']:,.0f} s wall "
              f"({rate:,.0f} records/s end to end); peak memory: RSS {mem.get('largest_rss', 0)} MB of the "
              f"largest process (with the archive pages it mapped), anonymous {mem.get('largest_anon', 0)} MB "
              f"largest process, {mem.get('all_anon', 0)} MB all processes")
        print(run["stdout"].rstrip())
        if m:
            print("  write error reasons: " + json.dumps(write_reasons(out), ensure_ascii=False))
        print("  checks: " + ("all hold" if not problems else "FAILED: " + "; ".join(problems)), flush=True)
        if problems:
            print(run["stderr_tail"])
        runs.append({k: v for k, v in run.items() if k not in ("stdout", "manifest")}
                    | {"counts": counts(m) if m else None, "problems": problems,
                       "hands_per_second_manifest": m and m["hands_per_second"]})
    if len(runs) > 1 and len({json.dumps(r["counts"], sort_keys=True) for r in runs}) != 1:
        print("RUNS DISAGREE on the counts")
        failed = True
    report["runs"] = runs
    (work / "fuzz_audit.json").write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    print(f"\nreport: {work / 'fuzz_audit.json'}; the archive and the tables stay in {work} (remove it when done)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
