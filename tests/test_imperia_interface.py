"""Imperia through the lab's shared layer: configuration, action notation, position documents,
determinism, move logs, bots (core/interface.py, docs/imperia.md)."""

from __future__ import annotations

import io
import json

import pytest

from imperial_lab.core.bots import make_bot
from imperial_lab.core.errors import DataError, IllegalActionError, LogError, NotationError, SetupError
from imperial_lab.core.gamelog import replay, write_log
from imperial_lab.core.games.imperia.actions import parse_action
from imperial_lab.core.games.imperia.board import D, RING_ORTHOGONAL, generate_sides
from imperial_lab.core.games.imperia.data import load_data
from imperial_lab.core.games.imperia.game import Imperia
from imperial_lab.core.interface import CHANCE, make_game
from imperial_lab.core.play import play_game

EXAMPLES = ["start 2", "random board 3B r90", "board 2A NW r180", "fortress 1,2", "draw red inf/o",
            "place cav/d 3,2 SE", "warlord 2,5", "mobilise 2,3 E", "swap own 2,2 2,3 cube 2,3 N",
            "swap enemy 4,3 3,5 N", "retire", "draw orange gen/d"]


def random_game(players: int, seed: int = 1, **config):
    cfg = {"game": "imperia", "players": players, **config}
    return play_game(cfg, [make_bot("random", seed + p) for p in range(players)], seed)


# ----- configuration -----

def test_make_game_and_defaults():
    game = make_game({"game": "imperia", "players": 3})
    assert isinstance(game, Imperia) and game.num_players == 3 and game.name == "imperia"
    assert Imperia({}).num_players == 4
    state = game.new_initial_state()
    assert state.current_player() == CHANCE and state.decision_name() == "start"


@pytest.mark.parametrize("config, key", [
    ({"players": 5}, "players"), ({"players": "3"}, "players"), ({"start_seat": 4}, "start_seat"),
    ({"players": 2, "start_seat": 2}, "start_seat"), ({"layout": "fancy"}, "layout"),
    ({"layout": [{"A": ["FFFF"] * 4}] * 4}, "layout"), ({"layout": "generated", "layout_seed": -1}, "layout_seed"),
    ({"layout": "generated", "layout_counts": {"F": 8, "M": 8, "V": 1}}, "layout_counts"),
    ({"layout_seed": 3}, "layout_seed"), ({"terrain_override": ["F" * 8] * 8}, "terrain_override"),
    ({"fortress_min_distance": 4}, "fortress_min_distance"), ({"castle_ring": "round"}, "castle_ring"),
    ({"colour": "red"}, "unknown keys"), ({"game": "chess"}, "game"),
])
def test_bad_configs_name_the_key(config, key):
    with pytest.raises(SetupError) as err:
        Imperia(config)
    assert key in str(err.value)


def test_layouts():
    assert generate_sides(D.generator_seed) == D.sides  # the frozen default set is the generator's seed 1
    other = Imperia({"layout": "generated", "layout_seed": 9})
    assert other.sides != D.sides and len(other.sides) == 4
    explicit = [{"A": ["FFFF", "MMMM", "VFVF", "FFFF"], "B": ["MMMM"] * 4}] * 4
    played = random_game(4, layout=explicit, start_seat=0)
    assert set(played.state.terrain) <= set("FMVC")
    assert Imperia({"castle_ring": "orthogonal_8"}).ring_mask.bit_count() == len(RING_ORTHOGONAL) == 8
    close = Imperia({"fortress_min_distance": 2, "start_seat": 0, "terrain_override": ["F" * 8] * 3 + ["FFFCCFFF"] * 2
                     + ["F" * 8] * 3}).new_initial_state()
    close.apply_action(parse_action("fortress 1,1"))
    assert parse_action("fortress 1,3") in close.legal_actions()


