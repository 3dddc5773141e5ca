"""The corruption-tolerant, splittable archive reader: frames on the main output, corrupt spans on `errors`.

A splittable DoFn over one archive file with an OffsetRange restriction on its uncompressed
bytes, built on referee.archive.scan and its split rule:
  * each frame is claimed by its offset, so a frame belongs to the range its header starts in;
  * the corrupt span after a frame is emitted with that frame (no claim of its own), even when
    the span runs past the range's end;
  * a range starting at 0 claims offset 0 for a leading corrupt span;
  * a range starting at s > 0 begins at the first valid frame at or after s (scan resyncs).
Every frame and span of the file is therefore emitted exactly once, for any partition of
[0, size) into ranges, initial or dynamic.

A gzip/zstd file cannot be split: its restriction is [0, 1), the one claim at 0 covers the whole
decompressed file. Local uncompressed files are memory-mapped, so a range touches only the
pages it reads; a file on object storage is read whole, once, as one restriction (shard large
archives into several files there).

Main output: (file, offset, length, payload) with payload as bytes (parsed later, inside the
fused referee step). `errors` output: error rows (schemas.ERRORS) with stage "framing".
"""
from __future__ import annotations

import math
import mmap
import os
from typing import Iterator, Tuple

import apache_beam as beam
from apache_beam.io.restriction_trackers import OffsetRange, OffsetRestrictionTracker
from apache_beam.transforms.core import RestrictionProvider

from pipelines import files as F
from pipelines.rows import error_row
from referee import archive

FRAMES, ERRORS = "frames", "errors"

# Initial split of an uncompressed local file: at least MIN_PARTS parts (so 2+ workers get work
# from a single archive), more for big files so a part stays near PART_BYTES, none under
# MIN_PART_BYTES (tiny parts cost more in bookkeeping than they save).
MIN_PARTS = 8
PART_BYTES = 64 << 20
MIN_PART_BYTES = 4 << 10

FrameTuple = Tuple[str, int, int, bytes]


class ArchiveRestrictions(RestrictionProvider):
    """OffsetRange restrictions over an archive's uncompressed bytes; (path, size, compression) elements."""

    def initial_restriction(self, element):
        _path, size, compression = element
        return OffsetRange(0, 1) if compression else OffsetRange(0, size)

    def split(self, element, restriction):
        path, _size, compression = element
        if compression or not F.is_local(path):
            yield restriction
            return
        n = restriction.size()
        parts = min(max(MIN_PARTS, math.ceil(n / PART_BYTES)), max(1, n // MIN_PART_BYTES))
        yield from restriction.split(math.ceil(n / parts))

    def create_tracker(self, restriction):
        return OffsetRestrictionTracker(restriction)

    def restriction_size(self, element, restriction):
        # A compressed file's [0, 1) stands for all of it; weigh it by its size on disk.
        return element[1] if element[2] else restriction.size()


def _span_row(path: str, span: archive.CorruptSpan) -> dict:
    return error_row(path, span.offset, span.length, "framing", span.reason)


class ReadArchiveFn(beam.DoFn):
    """One archive file -> its frames (main) and corrupt spans (`errors`), claimed by offset."""

    def process(self, element, tracker=beam.DoFn.RestrictionParam(ArchiveRestrictions())):
        path, size, compression = element
        start = tracker.current_restriction().start
        if compression:
            if not tracker.try_claim(0):
                return
            try:
                with F.open_raw(path) as fh:
                    data, damage = archive.decompress(fh.read())
            except OSError as err:
                yield beam.pvalue.TaggedOutput(ERRORS, error_row(path, 0, size, "framing", f"unreadable: {err}"))
                return
            # The one claim covers the whole file: no further claims.
            for item in archive.scan_file(data, damage):
                yield item_output(path, item)
            return
        try:
            fh = F.open_raw(path)
        except OSError as err:
            yield from self._unreadable(path, size, tracker, err)
            return
        with fh:
            if F.is_local(path):  # mmap refuses an empty file: that one holds nothing to claim
                data = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) if os.fstat(fh.fileno()).st_size else b""
            else:
                data = fh.read()
            try:
                yield from self._walk(path, data, start, tracker)
            finally:
                if isinstance(data, mmap.mmap):
                    data.close()

    @staticmethod
    def _walk(path: str, data, start: int, tracker) -> Iterator:
        for item in archive.scan(data, start):
            if type(item) is archive.Frame:
                if not tracker.try_claim(item.offset):
                    return
            elif item.offset == 0:  # a leading span: owned by the range that starts at 0
                if not tracker.try_claim(0):
                    return
            # else: the span after a frame this range claimed, emitted with it.
            yield item_output(path, item)
        # Past the last frame of the file: the rest of the range holds nothing to claim.
        tracker.try_claim(tracker.current_restriction().stop)

    @staticmethod
    def _unreadable(path: str, size: int, tracker, err: OSError) -> Iterator:
        # The whole file is one error row, from the range that holds offset 0.
        stop = tracker.current_restriction().stop
        if tracker.current_restriction().start == 0 and tracker.try_claim(0):
            yield beam.pvalue.TaggedOutput(ERRORS, error_row(path, 0, size, "framing", f"unreadable: {err}"))
        tracker.try_claim(stop)


def item_output(path: str, item):
    if type(item) is archive.Frame:
        return (path, item.offset, item.length, item.payload)
    return beam.pvalue.TaggedOutput(ERRORS, _span_row(path, item))


class ReadArchives(beam.PTransform):
    """Archive files -> frames (tagged FRAMES) and framing error rows (tagged ERRORS)."""

    def __init__(self, archives: list[F.ArchiveFile]):
        super().__init__()
        self._elements = [a.element() for a in archives]

    def expand(self, pbegin):
        return (
            pbegin
            # No reshuffle: the file list then reaches the restriction split as one bundle, whose
            # parts the local runner deals out to its workers one by one; reshuffled, each file's
            # parts travel together and one big archive lands on a single worker.
            | "ListFiles" >> beam.Create(self._elements, reshuffle=False)
            | "Scan" >> beam.ParDo(ReadArchiveFn()).with_output_types(FrameTuple).with_outputs(ERRORS, main=FRAMES)
        )
