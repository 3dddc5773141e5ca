"""`mjref report OUT_DIR`: the audit as one self-contained HTML page, report.html beside the tables.

Made from the Parquet tables (and manifest.json) only, with pyarrow, reading just the columns it
needs, so it works for an archive of millions of records. What it shows:

- the counts, from the tables, against the manifest's (records in = verdict rows + error rows);
- violations by code and by ruleset, and records by ruleset and status, as charts and tables;
- settlement money in dispute: per hand, half the sum over seats of |claimed - recomputed| (rounded
  up), the amount paid to the wrong seats (totals, by ruleset, the largest disputes);
- the longest records (the tables hold no per-record time: see docs/VIEW.md) and the records
  that could not be judged (the errors table);
- the records with findings, most money in dispute first: the first `limit` in detail, each
  with a link to its dispute view (written under views/ for the first `views` of them, read
  back from the archive at the record's offset), then up to `listed` more by name.

Deterministic: rows are sorted by explicit keys, so the same tables give the same bytes.
pyarrow is imported inside the functions that read tables: `mjref` registers this module's
subcommand for every command, so importing it must stay cheap.

`mjref audit ... --report`: pipelines/audit.py calls `add_report_flag(audit)` where it builds
the subcommand and `report_after_audit(args, manifest)` once the audit has reconciled.
"""
from __future__ import annotations

import json
import pathlib
import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from referee import REFEREE_VERSION
from referee.codes import CODES
from referee.render.charts import bar_chart, colours
from referee.render.page import BASE_CSS, document, esc
from referee.render.style import REPORT_CSS

if TYPE_CHECKING:
    import pyarrow as pa

TABLE_NAMES = ("games", "violations", "settlements", "errors", "decisions", "matches", "match_violations")
# The payment lists are read only for the hands that need them (see compute).
GAME_COLUMNS = ["source", "offset", "game_id", "ruleset", "status", "event_count", "mismatch", "violation_count",
                "error_count"]
KEY = ["source", "offset"]
LIMIT, VIEWS, LISTED, LONGEST = 100, 25, 2000, 10


class NoAudit(ValueError):
    """The directory holds no audit tables."""


# -- reading ----------------------------------------------------------------------------------
def _table_files(out: pathlib.Path, name: str) -> list[pathlib.Path]:
    return sorted((out / name).glob("*.parquet"))


def read_table(out: pathlib.Path, name: str, columns: list[str] | None, where=None) -> pa.Table | None:
    """The named columns of a table directory (only the rows matching the `where` expression, if
    given), or None if the directory has no Parquet file."""
    import pyarrow.dataset as ds

    files = _table_files(out, name)
    if not files:
        return None
    return ds.dataset([str(f) for f in files], format="parquet").to_table(columns=columns, filter=where)


def footer_rows(out: pathlib.Path, name: str) -> int | None:
    import pyarrow.parquet as pq

    files = _table_files(out, name)
    if not files:
        return None
    return sum(pq.ParquetFile(f).metadata.num_rows for f in files)


# -- the figures --------------------------------------------------------------------------------
@dataclass
class Dispute:
    key: tuple[str, int]  # (source, offset)
    game_id: str
    ruleset: str
    status: str
    events: int
    errors: int
    violations: int
    money: int  # half the sum over seats of |claimed - recomputed|, rounded up
    codes: list[str] = field(default_factory=list)
    anchor: str = ""  # where the view opens: "event-N" (the first error's event) or "end" (the record as a whole)
    view: str | None = None  # the view page, relative to the report


@dataclass
class Figures:
    games: int
    by_status: dict[str, int]
    mismatches: int
    by_ruleset_status: dict[str, dict[str, int]]
    violations: int
    by_code: dict[str, dict[str, int]]  # code -> ruleset -> count
    by_severity: dict[str, int]
    records_by_code: dict[str, int]
    errors: int
    by_stage: dict[str, int]
    error_rows: list[dict]
    table_rows: dict[str, int | None]
    money_total: int
    money_by_ruleset: dict[str, tuple[int, int]]  # ruleset -> (hands, money)
    claimed_unsettled: int
    longest: list[dict]
    findings: list[Dispute]  # records with findings, most serious first
    findings_total: int
    matches: int = 0
    matches_by_status: dict[str, int] = field(default_factory=dict)
    matches_totals_mismatch: int = 0
    match_by_code: dict[str, int] = field(default_factory=dict)
    match_findings: list[dict] = field(default_factory=list)  # the first ones, by match and hand

    @property
    def match_violations(self) -> int:
        return sum(self.match_by_code.values())


