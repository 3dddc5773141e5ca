"""Dalian worked examples (SPEC DL.7: DL-1 夹听 shapes, DL-2 the 番 table, DL-3 kong payments,
DL-4 the base shapes) and the Appendix A computations, each through a full record judged by the
referee; and the Dalian rules around the 宝: 冲宝, 摸宝, 换宝, permanent 漏胡, the cap.

Seats: A = 0 deals, B = 1 is the protagonist, C = 2, D = 3. Unless a test says otherwise B opens
by 碰 of A's 1p and declares 听 with E; the first 听 seat's next draw chooses the 宝 (here 9s, six
stacks from the back of the wall), and every other seat stays 门清.
"""
import pytest

from referee import tiles as T
from referee.builder import HandBuilder
from referee.rules import get_ruleset
from referee.scoring import doubled
from referee.state import CHI, KONG, PON, CONCEALED, Meld, Wall
from referee.verify import verify_record

A_HAND = "369m1258p147sSSWN"  # the dealer: lets 1p go first; SS to 碰
B_PLAIN = "234m678s45p99m11pE"  # 碰 1p, 听 on E: 234m 678s 45p 99m waits 3p or 6p
B_JIA = "234m678s46p99m11pE"  # ... 46p waits 5p alone (夹听)
C_HAND = "147m369p258sEENF"  # EE to 碰
D_HAND = "258m457p369sNNSC"  # NN to 碰


def hand(game_id, a=A_HAND, b=B_PLAIN, c=C_HAND, d=D_HAND, **options):
    builder = HandBuilder(game_id, ruleset="dalian", options={k: str(v).lower() for k, v in options.items()})
    return builder.deal(a, b, c, d)


def ready(b, jiating=False):
    """Events 0-2: A lets 1p go, B 碰s it and declares 听 (or 夹听) with E."""
    return b.discard(0, "1p").pon(1, "1p").discard(1, "E", ready=not jiating, jiating=jiating)


def around(b):
    """Events 3-8: C, D and A each draw and let the tile go; B draws next."""
    return b.draw_discard(2, "1s").draw_discard(3, "2p").draw_discard(0, "7m")


def flip(b, tile="9s", seat=1, stacks=6, change=False):
    """The 宝 chosen by dice at the first 听 seat's next draw (a 换宝 with `change`)."""
    return b.bao(tile, seat=seat, stacks=stacks, change=change)


def judge(b, clean=True):
    record = b.build() if clean else b.build(claim=False)
    verdict = verify_record(record)
    if clean:
        assert verdict.status == "clean", [(v.code, v.event_index, v.message) for v in verdict.violations]
    return verdict


def patterns(verdict, seat=1):
    return {p.name: p.value for p in verdict.recomputed.patterns if p.seat == seat}


def codes(verdict):
    return [(v.code, v.event_index) for v in verdict.violations]


# -- DL-2: 2^(番−1) × base ---------------------------------------------------------------------
def test_dl2_doubling_table():
    assert [doubled(fan, offset=1) for fan in range(1, 7)] == [1, 2, 4, 8, 16, 32]
    assert doubled(3, 5, offset=1) == 20 and doubled(0, offset=1) == 0


# -- Appendix A (DL) (番 2..6 through records: DL-2) ------------------------------------------------
def test_appendix_a_plain_self_draw_everyone_opened():
    """B self-draws a plain hand; everyone opened: A 2^(3−1) = 4; C, D 2; B +8."""
    b = ready(hand("dl-a1")).pon(2, "E").discard(2, "N").pon(3, "N").discard(3, "S").pon(0, "S").discard(0, "W")  # 0-8
    verdict = judge(flip(b).draw(1, "3p").win(1, "self", "3p"))  # 9-11
    assert verdict.recomputed.payments == (-4, 8, -2, -2)
    assert patterns(verdict) == {"平胡": 1, "自摸": 1, "庄家": 1}


def test_appendix_a_dealer_wins_after_jiating():
    """A (dealer) wins on C's discard after 夹听; C opened: 1 + 放炮 + 夹胡 + 庄家 = 4 → 8."""
    b = hand("dl-a2", a="234m678s46p99m11pEW", b="1p147m3p9p258sSSPE")
    b.discard(0, "E").draw(1, "6m").discard(1, "1p").pon(0, "1p").discard(0, "W", jiating=True)  # 0-4
    b.draw(1, "7s").discard(1, "E").pon(2, "E").discard(2, "F").draw_discard(3, "3m")  # 5-10
    flip(b, seat=0).draw_discard(0, "4s").draw_discard(1, "5m").draw(2, "5p").discard(2, "5p")  # 11-17
    verdict = judge(b.win(0, "discard", "5p"))  # 18
    assert verdict.recomputed.payments == (8, 0, -8, 0)
    assert patterns(verdict, seat=0) == {"平胡": 1, "放炮": 1, "夹胡": 1, "庄家": 1}


