"""The compiled shape kernels (referee/_shapes_c.c) against their Python twins, the reference.

Each public kernel is called both ways on the same hands: random wall hands, near-wins, seven
pairs and thirteen-orphans shapes, every size, restricted kinds, 0-4 wilds, room that binds and
room that cannot, allowed pair kinds (宁乡's 2/5/8 among them), the keywords the compiled code
hands back to Python, and bad input (both must fail alike); and the rule books' own calls must
not need the twin. Then whole games: 60
simulated hands with offers per rule book are judged, decision trace included, once in a
process with MJREF_PURE_PYTHON=1 and once with the kernels, and the two outputs must be equal.
Skipped where the extension was not built (no C compiler at install).
"""
from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st

from referee import shapes
from referee.tiles import DRAGONS, KINDS, TERMINALS_AND_HONORS, WINDS, counts

from test_shapes import ALL, drop, near_win, orphan_hands, plus, wall_hand

pytestmark = pytest.mark.skipif(shapes.COMPILED is None, reason="compiled kernels not built (or MJREF_PURE_PYTHON)")

PY = shapes.PYTHON
C = shapes.COMPILED
NO_KINDS = shapes.kind_masks(())
ALLOWED = [
    shapes.kind_masks(None),
    shapes.kind_masks(range(27)),  # suits only
    shapes.kind_masks(range(9, 34)),  # no characters
    shapes.kind_masks(TERMINALS_AND_HONORS),
    shapes.kind_masks([0, 4, 8, 13, 22, 27, 33]),
    NO_KINDS,
]
PAIR_KINDS = [None, (), DRAGONS, WINDS, (0, 9, 18), tuple(range(27))]


def outcome(function, *args, **kwargs):
    """What a call returns, or the type of what it raises."""
    try:
        return function(*args, **kwargs)
    except Exception as error:  # noqa: BLE001 - the type is the comparison
        return type(error)


def same(name: str, *args, **kwargs):
    want = outcome(PY[name], *args, **kwargs)
    got = outcome(getattr(C, name), *args, **kwargs)
    assert got == want, (name, args, kwargs)
    assert type(got) is type(want), (name, args, kwargs)
    return got


def hands(seed: int, count: int):
    """Hands of every size 1..14: wall hands, near-wins less some tiles (some holding four of a
    kind), seven-pairs shapes."""
    rng = random.Random(seed)
    for i in range(count):
        size = rng.randint(1, 14)
        kind = i % 5
        if kind == 0:
            vec = wall_hand(rng, size)
        elif kind in (1, 2, 3):
            vec = near_win(rng, 4, rng.choice([0, 0, 0, 1, 2]))
            if kind == 3:  # four copies of a kind held: a fifth is never a wait
                vec[rng.choice([t for t in ALL if vec[t]])] = 4
            vec = drop(rng, vec, max(0, sum(vec) - size))
        else:
            vec = [0] * KINDS
            for t in rng.sample(ALL, 7):
                vec[t] = 2
            vec = drop(rng, vec, rng.choice([0, 1, 1, 2]))
        yield vec


def test_the_kernels_are_the_public_functions():
    assert shapes.is_standard_win is C.is_standard_win
    assert shapes.standard_cost is C.standard_cost
    assert shapes.natural_waits is C.natural_waits
    assert shapes.wild_waits is C.wild_waits
    assert shapes.pair_waits is C.pair_waits
    assert shapes.ready_discard_set is C.ready_discard_set
    assert shapes.discard_costs is C.discard_costs
    assert shapes.ready_candidates is C.ready_candidates


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_win_matches_python(seed):
    wins = 0
    for vec in hands(seed, 5000):
        wins += same("is_standard_win", vec) is True
        same("is_standard_win", tuple(vec))
        same("is_standard_win", bytes(vec))
        same("standard_cost", vec)
        same("standard_cost", bytes(vec))
        costs = same("discard_costs", vec)
        assert list(costs) == sorted(costs)  # kind order, as the simulator reads them
    assert wins > 100  # the sweep reaches winning hands, not only misses


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_waits_match_python(seed):
    rng = random.Random(seed)
    waiting = 0
    for vec in hands(seed, 4000):
        b = bytes(vec)
        allowed = rng.choice(ALLOWED)
        seven, orphans = rng.random() < 0.5, rng.random() < 0.3
        pair_kinds = rng.choice(PAIR_KINDS)
        waiting += bool(same("natural_waits", b, allowed))
        same("natural_waits", b, allowed, seven, orphans)
        same("natural_waits", b, allowed, seven, orphans, pair_kinds)
        # A seat's own list (Ruleset.waits passes it as it is) reads as its bytes.
        assert same("natural_waits", vec, allowed, seven, orphans, pair_kinds) == C.natural_waits(b, allowed, seven,
                                                                                                  orphans, pair_kinds)
        same("natural_waits", tuple(vec), allowed)
    assert waiting > 200


