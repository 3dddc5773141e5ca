"""The Dalian samples (SPEC DL), registered into make_samples and written to samples/dalian/.

Seat 0 deals. Seat 1 opens by 碰 of the dealer's 1p and declares 听 discarding 东 (events 0-2):
234m 678s 45p 99m waits 3p or 6p (or, with 46p, 5p alone: 夹听). At seat 1's next draw, as the
first 听 seat, it chooses the 宝 by dice: 9s, six stacks from the back of the wall (event 9).
The other seats stay 门清 unless a sample says otherwise (未开门 and 三家门清 then add 番).
"""
from make_samples import HandBuilder, sample, with_claim

DL = "dalian"
A_HAND = "369m1258p147sSSWN"
B_PLAIN = "234m678s45p99m11pE"
B_JIA = "234m678s46p99m11pE"
C_HAND = "147m369p258sEENF"
D_HAND = "258m457p369sNNSC"


def hand(game_id: str, b: str = B_PLAIN, a: str = A_HAND, c: str = C_HAND, d: str = D_HAND, **kw) -> HandBuilder:
    return HandBuilder(game_id, ruleset=DL, **kw).deal(a, b, c, d)


def ready(b: HandBuilder, jiating: bool = False) -> HandBuilder:
    """Events 0-2: the dealer lets 1p go, seat 1 碰s it and declares 听 (or 夹听) with 东."""
    return b.discard(0, "1p").pon(1, "1p").discard(1, "E", ready=not jiating, jiating=jiating)


def around(b: HandBuilder) -> HandBuilder:
    """Events 3-8: seats 2, 3 and 0 draw and let go a tile nobody waits on."""
    return b.draw_discard(2, "1s").draw_discard(3, "2p").draw_discard(0, "7m")


def flip(b: HandBuilder, tile: str = "9s", seat: int = 1, stacks: int = 6, change: bool = False) -> HandBuilder:
    return b.bao(tile, seat=seat, stacks=stacks, change=change)


# -- clean hands: each way a Dalian hand ends ------------------------------------------------------
@sample("clean_discard_win", "clean", [],
        "点炮: seat 2 lets 3p go; 平胡 + 放炮 + 未开门 + 三家门清 = 4 番: seat 2 alone pays 2^3 = 8", DL)
def _():
    return ready(hand("dl-discard-win")).draw(2, "3p").discard(2, "3p").win(1, "discard", "3p").build()


@sample("clean_self_draw", "clean", [],
        "自摸 3p, all three losers 门清: dealer 5 番 → 16, the others 4 番 → 8 (Appendix A)", DL)
def _():
    return flip(around(ready(hand("dl-self-draw")))).draw(1, "3p").win(1, "self", "3p").build()


@sample("clean_jiating_win", "clean", [],
        "夹听 on 46p (5p alone), then 5p from seat 2: 平胡 + 放炮 + 夹胡 + 未开门 + 三家门清 = 5 番, 16", DL)
def _():
    return ready(hand("dl-jiating", b=B_JIA), jiating=True).draw(2, "5p").discard(2, "5p").win(1, "discard", "5p").build()


@sample("clean_mobao", "clean", [],
        "摸宝: seat 1 draws the 宝 9s, a wildcard for its 听 hand: 摸宝 +2 and 自摸 +1; dealer 64, the others 32", DL)
def _():
    return flip(around(ready(hand("dl-mobao")))).draw(1, "9s").win(1, "self", "9s").build()


@sample("clean_chongbao", "clean", [],
        "冲宝: the 宝 chosen at seat 1's draw is 3p, one of its waits; it wins at once, before drawing (+2, a "
        "self-draw): dealer 64, the others 32", DL)
def _():
    return flip(around(ready(hand("dl-chongbao"))), tile="3p").win(1, "self", "3p").build()