def test_appendix_a_mobao_after_jiating_with_a_concealed_kong():
    """B wins by 摸宝 after 夹听; C unopened: A 6 番 → 32, C 6 → 32, D 5 → 16; B +80, and its
    暗杠 +2 from each: A −34, C −34, D −18, B +86."""
    b = hand("dl-a3", a="369m1258p147sNNW5m", b="678s46p99m11pSSSE", d="258m147p369sWWNC")
    ready(b, jiating=True)  # 0-2: 678s 46p 99m SSS waits 5p alone
    b.draw(2, "W").discard(2, "W").pon(3, "W").discard(3, "N").pon(0, "N").discard(0, "5m")  # 3-8: D and A open
    flip(b).draw(1, "S").kong(1, "concealed", "S").draw(1, "P", replacement=True).discard(1, "P")  # 9-13
    b.draw_discard(2, "1s").draw_discard(3, "2p").draw_discard(0, "7m").draw(1, "9s").win(1, "self", "9s")  # 14-21
    verdict = judge(b)
    assert patterns(verdict) == {"平胡": 1, "自摸": 1, "夹胡": 1, "摸宝": 2, "庄家": 1, "未开门": 1}
    assert verdict.recomputed.payments == (-34, 86, -34, -18)
    assert verdict.recomputed.kong_payments == (-2, 6, -2, -2)


def test_appendix_a_three_closed_losers():
    """All three non-winners unopened, B self-draws a plain hand: A 5 番 → 16; C, D 4 → 8; B +32."""
    verdict = judge(flip(around(ready(hand("dl-a4")))).draw(1, "3p").win(1, "self", "3p"))
    assert verdict.recomputed.payments == (-16, 32, -8, -8)
    assert patterns(verdict) == {"平胡": 1, "自摸": 1, "庄家": 1, "未开门": 1, "三家门清": 1}


def test_menqing_fans_stack_option():
    """DL-A11 off: 三家门清 replaces 未开门 (A 4 番 → 8, C and D 3 → 4)."""
    verdict = judge(flip(around(ready(hand("dl-a4-opt", dl_menqing_stack=False)))).draw(1, "3p").win(1, "self", "3p"))
    assert verdict.recomputed.payments == (-8, 16, -4, -4)


# -- DL-1: 夹听 shapes --------------------------------------------------------------------------------
@pytest.mark.parametrize("label, concealed, wait", [
    ("12听3", "234m678s12p99m", "3p"),
    ("89听7", "234m678s89p99m", "7p"),
    ("n,n+2听n+1", "234m678s46p99m", "5p"),
])
def test_dl1_jiating_shapes(label, concealed, wait):
    b = ready(hand(f"dl1-{label}", b=concealed + "11pE"), jiating=True)
    verdict = judge(flip(around(b)).draw(1, wait).win(1, "self", wait))
    assert patterns(verdict)["夹胡"] == 1, label


def test_dl1_jiating_on_several_waits_is_illegal():
    """45p waits on 3p and 6p: no 夹听 (DL-A3), unless the literal option."""
    verdict = judge(ready(hand("dl1-multi"), jiating=True).draw_discard(2, "1s"), clean=False)
    assert codes(verdict)[:1] == [("JIATING_ILLEGAL", 2)]
    rules = get_ruleset("dalian")
    melds = [Meld(PON, T.parse("1p")[0], 0)]
    combined = T.counts(T.parse("678s67789m99p"))  # 67789m waits 5m / 8m; 8m closes 7_9 in one reading
    valid = rules.valid_waits(combined, melds)
    assert valid == tuple(T.parse("5m8m"))
    assert not rules.jiating(combined, melds, valid)
    literal = get_ruleset("dalian", {"dl_jiating_existence_only": "true"})
    assert literal.jiating(combined, melds, valid)


# -- DL-3: kong payments: only the winner's kongs, 明 1 and 暗 2 from each, nothing in 荒庄 ---------------
def test_dl3_winners_exposed_kong_earns_and_losers_kong_does_not():
    b = hand("dl3", a="369m1258p147sSSWE", b="234m678s45p99m111p", d="258m457p369sNNNC")
    b.discard(0, "1p").kong(1, "exposed", "1p").draw(1, "E", replacement=True).discard(1, "E", ready=True)  # 0-3
    b.draw(2, "1s").discard(2, "N").kong(3, "exposed", "N").draw(3, "W", replacement=True).discard(3, "W")  # 4-8
    flip(b.draw_discard(0, "7m")).draw(1, "3p").win(1, "self", "3p")  # 9-13
    verdict = judge(b)
    # B: 平胡 + 自摸 (+ 庄家 for A, + 未开门 for A and C): A 4 番 → 8, C 3 → 4, D 2 → 2; kong 1 from each.
    assert verdict.recomputed.kong_payments == (-1, 3, -1, -1)
    assert verdict.recomputed.payments == (-9, 17, -5, -3)


