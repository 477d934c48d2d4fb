"""The analysis of a game (core/analysis.py, ``imperial analyse``): the win-chance line at every
step, the swings, the movers' drops with the better move in words, what a hidden-information game
keeps to the seat it is shown to, and the table of a run's analyses in the catalogue."""

from __future__ import annotations

import json

import pytest

from imperial_lab.core import evaluator as ev
from imperial_lab.core.analysis import (BIG_SWING, analyse_log, analyse_run, better_move_at, big_swings, chance_words,
                                        hint_words, swing_words, win_chance_line)
from imperial_lab.core.bots import make_bot
from imperial_lab.core.catalog import query
from imperial_lab.core.cli import main
from imperial_lab.core.gamelog import write_log
from imperial_lab.core.play import play_game
from imperial_lab.core.simulate import simulate


def log_of(tmp_path, game: str, players: int, seed: int = 2) -> str:
    bots = [make_bot("heuristic", 10 * seed + p, game=game) for p in range(players)]
    played = play_game({"game": game, "players": players}, bots, seed)
    path = tmp_path / f"{game}.jsonl"
    write_log(path, played, seed=seed, bots=["heuristic"] * players)
    return str(path)


@pytest.fixture(scope="module")
def imperial_log(tmp_path_factory):
    return log_of(tmp_path_factory.mktemp("logs"), "imperial2030", 4)


def test_the_chance_line_has_a_step_per_nation_turn_and_ends_with_the_result(imperial_log):
    result = analyse_log(imperial_log, progress=False)
    steps = result["steps"]
    from imperial_lab.core.gamelog import replay_game

    final = replay_game(imperial_log).state
    assert len(steps) == final.nation_turns + 1  # every nation turn begun, then the end
    assert [s["ply"] for s in steps] == sorted(s["ply"] for s in steps)
    for s in steps:
        assert sum(s["chances"]) == pytest.approx(1.0, abs=1e-3)
    won = final.winners()
    assert steps[-1]["chances"] == [round(1 / len(won), 4) if p in won else 0.0 for p in range(4)]
    assert [(k, ply, mover) for k, ply, mover, _ in win_chance_line(imperial_log)] == \
        [(s["step"], s["ply"], s["mover"]) for s in steps]


def test_swings_and_drops(imperial_log):
    result = analyse_log(imperial_log, drops=2, progress=False)
    swings = result["swings"]
    assert 0 < len(swings) <= 5 and [w["size"] for w in swings] == sorted((w["size"] for w in swings), reverse=True)
    step = result["steps"][swings[0]["step"]]
    after = result["steps"][swings[0]["step"] + 1]
    assert swings[0]["size"] == pytest.approx(max(abs(a - b) for a, b in zip(after["chances"], step["chances"])),
                                              abs=2e-4)
    assert swings[0]["happened"] and swings[0]["words"].startswith(swings[0]["who"] + ": ")
    drops = result["drops"]
    assert len(drops) == 2 and all(d["change"] < 0 and d["best"] in d["words"] for d in drops)
    assert drops[0]["change"] <= drops[1]["change"]



def test_rollouts_judge_the_drops_reproducibly_by_playouts_the_move_played_among_them(imperial_log):
    drop, = analyse_log(imperial_log, playouts_per_step=16, drops=1, progress=False)["drops"]
    assert analyse_log(imperial_log, playouts_per_step=16, drops=1, progress=False)["drops"] == [drop]
    assert drop["how"] == "rollouts, 16 playouts" and 0 <= drop["best_value"] <= 1
    # the move played stays in the race to its end, so its value is measured, not missing; the better
    # move named is never one that did worse than it
    assert drop["played"] is not None and 0 <= drop["played_value"] <= drop["best_value"]
    timed, = analyse_log(imperial_log, seconds_per_step=0.2, drops=1, progress=False)["drops"]
    assert timed["how"] == "rollouts, 0.2 s" and timed["step"] == drop["step"]



def test_a_better_move_at_any_step_of_a_log(imperial_log, tmp_path):
    line = win_chance_line(imperial_log)
    _, ply, mover, _ = line[6]
    answer = better_move_at(imperial_log, ply, playouts=16)
    assert answer["mover"] == mover and answer["how"] == "rollouts, 16 playouts"
    assert 0 <= answer["played_value"] <= answer["best_value"] <= 1 and "drop" not in answer["words"]
    with pytest.raises(ev.SetupError, match=f"no seat's decision begins a step at action {ply + 1}"):
        better_move_at(imperial_log, ply + 1)
    hidden = log_of(tmp_path, "imperia", 2)
    with pytest.raises(ev.SetupError, match="hides information"):
        better_move_at(hidden, win_chance_line(hidden)[1][1])

def test_hint_words():
    assert hint_words("Buying India 3", 0.31, "Rondel to Production", 0.22) == \
        "Better: Buying India 3 (31% to win) instead of Rondel to Production (22%)"
    assert hint_words("Pass", 0.4, "Pass", 0.4) == "The move played is the best one found: Pass (40% to win); " \
                                                 "the drop came after it"
    assert hint_words("Pass", 0.4, "Pass", 0.4, drop=False) == "The move played is the best one found: Pass (40% to win)"


