"""Rows -> pyarrow Tables of up to BATCH_ROWS rows -> Parquet (zstd), one directory per table.

Building Tables from column lists and writing them with WriteToParquetBatched is about 3x
faster than WriteToParquet on dict rows, and each Table written is at least one row group, so
rows are batched per bundle. num_shards=0 leaves sharding to the runner (a fixed count adds a
grouping step that doubles memory).
"""
from __future__ import annotations

import json
import os
import zlib

import apache_beam as beam
import pyarrow as pa
import pyarrow.parquet as pq
from apache_beam.io.parquetio import WriteToParquetBatched
from apache_beam.transforms.window import GlobalWindow
from apache_beam.utils.windowed_value import WindowedValue

from pipelines import files as F

BATCH_ROWS = 65_536  # rows per Table written: one row group each
CHUNK_ROWS = 4_096  # Python rows held before they become a columnar RecordBatch
CODEC = "zstd"
SUFFIX = ".parquet"


def to_batch(rows: list[dict], schema: pa.Schema) -> pa.RecordBatch:
    """Dict rows as a RecordBatch of exactly `schema` (types, nullability, metadata)."""
    return pa.RecordBatch.from_arrays([pa.array([r[f.name] for r in rows], type=f.type) for f in schema],
                                      schema=schema)


def to_table(rows: list[dict], schema: pa.Schema) -> pa.Table:
    return pa.Table.from_batches([to_batch(rows, schema)], schema=schema)


class RowsToTables(beam.DoFn):
    """Dict rows, or lists of them -> Tables of about batch_rows rows; the rest of a bundle is
    flushed at its end.

    Rows are turned into columnar batches every CHUNK_ROWS rows rather than held as dicts until
    a Table is full: tens of thousands of live dicts make every garbage collection pass slower
    for the referee running in the same process, and take several times the memory.
    """

    def __init__(self, schema: pa.Schema, batch_rows: int = BATCH_ROWS, chunk_rows: int = CHUNK_ROWS):
        super().__init__()
        self._schema = schema
        self._batch_rows = batch_rows
        self._chunk_rows = min(chunk_rows, batch_rows)
        self.start_bundle()

    def start_bundle(self):
        self._rows: list[dict] = []
        self._batches: list[pa.RecordBatch] = []
        self._batched = 0

    def process(self, rows):
        if type(rows) is list:
            self._rows += rows
        else:
            self._rows.append(rows)
        if len(self._rows) >= self._chunk_rows:
            self._chunk()
            if self._batched >= self._batch_rows:
                yield self._flush()

    def finish_bundle(self):
        if self._rows or self._batches:
            window = GlobalWindow()
            yield WindowedValue(self._flush(), window.max_timestamp(), [window])

    def _chunk(self) -> None:
        # Never more than chunk_rows rows per batch, even when one record brought thousands: with
        # strings capped per value (pipelines/validate.py) a batch's string column stays far below
        # Arrow's 2 GiB offset limit.
        rows, step = self._rows, self._chunk_rows
        for i in range(0, len(rows), step):
            self._batches.append(to_batch(rows[i:i + step], self._schema))
        self._batched += len(rows)
        self._rows = []

    def _flush(self) -> pa.Table:
        self._chunk()
        table = pa.Table.from_batches(self._batches, schema=self._schema)
        self._batches, self._batched = [], 0
        return table


def table_dir(out: str, name: str) -> str:
    return f"{out.rstrip('/')}/{name}"  # "/" works for local paths and every object store


class WriteTable(beam.PTransform):
    """Dict rows (or lists of them) -> Parquet files under OUT/NAME/ (part-SSSSS-of-NNNNN.parquet).

    Returns the Tables written, so that counts can be taken from exactly what was written."""

    def __init__(self, out: str, name: str, schema: pa.Schema, batch_rows: int = BATCH_ROWS):
        super().__init__()
        self._prefix = f"{table_dir(out, name)}/part"
        self._schema = schema
        self._batch_rows = batch_rows

    def expand(self, rows):
        tables = rows | "ToTables" >> beam.ParDo(RowsToTables(self._schema, self._batch_rows))
        _ = tables | "Parquet" >> WriteToParquetBatched(
            self._prefix, schema=self._schema, codec=CODEC, file_name_suffix=SUFFIX, num_shards=0)
        return tables


# -- deterministic tables: the same bytes on every runner ------------------------------------------------
def shard_of(row: dict, columns: tuple[str, ...], shards: int) -> int:
    """A row's shard from its key columns: a CRC32, the same in every process (never Python's hash)."""
    text = json.dumps([row[c] for c in columns], ensure_ascii=False, default=str)
    return zlib.crc32(text.encode("utf-8")) % shards


