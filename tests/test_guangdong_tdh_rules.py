"""Guangdong 推倒胡 worked examples (SPEC TDH.7: TDH-1..TDH-9, with TDH-7 tested against the
TDH-A2 ruling), the Appendix A computations, each through a full record built with HandBuilder
and judged by the referee; then the TDH rules one by one, and the 鬼-aware win and wait checks
against a brute-force oracle."""
from __future__ import annotations

import pathlib
import random
from functools import lru_cache
from itertools import combinations_with_replacement

import pytest

from referee import actions as A
from referee import records, shapes
from referee import tiles as T
from referee.builder import HandBuilder
from referee.outcome import KongInfo, Outcome, WinInfo
from referee.parts.extras import Horses, counted_seat
from referee.referee import Replay
from referee.rules import get_ruleset
from referee.scoring import Ledger, Transfer
from referee.state import ADDED, CONCEALED, EXPOSED, KONG, PON, Meld
from referee.verdict import CLEAN
from referee.verify import verify_record

ROOT = pathlib.Path(__file__).resolve().parent.parent
TDH = "guangdong_tdh"
DEALER, B, C, D = 0, 1, 2, 3  # SPEC Appendix A: A = dealer, B = its 下家, C = 对家, D = 上家
# Junk hands that wait on nothing; between them every number kind but 6m once, and S W C F P.
DEALER_HAND = "147m147p147sSWCFP"  # 14: P, the 14th, is the first discard
JUNK_2 = "258m258p258sSWCF"
JUNK_3 = "39m369p369sSWCFP"


def tiles(text: str) -> list[int]:
    return T.parse(text)


def table(seat1: str, dealer: str = DEALER_HAND, seat2: str = JUNK_2, seat3: str = JUNK_3, indicator: str | None = "5m",
          horses=None, **options) -> HandBuilder:
    """A 推倒胡 hand: the deal, then the dealer's flip of the indicator at the front of the wall
    (seat 1's first draw takes it). No 买马 unless horses are given."""
    values = {"tdh_horses": str(len(tiles(horses[0])) if horses else 0), **{k: str(v) for k, v in options.items()}}
    b = HandBuilder(f"tdh-test-{random.Random(seat1 + str(options)).random()}", ruleset=TDH, options=values)
    b.deal(dealer, seat1, seat2, seat3)
    if indicator:
        b.flip_indicator(indicator)
    for seat, horse in enumerate(horses or ()):
        b.horses(seat, horse)
    return b


def opening(b: HandBuilder, first: str = "P", drawn: str = "5m") -> HandBuilder:
    """The dealer lets go of its 14th tile, seat 1 draws the flipped indicator and lets it go,
    seats 2 and 3 each draw a tile and let it go."""
    return b.discard(0, first).draw(1, drawn).discard(1, drawn).draw_discard(2, "8m").draw_discard(3, "2m")


def judge(b: HandBuilder, status: str = CLEAN):
    verdict = verify_record(b.build())
    assert verdict.status == status, [(v.code, v.event_index, v.message) for v in verdict.violations]
    return verdict


def hand_money(verdict) -> tuple[int, ...]:
    return tuple(p - k for p, k in zip(verdict.recomputed.payments, verdict.recomputed.kong_payments))


def names(verdict, seat: int) -> dict[str, int]:
    return {p.name: p.value for p in verdict.recomputed.patterns if p.seat == seat}


# -- TDH-1..TDH-3: kong payments, paid at once (TDH.6.3) -----------------------------------------------
def test_tdh1_pointed_kong_the_discarder_pays_3():
    # No 鬼 here (tdh_ghost = none), so the play-out may let any tile go.
    b = table("111m999p888sSWCP", seat3="39m369p369sNNNFE", indicator=None, tdh_ghost="none")
    b.discard(0, "P").draw_discard(1, "E").draw_discard(2, "E").draw(3, "2m").discard(3, "2m")  # 0-6
    b.draw(0, "N").discard(0, "N").kong(3, "exposed", "N").draw(3, "4m", replacement=True).discard(3, "4m")  # 7-11
    verdict = judge(b.play_out(0))
    assert verdict.recomputed.kong_payments == (-3, 0, 0, 3) == verdict.recomputed.payments  # stands in 流局


def test_tdh2_added_kong_each_other_seat_pays_1():
    b = table("111m999p888sSWCP", seat3="39m369p369sNNEFC", indicator=None, tdh_ghost="none")
    b.discard(0, "P").draw_discard(1, "E").draw_discard(2, "E")  # 0-4
    b.draw(3, "2m").discard(3, "2m").draw(0, "N").discard(0, "N").pon(3, "N").discard(3, "E")  # 5-10
    b.draw_discard(0, "2m").draw_discard(1, "3m").draw_discard(2, "3m")  # 11-16
    b.draw(3, "N").kong(3, "added", "N").draw(3, "4m", replacement=True).discard(3, "4m")  # 17-20
    verdict = judge(b.play_out(0))
    assert verdict.recomputed.payments == (-1, -1, -1, 3)


def test_tdh3_concealed_kong_each_other_seat_pays_2_and_it_stands_whoever_wins():
    # Seat 2 makes a 暗杠 of 2p; seat 1 then self-draws 碰碰胡 (硬胡: 8 × 2 × 2 = 32 each).
    b = opening(table("111m999p888sEENN", seat2="258m22258p258sNF"))  # 0-7
    b.draw_discard(0, "3m").draw_discard(1, "3p").draw(2, "2p").kong(2, "concealed", "2p")  # 8-13
    b.draw(2, "4m", replacement=True).discard(2, "4m").draw_discard(3, "9m").draw_discard(0, "7m")  # 14-19
    verdict = judge(b.draw(1, "E").win(1, "self", "E"))
    assert verdict.recomputed.kong_payments == (-2, -2, 6, -2)
    assert hand_money(verdict) == (-32, 96, -32, -32)
    assert verdict.recomputed.payments == (-34, 94, -26, -34)


