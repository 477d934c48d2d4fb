"""Response times of the Play page in a real browser: prints figures, asserts nothing (targets: under
1 s from a person's click to the bots' replies and the next decision with heuristic bots; under 3 s
per bot decision with the search bot at its lowest strength).

    .venv/bin/python scripts/bench_play.py                    # heuristic and mcts bots, idle machine
    .venv/bin/python scripts/bench_play.py --load 2           # the same again with 2 busy processes
    .venv/bin/python scripts/bench_play.py --decisions 40 --mcts-decisions 6

A fresh Streamlit server (on an empty catalogue of its own: the Play page needs no runs) and
Debian's chromium through Playwright (tests/browser_support.py). One four-player game per line-up:
Player A a person, the other seats bots. The script clicks a choice of the person (drawn from a
seeded generator among the choices shown) and measures, in the page's own clock, from the click to
the last change of the page once it has settled with the next decision (a MutationObserver notes
the time of every change; "settled" is Streamlit's running indicator gone, nothing stale, and no
change for 0.3 s, which is not counted). Then, with "Watch the bots move by move" on, Next (one bot
move) and Skip to my turn.

The first decisions of a game (the server's imports, plotly.js's first drawing) are measured apart
as the warm-up.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Page, expect  # noqa: E402
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError  # noqa: E402

from tests.browser_support import chromium, dashboard_server, heading, tab  # noqa: E402

QUIET_MS = 300  # no change of the page for this long: it has settled (not counted in the figures)
TIMEOUT_MS = 300_000  # one response, however slow: a figure is wanted, not a failure
ACTIONS = re.compile(r"(\d+) actions played")

# Notes the time of the last change of the page and of the last click, in the page's clock.
OBSERVE = """() => {
  window.__lastChange = performance.now();
  new MutationObserver(() => { window.__lastChange = performance.now(); })
    .observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
  document.addEventListener('click', () => { window.__clickAt = performance.now(); }, true);
}"""
SETTLED = """([quiet, before, changed]) => {
  const main = document.querySelector('[data-testid=stMain]');
  if (!main || document.querySelector('[data-testid=stStatusWidget]')) return false;
  if (document.querySelector('[data-stale=true]') || document.querySelector('[data-testid=stSkeleton]')) return false;
  const caption = [...main.querySelectorAll('[data-testid=stCaptionContainer]')]
    .map(e => e.innerText).find(t => t.includes('actions played'));
  if (changed && (!caption || caption === before)) return false;
  return performance.now() - window.__lastChange >= quiet;
}"""


def main() -> None:
    args = _arguments()
    results = {}
    burners = []
    try:
        for rounds in ("idle", "load") if args.load else ("idle",):
            if rounds == "load":
                burners = [multiprocessing.Process(target=_burn, daemon=True) for _ in range(args.load)]
                for burner in burners:
                    burner.start()
            results[rounds] = _bench(args)
            for burner in burners:
                burner.terminate()
            burners = []
    finally:
        for burner in burners:
            burner.terminate()
    _report(results, args)


def _arguments():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=30, help="decisions of the person against heuristic bots")
    parser.add_argument("--mcts-decisions", type=int, default=5, help="decisions against mcts:playouts=50 bots")
    parser.add_argument("--watch", type=int, default=10, help="Next clicks (one bot move each), then Skip clicks")
    parser.add_argument("--warmup", type=int, default=3, help="first decisions measured apart")
    parser.add_argument("--seed", type=int, default=11, help="the game's seed and the person's choices")
    parser.add_argument("--load", type=int, default=0, help="then again with this many busy processes")
    return parser.parse_args()


def _burn() -> None:
    while True:
        pass


def _bench(args) -> dict:
    rng = random.Random(args.seed)
    figures = {}
    with tempfile.TemporaryDirectory() as home, dashboard_server(Path(home) / "lab.duckdb") as url, \
            chromium() as browser:
        for bots, decisions in (("heuristic", args.decisions), ("mcts", args.mcts_decisions)):
            if decisions <= 0:
                continue
            with tab(browser, url) as (page, _):
                page.set_default_timeout(TIMEOUT_MS)
                load = _start(page, bots, args.seed)
                times, moves = [], []
                for _ in range(decisions + args.warmup):
                    if _over(page):
                        break
                    before = _actions(page)
                    seconds = _respond(page, lambda: _choose(page, rng))
                    times.append(seconds)
                    moves.append(_actions(page) - before - 1)  # the bots' and chance's replies
                figures[bots] = {"start": load, "warmup": times[:args.warmup], "times": times[args.warmup:],
                                 "moves": moves[args.warmup:]}
        if args.watch:
            with tab(browser, url) as (page, _):  # a new game: the first one may be near its end
                page.set_default_timeout(TIMEOUT_MS)
                _start(page, "heuristic", args.seed + 1)
                figures["next"], figures["skip"] = _watch(page, rng, args.watch)
    figures["load"] = os.getloadavg()
    return figures


def _start(page: Page, bots: str, seed: int) -> float:
    """Open the Play page, seat a person in A and ``bots`` elsewhere, start: seconds to the first decision."""
    start = time.perf_counter()
    page.goto("/play")
    expect(heading(page, "Play")).to_be_visible()
    page.evaluate(OBSERVE)
    seed_box = page.get_by_label("Seed", exact=True).and_(page.get_by_test_id("stNumberInputField"))
    seed_box.fill(str(seed))
    seed_box.press("Enter")
    for seat in ("Player B", "Player C", "Player D"):
        box = page.get_by_test_id("stSelectbox").filter(has_text=seat)
        if bots not in box.inner_text():
            box.click()
            page.get_by_role("option", name=bots, exact=True).click()
    _settled(page, None, changed=False)
    page.get_by_role("button", name="Start the game").click()
    _settled(page, None)
    return time.perf_counter() - start


def _choose(page: Page, rng: random.Random) -> None:
    """Click one of the person's choices: a button of a choice, or the Play button of a list."""
    buttons = page.locator("[class*='st-key-play_choice_'] button:visible")
    count = buttons.count()
    lists = page.locator("[data-testid=stFormSubmitButton] button:visible", has_text="Play")
    if count and (not lists.count() or rng.random() < 0.8):
        buttons.nth(rng.randrange(count)).click()
    else:
        lists.nth(rng.randrange(lists.count())).click()


