"""`mjref view RECORD [--game ID | --offset N] [--out FILE.html] [--option K=V ...]`.

RECORD is a textproto or binary record, or an archive (then --game picks the record by its
game_id, --offset by its frame's byte offset, as the audit tables and `mjref verify` name it;
`ARCHIVE@OFFSET` works too). Writes one self-contained HTML page and prints its path.

Exit status, as for `mjref verify`: 0 the hand is clean, 1 it has violations (or, read from an
archive, findings across its match), 2 the input is unreadable or unreplayable (a page saying why
is still written) or names no record (no page).
"""
from __future__ import annotations

import pathlib
import re
import sys

from referee import records
from referee.proto import record_pb2 as pb
from referee.options import option_pair
from referee.render.html import UNREADABLE, render_hand, render_unreadable
from referee.timeline import timeline
from referee.verdict import CLEAN, UNREPLAYABLE, VIOLATIONS, Verdict


class NoRecord(ValueError):
    """The arguments name no single record: a message for the user."""


def hand_page(source: str, record: pb.GameRecord, overrides=None, match_findings=()) -> tuple[Verdict, str]:
    """The verdict and the page of one record (with the findings across its match, if known). Never
    raises on data."""
    try:
        verdict, frames = timeline(record, overrides)
    except Exception as err:  # a referee bug: the page says so instead of a traceback
        verdict = Verdict(record.game_id, record.ruleset.name, UNREPLAYABLE, event_count=len(record.events),
                          reason=f"internal referee error (please report): {type(err).__name__}: {err}")
        frames = []
    verdict.match_findings = list(match_findings)
    return verdict, render_hand(source, record, verdict, frames, overrides)


def match_findings(source: str, record: pb.GameRecord, overrides=None) -> list:
    """The findings across its match of a record read from an archive (ARCHIVE@OFFSET); none for a
    record of no match or not from an archive."""
    if not record.match_id:
        return []
    from referee import archive
    from referee.match import findings_in_archive

    named = archive.split_source(source)  # (as find_record names a record of an archive)
    return findings_in_archive(*named, record, overrides) if named else []


def _archive_frames(path: pathlib.Path):
    from referee import archive

    return [item for item in archive.iter_archive(path) if isinstance(item, archive.Frame)]


def read_archive_record(path, offset: int) -> pb.GameRecord:
    """The record whose frame starts at `offset`; a corrupt span there is a RecordError (its page
    says why), nothing there NoRecord."""
    from referee import archive

    item = archive.item_at(path, offset)
    if isinstance(item, archive.CorruptSpan):
        raise records.RecordError(f"corrupt span of {item.length} bytes: {item.reason}")
    if item is None:
        raise NoRecord(f"{path}: no valid record starts at byte offset {offset}")
    return records.parse_binary(item.payload)


def _single_record(p: pathlib.Path, game, offset) -> tuple[str, pb.GameRecord]:
    if game is not None or offset is not None:
        raise NoRecord(f"{p}: --game and --offset choose a record in an archive; this is one record")
    return str(p), records.read_record(p)


def find_record(path: str, game: str | None = None, offset: int | None = None) -> tuple[str, pb.GameRecord]:
    """(source, record) for the arguments; NoRecord or records.RecordError if there is none."""
    p = pathlib.Path(path)
    if not p.exists() and "@" in path:  # ARCHIVE@OFFSET, as `mjref verify` names records
        from referee import archive

        p, offset = archive.split_source(path) or (p, offset)
    if not p.exists():
        raise NoRecord(f"{path}: no such file")
    if p.is_dir():
        raise NoRecord(f"{path}: a directory; give one record file, or an archive with --game or --offset")
    # The archive module (zstd, CRC32C) loads only for an archive: a single record skips its cost.
    if records.is_text_path(p) or records.is_binary_path(p):
        return _single_record(p, game, offset)
    from referee import archive

    if not archive.is_archive_path(p):
        return _single_record(p, game, offset)
    try:
        if offset is not None:
            return f"{p}@{offset}", read_archive_record(p, offset)
        frames = _archive_frames(p)
    except (OSError, archive.ArchiveError) as err:
        raise NoRecord(f"{path}: {err}") from None
    if game is None:
        if len(frames) == 1:
            return f"{p}@{frames[0].offset}", records.parse_binary(frames[0].payload)
        raise NoRecord(f"{path}: an archive of {len(frames)} records; choose one with --game ID or --offset N")
    found = []
    for frame in frames:
        try:
            record = records.parse_binary(frame.payload)
        except records.RecordError:
            continue
        if record.game_id == game:
            found.append((frame.offset, record))
    if not found:
        raise NoRecord(f"{path}: no record with game_id {game!r}")
    if len(found) > 1:
        offsets = ", ".join(str(o) for o, _ in found[:10])
        raise NoRecord(f"{path}: {len(found)} records have game_id {game!r} (offsets {offsets}); "
                       "choose one with --offset")
    return f"{p}@{found[0][0]}", found[0][1]


def default_out(source: str, record: pb.GameRecord | None) -> pathlib.Path:
    stem = record.game_id if record is not None and record.game_id else pathlib.Path(source.split("@")[0]).stem
    return pathlib.Path(re.sub(r"[^A-Za-z0-9._-]+", "_", stem).strip("._") or "hand").with_suffix(".html")


def cmd_view(args) -> int:
    from referee import options as O

    overrides = O.overrides_or_usage_error(args, "view")
    if overrides is None:
        return 2
    record = None
    try:
        source, record = find_record(args.record, args.game, args.offset)
    except NoRecord as err:
        print(f"mjref view: {err}", file=sys.stderr)
        return 2
    except records.RecordError as err:
        source, verdict = args.record, Verdict("", "", UNREADABLE, reason=f"unreadable: {err}")
        page = render_unreadable(source, verdict.reason)
    if record is not None:
        verdict, page = hand_page(source, record, overrides, match_findings(source, record, overrides))
    out = pathlib.Path(args.out) if args.out else default_out(source, record)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(page, encoding="utf-8")
    summary = verdict.status if verdict.status != VIOLATIONS else f"{len(verdict.errors)} violation(s)"
    matched = verdict.match_errors
    if matched:
        summary += f"; {len(matched)} match finding(s)"
    print(f"wrote {out} ({verdict.game_id or source}: {summary})")
    return {CLEAN: int(bool(matched)), VIOLATIONS: 1}.get(verdict.status, 2)


def add_view_command(sub) -> None:
    view = sub.add_parser(
        "view", help="write a self-contained HTML page of one hand (the dispute view)",
        description="Replay one record and write a self-contained HTML page: the table at every event with "
                    "step controls, each seat's legal actions and the one it took, every finding linked to its "
                    "event, and the settlement, claimed against recomputed. The page needs no network.")
    view.add_argument("record", metavar="RECORD",
                      help="a textproto or binary record, or an archive (.tfrecord[.gz|.zst]) with --game or "
                           "--offset, or ARCHIVE@OFFSET")
    which = view.add_mutually_exclusive_group()
    which.add_argument("--game", metavar="ID", help="in an archive: the record with this game_id")
    which.add_argument("--offset", type=int, metavar="N",
                       help="in an archive: the record whose frame starts at this byte offset (as in the audit tables)")
    view.add_argument("--out", metavar="FILE.html", help="where to write the page (default: GAME_ID.html here)")
    view.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", type=option_pair,
                      help="set a rule option, overriding the record's own (repeatable)")
    view.set_defaults(func=cmd_view)
