"""The Imperia explorer's step time in a real browser (target: under 300 ms): prints figures, asserts
nothing.

    .venv/bin/python scripts/bench_imperia_dashboard.py                 # a 4-player heuristic game, 20 steps each way
    .venv/bin/python scripts/bench_imperia_dashboard.py --players 2 --steps 10 --screenshot /tmp/imperia.png

A fresh server (tests/browser_support.py) on an empty catalogue of its own, Debian's chromium; the
page ``/imperia_explorer`` opened and a move log of heuristic bots uploaded (timed until its first
view is drawn); then ``--steps`` presses of → (Next) and as many of ← (Back), each timed from the key
press until the step's heading and the board are drawn and the page has settled (no script running,
nothing stale), checked at every animation frame.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from imperial_lab.dashboard.replay import bots_log  # noqa: E402
from tests.browser_support import LAPTOP, chromium, dashboard_server, timed_key  # noqa: E402

TIMEOUT_S = 120
DRAWN = """(heading) => {
  const shown = [...document.querySelectorAll('[data-testid=stHeading]')].some(e => e.innerText.startsWith(heading));
  return shown && !!document.querySelector('svg.imperia-board') && !document.querySelector('[data-testid=stStatusWidget]')
    && !document.querySelector("[data-stale='true']") && !document.querySelector('[data-testid=stSkeleton]');
}"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--steps", type=int, default=20, help="steps timed each way (Next, then Back)")
    parser.add_argument("--screenshot", help="a PNG of the page after the steps forward")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "imperia.jsonl"
        log.write_text(bots_log("imperia", args.players, args.seed, "heuristic"), encoding="utf-8")
        actions = len(log.read_text().splitlines()) - 1
        steps = min(args.steps, actions)
        with dashboard_server(Path(folder) / "lab.duckdb") as url, chromium() as browser:
            tab = browser.new_page(viewport=LAPTOP, base_url=url)
            tab.set_default_timeout(TIMEOUT_S * 1000)
            start = time.perf_counter()
            tab.goto("./imperia_explorer")
            tab.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(log))
            tab.wait_for_function(DRAWN, arg="Before the first action", polling="raf")
            first = time.perf_counter() - start
            forward = [timed_key(tab, "ArrowRight", DRAWN, f"Step {k + 1} of") for k in range(steps)]
            if args.screenshot:
                tab.screenshot(path=args.screenshot, full_page=True)
            back = [timed_key(tab, "ArrowLeft", DRAWN, f"Step {steps - k - 1} of" if k < steps - 1 else "Before the first")
                    for k in range(steps)]
    print(f"{args.players}-player game of {actions} actions; page opened and log uploaded, first view: {first:.2f} s "
          "(a fresh server: its imports included)")
    for name, times in (("Next (→)", forward), ("Back (←)", back)):
        print(f"{name}: median {1000 * statistics.median(times):.0f} ms, range {1000 * min(times):.0f}–"
              f"{1000 * max(times):.0f} ms over {len(times)} steps")
    print(f"Load average over the last minute: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores.")


if __name__ == "__main__":
    main()
