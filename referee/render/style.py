"""The hand view's stylesheet (added to page.BASE_CSS).

On a wide screen the four seats sit around the table as players do (seat 0 at the bottom, its
下家 seat 1 to the right, then 2 at the top and 3 on the left); on a narrow screen and on paper
they stack in seat order below the table's centre.
"""

VIEW_CSS = """
.sprite { position: absolute; width: 0; height: 0; overflow: hidden; }
main { max-width: 1400px; margin: 0 auto; }
header .source { margin: 2px 0; word-break: break-all; }
.callout { padding: 6px 10px; border-radius: 6px; margin: 8px 0; }
.small { font-size: 12px; }
details.options { margin-top: 8px; }
details.options summary { cursor: pointer; color: var(--accent); }

.findings { padding-left: 22px; margin: 4px 0; }
.finding { margin: 0 0 10px; padding: 6px 10px; border-left: 4px solid var(--bad); background: var(--bad-bg); }
.finding.info { border-left-color: var(--warn); background: var(--warn-bg); }
.finding .term { margin-left: 4px; }
.finding .where { color: var(--muted); margin: 2px 0; }
.finding .explanation { font-weight: 600; }
.finding .message { font-family: inherit; }
.finding.current { outline: 2px solid var(--accent); }
button.goto { border: 1px solid var(--accent); color: var(--accent); background: var(--paper);
  border-radius: 4px; padding: 0 8px; margin-left: 6px; }
.ok-text { color: var(--good); font-weight: 600; }

.controls { position: sticky; top: 0; z-index: 2; display: flex; flex-wrap: wrap; align-items: center; gap: 6px;
  padding: 6px 8px; background: var(--panel); border: 1px solid var(--line); border-radius: 6px; }
.controls button { padding: 3px 10px; border: 1px solid #aab4bf; border-radius: 4px; background: var(--paper); }
.controls button:hover { background: var(--accent-bg); }
.controls button:disabled { opacity: 0.4; cursor: default; }
.controls input[type=range] { flex: 1 1 220px; min-width: 160px; }
.controls .keys { font-size: 12px; }
.now { margin: 8px 0 4px; font-size: 15px; }
.now #position { display: inline-block; min-width: 9em; color: var(--muted); }

.frame-findings:empty { display: none; }
.frame-findings { margin: 6px 0; padding: 6px 10px; border: 2px solid var(--bad); border-radius: 6px;
  background: var(--bad-bg); }
.frame-findings.info { border-color: var(--warn); background: var(--warn-bg); }
.frame-findings p { margin: 2px 0; }

.board { display: grid; gap: 8px; margin: 8px 0; grid-template-columns: minmax(0, 1fr) minmax(190px, 230px) minmax(0, 1fr);
  grid-template-areas: "s2 s2 s2" "s3 centre s1" "s0 s0 s0"; }
#seat-0 { grid-area: s0; } #seat-1 { grid-area: s1; } #seat-2 { grid-area: s2; } #seat-3 { grid-area: s3; }
.centre { grid-area: centre; display: flex; flex-direction: column; gap: 6px; padding: 10px; border-radius: 8px;
  background: #2f5d3d; color: #f4f7f2; }
.centre .big { font-size: 22px; font-weight: 700; font-variant-numeric: tabular-nums; }
.centre .bar { height: 6px; background: rgba(255,255,255,0.25); border-radius: 3px; overflow: hidden; }
.centre .bar span { display: block; height: 100%; background: #f1c94b; }
.centre .lbl { font-size: 12px; opacity: 0.85; }
.centre .wilds, .centre .indicator { display: flex; flex-wrap: wrap; gap: 3px; align-items: center; }
.centre .wilds .lbl, .centre .indicator .lbl { flex-basis: 100%; }
.seat { padding: 6px 8px; border: 1px solid var(--line); border-radius: 8px; background: var(--felt); min-width: 0; }
.seat.actor { outline: 3px solid var(--accent); }
.seat.flagged { outline: 3px solid var(--bad); }
.seat-head { display: flex; flex-wrap: wrap; gap: 4px 8px; align-items: center; margin-bottom: 4px; }
.seat-head .name { font-weight: 700; }
.tag { display: inline-block; padding: 0 6px; border-radius: 8px; font-size: 12px; border: 1px solid #8b949e;
  background: var(--paper); }
.tag.dealer { border-color: var(--bad); color: var(--bad); }
.tag.ready { border-color: var(--good); color: var(--good); font-weight: 700; }
.tag.flag { border-color: var(--warn); color: var(--warn); }
.tag.winner { border-color: #a07800; background: #f1c94b; color: #222; font-weight: 700; }
.hand-row { display: flex; flex-wrap: wrap; align-items: flex-end; gap: 4px 14px; }
.hand, .river, .meld { display: flex; flex-wrap: wrap; gap: 1px; }
.melds { display: flex; flex-wrap: wrap; gap: 8px; }
.meld { align-items: flex-end; padding: 1px 3px 0; border-radius: 4px; background: rgba(0,0,0,0.06); }
.meld .meld-label { font-size: 11px; margin-right: 3px; align-self: center; }
.won { display: flex; align-items: flex-end; margin-left: 8px; padding: 1px 3px 0; border-radius: 4px;
  background: #f1c94b55; }
.won .meld-label { font-size: 11px; margin-right: 3px; align-self: center; }
.centre .pending { color: var(--warn); max-width: 16em; }
.river-label { font-size: 11px; margin-top: 4px; }
.river { min-height: 28px; max-width: 100%; }
.tile { width: 26px; height: 36.4px; flex: none; display: block; }
.river .tile, .tile.small { width: 20px; height: 28px; }
.meld .tile { width: 22px; height: 30.8px; }
.centre .tile { width: 30px; height: 42px; }
.tile.wild { box-shadow: 0 0 0 2px #d4a000; border-radius: 4px; }
.tile.new { transform: translateY(-5px); }
.tile.last { outline: 2px solid var(--bad); outline-offset: 2px; border-radius: 4px; }
.hand .tile.new { margin-left: 6px; }

#decisions table { width: 100%; }
#decisions td.legal { line-height: 1.9; }
.chip { display: inline-block; padding: 0 6px; margin: 0 3px 0 0; border-radius: 9px; border: 1px solid #b8c1ca;
  font-size: 12.5px; white-space: nowrap; background: var(--paper); }
.chip.taken { border-color: var(--good); background: var(--good-bg); font-weight: 700; }
.chip.should { border: 2px solid #c98a00; background: var(--warn-bg); font-weight: 700; }
tr.illegal td, tr.flagged td { background: var(--bad-bg); }
tr.illegal .chip.taken, tr.flagged .chip.taken { border-color: var(--bad); background: var(--bad-bg); color: var(--bad); }
tr.missed td, tr.overridden td { background: var(--warn-bg); }
.status { white-space: nowrap; font-weight: 600; }
tr.illegal .status, tr.flagged .status { color: var(--bad); }
tr.missed .status, tr.overridden .status { color: var(--warn); }

table.settlement td.num { min-width: 5.5em; }
table.settlement tr.bad td, table.settlement tr.bad th { background: var(--bad-bg); }
table.settlement tr.bad td.diff { color: var(--bad); font-weight: 700; }
.lines { margin: 4px 0; padding-left: 24px; }

.log { max-height: 460px; overflow-y: auto; border: 1px solid var(--line); border-radius: 6px; padding: 4px;
  list-style: none; margin: 0; max-width: 720px; }
.log li { display: flex; align-items: center; gap: 4px; }
.log button.goto { border: none; margin: 0; padding: 1px 4px; color: var(--ink); text-align: left; flex: 1;
  background: transparent; border-radius: 3px; }
.log button.goto:hover { background: var(--accent-bg); }
.log button.goto[aria-current=step] { background: var(--accent); color: #fff; }
.log .idx { display: inline-block; min-width: 3.2em; color: var(--muted); font-variant-numeric: tabular-nums; }
.log button[aria-current=step] .idx { color: #fff; }
footer { margin-top: 28px; }

@media (max-width: 980px) {
  .board { grid-template-columns: 1fr; grid-template-areas: "centre" "s0" "s1" "s2" "s3"; }
}
@media screen and (max-width: 720px) {
  /* A wide table scrolls in its own box: the page, its controls and findings stay in the window. */
  main table { display: block; max-width: 100%; overflow-x: auto; }
  .lines li, .finding .message { overflow-wrap: anywhere; }
  .meta li { white-space: normal; }
}
@media print {
  .board { grid-template-columns: 1fr 1fr; grid-template-areas: "centre centre" "s0 s1" "s3 s2"; }
  .centre { background: #fff; color: var(--ink); border: 1px solid var(--line); flex-direction: row;
    flex-wrap: wrap; gap: 4px 18px; }
  .seat { background: #fff; }
  .seat.actor { outline: 2px solid var(--ink); }
  .tile.new { transform: none; }
  .frame-findings, .finding, tr.illegal td, tr.missed td, .chip, .tag, table.settlement tr.bad td {
    -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
"""

