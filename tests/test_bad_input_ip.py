"""Bad input for Imperial Powers, as a new user would give it (issues 7 and 21): every case through the
CLI's ``main(argv)`` in this process, refused as ``tests/bad_input_support.py`` says (exit 2, one
``imperial: error:`` line naming where and why, nothing changed on disk).

Grouped by what was bad: move logs (format, header, action lines), position documents (every field,
and positions whose fields read but break an invariant of a reachable state: the seat each phase
asks, the setup rolls, the deal, the cards of each phase, the Tactics and Event bookkeeping, the
revealed strips), actions given to ``apply``, setup files, options, imports, queries (symbolic links
in a run folder included) and simulations. ``scripts/bad_input_report.py`` counts them.
"""

from __future__ import annotations

import json

import pytest

from imperial_lab.core.bots import RandomBot
from imperial_lab.core.cli import main
from imperial_lab.core.games.imperial_powers.data import data
from imperial_lab.core.play import play_game
from tests.bad_input_support import ACTION_LINE_CASES, DELETE, log_file, make_lab, write
from tests.bad_input_support import (pytest_generate_tests, refused, test_a_log_file_of_more_than_100000_lines,  # noqa: F401
                                     test_a_symbolic_link_in_a_run_is_refused, test_an_import_into_a_simulated_run,
                                     test_an_import_of_bad_logs_writes_nothing, test_apply_refuses_bad_actions,
                                     test_bad_log_format, test_bad_log_headers, test_bad_options, test_bad_positions,
                                     test_bad_queries, test_bad_setup_files, test_log_files_that_cannot_be_read,
                                     test_position_files_that_are_no_documents, test_setup_files_that_are_no_setups,
                                     test_simulate_with_a_scheduler_that_is_not_there,
                                     test_the_base_positions_are_read, test_the_setups_list_gives_the_games_player_range)
# (the shared tests run over this module's GAME and case tables: tests/bad_input_support.py)

LINKED_TABLES = ("ip_events", "ip_games", "im_games")  # a table folder, the games table, another game's
GAME = "imperial_powers"
CONFIG = {"game": GAME, "players": 3}
D = data()


@pytest.fixture(scope="module")
def lab(tmp_path_factory) -> dict:
    """The lab (``make_lab``) with the first position of each phase of its imported game."""
    positions: dict[str, dict] = {}

    def keep(state, player, action, events):
        positions.setdefault(state.decision_name(), state.to_json())

    played = play_game(CONFIG, [RandomBot(p) for p in range(3)], 5, on_step=keep)
    positions["setup_roll_start"] = played.state.game.new_initial_state().to_json()
    return make_lab(tmp_path_factory.mktemp("lab"), GAME, played, 5, positions, simulated_players=3)


def header(**config) -> str:
    return json.dumps({"game": GAME, "format": 1, "config": {**CONFIG, **config}})


# ----- move logs (imperial replay; the same files through import below) -----

HEADER_CASES = {  # the header's config and metadata: id -> (header line, expected words)
    "two players": (header(players=2), "config.players: must be one of [3, 4, 5], got 2"),
    "six players": (header(players=6), "config.players: must be one of [3, 4, 5], got 6"),
    "players as text": (header(players="4"), "config.players: must be one of [3, 4, 5], got '4'"),
    "players and n_players disagree": (header(n_players=4), "config.n_players: 4 but config.players 3"),
    "unknown power assignment": (header(power_assignment="auction"), "config.power_assignment: must be one of"),
    "powers without fixed assignment": (header(powers=["britain", "france", "spain"]),
                                        "config.powers: only with power_assignment 'fixed'"),
    "fixed powers twice the same": (header(power_assignment="fixed", powers=["britain"] * 3), "config.powers: 3 "
                                                                                               "different powers"),
    "fixed powers unknown": (header(power_assignment="fixed", powers=["britain", "france", "venice"]),
                             "config.powers: 3 different powers"),
    "fixed powers for two seats": (header(power_assignment="fixed", powers=["britain", "france"]), "config.powers:"),
    "unknown tie rule": (header(tie_rule="coin"), "config.tie_rule: must be one of"),
    "spain bonus as text": (header(spain_bonus_on_exploitation="yes"), "config.spain_bonus_on_exploitation: must be "
                                                                       "true or false"),
    "unknown portuguese bonus": (header(portuguese_bonus="never"), "config.portuguese_bonus: must be one of"),
    "unknown event resolution": (header(event_resolution="later"), "config.event_resolution: must be one of"),
    "unknown tactics visibility": (header(tactics_visibility="open"), "config.tactics_visibility: must be one of"),
    "zero turns": (header(turns=0), "config.turns: must be a whole number 1..100, got 0"),
    "101 turns": (header(turns=101), "config.turns: must be a whole number 1..100, got 101"),
    "turns as text": (header(turns="3"), "config.turns: must be a whole number 1..100, got '3'"),
    "unknown config key": (header(speed=9), "config: unknown keys ['speed']"),
    "bots for four seats of three": (json.dumps({"game": GAME, "format": 1, "config": CONFIG, "bots": ["random"] * 4}),
                                     "header: bots must name one bot per seat (3), got 4"),
}


