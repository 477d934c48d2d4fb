"""Old engine against new, side by side: random games per second of every game, in alternation.

    .venv/bin/python scripts/bench_engine.py                 # HEAD (a worktree in /tmp) vs this tree
    .venv/bin/python scripts/bench_engine.py --rev 6634378   # another revision as the old engine
    .venv/bin/python scripts/bench_engine.py --old /tmp/base # an existing checkout as the old engine
    .venv/bin/python scripts/bench_engine.py --game imperia  # one game only

Each run is a fresh interpreter that imports ``imperial_lab`` from its own checkout (a folder of
symlinks, ``package_view``: the editable install would otherwise import this tree in both) and
plays the same seeded games with ``imperial_lab.core.bots.make_bot("random", seed)`` and
``imperial_lab.core.play.play_game(config, bots, seed, record=False)``. Runs come in pairs, old and
new, the order swapped every pair so that a change of load on a shared machine hits both alike;
the ratio is taken per pair and its median printed, per game. Each run first plays untimed games
(``--warmup``): the engines memoise moves on the board, and a batch of games runs warm
(``--warmup 0`` shows the cold start). Imperial 2030's per-call times
(``imperial_lab.core.games.imperial2030.bench``) follow. The machine's load average is printed
too: other work on the machine slows both engines.
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
GAMES = {"imperial2030": 50, "imperia": 200, "imperial_powers": 100}  # game -> games per run (a few seconds)

CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from imperial_lab.core.bots import make_bot
from imperial_lab.core.play import play_game

game, (games, players, seed, warmup, per_call) = sys.argv[2], (int(x) for x in sys.argv[3:8])
config = {"game": game, "players": players}


def bots(seed):
    return [make_bot("random", seed * 10 + p, game) for p in range(players)]


for k in range(warmup):  # imports, and the engines' memos
    play_game(config, bots(10**6 + k), 10**6 + k, record=False)
decisions = 0
start = time.perf_counter()
for k in range(games):
    decisions += play_game(config, bots(seed * 1000 + k), seed * 1000 + k, record=False).decisions
out = {"secs": time.perf_counter() - start, "games": games, "decisions": decisions}
if per_call:
    from imperial_lab.core.games.imperial2030 import bench
    out["per_call_us"] = bench.per_call(seed, players)
print(json.dumps(out))
"""


def run(view: Path, game: str, games: int, players: int, seed: int, warmup: int, per_call: bool = False) -> dict:
    args = [sys.executable, "-c", CHILD, str(view), game, str(games), str(players), str(seed), str(warmup),
            str(int(per_call))]
    env = {**os.environ, "PYTHONHASHSEED": "0", "IMPERIAL_LAB_HOME": str(view)}
    done = subprocess.run(args, cwd=view, env=env, capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"run in {view} failed:\n{done.stderr}")
    return json.loads(done.stdout)


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--old", type=Path, help="checkout of the old engine (default: a worktree of --rev)")
    ap.add_argument("--rev", default="HEAD", help="revision of the old engine when --old is not given")
    ap.add_argument("--new", type=Path, default=ROOT, help="checkout of the new engine (default: this tree)")
    ap.add_argument("--game", choices=sorted(GAMES), action="append", help="a game (default: all; may repeat)")
    ap.add_argument("--pairs", type=int, default=6)
    ap.add_argument("--games", type=int, help="games per run (default: a few seconds' worth per game)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--warmup", type=int, default=10, help="games played before the timed ones, in each run")
    args = ap.parse_args(argv)
    old = args.old or worktree(ROOT, args.rev)
    engines = {"old": old.resolve(), "new": args.new.resolve()}
    print(f"old: {engines['old']}\nnew: {engines['new']}")
    print(f"{args.pairs} pairs of runs per game, random {args.players}-player games (same seeds) after "
          f"{args.warmup} untimed ones; load average before: {load()}")
    with package_view(engines["old"]) as old_view, package_view(engines["new"]) as new_view:
        views = {"old": old_view, "new": new_view}
        for game in args.game or list(GAMES):
            games = args.games or GAMES[game]
            print(f"{game}: {games} games per run")
            rows: dict[str, list[dict]] = {"old": [], "new": []}
            ratios = []
            for k in range(args.pairs):
                order = ("old", "new") if k % 2 == 0 else ("new", "old")
                pair = {name: run(views[name], game, games, args.players, args.seed + k, args.warmup) for name in order}
                for name in order:
                    rows[name].append(pair[name])
                rate = {name: r["games"] / r["secs"] for name, r in pair.items()}
                ratios.append(rate["new"] / rate["old"])
                print(f"  pair {k + 1}: old {rate['old']:6.1f} games/s, new {rate['new']:6.1f} games/s, "
                      f"ratio {ratios[-1]:.2f}  (load {load()})")
            for name in ("old", "new"):
                per_s = statistics.median(r["games"] / r["secs"] for r in rows[name])
                decisions = statistics.median(r["decisions"] / r["secs"] for r in rows[name])
                print(f"  median {name}: {per_s:8.1f} games/s, {decisions:11,.0f} decisions/s")
            print(f"  {game}: median ratio new/old of the pairs {statistics.median(ratios):.2f} "
                  f"(min {min(ratios):.2f}, max {max(ratios):.2f}); load average {load()}")
        print("imperial2030 per call (µs, mean over the states of one game; imperial_lab.core.games.imperial2030.bench):")
        calls = {name: run(views[name], "imperial2030", 1, args.players, args.seed, args.warmup,
                           per_call=True)["per_call_us"] for name in views}
    for key in calls["new"]:
        if key != "states_measured":
            before = f"{calls['old'][key]:8.1f}" if key in calls["old"] else "       -"
            print(f"  {key:16} old {before}   new {calls['new'][key]:8.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