def test_dl3_nothing_in_a_drawn_hand():
    rules = get_ruleset("dalian")
    from referee.outcome import KongInfo, Outcome

    kongs = [KongInfo(1, CONCEALED, 31, None, 0)]
    assert rules.settle(Outcome(0, kongs=kongs, exhaustive=True)).payments == (0, 0, 0, 0)


# -- DL-4: the base shapes, and what is no win ---------------------------------------------------------
@pytest.mark.parametrize("label, concealed, melds", [
    ("11·111·123·123·123", "99m234m678s345p", [(PON, "1p")]),
    ("11·123·123·111·1111", "99m234m678s", [(PON, "1p"), (KONG, "E")]),
    ("11·123·111·111·111", "99m234m", [(PON, "1p"), (PON, "E"), (PON, "5s")]),
    ("11(中发白)·123·123·123·123", "CC234m678s345p", [(CHI, "7p")]),
])
def test_dl4_base_shapes_win(label, concealed, melds):
    rules = get_ruleset("dalian")
    melded = [Meld(kind, T.parse(t)[0], 0, "exposed" if kind == KONG else None) for kind, t in melds]
    assert rules.win_reason(T.counts(T.parse(concealed)), melded) is None, label


@pytest.mark.parametrize("label, concealed, melds, why", [
    ("七对", "11m22p33s44m55p66s77m", [], "not a winning shape"),
    ("十三幺", "19m19p19sESWNCFP1m", [], "not a winning shape"),
    ("碰碰胡", "99m222m", [(PON, "1p"), (PON, "E"), (PON, "5s")], "no sequence"),
    ("缺门", "99m234m678m345p", [(PON, "1p")], "三色全"),
    ("无幺九", "22m234m678s345p", [(PON, "5p")], "no 1 or 9"),
    ("无刻", "99m234m678s345p", [(CHI, "1p")], "no 刻子"),
    ("三张中", "CCC99m234m678s", [(CHI, "1p")], "are no 刻子"),
    ("门清", "99m234m678s345p111p", [], "门清"),
])
def test_dl4_what_is_no_win(label, concealed, melds, why):
    rules = get_ruleset("dalian")
    melded = [Meld(kind, T.parse(t)[0], 0) for kind, t in melds]
    assert why in rules.win_reason(T.counts(T.parse(concealed)), melded), label


def test_dl4_dragon_pair_needs_no_pung_through_a_record():
    """11 (中中) · 123 ×4: B opens by 吃 of A's 7p, 听s on C alone, and draws it."""
    b = hand("dl4-dragon-pair", a="369m1258p147sSSW7p", b="CC234m678s345p89p")
    b.discard(0, "7p").chi(1, "89p").discard(1, "C", ready=True)  # 0-2: CC... less one C: waits C
    verdict = judge(flip(around(b)).draw(1, "C").win(1, "self", "C"))
    assert patterns(verdict)["自摸"] == 1


def test_dl5_a_concealed_win_fails_the_conditions_even_without_the_ready_rule():
    """DL.5 5 "Not 门清: at least one 吃/碰/明杠", checked on the final hand like the others: with the
    听 requirement off (dl_ready_required=false), B draws the fourth 1p instead of 碰'ing it and wins
    on a discard without ever opening: WIN_CONDITIONS at the win."""
    b = hand("dl5-menqing", dl_ready_required=False)
    b.discard(0, "1p").draw(1, "1p").discard(1, "E").draw(2, "3p").discard(2, "3p").win(1, "discard", "3p")
    assert [c for c in codes(verify_record(b.build(claim=False))) if c[0] == "WIN_CONDITIONS"] == [
        ("WIN_CONDITIONS", 5)]


def test_a_ready_seat_may_add_its_opening_pon_to_a_kong():
    """B opened by 碰 1p and declared 听 (waits 3p/6p); it draws the fourth 1p and adds it (补杠, with
    the drawn tile, DL-A14). Its waits are the same, and the hand stays open (DL.5 5): the 补杠 is
    legal, and B wins on 6p later. The kong's hand was once weighed with a concealed kong, which the
    开门 condition then failed."""
    b = flip(around(ready(hand("dl-ready-added-kong")))).draw(1, "1p").kong(1, "added", "1p")  # 9-11
    b.draw(1, "5m", replacement=True).discard(1, "5m")  # 12-13
    b.draw_discard(2, "1s").draw_discard(3, "2p").draw_discard(0, "7m")  # 14-19
    verdict = judge(b.draw(1, "6p").win(1, "self", "6p"))
    assert verdict.winners == (1,)


# -- DL.3.4 the 宝 -----------------------------------------------------------------------------------
def test_chongbao_on_first_sight():
    """The 宝 (3p) chosen at B's draw is one of its waits: B wins at once (冲宝 +2, a self-draw)."""
    verdict = judge(flip(around(ready(hand("dl-chongbao"))), tile="3p").win(1, "self", "3p"))
    assert patterns(verdict) == {"平胡": 1, "自摸": 1, "冲宝": 2, "庄家": 1, "未开门": 1, "三家门清": 1}
    assert verdict.recomputed.payments == (-64, 128, -32, -32)


