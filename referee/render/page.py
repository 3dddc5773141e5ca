"""The page shell both HTML pages share: escaping, embedded JSON, the CSP, the base stylesheet.

A page is one document with its CSS and JS inline. The Content-Security-Policy allows nothing
from anywhere (`default-src 'none'`) except the page's own <style> and <script> elements,
named by their SHA-256, so a page cannot fetch a font, an image or a script even if a record's
text tried to smuggle one in (it cannot: all text is escaped, and embedded JSON cannot close
its <script> element).
"""
from __future__ import annotations

import base64
import hashlib
import html
import json

FONT_STACK = ('system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans CJK SC", '
              '"Source Han Sans SC", "PingFang SC", "Microsoft YaHei", "WenQuanYi Zen Hei", sans-serif')


def esc(value) -> str:
    """Text (from a record or anywhere else) as HTML text or an attribute value."""
    return html.escape("" if value is None else str(value), quote=True)


def json_for_script(value) -> str:
    """JSON to put inside <script type="application/json">: no '<', '>' or '&' survive, so the
    text can never end the element or open a comment, whatever strings the record holds."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    for raw, escaped in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                         ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(raw, escaped)
    return text


def _sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def document(title: str, body: str, css: str, script: str | None = None, data: str | None = None) -> str:
    """A whole HTML page. `css` and `script` are trusted (ours); `title` is escaped here; `body` must
    be escaped by the caller; `data` is JSON from json_for_script, readable as #page-data."""
    policy = f"default-src 'none'; style-src {_sha256(css)}; img-src data:"
    policy += f"; script-src {_sha256(script)}" if script else "; script-src 'none'"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{policy}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta name="generator" content="mjref">',
        f"<title>{esc(title)}</title>",
        f"<style>{css}</style>",
        "</head>",
        "<body>",
        body,
    ]
    if data is not None:
        parts.append(f'<script type="application/json" id="page-data">{data}</script>')
    if script:
        parts.append(f"<script>{script}</script>")
    parts += ["</body>", "</html>", ""]
    return "\n".join(parts)


BASE_CSS = """
:root {
  --ink: #1d232b; --muted: #5d6773; --line: #d5dbe1; --paper: #ffffff; --panel: #f5f7f9;
  --bad: #b3261e; --bad-bg: #fde8e6; --warn: #8a5a00; --warn-bg: #fff3d6;
  --good: #1e6b35; --good-bg: #e3f4e7; --accent: #0b5cad; --accent-bg: #e5f0fb;
  --felt: #e8f1ea;
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; padding: 16px 24px 48px; color: var(--ink); background: var(--paper);
  font: 14px/1.45 FONT_STACK; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 17px; margin: 28px 0 8px; padding-bottom: 4px; border-bottom: 2px solid var(--line); }
h3 { font-size: 15px; margin: 16px 0 6px; }
.zh { font-weight: 600; }
.muted { color: var(--muted); }
.mono, code { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace;
  font-size: 12.5px; }
table { border-collapse: collapse; margin: 6px 0 10px; }
th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: var(--panel); font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.badge { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 12.5px; font-weight: 600;
  border: 1px solid currentColor; white-space: nowrap; }
.badge.clean, .ok { color: var(--good); background: var(--good-bg); }
.badge.violations, .badge.error, .bad { color: var(--bad); background: var(--bad-bg); }
.badge.unreplayable, .badge.unreadable, .badge.info, .warn { color: var(--warn); background: var(--warn-bg); }
.meta { display: flex; flex-wrap: wrap; gap: 4px 18px; margin: 6px 0 0; padding: 0; list-style: none; }
.meta li { white-space: nowrap; }
a { color: var(--accent); }
button { font: inherit; cursor: pointer; }
@media print {
  body { padding: 0; font-size: 11.5px; }
  h2 { break-after: avoid; }
  table, figure, li { break-inside: avoid; }
  .no-print { display: none !important; }
  a { color: inherit; text-decoration: none; }
  .badge, .bad, .ok, .warn, th { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
""".replace("FONT_STACK", FONT_STACK)
