"""Harbin worked examples (SPEC HRB.7: HRB-1..HRB-6) and the Appendix A computations, each
through a full record (HandBuilder) judged by the referee; and the Harbin rules that are not a
single payment: the wall, 吃听, the conditions on 听, 摸宝, 换宝, 3-流局 包牌.

Seats: A = 0 deals, B = 1 (its 下家) is the protagonist, C = 2, D = 3. Unless a test says
otherwise B opens by 碰 of A's 1p and declares 听 with C, and every other seat stays 门清.
"""
import pathlib

import pytest

from referee import tiles as T
from referee.builder import HandBuilder
from referee.rules import get_ruleset
from referee.state import Wall
from referee.verify import verify_record

A_HAND = "234m14679p13566sC"  # the dealer: lets 1p go first; holds 66s to 碰 when a test opens it
B_OPEN = "78789m345p11p22sC"  # after 碰 1p, 听 on C: 22s 78m 789m 345p waits 6m or 9m
B_KADANG = "68789m345p11p22sC"  # ... 22s 68m 789m 345p waits 7m alone (卡当)
C_HAND = "119m2288p469s5m6p7s"
C_READY = "123m456p99s22m88p7s"  # 碰 8p, 听 on 7s: waits 2m or 9s (对倒)
D_HAND = "1345m26899p899s6s"  # holds 99p to 碰 when a test opens it


def hand(game_id, b=B_OPEN, c=C_HAND, bao="3s", a=A_HAND, d=D_HAND, **options):
    """Event 0: the 宝 (the last wall tile) is flipped after the deal."""
    builder = HandBuilder(game_id, ruleset="harbin", options={k: str(v).lower() for k, v in options.items()})
    return builder.deal(a, b, c, d).bao(bao)


def ready(b):
    """Events 1-3: A lets 1p go, B 碰s it and declares 听 discarding C."""
    return b.discard(0, "1p").pon(1, "1p").discard(1, "C", ready=True)


def around(b):
    """Events 4-9: C, D and A each draw and let the tile go; B draws next."""
    return b.draw_discard(2, "5m").draw_discard(3, "4s").draw_discard(0, "8p")


def judge(b, clean=True):
    record = b.build() if clean else b.build(claim=False)
    verdict = verify_record(record)
    if clean:
        assert verdict.status == "clean", [(v.code, v.event_index, v.message) for v in verdict.violations]
    return verdict


def payments(b):
    return judge(b).recomputed.payments


def patterns(verdict, seat=1):
    return {p.name: p.value for p in verdict.recomputed.patterns if p.seat == seat}


def codes(verdict):
    return [(v.code, v.event_index) for v in verdict.violations]


# -- HRB-1..HRB-4: the model hands are legal wins (HRB-1 and HRB-4 under HRB-A2) -----------------
MODEL_A = "1359m1359p1359sC"  # 13 tiles; the model scripts add the one B calls
MODEL_C, MODEL_D = "2468m2468p2s8s9s7m5m", "1379m1379p139s6m2m"
MODELS = [
    # label, B's 13, A's call tile, B's call (kind, shown), B's 听 discard, B's winning draw, the final hand
    ("HRB-1 中中 234 456 777 678", "CC234m456p777s67s", "8s", ("chi", "67s"), "4p", "4p"),
    ("HRB-2 55 123 678 444 234", "55m123p678s44s234m", "4s", ("pon", "4s"), "2m", "2m"),
    ("HRB-3 55 234 789 444 234", "55m234m789p44s234s", "4s", ("pon", "4s"), "7p", "7p"),
    ("HRB-4 中中中 234 678 567 88", "CCC234m678p67s88s", "5s", ("chi", "67s"), "8s", "8s"),
]


def model(label, b_hand, call_tile, call, ready_tile, win_tile, **options):
    a = MODEL_A + call_tile if "CCC" not in b_hand else MODEL_A.replace("C", "") + call_tile + "7p"
    b = hand(label, b=b_hand, a=a, c=MODEL_C, d=MODEL_D, bao="5p", **options)
    b.discard(0, call_tile)
    getattr(b, call[0])(1, call[1] if call[0] == "chi" else call_tile)
    b.discard(1, ready_tile, ready=True)
    b.draw_discard(2, "3p").draw_discard(3, "2s").draw_discard(0, "4m")
    return b.draw(1, win_tile).win(1, "self", win_tile)


