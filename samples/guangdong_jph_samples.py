"""The 鸡平胡 family samples (SPEC GD-JPH), registered into make_samples and written to
samples/guangdong_jph3/ (爆胡 3番) and samples/guangdong_gg5/ (爆胡 5番).

Seat 0 (A) deals and is East; B (seat 1) is South, C West, D North; the round wind is East.
Each script fixes the tiles its story needs (whole hands, or a few tiles of a seat); the other
tiles are junk dealt from a seeded shuffle, and `scene` takes the first seed whose record replays
with exactly the findings the sample expects (so that junk never wins or calls by accident). The
expectations and the payments in each header are worked out by hand from SPEC J.6.
"""
import random

from make_samples import HandBuilder, sample, with_claim
from referee import tiles as T
from referee.rules import get_ruleset
from referee.verify import verify_record

JPH3, GG5 = "guangdong_jph3", "guangdong_gg5"
SHORT = {JPH3: "jph3", GG5: "gg5"}  # game ids: jph3-..., gg5-...
A, B, C, D = 0, 1, 2, 3


class Table:
    """The hands of one scene: fixed tiles first, junk after (hands[s][-1] is junk where a seat has any)."""

    def __init__(self, hands, spare):
        self.hands, self._spare = hands, spare

    def spare(self) -> int:
        """A tile from the rest of the set, for a seat that only draws and lets go (摸打)."""
        return next(self._spare)

    def junk(self, seat: int, k: int = 1) -> int:
        return self.hands[seat][-k]


def scene(game_id: str, ruleset: str, fixed: dict, play, expect=(), reserved: str = "", options=None,
          round_wind: str = "E", pin_last: str = "", claim: bool = True):
    """The record of the first seed whose replay reports exactly `expect` (CODE@index, @LAST for the
    last event); with claim the claimed result is the ruleset's own settlement."""
    rules = get_ruleset(ruleset, options)
    fixed = {s: T.parse(h) for s, h in fixed.items()}
    used = [t for h in fixed.values() for t in h] + T.parse(reserved) + T.parse(pin_last)
    for seed in range(500):
        pool = [t for t in rules.tile_kinds for _ in range(rules.copies - used.count(t))]
        random.Random(f"{game_id}/{seed}").shuffle(pool)
        hands, at = [], 0
        for s in range(4):
            size = (14 if s == A else 13) - len(fixed.get(s, []))
            hands.append(fixed.get(s, []) + pool[at:at + size])
            at += size
        table = Table(hands, iter(pool[at:]))
        b = HandBuilder(game_id, ruleset=ruleset, options=options, round_wind=round_wind, seed=seed).deal(*hands)
        if pin_last:
            b.pin_last(pin_last)
        try:
            play(b, table)
            record = b.build(claim=claim, strict=not expect)
        except (StopIteration, ValueError):
            continue
        verdict = verify_record(record)
        last = len(record.events) - 1
        wanted = sorted(e.replace("@LAST", f"@{last}") for e in expect)
        if sorted(f"{v.code}@{'record' if v.event_index is None else v.event_index}"
                  for v in verdict.violations) == wanted:
            return record
    raise ValueError(f"{game_id}: no deal gives the expected verdict")


def both(name: str, status: str, expect: list, about: dict):
    """Register one sample for each ruleset: about[ruleset] is its header line."""
    def register(fn):
        for ruleset, text in about.items():
            sample(name, status, expect, text, ruleset)(lambda r=ruleset: fn(r))
        return fn
    return register


# -- the way a hand ends ---------------------------------------------------------------------------
READY_B = "123m456p789s34sEE"  # B waits on 2s/5s: 平胡 (123m 456p 789s 234s/345s, pair EE)


@both("clean_discard_win", "clean", [], {
    JPH3: "B wins on A's 2s with 平胡: 1番, A pays 2",
    GG5: "B wins on A's 2s with 平胡: 2番, A pays 4"})
def _(ruleset):
    def play(b, t):
        b.discard(A, t.junk(A)).draw_discard(B, t.spare()).draw_discard(C, t.spare()).draw_discard(D, t.spare())
        b.draw(A, t.spare()).discard(A, "2s").win(B, "discard", "2s")  # 7-9
    return scene(f"{SHORT[ruleset]}-discard-win", ruleset, {A: "2s", B: READY_B}, play)


