"""Checks across the hands of one match: a hand can be clean while the match is not.

The records of a match share a `match_id` and are ordered by `hand_index` (0, 1, 2, ...). Given
those records with their verdicts, `check_match` finds:

* MATCH_HAND_DUPLICATED  two records with one hand index (the first, in (hand_index, source,
  offset) order, is the hand; the others are duplicates and take part in no other check);
* MATCH_HAND_MISSING     a gap in the indices (one finding per gap). The records need not start at
  hand 0 (an arbiter verifying one disputed hand, an archive that holds the end of a match);
* MATCH_DEALER_MISMATCH  a hand dealt by another seat than the dealer rule gives after the hand
  before it, as the referee recomputed that hand (`Verdict.next_dealer`, the ruleset's own
  `next_dealer(outcome)`), not as its record claims;
* MATCH_TOTALS_MISMATCH  `totals_after` differs from `totals_before` + the hand's claimed payments;
* MATCH_TOTALS_NOT_CARRIED  a hand's `totals_before` differs from the `totals_after` of the hand before it;
* MATCH_WIND_MISMATCH    where the rule book keeps a round wind (鸡平胡, SPEC J.1): the first hand is
  played in the East round (and, with fixed seat winds, dealt by seat 0, the East seat), and the
  wind advances E → S → W → N when the fourth dealer of a cycle passes the deal on;
* MATCH_STATE_MISMATCH   where settlement reads it (哈尔滨 HRB-A6): the 流局 in a row before a hand
  (`match_state.consecutive_draws`): one more than the hand before it after a 流局, none after a win.

Checks between two hands need both: across a missing hand, or after a hand that could not be
replayed or did not end, they are skipped. Each check compares a hand with the one just before
it as logged, so one fault gives one finding (a wind the platform failed to advance is reported
at that hand, not again at every later one).

The same function serves `mjref verify` (records of a directory or archive, findings attached
to the verdict of the record that carries them) and the audit pipeline (hands grouped by
match_id in Beam, findings written to the match_violations and matches tables). Records without
a match_id are never grouped.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Mapping

from referee import tiles as T
from referee.codes import CODES
from referee.proto import record_pb2 as pb
from referee.rules import RulesetError, get_ruleset
from referee.verdict import CLEAN, ERROR, UNREPLAYABLE, VIOLATIONS, Verdict, Violation

WINDS = (pb.E, pb.S, pb.W, pb.N)  # the round winds in order, as proto codes
WIND_NAMES = {pb.E: "东 (E)", pb.S: "南 (S)", pb.W: "西 (W)", pb.N: "北 (N)"}


# -- what the checks know of a hand --------------------------------------------------------------
@dataclass(frozen=True)
class Hand:
    """One record of a match, as the match checks read it: small and picklable (the audit groups these)."""
    match_id: str
    hand_index: int
    game_id: str
    source: str
    offset: int | None  # the frame's byte offset in an archive; None for a record file
    ruleset: str
    replayed: bool  # False: the referee could not replay it
    dealer: int
    round_wind: int  # proto code (0: not logged)
    draws_before: int  # match_state.consecutive_draws
    totals_before: tuple[int, ...]
    totals_after: tuple[int, ...]
    claimed: tuple[int, ...] | None  # the claimed payments
    recomputed: tuple[int, ...] | None  # the referee's settlement (None: the hand did not end)
    next_dealer: int | None  # the dealer rule's next dealer, recomputed (None: the hand did not end)
    drawn: bool  # ended with no winner (流局)
    # What the rule book asks of a match (from the ruleset and its options).
    draws_carried: bool = False
    round_wind_advances: bool = False
    first_dealer: int | None = None
    options: tuple = ()  # the record's own rule options as parsed, sorted (key, value) pairs

    @property
    def ended(self) -> bool:
        return self.recomputed is not None

    def where(self) -> str:
        at = f"{self.source}@{self.offset}" if self.offset is not None else self.source
        return f"game {self.game_id or '?'} ({at})"


@lru_cache(maxsize=256)
def _match_rules(name: str, options: tuple, overrides: tuple) -> tuple[bool, bool, int | None, tuple]:
    """What the rule book asks of a match, and the option values the hand is judged under that are
    not the defaults, as parsed (so that "true" and "1" are one value, and an option logged at its
    default or overridden for every hand is no difference); the logged options where they do not parse."""
    try:
        rules = get_ruleset(name, dict(options), dict(overrides))
    except RulesetError:
        return False, False, None, options
    defaults = {option.name: option.default for option in rules.options}
    in_force = tuple(sorted((key, value) for key, value in rules.values.items() if value != defaults.get(key)))
    return rules.reads_draws_before, rules.round_wind_advances, rules.first_dealer(), in_force


def hand_of(record: pb.GameRecord, verdict: Verdict, source: str = "", offset: int | None = None,
            overrides: Mapping[str, str] | None = None) -> Hand:
    """The facts of one judged record (judged under `overrides`, as its verdict was)."""
    draws, winds, first, options = _match_rules(record.ruleset.name, tuple(sorted(record.ruleset.options.items())),
                                                tuple(sorted((overrides or {}).items())))
    replayed = verdict.status != UNREPLAYABLE
    claimed = tuple(record.claimed.payments) if record.claimed.payments else None
    return Hand(record.match_id, record.hand_index, record.game_id, source, offset, record.ruleset.name, replayed,
                record.dealer, record.round_wind, record.match_state.consecutive_draws,
                tuple(record.match_state.totals_before), tuple(record.claimed.totals_after), claimed,
                tuple(verdict.recomputed.payments) if replayed and verdict.recomputed is not None else None,
                verdict.next_dealer if replayed else None, replayed and verdict.drawn, draws, winds, first, options)


# -- what the rule books say between hands (the simulator writes matches with the same functions) ---
def draws_after(drawn: bool, draws_before: int) -> int:
    """流局 in a row before the next hand: one more after a 流局, none after a win."""
    return draws_before + 1 if drawn else 0


def next_round_wind(round_wind: int, first_dealer: int, dealer: int, next_dealer: int) -> int:
    """SPEC J.1: the round wind of the next hand. A cycle ends when its fourth dealer (the seat
    before the match's first dealer) passes the deal on ("最后一位玩家做庄之牌局完结而没有连庄"); then
    the wind advances E → S → W → N (and after N, E again)."""
    if next_dealer != dealer and dealer == (first_dealer + 3) % 4:
        at = WINDS.index(round_wind) if round_wind in WINDS else 0
        return WINDS[(at + 1) % 4]
    return round_wind


def add_totals(totals: tuple[int, ...] | list[int], payments) -> tuple[int, ...]:
    return tuple(int(a) + int(b) for a, b in zip(totals, payments))


@dataclass
class MatchProgress:
    """Where a match stands before its next hand, as a correct platform keeps it: the simulator
    writes whole matches with it (and the fault injector rewrites them), so that they pass every
    check above by construction of the same functions."""
    match_id: str
    first_dealer: int
    round_wind_advances: bool = False
    hand_index: int = 0
    dealer: int = -1  # -1: the first dealer
    round_wind: int = pb.E
    draws_before: int = 0
    totals: tuple[int, ...] = (0, 0, 0, 0)

    def __post_init__(self) -> None:
        if self.dealer < 0:
            self.dealer = self.first_dealer

    def stamp(self, record: pb.GameRecord) -> None:
        """Write the match fields of the next hand into its record (before it is played)."""
        record.match_id, record.hand_index, record.dealer = self.match_id, self.hand_index, self.dealer
        record.round_wind = self.round_wind
        record.match_state.consecutive_draws = self.draws_before
        del record.match_state.totals_before[:]
        record.match_state.totals_before.extend(self.totals)

    def after(self, record: pb.GameRecord, next_dealer: int, drawn: bool) -> None:
        """The hand was played and its claim written: its running totals, and on to the next hand."""
        self.totals = add_totals(self.totals, record.claimed.payments)
        del record.claimed.totals_after[:]
        record.claimed.totals_after.extend(self.totals)
        if self.round_wind_advances:
            self.round_wind = next_round_wind(self.round_wind, self.first_dealer, self.dealer, next_dealer)
        self.draws_before = draws_after(drawn, self.draws_before)
        self.dealer = next_dealer
        self.hand_index += 1


def _wind(code: int) -> str:
    return WIND_NAMES.get(code, f"{T.label(T.from_proto(code))}" if code in T.FROM_CODE else f"code {code}")


# -- the checks ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class MatchFinding:
    code: str
    hand_index: int  # the hand it concerns (for a gap: the first missing index)
    carrier: int | None  # position, in the list given to check_match, of the record that carries it
    message: str
    severity: str = ERROR


@dataclass
class MatchResult:
    match_id: str
    ruleset: str
    records: int  # records seen
    hands: int  # distinct hand indices
    first_hand: int | None
    last_hand: int | None
    missing_hands: int
    duplicate_records: int
    unfinished: int  # hands the referee could not replay, or that did not end
    claimed_totals: tuple[int, ...] | None
    recomputed_totals: tuple[int, ...] | None
    findings: list[MatchFinding] = field(default_factory=list)

    @property
    def status(self) -> str:
        return VIOLATIONS if any(f.severity == ERROR for f in self.findings) else CLEAN

    @property
    def totals_mismatch(self) -> bool:
        return self.claimed_totals is not None and self.recomputed_totals is not None and \
            self.claimed_totals != self.recomputed_totals


def order_key(hand: Hand) -> tuple:
    return hand.hand_index, hand.source, -1 if hand.offset is None else hand.offset, hand.game_id


def check_match(hands: list[Hand]) -> MatchResult:
    """Every match-level finding for the records of one match (any order; they are sorted here)."""
    if not hands:
        raise ValueError("a match has at least one record")
    order = sorted(range(len(hands)), key=lambda i: order_key(hands[i]))
    match_id = hands[order[0]].match_id
    findings: list[MatchFinding] = []

    def find(code: str, hand_index: int, carrier: int | None, detail: str) -> None:
        c = CODES[code]
        findings.append(MatchFinding(code, hand_index, carrier, f"{c.term} ({c.gloss}): {detail}", c.severity))

    # Duplicates: the first record of an index is the hand; the others are reported and set aside.
    primary: list[int] = []
    for i in order:
        h = hands[i]
        if primary and hands[primary[-1]].hand_index == h.hand_index:
            first = hands[primary[-1]]
            find("MATCH_HAND_DUPLICATED", h.hand_index, i, f"hand {h.hand_index} of match {match_id} appears again "
                 f"in {h.where()}; it is already {first.where()}")
            continue
        primary.append(i)
    duplicates = len(hands) - len(primary)

    # Gaps between the records, one finding per gap, carried by the first hand after it.
    missing, previous = 0, hands[primary[0]].hand_index
    for i in primary[1:]:
        index = hands[i].hand_index
        if index > previous + 1:
            gap = index - previous - 1
            missing += gap
            which = f"hand {previous + 1} is" if gap == 1 else f"hands {previous + 1} to {index - 1} ({gap:,} hands) are"
            find("MATCH_HAND_MISSING", previous + 1, i, f"{which} missing from match {match_id}: the records go "
                 f"from hand {previous} to hand {index}")
        previous = index

    first = hands[primary[0]]
    # The match's rules: those most of its hands are played under (of a tie, the earliest), so one
    # hand logged under other rules is one finding, the first hand's included.
    played = Counter((hands[i].ruleset, hands[i].options) for i in primary)
    rules = played.most_common(1)[0][0]  # (equal counts keep the order first met: hand order)
    opening = first if first.hand_index == 0 else None  # the match's first hand, when present
    before: Hand | None = None
    # What each hand's round wind and 流局 count should be, from the match's deals and results (not
    # from the record before it, so one mislogged record is one finding): from the opening hand's
    # East and 0 on; after a gap, or with no opening hand, from the hand's own record.
    due: dict[int, tuple[int, int]] = {}
    for i in primary:
        h = hands[i]
        if (h.ruleset, h.options) != rules:
            find("MATCH_RULES_CHANGED", h.hand_index, i, f"hand {h.hand_index} is played under {h.ruleset} "
                 f"{dict(h.options) or '(default options)'}; {played[rules]} of the match's {len(primary)} hands are "
                 f"played under {rules[0]} {dict(rules[1]) or '(default options)'}")
        if h is opening and h.draws_carried and h.draws_before:
            find("MATCH_STATE_MISMATCH", h.hand_index, i, f"the record says {h.draws_before} 流局 in a row before "
                 f"it, but it is the first hand of match {match_id}: none came before it")
        # The hand's own running totals.
        if h.totals_after and h.totals_before and h.claimed is not None:
            if not len(h.totals_before) == len(h.totals_after) == len(h.claimed):
                find("MATCH_TOTALS_MISMATCH", h.hand_index, i, f"hand {h.hand_index} lists {len(h.totals_before)} "
                     f"totals before, {len(h.claimed)} payments and {len(h.totals_after)} totals after; one per seat")
            elif add_totals(h.totals_before, h.claimed) != h.totals_after:
                expected = add_totals(h.totals_before, h.claimed)
                find("MATCH_TOTALS_MISMATCH", h.hand_index, i, f"hand {h.hand_index}: totals before "
                     f"{list(h.totals_before)} + claimed payments {list(h.claimed)} = {list(expected)}; the record "
                     f"says {list(h.totals_after)} after it")
        # The round wind and the first dealer (鸡平胡).
        if h.round_wind_advances and h is opening:
            if h.round_wind != pb.E:
                find("MATCH_WIND_MISMATCH", h.hand_index, i, f"the first hand of match {match_id} is played in "
                     f"the {_wind(h.round_wind)} round; the first round is 东 (E)")
            if h.first_dealer is not None and h.dealer != h.first_dealer:
                find("MATCH_WIND_MISMATCH", h.hand_index, i, f"the first hand of match {match_id} is dealt by seat "
                     f"{h.dealer}; with fixed seat winds seat {h.first_dealer} is East and deals it")
        follows = before is not None and before.hand_index == h.hand_index - 1
        if follows:
            _check_pair(match_id, before, due[before.hand_index], h, i, opening, find)
        due[h.hand_index] = _expected_state(before, due, h, opening) if follows else (
            (pb.E, 0) if h is opening else (h.round_wind, h.draws_before))
        before = h

    claimed_totals, recomputed_totals = _final_totals([hands[i] for i in primary], missing)
    return MatchResult(match_id, rules[0], len(hands), len(primary), first.hand_index,
                       hands[primary[-1]].hand_index, missing, duplicates,
                       sum(not hands[i].ended for i in primary), claimed_totals, recomputed_totals, findings)


def _expected_state(p: Hand, due: dict, h: Hand, opening: Hand | None) -> tuple[int, int]:
    """(round wind, 流局 in a row) hand h should have after the hand p before it, from the ones due
    to p; where p did not end, h's own record."""
    wind, draws = due[p.hand_index]
    if not p.ended:
        return h.round_wind, h.draws_before
    if h.round_wind_advances and opening is not None:
        wind = next_round_wind(wind, opening.dealer, p.dealer, h.dealer)
    return wind, draws_after(p.drawn, draws)


def _check_pair(match_id: str, p: Hand, p_expected: tuple[int, int], h: Hand, i: int, opening: Hand | None,
                find) -> None:
    """Hand h against the hand p just before it (`p_expected`: p's round wind and 流局 count as the
    match gives them)."""
    if p.totals_after and h.totals_before and tuple(p.totals_after) != tuple(h.totals_before):
        find("MATCH_TOTALS_NOT_CARRIED", h.hand_index, i, f"hand {h.hand_index} starts from totals "
             f"{list(h.totals_before)}; hand {p.hand_index} ended with {list(p.totals_after)}")
    if not p.ended:
        return  # the hand before did not end (or could not be replayed): nothing follows from it
    if p.next_dealer is not None and h.dealer != p.next_dealer:
        how = "a 流局" if p.drawn else "won"
        find("MATCH_DEALER_MISMATCH", h.hand_index, i, f"hand {h.hand_index} of match {match_id} is dealt by seat "
             f"{h.dealer}; hand {p.hand_index} (dealer seat {p.dealer}) was {how}, so the {p.ruleset} dealer rule "
             f"gives seat {p.next_dealer}")
    p_wind, p_draws = p_expected
    if h.draws_carried:
        expected = draws_after(p.drawn, p_draws)
        if h.draws_before != expected:
            find("MATCH_STATE_MISMATCH", h.hand_index, i, f"the record says {h.draws_before} 流局 in a row before "
                 f"it; hand {p.hand_index} of match {match_id} "
                 f"{'was a 流局 after ' + str(p_draws) if p.drawn else 'had a winner'}, so {expected}")
    if h.round_wind_advances and opening is not None:
        expected = next_round_wind(p_wind, opening.dealer, p.dealer, h.dealer)
        if h.round_wind != expected:
            passed = h.dealer != p.dealer and p.dealer == (opening.dealer + 3) % 4
            why = (f"seat {p.dealer}, the fourth dealer of the cycle, passed the deal" if passed
                   else f"the deal {'stayed with' if h.dealer == p.dealer else 'passed from'} seat {p.dealer}, "
                        f"which does not end a cycle (it began with seat {opening.dealer})")
            find("MATCH_WIND_MISMATCH", h.hand_index, i, f"hand {h.hand_index} is played in the {_wind(h.round_wind)} "
                 f"round; hand {p.hand_index} was in the {_wind(p_wind)} round by the match's deals and {why}, so "
                 f"{_wind(expected)}")


def _final_totals(primary: list[Hand], missing: int) -> tuple[tuple[int, ...] | None, tuple[int, ...] | None]:
    """(claimed, recomputed) running totals after the last hand. Claimed: the platform's last
    totals_after, else its claimed payments summed; recomputed: the first hand's totals_before (or
    zeros) plus every hand's recomputed payments, None when a hand is missing or did not end."""
    first = primary[0]
    start = tuple(first.totals_before) if len(first.totals_before) == 4 else (0, 0, 0, 0)
    if primary[-1].totals_after:
        claimed = tuple(primary[-1].totals_after)
    elif all(h.claimed is not None and len(h.claimed) == 4 for h in primary):
        claimed = start
        for h in primary:
            claimed = add_totals(claimed, h.claimed)
    else:
        claimed = None
    recomputed = None
    if not missing and all(h.recomputed is not None and len(h.recomputed) == 4 for h in primary):
        recomputed = start
        for h in primary:
            recomputed = add_totals(recomputed, h.recomputed)
    return claimed, recomputed


# -- mjref verify: records of matches held back until the input is read ---------------------------
class MatchCollector:
    """Collects the judged records of matches; `finish` checks each match and attaches every
    finding to the verdict of the record that carries it (Verdict.match_findings)."""

    def __init__(self, overrides: Mapping[str, str] | None = None) -> None:
        self.overrides = dict(overrides or {})
        self.matches: dict[str, list[tuple[Hand, Verdict]]] = {}

    def wants(self, record) -> bool:
        return isinstance(record, pb.GameRecord) and bool(record.match_id)

    def add(self, record: pb.GameRecord, verdict: Verdict, source: str = "", offset: int | None = None) -> None:
        hand = hand_of(record, verdict, source, offset, self.overrides)
        self.matches.setdefault(record.match_id, []).append((hand, verdict))

    def finish(self) -> list[MatchResult]:
        results = []
        for match_id, members in self.matches.items():
            result = check_match([hand for hand, _ in members])
            attach(result, [verdict for _, verdict in members])
            results.append(result)
        return results


def findings_in_archive(path, offset: int, record: pb.GameRecord, overrides: Mapping[str, str] | None = None) -> list:
    """The match findings of one record of an archive (its frame at `offset`), as `mjref verify`
    finds them on the whole archive: its match's records there, judged and checked together."""
    from referee import archive, records
    from referee.verify import verify_record

    collector, mine = MatchCollector(overrides), None
    for frame in archive.iter_archive(path):
        if not isinstance(frame, archive.Frame):
            continue
        try:
            other = record if frame.offset == offset else records.parse_binary(frame.payload)
        except records.RecordError:
            continue
        if other.match_id == record.match_id:
            verdict = verify_record(other, overrides)
            collector.add(other, verdict, str(path), frame.offset)
            mine = verdict if frame.offset == offset else mine
    collector.finish()
    return mine.match_findings if mine is not None else []


def attach(result: MatchResult, verdicts: list[Verdict]) -> None:
    """Put each finding on the verdict of its carrier (the record it concerns, or after a gap the
    first record after it) as a match finding: the hand's own status stays what its replay gave."""
    for f in result.findings:
        if f.carrier is not None:
            verdicts[f.carrier].match_findings.append(Violation(f.code, None, None, f.message, f.severity))
