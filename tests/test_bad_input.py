"""Bad input, as a new user would give it (issue 7): every case through the CLI's ``main(argv)`` in this
process. Each case must end with exit status 2, nothing on stdout, exactly one line on stderr that
starts ``imperial: error:`` and says where and why (quoting at most ~80 characters of the input),
and must leave the catalogue, every run folder and the setups folder byte for byte as they were.

The cases are grouped by what was bad: move logs, position documents, setup and distribution files,
command-line options, imports, queries. Their counts are in the closing note of issue 7.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from imperial_lab.core.cli import main
from imperial_lab.core.gamelog import replay
from imperial_lab.core.simulate import simulate
from tests.bad_input_support import DELETE, MAX_LINE, changed, log_file, snapshot, write
from tests.bad_input_support import (refused, test_a_log_file_of_more_than_100000_lines,  # noqa: F401
                                     test_a_symbolic_link_in_a_run_is_refused, test_bad_queries,
                                     test_log_files_that_cannot_be_read, test_position_files_that_are_no_documents)
# (shared with the other games' suites: tests/bad_input_support.py)
from tests.lab_fixtures import APP_SECONDS
from tests.test_dashboard_explorer import PAGE, code_span_text

GAME = "imperial2030"
LINKED_TABLES = ("holdings", "games", "im_games")  # a table folder, the games table, another game's


# ----- the lab the commands must leave alone -----

@pytest.fixture(scope="module")
def lab(tmp_path_factory) -> dict:
    """A catalogue with one small run and one import, a finished game's log and a mid-game position."""
    root = tmp_path_factory.mktemp("lab")
    catalog = root / "lab.duckdb"
    simulate(root / "runs" / "small", 2, 3, "standard", ["random"] * 3, 1, catalog=catalog, progress=False)
    log = root / "inputs" / "game.jsonl"
    log.parent.mkdir()
    assert main(["play", "--players", "3", "--seed", "7", "--log", str(log), "--json"]) == 0
    assert main(["import", str(log), "--run", "club", "--out", str(root / "runs" / "club"),
                 "--catalog", str(catalog)]) == 0
    lines = log.read_text().splitlines()
    return {"root": root, "catalog": catalog, "log": log, "lines": lines,
            "position": replay(lines[:41]).to_json(), "inputs": root / "inputs"}


def header(config=None, **extra) -> str:
    return json.dumps({"game": "imperial2030", "format": 1,
                       "config": config or {"players": 3, "setup": "standard"}, **extra})


# ----- move logs (imperial replay; the same files through import below) -----

LOG_CASES = {  # id: (lines after nothing / after the real header, expected words)
    "empty file": ([], "empty log"),
    "blank lines only": (["", "   ", ""], "empty log"),
    "not JSON": (["{oops"], ":1: not valid JSON"),
    "a JSON array": (["[1, 2, 3]"], "expected a JSON object, got list"),
    "a JSON string": (['"header"'], "expected a JSON object, got str"),
    "header without config": (['{"game": "imperial2030", "format": 1}'], "header is missing field 'config'"),
    "action before header": (['{"player": 0, "action": "pass"}'], "an action line came before the header"),
    "format 2": (['{"game": "imperial2030", "format": 2, "config": {}}'], "unsupported format 2"),
    "format as text": (['{"game": "imperial2030", "format": "1", "config": {}}'], "unsupported format '1'"),
    "format as a long list": (['{"game": "imperial2030", "format": [' + ", ".join(["1"] * 5000) + '], "config": {}}'],
                              "unsupported format [1, 1"),
    "game is a number": (['{"game": 5, "format": 1, "config": {}}'], "'game' must be a string"),
    "config is a list": (['{"game": "imperial2030", "format": 1, "config": []}'], "'config' an object"),
    "games disagree": (['{"game": "imperial2030", "format": 1, "config": {"game": "chess"}}'], "config.game 'chess'"),
    "unknown game": (['{"game": "chess", "format": 1, "config": {}}'], "unknown game 'chess'"),
    "unknown config key": ([header({"players": 3, "speed": 9})], "config: unknown keys ['speed']"),
    "seven players": ([header({"players": 7})], "config.players: must be 2..6, got 7"),
    "players as text": ([header({"players": "3"})], "config.players: must be 2..6, got '3'"),
    "players true": ([header({"players": True})], "config.players: must be 2..6, got True"),
    "unknown setup": ([header({"setup": "chaos"})], "config.setup: 'chaos' is not one of"),
    "deal with unknown card": ([header({"players": 3, "deal": ["RU", "XX", "IN"]})], "unknown flag card 'XX'"),
    "deal for the variant": ([header({"players": 3, "setup": "variant", "deal": ["RU"]})], "only with the standard"),
    "unit limit too large": ([header({"unit_limits": {"RU": {"armies": 10**9}}})], "whole numbers 0..100"),
    "cash top-up not a flag": ([header({"cash_topup": "yes"})], "config.cash_topup: must be true or false"),
    "distribution cash 10^8": ([header({"setup": "custom", "distribution": {"players": [
        {"cash": 10**8, "bonds": ["RU 4"]}, {"cash": 5, "bonds": ["CN 4"]}]}})], "0..10,000 (millions), got 100000000"),
    "seed negative": ([header(seed=-1)], "header: seed must be a whole number 0..2**63-1"),
    "seed beyond int64": ([header(seed=2**64)], "header: seed must be a whole number"),
    "seed as text": ([header(seed="7")], "header: seed must be a whole number"),
    "bots not a list": ([header(bots="random")], "header: bots must be a list"),
    "seven bots": ([header(bots=["random"] * 7)], "header: bots must be a list"),
    "number of 5000 digits": (["{\"game\": \"imperial2030\", \"format\": " + "9" * 5000 + "}"], "number too long"),
    "100,000-deep array": (["[" * 100_000 + "]" * 100_000], "characters, more than the limit"),
    "300-deep array": (["[" * 300 + "]" * 300], "nested more than 32 levels"),
    "a 5 MB line": (['{"game": "' + "x" * 5_000_000 + '"}'], "characters, more than the limit of 65,536"),
}

