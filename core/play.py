"""Playing whole games through the game-agnostic interface: chance from the seed, bots for seats."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, cast
from collections.abc import Callable, Sequence

from imperial_lab.core.interface import CHANCE, Action, Recording, State, UncheckedApply, make_game
from imperial_lab.core.plugin import Capability
from imperial_lab.core.registry import plugin_of

OnStep = Callable[[Any, int, Action, list[Any]], None]  # (state, player, action, events)


@dataclass
class PlayedGame:
    config: dict[str, Any]
    state: Any  # the game's State (imperial_lab.core.interface.State)
    actions: list[tuple[int, Action]] = field(default_factory=list)  # (player, action) in order, chance included
    decisions: int = 0


def play_game(config: dict[str, Any], bots: Sequence[Any], seed: int, record: bool = True,
              on_step: OnStep | None = None, on_start: Callable[[Any], None] | None = None) -> PlayedGame:
    """Play one game to the end. ``bots[p]`` decides for seat p; chance is sampled from ``seed``.

    ``on_start(state)`` sees the initial state (its ``events`` are those of the setup);
    ``on_step(state, player, action, events)`` is called after every action. With ``record=False``
    and no ``on_step`` nobody reads the events, so a game that declares ``recording`` builds none.

    A bot must answer with one of the legal actions it is given (an equal one will do): the
    driver applies it without checking it again.
    """
    game = make_game(config)
    state: State = game.new_initial_state()
    owner = plugin_of(state)
    if on_start is not None:
        on_start(state)
    silent = not record and on_step is None and owner.offers(Capability.RECORDING)
    if silent:
        cast(Recording, state).recording = False
    # Chance outcomes and a bot's answer (a bot returns one of the legal actions it is given) are
    # legal by construction: the game's unchecked ``apply_legal`` where it declares one.
    apply: Callable[[Action], list[Any]] = (cast(UncheckedApply, state).apply_legal
                                            if owner.offers(Capability.APPLY_LEGAL) else state.apply_action)
    chance = random.Random(seed)
    played = PlayedGame(game.config, state)
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            outcomes = state.chance_outcomes()
            action = chance.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = bots[player].decide(state, state.legal_actions())
            played.decisions += 1
        events = apply(action)
        if record:
            played.actions.append((player, action))
        if on_step is not None:
            on_step(state, player, action, events)
    if silent:
        cast(Recording, state).recording = True  # the caller gets an ordinary state back
    return played
