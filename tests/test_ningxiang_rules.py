"""Ningxiang worked examples (SPEC NX.7: NX-1..NX-15, with 56 for NX-7 and NX-8), the
Appendix A computations, and the Ningxiang shapes: 平胡, the 大胡 and the 起手 hands."""
from dataclasses import replace
from types import SimpleNamespace

import pytest

from referee import actions as A
from referee import tiles as T
from referee.rules import get_ruleset
from referee.rules.base import Outcome, WinInfo
from referee.scoring import HandContext, best_reading
from referee.state import PON, Meld
from referee.verify import verify_record

DEALER, B, C, D = 0, 1, 2, 3
SEVEN_MAN = T.parse("7m")[0]


class Bound:
    """A Ningxiang ruleset with its 正王 flipped, as one hand has it (the engine keeps the
    indicator on the table, so these tests pin one)."""

    def __init__(self, ruleset, king: int):
        self.ruleset = ruleset
        self.set_indicator(king)

    def set_indicator(self, king: int) -> None:
        self.king, self.wild_kinds = king, self.ruleset.wilds_of(king)

    def is_win(self, hand, melds):
        return self.ruleset.is_win(hand, melds, self.wild_kinds)

    def big_hands(self, hand, melds):
        """The 大胡 names the hand scores, through the ruleset's patterns."""
        win = WinInfo(1, A.SELF_WIN, None, None, hand, list(melds), 0, wilds=self.wild_kinds, room=[4] * 34)
        view, big = best_reading(self.ruleset.big_patterns, self.ruleset.readings(win, HandContext(0, self.king)))
        return [p.name for p in big]

    def instant_hands(self, hand, melds, opening):
        return self.ruleset.instant_hands(SimpleNamespace(indicator=self.king, phase=None), hand, melds, opening)

    def settle(self, outcome):
        outcome.indicator = self.king
        for w in outcome.wins:
            w.wilds = self.wild_kinds
        return self.ruleset.settle(outcome)


def rules(**options):
    r = get_ruleset("ningxiang", {k: str(v) for k, v in options.items()})
    return Bound(r, SEVEN_MAN)  # 纯王 6m and 8m


def win(seat, kind, hand, tile=None, from_seat=None, melds=(), **flags):
    t = T.parse(tile)[0] if tile else None
    return WinInfo(seat, kind, t, from_seat, T.counts(T.parse(hand)), list(melds), 0, **flags)


def settle(*wins, birds="", **options):
    r = rules(**options)
    return r.settle(Outcome(DEALER, list(wins), birds=T.parse(birds) if birds else []))


PING_HU = "123p456p789s234s55s"  # 平胡: a 2/5/8 pair, no 大胡
PURE_PUNGS = "111p333p555p777p99p"  # 清一色 + 碰碰胡


# -- NX-1..NX-4: the base table ---------------------------------------------------------------
@pytest.mark.parametrize("label, hand, kind, expected", [
    ("NX-1 小胡自摸 6, 2 each", PING_HU, A.SELF_WIN, (-2, 6, -2, -2)),
    ("NX-2 小胡抓炮 2", PING_HU, A.RON, (0, 2, -2, 0)),
    ("NX-3 大胡自摸 21, 7 each", "111p234p567p789p55p", A.SELF_WIN, (-7, 21, -7, -7)),
    ("NX-4 大胡抓炮 7", "111p234p567p789p55p", A.RON, (0, 7, -7, 0)),
])
def test_base_table(label, hand, kind, expected):
    from_seat = C if kind == A.RON else None
    assert settle(win(B, kind, hand, "5p" if "55p" in hand else "5s", from_seat)).payments == expected, label


# -- NX-5..NX-8: 大胡 add, specials double ----------------------------------------------------
def test_nx5_nx6_big_hands_add_up():
    assert settle(win(B, A.SELF_WIN, PURE_PUNGS, "9p")).payments == (-14, 42, -14, -14)
    assert settle(win(B, A.RON, PURE_PUNGS, "9p", C)).payments == (0, 14, -14, 0)


def test_nx7_nx8_specials_double_with_the_corrected_56():
    # 碰碰胡 + 清一色 + 六王 + 报听: (21+21)×2×2 = 168, 56 each (the document says 46: NX-A6).
    six_kings = "666888m555m99m777m"  # six 纯王 standing in pungs, all 万: 清一色 碰碰胡
    hand = T.counts(T.parse(six_kings))
    assert sum(hand) == 14
    result = settle(win(B, A.SELF_WIN, six_kings, "9m", ready=True))
    names = {p.name for p in result.patterns}
    assert {"清一色", "碰碰胡", "六王", "报听"} <= names
    assert result.payments == (-56, 168, -56, -56)
    assert settle(win(B, A.RON, six_kings, "9m", C, ready=True)).payments == (0, 56, -56, 0)


# -- NX-9..NX-12: birds, counted from the dealer ----------------------------------------------
def test_nx9_small_self_draw_birds_1_and_3():
    assert settle(win(B, A.SELF_WIN, PING_HU, "5s"), birds="1s3m").payments == (-4, 10, -4, -2)


def test_nx10_small_discard_win_from_the_dealer_birds_1_and_4():
    result = settle(win(B, A.RON, PING_HU, "5s", DEALER), birds="1s4m")
    assert result.payments == (-4, 4, 0, 0)  # 庄家的上家 (bird 4) does not pay


def test_nx11_dealer_pure_one_suit_self_draw_four_birds():
    hand = "123p234p456p678p99p"  # 清一色 only
    result = settle(win(DEALER, A.SELF_WIN, hand, "9p"), birds="1m4m6m8m", nx_birds=4)
    assert result.payments == (63, -21, -14, -28)


def test_nx12_dealer_pure_all_pungs_self_draw_four_birds():
    result = settle(win(DEALER, A.SELF_WIN, PURE_PUNGS, "9p"), birds="2m3m5m7m", nx_birds=4)
    assert result.payments == (126, -42, -56, -28)


# -- NX-13: 漏胡 (see also samples/ningxiang/ron_after_missed_win.textproto) ---------------------
def test_nx13_missed_win_locks_every_discard_until_a_draw():
    from referee.referee import Claim, Replay
    from referee.builder import HandBuilder

    b = HandBuilder("nx13", ruleset="ningxiang").deal("1249m13578p13579s", "123p456p789s234s5s",
                                                      "1349m2468p24789s", "2355m34778p1166s")
    b.flip_indicator("7m").discard(0, "9s").draw_discard(1, "1m").draw_discard(2, "5s")
    record = b.build(claim=False)
    replay = Replay(record, b.rules)
    replay.begin()
    for event in record.events:
        replay.step(event)
    replay.close_claim(replay.phase, None)  # seat 1 let the 5s go
    seat1 = replay.table.seats[1]
    assert seat1.ron_locked == "all"
    assert not replay.can_ron(1, T.parse("2s")[0]) and not replay.can_ron(1, T.parse("5s")[0])
    replay.moved(1)  # drawing (or calling) lifts it
    assert replay.can_ron(1, T.parse("2s")[0])
    assert isinstance(replay.phase, type(replay.phase)) and not isinstance(replay.phase, Claim)


# -- NX-14: the 正王 and its 纯王 ---------------------------------------------------------------
@pytest.mark.parametrize("king, pure", [("7m", "6m8m"), ("1p", "2p9p"), ("9s", "1s8s")])
def test_nx14_pure_kings(king, pure):
    r = rules()
    r.set_indicator(T.parse(king)[0])
    assert r.wild_kinds == frozenset(T.parse(pure))


def test_nx14_no_wrap_option():
    r = rules(nx_pure_kings_wrap=False)
    r.set_indicator(T.parse("9s")[0])
    assert r.wild_kinds == frozenset(T.parse("8s"))


# -- NX-15: 杠上炮 goes to the nearest seat (samples/ningxiang/dashai_ron_not_nearest.textproto) --
def test_nx15_only_the_nearest_wins_a_kong_reveal():
    from referee import records
    from referee.verify import verify_record
    import pathlib

    path = pathlib.Path(__file__).parent.parent / "samples" / "ningxiang" / "dashai_ron_not_nearest.textproto"
    verdict = verify_record(records.read_record(path))
    assert verdict.winners == (2,)  # (seat 1, dealt no 万, lets its 起手 缺一色 go: noted)
    assert [v.code for v in verdict.violations] == ["MISSED_WIN", "DASHAI_RON_NOT_NEAREST"]


