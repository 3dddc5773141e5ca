"""Guangdong 鸡平胡 family (SPEC GD-JPH: guangdong_jph3 爆胡3番 and guangdong_gg5 爆胡5番): the
worked examples of J.7 (JPH3-1..JPH3-5, GG5-1, GG5-2 against the J-A8 ruling), every Appendix A
vector for GD-JPH3 and GD-GG5, and the rules of J.1-J.6, each through a full record built with
HandBuilder and judged by the referee (the recomputed payments are checked, never the builder's)."""
from __future__ import annotations

import random

import pytest

from referee import tiles as T
from referee.builder import HandBuilder
from referee.outcome import Outcome
from referee.rules import get_ruleset
from referee.verify import verify_record

JPH3, GG5 = "guangdong_jph3", "guangdong_gg5"
A, B, C, D = 0, 1, 2, 3  # SPEC Appendix A: A deals, B is its 下家, C its 对家, D its 上家


def tiles(text: str) -> list[int]:
    return T.parse(text)


def judge(record, clean: bool = True):
    """The referee's verdict on a record; a clean one must have no finding at all."""
    verdict = verify_record(record)
    if clean:
        assert verdict.status == "clean", [(v.code, v.event_index, v.message) for v in verdict.violations]
        assert verdict.violations == [], [(v.code, v.event_index, v.message) for v in verdict.violations]
    return verdict


def payments(b: HandBuilder, clean: bool = True) -> tuple[int, ...]:
    return judge(b.build(strict=clean), clean).recomputed.payments


def names(verdict, seat: int) -> dict[str, int]:
    return {p.name: p.value for p in verdict.recomputed.patterns if p.seat == seat}


def junk_hands(rules, used: list[int], sizes: list[int], seed: int) -> list[list[int]]:
    """Hands of the given sizes from the tiles `used` leaves, dealt from a seeded shuffle."""
    pool = [t for t in rules.tile_kinds for _ in range(rules.copies - used.count(t))]
    random.Random(seed).shuffle(pool)
    out, at = [], 0
    for size in sizes:
        out.append(pool[at:at + size])
        at += size
    return out


class Scene:
    """A scripted hand: some seats' tiles fixed (whole hands or a few tiles each), the rest junk
    from a seeded shuffle, and `spare()` tiles for the 摸打 turns of seats that only pass time.
    `play(b, scene)` writes the events; `run` tries seeds until the record is clean (or, with
    clean=False, until the referee reports exactly `expect`)."""

    def __init__(self, ruleset: str, hands: dict[int, str], reserved: str = "", options=None, round_wind="E",
                 dealer: int = A, pin_last: str = ""):
        self.ruleset, self.options, self.round_wind, self.dealer = ruleset, options, round_wind, dealer
        self.fixed = {seat: tiles(h) for seat, h in hands.items()}
        self.reserved = tiles(reserved) + tiles(pin_last)
        self.pin_last = pin_last
        self.rules = get_ruleset(ruleset, options)

    def spare(self) -> int:
        return next(self._spare)

    def build(self, play, seed: int, game_id: str):
        used = [t for h in self.fixed.values() for t in h] + self.reserved
        sizes = [(14 if s == self.dealer else 13) - len(self.fixed.get(s, [])) for s in range(4)]
        pool = [t for t in self.rules.tile_kinds for _ in range(self.rules.copies - used.count(t))]
        rng = random.Random(seed)
        rng.shuffle(pool)
        hands, at = [], 0
        for s in range(4):
            filler = pool[at:at + sizes[s]]
            at += sizes[s]
            hands.append(self.fixed.get(s, []) + filler)  # hands[s][-1] is filler where there is any
        self.hands = hands
        self._spare = iter(pool[at:])
        b = HandBuilder(game_id, ruleset=self.ruleset, dealer=self.dealer, options=self.options,
                        round_wind=self.round_wind, seed=seed).deal(*hands)
        if self.pin_last:
            b.pin_last(self.pin_last)
        play(b, self)
        return b

    def run(self, play, expect: list[str] | None = None, game_id: str = "jph-scene", tries: int = 300):
        """The verdict of the first seed whose record is clean (expect None) or reports exactly
        `expect` (CODE@index findings, info notes included)."""
        for seed in range(tries):
            try:
                b = self.build(play, seed, game_id)
            except StopIteration:
                continue
            try:
                record = b.build(strict=expect is None)
            except ValueError:
                if expect is None:
                    continue
                record = b.build(claim=False)  # a hand the violation halts has nothing to settle
            verdict = verify_record(record)
            found = sorted(f"{v.code}@{'record' if v.event_index is None else v.event_index}"
                           for v in verdict.violations)
            if found == sorted(expect or []):
                return verdict
        raise AssertionError("no seed gives the scene its expected verdict")


def one_hand(ruleset: str, hand: str, tile: str, kind: str = "discard", winner: int = B, options=None,
             round_wind: str = "E", dealer: int = A):
    """A full record in which `winner` wins with `hand` (14 tiles, `tile` included) at once:
    on the dealer's first discard, or (kind "self") by drawing `tile` after the dealer's first
    discard (winner = the dealer's 下家), or with the dealer's own dealt fourteen (winner = dealer).
    The other hands are junk from a seeded shuffle, redrawn until nobody else could do anything
    but let the tiles go; returns the verdict of the first clean record."""
    win_tiles, t = tiles(hand), tiles(tile)[0]
    rest = list(win_tiles)
    rest.remove(t)
    rules = get_ruleset(ruleset, options)
    for seed in range(400):
        b = HandBuilder(f"jph-{ruleset}-{hand}-{kind}", ruleset=ruleset, dealer=dealer, options=options,
                        round_wind=round_wind, seed=seed)
        seats = [None] * 4
        if winner == dealer:
            others = junk_hands(rules, win_tiles, [13, 13, 13], seed)
            seats[dealer] = rest + [t]
            for k, h in zip((1, 2, 3), others):
                seats[(dealer + k) % 4] = h
            b.deal(*seats).win(dealer, "self", t)
        elif kind == "discard":
            first, *others = junk_hands(rules, win_tiles, [13, 13, 13], seed)
            seats[dealer] = first + [t]  # the winning tile is the dealer's 14th, its first discard
            seats[winner] = rest
            for s, h in zip([s for s in range(4) if seats[s] is None], others):
                seats[s] = h
            b.deal(*seats).discard(dealer, t).win(winner, "discard", t)
        else:
            assert winner == (dealer + 1) % 4
            first, *others = junk_hands(rules, win_tiles, [14, 13, 13], seed)
            seats[dealer], seats[winner] = first, rest
            for s, h in zip([s for s in range(4) if seats[s] is None], others):
                seats[s] = h
            b.deal(*seats).discard(dealer, first[-1]).draw(winner, t).win(winner, "self", t)
        try:
            record = b.build()
        except ValueError:
            continue
        verdict = verify_record(record)
        if verdict.status == "clean" and not verdict.violations:
            return verdict
    raise AssertionError(f"no clean deal around {hand}")


