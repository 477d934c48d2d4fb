"""Move logs (imperial_lab.core.gamelog): round trips, and every kind of bad log located by file and line."""

from __future__ import annotations

import io
import json
import pickle

import pytest

from imperial_lab.core.bots import RandomBot
from imperial_lab.core.errors import IllegalActionError, ImperialError, LogError
from imperial_lab.core.gamelog import read_log, replay, replay_game, write_log
from imperial_lab.core.play import play_game

CONFIG = {"game": "imperial2030", "players": 4, "setup": "standard"}


@pytest.fixture(scope="module")
def played():
    return play_game(CONFIG, [RandomBot(70 + p) for p in range(4)], seed=7)


@pytest.fixture
def log_lines(played) -> list[str]:
    out = io.StringIO()
    write_log(out, played, seed=7, bots=["random"] * 4)
    return out.getvalue().splitlines()


def test_header_and_action_lines(played, log_lines):
    header = json.loads(log_lines[0])
    assert header == {"game": "imperial2030", "format": 1, "config": played.config, "seed": 7,
                      "bots": ["random"] * 4}
    first = json.loads(log_lines[1])
    assert first["player"] == -1 and first["action"].startswith("deal ")
    assert len(log_lines) == 1 + len(played.actions)


def test_round_trip_through_a_file(tmp_path, played):
    path = tmp_path / "game.jsonl"
    write_log(path, played)
    assert "seed" not in json.loads(path.read_text().splitlines()[0])  # metadata only when given
    assert replay(path).to_json() == played.state.to_json()
    again = replay_game(str(path))
    assert again.decisions == played.decisions and again.actions == played.actions


def test_read_log_gives_config_and_texts(tmp_path, played):
    path = tmp_path / "game.jsonl"
    write_log(path, played)
    config, actions = read_log(path)
    assert config == played.config
    assert actions == [(p, played.state.action_to_string(a)) for p, a in played.actions]


def test_replay_accepts_lines_blank_lines_and_extra_keys(played, log_lines):
    action = json.dumps(json.loads(log_lines[1])["action"])
    lines = [log_lines[0], "", f'{{"player": -1, "action": {action}, "comment": "the deal"}}'] + log_lines[2:] + ["   "]
    assert replay(lines).to_json() == played.state.to_json()


def test_a_log_may_stop_before_the_end(log_lines):
    state = replay(log_lines[:50])
    assert not state.is_terminal()


def test_config_without_game_key_takes_the_header_game(log_lines):
    header = json.loads(log_lines[0])
    del header["config"]["game"]
    assert replay([json.dumps(header)] + log_lines[1:30]).to_json()["config"]["game"] == "imperial2030"


