"""The move generator's short cuts against the long way round.

`Legality.may_claim` (a claim window that can only be 过, known before asking about each action) and
`Ruleset.forbids_discards = False` (a rule book whose forbid() never rejects a plain discard, so
the turn's legal set does not ask it per held tile) must change no trace: with both turned off,
every simulated hand of every ruleset gives the same decisions. And a rule book that says its
forbid() never rejects a discard is held to it at every turn of those hands.
"""
import pytest

from referee import actions as A
from referee.legal import Legality
from referee.referee import referee
from referee.rules import RULESETS, get_ruleset
from referee.simulate import simulate_hand

HANDS = 25


def hands(name: str):
    rules = get_ruleset(name)
    return rules, [simulate_hand(rules, {}, 7, i, offers=True)[0] for i in range(HANDS)]


def traces(records, rules):
    return [[vars(d) for d in referee(r, rules, trace=True).decisions] for r in records]


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_short_cuts_change_no_trace(name, monkeypatch):
    rules, records = hands(name)
    fast = traces(records, rules)
    assert any(len(t) for t in fast)
    monkeypatch.setattr(Legality, "may_claim", lambda self, seat, tile: True)
    original_init = Legality.__init__

    def asks_every_time(self, *args):
        original_init(self, *args)
        self.forbids_discards = self.forbids

    monkeypatch.setattr(Legality, "__init__", asks_every_time)
    assert traces(records, rules) == fast


@pytest.mark.parametrize("name", sorted(n for n, cls in RULESETS.items() if not cls.forbids_discards))
def test_forbid_never_rejects_a_discard_where_the_rule_book_says_so(name, monkeypatch):
    rules, records = hands(name)
    asked = []
    original = type(rules).forbid

    def watched(self, view, seat, action):
        issue = original(self, view, seat, action)
        if action.kind == A.DISCARD:
            asked.append((action, issue))
        return issue

    original_init = Legality.__init__

    def asks_every_time(self, *args):
        original_init(self, *args)
        self.forbids_discards = self.forbids

    monkeypatch.setattr(type(rules), "forbid", watched)
    monkeypatch.setattr(Legality, "__init__", asks_every_time)
    traces(records, rules)
    assert len(asked) > 100
    assert [a for a in asked if a[1] is not None] == []
