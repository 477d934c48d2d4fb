"""Action texts and position documents: every form round-trips, every bad input is named."""

from __future__ import annotations

import copy

import pytest

from imperial_lab.core.bots import RandomBot
from imperial_lab.core.errors import NotationError
from imperial_lab.core.games.imperial2030 import actions as A
from imperial_lab.core.games.imperial2030.data import NATIONS, load_board
from imperial_lab.core.interface import make_game
from imperial_lab.core.play import play_game
from tests.builders import position

KINDS = {getattr(A, name): name for name in ("DEAL", "TOPUP", "RONDEL", "VETO", "BUILD", "PRODUCE", "IMPORT",
                                             "FLEET", "ARMY", "CANAL", "FIGHT", "DEMAND", "DECLINE", "BATTLE",
                                             "DESTROY", "END", "FLAG", "BUY", "UPGRADE", "PASS")}


class _Sample:
    """What random games over every player count and both preset setups offer: each distinct
    legal action, and every 23rd state (enough for the position round trip)."""

    def __init__(self, games: int = 40):
        self.actions, self.states, self.steps = set(), [], 0
        for seed in range(games):
            config = {"game": "imperial2030", "players": 2 + seed % 5, "setup": ("standard", "variant")[seed % 2]}
            self._see(make_game(config).new_initial_state())
            play_game(config, [RandomBot(seed * 10 + p) for p in range(6)], seed, record=False,
                      on_step=lambda s, *_: self._see(s))
        self._see(_flag_choice_state())

    def _see(self, state):
        self.actions.update(state.legal_actions())
        self.steps += 1
        if self.steps % 23 == 0 or state.is_terminal():
            self.states.append(state.clone())


def _flag_choice_state():
    """RU has one flag left in its supply but two regions to flag (§7.4.8): a flag decision."""
    b = load_board()
    neutral = [b.region_ids[r] for r in b.neutral]
    return position(nations={"RU": {"government": 0, "flags": neutral[:b.flags_per_nation - 1]}},
                    bonds={0: ["RU 4"]},
                    decision={"kind": "flag", "player": 0, "flags_to_place": [["RU", neutral[-2:]]]})


@pytest.fixture(scope="module")
def sample():
    return _Sample()


def test_every_action_kind_round_trips_through_its_text(sample):
    state = sample.states[0]
    for action in sample.actions:
        text = state.action_to_string(action)
        assert state.string_to_action(text) == action, text
        assert state.action_to_string(state.string_to_action(text)) == text
    assert {KINDS[a[0]] for a in sample.actions} == set(KINDS.values())


README_EXAMPLES = [
    "deal RU,CN,IN,BR", "buy RU 3", "upgrade CN 2 -> 5", "pass", "topup 3", "rondel taxation", "veto",
    "no veto", "build berlin", "build none", "produce moscow,vladivostok", "produce none",
    "import army moscow", "import fleet vladivostok", "import done", "move fleet london -> north_atlantic",
    "move army moscow -> ukraine", "move army ukraine -> berlin as hostile",
    "move hostile army berlin -> murmansk as friendly", "move army rome -> north_africa via mediterranean_sea",
    "allow", "deny", "fight CN fleet", "fight EU hostile army", "decline", "demand army",
    "demand friendly army", "battle fleet china_sea vs CN fleet", "battle army korea vs CN army",
    "destroy murmansk with 3 hostile", "end maneuver", "flag peru",
]


@pytest.mark.parametrize("text", README_EXAMPLES)
def test_documented_examples_parse_and_print_back(text):
    board = load_board()
    assert A.action_text(board, A.parse_action(board, text)) == text


@pytest.mark.parametrize("text, why", [
    ("", "expected an action"),
    ("jump", "unknown action 'jump'"),
    ("rondel beach", "unknown rondel space 'beach'"),
    ("deal RU,XX,IN", "unknown nation 'XX'"),
    ("buy RU 10", "from 1 to 9"),
    ("buy RU", "expected a number"),
    ("move army moscow -> atlantis", "unknown region 'atlantis'"),
    ("move army moscow ukraine", "expected '->'"),
    ("move tank moscow -> ukraine", "expected 'army' or 'fleet'"),
    ("import hostile army moscow", "no stance"),
    ("move army moscow -> ukraine as neutral", "expected 'hostile' or 'friendly'"),
    ("destroy murmansk with 4 hostile", "from 0 to 3"),
    ("end maneuver now", "unexpected 'now'"),
    ("no vote", "expected 'veto'"),
])
def test_parse_errors_name_the_text(text, why):
    with pytest.raises(NotationError) as info:
        A.parse_action(load_board(), text)
    assert f"cannot parse action {text!r}" in str(info.value)
    assert why in str(info.value)