def _respond(page: Page, click) -> float:
    """Seconds from ``click()`` to the last change of the page before it settled."""
    before = _caption(page)
    click()
    _settled(page, before)
    return page.evaluate("() => (window.__lastChange - window.__clickAt) / 1000")


def _settled(page: Page, before: str | None, changed: bool = True) -> None:
    """Wait until the page has settled (with the caption of the game changed from ``before``); a page
    that never does is saved as a screenshot, named in the error."""
    try:
        page.wait_for_function(SETTLED, arg=[QUIET_MS, before, changed], polling="raf", timeout=TIMEOUT_MS)
    except PlaywrightTimeoutError:
        shot = Path(tempfile.gettempdir()) / "bench_play_timeout.png"
        page.screenshot(path=shot, full_page=True)
        raise RuntimeError(f"the page did not settle within {TIMEOUT_MS // 1000} s (screenshot: {shot})") from None


def _watch(page: Page, rng: random.Random, clicks: int) -> tuple[list, list]:
    """"Watch the bots move by move" on: Next (after a decision of the person where the bots are not
    to move) until ``clicks`` were timed, then Skip to my turn as often."""
    page.get_by_text("Watch the bots move by move").click()
    expect(page.get_by_role("switch", name="Watch the bots move by move")).to_be_checked()
    _settled(page, None, changed=False)
    nexts, skips = [], []
    while len(nexts) < clicks and not _over(page):
        next_button = page.get_by_role("button", name="Next", exact=True)
        if next_button.count():
            nexts.append(_respond(page, next_button.click))
        else:
            _respond(page, lambda: _choose(page, rng))
    while len(skips) < clicks and not _over(page):
        skip = page.get_by_role("button", name="Skip to my turn")
        if skip.count():
            skips.append(_respond(page, skip.click))
        else:
            _respond(page, lambda: _choose(page, rng))
    return nexts, skips


def _caption(page: Page) -> str:
    return page.get_by_test_id("stCaptionContainer").filter(has_text="actions played").inner_text()


def _actions(page: Page) -> int:
    return int(ACTIONS.search(_caption(page)).group(1))


def _over(page: Page) -> bool:
    return page.get_by_text("The game is over").count() > 0


def _report(results: dict, args) -> None:
    for rounds, figures in results.items():
        load = ", ".join(f"{x:.1f}" for x in figures["load"])
        print(f"\n{rounds}: load average {load} (1, 5, 15 min) on {os.cpu_count()} cores")
        for bots, label in (("heuristic", "heuristic bots"), ("mcts", "mcts:playouts=50 bots")):
            if bots not in figures:
                continue
            f = figures[bots]
            print(f"  {label}: start to the first decision {f['start']:.2f} s; warm-up decisions "
                  + ", ".join(f"{x:.2f}" for x in f["warmup"]) + " s")
            _line("    click to the next decision", f["times"])
            moves = sum(f["moves"])
            if moves:
                print(f"    {moves} bot and chance moves in the replies, {sum(f['times']) / moves:.2f} s per move "
                      f"(replies of {min(f['moves'])}-{max(f['moves'])} moves)")
        if figures.get("next"):
            _line("  watching: Next (one bot move)", figures["next"])
            _line("  watching: Skip to my turn", figures["skip"])


def _line(label: str, times: list) -> None:
    if not times:
        print(f"{label}: no figures")
        return
    ordered = sorted(times)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    print(f"{label}: median {statistics.median(times):.2f} s, 90th percentile {p90:.2f} s, "
          f"max {max(times):.2f} s over {len(times)}")


if __name__ == "__main__":
    main()