ACTION_CASES = {  # lines after the real header and deal of the seed-7 game
    "action line without player": (['{"action": "rondel factory"}'], "missing field 'player'"),
    "action line without action": (['{"player": 0}'], "missing field 'action'"),
    "player as text": (['{"player": "0", "action": "rondel factory"}'], "'player' must be a whole number"),
    "player true": (['{"player": true, "action": "rondel factory"}'], "'player' must be a whole number"),
    "player of 4000 digits": (['{"player": ' + "9" * 4000 + ', "action": "x"}'], "is not the one to decide"),
    "action a number": (['{"player": 0, "action": 5}'], "'action' must be a string, got 5"),
    "action a long list": (['{"player": 0, "action": [' + ", ".join(["1"] * 3000) + ']}'], "'action' must be a string"),
    "wrong seat": (['{"player": 2, "action": "rondel factory"}'], "'player': 2 is not the one to decide"),
    "chance seat for a player": (['{"player": -1, "action": "rondel factory"}'], "is not the one to decide"),
    "unparsable action": (['{"player": 0, "action": "dance"}'], "unknown action 'dance'"),
    "a 60,000-character action": (['{"player": 0, "action": "' + "rondel " * 8000 + '"}'], "(56,000 characters)"),
    "unknown rondel space": (['{"player": 0, "action": "rondel moon"}'], "unknown rondel space 'moon'"),
    "unicode digit": (['{"player": 0, "action": "topup ²"}'], "expected a number from"),
    "a topup of 10^40": (['{"player": 0, "action": "topup ' + "9" * 40 + '"}'], "expected a number from"),
    "illegal action": (['{"player": 0, "action": "buy RU 9"}'], "[RULES.md"),
    "invalid UTF-8": ([b'{"player": 0, "action": "rondel \xff\xfe"}'], "unknown rondel space"),
    "a newline inside the action": (['{"player": 0, "action": "rondel\\nfactory"}'], "'\\n' in it"),
    "a tab inside the action": (['{"player": 0, "action": "rondel\\tfactory"}'], "'\\t' in it"),
}


@pytest.mark.parametrize("case", LOG_CASES)
def test_bad_log_headers(lab, refused, case):
    lines, words = LOG_CASES[case]
    path = log_file(lab, "bad.jsonl", lines)
    refused(["replay", path], words)


@pytest.mark.parametrize("case", ACTION_CASES)
def test_bad_log_actions(lab, refused, case):
    lines, words = ACTION_CASES[case]
    path = log_file(lab, "bad.jsonl", lab["lines"][:2] + lines)
    line = refused(["replay", path], words)
    assert "bad.jsonl:3:" in line  # the header is line 1, the deal line 2


def test_the_bots_of_a_header_name_one_bot_per_seat(lab, refused):
    path = log_file(lab, "bad.jsonl", [header(bots=["random"] * 2)])
    refused(["replay", path], "bad.jsonl:1: header: bots must name one bot per seat (3), got 2")


def test_an_action_after_the_end_of_the_game(lab, refused):
    path = log_file(lab, "long.jsonl", lab["lines"] + ['{"player": 0, "action": "pass"}'])
    refused(["replay", path], f"long.jsonl:{len(lab['lines']) + 1}: 'pass' comes after the end of the game")


