"""The dispute view of one hand: a self-contained HTML page made from referee.timeline.

    page = render_hand(source, record, verdict, frames)

The page has the verdict and every finding (code, Chinese term, English gloss, explanation,
linked to its event), the table at any event (stepped with buttons, the arrow keys, the slider,
the event list or a finding's link), each seat's legal actions at every decision point with the
one it took, and the settlement, claimed against recomputed.

What is drawn comes only from the timeline's frames and the verdict (and the record's own
header and claimed result), never from a variant's internals, so a ruleset added later renders
without a change here. The server writes everything but the table; the table at the current
event is drawn by the inline script (script.py) from the frames embedded as JSON, which keeps
a 140-event hand one small page.
"""
from __future__ import annotations

from collections import Counter

from referee import REFEREE_VERSION
from referee import actions as A
from referee import tiles as T
from referee.codes import CODES
from referee.proto import record_pb2 as pb
from referee.render import tiles as tiles_svg
from referee.render.page import BASE_CSS, document, esc, json_for_script
from referee.render.script import VIEW_JS
from referee.render.style import VIEW_CSS
from referee.timeline import Frame
from referee.verdict import CLEAN, ERROR, TOOK_EFFECT, UNREPLAYABLE, DECLARED, OVERRIDDEN, Verdict, Violation

UNREADABLE = "unreadable"  # the page's own status for an input that is no record (not a verdict status)
STATUS_TEXT = {CLEAN: "clean 无违规", "violations": "violations 违规", UNREPLAYABLE: "unreplayable 无法复盘",
               UNREADABLE: "unreadable 无法读取"}

# How a seat's decision at an event is shown (the class the page styles, and its words).
OK, ILLEGAL, MISSED, OUTRANKED, OVERRODE, IMPLIED, FLAGGED = ("ok", "illegal", "missed", "outranked", "overridden",
                                                            "implied", "flagged")
DECISION_WORDS = {
    OK: "took effect",
    ILLEGAL: "illegal: not among the legal actions 非法",
    MISSED: "passed a win 漏胡",
    OUTRANKED: "declared, outranked by a higher or nearer claim",
    OVERRODE: "declared, overridden by a lower claim (against priority)",
    IMPLIED: "implied by the next event",
    FLAGGED: "a finding at this event",
}


# -- the frames as data for the page's script --------------------------------------------------
def finding_frames(verdict: Verdict, frames: list[Frame]) -> list[int | None]:
    """For each violation, the frame that shows it: its event's frame (or the last one before it,
    if the referee stopped earlier); for the record as a whole, the last frame (the hand's end)."""
    by_event = {f.event_index: k for k, f in enumerate(frames)}
    out: list[int | None] = []
    for v in verdict.violations:
        if not frames:
            out.append(None)
        elif v.event_index is None:
            out.append(len(frames) - 1)
        elif v.event_index in by_event:
            out.append(by_event[v.event_index])
        else:
            earlier = [k for k, f in enumerate(frames) if f.event_index is not None and f.event_index < v.event_index]
            out.append(earlier[-1] if earlier else 0)
    return out


def classify(d, findings: list[Violation]) -> tuple[str, list[int]]:
    """(how the decision is shown, the legal actions to highlight as the ones it should have taken)."""
    legal = list(d.legal)
    wins = [i for i, a in enumerate(legal) if a.startswith("win")]
    mine = [f for f in findings if f.seat == d.seat and f.severity == ERROR]
    passed = wins if wins and not d.taken.startswith("win") else []
    if d.taken not in legal:
        return ILLEGAL, []
    if mine:  # an error finding for this seat here (e.g. auto-play let a win go): red, the win outlined
        return FLAGGED, passed
    if passed:
        return MISSED, passed
    if d.effect == DECLARED:
        return OUTRANKED, []
    if d.effect == OVERRIDDEN:
        return OVERRODE, []
    if d.effect != TOOK_EFFECT:
        return IMPLIED, []
    return OK, []


