"""Ningxiang's wild-aware win and wait checks against a slow, obviously correct oracle.

The oracle replaces each wild (纯王) by every tile kind, never past the copies in play (four of a
kind, three of the flipped 正王's kind, less what the seat's melds hold), and asks of each
concrete hand the NX.5 question directly: 平胡 (four sets and a 2/5/8 pair), or a 大胡 that
needs no 2/5/8 pair (清一色, 碰碰胡, 七对, 将将胡), by plain recursive decomposition.
"""
from __future__ import annotations

import functools
from itertools import combinations_with_replacement

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import tiles as T
from referee.rules import get_ruleset
from referee.state import PON, Meld

SUITED = tuple(range(27))
JIANG = frozenset(t for t in SUITED if T.rank_of(t) in (2, 5, 8))
RULES = get_ruleset("ningxiang")


@functools.lru_cache(maxsize=None)
def sets_and_pair(counts: tuple, pair: frozenset | None, pungs_only: bool) -> bool:
    """Do these counts split into sets and exactly one pair (of a kind in `pair`, if given)?"""
    i = next((t for t, c in enumerate(counts) if c), None)
    if i is None:
        return pair is None  # the pair was placed (pair set to None once used)
    c = list(counts)
    if pair is not None and c[i] >= 2 and (not pair or i in pair):
        c[i] -= 2
        if sets_and_pair(tuple(c), None, pungs_only):
            return True
        c[i] += 2
    if c[i] >= 3:
        c[i] -= 3
        if sets_and_pair(tuple(c), pair, pungs_only):
            return True
        c[i] += 3
    if not pungs_only and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        return sets_and_pair(tuple(c), pair, pungs_only)
    return False


ANY = frozenset()  # any pair will do


def concrete_wins(counts: list[int], melds: list[Meld], natural_pair: list[int] | None = None,
                  faces: list[int] | None = None) -> bool:
    """NX.5 on a hand with no wilds left. The other readings of NX-A14: `natural_pair`, the natural
    tiles the 平胡 pair must come from (wilds not in the pair); `faces`, the hand with its wilds at
    face, which a 将将胡 must then be (wilds stand for no 2/5/8)."""
    key = tuple(counts)
    if sum(counts) % 3 != 2:
        return False
    every = list(faces if faces is not None else counts)
    for m in melds:
        for t in m.tiles:
            every[t] += 1
    if all(not c or t in JIANG for t, c in enumerate(every)) and not any(m.kind == "chi" for m in melds):
        return True  # 将将胡
    if natural_pair is None and sets_and_pair(key, JIANG, False):
        return True  # 平胡
    for j in JIANG if natural_pair is not None else ():
        if natural_pair[j] >= 2 and sets_and_pair(tuple(c - 2 * (t == j) for t, c in enumerate(key)), None, False):
            return True  # 平胡, its pair two natural tiles
    one_suit = len({T.suit_of(t) for t, c in enumerate(every) if c}) == 1
    if one_suit and sets_and_pair(key, ANY, False):
        return True  # 清一色
    if not any(m.kind == "chi" for m in melds) and sets_and_pair(key, ANY, True):
        return True  # 碰碰胡
    return not melds and all(c % 2 == 0 for c in counts) and sum(counts) == 14  # 七对


def oracle_wins(hand: list[int], melds: list[Meld], wilds: frozenset, king: int, natural_pair: bool = False,
                faces: bool = False) -> bool:
    """Some placing of the wilds wins. `natural_pair`, `faces`: NX-A14's other readings (concrete_wins)."""
    naturals = [0 if t in wilds else c for t, c in enumerate(hand)]
    count = sum(hand[t] for t in wilds)
    in_melds = [0] * T.KINDS
    for m in melds:
        for t in m.tiles:
            in_melds[t] += 1
    room = [4 - (t == king) - in_melds[t] for t in range(T.KINDS)]
    for stand_ins in combinations_with_replacement(SUITED, count):
        trial = list(naturals)
        for t in stand_ins:
            trial[t] += 1
        if all(trial[t] <= room[t] for t in SUITED) and concrete_wins(
                trial, melds, naturals if natural_pair else None, hand if faces else None):
            return True
    return False


def referee_wins(hand, melds, wilds, king, rules=RULES) -> bool:
    in_melds = [0] * T.KINDS
    for m in melds:
        for t in m.tiles:
            in_melds[t] += 1
    room = [max(0, 4 - (t == king) - in_melds[t]) for t in range(T.KINDS)]
    return rules.is_win(hand, melds, wilds, room)


