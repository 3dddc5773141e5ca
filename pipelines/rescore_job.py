"""The rescore job (`mjref rescore`, pipelines/rescore.py): what an archive would have paid under other rules.

    archives -> Read (the audit's: splittable, corruption-tolerant) -> Progress
             -> Rescore: each record judged under its own options and under the overrides
             -> rescore_games (one row per record) / rescore_seats (one per seat) / errors rows
             -> sorted Parquet tables (the same bytes on every runner and worker count)
             -> Tally -> manifest.json (reconciled: records in = rescore_games rows + error rows)

An override applies only to records of a ruleset that has the option, as in `mjref audit` and
`mjref verify`: the other records are judged once and show no change. A record that cannot be
replayed under either reading is an error row of stage "replay"; one that replays under one
reading only is a games row with that side's status "unreplayable". Everything else (the reader,
the arguments and Beam flags, the error rows, the row checks, the runner) is the audit's.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

import apache_beam as beam
from apache_beam.pvalue import TaggedOutput

from pipelines import files as F
from pipelines.judge import ERRORS, judge, parse_frame, with_error_rows, write_problem
from pipelines.reader import ERRORS as SPANS
from pipelines.reader import FRAMES
from pipelines.rows import error_row, rescore_game_row, rescore_seat_rows
from pipelines.schemas import KEYS, RESCORE_TABLES
from pipelines.validate import validators
from referee.rules import overrides_change
from referee.verdict import UNREPLAYABLE

GAMES, SEATS = "rescore_games", "rescore_seats"
# Rows of a sorted table are held per shard while it is written: a shard per this much input.
SHARD_INPUT_BYTES = 32 << 20


class RescoreFn(beam.DoFn):
    """(source, offset, length, payload) -> a rescore_games row (main) and the list of its rescore_seats
    rows, or one error row."""

    def __init__(self, overrides: Mapping[str, str]):
        super().__init__()
        self._overrides = dict(overrides)

    def setup(self):
        self._check = validators(RESCORE_TABLES)

    def process(self, element):
        source, offset, length, payload = element
        record = yield from parse_frame(element)
        if record is None:
            return
        own = judge(record, payload, None)
        # The referee is deterministic: overrides that change none of this ruleset's values give the same
        # verdict, so a record they do not touch is replayed once.
        changed = overrides_change(record.ruleset.name, record.ruleset.options, self._overrides)
        new = judge(record, payload, self._overrides) if changed else own
        if own.status == UNREPLAYABLE and new.status == UNREPLAYABLE:
            also = "" if new.reason == own.reason else f" (under the overrides: {new.reason})"
            yield TaggedOutput(ERRORS, error_row(source, offset, length, "replay", own.reason + also, own.game_id))
            return
        out = {GAMES: rescore_game_row(source, offset, own, new),
               SEATS: rescore_seat_rows(source, offset, own, new, seats=len(record.players) or 4)}
        if (yield from write_problem(self._check, out, element, own.game_id)):
            return
        yield out[GAMES]
        yield TaggedOutput(SEATS, out[SEATS])


class RescoreArchives(beam.PTransform):
    """PBegin -> {table name: Tables written}; writes the rescore tables under `out`, the tally to `tally_path`."""

    def __init__(self, archives: list[F.ArchiveFile], out: str, tally_path: str, overrides: Mapping[str, str],
                 progress_interval: float = 10.0):
        super().__init__()
        self._archives, self._out, self._tally_path = archives, out, tally_path
        self._overrides = dict(overrides)
        self._progress_interval = progress_interval

    def expand(self, pbegin):
        from pipelines.job import read_archives
        from pipelines.manifest import Tally
        from pipelines.rescore_tally import rescore_facts
        from pipelines.tables import WriteSortedTable, shards_for

        read, frames = read_archives(pbegin, self._archives, self._progress_interval, "rescore")
        judged = with_error_rows(frames, "Rescore", RescoreFn(self._overrides), GAMES, {ERRORS: dict, SEATS: list})
        tables = {GAMES: judged[GAMES], SEATS: judged[SEATS],
                  "errors": (read[SPANS], judged[ERRORS]) | "AllErrors" >> beam.Flatten()}
        shards = shards_for(sum(a.size for a in self._archives), per_shard=SHARD_INPUT_BYTES)
        written = {}
        for name, rows in tables.items():
            keys = KEYS[name]
            written[name] = rows | f"Write_{name}" >> WriteSortedTable(self._out, name, RESCORE_TABLES[name], keys,
                                                                       keys[:2], shards)
        _ = {"frames": read[FRAMES], "spans": read[SPANS], **written} | "Tally" >> Tally(self._tally_path,
                                                                                        rescore_facts)
        return written


@dataclass
class RescoreConfig:
    inputs: list[str]
    out: str
    overrides: dict[str, str]
    beam_args: list[str] = field(default_factory=list)
    progress_interval: float = 10.0


def run_rescore(config: RescoreConfig) -> dict:
    """Run the rescore and return its manifest (also written to OUT/manifest.json)."""
    from pipelines.job import job_options, run_job as run_pipeline, write_manifest
    from pipelines.rescore_tally import rescore_manifest

    if not config.overrides:
        raise ValueError("rescore needs at least one option override")

    def transform(archives, out, tally_path):
        return RescoreArchives(archives, out, tally_path, config.overrides, config.progress_interval)

    run = run_pipeline(config.inputs, config.out, config.beam_args, RESCORE_TABLES, "Rescore", transform)
    manifest = rescore_manifest(run.tally, archives=run.archives, out=run.out, tables=run.tables,
                                wall_seconds=run.wall_seconds, options=job_options(run, config.overrides),
                                not_read=run.not_read)
    write_manifest(run.out, manifest)
    return manifest
