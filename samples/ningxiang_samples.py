"""The Ningxiang samples (SPEC NX), registered into make_samples and written to samples/ningxiang/.

The 正王 is 7m throughout, so the 纯王 wildcards are 6m and 8m (NX-14). Seat 0 deals.
Seat 1 is ready on 2s/5s (平胡 with a 2/5/8 pair); the others hold junk that waits on nothing.
"""
from make_samples import HandBuilder, sample, with_claim

NX = "ningxiang"
DEALER = "1249m13578p13579s"  # 14 tiles
READY_1 = "123p456p789s234s5s"  # waits 2s or 5s (and the wild 6m/8m)
KONG_1 = "123p456p2345s999p"  # waits 2s/5s; holds three 9p for a kong
JUNK_2 = "1349m2468p24789s"
JUNK_3 = "2355m34778p1166s"


def hand(game_id: str, seat1: str = READY_1, dealer: str = DEALER, seat2: str = JUNK_2, seat3: str = JUNK_3,
         **kw) -> HandBuilder:
    """Event 0: the deal is done and the dealer flips the 正王, 7m."""
    return HandBuilder(game_id, ruleset=NX, **kw).deal(dealer, seat1, seat2, seat3).flip_indicator("7m")


def opening(b: HandBuilder) -> HandBuilder:
    """Events 1-7: the dealer lets go of 9s, then three 摸打 turns that touch nobody's wait."""
    return b.discard(0, "9s").draw_discard(1, "1m").draw_discard(2, "3p").draw_discard(3, "9m")


def discard_win(game_id: str, **kw) -> HandBuilder:
    """Events 8-11: the dealer discards 5s, seat 1 wins on it; birds 1p (dealer) and 4s (上家)."""
    b = opening(hand(game_id, **kw)).draw(0, "4p").discard(0, "5s").win(1, "discard", "5s")
    return b.birds("1p4s")


# -- clean hands: each way a Ningxiang hand ends ---------------------------------------------------
@sample("clean_discard_win", "clean", ["MISSED_WIN@3"], "平胡 抓炮 on the dealer's 5s: 2, doubled by the bird on the dealer (NX-10)",
        NX)
def _():
    return discard_win("nx-discard-win").build()


@sample("clean_self_draw", "clean", ["MISSED_WIN@3"],
        "平胡 自摸 by the dealer's 下家 with birds 1 and 3: dealer 4, 对家 4, 上家 2 (NX-9)", NX)
def _():
    b = opening(hand("nx-self-draw")).draw_discard(0, "4p").draw(1, "2s").win(1, "self", "2s")
    return b.birds("1s3m").build()


@sample("clean_kong_flower_twice", "clean", ["MISSED_WIN@3"],
        "杠上开花 where both 打筛 tiles win: settled twice, 2×2 = 4 per payer each, winner +24 (Appendix A)", NX)
def _():
    b = hand("nx-kong-flower", seat1=KONG_1, options={"nx_birds": "0"})
    b.discard(0, "9s").draw(1, "9p").kong(1, "concealed", "9p").dashai(1, "2s5s")  # 1-4
    return b.win(1, "self", "2s").win(1, "self", "5s").build()  # 5-6


@sample("clean_borrowed_kong_flower", "clean", [],
        "借子开杠: seat 2 碰s the 正王 7m; at its turn it borrows the flipped 7m instead of drawing, and its 10 "
        "tiles win on the 打筛 tile 2s (杠上开花)", NX)
def _():
    b = hand("nx-borrowed-kong", seat1=JUNK_2, seat2="77m123p456p234s55s", seat3=JUNK_3, dealer="1247m13578p13579s")
    b.discard(0, "7m").pon(2, "7m").discard(2, "5s")  # 1-3: seat 2 waits on 2s/5s
    b.draw_discard(3, "9m").draw_discard(0, "1m").draw_discard(1, "3m")  # 4-9
    return b.kong(2, "borrowed", "7m").dashai(2, "2s1s").win(2, "self", "2s").birds("9m5p").build()  # 10-13


@sample("clean_fengdong_king_won_at_face", "clean", ["MISSED_WIN@2"],
        "seat 3 is 封东, draws the 纯王 8m and must let it go; the dealer wins on it at its face, 88m as the 2/5/8 "
        "pair (NX-A12)", NX)