# -- Appendix A (NX) ---------------------------------------------------------------------------
def test_appendix_a_small_self_draw_on_kong_flower():
    result = settle(win(B, A.SELF_WIN, PING_HU, "5s", after_replacement=True))
    assert result.payments == (-4, 12, -4, -4)


def test_appendix_a_pure_one_suit_discard_win_after_baoting_with_birds():
    hand = "123p234p456p678p99p"
    assert settle(win(B, A.RON, hand, "9p", C, ready=True)).payments == (0, 14, -14, 0)
    # Two birds, both on the winner (seat 1 = ranks 2 and 6 counted from the dealer): 14 × 3.
    assert settle(win(B, A.RON, hand, "9p", C, ready=True), birds="2m6m").payments == (0, 42, -42, 0)


def test_appendix_a_kong_flower_twice():
    first = win(B, A.SELF_WIN, "123p456p234s55s999p", "5s", after_replacement=True)
    second = win(B, A.SELF_WIN, "123p456p22s345s999p", "2s", after_replacement=True)
    assert settle(first, second).payments == (-8, 24, -8, -8)


# -- shapes ------------------------------------------------------------------------------------
def test_ping_hu_needs_a_258_pair_unless_a_big_hand_holds():
    r = rules()
    assert r.is_win(T.counts(T.parse("123p456p789s234s55s")), [])
    assert not r.is_win(T.counts(T.parse("123p456p789s234s99s")), [])  # 99 pair, no 大胡
    assert r.is_win(T.counts(T.parse("123p456p789p234p99p")), [])  # 清一色: any pair
    assert not r.is_win(T.counts(T.parse("123p456p789s234s6m9s")), [])  # a wild pairs the 9s: not 2/5/8
    assert r.is_win(T.counts(T.parse("123p456p789s234s5s8m")), [])  # a wild completes the 55s pair


def test_big_hands():
    r = rules()
    assert r.big_hands(T.counts(T.parse("11p22s33m44p55s77p99m")), []) == ["七对"]
    assert r.big_hands(T.counts(T.parse("1111p22s33m44p55s77p")), []) == ["豪华七对"]
    assert r.big_hands(T.counts(T.parse("222m555p888s222p55s")), []) == ["碰碰胡", "将将胡"]
    melds = [Meld(PON, T.parse("2m")[0], 0)]
    assert r.big_hands(T.counts(T.parse("5p5p5s5s5s8p8p8p2s2s2s")), melds) == ["碰碰胡", "将将胡"]


def test_opening_hands():
    r = rules()
    assert r.instant_hands(T.counts(T.parse("1349m1379p13479s")), [], opening=True) == ("无王无将",)
    assert "缺一色" in r.instant_hands(T.counts(T.parse("123p456p789s234s5s")), [], opening=True)
    assert "缺一色" not in r.instant_hands(T.counts(T.parse("123p456p789s234s5s")), [], opening=False)
    assert r.instant_hands(T.counts(T.parse("6666m123p456p99s5s")), [], opening=False) == ("四纯王",)
    four = rules(nx_four_pure_excludes_four_kings=False)
    assert four.instant_hands(T.counts(T.parse("6666m123p456p99s5s")), [], opening=False) == ("四纯王", "四王")
    assert "黑天胡" in r.instant_hands(T.counts(T.parse("777m123p456p99s5s2s")), [], opening=False)


def test_a_seat_outranked_by_a_nearer_winner_missed_nothing():
    # Seats 1 and 2 both wait on 5s; the dealer lets it go and seat 1, the nearer, wins it.
    # Without 一炮多响 seat 2 could not have won: no 漏胡 note, and no auto-play violation.
    from referee.builder import HandBuilder
    from referee.verify import verify_record

    b = HandBuilder("outranked", ruleset="ningxiang").deal(
        "1249m13578p13579s", "123p456p789s234s5s", "123m456p789p46s22p", "2355m34778p1166s")
    b.flip_indicator("7m").auto_play(2).discard(0, "9s").draw_discard(1, "1m").draw_discard(2, "3p")
    b.draw_discard(3, "9m").draw(0, "4p").discard(0, "5s").win(1, "discard", "5s").birds("1p4s")
    verdict = verify_record(b.build())
    assert verdict.status == "clean" and verdict.errors == [] and verdict.winners == (1,)


@pytest.mark.parametrize("index", [431, 601])
def test_a_feng_dong_seat_may_not_win_on_its_own_dashai_tile(index):
    """NX.4: a 封东 seat may only draw and discard, so no 杠上开花 either. Hands 431 and 601 of seed
    1 end in 杠上开花 on a revealed 打筛 tile; with 封东 logged just before, that win is a breach."""
    import random

    from referee.faults import FAULT_KINDS, inject_one
    from referee.simulate import simulate_hand

    rules = get_ruleset("ningxiang")
    record, _ = simulate_hand(rules, {}, 1, index)
    assert verify_record(record).status == "clean"
    faulty = inject_one(FAULT_KINDS["feng_dong_then_win"], record, rules, random.Random(0))
    verdict = verify_record(faulty)
    errors = [(v.code, v.event_index) for v in verdict.violations if v.severity == "error"]
    assert errors == [("FENGDONG_BREACH", faulty.fault.event_index)]
    assert faulty.events[faulty.fault.event_index - 1].WhichOneof("kind") == "feng_dong"


def test_an_instant_big_hand_counts_beside_a_plain_shape():
    """NX.5: 平胡 is a 2/5/8 shape "with no 大胡 present", and 四王 / 黑天胡 hold "起手 or drawn later"
    (NX-A4): a self-drawn hand that is both is the 大胡 (7 per payer), not 平胡 (2)."""
    from referee.simulate import simulate_hand

    rules = get_ruleset("ningxiang")
    for (seed, index), big, payments in (((2, 227), "四王", (-14, -21, 49, -14)),
                                         ((3, 367), "黑天胡", (-14, 35, -7, -14))):
        verdict = verify_record(simulate_hand(rules, {}, seed, index)[0])
        assert [(p.name, p.value) for p in verdict.recomputed.patterns] == [(big, 7)]
        assert verdict.recomputed.payments == payments  # birds included


def test_four_pure_kings_drawn_after_a_pon_win():
    """NX.5 item 7: 四纯王 holds "起手 or drawn later", calls or not. 正王 7m: 6m and 8m are 纯王."""
    from referee.builder import HandBuilder

    b = HandBuilder("fourpure-after-pon", ruleset="ningxiang")
    b.deal("3p9p1m2m4m5m1s2s5s9s9s5p5p2p", "888m6m1p4p7p1s4s7s9m3p3p",
           "111p222s333s444s9s", "2m3m4m5m6s6s6s7s7s7s1m9p4m").flip_indicator("7m")
    b.discard(0, "3p").pon(1, "3p").discard(1, "9m")
    b.draw_discard(2, "9p").draw_discard(3, "9p").draw_discard(0, "1m")
    b.draw(1, "8m").win(1, "self", "8m")
    verdict = verify_record(b.build())
    assert verdict.status == "clean" and [p.name for p in verdict.recomputed.patterns] == ["四纯王"]
    assert verdict.recomputed.payments == (-21, 49, -14, -14)


def test_six_kings_in_a_record_score_nx7_without_adding_four_kings():
    """NX-7 through a record: six 纯王 also hold 四王, but beside 碰碰胡 + 清一色 that reading is worth
    less, and the two are alternatives, not added: (21 + 21) × 2 × 2 = 168, 56 each."""
    six_kings = "666888m555m99m777m"
    w = win(B, A.SELF_WIN, six_kings, "9m", ready=True)
    result = settle(replace(w, instant=("四王",)))
    assert {p.name for p in result.patterns} >= {"清一色", "碰碰胡", "六王", "报听"}
    assert "四王" not in {p.name for p in result.patterns}
    assert result.payments == (-56, 168, -56, -56)


