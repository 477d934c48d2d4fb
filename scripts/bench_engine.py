"""Old engine against new, side by side: random games of every game, the two engines in alternation.

    .venv/bin/python scripts/bench_engine.py                 # HEAD (a worktree in /tmp) vs this tree
    .venv/bin/python scripts/bench_engine.py --rev 6634378   # another revision as the old engine
    .venv/bin/python scripts/bench_engine.py --old /tmp/base # an existing checkout as the old engine
    .venv/bin/python scripts/bench_engine.py --game imperia  # one game only
    .venv/bin/python scripts/bench_engine.py --bot mcts:playouts=8 --games 4   # a search seat: search's cost

Each engine runs in a process of its own that imports ``imperial_lab`` from its checkout (a folder
of symlinks, ``package_view``: the editable install would otherwise import this tree in both; so the
old engine is a revision of the one-package layout, e03ce72 or later) and, after ``--warmup``
untimed games (imports, the engines' memos of moves on the board), plays the
seeded games it is sent one at a time with ``imperial_lab.core.bots.make_bot("random", seed)`` (seat 0:
``--bot``, random unless given) and ``imperial_lab.core.play.play_game(config, bots, seed, record=False)``, answering with the
processor time (``process_time``: what the game cost, whatever else the machine runs) and the wall
time it took. The two processes get the same games in alternation, game by game, the one going first
swapped every game, so that a change of load on a shared machine hits both alike. The games come in
``--blocks`` of ``--games``; the speed ratio new/old of each block is the old engine's processor time
over the new one's, and the median over the blocks is printed per game. Imperial 2030's per-call
times (``imperial_lab.core.games.imperial2030.bench``, best of five runs of each engine in
alternation) follow. The load average is printed too.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from package_view import package_view, worktree  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
GAMES = {"imperial2030": 20, "imperia": 80, "imperial_powers": 40}  # game -> games per block (about a second)

ENGINE = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from imperial_lab.core.bots import make_bot
from imperial_lab.core.play import play_game

game, players, warmup, first = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
config = {"game": game, "players": players}


def play(seed):
    specs = [first] + ["random"] * (players - 1)
    return play_game(config, [make_bot(spec, seed * 10 + p, game) for p, spec in enumerate(specs)], seed,
                     record=False)


for k in range(warmup):
    play(10**6 + k)
print("ready", flush=True)
for line in sys.stdin:
    start, cpu = time.perf_counter(), time.process_time()
    decisions = play(int(line)).decisions
    print(json.dumps({"cpu": time.process_time() - cpu, "secs": time.perf_counter() - start,
                      "decisions": decisions}), flush=True)
"""

PER_CALL = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
from imperial_lab.core.games.imperial2030 import bench
print(json.dumps(bench.per_call(int(sys.argv[2]), int(sys.argv[3]))))
"""


class Engine:
    """One engine's process: ``play(seed)`` -> {"cpu", "secs", "decisions"} of that game."""

    def __init__(self, view: Path, game: str, players: int, warmup: int, first: str):
        env = {**os.environ, "PYTHONHASHSEED": "0", "IMPERIAL_LAB_HOME": str(view)}
        self.process = subprocess.Popen([sys.executable, "-c", ENGINE, str(view), game, str(players), str(warmup),
                                         first],
                                        cwd=view, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        if self.process.stdout.readline().strip() != "ready":
            sys.exit(f"the engine in {view} did not start")

    def play(self, seed: int) -> dict:
        self.process.stdin.write(f"{seed}\n")
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline())

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait()


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def compare(views: dict, game: str, args) -> float:
    """Play the blocks of ``game`` on both engines in alternation; print and return the median ratio."""
    games = args.games or GAMES[game]
    lineup = "random" if args.bot == "random" else f"{args.bot} and random"
    print(f"{game}: {args.blocks} blocks of {games} {args.players}-player games of {lineup} bots (load {load()})")
    engines = {name: Engine(view, game, args.players, args.warmup, args.bot) for name, view in views.items()}
    ratios = []
    try:
        for block in range(args.blocks):
            total = {name: {"cpu": 0.0, "secs": 0.0, "decisions": 0} for name in engines}
            for k in range(games):
                seed = args.seed * 100_000 + block * games + k
                for name in (("old", "new") if k % 2 == 0 else ("new", "old")):
                    for key, value in engines[name].play(seed).items():
                        total[name][key] += value
            assert total["old"]["decisions"] == total["new"]["decisions"], "the engines played different games"
            ratios.append(total["old"]["cpu"] / total["new"]["cpu"])
            rate = {name: games / t["cpu"] for name, t in total.items()}
            print(f"  block {block + 1}: old {rate['old']:7.1f}, new {rate['new']:7.1f} games per CPU-second, "
                  f"ratio {ratios[-1]:.2f} (load {load()})")
    finally:
        for engine in engines.values():
            engine.close()
    median = statistics.median(ratios)
    print(f"  {game}: median ratio new/old {median:.2f} (min {min(ratios):.2f}, max {max(ratios):.2f})")
    return median