def test_a_device_is_no_log(refused):
    refused(["replay", "/dev/zero"], "not a regular file")


def test_a_file_name_with_a_nul_byte(refused):
    refused(["replay", "game\0.jsonl"], "no file can have this name")


# ----- position documents (imperial legal / apply) -----

POSITION_CASES = {  # id: (edits of the mid-game position, expected words)
    "players not a list": ({"players": {"0": {}}}, "players: expected a list of 3 players"),
    "two players in a 3-player game": ({"players": [{"cash": 1}, {"cash": 1}]}, "expected a list of 3 players"),
    "a player is a number": ({"players.0": 7}, "players[0]: must be an object, got 7"),
    "cash 10^8": ({"players.0.cash": 10**8}, "players[0].cash: must be a whole number 0..10,000, got 100000000"),
    "cash 10^30": ({"players.0.cash": 10**30}, "players[0].cash: must be a whole number 0..10,000"),
    "cash negative": ({"players.0.cash": -1}, "players[0].cash: must be a whole number 0..10,000, got -1"),
    "cash a fraction": ({"players.0.cash": 1.5}, "players[0].cash: must be a whole number"),
    "cash as text": ({"players.0.cash": "5"}, "players[0].cash: must be a whole number 0..10,000, got '5'"),
    "cash true": ({"players.0.cash": True}, "players[0].cash: must be a whole number 0..10,000, got True"),
    "swiss bank as text": ({"players.0.swiss_bank": "no"}, "players[0].swiss_bank: must be true or false"),
    "bonds not a list": ({"players.0.bonds": "RU 4"}, "players[0].bonds: must be a list"),
    "a bond of nation XX": ({"players.0.bonds": ["XX 4"]}, "unknown nation 'XX'"),
    "bond number 10": ({"players.0.bonds": ["RU 10"]}, "bond number must be 1..9"),
    "bond number ²": ({"players.0.bonds": ["RU ²"]}, "bond number must be 1..9"),
    "a bond owned twice": ({"players.1.bonds": ["RU 4"]}, "bond 'RU 4' owned twice"),
    "nations a list": ({"nations": []}, "nations: must be an object"),
    "unknown nation": ({"nations.XX": {}}, "nations: unknown nation 'XX'"),
    "treasury 10^8": ({"nations.RU.treasury": 10**8}, "nations.RU.treasury: must be a whole number 0..10,000"),
    "treasury negative": ({"nations.RU.treasury": -3}, "nations.RU.treasury: must be a whole number"),
    "power points 26": ({"nations.RU.power_points": 26}, "nations.RU.power_points: must be a whole number 0..25"),
    "unknown rondel space": ({"nations.RU.rondel": "moon"}, "nations.RU.rondel: 'moon' is not one of"),
    "government seat 3": ({"nations.RU.government": 3}, "nations.RU.government: must be a whole number 0..2"),
    "factory abroad": ({"nations.RU.factories": ["beijing"]}, "beijing is not a home province of RU"),
    "factory in an unknown region": ({"nations.RU.factories": ["atlantis"]}, "unknown region 'atlantis'"),
    "flag in a home province": ({"nations.CN.flags": ["moscow"]}, "no flag may stand in the home province moscow"),
    "two flags in a region": ({"nations.RU.flags": ["kazakhstan"]}, "kazakhstan already has the flag of"),
    "units not a list": ({"units": {}}, "units: must be a list"),
    "a unit of nation XX": ({"units.0.nation": "XX"}, "units[0].nation: unknown nation 'XX'"),
    "a unit in an unknown region": ({"units.0.region": "x" * 300}, "(300 characters)"),
    "a unit of kind tank": ({"units.0.unit": "tank"}, "units[0].unit: 'tank' is not one of"),
    "9 armies, limit 8": ({"units.0.count": 9}, "units[0].count: must be a whole number 1..8, got 9"),
    "count 10^9": ({"units.0.count": 10**9}, "units[0].count: must be a whole number 1..8"),
    "count 0": ({"units.0.count": 0}, "units[0].count: must be a whole number 1..8, got 0"),
    "moved more than stand": ({"units.0.moved": 2}, "units[0].moved: must be a whole number 0..1, got 2"),
    "army at sea": ({"units.0.region": "north_atlantic"}, "an army cannot stand at sea"),
    "fleet inland": ({"units.1.region": "moscow"}, "a fleet on land must lie in a harbour of its own nation"),
    "hostile army at home": ({"units.0.stance": "hostile"}, "an army has a stance exactly when"),
    "investor card seat 7": ({"investor_card": 7}, "investor_card: must be a whole number 0..2, got 7"),
    "bank of 10^12": ({"bank": 10**12}, "bank: must be a whole number"),
    "nation turns 10^9": ({"turn.nation_turns": 10**9}, "turn.nation_turns: must be a whole number 0..100,000"),
    "round negative": ({"turn.round": -1}, "turn.round: must be a whole number"),
    "unknown active nation": ({"turn.nation": "XX"}, "turn.nation: unknown nation 'XX'"),
    "unknown decision": ({"decision.kind": "dance"}, "decision.kind: 'dance' is not one of"),
    "decision by seat 9": ({"decision.player": 9}, "decision.player: unknown player 9"),
    "queue of 100 seats": ({"decision.queue": [0] * 100}, "decision.queue: must be a list of at most 6"),
    "imports of a tank": ({"decision.imports": [["tank", "moscow"]]}, "decision.imports: 'tank' is not one of"),
    "import not a pair": ({"decision.imports": ["army"]}, "an import is [unit, region]"),
    "move not text": ({"decision.move": 5}, "decision.move: an action in text form, got 5"),
    "move unparsable": ({"decision.move": "fly army moscow"}, "cannot parse action 'fly army moscow'"),
    "arrival not an object": ({"decision.arrival": [1]}, "decision.arrival: must be an object"),
    "variant step 10^6": ({"decision.variant_step": 10**6}, "decision.variant_step: must be a whole number 0..18"),
    "turn not an object": ({"turn": [1]}, "turn: must be an object"),
    "not a position": ({"game": "chess"}, "not an Imperial 2030 position document"),
    "config of 7 players": ({"config.players": 7}, "config.players: must be 2..6"),
    "no config": ({"config": DELETE}, "a JSON object with a 'config' object"),
    # the document reads, but the position breaks an invariant of the game:
    "money not conserved": ({"bank": -71}, "position breaks an invariant: money not conserved"),
    "10 armies over two entries": ({"units.0.count": 5, "units.2.count": 5, "units.2.region": "moscow"},
                                   "RU has 10 armies, more than its limit of 8"),
    "16 flags": ({"nations.RU.flags": ["alaska", "canada", "quebec", "mexico", "colombia", "peru", "argentina",
                                       "guinea", "north_africa", "nigeria", "congo", "south_africa", "east_africa",
                                       "near_east", "turkey", "ukraine"]}, "more than 15"),
    "government without bonds": ({"players.0.bonds": ["CN 1", "BR 4", "EU 2"], "players.1.bonds": ["RU 4", "RU 1",
                                  "IN 5", "BR 3", "US 4"]}, "RU is governed by Player A, who owns none of its bonds"),
    "swiss bank of a government": ({"players.0.swiss_bank": True}, "Player A governs but has Swiss bank"),
    "a game over without 25 power points": ({"decision": {"kind": "game_over"}},
                                            "the game is over but no nation has 25 power points"),
    "25 power points, game goes on": ({"nations.RU.power_points": 25}, "RU reached 25 power points but the game goes on"),
    "a decision by another seat": ({"decision.player": 1}, "is made by its government Player A, not seat 1"),
    "ended by a nation, not over": ({"turn.ended_by": "RU"}, "the game is not over but records RU as having ended it"),
}