# -- JPH3-2 and GG5-1: 分值 = 2^番, every row of the J.6.1 tables, won on the dealer's discard --------
# B (seat wind 南, round wind 东) holds no pung of 南, 东 or a dragon unless the row needs it, so no 附加.
TABLE_HANDS = {
    "鸡胡": ("111m456p789s234s55m", "5m"),
    "平胡": ("123m456p789s234s55m", "5m"),
    "碰碰胡": ("111m444p777s222s55m", "5m"),
    "混一色": ("123m456m789mNNN55m", "5m"),
    "清一色": ("123m456m789m234m55m", "5m"),
    "混碰": ("111m555m999mNNN77m", "7m"),
    "七对": ("1122m3344p5566s77m", "7m"),
    "清碰": ("111m333m555m777m99m", "9m"),
    "混幺九": ("111m999p111sNNN99s", "9s"),
    "小三元": ("CCCFFFPP123m456m", "P"),
    "小四喜": ("EEESSSWWWNN123m", "N"),
    "字一色": ("EEESSSCCCFFFWW", "W"),
    "清幺九": ("111m999m111p999p11s", "1s"),
    "大三元": ("CCCFFFPPP123m55m", "5m"),
    "大四喜": ("EEESSSWWWNNN55m", "5m"),
    "九莲宝灯": ("11123455678999m", "5m"),
    "十三幺": ("19m19p19sESWNCFP1m", "1m"),
}
JPH3_FAN = {"鸡胡": 0, "平胡": 1, "碰碰胡": 2, "混一色": 2, "清一色": 4, "混碰": 4, "清碰": 5, "混幺九": 5,
            "小三元": 5, "小四喜": 5, "字一色": 6, "清幺九": 6, "大三元": 6, "大四喜": 6, "九莲宝灯": 6, "十三幺": 6}
GG5_FAN = {"鸡胡": 1, "平胡": 2, "碰碰胡": 4, "混一色": 3, "清一色": 5, "混碰": 5, "七对": 5, "小三元": 6,
           "混幺九": 6, "清碰": 7, "小四喜": 7, "字一色": 8, "清幺九": 8, "大三元": 8, "大四喜": 8, "九莲宝灯": 8,
           "十三幺": 8}


@pytest.mark.parametrize("ruleset, row, fan", [(JPH3, k, v) for k, v in JPH3_FAN.items()]
                         + [(GG5, k, v) for k, v in GG5_FAN.items()])
def test_jph3_2_gg5_1_value_is_two_to_the_fan(ruleset, row, fan):
    hand, tile = TABLE_HANDS[row]
    verdict = one_hand(ruleset, hand, tile)
    assert verdict.recomputed.payments == (-2 ** fan, 2 ** fan, 0, 0), row
    assert row in names(verdict, B)


def self_draw_by_b(b: HandBuilder, sc: Scene, tile: str) -> None:
    """The dealer lets its 14th tile go; B draws `tile` and wins with it."""
    b.discard(A, sc.hands[A][-1]).draw(B, tile).win(B, "self", tile)


# -- Appendix A (GD-JPH3, cap 3) --------------------------------------------------------------------
def test_appendix_a_jph3_pinghu_self_draw():
    verdict = one_hand(JPH3, "123m456p789s234s55m", "5m", kind="self")  # 平胡 1 + 自摸 1 = 2番
    assert names(verdict, B) == {"平胡": 1, "自摸": 1}
    assert verdict.recomputed.payments == (-4, 12, -4, -4)


def test_appendix_a_jph3_inside_patterns_capped_at_three():
    # 碰碰胡 2 + 自摸 1 + 风位 (南, B's seat wind) 1 + 三元 (中) 1 = 5, capped at 3: X = 8.
    verdict = one_hand(JPH3, "SSSCCC111m999p55s", "5s", kind="self")
    # The cap is what it took off, so the breakdown adds up to the hand's 番, as the line shows it.
    assert names(verdict, B) == {"碰碰胡": 2, "自摸": 1, "风位": 1, "三元牌 中": 1, "爆胡": -2}
    assert sum(names(verdict, B).values()) == 3
    assert "碰碰胡+自摸+风位+三元牌 中 = 5番, 爆胡 -2 = 3番, 2^3 = 8" in verdict.recomputed.lines[0]
    assert verdict.recomputed.payments == (-8, 24, -8, -8)


def test_appendix_a_jph3_pure_one_suit_on_a_discard():
    verdict = one_hand(JPH3, "123m456m789m234m55m", "5m")
    assert names(verdict, B) == {"清一色": 4}
    assert verdict.recomputed.payments == (-16, 16, 0, 0)


def kong_flower(b: HandBuilder, sc: Scene) -> None:
    """B draws its fourth 2p, makes a 暗杠 and wins on the replacement 5m (杠上开花)."""
    b.discard(A, sc.hands[A][-1]).draw(B, "2p").kong(B, "concealed", "2p").draw(B, "5m", replacement=True)
    b.win(B, "self", "5m")


@pytest.mark.parametrize("ruleset, x", [(JPH3, 8), (GG5, 32)])
def test_appendix_a_chicken_hand_on_a_kong_replacement_pays_the_cap(ruleset, x):
    # 鸡胡 (+自摸) after a 暗杠: the 杠上开花 floor raises it to the cap (3番 = 8, 5番 = 32).
    verdict = Scene(ruleset, {B: "222p234m678s55s34m"}, reserved="2p5m").run(kong_flower)
    fan = 3 if ruleset == JPH3 else 5
    assert "杠上开花 按爆胡计" in names(verdict, B) and sum(names(verdict, B).values()) == fan
    assert f", 杠上开花 按爆胡计 +{fan - sum(v for n, v in names(verdict, B).items() if '按' not in n)} = {fan}番" \
        in verdict.recomputed.lines[0]
    assert verdict.recomputed.payments == (-x, 3 * x, -x, -x)


