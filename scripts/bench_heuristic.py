"""Benchmark of the heuristic bot (a measurement script, not a test); prints its figures.

    .venv/bin/python scripts/bench_heuristic.py [--games 400] [--seed 1] [--workers 2] [--bot SPEC]

``--bot`` is the bot spec measured (default ``heuristic``, at its default temperature; e.g.
``heuristic:temperature=0`` for the deterministic bot). The load average is printed first: the
figures of a shared machine are slower, never different (games are seeded).

1. 4-player games, one heuristic seat against three random seats, the heuristic seat rotating
   0,1,2,3: the heuristic's win rate with a 95% Wilson interval (the game is the unit). A shared
   win (§10: still tied after every tie-break) counts as a win.
2. 4-player games of four heuristic bots: wins by seat (shared wins count for every sharer).
3. Speed of the heuristic games of part 2: games/s (CPU time of the playing processes, and wall
   time), decisions and nation turns per game, and the bot's share of the time.
"""

from __future__ import annotations

import argparse
import os
import time
from functools import partial
from multiprocessing import Pool


from imperial_lab.core.bots import RandomBot, canonical_spec, make_bot
from imperial_lab.core.play import play_game
from imperial_lab.core.stats import wilson

CONFIG = {"game": "imperial2030", "players": 4}


class _Timed:
    """Wraps a bot and adds up the CPU time its decisions take."""

    def __init__(self, bot):
        self.bot, self.seconds = bot, 0.0

    def decide(self, state, legal):
        start = time.process_time()
        action = self.bot.decide(state, legal)
        self.seconds += time.process_time() - start
        return action


def _against_random(k: int, seed: int, spec: str) -> bool:
    seat = k % 4
    bots = [make_bot(spec, seed * 100_000 + k * 10 + p) if p == seat else RandomBot(seed * 100_000 + k * 10 + p)
            for p in range(4)]
    return seat in play_game(CONFIG, bots, seed * 100_000 + k, record=False).state.winners()


def _self_play(k: int, seed: int, spec: str) -> tuple[list[int], int, int, float, float]:
    bots = [_Timed(make_bot(spec, seed * 100_000 + k * 10 + p)) for p in range(4)]
    start = time.process_time()
    played = play_game(CONFIG, bots, seed * 100_000 + k, record=False)
    cpu = time.process_time() - start
    return played.state.winners(), played.decisions, played.state.nation_turns, cpu, sum(b.seconds for b in bots)


def _run(pool, fn, games: int, seed: int) -> tuple[list, float]:
    start = time.perf_counter()
    results = pool.starmap(fn, [(k, seed) for k in range(games)], chunksize=8)
    return results, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per part (default 400)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--bot", default="heuristic", help="the bot spec measured (default heuristic)")
    args = parser.parse_args()
    spec = canonical_spec(args.bot, "--bot")
    print("load average (1, 5, 15 min): " + ", ".join(f"{x:.2f}" for x in os.getloadavg()))
    with Pool(args.workers) as pool:
        wins, wall = _run(pool, partial(_against_random, spec=spec), args.games, args.seed)
        won = sum(wins)
        lo, hi = wilson(won, args.games)
        print(f"1. {spec} vs 3 random, {args.games} 4-player games (seat rotating; a shared win counts): "
              f"won {won} = {won / args.games:.1%} (95% CI {lo:.1%}-{hi:.1%}); {wall:.0f} s wall")

        rows, wall = _run(pool, partial(_self_play, spec=spec), args.games, args.seed)
    by_seat = [sum(p in r[0] for r in rows) for p in range(4)]
    shared = sum(len(r[0]) > 1 for r in rows)
    print(f"2. four {spec} bots, {args.games} games: wins by seat " +
          ", ".join(f"{p}: {w} ({w / args.games:.1%})" for p, w in enumerate(by_seat)) +
          f"; shared wins {shared}")
    decisions = sum(r[1] for r in rows)
    turns = sum(r[2] for r in rows)
    cpu = sum(r[3] for r in rows)
    bot = sum(r[4] for r in rows)
    print(f"3. heuristic games: {args.games / cpu:.1f} games/s per core (CPU time), "
          f"{args.games / wall:.1f} games/s wall with {args.workers} workers; "
          f"{decisions / args.games:.0f} decisions and {turns / args.games:.0f} nation turns per game; "
          f"bot {bot / decisions * 1e6:.0f} µs per decision ({bot / cpu:.0%} of the CPU time)")


if __name__ == "__main__":
    main()
