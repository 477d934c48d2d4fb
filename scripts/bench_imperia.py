"""Imperia benchmarks on one core: random games per second (2, 3, 4 players), heuristic games
per second, and the heuristic bot against random bots (400 games, seats rotating, win rate with
its 95% Wilson interval).

    .venv/bin/python scripts/bench_imperia.py [--games 400] [--speed-games 300]

A shared first place counts as a win for every seat in it; the rate of outright wins is shown too.

With ``--simulate N`` it times instead a recorded run (``imperial simulate``) of N three-player
random-bot games on a local Dask cluster of ``--workers`` processes (default 2), into a temporary
folder and catalogue unless ``--out``/``--catalog`` are given: the time, games/s, the machine's load,
the rows per table, and the first-player advantage of the run (win rate by seat relative to the
start player with 95% Wilson intervals, chi-square test of equal shares of outright wins).

    .venv/bin/python scripts/bench_imperia.py --simulate 10000 [--workers 2] [--bots random]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from imperial_lab.core.bots import RandomBot  # noqa: E402
from imperial_lab.core.games.imperia.heuristic import ImperiaHeuristicBot  # noqa: E402
from imperial_lab.core.play import play_game  # noqa: E402
from imperial_lab.core.stats import even_shares, format_p, wilson  # noqa: E402

# Each finished game once per seat: the seat relative to the start player (0 = the start player), whether
# it won (a shared first place counts for every seat in it) and whether it won alone. The game is the unit.
SEAT_WINS_SQL = """
SELECT rel, count(*) AS games, sum(won::INT) AS wins, sum((won AND n_winners = 1)::INT) AS outright
FROM (SELECT (seat - start_seat + players) % players AS rel, list_contains(winners, seat) AS won,
             len(winners) AS n_winners
      FROM (SELECT players, start_seat, winners, unnest(range(players::BIGINT)) AS seat
            FROM im_games WHERE run = ? AND status = 'finished'))
GROUP BY rel ORDER BY rel"""


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


def seat_advantage(catalog, run: str) -> list[str]:
    """The first-player advantage of ``run``: one line per seat relative to the start player, then the
    chi-square test of equal shares of outright wins."""
    from imperial_lab.core.catalog import query

    seats = query(SEAT_WINS_SQL, catalog, [run])
    lines = []
    for row in seats.itertuples():
        low, high = wilson(row.wins, row.games)
        who = "the start player" if row.rel == 0 else f"{row.rel} after the start player"
        lines.append(f"  seat {row.rel} ({who}): wins {int(row.wins)}/{row.games} = {row.wins / row.games:.1%} "
                     f"(95% Wilson {low:.1%}-{high:.1%}); outright {int(row.outright)}")
    players = len(seats)
    lines.append(f"  equal shares of outright wins (chi-square, {players - 1} df): "
                 f"{format_p(even_shares(seats['outright'].tolist()))}; an equal seat would win {1 / players:.1%}")
    return lines


def simulate_run(games: int, workers: int, bots: str, out: str | None, catalog: str | None) -> None:
    """Time a recorded run of ``games`` 3-player games and report its figures."""
    from imperial_lab.core.simulate import simulate

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(out or Path(tmp) / "runs" / f"bench-imperia-{bots}-{games}")
        catalog = catalog or Path(tmp) / "lab.duckdb"
        load = os.getloadavg()[0]
        start = time.perf_counter()
        result = simulate(folder, games=games, players=3, setup="default", bots=[bots] * 3, seed=1,
                          workers=workers, catalog=catalog, progress=False, game="imperia")
        seconds = time.perf_counter() - start
        print(f"imperial simulate --game imperia --players 3 --games {games} --bots {bots} --workers {workers}")
        print(f"  {result['games']} games ({result['failed']} failed) in {result['chunks']} chunks: {seconds:.1f} s, "
              f"{result['games'] / seconds:.0f} games/s (this call played {result['played_chunks']} chunks); "
              f"load average {load:.2f} before, {os.getloadavg()[0]:.2f} after; {os.cpu_count()} cores")
        print("  rows: " + ", ".join(f"{table} {n:,}" for table, n in result["rows"].items()))
        print("First-player advantage (the game is the unit):")
        print("\n".join(seat_advantage(catalog, result["run"])))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="heuristic-vs-random games per player count")
    parser.add_argument("--speed-games", type=int, default=300, help="games per speed measurement")
    parser.add_argument("--simulate", type=int, metavar="N", help="time a recorded run of N 3-player games instead")
    parser.add_argument("--workers", type=int, default=2, help="worker processes of --simulate (default 2)")
    parser.add_argument("--bots", default="random", help="the bot of every seat of --simulate (default random)")
    parser.add_argument("--out", help="--simulate's run folder (default: a temporary one)")
    parser.add_argument("--catalog", help="--simulate's catalogue (default: a temporary one)")
    args = parser.parse_args()
    if args.simulate:
        simulate_run(args.simulate, args.workers, args.bots, args.out, args.catalog)
        return
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