@pytest.mark.parametrize("case", POSITION_CASES)
def test_bad_positions(lab, refused, case):
    edits, words = POSITION_CASES[case]
    path = write(lab, "pos.json", json.dumps(changed(lab["position"], edits)))
    line = refused(["legal", path], words)
    assert "pos.json" in line


@pytest.mark.parametrize("action, words", [
    ("dance", "cannot parse action 'dance'"),
    ("build\nmoscow", "'\\n' in it: the words of an action are separated by spaces"),
    ("build\tmoscow", "'\\t' in it"),
    ("", "cannot parse action ''"),
    ("build " + "atlantis" * 50, "(406 characters)"),
    ("buy RU 9", "[RULES.md"),
    ("topup 99999", "illegal action 'topup 99999'"),
])
def test_apply_refuses_bad_actions(lab, refused, action, words):
    refused(["apply", write(lab, "pos.json", json.dumps(lab["position"])), action], words)


def test_a_flag_at_sea_is_a_position_of_the_game(lab, capsys):
    """§7.4.8 (and scenario T6): a sea region is neutral and takes the flag of its sole occupant, so a
    position with a flag at sea is read and played (issue 21 asked for it to be refused: the rules say
    otherwise, and random games plant such flags)."""
    doc = changed(lab["position"], {"nations.US.flags": lab["position"]["nations"]["US"].get("flags", [])
                                    + ["caribbean_sea"]})
    path = write(lab, "pos.json", json.dumps(doc))
    assert main(["legal", str(path)]) == 0 and "build" in capsys.readouterr().out