def twelve_down(b: HandBuilder, sc: Scene, win: bool = True) -> None:
    """B holds 12m 45p 78s 55m and a lone 9p: it takes 3m from A (吃), 5m from C (碰), 6p and 9s from A
    (吃): the 9s is its fourth exposed set, twelve tiles down, fed by A. B then self-draws 9p."""
    b.discard(A, "3m").chi(B, "12m").discard(B, "N")  # 0-2
    b.draw(C, sc.spare()).discard(C, "5m").pon(B, "5m").discard(B, "W")  # 3-6
    b.draw_discard(C, sc.spare()).draw_discard(D, sc.spare())  # 7-10
    b.draw(A, sc.spare()).discard(A, "6p").chi(B, "45p").discard(B, "C")  # 11-14
    b.draw_discard(C, sc.spare()).draw_discard(D, sc.spare())  # 15-18
    b.draw(A, sc.spare()).discard(A, "9s").chi(B, "78s").discard(B, "S")  # 19-22
    b.draw_discard(C, sc.spare()).draw_discard(D, sc.spare()).draw_discard(A, sc.spare())  # 23-28
    if win:
        b.draw(B, "9p").win(B, "self", "9p")  # 29-30


TWELVE_DOWN = {A: "3m6p9s", B: "12m45p78s55m9pNWCS", C: "5m"}


def test_appendix_a_jph3_twelve_tiles_down_self_draw_paid_by_the_feeder():
    # JPH3-3 (example 1): A fed B's twelve tiles down; B's 鸡胡 自摸 = 1番, X = 2: A pays all 6.
    verdict = Scene(JPH3, TWELVE_DOWN, reserved="9p").run(twelve_down)
    assert names(verdict, B) == {"鸡胡": 0, "自摸": 1}
    assert verdict.recomputed.payments == (-6, 6, 0, 0)
    assert any("十二张落地包自摸" in line for line in verdict.recomputed.lines)


def test_appendix_a_jph3_one_discard_three_winners():
    # 一炮三响: 鸡胡 (B), 平胡 (C), 清一色 (D) on A's 5p: floors 3/3/4番, A pays 8 + 8 + 16 = 32.
    hands = {A: "5p", B: "111s345m789m77s46p", C: "234m678m234s66s46p", D: "123p456p789p99p46p"}

    def play(b, sc):
        b.discard(A, "5p").win(B, "discard", "5p").win(C, "discard", "5p").win(D, "discard", "5p")

    verdict = Scene(JPH3, hands).run(play)
    assert "一炮三响 按爆胡计" in names(verdict, B) and "一炮三响 按爆胡计" in names(verdict, C)
    assert names(verdict, D) == {"清一色": 4}
    assert verdict.recomputed.payments == (-32, 8, 8, 16)


# -- Appendix A (GD-GG5, cap 5) ---------------------------------------------------------------------
def test_appendix_a_gg5_half_suit_self_draw_seat_wind():
    verdict = one_hand(GG5, "SSS123m456m789mEE", "E", kind="self")  # 混一色 3 + 自摸 1 + 风位 1 = 5
    assert names(verdict, B) == {"混一色": 3, "自摸": 1, "风位": 1}
    assert verdict.recomputed.payments == (-32, 96, -32, -32)


def test_appendix_a_gg5_pinghu_and_half_suit_on_a_discard():
    verdict = one_hand(GG5, "123m456m789m234mEE", "4m")  # 平胡 2 + 混一色 3 = 5 (J-A9: they add)
    assert names(verdict, B) == {"平胡": 2, "混一色": 3}
    assert verdict.recomputed.payments == (-32, 32, 0, 0)


def robbed_kong(b: HandBuilder, sc: Scene) -> None:
    """D takes A's 3p by 碰; B gets ready on 3p (draws 2p, lets N go); D adds its drawn 3p (补杠) and B robs it."""
    b.discard(A, "3p").pon(D, "3p").discard(D, sc.hands[D][-1])  # 0-2
    b.draw_discard(A, sc.spare()).draw(B, "2p").discard(B, "N")  # 3-6
    b.draw_discard(C, sc.spare()).draw(D, "3p").kong(D, "added", "3p").win(B, "rob", "3p")  # 7-11


ROBBED = {A: "3p", B: "111s456m789m22s1pN", D: "33p"}


@pytest.mark.parametrize("ruleset, x", [(GG5, 32), (JPH3, 8)])
def test_appendix_a_robbing_a_kong_is_a_self_draw_the_robbed_konger_pays(ruleset, x):
    # 鸡胡 robbing D's 补杠: floor to the cap, D pays all three shares (GG5: 3 × 32 = 96; JPH3 J-A2: 3 × 8).
    verdict = Scene(ruleset, ROBBED, reserved="2p3p").run(robbed_kong)
    assert "抢杠胡 按爆胡计" in names(verdict, B)
    assert verdict.recomputed.payments == (0, 3 * x, 0, -3 * x)


@pytest.mark.parametrize("ruleset, x", [(GG5, 32), (JPH3, 8)])
def test_a_rob_paid_without_its_liability_is_liability_ignored(ruleset, x):
    """J.6.4 抢杠胡 "当自摸，被抢杠者包三家牌". A platform that ignores the 包 pays the rob as the 自摸
    it counts as, by the three others, or as a discard, by the konger alone: LIABILITY_IGNORED both
    ways, not a bare SETTLEMENT_MISMATCH."""
    sc = Scene(ruleset, ROBBED, reserved="2p3p")
    record = next(r for r in (sc.build(robbed_kong, seed, "jph-rob-ignored").build(strict=False) for seed in range(300))
                  if verify_record(r).status == "clean")
    for paid in ((-x, 3 * x, -x, -x), (0, x, 0, -x)):
        record.claimed.payments[:] = paid
        assert [(v.code, v.event_index) for v in verify_record(record).violations] == [("LIABILITY_IGNORED", None)]


# -- J.7 worked examples ----------------------------------------------------------------------------
COIN = {"jph_coin_conversion": "true", "jph_coin_room": "600", "jph_coin_fee": "250"}


def test_jph3_1_coin_example():
    # N = 600, X = 4 (平胡 1 + 自摸 1), A self-draws, A = 250: A gains 600×4×3 = 7200 less the fee, each
    # loser pays 600×4 = 2400 and the fee; the house keeps 4 × 250 (not zero-sum).
    verdict = one_hand(JPH3, "123m456p789s234s55m", "5m", winner=A, options=COIN)
    assert verdict.recomputed.payments == (7200 - 250, -2400 - 250, -2400 - 250, -2400 - 250)
    assert sum(verdict.recomputed.payments) == -4 * 250
    win_lines = [line for line in verdict.recomputed.lines if "house" not in line]  # each names N (review)
    assert len(win_lines) == 3 and all(": 2400 (" in line and "× 600 (room coefficient N)" in line
                                       for line in win_lines)
    assert one_hand(JPH3, "123m456p789s234s55m", "5m", winner=A).recomputed.payments == (12, -4, -4, -4)


