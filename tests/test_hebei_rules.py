"""Hebei worked examples (SPEC HB.7: HB-1..HB-10), the Appendix A computations, and the
Hebei rules that are not a single event: the reserve, the cap, the dealer, the patterns."""
import pytest

from referee import actions as A
from referee import tiles as T
from referee.rules import get_ruleset
from referee.rules.base import KongInfo, Outcome, WinInfo
from referee.scoring import Ledger, Transfer
from referee.state import CONCEALED, EXPOSED, ADDED, KONG, PON, Meld, Wall

DEALER, B, C, D = 0, 1, 2, 3  # SPEC Appendix A: A = dealer, B = its 下家, C = 对家, D = 上家
PLAIN = "234m345p678s55m"  # with an open 碰 of E this hand scores no pattern at all
PLAIN_MELDS = [Meld(PON, T.parse("E")[0], from_seat=3)]


def win(seat, kind, hand, tile, melds=(), from_seat=None, **flags):
    return WinInfo(seat, kind, T.parse(tile)[0], from_seat, T.counts(T.parse(hand)), list(melds), 0, **flags)


def settle(*wins, kongs=(), exhaustive=False, **options):
    rules = get_ruleset("hebei", {k: str(v) for k, v in options.items()})
    return rules.settle(Outcome(DEALER, list(wins), list(kongs), exhaustive=exhaustive))


def names(settlement, seat):
    return {p.name: p.value for p in settlement.patterns if p.seat == seat}


# -- HB-1..HB-5: the base table (HB.6.1), with a hand that scores no pattern ------------------
@pytest.mark.parametrize("label, winner, kind, from_seat, expected", [
    ("HB-1 庄家自摸", DEALER, A.SELF_WIN, None, (12, -4, -4, -4)),
    ("HB-2 闲家自摸", B, A.SELF_WIN, None, (-4, 8, -2, -2)),
    ("HB-3 庄家点炮", DEALER, A.RON, C, (8, 0, -8, 0)),
    ("HB-4 闲家胡 庄家放炮", B, A.RON, DEALER, (-6, 6, 0, 0)),
    ("HB-5 闲家胡 闲家放炮", B, A.RON, C, (0, 5, -5, 0)),
])
def test_base_table(label, winner, kind, from_seat, expected):
    result = settle(win(winner, kind, PLAIN, "5m", PLAIN_MELDS, from_seat))
    assert names(result, winner) == {}, label
    assert result.payments == expected, label
    assert sum(result.payments) == 0


# -- HB-6..HB-9: kong payments (HB.6.3) -------------------------------------------------------
@pytest.mark.parametrize("label, kong, expected", [
    ("HB-6 放杠", KongInfo(B, EXPOSED, 4, D, 0), (0, 3, 0, -3)),
    ("HB-7 明杠", KongInfo(B, ADDED, 4, None, 0), (-1, 3, -1, -1)),
    ("HB-8 暗杠", KongInfo(B, CONCEALED, 4, None, 0), (-2, 6, -2, -2)),
])
def test_kong_payments(label, kong, expected):
    result = settle(kongs=[kong])
    assert result.kong_payments == expected, label
    assert result.payments == expected, label


def test_hb9_kong_payments_void_in_exhaustive_draw():
    kongs = [KongInfo(B, EXPOSED, 4, D, 0), KongInfo(C, CONCEALED, 9, None, 0)]
    assert settle(kongs=kongs, exhaustive=True).payments == (0, 0, 0, 0)
    assert settle(kongs=kongs).payments == (-2, 1, 6, -5)


