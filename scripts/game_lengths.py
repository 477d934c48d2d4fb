"""Distribution of game lengths over random games, the population of tests/test_properties.py.

    .venv/bin/python scripts/game_lengths.py [GAMES] [FIRST_SEED]

Game k uses chance seed FIRST_SEED + k, 2 + k % 5 players, the standard setup for even k and the
experienced-players variant for odd k, and RandomBot(seed * 10 + seat) for every seat (as the
property test does, which draws seed, player count and setup at random instead). Prints the
nation turns and the decisions (non-chance actions) per game: quantiles by player count, by
setup and overall, and a histogram of nation turns.
"""

from __future__ import annotations

import statistics
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from imperial_lab.core.bots import RandomBot  # noqa: E402
from imperial_lab.core.play import play_game  # noqa: E402


def summary(values: list[int]) -> str:
    q = statistics.quantiles(values, n=20, method="inclusive") if len(values) > 1 else values * 19
    return (f"n={len(values):4}  min {min(values):5}  p10 {q[1]:7.1f}  p25 {q[4]:7.1f}"
            f"  median {statistics.median(values):7.1f}  p75 {q[14]:7.1f}  p90 {q[17]:7.1f}  max {max(values):5}  mean {statistics.fmean(values):7.1f}")


def main(games: int = 200, first: int = 0) -> None:
    rows = []
    for k in range(games):
        seed, players = first + k, 2 + k % 5
        setup = "standard" if k % 2 == 0 else "variant"
        g = play_game({"game": "imperial2030", "players": players, "setup": setup},
                      [RandomBot(seed * 10 + p) for p in range(players)], seed, record=False)
        rows.append((players, setup, g.state.nation_turns, g.decisions, g.state.round))
    for label, index in (("nation turns", 2), ("decisions", 3), ("rounds", 4)):
        print(f"\n== {label} per game ({games} random games, seeds {first}..{first + games - 1}) ==")
        groups = defaultdict(list)
        for row in rows:
            groups[f"{row[0]} players"].append(row[index])
            groups[row[1]].append(row[index])
            groups["all"].append(row[index])
        for key in sorted(groups, key=lambda x: (x == "all", x)):
            print(f"{key:12} {summary(groups[key])}")
    print("\n== histogram of nation turns (bins of 50) ==")
    bins = Counter(row[2] // 50 * 50 for row in rows)
    for b in sorted(bins):
        print(f"{b:4}-{b + 49:<4} {bins[b]:4} {'#' * bins[b]}")


if __name__ == "__main__":
    main(*(int(x) for x in sys.argv[1:3]))
