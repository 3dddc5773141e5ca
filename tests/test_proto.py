"""The record schema: generated code matches proto/, and records read and write as binary and text."""
import pathlib
import subprocess
import sys

from referee import records
from referee.proto import record_pb2 as pb

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_generated_code_matches_the_proto():
    result = subprocess.run([sys.executable, str(ROOT / "proto" / "generate.py"), "--check"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_binary_and_text_round_trip(tmp_path):
    record = records.read_record(ROOT / "samples" / "hebei" / "clean_robbed_kong.textproto")
    binary, text = tmp_path / "r.binpb", tmp_path / "r.textproto"
    records.write_record(record, binary)
    records.write_record(record, text)
    assert records.read_record(binary) == record
    assert records.read_record(text) == record
    assert records.to_binary(records.read_record(binary)) == binary.read_bytes()


def test_tile_codes_are_stable():
    # Field numbers and tile codes are the contract with platforms; they never change.
    assert (pb.M1, pb.M9, pb.P1, pb.S9, pb.E, pb.P) == (11, 19, 21, 39, 41, 47)
    assert pb.GameRecord.DESCRIPTOR.fields_by_name["events"].number == 14
    assert pb.Event.DESCRIPTOR.fields_by_name["win"].number == 8


def _sample(name: str) -> pb.GameRecord:
    return records.parse_text((ROOT / "samples" / name).read_text())


def _found(record) -> list[tuple[str, object]]:
    from referee.verify import verify_record

    verdict = verify_record(record)
    return [(v.code, v.event_index) for v in verdict.violations] if verdict.status != "unreplayable" else \
        [("unreplayable", verdict.reason)]


def test_a_record_of_another_schema_version_is_not_judged_as_this_one():
    record = _sample("hebei/clean_discard_win.textproto")
    assert _found(record) == []
    record.schema_version = 0  # not logged: read as version 1
    assert _found(record) == []
    record.schema_version = 2
    [(status, reason)] = _found(record)
    assert status == "unreplayable" and "schema version 2" in reason


def test_a_round_wind_that_is_no_wind_is_an_invalid_value():
    """round_wind is a Tile: 0 (not logged) reads as East; a code no tile has, or a tile that is no
    wind, is INVALID_VALUE on the record (the hand is judged with East), for every rule book."""
    record = _sample("guangdong_jph3/clean_discard_win.textproto")
    for code in (12345, pb.M1):
        record.round_wind = code
        assert _found(record) == [("INVALID_VALUE", None)]
    record.round_wind = pb.S
    assert _found(record) == []


def test_initial_hands_beside_a_wall_must_be_its_deal():
    """record.proto sends initial_hands only without a wall; a record that sends both is held to its
    wall: an impossible tile there is unreplayable, a hand other than the wall's deal DRAW_MISMATCH."""
    record = _sample("hebei/clean_discard_win.textproto")
    dealt = [list(h.tiles) for h in _deal_of(record)]
    for tiles in dealt:
        record.initial_hands.add(tiles=tiles)
    assert _found(record) == []
    record.initial_hands[2].tiles[0] = 99
    [(status, reason)] = _found(record)
    assert status == "unreplayable" and "initial_hands[2]" in reason
    record.initial_hands[2].tiles[0] = dealt[2][0]
    record.initial_hands[3].tiles[0] = dealt[2][0] if dealt[2][0] != dealt[3][0] else dealt[1][0]
    assert _found(record) == [("DRAW_MISMATCH", None)]


def _deal_of(record) -> list[pb.Hand]:
    """Each seat's dealt tiles, as the referee deals them from the wall."""
    from referee.referee import DEAL_ORDER
    from referee.state import DEALT

    hands = [pb.Hand() for _ in range(4)]
    for seat, code in zip(DEAL_ORDER[record.dealer], record.wall[:DEALT]):
        hands[seat].tiles.append(code)
    return hands
