"""Regenerate referee/proto/record_pb2.py from proto/ (needs grpcio-tools).

    python proto/generate.py          # write the generated module
    python proto/generate.py --check  # exit 1 if the checked-in module is stale
"""
import argparse
import pathlib
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCE = "mahjong/referee/v1/record.proto"
TARGET = ROOT / "referee" / "proto" / "record_pb2.py"


def generate() -> bytes:
    from grpc_tools import protoc

    with tempfile.TemporaryDirectory() as out:
        status = protoc.main(["protoc", f"-I{ROOT / 'proto'}", f"--python_out={out}", SOURCE])
        if status != 0:
            sys.exit(f"protoc failed on {SOURCE}")
        return (pathlib.Path(out) / SOURCE.replace(".proto", "_pb2.py")).read_bytes()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args()
    fresh = generate()
    if args.check:
        if TARGET.read_bytes() != fresh:
            print(f"{TARGET} does not match proto/: run python proto/generate.py")
            return 1
        return 0
    TARGET.write_bytes(fresh)
    return 0


if __name__ == "__main__":
    sys.exit(main())