@both("clean_self_draw", "clean", [], {
    JPH3: "B draws 5s: 平胡 1 + 自摸 1 = 2番, 4 from each of the three others",
    GG5: "B draws 5s: 平胡 2 + 自摸 1 = 3番, 8 from each of the three others"})
def _(ruleset):
    def play(b, t):
        b.discard(A, t.junk(A)).draw(B, "5s").win(B, "self", "5s")
    return scene(f"{SHORT[ruleset]}-self-draw", ruleset, {B: READY_B}, play, reserved="5s")


THREE_WINNERS = {A: "5p", B: "111s345m789m77s46p", C: "234m678m234s66s46p", D: "123p456p789p99p46p"}


@both("clean_one_discard_three_winners", "clean", [], {
    JPH3: "一炮三响 on A's 5p: B 鸡胡, C 平胡 and D 清一色 pay at least the cap: 3/3/4番, A pays 8 + 8 + 16",
    GG5: "一炮三响 on A's 5p: B 鸡胡, C 平胡 and D 清一色 pay at least the cap: 5番 each, A pays 3 × 32"})
def _(ruleset):
    def play(b, t):
        b.discard(A, "5p").win(B, "discard", "5p").win(C, "discard", "5p").win(D, "discard", "5p")
    return scene(f"{SHORT[ruleset]}-three-winners", ruleset, THREE_WINNERS, play)


@both("clean_robbed_kong", "clean", [], {
    JPH3: "B (鸡胡) robs D's 补杠 of 3p: 当自摸, the 3番 floor, D pays all three shares: 3 × 8 (J-A2)",
    GG5: "B (鸡胡) robs D's 补杠 of 3p: 当自摸, the 5番 floor, D pays all three shares: 3 × 32"})
def _(ruleset):
    def play(b, t):
        b.discard(A, "3p").pon(D, "3p").discard(D, t.junk(D))  # 0-2
        b.draw_discard(A, t.spare()).draw(B, "2p").discard(B, "N")  # 3-6
        b.draw_discard(C, t.spare()).draw(D, "3p").kong(D, "added", "3p").win(B, "rob", "3p")  # 7-11
    return scene(f"{SHORT[ruleset]}-robbed-kong", ruleset, {A: "3p", B: "111s456m789m22s1pN", D: "33p"}, play,
                 reserved="2p3p")


def concealed_kong_flower(b, t):
    """B draws its fourth 2p, makes a 暗杠 and wins on the replacement 5m."""
    b.discard(A, t.junk(A)).draw(B, "2p").kong(B, "concealed", "2p").draw(B, "5m", replacement=True)
    b.win(B, "self", "5m")


@both("clean_kong_replacement_win", "clean", [], {
    JPH3: "杠上开花 after a 暗杠: 鸡胡 + 自摸 = 1番 is paid as the 3番 cap, 8 from each",
    GG5: "杠上开花 after a 暗杠: 鸡胡 + 自摸 = 2番 is paid as the 5番 cap, 32 from each"})
def _(ruleset):
    return scene(f"{SHORT[ruleset]}-kong-flower", ruleset, {B: "222p234m678s55s34m"}, concealed_kong_flower,
                 reserved="2p5m")


@sample("clean_kong_flower_liable", "clean", [],
        "杠上开花包杠: B makes a 直杠 on A's 7s and wins on the replacement; 3番 floor, A pays all three shares, 24",
        JPH3)
def _():
    def play(b, t):
        b.discard(A, "7s").kong(B, "exposed", "7s").draw(B, "5m", replacement=True).win(B, "self", "5m")
    return scene("jph3-kong-flower-liable", JPH3, {A: "7s", B: "777s234m678p55s34m"}, play, reserved="5m")


@both("clean_exhaustive_draw", "clean", [], {
    JPH3: "流局: every tile is drawn and nobody wins; nobody pays, the dealer deals again",
    GG5: "流局: every tile is drawn and nobody wins; nobody pays, the dealer deals again"})
def _(ruleset):
    return scene(f"{SHORT[ruleset]}-exhaustive", ruleset, {}, lambda b, t: b.discard(A, t.junk(A)).play_out(B))


def last_tile(b, t):
    """Every seat lets its draws go to the last live tile, which falls to D: 海底捞月."""
    b.discard(A, t.junk(A)).play_out(B, end=False, leave=1)
    b.draw(D, "9p").win(D, "self", "9p")


@both("clean_last_tile", "clean", [], {
    JPH3: "海底捞月: D self-draws the last tile with 平胡 + 自摸 = 2番, paid as the 3番 cap: 8 from each",
    GG5: "海底捞月: D self-draws the last tile with 平胡 + 自摸 = 3番, paid as the 5番 cap: 32 from each"})
