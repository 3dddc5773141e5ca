"""广东鸡平胡 family, as SPEC section GD-JPH (J.1–J.8) states it (seed: shared/seeds/guangdong.txt,
lines 186–236 and 616–682 for (3), 312–374 for (5)).

One mechanism, two parameter sets: `guangdong_jph3` (QQ 鸡平胡, 爆胡 3番, 鸡胡 0番) and
`guangdong_gg5` (贵港, 爆胡 5番, 鸡胡 1番). 136 tiles, no wildcards, no reserve; 吃 from the 上家
only, 碰 over 吃, 一炮多响; 漏胡 bars the same tile kind until the seat next 动牌; only a 补杠
can be robbed. A hand is worth 2^番: the inside patterns (鸡胡 < 平胡, 碰碰胡, 混一色) plus the
附加 (自摸, 风位, 风圈, each 三元 pung, (5) 听) clipped at the cap; a special hand (爆胡以外)
alone, the highest; 一炮三响, 杠上开花, 海底捞月 and 抢杠 pay at least the cap. 自摸: the three
others pay; a discard: the discarder alone; liability (包) moves the shares. No kong scoring.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from referee import actions as A
from referee import tiles as T
from referee.outcome import Outcome, WinInfo
from referee.parts import missed
from referee.parts.extras import KongMoney
from referee.parts.liability import (DiscarderPaysAll, FedSets, KongFeeder, Liability, RobbedKonger, applied,
                                     full_discard_shares)
from referee.parts.ready import DiscardReady, NoReady
from referee.parts.walls import PlayToTheEnd, Reserve
from referee.rules.base import Option, Ruleset
from referee.scoring import (ALONE, CHOW, PUNG, FanCount, HandContext, HandView, Ledger, Pattern, Priced, best_reading,
                             doubled, pay_wins, readings, self_draw_shares, settlement, shares)
from referee.verdict import Settlement

STANDARD, SEVEN_PAIRS, ORPHANS = "standard", "seven_pairs", "thirteen_orphans"
WINDS, DRAGONS = tuple(T.WINDS), tuple(T.DRAGONS)
TERMINALS = (0, 8, 9, 17, 18, 26)
ADDITIONS = ("自摸", "风位", "风圈", "三元牌 中", "三元牌 发", "三元牌 白", "听牌")  # J.6.2 附加
# J.6.3 in a breakdown: what the 爆胡 cap took off (negative), what a floor added ("杠上开花 按爆胡计").
CAP, FLOORED = "爆胡", " 按爆胡计"
# Settlement codes this rule book explains (explain_mismatch), in the order they are tried.
SLIPS = ("LIABILITY_IGNORED", "FAN_CAP_NOT_APPLIED", "FAN_FLOOR_NOT_APPLIED", "EXTRAS_ON_SPECIAL")
# A platform that ignores 包 charges a win's usual payers. A 抢杠 then has two: the konger alone, as
# for a discard (the slip the fault injector makes), or the three others of the 自摸 it counts as.
ROB_AS_SELF_DRAW = "LIABILITY_IGNORED (抢杠 as a 自摸)"


class RobbedAsSelfDraw(Liability):
    """The three others pay a 抢杠胡's shares, as for a 自摸: 抢杠包三家 ignored, 当自摸 kept."""

    def shares(self, win: WinInfo, outcome: Outcome, usual=None):
        return self_draw_shares(win) if win.kind == A.ROB_WIN else None


IGNORED_LIABILITIES = {"LIABILITY_IGNORED": (RobbedKonger(as_self_draw=False),), ROB_AS_SELF_DRAW: (RobbedAsSelfDraw(),)}


def fan_sum(breakdown: list[tuple[str, int]], fan: int) -> str:
    """The hand's 番 as a sum an arbiter can follow: '碰碰胡+自摸 = 3番', and, where the cap or a
    floor changed it, '碰碰胡+自摸+风位+风圈 = 5番, 爆胡 -2 = 3番'."""
    changed = [name == CAP or name.endswith(FLOORED) for name, _ in breakdown]
    patterns = [item for item, change in zip(breakdown, changed) if not change]
    text = f"{'+'.join(name for name, _ in patterns)} = {sum(value for _, value in patterns)}番"
    if any(changed):
        text += ", " + ", ".join(f"{name} {value:+d}" for (name, value), change in zip(breakdown, changed) if change)
        text += f" = {fan}番"
    return text


