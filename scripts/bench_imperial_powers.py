"""Imperial Powers benchmarks on one core: random and heuristic games per second (3, 4, 5 players),
and the search bot's decisions per second at its budget. Prints figures, asserts nothing.

    .venv/bin/python scripts/bench_imperial_powers.py [--speed-games 100] [--search mcts:playouts=32:depth=20]

``--strength N`` plays instead the two measurements of strength, N games each, the tested bot's seat
rotating over the games (game g: seat g mod players, chance from seed 50,000 + g): one heuristic
seat against random bots, then one search seat against heuristic bots. Each prints the win rate
(a shared first place counts as a win for every seat in it; outright wins shown too) with its 95%
Wilson interval against the par share 1/players, and the mean VP margin over the table's mean.
``--workers W`` spreads the games over W processes (each game is fixed by its number, so the
figures do not depend on W).

    nice -n 5 .venv/bin/python scripts/bench_imperial_powers.py --strength 400 --workers 2

``--powers N`` plays N heuristic self-play games under random power assignment and prints the win
rate of each power (the order of ``heuristic.POWER_PREFERENCE``). The load average is printed
before and after every measurement.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from imperial_lab.core.bots import make_bot  # noqa: E402
from imperial_lab.core.games.imperial_powers.data import data  # noqa: E402
from imperial_lab.core.play import play_game  # noqa: E402
from imperial_lab.core.stats import wilson  # noqa: E402

GAME = "imperial_powers"
DEFAULT_SEARCH = "mcts:playouts=32:depth=20"


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def speed(players: int, games: int, spec: str) -> tuple[float, float]:
    """(games/s, decisions/s) of ``games`` games with every seat played by ``spec``, record=False."""
    start, decisions = time.perf_counter(), 0
    for g in range(games):
        bots = [make_bot(spec, g * 7 + p, game=GAME) for p in range(players)]
        decisions += play_game({"game": GAME, "players": players}, bots, g, record=False).decisions
    seconds = time.perf_counter() - start
    return games / seconds, decisions / seconds


def search_speed(spec: str, players: int, games: int) -> tuple[float, float, int]:
    """(searched decisions/s, playouts per searched decision, decisions) of one ``spec`` seat
    against heuristic bots; decisions with a single legal action are not searched, not counted."""
    seconds = playouts = decisions = 0
    for g in range(games):
        search = make_bot(spec, g, game=GAME)
        bots = [make_bot("heuristic", 10_000 + g * 7 + p, game=GAME) for p in range(players)]
        bots[g % players] = Timed(search)
        play_game({"game": GAME, "players": players}, bots, 50_000 + g, record=False)
        seconds += bots[g % players].seconds
        playouts += bots[g % players].playouts
        decisions += bots[g % players].decisions
    return decisions / seconds, playouts / max(1, decisions), decisions


class Timed:
    """A search bot that adds up the time and playouts of its searched decisions."""

    def __init__(self, bot):
        self.bot, self.seconds, self.playouts, self.decisions = bot, 0.0, 0, 0

    def decide(self, state, legal_actions):
        start = time.perf_counter()
        action = self.bot.decide(state, legal_actions)
        if len(legal_actions) > 1:
            self.seconds += time.perf_counter() - start
            self.playouts += self.bot.last_playouts
            self.decisions += 1
        return action


def strength_game(task: tuple) -> tuple[bool, bool, float]:
    """One game of ``spec`` in seat g mod players against ``other`` bots: (won, won alone, VP margin
    over the table's mean)."""
    spec, other, players, g = task
    seat = g % players
    bots = [make_bot(other, 10_000 + g * 7 + p, game=GAME) for p in range(players)]
    bots[seat] = make_bot(spec, g, game=GAME)
    state = play_game({"game": GAME, "players": players}, bots, 50_000 + g, record=False).state
    won, vp = state.winners(), state.returns()
    return seat in won, won == [seat], vp[seat] - sum(vp) / players


def strength(spec: str, other: str, players: int, games: int, workers: int) -> None:
    print(f"{spec} in one seat (rotating) against {players - 1} x {other}, {players} players, {games} games; "
          f"{load()}", flush=True)
    start = time.perf_counter()
    tasks = [(spec, other, players, g) for g in range(games)]
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            results = list(pool.map(strength_game, tasks, chunksize=4))
    else:
        results = [strength_game(task) for task in tasks]
    wins = sum(won for won, _, _ in results)
    outright = sum(alone for _, alone, _ in results)
    margin = sum(m for _, _, m in results) / games
    low, high = wilson(wins, games)
    par = 1 / players
    verdict = "above par" if low > par else "below par" if high < par else "not clear of par"
    print(f"  wins {wins}/{games} = {wins / games:.1%} (95% Wilson {low:.1%}-{high:.1%}; par {par:.1%}: {verdict}); "
          f"outright {outright / games:.1%}; mean VP margin {margin:+.1f}; "
          f"{time.perf_counter() - start:.0f} s; {load()}", flush=True)


def powers(games: int) -> None:
    """Win rate of each power in heuristic self-play under random assignment (4 players)."""
    d = data()
    played, won = [0] * len(d.powers), [0] * len(d.powers)
    for g in range(games):
        bots = [make_bot("heuristic", g * 7 + p, game=GAME) for p in range(4)]
        state = play_game({"game": GAME, "players": 4, "power_assignment": "random"}, bots, g, record=False).state
        for p, w in enumerate(state.powers):
            played[w] += 1
            won[w] += p in state.winners()
    print(f"heuristic self-play, 4 players, random powers, {games} games; {load()}")
    for w in sorted(range(len(d.powers)), key=lambda w: -won[w] / max(1, played[w])):
        low, high = wilson(won[w], played[w])
        print(f"  {d.powers[w]:<11} wins {won[w]}/{played[w]} = {won[w] / max(1, played[w]):.1%} "
              f"(95% Wilson {low:.1%}-{high:.1%})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--speed-games", type=int, default=100, help="games per speed measurement")
    parser.add_argument("--search", default=DEFAULT_SEARCH, help=f"the search bot's spec (default {DEFAULT_SEARCH})")
    parser.add_argument("--search-games", type=int, default=2, help="games of the search speed measurement")
    parser.add_argument("--strength", type=int, metavar="N", help="play the two strength measurements, N games each")
    parser.add_argument("--players", type=int, default=4, help="players of --strength (default 4)")
    parser.add_argument("--workers", type=int, default=1, help="processes of --strength (default 1)")
    parser.add_argument("--powers", type=int, metavar="N", help="win rate by power in N self-play games")
    args = parser.parse_args()
    if args.strength:
        strength("heuristic", "random", args.players, args.strength, args.workers)
        strength(args.search, "heuristic", args.players, args.strength, args.workers)
        return
    if args.powers:
        powers(args.powers)
        return
    print(f"one process; {load()}")
    for spec in ("random", "heuristic"):
        for players in (3, 4, 5):
            gps, dps = speed(players, args.speed_games, spec)
            print(f"{spec:<9} {players} players: {gps:7.1f} games/s  {dps:8.0f} decisions/s", flush=True)
    dps, playouts, decisions = search_speed(args.search, 4, args.search_games)
    print(f"{args.search} against 3 heuristic, 4 players: {dps:.1f} searched decisions/s "
          f"({1 / dps:.3f} s each, {playouts:.1f} playouts each, {decisions} decisions); {load()}")


if __name__ == "__main__":
    main()