def test_mobao_plain():
    verdict = judge(flip(around(ready(hand("dl-mobao")))).draw(1, "9s").win(1, "self", "9s"))
    assert patterns(verdict)["摸宝"] == 2
    assert verdict.recomputed.payments == (-64, 128, -32, -32)


@pytest.mark.parametrize("stacks, reachable", [(1, False), (2, True), (12, True), (13, False)])
def test_two_dice_count_2_to_12_stacks_from_the_back(stacks, reachable):
    """DL.3.4 "打几点就从牌墙后面往前数几摞": two dice reach stacks 2-12 from the back, never the last one."""
    b = flip(around(ready(hand(f"dl-bao-stack-{stacks}"))), stacks=stacks).draw(1, "3p").win(1, "self", "3p")
    verdict = judge(b, clean=reachable)
    assert codes(verdict) == ([] if reachable else [("DRAW_MISMATCH", 9)])


def test_the_dice_reach_stacks_2_to_12_and_round_a_short_wall():
    """Stacks 2-12 from the back; a single tile a replacement left at the tail read as a stack or
    not; with fewer than 12 stacks left the count goes round them (DL-A15): any stack."""
    rules = get_ruleset("dalian")
    wall = Wall(list(range(136)))
    wall.front = 100
    assert list(rules.wilds.allowed(wall)) == list(range(112, 134))
    wall.take_back()  # 135 left at the tail, alone in its stack
    assert list(rules.wilds.allowed(wall)) == list(range(110, 134))
    wall.front = 135 - 23  # 11 stacks and the single tile left
    assert list(rules.wilds.allowed(wall)) == list(range(112, 135))


def test_declining_chongbao_leaves_the_drawn_tile_free_to_win():
    """DL.3.4 item 7: 冲宝 is settled before the drawn tile is used; B lets its 冲宝 on 3p go (noted),
    and the 6p it then draws still wins by self-draw."""
    b = flip(around(ready(hand("dl-chongbao-passed"))), tile="3p").pass_(1).draw(1, "6p").win(1, "self", "6p")
    verdict = judge(b, clean=False)
    assert verdict.status == "clean" and codes(verdict) == [("MISSED_WIN", 10)]  # at its 过
    assert patterns(verdict) == {"平胡": 1, "自摸": 1, "庄家": 1, "未开门": 1, "三家门清": 1}


def test_declining_chongbao_forfeits_later_self_draws():
    """DL-A7: the declined 冲宝 counts as a passed self-draw from B's next draw on."""
    b = flip(around(ready(hand("dl-chongbao-passed-later"))), tile="3p").pass_(1).draw_discard(1, "5m")  # 9-12
    b.draw_discard(2, "1s").draw_discard(3, "2p").draw_discard(0, "7m")  # 13-18
    verdict = judge(b.draw(1, "6p").win(1, "self", "6p"), clean=False)
    assert codes(verdict) == [("MISSED_WIN", 10), ("WIN_AFTER_PASSED_WIN", 20)]


def test_bao_change_after_three_discards_then_chongbao():
    """Three 9s (the 宝) lie in the discards: 换宝 before the next draw, to 3p, which B waits on: 冲宝."""
    b = flip(around(ready(hand("dl-huanbao")))).draw_discard(1, "5m")  # 0-11
    b.draw(2, "9s").discard(2, "9s").draw(3, "7s").discard(3, "9s").draw(0, "9s").discard(0, "9s")  # 12-17
    verdict = judge(flip(b, tile="3p", stacks=7, change=True).win(1, "self", "3p"))  # 18-19
    assert patterns(verdict)["冲宝"] == 2


def test_missing_bao_change_is_reported_once():
    b = flip(around(ready(hand("dl-no-huanbao")))).draw_discard(1, "5m")  # 0-11
    b.draw(2, "9s").discard(2, "9s").draw(3, "7s").discard(3, "9s").draw(0, "9s").discard(0, "9s")  # 12-17
    verdict = judge(b.draw(1, "6p").win(1, "self", "6p"), clean=False)
    assert codes(verdict) == [("BAO_MISSING", 18)]


def test_ron_after_passing_one_is_forfeited():
    """DL.4: B lets C's 3p go (noted), then may never win on a discard again."""
    b = ready(hand("dl-louhu")).draw(2, "3p").discard(2, "3p").pass_(1)  # 3-5
    b.draw(3, "6p").discard(3, "6p").win(1, "discard", "6p")  # 6-8
    verdict = judge(b, clean=False)
    assert codes(verdict) == [("MISSED_WIN", 5), ("WIN_AFTER_PASSED_WIN", 8)]  # the note at B's 过


