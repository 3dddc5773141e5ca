"""The audit job: the whole graph as one composite PTransform, and running it end to end.

    archives -> Read (splittable, corruption-tolerant) -> Progress -> Judge (referee)
             -> games / violations / settlements / [decisions] / errors rows -> Parquet tables
             -> the hands of each match (by match_id) -> matches / match_violations (pipelines/matches.py)
             -> Tally (counts from the data) -> manifest.json, reconciled

run_job (shared with `mjref rescore`, pipelines/rescore.py) lists the inputs, builds and runs a
job's pipeline on the chosen runner, then reads back the tally and the Parquet footers; run_audit
writes the audit's manifest from them and reports whether everything adds up.
"""
from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from typing import Callable

import apache_beam as beam
import pyarrow as pa
from apache_beam.options.pipeline_options import PipelineOptions
from apache_beam.runners.runner import PipelineState

from pipelines import files as F
from pipelines import runner as R
from pipelines.judge import DECISIONS, GAMES, MATCH_HANDS, SETTLEMENTS, VIOLATIONS, Judge
from pipelines.judge import ERRORS as JUDGE_ERRORS
from pipelines.manifest import Tally, build_manifest, read_json
from pipelines.progress import ProgressFn
from pipelines.reader import ERRORS, FRAMES, ReadArchives
from pipelines.matches import CheckMatches
from pipelines.schemas import KEYS, TABLES
from pipelines.tables import WriteSortedTable, WriteTable, ensure_table, list_table_files, rows_written, shards_for

TALLY_FILE = "_tally.json"
MANIFEST_FILE = "manifest.json"


class PipelineFailed(RuntimeError):
    """The runner reported a state other than DONE."""


@dataclass
class AuditConfig:
    inputs: list[str]
    out: str
    rule_options: dict[str, str] = field(default_factory=dict)
    decisions: bool = False
    beam_args: list[str] = field(default_factory=list)
    progress_interval: float = 10.0
    # Test hook: drop this game's row before it is counted and written, so a test can show that
    # reconciliation catches a lost record. Never set in normal use.
    drop_game_id: str | None = None


def _keep(row: dict, drop_game_id: str) -> bool:
    return row["game_id"] != drop_game_id


def read_archives(pbegin, archives: list[F.ArchiveFile], progress_interval: float, job: str):
    """(the reader's outputs, its frames passed through the progress line): the start of every job.
    read[FRAMES] and read[ERRORS] (the corrupt spans) are what the tally counts as records in."""
    read = pbegin | "Read" >> ReadArchives(archives)
    # Compressed inputs are counted on disk but read uncompressed: no honest percentage.
    total = None if any(a.compression for a in archives) else sum(a.size for a in archives)
    frames = read[FRAMES] | "Progress" >> beam.ParDo(ProgressFn(total, progress_interval, job))
    return read, frames


class AuditArchives(beam.PTransform):
    """PBegin -> {table name: Tables written}; writes every table under `out`, the tally to `tally_path`."""

    def __init__(self, archives: list[F.ArchiveFile], out: str, tally_path: str, *,
                 rule_options: dict[str, str] | None = None, decisions: bool = False,
                 progress_interval: float = 10.0, drop_game_id: str | None = None):
        super().__init__()
        self._archives = archives
        self._out = out
        self._tally_path = tally_path
        self._rule_options = dict(rule_options or {})
        self._decisions = decisions
        self._progress_interval = progress_interval
        self._drop_game_id = drop_game_id

    def expand(self, pbegin):
        read, frames = read_archives(pbegin, self._archives, self._progress_interval, "audit")
        judged = frames | "Judge" >> Judge(self._rule_options, self._decisions)
        games = judged[GAMES]
        if self._drop_game_id is not None:
            games = games | "TestHookDropGame" >> beam.Filter(_keep, self._drop_game_id)
        tables = {
            "games": games,
            "violations": judged[VIOLATIONS],
            "settlements": judged[SETTLEMENTS],
            "errors": (read[ERRORS], judged[JUDGE_ERRORS]) | "AllErrors" >> beam.Flatten(),
        }
        if self._decisions:
            tables["decisions"] = judged[DECISIONS]
        written = {name: rows | f"Write_{name}" >> WriteTable(self._out, name, TABLES[name])
                   for name, rows in tables.items()}
        # Across the hands of each match: deterministic tables (sorted rows, a fixed number of files).
        matches = judged[MATCH_HANDS] | "Matches" >> CheckMatches()
        shards = shards_for(sum(a.size for a in self._archives), per_shard=256 << 20, most=64)
        for name, rows in matches.items():
            written[name] = rows | f"Write_{name}" >> WriteSortedTable(self._out, name, TABLES[name], KEYS[name],
                                                                       ("match_id",), shards)
        _ = {"frames": read[FRAMES], "spans": read[ERRORS], **written} | "Tally" >> Tally(self._tally_path)
        return written


