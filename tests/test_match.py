"""Match-level checks (referee/match.py): the hands of a match against each other.

哈尔滨 HRB-A6: after three 流局 in a row the dealer is liable for the next hand (包牌). The record
carries the count; `mjref verify` over the records of a match checks it hand by hand. Every other
match-level code (dealer rotation, hand indices, running totals, the 鸡平胡 round wind) has a test
on a hand-built match here, each match fault kind is found where its label says, and simulated
matches pass every check.
"""
import json
import random

import pytest

from pipelines import synthetic
from referee import archive, match_faults, records
from referee.builder import HandBuilder
from referee.cli import main
from referee.match import MatchProgress, check_match, hand_of, next_round_wind
from referee.match_faults import MATCH_FAULT_KINDS, inject_match
from referee.proto import record_pb2 as pb
from referee.rules import RULESETS, get_ruleset
from referee.simulate import simulate_match
from referee.verify import verify_record

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


def verify_dir(tmp_path, capsys, hands, *options):
    tmp_path.mkdir(parents=True, exist_ok=True)
    for index, record in enumerate(hands):
        (tmp_path / f"{index:02d}.textproto").write_text(records.to_text(record), encoding="utf-8")
    code = main(["verify", "--json", *options, str(tmp_path)])
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
    assert [v["status"] for v in verdicts] == ["clean"] * 4  # the hand itself is clean
    [finding] = verdicts[3]["match_findings"]
    assert finding["code"] == "MATCH_STATE_MISMATCH" and finding["event_index"] is None
    assert "so 3" in finding["message"]


def test_the_first_hand_has_no_draws_before_it(tmp_path, capsys):
    """HRB.1: the 包牌 count is 流局 in a row within the match; its first hand cannot claim three before it
    (that made it a 包牌 hand, and moved the deal, with no 流局 played)."""
    hands = [liable_hand(0, 3), drawn_hand(1, 0, dealer=1)]
    code, verdicts = verify_dir(tmp_path, capsys, hands)
    assert errors_by_record(verdicts) == [["MATCH_STATE_MISMATCH"], []]
    assert "first hand" in verdicts[0]["match_findings"][0]["message"]


def test_one_mislogged_count_is_one_finding(tmp_path, capsys):
    """Hand 1's count is logged 5 (it is 1): hand 1 is reported, and hand 2, whose 2 follows from the
    hands played, is not blamed for it."""
    hands = [drawn_hand(0, 0), drawn_hand(1, 5), drawn_hand(2, 2)]
    code, verdicts = verify_dir(tmp_path, capsys, hands)
    assert errors_by_record(verdicts) == [[], ["MATCH_STATE_MISMATCH"], []]


def test_a_hand_under_other_rules_is_a_match_finding(tmp_path, capsys):
    """A match's rules hold for all its hands (the 包牌 count, the dealer rule): a hand logged under
    other options than the match's other hands is MATCH_RULES_CHANGED, on that hand."""
    hands = [drawn_hand(0, 0), drawn_hand(1, 1), drawn_hand(2, 2)]
    hands[1].ruleset.options["hrb_baopai_after_draws"] = "0"
    code, verdicts = verify_dir(tmp_path, capsys, hands)
    assert errors_by_record(verdicts) == [[], ["MATCH_RULES_CHANGED"], []]


def test_a_match_finding_leaves_the_hands_own_verdict_and_the_view_shows_it(tmp_path, capsys):
    """A hand's status is its own replay's everywhere (verify, the audit's games table, the view): a
    finding across its match is listed with it apart (match_findings), and makes the exit status 1."""
    hands = [drawn_hand(0, 0), drawn_hand(1, 1), drawn_hand(2, 2), liable_hand(3, 2)]  # hand 3 says 2, not 3
    path = tmp_path / "match.tfrecord"
    archive.write_archive(path, (records.to_binary(r) for r in hands))
    assert main(["verify", "--json", str(path)]) == 1
    verdicts = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [v["status"] for v in verdicts] == ["clean"] * 4 and [v["violations"] for v in verdicts] == [[]] * 4
    assert [[f["code"] for f in v["match_findings"]] for v in verdicts] == [[], [], [], ["MATCH_STATE_MISMATCH"]]
    # The record named alone as ARCHIVE@OFFSET gets the same answer (its match is read from the archive).
    assert main(["verify", "--json", verdicts[3]["source"]]) == 1
    [alone] = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert alone == verdicts[3]
    page = tmp_path / "hand3.html"
    assert main(["view", str(path), "--game", hands[3].game_id, "--out", str(page)]) == 1
    html = page.read_text(encoding="utf-8")
    assert '<section id="match-findings">' in html and "MATCH_STATE_MISMATCH" in html
    assert main(["view", str(path), "--game", hands[2].game_id, "--out", str(page)]) == 0
    assert '<section id="match-findings">' not in page.read_text(encoding="utf-8")