def test_cap_scales_the_payers_pro_rata():
    """DL-A12: 冲宝 at base 100 is 6400 + 3200 + 3200; the winner is clipped to 1000, payers pro rata."""
    verdict = judge(flip(around(ready(hand("dl-cap", dl_base=100))), tile="3p").win(1, "self", "3p"))
    assert verdict.recomputed.payments == (-500, 1000, -250, -250)
    assert all("capped to" in line and "(seat 1 gains at most 1000: its payers pay pro rata)" in line
               for line in verdict.recomputed.lines)
    uncapped = judge(flip(around(ready(hand("dl-uncapped", dl_base=100, dl_cap=0))), tile="3p").win(1, "self", "3p"))
    assert uncapped.recomputed.payments == (-6400, 12800, -3200, -3200)


# -- DL.2 calls ----------------------------------------------------------------------------------------
def test_no_pon_of_a_dragon():
    b = ready(hand("dl-pon-dragon", c="147m369p258sEEFF")).draw_discard(2, "1s")  # 0-4
    verdict = judge(b.draw(3, "F").discard(3, "F").pon(2, "F").discard(2, "E"), clean=False)
    assert codes(verdict)[:1] == [("PON_DRAGON", 7)]


def test_no_concealed_kong_before_opening():
    b = hand("dl-ankong-closed", c="1111m369p258sENF")
    b.discard(0, "1p").pon(1, "1p").discard(1, "E", ready=True).draw(2, "5m")  # 0-3
    verdict = judge(b.kong(2, "concealed", "1m").draw(2, "W", replacement=True).discard(2, "W"), clean=False)
    assert codes(verdict)[:1] == [("CONCEALED_KONG_UNOPENED", 4)]


# -- options ---------------------------------------------------------------------------------------------
def test_dealer_fan_for_the_winner_only_option():
    verdict = judge(flip(around(ready(hand("dl-opt-dealer", dl_dealer_fan="winner")))).draw(1, "3p")
                    .win(1, "self", "3p"))
    assert verdict.recomputed.payments == (-8, 24, -8, -8)


def test_bao_wins_are_not_self_draws_option():
    b = flip(around(ready(hand("dl-opt-bao", dl_bao_is_self_draw=False))), tile="3p")
    verdict = judge(b.win(1, "self", "3p"))
    assert verdict.recomputed.payments == (-32, 64, -16, -16)


def test_robbed_kong_paid_by_all_three_option():
    b = hand("dl-opt-rob", d="258m457p3sNNSC66p", dl_rob_pays_as_discarder=False)
    b.discard(0, "1p").pon(1, "1p").discard(1, "E").draw(2, "1s").discard(2, "6p").pon(3, "6p").discard(3, "N")
    b.draw_discard(0, "7m").draw(1, "5m").discard(1, "5m", ready=True)
    b.draw_discard(2, "8m").draw(3, "6p").kong(3, "added", "6p").win(1, "rob", "6p")
    # 平胡 1 + 抢杠胡 2, + 庄家 and 未开门 for the dealer, + 未开门 for seat 2; seat 3 opened.
    assert judge(b).recomputed.payments == (-16, 28, -8, -4)


def test_no_missed_win_rule_option():
    b = ready(hand("dl-opt-louhu", dl_missed_win_rule="none")).draw(2, "3p").discard(2, "3p").pass_(1)
    verdict = judge(b.draw(3, "6p").discard(3, "6p").win(1, "discard", "6p"))
    assert codes(verdict) == [("MISSED_WIN", 5)]


def test_chi_from_any_seat_option():
    b = hand("dl-opt-chi", b="234m78s45p99m11pEW", dl_chi_from_left_only=False)
    b.discard(0, "W").draw(1, "P").discard(1, "P").draw(2, "6s").discard(2, "6s").chi(1, "78s").discard(1, "E")
    verdict = judge(b.draw_discard(2, "1m"), clean=False)
    assert codes(verdict) == [("HAND_INCOMPLETE", None)]


def test_ready_not_required_option():
    """DL-A1 S1 off: B opens by 碰 and wins on C's 3p without declaring 听 (1 + 放炮 + 未开门 + 三家门清
    = 4 番 → C pays 8); by default that win is WIN_WITHOUT_READY."""
    def script(**options):
        b = hand("dl-opt-ready-required", **options).discard(0, "1p").pon(1, "1p").discard(1, "E")  # 0-2
        return b.draw(2, "3p").discard(2, "3p").win(1, "discard", "3p")  # 3-5

    assert codes(judge(script(), clean=False)) == [("WIN_WITHOUT_READY", 5)]
    verdict = judge(script(dl_ready_required=False))
    assert verdict.winners == (1,) and verdict.recomputed.payments == (0, 8, -8, 0)


def test_no_ready_lock_option():
    """DL-A1 S3/S4 off: after 听 B keeps its drawn 5m and lets 2m go (still waiting on 3p or 6p)."""
    def script(**options):
        b = flip(around(ready(hand("dl-opt-lock", **options)))).draw(1, "5m").discard(1, "2m")  # 9-11
        return b.draw(2, "3p").discard(2, "3p").win(1, "discard", "3p")  # 12-14

    assert codes(judge(script(), clean=False)) == [("READY_LOCK_BREACH", 11)]
    assert judge(script(dl_ready_lock=False)).winners == (1,)


