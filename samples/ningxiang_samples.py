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
@sample("clean_discard_win", "clean", [], "平胡 抓炮 on the dealer's 5s: 2, doubled by the bird on the dealer (NX-10)",
        NX)
def _():
    return discard_win("nx-discard-win").build()


@sample("clean_self_draw", "clean", [],
        "平胡 自摸 by the dealer's 下家 with birds 1 and 3: dealer 4, 对家 4, 上家 2 (NX-9)", NX)
def _():
    b = opening(hand("nx-self-draw")).draw_discard(0, "4p").draw(1, "2s").win(1, "self", "2s")
    return b.birds("1s3m").build()


@sample("clean_kong_flower_twice", "clean", [],
        "杠上开花 where both 打筛 tiles win: settled twice, 2×2 = 4 per payer each, winner +24 (Appendix A)", NX)
def _():
    b = hand("nx-kong-flower", seat1=KONG_1, options={"nx_birds": "0"})
    b.discard(0, "9s").draw(1, "9p").kong(1, "concealed", "9p").dashai(1, "2s5s")  # 1-4
    return b.win(1, "self", "2s").win(1, "self", "5s").build()  # 5-6


@sample("clean_all_feng_dong", "clean", [], "all four seats choose 封东 at the start: the hand ends, nobody pays", NX)
def _():
    return hand("nx-all-feng-dong").feng_dong(0).feng_dong(1).feng_dong(2).feng_dong(3).build()


@sample("clean_baoting_win", "clean", [],
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


def haidi(game_id: str) -> HandBuilder:
    b = hand(game_id, seat1=HAIDI_1, dealer=HAIDI_DEALER, seat2=HAIDI_2, seat3=HAIDI_3).pin_last("5s")
    return b.feng_dong(0).feng_dong(3).discard(0, "9p").play_out(1, end=False, leave=1)  # 1-3, then 摸打


@sample("clean_haidi_pao_tongpao", "clean", [],
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


@sample("clean_haidi_declined", "clean", [],
        "流局: the 海底 is declined by all four seats; nobody took it, so the deal moves to the dealer's 下家", NX)
def _():
    b = haidi("nx-haidi-declined")
    due = b.next_seat
    for k in range(4):
        b.haidi((due + k) % 4, False)
    return b.build()


# -- one record per Ningxiang violation code ---------------------------------------------------
@sample("wild_discarded", "violations", ["WILD_DISCARDED@9", "MISSED_WIN@9"],
        "the dealer draws the 纯王 6m and discards it (seat 1 could take it as a wild, noted)", NX)
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
