"""The Guangdong 推倒胡 samples (SPEC GD-TDH), registered into make_samples and written to
samples/guangdong_tdh/.

Seat 0 deals. Event 0: the dealer flips 5m, the first undrawn tile after the deal, so 6m is
the 鬼 (TDH-5 "翻出五万，六万就是鬼"); seat 1's first draw takes the 5m. Events 1-4: each
seat's two horses, set aside from the back of the wall (买马, tdh_horses = 2). The junk hands
of seats 0, 2 and 3 wait on nothing; seat 1 holds the hand the sample is about.
"""
from make_samples import HandBuilder, sample, with_claim

TDH = "guangdong_tdh"
DEALER = "147m147p147sSWCFP"  # 14 tiles; P, the 14th, is its first discard
JUNK_2 = "258m258p258sSWCF"
JUNK_3 = "39m369p369sSWCFP"
PENG_1 = "111m999p888sEENN"  # 碰碰胡: waits E or N
JIHU_1 = "123m456p789s23sEE"  # 鸡胡 only: waits 1s or 4s (self-draw or 抢杠胡 only)
HORSES = ("2p3p", "5p6s", "7p8p", "9m1p")  # by seat


def hand(game_id: str, seat1: str = PENG_1, dealer: str = DEALER, seat2: str = JUNK_2, seat3: str = JUNK_3,
         horses=HORSES, indicator: str = "5m", wilds=None, **kw) -> HandBuilder:
    """Events 0-4: the deal is done, the dealer flips the indicator, each seat gets its horses."""
    b = HandBuilder(game_id, ruleset=TDH, **kw).deal(dealer, seat1, seat2, seat3).flip_indicator(indicator, wilds)
    for seat, tiles in enumerate(horses):
        b.horses(seat, tiles)
    return b


def opening(b: HandBuilder, first: str = "P", drawn: str = "5m") -> HandBuilder:
    """Events 5-11: the dealer lets go of its 14th tile, seat 1 draws the flipped indicator and
    lets it go, then two 摸打 turns that touch nobody's wait."""
    return b.discard(0, first).draw(1, drawn).discard(1, drawn).draw_discard(2, "8m").draw_discard(3, "2m")


# -- clean hands: each way a 推倒胡 hand ends ----------------------------------------------------------
@sample("clean_discard_win", "clean", [],
        "seat 1 wins 碰碰胡 on the dealer's E: (8) × 硬胡 2 = 16 from the dealer, plus the horses, counted from "
        "seat 1", TDH)
def _():
    return opening(hand("tdh-discard-win")).draw(0, "E").discard(0, "E").win(1, "discard", "E").build()


@sample("clean_self_draw", "clean", [],
        "seat 1 draws N: 碰碰胡 自摸, 硬胡: 8 × 2 × 2 = 32 from each (Appendix A), plus the horses", TDH)
def _():
    b = opening(hand("tdh-self-draw")).draw_discard(0, "3m").draw(1, "N").win(1, "self", "N")
    return b.build()


@sample("clean_jihu_self_draw_with_ghost", "clean", [],
        "鸡胡 自摸 holding the 鬼 6m (it stands for E): 2 × 自摸 2 = 4 from each, no 硬胡 (Appendix A)", TDH)
def _():
    b = opening(hand("tdh-jihu-ghost", seat1="123m456p789s23s6mE")).draw_discard(0, "N").draw(1, "4s")
    return b.win(1, "self", "4s").build()


@sample("clean_kong_replacement_win", "clean", [],
        "杠上开花: seat 1 makes a 暗杠 of E and wins 鸡胡 on the replacement 4s: 鸡胡 8 (in place of 杠上开花) × 2 × 2 "
        "= 32 from each (Appendix A); the 暗杠 earns 2 from each at once", TDH)
def _():
    b = opening(hand("tdh-kong-flower", seat1="123m456p23s55sEEE")).draw_discard(0, "N")  # 12-13
    b.draw(1, "E").kong(1, "concealed", "E").draw(1, "4s", replacement=True).win(1, "self", "4s")  # 14-17
    return b.build()


@sample("clean_robbed_kong", "clean", [],
        "seat 3 adds 4s to its 碰 and seat 1 robs it with a 鸡胡: settled as 自摸, 鸡胡 8 × 2 × 2 = 32, the robbed "
        "seat 3 pays all three shares (96); a robbed 补杠 earns nothing", TDH)
def _():
    b = opening(hand("tdh-robbed-kong", seat1=JIHU_1, seat3="39m369p34469sSWC"))  # 0-11
    b.draw(0, "N").discard(0, "4s").pon(3, "4s").discard(3, "S")  # 12-15: seat 1 may not 胡 it (鸡胡)
    b.draw_discard(0, "N").draw_discard(1, "N").draw_discard(2, "N")  # 16-21
    return b.draw(3, "4s").kong(3, "added", "4s").win(1, "rob", "4s").build()  # 22-24


