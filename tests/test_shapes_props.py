"""referee.shapes: room caps, allowed pair kinds, hand_waits, the exact path and the tables.

Every property compares against the brute-force oracle of test_shapes (wilds substituted
by every kind within room, concrete hands decomposed by plain recursion). Hypothesis runs
derandomized, so CI sees the same examples every time.
"""
from __future__ import annotations

import hashlib
import random

import pytest
from hypothesis import given, settings, strategies as st

from referee import shape_tables, shapes
from referee.shapes import (
    decompositions,
    hand_waits,
    is_seven_pairs,
    is_standard_win,
    is_thirteen_orphans,
    standard_cost,
    standard_waits,
)
from referee.tiles import DRAGONS, KINDS, TERMINALS_AND_HONORS, counts
from test_shapes import (
    ALL,
    c,
    drop,
    near_win,
    oracle_decomps,
    oracle_orphans,
    oracle_seven_pairs,
    oracle_waits,
    oracle_win,
    plain_oracle_seven_pairs,
    plain_oracle_win,
    plus,
)

JIANG = tuple(t for t in range(27) if t % 9 in (1, 4, 7))  # the 2/5/8 suited kinds (将)


def room_with(**caps) -> list[int]:
    room = [4] * KINDS
    for name, cap in caps.items():
        room[counts([_parse_one(name)]).index(1)] = cap
    return room


def _parse_one(name: str) -> int:
    from referee.tiles import parse
    (t,) = parse(name)
    return t


# ---------------------------------------------------------------------------------------
# Worked examples and regressions.


def test_no_fifth_copy_after_a_split_regression():
    # Ningxiang.ping_hu split off the pair 88s and asked for sets in the rest, where a wild
    # then made pung 88s+wild: a fifth 8s. The whole-hand question must say no.
    hand = c("122223888p8888s")
    assert not is_standard_win(hand, 1)
    assert not is_standard_win(hand, 1, pair_kinds=JIANG)
    assert not oracle_win(hand, 1) and not oracle_win(hand, 1, pair_kinds=JIANG)
    assert decompositions(hand, 1, pair_kinds=JIANG) == []
    assert standard_cost(hand) > 1 and standard_cost(hand, pair_kinds=JIANG) > 1
    # With a 5s in place of the fourth 8s the wild pairs it (55s, a 2/5/8 pair) and it wins.
    assert is_standard_win(c("122223888p5888s"), 1, pair_kinds=JIANG)


def test_room_three_for_an_indicator_kind():
    # Ningxiang: the indicator's kind has one copy out of play, so room 3. Here the only
    # completion uses the wild as a fourth 3m.
    hand = c("1223334m111p444s")
    room = room_with(**{"3m": 3})
    assert is_standard_win(hand, 1)
    assert not is_standard_win(hand, 1, room=room)
    assert oracle_win(hand, 1) and not oracle_win(hand, 1, room=room)
    assert decompositions(hand, 1, room=room) == []
    # Waits: with a wild, 122334m111p444s waits on almost every kind, 3m included; with room 3
    # for 3m, no wait may use a fourth 3m, natural or wild.
    ready = c("122334m111p444s")
    assert 2 in standard_waits(ready, 1)
    assert standard_waits(ready, 1, room=room) == oracle_waits(ready, 1, room=room)
    assert 2 not in standard_waits(ready, 1, room=room)
    assert 2 not in standard_waits(c("1233334m111p44s"), 0, room=room)  # 4 held > room 3
    # A natural count above room wins nothing.
    assert not is_standard_win(c("3333m111p444s55s"), 0, room=room)


def test_pair_kinds_examples():
    assert is_standard_win(c("123m456p789s111s22m"), 0, pair_kinds=JIANG)
    assert not is_standard_win(c("123m456p789s222s11m"), 0, pair_kinds=JIANG)
    assert is_standard_win(c("123m456p789s222s1m"), 1, pair_kinds=JIANG) is False  # 1m + wild: pair 11m
    assert is_standard_win(c("123m456p789s111s"), 2, pair_kinds=JIANG)  # two wilds as 55m
    assert is_standard_win(c("123m456p789s111s5m"), 1, pair_kinds=JIANG)
    assert not is_standard_win(c("123m456p789s111s"), 2, pair_kinds=())
    assert standard_cost(c("123m456p789s111s"), pair_kinds=JIANG) == 2
    assert standard_cost(c("123m456p789s111s"), pair_kinds=()) == shapes.IMPOSSIBLE
    assert standard_waits(c("123m456p789s111s2m"), 0, pair_kinds=JIANG) == (1,)
    assert standard_waits(c("123m456p789s111s1m"), 0, pair_kinds=JIANG) == ()
    assert all(d.pair in JIANG for d in decompositions(c("123m456p789s111s"), 2, pair_kinds=JIANG))