def sort_key(row: dict, keys: tuple[str, ...]) -> tuple:
    """The table's key columns (nulls last), then the whole row: a total order."""
    return (tuple((row[k] is None, 0 if row[k] is None else row[k]) for k in keys),
            json.dumps(row, sort_keys=True, ensure_ascii=False, default=str))


def _keyed(row: dict, columns: tuple[str, ...], shards: int) -> tuple[int, dict]:
    return shard_of(row, columns, shards), row


def _flatten(rows):
    return rows if type(rows) is list else [rows]


class WriteShardFn(beam.DoFn):
    """(shard, rows) -> one Parquet file for the shard, its rows sorted; yields the Table written."""

    def __init__(self, prefix: str, schema: pa.Schema, keys: tuple[str, ...], shards: int):
        super().__init__()
        self._prefix, self._schema, self._keys, self._shards = prefix, schema, keys, shards

    def process(self, element):
        from apache_beam.io.filesystems import FileSystems

        shard, rows = element
        rows = sorted((r for r in rows if r is not None), key=lambda r: sort_key(r, self._keys))
        table = pa.Table.from_batches([to_batch(rows[i:i + CHUNK_ROWS], self._schema)
                                       for i in range(0, len(rows), CHUNK_ROWS)] or [to_batch([], self._schema)],
                                      schema=self._schema)
        path = f"{self._prefix}-{shard:05d}-of-{self._shards:05d}{SUFFIX}"
        if F.is_local(path):
            os.makedirs(os.path.dirname(path), exist_ok=True)
        with FileSystems.create(path) as fh:
            # List items keep the declared name ("item"), as WriteToParquetBatched writes them: read back,
            # a file's schema is exactly its table's.
            pq.write_table(table, fh, compression=CODEC, row_group_size=BATCH_ROWS, use_compliant_nested_type=False)
        yield table


class WriteSortedTable(beam.PTransform):
    """Dict rows (or lists of them) -> exactly `shards` Parquet files under OUT/NAME/, each the rows
    whose key columns hash to it, sorted by the table's keys: the same files, byte for byte, on any
    runner and with any number of workers (every shard is written, empty or not). Each shard is
    held by one worker while it is written, so the shard count should grow with the input.

    Returns the Tables written, for counting."""

    def __init__(self, out: str, name: str, schema: pa.Schema, keys: tuple[str, ...],
                 shard_columns: tuple[str, ...], shards: int = 1):
        super().__init__()
        self._prefix = f"{table_dir(out, name)}/part"
        self._schema, self._keys, self._columns, self._shards = schema, keys, shard_columns, max(1, shards)

    def expand(self, rows):
        keyed = (rows | "Flatten rows" >> beam.FlatMap(_flatten)
                 | "Shard" >> beam.Map(_keyed, self._columns, self._shards))
        every = rows.pipeline | "Every shard" >> beam.Create([(i, None) for i in range(self._shards)])
        return ((keyed, every) | "With empty shards" >> beam.Flatten() | "By shard" >> beam.GroupByKey()
                | "Write" >> beam.ParDo(WriteShardFn(self._prefix, self._schema, self._keys, self._shards)))


def shards_for(input_bytes: int, per_shard: int = 64 << 20, most: int = 256) -> int:
    """How many shards a deterministic table gets for this much input (the same for the same input)."""
    return max(1, min(most, -(-input_bytes // per_shard)))


def list_table_files(out: str, name: str) -> list[str]:
    """The Parquet files of one table directory, sorted (empty if the directory is missing)."""
    from apache_beam.io.filesystems import FileSystems

    pattern = f"{table_dir(out, name)}/*{SUFFIX}"
    try:
        return sorted(m.path for m in FileSystems.match([pattern])[0].metadata_list)
    except Exception:  # no match is an error for some file systems
        return []


def rows_written(out: str, name: str) -> int:
    """Rows in a table directory, from the Parquet footers only (no data pages read)."""
    total = 0
    for path in list_table_files(out, name):
        with F.open_raw(path) as fh:
            total += pq.ParquetFile(fh).metadata.num_rows
    return total


def ensure_table(out: str, name: str, schema: pa.Schema) -> bool:
    """Write an empty file with the schema if the directory has no file, so that DuckDB, Polars
    and Spark read an empty table instead of failing on a missing path. True if one was written."""
    if list_table_files(out, name):
        return False
    from apache_beam.io.filesystems import FileSystems

    path = f"{table_dir(out, name)}/part-00000-of-00001{SUFFIX}"
    if F.is_local(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
    with FileSystems.create(path) as fh:
        pq.write_table(schema.empty_table(), fh, compression=CODEC)
    return True


def read_table(out: str, name: str) -> pa.Table:
    """A whole table directory as one Table (for tests and small outputs)."""
    paths = list_table_files(out, name)
    return pa.concat_tables([pq.read_table(p) for p in paths]) if paths else pa.table({})