@sample("clean_gangshang_pao", "clean", [],
        "杠上炮: the dealer makes a 暗杠 of 4m and discards its replacement E; seat 1 wins 碰碰胡 + 杠上炮 = 16 × 硬胡 2 "
        "= 32 from the dealer, who has taken 2 from each for the 暗杠", TDH)
def _():
    b = opening(hand("tdh-gangshang-pao", dealer="14447m147p147sSWC"), first="C")  # 0-11
    b.draw(0, "4m").kong(0, "concealed", "4m").draw(0, "E", replacement=True).discard(0, "E")  # 12-15
    return b.win(1, "discard", "E").build()  # 16


@sample("clean_two_winners", "clean", [],
        "一炮多响: seats 1 (碰碰胡) and 2 (混一色 七对) both win on the dealer's E; the horses count from the "
        "discarder (the dealer)", TDH)
def _():
    b = opening(hand("tdh-two-winners", seat2="11s22s33s55s77s99sE"))
    return b.draw(0, "E").discard(0, "E").win(1, "discard", "E").win(2, "discard", "E").build()


# The wall runs out: all four 鬼 are horses, so no 摸打 turn has to let one go.
@sample("clean_exhaustive_draw", "clean", [],
        "流局: nobody wins; seat 2's 暗杠 of 2p earned 2 from each at once and stands (TDH.6.3); the horses are "
        "void and the dealer deals again", TDH)
def _():
    b = hand("tdh-exhaustive-draw", seat1="111m999p888sSWCP", seat2="258m22258p258sNF",
             horses=("6m6m", "6m6m", "EE", "NN"))
    b.discard(0, "P").draw(1, "5m").discard(1, "5m").draw(2, "2p").kong(2, "concealed", "2p")  # 5-9
    b.draw(2, "4m", replacement=True).discard(2, "4m")  # 10-11
    return b.play_out(3).build()


@sample("clean_haidi", "clean", [],
        "海底捞月: seat 3 self-draws its 碰碰胡 with the last tile of the wall: (8 + 8) × 2 × 2 = 64 from each", TDH)
def _():
    b = hand("tdh-haidi", seat1=JUNK_3, seat3=PENG_1, horses=("6m6m", "6m6m", "EE", "N2p")).pin_last("N")
    b.discard(0, "P").play_out(1, end=False, leave=1)
    assert b.next_seat == 3, b.next_seat
    return b.draw(3, "N").win(3, "self", "N").build()


# -- one record per 推倒胡 violation (SPEC Appendix B, GD-TDH) --------------------------------------
@sample("chi_forbidden", "violations", ["CHI_FORBIDDEN@14"],
        "seat 1 takes the dealer's 1s by 吃 (with 23s); 推倒胡 has no 吃", TDH)
def _():
    b = opening(hand("tdh-chi", seat1=JIHU_1)).draw(0, "1s").discard(0, "1s")  # 12-13
    b.chi(1, "23s").discard(1, "E")  # 14-15
    b.draw_discard(2, "N").draw_discard(3, "N").draw_discard(0, "N").draw(1, "E").win(1, "self", "E")  # 16-23
    return b.build(strict=False)


@sample("wild_discarded", "violations", ["WILD_DISCARDED@13"],
        "the dealer draws the 鬼 6m and discards it (\"赖子牌不能打出\"); seat 1's 鸡胡 may not take it", TDH)
def _():
    b = opening(hand("tdh-wild-discarded", seat1=JIHU_1)).draw(0, "6m").discard(0, "6m")  # 12-13
    return b.draw(1, "4s").win(1, "self", "4s").build(strict=False)  # 14-15


@sample("wild_in_meld", "violations", ["WILD_IN_MELD@9"],
        "seat 2 holds three 鬼 6m, draws the fourth and makes a 暗杠 of them (TDH-A4: no wild kong)", TDH)
def _():
    b = hand("tdh-wild-in-meld", seat2="666m258m258p258sP")
    b.discard(0, "P").draw(1, "5m").discard(1, "5m")  # 5-7
    b.draw(2, "6m").kong(2, "concealed", "6m").draw(2, "4m", replacement=True).discard(2, "4m")  # 8-11
    return b.draw_discard(3, "2m").draw_discard(0, "3m").draw(1, "N").win(1, "self", "N").build(strict=False)


@sample("jihu_on_discard", "violations", ["JIHU_ON_DISCARD@14"],
        "seat 1 declares 胡 on the dealer's 4s with a hand that scores only 鸡胡 (\"鸡只能自摸、抢杠胡、不能点炮胡\")",
        TDH)
def _():
    b = opening(hand("tdh-jihu-on-discard", seat1=JIHU_1)).draw(0, "N").discard(0, "4s")  # 12-13
    return b.win(1, "discard", "4s").build(claim=False)  # 14


