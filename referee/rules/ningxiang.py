"""宁乡开王麻将 (Ningxiang Kaiwang), as SPEC section NX states it
(seed: shared/seeds/ningxiang_kaiwang.txt).

108 suited tiles. After the deal a flipped 正王 leaves play; its two neighbours in the suit
are the 纯王, eight wildcards that may never be discarded. 吃 from the 上家 only. A kong
needs a ready hand and is resolved by 打筛: two tiles revealed instead of a replacement;
a seat that 碰'd the 正王 may borrow the flipped one for its kong (借子开杠), in place of its draw.
报听 right after the deal locks the hand. 漏胡: no win on a discard until the seat draws or
calls again. 封东, 海底漫游, 小胡 2 / 大胡 7n per payer doubled by each special, 扎鸟 birds.
"""
from __future__ import annotations

from operator import itemgetter

from referee import actions as A
from referee import shapes
from referee import tiles as T
from referee.parts.extras import Birds, counted_seat
from referee.parts.kongs import Dashai, DashaiWindow
from referee.parts.missed import AnyUntilDraw
from referee.parts.ready import OpeningReady, ReadyLock
from referee.parts.walls import HaidiRoaming
from referee.parts.wilds import FlippedIndicator
from referee.phases import Claim, Turn
from referee.rules.base import ALL_KINDS, NO_WILDS, Option, Outcome, Ruleset, WinInfo
from referee.scoring import (TIMES, HandContext, HandView, Ledger, Pattern, Priced, added, best_reading,
                             claims_other_patterns, evaluate, factor, pay_wins, settlement)
from referee.state import ADDED, CHI, PON, Meld
from referee.verdict import REFUSED, TOOK_EFFECT, Settlement

JIANG = frozenset(t for t in range(27) if T.rank_of(t) in (2, 5, 8))  # 将: the 2/5/8 tiles
SMALL, BIG = 2, 7  # NX.6.1: 小胡 and each 大胡, per payer
INSTANT_HANDS = ("无王无将", "缺一色", "四纯王", "黑天胡", "一枝花", "四王")  # NX.5 5-10
SETS, PAIRS, INSTANT = "sets", "seven_pairs", "instant"  # the readings: two shapes, and the instant 大胡
SMALL_HAND = Pattern("平胡", "small hand", SMALL, lambda v: True)
FENG_DONG = "封东"  # the lock a 封东 seat is under: draw and discard only, no win
ALL_FENG_DONG = "all four 封东"

_NOT_JIANG = itemgetter(*(t for t in range(T.KINDS) if t not in JIANG))  # a hand's counts of the other kinds


