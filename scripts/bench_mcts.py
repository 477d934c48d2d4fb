"""Win rate of one MCTS seat against default heuristic bots, seat rotated game by game.

    .venv/bin/python scripts/bench_mcts.py --games 24 --params playouts=100 [--params playouts=50 ...]
        [--players 4] [--seed 0] [--first 0] [--out runs.jsonl]

For each ``--params`` (a budget point, ``key=value,key=value``) it plays ``--games`` games numbered
from ``--first`` (so one point can be split over processes and its --out files joined): game g
puts the mcts bot (seed 1000 + g) in seat g mod players and ``make_bot("heuristic", seed)`` bots
in the others, chance from seed ``seed + g``. It prints one line per game and, per point, the wins,
the win rate with its 95% Wilson interval, wall and CPU seconds (``time.process_time``: the cost
whatever else the machine runs) and playouts per mcts decision (decisions with
one legal action are not searched and are counted apart), decisions/s and playouts/s, and the
machine load (``os.getloadavg``) before and after. ``--out`` appends one JSON line per game;
``--summarise FILE`` prints the per-point summaries of such a file (e.g. of a run stopped early).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from imperial_lab.core.bots import make_bot  # noqa: E402
from imperial_lab.core.stats import wilson  # noqa: E402
from imperial_lab.core.play import play_game  # noqa: E402


class Timed:
    """Wraps the mcts bot: counts searched decisions, playouts and time."""

    def __init__(self, bot):
        self.bot = bot
        self.searched = self.single = self.playouts = 0
        self.seconds = self.cpu = 0.0

    def decide(self, state, legal_actions):
        if len(legal_actions) == 1:
            self.single += 1
            return legal_actions[0]
        t, c = time.perf_counter(), time.process_time()
        action = self.bot.decide(state, legal_actions)
        self.seconds += time.perf_counter() - t
        self.cpu += time.process_time() - c  # what the search costs whatever else the machine runs
        self.searched += 1
        self.playouts += self.bot.last_playouts
        return action


def parse_params(text: str) -> dict:
    params = {}
    for part in filter(None, text.split(",")):
        key, _, value = part.partition("=")
        params[key.strip()] = value.strip()
    return params


def run_point(params: dict, games: range, players: int, seed: int, out) -> dict:
    load0 = os.getloadavg()
    wins = shared = 0
    searched = playouts = 0
    seconds = cpu = 0.0
    start = time.perf_counter()
    for g in games:
        seat = g % players
        mcts = Timed(make_bot(":".join(["mcts"] + [f"{k}={v}" for k, v in params.items()]), 1000 + g))
        bots = [mcts if p == seat else make_bot("heuristic", 100 * g + p) for p in range(players)]
        t = time.perf_counter()
        played = play_game({"game": "imperial2030", "players": players}, bots, seed + g, record=False)
        won = played.state.winners()
        wins += seat in won
        shared += seat in won and len(won) > 1
        searched += mcts.searched
        playouts += mcts.playouts
        seconds += mcts.seconds
        cpu += mcts.cpu
        row = {"params": params, "game": g, "seat": seat, "winners": won, "returns": played.state.returns(),
               "searched": mcts.searched, "single": mcts.single, "playouts": mcts.playouts,
               "mcts_seconds": round(mcts.seconds, 3), "mcts_cpu_seconds": round(mcts.cpu, 3),
               "game_seconds": round(time.perf_counter() - t, 3)}
        print(json.dumps(row), flush=True)
        if out:
            out.write(json.dumps(row) + "\n")
            out.flush()
    lo, hi = wilson(round(wins), len(games))  # a shared win counts as a win
    summary = {
        "params": params, "games": len(games), "wins": wins, "shared_wins": shared,
        "win_rate": wins / len(games),
        "wilson95": [round(lo, 3), round(hi, 3)], "s_per_decision": seconds / max(searched, 1),
        "cpu_s_per_decision": cpu / max(searched, 1),
        "playouts_per_decision": playouts / max(searched, 1), "decisions_per_s": searched / max(seconds, 1e-9),
        "playouts_per_s": playouts / max(seconds, 1e-9), "searched_decisions": searched,
        "wall_seconds": round(time.perf_counter() - start, 1), "load_before": load0, "load_after": os.getloadavg(),
    }
    print("SUMMARY " + json.dumps(summary), flush=True)
    return summary


def summarise(path: str) -> None:
    """Per budget point of a --out file: games, wins, Wilson interval, cost per searched decision."""
    points: dict = {}
    with open(path) as f:
        for line in f:
            row = json.loads(line)
            points.setdefault(json.dumps(row["params"], sort_keys=True), []).append(row)
    for key, rows in points.items():
        games = len(rows)
        wins = sum(r["seat"] in r["winners"] for r in rows)
        searched = sum(r["searched"] for r in rows)
        playouts = sum(r["playouts"] for r in rows)
        seconds = sum(r["mcts_seconds"] for r in rows)
        timed = [r for r in rows if "mcts_cpu_seconds" in r]  # older files have wall time only
        cpu = sum(r["mcts_cpu_seconds"] for r in timed) / max(sum(r["searched"] for r in timed), 1) if timed else None
        lo, hi = wilson(round(wins), games)  # a shared win counts as a win
        print("SUMMARY " + json.dumps({
            "params": json.loads(key), "games": games, "wins": wins, "win_rate": round(wins / games, 3),
            "wilson95": [round(lo, 3), round(hi, 3)], "s_per_decision": round(seconds / max(searched, 1), 3),
            "cpu_s_per_decision": None if cpu is None else round(cpu, 3),
            "playouts_per_decision": round(playouts / max(searched, 1), 1),
            "decisions_per_s": round(searched / max(seconds, 1e-9), 2),
            "playouts_per_s": round(playouts / max(seconds, 1e-9), 1), "searched_decisions": searched,
            "mcts_seconds": round(seconds, 1)}))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=24)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--first", type=int, default=0, help="number of the first game")
    ap.add_argument("--params", action="append", default=None, help="a budget point, e.g. playouts=100,depth=40")
    ap.add_argument("--out", default=None, help="append one JSON line per game to this file")
    ap.add_argument("--summarise", default=None, help="summarise the games of a --out file and stop")
    args = ap.parse_args(argv)
    if args.summarise:
        summarise(args.summarise)
        return 0
    out = open(args.out, "a") if args.out else None
    for text in args.params or ["playouts=100"]:
        run_point(parse_params(text), range(args.first, args.first + args.games), args.players, args.seed, out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
