"""Render benchmark of the dashboard on 10,000-game runs: prints figures, asserts nothing (target < 2 s
per page).

    .venv/bin/python scripts/bench_dashboard.py               # first time: plays the runs (~11 min on 2 cores)
    .venv/bin/python scripts/bench_dashboard.py --no-browser  # AppTest only
    .venv/bin/python scripts/bench_dashboard.py --games 200 --only-explorer  # the explorer's step times

1. The runs: 10,000 heuristic 4-player games of the standard setup (runs/bench10k) and as many of
   three_nations_each (runs/bench10k_three_nations, so that the Compare page has two runs to compare), in a
   catalogue of their own (data/bench10k.duckdb). A finished run is reused: simulate resumes it,
   which costs nothing.
2. AppTest: each page rendered by Streamlit in this process, cold (Streamlit's caches cleared
   first) and warm (the same page run again), as the median of ``--repeats``.
3. Browser: a fresh server and Debian's chromium, the app loaded once (timed apart); then each page
   opened from the sidebar and timed until its content is drawn (its plotly charts drawn by
   plotly.js, the page settled), in three rounds: first visits (with the server's one-off imports
   of the page's modules), cold (the caches cleared from the app's menu) and warm.
4. The explorer in the browser (issue 11's targets: a step under 300 ms, a game's first view under
   1.5 s): a game opened by its link (``?run=..&game=..``) timed until its board is drawn
   and the page settled, once on a fresh server (with the server's imports) and then for other
   games; then ``--steps`` presses of the → key (Next) and as many of ← (Back), each timed from the
   key press until the new turn's heading and board are drawn and the page has settled.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import streamlit as st  # noqa: E402  (after the path set-up, so the script runs from a checkout)
from playwright.sync_api import expect  # noqa: E402
from streamlit.testing.v1 import AppTest  # noqa: E402

from imperial_lab.core.simulate import simulate  # noqa: E402
from imperial_lab.dashboard.games.imperial2030 import boardview  # noqa: E402, F401  (imported once, before timing)
from imperial_lab.dashboard.pages import all_pages, page_path  # noqa: E402

PAGES = [(page.path.name, page.title) for page in all_pages()]
from tests.browser_support import CHARTS, LAPTOP, charts_drawn, chromium, dashboard_server, heading, idle  # noqa: E402

RUNS = (("", "standard"), ("_three_nations", "three_nations_each"))  # run name after "bench10k", setup
TIMEOUT_S = 300  # one render, however slow: a figure is wanted, not a failure


def main() -> None:
    args = _arguments()
    name = f"bench{_size(args.games)}"
    catalog = Path(args.catalog or ROOT / "data" / f"{name}.duckdb").resolve()
    _build_runs(catalog, Path(args.runs_dir), name, args.games, args.workers)
    os.environ["IMPERIAL_LAB_CATALOG"] = str(catalog)
    if args.only_explorer:
        _explorer(catalog, f"{name}", args.steps)
        return
    print(f"\nAppTest, median of {args.repeats} ...", flush=True)
    app = {page: _apptest(page, args.repeats) for page, _ in PAGES}
    load, browser = (None, {}) if args.no_browser else _browser(catalog)
    _table(app, browser, load)
    if not args.no_browser:
        _explorer(catalog, f"{name}", args.steps)


def _arguments():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--catalog", help="the benchmark's catalogue (default data/bench10k.duckdb, after --games)")
    parser.add_argument("--runs-dir", default=str(ROOT / "runs"), help="where the run folders go")
    parser.add_argument("--games", type=int, default=10_000, help="games per run (the runs are named after it)")
    parser.add_argument("--workers", type=int, default=2, help="Dask workers that play the runs")
    parser.add_argument("--repeats", type=int, default=3, help="AppTest renders per figure (the median is shown)")
    parser.add_argument("--no-browser", action="store_true", help="AppTest figures only")
    parser.add_argument("--only-explorer", action="store_true", help="the explorer's first views and steps only")
    parser.add_argument("--steps", type=int, default=20, help="explorer steps timed each way (Next, then Back)")
    return parser.parse_args()


def _size(games: int) -> str:
    """10k for 10,000 games: a run of another size gets folders of its own (simulate would refuse)."""
    return f"{games // 1000}k" if games % 1000 == 0 else str(games)


def _build_runs(catalog: Path, folder: Path, name: str, games: int, workers: int) -> None:
    for suffix, setup in RUNS:
        start = time.perf_counter()
        summary = simulate(folder / f"{name}{suffix}", games, 4, setup, ["heuristic"] * 4, seed=1, workers=workers,
                           catalog=catalog)
        rows = ", ".join(f"{table} {count:,}" for table, count in summary["rows"].items())
        print(f"run {summary['run']}: {summary['games']} games of {setup} ({summary['played_chunks']} chunks "
              f"played now, {time.perf_counter() - start:.1f} s); rows: {rows}")


# ----- AppTest -----

def _app():
    from imperial_lab.dashboard.app import run

    run()


def _apptest(page: str, repeats: int) -> tuple[float, float]:
    """Median seconds of a cold and of a warm render of ``page``."""
    cold, warm = [], []
    for _ in range(repeats):
        at = AppTest.from_function(_app, default_timeout=TIMEOUT_S).run()  # lands on the first page
        _clear_caches()
        cold.append(_render(at, page))
        warm.append(_render(at, page))
    return statistics.median(cold), statistics.median(warm)


def _clear_caches() -> None:
    st.cache_data.clear()
    st.cache_resource.clear()


def _render(at: AppTest, page: str) -> float:
    start = time.perf_counter()
    at.switch_page(str(page_path(page))).run()
    seconds = time.perf_counter() - start
    if at.exception:
        raise RuntimeError(f"{page}: {at.exception[0].value}")
    return seconds


# ----- the browser -----

def _browser(catalog: Path) -> tuple[float, dict[str, tuple[float, ...]]]:
    """Seconds to load the app (at the Setup editor, which reads nothing but the runs table), then
    until each page is drawn, over three rounds of visits from the sidebar: the first visits (the
    server imports each page's modules then), cold (after clearing the caches from the app's menu)
    and warm."""
    print("browser ...", flush=True)
    rounds: list[dict[str, float]] = []
    # "Clear cache" is in the developer menu only, which the lab's own config hides
    with dashboard_server(catalog, options={"client.toolbarMode": "developer"}) as url, chromium() as browser:
        tab = browser.new_page(viewport=LAPTOP)
        tab.set_default_timeout(TIMEOUT_S * 1000)
        start = time.perf_counter()
        tab.goto(f"{url}/setup_editor")
        _drawn(tab, "setup_editor.py", "Setup editor")
        load = time.perf_counter() - start
        for visit in range(3):
            if visit == 1:
                _clear_server_caches(tab)
            rounds.append({page: _visit(tab, page, title) for page, title in PAGES})
    return load, {page: tuple(seconds[page] for seconds in rounds) for page in rounds[0]}


def _visit(tab, page: str, title: str) -> float:
    start = time.perf_counter()
    tab.get_by_test_id("stSidebarNav").get_by_role("link", name=title).click()
    _drawn(tab, page, title)
    return time.perf_counter() - start


def _clear_server_caches(tab) -> None:
    """Streamlit's "Clear cache" (main menu): empties st.cache_data for the whole server."""
    tab.get_by_test_id("stMainMenu").click()
    tab.get_by_text("Clear cache").click()
    tab.get_by_role("button", name="Clear caches").click()
    expect(tab.get_by_role("dialog")).to_be_hidden()