@pytest.mark.parametrize("label, b_hand, call_tile, call, ready_tile, win_tile", MODELS, ids=[m[0][:5] for m in MODELS])
def test_model_hands_are_legal_wins(label, b_hand, call_tile, call, ready_tile, win_tile):
    verdict = judge(model(label, b_hand, call_tile, call, ready_tile, win_tile))
    assert verdict.winners == (1,)
    # 自摸 (no 卡当): M = 2, every loser 门清 (factor 3): 6 each.
    assert verdict.recomputed.payments == (-6, 18, -6, -6)


@pytest.mark.parametrize("index", [0, 3], ids=["HRB-1", "HRB-4"])
def test_models_1_and_4_need_hongzhong_as_yaojiu(index):
    """Without HRB-A2 the two model hands hold no 幺 or 九: the 听 and the win are both illegal."""
    verdict = judge(model(*MODELS[index], hrb_hongzhong_counts_as_yaojiu=False), clean=False)
    assert codes(verdict) == [("READY_CONDITIONS", 3), ("WIN_CONDITIONS", 11)]
    assert "幺" in verdict.violations[0].message


# -- HRB-5: 卡当 by unique wait + middle tile (HRB-A8) ---------------------------------------------
def test_hrb5_combined_closed_wait_is_no_kadang():
    """22s 6m7m7m8m9m waits on 5m and 8m: a win on 8m is no 卡当 (M = 1)."""
    b = hand("hrb5", b="67789m345p11p22sC")  # 听: 22s 67789m 345p (+ 碰 1p) waits 5m / 8m
    rules = get_ruleset("harbin")
    rest = T.counts(T.parse("22s67789m345p"))
    assert rules.valid_waits(rest, [_pon("1p")]) == tuple(T.parse("5m8m"))
    verdict = judge(ready(b).draw_discard(2, "8m").win(1, "discard", "8m"))
    assert patterns(verdict) == {"平和": 1}
    assert verdict.recomputed.payments == (0, 9, -9, 0)  # 出冲: C pays 1 × (3 + 3 + 3)


def test_hrb5_option_any_middle_tile_counts():
    b = hand("hrb5-opt", b="67789m345p11p22sC", hrb_kadang_unique_wait=False)
    verdict = judge(ready(b).draw_discard(2, "8m").win(1, "discard", "8m"))
    assert patterns(verdict) == {"平和": 1, "卡当": 2}


def _pon(tile):
    from referee.state import PON, Meld

    return Meld(PON, T.parse(tile)[0], 0)


# -- HRB-6: the 番 table (HRB.6.2: 平和 1, 平和卡当 2, 自摸 2, 自摸卡当 4, 摸宝 3, 摸宝卡当 6, 宝中宝 12) --
def test_hrb6_pinghe_and_pinghe_kadang():
    # C has not declared 听 (出冲): C pays M × (3 + 3 + 3) for the three 门清 losers.
    assert payments(ready(hand("hrb6-ph")).draw_discard(2, "6m").win(1, "discard", "6m")) == (0, 9, -9, 0)
    assert payments(ready(hand("hrb6-phk", b=B_KADANG)).draw_discard(2, "7m").win(1, "discard", "7m")) == (0, 18, -18, 0)


@pytest.mark.parametrize("label, b_hand, bao, drawn, m, names", [
    ("自摸", B_OPEN, "3s", "6m", 2, {"自摸": 2}),
    ("自摸卡当", B_KADANG, "3s", "7m", 4, {"自摸": 2, "卡当": 2}),
    ("摸宝", B_OPEN, "3s", "3s", 3, {"摸宝": 3}),
    ("摸宝卡当", B_KADANG, "3s", "3s", 6, {"摸宝": 3, "卡当": 2}),
    ("宝中宝", B_KADANG, "7m", "7m", 12, {"宝中宝": 12}),
])
def test_hrb6_self_drawn_values(label, b_hand, bao, drawn, m, names):
    # Every loser is 门清 (factor 3): each pays 3M.
    verdict = judge(around(ready(hand(f"hrb6-{label}", b=b_hand, bao=bao))).draw(1, drawn).win(1, "self", drawn))
    assert patterns(verdict) == names, label
    assert verdict.recomputed.payments == (-3 * m, 9 * m, -3 * m, -3 * m), label


