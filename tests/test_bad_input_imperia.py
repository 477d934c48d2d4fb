"""Bad input for Imperia, as a new user would give it (issues 7 and 21): every case through the CLI's
``main(argv)`` in this process, refused as ``tests/bad_input_support.py`` says (exit 2, one
``imperial: error:`` line naming where and why, nothing changed on disk).

Grouped by what was bad: move logs (format, header, action lines), position documents (every field,
and positions whose fields read but break an invariant of a reachable state: phase against step and
seat, boards against terrain, tiles against ids and counts, cube, warlord, general of an order),
actions given to ``apply``, setup files, options, imports, queries (symbolic links in a run
folder included) and simulations. ``scripts/bad_input_report.py`` counts them.
"""

from __future__ import annotations

import json

import pytest

from imperial_lab.core.bots import RandomBot
from imperial_lab.core.cli import main
from imperial_lab.core.games.imperia.actions import WARLORD
from imperial_lab.core.games.imperia.game import Imperia
from imperial_lab.core.games.imperia.builders import build
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

LINKED_TABLES = ("im_space_final", "im_games", "ip_games")  # a table folder, the games table, another game's
GAME = "imperia"
CONFIG = {"game": "imperia", "players": 3}


class PatientBot(RandomBot):
    """Random, keeping the warlord to the last: a long game, with orders and crowded stacks."""

    def decide(self, state, legal_actions):
        units = [a for a in legal_actions if a[0] != WARLORD]
        return super().decide(state, units or legal_actions)