def test_coin_conversion_on_a_discard_win_charges_every_seat_the_fee():
    verdict = one_hand(JPH3, "123m456m789m234m55m", "5m", options=COIN)  # 清一色 16 from A
    assert verdict.recomputed.payments == (-16 * 600 - 250, 16 * 600 - 250, -250, -250)


def twelve_down_twice(b: HandBuilder, sc: Scene, winner: int) -> None:
    """A feeds B's fourth exposed set (as in twelve_down), then C's: C takes 8s, 7m and 3p from D by
    碰, and its fourth, 6s, from A. Then `winner` self-draws its single tile."""
    junk = sc.hands[C][-4:]  # C's four filler tiles, let go after its calls
    b.discard(A, "3m").chi(B, "12m").discard(B, "N")  # 0-2: B's 1st set, from A
    b.draw_discard(C, sc.spare()).draw(D, sc.spare()).discard(D, "8s").pon(C, "8s").discard(C, junk[0])  # 3-8
    b.draw(D, sc.spare()).discard(D, "5m").pon(B, "5m").discard(B, "W")  # 9-12: B's 2nd
    b.draw_discard(C, sc.spare()).draw(D, sc.spare()).discard(D, "7m").pon(C, "7m").discard(C, junk[1])  # 13-18
    b.draw_discard(D, sc.spare()).draw(A, sc.spare()).discard(A, "6p").chi(B, "45p").discard(B, "C")  # 19-24
    b.draw_discard(C, sc.spare()).draw(D, sc.spare()).discard(D, "3p").pon(C, "3p").discard(C, junk[2])  # 25-30
    b.draw_discard(D, sc.spare()).draw(A, sc.spare()).discard(A, "9s").chi(B, "78s").discard(B, "S")  # 31-36: B 4th
    b.draw_discard(C, sc.spare()).draw_discard(D, sc.spare()).draw(A, sc.spare()).discard(A, "6s")  # 37-42
    b.pon(C, "6s").discard(C, junk[3])  # 43-44: C's 4th, twelve tiles down, fed by A too
    b.draw_discard(D, sc.spare()).draw_discard(A, sc.spare())  # 45-48
    if winner == B:
        b.draw(B, "9p").win(B, "self", "9p")
    else:
        b.draw_discard(B, sc.spare()).draw(C, "2s").win(C, "self", "2s")


TWELVE_TWICE = {A: "3m6p9s6s", B: "12m45p78s55m9pNWCS", C: "88s77m33p66s2s", D: "8s5m7m3p"}


def test_jph3_4_the_feeder_covers_only_the_first_twelve_tiles_down():
    # JPH3-4 (example 2): A fed B's twelve tiles down, later C's. C's 自摸 is paid by all three;
    # had B won by 自摸, A would pay for all (包先不包后).
    scene = Scene(JPH3, TWELVE_TWICE, reserved="9p2s")
    c_wins = scene.run(lambda b, sc: twelve_down_twice(b, sc, C))
    x = 2 ** sum(v for k, v in names(c_wins, C).items())
    assert names(c_wins, C) == {"碰碰胡": 2, "自摸": 1} and x == 8
    assert c_wins.recomputed.payments == (-8, -8, 24, -8)
    b_wins = scene.run(lambda b, sc: twelve_down_twice(b, sc, B))
    assert b_wins.recomputed.payments == (-6, 6, 0, 0)


# JPH3-5: 漏胡. B waits on 2s/5s; its 下家 C lets 2s go and B does not take it. B may not win on the
# 2s its 对家 D lets go next (RON_AFTER_MISSED_WIN), but may win on a 5s, or on a 2s after it has moved.
LOUHU = {B: "123m456p789s34sEE", C: "2s2s", D: "2s5s"}


def louhu(b: HandBuilder, sc: Scene, then: str) -> None:
    b.discard(A, sc.hands[A][-1]).draw_discard(B, sc.spare())  # 0-2
    b.draw(C, sc.spare()).discard(C, "2s").pass_(B)  # 3-5: B passes its win (漏胡, noted at its 过)
    if then == "same":
        b.draw(D, sc.spare()).discard(D, "2s").win(B, "discard", "2s")  # 6-8
    elif then == "other":
        b.draw(D, sc.spare()).discard(D, "5s").win(B, "discard", "5s")  # 6-8
    else:  # B draws (动牌) first, then C lets its second 2s go
        b.draw_discard(D, sc.spare()).draw_discard(A, sc.spare()).draw_discard(B, sc.spare())  # 6-11
        b.draw(C, sc.spare()).discard(C, "2s").win(B, "discard", "2s")  # 12-14


@pytest.mark.parametrize("ruleset", [JPH3, GG5])  # J-A5: the same rule in (5)
def test_jph3_5_missed_win_bars_the_same_tile_until_the_seat_moves(ruleset):
    scene = Scene(ruleset, LOUHU)
    scene.run(lambda b, sc: louhu(b, sc, "same"), expect=["MISSED_WIN@5", "RON_AFTER_MISSED_WIN@8"])
    other = scene.run(lambda b, sc: louhu(b, sc, "other"), expect=["MISSED_WIN@5"])
    assert other.winners == (B,) and other.recomputed.payments[D] < 0
    moved = scene.run(lambda b, sc: louhu(b, sc, "moved"), expect=["MISSED_WIN@5"])
    assert moved.winners == (B,) and moved.recomputed.payments[C] < 0


@pytest.mark.parametrize("ruleset", [JPH3, GG5])
def test_a_seat_in_auto_play_that_lets_a_win_go_only_misses_it(ruleset):
    """托管 auto-win is Hebei's rule (HB.3); here a seat in 托管 that passes a win has passed it like
    any seat (SPEC 0.3: the variant's 漏胡 rule), an info note and the J.4 lock, no error."""
    scene = Scene(ruleset, LOUHU)

    def in_auto_play(then):
        return lambda b, sc: louhu(b.auto_play(B, True), sc, then)

    scene.run(in_auto_play("same"), expect=["MISSED_WIN@6", "RON_AFTER_MISSED_WIN@9"])
    other = scene.run(in_auto_play("other"), expect=["MISSED_WIN@6"])
    assert other.status == "clean" and other.winners == (B,)


def test_missed_win_rule_option():
    scene = Scene(JPH3, LOUHU, options={"jph_missed_win_rule": "any_until_draw"})
    scene.run(lambda b, sc: louhu(b, sc, "other"), expect=["MISSED_WIN@5", "RON_AFTER_MISSED_WIN@8"])
    scene = Scene(JPH3, LOUHU, options={"jph_missed_win_rule": "none"})
    scene.run(lambda b, sc: louhu(b, sc, "same"), expect=["MISSED_WIN@5"])


