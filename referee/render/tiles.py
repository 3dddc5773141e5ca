"""The 34 tile faces as SVG <symbol>s, defined once per page and drawn with <use href="#tile-N">.

筒 and 条 are drawn as pips and sticks (pure geometry, no font needed); 万 and the honours are
characters. Every face has its notation (5m, E, C) in a band at the bottom, so a machine with
no CJK font still shows which tile it is, and every drawn tile carries an aria-label and a
<title> ("5m 五万") for screen readers, tooltips and tests.
"""
from __future__ import annotations

from referee import tiles as T
from referee.render.page import esc

W, H = 30, 42  # the tile's viewBox; the face is y 0..34, the notation band 34..42
CJK_FONT = '"Noto Serif CJK SC", "Noto Sans CJK SC", "Source Han Serif SC", "Songti SC", "SimSun", serif'
# Set on each <text>: a <use> copy inherits from where it is used, not from the <symbol>'s parents.
_CJK = f"font-family='{CJK_FONT}' font-weight='700'"

# Pip centres for 1..9 in the face box.
PIPS = {
    1: [(15, 17)],
    2: [(15, 9), (15, 25)],
    3: [(8, 7), (15, 17), (22, 27)],
    4: [(9, 9), (21, 9), (9, 25), (21, 25)],
    5: [(9, 8), (21, 8), (15, 17), (9, 26), (21, 26)],
    6: [(9, 7), (21, 7), (9, 17), (21, 17), (9, 27), (21, 27)],
    7: [(7, 5), (15, 8), (23, 11), (9, 20), (21, 20), (9, 28), (21, 28)],
    8: [(9, 5), (21, 5), (9, 13), (21, 13), (9, 21), (21, 21), (9, 29), (21, 29)],
    9: [(8, 7), (15, 7), (22, 7), (8, 17), (15, 17), (22, 17), (8, 27), (15, 27), (22, 27)],
}
RED, GREEN, BLUE, DARK = "#c0262d", "#1d7a3a", "#1f4e9c", "#1d232b"
HONOR_FACES = {  # character, colour
    27: ("東", BLUE), 28: ("南", BLUE), 29: ("西", BLUE), 30: ("北", BLUE), 31: ("中", RED), 32: ("發", GREEN),
}


def _pin_colour(rank: int, i: int) -> str:
    if rank == 1 or (rank in (5, 9) and i == len(PIPS[rank]) // 2):
        return RED
    return (BLUE, GREEN)[i % 2]


def _pins(rank: int) -> str:
    r = {1: 8.5, 2: 6, 3: 5, 4: 5}.get(rank, 3.6)
    out = []
    for i, (x, y) in enumerate(PIPS[rank]):
        colour = _pin_colour(rank, i)
        out.append(f'<circle cx="{x}" cy="{y}" r="{r}" fill="{colour}"/>'
                   f'<circle cx="{x}" cy="{y}" r="{r * 0.45:.2f}" fill="#fffdf6"/>')
    return "".join(out)


def _sticks(rank: int) -> str:
    if rank == 1:  # 幺鸡: one tall stick
        return (f'<rect x="12" y="4" width="6" height="26" rx="3" fill="{GREEN}"/>'
                f'<rect x="12" y="15" width="6" height="3" fill="{RED}"/>')
    h = 10 if rank <= 4 else 7
    out = []
    for i, (x, y) in enumerate(PIPS[rank]):
        red = (rank in (5, 9) and i == len(PIPS[rank]) // 2) or (rank == 7 and i < 3)
        colour = RED if red else GREEN
        out.append(f'<rect x="{x - 1.6:.1f}" y="{y - h / 2:.1f}" width="3.2" height="{h}" rx="1.5" fill="{colour}"/>'
                   f'<rect x="{x - 1.6:.1f}" y="{y - 0.5:.1f}" width="3.2" height="1" fill="#fffdf6"/>')
    return "".join(out)


def _characters(rank: int) -> str:
    numeral = "一二三四五六七八九"[rank - 1]
    return (f'<text x="15" y="15" font-size="13" fill="{DARK}" {_CJK} text-anchor="middle">{numeral}</text>'
            f'<text x="15" y="31" font-size="13" fill="{RED}" {_CJK} text-anchor="middle">萬</text>')


def _face(t: int) -> str:
    if t < 9:
        return _characters(T.rank_of(t))
    if t < 18:
        return _pins(T.rank_of(t))
    if t < 27:
        return _sticks(T.rank_of(t))
    if t == 33:  # 白: an empty frame
        return f'<rect x="7" y="6" width="16" height="23" rx="2" fill="none" stroke="{BLUE}" stroke-width="2"/>'
    char, colour = HONOR_FACES[t]
    return f'<text x="15" y="25" font-size="19" fill="{colour}" {_CJK} text-anchor="middle">{char}</text>'


def symbol(t: int) -> str:
    return (f'<symbol id="tile-{t}" viewBox="0 0 {W} {H}">'
            f'<rect x="0.75" y="0.75" width="{W - 1.5}" height="{H - 1.5}" rx="3.5" fill="#fffdf6" '
            f'stroke="#8d8578" stroke-width="1.5"/>'
            f'<rect x="1.5" y="34" width="{W - 3}" height="{H - 35.5}" rx="2" fill="#ece6da"/>'
            f'{_face(t)}'
            f'<text x="15" y="40.3" font-size="6.6" fill="#4b4f55" text-anchor="middle" '
            f'font-family="sans-serif">{T.NAMES[t]}</text>'
            f'</symbol>')


def sprite() -> str:
    """The hidden <svg> holding every face; put it once at the top of the page body."""
    symbols = "".join(symbol(t) for t in range(T.KINDS))
    return (f'<svg class="sprite" aria-hidden="true" width="0" height="0">'
            f'<defs>{symbols}</defs></svg>')


def label(t: int) -> str:
    """'5m 五万', the text a tile stands for."""
    return f"{T.NAMES[t]} {T.CHINESE[t]}"


def tile_html(t: int, css: str = "") -> str:
    """One tile as inline SVG (for tiles drawn on the server; the view's script draws the same)."""
    cls = f"tile {css}".strip()
    return (f'<svg class="{cls}" viewBox="0 0 {W} {H}" role="img" aria-label="{esc(label(t))}">'
            f'<title>{esc(label(t))}</title><use href="#tile-{t}"/></svg>')


def tiles_html(tiles, css: str = "") -> str:
    return "".join(tile_html(t, css) for t in tiles)