def test_a_pon_of_the_fourth_may_be_konged_at_once():
    """NX.2 "先选择碰牌，再选择杠": seat 1 holds three 9p, 碰s the dealer's 9p and 补杠s it in the same
    turn (it is ready before and after), then 打筛. Hebei forbids the same (HB.2 [REC]): see its tests."""
    from referee.builder import HandBuilder
    from referee.verify import verify_record

    b = HandBuilder("nx-pon-then-kong", ruleset="ningxiang").deal(
        "1249m135789p1357s", "123p456p2345s999p", "1349m2468p24789s", "2355m34778p1166s").flip_indicator("7m")
    b.discard(0, "9p").pon(1, "9p").kong(1, "added", "9p").dashai(1, "3m4s")  # 1-4
    b.draw_discard(2, "7m").draw_discard(3, "9m").draw(0, "4p").discard(0, "5s").win(1, "discard", "5s")
    verdict = verify_record(b.birds("1p4s").build())
    assert verdict.status == "clean" and verdict.violations == [] and verdict.winners == (1,)
    assert verdict.recomputed.payments == (-4, 4, 0, 0)  # 平胡 抓炮 2, doubled by the bird on the dealer


# -- options for the [REC] rulings -------------------------------------------------------------
NX_DEALER, READY_1, KONG_1 = "1249m13578p13579s", "123p456p789s234s5s", "123p456p2345s999p"  # samples/ningxiang
JUNK_2, JUNK_3 = "1349m2468p24789s", "2355m34778p1166s"


def nx_hand(game_id, seat1=READY_1, flip=True, seat2=JUNK_2, seat3=JUNK_3, dealer_tiles=NX_DEALER, **kw):
    from referee.builder import HandBuilder

    b = HandBuilder(game_id, ruleset="ningxiang", **kw).deal(dealer_tiles, seat1, seat2, seat3)
    return b.flip_indicator("7m") if flip else b


def codes(record, **options):
    """The violations (code, event index) of the record verified after setting these options on it
    (they stay set)."""
    for key, value in options.items():
        record.ruleset.options[key] = str(value).lower()
    return [(v.code, v.event_index) for v in verify_record(record).violations]


def test_baoting_before_the_indicator_flip_option():
    """NX-A20: 报听's window opens at the 正王 flip; nx_baoting_after_indicator=false opens it at the
    deal, so seat 1's 报听 before the flip is legal (it then wins on 5s, 平胡 × 报听)."""
    b = nx_hand("nx-baoting-before-flip", flip=False).baoting(1).flip_indicator("7m")  # 0-1
    b.discard(0, "9s").draw_discard(1, "1m").draw_discard(2, "3p").draw_discard(3, "9m")  # 2-8
    record = b.draw(0, "4p").discard(0, "5s").win(1, "discard", "5s").birds("1p4s").build(claim=False)
    assert codes(record) == [("BAOTING_OUT_OF_WINDOW", 0), ("MISSED_WIN", 4)]  # (and its 缺一色 let go)
    # A 报听 the rules did not allow binds nothing and earns nothing: 2, doubled by the bird on 1p.
    assert verify_record(record).recomputed.payments == (-4, 4, 0, 0)
    assert codes(record, nx_baoting_after_indicator=False) == [("MISSED_WIN", 4)]
    allowed = verify_record(record, {"nx_baoting_after_indicator": "false"})
    assert allowed.recomputed.payments == (-8, 8, 0, 0)  # 2 × 2 (报听), doubled by the bird


def test_pon_over_chi_option():
    """NX-A15: 碰 outranks 吃, so seat 3's 碰 of the dealer's 7p may take it over seat 1's 吃. With
    nx_pon_over_chi=false they rank equal and the nearer seat (the 吃 of the 下家) goes first."""
    b = nx_hand("nx-pon-over-chi").discard(0, "7p").chi(1, "56p").pon(3, "7p").discard(3, "2m")  # 1-4
    record = b.draw(0, "4p").discard(0, "5s").win(1, "discard", "5s").birds("1p4s").build()  # 5-8
    assert codes(record) == []
    assert codes(record, nx_pon_over_chi=False) == [("CLAIM_PRIORITY", 3)]


def dashai_then_win():
    """Seat 1 makes a 暗杠 of 9p and its 打筛 shows 3m 4s (no win); later it wins on the dealer's 5s."""
    b = nx_hand("nx-win-after-dashai", seat1=KONG_1)
    b.discard(0, "9s").draw(1, "9p").kong(1, "concealed", "9p").dashai(1, "3m4s")  # 1-4
    b.draw_discard(2, "7m").draw_discard(3, "9m").draw(0, "4p").discard(0, "5s").win(1, "discard", "5s")  # 5-11
    return b.birds("1p4s").build()


def test_dashai_lock_blocks_win_option():
    """NX.2 [REC]: the lock after 打筛 forbids 吃/碰/杠 but not 胡; with nx_dashai_lock_blocks_win it
    forbids 胡 too, though not the 杠上开花 on the 打筛 tiles themselves."""
    record = dashai_then_win()
    assert codes(record) == [("MISSED_WIN", 3)]  # (seat 1's 起手 缺一色 let go)
    assert codes(record, nx_dashai_lock_blocks_win=True)[:2] == [("MISSED_WIN", 3), ("CALL_AFTER_DASHAI", 11)]
    b = nx_hand("nx-kong-flower-locked", seat1=KONG_1, options={"nx_birds": "0", "nx_dashai_lock_blocks_win": "true"})
    b.discard(0, "9s").draw(1, "9p").kong(1, "concealed", "9p").dashai(1, "2s5s").win(1, "self", "2s")
    assert verify_record(b.win(1, "self", "5s").build()).errors == []


def test_calls_on_haidi_discard_option():
    """NX.4 [REC]: no 碰/吃 on the 海底 discard. The 封东 dealer takes the 海底 2p and lets it go, and
    seat 2 碰s it; with nx_calls_on_haidi_discard the 碰 stands and the hand is drawn (流局), the 海底
    taker dealing next."""
    from referee.builder import HandBuilder

    b = HandBuilder("nx-haidi-pon", ruleset="ningxiang").deal(
        "6666m1249m135p57s9p", "123p456p789p111s5s", "123m345p777p46s22p", "8888m349m468p557s")
    b.flip_indicator("7m").pin_last("2p").feng_dong(0).feng_dong(3).discard(0, "9p")
    b.play_out(1, end=False, leave=1)
    seat = b.next_seat
    while seat != 0:  # the others decline the 海底; the dealer takes it
        b.haidi(seat, False)
        seat = (seat + 1) % 4
    b.haidi(0, True).draw(0, "2p").discard(0, "2p").pon(2, "2p").discard(2, "1m").exhaustive_draw()
    record = b.build(claim=False, strict=False)
    pon = len(record.events) - 3
    assert [c for c in codes(record) if c[0] != "MISSED_WIN"][:1] == [("ILLEGAL_CALL", pon)]
    assert codes(record, nx_calls_on_haidi_discard=True) == [("MISSED_WIN", 5)]
    verdict = verify_record(record)
    assert verdict.drawn and verdict.next_dealer == 0


def haidi_left_win(**options):
    """Seats 0 and 3 are 封东 with every 纯王; seats 1 and 2 wait on 5s alone. After 摸打 down to two
    tiles, seat 1 draws the 5s and wins by self-draw: only the 海底 (3p) is left."""
    from referee.builder import HandBuilder

    b = HandBuilder("nx-haidi-left", ruleset="ningxiang", options=options).deal(
        "6666m1249m135p57s9p", "123p456p789p111s5s", "123m345p777p46s22p", "8888m349m2468p57s")
    b.flip_indicator("7m").pin_last("5s3p").feng_dong(0).feng_dong(3).discard(0, "9p")
    b.play_out(1, end=False, leave=2)
    assert b.next_seat == 1
    return b.draw(1, "5s").win(1, "self", "5s")


def test_haidi_bird_rule_option():
    """NX-A7: a win with only the 海底 left takes it as the one bird (3p: the dealer's 对家 pays twice);
    with nx_haidi_bird_rule=no_birds there is none, and a platform that revealed and paid one paid
    the wrong amounts too."""
    record = haidi_left_win().birds("3p").build()
    verdict = verify_record(record)
    assert verdict.errors == [] and verdict.recomputed.payments == (-2, 8, -4, -2)
    assert codes(record, nx_haidi_bird_rule="no_birds") == [("MISSED_WIN", 5), ("BIRD_MISMATCH", len(record.events) - 1),
                                                            ("SETTLEMENT_MISMATCH", None)]
    verdict = verify_record(haidi_left_win(nx_haidi_bird_rule="no_birds").build())
    assert verdict.errors == [] and verdict.recomputed.payments == (-2, 6, -2, -2)


