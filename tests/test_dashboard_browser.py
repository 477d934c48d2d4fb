"""The dashboard end to end in a real browser: ``streamlit run dashboard/app.py`` on a free port against
the small lab, driven through Playwright with Debian's chromium (tests/browser_support.py). Every page
is opened from the sidebar, a game is stepped in the explorer, a small comparison is played, a bad
move log is uploaded, and each page is saved as a screenshot in screenshots/ (gitignored). Every
request of every tab must stay on this machine.

Screenshots are taken at a laptop's width (1366 px) with the window as tall as the page: Streamlit
scrolls its main area inside the page, so a plain full-page screenshot would show one screen only.
"""

from __future__ import annotations

import re
import shutil

import pytest
from playwright.sync_api import Page, expect

from core.setups import SETUPS_DIR
from tests.browser_support import (CHARTS, LAPTOP, ROOT, charts_drawn, chromium, dashboard_server, foreign, heading,
                                   idle, open_page, tab)

# Under pytest-xdist (--dist loadgroup) these tests share one worker: one server and one chromium.
pytestmark = pytest.mark.xdist_group("browser")
SCREENSHOTS = ROOT / "screenshots"
COMPARE_GAMES = 6  # per setup, played in the server's process
LEAGUE_CHARTS = 1  # the lab's runs seat one bot each: the League page draws the seat effect only
# Its last line holds what markdown would rewrite (an arrow, bold): the error must quote it as written.
BAD_LOG = "\n".join([
    '{"game": "imperial2030", "format": 1, "config": {"players": 4, "setup": "standard"}}',
    '{"player": -1, "action": "deal RU,CN,IN,BR"}',
    '{"player": 0, "action": "rondel -> **beach**"}',
]) + "\n"


@pytest.fixture(scope="module")
def app_url(lab, tmp_path_factory):
    """The app's address. It runs on a copy of the lab's catalogue: the comparison played here adds
    runs (in runs/ beside the catalogue), which must not reach the session's shared lab."""
    home = tmp_path_factory.mktemp("browser")
    shutil.copy(lab.catalog, home / "lab.duckdb")
    shutil.copytree(SETUPS_DIR, home / "setups")
    with dashboard_server(home / "lab.duckdb", home / "setups") as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    with chromium() as browser:
        yield browser


@pytest.fixture
def page(browser, app_url):
    """A fresh browser tab (and session of the app) on the app's first page; after the test, none of
    its requests may have left the machine (fonts, icons, usage statistics)."""
    with tab(browser, app_url) as (page, requests):
        page.goto("/")
        expect(heading(page, "Game explorer")).to_be_visible()
        yield page
        idle(page)  # what the last step started has been requested
        assert not foreign(requests), f"requests that left the machine: {foreign(requests)}"


def screenshot(page: Page, name: str) -> None:
    """The whole page at the laptop's width: the window grows to the main area's height for the shot."""
    idle(page)
    height = page.evaluate("() => document.querySelector('[data-testid=stMain]').scrollHeight")
    page.set_viewport_size({"width": LAPTOP["width"], "height": max(height, LAPTOP["height"])})
    try:
        SCREENSHOTS.mkdir(exist_ok=True)
        page.screenshot(path=SCREENSHOTS / f"{name}.png", animations="disabled")
    finally:
        page.set_viewport_size(LAPTOP)


def turn_heading(page: Page):
    """The explorer's heading of the shown step: "Setup" or "Turn K · round R · ..."."""
    return page.get_by_test_id("stHeading").filter(has_text=re.compile(r"^(Setup|Turn \d+ ·)"))


def events(page: Page):
    """The "What happened" column: the events of the shown step."""
    return page.get_by_test_id("stColumn").filter(has_text="What happened")


def step_a_game(page: Page) -> None:
    """Next, then the slider's right arrow: the heading and the events follow each step."""
    expect(turn_heading(page)).to_have_text("Setup")
    before = events(page).inner_text()
    page.get_by_role("button", name="Next").click()
    expect(turn_heading(page)).to_have_text(re.compile(r"^Turn 1 · round 1 · "))
    expect(events(page)).not_to_have_text(before)
    after_next = events(page).inner_text()
    page.get_by_role("slider").focus()
    page.keyboard.press("ArrowRight")
    expect(turn_heading(page)).to_have_text(re.compile(r"^Turn 2 · round 1 · "))
    expect(events(page)).not_to_have_text(after_next)


