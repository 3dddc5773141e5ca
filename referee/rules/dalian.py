"""大连穷胡 (Dalian), as SPEC section DL states it (seed: shared/seeds/dalian_qionghu.txt, with
only the procedural items S1-S6 of its 绥化 supplement, DL-A1).

136 tiles. 吃 suited tiles from the 上家 only; no 碰 of 中发白 (dragons are only a pair or a
kong); no 暗杠 before 开门; no second winner on a discard; only a 听 seat may rob a 补杠. A win
needs a 听 (or 夹听: one winning tile, an edge or closed wait) declared with a discard once the
hand is open; the hand is then locked (kongs only with the drawn tile, keeping the waits). The
first 听 seat's next draw chooses the 宝 by dice from the back of the wall; each 听 seat sees it
on its next draw and may win on its kind at once (冲宝); a 听 seat's own draw of the 宝 kind is
wild (摸宝); three of its kind in the discards force 换宝. Passing a win forfeits that kind of
win for the hand. A win needs 三色全, 幺九 (unless honors), a 刻 (unless a dragon pair), a
sequence, and no 手把一. Each payer owes 2^(番−1) × base, 番 counted between it and the winner;
only the winner's kongs earn; each seat's net is capped at ±1000.
"""
from __future__ import annotations

from referee import actions as A
from referee import tiles as T
from referee.parts import missed
from referee.parts.bao import DICE, Bao
from referee.parts.extras import KongMoney
from referee.parts.ready import DiscardReady, ReadyLock
from referee.parts.walls import Reserve
from referee.rules.base import Option, Outcome
from referee.rules.northern import CHOW, PUNG, BaoFamily
from referee.scoring import Ledger, PayerFan, Priced, doubled, pay_wins, payer_fan, settlement, shares
from referee.state import KONG, PON
from referee.verdict import Settlement

DRAGONS = frozenset(T.DRAGONS)
YAOJIU = frozenset(t for t in range(27) if T.rank_of(t) in (1, 9))


