"""The violation catalogue: every code the referee reports, with its Chinese term and gloss.

Codes are stable identifiers (they become Parquet values and fault-injection labels);
add new ones, never rename. SPEC.md Appendix B is the source of the list.
"""
from __future__ import annotations

from dataclasses import dataclass

from referee.verdict import ERROR, INFO


@dataclass(frozen=True)
class Code:
    code: str
    term: str  # the Chinese term a player would use
    gloss: str  # its English gloss
    explanation: str
    severity: str = ERROR
    variants: str = "all"
    # "hand": found in one record; "match": found across the records of a match (referee/match.py),
    # which no single record can show (no sample file, no per-record fault kind).
    level: str = "hand"


CODES: dict[str, Code] = {
    c.code: c
    for c in (
        # Record integrity: the record contradicts itself or the physical tiles.
        Code("TILE_CONSERVATION", "牌数不符", "tile conservation",
             "the wall or the draws hold a tile kind more (or fewer) times than the set has it"),
        Code("TILE_COUNT", "多牌/少牌", "wrong tile count",
             "a seat holds more or fewer tiles than the phase of play allows"),
        Code("IMPOSSIBLE_TILE", "非法牌", "impossible tile",
             "an event names a tile code that is no tile, or a tile the ruleset does not use"),
        Code("INVALID_VALUE", "非法字段值", "out-of-range value",
             "an event or record field holds a value the record schema does not define (an unknown enum value, "
             "a round_wind that is no wind)"),
        Code("DRAW_MISMATCH", "摸牌不符", "tampered draw",
             "the drawn tile is not the tile the recorded wall holds at that position"),
        Code("DRAW_FROM_RESERVE", "摸保留牌", "draw from the reserve",
             "a draw or kong took a tile from the part of the wall that must stay undrawn"),
        Code("OUT_OF_TURN", "越序", "event out of turn",
             "an event by a seat that may not act at this point"),
        Code("ILLEGAL_ACTION", "非法动作", "action not allowed here",
             "an action of a kind the seat may not take at this point (the legal ones are listed)"),
        Code("EVENT_AFTER_END", "终局后动作", "event after the hand ended",
             "the record goes on after the hand was won or drawn"),
        Code("HAND_INCOMPLETE", "牌局不完整", "incomplete hand",
             "the record stops before the hand ends"),
        Code("ILLEGAL_EXHAUSTIVE_DRAW", "误判荒庄", "false exhaustive draw",
             "荒庄 declared while live tiles remain"),
        # Actions.
        Code("DISCARD_NOT_HELD", "打出未持有的牌", "discard of a tile not held",
             "the seat discarded a tile it does not hold"),
        Code("CHI_FORBIDDEN", "不能吃", "chi not allowed",
             "吃 is not allowed in this ruleset", variants="hebei,guangdong_tdh"),
        Code("ILLEGAL_CALL", "非法吃碰杠", "illegal call",
             "a 吃/碰/杠 the seat's tiles or the situation do not allow"),
        Code("CHI_NOT_FROM_LEFT", "非上家吃", "chi not from the left",
             "吃 is allowed only on the discard of the seat's 上家 (哈尔滨: unless it is a 吃听)",
             variants="ningxiang,guangdong_jph3,guangdong_gg5,harbin,dalian"),
        Code("RON_AFTER_MISSED_WIN", "漏胡后抓炮", "win after a passed win",
             "the seat passed a win and may not win on a discard until it draws or changes its hand (鸡平胡: "
             "that tile kind only, until it next 动牌)", variants="ningxiang,guangdong_tdh,guangdong_jph3,guangdong_gg5"),
        Code("CLAIM_PRIORITY", "抢先违规", "claim-priority breach",
             "a lower claim took the discard over a higher one (胡 > 碰/杠 > 吃)"),
        Code("MULTIPLE_RON", "一炮多响违规", "several winners on one discard",
             "more than one seat won on one discard where only the nearest may (截胡)"),
        Code("FALSE_WIN", "诈胡", "false win",
             "a win declared with a hand that is not a winning shape, or on a tile it cannot take"),
        Code("READY_NOT_TENPAI", "非法听牌", "illegal ready declaration",
             "听 declared with a hand that is not ready (tenpai) after the discard"),
        Code("READY_TWICE", "重复听牌", "second ready declaration",
             "听 declared by a seat that has already declared it", variants="hebei,guangdong_gg5,harbin,dalian"),
        Code("READY_LOCK_BREACH", "听后换牌", "ready lock breach",
             "after 听 the seat must discard the tile it just drew", variants="hebei,harbin,dalian"),
        Code("READY_PON", "听后碰牌", "pon after ready",
             "after 听 the seat may not 碰", variants="hebei"),
        Code("READY_KONG_BREAKS_TENPAI", "听后杠破听", "kong breaks the ready hand",
             "after 听 a kong is allowed only if the hand is still ready afterwards", variants="hebei"),
        Code("MISSED_WIN", "漏胡", "missed win",
             "the seat could have won and did not (allowed here; reported for the record)",
             severity=INFO),
        Code("AUTO_WIN_MISSED", "托管漏胡", "auto-play missed a win",
             "a seat in auto-play (托管/timeout) could win and the system did not win for it", variants="hebei"),
        Code("ROB_NOT_ROBBABLE", "抢杠违规", "robbing a kong that cannot be robbed",
             "抢杠胡 declared on a 暗杠 or a 直杠 (明杠 on a discard); only a 补杠 can be robbed"),
        Code("WIN_WITHOUT_READY", "未听胡牌", "win without a ready declaration",
             "only a seat that has declared 听 may win (哈尔滨 \"只有在聽牌狀態下才可胡牌\", 大连 \"不报上听的玩家不可以和牌\")",
             variants="harbin,dalian"),
        Code("RON_IN_LAST_DRAWS", "最后四张不点炮", "win on a discard in the last draws",
             "the last live draws win by self-draw only: nobody may win on a discard made after one of them",
             variants="harbin"),
        Code("WIN_AFTER_PASSED_WIN", "漏胡后胡牌", "win after passing one for good",
             "a seat that passed a win on another seat's tile (a discard or a robbed kong) may not win on one "
             "again this hand, and one that "
             "passed a self-drawn win (冲宝/摸宝 included) may not win by self-draw again", variants="dalian,harbin"),
        Code("READY_NOT_OPEN", "未开门听牌", "ready declaration before opening",
             "听 needs 开门 first: at least one 吃, 碰 or 明杠 (a 暗杠 does not open the hand)",
             variants="harbin,dalian"),
        Code("READY_CONDITIONS", "听牌条件不符", "ready hand fails the conditions",
             "the hand after the 听 discard waits on no tile that makes a legal win (哈尔滨: 幺九, a 刻, two suits, "
             "a sequence, 4 tiles in hand; 大连: 三色全, 幺九, a 刻, a sequence)", variants="harbin,dalian"),
        Code("READY_CALL", "听后吃碰杠", "call after ready",
             "after 听 the seat may not 吃, 碰 or 明杠 another seat's discard", variants="harbin,dalian"),
        Code("READY_WAITS_CHANGED", "听后换听", "waits changed after ready",
             "after 听 a kong is allowed only if the hand keeps the same waits (大连: and only with the tile just drawn)",
             variants="harbin,dalian"),
        Code("CALL_AT_FOUR", "手把一", "call at four tiles in hand",
             "with four tiles left in hand no more 吃, 碰 or 杠 (a call would leave one tile to wait on); 补杠 "
             "stays allowed", variants="harbin,dalian"),
        Code("WIN_CONDITIONS", "胡牌条件不符", "win fails the conditions",
             "the hand has the shape of a win but not its conditions (哈尔滨: a sequence, a 刻 or 红中 pair, 幺九, two "
             "suits; 大连: 三色全, 幺九 unless honors, a 刻 unless a dragon pair, a sequence, not 手把一, not 门清, no dragon "
             "triplet in hand)", variants="harbin,dalian"),
        # Ningxiang (SPEC NX).
        Code("WILD_DISCARDED", "打出癞子", "wildcard discarded",
             "a 纯王 (wildcard) may never be discarded; nor may a 推倒胡 鬼牌 (赖子)", variants="ningxiang,guangdong_tdh"),
        Code("KONG_NOT_READY", "未听开杠", "kong while not ready",
             "a kong needs the hand ready (tenpai) before or after it, and two tiles left for 打筛",
             variants="ningxiang"),
        Code("CALL_AFTER_DASHAI", "打筛后吃碰杠", "call after 打筛",
             "after its 打筛 a seat may only draw and discard", variants="ningxiang"),
        Code("BAOTING_BY_DEALER", "庄家报听", "报听 by the dealer",
             "only a non-dealer (闲家) may declare 报听", variants="ningxiang"),
        Code("BAOTING_OUT_OF_WINDOW", "报听时机不符", "报听 outside its window",
             "报听 is declared right after the deal, before the dealer's first discard", variants="ningxiang"),
        Code("BAOTING_NOT_TENPAI", "报听未听牌", "报听 without a ready hand",
             "the 13-tile hand is not ready (tenpai) when 报听 is declared", variants="ningxiang"),
        Code("BAOTING_HAND_CHANGE", "报听后换牌", "hand changed after 报听",
             "after 报听: discard the drawn tile, no 吃/碰, kongs only if the waits stay the same",
             variants="ningxiang"),
        Code("RON_ON_KING", "抓炮正王", "win on a discarded 正王",
             "nobody may win on another seat's discarded 正王 (only by self-draw)", variants="ningxiang"),
        Code("HAIDI_NOT_DISCARDED", "海底未打出", "海底 tile kept",
             "a seat that takes the 海底 tile and does not win must discard it", variants="ningxiang"),
        Code("FENGDONG_BREACH", "封东后动作", "action after 封东",
             "a 封东 seat may only draw and discard the drawn tile: no calls, no kongs, no win",
             variants="ningxiang"),
        Code("DASHAI_RON_NOT_NEAREST", "杠上炮非最近", "杠上炮 by a seat not nearest",
             "the konger wins on its own 打筛 tiles first (then nobody else may); otherwise only the seat "
             "nearest the konger in play order wins on them", variants="ningxiang"),
        Code("BIRD_MISMATCH", "鸟牌不符", "birds not from the wall",
             "the revealed birds are not the tiles the wall holds after the hand", variants="ningxiang"),
        Code("BIRD_MISMAPPED", "中鸟错算", "wrong bird mapping",
             "birds were counted from the winner, not from the dealer (庄家 1/5/9, 下家 2/6, 对家 3/7, 上家 4/8)",
             variants="ningxiang"),
        # Guangdong 推倒胡 (SPEC GD-TDH).
        Code("WILD_IN_MELD", "鬼牌碰杠", "wildcard in a 碰/杠",
             "a 鬼牌 (wildcard) may not be used to 碰 or 杠, and four 鬼 make no kong (TDH-A4)",
             variants="guangdong_tdh"),
        Code("JIHU_ON_DISCARD", "鸡胡点炮", "plain hand won on a discard",
             "a hand whose only 番型 is 鸡胡 may win only by 自摸 or 抢杠胡, never on a discard, "
             "杠上炮 included (\"鸡只能自摸、抢杠胡、不能点炮胡\", TDH-A7)", variants="guangdong_tdh"),
        Code("WILDS_MISMATCH", "百搭不符", "wrong wild kinds",
             "the wild kinds the platform logged with an indicator flip are not those the rule makes wild: "
             "推倒胡's 鬼 is the indicator's successor (suits 9→1; 东南西北中发白 in a cycle, TDH-A2), 宁乡's the 正王 "
             "and its 纯王, 哈尔滨's and 大连's the 宝 kind", variants="ningxiang,guangdong_tdh,harbin,dalian"),
        Code("INDICATOR_MISSING", "未翻王/未翻鬼", "indicator never flipped",
             "the 正王 (宁乡) or the 鬼 indicator (推倒胡) was not flipped before the dealer's first discard: the "
             "hand is judged without wildcards", variants="ningxiang,guangdong_tdh"),
        Code("HORSE_MISMATCH", "马牌不符", "horses not from the wall",
             "the horse tiles (买马) a seat was given are not the tiles set aside from the back of the wall, "
             "not the room's number, or not logged before play", variants="guangdong_tdh"),
        Code("HORSE_MISMAPPED", "买马错算", "wrong horse mapping",
             "horses were counted from the wrong seat: from the winner, or from the discarder in 一炮多响 "
             "(1/5/9/东 that seat, 2/6/南/中 下家, 3/7/西/发 对家, 4/8/北/白 上家)", variants="guangdong_tdh"),
        # Guangdong 鸡平胡 family (SPEC GD-JPH: 鸡平胡 爆胡3番 and 贵港 爆胡5番).
        Code("FAN_CAP_NOT_APPLIED", "爆胡未封顶", "cap not applied",
             "a hand inside the cap was paid above the 爆胡 cap (3番 or 5番): its patterns and 附加 "
             "(自摸, 风位, 风圈, 三元, 听) never break through it", variants="guangdong_jph3,guangdong_gg5"),
        Code("FAN_FLOOR_NOT_APPLIED", "未按爆胡计", "cap floor not applied",
             "一炮三响, 杠上开花, 海底捞月 and 抢杠胡 pay a hand below the cap as the cap "
             "(不满爆胡的牌型按爆胡计)", variants="guangdong_jph3,guangdong_gg5"),
        Code("EXTRAS_ON_SPECIAL", "特殊牌型加番", "additions on a special hand",
             "a special hand (爆胡以外, e.g. 清一色, 十三幺) is paid alone, as the highest special it makes: "
             "no 自摸/风位/风圈/三元/听 附加 and no second special (不再叠加其他番种)", variants="guangdong_jph3,guangdong_gg5"),
        Code("LIABILITY_IGNORED", "包牌未执行", "liability (包) ignored",
             "the liable seat pays the win's shares, not the usual payers: 抢杠包三家, 杠上开花包杠, "
             "十二张落地包自摸 (包先不包后), 大四喜包自摸, 九张落地包胡", variants="guangdong_jph3,guangdong_gg5"),
        # The 宝 family: Harbin and Dalian (SPEC HRB, DL).
        Code("BAO_MISSING", "未翻宝/未换宝", "宝 not set when due",
             "a 宝 was due before this draw and the record has none: three tiles of the 宝 kind lie in the discards "
             "(换宝), or a 听 seat draws and no 宝 has been chosen yet (大连), or the deal's 宝 was never flipped (哈尔滨)",
             variants="harbin,dalian"),
        Code("BAO_UNDUE", "非时翻宝", "宝 set when not due",
             "a 宝 flip or 换宝 where none is due (换宝 needs three tiles of the 宝 kind in the discards), or "
             "one logged as the other kind (a 换宝 where the first 宝 is due, a first flip where 换宝 is)",
             variants="harbin,dalian"),
        Code("PON_DRAGON", "碰中发白", "pon of a dragon",
             "红中、发财、白板 may not be pong'd: dragons are only a pair or a kong", variants="dalian"),
        Code("CONCEALED_KONG_UNOPENED", "未开门暗杠", "concealed kong before opening",
             "a seat that has not opened (no 吃, 碰 or 明杠) may not make a 暗杠 (\"未开门的玩家不能暗杠\")",
             variants="dalian"),
        Code("JIATING_ILLEGAL", "非法夹听", "illegal 夹听",
             "夹听 needs a single winning tile that completes an edge (12→3, 89→7) or closed (n_n+2) wait",
             variants="dalian"),
        # Settlement.
        Code("SETTLEMENT_MISMATCH", "结算不符", "settlement mismatch",
             "the payments the platform made differ from the recomputed settlement"),
        Code("KONG_PAYMENT_IN_DRAW", "荒庄计杠分", "kong payments in a drawn hand",
             "kong payments were made although every kong payment is void in 荒庄", variants="hebei"),
        Code("WINNERS_MISMATCH", "胡家不符", "winners mismatch",
             "the platform's winners differ from the winners in the events"),
        Code("NEXT_DEALER_MISMATCH", "庄家不符", "next dealer mismatch",
             "the platform's next dealer differs from the dealer rule"),
        Code("CLAIM_MALFORMED", "结算记录不全", "malformed claimed result",
             "the claimed result does not give one payment per seat"),
        # The platform's offered actions (Event.offered) against the legal set (referee/offers.py).
        Code("OFFER_MISSING", "漏给选项", "legal action not offered",
             "the platform did not offer the seat an action that was legal at this point (a win it never let "
             "the seat claim is a 漏胡 the platform caused)"),
        Code("OFFER_ILLEGAL", "误给选项", "illegal action offered",
             "the platform offered the seat an action that was not legal at this point"),
        # Across the hands of a match (referee/match.py): records grouped by match_id, in hand_index order.
        Code("MATCH_STATE_MISMATCH", "局间状态不符", "match state mismatch",
             "the record's match state (流局 in a row before it) disagrees with the earlier hands of its match",
             variants="harbin", level="match"),
        Code("MATCH_DEALER_MISMATCH", "轮庄错误", "wrong dealer",
             "the hand is dealt by another seat than the one the dealer rule gives after the hand before it "
             "(recomputed from that hand's events)", level="match"),
        Code("MATCH_HAND_MISSING", "缺局", "hand missing",
             "the match's hand indices skip a hand: from the first record on they run on by one, none missing",
             level="match"),
        Code("MATCH_HAND_DUPLICATED", "重复局", "hand duplicated",
             "two records of the match carry the same hand index", level="match"),
        Code("MATCH_TOTALS_MISMATCH", "累计分不符", "running total wrong",
             "the running totals after the hand are not the totals before it plus the hand's claimed payments",
             level="match"),
        Code("MATCH_TOTALS_NOT_CARRIED", "累计分未承接", "running total not carried",
             "the running totals before the hand are not the totals after the hand before it", level="match"),
        Code("MATCH_RULES_CHANGED", "规则不一", "rules changed within a match",
             "a hand of the match is played under another ruleset or other rule options than most of its hands: "
             "a match's dealer rule, 流局 count and round wind hold across all its hands", level="match"),
        Code("MATCH_WIND_MISMATCH", "风圈不符", "wrong wind",
             "the round wind (风圈) is not the one the match's deals give (东 first, advancing each time the "
             "deal passes from the fourth dealer of a cycle); with fixed seat winds seat 0 (东) deals first",
             variants="guangdong_jph3,guangdong_gg5", level="match"),
    )
}


def applies_to(code: str, ruleset: str) -> bool:
    """Can a ruleset report this code? ("all", or the ruleset names in Code.variants)."""
    variants = CODES[code].variants
    return variants == "all" or ruleset in variants.split(",")


def describe(code: str) -> str:
    """'漏胡 (missed win)' for a code."""
    c = CODES[code]
    return f"{c.term} ({c.gloss})"
