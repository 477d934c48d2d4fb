"""Old engine against new, side by side: random 4-player games per second, in alternation.

    .venv/bin/python scripts/bench_engine.py                 # HEAD (a worktree in /tmp) vs this tree
    .venv/bin/python scripts/bench_engine.py --rev HEAD~3    # another revision as the old engine
    .venv/bin/python scripts/bench_engine.py --old /tmp/base # an existing checkout as the old engine

Each run is a fresh interpreter (``sys.path`` starts at its checkout, so the two engines' imports
never mix) that plays the same seeded games with ``imperial_lab.core.bots.make_bot("random", seed)`` and
``imperial_lab.core.play.play_game(config, bots, seed, record=False)``. Runs come in pairs, old and new, the
order swapped every pair so that a change of load on a shared machine hits both alike; the ratio
is taken per pair and its median printed. Each run first plays untimed games (``--warmup``): both
engines memoise army moves on the board, the new one more of them, and a batch of games runs
warm (``--warmup 0 --games 20`` shows the cold start). Per-call times (``imperial_lab.core.games.imperial2030.bench``) follow.
The machine's load average is printed too: other work on the machine slows both engines.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
try:
    from imperial_lab.core.games.imperial2030 import bench
except ImportError:  # engines from before the plug-in layout
    from imperial_lab.core import bench
from imperial_lab.core.bots import make_bot
from imperial_lab.core.play import play_game

games, players, seed, warmup, per_call = (int(x) for x in sys.argv[2:7])
config = {"game": "imperial2030", "players": players}
for k in range(warmup):  # imports, and the engines' memos of army moves
    play_game(config, [make_bot("random", 10**6 + k * 10 + p) for p in range(players)], 10**6 + k, record=False)
turns = decisions = 0
start = time.perf_counter()
for k in range(games):
    g = play_game(config, [make_bot("random", seed * 1000 + k * 10 + p) for p in range(players)], seed * 1000 + k,
                  record=False)
    turns += g.state.nation_turns
    decisions += g.decisions
out = {"secs": time.perf_counter() - start, "games": games, "turns": turns, "decisions": decisions}
if per_call:
    if hasattr(bench, "per_call"):  # best of 5 passes
        out["per_call_us"] = bench.per_call(seed, players)
    else:  # older engines: one pass of their private function, so the best of 5 calls
        runs = [bench._per_call(seed, players) for _ in range(5)]
        out["per_call_us"] = {key: min(r[key] for r in runs) for key in runs[0]}
print(json.dumps(out))
"""


def run(checkout: Path, games: int, players: int, seed: int, warmup: int, per_call: bool = False) -> dict:
    args = [sys.executable, "-c", CHILD, str(checkout), str(games), str(players), str(seed), str(warmup),
            str(int(per_call))]
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(args, cwd=checkout, env=env, capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"run in {checkout} failed:\n{done.stderr}")
    return json.loads(done.stdout)


def worktree(rev: str) -> Path:
    """A worktree of ``rev`` in /tmp (made once, reused while it exists)."""
    sha = subprocess.run(["git", "rev-parse", "--short", rev], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout.strip()
    path = Path(f"/tmp/bench_engine_{sha}")
    if not path.exists():
        subprocess.run(["git", "worktree", "add", "--detach", str(path), sha], cwd=ROOT, check=True,
                       capture_output=True)
    return path


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--old", type=Path, help="checkout of the old engine (default: a worktree of --rev)")
    ap.add_argument("--rev", default="HEAD", help="revision of the old engine when --old is not given")
    ap.add_argument("--new", type=Path, default=ROOT, help="checkout of the new engine (default: this tree)")
    ap.add_argument("--pairs", type=int, default=6)
    ap.add_argument("--games", type=int, default=50, help="games per run")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--warmup", type=int, default=20, help="games played before the timed ones, in each run")
    args = ap.parse_args(argv)
    old = args.old or worktree(args.rev)
    engines = {"old": old.resolve(), "new": args.new.resolve()}
    print(f"old: {engines['old']}\nnew: {engines['new']}")
    print(f"{args.pairs} pairs of runs, {args.games} random {args.players}-player games each (same seeds) after "
          f"{args.warmup} untimed ones; load average before: {load()}")
    rows = {"old": [], "new": []}
    ratios = []
    for k in range(args.pairs):
        order = ("old", "new") if k % 2 == 0 else ("new", "old")
        pair = {name: run(engines[name], args.games, args.players, args.seed + k, args.warmup) for name in order}
        for name in order:
            rows[name].append(pair[name])
        rate = {name: r["games"] / r["secs"] for name, r in pair.items()}
        ratios.append(rate["new"] / rate["old"])
        print(f"  pair {k + 1}: old {rate['old']:6.1f} games/s, new {rate['new']:6.1f} games/s, "
              f"ratio {ratios[-1]:.2f}  (load {load()})")
    print("median over the runs          games/s   nation turns/s   decisions/s")
    for name in ("old", "new"):
        games = statistics.median(r["games"] / r["secs"] for r in rows[name])
        turns = statistics.median(r["turns"] / r["secs"] for r in rows[name])
        decisions = statistics.median(r["decisions"] / r["secs"] for r in rows[name])
        print(f"  {name:28}{games:8.1f}   {turns:14,.0f}   {decisions:11,.0f}")
    print(f"median ratio new/old of the pairs: {statistics.median(ratios):.2f} "
          f"(min {min(ratios):.2f}, max {max(ratios):.2f}); load average after: {load()}")
    print("per call (µs, mean over the states of one game; imperial_lab.core.games.imperial2030.bench):")
    calls = {name: run(engines[name], 1, args.players, args.seed, args.warmup, per_call=True)["per_call_us"]
             for name in engines}
    for key in calls["new"]:
        if key != "states_measured":
            before = f"{calls['old'][key]:8.1f}" if key in calls["old"] else "       -"
            print(f"  {key:16} old {before}   new {calls['new'][key]:8.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
