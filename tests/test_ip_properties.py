"""Imperial Powers property tests over many complete random games of 3, 4 and 5 players (STYLE.md (c)3).

Hypothesis draws the chance seed and the configurable rulings (power assignment, tie rule, event
resolution, tactics visibility, Portuguese bonus, Spain on Exploitation); random bots play to the
end. After *every* action:

* ``check_invariants`` finds nothing (cards conserved, piles sorted, influence and counters never
  below their floors, VP only from the listed sources, the phase bookkeeping);
* counted here independently: 50 influence and 50 development cards in all, VP never lost, a
  seat's VP the sum of its sources;
* at a chance node the probabilities are positive and sum to 1; every legal action's text parses
  back to it.

At the end: the game is over after the configured turns, the winners lead on VP and, among those,
on regions led, and the recorded actions replayed from a fresh state give the same document.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from imperial_lab.core.bots import RandomBot
from imperial_lab.core.games.imperial_powers.invariants import check_invariants
from imperial_lab.core.games.imperial_powers.rules import REGIONS
from imperial_lab.core.games.imperial_powers.scoring import standings
from imperial_lab.core.interface import make_game
from imperial_lab.core.play import play_game

GAMES_PER_COUNT = 120  # --slow: the full runs; the default suite plays QUICK_GAMES
QUICK_GAMES = 12
OPTIONS = {"power_assignment": ["pick", "random"], "tie_rule": ["drop_to_lowest_shared_place",
                                                                "share_highest_place", "split_places"],
           "event_resolution": ["immediate", "after_all_assigned"], "tactics_visibility": ["hidden", "regions_public"],
           "portuguese_bonus": ["once", "every_turn"], "spain_bonus_on_exploitation": [False, True]}


def card_counts(state) -> tuple[int, int]:
    influence = len(state.deck) + len(state.discard) + sum(map(len, state.hand)) + sum(map(len, state.strip))
    development = (len(state.dev_deck) + len(state.dev_discard) + len(state.dev_face_down)
                   + sum(map(len, state.dev_hand)))
    return influence, development


class Checker:
    def __init__(self, label: str):
        self.label, self.step, self.vp = label, 0, None

    def __call__(self, state, player, action, events) -> None:
        self.step += 1
        where = f"{self.label}, step {self.step} ({state.action_to_string(action)})"
        assert check_invariants(state) == [], where
        assert card_counts(state) == (50, 50), where
        vp = state.returns()
        assert vp == [sum(state.gains[p * 4:p * 4 + 4]) for p in range(state.n)], where  # counted here
        assert self.vp is None or all(a >= b for a, b in zip(vp, self.vp)), where
        self.vp = vp
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert all(p > 0 for _, p in outcomes) and abs(sum(p for _, p in outcomes) - 1) < 1e-9, where
        if self.step % 7 == 0:  # the notation of a sample of positions
            for a in state.legal_actions():
                assert state.string_to_action(state.action_to_string(a)) == a, where


GAME = dict(seed=st.integers(0, 2**32 - 1), turns=st.sampled_from([10, 10, 3]),
            options=st.fixed_dictionaries({key: st.sampled_from(values) for key, values in OPTIONS.items()}))


@pytest.mark.parametrize("players", [3, 4, 5])
@settings(max_examples=QUICK_GAMES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**GAME)
def test_random_games_keep_every_invariant(players, **drawn):
    random_game_keeps_every_invariant(players, **drawn)


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4, 5])
@settings(max_examples=GAMES_PER_COUNT, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**GAME)
def test_many_random_games_keep_every_invariant(players, **drawn):
    random_game_keeps_every_invariant(players, **drawn)


def random_game_keeps_every_invariant(players, seed, options, turns):
    config = {"game": "imperial_powers", "players": players, "turns": turns, **options}
    game = make_game(config)
    played = play_game(config, [RandomBot(seed + p) for p in range(players)], seed,
                       on_step=Checker(f"{players} players, seed {seed}, {options}"))
    state = played.state
    assert state.is_terminal() and state.turn == turns and len(state.event_rows) == REGIONS
    keys = standings(state)
    best_vp = max(vp for vp, _ in keys)
    most_led = max(led for vp, led in keys if vp == best_vp)
    assert state.winners() == [p for p, key in enumerate(keys) if key == (best_vp, most_led)]
    replayed = game.new_initial_state()
    for _, action in played.actions:
        replayed.apply_action(action)
    assert replayed.to_json() == state.to_json()


def test_clones_are_independent():
    game = make_game({"game": "imperial_powers", "players": 4})
    played = play_game(game.config, [RandomBot(p) for p in range(4)], 11)
    state = game.new_initial_state()
    for _, action in played.actions[: len(played.actions) // 2]:
        state.apply_action(action)
    before = state.to_json()
    other = state.clone()
    while not other.is_terminal():
        other.apply_action(other.legal_actions()[-1])
    assert state.to_json() == before and other.to_json() != before
