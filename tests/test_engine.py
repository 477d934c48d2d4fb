"""The shared engine base (core/engine.py), for every game: one Event class, the legal actions cached
and shared with clones, the checked apply refusing an illegal action with its rule and the state
untouched, the unchecked and the silent apply playing the same game, and a clone that sets every
field and copies every container."""

from __future__ import annotations

import json

import pytest

from imperial_lab.core import registry
from imperial_lab.core.bots import make_bot
from imperial_lab.core.engine import BaseState, Event
from imperial_lab.core.errors import IllegalActionError
from imperial_lab.core.interface import make_game
from imperial_lab.core.play import play_game

GAMES = sorted(registry.GAMES)
PLAYERS = {"imperial2030": 3, "imperia": 3, "imperial_powers": 3}


@pytest.fixture(scope="module")
def played():
    """One seeded random game of each game: its config, actions and a copy of every state before an action."""
    out = {}
    for game in GAMES:
        config = {"game": game, "players": PLAYERS[game]}
        states = []
        result = play_game(config, [make_bot("random", 7 + p, game) for p in range(PLAYERS[game])], 7,
                           on_start=lambda s: states.append(s.clone()), on_step=lambda s, *_: states.append(s.clone()))
        out[game] = (config, result.actions, states[:-1])
    return out


def slots(cls: type) -> set[str]:
    return {name for k in cls.__mro__ for name in getattr(k, "__slots__", ())}


@pytest.mark.parametrize("game", GAMES)
def test_every_state_is_a_base_state_and_every_event_the_one_event(game, played):
    config, actions, _ = played[game]
    state = make_game(config).new_initial_state()
    assert isinstance(state, BaseState) and not hasattr(state, "__dict__")  # slots only: cheap to copy
    kinds = set()
    for _, action in actions:
        for event in state.apply_action(action):
            assert type(event) is Event and event.rule
            kinds.add(event.kind)
            json.dumps(event.to_json())
    assert len(kinds) >= 5


@pytest.mark.parametrize("game", GAMES)
def test_the_legal_actions_are_cached_and_shared_with_a_clone(game, played):
    _, _, states = played[game]
    state = states[len(states) // 2]
    legal = state.legal_actions()
    assert state.legal_actions() is legal and state.clone().legal_actions() is legal
    assert all(state.is_legal(a) for a in legal)
    assert not state.is_legal(["not", "hashable"]) and not state.is_legal(("nonsense",))


@pytest.mark.parametrize("game", GAMES)
def test_an_illegal_action_raises_its_rule_and_changes_nothing(game, played):
    """At every tenth position: an action legal elsewhere in the game but not here, and one that is
    not an action of the game at all."""
    _, actions, states = played[game]
    tried = 0
    for state in states[::10]:
        foreign = next((a for _, a in actions if not state.is_legal(a)), None)
        for action in (foreign, ("nonsense", 1), ["unhashable"]):
            if action is None:
                continue
            before = json.dumps(state.to_json(), sort_keys=True)
            with pytest.raises(IllegalActionError) as refused:
                state.apply_action(action)
            assert refused.value.rule.startswith(("§", "R", "G")), refused.value
            assert json.dumps(state.to_json(), sort_keys=True) == before
            tried += 1
    assert tried >= 20


@pytest.mark.parametrize("game", GAMES)
def test_unchecked_and_silent_apply_play_the_same_game(game, played):
    config, actions, _ = played[game]
    checked, unchecked, silent = (make_game(config).new_initial_state() for _ in range(3))
    silent.recording = False
    for _, action in actions:
        events = checked.apply_action(action)
        assert [e.to_json() for e in unchecked.apply_legal(action)] == [e.to_json() for e in events]
        assert silent.apply_legal(action) == [] and silent.events == []
        assert unchecked.to_json() == checked.to_json() == silent.to_json()
    assert checked.is_terminal()


@pytest.mark.parametrize("game", GAMES)
def test_a_clone_sets_every_field_and_copies_the_containers(game, played):
    _, _, states = played[game]
    state = states[len(states) // 2]
    state.legal_actions()
    other = state.clone()
    cls = type(state)
    copied = set(cls.LISTS + cls.DICTS)
    assert slots(cls) == {"game", "events", "recording", "_legal", "_legal_set", *cls.SHARED, *copied}
    for name in slots(cls) - copied - {"events"}:
        assert getattr(other, name) is getattr(state, name), name
    for name in copied:
        assert getattr(other, name) == getattr(state, name) and getattr(other, name) is not getattr(state, name), name
    assert type(other) is cls and other.events == [] and other == state
    action = state.legal_actions()[0]
    before = state.to_json()
    other.apply_action(action)
    assert state.to_json() == before  # the copy is independent


def test_a_state_that_leaves_out_a_rule_hook_cannot_be_made():
    """The hooks a game writes (legal actions, apply, why not, its document) are declared abstract:
    a State missing one fails when made, not at the first call deep in a game."""
    class Half(BaseState):
        def _legal_actions(self):
            return []

    with pytest.raises(TypeError, match="_apply_action, explain_illegal, to_json"):
        Half(None)
