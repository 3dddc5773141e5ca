"""The mechanisms a ruleset composes: each module holds the variants of one part of a rule book.

    walls   the end of the wall: play to the last tile, a reserve, 海底漫游, self-draw-only last draws
    kongs   how a kong is resolved: a tail replacement, or 打筛 (two revealed tiles)
    wilds   wildcards: none, fixed, set by a flipped indicator (正王 neighbours, 鬼 successor)
    ready   ready declarations: 听 with a discard, 报听 at the deal; their conditions and locks
    missed  漏胡: what passing a win costs (nothing, until the next draw, same kind, for good)
    extras  settlement add-ons: kong money, birds (扎鸟), horses (买马)

A part is configured once per ruleset (from its options) and holds no per-hand state: that
lives on the table (referee/state.py). Parts see the table through the replay they are given.
"""
