"""The dashboard end to end in a real browser: ``streamlit run dashboard/app.py`` on a free port against
the small lab (with a small Imperia run and a small Imperial Powers run beside it), driven through
Playwright with Debian's chromium (tests/browser_support.py); one server for every game's pages. Every
page is opened from the sidebar, a game is stepped in the explorer, a small comparison is played (and
its tests table and charts must fit a laptop's screen), a bad move log is uploaded, the Play page's
board and rondel are clicked, and nothing is cut off or scrolls sideways at a laptop's width. Every
request of every tab must stay on this machine. Screenshots of every page, for a person to look at,
are scripts/screenshots.py's (not this suite's: a whole-page shot redraws every chart at full height).
"""

from __future__ import annotations

import re
import shutil

import pytest
from playwright.sync_api import Page, expect

from imperial_lab.core import ladder
from imperial_lab.core.games.imperial2030.setups import SETUPS_DIR
from imperial_lab.core.games.imperial_powers.words import ability
from imperial_lab.core.session import PlaySession
from imperial_lab.core.simulate import simulate
from imperial_lab.dashboard.playkit import save_game
from tests.conftest import failed
from tests.browser_support import (CHARTS, charts_drawn, chromium, dashboard_server, heading, idle,
                                   local_tab, open_page)

# Under pytest-xdist (--dist loadgroup) these tests share one worker: one server and one chromium.
pytestmark = pytest.mark.xdist_group("browser")
COMPARE_GAMES = 6  # per cell (setup × line-up), played in the server's process
COMPARE_CHARTS = 1  # the ladder (no cell of two bots); the others are drawn when their expanders open:
COMPARE_OPENED = 1 + 3 + 1  # starting governments, three per-game figures, seat scores
COMPARE_SCREEN = {"width": 1366, "height": 900}
SHOWN_CHARS = 6000  # of a failed test's page text, printed in its report
LEAGUE_CHARTS = 1  # the lab's runs seat one bot each: the League page draws the seat effect only
# Its last line holds what markdown would rewrite (an arrow, bold): the error must quote it as written.
BAD_LOG = "\n".join([
    '{"game": "imperial2030", "format": 1, "config": {"players": 4, "setup": "standard"}}',
    '{"player": -1, "action": "deal RU,CN,IN,BR"}',
    '{"player": 0, "action": "rondel -> **beach**"}',
]) + "\n"


IMPERIA_RUN, IP_RUN = "im-browser", "ip-browser"
IMPERIA_RUNS_CHARTS = 5  # seats, fortress sites, board sides, game length, warlord order
MANEUVER_GAME = "aaaaaaaaaa"  # a saved game (play/) at a decision of Player A's maneuver: Russia's army in Moscow


@pytest.fixture(scope="module")
def app_url(lab, tmp_path_factory):
    """The app's address. It runs on a copy of the lab's catalogue: the comparison played here adds
    runs (in runs/ beside the catalogue), which must not reach the session's shared lab. Beside it: a
    small run of Imperia and one of Imperial Powers, and a saved game of Play at a maneuver."""
    home = tmp_path_factory.mktemp("browser")
    shutil.copy(lab.catalog, home / "lab.duckdb")
    shutil.copytree(SETUPS_DIR, home / "setups")
    simulate(home / "runs" / IMPERIA_RUN, games=12, players=3, setup="default", bots=["random"] * 3, seed=2,
             workers=1, catalog=home / "lab.duckdb", progress=False, game="imperia")
    simulate(home / "runs" / IP_RUN, games=3, players=4, setup="default", bots=["random"] * 4, seed=2, workers=1,
             catalog=home / "lab.duckdb", progress=False, game="imperial_powers")
    save_game(home / "play", MANEUVER_GAME, at_a_maneuver())
    with dashboard_server(home / "lab.duckdb", home / "setups") as url:
        yield url


def at_a_maneuver() -> PlaySession:
    """Player A (a person) against two heuristic bots, who goes to Maneuver or Import and imports armies
    when it can, up to a maneuver of Russia with its army in Moscow."""
    session = PlaySession({"game": "imperial2030", "players": 3, "setup": "standard"}, [None, "heuristic", "heuristic"], 1)
    while True:
        session.advance_to_human()
        legal = [session.state.action_to_string(a) for a in session.legal()]
        if session.state.decision_name() == "maneuver" and "move army moscow -> ukraine" in legal:
            return session
        wanted = ("rondel maneuver_1", "rondel maneuver_2", "rondel import")
        pick = next((t for t in legal if t in wanted or t.startswith("import army")), legal[0])
        session.play(session.legal()[legal.index(pick)])


