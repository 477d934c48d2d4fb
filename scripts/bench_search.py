"""Strength and cost of the bots on the learned evaluator (``greedy``, ``search``) against other bots,
seats rotated game by game (docs/search.md, "The search bot").

    .venv/bin/python scripts/bench_search.py --game imperial2030 --lineup search,search,mcts:playouts=128,mcts:playouts=128 \\
        --games 200 --workers 2 --out s2v2.jsonl
    .venv/bin/python scripts/bench_search.py --summarise s2v2.jsonl
    .venv/bin/python scripts/bench_search.py --game imperial2030 --profile search:seconds=0.5 --games 10

Game g turns the line-up by g seats (seat p gets ``lineup[(p + g) % n]``), so every entrant plays
every seat equally often; chance comes from seed ``seed + g`` and each bot from ``1000 * g + p``.
The *focus* bot (the line-up's first spec, or ``--focus``) wins a game when one of its seats is
among the winners (a shared win counts). Per game one JSON line: the seats, winners, and per
entrant the searched decisions (more than one legal action), CPU seconds (``time.process_time``
of this process: the cost whatever else runs) and wall seconds spent deciding, and the CPU
milliseconds of each searched decision. The summary gives the focus bot's wins, its win rate with the
95% Wilson interval against par (its seats / players), each entrant's CPU seconds per searched
decision (the mean) and their median, 95th and 99th percentile and maximum, and the load
(``os.getloadavg``) before and after. ``--summarise FILE`` reads each row's specs as ``--game``
spells them now, so the rows of one bot written before one of its defaults changed count as its.
``--profile SPEC`` times SPEC's decisions on positions of a heuristic game (CPU seconds a decision,
the best of three a position), then runs cProfile over them and prints the shares of its time: the
evaluator (features, model, numpy), the tree (core/mcts.py), the heuristic (the prior and the
playouts to the next checkpoint) and the engine (the rules, clones).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from threadpoolctl import threadpool_limits  # noqa: E402

from imperial_lab.core.bots import canonical_spec, make_bot, parse_bot_list  # noqa: E402
from imperial_lab.core.play import play_game  # noqa: E402
from imperial_lab.core.stats import wilson  # noqa: E402


class Timed:
    """Wraps a bot: counts its searched decisions and their CPU and wall time."""

    def __init__(self, bot):
        self.bot = bot
        self.searched = 0
        self.cpu = self.wall = 0.0
        self.each: list[float] = []  # CPU milliseconds of each searched decision, for percentiles

    def decide(self, state, legal_actions):
        if len(legal_actions) == 1:
            return legal_actions[0]
        t, c = time.perf_counter(), time.process_time()
        action = self.bot.decide(state, legal_actions)
        self.wall += time.perf_counter() - t
        cpu = time.process_time() - c
        self.cpu += cpu
        self.each.append(round(cpu * 1000, 2))
        self.searched += 1
        return action


def play(task: tuple) -> dict:
    game, players, lineup, focus, seed, g = task
    n = len(lineup)
    specs = [lineup[(p + g) % n] for p in range(n)]
    bots = [Timed(make_bot(spec, 1000 * g + p, game=game)) for p, spec in enumerate(specs)]
    start = time.perf_counter()
    played = play_game({"game": game, "players": players}, bots, seed + g, record=False)
    cost: dict = {}
    for spec, bot in zip(specs, bots):
        entry = cost.setdefault(spec, {"searched": 0, "cpu": 0.0, "wall": 0.0, "cpu_ms": []})
        entry["searched"] += bot.searched
        entry["cpu_ms"] += bot.each
        entry["cpu"] = round(entry["cpu"] + bot.cpu, 4)
        entry["wall"] = round(entry["wall"] + bot.wall, 4)
    return {"game": g, "focus": focus, "seats": specs, "winners": played.state.winners(), "returns": played.state.returns(),
            "decisions": played.decisions, "cost": cost, "seconds": round(time.perf_counter() - start, 2)}


def canonical_row(row: dict, game: str) -> dict:
    """A game's row with every bot spec as its game spells it now: a row written before a default
    changed (``rollout:playouts=80`` before 80 became the default) joins the rows of the same bot."""
    same = {spec: canonical_spec(spec, "a row's bot", game) for spec in {row["focus"], *row["seats"], *row["cost"]}}
    return {**row, "focus": same[row["focus"]], "seats": [same[s] for s in row["seats"]],
            "cost": {same[spec]: c for spec, c in row["cost"].items()}}


def summarise(rows: list[dict], focus: str) -> dict:
    games = len(rows)
    wins = sum(any(r["seats"][p] == focus for p in r["winners"]) for r in rows)
    seats = rows[0]["seats"].count(focus) if rows else 0
    lo, hi = wilson(wins, games)
    entrants: dict = {}
    for r in rows:
        for spec, c in r["cost"].items():
            e = entrants.setdefault(spec, {"searched": 0, "cpu": 0.0, "wall": 0.0, "cpu_ms": []})
            for key in e:
                e[key] += c.get(key, []) if key == "cpu_ms" else c[key]  # rows before the list had none
    cost = {spec: {"cpu_s_per_decision": round(e["cpu"] / max(e["searched"], 1), 4),
                   "wall_s_per_decision": round(e["wall"] / max(e["searched"], 1), 4),
                   "searched_per_game": round(e["searched"] / max(games, 1), 1),
                   **percentiles(e["cpu_ms"])} for spec, e in entrants.items()}
    return {"focus": focus, "games": games, "wins": wins, "win_rate": round(wins / max(games, 1), 4),
            "wilson95": [round(lo, 4), round(hi, 4)], "par": round(seats / len(rows[0]["seats"]), 4) if rows else None,
            "cost": cost, "decisions_per_game": round(sum(r["decisions"] for r in rows) / max(games, 1), 1)}


def percentiles(cpu_ms: list[float]) -> dict:
    """The median, 95th and 99th percentile and the maximum of the CPU milliseconds of the searched
    decisions (empty for rows written before they were recorded)."""
    if not cpu_ms:
        return {}
    ranked = sorted(cpu_ms)
    return {f"cpu_ms_p{q}": ranked[min(len(ranked) - 1, q * len(ranked) // 100)] for q in (50, 95, 99)} | {
        "cpu_ms_max": ranked[-1]}


def shares_of(stats) -> dict:
    """Where a bot's time goes, from cProfile's statistics: the evaluator (the cumulative time of the
    features and the model), the heuristic (of its ``decide``: the prior and the playouts to the next
    checkpoint), the tree (the search's own code: core/mcts.py, core/rollout.py) and the engine with
    the rest (the rules, clones, redeals, builtins)."""
    total = sum(entry[2] for entry in stats.values())
    parts = {"evaluator": 0.0, "heuristic": 0.0, "tree": 0.0}
    for (filename, _, function), (_, _, tottime, cumtime, _) in stats.items():
        if filename.endswith("evaluator.py") and function in ("features", "logits"):
            parts["evaluator"] += cumtime
        elif filename.endswith("heuristic.py") and function == "decide":
            parts["heuristic"] += cumtime
        elif filename.endswith(("mcts.py", "rollout.py")):
            parts["tree"] += tottime
    parts["engine and the rest"] = max(total - sum(parts.values()), 0.0)
    return {k: round(v / (total or 1.0), 3) for k, v in parts.items()}


def profile(game: str, spec: str, players: int, positions: int, seed: int) -> dict:
    """cProfile of ``spec`` deciding ``positions`` positions of a heuristic game: shares of the
    evaluator, heuristic, tree and engine in the bot's time (``shares_of``)."""
    import cProfile
    import pstats

    found = []

    def keep(state, player, action, events):
        if not state.is_terminal() and not state.is_chance_node() and len(state.legal_actions()) > 1:
            found.append(state.clone())

    bots = [make_bot("heuristic", seed * 10 + p, game=game) for p in range(players)]
    play_game({"game": game, "players": players}, bots, seed, record=False, on_step=keep)
    chosen = found[len(found) // 4: 3 * len(found) // 4: max(1, len(found) // (2 * positions))][:positions]
    bot = make_bot(spec, seed, game=game)
    bot.decide(chosen[0], chosen[0].legal_actions())  # load the model outside the profile
    # the cost without the profiler's overhead: per position the best of three fresh bots (a shared
    # machine only ever adds time), so that two checkouts run alternately compare as a ratio
    best = [min(_cpu(make_bot(spec, seed, game=game), state) for _ in range(3)) for state in chosen]
    prof = cProfile.Profile()
    start = time.process_time()
    prof.enable()
    for state in chosen:
        bot.decide(state, state.legal_actions())
    prof.disable()
    cpu = time.process_time() - start
    shares = shares_of(pstats.Stats(prof).stats)
    return {"game": game, "spec": spec, "positions": len(chosen), "cpu_s_per_decision": round(sum(best) / len(chosen), 4),
            "profiled_cpu_s_per_decision": round(cpu / len(chosen), 4), "shares": shares}


def _cpu(bot, state) -> float:
    start = time.process_time()
    bot.decide(state.clone(), state.legal_actions())
    return time.process_time() - start


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="imperial2030")
    ap.add_argument("--lineup", help="one bot spec per seat, comma-separated")
    ap.add_argument("--players", type=int, help="default: the line-up's length")
    ap.add_argument("--focus", help="the entrant whose wins count (default: the line-up's first)")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--first", type=int, default=0, help="number of the first game")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--out", help="append one JSON line per game to this file")
    ap.add_argument("--summarise", metavar="FILE", help="summarise a --out file and stop")
    ap.add_argument("--profile", metavar="SPEC", help="profile SPEC on --games positions of a heuristic game and stop")
    args = ap.parse_args(argv)
    if args.profile:
        print(json.dumps(profile(args.game, args.profile, args.players or 4, args.games, args.seed)))
        return 0
    if args.summarise:
        rows = [canonical_row(json.loads(line), args.game)
                for line in Path(args.summarise).read_text().splitlines() if line.strip()]
        print(json.dumps(summarise(rows, canonical_spec(args.focus, "--focus", args.game) if args.focus
                                   else rows[0]["focus"])))
        return 0
    lineup = parse_bot_list(args.lineup, game=args.game)
    focus = args.focus or lineup[0]
    players = args.players or len(lineup)
    tasks = [(args.game, players, lineup, focus, args.seed, g) for g in range(args.first, args.first + args.games)]
    load0 = os.getloadavg()
    out = open(args.out, "a") if args.out else None
    rows = []
    # One BLAS thread a process: the evaluator's products are small, and two threads in each of two
    # workers would only fight over the two cores (the workers inherit the limit when forked).
    with threadpool_limits(limits=1, user_api="blas"), multiprocessing.get_context("fork").Pool(args.workers) as pool:
        for row in pool.imap_unordered(play, tasks):
            rows.append(row)
            line = json.dumps(row)
            print(line, flush=True)
            if out:
                out.write(line + "\n")
                out.flush()
    print("SUMMARY " + json.dumps({**summarise(rows, focus), "load_before": load0, "load_after": os.getloadavg()}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
