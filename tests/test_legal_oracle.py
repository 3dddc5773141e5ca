"""Random games against a slow, obviously correct oracle of Hebei's legal actions.

At every decision point of many simulated hands (and of the clean samples) the referee's
legal-action set must equal one derived here from the table alone, by brute force: wins by
plain recursive decomposition, ready checks by trying every tile, each SPEC HB rule spelled
out again. A referee that offers an illegal action, or misses a legal one, fails here.
"""
import functools
import pathlib

from referee import actions as A
from referee import records
from referee.referee import Claim, DrawDue, Replay, Rob, Turn
from referee.rules import get_ruleset
from referee.state import PON

ROOT = pathlib.Path(__file__).resolve().parent.parent
ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


@functools.lru_cache(maxsize=None)
def sets_and_pair(counts: tuple, need_pair: bool) -> bool:
    """Plain recursion: the lowest tile goes into a pair, a pung or a chow."""
    i = next((t for t, c in enumerate(counts) if c), None)
    if i is None:
        return not need_pair
    c = list(counts)
    if need_pair and c[i] >= 2:
        c[i] -= 2
        if sets_and_pair(tuple(c), False):
            return True
        c[i] += 2
    if c[i] >= 3:
        c[i] -= 3
        if sets_and_pair(tuple(c), need_pair):
            return True
        c[i] += 3
    if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1; c[i + 1] -= 1; c[i + 2] -= 1
        if sets_and_pair(tuple(c), need_pair):
            return True
    return False


def wins(hand, melds) -> bool:
    """SPEC HB.5: 4 sets + a pair; seven pairs (a quad is two) or 十三幺 when nothing is melded."""
    if sum(hand) % 3 == 2 and sets_and_pair(tuple(hand), True):
        return True
    if melds or sum(hand) != 14:
        return False
    if all(c % 2 == 0 for c in hand):
        return True
    return all(hand[t] for t in ORPHANS) and sum(hand[t] for t in ORPHANS) == 14


def ready(hand, melds) -> bool:
    for t in range(34):
        if hand[t] < 4:
            hand[t] += 1
            ok = wins(hand, melds)
            hand[t] -= 1
            if ok:
                return True
    return False


def oracle(replay: Replay, seat: int) -> set:
    """Hebei's legal actions for this seat now, from the table alone (SPEC HB.2-HB.5)."""
    phase, table = replay.phase, replay.table
    s = table.seats[seat]
    hand, melds = list(s.hand), s.melds
    live = replay.live()
    legal = set()
    if isinstance(phase, Turn) and phase.seat == seat:
        drawn = replay.last_draw[seat]
        if phase.drew and wins(hand, melds):
            legal.add(A.Action(A.SELF_WIN, drawn))
        if phase.drew and live >= 1:  # HB-A5: a kong needs a live tile; no kong after a 碰 (HB.2)
            for t in range(34):
                candidates = []
                if hand[t] == 4:
                    candidates.append((A.KONG_CONCEALED, 4))
                if hand[t] and any(m.kind == PON and m.tile == t for m in melds):
                    candidates.append((A.KONG_ADDED, 1))
                for kind, used in candidates:
                    if s.ready:  # HB-A4: only if still ready afterwards
                        after = list(hand)
                        after[t] -= used
                        kept = [m for m in melds if not (m.kind == PON and m.tile == t)] + ["kong"]
                        if not ready(after, kept):
                            continue
                    legal.add(A.Action(kind, t))
        for t in range(34):
            if not hand[t]:
                continue
            if s.ready and drawn is not None and t != drawn:  # HB-A4: discard the drawn tile
                continue
            legal.add(A.Action(A.DISCARD, t))
            if not s.ready:
                hand[t] -= 1
                if ready(hand, melds):
                    legal.add(A.Action(A.READY_DISCARD, t))
                hand[t] += 1
    elif isinstance(phase, Claim) and seat != phase.discarder:
        t = phase.tile
        legal.add(A.Action(A.PASS))
        hand[t] += 1
        if wins(hand, melds):
            legal.add(A.Action(A.RON, t))
        hand[t] -= 1
        if hand[t] >= 2 and not s.ready:
            legal.add(A.Action(A.PON, t))
        if hand[t] == 3 and live >= 1:
            after = list(hand)
            after[t] = 0
            if not s.ready or ready(after, melds + ["kong"]):
                legal.add(A.Action(A.KONG_EXPOSED, t))
    elif isinstance(phase, Rob) and seat != phase.konger:
        legal.add(A.Action(A.PASS))
        hand[phase.tile] += 1
        if wins(hand, melds):
            legal.add(A.Action(A.ROB_WIN, phase.tile))
    elif isinstance(phase, DrawDue) and seat == phase.seat:
        legal.add(A.Action(A.DRAW))
    wins_only = {a for a in legal if a.kind in A.WINS}
    if s.auto_play and wins_only:  # HB.3: a seat in 托管 wins automatically; nothing else is open to it
        return wins_only
    return legal


def check_record(record) -> int:
    """Step through a record, comparing referee and oracle at every point; returns points checked."""
    replay = Replay(record, get_ruleset("hebei", dict(record.ruleset.options)))
    replay.begin()
    checked = 0
    for index, event in enumerate(record.events):
        replay.index = index
        if replay.phase is None or type(replay.phase).__name__ == "Ended":
            break
        for seat in range(4):
            ours = set(replay.legal_actions(seat, replay.phase))
            theirs = oracle(replay, seat)
            assert ours == theirs, (record.game_id, index, seat, sorted(map(str, ours ^ theirs)))
            checked += 1
        replay.step(event)
    return checked


def test_clean_samples_against_the_oracle():
    checked = 0
    for path in sorted((ROOT / "samples" / "hebei").glob("clean_*.textproto")):
        checked += check_record(records.read_record(path))
    assert checked > 500


def test_random_games_against_the_oracle():
    from referee.simulate import simulate

    checked = 0
    for record in simulate("hebei", hands=60, seed=20261121):
        checked += check_record(record)
    assert checked > 10_000
