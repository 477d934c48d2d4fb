"""Bot specs (core/bots.py): NAME or NAME:key=value[:key=value], one parser for every command,
canonical text, one clear error per bad spec, and the search bot registered only when it loads."""

from __future__ import annotations

import json
import sys

import pytest

from imperial_lab.core import bots as bots_module
from imperial_lab.core.bots import RandomBot, bot_classes, canonical_spec, make_bot, parse_bot_list, parse_bot_spec, seat_bots
from imperial_lab.core.cli import main
from imperial_lab.core.errors import SetupError
from imperial_lab.core.games.imperial2030.heuristic import DEFAULT_TEMPERATURE, HeuristicBot


def test_a_spec_is_a_name_and_typed_parameters():
    assert parse_bot_spec("random") == ("random", {})
    assert parse_bot_spec("heuristic:temperature=0.5") == ("heuristic", {"temperature": 0.5})
    name, params = parse_bot_spec(" heuristic : flag = 3 : temperature=5e-1 ")
    assert name == "heuristic" and params == {"flag": 3.0, "temperature": 0.5}
    assert all(type(value) is float for value in params.values())


@pytest.mark.parametrize("spelling", ["heuristic:temperature=0.50", "heuristic:temperature=0.5",
                                      "heuristic:temperature=5e-1", "heuristic:temperature=.5"])
def test_spellings_of_one_bot_have_one_canonical_text(spelling):
    assert canonical_spec(spelling) == "heuristic:temperature=0.5"


def test_the_canonical_text_sorts_keys_and_drops_defaults():
    assert canonical_spec("heuristic:temperature=1.0:flag=3") == "heuristic:flag=3:temperature=1"
    assert canonical_spec(f"heuristic:temperature={DEFAULT_TEMPERATURE}") == "heuristic"  # the same bot
    assert canonical_spec("heuristic:temperature=0") == "heuristic:temperature=0"
    assert canonical_spec(canonical_spec("heuristic:flag=2.50")) == canonical_spec("heuristic:flag=2.50")


def test_make_bot_takes_the_full_spec_and_a_seed():
    bot = make_bot("heuristic:temperature=0:flag=3", seed=4)
    assert isinstance(bot, HeuristicBot) and bot.temperature == 0 and bot.w.flag == 3
    assert isinstance(make_bot("random", 1), RandomBot)
    assert make_bot("heuristic", 1).temperature == DEFAULT_TEMPERATURE


@pytest.mark.parametrize("spec, words", [
    ("heuristic:temp=1", "--bots: 'heuristic:temp=1': unknown parameter 'temp' of bot heuristic "
                         "(known: temperature, flag,"),
    ("heuristic:temperature=abc", "parameter 'temperature': expected a number 0..100, got 'abc'"),
    ("heuristic:temperature=-1", "parameter 'temperature': must be 0..100, got '-1'"),
    ("heuristic:temperature=1e999", "parameter 'temperature': expected a finite number 0..100, got '1e999'"),
    ("heuristic:temperature=nan", "expected a number 0..100, got 'nan'"),
    ("heuristic:temperature=1_0", "expected a number 0..100, got '1_0'"),
    ("heuristic:temperature=101", "must be 0..100, got '101'"),
    ("heuristic:patience=0", "parameter 'patience': must be 1..10000, got '0'"),
    ("heuristic:temperature=1:temperature=2", "parameter 'temperature' given twice"),
    ("heuristic:temperature", "'temperature' is not key=value"),
    ("heuristic:=1", "'=1' is not key=value"),
    ("heuristic:", "'' is not key=value"),
    ("", "unknown bot '': no name"),
    (":temperature=1", "unknown bot '': no name"),
    ("genius", "unknown bot 'genius' (known: greedy, heuristic,"),
    ("random:seed=1", "unknown parameter 'seed' of bot random (it takes none)"),
    ("x" * 300, "longer than 200 characters"),
])
def test_a_bad_spec_is_one_setup_error_naming_spec_and_key(spec, words):
    with pytest.raises(SetupError) as refused:
        canonical_spec(spec, "--bots")
    message = str(refused.value)
    assert words in message and "\n" not in message and len(message) < 500