def _decision_rows(frame: Frame, findings: list[Violation]) -> list[list]:
    rows = []
    for d in frame.decisions:
        status, highlight = classify(d, findings)
        rows.append([d.seat, d.window, list(d.legal), d.taken, d.effect, status, highlight])
    # A finding by a seat with no logged decision here (an event out of turn, a false win, an
    # action the referee refused to trace): show the event itself as that seat's illegal choice.
    traced = {d.seat for d in frame.decisions}
    for f in findings:
        if f.seat is not None and f.seat not in traced and f.severity == ERROR:
            taken = frame.description if frame.seat == f.seat else "(see the finding)"
            rows.append([f.seat, "—", [], taken, "", ILLEGAL, []])
            traced.add(f.seat)
    return rows


def _new_tiles(before, after) -> list[int]:
    """Tiles in `after` and not in `before` (a multiset difference), e.g. the tile just drawn."""
    return sorted((Counter(after) - Counter(before)).elements())


def frame_data(frames: list[Frame], verdict: Verdict, targets: list[int | None]) -> list[dict]:
    """The frames as compact JSON-able dicts (see script.py for the keys)."""
    at_frame: dict[int, list[int]] = {}
    for i, k in enumerate(targets):
        if k is not None:
            at_frame.setdefault(k, []).append(i)
    out = []
    previous = None
    for k, f in enumerate(frames):
        findings = [verdict.violations[i] for i in at_frame.get(k, [])
                    if verdict.violations[i].event_index == f.event_index]
        seats = []
        for s in f.seats:
            before = previous.seats[s.seat] if previous else None
            seats.append({
                "w": s.wind, "dl": s.dealer, "h": list(s.hand),
                "m": [[m.label, list(m.tiles), m.from_seat] for m in s.melds],
                "r": list(s.river), "rd": s.ready, "fl": list(s.flags),
                "nw": _new_tiles(before.hand, s.hand) if before else [],
                "ld": bool(before and len(s.river) > len(before.river)),
                "wo": list(s.won), "sw": list(s.wilds),
            })
        out.append({
            "e": f.event_index, "d": f.description, "a": f.seat, "ph": f.phase,
            "wr": f.wall_remaining, "lv": f.live, "ind": f.indicator, "wd": list(f.wilds),
            "rv": list(f.revealed), "pd": list(f.pending),
            "s": seats, "dc": _decision_rows(f, findings),
            "fi": at_frame.get(k, []),
        })
        previous = f
    return out


# -- the server-written sections ---------------------------------------------------------------
def _seat_label(seat: int | None, record: pb.GameRecord | None) -> str:
    if seat is None:
        return "table"
    name = ""
    if record is not None and seat < len(record.players):
        p = record.players[seat]
        name = p.name or p.player_id
    return f"seat {seat}" + (f" ({name})" if name else "")


def _code_parts(code: str) -> tuple[str, str, str]:
    c = CODES.get(code)
    return (c.term, c.gloss, c.explanation) if c else ("", code, "")


def findings_section(verdict: Verdict, record, targets: list[int | None]) -> str:
    if not verdict.violations:
        if verdict.status == CLEAN:
            text, cls = "The referee found nothing wrong with this hand. 无违规。", "ok-text"
        else:  # not judged: the reason above says why
            text, cls = "No findings: the hand could not be judged. 未能判定。", "muted"
        return f'<section id="findings"><h2>Findings 违规</h2><p class="{cls}">{esc(text)}</p></section>'
    items = []
    for i, (v, k) in enumerate(zip(verdict.violations, targets)):
        term, gloss, explanation = _code_parts(v.code)
        where = f"event {v.event_index}" if v.event_index is not None else "the record as a whole 整局"
        kind = "error" if v.severity == ERROR else "info"
        tag = "violation 违规" if v.severity == ERROR else "note 提示"
        go = ""
        if k is not None:
            what = f"event {v.event_index}" if v.event_index is not None else "the end of the hand"
            go = (f'<button type="button" class="goto no-print" data-goto="{k}">show {esc(what)} →</button>')
        if v.event_index is None and (verdict.recomputed is not None or verdict.claimed is not None):
            go += ' <a class="no-print" href="#settlement">settlement ↓</a>'
        items.append(
            f'<li class="finding {kind}" id="finding-{i}" data-event="{esc(v.event_index)}">'
            f'<div class="finding-head"><span class="badge {kind}">{esc(tag)}</span> '
            f'<code class="code">{esc(v.code)}</code> <span class="zh term">{esc(term)}</span> '
            f'<span class="gloss">{esc(gloss)}</span></div>'
            f'<div class="where">{esc(where)} · {esc(_seat_label(v.seat, record))} {go}</div>'
            f'<div class="explanation">{esc(explanation)}</div>'
            f'<div class="message">{esc(v.message)}</div></li>')
    errors = len(verdict.errors)
    notes = len(verdict.violations) - errors
    head = f"{errors} violation{'s' if errors != 1 else ''}" + (f", {notes} note{'s' if notes != 1 else ''}"
                                                                 if notes else "")
    return (f'<section id="findings"><h2>Findings 违规 <span class="muted">({esc(head)})</span></h2>'
            f'<ol class="findings">{"".join(items)}</ol></section>')