def _(ruleset):
    return scene(f"{SHORT[ruleset]}-last-tile", ruleset, {A: "9p", C: "9p", D: "123m456p789s234s9p"}, last_tile,
                 pin_last="9p")


LOUHU = {B: READY_B, C: "2s", D: "2s5s"}


def louhu(b, t, tile):
    """B lets C's 2s go (漏胡, noted), then D lets `tile` go and B declares 胡 on it."""
    b.discard(A, t.junk(A)).draw_discard(B, t.spare())  # 0-2
    b.draw(C, t.spare()).discard(C, "2s").pass_(B)  # 3-5
    b.draw(D, t.spare()).discard(D, tile).win(B, "discard", tile)  # 6-8


@both("clean_missed_win_note", "clean", ["MISSED_WIN@5"], {
    JPH3: "B passes C's 2s (漏胡, noted), then wins on D's 5s: the ban covers only the 2s kind (J.4)",
    GG5: "B passes C's 2s (漏胡, noted), then wins on D's 5s: the ban covers only the 2s kind (J-A5)"})
def _(ruleset):
    return scene(f"{SHORT[ruleset]}-missed-win", ruleset, LOUHU, lambda b, t: louhu(b, t, "5s"), expect=["MISSED_WIN@5"])


TWELVE_DOWN = {A: "3m6p9s", B: "12m45p78s55m9pNWCS", C: "5m"}


def twelve_down(b, t):
    """B takes A's 3m (吃), C's 5m (碰), A's 6p and 9s (吃): the 9s makes twelve tiles down, fed by A."""
    b.discard(A, "3m").chi(B, "12m").discard(B, "N")  # 0-2
    b.draw(C, t.spare()).discard(C, "5m").pon(B, "5m").discard(B, "W")  # 3-6
    b.draw_discard(C, t.spare()).draw_discard(D, t.spare())  # 7-10
    b.draw(A, t.spare()).discard(A, "6p").chi(B, "45p").discard(B, "C")  # 11-14
    b.draw_discard(C, t.spare()).draw_discard(D, t.spare())  # 15-18
    b.draw(A, t.spare()).discard(A, "9s").chi(B, "78s").discard(B, "S")  # 19-22
    b.draw_discard(C, t.spare()).draw_discard(D, t.spare()).draw_discard(A, t.spare())  # 23-28
    b.draw(B, "9p").win(B, "self", "9p")  # 29-30


def twelve_down_record(game_id: str):
    return scene(game_id, JPH3, TWELVE_DOWN, twelve_down, reserved="9p")


@sample("clean_twelve_down", "clean", [],
        "十二张落地包自摸 (JPH3-3): A fed B's fourth exposed set; B's 鸡胡 自摸 = 1番, X = 2, A pays all 6", JPH3)
def _():
    return twelve_down_record("jph3-twelve-down")


@sample("clean_big_four_winds", "clean", [],
        "大四喜包自摸: D's fourth exposed wind set is A's N; D self-draws 大四喜 (6番, 64), A pays 192", JPH3)
def _():
    def play(b, t):
        b.discard(A, t.junk(A)).draw(B, t.spare()).discard(B, "S").pon(D, "S").discard(D, t.junk(D))  # 0-4
        b.draw_discard(A, t.spare()).draw_discard(B, t.spare()).draw(C, t.spare()).discard(C, "E")  # 5-10
        b.pon(D, "E").discard(D, t.junk(D, 2)).draw_discard(A, t.spare()).draw_discard(B, t.spare())  # 11-16
        b.draw(C, t.spare()).discard(C, "W").pon(D, "W").discard(D, t.junk(D, 3))  # 17-20
        b.draw(A, t.spare()).discard(A, "N").pon(D, "N").discard(D, t.junk(D, 4))  # 21-24
        b.draw_discard(A, t.spare()).draw_discard(B, t.spare()).draw_discard(C, t.spare())  # 25-30
        b.draw(D, "5m").win(D, "self", "5m")  # 31-32
    return scene("jph3-big-four-winds", JPH3, {A: "N", B: "S", C: "EW", D: "EESSWWNN5m"}, play, reserved="5m")


COIN = {"jph_coin_conversion": "true", "jph_coin_room": "600", "jph_coin_fee": "250"}


