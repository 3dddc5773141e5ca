"""Writes samples/<ruleset>/ for every ruleset: hand-scripted records with their expected verdicts.

    python samples/make_samples.py     # rewrite the samples (deterministic)

Every sample starts with comment lines the tests read:
    # expect-status: clean | violations | unreplayable
    # expect: CODE@EVENT_INDEX (or CODE@record), one per finding, info notes included
The expectations here are written by hand from the SPEC, never copied from the referee.
"""
from __future__ import annotations

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent))

from referee import records  # noqa: E402
from referee import tiles as T  # noqa: E402
from referee.builder import HandBuilder  # noqa: E402
from referee.state import DEALT, deal_seats  # noqa: E402

# Seat 0 deals. Seat 1 waits on 3p with 123m456m789m (一条龙); the others hold junk.
DEALER = "159m139p159sSWNCF"  # 14 tiles, holds the 3p it will discard
READY_1 = "123m456m789m12pEE"  # waits 3p
JUNK_2 = "246m268p268sSWNP"
JUNK_3 = "378m47p347sFPCSW"


def opening(b: HandBuilder) -> HandBuilder:
    """Events 0-6: the dealer lets go of F, then three 摸打 turns that touch nobody's wait."""
    return b.discard(0, "F").draw_discard(1, "N").draw_discard(2, "E").draw_discard(3, "9m")


def discard_win(game_id: str = "hb-discard-win", **kw) -> HandBuilder:
    b = opening(HandBuilder(game_id, **kw).deal(DEALER, READY_1, JUNK_2, JUNK_3))
    return b.draw(0, "5p").discard(0, "3p").win(1, "discard", "3p")  # events 7-9


SAMPLES = {}


def sample(name: str, status: str, expect: list[str], about: str, ruleset: str = "hebei"):
    def register(fn):
        SAMPLES[f"{ruleset}/{name}"] = (status, expect, about, fn)
        return fn
    return register


# -- clean hands: every way a Hebei hand ends ---------------------------------------------------
@sample("clean_discard_win", "clean", [], "seat 1 wins on the dealer's 3p: 门清+一条龙, the dealer pays 6+4")
def _():
    return discard_win().build()


@sample("clean_self_draw", "clean", [], "seat 1 draws 3p and wins: dealer pays 4+4, the others 2+4")
def _():
    b = opening(HandBuilder("hb-self-draw").deal(DEALER, READY_1, JUNK_2, JUNK_3))
    return b.draw_discard(0, "5p").draw(1, "3p").win(1, "self", "3p").build()


@sample("clean_two_winners", "clean", [],
        "一炮多响: seats 1 and 2 both win on the dealer's 3p and are settled separately")
def _():
    b = opening(HandBuilder("hb-two-winners").deal(DEALER, READY_1, "45p123s456s789sSS", JUNK_3))
    return b.draw(0, "5p").discard(0, "3p").win(1, "discard", "3p").win(2, "discard", "3p").build()


@sample("clean_robbed_kong", "clean", [],
        "seat 3 adds a 3p to its 碰; seat 1 robs it (抢杠胡 +2) and seat 3 pays as discarder")
def _():
    b = HandBuilder("hb-robbed-kong").deal(DEALER, "123m456m789m12pEN", JUNK_2, "378m33p347sFPCSW")
    b.discard(0, "3p").pon(3, "3p").discard(3, "C")  # 0-2
    b.draw_discard(0, "2s").draw(1, "E").discard(1, "N").draw_discard(2, "7p")  # 3-8
    return b.draw(3, "3p").kong(3, "added", "3p").win(1, "rob", "3p").build()  # 9-11


@sample("clean_kong_replacement_win", "clean", [],
        "杠上开花: seat 1 makes a 暗杠 of E and wins on the replacement; the 暗杠 earns 2 from each")
def _():
    b = HandBuilder("hb-kong-flower").deal(DEALER, "123m456m12p99sEEE", JUNK_2, JUNK_3)
    b.discard(0, "F").draw(1, "E").kong(1, "concealed", "E").draw(1, "3p", replacement=True)
    return b.win(1, "self", "3p").build()


@sample("rob_not_robbable", "violations", ["ROB_NOT_ROBBABLE@3"],
        "seat 2 declares 抢杠胡 on seat 1's 暗杠 of E; only a 补杠 can be robbed (HB-A6)")
