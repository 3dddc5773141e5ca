"""Horizontal bar charts as inline SVG, drawn on the server (no script, prints as it shows).

    bar_chart(rows, series, title) -> "<figure>...<svg>...</svg></figure>"

`rows` is a list of (label, note, {series name: value}); bars stack the series in the order of
`series` (name -> colour). Each chart is followed by nothing else: the page puts the same
figures in a table beside it, for reading exact values and for screen readers.
"""
from __future__ import annotations

from referee.render.page import FONT_STACK, esc

PALETTE = ("#0b5cad", "#c0262d", "#1d7a3a", "#b7791f", "#6b46c1", "#2c7a7b", "#9c4221", "#4a5568")
LABEL_W, BAR_W, VALUE_W, ROW_H, TOP = 300, 420, 90, 22, 28


def _fmt(value) -> str:
    return f"{value:,}" if isinstance(value, int) else f"{value:,.1f}"


def bar_chart(rows: list[tuple[str, str, dict[str, int]]], series: dict[str, str], title: str,
              chart_id: str = "") -> str:
    if not rows:
        return f'<figure class="chart" id="{esc(chart_id)}"><figcaption>{esc(title)}</figcaption>' \
               '<p class="muted">Nothing to chart.</p></figure>'
    top = max(sum(v.values()) for _, _, v in rows) or 1
    width = LABEL_W + BAR_W + VALUE_W
    height = TOP + ROW_H * len(rows) + 6
    parts = [f'<svg class="chart-svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
             f'role="img" aria-label="{esc(title)}" font-family=\'{FONT_STACK}\' font-size="12">']
    # The legend across the top.
    x = LABEL_W
    for name, colour in series.items():
        parts.append(f'<rect x="{x}" y="6" width="12" height="12" fill="{colour}"/>'
                     f'<text x="{x + 16}" y="16">{esc(name)}</text>')
        x += 24 + 7 * len(name)
    for i, (label, note, values) in enumerate(rows):
        y = TOP + i * ROW_H
        text = esc(label) + (f' <tspan fill="#5d6773">{esc(note)}</tspan>' if note else "")
        parts.append(f'<text x="{LABEL_W - 8}" y="{y + 15}" text-anchor="end">{text}</text>')
        x = float(LABEL_W)
        for name, colour in series.items():
            value = values.get(name, 0)
            if value <= 0:
                continue
            w = BAR_W * value / top
            parts.append(f'<rect x="{x:.1f}" y="{y + 3}" width="{max(w, 1):.1f}" height="{ROW_H - 6}" '
                         f'fill="{colour}"><title>{esc(label)}: {esc(name)} {_fmt(value)}</title></rect>')
            x += w
        parts.append(f'<text x="{x + 6:.1f}" y="{y + 15}" font-weight="600">{_fmt(sum(values.values()))}</text>')
    parts.append("</svg>")
    return (f'<figure class="chart" id="{esc(chart_id)}"><figcaption>{esc(title)}</figcaption>'
            f'{"".join(parts)}</figure>')


def colours(names) -> dict[str, str]:
    """A stable colour per name, in the given order."""
    return {name: PALETTE[i % len(PALETTE)] for i, name in enumerate(names)}