@sample("clean_huanbao", "clean", [],
        "换宝: three 9s (the 宝) lie in the discards; before seat 1's next draw the dice choose 3p, which seat 1 "
        "waits on: 冲宝 on the new 宝", DL)
def _():
    b = flip(around(ready(hand("dl-huanbao")))).draw_discard(1, "5m")  # 9-11
    b.draw(2, "9s").discard(2, "9s").draw(3, "7s").discard(3, "9s").draw(0, "9s").discard(0, "9s")  # 12-17
    return flip(b, tile="3p", stacks=7, change=True).win(1, "self", "3p").build()  # 18-19


@sample("clean_robbed_kong", "clean", [],
        "抢杠: seat 3 碰s 6p early and adds the 4th later; seat 1, 听 on 3p/6p by then, robs it. The robbed seat pays "
        "as the discarder: 平胡 + 放炮 + 抢杠胡 2 = 4 番, 8", DL)
def _():
    b = hand("dl-robbed-kong", d="258m457p3sNNSC66p")
    b.discard(0, "1p").pon(1, "1p").discard(1, "E").draw(2, "1s").discard(2, "6p").pon(3, "6p").discard(3, "N")  # 0-6
    b.draw_discard(0, "7m").draw(1, "5m").discard(1, "5m", ready=True)  # 7-10
    b.draw_discard(2, "8m").draw(3, "6p").kong(3, "added", "6p").win(1, "rob", "6p")  # 11-15
    return b.build()


@sample("clean_kong_replacement_win", "clean", [],
        "杠上开花: seat 1 adds its drawn 4th 1p to the 碰 (same waits) and wins on the replacement from the tail: "
        "+2 and 自摸; its 补杠 earns 1 from each", DL)
def _():
    b = flip(around(ready(hand("dl-kong-flower")))).draw(1, "1p").kong(1, "added", "1p")
    return b.draw(1, "3p", replacement=True).win(1, "self", "3p").build()


@sample("clean_exhaustive_draw", "clean", [],
        "荒庄: nobody declares 听; 7 stacks stay (69 live draws); nothing is paid and the dealer repeats", DL)
def _():
    return hand("dl-exhaustive").discard(0, "W").play_out(1).build()


# -- one record per Dalian violation (SPEC Appendix B) ------------------------------------------------
@sample("pon_dragon", "violations", ["PON_DRAGON@7", "HAND_INCOMPLETE@record"],
        "seat 2 碰s seat 3's 发财: 红中、发财、白板 are never pong'd", DL)
def _():
    b = ready(hand("dl-pon-dragon", c="147m369p258sEEFF")).draw_discard(2, "1s")
    return b.draw(3, "F").discard(3, "F").pon(2, "F").discard(2, "E").build(claim=False)


@sample("dragon_triplet_as_pung", "violations", ["WIN_CONDITIONS@7"],
        "seat 1 is 听 on 9m/红中 (对倒); it wins on seat 3's 红中, making three 中 in hand, which are no 刻子 "
        "(\"自己手里拿三个也不能当成刻子使用\")", DL)
def _():
    b = ready(hand("dl-dragon-pung", b="CC99m234m678s11pE")).draw_discard(2, "1s")
    return b.draw(3, "2p").discard(3, "C").win(1, "discard", "C").build(claim=False)


@sample("concealed_kong_unopened", "violations", ["CONCEALED_KONG_UNOPENED@4", "HAND_INCOMPLETE@record"],
        "seat 2 has not opened and makes a 暗杠 of 1m (\"未开门的玩家不能暗杠\")", DL)
def _():
    b = ready(hand("dl-ankong-closed", c="1111m369p258sENF")).draw(2, "5m").kong(2, "concealed", "1m")
    return b.draw(2, "W", replacement=True).discard(2, "W").build(claim=False)


@sample("ready_not_open", "violations", ["READY_NOT_OPEN@2", "WIN_CONDITIONS@11"],
        "seat 1 declares 听 while 门清 and later wins, still 门清: the 听 is reported, and so is the win, which fails "
        "DL.5's condition 5 (not 门清)", DL)