def test_a_robbed_added_kong_pays_nothing():
    verdict = verify_record(records.read_record(ROOT / "samples" / TDH / "clean_robbed_kong.textproto"))
    assert verdict.recomputed.kong_payments == (0, 0, 0, 0)


# -- TDH-4: the horse map (TDH.6.4) --------------------------------------------------------------------
@pytest.mark.parametrize("horse, step", [
    ("1m", 0), ("5p", 0), ("9s", 0), ("E", 0),
    ("2m", 1), ("6p", 1), ("S", 1), ("C", 1),
    ("3s", 2), ("7m", 2), ("W", 2), ("F", 2),
    ("4p", 3), ("8s", 3), ("N", 3), ("P", 3),
])
def test_tdh4_horse_map_counts_from_the_reference_seat(horse, step):
    for anchor in range(4):
        assert counted_seat(tiles(horse)[0], anchor) == (anchor + step) % 4


def test_tdh4_horses_in_a_full_record():
    # Seat 1 wins on the dealer's E: 碰碰胡 8 × 硬胡 2 = 16 from the dealer. The horses count from
    # seat 1: 2p → seat 2, 3p/7s/3s → seat 3, bystanders both; seat 1's 4p → the dealer, a loser,
    # and seat 1 would pay itself; seat 2's 5p → seat 1: the dealer pays seat 2 16; seat 3's 8p →
    # the dealer: seat 3 pays seat 1 16; seat 3's 9s → seat 1: the dealer pays seat 3 16.
    b = opening(table("111m999p888sEENN", horses=("2p3p", "7s4p", "5p3s", "8p9s")))
    verdict = judge(b.draw(0, "E").discard(0, "E").win(1, "discard", "E"))
    assert verdict.recomputed.payments == (-48, 32, 16, 0)


# -- TDH-5..TDH-8: the 鬼 is the indicator's successor (TDH.1) -----------------------------------------
@pytest.mark.parametrize("label, indicator, seat1, options", [
    # Seat 1 draws the flipped indicator and wins 鸡胡 with the 鬼 standing in: 2 × 自摸 2 = 4 each.
    ("TDH-5 五万 → 六万", "5m", "234p567p789s34mE6m", {}),
    ("TDH-6 九万 → 一万", "9m", "234p567p789s78mE1m", {}),
    ("TDH-7 北 → 红中 (the ruling; the document says 发财)", "N", "234p567p789s23sNC", {}),
    ("TDH-7 北 → 发财 with tdh_north_ghost_is_fa", "N", "234p567p789s23sNF", {"tdh_north_ghost_is_fa": True}),
    ("TDH-8 白板 → 东", "P", "234p567p789s23sPE", {}),
])
def test_tdh5_to_tdh8_ghost_successor(label, indicator, seat1, options):
    b = table(seat1, indicator=indicator, **options)
    verdict = judge(b.discard(0, "P").draw(1, indicator).win(1, "self", indicator))
    assert verdict.recomputed.payments == (-4, 12, -4, -4), label
    assert names(verdict, 1) == {"鸡胡": 2, "自摸": 2}, label


def test_tdh7_north_without_the_option_does_not_make_fa_wild():
    b = table("234p567p789s23sNF", indicator="N")
    b.discard(0, "P").draw(1, "N").win(1, "self", "N")
    verdict = verify_record(b.build(claim=False))
    assert [v.code for v in verdict.violations] == ["FALSE_WIN"]


def test_kong_table_together():
    rules = get_ruleset(TDH)
    kongs = [KongInfo(B, EXPOSED, 4, D, 0), KongInfo(C, ADDED, 9, None, 0), KongInfo(D, CONCEALED, 18, None, 0)]
    # 点杠: D pays B 3; 补杠: A, B, D pay C 1 each; 暗杠: A, B, C pay D 2 each; all stand in 流局.
    assert rules.settle(Outcome(DEALER, [], kongs, exhaustive=True)).payments == (-3, 0, 1, 2)


def test_kong_money_void_in_draw_option():
    """TDH.6.3 [REC]: paid at once, kong money stands in 流局; a room that voids it pays nothing
    for the kongs of a drawn hand, and still pays them when someone wins."""
    kongs = [KongInfo(B, EXPOSED, 4, D, 0), KongInfo(C, ADDED, 9, None, 0), KongInfo(D, CONCEALED, 18, None, 0)]
    void = get_ruleset(TDH, {"tdh_kong_money_void_in_draw": "true"})
    assert void.settle(Outcome(DEALER, [], kongs, exhaustive=True)).payments == (0, 0, 0, 0)
    assert get_ruleset(TDH).settle(Outcome(DEALER, [], kongs, exhaustive=True)).payments == (-3, 0, 1, 2)
    win = WinInfo(DEALER, A.SELF_WIN, tiles("5s")[0], None, T.counts(tiles("123m456p789s234s55s")), [], 0)
    assert void.settle(Outcome(DEALER, [win], kongs)).kong_payments == (-3, 0, 1, 2)


# -- Appendix A (GD-TDH), each through a full record -------------------------------------------------
def test_appendix_a_pengpeng_self_draw_hard():
    b = opening(table("111m999p888sEENN")).draw_discard(0, "3m").draw(1, "N").win(1, "self", "N")
    verdict = judge(b)
    assert names(verdict, 1) == {"碰碰胡": 8, "自摸": 2, "硬胡": 2}
    assert verdict.recomputed.payments == (-32, 96, -32, -32)


def test_appendix_a_jihu_self_draw_holding_a_wild():
    b = opening(table("123m456p789s23s6mE")).draw_discard(0, "N").draw(1, "4s").win(1, "self", "4s")
    verdict = judge(b)
    assert names(verdict, 1) == {"鸡胡": 2, "自摸": 2}
    assert verdict.recomputed.payments == (-4, 12, -4, -4)


def test_appendix_a_jihu_kong_flower_hard():
    b = opening(table("123m456p23s55sEEE")).draw_discard(0, "N")
    b.draw(1, "E").kong(1, "concealed", "E").draw(1, "4s", replacement=True).win(1, "self", "4s")
    verdict = judge(b)
    assert names(verdict, 1) == {"鸡胡": 8, "自摸": 2, "硬胡": 2}  # 8 in place of 鸡胡 2 and 杠上开花 8
    assert hand_money(verdict) == (-32, 96, -32, -32)
    assert verdict.recomputed.kong_payments == (-2, 6, -2, -2)


