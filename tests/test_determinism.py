"""Determinism (STYLE.md (b)17-18): the same seed and bots give the same game, byte for byte, in
every game and with every kind of seeded bot.

Chance comes from ``random.Random(seed)`` and each bot from its own seeded generator; no state
holds a generator. The move log (JSON Lines, ``imperial_lab.core.gamelog``) and the final position document
must be identical between two runs in this process and in a fresh interpreter with another hash
seed (which would expose any dependence on set or dict-of-set iteration order).
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from imperial_lab.core.bots import make_bot
from imperial_lab.core.gamelog import write_log
from imperial_lab.core.play import play_game

ROOT = Path(__file__).resolve().parents[1]
CASES = [  # (config, seed, bot)
    ({"game": "imperial2030", "players": 2, "setup": "standard"}, 17, "random"),
    ({"game": "imperial2030", "players": 4, "setup": "variant"}, 23, "random"),
    ({"game": "imperial2030", "players": 6, "setup": "standard"}, 31, "random"),
    ({"game": "imperial2030", "players": 3, "setup": "standard"}, 41, "heuristic"),
    ({"game": "imperia", "players": 3}, 17, "random"),
    ({"game": "imperia", "players": 2}, 43, "heuristic"),
    ({"game": "imperial_powers", "players": 4}, 19, "random"),
    ({"game": "imperial_powers", "players": 3, "power_assignment": "random"}, 47, "heuristic"),
]


def run(config: dict, seed: int, bot: str) -> tuple[str, str]:
    """(move log, final position document) of one seeded game, both as text."""
    players = config["players"]
    played = play_game(config, [make_bot(bot, seed * 10 + p, config["game"]) for p in range(players)], seed)
    log = io.StringIO()
    write_log(log, played, seed=seed, bots=[bot] * players)
    return log.getvalue(), json.dumps(played.state.to_json(), sort_keys=True)


@pytest.mark.parametrize("config, seed, bot", CASES, ids=[f"{c['game']}-{c['players']}p-{b}" for c, _, b in CASES])
def test_same_seed_same_game(config, seed, bot):
    first, second = run(config, seed, bot), run(config, seed, bot)
    assert first[0] == second[0], "the move logs differ"
    assert first[1] == second[1], "the final positions differ"


@pytest.mark.parametrize("game", ["imperial2030", "imperia", "imperial_powers"])
def test_another_seed_another_game(game):
    config = {"game": game, "players": 4}
    assert run(config, 1, "random")[0] != run(config, 2, "random")[0]


def test_same_game_in_a_fresh_interpreter_with_another_hash_seed():
    code = ("import json, sys; from tests.test_determinism import CASES, run; "
            "json.dump([run(*case) for case in CASES], sys.stdout)")
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == [list(run(*case)) for case in CASES]