@pytest.fixture(scope="module")
def browser():
    with chromium() as browser:
        yield browser


@pytest.fixture
def page(request, browser, app_url):
    """A fresh browser tab (and session of the app) on the app's first page, or on the page of the
    test's mark ``opens(path, title)``: a test of another page draws no explorer first."""
    mark = request.node.get_closest_marker("opens")
    path, title = mark.args if mark else ("/", "Game explorer")
    with local_tab(browser, app_url, path, title) as page:
        yield page
        if failed(request):  # what the page showed, in the failure's report (a flaky wait is read from it)
            print(f"The page showed:\n{page.get_by_test_id('stMain').inner_text(timeout=10_000)[:SHOWN_CHARS]}")


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
    open_page(page, "Power & control", "Power & control")
    expect(page.get_by_role("heading", name=re.compile(r"^Game 0 of "))).to_be_visible()
    charts_drawn(page, CHARTS["power.py"])
    open_page(page, "Compare bond distributions", "Compare bond distributions")
    expect(heading(page, "Verdict")).to_be_visible()
    charts_drawn(page, COMPARE_CHARTS)
    open_page(page, "League", "League")
    expect(heading(page, "Seat effect")).to_be_visible()
    charts_drawn(page, LEAGUE_CHARTS)
    open_page(page, "Setup editor", "Setup editor")
    expect(page.get_by_text("No bond is given to anybody")).to_be_visible()
    open_page(page, "Game explorer", "Game explorer")  # back again: the explorer keeps its game and turn
    expect(turn_heading(page)).to_have_text("Setup")
    charts_drawn(page, CHARTS["explorer.py"])


def test_explorer_steps_through_a_game_and_keeps_its_turn(page):
    step_a_game(page)
    open_page(page, "Setup editor", "Setup editor")  # Streamlit drops the slider's state here
    open_page(page, "Game explorer", "Game explorer")
    expect(turn_heading(page)).to_have_text(re.compile(r"^Turn 2 · round 1 · "))


# Where nation turn ``turn`` of Player A's line is on the chance chart, in the page's pixels (Plotly's axes).
CHART_POINT = """turn => {
    const plot = document.querySelector('[data-testid=stPlotlyChart] .js-plotly-plot');
    const axes = plot._fullLayout, line = plot._fullData[0];
    const box = plot.querySelector('.nsewdrag').getBoundingClientRect();
    const y = line.y[Array.from(line.x).indexOf(turn)];
    return [box.left + axes.xaxis.l2p(turn), box.top + axes.yaxis.l2p(y)];
}"""


def test_a_click_on_the_chance_chart_goes_to_that_turn(page):
    expect(turn_heading(page)).to_have_text("Setup")
    chart = page.get_by_test_id("stPlotlyChart")
    chart.scroll_into_view_if_needed()
    idle(page)
    x, y = page.evaluate(CHART_POINT, 7)
    page.mouse.click(x, y)
    expect(turn_heading(page)).to_have_text(re.compile(r"^Turn 7 · "))
    expect(page.get_by_text("This turn's swing:")).to_be_visible()


def press(page: Page, key: str) -> None:
    """A key for the page itself (the step buttons' shortcuts), not for the widget last clicked."""
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    page.keyboard.press(key)