REPORT_CSS = """
main { max-width: 1200px; margin: 0 auto; }
.callout { padding: 6px 10px; border-radius: 6px; margin: 8px 0; font-weight: 600; }
.small { font-size: 12px; }
.source { word-break: break-all; }
.ok-text { color: var(--good); font-weight: 600; }
details summary { cursor: pointer; color: var(--accent); margin-top: 8px; }
pre.mono { white-space: pre-wrap; background: var(--panel); padding: 6px 8px; border-radius: 4px; }
.charts { display: flex; flex-wrap: wrap; gap: 12px 28px; align-items: flex-start; }
figure.chart { margin: 8px 0; max-width: 100%; }
figure.chart figcaption { font-weight: 600; margin-bottom: 4px; }
.chart-svg { max-width: 100%; height: auto; }
.big-figure { font-size: 15px; }
.cards { display: flex; flex-wrap: wrap; gap: 10px; margin: 12px 0 4px; }
.card { display: flex; flex-direction: column; min-width: 180px; padding: 8px 14px; border: 1px solid var(--line);
  border-radius: 8px; background: var(--panel); color: var(--ink); text-decoration: none; }
.card-label { font-size: 12.5px; color: var(--muted); }
.card-value { font-size: 26px; font-weight: 700; font-variant-numeric: tabular-nums; }
.card-note { font-size: 12px; color: var(--muted); min-height: 1em; }
#money-total { font-size: 22px; color: var(--bad); }
table.records td.src, td.src { font-size: 12px; color: var(--muted); word-break: break-all; max-width: 320px; }
code.cmd { font-size: 11.5px; word-break: break-all; }
ol.more { columns: 2 420px; column-gap: 24px; font-size: 12.5px; }
ol.more li { break-inside: avoid; }
table.reconcile td.ok, table.reconcile td.bad { font-weight: 600; }
@media print {
  .view-link::after { content: " (" attr(href) ")"; font-size: 10px; color: var(--muted); }
  ol.more { columns: 2; }
}
"""
