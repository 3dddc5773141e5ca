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