ACTION_CASES = {  # after the real header and seat A's setup roll (chance rolls for B next): id -> (line, words)
    **ACTION_LINE_CASES,
    "a seat for chance": ('{"player": 1, "action": "d10 B 5"}', "'player': 1 is not the one to decide"),
    "unparsable action": ('{"player": -1, "action": "dance"}', "cannot read the Imperial Powers action 'dance'"),
    "d10 of 11": ('{"player": -1, "action": "d10 B 11"}', "d10"),
    "d10 of ²": ('{"player": -1, "action": "d10 B ²"}', "d10"),
    "d10 of an Arabic three": ('{"player": -1, "action": "d10 B ٣"}', "d10"),
    "a roll for the wrong seat": ('{"player": -1, "action": "d10 C 5"}', "not a possible chance outcome here"),
    "a card dealt before the rolls": ('{"player": -1, "action": "deal A navy#1"}', "the decision here is a setup d10"),
    "a newline inside the action": ('{"player": -1, "action": "d10 B\\n5"}', "'\\n' in it"),
    "a tab inside the action": ('{"player": -1, "action": "d10\\tB 5"}', "'\\t' in it"),
    "a 60,000-character action": ('{"player": -1, "action": "' + "pass " * 12_000 + '"}', "(60,000 characters)"),
    "invalid UTF-8": (b'{"player": -1, "action": "d10 \xff\xfe 5"}', "is not a seat id"),
}


@pytest.mark.parametrize("case", ACTION_CASES)
def test_bad_log_actions(lab, refused, case):
    line, words = ACTION_CASES[case]
    assert "bad.jsonl:3:" in refused(["replay", log_file(lab, "bad.jsonl", lab["lines"][:2] + [line])], words)


def test_an_action_after_the_end_of_the_game(lab, refused):
    path = log_file(lab, "long.jsonl", lab["lines"] + ['{"player": 0, "action": "pass"}'])
    refused(["replay", path], f"long.jsonl:{len(lab['lines']) + 1}: 'pass' comes after the end of the game")


# ----- position documents (imperial legal) -----

def _seat_after(doc, k: int) -> int:
    return (doc["instigator"] + k) % len(doc["seats"])


def _strip_card(doc) -> tuple[int, str, str]:
    """(seat, region, card) of a card on a strip."""
    return next((p, region, cards[0]) for p, seat in enumerate(doc["seats"]) for region, cards in seat["strip"].items())


def _moved_off_strip(doc):
    p = doc["to_move"]
    mine = {c for cards in doc["seats"][p]["strip"].values() for c in cards}
    doc["tactics"]["moved"] = [next(c for seat in doc["seats"] for cards in seat["strip"].values() for c in cards
                                    if c not in mine)]


def _another_winner(doc):
    """The last round of setup rolls, its rolls turned round: the highest is another seat's."""
    last = doc["setup"]["rounds"][-1]
    for pair, roll in zip(last, [roll for _, roll in last][::-1]):
        pair[1] = roll


def _a_card_twice(doc):
    doc["influence_discard"].append(doc["influence_deck"][0])


def _a_card_missing(doc):
    doc["influence_deck"].pop()


def _revealed_card_twice(doc):
    card = doc["influence_discard"][0]
    doc["seats"][0]["revealed"] = {"europe": [card]}
    doc["seats"][1]["revealed"] = {"india": [card]}


def _deal_swapped(doc):
    draws = doc["deal"]["draws"]
    draws[0], draws[-1] = draws[-1], draws[0]


def _an_event_region_twice(doc):
    rows = doc["events"]["rows"]
    rows[1]["region"] = rows[0]["region"]


def _dice_for_another(doc):
    doc["events"]["dice_for"] = [(doc["events"]["dice_for"][0] + 1) % 3]
    doc["to_move"] = doc["events"]["dice_for"][0]


