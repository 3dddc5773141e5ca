"""The Harbin samples (SPEC HRB), registered into make_samples and written to samples/harbin/.

Seat 0 deals. Event 0 flips the 宝, 3s, the last wall tile. Seat 1 opens by 碰 of the dealer's
1p and declares 听 discarding 红中 (events 1-3): 22s 78m 789m 345p waits 6m or 9m (or, with
68m, 7m alone: 卡当). Seats 2 and 3 and the dealer stay 门清 unless a sample says otherwise, so
each loser's factor is 3 (HRB.6.2).
"""
from make_samples import HandBuilder, sample, with_claim

HRB = "harbin"
A_HAND = "234m14679p13566sC"
B_OPEN = "78789m345p11p22sC"
B_KADANG = "68789m345p11p22sC"
C_HAND = "119m2288p469s5m6p7s"
D_HAND = "1345m26899p899s6s"


def hand(game_id: str, b: str = B_OPEN, a: str = A_HAND, c: str = C_HAND, d: str = D_HAND, bao: str = "3s",
         **kw) -> HandBuilder:
    return HandBuilder(game_id, ruleset=HRB, **kw).deal(a, b, c, d).bao(bao)


def ready(b: HandBuilder) -> HandBuilder:
    """Events 1-3: the dealer lets 1p go, seat 1 碰s it and declares 听 with 红中."""
    return b.discard(0, "1p").pon(1, "1p").discard(1, "C", ready=True)


def around(b: HandBuilder) -> HandBuilder:
    """Events 4-9: seats 2, 3 and 0 draw and let go a tile nobody waits on."""
    return b.draw_discard(2, "5m").draw_discard(3, "4s").draw_discard(0, "8p")


# -- clean hands: each way a Harbin hand ends ------------------------------------------------------
@sample("clean_discard_win", "clean", [],
        "平和 on seat 2's 6m; seat 2 had not declared 听 (出冲) and pays all three shares: 1 × (3+3+3) = 9", HRB)
def _():
    return ready(hand("hrb-discard-win")).draw(2, "6m").discard(2, "6m").win(1, "discard", "6m").build()


@sample("clean_self_draw", "clean", [], "自摸 6m: M = 2, every loser 门清 (×3): 6 each", HRB)
def _():
    return around(ready(hand("hrb-self-draw"))).draw(1, "6m").win(1, "self", "6m").build()


@sample("clean_kadang", "clean", [],
        "平和卡当 on seat 2's 7m, the only winning tile, in the middle of 678m: M = 2, seat 2 (出冲) pays 2 × 9 = 18",
        HRB)
def _():
    return ready(hand("hrb-kadang", b=B_KADANG)).draw(2, "7m").discard(2, "7m").win(1, "discard", "7m").build()


@sample("clean_mobao", "clean", [], "摸宝: seat 1 draws the 宝 3s, a wildcard for its 听 hand: M = 3, 9 each", HRB)
def _():
    return around(ready(hand("hrb-mobao"))).draw(1, "3s").win(1, "self", "3s").build()


@sample("clean_baozhongbao", "clean", [],
        "宝中宝: the 宝 is 7m, seat 1's only (卡当) winning tile, and it draws one: M = 12, 36 each", HRB)
def _():
    return around(ready(hand("hrb-baozhongbao", b=B_KADANG, bao="7m"))).draw(1, "7m").win(1, "self", "7m").build()


@sample("clean_huanbao", "clean", [],
        "换宝: three 3s (the 宝) lie in the discards; before seat 1's draw the last wall tile, 4m, becomes the 宝 "
        "(the old one is dead); seat 1 draws 4m: 摸宝, 9 each", HRB)
def _():
    b = ready(hand("hrb-huanbao")).draw(2, "3s").discard(2, "3s").draw(3, "3s").discard(3, "3s")  # 1-7
    b.draw(0, "8p").discard(0, "3s").bao("4m", seat=1, change=True)  # 8-10
    return b.draw(1, "4m").win(1, "self", "4m").build()


@sample("clean_chiting", "clean", [],
        "吃听: seat 1 takes seat 2's 8s (seat 2 is not its 上家) because the 吃 makes it ready; its discard declares "
        "听; it draws 4p: 自摸, 6 each", HRB)
def _():
    b = hand("hrb-chiting", b="CC234m456p777s67s", a="1359m1359p1359sC4p", c="2468m2468p2s88s9s5m",
             d="1379m1379p139s6m2m", bao="5p")
    b.discard(0, "4p").draw(1, "7m").discard(1, "7m").draw(2, "9p").discard(2, "8s")  # 1-5
    b.chi(1, "67s", ready=True).discard(1, "4p")  # 6-7
    b.draw_discard(2, "3p").draw_discard(3, "2s").draw_discard(0, "4m")  # 8-13
    return b.draw(1, "4p").win(1, "self", "4p").build()