def test_seven_pairs_and_orphans_with_room():
    hand = c("1133m2233p4455sE")  # 13 naturals: E needs a wild
    assert is_seven_pairs(hand, 1)
    assert not is_seven_pairs(hand, 1, room=room_with(E=1))
    three = c("111m2233p4455sEE")
    assert is_seven_pairs(three, 1)  # the wild is the 4th 1m
    assert not is_seven_pairs(three, 1, room=room_with(**{"1m": 3}))
    base = c("19m19p19sESWNCFP")
    assert is_thirteen_orphans(base, 1)
    assert not is_thirteen_orphans(base, 1, room=[1] * KINDS)  # no room for a duplicate
    assert is_thirteen_orphans(base, 1, pair_kinds=DRAGONS, room=room_with(C=1, F=1))  # P doubles
    assert not is_thirteen_orphans(base, 1, pair_kinds=DRAGONS, room=room_with(C=1, F=1, P=1))
    missing = c("19m19p19sESWNCF")
    assert not is_thirteen_orphans(plus(missing, 0), 1, room=room_with(P=0))  # the wild can't be P


def test_hand_waits_examples():
    seven = c("1133m2233p4455sE")
    assert hand_waits(seven) == ()
    assert hand_waits(seven, seven_pairs=True) == (27,)
    orphans = c("19m19p19sESWNCFP")
    assert hand_waits(orphans) == ()
    assert hand_waits(orphans, thirteen_orphans=True) == TERMINALS_AND_HONORS
    assert hand_waits(orphans, thirteen_orphans=True, orphan_pair_kinds=DRAGONS) == tuple(DRAGONS)
    no_p = c("119m19p19sESWNCF")
    assert hand_waits(no_p, thirteen_orphans=True) == (33,)
    assert hand_waits(no_p, thirteen_orphans=True, orphan_pair_kinds=DRAGONS) == ()
    wild = c("19m19p19sESWNCF")  # 12 naturals and a wild: the wild is P or the duplicate
    assert hand_waits(wild, 1, thirteen_orphans=True) == TERMINALS_AND_HONORS
    assert hand_waits(wild, 1, thirteen_orphans=True, orphan_pair_kinds=DRAGONS) == tuple(DRAGONS)
    nine = c("1112345678999m")
    assert hand_waits(nine, seven_pairs=True, thirteen_orphans=True) == tuple(range(9))
    assert hand_waits(nine, kinds=range(3, 30)) == tuple(range(3, 9))


# ---------------------------------------------------------------------------------------
# Strategies.

hand_tiles = st.lists(st.sampled_from(ALL), max_size=14).map(counts).filter(lambda v: max(v) <= 4)
near_tiles = st.lists(st.sampled_from(range(0, 9)), max_size=8).flatmap(
    lambda a: st.lists(st.sampled_from(ALL), max_size=14 - len(a)).map(lambda b: counts(a + b))
).filter(lambda v: max(v) <= 4)  # crowded in one suit, so shapes and caps interact
any_hand = st.one_of(hand_tiles, near_tiles)


@st.composite
def rooms(draw, vec):
    """None, or room 4 everywhere except a few kinds (often held ones) at 0..3."""
    if draw(st.booleans()):
        return None
    room = [4] * KINDS
    held = [t for t in ALL if vec[t]] or list(ALL)
    for _ in range(draw(st.integers(1, 4))):
        t = draw(st.sampled_from(held) if draw(st.booleans()) else st.sampled_from(ALL))
        room[t] = draw(st.integers(0, 3))
    return room


pair_kind_sets = st.one_of(
    st.none(), st.just(JIANG), st.just(()), st.just(tuple(DRAGONS)),
    st.lists(st.sampled_from(ALL), max_size=6).map(tuple),
)


def trim(vec, wilds, size_mod):
    """Drop tiles until naturals + wilds is size_mod (mod 3) and at most 14."""
    vec = list(vec)
    while sum(vec) + wilds > 14 or (sum(vec) + wilds) % 3 != size_mod:
        if not any(vec):
            return None
        vec[max(ALL, key=lambda t: (vec[t], t))] -= 1
    return vec