def test_nobody_else_wins_on_dashai_tiles_the_konger_may_win_on():
    """NX.2 "如打筛玩家能胡牌，则其他玩家不能胡打筛的牌": seat 1 暗杠s 9p and reveals 2s (its own win)
    and 3m (seat 2's). It lets both go, so seat 2 may not take 3m by 杠上炮, nor is it offered."""
    from referee.builder import HandBuilder
    from referee.referee import Replay
    from referee.verdict import ERROR
    from referee.verify import verify_record

    b = HandBuilder("nx-konger-first", ruleset="ningxiang").deal(
        "1249m13578p13579s", "123p456p2345s999p", "12m456p22p345s678s", "2355m34778p1166s").flip_indicator("7m")
    b.discard(0, "9s").draw(1, "9p").kong(1, "concealed", "9p").dashai(1, "2s3m")  # 1-4
    record = b.pass_(1).win(2, "discard", "3m").birds("9m5p").build(claim=False, strict=False)  # 5-7
    verdict = verify_record(record)
    assert [(v.code, v.event_index) for v in verdict.violations if v.severity == ERROR] == \
        [("DASHAI_RON_NOT_NEAREST", 6)]
    replay = Replay(record, get_ruleset("ningxiang"))
    replay.begin()
    for index, event in enumerate(record.events[:5]):
        replay.index = index
        replay.step(event)
    assert [str(a) for a in replay.legal_actions(2)] == ["pass"]
    assert [str(a) for a in replay.legal_actions(1)] == ["pass", "win self-draw 2s"]


def kong_hand(game_id: str, seat2: str, dealer: str = "1234m13578p13579s", seat1: str = "123p456p789s234s5s"):
    from referee.builder import HandBuilder

    return HandBuilder(game_id, ruleset="ningxiang").deal(
        dealer, seat1, seat2, "2255m34778p1166s").flip_indicator("7m")


def test_a_pon_then_kong_is_ready_before_when_the_hand_before_the_pon_was():
    """NX.2 "tenpai before the kong or after it": seat 2 waits on 2p holding three 3m and takes the
    dealer's 3m by 碰 then 补杠. After the kong its hand waits on nothing, but before the 碰 it was ready,
    as before a direct 明杠 of the same tile (the hand after the 碰, 3k+2 tiles, waits on nothing)."""
    from referee.verify import verify_record

    b = kong_hand("nx-pon-kong-ready-before", "123334455999m2p")
    b.discard(0, "3m").pon(2, "3m").kong(2, "added", "3m").dashai(2, "3p4s")  # 1-4
    b.draw_discard(3, "1p").draw(0, "4p").discard(0, "5s").win(1, "discard", "5s").birds("1p4s")
    verdict = verify_record(b.build())
    assert verdict.status == "clean" and verdict.violations == [] and verdict.winners == (1,)


def test_an_older_pon_may_be_konged_right_after_a_later_pon():
    """NX.2 "…或者出牌后下次摸牌或碰牌后选择杠": seat 2 碰s 3m keeping the fourth and lets 4p go; later it
    碰s 2p and, in that turn, 补杠s the 3m (ready after it: 55s 99p 123s waits on 9p)."""
    from referee.verify import verify_record

    b = kong_hand("nx-later-pon-kong", "333m22p55s99p123s4p")
    b.discard(0, "3m").pon(2, "3m").discard(2, "4p").draw(3, "2p").discard(3, "2p")  # 1-5
    b.pon(2, "2p").kong(2, "added", "3m").dashai(2, "9s4s")  # 6-8
    b.draw_discard(3, "1p").draw(0, "4p").discard(0, "5s").win(1, "discard", "5s").birds("1p4s")
    verdict = verify_record(b.build())
    assert verdict.status == "clean" and verdict.violations == [] and verdict.winners == (1,)


def test_a_pon_carried_on_by_its_kong_still_took_the_tile():
    """A 碰 followed at once by its 补杠 takes the discard as a 碰 followed by a discard does: seat 1
    declares 胡 on the dealer's 5s, seat 2 碰s it and 补杠s, which breaks 胡 > 碰 (CLAIM_PRIORITY)."""
    from referee.verify import verify_record

    b = kong_hand("nx-pon-kong-over-win", "123m555s456p789p2p", dealer="1234m13578p1379s5s",
                  seat1="123p456p789s34s55m")  # seat 1 waits on 2s/5s, seat 2 on 2p
    b.discard(0, "5s").win(1, "discard", "5s").pon(2, "5s").kong(2, "added", "5s").dashai(2, "3p4s")  # 1-5
    verdict = verify_record(b.build(claim=False, strict=False))
    assert [(v.code, v.event_index) for v in verdict.errors][:1] == [("CLAIM_PRIORITY", 3)]


# -- 借子开杠 (NX.2): the borrowed indicator is the kong's fourth tile, so the hand keeps its count --
def borrow_hand(game_id: str):
    """Seat 2 碰s the dealer's 7m (the 正王's three copies in play) and lets 5s go: it holds
    123p456p234s5s + 碰 777m and waits on 2s/5s. The others draw and discard once each."""
    b = kong_hand(game_id, "77m123p456p234s55s", dealer="1247m13578p13579s", seat1=JUNK_2)
    b.discard(0, "7m").pon(2, "7m").discard(2, "5s")  # 1-3
    return b.draw_discard(3, "9m").draw_discard(0, "1m").draw_discard(1, "3m")  # 4-9


def errors_of(record):
    return [(v.code, v.event_index) for v in verify_record(record).violations if v.severity == "error"]


def test_a_borrowed_kong_in_place_of_the_draw_may_win_on_its_dashai_tile():
    """"当玩家碰了正王以后…可借用牌墩上的'正王'来开杠（打筛子）": at its turn seat 2 borrows the
    flipped 7m instead of drawing; its 10 tiles still wait on 2s/5s, and its 打筛 reveals 2s:
    杠上开花. (Before, a borrow could come only after a draw, and left 3k+2 tiles that never win.)"""
    b = borrow_hand("nx-borrow-flower")
    b.kong(2, "borrowed", "7m").dashai(2, "2s1s").win(2, "self", "2s").birds("9m5p")  # 10-13
    verdict = verify_record(b.build())
    assert verdict.violations == [] and verdict.winners == (2,)


def test_a_fruitless_borrowed_kong_passes_the_turn_as_any_kong():
    """NX-A9 after a borrow in place of the draw: nobody wins on 9m/1s, the 下家 draws, and seat 2
    (10 tiles + the kong) later wins on the dealer's 5s."""
    b = borrow_hand("nx-borrow-then-ron")
    b.kong(2, "borrowed", "7m").dashai(2, "9m1s")  # 10-11
    b.draw_discard(3, "2m").draw(0, "4p").discard(0, "5s").win(2, "discard", "5s").birds("9m5p")
    verdict = verify_record(b.build())
    assert verdict.violations == [] and verdict.winners == (2,)


def test_a_borrow_after_the_draw_leaves_a_tile_to_discard():
    """A borrow made after drawing (9p) takes no tile from the hand: after its fruitless 打筛 seat 2
    holds 3k+2 tiles and discards one, as after any draw; then it may win (on the dealer's 5s).
    Its 杠上开花 on 2s is no win there: 11 tiles and 2s complete nothing."""
    b = borrow_hand("nx-borrow-after-draw")
    b.draw(2, "9p").kong(2, "borrowed", "7m").dashai(2, "9m1s").discard(2, "9p")  # 10-13
    b.draw_discard(3, "2m").draw(0, "4p").discard(0, "5s").win(2, "discard", "5s").birds("9m5p")
    verdict = verify_record(b.build())
    assert verdict.violations == [] and verdict.winners == (2,)
    flower = borrow_hand("nx-borrow-after-draw-flower")
    flower.draw(2, "9p").kong(2, "borrowed", "7m").dashai(2, "2s1s").win(2, "self", "2s").birds("9m5p")
    assert errors_of(flower.build(claim=False, strict=False))[:1] == [("FALSE_WIN", 13)]