@sample("clean_robbed_kong", "clean", [],
        "抢杠: seat 3 碰s 6m, later adds the 4th; seat 1, 听 on 6m/9m, robs it. 抢杠 counts as 自摸 (M = 2), paid "
        "by all three: seats 0 and 2 门清 6 each, seat 3 (open) 2", HRB)
def _():
    b = hand("hrb-robbed-kong", d="1345m2689p899s66m")
    b.discard(0, "1p").pon(1, "1p").discard(1, "C").draw(2, "6m").discard(2, "6m").pon(3, "6m").discard(3, "5m")
    b.draw_discard(0, "8p").draw(1, "5s").discard(1, "5s", ready=True)  # 8-11: seat 1 declares 听 now
    b.draw_discard(2, "7s").draw(3, "6m").kong(3, "added", "6m").win(1, "rob", "6m")  # 12-16
    return b.build()


@sample("clean_kong_replacement_win", "clean", [],
        "杠开: seat 1 adds the 4th 1p to its 碰 (its waits stay 6m/9m) and wins on the replacement, taken from "
        "before the 4 reserved stacks and the 宝: 自摸, 6 each", HRB)
def _():
    b = around(ready(hand("hrb-kong-flower"))).draw(1, "1p").kong(1, "added", "1p")
    return b.draw(1, "6m", replacement=True).win(1, "self", "6m").build()


@sample("clean_exhaustive_draw", "clean", [],
        "荒庄: nobody declares 听; the wall runs down to the 4 reserved stacks and the 宝 (50 live draws); the "
        "dealer repeats", HRB)
def _():
    return hand("hrb-exhaustive").discard(0, "1p").play_out(1).build()


@sample("clean_baopai", "clean", [],
        "包牌: three 流局 in a row before this hand (match_state); seat 1 self-draws and the dealer pays every "
        "share, 6 + 6 + 6; the deal then passes to seat 1", HRB)
def _():
    return around(ready(hand("hrb-baopai").match_state(3))).draw(1, "6m").win(1, "self", "6m").build()


# -- one record per Harbin violation (SPEC Appendix B) ------------------------------------------------
@sample("win_without_ready", "violations", ["WIN_WITHOUT_READY@6"],
        "seat 1 opens and waits on 6m/9m but never declares 听, then wins on seat 2's 6m", HRB)
def _():
    b = hand("hrb-win-not-ready").discard(0, "1p").pon(1, "1p").discard(1, "C")
    return b.draw(2, "6m").discard(2, "6m").win(1, "discard", "6m").build(claim=False)


@sample("ready_not_open", "violations", ["READY_NOT_OPEN@3"],
        "seat 1 declares 听 with a 门清 hand (no 吃, 碰 or 明杠 yet); the hand plays on as logged", HRB)
def _():
    b = hand("hrb-ready-closed").discard(0, "9p").draw(1, "1p").discard(1, "C", ready=True)
    return around(b).draw(1, "6m").win(1, "self", "6m").build(strict=False)


@sample("ready_no_yaojiu", "violations", ["READY_CONDITIONS@3", "WIN_CONDITIONS@6"],
        "seat 1 declares 听 on 234m 678m 45p 22s (+ 碰 5p): no 幺, no 九, no 红中; its win on 3p fails too", HRB)
def _():
    b = hand("hrb-no-yaojiu", b="234m678m45p22s55pC", a="234m14579p13566sC")
    b.discard(0, "5p").pon(1, "5p").discard(1, "C", ready=True)
    return b.draw(2, "3p").discard(2, "3p").win(1, "discard", "3p").build(strict=False, claim=False)


@sample("ready_no_pung", "violations", ["READY_CONDITIONS@3", "WIN_CONDITIONS@6"],
        "seat 1 opens by 吃 and declares 听 on 234m 678m 45p 77p: no 刻, no 红中 pair, no 对倒 wait", HRB)
def _():
    b = hand("hrb-no-pung", b="234m678m45p77p23sC").discard(0, "1s").chi(1, "23s").discard(1, "C", ready=True)
    return b.draw(2, "3p").discard(2, "3p").win(1, "discard", "3p").build(strict=False, claim=False)


@sample("ready_one_suit", "violations", ["READY_CONDITIONS@3", "WIN_CONDITIONS@6"],
        "清一色: seat 1 declares 听 on 567m 789m 55m 红中红中 (+ 吃 234m); 红中 is no suit", HRB)