class Ningxiang(Ruleset):
    name = "ningxiang"
    title = "宁乡开王麻将 (Ningxiang Kaiwang)"
    spec_section = "NX"
    tile_kinds = tuple(range(27))  # no honors
    seven_pairs = True
    chi_allowed = True  # NX.2: from the 上家 only
    multiple_ron = False  # "没有一炮多响": only 海底炮 may be won by several (通炮)
    robbable_kongs = (ADDED,)  # only a 碰杠
    kong_after_pon = True  # NX.2 "先选择碰牌，再选择杠或者…碰牌后选择杠": a 补杠 right after a 碰
    kong_after_call = True  # NX.2 暗杠 "own turn" and ready: the turn of a 吃 or 碰 is one (NX.4 forbids no such kong)
    options = (
        Option("nx_king_is_wild", False, "the 正王 itself is wild too (it is a natural tile by default)", "NX-A1"),
        Option("nx_pure_kings_wrap", True, "纯王 wrap at the ends: 正王 1 gives 9 and 2, 正王 9 gives 8 and 1",
               "NX-A2"),
        Option("nx_haohua_one_big_hand", True, "豪华/双豪/超豪七对 are one 大胡 each, replacing 七对", "NX-A3"),
        Option("nx_four_pure_excludes_four_kings", True, "四纯王 counts alone, not also as 四王", "NX-A5"),
        Option("nx_birds", 2, "birds (扎鸟) taken after a win", "NX-A8", most=108 - 53 - 1),  # (the 正王 is out of play)
        Option("nx_gangshang_pao_higher_tile", True,
               "a 杠上炮 winner who could take both 打筛 tiles is settled once, on the higher-value one", "NX-A10"),
        Option("nx_baoting_kong_same_waits", True,
               "after 报听 a kong must keep the same waits (else: just stay ready)", "NX-A11"),
        Option("nx_baoting_after_indicator", True,
               "报听 only once the 正王 is flipped (else also between the deal and the flip)", "NX-A20"),
        Option("nx_fengdong_discards_drawn_wild", True, "a 封东 seat discards a drawn 纯王 too", "NX-A12"),
        Option("nx_all_fengdong_same_dealer", True, "after all four 封东 the dealer repeats", "NX-A13"),
        Option("nx_wilds_in_melds", False, "纯王 may be used in 吃/碰/杠", "NX-A14"),
        Option("nx_wild_in_258_pair", True, "a 纯王 may be, or complete, 平胡's 2/5/8 pair (else the pair is two "
               "natural tiles)", "NX-A14"),
        Option("nx_wilds_in_jiangjiang", True, "in 将将胡 a 纯王 may stand for a 2/5/8 (else it counts at its face)",
               "NX-A14"),
        Option("nx_yizhihua_opening_only", True, "一枝花 only as a 起手 hand", "NX-A16"),
        Option("nx_kong_needs_two_tiles", True, "a kong needs two tiles left in the wall for 打筛", "NX-A19"),
        Option("nx_dashai_lock_blocks_win", False,
               "the lock after 打筛 forbids 胡 too (not the 杠上开花 on the 打筛 tiles themselves)", "NX.2"),
        Option("nx_pon_over_chi", True, "碰/杠 outrank 吃 on one discard (else they rank equal, nearest seat first)",
               "NX-A15"),
        Option("nx_calls_on_haidi_discard", False, "碰 and 吃 may take the 海底 discard", "NX.4"),
        Option("nx_missed_win_on_special_tiles", True,
               "passing a win on a 杠上炮, 抢杠 or 海底炮 tile starts the 漏胡 lock too", "NX.4"),
        Option("nx_haidi_bird_rule", "haidi_is_bird",
               "birds when the wall is down to the 海底: it is the one bird (haidi_is_bird), or there are none "
               "(no_birds)", "NX-A7", choices=("haidi_is_bird", "no_birds")),
    )

    def configure(self) -> None:
        self._pure_kings: dict[int, tuple[int, ...]] = {}  # 正王 -> its 纯王
        self.wall_end = HaidiRoaming()  # NX.4 海底漫游: no reserve, the last tile is offered around
        self.kong_draw = Dashai(self["nx_kong_needs_two_tiles"], "KONG_NOT_READY",  # NX.2 打筛
                                lock_blocks_win=self["nx_dashai_lock_blocks_win"])
        self.wilds = FlippedIndicator(self.wilds_of, leaves_play=True)  # NX.1 正王 and 纯王
        # NX.3 报听, and NX-A11: discard the drawn tile, no 吃/碰, kongs keep the waits.
        self.ready = OpeningReady(ReadyLock(
            "BAOTING_HAND_CHANGE", "BAOTING_HAND_CHANGE", "BAOTING_HAND_CHANGE", calls=(A.PON, A.CHI),
            same_waits=self["nx_baoting_kong_same_waits"],
            discard_text="seat {seat} declared 报听 and drew {drawn} but discarded {tile}",
            call_text="seat {seat} declared 报听 and may not 吃 or 碰",
            kong_text="after 报听, 杠 {tile} leaves seat {seat} not ready",
            waits_text="after 报听, 杠 {tile} changes seat {seat}'s waits"),
            after_indicator=self["nx_baoting_after_indicator"])  # NX-A20: the window opens at the 正王 flip
        self.missed_win = AnyUntilDraw(self["nx_missed_win_on_special_tiles"])  # NX.4 漏胡
        self.after_hand = (Birds(self.bird_count),)  # NX.6.2 扎鸟
        self.big_patterns, self.specials = self._patterns()
        # NX-A14 read the other way: a wild may not be the 平胡 pair, or a 将 it is not at face.
        self.wild_fills_any_place = self["nx_wild_in_258_pair"] and self["nx_wilds_in_jiangjiang"]
        if not self["nx_pon_over_chi"]:
            # 碰 and 吃 rank equal, the nearest seat first: a 吃 comes only from the discarder's 下家,
            # the nearest seat, so it takes every tie.
            self.priority = {**A.PRIORITY, A.CHI: A.PRIORITY[A.PON] + 0.5}

    def own_declarations(self) -> dict:
        return {"feng_dong": self.on_feng_dong, "win": self.on_opening_win}

    # -- NX.1 the 正王 and its 纯王 -------------------------------------------------------------
    def pure_kings(self, king: int) -> tuple[int, ...]:
        """The ranks ±1 of the 正王 in its suit (NX-14: 7万 gives 6万 and 8万)."""
        found = self._pure_kings.get(king)
        if found is None:  # (asked at every turn: 起手 hands count kings)
            suit, rank = T.suit_of(king), T.rank_of(king)
            ranks = [rank - 1, rank + 1]
            if self["nx_pure_kings_wrap"]:
                ranks = [(r - 1) % 9 + 1 for r in ranks]
            found = self._pure_kings[king] = tuple(sorted(suit * 9 + r - 1 for r in ranks if 1 <= r <= 9))
        return found

    def wilds_of(self, king: int) -> frozenset[int]:
        return frozenset(self.pure_kings(king)) | ({king} if self["nx_king_is_wild"] else set())

    def count_pure(self, hand: list[int], king: int | None) -> int:
        return sum(hand[t] for t in self.pure_kings(king)) if king is not None else 0

    # -- NX.5 winning hands -----------------------------------------------------------------
    def is_win(self, hand, melds, wilds=NO_WILDS, room=None) -> bool:
        if max(hand) > self.copies:
            return False
        naturals, count = self.split_wilds(hand, wilds)
        return self.shaped_win(naturals, count, melds, room, self.jiang_wilds(hand, wilds))

    def shaped_win(self, naturals: list[int], wilds: int, melds, room=None, jiang_wilds: bool = True) -> bool:
        """平胡 or a shaped 大胡, of a hand split into naturals and a wild count. `jiang_wilds`: whether
        its wilds may be in a 将将胡 (Ningxiang.jiang_wilds)."""
        return self.ping_hu(naturals, wilds, room) or self.has_big_hand(naturals, wilds, melds, room, jiang_wilds)

    def jiang_wilds(self, hand, wilds) -> bool:
        """May the hand's wilds be part of a 将将胡? NX-A14 says they may stand for 2/5/8 tiles; read
        the other way (nx_wilds_in_jiangjiang off), each counts at its face, which must be a 2/5/8."""
        return self["nx_wilds_in_jiangjiang"] or all(t in JIANG for t in wilds if hand[t])

    def waits(self, hand, melds, wilds=NO_WILDS, room=None) -> tuple[int, ...]:
        """A win is 平胡 (a standard shape with a 2/5/8 pair) or a 大胡 (NX.5): the 平胡 waits come
        from the tables with the pair held to 2/5/8. A 大胡 is 清一色 or 碰碰胡 (a standard shape,
        any pair), 七小对 or 将将胡 (all 2/5/8): their shapes' waits are the candidates, searched
        only where the hand may still make one, and each is checked against NX.5."""
        if self.counts_of(hand) is None:
            return ()
        naturals, count = self.split_wilds(hand, wilds)
        if self.far_from_ready(naturals, count, melds):
            return ()  # the usual hand: no tile (nor a wild's copy) completes any 胡 shape
        kinds = self.kind_set
        ping_hu = self.ping_hu_waits(naturals, count, room)
        standard = self.may_make_big_shape(naturals, melds)
        candidates = set(shapes.hand_waits(naturals, count, room=room, seven_pairs=not melds, kinds=kinds,
                                           standard=standard) if standard or not melds else ())
        jiang_wilds = self.jiang_wilds(hand, wilds)
        if jiang_wilds and self.all_jiang(naturals, melds):
            candidates.update(JIANG)
        candidates.update(ping_hu)
        if not candidates:
            return ()  # nothing completes the hand, so neither does a wild's copy (it stands for one of them)
        naturals = list(naturals)
        found = []
        for t in sorted(candidates - wilds):
            if hand[t] < self.copies:
                if t in ping_hu:
                    found.append(t)
                    continue
                naturals[t] += 1
                if self.has_big_hand(naturals, count, melds, room, jiang_wilds):
                    found.append(t)
                naturals[t] -= 1
        return self.with_wild_waits(found, hand, melds, wilds, room) if wilds else tuple(found)

    def ping_hu(self, naturals: list[int], wilds: int, room=None) -> bool:
        """平胡: four sets and a pair of 2, 5 or 8 (NX-A14: a wild may be or complete the pair)."""
        if wilds and not self["nx_wild_in_258_pair"]:
            return self.natural_pair_ping_hu(naturals, wilds, room)
        return shapes.is_standard_win(naturals, wilds, room=room, pair_kinds=JIANG)

    @staticmethod
    def natural_pair_ping_hu(naturals: list[int], wilds: int, room=None) -> bool:
        """平胡 whose 2/5/8 pair is two natural tiles: the wilds complete sets only."""
        if (sum(naturals) + wilds) % 3 != 2:
            return False
        for j in JIANG:
            if naturals[j] >= 2:
                rest = list(naturals)
                rest[j] -= 2
                rest_room = list(room) if room is not None else [4] * T.KINDS
                rest_room[j] -= 2  # the pair's copies: a wild may stand for at most what is left
                if shapes.standard_cost(rest, with_pair=False, room=rest_room) <= wilds:
                    return True
        return False

    def ping_hu_waits(self, naturals: list[int], wilds: int, room=None):
        """The natural kinds that complete a 平胡: from the tables, or with the pair held to two
        natural tiles (nx_wild_in_258_pair off) one trial per kind."""
        if not wilds or self["nx_wild_in_258_pair"]:
            return shapes.pair_waits(bytes(naturals), wilds, room, self._allowed, JIANG)
        found, trial = set(), list(naturals)
        for t in self.tile_kinds:
            if trial[t] < (room[t] if room is not None else 4):
                trial[t] += 1
                if self.natural_pair_ping_hu(trial, wilds, room):
                    found.add(t)
                trial[t] -= 1
        return found

    @staticmethod
    def all_pungs(naturals: list[int], wilds: int, melds: list[Meld], room=None) -> bool:
        """碰碰胡: a pair and pungs only, melds included (wilds complete pungs or the pair)."""
        return not any(m.kind == CHI for m in melds) and shapes.is_all_pungs(naturals, wilds, room)

    @staticmethod
    def all_jiang(naturals: list[int], melds: list[Meld]) -> bool:
        """将将胡 needs every natural tile, melds included, to be a 2/5/8, and no 吃."""
        if any(m.kind == CHI for m in melds):
            return False
        return not any(_NOT_JIANG(naturals)) and all(m.tile in JIANG for m in melds)

    def has_big_hand(self, naturals: list[int], wilds: int, melds: list[Meld], room=None,
                     jiang_wilds: bool = True) -> bool:
        """Does the hand hold a shaped 大胡 (NX.5 1-4), so that any pair will do?"""
        if jiang_wilds and sum(naturals) + wilds + 3 * len(melds) == 14 and self.all_jiang(naturals, melds):
            return True
        if (self.one_suit(naturals, melds) or self.all_pungs(naturals, wilds, melds, room)) and \
                shapes.is_standard_win(naturals, wilds, room=room):  # (the cheap conditions first)
            return True
        return not melds and shapes.is_seven_pairs(naturals, wilds, room=room)

    def far_from_ready(self, naturals: list[int], wilds: int, melds: list[Meld]) -> bool:
        """No tile can complete the hand: its standard shape lacks more than one tile beyond the
        wilds (room and a 2/5/8 pair only add to that), seven pairs lack more than one pair,
        and it is no 将将胡 hand. One tile lowers each count of what is missing by one at most."""
        reach = wilds + 1
        return (shapes.standard_cost(naturals) > reach
                and (melds or naturals.count(1) + naturals.count(3) > reach)
                and not self.all_jiang(naturals, melds))

    def may_make_big_shape(self, naturals: list[int], melds: list[Meld]) -> bool:
        """Could one more tile make this hand 清一色 or 碰碰胡? Not if its naturals and melds span
        two suits, and it has a 吃 or more kinds than the pungs and pair still to make."""
        return not any(m.kind == CHI for m in melds) and T.KINDS - naturals.count(0) <= 5 - len(melds) or \
            self.one_suit(naturals, melds)

    @staticmethod
    def one_suit(naturals: list[int], melds: list[Meld]) -> bool:
        """清一色: every natural tile and meld in one suit (wilds stand for what is needed)."""
        suits = {T.suit_of(m.tile) for m in melds}
        for q, (lo, hi) in enumerate(T.PARTS):
            if any(naturals[lo:hi]):
                suits.add(q)
                if len(suits) > 1:
                    return False  # (most hands stop at their second suit)
        return len(suits) <= 1

    @staticmethod
    def seven_pair_quads(naturals: list[int], wilds: int) -> int:
        """Most sets of four identical tiles a seven-pairs hand can show (wilds fill them)."""
        singles = sum(c & 1 for c in naturals)
        spare = wilds - singles  # wilds left after every odd count is paired up
        quads = sum(1 for c in naturals if c >= 3)  # 4, or 3 plus its pairing wild
        pairs = sum(1 for c in naturals if c == 2)
        upgraded = min(pairs, spare // 2)
        return quads + upgraded + (spare - 2 * upgraded) // 4

    def instant_hands(self, view, hand, melds, opening) -> tuple[str, ...]:
        """NX.5 5-10: hands that win as they are, with no shape (NX-A4). 四纯王, 黑天胡 and 四王 hold
        "起手 or drawn later", calls or not, on the hand as it stands; the others are the dealt
        hand's ("发牌后，手牌中…"), which a seat may declare until its first discard."""
        king = view.indicator
        if king is None:
            return ()
        pure = self.pure_kings(king)
        kings = hand[king] + sum(map(hand.__getitem__, pure))  # (asked at every draw: the common exit below)
        untouched = not melds
        if not opening and kings < 3 and not (kings == 1 and untouched and not self["nx_yizhihua_opening_only"]):
            return ()  # after the 起手 only three kings or more (or, by option, 一枝花) make one
        dealt = self.dealt_hand(view, hand) if opening else hand
        dealt_kings = dealt[king] + sum(map(dealt.__getitem__, pure))
        found = []
        if untouched and opening and not dealt_kings and not any(map(dealt.__getitem__, JIANG)):
            found.append("无王无将")
        if untouched and opening and any(not any(dealt[9 * s:9 * s + 9]) for s in range(3)):
            found.append("缺一色")
        four_pure = any(hand[t] == 4 for t in pure)
        if four_pure:
            found.append("四纯王")
        if hand[king] >= 3:
            found.append("黑天胡")
        if untouched and (opening or not self["nx_yizhihua_opening_only"]) and dealt_kings == 1:
            lone = king if dealt[king] else next(t for t in pure if dealt[t])
            suit = T.suit_of(lone)
            if sum(dealt[9 * suit:9 * suit + 9]) == 1:
                found.append("一枝花")
        if sum(hand[t] for t in pure) >= 4 and not (four_pure and self["nx_four_pure_excludes_four_kings"]):
            found.append("四王")
        return tuple(found)

    @staticmethod
    def dealt_hand(view, hand: list[int]) -> list[int]:
        """The hand as it was dealt: a seat other than the dealer that declares a 起手 hand at its
        first draw (NX-A4: the window lasts until its first discard) holds the drawn tile besides."""
        seat = getattr(view.phase, "seat", None)
        if seat is None or seat == view.dealer or sum(hand) % 3 != 2:
            return hand
        drawn = view.seats[seat].drawn
        if drawn is None or not hand[drawn]:
            return hand
        dealt = list(hand)
        dealt[drawn] -= 1
        return dealt

    def deal_window_win(self, view, seat: int) -> bool:
        s = view.seats[seat]
        return bool(self.instant_hands(view, s.hand, s.melds, opening=True)) and \
            self.forbid(view, seat, A.Action(A.SELF_WIN)) is None

    def on_opening_win(self, replay, event) -> bool:
        """A 起手 hand declared by a seat other than the one to act, right after the deal (NX-A4)."""
        phase, seat = replay.phase, event.seat
        if not (replay.table.deal_window and isinstance(phase, Turn) and seat != phase.seat):
            return False
        s, view = replay.table.seats[seat], replay.view
        instant = self.instant_hands(view, s.hand, s.melds, opening=True)
        issue = self.forbid(view, seat, A.Action(A.SELF_WIN))
        replay.note_deal_decision(seat, A.Action(A.SELF_WIN), REFUSED if issue or not instant else TOOK_EFFECT)
        replay.check_win_kind(event, A.SELF_WIN, "on its dealt tiles (a 起手 hand)")
        replay.check_own_win_tile(event, None)
        replay.play_begins(seat)
        if not instant or issue:
            replay.flag_issue(issue, seat, fatal=True)
            replay.flag("FALSE_WIN", seat, f"seat {seat} declared a 起手 win with {s.concealed()}, which holds no "
                        f"instant hand", fatal=True)
        replay.add_win(seat, A.SELF_WIN, None, None, replay.index, in_hand=True, instant=instant, ready="")
        replay.end()
        return True

    # -- NX.4 封东 ------------------------------------------------------------------------------
    def may_declare(self, view, seat: int, kind: str) -> bool:
        """封东 once: a seat under it may only draw and discard (NX.4)."""
        return super().may_declare(view, seat, kind) and not (kind == "feng_dong" and FENG_DONG in view.seats[seat].locks)

    def on_feng_dong(self, replay, event) -> bool:
        """封东: the seat may only draw and discard until someone wins; all four at the start end
        the hand at once."""
        table, phase, seat = replay.table, replay.phase, event.seat
        if not self.may_declare(replay.view, seat, "feng_dong"):
            replay.flag("FENGDONG_BREACH", seat, f"seat {seat} is 封东 already: it may only draw and discard")
            return True
        if type(phase) is Claim and seat in phase.declared and phase.declared[seat][0].kind == A.PASS:
            # Its 过 in this window, judged before the lock hides the win from the close. (封东 with no 过
            # is no choice yet: the seat may still declare, a FENGDONG_BREACH.)
            if replay.trace:
                replay.note_claim_decision(seat, phase, set())
            replay.check_missed_win(seat, A.Action(A.RON, phase.tile), phase, at=phase.declared[seat][1])
        table.seats[seat].locks[FENG_DONG] = True
        if table.deal_window and all(FENG_DONG in s.locks for s in table.seats):
            replay.outcome.declared_end = ALL_FENG_DONG
            replay.end()
        return True

    # -- NX.2-NX.4 what Ningxiang forbids -----------------------------------------------------
    def guarded_discards(self, view, seat: int):
        """Of the discards, forbid() rejects the 纯王; under 封东 or after taking the 海底 any but
        the drawn tile."""
        if FENG_DONG in view.seats[seat].locks or view.haidi_taker == seat and view.last_live_draw:
            return ALL_KINDS
        return view.wilds

    def forbid(self, view, seat: int, action):
        s = view.seats[seat]
        kind, tile = action.kind, action.tile
        drawn = s.drawn
        feng_dong = FENG_DONG in s.locks
        if kind == A.DISCARD:
            if feng_dong:
                # NX-A12: the 封东 lock is the more specific rule; by option the 纯王 rule is, and a drawn
                # 纯王 stays while another tile goes.
                keeps_wild = drawn in view.wilds and not self["nx_fengdong_discards_drawn_wild"]
                if drawn is not None and tile != drawn and not keeps_wild:
                    return "FENGDONG_BREACH", f"seat {seat} is 封东 and must discard the tile it drew"
                if self["nx_fengdong_discards_drawn_wild"]:
                    return None
            haidi = view.haidi_taker == seat and view.last_live_draw
            # Only a seat a more specific rule makes discard its drawn 纯王 may let one go (NX-A12): 封东,
            # the 海底 taker ("必须打出海底牌"), and a 报听 seat whose 打筛 lock forbids the win it holds
            # (nx_dashai_lock_blocks_win); any other 报听 seat that draws one holds a win, and must take it.
            forced = haidi or s.ready and s.locks.get(Dashai.LOCK)
            if tile in view.wilds and not (forced and tile == drawn):
                return "WILD_DISCARDED", f"seat {seat} discarded {T.label(tile)}, a 纯王"
            if haidi and tile != drawn:
                return "HAIDI_NOT_DISCARDED", (f"seat {seat} took the 海底 {T.label(drawn)} and must discard it, "
                                               f"not {T.label(tile)}")
            return None
        if feng_dong:
            return "FENGDONG_BREACH", f"seat {seat} is 封东: it may only draw and discard"
        if kind in A.WINS and s.locks.get(Dashai.LOCK) and not self.on_own_dashai(view, seat):
            return "CALL_AFTER_DASHAI", f"seat {seat} has made its 打筛 and may only draw and discard, not win"
        if kind in (A.RON, A.ROB_WIN) and tile == view.indicator and not self["nx_king_is_wild"]:
            return "RON_ON_KING", f"{T.label(tile)} is the 正王: it can be won on only by self-draw"
        if kind == A.RON and self.discard_at_face(view, tile) and not self.wins_at_face(view, seat, tile):
            return "FALSE_WIN", (f"seat {seat} declared 胡 on {T.label(tile)}, another seat's tile, which counts "
                                 f"at its face (NX-A12), not as a 纯王, and does not complete its hand")
        if kind in (A.PON, A.CHI, A.KONG_EXPOSED, A.KONG_CONCEALED, A.KONG_ADDED, A.KONG_BORROWED):
            return self.forbid_call(view, seat, action)
        return None

    def forbid_call(self, view, seat: int, action):
        s = view.seats[seat]
        kind, tile = action.kind, action.tile
        if Dashai.LOCK in s.locks:
            return "CALL_AFTER_DASHAI", f"seat {seat} has made its 打筛 and may only draw and discard"
        if getattr(view.phase, "last_tile", False) and not (
                kind in (A.PON, A.CHI) and self["nx_calls_on_haidi_discard"]):  # (a kong: nx_kong_needs_two_tiles)
            return "ILLEGAL_CALL", "no 吃/碰/杠 on the 海底 discard"
        uses = [tile] if kind != A.CHI else [tile, tile + 1, tile + 2]
        if not self["nx_wilds_in_melds"] and any(t in view.wilds for t in uses) and not (
                kind == A.CHI and [t for t in uses if t in view.wilds] == [view.phase.tile]
                and self.discard_at_face(view, view.phase.tile)):  # NX-A12: the 吃's own tile is at face
            return "ILLEGAL_CALL", "a 纯王 may not be used in 吃/碰/杠 (NX-A14)"
        if kind in (A.PON, A.CHI):
            return None
        return self.forbid_kong(view, seat, action)

    def discard_at_face(self, view, tile: int) -> bool:
        """NX.5 "each 纯王 in the concealed hand may stand for any tile"; NX-A12 "such a discarded 纯王
        is treated as its natural face": a 纯王 taken from another seat is its face, whatever made
        that seat let it go (the 封东 lock, the 海底, a WILD_DISCARDED discard), and on an 打筛 tile
        too (杠上炮: "the konger is the discarder"). The konger's own 杠上开花 on it is a self-draw,
        in hand, so wild."""
        return tile in view.wilds and (type(view.phase) is Claim or isinstance(view.phase, DashaiWindow))

    def wins_at_face(self, view, seat: int, tile: int) -> bool:
        """Does this tile, taken at its face, complete the seat's hand (its own 纯王 stay wild)?"""
        s = view.seats[seat]
        naturals, count = self.split_wilds(list(s.hand), view.wilds)  # (a list of its own)
        naturals[tile] += 1
        return self.shaped_win(naturals, count, list(s.melds), view.room(seat), self.jiang_wilds(s.hand, view.wilds))

    @staticmethod
    def on_own_dashai(view, seat: int) -> bool:
        """Is this the window on the seat's own 打筛 tiles? Its 杠上开花 there is part of the 打筛,
        which the lock after it does not forbid."""
        return isinstance(view.phase, DashaiWindow) and view.phase.konger == seat

    def forbid_kong(self, view, seat: int, action):
        """NX.2: a kong only when ready, before or after it ("听牌状态" is objective tenpai)."""
        s, tile = view.seats[seat], action.tile
        before, before_melds = list(s.hand), s.melds
        if action.kind != A.KONG_EXPOSED and s.drawn is not None:
            before[s.drawn] -= 1  # "听牌状态" is the hand waiting before this turn's draw
        elif action.kind != A.KONG_EXPOSED and sum(before) % 3 == 2 and s.melds and s.melds[-1].kind in (PON, CHI):
            last = s.melds[-1]  # a kong right after a 吃 or 碰: the hand waiting before that call
            shown = list(last.tiles)
            shown.remove(last.claimed_tile if last.claimed_tile is not None else last.tile)
            for t in shown:
                before[t] += 1
            before_melds = s.melds[:-1]
        after, melds = view.hand_after_kong(seat, tile, A.KONG_FROM_HAND[action.kind])
        if view.waits_of_hand(after, melds):
            return None
        if view.deal_window and seat == view.dealer:
            # The dealer's fourteen were dealt, not drawn: ready before the kong when a discard would
            # leave it ready (a hand that already wins is), whichever tile came last.
            if any(view.waits_of_hand(self.less(s.hand, t), s.melds) for t, n in enumerate(s.hand) if n):
                return None
        elif view.waits_of_hand(before, before_melds):
            return None
        return "KONG_NOT_READY", f"seat {seat} is not ready before or after 杠 {T.label(tile)}"

    @staticmethod
    def less(hand: list[int], tile: int) -> list[int]:
        """The hand without one of the tile."""
        hand = list(hand)
        hand[tile] -= 1
        return hand

    def may_borrow_kong(self, view, seat: int, tile: int) -> bool:
        """借子开杠: a 碰 of the 正王 plus the flipped indicator on the wall."""
        return tile == view.indicator and any(m.kind == PON and m.tile == tile for m in view.seats[seat].melds)

    def allows_multiple_ron(self, last_tile: bool) -> bool:
        return last_tile  # 海底炮 "可通炮"

    # -- NX.6 settlement ----------------------------------------------------------------------
    def _patterns(self) -> tuple[tuple[Pattern, ...], tuple[Pattern, ...]]:
        """(大胡, specials): each 大胡 is worth 7 per payer and they add up (NX.6.1); each special
        doubles the hand (特殊胡法 ×2). A reading is sets + a pair, or seven pairs (NX-A3)."""
        def big(name: str, gloss: str, applies) -> Pattern:
            return Pattern(name, gloss, BIG, applies)

        def instant(name: str) -> Pattern:
            return big(name, "起手 hand (NX-A4)", lambda v: v.shape == INSTANT and name in v.win.instant)

        def one_suit(v: HandView) -> bool:
            return v.shape == SETS and self.one_suit(v.naturals, v.win.melds)

        def pungs(v: HandView) -> bool:
            return v.shape == SETS and self.all_pungs(v.naturals, v.wild_count, v.win.melds, v.win.room)

        def quads(v: HandView) -> int:
            return min(self.seven_pair_quads(v.naturals, v.wild_count), 3) if v.shape == PAIRS else 0

        def jiang(v: HandView) -> bool:
            return v.shape != INSTANT and sum(v.win.hand) + 3 * len(v.win.melds) == 14 and \
                self.all_jiang(v.naturals, v.win.melds) and self.jiang_wilds(v.win.hand, v.win.wilds)

        one_fancy = self["nx_haohua_one_big_hand"]
        big_hands = (
            big("清一色", "one suit", one_suit),
            big("碰碰胡", "all pungs", pungs),
            big("七对", "seven pairs", lambda v: v.shape == PAIRS and not (quads(v) and one_fancy)),
            big("豪华七对", "seven pairs, one set of four", lambda v: quads(v) == 1),
            big("双豪七对", "seven pairs, two sets of four", lambda v: quads(v) == 2),
            big("超豪七对", "seven pairs, three sets of four", lambda v: quads(v) == 3),
            big("将将胡", "all 2/5/8", jiang),
            *(instant(name) for name in INSTANT_HANDS),
        )

        def special(name: str, gloss: str, applies) -> Pattern:
            return Pattern(name, gloss, 2, applies, kind=TIMES)

        w = lambda v: v.win  # noqa: E731
        specials = (
            special("天胡", "dealer's dealt hand", lambda v: w(v).opening and w(v).seat == v.context.dealer
                    and w(v).kind == A.SELF_WIN),
            special("海底捞月", "self-draw of the last tile", lambda v: w(v).last_tile and w(v).kind == A.SELF_WIN),
            special("海底炮", "win on the 海底 discard", lambda v: w(v).last_tile and w(v).kind == A.RON),
            special("杠上开花", "win on an 打筛 tile", lambda v: w(v).after_replacement and w(v).kind == A.SELF_WIN),
            special("杠上炮", "win on another's 打筛 tile", lambda v: w(v).on_kong_reveal),
            special("六王", "six 纯王", lambda v: self.count_pure(w(v).hand, v.context.indicator) >= 6),
            special("报听", "after 报听", lambda v: bool(w(v).ready)),
            special("抢杠胡", "robbing a kong", lambda v: w(v).kind == A.ROB_WIN),
        )
        return big_hands, specials

    def readings(self, win: WinInfo, context: HandContext) -> list[HandView]:
        """NX.5: sets + a pair and seven pairs where they hold (将将胡 needs no shape), and the instant
        大胡 that hold, added together, as a reading of their own: the winner gets the reading worth
        most (REC-global-2), so 四王 beside a 平胡 shape is the 大胡 (no 平胡 with a 大胡 present),
        while beside shape 大胡 it adds nothing (NX-7: 碰碰胡 + 清一色 with six 纯王 is two 大胡)."""
        naturals, count = win.naturals_and_wilds()
        views = []
        if shapes.is_standard_win(naturals, count, room=win.room):
            views.append(HandView(win, SETS, None, context))
        if not win.melds and shapes.is_seven_pairs(naturals, count, room=win.room):
            views.append(HandView(win, PAIRS, None, context))
        views = views or [HandView(win, "none", None, context)]  # 将将胡 needs no shape
        return views + [HandView(win, INSTANT, None, context)] if win.instant else views

    def hand_value(self, win: WinInfo, context: HandContext) -> tuple[int, list[tuple[str, int]]]:
        """(per-payer amount, breakdown): 小胡 2 or 大胡 7 each, doubled by every special."""
        view, big = best_reading(self.big_patterns, self.readings(win, context))
        specials = evaluate(self.specials, view)
        breakdown = [(p.name, p.value) for p in big] or [("平胡", SMALL)]
        return added(big or [SMALL_HAND]) * factor(specials), breakdown + [(p.name, p.value) for p in specials]

    def bird_count(self, remaining: int, outcome: Outcome) -> int:
        """NX-A7: no birds when the win used the 海底; the 海底 alone is one bird (or, by option, none)."""
        if any(w.last_tile for w in outcome.wins):
            return 0
        if remaining == 1 and self["nx_haidi_bird_rule"] == "no_birds":
            return 0
        return min(self["nx_birds"], remaining)

    def settle(self, outcome: Outcome, bird_anchor: str = "dealer") -> Settlement:
        context = HandContext.of(outcome)

        def price(win: WinInfo) -> Priced:
            unit, breakdown = self.hand_value(win, context)
            names = "+".join(name for name, _ in breakdown)
            # NX.6.2: each bird on the payer or the winner adds one more unit; birds count from
            # the dealer (1/5/9 the dealer, 2/6 下家, 3/7 对家, 4/8 上家).
            anchor = outcome.dealer if bird_anchor == "dealer" else win.seat
            landed = [(bird, counted_seat(bird, anchor)) for bird in outcome.birds]
            hits = [0, 0, 0, 0]
            for _bird, seat in landed:
                hits[seat] += 1

            def times(payer: int) -> int:
                return 1 + hits[payer] + hits[win.seat]

            def reason(payer: int) -> str:
                if times(payer) == 1:
                    return f"{win.kind}: {names} = {unit}"
                on = "; ".join(f"{T.label(bird)} on seat {seat}, the {'winner' if seat == win.seat else 'payer'}"
                               for bird, seat in landed if seat in (payer, win.seat))
                return f"{win.kind}: {names} = {unit} × {times(payer)} with birds ({on}; counted from seat {anchor})"

            return Priced(breakdown, lambda payer: unit * times(payer), reason)

        ledger = Ledger()
        scored = pay_wins(ledger, outcome, price)  # NX.6.1: 封东 seats pay too; no kong money
        return settlement(ledger, scored)

    def best_tile(self, view, seat: int, tiles: list[int], source: int) -> int:
        """NX-A10: one 杠上炮 settlement, on the tile worth more to the winner."""
        winnable = [t for t in dict.fromkeys(tiles)]
        if not self["nx_gangshang_pao_higher_tile"] or len(winnable) == 1:
            return winnable[0]
        s = view.seats[seat]

        def value(t: int) -> int:
            hand = list(s.hand)
            hand[t] += 1
            win = WinInfo(seat, A.RON, t, source, hand, list(s.melds), 0, ready=s.ready, on_kong_reveal=True,
                          wilds=view.wilds, room=view.room(seat), face_tile=self.discard_at_face(view, t))
            return self.hand_value(win, HandContext(view.dealer, view.indicator))[0]

        return max(winnable, key=lambda t: (value(t), -winnable.index(t)))

    def explain_mismatch(self, outcome: Outcome, claimed):
        if claims_other_patterns(claimed, self.settle(outcome)):
            return None  # the hand's value differs: the birds are not what to blame
        if outcome.birds and tuple(claimed.payments) == self.settle(outcome, bird_anchor="winner").payments:
            return "BIRD_MISMAPPED", "the platform counted the birds from the winner, not from the dealer"
        return None

    # -- NX.1 the next dealer -------------------------------------------------------------------
    def next_dealer(self, outcome: Outcome) -> int:
        if outcome.declared_end == ALL_FENG_DONG:
            return outcome.dealer if self["nx_all_fengdong_same_dealer"] else (outcome.dealer + 1) % 4
        if outcome.wins:
            winners = {w.seat for w in outcome.wins}
            if len(winners) > 1:  # 海底炮 通炮: the discarder deals
                return outcome.wins[0].from_seat
            return outcome.wins[0].seat  # "胡牌为庄"
        if outcome.haidi_taker is None:
            return (outcome.dealer + 1) % 4  # nobody took the 海底
        return outcome.haidi_taker