class Dalian(BaoFamily):
    name = "dalian"
    title = "大连穷胡 (Dalian)"
    spec_section = "DL"
    multiple_ron = False  # DL.2 截胡: "只有最近的人算胡"
    options = (
        Option("dl_ready_required", True, "only a seat that has declared 听 may win (supplement S1)", "DL-A1"),
        Option("dl_ready_lock", True, "after 听: discard the drawn tile, no 吃/碰/明杠, kongs keep the hand 听 "
               "(supplement S3, S4)", "DL-A1"),
        Option("dl_win_on_4th_of_concealed_pung", False,
               "a 听 seat drawing the 4th tile of a pung in hand may win with it (supplement, not adopted)", "DL-A1"),
        Option("dl_chi_from_left_only", True, "吃 only from the 上家 (the QQ template says any seat)", "DL-A2"),
        Option("dl_jiating_existence_only", False,
               "夹听 whenever an edge or closed wait exists, even among several waits (the literal \"存在\")", "DL-A3"),
        Option("dl_reserve_tiles", 14, "tiles that stay in the wall (7 stacks)", "DL.1", most=136 - 53),
        Option("dl_odd_tail_tile_excluded", True, "a single tile left at the tail by replacements is not drawable",
               "DL-A4"),
        Option("dl_bao_leaves_play", False, "the 宝 is set aside out of play when chosen (else it stays in the wall "
               "and may be drawn)", "DL-A5"),
        Option("dl_bao_is_self_draw", True, "冲宝 and 摸宝 count as 自摸 (+1, all three pay)", "DL-A6"),
        Option("dl_missed_win_rule", "permanent", "漏胡: passing a win forfeits that kind of win for the hand",
               "DL-A7", choices=("none", "permanent")),
        Option("dl_declined_bao_is_pass", True, "letting a 冲宝 or a 摸宝 go counts as passing a self-draw", "DL.4"),
        Option("dl_rob_pays_as_discarder", True, "the robbed seat pays alone, as the discarder (+1 放炮)", "DL-A8"),
        Option("dl_dealer_fan", "pair", "庄家 +1 when the winner or the payer deals (pair), or only when the winner "
               "deals (winner)", "DL-A9", choices=("pair", "winner")),
        Option("dl_kong_counts_as_pung", True, "a kong (a dragon kong too) is the 刻 a win needs", "DL-A10"),
        Option("dl_menqing_stack", True, "未开门 and 三家门清 both add (+2 for an unopened payer)", "DL-A11"),
        Option("dl_cap", 1000, "each seat's net for the hand is clipped to ±cap, payers scaled pro rata (0 = none)",
               "DL-A12"),
        Option("dl_jiahu_with_bao", True, "夹胡 +1 also when the 夹听 seat wins by 摸宝 or 冲宝", "DL-A13"),
        Option("dl_ready_kong_with_drawn", True, "after 听 a kong only with the tile just drawn", "DL-A14"),
        Option("dl_ready_kong_same_waits", True, "after 听 a kong must keep the same waits (else any wait)", "DL-A14"),
        Option("dl_bao_back_stacks", 12, "how many stacks from the back the dice may count (fewer left: any)",
               "DL-A15", least=1),
        Option("dl_base", 1, "the room's base (房间基本分)", "DL.6", least=1),
        Option("dl_dragon_kongs", True, "a dragon 明杠 on a discard and a dragon 暗杠 are allowed", "DL.2"),
        Option("dl_ready_shape_wait_enough", False, "a wait of the shape alone makes 听 legal and is kept by the "
               "lock (else only waits that give a legal win)", "DL.3.2"),
        Option("dl_no_bugang_at_4", False, "no 补杠 either at four tiles in hand", "DL.4"),
        Option("dl_added_kong_with_held_tile", True, "补杠 may use a fourth tile already held, not only the one "
               "just drawn (\"又摸到杠牌\" read as the common case, as HB-A13)", "DL.2"),
    )

    def configure(self) -> None:
        self.chi_from_left_only = self["dl_chi_from_left_only"]
        self.added_kong_with_held_tile = self["dl_added_kong_with_held_tile"]
        # DL.3.4: the 宝 by dice at a 听 seat's draw, 冲宝 on first sight, the old one back in place
        # (DL-A5: it stays in the wall); a 冲宝 or 摸宝 let go is a passed self-draw (DL.4).
        self.wilds = Bao(DICE, old_leaves_play=False, chongbao=True, back_stacks=self["dl_bao_back_stacks"],
                         leaves_play=self["dl_bao_leaves_play"], declined_is_pass=self["dl_declined_bao_is_pass"])
        # DL.1, DL-A4: 7 stacks stay, and an odd tile left at the tail by replacements.
        self.wall_end = Reserve(self["dl_reserve_tiles"], odd_tail=self["dl_odd_tail_tile_excluded"])
        # DL.3: 听 or 夹听 with a discard, required to win (S1); the lock (S3, S4, DL-A14).
        lock = ReadyLock("READY_LOCK_BREACH", "READY_CALL", "READY_WAITS_CHANGED",
                         calls=(A.PON, A.CHI, A.KONG_EXPOSED), same_waits=self["dl_ready_kong_same_waits"],
                         kong_needs_drawn=self["dl_ready_kong_with_drawn"],
                         call_text="seat {seat} is 听 and may not 吃, 碰 or 明杠")
        self.ready = DiscardReady(lock if self["dl_ready_lock"] else None,
                                  declares=(A.READY_DISCARD, A.JIATING_DISCARD), required_to_win=self["dl_ready_required"],
                                  refines_first=True)  # DL.3.3: 夹听 is a 听 with one edge or closed wait
        self.ready_on_shape_wait = self["dl_ready_shape_wait_enough"]  # DL.3.2: only valid waits, by default
        self.missed_win = missed.RULES[self["dl_missed_win_rule"]]  # DL.4, DL-A7
        self.bugang_at_four = not self["dl_no_bugang_at_4"]
        # DL.6: only the winner's kongs earn, 明杠 (补杠 too) 1 and 暗杠 2 from each of the three.
        self.kong_money = KongMoney(exposed=1, added=1, concealed=2, exposed_each=True, void_in_draw=True,
                                    winners_only=True, labels=("明杠", "明杠", "暗杠"))
        self.fans = self._fans()

    # -- DL.2 calls -------------------------------------------------------------------------------
    def forbid_call(self, view, seat: int, action):
        tile = action.tile
        if action.kind == A.PON and tile in DRAGONS:
            return "PON_DRAGON", f"seat {seat} may not 碰 {T.label(tile)}: 红中、发财、白板 are a pair or a kong only"
        if action.kind in (A.KONG_EXPOSED, A.KONG_CONCEALED) and tile in DRAGONS and not self["dl_dragon_kongs"]:
            return "ILLEGAL_CALL", f"no kong of {T.label(tile)} (dl_dragon_kongs is off)"
        if action.kind == A.KONG_CONCEALED and not view.seats[seat].is_open:
            return "CONCEALED_KONG_UNOPENED", f"seat {seat} has not opened (吃, 碰 or 明杠) and may not 暗杠"
        return None

    # -- DL.5 the conditions on a win ---------------------------------------------------------------
    def hand_issue(self, v):
        if len(v.suits) < 3:
            return "缺门: 条, 饼 and 万 must all be present (三色全)"
        if not any(v.all_tiles[t] for t in YAOJIU) and not v.has_honors:
            return "no 1 or 9, and no wind or dragon to waive it"
        if len(v.win.melds) >= 4:
            return "手把一: every set but the pair was called"
        if not any(m.is_open for m in v.win.melds):
            return "门清: a win needs 开门, a 吃, 碰 or 明杠 (DL.5 5)"
        return None

    def reading_issue(self, v):
        if any(kind == PUNG and t in DRAGONS for kind, t in v.concealed_sets):
            return "three 中/发/白 in hand are no 刻子 (\"自己手里拿三个也不能当成刻子使用\")"
        if not self.has_set(v, CHOW):
            return "no sequence (碰碰胡 is not a win here)"
        pungs = [t for kind, t in v.concealed_sets if kind == PUNG] + [
            m.tile for m in v.win.melds if m.kind == PON or m.kind == KONG and self["dl_kong_counts_as_pung"]]
        if not pungs and v.decomposition.pair not in DRAGONS:
            return "no 刻子, and the pair is not 中/发/白"
        return None

    def instant_hands(self, view, hand, melds, opening):
        """DL-A1 option: a 听 seat that draws the fourth tile of a pung in hand may win with it."""
        if not self["dl_win_on_4th_of_concealed_pung"]:
            return ()
        phase = view.phase
        seat = getattr(phase, "seat", None)
        if seat is None or not getattr(phase, "drew", False) or not view.seats[seat].ready:
            return ()
        drawn = view.seats[seat].drawn
        return ("刻牌第四张",) if drawn is not None and hand[drawn] == 4 else ()

    # -- DL.3.3 夹听 --------------------------------------------------------------------------------
    def lock_waits(self, ready, hand, melds, waits):
        """DL-A14: a kong after 夹听 must leave the hand 夹听 (its one valid wait, still edge or closed)."""
        if ready == A.JIATING and not self.jiating(hand, melds, self.valid_waits(hand, melds) if waits else ()):
            return ()
        return super().lock_waits(ready, hand, melds, waits)

    def jiating(self, rest, melds, valid) -> bool:
        """DL-A3: one valid winning tile, completing an edge (12→3, 89→7) or closed (n_n+2) wait."""
        if not self["dl_jiating_existence_only"] and len(valid) != 1:
            return False
        for t in valid:
            if T.is_honor(t):
                continue
            hand = list(rest)
            hand[t] += 1
            for v in self.valid_readings(hand, melds):
                lows = self.concealed_chows(v)
                if t - 1 in lows and T.rank_of(t) not in (1, 9) or \
                        T.rank_of(t) == 3 and t - 2 in lows or T.rank_of(t) == 7 and t in lows:
                    return True
        return False

    def declaration_issue(self, view, seat, action, hand, melds, valid):
        if action.kind == A.JIATING_DISCARD and not self.jiating(hand, melds, valid):
            return "JIATING_ILLEGAL", (f"seat {seat} declared 夹听 with {T.format_counts(list(hand))}, which wins on "
                                       f"{T.format_tiles(valid)}: not one tile into an edge or closed wait")
        return None

    # -- DL.6 per-payer 番 ----------------------------------------------------------------------------
    def _fans(self) -> tuple[PayerFan, ...]:
        def self_drawn(win) -> bool:
            return win.kind == A.SELF_WIN and (self["dl_bao_is_self_draw"] or not (win.drawn_wild or win.by_indicator))

        def discarder(win, payer, outcome) -> bool:
            return win.kind == A.RON and payer == win.from_seat or \
                win.kind == A.ROB_WIN and payer == win.from_seat and self["dl_rob_pays_as_discarder"]

        def dealer(win, payer, outcome) -> bool:
            return win.seat == outcome.dealer or self["dl_dealer_fan"] == "pair" and payer == outcome.dealer

        def all_closed(win, outcome) -> bool:
            opened = self.open_seats(outcome)
            return not any((win.seat + k) % 4 in opened for k in (1, 2, 3))

        def unopened(win, payer, outcome) -> bool:
            return payer not in self.open_seats(outcome) and (self["dl_menqing_stack"] or not all_closed(win, outcome))

        def jiahu(win) -> bool:
            return win.ready == A.JIATING and (self["dl_jiahu_with_bao"] or not (win.drawn_wild or win.by_indicator))

        return (
            PayerFan("平胡", "a win", 1, lambda w, p, o: True),
            PayerFan("放炮", "the discarder pays one more", 1, discarder),
            PayerFan("自摸", "self-draw, each payer", 1, lambda w, p, o: self_drawn(w)),
            PayerFan("夹胡", "a win after 夹听", 1, lambda w, p, o: jiahu(w)),
            PayerFan("摸宝", "won by drawing the 宝 kind", 2, lambda w, p, o: w.drawn_wild),
            PayerFan("冲宝", "won on seeing the 宝", 2, lambda w, p, o: w.by_indicator),
            PayerFan("庄家", "the dealer wins or pays", 1, dealer),
            PayerFan("未开门", "the payer has not opened", 1, unopened),
            PayerFan("三家门清", "none of the three losers has opened", 1, lambda w, p, o: all_closed(w, o)),
            PayerFan("杠上开花", "self-draw on a kong replacement", 2,
                     lambda w, p, o: w.kind == A.SELF_WIN and w.after_replacement),
            PayerFan("抢杠胡", "robbing a 补杠", 2, lambda w, p, o: w.kind == A.ROB_WIN),
        )

    def price(self, win, outcome: Outcome) -> Priced:
        base = self["dl_base"]
        items = {p: payer_fan(self.fans, win, p, outcome) for p in range(4) if p != win.seat}
        seen: dict[str, int] = {}  # the breakdown: each item some payer owes
        for found in (items[share] for _, share in self.shares(win)):
            for item in found:
                seen.setdefault(item.name, item.value)

        def fan(payer: int) -> int:
            return sum(item.value for item in items[payer])

        def reason(payer: int) -> str:
            names = "+".join(f"{item.name} {item.value}" for item in items[payer])
            return f"{win.kind}: {fan(payer)} 番 ({names}), 2^{fan(payer) - 1} × {base}"

        return Priced(list(seen.items()), lambda payer: doubled(fan(payer), base, offset=1), reason)

    def shares(self, win) -> list[tuple[int, int]]:
        """点炮 (and, DL-A8, a robbed kong): the discarder alone; 自摸: all three."""
        if win.kind == A.ROB_WIN and not self["dl_rob_pays_as_discarder"]:
            return [((win.seat + k) % 4, (win.seat + k) % 4) for k in (1, 2, 3)]
        return shares(win)

    def settle(self, outcome: Outcome) -> Settlement:
        ledger = Ledger()
        scored = pay_wins(ledger, outcome, lambda win: self.price(win, outcome), self.shares)
        self.kong_money.pay(ledger, outcome, self["dl_base"])  # "只有胡牌者才算杠分"; nothing in 荒庄
        if self["dl_cap"] > 0:
            ledger.cap(self["dl_cap"])  # DL-A12
        return settlement(ledger, scored)

    # -- DL.1 the next dealer ----------------------------------------------------------------------
    def next_dealer(self, outcome: Outcome) -> int:
        if outcome.exhaustive or not outcome.wins or outcome.wins[0].seat == outcome.dealer:
            return outcome.dealer  # "庄家胡牌或荒庄，庄家继续做庄"
        return (outcome.dealer + 1) % 4  # "闲家胡牌，庄家的下一家坐庄"
