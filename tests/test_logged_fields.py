"""Fields a platform logs beside what the referee needs must be right where logged (record.proto):
a win's kind is the one its window takes, a self-drawn win's tile the tile the seat drew, a 宝
flip's wild kinds the 宝's, one wall position per horse. Each case edits a bundled clean sample
in that one field; each of these was judged clean."""
from pathlib import Path

import pytest

from referee import records
from referee import tiles as T
from referee.proto import record_pb2 as pb
from referee.verify import verify_record

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
RECORDS = Path(__file__).resolve().parent / "records"
ROB_SAMPLES = sorted(p.parent.name for p in SAMPLES.glob("*/clean_robbed_kong.textproto"))
SELF_DRAW_SAMPLES = sorted(p.parent.name for p in SAMPLES.glob("*/clean_self_draw.textproto"))


def sample(ruleset: str, name: str) -> pb.GameRecord:
    return records.parse_text((SAMPLES / ruleset / f"{name}.textproto").read_text(encoding="utf-8"))


def win_events(record: pb.GameRecord) -> list[int]:
    return [i for i, e in enumerate(record.events) if e.WhichOneof("kind") == "win"]


def findings(record: pb.GameRecord) -> list[tuple[str, int, int]]:
    return [(v.code, v.event_index, v.seat) for v in verify_record(record).errors]


def test_every_ruleset_has_the_samples_these_tests_edit():
    assert len(ROB_SAMPLES) == 6 and len(SELF_DRAW_SAMPLES) == 7  # 宁乡 has no 抢杠胡


@pytest.mark.parametrize("logged", [pb.SELF_DRAW, pb.DISCARD])
@pytest.mark.parametrize("ruleset", ROB_SAMPLES)
def test_a_robbed_kong_logged_as_another_kind_of_win_is_an_illegal_action(ruleset, logged):
    """In the window on a 补杠 a win robs the kong (ROB_KONG). Logged as 自摸 or as a discard win it
    was judged clean; it is ILLEGAL_ACTION at the win, which is still settled as the rob it is."""
    record = sample(ruleset, "clean_robbed_kong")
    clean = verify_record(record)
    assert clean.status == "clean"
    at = win_events(record)[0]
    record.events[at].win.kind = logged
    verdict = verify_record(record)
    assert [(v.code, v.event_index, v.seat) for v in verdict.errors] == \
        [("ILLEGAL_ACTION", at, record.events[at].seat)]
    assert "抢杠胡 (ROB_KONG)" in verdict.errors[0].message
    assert verdict.recomputed.payments == clean.recomputed.payments


def test_an_unspecified_win_kind_is_the_windows_own():
    """WIN_UNSPECIFIED leaves the kind unsaid: the rob is judged clean, as it is."""
    record = sample("hebei", "clean_robbed_kong")
    record.events[win_events(record)[0]].win.kind = pb.WIN_UNSPECIFIED
    assert verify_record(record).status == "clean"


@pytest.mark.parametrize("ruleset, name", [
    ("ningxiang", "clean_opening_hand"),  # a 起手 hand, declared on the dealt tiles
    ("ningxiang", "clean_borrowed_kong_flower"),  # the konger's own 打筛 tile: 杠上开花 (another seat's: 杠上炮)
    ("dalian", "clean_chongbao"),  # 冲宝, before the seat's draw
])
def test_a_self_drawn_win_outside_a_turn_logged_as_a_discard_win_is_an_illegal_action(ruleset, name):
    record = sample(ruleset, name)
    at = win_events(record)[0]
    assert record.events[at].win.kind == pb.SELF_DRAW
    record.events[at].win.kind = pb.DISCARD
    assert findings(record) == [("ILLEGAL_ACTION", at, record.events[at].seat)]


