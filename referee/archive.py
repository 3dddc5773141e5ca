"""Archives of many hand records: TFRecord framing, corruption-tolerant scans, pack/unpack.

Framing is TensorFlow's TFRecord, byte for byte. Each record is

    uint64 length (little-endian) | uint32 masked crc32c(length bytes) | payload | uint32 masked crc32c(payload)

with mask(c) = ((c >> 15) | (c << 17)) + 0xa282ead8 (mod 2**32). An archive file may be
compressed whole with gzip or zstd; readers detect that by magic bytes, writers by suffix.

Scan rule
---------
A *valid frame at o* is an offset where the 12-byte header fits, the length CRC matches, the
whole frame (16 + length bytes) fits in the data and the payload CRC matches.

The *walk* over data of n bytes starts at p = 0 and repeats until p == n:
  * a valid frame at p: report ``Frame(p, 16 + length, payload)``, continue at its end;
  * otherwise: let q be the smallest offset > p with a valid frame (n if none); report
    ``CorruptSpan(p, q - p, reason)``, continue at q.
Frames and spans therefore tile [0, n) with no gaps or overlaps, and no valid frame starts
strictly inside a corrupt span (q is the *smallest* such offset).

Splitting: ``scan(data, start, end)`` reports
  * the walk's frames whose offset is in [start, end),
  * after each of them, the span that follows it on the walk, even if that span starts at or
    after ``end`` (a span belongs with the frame before it), and
  * the span at offset 0, if there is one and 0 is in [start, end).
So each item of the walk is reported by exactly one range of a partition of [0, n), and
scanning [0, a), [a, b), [b, n) in turn reports exactly the whole scan, in order, with no
duplicates or gaps (tests/test_archive.py checks this by property against a byte-by-byte
reference). That is what an offset-range restriction needs: claim each frame's offset, and emit
the span after a frame before claiming the next one.

A range with start > 0 begins at the smallest valid offset >= start. That is the walk's first
frame at or after start. Let p be the last walk position <= start. If p == start and p is a
frame, start itself is the answer. If [p, next) is a span, no valid offset lies inside it (the
walk jumped to the smallest one), so the answer is next, a frame. If [p, next) is a frame and
p < start, the walk continues at next (or, if next is invalid, at the smallest valid offset after
it), which is the first valid offset >= start *provided no valid frame starts strictly inside the
frame [p, next)*. That proviso is the one accepted limit: a payload that itself carries
TFRecord-framed bytes (say a string field holding a framed record) makes a range starting inside
it report the embedded frame as well. Our writers never nest frames, and a random offset passes
both CRC checks with odds of about 2**-64, so this needs framed bytes put inside a record on
purpose; the whole-file scan (start = 0) is never affected.
"""
from __future__ import annotations

import gzip
import logging
import mmap
import os
import pathlib
import re
import struct
import zlib
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator

import google_crc32c
import zstandard

from referee import records

log = logging.getLogger(__name__)

ARCHIVE_SUFFIXES = (".tfrecord", ".tfrecords")
COMPRESSION_SUFFIXES = {".gz": "gzip", ".zst": "zstd"}
GZIP_MAGIC = b"\x1f\x8b"
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
HEADER_BYTES = 12  # length + length CRC
OVERHEAD_BYTES = 16  # header + payload CRC

# CorruptSpan reasons: a fixed vocabulary, so dead letters group well.
PAYLOAD_CRC = "payload crc mismatch"
LENGTH_CRC = "length crc mismatch"
TRUNCATED = "truncated record at end of file"
LENGTH_PAST_END = "frame length runs past the end of the file"  # a valid header mid-file; records follow
GARBAGE = "garbage bytes before next valid record"
GARBAGE_AT_END = "garbage bytes at end of file"
DAMAGED = "damaged compressed stream"

_MASK_DELTA = 0xA282EAD8
_crc = google_crc32c.value
_unpack = struct.unpack_from
_ZERO12 = bytes(12)
_NONZERO = re.compile(rb"[^\x00]")


class ArchiveError(ValueError):
    """An archive file that cannot be read at all (e.g. a damaged gzip/zstd stream)."""


@dataclass(frozen=True, slots=True)
class Frame:
    """One valid record: header offset in the uncompressed stream, framed length, payload."""

    offset: int
    length: int
    payload: bytes