def test_a_sound_position_is_read(lab, capsys):
    """The base of the cases above is itself accepted, so each case fails for its own edit."""
    path = write(lab, "pos.json", json.dumps(lab["position"]))
    assert main(["legal", str(path)]) == 0 and "build" in capsys.readouterr().out


# ----- setup and distribution files (imperial play --setup, imperial simulate --setup) -----

GOOD_SEATS = [{"cash": 10, "bonds": ["RU 4", "CN 1"]}, {"cash": 10, "bonds": ["CN 4", "IN 1"]}]
SETUP_CASES = {  # id: (the distribution object, expected words)
    "not an object": ([1, 2], "distribution: needs a 'players' list"),
    "players missing": ({}, "needs a 'players' list"),
    "one player": ({"players": GOOD_SEATS[:1]}, "config.players: must be 2..6, got 1"),
    "seven players": ({"players": GOOD_SEATS * 3 + GOOD_SEATS[:1]}, "config.players: must be 2..6, got 7"),
    "a seat is text": ({"players": ["rich", GOOD_SEATS[1]]}, "players[0]: must be an object"),
    "cash 10^8": ({"players": [{**GOOD_SEATS[0], "cash": 10**8}, GOOD_SEATS[1]]}, "players[0].cash: must be a whole "
                                                                                  "number 0..10,000 (millions)"),
    "cash 10^30": ({"players": [{**GOOD_SEATS[0], "cash": 10**30}, GOOD_SEATS[1]]}, "got 1000000000000000000000000"),
    "cash negative": ({"players": [{**GOOD_SEATS[0], "cash": -1}, GOOD_SEATS[1]]}, "got -1"),
    "cash 2.5": ({"players": [{**GOOD_SEATS[0], "cash": 2.5}, GOOD_SEATS[1]]}, "got 2.5"),
    "cash missing": ({"players": [{"bonds": ["RU 4"]}, GOOD_SEATS[1]]}, "players[0].cash: must be a whole number"),
    "bonds not a list": ({"players": [{"cash": 1, "bonds": "RU 4"}, GOOD_SEATS[1]]}, "bonds: must be a list"),
    "60 bonds": ({"players": [{"cash": 1, "bonds": ["RU 4"] * 60}, GOOD_SEATS[1]]}, "at most 54 bonds"),
    "bond XX 4": ({"players": [{"cash": 1, "bonds": ["XX 4"]}, GOOD_SEATS[1]]}, "unknown nation 'XX'"),
    "bond RU 0": ({"players": [{"cash": 1, "bonds": ["RU 0"]}, GOOD_SEATS[1]]}, "bond number must be 1..9"),
    "bond a number": ({"players": [{"cash": 1, "bonds": [4]}, GOOD_SEATS[1]]}, "a bond is written like 'RU 4'"),
    "bond as object, number text": ({"players": [{"cash": 1, "bonds": [{"nation": "RU", "number": "4x"}]},
                                                 GOOD_SEATS[1]]}, "bond number must be 1..9"),
    "bond given twice": ({"players": [GOOD_SEATS[0], {"cash": 1, "bonds": ["RU 4"]}]}, "already given to players[0]"),
    "no bond at all": ({"players": [{"cash": 1}, {"cash": 1}]}, "no bond is given to anybody"),
    "starting cash off": ({"players": [{**GOOD_SEATS[0], "starting_cash": 5}, GOOD_SEATS[1]]}, "does not add up"),
    "starting cash 10^9": ({"players": [{**GOOD_SEATS[0], "starting_cash": 10**9}, GOOD_SEATS[1]]},
                           "starting_cash: must be a whole number 0..10,000"),
    "treasuries a list": ({"players": GOOD_SEATS, "treasuries": [9]}, "distribution.treasuries: must be an object"),
    "treasury of XX": ({"players": GOOD_SEATS, "treasuries": {"XX": 1}}, "distribution.treasuries: unknown nation 'XX'"),
    "treasury off": ({"players": GOOD_SEATS, "treasuries": {"RU": 10}}, "does not add up to the bonds sold (9)"),
    "treasury 10^20": ({"players": GOOD_SEATS, "treasuries": {"RU": 10**20}}, "treasuries.RU: must be a whole number"),
    "government seat 5": ({"players": GOOD_SEATS, "governments": {"RU": 5}}, "must be a seat 0..1, got 5"),
    "government not the top creditor": ({"players": GOOD_SEATS, "governments": {"CN": 0}},
                                        "players[0] does not hold the highest credit sum"),
}


@pytest.mark.parametrize("case", SETUP_CASES)
def test_bad_distribution_files(lab, refused, case):
    distribution, words = SETUP_CASES[case]
    refused(["play", "--setup", write(lab, "dist.json", json.dumps(distribution))], words)


