"""Terminal play (``imperial play --human``, core/human.py): whole games driven through stdin, hints,
``why``, ``undo``, ``save`` and ``--resume``, the end of the input, bad lines and the option checks."""

from __future__ import annotations

import io
import json
import re
import sys

import pytest

from imperial_lab.core.bots import make_bot
from imperial_lab.core.cli import main
from imperial_lab.core.games.imperial2030 import texts
from imperial_lab.core.games.imperial2030.actions import BUY, RONDEL, UPGRADE
from imperial_lab.core.human import MAX_BAD_LINES, TerminalPlay
from imperial_lab.core.interface import make_game
from imperial_lab.core.session import bot_seed
from tests.toy_games import NIM

ONES = "1\n" * 5000  # more than any game asks


def run(capsys, monkeypatch, stdin: str, *argv) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(["play", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def log_lines(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


# ----- whole games -----

def test_a_person_answering_1_plays_a_whole_game_to_the_summary(capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, ONES, "--players", "3", "--seed", "3", "--human", "0", "--bots", "random")
    assert code == 0 and err == ""
    assert out.startswith("Imperial 2030: 3 players, standard setup, seed 3, bots human,random,random\n")
    summary = out[out.rindex("Imperial 2030: 3 players"):]
    for label in ("Winner:", "Scores:", "Ended by:", "Nation turns:", "Decisions:", "Power points:"):
        assert label in summary
    assert "25 power points" in summary
    # the decision, the position around it and the numbered actions; bots' moves with what they caused
    assert "Player A: Russia's turn: choose its rondel space" in out and "[§6 The rondel]" in out
    assert "  You (Player A): cash " in out and "first placement, free" in out
    assert "Player A [1-" in out and "]> 1\n" in out  # the prompt, and the line read echoed (not a terminal)
    assert "[random]: rondel " in out and "== Turn 2, round 1:" in out


def test_two_people_and_named_bots_in_a_four_player_game(capsys, monkeypatch, tmp_path):
    log = tmp_path / "game.jsonl"
    code, out, err = run(capsys, monkeypatch, ONES, "--seed", "5", "--human", "1,3", "--bots", "heuristic,random",
                         "--log", str(log), "--json")
    assert code == 0 and err == ""
    summary = json.loads(out.splitlines()[-1])
    assert summary["finished"] and summary["bots"] == ["heuristic", "human", "random", "human"]
    assert log_lines(log)[0]["bots"] == ["heuristic", "human", "random", "human"]
    assert main(["replay", str(log)]) == 0


def test_every_seat_may_be_a_person(capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, ONES, "--players", "2", "--seed", "2", "--human", "0,1")
    assert code == 0 and err == "" and "bots human,human" in out and "Winner" in out


# ----- hint and why -----

def test_hint_shows_the_rollout_bots_choice_with_tries_and_estimates(capsys, monkeypatch):
    argv = ("--players", "3", "--seed", "4", "--human", "0", "--hint-playouts", "12")
    code, out, _ = run(capsys, monkeypatch, "?\nhint\n", *argv)
    assert code == 2
    hint = out[out.index("Hint: the rollout bot"):]
    assert "would choose" in hint and "tries" in hint and "%" in hint and "on to the end of the game" in hint
    assert "estimated win chance of Player A" in hint
    # deterministic with the game's seed; asked again at the same decision, the same answer
    first = hint.splitlines()[0]
    assert out.count(first) == 2
    _, again, _ = run(capsys, monkeypatch, "?\n", *argv)
    assert first in again


def test_why_names_the_rule_of_an_illegal_action_and_the_number_of_a_legal_one(capsys, monkeypatch):
    lines = "why pass\nwhy rondel beach\nwhy rondel factory\nwhy\n"
    code, out, err = run(capsys, monkeypatch, lines, "--players", "3", "--seed", "4", "--human", "0")
    assert code == 2 and err.count("\n") == 1
    assert ("Not allowed: the government must first choose a rondel destination (§5 How a nation's turn "
            "goes).") in out and "RULES.md" not in out
    assert "cannot parse action 'rondel beach': unknown rondel space 'beach'" in out
    assert "'rondel factory' is legal here: it is choice 1." in out
    assert "why needs an action" in out


def test_an_action_text_chooses_like_its_number(capsys, monkeypatch, tmp_path):
    by_text, by_number = tmp_path / "text.jsonl", tmp_path / "number.jsonl"
    argv = ("--players", "3", "--seed", "4", "--human", "0")
    run(capsys, monkeypatch, "rondel taxation\n", *argv, "--log", str(by_text))
    _, out, _ = run(capsys, monkeypatch, "8\n", *argv, "--log", str(by_number))
    assert "8. rondel taxation" in out
    assert by_text.read_text() == by_number.read_text()
    _, out, _ = run(capsys, monkeypatch, "pass\n", *argv)
    assert "Not allowed: the government must first choose a rondel destination" in out  # a bad line, and why


# ----- undo, save, resume -----

def test_undo_then_the_same_choice_plays_the_identical_game(capsys, monkeypatch, tmp_path):
    plain, undone = tmp_path / "plain.jsonl", tmp_path / "undone.jsonl"
    argv = ("--seed", "8", "--human", "0", "--bots", "heuristic")  # the heuristic draws from its generator
    code, _, _ = run(capsys, monkeypatch, ONES, *argv, "--log", str(plain))
    assert code == 0
    script = "1\n2\n3\nundo\nundo\n" + ONES  # back to the second decision, then 1 as in the plain game
    code, out, _ = run(capsys, monkeypatch, script, *argv, "--log", str(undone))
    assert code == 0
    assert "Undone: Player A's 'rondel " in out and " moves after it." in out
    assert log_lines(undone) == log_lines(plain)


def test_undo_with_nothing_to_undo_is_a_bad_line(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, "undo\n", "--players", "3", "--seed", "4", "--human", "0")
    assert code == 2 and "Nothing to undo" in out


def test_save_writes_a_log_that_replays_and_resume_continues_it(capsys, monkeypatch, tmp_path):
    whole, saved, resumed = tmp_path / "whole.jsonl", tmp_path / "saved.jsonl", tmp_path / "resumed.jsonl"
    argv = ("--players", "3", "--seed", "6", "--human", "2", "--bots", "heuristic,random")
    assert run(capsys, monkeypatch, ONES, *argv, "--log", str(whole))[0] == 0
    code, out, err = run(capsys, monkeypatch, "1\n" * 30 + f"save {saved}\n", *argv)
    assert code == 2 and "input ended before the end of the game" in err
    assert f"to {saved}" in out
    header = log_lines(saved)[0]
    assert header["seed"] == 6 and header["bots"] == ["heuristic", "random", "human"]
    assert main(["replay", str(saved)]) == 0 and "actions verified" in capsys.readouterr().out
    # the resumed game continues as the uninterrupted one: the same bots, seeds and choices
    code, out, err = run(capsys, monkeypatch, ONES, "--resume", str(saved), "--human", "2", "--log", str(resumed))
    assert code == 0 and err == "" and "Resumed after " in out and "Winner" in out
    assert log_lines(resumed) == log_lines(whole)


def test_save_does_not_overwrite_a_file_it_did_not_write(capsys, monkeypatch, tmp_path):
    other = tmp_path / "other.jsonl"
    other.write_text("keep me\n")
    mine = tmp_path / "mine.jsonl"
    script = f"save {other}\nsave {mine}\n1\nsave {mine}\nsave\n"
    code, out, _ = run(capsys, monkeypatch, script, "--players", "3", "--seed", "4", "--human", "0")
    assert code == 2 and other.read_text() == "keep me\n"
    assert "exists: not overwritten" in out and "save needs a file name" in out
    assert out.count(f"to {mine}") == 2  # a file this session saved is updated
    assert len(log_lines(mine)) > 2


def test_resume_checks(capsys, monkeypatch, tmp_path):
    saved = tmp_path / "saved.jsonl"
    run(capsys, monkeypatch, f"1\nsave {saved}\n", "--players", "3", "--seed", "6", "--human", "0")
    for extra, message in ((("--players", "3"), "--resume: the players and the setup are the saved game's"),
                           (("--seed", "7"), "--seed: 7, but"),
                           ((), "names no bot for Player A (seat 0)")):
        code, out, err = run(capsys, monkeypatch, "", "--resume", str(saved), *extra)
        assert code == 2 and out == "" and err.startswith("imperial: error: ") and message in err
        assert err.count("\n") == 1
    # a finished saved game: nothing to ask, the summary
    done = tmp_path / "done.jsonl"
    assert main(["play", "--players", "2", "--seed", "1", "--log", str(done)]) == 0
    capsys.readouterr()
    code, out, _ = run(capsys, monkeypatch, "", "--resume", str(done))
    assert code == 0 and "Winner" in out


# ----- the end of the input, quit, bad lines -----

def test_input_ending_mid_game_is_one_line_and_exit_2(capsys, monkeypatch, tmp_path):
    log = tmp_path / "partial.jsonl"
    code, out, err = run(capsys, monkeypatch, "1\n2\n", "--players", "3", "--seed", "4", "--human", "0",
                         "--log", str(log))
    assert code == 2 and "Winner" not in out
    assert err == (f"imperial: error: input ended before the end of the game (after {len(log_lines(log)) - 1} "
                   f"actions; the game so far is in {log})\n")


def test_quit_stops_with_exit_2(capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, "1\nquit\n1\n", "--players", "3", "--seed", "4", "--human", "0")
    assert code == 2 and err.startswith("imperial: quit before the end of the game") and err.count("\n") == 1


def test_bad_lines_are_answered_and_bounded(capsys, monkeypatch):
    script = "foo\n99\n0\n\n" + "x" * 5000 + "\nhelp\nlist\n1\n"
    code, out, _ = run(capsys, monkeypatch, script, "--players", "3", "--seed", "4", "--human", "0")
    assert code == 2
    assert "'foo' is not a choice: type a number 1-" in out
    assert "There is no choice '99'" in out and "There is no choice '0'" in out
    assert "Type a number 1-" in out and "longer than 1,000 characters" in out
    assert "undo          take back" in out  # help
    assert re.search(r"\nPlayer A for [A-Za-z ]+: rondel factory\n", out)  # bad lines ask again; 1 chooses
    code, out, err = run(capsys, monkeypatch, "nonsense\n" * (MAX_BAD_LINES + 50), "--players", "3", "--seed", "4",
                         "--human", "0")
    assert code == 2 and out.count("is not a choice") == MAX_BAD_LINES
    assert "too many lines without a choice" in err and err.count("\n") == 1


# ----- the option checks -----

@pytest.mark.parametrize("argv, message", [
    (("--human", "4"), "--human: seat 4 is out of range for 4 players (seats 0..3)"),
    (("--human", "1,1"), "--human: seat 1 given twice"),
    (("--human", "0,x"), "--human: expected seat numbers such as 0 or 0,2, got '0,x'"),
    (("--human", ""), "--human: expected seat numbers"),
    (("--human", "0", "--bots", "random,random"), "--bots: 2 bots named for 3 bot seats"),
    (("--human", "0,1,2,3", "--bots", "random"), "--bots: every seat is played by a person"),
    (("--human", "0", "--bots", "genius"), "--bots: 'genius': unknown bot 'genius'"),
    (("--human", "0", "--hint-playouts", "0"), "--hint-playouts"),
])
def test_bad_options_are_one_line_and_exit_2(capsys, monkeypatch, argv, message):
    code, out, err = run(capsys, monkeypatch, ONES, "--seed", "1", *argv)
    assert code == 2 and out == ""
    assert err.startswith("imperial: error: ") and message in err and err.count("\n") == 1


def test_play_without_human_is_unchanged(capsys):
    assert main(["play", "--players", "3", "--seed", "7"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Imperial 2030: 3 players, standard setup, seed 7, bots random,random,random\n")
    assert len(out.splitlines()) == 7  # the summary alone: no decisions, no moves


# ----- the session and the words, directly -----

def test_the_session_is_a_function_of_seed_seats_and_choices():
    config = make_game({"players": 3}).config
    outs = []
    for _ in range(2):
        out = io.StringIO()
        outcome = TerminalPlay(config, ["heuristic", None, "random"], 9, io.StringIO("1\n" * 40), out).run()
        assert outcome.status == "input ended"
        outs.append((out.getvalue(), outcome.played.actions))
    assert outs[0] == outs[1]
    assert bot_seed(9, 2, 17) != bot_seed(9, 2, 18) != bot_seed(9, 1, 18)


def test_notes_give_rondel_costs_and_bond_prices():
    game = make_game({"players": 3, "deal": ["RU", "CN", "IN"]})
    state = game.new_initial_state()
    notes = dict(zip(state.legal_actions(), texts.action_notes(state)))
    assert all(notes[a] == "first placement, free" for a in notes if a[0] == RONDEL)
    seen = set()
    bot = make_bot("random", 1)
    while not state.is_terminal() and len(seen) < 2:
        legal = state.legal_actions()
        kinds = {a[0] for a in legal}
        doc = state.to_json()
        if state.decision_name() == "turn_start" and doc["nations"][doc["turn"]["nation"]]["rondel"]:
            notes = texts.action_notes(state)
            assert all(" space" in n for a, n in zip(legal, notes) if a[0] == RONDEL)
            seen.add("rondel")
        if state.decision_name() == "invest" and kinds & {BUY, UPGRADE}:
            notes = texts.action_notes(state)
            assert all(n.startswith(("costs ", "pays ")) for a, n in zip(legal, notes) if a[0] in (BUY, UPGRADE))
            seen.add("invest")
        state.apply_action(bot.decide(state, legal))
    assert seen == {"rondel", "invest"}


# ----- any game of the interface -----

def test_the_session_plays_any_game_of_the_interface(monkeypatch):
    from imperial_lab.core import registry
    monkeypatch.setitem(registry.GAMES, "nim", NIM)
    out = io.StringIO()
    script = "why take 4\nwhy take 2\nwhy grab\n?\n3\nundo\n3\n" + "1\n" * 20
    outcome = TerminalPlay({"game": "nim", "heap": 9}, [None, "random"], 1, io.StringIO(script), out,
                           hint_playouts=30).run()
    text = out.getvalue()
    assert outcome.status == "finished" and outcome.played.state.is_terminal()
    assert "Player A decides" in text and "  1. take 1" in text and "  3. take 3" in text
    assert "cannot take 4 of 9 stones [RULES.md nim]" in text and "'take 2' is legal here: it is choice 2." in text
    assert "cannot parse 'grab'" in text and "Hint: the search bot" in text
    assert "Undone: Player A's 'take 3' and the 1 move after it." in text
    assert outcome.played.actions[0] == (0, 3)


def test_a_flag_decision_is_put_in_words():
    from imperial_lab.core.games.imperial2030.data import load_board
    from tests.builders import position

    b = load_board()
    neutral = [b.region_ids[r] for r in b.neutral]
    state = position(nations={"RU": {"government": 0, "flags": neutral[:b.flags_per_nation - 1]}},
                     bonds={0: ["RU 4"]},
                     decision={"kind": "flag", "player": 0, "flags_to_place": [["RU", neutral[-2:]]]})
    lines = texts.decision_lines(state)
    assert lines[0] == "Player A: Russia has too few flags left: choose where to place one [§7.4.8 Flags]"
    assert lines[2].startswith("  Russia: governed by Player A;") and "14 flags" in lines[2]
    assert texts.actor(state, 0) == "Player A for Russia"


# ----- games with hidden information -----

@pytest.mark.parametrize("game, players, secret", [
    ("imperial_powers", "3", re.compile(r"^(Chance: deal [BC] \S+#\d|Player [BC] \[random\]: (assign|move) )")),
    ("imperia", "2", re.compile(r"^Chance: draw lemon_yellow (?!\(hidden\))")),
])
def test_the_terminal_never_prints_another_seats_hidden_cards(capsys, monkeypatch, game, players, secret):
    """§6.2 of Imperial Powers, §7.2 of Imperia: the person at seat A reads the other seats' deals,
    draws, bids and Tactics moves without their cards; its own are named."""
    code, out, err = run(capsys, monkeypatch, ONES, "--game", game, "--players", players, "--seed", "4",
                         "--human", "0", "--bots", "random")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert not [line for line in lines if secret.match(line)]
    own = r"^Chance: deal A \S+#\d" if game == "imperial_powers" else r"^Chance: draw red (?!\(hidden\))"
    assert any(re.match(own, line) for line in lines)
    hidden = "(an influence card)" if game == "imperial_powers" else "draw lemon_yellow (hidden)"
    assert any(hidden in line for line in lines)
