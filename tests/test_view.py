"""The dispute view (`mjref view`): every sample renders; the page is self-contained, escaped and
deterministic; and, in headless Chromium, a person stepping through a hand sees the finding's
event, its explanation and both settlements, with no network request and no console error."""
from __future__ import annotations

import argparse
import html
import json
import pathlib
import re

import pytest

from chromium import browser, opened  # noqa: F401  (browser is a fixture)
from referee import archive, records
from referee.builder import HandBuilder
from referee.codes import CODES
from referee.render.command import add_view_command, find_record, hand_page
from referee.render.html import FLAGGED, ILLEGAL, MISSED, classify
from referee.rules import RULESETS
from referee.simulate import simulate
from referee.timeline import timeline
from referee.verdict import Decision, Violation

ROOT = pathlib.Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
ARCHIVE = SAMPLES / "archives" / "samples.tfrecord"
RECORD_FILES = sorted(p for p in SAMPLES.rglob("*")
                      if records.is_text_path(p) or records.is_binary_path(p))


def run_view(*argv) -> int:
    parser = argparse.ArgumentParser(prog="mjref")
    add_view_command(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["view", *map(str, argv)])
    return args.func(args)


def sample(name: str) -> pathlib.Path:
    return SAMPLES / name


def write_view(tmp_path, name: str) -> pathlib.Path:
    out = tmp_path / (pathlib.Path(name).stem + ".html")
    run_view(sample(name), "--out", out)
    return out


def visible_text(page_html: str) -> str:
    """The page's text without tags, scripts and styles (what a reader of the static part sees)."""
    body = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", page_html, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


# -- every sample renders ----------------------------------------------------------------------
@pytest.fixture(scope="module")
def sample_pages(tmp_path_factory):
    """Every sample record file rendered once: {path: (exit status, page file)}."""
    out_dir = tmp_path_factory.mktemp("samples")
    pages = {}
    for path in RECORD_FILES:
        out = out_dir / f"{path.parent.name}-{path.name}.html"
        pages[path] = (run_view(path, "--out", out), out)
    return pages


@pytest.mark.parametrize("path", RECORD_FILES, ids=lambda p: str(p.relative_to(SAMPLES)))
def test_every_sample_file_renders(path, sample_pages):
    status, out = sample_pages[path]
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    try:
        record = records.read_record(path)
    except records.RecordError:
        assert status == 2 and "unreadable" in page
        return
    verdict, frames = timeline(record)
    assert status == {"clean": 0, "violations": 1}.get(verdict.status, 2)
    text = visible_text(page)
    assert record.game_id in text
    for v in verdict.violations:  # each finding with its code, term, gloss and explanation
        assert v.code in text
        if v.code in CODES:
            c = CODES[v.code]
            assert c.term in text and c.gloss in text and c.explanation in text
    if frames:
        assert 'id="page-data"' in page and 'id="slider"' in page
        assert f'max="{len(frames) - 1}"' in page


def test_every_record_in_the_sample_archive_renders():
    frames = [f for f in archive.iter_archive(ARCHIVE) if isinstance(f, archive.Frame)]
    assert len(frames) > 50
    rendered = 0
    for frame in frames:
        try:
            record = records.parse_binary(frame.payload)
        except records.RecordError:
            continue
        verdict, page = hand_page(f"{ARCHIVE}@{frame.offset}", record)
        assert html.escape(record.game_id) in page
        rendered += 1
    assert rendered >= 59


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_every_ruleset_renders(ruleset):
    """Self-play hands of every registered ruleset (so one added later too) render, each frame with
    four seats, and every wild kind and indicator the replay reports is a drawable tile."""
    for record in simulate(ruleset, hands=3, seed=13):
        verdict, frames = timeline(record)
        assert frames and verdict.status == "clean"
        _, page = hand_page("simulated", record)
        data = json.loads(re.search(r'id="page-data">(.*?)</script>', page, re.S).group(1))
        assert len(data["frames"]) == len(frames)
        for f in data["frames"]:
            assert len(f["s"]) == 4
            assert all(0 <= t < 34 for t in f["wd"] + ([f["ind"]] if f["ind"] is not None else []))