# -- Appendix A (HRB) ----------------------------------------------------------------------------
def test_appendix_a_self_draw_with_open_and_closed_losers():
    """B self-draws (no 卡当); A 开门, C 门清, D 开门: A 2, C 6, D 2; B +10."""
    b = ready(hand("hrb-a1")).draw_discard(2, "5s").draw_discard(3, "4s")  # 1-7
    b.draw(0, "3p").discard(0, "9p").pon(3, "9p").discard(3, "6s").pon(0, "6s").discard(0, "4p")  # 8-13
    assert payments(b.draw(1, "6m").win(1, "self", "6m")) == (-2, 10, -6, -2)


def test_appendix_a_chuchong_pays_for_all():
    """C discards while not 听 (出冲); B wins 卡当; A 开门, D 门清: M = 2, C pays 2 × (3+1+3) = 14."""
    b = ready(hand("hrb-a2", b=B_KADANG)).draw(2, "5s").discard(2, "6s").pon(0, "6s").discard(0, "9p")  # 1-7
    b.draw_discard(1, "2p").draw(2, "7m").discard(2, "7m").win(1, "discard", "7m")  # 8-12
    verdict = judge(b)
    assert patterns(verdict) == {"平和": 1, "卡当": 2}
    assert verdict.recomputed.payments == (0, 14, -14, 0)


def test_appendix_a_ready_discarder_each_pays_own():
    """C discards while 听; B wins 平和; A 开门, D 门清: C 1, A 1, D 3; B +5."""
    b = ready(hand("hrb-a3", c=C_READY)).draw_discard(2, "5s")  # 1-5
    b.draw(3, "4s").discard(3, "8p").pon(2, "8p").discard(2, "7s", ready=True)  # 6-9: C opens and is 听
    b.draw(3, "2s").discard(3, "6s").pon(0, "6s").discard(0, "9p")  # 10-13: A opens
    b.draw_discard(1, "4m").draw(2, "6m").discard(2, "6m").win(1, "discard", "6m")  # 14-18
    assert payments(b) == (-1, 5, -1, -3)


def test_appendix_a_baozhongbao_everybody_open():
    """宝中宝, everybody 开门: 12 each; +36."""
    b = ready(hand("hrb-a4", b=B_KADANG, c=C_READY, bao="7m")).draw_discard(2, "5s")  # 1-5
    b.draw(3, "4s").discard(3, "8p").pon(2, "8p").discard(2, "7s")  # 6-9: C opens
    b.draw_discard(3, "2s").draw(0, "3p").discard(0, "9p").pon(3, "9p").discard(3, "6s")  # 10-14: D opens
    b.pon(0, "6s").discard(0, "4p").draw(1, "7m").win(1, "self", "7m")  # 15-18: A opens; 宝中宝
    verdict = judge(b)
    assert patterns(verdict) == {"宝中宝": 12}
    assert verdict.recomputed.payments == (-12, 36, -12, -12)


# -- HRB-A6: after three 流局 in a row the dealer is liable (包牌), then passes the deal --------------
def test_three_draws_make_the_dealer_pay_for_all():
    b = around(ready(hand("hrb-baopai").match_state(3))).draw(1, "6m").win(1, "self", "6m")
    verdict = judge(b)
    assert verdict.recomputed.payments == (-18, 18, 0, 0)  # 6 + 6 + 6, all from the dealer
    assert b.record.claimed.next_dealer == 1
    assert payments(around(ready(hand("hrb-two-draws").match_state(2))).draw(1, "6m").win(1, "self", "6m")) == \
        (-6, 18, -6, -6)
    off = around(ready(hand("hrb-baopai-off", hrb_baopai_after_draws=0).match_state(3))).draw(1, "6m")
    assert payments(off.win(1, "self", "6m")) == (-6, 18, -6, -6)


def test_liable_hand_passes_the_deal_whatever_the_result():
    rules = get_ruleset("harbin")
    from referee.rules.base import Outcome

    assert rules.next_dealer(Outcome(0, exhaustive=True, draws_before=3)) == 1
    assert rules.next_dealer(Outcome(0, exhaustive=True, draws_before=2)) == 0


def test_the_next_dealer_is_liable_only_after_three_draws_of_its_own():
    """HRB-A6: "the next hand", then the deal moves on. A liable hand that ends in 流局 passes the
    deal with the count at 4; that dealer is not liable until it has had three 流局 itself."""
    rules = get_ruleset("harbin")
    from referee.rules.base import Outcome

    liable = [n for n in range(13) if rules.liable(Outcome(0, draws_before=n))]
    assert liable == [3, 7, 11]
    assert [rules.next_dealer(Outcome(0, exhaustive=True, draws_before=n)) for n in (4, 5, 6, 7)] == [0, 0, 0, 1]
    fourth = around(ready(hand("hrb-fourth-draw").match_state(4))).draw(1, "6m").win(1, "self", "6m")
    assert payments(fourth) == (-6, 18, -6, -6)
    assert fourth.record.claimed.next_dealer == 1  # the winner deals: the dealer lost


