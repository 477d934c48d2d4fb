"""The ``imperial`` command line: each subcommand through ``main``, one real subprocess, error exits."""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from imperial_lab.core import lab_version
from imperial_lab.core.cli import _parser, main
from imperial_lab.core.gamelog import replay
from imperial_lab.core.interface import make_game
from imperial_lab.core.simulate import simulate


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def game_log(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("logs") / "seed7.jsonl"
    assert main(["play", "--players", "4", "--seed", "7", "--log", str(path), "--json"]) == 0
    return path


@pytest.fixture
def position_file(tmp_path, game_log) -> Path:
    """The position after the first 40 actions of the logged game."""
    path = tmp_path / "position.json"
    path.write_text(json.dumps(replay(game_log.read_text().splitlines()[:41]).to_json()))
    return path


# ----- play -----

def test_play_prints_a_summary(capsys):
    code, out, err = run(capsys, "play", "--players", "3", "--seed", "7", "--bots", "random")
    assert code == 0 and err == ""
    assert out.startswith("Imperial 2030: 3 players, standard setup, seed 7, bots random,random,random")
    for label in ("Winner", "Scores:", "Ended by:", "Nation turns:", "Decisions:", "Power points:"):
        assert label in out
    assert "25 power points" in out  # the game ends when a nation reaches 25


def test_play_json_is_one_object_and_reproducible(capsys):
    argv = ("play", "--players", "4", "--seed", "11", "--setup", "variant", "--bots", "random,random,random,random",
            "--json")
    code, out, _ = run(capsys, *argv)
    summary = json.loads(out)
    assert code == 0 and summary["finished"]
    assert summary["config"] == {"game": "imperial2030", "players": 4, "setup": "variant"}
    assert set(summary["power_points"]) == {"RU", "CN", "IN", "BR", "US", "EU"}
    assert summary["power_points"][summary["ended_by"]] >= 25
    assert summary["scores"][summary["winners"][0]] == max(summary["scores"])
    assert summary["decisions"] == summary["actions"]  # the variant deals no cards: no chance actions
    assert json.loads(run(capsys, *argv)[1]) == summary


def test_play_log_replays_to_the_same_summary(capsys, game_log):
    header = json.loads(game_log.read_text().splitlines()[0])
    assert header["seed"] == 7 and header["bots"] == ["random"] * 4
    played = json.loads(run(capsys, "play", "--players", "4", "--seed", "7", "--json")[1])
    code, out, _ = run(capsys, "replay", str(game_log), "--json")
    replayed = json.loads(out)
    assert code == 0
    for key in ("winners", "scores", "nation_turns", "rounds", "decisions", "actions", "power_points", "ended_by"):
        assert replayed[key] == played[key], key


def test_play_with_a_custom_distribution_file(capsys, tmp_path):
    dist = tmp_path / "dist.json"
    dist.write_text(json.dumps({"players": [{"cash": 20, "bonds": ["RU 4", "CN 4", "IN 4"]},
                                            {"cash": 20, "bonds": ["BR 4", "US 4", "EU 4"]}]}))
    code, out, _ = run(capsys, "play", "--setup", str(dist), "--seed", "2", "--json")
    summary = json.loads(out)
    assert code == 0 and summary["config"]["setup"] == "custom" and summary["config"]["players"] == 2


@pytest.mark.parametrize("argv, words", [
    (["play", "--bots", "random,random"], "2 bots named for 4 players"),
    (["play", "--bots", "genius"], "unknown bot 'genius'"),
    (["play", "--players", "9"], "argument --players: expected a whole number 2..6"),
    (["play", "--setup", "no-such-file.json"], "neither standard nor variant"),
])
def test_play_refuses_bad_options(capsys, argv, words):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("imperial: error: ") and words in err and "Traceback" not in err


def test_bad_distribution_file(capsys, tmp_path):
    dist = tmp_path / "dist.json"
    dist.write_text("{not json")
    code, _, err = run(capsys, "play", "--setup", str(dist))
    assert code == 2 and "not valid JSON" in err


# ----- replay -----

def test_replay_prints_the_summary(capsys, game_log):
    code, out, _ = run(capsys, "replay", str(game_log))
    assert code == 0 and out.startswith(f"Replayed {game_log}: ") and "Winner" in out


def test_replay_of_an_illegal_log_names_the_line(capsys, tmp_path, game_log):
    lines = game_log.read_text().splitlines()
    lines[5] = json.dumps({**json.loads(lines[5]), "action": "rondel nowhere"})
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    code, out, err = run(capsys, "replay", str(bad))
    assert code == 2 and out == ""
    assert f"{bad}:6: cannot parse action 'rondel nowhere'" in err


def test_replay_of_a_malformed_log(capsys, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"game": "imperial2030", "format": 1, "config": {}}\n{"player": -1\n')
    code, _, err = run(capsys, "replay", str(bad))
    assert code == 2 and f"{bad}:2: not valid JSON" in err


def test_replay_of_a_missing_file(capsys, tmp_path):
    code, _, err = run(capsys, "replay", str(tmp_path / "none.jsonl"))
    assert code == 2 and "No such file" in err


# ----- legal and apply -----

def test_legal_lists_text_forms(capsys, position_file):
    code, out, _ = run(capsys, "legal", str(position_file))
    doc = json.loads(position_file.read_text())
    state = make_game(doc["config"]).state_from_json(doc)
    assert code == 0 and len(out.splitlines()) > 1
    assert out.splitlines() == [state.action_to_string(a) for a in state.legal_actions()]


def test_apply_prints_the_next_position(capsys, position_file):
    doc = json.loads(position_file.read_text())
    state = make_game(doc["config"]).state_from_json(doc)
    action = state.legal_actions()[-1]
    code, out, _ = run(capsys, "apply", str(position_file), state.action_to_string(action))
    state.apply_action(action)
    assert code == 0 and json.loads(out) == state.to_json()


def test_apply_an_illegal_action_names_the_rule(capsys, position_file):
    code, out, err = run(capsys, "apply", str(position_file), "topup 999")
    assert code == 2 and out == ""
    assert "illegal action 'topup 999'" in err and "[RULES.md §5]" in err


def test_apply_an_unparsable_action(capsys, position_file):
    code, _, err = run(capsys, "apply", str(position_file), "dance")
    assert code == 2 and "cannot parse action 'dance'" in err


@pytest.mark.parametrize("content, words", [
    ("[1, 2", "not valid JSON"),
    ('{"players": []}', "'config' object"),
    ('{"config": {"players": 4}, "players": 3}', "expected a list of 4 players"),
    ('{"config": {"players": 2}, "players": [1, 2], "nations": {}}', "players[0]: must be an object"),
])
def test_bad_position_files(capsys, tmp_path, content, words):
    path = tmp_path / "pos.json"
    path.write_text(content)
    code, _, err = run(capsys, "legal", str(path))
    assert code == 2 and words in err and str(path) in err


# ----- bench, usage -----

def test_bench_json(capsys):
    code, out, err = run(capsys, "bench", "--repeats", "2", "--games", "1", "--json")
    result = json.loads(out)
    assert code == 0 and result["repeats"] == 2 and result["games_per_repeat"] == 1
    assert set(result["per_call_us"]) >= {"legal_actions", "apply_action", "clone"}
    assert "repeat 2/2" in err  # progress goes to stderr


def test_bench_text(capsys):
    code, out, _ = run(capsys, "bench", "--repeats", "1", "--games", "1")
    assert code == 0
    for label in ("games/s", "nation turns/s", "decisions/s", "legal_actions", "apply_action", "clone", "µs"):
        assert label in out


def test_usage_errors_exit_2(capsys):
    assert main(["fly"]) == 2
    assert main(["bench", "--repeats", "0"]) == 2
    assert main([]) == 2
    assert main(["--help"]) == 0
    capsys.readouterr()


def test_installed_script_runs_in_a_subprocess(tmp_path):
    script = shutil.which("imperial", path=str(Path(sys.executable).parent))
    assert script, "the 'imperial' console script is not installed (pip install -e '.[test]')"
    log = tmp_path / "g.jsonl"
    done = subprocess.run([script, "play", "--players", "2", "--seed", "5", "--log", str(log)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "Winner" in done.stdout
    log.write_text(log.read_text() + '{"player": 0, "action": "pass"}\n')
    done = subprocess.run([script, "replay", str(log)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "after the end of the game" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_reader_that_goes_away_ends_the_command_quietly(tmp_path, position_file):
    """``imperial legal POS | head -1``: the output (10,000 top-ups, more than a pipe holds) meets a
    closed pipe; the command stops without a traceback or a word on stderr."""
    doc = json.loads(position_file.read_text())
    doc["players"][doc["decision"]["player"]]["cash"] = 10_000
    doc.pop("bank")
    rich = tmp_path / "rich.json"
    rich.write_text(json.dumps(doc))
    script = shutil.which("imperial", path=str(Path(sys.executable).parent))
    proc = subprocess.Popen([script, "legal", str(rich)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout.readline()
    proc.stdout.close()
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 141 and err == b""


# ----- the conventions of every command (as catanatron-play's): help, version, output, notes -----

def commands(parser=None, words=("imperial",)):
    """(words, parser) of ``imperial`` and of every command and subcommand under it."""
    parser = parser or _parser()
    yield words, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                yield from commands(child, (*words, name))


def test_every_command_has_a_description_examples_and_help_on_every_option():
    found = list(commands())
    assert {words[1] for words, _ in found[1:]} >= {"play", "replay", "legal", "apply", "setups", "simulate", "import",
                                                    "runs", "compare", "query", "league", "dashboard", "bench"}
    for words, parser in found:
        command = " ".join(words)
        assert parser.description and parser.description[0].isupper(), command
        examples = parser.epilog.splitlines()
        assert examples[0] == "examples:" and len(examples) > 1, command
        assert all(line.startswith(f"  {command} ") or line == f"  {command}" for line in examples[1:]), command
        for action in parser._actions:
            assert action.help, f"{command}: {action.option_strings or action.dest} has no help"
        assert {"--quiet", "--log-level"} <= set(parser._option_string_actions), command


def test_version(capsys):
    code, out, err = run(capsys, "--version")
    assert code == 0 and out == f"imperial (imperial-lab) {lab_version()}\n" and err == ""


@pytest.mark.parametrize("argv, error", [
    (["play", "--game", "imperia", "--players", "5"], "imperial play: argument --players: Imperia takes 2-4 players, "
                                                       "got 5"),
    (["simulate", "--game", "imperial_powers", "--players", "2", "--games", "1", "--out", "x"],
     "imperial simulate: argument --players: Imperial Powers takes 3-5 players, got 2"),
    (["play", "--players", "7"], "imperial play: argument --players: expected a whole number 2..6, got '7'"),
])
def test_player_ranges_of_each_game_in_help_and_errors(capsys, argv, error):
    ranges = "Imperial 2030 2-6, Imperia 2-4, Imperial Powers 3-5"
    for command in ("play", "simulate", "league"):
        assert ranges in " ".join(run(capsys, command, "--help")[1].split())
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and err.startswith(f"imperial: error: {error}") and err.count("\n") == 1


@pytest.fixture(scope="module")
def imperia_lab(tmp_path_factory):
    """A catalogue with one small Imperia run."""
    root = tmp_path_factory.mktemp("imperia_lab")
    simulate(root / "runs" / "im", 2, 2, "default", ["random"] * 2, seed=1, workers=1, catalog=root / "lab.duckdb",
             progress=False, game="imperia")
    return root / "lab.duckdb"


def test_runs_query_and_setups_print_json_and_runs_name_the_game(capsys, imperia_lab):
    code, out, _ = run(capsys, "runs", "--catalog", str(imperia_lab), "--json")
    (row,) = json.loads(out)
    assert code == 0 and (row["name"], row["game"], row["games"], row["status"]) == ("im", "imperia", 2, "complete")
    assert row["created"].startswith("20") and row["created"][10] == "T"  # ISO dates
    header = run(capsys, "runs", "--catalog", str(imperia_lab))[1].splitlines()[0].split()
    assert header[:2] == ["name", "game"]
    code, out, _ = run(capsys, "query", "SELECT run, count(*) AS n, list(game_id ORDER BY game_id) AS ids FROM "
                                        "im_games GROUP BY run", "--catalog", str(imperia_lab), "--json")
    assert code == 0 and json.loads(out) == [{"run": "im", "n": 2, "ids": [0, 1]}]
    code, out, _ = run(capsys, "setups", "--game", "imperial2030", "--json")
    assert code == 0 and {"standard", "three_nations_each"} <= {row["name"] for row in json.loads(out)}
    assert "players  description" in run(capsys, "setups", "--game", "imperial_powers")[1]


def tiny_simulate(tmp_path: Path) -> list[str]:
    """``imperial simulate`` of two Imperia games into a catalogue of the test's own, less ``--out``."""
    return ["simulate", "--game", "imperia", "--players", "2", "--games", "2", "--workers", "1",
            "--catalog", str(tmp_path / "lab.duckdb"), "--out"]


def test_notes_follow_the_log_level_and_quiet(capsys, tmp_path):
    argv = tiny_simulate(tmp_path)
    note = "imperial: info: run a: 2 games in chunks of 1; 0 chunks done, 2 to play on this process\n"
    assert run(capsys, *argv, str(tmp_path / "a"), "--log-level", "info")[2] == note
    assert run(capsys, *argv, str(tmp_path / "a"))[2] == ""  # warnings and errors only, by default
    assert run(capsys, "--log-level", "info", *argv, str(tmp_path / "b"), "--quiet")[2] == ""
    assert run(capsys, "--log-level", "debug", *argv, str(tmp_path / "c"))[2].startswith("imperial: info: run c:")


def test_a_progress_bar_only_on_a_terminal_unless_asked_not_to(capsys, monkeypatch, tmp_path, lab):
    argv = tiny_simulate(tmp_path)
    assert run(capsys, *argv, str(tmp_path / "a"))[2] == ""  # stderr is not a terminal here
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    assert "games: 100%" in run(capsys, *argv, str(tmp_path / "b"))[2]
    assert run(capsys, *argv, str(tmp_path / "c"), "--no-progress")[2] == ""
    assert run(capsys, *argv, str(tmp_path / "d"), "-q")[2] == ""
    code, out, err = run(capsys, "compare", *lab.runs, "--catalog", str(lab.catalog))
    assert code == 0 and "compare: 100%" in err and "3/3" in err  # two cells (one per setup), then their tests
    assert run(capsys, "compare", *lab.runs, "--catalog", str(lab.catalog), "--no-progress")[2] == ""


def test_help_loads_no_heavy_library():
    """``imperial --help`` answers at once: it imports no graph, table, cluster or page library (networkx
    only where a graph algorithm runs, pandas, DuckDB and Dask only in the batch commands)."""
    heavy = ("networkx", "pandas", "pyarrow", "duckdb", "dask", "distributed", "streamlit", "scipy", "tqdm")
    code = (f"import sys, contextlib, io; from imperial_lab.core.cli import main\n"
            f"with contextlib.redirect_stdout(io.StringIO()): main(['--help'])\n"
            f"print(','.join(name for name in {heavy!r} if name in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout == "\n", done.stdout + done.stderr