def match_section(verdict: Verdict) -> str:
    """The findings across the hand's match that concern it (known when the page was made from an
    archive holding the match): apart from the hand's own, whose verdict they leave as it is."""
    if not verdict.match_findings:
        return ""
    items = []
    for v in verdict.match_findings:
        term, gloss, explanation = _code_parts(v.code)
        kind = "error" if v.severity == ERROR else "info"
        items.append(
            f'<li class="finding {kind}"><div class="finding-head"><span class="badge {kind}">match 整场</span> '
            f'<code class="code">{esc(v.code)}</code> <span class="zh term">{esc(term)}</span> '
            f'<span class="gloss">{esc(gloss)}</span></div>'
            f'<div class="explanation">{esc(explanation)}</div><div class="message">{esc(v.message)}</div></li>')
    return (f'<section id="match-findings"><h2>Across the match 整场 <span class="muted">'
            f'({len(items)} finding{"s" if len(items) != 1 else ""} about this hand\'s place in its match; the '
            f'verdict above is the hand\'s own)</span></h2><ol class="findings">{"".join(items)}</ol></section>')


def _patterns_text(patterns) -> str:
    return ", ".join(f"{name} {value}" for name, value in patterns) or "—"


def _money(x) -> str:
    return "—" if x is None else f"{x:+,}" if x else "0"


