"""The pages that share the open game (imperial_lab.dashboard.games.imperial2030.open_game) through AppTest: a game chosen in the Game
explorer is the one Power & control shows, and back; an uploaded log shows on both; a link
``?run=NAME&game=ID`` to the explorer opens its game, and a link to no game says so in one line."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from streamlit.testing.v1 import AppTest

from imperial_lab.core.catalog import list_runs
from imperial_lab.dashboard.games.imperial2030 import queries
from imperial_lab.dashboard.games.imperial2030 import open_game
from imperial_lab.dashboard.games.imperial2030.explorer_queries import game_log
from imperial_lab.dashboard.pages import page_path
from tests.lab_fixtures import APP_SECONDS


def _app():
    from imperial_lab.dashboard.app import run

    run()


@pytest.fixture
def on_lab(lab, monkeypatch):
    monkeypatch.setenv("IMPERIAL_LAB_CATALOG", str(lab.catalog))
    return lab


def start(**params) -> AppTest:
    """The dashboard on its first page (the explorer), opened at an address with ``params``."""
    at = AppTest.from_function(_app, default_timeout=APP_SECONDS)
    at.query_params.update(params)
    at.run()
    assert not at.exception, at.exception
    return at


def go(at: AppTest, page: str) -> AppTest:
    at.switch_page(str(page_path(page))).run()
    assert not at.exception, at.exception
    return at


def newest(lab) -> str:
    return list_runs(lab.catalog)["name"].iloc[0]


def game_picker(at: AppTest, run: str):
    return at.selectbox(key=f"explorer_game_of_{run}")


def power_heading(at: AppTest) -> str:
    return at.subheader[0].value


def metric(at: AppTest, label: str):
    return next(m.value for m in at.metric if m.label == label)


def test_a_game_chosen_in_the_explorer_is_the_one_power_shows_and_back(on_lab):
    at = start()
    run = newest(on_lab)
    game_picker(at, run).set_value(3).run()
    at.button(key="explorer_next").click().run()
    assert at.subheader[0].value.startswith("Turn 1 ·")
    assert "Power & control of this game" in [link.label for link in at.get("page_link")]
    go(at, "power.py")
    assert power_heading(at) == f"Game 3 of {run}" and game_picker(at, run).value == 3
    row = queries.game_summary(on_lab.catalog, run, 3).iloc[0]
    assert metric(at, "Nation turns") == str(row["nation_turns"]) and metric(at, "Rounds") == str(row["rounds"])
    assert "Open in the explorer" in [link.label for link in at.get("page_link")]
    game_picker(at, run).set_value(5).run()  # chosen here: the explorer's game too
    assert power_heading(at) == f"Game 5 of {run}"
    go(at, "explorer.py")
    assert game_picker(at, run).value == 5 and at.subheader[0].value == "Setup"
    go(at, "power.py")
    go(at, "explorer.py")  # the same game again: the explorer keeps its turn
    at.button(key="explorer_next").click().run()
    go(at, "power.py")
    go(at, "explorer.py")
    assert at.subheader[0].value.startswith("Turn 1 ·")


def test_an_uploaded_log_shows_on_power_and_stays_open(on_lab):
    run = newest(on_lab)
    log = game_log(on_lab.catalog, run, 2)
    at = start()
    at.radio(key="explorer_source").set_value(open_game.UPLOAD).run()
    at.file_uploader(key="explorer_upload").upload("mine.jsonl", log.encode()).run()
    assert not at.exception and at.subheader[0].value == "Setup"
    go(at, "power.py")
    assert at.radio(key="explorer_source").value == open_game.UPLOAD
    assert power_heading(at) == "Move log ` mine.jsonl `"
    assert len(at.get("plotly_chart")) == 6  # the game's six charts, as for a catalogue game
    catalogued = queries.game_summary(on_lab.catalog, run, 2).iloc[0]
    for label, column in (("Rounds", "rounds"), ("Nation turns", "nation_turns")):
        assert metric(at, label) == str(catalogued[column])
    assert any("Open: ` mine.jsonl `" in c.value for c in at.caption)  # the uploader is empty here, the log open
    go(at, "explorer.py")
    assert not at.exception and at.subheader[0].value == "Setup"


def test_a_log_that_stops_on_a_bad_line_shows_up_to_it(on_lab):
    """Set in the session as the uploader leaves it, a log whose sixth line is refused: the explorer
    shows the error and the game before it, Power & control the same game, unfinished."""
    lines = game_log(on_lab.catalog, newest(on_lab), 0).splitlines()
    text = "\n".join(lines[:5] + ['{"player": 0, "action": "rondel beach"}'] + lines[6:])
    at = AppTest.from_function(_app, default_timeout=APP_SECONDS)
    at.session_state[open_game.KEPT + open_game.SOURCE_KEY] = open_game.UPLOAD
    at.session_state[open_game.UPLOADED_KEY] = open_game.Upload("bad.jsonl", "d1", text)
    at.run()
    assert not at.exception and "line 6" in at.error[0].value and at.subheader[0].value == "Setup"
    go(at, "power.py")
    assert power_heading(at) == "Move log ` bad.jsonl `"
    assert "This game is unfinished" in at.warning[0].value and "bad.jsonl:6" in at.warning[0].value
    assert len(at.get("plotly_chart")) == 6


def test_a_link_opens_its_game_and_selects_its_run(on_lab):
    other = next(run for run in on_lab.runs if run != newest(on_lab))
    link = open_game.game_link(other, 4)
    assert link == f"./?run={other}&game=4"  # the explorer is the first page: served at the app's root
    params = {key: values[0] for key, values in parse_qs(urlsplit(link).query).items()}
    at = start(**params)
    assert at.sidebar.selectbox(key="run").value == other
    assert game_picker(at, other).value == 4 and at.subheader[0].value == "Setup"
    assert not at.query_params  # followed once: the choices made next stand
    at.sidebar.selectbox(key="run").set_value(newest(on_lab)).run()
    assert game_picker(at, newest(on_lab)).value == 0
    go(at, "power.py")
    assert power_heading(at) == f"Game 0 of {newest(on_lab)}"


@pytest.mark.parametrize("params, says", [({"run": "nowhere", "game": "1"}, "has no run ` nowhere `"),
                                          ({"run": "small_even", "game": "99"}, "has no game ` 99 `"),
                                          ({"run": "small_even", "game": "x"}, "has no game ` x `")])
def test_a_link_to_no_game_says_so_in_one_line(on_lab, params, says):
    at = start(**params)
    assert [e.value.startswith("This link opens no game") and says in e.value for e in at.error] == [True]
    assert at.subheader[0].value == "Setup"  # and the explorer goes on with the sidebar's run
    at.run()
    assert not at.error


def test_the_power_page_lists_the_runs_games_with_their_links(on_lab):
    at = go(start(), "power.py")
    at.get("button_group")[0].set_value("Whole run").run()
    run = newest(on_lab)
    table = next(frame.value for frame in at.dataframe if "open" in frame.value.columns)
    assert list(table["open"]) == [open_game.game_link(run, game_id) for game_id in table["game_id"]]
    assert len(table) == 12 and "Player" in table["winners"].iloc[0]


def test_the_queries_of_one_game_answer_for_tables_in_memory(on_lab):
    """An upload's tables, recorded in memory, answer the one-game queries as the catalogue does."""
    run = newest(on_lab)
    tables = open_game._uploaded_tables("d2", game_log(on_lab.catalog, run, 1), "one.jsonl")
    for query in (queries.nation_race, queries.player_series, queries.control_segments, queries.bond_ownership):
        memory, catalogue = query(tables, "one.jsonl", 0), query(on_lab.catalog, run, 1)
        assert memory.astype(str).values.tolist() == catalogue.astype(str).values.tolist(), query.__name__


def test_a_log_with_a_bad_header_shows_its_error_on_both_pages(on_lab):
    at = AppTest.from_function(_app, default_timeout=APP_SECONDS)
    at.session_state[open_game.KEPT + open_game.SOURCE_KEY] = open_game.UPLOAD
    at.session_state[open_game.UPLOADED_KEY] = open_game.Upload("head.jsonl", "d3", '{"game": "chess"}\n')
    at.run()
    assert not at.exception and "` head.jsonl `, line 1" in at.error[0].value and not at.subheader
    go(at, "power.py")
    assert "` head.jsonl `, line 1" in at.error[0].value and not at.subheader
    assert not at.get("plotly_chart")  # none of the game's charts (the run's wait for their part)
