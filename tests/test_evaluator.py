"""The learned evaluator (core/evaluator.py, each game's evaluator.py) and its training
(core/evaluator_train.py): the shipped models load, judge positions as chances that sum to 1, are
deterministic, read public information only, and react the right way to an obvious gain; training
is reproducible from a seed and splits by game; the figures and baselines are computed as
documented (docs/evaluator.md). The long quality check (the shipped model against the baselines
on fresh games) is marked slow."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from imperial_lab.core import evaluator as ev
from imperial_lab.core import evaluator_train as et
from imperial_lab.core.bots import make_bot
from imperial_lab.core.errors import SetupError
from imperial_lab.core.play import play_game

GAMES = {"imperial2030": 4, "imperia": 2, "imperial_powers": 4}


def checkpoints(game: str, players: int, seed: int = 5) -> tuple[list, object]:
    """The checkpoint positions of one heuristic game, and its final state."""
    part = ev.game_part(game)
    found = []

    def keep(state, player, action, events):
        if part.checkpoint(state):
            found.append(state.clone())

    bots = [make_bot("heuristic", 10 * seed + p, game=game) for p in range(players)]
    played = play_game({"game": game, "players": players}, bots, seed, record=False, on_step=keep)
    return found, played.state


@pytest.fixture(scope="module")
def positions():
    return {game: checkpoints(game, n) for game, n in GAMES.items()}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_shipped_model_matches_the_features_of_its_game(game):
    model = ev.evaluator(game)
    assert model.doc["format"] == ev.FORMAT
    assert model.doc["features"] == list(ev.game_part(game).FEATURES)
    assert model.doc["recipe"]["seed"] == 0 and model.doc["ladder"]  # rebuilt by imperial evaluator train


@pytest.mark.parametrize("game", sorted(GAMES))
def test_win_chances_are_a_distribution_and_deterministic(game, positions):
    states, final = positions[game]
    model = ev.evaluator(game)
    for state in states[::5]:
        chances = model.win_chances(state)
        assert len(chances) == len(state.returns())
        assert all(0 <= c <= 1 for c in chances) and sum(chances) == pytest.approx(1.0)
        assert model.win_chances(state.clone()) == chances
        shares = model.score_shares(state)
        assert sum(shares) == pytest.approx(1.0) and min(shares) > 0
    won = final.winners()
    assert model.win_chances(final) == [1 / len(won) if p in won else 0.0 for p in range(len(final.returns()))]


def test_more_cash_raises_a_seats_chance(positions):
    states, _ = positions["imperial2030"]
    model = ev.evaluator("imperial2030")
    for state in states[20::15]:
        before = model.win_chances(state)
        for p in range(state.nplayers):
            richer = state.clone()
            richer.cash[p] += 40
            assert model.win_chances(richer)[p] > before[p]


@pytest.mark.parametrize("game", ["imperia", "imperial_powers"])
def test_rows_read_public_information_only(game, positions):
    """A determinisation for any seat (another seat's hidden cards or tiles redrawn) gives the same rows."""
    states, _ = positions[game]
    part = ev.game_part(game)
    rng = random.Random(1)
    for state in states[1::4]:
        for seat in range(len(state.returns())):
            other = state.game.resample(state, seat, rng)
            assert part.features(other) == part.features(state)


def test_a_model_of_other_features_or_format_is_refused():
    doc = json.loads(ev.model_path("imperia").read_text())
    with pytest.raises(SetupError, match="format"):
        ev.Evaluator("imperia", {**doc, "format": ev.FORMAT + 1})
    with pytest.raises(SetupError, match="features differ"):
        ev.Evaluator("imperia", {**doc, "features": doc["features"][:-1]})


def test_training_is_reproducible_and_holds_out_whole_games(tmp_path):
    first = et.train("imperia", seed=3, games=10, rounds=0, workers=1, progress=False, log=lambda *_: None)
    again = et.train("imperia", seed=3, games=10, rounds=0, workers=1, progress=False, log=lambda *_: None)
    for doc in (first, again):
        doc["recipe"].pop("seconds")
    assert first == again
    assert first["figures"]["games"] == 2  # games 4 and 9 of 0..9 (k % 5 == 4) are held out
    assert first["ladder"][0]["games"] == 10


def test_figures_score_a_perfect_and_a_uniform_guess():
    """Two positions of two seats, seat 0 wins both: the baselines' figures as defined."""
    data = et.Positions(x=np.zeros((4, 1)), won=np.array([1.0, 0, 1, 0]), share=np.full(4, 0.5),
                        hook=np.array([1.0, 0.0, 0.5, 0.5]), leads=np.array([1.0, 0, 1, 1]),
                        pos=np.array([0, 0, 1, 1]), game=np.array([0, 0, 1, 1]), stage=np.array([0, 0, 0, 0]))
    leader = et.leader_chances(data, [0.8])
    assert leader.tolist() == pytest.approx([0.8, 0.2, 0.5, 0.5])  # every seat leads the second: even shares
    target = np.array([1.0, 0, 1, 0])
    scores = et._scores({"hook": data.hook}, target, data, np.ones(4, bool))
    assert scores["hook_log_loss"] == pytest.approx(-(np.log(1.0) + np.log(0.5)) / 2)
    assert scores["hook_brier"] == pytest.approx((0 + 0.25 + 0.25) / 2)
    assert scores["hook_accuracy"] == 1.0


def test_beats_baselines_names_the_failing_stages():
    row = {"model_log_loss": 1.0, "leader_log_loss": 1.2, "hook_log_loss": 1.1, "model_brier": 0.5,
           "leader_brier": 0.6, "hook_brier": 0.4}
    figs = {"by_stage": [{"stage": "first", **row, "model_brier": 9.0}, {"stage": "later", **row}]}
    assert et.beats_baselines(figs) == ["later (brier)"]


def test_the_held_out_split_is_by_game():
    data = et.Positions(x=np.zeros((6, 1)), won=np.zeros(6), share=np.zeros(6), hook=np.zeros(6), leads=np.zeros(6),
                        pos=np.array([0, 0, 1, 1, 2, 2]), game=np.array([3, 3, 4, 4, 9, 9]), stage=np.zeros(6, int))
    held = data.subset(data.game % et.HELD_OUT == et.HELD_OUT - 1)
    assert held.game.tolist() == [4, 4, 9, 9] and held.pos.tolist() == [0, 0, 1, 1]


@pytest.mark.parametrize("spec", ["greedy", "search:playouts=30"])
def test_bots_on_the_evaluator_play_legal_moves_reproducibly(spec, positions):
    states, _ = positions["imperial2030"]
    for state in states[10:40:10]:
        legal = state.legal_actions()
        a = make_bot(spec, 7).decide(state, legal)
        assert a in legal and make_bot(spec, 7).decide(state, legal) == a


def test_greedy_plays_every_action_on_from_one_seed(positions):
    # common random numbers: the playouts of one decision make the same draws whatever the action,
    # so the same action judged twice gets the same value; one generator drawn along the actions
    # (same_draws=0, the expert-iteration games' bot) gives this position's fourth action two values
    state = positions["imperial2030"][0][0]
    legal = state.legal_actions()
    values = make_bot("greedy", 7).values(state, legal + legal)
    assert values[:len(legal)] == values[len(legal):] and len(set(values)) > 1
    values = make_bot("greedy:same_draws=0", 7).values(state, legal + legal)
    assert values[:len(legal)] != values[len(legal):]


def test_bot_specs_of_the_evaluator_bots():
    from imperial_lab.core.bots import canonical_spec
    from imperial_lab.core.mcts import SearchBot

    assert canonical_spec("search:seconds=1") == "search"
    assert canonical_spec("search:playouts=64") == "search:playouts=64"
    assert make_bot("search:playouts=64").seconds is None  # a playout budget alone: reproducible
    assert isinstance(make_bot("search", game="imperia"), SearchBot) and make_bot("search").seconds == 1.0
    assert canonical_spec("greedy:margin=0.03", game="imperial_powers") == "greedy"


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(GAMES))
def test_shipped_model_beats_both_baselines_after_the_first_round(game):
    figs = et.check(game, games=200, workers=2, progress=False)  # as `imperial evaluator check`
    assert et.beats_baselines(figs) == []