def settlement_section(verdict: Verdict, record: pb.GameRecord | None) -> str:
    claimed = list(verdict.claimed) if verdict.claimed is not None else None
    rec = verdict.recomputed
    if claimed is None and rec is None:
        return ('<section id="settlement"><h2>Settlement 结算</h2>'
                '<p class="muted">Nothing was claimed and the hand was not settled.</p></section>')
    claimed_kong = list(record.claimed.kong_payments) if record is not None and record.HasField("claimed") else []
    claimed_patterns: dict[int, list] = {}
    if record is not None:
        for p in record.claimed.patterns:
            claimed_patterns.setdefault(p.seat, []).append((p.name, p.value))
    rec_patterns: dict[int, list] = {}
    for p in rec.patterns if rec else ():
        rec_patterns.setdefault(p.seat, []).append((p.name, p.value))
    seats = max(4, len(claimed or ()), len(rec.payments) if rec else 0)
    rows = []
    for seat in range(seats):
        c = claimed[seat] if claimed is not None and seat < len(claimed) else None
        r = rec.payments[seat] if rec is not None and seat < len(rec.payments) else None
        diff = c - r if c is not None and r is not None else None
        bad = diff not in (None, 0)
        ck = claimed_kong[seat] if seat < len(claimed_kong) else None
        rk = rec.kong_payments[seat] if rec is not None and seat < len(rec.kong_payments) else None
        cp, rp = claimed_patterns.get(seat, []), rec_patterns.get(seat, [])
        pattern_bad = bool(claimed_patterns) and rec is not None and sorted(cp) != sorted(rp)
        kong_bad = ck is not None and rk is not None and ck != rk
        rows.append(
            f'<tr class="{"bad" if bad else ""}" data-seat="{seat}">'
            f'<th>{esc(_seat_label(seat, record))}{" ★" if seat in verdict.winners else ""}</th>'
            f'<td class="num claimed">{esc(_money(c))}</td><td class="num recomputed">{esc(_money(r))}</td>'
            f'<td class="num diff">{esc(_money(diff)) if diff else ("0" if diff == 0 else "—")}</td>'
            f'<td class="num {"bad" if kong_bad else ""}">{esc(_money(ck)) if claimed_kong else "—"}</td>'
            f'<td class="num">{esc(_money(rk))}</td>'
            f'<td class="{"warn" if pattern_bad else ""}">{esc(_patterns_text(cp)) if claimed_patterns else "—"}</td>'
            f'<td>{esc(_patterns_text(rp))}</td></tr>')
    status = ""
    if verdict.mismatch:
        status = '<p class="bad callout">The platform paid differently from the recomputed settlement. 结算不符。</p>'
    elif claimed is not None and rec is not None:
        status = '<p class="ok callout">The claimed payments match the recomputed settlement. 结算一致。</p>'
    elif rec is None:
        status = ('<p class="warn callout">The referee did not settle this hand (it stopped judging it, or '
                  'the hand did not end): only the claimed payments are shown.</p>')
    else:
        status = '<p class="warn callout">The record claims no payments: only the recomputed ones are shown.</p>'
    table = ('<table class="settlement"><thead><tr><th>seat 座位</th><th class="num">claimed 平台</th>'
             '<th class="num">recomputed 复算</th><th class="num">difference 差额</th>'
             '<th class="num">kong, claimed 杠分</th><th class="num">kong, recomputed</th>'
             '<th>patterns, claimed 番种</th><th>patterns, recomputed</th></tr></thead>'
             f'<tbody>{"".join(rows)}</tbody></table>')
    extra = []
    claimed_winners = list(record.claimed.winners) if record is not None and record.HasField("claimed") else None
    winners = ", ".join(f"seat {s}" for s in verdict.winners) or "none"
    line = f"Winners 胡家: {winners} (from the events)"
    if claimed_winners is not None:
        cw = ", ".join(f"seat {s}" for s in claimed_winners) or "none"
        cls = "bad" if rec is not None and sorted(claimed_winners) != sorted(verdict.winners) else ""
        line += f'; <span class="{cls}">claimed: {esc(cw)}</span>'
    if record is not None and record.claimed.has_next_dealer:
        line += f"; next dealer claimed 下庄: seat {record.claimed.next_dealer}"
    extra.append(f"<p>{line}</p>")
    birds = [T.from_proto(c) for e in (record.events if record is not None else ())
             if e.WhichOneof("kind") == "birds" for c in e.birds.tiles if _is_tile(c)]
    if birds:
        extra.append(f'<p class="birds">Birds 鸟牌: {tiles_svg.tiles_html(birds, "small")} '
                     '<span class="muted">(their effect is in the lines below)</span></p>')
    if rec is not None and rec.lines:
        items = "".join(f"<li>{esc(line)}</li>" for line in rec.lines)
        extra.append(f'<h3>Who pays whom, recomputed 复算明细</h3><ol class="lines">{items}</ol>')
    return (f'<section id="settlement"><h2>Settlement 结算</h2>{status}{table}{"".join(extra)}'
            '<p class="muted small">Amounts are each seat\'s net for the hand (positive receives), kong money '
            'included, after the ruleset\'s multipliers, birds and caps (see the rule options at the top).</p></section>')


def _is_tile(code: int) -> bool:
    try:
        T.from_proto(code)
        return True
    except ValueError:
        return False


