"""Benchmark of a comparison grid (docs/compare.md): prints figures, asserts nothing.

    .venv/bin/python scripts/bench_compare.py --out /tmp/grid            # play the grid, then time compare
    .venv/bin/python scripts/bench_compare.py --out /tmp/grid --games 200 --search-games 60 \\
        --setups standard,three_nations_each,two_powers --search mcts:playouts=50

It plays every setup × line-up as one run (``imperial_lab.core.simulate``, 2 workers, resumable: a second call
finds the finished runs) into ``OUT/runs`` with the catalogue ``OUT/lab.duckdb``. Line-ups: the
heuristic in every seat, one search seat (rotating) with heuristics in the others, random in every
seat. It prints the wall time of each run, then the time ``imperial_lab.core.compare.load`` takes over all runs
(in this process, cold and warm) and that of ``imperial compare`` as a fresh process, and the
findings, and (``--browser``) the seconds the Compare page takes in Debian's chromium at 1366 px
to show a comparison of all runs (``/compare?runs=...``) with its charts drawn: the first visit
(the server imports the page's modules and computes), a reload (cached) and another choice of runs
(computed, modules loaded).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from imperial_lab.core import compare  # noqa: E402  (after the path set-up, so the script runs from a checkout)
from imperial_lab.core.setups import load_setup  # noqa: E402
from imperial_lab.core.simulate import simulate  # noqa: E402


def lineups(players: int, search: str) -> dict[str, tuple[list[str], bool]]:
    """name -> (one spec per seat, rotate)."""
    return {"heuristic": (["heuristic"] * players, False),
            "search": ([search] + ["heuristic"] * (players - 1), True),
            "random": (["random"] * players, False)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--setups", default="standard,three_nations_each,two_powers")
    ap.add_argument("--games", type=int, default=200, help="games per cell without the search bot")
    ap.add_argument("--search-games", type=int, default=60, help="games per cell with the search bot")
    ap.add_argument("--search", default="mcts:playouts=50")
    ap.add_argument("--lineups", default="heuristic,search,random", help="which line-ups to play")
    ap.add_argument("--compare", default=None, help="compare these runs (comma-separated) instead of those played")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--browser", action="store_true", help="also time the Compare page in chromium")
    args = ap.parse_args()
    catalog = args.out / "lab.duckdb"
    names = []
    for setup in args.setups.split(","):
        players = load_setup(setup)["players"]
        for label, (bots, rotate) in lineups(players, args.search).items():
            if label not in args.lineups.split(","):
                continue
            games = args.search_games if label == "search" else args.games
            name = f"{setup}-{label}-{games}-s{args.seed}"
            start = time.perf_counter()
            simulate(args.out / "runs" / name, games, players, setup, bots, args.seed, workers=args.workers,
                     catalog=catalog, rotate=rotate)
            print(f"{name}: {time.perf_counter() - start:.1f} s (load {os.getloadavg()[0]:.1f})", flush=True)
            names.append(name)
    names = args.compare.split(",") if args.compare else names
    for attempt in ("cold", "warm"):
        start = time.perf_counter()
        result = compare.load(catalog, names)
        print(f"imperial_lab.core.compare.load over {len(names)} runs ({attempt}): {time.perf_counter() - start:.2f} s")
    start = time.perf_counter()
    subprocess.run([str(Path(sys.executable).parent / "imperial"), "compare", *names, "--catalog", str(catalog),
                    "--json"], check=True, stdout=subprocess.DEVNULL)
    print(f"imperial compare --json as a fresh process: {time.perf_counter() - start:.2f} s")
    if args.browser:
        _page_times(catalog, names)
    print(compare.text_report(result))
    return 0


def _page_times(catalog: Path, names: list[str]) -> None:
    from tests.browser_support import LAPTOP, chromium, dashboard_server, heading, idle

    with dashboard_server(catalog) as url, chromium() as browser:
        tab = browser.new_page(viewport=LAPTOP)
        tab.goto(url)  # the app's frontend and the router's imports, not timed
        idle(tab)
        # the first visit imports the page's modules and computes; a reload is answered from the cache;
        # another choice of runs is computed again with the modules loaded
        for attempt, runs in (("first visit", names), ("reload", names), ("other runs", names[:-1])):
            start = time.perf_counter()
            tab.goto(f"{url}/compare?runs={','.join(runs)}")
            heading(tab, "Every test").wait_for()  # the last section: the whole page has run
            idle(tab)
            tab.locator("[data-testid='stPlotlyChart'] .js-plotly-plot").first.wait_for()
            print(f"Compare page in chromium ({attempt}): {time.perf_counter() - start:.2f} s "
                  f"(load {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    raise SystemExit(main())