@pytest.mark.parametrize("doc, words", [
    ({"players": GOOD_SEATS}, "description: must be a text of 1..1,000 characters"),
    ({"description": "x" * 5000, "players": GOOD_SEATS}, "description: must be a text of 1..1,000"),
    ({"description": "d", "players": GOOD_SEATS, "treasury": {}}, "unknown keys ['treasury']"),
    ({"description": "d", "players": [{**GOOD_SEATS[0], "money": 3}, GOOD_SEATS[1]]}, "unknown keys ['money']"),
    ({"description": "d", "players": GOOD_SEATS[:1]}, "players: must list 2..6 players"),
    ({"description": "d", "players": [{**GOOD_SEATS[0], "cash": 10**8}, GOOD_SEATS[1]]}, "0..10,000 (millions)"),
    ([], "a setup file is a JSON object"),
])
def test_bad_setup_files_for_simulate(lab, refused, doc, words):
    path = write(lab, "mine.json", json.dumps(doc))
    refused(["simulate", "--games", "2", "--setup", path, "--out", lab["root"] / "runs" / "mine",
             "--catalog", lab["catalog"], "--workers", "1"], words)


def test_a_huge_setup_file(lab, refused):
    path = write(lab, "big.json", b"{" + b" " * (8 * 2**20) + b"}")
    refused(["play", "--setup", path], "more than 8,388,608 bytes")


# ----- command-line options -----

@pytest.mark.parametrize("argv, words", [
    ([], "the following arguments are required: command"),
    (["fly"], "invalid choice: 'fly'"),
    (["play", "--bogus", "3"], "unrecognized arguments: '--bogus 3'"),
    (["play", "--players"], "argument --players: expected one argument"),
    (["play", "--players", "0"], "argument --players: expected a whole number 2..6, got '0'"),
    (["play", "--players", "7"], "expected a whole number 2..6, got '7'"),
    (["play", "--players", "four"], "expected a whole number 2..6, got 'four'"),
    (["play", "--players", "9" * 5000], "(5,000 characters)"),
    (["play", "--seed", "-1"], "argument --seed: expected a whole number 0.."),
    (["play", "--seed", "1e3"], "argument --seed: expected a whole number"),
    (["play", "--seed", str(2**64)], "argument --seed: expected a whole number"),
    (["play", "--seed", "٣"], "argument --seed: expected a whole number"),
    (["play", "--bots", "genius"], "unknown bot 'genius'"),
    (["play", "--bots", "random,random"], "--bots: 2 bots named for 4 players"),
    (["play", "--bots", ""], "unknown bot ''"),
    (["play", "--setup", "chaos"], "--setup: 'chaos' is neither standard nor variant"),
    (["play", "--setup", "x" * 5000], "(5,000 characters)"),
    (["play", "--log", "/nonexistent/folder/g.jsonl", "--players", "2", "--seed", "1"], "No such file or directory"),
    (["replay"], "the following arguments are required: FILE"),
    (["legal"], "the following arguments are required: POSITION.json"),
    (["apply", "pos.json"], "the following arguments are required: ACTION"),
    (["bench", "--repeats", "0"], "argument --repeats: expected a whole number 1..10,000, got '0'"),
    (["bench", "--games", "1000000"], "argument --games: expected a whole number 1..10,000"),
    (["bench", "--players", "1"], "argument --players: expected a whole number 2..6"),
    (["setups", "show"], "the following arguments are required: NAME"),
    (["setups", "show", "nothing"], "unknown setup 'nothing'"),
    (["simulate", "--out", "runs/x"], "the following arguments are required: --games"),
    (["simulate", "--games", "0", "--out", "runs/x"], "argument --games: expected a whole number 1.."),
    (["simulate", "--games", "2", "--workers", "0", "--out", "runs/x"], "argument --workers: expected a whole number"),
    (["simulate", "--games", "2", "--workers", "100000", "--out", "runs/x"], "expected a whole number 1..256"),
    (["simulate", "--games", "2", "--chunk-size", "-5", "--out", "runs/x"], "argument --chunk-size"),
    (["simulate", "--games", "2", "--bots", "genius", "--out", "runs/x"], "unknown bot 'genius'"),
    (["simulate", "--games", "2", "--setup", "chaos", "--out", "runs/x"], "unknown setup 'chaos'"),
    (["import", "--run", "x"], "the following arguments are required: FILE"),
    (["query"], "the following arguments are required: SQL"),
])
def test_bad_options(refused, argv, words):
    refused(argv, words)


def test_help_is_no_error(capsys):
    assert main(["play", "--help"]) == 0
    assert "--players" in capsys.readouterr().out


# ----- imports -----