# -- HB-10: the 七对 identities (HB.6.2) -------------------------------------------------------
@pytest.mark.parametrize("hand, expected", [
    ("11m22p33s44m55p66s77m", {"七对": 2, "门清": 2}),
    ("11m22m33m44m55mEEFF", {"混七对": 4, "门清": 2}),  # = 混一色 2 + 七对 2
    ("11m22m33m44m55m66m99m", {"青七对": 5, "门清": 2}),  # = 清一色 3 + 七对 2
    ("1111m22m33m44m55m99m", {"青一色": 3, "豪华七对 单豪": 8, "门清": 2}),  # 3 + 8 = 11
    ("1111m2222p33s44m55p", {"豪华七对 双豪": 16, "门清": 2}),
    ("1111m2222p3333s44m", {"豪华七对 三豪": 32, "门清": 2}),
    ("EESSWWNNCCFFPP", {"清风": 3, "七对": 2, "门清": 2}),
])
def test_hb10_seven_pairs_identities(hand, expected):
    tile = T.NAMES[T.parse(hand)[-1]]
    assert names(settle(win(B, A.SELF_WIN, hand, tile)), B) == expected


# -- Appendix A (HB) ---------------------------------------------------------------------------
def test_appendix_a_concealed_pure_all_pungs_self_draw():
    result = settle(win(B, A.SELF_WIN, "111m333m555m777m99m", "9m"))
    assert names(result, B) == {"青一色": 3, "碰碰胡": 3, "门清": 2}
    assert result.payments == (-12, 32, -10, -10)


def test_appendix_a_dealer_seven_pairs_on_discard():
    result = settle(win(DEALER, A.RON, "11m22p33s44m55p66s77m", "7m", from_seat=C))
    assert names(result, DEALER) == {"七对": 2, "门清": 2}
    assert result.payments == (12, 0, -12, 0)


def test_appendix_a_kong_settlement():
    kongs = [KongInfo(B, EXPOSED, 4, D, 0), KongInfo(B, CONCEALED, 9, None, 0)]
    assert settle(kongs=kongs).kong_payments == (-2, 9, -2, -5)
    assert settle(kongs=kongs, exhaustive=True).payments == (0, 0, 0, 0)


# -- further patterns ------------------------------------------------------------------------
def test_pattern_additions_follow_the_table():
    # 一条龙 + 门清 on a discard from a non-dealer: 5 + 4 per payer.
    result = settle(win(B, A.RON, "123m456m789m123p55s", "5s", from_seat=C))
    assert names(result, B) == {"一条龙": 2, "门清": 2}
    assert result.payments == (0, 9, -9, 0)
    # 花龙: 123m 456p 789s.
    assert names(settle(win(B, A.RON, "123m456p789sEEE55s", "5s", from_seat=C)), B) == {"花龙": 5, "门清": 2}
    # 十三幺 with any duplicate (HB-A3).
    assert names(settle(win(B, A.SELF_WIN, "19m19p19sESWNCFP1m", "1m")), B) == {"十三幺": 10, "门清": 2}


def test_thirteen_orphans_dragon_pair_only_option():
    rules = get_ruleset("hebei", {"hb_13orphans_dragon_pair_only": "true"})
    assert not rules.is_win(T.counts(T.parse("19m19p19sESWNCFP1m")), [])
    assert rules.is_win(T.counts(T.parse("19m19p19sESWNCFPC")), [])


def test_big_wait_after_four_melds_stacks_with_all_pungs():
    melds = [Meld(PON, t, from_seat=3) for t in T.parse("1p5s9s")] + [Meld(KONG, T.parse("E")[0], 3, EXPOSED)]
    result = settle(win(B, A.RON, "CC", "C", melds, from_seat=C))
    assert names(result, B) == {"碰碰胡": 3, "大吊车": 2}
    result = settle(win(B, A.RON, "CC", "C", melds, from_seat=C), hb_dadiaoche_stacks_pengpeng="false")
    assert names(result, B) == {"大吊车": 2}