def test_natural_waits_of_a_count_outside_0_to_4_are_none():
    """A logged fifth copy (already a violation) or a count below 0 waits on nothing, either way."""
    tenpai = counts([0, 1, 2, 3, 4, 5, 9, 10, 11, 20, 20, 30, 30])
    assert C.natural_waits(tenpai, shapes.kind_masks(None)) == (20, 30)
    for t, n in ((0, 5), (30, 7), (33, 300), (0, -1), (12, -300)):
        vec = list(tenpai)
        vec[t] = n
        assert same("natural_waits", vec, shapes.kind_masks(None), True, True) == ()
    assert same("natural_waits", bytes([5]) + bytes(tenpai[1:]), shapes.kind_masks(None)) == ()


def test_rule_book_waits_answer_in_c():
    """Ruleset.waits hands a seat's list to the kernel as it is: no call reaches the twin."""
    from referee.rules import get_ruleset
    handed_back = []
    twins = {**PY, "natural_waits": lambda *args: handed_back.append(args) or PY["natural_waits"](*args)}
    C.init(shapes._C0, shapes._C2, shapes.IMPOSSIBLE, shapes._pair_bits, twins)
    try:
        rules = get_ruleset("hebei")
        found = [rules.waits(vec, melds) for vec in hands(81, 400) if sum(vec) % 3 == 1 for melds in ([], [None])]
    finally:
        C.init(shapes._C0, shapes._C2, shapes.IMPOSSIBLE, shapes._pair_bits, PY)
    assert handed_back == []
    assert sum(map(bool, found)) > 20


def rooms(rng: random.Random, vec: list[int], wilds: int):
    """Room for a wait check: none, full, low but not binding (the kernel's), and some that binds."""
    loose = [4 if rng.random() < 0.8 else min(4, n + wilds + 1 + rng.randint(0, 1)) for n in vec]
    one_seen = [4] * KINDS  # a copy out of play (an indicator) of a kind the hand holds
    one_seen[rng.choice([t for t in ALL if vec[t]] or ALL)] = 3
    yield from (None, [4] * KINDS, loose, one_seen, [rng.randint(0, 4) for _ in ALL], [9] * KINDS)


def waiting_hands(rng: random.Random, wilds: int, *pools):
    """Each hand of the pools less `wilds` tiles (and one more from a 3k+2 hand): mostly 3k+1 with
    the wilds, as a wait check takes them; with its bytes and some allowed kinds."""
    for vec in (v for pool in pools for v in pool):
        vec = drop(rng, vec, min(sum(vec), wilds + (sum(vec) % 3 == 2)))
        yield vec, bytes(vec), rng.choice(ALLOWED[:3])


