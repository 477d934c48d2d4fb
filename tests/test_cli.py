"""The ``imperial`` command line: each subcommand through ``main``, one real subprocess, error exits."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from imperial_lab.core.cli import main
from imperial_lab.core.gamelog import replay
from imperial_lab.core.interface import make_game


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