def test_the_literal_reading_of_nx_a9_after_a_borrow_is_accepted():
    """NX-A9 read literally (the 下家 draws after any fruitless 打筛) is no breach after a borrow
    made with a tile to spare either: the konger keeps the tile, and its hand can no longer win."""
    b = borrow_hand("nx-borrow-literal")
    b.draw(2, "9p").kong(2, "borrowed", "7m").dashai(2, "9m1s").draw_discard(3, "2m")  # 10-13
    b.draw(0, "4p").discard(0, "5s").draw_discard(1, "1p").draw(2, "5s").discard(2, "9p")  # 14-20
    b.draw_discard(3, "1p").draw(0, "2s").discard(0, "2s")  # 21-23: seat 2 (11 tiles + the kong) cannot take 5s or 2s
    assert errors_of(b.build(claim=False, strict=False)) == [("HAND_INCOMPLETE", None)]


def test_a_borrow_in_place_of_the_draw_is_a_legal_action_there():
    """At seat 2's due draw the move generator lists the draw and the borrow; a seat without a 碰
    of the 正王 may not borrow (ILLEGAL_CALL), nor a seat that is not ready (KONG_NOT_READY)."""
    from referee.referee import Replay

    record = borrow_hand("nx-borrow-legal").build(claim=False, strict=False)
    replay = Replay(record, get_ruleset("ningxiang"))
    replay.begin()
    for index, event in enumerate(record.events):
        replay.index = index
        replay.step(event)
    replay.close_window(None)
    assert [str(a) for a in replay.legal_actions(2)] == ["draw", "kong borrowing the indicator 7m"]
    b = kong_hand("nx-borrow-no-pon", "77m123p456p234s55s", dealer="1247m13578p13579s", seat1=JUNK_2)
    b.discard(0, "1m").draw_discard(1, "3m").kong(2, "borrowed", "7m").dashai(2, "9m1s")
    assert errors_of(b.build(claim=False, strict=False))[:1] == [("ILLEGAL_CALL", 4)]
    b = kong_hand("nx-borrow-not-ready", "77m123p456p2379s5s", dealer="1247m13578p13579s", seat1=JUNK_2)
    b.discard(0, "7m").pon(2, "7m").discard(2, "5s")  # 123p456p2379s + 777m waits on nothing
    b.draw_discard(3, "9m").draw_discard(0, "1m").draw_discard(1, "3m").kong(2, "borrowed", "7m").dashai(2, "9m1s")
    assert ("KONG_NOT_READY", 10) in errors_of(b.build(claim=False, strict=False))


def test_missed_win_on_special_tiles_option():
    """NX.4 [REC] "Passing a 杠上炮, 抢杠 or 海底炮 win also triggers it": seat 3 lets seat 1's 打筛
    tile 3m go (seat 1 cannot win on 3m or 9m), then wins on seat 2's 3m before drawing:
    RON_AFTER_MISSED_WIN. With nx_missed_win_on_special_tiles=false that pass marks nothing."""
    from referee.builder import HandBuilder
    from referee.phases import Claim

    b = HandBuilder("nx-special-pass", ruleset="ningxiang").deal(
        NX_DEALER, KONG_1, JUNK_2, "12m456p22p345s678s").flip_indicator("7m")
    b.discard(0, "9s").draw(1, "9p").kong(1, "concealed", "9p").dashai(1, "3m9m")  # 1-4
    b.draw(2, "1p").discard(2, "3m").win(3, "discard", "3m").birds("9m5p")  # 5-8
    record = b.build(claim=False, strict=False)
    assert codes(record) == [("MISSED_WIN", 3), ("MISSED_WIN", 4), ("RON_AFTER_MISSED_WIN", 7)]  # (3: a 缺一色)
    assert codes(record, nx_missed_win_on_special_tiles=False) == [("MISSED_WIN", 3), ("MISSED_WIN", 4)]
    assert Claim(0, 0, 0, {}, last_tile=True).special_tile and not Claim(0, 0, 0, {}).special_tile


# -- NX-A12: a 纯王 a 封东 seat had to discard is its natural face --------------------------------
def fengdong_discards_a_king(game_id: str, dealer: str):
    """Seat 3 declares 封东 at the start, draws 8万 (a 纯王: the 正王 is 7万) and must discard it."""
    from referee.builder import HandBuilder

    b = HandBuilder(game_id, ruleset="ningxiang").deal(dealer, JUNK_2, JUNK_3, KONG_1).flip_indicator("7m")
    b.feng_dong(3).discard(0, "9s").draw_discard(1, "1p").draw_discard(2, "9p")  # 1-6
    return b.draw(3, "8m").discard(3, "8m")  # 7-8


def test_a_fengdong_kings_discard_is_won_on_at_face_value():
    """"Such a discarded 纯王 is treated as its natural face and may be claimed/won normally": the
    dealer waiting on 8万 (555s, and 88万 as the 2/5/8 pair) wins on it; the dealer waiting on 2万
    may not, though a 纯王 in its hand would stand for 2万 (FALSE_WIN)."""
    b = fengdong_discards_a_king("nx-face-win", "123p456p789s555s8m9s").win(0, "discard", "8m").birds("9m5p")
    verdict = verify_record(b.build())
    assert verdict.errors == [] and verdict.winners == (0,)
    b = fengdong_discards_a_king("nx-face-false-win", "123p456p789s555s2m9s").win(0, "discard", "8m")
    assert errors_of(b.build(claim=False, strict=False))[:1] == [("FALSE_WIN", 9)]


def test_a_king_discarded_against_the_rules_counts_at_face():
    """NX.5 "each 纯王 in the concealed hand" is wild: one taken from another seat is its face, however
    it came out. Seat 3, under no lock, discards 8万 (WILD_DISCARDED), and the dealer's win on it as
    a 纯王 standing for 2万 is a FALSE_WIN as well."""
    from referee.builder import HandBuilder

    b = HandBuilder("nx-king-stays", ruleset="ningxiang").deal(
        "123p456p789s555s2m9s", JUNK_2, JUNK_3, KONG_1).flip_indicator("7m")
    b.discard(0, "9s").draw_discard(1, "1p").draw_discard(2, "9p").draw(3, "8m").discard(3, "8m")  # 1-7
    b.win(0, "discard", "8m").birds("9m5p")  # 8-9
    assert errors_of(b.build(claim=False, strict=False)) == [("WILD_DISCARDED", 7), ("FALSE_WIN", 8)]


def test_a_gangshang_pao_on_a_king_counts_it_at_face():
    """(A record from an independent random-play review.) 杠上炮 is a ron with the konger as the
    discarder (NX.2): a 纯王 revealed by 打筛 is its face to another seat, as a discarded one is
    (NX-A12). The konger, not ready after its kong, cannot win; seat 2 waits on 4m/7m and claims 8p
    (a 纯王 under the 正王 9p) as a wildcard: FALSE_WIN, not a paid 平胡."""
    import pathlib

    from referee import records

    path = pathlib.Path(__file__).parent / "records" / "nx_gangshang_pao_on_pure_king.textproto"
    verdict = verify_record(records.read_record(path))
    assert [(v.code, v.event_index, v.seat) for v in verdict.errors] == [("FALSE_WIN", 5, 2)]
    assert not verdict.winners


def test_a_fengdong_kings_discard_may_be_taken_by_chi():
    """NX-A12 "may be claimed": the dealer (seat 3's 下家) 吃s the 8万 with its 7万 and 9万 (the 正王's
    copies in play are natural); NX-A14 still keeps the 纯王 in a hand out of melds."""
    b = fengdong_discards_a_king("nx-face-chi", "123p456p555s79m139s")
    b.chi(0, "7m9m").discard(0, "3s")  # 9-10
    assert errors_of(b.build(claim=False, strict=False)) == [("HAND_INCOMPLETE", None)]


def test_a_face_value_winning_tile_is_no_wildcard_in_scoring():
    """WinInfo.face_tile: the winning 8万 counts as a natural tile, the hand's own 纯王 stay wild."""
    hand = T.counts(T.parse("123p456p555s88m6m"))
    wilds = frozenset(T.parse("6m8m"))
    at_face = WinInfo(0, A.RON, T.parse("8m")[0], 3, hand, [], 9, wilds=wilds, face_tile=True)
    as_wild = replace(at_face, face_tile=False)
    assert as_wild.naturals_and_wilds()[1] == 3 and at_face.naturals_and_wilds()[1] == 2
    assert at_face.naturals_and_wilds()[0][T.parse("8m")[0]] == 1