def test_appendix_a_pure_seven_pairs_on_a_discard_holding_a_wild():
    b = opening(table("11p22p33p44p55p79p6m"))
    b.draw(0, "9p").discard(0, "9p").win(1, "discard", "9p")
    verdict = judge(b)
    assert names(verdict, 1) == {"清一色": 16, "七对": 16}  # (16 + 16) × 1: a 鬼 in hand, no 硬胡
    assert verdict.recomputed.payments == (-32, 32, 0, 0)


def test_appendix_a_plain_jihu_on_a_discard_is_a_violation():
    b = opening(table("123m456p789s23sEE")).draw(0, "N").discard(0, "4s").win(1, "discard", "4s")
    verdict = verify_record(b.build(claim=False))
    assert [(v.code, v.event_index) for v in verdict.violations] == [("JIHU_ON_DISCARD", 10)]


def test_appendix_a_horse_on_the_winner():
    # W = seat 1 self-draws 碰碰胡 holding a 鬼: 8 × 2 = 16 per payer. X = seat 3 holds a horse (1p)
    # on W: the other losers (seats 0 and 2) each pay X 16, X's own part nets to zero.
    horses = {3: (tiles("1p")[0],)}
    transfers = [Transfer(p, B, 16, "hand") for p in (DEALER, C, D)]
    ledger = Ledger(list(transfers))
    Horses(1).pay(ledger, horses, [(B, transfers)])
    assert ledger.nets() == (-32, 48, -32, 16)
    # The same in a full record, where every seat holds one horse: W's own (2p) lands on a loser
    # and nets to zero; seat 0's 6p and seat 2's 4p land on the other loser: each pays W 16 more.
    b = opening(table("111m999p888sEEN6m", horses=("6p", "2p", "4p", "1p")))
    b.draw_discard(0, "3m").draw(1, "N").win(1, "self", "N")
    verdict = judge(b)
    assert names(verdict, 1) == {"碰碰胡": 8, "自摸": 2}
    assert verdict.recomputed.payments == (-48, 48 + 32, -48, 16)


# -- TDH.6.1 how the 番型 combine (TDH-A8) ----------------------------------------------------------
def score(hand: str, kind=A.SELF_WIN, melds=(), wilds="", **flags) -> tuple[int, dict[str, int]]:
    """The per-payer amount of a win, and its breakdown, straight from the rule book's settlement."""
    rules = get_ruleset(TDH, {k: str(v) for k, v in flags.pop("options", {}).items()})
    counts = T.counts(tiles(hand))
    win = WinInfo(B, kind, tiles(hand)[-1], None if kind == A.SELF_WIN else C, counts, list(melds), 0,
                  wilds=frozenset(tiles(wilds)), room=[4] * 34 if wilds else None, **flags)
    result = rules.settle(Outcome(DEALER, [win]))
    return result.payments[B] // (3 if kind == A.SELF_WIN else 1), {p.name: p.value for p in result.patterns}


@pytest.mark.parametrize("hand, flags, value, breakdown", [
    ("111m999p888sEEENN", {}, 32, {"碰碰胡": 8}),
    ("111m999p888sEEENN", {"after_replacement": True}, 64, {"碰碰胡": 8, "杠上开花": 8}),  # 16, not 8
    ("123m456m789m234m55m", {"after_replacement": True}, 96, {"清一色": 16, "杠上开花": 8}),
    ("123m456p789s234s55s", {"last_tile": True}, 32, {"鸡胡": 8}),
    ("111m999m222m333m55m", {}, 96, {"碰碰胡": 8, "清一色": 16}),  # 24
    ("11m22m33m44m55mEEFF", {}, 96, {"混一色": 8, "七对": 16}),  # 24
    ("1111m22m33m44m55m99m", {}, 192, {"清一色": 16, "豪华七对": 32}),  # 豪华 replaces 七对
    ("111m999pEEE111sNN", {}, 160, {"碰碰胡": 8, "混幺九": 32}),  # 40
    ("11m99m11p99pEENNCC", {}, 192, {"七对": 16, "混幺九": 32}),  # 48
])
def test_tdh_a8_combinations(hand, flags, value, breakdown):
    amount, names_ = score(hand, **flags)
    assert {k: v for k, v in names_.items() if k not in ("自摸", "硬胡")} == breakdown
    assert amount == value


def test_tdh_a8_options():
    assert score("1111m22m33m44m55m99m", options={"tdh_haohua_replaces_qidui": False})[0] == (16 + 16 + 32) * 4
    assert score("123m456p789s234s55s", options={"tdh_jihu_upgrade_replaces_event": False},
                 after_replacement=True)[0] == 16 * 4
    assert score("111m999p888sEEENN", options={"tdh_jihu_fallback_only": False})[0] == (8 + 2) * 4


@pytest.mark.parametrize("hand, flags, value, breakdown", [
    ("111m999m222m333m55m", {}, 64, {"清一色": 16}),  # not 碰碰胡 8 + 清一色 16
    ("11m22m33m44m55mEEFF", {}, 64, {"七对": 16}),  # not 混一色 8 + 七对 16
    ("11m99m11p99pEENNCC", {}, 128, {"混幺九": 32}),  # not 七对 16 + 混幺九 32
    ("111m999pEEE111sNN", {}, 128, {"混幺九": 32}),  # not 碰碰胡 8 + 混幺九 32
    ("1111m22m33m44m55m99m", {}, 128, {"豪华七对": 32}),  # not 清一色 16 + 豪华七对 32
    ("111m999m222m333m55m", {"after_replacement": True}, 96, {"清一色": 16, "杠上开花": 8}),  # events still add
])
def test_tdh_a8_shape_fan_add_option(hand, flags, value, breakdown):
    """TDH-A8 "Other shape 番型 add up"; tdh_shape_fan_add = false counts only the highest shape 番型."""
    amount, names_ = score(hand, options={"tdh_shape_fan_add": False}, **flags)
    assert {k: v for k, v in names_.items() if k not in ("自摸", "硬胡")} == breakdown
    assert amount == value
    assert score(hand, **flags)[0] > value  # they add up by default


