"""Counting from the data itself, the manifest, the reconciliation check and the summary table.

Each branch of the pipeline turns its elements into facts (group, key, amount): the reader's
outputs one per frame or span, each table one per Table batch on its way to the Parquet writer.
One combiner sums them all (lifted per bundle, so cheap), and the single result is written as
a small JSON file the driver reads back. Metrics counters are not used for this: they are observability
only and, on the local runner, arrive when a stage ends.

The run is reconciled when records in (frames + corrupt spans, counted as the reader emits
them) equal verdict rows + error rows (counted as they go to the writers), and every table
holds, by its Parquet footers, as many rows as were counted for it.
"""
from __future__ import annotations

import json
import platform

import apache_beam as beam
import pyarrow as pa
import pyarrow.compute as pc

from pipelines.schemas import STAGES, TABLE_VERSION
from referee import REFEREE_VERSION, SCHEMA_VERSION

# 2: inputs.files[].records_in, inputs.empty, errors.by_stage.write.
# 3: matches (by status, totals mismatches, match violations by code).
MANIFEST_VERSION = 3


# -- facts -----------------------------------------------------------------------------------
def frame_facts(frame):
    yield ("in", "frames", 1)
    yield ("in", "frame_bytes", frame[2])
    yield ("file_in", frame[0], 1)


def span_facts(row):
    yield ("in", "corrupt_spans", 1)
    yield ("in", "corrupt_bytes", row["length"])
    yield ("file_in", row["file"], 1)


def _value_counts(table: pa.Table, column: str):
    for item in table.column(column).value_counts().to_pylist():
        yield item["values"], item["counts"]


def table_facts(table: pa.Table, name: str):
    """Facts of one Table batch on its way to the Parquet writer: counted from what is written."""
    yield ("rows", name, table.num_rows)
    if name == "games":
        for status, n in _value_counts(table, "status"):
            yield ("verdicts", status, n)
        yield ("mismatches", "games", pc.sum(table.column("mismatch").cast(pa.int64())).as_py() or 0)
    elif name == "violations":
        for code, n in _value_counts(table, "code"):
            yield ("violations", code, n)
        for severity, n in _value_counts(table, "severity"):
            yield ("severity", severity, n)
    elif name == "errors":
        for stage, n in _value_counts(table, "stage"):
            yield ("errors", stage, n)
    elif name == "matches":
        for status, n in _value_counts(table, "status"):
            yield ("matches", status, n)
        yield ("matches_totals", "mismatch", pc.sum(table.column("totals_mismatch").cast(pa.int64())).as_py() or 0)
    elif name == "match_violations":
        for code, n in _value_counts(table, "code"):
            yield ("match_violations", code, n)


class TallyFn(beam.CombineFn):
    """Sums (group, key, amount) facts into {group: {key: total}}."""

    def create_accumulator(self):
        return {}

    def add_input(self, acc, fact):
        group, key, amount = fact
        acc[(group, key)] = acc.get((group, key), 0) + amount
        return acc

    def merge_accumulators(self, accumulators):
        out = {}
        for acc in accumulators:
            for k, v in acc.items():
                out[k] = out.get(k, 0) + v
        return out

    def extract_output(self, acc):
        out: dict[str, dict[str, int]] = {}
        for (group, key), total in sorted(acc.items()):
            out.setdefault(group, {})[key] = total
        return out


def write_json(obj, path: str) -> str:
    from apache_beam.io.filesystems import FileSystems

    with FileSystems.create(path) as fh:
        fh.write(json.dumps(obj, sort_keys=True).encode())
    return path


def read_json(path: str) -> dict:
    from apache_beam.io.filesystems import FileSystems

    with FileSystems.open(path) as fh:
        return json.loads(fh.read())