@sample("clean_coin_room", "clean", [],
        "JPH3-1, a QQ coin room (N = 600, A = 250): the dealer self-draws 平胡 + 自摸, X = 4; it gains "
        "600×4×3 − 250 = 6950, each loser pays 600×4 + 250 = 2650", JPH3)
def _():
    return scene("jph3-coin", JPH3, {A: "123m456p789s234s55m"}, lambda b, t: b.win(A, "self", "5m"), options=COIN)


NINE_DOWN = {A: "3m", B: "12m77s99p234s5pNWP", C: "9p", D: "7s5p"}


def nine_down(b, t):
    """B takes A's 3m (吃), D's 7s (碰) and C's 9p (碰: nine tiles down, fed by C), then wins on D's 5p."""
    b.discard(A, "3m").chi(B, "12m").discard(B, "N")  # 0-2
    b.draw_discard(C, t.spare()).draw(D, t.spare()).discard(D, "7s").pon(B, "7s").discard(B, "W")  # 3-8
    b.draw(C, t.spare()).discard(C, "9p").pon(B, "9p").discard(B, "P")  # 9-12
    b.draw_discard(C, t.spare()).draw(D, t.spare()).discard(D, "5p").win(B, "discard", "5p")  # 13-16


@sample("clean_nine_down", "clean", [],
        "九张落地包胡: C fed B's third exposed set; B's 鸡胡 (1番, 2) on D's 5p is paid by C, not D", GG5)
def _():
    return scene("gg5-nine-down", GG5, NINE_DOWN, nine_down)


TING = {A: "5m", B: "123m456p789s234sN"}


def ting(b, t, twice: bool = False):
    """B draws 5m and declares 听 letting N go; later wins on A's 5m."""
    b.discard(A, t.junk(A)).draw(B, "5m").discard(B, "N", ready=True)  # 0-2
    b.draw_discard(C, t.spare()).draw_discard(D, t.spare())  # 3-6
    if twice:
        b.draw_discard(A, t.spare()).draw(B, "E").discard(B, "E", ready=True)  # 7-10: a second 听
        b.draw_discard(C, t.spare()).draw_discard(D, t.spare())  # 11-14
    b.draw(A, t.spare()).discard(A, "5m").win(B, "discard", "5m")


@sample("clean_ting_win", "clean", [],
        "B declares 听 with its discard and wins on A's 5m: 平胡 2 + 听牌 1 = 3番, A pays 8 (J-A4)", GG5)
def _():
    return scene("gg5-ting", GG5, TING, ting, reserved="5m")


@sample("clean_seven_pairs", "clean", [], "B wins on A's 7m with 七对 (5番, a special): A pays 32", GG5)
def _():
    return scene("gg5-seven-pairs", GG5, {A: "7m", B: "1122m3344p5566s7m"},
                 lambda b, t: b.discard(A, "7m").win(B, "discard", "7m"))


# -- one record per violation of Appendix B (GD-JPH3/GG5) --------------------------------------------
@both("chi_not_from_left", "violations", ["CHI_NOT_FROM_LEFT@1"], {
    JPH3: "C takes A's 3m by 吃; only A's 下家 (B) may",
    GG5: "C takes A's 3m by 吃; only A's 下家 (B) may (只有下家有权利吃牌)"})
def _(ruleset):
    def play(b, t):
        b.discard(A, "3m").chi(C, "12m").discard(C, t.junk(C))  # 0-2
        b.draw_discard(D, t.spare()).draw(A, t.spare()).discard(A, "5p").win(D, "discard", "5p")  # 3-7
    return scene(f"{SHORT[ruleset]}-chi-not-left", ruleset, {A: "3m5p", C: "12m", D: "111s456p789s234s5p"}, play,
                 expect=["CHI_NOT_FROM_LEFT@1"])


@both("claim_priority", "violations", ["CLAIM_PRIORITY@1"], {
    JPH3: "B's 吃 takes A's 3m over C's 碰 of it (碰比吃优先)",
    GG5: "B's 吃 takes A's 3m over C's 碰 of it (碰比吃优先)"})
def _(ruleset):
    def play(b, t):
        b.discard(A, "3m").chi(B, "12m").pon(C, "3m").discard(B, t.junk(B))  # 0-3
        b.draw_discard(C, t.spare()).draw_discard(D, t.spare()).draw(A, t.spare()).discard(A, "5p")  # 4-9
        b.win(D, "discard", "5p")  # 10
    return scene(f"{SHORT[ruleset]}-chi-over-pon", ruleset, {A: "3m5p", B: "12m", C: "33m", D: "111s456p789s234s5p"},
                 play, expect=["CLAIM_PRIORITY@1"])