# -- HRB.1 the wall --------------------------------------------------------------------------------
def test_reserve_is_four_stacks_and_the_bao():
    rules = get_ruleset("harbin")
    assert rules.wall_size == 112
    wall = Wall([0] * 112)
    wall.front = 53
    assert rules.live_tiles(wall) == 50  # 112 − 53 dealt − 8 − the 宝
    wall.take_back(skip=9)  # a replacement from before the reserve
    assert rules.live_tiles(wall) == 49


# -- HRB.2 / HRB.3 / HRB.5: calls, 听 and wins ------------------------------------------------------
def test_chiting_from_a_seat_that_is_not_the_upper_one():
    """吃听: B takes C's 8s (C is not B's 上家) because the 吃 makes it ready; the discard declares 听."""
    b = hand("hrb-chiting", b="CC234m456p777s67s", a=MODEL_A + "4p", c="2468m2468p2s88s9s5m", d=MODEL_D, bao="5p")
    b.discard(0, "4p").draw(1, "7m").discard(1, "7m").draw(2, "9p").discard(2, "8s")  # 1-5
    b.chi(1, "67s", ready=True).discard(1, "4p")  # 6-7: 吃听 across the table, then the declaring discard
    verdict = judge(b.draw_discard(2, "3p").draw_discard(3, "2s").draw_discard(0, "4m").draw(1, "4p")
                    .win(1, "self", "4p"))
    assert verdict.recomputed.payments == (-6, 18, -6, -6)


def test_chiting_that_leaves_no_ready_hand_names_the_hand_after_the_discard():
    """A 吃听 after which no discard leaves a ready hand: the reason names the best discard and the
    ten tiles it would leave (not the eleven before it)."""
    b = hand("hrb-chiting-bad", b="C2468m456p777s67s", a=MODEL_A + "4p", c="2468m2468p2s88s9s5m", d=MODEL_D, bao="5p")
    b.discard(0, "4p").draw(1, "7m").discard(1, "7m").draw(2, "9p").discard(2, "8s")  # 1-5
    b.chi(1, "67s", ready=True).discard(1, "C")  # 6-7
    verdict = judge(b.draw_discard(2, "3p"), clean=False)
    assert codes(verdict)[:2] == [("READY_NOT_TENPAI", 6), ("HAND_INCOMPLETE", None)]  # not again at 7
    chiting = verdict.violations[0].message
    assert "吃听 678s" in chiting and "discarding C (中) would leave 2468m456p777s, which waits on nothing" in chiting


def test_chiting_whose_ready_discards_fail_the_conditions_names_the_first_of_them():
    """A 吃听 after which some discard leaves a ready hand, none a legal 听: the reason is the first
    such discard's (in kind order), a condition of HRB.3, not "waits on nothing"."""
    b = hand("hrb-chiting-cond", b="C2345m456p567s67s", a=MODEL_A + "4p", c="2468m2468p2s88s9s5m", d=MODEL_D, bao="5p")
    b.discard(0, "4p").draw(1, "7m").discard(1, "7m").draw(2, "9p").discard(2, "8s")  # 1-5
    b.chi(1, "67s", ready=True).discard(1, "C")  # 6-7: 2345m456p567s waits on 2m/5m, with no 幺九
    verdict = judge(b.draw_discard(2, "3p"), clean=False)
    assert codes(verdict)[:2] == [("READY_CONDITIONS", 6), ("HAND_INCOMPLETE", None)]  # one 吃听, one finding
    chiting = verdict.violations[0].message
    assert "吃听 678s" in chiting and "seat 1 declared 听 with 345m456p567sC: no 刻 in hand" in chiting


def test_plain_chi_from_a_seat_that_is_not_the_upper_one_is_a_violation():
    b = hand("hrb-chi-not-left", b="CC234m456p777s67s", a=MODEL_A + "4p", c="2468m2468p2s88s9s5m", d=MODEL_D, bao="5p")
    b.discard(0, "4p").draw(1, "7m").discard(1, "7m").draw(2, "9p").discard(2, "8s").chi(1, "67s").discard(1, "4p")
    verdict = judge(b.draw_discard(2, "3p"), clean=False)
    assert codes(verdict)[:1] == [("CHI_NOT_FROM_LEFT", 6)]