def test_catch_five_needs_the_gap_and_the_option_needs_a_unique_wait():
    # 4m_6m around the gap, won on 5m, and 5m is the only wait: 捉五 +5 either way.
    gap = "456m123p789p222s55s"
    assert "捉五" in names(settle(win(B, A.RON, gap, "5m", from_seat=C)), B)
    assert "捉五" in names(settle(win(B, A.RON, gap, "5m", from_seat=C), hb_zhuowu_unique_wait="true"), B)
    # 34m+456m: 5m completes 4-5-6 in one reading (HB-A8), but the hand also waits on 2m.
    open_wait = "345m456m123p789p55s"
    assert "捉五" in names(settle(win(B, A.RON, open_wait, "5m", from_seat=C)), B)
    strict = settle(win(B, A.RON, open_wait, "5m", from_seat=C), hb_zhuowu_unique_wait="true")
    assert "捉五" not in names(strict, B)
    # 5m won into a pair is no 捉五.
    assert "捉五" not in names(settle(win(B, A.RON, "123m55m123p789p789s", "5m", from_seat=C)), B)


def test_sea_bottom_and_kong_flower_and_robbing():
    assert names(settle(win(B, A.SELF_WIN, PLAIN, "5m", PLAIN_MELDS, last_tile=True)), B) == {"海底捞月": 2}
    # HB-A7: 海底 only on a self-draw.
    assert names(settle(win(B, A.RON, PLAIN, "5m", PLAIN_MELDS, C, last_tile=True)), B) == {}
    # ... unless hb_haidi_self_draw_only is off: then the discard after the last live draw counts too.
    haidi_discard = win(B, A.RON, PLAIN, "5m", PLAIN_MELDS, C, last_discard=True)
    assert names(settle(haidi_discard), B) == {}
    assert names(settle(haidi_discard, hb_haidi_self_draw_only="false"), B) == {"海底捞月": 2}
    assert names(settle(win(B, A.SELF_WIN, PLAIN, "5m", PLAIN_MELDS, after_replacement=True)), B) == {"杠上开花": 2}
    assert names(settle(win(B, A.ROB_WIN, PLAIN, "5m", PLAIN_MELDS, C)), B) == {"抢杠胡": 2}


def test_menqing_on_discard_win_option():
    hand = "234m345p678s55mEEE"
    assert names(settle(win(B, A.RON, hand, "5m", from_seat=C)), B) == {"门清": 2}
    assert names(settle(win(B, A.RON, hand, "5m", from_seat=C), hb_menqing_on_discard_win="false"), B) == {}


def test_highest_reading_is_scored():
    # 111222333m reads as three pungs (碰碰胡 with EEE) or three chows (nothing): REC-global-2.
    result = settle(win(B, A.SELF_WIN, "111222333mEEE55p", "5p"))
    assert names(result, B) == {"碰碰胡": 3, "门清": 2}


# -- the wall: HB-A5 -------------------------------------------------------------------------
def test_reserve_leaves_71_live_draws_without_kongs():
    rules = get_ruleset("hebei")
    wall = Wall([0] * 136)
    wall.front = 53
    assert rules.live_tiles(wall) == 71
    wall.take_back()  # one kong replacement leaves an odd tail tile that is not drawable
    assert rules.live_tiles(wall) == 69
    wall.take_back()
    assert rules.live_tiles(wall) == 69


# -- the cap: HB-A11 -------------------------------------------------------------------------
def test_cap_clips_the_winner_and_keeps_zero_sum():
    result = settle(win(DEALER, A.SELF_WIN, "19m19p19sESWNCFP1m", "1m"), hb_room_multiplier=100)
    # (4 + 十三幺 10 + 门清 2) x 100 = 1600 from each; 4800 clipped to 1000, payers pro rata, floored.
    assert result.payments == (999, -333, -333, -333)
    # Each line says what it owes before the cap, the room multiplier, and the cap (arbiter review).
    assert result.lines[0] == ("seat 1 -> seat 0: 333 (win self-draw: (base 4 + 12 (门清+十三幺)) × 100 (room); "
                               "1600 capped to 333 (seat 0 gains at most 1000: its payers pay pro rata))")
    uncapped = settle(win(DEALER, A.SELF_WIN, "19m19p19sESWNCFP1m", "1m"), hb_room_multiplier=100, hb_cap=0)
    assert uncapped.payments == (4800, -1600, -1600, -1600)
    assert "capped" not in uncapped.lines[0] and "× 100 (room)" in uncapped.lines[0]