@pytest.mark.parametrize("code", [99, 1000, 2 ** 31 - 1, -1])
@pytest.mark.parametrize("ruleset", SELF_DRAW_SAMPLES)
def test_a_self_drawn_win_on_an_impossible_tile_code_is_impossible_tile(ruleset, code):
    """record.proto Tile: "Any other number is an impossible tile, reported as such". A self-drawn
    win's tile was never read, so these were judged clean."""
    record = sample(ruleset, "clean_self_draw")
    at = win_events(record)[0]
    record.events[at].win.tile = code
    assert findings(record) == [("IMPOSSIBLE_TILE", at, record.events[at].seat)]


@pytest.mark.parametrize("ruleset", SELF_DRAW_SAMPLES)
def test_a_self_drawn_win_on_a_tile_other_than_the_drawn_one_is_a_false_win(ruleset):
    record = sample(ruleset, "clean_self_draw")
    at = win_events(record)[0]
    drawn = record.events[at - 1]
    assert drawn.WhichOneof("kind") == "draw" and drawn.seat == record.events[at].seat
    assert record.events[at].win.tile in (0, drawn.draw.tile)
    other = next(code for code in (pb.M1, pb.M2) if code != drawn.draw.tile)
    record.events[at].win.tile = other
    verdict = verify_record(record)
    assert [(v.code, v.event_index) for v in verdict.errors] == [("FALSE_WIN", at)]
    assert f"the tile it drew is {T.label(T.from_proto(drawn.draw.tile))}" in verdict.errors[0].message


def test_a_self_drawn_win_may_leave_its_tile_unsaid():
    record = sample("hebei", "clean_self_draw")
    record.events[win_events(record)[0]].win.tile = 0
    assert verify_record(record).status == "clean"


def test_an_opening_hand_names_a_tile_it_holds():
    """At the deal no tile is the drawn one: any tile of the hand may be named, no other. Seat 1's
    缺一色 hand holds no 万."""
    record = sample("ningxiang", "clean_opening_hand")
    at = win_events(record)[0]
    assert record.events[at].seat == 1
    accepted = []
    for tile in range(34):
        record.events[at].win.tile = T.to_proto(tile)
        if verify_record(record).status == "clean":
            accepted.append(tile)
    assert accepted and not any(T.suit_of(t) == 0 and not T.is_honor(t) for t in accepted)
    record.events[at].win.tile = pb.M1
    assert findings(record) == [("FALSE_WIN", at, 1)]


@pytest.mark.parametrize("ruleset", ["harbin", "dalian"])
def test_a_bao_flip_logs_the_bao_kind_as_its_wild_kind(ruleset):
    """IndicatorFlip.wilds: "the kinds the platform made wild after this flip", checked against the
    rule book: for a 宝 that is the 宝's kind (wild for a 听 seat's draw)."""
    record = sample(ruleset, "clean_mobao")
    at = next(i for i, e in enumerate(record.events) if e.WhichOneof("kind") == "indicator")
    flip = record.events[at].indicator
    flip.wilds.append(flip.tile)
    assert verify_record(record).status == "clean"
    flip.wilds[:] = [pb.M1 if flip.tile != pb.M1 else pb.M2]
    assert findings(record) == [("WILDS_MISMATCH", at, record.events[at].seat)]
    flip.wilds[:] = [99]
    assert findings(record) == [("IMPOSSIBLE_TILE", at, record.events[at].seat)]


def test_horses_logged_at_more_wall_positions_than_tiles_are_a_horse_mismatch():
    record = sample("guangdong_tdh", "clean_self_draw")
    at = next(i for i, e in enumerate(record.events) if e.WhichOneof("kind") == "horses")
    horses = record.events[at].horses
    assert len(horses.tiles) == 2
    horses.wall_index[:] = [len(record.wall) - 1, len(record.wall) - 2]
    assert verify_record(record).status == "clean"
    horses.wall_index.extend([5, 6, 7])
    assert findings(record) == [("HORSE_MISMATCH", at, record.events[at].seat)]


