"""Imperia, a tile-laying war game for 2-4 players (shared/imperia/RULES.md; docs/imperia.md).

``Imperia`` (game.py) is the game; its states (state.py) implement core/interface.py. Modules:
data (the data file), board (fixed tables), actions (the text notation), pending (the phases),
rules (§6), scoring (§9), position (documents, observation), builders (positions for scenarios),
invariants, search (MCTS hooks), heuristic (a simple bot).
"""

from imperial_lab.core.games.imperia.game import Imperia

__all__ = ["Imperia"]