def _():
    b = hand("dl-ready-closed").discard(0, "W").draw(1, "1p").discard(1, "E", ready=True)
    return flip(around(b)).draw(1, "3p").win(1, "self", "3p").build(claim=False)


@sample("win_without_ready", "violations", ["WIN_WITHOUT_READY@5"],
        "seat 1 opens and waits on 3p/6p but never declares 听, then wins on seat 2's 3p (S1)", DL)
def _():
    b = hand("dl-win-not-ready").discard(0, "1p").pon(1, "1p").discard(1, "E")
    return b.draw(2, "3p").discard(2, "3p").win(1, "discard", "3p").build(claim=False)


@sample("win_without_three_suits", "violations", ["READY_CONDITIONS@2", "WIN_CONDITIONS@5"],
        "seat 1 (碰 1p) declares 听 on 234m 678m 45m 99m: no 条 (三色全); its win on 3m fails too", DL)
def _():
    b = ready(hand("dl-no-three-suits", b="234m678m99m45m11pE"))
    return b.draw(2, "3m").discard(2, "3m").win(1, "discard", "3m").build(claim=False)


@sample("win_without_yaojiu", "violations", ["WIN_CONDITIONS@5"],
        "seat 1 (碰 5p) is 听 on 23m: 1m would bring a 1, 4m brings none; it wins on seat 2's 4m with no 1, no 9 and "
        "no honor", DL)
def _():
    b = hand("dl-no-yaojiu", b="23m345s678m88s55pE").discard(0, "5p").pon(1, "5p").discard(1, "E", ready=True)
    return b.draw(2, "1s").discard(2, "4m").win(1, "discard", "4m").build(claim=False)


@sample("win_without_pung", "violations", ["WIN_CONDITIONS@13"],
        "seat 1 (吃 789p, 吃 123s) is 听 on 3334455m: 4m and 5m make a 刻, but it wins on 6m: 345m 456m 33m, no 刻 and "
        "no dragon pair", DL)
def _():
    b = hand("dl-no-pung", b="3334455m89p23sEW", a="369m1257p147sSSWN")
    b.discard(0, "7p").chi(1, "89p").discard(1, "W").draw_discard(2, "5s").draw_discard(3, "2p")  # 0-6
    b.draw(0, "7m").discard(0, "1s").chi(1, "23s").discard(1, "E", ready=True)  # 7-10
    return b.draw(2, "6m").discard(2, "6m").win(1, "discard", "6m").build(claim=False)


@sample("win_all_pungs", "violations", ["WIN_CONDITIONS@13"],
        "碰碰胡: seat 1 (碰 1p, 碰 1s) is 听 on 3334455m: 6m makes a sequence, but it wins on seat 2's 4m: "
        "333m 444m 55m, no sequence", DL)
def _():
    b = hand("dl-all-pungs", b="3334455m11p11sEW")
    b.discard(0, "1p").pon(1, "1p").discard(1, "W").draw_discard(2, "5s").draw_discard(3, "2p")  # 0-6
    b.draw(0, "7m").discard(0, "1s").pon(1, "1s").discard(1, "E", ready=True)  # 7-10
    return b.draw(2, "6s").discard(2, "4m").win(1, "discard", "4m").build(claim=False)


@sample("seven_pairs", "violations", ["FALSE_WIN@2"], "seat 1 self-draws 七对: only four sets and a pair win", DL)
def _():
    b = hand("dl-seven-pairs", b="22m66m77p33s44m55pE").discard(0, "W").draw(1, "E").win(1, "self", "E")
    return b.build(claim=False)


@sample("thirteen_orphans", "violations", ["FALSE_WIN@2"], "seat 1 self-draws 十三幺: no special hands here", DL)
def _():
    b = hand("dl-orphans", b="19m19p19sESWNCFP", a="2345678m2345678p", c="2345678s2345m67p", d="2345678s5678m23p")
    return b.discard(0, "2m").draw(1, "1m").win(1, "self", "1m").build(claim=False)