@pytest.mark.parametrize("wilds", [0, 1, 2, 3, 4])
def test_wild_waits_match_python(wilds):
    rng = random.Random(60 + wilds)
    waiting = 0
    pools = (list(hands(60 + wilds, 1500)), [near_win(rng, 4, rng.choice([0, 1, 2])) for _ in range(1500)],
             list(orphan_hands(70 + wilds, 300, 1)))
    for vec, b, allowed in waiting_hands(rng, wilds, *pools):
        for room in rooms(rng, vec, wilds):
            seven, orphans, pair_kinds = rng.random() < 0.5, rng.random() < 0.4, rng.choice(PAIR_KINDS[:3])
            got = same("wild_waits", b, wilds, room, allowed, seven, orphans, pair_kinds)
            waiting += bool(got)
            same("wild_waits", b, wilds, room, allowed, seven)  # the defaults
            same("wild_waits", b, wilds, room, allowed)
            # the twin is hand_waits itself, given validated bytes
            assert got == shapes.hand_waits(vec, wilds, room=room, seven_pairs=seven, thirteen_orphans=orphans,
                                            orphan_pair_kinds=pair_kinds, kinds=shapes._kinds_of(allowed))
    assert waiting > 1000
    same("wild_waits", bytes(34), -1, None, NO_KINDS, False, False, None)  # bad input: the twin's error
    same("wild_waits", bytes([5]) + bytes(33), 1, None, NO_KINDS, False, False, None)
    same("wild_waits", bytes(34), 1, [4] * 33, NO_KINDS, False, False, None)
    same("wild_waits", bytes(34), 1, [-1] * KINDS, NO_KINDS, False, False, None)
    same("wild_waits", bytes(34), 1, (4,) * KINDS, NO_KINDS, False, False, None)  # other types: Python
    same("wild_waits", bytes(34), 1, None, NO_KINDS)  # defaults and keywords: the Python path
    same("wild_waits", bytes(34), 1, None, allowed=NO_KINDS)


JIANG = frozenset(t for t in range(27) if t % 9 in (1, 4, 7))  # 宁乡's 2/5/8 pairs


@pytest.mark.parametrize("wilds", [0, 1, 2, 3])
def test_pair_waits_match_python(wilds):
    rng = random.Random(90 + wilds)
    waiting = 0
    pools = (list(hands(90 + wilds, 1200)), [near_win(rng, 4, rng.choice([0, 1, 2])) for _ in range(2000)])
    for vec, b, allowed in waiting_hands(rng, wilds, *pools):
        for room in rooms(rng, vec, wilds):
            for pair_kinds in (JIANG, rng.choice(PAIR_KINDS)):
                got = same("pair_waits", b, wilds, room, allowed, pair_kinds)
                waiting += bool(got)
                assert got == shapes.hand_waits(vec, wilds, room=room, pair_kinds=pair_kinds,
                                                kinds=shapes._kinds_of(allowed))
    assert waiting > 1000
    same("pair_waits", bytes(34), -1, None, NO_KINDS, JIANG)  # bad input: the twin's error
    same("pair_waits", bytes(34), 1, None, NO_KINDS, (40,))
    same("pair_waits", bytes(34), 1, None, NO_KINDS, "x")
    same("pair_waits", bytes([5]) + bytes(33), 1, None, NO_KINDS, JIANG)
    same("pair_waits", bytes(34), 1, None, NO_KINDS)  # missing arguments, keywords
    same("pair_waits", bytes(34), 1, None, NO_KINDS, pair_kinds=JIANG)


@pytest.mark.parametrize("wilds", [0, 1, 2, 3])
def test_wins_with_wilds_room_and_pair_kinds_match_python(wilds):
    rng = random.Random(100 + wilds)
    wins = 0
    pools = (list(hands(100 + wilds, 800)), [near_win(rng, 4, rng.choice([0, 0, 1])) for _ in range(2000)])
    for vec in (v for pool in pools for v in pool):
        vec = drop(rng, vec, min(sum(vec), wilds))
        for room in rooms(rng, vec, wilds - 1):
            for pair_kinds in (None, JIANG, rng.choice(PAIR_KINDS)):
                wins += same("is_standard_win", vec, wilds, room, pair_kinds) is True
        same("is_standard_win", bytes(vec), wilds)
    assert wins > 1000