def test_hard_win_and_its_options():
    # A 鬼 (6m) standing for 5m: no 硬胡. Read at face value it wins too (456m), which counts as 硬胡
    # only with tdh_yinghu_natural_ghost.
    assert score("456m123p789s234s55s", wilds="6m")[0] == 2 * 2
    assert score("456m123p789s234s55s", wilds="6m", options={"tdh_yinghu_natural_ghost": True})[0] == 2 * 2 * 2
    # Without ghosts there is no 硬胡 unless the room says so.
    assert score("123m456p789s234s55s", options={"tdh_ghost": "none"})[0] == 2 * 2
    assert score("123m456p789s234s55s", options={"tdh_ghost": "none", "tdh_yinghu_without_ghosts": True})[0] == 8


def test_ghost_readings_take_the_best_kind():
    # Two 鬼 (6m) make the pair any kind: as 万 the hand is 清一色 (16) rather than 鸡胡.
    amount, names_ = score("123m456m789m234m6m6m", wilds="6m")
    assert names_ == {"清一色": 16, "自摸": 2} and amount == 32
    # Seven pairs with two spare 鬼: they join a pair to make four of a kind (豪华七对 32, not 七对 16).
    amount, names_ = score("11p22p33p44p55p77p6m6m", wilds="6m")
    assert names_ == {"清一色": 16, "豪华七对": 32, "自摸": 2} and amount == 96


def test_haidi_self_draw_only_and_its_option():
    # TDH-A14: 海底捞月 is "摸到牌墙中的最后一张牌"; on the last discard it counts only with the option.
    assert score("111m999p888sEEENN", kind=A.RON, last_discard=True)[1] == {"碰碰胡": 8, "硬胡": 2}
    amount, names_ = score("111m999p888sEEENN", kind=A.RON, last_discard=True,
                           options={"tdh_haidi_self_draw_only": False})
    assert names_ == {"碰碰胡": 8, "海底捞月": 8, "硬胡": 2} and amount == 32


def test_simulated_hands_under_other_options_verify_clean():
    from referee.simulate import simulate

    for options in ({"tdh_ghost": "white", "tdh_horses": "1", "tdh_horse_anchor": "dealer"},
                    {"tdh_indicator_leaves_play": "true", "tdh_horses_limit_room": "true", "tdh_base": "5"},
                    {"tdh_pass_rule": "jph_same_tile", "tdh_wilds_in_melds": "true", "tdh_ghost": "none"}):
        for record in simulate(TDH, 12, seed=3, options=options):
            verdict = verify_record(record)
            assert verdict.status == CLEAN, (options, [(v.code, v.event_index) for v in verdict.errors])


def test_hunyaojiu_needs_both_option():
    assert score("111m999m999pEEE11p")[1].get("混幺九") == 32
    honors = "EEESSSWWWNNNCC"
    assert score(honors)[1].get("混幺九") == 32  # the literal reading: only 1/9 and honors
    assert "混幺九" not in score(honors, options={"tdh_hunyaojiu_needs_both": True})[1]


def test_thirteen_orphans_is_no_win_unless_the_room_says_so():
    orphans = T.counts(tiles("19m19p19sESWNCFPP"))
    assert not get_ruleset(TDH).is_win(orphans, [])
    rules = get_ruleset(TDH, {"tdh_thirteen_orphans": "64"})
    assert rules.is_win(orphans, [])
    assert score("19m19p19sESWNCFPP", options={"tdh_thirteen_orphans": 64})[0] == 64 * 4


# -- TDH.6.2 who pays --------------------------------------------------------------------------------
def test_robbed_kong_is_settled_as_self_draw_the_robbed_seat_pays_three_shares():
    verdict = verify_record(records.read_record(ROOT / "samples" / TDH / "clean_robbed_kong.textproto"))
    win = [p for p in verdict.recomputed.lines if "win robbing kong" in p]
    assert len(win) == 3 and all(line.startswith("seat 3 -> seat 1: 32") for line in win)
    rules = get_ruleset(TDH, {"tdh_qianggang_as_discard": "true"})
    hand = T.counts(tiles("123m456p789s234sEE"))
    robbed = WinInfo(B, A.ROB_WIN, tiles("4s")[0], D, hand, [], 0)
    assert rules.settle(Outcome(DEALER, [robbed])).payments == (0, 16, 0, -16)  # 鸡胡 8 × 硬胡 2, once
    assert get_ruleset(TDH).settle(Outcome(DEALER, [robbed])).payments == (0, 96, 0, -96)


def test_discarder_pays_three_shares_option():
    """TDH-A10: on a 点炮 only the discarder pays `score`; tdh_discarder_pays_three makes it pay the
    three shares of a self-draw (still no 自摸 ×2)."""
    def hand(**options):
        b = opening(table("11p22p33p44p55p79p6m", **options))
        return b.draw(0, "9p").discard(0, "9p").win(1, "discard", "9p")

    assert judge(hand()).recomputed.payments == (-32, 32, 0, 0)  # (清一色 16 + 七对 16) × 1
    verdict = judge(hand(tdh_discarder_pays_three=True))
    assert names(verdict, 1) == {"清一色": 16, "七对": 16}
    assert verdict.recomputed.payments == (-96, 96, 0, 0)
    # A robbed kong stays the robbed seat's three self-draw shares (自摸 ×2 included).
    rules = get_ruleset(TDH, {"tdh_discarder_pays_three": "true"})
    robbed = WinInfo(B, A.ROB_WIN, tiles("4s")[0], D, T.counts(tiles("123m456p789s234sEE")), [], 0)
    assert rules.settle(Outcome(DEALER, [robbed])).payments == (0, 96, 0, -96)


