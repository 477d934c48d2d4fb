"""``imperial bench``: random 4-player games in one process; games/s, nation turns/s, decisions/s,
and the time per call of ``legal_actions``, ``apply_action`` and ``clone``."""

from __future__ import annotations

import statistics
import time

from core.bots import RandomBot
from core.play import play_game


def _games(n: int, seed: int, players: int) -> tuple[float, int, int]:
    turns = decisions = 0
    start = time.perf_counter()
    for k in range(n):
        bots = [RandomBot(seed * 1000 + k * 10 + p) for p in range(players)]
        g = play_game({"game": "imperial2030", "players": players}, bots, seed * 1000 + k, record=False)
        turns += g.state.nation_turns
        decisions += g.decisions
    return time.perf_counter() - start, turns, decisions


def _per_call(seed: int, players: int) -> dict:
    """Mean microseconds per call, over the states of one random game."""
    states = []
    play_game({"game": "imperial2030", "players": players}, [RandomBot(seed + p) for p in range(players)], seed,
                  on_step=lambda s, *_: states.append(s.clone()))
    out = {}
    for name, fn in (("legal_actions", lambda s: (setattr(s, "_legal", None), s.legal_actions())),
                     ("clone", lambda s: s.clone())):
        t = time.perf_counter()
        for s in states:
            fn(s)
        out[name] = (time.perf_counter() - t) / len(states) * 1e6
    pairs = [(s.clone(), s.legal_actions()[0]) for s in states if not s.is_terminal()]
    t = time.perf_counter()
    for s, a in pairs:
        s.apply_action(a)
    out["apply_action"] = (time.perf_counter() - t) / len(pairs) * 1e6
    out["states_measured"] = len(states)
    return out


def run_bench(repeats: int = 5, games: int = 20, seed: int = 1, players: int = 4, progress=None) -> dict:
    """``progress(done, repeats, row)`` is called after each repeat when given."""
    rows = []
    for r in range(repeats):
        secs, turns, decisions = _games(games, seed + r, players)
        rows.append({"games_per_s": games / secs, "nation_turns_per_s": turns / secs,
                     "decisions_per_s": decisions / secs, "nation_turns_per_game": turns / games})
        if progress is not None:
            progress(r + 1, repeats, rows[-1])
    result = {"players": players, "games_per_repeat": games, "repeats": repeats}
    for key in rows[0]:
        values = [row[key] for row in rows]
        result[key] = {"median": statistics.median(values), "min": min(values), "max": max(values)}
    result["per_call_us"] = _per_call(seed, players)
    return result