def _options_rows(record: pb.GameRecord | None, verdict: Verdict, overrides) -> str:
    from referee.rules import RULESETS, RulesetError, get_ruleset

    name = verdict.ruleset or (record.ruleset.name if record is not None else "")
    own = dict(record.ruleset.options) if record is not None else {}
    cls = RULESETS.get(name)
    rows = []
    if cls is not None:
        try:
            rules = get_ruleset(name, own, overrides)
        except RulesetError:
            rules = None
        for o in cls.options:
            value = rules[o.name] if rules is not None else own.get(o.name, o.default)
            changed = value != o.default
            source = "command line" if o.name in (overrides or {}) else "record" if o.name in own else "default"
            rows.append(f'<tr class="{"warn" if changed else ""}"><td><code>{esc(o.name)}</code></td>'
                        f'<td>{esc(value)}</td><td>{esc(source)}</td><td>{esc(o.help)}'
                        f'{" [" + esc(o.spec) + "]" if o.spec else ""}</td></tr>')
        known = {o.name for o in cls.options}
        for key, value in sorted(own.items()):  # an option the rule book does not have (unreplayable)
            if key not in known:
                rows.append(f'<tr class="bad"><td><code>{esc(key)}</code></td><td>{esc(value)}</td><td>record</td>'
                            '<td>no such option in this rule book</td></tr>')
    else:
        for key, value in sorted({**own, **dict(overrides or {})}.items()):
            rows.append(f"<tr><td><code>{esc(key)}</code></td><td>{esc(value)}</td><td></td><td></td></tr>")
    if not rows:
        return ""
    return ('<details class="options"><summary>Rule options in effect 规则选项</summary><table>'
            '<thead><tr><th>option</th><th>value</th><th>from</th><th>meaning</th></tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table></details>')


def header_section(source: str, record: pb.GameRecord | None, verdict: Verdict, frames: list[Frame],
                   overrides=None) -> str:
    from referee.rules import RULESETS

    cls = RULESETS.get(verdict.ruleset)
    title = f"{cls.title}" if cls else (verdict.ruleset or "unknown ruleset")
    status = verdict.status
    meta = [f"ruleset 规则: {esc(title)} <code>{esc(verdict.ruleset)}</code>" if verdict.ruleset else
            "ruleset 规则: unknown"]
    if record is not None:
        if record.match_id:
            meta.append(f"match {esc(record.match_id)} · hand {record.hand_index}")
        if record.platform:
            meta.append(f"platform {esc(record.platform)}")
        meta.append(f"dealer 庄家: seat {record.dealer}")
        meta.append(f"events 事件: {len(record.events)}")
        if record.HasField("fault") and record.fault.kind:
            meta.append(f'<span class="warn">injected fault: {esc(record.fault.kind)}</span>')
    if frames:
        meta.append(f"wall 牌墙 after the deal: {frames[0].wall_remaining} tiles, {frames[0].live} live "
                    f"(before any indicator flip)")
    reason = ""
    if verdict.reason:
        reason = f'<p class="callout warn reason">{esc(verdict.reason)}</p>'
    if not frames and status not in (UNREPLAYABLE, UNREADABLE):
        reason += ('<p class="callout warn">The referee could not lay out the table after the deal, so only '
                   'the verdict is shown.</p>')
    errors = len(verdict.errors)
    summary = STATUS_TEXT.get(status, status)
    if status == "violations":
        summary = f"{errors} violation{'s' if errors != 1 else ''} 违规"
    winners = ", ".join(f"seat {s}" for s in verdict.winners) or "no winner"
    return (f'<header><h1>Hand <code class="game-id">{esc(verdict.game_id or "?")}</code> '
            f'<span class="badge {esc(status)}" id="status">{esc(summary)}</span></h1>'
            f'<p class="muted source">{esc(source)}</p>'
            f'<ul class="meta">{"".join(f"<li>{m}</li>" for m in meta)}'
            f'<li>winners 胡家: {esc(winners)}</li></ul>{reason}'
            f'{_options_rows(record, verdict, overrides)}</header>')


