"""Imperial Powers through the lab's shared layer: the plug-in, configuration, action notation, position
documents, determinism, move logs, the command line and the generic bots (core/interface.py)."""

from __future__ import annotations

import io
import json

import pytest

from imperial_lab.core import registry
from imperial_lab.core.bots import make_bot
from imperial_lab.core.cli import main
from imperial_lab.core.errors import DataError, IllegalActionError, LogError, NotationError, SetupError
from imperial_lab.core.gamelog import replay, write_log
from imperial_lab.core.games.imperial_powers.actions import parse_action
from imperial_lab.core.games.imperial_powers.data import DATA_PATH, load_data
from imperial_lab.core.games.imperial_powers.game import ImperialPowers
from imperial_lab.core.games.imperial_powers.builders import build
from imperial_lab.core.interface import CHANCE, make_game
from imperial_lab.core.play import play_game

EXAMPLES = ["d10 A 7", "power britain", "deal A navy#1", "deal E europe__weapons", "assign navy#1 europe",
            "play europe__weapons", "move spies#1 india", "pass", "event conquest", "event to europe", "d6 B 4",
            "d10 C 10", "assign treaty#2 caribbean"]


def random_game(players: int, seed: int = 1, **config):
    cfg = {"game": "imperial_powers", "players": players, **config}
    return play_game(cfg, [make_bot("random", seed + p, game="imperial_powers") for p in range(players)], seed)


# ----- the plug-in and the configuration -----

def test_the_plugin_is_registered():
    owner = registry.plugin("imperial_powers")
    assert (owner.title, owner.default_setup, set(owner.bots)) == ("Imperial Powers", "default", {"heuristic"})
    for part in ("tables", "texts", "pages"):
        assert owner.part(part) is not None, part
    assert "imperial_lab.core.games.imperial_powers.plugin" in registry.PLUGINS


@pytest.mark.parametrize("players", [3, 4, 5])
def test_make_game_for_every_player_count(players):
    game = make_game({"game": "imperial_powers", "players": players})
    assert isinstance(game, ImperialPowers) and game.num_players == players and game.name == "imperial_powers"
    assert make_game({"game": "imperial_powers", "n_players": players}).config == game.config
    state = game.new_initial_state()
    assert state.current_player() == CHANCE and state.decision_name() == "setup_roll"


def test_defaults_follow_data_json_options():
    config = ImperialPowers({}).config
    assert config == {"game": "imperial_powers", "players": 4, "power_assignment": "pick",
                      "tie_rule": "drop_to_lowest_shared_place", "spain_bonus_on_exploitation": False,
                      "portuguese_bonus": "once", "event_resolution": "immediate", "tactics_visibility": "hidden",
                      "turns": 10}
    assert ImperialPowers(config).config == config  # a normalised config is accepted as it is


@pytest.mark.parametrize("config, key", [
    ({"players": 2}, "players"), ({"players": 6}, "players"), ({"players": "4"}, "players"),
    ({"n_players": 7}, "n_players"), ({"players": 3, "n_players": 4}, "n_players"),
    ({"power_assignment": "auction"}, "power_assignment"), ({"power_assignment": "fixed"}, "powers"),
    ({"power_assignment": "fixed", "powers": ["spain"] * 4}, "powers"),
    ({"power_assignment": "fixed", "powers": ["spain", "dutch", "france"]}, "powers"),
    ({"powers": ["spain", "dutch", "france", "britain"]}, "powers"), ({"tie_rule": "coin"}, "tie_rule"),
    ({"spain_bonus_on_exploitation": 1}, "spain_bonus_on_exploitation"),
    ({"portuguese_bonus": "never"}, "portuguese_bonus"), ({"event_resolution": "later"}, "event_resolution"),
    ({"tactics_visibility": "open"}, "tactics_visibility"), ({"turns": 0}, "turns"), ({"turns": 2.5}, "turns"),
    ({"seed": 3}, "unknown keys"), ({"game": "imperia"}, "game"),
])
def test_bad_configs_name_the_key(config, key):
    with pytest.raises(SetupError) as err:
        ImperialPowers(config)
    assert key in str(err.value)


def test_data_errors_name_the_entry(tmp_path):
    doc = json.loads(DATA_PATH.read_text())
    assert load_data(DATA_PATH).card_names[:2] == ("explorers#1", "explorers#2")  # canonical order
    bad = tmp_path / "data.json"
    doc["development_deck"]["cards"][3]["region"] = "atlantis"
    bad.write_text(json.dumps(doc))
    with pytest.raises(DataError, match=r"development_deck.cards\[3\]"):
        load_data(bad)
    bad.write_text("{}")
    with pytest.raises(DataError):
        load_data(bad)


# ----- notation -----

@pytest.mark.parametrize("text", EXAMPLES)
def test_notation_round_trip(text):
    state = ImperialPowers({}).new_initial_state()
    assert state.action_to_string(state.string_to_action(text)) == text


