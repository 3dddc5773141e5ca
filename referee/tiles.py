"""Tile kinds: the 34 indices the engine uses, their notation, names and proto codes.

Index layout: 0-8 = 1m..9m (万), 9-17 = 1p..9p (筒), 18-26 = 1s..9s (条),
27-30 = E S W N (东南西北), 31-33 = C F P (中发白).
"""
from __future__ import annotations

import re
from typing import Iterable

KINDS = 34
SUITS = "mps"
HONOR_LETTERS = "ESWNCFP"
NAMES = tuple(f"{r}{s}" for s in SUITS for r in range(1, 10)) + tuple(HONOR_LETTERS)
_SUIT_CN = {"m": "万", "p": "筒", "s": "条"}
_NUM_CN = "一二三四五六七八九"
CHINESE = tuple(f"{_NUM_CN[r - 1]}{_SUIT_CN[s]}" for s in SUITS for r in range(1, 10)) + (
    "东", "南", "西", "北", "中", "发", "白",
)
HONORS = range(27, 34)
WINDS = range(27, 31)
DRAGONS = range(31, 34)
TERMINALS_AND_HONORS = (0, 8, 9, 17, 18, 26, *HONORS)
PARTS = ((0, 9), (9, 18), (18, 27), (27, 34))  # (first, last + 1) kind of each suit_of value
_INDEX = {name: i for i, name in enumerate(NAMES)}


def is_honor(t: int) -> bool:
    return t >= 27


def suit_of(t: int) -> int:
    """0, 1, 2 for 万 筒 条; 3 for honors."""
    return t // 9 if t < 27 else 3


def suits_held(counts) -> set[int]:
    """The suits (0 万, 1 筒, 2 条) with a tile among these 34 counts; honors left out."""
    return {q for q in range(3) if any(counts[9 * q:9 * q + 9])}


def holds_honor(counts) -> bool:
    return any(counts[27:34])


def rank_of(t: int) -> int:
    """1..9 for suited tiles, 0 for honors."""
    return t % 9 + 1 if t < 27 else 0


def _code(t: int) -> int:
    return (t // 9 + 1) * 10 + t % 9 + 1 if t < 27 else 41 + t - 27


FROM_CODE = {_code(t): t for t in range(KINDS)}  # proto Tile code -> index
_FROM_CODE = FROM_CODE


def from_proto(code: int) -> int:
    """The index of a proto Tile code; ValueError for a code that is no tile."""
    try:
        return _FROM_CODE[code]
    except KeyError:
        raise ValueError(f"impossible tile code {code}") from None


def to_proto(t: int) -> int:
    return _code(t)


def parse(text: str) -> list[int]:
    """Tiles from notation: '123m 55p EEE C' or '1m 2m 3m'. Order is kept."""
    tiles: list[int] = []
    for digits, suit, honors in re.findall(r"(\d+)([mps])|([ESWNCFP]+)", text.replace(" ", "")):
        if honors:
            tiles.extend(_INDEX[h] for h in honors)
        else:
            tiles.extend(_INDEX[f"{d}{suit}"] for d in digits if d != "0")
    leftover = re.sub(r"\d+[mps]|[ESWNCFP]", "", text.replace(" ", ""))
    if leftover:
        raise ValueError(f"cannot read tiles {text!r}: {leftover!r}")
    return tiles


def counts(tiles: Iterable[int]) -> list[int]:
    vector = [0] * KINDS
    for t in tiles:
        vector[t] += 1
    return vector


def format_tiles(tiles: Iterable[int]) -> str:
    """Compact notation, suits grouped: '123m55pEEE'."""
    tiles = sorted(tiles)
    out, run_suit = [], None
    for t in tiles:
        if t >= 27:
            if run_suit is not None:
                out.append(SUITS[run_suit])
                run_suit = None
            out.append(NAMES[t])
        else:
            suit = t // 9
            if run_suit is not None and suit != run_suit:
                out.append(SUITS[run_suit])
            run_suit = suit
            out.append(str(t % 9 + 1))
    if run_suit is not None:
        out.append(SUITS[run_suit])
    return "".join(out)


def format_counts(vector: list[int]) -> str:
    """format_tiles of a count vector, without listing and sorting the tiles."""
    out = []
    for s, suit in enumerate(SUITS):
        digits = "".join(str(r + 1) * vector[9 * s + r] for r in range(9) if vector[9 * s + r] > 0)
        if digits:
            out.append(digits + suit)
    out.extend(HONOR_LETTERS[i] * vector[27 + i] for i in range(7) if vector[27 + i] > 0)
    return "".join(out)


def label(t: int) -> str:
    """'5m (五万)': notation plus the Chinese name, for explanations."""
    return f"{NAMES[t]} ({CHINESE[t]})"