class Tally(beam.PTransform):
    """{"frames": frames, "spans": framing error rows, and per table name: its Tables} -> the tally,
    written as JSON to `path`. `facts` turns each Table into facts (table_facts: the audit's)."""

    def __init__(self, path: str, facts=table_facts):
        super().__init__()
        self._path = path
        self._facts = facts  # (Table, table name) -> facts; a job with tables of its own brings its own

    def expand(self, branches):
        facts = [branches["frames"] | "FrameFacts" >> beam.FlatMap(frame_facts),
                 branches["spans"] | "SpanFacts" >> beam.FlatMap(span_facts)]
        for name, tables in branches.items():
            if name not in ("frames", "spans"):
                facts.append(tables | f"Facts_{name}" >> beam.FlatMap(self._facts, name))
        return (
            facts
            | "AllFacts" >> beam.Flatten()
            | "Sum" >> beam.CombineGlobally(TallyFn())
            | "Write" >> beam.Map(write_json, self._path)
        )


# -- the manifest ----------------------------------------------------------------------------
def job_manifest(tally: dict, *, archives, out: str, tables: dict[str, dict], options: dict,
                 wall_seconds: float, judged_table: str, facts: dict, not_read: list[str] = ()) -> dict:
    """The manifest of any job: versions, inputs, records in, `facts` (the job's own counts), errors,
    tables, timing, options and the reconciliation of records in against `judged_table` rows + error
    rows. `tables` maps a table name to {"rows_written": n, "files": n}."""
    tin = tally.get("in", {})
    rows = tally.get("rows", {})
    frames, spans = tin.get("frames", 0), tin.get("corrupt_spans", 0)
    by_stage = {stage: 0 for stage in STAGES}
    by_stage.update(tally.get("errors", {}))
    per_file = tally.get("file_in", {})
    files = [{"path": a.path, "bytes": a.size, "compression": a.compression or None,
              "records_in": per_file.get(a.path, 0)} for a in archives]
    manifest = {
        "manifest_version": MANIFEST_VERSION,
        "versions": {
            "referee": REFEREE_VERSION,
            "schema": SCHEMA_VERSION,
            "tables": TABLE_VERSION,
            "apache_beam": beam.__version__,
            "pyarrow": pa.__version__,
            "python": platform.python_version(),
        },
        "inputs": {
            "files": files,
            "count": len(archives),
            "bytes": sum(a.size for a in archives),
            # Files that held no record and no corrupt byte at all: named, never skipped silently.
            "empty": [f["path"] for f in files if f["records_in"] == 0],
            # Files under the directories named that the listing left out (hidden, or not archive names).
            "not_read": list(not_read),
        },
        "out": out,
        "records_in": {"total": frames + spans, "frames": frames, "corrupt_spans": spans},
        "corrupt": {"spans": spans, "bytes": tin.get("corrupt_bytes", 0)},
        "frame_bytes": tin.get("frame_bytes", 0),
        **facts,
        "errors": {"total": rows.get("errors", 0), "by_stage": by_stage},
        "tables": {name: {"rows": rows.get(name, 0), **info} for name, info in tables.items()},
        "wall_clock_seconds": round(wall_seconds, 3),
        "hands_per_second": round(frames / wall_seconds, 1) if wall_seconds > 0 else None,
        "options": options,
    }
    manifest["reconciliation"] = reconcile(manifest, judged_table)
    return manifest


def build_manifest(tally: dict, *, archives, out: str, tables: dict[str, dict], options: dict,
                   wall_seconds: float, not_read: list[str] = ()) -> dict:
    """The audit's manifest: the job's, with verdicts, violations and matches."""
    rows = tally.get("rows", {})
    facts = {
        "verdicts": {"total": rows.get("games", 0), "by_status": tally.get("verdicts", {}),
                     "settlement_mismatches": tally.get("mismatches", {}).get("games", 0)},
        "violations": {"total": rows.get("violations", 0), "by_code": tally.get("violations", {}),
                       "by_severity": tally.get("severity", {})},
        "matches": {"total": rows.get("matches", 0), "by_status": tally.get("matches", {}),
                    "totals_mismatches": tally.get("matches_totals", {}).get("mismatch", 0),
                    "violations": rows.get("match_violations", 0),
                    "violations_by_code": tally.get("match_violations", {})},
    }
    return job_manifest(tally, archives=archives, out=out, tables=tables, options=options,
                        wall_seconds=wall_seconds, judged_table="games", facts=facts, not_read=not_read)