INT64_MAX = 2**63 - 1


def _money(claimed, recomputed) -> int:
    if claimed is None or recomputed is None:
        return 0
    n = max(len(claimed), len(recomputed))
    pad = lambda xs: list(xs) + [0] * (n - len(xs))  # noqa: E731
    # Rounded up: a claim that does not sum to zero may differ by an odd amount, never by nothing.
    return (sum(abs(c - r) for c, r in zip(pad(claimed), pad(recomputed))) + 1) // 2


def _counts(column: pa.ChunkedArray) -> dict[str, int]:
    return {str(item["values"]): item["counts"] for item in column.value_counts().to_pylist()}


def compute(out: pathlib.Path, limit: int = LIMIT, listed: int = LISTED) -> Figures:
    import pyarrow as pa
    import pyarrow.compute as pc

    games = read_table(out, "games", GAME_COLUMNS)
    if games is None:
        raise NoAudit(f"{out}: no games table (games/*.parquet); is this an `mjref audit --out` directory?")
    violations = read_table(out, "violations", ["source", "offset", "event_index", "code", "severity"])
    errors = read_table(out, "errors", ["file", "offset", "length", "stage", "reason", "game_id"])
    violations = violations if violations is not None else pa.table({
        "source": pa.array([], pa.string()), "offset": pa.array([], pa.int64()),
        "event_index": pa.array([], pa.int32()), "code": pa.array([], pa.string()),
        "severity": pa.array([], pa.string())})

    by_ruleset_status: dict[str, dict[str, int]] = {}
    for row in games.group_by(["ruleset", "status"]).aggregate([([], "count_all")]).to_pylist():
        by_ruleset_status.setdefault(row["ruleset"], {})[row["status"]] = row["count_all"]

    # Violations by code and ruleset: join each violation to its record's ruleset.
    joined = violations.join(games.select(["source", "offset", "ruleset"]), keys=["source", "offset"])
    by_code: dict[str, dict[str, int]] = {}
    for row in joined.group_by(["code", "ruleset"]).aggregate([([], "count_all")]).to_pylist():
        by_code.setdefault(row["code"], {})[row["ruleset"]] = row["count_all"]
    per_record = violations.group_by(["code", "source", "offset"]).aggregate([]).group_by("code").aggregate(
        [([], "count_all")])
    records_by_code = {r["code"]: r["count_all"] for r in per_record.to_pylist()}

    # Money in dispute: the payment lists of the mismatched hands only.
    mismatched = read_table(out, "games", KEY + ["ruleset", "claimed_payments", "recomputed_payments"],
                            where=pc.field("mismatch"))
    money_rows = []
    money_by_ruleset: dict[str, tuple[int, int]] = {}
    for row in mismatched.to_pylist():
        m = _money(row["claimed_payments"], row["recomputed_payments"])
        money_rows.append((row["source"], row["offset"], m))
        hands, total = money_by_ruleset.get(row["ruleset"], (0, 0))
        money_by_ruleset[row["ruleset"]] = (hands + 1, total + m)
    # The ranking column saturates at int64's top: one claimed payment near ±2^63 (a valid sint64)
    # puts a hand's money beyond it. The page shows each hand's exact amount (exact_money).
    money = pa.table({"source": pa.array([r[0] for r in money_rows], pa.string()),
                      "offset": pa.array([r[1] for r in money_rows], pa.int64()),
                      "money": pa.array([min(r[2], INT64_MAX) for r in money_rows], pa.int64())})
    exact_money = {(source, offset): m for source, offset, m in money_rows}
    claimed_unsettled = read_table(out, "games", ["offset"], where=pc.field("claimed_payments").is_valid()
                                   & pc.field("recomputed_payments").is_null()).num_rows

    longest = games.select(["source", "offset", "game_id", "ruleset", "status", "event_count"]).sort_by(
        [("event_count", "descending"), ("source", "ascending"), ("offset", "ascending")]).slice(0, LONGEST)

    # Records with findings, most money in dispute first, then most errors, then archive order:
    # ranked in Arrow, and only the ones the page shows become Python objects.
    flagged = games.filter(pc.greater(games["violation_count"], 0))
    ranked = flagged.join(money, keys=KEY, join_type="left outer")
    ranked = ranked.set_column(ranked.schema.get_field_index("money"), "money", pc.fill_null(ranked["money"], 0))
    ranked = ranked.sort_by([("money", "descending"), ("error_count", "descending"),
                             ("violation_count", "descending"), ("source", "ascending"), ("offset", "ascending")])
    shown = [Dispute((r["source"], r["offset"]), r["game_id"], r["ruleset"], r["status"], r["event_count"],
                     r["error_count"], r["violation_count"], exact_money.get((r["source"], r["offset"]), 0))
             for r in ranked.slice(0, limit + listed).to_pylist()]
    _attach_codes(shown, violations)

    match_figures = _match_figures(out, limit)
    error_rows = []
    if errors is not None:
        error_rows = errors.sort_by([("file", "ascending"), ("offset", "ascending"), ("stage", "ascending")]
                                    ).slice(0, limit).to_pylist()
    return Figures(
        games=games.num_rows, by_status=_counts(games["status"]),
        mismatches=pc.sum(games["mismatch"].cast(pa.int64())).as_py() or 0,
        by_ruleset_status=by_ruleset_status,
        violations=violations.num_rows, by_code=by_code, by_severity=_counts(violations["severity"]),
        records_by_code=records_by_code,
        errors=errors.num_rows if errors is not None else 0,
        by_stage=_counts(errors["stage"]) if errors is not None else {},
        error_rows=error_rows,
        table_rows={name: footer_rows(out, name) for name in TABLE_NAMES},
        money_total=sum(r[2] for r in money_rows), money_by_ruleset=money_by_ruleset,
        claimed_unsettled=claimed_unsettled, longest=longest.to_pylist(),
        findings=shown, findings_total=flagged.num_rows, **match_figures)