# GG5-2 (inconsistent in the document): the names are trusted (J-A8): 小三元 6番, 清碰 7番.
def test_gg5_2_small_three_dragons_and_pure_pungs_follow_the_names():
    assert one_hand(GG5, "CCCFFFPP123m456m", "P").recomputed.payments == (-64, 64, 0, 0)
    assert one_hand(GG5, "111m333m555m777m99m", "9m").recomputed.payments == (-128, 128, 0, 0)
    swap = {"gg5_swap_xiaosanyuan_qingpeng": "true"}
    assert one_hand(GG5, "CCCFFFPP123m456m", "P", options=swap).recomputed.payments == (-128, 128, 0, 0)
    assert one_hand(GG5, "111m333m555m777m99m", "9m", options=swap).recomputed.payments == (-64, 64, 0, 0)


# -- J.6.2 附加 and J.6.3 how they combine ----------------------------------------------------------
def test_seat_wind_and_round_wind_stack():
    # B's seat wind is 南; with 南 as the round wind too its pung counts twice (风位 + 风圈).
    assert names(one_hand(JPH3, "SSS123m456p789s55m", "5m"), B) == {"鸡胡": 0, "风位": 1}
    south = one_hand(JPH3, "SSS123m456p789s55m", "5m", round_wind="S")
    assert names(south, B) == {"鸡胡": 0, "风位": 1, "风圈": 1}
    assert south.recomputed.payments == (-4, 4, 0, 0)
    west = one_hand(JPH3, "WWW123m456p789s55m", "5m", round_wind="W")
    assert names(west, B) == {"鸡胡": 0, "风圈": 1}


def test_seat_winds_rotate_with_the_deal():
    # Seat 2 deals: it is East, so seat 1 (its 上家) is North and its 南 pung is no 风位 (J-A10).
    rotated = one_hand(JPH3, "SSS123m456p789s55m", "5m", dealer=C)
    assert names(rotated, B) == {"鸡胡": 0}
    fixed = one_hand(JPH3, "SSS123m456p789s55m", "5m", dealer=C, options={"jph_seat_winds_rotate": "false"})
    assert names(fixed, B) == {"鸡胡": 0, "风位": 1}


@pytest.mark.parametrize("ruleset, x", [(JPH3, 4), (GG5, 8)])
def test_each_dragon_pung_adds_one(ruleset, x):
    verdict = one_hand(ruleset, "CCCFFF123m456p55s", "5s")
    assert names(verdict, B)["三元牌 中"] == 1 and names(verdict, B)["三元牌 发"] == 1
    assert verdict.recomputed.payments == (-x, x, 0, 0)


def test_gg5_inside_patterns_capped_at_five():
    # 碰碰胡 4 + 风位 1 + two 三元 2 = 7, capped at 5.
    verdict = one_hand(GG5, "SSSCCCFFF111m55p", "5p")
    assert names(verdict, B)["爆胡"] == -2 and sum(names(verdict, B).values()) == 5
    assert verdict.recomputed.payments == (-32, 32, 0, 0)


def test_a_special_takes_no_additions():
    # 小三元 self-drawn: 5番 alone, no 自摸 (爆胡以外不加番).
    verdict = one_hand(JPH3, "CCCFFFPP123m456m", "P", kind="self")
    assert names(verdict, B) == {"小三元": 5}
    assert verdict.recomputed.payments == (-32, 96, -32, -32)


def test_only_the_highest_special_counts():
    verdict = one_hand(JPH3, "EEESSSWWWNNNCC", "C")  # 大四喜 and 字一色: 6, not 12 (J-A15)
    assert verdict.recomputed.payments == (-64, 64, 0, 0)
    stacked = one_hand(JPH3, "EEESSSWWWNNNCC", "C", options={"jph_specials_highest_only": "false"})
    assert stacked.recomputed.payments == (-4096, 4096, 0, 0)


def test_pinghu_and_half_suit_add_unless_the_option_says_otherwise():
    assert one_hand(JPH3, "123m456m789m23mNN1m", "1m").recomputed.payments == (-8, 8, 0, 0)  # 1 + 2 = 3
    single = {"jph_pinghu_hunyise_add": "false"}
    assert one_hand(GG5, "123m456m789m234mEE", "4m", options=single).recomputed.payments == (-8, 8, 0, 0)


def ting(b: HandBuilder, sc: Scene, declare: bool) -> None:
    """B draws 5m and lets N go (declaring 听 with it, or not), then wins on A's 5m."""
    b.discard(A, sc.hands[A][-1]).draw(B, "5m").discard(B, "N", ready=declare)  # 0-2
    b.draw_discard(C, sc.spare()).draw_discard(D, sc.spare()).draw(A, sc.spare()).discard(A, "5m")  # 3-8
    b.win(B, "discard", "5m")  # 9


TING = {A: "5m", B: "123m456p789s234sN"}


def test_gg5_ting_adds_one_only_with_a_logged_declaration():
    declared = Scene(GG5, TING, reserved="5m").run(lambda b, sc: ting(b, sc, True))
    assert names(declared, B) == {"平胡": 2, "听牌": 1}
    assert declared.recomputed.payments == (-8, 8, 0, 0)
    silent = Scene(GG5, TING, reserved="5m").run(lambda b, sc: ting(b, sc, False))
    assert silent.recomputed.payments == (-4, 4, 0, 0)
    off = Scene(GG5, TING, reserved="5m", options={"gg5_ting_bonus": "false"}).run(lambda b, sc: ting(b, sc, True))
    assert off.recomputed.payments == (-4, 4, 0, 0)


def test_jph3_has_no_ting_declaration():
    Scene(JPH3, TING, reserved="5m").run(lambda b, sc: ting(b, sc, True), expect=["ILLEGAL_ACTION@2"])
    on = Scene(JPH3, TING, reserved="5m", options={"jph3_ting_declaration": "true"})
    assert on.run(lambda b, sc: ting(b, sc, True)).recomputed.payments == (-4, 4, 0, 0)  # 平胡 1 + 听 1


# -- J.5 winning hands --------------------------------------------------------------------------------
def test_jph3_seven_pairs_is_no_win_unless_enabled():
    def play(b, sc):
        b.discard(A, "7m").win(B, "discard", "7m")

    Scene(JPH3, {A: "7m", B: "1122m3344p5566s7m"}).run(play, expect=["FALSE_WIN@1"])
    allowed = one_hand(JPH3, "1122m3344p5566s77m", "7m", options={"jph3_allow_qidui": "true"})
    assert names(allowed, B) == {"七对": 4}
    assert allowed.recomputed.payments == (-16, 16, 0, 0)