def test_cap_floors_each_payer_once_not_each_line():
    """HB-A11 "reduce the payers pro rata (floor)": a payer's hand and kong lines are scaled together
    and rounded once. Floored line by line, seat 1 would pay 268 + 64 = 332 of its 333."""
    ledger = Ledger([Transfer(B, DEALER, 605, "hand"), Transfer(B, DEALER, 145, "暗杠", kong=True),
                     Transfer(C, DEALER, 750, "hand"), Transfer(D, DEALER, 750, "hand")])
    ledger.cap(1000)  # 2250 clipped to 1000: each payer 750 x 1000 / 2250 = 333.3
    assert ledger.nets() == (999, -333, -333, -333)
    assert [t.amount for t in ledger.transfers] == [269, 64, 333, 333]  # 268.9 + 64.4: the larger remainder takes it


def test_cap_of_a_payer_scales_each_line_alike():
    """A payer clipped (包三家 to two robbers, cap 30): what it pays each receiver is cut pro rata,
    every line by the same factor, the floors' loss to the largest remainders; each line says
    whose net was clipped (a settlement-oracle review: lines 8, 8, 10 read 6, 4, 5 and 'payers
    pro rata', though the payer was the seat clipped)."""
    ledger = Ledger([Transfer(DEALER, B, 8, "C's share"), Transfer(DEALER, B, 8, "D's share"),
                     Transfer(DEALER, B, 10, "own share"), Transfer(DEALER, C, 8, "B's share"),
                     Transfer(DEALER, C, 10, "own share"), Transfer(DEALER, C, 8, "D's share")])
    ledger.cap(30)  # 52 clipped to 30: each receiver 26 x 30 / 52 = 15, each line x 15/26
    assert ledger.nets() == (-30, 15, 15, 0)
    assert [t.amount for t in ledger.transfers] == [5, 4, 6, 5, 6, 4]  # 4.6, 4.6, 5.8: the 5.8 and the first 4.6 round up
    assert all(t.reason.endswith("(seat 0 loses at most 30: what it pays is cut pro rata)") for t in ledger.transfers)


# -- the dealer: HB.1 and HB-A12 -------------------------------------------------------------
def test_next_dealer():
    rules = get_ruleset("hebei")
    plain = lambda seat: win(seat, A.RON, PLAIN, "5m", PLAIN_MELDS, (seat + 2) % 4)  # noqa: E731
    assert rules.next_dealer(Outcome(DEALER, [plain(DEALER)])) == DEALER
    assert rules.next_dealer(Outcome(DEALER, [plain(B)])) == B
    assert rules.next_dealer(Outcome(DEALER, exhaustive=True)) == DEALER
    assert rules.next_dealer(Outcome(DEALER, [plain(DEALER), plain(C)])) == DEALER
    other = get_ruleset("hebei", {"hb_dealer_repeats_among_winners": "false"})
    assert other.next_dealer(Outcome(DEALER, [plain(DEALER), plain(C)])) == B


def test_no_kong_in_the_turn_of_a_pon():
    """HB.2 [REC] "No kong in the same turn as a pong": seat 1 碰s the dealer's 9p holding three, then
    补杠s it before discarding (宁乡 allows this: tests/test_ningxiang_rules.py)."""
    from referee.builder import HandBuilder
    from referee.verify import verify_record

    b = HandBuilder("hb-pon-then-kong", ruleset="hebei").deal(
        "1249m135789p1357s", "123p456p2345s999p", "1349m2468p24789s", "2355m34778p1166s")
    b.discard(0, "9p").pon(1, "9p").kong(1, "added", "9p").draw(1, "1m").discard(1, "1m")
    verdict = verify_record(b.build(claim=False, strict=False))
    assert [(v.code, v.event_index) for v in verdict.violations][:1] == [("ILLEGAL_CALL", 2)]