def test_a_hidden_information_game_explains_drops_only_to_the_seat_they_are_shown_to(tmp_path):
    log = log_of(tmp_path, "imperia", 2)
    public = analyse_log(log, progress=False)
    assert public["hidden_information"] and public["drops"] == []
    mine = analyse_log(log, view=1, progress=False)
    assert mine["drops"] and all(d["mover"] == 1 for d in mine["drops"])
    assert [s["chances"] for s in mine["steps"]] == [s["chances"] for s in public["steps"]]  # public rows only


def test_a_runs_analyses_are_a_table_of_the_catalogue(tmp_path):
    catalog = tmp_path / "lab.duckdb"
    simulate(tmp_path / "runs" / "few", 2, 3, "standard", ["heuristic"] * 3, seed=4, catalog=catalog, progress=False)
    result = analyse_run(tmp_path / "runs" / "few", catalog, progress=False)
    frame = query("SELECT game_id, step, seat, win_chance FROM win_chances ORDER BY game_id, step, seat", catalog)
    assert len(frame) == result["rows"] > 0
    sums = frame.groupby(["game_id", "step"])["win_chance"].sum()
    assert (sums - 1).abs().max() < 1e-6
    # the explorer reads a stored game's line instead of working it out again: the same line
    from imperial_lab.dashboard.games.imperial2030.explorer_queries import game_log, stored_chances

    stored = stored_chances(catalog, "few", 1)
    worked_out = win_chance_line(game_log(catalog, "few", 1).splitlines())
    assert [row[:3] for row in stored] == [row[:3] for row in worked_out]
    assert all(a == pytest.approx(b) for (*_, a), (*_, b) in zip(stored, worked_out))
    assert stored_chances(catalog, "few", 99) == []


def test_the_command(imperial_log, capsys):
    assert main(["analyse", imperial_log, "--json", "--drops", "1"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["game"] == "imperial2030" and len(doc["drops"]) == 1
    assert main(["analyse"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("imperial: error:") and err.count("\n") == 1


def test_a_game_without_a_model_says_so(monkeypatch):
    monkeypatch.setattr(ev, "model_path", lambda game: ev.data_path(game, "no-such-model.json"))
    ev._shipped.cache_clear()
    try:
        with pytest.raises(ev.SetupError, match="no evaluator shipped for imperia"):
            ev.evaluator("imperia")
    finally:
        ev._shipped.cache_clear()


def test_an_actions_hint_in_words(imperial_log):
    from imperial_lab.core.analysis import action_hint
    from imperial_lab.core.gamelog import replay_game

    state = replay_game(imperial_log).state.game.new_initial_state()
    played = replay_game(imperial_log)
    for _, action in played.actions[:40]:  # into the first turns: the deciding seat has choices
        state.apply_action(action)
    while state.is_chance_node() or len(state.legal_actions()) < 2:
        state.apply_action(state.legal_actions()[0])
    action = state.legal_actions()[1]
    hint = action_hint(state, action)
    assert 0 <= hint["before"] <= 1 and 0 <= hint["after"] <= 1
    assert "your chance" in hint["words"] and f"{hint['before']:.0%}" in hint["words"]
    assert action_hint(state, action) == hint  # seeded: the same words every time


def test_the_win_chance_bots_choice_is_judged_like_a_persons_move(imperial_log):
    """bot_choice: greedy's move in the position and the chance after it by the same draws as
    action_hint, so the two compare; the same seed gives the same answer."""
    from imperial_lab.core.analysis import action_hint, bot_choice
    from imperial_lab.core.evaluator import GreedyBot
    from imperial_lab.core.gamelog import replay_game

    played = replay_game(imperial_log)
    state = played.state.game.new_initial_state()
    for _, action in played.actions[:40]:
        state.apply_action(action)
    while state.is_chance_node() or len(state.legal_actions()) < 2:
        state.apply_action(state.legal_actions()[0])
    action, chance = bot_choice(state, seed=3)
    assert action == GreedyBot(3).decide(state, state.legal_actions())
    assert chance == action_hint(state, action, seed=3)["after"]
    assert bot_choice(state, seed=3) == (action, chance)


def test_big_swings_are_the_steps_that_move_some_seats_chance_by_big_swing_or_more():
    line = [[0.5, 0.5], [0.55, 0.45], [0.55 + BIG_SWING, 0.45 - BIG_SWING], [0.2, 0.8], [0.21, 0.79]]
    assert big_swings(line) == [2, 3]
    assert big_swings(line[:1]) == [] and big_swings([]) == []


def test_a_swing_in_words_names_the_mover_then_the_largest_changes_first():
    words = swing_words("Player B for India", [0.4, 0.22, 0.2, 0.18], [0.3, 0.31, 0.2, 0.19])
    assert words == ("Player B for India: Player A's chance to win falls from 40% to 30%, Player B's rises from "
                     "22% to 31%, Player D's rises from 18% to 19%")  # Player C: no change, not named
    big = swing_words("Player A for Russia", [0.5, 0.5], [0.8, 0.2])
    assert big.startswith("A big swing. Player A for Russia: Player A's chance to win rises from 50% to 80%")
    assert swing_words("Player A for Russia", [0.5, 0.5], [0.502, 0.498]).endswith("nobody's chance to win changed")


def test_a_chance_change_in_words():
    assert chance_words(0.22, 0.31) == "Your chance to win went from 22% to 31%"
    assert chance_words(0.22, 0.223, "Player B's") == "Player B's chance to win stayed at 22%"