# ---------------------------------------------------------------------------------------
# Properties against the oracle.


@settings(max_examples=250, derandomize=True, deadline=None)
@given(st.data(), any_hand, st.integers(0, 4), pair_kind_sets)
def test_win_cost_and_decompositions_match_oracle(data, vec, wilds, pair_kinds):
    vec = trim(vec, wilds, 2)
    if vec is None:
        return
    room = data.draw(rooms(vec))
    expect = oracle_win(vec, wilds, room, pair_kinds)
    assert is_standard_win(vec, wilds, room=room, pair_kinds=pair_kinds) == expect
    cost = standard_cost(vec, room=room, pair_kinds=pair_kinds)
    if expect:
        assert cost <= wilds
    if cost <= 2:  # the cost is exact: that many wilds win, three fewer do not
        assert oracle_win(vec, cost, room, pair_kinds)
    if wilds <= 2:
        got = decompositions(vec, wilds, room=room, pair_kinds=pair_kinds)
        assert got == oracle_decomps(vec, wilds, room, pair_kinds)


@settings(max_examples=150, derandomize=True, deadline=None)
@given(st.data(), any_hand, st.integers(0, 4), pair_kind_sets)
def test_waits_match_oracle(data, vec, wilds, pair_kinds):
    vec = trim(vec, wilds, 1)
    if vec is None:
        return
    room = data.draw(rooms(vec))
    expect = oracle_waits(vec, wilds, room, pair_kinds)
    assert standard_waits(vec, wilds, room=room, pair_kinds=pair_kinds) == expect
    sub = (1, 4, 7, 13, 22, 27, 31)
    assert standard_waits(vec, wilds, room=room, pair_kinds=pair_kinds, kinds=sub) == tuple(
        t for t in expect if t in sub)


@settings(max_examples=100, derandomize=True, deadline=None)
@given(st.data(), any_hand, st.integers(0, 4), pair_kind_sets)
def test_hand_waits_is_the_union(data, vec, wilds, orphan_pairs):
    vec = trim(vec, wilds, 1)
    if vec is None:
        return
    room = data.draw(rooms(vec))
    caps = room or [4] * KINDS
    expect = set(oracle_waits(vec, wilds, room, JIANG))
    if sum(vec) + wilds == 13:
        expect |= {t for t in ALL if vec[t] < caps[t] and oracle_seven_pairs(plus(vec, t), wilds, room)}
    got = hand_waits(vec, wilds, room=room, pair_kinds=JIANG, seven_pairs=True)
    assert got == tuple(sorted(expect))
    if wilds <= 2:
        orphans = {t for t in TERMINALS_AND_HONORS
                   if vec[t] < caps[t] and oracle_orphans(plus(vec, t), wilds, orphan_pairs, room)}
        got = hand_waits(vec, wilds, room=room, pair_kinds=JIANG, seven_pairs=True,
                         thirteen_orphans=True, orphan_pair_kinds=orphan_pairs)
        assert got == tuple(sorted(expect | orphans))


pair_hands = st.lists(st.sampled_from(ALL), min_size=3, max_size=7, unique=True).flatmap(
    lambda kinds: st.lists(st.integers(0, 4), min_size=len(kinds), max_size=len(kinds)).map(
        lambda ns: [sum(n for k, n in zip(kinds, ns) if k == t) for t in ALL]))


@settings(max_examples=200, derandomize=True, deadline=None)
@given(st.data(), st.one_of(hand_tiles, pair_hands), st.integers(0, 3))
def test_seven_pairs_match_oracle(data, vec, wilds):
    vec = list(vec)
    while sum(vec) + wilds > 14:
        vec[max(ALL, key=lambda t: (vec[t], t))] -= 1
    room = data.draw(rooms(vec))
    assert is_seven_pairs(vec, wilds, room=room) == oracle_seven_pairs(vec, wilds, room)


orphan_hands = st.lists(st.sampled_from(TERMINALS_AND_HONORS + (1, 13)), max_size=14).map(counts).filter(
    lambda v: max(v) <= 4)