def test_kong_after_pon_option_allows_the_same_turn_kong():
    """hb_kong_after_pon (HB.2 [REC]'s other reading): seat 1 碰s the dealer's 9p holding three and
    补杠s it at once, draws its replacement 1m and lets it go; later it wins on the dealer's 5s. The
    same record breaks HB.2 under the default (ILLEGAL_CALL at the kong, event 2)."""
    from referee.builder import HandBuilder
    from referee.verify import verify_record

    b = HandBuilder("hb-pon-then-kong-allowed", ruleset="hebei", options={"hb_kong_after_pon": "true"}).deal(
        "1249m135789p1357s", "123p456p2345s999p", "1349m2468p24789s", "2355m34778p1166s")
    b.discard(0, "9p").pon(1, "9p").kong(1, "added", "9p").draw(1, "1m", replacement=True).discard(1, "1m")  # 0-4
    b.draw_discard(2, "7p").draw_discard(3, "9m").draw(0, "4p").discard(0, "5s").win(1, "discard", "5s")  # 5-11
    record = b.build()
    verdict = verify_record(record)
    assert verdict.status == "clean" and verdict.violations == [] and verdict.winners == (1,)
    del record.ruleset.options["hb_kong_after_pon"]
    assert [(v.code, v.event_index) for v in verify_record(record).violations][:1] == [("ILLEGAL_CALL", 2)]


DEALER_HAND, JUNK_2 = "159m139p159sSWNCF", "246m268p268sSWNP"  # as in samples/make_samples.py


def ready_kong_record():
    """Seat 1 declares 听 on 333m4m 123p456p789p (waits 2m, 4m, 5m), draws the fourth 3m and makes a
    暗杠: 4m 123p456p789p is still ready, on 4m alone. It lets the replacement go and wins on 4m."""
    from referee.builder import HandBuilder

    b = HandBuilder("hb-ready-kong-new-waits").deal(DEALER_HAND, "3334m123p456p789p", JUNK_2, "148m47p347sFPCSW")
    b.discard(0, "F").draw(1, "N").discard(1, "N", ready=True)  # 0-2
    b.draw_discard(2, "7p").draw_discard(3, "9m").draw_discard(0, "5p")  # 3-8
    b.draw(1, "3m").kong(1, "concealed", "3m").draw(1, "E", replacement=True).discard(1, "E")  # 9-12
    b.draw_discard(2, "9s").draw_discard(3, "1s").draw(0, "4m").discard(0, "4m").win(1, "discard", "4m")  # 13-19
    return b.build()


def test_ready_kong_same_waits_option():
    """HB.3 [REC]: "还可听" means tenpai, so a kong after 听 that changes the waits is allowed; with
    hb_ready_kong_same_waits it must keep the declared waits (2m/4m/5m here, 4m after the 暗杠)."""
    from referee.verify import verify_record

    record = ready_kong_record()
    verdict = verify_record(record)
    assert verdict.status == "clean" and verdict.violations == [] and verdict.winners == (1,)
    record.ruleset.options["hb_ready_kong_same_waits"] = "true"
    violations = [(v.code, v.event_index) for v in verify_record(record).violations]
    assert violations[:1] == [("READY_KONG_BREAKS_TENPAI", 10)]


