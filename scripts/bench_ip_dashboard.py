"""The Imperial Powers explorer's step time in a real browser (target: under 300 ms): prints figures,
asserts nothing.

    .venv/bin/python scripts/bench_ip_dashboard.py                 # a 4-player game, 20 steps each way
    .venv/bin/python scripts/bench_ip_dashboard.py --players 5 --steps 10 --viewer 1 --screenshot /tmp/ip.png

A fresh server (tests/browser_support.py) on an empty catalogue of its own, Debian's chromium; the
page ``/ip_explorer`` opened and a move log of bots (the game's heuristic if it has one) uploaded
(timed until its first view is drawn); then, from the start of turn 2's Bid, ``--steps`` presses of →
(Next) and as many of ← (Back), then ``--steps`` presses of PageDown (the next phase), each timed from
the key press until the step's heading and the map are drawn and the page has settled (no script
running, nothing stale), checked at every animation frame. ``--viewer`` times the steps through a
seat's eyes (its observation) instead of with everything shown.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from imperial_lab.core.registry import plugin  # noqa: E402
from imperial_lab.dashboard.replay import bots_log  # noqa: E402
from tests.browser_support import LAPTOP, chromium, dashboard_server  # noqa: E402

GAME = "imperial_powers"
TIMEOUT_S = 120
DRAWN = """(heading) => {
  const shown = [...document.querySelectorAll('[data-testid=stHeading]')].some(e => e.innerText.includes(heading));
  return shown && !!document.querySelector('svg.ip-map') && !document.querySelector('[data-testid=stStatusWidget]')
    && !document.querySelector("[data-stale='true']") && !document.querySelector('[data-testid=stSkeleton]');
}"""
CURRENT = """() => {
  const h = [...document.querySelectorAll('[data-testid=stHeading]')].map(e => e.innerText)
    .find(t => /^Step \\d+ of/.test(t));
  return h ? parseInt(h.split(' ')[1]) : 0;
}"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--steps", type=int, default=20, help="steps timed each way (Next, Back, next phase)")
    parser.add_argument("--viewer", type=int, help="time through this seat's eyes (0 = Player A)")
    parser.add_argument("--screenshot", help="a PNG of the page after the steps forward")
    args = parser.parse_args()
    bot = "heuristic" if "heuristic" in plugin(GAME).bots else "random"
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "imperial_powers.jsonl"
        log.write_text(bots_log(GAME, args.players, args.seed, bot), encoding="utf-8")
        actions = len(log.read_text().splitlines()) - 1
        with dashboard_server(Path(folder) / "lab.duckdb") as url, chromium() as browser:
            tab = browser.new_page(viewport=LAPTOP, base_url=url)
            tab.set_default_timeout(TIMEOUT_S * 1000)
            start = time.perf_counter()
            tab.goto("./ip_explorer")
            tab.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(log))
            tab.wait_for_function(DRAWN, arg="Before the first action", polling="raf")
            first = time.perf_counter() - start
            if args.viewer is not None:
                radio = tab.get_by_test_id("stRadio").filter(has_text="Viewpoint")
                radio.get_by_text(re.compile(rf"^Player {'ABCDE'[args.viewer]} ")).click()
                tab.wait_for_function(DRAWN, arg="Before the first action", polling="raf")
            here = _jump(tab, "Turn 2 · Bid")
            steps = min(args.steps, actions - here)
            forward = [_step(tab, "ArrowRight", f"Step {here + k + 1} of") for k in range(steps)]
            if args.screenshot:
                tab.screenshot(path=args.screenshot)
            back = [_step(tab, "ArrowLeft", f"Step {here + steps - k - 1} of") for k in range(steps)]
            phases = [_step(tab, "PageDown", "· Turn ") for _ in range(args.steps)]
    seen = "everything" if args.viewer is None else f"Player {'ABCDE'[args.viewer]}'s view"
    print(f"{args.players}-player game of {actions} actions ({bot} bots), {seen}; page opened and log uploaded, "
          f"first view: {first:.2f} s (a fresh server: its imports included)")
    for name, times in (("Next (→)", forward), ("Back (←)", back), ("Next phase (PageDown)", phases)):
        print(f"{name}: median {1000 * statistics.median(times):.0f} ms, range {1000 * min(times):.0f}–"
              f"{1000 * max(times):.0f} ms over {len(times)} steps")
    print(f"Load average over the last minute: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores.")


def _jump(tab, stage: str) -> int:
    """Choose ``stage`` in "Jump to"; the step it starts at."""
    tab.get_by_test_id("stSelectbox").first.click()
    tab.get_by_role("option", name=stage, exact=True).click()
    tab.wait_for_function(DRAWN, arg=f"· {stage}", polling="raf")
    return tab.evaluate(CURRENT)


def _step(tab, key: str, heading: str) -> float:
    """Seconds from the key press to the step drawn (its heading, the map, the page settled)."""
    tab.evaluate("() => document.activeElement && document.activeElement.blur()")  # the key goes to the page
    before = tab.evaluate(CURRENT)
    start = time.perf_counter()
    tab.keyboard.press(key)
    if key == "PageDown":  # the next phase's heading names its turn: wait for another step number
        tab.wait_for_function(f"() => ({CURRENT})() !== {before} && ({DRAWN})('{heading}')", polling="raf")
    else:
        tab.wait_for_function(DRAWN, arg=heading, polling="raf")
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