# -- the page is self-contained, deterministic and escaped ----------------------------------------
def test_the_page_is_self_contained_and_deterministic(tmp_path):
    a = write_view(tmp_path, "ningxiang/bird_mismapped.textproto").read_bytes()
    b = tmp_path / "again.html"
    run_view(sample("ningxiang/bird_mismapped.textproto"), "--out", b)
    assert a == b.read_bytes()
    page = a.decode()
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    # Nothing to fetch: no external URL but the SVG namespace the script names, no src attributes,
    # no CSS url() or @import, no link elements.
    assert set(re.findall(r"https?://[^\s\"'<>)]+", page)) <= {"http://www.w3.org/2000/svg"}
    assert not re.search(r"\ssrc\s*=|url\(|@import|<link\b|<iframe\b|<img\b", page)


def hostile_record():
    evil = '</script><script>alert(1)</script><img src=x onerror="alert(2)">&amp;'
    b = HandBuilder(evil, seed=3)
    b.deal("147m147p147sESWNC", "123m456m789m123p5p", "369m369p369sESWN", "147m258p369sECFP")
    b.discard(0, "C").draw(1, "5p").win(1, "self", "5p")
    record = b.build()
    record.players[2].name = evil
    record.platform = evil
    record.claimed.patterns.add(seat=1, name=evil, value=1)
    return record, evil


def test_record_text_is_escaped():
    record, evil = hostile_record()
    _, page = hand_page(evil, record)
    assert evil not in page
    assert "<img" not in page and "alert(1)</script>" not in page
    assert html.escape(evil) in page  # shown, as text
    data = re.search(r'<script type="application/json" id="page-data">(.*?)</script>', page, re.S).group(1)
    assert "<" not in data and ">" not in data


# -- the command --------------------------------------------------------------------------------
def test_view_picks_a_record_in_an_archive(tmp_path, capsys):
    out = tmp_path / "a.html"
    assert run_view(ARCHIVE, "--game", "hb-ready-lock", "--out", out) == 1
    assert "hb-ready-lock" in out.read_text()
    source, record = find_record(str(ARCHIVE), game="hb-ready-lock")
    offset = int(source.rsplit("@", 1)[1])
    for argv in ([ARCHIVE, "--offset", offset], [f"{ARCHIVE}@{offset}"]):
        out2 = tmp_path / "b.html"
        assert run_view(*argv, "--out", out2) == 1
        assert out2.read_text() == out.read_text()
    capsys.readouterr()


@pytest.mark.parametrize("argv, message", [
    ([ARCHIVE], "choose one with --game"),
    ([ARCHIVE, "--game", "no-such-game"], "no record with game_id"),
    ([ARCHIVE, "--offset", "3"], "no valid record starts at byte offset 3"),
    ([SAMPLES / "hebei"], "a directory"),
    ([SAMPLES / "nope.textproto"], "no such file"),
    ([SAMPLES / "hebei/clean_self_draw.textproto", "--game", "x"], "this is one record"),
    ([SAMPLES / "hebei/clean_self_draw.textproto", "--option", "no_such_option=1"], "unknown rule option"),
])
def test_view_usage_errors_are_messages(argv, message, tmp_path, capsys):
    out = tmp_path / "x.html"
    assert run_view(*argv, "--out", out) == 2
    assert message in capsys.readouterr().err
    assert not out.exists()


def test_option_from_the_command_line_is_shown(tmp_path):
    out = tmp_path / "o.html"
    run_view(sample("hebei/clean_self_draw.textproto"), "--option", "hb_cap=5", "--out", out)
    page = out.read_text()
    assert re.search(r"<code>hb_cap</code></td><td>5</td><td>command line</td>", page)