def test_menqing_with_special_shapes_option():
    """HB-A2: 七对 and 十三幺 also get 门清 +2; hb_menqing_with_special_shapes=false leaves it to the
    standard shapes."""
    pairs, orphans = win(B, A.SELF_WIN, "11m22p33s44m55p66s77m", "7m"), win(B, A.SELF_WIN, "19m19p19sESWNCFP1m", "1m")
    assert names(settle(pairs), B) == {"七对": 2, "门清": 2}
    assert names(settle(pairs, hb_menqing_with_special_shapes=False), B) == {"七对": 2}
    assert settle(pairs, hb_menqing_with_special_shapes=False).payments == (-6, 14, -4, -4)
    assert names(settle(orphans, hb_menqing_with_special_shapes=False), B) == {"十三幺": 10}
    standard = win(B, A.SELF_WIN, "234m345p678s55mEEE", "5m")  # a concealed standard hand keeps its 门清
    assert names(settle(standard, hb_menqing_with_special_shapes=False), B) == {"门清": 2}


def test_rob_paid_as_option():
    """HB-A6: the robbed konger pays as the discarder (闲家放炮 5 + 抢杠胡 2); with
    hb_rob_paid_as=self_draw it pays the three shares of a self-draw (包三家): the dealer's 4 + 2 and
    2 + 2 for each other non-dealer."""
    robbed = win(B, A.ROB_WIN, PLAIN, "5m", PLAIN_MELDS, C)
    assert names(settle(robbed), B) == {"抢杠胡": 2}
    assert settle(robbed).payments == (0, 7, -7, 0)
    assert settle(robbed, hb_rob_paid_as="self_draw").payments == (0, 14, -14, 0)
    by_dealer = win(DEALER, A.ROB_WIN, PLAIN, "5m", PLAIN_MELDS, C)
    assert settle(by_dealer).payments == (10, 0, -10, 0)  # 庄家点炮 8 + 2
    assert settle(by_dealer, hb_rob_paid_as="self_draw").payments == (18, 0, -18, 0)  # 3 x (4 + 2)


def robbed_kong_record():
    """samples/hebei/clean_robbed_kong: seat 3 adds 3p to its 碰 (event 10), seat 1 robs it (11)."""
    from referee.builder import HandBuilder

    b = HandBuilder("hb-robbed-kong").deal(DEALER_HAND, "123m456m789m12pEN", JUNK_2, "378m33p347sFPCSW")
    b.discard(0, "3p").pon(3, "3p").discard(3, "C")  # 0-2
    b.draw_discard(0, "2s").draw(1, "E").discard(1, "N").draw_discard(2, "7p")  # 3-8
    return b.draw(3, "3p").kong(3, "added", "3p").win(1, "rob", "3p").build()  # 9-11


def test_a_robs_logged_tile_must_be_the_kongs():
    """record.proto Win.tile: "for DISCARD and ROB_KONG it must be the claimed tile"; a rob that names
    another tile (even one the hand waits on) is FALSE_WIN at the rob, as for a discard win."""
    from referee.verify import verify_record

    record = robbed_kong_record()
    assert verify_record(record).status == "clean"
    record.events[11].win.tile = T.to_proto(T.parse("6p")[0])
    assert [(v.code, v.event_index) for v in verify_record(record).errors] == [("FALSE_WIN", 11)]


def test_a_rob_with_no_kong_to_rob_is_an_illegal_action():
    """A win on a discard logged as 抢杠胡 when no kong is being made: ILLEGAL_ACTION at the win, which
    is then judged (and settled) as the discard win it is."""
    from referee.builder import HandBuilder
    from referee.proto import record_pb2 as pb
    from referee.verify import verify_record

    b = HandBuilder("hb-rob-nothing").deal(DEALER_HAND, "123m456m789m12pEE", JUNK_2, "378m47p347sFPCSW")
    record = b.discard(0, "3p").win(1, "discard", "3p").build()
    record.events[1].win.kind = pb.ROB_KONG
    verdict = verify_record(record)
    assert [(v.code, v.event_index) for v in verdict.errors] == [("ILLEGAL_ACTION", 1)]
    assert verdict.recomputed.payments == (-10, 10, 0, 0)  # 门清 2 + 一条龙 2 + 闲家放炮 6, not 抢杠胡


