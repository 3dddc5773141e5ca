"""Random 哈尔滨 and 大连 games against a slow oracle of their legal actions.

At every decision point of simulated hands (and of the clean samples) the referee's legal set
must equal one derived here from the table alone: wins and waits by the brute-force
decompositions and conditions of tests/test_bao_props.py, each rule of SPEC HRB and DL spelled
out again (听 and its conditions, the lock, the four-tile floor, 吃 only from the 上家 but 吃听
from anyone, no 碰 of dragons, no 暗杠 before 开门, 漏胡, the last draws, 摸宝 and 冲宝).
"""
from __future__ import annotations

import pathlib

import pytest

from referee import actions as A
from referee import records
from referee.parts.bao import BaoFlip, BaoLook
from referee.referee import Claim, DrawDue, Replay, Rob, Turn
from referee.rules import get_ruleset
from referee.state import CHI, KONG, PON, Meld
from test_bao_props import decompositions, every_tile, oracle_win

ROOT = pathlib.Path(__file__).resolve().parent.parent
RED = 31
DRAGONS = {31, 32, 33}


def waits(name, hand, melds) -> list[int]:
    out = []
    for t in get_ruleset(name).tile_kinds:
        if hand[t] < 4:
            hand[t] += 1
            if oracle_win(name, hand, melds):
                out.append(t)
            hand[t] -= 1
    return out


def shape_waits(name, hand, melds) -> list[int]:
    """Tiles completing four sets and a pair, whatever the conditions (the lock compares these)."""
    out = []
    for t in get_ruleset(name).tile_kinds:
        if hand[t] < 4:
            hand[t] += 1
            if sum(hand) % 3 == 2 and decompositions(hand):
                out.append(t)
            hand[t] -= 1
    return out