@dataclass(frozen=True)
class FanTable:
    """J.6.1: the cap (爆胡), the inside patterns' 番 and the specials' 番."""
    cap: int
    jihu: int
    pinghu: int
    pengpeng: int
    hunyise: int
    specials: dict  # name -> 番


class JiPingHu(Ruleset):
    """The shared engine of J.1–J.8; the two subclasses give its parameters."""
    spec_section = "GD-JPH"
    thirteen_orphans = True  # J.5: 十三幺, any of the 13 as the pair
    chi_allowed = True  # J.2: 吃 from the 上家 only (chi_from_left_only)
    robbable_kongs = ("added",)  # J.2: 明刻开明杠 only; 暗杠/直杠 cannot be robbed
    round_wind_advances = True  # J.1 风圈: 东 first, on to the next wind when the 4th dealer of a cycle passes the deal
    TABLE: FanTable
    HAS_TING = False  # (5) 听牌 +1 with a logged declaration (J-A4)
    options = (
        Option("jph_multiple_ron", True, "一炮多响: every seat that declares 胡 on one discard wins",
               "J.2 ((3) DOC, (5) REC)"),
        Option("jph_missed_win_rule", "same_kind_until_draw",
               "漏胡: after passing a win on a discard, no win on that tile kind until the seat next 动牌 "
               "(碰, 吃, 杠 or a draw)", "J.4, J-A5",
               choices=("same_kind_until_draw", "any_until_draw", "none")),
        Option("jph_reserve_tiles", 0, "tiles that stay in the wall (none: play to the last tile)", "J-A1",
               most=136 - 53),
        Option("jph_jiulian_concealed", True, "九莲宝灯 only as a concealed hand", "J-A6"),
        Option("jph_pinghu_hunyise_add", True, "平胡 and 混一色 add up (else the higher one counts)", "J-A9"),
        Option("jph_seat_winds_rotate", True,
               "seat winds rotate with the deal, the dealer is East (else fixed: seat 0 is East)", "J-A10"),
        Option("jph_discarder_pays_three", False,
               "a discard win is paid as a self-draw, all three shares by the discarder (全铳)", "J-A11"),
        Option("jph_specials_highest_only", True,
               "several specials at once: only the highest counts (else their 番 add up)", "J-A15"),
        Option("jph_kong_money", "none",
               "kong scores: none, or tdh (点杠 3 from the discarder, 补杠 1 and 暗杠 2 from each, paid at once)",
               "J-A14", choices=("none", "tdh")),
        Option("jph_dealer_repeats_among_winners", True,
               "after 一炮多响 the dealer deals again if among the winners", "J.1 ((3) DOC; (5) silent)"),
        Option("jph_bao_order", "event_first",
               "when two 包 rules name different seats: the event's (杠上开花包杠, 大四喜) before the 落地 feeder's, "
               "or feed_first", "J.6.4 (silent)", choices=("event_first", "feed_first")),
        Option("jph_coin_conversion", False,
               "QQ coin rooms: each loser pays X·N + A, the winner gains X·P·N − A (not zero-sum)", "J.6.4 (3) DOC"),
        Option("jph_coin_room", 1, "the room coefficient N of the coin conversion", "J.6.4 (3) DOC", least=1),
        Option("jph_coin_fee", 0,
               "the house fee A each seat pays every hand under the coin conversion (流局 included)",
               "J.6.4 (3) DOC; 流局 silent"),
    )

    # -- the parts ---------------------------------------------------------------------------
    def configure(self) -> None:
        self.multiple_ron = self["jph_multiple_ron"]
        self.missed_win = missed.RULES[self["jph_missed_win_rule"]]  # J.4 漏胡, J-A5
        reserve = self["jph_reserve_tiles"]
        self.wall_end = Reserve(reserve) if reserve else PlayToTheEnd()  # J-A1
        self.ready = DiscardReady(None) if self.declares_ting() else NoReady()  # J.3: no lock
        self.kong_money = KongMoney(exposed=3, added=1, concealed=2) if self["jph_kong_money"] == "tdh" else None
        self.fan_count = FanCount(self.TABLE.cap, specials_add=not self["jph_specials_highest_only"])
        self.patterns = self._patterns()
        self.liabilities = self._liabilities()
        # J-A11 全铳: a discard win is paid in full, by the discarder or by the seat liable for it
        self.usual_shares = full_discard_shares if self["jph_discarder_pays_three"] else shares

    def declares_ting(self) -> bool:
        return self.HAS_TING

    def ting_bonus(self) -> bool:
        return self.HAS_TING

    def rob_as_self_draw(self) -> bool:
        """抢杠胡 "等同杠开，当自摸": the robbed konger pays three shares, with the cap floor."""
        return True

    def _liabilities(self) -> tuple[Liability, ...]:
        """J.6.4: who pays instead of the usual payers, the first rule that holds."""
        events, feeds = self.event_liabilities(), self.feed_liabilities()
        ordered = events + feeds if self["jph_bao_order"] == "event_first" else feeds + events
        last = (DiscarderPaysAll(),) if self["jph_discarder_pays_three"] else ()
        return (RobbedKonger(as_self_draw=self.rob_as_self_draw()),) + ordered + last

    def event_liabilities(self) -> tuple[Liability, ...]:
        return ()

    def feed_liabilities(self) -> tuple[Liability, ...]:
        return ()

    # -- J.1 seat winds ----------------------------------------------------------------------
    def seat_wind(self, seat: int, dealer: int) -> int:
        """J-A10: the dealer is East and the winds follow play order; fixed: seat 0 is East."""
        return 27 + ((seat - dealer) % 4 if self["jph_seat_winds_rotate"] else seat)

    def first_dealer(self) -> int | None:
        """J.1 "东风位玩家为庄家": with fixed seat winds seat 0 is East and deals the first hand; with
        rotating winds the dealer is East whoever it is."""
        return None if self["jph_seat_winds_rotate"] else 0

    # -- J.6.1 the patterns --------------------------------------------------------------------
    def _patterns(self) -> tuple[Pattern, ...]:
        table = self.TABLE

        def std(v: HandView) -> bool:
            return v.shape == STANDARD

        def all_chows(v: HandView) -> bool:
            return std(v) and all(kind == CHOW for kind, _ in v.sets)

        def all_pungs(v: HandView) -> bool:
            return std(v) and all(kind == PUNG for kind, _ in v.sets)

        def pungs(v: HandView, kinds) -> int:
            return sum(1 for kind, t in v.sets if kind == PUNG and t in kinds)

        def pair_in(v: HandView, kinds) -> bool:
            return v.decomposition is not None and v.decomposition.pair in kinds

        def half_suit(v: HandView) -> bool:
            return len(v.suits) == 1 and v.has_honors

        def one_suit(v: HandView) -> bool:
            return len(v.suits) == 1 and not v.has_honors

        def kinds_only(v: HandView, kinds) -> bool:
            return all(t in kinds for t, c in enumerate(v.all_tiles) if c)

        def nine_gates(v: HandView) -> bool:
            if not one_suit(v) or (v.win.melds and self["jph_jiulian_concealed"]):
                return False
            suit = min(v.suits) * 9
            c = v.all_tiles[suit:suit + 9]
            return sum(c) == 14 and c[0] >= 3 and c[8] >= 3 and all(c[1:8])

        def dragon(t: int, name: str) -> Pattern:
            return Pattern(f"三元牌 {name}", f"a pung of {T.CHINESE[t]}", 1, lambda v: pungs(v, (t,)) == 1)

        def special(name: str, gloss: str, applies, replaces: tuple[str, ...] = ()) -> Pattern:
            return Pattern(name, gloss, table.specials[name], applies, replaces, kind=ALONE)

        half_replaces = ("鸡胡",) if self["jph_pinghu_hunyise_add"] else ("鸡胡", "平胡")
        inside = (
            Pattern("鸡胡", "any standard hand", table.jihu, std),
            Pattern("平胡", "all chows", table.pinghu, all_chows, replaces=("鸡胡",)),
            Pattern("碰碰胡", "all pungs", table.pengpeng, all_pungs, replaces=("鸡胡",)),
            Pattern("混一色", "one suit and honors", table.hunyise, lambda v: std(v) and half_suit(v),
                    replaces=half_replaces),
        )
        additions = (
            Pattern("自摸", "self-draw", 1, lambda v: v.win.kind == A.SELF_WIN),
            Pattern("风位", "a pung of the seat wind", 1,
                    lambda v: pungs(v, (self.seat_wind(v.win.seat, v.context.dealer),)) == 1),
            Pattern("风圈", "a pung of the round wind", 1, lambda v: pungs(v, (v.context.round_wind,)) == 1),
            dragon(31, "中"), dragon(32, "发"), dragon(33, "白"),
        ) + ((Pattern("听牌", "declared 听", 1, lambda v: bool(v.win.ready)),) if self.ting_bonus() else ())
        specials = (
            special("清一色", "one suit", one_suit),
            special("混碰", "混一色 + 碰碰胡", lambda v: half_suit(v) and all_pungs(v)),
            special("清碰", "清一色 + 碰碰胡", lambda v: one_suit(v) and all_pungs(v), replaces=("清一色",)),
            special("混幺九", "only terminals and honors", lambda v: kinds_only(v, T.TERMINALS_AND_HONORS)),
            special("小三元", "two dragon pungs and a dragon pair",
                    lambda v: pungs(v, DRAGONS) == 2 and pair_in(v, DRAGONS)),
            special("小四喜", "three wind pungs and a wind pair", lambda v: pungs(v, WINDS) == 3 and pair_in(v, WINDS)),
            special("字一色", "all honors", lambda v: not v.suits, replaces=("混幺九",)),
            special("清幺九", "only terminals, all pungs", lambda v: all_pungs(v) and kinds_only(v, TERMINALS),
                    replaces=("混幺九",)),
            special("大三元", "three dragon pungs", lambda v: pungs(v, DRAGONS) == 3),
            special("大四喜", "four wind pungs", lambda v: pungs(v, WINDS) == 4),
            special("九莲宝灯", "1112345678999 + one of the suit", nine_gates, replaces=("清一色",)),  # "不计清一色"
            special("十三幺", "thirteen orphans", lambda v: v.shape == ORPHANS, replaces=("混幺九",)),
        ) + ((special("七对", "seven pairs", lambda v: v.shape == SEVEN_PAIRS),) if self.seven_pairs else ())
        return inside + additions + specials

    # -- J.6.3 the hand's 番 ---------------------------------------------------------------------
    def hand_fan(self, win: WinInfo, context: HandContext, slip: str = "") -> tuple[int, list[tuple[str, int]]]:
        """(番 before any floor, breakdown): the best reading (REC-global-2) under the 爆胡 rule.

        `slip` computes what a platform that got one rule wrong pays: "FAN_CAP_NOT_APPLIED"
        (no cap), "EXTRAS_ON_SPECIAL" (附加 added to a special)."""
        count = FanCount(None, self.fan_count.specials_add) if slip == "FAN_CAP_NOT_APPLIED" else self.fan_count
        views = readings(win, self.win_shapes(win.hand, win.melds), context)
        extras = slip == "EXTRAS_ON_SPECIAL"

        def value(scored: list[Pattern]) -> int:
            return count.total(scored) + (self.extras(scored) if extras else 0)

        _view, scored = best_reading(self.patterns, views, value=value)
        breakdown = [(p.name, p.value) for p in count.counted(scored)]
        if extras and self.extras(scored):
            breakdown += [(p.name, p.value) for p in scored if p.name in ADDITIONS]
        fan = value(scored)
        if count.capped(scored):  # what the cap took off, so that the breakdown adds up to the 番
            breakdown.append((CAP, fan - sum(v for _, v in breakdown)))
        return fan, breakdown

    @staticmethod
    def extras(scored: list[Pattern]) -> int:
        """The 附加 a special hand would wrongly add (EXTRAS_ON_SPECIAL)."""
        if not any(p.kind == ALONE for p in scored):
            return 0
        return sum(p.value for p in scored if p.name in ADDITIONS)

    def floor(self, win: WinInfo, outcome: Outcome) -> str:
        """J.6.3 cap floors: the event that pays the hand at least the cap, or ""."""
        if win.kind == A.SELF_WIN and win.after_replacement:
            return "杠上开花"
        if win.kind == A.SELF_WIN and win.last_tile:
            return "海底捞月"
        if win.kind == A.ROB_WIN and self.rob_as_self_draw():
            return "抢杠胡"
        if win.kind == A.RON and sum(1 for w in outcome.wins if w.kind == A.RON) == 3:
            return "一炮三响"
        return ""

    def price(self, win: WinInfo, outcome: Outcome, slip: str = "") -> Priced:
        fan, breakdown = self.hand_fan(win, HandContext.of(outcome), slip)
        floor = self.floor(win, outcome) if slip != "FAN_FLOOR_NOT_APPLIED" else ""
        if floor and fan < self.TABLE.cap:
            breakdown.append((f"{floor}{FLOORED}", self.TABLE.cap - fan))  # what the floor adds
            fan = self.TABLE.cap
        x = doubled(fan)
        rule = applied(self.liabilities, win, outcome, self.usual_shares)[0] if slip not in IGNORED_LIABILITIES \
            else None
        liable = f", {rule.label}" if rule is not None else ""
        return Priced(breakdown, lambda share: x,
                      lambda share: f"{win.kind}: {fan_sum(breakdown, fan)}, 2^{fan} = {x}{liable}")

    # -- J.6.4 settlement ------------------------------------------------------------------------
    def settle(self, outcome: Outcome, slip: str = "") -> Settlement:
        ledger = Ledger()
        liabilities = IGNORED_LIABILITIES.get(slip, self.liabilities)

        def shares_of(win: WinInfo):
            return applied(liabilities, win, outcome, self.usual_shares)[1]

        scored = pay_wins(ledger, outcome, lambda win: self.price(win, outcome, slip), shares_of)
        if self.kong_money is not None:
            self.kong_money.pay(ledger, outcome)  # J-A14 option: TDH.6.3 values, paid at once
        if self["jph_coin_conversion"]:
            ledger.scale(self["jph_coin_room"], "room coefficient N")  # loser X·N, winner X·P·N
            for seat in range(4):
                ledger.fee(seat, self["jph_coin_fee"], "系统回收 (house fee A)")
        return settlement(ledger, scored)

    def misapplied(self, outcome: Outcome, code: str):
        if code not in SLIPS and code != ROB_AS_SELF_DRAW or not outcome.wins:
            return None
        wrong = self.settle(outcome, slip=code)
        return None if wrong.payments == self.settle(outcome).payments else wrong

    def explain_mismatch(self, outcome: Outcome, claimed):
        details = {
            "LIABILITY_IGNORED": "the platform charged the usual payers, not the liable seat (包)",
            "FAN_CAP_NOT_APPLIED": f"the platform paid a hand inside the cap above 爆胡 ({self.TABLE.cap}番)",
            "FAN_FLOOR_NOT_APPLIED": f"the platform paid the hand below the {self.TABLE.cap}番 floor "
                                     "(一炮三响/杠上开花/海底捞月/抢杠)",
            "EXTRAS_ON_SPECIAL": "the platform added 附加 to a special hand (爆胡以外不加番)",
        }
        for code, slip in [(code, code) for code in SLIPS] + [("LIABILITY_IGNORED", ROB_AS_SELF_DRAW)]:
            wrong = self.misapplied(outcome, slip)
            if wrong is not None and tuple(claimed.payments) == wrong.payments:
                return code, details[code]
        return None

    # -- J.1 the dealer --------------------------------------------------------------------------
    def next_dealer(self, outcome: Outcome) -> int:
        """The dealer repeats after a 流局 or a win of its own (and, by default, when it is among
        the winners of 一炮多响); otherwise the dealer's 下家 deals."""
        winners = {w.seat for w in outcome.wins}
        if not winners or outcome.dealer in winners and (
                len(winners) == 1 or self["jph_dealer_repeats_among_winners"]):
            return outcome.dealer
        return (outcome.dealer + 1) % 4


