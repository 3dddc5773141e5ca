"""Throughput of referee.archive.scan on an in-memory archive: clean, and with 1% of frames corrupt.

    python benchmarks/archive_speed.py --records 100000 --size 1800

Payloads are random bytes (they do not compress, and contain no accidental zero runs), so the
corrupt case measures the resync search over typical damaged frames: one smashed payload byte
per damaged frame, which makes that frame one CorruptSpan.
"""
from __future__ import annotations

import argparse
import os
import pathlib
import random
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from referee.archive import Frame, frame, scan  # noqa: E402


def build(records: int, size: int, seed: int = 1) -> tuple[bytes, list[int]]:
    """An archive of `records` random payloads of `size` bytes, and the frame offsets."""
    rng = random.Random(seed)
    block = os.urandom(size * 64)  # slices of one random block: fast to build, still incompressible
    parts, offsets, pos = [], [], 0
    for _ in range(records):
        start = rng.randrange(0, len(block) - size)
        framed = frame(block[start : start + size])
        parts.append(framed)
        offsets.append(pos)
        pos += len(framed)
    return b"".join(parts), offsets


def corrupt(data: bytes, offsets: list[int], fraction: float, size: int, seed: int = 2) -> tuple[bytes, int]:
    rng = random.Random(seed)
    buf = bytearray(data)
    chosen = rng.sample(range(len(offsets)), max(1, int(len(offsets) * fraction)))
    for i in chosen:
        buf[offsets[i] + 12 + rng.randrange(size)] ^= 0xFF
    return bytes(buf), len(chosen)


def measure(label: str, data: bytes, repeat: int) -> None:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        frames = spans = 0
        for item in scan(data):
            if type(item) is Frame:
                frames += 1
            else:
                spans += 1
        best = min(best, time.perf_counter() - t0)
    mb = len(data) / 1e6
    print(
        f"{label:<16} {frames:>9,} frames {spans:>6,} spans  {best:7.3f} s  "
        f"{frames / best:>10,.0f} frames/s  {mb / best:8.1f} MB/s"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=100_000, help="frames in the archive (default 100000)")
    parser.add_argument("--size", type=int, default=1800, help="payload bytes per frame (default 1800)")
    parser.add_argument("--corrupt", type=float, default=0.01, help="fraction of frames to damage (default 0.01)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per case; the best is reported")
    args = parser.parse_args(argv)

    data, offsets = build(args.records, args.size)
    print(f"archive: {args.records:,} records x {args.size} B payload = {len(data) / 1e6:.1f} MB")
    measure("clean", data, args.repeat)
    damaged, count = corrupt(data, offsets, args.corrupt, args.size)
    measure(f"{count / args.records:.0%} corrupt", damaged, args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
