"""Imperial Powers, a card-and-map game of colonial expansion for 3-5 players
(shared/imperial_powers/RULES.md; data/imperial_powers/data.json).

``ImperialPowers`` (game.py) is the game; its states (state.py) implement core/interface.py.
Modules: data (the data file), actions (the text notation), pending (the phases), rules (Leaders,
places, the Draw allotment, scoring a region, the events), scoring (the result), position
(documents, observation), builders (positions for scenarios), invariants, search (MCTS hooks).
"""

from imperial_lab.core.games.imperial_powers.game import ImperialPowers

__all__ = ["ImperialPowers"]
