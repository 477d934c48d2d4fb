"""The rollout bot (core/rollout.py, docs/search.md "The rollout bot"): legal, reproducible moves in
every game with a playout budget; the candidates of one batch share their draws; sequential halving
and the final choice keep the heuristic's move unless another is better by ``z`` standard errors;
wide decisions are screened by the evaluator; rollouts run on the seat's determinisations; a
``turns`` rollout stops at the evaluator's checkpoint."""

from __future__ import annotations

import random

import pytest

from imperial_lab.core import evaluator as ev
from imperial_lab.core.bots import canonical_spec, make_bot
from imperial_lab.core.errors import SetupError
from imperial_lab.core.mcts import Hooks
from imperial_lab.core.play import play_game
from imperial_lab.core.rollout import DEFAULT_WIDTH, RolloutBot, _halve

GAMES = {"imperial2030": 4, "imperia": 2, "imperial_powers": 4}


def decisions(game: str, players: int, seed: int = 3, wanted=lambda n: n > 1) -> list:
    """Positions of a heuristic game where the seat to move has ``wanted(len(legal))`` actions."""
    found = []

    def keep(state, player, action, events):
        if not state.is_terminal() and not state.is_chance_node() and wanted(len(state.legal_actions())):
            found.append(state.clone())

    bots = [make_bot("heuristic", 10 * seed + p, game=game) for p in range(players)]
    play_game({"game": game, "players": players}, bots, seed, record=False, on_step=keep)
    return found


@pytest.mark.parametrize("game", sorted(GAMES))
def test_plays_a_legal_move_reproducibly_with_a_playout_budget(game):
    state = min(decisions(game, GAMES[game])[5:], key=lambda s: len(s.legal_actions()))
    legal = state.legal_actions()
    first = make_bot("rollout:playouts=6", 7, game=game)
    action = first.decide(state, legal)
    again = make_bot("rollout:playouts=6", 7, game=game)
    assert action in legal and again.decide(state, legal) == action and again.last_means == first.last_means
    assert first.last_playouts >= 6 and set(first.last_means) <= set(legal)


def test_a_single_legal_move_is_played_without_rollouts():
    state = decisions("imperial2030", 4)[0]
    bot = RolloutBot(1, playouts=8)
    only = state.legal_actions()[:1]
    assert bot.decide(state, only) == only[0] and bot.last_playouts == 0


def test_the_candidates_of_one_batch_make_the_same_draws():
    # common random numbers: a candidate's result in a batch depends on the batch's seed alone, not
    # on which other candidates run beside it
    state = decisions("imperial2030", 4, wanted=lambda n: 3 <= n <= 8)[2]
    a, b, *_ = state.legal_actions()
    resample = Hooks(state).resample
    both, alone = {a: [], b: []}, {a: []}
    RolloutBot(4, playouts=1)._batch(state, resample, [a, b], both)
    RolloutBot(4, playouts=1)._batch(state, resample, [a], alone)
    assert both[a] == alone[a]


def test_halving_keeps_the_better_half_and_the_heuristics_move():
    results = {"h": [0.0, 0.0], "a": [1.0, 1.0], "b": [1.0, 0.0], "c": [0.5, 0.0], "d": [0.0, 0.0]}
    assert _halve(["h", "a", "b", "c", "d"], results, {"h"}) == ["h", "a", "b"]
    assert _halve(["a", "b", "h", "c"], results | {"h": [1.0, 1.0]}, {"h"}) == ["a", "h"]
    # two that stay (the heuristic's move and a move the analysis judges) push out the worst kept
    assert _halve(["h", "a", "b", "c", "p"], results | {"p": [0.0, 0.0]}, {"h", "p"}) == ["h", "p", "a"]


def test_another_move_is_played_only_when_it_gains_z_standard_errors():
    bot = RolloutBot(0, playouts=1, z=2.0)
    steady = {"h": [0.0, 0.0, 0.0, 0.0], "a": [0.2, 0.2, 0.3, 0.3]}  # gains 0.25 with little spread
    noisy = {"h": [0.0, 0.0, 0.0, 0.0], "a": [1.0, 0.0, 0.0, 0.0]}  # gains 0.25 once in four
    assert bot._choice(["h", "a"], steady, "h") == "a"
    assert bot._choice(["h", "a"], noisy, "h") == "h"
    assert RolloutBot(0, playouts=1, z=0.0)._choice(["h", "a"], noisy, "h") == "a"
    assert bot._choice(["h", "a"], {"h": [0.0], "a": [1.0]}, "h") == "h"  # one batch: no spread to judge