def _():
    b = hand("hrb-one-suit", b="23m567m789m55mCC1p", d="1234m26899p899s6s").discard(0, "4m").chi(1, "23m").discard(1, "1p", ready=True)
    return b.draw(2, "C").discard(2, "C").win(1, "discard", "C").build(strict=False, claim=False)


@sample("win_without_sequence", "violations", ["WIN_CONDITIONS@16"],
        "seat 1 (碰 1s, 碰 9p) is 听 on 3334455m: 6m wins with a sequence, but it takes the dealer's 4m, "
        "which makes 333m 444m 55m: no sequence (\"和牌時必須至少有一組順牌\")", HRB)
def _():
    b = hand("hrb-no-sequence", b="11s99p3334455mC7p", a="234m14678p13566sC", d="1245m26899p899s6s")
    b.discard(0, "1s").pon(1, "1s").discard(1, "7p").draw_discard(2, "7m").draw(3, "2s").discard(3, "9p")  # 1-7
    b.pon(1, "9p").discard(1, "C", ready=True).draw_discard(2, "6p").draw_discard(3, "3s")  # 8-13
    return b.draw(0, "5s").discard(0, "4m").win(1, "discard", "4m").build(claim=False)


@sample("seven_pairs", "violations", ["FALSE_WIN@3"], "seat 1 self-draws 七对: no 七小对 in Harbin (\"不帶七小對牌型\")",
        HRB)
def _():
    b = hand("hrb-seven-pairs", b="22m66m77p33s44m55p7s").discard(0, "9p").draw(1, "7s").win(1, "self", "7s")
    return b.build(claim=False)


@sample("multiple_ron", "violations", ["MULTIPLE_RON@15"],
        "seats 1 and 2 are both 听 on 9m; both declare 胡 on the dealer's 9m, but only seat 1, nearest "
        "counter-clockwise, wins (截和, no 一炮双响)", HRB)
def _():
    b = ready(hand("hrb-multiple-ron", c="123m456p99m22m88p7s")).draw_discard(2, "5s")  # 1-5
    b.draw(3, "4s").discard(3, "8p").pon(2, "8p").discard(2, "7s", ready=True)  # 6-9
    b.draw_discard(3, "2s").draw(0, "9m").discard(0, "9m")  # 10-13
    return b.win(1, "discard", "9m").win(2, "discard", "9m").build(strict=False)


@sample("ron_in_last_draws", "violations", ["RON_IN_LAST_DRAWS@LAST"],
        "seat 1 is 听 on 7m; in the last 4 live draws a seat lets 7m go and seat 1 wins on it: those draws win by "
        "self-draw only (\"最后四張牌打出后不點炮\")", HRB)
def _():
    b = hand("hrb-last-draws", b=B_KADANG, a="234m1467p13566sC7m", c="119m2288p469s5m7m3s", d="1345m26899p89s7m3s")
    ready(b).play_out(2, end=False, leave=4)
    seat = b.next_seat
    while seat == 1:  # seat 1 is locked: it lets its drawn tile go
        b.draw_discard(seat, b.rest_tiles()[0])
        seat = 2
    return b.draw(seat, b.rest_tiles()[0]).discard(seat, "7m").win(1, "discard", "7m").build(claim=False)


@sample("call_at_four", "violations", ["CALL_AT_FOUR@16"],
        "手把一: seat 1 has called three sets (four tiles in hand) and 碰s a fourth; the hand ends 荒庄", HRB)
def _():
    b = hand("hrb-call-at-four", b="11p22s55m77p345p78m").discard(0, "1p").pon(1, "1p").discard(1, "7m")  # 1-3
    b.draw(2, "2s").discard(2, "2s").pon(1, "2s").discard(1, "8m").draw_discard(2, "1s")  # 4-9
    b.draw(3, "2s").discard(3, "5m").pon(1, "5m").discard(1, "3p")  # 10-13
    b.draw(2, "7p").discard(2, "7p").pon(1, "7p").discard(1, "4p")  # 14-17
    return b.play_out(2).build(strict=False)


@sample("chi_not_from_left", "violations", ["CHI_NOT_FROM_LEFT@6", "HAND_INCOMPLETE@record"],
        "seat 1 takes seat 2's 8s by a plain 吃 (not a 吃听): only the 上家's discard may be taken so", HRB)
def _():
    b = hand("hrb-chi-not-left", b="CC234m456p777s67s", a="1359m1359p1359sC4p", c="2468m2468p2s88s9s5m",
             d="1379m1379p139s6m2m", bao="5p")
    b.discard(0, "4p").draw(1, "7m").discard(1, "7m").draw(2, "9p").discard(2, "8s").chi(1, "67s").discard(1, "4p")
    return b.build(claim=False)


