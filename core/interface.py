"""The game-agnostic interface every game of the lab implements (OpenSpiel-style).

A *game* is made from a configuration (a JSON-able dict whose ``"game"`` names it) and makes
states. A *state* knows who decides, which actions are legal, and applies one at a time:

    game = make_game({"game": "imperial2030", "players": 4, "setup": "standard"})
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():                     # card deals, dice: sampled by the driver
            outcomes = state.chance_outcomes()         # [(action, probability), ...]
            action = rng.choices(*zip(*outcomes))[0]
        else:
            action = bot.decide(state, state.legal_actions())
        events = state.apply_action(action)            # raises IllegalActionError, state untouched
    state.returns(); state.winners()

Actions are hashable values with a text form (``action_to_string`` / ``string_to_action``).
``observation(player)`` is what that player may see (the whole position where nothing is hidden);
``to_json()`` / ``game.state_from_json(doc)`` round-trip a state losslessly.
Bots, simulation and the dashboard use nothing but this interface.

Search (``core/mcts.py``) also uses optional hooks of a state's game (``state.game``), each with a
default when missing: ``evaluate(state)`` (one value per seat in [0, 1]),
``playout_policy(rng)`` (a cheap function state -> action) and ``resample(state, player, rng)``
(a state consistent with what that player has seen); see ``SearchHooks`` and docs/search.md.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Hashable, Protocol

CHANCE = -1
TERMINAL = -4

Action = Hashable


def seat_name(seat: int) -> str:
    """How a seat is shown to people, everywhere: "Player A" for seat 0. Files, logs and command
    options number seats from 0."""
    return f"Player {chr(ord('A') + seat)}"


class State(Protocol):
    def current_player(self) -> int: ...
    def is_terminal(self) -> bool: ...
    def is_chance_node(self) -> bool: ...
    def chance_outcomes(self) -> list[tuple[Action, float]]: ...
    def legal_actions(self) -> list[Action]: ...
    def apply_action(self, action: Action) -> list[Any]: ...
    def action_to_string(self, action: Action) -> str: ...
    def string_to_action(self, text: str) -> Action: ...
    def returns(self) -> list[float]: ...
    def winners(self) -> list[int]: ...
    def clone(self) -> "State": ...
    def observation(self, player: int) -> dict: ...
    def to_json(self) -> dict: ...


class Game(Protocol):
    name: str
    num_players: int
    config: dict

    def new_initial_state(self) -> State: ...
    def state_from_json(self, doc: dict) -> State: ...


class SearchHooks(Protocol):
    """Optional methods of a Game that search uses (all, some or none; ``imperial_lab.core.mcts`` has defaults).
    A state that has them reachable exposes its game as ``state.game``."""

    def evaluate(self, state: State) -> list[float]:
        """One value per seat in [0, 1]: before the end, an estimate of that seat's share of the
        win (e.g. a win probability); at the end, the result. Default: 1 shared among
        ``winners()`` at the end, among the seats leading on ``returns()`` before."""

    def playout_policy(self, rng: random.Random) -> Callable[[State], Action]:
        """A cheap policy for playouts (called on states where a seat decides), drawing any
        randomness from ``rng``. Default: uniform over ``legal_actions()``."""

    def resample(self, state: State, player: int, rng: random.Random) -> State:
        """A state consistent with what ``player`` has observed (its hidden parts drawn from
        ``rng``), independent of ``state``. Default: ``state.clone()`` (nothing hidden)."""


def make_game(config: dict) -> Game:
    """The game named by ``config["game"]`` (default ``imperial2030``), configured by the rest.
    SetupError for an unknown game, listing the known ones."""
    from imperial_lab.core.registry import game_of, plugin

    return plugin(game_of(config)).game(config)