def test_kong_after_ready_may_change_the_waits_option():
    """DL-A14 "same waits" off: 1112m 678s 456p (after 碰 1p) waits on 2m or 3m; the 暗杠 of the drawn
    1m leaves 2m alone. By default that is READY_WAITS_CHANGED; with the option any wait will do."""
    def script(**options):
        b = ready(hand("dl-opt-same-waits", b="111m2m678s456p11pE", c="247m369p258sEENF", **options))  # 0-2
        kong_drawn(flip(around(b)), "1m")  # 3-13
        return b.draw(2, "2m").discard(2, "2m").win(1, "discard", "2m")  # 14-16

    assert codes(judge(script(), clean=False)) == [("READY_WAITS_CHANGED", 11)]
    assert judge(script(dl_ready_kong_same_waits=False)).winners == (1,)


@pytest.mark.parametrize("declined", ["chongbao", "mobao"])
def test_declined_bao_is_no_pass_option(declined):
    """DL.4 off: B lets its 冲宝 on 3p (or its 摸宝, the drawn 9s) go; the later self-draw of 6p still
    wins. By default the decline is a passed self-draw (WIN_AFTER_PASSED_WIN); the note stays."""
    def script(**options):
        b = around(ready(hand(f"dl-opt-declined-{declined}", **options)))  # 0-8
        if declined == "chongbao":
            flip(b, tile="3p").pass_(1).draw_discard(1, "5m")  # 9-12: the 冲宝 on 3p let go
        else:
            flip(b).draw_discard(1, "9s")  # 9-11: the 宝 kind drawn and let go (摸宝)
        b.draw_discard(2, "1s").draw_discard(3, "2p").draw_discard(0, "7m")
        return b.draw(1, "6p").win(1, "self", "6p")

    win_index = 20 if declined == "chongbao" else 19
    missed = 10 if declined == "chongbao" else 11  # the logged 过 on the 冲宝; the discard after 摸宝
    assert codes(judge(script(), clean=False)) == [("MISSED_WIN", missed), ("WIN_AFTER_PASSED_WIN", win_index)]
    verdict = judge(script(dl_declined_bao_is_pass=False))
    assert codes(verdict) == [("MISSED_WIN", missed)] and verdict.winners == (1,)


def test_plain_self_draw_declined_is_still_a_pass_with_the_bao_option_off():
    """dl_declined_bao_is_pass covers the 宝 only: letting a drawn 6p (a plain wait) go still forfeits."""
    b = flip(around(ready(hand("dl-opt-declined-plain", dl_declined_bao_is_pass=False)))).draw_discard(1, "6p")
    b.draw_discard(2, "1s").draw_discard(3, "2p").draw_discard(0, "7m")  # 12-17
    verdict = judge(b.draw(1, "3p").win(1, "self", "3p"), clean=False)
    assert codes(verdict) == [("MISSED_WIN", 11), ("WIN_AFTER_PASSED_WIN", 19)]


def test_bao_leaves_play_option():
    """DL-A5 off: the 宝 is set aside when chosen, so the wall holds one live tile fewer. A hand
    played out to 荒庄 with the 宝 in the wall (clean) draws once from the reserve without it."""
    b = flip(around(ready(hand("dl-opt-bao-leaves")))).draw_discard(1, "5m").play_out(2)
    record = b.build()
    last_draw = len(record.events) - 3  # the last 摸打 before the 荒庄 event
    assert [c for c, _ in codes(verify_record(record)) if c != "MISSED_WIN"] == []
    record.ruleset.options["dl_bao_leaves_play"] = "true"
    assert [(c, i) for c, i in codes(verify_record(record)) if c != "MISSED_WIN"] == [("DRAW_FROM_RESERVE", last_draw)]


def test_win_on_the_fourth_tile_of_a_pung_option():
    """DL-A1 (supplement, off by default): a 听 seat drawing the 4th tile of a pung in hand may win."""
    def script(**options):
        b = hand("dl-opt-fourth", b="999s678s46p99m11pE", d="258m457p36sNNSCW", **options)
        return flip(around(ready(b, jiating=True)), tile="3m").draw(1, "9s").win(1, "self", "9s")

    verdict = judge(script(dl_win_on_4th_of_concealed_pung=True))
    assert verdict.winners == (1,)
    assert codes(judge(script(), clean=False)) == [("FALSE_WIN", 11)]


