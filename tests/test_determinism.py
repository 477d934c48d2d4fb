"""Determinism (STYLE.md (b)17-18): the same seed and bots give the same game, byte for byte.

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

from imperial_lab.core.bots import RandomBot
from imperial_lab.core.gamelog import write_log
from imperial_lab.core.play import play_game

ROOT = Path(__file__).resolve().parents[1]
CASES = [(2, "standard", 17), (4, "variant", 23), (6, "standard", 31)]


def run(players: int, setup: str, seed: int) -> tuple[str, str]:
    """(move log, final position document) of one seeded random game, both as text."""
    config = {"game": "imperial2030", "players": players, "setup": setup}
    played = play_game(config, [RandomBot(seed * 10 + p) for p in range(players)], seed)
    log = io.StringIO()
    write_log(log, played, seed=seed, bots=["random"] * players)
    return log.getvalue(), json.dumps(played.state.to_json(), sort_keys=True)


@pytest.mark.parametrize("players, setup, seed", CASES)
def test_same_seed_same_game(players, setup, seed):
    first, second = run(players, setup, seed), run(players, setup, seed)
    assert first[0] == second[0], "the move logs differ"
    assert first[1] == second[1], "the final positions differ"


def test_another_seed_another_game():
    assert run(4, "standard", 1)[0] != run(4, "standard", 2)[0]


def test_same_game_in_a_fresh_interpreter_with_another_hash_seed():
    code = ("import json, sys; from tests.test_determinism import CASES, run; "
            "json.dump([run(*case) for case in CASES], sys.stdout)")
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == [list(run(*case)) for case in CASES]
