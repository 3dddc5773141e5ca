"""referee.shapes against worked examples and a slow brute-force oracle.

The oracle never reasons about wilds: it substitutes every multiset of concrete kinds
for them (at most 4 copies a kind) and decomposes the concrete hand by plain recursion.
Random hands come from a seeded generator; a few hypothesis properties run derandomized.
"""
from __future__ import annotations

import random
from functools import lru_cache
from itertools import combinations_with_replacement

import pytest
from hypothesis import given, settings, strategies as st

from referee import shapes
from referee.shapes import (
    IMPOSSIBLE,
    Decomposition,
    decompositions,
    is_seven_pairs,
    is_standard_win,
    is_tenpai,
    is_thirteen_orphans,
    standard_cost,
    waits,
)
from referee.tiles import DRAGONS, KINDS, TERMINALS_AND_HONORS, counts, parse

ALL = tuple(range(KINDS))


def c(text: str) -> list[int]:
    return counts(parse(text))


def plus(vector, *tiles):
    out = list(vector)
    for t in tiles:
        out[t] += 1
    return out


# ---------------------------------------------------------------------------------------
# The oracle.
#
# Wilds are never reasoned about: every wild becomes every kind (never past room, 4 copies
# by default), and the concrete hand is decomposed by plain recursion (the lowest tile
# left goes into a pair, a pung or a chow starting at it). For speed the substitution is
# done one part at a time (the three suits, the honors): no set spans two parts, so a
# concrete hand wins exactly when every part splits into sets and one of them also holds
# the pair, and substituting w wilds over 34 kinds is the same as splitting w among the
# parts and substituting within each. test_part_oracle_matches_plain_substitution checks
# that against plain substitution over the whole hand.

PARTS = (range(0, 9), range(9, 18), range(18, 27), range(27, 34))
FULL_ROOM = (4,) * KINDS


def _concrete_decomps(vec: tuple[int, ...], chows=True):
    """Yield (pair, sorted sets) for a concrete hand: take the lowest tile, try each piece."""
    work = list(vec)
    n = len(work)

    def rec(pair, sets):
        i = next((k for k in range(n) if work[k]), None)
        if i is None:
            if pair is not None:
                yield pair, tuple(sorted(sets))
            return
        if pair is None and work[i] >= 2:
            work[i] -= 2
            yield from rec(i, sets)
            work[i] += 2
        if work[i] >= 3:
            work[i] -= 3
            yield from rec(pair, sets + [("pung", i)])
            work[i] += 3
        if chows and i < 27 and i % 9 <= 6 and i + 2 < n and work[i + 1] and work[i + 2]:
            for k in (i, i + 1, i + 2):
                work[k] -= 1
            yield from rec(pair, sets + [("chow", i)])
            for k in (i, i + 1, i + 2):
                work[k] += 1

    yield from rec(None, [])


def _concrete_sets_only(vec: tuple[int, ...], chows: bool) -> bool:
    """A concrete part splits into sets with no pair (same recursion, pair never taken)."""
    work = list(vec)

    def rec():
        i = next((k for k in range(len(work)) if work[k]), None)
        if i is None:
            return True
        if work[i] >= 3:
            work[i] -= 3
            ok = rec()
            work[i] += 3
            if ok:
                return True
        if chows and i <= 6 and work[i + 1] and work[i + 2]:
            for k in (i, i + 1, i + 2):
                work[k] -= 1
            ok = rec()
            for k in (i, i + 1, i + 2):
                work[k] += 1
            if ok:
                return True
        return False

    return rec()


@lru_cache(maxsize=None)
def _concrete_part(full: tuple[int, ...], chows: bool) -> tuple[bool, frozenset]:
    """(splits into sets alone, the kinds that can be the pair of a split with one pair)."""
    return _concrete_sets_only(full, chows), frozenset(pair for pair, _ in _concrete_decomps(full, chows))


@lru_cache(maxsize=None)
def _part_shapes(part: tuple[int, ...], chows: bool, caps: tuple[int, ...], wilds: int,
                 pair_ok: tuple[bool, ...]) -> tuple[bool, bool]:
    """(sets only, sets + an allowed pair): can some substitution of `wilds` wilds within
    caps turn this part into that shape?"""
    sets_only = with_pair = False
    for combo in combinations_with_replacement(range(len(part)), wilds):
        full = list(part)
        for k in combo:
            full[k] += 1
        if any(f > cap for f, cap in zip(full, caps)):
            continue
        sets, pairs = _concrete_part(tuple(full), chows)
        sets_only = sets_only or sets
        with_pair = with_pair or any(pair_ok[p] for p in pairs)
        if sets_only and with_pair:
            break
    return sets_only, with_pair


