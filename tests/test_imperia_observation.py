"""What each player may observe (RULES.md §7.2) and the search hooks built on it (§7.3).

An observation never shows another player's hand, nor any pile but as a size and the public
multiset hand ∪ pile; two states that differ only in how another player's tiles split between
hand and pile look the same to a player. ``resample`` redraws exactly that split, so the generic
MCTS (core/mcts.py) plays Imperia through observations only.
"""

from __future__ import annotations

import json
import random

import pytest

from imperial_lab.core.bots import RandomBot, make_bot
from imperial_lab.core.games.imperia.board import TYPE_NAMES
from imperial_lab.core.interface import make_game
from imperial_lab.core.play import play_game


def midgame(players: int, seed: int, steps: int = 40):
    game = make_game({"game": "imperia", "players": players})
    played = play_game(game.config, [RandomBot(seed + p) for p in range(players)], seed)
    state = game.new_initial_state()
    for _, action in played.actions[:steps]:
        state.apply_action(action)
    return game, state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_observation_shows_only_the_own_hand(players):
    _, state = midgame(players, 3)
    for p in range(players):
        obs = state.observation(p)
        json.dumps(obs)  # plain data
        for q, entry in enumerate(obs["players"]):
            assert entry["hand_size"] == sum(state.hand[q]) and entry["pile_size"] == sum(state.pile[q])
            if q == p:
                assert entry["hand"] == {TYPE_NAMES[t]: c for t, c in enumerate(state.hand[q]) if c}
                assert isinstance(entry["pile"], dict)  # a multiset: a pile has no order to show
            else:
                assert "hand" not in entry and "pile" not in entry
                assert entry["unseen"] == {TYPE_NAMES[t]: h + k for t, (h, k) in
                                           enumerate(zip(state.hand[q], state.pile[q])) if h + k}
    public = state.observation(None)
    assert all("hand" not in e and "pile" not in e for e in public["players"])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_other_splits_look_the_same(players):
    """Every redraw of the others' hands gives the same observation to the player, and the same
    legal actions; the others' own observations do change with their hands."""
    game, state = midgame(players, 8, 30)
    me = state.current_player() if state.current_player() >= 0 else 0
    rng = random.Random(1)
    seen_hands = set()
    for _ in range(30):
        other = game.resample(state, me, rng)
        assert other.observation(me) == state.observation(me)
        assert other.hand[me] == state.hand[me]
        if not state.is_chance_node():
            assert other.legal_actions() == state.legal_actions()
        seen_hands.add(tuple(other.hand[q] for q in range(players) if q != me))
    assert len(seen_hands) > 1  # the hidden part really is redrawn


def test_observation_is_blind_to_the_split_in_full_games():
    """Over whole games: observation(p) of a state and of its resample for p agree at every step."""
    for seed in range(6):
        game = make_game({"game": "imperia", "players": 2 + seed % 3})
        rng = random.Random(seed)

        def check(state, player, action, events):
            for p in range(state.n):
                assert game.resample(state, p, rng).observation(p) == state.observation(p)

        play_game(game.config, [RandomBot(seed + p) for p in range(game.num_players)], seed, on_step=check)


def test_resample_keeps_the_starting_hand_rule():
    """A hand never played from is never resampled as three generals (§3.4)."""
    game = make_game({"game": "imperia", "players": 4, "start_seat": 0})
    state = game.new_initial_state()
    while state.decision_name() != "turn":
        state.apply_action(state.legal_actions()[-1])
    rng = random.Random(2)
    for _ in range(500):
        other = game.resample(state, 0, rng)
        assert all(h[0] + h[1] < 3 for h in other.hand)


def test_mcts_plays_imperia_through_observations():
    for seed in range(3):
        bots = [make_bot("mcts:playouts=8", 1), make_bot("random", seed)]
        played = play_game({"game": "imperia", "players": 2}, bots if seed % 2 == 0 else bots[::-1], seed)
        assert played.state.is_terminal() and played.state.winners()
