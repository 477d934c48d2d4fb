"""``imperial bench``: random 4-player games in one process; games/s, nation turns/s, decisions/s,
and the time per call of ``legal_actions``, ``apply_action`` and ``clone`` (and of ``apply_legal``,
the unchecked apply without events that ``play_game(..., record=False)`` uses).

The old engine against the new one, side by side: ``scripts/bench_engine.py``."""

from __future__ import annotations

import statistics
import time
from typing import Any

from imperial_lab.core.bots import make_bot
from imperial_lab.core.play import play_game


def _games(n: int, seed: int, players: int) -> tuple[float, int, int]:
    turns = decisions = 0
    start = time.perf_counter()
    for k in range(n):
        bots = [make_bot("random", seed * 1000 + k * 10 + p) for p in range(players)]
        g = play_game({"game": "imperial2030", "players": players}, bots, seed * 1000 + k, record=False)
        turns += g.state.nation_turns
        decisions += g.decisions
    return time.perf_counter() - start, turns, decisions


def per_call(seed: int, players: int, repeats: int = 5) -> dict:
    """Microseconds per call, the mean over the states of one random game; the best of ``repeats``
    passes, since on a shared machine a pass of a few milliseconds is easily interrupted."""
    states = []
    play_game({"game": "imperial2030", "players": players}, [make_bot("random", seed + p) for p in range(players)],
              seed, on_step=lambda s, *_: states.append(s.clone()))
    live = [s for s in states if not s.is_terminal()]

    def best(prepare, call, items) -> float:
        times = []
        for _ in range(repeats):
            args = [prepare(x) for x in items]
            t = time.perf_counter()
            for a in args:
                call(a)
            times.append((time.perf_counter() - t) / len(args) * 1e6)
        return min(times)

    def fresh(s):
        s._legal = s._legal_set = None
        return s

    def child(silent):
        def make(s):
            c = s.clone()
            c.recording = not silent
            return c, s.legal_actions()[0]
        return make

    return {
        "legal_actions": best(fresh, lambda s: s.legal_actions(), states),
        "clone": best(lambda s: s, lambda s: s.clone(), states),
        "apply_action": best(child(False), lambda p: p[0].apply_action(p[1]), live),  # checked, with events
        "apply_legal": best(child(True), lambda p: p[0].apply_legal(p[1]), live),  # unchecked, no events
        "states_measured": len(states),
    }


def run_bench(repeats: int = 5, games: int = 20, seed: int = 1, players: int = 4, progress=None) -> dict:
    """``progress(done, repeats, row)`` is called after each repeat when given."""
    rows = []
    for r in range(repeats):
        secs, turns, decisions = _games(games, seed + r, players)
        rows.append({"games_per_s": games / secs, "nation_turns_per_s": turns / secs,
                     "decisions_per_s": decisions / secs, "nation_turns_per_game": turns / games})
        if progress is not None:
            progress(r + 1, repeats, rows[-1])
    result: dict[str, Any] = {"players": players, "games_per_repeat": games, "repeats": repeats}
    for key in rows[0]:
        values = [row[key] for row in rows]
        result[key] = {"median": statistics.median(values), "min": min(values), "max": max(values)}
    result["per_call_us"] = per_call(seed, players)
    return result