@lru_cache(maxsize=None)
def _part_even(part: tuple[int, ...], caps: tuple[int, ...], wilds: int) -> bool:
    """Can some substitution of `wilds` wilds within caps make every count of the part even?"""
    for combo in combinations_with_replacement(range(len(part)), wilds):
        full = list(part)
        for k in combo:
            full[k] += 1
        if all(f <= cap and f % 2 == 0 for f, cap in zip(full, caps)):
            return True
    return False


def _splits(total: int, parts: int):
    """Every way to share `total` wilds among `parts` parts."""
    if parts == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in _splits(total - first, parts - 1):
            yield (first,) + rest


def _room(room) -> tuple[int, ...]:
    return FULL_ROOM if room is None else tuple(min(r, 4) for r in room)


def _pair_ok(pair_kinds) -> tuple[bool, ...]:
    return (True,) * KINDS if pair_kinds is None else tuple(t in set(pair_kinds) for t in ALL)


def oracle_win(vec, wilds=0, room=None, pair_kinds=None) -> bool:
    vec, caps, ok = tuple(vec), _room(room), _pair_ok(pair_kinds)
    if (sum(vec) + wilds) % 3 != 2:
        return False
    shape = [lambda w, r=r: _part_shapes(vec[r.start:r.stop], r.start < 27, caps[r.start:r.stop], w,
                                         ok[r.start:r.stop]) for r in PARTS]
    for split in _splits(wilds, 4):
        got = [shape[q](split[q]) for q in range(4)]
        for p in range(4):
            if got[p][1] and all(got[q][0] for q in range(4) if q != p):
                return True
    return False


def oracle_waits(vec, wilds=0, room=None, pair_kinds=None) -> tuple[int, ...]:
    """By definition: kinds t with room for one more and a win for vec + t."""
    caps = _room(room)
    return tuple(t for t in ALL if vec[t] + 1 <= caps[t] and oracle_win(plus(vec, t), wilds, room, pair_kinds))


def _fillings(vec, wilds, room=None):
    """Every concrete hand the wilds can make over the whole hand (within room)."""
    caps = _room(room)
    for combo in combinations_with_replacement(ALL, wilds):
        full = list(vec)
        for t in combo:
            full[t] += 1
        if all(f <= cap for f, cap in zip(full, caps)):
            yield combo, tuple(full)


def plain_oracle_win(vec, wilds=0, room=None, pair_kinds=None) -> bool:
    """Substitution over the whole hand at once (slow; cross-checks oracle_win)."""
    ok = _pair_ok(pair_kinds)
    return any(
        sum(full) % 3 == 2 and any(ok[pair] for pair, _ in _concrete_decomps(full))
        for _, full in _fillings(vec, wilds, room)
    )


def oracle_decomps(vec, wilds=0, room=None, pair_kinds=None) -> list[Decomposition]:
    ok = _pair_ok(pair_kinds)
    found = set()
    for _, full in _fillings(vec, wilds, room):
        if sum(full) % 3 == 2:
            found.update(Decomposition(p, s) for p, s in _concrete_decomps(full) if ok[p])
    return sorted(found)


def oracle_seven_pairs(vec, wilds=0, room=None) -> bool:
    """Every count even (a quad is two pairs), 14 tiles; substituted one part at a time."""
    vec, caps = tuple(vec), _room(room)
    if sum(vec) + wilds != 14:
        return False
    return any(all(_part_even(vec[r.start:r.stop], caps[r.start:r.stop], split[q]) for q, r in enumerate(PARTS))
               for split in _splits(wilds, 4))


def plain_oracle_seven_pairs(vec, wilds=0, room=None) -> bool:
    return any(sum(full) == 14 and all(n % 2 == 0 for n in full) for _, full in _fillings(vec, wilds, room))


