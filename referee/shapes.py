"""Winning shapes, ready checks and waits on 34-kind count vectors; wildcard-aware, table-driven.

A hand is a count vector (34 ints, 0..4, see referee.tiles) of concealed tiles; wilds
(癞子/王/鬼) are a separate int, each wild standing for any kind. Every shape obeys the
physical limit: a kind never totals more than 4 copies, natural plus wild. So 2222m plus a
wild is no win (it would need a fifth 2m), and four concealed copies of an honor can never
sit in a standard shape.

Standard shapes are scored by the fewest wilds that complete them. The cost of each suit
comes from a small dynamic programme over ranks 1..9, memoized on the suit's count tuple,
so a warm cache answers a hand with three dictionary look-ups and a pass over the honors.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement
from typing import Callable, Iterable, Sequence

from referee.tiles import KINDS, TERMINALS_AND_HONORS

# Cost of a shape no number of wilds can complete (e.g. four concealed copies of an honor).
# Any real cost is at most 14 + 2, so sums of a few IMPOSSIBLEs never wrap into range.
IMPOSSIBLE = 1_000

Counts = Sequence[int]
WinPredicate = Callable[[Counts, int], bool]


def _check(counts: Counts, wilds: int) -> None:
    if len(counts) != KINDS:
        raise ValueError(f"a count vector has {KINDS} entries, not {len(counts)}")
    if min(counts) < 0 or max(counts) > 4:
        raise ValueError(f"tile counts must be 0..4: {list(counts)}")
    if wilds < 0:
        raise ValueError(f"negative wild count {wilds}")


# ---------------------------------------------------------------------------------------
# Costs: fewest wilds that turn a part of the hand into sets (plus, optionally, one pair).


def _transitions(chows_may_start: bool) -> dict[tuple[int, int, bool], tuple[tuple[int, tuple[int, int, bool]], ...]]:
    """For each DP state, every (kind total f, next state) one rank can move to."""
    table = {}
    for a in range(5):
        for b in range(5 - a):
            for paired in (False, True):
                moves = []
                for s in (range(5 - a - b) if chows_may_start else (0,)):
                    for pung in (0, 3):
                        for pair in ((0,) if paired else (0, 2)):
                            f = a + b + s + pung + pair
                            if f <= 4:  # the 4-copy limit, naturals and wilds together
                                moves.append((f, (b, s, paired or pair > 0)))
                table[(a, b, paired)] = tuple(moves)
    return table


# Chows start at ranks 1..7 only: they never run past 9 or into another suit.
_MOVES = tuple(_transitions(rank <= 6) for rank in range(9))


@lru_cache(maxsize=None)
def _suit_costs(suit: tuple[int, ...]) -> tuple[int, int]:
    """(without pair, with pair) fewest wilds completing one suit's 9 counts.

    Walks ranks 1..9 tracking the chows still open: `a` started two ranks back (this rank
    is their last tile), `b` started one rank back (they need this rank and the next).
    At each rank we choose new chows `s`, a pung or not, the pair or not; the kind's total
    f = a + b + s + pung + pair must cover the naturals (f >= n) and respect the 4-copy
    limit (f <= 4); the f - n extra tiles are wilds. Exact, including the 4-copy limit,
    which a lowest-tile greedy search gets wrong (2222m + 1 wild).
    """
    if not any(suit):
        return 0, 2  # nothing to cover; a pair here would be two wilds
    states = {(0, 0, False): 0}
    for moves, n in zip(_MOVES, suit):
        nxt: dict[tuple[int, int, bool], int] = {}
        for state, cost in states.items():
            for f, key in moves[state]:
                if f >= n:  # every natural tile must be used
                    c = cost + f - n
                    if c < nxt.get(key, IMPOSSIBLE):
                        nxt[key] = c
        states = nxt
    # After rank 9 no chow can be open (none may start at 8 or 9), so keys are (0, 0, *).
    return states.get((0, 0, False), IMPOSSIBLE), states.get((0, 0, True), IMPOSSIBLE)


@lru_cache(maxsize=None)
def _suit_costs_capped(suit: tuple[int, ...], caps: tuple[int, ...], pair_ok: tuple[bool, ...]) -> tuple[int, int]:
    """_suit_costs with a cap on each rank's total (room) and the pair only where pair_ok."""
    if any(n > c for n, c in zip(suit, caps)):
        return IMPOSSIBLE, IMPOSSIBLE
    states = {(0, 0, False): 0}
    for moves, n, cap, may_pair in zip(_MOVES, suit, caps, pair_ok):
        nxt: dict[tuple[int, int, bool], int] = {}
        for state, cost in states.items():
            for f, key in moves[state]:
                if n <= f <= cap and (may_pair or key[2] == state[2]):
                    c = cost + f - n
                    if c < nxt.get(key, IMPOSSIBLE):
                        nxt[key] = c
        states = nxt
    return states.get((0, 0, False), IMPOSSIBLE), states.get((0, 0, True), IMPOSSIBLE)


