"""Headless Chromium for the page tests: Playwright driving the system's Chromium.

Playwright cannot download its own browser here, so it is pointed at Debian's `chromium`
(`/usr/bin/chromium`, or $MJREF_CHROMIUM); .ci/run installs it when missing. Without Playwright
or a Chromium the browser tests skip with the reason, except in CI ($CI set), where they fail.

`opened(browser, path)` opens a local page and, when the block ends, fails the test if the page
asked for anything but its own file (every other request is also aborted, so nothing leaves
the machine) or logged a console error or an uncaught exception.
"""
from __future__ import annotations

import os
import shutil
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("MJREF_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
VIEWPORT = {"width": 1280, "height": 900}


def _missing(reason: str):
    """Skip locally; in CI (where .ci/run installs both) a missing browser is a failure, not a skip."""
    if os.environ.get("CI"):
        pytest.fail(f"CI must run the browser tests: {reason}")
    pytest.skip(reason)


# One Playwright and one browser per process: each test module imports the fixture (so pytest makes
# one per module), and Playwright's sync API allows only one instance at a time.
_shared = {"users": 0}


@pytest.fixture(scope="session")
def browser():
    try:
        from playwright import sync_api
    except ImportError:
        _missing("Playwright is not installed (pip install -e '.[test]')")
    if not Path(CHROMIUM).exists():
        _missing(f"no Chromium at {CHROMIUM}: `apt-get install -y chromium` (.ci/run installs it), "
                 "or set MJREF_CHROMIUM")
    if not _shared["users"]:
        _shared["playwright"] = sync_api.sync_playwright().start()
        _shared["browser"] = _shared["playwright"].chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-dev-shm-usage"])
    _shared["users"] += 1
    try:
        yield _shared["browser"]
    finally:
        _shared["users"] -= 1
        if not _shared["users"]:
            _shared.pop("browser").close()
            _shared.pop("playwright").stop()


class Watched:
    """A page and what it did: requests made, console errors and uncaught exceptions."""

    def __init__(self, page, url: str):
        self.page = page
        self.url = url
        self.requests: list[str] = []
        self.problems: list[str] = []

    def foreign_requests(self, allowed: set[str]) -> list[str]:
        return [u for u in self.requests if u.split("#")[0] not in allowed]


@contextmanager
def opened(browser, path: Path, fragment: str = "", allowed: set[Path] = frozenset(), viewport=VIEWPORT):
    """Open file `path` (+ '#fragment'); on exit assert no foreign request and no console error.
    `allowed` are other local files the test itself navigates to."""
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    url = path.resolve().as_uri()
    watched = Watched(page, url)
    allowed_urls = {url} | {p.resolve().as_uri() for p in allowed}

    def route(r):
        if r.request.url.split("#")[0] in allowed_urls:
            r.continue_()
        else:
            r.abort()

    context.route("**/*", route)
    page.on("request", lambda r: watched.requests.append(r.url))
    page.on("console", lambda m: watched.problems.append(f"console {m.type}: {m.text}")
            if m.type in ("error", "assert") else None)
    page.on("pageerror", lambda e: watched.problems.append(f"uncaught: {e}"))
    page.on("dialog", lambda d: (watched.problems.append(f"dialog: {d.message}"), d.dismiss()))
    page.goto(url + (f"#{fragment}" if fragment else ""))
    try:
        yield watched
    finally:
        foreign = watched.foreign_requests(allowed_urls)
        problems = list(watched.problems)
        context.close()
    assert foreign == [], f"the page made network requests: {foreign}"
    assert problems == [], f"the page logged errors: {problems}"
