"""How well the evaluator tells the moves of one position apart, against rollouts to the end
(docs/search.md, "Why rollouts").

Positions are taken from heuristic games of Imperial 2030 (decisions with 2-8 legal moves, about one
in 25). For each, every legal move is played on ``--rollouts`` times with common random numbers
(rollout k of every move from one seed): to the end of the game (the seat's win share, the *truth*),
and to the evaluator's next checkpoint and through four checkpoints (the model's chance then). The
rollouts are split in two halves: the moves chosen on the first half (by the truth, by each evaluator
reading, and the heuristic's move) are scored on the second half by how much win share they give up
against the second half's best move (the *regret*, lower is better). Prints one JSON line per
position and a summary: mean regrets with their standard errors, and the correlation of each
evaluator reading with the truth across a position's moves.

    .venv/bin/python scripts/move_values.py --positions 40 --rollouts 64 --seed 500
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from threadpoolctl import threadpool_limits  # noqa: E402

from imperial_lab.core.bots import make_bot  # noqa: E402
from imperial_lab.core.evaluator import game_part, heuristic_policy, judge, play_on  # noqa: E402
from imperial_lab.core.interface import make_game  # noqa: E402
from imperial_lab.core.mcts import applier, sample_chance  # noqa: E402

GAME = "imperial2030"
READINGS = {"truth": 0, "model, next checkpoint": 1, "model, four checkpoints": 4}


def positions(count: int, seed: int) -> list:
    part, found = game_part(GAME), []
    for g in range(seed, seed + 1000):
        state = make_game({"game": GAME, "players": 4}).new_initial_state()
        state.recording = False
        bots = [make_bot("heuristic", 100 * g + p, game=GAME) for p in range(4)]
        rng, apply = random.Random(g), applier(state)
        while not state.is_terminal():
            if state.is_chance_node():
                apply(state, sample_chance(state, rng))
                continue
            legal = state.legal_actions()
            if 2 <= len(legal) <= 8 and part.started(state) and rng.random() < 0.04:
                found.append(state.clone())
            apply(state, bots[state.current_player()].decide(state, legal))
        if len(found) >= count:
            return found[:count]
    return found


def values(state, rollouts: int, salt: int) -> dict:
    """Each reading's result of every rollout of every move: {reading: array (moves, rollouts)}."""
    me, legal = state.current_player(), state.legal_actions()
    out = {name: np.zeros((len(legal), rollouts)) for name in READINGS}
    for k in range(rollouts):
        for i, action in enumerate(legal):
            for name, turns in READINGS.items():
                rng = random.Random(f"{salt}:{k}")
                end = play_on(state.clone(), action, heuristic_policy(state, rng), rng, turns)
                if turns:
                    out[name][i, k] = judge(state, [end])[0]
                else:
                    won = end.winners()
                    out[name][i, k] = 1 / len(won) if me in won else 0.0
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--rollouts", type=int, default=64, help="per move, split in two halves")
    ap.add_argument("--seed", type=int, default=500, help="of the first heuristic game")
    args = ap.parse_args(argv)
    half = args.rollouts // 2
    regrets: dict = {name: [] for name in [*READINGS, "heuristic"]}
    correlations: dict = {name: [] for name in READINGS if name != "truth"}
    with threadpool_limits(limits=1, user_api="blas"):
        for p, state in enumerate(positions(args.positions, args.seed)):
            legal = state.legal_actions()
            got = values(state, 2 * half, p)
            held = got["truth"][:, half:].mean(axis=1)
            picks = {name: int(got[name][:, :half].mean(axis=1).argmax()) for name in READINGS}
            picks["heuristic"] = legal.index(heuristic_policy(state, random.Random(p))(state))
            row = {"position": p, "moves": len(legal), "round": state.round}
            for name, i in picks.items():
                regrets[name].append(float(held.max() - held[i]))
                row[name] = round(regrets[name][-1], 4)
            truth = got["truth"].mean(axis=1)
            for name in correlations:
                if truth.std() > 0 and got[name].mean(axis=1).std() > 0:
                    correlations[name].append(float(np.corrcoef(truth, got[name].mean(axis=1))[0, 1]))
            print(json.dumps(row), flush=True)
    summary = {f"regret, {name}": [round(statistics.mean(r), 4), round(statistics.stdev(r) / len(r) ** 0.5, 4)]
               for name, r in regrets.items()}
    summary |= {f"correlation with the truth, {name}": round(statistics.mean(c), 3) for name, c in correlations.items()}
    print("SUMMARY " + json.dumps(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