def _honor_costs_capped(honors: Sequence[int], caps: Sequence[int], pair_ok: Sequence[bool]) -> tuple[int, int]:
    no_pair, pair_extra = 0, IMPOSSIBLE
    for n, cap, may_pair in zip(honors, caps, pair_ok):
        if n > cap or n == 4:
            return IMPOSSIBLE, IMPOSSIBLE
        plain = 0 if n == 0 else (3 - n if cap >= 3 else IMPOSSIBLE)
        paired = 2 - n if may_pair and n <= 2 and cap >= 2 else IMPOSSIBLE
        no_pair += plain
        pair_extra = min(pair_extra, paired - plain)
    return min(no_pair, IMPOSSIBLE), min(no_pair + pair_extra, IMPOSSIBLE)


def _part_costs_capped(counts: Counts, room: Sequence[int] | None, pair_kinds) -> list[tuple[int, int]]:
    c = tuple(counts)
    caps = tuple(room) if room is not None else (4,) * KINDS
    ok = tuple(pair_kinds is None or t in pair_kinds for t in range(KINDS))
    return [_suit_costs_capped(c[i:i + 9], caps[i:i + 9], ok[i:i + 9]) for i in (0, 9, 18)] + [
        _honor_costs_capped(c[27:34], caps[27:34], ok[27:34])]


# Per honor kind by count 0..4: honors only make pungs and pairs (never sequences).
_HONOR_NO_PAIR = (0, 2, 1, 0, IMPOSSIBLE)  # 4 copies: a pung leaves a single needing a 5th
_HONOR_PAIR = (2, 1, 0, IMPOSSIBLE, IMPOSSIBLE)  # 3 + pair needs a 5th copy


def _honor_costs(honors: Sequence[int]) -> tuple[int, int]:
    """(without pair, with pair) for the 7 honor counts."""
    no_pair = 0
    pair_extra = IMPOSSIBLE
    for n in honors:
        no_pair += _HONOR_NO_PAIR[n]
        extra = _HONOR_PAIR[n] - _HONOR_NO_PAIR[n]
        if extra < pair_extra:
            pair_extra = extra
    return no_pair, no_pair + pair_extra


def _part_costs(counts: Counts) -> list[tuple[int, int]]:
    c = tuple(counts)
    return [_suit_costs(c[0:9]), _suit_costs(c[9:18]), _suit_costs(c[18:27]), _honor_costs(c[27:34])]


def _combine(parts: Sequence[tuple[int, int]], with_pair: bool) -> int:
    no_pair = sum(p[0] for p in parts)
    if not with_pair:
        return min(no_pair, IMPOSSIBLE)
    # Exactly one part carries the pair (a two-wild pair is priced inside each part).
    best = min(no_pair - p[0] + p[1] for p in parts)
    return min(best, IMPOSSIBLE)


def standard_cost(counts: Counts, with_pair: bool = True, room: Sequence[int] | None = None,
                  pair_kinds=None) -> int:
    """Fewest wilds that complete counts into sets (pungs, same-suit chows) + one pair.

    With with_pair=False: sets only. Returns IMPOSSIBLE when no number of wilds can do it.
    The result says nothing about tile totals: callers check the 3k+2 size themselves.
    `room` caps each kind's total (naturals plus wilds standing for it); `pair_kinds` limits
    the pair to those kinds.
    """
    _check(counts, 0)
    if room is None and pair_kinds is None:
        return _combine(_part_costs(counts), with_pair)
    return _combine(_part_costs_capped(counts, room, pair_kinds), with_pair)


def clear_caches() -> None:
    """Drop the memoized suit table (benchmarks use this for cold-cache figures)."""
    _suit_costs.cache_clear()


# ---------------------------------------------------------------------------------------
# Win predicates.


def is_standard_win(counts: Counts, wilds: int = 0, room: Sequence[int] | None = None, pair_kinds=None) -> bool:
    """Concealed tiles plus wilds form k sets and one pair (total ≡ 2 mod 3)."""
    _check(counts, wilds)
    if (sum(counts) + wilds) % 3 != 2:
        return False
    # Leftover wilds number a multiple of 3 (both totals are ≡ 2) and form wild pungs of
    # unused kinds (a real hand leaves dozens of kinds with room for three).
    if room is None and pair_kinds is None:
        return _combine(_part_costs(counts), True) <= wilds
    return _combine(_part_costs_capped(counts, room, pair_kinds), True) <= wilds