def _match_figures(out: pathlib.Path, limit: int) -> dict:
    """The match-level checks (matches, match_violations): counts, and the first findings."""
    import pyarrow as pa
    import pyarrow.compute as pc

    matches = read_table(out, "matches", ["match_id", "status", "totals_mismatch"])
    found = read_table(out, "match_violations", ["match_id", "hand_index", "game_id", "source", "offset", "code",
                                                 "message"])
    figures = {}
    if matches is not None:
        figures.update(matches=matches.num_rows, matches_by_status=_counts(matches["status"]),
                       matches_totals_mismatch=pc.sum(matches["totals_mismatch"].cast(pa.int64())).as_py() or 0)
    if found is not None:
        first = found.sort_by([("match_id", "ascending"), ("hand_index", "ascending"), ("code", "ascending"),
                               ("source", "ascending"), ("offset", "ascending")]).slice(0, limit)
        figures.update(match_by_code=_counts(found["code"]), match_findings=first.to_pylist())
    return figures


def _attach_codes(shown: list[Dispute], violations: pa.Table) -> None:
    """Each shown record's codes (in event order) and where its view opens (its first error)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if not shown:
        return
    wanted = {d.key: d for d in shown}
    sources = pa.array(sorted({s for s, _ in wanted}), pa.string())
    subset = violations.filter(pc.is_in(violations["source"], value_set=sources))
    subset = subset.filter(pc.is_in(subset["offset"], value_set=pa.array(sorted({o for _, o in wanted}),
                                                                         pa.int64())))
    subset = subset.sort_by([("source", "ascending"), ("offset", "ascending"), ("event_index", "ascending"),
                             ("code", "ascending")])
    for row in subset.to_pylist():
        d = wanted.get((row["source"], row["offset"]))
        if d is None:
            continue
        d.codes.append(row["code"])
        if row["severity"] == "error" and not d.anchor.startswith("event-"):
            d.anchor = "end" if row["event_index"] is None else f"event-{row['event_index']}"


# -- the dispute views ------------------------------------------------------------------------------
def write_views(out: pathlib.Path, disputes: list[Dispute], count: int, overrides=None) -> None:
    """Write the dispute view of the first `count` records under out/views/, reading each record back
    from its archive at its offset. A record whose archive cannot be read keeps view=None."""
    from referee.render.command import hand_page, read_archive_record

    views = out / "views"
    for old in views.glob("[0-9][0-9][0-9][0-9]-*.html"):  # an earlier run's, which may have had more
        old.unlink()
    if count <= 0:
        return
    for i, d in enumerate(disputes[:count], 1):
        source, offset = d.key
        try:
            record = read_archive_record(source, offset)
        except Exception:  # a moved archive, a remote path: the report gives the command instead
            continue
        _, page = hand_page(f"{source}@{offset}", record, overrides)
        safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in d.game_id)[:60] or "record"
        name = f"{i:04d}-{safe}.html"
        views.mkdir(parents=True, exist_ok=True)
        (views / name).write_text(page, encoding="utf-8")
        d.view = f"views/{name}" + (f"#{d.anchor}" if d.anchor else "")


# -- the page -----------------------------------------------------------------------------------------
def _n(x) -> str:
    return "—" if x is None else f"{x:,}"


def _check(ok: bool | None) -> str:
    if ok is None:
        return '<td class="muted">no manifest</td>'
    return '<td class="ok">✓ agrees</td>' if ok else '<td class="bad">✗ differs</td>'


def reconciliation_section(f: Figures, manifest: dict | None) -> tuple[str, bool]:
    """The counts from the tables against the manifest; (html, every count agrees)."""
    m = manifest or {}
    rows = []

    def row(label, ours, theirs, note=""):
        ok = None if manifest is None else ours == theirs
        rows.append((ok, f'<tr><th>{label}</th><td class="num">{_n(ours)}</td><td class="num">{_n(theirs)}</td>'
                         f'{_check(ok)}<td class="muted">{esc(note)}</td></tr>'))

    rin = m.get("records_in", {})
    row("records in 输入记录", f.games + f.errors, rin.get("total"),
        f"{rin.get('frames', 0):,} frames + {rin.get('corrupt_spans', 0):,} corrupt spans" if rin else
        "games rows + error rows")
    row("verdict rows (games) 已判", f.games, m.get("verdicts", {}).get("total"))
    for status in sorted(set(f.by_status) | set(m.get("verdicts", {}).get("by_status", {}))):
        row(f"&nbsp;&nbsp;{esc(status)}", f.by_status.get(status, 0),
            m.get("verdicts", {}).get("by_status", {}).get(status) if manifest else None)
    row("settlement mismatches 结算不符", f.mismatches, m.get("verdicts", {}).get("settlement_mismatches"))
    row("error rows 无法判定", f.errors, m.get("errors", {}).get("total"))
    stages = m.get("errors", {}).get("by_stage", {})
    for stage in sorted(set(f.by_stage) | set(stages)):
        row(f"&nbsp;&nbsp;{esc(stage)}", f.by_stage.get(stage, 0), stages.get(stage) if manifest else None)
    row("violations 违规", f.violations, m.get("violations", {}).get("total"))
    mm = m.get("matches", {})
    if f.matches or mm.get("total"):
        row("matches 对局", f.matches, mm.get("total"))
        row("&nbsp;&nbsp;final totals differ", f.matches_totals_mismatch, mm.get("totals_mismatches"))
        row("match violations 对局违规", f.match_violations, mm.get("violations"))
    for name, n in f.table_rows.items():
        if n is None and name not in m.get("tables", {}):
            continue
        row(f"table <code>{esc(name)}</code> rows (Parquet footers)", n,
            m.get("tables", {}).get(name, {}).get("rows_written") if manifest else None)
    by_code = m.get("violations", {}).get("by_code", {})
    match_codes = m.get("matches", {}).get("violations_by_code", {})
    code_ok = manifest is None or all(sum(f.by_code.get(c, {}).values()) == by_code.get(c, 0)
                                      for c in set(by_code) | set(f.by_code)) and \
        all(f.match_by_code.get(c, 0) == match_codes.get(c, 0) for c in set(match_codes) | set(f.match_by_code))
    all_ok = manifest is None or (all(ok for ok, _ in rows) and code_ok)  # no manifest: nothing to contradict
    if manifest is None:
        banner = '<p class="callout warn">No manifest.json here: the counts below are from the tables alone.</p>'
    elif all_ok and m.get("reconciliation", {}).get("ok", True):
        banner = ('<p class="callout ok" id="reconciled">Reconciled: every count from the tables agrees with the '
                  'manifest, and records in = verdict rows + error rows. 对账一致。</p>')
    else:
        problems = "; ".join(m.get("reconciliation", {}).get("problems", [])) or "see the rows marked ✗"
        banner = f'<p class="callout bad" id="reconciled">NOT reconciled 对账不符: {esc(problems)}</p>'
    table = ('<table class="reconcile"><thead><tr><th>count</th><th class="num">from the tables</th>'
             '<th class="num">manifest</th><th></th><th></th></tr></thead>'
             f'<tbody>{"".join(html for _, html in rows)}</tbody></table>')
    if manifest is not None and not code_ok:
        table += '<p class="bad">Violations by code differ from the manifest\'s by_code (or its matches\' ' \
                 'violations_by_code).</p>'
    return f'<section id="counts"><h2>Counts 统计</h2>{banner}{table}</section>', all_ok


def _code_label(code: str) -> tuple[str, str]:
    c = CODES.get(code)
    return code, (f"{c.term} {c.gloss}" if c else "")


def violations_section(f: Figures) -> str:
    rulesets = sorted({r for per in f.by_code.values() for r in per})
    codes = sorted(f.by_code, key=lambda c: (-sum(f.by_code[c].values()), c))
    chart = bar_chart([(code, CODES[code].term if code in CODES else "", f.by_code[code]) for code in codes],
                      colours(rulesets), "Violations by code, stacked by ruleset 违规类型（按规则）", "chart-codes")
    head = "".join(f'<th class="num">{esc(r)}</th>' for r in rulesets)
    rows = []
    for code in codes:
        c = CODES.get(code)
        cells = "".join(f'<td class="num">{_n(f.by_code[code].get(r, 0))}</td>' for r in rulesets)
        rows.append(f'<tr><td><code>{esc(code)}</code></td><td class="zh">{esc(c.term if c else "")}</td>'
                    f'<td>{esc(c.gloss if c else "")}</td><td>{esc(c.severity if c else "")}</td>{cells}'
                    f'<td class="num">{_n(sum(f.by_code[code].values()))}</td>'
                    f'<td class="num">{_n(f.records_by_code.get(code, 0))}</td></tr>')
    table = ('<table class="codes"><thead><tr><th>code</th><th>term 术语</th><th>gloss</th><th>severity</th>'
             f'{head}<th class="num">total</th><th class="num">records</th></tr></thead>'
             f'<tbody>{"".join(rows)}</tbody></table>')
    statuses = sorted({s for per in f.by_ruleset_status.values() for s in per})
    status_colours = {s: {"clean": "#1d7a3a", "violations": "#c0262d"}.get(s, "#b7791f") for s in statuses}
    chart2 = bar_chart([(r, "", f.by_ruleset_status[r]) for r in sorted(f.by_ruleset_status)], status_colours,
                       "Records by ruleset and verdict 各规则记录", "chart-rulesets")
    sev = ", ".join(f"{n:,} {esc(s)}" for s, n in sorted(f.by_severity.items())) or "none"
    return (f'<section id="violations"><h2>Violations 违规 <span class="muted">({f.violations:,}: {sev})</span></h2>'
            f'<div class="charts">{chart}{chart2}</div>{table}</section>')


def money_section(f: Figures) -> str:
    rows = "".join(f'<tr><td>{esc(r)}</td><td class="num">{_n(h)}</td><td class="num">{_n(m)}</td></tr>'
                   for r, (h, m) in sorted(f.money_by_ruleset.items()))
    chart = bar_chart([(r, f"{h:,} hands", {"money": m}) for r, (h, m) in sorted(f.money_by_ruleset.items())],
                      {"money": "#b7791f"}, "Money in dispute by ruleset 争议金额", "chart-money")
    top = [d for d in f.findings if d.money > 0][:20]
    top_rows = "".join(
        f'<tr><td>{_record_link(d)}</td><td>{esc(d.ruleset)}</td><td class="num">{_n(d.money)}</td>'
        f'<td>{esc(", ".join(dict.fromkeys(d.codes)))}</td></tr>' for d in top)
    return (f'<section id="money"><h2>Settlement money in dispute 结算争议</h2>'
            f'<p class="big-figure"><strong id="money-total">{f.money_total:,}</strong> points paid to the wrong seats '
            f'in <strong>{f.mismatches:,}</strong> hands whose claimed payments differ from the recomputed ones. '
            f'<span class="muted">(Per hand: half the sum over seats of |claimed − recomputed|.)</span></p>'
            f'<p>{f.claimed_unsettled:,} more hands claim payments the referee did not recompute (it stopped '
            f'judging them at a fatal finding, or the hand did not end).</p>'
            f'{chart}<table><thead><tr><th>ruleset</th><th class="num">hands</th><th class="num">money</th></tr>'
            f'</thead><tbody>{rows}</tbody></table>'
            + (f'<h3>The largest disputes</h3><table><thead><tr><th>record</th><th>ruleset</th>'
               f'<th class="num">money</th><th>codes</th></tr></thead><tbody>{top_rows}</tbody></table>'
               if top else "")
            + '</section>')


def _record_link(d: Dispute) -> str:
    name = f"<code>{esc(d.game_id or '?')}</code>"
    if d.view:
        return f'<a href="{esc(d.view)}">{name}</a>'
    return name


def _view_command(d: Dispute) -> str:
    return f"mjref view {d.key[0]} --offset {d.key[1]}"


def findings_section(f: Figures, limit: int) -> str:
    detail, rest = f.findings[:limit], f.findings[limit:]
    rows = []
    for i, d in enumerate(detail, 1):
        codes = ", ".join(f"{c}×{d.codes.count(c)}" if d.codes.count(c) > 1 else c for c in dict.fromkeys(d.codes))
        view = (f'<a class="view-link" href="{esc(d.view)}">dispute view →</a>' if d.view else
                f'<code class="cmd">{esc(_view_command(d))}</code>')
        rows.append(f'<tr><td class="num">{i}</td><td><code>{esc(d.game_id or "?")}</code></td>'
                    f'<td>{esc(d.ruleset)}</td><td class="badge-cell"><span class="badge {esc(d.status)}">'
                    f'{esc(d.status)}</span></td><td>{esc(codes)}</td><td class="num">{_n(d.money) if d.money else ""}'
                    f'</td><td class="num">{_n(d.events)}</td><td class="src">{esc(d.key[0])}@{d.key[1]}</td>'
                    f'<td>{view}</td></tr>')
    table = ('<table class="records"><thead><tr><th class="num">#</th><th>game</th><th>ruleset</th><th>verdict</th>'
             '<th>findings</th><th class="num">money</th><th class="num">events</th><th>record (archive@offset)</th>'
             f'<th>view</th></tr></thead><tbody>{"".join(rows)}</tbody></table>')
    more = ""
    if rest:
        items = "".join(f'<li><code>{esc(d.game_id or "?")}</code> <span class="muted">{esc(d.key[0])}@{d.key[1]}'
                        f'</span> {esc(", ".join(dict.fromkeys(d.codes)))}</li>' for d in rest)
        more = (f'<h3>{len(rest):,} more records with findings</h3><ol class="more" start="{limit + 1}">'
                f'{items}</ol>')
    left = f.findings_total - len(f.findings)
    if left > 0:
        more += (f'<p class="muted" id="not-listed">… and {left:,} more records with findings, not listed here. '
                 'Query the tables for them, e.g. <code>SELECT game_id, source, "offset", code FROM '
                 "'violations/*.parquet' ORDER BY source, \"offset\"</code> in DuckDB.</p>")
    return (f'<section id="records"><h2>Records with findings 违规记录 <span class="muted">'
            f'({f.findings_total:,})</span></h2><p class="muted">Most money in dispute first, then most '
            f'violations. A view is the hand as the referee replayed it (<code>mjref view</code>).</p>{table}{more}'
            '</section>')


def matches_section(f: Figures, limit: int) -> str:
    """The checks across the hands of each match (referee/match.py): a finding concerns a hand of a
    match, carried by one of its records."""
    if not f.matches:
        return ""
    status = ", ".join(f"{n:,} {esc(s)}" for s, n in sorted(f.matches_by_status.items()))
    codes = "".join(f'<tr><td><code>{esc(code)}</code></td><td class="zh">{esc(_code_label(code)[1])}</td>'
                    f'<td class="num">{_n(n)}</td></tr>'
                    for code, n in sorted(f.match_by_code.items(), key=lambda kv: (-kv[1], kv[0])))
    rows = "".join(f'<tr><td><code>{esc(r["match_id"])}</code></td><td class="num">{_n(r["hand_index"])}</td>'
                   f'<td><code>{esc(r["code"])}</code></td><td><code>{esc(r["game_id"] or "?")}</code></td>'
                   f'<td class="src">{esc(r["source"])}@{r["offset"]}</td><td>{esc(r["message"])}</td></tr>'
                   for r in f.match_findings)
    total = f.match_violations
    left = total - len(f.match_findings)
    more = f'<p class="muted">… and {left:,} more in the match_violations table.</p>' if left > 0 else ""
    body = ('<table><thead><tr><th>code</th><th>term 术语</th><th class="num">findings</th></tr></thead>'
            f'<tbody>{codes}</tbody></table><table class="errors"><thead><tr><th>match</th><th class="num">hand'
            '</th><th>code</th><th>game</th><th>record</th><th>finding</th></tr></thead>'
            f'<tbody>{rows}</tbody></table>{more}' if total else
            '<p class="ok-text">No finding across the hands of a match. 对局无违规。</p>')
    return (f'<section id="matches"><h2>Matches 对局 <span class="muted">({f.matches:,}: {status}; '
            f'{f.matches_totals_mismatch:,} with final totals that differ; {total:,} findings)</span></h2>'
            '<p class="muted">Checks across the hands of a match: hands missing or twice, the dealer, the round '
            'wind, the 流局 count, the running totals, the rules. A hand\'s own findings are in the records '
            f'above.</p>{body}</section>')


def errors_section(f: Figures, limit: int) -> str:
    stages = "".join(f'<tr><td>{esc(s)}</td><td class="num">{_n(n)}</td></tr>' for s, n in sorted(f.by_stage.items()))
    rows = "".join(
        f'<tr><td>{esc(r["stage"])}</td><td class="src">{esc(r["file"])}</td><td class="num">{_n(r["offset"])}</td>'
        f'<td class="num">{_n(r["length"])}</td><td>{esc(r["game_id"] or "")}</td><td>{esc(r["reason"])}</td></tr>'
        for r in f.error_rows)
    left = f.errors - len(f.error_rows)
    more = f'<p class="muted">… and {left:,} more in the errors table.</p>' if left > 0 else ""
    body = (f'<table><thead><tr><th>stage</th><th class="num">rows</th></tr></thead><tbody>{stages}</tbody></table>'
            '<table class="errors"><thead><tr><th>stage</th><th>file</th><th class="num">offset</th>'
            f'<th class="num">bytes</th><th>game</th><th>reason</th></tr></thead><tbody>{rows}</tbody></table>{more}'
            if f.errors else '<p class="ok-text">Every record was judged. 全部已判。</p>')
    return (f'<section id="unreplayable"><h2>Records that could not be judged 无法判定 <span class="muted">'
            f'({f.errors:,})</span></h2>{body}</section>')


def longest_section(f: Figures, manifest: dict | None) -> str:
    rows = "".join(f'<tr><td><code>{esc(r["game_id"])}</code></td><td>{esc(r["ruleset"])}</td>'
                   f'<td>{esc(r["status"])}</td><td class="num">{_n(r["event_count"])}</td>'
                   f'<td class="src">{esc(r["source"])}@{r["offset"]}</td></tr>' for r in f.longest)
    speed = ""
    if manifest and manifest.get("hands_per_second"):
        speed = (f"The audit ran {manifest['wall_clock_seconds']:,} s, {manifest['hands_per_second']:,} hands/s. ")
    return (f'<section id="slowest"><h2>Slowest records 最长记录</h2><p class="muted">{esc(speed)}The tables hold no '
            'time per record, so these are the records with the most events, which take the referee longest.</p>'
            '<table><thead><tr><th>game</th><th>ruleset</th><th>verdict</th><th class="num">events</th><th>record</th>'
            f'</tr></thead><tbody>{rows}</tbody></table></section>')


def header(out: pathlib.Path, manifest: dict | None, f: Figures) -> str:
    meta = [f"{f.games + f.errors:,} records", f"{f.violations:,} violations", f"{f.mismatches:,} settlement mismatches"]
    if f.matches:
        meta.append(f'<a href="#matches">{f.matches:,} matches, {f.match_violations:,} match findings</a>')
    inputs = ""
    if manifest:
        v = manifest.get("versions", {})
        meta.append(f"referee {esc(v.get('referee', '?'))}, record schema {esc(v.get('schema', '?'))}")
        files = manifest.get("inputs", {}).get("files", [])
        items = "".join(f"<li><code>{esc(x['path'])}</code> {x['bytes']:,} bytes"
                        f"{' (' + esc(x['compression']) + ')' if x.get('compression') else ''}</li>"
                        for x in files[:20])
        if len(files) > 20:
            items += f"<li>… and {len(files) - 20:,} more</li>"
        options = manifest.get("options", {})
        inputs = (f'<details><summary>Inputs and options 输入与选项</summary><ul>{items}</ul>'
                  f'<pre class="mono">{esc(json.dumps(options, indent=1, sort_keys=True, ensure_ascii=False))}</pre>'
                  '</details>')
    flagged = f.by_status.get("violations", 0)
    cards = [
        ("records in 输入记录", f"{f.games + f.errors:,}", "", "#counts"),
        ("with violations 有违规", f"{flagged:,}", f"{flagged / f.games:.1%} of judged" if f.games else "", "#records"),
        ("money in dispute 争议金额", f"{f.money_total:,}", f"in {f.mismatches:,} hands", "#money"),
        ("could not be judged 无法判定", f"{f.errors:,}", "", "#unreplayable"),
    ]
    strip = "".join(f'<a class="card" href="{href}"><span class="card-label">{esc(label)}</span>'
                    f'<span class="card-value">{esc(value)}</span><span class="card-note">{esc(note)}</span></a>'
                    for label, value, note, href in cards)
    return (f'<header><h1>Audit report 审计报告</h1><p class="muted source">{esc(out)}</p>'
            f'<ul class="meta">{"".join(f"<li>{m}</li>" for m in meta)}</ul>'
            f'<nav class="cards">{strip}</nav>{inputs}</header>')


def render_report(out: pathlib.Path, f: Figures, manifest: dict | None, limit: int = LIMIT) -> tuple[str, bool]:
    counts, ok = reconciliation_section(f, manifest)
    body = "\n".join([
        "<main>", header(out, manifest, f), counts, violations_section(f), money_section(f),
        findings_section(f, limit), matches_section(f, limit), errors_section(f, limit),
        longest_section(f, manifest),
        f'<footer class="muted small">mjref {esc(REFEREE_VERSION)} audit report · made from the Parquet tables'
        '</footer>', "</main>"])
    return document(f"mjref audit report: {out.name}", body, BASE_CSS + REPORT_CSS), ok


def write_report(out_dir, *, limit: int = LIMIT, views: int = VIEWS, listed: int = LISTED, overrides=None,
                 report_path=None) -> tuple[pathlib.Path, bool]:
    """Write report.html (and views/) in the audit directory; (its path, the counts reconcile)."""
    out = pathlib.Path(out_dir)
    figures = compute(out, limit=limit, listed=listed)
    manifest_path = out / "manifest.json"
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else None
    if overrides is None and manifest:
        overrides = manifest.get("options", {}).get("rule_options") or None
    write_views(out, figures.findings[:limit], views, overrides)
    page, ok = render_report(out, figures, manifest, limit)
    path = pathlib.Path(report_path) if report_path else out / "report.html"
    path.write_text(page, encoding="utf-8")
    return path, ok


def cmd_report(args) -> int:
    try:
        path, ok = write_report(args.out_dir, limit=args.limit, views=args.views, listed=args.listed,
                                report_path=args.out)
    except NoAudit as err:
        print(f"mjref report: {err}", file=sys.stderr)
        return 2
    print(f"wrote {path}" + ("" if ok else " (the counts do NOT reconcile with the manifest)"))
    return 0 if ok else 3


def add_report_command(sub) -> None:
    report = sub.add_parser(
        "report", help="write report.html for an audit directory (from its Parquet tables)",
        description="Write a self-contained HTML report of an `mjref audit` output directory: counts reconciled "
                    "with the manifest, violations by code and ruleset, settlement money in dispute, the records "
                    "that could not be judged, and the records with findings with their dispute views.")
    report.add_argument("out_dir", metavar="OUT_DIR", help="the directory `mjref audit --out` wrote")
    report.add_argument("--limit", type=int, default=LIMIT, help=f"records with findings shown in detail "
                                                                 f"(default {LIMIT})")
    report.add_argument("--views", type=int, default=VIEWS,
                        help=f"write the dispute view of the first N of them under OUT_DIR/views/ (default {VIEWS})")
    report.add_argument("--listed", type=int, default=LISTED,
                        help=f"more records with findings listed by name after those (default {LISTED})")
    report.add_argument("--out", metavar="FILE.html", help="where to write the report (default OUT_DIR/report.html)")
    report.set_defaults(func=cmd_report)


# -- `mjref audit ... --report` -----------------------------------------------------------------------
def add_report_flag(audit_parser) -> None:
    """Adds --report (and --report-views) to the `audit` subcommand's parser."""
    audit_parser.add_argument("--report", action="store_true",
                              help="also write report.html (and the dispute views of the first records with "
                                   "findings) beside the tables")
    audit_parser.add_argument("--report-views", type=int, default=VIEWS, metavar="N",
                              help=f"with --report: dispute views written under DIR/views/ (default {VIEWS})")


def report_after_audit(args, manifest: dict) -> int:
    """Call at the end of cmd_audit: writes the report if --report was given. Returns 0, or 2 if the
    output directory is not local (the report reads and writes local files only)."""
    if not getattr(args, "report", False):
        return 0
    out = manifest["out"]
    if "://" in out:
        print(f"mjref audit: --report needs a local --out, not {out}; run `mjref report` on a copy",
              file=sys.stderr)
        return 2
    path, _ = write_report(out, views=getattr(args, "report_views", VIEWS),
                           overrides=manifest.get("options", {}).get("rule_options") or None)
    print(f"report: {path}", flush=True)
    return 0