@settings(max_examples=200, derandomize=True, deadline=None)
@given(st.data(), orphan_hands, st.integers(0, 2), pair_kind_sets)
def test_thirteen_orphans_match_oracle(data, vec, wilds, pair_kinds):
    vec = list(vec)
    while sum(vec) + wilds > 14:
        vec[max(ALL, key=lambda t: (vec[t], t))] -= 1
    room = data.draw(rooms(vec))
    expect = oracle_orphans(vec, wilds, pair_kinds, room)
    assert is_thirteen_orphans(vec, wilds, pair_kinds=pair_kinds, room=room) == expect


# ---------------------------------------------------------------------------------------
# The table path against the exact path, on more hands and more wilds than the oracle
# can afford (the exact path is itself checked against the oracle above).


def _exact(vec, wilds):
    b = bytes(vec)
    return shapes._exact_win(b, wilds, shapes._FULL_ROOM, shapes._ALL_KINDS_BITS)


def test_table_path_matches_exact_path():
    rng = random.Random(71)
    wall = [t for t in ALL for _ in range(4)]
    wins = ready = 0
    for i in range(500):
        wilds = rng.choice([0, 1, 2, 3, 4, 5, 6, 8])
        size = rng.choice([13, 14]) if i % 3 else rng.choice([4, 7, 10, 11])
        naturals = max(0, size - wilds)
        if i % 2:
            vec = counts(rng.sample(wall, naturals))
        else:  # crowded: few kinds, many copies
            kinds = rng.sample(ALL, 6)
            vec = [0] * KINDS
            for _ in range(naturals):
                vec[rng.choice([t for t in kinds if vec[t] < 4] or [t for t in ALL if vec[t] < 4])] += 1
        b = bytes(vec)
        assert is_standard_win(vec, wilds) == _exact(vec, wilds), (vec, wilds)
        exact = shapes._exact_cost(b, True, shapes._FULL_ROOM, shapes._ALL_KINDS_BITS)
        assert standard_cost(vec) == exact, vec
        got = standard_waits(vec, wilds)
        expect = tuple(shapes._exact_waits(b, wilds, shapes._FULL_ROOM, shapes._ALL_KINDS_BITS, ALL))
        assert got == (expect if (sum(vec) + wilds) % 3 == 1 else ()), (vec, wilds)
        wins += is_standard_win(vec, wilds)
        ready += bool(got)
    assert 30 < wins < 470 and 30 < ready < 470, (wins, ready)


def test_seven_pairs_waits_with_room_match_oracle():
    rng = random.Random(75)
    ready = 0
    for _ in range(300):
        wilds = rng.choice([0, 1, 2, 3])
        vec = [0] * KINDS
        for t in rng.sample(ALL, 7):
            vec[t] = rng.choice([1, 2, 2, 3, 4])
        while sum(vec) + wilds > 13:
            vec[rng.choice([t for t in ALL if vec[t]])] -= 1
        while sum(vec) + wilds < 13:
            vec[rng.choice([t for t in ALL if vec[t] < 4])] += 1
        room = [4] * KINDS
        for t in rng.sample([t for t in ALL if vec[t]], 3):
            room[t] = rng.choice([1, 2, 3, 4])
        expect = tuple(t for t in ALL if vec[t] < room[t] and oracle_seven_pairs(plus(vec, t), wilds, room))
        assert hand_waits(vec, wilds, room=room, pair_kinds=(), seven_pairs=True) == expect, (vec, wilds, room)
        ready += bool(expect)
    assert 20 < ready < 280, ready


def test_cost_path_matches_exact_path():
    """Room and pair restrictions take the cost path (tables, plus the per-part programme
    where a part is restricted); the wild-count sets of the exact path must agree."""
    rng = random.Random(73)
    wall = [t for t in ALL for _ in range(4)]
    wins = 0
    for i in range(400):
        wilds = rng.choice([0, 1, 2, 3, 4, 6])
        size = max(0, rng.choice([13, 14]) - wilds)
        if i % 2:
            vec = counts(rng.sample(wall, size))
        else:
            vec = near_win(rng, 4, rng.choice([0, 0, 1]))
            vec = drop(rng, vec, sum(vec) - size)
        pairs = shapes._pair_bits(rng.choice([None, JIANG, tuple(DRAGONS), (0, 9, 18), tuple(range(27, 34)), ()]))
        caps = [4] * KINDS
        for t in rng.sample([t for t in ALL if vec[t]] or ALL, rng.choice([0, 1, 2, 3])):
            caps[t] = rng.choice([2, 3, 3, 4])
        caps = bytes(caps)
        b = bytes(vec)
        if (sum(vec) + wilds) % 3 == 2:
            got = shapes._cost_win(b, wilds, caps, pairs)
            assert got == shapes._exact_win(b, wilds, caps, pairs), (vec, wilds, caps, pairs)
            wins += got
        else:
            got = shapes._cost_waits(b, wilds, caps, pairs, ALL)
            assert got == shapes._exact_waits(b, wilds, caps, pairs, ALL), (vec, wilds, caps, pairs)
            wins += bool(got)
        hand = shapes._CostHand(b, caps, pairs)
        assert hand.cost() == shapes._exact_cost(b, True, caps, pairs)
    assert 20 < wins < 380, wins