def ready_legal(name, hand, melds, jiating=False) -> bool:
    """HRB.3 / DL.3.2 (and DL.3.3 for 夹听) on the hand after the declaring discard."""
    if not any(m.is_open for m in melds) or sum(hand) < 4:
        return False
    valid = waits(name, hand, melds)
    if not valid:
        return False
    if name == "harbin":
        tiles = every_tile(hand, melds)
        if len({t // 9 for t in range(27) if tiles[t]}) < 2:
            return False
        if not any(tiles[t] for t in range(27) if t % 9 in (0, 8)) and not tiles[RED]:
            return False
        pung = any(m.kind != CHI for m in melds) or max(hand) >= 3 or hand[RED] >= 2
        for t in valid:  # 对倒
            if hand[t] == 2:
                hand[t] += 1
                pung = pung or any(("pung", t) in sets for _, sets in decompositions(hand))
                hand[t] -= 1
        return pung
    if jiating:
        if len(valid) != 1:
            return False
        t = valid[0]
        hand[t] += 1
        ok = any(("chow", t - 1) in sets and t % 9 not in (0, 8) or t % 9 == 2 and ("chow", t - 2) in sets
                 or t % 9 == 6 and ("chow", t) in sets for _, sets in decompositions(hand))
        hand[t] -= 1
        return ok and t < 27
    return True


def oracle(name: str, replay: Replay, seat: int) -> set:
    rules = replay.rules
    phase, table = replay.phase, replay.table
    s = table.seats[seat]
    hand, melds = list(s.hand), list(s.melds)
    live = replay.live()
    bao = table.indicator
    state = table.parts.get("bao")
    seen = bool(s.ready) and state is not None and state.round > 0 and (name == "harbin" or state.seen[seat] == state.round)
    floor = len(melds) >= 3
    legal = set()
    if isinstance(phase, Turn) and phase.seat == seat:
        drawn = s.drawn
        if phase.drew and s.ready and not s.self_locked:
            rest = list(hand)
            rest[drawn] -= 1
            used = every_tile(rest, melds)
            for t in (state.dead if state else []):
                used[t] += 1
            wild = drawn == bao and seen and any(used[t] < 4 for t in waits(name, rest, melds))
            if oracle_win(name, hand, melds) or wild:
                legal.add(A.Action(A.SELF_WIN, drawn))
        if phase.drew and live >= 1:
            for t in range(34):
                kinds = []
                if hand[t] == 4 and not floor and (name == "harbin" or s.is_open):
                    kinds.append((A.KONG_CONCEALED, 4))
                if hand[t] and any(m.kind == PON and m.tile == t for m in melds):
                    kinds.append((A.KONG_ADDED, 1))
                for kind, used in kinds:
                    if s.ready:
                        if name == "dalian" and t != drawn:
                            continue
                        after = list(hand)
                        after[t] -= used
                        kept = [m for m in melds if not (m.kind == PON and m.tile == t)] + [Meld(KONG, t, None, "concealed")]
                        if tuple(shape_waits(name, after, kept)) != tuple(s.ready_waits):
                            continue
                    legal.add(A.Action(kind, t))
        declares = [A.READY_DISCARD] + ([A.JIATING_DISCARD] if name == "dalian" else [])
        for t in range(34):
            if not hand[t] or s.ready and drawn is not None and t != drawn:
                continue
            if not phase.ready_call:
                legal.add(A.Action(A.DISCARD, t))
            if not s.ready:
                hand[t] -= 1
                for kind in declares:
                    if ready_legal(name, hand, melds, jiating=kind == A.JIATING_DISCARD):
                        legal.add(A.Action(kind, t))
                hand[t] += 1
    elif isinstance(phase, Claim) and seat != phase.discarder:
        t = phase.tile
        legal.add(A.Action(A.PASS))
        last = rules.wall_end.self_draw_only_last and live + 1 <= rules.wall_end.self_draw_only_last
        hand[t] += 1
        if s.ready and s.ron_locked is None and not last and oracle_win(name, hand, melds):
            legal.add(A.Action(A.RON, t))
        hand[t] -= 1
        if not s.ready and not floor:
            if hand[t] >= 2 and not (name == "dalian" and t in DRAGONS):
                legal.add(A.Action(A.PON, t))
            if hand[t] == 3 and live >= 1:
                legal.add(A.Action(A.KONG_EXPOSED, t))
            for low in (t - 2, t - 1, t):
                run = (low, low + 1, low + 2)
                if t >= 27 or low < 0 or low // 9 != t // 9 or low % 9 > 6 or any(
                        not hand[k] for k in run if k != t):
                    continue
                if seat == (phase.discarder + 1) % 4:
                    legal.add(A.Action(A.CHI, low))
                if name == "harbin":
                    after = list(hand)
                    for k in run:
                        if k != t:
                            after[k] -= 1
                    chi = melds + [Meld(CHI, low, phase.discarder, claimed_tile=t)]
                    for d in range(34):
                        if after[d]:
                            after[d] -= 1
                            ok = ready_legal(name, after, chi)
                            after[d] += 1
                            if ok:
                                legal.add(A.Action(A.CHI_READY, low))
                                break
    elif isinstance(phase, Rob) and seat != phase.konger:
        legal.add(A.Action(A.PASS))
        hand[phase.tile] += 1
        if s.ready and s.ron_locked is None and oracle_win(name, hand, melds):
            legal.add(A.Action(A.ROB_WIN, phase.tile))
    elif isinstance(phase, DrawDue) and seat == phase.seat:
        legal.add(A.Action(A.DRAW))
    elif isinstance(phase, BaoFlip) and seat == phase.seat:
        legal.add(A.Action(A.FLIP))
    elif isinstance(phase, BaoLook) and seat == phase.seat:
        hand[bao] += 1
        if hand[bao] <= 4 and not s.self_locked and oracle_win(name, hand, melds):
            legal.add(A.Action(A.SELF_WIN, bao))
    return legal


def check_record(record) -> int:
    name = record.ruleset.name
    replay = Replay(record, get_ruleset(name, dict(record.ruleset.options)))
    replay.begin()
    checked = 0
    for index, event in enumerate(record.events):
        replay.index = index
        if replay.phase is None or type(replay.phase).__name__ == "Ended":
            break
        for seat in range(4):
            ours = set(replay.legal_actions(seat, replay.phase))
            theirs = oracle(name, replay, seat)
            assert ours == theirs, (record.game_id, index, seat, type(replay.phase).__name__,
                                    sorted(map(str, ours - theirs)), sorted(map(str, theirs - ours)))
            checked += 1
        replay.step(event)
    return checked


@pytest.mark.parametrize("name", ["harbin", "dalian"])
def test_clean_samples_against_the_oracle(name):
    checked = sum(check_record(records.read_record(path))
                  for path in sorted((ROOT / "samples" / name).glob("clean_*.textproto")))
    assert checked > 300


@pytest.mark.parametrize("name", ["harbin", "dalian"])
def test_random_games_against_the_oracle(name):
    from referee.simulate import simulate

    checked = sum(check_record(record) for record in simulate(name, hands=12, seed=20261121))
    assert checked > 2_000