def oracle_orphans(vec, wilds=0, pair_kinds=None, room=None) -> bool:
    """Every wild becomes every terminal or honor (a wild as any other kind would put a
    non-orphan tile in the hand, which never wins this way), within room."""
    allowed = set(TERMINALS_AND_HONORS if pair_kinds is None else pair_kinds)
    caps = _room(room)
    if sum(vec) + wilds != 14 or any(vec[t] for t in ALL if t not in TERMINALS_AND_HONORS):
        return False
    for combo in combinations_with_replacement(TERMINALS_AND_HONORS, wilds):
        full = plus(vec, *combo)
        if any(full[t] > caps[t] for t in ALL):
            continue
        if all(full[t] >= 1 for t in TERMINALS_AND_HONORS):
            double = [t for t in TERMINALS_AND_HONORS if full[t] == 2]
            if len(double) == 1 and double[0] in allowed:
                return True
    return False


def test_oracle_is_not_vacuous():
    # The oracle itself must say no sometimes, or every comparison below is hollow.
    assert oracle_win(c("123m456p789sEEE11m"))
    assert not oracle_win(c("123m456p789sESW11m"))
    assert not oracle_win(c("2222m"), 1)
    assert oracle_waits(c("1112345678999m")) == tuple(range(9))


# ---------------------------------------------------------------------------------------
# Hand generators.

WALL = [t for t in ALL for _ in range(4)]


def wall_hand(rng: random.Random, n: int) -> list[int]:
    return counts(rng.sample(WALL, n))


def near_win(rng: random.Random, n_sets: int, swaps: int) -> list[int]:
    """n_sets random sets + a pair (4-copy limit kept), then `swaps` tiles exchanged."""
    while True:
        vec = [0] * KINDS
        vec[rng.randrange(KINDS)] += 2
        for _ in range(n_sets):
            if rng.random() < 0.6:
                s = rng.choice([t for t in range(27) if t % 9 <= 6])
                for k in (s, s + 1, s + 2):
                    vec[k] += 1
            else:
                vec[rng.randrange(KINDS)] += 3
        if max(vec) <= 4:
            break
    for _ in range(swaps):
        held = [t for t in ALL if vec[t]]
        vec[rng.choice(held)] -= 1
        vec[rng.choice([t for t in ALL if vec[t] < 4])] += 1
    return vec


def drop(rng: random.Random, vec: list[int], n: int) -> list[int]:
    """Remove n random tiles (turning them into wilds, or making a 3k+1 hand)."""
    vec = list(vec)
    for _ in range(n):
        vec[rng.choice([t for t in ALL if vec[t]])] -= 1
    return vec


def mixed_hands(seed: int, count: int, size: int, wilds: int):
    """`count` hands of `size` tiles including `wilds` wilds: half from the wall, half near-win."""
    rng = random.Random(seed)
    n_sets = (size - 2) // 3 if size % 3 == 2 else (size - 1) // 3
    for i in range(count):
        if i % 2:
            vec = wall_hand(rng, size - wilds)
        else:
            vec = near_win(rng, n_sets, rng.choice([0, 0, 1, 2]))
            vec = drop(rng, vec, sum(vec) - (size - wilds))
        yield vec


# ---------------------------------------------------------------------------------------
# Worked examples.


def test_nine_gates_waits_on_every_character():
    assert waits(c("1112345678999m")) == tuple(range(9))
    assert is_tenpai(c("1112345678999m"))


def test_known_wins_and_non_wins():
    assert is_standard_win(c("11123445678999m"))
    assert is_standard_win(c("123m456p789sEEECC"))
    assert is_standard_win(c("22m"))
    assert not is_standard_win(c("123m456p789sEEEC"))      # 13 tiles
    assert not is_standard_win(c("13579m2468p1357sE"))     # 13 orphans-ish junk
    assert not is_standard_win(c("123m456p789sESW11m"))    # honors never make sequences
    assert not is_standard_win(c("89m1p123p456p789s11s"))  # sequences never cross suits
    assert not is_standard_win(c("9m1p2p123s456s789s11s"))
    assert not is_standard_win(c("CFP123m456m789mEE"))


def test_honors_wait_only_on_themselves():
    assert waits(c("123m456p789sEEES")) == (28,)
    assert waits(c("123m456p789sEESS")) == (27, 28)
    assert waits(c("123m456p789sEWSN")) == ()


def test_fifth_copy_is_never_a_wait():
    assert waits(c("1111m")) == ()
    assert not is_tenpai(c("1111m"))
    assert waits(c("1111m")) == oracle_waits(tuple(c("1111m")))
    assert waits(c("1111m3mEE")) == (1,)  # 111m + 13m: the kanchan 2m; no fifth 1m
    # A custom predicate gets the same protection.
    assert waits(c("1111m"), win=lambda v, w: True) == tuple(range(1, 34))


