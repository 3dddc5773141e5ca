"""Faults across the hands of a match, for `mjref inject`: each takes the records of one clean
match (in hand order) and returns them with one fault a platform could make between hands, the
record that carries the finding labelled (GameRecord.fault, event_index -1). The match checks
(referee/match.py) must report exactly that code there, and nothing else.

    dealer_skipped   the deal goes one seat too far at one hand; the platform then plays the rest of
                     the match on from there, by the rule (every later hand turned by one seat,
                     re-settled, its round wind and running totals carried on)
    hand_missing     one hand inside the match is lost
    hand_duplicated  one hand's record appears twice
    total_altered    one hand's running totals after it are off for one seat, and stay off (the
                     platform carries the wrong total on)
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable

from referee.builder import fill_claim
from referee.match import add_totals, next_round_wind
from referee.proto import record_pb2 as pb
from referee.referee import Ended, Halt, Replay, Unreplayable
from referee.rules import get_ruleset
from referee.verdict import ERROR

RECORD = -1


class NoMatchPlace(Exception):
    """The match has no place for this fault."""


def _copy(record: pb.GameRecord) -> pb.GameRecord:
    out = pb.GameRecord()
    out.CopyFrom(record)
    return out


def _label(record: pb.GameRecord, kind: str, code: str) -> None:
    record.fault.CopyFrom(pb.FaultLabel(kind=kind, expected_code=code, event_index=RECORD))


def _settle(record: pb.GameRecord) -> tuple[int, bool]:
    """Replay a record, write the claimed result a correct platform writes; (next dealer, drawn)."""
    rules = get_ruleset(record.ruleset.name, dict(record.ruleset.options))
    replay = Replay(record, rules)
    try:
        replay.run()
    except (Unreplayable, Halt):
        raise NoMatchPlace from None
    if not isinstance(replay.phase, Ended) or any(v.severity == ERROR for v in replay.violations):
        raise NoMatchPlace
    totals_after = list(record.claimed.totals_after)
    fill_claim(record, rules, replay.outcome)
    record.claimed.totals_after.extend(totals_after)
    return rules.next_dealer(replay.outcome), not replay.outcome.wins


def _turn(record: pb.GameRecord, by: int) -> None:
    """Every seat of the hand moved on by `by` (the same game, dealt from another seat)."""
    record.dealer = (record.dealer + by) % 4
    for event in record.events:
        event.seat = (event.seat + by) % 4
    if record.initial_hands:
        hands = [list(h.tiles) for h in record.initial_hands]
        for seat, tiles in enumerate(hands):
            del record.initial_hands[(seat + by) % 4].tiles[:]
            record.initial_hands[(seat + by) % 4].tiles.extend(tiles)


def _carry_totals(match: list[pb.GameRecord], start: int) -> None:
    """Running totals from hand `start` on, from each hand's claimed payments (where they are kept)."""
    for k in range(start, len(match)):
        record = match[k]
        if not record.claimed.totals_after:
            return
        if k > 0:
            del record.match_state.totals_before[:]
            record.match_state.totals_before.extend(match[k - 1].claimed.totals_after)
        after = add_totals(tuple(record.match_state.totals_before), record.claimed.payments)
        del record.claimed.totals_after[:]
        record.claimed.totals_after.extend(after)


def dealer_skipped(match: list[pb.GameRecord], rng: random.Random) -> list[pb.GameRecord]:
    """The deal passes one seat too far at one hand; the rest of the match is played on from there."""
    if len(match) < 2:
        raise NoMatchPlace
    at = rng.randrange(1, len(match))
    out = [_copy(r) for r in match]
    first_dealer = out[0].dealer
    rules = get_ruleset(out[0].ruleset.name, dict(out[0].ruleset.options))
    handed = None
    for k in range(at, len(out)):
        record = out[k]
        _turn(record, 1)
        if handed is not None and record.dealer != handed:
            raise NoMatchPlace  # the rule book's dealer rule does not turn with the seats
        if rules.round_wind_advances:
            before = out[k - 1]
            record.round_wind = next_round_wind(before.round_wind, first_dealer, before.dealer, record.dealer)
        handed, _drawn = _settle(record)
    _carry_totals(out, at)
    _label(out[at], "dealer_skipped", "MATCH_DEALER_MISMATCH")
    return out


