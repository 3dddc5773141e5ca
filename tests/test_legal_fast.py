"""The move generator's short cuts against the long way round.

`Legality.may_call`, `may_claim` and `chi_calls` (a claim window that can only be 过, and the
sequence calls a seat cannot make on a discarder's tile, known before asking about each action),
`Ruleset.forbids_discards = False` and `guarded_discards` (a rule book whose forbid() never
rejects a plain discard, or only one of some kinds, so the turn's legal set does not ask it about
every held tile) and `Legality.holds_win` (a drawn tile wins when it is one of the remembered waits
of the hand before it, remembered by the draw) and `refines_first` (大连's 夹听 asked about only
where 听 is legal) must change no trace: with all of them turned off, every simulated hand of every
ruleset gives the same decisions. A rule book is held to what it says of its forbid() at every turn
of those hands, and holds_win to is_win.
"""
import pytest

from referee import actions as A
from referee.legal import Legality
from referee.parts.kongs import Dashai
from referee.referee import referee
from referee.rules import RULESETS, get_ruleset
from referee.rules.base import ALL_KINDS, Ruleset
from referee.rules.ningxiang import FENG_DONG
from referee.simulate import simulate_hand

HANDS = 25


def hands(name: str, options: dict[str, str] | None = None):
    rules = get_ruleset(name, options or {})
    return rules, [simulate_hand(rules, options or {}, 7, i, offers=True)[0] for i in range(HANDS)]


def traces(records, rules):
    return [[d._asdict() for d in referee(r, rules, trace=True).decisions] for r in records]


# Besides each rule book as it comes: 大连 with 吃 from any seat (DL-A2's other reading).
SHORT_CUT_CASES = [(name, {}) for name in sorted(RULESETS)] + [("dalian", {"dl_chi_from_left_only": "false"})]


@pytest.mark.parametrize("name, options", SHORT_CUT_CASES)
def test_short_cuts_change_no_trace(name, options, monkeypatch):
    rules, records = hands(name, options)
    fast = traces(records, rules)
    assert any(len(t) for t in fast)
    monkeypatch.setattr(Legality, "may_call", lambda self, seat, tile, discarder: True)  # (so may_claim too)
    monkeypatch.setattr(Legality, "chi_calls", lambda self, seat, discarder: (A.CHI, A.CHI_READY))
    monkeypatch.setattr(Legality, "holds_win", lambda self, seat: self.is_win(self.table.seats[seat].hand,
                                                                           self.table.seats[seat].melds))
    original_init = Legality.__init__

    def asks_every_time(self, *args):
        original_init(self, *args)
        self.forbids_discards = self.forbids
        self.borrows = True

    monkeypatch.setattr(Legality, "__init__", asks_every_time)
    monkeypatch.setattr(type(rules), "guarded_discards", lambda self, view, seat: ALL_KINDS)
    monkeypatch.setattr(rules.ready, "refines_first", False)
    assert traces(records, rules) == fast


def test_jiating_is_legal_only_where_ting_is(monkeypatch):
    """大连's 夹听 adds a condition to 听 (DL.3.3), so a turn asks about 夹听 only where 听 is legal
    (ready.refines_first): on the long way round every 夹听 listed has its 听 beside it, and the
    short cut lists the same."""
    rules = get_ruleset("dalian")
    records = [simulate_hand(rules, {}, 8, i)[0] for i in range(120)]
    assert rules.ready.refines_first
    fast = traces(records, rules)
    monkeypatch.setattr(rules.ready, "refines_first", False)
    slow = traces(records, rules)
    assert slow == fast
    turns = [d["legal"] for t in slow for d in t if d["window"] == "turn"]
    jiating = [(legal, label) for legal in turns for label in legal if label.startswith(A.JIATING_DISCARD)]
    assert len(jiating) > 20  # the hands reach legal 夹听 declarations
    for legal, label in jiating:
        assert label.replace(A.JIATING_DISCARD, A.READY_DISCARD) in legal


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_holds_win_is_is_win(name, monkeypatch):
    rules, records = hands(name)
    seen = []
    original = Legality.holds_win

    def both(self, seat):
        s = self.table.seats[seat]
        fast, slow = original(self, seat), self.is_win(s.hand, s.melds)
        seen.append((fast, slow, tuple(s.hand), s.drawn))
        return fast

    monkeypatch.setattr(Legality, "holds_win", both)
    traces(records, rules)
    assert len(seen) > 100 and any(slow for _f, slow, _h, _d in seen)
    assert [x for x in seen if x[0] != x[1]] == []


NARROWED = sorted(n for n, cls in RULESETS.items()
                  if not cls.forbids_discards or cls.guarded_discards is not Ruleset.guarded_discards)


@pytest.mark.parametrize("name", NARROWED)
def test_forbid_rejects_no_discard_outside_the_guarded_kinds(name, monkeypatch):
    """At every turn of the simulated hands, as played and again with the seat under each lock
    a rule book knows (封东, 打筛) and as the 海底 taker: every held kind that guarded_discards
    leaves out (all of them, where forbids_discards is False) is one forbid() lets go."""
    rules, records = hands(name)
    checked, escaped = [], []
    original = Legality.turn_actions

    def check(self, seat):
        view, s = self.view, self.table.seats[seat]
        guarded = rules.guarded_discards(view, seat) if rules.forbids_discards else ()
        for t in range(len(s.hand)):
            if s.hand[t] and t not in guarded:
                checked.append(t)
                if rules.forbid(view, seat, A.Action(A.DISCARD, t)) is not None:
                    escaped.append((seat, t, tuple(s.hand), dict(s.locks)))

    def checked_turn(self, seat, phase):
        table, s = self.table, self.table.seats[seat]
        check(self, seat)
        for lock in (FENG_DONG, Dashai.LOCK):
            s.locks[lock] = True
            check(self, seat)
            del s.locks[lock]
        taker, last = table.haidi_taker, table.last_live_draw
        table.haidi_taker, table.last_live_draw = seat, True
        check(self, seat)
        table.haidi_taker, table.last_live_draw = taker, last
        return original(self, seat, phase)

    monkeypatch.setattr(Legality, "turn_actions", checked_turn)
    traces(records, rules)
    assert len(checked) > 100
    assert escaped == []


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_turn_discards_are_the_held_tiles_why_not_discard_allows(name, monkeypatch):
    """turn_actions asks a rule book's forbid() only about the kinds it guards, and a declared
    seat's lock only about the kinds it permits (lock_discards): its plain discards are still
    exactly the held tiles why_not_discard lets go, at every turn, locked or not."""
    rules, records = hands(name)
    seen = []
    original = Legality.turn_actions

    def both(self, seat, phase):
        legal = original(self, seat, phase)
        if not phase.ready_call:
            s = self.table.seats[seat]
            fast = [a.tile for a in legal if a.kind == A.DISCARD]
            slow = [t for t in range(len(s.hand))
                    if s.hand[t] and self.why_not_discard(seat, A.Action(A.DISCARD, t)) is None]
            seen.append((fast == slow, len(slow) < sum(1 for c in s.hand if c), bool(s.ready)))
        return legal

    monkeypatch.setattr(Legality, "turn_actions", both)
    traces(records, rules)
    assert len(seen) > 100
    assert all(same for same, _, _ in seen)
    if name in ("ningxiang", "guangdong_tdh"):  # wilds may not be discarded: some turns forbid some
        assert any(forbidden for _, forbidden, _ in seen)
    if rules.ready.lock is not None:  # a declared seat discards what it drew: the lock is reached
        assert any(forbidden and ready for _, forbidden, ready in seen)