def _():
    b = HandBuilder("hb-rob-concealed").deal(DEALER, "123m456m12p99sEEE", JUNK_2, JUNK_3)
    b.discard(0, "F").draw(1, "E").kong(1, "concealed", "E").win(2, "rob", "E")  # 0-2, the rob at 3
    return b.build(claim=False)


def exhaustive(game_id: str) -> HandBuilder:
    """Seat 2 makes a 暗杠 of 2m early; nobody is ever ready; the wall runs out (荒庄)."""
    b = HandBuilder(game_id, seed=7).deal(DEALER, "345m678m19m12pENC", "2222m68p268sSWNP", JUNK_3)
    b.discard(0, "F").draw_discard(1, "1s")  # 0-2
    b.draw(2, "E").kong(2, "concealed", "2m").draw(2, "C", replacement=True).discard(2, "E")  # 3-6
    return b


@sample("clean_exhaustive_draw", "clean", [],
        "荒庄 after every live tile (the reserve of 6 stacks and the odd tail tile stay): the 暗杠 pays nothing")
def _():
    return exhaustive("hb-exhaustive").play_out(3).build()


@sample("clean_ready_then_win", "clean", [], "seat 1 declares 听 with its discard, then wins on 3p")
def _():
    b = HandBuilder("hb-ready-win").deal(DEALER, "123m456m789m12pEN", JUNK_2, JUNK_3)
    b.discard(0, "F").draw(1, "E").discard(1, "N", ready=True)  # 0-2
    b.draw_discard(2, "7p").draw_discard(3, "9m").draw(0, "5p").discard(0, "3p")  # 3-8
    return b.win(1, "discard", "3p").build()


@sample("clean_missed_win_note", "clean", ["MISSED_WIN@1"],
        "seat 1 passes the dealer's 3p (allowed in Hebei, noted) and later draws 3p itself")
def _():
    b = HandBuilder("hb-missed-win").deal(DEALER, READY_1, JUNK_2, JUNK_3)
    return b.discard(0, "3p").pass_(1).draw(1, "3p").win(1, "self", "3p").build()


# -- one record per Hebei violation code ---------------------------------------------------------
@sample("chi_forbidden", "violations", ["CHI_FORBIDDEN@1", "MISSED_WIN@1"],
        "seat 1 takes the dealer's 3p by 吃 (Hebei has no 吃) instead of winning on it (noted)")
def _():
    b = HandBuilder("hb-chi").deal(DEALER, READY_1, JUNK_2, JUNK_3)
    b.discard(0, "3p").chi(1, "12p").discard(1, "E")  # 0-2
    b.draw_discard(2, "7p").draw_discard(3, "9m").draw_discard(0, "5p")  # 3-8
    return b.draw(1, "E").win(1, "self", "E").build(strict=False)


@sample("ready_lock_breach", "violations", ["READY_LOCK_BREACH@10"],
        "seat 1 is 听, draws 8s and discards E instead of the drawn tile")
def _():
    b = HandBuilder("hb-ready-lock").deal(DEALER, "123m456m789m12pEN", JUNK_2, JUNK_3)
    b.discard(0, "F").draw(1, "E").discard(1, "N", ready=True)  # 0-2
    b.draw_discard(2, "7p").draw_discard(3, "9m").draw_discard(0, "5p")  # 3-8
    return b.draw(1, "8s").discard(1, "E").play_out(2).build(strict=False)


@sample("ready_kong_breaks_tenpai", "violations", ["READY_KONG_BREAKS_TENPAI@10"],
        "seat 1 is 听 waiting on 6p; its 暗杠 of 3m leaves 12m57p677889s, which waits on nothing")
def _():
    b = HandBuilder("hb-ready-kong").deal(DEALER, "12333m57p677889s", JUNK_2, "148m47p347sFPCSW")
    b.discard(0, "F").draw(1, "N").discard(1, "N", ready=True)  # 0-2
    b.draw_discard(2, "7p").draw_discard(3, "9m").draw_discard(0, "5p")  # 3-8
    b.draw(1, "3m").kong(1, "concealed", "3m").draw(1, "E", replacement=True).discard(1, "E")  # 9-12
    return b.play_out(2).build(strict=False)