POSITION_CASES = {  # id: (base phase, edits {dotted: value} or a function of the document, expected words)
    "phase unknown": ("bid", {"phase": "lunch"}, "position.phase: one of setup_roll, choose_power"),
    "phase missing": ("bid", {"phase": DELETE}, "position.phase: missing"),
    "game chess": ("bid", {"game": "chess"}, "position.game: an Imperial Powers position of format 1 expected"),
    "format 2": ("bid", {"format": 2}, "an Imperial Powers position of format 1 expected"),
    "config of 6 players": ("bid", {"config.players": 6}, "config.players: must be one of [3, 4, 5], got 6"),
    "config with an unknown key": ("bid", {"config.speed": 1}, "config: unknown keys ['speed']"),
    "to_move 9": ("bid", {"to_move": 9}, "position.to_move: must be a whole number -1..2, got 9"),
    "to_move -1 in the bid": ("bid", {"to_move": -1}, "seat -1 to move in phase bid"),
    "to_move the wrong seat in the bid": ("bid", lambda d: d.update(to_move=_seat_after(d, 1)),
                                          "not the first seat from the instigator holding cards"),
    "to_move the wrong seat in develop": ("develop", lambda d: d.update(to_move=_seat_after(d, 2)),
                                          "not the first seat from the instigator holding cards"),
    "to_move as text": ("bid", {"to_move": "0"}, "position.to_move: must be a whole number"),
    "to_move -1 at the end": ("over", {"to_move": 1}, "seat 1 to move in phase over"),
    "turn 0": ("bid", {"turn": 0}, "position.turn: must be a whole number 1..10, got 0"),
    "turn 11": ("bid", {"turn": 11}, "position.turn: must be a whole number 1..10, got 11"),
    "turn 3 on turn 1's board": ("bid", {"turn": 3}, "instigator"),
    "instigator 5": ("bid", {"instigator": 5}, "position.instigator: must be a whole number -1..2, got 5"),
    "instigator moved on": ("bid", lambda d: d.update(instigator=_seat_after(d, 1)), "(§5.8)"),
    "first instigator unset mid-game": ("bid", {"first_instigator": -1}, "first instigator"),
    "ply -1": ("bid", {"ply": -1}, "position.ply: must be a whole number 0..1000000"),
    "regions not a list": ("bid", {"regions": {}}, "position.regions: must be a list"),
    "nine regions": ("bid", lambda d: d["regions"].pop(), "position.regions: 10 regions"),
    "regions out of order": ("bid", lambda d: d["regions"].reverse(), "position.regions[0].region: expected"),
    "a resource below the start": ("bid", {"regions.0.resource": 0}, "counters below the start"),
    "power counters 10^7": ("bid", {"regions.0.power": 10**7}, "position.regions[0].power: must be a whole number"),
    "influence for two seats of three": ("bid", lambda d: d["regions"][0]["influence"].pop(),
                                         "position.regions[0].influence: one value per seat (3)"),
    "influence -1": ("bid", {"regions.0.influence.0": -1}, "influence[0]: must be a whole number 0..1000000"),
    "seats not a list": ("bid", {"seats": {}}, "position.seats: must be a list"),
    "two seats of three": ("bid", lambda d: d["seats"].pop(), "position.seats: one entry per seat (3)"),
    "seat numbers swapped": ("bid", {"seats.0.seat": 1}, "position.seats[0].seat: expected 0"),
    "an unknown power": ("bid", {"seats.0.power": "venice"}, "position.seats[0].power: unknown id 'venice'"),
    "no power mid-game": ("bid", {"seats.0.power": None}, "not one different power per seat"),
    "one power twice": ("bid", lambda d: d["seats"][1].update(power=d["seats"][0]["power"]),
                        "not one different power per seat"),
    "vp without a source": ("bid", {"seats.0.vp.spain": DELETE}, "position.seats[0].vp: an object with the sources"),
    "vp negative": ("bid", {"seats.0.vp.places": -1}, "position.seats[0].vp.places: must be a whole number"),
    "starting vp not the power's": ("bid", {"seats.0.vp.start": 7}, "starting VP 7 is not its power's (R22)"),
    "an unknown card in a hand": ("bid", {"seats.0.hand.0": "dragon#1"}, "position.seats[0].hand[0]: unknown id"),
    "a hand in the Tactics": ("tactics", lambda d: d["seats"][0]["hand"].append(d["influence_deck"].pop()),
                              "influence cards in a hand outside the Draw and Bid phases"),
    "a strip of an unknown region": ("tactics", {"seats.0.strip": {"atlantis": []}}, "an object region -> cards"),
    "a strip in the Draw": ("draw", lambda d: d["seats"][0]["strip"].update(europe=[d["influence_deck"].pop()]),
                            "cards on a strip outside the Bid..Tactics phases"),
    "an unknown development card": ("develop", lambda d: d["seats"][0]["dev_hand"].append("moon__cheese"),
                                    "unknown id 'moon__cheese'"),
    "a development hand in the Tactics": ("tactics", lambda d: d["seats"][0]["dev_hand"].append(
        d["development_deck"].pop()), "development cards in a hand after the Develop phase"),
    "revealed strips in the Bid": ("bid", lambda d: d["seats"][0].update(revealed={"europe": [d["influence_deck"][0]]}),
                                   "revealed strips in phase bid"),
    "a revealed card twice": ("event_draw", _revealed_card_twice, "a card shown twice"),
    "a revealed card not discarded": ("event_draw", lambda d: d["seats"][0].update(
        revealed={"europe": [d["influence_deck"][0]]}), "revealed cards not in the discard pile"),
    "revealed under an unknown region": ("event_draw", {"seats.0.revealed": {"atlantis": []}},
                                         "position.seats[0].revealed: an object region -> cards"),
    "an influence card twice": ("bid", _a_card_twice, "influence cards: card"),
    "an influence card missing": ("bid", _a_card_missing, "influence cards: 1 cards are missing"),
    "a development card twice": ("bid", lambda d: d["development_discard"].append(d["development_deck"][0]),
                                 "development cards: card"),
    "setup rollers [0] then a roll for B": ("setup_roll_start", {"setup.rollers": [0]}, "rolls with rollers [0]"),
    "setup rollers of seat 9": ("setup_roll", {"setup.rollers": [9]}, "position.setup.rollers[0]: must be a whole "
                                                                      "number 0..2"),
    "setup roll 11": ("setup_roll", {"setup.rolls": [11]}, "position.setup.rolls[0]: must be a whole number 1..10"),
    "setup rolls for more seats than roll": ("setup_roll", {"setup.rolls": [1, 2, 3]}, "(§2, R2)"),
    "setup round not a pair": ("choose_power", {"setup.rounds.0.0": [0]}, "a [seat, roll] pair"),
    "setup won by another seat": ("bid", _another_winner, "first instigator"),
    "power chosen out of turn": ("choose_power", lambda d: d.update(to_move=_seat_after(d, 1)), "chooses a power"),
    "deal draw of a third deck": ("draw", {"deal.draws.0": [0, "events"]}, "a [seat, 'influence' | 'development']"),
    "deal done beyond the draws": ("draw", {"deal.done": 1000}, "position.deal.done: must be a whole number"),
    "deal not the allotments": ("draw", _deal_swapped, "not this turn's allotments"),
    "deal for another seat": ("draw", lambda d: d.update(to_move=(d["to_move"] + 1) % 3), "deal: draw 0 is for seat"),
    "tactics moves left 11": ("tactics", {"tactics.moves_left": 11}, "position.tactics.moves_left: must be a whole "
                                                                     "number 0..10"),
    "tactics without moves left": ("tactics", {"tactics.moves_left": 0}, "tactics: 0 decisions left"),
    "a moved card of another strip": ("tactics", _moved_off_strip, "(R12)"),
    "a tactics log under hidden tactics": ("event_draw", {"tactics.log": [[0, "europe", "india"]]}, "tactics"),
    "a tactics log entry of two": ("tactics", {"tactics.log": [[0, "europe"]]}, "a [seat, from, to] entry"),
    "an unknown event left": ("event_draw", {"events.left.0": "plague"}, "position.events.left[0]: unknown id"),
    "an event twice in the left outside the events": ("bid", lambda d: d["events"].update(
        left=[D.events[0], D.events[0]]), "outside the Event phase"),
    "an event twice while drawing": ("event_draw", lambda d: d["events"]["left"].append(d["events"]["left"][0]),
                                     "not the ten events once each"),
    "two events on one region": ("event_die", _an_event_region_twice, "a region has two events this turn"),
    "an event drawn by the wrong seat": ("event_die", lambda d: d["events"]["rows"][0].update(
        drawer=(d["events"]["rows"][0]["drawer"] + 1) % 3), "events: draw 0 by seat"),
    "a die of 7": ("event_die", {"events.rows.0.dice": [7]}, "dice[0]: must be a whole number 1..6"),
    "dice for an event without dice": ("event_die", {"events.rows.0.dice": [3]}, "with dice [3]"),
    "an event waiting outside its assignment": ("event_draw", {"events.pending": D.events[0]}, "waits"),
    "more events resolved than assigned": ("event_draw", {"events.resolved": 9}, "position.events.resolved: must be "
                                                                                 "a whole number"),
    "dice to roll outside the dice": ("event_draw", {"events.dice_for": [0]}, "dice outside event_die"),
    "a die for another seat": ("event_die", _dice_for_another, "(§5.7)"),
    "the game goes on after the last turn": ("over", {"phase": "bid"}, "position:"),
}