def test_part_oracle_matches_plain_substitution():
    rng = random.Random(81)
    agree = 0
    for _ in range(150):
        wilds = rng.choice([0, 1, 2])
        vec = counts(rng.sample([t for t in ALL for _ in range(4)], rng.choice([2, 5, 8]) - wilds))
        room = None if rng.random() < 0.5 else [rng.choice([2, 3, 4]) for _ in ALL]
        pairs = rng.choice([None, JIANG, tuple(DRAGONS)])
        got = oracle_win(vec, wilds, room, pairs)
        assert got == plain_oracle_win(vec, wilds, room, pairs), (vec, wilds, room, pairs)
        agree += got
        full = counts(rng.sample([t for t in ALL for _ in range(4)], 14 - wilds))
        full[rng.randrange(27)] = rng.choice([0, 2, 4])
        assert oracle_seven_pairs(full, wilds, room) == plain_oracle_seven_pairs(full, wilds, room)
    assert agree > 10


# ---------------------------------------------------------------------------------------
# The shipped tables.


def test_tables_are_intact():
    for name in ("SUIT_COSTS", "COMPLETE_DELTAS", "STEP_EXCEPTIONS"):
        raw = shapes._unpack(name)
        assert hashlib.sha256(raw).hexdigest() == getattr(shape_tables, f"{name}_SHA256"), name


def test_tables_match_the_exact_programme():
    """Sampled suits: C0, C2 and the drop masks against the capped DP of the exact path."""
    rng = random.Random(91)
    full = bytes([4]) * 9
    limit = (1 << 64) - 1
    samples = [rng.randrange(5 ** 9) for _ in range(400)] + [0, 5 ** 9 - 1]
    for i in samples:
        digits = bytes(i // 5 ** r % 5 for r in range(9))
        sets, pair = shapes._suit_sets(digits, full, 511, limit)
        assert shapes._C0[i] == shapes._lowest(sets), digits
        assert (shapes._C2[i] if shapes._C2[i] != 255 else shapes.IMPOSSIBLE) == shapes._lowest(pair), digits
        for kind, table, drops in ((0, shapes._C0, shapes._DROP0), (1, shapes._C2, shapes._DROP2)):
            for r in range(9):
                if digits[r] == 4 or table[i] == 255:
                    continue
                j = i + 5 ** r
                assert bool(drops[i] >> r & 1) == (table[j] == table[i] - 1), (digits, kind, r)
                odd = shapes._STEP_EXCEPTIONS.get(i << 1 | kind, (0, 0))
                step = table[j] - table[i] if table[j] != 255 else None
                assert (step == 5) == bool(odd[0] >> r & 1) and (step is None) == bool(odd[1] >> r & 1)
                assert step in (-1, 2, 5, None)
    shapes.clear_caches()


@settings(max_examples=400, derandomize=True, deadline=None)
@given(any_hand, st.integers(0, 4))
def test_discard_costs_and_ready_discards_are_the_hand_one_tile_less(vec, wilds):
    """discard_costs and ready_discards read two table entries per discard; standard_cost
    (itself held to the oracle above) evaluates each smaller hand whole."""
    vec = trim(vec, wilds, 2)
    if vec is None:
        return
    costs = shapes.discard_costs(vec)
    assert set(costs) == {t for t in ALL if vec[t]}
    for t, cost in costs.items():
        less = list(vec)
        less[t] -= 1
        assert cost == standard_cost(less), (vec, t)
    assert shapes.ready_discards(vec, wilds) == tuple(t for t in sorted(costs) if costs[t] <= wilds + 1)


@settings(max_examples=400, derandomize=True, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=9, max_size=9), st.lists(st.integers(0, 4), min_size=9, max_size=9),
       st.integers(0, 511))