def test_a_reserve_of_the_whole_wall_leaves_a_kong_no_replacement():
    """哈尔滨's replacements come from before the reserve (hrb_replacement_skips_reserve): a reserve of
    the whole wall leaves none, so the kong is DRAW_FROM_RESERVE and the replay stops there. With
    more than the wall holds the referee crashed at the replacement ("internal referee error")."""
    record = sample("harbin", "clean_kong_replacement_win")
    verdict = verify_record(record, {"hrb_reserve_tiles": "58"})
    kong = next(i for i, e in enumerate(record.events) if e.WhichOneof("kind") == "kong")
    last = verdict.errors[-1]
    assert (last.code, last.event_index) == ("DRAW_FROM_RESERVE", kong)
    assert "no live tile left for its replacement" in last.message


@pytest.mark.parametrize("reserve", ["59", "1000", "99999999999999999999"])
def test_a_reserve_larger_than_the_wall_is_a_value_the_option_cannot_take(reserve):
    record = sample("harbin", "clean_kong_replacement_win")
    record.ruleset.options["hrb_reserve_tiles"] = reserve
    verdict = verify_record(record)
    assert verdict.status == "unreplayable"
    assert "hrb_reserve_tiles takes a whole number from 0 to 58" in verdict.reason


@pytest.mark.parametrize("ruleset", ["guangdong_jph3", "guangdong_gg5", "guangdong_tdh"])
def test_a_kong_on_the_last_live_tile_is_one_finding(ruleset):
    """The seat draws the last live tile, makes an 暗杠 and, with no replacement to draw, discards:
    DRAW_FROM_RESERVE at the kong, and no OUT_OF_TURN after it ("one fault gives one finding"). Built
    by an independent fault injector."""
    record = records.parse_text((RECORDS / f"{ruleset}_kong_on_last_tile.textproto").read_text(encoding="utf-8"))
    kong = next(i for i in reversed(range(len(record.events))) if record.events[i].WhichOneof("kind") == "kong")
    assert findings(record) == [("DRAW_FROM_RESERVE", kong, record.events[kong].seat)]


def offered_hand(ruleset: str, seed: int = 5) -> pb.GameRecord:
    from referee.rules import get_ruleset
    from referee.simulate import simulate_hand

    record, _ = simulate_hand(get_ruleset(ruleset), {}, seed, 0, offers=True)
    assert verify_record(record).status == "clean"
    return record


@pytest.mark.parametrize("ruleset", ["hebei", "harbin", "dalian", "guangdong_tdh", "guangdong_jph3"])
def test_an_offered_fengdong_or_opening_ready_where_the_rule_book_has_none_is_an_illegal_offer(ruleset):
    """封东 and 报听 (a tileless ACT_READY) are 宁乡's declarations: offered in another rule book they
    are OFFER_ILLEGAL. They were never compared, so the hand was judged clean."""
    for kind in (pb.ACT_FENG_DONG, pb.ACT_READY):
        record = offered_hand(ruleset)
        at = next(i for i, e in enumerate(record.events) if len(e.offered))
        record.events[at].offered.add(kind=kind)
        assert findings(record) == [("OFFER_ILLEGAL", at, record.events[at].seat)], kind


def test_ningxiang_offers_fengdong_at_any_time_and_opening_ready_only_in_the_deal_window():
    record = offered_hand("ningxiang")
    offered = [i for i, e in enumerate(record.events) if len(e.offered)]
    record.events[offered[0]].offered.add(kind=pb.ACT_FENG_DONG)
    record.events[offered[-1]].offered.add(kind=pb.ACT_FENG_DONG)
    assert verify_record(record).status == "clean"
    late = offered[-1]
    record.events[late].offered.add(kind=pb.ACT_READY)
    assert findings(record) == [("OFFER_ILLEGAL", late, record.events[late].seat)]


