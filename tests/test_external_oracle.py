"""referee.shapes against an external oracle: the `mahjong` package (MahjongRepository/mahjong).

Its shanten calculators are an independent implementation of the same hand shapes (Riichi's,
which agree with ours where both define them): a regular hand is complete at shanten -1, seven
pairs likewise (Riichi wants seven *different* pairs, so hands with four of a kind are left out
here; ours counts them as two pairs, SPEC NX/TDH 豪华七对), thirteen orphans likewise. Wilds are
checked by substituting every kind within four copies, each filling judged by the package.

Seeded, so CI sees the same hands every run. Skipped only where the package is missing (it is
in the `test` extra).
"""
from __future__ import annotations

import itertools
import random

import pytest

from referee import shapes
from referee.tiles import KINDS
from test_shapes import drop, near_win, wall_hand

shanten_module = pytest.importorskip("mahjong.shanten")
SHANTEN = shanten_module.Shanten()
COMPLETE = shanten_module.Shanten.AGARI_STATE  # -1


def regular(vec) -> bool:
    return SHANTEN.calculate_shanten_for_regular_hand(list(vec)) == COMPLETE


def seven_pairs(vec) -> bool:
    return SHANTEN.calculate_shanten_for_chiitoitsu_hand(list(vec)) == COMPLETE


def orphans(vec) -> bool:
    return SHANTEN.calculate_shanten_for_kokushi_hand(list(vec)) == COMPLETE


def oracle_wild_win(vec, wilds: int) -> bool:
    """Some filling of the wilds (any kinds, at most four copies of each) is a regular win."""
    for kinds in itertools.combinations_with_replacement(range(KINDS), wilds):
        filled = list(vec)
        for t in kinds:
            filled[t] += 1
        if max(filled) <= 4 and regular(filled):
            return True
    return False


def hands(seed: int, count: int, size: int) -> list[list[int]]:
    """Hands of `size` tiles, most one or two swaps from a win (random hands rarely win)."""
    rng = random.Random(seed)
    sets = -(-(size - 2) // 3)  # enough sets for `size` tiles; the extra ones are dropped
    out = []
    for i in range(count):
        if i % 5 == 0:
            out.append(wall_hand(rng, size))
            continue
        vec = near_win(rng, sets, rng.choice((0, 0, 1, 2)))
        out.append(drop(rng, vec, sum(vec) - size) if sum(vec) > size else vec)
    return out


def test_the_oracle_sees_both_answers():
    wins = [regular(v) for v in hands(1, 400, 14)]
    assert 50 < sum(wins) < 350  # the corpus has winning and non-winning hands


def test_standard_win_matches_the_package():
    for vec in hands(2, 3000, 14):
        assert shapes.is_standard_win(vec) == regular(vec), vec


@pytest.mark.parametrize("size", [2, 5, 8, 11, 14])
def test_standard_win_of_open_hands_matches_the_package(size):
    """Fewer concealed tiles (a seat with melds): the package takes them the same way."""
    for vec in hands(3 + size, 500, size):
        assert shapes.is_standard_win(vec) == regular(vec), vec


def test_standard_waits_match_the_package():
    """Waits of a 13-tile hand: each kind t with hand + t complete, never a fifth copy."""
    for vec in hands(4, 1500, 13):
        expected = tuple(t for t in range(KINDS) if vec[t] < 4 and regular([*vec[:t], vec[t] + 1, *vec[t + 1:]]))
        assert shapes.standard_waits(vec) == expected, vec


def test_seven_pairs_match_the_package():
    rng = random.Random(5)
    checked = 0
    for _ in range(3000):
        vec = [0] * KINDS
        for t in rng.sample(range(KINDS), 7):
            vec[t] = 2
        for _ in range(rng.choice((0, 1, 2))):  # a swap or two, some leaving a single
            vec[rng.choice([t for t in range(KINDS) if vec[t]])] -= 1
            vec[rng.choice([t for t in range(KINDS) if vec[t] < 3])] += 1
        if max(vec) >= 4:
            continue  # four of a kind: two pairs for us, none for Riichi
        checked += 1
        assert shapes.is_seven_pairs(vec) == seven_pairs(vec), vec
    assert checked > 2000


def test_thirteen_orphans_match_the_package():
    rng = random.Random(6)
    orphan_kinds = [0, 8, 9, 17, 18, 26, *range(27, 34)]
    for _ in range(2000):
        vec = [0] * KINDS
        for t in orphan_kinds:
            vec[t] = 1
        vec[rng.choice(orphan_kinds)] += 1
        for _ in range(rng.choice((0, 0, 1))):
            vec[rng.choice([t for t in range(KINDS) if vec[t]])] -= 1
            vec[rng.randrange(KINDS)] += 1
        assert shapes.is_thirteen_orphans(vec) == orphans(vec), vec


@pytest.mark.parametrize("wilds", [1, 2])
def test_wild_wins_match_the_package_by_substitution(wilds):
    for vec in hands(7 + wilds, 150 if wilds == 1 else 40, 14 - wilds):
        assert shapes.is_standard_win(vec, wilds=wilds) == oracle_wild_win(vec, wilds), (vec, wilds)