@pytest.mark.parametrize("text, rule", [
    ("", "§6.1"), ("assign navy#3 europe", "§1.2"), ("assign navy#1 atlantis", "§0.2"), ("deal F navy#1", "§0.2"),
    ("deal A europe__gold", "§1.2"), ("play navy#1", "§1.3"), ("event armageddon", "§1.4"), ("d6 A 7", "§5.7"),
    ("d10 A 0", "§2"), ("power prussia", "§1.1"), ("pass now", "§6.1"), ("move spies#1", "§6.1"), (7, ""),
])
def test_bad_notation_names_the_rule(text, rule):
    with pytest.raises(NotationError) as err:
        parse_action(text)
    assert f"RULES.md {rule}" in str(err.value) or not rule


def test_illegal_actions_leave_the_state_unchanged():
    state = build(phase="bid", hands={0: ["navy#1", "spies#1"]})
    before = json.dumps(state.to_json())
    for action in [parse_action("assign navy#1 europe"), parse_action("pass"), ("nonsense",), [1, 2], (4, -1, 0),
                   parse_action("deal A navy#2")]:
        with pytest.raises(IllegalActionError) as err:
            state.apply_action(action)
        assert err.value.rule
    assert json.dumps(state.to_json()) == before


# ----- position documents -----

@pytest.mark.parametrize("players", [3, 4, 5])
def test_json_round_trip_at_every_ply(players):
    played = random_game(players, seed=4, turns=3, power_assignment="random", tactics_visibility="regions_public")
    game = make_game(played.config)
    state = game.new_initial_state()
    for _, action in played.actions:
        text = json.dumps(state.to_json())
        rebuilt = game.state_from_json(json.loads(text))
        assert json.dumps(rebuilt.to_json()) == text and rebuilt.legal_actions() == state.legal_actions()
        state.apply_action(action)
    assert game.state_from_json(state.to_json()).winners() == state.winners()


def test_bad_documents_are_refused_naming_the_field():
    played = random_game(4, turns=1)
    game = make_game(played.config)
    good = played.state.to_json()
    with pytest.raises(NotationError, match="config"):
        make_game({"game": "imperial_powers", "players": 3}).state_from_json(good)
    for mutate, where in [(lambda d: d.pop("seats"), "seats"), (lambda d: d.update(phase="lunch"), "phase"),
                          (lambda d: d["seats"][0].update(hand=["navy#9"]), "hand"),
                          (lambda d: d["regions"][0].update(influence=[-1, 0, 0, 0]), "influence"),
                          (lambda d: d["seats"][1].update(hand=["navy#1"]), "influence cards"),
                          (lambda d: d["events"].update(rows="many"), "events.rows")]:
        doc = json.loads(json.dumps(good))
        mutate(doc)
        with pytest.raises(NotationError, match=where):
            game.state_from_json(doc)
    with pytest.raises(NotationError):
        game.state_from_json([1, 2])


# ----- determinism, logs, the command line, bots -----

@pytest.mark.parametrize("players", [3, 4, 5])
def test_determinism(players):
    a, b = random_game(players, seed=9), random_game(players, seed=9)
    assert a.actions == b.actions and json.dumps(a.state.to_json()) == json.dumps(b.state.to_json())
    assert random_game(players, seed=10).actions != a.actions
    replayed = make_game(a.config).new_initial_state()
    for _, action in a.actions:
        replayed.apply_action(action)
    assert json.dumps(replayed.to_json()) == json.dumps(a.state.to_json())


@pytest.mark.parametrize("players", [3, 4, 5])
def test_log_replay(players):
    played = random_game(players, seed=12, power_assignment="random")
    buf = io.StringIO()
    write_log(buf, played, seed=12, bots=["random"] * players)
    lines = buf.getvalue().splitlines()
    assert json.loads(lines[0])["game"] == "imperial_powers"
    assert sum(json.loads(line)["player"] == CHANCE for line in lines[1:]) > 300  # every deal, event and die
    assert replay(lines) == played.state
    broken = lines[:-1] + [json.dumps({"player": json.loads(lines[-1])["player"], "action": "pass"})]
    with pytest.raises(LogError):
        replay(broken)


def test_cli_play_json_gives_winners_and_scores(capsys):
    assert main(["play", "--game", "imperial_powers", "--players", "3", "--seed", "5", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["config"]["game"] == "imperial_powers" and summary["finished"]
    assert len(summary["scores"]) == 3 and summary["winners"]
    assert summary["scores"][summary["winners"][0]] == max(summary["scores"])
    assert main(["play", "--game", "imperial_powers", "--players", "3", "--seed", "5", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == summary


def test_random_bot_games_end_with_consistent_winners():
    for players in (3, 4, 5):
        for seed in range(3):
            state = random_game(players, seed).state
            scores = state.returns()
            assert state.is_terminal() and len(scores) == players
            assert set(state.winners()) <= {p for p, s in enumerate(scores) if s == max(scores)}


def test_mcts_plays_a_full_game():
    bots = [make_bot("mcts:playouts=2:depth=8", 3, game="imperial_powers"),
            make_bot("random", 4, game="imperial_powers"), make_bot("random", 5, game="imperial_powers")]
    played = play_game({"game": "imperial_powers", "players": 3}, bots, 6)
    assert played.state.is_terminal() and played.state.turn == 10 and played.state.winners()
