"""Row validation against the Arrow schemas, in the referee step: a row that cannot be written is
found while its record can still become an error row, never later, when a whole batch of other
records' rows is turned into an Arrow table and one bad value would fail the job.

The check is strict where Arrow is lenient: an int column takes a Python int (not a bool or a
float) in the column's range; a string column a str that encodes as UTF-8, of at most
MAX_STRING_BYTES bytes; a list column a list or tuple; a struct column a dict; None only where
the column is nullable. Everything it accepts, pyarrow converts (tests/test_fuzz.py checks that
by property).

MAX_STRING_BYTES bounds a single value. With the chunking in pipelines/tables.py (at most
CHUNK_ROWS rows per Arrow batch) it keeps every string column of a batch far below Arrow's
2 GiB offset limit, whatever the records hold. Error rows are never rejected: they are cut to fit
by rows.error_row.
"""
from __future__ import annotations

from typing import Callable

import pyarrow as pa

MAX_STRING_BYTES = 64 * 1024

Check = Callable[[object], "str | None"]

_INT_RANGES = {
    pa.int8(): (-(1 << 7), (1 << 7) - 1),
    pa.int16(): (-(1 << 15), (1 << 15) - 1),
    pa.int32(): (-(1 << 31), (1 << 31) - 1),
    pa.int64(): (-(1 << 63), (1 << 63) - 1),
}


def show(value) -> str:
    """A short, always printable description of a value that did not fit (never its whole text)."""
    if type(value) is int:
        return str(value) if -(10 ** 24) < value < 10 ** 24 else f"an integer of {value.bit_length()} bits"
    if type(value) is str:
        return f"a string of {len(value):,} characters"
    return f"a value of type {type(value).__name__}"


def utf8_length(text: str) -> int | None:
    """Bytes of text as UTF-8, or None if it cannot be encoded (a lone surrogate)."""
    if text.isascii():  # O(1) in CPython: the string's ASCII flag
        return len(text)
    try:
        return len(text.encode("utf-8"))
    except UnicodeEncodeError:
        return None


def _nullable(check: Check, nullable: bool) -> Check:
    if not nullable:
        def not_null(v):
            return "null in a column that is never null" if v is None else check(v)
        return not_null

    def maybe(v):
        return None if v is None else check(v)
    return maybe


def checker(type_: pa.DataType, nullable: bool) -> Check:
    """A function value -> None if it fits a column of this type, else why not."""
    if type_ in _INT_RANGES:
        lo, hi = _INT_RANGES[type_]

        def integer(v):
            if type(v) is int and lo <= v <= hi:
                return None
            if type(v) is int:
                return f"{show(v)} does not fit {type_}"
            return f"{show(v)} is not an integer"
        return _nullable(integer, nullable)
    if pa.types.is_boolean(type_):
        def boolean(v):
            return None if type(v) is bool else f"{show(v)} is not a bool"
        return _nullable(boolean, nullable)
    if pa.types.is_string(type_):
        def string(v):
            if type(v) is not str:
                return f"{show(v)} is not a string"
            n = utf8_length(v)
            if n is None:
                return "a string that is not valid Unicode (a lone surrogate)"
            if n > MAX_STRING_BYTES:
                return f"a string of {n:,} bytes, over the {MAX_STRING_BYTES:,}-byte limit"
            return None
        return _nullable(string, nullable)
    if pa.types.is_list(type_):
        item = checker(type_.value_type, type_.value_field.nullable)

        def listing(v):
            if type(v) is not list and type(v) is not tuple:
                return f"{show(v)} is not a list"
            for i, x in enumerate(v):
                why = item(x)
                if why is not None:
                    return f"item {i}: {why}"
            return None
        return _nullable(listing, nullable)
    if pa.types.is_struct(type_):
        fields = [(f.name, checker(f.type, f.nullable)) for f in type_]

        def struct(v):
            if type(v) is not dict:
                return f"{show(v)} is not a struct"
            for name, check in fields:
                if name not in v:
                    return f"no field {name!r}"
                why = check(v[name])
                if why is not None:
                    return f"{name}: {why}"
            return None
        return _nullable(struct, nullable)
    raise TypeError(f"no row check for Arrow type {type_}")  # a schema change must add one


class RowValidator:
    """Checks dict rows against one schema; `first_problem(rows)` is None when all of them fit."""

    def __init__(self, name: str, schema: pa.Schema):
        self.name = name
        self._columns = [(f.name, checker(f.type, f.nullable)) for f in schema]

    def first_problem(self, rows) -> str | None:
        if type(rows) is dict:
            rows = (rows,)
        for i, row in enumerate(rows):
            if type(row) is not dict:
                return f"{self.name}: row {i + 1} of {len(rows)} is {show(row)}, not a dict"
            for column, check in self._columns:
                try:
                    value = row[column]
                except KeyError:
                    return f"{self.name}: row {i + 1} of {len(rows)} has no column {column!r}"
                why = check(value)
                if why is not None:
                    where = f" (row {i + 1} of {len(rows)})" if len(rows) > 1 else ""
                    return f"{self.name}.{column}{where}: {why}"
        return None


def validators(tables: dict[str, pa.Schema]) -> dict[str, RowValidator]:
    return {name: RowValidator(name, schema) for name, schema in tables.items()}
