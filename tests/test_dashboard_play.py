"""The Play page (dashboard/games/imperial2030/views/play.py) through Streamlit's AppTest: a whole game with a person in one
seat clicked through to the end, the engine's reason for a refused action, undo, save and resume, a
reload that keeps the game (a new session with the same ``?game=`` address), the bots watched move
by move, the hint, and the page opening at once on a fresh lab (no first-start dataset).

AppTest drives ``imperial_lab.dashboard.app.run`` from a function, as tests/test_dashboard_app.py does."""

from __future__ import annotations

import shutil

import pytest
from streamlit.testing.v1 import AppTest

from imperial_lab.core.analysis import action_hint, bot_choice, chance_words
from imperial_lab.core.gamelog import replay
from imperial_lab.core.games.imperial2030.action_words import choice_words
from imperial_lab.dashboard.games.imperial2030 import playview
from imperial_lab.core.games.imperial2030.setups import SETUPS_DIR
from imperial_lab.dashboard import playkit
from imperial_lab.dashboard.pages import page_path
from tests.lab_fixtures import APP_SECONDS, component_svgs

# What the person prefers when it is offered (a short game: taxation brings power points); else choice 1.
PREFERRED = ("rondel taxation", "end maneuver", "import done", "build none", "pass")


def _app():
    from imperial_lab.dashboard.app import run

    run()


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A fresh lab: an empty catalogue (no runs) and a setups folder of its own."""
    monkeypatch.setenv("IMPERIAL_LAB_CATALOG", str(tmp_path / "lab.duckdb"))
    shutil.copytree(SETUPS_DIR, tmp_path / "setups")
    monkeypatch.setenv("IMPERIAL_LAB_SETUPS", str(tmp_path / "setups"))
    return tmp_path


def open_play(query: dict | None = None) -> AppTest:
    at = AppTest.from_function(_app, default_timeout=APP_SECONDS)
    at.query_params.update(query or {})
    at.switch_page(str(page_path("play.py"))).run()
    assert not at.exception, at.exception
    return at


def start(at: AppTest, players: int = 3, bots: str = "random", seed: int = 5, setup: str = "standard") -> AppTest:
    at.selectbox(key="play_setup").set_value(setup)
    at.run()
    if setup == "standard":
        at.selectbox(key="play_players").set_value(players)
    for p in range(1, players):
        at.selectbox(key=f"play_seat_{p}").set_value(bots)
    at.number_input(key="play_seed").set_value(seed)
    at.button(key="play_start").click().run()
    assert not at.exception, at.exception
    return at


def session(at: AppTest):
    return at.session_state["play_session"]


def choose(at: AppTest, number: int | None = None) -> AppTest:
    """Click a choice of the person as the page offers it: its button, or the list with a Play button."""
    s = session(at)
    if number is None:
        texts = {s.state.action_to_string(a): k for k, a in enumerate(s.legal(), 1)}
        number = next((texts[t] for t in PREFERRED if t in texts), 1)
    buttons = {b.key: b for b in at.button if b.key and b.key.startswith("play_choice_")}
    key = f"play_choice_{s.changes}_{number}"
    if key in buttons:
        buttons[key].click().run()
    else:
        group = next(g for g, (_, items) in enumerate(playview.grouped(playview.choices(s)))
                     if number in [c.number for c in items])
        at.selectbox(key=f"play_list_{s.changes}_{group}").set_value(number)
        at.button(key=f"FormSubmitter:play_form_{s.changes}_{group}-Play").click().run()
    assert not at.exception, at.exception
    return at


def texts(elements) -> str:
    return "\n".join(str(e.value) for e in elements)


def test_a_person_plays_a_whole_game_against_random_bots(home):
    at = start(open_play())
    game_id = at.query_params["game"]
    assert playkit.valid_id(game_id) and at.session_state["play_game_id"] == game_id
    s = session(at)
    assert s.seats == [None, "random", "random"] and s.waiting_for() == 0
    page = texts(at.markdown)
    assert "**Player A: " in page and "[§6 The rondel](/rules?section=6)" in page  # the decision, with its rule
    assert "**Rondel: where the nation goes ([§6](/rules?section=6))**" in page and "**What happened**" in page
    assert "first placement, free · builds a factory, 5m ([§7.1](/rules?section=7.1))" in texts(at.caption)
    assert not at.get("plotly_chart")  # the board and the rondel are SVG, the bonds a table
    board, rondel = component_svgs(at)
    assert "imperial-board" in board and 'data-click="region:' in board  # clickable
    assert rondel.count('class="space"') == 8 and rondel.count('stroke="#1a9850"') == 8  # a first placement: any space
    assert "bonds-table" in texts(at.markdown)
    clicks = 0
    while not session(at).is_over():
        assert session(at).waiting_for() == 0  # the bots replied at once
        choose(at)
        clicks += 1
        assert clicks < 2000
    final = texts(at.success)
    assert "The game is over:" in final and " won." in final and "Scores (§10)" in final
    s = session(at)
    assert s.state.is_terminal() and s.state.winners()
    saved = (home / "play" / f"{game_id}.jsonl").read_text()
    assert saved == s.to_log() and replay(saved.splitlines()).is_terminal()


def test_why_not_lists_the_decisions_actions_and_names_the_rule_in_words(home):
    at = start(open_play(), bots="heuristic")
    for _ in range(40):  # on to a rondel choice of a nation already on the rondel: some spaces are refused
        s = session(at)
        if s.state.decision_name() == "turn_start" and s.state.to_json()["nations"][s.state.to_json()["turn"]["nation"]]["rondel"]:
            break
        choose(at)
    s = session(at)
    legal = [s.state.action_to_string(a) for a in s.legal()]
    why = at.selectbox(key=f"play_why_{s.changes}")
    assert why.options[:len(legal)] == [f"✓ {choice_words(text)}" for text in legal]  # in words, never notation
    refused = next(text for text in s.why_options() if text not in legal)
    assert f"✗ {choice_words(refused)}" in why.options
    why.set_value(refused).run()
    warning = texts(at.warning)
    assert f"**{choice_words(refused)}**: Not allowed: " in warning and "(/rules?section=6)" in warning  # §6, linked
    assert "The rondel" in warning  # the rule's name in words
    assert "RULES.md" not in warning and "pending decision" not in warning
    at.selectbox(key=f"play_why_{s.changes}").set_value(legal[0]).run()
    assert f"**{choice_words(legal[0])}** is allowed here: choice 1." in texts(at.success)


def test_games_in_progress_are_listed_to_go_on_with(home):
    at = start(open_play(), bots="heuristic", seed=3)
    choose(at)
    game_id = at.query_params["game"]
    other = open_play()  # another browser, a plain address
    assert "Your games in progress (1)" in [e.label for e in other.expander]
    listed = texts(other.markdown)
    assert "3 players, Player A played by a person" in listed and "Player A to decide" in listed
    other.button(key=f"play_resume_{game_id}").click().run()
    assert not other.exception, other.exception
    assert other.query_params["game"] == game_id and session(other).actions == session(at).actions


def test_undo_goes_back_to_the_persons_decision(home):
    at = start(open_play(), bots="heuristic")
    assert at.button(key="play_undo").disabled
    while True:  # the first choices until the bots reply to one
        s = session(at)
        before, lines, text = len(s.actions), s.decision_lines(), s.state.action_to_string(s.legal()[0])
        choose(at, 1)
        if len(session(at).actions) > before + 1:
            break
    at.button(key="play_undo").click().run()
    assert not at.exception
    assert len(session(at).actions) == before and session(at).decision_lines() == lines
    assert f"Undone: Player A's decision “{choice_words(text)}” (`{text}`) and the " in texts(at.info)
    choose(at, 1)
    again = list(session(at).actions)
    at.button(key="play_undo").click().run()
    choose(at, 1)
    assert session(at).actions == again  # the same choice plays the same replies


def test_save_then_resume_continues_the_game(home):
    at = start(open_play(), bots="heuristic", seed=7)
    for _ in range(5):
        choose(at)
    assert at.download_button(key="play_save").label == "Save"
    log = session(at).to_log()
    game_id = at.query_params["game"]
    assert (home / "play" / f"{game_id}.jsonl").read_text() == log
    other = open_play()
    other.file_uploader(key="play_upload").set_value(("my game.jsonl", log.encode(), "application/jsonl")).run()
    assert not other.exception, other.exception
    resumed = session(other)
    assert resumed.actions == session(at).actions and resumed.seats == session(at).seats and resumed.seed == 7
    assert other.query_params["game"] != game_id  # a game of its own
    assert "Resumed my game.jsonl after " in texts(other.success)
    choose(at)
    choose(other)
    assert session(other).actions == session(at).actions  # it goes on as the original


def test_a_bad_log_is_refused_with_its_line(home):
    at = open_play()
    bad = '{"game": "imperial2030", "format": 1, "config": {"players": 3}}\n{"player": 0, "action": "rondel x"}\n'
    at.file_uploader(key="play_upload").set_value(("bad.jsonl", bad.encode(), "application/jsonl")).run()
    assert not at.exception
    assert "cannot be resumed" in texts(at.error) and "bad.jsonl:2:" in texts(at.error)
    assert "play_session" not in at.session_state


def test_a_reload_keeps_the_game(home):
    at = start(open_play(), bots="heuristic", seed=3)
    for _ in range(4):
        choose(at)
    game_id = at.query_params["game"]
    reloaded = open_play({"game": game_id})  # a new browser session at the same address
    assert session(reloaded).actions == session(at).actions
    assert session(reloaded).decision_lines() == session(at).decision_lines()
    assert texts(reloaded.markdown).count("**What happened**") == 1
    choose(at)
    choose(reloaded)
    assert session(reloaded).actions == session(at).actions
    unknown = open_play({"game": "0000000000"})
    assert "There is no game" in texts(unknown.warning) and "game" not in unknown.query_params


def test_watching_the_bots_move_by_move(home):
    at = open_play()
    at.session_state["play_watch"] = True  # the toggle above the game, before the game starts
    start(at, players=4, bots="heuristic", seed=2)
    s = session(at)
    assert s.actions == [] and "Next to move: Chance" in texts(at.markdown)  # the deal is a move too
    at.button(key="play_next").click().run()
    assert len(session(at).actions) == 1
    assert "The flag cards are dealt" in texts(at.markdown)
    at.button(key="play_skip").click().run()
    assert session(at).waiting_for() == 0
    choose(at)
    if session(at).waiting_for() is None:
        n = len(session(at).actions)
        at.button(key="play_next").click().run()
        assert len(session(at).actions) == n + 1


def test_the_hint_shows_the_rollout_bots_choice_and_estimates(home):
    at = start(open_play(), bots="heuristic")
    at.select_slider(key="play_hint_playouts").set_value(20)
    at.button(key="play_hint_ask").click().run()
    assert not at.exception, at.exception
    shown = texts(at.markdown)
    hint = session(at).hint(20)
    assert hint.bot == "rollout" and "on to the end of the game" in hint.search_words
    assert "The rollout bot would choose" in shown and hint.search_words in shown
    words = action_hint(session(at).state, hint.stats[0].action, session(at).seed)["words"]  # "...: your chance rises from 22% to 31%"
    assert f"By the learned evaluator: {playkit.md(words)}." in shown and "your chance" in words
    table = at.dataframe[0].value
    assert list(table.columns) == ["choice", "action", "visits", "win chance"]  # no column of notation
    assert table["visits"].is_monotonic_decreasing and len(table) == 5
    assert "the win chance it estimates for Player A" in texts(at.caption)


def test_hot_seat_and_a_setup_file(home):
    at = open_play()
    at.selectbox(key="play_setup").set_value("three_nations_each").run()
    assert "**4** (the setup's)" in texts(at.markdown)
    at.selectbox(key="play_seat_2").set_value(playkit.PERSON)
    at.selectbox(key="play_seat_1").set_value("mcts")
    at.selectbox(key="play_seat_3").set_value("rollout")  # the strongest bot, offered too
    at.select_slider(key="play_strength").set_value(50)
    at.button(key="play_start").click().run()
    assert not at.exception, at.exception
    s = session(at)
    assert s.seats == [None, "mcts:playouts=50", None, "rollout"] and s.config["setup"] == "custom"
    assert s.waiting_for() in (0, 2)


def test_the_play_page_needs_no_dataset_and_refuses_a_game_without_people(home):
    at = open_play()
    assert not (home / "runs").exists()  # a fresh lab: the first start's dataset is not played for Play
    assert at.title[0].value == "Play"
    for p in range(4):
        at.selectbox(key=f"play_seat_{p}").set_value("random")
    at.run()
    assert at.button(key="play_start").disabled and "Choose at least one seat for a person" in texts(at.caption)


def test_people_take_over_seats_of_a_resumed_log(home):
    from imperial_lab.core.interface import make_game
    from imperial_lab.core.session import PlaySession

    bots_only = PlaySession(make_game({"players": 3}).config, ["random"] * 3, seed=4)
    for _ in range(30):
        bots_only.step()
    at = open_play()
    at.multiselect(key="play_resume_people").set_value([1])
    at.file_uploader(key="play_upload").set_value(("bots.jsonl", bots_only.to_log().encode(), "application/jsonl"))
    at.run()
    assert not at.exception, at.exception
    s = session(at)
    assert s.seats == ["random", None, "random"] and s.actions[:30] == bots_only.actions
    assert s.waiting_for() == 1  # the bots played on up to the person's decision


def test_a_reload_keeps_watching_the_bots(home):
    at = open_play()
    at.session_state["play_watch"] = True
    start(at, bots="heuristic")
    assert at.query_params["watch"] == "1"
    reloaded = open_play({"game": at.query_params["game"], "watch": "1"})
    assert reloaded.toggle(key="play_watch").value and session(reloaded).actions == session(at).actions
    reloaded.toggle(key="play_watch").set_value(False).run()
    assert "watch" not in reloaded.query_params


def test_after_a_decision_the_page_says_how_it_changed_the_persons_chance_to_win(home):
    at = start(open_play(), bots="heuristic")
    assert "chance to win" not in texts(at.info)  # no decision yet
    s = session(at)
    text = s.state.action_to_string(s.legal()[0])
    choose(at, 1)
    s = session(at)
    change = s.decision_chance()
    assert change.player == 0 and change.text == text and 0 < change.before < 1 and 0 < change.after < 1
    assert f"**{playkit.md(choice_words(text))}**: {chance_words(change.before, change.after)}." in texts(at.info)
    # judged from the position the decision was made in: what the bots played after it changes nothing
    last = s.last_human_index()
    state = s.game.new_initial_state()
    for _, action in s.actions[:last]:
        state.apply_action(action)
    hint = action_hint(state, s.actions[last][1], seed=s.seed)
    assert (change.before, change.after) == (pytest.approx(hint["before"]), pytest.approx(hint["after"]))
    # and what the win-chance bot would have played there, judged the same way
    bot_action, bot_after = bot_choice(state, seed=s.seed)
    assert (change.bot_text, change.bot_after) == (state.action_to_string(bot_action), pytest.approx(bot_after))
    said = texts(at.info)
    assert "The win-chance bot would have chosen" in said
    assert ("would have chosen the same" in said) == (change.bot_text == text)