def test_four_copy_limit_with_wilds():
    assert not is_standard_win(c("2222m"), 1)  # 222 + 2+wild would need a fifth 2m
    assert not is_standard_win(c("EEEE"), 1)
    assert standard_cost(c("EEEE")) == IMPOSSIBLE
    assert is_standard_win(c("EEE"), 2)
    assert is_standard_win(c("2222m"), 4)       # 123m 234m pair 22m: wilds 1m 3m 3m 4m
    assert standard_cost(c("2222m")) == 4


def test_seven_pairs():
    assert is_seven_pairs(c("1111m2233p4455s66s"))  # a quad is two pairs
    assert is_seven_pairs(c("1133m2233p4455sEE"))
    assert not is_seven_pairs(c("1113m2233p4455sEE"))
    assert not is_seven_pairs(c("1133m2233p4455sE"))  # 13 tiles
    assert is_seven_pairs(c("1113m2233p4455sE"), 1) is False  # two singles, one wild
    assert is_seven_pairs(c("111m2233p4455sEE"), 1)   # the wild is the 4th 1m
    assert is_seven_pairs(c("11m2233p4455sEE"), 2)    # two spare wilds pair up
    assert is_seven_pairs([0] * 34, 14)
    assert waits(c("1133m2233p4455sE"), win=is_seven_pairs) == (27,)
    assert waits(c("1111m2233p4455sE"), win=is_seven_pairs) == (27,)


def test_thirteen_orphans():
    base = c("19m19p19sESWNCFP")
    assert not is_thirteen_orphans(base)  # 13 tiles
    for dup in TERMINALS_AND_HONORS:
        assert is_thirteen_orphans(plus(base, dup))
        assert is_thirteen_orphans(plus(base, dup), pair_kinds=DRAGONS) == (dup in DRAGONS)
    assert not is_thirteen_orphans(plus(base, 1))           # 2m is no orphan
    assert not is_thirteen_orphans(c("119m19p19sESWNCF1m"))  # three 1m, no P
    assert is_thirteen_orphans(base, 1)                      # the wild is the duplicate
    assert is_thirteen_orphans(base, 1, pair_kinds=DRAGONS)  # ... standing for a dragon
    assert not is_thirteen_orphans(base, 1, pair_kinds=[1])  # 2m: never an orphan
    no_p_dup_1m = plus(c("19m19p19sESWNCF"), 0)
    assert is_thirteen_orphans(no_p_dup_1m, 1)               # the wild is the missing P
    assert not is_thirteen_orphans(no_p_dup_1m, 1, pair_kinds=DRAGONS)
    win13 = lambda v, w: is_thirteen_orphans(v, w)
    assert waits(base, win=win13) == TERMINALS_AND_HONORS


def test_wilds_examples():
    assert waits(c("1m")) == (0,)
    assert waits(c("1m"), 3) == ALL                   # 1m + 2 wilds is a set; t + wild a pair
    assert waits([0] * 34, 1) == ALL
    assert waits([0] * 34, 13) == ALL
    assert is_standard_win([0] * 34, 2)
    assert is_standard_win([0] * 34, 14)
    assert not is_standard_win([0] * 34, 3)
    assert waits(c("13m"), 0) == ()                  # 2 tiles: not a 3k+1 hand
    assert waits(c("1m4m"), 2) == (0, 1, 2, 3, 4, 5)  # 1m..6m: 1m + wild pair, 4m + t + wild
    # Any tile but E: EEEE + wild would need the wild as a fifth E.
    assert waits(c("123m456p789sEEE"), 1) == tuple(t for t in ALL if t != 27)
    assert waits(c("123m456p789sEE99m"), 0) == (8, 27)


def test_decompositions_examples():
    pure = decompositions(c("111222333m456p77s"))
    assert pure == [
        Decomposition(24, (("chow", 0), ("chow", 0), ("chow", 0), ("chow", 12))),
        Decomposition(24, (("chow", 12), ("pung", 0), ("pung", 1), ("pung", 2))),
    ]
    # 一条龙 completed by three wilds: the chow 789m must be among the options.
    dragon = Decomposition(9, (("chow", 0), ("chow", 3), ("chow", 6)))
    assert dragon in decompositions(c("123456m11p"), 3)
    assert decompositions(c("123m456p789sESW11m")) == []
    assert decompositions([0] * 34, 2) == [Decomposition(t, ()) for t in ALL]
    assert all(d.pair != 27 for d in decompositions(c("EEEE123m"), 2))