def test_ready_conditions_hold_on_the_declared_hand():
    """HRB.3: 幺九 at the 听 itself: 23m waiting on 1m or 4m would bring a 1 only with the win."""
    rules = get_ruleset("harbin")
    melds = [_pon("5p")]
    hand = T.counts(T.parse("23m345s678m88s"))
    assert rules.valid_waits(hand, melds) == tuple(T.parse("1m"))  # the win on 4m has no 幺九 either
    issue = rules.ready_conditions(None, 1, None, tuple(hand), melds)
    assert issue[0] == "READY_CONDITIONS" and "幺" in issue[1]
    dui_dao = T.counts(T.parse("234m456p22s99s"))  # no 刻 but 对倒 on 2s / 9s, with a 吃 of 123s
    from referee.state import CHI as CHI_MELD, Meld as M

    assert rules.ready_conditions(None, 1, None, tuple(dui_dao), [M(CHI_MELD, T.parse("1s")[0], 0)]) is None


def test_ready_needs_an_open_hand():
    b = hand("hrb-not-open", b="CC234m456p777s67s", a=MODEL_A + "1p", c=MODEL_C, d=MODEL_D)
    verdict = judge(b.discard(0, "1p").draw(1, "9m").discard(1, "9m", ready=True), clean=False)
    assert codes(verdict)[:1] == [("READY_NOT_OPEN", 3)]


def test_a_discarded_bao_is_a_plain_tile():
    """B waits on 6m/9m; the 宝 is 3s. C's discarded 3s is no wildcard: B may not win on it."""
    verdict = judge(ready(hand("hrb-bao-discard")).draw(2, "3s").discard(2, "3s").win(1, "discard", "3s"), clean=False)
    assert codes(verdict) == [("FALSE_WIN", 6)]


def test_a_bao_drawn_before_ready_is_a_plain_tile():
    """A 门清 seat that draws the 宝 kind cannot use it: it has not declared 听."""
    b = hand("hrb-bao-early", b="78789m345p11p22s3s")  # 22s 78m 789m 345p 11p + 3s: a win with a wild 3s
    verdict = judge(b.discard(0, "1p").draw(1, "3s").win(1, "self", "3s"), clean=False)
    assert codes(verdict) == [("FALSE_WIN", 3)]


def test_no_second_winner_on_a_discard():
    """B (6m/9m) and C (2m/9m) are 听; A's 9m goes to B alone, the nearest counter-clockwise."""
    b = ready(hand("hrb-two-ron", c="123m456p99m22m88p7s")).draw_discard(2, "5s")  # 1-5
    b.draw(3, "4s").discard(3, "8p").pon(2, "8p").discard(2, "7s", ready=True)  # 6-9: C 听 on 2m / 9m
    b.draw_discard(3, "2s").draw(0, "9m").discard(0, "9m")  # 10-13
    verdict = judge(b.win(1, "discard", "9m").win(2, "discard", "9m"), clean=False)
    assert codes(verdict) == [("MULTIPLE_RON", 15)]
    assert verdict.winners == (1,)


def test_call_at_four_tiles():
    """Three sets called leave four tiles in hand: no fourth 碰 (手把一)."""
    rules = get_ruleset("harbin")
    from types import SimpleNamespace
    from referee import actions as A

    seat = SimpleNamespace(melds=[_pon("1p"), _pon("2p"), _pon("3p")])
    view = SimpleNamespace(seats=[seat] * 4)
    assert rules.forbid(view, 1, A.Action(A.PON, 0))[0] == "CALL_AT_FOUR"
    assert rules.forbid(view, 1, A.Action(A.KONG_ADDED, 9)) is None  # HRB-A11: 补杠 is still allowed
    strict = get_ruleset("harbin", {"hrb_no_bugang_at_4": "true"})
    assert strict.forbid(view, 1, A.Action(A.KONG_ADDED, 9))[0] == "CALL_AT_FOUR"


# -- options (HRB-A1 payment knobs and the other rulings) -------------------------------------------------
def test_chuchong_pays_only_its_own_share_option():
    b = ready(hand("hrb-opt-chuchong", hrb_chuchong_pays_all=False)).draw(2, "6m").discard(2, "6m")
    assert payments(b.win(1, "discard", "6m")) == (0, 3, -3, 0)