@dataclass(frozen=True, slots=True)
class CorruptSpan:
    """A run of bytes that is not a valid frame, with a short reason."""

    offset: int
    length: int
    reason: str


def _masked_crc(data: bytes) -> int:
    c = _crc(data)
    return (((c >> 15) | (c << 17)) + _MASK_DELTA) & 0xFFFFFFFF


# The zero-run shortcut in _next_valid relies on an all-zero header never being valid.
assert _masked_crc(bytes(8)) != 0


def frame(payload: bytes) -> bytes:
    """The TFRecord framing of one payload."""
    payload = bytes(payload)
    header = struct.pack("<Q", len(payload))
    return b"".join(
        (header, struct.pack("<I", _masked_crc(header)), payload, struct.pack("<I", _masked_crc(payload)))
    )


def _valid_length(data, o: int, n: int) -> int:
    """Payload length of the valid frame at o, or -1."""
    if o + HEADER_BYTES > n:
        return -1
    length, lcrc = _unpack("<QI", data, o)
    if lcrc != _masked_crc(data[o : o + 8]):
        return -1
    stop = o + HEADER_BYTES + length
    if stop + 4 > n or _unpack("<I", data, stop)[0] != _masked_crc(data[o + HEADER_BYTES : stop]):
        return -1
    return length


def _next_valid(data, lo: int, n: int) -> int | None:
    """Smallest offset >= lo where a valid frame starts, or None.

    Exact, not heuristic: a valid length is at most n - 16, so its top 8 - k bytes are zero
    (k = bytes needed for n - 16). bytes.find locates those zero bytes at C speed and only
    the offsets it finds get the CRC checks. Inside a long zero run (a common shape of damage)
    every 12-byte all-zero header is invalid, so the run is skipped to its last offsets.
    """
    if n - lo < OVERHEAD_BYTES:
        return None
    k = ((n - OVERHEAD_BYTES).bit_length() + 7) // 8
    zeros = bytes(8 - k)
    s, hi = lo + k, n - 8  # the zeros end at o + 8 <= n - 8
    while True:
        i = data.find(zeros, s, hi)
        if i < 0:
            return None
        o = i - k
        if _valid_length(data, o, n) >= 0:
            return o
        if data[o : o + HEADER_BYTES] == _ZERO12:
            m = _NONZERO.search(data, o + HEADER_BYTES)
            run_end = m.start() if m else n
            s = run_end - (HEADER_BYTES - 1) + k  # first o' whose header reaches past the run
        else:
            s = i + 1


def _diagnose(data, p: int, stop: int, n: int) -> str:
    """Why [p, stop) is not a frame, judged from its first bytes."""
    if p + HEADER_BYTES > n:
        return TRUNCATED
    length, lcrc = _unpack("<QI", data, p)
    if lcrc == _masked_crc(data[p : p + 8]):
        if p + OVERHEAD_BYTES + length <= n:
            return PAYLOAD_CRC
        return TRUNCATED if stop >= n else LENGTH_PAST_END
    # Bad header. If the span is one frame whose payload CRC still holds, only the header broke.
    if stop - p >= OVERHEAD_BYTES and _unpack("<I", data, stop - 4)[0] == _masked_crc(
        data[p + HEADER_BYTES : stop - 4]
    ):
        return LENGTH_CRC
    return GARBAGE if stop < n else GARBAGE_AT_END


