"""Cost of recording games as tables (imperial_lab.core.tables): prints figures, asserts nothing.

    .venv/bin/python scripts/bench_tables.py                  # 20 random 4-player games, best of 7
    .venv/bin/python scripts/bench_tables.py --games 40 --repeats 5

1. end to end: ``record_game`` against plain ``play_game`` on the same seeds, in µs per action
   (chance included), best of the repeats (a busy machine only ever slows a run down);
2. rows per game and table, ``frames()`` time (best of the repeats) and DataFrame memory per game.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from imperial_lab.core.bots import RandomBot  # noqa: E402  (after the path set-up, so the script runs from a checkout)
from imperial_lab.core.play import play_game  # noqa: E402
from imperial_lab.core.tables import frames, merge_rows, record_game  # noqa: E402

CONFIG = {"game": "imperial2030", "players": 4}


def bots(seed: int) -> list:
    return [RandomBot(seed * 10 + p) for p in range(4)]


def best_times(fns: list, repeats: int) -> list[float]:
    """Best time of each function; they take turns, so a change of load hits them alike."""
    best = [float("inf")] * len(fns)
    for _ in range(repeats):
        for k, fn in enumerate(fns):
            start = time.perf_counter()
            fn()
            best[k] = min(best[k], time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    seeds = range(args.games)
    actions = sum(len(play_game(CONFIG, bots(s), s).actions) for s in seeds)

    def play():
        for s in seeds:
            play_game(CONFIG, bots(s), s, record=False)

    def record():
        return [record_game(CONFIG, bots(s), ["random"] * 4, s, "bench", s, "standard") for s in seeds]

    plain, recorded = best_times([play, record], args.repeats)
    rows = merge_rows(record())
    (framing,) = best_times([lambda: frames(rows)], args.repeats)
    dfs = frames(rows)
    us = 1e6 / actions
    print(f"{args.games} random 4-player games, {actions / args.games:.0f} actions per game; best of {args.repeats}")
    print(f"  play_game        {plain * us:6.1f} µs/action")
    print(f"  record_game      {recorded * us:6.1f} µs/action  (overhead {(recorded - plain) * us:.1f} µs/action, "
          f"x{recorded / plain:.2f})")
    print(f"  frames()         {framing / args.games * 1e3:6.1f} ms/game")
    total = sum(len(r) for r in rows.values())
    print(f"rows per game ({total / args.games:.0f} in all), DataFrame memory per game:")
    for name, df in dfs.items():
        kib = df.memory_usage(deep=True).sum() / args.games / 1024
        print(f"  {name:16s} {len(rows[name]) / args.games:7.0f} rows  {kib:6.1f} KiB")


if __name__ == "__main__":
    main()