def _bad_logs(lines: list[str]) -> list[tuple[str, list[str], int, str]]:
    """(kind, log lines, line number of the fault, words the message must contain)."""
    deal = json.loads(lines[1])["action"]
    first_move = json.loads(lines[2])
    return [
        ("empty file", [], 1, "header"),
        ("malformed JSON", [lines[0], lines[1], '{"player": 0, "action": '], 3, "not valid JSON"),
        ("not an object", [lines[0], "[1, 2]"], 2, "JSON object"),
        ("header missing", lines[1:], 1, "header is missing"),
        ("header without format", ['{"game": "imperial2030", "config": {}}'], 1, "'format'"),
        ("unknown format", ['{"game": "imperial2030", "format": 9, "config": {}}'], 1, "format 9"),
        ("config not an object", ['{"game": "imperial2030", "format": 1, "config": 4}'], 1, "'config'"),
        ("header and config disagree", ['{"game": "imperial2030", "format": 1, "config": {"game": "go"}}'],
         1, "config.game"),
        ("unknown game", ['{"game": "chess", "format": 1, "config": {}}'], 1, "unknown game 'chess'"),
        ("bad config", ['{"game": "imperial2030", "format": 1, "config": {"players": 9}}'], 1, "config.players"),
        ("unknown config key", ['{"game": "imperial2030", "format": 1, "config": {"colour": 1}}'], 1, "colour"),
        ("bad fixed deal", ['{"game": "imperial2030", "format": 1, "config": {"deal": ["RU", "RU", "CN", "IN"]}}'],
         1, "deal"),
        ("action without player", [lines[0], json.dumps({"action": deal})], 2, "'player'"),
        ("action without text", [lines[0], '{"player": -1}'], 2, "'action'"),
        ("player not a number", [lines[0], json.dumps({"player": "chance", "action": deal})], 2, "whole number"),
        ("action not a string", [lines[0], '{"player": -1, "action": 5}'], 2, "string"),
        ("wrong player", [lines[0], lines[1], json.dumps({**first_move, "player": (first_move["player"] + 1) % 4})],
         3, "not the one to decide"),
        ("chance line for a player", [lines[0], lines[1], json.dumps({**first_move, "player": -1})], 3,
         "not the one to decide"),
        ("unparsable action", [lines[0], lines[1], json.dumps({**first_move, "action": "rondel beach"})], 3,
         "cannot parse action 'rondel beach'"),
        ("illegal action", [lines[0], json.dumps({"player": -1, "action": "deal RU,RU,CN,IN"})], 2,
         "RULES.md §4.2"),
        ("action after the end", lines + [json.dumps({"player": 0, "action": "pass"})], len(lines) + 1,
         "after the end"),
    ]


def test_every_kind_of_bad_log_names_file_and_line(tmp_path, log_lines):
    for kind, lines, line, words in _bad_logs(log_lines):
        path = tmp_path / "bad.jsonl"
        path.write_text("".join(x + "\n" for x in lines))
        before = path.read_bytes()
        with pytest.raises(LogError) as info:
            replay(path)
        assert info.value.line == line, kind
        assert str(info.value).startswith(f"{path}:{line}: "), kind
        assert words in str(info.value), (kind, str(info.value))
        assert isinstance(info.value, ImperialError)
        assert path.read_bytes() == before, f"{kind}: the log was modified"


def test_illegal_action_message_names_the_rule(log_lines):
    move = json.loads(log_lines[2])
    # The government of the first nation has far less than 999m of cash to move into the treasury.
    with pytest.raises(LogError) as info:
        replay(log_lines[:2] + [json.dumps({**move, "action": "topup 999"})])
    assert info.value.line == 3 and "illegal action 'topup 999'" in str(info.value)
    assert "[RULES.md §5]" in str(info.value)


def test_read_log_checks_the_format_only(log_lines):
    illegal = [log_lines[0], json.dumps({"player": 2, "action": "fly to the moon"})]
    config, actions = read_log(illegal)
    assert actions == [(2, "fly to the moon")] and config["players"] == 4
    with pytest.raises(LogError) as info:
        read_log([log_lines[0], "{oops"])
    assert str(info.value).startswith("<lines>:2: ")


def test_undecodable_bytes_are_a_located_error(tmp_path, log_lines):
    path = tmp_path / "bytes.jsonl"
    path.write_bytes((log_lines[0] + "\n").encode() + b'{"player": -1, "action": "deal \xff"}\n')
    with pytest.raises(LogError) as info:
        replay(path)
    assert info.value.line == 2


def test_errors_survive_pickling_as_streamlit_caches_them():
    """st.cache_data pickles what it keeps: a partial timeline holds its LogError."""
    error = pickle.loads(pickle.dumps(LogError("game.jsonl", 7, "bad JSON")))
    assert (str(error), error.file, error.line) == ("game.jsonl:7: bad JSON", "game.jsonl", 7)
    illegal = pickle.loads(pickle.dumps(IllegalActionError("§7.4", "no such move")))
    assert (str(illegal), illegal.rule) == ("no such move [RULES.md §7.4]", "§7.4")
