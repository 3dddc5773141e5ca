"""`mjref rescore INPUT... --option KEY=VALUE [...] --out DIR [Beam options]`: the thin main.

What an archive would have paid under other rules: every record is judged under its own options
and under the --option overrides (pipelines/rescore_job.py), and the tables, the manifest and a
summary of the money moved and the verdicts changed are written under --out. The overrides are
checked before anything runs (a bad one: usage, exit 2); the arguments, Beam's flags, the failure
handling and the exit statuses are those of `mjref audit` (pipelines/command.py). Beam is imported
only when this command runs, so the other `mjref` commands start fast.
"""
from __future__ import annotations

from pipelines.command import add_job_arguments, exit_status, run_job


def add_rescore_command(sub) -> None:
    rescore = sub.add_parser(
        "rescore", help="what archives would have paid under other rule options (Apache Beam)",
        description="Replay every record under its own options and under the --option overrides and write "
                    "Parquet tables (rescore_games, rescore_seats, errors) and a manifest under --out: the "
                    "claimed, both recomputed settlements and their difference per seat, the verdicts, and "
                    "a summary of the money moved and the verdicts changed.",
        epilog="Beam options pass through as for `mjref audit`, e.g. --direct_num_workers 2 (see docs/AUDIT.md).")
    add_job_arguments(rescore, out_help="output directory (new, or without an earlier run in it)",
                      option_help="the rule option to rescore under, overriding the record's own (at least "
                                  "one; repeatable; checked before the pipeline starts)",
                      option_required=True)
    rescore.set_defaults(func=cmd_rescore)


def cmd_rescore(args) -> int:
    from referee.options import overrides_or_usage_error

    overrides = overrides_or_usage_error(args, "rescore")
    if overrides is None:
        return 2
    from pipelines.rescore_job import RescoreConfig, run_rescore
    from pipelines.rescore_tally import rescore_summary

    config = RescoreConfig(inputs=args.inputs, out=args.out, overrides=overrides, beam_args=args.beam_args,
                           progress_interval=args.progress_seconds)
    manifest = run_job("rescore", lambda: run_rescore(config))
    if isinstance(manifest, int):
        return manifest
    print(rescore_summary(manifest), flush=True)
    return exit_status("rescore", manifest)