def nine_gates_open(b: HandBuilder, sc: Scene) -> None:
    """B takes A's 1m by 碰, then wins on A's 5m: 1112345678999m + 5m with the 111m exposed."""
    b.discard(A, "1m").pon(B, "1m").discard(B, "N")  # 0-2
    b.draw_discard(C, sc.spare()).draw_discard(D, sc.spare()).draw(A, sc.spare()).discard(A, "5m")  # 3-8
    b.win(B, "discard", "5m")  # 9


def test_nine_gates_must_be_concealed():
    hands = {A: "1m5m", B: "11m2345678999mN"}
    assert names(one_hand(JPH3, "11123455678999m", "5m"), B) == {"九莲宝灯": 6}
    opened = Scene(JPH3, hands).run(nine_gates_open)
    assert names(opened, B) == {"清一色": 4}  # J-A6
    loose = Scene(JPH3, hands, options={"jph_jiulian_concealed": "false"}).run(nine_gates_open)
    assert names(loose, B) == {"九莲宝灯": 6}


# -- J.6.3 floors and J.6.4 who pays --------------------------------------------------------------------
def exposed_kong_flower(b: HandBuilder, sc: Scene) -> None:
    """A lets 7s go; B holds a concealed 777s, makes a 直杠 and wins on the replacement 5m."""
    b.discard(A, "7s").kong(B, "exposed", "7s").draw(B, "5m", replacement=True).win(B, "self", "5m")


def test_jph3_kong_flower_after_a_direct_kong_is_paid_by_the_discarder():
    # (3) 杠上开花包杠: 鸡胡 + 自摸, floored to 3番 = 8; A, who fed the kong, pays all three shares.
    hands = {A: "7s", B: "777s234m678p55s34m"}
    verdict = Scene(JPH3, hands, reserved="5m").run(exposed_kong_flower)
    assert verdict.recomputed.payments == (-24, 24, 0, 0)
    assert any("杠上开花包杠" in line for line in verdict.recomputed.lines)
    # (5) has no 包杠: the three others pay the floored 5番 each.
    assert Scene(GG5, hands, reserved="5m").run(exposed_kong_flower).recomputed.payments == (-32, 96, -32, -32)


def haidi(b: HandBuilder, sc: Scene) -> None:
    """Everyone lets its draws go to the last live tile, which D (the seat it falls to) draws and wins on."""
    b.discard(A, sc.hands[A][-1]).play_out(B, end=False, leave=1)
    assert b.next_seat == D
    b.draw(D, "9p").win(D, "self", "9p")


@pytest.mark.parametrize("ruleset, x", [(JPH3, 8), (GG5, 32)])
def test_last_tile_self_draw_pays_the_cap(ruleset, x):
    # 海底捞月: 平胡 + 自摸 is below the cap, so it pays the cap. The other 9p are held by A and C.
    hands = {A: "9p", C: "9p", D: "123m456p789s234s9p"}
    verdict = Scene(ruleset, hands, pin_last="9p").run(haidi)
    assert "海底捞月 按爆胡计" in names(verdict, D)
    assert verdict.recomputed.payments == (-x, -x, -x, 3 * x)


def nine_down(b: HandBuilder, sc: Scene, self_draw: bool) -> None:
    """B takes 3m from A (吃), 7s from D (碰) and 9p from C (碰: its 3rd exposed set, nine tiles down,
    fed by C), then wins on D's 5p or draws it."""
    b.discard(A, "3m").chi(B, "12m").discard(B, "N")  # 0-2
    b.draw_discard(C, sc.spare()).draw(D, sc.spare()).discard(D, "7s").pon(B, "7s").discard(B, "W")  # 3-8
    b.draw(C, sc.spare()).discard(C, "9p").pon(B, "9p").discard(B, "P")  # 9-12: fed by C
    if self_draw:
        b.draw_discard(C, sc.spare()).draw_discard(D, sc.spare()).draw_discard(A, sc.spare())  # 13-18
        b.draw(B, "5p").win(B, "self", "5p")
    else:
        b.draw_discard(C, sc.spare()).draw(D, sc.spare()).discard(D, "5p").win(B, "discard", "5p")  # 13-16


NINE_DOWN = {A: "3m", B: "12m77s99p234s5pNWP", C: "9p", D: "7s5p"}


def test_gg5_nine_tiles_down_the_feeder_pays_the_whole_win():
    # 九张落地包胡: 鸡胡 1番 = 2 on D's discard is paid by C; a 自摸 (2番 = 4) by C alone, 3 × 4.
    scene = Scene(GG5, NINE_DOWN, reserved="5p")
    assert scene.run(lambda b, sc: nine_down(b, sc, False)).recomputed.payments == (0, 2, -2, 0)
    assert scene.run(lambda b, sc: nine_down(b, sc, True)).recomputed.payments == (0, 12, -12, 0)
    discard = Scene(GG5, NINE_DOWN, reserved="5p", options={"gg5_nine_down_bao_on_discard": "false"})
    assert discard.run(lambda b, sc: nine_down(b, sc, False)).recomputed.payments == (0, 2, 0, -2)
    # (3) has no 九张落地 rule.
    assert Scene(JPH3, NINE_DOWN, reserved="5p").run(lambda b, sc: nine_down(b, sc, True)).recomputed.payments \
        == (-2, 6, -2, -2)
    # 全铳 (J-A11 option): D's discard would cost D all three shares, so C pays those in D's place (J-A13).
    full = Scene(GG5, NINE_DOWN, reserved="5p", options={"jph_discarder_pays_three": "true"})
    assert full.run(lambda b, sc: nine_down(b, sc, False)).recomputed.payments == (0, 6, -6, 0)


def four_winds(b: HandBuilder, sc: Scene) -> None:
    """D takes E, S and W by 碰 (from C, B and C) and A's N for its fourth wind set (also its twelve
    tiles down), then self-draws 5m: 大四喜."""
    b.discard(A, sc.hands[A][-1]).draw(B, sc.spare()).discard(B, "S").pon(D, "S").discard(D, sc.hands[D][-1])  # 0-4
    b.draw_discard(A, sc.spare()).draw_discard(B, sc.spare()).draw(C, sc.spare()).discard(C, "E")  # 5-10
    b.pon(D, "E").discard(D, sc.hands[D][-2]).draw_discard(A, sc.spare()).draw_discard(B, sc.spare())  # 11-16
    b.draw(C, sc.spare()).discard(C, "W").pon(D, "W").discard(D, sc.hands[D][-3])  # 17-20
    b.draw(A, sc.spare()).discard(A, "N").pon(D, "N").discard(D, sc.hands[D][-4])  # 21-24
    b.draw_discard(A, sc.spare()).draw_discard(B, sc.spare()).draw_discard(C, sc.spare())  # 25-30
    b.draw(D, "5m").win(D, "self", "5m")