def test_unit_options():
    from referee import actions as A
    from types import SimpleNamespace

    kong_only = [Meld(KONG, T.parse("E")[0], 0, "exposed"), Meld(CHI, T.parse("1p")[0], 0)]
    hand14 = T.counts(T.parse("99m234m678s345p"))
    assert get_ruleset("dalian").win_reason(hand14, kong_only[:1]) is None
    assert "刻子" in get_ruleset("dalian", {"dl_kong_counts_as_pung": "false"}).win_reason(hand14, kong_only[:1])
    assert get_ruleset("dalian", {"dl_ready_kong_with_drawn": "false"}).ready.lock.kong_needs_drawn is False
    view = SimpleNamespace(seats=[SimpleNamespace(melds=[], is_open=True)] * 4)
    no_dragon_kongs = get_ruleset("dalian", {"dl_dragon_kongs": "false"})
    assert no_dragon_kongs.forbid(view, 1, A.Action(A.KONG_EXPOSED, T.parse("C")[0]))[0] == "ILLEGAL_CALL"
    assert get_ruleset("dalian").forbid(view, 1, A.Action(A.KONG_EXPOSED, T.parse("C")[0])) is None


def test_jiahu_with_bao_option():
    def script(**options):
        return flip(around(ready(hand("dl-opt-jiahu", b=B_JIA, **options), jiating=True))).draw(1, "9s").win(
            1, "self", "9s")

    assert "夹胡" in patterns(judge(script()))
    assert "夹胡" not in patterns(judge(script(dl_jiahu_with_bao=False)))


# -- DL-A14: a kong after 听 keeps the *valid* waits (DL.3.2 "Only valid waits are waits") ----------------
def chi_ready(b, tile, low, jiating=False):
    """Events 0-2: A lets `tile` go, B 吃s it with `low` and declares 听 (or 夹听) with E."""
    return b.discard(0, tile).chi(1, low).discard(1, "E", ready=not jiating, jiating=jiating)


def kong_drawn(b, tile):
    """Events 10-13: B draws the fourth `tile`, makes a 暗杠 of it, and lets its replacement W go."""
    return b.draw(1, tile).kong(1, "concealed", tile).draw(1, "W", replacement=True).discard(1, "W")


def test_kong_after_ready_keeps_the_valid_waits_not_every_shape_wait():
    # B 吃s 1p and declares 听 on 3334m 678s 456p: the shapes wait on 2m/4m/5m, but only 4m gives a
    # 刻 (333m); a 2m or 5m win leaves 33m as a plain pair, no 刻子. The 暗杠 of the drawn 3m leaves
    # 4m 678s 456p: the shapes now wait on 4m alone, the valid waits are unchanged, so it is legal.
    b = chi_ready(hand("dl-a14-kong", a="69m1258p147sSSWNE", b="3334m678s456p23pE"), "1p", "23p")  # 0-2
    kong_drawn(flip(around(b)), "3m")  # 3-13
    b.draw(2, "4m").discard(2, "4m").win(1, "discard", "4m")  # 14-16
    assert judge(b).winners == (1,)


def test_kong_after_jiating_keeps_the_one_closed_wait():
    # 夹听 on 6667789p 123s (after 吃 456m): 7p is the one valid wait (89听7); the 暗杠 of the drawn 6p
    # leaves 7789p 123s, still 7p alone and still 89听7 ("夹听后仍可杠牌，前提是杠完后还可夹听").
    b = hand("dl-a14-jiating-kong", b="45m6667789p123sE", c="147m359p258sEENF")
    kong_drawn(flip(around(chi_ready(b, "6m", "45m", jiating=True))), "6p")  # 0-13
    b.draw(2, "7p").discard(2, "7p").win(1, "discard", "7p")  # 14-16
    assert judge(b).winners == (1,)


def test_lock_waits_are_the_valid_waits_and_a_lost_jiating_is_none():
    rules = get_ruleset("dalian")
    rest = T.counts(T.parse("3334m678s456p"))
    melds = [Meld(CHI, T.parse("1p")[0], 0, claimed_tile=T.parse("1p")[0])]
    assert rules.waits(rest, melds) == tuple(T.parse("2m4m5m"))
    assert rules.lock_waits("听", rest, melds, rules.waits(rest, melds)) == tuple(T.parse("4m"))
    # Two valid waits (3p or 6p): a 听, but no 夹听 is left to keep.
    two_sided = T.counts(T.parse("333m678s45p99m"))
    assert rules.lock_waits("听", two_sided, melds, rules.waits(two_sided, melds)) == tuple(T.parse("3p6p"))
    assert rules.lock_waits("夹听", two_sided, melds, rules.waits(two_sided, melds)) == ()