def test_a_first_hand_under_other_rules_is_one_finding(tmp_path, capsys):
    """The match's rules are those most of its hands are played under: with only the first hand
    logged otherwise, that hand is the one finding, not each hand after it."""
    hands = [drawn_hand(0, 0), drawn_hand(1, 1), drawn_hand(2, 2)]
    hands[0].ruleset.options["hrb_baopai_after_draws"] = "0"
    code, verdicts = verify_dir(tmp_path, capsys, hands)
    assert errors_by_record(verdicts) == [["MATCH_RULES_CHANGED"], [], []]
    [finding] = [f for f in verdicts[0]["match_findings"] if f["code"] == "MATCH_RULES_CHANGED"]
    assert "2 of the match's 3 hands are played under harbin (default options)" in finding["message"]


def test_a_win_resets_the_count(tmp_path, capsys):
    hands = [drawn_hand(0, 0), liable_hand(1, 1), drawn_hand(2, 1, dealer=1)]  # seat 1 won: it deals next
    code, verdicts = verify_dir(tmp_path, capsys, hands)
    assert [v["status"] for v in verdicts] == ["clean"] * 3
    assert verdicts[2]["match_findings"][0]["code"] == "MATCH_STATE_MISMATCH"


def test_one_record_alone_is_not_checked(tmp_path, capsys):
    code, verdicts = verify_dir(tmp_path, capsys, [liable_hand(3, 2)])
    assert code == 0 and verdicts[0]["status"] == "clean"


def test_a_hand_dealt_by_the_wrong_seat_is_a_dealer_finding(tmp_path, capsys):
    """A 流局 keeps the dealer (HRB.8): the next hand dealt by seat 1 is dealt by the wrong seat. Its
    count of 流局 in a row (0, after a 流局) is wrong too."""
    code, verdicts = verify_dir(tmp_path, capsys, [drawn_hand(0, 0), drawn_hand(1, 0, dealer=1)])
    assert code == 1 and [v["status"] for v in verdicts] == ["clean"] * 2
    assert sorted(f["code"] for f in verdicts[1]["match_findings"]) == ["MATCH_DEALER_MISMATCH", "MATCH_STATE_MISMATCH"]
    dealer = next(f for f in verdicts[1]["match_findings"] if f["code"] == "MATCH_DEALER_MISMATCH")
    assert "dealt by seat 1" in dealer["message"] and "gives seat 0" in dealer["message"]


# -- every match-level code, on hand-built matches ---------------------------------------------------
def hebei_match(kinds, first_dealer: int = 0, match_id: str = "hb-m") -> list:
    """A Hebei match of scripted hands (pipelines.synthetic), each dealt as the dealer rule gives after
    the one before it, with the running totals and match state a correct platform keeps."""
    progress = MatchProgress(match_id, first_dealer)
    out = []
    for index, kind in enumerate(kinds):
        record = synthetic.build_record(f"{match_id}-{index}", kind, seed=index, dealer=progress.dealer)
        progress.stamp(record)
        verdict = verify_record(record)
        progress.after(record, verdict.next_dealer, verdict.drawn)
        out.append(record)
    return out


HEBEI_KINDS = ["draw", "self_draw_win", "discard_win", "draw", "self_draw_win", "discard_win"]


def errors_by_record(verdicts) -> list[list[str]]:
    return [sorted(f["code"] for f in v["violations"] + v["match_findings"] if f["severity"] == "error") for v in verdicts]