def reconcile(manifest: dict, judged_table: str = "games") -> dict:
    """{"ok", "records_in", "verdict_rows", "error_rows", "problems": [sentences]}: records in must equal
    the rows of `judged_table` (one per record judged) + error rows."""
    records_in = manifest["records_in"]["total"]
    verdicts, errors = manifest["tables"][judged_table]["rows"], manifest["errors"]["total"]
    problems = []
    if records_in != verdicts + errors:
        missing = records_in - verdicts - errors
        what = "unaccounted for" if missing > 0 else "counted twice"
        problems.append(
            f"records in {records_in:,} ({manifest['records_in']['frames']:,} frames + "
            f"{manifest['records_in']['corrupt_spans']:,} corrupt spans) != {verdicts:,} {judged_table} rows + "
            f"{errors:,} error rows: {abs(missing):,} record(s) {what}")
    for name, info in manifest["tables"].items():
        if info["rows"] != info["rows_written"]:
            problems.append(f"table {name}: {info['rows']:,} rows counted but {info['rows_written']:,} in its "
                            f"Parquet files")
    return {"ok": not problems, "records_in": records_in, "verdict_rows": verdicts, "error_rows": errors,
            "problems": problems}


class SummaryLines(list):
    """The lines of an end-of-run table, with the rows every job prints."""

    def row(self, label, value, note=""):
        self.append(f"  {label:<28}{value:>12,}" + (f"  {note}" if note else ""))

    def head(self, manifest: dict, job: str) -> None:
        """The title and the records in."""
        r = manifest["records_in"]
        size = manifest["inputs"]["bytes"]
        size_text = f"{size / 1e6:,.1f} MB" if size >= 1e6 else f"{size / 1e3:,.1f} kB"
        self.append(f"{job} of {manifest['inputs']['count']} file(s), {size_text} -> {manifest['out']}")
        self.row("records in", r["total"], f"{r['frames']:,} frames + {r['corrupt_spans']:,} corrupt spans")
        for path in manifest["inputs"].get("empty", []):
            self.append(f"    no record in {path}")

    def errors(self, manifest: dict) -> None:
        self.row("error rows", manifest["errors"]["total"])
        for stage, n in manifest["errors"]["by_stage"].items():
            self.row(f"  {stage}", n)
        self.row("corrupt bytes", manifest["corrupt"]["bytes"])

    def tail(self, manifest: dict, judged_table: str) -> None:
        """Table rows, wall clock and the reconciliation."""
        self.append("  table rows: " + ", ".join(f"{name} {info['rows_written']:,}"
                                                 for name, info in manifest["tables"].items()))
        hps = manifest["hands_per_second"]
        speed = f", {hps:,.0f} hands/s" if hps is not None else ""
        self.append(f"  wall clock {manifest['wall_clock_seconds']:,.1f} s{speed}")
        rec = manifest["reconciliation"]
        self.append(f"  reconciled: records in = {judged_table} rows + error rows" if rec["ok"]
                    else "  NOT RECONCILED: " + "; ".join(rec["problems"]))


def summary(manifest: dict, top_codes: int = 10) -> str:
    """The audit's end-of-run table printed to stdout."""
    lines = SummaryLines()
    lines.head(manifest, "audit")
    row = lines.row
    row("verdict rows (games)", manifest["verdicts"]["total"])
    for status, n in sorted(manifest["verdicts"]["by_status"].items()):
        row(f"  {status}", n)
    row("  settlement mismatches", manifest["verdicts"]["settlement_mismatches"])
    lines.errors(manifest)
    row("violations", manifest["violations"]["total"])
    codes = sorted(manifest["violations"]["by_code"].items(), key=lambda kv: (-kv[1], kv[0]))
    for code, n in codes[:top_codes]:
        row(f"  {code}", n)
    if len(codes) > top_codes:
        lines.append(f"    ... {len(codes) - top_codes} more codes in manifest.json")
    m = manifest.get("matches")
    if m and m["total"]:
        row("matches", m["total"], ", ".join(f"{n:,} {status}" for status, n in sorted(m["by_status"].items())))
        row("  final totals differ", m["totals_mismatches"])
        row("  match violations", m["violations"])
        for code, n in sorted(m["violations_by_code"].items(), key=lambda kv: (-kv[1], kv[0]))[:top_codes]:
            row(f"    {code}", n)
    lines.tail(manifest, "verdict")
    return "\n".join(lines)
