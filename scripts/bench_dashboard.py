"""Every dashboard page's time in a real browser, on the lab a first start makes (target: every page
under 2 s from a warm cache and under 4 s from a cold one at idle, and no page over twice that with two
busy processes beside it). Prints figures with the load they were measured at; asserts nothing.

    .venv/bin/python scripts/bench_dashboard.py                   # idle, then beside two busy processes
    .venv/bin/python scripts/bench_dashboard.py --busy 0          # idle only
    .venv/bin/python scripts/bench_dashboard.py --home /tmp/lab --pages explorer,power,lessons
    .venv/bin/python scripts/bench_dashboard.py --explorer-steps 20   # the explorer's steps (→, ←) too
    .venv/bin/python scripts/bench_dashboard.py --server-cpu --busy 0 --pages none   # the server's CPU only

1. The lab: a user folder (``--home``, default a temporary one) whose catalogue holds the first
   start's default runs of every game (dashboard/simulations.py); a folder without them gets them
   played first, timed like ``imperial dashboard`` plays them (wall time, the CPU time it took, and
   the load: on an idle machine the wall time is about the CPU time).
2. The pages: a fresh server and Debian's chromium; each page of the navigation in turn, opened from
   the sidebar and timed from the click until the page is drawn (its title shown, every Plotly chart
   drawn by plotly.js, its script finished by the app's own run state, nothing stale or loading), in
   three visits: the first (the server imports the page's modules then), cold (after the app menu's
   Clear cache) and warm (again).
3. ``--busy N`` (default 2): the same visits with N processes that keep a core busy each, side by
   side in the same run, so the two sets of figures compare as ratios.
4. ``--server-cpu``: each page's script run under AppTest in this process, the CPU seconds it took
   cold (caches cleared; a page's modules are imported on its first run) and warm (run again): the
   server's share of a page's time, which a busy machine stretches but does not change.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import expect  # noqa: E402

from imperial_lab.dashboard.pages import sections  # noqa: E402
from tests.browser_support import LAPTOP, chromium, dashboard_server, timed_key  # noqa: E402

TIMEOUT_S = 600  # one page, however slow: a figure is wanted, not a failure
# Drawn: the page's title (another than the page before), its script finished (the app's own run
# state: the status widget shows only after a delay, so a page between its title and its charts
# looked drawn), every chart drawn by plotly.js, nothing stale or loading. Checked at every
# animation frame.
FINISHED = """(document.querySelector('[data-testid=stApp]') || {dataset: {}}).dataset.testScriptState === 'notRunning'
  && !document.querySelector('[data-testid=stStatusWidget]') && !document.querySelector("[data-stale='true']")
  && !document.querySelector('[data-testid=stSkeleton]')"""
DRAWN = """(before) => {
  const title = document.querySelector('h1');
  if (!title || title.innerText === before) return false;
  const charts = [...document.querySelectorAll('[data-testid=stPlotlyChart]')];
  return charts.every(c => c.querySelector('.main-svg')) && """ + FINISHED + """;
}"""
BUSY = "while True:\n    pass\n"


def main() -> None:
    args = _arguments()
    home = Path(args.home or tempfile.mkdtemp(prefix="imperial-bench-"))
    os.environ["IMPERIAL_LAB_HOME"] = str(home)
    catalog = home / "lab.duckdb"
    _first_start(catalog)
    pages = [(page.url_path, page.title) for group in sections().values() for page in group]
    if args.pages:
        pages = [(url, title) for url, title in pages if url in args.pages.split(",")]
    if pages:
        results = {"idle": _round(catalog, pages)}
        if args.busy:
            with _busy(args.busy):
                results[f"{args.busy} busy"] = _round(catalog, pages)
        _table(pages, results)
    if args.explorer_steps:
        _explorer(catalog, args.explorer_steps)
    if args.server_cpu:
        _server_cpu(catalog)


def _arguments():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", help="the user folder of the lab measured (default: a fresh temporary one)")
    parser.add_argument("--pages", help="comma-separated page URLs (explorer, power, ...); default: every page")
    parser.add_argument("--busy", type=int, default=2, help="busy processes beside the second round (0: none)")
    parser.add_argument("--explorer-steps", type=int, default=0, help="explorer steps timed each way (→, then ←)")
    parser.add_argument("--server-cpu", action="store_true", help="each page's CPU time on the server (AppTest)")
    return parser.parse_args()


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.1f} (5 min {five:.1f}) on {os.cpu_count()} cores"


def _first_start(catalog: Path) -> None:
    """The first start's default runs, timed as ``imperial dashboard`` plays them (nothing when present)."""
    from imperial_lab.dashboard import simulations
    from imperial_lab.dashboard.queries import runs

    if catalog.exists() and not simulations.needs_default_dataset(runs(catalog)):
        return
    print(f"first start: playing the default runs ({_load()}) ...", flush=True)
    wall, cpu = time.perf_counter(), time.process_time()
    simulations.prepare_default_dataset(catalog, progress=False)
    print(f"first start: {time.perf_counter() - wall:.1f} s wall, {time.process_time() - cpu:.1f} s of CPU "
          f"(about its wall time on an idle machine); {_load()}", flush=True)


class _busy:
    """``n`` processes that keep a core busy each, stopped on exit."""

    def __init__(self, n: int):
        self.n, self.procs = n, []

    def __enter__(self):
        self.procs = [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(self.n)]
        time.sleep(2)  # the load average starts to show them
        return self

    def __exit__(self, *exc):
        for proc in self.procs:
            proc.kill()
            proc.wait()


