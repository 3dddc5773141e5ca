"""The 宝-aware win and wait checks of 哈尔滨 and 大连 against a slow brute-force oracle written
here: every decomposition found by trying pairs, pungs and chows tile by tile, the conditions
of HRB.5 / DL.5 (大连's "not 门清" too) re-stated on each, and a wildcard (摸宝) substituted by every kind that is no
fifth copy in the concealed hand: copies in sight elsewhere do not matter (REC-global-1), so a
tenpai 听 seat's 宝 always wins ("this is always a win", HRB.5)."""
from __future__ import annotations

from types import SimpleNamespace

from hypothesis import HealthCheck, given, settings, strategies as st

from referee import tiles as T
from referee.rules import get_ruleset
from referee.state import CHI, EXPOSED, KONG, PON, Meld

RED = T.parse("C")[0]
DRAGONS = set(T.DRAGONS)


# -- the oracle ------------------------------------------------------------------------------------
def decompositions(counts: list[int]) -> list[tuple[int, list[tuple[str, int]]]]:
    """Every (pair, sets) reading of a concealed hand, found the slow way."""
    found = []

    def search(c, pair, sets):
        i = next((k for k in range(34) if c[k]), None)
        if i is None:
            if pair is not None:
                found.append((pair, sorted(sets)))
            return
        if pair is None and c[i] >= 2:
            c[i] -= 2
            search(c, i, sets)
            c[i] += 2
        if c[i] >= 3:
            c[i] -= 3
            search(c, pair, sets + [("pung", i)])
            c[i] += 3
        if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
            for k in (i, i + 1, i + 2):
                c[k] -= 1
            search(c, pair, sets + [("chow", i)])
            for k in (i, i + 1, i + 2):
                c[k] += 1

    search(list(counts), None, [])
    return found


def every_tile(counts, melds) -> list[int]:
    tiles = list(counts)
    for m in melds:
        for t in m.tiles:
            tiles[t] += 1
    return tiles