@sample("ready_twice", "violations", ["READY_TWICE@10"], "seat 1 declares 听 a second time")
def _():
    b = HandBuilder("hb-ready-twice").deal(DEALER, "123m456m789m12pEN", JUNK_2, JUNK_3)
    b.discard(0, "F").draw(1, "E").discard(1, "N", ready=True)  # 0-2
    b.draw_discard(2, "7p").draw_discard(3, "9m").draw_discard(0, "5p")  # 3-8
    b.draw(1, "8s").discard(1, "8s", ready=True)  # 9-10
    b.draw_discard(2, "6s").draw_discard(3, "2s").draw(0, "4s").discard(0, "3p")  # 11-16
    return b.win(1, "discard", "3p").build(strict=False)


@sample("ready_not_tenpai", "violations", ["READY_NOT_TENPAI@2"],
        "seat 1 declares 听 discarding C, leaving 123m456m789m12pEN, which waits on nothing")
def _():
    b = HandBuilder("hb-ready-not-tenpai").deal(DEALER, "123m456m789m12pEN", JUNK_2, JUNK_3)
    b.discard(0, "F").draw(1, "C").discard(1, "C", ready=True)
    return b.play_out(2).build(strict=False)


@sample("ready_pon", "violations", ["READY_PON@13"], "seat 1 is 听 and takes seat 2's E by 碰")
def _():
    b = HandBuilder("hb-ready-pon").deal(DEALER, "123m456m789m12pEN", JUNK_2, JUNK_3)
    b.discard(0, "F").draw(1, "E").discard(1, "N", ready=True)  # 0-2
    b.draw_discard(2, "7p").draw_discard(3, "9m").draw_discard(0, "5p").draw_discard(1, "8s")  # 3-10
    b.draw_discard(2, "E").pon(1, "E").discard(1, "1p")  # 11-14
    return b.draw_discard(2, "2p").win(1, "discard", "2p").build(strict=False)  # 15-17


@sample("kong_payment_in_draw", "violations", ["KONG_PAYMENT_IN_DRAW@record"],
        "荒庄, yet the platform paid seat 2's 暗杠 (2 from each); kong money is void in 荒庄")
def _():
    record = exhaustive("hb-kong-paid-in-draw").play_out(3).build()
    record.claimed.ClearField("payments")
    record.claimed.payments.extend([-2, -2, 6, -2])
    return record


def with_claim(record, **fields):
    """The record with parts of its claimed result replaced (a platform that paid wrongly)."""
    for key, value in fields.items():
        record.claimed.ClearField(key)
        if isinstance(value, list):
            getattr(record.claimed, key).extend(value)
        else:
            setattr(record.claimed, key, value)
    return record


@sample("tile_conservation", "violations", ["TILE_CONSERVATION@record"],
        "a fifth 1m: the wall's last tile (in the reserve) was changed to 1m")
def _():
    record = discard_win("hb-fifth-tile").build()
    last = T.to_proto(T.parse("1m")[0])
    assert record.wall[-1] != last
    record.wall[-1] = last
    return record


@sample("discard_not_held", "violations", ["DISCARD_NOT_HELD@0"], "the dealer discards 7s, which it does not hold")
def _():
    b = HandBuilder("hb-not-held").deal(DEALER, READY_1, JUNK_2, JUNK_3)
    b.discard(0, "7s").draw_discard(1, "N").draw_discard(2, "E").draw_discard(3, "9m")
    return b.draw(0, "5p").discard(0, "3p").win(1, "discard", "3p").build(strict=False)


@sample("draw_from_reserve", "violations", ["DRAW_FROM_RESERVE@141"],
        "after the last live tile the platform lets one more seat draw from the 6-stack reserve")
def _():
    b = exhaustive("hb-reserve-draw").play_out(3, end=False)
    # 7 scripted events + 67 live draws (83 - 12 reserve - 1 odd tail tile - 3 drawn) x 2 = 141
    assert len(b.record.events) == 141
    b.draw_discard(b.next_seat, b.rest_tiles()[0]).exhaustive_draw()
    return b.build(strict=False)


@sample("draw_mismatch", "violations", ["DRAW_MISMATCH@1"],
        "tampered draw: seat 1 is logged drawing N where the wall holds another tile")
def _():
    record = discard_win("hb-draw-mismatch").build()
    first_draw = DEALT  # the deal takes the first tiles from the front
    record.wall[first_draw], record.wall[-1] = record.wall[-1], record.wall[first_draw]
    assert record.wall[first_draw] != record.events[1].draw.tile
    return record