def scan(data: bytes, start: int = 0, end: int | None = None) -> Iterator[Frame | CorruptSpan]:
    """Frames and corrupt spans of uncompressed archive bytes, by the rule in the module doc.

    ``data`` should be bytes or an mmap (their slices are bytes); other buffers are copied.
    Frames and spans may extend past ``end``: a range owns what starts in it, not its bytes.
    """
    if not isinstance(data, (bytes, mmap.mmap)):
        data = bytes(data)
    if start < 0:
        raise ValueError(f"start must be >= 0, got {start}")
    n = len(data)
    end = n if end is None else min(end, n)
    if start >= end:
        return
    if start == 0:
        p = 0
    else:
        p = _next_valid(data, start, n)
        if p is None:
            return
    crc, unpack, delta = _crc, _unpack, _MASK_DELTA
    while p < n:
        # Clean path, inlined: one struct read and one CRC per header and per payload.
        if p + HEADER_BYTES <= n:
            length, lcrc = unpack("<QI", data, p)
            c = crc(data[p : p + 8])
            if lcrc == (((c >> 15) | (c << 17)) + delta) & 0xFFFFFFFF:
                stop = p + HEADER_BYTES + length
                if stop + 4 <= n:
                    payload = data[p + HEADER_BYTES : stop]
                    c = crc(payload)
                    if unpack("<I", data, stop)[0] == (((c >> 15) | (c << 17)) + delta) & 0xFFFFFFFF:
                        if p >= end:
                            return
                        yield Frame(p, length + OVERHEAD_BYTES, payload)
                        p = stop + 4
                        continue
        # Not a frame at p. We only get here at offset 0 or right after a frame we reported
        # (after a span, p is always valid), so this span is ours by the ownership rule.
        q = _next_valid(data, p + 1, n)
        stop = n if q is None else q
        yield CorruptSpan(p, stop - p, _diagnose(data, p, stop, n))
        p = stop


def compression_for_path(path) -> str | None:
    """"gzip" or "zstd" from a .gz / .zst suffix, else None."""
    return COMPRESSION_SUFFIXES.get(pathlib.Path(path).suffix.lower())


def sniff(head: bytes) -> str:
    """"gzip", "zstd" or "" (plain) from a file's first HEADER_BYTES bytes: a TFRecord header whose
    length CRC holds is plain, whatever its first bytes look like (a first record of 35,615 bytes
    starts with gzip's magic); else the magic bytes decide."""
    if len(head) >= HEADER_BYTES and _unpack("<I", head, 8)[0] == _masked_crc(head[:8]):
        return ""
    if head.startswith(GZIP_MAGIC):
        return "gzip"
    if head.startswith(ZSTD_MAGIC):
        return "zstd"
    return ""


def decompress(raw: bytes) -> tuple[bytes, str | None]:
    """The uncompressed bytes of an archive file as far as they can be read (gzip or zstd by
    sniff, else the bytes as they are), and why they stop short: None when the whole file was
    read. A damaged or truncated compressed stream keeps what came before the damage, so the
    records there are not lost with it."""
    compression = sniff(raw)
    if compression == "gzip":
        return _readable(raw, GZIP_MAGIC, lambda: zlib.decompressobj(31), zlib.error, "gzip", retry=True)
    if compression == "zstd":
        return _readable(raw, ZSTD_MAGIC, lambda: zstandard.ZstdDecompressor().decompressobj(), zstandard.ZstdError,
                         "zstd")
    return raw, None


CHUNK = 1 << 16  # compressed bytes fed at a time
STEP = 256  # after an error, the failing chunk again in steps this size, to keep what precedes it


def _readable(raw: bytes, magic: bytes, new, error, name: str, retry: bool = False) -> tuple[bytes, str | None]:
    """Every member (gzip) or frame (zstd) of the stream, each opening with `magic` and read by a
    `new()` decompressor, decompressed as far as it can be; anything after the last that is not
    one is damage too. `retry`: the decompressor can be copied (zlib), so a failing chunk is fed
    again in small steps."""
    out, pos = [], 0
    while pos < len(raw):
        if not raw.startswith(magic, pos):
            return b"".join(out), f"{len(raw) - pos:,} bytes after the last {name} member are not {name}"
        d = new()
        while not d.eof:
            if pos >= len(raw):
                return b"".join(out), f"the {name} stream is truncated"
            chunk = raw[pos:pos + CHUNK]
            saved = d.copy() if retry else None
            try:
                out.append(d.decompress(chunk))
            except error as err:
                if saved is not None:  # what the chunk held before the damage
                    for at in range(0, len(chunk), STEP):
                        try:
                            out.append(saved.decompress(chunk[at:at + STEP]))
                        except error:
                            break
                return b"".join(out), f"{name}: {err}"
            pos += len(chunk)
        pos -= len(d.unused_data)
    return b"".join(out), None


