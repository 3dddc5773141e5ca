"""Reading and writing single hand records: binary protobuf and textproto.

Archives of many records live in referee/archive.py; this module only knows one
record at a time and turns every way a record can be unreadable into RecordError.
"""
from __future__ import annotations

import pathlib

from google.protobuf import message as _message
from google.protobuf import text_format

from referee.proto import record_pb2 as pb

GameRecord = pb.GameRecord
TEXT_SUFFIXES = (".textproto", ".txtpb", ".pbtxt")
BINARY_SUFFIXES = (".binpb", ".pb")


EMPTY = "empty record (no field of GameRecord is set)"


class RecordError(ValueError):
    """A record whose bytes or text cannot be read as a GameRecord."""


def _not_empty(record: pb.GameRecord) -> pb.GameRecord:
    # Empty bytes, an empty file or a textproto of comments parse as a GameRecord with nothing in
    # it; judged, that reads "unknown ruleset ''". Say what it is instead.
    if not record.game_id and not record.events and not record.ListFields():
        raise RecordError(EMPTY)
    return record


def parse_binary(data: bytes) -> pb.GameRecord:
    """A GameRecord from its bytes; RecordError if they are not one, or hold no field at all."""
    record = pb.GameRecord()
    try:
        record.ParseFromString(data)
    except _message.DecodeError as err:
        raise RecordError(f"not a GameRecord: {err or 'protobuf decode error'}") from None
    return _not_empty(record)


def parse_text(text: str) -> pb.GameRecord:
    try:
        record = text_format.Parse(text, pb.GameRecord())
    except text_format.ParseError as err:
        raise RecordError(f"textproto: {err}") from None
    return _not_empty(record)


def to_binary(record: pb.GameRecord) -> bytes:
    # Deterministic: map fields (rule options) are written in key order.
    return record.SerializeToString(deterministic=True)


def to_text(record: pb.GameRecord) -> str:
    return text_format.MessageToString(record, as_utf8=True)


def is_text_path(path: pathlib.Path) -> bool:
    return path.suffix.lower() in TEXT_SUFFIXES  # (any case, as archive names are)


def is_binary_path(path: pathlib.Path) -> bool:
    return path.suffix.lower() in BINARY_SUFFIXES


def read_record(path: str | pathlib.Path) -> pb.GameRecord:
    """One record from a file; the suffix says text or binary (binary if unknown)."""
    path = pathlib.Path(path)
    try:
        data = path.read_bytes()
    except OSError as err:
        raise RecordError(f"cannot read {path}: {err.strerror}") from None
    if is_text_path(path):
        try:
            return parse_text(data.decode("utf-8"))
        except UnicodeDecodeError as err:
            raise RecordError(f"textproto is not UTF-8: {err}") from None
    return parse_binary(data)


def write_record(record: pb.GameRecord, path: str | pathlib.Path) -> None:
    path = pathlib.Path(path)
    if is_text_path(path):
        path.write_text(to_text(record), encoding="utf-8")
    else:
        path.write_bytes(to_binary(record))