def oracle_win(name: str, counts: list[int], melds) -> bool:
    if sum(counts) + 3 * len(melds) != 14 or max(counts) > 4:
        return False
    tiles = every_tile(counts, melds)
    suits = {t // 9 for t in range(27) if tiles[t]}
    meld_chow = any(m.kind == CHI for m in melds)
    meld_pung = any(m.kind in (PON, KONG) for m in melds)
    if name == "harbin":
        if len(suits) < 2 or not (any(tiles[t] for t in range(27) if t % 9 in (0, 8)) or tiles[RED]):
            return False
        return any((meld_chow or any(k == "chow" for k, _ in sets)) and
                   (meld_pung or any(k == "pung" for k, _ in sets) or pair == RED)
                   for pair, sets in decompositions(counts))
    if len(suits) < 3 or len(melds) >= 4:
        return False
    if not any(m.kind != KONG or m.kong_kind != "concealed" for m in melds):
        return False  # 门清: DL.5 5 asks for a 吃, 碰 or 明杠
    if not any(tiles[t] for t in range(27) if t % 9 in (0, 8)) and not any(tiles[27:]):
        return False
    for pair, sets in decompositions(counts):
        if any(k == "pung" and t in DRAGONS for k, t in sets):
            continue
        if (meld_chow or any(k == "chow" for k, _ in sets)) and (
                meld_pung or any(k == "pung" for k, _ in sets) or pair in DRAGONS):
            return True
    return False


def oracle_waits(name, counts, melds) -> list[int]:
    """Kinds that complete the 13-tile basis hand (SPEC REC-global-1: not a fifth copy in hand)."""
    out = []
    for t in get_ruleset(name).tile_kinds:
        if counts[t] < 4:
            trial = list(counts)
            trial[t] += 1
            if oracle_win(name, trial, melds):
                out.append(t)
    return out


def oracle_wild_win(name, counts14, melds, drawn) -> bool:
    """The drawn 宝 as a wildcard: some kind it may stand for (not a fifth copy in hand) wins."""
    rest = list(counts14)
    rest[drawn] -= 1
    for t in get_ruleset(name).tile_kinds:
        if rest[t] < 4:
            trial = list(rest)
            trial[t] += 1
            if oracle_win(name, trial, melds):
                return True
    return False


# -- hands -----------------------------------------------------------------------------------------
@st.composite
def hands(draw, name: str):
    """(concealed 13-tile basis, melds, dead indicators): often a win less one tile, sometimes not."""
    kinds = list(get_ruleset(name).tile_kinds)
    pool = {t: 4 for t in kinds}
    melds = []
    for _ in range(draw(st.integers(0, 3))):
        kind = draw(st.sampled_from([PON, CHI, KONG]))
        t = draw(st.sampled_from(kinds))
        if kind == CHI:
            if t >= 27 or t % 9 > 6 or any(pool[k] < 1 for k in (t, t + 1, t + 2)):
                continue
            for k in (t, t + 1, t + 2):
                pool[k] -= 1
            melds.append(Meld(CHI, t, 0))
        else:
            need = 4 if kind == KONG else 3
            if pool[t] < need:
                continue
            pool[t] -= need
            melds.append(Meld(kind, t, 0, EXPOSED if kind == KONG else None))
    size = 13 - 3 * len(melds)
    counts = [0] * 34
    if draw(st.booleans()):  # a winning shape less one tile: sets and a pair from the pool
        pieces = draw(st.lists(st.sampled_from(kinds), min_size=size // 3 + 1, max_size=size // 3 + 1))
        shapes = draw(st.lists(st.booleans(), min_size=len(pieces), max_size=len(pieces)))
        for i, (t, chow) in enumerate(zip(pieces, shapes)):
            group = [t] * 2 if i == 0 else ([t, t + 1, t + 2] if chow and t < 27 and t % 9 <= 6 else [t] * 3)
            if all(pool[k] - group.count(k) >= 0 for k in group):
                for k in group:
                    pool[k] -= 1
                    counts[k] += 1
    while sum(counts) < size + 1:
        t = draw(st.sampled_from([k for k in kinds if pool[k]]))
        pool[t] -= 1
        counts[t] += 1
    held = [t for t in kinds if counts[t]]
    counts[draw(st.sampled_from(held))] -= 1  # one tile out: the 13-tile basis
    while sum(counts) > size:
        counts[draw(st.sampled_from([t for t in kinds if counts[t]]))] -= 1
    dead = draw(st.lists(st.sampled_from([t for t in kinds if pool[t]]), max_size=2))
    return counts, melds, dead


def check(name, case, monkeypatch):
    rules = get_ruleset(name)
    counts, melds, dead = case
    assert list(rules.valid_waits(counts, melds)) == oracle_waits(name, counts, melds), (T.format_counts(counts), melds)
    # The drawn 宝 (the first kind still in play; dead indicators and melds only take copies from
    # play) wins as a wildcard: the hook, with the 宝 part saying the tile is a wildcard here.
    used = every_tile(counts, melds)
    for t in dead:
        used[t] += 1
    drawn = next(t for t in rules.tile_kinds if used[t] < 4)
    hand = list(counts)
    hand[drawn] += 1
    monkeypatch.setattr(rules.wilds, "wild_for", lambda view, seat, tile: True)
    view = SimpleNamespace(seats=[SimpleNamespace(hand=hand, melds=melds)])
    assert rules.drawn_wild_wins(view, 0, drawn) == oracle_wild_win(name, hand, melds, drawn)


@settings(max_examples=250, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=hands("harbin"))
def test_harbin_waits_and_bao_wins_match_the_oracle(case, monkeypatch):
    check("harbin", case, monkeypatch)


@settings(max_examples=250, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=hands("dalian"))
def test_dalian_waits_and_bao_wins_match_the_oracle(case, monkeypatch):
    check("dalian", case, monkeypatch)


def test_oracle_sees_the_model_hands_and_the_counter_example():
    for hand in ("CC234m456p777s678s", "55m123p678s444s234s", "55m234m789p444s234s", "CCC234m678p567s88s"):
        assert oracle_win("harbin", T.counts(T.parse(hand)), [])
    rest = T.counts(T.parse("22s67789m111p345p"))
    assert oracle_waits("harbin", rest, []) == T.parse("5m8m")