JPH3_TABLE = FanTable(cap=3, jihu=0, pinghu=1, pengpeng=2, hunyise=2, specials={
    "清一色": 4, "混碰": 4, "清碰": 5, "混幺九": 5, "小三元": 5, "小四喜": 5,
    "字一色": 6, "清幺九": 6, "大三元": 6, "大四喜": 6, "九莲宝灯": 6, "十三幺": 6})
GG5_TABLE = FanTable(cap=5, jihu=1, pinghu=2, pengpeng=4, hunyise=3, specials={
    "清一色": 5, "混碰": 5, "七对": 5, "小三元": 6, "混幺九": 6, "清碰": 7, "小四喜": 7,
    "字一色": 8, "清幺九": 8, "大三元": 8, "大四喜": 8, "九莲宝灯": 8, "十三幺": 8})


class GuangdongJPH3(JiPingHu):
    """GD-JPH3: QQ 广东鸡平胡, 爆胡 3番 (002 lines 186–236, 616–682)."""
    name = "guangdong_jph3"
    title = "广东鸡平胡 爆胡3番 (Guangdong Ji Ping Hu, QQ)"
    TABLE = JPH3_TABLE
    options = JiPingHu.options + (
        Option("jph3_allow_qidui", False, "七对 wins (it is not in the (3) table)", "J-A7"),
        Option("jph3_qidui_fan", 4, "the 番 of 七对 when it wins (a special, like 清一色)", "J-A7 (value silent)"),
        Option("jph3_ting_declaration", False, "a 听 declaration with a discard exists, worth +1 (附加)", "J-A3"),
        Option("jph3_rob_kong_as_self_draw", True,
               "抢杠胡 as in (5): settled as 自摸, the robbed konger pays three shares, cap floor "
               "(else a discard win paid by the konger)", "J-A2"),
        Option("jph3_dasixi_bao", True,
               "大四喜 包自摸: whoever fed the 4th exposed wind set pays a 自摸 all three shares", "J-A12"),
        Option("jph3_dasanyuan_bao", False, "大三元 包自摸 the same way, for the 3rd exposed dragon set", "J-A12"),
    )

    def configure(self) -> None:
        self.seven_pairs = self["jph3_allow_qidui"]  # J-A7
        table = JPH3_TABLE
        if self.seven_pairs:
            table = replace(table, specials={**table.specials, "七对": self["jph3_qidui_fan"]})
        self.TABLE = table
        super().configure()

    def declares_ting(self) -> bool:
        return self["jph3_ting_declaration"]

    def ting_bonus(self) -> bool:
        return self["jph3_ting_declaration"]

    def rob_as_self_draw(self) -> bool:
        return self["jph3_rob_kong_as_self_draw"]

    def event_liabilities(self):
        found: tuple[Liability, ...] = (KongFeeder("杠上开花包杠"),)  # "开暗刻明杠补牌后胡牌，计自摸，点杠者包三家牌"
        if self["jph3_dasixi_bao"]:
            found += (FedSets(4, "大四喜包自摸", kinds=WINDS),)
        if self["jph3_dasanyuan_bao"]:
            found += (FedSets(3, "大三元包自摸", kinds=DRAGONS),)
        return found

    def feed_liabilities(self):
        # 十二张落地包自摸, 包先不包后: the feeder of the 4th exposed set covers that player's 自摸,
        # only for the first player it brought to 12 tiles down.
        return (FedSets(4, "十二张落地包自摸", first_only=True),)


