"""广东推倒胡 (Guangdong Tuidaohu, 鬼牌 + 买马), as SPEC section GD-TDH states it
(seed: shared/seeds/guangdong.txt, lines 9-23, with §A' 推倒胡带鬼 at 452-482 as gap-filler).

136 tiles, no 吃. A flipped indicator's successor is the 鬼: four wildcards that may never be
discarded nor used in a 碰/杠; the indicator stays in the wall. 一炮多响; only a 补杠 can be
robbed; a hand whose only 番型 is 鸡胡 wins by 自摸 or 抢杠胡 only. Score = (Σ 番型) × 自摸 2
× 硬胡 2 × 底分; kong money is paid at once and stands in 流局; 买马 horses set aside before
play share the winner's (or a loser's) result, counted from the winner (the discarder in
一炮多响).
"""
from __future__ import annotations

from dataclasses import replace
from itertools import combinations_with_replacement

from referee import actions as A
from referee import shapes
from referee import tiles as T
from referee.parts import missed
from referee.parts.extras import Horses, KongMoney
from referee.parts.liability import DiscarderPaysAll, Liability, RobbedKonger, liable_shares
from referee.parts.walls import PlayToTheEnd, Reserve
from referee.parts.wilds import FixedWild, FlippedIndicator, NoWilds
from referee.proto import record_pb2 as pb
from referee.rules.base import NO_WILDS, Option, Outcome, Ruleset, WinInfo
from referee.scoring import (ADD, CHOW, PUNG, TIMES, HandContext, HandView, Ledger, Pattern, Priced, added,
                             best_reading, cached_property, claims_other_patterns, factor, pay_wins, settlement)
from referee.state import ADDED
from referee.verdict import Settlement

HONOR_CYCLE = tuple(T.parse("ESWNCFP"))  # TDH.1: 东南西北红中发财白板, 白板 → 东
NORTH, FA, WHITE = T.parse("N")[0], T.parse("F")[0], T.parse("P")[0]
STANDARD, SEVEN_PAIRS, ORPHANS, INSTANT = "standard", "seven_pairs", "thirteen_orphans", "instant"
JIHU = "鸡胡"
EVENTS_UPGRADING_JIHU = ("抢杠胡", "杠上开花", "海底捞月")  # "当杠上开花、抢杠胡、海底捞月时，鸡胡为8倍"
FOUR_GHOSTS = "四鬼"
TERMINALS_AND_HONORS = frozenset(T.TERMINALS_AND_HONORS)
MELD_CALLS = (A.PON, A.KONG_EXPOSED, A.KONG_CONCEALED, A.KONG_ADDED)


def holds_wild(win: WinInfo) -> bool:
    """A 鬼 anywhere in the winning hand: concealed, or in a 碰 or 杠 (tdh_wilds_in_melds)."""
    return any(win.hand[t] for t in win.wilds) or any(t in win.wilds for m in win.melds for t in m.tiles)


class Reading(HandView):
    """One reading of a winning hand with its wildcards placed: `tiles` counts every tile as it
    is read (a wild as the kind it stands for), melds included, a kong as four."""

    def __init__(self, win: WinInfo, shape: str, decomposition, context, tiles: list[int]):
        super().__init__(win, shape, decomposition, context)
        self.tiles = tiles

    @cached_property
    def suits(self) -> set[int]:
        return T.suits_held(self.tiles)

    @cached_property
    def has_honors(self) -> bool:
        return T.holds_honor(self.tiles)

    @property
    def hard(self) -> bool:
        """硬胡: no wildcard tile anywhere in the hand (TDH.6.1 [REC])."""
        return not holds_wild(self.win)