def test_the_board_steps_with_the_keyboard_and_shows_a_move(page):
    """→ ← End Home step the explorer; the board shows every region, what a step moved, the result at
    the end; the Europe view redraws it."""
    board = page.locator("svg.imperial-board")
    expect(board.locator(".region")).to_have_count(62)
    expect(board.locator("path[data-region='moscow'] > title")).to_contain_text("home province of Russia")
    idle(page)
    press(page, "ArrowRight")
    expect(turn_heading(page)).to_have_text(re.compile(r"^Turn 1 · round 1 · "))
    idle(page)
    press(page, "ArrowRight")
    expect(turn_heading(page)).to_have_text(re.compile(r"^Turn 2 · "))
    idle(page)
    press(page, "ArrowLeft")
    expect(turn_heading(page)).to_have_text(re.compile(r"^Turn 1 · "))
    idle(page)
    press(page, "End")
    expect(page.get_by_test_id("stAlertContentSuccess")).to_contain_text("Game over.")
    idle(page)
    press(page, "Home")
    expect(turn_heading(page)).to_have_text("Setup")
    for turn in range(1, 40):  # on to the first step with a move: its arrows are drawn
        idle(page)
        press(page, "ArrowRight")
        expect(turn_heading(page)).to_have_text(re.compile(rf"^Turn {turn} · "))
        idle(page)
        if board.locator(".move").count():
            break
    assert board.locator(".move").count() > 0, "no move in the first 40 turns"
    page.get_by_role("radio", name="Europe").click()
    expect(board).to_have_attribute("aria-label", "the board (europe)")


@pytest.mark.opens("./compare", "Compare bond distributions")
def test_compare_plays_a_small_comparison(page):
    # The page's first run must end before the form is filled: a run still drawing can draw the form's
    # widgets again, and a number typed into the old one is lost (the grid would then play 100 games a cell).
    expect(heading(page, "Verdict")).to_be_visible()
    idle(page)
    page.get_by_text("Play a new comparison").click()
    games = page.get_by_label("Games per cell", exact=True)
    games.fill(str(COMPARE_GAMES))
    games.press("Tab")  # the number input keeps what was typed when it loses the focus
    page.get_by_role("button", name="Play and compare").click()
    chosen = page.get_by_test_id("stMultiSelect").filter(has_text="Runs to compare")
    rungs = [spec for spec in ladder.rungs() if not ladder.searches(spec)]  # the form's line-ups: the fast rungs
    for setup in ("standard", "three_nations_each"):  # the new grid replaces the runs compared
        for spec in rungs:
            name = f"{setup}-{spec.replace(':', '_')}-{COMPARE_GAMES}-s1"
            expect(chosen.get_by_text(name, exact=True)).to_be_visible()
    expect(page.get_by_test_id("stProgress")).to_be_hidden()
    expect(heading(page, "Verdict")).to_be_visible()
    charts_drawn(page, COMPARE_CHARTS)


# Bounding boxes (left, top, right, bottom) in the page: every dataframe's and its scroller's widths,
# and each plotly chart's title and legend (an SVG text and group; none when the chart has no legend).
LAYOUT_JS = """() => {
  const box = e => { if (!e) return null; const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const frames = [...document.querySelectorAll('[data-testid=stDataFrame]')].map(f => {
    const s = f.querySelector('.dvn-scroller');
    return {box: box(f), headers: [...f.querySelectorAll('th')].map(h => h.textContent.trim()),
            scroll: s ? s.scrollWidth : 0, client: s ? s.clientWidth : 0};
  });
  const charts = [...document.querySelectorAll('[data-testid=stPlotlyChart] .js-plotly-plot')].map(p => ({
    title: (p.querySelector('.gtitle') || {}).textContent, titleBox: box(p.querySelector('.gtitle')),
    legendBox: box(p.querySelector('g.legend'))}));
  return {frames, charts};
}"""


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.opens("./compare", "Compare bond distributions")
def test_compare_tables_and_charts_fit_a_laptop(page):
    """At 1366 × 900 the verdict table and the tests table show every column (p and the adjusted p among
    them) with no horizontal scroll, and no chart's title overlaps its legend (the legends sit below
    the plots)."""
    page.set_viewport_size(COMPARE_SCREEN)
    expect(heading(page, "Every test")).to_be_visible()
    charts_drawn(page, COMPARE_CHARTS)
    for label in ("Who wins with each starting government",
                  "Charts: how long the games last, lead changes, margins, each seat's score"):
        page.get_by_text(label, exact=True).click()  # a lazy expander: opening it reruns the page
        idle(page)
    charts_drawn(page, COMPARE_CHARTS + COMPARE_OPENED)
    idle(page)
    tests = page.get_by_test_id("stDataFrame").filter(has=page.locator("th", has_text="adj. p"))
    expect(tests).to_have_count(1)
    tests.scroll_into_view_if_needed()
    layout = page.evaluate(LAYOUT_JS)
    table = next(frame for frame in layout["frames"] if "adj. p" in frame["headers"])
    assert {"p", "adj. p", "n", "effect [CI]"} <= set(table["headers"])
    cells = next(frame for frame in layout["frames"] if "verdict" in frame["headers"])
    assert {"line-up", "worst seat", "gap", "to decide", "replicate"} <= set(cells["headers"])
    assert table["client"] > 0 and table["scroll"] <= table["client"] + 1, table  # no horizontal scroll
    assert 0 <= table["box"][0] and table["box"][2] <= COMPARE_SCREEN["width"], table  # within the window
    assert all(frame["scroll"] <= frame["client"] + 1 for frame in layout["frames"]), layout["frames"]
    assert len(layout["charts"]) == COMPARE_CHARTS + COMPARE_OPENED
    for chart in layout["charts"]:
        assert chart["titleBox"] is not None, chart
        if chart["legendBox"] is not None:
            assert not _overlap(chart["titleBox"], chart["legendBox"]), chart
            assert chart["legendBox"][1] >= chart["titleBox"][3], chart  # below it, not above