@pytest.mark.parametrize("ruleset", ["guangdong_tdh", "hebei"])
def test_the_claimed_kong_money_is_checked_where_the_platform_splits_it_out(ruleset):
    """ClaimedResult.kong_payments, "the part of payments that is kong money": a wrong split with the
    right nets is SETTLEMENT_MISMATCH, a list not of four CLAIM_MALFORMED. It was never read."""
    record = sample(ruleset, "clean_kong_replacement_win")
    paid = list(record.claimed.kong_payments)
    assert len(paid) == 4 and any(paid) and verify_record(record).status == "clean"
    record.claimed.kong_payments[:] = [0, 0, 0, 0]
    verdict = verify_record(record)
    assert [(v.code, v.event_index) for v in verdict.errors] == [("SETTLEMENT_MISMATCH", None)]
    assert f"recomputed {paid}" in verdict.errors[0].message
    record.claimed.kong_payments[:] = paid[:1]
    assert [(v.code, v.event_index) for v in verify_record(record).errors] == [("CLAIM_MALFORMED", None)]


def test_a_wrong_net_is_the_one_finding_of_a_wrong_payment():
    """Nets and kong split both wrong: the nets' finding alone."""
    record = sample("guangdong_tdh", "clean_kong_replacement_win")
    record.claimed.payments[0] += 1
    record.claimed.payments[1] -= 1
    record.claimed.kong_payments[:] = [0, 0, 0, 0]
    assert [v.code for v in verify_record(record).errors] == ["SETTLEMENT_MISMATCH"]
    assert "kong money" not in verify_record(record).errors[0].message


@pytest.mark.parametrize("name, code, at", [
    ("hrb_nowall_bao_indicator_fifth_copy_at_deal", "TILE_CONSERVATION", 0),  # the 宝 flip shows a fifth 2p
    ("hrb_nowall_fifth_copy_of_bao", "TILE_CONSERVATION", 4),  # a draw of a fifth 2p, the 宝 kind
    ("dl_nowall_bao_fifth_copy", "TILE_CONSERVATION", 69),  # 大连's 宝 shows a 7m when all four are in play
])
def test_a_bao_indicator_is_one_of_the_copies_in_a_record_with_no_wall(name, code, at):
    """Without a logged wall every revealed tile is counted (record.proto GameRecord.wall): the 宝 is
    a tile of the set (HRB.1 the wall's last tile; DL-A5 a tile of the wall), but its flip was not,
    so a fifth copy of the 宝 kind went unnoticed. Built by an independent fault injector."""
    record = records.parse_text((RECORDS / f"{name}.textproto").read_text(encoding="utf-8"))
    assert not record.wall
    assert [(v.code, v.event_index) for v in verify_record(record).errors if v.code != "HAND_INCOMPLETE"] == [(code, at)]


@pytest.mark.parametrize("ruleset, name, kind, field, value", [
    ("hebei", "clean_ready_then_win", "discard", "ready", pb.BAOTING),
    ("harbin", "clean_chiting", "chi", "ready", pb.BAOTING),
    ("harbin", "clean_chiting", "chi", "ready", pb.JIATING),
    ("ningxiang", "clean_baoting_win", "ready", "kind", pb.READY_NONE),
    ("ningxiang", "clean_baoting_win", "ready", "kind", pb.TING),
])
def test_a_declaration_kind_the_event_never_carries_is_an_invalid_value(ruleset, name, kind, field, value):
    """record.proto ReadyKind: 报听 (BAOTING) is an event of its own, after the deal; 听 and 夹听 come
    with a discard, 吃听 with a 吃. Each of these was read as the declaration the event can carry
    (a discard's BAOTING as 听; a ready event of no kind as 报听, paid ×2)."""
    record = sample(ruleset, name)
    at = next(i for i, e in enumerate(record.events) if e.WhichOneof("kind") == kind
              and (kind != "discard" or e.discard.ready) and (kind != "chi" or e.chi.ready))
    setattr(getattr(record.events[at], kind), field, value)
    assert findings(record) == [("INVALID_VALUE", at, record.events[at].seat)]