# ----- position documents -----

def _assert_round_trip(state):
    doc = state.to_json()
    again = state.game.state_from_json(doc)
    assert again.to_json() == doc
    assert again.current_player() == state.current_player()
    assert again.legal_actions() == state.legal_actions()


def _finished_variant(state) -> bool:
    return state.is_terminal() and state.to_json()["config"]["setup"] == "variant"


def test_position_documents_round_trip(sample):
    for state in sample.states:
        _assert_round_trip(state)


def test_finished_variant_game_round_trips(sample):
    """The variant's pick counter survives a game_over decision (a bug fixed once)."""
    finished = list(filter(_finished_variant, sample.states))
    assert finished
    for state in finished:
        _assert_round_trip(state)


@pytest.fixture(scope="module")
def document():
    """A mid-game position of a 4-player game, with units and flags on the board."""
    config = {"game": "imperial2030", "players": 4}
    docs = []
    play_game(config, [RandomBot(p) for p in range(4)], 3,
              on_step=lambda s, *_: docs.append(s.to_json()) if len(docs) < 400 else None)
    return docs[-1]


def _with(document, change):
    doc = copy.deepcopy(document)
    change(doc)
    return doc


def _home(nation: str) -> str:
    b = load_board()
    return b.region_ids[b.homes[NATIONS.index(nation)][0]]


@pytest.mark.parametrize("field, change", [
    ("units[0].region", lambda d: d["units"][0].update(region="atlantis")),
    ("units[0].nation", lambda d: d["units"][0].update(nation="XX")),
    ("units[0].unit", lambda d: d["units"][0].update(unit="tank")),
    ("units[0].stance", lambda d: d["units"][0].update(unit="army", region="moscow", nation="RU",
                                                        stance="sideways")),
    ("units[0]: an army has a stance", lambda d: d["units"][0].update(unit="army", region="moscow", nation="RU",
                                                                      stance="hostile")),
    ("units[0]: an army cannot stand at sea", lambda d: d["units"][0].update(unit="army", region="north_atlantic",
                                                                            stance=None)),
    ("nations.EU.flags: no flag may stand in the home province", lambda d: d["nations"]["EU"]["flags"].append(
        _home("RU"))),
    ("nations.RU.flags: unknown region", lambda d: d["nations"]["RU"]["flags"].append("atlantis")),
    ("nations.CN.factories: moscow is not a home province of CN",
     lambda d: d["nations"]["CN"]["factories"].append("moscow")),
    ("nations: unknown nation 'XX'", lambda d: d["nations"].update(XX={})),
    ("nations.RU.rondel", lambda d: d["nations"]["RU"].update(rondel="beach")),
    ("turn.nation: unknown nation", lambda d: d["turn"].update(nation="ZZ")),
    ("decision.kind", lambda d: d["decision"].update(kind="nap")),
    ("players[1].bonds[0]", lambda d: d["players"][1]["bonds"].insert(0, "XX 4")),
    ("position players: expected a list of 4 players", lambda d: d["players"].pop()),
])
def test_bad_position_documents_name_the_field(document, field, change):
    game = make_game(document["config"])
    with pytest.raises(NotationError) as info:
        game.state_from_json(_with(document, change))
    assert field in str(info.value), str(info.value)


def test_a_hand_written_position_needs_only_config_players_and_nations():
    game = make_game({"game": "imperial2030", "players": 2})
    state = game.state_from_json({
        "config": game.config,
        "players": [{"cash": 10, "bonds": ["RU 4"]}, {"cash": 10, "bonds": ["CN 4"]}],
        "nations": {"RU": {"government": 0, "factories": ["moscow"]}, "CN": {"government": 1}},
        "turn": {"nation": "RU"},
    })
    assert state.current_player() == 0
    assert "rondel factory" in {state.action_to_string(a) for a in state.legal_actions()}