def test_ready_discarder_pays_alone_option():
    b = ready(hand("hrb-opt-ting", c=C_READY, hrb_ting_discard_all_pay=False)).draw_discard(2, "5s")
    b.draw(3, "4s").discard(3, "8p").pon(2, "8p").discard(2, "7s", ready=True)
    b.draw(3, "2s").discard(3, "6s").pon(0, "6s").discard(0, "9p")
    b.draw_discard(1, "4m").draw(2, "6m").discard(2, "6m").win(1, "discard", "6m")
    assert payments(b) == (0, 1, -1, 0)


def test_robbed_kong_paid_by_the_konger_alone_option():
    b = hand("hrb-opt-rob", d="1345m2689p899s66m", hrb_rob_paid_by_all=False)
    b.discard(0, "1p").pon(1, "1p").discard(1, "C").draw(2, "6m").discard(2, "6m").pon(3, "6m").discard(3, "5m")
    b.draw_discard(0, "8p").draw(1, "5s").discard(1, "5s", ready=True)
    b.draw_discard(2, "7s").draw(3, "6m").kong(3, "added", "6m").win(1, "rob", "6m")
    # 抢杠 = 自摸 (M 2), every share paid by the robbed seat as 出冲 pays them (包付): 2 × (3 + 3 + 1), seats
    # 0 and 2 门清, seat 3 open. (It paid its own share alone, 2: less than a discard to that seat pays.)
    assert payments(b) == (0, 14, 0, -14)


def test_old_bao_stays_at_the_tail_option():
    """HRB-A9 off: after 换宝 the old 宝 stays at the tail and the new one is the tile before it."""
    b = ready(hand("hrb-opt-old-bao", hrb_old_bao_dead=False)).draw(2, "3s").discard(2, "3s")
    b.draw(3, "3s").discard(3, "3s").draw(0, "8p").discard(0, "3s").bao("4m", seat=1, change=True)
    assert payments(b.draw(1, "4m").win(1, "self", "4m")) == (-9, 27, -9, -9)
    assert get_ruleset("harbin", {"hrb_old_bao_dead": "false"}).live_tiles(_after_deal()) == 50


def _after_deal():
    wall = Wall([0] * 112)
    wall.front = 53
    return wall


def test_wall_and_priority_options():
    rules = get_ruleset("harbin", {"hrb_replacement_skips_reserve": "false", "hrb_chiting_yields_to_pon": "false",
                                   "hrb_reserve_tiles": "10", "hrb_self_draw_only_last": "0"})
    assert rules.wall_end.replacement_skip == 0 and rules.live_tiles(_after_deal()) == 48
    assert not rules.wall_end.ron_forbidden(1)
    from referee import actions as A

    assert rules.priority[A.CHI_READY] > rules.priority[A.PON]
    assert get_ruleset("harbin").priority[A.CHI_READY] < get_ruleset("harbin").priority[A.PON]


def test_kong_after_ready_may_change_the_waits_option():
    """HRB-A3 "same waits" off: 7778m 345p 123s (after 碰 1p) waits on 6m, 8m or 9m; the 暗杠 of the
    drawn 7m leaves 8m alone. By default that is READY_WAITS_CHANGED; with the option any wait will do."""
    def script(**options):
        b = around(ready(hand("hrb-opt-same-waits", b="7778m345p123s11pC", **options)))  # 0-9
        b.draw(1, "7m").kong(1, "concealed", "7m").draw(1, "9s", replacement=True).discard(1, "9s")  # 10-13
        return b.draw(2, "8m").discard(2, "8m").win(1, "discard", "8m")  # 14-16

    assert codes(judge(script(), clean=False)) == [("READY_WAITS_CHANGED", 11)]
    assert payments(script(hrb_ready_kong_same_waits=False)) == (0, 9, -9, 0)


