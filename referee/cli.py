"""The `mjref` command line: verify records, list rulesets and codes, pack and unpack archives.

Exit status of `verify`: 0 every record clean, 1 any violation, 2 any record unreadable or
unreplayable (or no record found), or a usage error (a malformed or unknown --option). Bad input
is a message, never a traceback.
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import sys
from collections import Counter
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import Iterator

from referee import archive, records
from referee import options as O
from referee.codes import CODES
from referee.match import MatchCollector, MatchResult, findings_in_archive
from referee.rules import RULESETS
from referee.verdict import (CLEAN, DECLARED, IMPLIED, OVERRIDDEN, REFUSED, UNREPLAYABLE, VIOLATIONS, Verdict,
                             violation_json)
from referee.verify import verify_bytes, verify_record

# -- inputs ---------------------------------------------------------------------------------
class NoRecord(str):
    """The error text for an input that holds no record at all (a missing path, an empty archive,
    a directory without record files): reported like an unreadable record, not counted as one."""


class NotRead(str):
    """A file under a directory the walk leaves out (hidden, or not named as a record or archive):
    not a record, named in the summary."""


def walk_inputs(paths: list[str]) -> Iterator[tuple[str, bytes | records.GameRecord | str, float]]:
    """(source, record or bytes or error text, bytes of input it stands for) for every record
    under the given paths. The last part feeds the progress bar: a record file counts its size,
    an archive's frames and spans share the file's size on disk.

    A directory is walked recursively in name order; an archive yields its frames and one
    error per corrupt span, or one error if it holds nothing at all. Nothing found is reported,
    not skipped. A file named twice (or inside a directory named too) is read once, as the audit
    reads it (pipelines.files.list_archives).
    """
    read: set[tuple[int, int]] = set()  # (device, inode): a file named by two paths, or hard-linked
    for name in paths:
        path = pathlib.Path(name)
        if not path.exists():
            named = archive.split_source(name)  # ARCHIVE@OFFSET: one record of an archive, as named here
            yield (name, *_archive_item(*named)) if named else (name, NoRecord("unreadable: no such file or "
                                                                               "directory"), 0)
            continue
        files = [path]
        if path.is_dir():  # (records and archives by their names; the rest is named in the summary)
            files, left = archive.walk_dir(path, readable_name)
            yield from ((str(p), NotRead(), 0) for p in left)
        found = False
        for file in files:
            identity = _identity(file)
            if identity in read:
                found = True
                continue
            read.add(identity)
            if archive.is_archive_path(file):
                found = True
                yield from walk_archive(file)
            elif records.is_text_path(file) or records.is_binary_path(file) or not path.is_dir():
                found = True
                size = _size(file)
                try:
                    yield str(file), records.read_record(file), size
                except records.RecordError as err:
                    yield str(file), f"unreadable: {err}", size
        if not found:
            yield name, NoRecord("unreadable: no record files found here"), 0


def readable_name(path: pathlib.Path) -> bool:
    """Is a file found in a directory one verify reads: an archive or a record file, by its name?"""
    return archive.is_archive_path(path) or records.is_text_path(path) or records.is_binary_path(path)


def _identity(path: pathlib.Path) -> tuple[int, int]:
    try:
        st = path.stat()
    except OSError:
        return (-1, hash(str(path)))  # unreadable: reported by the reader, named once per path
    return (st.st_dev, st.st_ino)


def _size(path: pathlib.Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _archive_item(path: pathlib.Path, offset: int) -> tuple[bytes | str, float]:
    """(the record at the offset, or why there is none; its weight) for ARCHIVE@OFFSET."""
    try:
        item = archive.item_at(path, offset)
    except (OSError, archive.ArchiveError) as err:
        return f"unreadable: {err}", 0
    if isinstance(item, archive.CorruptSpan):
        return f"unreadable: corrupt span of {item.length} bytes: {item.reason}", item.length
    if item is None:
        return NoRecord(f"unreadable: no record starts at byte offset {offset} of {path}"), 0
    return item.payload, item.length


def walk_archive(path: pathlib.Path):
    size = _size(path)
    try:
        data, damage = archive.read_file(path)
        share = size / len(data) if data else 0.0
        empty = True
        for item in archive.scan_file(data, damage):
            empty = False
            if isinstance(item, archive.CorruptSpan):
                yield (f"{path}@{item.offset}", f"unreadable: corrupt span of {item.length} bytes: {item.reason}",
                       item.length * share)
            else:
                yield f"{path}@{item.offset}", item.payload, item.length * share
        if empty:
            yield str(path), NoRecord(f"no record in {path}"), size
    except OSError as err:
        yield str(path), f"unreadable: {err}", size


def iter_archive(path: pathlib.Path):
    for source, item, _weight in walk_archive(path):
        yield source, item


def input_bytes(paths: list[str]) -> int:
    """Bytes on disk of every file walk_inputs will read (the progress bar's total)."""
    files = {}
    for name in paths:
        path = pathlib.Path(name)
        files.update((_identity(file), file) for file in (archive.walk_dir(path, readable_name)[0] if path.is_dir()
                                                          else [path]))
    return sum(map(_size, files.values()))


# -- verify ---------------------------------------------------------------------------------
def judge(item, options: dict[str, str], trace: bool = False) -> Verdict:
    if isinstance(item, str):
        return Verdict("", "", UNREPLAYABLE, reason=item)
    if isinstance(item, bytes):
        return verify_bytes(item, options, trace)
    return verify_record(item, options, trace)


def render_decision(d) -> str:
    head = f"  event {d.event_index} seat {d.seat} {d.window}: "
    if d.effect == DECLARED:
        what = f"declared {d.taken}, outranked: did not take effect"
    elif d.effect == OVERRIDDEN:
        what = f"declared {d.taken}, overridden: a lower claim took effect instead"
    elif d.effect == REFUSED:
        what = f"declared {d.taken}, refused: the finding at this event"
    elif d.effect == IMPLIED:
        what = f"{d.taken} (implied: nothing logged)"
    else:
        what = f"took {d.taken}"
    return f"{head}{what}; legal: {', '.join(d.legal)}"


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
    for v in verdict.match_findings:  # the hand's status is its own; these concern its place in the match
        tag = "match note" if v.severity != "error" else "MATCH"
        lines.append(f"  {tag} {v.code} (across the match, on this record): {v.message}")
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
    lines.extend(render_decision(d) for d in verdict.decisions)
    return "\n".join(lines)


def render_json(source: str, verdict: Verdict, trace: bool) -> str:
    row = {"source": source, **verdict.to_json(), "match_findings": list(map(violation_json, verdict.match_findings))}
    if trace:
        row["decisions"] = [{"event_index": d.event_index, "seat": d.seat, "window": d.window,
                             "legal": list(d.legal), "taken": d.taken, "effect": d.effect}
                            for d in verdict.decisions]
    return json.dumps(row, ensure_ascii=False)


@dataclass
class Totals:
    """What `mjref verify` saw, for its closing summary."""
    records: int = 0
    by_status: Counter = field(default_factory=Counter)
    with_notes: int = 0  # clean records that carry a note (a finding of severity info)
    mismatches: int = 0
    by_code: Counter = field(default_factory=Counter)
    info_codes: set = field(default_factory=set)
    no_record: int = 0  # inputs that held no record at all
    matches: list = field(default_factory=list)  # MatchResult of every match seen
    not_read: list = field(default_factory=list)  # files under the directories that the walk left out

    def add(self, verdict: Verdict, item=None) -> None:
        if isinstance(item, NoRecord):
            self.no_record += 1
            return
        self.records += 1
        self.by_status[verdict.status] += 1
        if verdict.status == CLEAN and verdict.violations:
            self.with_notes += 1
        self.mismatches += verdict.mismatch
        for v in verdict.violations:
            self.by_code[v.code] += 1
            if v.severity != "error":
                self.info_codes.add(v.code)

    def render(self) -> str:
        clean = f"{self.by_status[CLEAN]:,} clean"
        if self.with_notes:
            clean += f" ({self.with_notes:,} with notes)"
        lines = [f"summary: {self.records:,} record{'s' if self.records != 1 else ''}: {clean}, "
                 f"{self.by_status[VIOLATIONS]:,} with violations, {self.by_status[UNREPLAYABLE]:,} unreplayable "
                 f"or unreadable; {self.mismatches:,} settlement mismatch{'es' if self.mismatches != 1 else ''}"
                 + (f"; {self.no_record:,} input{'s' if self.no_record != 1 else ''} with no record"
                    if self.no_record else "")]
        if self.not_read:
            shown = ", ".join(self.not_read[:5]) + (f", ... ({len(self.not_read) - 5:,} more)"
                                                    if len(self.not_read) > 5 else "")
            lines.append(f"  not read: {len(self.not_read):,} file(s) under the directories given, hidden or not "
                         f"named as a record or archive: {shown}")
        if self.by_code:
            lines.append("  findings by code:")
            width = max(len(c) for c in self.by_code) + 7
            for code, n in sorted(self.by_code.items(), key=lambda kv: (-kv[1], kv[0])):
                label = code + (" (note)" if code in self.info_codes else "")
                lines.append(f"    {label:<{width}} {n:>9,}")
        if self.matches:
            lines.extend(render_matches(self.matches))
        return "\n".join(lines)


def render_matches(results: list[MatchResult], limit: int = 20) -> list[str]:
    """The summary lines of the matches: a count, then one line per match with a finding or whose
    final totals differ (up to `limit`)."""
    bad = [r for r in results if r.status != CLEAN or r.totals_mismatch]
    lines = [f"matches: {len(results):,} ({len(results) - len(bad):,} clean, {len(bad):,} with match findings or "
             f"totals that differ)"]
    for r in bad[:limit]:
        codes = Counter(f.code for f in r.findings)
        found = ", ".join(f"{code} {n}" if n > 1 else code for code, n in sorted(codes.items())) or "no finding"
        totals = f"; final totals claimed {list(r.claimed_totals) if r.claimed_totals else None}, recomputed " \
                 f"{list(r.recomputed_totals) if r.recomputed_totals else None}"
        lines.append(f"  match {r.match_id}: {r.hands:,} hands ({r.first_hand}-{r.last_hand}): {found}{totals}")
    if len(bad) > limit:
        lines.append(f"  ... {len(bad) - limit:,} more")
    return lines


def _progress_bar(paths: list[str]):
    """A tqdm bar on stderr (bytes of input read, records so far) when stderr is a terminal."""
    if not sys.stderr.isatty():
        return None
    from tqdm import tqdm

    return tqdm(total=input_bytes(paths), unit="B", unit_scale=True, unit_divisor=1024, file=sys.stderr,
                desc="verify", leave=False, dynamic_ncols=True)


def _shows_many(paths: list[str]) -> bool:
    return len(paths) > 1 or any(pathlib.Path(p).is_dir() or archive.is_archive_path(p) for p in paths)


def cmd_verify(args) -> int:
    options = O.overrides_or_usage_error(args, "verify")
    if options is None:
        return 2
    bar = _progress_bar(args.paths)
    out_is_tty = sys.stdout.isatty()

    def emit(text: str) -> None:
        if bar is not None and out_is_tty:
            bar.write(text, file=sys.stdout)  # clears the bar, prints, redraws it
        else:
            print(text, flush=True)

    totals = Totals()
    worst = 0

    def report(source: str, item, verdict: Verdict) -> None:
        nonlocal worst
        totals.add(verdict, item)
        if not args.only_findings or verdict.status != CLEAN or verdict.violations or verdict.match_findings:
            emit(render_json(source, verdict, args.trace) if args.json else render_text(source, verdict))
        worst = max(worst, {CLEAN: 0, VIOLATIONS: 1, UNREPLAYABLE: 2}[verdict.status], int(bool(verdict.match_errors)))

    # The records of a match (those with a match_id) are checked together once the input is read
    # (referee/match.py), so they are reported then, in input order, with the match findings attached.
    matches = MatchCollector(options)
    held = []
    alone = {name: named for name in args.paths if (named := archive.split_source(name))}
    try:
        for source, item, weight in walk_inputs(args.paths):
            if isinstance(item, NotRead):
                totals.not_read.append(source)
                continue
            if isinstance(item, bytes):
                try:
                    item = records.parse_binary(item)
                except records.RecordError:
                    pass  # judged below: an unreadable verdict
            verdict = judge(item, options, args.trace)
            if matches.wants(item) and source in alone:  # ARCHIVE@OFFSET: its match is in the archive
                verdict.match_findings = findings_in_archive(*alone[source], item, options)
                report(source, item, verdict)
            elif matches.wants(item):
                matches.add(item, verdict, source)
                held.append((source, item, verdict))
            else:
                report(source, item, verdict)
            if bar is not None:
                bar.set_postfix_str(f"{totals.records + len(held):,} records", refresh=False)
                bar.update(weight)
        totals.matches = matches.finish()
        for source, item, verdict in held:
            report(source, item, verdict)
    finally:
        if bar is not None:
            bar.refresh()  # the last state, however fast the run (tqdm redraws at most every 0.1 s)
            bar.close()
    if args.only_findings or _shows_many(args.paths) or totals.records > 1:
        # JSON lines stay one object per record on stdout; the summary then goes to stderr.
        print(totals.render(), file=sys.stderr if args.json else sys.stdout, flush=True)
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
    out = pathlib.Path(args.out_dir)
    if out.exists() and not out.is_dir():
        print(f"mjref unpack: --out-dir {out}: exists and is not a directory", file=sys.stderr)
        return 2
    if out.is_dir() and not args.force:
        entries = len(os.listdir(out))
        if entries:
            print(f"mjref unpack: --out-dir {out} is not empty ({entries} entr{'ies' if entries != 1 else 'y'}); "
                  "records would overwrite files of the same name. Use --force to write into it anyway",
                  file=sys.stderr)
            return 2
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
    verify.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", type=O.option_pair,
                        help="set a rule option, overriding the record's own (repeatable)")
    verify.add_argument("--trace", action="store_true",
                        help="also list every decision point: the legal actions, and what each seat declared "
                             "and whether it took effect")
    verify.add_argument("--only-findings", action="store_true",
                        help="print only the records with a finding (violations and notes) or that could not "
                             "be replayed; the summary still counts every record")
    verify.set_defaults(func=cmd_verify, parser=verify)

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
    unpack.add_argument("--force", action="store_true",
                        help="write into a non-empty --out-dir (files of the same name are overwritten)")
    unpack.set_defaults(func=cmd_unpack)

    from referee.faults import add_inject_command
    from referee.render.command import add_view_command
    from referee.simulate import add_simulate_command

    add_simulate_command(sub)
    add_inject_command(sub)
    add_view_command(sub)
    # The pipelines' commands (audit, report) register themselves as entry points (pyproject.toml),
    # so the referee package never imports the pipelines; Beam loads only when `audit` runs.
    for command in sorted(entry_points(group="mjref.commands"), key=lambda ep: ep.name):
        command.load()(sub)
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