def test_data_errors(tmp_path):
    bad = tmp_path / "data.json"
    doc = json.loads(open("data/imperia/data.json").read())
    doc["board_sides"]["boards"][0]["sides"]["A"] = ["FFF"]
    bad.write_text(json.dumps(doc))
    with pytest.raises(DataError, match="boards\\[0\\].sides.A"):
        load_data(bad)
    bad.write_text("{}")
    with pytest.raises(DataError):
        load_data(bad)


# ----- notation -----

@pytest.mark.parametrize("text", EXAMPLES)
def test_notation_round_trip(text):
    state = Imperia({}).new_initial_state()
    assert state.action_to_string(state.string_to_action(text)) == text


@pytest.mark.parametrize("text", ["", "place", "place inf/x 2,2 S", "place inf/o 8,2 S", "place inf/o 2,2 Q",
                                  "board 5A NW r0", "board 1C NW r0", "board 1A XX r0", "board 1A NW r45",
                                  "draw blue inf/o", "start 12", "swap 1,1 2,2", "warlord", "retire now", 7])
def test_bad_notation(text):
    with pytest.raises(NotationError):
        parse_action(text)


def test_illegal_action_leaves_the_state_unchanged():
    state = Imperia({"start_seat": 0}).new_initial_state()
    before = state.to_json()
    for action in [parse_action("fortress 1,1"), ("nonsense",), [1, 2], parse_action("place inf/o 2,2 S")]:
        with pytest.raises(IllegalActionError) as err:
            state.apply_action(action)
        assert err.value.rule.startswith("§")
    assert state.to_json() == before


# ----- position documents -----

@pytest.mark.parametrize("players", [2, 3, 4])
def test_json_round_trip_at_every_step(players):
    played = random_game(players, seed=4)
    game = make_game(played.config)
    state = game.new_initial_state()
    for _, action in played.actions:
        doc = json.loads(json.dumps(state.to_json()))
        rebuilt = game.state_from_json(doc)
        assert rebuilt == state and rebuilt.legal_actions() == state.legal_actions()
        state.apply_action(action)
    assert game.state_from_json(state.to_json()).winners() == state.winners()


def test_bad_documents():
    played = random_game(4)
    game = make_game(played.config)
    good = played.state.to_json()
    with pytest.raises(NotationError, match="config"):
        make_game({"game": "imperia", "players": 3}).state_from_json(good)
    for mutate, where in [(lambda d: d.pop("stacks"), "stacks"), (lambda d: d.update(phase="lunch"), "phase"),
                          (lambda d: d["players"][0].update(hand={"inf/x": 1}), "hand"),
                          (lambda d: d["stacks"][0].update(tiles=["red:F"]), "tiles"),
                          (lambda d: d["players"][0].update(pile={"inf/o": 3, "inf/d": 3, "cav/o": 2}), r"players\[0\]")]:
        doc = json.loads(json.dumps(good))
        mutate(doc)
        with pytest.raises(NotationError, match=where):
            game.state_from_json(doc)
    with pytest.raises(NotationError):
        game.state_from_json([1, 2])


# ----- determinism, logs, bots -----

@pytest.mark.parametrize("players", [2, 3, 4])
def test_determinism(players):
    a, b = random_game(players, seed=9), random_game(players, seed=9)
    assert a.actions == b.actions and a.state == b.state
    assert random_game(players, seed=10).actions != a.actions


@pytest.mark.parametrize("players", [2, 3, 4])
def test_log_replay(players):
    played = random_game(players, seed=12)
    buf = io.StringIO()
    write_log(buf, played, seed=12, bots=["random"] * players)
    lines = buf.getvalue().splitlines()
    assert json.loads(lines[0])["game"] == "imperia"
    assert replay(lines) == played.state
    broken = lines[:-1] + [json.dumps({"player": json.loads(lines[-1])["player"], "action": "retire"})]
    with pytest.raises(LogError):
        replay(broken)


def test_random_bot_games_end_with_winners():
    for players in (2, 3, 4):
        for seed in range(5):
            state = random_game(players, seed).state
            assert state.is_terminal() and 1 <= len(state.winners()) <= players
            assert len(state.returns()) == players
