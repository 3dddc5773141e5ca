"""The `mjref` command line: verify records, list rulesets and codes, pack and unpack archives.

Exit status of `verify`: 0 every record clean, 1 any violation, 2 any record unreadable or
unreplayable (or no record found). Bad input is a message, never a traceback.
"""
from __future__ import annotations

import argparse
import json
import pathlib
import sys
from typing import Iterator

from referee import archive, records
from referee.codes import CODES
from referee.match import MatchCheck
from referee.rules import RULESETS
from referee.verdict import CLEAN, UNREPLAYABLE, VIOLATIONS, Verdict
from referee.verify import verify_bytes, verify_record


# -- inputs ---------------------------------------------------------------------------------
def iter_inputs(paths: list[str]) -> Iterator[tuple[str, bytes | records.GameRecord | str]]:
    """(source, record or bytes or error text) for every record under the given paths.

    A directory is walked recursively in name order; an archive yields its frames and one
    error per corrupt span. Nothing found is reported, not skipped.
    """
    for name in paths:
        path = pathlib.Path(name)
        if not path.exists():
            yield name, "unreadable: no such file or directory"
            continue
        files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
        found = False
        for file in files:
            if archive.is_archive_path(file):
                found = True
                yield from iter_archive(file)
            elif records.is_text_path(file) or records.is_binary_path(file) or not path.is_dir():
                found = True
                try:
                    yield str(file), records.read_record(file)
                except records.RecordError as err:
                    yield str(file), f"unreadable: {err}"
        if not found:
            yield name, "unreadable: no record files found here"


def iter_archive(path: pathlib.Path):
    try:
        items = archive.iter_archive(path)
        for item in items:
            if isinstance(item, archive.CorruptSpan):
                yield f"{path}@{item.offset}", f"unreadable: corrupt span of {item.length} bytes: {item.reason}"
            else:
                yield f"{path}@{item.offset}", item.payload
    except (OSError, archive.ArchiveError) as err:
        yield str(path), f"unreadable: {err}"


def parse_options(pairs: list[str]) -> dict[str, str]:
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise SystemExit(f"mjref: --option takes KEY=VALUE, not {pair!r}")
        options[key.strip()] = value.strip()
    return options


# -- verify ---------------------------------------------------------------------------------
def judge(item, options: dict[str, str], trace: bool = False) -> Verdict:
    if isinstance(item, str):
        return Verdict("", "", UNREPLAYABLE, reason=item)
    if isinstance(item, bytes):
        return verify_bytes(item, options, trace)
    return verify_record(item, options, trace)


def render_text(source: str, verdict: Verdict) -> str:
    lines = [f"{source}: game {verdict.game_id or '?'}, ruleset {verdict.ruleset or '?'}"]
    if verdict.status == UNREPLAYABLE:
        lines.append(f"  verdict: UNREPLAYABLE: {verdict.reason}")
        return "\n".join(lines)
    errors = len(verdict.errors)
    summary = "CLEAN" if verdict.status == CLEAN else f"VIOLATIONS ({errors})"
    winners = ", ".join(f"seat {s}" for s in verdict.winners) or "no winner"
    lines.append(f"  verdict: {summary}; {winners}")
    for v in verdict.violations:
        where = f"event {v.event_index}" if v.event_index is not None else "record"
        seat = f"seat {v.seat}" if v.seat is not None else "table"
        tag = "note" if v.severity != "error" else "VIOLATION"
        lines.append(f"  {tag} {v.code} at {where}, {seat}: {v.message}")
    if verdict.recomputed is not None or verdict.claimed is not None:
        lines.append("  settlement      seat0  seat1  seat2  seat3")
        for label, row in (("claimed", verdict.claimed),
                           ("recomputed", verdict.recomputed.payments if verdict.recomputed else None)):
            cells = "".join(f"{x:>7}" for x in row) if row is not None else "      (none)"
            lines.append(f"    {label:<12}{cells}")
        if verdict.recomputed is not None:
            for seat in sorted({p.seat for p in verdict.recomputed.patterns}):
                scored = ", ".join(f"{p.name} {p.value}" for p in verdict.recomputed.patterns if p.seat == seat)
                lines.append(f"    seat {seat} patterns: {scored}")
            for line in verdict.recomputed.lines:
                lines.append(f"    {line}")
        if verdict.mismatch:
            lines.append("  settlement MISMATCH")
    for d in verdict.decisions:
        lines.append(f"  event {d.event_index} seat {d.seat} {d.window}: took {d.taken}; legal: {', '.join(d.legal)}")
    return "\n".join(lines)