def test_jph3_big_four_winds_self_draw_is_paid_by_the_feeder_of_the_fourth_wind():
    hands = {A: "N", B: "S", C: "EW", D: "EESSWWNN5m"}
    verdict = Scene(JPH3, hands, reserved="5m").run(four_winds)
    assert names(verdict, D) == {"大四喜": 6}
    assert verdict.recomputed.payments == (-192, 0, 0, 192)


def test_big_four_winds_liability_holds_where_twelve_tiles_down_does_not():
    """A fed B's twelve tiles down first, so 包先不包后 frees it from D's; the 大四喜 rule (J-A12) still
    holds it liable for the fourth wind set it fed."""
    from referee.outcome import CallInfo, WinInfo
    from referee import actions as act
    from referee.state import CHI, PON, Meld

    calls = [CallInfo(B, CHI, 2, A, 1, 1), CallInfo(B, PON, 4, C, 5, 2), CallInfo(B, CHI, 14, A, 9, 3),
             CallInfo(B, CHI, 24, A, 13, 4)]  # A brings B to twelve tiles down
    calls += [CallInfo(D, PON, w, C, 20 + w, n) for n, w in enumerate((27, 28, 29), 1)]
    calls += [CallInfo(D, PON, 30, A, 60, 4)]  # A's N: D's fourth wind set and twelve tiles down
    melds = [Meld(PON, w, C) for w in (27, 28, 29)] + [Meld(PON, 30, A)]
    win = WinInfo(D, act.SELF_WIN, 4, None, T.counts(tiles("55m")), melds, 70)
    rules = get_ruleset(JPH3)
    assert rules.settle(Outcome(A, [win], calls=calls)).payments == (-192, 0, 0, 192)
    off = get_ruleset(JPH3, {"jph3_dasixi_bao": "false"})
    assert off.settle(Outcome(A, [win], calls=calls)).payments == (-64, -64, -64, 192)
    # Had A not fed B first, the twelve-tiles-down rule would cover it anyway.
    assert off.settle(Outcome(A, [win], calls=calls[4:])).payments == (-192, 0, 0, 192)


def test_liability_order_option():
    """When two 包 rules name different seats (SPEC silent), jph_bao_order says which pays: the event
    (杠上开花包杠: who fed the 直杠) or the feeder of the fourth exposed set (十二张落地). The outcome is
    built by hand so that the two differ."""
    from referee.outcome import CallInfo, KongInfo, WinInfo
    from referee import actions as act
    from referee.state import EXPOSED, KONG, PON, Meld

    calls = [CallInfo(B, PON, 0, A, 1, 1), CallInfo(B, PON, 9, A, 3, 2), CallInfo(B, PON, 18, D, 5, 3),
             CallInfo(B, "kong", 27, C, 7, 4)]
    melds = [Meld(PON, 0, A), Meld(PON, 9, A), Meld(PON, 18, D), Meld(KONG, 27, C, EXPOSED)]
    win = WinInfo(B, act.SELF_WIN, 4, None, T.counts(tiles("55m")), melds, 9, after_replacement=True)
    outcome = Outcome(A, [win], kongs=[KongInfo(B, EXPOSED, 27, C, 8)], calls=calls)
    assert get_ruleset(JPH3).settle(outcome).payments == (0, 24, -24, 0)  # 碰碰胡 + 自摸 = 3 → 8, C pays
    feed_first = get_ruleset(JPH3, {"jph_bao_order": "feed_first"})
    assert feed_first.settle(outcome).payments == (0, 24, -24, 0)  # C fed the fourth set as well
    calls[3] = CallInfo(B, PON, 27, A, 7, 4)  # now A feeds the fourth 碰, C only the later 直杠's tile
    outcome.calls = calls
    assert get_ruleset(JPH3).settle(outcome).payments == (0, 24, -24, 0)
    assert feed_first.settle(outcome).payments == (-24, 24, 0, 0)


def test_discarder_pays_three_shares_option():
    verdict = one_hand(JPH3, "123m456m789m234m55m", "5m", options={"jph_discarder_pays_three": "true"})
    assert verdict.recomputed.payments == (-48, 48, 0, 0)


def test_kong_money_option():
    from referee.outcome import KongInfo
    from referee.state import CONCEALED

    drawn = Outcome(A, kongs=[KongInfo(B, CONCEALED, 4, None, 3)], exhaustive=True)
    assert get_ruleset(JPH3).settle(drawn).payments == (0, 0, 0, 0)  # J-A14: no kong scores
    assert get_ruleset(JPH3, {"jph_kong_money": "tdh"}).settle(drawn).payments == (-2, 6, -2, -2)


# -- J.2 / J.4 calls and robbing ------------------------------------------------------------------------
ROB_HAND = {B: "111s456m789m22s12p", D: "333p"}


def test_robbing_a_concealed_kong_is_not_allowed():
    def play(b, sc):
        b.discard(A, sc.hands[A][-1]).draw_discard(B, sc.spare()).draw_discard(C, sc.spare())  # 0-4
        b.draw(D, "3p").kong(D, "concealed", "3p").win(B, "rob", "3p")  # 5-7

    Scene(JPH3, ROB_HAND, reserved="3p").run(play, expect=["ROB_NOT_ROBBABLE@7"])


def test_robbing_a_direct_kong_is_not_allowed_but_winning_on_the_discard_is():
    def play(kind):
        def script(b, sc):
            b.discard(A, "3p").kong(D, "exposed", "3p").win(B, kind, "3p")  # 0-2
        return script

    scene = Scene(GG5, {**ROB_HAND, A: "3p"})
    scene.run(play("rob"), expect=["ROB_NOT_ROBBABLE@2"])
    ron = scene.run(play("discard"))  # 胡 outranks the 杠: A pays B's 鸡胡 on its discard
    assert ron.winners == (B,) and ron.recomputed.payments == (-2, 2, 0, 0)


def test_chi_needs_the_two_other_tiles_in_hand():
    """A 吃 showing a tile the seat does not hold is an illegal call (SPEC 0.3), whoever may 吃."""
    def missing(b, sc):
        b.discard(A, "3m").chi(B, "12m").discard(B, sc.hands[B][-1])  # 0-2: B holds no 2m
        b.draw_discard(C, sc.spare()).draw_discard(D, sc.spare()).draw(A, sc.spare()).discard(A, "5p")  # 3-8
        b.win(D, "discard", "5p")  # 9

    hands = {A: "3m5p", B: "1m", D: "111s456p789s234s5p"}
    for ruleset in (JPH3, GG5):
        Scene(ruleset, hands, reserved="2m2m2m2m").run(missing, expect=["ILLEGAL_CALL@1"])