def _():
    b = HandBuilder("nx-fengdong-face", ruleset=NX).deal("123p456p789s555s8m9s", JUNK_2, JUNK_3, KONG_1)
    b.flip_indicator("7m").feng_dong(3).discard(0, "9s").draw_discard(1, "1p").draw_discard(2, "9p")  # 0-6
    return b.draw(3, "8m").discard(3, "8m").win(0, "discard", "8m").birds("9m5p").build()  # 7-10


@sample("clean_all_feng_dong", "clean", [], "all four seats choose 封东 at the start: the hand ends, nobody pays", NX)
def _():
    return hand("nx-all-feng-dong").feng_dong(0).feng_dong(1).feng_dong(2).feng_dong(3).build()


@sample("clean_baoting_win", "clean", ["MISSED_WIN@4"],
        "seat 1 declares 报听 after the flip and wins on 5s: 平胡 2 × 报听 2, doubled by the bird on the dealer", NX)
def _():
    b = hand("nx-baoting-win").baoting(1)  # 1
    b.discard(0, "9s").draw_discard(1, "1m").draw_discard(2, "3p").draw_discard(3, "9m")  # 2-8
    return b.draw(0, "4p").discard(0, "5s").win(1, "discard", "5s").birds("1p4s").build()


@sample("clean_opening_hand", "clean", [],
        "起手 缺一色: seat 1 holds no 万 and wins at the deal, a 大胡 自摸 (7 each), birds 1p and 4s", NX)
def _():
    return hand("nx-opening-hand").win(1, "self", "5s").birds("1p4s").build()


# 海底炮 通炮: every 纯王 sits with the dealer and seat 3, who choose 封东 and only draw and
# discard; seats 1 and 2 wait on 5s alone, and the one 5s left in the wall is the 海底.
HAIDI_DEALER = "6666m1249m135p57s9p"  # 9p, the 14th tile, is its first (drawn-tile) discard
HAIDI_1 = "123p456p789p111s5s"  # waits 5s only
HAIDI_2 = "123m345p777p46s22p"  # waits 5s only
HAIDI_3 = "8888m349m2468p57s"


def haidi(game_id: str, last: str = "5s", seat3: str = HAIDI_3) -> HandBuilder:
    b = hand(game_id, seat1=HAIDI_1, dealer=HAIDI_DEALER, seat2=HAIDI_2, seat3=seat3).pin_last(last)
    return b.feng_dong(0).feng_dong(3).discard(0, "9p").play_out(1, end=False, leave=1)  # 1-3, then 摸打


@sample("clean_haidi_pao_tongpao", "clean", ["MISSED_WIN@5"],
        "海底漫游 and 海底炮 通炮: the 海底 5s roams to the first 封东 seat, which takes and discards it; seats 1 "
        "and 2 both win: 平胡 2 × 海底炮 2 = 4 each from the discarder, who deals next", NX)
def _():
    b = haidi("nx-haidi-tongpao")
    seat = b.next_seat
    while seat not in (0, 3):  # the ready seats decline; a 封东 seat takes it
        b.haidi(seat, False)
        seat = (seat + 1) % 4
    b.haidi(seat, True).draw(seat, "5s").discard(seat, "5s")
    return b.win(1, "discard", "5s").win(2, "discard", "5s").build()


@sample("clean_haidi_declined", "clean", ["MISSED_WIN@5"],
        "流局: the 海底 is declined by all four seats; nobody took it, so the deal moves to the dealer's 下家", NX)
def _():
    b = haidi("nx-haidi-declined")
    due = b.next_seat
    for k in range(4):
        b.haidi((due + k) % 4, False)
    return b.build()


# -- one record per Ningxiang violation code ---------------------------------------------------
@sample("wild_discarded", "violations", ["WILD_DISCARDED@9", "MISSED_WIN@3"],
        "the dealer draws the 纯王 6m and discards it (to seat 1, waiting on 2s, it is 6m at its face: no win)", NX)
def _():
    b = opening(hand("nx-wild-discarded")).draw(0, "6m").discard(0, "6m")  # 8-9
    return b.draw(1, "2s").win(1, "self", "2s").birds("1s3m").build(strict=False)


@sample("kong_not_ready", "violations", ["KONG_NOT_READY@2"],
        "seat 2 makes a 明杠 of 9m with a hand that is not ready before or after it", NX)