@sample("bao_discarded_not_wild", "violations", ["FALSE_WIN@6"],
        "seat 2 discards the 宝 kind, 3s; seat 1 (听 on 6m/9m) claims it as a wildcard: \"別人打出的寶牌,不算寶牌\"",
        HRB)
def _():
    return ready(hand("hrb-bao-discard")).draw(2, "3s").discard(2, "3s").win(1, "discard", "3s").build(claim=False)


@sample("bao_before_ready", "violations", ["FALSE_WIN@3"],
        "seat 1, not 听, draws the 宝 kind 3s and uses it as a wildcard: \"聽牌前摸到的寶牌不能算寶牌\"", HRB)
def _():
    b = hand("hrb-bao-early", b="78789m345p11p22s3s").discard(0, "1p").draw(1, "3s").win(1, "self", "3s")
    return b.build(claim=False)


@sample("bao_not_changed", "violations", ["BAO_MISSING@10"],
        "three 3s (the 宝) lie in the discards, yet seat 1 draws without 换宝; the hand goes on with the old 宝", HRB)
def _():
    b = ready(hand("hrb-no-huanbao")).draw(2, "3s").discard(2, "3s").draw(3, "3s").discard(3, "3s")  # 1-7
    return b.draw(0, "8p").discard(0, "3s").draw(1, "6m").win(1, "self", "6m").build(strict=False)


@sample("bao_undue", "violations", ["BAO_UNDUE@10"],
        "换宝 to 4m before seat 1's draw, with no 3s in the discards; the table follows the log", HRB)
def _():
    b = around(ready(hand("hrb-bao-undue"))).bao("4m", seat=1, change=True)
    return b.draw(1, "6m").win(1, "self", "6m").build(strict=False)


@sample("ready_lock_breach", "violations", ["READY_LOCK_BREACH@11"],
        "seat 1 is 听, draws 5s and keeps it, letting 2s go; the hand ends 荒庄", HRB)
def _():
    return around(ready(hand("hrb-lock-breach"))).draw(1, "5s").discard(1, "2s").play_out(2).build(strict=False)


@sample("ready_call", "violations", ["READY_CALL@6"], "seat 1 is 听 and 碰s seat 2's 2s; the hand ends 荒庄", HRB)
def _():
    b = ready(hand("hrb-ready-pon")).draw(2, "2s").discard(2, "2s").pon(1, "2s").discard(1, "5p")
    return b.play_out(2).build(strict=False)


@sample("ready_waits_changed", "violations", ["READY_WAITS_CHANGED@11"],
        "seat 1 is 听 on 6m (123p 33p 57m 789s); its 暗杠 of 3p leaves 12p 57m 789s, which waits on nothing", HRB)
def _():
    b = around(ready(hand("hrb-ready-kong", b="12333p57m789s11pC"))).draw(1, "3p").kong(1, "concealed", "3p")
    return b.draw(1, "9p", replacement=True).discard(1, "9p").play_out(2).build(strict=False)


@sample("ready_twice", "violations", ["READY_TWICE@11"], "seat 1 declares 听 a second time, then wins on 6m", HRB)
def _():
    b = around(ready(hand("hrb-ready-twice"))).draw(1, "5s").discard(1, "5s", ready=True)
    return b.draw(2, "6m").discard(2, "6m").win(1, "discard", "6m").build(strict=False)


@sample("win_after_passed_win", "violations", ["MISSED_WIN@6", "WIN_AFTER_PASSED_WIN@9"],
        "with hrb_pass_rule=supplement, seat 1 lets seat 2's 6m go, then wins on seat 3's 9m: passing a win on a "
        "discard forfeits the later ones", HRB)
def _():
    b = ready(hand("hrb-louhu", options={"hrb_pass_rule": "supplement"})).draw(2, "6m").discard(2, "6m").pass_(1)
    return b.draw(3, "9m").discard(3, "9m").win(1, "discard", "9m").build(claim=False)


@sample("settlement_mismatch", "violations", ["SETTLEMENT_MISMATCH@record"],
        "出冲: the platform charged seat 2 only its own share (3) where it pays all three (9)", HRB)
def _():
    record = ready(hand("hrb-chuchong-wrong")).draw(2, "6m").discard(2, "6m").win(1, "discard", "6m").build()
    return with_claim(record, payments=[0, 3, -3, 0])


@sample("wilds_mismatch", "violations", ["WILDS_MISMATCH@0"],
        "the 宝 flip shows 3s and the platform logs 4s as the kind it made wild; the 宝's own kind is wild", HRB)
def _():
    record = around(ready(hand("hrb-wilds-mismatch"))).draw(1, "6m").win(1, "self", "6m").build()
    record.events[0].indicator.wilds.append(record.events[0].indicator.tile + 1)  # 4s
    return record