def test_chi_only_from_the_left_and_pon_before_chi():
    def wrong_seat(b, sc):
        b.discard(A, "3m").chi(C, "12m").discard(C, sc.hands[C][-1])  # 0-2
        b.draw_discard(D, sc.spare()).draw(A, sc.spare()).discard(A, "5p").win(D, "discard", "5p")  # 3-7

    hands = {A: "3m5p", C: "12m", D: "111s456p789s234s5p"}
    Scene(JPH3, hands).run(wrong_seat, expect=["CHI_NOT_FROM_LEFT@1"])

    def chi_over_pon(b, sc):
        b.discard(A, "3m").chi(B, "12m").pon(C, "3m").discard(B, sc.hands[B][-1])  # 0-3
        b.draw_discard(C, sc.spare()).draw_discard(D, sc.spare()).draw(A, sc.spare()).discard(A, "5p")  # 4-9
        b.win(D, "discard", "5p")  # 10

    hands = {A: "3m5p", B: "12m", C: "33m", D: "111s456p789s234s5p"}
    Scene(GG5, hands).run(chi_over_pon, expect=["CLAIM_PRIORITY@1"])


# -- J.1 the dealer -------------------------------------------------------------------------------------
def test_next_dealer():
    from referee import actions as act
    from referee.outcome import WinInfo

    def ron(seat):
        return WinInfo(seat, act.RON, 4, (seat + 2) % 4, T.counts(tiles("123m456p789s234s55m")), [], 1)

    for ruleset in (JPH3, GG5):
        rules = get_ruleset(ruleset)
        assert rules.next_dealer(Outcome(A, exhaustive=True)) == A  # 流局: the dealer deals again
        assert rules.next_dealer(Outcome(A, [ron(A)])) == A
        assert rules.next_dealer(Outcome(A, [ron(C)])) == B  # a non-dealer won: the dealer's 下家
        assert rules.next_dealer(Outcome(C, [ron(A)])) == D
        assert rules.next_dealer(Outcome(A, [ron(A), ron(C)])) == A  # (3) 一炮多响 with the dealer
        other = get_ruleset(ruleset, {"jph_dealer_repeats_among_winners": "false"})
        assert other.next_dealer(Outcome(A, [ron(A), ron(C)])) == B


def test_no_reserve_unless_the_option_sets_one():
    from referee.state import Wall

    wall = Wall([0] * 136)
    wall.front = 53
    assert get_ruleset(GG5).live_tiles(wall) == 83
    assert get_ruleset(GG5, {"jph_reserve_tiles": "14"}).live_tiles(wall) == 69


# -- J.5 winning shapes against a brute-force oracle ------------------------------------------------------
def naive_standard(counts: list[int], need_pair: bool = True) -> bool:
    """Four sets and a pair by exhaustive search (no tables)."""
    first = next((t for t, c in enumerate(counts) if c), None)
    if first is None:
        return not need_pair
    if need_pair and counts[first] >= 2:
        counts[first] -= 2
        ok = naive_standard(counts, False)
        counts[first] += 2
        if ok:
            return True
    if counts[first] >= 3:
        counts[first] -= 3
        ok = naive_standard(counts, need_pair)
        counts[first] += 3
        if ok:
            return True
    if first < 27 and first % 9 <= 6 and counts[first + 1] and counts[first + 2]:
        for t in (first, first + 1, first + 2):
            counts[t] -= 1
        ok = naive_standard(counts, need_pair)
        for t in (first, first + 1, first + 2):
            counts[t] += 1
        return ok
    return False  # the lowest tile fits in no piece


def naive_win(counts: list[int], seven_pairs: bool) -> bool:
    if sum(counts) != 14 or max(counts) > 4:
        return False
    orphans = T.TERMINALS_AND_HONORS
    if all(counts[t] for t in orphans) and sum(counts[t] for t in orphans) == 14:
        return True
    if seven_pairs and all(c in (0, 2, 4) for c in counts):
        return True
    return naive_standard(list(counts))


@pytest.mark.parametrize("ruleset", [JPH3, GG5])
def test_waits_match_a_brute_force_oracle(ruleset):
    """Every kind t is a wait of a concealed 13-tile hand exactly when hand + t is four sets and a
    pair, 十三幺, or (贵港) seven pairs; no hand waits on a fifth copy (SPEC 0.3)."""
    rules = get_ruleset(ruleset)
    rng = random.Random(f"jph-waits-{ruleset}")
    checked = 0
    for _ in range(600):
        wall = [t for t in range(34) for _ in range(4)]
        rng.shuffle(wall)
        # Bias toward ready hands: half the hands are a winning hand less one tile.
        hand = T.counts(wall[:13])
        if rng.random() < 0.5:
            suit = rng.randrange(3) * 9
            pieces = [rng.choice([[suit + r] * 3, [suit + r, suit + r + 1, suit + r + 2]]) for r in
                      (rng.randrange(7) for _ in range(4))] + [[rng.randrange(34)] * 2]
            full = T.counts(t for p in pieces for t in p)
            if max(full) > 4:
                continue
            full[rng.choice([t for t, c in enumerate(full) if c])] -= 1
            hand = full
        expected = tuple(t for t in range(34) if hand[t] < 4 and naive_win(
            [c + (k == t) for k, c in enumerate(hand)], rules.seven_pairs))
        assert rules.waits(hand, []) == expected, T.format_counts(hand)
        checked += bool(expected)
    assert checked > 100


def test_a_robbed_kong_paid_as_a_discard_is_not_labelled_paid_for_all_three():
    """jph3_rob_kong_as_self_draw=false: the konger pays one share, as a discarder, but its line said
    抢杠包三家 ("pays for all three") all the same (found by an independent fault injector)."""
    import pathlib

    from referee import records

    record = records.read_record(pathlib.Path(__file__).resolve().parent.parent / "samples" / "guangdong_jph3" /
                                 "clean_robbed_kong.textproto")
    assert any("抢杠包三家" in line for line in verify_record(record).recomputed.lines)
    lines = verify_record(record, {"jph3_rob_kong_as_self_draw": "false"}).recomputed.lines
    assert lines == ("seat 3 -> seat 1: 1 (win robbing kong: 鸡胡 = 0番, 2^0 = 1, 抢杠当点炮)",)