def _():
    b = hand("nx-kong-not-ready", seat2="1999m2468p24789s")
    b.discard(0, "9m").kong(2, "exposed", "9m").dashai(2, "3m4s")  # 1-3
    b.draw_discard(3, "1p").draw(0, "4p").discard(0, "5s").win(1, "discard", "5s")  # 4-8
    return b.birds("1p4s").build(strict=False)


@sample("call_after_dashai", "violations", ["CALL_AFTER_DASHAI@11", "MISSED_WIN@3"],
        "after its 打筛 seat 1 takes the dealer's 3p by 吃; it may only draw and discard", NX)
def _():
    b = hand("nx-call-after-dashai", seat1=KONG_1)
    b.discard(0, "9s").draw(1, "9p").kong(1, "concealed", "9p").dashai(1, "3m4s")  # 1-4
    b.draw_discard(2, "7m").draw_discard(3, "9m").draw(0, "4p").discard(0, "3p")  # 5-10
    b.chi(1, "12p").discard(1, "3p")  # 11-12
    b.draw_discard(2, "2m").draw_discard(3, "5p").draw(0, "1m").discard(0, "5s").win(1, "discard", "5s")  # 13-19
    return b.birds("1p4s").build(strict=False)


@sample("chi_not_from_left", "violations", ["CHI_NOT_FROM_LEFT@2"],
        "seat 2 takes the dealer's 3p by 吃; only the dealer's 下家 (seat 1) may", NX)
def _():
    b = hand("nx-chi-not-left").discard(0, "3p").chi(2, "24p").discard(2, "9m")  # 1-3
    b.draw_discard(3, "9s").draw(0, "4p").discard(0, "5s").win(1, "discard", "5s")  # 4-8
    return b.birds("1p4s").build(strict=False)


@sample("baoting_by_dealer", "violations", ["BAOTING_BY_DEALER@1"], "the dealer declares 报听", NX)
def _():
    b = hand("nx-baoting-dealer").baoting(0).discard(0, "9s").draw(1, "2s").win(1, "self", "2s")
    return b.birds("1s3m").build(strict=False)


@sample("baoting_out_of_window", "violations", ["BAOTING_OUT_OF_WINDOW@2", "MISSED_WIN@4"],
        "seat 1 declares 报听 after the dealer's first discard", NX)
def _():
    b = hand("nx-baoting-late").discard(0, "9s").baoting(1)  # 1-2
    b.draw_discard(1, "1m").draw_discard(2, "3p").draw_discard(3, "9m")  # 3-8
    return b.draw(0, "4p").discard(0, "5s").win(1, "discard", "5s").birds("1p4s").build(strict=False)


@sample("baoting_not_tenpai", "violations", ["BAOTING_NOT_TENPAI@1", "MISSED_WIN@4"], "seat 3 declares 报听 with a hand that waits on "
        "nothing", NX)
def _():
    b = opening(hand("nx-baoting-not-ready").baoting(3))  # 1-8
    return b.draw(0, "4p").discard(0, "5s").win(1, "discard", "5s").birds("1p4s").build(strict=False)


@sample("baoting_hand_change", "violations", ["BAOTING_HAND_CHANGE@4", "MISSED_WIN@4"],
        "seat 1 declared 报听, draws 5m and discards 2s instead of the drawn tile", NX)
def _():
    b = hand("nx-baoting-change").baoting(1).discard(0, "9s").draw(1, "5m").discard(1, "2s")  # 1-4
    b.draw_discard(2, "3p").draw(3, "5m").discard(3, "5m").win(1, "discard", "5m")  # 5-9
    return b.birds("1p4s").build(strict=False)


@sample("ron_after_missed_win", "violations", ["MISSED_WIN@5", "RON_AFTER_MISSED_WIN@8", "MISSED_WIN@3"],
        "NX-13: seat 1 waits on 2s/5s, passes its 下家's 5s, then wins on its 对家's 2s before drawing", NX)
def _():
    b = hand("nx-louhu").discard(0, "9s").draw_discard(1, "1m").draw_discard(2, "5s")  # 1-5
    return b.draw_discard(3, "2s").win(1, "discard", "2s").build(claim=False)  # 6-8


@sample("ron_on_king", "violations", ["RON_ON_KING@2"],
        "seat 1 wins on the dealer's discarded 7m, the 正王: only a self-drawn 正王 wins", NX)
