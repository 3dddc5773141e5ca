"""A pass-through step that logs a throttled progress line: records, records/s, bytes read of the total.

The in-process runner blocks in run() and reports metrics only when a stage ends, so progress
is logged from inside the work itself. Each worker logs its own share (locally and in cluster
worker logs); the percentage is that worker's bytes against all input bytes.
"""
from __future__ import annotations

import logging
import os
import time

import apache_beam as beam

log = logging.getLogger("mjref.audit.progress")


class ProgressFn(beam.DoFn):
    """Frames in, the same frames out; every `interval` seconds, one log line."""

    def __init__(self, total_bytes: int | None, interval: float = 10.0, job: str = "audit"):
        super().__init__()
        self._job = job  # names the job in the line: "audit progress", "rescore progress"
        self._total = total_bytes  # None when compressed inputs make a percentage meaningless
        self._interval = interval

    def setup(self):
        self._records = self._bytes = 0
        self._start = self._next = None

    def process(self, element):
        now = time.monotonic()
        if self._start is None:
            self._start, self._next = now, now + self._interval
        self._records += 1
        self._bytes += element[2]
        if now >= self._next and now > self._start:
            self._next = now + self._interval
            log.info("%s", self.line(now))
        yield element

    def line(self, now: float) -> str:
        elapsed = max(now - self._start, 1e-9)
        read = f"{self._bytes / 1e6:,.1f} MB read"
        if self._total:
            read += f" of {self._total / 1e6:,.1f} MB ({100 * self._bytes / self._total:.1f}%)"
        return (f"{self._job} progress [worker {os.getpid()}]: {self._records:,} records, "
                f"{self._records / elapsed:,.0f} records/s, {read}")