def test_a_clean_match_is_clean_with_its_totals(tmp_path, capsys):
    match = hebei_match(HEBEI_KINDS)
    assert [r.dealer for r in match] == [0, 0, 1, 2, 2, 3]  # 荒庄 keeps the deal; a 闲家 win moves it on
    code, verdicts = verify_dir(tmp_path, capsys, match)
    assert code == 0 and errors_by_record(verdicts) == [[]] * 6
    result = check_match([hand_of(r, verify_record(r), f"{i}") for i, r in enumerate(match)])
    assert result.status == "clean" and not result.findings and result.hands == 6 and not result.totals_mismatch
    assert result.claimed_totals == tuple(match[-1].claimed.totals_after) == result.recomputed_totals
    assert sum(result.claimed_totals) == 0 and any(result.claimed_totals)


@pytest.mark.parametrize("kind", sorted(MATCH_FAULT_KINDS))
def test_each_match_fault_is_found_on_the_record_it_labels(tmp_path, capsys, kind):
    fault = MATCH_FAULT_KINDS[kind]
    for seed in range(3):
        faulty = inject_match(fault, hebei_match(HEBEI_KINDS), random.Random(seed))
        assert faulty is not None
        expected = [[fault.code] if r.HasField("fault") else [] for r in faulty]
        assert sum(map(len, expected)) == 1 and faulty[[bool(e) for e in expected].index(True)].fault.expected_code \
            == fault.code
        code, verdicts = verify_dir(tmp_path / f"{kind}-{seed}", capsys, faulty)
        assert code == 1 and errors_by_record(verdicts) == expected, (seed, [v["match_findings"] for v in verdicts])


def test_dealer_skipped_plays_the_rest_of_the_match_on(capsys):
    clean = hebei_match(HEBEI_KINDS)
    faulty = inject_match(MATCH_FAULT_KINDS["dealer_skipped"], clean, random.Random(1))
    at = next(i for i, r in enumerate(faulty) if r.HasField("fault"))
    assert [r.dealer for r in faulty[at:]] == [(r.dealer + 1) % 4 for r in clean[at:]]
    assert all(verify_record(r).status == "clean" for r in faulty)  # each hand alone is a clean hand


def test_totals_not_carried(tmp_path, capsys):
    match = hebei_match(HEBEI_KINDS)
    for record in match[3:]:  # the platform lost 7 points of seat 2 between hands 2 and 3, and went on
        record.match_state.totals_before[2] -= 7
        record.claimed.totals_after[2] -= 7
    code, verdicts = verify_dir(tmp_path, capsys, match)
    assert errors_by_record(verdicts) == [[], [], [], ["MATCH_TOTALS_NOT_CARRIED"], [], []]
    assert "hand 2 ended with" in verdicts[3]["match_findings"][0]["message"]


def test_totals_of_the_wrong_length_and_records_without_totals(tmp_path, capsys):
    match = hebei_match(HEBEI_KINDS[:3])
    del match[1].claimed.totals_after[3]
    code, verdicts = verify_dir(tmp_path / "short", capsys, match)
    assert errors_by_record(verdicts)[1] == ["MATCH_TOTALS_MISMATCH"] and "one per seat" in \
        verdicts[1]["match_findings"][0]["message"]
    plain = hebei_match(HEBEI_KINDS[:3])
    for record in plain:  # a platform that keeps no running totals: nothing to check
        record.match_state.ClearField("totals_before")
        record.claimed.ClearField("totals_after")
    code, verdicts = verify_dir(tmp_path / "plain", capsys, plain)
    assert code == 0


def test_records_without_a_match_id_are_never_grouped(tmp_path, capsys):
    match = hebei_match(HEBEI_KINDS[:2])
    match.append(synthetic.build_record("hb-m-2", "discard_win", seed=2, dealer=3))  # hand 2 would be seat 1's
    match[2].hand_index = 2
    match[1].claimed.totals_after[0] += 5  # and the totals would not add up
    for record in match:
        record.match_id = ""
    code, _ = verify_dir(tmp_path, capsys, match)
    assert code == 0


def jph_match(hands: int = 10, **options) -> list:
    rules = get_ruleset("guangdong_jph3", options)
    return simulate_match(rules, dict(options), 4, 0, hands)


def resettle(match: list, start: int) -> None:
    """Every hand from `start` on re-settled as a correct platform would, totals carried on."""
    for record in match[start:]:
        match_faults._settle(record)
    match_faults._carry_totals(match, start)