def scan_file(data: bytes, damage: str | None) -> Iterator[Frame | CorruptSpan]:
    """scan() of an archive file's readable bytes. Where a damaged compressed stream cut them short,
    the span at their end says so: the record the cut went through, or an empty span at the cut."""
    last = None
    for item in scan(data):
        if last is not None:
            yield last
        last = item
    if damage is None:
        if last is not None:
            yield last
        return
    reason = f"{DAMAGED}: {damage}"
    if type(last) is CorruptSpan and last.offset + last.length == len(data):
        yield CorruptSpan(last.offset, last.length, f"{reason} (the readable bytes end inside a record)")
        return
    if last is not None:
        yield last
    yield CorruptSpan(len(data), 0, f"{reason} (after {len(data):,} readable bytes)")


def read_file(path) -> tuple[bytes, str | None]:
    """decompress() of an archive file: its readable bytes, and why they stop short (or None)."""
    with open(path, "rb") as fh:
        return decompress(fh.read())


def read_bytes(path) -> bytes:
    """A whole archive file, decompressed if it is gzip or zstd (by magic bytes); ArchiveError if
    a damaged compressed stream cuts it short."""
    data, damage = read_file(path)
    if damage is not None:
        raise ArchiveError(f"{path}: {DAMAGED}: {damage}")
    return data


def iter_archive(path) -> Iterator[Frame | CorruptSpan]:
    """scan_file() of an archive file: its records, corrupt spans, and any damage to its stream."""
    return scan_file(*read_file(path))


def item_at(path, offset: int) -> Frame | CorruptSpan | None:
    """What starts at byte `offset` of an archive (of its uncompressed bytes, as `mjref verify` and
    the audit name records): the frame, the corrupt span, or None. An uncompressed archive is read
    at that offset only; a gzip or zstd one is decompressed (as far as it can be)."""
    with open(path, "rb") as fh:
        compressed = fh.read(4).startswith((GZIP_MAGIC, ZSTD_MAGIC))
        if not compressed:
            fh.seek(offset)
            header = fh.read(HEADER_BYTES)
            length = int.from_bytes(header[:8], "little") if len(header) == HEADER_BYTES else 0
            chunk = header + fh.read(min(length, 1 << 31) + 4)
    if compressed:
        data, _damage = read_file(path)
        length = int.from_bytes(data[offset:offset + 8], "little")
        chunk = data[offset:offset + OVERHEAD_BYTES + length]
    first = next(iter(scan(chunk)), None)
    if isinstance(first, Frame) and first.offset == 0:
        return Frame(offset, first.length, first.payload)
    return next((item for item in iter_archive(path) if isinstance(item, CorruptSpan) and item.offset == offset), None)


def split_source(name: str) -> tuple[pathlib.Path, int] | None:
    """(archive, offset) for a name of the form ARCHIVE@OFFSET whose archive exists, else None."""
    path, at, offset = str(name).rpartition("@")
    if at and offset.isdigit() and not pathlib.Path(name).exists() and pathlib.Path(path).is_file():
        return pathlib.Path(path), int(offset)
    return None


def is_archive_path(path) -> bool:
    """True for .tfrecord / .tfrecords, optionally followed by .gz or .zst."""
    name = pathlib.Path(path).name.lower()
    for suffix in COMPRESSION_SUFFIXES:
        if name.endswith(suffix):
            name = name[: -len(suffix)]
            break
    return name.endswith(ARCHIVE_SUFFIXES)


def write_archive(path, payloads: Iterable[bytes], compression: str | None = None) -> int:
    """Write payloads as framed records; returns how many.

    compression: None (infer from .gz / .zst suffix), "gzip", "zstd" or "none". gzip output is
    deterministic (mtime 0, no file name). The file appears only when complete: we write a
    temporary file next to it and rename, so a failing payload iterator leaves nothing behind.
    """
    path = pathlib.Path(path)
    if compression is None:
        compression = compression_for_path(path)
    elif compression == "none":
        compression = None
    if compression not in (None, "gzip", "zstd"):
        raise ValueError(f"unknown compression {compression!r}: use None, 'none', 'gzip' or 'zstd'")
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    count = 0
    try:
        with open(tmp, "wb") as raw:
            if compression == "gzip":
                out = gzip.GzipFile(filename="", mode="wb", fileobj=raw, compresslevel=6, mtime=0)
            elif compression == "zstd":
                out = zstandard.ZstdCompressor(level=3, write_checksum=True).stream_writer(raw, closefd=False)
            else:
                out = raw
            for payload in payloads:
                out.write(frame(payload))
                count += 1
            if out is not raw:
                out.close()  # flushes the compressed trailer; raw stays open
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return count


