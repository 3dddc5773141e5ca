"""What `mjref rescore` counts, its manifest and its end-of-run summary.

The counts come from the rescore_games Tables on their way to the Parquet writer (as the audit's
do, pipelines/manifest.py): games, games whose payments change, verdicts that change (and how:
"clean -> violations", ...), the money moved, each per ruleset. One combiner sums them with the
records in and the error rows, so the run reconciles exactly as the audit does: records in =
rescore_games rows + error rows.
"""
from __future__ import annotations

import pyarrow as pa

from pipelines.manifest import SummaryLines, job_manifest, table_facts

GAMES_TABLE = "rescore_games"
# Per ruleset: the tally group of each figure.
FIGURES = ("games", "payments_changed", "verdicts_changed", "money_moved", "money_unknown")


def rescore_facts(table: pa.Table, name: str):
    """table_facts (rows, errors by stage), and for rescore_games the figures per ruleset."""
    yield from table_facts(table, name)
    if name != GAMES_TABLE:
        return
    columns = table.select(["ruleset", "status_own", "status_new", "verdict_changed", "payments_changed",
                            "money_moved"]).to_pydict()
    for ruleset, own, new, changed, paid, moved in zip(*columns.values()):
        yield ("rescore.games", ruleset, 1)
        if paid:
            yield ("rescore.payments_changed", ruleset, 1)
        if changed:
            yield ("rescore.verdicts_changed", ruleset, 1)
            yield ("rescore.verdict_changes", f"{own} -> {new}", 1)
        if moved is None:
            yield ("rescore.money_unknown", ruleset, 1)
        else:
            yield ("rescore.money_moved", ruleset, moved)


def rescore_figures(tally: dict) -> dict:
    """The manifest's "rescore" section: totals, verdict changes by direction, and per ruleset."""
    per = {figure: tally.get(f"rescore.{figure}", {}) for figure in FIGURES}
    rulesets = sorted(per["games"])
    return {
        **{figure: sum(per[figure].values()) for figure in FIGURES},
        "verdict_changes": dict(sorted(tally.get("rescore.verdict_changes", {}).items())),
        "by_ruleset": {r: {figure: per[figure].get(r, 0) for figure in FIGURES} for r in rulesets},
    }


def rescore_manifest(tally: dict, *, archives, out: str, tables: dict[str, dict], options: dict,
                     wall_seconds: float, not_read: list[str] = ()) -> dict:
    return job_manifest(tally, archives=archives, out=out, tables=tables, options=options,
                        wall_seconds=wall_seconds, judged_table=GAMES_TABLE,
                        facts={"rescore": rescore_figures(tally)}, not_read=not_read)


def rescore_summary(manifest: dict) -> str:
    """The end-of-run table printed to stdout."""
    lines = SummaryLines()
    lines.head(manifest, "rescore")
    options = manifest["options"]["rule_options"]
    lines.append("  under " + ", ".join(f"{k}={v}" for k, v in options.items()))
    r = manifest["rescore"]
    row = lines.row
    row("games (rescore_games)", r["games"])
    row("  payments change", r["payments_changed"])
    row("  money moved", r["money_moved"])
    row("  money unknown", r["money_unknown"], "a hand that did not end or was unreplayable, under either")
    row("  verdicts change", r["verdicts_changed"])
    for change, n in r["verdict_changes"].items():
        row(f"    {change}", n)
    if r["by_ruleset"]:
        lines.append(f"  {'ruleset':<16}{'games':>8}{'paid':>8}{'verdict':>9}{'money moved':>14}")
        for ruleset, f in r["by_ruleset"].items():
            lines.append(f"  {ruleset:<16}{f['games']:>8,}{f['payments_changed']:>8,}{f['verdicts_changed']:>9,}"
                         f"{f['money_moved']:>14,}")
    lines.errors(manifest)
    lines.tail(manifest, GAMES_TABLE)
    return "\n".join(lines)