@st.composite
def ningxiang_hands(draw, size: int, max_wilds: int):
    """(hand counts, melds, wild kinds, king): `size` concealed tiles, up to max_wilds wilds,
    sometimes a 碰, never past the copies in play."""
    king = draw(st.sampled_from(SUITED))
    wilds = RULES.wilds_of(king)
    melds = []
    left = {t: 4 - (t == king) for t in SUITED}
    if draw(st.booleans()):
        pon = draw(st.sampled_from([t for t in SUITED if t not in wilds and left[t] >= 3]))
        melds.append(Meld(PON, pon, 1))
        left[pon] -= 3
        size -= 3
    hand = [0] * T.KINDS
    n_wilds = draw(st.integers(0, max_wilds))
    for _ in range(n_wilds):
        choices = [t for t in wilds if left[t]]
        if not choices:
            break
        t = draw(st.sampled_from(sorted(choices)))
        hand[t] += 1
        left[t] -= 1
    # Natural tiles from a few nearby kinds, so that wins and waits are common.
    base = draw(st.sampled_from(SUITED))
    pool = [t for t in SUITED if t not in wilds and abs(t - base) <= 6]
    while sum(hand) < size:
        choices = [t for t in pool if left[t]]
        t = draw(st.sampled_from(choices))
        hand[t] += 1
        left[t] -= 1
    return hand, melds, wilds, king


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(ningxiang_hands(size=14, max_wilds=4))
def test_wins_match_the_substitution_oracle(case):
    hand, melds, wilds, king = case
    assert referee_wins(hand, melds, wilds, king) == oracle_wins(hand, melds, wilds, king), (
        T.format_counts(hand), [str(m) for m in melds], sorted(wilds))


@st.composite
def ready_ningxiang_hands(draw):
    """(hand counts, melds, wild kinds, king): a win of four sets and a pair (some of its tiles
    given as wilds) less one tile, so the hand waits on at least that tile; often on it alone."""
    king = draw(st.sampled_from(SUITED))
    wilds = RULES.wilds_of(king)
    left = {t: 4 - (t == king) for t in SUITED}
    naturals = [t for t in SUITED if t not in wilds]
    tiles = []
    while len(tiles) < 12:
        low = draw(st.sampled_from(naturals))
        run = [low, low + 1, low + 2] if draw(st.booleans()) and T.rank_of(low) <= 7 else [low] * 3
        if all(t in naturals and left[t] >= run.count(t) for t in run):
            for t in run:
                left[t] -= 1
            tiles += run
    pair = draw(st.sampled_from([t for t in naturals if left[t] >= 2]))
    tiles += [pair, pair]
    hand = [0] * T.KINDS
    for t in tiles:
        hand[t] += 1
    for _ in range(draw(st.integers(0, 2))):  # a natural given as a wild instead
        spare = sorted(t for t in wilds if left[t])
        if not spare:
            break
        gone = draw(st.sampled_from([t for t, c in enumerate(hand) if c and t not in wilds]))
        hand[gone] -= 1
        w = draw(st.sampled_from(spare))
        hand[w] += 1
        left[w] -= 1
    hand[draw(st.sampled_from([t for t, c in enumerate(hand) if c]))] -= 1
    return hand, [], wilds, king


def assert_waits_match_the_oracle(hand, melds, wilds, king, rules=RULES, **readings):
    in_melds = [0] * T.KINDS
    for m in melds:
        for t in m.tiles:
            in_melds[t] += 1
    room = [max(0, 4 - (t == king) - in_melds[t]) for t in range(T.KINDS)]
    expected = []
    for t in SUITED:
        if hand[t] + in_melds[t] + (t == king) < 4:  # a copy of t can still be drawn
            trial = list(hand)
            trial[t] += 1
            if oracle_wins(trial, melds, wilds, king, **readings):
                expected.append(t)
    got = [t for t in rules.waits(hand, melds, wilds, room) if hand[t] + in_melds[t] + (t == king) < 4]
    assert got == expected, (T.format_counts(hand), [str(m) for m in melds], sorted(wilds))


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(ningxiang_hands(size=13, max_wilds=2))
def test_waits_match_the_substitution_oracle(case):
    assert_waits_match_the_oracle(*case)


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example])
@given(ready_ningxiang_hands())
def test_waits_of_ready_hands_match_the_substitution_oracle(case):
    """Ready hands by construction: the quick exits (no candidate, no natural wait) must never
    drop a wait that one or two tiles give."""
    assert_waits_match_the_oracle(*case)


def test_a_wild_never_stands_for_a_fifth_copy():
    """The issue's hand: 122223888p8888s plus one 王 is no 平胡 (pair 88s, pung 88s + a fifth 8s)."""
    king = T.parse("7m")[0]  # 纯王 6m and 8m
    hand = T.counts(T.parse("122223888p8888s6m"))
    assert not referee_wins(hand, [], RULES.wilds_of(king), king)
    assert not oracle_wins(hand, [], RULES.wilds_of(king), king)