def hand_missing(match: list[pb.GameRecord], rng: random.Random) -> list[pb.GameRecord]:
    """One hand inside the match (not the first or the last) is lost."""
    if len(match) < 3:
        raise NoMatchPlace
    at = rng.randrange(1, len(match) - 1)
    out = [_copy(r) for k, r in enumerate(match) if k != at]
    _label(out[at], "hand_missing", "MATCH_HAND_MISSING")  # the hand after the gap carries it
    return out


def hand_duplicated(match: list[pb.GameRecord], rng: random.Random) -> list[pb.GameRecord]:
    """One hand's record is written twice (the copy right after it)."""
    at = rng.randrange(len(match))
    out = [_copy(r) for r in match]
    twin = _copy(match[at])
    _label(twin, "hand_duplicated", "MATCH_HAND_DUPLICATED")
    out.insert(at + 1, twin)
    return out


def total_altered(match: list[pb.GameRecord], rng: random.Random) -> list[pb.GameRecord]:
    """One seat's running total after one hand is off by a few points, and carried on so."""
    kept = [k for k, r in enumerate(match) if len(r.claimed.totals_after) == 4]
    if not kept:
        raise NoMatchPlace
    at, seat, delta = rng.choice(kept), rng.randrange(4), rng.choice((-10, -5, -1, 1, 5, 10))
    out = [_copy(r) for r in match]
    out[at].claimed.totals_after[seat] += delta
    for record in out[at + 1:]:
        if len(record.match_state.totals_before) == 4:
            record.match_state.totals_before[seat] += delta
        if len(record.claimed.totals_after) == 4:
            record.claimed.totals_after[seat] += delta
    _label(out[at], "total_altered", "MATCH_TOTALS_MISMATCH")
    return out


@dataclass(frozen=True)
class MatchFaultKind:
    name: str
    code: str
    inject: Callable[[list[pb.GameRecord], random.Random], list[pb.GameRecord]]

    @property
    def about(self) -> str:
        return " ".join(self.inject.__doc__.split("\n\n")[0].split())


MATCH_FAULT_KINDS: dict[str, MatchFaultKind] = {k.name: k for k in (
    MatchFaultKind("dealer_skipped", "MATCH_DEALER_MISMATCH", dealer_skipped),
    MatchFaultKind("hand_missing", "MATCH_HAND_MISSING", hand_missing),
    MatchFaultKind("hand_duplicated", "MATCH_HAND_DUPLICATED", hand_duplicated),
    MatchFaultKind("total_altered", "MATCH_TOTALS_MISMATCH", total_altered),
)}


def match_rng(kind: str, seed: int, match_id: str) -> random.Random:
    return random.Random(f"mjref-inject/{kind}/{seed}/{match_id}")


def inject_match(kind: MatchFaultKind, match: list[pb.GameRecord], rng: random.Random) -> list[pb.GameRecord] | None:
    """The match's records with the fault (one record labelled), or None when it has no place for it."""
    try:
        return kind.inject(match, rng)
    except NoMatchPlace:
        return None


def inject_match_archive(kind: MatchFaultKind, in_path, out_path, rate: float, seed: int, stats) -> None:
    """Every match of an archive (records grouped by match_id, in hand order) selected with
    probability `rate` gets the fault; records without a match id and matches not selected (or
    with no place for it) are written unchanged. A match's records are written where its first
    record was."""
    from referee import archive, records

    items: list = []  # payloads, or match ids standing for their match's block
    matches: dict[str, list[tuple[pb.GameRecord, bytes]]] = {}
    for item in archive.iter_archive(in_path):
        if isinstance(item, archive.CorruptSpan):
            stats.corrupt_spans += 1
            continue
        try:
            record = records.parse_binary(item.payload)
        except records.RecordError:
            stats.undecodable += 1
            items.append(item.payload)
            continue
        if not record.match_id:
            stats.passed += 1
            items.append(item.payload)
            continue
        if record.match_id not in matches:
            matches[record.match_id] = []
            items.append(record.match_id)
        matches[record.match_id].append((record, item.payload))

    def payloads():
        for item in items:
            if isinstance(item, bytes):
                yield item
                continue
            members = matches[item]
            rng = match_rng(kind.name, seed, item)
            if rng.random() >= rate:
                stats.passed += 1
                yield from (payload for _, payload in members)
                continue
            ordered = sorted(members, key=lambda m: m[0].hand_index)
            out = inject_match(kind, [record for record, _ in ordered], rng)
            if out is None:
                stats.skipped += 1
                yield from (payload for _, payload in members)
                continue
            stats.injected += 1
            yield from (records.to_binary(record) for record in out)

    archive.write_archive(out_path, payloads())
