"""宁乡开王麻将 (Ningxiang Kaiwang), as SPEC section NX states it
(seed: shared/seeds/ningxiang_kaiwang.txt).

108 suited tiles. After the deal a flipped 正王 leaves play; its two neighbours in the suit
are the 纯王, eight wildcards that may never be discarded. 吃 from the 上家 only. A kong
needs a ready hand and is resolved by 打筛: two tiles revealed instead of a replacement.
报听 right after the deal locks the hand. 漏胡: no win on a discard until the seat draws or
calls again. 封东, 海底漫游, 小胡 2 / 大胡 7n per payer doubled by each special, 扎鸟 birds.
"""
from __future__ import annotations

from referee import actions as A
from referee import shapes
from referee import tiles as T
from referee.rules.base import DASHAI, Option, Outcome, Ruleset, WinInfo
from referee.scoring import Ledger
from referee.state import ADDED, CHI, PON, Meld
from referee.verdict import PatternScore, Settlement

JIANG = tuple(t for t in range(27) if T.rank_of(t) in (2, 5, 8))  # 将: the 2/5/8 tiles
SMALL, BIG = 2, 7  # NX.6.1: 小胡 and each 大胡, per payer


class Ningxiang(Ruleset):
    name = "ningxiang"
    title = "宁乡开王麻将 (Ningxiang Kaiwang)"
    spec_section = "NX"
    tile_kinds = tuple(range(27))  # no honors
    seven_pairs = True
    chi_allowed = True  # NX.2: from the 上家 only
    multiple_ron = False  # "没有一炮多响": only 海底炮 may be won by several (通炮)
    robbable_kongs = (ADDED,)  # only a 碰杠
    missed_win_rule = "any_until_draw"  # NX.4
    kong_draws = DASHAI
    haidi_roaming = True
    has_indicator = True
    opening_ready = True
    has_feng_dong = True
    has_instant_hands = True
    options = (
        Option("nx_king_is_wild", False, "the 正王 itself is wild too (it is a natural tile by default)", "NX-A1"),
        Option("nx_pure_kings_wrap", True, "纯王 wrap at the ends: 正王 1 gives 9 and 2, 正王 9 gives 8 and 1",
               "NX-A2"),
        Option("nx_haohua_one_big_hand", True, "豪华/双豪/超豪七对 are one 大胡 each, replacing 七对", "NX-A3"),
        Option("nx_four_pure_excludes_four_kings", True, "四纯王 counts alone, not also as 四王", "NX-A5"),
        Option("nx_birds", 2, "birds (扎鸟) taken after a win", "NX-A8"),
        Option("nx_gangshang_pao_higher_tile", True,
               "a 杠上炮 winner who could take both 打筛 tiles is settled once, on the higher-value one", "NX-A10"),
        Option("nx_baoting_kong_same_waits", True,
               "after 报听 a kong must keep the same waits (else: just stay ready)", "NX-A11"),
        Option("nx_fengdong_discards_drawn_wild", True, "a 封东 seat discards a drawn 纯王 too", "NX-A12"),
        Option("nx_all_fengdong_same_dealer", True, "after all four 封东 the dealer repeats", "NX-A13"),
        Option("nx_wilds_in_melds", False, "纯王 may be used in 吃/碰/杠", "NX-A14"),
        Option("nx_yizhihua_opening_only", True, "一枝花 only as a 起手 hand", "NX-A16"),
        Option("nx_kong_needs_two_tiles", True, "a kong needs two tiles left in the wall for 打筛", "NX-A19"),
    )

    # -- NX.1 the 正王 and its 纯王 -------------------------------------------------------------
    def set_indicator(self, tile: int | None) -> None:
        self.indicator = tile
        self.wild_kinds = frozenset() if tile is None else frozenset(self.pure_kings(tile)) | (
            {tile} if self["nx_king_is_wild"] else set())

    def pure_kings(self, king: int) -> tuple[int, ...]:
        """The ranks ±1 of the 正王 in its suit (NX-14: 7万 gives 6万 and 8万)."""
        suit, rank = T.suit_of(king), T.rank_of(king)
        ranks = [rank - 1, rank + 1]
        if self["nx_pure_kings_wrap"]:
            ranks = [(r - 1) % 9 + 1 for r in ranks]
        return tuple(sorted(suit * 9 + r - 1 for r in ranks if 1 <= r <= 9))

    def count_pure(self, hand: list[int]) -> int:
        return sum(hand[t] for t in self.pure_kings(self.indicator)) if self.indicator is not None else 0

    # -- NX.5 winning hands -----------------------------------------------------------------
    def is_win(self, hand: list[int], melds: list[Meld]) -> bool:
        if max(hand) > self.copies:
            return False
        naturals, wilds = self.split_wilds(hand)
        return self.ping_hu(naturals, wilds) or bool(self.big_hands(hand, melds))

    def _may_be_ready(self, hand: list[int], melds: list[Meld]) -> bool:
        naturals, _ = self.split_wilds(hand)
        return super()._may_be_ready(hand, melds) or self.all_jiang(naturals, melds)

    @staticmethod
    def ping_hu(naturals: list[int], wilds: int) -> bool:
        """平胡: four sets and a pair of 2, 5 or 8 (a wild may be or complete the pair)."""
        if (sum(naturals) + wilds) % 3 != 2:
            return False
        if shapes.standard_cost(naturals, with_pair=False) + 2 <= wilds:
            return True  # two wilds make the pair
        for t in JIANG:
            if naturals[t]:
                used = min(naturals[t], 2)
                rest = list(naturals)
                rest[t] -= used
                if shapes.standard_cost(rest, with_pair=False) + 2 - used <= wilds:
                    return True
        return False

    @staticmethod
    def all_pungs(naturals: list[int], wilds: int, melds: list[Meld]) -> bool:
        """碰碰胡: a pair and pungs only, melds included (wilds complete pungs or the pair)."""
        if any(m.kind == CHI for m in melds) or (sum(naturals) + wilds) % 3 != 2:
            return False
        fill = [3 - c if c <= 3 else None for c in naturals]
        if any(f is None for c, f in zip(naturals, fill) if c):
            return False
        pungs = sum(f for c, f in zip(naturals, fill) if c)
        best = pungs + 2  # a pair of wilds
        for t, c in enumerate(naturals):
            if c in (1, 2):
                best = min(best, pungs - fill[t] + 2 - c)
        return best <= wilds

    @staticmethod
    def all_jiang(naturals: list[int], melds: list[Meld]) -> bool:
        """将将胡 needs every natural tile, melds included, to be a 2/5/8, and no 吃."""
        if any(m.kind == CHI for m in melds):
            return False
        return all(not c or t in JIANG for t, c in enumerate(naturals)) and all(m.tile in JIANG for m in melds)

    def big_hands(self, hand: list[int], melds: list[Meld]) -> list[str]:
        """The shaped 大胡 this winning hand holds (NX.5 1-4), each worth 7 per payer.

        A hand is read either as sets and a pair or as seven pairs, never both at once (a
        wild cannot stand in a pung and in a pair together); the reading with more 大胡 counts.
        """
        naturals, wilds = self.split_wilds(hand)
        jiang = ["将将胡"] if sum(naturals) + wilds + 3 * len(melds) == 14 and self.all_jiang(naturals, melds) else []
        as_sets = []
        if shapes.is_standard_win(naturals, wilds):
            suits = {T.suit_of(t) for t, c in enumerate(naturals) if c} | {T.suit_of(m.tile) for m in melds}
            if len(suits) <= 1:
                as_sets.append("清一色")
            if self.all_pungs(naturals, wilds, melds):
                as_sets.append("碰碰胡")
        as_pairs = []
        if not melds and shapes.is_seven_pairs(naturals, wilds):
            quads = min(self.seven_pair_quads(naturals, wilds), 3)
            fancy = ("豪华七对", "双豪七对", "超豪七对")[quads - 1] if quads else None
            if fancy and self["nx_haohua_one_big_hand"]:
                as_pairs.append(fancy)
            else:
                as_pairs += ["七对"] + ([fancy] if fancy else [])
        return max(as_sets + jiang, as_pairs + jiang, key=len)

    @staticmethod
    def seven_pair_quads(naturals: list[int], wilds: int) -> int:
        """Most sets of four identical tiles a seven-pairs hand can show (wilds fill them)."""
        singles = sum(c & 1 for c in naturals)
        spare = wilds - singles  # wilds left after every odd count is paired up
        quads = sum(1 for c in naturals if c >= 3)  # 4, or 3 plus its pairing wild
        pairs = sum(1 for c in naturals if c == 2)
        upgraded = min(pairs, spare // 2)
        return quads + upgraded + (spare - 2 * upgraded) // 4

    def instant_hands(self, hand: list[int], melds: list[Meld], opening: bool) -> tuple[str, ...]:
        """NX.5 5-10: hands that win as they are, with no shape (NX-A4)."""
        if melds or self.indicator is None:
            return ()
        king, pure = self.indicator, self.pure_kings(self.indicator)
        kings = hand[king] + sum(hand[t] for t in pure)
        found = []
        if opening and not kings and not any(hand[t] for t in JIANG):
            found.append("无王无将")
        if opening and any(not any(hand[9 * s:9 * s + 9]) for s in range(3)):
            found.append("缺一色")
        four_pure = any(hand[t] == 4 for t in pure)
        if four_pure:
            found.append("四纯王")
        if hand[king] >= 3:
            found.append("黑天胡")
        if (opening or not self["nx_yizhihua_opening_only"]) and kings == 1:
            lone = king if hand[king] else next(t for t in pure if hand[t])
            suit = T.suit_of(lone)
            if sum(hand[9 * suit:9 * suit + 9]) == 1:
                found.append("一枝花")
        if sum(hand[t] for t in pure) >= 4 and not (four_pure and self["nx_four_pure_excludes_four_kings"]):
            found.append("四王")
        return tuple(found)

    # -- NX.2-NX.4 what Ningxiang forbids -----------------------------------------------------
    def forbid(self, replay, seat: int, action):
        s = replay.table.seats[seat]
        kind, tile = action.kind, action.tile
        drawn = replay.last_draw[seat]
        if kind == A.DISCARD:
            if s.feng_dong:
                if drawn is not None and tile != drawn:
                    return "FENGDONG_BREACH", f"seat {seat} is 封东 and must discard the tile it drew"
                if self["nx_fengdong_discards_drawn_wild"]:
                    return None
            if tile in self.wild_kinds and not (s.ready and tile == drawn):
                # A 报听 seat must let its drawn tile go; as for 封东 (NX-A12), the lock is the
                # more specific rule, else a seat that drew a 纯王 and passed the win has no move.
                return "WILD_DISCARDED", f"seat {seat} discarded {T.label(tile)}, a 纯王"
            if replay.haidi_taker == seat and replay.last_live_draw and tile != drawn:
                return "HAIDI_NOT_DISCARDED", (f"seat {seat} took the 海底 {T.label(drawn)} and must discard it, "
                                               f"not {T.label(tile)}")
            if s.ready and drawn is not None and tile != drawn:
                return "BAOTING_HAND_CHANGE", (f"seat {seat} declared 报听 and drew {T.label(drawn)} but "
                                               f"discarded {T.label(tile)}")
            return None
        if kind == A.OPENING_READY:
            if seat == replay.table.dealer:
                return "BAOTING_BY_DEALER", f"seat {seat} is the dealer"
            if not replay.deal_window or self.indicator is None or s.ready:
                return "BAOTING_OUT_OF_WINDOW", (f"seat {seat} declared 报听 outside the window between the 正王 "
                                                 f"flip and the dealer's first discard")
            if not replay.waits_of(seat):
                return "BAOTING_NOT_TENPAI", f"seat {seat}'s hand {s.concealed()} waits on nothing"
            return None
        if s.feng_dong:
            return "FENGDONG_BREACH", f"seat {seat} is 封东: it may only draw and discard"
        if kind in (A.RON, A.ROB_WIN) and tile == self.indicator and not self["nx_king_is_wild"]:
            return "RON_ON_KING", f"{T.label(tile)} is the 正王: it can be won on only by self-draw"
        if kind in (A.PON, A.CHI, A.KONG_EXPOSED, A.KONG_CONCEALED, A.KONG_ADDED, A.KONG_BORROWED):
            return self.forbid_call(replay, seat, action)
        return None

    def forbid_call(self, replay, seat: int, action):
        s = replay.table.seats[seat]
        kind, tile = action.kind, action.tile
        if s.dashai_locked:
            return "CALL_AFTER_DASHAI", f"seat {seat} has made its 打筛 and may only draw and discard"
        if getattr(replay.phase, "last_tile", False):
            return "ILLEGAL_CALL", "no 吃/碰/杠 on the 海底 discard"
        uses = [tile] if kind != A.CHI else [tile, tile + 1, tile + 2]
        if not self["nx_wilds_in_melds"] and any(t in self.wild_kinds for t in uses):
            return "ILLEGAL_CALL", "a 纯王 may not be used in 吃/碰/杠 (NX-A14)"
        if kind in (A.PON, A.CHI):
            if s.ready:
                return "BAOTING_HAND_CHANGE", f"seat {seat} declared 报听 and may not 吃 or 碰"
            return None
        return self.forbid_kong(replay, seat, action)

    def forbid_kong(self, replay, seat: int, action):
        """NX.2: a kong only when ready (before or after it), with two tiles left for 打筛."""
        s, tile = replay.table.seats[seat], action.tile
        if self["nx_kong_needs_two_tiles"] and replay.table.wall.remaining < 2:
            return "KONG_NOT_READY", "a kong needs two tiles left in the wall for 打筛"
        from_hand = {A.KONG_CONCEALED: 4, A.KONG_ADDED: 1, A.KONG_BORROWED: 0, A.KONG_EXPOSED: 3}[action.kind]
        before = list(s.hand)
        drawn = replay.last_draw[seat]
        if action.kind != A.KONG_EXPOSED and drawn is not None:
            before[drawn] -= 1  # "听牌状态" is the hand waiting before this turn's draw
        after, melds = replay.hand_after_kong(seat, tile, from_hand)
        waits_after = self.waits(after, melds)
        if not waits_after and not self.is_tenpai(before, s.melds):
            return "KONG_NOT_READY", f"seat {seat} is not ready before or after 杠 {T.label(tile)}"
        if s.ready:
            if self["nx_baoting_kong_same_waits"] and waits_after != s.ready_waits:
                return "BAOTING_HAND_CHANGE", f"after 报听, 杠 {T.label(tile)} changes seat {seat}'s waits"
            if not waits_after:
                return "BAOTING_HAND_CHANGE", f"after 报听, 杠 {T.label(tile)} leaves seat {seat} not ready"
        return None

    def may_borrow_kong(self, melds: list[Meld], tile: int) -> bool:
        """借子开杠: a 碰 of the 正王 plus the flipped indicator on the wall."""
        return tile == self.indicator and any(m.kind == PON and m.tile == tile for m in melds)

    def allows_multiple_ron(self, last_tile: bool) -> bool:
        return last_tile  # 海底炮 "可通炮"

    # -- NX.6 settlement ----------------------------------------------------------------------
    def hand_value(self, win: WinInfo, dealer: int) -> tuple[int, list[tuple[str, int]]]:
        """(per-payer amount, breakdown): 小胡 2 or 大胡 7 each, doubled by every special."""
        big = list(win.instant) or self.big_hands(win.hand, win.melds)
        breakdown = [(name, BIG) for name in big] or [("平胡", SMALL)]
        unit = BIG * len(big) if big else SMALL
        specials = [
            ("天胡", win.opening and win.seat == dealer and win.kind == A.SELF_WIN),
            ("海底捞月", win.last_tile and win.kind == A.SELF_WIN),
            ("海底炮", win.last_tile and win.kind == A.RON),
            ("杠上开花", win.after_replacement and win.kind == A.SELF_WIN),
            ("杠上炮", win.on_kong_reveal),
            ("六王", self.count_pure(win.hand) >= 6),
            ("报听", win.ready),
            ("抢杠胡", win.kind == A.ROB_WIN),
        ]
        for name, holds in specials:
            if holds:
                breakdown.append((name, 2))  # ×2
                unit *= 2
        return unit, breakdown

    def bird_seat(self, tile: int, dealer: int) -> int:
        """NX.6.2: counted from the dealer: 1/5/9 dealer, 2/6 下家, 3/7 对家, 4/8 上家."""
        return (dealer + (T.rank_of(tile) - 1)) % 4

    def bird_count(self, remaining: int, outcome: Outcome) -> int:
        """NX-A7: no birds when the win used the 海底; the 海底 alone is one bird."""
        if any(w.last_tile for w in outcome.wins):
            return 0
        return min(self["nx_birds"], remaining)

    def settle(self, outcome: Outcome, bird_anchor: str = "dealer") -> Settlement:
        ledger, scored = Ledger(), []
        for win in outcome.wins:
            unit, breakdown = self.hand_value(win, outcome.dealer)
            scored.extend(PatternScore(win.seat, name, value) for name, value in breakdown)
            anchor = outcome.dealer if bird_anchor == "dealer" else win.seat
            hits = [0, 0, 0, 0]
            for bird in outcome.birds:
                hits[self.bird_seat(bird, anchor)] += 1
            payers = [s for s in range(4) if s != win.seat] if win.kind == A.SELF_WIN else [win.from_seat]
            names = "+".join(name for name, _ in breakdown)
            for payer in payers:
                times = 1 + hits[payer] + hits[win.seat]
                ledger.pay(payer, win.seat, unit * times, f"{win.kind}: {names} = {unit}"
                           + (f" × {times} with birds" if times > 1 else ""))
        return Settlement(payments=ledger.nets(), kong_payments=(0, 0, 0, 0), patterns=tuple(scored),
                          lines=ledger.lines())

    def best_tile(self, replay, seat: int, tiles: list[int], source: int) -> int:
        """NX-A10: one 杠上炮 settlement, on the tile worth more to the winner."""
        winnable = [t for t in dict.fromkeys(tiles)]
        if not self["nx_gangshang_pao_higher_tile"] or len(winnable) == 1:
            return winnable[0]
        s = replay.table.seats[seat]

        def value(t: int) -> int:
            hand = list(s.hand)
            hand[t] += 1
            win = WinInfo(seat, A.RON, t, source, hand, list(s.melds), 0, ready=s.ready, on_kong_reveal=True)
            return self.hand_value(win, replay.table.dealer)[0]

        return max(winnable, key=lambda t: (value(t), -winnable.index(t)))

    def explain_mismatch(self, outcome: Outcome, claimed):
        if outcome.birds and tuple(claimed.payments) == self.settle(outcome, bird_anchor="winner").payments:
            return "BIRD_MISMAPPED", "the platform counted the birds from the winner, not from the dealer"
        return None

    # -- NX.1 the next dealer -------------------------------------------------------------------
    def next_dealer(self, outcome: Outcome) -> int:
        if outcome.all_feng_dong:
            return outcome.dealer if self["nx_all_fengdong_same_dealer"] else (outcome.dealer + 1) % 4
        if outcome.wins:
            winners = {w.seat for w in outcome.wins}
            if len(winners) > 1:  # 海底炮 通炮: the discarder deals
                return outcome.wins[0].from_seat
            return outcome.wins[0].seat  # "胡牌为庄"
        if outcome.haidi_taker is None:
            return (outcome.dealer + 1) % 4  # nobody took the 海底
        return outcome.haidi_taker