def test_shape_wait_enough_for_ready_option():
    """DL.3.2 off: a wait of the shape alone makes 听 legal and is what the lock keeps. The 听 on
    CCC 45m 678s 99m (no valid wait, see below) is then no finding; 3334m 678s 456p keeps 2m/4m/5m."""
    def script(**options):
        b = hand("dl-opt-shape-wait", b="CCC45m678s99m23pE", d="258m457p369sNNSW", **options)
        kong_drawn(flip(around(chi_ready(b, "1p", "23p"))), "C").play_out(2)  # 0-13, then to the end
        return [c for c, _ in codes(judge(b, clean=False)) if c != "MISSED_WIN"]

    assert script() == ["READY_CONDITIONS"]
    assert script(dl_ready_shape_wait_enough=True) == []
    rules = get_ruleset("dalian", {"dl_ready_shape_wait_enough": "true"})
    rest = T.counts(T.parse("3334m678s456p"))
    melds = [Meld(CHI, T.parse("1p")[0], 0, claimed_tile=T.parse("1p")[0])]
    assert rules.lock_waits("听", rest, melds, rules.waits(rest, melds)) == tuple(T.parse("2m4m5m"))


def test_a_kong_after_an_illegal_ready_is_no_second_finding():
    # B declares 听 on CCC 45m 678s 99m (after 吃 1p): it waits on 3m or 6m in shape, but three 中 in
    # hand are no 刻子 and the pair is no dragon, so no wait is valid: READY_CONDITIONS. Its later
    # 暗杠 of the drawn fourth 中 loses no wait it kept: one fault, one finding.
    b = hand("dl-illegal-ready-kong", b="CCC45m678s99m23pE", d="258m457p369sNNSW")
    kong_drawn(flip(around(chi_ready(b, "1p", "23p"))), "C").play_out(2)  # 0-13, then to the end
    assert [c for c, _ in codes(judge(b, clean=False)) if c != "MISSED_WIN"] == ["READY_CONDITIONS"]


def test_trace_lists_the_chongbao_look():
    """A 听 seat's look at the 宝 (冲宝, DL.3.4) is a decision point of the trace: win on it or pass."""
    import pathlib

    from referee import records

    samples = pathlib.Path(__file__).parent.parent / "samples" / "dalian"

    def looks(name):
        verdict = verify_record(records.read_record(samples / f"{name}.textproto"), trace=True)
        return [(d.event_index, d.seat, d.legal, d.taken, d.effect) for d in verdict.decisions
                if d.window == "chongbao"]

    legal = ("pass", "win self-draw 3p")
    assert looks("clean_chongbao") == [(10, 1, legal, "win self-draw 3p", "took effect")]
    # A 冲宝 the rules refuse: on a 宝 that is no wait (9s), the legal set is to pass; one naming
    # another tile than the 宝 (3p) is refused beside the win the seat could have declared.
    for bao, named, legal in (("9s", "9s", ("pass",)), ("3p", "9s", ("pass", "win self-draw 3p"))):
        verdict = verify_record(flip(around(ready(hand("dl-chongbao-refused"))), tile=bao)
                                .win(1, "self", named).build(claim=False), trace=True)
        assert [(d.legal, d.taken, d.effect) for d in verdict.decisions if d.window == "chongbao"] == [
            (legal, f"win self-draw {named}", "refused")]
    assert looks("self_draw_after_passed_chongbao") == [(10, 1, legal, "pass", "took effect")]


@pytest.mark.parametrize("held_tile_allowed", [True, False])
def test_added_kong_with_a_tile_held_from_before(held_tile_allowed):
    """DL.2 "玩家碰牌后，又摸到杠牌", read as HB-A13 does (the common case): B 碰s 1p holding three, keeps
    the fourth and 补杠s it after its next draw; with dl_added_kong_with_held_tile off, ILLEGAL_CALL
    (a random-play review found no option for the literal reading)."""
    options = {} if held_tile_allowed else {"dl_added_kong_with_held_tile": False}
    b = hand("dl-held-fourth", b="234m678s45p9m111pE", **options).discard(0, "1p").pon(1, "1p").discard(1, "E")
    b = around(b).draw(1, "3m").kong(1, "added", "1p").draw(1, "2m", replacement=True).discard(1, "2m")  # 9-12
    found = codes(verify_record(b.build(claim=False, strict=False)))
    assert found == ([] if held_tile_allowed else [("ILLEGAL_CALL", 10)]) + [("HAND_INCOMPLETE", None)]


def test_a_second_pass_answers_the_chongbao_look():
    """(A record from an independent trace review.) Seat 2, a later 听 seat, logs one 过 on seat 1's
    discard and one for its 冲宝 look before its draw: the second 过 is its decision at the look (the
    7s 宝 would have won: MISSED_WIN there), not a second declaration on the discard (a fatal
    ILLEGAL_ACTION, after which nothing was judged)."""
    import pathlib

    from referee import records

    path = pathlib.Path(__file__).parent / "records" / "dl_two_passes_discard_then_chongbao.textproto"
    verdict = verify_record(records.read_record(path), trace=True)
    assert [(v.code, v.event_index) for v in verdict.violations] == [("MISSED_WIN", 19), ("HAND_INCOMPLETE", None)]
    looks = [(d.event_index, d.taken, d.effect) for d in verdict.decisions if d.window == "chongbao" and d.seat == 2]
    assert looks == [(19, "pass", "took effect")]