@both("ron_after_missed_win", "violations", ["MISSED_WIN@5", "RON_AFTER_MISSED_WIN@8"], {
    JPH3: "JPH3-5: B passes its 下家 C's 2s, then declares 胡 on its 对家 D's 2s before it has moved (动牌)",
    GG5: "漏胡 (J-A5): B passes C's 2s, then declares 胡 on D's 2s before it has moved (动牌)"})
def _(ruleset):
    return scene(f"{SHORT[ruleset]}-louhu", ruleset, {**LOUHU, D: "2s"}, lambda b, t: louhu(b, t, "2s"),
                 expect=["MISSED_WIN@5", "RON_AFTER_MISSED_WIN@8"], claim=False)


ROB = {B: "111s456m789m22s12p", D: "333p"}


@both("rob_concealed_kong", "violations", ["ROB_NOT_ROBBABLE@7"], {
    JPH3: "B declares 抢杠胡 on D's 暗杠 of 3p: 暗杠不可抢杠胡",
    GG5: "B declares 抢杠胡 on D's 暗杠 of 3p: 暗杠不可抢杠胡"})
def _(ruleset):
    def play(b, t):
        b.discard(A, t.junk(A)).draw_discard(B, t.spare()).draw_discard(C, t.spare())  # 0-4
        b.draw(D, "3p").kong(D, "concealed", "3p").win(B, "rob", "3p")  # 5-7
    return scene(f"{SHORT[ruleset]}-rob-concealed", ruleset, ROB, play, reserved="3p", expect=["ROB_NOT_ROBBABLE@7"],
                 claim=False)


@both("rob_direct_kong", "violations", ["ROB_NOT_ROBBABLE@2"], {
    JPH3: "D makes a 直杠 on A's 3p and B declares 抢杠胡 on it: only a 补杠 can be robbed (a 胡 on A's "
          "discard would have been legal)",
    GG5: "D makes a 直杠 on A's 3p and B declares 抢杠胡 on it: only a 补杠 can be robbed (a 胡 on A's "
         "discard would have been legal)"})
def _(ruleset):
    def play(b, t):
        b.discard(A, "3p").kong(D, "exposed", "3p").win(B, "rob", "3p")
    return scene(f"{SHORT[ruleset]}-rob-direct", ruleset, {**ROB, A: "3p"}, play, expect=["ROB_NOT_ROBBABLE@2"],
                 claim=False)


@sample("seven_pairs_win", "violations", ["FALSE_WIN@1"],
        "B declares 胡 on A's 7m with seven pairs: 七对 is not a winning hand in (3) (J-A7)", JPH3)
def _():
    return scene("jph3-seven-pairs", JPH3, {A: "7m", B: "1122m3344p5566s7m"},
                 lambda b, t: b.discard(A, "7m").win(B, "discard", "7m"), expect=["FALSE_WIN@1"], claim=False)


@sample("ready_twice", "violations", ["READY_TWICE@10"], "B declares 听 a second time", GG5)
def _():
    return scene("gg5-ting-twice", GG5, TING, lambda b, t: ting(b, t, twice=True), reserved="5mE",
                 expect=["READY_TWICE@10"])


# The claimed result is the only fault in these: the platform got one scoring rule wrong.
@sample("cap_not_applied", "violations", ["FAN_CAP_NOT_APPLIED@record"],
        "B self-draws 碰碰胡 + 自摸 + 风位 + 三元 = 5番, capped at 3 (8 each); the platform paid 2^5 = 32 each",
        JPH3)
def _():
    record = scene("jph3-cap", JPH3, {B: "SSSCCC111m999p5s"}, lambda b, t: b.discard(A, t.junk(A)).draw(B, "5s")
                   .win(B, "self", "5s"), reserved="5s")
    return with_claim(record, payments=[-32, 96, -32, -32])


@sample("cap_not_applied", "violations", ["FAN_CAP_NOT_APPLIED@record"],
        "B wins on A's 5p with 碰碰胡 4 + 风位 1 + two 三元 2 = 7番, capped at 5 (32); the platform paid 128", GG5)
def _():
    record = scene("gg5-cap", GG5, {A: "5p", B: "SSSCCCFFF111m5p"},
                   lambda b, t: b.discard(A, "5p").win(B, "discard", "5p"))
    return with_claim(record, payments=[-128, 128, 0, 0])