@sample("jihu_on_gangshang_pao", "violations", ["JIHU_ON_DISCARD@16"],
        "the dealer makes a 暗杠 and discards its replacement 4s; seat 1's 鸡胡 declares 胡 on it: 杠上炮 alone does not "
        "let a 鸡胡 win on a discard (TDH-A7)", TDH)
def _():
    b = opening(hand("tdh-jihu-gangshang-pao", seat1=JIHU_1, dealer="14447m147p147sSWC"), first="C")  # 0-11
    b.draw(0, "4m").kong(0, "concealed", "4m").draw(0, "4s", replacement=True).discard(0, "4s")  # 12-15
    return b.win(1, "discard", "4s").build(claim=False)  # 16


@sample("rob_concealed_kong", "violations", ["ROB_NOT_ROBBABLE@14"],
        "the dealer makes a 暗杠 of 4m and seat 1 declares 抢杠胡 on it (\"暗杠…不能被抢杠\")", TDH)
def _():
    b = opening(hand("tdh-rob-concealed", dealer="14447m147p147sSWC"), first="C")  # 0-11
    return b.draw(0, "4m").kong(0, "concealed", "4m").win(1, "rob", "4m").build(claim=False)  # 12-14


@sample("rob_exposed_kong", "violations", ["ROB_NOT_ROBBABLE@15"],
        "seat 3 makes a 直杠 of the dealer's 5s and seat 1, waiting on 5s, declares 抢杠胡 on it (\"直杠不能被抢杠\")",
        TDH)
def _():
    b = opening(hand("tdh-rob-exposed", seat1="111m999p46sEEENN", seat2="258m258p28sSWCFN",
                     seat3="39m369p555sSWCFP"))  # 0-11
    b.draw(0, "5s").discard(0, "5s").kong(3, "exposed", "5s")  # 12-14
    return b.win(1, "rob", "5s").build(claim=False)  # 15


@sample("wrong_ghost_successor", "violations", ["WILDS_MISMATCH@0"],
        "the dealer flips 北 and the platform makes 发财 the 鬼 (the literal \"跳过红中\"); the rule makes 红中 the "
        "鬼 (TDH-A2; TDH-7 is inconsistent)", TDH)
def _():
    b = opening(hand("tdh-wrong-ghost", seat1=JIHU_1, indicator="N", wilds="F"), drawn="N")  # 0-11
    return b.draw_discard(0, "E").draw(1, "4s").win(1, "self", "4s").build(strict=False)  # 12-15


@sample("horse_mismatch", "violations", ["HORSE_MISMATCH@3"],
        "seat 2's horses are logged as 7p 9p where the back of the wall holds 7p 8p", TDH)
def _():
    b = opening(hand("tdh-horse-mismatch")).draw(0, "E").discard(0, "E").win(1, "discard", "E")
    record = b.build()
    record.events[3].horses.tiles[1] = 29  # 9p
    return record


@sample("horse_mismapped", "violations", ["HORSE_MISMAPPED@record"],
        "一炮多响 on the dealer's E (seat 1 碰碰胡 16, seat 2 混一色 七对 48), and the platform counts the horses from "
        "each winner instead of from the discarder: it pays -304/96/80/128 where -128/16/240/-128 is due", TDH)
def _():
    b = opening(hand("tdh-horse-mismapped", seat2="11s22s33s55s77s99sE"))
    b.draw(0, "E").discard(0, "E").win(1, "discard", "E").win(2, "discard", "E")
    return with_claim(b.build(), payments=[-304, 96, 80, 128])


@sample("ron_after_missed_win", "violations", ["MISSED_WIN@18", "RON_AFTER_MISSED_WIN@21"],
        "with tdh_pass_rule = jph_same_tile: seat 1 lets seat 2's E go, then declares 胡 on seat 3's E before it "
        "has drawn again (TDH-A5)", TDH)
def _():
    b = opening(hand("tdh-ron-after-missed", options={"tdh_pass_rule": "jph_same_tile"}))  # 0-11
    b.draw_discard(0, "3m").draw_discard(1, "3p").draw(2, "E").discard(2, "E").pass_(1)  # 12-18
    return b.draw(3, "E").discard(3, "E").win(1, "discard", "E").build(claim=False)  # 19-21


@sample("indicator_missing", "violations", ["INDICATOR_MISSING@4"],
        "the dealer discards with no 鬼 flipped: the hand is judged without a 鬼 (seat 1's 碰碰胡 needs none)", TDH)
def _():
    b = HandBuilder("tdh-indicator-missing", ruleset=TDH).deal(DEALER, PENG_1, JUNK_2, JUNK_3)
    for seat, tiles in enumerate(HORSES):
        b.horses(seat, tiles)  # 0-3
    b = opening(b)  # 4-10
    return b.draw(0, "E").discard(0, "E").win(1, "discard", "E").build(strict=False)  # 11-13