def test_a_wild_never_stands_for_the_flipped_kings_fourth_copy():
    """Three 7m are in play when 7m is the 正王: 777m in hand plus a wild is no quad-free pung + pair."""
    king = T.parse("7m")[0]
    hand = T.counts(T.parse("777m123p456p789s5s6m"))  # the wild can only pair the 5s, not a 4th 7m
    assert referee_wins(hand, [], RULES.wilds_of(king), king) == oracle_wins(hand, [], RULES.wilds_of(king), king)


def wilds_for_naturals_less_one(draw, hand: list[int], wilds, king: int) -> list[int]:
    """A winning hand with up to two natural tiles given as wilds instead, less one tile."""
    spare = sorted(t for t in wilds if 4 - (t == king) > 0)
    for _ in range(draw(st.integers(0, 2))):
        gone = draw(st.sampled_from([t for t, c in enumerate(hand) if c and t not in wilds]))
        w = draw(st.sampled_from(spare))
        if hand[w] + 1 <= 4 - (w == king):
            hand[gone] -= 1
            hand[w] += 1
    hand[draw(st.sampled_from([t for t, c in enumerate(hand) if c]))] -= 1
    return hand


@st.composite
def big_shape_ready_hands(draw):
    """(hand counts, melds, wild kinds, king): a 清一色 or 碰碰胡 win (often with no 2/5/8 pair,
    sometimes with 碰 melds, some tiles given as wilds) less one tile. Its waits include tiles
    that win only as a 大胡, which the wait search looks for only where one may still be made."""
    king = draw(st.sampled_from(SUITED))
    wilds = RULES.wilds_of(king)
    left = {t: 4 - (t == king) - (t in wilds) * 4 for t in SUITED}
    pungs = draw(st.booleans())
    suit = draw(st.integers(0, 2))
    kinds = [t for t in range(9 * suit, 9 * suit + 9)] if not pungs else list(SUITED)
    kinds = [t for t in kinds if left[t] > 0]
    melds, groups = [], []
    while len(groups) < 4:
        low = draw(st.sampled_from(kinds))
        run = [low] * 3 if pungs or draw(st.booleans()) or T.rank_of(low) > 7 else [low, low + 1, low + 2]
        if all(t in kinds and left[t] >= run.count(t) for t in run):
            for t in run:
                left[t] -= 1
            groups.append(run)
    pair = draw(st.sampled_from([t for t in kinds if left[t] >= 2]))
    left[pair] -= 2
    tiles = [pair, pair]
    for run in groups:
        if run[0] == run[1] and len(melds) < 2 and draw(st.booleans()):
            melds.append(Meld(PON, run[0], 1))
        else:
            tiles += run
    return wilds_for_naturals_less_one(draw, T.counts(tiles), wilds, king), melds, wilds, king


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example])
@given(big_shape_ready_hands())
def test_waits_of_big_shapes_match_the_substitution_oracle(case):
    """清一色 and 碰碰胡 waits, which need no 2/5/8 pair: the search must not skip a hand that can
    still make one (Ningxiang.may_make_big_shape)."""
    assert_waits_match_the_oracle(*case)


@st.composite
def scattered_ready_hands(draw):
    """(hand counts, melds, wild kinds, king): a 将将胡 (every tile a 2/5/8, any shape, sometimes
    with 碰 melds) or 七小对 win, some tiles given as wilds, less one tile. Most such hands are
    far from any standard shape, which the wait search's first exit must not mistake for
    hands that wait on nothing (Ningxiang.far_from_ready)."""
    king = draw(st.sampled_from(SUITED))
    wilds = RULES.wilds_of(king)
    left = {t: 4 - (t == king) - (t in wilds) * 4 for t in SUITED}
    jiang = draw(st.booleans())
    kinds = [t for t in (sorted(JIANG) if jiang else SUITED) if left[t] >= 2]
    melds, tiles = [], []
    if jiang:
        for _ in range(draw(st.integers(0, 2))):
            t = draw(st.sampled_from([k for k in kinds if left[k] >= 3]))
            left[t] -= 3
            melds.append(Meld(PON, t, 1))
        while len(tiles) < 14 - 3 * len(melds):
            t = draw(st.sampled_from([k for k in kinds if left[k] > 0]))
            left[t] -= 1
            tiles.append(t)
    else:
        while len(tiles) < 14:
            t = draw(st.sampled_from([k for k in kinds if left[k] >= 2]))
            left[t] -= 2
            tiles += [t, t]
    return wilds_for_naturals_less_one(draw, T.counts(tiles), wilds, king), melds, wilds, king


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example])
@given(scattered_ready_hands())
def test_waits_of_jiang_and_seven_pair_hands_match_the_substitution_oracle(case):
    """将将胡 and 七小对 waits, which need no standard shape at all."""
    assert_waits_match_the_oracle(*case)