def _():
    b = hand("nx-ron-on-king", seat1="123p456p789s55s77m", dealer="1247m13578p13579s")
    return b.discard(0, "7m").win(1, "discard", "7m").build(claim=False)


@sample("fengdong_breach", "violations", ["FENGDONG_BREACH@3"], "seat 3 chose 封东, then takes the dealer's 7p by 碰",
        NX)
def _():
    b = hand("nx-fengdong-pon").feng_dong(3).discard(0, "7p").pon(3, "7p").discard(3, "2m")  # 1-4
    return b.draw(0, "4p").discard(0, "5s").win(1, "discard", "5s").birds("1p4s").build(strict=False)


@sample("multiple_ron", "violations", ["MULTIPLE_RON@11", "MISSED_WIN@3"],
        "seats 1 and 2 both win on the dealer's 5s; no 一炮多响 outside 海底炮, so only seat 1 (nearest) wins", NX)
def _():
    b = opening(hand("nx-multiple-ron", seat2="123m456p789p46s22p"))
    b.draw(0, "4p").discard(0, "5s").win(1, "discard", "5s").win(2, "discard", "5s")  # 8-11
    return b.birds("1p4s").build(strict=False)


@sample("dashai_ron_not_nearest", "violations", ["DASHAI_RON_NOT_NEAREST@6", "MISSED_WIN@3"],
        "seat 1's 打筛 reveals 3m; seats 2 and 3 both win on it, but only seat 2, nearer the konger, may (NX-15)", NX)
def _():
    b = hand("nx-gangshang-pao", seat1=KONG_1, seat2="12m456p22p345s678s", seat3="45m234p88p678s111s")
    b.discard(0, "9s").draw(1, "9p").kong(1, "concealed", "9p").dashai(1, "3m1p")  # 1-4
    return b.win(2, "discard", "3m").win(3, "discard", "3m").birds("9m5p").build(strict=False)  # 5-7


@sample("bird_mismapped", "violations", ["BIRD_MISMAPPED@record", "MISSED_WIN@3"],
        "birds 1s and 3m counted from the winner (seat 1) instead of the dealer: the platform charged "
        "4/4/6 where 4/4/2 is due", NX)
def _():
    b = opening(hand("nx-bird-mismapped")).draw_discard(0, "4p").draw(1, "2s").win(1, "self", "2s")
    return with_claim(b.birds("1s3m").build(), payments=[-4, 14, -4, -6])


@sample("bird_mismatch", "violations", ["BIRD_MISMATCH@12", "MISSED_WIN@3"],
        "the birds are logged as 9m 5p where the wall holds 1s 3m after the hand", NX)
def _():
    b = opening(hand("nx-bird-mismatch")).draw_discard(0, "4p").draw(1, "2s").win(1, "self", "2s")
    record = b.birds("1s3m").build()
    record.events[12].birds.tiles[:] = [19, 25]  # 9m, 5p
    return record


@sample("haidi_not_discarded", "violations", ["HAIDI_NOT_DISCARDED@LAST", "MISSED_WIN@5"],
        "seat 1 takes the 海底 (7m) and keeps it, discarding 1s", NX)
def _():
    b = haidi("nx-haidi-kept", last="7m", seat3="8888m349m2468p55s")
    seat = b.next_seat
    while seat != 1:
        b.haidi(seat, False)
        seat = (seat + 1) % 4
    return b.haidi(1, True).draw(1, "7m").discard(1, "1s").build(strict=False)


@sample("indicator_missing", "violations", ["INDICATOR_MISSING@0"],
        "the dealer discards with no 正王 flipped: the hand is judged without 纯王 (seat 1's 平胡 on 5s needs none)", NX)
def _():
    b = opening(HandBuilder("nx-indicator-missing", ruleset=NX).deal(DEALER, READY_1, JUNK_2, JUNK_3))  # 0-6
    return b.draw(0, "4p").discard(0, "5s").win(1, "discard", "5s").birds("1p4s").build(strict=False)  # 7-10


@sample("wilds_mismatch", "violations", ["MISSED_WIN@3", "WILDS_MISMATCH@0"],
        "the 正王 flip shows 7m and the platform logs 7m as the wild kind; the wildcards are its 纯王 6m and 8m (the "
        "正王's own copies are natural, NX-A1)", NX)
def _():
    record = discard_win("nx-wilds-mismatch").build()
    record.events[0].indicator.wilds.append(record.events[0].indicator.tile)
    return record