class GuangdongTDH(Ruleset):
    name = "guangdong_tdh"
    title = "广东推倒胡 (Guangdong Tuidaohu, 鬼牌 + 买马)"
    spec_section = "GD-TDH"
    seven_pairs = True  # TDH.5: 七对 16, 豪华七对 32
    thirteen_orphans = False  # TDH-A6 (tdh_thirteen_orphans)
    chi_allowed = False  # TDH.2 "可以碰、杠,不可以吃"
    multiple_ron = True  # TDH.2 "一炮多响"
    robbable_kongs = (ADDED,)  # TDH.2 "直杠不能被抢杠", "暗杠…不能被抢杠"
    options = (
        Option("tdh_ghost", "flipped", "鬼: the flipped indicator's successor, 白板 as a fixed ghost, or no ghost "
               "(§A' \"可选有鬼或者没有鬼、白板做鬼、翻鬼\")", "TDH.1", choices=("flipped", "white", "none")),
        Option("tdh_north_ghost_is_fa", False, "flipping 北 makes 发财 the ghost (the literal \"跳过红中\"), not 红中",
               "TDH-A2"),
        Option("tdh_indicator_leaves_play", False, "the flipped indicator leaves play (else it stays in the wall as a normal tile)",
               "TDH-A3"),
        Option("tdh_wilds_in_melds", False, "a 鬼 may be melded as its own kind: a 碰/杠 of 鬼 tiles (four 鬼 "
               "make a kong); a 鬼 standing in for another kind in a meld is not modelled (still short of "
               "tiles)", "TDH-A4"),
        Option("tdh_reserve_tiles", 0, "tiles that stay in the wall (none: play to the last tile)", "TDH.1",
               most=136 - 53),
        Option("tdh_pass_rule", "none", "漏胡: none, or the 鸡平胡 rule (no win on that tile kind until the seat "
               "next draws or calls)", "TDH-A5", choices=("none", "jph_same_tile")),
        Option("tdh_thirteen_orphans", 0, "十三幺 as a winning hand worth this many (0: not a winning hand)",
               "TDH-A6"),
        Option("tdh_gangshang_pao_qualifies", False, "杠上炮 alone lets a 鸡胡 hand win on the discard", "TDH-A7"),
        Option("tdh_jihu_fallback_only", True, "鸡胡 counts only when no other hand-shape 番型 applies", "TDH-A8"),
        Option("tdh_jihu_upgrade_replaces_event", True,
               "under 杠上开花/抢杠胡/海底捞月 the 鸡胡 8 replaces the event's own 8 (else both count)", "TDH-A8"),
        Option("tdh_haohua_replaces_qidui", True, "豪华七对 (32) replaces 七对 (else 16 + 32)", "TDH-A8"),
        Option("tdh_shape_fan_add", True,
               "hand-shape 番型 add up (清一色 + 碰碰胡 = 24; else only the highest one counts)", "TDH-A8"),
        Option("tdh_horses", 2, "买马: horse tiles per seat, set aside before play (0: no 买马)", "TDH.1",
               most=(136 - 53) // 4),
        Option("tdh_horses_limit_room", False,
               "horse tiles count as out of play for what a 鬼 may stand for (SPEC silent)", "TDH.6.4"),
        Option("tdh_horse_owner_pays_self", True,
               "a horse owner who is one of the winner's payers pays itself, netting to zero (else the other "
               "payers cover its part)", "TDH-A11"),
        Option("tdh_horse_on_owner_counts", True,
               "a horse that points at its own owner counts like any other (else it has no effect)", "TDH.6.4"),
        Option("tdh_horse_anchor", "winner", "horses count from the winner (the discarder in 一炮多响), or from "
               "the dealer (\"由庄家决定买马点数顺序\")", "TDH-A12", choices=("winner", "dealer")),
        Option("tdh_qianggang_as_discard", False,
               "抢杠胡 is settled as a discard win: the robbed player pays one score, no 自摸 ×2", "TDH-A10"),
        Option("tdh_discarder_pays_three", False,
               "a discard win is paid as three shares, all by the discarder (点炮包三家; no 自摸 ×2)", "TDH-A10"),
        Option("tdh_kong_money_void_in_draw", False,
               "kong payments are void in 流局 (else they are paid at once and stand)", "TDH.6.3"),
        Option("tdh_base", 1, "底分: the room's base, multiplying every hand score and kong payment", "TDH.6.1", least=1),
        Option("tdh_yinghu_natural_ghost", False,
               "a hand that wins with its 鬼 read as their own face counts as 硬胡", "TDH.6.1"),
        Option("tdh_yinghu_without_ghosts", False,
               "硬胡 ×2 applies in a room without ghosts too (SPEC silent)", "TDH.6.1"),
        Option("tdh_hunyaojiu_needs_both", False,
               "混幺九 needs both a 1/9 tile and an honor (SPEC silent; literal: only 1/9 and honors)", "TDH.6.1"),
        Option("tdh_haidi_self_draw_only", True, "海底捞月 only on a self-draw of the last tile", "TDH-A14"),
        Option("tdh_four_ghosts", 0, "四鬼 (four 鬼 in hand) wins at once, worth this many (0: not recognised)",
               "TDH-A13"),
        Option("tdh_winner_deals", False, "after a non-dealer win the winner deals (else the dealer's 下家)",
               "TDH-A1"),
        Option("tdh_dealer_repeats_among_winners", True,
               "after 一炮多响 the dealer repeats if among the winners (SPEC silent)", "TDH.1"),
    )

    def configure(self) -> None:
        ghost = self["tdh_ghost"]
        if ghost == "flipped":  # TDH.1: "翻出牌墙中的第一张牌，这张牌点数+1即为本局赖子牌"
            self.wilds = FlippedIndicator(self.wilds_of, leaves_play=self["tdh_indicator_leaves_play"], kind=pb.GHOST,
                                          position="front", logs_wilds=True)
        elif ghost == "white":
            self.wilds = FixedWild(WHITE)
        else:
            self.wilds = NoWilds()
        self.missed_win = missed.RULES["same_kind_until_draw" if self["tdh_pass_rule"] == "jph_same_tile" else "none"]
        reserve = self["tdh_reserve_tiles"]
        self.wall_end = Reserve(reserve) if reserve else PlayToTheEnd()  # TDH.1 [REC]: no reserve
        # TDH.6.3 "杠牌直接输赢": 点杠 3 from the discarder, 补杠 1 and 暗杠 2 from each; paid at once, so
        # it stands in 流局 and whoever wins [REC].
        self.kong_money = KongMoney(exposed=3, added=1, concealed=2, void_in_draw=self["tdh_kong_money_void_in_draw"],
                                    labels=("点杠", "补杠", "暗杠"))
        self.liabilities = self._liabilities()
        self.thirteen_orphans = self["tdh_thirteen_orphans"] > 0
        self.horses = Horses(self["tdh_horses"], owner_pays_self=self["tdh_horse_owner_pays_self"],
                             limits_room=self["tdh_horses_limit_room"],
                             on_owner_counts=self["tdh_horse_on_owner_counts"]) if self["tdh_horses"] else None
        self.before_play = (self.horses,) if self.horses else ()
        self.shape_patterns, self.patterns = self._patterns()

    # -- TDH.1 the 鬼 -------------------------------------------------------------------------
    def ghost_of(self, indicator: int) -> int:
        """The successor: suits n → n+1 with 9 → 1; honors in the cycle 东南西北中发白 (TDH-5..8)."""
        if indicator < 27:
            return indicator - indicator % 9 + (indicator % 9 + 1) % 9
        if indicator == NORTH and self["tdh_north_ghost_is_fa"]:
            return FA  # TDH-A2's literal reading
        return HONOR_CYCLE[(HONOR_CYCLE.index(indicator) + 1) % len(HONOR_CYCLE)]

    def wilds_of(self, indicator: int) -> frozenset[int]:
        return frozenset({self.ghost_of(indicator)})  # TDH-A3: the four copies of one kind

    # -- TDH.2-TDH.5 what 推倒胡 forbids ---------------------------------------------------------
    def guarded_discards(self, view, seat: int):
        return view.wilds  # of the discards, forbid() rejects the 鬼 alone

    def forbid(self, view, seat: int, action):
        kind, tile = action.kind, action.tile
        if kind == A.DISCARD and tile in view.wilds:
            return "WILD_DISCARDED", f"seat {seat} discarded {T.label(tile)}, a 鬼牌 (\"赖子牌不能打出\")"
        if kind in MELD_CALLS and tile in view.wilds and not self["tdh_wilds_in_melds"]:
            return "WILD_IN_MELD", f"seat {seat} used the 鬼 {T.label(tile)} in a {A.Action(kind, tile)}"
        if kind == A.RON:
            s = view.seats[seat]
            hand = list(s.hand)
            hand[tile] += 1
            return self.discard_win_issue(WinInfo(seat, A.RON, tile, None, hand, list(s.melds), 0,
                                                  after_kong_discard=view.kong_discard, wilds=view.wilds,
                                                  room=view.room(seat)))
        return None

    def wild_meld_issue(self, view, seat: int, action):
        if self["tdh_wilds_in_melds"]:
            return None  # (a 鬼 standing in for another kind in a meld is not modelled: short of tiles)
        return "WILD_IN_MELD", (f"seat {seat} holds too few {T.label(action.tile)} for this 碰/杠 unless a 鬼 "
                                f"stands in, and a 鬼 may not be used in a 碰/杠 (TDH-A4: exposed sets are natural)")

    def discard_win_issue(self, win: WinInfo):
        """TDH.5: a win on a discard must score a 番型 besides 鸡胡; 杠上炮 alone does not count (TDH-A7)."""
        if not win.melds and shapes.is_seven_pairs(*self.split_wilds(win.hand, win.wilds), room=win.room):
            return None  # 七对 (16) is such a 番型, and checking it first spares placing the 鬼 in every pair
        if self.may_score_beyond_jihu(win) and self.scores_beyond_jihu(win):
            return None
        what = "杠上炮 " if win.after_kong_discard else ""
        return "JIHU_ON_DISCARD", (f"seat {win.seat}'s hand on the {what}discard {T.label(win.tile)} scores only 鸡胡, "
                                   f"which wins by 自摸 or 抢杠胡 only")

    def scores_beyond_jihu(self, win: WinInfo) -> bool:
        """Does the best reading score a 番型 besides 鸡胡 (杠上炮 only where it qualifies)?"""
        _view, scored = best_reading(self.patterns, self.readings(win, HandContext(0)))
        return any(p.kind == ADD and p.name != JIHU and (p.name != "杠上炮" or self["tdh_gangshang_pao_qualifies"])
                   for p in scored)

    def may_score_beyond_jihu(self, win: WinInfo) -> bool:
        """False only where no reading can score a 番型 besides 鸡胡, found without placing the 鬼:
        a plain discard win (no event, no instant hand, no 十三幺 to look for) whose natural tiles
        and melds span two suits (no 混一色 or 清一色; a placed 鬼 only adds to a reading's suits)
        and make no all-pung shape (no 碰碰胡, nor 混幺九, whose sets can only be pungs). 七对 is
        asked first, by discard_win_issue."""
        if win.kind != A.RON or win.after_kong_discard or win.last_discard or win.instant or \
                self.thirteen_orphans and not win.melds or self["tdh_yinghu_natural_ghost"] and holds_wild(win):
            return True
        naturals, count = self.split_wilds(win.hand, win.wilds)
        kinds = {t for t, n in enumerate(naturals) if n}.union(*(m.tiles for m in win.melds))
        if len({T.suit_of(t) for t in kinds if t < 27}) <= 1:
            return True
        return shapes.is_all_pungs(naturals, count, win.room)

    def instant_hands(self, view, hand, melds, opening) -> tuple[str, ...]:
        """TDH-A13: four 鬼 in hand win at once only where the room says so."""
        if self["tdh_four_ghosts"] and view.wilds and sum(hand[t] for t in view.wilds) >= 4:
            return (FOUR_GHOSTS,)
        return ()

    def orphan_pair_kinds(self):
        return None

    # -- TDH.6.1 the hand score -----------------------------------------------------------------
    def _patterns(self) -> tuple[tuple[Pattern, ...], tuple[Pattern, ...]]:
        """(hand-shape 番型, every pattern). Events add to a shape 番型; 鸡胡 is the fallback and,
        under 杠上开花/抢杠胡/海底捞月, becomes 8 in place of the event (TDH-A8)."""
        def shaped(v: Reading) -> bool:
            return v.shape in (STANDARD, SEVEN_PAIRS)

        def all_pungs(v: Reading) -> bool:
            return v.shape == STANDARD and all(kind == PUNG for kind, _ in v.sets)

        def quads(v: Reading) -> bool:
            return v.shape == SEVEN_PAIRS and 4 in v.tiles

        def orphans_only(v: Reading) -> bool:
            if not shaped(v) or any(c and t not in TERMINALS_AND_HONORS for t, c in enumerate(v.tiles)):
                return False
            return not self["tdh_hunyaojiu_needs_both"] or v.has_honors and any(v.tiles[t] for t in range(27))

        haohua_replaces = ("七对",) if self["tdh_haohua_replaces_qidui"] else ()
        shape_patterns = (
            Pattern("碰碰胡", "all pungs", 8, all_pungs),
            Pattern("混一色", "one suit with honors", 8, lambda v: shaped(v) and len(v.suits) == 1 and v.has_honors),
            Pattern("清一色", "one suit", 16, lambda v: shaped(v) and len(v.suits) == 1 and not v.has_honors),
            Pattern("七对", "seven pairs", 16, lambda v: v.shape == SEVEN_PAIRS),
            Pattern("豪华七对", "seven pairs with four of a kind", 32, quads, replaces=haohua_replaces),
            Pattern("混幺九", "only 1/9 and honors", 32, orphans_only),
            Pattern("十三幺", "thirteen orphans (TDH-A6)", self["tdh_thirteen_orphans"], lambda v: v.shape == ORPHANS),
            Pattern(FOUR_GHOSTS, "four ghosts (TDH-A13)", self["tdh_four_ghosts"], lambda v: v.shape == INSTANT),
        )
        if not self["tdh_shape_fan_add"]:
            shape_patterns = self.highest_only(shape_patterns)
        w = lambda v: v.win  # noqa: E731
        haidi_any = not self["tdh_haidi_self_draw_only"]
        event_tests = {
            "抢杠胡": lambda v: w(v).kind == A.ROB_WIN,
            "杠上开花": lambda v: w(v).kind == A.SELF_WIN and w(v).after_replacement,
            "杠上炮": lambda v: w(v).kind == A.RON and w(v).after_kong_discard,
            "海底捞月": lambda v: w(v).kind == A.SELF_WIN and w(v).last_tile or haidi_any and w(v).last_discard,
        }

        def jihu(v: Reading) -> bool:
            if v.shape != STANDARD:
                return False
            return not self["tdh_jihu_fallback_only"] or not any(p.applies(v) for p in shape_patterns)

        def upgraded(v: Reading) -> bool:
            return jihu(v) and any(event_tests[name](v) for name in EVENTS_UPGRADING_JIHU)

        def event(name: str):
            test = event_tests[name]
            if name in EVENTS_UPGRADING_JIHU and self["tdh_jihu_upgrade_replaces_event"]:
                return lambda v: test(v) and not upgraded(v)
            return test

        self_drawn = (A.SELF_WIN,) if self["tdh_qianggang_as_discard"] else (A.SELF_WIN, A.ROB_WIN)
        hard_counts = self["tdh_ghost"] != "none" or self["tdh_yinghu_without_ghosts"]
        patterns = (
            Pattern(JIHU, "plain hand", 2, lambda v: jihu(v) and not upgraded(v)),
            Pattern(JIHU, "plain hand on 杠上开花/抢杠胡/海底捞月", 8, upgraded),
            *shape_patterns,
            Pattern("抢杠胡", "robbing a 补杠", 8, event("抢杠胡")),
            Pattern("杠上开花", "self-draw on a kong replacement", 8, event("杠上开花")),
            Pattern("杠上炮", "win on the discard right after a kong", 8, event("杠上炮")),
            Pattern("海底捞月", "self-draw of the last tile", 8, event("海底捞月")),
            Pattern("自摸", "self-draw (抢杠胡 counts as one)", 2, lambda v: w(v).kind in self_drawn, kind=TIMES),
            Pattern("硬胡", "no 鬼 in the hand", 2, lambda v: hard_counts and v.hard, kind=TIMES),
        )
        return shape_patterns, tuple(p for p in patterns if p.kind == TIMES or p.value)

    @staticmethod
    def highest_only(patterns: tuple[Pattern, ...]) -> tuple[Pattern, ...]:
        """Each pattern replaces every one ranked below it (lower value, or equal value and listed
        earlier), so of those a reading scores only the highest one is left."""
        return tuple(replace(p, replaces=p.replaces + tuple(q.name for k, q in enumerate(patterns)
                                                            if (q.value, k) < (p.value, i)))
                     for i, p in enumerate(patterns))

    def readings(self, win: WinInfo, context: HandContext) -> list[Reading]:
        """Every reading with the wildcards placed (within room): each standard decomposition,
        and seven pairs with its spare 鬼 pairs as any kind; with tdh_yinghu_natural_ghost, also
        the hand read with its 鬼 at face value."""
        views = [Reading(win, INSTANT, None, context, list(win.hand))] if win.instant else []
        views += self.placed_readings(win, context)
        if self["tdh_yinghu_natural_ghost"] and holds_wild(win):
            views += self.placed_readings(replace(win, wilds=NO_WILDS, room=None), context)
        return views or [Reading(win, "none", None, context, list(win.hand))]

    def placed_readings(self, win: WinInfo, context: HandContext) -> list[Reading]:
        naturals, count = self.split_wilds(win.hand, win.wilds)
        melded = [0] * T.KINDS
        for meld in win.melds:
            for t in meld.tiles:
                melded[t] += 1
        views = []
        for d in shapes.decompositions(naturals, count, room=win.room):
            tiles = list(melded)
            tiles[d.pair] += 2
            for kind, low in d.sets:
                for t in ((low, low + 1, low + 2) if kind == CHOW else (low, low, low)):
                    tiles[t] += 1
            views.append(Reading(win, STANDARD, d, context, tiles))
        if win.melds:
            return views
        if shapes.is_seven_pairs(naturals, count, room=win.room):
            views += [Reading(win, SEVEN_PAIRS, None, context, tiles)
                      for tiles in self.seven_pairs_placed(naturals, count, win.room)]
        if self.thirteen_orphans and shapes.is_thirteen_orphans(naturals, count, room=win.room):
            views.append(Reading(win, ORPHANS, None, context, list(naturals)))
        return views

    @staticmethod
    def seven_pairs_placed(naturals: list[int], wilds: int, room) -> list[list[int]]:
        """Seven pairs with the 鬼 placed: one pairs each single, spare pairs become any kind with
        room (joining a pair of their kind makes four of a kind)."""
        caps = room or [4] * T.KINDS
        base, spare = list(naturals), wilds
        for t, c in enumerate(naturals):
            if c & 1:
                base[t] += 1
                spare -= 1
        placed = []
        for kinds in combinations_with_replacement(range(T.KINDS), spare // 2):
            tiles = list(base)
            for t in kinds:
                tiles[t] += 2
            if all(tiles[t] <= min(caps[t], 4) for t in kinds):
                placed.append(tiles)
        return placed

    def price(self, win: WinInfo, context: HandContext) -> Priced:
        """TDH.6.1: (Σ 番型) × 自摸 2 × 硬胡 2 × 底分, the same for every payer."""
        _view, scored = best_reading(self.patterns, self.readings(win, context))
        unit = added(scored) * factor(scored) * self["tdh_base"]
        names = " + ".join(f"{p.name} {p.value}" for p in scored if p.kind == ADD) or "nothing"
        times = "".join(f" × {p.name} {p.value}" for p in scored if p.kind == TIMES)
        base = f" × 底分 {self['tdh_base']}" if self["tdh_base"] != 1 else ""
        return Priced([(p.name, p.value) for p in scored], lambda payer: unit,
                      lambda payer: f"{win.kind}: ({names}){times}{base} = {unit}")

    # -- TDH.6.2 who pays ---------------------------------------------------------------------
    def _liabilities(self) -> tuple[Liability, ...]:
        """自摸: the three others; 点炮 (杠上炮 included): the discarder, or with
        tdh_discarder_pays_three the discarder for all three shares; 抢杠胡: settled as 自摸, the
        robbed player paying all three shares (包三家, TDH-A10), or as a discard win."""
        robbed = RobbedKonger(as_self_draw=not self["tdh_qianggang_as_discard"])
        return (robbed,) + ((DiscarderPaysAll(),) if self["tdh_discarder_pays_three"] else ())

    # -- settlement -----------------------------------------------------------------------------
    def settle(self, outcome: Outcome, horse_anchor: str | None = None) -> Settlement:
        context = HandContext.of(outcome)
        ledger, scored, groups = Ledger(), [], []
        for win in outcome.wins:
            own = Ledger()
            scored += pay_wins(own, Outcome(outcome.dealer, [win]), lambda w: self.price(w, context),
                               liable_shares(self.liabilities, outcome))
            ledger.transfers += own.transfers
            groups.append((win, own.transfers))
        self.kong_money.pay(ledger, outcome, self["tdh_base"])  # TDH.6.3, not in the horses
        if self.horses is not None and outcome.wins:
            self.horses.pay(ledger, outcome.horses, self.horse_groups(outcome, groups, horse_anchor))
        return settlement(ledger, scored)

    def horse_groups(self, outcome: Outcome, groups, anchor: str | None) -> list[tuple[int, list]]:
        """TDH.6.4: the horses count from the winner, or from the discarder in 一炮多响 (TDH-A12);
        "dealer" counts them from the dealer, "each_winner" from each winner for its own win
        (the two ways a platform gets the mapping wrong)."""
        anchor = anchor or self["tdh_horse_anchor"]
        everything = [t for _, transfers in groups for t in transfers]
        if anchor == "dealer":
            return [(outcome.dealer, everything)]
        if anchor == "each_winner":
            return [(win.seat, transfers) for win, transfers in groups]
        first = outcome.wins[0]
        several = len({w.seat for w in outcome.wins}) > 1
        return [(first.from_seat if several else first.seat, everything)]

    def explain_mismatch(self, outcome: Outcome, claimed):
        """Horses counted from the wrong seat (TDH.6.4, TDH-A12)."""
        if self.horses is None or not outcome.wins or not outcome.horses:
            return None
        right = self.settle(outcome)
        if claims_other_patterns(claimed, right):
            return None  # the hand's value differs: the horses are not what to blame
        right = right.payments
        for anchor in ("winner", "each_winner", "dealer"):
            wrong = self.settle(outcome, horse_anchor=anchor).payments
            if wrong != right and tuple(claimed.payments) == wrong:
                where = {"winner": "the winner", "each_winner": "each winner",
                         "dealer": "the dealer"}[anchor]
                return "HORSE_MISMAPPED", f"the platform counted the horses from {where}"
        return None

    # -- TDH.1 the next dealer --------------------------------------------------------------------
    def next_dealer(self, outcome: Outcome) -> int:
        """"庄家胡牌或者流局继续坐庄"; else the dealer's 下家 (TDH-A1), or the winner with
        tdh_winner_deals (after 一炮多响 the winner nearest the discarder)."""
        winners = [w.seat for w in outcome.wins]
        if not winners or outcome.dealer in winners and (
                len(set(winners)) == 1 or self["tdh_dealer_repeats_among_winners"]):
            return outcome.dealer
        if self["tdh_winner_deals"]:
            return winners[0]
        return (outcome.dealer + 1) % 4