def test_suit_costs_are_the_lowest_counts_of_suit_sets(suit, room, pairs):
    """The min-cost programme (the capped parts of the cost path) against the wild-count sets
    of the exact path, which the oracle tests above hold to brute force."""
    v, caps = bytes(suit), bytes(room)
    sets, pair = shapes._suit_sets(v, caps, pairs, shapes._WIDE)
    assert shapes._suit_costs(v, caps, pairs) == (shapes._lowest(sets), shapes._lowest(pair))


@settings(max_examples=400, derandomize=True, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=9, max_size=9), st.integers(1, 511))
def test_restricted_pair_cost_is_the_programmes(suit, pairs):
    """A suit with full room whose pair is restricted (宁乡's 2/5/8) reads its cost from the
    tables when it can be sure, else defers to the programme: never a different answer."""
    v = bytes(suit)
    got = shapes._restricted_pair_cost(v, pairs)
    assert got is None or got == shapes._suit_costs(v, bytes([4]) * 9, pairs)[1], (suit, bin(pairs))


def test_restricted_pair_cost_is_mostly_sure_on_play_sized_suits():
    rng = random.Random(97)
    jiang = sum(1 << r for r in (1, 4, 7))
    sure = 0
    for _ in range(3000):
        suit = [0] * 9
        for _ in range(rng.randint(0, 9)):
            r = rng.randrange(9)
            suit[r] = min(4, suit[r] + 1)
        got = shapes._restricted_pair_cost(bytes(suit), jiang)
        if got is not None:
            assert got == shapes._suit_costs(bytes(suit), bytes([4]) * 9, jiang)[1], suit
            sure += 1
    assert sure > 1500, sure  # most answers come from the tables


def test_natural_decompositions_match_the_search_and_the_oracle():
    """Without wilds, room or pair kinds, decompositions() combines per-part readings; the general
    search (forced by an explicit room of 4) and the brute-force oracle must agree with it, on
    winning hands (many with several readings: 111222333m and the like) and on near misses."""
    rng = random.Random(20)
    several = 0
    for i in range(3000):
        vec = near_win(rng, rng.choice((4, 4, 4, 3, 2, 1)), swaps=i % 3 // 2)
        got = decompositions(vec)
        assert got == decompositions(vec, 0, room=[4] * KINDS) == oracle_decomps(vec)
        several += len(got) > 1
    assert several > 15
    assert decompositions(c("111222333m99p")) == decompositions(c("111222333m99p"), room=[4] * KINDS)


def _ready_after(less: list[int], wilds: int, form) -> bool:
    """Some tile completes `less` (naturals, with `wilds` wildcards) in this form: by definition."""
    return any(less[u] < 4 and form(plus(less, u), wilds) for u in ALL)


@pytest.mark.parametrize("wilds", [0, 1, 2])
def test_ready_candidates_hold_every_ready_discard(wilds):
    """The move generator checks only these discards for a 听: each discard after which some
    tile completes the hand, as a standard hand, seven pairs or the thirteen orphans (the
    oracles), must be among them, with the forms asked for."""
    from test_shapes import orphan_hands, seven_pair_hands

    rng = random.Random(70 + wilds)
    hands = [drop(rng, near_win(rng, 4, rng.choice([0, 1, 1, 2])), wilds) for _ in range(60 // (wilds + 1))]
    hands += list(seven_pair_hands(80 + wilds, 40 // (wilds + 1), wilds))
    hands += list(orphan_hands(90 + wilds, 40 // (wilds + 1), wilds))
    forms = {"standard": oracle_win, "seven pairs": oracle_seven_pairs,
             "orphans": lambda vec, w: oracle_orphans(vec, w)}
    ready_in = dict.fromkeys(forms, 0)
    for vec in hands:
        for seven, orphans in ((True, True), (False, False)):
            found = shapes.ready_candidates(vec, wilds, seven, orphans)
            assert found <= {t for t in ALL if vec[t]}, (vec, wilds)  # held kinds only
            for t in (t for t in ALL if vec[t]):
                less = list(vec)
                less[t] -= 1
                for name, form in forms.items():
                    if name == "seven pairs" and not seven or name == "orphans" and not orphans:
                        continue
                    if _ready_after(less, wilds, form):
                        ready_in[name] += 1
                        assert t in found, (name, vec, wilds, t)
    assert all(ready_in.values()), ready_in  # each form is reached, so the test can fail