def test_a_wild_in_the_258_pair_option():
    """NX-A14: a 纯王 may be, or complete, 平胡's 2/5/8 pair. Seat 1 holds four sets, and a 纯王 (6m)
    that pairs the dealer's 5s. With nx_wild_in_258_pair=false the pair must be two natural tiles,
    so that win is FALSE_WIN. It waits on the 2/5/8 that pair a tile of its sets, the 纯王 taking
    that tile's place (2s: 22s, and the 纯王 makes 234s)."""
    def record():
        b = nx_hand("nx-wild-pair", seat1="123p456p789s234s6m")
        return b.discard(0, "5s").win(1, "discard", "5s").birds("1p4s").build(strict=False)  # 1-2
    assert [c for c in codes(record()) if c[0] == "FALSE_WIN"] == []
    assert [c for c in codes(record(), nx_wild_in_258_pair=False) if c[0] == "FALSE_WIN"] == [("FALSE_WIN", 2)]
    rules = get_ruleset("ningxiang", {"nx_wild_in_258_pair": "false"})
    hand, wilds = T.counts(T.parse("123p456p789s234s6m")), rules.wilds_of(SEVEN_MAN)
    assert [T.label(t)[:2] for t in rules.waits(hand, [], wilds)] == ["2p", "5p", "2s", "8s"]


def test_a_wild_in_jiangjiang_option():
    """NX.5 4 [REC]: in 将将胡 a 纯王 may stand for a 2/5/8. With nx_wilds_in_jiangjiang=false it counts
    at its face: 6m is no 将, so the hand is no 将将胡 (and no other 胡)."""
    jiang_with_6m = T.counts(T.parse("22255m22558p225s6m"))
    assert rules().big_hands(jiang_with_6m, []) == ["将将胡"]
    strict = Bound(get_ruleset("ningxiang", {"nx_wilds_in_jiangjiang": "false"}), SEVEN_MAN)
    assert not strict.is_win(jiang_with_6m, []) and strict.big_hands(jiang_with_6m, []) == []
    assert strict.is_win(T.counts(T.parse("22255m22558p225s5s")), [])  # no 纯王: 将将胡 as before


def test_a_call_on_the_dashai_tiles_is_an_illegal_call():
    """NX-A9: nobody may 吃/碰/杠 the two 打筛 tiles. Seat 3 logs a 碰 of the revealed 5m: ILLEGAL_CALL at
    the 碰, whose detail names the rule (it used to read as a plain OUT_OF_TURN)."""
    b = nx_hand("nx-pon-dashai", seat1=KONG_1).discard(0, "9s").draw(1, "9p").kong(1, "concealed", "9p")  # 1-3
    record = b.dashai(1, "5m4s").pon(3, "5m").discard(3, "2m").exhaustive_draw().build(claim=False, strict=False)
    verdict = verify_record(record)
    assert [(v.code, v.event_index) for v in verdict.errors] == [("ILLEGAL_CALL", 5)]
    assert "打筛" in verdict.errors[0].message


def test_an_opening_hand_is_judged_on_the_dealt_hand_until_the_first_discard():
    """NX.5 6 缺一色: "the dealt hand lacks one whole suit", declarable "before the holder's first
    discard" (NX-A4). Seat 1 is dealt no 万, draws 1m at its first turn and declares: a 大胡 自摸
    (the drawn 万 was not dealt). After its first discard it may not (起手 only)."""
    record = nx_hand("nx-queyise-first-draw").discard(0, "9s").draw(1, "1m").win(1, "self", "1m")
    verdict = verify_record(record.birds("1p4s").build())
    assert verdict.status == "clean" and verdict.winners == (1,)
    assert "缺一色" in {p.name for p in verdict.recomputed.patterns}
    late = nx_hand("nx-queyise-late").discard(0, "9s").draw(1, "1m").discard(1, "1m")  # 1-3
    late = late.draw_discard(2, "3p").draw_discard(3, "9m").draw_discard(0, "4p").draw(1, "1m").win(1, "self", "1m")
    # Its first discard let the 缺一色 go (noted there); the later declaration is FALSE_WIN.
    assert [c for c, _ in codes(late.build(claim=False, strict=False))][:2] == ["MISSED_WIN", "FALSE_WIN"]


# -- the trace lists 宁乡's own decision points: the deal window, 打筛 tiles, the 海底 offer ------
def traced(record, window: str) -> list[tuple]:
    verdict = verify_record(record, trace=True)
    return [(d.event_index, d.seat, d.legal, d.taken, d.effect) for d in verdict.decisions if d.window == window]


def test_trace_lists_the_deal_window_declarations_and_the_implied_passes():
    # Seat 1 (ready on 2s/5s, and with no 万 a 缺一色) declares 报听; seat 2 is ready too and lets it
    # go: its pass is implied by the dealer's first discard (event 2). Seat 3 has nothing to declare.
    b = nx_hand("nx-trace-deal", seat2="123p456p789s55s23m")
    record = b.baoting(1).discard(0, "9s").draw_discard(1, "9p").build(claim=False)
    assert traced(record, "deal") == [
        (1, 1, ("pass", "ready at the deal", "win self-draw"), "ready at the deal", "took effect"),
        (2, 2, ("pass", "ready at the deal"), "pass", "implied")]


def test_trace_lists_the_deal_window_when_the_dealer_wins_on_its_first_kong():
    """The deal window also closes at a win before the dealer's first discard: here its 杠上开花 on
    an 打筛 tile (event 3), where seat 1's 报听 and 起手 缺一色 were let go."""
    b = nx_hand("nx-trace-dealer-kong", seat1="123p345p789s234s5s", seat2=JUNK_2.replace("6p", "1p"),
                dealer_tiles="123m456m2345s9999p")
    record = b.kong(0, "concealed", "9p").dashai(0, "2s3m").win(0, "self", "2s").build(claim=False)
    assert traced(record, "deal") == [(3, 1, ("pass", "ready at the deal", "win self-draw"), "pass", "implied")]


def test_trace_lists_a_declared_opening_hand():
    record = nx_hand("nx-trace-opening").win(1, "self", "5s").build(claim=False)
    [decision] = traced(record, "deal")
    assert decision == (1, 1, ("pass", "ready at the deal", "win self-draw"), "win self-draw", "took effect")


def test_trace_lists_both_kong_flowers_and_a_nearest_gangshang_pao():
    from referee import records
    import pathlib

    samples = pathlib.Path(__file__).parent.parent / "samples" / "ningxiang"
    both = ("pass", "win self-draw 2s", "win self-draw 5s")
    assert traced(records.read_record(samples / "clean_kong_flower_twice.textproto"), "dashai") == [
        (5, 1, both, "win self-draw 2s", "took effect"), (6, 1, both, "win self-draw 5s", "took effect")]
    ron = ("pass", "win on discard 3m")
    assert traced(records.read_record(samples / "dashai_ron_not_nearest.textproto"), "dashai") == [
        (5, 2, ron, "win on discard 3m", "took effect"), (6, 3, ron, "win on discard 3m", "declared")]


def test_trace_lists_a_gangshang_pao_let_go_as_an_implied_pass():
    # As NX-15, but nobody declares 胡 on the revealed 3m: seat 2 draws next (NX-A9). Seats 2 and 3
    # could have won: each pass is implied, at the 打筛 reveal (event 4), and each is a 漏胡.
    b = nx_hand("nx-trace-dashai-pass", KONG_1, seat2="12m456p22p345s678s",
                seat3="45m234p88p678s111s")
    record = b.discard(0, "9s").draw(1, "9p").kong(1, "concealed", "9p").dashai(1, "3m1p").draw(2, "4s") \
        .build(claim=False)
    ron = ("pass", "win on discard 3m")
    assert traced(record, "dashai") == [(4, 2, ron, "pass", "implied"), (4, 3, ron, "pass", "implied")]


def test_trace_lists_every_haidi_offer():
    from referee import records
    import pathlib

    samples = pathlib.Path(__file__).parent.parent / "samples" / "ningxiang"
    offer = ("take the last tile", "pass")
    assert traced(records.read_record(samples / "clean_haidi_declined.textproto"), "haidi") == [
        (110 + i, seat, offer, "pass", "took effect") for i, seat in enumerate((2, 3, 0, 1))]
    assert traced(records.read_record(samples / "clean_haidi_pao_tongpao.textproto"), "haidi") == [
        (110, 2, offer, "pass", "took effect"), (111, 3, offer, "take the last tile", "took effect")]


