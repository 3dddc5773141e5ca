"""包 (liability): a seat that pays a win's shares instead of its usual payers.

A rule book lists its liability rules in order; the first that holds for a win decides who
pays (`liable_shares`), otherwise the usual payers do (scoring.shares: the three others on a
self-draw, the discarder on a discard). Each rule reads only the Outcome: the win, the kongs
made and `Outcome.calls` (every claimed discard in play order, with the caller's exposed sets
after it), so any variant can use them:

    RobbedKonger   抢杠 包三家: the robbed konger pays the three shares of a self-draw
                   (鸡平胡 J.6.4, 贵港 "当自摸，被抢杠者包三家牌", 推倒胡 TDH-A10)
    KongFeeder     杠上开花包杠: a win on the replacement of a 直杠 is paid by whoever
                   discarded the tile the kong was made on (鸡平胡 (3))
    FedSets        N张落地: whoever discarded the tile claimed for the winner's Nth exposed set
                   pays (十二张落地包自摸, "包先不包后"; 九张落地包胡), or its Nth exposed set
                   of some kinds (大四喜/大三元 包自摸)
    DiscarderPaysAll  全铳: the discarder pays the three shares of a win on its discard (a
                   鸡平胡 option, J-A11; 哈尔滨 出冲 has the same shape)
"""
from __future__ import annotations

from typing import Callable, Iterable

from referee import actions as A
from referee.outcome import Outcome, WinInfo
from referee.scoring import self_draw_shares, shares
from referee.state import EXPOSED

Shares = list[tuple[int, int]]  # (payer, whose share)


class Liability:
    """One 包 rule: `shares(win, outcome, usual)` gives who pays which share, or None if it does not
    hold. `usual` is the rule book's shares of a win no rule covers (scoring.shares, or with 全铳
    `full_discard_shares`): by default the liable seat pays those."""
    label = "包"

    def liable(self, win: WinInfo, outcome: Outcome) -> int | None:
        """The liable seat for this win, or None."""
        return None

    def shares(self, win: WinInfo, outcome: Outcome, usual: Callable[[WinInfo], Shares] = shares) -> Shares | None:
        seat = self.liable(win, outcome)
        if seat is None:
            return None
        return [(seat, share) for _, share in self.covered(win, usual)]

    def covered(self, win: WinInfo, usual: Callable[[WinInfo], Shares]) -> Shares:
        """The shares the liable seat pays."""
        return usual(win)


def full_discard_shares(win: WinInfo) -> Shares:
    """全铳 (a 鸡平胡 option, J-A11): a win on a discard is paid as a self-draw would be."""
    return self_draw_shares(win) if win.kind == A.RON else shares(win)


class RobbedKonger(Liability):
    """抢杠 包三家: a robbed kong is settled as a self-draw, the robbed konger paying all three
    shares (`as_self_draw`); without it, as a discard win paid by the konger alone."""

    def __init__(self, label: str | None = None, as_self_draw: bool = True):
        self.label = label or ("抢杠包三家" if as_self_draw else "抢杠当点炮")  # the konger pays one share
        self.as_self_draw = as_self_draw

    def liable(self, win, outcome):
        return win.from_seat if win.kind == A.ROB_WIN else None

    def covered(self, win, usual):
        return self_draw_shares(win) if self.as_self_draw else shares(win)


class KongFeeder(Liability):
    """杠上开花包杠: a self-draw on the replacement of an exposed kong made on a discard (直杠,
    "开暗刻明杠") is paid, all three shares, by the seat that discarded the kong's tile."""

    def __init__(self, label: str = "杠上开花包杠"):
        self.label = label

    def liable(self, win, outcome):
        if win.kind != A.SELF_WIN or not win.after_replacement:
            return None
        own = [k for k in outcome.kongs if k.seat == win.seat and k.event_index < win.event_index]
        if own and own[-1].kong_kind == EXPOSED:
            return own[-1].from_seat
        return None


class FedSets(Liability):
    """N张落地: the seat whose discard was claimed for the winner's `sets`-th exposed set (吃, 碰 or
    明杠), counting only sets of `kinds` when given, pays the winner's shares.

    `self_draw_only`: only a self-drawn win is covered (包自摸); otherwise a discard win too, the
    liable seat paying the discarder's share (包胡, J-A13). `first_only` ("包先不包后"): a seat is
    liable only for the first player it brought to that many sets.
    """

    def __init__(self, sets: int, label: str, kinds: Iterable[int] | None = None, self_draw_only: bool = True,
                 first_only: bool = False):
        self.sets, self.label = sets, label
        self.kinds = frozenset(kinds) if kinds is not None else None
        self.self_draw_only, self.first_only = self_draw_only, first_only

    def counts(self, call) -> bool:
        return self.kinds is None or call.tile in self.kinds

    def completing(self, seat: int, outcome: Outcome):
        """The call that brought this seat to `sets` counted exposed sets, or None."""
        made = 0
        for call in outcome.calls:
            if call.seat == seat and self.counts(call):
                made += 1
                if made == self.sets:
                    return call
        return None

    def liable(self, win, outcome):
        if win.kind == A.ROB_WIN or (win.kind == A.RON and self.self_draw_only):
            return None  # a robbed kong is the konger's (RobbedKonger)
        call = self.completing(win.seat, outcome)
        if call is None:
            return None
        if self.first_only:
            firsts = [self.completing(seat, outcome) for seat in range(4) if seat != call.from_seat]
            fed = [c for c in firsts if c is not None and c.from_seat == call.from_seat]
            if min(fed, key=lambda c: c.event_index) is not call:
                return None  # "包先不包后": the feeder already covers an earlier player
        return call.from_seat


class DiscarderPaysAll(Liability):
    """全铳: a win on a discard is paid as a self-draw would be, all three shares by the discarder
    (a 包 rule covering the win pays those three shares too: `full_discard_shares`)."""

    def __init__(self, label: str = "点炮包三家"):
        self.label = label

    def liable(self, win, outcome):
        return win.from_seat if win.kind == A.RON else None

    def covered(self, win, usual):
        return self_draw_shares(win)


def liable_shares(rules: Iterable[Liability], outcome: Outcome,
                  usual: Callable[[WinInfo], Shares] = shares) -> Callable[[WinInfo], Shares]:
    """shares_of for scoring.pay_wins: the first liability rule that holds, else the usual payers."""
    rules = tuple(rules)

    def shares_of(win: WinInfo) -> Shares:
        return applied(rules, win, outcome, usual)[1]

    return shares_of


def applied(rules: Iterable[Liability], win: WinInfo, outcome: Outcome,
            usual: Callable[[WinInfo], Shares] = shares) -> tuple[Liability | None, Shares]:
    """(the liability rule that holds, or None; the shares it gives)."""
    for rule in rules:
        found = rule.shares(win, outcome, usual)
        if found is not None:
            return rule, found
    return None, usual(win)