@sample("call_at_four", "violations", ["CALL_AT_FOUR@15"],
        "手把一: seat 1 has called three sets (four tiles in hand) and 碰s a fourth; the hand ends 荒庄", DL)
def _():
    b = hand("dl-call-at-four", b="11p22s55m77s345p78m")
    b.discard(0, "1p").pon(1, "1p").discard(1, "7m").draw(2, "2s").discard(2, "2s").pon(1, "2s").discard(1, "8m")
    b.draw_discard(2, "1s").draw(3, "3m").discard(3, "5m").pon(1, "5m").discard(1, "3p")  # 7-13
    b.draw(2, "7s").discard(2, "7s").pon(1, "7s").discard(1, "4p")  # 14-17
    return b.play_out(2).build(strict=False)


@sample("multiple_ron", "violations", ["MULTIPLE_RON@8"],
        "seats 1 (3p/6p) and 2 (3p, the edge of 12p) are both 听 and both declare 胡 on seat 3's 3p; only seat 1, "
        "nearer the discarder counter-clockwise, wins (no 一炮多响)", DL)
def _():
    b = ready(hand("dl-multiple-ron", c="123m456s12p99sEEN")).pon(2, "E").discard(2, "N", ready=True)  # 0-4
    return b.draw(3, "3p").discard(3, "3p").win(1, "discard", "3p").win(2, "discard", "3p").build(strict=False)


@sample("chi_not_from_left", "violations", ["CHI_NOT_FROM_LEFT@5", "HAND_INCOMPLETE@record"],
        "seat 1 takes seat 2's 6s by 吃: only the 上家's discard may be taken so (DL-A2)", DL)
def _():
    b = hand("dl-chi-not-left", b="234m78s45p99m11pEW").discard(0, "W").draw(1, "P").discard(1, "P")
    return b.draw(2, "6s").discard(2, "6s").chi(1, "78s").build(claim=False)


@sample("ready_lock_breach", "violations", ["READY_LOCK_BREACH@11"],
        "seat 1 is 听, draws 5s and keeps it, letting 9m go; the hand ends 荒庄", DL)
def _():
    return flip(around(ready(hand("dl-lock-breach")))).draw(1, "5s").discard(1, "9m").play_out(2).build(strict=False)


@sample("ready_exposed_kong", "violations", ["READY_CALL@5"],
        "seat 1 is 听 and makes a 明杠 of seat 2's 9m (\"报上听后不能再明杠其他人打出的牌\"); it later wins on 3p", DL)
def _():
    b = ready(hand("dl-ready-minggang", b="234m999m45p66s11pE", a="367m1258p147sSSWN")).draw(2, "9m")
    b.discard(2, "9m").kong(1, "exposed", "9m").draw(1, "W", replacement=True).discard(1, "W")  # 4-7
    b.draw_discard(2, "1s").draw_discard(3, "2p").draw_discard(0, "7m")  # 8-13
    return flip(b).draw(1, "3p").win(1, "self", "3p").build(strict=False)


@sample("ready_waits_changed", "violations", ["READY_WAITS_CHANGED@11"],
        "换听: seat 1 is 听 on 6m (123p 33p 57m 789s); its 暗杠 of the drawn 3p leaves 12p 57m 789s, which waits on "
        "nothing; the hand ends 荒庄", DL)
def _():
    b = flip(around(ready(hand("dl-ready-kong", b="12333p57m789s11pE", c="147m69p258sEENF4s"))))
    b.draw(1, "3p").kong(1, "concealed", "3p").draw(1, "P", replacement=True).discard(1, "P")
    return b.play_out(2).build(strict=False)