def is_seven_pairs(counts: Counts, wilds: int = 0, room: Sequence[int] | None = None) -> bool:
    """Exactly 14 tiles as seven pairs; four of a kind counts as two pairs."""
    _check(counts, wilds)
    if sum(counts) + wilds != 14:
        return False
    if room is not None and any(n > r or (n & 1 and n + 1 > r) for n, r in zip(counts, room)):
        return False  # a single whose pairing wild would be a copy not in play
    # Each odd count leaves a single (at most 3 copies, so its wild is at most the 4th);
    # spare wilds pair with each other, and the total of 14 makes their number even.
    singles = sum(n & 1 for n in counts)
    return singles <= wilds


def is_thirteen_orphans(counts: Counts, wilds: int = 0, pair_kinds: Iterable[int] | None = None,
                        room: Sequence[int] | None = None) -> bool:
    """十三幺: one of each terminal/honor kind plus one duplicate; 14 tiles.

    pair_kinds, if given, limits which kinds may be the duplicate (e.g. dragons only);
    a wild may supply any missing kind or the duplicate (standing for an allowed kind).
    """
    _check(counts, wilds)
    if sum(counts) + wilds != 14:
        return False
    orphans = TERMINALS_AND_HONORS
    if any(n for t, n in enumerate(counts) if t not in orphans):
        return False
    allowed = set(orphans) if pair_kinds is None else set(pair_kinds) & set(orphans)
    doubles = [t for t in orphans if counts[t] == 2]
    if any(counts[t] > 2 for t in orphans) or len(doubles) > 1:
        return False
    if doubles:
        # The total of 14 then leaves exactly one wild per missing kind.
        return doubles[0] in allowed
    # No natural duplicate: the wilds cover the missing kinds and the duplicate, which can
    # stand for any allowed kind (it becomes the second copy of that kind).
    return bool(allowed)


# ---------------------------------------------------------------------------------------
# Waits.


def _standard_waits(counts: Counts, wilds: int, kinds: Iterable[int], first_only: bool) -> tuple[int, ...]:
    """Standard-win waits, recomputing only the part the added tile falls in."""
    if (sum(counts) + wilds) % 3 != 1:
        return ()
    c = tuple(counts)
    parts = _part_costs(c)
    if wilds == 0:
        # Without wilds a drawn tile must join held tiles: a pair or pung of its own kind,
        # or a chow, which always holds a tile of rank t-1 or t+1 (edge, middle or closed).
        near = set()
        for t, n in enumerate(c):
            if n:
                if t >= 27:
                    near.add(t)
                else:
                    base = t - t % 9
                    near.update(range(max(base, t - 1), min(base + 8, t + 1) + 1))
        candidates = sorted(near.intersection(kinds))
    else:
        candidates = sorted(set(kinds))  # a wild can pair or chow with anything
    found = []
    for t in candidates:
        if c[t] >= 4:
            continue  # a fifth copy does not exist
        part = t // 9 if t < 27 else 3
        if part < 3:
            lo = part * 9
            suit = list(c[lo:lo + 9])
            suit[t - lo] += 1
            costs = _suit_costs(tuple(suit))
        else:
            honors = list(c[27:34])
            honors[t - 27] += 1
            costs = _honor_costs(honors)
        trial = parts.copy()
        trial[part] = costs
        if _combine(trial, True) <= wilds:
            found.append(t)
            if first_only:
                break
    return tuple(found)


def _generic_waits(counts: Counts, wilds: int, win: WinPredicate, kinds: Iterable[int], first_only: bool) -> tuple[int, ...]:
    trial = list(counts)  # a private copy: never touch the caller's list
    found = []
    for t in sorted(set(kinds)):
        if trial[t] >= 4:
            continue
        trial[t] += 1
        ok = win(trial, wilds)
        trial[t] -= 1
        if ok:
            found.append(t)
            if first_only:
                break
    return tuple(found)


def waits(counts: Counts, wilds: int = 0, win: WinPredicate = is_standard_win,
          kinds: Iterable[int] = range(KINDS)) -> tuple[int, ...]:
    """Sorted kinds t in `kinds` with win(counts + t, wilds); never a fifth copy of a kind.

    `win` may be any (counts, wilds) -> bool predicate, e.g. standard-or-seven-pairs.
    """
    _check(counts, wilds)
    if win is is_standard_win:
        return _standard_waits(counts, wilds, kinds, first_only=False)
    return _generic_waits(counts, wilds, win, kinds, first_only=False)


def is_tenpai(counts: Counts, wilds: int = 0, win: WinPredicate = is_standard_win,
              kinds: Iterable[int] = range(KINDS)) -> bool:
    """True when at least one tile completes the hand (see waits)."""
    _check(counts, wilds)
    if win is is_standard_win:
        return bool(_standard_waits(counts, wilds, kinds, first_only=True))
    return bool(_generic_waits(counts, wilds, win, kinds, first_only=True))