@st.composite
def pung_hands(draw):
    """(naturals, wild count, room): 14 tiles from a few kinds, so that pungs and pairs are common."""
    wilds = draw(st.integers(0, 3))
    pool = draw(st.lists(st.sampled_from(SUITED), min_size=1, max_size=6, unique=True))
    naturals = [0] * T.KINDS
    for t in draw(st.lists(st.sampled_from(pool), min_size=14 - wilds, max_size=14 - wilds)):
        naturals[t] += 1
    room = [draw(st.sampled_from((2, 3, 4, 4))) if t in pool else 4 for t in range(T.KINDS)]
    return naturals, wilds, room


@settings(max_examples=300, deadline=None, derandomize=True)
@given(pung_hands())
def test_all_pungs_matches_the_substitution_oracle(case):
    """碰碰胡 (NX.5): some placing of the wilds, within room, makes pungs and one pair."""
    naturals, wilds, room = case
    free = next(t for t in SUITED if not naturals[t] and room[t] == 4)  # any such kind does as well
    kinds = [t for t in SUITED if naturals[t]] + [free]
    expected = any(
        all(trial[t] <= room[t] for t in SUITED) and sets_and_pair(tuple(trial), ANY, True)
        for stand_ins in combinations_with_replacement(kinds, wilds)
        for trial in [[c + stand_ins.count(t) for t, c in enumerate(naturals)]])
    assert RULES.all_pungs(naturals, wilds, [], room) == expected, (T.format_counts(naturals), wilds)


# NX-A14 read the other way: the 平胡 pair two natural tiles, and a 纯王 in a 将将胡 at its face.
NATURAL_PAIR = get_ruleset("ningxiang", {"nx_wild_in_258_pair": "false"})
FACE_JIANG = get_ruleset("ningxiang", {"nx_wilds_in_jiangjiang": "false"})


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(ningxiang_hands(size=14, max_wilds=3))
def test_wins_with_a_natural_258_pair_match_the_oracle(case):
    hand, melds, wilds, king = case
    assert referee_wins(hand, melds, wilds, king, NATURAL_PAIR) == oracle_wins(
        hand, melds, wilds, king, natural_pair=True), (T.format_counts(hand), [str(m) for m in melds], sorted(wilds))


@settings(max_examples=100, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example])
@given(ready_ningxiang_hands())
def test_waits_with_a_natural_258_pair_match_the_oracle(case):
    assert_waits_match_the_oracle(*case, rules=NATURAL_PAIR, natural_pair=True)


@settings(max_examples=100, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example])
@given(scattered_ready_hands())
def test_waits_of_jiang_hands_with_wilds_at_face_match_the_oracle(case):
    assert_waits_match_the_oracle(*case, rules=FACE_JIANG, faces=True)


def test_nx_a14_worked_cases():
    """正王 5m: the 纯王 are 4m and 6m. 123m 456p 789p 123s + 5s and a 纯王: the 纯王 completes the
    2/5/8 pair 55s (NX-A14), unless the option wants two natural tiles there."""
    king = T.parse("5m")[0]
    wilds = RULES.wilds_of(king)
    hand = T.counts(T.parse("123m456p789p123s5s4m"))
    assert referee_wins(hand, [], wilds, king) and oracle_wins(hand, [], wilds, king)
    assert not referee_wins(hand, [], wilds, king, NATURAL_PAIR)
    # With the pair natural, the 纯王 may still complete a set: 12m + 纯王, pair 22s.
    hand = T.counts(T.parse("12m456p789p123s22s4m"))
    assert referee_wins(hand, [], wilds, king, NATURAL_PAIR)
    # 将将胡 with a 纯王 of face 4m (no 2/5/8): a 将 under NX-A14, at face it is not.
    jiang = T.counts(T.parse("22558m22558p225s4m"))
    assert referee_wins(jiang, [], wilds, king) and not referee_wins(jiang, [], wilds, king, FACE_JIANG)
    # A 纯王 whose face is a 2/5/8 (正王 1m: 纯王 9m and 2m) keeps the 将将胡 at face too.
    king = T.parse("1m")[0]
    jiang = T.counts(T.parse("22558m22558p225s2m"))
    assert referee_wins(jiang, [], RULES.wilds_of(king), king, FACE_JIANG)