@sample("out_of_turn", "violations", ["OUT_OF_TURN@3"], "seat 3 draws where seat 2 is to draw")
def _():
    record = discard_win("hb-out-of-turn").build()
    record.events[3].seat = 3
    return record


@sample("illegal_action", "violations", ["ILLEGAL_ACTION@2"], "seat 1 logs a 碰 on its own turn, after drawing")
def _():
    b = HandBuilder("hb-illegal-action").deal(DEALER, READY_1, JUNK_2, JUNK_3)
    return b.discard(0, "F").draw(1, "N").pon(1, "N").discard(1, "N").build(claim=False)


@sample("claim_priority", "violations", ["CLAIM_PRIORITY@2"],
        "seat 1 declares 胡 on the dealer's 3p, but seat 3's 碰 takes the tile (胡 > 碰)")
def _():
    b = HandBuilder("hb-priority").deal(DEALER, READY_1, JUNK_2, "378m33p347sFPCSW")
    b.discard(0, "3p").win(1, "discard", "3p").pon(3, "3p").discard(3, "C")  # 0-3
    return b.draw_discard(0, "2s").draw(1, "3p").win(1, "self", "3p").build(strict=False)  # 4-7


@sample("false_win", "violations", ["FALSE_WIN@9"], "seat 2 declares 胡 on 3p with a hand that is not ready")
def _():
    b = opening(HandBuilder("hb-false-win").deal(DEALER, READY_1, JUNK_2, JUNK_3))
    return b.draw(0, "5p").discard(0, "3p").win(2, "discard", "3p").build(claim=False)


@sample("illegal_call", "violations", ["ILLEGAL_CALL@1"], "seat 3 碰s the dealer's F holding only one F")
def _():
    b = HandBuilder("hb-illegal-call").deal(DEALER, READY_1, JUNK_2, JUNK_3)
    b.discard(0, "F").pon(3, "F").discard(3, "W").draw(0, "5p").discard(0, "3p")
    return b.win(1, "discard", "3p").build(strict=False)


@sample("auto_win_missed", "violations", ["AUTO_WIN_MISSED@1"],
        "seat 1 is in 托管 (auto-play); the dealer discards its winning 3p and the system does not win")
def _():
    b = HandBuilder("hb-auto-missed").deal(DEALER, READY_1, JUNK_2, JUNK_3)
    return b.auto_play(1).discard(0, "3p").draw(1, "3p").win(1, "self", "3p").build(strict=False)


@sample("settlement_mismatch", "violations", ["SETTLEMENT_MISMATCH@record"],
        "the platform charged the dealer 12 where 6 + 门清 2 + 一条龙 2 = 10 is due")
def _():
    return with_claim(discard_win("hb-wrong-pay").build(), payments=[-12, 12, 0, 0])


@sample("winners_mismatch", "violations", ["WINNERS_MISMATCH@record"], "the platform names seat 2 as the winner")
def _():
    return with_claim(discard_win("hb-wrong-winner").build(), winners=[2])


@sample("next_dealer_mismatch", "violations", ["NEXT_DEALER_MISMATCH@record"],
        "a non-dealer won, so the dealer's 下家 deals next; the platform keeps the dealer")
def _():
    return with_claim(discard_win("hb-wrong-dealer").build(), next_dealer=0)


@sample("claim_malformed", "violations", ["CLAIM_MALFORMED@record"], "the claimed result pays three seats, not four")
def _():
    return with_claim(discard_win("hb-three-payments").build(), payments=[-10, 10, 0])


@sample("impossible_tile", "violations", ["IMPOSSIBLE_TILE@0"], "the dealer discards tile code 99, which is no tile")
def _():
    record = discard_win("hb-impossible-tile").build()
    record.events[0].discard.tile = 99
    return record


@sample("invalid_value", "violations", ["INVALID_VALUE@9"], "seat 1's win is logged with kind 7, which WinKind does not define")
def _():
    record = discard_win("hb-invalid-value").build()
    record.events[9].win.kind = 7
    return record


@sample("event_after_end", "violations", ["EVENT_AFTER_END@10"], "seat 2 discards after seat 1 has won")
def _():
    return discard_win("hb-after-end").discard(2, "6m").build(claim=False)


