"""Bots: objects with ``decide(state, legal_actions) -> action`` (catanatron's API).

They see the game only through the game-agnostic interface (``core.interface``).
"""

from __future__ import annotations

import random

from core.imperial2030.heuristic import HeuristicBot


class RandomBot:
    """Uniform over the legal actions, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def decide(self, state, legal_actions):
        return legal_actions[self.rng.randrange(len(legal_actions))]


BOTS = {"random": RandomBot, "heuristic": HeuristicBot}


def make_bot(name: str, seed: int | None = None):
    from core.errors import SetupError

    if name not in BOTS:
        raise SetupError(f"unknown bot {name!r} (known: {', '.join(sorted(BOTS))})")
    return BOTS[name](seed)