def test_a_wide_decision_is_screened_down_to_width_candidates_by_the_evaluator():
    state = decisions("imperial2030", 4, wanted=lambda n: n > 12)[0]
    bot = RolloutBot(2, playouts=4, width=5)
    bot.decide(state, state.legal_actions())
    assert len(bot.last_means) == 5


def test_every_batch_is_played_on_the_seats_determinisation(monkeypatch):
    state = decisions("imperial_powers", 4, wanted=lambda n: 2 <= n <= 5)[3]
    seen = []
    game = state.game
    original = game.resample

    def resample(s, player, rng):
        seen.append(player)
        return original(s, player, rng)

    monkeypatch.setattr(game, "resample", resample)
    bot = RolloutBot(3, playouts=6)
    bot.decide(state, state.legal_actions())
    assert seen and set(seen) == {state.current_player()}
    assert len(seen) == bot.last_playouts  # one determinisation for each rollout


def test_a_rollout_of_turns_stops_at_the_evaluators_checkpoint():
    state = decisions("imperial2030", 4, wanted=lambda n: n > 1)[4]
    part = ev.game_part("imperial2030")
    rng = random.Random(1)
    end = ev.play_on(state.clone(), state.legal_actions()[0], ev.heuristic_policy(state, rng), rng, turns=2)
    assert part.checkpoint(end) and not end.is_terminal()
    rng = random.Random(1)
    assert ev.play_on(state.clone(), state.legal_actions()[0], ev.heuristic_policy(state, rng), rng, turns=0).is_terminal()


def test_bot_specs():
    assert canonical_spec("rollout:playouts=80") == "rollout" and make_bot("rollout").seconds is None  # reproducible
    assert make_bot("rollout:seconds=1").playouts is None  # the wall clock alone: no playout cap
    assert canonical_spec("rollout:seconds=1") == "rollout:seconds=1"
    bot = make_bot("rollout:seconds=0.5:playouts=50")
    assert (bot.seconds, bot.playouts) == (0.5, 50)
    with pytest.raises(SetupError, match="seconds or playouts"):
        RolloutBot(1, playouts=None)


def test_the_analysis_lists_every_legal_move_the_choice_first_and_judges_a_kept_move_to_the_end():
    state = decisions("imperial2030", 4, wanted=lambda n: n > 2 * DEFAULT_WIDTH)[0]
    legal = state.legal_actions()
    stats = RolloutBot(5, playouts=24).analyse(state)
    assert [s.action for s in stats[:1]] == [RolloutBot(5, playouts=24).decide(state, legal)]
    assert sorted(map(legal.index, (s.action for s in stats))) == list(range(len(legal)))
    unseen = [s.action for s in stats if s.visits == 0]  # screened out: more moves than the width
    assert unseen and all(s.value is None for s in stats if s.visits == 0)
    kept = RolloutBot(5, playouts=24).analyse(state, keep=[unseen[-1]])
    runs = {s.action: s.visits for s in kept}
    assert runs[unseen[-1]] == max(runs.values()) > 0  # in the race to its end, like the choice


def test_the_analysis_needs_a_decision():
    state = decisions("imperial2030", 4)[0]
    with pytest.raises(SetupError, match="a seat decides"):
        RolloutBot(0, playouts=2).analyse(state.game.new_initial_state())


def hidden_twins(game: str) -> tuple:
    """A decision and a twin that differs only in what the seat to move cannot see: Imperial Powers, a
    card of another hand swapped with the deck (§6.2); Imperia, another split of the others' tiles
    between hand and pile (§7.2)."""
    if game == "imperial_powers":
        from tests.test_ip_observation import fresh, midgame, other_value, swap

        _, state = midgame(4, 2, "bid")
        q = (state.current + 1) % 4
        other = state.clone()
        c = other.hand[q][0]
        other.hand[q], other.deck = swap(other.hand[q], c, other.deck, other_value(other, other.deck, c))
        return state, fresh(other)
    from tests.test_imperia_observation import midgame as imperia_midgame

    imperia, state = imperia_midgame(2, 8, 30)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    me, rng = state.current_player(), random.Random(1)
    other = next(o for o in (imperia.resample(state, me, rng) for _ in range(50)) if o.hand != state.hand)
    return state, other


@pytest.mark.parametrize("game", ["imperial_powers", "imperia"])
def test_what_the_seat_cannot_see_does_not_change_its_analysis(game):
    # a hint shown to a seat must not depend on what it cannot see: the rollouts are dealt from the
    # seat's view and the heuristic's choice reads only what its seat sees, so the same view gives
    # the same figures
    state, other = hidden_twins(game)
    me = state.current_player()
    assert other.observation(me) == state.observation(me) and other.to_json() != state.to_json()
    assert RolloutBot(2, playouts=6).analyse(state) == RolloutBot(2, playouts=6).analyse(other)