def test_a_bad_move_log_is_reported_and_the_app_goes_on(page):
    page.get_by_text("an uploaded move log").click()
    page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(
        files=[{"name": "bad.jsonl", "mimeType": "application/jsonl", "buffer": BAD_LOG.encode()}])
    error = page.get_by_test_id("stAlertContentError")
    expect(error).to_contain_text("bad.jsonl, line 3: this move log cannot be replayed")
    expect(error).to_contain_text("cannot parse action 'rondel -> **beach**'")
    expect(error).to_contain_text("The game is shown up to line 2.")
    expect(turn_heading(page)).to_have_text("Setup")  # the lines before the bad one can be explored
    page.get_by_text("a run of the catalogue").click()
    expect(error).to_have_count(0)
    idle(page)
    step_a_game(page)


@pytest.mark.opens("./setup_editor", "Setup editor")
def test_setup_editor_checks_and_saves_a_distribution(page):
    expect(page.get_by_text("No bond is given to anybody")).to_be_visible()
    page.get_by_test_id("stSelectbox").filter(has_text="Start from").click()
    page.get_by_role("option", name="three_nations_each").click()
    expect(page.get_by_text("The distribution is valid.")).to_be_visible()
    name = page.get_by_role("textbox", name="Name", exact=True)
    name.fill("spread_copy")
    name.press("Enter")
    page.get_by_role("button", name="Save setup").click()
    expect(page.get_by_text(re.compile(r"^Saved .*spread_copy\.json"))).to_be_visible()


@pytest.mark.opens("./play", "Play")
def test_play_the_first_round_as_a_person(page):
    """The Play page as a person uses it: start a game (Player A a person, heuristic bots), ask why
    an action is refused, click choices until round 2 asks Player A, undo, reload the page (the
    address keeps the game), then Save the move log and open it in the Game explorer."""
    seed = page.get_by_label("Seed", exact=True).and_(page.get_by_test_id("stNumberInputField"))
    seed.fill("1")
    seed.press("Enter")
    expect(seed).to_have_value("1")
    idle(page)
    page.get_by_role("button", name="Start the game").click()
    played = page.get_by_test_id("stCaptionContainer").filter(has_text="actions played")
    decision = page.get_by_test_id("stMarkdownContainer").filter(has_text=re.compile(r"^Player A: "))
    expect(played).to_be_visible()
    expect(decision).to_be_visible()
    expect(page.locator("svg.imperial-board")).to_be_visible()  # the board and the rondel: SVG, clickable
    expect(page.locator("svg.imperial-rondel")).to_be_visible()
    round_two = page.get_by_test_id("stCaptionContainer").filter(has_text="Round 2, nation turn")
    for _ in range(100):  # a round asks Player A a few times: its nations' turns, bonds at Investor
        if round_two.count():
            break
        before = played.inner_text()
        choices = page.locator("[class*='st-key-play_choice_'] button:visible")
        (choices.first if choices.count() else
         page.locator("[data-testid=stFormSubmitButton] button:visible", has_text="Play").first).click()
        expect(played).not_to_have_text(before)
        idle(page)
    expect(round_two).to_be_visible()
    before = played.inner_text()
    page.get_by_role("button", name="Undo").click()
    expect(played).not_to_have_text(before)
    expect(page.get_by_text(re.compile(r"^Undone: Player A's "))).to_be_visible()
    idle(page)
    kept = played.inner_text()
    assert "game=" in page.url
    page.reload()
    expect(heading(page, "Play")).to_be_visible()
    expect(played).to_have_text(kept)
    expect(decision).to_be_visible()
    expect(page.locator("svg.imperial-board")).to_be_visible()
    with page.expect_download() as saved:  # Save: the move log, which the explorer opens
        page.get_by_role("button", name="Save", exact=True).click()
    with open(saved.value.path(), encoding="utf-8") as file:
        log = file.read()
    assert log.startswith('{"game": "imperial2030"') and '"bots": ["human", "heuristic"' in log
    open_page(page, "Game explorer", "Game explorer")
    page.get_by_text("an uploaded move log").click()
    page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(
        files=[{"name": "play.jsonl", "mimeType": "application/jsonl", "buffer": log.encode()}])
    expect(turn_heading(page)).to_have_text("Setup")