def test_a_draw_logged_wrong_is_one_finding_whichever_tile_the_play_after_it_fits():
    """A draw's logged tile differs from the wall's: if the seat's play after it fits the logged
    tile (the platform gave it that), or the wall's (the log's tile is what is wrong, as a fault
    injector that edits the draw makes it), the hand gives DRAW_MISMATCH alone, settled as played."""
    from referee import tiles as T
    from referee.simulate import simulate_hand
    from referee.verify import verify_record

    rules = get_ruleset("hebei")
    checked = 0
    for i in range(40):
        record, _ = simulate_hand(rules, {}, 3, i)
        events = record.events
        at = next((k for k in range(len(events) - 1) if events[k].WhichOneof("kind") == "draw"
                   and events[k + 1].WhichOneof("kind") == "discard" and events[k + 1].seat == events[k].seat
                   and events[k + 1].discard.tile == events[k].draw.tile and not events[k].draw.replacement), None)
        if at is None:
            continue
        clean = verify_record(record)
        other = T.to_proto((T.FROM_CODE[events[at].draw.tile] + 9) % 27)  # another suited kind
        events[at].draw.tile = other
        verdict = verify_record(record)
        assert [(v.code, v.event_index) for v in verdict.errors] == [("DRAW_MISMATCH", at)], i
        assert verdict.recomputed == clean.recomputed and "fits the wall's tile" in verdict.errors[0].message
        checked += 1
    assert checked >= 10


@pytest.mark.parametrize("name", ["hb_auto_play_offered_win_only_claim", "hb_auto_play_offered_win_only_turn"])
def test_a_seat_in_auto_play_that_can_win_has_the_win_alone(name):
    """HB.3: a seat in 托管 wins automatically. Its legal set where it can win is the win alone (the
    trace says so), and a platform that offers it only the win offers all it should: no
    OFFER_MISSING for a pass or a discard (records from an independent trace review)."""
    import pathlib

    from referee import records
    from referee.verify import verify_record

    record = records.read_record(pathlib.Path(__file__).parent / "records" / f"{name}.textproto")
    verdict = verify_record(record, trace=True)
    assert "OFFER_MISSING" not in [v.code for v in verdict.violations]
    won = [d for d in verdict.decisions if d.taken.startswith("win")]
    assert won and all(d.legal == (d.taken,) for d in won)
    if name.endswith("claim"):  # a pass button shown to it as well is no platform error: the system acts
        from referee.proto import record_pb2 as pb

        event = next(e for e in record.events if len(e.offered))
        event.offered.add(kind=pb.ACT_PASS)
        assert not [v.code for v in verify_record(record).violations if v.code.startswith("OFFER_")]


@pytest.mark.parametrize("held_tile_allowed", [True, False])
def test_added_kong_with_a_tile_held_from_before(held_tile_allowed):
    """HB-A13: seat 1 碰s 9p holding three, keeps the fourth, and 补杠s it a go-round later after drawing
    1m: legal by default; with hb_added_kong_with_held_tile off only the tile just drawn may make it."""
    from referee.builder import HandBuilder
    from referee.verify import verify_record

    options = {} if held_tile_allowed else {"hb_added_kong_with_held_tile": "false"}
    b = HandBuilder("hb-held-fourth", ruleset="hebei", options=options).deal(
        "1249m135789p1357s", "123p456p2345s999p", "1349m2468p24789s", "2355m34778p1166s")
    b.discard(0, "9p").pon(1, "9p").discard(1, "5s").draw_discard(2, "7p").draw_discard(3, "9m").draw_discard(0, "4p")
    b.draw(1, "1m").kong(1, "added", "9p").draw(1, "2m", replacement=True).discard(1, "2m")  # 9-12
    found = [(v.code, v.event_index) for v in verify_record(b.build(claim=False, strict=False)).violations]
    assert found == ([] if held_tile_allowed else [("ILLEGAL_CALL", 10)]) + [("HAND_INCOMPLETE", None)]
