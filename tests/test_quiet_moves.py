"""The quiet moves (`Replay.quiet_draw`, `Replay.quiet_discard`) against the dispatch they skip.

They take the usual draw and discard without the phases' layers. With them turned off, every
verdict must stay the same, and with the trace on every decision it notes as well: simulated hands of every ruleset, and those hands with each fault
kind injected (a tampered draw, a discard not held, an event out of turn, a missed win, ...), and
hands whose players let wins go without logging 过 (a seat that waits on the discard, whichever
seat it is), so that every way out of a quiet move is taken as well.
"""
from functools import lru_cache

import pytest

from referee import records
from referee.faults import FAULT_KINDS, Analysis, fault_rng, inject_one
from referee.referee import Replay
from referee.rules import RULESETS, get_ruleset
from referee.simulate import Policy, simulate_hand
from referee.verify import verify_bytes

HANDS = 12
PASSING = Policy(pass_win=0.5, log_pass=0.0)  # wins let go without a logged 过: a waiting seat the draw must not skip
SEED = 5


@lru_cache(maxsize=None)
def corpus(name: str) -> tuple[bytes, ...]:
    """Simulated hands, hands whose players often let a win go unsaid, and for each fault kind
    the first simulated hand it can be injected into."""
    rules = get_ruleset(name)
    clean = [simulate_hand(rules, {}, SEED, i)[0] for i in range(HANDS)]
    passing = [simulate_hand(rules, {}, SEED, i, PASSING)[0] for i in range(HANDS)]
    analyses = [Analysis(record, rules) for record in clean]
    faulty = []
    for kind_name, kind in sorted(FAULT_KINDS.items()):
        for index, (record, analysis) in enumerate(zip(clean, analyses)):
            injected = inject_one(kind, record, rules, fault_rng(kind_name, SEED, index), analysis)
            if injected is not None:
                faulty.append(injected)
                break
    return tuple(records.to_binary(r) for r in clean + passing + faulty)


def verdicts(payloads, trace: bool) -> list[tuple]:
    return [(v.to_json(), [tuple(d) for d in v.decisions])
            for v in (verify_bytes(p, trace=trace) for p in payloads)]


@pytest.mark.parametrize("trace", [False, True], ids=["plain", "trace"])
@pytest.mark.parametrize("name", sorted(RULESETS))
def test_quiet_moves_change_no_verdict(name, trace, monkeypatch):
    payloads = corpus(name)
    assert len(payloads) > 2 * HANDS + 20  # most fault kinds found a place
    taken = []
    original_draw, original_discard = Replay.quiet_draw, Replay.quiet_discard

    def counted(original):
        def quiet(self, event):
            took = original(self, event)
            taken.append(took)
            return took
        return quiet

    monkeypatch.setattr(Replay, "quiet_draw", counted(original_draw))
    monkeypatch.setattr(Replay, "quiet_discard", counted(original_discard))
    quiet = verdicts(payloads, trace)
    assert taken.count(True) > 20 * HANDS  # most draws and discards were quiet
    assert taken.count(False) > HANDS  # and some were not
    monkeypatch.setattr(Replay, "quiet_draw", lambda self, event: False)
    monkeypatch.setattr(Replay, "quiet_discard", lambda self, event: False)
    assert verdicts(payloads, trace) == quiet
    if trace:  # (the trace has something to compare)
        assert sum(len(decisions) for _, decisions in quiet) > 40 * HANDS