@pytest.fixture(scope="module")
def lab(tmp_path_factory) -> dict:
    """The lab (``make_lab``) with a position of each phase of its imported game (the first of each;
    ``turn`` one halfway, ``late_turn`` the last)."""
    positions: dict[str, dict] = {}
    turns: list[dict] = []

    def keep(state, player, action, events):
        positions.setdefault(state.decision_name(), state.to_json())
        if state.decision_name() == "turn":
            turns.append(state.to_json())

    played = play_game(CONFIG, [PatientBot(p) for p in range(3)], 2, on_step=keep)
    positions["turn"], positions["late_turn"] = turns[len(turns) // 2], turns[-1]  # with stacks on the board
    return make_lab(tmp_path_factory.mktemp("lab"), GAME, played, 2, positions, simulated_players=2)


def header(**config) -> str:
    return json.dumps({"game": GAME, "format": 1, "config": {**CONFIG, **config}})


# ----- move logs (imperial replay; the same files through import below) -----

HEADER_CASES = {  # the header's config and metadata: id -> (header line, expected words)
    "five players": (header(players=5), "config.players: must be 2, 3 or 4, got 5"),
    "one player": (header(players=1), "config.players: must be 2, 3 or 4, got 1"),
    "players as text": (header(players="3"), "config.players: must be 2, 3 or 4, got '3'"),
    "players true": (header(players=True), "config.players: must be 2, 3 or 4, got True"),
    "start seat 3 of 3": (header(start_seat=3), "config.start_seat: must be a seat 0..2 or null, got 3"),
    "start seat as text": (header(start_seat="0"), "config.start_seat: must be a seat 0..2 or null"),
    "unknown layout": (header(layout="random"), "config.layout: 'default', 'generated' or a list of 4 boards"),
    "layout of three boards": (header(layout=[{"A": [], "B": []}] * 3), "config.layout:"),
    "layout seed with the default layout": (header(layout_seed=4), "only with layout 'generated'"),
    "negative layout seed": (header(layout="generated", layout_seed=-1), "config.layout_seed: must be a whole number"),
    "layout counts not summing to 16": (header(layout="generated", layout_counts={"F": 16, "M": 1, "V": 0}),
                                        "config.layout_counts: F, M and V counts summing to 16"),
    "terrain of 3 rows": (header(terrain_override=["FFFFFFFF"] * 3), "config.terrain_override: 8 strings"),
    "terrain without the castle": (header(terrain_override=["FFFFFFFF"] * 8), "C must mark exactly the castle"),
    "fortress distance 4": (header(fortress_min_distance=4), "config.fortress_min_distance: must be 2 or 3, got 4"),
    "castle ring a list": (header(castle_ring=[]), "config.castle_ring: must be one of"),
    "castle ring an object": (header(castle_ring={}), "config.castle_ring: must be one of"),
    "castle ring unknown": (header(castle_ring="square"), "config.castle_ring: must be one of"),
    "general classes not adding up": (header(general_classes={"orth": 3, "diag": 3}), "config.general_classes:"),
    "general classes as text": (header(general_classes="2/2"), "config.general_classes:"),
    "unknown general orders": (header(general_orders="none"), "config.general_orders: must be one of"),
    "uncovered tiles score as text": (header(uncovered_tiles_score="yes"), "config.uncovered_tiles_score: must be true"),
    "unknown config key": (header(speed=9), "config: unknown keys ['speed']"),
    "bots for two seats of three": (json.dumps({"game": GAME, "format": 1, "config": CONFIG, "bots": ["random"] * 2}),
                                    "header: bots must name one bot per seat (3), got 2"),
}


ACTION_CASES = {  # after the real header and start seat (SEAT places a board next): id -> (line, words)
    **ACTION_LINE_CASES,
    "wrong seat": ('{"player": OTHER, "action": "board 3B SW r270"}', "is not the one to decide"),
    "chance seat for a player": ('{"player": -1, "action": "board 3B SW r270"}', "is not the one to decide"),
    "unparsable action": ('{"player": SEAT, "action": "dance"}', "cannot read the Imperia action 'dance'"),
    "board 5": ('{"player": SEAT, "action": "board 5A NW r0"}', "cannot read the Imperia action"),
    "rotation 45": ('{"player": SEAT, "action": "board 1A NW r45"}', "cannot read the Imperia action"),
    "a fortress before the boards": ('{"player": SEAT, "action": "fortress 1,3"}', "the decision here is a board placement"),
    "the chance quadrant": ('{"player": SEAT, "action": "board 1A SE r0"}', "[RULES.md §3.2]"),
    "a newline inside the action": ('{"player": SEAT, "action": "board 1A\\nNW r0"}', "'\\n' in it"),
    "a tab inside the action": ('{"player": SEAT, "action": "board\\t1A NW r0"}', "'\\t' in it"),
    "a 60,000-character action": ('{"player": SEAT, "action": "' + "board " * 10_000 + '"}', "(60,000 characters)"),
    "invalid UTF-8": (b'{"player": SEAT, "action": "board \xff\xfe"}', "cannot read the Imperia action"),
}


@pytest.mark.parametrize("case", ACTION_CASES)
def test_bad_log_actions(lab, refused, case):
    line, words = ACTION_CASES[case]
    first = next(k for k, text in enumerate(lab["lines"]) if '"action": "board' in text)
    seat = json.loads(lab["lines"][first])["player"]  # SEAT decides next, OTHER does not
    for name, value in (("SEAT", seat), ("OTHER", (seat + 1) % 3)):
        line = line.replace(name, str(value)) if isinstance(line, str) else line.replace(name.encode(), b"%d" % value)
    path = log_file(lab, "bad.jsonl", lab["lines"][:first] + [line])
    assert f"bad.jsonl:{first + 1}:" in refused(["replay", path], words)


def test_an_action_after_the_end_of_the_game(lab, refused):
    path = log_file(lab, "long.jsonl", lab["lines"] + ['{"player": 0, "action": "retire"}'])
    refused(["replay", path], f"long.jsonl:{len(lab['lines']) + 1}: 'retire' comes after the end of the game")


# ----- position documents (imperial legal) -----

def _first_tile(doc, colour: str) -> tuple[int, int]:
    """(stack, level) of the first tile of ``colour`` on the board."""
    return next((k, i) for k, s in enumerate(doc["stacks"]) for i, t in enumerate(s["tiles"]) if t.startswith(colour))


def _mover(doc) -> dict:
    return doc["players"][doc["to_move"]]


def _own_other_space(doc) -> list[int]:
    """A space whose top tile is the mover's, other than its cube."""
    colour = _mover(doc)["colour"]
    return next(s["space"] for s in doc["stacks"] if s["tiles"][-1].startswith(colour) and s["space"] != _mover(doc)["cube"])


def _tile_twice(doc):
    k, i = _first_tile(doc, "red")
    other = next(s for s in doc["stacks"] if s is not doc["stacks"][k])
    other["tiles"].append(doc["stacks"][k]["tiles"][i])
    other["facings"].append(doc["stacks"][k]["facings"][i])


def _next_id_on_board(doc):
    """A red tile on the board replaced by the last one of its type, which is off the board (the board
    holds the first tiles of each type)."""
    tiles = Imperia(doc["config"]).tiles
    on_board = [t for s in doc["stacks"] for t in s["tiles"] if t.startswith("red:") and t != "red:W"]
    for t in tiles.types:
        ids = [f"red:{tiles.ids[k]}" for k in tiles.type_ids[t]]
        held = [tile for tile in on_board if tile in ids]
        if 0 < len(held) < len(ids):
            stack = next(s for s in doc["stacks"] if held[0] in s["tiles"])
            stack["tiles"][stack["tiles"].index(held[0])] = ids[-1]
            return


def _facing_of_the_other_class(doc):
    k, i = _first_tile(doc, "red")
    doc["stacks"][k]["facings"][i] = {"N": "NE", "E": "SE", "S": "SW", "W": "NW"}.get(doc["stacks"][k]["facings"][i], "N")


def _more_tiles_than_owned(doc):
    doc["players"][0]["pile"] = {**doc["players"][0]["pile"], "gen/o": 2}
    doc["players"][0]["hand"] = {**doc["players"][0]["hand"], "gen/o": 2}


def _on_a_fortress(doc):
    doc["stacks"][0]["space"] = doc["fortresses"][0]


def _warlord_covered(doc):
    stack = doc["stacks"][0]
    stack["tiles"], stack["facings"] = ["red:W", *stack["tiles"]], [None, *stack["facings"]]


def _order_general_moved(doc):
    doc["general"] = _own_other_space(doc)


POSITION_CASES = {  # id: (base phase, edits {dotted: value} or a function of the document, expected words)
    "phase unknown": ("turn", {"phase": "lunch"}, "position.phase: one of start, random_board"),
    "phase missing": ("turn", {"phase": DELETE}, "position.phase: missing"),
    "game chess": ("turn", {"game": "chess"}, "position.game: an Imperia position of format 1 expected"),
    "format 2": ("turn", {"format": 2}, "an Imperia position of format 1 expected"),
    "config of 5 players": ("turn", {"config.players": 5}, "config.players: must be 2, 3 or 4, got 5"),
    "config castle ring a list": ("turn", {"config.castle_ring": []}, "config.castle_ring: must be one of"),
    "config castle ring an object": ("turn", {"config.castle_ring": {}}, "config.castle_ring: must be one of"),
    "config with an unknown key": ("turn", {"config.speed": 2}, "config: unknown keys ['speed']"),
    "to_move 7": ("turn", {"to_move": 7}, "position.to_move: must be a whole number -1..2, got 7"),
    "to_move as text": ("turn", {"to_move": "0"}, "position.to_move: must be a whole number"),
    "to_move -1 in the turn phase": ("turn", {"to_move": -1}, "seat -1 to move in phase turn"),
    "to_move another seat in the board phase": ("board", lambda d: d.update(to_move=(d["to_move"] + 1) % 3),
                                                "do not fit phase board"),
    "start seat 5": ("turn", {"start_seat": 5}, "position.start_seat: must be a whole number 0..2, got 5"),
    "start seat null mid-game": ("turn", {"start_seat": None}, "start seat -1 in phase turn"),
    "step 4 in the board phase": ("board", {"step": 4}, "step 4"),
    "step 4 in the fortress phase": ("fortress", {"step": 4}, "do not fit phase fortress"),
    "step 4 mid-game": ("turn", {"step": 4}, "step 4 and seat"),
    "step 0 mid-game": ("turn", {"step": 0}, "do not fit phase turn"),
    "step -1": ("turn", {"step": -1}, "position.step: must be a whole number 0..4, got -1"),
    "step 2 in the recruit phase, seat 0 drawing": ("recruit", {"step": 2}, "do not fit phase recruit"),
    "ply -1": ("turn", {"ply": -1}, "position.ply: must be a whole number 0..10000"),
    "ply 10^9": ("turn", {"ply": 10**9}, "position.ply: must be a whole number 0..10000"),
    "boards not a list": ("turn", {"boards": {}}, "position.boards: a list of at most 4 placed boards"),
    "five boards": ("turn", lambda d: d["boards"].append(d["boards"][0]), "a list of at most 4 placed boards"),
    "a board twice": ("turn", lambda d: d["boards"].__setitem__(1, {**d["boards"][1], "board": d["boards"][0]["board"]}),
                      "a board or a quadrant is used twice"),
    "rotation 90.0": ("turn", {"boards.0.rotation": 90.0}, "rotation: 0|90|180|270}, got"),
    "rotation 45": ("turn", {"boards.0.rotation": 45}, "rotation: 0|90|180|270}, got"),
    "board 5": ("turn", {"boards.0.board": 5}, "position.boards[0].board: must be a whole number 1..4, got 5"),
    "side C": ("turn", {"boards.0.side": "C"}, "position.boards[0]: {board: 1..4, side: A|B"),
    "quadrant N": ("turn", {"boards.0.quadrant": "N"}, "quadrant: NW|NE|SW|SE"),
    "a board turned": ("turn", lambda d: d["boards"][0].update(rotation=(d["boards"][0]["rotation"] + 90) % 360),
                       "terrain: not the terrain of the placed boards"),
    "a board missing mid-game": ("turn", lambda d: d["boards"].pop(), "boards: 3 placed, 4 expected in phase turn"),
    "a terrain letter changed": ("turn", lambda d: d["terrain"].__setitem__(0, "V" + d["terrain"][0][1:]
                                                                           if d["terrain"][0][0] != "V" else
                                                                           "F" + d["terrain"][0][1:]),
                                 "terrain: not the terrain of the placed boards"),
    "terrain of 7 rows": ("turn", lambda d: d["terrain"].pop(), "position.terrain: 8 strings of 8 letters"),
    "terrain letter X": ("turn", lambda d: d["terrain"].__setitem__(0, "XXXXXXXX"), "position.terrain: 8 strings"),
    "fortresses not a list": ("turn", {"fortresses": {}}, "position.fortresses: a list of 3 spaces or nulls"),
    "fortress off the board": ("turn", {"fortresses.0": [9, 9]}, "position.fortresses[0]: a space is [row, col]"),
    "fortress in the castle": ("turn", {"fortresses.0": [3, 3]}, "fortress on 3,3 outside the zone"),
    "fortresses too close": ("turn", lambda d: d["fortresses"].__setitem__(1, [d["fortresses"][0][0],
                                                                              d["fortresses"][0][1] + 1]),
                             "fortresses too close"),
    "fortress missing mid-game": ("turn", {"fortresses.0": None}, "a fortress is missing after the fortress phase"),
    "fortress placed out of order": ("fortress", lambda d: d["fortresses"].__setitem__(d["to_move"], [0, 0]),
                                     "fortress"),
    "stacks not a list": ("turn", {"stacks": {}}, "position.stacks: a list of {space, tiles, facings}"),
    "a stack without tiles": ("turn", {"stacks.0.tiles": []}, "one entry per space, with as many facings"),
    "facings one short": ("turn", lambda d: d["stacks"][0]["facings"].pop(), "one entry per space"),
    "a tile of a fifth colour": ("turn", {"stacks.0.tiles.0": "orange:C1o"}, "unknown tile 'orange:C1o' for 3 players"),
    "a fortress tile in a stack": ("turn", {"stacks.0.tiles.0": "red:F"}, "unknown tile 'red:F'"),
    "a tile without a colour": ("turn", {"stacks.0.tiles.0": "C1o"}, "a tile is written 'colour:ID'"),
    "facing UP": ("turn", {"stacks.0.facings.0": "UP"}, "a direction N/NE/E/SE/S/SW/W/NW or null"),
    "a facing of the other class": ("turn", _facing_of_the_other_class, "not a facing of its class"),
    "a tile twice on the board": ("turn", _tile_twice, "stands twice on the board"),
    "a tile out of id order": ("late_turn", _next_id_on_board, "are not its first"),
    "more tiles than the colour owns": ("turn", _more_tiles_than_owned, "more than the 2 of the colour"),
    "a stack on a fortress": ("turn", _on_a_fortress, "tiles on a covered or fortress space"),
    "a covered warlord": ("turn", _warlord_covered, "a warlord is covered"),
    "two stacks on one space": ("turn", lambda d: d["stacks"].append(d["stacks"][0]), "one entry per space"),
    "players not a list": ("turn", {"players": {}}, "position.players: a list of 3 players"),
    "two players of three": ("turn", lambda d: d["players"].pop(), "position.players: a list of 3 players"),
    "a player is a number": ("turn", {"players.0": 7}, "position.players[0]: must be an object"),
    "hand of an unknown type": ("turn", {"players.0.hand": {"inf/x": 1}}, "an object of tile-type counts"),
    "hand count -1": ("turn", {"players.0.hand": {"inf/o": -1}}, "position.players[0].hand.inf/o: must be a whole number"),
    "hand count 99": ("turn", {"players.0.hand": {"inf/o": 99}}, "position.players[0].hand.inf/o: must be a whole number"),
    "hand of another option's type": ("turn", {"players.0.hand": {"gen/o-mob": 1}}, "hand.gen/o-mob: must be a whole "
                                                                                   "number 0..0"),
    "hand of four": ("turn", lambda d: d["players"][0]["hand"].update({"inf/o": 1, "inf/d": 1, "cav/o": 1, "cav/d": 1}),
                     "players[0]"),
    "pile missing": ("turn", {"players.0.pile": DELETE}, "position.players[0].pile: missing"),
    "a cube on another's tile": ("late_turn", lambda d: _mover(d).update(cube=next(
        s["space"] for s in d["stacks"] if not s["tiles"][-1].startswith(_mover(d)["colour"]))),
                                 "not on its own top tile"),
    "a cube off the board": ("turn", lambda d: _mover(d).update(cube=[8, 0]), "a space is [row, col] with 0..7"),
    "a warlord for a playing seat": ("turn", lambda d: _mover(d).update(warlord=_mover(d)["cube"]),
                                     "warlord placed True but status 0"),
    "status asleep": ("turn", {"players.0.status": "asleep"}, "position.players[0].status: one of playing"),
    "status finished without a warlord": ("turn", {"players.0.status": "finished"}, "warlord placed False but status 1"),
    "retired after placing": ("late_turn", {"players.0.status": "retired"}, "retired after placing"),
    "campaigns 10^6": ("turn", {"players.0.campaigns": 10**6}, "position.players[0].campaigns: must be a whole number"),
    "more campaigns than placements": ("turn", {"players.0.campaigns": 50}, "campaigns and"),
    "battles as text": ("turn", {"players.0.battles": "1"}, "position.players[0].battles: must be a whole number"),
    "general outside the order phase": ("turn", lambda d: d.update(general=_mover(d)["cube"] or [0, 0]),
                                        "a general waits for its order only in the order phase"),
    "order phase with the general moved": ("order", _order_general_moved, "is not the front of seat"),
    "order phase without a general": ("order", {"general": None}, "general None in phase order"),
    "order phase, the general off the board": ("order", {"general": [9, 0]}, "position.general: a space is"),
    "a draw with nothing to draw": ("draw", lambda d: d["players"][d["to_move"]].update(pile={}), "type"),
    "recruiting with a full hand": ("recruit", lambda d: _mover(d).update(hand={"inf/o": 3}, pile={
        **_mover(d)["pile"], "inf/o": 0}), "while recruiting"),
    "game over with a seat playing": ("over", lambda d: d["players"][0].update(status="playing"),
                                      "game over with a player still playing"),
    "the game goes on after all have finished": ("over", {"phase": "turn", "to_move": 0}, "has finished"),
}


def test_every_tile_placed_and_no_cube(lab, refused):
    """The position of the issue: a seat with nothing left to place but no cube; ``legal`` listed
    ``warlord -1,7``, which ``apply`` could not read (§6.5: a placement puts the cube on the tile)."""
    spaces = [(r, c) for r in (2, 5) for c in range(8)] + [(6, 0), (6, 1)]
    tiles = [f"R-{kind}" for kind in ["gen/o"] * 2 + ["gen/d"] * 2 + ["cav/o"] * 2 + ["cav/d"] * 2 + ["inf/o"] * 3
             + ["inf/d"] * 3]
    state = build(players=2, stacks={space: [tile] for space, tile in zip(spaces, tiles)}, hands={"R": []},
                  piles={"R": {}}, check=False)
    refused(["legal", write(lab, "pos.json", json.dumps(state.to_json()))], "every tile placed but no cube")


APPLY_CASES = [  # (base phase, action, expected words)
    ("turn", "dance", "cannot read the Imperia action 'dance'"),
    ("turn", "", "cannot read the Imperia action ''"),
    ("turn", "place gen/o\n5,4 N", "'\\n' in it"),
    ("turn", "place\tgen/o 5,4 N", "'\\t' in it"),
    ("turn", "place gen/o 0,0 N", "[RULES.md §6."),
    ("turn", "warlord -1,7", "cannot read the Imperia action"),
    ("turn", "place tank 5,4 N", "cannot read the Imperia action"),
    ("board", "fortress 1,3", "the decision here is a board placement"),
    ("over", "retire", "the game is over"),
]


def test_a_fixed_order_general_held_but_placed_illegally(lab, refused):
    """G18: with fixed-type generals the type is gen/o-mob; an illegal placement of one that is held is
    told as such, not as a tile missing from the hand."""
    state = build(players=4, hands={"R": ["gen/o-mob", "inf/o", "inf/o"]},
                  options={"general_orders": "fixed_types_2_mobilise_2_direct"})
    line = refused(["apply", write(lab, "pos.json", json.dumps(state.to_json())), "place gen/o-mob 7,7 N"],
                   "neither the next space nor a free exit of the fortress")
    assert "no such tile" not in line


# ----- setup files (imperial play --setup, simulate --setup, setups show) -----

SETUP_CASES = {  # id: (file content, expected words)
    "description of 2,000 characters": ({"game": GAME, "description": "x" * 2000},
                                        "description: must be a text of 1..1,000 characters"),
    "empty description": ({"game": GAME, "description": ""}, "description: must be a text of 1..1,000"),
    "blank description": ({"game": GAME, "description": "   "}, "description: must be a text of 1..1,000"),
    "description a number": ({"game": GAME, "description": 5}, "description: must be a text of 1..1,000"),
    "five players": ({"game": GAME, "players": 5}, "config.players: must be 2, 3 or 4, got 5"),
    "castle ring a list": ({"game": GAME, "castle_ring": []}, "config.castle_ring: must be one of"),
    "castle ring an object": ({"game": GAME, "castle_ring": {}}, "config.castle_ring: must be one of"),
    "unknown key": ({"game": GAME, "speed": 3}, "config: unknown keys ['speed']"),
    "start seat 9": ({"game": GAME, "start_seat": 9}, "config.start_seat: must be a seat 0..3 or null, got 9"),
    "a game of chess": ({"game": "chess"}, "unknown game 'chess'"),
}


SETUP_FILE_CASES = [  # (bytes, expected words)
    (b"{" + b" " * (8 * 2**20) + b"}", "more than 8,388,608 bytes"),
    (b"{oops", "not valid JSON"),
    (b'{"game": "imperia", "layout": 7}', "config.layout: 'default', 'generated' or a list of 4 boards, got 7"),
]


def test_a_valid_setup_file_is_shown(lab, capsys):
    path = write(lab, "mine.json", json.dumps({"game": GAME, "description": "three", "players": 3}))
    assert main(["setups", "show", str(path)]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["description"] == "three" and shown["config"]["players"] == 3


# ----- command-line options -----

OPTION_CASES = [  # (argv, expected words)
    (["play", "--game", GAME, "--players", "5"], "--players: Imperia takes 2-4 players, got 5"),
    (["play", "--game", GAME, "--players", "1"], "argument --players: expected a whole number"),
    (["play", "--game", GAME, "--bots", "random,random,random"], "3 bots named for 4 players"),
    (["play", "--game", GAME, "--bots", "genius"], "unknown bot 'genius'"),
    (["play", "--game", GAME, "--bots", "heuristic:temperature=-1"], "heuristic"),
    (["play", "--game", GAME, "--setup", "chaos"], "unknown setup 'chaos' of Imperia"),
    (["play", "--game", "chess"], "unknown game 'chess'"),
    (["play", "--game", GAME, "--human", "7"], "--human"),
    (["simulate", "--game", GAME, "--games", "2", "--players", "5", "--out", "runs/x"], "--players: Imperia takes 2-4 players, got 5"),
    (["simulate", "--game", GAME, "--games", "2", "--setup", "chaos", "--out", "runs/x"], "unknown setup 'chaos'"),
    (["simulate", "--game", GAME, "--games", "2", "--bots", "random,random", "--out", "runs/x"], "2 bots named for 4"),
    (["league", "--game", GAME, "--bots", "random,random,random,random,random", "--games", "2"],
     "a league of Imperia needs 2..4 bots"),
    (["setups", "show", "nothing", "--game", GAME], "unknown setup 'nothing' of Imperia"),
]


# ----- imports -----

IMPORT_CASES = ["five players", "castle ring a list", "bots for two seats of three"]  # header cases, imported


def test_an_import_of_bad_actions_into_an_existing_run_writes_nothing(lab, refused):
    seat = json.loads(lab["lines"][2])["player"]  # the first board's
    path = log_file(lab, "bad.jsonl", lab["lines"][:2] + [f'{{"player": {seat}, "action": "dance"}}'])
    refused(["import", path, "--run", "club", "--out", lab["root"] / "runs" / "club", "--catalog", lab["catalog"]],
            "cannot read the Imperia action 'dance'")


# ----- simulate: refused before a game is played -----

def test_simulate_into_a_run_with_other_parameters(lab, refused):
    refused(["simulate", "--game", GAME, "--games", "3", "--players", "2", "--setup", "default", "--bots", "random",
             "--out", lab["root"] / "runs" / "small", "--workers", "1"], "holds a run with other parameters")