def test_edge_wait_is_kadang_option():
    """HRB.6.3 off: 789m 89m 345p 22s (after 碰 1p) waits on 7m alone, an edge (89→7): 卡当 (M 2, C
    pays 2 × 9) with the option; by default no 卡当 (M 1)."""
    def script(**options):
        b = ready(hand("hrb-opt-edge", b="789m89m345p11p22sC", **options))  # 0-3
        return judge(b.draw_discard(2, "7m").win(1, "discard", "7m"))  # 4-6

    plain = script()
    assert patterns(plain) == {"平和": 1} and plain.recomputed.payments == (0, 9, -9, 0)
    verdict = script(hrb_kadang_edge_wait=True)
    assert patterns(verdict) == {"平和": 1, "卡当": 2} and verdict.recomputed.payments == (0, 18, -18, 0)
    rules = get_ruleset("harbin", {"hrb_kadang_edge_wait": "true"})
    rest = T.counts(T.parse("12m789p345s22s"))  # 12→3
    assert rules.kadang(rest, [_pon("1p")], T.parse("3m")[0]) and not get_ruleset("harbin").kadang(
        rest, [_pon("1p")], T.parse("3m")[0])


def test_conditions_checked_at_ready_only_option():
    """HRB.5 off: B 吃s 3p and declares 听 on 2223m 456p 789s (222m is its 刻); the win on 4m reads
    22m 234m, with no 刻. By default that is WIN_CONDITIONS; with the option only the sequence is
    asked of the final hand, and C pays 1 × 9 (出冲)."""
    def script(**options):
        b = hand("hrb-opt-recheck", b="2223m456p789s12pC", a="234m34679p13566sC", **options)
        b.discard(0, "3p").chi(1, "12p").discard(1, "C", ready=True)  # 1-3
        return b.draw(2, "4m").discard(2, "4m").win(1, "discard", "4m")  # 4-6

    assert codes(judge(script(), clean=False)) == [("WIN_CONDITIONS", 6)]
    assert payments(script(hrb_recheck_conditions_at_win=False)) == (0, 9, -9, 0)
    loose = get_ruleset("harbin", {"hrb_recheck_conditions_at_win": "false"})
    assert loose.valid_waits(T.counts(T.parse("2223m456p789s")), [_chi("1p")]) == tuple(T.parse("1m3m4m"))
    assert get_ruleset("harbin").valid_waits(T.counts(T.parse("2223m456p789s")), [_chi("1p")]) == tuple(T.parse("3m"))


def test_concealed_kong_opens_option():
    """HRB.3 off: B's only meld is a 暗杠 of 7m when it declares 听 (READY_NOT_OPEN by default); with
    the option the 听 is legal, and a seat with a 暗杠 pays as open (factor 1, not 门清 3)."""
    def script(**options):
        b = hand("hrb-opt-ankong", b="7777m123p345p22s8s", **options)
        b.discard(0, "C").draw(1, "9s").kong(1, "concealed", "7m").draw(1, "C", replacement=True)  # 1-4
        b.discard(1, "C", ready=True)  # 5: 123p 345p 22s 89s waits 7s
        return around(b).draw(1, "7s").win(1, "self", "7s")  # 6-12

    assert codes(judge(script(), clean=False)) == [("READY_NOT_OPEN", 5)]
    assert payments(script(hrb_concealed_kong_opens=True)) == (-6, 18, -6, -6)
    from referee.outcome import KongInfo
    from referee.rules.base import Outcome
    from referee.state import CONCEALED

    kongs = [KongInfo(2, CONCEALED, T.parse("5m")[0], None, 0)]  # seat 2's 暗杠, its only meld
    assert get_ruleset("harbin").open_seats(Outcome(0, kongs=kongs)) == set()
    assert get_ruleset("harbin", {"hrb_concealed_kong_opens": "true"}).open_seats(Outcome(0, kongs=kongs)) == {2}


def _chi(low):
    from referee.state import CHI, Meld

    return Meld(CHI, T.parse(low)[0], 0)


def test_hongzhong_pair_option():
    rules = get_ruleset("harbin", {"hrb_hongzhong_pair_for_pung": "false"})
    hand14 = T.counts(T.parse("CC234m456p789s123s"))
    assert get_ruleset("harbin").win_reason(hand14, []) is None
    assert "刻" in rules.win_reason(hand14, [])