def test_wild_waits_answer_the_usual_hand_in_c():
    """The rule books' calls (4, 5 or 7 arguments, room that cannot bind) never reach the twin, and
    宁乡's 2/5/8 pairs seldom do:
    the kernel is the hot path it is meant to be, not a detour to Python."""
    handed_back, priced_by_python = [], []
    twins = {**PY, "wild_waits": lambda *args: handed_back.append(args) or PY["wild_waits"](*args),
             "pair_waits": lambda *args: priced_by_python.append(args) or PY["pair_waits"](*args)}
    C.init(shapes._C0, shapes._C2, shapes.IMPOSSIBLE, shapes._pair_bits, twins)
    try:
        rng = random.Random(80)
        allowed = shapes.kind_masks(None)
        for _ in range(500):
            wilds = rng.randint(0, 2)
            vec = drop(rng, near_win(rng, 4, rng.choice([0, 1, 2])), 1 + wilds)
            b, room = bytes(vec), [4] * KINDS
            C.wild_waits(b, wilds, None, allowed)
            C.wild_waits(b, wilds, room, allowed, True)
            C.wild_waits(b, wilds, room, allowed, True, False, None)
            C.pair_waits(b, wilds, room, allowed, JIANG)
    finally:
        C.init(shapes._C0, shapes._C2, shapes.IMPOSSIBLE, shapes._pair_bits, PY)
    assert handed_back == []
    assert len(priced_by_python) < 60  # of 500: a restricted pair the tables cannot price for sure


@pytest.mark.parametrize("wilds", [0, 1, 2, 3])
def test_ready_discards_match_python(wilds):
    rng = random.Random(10 + wilds)
    ready = 0
    for _ in range(3000):
        vec = near_win(rng, 4, rng.choice([0, 1, 1, 2, 3]))
        vec = drop(rng, vec, wilds)
        ready += bool(same("ready_discard_set", bytes(vec), wilds))
    assert ready > 300


@pytest.mark.parametrize("wilds", [0, 1, 2])
def test_ready_candidates_match_python(wilds):
    rng = random.Random(40 + wilds)
    found = 0
    pools = (list(hands(40 + wilds, 1500)), list(orphan_hands(50 + wilds, 600, 1 + wilds)))
    for vec in (v for pool in pools for v in pool):
        vec = drop(rng, vec, min(wilds, sum(vec)))
        for seven, orphans in ((False, False), (True, False), (False, True), (True, True)):
            found += bool(same("ready_candidates", vec, wilds, seven, orphans))
        same("ready_candidates", bytes(vec), wilds, 1, 0)
    assert found > 1000
    same("ready_candidates", [5] + [0] * 33, 0, True, True)  # bad input: the Python twin's error
    same("ready_candidates", [0] * KINDS, -1, True, True)
    same("ready_candidates", [0] * KINDS, 0)  # defaults and keywords: the Python path
    same("ready_candidates", [0] * KINDS, 0, seven_pairs=True)


def test_thirteen_orphans_match_python():
    allowed = shapes.kind_masks(None)
    found = 0
    for vec in orphan_hands(20, 3000, 1):  # 13 tiles: the orphans shape less one
        b = bytes(vec)
        for pair_kinds in PAIR_KINDS:
            found += bool(same("natural_waits", b, allowed, False, True, pair_kinds))
        same("natural_waits", b, allowed, True, True)
        same("is_standard_win", plus(vec, 0))
    assert found > 500


BAD = [
    [0] * 33,  # too short
    [0] * 35,
    [5] + [0] * 33,  # a fifth copy
    [-1] + [0] * 33,
    [3, 3, 3, 3, 2] + [0] * 29,  # a win, but one count is a string below
    [True, True, True] + [0] * 24 + [2] + [0] * 6,  # bools are ints to Python
    [1.0] * 3 + [0] * 31,
]


def test_bad_input_fails_alike():
    for vec in BAD:
        same("is_standard_win", vec)
        same("is_standard_win", tuple(vec))
    same("is_standard_win", [3, 3, 3, 3, "2"] + [0] * 29)
    same("is_standard_win", None)
    same("is_standard_win", "abc")
    same("is_standard_win", bytearray(plus([0] * KINDS, 0, 0)))  # other sequences: the Python path
    same("is_standard_win", type("Counts", (list,), {})(plus([0] * KINDS, 0, 0)))
    same("is_standard_win", [0] * KINDS, 10**30)
    same("is_standard_win", [0] * KINDS, -(10**30))
    same("is_standard_win")
    same("natural_waits", bytes(33), NO_KINDS)
    same("natural_waits", bytes([5]) + bytes(33), shapes.kind_masks(None))
    same("natural_waits", bytes(34), (1, 2))
    same("ready_discard_set", bytes([5]) + bytes(33), 0)
    for vec in BAD:
        same("discard_costs", vec)
        same("standard_cost", vec)
    same("standard_cost", [0] * KINDS, False)  # other arguments: the Python path
    same("standard_cost", plus([0] * KINDS, 0), room=[4] * KINDS)
    same("discard_costs", None)
    same("discard_costs", [0] * KINDS, 1)
    same("ready_discard_set", bytes(14) + bytes(20), -1)