# ----- clicking the board, and nothing cut off at a laptop's width -----

def actions_played(page: Page) -> str:
    return page.get_by_test_id("stCaptionContainer").filter(has_text="actions played").inner_text()


@pytest.mark.opens(f"./play?game={MANEUVER_GAME}", "Play")
def test_the_play_page_plays_a_move_clicked_on_the_board(page):
    """A unit, then a green region: the move is played; a unit, then a region it cannot reach: why not,
    in words; a rondel space: that rondel move (on another game)."""
    idle(page)
    before = actions_played(page)
    page.locator('[data-click="unit:moscow:RU:army:"]').click()
    expect(page.get_by_text("Picked: the army in Moscow")).to_be_visible()
    expect(page.locator('path.target[data-region="ukraine"]')).to_have_count(1)  # where it may go, ringed
    page.locator('[data-click="region:peru"]').click(force=True)
    expect(page.get_by_test_id("stAlertContentWarning")).to_contain_text("Not allowed:")
    expect(page.get_by_test_id("stAlertContentWarning")).not_to_contain_text("RULES.md")
    page.locator('[data-click="region:ukraine"]').click(force=True)
    expect(page.get_by_test_id("stCaptionContainer").filter(has_text="actions played")).not_to_have_text(before)
    expect(page.get_by_test_id("stException")).to_have_count(0)
    open_page(page, "Play", "Play")
    page.get_by_text("New game").first.click()
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("svg.imperial-rondel [data-click]")).to_have_count(8)
    idle(page)
    before = actions_played(page)
    page.locator('svg.imperial-rondel path.space[stroke="#1a9850"]').first.click(force=True)  # a space it may go to
    expect(page.get_by_test_id("stCaptionContainer").filter(has_text="actions played")).not_to_have_text(before)


# The widths of what could be cut off or make the page scroll sideways: the page itself, every
# button's label, every chart's modebar (hidden: it would cover the title).
FIT_JS = """() => {
  const main = document.querySelector('[data-testid=stMain]');
  const labels = [...document.querySelectorAll('[data-testid=stButton] button p, [data-testid=stBaseButton-secondary] p')]
    .filter(p => p.scrollWidth > p.clientWidth + 1).map(p => p.innerText);
  const bars = [...document.querySelectorAll('.modebar-container')].filter(m => getComputedStyle(m).display !== 'none');
  const right = document.querySelector('[data-testid=stMainBlockContainer]').getBoundingClientRect().right;
  const wide = [...main.querySelectorAll('table')].filter(t => t.getBoundingClientRect().right > right + 1)
    .map(t => t.innerText.slice(0, 40));
  return {page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
          main: main.scrollWidth - main.clientWidth, cut: labels, bars: bars.length, wide};
}"""


@pytest.mark.parametrize("path, title", [pytest.param(path, title, marks=pytest.mark.opens(path, title)) for path, title in
                                         ((f"./play?game={MANEUVER_GAME}", "Play"), ("./imperia_explorer", "Imperia explorer"),
                                          ("./power", "Power & control"), ("./lessons", "Lessons"))])
