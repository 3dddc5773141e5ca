"""Match-level checks (referee/match.py): a record's match_state against the hand before it.

哈尔滨 HRB-A6: after three 流局 in a row the dealer is liable for the next hand (包牌). The record
carries the count; `mjref verify` over the records of a match checks it hand by hand.
"""
import json

from referee import records
from referee.builder import HandBuilder
from referee.cli import main

NOBODY_READY = ("234m14679p13566sC", "78789m345p11p22sC", "119m2288p469s5m6p7s", "1345m26899p899s6s")


def drawn_hand(index: int, draws_before: int, dealer: int = 0):
    hands = [NOBODY_READY[(seat - dealer) % 4] for seat in range(4)]  # the 14 tiles go to the dealer
    b = HandBuilder(f"match-{index}", ruleset="harbin", seed=index, dealer=dealer).deal(*hands).bao("3s")
    record = b.match_state(draws_before).discard(dealer, "1p").play_out((dealer + 1) % 4).build()
    return stamp(record, index)


def liable_hand(index: int, draws_before: int):
    b = HandBuilder(f"match-{index}", ruleset="harbin").deal(*NOBODY_READY).bao("3s").match_state(draws_before)
    b.discard(0, "1p").pon(1, "1p").discard(1, "C", ready=True)
    b.draw_discard(2, "5m").draw_discard(3, "4s").draw_discard(0, "8p").draw(1, "6m").win(1, "self", "6m")
    return stamp(b.build(), index)


def stamp(record, index):
    record.match_id, record.hand_index = "m1", index
    return record


def verify_dir(tmp_path, capsys, hands):
    for index, record in enumerate(hands):
        (tmp_path / f"{index:02d}.textproto").write_text(records.to_text(record), encoding="utf-8")
    code = main(["verify", "--json", str(tmp_path)])
    return code, [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_three_draws_then_the_liable_hand(tmp_path, capsys):
    hands = [drawn_hand(0, 0), drawn_hand(1, 1), drawn_hand(2, 2), liable_hand(3, 3)]
    code, verdicts = verify_dir(tmp_path, capsys, hands)
    assert code == 0 and [v["status"] for v in verdicts] == ["clean"] * 4
    assert verdicts[3]["settlement"]["recomputed"] == [-18, 18, 0, 0]  # the dealer pays every share


def test_a_wrong_count_is_reported_on_the_record_that_carries_it(tmp_path, capsys):
    # The platform forgot hand 2's 流局: hand 3 says 2, and so it charges every loser, not the dealer.
    hands = [drawn_hand(0, 0), drawn_hand(1, 1), drawn_hand(2, 2), liable_hand(3, 2)]
    code, verdicts = verify_dir(tmp_path, capsys, hands)
    assert code == 1
    assert [v["status"] for v in verdicts] == ["clean", "clean", "clean", "violations"]
    [finding] = verdicts[3]["violations"]
    assert finding["code"] == "MATCH_STATE_MISMATCH" and finding["event_index"] is None
    assert "so 3" in finding["message"]


def test_a_win_resets_the_count(tmp_path, capsys):
    hands = [drawn_hand(0, 0), liable_hand(1, 1), drawn_hand(2, 1, dealer=1)]  # seat 1 won: it deals next
    code, verdicts = verify_dir(tmp_path, capsys, hands)
    assert [v["status"] for v in verdicts] == ["clean", "clean", "violations"]
    assert verdicts[2]["violations"][0]["code"] == "MATCH_STATE_MISMATCH"


def test_one_record_alone_is_not_checked(tmp_path, capsys):
    code, verdicts = verify_dir(tmp_path, capsys, [liable_hand(3, 2)])
    assert code == 0 and verdicts[0]["status"] == "clean"


def test_hands_that_do_not_hand_the_deal_on_are_no_sequence(tmp_path, capsys):
    """A 流局 keeps the dealer; a next record dealt by another seat is not that hand's successor."""
    code, verdicts = verify_dir(tmp_path, capsys, [drawn_hand(0, 0), drawn_hand(1, 0, dealer=1)])
    assert code == 0 and [v["status"] for v in verdicts] == ["clean", "clean"]
