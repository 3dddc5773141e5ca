"""哈尔滨麻将 (Harbin), as SPEC section HRB states it (seed: shared/seeds/harbin.txt).

112 tiles: the three suits and four 红中. The 宝 is the last wall tile after the deal, kept face
down at the tail; three of its kind in the discards force 换宝 (the old one is dead). The last 4
stacks and the 宝 are never drawn, and the last 4 live draws win by self-draw only. A win needs a
听, declared with a discard (or at once by 吃听, from any seat) once the hand is open, holds
幺九 (红中 counts), a 刻 (or a 红中 pair, or a 对倒 wait) and two suits, and keeps four tiles in
hand; the hand is then locked. Only a 听 seat's own draw of the 宝 kind is wild (摸宝). Every
win holds a sequence; no 七对; no second winner on a discard. The payment multiplies the way
the hand was won (平和 1, 自摸 2, 摸宝 3, 宝中宝 12, 卡当 ×2) by each loser's factor (门清 or
出冲 3); an unready discarder pays for all (包付), and after three 流局 in a row the dealer does.
"""
from __future__ import annotations

from referee import actions as A
from referee import tiles as T
from referee.outcome import WinInfo
from referee.parts import missed
from referee.parts.bao import LAST, Bao
from referee.parts.ready import DiscardReady, ReadyLock
from referee.parts.walls import Reserve
from referee.rules.base import Option, Outcome
from referee.rules.northern import CHI, CHOW, PUNG, BaoFamily
from referee.scoring import HandView, Ledger, Priced, pay_wins, settlement
from referee.state import CONCEALED
from referee.verdict import Settlement

RED = T.parse("C")[0]  # 红中
YAOJIU = frozenset(t for t in range(27) if T.rank_of(t) in (1, 9))