def test_every_page_opens_from_the_sidebar(page):
    expect(page.get_by_test_id("stMainMenu")).to_be_visible()  # the toolbar is drawn, without Deploy
    expect(page.get_by_test_id("stAppDeployButton")).to_have_count(0)
    charts_drawn(page, CHARTS["explorer.py"])
    screenshot(page, "explorer")
    open_page(page, "Power & control", "Power & control")
    expect(page.get_by_role("heading", name=re.compile(r"^Game 0 of "))).to_be_visible()
    charts_drawn(page, CHARTS["power.py"])
    screenshot(page, "power")
    open_page(page, "Compare bond distributions", "Compare bond distributions")
    expect(heading(page, "Summary")).to_be_visible()
    charts_drawn(page, CHARTS["compare.py"])
    screenshot(page, "compare")
    open_page(page, "League", "League")
    expect(heading(page, "Seat effect")).to_be_visible()
    charts_drawn(page, LEAGUE_CHARTS)
    screenshot(page, "league")
    open_page(page, "Setup editor", "Setup editor")
    expect(page.get_by_text("No bond is given to anybody")).to_be_visible()
    screenshot(page, "setup_editor")
    open_page(page, "Game explorer", "Game explorer")  # back again: the explorer keeps its game and turn
    expect(turn_heading(page)).to_have_text("Setup")
    charts_drawn(page, CHARTS["explorer.py"])


def test_explorer_steps_through_a_game_and_keeps_its_turn(page):
    step_a_game(page)
    open_page(page, "Setup editor", "Setup editor")  # Streamlit drops the slider's state here
    open_page(page, "Game explorer", "Game explorer")
    expect(turn_heading(page)).to_have_text(re.compile(r"^Turn 2 · round 1 · "))


def test_compare_plays_a_small_comparison(page):
    open_page(page, "Compare bond distributions", "Compare bond distributions")
    page.get_by_text("Play a new comparison").click()
    games = page.get_by_label("Games per setup")
    games.fill(str(COMPARE_GAMES))
    page.get_by_role("button", name="Play and compare").click()
    chosen = page.get_by_test_id("stMultiSelect").filter(has_text="Runs to compare")
    for setup in ("standard", "even_spread"):  # the new runs replace the runs compared
        expect(chosen.get_by_text(f"{setup}-heuristic-{COMPARE_GAMES}-s1", exact=True)).to_be_visible()
    expect(page.get_by_test_id("stProgress")).to_be_hidden()
    expect(heading(page, "Summary")).to_be_visible()
    charts_drawn(page, CHARTS["compare.py"])
    screenshot(page, "compare_played")


def test_a_bad_move_log_is_reported_and_the_app_goes_on(page):
    page.get_by_text("an uploaded move log").click()
    page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(
        files=[{"name": "bad.jsonl", "mimeType": "application/jsonl", "buffer": BAD_LOG.encode()}])
    error = page.get_by_test_id("stAlertContentError")
    expect(error).to_contain_text("bad.jsonl, line 3: this move log cannot be replayed")
    expect(error).to_contain_text("cannot parse action 'rondel -> **beach**'")
    screenshot(page, "explorer_bad_log")
    page.get_by_text("a run of the catalogue").click()
    step_a_game(page)


def test_setup_editor_checks_and_saves_a_distribution(page):
    open_page(page, "Setup editor", "Setup editor")
    expect(page.get_by_text("No bond is given to anybody")).to_be_visible()
    page.get_by_test_id("stSelectbox").filter(has_text="Start from").click()
    page.get_by_role("option", name="even_spread").click()
    expect(page.get_by_text("The distribution is valid.")).to_be_visible()
    screenshot(page, "setup_editor_valid")
    name = page.get_by_role("textbox", name="Name", exact=True)
    name.fill("spread_copy")
    name.press("Enter")
    page.get_by_role("button", name="Save setup").click()
    expect(page.get_by_text(re.compile(r"^Saved .*spread_copy\.json"))).to_be_visible()
