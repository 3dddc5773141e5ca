"""Checks across the hands of one match: what a record says about the hands before it
(GameRecord.match_state) against those hands' own records, when the input holds them.

A record carries what its ruleset needs from earlier hands (哈尔滨: the 流局 in a row before it,
for the 3-流局 包牌), so that it can be judged alone. When the records of a match come together
(a directory, an archive), each one is checked against the hand just before it: a hand after a
流局 counts one more than that hand did, a hand after a win counts none. Records are taken in
the order given; a hand is checked only when the hand before it (hand_index − 1) has been seen,
reached its end and handed the deal to this record's dealer (its claimed next dealer): records
that merely share a match id, such as independently dealt simulated hands, are not a sequence.
"""
from __future__ import annotations

from dataclasses import dataclass

from referee.codes import CODES
from referee.proto import record_pb2 as pb
from referee.rules import RULESETS
from referee.verdict import ERROR, UNREPLAYABLE, VIOLATIONS, Verdict, Violation


@dataclass(frozen=True)
class HandFacts:
    drawn: bool  # the hand ended in 流局
    draws_before: int  # the record's own match_state.consecutive_draws
    next_dealer: int | None  # the dealer its claimed result hands the deal to


class MatchCheck:
    """Feed it every record with its verdict, in order; it adds MATCH_STATE_MISMATCH findings."""

    def __init__(self) -> None:
        self.hands: dict[str, dict[int, HandFacts]] = {}

    def check(self, record: pb.GameRecord, verdict: Verdict) -> None:
        if not record.match_id or verdict.status == UNREPLAYABLE:
            return
        rules = RULESETS.get(record.ruleset.name)
        hands = self.hands.setdefault(record.match_id, {})
        before = hands.get(record.hand_index - 1) if record.hand_index else None
        claimed = record.match_state.consecutive_draws
        follows = before is not None and before.next_dealer == record.dealer  # the deal was handed on to it
        if follows and rules is not None and rules.reads_draws_before:
            expected = before.draws_before + 1 if before.drawn else 0
            if claimed != expected:
                code = CODES["MATCH_STATE_MISMATCH"]
                verdict.violations.append(Violation(
                    code.code, None, None,
                    f"{code.term} ({code.gloss}): the record says {claimed} 流局 in a row before it; hand "
                    f"{record.hand_index - 1} of match {record.match_id} "
                    f"{'was a 流局 after ' + str(before.draws_before) if before.drawn else 'had a winner'}, "
                    f"so {expected}", ERROR))
                verdict.status = VIOLATIONS
        if verdict.recomputed is not None:  # the hand reached its end
            handed = record.claimed.next_dealer if record.claimed.has_next_dealer else None
            hands[record.hand_index] = HandFacts(not verdict.winners, claimed, handed)
