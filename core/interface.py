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

A game may offer more, declared in its plug-in (``imperial_lab.core.plugin.Capability``) and typed by
the Protocols below: an unchecked ``apply_legal`` (``UncheckedApply``), a ``recording`` switch
(``Recording``), and the search hooks of its Game that ``core/mcts.py`` uses, each with a default
when not declared: ``evaluate(state)`` (``Evaluator``), ``playout_policy(rng)`` (``PlayoutPolicy``)
and ``resample(state, player, rng)`` (``Resampler``); see docs/search.md.
"""

from __future__ import annotations

import random
from typing import Any, Protocol
from collections.abc import Callable

CHANCE = -1
TERMINAL = -4

Action = Any  # a hashable value with a text form (a tuple in the lab's games)


def seat_name(seat: int) -> str:
    """How a seat is shown to people, everywhere: "Player A" for seat 0. Files, logs and command
    options number seats from 0."""
    return f"Player {chr(ord('A') + seat)}"


class State(Protocol):
    """One position (``imperial_lab.core.engine.BaseState`` gives a game's State most of this)."""

    @property
    def game(self) -> Game:
        """The game that made this state (its plug-in says what else it offers)."""

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
    def clone(self) -> State: ...
    def observation(self, player: int) -> dict[str, Any]: ...
    def to_json(self) -> dict[str, Any]: ...


class Game(Protocol):
    name: str
    num_players: int
    config: dict[str, Any]

    def new_initial_state(self) -> State: ...
    def state_from_json(self, doc: dict[str, Any]) -> State: ...


# ----- optional capabilities (declared in a game's plug-in: imperial_lab.core.plugin.Capability) -----

class UncheckedApply(Protocol):
    """``Capability.APPLY_LEGAL``: a state that applies an action without checking it."""

    def apply_legal(self, action: Action) -> list[Any]:
        """``apply_action`` for an action taken from this state's own ``legal_actions()`` or
        ``chance_outcomes()``: no check (anything else leaves the state corrupt)."""


class Recording(Protocol):
    """``Capability.RECORDING``: a state whose events can be switched off."""

    recording: bool  # build events (true, the default); false: apply returns none, for speed


class Evaluator(Protocol):
    """``Capability.EVALUATE``: a search hook of the Game."""

    def evaluate(self, state: State) -> list[float]:
        """One value per seat in [0, 1]: before the end, an estimate of that seat's share of the
        win (e.g. a win probability); at the end, the result. Default: 1 shared among
        ``winners()`` at the end, among the seats leading on ``returns()`` before."""


class PlayoutPolicy(Protocol):
    """``Capability.PLAYOUT_POLICY``: a search hook of the Game."""

    def playout_policy(self, rng: random.Random) -> Callable[[State], Action]:
        """A cheap policy for playouts (called on states where a seat decides, returning one of
        their legal actions), drawing any randomness from ``rng``. Default: uniform over
        ``legal_actions()``."""


class Resampler(Protocol):
    """``Capability.RESAMPLE``: a search hook of the Game."""

    def resample(self, state: State, player: int, rng: random.Random) -> State:
        """A state consistent with what ``player`` has observed (its hidden parts drawn from
        ``rng``), independent of ``state``. Default: ``state.clone()`` (nothing hidden)."""


def make_game(config: dict[str, Any]) -> Game:
    """The game named by ``config["game"]`` (default ``imperial2030``), configured by the rest.
    SetupError for an unknown game, listing the known ones."""
    from imperial_lab.core.registry import game_of, plugin

    return plugin(game_of(config)).game(config)