@pytest.mark.parametrize("case", ["not JSON", "seven players", "distribution cash 10^8", "a 5 MB line"])
def test_an_import_of_bad_logs_writes_nothing(lab, refused, case):
    lines, words = LOG_CASES[case]
    path = log_file(lab, "bad.jsonl", lines)
    refused(["import", path, "--run", "fresh", "--catalog", lab["catalog"]], words)
    assert not (lab["inputs"] / "runs").exists()


def test_an_import_of_bad_actions_into_an_existing_run_writes_nothing(lab, refused):
    path = log_file(lab, "bad.jsonl", lab["lines"][:2] + ['{"player": 0, "action": "dance"}'])
    refused(["import", path, "--run", "club", "--out", lab["root"] / "runs" / "club", "--catalog", lab["catalog"]],
            "unknown action 'dance'")


@pytest.mark.parametrize("name", ["../../x", "a/b", "..", ".", ".hidden", "", "x" * 300, "tab\there"])
def test_a_run_name_is_a_plain_name(lab, refused, name):
    refused(["import", lab["log"], "--run", name, "--catalog", lab["catalog"]], "run name")


def test_a_missing_log_in_an_import(lab, refused):
    refused(["import", lab["inputs"] / "nothing.jsonl", "--run", "fresh", "--catalog", lab["catalog"]],
            "No such file or directory")


def test_an_import_into_a_simulated_run(lab, refused):
    refused(["import", lab["log"], "--run", "small", "--out", lab["root"] / "runs" / "small", "--catalog",
             lab["catalog"]], "holds a run of kind 'simulate'")


# ----- simulate: refused before a game is played -----

def test_simulate_into_a_run_with_other_parameters(lab, refused):
    refused(["simulate", "--games", "3", "--players", "3", "--bots", "random", "--out", lab["root"] / "runs" / "small",
             "--catalog", lab["catalog"], "--workers", "1"], "holds a run with other parameters: games 2 (now 3)")


def test_simulate_with_a_catalogue_that_is_no_database(lab, refused):
    text = write(lab, "notes.duckdb", "these are my notes\n")
    refused(["simulate", "--games", "2", "--out", lab["root"] / "runs" / "other", "--catalog", text,
             "--workers", "1"], "notes.duckdb")
    assert text.read_text() == "these are my notes\n" and not (lab["root"] / "runs" / "other").exists()


def test_simulate_with_a_run_name_taken_in_the_catalogue(lab, refused):
    refused(["simulate", "--games", "2", "--out", lab["inputs"] / "elsewhere" / "small", "--catalog", lab["catalog"],
             "--workers", "1"], "small")
    assert not (lab["inputs"] / "elsewhere").exists()


@pytest.mark.parametrize("address", ["nonsense", "tcp://127.0.0.1:1"])
def test_simulate_with_a_scheduler_that_is_not_there(lab, refused, address):
    refused(["simulate", "--games", "2", "--out", lab["root"] / "runs" / "remote", "--catalog", lab["catalog"],
             "--scheduler", address], "scheduler")
    assert not (lab["root"] / "runs" / "remote").exists()


# ----- queries -----

def test_a_query_of_a_catalogue_that_does_not_exist(lab, refused):
    refused(["query", "SELECT 1", "--catalog", lab["inputs"] / "none.duckdb"], "none.duckdb")
    assert not (lab["inputs"] / "none.duckdb").exists()


# ----- the same logs uploaded to the dashboard's game explorer (AppTest) -----