def test_inputs_are_not_mutated_and_are_validated():
    vec = c("1112345678999m")
    before = list(vec)
    waits(vec)
    waits(vec, 1)
    waits(vec, win=lambda v, w: is_standard_win(v, w) or is_seven_pairs(v, w))
    is_tenpai(vec)
    decompositions(plus(vec, 4), 0)
    assert vec == before
    with pytest.raises(ValueError):
        is_standard_win([0] * 33)
    with pytest.raises(ValueError):
        is_standard_win([5] + [0] * 33)
    with pytest.raises(ValueError):
        is_standard_win([0] * 34, -1)


# ---------------------------------------------------------------------------------------
# Seeded random comparisons with the oracle: 7,100 win hands, 3,650 wait hands, 2,050
# decomposition hands, 1,400 seven-pairs and 700 thirteen-orphans hands (3,800 of them with
# wilds), ~25 s on two cores. Half of each batch comes from the wall (almost never wins),
# half is near-win. Measured rates: wins 23-27 % without wilds, 29-47 % with; tenpai
# 29-38 % (100 % for 1-tile hands and for 2 tiles + 2 wilds); seven pairs 33-44 %;
# thirteen orphans ~67 %. Each test also asserts its rate stays in a sane band.

CASES_WIN = [  # (seed, hands, size incl. wilds, wilds)
    (1, 3000, 14, 0), (2, 600, 11, 0), (3, 600, 8, 0), (4, 300, 5, 0), (5, 200, 2, 0),
    (6, 1200, 14, 1), (7, 400, 8, 1), (8, 400, 14, 2), (9, 300, 8, 2),
    (10, 100, 8, 3),
]


@pytest.mark.parametrize("seed,n,size,wilds", CASES_WIN)
def test_standard_win_and_cost_match_oracle(seed, n, size, wilds):
    wins = 0
    for vec in mixed_hands(seed, n, size, wilds):
        expect = oracle_win(tuple(vec), wilds)
        assert is_standard_win(vec, wilds) == expect, (vec, wilds)
        # standard_cost is the exact minimum: the oracle wins with that many, not one fewer.
        cost = standard_cost(vec)
        assert (cost <= wilds) == expect
        if cost < IMPOSSIBLE:
            assert (sum(vec) + cost) % 3 == 2
            if cost <= 2 or (cost == 3 and sum(vec) <= 8):
                assert oracle_win(tuple(vec), cost), vec
            if cost == 3 and sum(vec) <= 8:
                assert not oracle_win(tuple(vec), 0), vec
        wins += expect
    # Guard against generators drifting into all-win or all-lose hands.
    assert 0.1 * n < wins < 0.95 * n, wins


CASES_WAITS = [
    (21, 2000, 13, 0), (22, 500, 10, 0), (23, 300, 7, 0), (24, 200, 4, 0), (25, 100, 1, 0),
    (26, 250, 13, 1), (27, 200, 7, 1), (28, 40, 7, 2), (29, 60, 4, 2),
]


@pytest.mark.parametrize("seed,n,size,wilds", CASES_WAITS)
def test_waits_match_oracle(seed, n, size, wilds):
    tenpai = 0
    for vec in mixed_hands(seed, n, size, wilds):
        expect = oracle_waits(tuple(vec), wilds)
        assert waits(vec, wilds) == expect, (vec, wilds)
        assert is_tenpai(vec, wilds) == bool(expect)
        # The generic path (any predicate) must agree with the standard fast path.
        assert waits(vec, wilds, win=lambda v, w: is_standard_win(v, w)) == expect
        tenpai += bool(expect)
    assert 0.1 * n < tenpai <= n, tenpai


CASES_DECOMP = [(31, 1500, 14, 0), (32, 300, 11, 0), (33, 150, 8, 1), (34, 40, 8, 2), (35, 60, 5, 2)]


@pytest.mark.parametrize("seed,n,size,wilds", CASES_DECOMP)
def test_decompositions_match_oracle(seed, n, size, wilds):
    nonempty = 0
    for vec in mixed_hands(seed, n, size, wilds):
        got = decompositions(vec, wilds)
        assert got == oracle_decomps(tuple(vec), wilds), (vec, wilds)
        assert bool(got) == is_standard_win(vec, wilds)
        nonempty += bool(got)
    assert nonempty > 0.1 * n