def test_round_wind_advances_when_the_fourth_dealer_passes_the_deal(tmp_path, capsys):
    match = jph_match(12)
    winds = [r.round_wind for r in match]
    assert winds[0] == pb.E and pb.S in winds  # the simulated match went round once at least
    code, verdicts = verify_dir(tmp_path / "clean", capsys, match)
    assert code == 0
    advanced = winds.index(pb.S)
    assert match[advanced - 1].dealer == (match[0].dealer + 3) % 4 != match[advanced].dealer
    stale = [r for r in jph_match(12)]  # the platform did not advance the wind for one hand, then did
    stale[advanced].round_wind = pb.E
    resettle(stale, advanced)
    code, verdicts = verify_dir(tmp_path / "stale", capsys, stale)
    # One finding, on that hand: the next hand's wind follows from the match's deals, not from the
    # record before it, so its right wind is not blamed for the stale one.
    assert errors_by_record(verdicts) == [["MATCH_WIND_MISMATCH"] if i == advanced else [] for i in range(12)]
    assert "so 南 (S)" in verdicts[advanced]["match_findings"][0]["message"]


def test_the_first_hand_is_the_east_round_and_fixed_winds_fix_the_first_dealer(tmp_path, capsys):
    match = jph_match(2)
    match[0].round_wind = match[1].round_wind = pb.S
    resettle(match, 0)
    code, verdicts = verify_dir(tmp_path / "south", capsys, match)
    # Both records are wrong (the deals keep the match in the East round): one finding each.
    assert errors_by_record(verdicts) == [["MATCH_WIND_MISMATCH"], ["MATCH_WIND_MISMATCH"]]
    fixed = jph_match(3, jph_seat_winds_rotate="false")
    assert fixed[0].dealer == 0  # seat 0 is East and deals first
    code, _ = verify_dir(tmp_path / "fixed", capsys, fixed)
    assert code == 0
    turned = [match_faults._copy(r) for r in fixed]
    for record in turned:
        match_faults._turn(record, 1)
    resettle(turned, 0)
    code, verdicts = verify_dir(tmp_path / "turned", capsys, turned)
    assert errors_by_record(verdicts) == [["MATCH_WIND_MISMATCH"], [], []]
    assert "seat 0 is East" in verdicts[0]["match_findings"][0]["message"]


def test_next_round_wind_follows_spec_j1():
    assert next_round_wind(pb.E, 1, 0, 1) == pb.S  # seat 0 is the 4th dealer of a cycle that began at 1
    assert next_round_wind(pb.E, 1, 0, 0) == pb.E  # 连庄: the cycle goes on
    assert next_round_wind(pb.E, 1, 3, 0) == pb.E  # the deal passes from the 3rd dealer
    assert next_round_wind(pb.N, 0, 3, 0) == pb.E  # after 北, 东 again


def test_findings_do_not_depend_on_the_order_records_come_in():
    match = hebei_match(HEBEI_KINDS)
    faulty = inject_match(MATCH_FAULT_KINDS["hand_duplicated"], match, random.Random(0))
    hands = [hand_of(r, verify_record(r), f"f{i:02d}") for i, r in enumerate(faulty)]
    first = check_match(hands)
    shuffled = list(range(len(hands)))
    random.Random(3).shuffle(shuffled)
    again = check_match([hands[i] for i in shuffled])
    assert [(f.code, f.hand_index, f.message) for f in first.findings] == \
        [(f.code, f.hand_index, f.message) for f in again.findings]
    assert [hands[f.carrier].source for f in first.findings] == [[hands[i] for i in shuffled][f.carrier].source
                                                                   for f in again.findings]
    assert first.duplicate_records == 1 and first.hands == 6 and first.records == 7


def test_a_gap_is_one_finding_and_stops_the_checks_across_it():
    match = hebei_match(HEBEI_KINDS)
    hands = [hand_of(r, verify_record(r), f"{i}") for i, r in enumerate(match) if i not in (2, 3)]
    result = check_match(hands)
    assert [(f.code, f.hand_index) for f in result.findings] == [("MATCH_HAND_MISSING", 2)]
    assert "hands 2 to 3 (2 hands) are missing" in result.findings[0].message
    assert result.missing_hands == 2 and result.recomputed_totals is None and result.claimed_totals is not None