APPLY_CASES = [  # (base phase, action, expected words)
    ("bid", "dance", "cannot read the Imperial Powers action 'dance'"),
    ("bid", "", "cannot read the Imperial Powers action ''"),
    ("bid", "assign navy#1\neurope", "'\\n' in it"),
    ("bid", "assign\tnavy#1 europe", "'\\t' in it"),
    ("bid", "pass", "must first assign every influence card in hand"),
    ("bid", "assign dragon#1 europe", "'dragon#1' is not a card id"),
    ("tactics", "move navy#1 atlantis", "'atlantis' is not a region id"),
    ("setup_roll_start", "d10 B 5", "not a possible chance outcome here"),
    ("over", "pass", "the game is over"),
]


# ----- setup files (imperial play --setup, simulate --setup, setups show) -----

SETUP_CASES = {  # id: (file content, expected words)
    "description of 2,000 characters": ({"game": GAME, "description": "x" * 2000},
                                        "description: must be a text of 1..1,000 characters"),
    "empty description": ({"game": GAME, "description": ""}, "description: must be a text of 1..1,000"),
    "description a list": ({"game": GAME, "description": ["a"]}, "description: must be a text of 1..1,000"),
    "two players": ({"game": GAME, "players": 2}, "config.players: must be one of [3, 4, 5], got 2"),
    "turns 0": ({"game": GAME, "turns": 0}, "config.turns: must be a whole number 1..100"),
    "fixed powers without their list": ({"game": GAME, "power_assignment": "fixed"}, "config.powers:"),
    "unknown key": ({"game": GAME, "speed": 3}, "config: unknown keys ['speed']"),
    "a game of chess": ({"game": "chess"}, "unknown game 'chess'"),
}