@both("floor_not_applied", "violations", ["FAN_FLOOR_NOT_APPLIED@record"], {
    JPH3: "杠上开花 with 鸡胡 + 自摸 = 1番: paid as the 3番 cap (8 each); the platform paid 2 each",
    GG5: "杠上开花 with 鸡胡 + 自摸 = 2番: paid as the 5番 cap (32 each); the platform paid 4 each"})
def _(ruleset):
    record = scene(f"{SHORT[ruleset]}-floor", ruleset, {B: "222p234m678s55s34m"}, concealed_kong_flower, reserved="2p5m")
    x = 2 if ruleset == JPH3 else 4
    return with_claim(record, payments=[-x, 3 * x, -x, -x])


@both("extras_on_special", "violations", ["EXTRAS_ON_SPECIAL@record"], {
    JPH3: "B self-draws 清一色 (4番, 16 each; 爆胡以外不加番); the platform added 自摸: 5番, 32 each",
    GG5: "B self-draws 清一色 (5番, 32 each; 爆胡以外不加番); the platform added 自摸: 6番, 64 each"})
def _(ruleset):
    record = scene(f"{SHORT[ruleset]}-extras", ruleset, {B: "123m456m789m234m5m"}, lambda b, t: b.discard(A, t.junk(A))
                   .draw(B, "5m").win(B, "self", "5m"), reserved="5m")
    x = 32 if ruleset == JPH3 else 64
    return with_claim(record, payments=[-x, 3 * x, -x, -x])


@sample("liability_ignored", "violations", ["LIABILITY_IGNORED@record"],
        "十二张落地包自摸: A fed B's fourth exposed set and owes all 6; the platform charged 2 to each", JPH3)
def _():
    return with_claim(twelve_down_record("jph3-liability-ignored"), payments=[-2, 6, -2, -2])


@sample("liability_ignored", "violations", ["LIABILITY_IGNORED@record"],
        "九张落地包胡: C fed B's third exposed set and owes B's 2; the platform charged D, the discarder", GG5)
def _():
    return with_claim(scene("gg5-liability-ignored", GG5, NINE_DOWN, nine_down), payments=[0, 2, 0, -2])


# -- the platform's offered actions (Event.offered) ------------------------------------------------------
@both("offer_missing_win", "violations", ["OFFER_MISSING@9", "MISSED_WIN@9"], {
    JPH3: "A discards 2s, which wins B's 平胡; the platform offers B 过 and 吃 but not the win (a 漏胡 it caused, "
          "noted); B later self-draws 5s",
    GG5: "A discards 2s, which wins B's 平胡; the platform offers B 过 and 吃 but not the win (a 漏胡 it caused, "
         "noted); B later self-draws 5s"})
def _(ruleset):
    def play(b, t):
        b.discard(A, t.junk(A)).draw_discard(B, t.spare()).draw_discard(C, t.spare()).draw_discard(D, t.spare())
        b.draw(A, t.spare()).discard(A, "2s").pass_(B).offer("pass", "chi 34s")  # 7-9
        b.draw_discard(B, t.spare()).draw_discard(C, t.spare()).draw_discard(D, t.spare())  # 10-15
        b.draw_discard(A, t.spare()).draw(B, "5s").win(B, "self", "5s")  # 16-19
    return scene(f"{SHORT[ruleset]}-offer-missing", ruleset, {A: "2s", B: READY_B}, play,
                 expect=["OFFER_MISSING@9", "MISSED_WIN@9"], reserved="5s")


@both("offer_illegal_pon", "violations", ["OFFER_ILLEGAL@9"], {
    JPH3: "A discards 2s; the platform offers C a 碰 of it though C holds no pair of 2s; C passes and B wins",
    GG5: "A discards 2s; the platform offers C a 碰 of it though C holds no pair of 2s; C passes and B wins"})
def _(ruleset):
    def play(b, t):
        b.discard(A, t.junk(A)).draw_discard(B, t.spare()).draw_discard(C, t.spare()).draw_discard(D, t.spare())
        b.draw(A, t.spare()).discard(A, "2s").pass_(C).offer("pass", "pon 2s").win(B, "discard", "2s")  # 7-10
    return scene(f"{SHORT[ruleset]}-offer-illegal", ruleset, {A: "2s", B: READY_B}, play, expect=["OFFER_ILLEGAL@9"])
