"""Imperia's pages end to end in a real browser (Debian's chromium through Playwright, one server on
a catalogue of its own holding a small Imperia run): each opens from the sidebar; the explorer opens a
game of the catalogue and steps through it with the keyboard; the runs page draws its charts; the
rules page opens at a section named in its address. Every request stays on this machine."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from imperial_lab.core.simulate import simulate
from tests.browser_support import chromium, dashboard_server, heading, local_tab, open_page

pytestmark = pytest.mark.xdist_group("browser")
RUN = "im-browser"
RUNS_CHARTS = 5  # seats, fortress sites, board sides, game length, warlord order


@pytest.fixture(scope="module")
def app_url(tmp_path_factory):
    home = tmp_path_factory.mktemp("imperia-browser")
    simulate(home / "runs" / RUN, games=12, players=3, setup="default", bots=["random"] * 3, seed=2, workers=1,
             catalog=home / "lab.duckdb", progress=False, game="imperia")
    with dashboard_server(home / "lab.duckdb") as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    with chromium() as browser:
        yield browser


@pytest.fixture
def page(browser, app_url):
    with local_tab(browser, app_url, "./imperia_explorer", "Imperia explorer") as page:
        yield page


def step_heading(page):
    return page.get_by_test_id("stHeading").filter(has_text=re.compile(r"^(Before the first action|Step \d+ of)"))


def test_the_explorer_steps_through_a_game_of_the_catalogue(page):
    expect(step_heading(page)).to_have_text(re.compile("^Before the first action"))
    expect(page.locator("svg.imperia-board")).to_be_visible()
    page.get_by_role("slider").focus()
    for k in (1, 2, 3):
        page.keyboard.press("ArrowRight")
        expect(step_heading(page)).to_have_text(re.compile(rf"^Step {k} of"))
    page.keyboard.press("ArrowLeft")
    expect(step_heading(page)).to_have_text(re.compile(r"^Step 2 of"))
    expect(page.locator("svg.imperia-board")).to_be_visible()


def test_the_runs_page_draws_its_comparisons(page):
    open_page(page, "Imperia runs", "Imperia runs")
    for title in ("First-player advantage", "Fortress site", "Layout", "Tempo"):
        expect(heading(page, title)).to_be_visible()
    expect(page.locator("[data-testid='stPlotlyChart'] .js-plotly-plot")).to_have_count(RUNS_CHARTS)
    expect(page.get_by_text("Bots: random ×3.").first).to_be_visible()  # which bots played
    expect(page.get_by_test_id("stException")).to_have_count(0)


def test_the_rules_page_opens_at_the_section_of_its_address(page):
    open_page(page, "Imperia rules", "Rules of Imperia")
    page.goto("./imperia_rules?section=6.6")
    asked = page.locator(".st-key-imperia_rules_asked")
    expect(asked.get_by_role("heading", name=re.compile(r"^§6\.6 A general's orders"))).to_be_visible()
    expect(page.get_by_test_id("stException")).to_have_count(0)