@pytest.mark.parametrize("higher_tile, payments", [("true", (0, -28, 28, 0)), ("false", (0, -8, 8, 0))])
def test_nx_a10_a_gangshang_pao_is_settled_on_the_best_tile_it_could_take(higher_tile, payments):
    """NX-A10: a seat that could win 杠上炮 on both 打筛 tiles is settled once, on the higher-value
    one, even when its record names only the other: 4s is 平胡 (2), 7s 七对 (7), doubled by 杠上炮
    and by the bird on the winner. With the option off, the declared tile."""
    b = nx_hand("nx-a10-low-tile", seat1=KONG_1, seat2="234p234p5566s88s7s", seat3="2355m4778p1166s9m",
                options={"nx_gangshang_pao_higher_tile": higher_tile})
    b.discard(0, "9s").draw(1, "9p").kong(1, "concealed", "9p").dashai(1, "4s7s").win(2, "discard", "4s")
    verdict = verify_record(b.birds("1m2m").build(claim=False))
    assert verdict.winners == (2,) and verdict.recomputed.payments == payments


def test_a_payment_short_of_a_special_is_no_bird_mapping_and_the_birds_are_named():
    """(A record from an independent fault review.) The platform left out 杠上炮's ×2 and lists only
    平胡: its 4 equals birds counted from the winner, but its own patterns show the hand's value is
    what differs, so SETTLEMENT_MISMATCH, not BIRD_MISMAPPED. Each line names the birds that hit."""
    import pathlib

    from referee import records

    path = pathlib.Path(__file__).parent / "records" / "nx_payment_forgot_special.textproto"
    verdict = verify_record(records.read_record(path))
    assert [v.code for v in verdict.errors] == ["SETTLEMENT_MISMATCH"]
    birds = [line for line in verdict.recomputed.lines if "with birds" in line]
    assert birds and all("on seat" in line and "counted from seat" in line for line in birds)


def test_a_nearer_seat_that_lets_its_gangshang_pao_go_is_noted():
    """(A record from an independent fault review.) A farther seat wins on an 打筛 tile the seat
    nearer the konger could also win on and let go: that seat's 漏胡 is noted, as on a discard."""
    import pathlib

    from referee import records

    path = pathlib.Path(__file__).parent / "records" / "nx_dashai_farther_wins_nearer_silent.textproto"
    verdict = verify_record(records.read_record(path))
    assert verdict.status == "clean" and verdict.winners == (3,)
    assert [(v.code, v.seat) for v in verdict.violations] == [("MISSED_WIN", 2)]


def test_a_baoting_the_rules_did_not_allow_binds_nothing():
    """(An independent fault review.) Seat 1 declares 报听 after the dealer's first discard, then
    keeps its drawn 5m and lets 2s go: one finding, the late 报听, and no 报听 lock to breach."""
    b = nx_hand("nx-baoting-late-free").discard(0, "9s").baoting(1).draw(1, "5m").discard(1, "2s")  # 1-4
    record = b.draw_discard(2, "3p").draw_discard(3, "9m").build(claim=False, strict=False)
    assert [c for c in codes(record) if c[0] != "HAND_INCOMPLETE"] == [("BAOTING_OUT_OF_WINDOW", 2), ("MISSED_WIN", 4)]
    # The dealer's 报听, refused, then its drawn 纯王 (6m) let go: WILD_DISCARDED, as for any seat but a
    # 封东 one (NX-A12; a 报听 seat that draws a 纯王 holds a win and must take it).
    b = nx_hand("nx-baoting-dealer-kept").baoting(0).discard(0, "9s").draw_discard(1, "1m")  # 0-4
    b.draw_discard(2, "3p").draw_discard(3, "9m").draw(0, "6m").discard(0, "6m")  # 5-12
    kept = b.build(claim=False, strict=False)
    assert [c for c in codes(kept) if c[0] not in ("HAND_INCOMPLETE", "MISSED_WIN")] == [
        ("BAOTING_BY_DEALER", 1), ("WILD_DISCARDED", 10)]


def test_a_baoting_seat_that_draws_a_king_must_win():
    """(A record from an independent trace review.) NX.1/NX.4: a 纯王 is never discarded, 封东 alone
    excepted (NX-A12). Seat 1, 报听 on a ready hand, draws the 纯王 6m (正王 7m): the 纯王 completes the
    hand and the lock allows no other discard, so its one legal action is the win; letting the 6m go
    is WILD_DISCARDED (the trace listed it as legal, and nothing was found)."""
    import pathlib

    from referee import records

    path = pathlib.Path(__file__).parent / "records" / "nx_baoting_discards_drawn_king.textproto"
    verdict = verify_record(records.read_record(path), trace=True)
    assert [(v.code, v.event_index) for v in verdict.errors if v.code != "HAND_INCOMPLETE"] == [("WILD_DISCARDED", 4)]
    turn = next(d for d in verdict.decisions if d.event_index == 4 and d.seat == 1)
    assert turn.legal == ("win self-draw 6m",)


def test_passing_an_instant_hand_after_a_draw_is_noted():
    """(A record from an independent random-play review.) NX-A4: 四王 may be declared on the holder's
    turn right after a draw. Seat 2 draws its fourth 纯王 (8p; 正王 7p) and discards: a missed win,
    noted as a passed shape self-draw is (the trace listed the win; no note was made)."""
    import pathlib

    from referee import records

    path = pathlib.Path(__file__).parent / "records" / "nx_passed_siwang_after_draw.textproto"
    verdict = verify_record(records.read_record(path))
    assert (("MISSED_WIN", 3, 2) in [(v.code, v.event_index, v.seat) for v in verdict.violations])


def test_a_pass_then_fengdong_in_one_window_is_noted():
    """(A record from an independent random-play review.) Seat 0 logs 过 on seat 3's 2p, which wins
    for it, then declares 封东 before the window closes: the win it let go is noted at its 过 (the lock
    hid it from the window's close)."""
    import pathlib

    from referee import records

    path = pathlib.Path(__file__).parent / "records" / "nx_pass_then_fengdong.textproto"
    verdict = verify_record(records.read_record(path))
    notes = [(v.event_index, v.seat) for v in verdict.violations if v.code == "MISSED_WIN"]
    assert (68, 0) in notes and (59, 0) in notes


def test_a_fengdong_seat_may_not_declare_baoting():
    """(A record from an independent trace review.) NX.4: a 封东 seat may only draw and discard. Seat 3
    declares 封东, then 报听, before the dealer's first discard: FENGDONG_BREACH, as for its 起手 win,
    and the trace offers it nothing to decide at the deal (it listed 报听 as legal)."""
    import pathlib

    from referee import records

    path = pathlib.Path(__file__).parent / "records" / "nx_fengdong_then_baoting.textproto"
    verdict = verify_record(records.read_record(path), trace=True)
    assert [(v.code, v.event_index, v.seat) for v in verdict.errors] == [("FENGDONG_BREACH", 2, 3)]
    assert not [d for d in verdict.decisions if d.seat == 3 and d.window == "deal" and "ready at the deal" in d.legal]


def test_a_kong_flower_is_judged_with_the_room_of_any_win():
    """(A record from an independent trace review.) A wildcard never stands for a copy not in play (a
    fifth 6p beside a 明杠 of 6p), on any draw, and on the 打筛 tiles too: seat 2's 杠上开花 on 8p works
    only so, and is FALSE_WIN (it was judged clean there while refused everywhere else)."""
    import pathlib

    from referee import records

    path = pathlib.Path(__file__).parent / "records" / "nx_dashai_wild_as_fifth_copy.textproto"
    verdict = verify_record(records.read_record(path))
    assert ("FALSE_WIN", 44, 2) in [(v.code, v.event_index, v.seat) for v in verdict.errors] and not verdict.winners