def _drawn(tab, page: str, title: str) -> None:
    expect(heading(tab, title)).to_be_visible()
    charts_drawn(tab, CHARTS.get(page, 0))  # pages not listed there: timed until their heading shows
    idle(tab)


def _explorer(catalog: Path, run: str, steps: int) -> None:
    """First views of games opened by their links, then steps with the keyboard (→ Next, ← Back)."""
    print("explorer in the browser ...", flush=True)
    with dashboard_server(catalog) as url, chromium() as browser:
        tab = browser.new_page(viewport=LAPTOP, base_url=url)
        tab.set_default_timeout(TIMEOUT_S * 1000)
        first = [_open_game(tab, run, game) for game in (0, 1, 2, 3)]
        forward = [_step(tab, "ArrowRight", k + 1) for k in range(steps)]
        back = [_step(tab, "ArrowLeft", steps - k - 1) for k in range(steps)]
    print(f"first view of a game: {first[0]:.2f} s on a fresh server (imports), then "
          f"{', '.join(f'{s:.2f}' for s in first[1:])} s")
    for name, times in (("Next (→)", forward), ("Back (←)", back)):
        print(f"{name}: median {1000 * statistics.median(times):.0f} ms, range {1000 * min(times):.0f}–"
              f"{1000 * max(times):.0f} ms over {len(times)} steps")
    print(f"Load average over the last minute: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores.")


# Drawn: the heading of the step, the board, no script running and nothing left over from the
# previous run. Checked at every animation frame in the page (Playwright's expect() polls at
# 100 ms and more, which would round every step up).
DRAWN = """(heading) => {
  const shown = [...document.querySelectorAll('[data-testid=stHeading]')].some(e => e.innerText.startsWith(heading));
  return shown && !!document.querySelector('svg.imperial-board') && !document.querySelector('[data-testid=stStatusWidget]')
    && !document.querySelector("[data-stale='true']") && !document.querySelector('[data-testid=stSkeleton]');
}"""


def _open_game(tab, run: str, game: int) -> float:
    start = time.perf_counter()
    tab.goto(f"./?run={run}&game={game}")
    tab.wait_for_function(DRAWN, arg="Setup", polling="raf")
    return time.perf_counter() - start


def _step(tab, key: str, turn: int) -> float:
    """Seconds from the key press to turn ``turn`` drawn (its heading, the board, the page settled)."""
    tab.evaluate("() => document.activeElement && document.activeElement.blur()")  # the key goes to the page
    start = time.perf_counter()
    tab.keyboard.press(key)
    tab.wait_for_function(DRAWN, arg="Setup" if turn == 0 else f"Turn {turn} ·", polling="raf")
    return time.perf_counter() - start


def _table(app: dict, browser: dict, load: float | None) -> None:
    columns = ("AppTest cold", "AppTest warm", *(("browser 1st", "browser cold", "browser warm") if browser else ()))
    print(f"\n{'page':28}" + "".join(f"{name:>14}" for name in columns))
    for page, title in PAGES:
        print(f"{title:28}" + "".join(f"{seconds:>12.2f} s" for seconds in (*app[page], *browser.get(page, ()))))
    if load is not None:
        print(f"Browser: loading the app took {load:.2f} s (the frontend, and the server's first run of the router "
              "with its imports); a page's first visit (1st) also imports its own modules, once per server.")
    print(f"Load average over the last minute: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores.")


if __name__ == "__main__":
    main()