class Harbin(BaoFamily):
    name = "harbin"
    title = "哈尔滨麻将 (Harbin)"
    spec_section = "HRB"
    tile_kinds = tuple(range(27)) + (RED,)  # HRB.1: 108 suited tiles + 4 红中
    chi_from_left_only = True  # HRB.2: 吃 from the 上家, 吃听 from anyone
    multiple_ron = False  # HRB.2 截和 "不能一炮雙響"
    reads_draws_before = True  # HRB-A6: 3 流局 in a row make the dealer liable (referee/match.py checks the count)
    options = (
        # Payment model (HRB.6.2): LOW confidence in the SPEC, so every number is an option.
        Option("hrb_pinghe", 1, "winner multiplier for 平和 (a win on a discard)", "HRB-A1", least=1),
        Option("hrb_zimo", 2, "winner multiplier for 自摸 (杠开 and 抢杠 count as 自摸)", "HRB-A1", least=1),
        Option("hrb_mobao", 3, "winner multiplier for 摸宝 (replaces 自摸)", "HRB-A1", least=1),
        Option("hrb_baozhongbao", 12, "winner multiplier for 宝中宝 (replaces 摸宝 and 卡当)", "HRB-A1", least=1),
        Option("hrb_kadang_times", 2, "卡当 multiplies the winner multiplier by this", "HRB-A1", least=1),
        Option("hrb_menqing_factor", 3, "loser factor of a 门清 loser (站立; an open loser pays ×1)", "HRB-A1", least=1),
        Option("hrb_chuchong_factor", 3, "loser factor of a discarder who had not declared 听 (出冲)", "HRB-A1", least=1),
        Option("hrb_chuchong_pays_all", True,
               "出冲: the unready discarder pays every loser's share (包付); else only its own", "HRB-A1"),
        Option("hrb_ting_discard_all_pay", True, "a win on a 听 seat's discard is paid by all three losers; else "
               "by the discarder alone, its own share (听 discarder \"只給一番\")", "HRB-A1"),
        Option("hrb_rob_paid_by_all", True, "抢杠 is paid like 自摸, by all three (else the robbed seat alone pays "
               "all three shares, as 出冲 包付)", "HRB.6.1"),
        # Conditions.
        Option("hrb_hongzhong_counts_as_yaojiu", True, "红中 satisfies the 幺九 condition (model hands 1 and 4)",
               "HRB-A2"),
        Option("hrb_hongzhong_pair_for_pung", True, "a 红中 pair stands in for the 刻 (\"一對紅中一般可以代替\")",
               "HRB.3"),
        Option("hrb_concealed_kong_opens", False, "a 暗杠 is 开门: it allows 听, and its seat pays as open, not 门清",
               "HRB.3"),
        Option("hrb_recheck_conditions_at_win", True, "the 幺九, 刻 and two-suit conditions hold on the final hand "
               "too (else at 听 only; a win needs just its sequence)", "HRB.5"),
        Option("hrb_ready_lock", True, "after 听: discard the drawn tile, no 吃/碰/明杠, kongs keep the waits",
               "HRB-A3"),
        Option("hrb_ready_kong_same_waits", True, "after 听 a 暗杠/补杠 must keep the same waits (else any wait)",
               "HRB-A3"),
        Option("hrb_pass_rule", "none", "漏胡: none, or the supplement's permanent forfeits", "HRB-A4",
               choices=("none", "supplement")),
        Option("hrb_reserve_tiles", 8, "tiles kept at the tail besides the 宝 (4 stacks)", "HRB-A5",
               most=112 - 53 - 1),
        Option("hrb_self_draw_only_last", 4, "the last live draws that win by self-draw only (no 点炮 after them)",
               "HRB-A5"),
        Option("hrb_baopai_after_draws", 3, "流局 in a row after which the dealer is liable for the next hand "
               "(包牌) and then passes the deal; 0 = never", "HRB-A6"),
        Option("hrb_kadang_unique_wait", True, "卡当 needs the hand's only winning tile in the middle of a sequence",
               "HRB-A8"),
        Option("hrb_kadang_edge_wait", False, "an edge wait (12→3, 89→7) is 卡当 too", "HRB.6.3"),
        Option("hrb_old_bao_dead", True, "after 换宝 the old 宝 is dead (out of play); else it stays at the tail",
               "HRB-A9"),
        Option("hrb_replacement_skips_reserve", True, "kong replacements come from just before the reserve and 宝",
               "HRB-A10"),
        Option("hrb_no_bugang_at_4", False, "no 补杠 either at four tiles in hand (the literal reading)", "HRB-A11"),
        Option("hrb_chiting_yields_to_pon", True, "a 碰 outranks a 吃听 on the same discard", "HRB-A13"),
    )

    def configure(self) -> None:
        # HRB.1: the last wall tile is the 宝; 换宝 at three in the discards, the old one dead (HRB-A9).
        self.wilds = Bao(LAST, old_leaves_play=self["hrb_old_bao_dead"])
        # HRB.1, HRB-A5, HRB-A10: 4 stacks + the 宝 stay; the last 4 live draws are self-draw only.
        self.wall_end = Reserve(self["hrb_reserve_tiles"] + 1, self_draw_only_last=self["hrb_self_draw_only_last"],
                                replacements_skip_reserve=self["hrb_replacement_skips_reserve"])
        # HRB.3: 听 with a discard, or by 吃听; required to win. HRB-A3: the lock.
        lock = ReadyLock("READY_LOCK_BREACH", "READY_CALL", "READY_WAITS_CHANGED",
                         calls=(A.PON, A.CHI, A.CHI_READY, A.KONG_EXPOSED),
                         same_waits=self["hrb_ready_kong_same_waits"],
                         call_text="seat {seat} is 听 and may not 吃, 碰 or 明杠")
        self.ready = DiscardReady(lock if self["hrb_ready_lock"] else None, declares=(A.READY_DISCARD, A.CHI_READY),
                                  required_to_win=True)
        self.concealed_kong_opens = self["hrb_concealed_kong_opens"]  # HRB.3: 吃, 碰 or 明杠 only, by default
        self.missed_win = missed.Permanent() if self["hrb_pass_rule"] == "supplement" else missed.NoMissedWinRule()
        self.bugang_at_four = not self["hrb_no_bugang_at_4"]
        if not self["hrb_chiting_yields_to_pon"]:
            self.priority = {**A.PRIORITY, A.CHI_READY: A.PRIORITY[A.PON] + 0.5}

    # -- HRB.3 / HRB.5: the conditions on a win ---------------------------------------------
    def yaojiu(self, v) -> bool:
        tiles = v.all_tiles
        return any(tiles[t] for t in YAOJIU) or self["hrb_hongzhong_counts_as_yaojiu"] and tiles[RED] > 0

    def hand_issue(self, v):
        """HRB.5: the final hand meets HRB.3's whole-hand conditions again (unless only 听 is checked)."""
        return self.suits_and_yaojiu_issue(v) if self["hrb_recheck_conditions_at_win"] else None

    def suits_and_yaojiu_issue(self, v):
        if len(v.suits) < 2:
            return "清一色: two suits are needed (\"必須有兩種色以上\", 红中 is no suit)"
        if not self.yaojiu(v):
            return "no 幺 or 九 (\"牌中必須帶至少一個幺或九\")"
        return None

    def reading_issue(self, v):
        if not self.has_set(v, CHOW):
            return "no sequence (\"和牌時必須至少有一組順牌\")"
        if not self["hrb_recheck_conditions_at_win"]:
            return None  # the 刻 was asked of the declared hand (declared_pung)
        if not self.has_set(v, PUNG) and not (v.decomposition.pair == RED and self["hrb_hongzhong_pair_for_pung"]):
            return "no 刻 (and no 红中 pair, and no 对倒 wait)"
        return None

    def declaration_issue(self, view, seat, action, hand, melds, valid):
        """HRB.3: at 听 the hand itself (melds included) holds a 幺 or 九 (红中, HRB-A2), two suits, and
        a 刻 (a called or concealed triplet, a kong), a 红中 pair, or a 对倒 wait."""
        v = HandView(WinInfo(seat, A.READY_DISCARD, None, None, list(hand), list(melds), 0), "standard")
        issue = self.suits_and_yaojiu_issue(v)
        if issue is None and not self.declared_pung(hand, melds, valid):
            issue = "no 刻 in hand (\"聽牌時,牌中必須帶至少一組刻牌\"), no 红中 pair and no 对倒 wait"
        if issue:
            return "READY_CONDITIONS", f"seat {seat} declared 听 with {T.format_counts(list(hand))}: {issue}"
        return None

    def declared_pung(self, hand, melds, valid) -> bool:
        if any(m.kind != CHI for m in melds) or any(c >= 3 for c in hand):
            return True
        if self["hrb_hongzhong_pair_for_pung"] and hand[RED] >= 2:
            return True
        for t in valid:  # 对倒: the winning tile makes one of two pairs a 刻
            if hand[t] == 2:
                trial = list(hand)
                trial[t] += 1
                if any((PUNG, t) in v.concealed_sets for v in self.valid_readings(trial, melds)):
                    return True
        return False

    # -- HRB.6.3 卡当 -------------------------------------------------------------------------
    def kadang(self, rest, melds, tile: int) -> bool:
        """The winning tile is the middle of a sequence (or, with hrb_kadang_edge_wait, closes an edge:
        12→3, 89→7), and (HRB-A8) the hand's only winning tile: 22s 6m7m7m8m9m waiting on 5m and 8m
        is no 卡当 on 8m (HRB-5)."""
        valid = self.valid_waits(rest, melds)
        if self["hrb_kadang_unique_wait"] and valid != (tile,):
            return False
        if tile not in valid or T.is_honor(tile):
            return False
        rank = T.rank_of(tile)
        edge_low = {3: tile - 2, 7: tile}.get(rank) if self["hrb_kadang_edge_wait"] else None  # the 12 or the 89
        hand = list(rest)
        hand[tile] += 1
        return any(tile - 1 in lows and rank not in (1, 9) or edge_low in lows
                   for lows in map(self.concealed_chows, self.valid_readings(hand, melds)))

    # -- HRB.6.2 payment --------------------------------------------------------------------
    def multiplier(self, win, bao) -> tuple[int, list[tuple[str, int]]]:
        """The winner multiplier M and its breakdown (平和 1 / 自摸 2 / 摸宝 3 / 宝中宝 12, 卡当 ×2)."""
        rest = self.rest_of(win)
        if win.drawn_wild:
            # 摸宝: the 宝 stands for a wait, the one worth most (REC-global-2): 卡当 on it needs it to
            # be the only wait unless hrb_kadang_unique_wait is off; on the 宝's own kind, 宝中宝.
            stand_in = self.valid_waits(rest, win.melds)
            if self["hrb_kadang_unique_wait"] and len(stand_in) != 1:
                stand_in = ()
            closed = [t for t in stand_in if self.kadang(rest, win.melds, t)]
            if bao in closed:
                return self["hrb_baozhongbao"], [("宝中宝", self["hrb_baozhongbao"])]
            kadang = bool(closed)
            base = [("摸宝", self["hrb_mobao"])]
        else:
            kadang = self.kadang(rest, win.melds, win.tile)
            base = [("平和", self["hrb_pinghe"])] if win.kind == A.RON else [("自摸", self["hrb_zimo"])]
        m = base[0][1]
        if kadang:
            base.append(("卡当", self["hrb_kadang_times"]))
            m *= self["hrb_kadang_times"]
        return m, base

    def loser_factor(self, win, payer: int, outcome: Outcome) -> int:
        """门清 (站立) or 出冲 3, else 1 (HRB-A1, HRB-A12: 站立 is a loser-side factor only)."""
        if win.kind == A.RON and payer == win.from_seat:
            return 1 if self.was_ready(outcome, payer) else self["hrb_chuchong_factor"]
        return 1 if payer in self.open_seats(outcome) else self["hrb_menqing_factor"]

    def open_seats(self, outcome: Outcome) -> set[int]:
        """开门 for the loser factor: a 吃, 碰 or 明杠; with hrb_concealed_kong_opens a 暗杠 too."""
        opened = super().open_seats(outcome)
        if self["hrb_concealed_kong_opens"]:
            opened |= {k.seat for k in outcome.kongs if k.kong_kind == CONCEALED}
        return opened

    @staticmethod
    def was_ready(outcome: Outcome, seat: int) -> bool:
        return bool(outcome.ready[seat]) if outcome.ready else False

    def liable(self, outcome: Outcome) -> bool:
        """HRB-A6: the hand after three 流局 in a row of one dealer: that dealer is liable (包牌),
        and the deal moves on whatever the result. If that hand is a 流局 too, the count carries on
        (4, 5, ...) under the next dealer, who is liable after three of its own (7, 11, ...)."""
        after = self["hrb_baopai_after_draws"]
        return bool(after) and outcome.draws_before >= after and (outcome.draws_before - after) % (after + 1) == 0

    def shares(self, win, outcome: Outcome) -> list[tuple[int, int]]:
        """(payer, whose share): 自摸 (and 抢杠) the three others; a ron on an unready discard the
        discarder for all (出冲 包付), on a 听 discard all three; 包牌 moves every share to the dealer."""
        others = [(win.seat + k) % 4 for k in (1, 2, 3)]
        if win.kind == A.RON:
            d = win.from_seat
            if not self.was_ready(outcome, d):
                pairs = [(d, p) for p in others] if self["hrb_chuchong_pays_all"] else [(d, d)]
            else:
                pairs = [(p, p) for p in others] if self["hrb_ting_discard_all_pay"] else [(d, d)]
        elif win.kind == A.ROB_WIN and not self["hrb_rob_paid_by_all"]:
            pairs = [(win.from_seat, p) for p in others]  # "單獨賠付" as 出冲 包付: every share
        else:
            pairs = [(p, p) for p in others]
        if self.liable(outcome) and win.seat != outcome.dealer:
            pairs = [(outcome.dealer, share) for _, share in pairs]
        return pairs

    def price(self, win, outcome: Outcome) -> Priced:
        m, breakdown = self.multiplier(win, outcome.indicator)
        names = "×".join(f"{name} {value}" for name, value in breakdown)

        def owed(payer: int) -> int:
            return m * self.loser_factor(win, payer, outcome)

        def reason(payer: int) -> str:
            return f"{win.kind}: M {m} ({names}) × loser factor {self.loser_factor(win, payer, outcome)}"

        return Priced(breakdown, owed, reason)

    def settle(self, outcome: Outcome) -> Settlement:
        ledger = Ledger()  # HRB.6.1 "杠牌不計分": no kong money, no cap
        scored = pay_wins(ledger, outcome, lambda win: self.price(win, outcome),
                          lambda win: self.shares(win, outcome))
        return settlement(ledger, scored)

    # -- HRB.1 the next dealer -----------------------------------------------------------------
    def next_dealer(self, outcome: Outcome) -> int:
        if self.liable(outcome):
            return (outcome.dealer + 1) % 4  # HRB-A6: after the 包牌 hand the deal moves on
        if outcome.exhaustive or not outcome.wins or outcome.wins[0].seat == outcome.dealer:
            return outcome.dealer  # "莊家贏或者和局,則繼續坐莊"
        return outcome.wins[0].seat  # "否則由該局的勝利方坐莊"