def test_nothing_is_cut_off_or_scrolls_sideways_at_a_laptops_width(page, path, title):
    page.set_viewport_size(COMPARE_SCREEN)
    idle(page)
    page.locator("[data-testid=stPlotlyChart]").first.hover() if page.locator("[data-testid=stPlotlyChart]").count() else None
    fit = page.evaluate(FIT_JS)
    assert fit["page"] <= 0 and fit["main"] <= 0, fit  # no sideways scroll
    assert not fit["cut"], fit  # no button label cut
    assert not fit["wide"], fit  # no table running past the page's column (clipped, not scrolled)
    assert fit["bars"] == 0, fit  # no Plotly toolbar over a chart's title


# ----- Imperia and Imperial Powers -----

def step_heading(page):
    return page.get_by_test_id("stHeading").filter(has_text=re.compile(r"^(Before the first action|Step \d+ of)"))


@pytest.mark.opens("./imperia_explorer", "Imperia explorer")
def test_the_imperia_explorer_steps_through_a_game_of_the_run(page):
    expect(step_heading(page)).to_have_text(re.compile("^Before the first action"))
    expect(page.get_by_text(re.compile(f"^Open: {IMPERIA_RUN} · game 0"))).to_be_visible()  # the sidebar's run, at once
    expect(page.locator("svg.imperia-board")).to_be_visible()
    for k in (1, 2, 3):
        idle(page)  # a key pressed while a run still draws the buttons finds no shortcut
        press(page, "ArrowRight")
        expect(step_heading(page)).to_have_text(re.compile(rf"^Step {k} of"))
    idle(page)
    press(page, "ArrowLeft")
    expect(step_heading(page)).to_have_text(re.compile(r"^Step 2 of"))


@pytest.mark.opens("./imperia_runs", "Imperia runs")
def test_the_imperia_runs_and_rules_pages(page):
    for title in ("First-player advantage", "Fortress site", "Layout", "Tempo"):
        expect(heading(page, title)).to_be_visible()
    charts_drawn(page, IMPERIA_RUNS_CHARTS)
    expect(page.get_by_text("Bots: random ×3.").first).to_be_visible()  # which bots played
    page.goto("./imperia_rules?section=6.6")
    asked = page.locator(".st-key-imperia_rules_asked")
    expect(asked.get_by_role("heading", name=re.compile(r"^§6\.6 A general's orders"))).to_be_visible()
    expect(page.get_by_test_id("stException")).to_have_count(0)


@pytest.mark.opens("./ip_explorer", "Imperial Powers explorer")
def test_the_imperial_powers_explorer_steps_with_keys_and_through_a_seats_eyes(page):
    expect(step_heading(page)).to_have_text(re.compile("^Before the first action"))
    board = page.locator("svg.ip-map")
    expect(board.locator("g.region")).to_have_count(10)
    for k in (1, 2):
        idle(page)  # a key pressed while a run still draws the buttons finds no shortcut
        press(page, "ArrowRight")
        expect(step_heading(page)).to_have_text(re.compile(rf"^Step {k} of"))
    idle(page)
    press(page, "PageDown")
    expect(step_heading(page)).to_have_text(re.compile(r"· Turn 1 · Draw$"))
    idle(page)
    press(page, "PageDown")
    expect(step_heading(page)).to_have_text(re.compile(r"· Turn 1 · Bid$"))
    page.get_by_test_id("stRadio").filter(has_text="Viewpoint").get_by_text(re.compile(r"^Player B \(")).click()
    expect(page.locator("svg.ip-map[data-observer='1']")).to_be_visible()
    expect(page.get_by_test_id("stException")).to_have_count(0)


@pytest.mark.opens("./ip_play", "Imperial Powers against bots")
def test_the_imperial_powers_play_page_says_what_a_power_does(page):
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", name=re.compile(r"^Your turn, Player A"))).to_be_visible()
    powers = page.get_by_role("button", name=re.compile(r"^(Britain|France|Spain|Dutch|Portuguese)$"))
    expect(powers.first).to_be_visible()
    for name in powers.all_inner_texts():  # under each power offered: what it does, in words
        expect(page.get_by_test_id("stCaptionContainer").filter(has_text=ability(name.lower()))).to_be_visible()
    powers.first.click()
    expect(page.get_by_text("Your hand, in the order the cards are bid")).to_be_visible()
    page.goto("./ip_rules?section=5.7")
    expect(page.locator(".st-key-ip_rules_asked").get_by_role("heading", name=re.compile(r"^§5\.7 Event"))).to_be_visible()
    expect(page.get_by_test_id("stException")).to_have_count(0)