@pytest.fixture(scope="module")
def explorer(lab):
    """The explorer page on the lab's catalogue, switched to an uploaded move log."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("IMPERIAL_LAB_CATALOG", str(lab["catalog"]))
        page = AppTest.from_file(str(PAGE), default_timeout=APP_SECONDS).run()
        page.radio(key="explorer_source").set_value("an uploaded move log").run()
        yield page


UPLOADS = {**{f"header: {k}": (v[0], v[1], 1) for k, v in LOG_CASES.items() if "5 MB" not in k},
           **{f"action: {k}": (["HEADER", "DEAL", *v[0]], v[1], 3) for k, v in ACTION_CASES.items()}}


@pytest.mark.parametrize("case", UPLOADS)
def test_bad_uploads_in_the_dashboard(lab, explorer, case):
    """The page shows the same one error as the command, with its line, as plain text; it writes nothing."""
    lines, words, line = UPLOADS[case]
    lines = [lab["lines"][0] if x == "HEADER" else lab["lines"][1] if x == "DEAL" else x for x in lines]
    data = b"\n".join(x if isinstance(x, bytes) else x.encode() for x in lines) + b"\n"
    before = snapshot(lab["root"])
    explorer.file_uploader(key="explorer_upload").clear().upload("bad.jsonl", data).run()
    assert not explorer.exception
    (error,) = explorer.error
    title, message = error.value.split("\n\n")
    assert f", line {line}:" in title
    why = words.split(": ", 1)[-1] if words.startswith(":") else words  # the title gives the line
    assert why in code_span_text(message)
    assert len(code_span_text(message)) < MAX_LINE
    assert snapshot(lab["root"]) == before


# ----- bounded memory and time -----

BOUNDED = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))  # 1 GiB: the file of issue 7 took 23 GB
from imperial_lab.core.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("cash", [10**8, 10**9, 10**30])
@pytest.mark.parametrize("kind", ["distribution", "position", "log"])
def test_huge_cash_is_refused_at_once_in_bounded_memory(lab, tmp_path, kind, cash):
    if kind == "distribution":
        path = tmp_path / "dist.json"
        path.write_text(json.dumps({"players": [{"cash": cash, "bonds": ["RU 4"]}, {"cash": 5, "bonds": ["CN 4"]}]}))
        argv = ["play", "--setup", str(path), "--seed", "1"]
    elif kind == "position":
        path = tmp_path / "pos.json"
        doc = changed(lab["position"], {"players.0.cash": cash, "bank": DELETE})
        path.write_text(json.dumps(doc))
        argv = ["legal", str(path)]
    else:
        path = tmp_path / "game.jsonl"
        path.write_text(header({"setup": "custom", "distribution": {"players": [
            {"cash": cash, "bonds": ["RU 4"]}, {"cash": 5, "bonds": ["CN 4"]}]}}) + "\n")
        argv = ["replay", str(path)]
    done = subprocess.run([sys.executable, "-c", BOUNDED, *argv], capture_output=True, text=True, timeout=300,
                          cwd=Path(__file__).resolve().parents[1])
    assert done.returncode == 2, done.stderr[-2000:]
    assert done.stderr.startswith("imperial: error: ") and done.stderr.count("\n") == 1
    assert "must be a whole number 0..10,000" in done.stderr


# ----- out of memory (issue 21): one line, exit 2, never a traceback, a hang or a wrong message -----

def test_a_memory_error_ends_a_command_with_one_line(lab, refused, monkeypatch):
    from imperial_lab.core import cli

    def no_memory(*args, **kwargs):
        raise MemoryError
    monkeypatch.setattr(cli, "replay_game", no_memory)
    refused(["replay", lab["log"]], "out of memory while running imperial replay")


def test_pandas_that_cannot_be_loaded_for_lack_of_memory_is_not_called_missing(lab, refused, monkeypatch):
    """Under ``ulimit -v`` pandas' libraries cannot be mapped; DuckDB called that "'pandas' is required
    ... but it was not installed"."""
    import builtins

    real = builtins.__import__

    def mapped(name, *args, **kwargs):
        if name == "pandas":
            raise ImportError("pandas/_libs/parsers.so: failed to map segment from shared object")
        return real(name, *args, **kwargs)
    monkeypatch.setattr(builtins, "__import__", mapped)
    refused(["query", "SELECT count(*) FROM games"], "out of memory while loading pandas for the query's result")


@pytest.mark.parametrize("how", ["memory error", "dead worker"])
def test_a_worker_out_of_memory_ends_the_run_with_one_line(lab, capsys, monkeypatch, tmp_path, how):
    """A worker process of the local cluster that raises MemoryError, or dies (the kernel ends a process
    that takes too much): the command ends at once with one error line and exit 2, the finished chunks
    kept. (Workers are forked from this process, so they run the patched chunk player.)"""
    import os
    import time

    from imperial_lab.core import simulate as module

    parent, real, tried = os.getpid(), module.run_chunk, tmp_path / "a worker tried"

    def failing(task, after_game=None):
        if os.getpid() != parent:
            tried.touch()
            if how == "dead worker":
                os._exit(1)
            raise MemoryError
        for _ in range(600):  # this process waits for a worker to take a chunk (a slow machine: 60 s)
            if tried.exists():
                break
            time.sleep(0.1)
        return real(task, after_game)
    monkeypatch.setattr(module, "run_chunk", failing)
    capsys.readouterr()
    code = main(["simulate", "--games", "6", "--players", "2", "--chunk-size", "1", "--workers", "2",
                 "--out", str(tmp_path / "runs" / "oom"), "--catalog", str(tmp_path / "lab.duckdb")])
    out, err = capsys.readouterr()
    lines = [line for line in err.replace("\r", "\n").splitlines() if line.startswith("imperial")]
    assert code == 2 and lines == [lines[0]] and "Traceback" not in err, err[-3000:]
    assert lines[0].startswith("imperial: error: out of memory while playing a chunk on a worker process")
