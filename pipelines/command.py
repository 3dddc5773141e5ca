"""The command-line plumbing every Beam job command shares (`mjref audit`, `mjref rescore`).

    add_job_arguments   INPUT..., --out, --option, and every Beam flag (--runner, --direct_num_workers,
                        --job_endpoint, ...) passed through untouched: the first time such a subcommand
                        parses, it learns every flag Beam knows, and which take a value, from Beam itself
    run_job             runs the job, turning its failures into messages and exit statuses
    exit_status         after the summary: 3 the counts do not add up, 2 an input held no record, else 0

Beam is imported only when one of these commands runs, so the other `mjref` commands start fast.
"""
from __future__ import annotations

import argparse
import logging
import sys
from typing import Callable

from referee.options import option_pair

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class _BeamFlag(argparse.Action):
    """Collects a Beam flag, as typed, into args.beam_args for PipelineOptions to parse."""

    def __call__(self, parser, namespace, values, option_string=None):
        collected = list(getattr(namespace, "beam_args", None) or [])  # never mutate the shared default
        if self.nargs == 0 or values is None:  # a switch, or an optional value left out
            collected.append(option_string)
        elif isinstance(values, list):
            collected += [option_string, *values]
        else:
            collected.append(f"{option_string}={values}")
        setattr(namespace, "beam_args", collected)


def _add_beam_flags(parser: argparse.ArgumentParser) -> None:
    if getattr(parser, "_beam_flags_added", False):
        return
    from apache_beam.options.pipeline_options import PipelineOptions, _BeamArgumentParser

    # The same registry PipelineOptions itself parses with.
    beam_parser = _BeamArgumentParser(allow_abbrev=False)
    for cls in {str(c): c for c in PipelineOptions.__subclasses__()}.values():
        cls._add_argparse_args(beam_parser)
    for action in beam_parser._actions:
        flags = [s for s in action.option_strings if s not in parser._option_string_actions]
        if not flags or isinstance(action, argparse._HelpAction):
            continue
        parser.add_argument(*flags, action=_BeamFlag, nargs=action.nargs, dest="beam_args",
                            default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    parser._beam_flags_added = True


def add_job_arguments(parser: argparse.ArgumentParser, *, out_help: str, option_help: str,
                      option_required: bool = False) -> None:
    """INPUT..., --out DIR, --option KEY=VALUE (repeatable; at least one if option_required) and Beam's flags."""
    parser.add_argument("inputs", nargs="+", metavar="INPUT",
                        help="archive files (.tfrecord[s], optionally .gz/.zst), directories of them, globs, "
                             "or gs://... paths")
    parser.add_argument("--out", required=True, metavar="DIR", help=out_help)
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", type=option_pair,
                        required=option_required, help=option_help)
    parser.add_argument("--progress-seconds", type=float, default=10.0, help=argparse.SUPPRESS)
    parser.set_defaults(beam_args=[], parser=parser)

    parse_known_args = parser.parse_known_args

    def parse_with_beam_flags(args=None, namespace=None):
        configure_logging()
        _add_beam_flags(parser)  # only when this command is the one given: Beam loads here
        return parse_known_args(args, namespace)

    parser.parse_known_args = parse_with_beam_flags


def _not_import_noise(record: logging.LogRecord) -> bool:
    # Beam without its GCP extras warns about BigQuery clients at import; the jobs never use them.
    return not str(record.msg).startswith("apitools not found")


def configure_logging() -> None:
    """Our INFO lines, everyone else's warnings. Runs before Beam is imported: Beam logs through the
    root logger at import, which would otherwise install a default handler first. A host that has
    configured logging already (an embedding program, pytest) keeps its handlers."""
    root = logging.getLogger()
    if not root.handlers:
        logging.basicConfig(level=logging.WARNING, format=LOG_FORMAT, stream=sys.stderr)
    for handler in root.handlers:
        handler.addFilter(_not_import_noise)
    logging.getLogger("mjref").setLevel(logging.INFO)


def run_job(command: str, run: Callable[[], dict]) -> dict | int:
    """run()'s manifest, or the exit status after a message on stderr: 2 bad input, 1 the pipeline failed."""
    from pipelines import files
    from pipelines.job import PipelineFailed

    try:
        return run()
    except files.InputError as err:
        print(f"mjref {command}: {err}", file=sys.stderr)
        return 2
    except PipelineFailed as err:
        print(f"mjref {command}: {err}", file=sys.stderr)
        return 1
    except Exception as err:  # a runner error: its message, not our traceback
        lines = str(err).strip().splitlines() or [""]
        more = f"\n  ... ({len(lines) - 15} more lines)" if len(lines) > 15 else ""
        print(f"mjref {command}: the pipeline failed: {type(err).__name__}: " + "\n".join(lines[:15]) + more,
              file=sys.stderr)
        return 1


def exit_status(command: str, manifest: dict) -> int:
    """Call after printing the summary: 3 (with the reason) if the run did not reconcile, 2 if an input
    file held no record (each named), else 0."""
    rec = manifest["reconciliation"]
    if not rec["ok"]:
        print(f"mjref {command}: RECONCILIATION FAILED, records were lost or double-counted: "
              + "; ".join(rec["problems"]) + f" (see {manifest['out']}/manifest.json)", file=sys.stderr)
        return 3
    not_read = manifest["inputs"].get("not_read", [])
    if not_read:  # never dropped in silence: named, though no record was lost
        shown = ", ".join(not_read[:5]) + (f", ... ({len(not_read) - 5:,} more)" if len(not_read) > 5 else "")
        print(f"mjref {command}: not read: {len(not_read):,} file(s) under the input directories, hidden or not "
              f"named *.tfrecord[s][.gz|.zst] (listed in manifest.json): {shown}", file=sys.stderr)
    empty = manifest["inputs"]["empty"]
    for path in empty:
        print(f"mjref {command}: no record in {path}", file=sys.stderr)
    return 2 if empty else 0