def seven_pair_hands(seed: int, n: int, wilds: int):
    rng = random.Random(seed)
    for i in range(n):
        if i % 2:
            yield wall_hand(rng, 14 - wilds)
            continue
        vec = [0] * KINDS
        for t in rng.sample(ALL, 7):
            vec[t] += 2
        if rng.random() < 0.2:  # fold one pair into a quad
            a, b = rng.sample([t for t in ALL if vec[t] == 2], 2)
            vec[a], vec[b] = 4, 0
        for _ in range(rng.choice([0, 0, 1])):
            vec[rng.choice([t for t in ALL if vec[t]])] -= 1
            vec[rng.choice([t for t in ALL if vec[t] < 4])] += 1
        yield drop(rng, vec, wilds)


@pytest.mark.parametrize("seed,wilds,n", [(41, 0, 800), (42, 1, 400), (43, 2, 200)])
def test_seven_pairs_match_oracle(seed, wilds, n):
    hits = 0
    for vec in seven_pair_hands(seed, n, wilds):
        expect = oracle_seven_pairs(tuple(vec), wilds)
        assert is_seven_pairs(vec, wilds) == expect, (vec, wilds)
        hits += expect
    assert 0.1 * n < hits < 0.9 * n


def orphan_hands(seed: int, n: int, wilds: int):
    rng = random.Random(seed)
    for i in range(n):
        vec = [0] * KINDS
        for t in TERMINALS_AND_HONORS:
            vec[t] = 1
        vec[rng.choice(TERMINALS_AND_HONORS)] += 1
        for _ in range(rng.choice([0, 0, 1])):  # sometimes swap in any tile
            vec[rng.choice([t for t in ALL if vec[t]])] -= 1
            vec[rng.choice([t for t in ALL if vec[t] < 4])] += 1
        yield drop(rng, vec, wilds)


@pytest.mark.parametrize("seed,wilds,n", [(51, 0, 300), (52, 1, 300), (53, 2, 100)])
def test_thirteen_orphans_match_oracle(seed, wilds, n):
    hits = 0
    for vec in orphan_hands(seed, n, wilds):
        for pair_kinds in (None, DRAGONS, (0, 27)):
            expect = oracle_orphans(tuple(vec), wilds, pair_kinds)
            assert is_thirteen_orphans(vec, wilds, pair_kinds) == expect, (vec, wilds, pair_kinds)
            hits += expect
    assert hits > 0.1 * n


# ---------------------------------------------------------------------------------------
# Hypothesis properties (derandomized, so CI runs the same examples every time).

sparse_hands = st.lists(st.sampled_from(ALL), max_size=14).map(counts).filter(lambda v: max(v) <= 4)


@settings(max_examples=300, derandomize=True, deadline=None)
@given(sparse_hands, st.integers(0, 2))
def test_win_matches_oracle_hypothesis(vec, wilds):
    total = sum(vec) + wilds
    if wilds == 2 and total > 11:
        wilds = 1  # keep the oracle quick
    assert is_standard_win(vec, wilds) == oracle_win(tuple(vec), wilds)


@settings(max_examples=200, derandomize=True, deadline=None)
@given(sparse_hands, st.integers(0, 3))
def test_wild_replacing_a_tile_keeps_a_win(vec, wilds):
    # A wild can always stand for the tile it replaces, so wins survive the swap.
    if is_standard_win(vec, wilds) and any(vec):
        t = next(k for k in ALL if vec[k])
        fewer = list(vec)
        fewer[t] -= 1
        assert is_standard_win(fewer, wilds + 1)
        assert standard_cost(fewer) <= standard_cost(vec) + 1


@settings(max_examples=200, derandomize=True, deadline=None)
@given(sparse_hands, st.integers(0, 2))
def test_waits_definition_hypothesis(vec, wilds):
    got = waits(vec, wilds)
    expect = tuple(t for t in ALL if vec[t] < 4 and is_standard_win(plus(vec, t), wilds))
    assert got == expect
    assert is_tenpai(vec, wilds) == bool(got)
    sub = (2, 5, 27, 30)
    assert waits(vec, wilds, kinds=sub) == tuple(t for t in expect if t in sub)


def test_cold_and_warm_cache_agree():
    vecs = list(mixed_hands(61, 200, 13, 0))
    warm = [waits(v) for v in vecs]
    shapes.clear_caches()
    assert [waits(v) for v in vecs] == warm
