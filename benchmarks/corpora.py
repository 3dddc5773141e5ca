"""Where the benchmarks keep the archives they build, named by a digest of the code that builds
them, so that a change to that code builds a new one (MJREF_BENCH_CACHE moves the folder)."""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

CACHE = Path(os.environ.get("MJREF_BENCH_CACHE", "/tmp/mjref-bench"))


def digest(sources: list[Path]) -> str:
    """A short digest of these source files' bytes."""
    return hashlib.sha1(b"".join(p.read_bytes() for p in sources)).hexdigest()[:10]
