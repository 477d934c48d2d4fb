"""Playing whole games through the game-agnostic interface: chance from the seed, bots for seats."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from core.interface import make_game


@dataclass
class PlayedGame:
    config: dict
    state: object
    actions: list = field(default_factory=list)  # (player, action) in order, chance included
    decisions: int = 0


def play_game(config: dict, bots: list, seed: int, record: bool = True, on_step=None, on_start=None) -> PlayedGame:
    """Play one game to the end. ``bots[p]`` decides for seat p; chance is sampled from ``seed``.

    ``on_start(state)`` sees the initial state (its ``events`` are those of the setup);
    ``on_step(state, player, action, events)`` is called after every action.
    """
    game = make_game(config)
    state = game.new_initial_state()
    if on_start is not None:
        on_start(state)
    chance = random.Random(seed)
    played = PlayedGame(game.config, state)
    while not state.is_terminal():
        player = state.current_player()
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            action = chance.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = bots[player].decide(state, state.legal_actions())
            played.decisions += 1
        events = state.apply_action(action)
        if record:
            played.actions.append((player, action))
        if on_step is not None:
            on_step(state, player, action, events)
    return played