def test_default_out_is_the_game_id(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run_view(sample("hebei/clean_self_draw.textproto")) == 0
    assert (tmp_path / "hb-self-draw.html").exists() or list(tmp_path.glob("*.html"))


def test_decisions_are_classified():
    illegal = Decision(10, 1, "turn", ("discard 8s",), "discard E")
    assert classify(illegal, [])[0] == ILLEGAL
    missed = Decision(1, 1, "claim", ("pass", "win on discard 3p"), "pass", "implied")
    assert classify(missed, []) == (MISSED, [1])
    auto = Violation("AUTO_WIN_MISSED", 1, 1, "auto-play let the win go")
    assert classify(missed, [auto]) == (FLAGGED, [1])


# -- in the browser ---------------------------------------------------------------------------------
def text_of(page, selector: str) -> str:
    return page.locator(selector).inner_text()


def test_stepping_to_the_finding_shows_it(browser, tmp_path):  # noqa: F811
    path = write_view(tmp_path, "hebei/ready_lock_breach.textproto")  # READY_LOCK_BREACH at event 10
    with opened(browser, path) as w:
        page = w.page
        assert text_of(page, "#position") == "the deal 配牌:"
        assert not page.locator("#frame-findings").is_visible()
        page.click("#next")  # event 0
        for _ in range(10):  # events 1..10 by the arrow key
            page.keyboard.press("ArrowRight")
        assert text_of(page, "#position") == "event 10:"
        assert text_of(page, "#event-text") == "seat 1 discards E"
        box = page.locator("#frame-findings")
        assert box.is_visible()
        assert "READY_LOCK_BREACH" in box.inner_text()
        assert CODES["READY_LOCK_BREACH"].explanation in box.inner_text()
        assert page.locator("#seat-1").get_attribute("class") == "seat actor flagged"
        row = page.locator("#decisions tr.illegal")
        assert row.count() == 1 and "discard E" in row.inner_text() and "discard 8s" in row.inner_text()
        assert page.locator("#finding-0").get_attribute("class").endswith("current")
        page.wait_for_function("() => location.hash === '#event-10'")  # the address follows once steps pause
        page.screenshot(path=str(tmp_path / "view-ready-lock-breach.png"), full_page=True)
        page.keyboard.press("Home")
        assert text_of(page, "#position") == "the deal 配牌:"
        page.keyboard.press("n")  # the next finding
        assert text_of(page, "#position") == "event 10:"
        page.keyboard.press("ArrowLeft")
        assert text_of(page, "#position") == "event 9:"
        page.click("#finding-0 button.goto")
        assert text_of(page, "#position") == "event 10:"


def test_settlement_shows_claimed_and_recomputed(browser, tmp_path):  # noqa: F811
    path = write_view(tmp_path, "hebei/settlement_mismatch.textproto")  # claimed -12/12, recomputed -10/10
    with opened(browser, path) as w:
        page = w.page
        page.click("#finding-0 button.goto")  # a finding on the record as a whole: the hand's end
        assert "SETTLEMENT_MISMATCH" in text_of(page, "#frame-findings")
        row = page.locator("table.settlement tr[data-seat='0']")
        assert row.is_visible() and "bad" in row.get_attribute("class")
        assert row.locator("td.claimed").inner_text() == "-12"
        assert row.locator("td.recomputed").inner_text() == "-10"
        assert row.locator("td.diff").inner_text() == "-2"
        seat1 = page.locator("table.settlement tr[data-seat='1']")
        assert seat1.locator("td.claimed").inner_text() == "+12"
        assert seat1.locator("td.recomputed").inner_text() == "+10"
        assert "一条龙 2" in seat1.inner_text()
        assert "seat 0 -> seat 1: 10" in text_of(page, "#settlement")
        page.screenshot(path=str(tmp_path / "view-settlement-mismatch.png"), full_page=True)


def test_wildcards_indicator_and_birds_are_drawn(browser, tmp_path):  # noqa: F811
    path = write_view(tmp_path, "ningxiang/bird_mismapped.textproto")
    with opened(browser, path, fragment="event-11") as w:
        page = w.page
        assert text_of(page, "#position") == "event 11:"
        assert page.locator("#centre .indicator svg[aria-label='7m 七万']").count() == 1
        assert page.locator("#centre .wilds svg.wild").count() == 2  # 6m and 8m
        assert page.locator("#seat-1 .hand svg").count() == 14
        assert page.locator("#decisions tr").count() == 2  # header + seat 1's 自摸
        assert page.locator("#settlement .birds svg").count() == 2


def test_missed_win_is_highlighted(browser, tmp_path):  # noqa: F811
    path = write_view(tmp_path, "hebei/clean_missed_win_note.textproto")
    with opened(browser, path, fragment="event-1") as w:
        row = w.page.locator("#decisions tr.missed")
        assert row.count() == 1
        assert row.locator(".chip.should").inner_text() == "win on discard 3p"
    # The note is at the seat's logged pass (event 1), where the trace notes its decision, not at
    # the discard that opened the window: the note's button leads to the decision it is about.
    with opened(browser, path) as w:
        w.page.click("#finding-0 button.goto")
        assert text_of(w.page, "#position") == "event 1:"
        assert w.page.locator("#decisions tr.missed").count() == 1


def test_the_table_shows_what_the_record_holds_at_each_event(browser, tmp_path):  # noqa: F811
    """The arbiter review's table states: a claim still open at its own event is listed as pending; a
    robbed kong's tile is with its winner; 打筛 tiles lie in the centre; a 听 seat's 宝 is wild for it."""
    with opened(browser, write_view(tmp_path, "hebei/claim_priority.textproto"), fragment="event-2") as w:
        centre = text_of(w.page, "#centre")  # seat 3's 碰 and seat 1's 胡 wait for the window to close
        assert "seat 3 declared pon 3p: it is settled when the window closes" in centre
        assert "seat 1 declared win on discard 3p" in centre
        w.page.keyboard.press("ArrowLeft")  # event 1: the 胡 the lower 碰 took the tile from
        row = w.page.locator("#decisions tr.overridden")
        assert row.count() == 1 and "overridden by a lower claim" in row.inner_text()
    with opened(browser, write_view(tmp_path, "hebei/clean_robbed_kong.textproto"), fragment="event-11") as w:
        won = w.page.locator("#seat-1 .won svg")
        assert won.count() == 1 and won.get_attribute("aria-label").startswith("3p")
    with opened(browser, write_view(tmp_path, "ningxiang/clean_kong_flower_twice.textproto"),
                fragment="event-4") as w:
        labels = [n.get_attribute("aria-label") for n in w.page.locator("#centre .revealed svg").all()]
        assert [x.split()[0] for x in labels] == ["2s", "5s"]
    with opened(browser, write_view(tmp_path, "harbin/clean_mobao.textproto"), fragment="event-11") as w:
        assert "摸宝" in text_of(w.page, "#centre") and w.page.locator("#seat-1 svg.wild").count() >= 1


def test_n_and_p_work_after_the_slider_is_used(browser, tmp_path):  # noqa: F811
    with opened(browser, write_view(tmp_path, "hebei/ready_lock_breach.textproto")) as w:
        page = w.page
        page.locator("#slider").focus()
        page.keyboard.press("n")
        assert text_of(page, "#position") == "event 10:"


def test_notes_are_not_badged_as_violations_and_an_unknown_option_is_listed(tmp_path):
    page = write_view(tmp_path, "hebei/clean_missed_win_note.textproto").read_text()
    assert '<span class="badge info">MISSED_WIN</span>' in page and "badge error" not in page
    run_view(sample("malformed/unknown_option.textproto"), "--out", tmp_path / "unknown.html")
    page = (tmp_path / "unknown.html").read_text()
    assert re.search(r"<code>hb_free_lunch</code></td><td>[^<]*</td><td>record</td><td>no such option", page)
    assert 'class="ok-text"' not in page  # not judged: no green "nothing wrong"


def test_an_unreadable_frame_named_by_offset_gets_a_page_saying_why(tmp_path):
    spans = [i for i in archive.iter_archive(ARCHIVE) if isinstance(i, archive.CorruptSpan)]
    crc = next(s for s in spans if s.reason == archive.PAYLOAD_CRC)
    assert run_view(f"{ARCHIVE}@{crc.offset}", "--out", tmp_path / "bad.html") == 2
    assert f"corrupt span of {crc.length} bytes: payload crc mismatch" in (tmp_path / "bad.html").read_text()


def test_hostile_record_runs_no_script(browser, tmp_path):  # noqa: F811
    record, evil = hostile_record()
    _, page_html = hand_page("hostile", record)
    path = tmp_path / "hostile.html"
    path.write_text(page_html, encoding="utf-8")
    with opened(browser, path) as w:  # a dialog or an image request would fail the test
        assert evil in w.page.locator("header h1").inner_text()
        assert w.page.locator("img").count() == 0


def test_print_layout(browser, tmp_path):  # noqa: F811
    path = write_view(tmp_path, "hebei/claim_priority.textproto")
    with opened(browser, path, fragment="event-2") as w:
        page = w.page
        page.emulate_media(media="print")
        assert not page.locator(".controls").is_visible()
        assert not page.locator("#events").is_visible()
        assert page.locator("#seat-3").is_visible() and page.locator("#settlement").is_visible()
        assert "CLAIM_PRIORITY" in text_of(page, "#frame-findings")
        page.pdf(path=str(tmp_path / "view.pdf"), format="A4")
    assert (tmp_path / "view.pdf").stat().st_size > 10_000


STEP_THROUGH = """() => {
  const slider = document.getElementById("slider");
  if (!slider) return null;
  const last = Number(slider.max);
  const key = (k) => document.dispatchEvent(new KeyboardEvent("keydown", {key: k, bubbles: true}));
  key("Home");
  for (let i = 0; i < last; i++) key("ArrowRight");
  const atEnd = slider.value === String(last);
  for (let i = 0; i < last; i++) key("ArrowLeft");
  return [atEnd, slider.value === "0", last];
}"""


def test_every_sample_page_steps_cleanly_through_every_event(browser, sample_pages):  # noqa: F811
    """Each sample's page loads and is stepped through every event, forward and back, in one page
    of one browser context: no request but the page's own file, no console error."""
    context = browser.new_context()
    page = context.new_page()
    requests, problems = [], []
    page.on("request", lambda r: requests.append(r.url))
    page.on("console", lambda m: problems.append(f"{m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(f"uncaught: {e}"))
    try:
        for path, (_, out) in sample_pages.items():
            url = out.resolve().as_uri()
            requests.clear()
            page.goto(url)
            steps = page.evaluate(STEP_THROUGH)
            if steps is None:  # no table: the verdict alone
                assert page.locator("#status").is_visible(), path
            else:
                assert steps[:2] == [True, True], (path, steps)
            assert requests == [url], (path, requests)
            assert problems == [], (path, problems)
    finally:
        context.close()


def test_a_narrow_window_does_not_scroll_sideways(browser, tmp_path):  # noqa: F811
    """At 380 px the page fits the window; a wide table (settlement, decisions) scrolls in its own box."""
    path = write_view(tmp_path, "hebei/ready_lock_breach.textproto")
    with opened(browser, path, fragment="end", viewport={"width": 380, "height": 800}) as w:
        width, scroll = w.page.evaluate("() => [document.documentElement.clientWidth, "
                                        "document.documentElement.scrollWidth]")
        assert scroll <= width