@pytest.mark.parametrize("ruleset, logged", [("ningxiang", pb.BAO), ("ningxiang", pb.GHOST),
                                             ("guangdong_tdh", pb.KING), ("guangdong_tdh", pb.BAO_CHANGE)])
def test_an_indicator_flip_of_another_kind_than_the_rule_books_is_an_illegal_action(ruleset, logged):
    """宁乡 flips a 正王 (KING), 推倒胡 a 鬼 indicator (GHOST); a 宝 flip relabelled was caught, these were not."""
    record = sample(ruleset, "clean_self_draw")
    at = next(i for i, e in enumerate(record.events) if e.WhichOneof("kind") == "indicator")
    record.events[at].indicator.kind = logged
    assert findings(record) == [("ILLEGAL_ACTION", at, record.events[at].seat)]
    assert verify_record(record).recomputed is not None  # the tile and place are right: the hand is judged on
    record.events[at].indicator.kind = pb.INDICATOR_UNSPECIFIED  # unsaid
    assert verify_record(record).status == "clean"


def test_a_ready_event_in_a_rule_book_without_one_is_an_illegal_action_whatever_its_kind():
    """河北 has no ready declaration outside a discard: that is the finding, whichever kind it logs."""
    for kind in (pb.TING, pb.BAOTING, pb.READY_NONE):
        record = sample("hebei", "clean_self_draw")
        events = list(record.events)
        declared = pb.Event(seat=1, ready=pb.Ready(kind=kind))
        del record.events[:]
        record.events.extend(events[:3] + [declared] + events[3:])
        assert findings(record) == [("ILLEGAL_ACTION", 3, 1)], kind


@pytest.mark.parametrize("ruleset, name, logged, told", [
    ("hebei", "clean_discard_win", pb.SELF_DRAW, "a win on a discard (DISCARD)"),
    ("ningxiang", "clean_haidi_pao_tongpao", pb.SELF_DRAW, "a win on a discard (DISCARD)"),
    ("guangdong_tdh", "clean_gangshang_pao", pb.SELF_DRAW, "a win on a discard (DISCARD)"),
    ("hebei", "clean_self_draw", pb.DISCARD, "a 自摸 (SELF_DRAW)"),
])
def test_a_win_in_a_turn_or_on_a_discard_logged_as_the_other_kind_is_settled_as_what_it_is(ruleset, name, logged, told):
    """As in the rob window: ILLEGAL_ACTION at the win, settled as the win it is. A discard win logged
    as 自摸 was OUT_OF_TURN (or EVENT_AFTER_END after the 海底) and a 自摸 logged as a discard win a
    fatal ILLEGAL_ACTION, each with no winner (found by a review of this change)."""
    record = sample(ruleset, name)
    clean = verify_record(record)
    wins = win_events(record)
    for at in wins:
        record.events[at].win.kind = logged
    verdict = verify_record(record)
    assert [(v.code, v.event_index) for v in verdict.errors] == [("ILLEGAL_ACTION", at) for at in wins]
    assert told in verdict.errors[0].message
    assert verdict.recomputed.payments == clean.recomputed.payments


def test_an_instant_hand_before_the_seats_first_discard_may_name_any_tile_it_holds():
    record = records.parse_text((RECORDS / "nx_opening_hand_after_draw_names_a_held_tile.textproto").read_text(
        encoding="utf-8"))
    verdict = verify_record(record)
    assert verdict.status == "clean" and verdict.recomputed.payments == (-14, 35, -7, -14)


@pytest.mark.parametrize("ruleset", ["harbin", "dalian"])
def test_a_mobao_may_name_the_bao_or_the_tile_it_stands_for(ruleset):
    record = sample(ruleset, "clean_mobao")
    at = win_events(record)[-1]
    clean = verify_record(record)
    for code in (pb.M1, pb.P5, pb.S9):
        record.events[at].win.tile = code
        assert verify_record(record).recomputed.payments == clean.recomputed.payments


