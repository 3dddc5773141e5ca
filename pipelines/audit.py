"""`mjref audit INPUT... --out DIR [--decisions] [--option KEY=VALUE ...] [Beam options]`: the thin main.

Parses the command line, checks the rule options (before anything runs), runs
pipelines.job.run_audit, prints the summary table and sets the exit status: 0 reconciled,
1 the pipeline failed, 2 bad input or usage (including an input file with no record in it: the
manifest is still written), 3 the counts do not add up (records in != verdict rows + error rows,
or a table lost rows). Beam is imported only when this command runs, so the other `mjref`
commands start fast.

Beam's own options (--runner, --direct_num_workers, --job_endpoint, --project, ...) pass
through untouched: the first time this subcommand parses, it learns every flag Beam knows, and
which of them take a value, from Beam itself.
"""
from __future__ import annotations

import argparse
import logging
import sys

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


def add_audit_command(sub) -> None:
    audit = sub.add_parser(
        "audit", help="audit archives into Parquet tables (Apache Beam)",
        description="Replay every record of the archives through the referee and write Parquet tables "
                    "(games, violations, settlements, errors[, decisions]) and a manifest under --out.",
        epilog="Beam options pass through, e.g. --direct_num_workers 2 --direct_running_mode multi_processing, "
               "--runner=PortableRunner --job_endpoint=HOST:PORT, --runner=FlinkRunner --flink_master=HOST:PORT, "
               "--runner=DataflowRunner --project P --region R --temp_location gs://... (see docs/AUDIT.md).")
    audit.add_argument("inputs", nargs="+", metavar="INPUT",
                       help="archive files (.tfrecord[s], optionally .gz/.zst), directories of them, globs, "
                            "or gs://... paths")
    audit.add_argument("--out", required=True, metavar="DIR", help="output directory (new, or without an audit in it)")
    audit.add_argument("--decisions", action="store_true",
                       help="also write the decisions table (every decision point; about 5x slower)")
    audit.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", type=option_pair,
                       help="set a rule option, overriding the record's own (repeatable; checked before "
                            "the pipeline starts)")
    audit.add_argument("--progress-seconds", type=float, default=10.0, help=argparse.SUPPRESS)
    audit.add_argument("--test-drop-game", default=None, help=argparse.SUPPRESS)  # test hook, see job.AuditConfig
    audit.set_defaults(func=cmd_audit, beam_args=[], parser=audit)
    from pipelines.report import add_report_flag

    add_report_flag(audit)

    parse_known_args = audit.parse_known_args

    def parse_with_beam_flags(args=None, namespace=None):
        configure_logging()
        _add_beam_flags(audit)  # only when `audit` is the command: Beam loads here
        return parse_known_args(args, namespace)

    audit.parse_known_args = parse_with_beam_flags


def _not_import_noise(record: logging.LogRecord) -> bool:
    # Beam without its GCP extras warns about BigQuery clients at import; the audit never uses them.
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


def cmd_audit(args) -> int:
    from referee import options as O

    rule_options = O.overrides_or_usage_error(args, "audit")
    if rule_options is None:
        return 2

    from pipelines import files
    from pipelines.job import AuditConfig, PipelineFailed, run_audit
    from pipelines.manifest import summary

    config = AuditConfig(inputs=args.inputs, out=args.out, rule_options=rule_options,
                         decisions=args.decisions, beam_args=args.beam_args,
                         progress_interval=args.progress_seconds, drop_game_id=args.test_drop_game)
    try:
        manifest = run_audit(config)
    except files.InputError as err:
        print(f"mjref audit: {err}", file=sys.stderr)
        return 2
    except PipelineFailed as err:
        print(f"mjref audit: {err}", file=sys.stderr)
        return 1
    except Exception as err:  # a runner error: its message, not our traceback
        lines = str(err).strip().splitlines() or [""]
        more = f"\n  ... ({len(lines) - 15} more lines)" if len(lines) > 15 else ""
        print(f"mjref audit: the pipeline failed: {type(err).__name__}: " + "\n".join(lines[:15]) + more,
              file=sys.stderr)
        return 1
    print(summary(manifest), flush=True)
    rec = manifest["reconciliation"]
    if not rec["ok"]:
        print("mjref audit: RECONCILIATION FAILED, records were lost or double-counted: "
              + "; ".join(rec["problems"]) + f" (see {manifest['out']}/manifest.json)", file=sys.stderr)
        return 3
    empty = manifest["inputs"]["empty"]
    for path in empty:
        print(f"mjref audit: no record in {path}", file=sys.stderr)
    from pipelines.report import report_after_audit

    return report_after_audit(args, manifest) or (2 if empty else 0)