# -- HRB.5 摸宝 "is always a win": also on a wait whose four copies are all in sight (REC-global-1) --
def test_mobao_on_a_wait_whose_copies_are_all_in_the_seats_own_kong():
    # B 碰s 9s, makes a 明杠 of 2m, then declares 听 on 13m 88p 567p: its one wait is 2m, all four of
    # which are in its kong. That still is a wait (REC-global-1), so the drawn 宝 (3s) wins: 摸宝
    # on the closed 2m (卡当).
    b = hand("hrb-mobao-seen-wait", a="1359m1359p1359s9sC", b="222m13m88p567p99s4s",
             c="2m4m6m2p4p6p8p1s3s5s7sCC", d="5m7m9m3p4p7p7p2s4s6s6s8sC")
    b.discard(0, "9s").pon(1, "9s").discard(1, "4s")  # 1-3
    b.draw(2, "6s").discard(2, "2m").kong(1, "exposed", "2m")  # 4-6
    b.draw(1, "7s", replacement=True).discard(1, "7s", ready=True)  # 7-8
    b.draw_discard(2, "8s").draw_discard(3, "9p").draw_discard(0, "8m")  # 9-14
    b.draw(1, "3s").win(1, "self", "3s")  # 15-16
    verdict = judge(b)
    assert verdict.winners == (1,) and patterns(verdict) == {"摸宝": 3, "卡当": 2}
    assert verdict.recomputed.payments == (-18, 54, -18, -18)  # M = 3 × 2, each 门清 loser pays 6 × 3


def test_mobao_scores_the_best_stand_in_when_kadang_needs_no_unique_wait():
    # 12334m 345p 22s (after 碰 1p) waits on 2m or 5m; 2m closes 1_3 (卡当). The 宝 stands for the
    # wait worth most (REC-global-2): with hrb_kadang_unique_wait off that is 2m, 摸宝卡当; by
    # default 卡当 needs the only wait, so two waits give 摸宝 alone.
    def mobao(**options):
        b = around(ready(hand("hrb-mobao-best", b="12334m345p11p22sC", **options)))
        return patterns(judge(b.draw(1, "3s").win(1, "self", "3s")))

    assert mobao(hrb_kadang_unique_wait=False) == {"摸宝": 3, "卡当": 2}
    assert mobao() == {"摸宝": 3}


@pytest.mark.parametrize("ruleset", ["harbin", "dalian"])
@pytest.mark.parametrize("sample,logged", [("clean_mobao", "BAO_CHANGE"), ("clean_huanbao", "BAO")])
def test_a_bao_flip_logged_as_the_wrong_kind_is_undue(ruleset, sample, logged):
    """A 换宝 logged where the first 宝 is due, or a first flip where 换宝 is due, is BAO_UNDUE at that
    flip (the kinds differ in record.proto; the platform's label must match what is due)."""
    from referee import records
    from referee.proto import record_pb2 as pb

    record = records.read_record(pathlib.Path(__file__).parent.parent / "samples" / ruleset / f"{sample}.textproto")
    assert verify_record(record).status == "clean"
    due = pb.BAO if logged == "BAO_CHANGE" else pb.BAO_CHANGE
    at = next(i for i, e in enumerate(record.events) if e.WhichOneof("kind") == "indicator" and e.indicator.kind == due)
    record.events[at].indicator.kind = getattr(pb, logged)
    verdict = verify_record(record)
    assert [(v.code, v.event_index) for v in verdict.errors] == [("BAO_UNDUE", at)]


RECORDS = pathlib.Path(__file__).parent / "records"  # hands from an independent fault review


@pytest.mark.parametrize("name,expected", [
    # A 吃 from a seat other than the 上家, at four tiles in hand: two rules, two findings.
    ("hrb_chi_at_four_not_from_left", [("CHI_NOT_FROM_LEFT", 76, 0), ("CALL_AT_FOUR", 76, 0)]),
    # A 听 seat's 碰 (哈尔滨) or 明杠 (大连) at four tiles in hand: 手把一 and the 听 lock.
    ("hrb_ready_pon_at_four", [("CALL_AT_FOUR", 52, 3), ("READY_CALL", 52, 3)]),
    ("dl_ready_exposed_kong_at_four", [("CALL_AT_FOUR", 116, 3), ("READY_CALL", 116, 3)]),
    # An illegal 吃听: one finding at the 吃 (not again at the discard after it), naming no discard as made.
    ("hrb_illegal_chiting", [("READY_NOT_TENPAI", 6, 2)]),
])
def test_every_rule_a_call_breaks_is_reported_once(name, expected):
    from referee import records

    verdict = verify_record(records.read_record(RECORDS / f"{name}.textproto"))
    found = [(v.code, v.event_index, v.seat) for v in verdict.errors if v.code != "HAND_INCOMPLETE"]
    assert found == expected
    if name == "hrb_illegal_chiting":
        assert "would leave" in verdict.errors[0].message and "declared 听 discarding" not in verdict.errors[0].message
