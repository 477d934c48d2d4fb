"""Screenshots of every dashboard page at a laptop's size (1366 × 900), for a person to look at: is
anything cut off, overlapping or unreadable? Not committed: they go to screenshots/ (gitignored).

    .venv/bin/python scripts/screenshots.py                      # every page, on a fresh lab
    .venv/bin/python scripts/screenshots.py --catalog lab.duckdb --pages play,lessons

A fresh lab (the default) is a temporary user folder whose first start plays the default runs of
every game (IMPERIAL_LAB_DEFAULT_GAMES games per cell, 20 here unless set). Each page is opened in a
fresh tab of Debian's chromium and shot whole: the window grows to the page's height, since
Streamlit scrolls its main area inside the window. Some pages are also shot after a few clicks
(a game started on the Play pages, an answer checked in a lesson), named ``PAGE-STATE.png``.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Page, expect  # noqa: E402

from imperial_lab.dashboard.pages import all_pages, sections  # noqa: E402
from tests.browser_support import chromium, dashboard_server, idle  # noqa: E402

SCREEN = {"width": 1366, "height": 900}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--catalog", help="the catalogue to show (default: a fresh lab in a temporary folder)")
    parser.add_argument("--pages", help="comma-separated page URLs (explorer, imperia_play, ...); default: every page")
    parser.add_argument("--out", default=str(ROOT / "screenshots"), help="the folder of the images")
    args = parser.parse_args()
    urls = [page.url_path for pages in sections().values() for page in pages]
    wanted = args.pages.split(",") if args.pages else urls
    unknown = sorted(set(wanted) - set(urls))
    if unknown:
        parser.error(f"unknown pages {unknown} (known: {', '.join(urls)})")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="imperial-screens-") as home:
        os.environ.setdefault("IMPERIAL_LAB_DEFAULT_GAMES", "20")
        os.environ["IMPERIAL_LAB_HOME"] = home  # saved games and lesson progress stay out of the user's folder
        catalog = Path(args.catalog).resolve() if args.catalog else Path(home) / "lab.duckdb"
        with dashboard_server(catalog) as url, chromium() as browser:
            for name in wanted:
                context = browser.new_context(viewport=SCREEN, base_url=url)
                context.set_default_timeout(600_000)
                page = context.new_page()
                start = time.perf_counter()
                page.goto("/" if name == all_pages()[0].url_path else f"/{name}")  # the first page: the root
                settle(page)
                shoot(page, out / f"{name}.png")
                print(f"{name}: {time.perf_counter() - start:.1f} s", flush=True)
                for state, act in SCENES.get(name, ()):
                    act(page)
                    settle(page)
                    shoot(page, out / f"{name}-{state}.png")
                    print(f"  {name}-{state}", flush=True)
                context.close()
    print(f"screenshots in {out}")


def settle(page: Page) -> None:
    """The page has drawn its title and finished running (a first start plays its runs first)."""
    expect(page.get_by_test_id("stHeading").first).to_be_visible(timeout=600_000)
    idle(page)
    page.wait_for_timeout(300)  # charts animate in; the board's component draws after its frame


def shoot(page: Page, path: Path) -> None:
    """The whole page at the screen's width: the window grows to the main area's height for the shot."""
    height = page.evaluate("() => document.querySelector('[data-testid=stMain]').scrollHeight")
    page.set_viewport_size({"width": SCREEN["width"], "height": max(height, SCREEN["height"])})
    try:
        page.screenshot(path=path, animations="disabled")
    finally:
        page.set_viewport_size(SCREEN)


def click(page: Page, name: str) -> None:
    page.get_by_role("button", name=name).first.click()


def start_game(page: Page) -> None:
    click(page, "Start the game")
    expect(page.get_by_text("actions played").first).to_be_visible()
    page.wait_for_timeout(1000)  # the bots' first replies


def check_answer(page: Page) -> None:
    """The first choice of the lesson, checked."""
    choices = page.get_by_test_id("stRadio").first.get_by_role("radio")
    if choices.count():
        choices.first.click(force=True)
    click(page, "Check my move")


SCENES = {
    "play": [("game", start_game)],
    "imperia_play": [("game", start_game)],
    "ip_play": [("game", start_game)],
    "lessons": [("answered", check_answer)],
    "imperia_lessons": [("answered", check_answer)],
    "ip_lessons": [("answered", check_answer)],
}


if __name__ == "__main__":
    main()