def _is_record_file(path: pathlib.Path) -> bool:
    return records.is_text_path(path) or records.is_binary_path(path)


def walk_dir(top, wanted: Callable[[pathlib.Path], bool]) -> tuple[list[pathlib.Path], list[pathlib.Path]]:
    """(the files under a directory that `wanted` takes, the others), recursively, in path order.

    Every command that walks a directory (verify, view's listing, pack, audit) leaves out hidden
    entries (".name": editor and OS droppings, tools' temporary files) and names it does not read;
    it reports the second list instead of dropping them in silence. A hidden directory is one entry.
    """
    top = pathlib.Path(top)
    taken, left = [], []
    for dirpath, dirnames, filenames in os.walk(top):
        left.extend(pathlib.Path(dirpath, d) for d in dirnames if d.startswith("."))
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        for f in filenames:
            path = pathlib.Path(dirpath, f)
            (taken if not f.startswith(".") and wanted(path) else left).append(path)
    order = lambda p: p.relative_to(top).parts  # noqa: E731
    return sorted(taken, key=order), sorted(left, key=order)


def record_paths(inputs) -> Iterator[pathlib.Path]:
    """Record files named by inputs, in order; directories walk recursively, sorted by path.

    Inside directories only record suffixes count and hidden entries (".name") are skipped
    (walk_dir). A file named directly is always read.
    """
    if isinstance(inputs, (str, os.PathLike)):
        inputs = [inputs]
    for item in inputs:
        top = pathlib.Path(item)
        if top.is_dir():
            yield from walk_dir(top, _is_record_file)[0]
        elif top.is_file():
            yield top
        else:
            raise records.RecordError(f"{top}: no such file or directory")


def pack(inputs, out_path, compression: str | None = None) -> int:
    """Pack record files (or directories of them) into one archive; returns the record count.

    Each record is re-encoded deterministically (records.to_binary). An unreadable input raises
    records.RecordError naming its path, and no archive is written.
    """

    def payloads() -> Iterator[bytes]:
        for path in record_paths(inputs):
            if is_archive_path(path):
                raise records.RecordError(f"{path}: is an archive, not a single record file")
            try:
                record = records.read_record(path)
            except records.RecordError as err:
                if str(path) in str(err):
                    raise
                raise records.RecordError(f"{path}: {err}") from None
            yield records.to_binary(record)

    return write_archive(out_path, payloads(), compression)


def _safe_stem(game_id: str) -> str:
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", game_id).strip("._-")[:80]
    return stem or "record"


def unpack(archive_path, out_dir, fmt: str = "textproto") -> tuple[int, list[CorruptSpan]]:
    """Write each record of an archive to out_dir; returns (records written, problems).

    Files are ``NNNNNN-<game_id>.textproto`` (or ``.binpb`` for fmt="binary", the payload bytes
    as stored), NNNNNN being the frame's index in the archive. Nothing is dropped silently:
    corrupt byte spans are returned, and a frame whose CRCs hold but whose payload is not a
    GameRecord is written raw to ``NNNNNN-undecodable.binpb`` and returned as a CorruptSpan
    covering that frame (not counted as a record).
    """
    if fmt not in ("textproto", "binary"):
        raise ValueError(f"unknown format {fmt!r}: use 'textproto' or 'binary'")
    out = pathlib.Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    count, index, problems = 0, 0, []
    for item in iter_archive(archive_path):
        if isinstance(item, CorruptSpan):
            problems.append(item)
            continue
        try:
            record = records.parse_binary(item.payload)
        except records.RecordError as err:
            name = f"{index:06d}-undecodable.binpb"
            (out / name).write_bytes(item.payload)
            reason = f"payload is not a GameRecord ({err}); raw bytes in {name}"
            log.warning("%s: frame at offset %d: %s", archive_path, item.offset, reason)
            problems.append(CorruptSpan(item.offset, item.length, reason))
        else:
            stem = f"{index:06d}-{_safe_stem(record.game_id)}"
            if fmt == "textproto":
                (out / f"{stem}.textproto").write_text(records.to_text(record), encoding="utf-8")
            else:
                (out / f"{stem}.binpb").write_bytes(item.payload)
            count += 1
        index += 1
    return count, problems
