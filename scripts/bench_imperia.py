"""Imperia benchmarks on one core: random games per second (2, 3, 4 players), heuristic games
per second, and the heuristic bot against random bots (400 games, seats rotating, win rate with
its 95% Wilson interval).

    .venv/bin/python scripts/bench_imperia.py [--games 400] [--speed-games 300]

A shared first place counts as a win for every seat in it; the rate of outright wins is shown too.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.bots import RandomBot  # noqa: E402
from core.games.imperia.heuristic import ImperiaHeuristicBot  # noqa: E402
from core.play import play_game  # noqa: E402
from core.stats import wilson  # noqa: E402


def speed(players: int, games: int, heuristic: bool = False) -> tuple[float, float]:
    """(games/s, actions/s) of ``games`` games with record=False."""
    start, actions = time.perf_counter(), 0
    for g in range(games):
        bots = [ImperiaHeuristicBot(g * 7 + p) if heuristic else RandomBot(g * 7 + p) for p in range(players)]
        played = play_game({"game": "imperia", "players": players}, bots, g, record=False)
        actions += played.state.ply
    seconds = time.perf_counter() - start
    return games / seconds, actions / seconds


def against_random(players: int, games: int) -> tuple[int, int, int]:
    """(wins incl. shared, outright wins, games) of one heuristic seat, rotating, against random bots."""
    wins = outright = 0
    for g in range(games):
        seat = g % players
        bots = [RandomBot(10_000 + g * 7 + p) for p in range(players)]
        bots[seat] = ImperiaHeuristicBot(g)
        won = play_game({"game": "imperia", "players": players}, bots, 50_000 + g, record=False).state.winners()
        wins += seat in won
        outright += won == [seat]
    return wins, outright, games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="heuristic-vs-random games per player count")
    parser.add_argument("--speed-games", type=int, default=300, help="games per speed measurement")
    args = parser.parse_args()
    for players in (2, 3, 4):
        gps, aps = speed(players, args.speed_games)
        print(f"random     {players} players: {gps:8.1f} games/s  {aps:9.0f} actions/s")
    for players in (2, 3, 4):
        gps, aps = speed(players, max(10, args.speed_games // 20), heuristic=True)
        print(f"heuristic  {players} players: {gps:8.1f} games/s  {aps:9.0f} actions/s")
    for players in (2, 3, 4):
        wins, outright, games = against_random(players, args.games)
        low, high = wilson(wins, games)
        print(f"heuristic vs random, {players} players: wins {wins}/{games} = {wins / games:.1%} "
              f"(95% Wilson {low:.1%}-{high:.1%}); outright {outright / games:.1%}; "
              f"an equal seat would win {1 / players:.0%}")


if __name__ == "__main__":
    main()