def test_a_search_without_a_cheap_prior_favours_no_random_choice(monkeypatch, positions):
    from imperial_lab.core.mcts import SearchBot

    state = positions["imperia"][0][3]
    bot = SearchBot(seed=1, playouts=10)
    assert bot.prior_weight(state) == bot.prior > 0
    monkeypatch.setattr(ev.game_part("imperia"), "SEARCH_PRIOR", False)
    assert bot.prior_weight(state) == 0.0
    assert bot.decide(state, state.legal_actions()) in state.legal_actions()


@pytest.mark.parametrize("game", ["imperial2030", "imperia", "imperial_powers"])
def test_every_training_setup_is_a_setup_of_its_game(game):
    """A setup renamed or withdrawn (balanced_4p became heuristic_tuned_4p) must not break a retraining."""
    from imperial_lab.core.setups import load_setup

    for name, _, players in getattr(ev.game_part(game), "TRAINING_SETUPS", ()):
        assert load_setup(name, players=players, game=game)


def test_a_renamed_training_setup_plays_under_the_name_the_shipped_model_was_trained_with():
    """A search bot's draws read the setup's name (it is part of what a seat observes): game 393 of seed
    0 draws heuristic_tuned_4p and an mcts seat; played under the new name it is not the game the
    shipped model learnt from (checked: its positions differ), under the old one it is."""
    from imperial_lab.core.evaluator_train import lineup

    part = ev.game_part("imperial2030")
    config, specs = lineup("imperial2030", part, 0, 393, part.TRAINING_BOTS)
    assert part.TRAINED_AS == {"heuristic_tuned_4p": "balanced_4p"}
    assert config["name"] == "balanced_4p" and "mcts:playouts=8:depth=40" in specs
    standard, _ = lineup("imperial2030", part, 0, 0, part.TRAINING_BOTS)
    assert standard["name"] in {name for name, _, _ in part.TRAINING_SETUPS}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_shipped_model_records_its_games_recipe(game):
    """A change to a game's training (its sizes, bots or setups) comes with the model it trains."""
    shipped = json.loads(ev.model_path(game).read_text(encoding="utf-8"))["recipe"]
    assert {key: shipped[key] for key in shipped if key not in ("seconds", "workers")} == et.recipe(game)


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_shipped_model_rebuilds_from_its_recipe(game):
    """`imperial evaluator train --game G` with the defaults gives the shipped file, weights and figures
    included (a few minutes a game on two cores)."""
    built = et.train(game, workers=2, progress=False, log=lambda *_: None)
    shipped = json.loads(ev.model_path(game).read_text(encoding="utf-8"))
    for doc in (built, shipped):
        del doc["recipe"]["seconds"], doc["recipe"]["workers"]
    assert json.loads(json.dumps(built)) == shipped
