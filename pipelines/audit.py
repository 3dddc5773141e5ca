"""`mjref audit INPUT... --out DIR [--decisions] [--option KEY=VALUE ...] [Beam options]`: the thin main.

Parses the command line, checks the rule options (before anything runs), runs
pipelines.job.run_audit, prints the summary table and sets the exit status: 0 reconciled,
1 the pipeline failed, 2 bad input or usage (including an input file with no record in it: the
manifest is still written), 3 the counts do not add up (records in != verdict rows + error rows,
or a table lost rows). The arguments, Beam's flags and the failure handling are the ones every
job command shares (pipelines/command.py).
"""
from __future__ import annotations

import argparse

from pipelines.command import add_job_arguments, exit_status, run_job


def add_audit_command(sub) -> None:
    audit = sub.add_parser(
        "audit", help="audit archives into Parquet tables (Apache Beam)",
        description="Replay every record of the archives through the referee and write Parquet tables "
                    "(games, violations, settlements, errors[, decisions]) and a manifest under --out.",
        epilog="Beam options pass through, e.g. --direct_num_workers 2 --direct_running_mode multi_processing, "
               "--runner=PortableRunner --job_endpoint=HOST:PORT, --runner=FlinkRunner --flink_master=HOST:PORT, "
               "--runner=DataflowRunner --project P --region R --temp_location gs://... (see docs/AUDIT.md).")
    add_job_arguments(audit, out_help="output directory (new, or without an audit in it)",
                      option_help="set a rule option, overriding the record's own (repeatable; checked before "
                                  "the pipeline starts)")
    audit.add_argument("--decisions", action="store_true",
                       help="also write the decisions table (every decision point; about 5x slower)")
    audit.add_argument("--test-drop-game", default=None, help=argparse.SUPPRESS)  # test hook, see job.AuditConfig
    audit.set_defaults(func=cmd_audit)
    from pipelines.report import add_report_flag

    add_report_flag(audit)


def cmd_audit(args) -> int:
    from referee.options import overrides_or_usage_error

    rule_options = overrides_or_usage_error(args, "audit")
    if rule_options is None:
        return 2

    from pipelines.job import AuditConfig, run_audit
    from pipelines.manifest import summary

    config = AuditConfig(inputs=args.inputs, out=args.out, rule_options=rule_options,
                         decisions=args.decisions, beam_args=args.beam_args,
                         progress_interval=args.progress_seconds, drop_game_id=args.test_drop_game)
    manifest = run_job("audit", lambda: run_audit(config))
    if isinstance(manifest, int):
        return manifest
    print(summary(manifest), flush=True)
    status = exit_status("audit", manifest)
    if status == 3:
        return status
    from pipelines.report import report_after_audit

    return report_after_audit(args, manifest) or status
