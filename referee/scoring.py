"""Scoring mechanisms shared by every variant: patterns (番种) as small declarative units,
the reading of a winning hand that scores highest, and the settlement pipeline: each winner's
hand priced, shared out among its payers (with 包 liability), add-ons (kong money, birds,
horses) and the cap, all as transfers in one ledger of who pays whom."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Iterable, NamedTuple

from referee import actions as A
from referee import shapes
from referee import tiles as T
from referee.outcome import Outcome, WinInfo
from referee.state import CHI
from referee.verdict import PatternScore, Settlement

PUNG, CHOW = "pung", "chow"
ADD, TIMES = "add", "times"  # a pattern adds its value, or multiplies the hand's value by it
ALONE = "alone"  # a special hand (爆胡以外): counted alone, never with the ADD patterns (FanCount)
HOUSE = -1  # the payee of a house fee (the QQ coin rooms' 系统回收): it leaves the table


class cached_property:
    """functools.cached_property without its lock (Python 3.11 takes one on every first access, a
    microsecond a time, and a hand's readings make many): the value computed once per object."""

    def __init__(self, compute):
        self.compute, self.name, self.__doc__ = compute, compute.__name__, compute.__doc__

    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.compute(obj)  # found in the object from now on
        return value


class HandContext(NamedTuple):
    """The table facts a pattern may need beyond the hand: the dealer, the indicator, the winds."""
    dealer: int
    indicator: int | None = None
    round_wind: int = 27

    @classmethod
    def of(cls, outcome: Outcome) -> "HandContext":
        return cls(outcome.dealer, outcome.indicator, outcome.round_wind)


class HandView:
    """One reading of a winning hand: its shape and, for 4 sets + a pair, one decomposition.

    Patterns ask it questions; each answer is derived, never stored separately.
    """

    def __init__(self, win: WinInfo, shape: str, decomposition: shapes.Decomposition | None = None,
                 context: HandContext | None = None):
        self.win = win
        self.shape = shape
        self.decomposition = decomposition
        self.context = context

    @cached_property
    def _split(self) -> tuple[list[int], int]:
        return self.win.naturals_and_wilds()

    @cached_property
    def naturals(self) -> list[int]:
        """The concealed tiles that are not wild."""
        return self._split[0]

    @cached_property
    def wild_count(self) -> int:
        return self._split[1]

    @cached_property
    def all_tiles(self) -> list[int]:
        """Concealed plus melded tiles, a kong counted as four."""
        vector = list(self.win.hand)
        for meld in self.win.melds:
            for t in meld.tiles:
                vector[t] += 1
        return vector

    @cached_property
    def suits(self) -> set[int]:
        """Suits present (0 万, 1 筒, 2 条), honors left out."""
        return T.suits_held(self.all_tiles)

    @cached_property
    def has_honors(self) -> bool:
        return T.holds_honor(self.all_tiles)

    @property
    def open_melds(self):
        return [m for m in self.win.melds if m.is_open]

    @cached_property
    def sets(self) -> list[tuple[str, int]]:
        """Every set of a standard reading: concealed ones from the decomposition, then melds."""
        if self.decomposition is None:
            return []
        melded = [(CHOW if m.kind == CHI else PUNG, m.tile) for m in self.win.melds]
        return list(self.decomposition.sets) + melded

    @property
    def concealed_sets(self) -> tuple[tuple[str, int], ...]:
        return self.decomposition.sets if self.decomposition else ()

    def has_chows(self, *lows: int) -> bool:
        """Does this reading hold a chow starting at each of these tiles (all distinct sets)?"""
        pool = [low for kind, low in self.sets if kind == CHOW]
        for low in lows:
            if low not in pool:
                return False
            pool.remove(low)
        return True


@dataclass(frozen=True)
class Pattern:
    name: str  # as the rule book writes it
    gloss: str
    value: int
    applies: Callable[[HandView], bool]
    replaces: tuple[str, ...] = ()
    kind: str = ADD  # ADD: its value adds up; TIMES: it multiplies the hand's value


def evaluate(patterns: Iterable[Pattern], view: HandView) -> list[Pattern]:
    """The patterns this reading scores, after the replacements the rule book states."""
    hits = [p for p in patterns if p.applies(view)]
    replaced = {name for p in hits for name in p.replaces}
    return [p for p in hits if p.name not in replaced]


def readings(win: WinInfo, shape_names: Iterable[str], context: HandContext | None = None) -> list[HandView]:
    """Every reading of the hand: one per decomposition for the standard shape (wilds standing
    for concrete kinds), one per special shape."""
    views = []
    for shape in shape_names:
        if shape == "standard":
            naturals, wilds = win.naturals_and_wilds()
            views.extend(HandView(win, shape, d, context) for d in shapes.decompositions(naturals, wilds))
        else:
            views.append(HandView(win, shape, None, context))
    return views


def added(scored: list[Pattern]) -> int:
    """The sum of the patterns that add."""
    return sum(p.value for p in scored if p.kind == ADD)


def factor(scored: list[Pattern]) -> int:
    """The product of the patterns that multiply (1 if none)."""
    times = 1
    for p in scored:
        if p.kind == TIMES:
            times *= p.value
    return times


def worth(scored: list[Pattern]) -> int:
    """A reading's value to the winner: its added values times its multipliers."""
    return added(scored) * factor(scored)


def best_reading(patterns: tuple[Pattern, ...], views: list[HandView],
                 value: Callable[[list[Pattern]], int] = worth) -> tuple[HandView, list[Pattern]]:
    """The reading worth most to the winner (SPEC REC-global-2); the first one on a tie.
    `value` says what a reading's patterns are worth (default: `worth`)."""
    best = None
    for view in views:
        scored = evaluate(patterns, view)
        total = value(scored)
        if best is None or total > best[0]:
            best = (total, view, scored)
    if best is None:
        raise ValueError("a winning hand with no reading")
    return best[1], best[2]


@dataclass(frozen=True)
class FanCount:
    """A 番 total under an 爆胡 cap (封顶), for the rule books that double per 番 (鸡平胡 2^番,
    大连 2^(番−1)): ADD patterns add up and their total is clipped at `cap` (None: no cap);
    ALONE patterns (specials, "爆胡以外") are taken alone, never with the ADD ones and never
    capped: the highest one, or their sum with `specials_add`. A floor ("不满N番按N番计") raises
    the total to at least a minimum after that (`floored`)."""
    cap: int | None = None
    specials_add: bool = False

    def counted(self, scored: list[Pattern]) -> list[Pattern]:
        """The patterns that make the total: the special(s) alone if there is one, else the ADD ones."""
        specials = [p for p in scored if p.kind == ALONE]
        if not specials:
            return [p for p in scored if p.kind == ADD]
        return specials if self.specials_add else [max(specials, key=lambda p: p.value)]

    def uncapped(self, scored: list[Pattern]) -> int:
        return sum(p.value for p in self.counted(scored))

    def total(self, scored: list[Pattern]) -> int:
        """The hand's 番: the special(s), or the ADD patterns clipped at the cap."""
        counted = self.counted(scored)
        fan = sum(p.value for p in counted)
        if self.cap is not None and counted and counted[0].kind == ADD:
            return min(fan, self.cap)
        return fan

    def capped(self, scored: list[Pattern]) -> bool:
        """Did the cap clip this total?"""
        return self.total(scored) < self.uncapped(scored)

    @staticmethod
    def floored(fan: int, floor: int | None) -> int:
        """A total raised to a floor ("不满N番的牌型按N番计，大于N番按实际牌型计"); None: no floor."""
        return fan if floor is None else max(fan, floor)


def doubled(fan: int, unit: int = 1, offset: int = 0) -> int:
    """unit × 2^(fan − offset): 鸡平胡 pays 2^番 (offset 0); 大连's 滚滚番 2^(番−1) × base per payer
    (offset 1, "2的（总番-1）次方 × 房间基本分"). Fewer 番 than the offset pay nothing."""
    return unit << (fan - offset) if fan >= offset else 0


# -- 番 that differ by payer, and doubling ---------------------------------------------------------
@dataclass(frozen=True)
class PayerFan:
    """A 番 item priced per payer: it may apply to one payer and not another (大连: 放炮 only to
    the discarder, 未开门 only to a payer who has not opened, 庄家 when the winner or the payer
    deals). `applies(win, payer, outcome)`."""
    name: str
    gloss: str
    value: int
    applies: Callable[[WinInfo, int, Outcome], bool]


def payer_fan(items: Iterable[PayerFan], win: WinInfo, payer: int, outcome: Outcome) -> list[PayerFan]:
    """The items that apply between this winner and this payer."""
    return [item for item in items if item.applies(win, payer, outcome)]


# -- the settlement pipeline ---------------------------------------------------------------------
@dataclass
class Priced:
    """One winner's hand as the rule book prices it: its breakdown (name, value) for the
    verdict, what each payer owes, and why."""
    patterns: list[tuple[str, int]]
    owed: Callable[[int], int]  # payer -> amount
    reason: Callable[[int], str]  # payer -> the ledger's explanation


def shares(win: WinInfo) -> list[tuple[int, int]]:
    """(payer, whose share) for a win: a self-draw is paid by the three others, a win on a
    discard (or a robbed kong) by the discarder. Liability rules pass their own: the liable
    seat paying other seats' shares (包; referee/parts/liability.py)."""
    if win.kind == A.SELF_WIN:
        return self_draw_shares(win)
    return [(win.from_seat, win.from_seat)]


def self_draw_shares(win: WinInfo) -> list[tuple[int, int]]:
    """The three other seats' shares, each paid by its own seat (a self-draw)."""
    return [((win.seat + k) % 4, (win.seat + k) % 4) for k in (1, 2, 3)]


def pay_wins(ledger: "Ledger", outcome: Outcome, price: Callable[[WinInfo], Priced],
             shares_of: Callable[[WinInfo], list[tuple[int, int]]] = shares) -> list[PatternScore]:
    """Each winner priced and paid by its payers; returns the pattern breakdown."""
    scored: list[PatternScore] = []
    for win in outcome.wins:
        priced = price(win)
        scored.extend(PatternScore(win.seat, name, value) for name, value in priced.patterns)
        for payer, share in shares_of(win):
            covering = "" if payer == share else f"; covering seat {share}'s share (包)"
            ledger.pay(payer, win.seat, priced.owed(share), priced.reason(share) + covering)
    return scored


def claims_other_patterns(claimed, recomputed: Settlement) -> bool:
    """Does the platform's logged pattern list (if it logs one) name other patterns than the
    referee's, by seat and name? A payment that differs then lies in the hand's value, whatever
    else (birds or horses counted from another seat) would also explain the amount."""
    mine = Counter((p.seat, p.name) for p in recomputed.patterns)
    return bool(claimed.patterns) and Counter((p.seat, p.name) for p in claimed.patterns) != mine


def settlement(ledger: "Ledger", scored: list[PatternScore]) -> Settlement:
    return Settlement(payments=ledger.nets(), kong_payments=ledger.nets(kong_only=True), patterns=tuple(scored),
                      lines=ledger.lines())


@dataclass
class Transfer:
    payer: int
    payee: int
    amount: int
    reason: str
    kong: bool = False


def largest_remainders(amounts: list[int], total: int) -> list[int]:
    """The amounts scaled to add up to `total` (at most their sum): each floored, then one more
    for each of the largest remainders, the earlier amount first on a tie."""
    whole = sum(amounts)
    scaled = [a * total // whole for a in amounts]
    order = sorted(range(len(amounts)), key=lambda i: (-(amounts[i] * total % whole), i))
    for i in order[:total - sum(scaled)]:
        scaled[i] += 1
    return scaled


@dataclass
class Ledger:
    """Who pays whom and why; nets and explanation lines derive from it."""
    transfers: list[Transfer] = field(default_factory=list)

    def pay(self, payer: int, payee: int, amount: int, reason: str, kong: bool = False) -> None:
        if amount:
            self.transfers.append(Transfer(payer, payee, amount, reason, kong))

    def fee(self, payer: int, amount: int, reason: str) -> None:
        """A house fee: the amount leaves the table, so the hand no longer nets to zero."""
        self.pay(payer, HOUSE, amount, reason)

    def scale(self, factor: int, why: str) -> None:
        """Every transfer so far times a factor (a room coefficient), which each line then names."""
        for t in self.transfers:
            t.amount *= factor
            if factor != 1:
                t.reason += f"; × {factor} ({why})"

    def nets(self, kong_only: bool = False) -> tuple[int, ...]:
        net = [0, 0, 0, 0]
        for t in self.transfers:
            if kong_only and not t.kong:
                continue
            net[t.payer] -= t.amount
            if t.payee != HOUSE:
                net[t.payee] += t.amount
        return tuple(net)

    def lines(self) -> tuple[str, ...]:
        return tuple(f"seat {t.payer} -> {'the house' if t.payee == HOUSE else f'seat {t.payee}'}: {t.amount} "
                     f"({t.reason})" for t in self.transfers)

    def cap(self, limit: int) -> None:
        """Clip each seat's net to ±limit, keeping the hand zero-sum.

        A seat that would gain more than the limit has what each payer owes it reduced
        pro rata, each payer's total rounded down once ("reduce the payers pro rata (floor)");
        then a seat that would lose more has its payments reduced the same way (SPEC HB-A11,
        DL-A12). Each of a counterpart's lines (the hand, each kong) is scaled by the same factor,
        and what their separate floors lost goes to the largest remainders (the earlier line on
        a tie). Each changed line says whose net was clipped.
        """
        before = [t.amount for t in self.transfers]
        why: dict[int, str] = {}  # transfer index -> the clipped seat's note
        for gaining in (True, False):
            nets = self.nets()
            for seat in range(4):
                over = nets[seat] > limit if gaining else nets[seat] < -limit
                if not over:
                    continue
                mine = [i for i, t in enumerate(self.transfers) if (t.payee if gaining else t.payer) == seat]
                gross = sum(self.transfers[i].amount for i in mine)
                # What flows the other way stays as it is.
                counter = gross - nets[seat] if gaining else gross + nets[seat]
                target = limit + counter
                by_other: dict[int, list[int]] = {}
                for i in mine:
                    t = self.transfers[i]
                    by_other.setdefault(t.payer if gaining else t.payee, []).append(i)
                note = (f"seat {seat} gains at most {limit}: its payers pay pro rata" if gaining else
                        f"seat {seat} loses at most {limit}: what it pays is cut pro rata")
                for lines in by_other.values():
                    amounts = [self.transfers[i].amount for i in lines]
                    share = sum(amounts) * target // gross
                    for i, amount in zip(lines, largest_remainders(amounts, share)):
                        if amount != self.transfers[i].amount:
                            self.transfers[i].amount = amount
                            why[i] = note
        for i, (t, amount) in enumerate(zip(self.transfers, before)):
            if t.amount != amount:
                t.reason += f"; {amount} capped to {t.amount} ({why[i]})"