def cmd_verify(args) -> int:
    options = parse_options(args.option)
    worst = 0
    matches = MatchCheck()  # records of one match are checked against the hand before them
    for source, item in iter_inputs(args.paths):
        if isinstance(item, bytes):
            try:
                item = records.parse_binary(item)
            except records.RecordError:
                pass  # judged below: an unreadable verdict
        verdict = judge(item, options, args.trace)
        if isinstance(item, records.GameRecord):
            matches.check(item, verdict)
        if args.json:
            row = {"source": source, **verdict.to_json()}
            if args.trace:
                row["decisions"] = [vars(d) for d in verdict.decisions]
            print(json.dumps(row, ensure_ascii=False), flush=True)
        else:
            print(render_text(source, verdict), flush=True)
        worst = max(worst, {CLEAN: 0, VIOLATIONS: 1, UNREPLAYABLE: 2}[verdict.status])
    return worst


# -- listings -------------------------------------------------------------------------------
def cmd_rulesets(args) -> int:
    for name, cls in sorted(RULESETS.items()):
        print(f"{name}: {cls.title} (SPEC {cls.spec_section})")
        for option in cls.options:
            ref = f" [{option.spec}]" if option.spec else ""
            print(f"  {option.name} = {json.dumps(option.default)}{ref}: {option.help}")
    return 0


def cmd_codes(args) -> int:
    for code in CODES.values():
        print(f"{code.code} ({code.severity}, {code.variants}): {code.term} ({code.gloss}): {code.explanation}")
    return 0


def cmd_pack(args) -> int:
    try:
        count = archive.pack(args.inputs, args.out, compression=args.compression)
    except records.RecordError as err:
        print(f"mjref pack: {err}", file=sys.stderr)
        return 2
    print(f"packed {count} records into {args.out}")
    return 0


def cmd_unpack(args) -> int:
    try:
        count, spans = archive.unpack(args.archive, args.out_dir, fmt=args.format)
    except (OSError, archive.ArchiveError) as err:
        print(f"mjref unpack: {err}", file=sys.stderr)
        return 2
    print(f"unpacked {count} records into {args.out_dir}")
    for span in spans:
        print(f"corrupt span at byte {span.offset}, {span.length} bytes: {span.reason}")
    return 2 if spans else 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mjref", description="Mahjong hand-record referee.")
    sub = parser.add_subparsers(dest="command", required=True)

    verify = sub.add_parser("verify", help="replay records and print their verdicts")
    verify.add_argument("paths", nargs="+", metavar="PATH",
                        help="a textproto or binary record, a directory of them, or an archive")
    verify.add_argument("--json", action="store_true", help="one JSON object per record")
    verify.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="set a rule option, overriding the record's own (repeatable)")
    verify.add_argument("--trace", action="store_true",
                        help="also list every decision point: the legal actions and the one taken")
    verify.set_defaults(func=cmd_verify)

    sub.add_parser("rulesets", help="list rulesets with their options and defaults").set_defaults(func=cmd_rulesets)
    sub.add_parser("codes", help="list violation codes with their explanation").set_defaults(func=cmd_codes)

    pack = sub.add_parser("pack", help="build a TFRecord archive from records or directories")
    pack.add_argument("inputs", nargs="+", metavar="PATH")
    pack.add_argument("--out", required=True, help="archive path (.tfrecord, .tfrecord.gz, .tfrecord.zst)")
    pack.add_argument("--compression", choices=["gzip", "zstd"], default=None,
                      help="default: from the --out suffix")
    pack.set_defaults(func=cmd_pack)

    unpack = sub.add_parser("unpack", help="write an archive's records out as files")
    unpack.add_argument("archive")
    unpack.add_argument("--out-dir", required=True)
    unpack.add_argument("--format", choices=["textproto", "binary"], default="textproto")
    unpack.set_defaults(func=cmd_unpack)

    from pipelines.audit import add_audit_command  # Beam loads only when the command runs
    from pipelines.report import add_report_command
    from referee.faults import add_inject_command
    from referee.render.command import add_view_command
    from referee.simulate import add_simulate_command

    add_simulate_command(sub)
    add_inject_command(sub)
    add_audit_command(sub)
    add_view_command(sub)
    add_report_command(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