def test_a_bao_flip_of_unsaid_kind_is_the_flip_that_is_due():
    """INDICATOR_UNSPECIFIED is "unsaid" in every rule book, as for the 正王 and the 鬼; a 宝 flip of
    kind 0 was a fatal ILLEGAL_ACTION."""
    record = sample("harbin", "clean_mobao")
    at = next(i for i, e in enumerate(record.events) if e.WhichOneof("kind") == "indicator")
    record.events[at].indicator.kind = pb.INDICATOR_UNSPECIFIED
    assert verify_record(record).status == "clean"


def test_a_pass_in_the_deal_window_declines_what_the_seat_may_declare_there():
    """宁乡: any seat may declare 封东 (and 报听, a 起手 hand) in the deal window, so a 过 logged there
    declines it; it was OUT_OF_TURN (and its offer of 过 OFFER_ILLEGAL), with no settlement."""
    record = sample("ningxiang", "clean_baoting_win")
    clean = verify_record(record)
    events = list(record.events)
    passed = pb.Event(seat=2, **{"pass": pb.Pass()})
    passed.offered.add(kind=pb.ACT_PASS)
    passed.offered.add(kind=pb.ACT_FENG_DONG)
    del record.events[:]
    record.events.extend(events[:2] + [passed] + events[2:])
    verdict = verify_record(record)
    assert verdict.errors == [] and verdict.recomputed.payments == clean.recomputed.payments


def test_two_kong_flowers_that_leave_their_tiles_unsaid_take_one_revealed_tile_each():
    """宁乡 杠上开花 on both 打筛 tiles ("两张都能胡则算胡2次") with both wins' tiles unsaid: both were
    read as the first tile, and the second was noted as a missed win."""
    record = sample("ningxiang", "clean_kong_flower_twice")
    clean = verify_record(record)
    for at in win_events(record):
        record.events[at].win.tile = 0
    verdict = verify_record(record)
    assert verdict.violations == clean.violations and verdict.recomputed.payments == clean.recomputed.payments


def test_a_bao_that_may_be_drawn_is_counted_when_it_is_drawn_not_when_it_is_shown():
    """With hrb_replacement_skips_reserve=false a replacement may take the 宝 itself from the tail:
    counted at its flip too, it was a false TILE_CONSERVATION (25 of 200 such simulated hands)."""
    record = records.parse_text((RECORDS / "hrb_nowall_bao_drawn_as_replacement.textproto").read_text(encoding="utf-8"))
    assert not record.wall and record.ruleset.options["hrb_replacement_skips_reserve"] == "false"
    assert verify_record(record).status == "clean"


def test_a_seat_under_fengdong_may_not_declare_it_again_nor_be_offered_it():
    """NX.4: under 封东 a seat may only draw and discard. 封东 offered to it was judged clean, and a
    second 封东 event too (found by a review of this change)."""
    record = sample("ningxiang", "clean_fengdong_king_won_at_face")
    declared = next(i for i, e in enumerate(record.events) if e.WhichOneof("kind") == "feng_dong")
    seat = record.events[declared].seat
    later = next(i for i, e in enumerate(record.events) if i > declared and e.seat == seat
                 and e.WhichOneof("kind") == "draw")
    offered = pb.GameRecord()
    offered.CopyFrom(record)
    offered.events[later].offered.add(kind=pb.ACT_DRAW)
    offered.events[later].offered.add(kind=pb.ACT_FENG_DONG)
    assert findings(offered) == [("OFFER_ILLEGAL", later, seat)]
    events = list(record.events)
    del record.events[:]
    record.events.extend(events[:later] + [pb.Event(seat=seat, feng_dong=pb.FengDong())] + events[later:])
    assert findings(record) == [("FENGDONG_BREACH", later, seat)]