def test_a_concealed_kong_in_the_turn_of_a_chi():
    """(A record from an independent trace review.) NX.2: an 暗杠 is made on the seat's own turn when it
    is ready, and NX.4 forbids no kong after a call: seat 1 吃s the dealer's 1p, then makes its 暗杠
    of 9s before discarding, ready after it, and wins 杠上开花 on the 打筛 3s (it was ILLEGAL_CALL)."""
    import pathlib

    from referee import records

    path = pathlib.Path(__file__).parent / "records" / "nx_concealed_kong_after_chi.textproto"
    verdict = verify_record(records.read_record(path), trace=True)
    assert verdict.status == "clean" and verdict.violations == [] and verdict.winners == (1,)
    turn = next(d for d in verdict.decisions if d.event_index == 3 and d.seat == 1)
    assert turn.taken == "kong concealed 9s" and "kong concealed 9s" in turn.legal


def test_a_kong_in_the_turn_of_a_chi_still_needs_a_ready_hand():
    """NX.2's kong condition in the turn of a call: ready before the call, or after the kong. Seat 1 吃s
    2s with 1s3s and makes its 暗杠 of 9p, ready neither with 9999p13s2468p135m nor with 2468p135m."""
    b = nx_hand("nx-kong-after-chi-not-ready", seat1="9999p13s2468p135m", dealer_tiles="1249m13578p12579s")
    b.discard(0, "2s").chi(1, "1s3s").kong(1, "concealed", "9p").dashai(1, "4m5m")  # 1-4
    assert codes(b.build(claim=False, strict=False))[:1] == [("KONG_NOT_READY", 3)]


def test_the_haidi_taker_discards_a_king_it_drew():
    """NX.4 "要到海底牌未胡牌，必须打出海底牌": a seat that takes the 海底 and does not win discards it, a
    纯王 too, as a 封东 seat does (NX-A12, the more specific rule); any other discard is still
    HAIDI_NOT_DISCARDED (it had no legal discard at all)."""
    from types import SimpleNamespace

    rules = get_ruleset("ningxiang")
    six, eight, one = T.parse("6m")[0], T.parse("8m")[0], T.parse("1p")[0]
    seat = SimpleNamespace(drawn=six, locks={}, ready="")
    view = SimpleNamespace(seats=[seat] * 4, wilds=frozenset((six, eight)), haidi_taker=2, last_live_draw=True)
    assert rules.forbid(view, 2, A.Action(A.DISCARD, six)) is None
    assert rules.forbid(view, 2, A.Action(A.DISCARD, one))[0] == "HAIDI_NOT_DISCARDED"
    assert rules.forbid(view, 2, A.Action(A.DISCARD, eight))[0] == "WILD_DISCARDED"
    view.last_live_draw = False  # not the 海底: a drawn 纯王 stays in hand
    assert rules.forbid(view, 2, A.Action(A.DISCARD, six))[0] == "WILD_DISCARDED"


def _review_record(name: str):
    import pathlib

    from referee import records

    return records.read_record(pathlib.Path(__file__).parent / "records" / name)


def test_a_baoting_seat_whose_dashai_lock_forbids_its_win_lets_a_drawn_king_go():
    """(A record from a review of this change.) With nx_dashai_lock_blocks_win, a 报听 seat after its 打筛
    may not win, and must let its drawn tile go: a 纯王 too, as for 封东 (NX-A12). It had no legal action."""
    verdict = verify_record(_review_record("nx_baoting_dashai_lock_draws_king.textproto"), trace=True)
    assert [v.code for v in verdict.errors] == ["HAND_INCOMPLETE"]  # (the record stops there)
    turn = next(d for d in verdict.decisions if d.event_index == 13 and d.seat == 1)
    assert turn.legal == ("discard 6m",)


def test_a_passed_opening_hand_is_noted():
    """(A record from a review of this change.) The dealer's fourteen hold 无王无将 (NX.5 5, a 起手 hand,
    NX-A4) and it discards instead: noted at that discard, naming the hand, as a passed 天胡 is."""
    verdict = verify_record(_review_record("nx_dealer_passes_wuwangwujiang.textproto"))
    [note] = [v for v in verdict.violations if v.code == "MISSED_WIN"]
    assert (note.event_index, note.seat) == (1, 0) and "with 无王无将" in note.message


def test_a_pass_then_fengdong_is_in_the_trace():
    """(A record from a review of this change.) 过 on a winning 5s, then 封东 in the same window: the
    trace lists that claim decision (the lock had hidden it) beside the note."""
    verdict = verify_record(_review_record("nx_pass_then_fengdong_traced.textproto"), trace=True)
    assert ("MISSED_WIN", 4, 2) in [(v.code, v.event_index, v.seat) for v in verdict.violations]
    assert [(d.event_index, d.window, d.legal, d.taken) for d in verdict.decisions if d.seat == 2 and d.window == "claim"] \
        == [(4, "claim", ("pass", "win on discard 5s"), "pass")]


def test_the_dealers_opening_kong_is_ready_when_a_discard_would_leave_it_ready():
    """(A record from an independent trace review.) NX.2: a kong only when ready before it or after
    it. The dealer's fourteen were dealt, not drawn, so 'before' is the hand itself: its fourteen win
    (天胡 is legal) and a discard would leave them ready, so its 暗杠 of 6m is legal, whichever tile
    was dealt last (it was KONG_NOT_READY, read on the first thirteen dealt)."""
    verdict = verify_record(_review_record("nx_dealer_opening_kong.textproto"), trace=True)
    assert [v.code for v in verdict.errors] == ["HAND_INCOMPLETE"]  # (the record stops at the 打筛)
    turn = next(d for d in verdict.decisions if d.event_index == 1 and d.seat == 0)
    assert "kong concealed 6m" in turn.legal and turn.taken == "kong concealed 6m"


@pytest.mark.parametrize("name, options, payments", [
    ("nx_two_birds", {"nx_birds": "0"}, (-2, 0, 0, 2)),
    ("nx_two_birds", {"nx_birds": "2"}, (-4, 0, 0, 4)),
    ("nx_haidi_bird", {"nx_haidi_bird_rule": "no_birds"}, (0, -2, 2, 0)),
    ("nx_haidi_logged_1m_1m", {}, (0, -4, 4, 0)),  # the 海底 2m is the one bird (NX-A7), on the payer
])
def test_birds_revealed_in_another_number_than_the_room_gives_are_settled_as_the_room_gives(name, options, payments):
    """The room's birds are paid (nx_birds, NX.6.2; nx_haidi_bird_rule, NX-A7), BIRD_MISMATCH beside
    them where the platform revealed another number. The revealed birds were settled whenever the
    count differed (found by an independent options review)."""
    import pathlib

    from referee import records

    record = records.read_record(pathlib.Path(__file__).parent / "records" / f"{name}.textproto")
    verdict = verify_record(record, options)
    assert ("BIRD_MISMATCH" in {v.code for v in verdict.errors}) == (options != {"nx_birds": "2"})
    assert verdict.recomputed.payments == payments


def test_a_fengdong_seat_keeps_a_drawn_wild_when_the_option_says_the_wild_rule_wins():
    """NX-A12 with nx_fengdong_discards_drawn_wild=false: "must not discard 纯王" wins over "must not
    change hand", so another tile goes. Both discards were violations: no legal move at all."""
    keeps = verify_record(_review_record("nx_fengdong_keeps_drawn_wild.textproto"), trace=True)
    assert [v.code for v in keeps.errors] == ["HAND_INCOMPLETE"]  # (the record is cut there)
    [turn] = [d for d in keeps.decisions if d.event_index == 6]
    assert "discard 1m" in turn.legal and "discard 4p" not in turn.legal
    discards = verify_record(_review_record("nx_fengdong_discards_drawn_wild.textproto"))
    assert [(v.code, v.event_index) for v in discards.errors][:1] == [("WILD_DISCARDED", 6)]


def test_a_call_that_leaves_only_wilds_is_an_illegal_call():
    """After the 碰 the seat must discard, and every tile it would hold is a 纯王 (NX.1 "玩家不能打出纯王"):
    the 碰 was listed as legal, and the seat then had no legal discard."""
    verdict = verify_record(_review_record("nx_pon_leaves_only_wilds.textproto"), trace=True)
    assert [(v.code, v.event_index, v.seat) for v in verdict.errors][0] == ("ILLEGAL_CALL", 14, 1)
    [claim] = [d for d in verdict.decisions if d.event_index == 14 and d.seat == 1]
    assert "pon 9s" not in claim.legal and claim.taken == "pon 9s"