SETUP_FILE_CASES = [  # (bytes, expected words)
    (b"{" + b" " * (8 * 2**20) + b"}", "more than 8,388,608 bytes"),
    (b"{oops", "not valid JSON"),
    (b'{"game": "imperial_powers", "tie_rule": 7}', "config.tie_rule: must be one of"),
]


def test_a_valid_setup_file_is_shown(lab, capsys):
    path = write(lab, "mine.json", json.dumps({"game": GAME, "description": "short", "players": 5, "turns": 4}))
    assert main(["setups", "show", str(path)]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["description"] == "short" and shown["config"]["turns"] == 4 and shown["players"] == 5


# ----- command-line options -----

OPTION_CASES = [  # (argv, expected words)
    (["play", "--game", GAME, "--players", "2"], "--players: Imperial Powers takes 3-5 players, got 2"),
    (["play", "--game", GAME, "--players", "6"], "--players: Imperial Powers takes 3-5 players, got 6"),
    (["play", "--game", GAME, "--bots", "random,random"], "2 bots named for 4 players"),
    (["play", "--game", GAME, "--bots", "genius"], "unknown bot 'genius'"),
    (["play", "--game", GAME, "--setup", "chaos"], "unknown setup 'chaos' of Imperial Powers"),
    (["simulate", "--game", GAME, "--games", "2", "--players", "2", "--out", "runs/x"], "got 2"),
    (["simulate", "--game", GAME, "--games", "2", "--setup", "chaos", "--out", "runs/x"], "unknown setup 'chaos'"),
    (["league", "--game", GAME, "--bots", "random,random", "--games", "2"], "a league of Imperial Powers needs 3..5 bots"),
    (["setups", "show", "nothing", "--game", GAME], "unknown setup 'nothing' of Imperial Powers"),
]


# ----- imports -----

IMPORT_CASES = ["two players", "zero turns", "bots for four seats of three"]  # header cases, imported


def test_an_import_of_bad_actions_into_an_existing_run_writes_nothing(lab, refused):
    path = log_file(lab, "bad.jsonl", lab["lines"][:2] + ['{"player": -1, "action": "dance"}'])
    refused(["import", path, "--run", "club", "--out", lab["root"] / "runs" / "club", "--catalog", lab["catalog"]],
            "cannot read the Imperial Powers action 'dance'")


# ----- simulate: refused before a game is played -----

def test_simulate_into_a_run_with_other_parameters(lab, refused):
    refused(["simulate", "--game", GAME, "--games", "3", "--players", "3", "--setup", "default", "--bots", "random",
             "--out", lab["root"] / "runs" / "small", "--workers", "1"], "holds a run with other parameters")