class GuangdongGG5(JiPingHu):
    """GD-GG5: 贵港麻将 ("又称广东麻将"), 爆胡 5番 (002 lines 136–162, 312–374)."""
    name = "guangdong_gg5"
    title = "贵港麻将 爆胡5番 (Guigang, Guangdong family)"
    TABLE = GG5_TABLE
    seven_pairs = True  # J.5: 七对胡 5番
    HAS_TING = True
    options = JiPingHu.options + (
        Option("gg5_ting_bonus", True, "听牌 +1 (附加, inside the cap), only with a logged 听 declaration", "J-A4"),
        Option("gg5_swap_xiaosanyuan_qingpeng", False,
               "read the table by its descriptions: 小三元 7番 and 清碰 6番 (default: by the names, 6 and 7)", "J-A8"),
        Option("gg5_nine_down_bao_on_discard", True,
               "九张落地包胡 covers a discard win too, the liable seat paying instead of the discarder", "J-A13"),
    )

    def configure(self) -> None:
        table = GG5_TABLE
        if self["gg5_swap_xiaosanyuan_qingpeng"]:
            table = replace(table, specials={**table.specials, "小三元": 7, "清碰": 6})
        self.TABLE = table
        super().configure()

    def ting_bonus(self) -> bool:
        return self["gg5_ting_bonus"]

    def feed_liabilities(self):
        # 九张落地包胡: "如果胡家有人给他九张落地,则给胡家九张落地者包胡".
        return (FedSets(3, "九张落地包胡", self_draw_only=not self["gg5_nine_down_bao_on_discard"]),)
