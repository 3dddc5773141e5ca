"""河北麻将 (Hebei), as SPEC section HB states it (seed: shared/seeds/hebei.txt).

136 tiles, no 吃, no wildcards; 听 is optional, worth nothing and locks the hand; the last
6 stacks stay in the wall; a per-payer base table plus additive pattern 番; kong money paid
at the end and void in 荒庄; a cap of ±1000.
"""
from __future__ import annotations

from itertools import permutations

from referee import actions as A
from referee import tiles as T
from referee.parts import missed
from referee.parts.extras import KongMoney
from referee.parts.liability import RobbedKonger, liable_shares
from referee.parts.ready import DiscardReady, ReadyLock
from referee.parts.walls import Reserve
from referee.rules.base import Option, Outcome, Ruleset, WinInfo
from referee.scoring import PUNG, HandView, Ledger, Pattern, Priced, best_reading, pay_wins, readings, settlement
from referee.verdict import Settlement

FIVE_MAN = 4  # 5万, the tile of 捉五
DRAGONS = tuple(T.DRAGONS)


class Hebei(Ruleset):
    name = "hebei"
    title = "河北麻将 (Hebei)"
    spec_section = "HB"
    seven_pairs = True
    thirteen_orphans = True
    chi_allowed = False  # HB.2 "不能吃牌"
    auto_play_wins = True  # HB.3 "玩家托管、断线或者超时，系统也会代替玩家自动胡牌"
    # robbable_kongs keeps the base default: only a 补杠 can be robbed (HB-A6).
    options = (
        Option("hb_multiple_ron", True, "一炮多响: every seat that declares 胡 on one discard wins", "HB-A1"),
        Option("hb_13orphans_dragon_pair_only", False,
               "十三幺 only with a dragon as the duplicate (the literal text)", "HB-A3"),
        Option("hb_ready_lock", True,
               "after 听: discard the drawn tile, no 碰, kongs only if still tenpai", "HB-A4"),
        Option("hb_ready_kong_same_waits", False,
               "after 听 a kong must keep the same waits (else: just stay tenpai)", "HB.3"),
        Option("hb_reserve_tiles", 12, "tiles that stay in the wall (6 stacks)", "HB.1", most=136 - 53),
        Option("hb_odd_tail_tile_excluded", True,
               "a single tile left at the tail by kong replacements is not drawable", "HB-A5"),
        Option("hb_haidi_self_draw_only", True, "海底捞月 only on a self-draw of the last live tile", "HB-A7"),
        Option("hb_zhuowu_unique_wait", False, "捉五 only when 5万 is the hand's only wait", "HB-A8"),
        Option("hb_menqing_on_discard_win", True, "门清 also on a discard win", "HB-A9"),
        Option("hb_menqing_with_special_shapes", True, "七对 and 十三幺 also score 门清", "HB-A2"),
        Option("hb_dadiaoche_stacks_pengpeng", True, "大吊车 and 碰碰胡 both count", "HB-A10"),
        Option("hb_room_multiplier", 1, "room multiplier applied to every amount before the cap", "HB-A11", least=1),
        Option("hb_cap", 1000, "each seat's net for the hand is clipped to ±cap (0 = no cap)", "HB.6.4"),
        Option("hb_dealer_repeats_among_winners", True,
               "after 一炮多响 the dealer repeats if among the winners", "HB-A12"),
        Option("hb_added_kong_with_held_tile", True,
               "补杠 may use a fourth tile already held, not only the one just drawn", "HB-A13"),
        Option("hb_kong_after_pon", False, "a seat may 补杠 in the turn it 碰s (that 碰 or an older one), before "
               "its discard", "HB.2"),
        Option("hb_ready_checks", True, "check the 听 lock on a seat whose 听 the log declares (declarations "
               "themselves are always checked)", "HB-A15"),
        Option("hb_missed_win_rule", "none", "漏胡: what passing a win on a discard costs (none: nothing)",
               "HB-A14", choices=("none", "same_kind_until_draw", "any_until_draw")),
        Option("hb_rob_paid_as", "discarder",
               "a robbed konger pays as the discarder (放炮), or the three shares of a self-draw (self_draw, 包三家)",
               "HB-A6", choices=("discarder", "self_draw")),
    )

    # HB.6.3: 放杠 3 from the discarder, 补杠 1 and 暗杠 2 from each; void in 荒庄.
    KONG_MONEY = KongMoney(exposed=3, added=1, concealed=2, void_in_draw=True)

    def configure(self) -> None:
        self.multiple_ron = self["hb_multiple_ron"]
        self.missed_win = missed.RULES[self["hb_missed_win_rule"]]
        self.kong_after_pon = self["hb_kong_after_pon"]  # HB.2 [REC]: no kong in the turn of a 碰
        self.added_kong_with_held_tile = self["hb_added_kong_with_held_tile"]  # HB-A13
        # HB-A4: after 听, discard the drawn tile, no 碰, kongs only if still ready (HB.3 [REC]: "还可听"
        # is tenpai, not the same waits).
        lock = ReadyLock("READY_LOCK_BREACH", "READY_PON", "READY_KONG_BREAKS_TENPAI",
                         same_waits=self["hb_ready_kong_same_waits"],
                         waits_text="after 杠 {tile} seat {seat} is no longer 听 on the waits it declared")
        locked = self["hb_ready_lock"] and self["hb_ready_checks"]
        self.ready = DiscardReady(lock if locked else None)  # HB.3: 听 with a discard, worth nothing
        # HB-A6: the robbed konger pays as the discarder (the usual payers of a ROB_WIN), or by option
        # the three shares of a self-draw (包三家).
        self.rob_as_self_draw = self["hb_rob_paid_as"] == "self_draw"
        self.liabilities = (RobbedKonger(as_self_draw=True),) if self.rob_as_self_draw else ()
        # HB.1, HB-A5: the last 6 stacks stay, and so does an odd tile left by replacements.
        self.wall_end = Reserve(self["hb_reserve_tiles"], odd_tail=self["hb_odd_tail_tile_excluded"])
        self.patterns = self._patterns()

    # -- HB.5 winning shapes ----------------------------------------------------------------
    def orphan_pair_kinds(self):
        return DRAGONS if self["hb_13orphans_dragon_pair_only"] else None

    # -- HB.6.2 pattern 番 ------------------------------------------------------------------
    def _patterns(self) -> tuple[Pattern, ...]:
        def seven_pairs(v: HandView) -> bool:
            return v.shape == "seven_pairs"

        def quads(v: HandView) -> int:
            return sum(1 for c in v.win.hand if c == 4) if seven_pairs(v) else 0

        def one_suit(v: HandView) -> bool:
            return len(v.suits) == 1 and not v.has_honors

        def half_suit(v: HandView) -> bool:
            return len(v.suits) == 1 and v.has_honors

        def all_pungs(v: HandView) -> bool:
            return v.shape == "standard" and all(kind == PUNG for kind, _ in v.sets)

        def dragon(v: HandView) -> bool:
            return v.shape == "standard" and len(v.win.melds) == 4

        def dragon_line(v: HandView) -> bool:
            return any(v.has_chows(9 * s, 9 * s + 3, 9 * s + 6) for s in range(3))

        def flower_dragon(v: HandView) -> bool:
            return any(v.has_chows(9 * a, 9 * b + 3, 9 * c + 6) for a, b, c in permutations(range(3)))

        def catch_five(v: HandView) -> bool:
            if v.win.tile != FIVE_MAN or ("chow", FIVE_MAN - 1) not in v.concealed_sets:
                return False
            if not self["hb_zhuowu_unique_wait"]:
                return True
            before = list(v.win.hand)
            before[FIVE_MAN] -= 1
            return self.waits(before, v.win.melds) == (FIVE_MAN,)

        def concealed(v: HandView) -> bool:
            if not self["hb_menqing_with_special_shapes"] and v.shape in ("seven_pairs", "thirteen_orphans"):
                return False
            return not v.open_melds and (v.win.kind == A.SELF_WIN or self["hb_menqing_on_discard_win"])

        def sea_bottom(v: HandView) -> bool:
            if v.win.kind == A.SELF_WIN:
                return v.win.last_tile
            # HB-A7's other reading: a win on the discard after the last live draw (海底炮) too.
            return not self["hb_haidi_self_draw_only"] and (v.win.last_tile or v.win.last_discard)

        big_wait_replaces = () if self["hb_dadiaoche_stacks_pengpeng"] else ("碰碰胡",)
        return (
            Pattern("门清", "concealed hand", 2, concealed),
            Pattern("抢杠胡", "robbing a kong", 2, lambda v: v.win.kind == A.ROB_WIN),
            Pattern("杠上开花", "win on a kong replacement", 2, lambda v: v.win.after_replacement),
            Pattern("碰碰胡", "all pungs", 3, all_pungs),
            Pattern("大吊车", "four melds, single wait", 2, dragon, replaces=big_wait_replaces),
            Pattern("青一色", "one suit", 3, one_suit),
            Pattern("混一色", "one suit with honors", 2, half_suit),
            Pattern("清风", "all honors", 3, lambda v: not v.suits),
            Pattern("一条龙", "pure straight", 2, dragon_line),
            Pattern("七对", "seven pairs", 2, seven_pairs),
            Pattern("十三幺", "thirteen orphans", 10, lambda v: v.shape == "thirteen_orphans"),
            Pattern("海底捞月", "last tile", 2, sea_bottom),
            Pattern("混七对", "seven pairs, one suit with honors", 4,
                    lambda v: seven_pairs(v) and half_suit(v) and not quads(v), replaces=("混一色", "七对")),
            Pattern("青七对", "seven pairs, one suit", 5,
                    lambda v: seven_pairs(v) and one_suit(v) and not quads(v), replaces=("青一色", "七对")),
            Pattern("豪华七对 单豪", "seven pairs with a set of four", 8, lambda v: quads(v) == 1, replaces=("七对",)),
            Pattern("豪华七对 双豪", "seven pairs with two sets of four", 16, lambda v: quads(v) == 2,
                    replaces=("七对",)),
            Pattern("豪华七对 三豪", "seven pairs with three sets of four", 32, lambda v: quads(v) == 3,
                    replaces=("七对",)),
            Pattern("花龙", "mixed straight", 5, flower_dragon),
            Pattern("捉五", "5万 into the 4万-6万 gap", 5, catch_five),
        )

    # -- HB.6.1 base per payer --------------------------------------------------------------
    def base_per_payer(self, win: WinInfo, payer: int, dealer: int) -> int:
        if win.kind == A.SELF_WIN or win.kind == A.ROB_WIN and self.rob_as_self_draw:
            if win.seat == dealer:
                return 4  # 庄家自摸: each of 3 pays 4
            return 4 if payer == dealer else 2  # 闲家自摸
        if win.seat == dealer:
            return 8  # 庄家点炮 (the dealer wins on a discard)
        return 6 if payer == dealer else 5  # 庄家放炮 / 闲家放炮; a robbed konger pays as discarder

    def price(self, win: WinInfo, dealer: int) -> Priced:
        """HB.6.1 + HB-A2: each payer owes its base plus the sum of the pattern 番."""
        _view, patterns = best_reading(self.patterns, readings(win, self.win_shapes(win.hand, win.melds)))
        fan = sum(p.value for p in patterns)
        names = "+".join(p.name for p in patterns) or "平胡"
        multiplier = self["hb_room_multiplier"]

        def owed(payer: int) -> int:
            return (self.base_per_payer(win, payer, dealer) + fan) * multiplier

        def reason(payer: int) -> str:
            owes = f"base {self.base_per_payer(win, payer, dealer)} + {fan} ({names})"
            return f"{win.kind}: {owes}" if multiplier == 1 else f"{win.kind}: ({owes}) × {multiplier} (room)"

        return Priced([(p.name, p.value) for p in patterns], owed, reason)

    def settle(self, outcome: Outcome) -> Settlement:
        ledger = Ledger()
        scored = pay_wins(ledger, outcome, lambda win: self.price(win, outcome.dealer),
                          liable_shares(self.liabilities, outcome))
        self.KONG_MONEY.pay(ledger, outcome, self["hb_room_multiplier"])  # HB.6.3: "荒庄时，不计杠分"
        if self["hb_cap"] > 0:
            ledger.cap(self["hb_cap"])  # HB.6.4, HB-A11
        return settlement(ledger, scored)

    def explain_mismatch(self, outcome: Outcome, claimed):
        """Kong money paid in a drawn hand (HB.6.3 "荒庄时，不计杠分")."""
        if not outcome.exhaustive:
            return None
        would_be = self.settle(Outcome(outcome.dealer, kongs=outcome.kongs)).payments
        if any(claimed.kong_payments) or tuple(claimed.payments) == would_be:
            return "KONG_PAYMENT_IN_DRAW", "the hand is 荒庄, and every kong payment is void"
        return None

    # -- HB.1 dealer ------------------------------------------------------------------------
    def next_dealer(self, outcome: Outcome) -> int:
        winners = {w.seat for w in outcome.wins}
        if outcome.exhaustive or outcome.dealer in winners and (
            len(winners) == 1 or self["hb_dealer_repeats_among_winners"]
        ):
            return outcome.dealer
        return (outcome.dealer + 1) % 4