def test_multiple_winners_each_paid_by_the_discarder_horses_from_the_discarder():
    verdict = verify_record(records.read_record(ROOT / "samples" / TDH / "clean_two_winners.textproto"))
    assert verdict.winners == (1, 2)
    # Hand: 0→1 16 (碰碰胡 × 硬胡), 0→2 48 ((混一色 8 + 七对 16) × 硬胡). Horses from the dealer:
    # 2p/3p (the dealer's own, on the winners) net to zero; seat 1's 5p on the dealer: seat 1
    # pays seat 2 48; 6s on seat 1: the dealer pays seat 1 16; 7p on seat 2: the dealer pays
    # seat 2 48; 8p on seat 3, a bystander; seat 3's 9m and 1p on the dealer: seat 3 pays 16 + 48 twice.
    assert verdict.recomputed.payments == (-128, 16, 240, -128)


def test_horses_are_void_in_a_drawn_hand_and_exclude_kong_money():
    verdict = verify_record(records.read_record(ROOT / "samples" / TDH / "clean_exhaustive_draw.textproto"))
    assert verdict.recomputed.payments == verdict.recomputed.kong_payments == (-2, -2, 6, -2)
    assert not [line for line in verdict.recomputed.lines if "买马" in line]


def test_horse_owner_covered_option():
    horses = {3: (tiles("1p")[0],)}
    transfers = [Transfer(p, B, 16, "hand") for p in (DEALER, C, D)]
    ledger = Ledger(list(transfers))
    Horses(1, owner_pays_self=False).pay(ledger, horses, [(B, transfers)])
    assert ledger.nets() == (-40, 48, -40, 32)  # the others cover X's own 16 as well


def test_horse_on_its_owner_option():
    """TDH.6.4 [REC] "An owner's horse may map to the owner": seat 1 wins (碰碰胡 8 × 自摸 2 = 16 from
    each) and its own 5p points at itself, so each loser pays it 16 more; with
    tdh_horse_on_owner_counts = false that horse does nothing. The other horses as in
    test_appendix_a_horse_on_the_winner: 6p (seat 0) and 4p (seat 2) on losers, 1p (seat 3) on seat 1."""
    def hand(**options):
        b = opening(table("111m999p888sEEN6m", horses=("6p", "5p", "4p", "1p"), **options))
        return judge(b.draw_discard(0, "3m").draw(1, "N").win(1, "self", "N"))

    assert hand().recomputed.payments == (-64, 128, -64, 0)
    verdict = hand(tdh_horse_on_owner_counts=False)
    assert names(verdict, 1) == {"碰碰胡": 8, "自摸": 2}
    assert verdict.recomputed.payments == (-48, 80, -48, 16)


def test_horses_from_the_dealer_option_and_the_mismapping_code():
    path = ROOT / "samples" / TDH / "horse_mismapped.textproto"
    verdict = verify_record(records.read_record(path))
    assert [v.code for v in verdict.violations] == ["HORSE_MISMAPPED"]
    record = records.read_record(ROOT / "samples" / TDH / "clean_discard_win.textproto")
    record.ruleset.options["tdh_horse_anchor"] = "dealer"
    changed = verify_record(record)
    assert changed.recomputed.payments != tuple(record.claimed.payments)
    assert [v.code for v in changed.violations] == ["HORSE_MISMAPPED"]  # the claim counted from the winner


# -- TDH.1 the wall and the next dealer -------------------------------------------------------------------
def test_no_reserve_unless_the_option_sets_one():
    """TDH.1 [REC] "Play until the wall is empty"; tdh_reserve_tiles keeps that many tiles back."""
    from referee.state import Wall

    wall = Wall([0] * 136)
    wall.front = 53
    assert get_ruleset(TDH).live_tiles(wall) == 83
    assert get_ruleset(TDH, {"tdh_reserve_tiles": "14"}).live_tiles(wall) == 69

    def played_out(**options):
        b = opening(table("147m258p369sESWN", indicator=None, tdh_ghost="none", **options))
        return b.play_out(0).build()

    to_the_end = played_out()
    assert verify_record(to_the_end).status == CLEAN
    to_the_end.ruleset.options["tdh_reserve_tiles"] = "14"
    assert {v.code for v in verify_record(to_the_end).violations} == {"DRAW_FROM_RESERVE"}
    reserved = played_out(tdh_reserve_tiles=14)
    assert len(reserved.events) == len(to_the_end.events) - 2 * 14  # 14 fewer 摸打
    assert verify_record(reserved).status == CLEAN
    reserved.ruleset.options["tdh_reserve_tiles"] = "0"
    assert [v.code for v in verify_record(reserved).violations] == ["ILLEGAL_EXHAUSTIVE_DRAW"]


def test_next_dealer():
    rules = get_ruleset(TDH)
    plain = lambda seat, src=None: WinInfo(seat, A.RON if src is not None else A.SELF_WIN, 0, src, [0] * 34, [], 0)  # noqa
    assert rules.next_dealer(Outcome(DEALER, exhaustive=True)) == DEALER
    assert rules.next_dealer(Outcome(DEALER, [plain(DEALER)])) == DEALER
    assert rules.next_dealer(Outcome(DEALER, [plain(C)])) == B
    assert rules.next_dealer(Outcome(DEALER, [plain(DEALER, B), plain(C, B)])) == DEALER
    winner = get_ruleset(TDH, {"tdh_winner_deals": "true"})
    assert winner.next_dealer(Outcome(DEALER, [plain(C)])) == C
    assert winner.next_dealer(Outcome(DEALER, [plain(C, B), plain(D, B)])) == C


# -- TDH.2-TDH.4 what is forbidden ----------------------------------------------------------------------
def replay_of(b: HandBuilder) -> Replay:
    record = b.build(claim=False)
    replay = Replay(record, b.rules)
    replay.begin()
    for index, event in enumerate(record.events):
        replay.index = index
        replay.step(event)
    return replay