def test_seat_lists():
    assert parse_bot_list("heuristic:temperature=0.50,random") == ["heuristic:temperature=0.5", "random"]
    assert seat_bots("random", 3) == ["random"] * 3
    with pytest.raises(SetupError, match="2 bots named for 4 players"):
        seat_bots("random,random", 4)


def test_mcts_specs_have_one_text_per_bot():
    """A league's entrants are canonical specs: a default written out is the same bot."""
    assert canonical_spec("mcts:playouts=64") == "mcts" == canonical_spec("mcts:depth=none:c=0.40")
    assert canonical_spec("mcts:playouts=0128:depth=20") == "mcts:depth=20:playouts=128"
    # with a time budget there is no playout cap unless one is written: the cap is kept
    assert canonical_spec("mcts:seconds=0.5") == "mcts:seconds=0.5"
    assert canonical_spec("mcts:seconds=0.5:playouts=64") == "mcts:playouts=64:seconds=0.5"
    assert canonical_spec("mcts:seconds=none:playouts=64") == "mcts"
    bot = make_bot("mcts:playouts=12:c=0.7:depth=none:prior=0", 3)
    assert (bot.playouts, bot.c, bot.depth, bot.seconds, bot.seed, bot.prior) == (12, 0.7, None, None, 3, 0.0)
    assert make_bot("mcts:seconds=0.5").playouts is None and make_bot("mcts").playouts == 64
    for spec, words in (("mcts:playouts=0", "parameter 'playouts': must be 1..10000000"),
                        ("mcts:width=3", "unknown parameter 'width' of bot mcts"),
                        ("mcts:playouts=x", "expected a whole number"),
                        ("mcts:playouts=none", "expected a whole number"),
                        ("mcts:seconds=1e999", "expected a finite number"),
                        ("mcts:depth=-2", "must be 0..10000000")):
        with pytest.raises(SetupError) as refused:
            canonical_spec(spec)
        assert words in str(refused.value), (spec, str(refused.value))


def test_mcts_is_registered_lazily_and_its_absence_costs_only_that_bot(monkeypatch):
    monkeypatch.delitem(bots_module.BOTS, "mcts", raising=False)
    monkeypatch.setattr(bots_module, "_MISSING", {})
    monkeypatch.setitem(sys.modules, "imperial_lab.core.mcts", None)  # as if core/mcts.py were not there
    assert "mcts" not in bot_classes() and isinstance(make_bot("random", 1), RandomBot)
    with pytest.raises(SetupError, match="unknown bot 'mcts'.*core/mcts.py cannot be loaded"):
        make_bot("mcts:playouts=10")


def test_every_command_reads_specs_with_the_same_parser(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("IMPERIAL_LAB_CATALOG", str(tmp_path / "lab.duckdb"))
    log = tmp_path / "g.jsonl"
    assert main(["play", "--players", "2", "--seed", "3", "--bots", "heuristic:temperature=0.50,random",
                 "--log", str(log), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["bots"] == ["heuristic:temperature=0.5", "random"]  # the canonical text, in the log too
    assert json.loads(log.read_text().splitlines()[0])["bots"] == ["heuristic:temperature=0.5", "random"]
    for command in (["play"], ["simulate", "--games", "1", "--workers", "1", "--out", str(tmp_path / "x")],
                    ["league", "--games", "1", "--workers", "1", "--out", str(tmp_path / "y")]):
        bots = "heuristic:temp=1" if command[0] != "league" else "heuristic:temp=1,random"
        assert main(command + ["--bots", bots]) == 2
        err = capsys.readouterr().err
        assert err.startswith("imperial: error: --bots: 'heuristic:temp=1': unknown parameter 'temp'")
        assert err.count("\n") == 1
    assert not (tmp_path / "x").exists() and not (tmp_path / "y").exists()
    assert not (tmp_path / "lab.duckdb").exists()