def table_section(frames: list[Frame], verdict: Verdict) -> str:
    if not frames:
        return ""
    seats = "".join(
        f'<div class="seat" id="seat-{s}" data-seat="{s}"><div class="seat-head"></div>'
        f'<div class="hand-row"><div class="hand"></div><div class="melds"></div></div>'
        f'<div class="river-label muted">river 牌河</div><div class="river"></div></div>'
        for s in range(4))
    has_findings = any(k is not None for k in finding_frames(verdict, frames))
    finding_buttons = ('<button type="button" id="prev-finding" title="previous finding (P)">◀ finding</button>'
                       '<button type="button" id="next-finding" title="next finding (N)">finding ▶</button>'
                       if has_findings else "")
    return f"""<section id="table"><h2>The table 牌桌</h2>
<div class="controls no-print" role="toolbar" aria-label="step through the hand">
<button type="button" id="first" title="the deal (Home)">« deal</button>
<button type="button" id="prev" title="previous event (←)">◀ prev</button>
<input type="range" id="slider" min="0" max="{len(frames) - 1}" value="0" aria-label="event">
<button type="button" id="next" title="next event (→)">next ▶</button>
<button type="button" id="last" title="the last event (End)">end »</button>
{finding_buttons}
<span class="keys muted">keys: ← → Home End{" · N P findings" if has_findings else ""}</span>
</div>
<div class="now" aria-live="polite"><span id="position"></span> <strong id="event-text"></strong> <span id="phase" class="muted"></span></div>
<div id="frame-findings" class="frame-findings"></div>
<div class="board">{seats}<div class="centre" id="centre"></div></div>
<h3>Decisions at this event 决策 <span class="muted small">(each seat's legal actions, from the referee's
own derivation, and the one it took)</span></h3>
<div id="decisions"></div>
</section>"""


def log_section(frames: list[Frame], verdict: Verdict, targets: list[int | None]) -> str:
    if not frames:
        return ""
    marks: dict[int, list[tuple[str, str]]] = {}
    for v, k in zip(verdict.violations, targets):
        if k is not None and (v.event_index == frames[k].event_index):
            marks.setdefault(k, []).append((v.code, "error" if v.severity == ERROR else "info"))
    items = []
    for k, f in enumerate(frames):
        where = "deal 配牌" if f.event_index is None else f"{f.event_index}"
        flag = "".join(f' <span class="badge {kind}">{esc(c)}</span>' for c, kind in marks.get(k, []))
        items.append(f'<li><button type="button" class="goto" data-goto="{k}" id="log-{k}">'
                     f'<span class="idx">{esc(where)}</span> {esc(f.description)}</button>{flag}</li>')
    return (f'<section id="events" class="no-print"><h2>Events 事件 <span class="muted">'
            f'({len(frames) - 1} after the deal)</span></h2><ol class="log">{"".join(items)}</ol></section>')


def page_data(record: pb.GameRecord | None, verdict: Verdict, frames: list[Frame],
              targets: list[int | None]) -> dict:
    players = []
    for seat in range(4):
        players.append(_seat_label(seat, record))
    return {
        "names": list(T.NAMES), "chinese": list(T.CHINESE), "players": players,
        "frames": frame_data(frames, verdict, targets),
        "findings": [{"code": v.code, "term": _code_parts(v.code)[0], "gloss": _code_parts(v.code)[1],
                      "explanation": _code_parts(v.code)[2], "message": v.message, "seat": v.seat,
                      "event": v.event_index, "severity": v.severity, "frame": k}
                     for v, k in zip(verdict.violations, targets)],
        "words": DECISION_WORDS,
    }


def render_hand(source: str, record: pb.GameRecord | None, verdict: Verdict, frames: list[Frame],
                overrides=None) -> str:
    """The whole page for one hand. `record` may be None (unreadable input: verdict only)."""
    targets = finding_frames(verdict, frames)
    body = "\n".join([
        tiles_svg.sprite(),
        '<main>',
        header_section(source, record, verdict, frames, overrides),
        findings_section(verdict, record, targets),
        match_section(verdict),
        table_section(frames, verdict),
        settlement_section(verdict, record) if verdict.status not in (UNREPLAYABLE, UNREADABLE) else "",
        log_section(frames, verdict, targets),
        f'<footer class="muted small">mjref {esc(REFEREE_VERSION)} dispute view · 裁判复盘</footer>',
        '</main>',
    ])
    title = f"mjref view: {verdict.game_id or source}"
    if not frames:
        return document(title, body, BASE_CSS + VIEW_CSS)
    return document(title, body, BASE_CSS + VIEW_CSS, VIEW_JS,
                    json_for_script(page_data(record, verdict, frames, targets)))


def render_unreadable(source: str, reason: str) -> str:
    """The page for an input that is no record at all."""
    return render_hand(source, None, Verdict("", "", UNREADABLE, reason=reason), [])