def test_a_ghost_is_never_a_legal_discard_nor_in_a_call():
    b = table("123m456p789s23s6mE", seat2="666m258m258p58sSW")
    replay = replay_of(b.discard(0, "P").draw(1, "5m"))
    ghost = tiles("6m")[0]
    legal = replay.legal_actions(1)
    assert A.Action(A.DISCARD, ghost) not in legal and A.Action(A.DISCARD, tiles("5m")[0]) in legal
    # Seat 2 holds three 鬼: a 碰 of one on a discard would be a WILD_IN_MELD.
    issue = replay.legality.why_not_call(2, A.Action(A.PON, ghost), 1)
    assert issue is not None and issue[0] == "WILD_IN_MELD"
    allowed = get_ruleset(TDH, {"tdh_wilds_in_melds": "true"})
    assert allowed.forbid(replay.view, 2, A.Action(A.PON, ghost)) is None
    # A 碰 or 明杠 only a 鬼 standing in for a missing tile would make is short of tiles and uses a
    # wildcard (TDH-A4, "exposed sets are natural only"): both findings. Seat 2 holds one 5s and three
    # 鬼; seat 1 one 1m and one 鬼, one short of a 明杠 even with it.
    legality = replay.legality

    def found(seat, kind, tile, discarder):  # the findings of such a call, as the referee flags them
        action = A.Action(kind, tile)
        return [code for code, _ in legality.every_issue(legality.why_not_call(seat, action, discarder), seat, action)]

    five_s, one_m, nine_m = tiles("5s")[0], tiles("1m")[0], tiles("9m")[0]
    assert found(2, A.PON, five_s, 1) == found(2, A.KONG_EXPOSED, five_s, 1) == ["ILLEGAL_CALL", "WILD_IN_MELD"]
    assert found(1, A.PON, one_m, 0) == ["ILLEGAL_CALL", "WILD_IN_MELD"]
    assert found(1, A.KONG_EXPOSED, one_m, 0) == ["ILLEGAL_CALL"]  # 1 + 1 鬼 < 3
    assert found(1, A.PON, nine_m, 0) == ["ILLEGAL_CALL"]


def test_jihu_may_win_by_robbing_and_a_shape_hand_may_win_on_a_discard():
    rules = get_ruleset(TDH)
    replay = replay_of(opening(table("123m456p789s23sEE")).draw(0, "N").discard(0, "4s"))
    four_s = tiles("4s")[0]
    assert rules.forbid(replay.view, 1, A.Action(A.RON, four_s))[0] == "JIHU_ON_DISCARD"
    assert rules.forbid(replay.view, 1, A.Action(A.ROB_WIN, four_s)) is None
    assert A.Action(A.RON, four_s) not in replay.legal_actions(1)
    replay = replay_of(opening(table("111m999p888sEENN")).draw(0, "E").discard(0, "E"))
    assert A.Action(A.RON, tiles("E")[0]) in replay.legal_actions(1)


def test_gangshang_pao_qualifies_option():
    def hand(**options):
        b = opening(table("123m456p789s23sEE", dealer="14447m147p147sSWC", **options), first="C")
        b.draw(0, "4m").kong(0, "concealed", "4m").draw(0, "4s", replacement=True).discard(0, "4s")
        return b.win(1, "discard", "4s")

    assert [v.code for v in verify_record(hand().build(claim=False)).violations] == ["JIHU_ON_DISCARD"]
    verdict = judge(hand(tdh_gangshang_pao_qualifies=True))
    assert names(verdict, 1) == {"鸡胡": 2, "杠上炮": 8, "硬胡": 2}
    assert hand_money(verdict) == (-20, 20, 0, 0)


def test_white_ghost_room_and_no_ghost_room():
    white = get_ruleset(TDH, {"tdh_ghost": "white"})
    hand = T.counts(tiles("123m456p789s23sEP"))  # 白板 stands for E (or 1s/4s)
    assert white.waits(hand, [], frozenset(tiles("P"))) == tuple(sorted(tiles("1s4sEP")))
    b = table("123m456p789s23sEP", dealer="147m147p147sSWCFN", seat2="258m258p258sSWCN", seat3="39m369p369sSWCFN",
              indicator=None, tdh_ghost="white")
    verdict = judge(b.discard(0, "N").draw(1, "4s").win(1, "self", "4s"))
    assert names(verdict, 1) == {"鸡胡": 2, "自摸": 2}


# -- the 鬼-aware win and wait checks against a brute-force oracle -------------------------------------------
@lru_cache(maxsize=None)
def part_ok(counts: tuple[int, ...], chows: bool, pair: bool) -> bool:
    """One suit (or the honors) split into sets, plus one pair when `pair`, by plain recursion."""
    i = next((k for k, c in enumerate(counts) if c), None)
    if i is None:
        return not pair
    rest = list(counts)
    if pair and rest[i] >= 2:
        rest[i] -= 2
        if part_ok(tuple(rest), chows, False):
            return True
        rest[i] += 2
    if rest[i] >= 3:
        rest[i] -= 3
        if part_ok(tuple(rest), chows, pair):
            return True
        rest[i] += 3
    if chows and i <= 6 and rest[i + 1] and rest[i + 2]:
        for k in (i, i + 1, i + 2):
            rest[k] -= 1
        return part_ok(tuple(rest), chows, pair)
    return False


def plain_win(counts: list[int], concealed: bool) -> bool:
    """Concrete counts: sets and one pair (melds aside), or seven pairs (four of a kind as two)."""
    if (sum(counts) - 2) % 3:
        return False
    parts = [(tuple(counts[9 * s:9 * s + 9]), True) for s in range(3)] + [(tuple(counts[27:]), False)]
    for with_pair in range(4):
        if all(part_ok(part, chows, k == with_pair) for k, (part, chows) in enumerate(parts)):
            return True
    return concealed and sum(counts) == 14 and all(c in (0, 2, 4) for c in counts)


def oracle_win(hand: list[int], wild: int, room: list[int], concealed: bool) -> bool:
    """Substitute every 鬼 by every kind, never past the copies in play (room)."""
    naturals = list(hand)
    count, naturals[wild] = naturals[wild], 0
    if any(n > r for n, r in zip(naturals, room)):
        return False
    for kinds in combinations_with_replacement(range(34), count):
        trial = list(naturals)
        for k in kinds:
            trial[k] += 1
        if all(trial[k] <= room[k] for k in kinds) and plain_win(trial, concealed):
            return True
    return False