def test_keywords_wilds_and_room_match_python():
    """Calls with wilds, pair kinds or room (the compiled path since stop 27) and keywords (Python's)."""
    rng = random.Random(30)
    for vec in hands(30, 1500):
        size = sum(vec)
        same("is_standard_win", vec, 14 - size if size <= 14 else 0)
        same("is_standard_win", vec, 0, None, DRAGONS)
        same("is_standard_win", vec, room=[rng.randint(0, 4) for _ in ALL])
        same("is_standard_win", counts=vec)
        same("natural_waits", bytes(vec), shapes.kind_masks(None), thirteen_orphans=True)


@settings(max_examples=400, derandomize=True, deadline=None)
@given(st.lists(st.sampled_from(ALL), max_size=14).map(counts).filter(lambda v: max(v) <= 4),
       st.sampled_from(ALLOWED), st.booleans(), st.booleans())
def test_kernels_match_python_hypothesis(vec, allowed, seven, orphans):
    same("is_standard_win", vec)
    same("standard_cost", vec)
    same("natural_waits", bytes(vec), allowed, seven, orphans)
    same("discard_costs", vec)
    if sum(vec) % 3 == 2:
        same("ready_discard_set", bytes(vec), 0)


ROOM = st.one_of(st.none(), st.lists(st.integers(0, 6), min_size=KINDS, max_size=KINDS),
                 st.builds(lambda t, cap: [cap if k == t else 4 for k in ALL], st.sampled_from(ALL), st.integers(0, 3)))


@settings(max_examples=400, derandomize=True, deadline=None)
@given(st.lists(st.sampled_from(ALL), max_size=14).map(counts).filter(lambda v: max(v) <= 4),
       st.integers(0, 5), ROOM, st.sampled_from(ALLOWED), st.sampled_from(PAIR_KINDS + [JIANG]), st.booleans(),
       st.booleans())
def test_wild_kernels_match_python_hypothesis(vec, wilds, room, allowed, pair_kinds, seven, orphans):
    same("is_standard_win", vec, wilds, room, pair_kinds)
    same("wild_waits", bytes(vec), wilds, room, allowed, seven, orphans, pair_kinds)
    same("pair_waits", bytes(vec), wilds, room, allowed, pair_kinds)


# ---------------------------------------------------------------------------------------
# Whole games: the same verdicts and decision traces either way.

JUDGE = """
import hashlib, json, sys
from referee import shapes
from referee.simulate import simulate
from referee.verify import verify_bytes
digest = hashlib.sha256()
for ruleset in sys.argv[1:]:
    for record in simulate(ruleset, 60, seed=77, offers=True):
        verdict = verify_bytes(record.SerializeToString(), trace=True)
        row = {**verdict.to_json(), "decisions": [d._asdict() for d in verdict.decisions]}
        digest.update(json.dumps(row, sort_keys=True, ensure_ascii=False).encode())
print(shapes.COMPILED is not None, digest.hexdigest())
"""

RULESETS = ["hebei", "ningxiang", "guangdong_tdh", "guangdong_jph3", "guangdong_gg5", "harbin", "dalian"]


def judged(pure: bool) -> tuple[str, str]:
    env = dict(os.environ)
    env.pop("MJREF_PURE_PYTHON", None)
    if pure:
        env["MJREF_PURE_PYTHON"] = "1"
    out = subprocess.run([sys.executable, "-c", JUDGE, *RULESETS], env=env, capture_output=True, text=True,
                         check=True)
    return tuple(out.stdout.split())


def test_games_judge_the_same_either_way():
    compiled, pure = judged(pure=False), judged(pure=True)
    assert compiled[0] == "True" and pure[0] == "False"
    assert compiled[1] == pure[1]
