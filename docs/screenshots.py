"""Rewrite the README's screenshots, docs/view.png and docs/report.png, in headless Chromium.

    .venv/bin/python docs/screenshots.py

Needs Playwright and /usr/bin/chromium (as the tests do) and, for the Chinese text to show, a
CJK font (Debian: fonts-noto-cjk). The view is a Ningxiang sample at its finding (wildcards,
the 正王 indicator, the illegal discard); the report is of the sample archive's audit.
"""
import argparse
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from chromium import CHROMIUM  # noqa: E402
from pipelines.report import write_report  # noqa: E402
from referee import records  # noqa: E402
from referee.render.command import hand_page  # noqa: E402

VIEW_SAMPLE = ROOT / "samples" / "ningxiang" / "wild_discarded.textproto"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--event", default="event-9")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        view = tmp / "view.html"
        view.write_text(hand_page(str(VIEW_SAMPLE.relative_to(ROOT)), records.read_record(VIEW_SAMPLE))[1])
        subprocess.run([sys.executable, "-m", "referee.cli", "audit", "samples/archives", "--out", str(tmp / "audit")],
                       cwd=ROOT, check=True, capture_output=True)
        report, _ = write_report(tmp / "audit", views=3)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM)
            page = browser.new_page(viewport={"width": 1280, "height": 1000}, device_scale_factor=1)
            page.goto(view.as_uri() + f"#{args.event}")
            page.screenshot(path=str(ROOT / "docs" / "view.png"), full_page=True,
                            clip={"x": 0, "y": 0, "width": 1280, "height": 1480})
            page.goto(report.as_uri())
            page.screenshot(path=str(ROOT / "docs" / "report.png"), full_page=True,
                            clip={"x": 0, "y": 0, "width": 1280, "height": 1480})
            browser.close()
    print("wrote docs/view.png and docs/report.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