def check_out(out: str, tables=TABLES) -> None:
    """Refuse an output directory that already holds a run: mixed runs would not reconcile."""
    from apache_beam.io.filesystems import FileSystems

    taken = [name for name in tables if list_table_files(out, name)]
    if FileSystems.exists(f"{out.rstrip('/')}/{MANIFEST_FILE}") or taken:
        raise F.InputError(f"--out {out}: already holds an earlier run ({', '.join(taken) or MANIFEST_FILE}); "
                           "choose a new directory or remove it")


@dataclass
class JobRun:
    """What a finished job leaves for its manifest."""
    archives: list[F.ArchiveFile]
    out: str
    tally: dict
    tables: dict[str, dict]  # name -> {"rows_written", "files"}, from the Parquet footers
    wall_seconds: float
    options: PipelineOptions
    not_read: list[str] = field(default_factory=list)  # files under the input directories left out


# (archives, out, tally path) -> the composite PTransform that writes every table and the tally.
JobTransform = Callable[[list, str, str], beam.PTransform]


def run_job(inputs: list[str], out: str, beam_args: list[str], tables: dict[str, pa.Schema], label: str,
            transform: JobTransform) -> JobRun:
    """List the inputs, run `transform` on the chosen runner, then read back the tally and the footers of
    `tables` (an empty table gets a file with its schema). The one way every job command runs."""
    from apache_beam.io.filesystems import FileSystems

    not_read: list[str] = []
    archives = F.list_archives(inputs, not_read)
    out = out.rstrip("/") or "/"
    if F.is_local(out):
        out = os.path.abspath(out)  # worker processes need not share our working directory
    check_out(out, {**TABLES, **tables})  # any earlier job's tables, not only this job's
    if F.is_local(out):
        os.makedirs(out, exist_ok=True)
    options = PipelineOptions(beam_args)
    runner = R.make_runner(options)
    tally_path = f"{out}/{TALLY_FILE}"

    start = time.perf_counter()
    pipeline = beam.Pipeline(runner=runner, options=options)
    _ = pipeline | label >> transform(archives, out, tally_path)
    state = pipeline.run().wait_until_finish()
    wall = time.perf_counter() - start
    if state is not None and state != PipelineState.DONE:
        raise PipelineFailed(f"the pipeline ended in state {state}")

    tally = read_json(tally_path)
    FileSystems.delete([tally_path])
    written = {}
    for name, schema in tables.items():
        ensure_table(out, name, schema)
        written[name] = {"rows_written": rows_written(out, name), "files": len(list_table_files(out, name))}
    return JobRun(archives, out, tally, written, wall, options, sorted(set(not_read)))


def job_options(run: JobRun, rule_options: dict[str, str], **extra) -> dict:
    """The manifest's "options": the rule options, the job's own switches, the runner, the Beam options."""
    return {"rule_options": dict(sorted(rule_options.items())), **extra, "runner": R.describe(run.options),
            "pipeline_options": run.options.get_all_options(drop_default=True, retain_unknown_options=True)}


def write_manifest(out: str, manifest: dict) -> None:
    from apache_beam.io.filesystems import FileSystems

    with FileSystems.create(f"{out}/{MANIFEST_FILE}") as fh:
        fh.write((json.dumps(manifest, indent=2, ensure_ascii=False, default=str) + "\n").encode())


def run_audit(config: AuditConfig) -> dict:
    """Run the audit and return its manifest (also written to OUT/manifest.json)."""
    tables = {n: TABLES[n] for n in TABLES if n != "decisions" or config.decisions}

    def transform(archives, out, tally_path):
        return AuditArchives(archives, out, tally_path, rule_options=config.rule_options,
                             decisions=config.decisions, progress_interval=config.progress_interval,
                             drop_game_id=config.drop_game_id)

    run = run_job(config.inputs, config.out, config.beam_args, tables, "Audit", transform)
    manifest = build_manifest(run.tally, archives=run.archives, out=run.out, tables=run.tables,
                              wall_seconds=run.wall_seconds, not_read=run.not_read,
                              options=job_options(run, config.rule_options, decisions=config.decisions))
    write_manifest(run.out, manifest)
    return manifest