# -- whole simulated matches ---------------------------------------------------------------------------
@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_simulated_matches_pass_every_match_check(ruleset):
    rules = get_ruleset(ruleset)
    for number in range(3):
        match = simulate_match(rules, {}, 11, number, 6, offers=number == 0)
        verdicts = [verify_record(r) for r in match]
        assert all(not v.errors for v in verdicts), [v.errors for v in verdicts]
        result = check_match([hand_of(r, v, r.game_id) for r, v in zip(match, verdicts)])
        assert result.status == "clean" and not result.findings, result.findings
        assert result.claimed_totals == result.recomputed_totals
        assert [r.hand_index for r in match] == list(range(6)) and len({r.match_id for r in match}) == 1


def test_simulate_matches_command_is_deterministic_and_verifies(tmp_path, capsys):
    outs = []
    for name in ("a", "b"):
        outs.append(tmp_path / f"{name}.tfrecord")
        assert main(["simulate", "--ruleset", "harbin", "--matches", "3", "--hands-per-match", "4", "--seed", "2",
                     "--out", str(outs[-1]), "--quiet"]) == 0
    assert outs[0].read_bytes() == outs[1].read_bytes()
    recs = [records.parse_binary(f.payload) for f in archive.iter_archive(outs[0])]
    assert len(recs) == 12 and len({r.match_id for r in recs}) == 3
    capsys.readouterr()
    assert main(["verify", str(outs[0])]) == 0
    assert "matches: 3 (3 clean" in capsys.readouterr().out
    assert main(["simulate", "--matches", "2", "--out", str(tmp_path / "x.tfrecord")]) == 2
    assert main(["simulate", "--hands", "2", "--matches", "2", "--hands-per-match", "2",
                 "--out", str(tmp_path / "x.tfrecord")]) == 2


@pytest.mark.parametrize("kind", sorted(MATCH_FAULT_KINDS))
def test_inject_faults_whole_matches_and_verify_finds_them(tmp_path, capsys, kind):
    clean = tmp_path / "clean.tfrecord"
    assert main(["simulate", "--ruleset", "hebei", "--matches", "6", "--hands-per-match", "4", "--seed", "3",
                 "--out", str(clean), "--quiet"]) == 0
    faulty = tmp_path / "faulty.tfrecord"
    assert main(["inject", "--kind", kind, "--in", str(clean), "--out", str(faulty), "--seed", "1"]) == 0
    assert "injected 6 matches" in capsys.readouterr().err
    assert main(["verify", "--json", str(faulty)]) == 1
    out = capsys.readouterr().out
    verdicts = [json.loads(line) for line in out.splitlines()]
    labels = {r.game_id for r in (records.parse_binary(f.payload) for f in archive.iter_archive(faulty))
              if r.HasField("fault")}
    found = [v["game_id"] for v in verdicts if any(x["code"] == MATCH_FAULT_KINDS[kind].code for x in v["violations"] + v["match_findings"])]
    assert len(found) == 6 and set(found) == labels
    assert sum(len([x for x in v["violations"] + v["match_findings"] if x["severity"] == "error"]) for v in verdicts) == 6


def test_an_option_logged_at_its_default_or_overridden_for_all_is_no_change(tmp_path, capsys):
    """An absent option takes its default (record.proto), so a hand that logs the default is played
    under the same rules; and under --option every hand is judged with the value it sets."""
    hands = [drawn_hand(0, 0), drawn_hand(1, 1), drawn_hand(2, 2)]
    hands[1].ruleset.options["hrb_baopai_after_draws"] = "3"  # the default
    code, verdicts = verify_dir(tmp_path, capsys, hands)
    assert errors_by_record(verdicts) == [[], [], []]
    hands[1].ruleset.options["hrb_baopai_after_draws"] = "4"
    code, verdicts = verify_dir(tmp_path, capsys, hands, "--option", "hrb_baopai_after_draws=4")
    assert errors_by_record(verdicts) == [[], [], []]


def test_one_option_value_written_two_ways_is_one_rule(tmp_path, capsys):
    """"true" and "1" are one value of a boolean option: no MATCH_RULES_CHANGED for the spelling."""
    hands = [drawn_hand(0, 0), drawn_hand(1, 1), drawn_hand(2, 2)]
    hands[0].ruleset.options["hrb_ready_lock"] = "true"
    hands[1].ruleset.options["hrb_ready_lock"] = "1"
    hands[2].ruleset.options["hrb_ready_lock"] = "yes"
    code, verdicts = verify_dir(tmp_path, capsys, hands)
    assert errors_by_record(verdicts) == [[], [], []]
