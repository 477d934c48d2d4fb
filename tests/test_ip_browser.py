"""Imperial Powers' pages end to end in a real browser (Debian's chromium through Playwright, one server
on a catalogue of its own holding a small Imperial Powers run): each opens from the sidebar; the
explorer opens a game of the catalogue, draws the map's SVG and steps through the game with the
keyboard (→ ←, PageDown for the next phase), and through a seat's eyes draws that seat's view; the
Play page starts a game and takes a decision; the rules page opens at a section named in its address.
Every request stays on this machine."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from imperial_lab.core.simulate import simulate
from tests.browser_support import chromium, dashboard_server, idle, local_tab, open_page

pytestmark = pytest.mark.xdist_group("browser")
RUN = "ip-browser"


@pytest.fixture(scope="module")
def app_url(tmp_path_factory):
    home = tmp_path_factory.mktemp("ip-browser")
    simulate(home / "runs" / RUN, games=3, players=4, setup="default", bots=["random"] * 4, seed=2, workers=1,
             catalog=home / "lab.duckdb", progress=False, game="imperial_powers")
    with dashboard_server(home / "lab.duckdb") as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    with chromium() as browser:
        yield browser


@pytest.fixture
def page(browser, app_url):
    with local_tab(browser, app_url, "./ip_explorer", "Imperial Powers explorer") as page:
        yield page


def step_heading(page):
    return page.get_by_test_id("stHeading").filter(has_text=re.compile(r"^(Before the first action|Step \d+ of)"))


def open_from_sidebar(page, link: str, title: str) -> None:
    """Follow the sidebar's link; the navigation folds its later links under "View N more"."""
    more = page.get_by_test_id("stSidebarNav").get_by_text(re.compile(r"^View \d+ more$"))
    if more.count():
        more.click()
    open_page(page, link, title)


def press(page, key: str) -> None:
    """A key for the page's shortcuts (not for the widget that has the focus, such as the slider), once
    the page has settled: a key pressed while a run is still drawing the buttons finds no shortcut."""
    idle(page)
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    page.keyboard.press(key)


def test_the_explorer_steps_through_a_game_of_the_catalogue_with_keys(page):
    expect(step_heading(page)).to_have_text(re.compile("^Before the first action"))
    board = page.locator("svg.ip-map")
    expect(board).to_be_visible()
    expect(board.locator("g.region")).to_have_count(10)
    for k in (1, 2, 3):
        press(page, "ArrowRight")
        expect(step_heading(page)).to_have_text(re.compile(rf"^Step {k} of"))
    press(page, "ArrowLeft")
    expect(step_heading(page)).to_have_text(re.compile(r"^Step 2 of"))
    press(page, "PageDown")
    expect(step_heading(page)).to_have_text(re.compile(r"· Turn 1 · Draw$"))
    press(page, "PageDown")
    expect(step_heading(page)).to_have_text(re.compile(r"· Turn 1 · Bid$"))
    expect(board.locator("g.influence")).to_have_count(40)  # a bar per seat in every region
    page.get_by_test_id("stRadio").filter(has_text="Viewpoint").get_by_text(re.compile(r"^Player B \(")).click()
    expect(page.locator("svg.ip-map[data-observer='1']")).to_be_visible()
    expect(page.get_by_test_id("stException")).to_have_count(0)


def test_the_play_page_starts_a_game_and_takes_a_decision(page):
    open_from_sidebar(page, "Imperial Powers against bots", "Imperial Powers against bots")
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", name=re.compile(r"^Your turn, Player A"))).to_be_visible()
    expect(page.locator("svg.ip-map")).to_be_visible()
    power = page.get_by_role("button", name=re.compile(r"^(Britain|France|Spain|Dutch|Portuguese)$")).first
    power.click()
    expect(page.get_by_text("Your hand, in the order the cards are bid")).to_be_visible()
    expect(page).to_have_url(re.compile(r"/ip_play\?game=[0-9a-f]+"))
    expect(page.get_by_test_id("stException")).to_have_count(0)


def test_the_rules_page_opens_at_the_section_of_its_address(page):
    open_from_sidebar(page, "Imperial Powers rules", "Rules of Imperial Powers")
    page.goto("./ip_rules?section=5.7")
    asked = page.locator(".st-key-ip_rules_asked")
    expect(asked.get_by_role("heading", name=re.compile(r"^§5\.7 Event"))).to_be_visible()
    expect(page.get_by_test_id("stException")).to_have_count(0)