# ---------------------------------------------------------------------------------------
# Decompositions (for scoring patterns).


@dataclass(frozen=True, order=True)
class Decomposition:
    """One standard shape in concrete kinds: the pair and the sorted sets.

    Each set is ("chow", lowest kind) or ("pung", kind); wilds appear as the kinds they
    stand for. Which tiles were wild is not recorded.
    """
    pair: int
    sets: tuple[tuple[str, int], ...]


# Every set a run of wilds alone can stand for: all pungs, then all chows.
_ALL_SETS = tuple(("pung", t) for t in range(KINDS)) + tuple(
    ("chow", t) for t in range(27) if t % 9 <= 6
)


def _set_kinds(piece: tuple[str, int]) -> tuple[int, ...]:
    kind, t = piece
    return (t, t, t) if kind == "pung" else (t, t + 1, t + 2)


def decompositions(counts: Counts, wilds: int = 0) -> list[Decomposition]:
    """Every distinct standard decomposition of counts + wilds, sorted.

    Wilds become concrete kinds (honors included) within the 4-copy limit. Pieces made of
    wilds alone are enumerated exhaustively: two spare wilds yield a pair of every kind
    that has room, three yield every pung and every chow that has room. That keeps the
    list finite and lets scoring see, e.g., a wild 789m completing 一条龙; it also means a
    hand with spare wilds has dozens of decompositions.
    """
    _check(counts, wilds)
    if (sum(counts) + wilds) % 3 != 2 or standard_cost(counts) > wilds:
        return []
    orig = tuple(counts)
    rem = list(counts)       # naturals not yet placed
    wild_at = [0] * KINDS    # wilds placed as each kind; orig + wild_at <= 4
    sets: list[tuple[str, int]] = []
    found: set[Decomposition] = set()

    def place(slots: Sequence[int], budget: int) -> tuple[list[int], list[int]] | None:
        """Fill slots with naturals where left, else wilds; None if over budget or cap."""
        naturals, wild = [], []
        for k in slots:
            if rem[k] > 0:
                rem[k] -= 1
                naturals.append(k)
            elif len(wild) < budget and orig[k] + wild_at[k] < 4:
                wild_at[k] += 1
                wild.append(k)
            else:
                unplace(naturals, wild)
                return None
        return naturals, wild

    def unplace(naturals: list[int], wild: list[int]) -> None:
        for k in naturals:
            rem[k] += 1
        for k in wild:
            wild_at[k] -= 1

    def leftover_wilds(budget: int, pair: int | None) -> None:
        """Naturals are all placed: spend the remaining wilds on all-wild pieces."""
        pair_options = [pair] if pair is not None else [
            t for t in range(KINDS) if orig[t] + wild_at[t] + 2 <= 4
        ]
        n_sets = (budget - (0 if pair is not None else 2)) // 3
        for p in pair_options:
            if pair is None:
                wild_at[p] += 2
            for extra in combinations_with_replacement(_ALL_SETS, n_sets):
                used = [0] * KINDS
                for piece in extra:
                    for k in _set_kinds(piece):
                        used[k] += 1
                if all(orig[k] + wild_at[k] + used[k] <= 4 for k in range(KINDS) if used[k]):
                    found.add(Decomposition(p, tuple(sorted(sets + list(extra)))))
            if pair is None:
                wild_at[p] -= 2

    def search(start: int, budget: int, pair: int | None) -> None:
        i = next((k for k in range(start, KINDS) if rem[k]), None)
        if i is None:
            leftover_wilds(budget, pair)
            return
        # Prune with a lower bound: standard_cost on what is left assumes the full 4-copy
        # room per kind, at least as much as is really left, so it never overestimates.
        if _combine(_part_costs(rem), pair is None) > budget:
            return
        # The lowest natural left must sit in some piece; taking naturals before wilds in
        # that piece loses nothing, since a natural and a wild of the same kind swap freely.
        options: list[tuple[str, tuple[int, ...]]] = []
        if pair is None:
            options.append(("pair", (i, i)))
        options.append(("pung", (i, i, i)))
        if i < 27:
            for s in (i - 2, i - 1, i):
                if s >= 0 and s // 9 == i // 9 and s % 9 <= 6:
                    options.append(("chow", (s, s + 1, s + 2)))
        for kind, slots in options:
            placed = place(slots, budget)
            if placed is None:
                continue
            spent = len(placed[1])
            if kind == "pair":
                search(i, budget - spent, i)
            else:
                sets.append((kind, slots[0]))
                search(i, budget - spent, pair)
                sets.pop()
            unplace(*placed)

    search(0, wilds, None)
    return sorted(found)
