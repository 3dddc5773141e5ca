"""Writes samples/archives/samples.tfrecord: every sample record (Hebei, Ningxiang, Harbin, Dalian), plus
deliberate damage so an audit shows every table: a smashed byte inside one frame, garbage
between two frames, a frame whose payload is no GameRecord, and a truncated tail.

    python samples/make_archive.py
"""
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent))

from referee import archive, records  # noqa: E402

OUT = ROOT / "archives" / "samples.tfrecord"
DIRECTORIES = ("hebei", "ningxiang", "harbin", "dalian")  # in this order; the damage falls on the first ones


def build() -> tuple[bytes, int]:
    """The archive's bytes and how many records it holds."""
    paths = [p for d in DIRECTORIES for p in sorted((ROOT / d).glob("*.textproto"))]
    frames = [archive.frame(records.to_binary(records.read_record(p))) for p in paths]
    smashed = bytearray(frames[3])
    smashed[len(smashed) // 2] ^= 0xFF  # its payload CRC no longer matches
    frames[3] = bytes(smashed)
    frames.insert(7, b"this is not a frame")  # garbage between records
    frames.insert(12, archive.frame(b"\xff\xff\xff\xff not a GameRecord"))  # whole, but undecodable
    data = b"".join(frames)
    data += archive.frame(records.to_binary(records.read_record(paths[0])))[:40]  # truncated tail
    return data, len(paths)


def main() -> None:
    data, count = build()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_bytes(data)
    print(f"wrote {OUT}: {count} records, 1 smashed, 1 undecodable, garbage and a truncated tail")


if __name__ == "__main__":
    main()