def _round(catalog: Path, pages: list) -> dict:
    """Per page (url): seconds of its first, cold and warm visit, on a fresh server; the load."""
    print(f"pages ({_load()}) ...", flush=True)
    times = {}
    # "Clear cache" is in the developer menu only, which the lab's own config hides
    with dashboard_server(catalog, options={"client.toolbarMode": "developer"}) as url, chromium() as browser:
        tab = browser.new_page(viewport=LAPTOP, base_url=url)
        tab.set_default_timeout(TIMEOUT_S * 1000)
        tab.goto("./setup_editor")  # a light page to start from: the app's own start is not a page's
        expect(tab.get_by_role("heading", name="Setup editor", exact=True)).to_be_visible()
        for visit in ("first", "cold", "warm"):
            if visit == "cold":
                _clear_caches(tab)
            for url_path, title in pages:
                times.setdefault(url_path, {})[visit] = _visit(tab, title)
                print(f"  {visit:5} {url_path:18} {times[url_path][visit]:6.2f} s", flush=True)
    times["load"] = _load()
    return times


def _visit(tab, title: str) -> float:
    """Seconds from the sidebar link's click until the page is drawn."""
    before = tab.evaluate("() => (document.querySelector('h1') || {}).innerText")
    if before == title:  # the page is open already: go elsewhere first, so that its drawing is timed
        tab.get_by_test_id("stSidebarNav").get_by_role("link", name="Setup editor").click()
        tab.wait_for_function(DRAWN, arg=before, polling="raf")
        before = "Setup editor"
    start = time.perf_counter()
    tab.get_by_test_id("stSidebarNav").get_by_role("link", name=title, exact=True).click()
    tab.wait_for_function(DRAWN, arg=before, polling="raf")
    tab.wait_for_timeout(50)  # a fragment that starts at once (a clickable board) shows its status widget
    tab.wait_for_function(DRAWN, arg=before, polling="raf")
    return time.perf_counter() - start


def _clear_caches(tab) -> None:
    """Streamlit's "Clear cache" (main menu): empties st.cache_data and st.cache_resource for the server."""
    tab.get_by_test_id("stMainMenu").click()
    tab.get_by_text("Clear cache").click()
    tab.get_by_role("button", name="Clear caches").click()
    expect(tab.get_by_role("dialog")).to_be_hidden()


def _table(pages: list, results: dict) -> None:
    rounds = list(results)
    head = "".join(f"{f'{r} {v}':>16}" for r in rounds for v in ("first", "cold", "warm"))
    print(f"\n{'page':20}{head}")
    for url_path, _ in pages:
        print(f"{url_path:20}" + "".join(f"{results[r][url_path][v]:>14.2f} s" for r in rounds
                                         for v in ("first", "cold", "warm")))
    for r in rounds:
        worst = {v: max(results[r][u][v] for u, _ in pages) for v in ("cold", "warm")}
        print(f"{r}: slowest cold {worst['cold']:.2f} s, slowest warm {worst['warm']:.2f} s; {results[r]['load']}")
    if len(rounds) == 2:
        idle, busy = rounds
        ratios = [results[busy][u][v] / results[idle][u][v] for u, _ in pages for v in ("cold", "warm")]
        print(f"busy / idle: median {statistics.median(ratios):.2f}, largest {max(ratios):.2f} (cold and warm visits)")


def _server_cpu(catalog: Path) -> None:
    """Per page: the CPU seconds of its script run, cold and warm, under AppTest in this process."""
    import streamlit as st

    from tests.lab_fixtures import open_page

    os.environ["IMPERIAL_LAB_CATALOG"] = str(catalog)
    open_page("setup_editor")  # the frame's imports (Streamlit, the router), once
    print(f"server CPU per page, cold / warm ({_load()}):")
    for page in [page for group in sections().values() for page in group]:
        st.cache_data.clear()
        st.cache_resource.clear()
        start = time.process_time()
        at = open_page(page.url_path)
        cold, start = time.process_time() - start, time.process_time()
        at.run()
        print(f"  {page.url_path:18} {cold:5.2f} / {time.process_time() - start:5.2f} s", flush=True)
    print(f"({_load()})")


# ----- the explorer's steps -----

STEP_DRAWN = """(heading) => {
  const shown = [...document.querySelectorAll('[data-testid=stHeading]')].some(e => e.innerText.startsWith(heading));
  return shown && !!document.querySelector('svg.imperial-board') && """ + FINISHED + """;
}"""


def _explorer(catalog: Path, steps: int) -> None:
    """The explorer's first view of the sidebar's game, then ``steps`` presses of → and as many of ←."""
    print(f"explorer steps ({_load()}) ...", flush=True)
    with dashboard_server(catalog) as url, chromium() as browser:
        tab = browser.new_page(viewport=LAPTOP, base_url=url)
        tab.set_default_timeout(TIMEOUT_S * 1000)
        start = time.perf_counter()
        tab.goto("./")
        tab.wait_for_function(STEP_DRAWN, arg="Setup", polling="raf")
        first = time.perf_counter() - start
        forward = [timed_key(tab, "ArrowRight", STEP_DRAWN, f"Turn {k + 1} ·") for k in range(steps)]
        back = [timed_key(tab, "ArrowLeft", STEP_DRAWN, f"Turn {steps - k - 1} ·" if k < steps - 1 else "Setup")
                for k in range(steps)]
    print(f"first view: {first:.2f} s (a fresh server: its imports too)")
    for name, times in (("Next (→)", forward), ("Back (←)", back)):
        print(f"{name}: median {1000 * statistics.median(times):.0f} ms, range {1000 * min(times):.0f}–"
              f"{1000 * max(times):.0f} ms over {len(times)} steps; {_load()}")


if __name__ == "__main__":
    main()