@sample("ready_twice", "violations", ["READY_TWICE@11"], "seat 1 declares 听 a second time, then wins on 3p", DL)
def _():
    b = flip(around(ready(hand("dl-ready-twice")))).draw(1, "5s").discard(1, "5s", ready=True)
    return b.draw(2, "3p").discard(2, "3p").win(1, "discard", "3p").build(strict=False)


@sample("jiating_illegal", "violations", ["JIATING_ILLEGAL@2"],
        "seat 1 declares 夹听 on 45p, which waits on 3p and 6p: 夹听 needs one winning tile (DL-A3)", DL)
def _():
    return flip(around(ready(hand("dl-jiating-multi"), jiating=True))).draw(1, "3p").win(1, "self", "3p").build(
        strict=False)


@sample("win_after_passed_win", "violations", ["MISSED_WIN@5", "WIN_AFTER_PASSED_WIN@8"],
        "漏胡: seat 1 lets seat 2's 3p go, then wins on seat 3's 6p: passing a win on a discard forfeits them all", DL)
def _():
    b = ready(hand("dl-louhu")).draw(2, "3p").discard(2, "3p").pass_(1)
    return b.draw(3, "6p").discard(3, "6p").win(1, "discard", "6p").build(claim=False)


@sample("self_draw_after_passed_chongbao", "violations", ["MISSED_WIN@10", "WIN_AFTER_PASSED_WIN@20"],
        "seat 1 passes its 冲宝 on the 3p 宝 and, a turn later, self-draws 6p: declining 冲宝 is passing a "
        "self-draw (DL.4; the tile drawn right after it could still have won, DL.3.4 item 7)", DL)
def _():
    b = flip(around(ready(hand("dl-chongbao-passed"))), tile="3p").pass_(1).draw_discard(1, "5m")  # 9-12
    b.draw_discard(2, "1s").draw_discard(3, "2p").draw_discard(0, "7m")  # 13-18
    return b.draw(1, "6p").win(1, "self", "6p").build(claim=False)


@sample("bao_not_changed", "violations", ["BAO_MISSING@18"],
        "three 9s (the 宝) lie in the discards, yet seat 1 draws with no 换宝", DL)
def _():
    b = flip(around(ready(hand("dl-no-huanbao")))).draw_discard(1, "5m")
    b.draw(2, "9s").discard(2, "9s").draw(3, "7s").discard(3, "9s").draw(0, "9s").discard(0, "9s")
    return b.draw(1, "6p").win(1, "self", "6p").build(strict=False)


@sample("bao_undue", "violations", ["BAO_UNDUE@12"],
        "换宝 before seat 2's draw with no 9s in the discards; the table follows the log", DL)
def _():
    b = flip(around(ready(hand("dl-bao-undue")))).draw_discard(1, "5m")  # 9-11
    b.bao("8p", seat=2, stacks=7, change=True)  # 12
    return b.draw_discard(2, "1m").draw_discard(3, "2p").draw_discard(0, "7m").draw(1, "3p").win(1, "self", "3p").build(
        strict=False)


@sample("settlement_mismatch", "violations", ["SETTLEMENT_MISMATCH@record"],
        "the platform left out 三家门清 for a self-draw among three 门清 losers: 8/4/4 where 16/8/8 is due", DL)
def _():
    record = flip(around(ready(hand("dl-menqing-wrong")))).draw(1, "3p").win(1, "self", "3p").build()
    return with_claim(record, payments=[-8, 16, -4, -4])


@sample("wilds_mismatch", "violations", ["WILDS_MISMATCH@9"],
        "the 宝 flip shows 9s and the platform logs 1s as the kind it made wild; the 宝's own kind is wild", DL)
def _():
    record = flip(around(ready(hand("dl-wilds-mismatch")))).draw(1, "3p").win(1, "self", "3p").build()
    flipped = next(e for e in record.events if e.WhichOneof("kind") == "indicator").indicator
    flipped.wilds.append(flipped.tile - 8)  # 1s
    return record
