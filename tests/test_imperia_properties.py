"""Imperia property tests over many complete random games of 2, 3 and 4 players (STYLE.md (c)3).

Hypothesis draws the chance seed, the layout (default or generated), whether the start seat is
fixed and the bots (random, or random keeping the warlord to the last); they play to the end. A
second test draws the configurable options instead (general_classes G9, general_orders G18,
uncovered_tiles_score G13). After *every* action:

* ``invariants.violations`` finds nothing (tiles conserved per colour and type, each tile once,
  one top tile per space, legal facings, cubes and warlords on their owners' top tiles, fortress
  sites, hands refilled);
* board + hands + piles + the tiles still aside (warlord, fortress) = 16 per colour, counted here
  independently of the invariants module;
* the position document round-trips to an equal state with the same legal actions;
* every legal action's text parses back to it;
* once recruiting is over no starting hand is three generals, and nobody ever retires (G21);
* a general with a fixed order (its id ends -mob or -dir, G18) is offered only orders of its kind.

At the end the recorded actions, replayed from a fresh initial state, give the same document.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from imperial_lab.core.bots import RandomBot
from imperial_lab.core.games.imperia.actions import MOBILISE, SWAP_ENEMY, SWAP_OWN, WARLORD
from imperial_lab.core.games.imperia.board import GENERAL_TYPES
from imperial_lab.core.games.imperia.invariants import violations
from imperial_lab.core.interface import make_game
from imperial_lab.core.play import play_game

GAMES_PER_COUNT = 200  # --slow: the full runs; the default suite plays the QUICK ones
OPTION_GAMES_PER_COUNT = 60
QUICK_GAMES, QUICK_OPTION_GAMES = 20, 6


def tiles_per_colour(state) -> list[int]:
    counts = [0] * state.n
    for stack in state.stacks:
        for tile in stack:
            counts[tile >> 4] += 1
    for p in range(state.n):
        counts[p] += sum(state.hand[p]) + sum(state.pile[p])
        counts[p] += state.warlord[p] < 0  # the warlord, put aside (§3.4)
        counts[p] += 1  # the fortress, placed or not
    return counts


class PatientBot(RandomBot):
    """Random, but places the warlord only when nothing else is legal: full-length games, with
    empty piles, crowded boards, battles and orders (a random bot places it early)."""

    def decide(self, state, legal_actions):
        units = [a for a in legal_actions if a[0] != WARLORD]
        return super().decide(state, units or legal_actions)


class Checker:
    def __init__(self, game, label: str):
        self.game, self.label, self.step = game, label, 0
        self.prev = game.new_initial_state()

    def __call__(self, state, player, action, events) -> None:
        self.step += 1
        where = f"{self.label}, step {self.step} ({self.prev.action_to_string(action)})"
        assert violations(state) == [], where
        assert tiles_per_colour(state) == [16] * state.n, where
        rebuilt = self.game.state_from_json(state.to_json())
        assert rebuilt == state and rebuilt.legal_actions() == state.legal_actions(), where
        for a in state.legal_actions():
            assert state.string_to_action(state.action_to_string(a)) == a, where
        if self.prev.decision_name() == "recruit" and state.decision_name() == "turn":
            assert all(sum(h[g] for g in GENERAL_TYPES) < 3 for h in state.hand), where
        assert not any(e.kind == "retired" for e in events), where
        if state.decision_name() == "order":
            general = state.game.tiles.ids[state.stacks[state.general][-1] & 15]
            kinds = {a[0] for a in state.legal_actions()}
            forbidden = {"-mob": {SWAP_OWN, SWAP_ENEMY}, "-dir": {MOBILISE}}.get(general[-4:], set())
            assert not kinds & forbidden, where
        self.prev = state.clone()


GAME = dict(seed=st.integers(0, 2**32 - 1), generated=st.booleans(), fixed_start=st.booleans(), patient=st.booleans())
OPTIONS = dict(seed=st.integers(0, 2**32 - 1), orth=st.integers(0, 4), fixed=st.booleans(), uncovered=st.booleans(),
               patient=st.booleans())


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=QUICK_GAMES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**GAME)
def test_random_games_keep_every_invariant(players, **drawn):
    random_game_keeps_every_invariant(players, **drawn)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=GAMES_PER_COUNT, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**GAME)
def test_many_random_games_keep_every_invariant(players, **drawn):
    random_game_keeps_every_invariant(players, **drawn)


def random_game_keeps_every_invariant(players, seed, generated, fixed_start, patient):
    config = {"game": "imperia", "players": players}
    if generated:
        config |= {"layout": "generated", "layout_seed": seed % 1000}
    if fixed_start:
        config["start_seat"] = seed % players
    game = make_game(config)
    checker = Checker(game, f"{players} players, seed {seed}")
    bot = PatientBot if patient else RandomBot
    play_and_replay(game, config, [bot(seed + p) for p in range(players)], seed, checker)


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=QUICK_OPTION_GAMES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**OPTIONS)
def test_random_games_with_the_options_keep_every_invariant(players, **drawn):
    """G9, G13, G18: the same checks with the general classes, fixed general types and scoring
    uncovered tiles drawn."""
    random_game_with_options_keeps_every_invariant(players, **drawn)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=OPTION_GAMES_PER_COUNT, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**OPTIONS)
def test_many_random_games_with_the_options_keep_every_invariant(players, **drawn):
    random_game_with_options_keeps_every_invariant(players, **drawn)


def random_game_with_options_keeps_every_invariant(players, seed, orth, fixed, uncovered, patient):
    config = {"game": "imperia", "players": players, "general_classes": {"orth": orth, "diag": 4 - orth},
              "general_orders": "fixed_types_2_mobilise_2_direct" if fixed else "both_orders",
              "uncovered_tiles_score": uncovered}
    game = make_game(config)
    checker = Checker(game, f"{players} players, seed {seed}, {config}")
    bot = PatientBot if patient else RandomBot
    play_and_replay(game, config, [bot(seed + p) for p in range(players)], seed, checker)


def play_and_replay(game, config: dict, bots: list, seed: int, checker: Checker) -> None:
    """Play to the end under ``checker``; the recorded actions replayed give the same document."""
    played = play_game(config, bots, seed, on_step=checker)
    assert played.state.is_terminal() and played.state.winners()
    replayed = game.new_initial_state()
    for _, action in played.actions:
        replayed.apply_action(action)
    assert replayed.to_json() == played.state.to_json()


def test_clones_are_independent():
    game = make_game({"game": "imperia", "players": 4})
    played = play_game(game.config, [RandomBot(p) for p in range(4)], 11)
    # replay to the middle, then move a clone on and check the original did not notice
    state = game.new_initial_state()
    for _, action in played.actions[: len(played.actions) // 2]:
        state.apply_action(action)
    before = state.to_json()
    other = state.clone()
    while not other.is_terminal():
        other.apply_action(other.legal_actions()[-1])
    assert state.to_json() == before