@sample("hand_incomplete", "violations", ["HAND_INCOMPLETE@record"], "the record stops after event 6, mid-hand")
def _():
    record = discard_win("hb-incomplete").build()
    del record.events[7:]
    return record


@sample("illegal_exhaustive_draw", "violations", ["ILLEGAL_EXHAUSTIVE_DRAW@7"],
        "荒庄 declared with most of the wall still live")
def _():
    b = opening(HandBuilder("hb-early-draw").deal(DEALER, READY_1, JUNK_2, JUNK_3))
    return b.exhaustive_draw().build(claim=False)


@sample("multiple_ron", "violations", ["MULTIPLE_RON@10"],
        "with hb_multiple_ron=false only the nearest seat (1) may win; seat 2's 胡 is one too many")
def _():
    b = opening(HandBuilder("hb-multiple-ron", options={"hb_multiple_ron": "false"})
                .deal(DEALER, READY_1, "45p123s456s789sSS", JUNK_3))
    return b.draw(0, "5p").discard(0, "3p").win(1, "discard", "3p").win(2, "discard", "3p").build(strict=False)


def without_wall(record, short_seat: int | None = None):
    """The record as a platform that logs no wall sends it: dealt hands, and tiles on every draw."""
    hands = [[] for _ in range(4)]
    for s, tile in zip(deal_seats(record.dealer), record.wall):
        hands[s].append(tile)
    if short_seat is not None:
        hands[short_seat].pop()
    record.ClearField("wall")
    for hand in hands:
        record.initial_hands.add().tiles.extend(hand)
    return record


@sample("clean_no_wall", "clean", [],
        "the platform logs no wall: dealt hands and drawn tiles are given, and conservation is checked")
def _():
    return without_wall(discard_win("hb-no-wall").build())


@sample("tile_count", "violations", ["TILE_COUNT@record"], "no wall logged, and seat 2 was dealt 12 tiles (少牌)")
def _():
    return without_wall(discard_win("hb-short-hand").build(), short_seat=2)


# -- the platform's offered actions (Event.offered, referee/offers.py) -----------------------------------
@sample("offer_missing_win", "violations", ["OFFER_MISSING@1", "MISSED_WIN@1"],
        "the platform offers seat 1 only 过 on the dealer's 3p, which wins its hand: it never let the seat "
        "claim the win (漏胡 noted); seat 1 later draws 3p itself")
def _():
    b = HandBuilder("hb-offer-missing").deal(DEALER, READY_1, JUNK_2, JUNK_3)
    b.discard(0, "3p").pass_(1).offer("pass")
    return b.draw(1, "3p").win(1, "self", "3p").build(strict=False)


@sample("offer_illegal_pon", "violations", ["OFFER_ILLEGAL@9"],
        "the platform offers seat 2 a 碰 of the dealer's 5p, though seat 2 holds no 5p; it passes")
def _():
    b = opening(HandBuilder("hb-offer-illegal").deal(DEALER, READY_1, JUNK_2, JUNK_3))
    b.draw(0, "5p").discard(0, "5p").pass_(2).offer("pass", "pon 5p")  # 7-9
    return b.draw(1, "3p").win(1, "self", "3p").build(strict=False)


def write_all(root: pathlib.Path) -> None:
    """Write every sample under root/<ruleset>/<name>.textproto."""
    import ningxiang_samples  # noqa: F401  (registers the Ningxiang samples)
    import guangdong_tdh_samples  # noqa: F401  (registers the Guangdong 推倒胡 samples)
    import guangdong_jph_samples  # noqa: F401  (registers the 鸡平胡 family samples)
    import harbin_samples  # noqa: F401  (registers the Harbin samples)
    import dalian_samples  # noqa: F401  (registers the Dalian samples)

    for key, (status, expect, about, fn) in SAMPLES.items():
        record = fn()
        # @LAST: the script's own last event, for samples whose length the play-out decides.
        expect = [e.replace("@LAST", f"@{len(record.events) - 1}") for e in expect]
        header = [f"# {about}", f"# expect-status: {status}"] + [f"# expect: {e}" for e in expect]
        path = root / f"{key}.textproto"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(header) + "\n" + records.to_text(record), encoding="utf-8")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    import make_samples  # the registry lives in the module, where ningxiang_samples adds to it

    make_samples.write_all(ROOT)