def random_hand(rng: random.Random, wild: int, size: int, room: list[int], ghosts: int, changes: int = 2) -> list[int]:
    """A near-winning hand of `size` (3k+2) tiles within room: a random winning shape with up to
    `changes` tiles changed, then `ghosts` of its tiles turned into the 鬼."""
    while True:
        counts = [0] * 34
        for _ in range(size // 3):
            low = rng.randrange(34)
            run = [low] * 3 if low >= 27 or low % 9 > 6 or rng.random() < 0.4 else [low, low + 1, low + 2]
            for t in run:
                counts[t] += 1
        counts[rng.randrange(34)] += 2
        for _ in range(rng.randint(0, changes)):
            counts[rng.choice([t for t in range(34) if counts[t]])] -= 1
            counts[rng.randrange(34)] += 1
        for _ in range(ghosts):
            t = rng.choice([t for t in range(34) if counts[t] and t != wild] or [wild])
            counts[t] -= 1
            counts[wild] += 1
        if all(c <= r for c, r in zip(counts, room)):
            return counts


@pytest.mark.parametrize("seed", range(3))
def test_ghost_win_and_waits_match_the_brute_force_oracle(seed):
    rng = random.Random(f"tdh-oracle-{seed}")
    rules = get_ruleset(TDH)
    for _ in range(25):
        wild = rng.randrange(34)
        melds, room = [], [4] * 34
        if rng.random() < 0.4:  # an exposed 碰 takes three copies of its kind out of the concealed room
            pon = rng.choice([t for t in range(34) if t != wild])
            melds = [Meld(PON, pon, 3)]
            room[pon] -= 3
        concealed, wilds = not melds, frozenset({wild})
        hand = random_hand(rng, wild, 14 - 3 * len(melds), room, rng.choice((0, 1, 1, 2, 2, 2, 3, 3, 4)))
        assert rules.is_win(hand, melds, wilds, room) == oracle_win(hand, wild, room, concealed), (hand, wild, melds)
        short = list(hand)
        short[rng.choice([t for t in range(34) if short[t]])] -= 1
        if short[wild] > 2:
            continue  # waits with three or four 鬼 take the oracle too long; the win check above has them
        expected = tuple(t for t in range(34) if short[t] < 4 and
                         oracle_win([c + (k == t) for k, c in enumerate(short)], wild, room, concealed))
        assert rules.waits(short, melds, wilds, room) == expected, (short, wild, melds)


@pytest.mark.parametrize("seed", range(4))
def test_ghost_waits_of_ready_hands_match_the_brute_force_oracle(seed):
    """A winning shape less one tile waits on that tile at least, often on it alone: the quick exits
    (no natural wait, so no 鬼 wait) must never drop it."""
    rng = random.Random(f"tdh-ready-{seed}")
    rules = get_ruleset(TDH)
    for _ in range(25):
        wild = rng.randrange(34)
        room, wilds = [4] * 34, frozenset({wild})
        short = random_hand(rng, wild, 14, room, rng.choice((0, 0, 1, 1, 2)), changes=0)
        short[rng.choice([t for t in range(34) if short[t]])] -= 1
        expected = tuple(t for t in range(34) if short[t] < 4 and
                         oracle_win([c + (k == t) for k, c in enumerate(short)], wild, room, True))
        assert rules.waits(short, [], wilds, room) == expected, (short, wild)


def test_kong_meld_is_four_tiles_out_of_room():
    # A 暗杠 of 3p leaves no copy for a 鬼 to stand for.
    rules = get_ruleset(TDH)
    melds = [Meld(KONG, tiles("3p")[0], None, CONCEALED)]
    room = [4] * 34
    room[tiles("3p")[0]] = 0
    hand = T.counts(tiles("12p456m789s55s6m"))
    assert not rules.is_win(hand, melds, frozenset(tiles("6m")), room)
    assert rules.is_win(hand, melds, frozenset(tiles("6m")), [4] * 34)


def test_no_hard_win_with_a_kong_of_ghosts():
    """TDH.6.1 硬胡: "no wild tile anywhere in the hand", melds included: under tdh_wilds_in_melds a
    暗杠 of the four 鬼 (6m, indicator 5m) leaves 杠上开花 鸡胡 at 8 × 自摸 2, no × 2."""
    b = HandBuilder("ghost-kong", ruleset="guangdong_tdh", options={"tdh_horses": "0", "tdh_wilds_in_melds": "true"})
    b.deal("147m147p147sSWCFP", "666m123p456p789sE", "258m258p258sSWCF", "39m369p369sSWCFP").flip_indicator("5m")
    b.discard(0, "P").draw(1, "5m").discard(1, "5m").draw_discard(2, "8m").draw_discard(3, "2m")
    b.draw_discard(0, "N").draw(1, "6m").kong(1, "concealed", "6m").draw(1, "E", replacement=True).win(1, "self", "E")
    verdict = verify_record(b.build(claim=False))
    assert {p.name: p.value for p in verdict.recomputed.patterns if p.seat == 1} == {"鸡胡": 8, "自摸": 2}
    assert verdict.recomputed.payments == (-18, 54, -18, -18)  # 16 each, and 2 each for the 暗杠


def test_a_kong_replacement_that_takes_the_last_wall_tile_is_haidi():
    """TDH.6.1 海底捞月 is "摸到牌墙中的最后一张牌" (HB.1: the draw that takes the last live tile): a
    kong replacement drawn as the last tile of the wall wins 杠上开花 and 海底捞月 both."""
    b = HandBuilder("haidi-replacement", ruleset="guangdong_tdh", seed=127, options={"tdh_horses": "0", "tdh_ghost": "none"})
    b.deal("147m147p147sSWCFP", "258m258p258sSWCF", "EEEE111p999sNN3m", "39m369p369sSWCFP")
    b.discard(0, "P").draw(1, "5m").discard(1, "5m").draw_discard(2, "8m").draw_discard(3, "2m")
    b.play_out(0, end=False, leave=2)
    assert b.rest_tiles() == T.parse("N3m")  # the last two tiles of the wall
    b.draw(2, "N").kong(2, "concealed", "E").draw(2, "3m", replacement=True).win(2, "self", "3m")
    verdict = verify_record(b.build())
    assert verdict.status == "clean"
    assert {p.name: p.value for p in verdict.recomputed.patterns if p.seat == 2} == \
        {"碰碰胡": 8, "杠上开花": 8, "海底捞月": 8, "自摸": 2}
    assert verdict.recomputed.payments == (-50, -50, 150, -50)  # (8 + 8 + 8) × 2 each, and 2 each for the 暗杠


def themed_discard_wins(rng: random.Random, count: int) -> list[WinInfo]:
    """Winning hands on a discard, each built around a theme (mixed, one suit with or without
    honors, all pungs, only 1/9 and honors), with some pungs as 碰 or 明杠 melds and some natural
    tiles given as the 鬼 instead: hands that score 鸡胡 alone and hands that score more."""
    rules = get_ruleset(TDH)
    wins = []
    while len(wins) < count:
        ghost = rules.ghost_of(rng.randrange(T.KINDS))
        theme = rng.choice(("mixed", "one suit", "pungs", "orphans"))
        suit = rng.randrange(3)
        pool = {"mixed": range(T.KINDS), "pungs": range(T.KINDS), "orphans": T.TERMINALS_AND_HONORS,
                "one suit": [*range(9 * suit, 9 * suit + 9), *(T.HONORS if rng.random() < 0.5 else ())]}[theme]
        pool = [t for t in pool if t != ghost]
        left = dict.fromkeys(pool, 4)
        melds, hand = [], [0] * T.KINDS
        while len(melds) + sum(hand) // 3 < 4:
            low = rng.choice(pool)
            chow = theme in ("mixed", "one suit") and low < 27 and low % 9 < 7 and rng.random() < 0.5
            run = [low, low + 1, low + 2] if chow else [low] * 3
            if any(left.get(t, 0) < run.count(t) for t in run):
                continue
            for t in run:
                left[t] -= 1
            if not chow and len(melds) < 3 and rng.random() < 0.3:
                kong = left[low] and rng.random() < 0.3
                left[low] -= kong
                melds.append(Meld(KONG, low, 1, EXPOSED) if kong else Meld(PON, low, 1))
            else:
                for t in run:
                    hand[t] += 1
        pair = rng.choice([t for t in pool if left[t] >= 2])
        hand[pair] += 2
        for _ in range(rng.choice((0, 0, 1, 2))):  # a natural tile given as the 鬼 instead
            gone = rng.choice([t for t, n in enumerate(hand) if n and t != ghost])
            hand[gone] -= 1
            hand[ghost] += 1
        tile = rng.choice([t for t, n in enumerate(hand) if n and t != ghost])
        melded = [sum(m.tiles.count(t) for m in melds) for t in range(T.KINDS)]
        room = None if rng.random() < 0.5 else \
            [max(hand[t], 4 - melded[t] - rng.choice((0, 0, 0, 1, 2))) for t in range(T.KINDS)]  # copies in sight
        wins.append(WinInfo(0, A.RON, tile, 2, hand, melds, 0, wilds=frozenset({ghost}), room=room))
    return wins


def test_the_quick_jihu_test_never_hides_a_scoring_hand():
    """discard_win_issue places the 鬼 in every reading only where may_score_beyond_jihu allows
    that a 番型 besides 鸡胡 might score. Against the full reading (the slow, sure answer) on
    themed hands: whenever a hand scores more, the quick test must have said it might; and the
    quick test must settle a good share of hands on its own, or it saves nothing. (七对 is
    asked before either, as discard_win_issue does.)"""
    rules = get_ruleset(TDH)
    wins = [win for win in themed_discard_wins(random.Random(7), 1500)
            if win.melds or not shapes.is_seven_pairs(*rules.split_wilds(win.hand, win.wilds))]
    scores = [rules.scores_beyond_jihu(win) for win in wins]
    quick = [rules.may_score_beyond_jihu(win) for win in wins]
    hidden = [(T.format_counts(w.hand), [str(m) for m in w.melds]) for w, s, q in zip(wins, scores, quick) if s and not q]
    assert not hidden
    assert sum(scores) > 300 and quick.count(False) > 150, (sum(scores), quick.count(False))


@pytest.mark.parametrize("name,at", [("tdh_kong_on_last_tile", 155), ("jph3_kong_on_last_tile", 166)])
def test_a_kong_on_the_last_tile_is_one_finding_and_the_draw_after_it_ends_the_hand(name, at):
    """(Records from an independent fault review.) A 暗杠 with no live tile left for its replacement
    is flagged; the 荒庄 logged after it is all that can follow, not ILLEGAL_EXHAUSTIVE_DRAW too."""
    verdict = verify_record(records.read_record(pathlib.Path(__file__).parent / "records" / f"{name}.textproto"))
    assert [(v.code, v.event_index) for v in verdict.errors] == [("DRAW_FROM_RESERVE", at)]


def test_horses_given_in_another_number_than_the_room_gives_are_settled_as_the_room_gives():
    """tdh_horses is the room's number (TDH.1): with one horse each the horses are the wall's last
    four tiles, 2p (seat 0), 3p (seat 1), 5p (seat 2), 6s (seat 3), and only seat 2's 5p hits (on the
    winner, seat 1). The platform's eight horses were settled whenever the number differed (found by
    an independent options review)."""
    record = records.read_record(ROOT / "samples" / TDH / "clean_discard_win.textproto")
    verdict = verify_record(record, {"tdh_horses": "1"})
    assert [v.code for v in verdict.errors].count("HORSE_MISMATCH") == 4
    assert verdict.recomputed.payments == (-32, 16, 16, 0)
    assert verify_record(record).recomputed.payments == (-64, 48, -16, 32)