def per_call(view: Path, args) -> dict:
    env = {**os.environ, "PYTHONHASHSEED": "0", "IMPERIAL_LAB_HOME": str(view)}
    done = subprocess.run([sys.executable, "-c", PER_CALL, str(view), str(args.seed), str(args.players)],
                          cwd=view, env=env, capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"per-call times in {view} failed:\n{done.stderr}")
    return json.loads(done.stdout)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--old", type=Path, help="checkout of the old engine (default: a worktree of --rev)")
    ap.add_argument("--rev", default="HEAD", help="revision of the old engine when --old is not given")
    ap.add_argument("--new", type=Path, default=ROOT, help="checkout of the new engine (default: this tree)")
    ap.add_argument("--game", choices=sorted(GAMES), action="append", help="a game (default: all; may repeat)")
    ap.add_argument("--blocks", type=int, default=10)
    ap.add_argument("--games", type=int, help="games per block (default: about a second's worth per game)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--warmup", type=int, default=10, help="untimed games each engine plays first")
    ap.add_argument("--bot", default="random", help="seat 0's bot, e.g. mcts:playouts=8 (the others: random)")
    ap.add_argument("--no-per-call", dest="per_call", action="store_false", help="skip Imperial 2030's per-call times")
    args = ap.parse_args(argv)
    old = args.old or worktree(ROOT, args.rev)
    checkouts = {"old": old.resolve(), "new": args.new.resolve()}
    print(f"old: {checkouts['old']}\nnew: {checkouts['new']}\nload average before: {load()}")
    with package_view(checkouts["old"]) as old_view, package_view(checkouts["new"]) as new_view:
        views = {"old": old_view, "new": new_view}
        medians = {game: compare(views, game, args) for game in args.game or list(GAMES)}
        runs: dict[str, list[dict]] = {"old": [], "new": []}
        for k in range(5 if args.per_call else 0):  # in alternation; each key's best of the runs (a pass is easily interrupted)
            for name in (("old", "new") if k % 2 == 0 else ("new", "old")):
                runs[name].append(per_call(views[name], args))
        calls = {name: {key: min(r[key] for r in found) for key in found[0]} for name, found in runs.items() if found}
    print("median ratios new/old: " + ", ".join(f"{game} {m:.2f}" for game, m in medians.items())
          + f"; load average after: {load()}")
    if not args.per_call:
        return 0
    print("imperial2030 per call (µs, mean over the states of one game, best of 5 runs in alternation; "
          "imperial_lab.core.games.imperial2030.bench):")
    for key in calls["new"]:
        if key != "states_measured":
            before = f"{calls['old'][key]:8.1f}" if key in calls["old"] else "       -"
            print(f"  {key:16} old {before}   new {calls['new'][key]:8.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
