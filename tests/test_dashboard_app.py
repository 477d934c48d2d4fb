"""The dashboard's wiring through Streamlit's AppTest: the router and its run picker, the Power & control
and Setup editor pages against the small lab (the League page: tests/test_dashboard_league.py),
the first start on an empty catalogue, and the ``imperial dashboard`` command.

The Compare page's own tests are in tests/test_compare_page.py.

AppTest drives ``imperial_lab.dashboard.app.run`` from a script of its own (STYLE (e)1): started from
dashboard/app.py itself, AppTest would take the folder pages/ beside it for an old-style multipage
app and rerun a page without the router.
"""

from __future__ import annotations

import re
import shutil
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from imperial_lab.core import cli
from imperial_lab.core.catalog import list_runs
from imperial_lab.core.games.imperial2030.setups import SETUPS_DIR
from imperial_lab.dashboard import app, simulations
from imperial_lab.dashboard.frame import code_span
from imperial_lab.dashboard.pages import page_path
from tests.lab_fixtures import APP_SECONDS, league_lab, open_page, spy_progress  # noqa: F401 (a fixture)

COMPARE_CHARTS = 1  # the ladder; the others are drawn when their expanders open (tests/test_compare_page.py)
COMPARE_OPENED = 1 + 3 + 1  # starting governments; three per-game figures, seat scores


def _app():
    from imperial_lab.dashboard.app import run

    run()


def start(page: str | None = None) -> AppTest:
    at = AppTest.from_function(_app, default_timeout=APP_SECONDS).run()
    assert not at.exception, at.exception
    if page is not None:
        at.switch_page(str(page_path(page))).run()
        assert not at.exception, at.exception
    return at


@pytest.fixture
def setups(tmp_path, monkeypatch):
    """A setups folder of the test's own, holding a copy of three_nations_each."""
    folder = tmp_path / "setups"
    folder.mkdir()
    shutil.copy(SETUPS_DIR / "three_nations_each.json", folder)
    monkeypatch.setenv("IMPERIAL_LAB_SETUPS", str(folder))
    return folder


@pytest.fixture
def on_lab(lab, setups, monkeypatch):
    monkeypatch.setenv("IMPERIAL_LAB_CATALOG", str(lab.catalog))
    return lab


def values(elements) -> list:
    return [element.value for element in elements]


def _keep_the_run_without_its_widget():
    import streamlit as st

    from imperial_lab.dashboard import frame

    st.session_state["kept run"] = "small_standard"
    frame._keep_run("kept run")
    st.write(st.session_state["kept run"])


def test_the_kept_run_stays_when_the_run_pickers_value_is_gone():
    """After the app menu's Clear cache, going to another page called the run picker's callback with
    its value already dropped: a KeyError instead of the page. The kept run now stays as it was."""
    at = AppTest.from_function(_keep_the_run_without_its_widget, default_timeout=APP_SECONDS).run()
    assert not at.exception and at.markdown[0].value == "small_standard"


def test_the_router_shows_the_run_picker(on_lab):
    at = start()
    picker = at.sidebar.selectbox(key="run")
    assert sorted(picker.options) == sorted(on_lab.runs)
    assert picker.value == list_runs(on_lab.catalog)["name"].iloc[0]  # the newest run


def test_power_page_follows_the_game_and_the_run(on_lab):
    at = start("power.py")
    run = at.sidebar.selectbox(key="run").value
    assert values(at.subheader) == [f"Game 0 of {run}"]
    assert len(at.get("plotly_chart")) == 6  # one game only: the whole run's charts wait for their part
    assert {m.label for m in at.metric} >= {"Winner", "Ended by", "Rounds"}
    at.get("button_group")[0].set_value("Whole run").run()
    assert len(at.get("plotly_chart")) == 5 and {m.label for m in at.metric} >= {"Finished games",
                                                                                  "Lead changes per game"}
    at.get("button_group")[0].set_value("One game").run()
    at.selectbox(key=f"explorer_game_of_{run}").set_value(3).run()  # the open game's chooser (imperial_lab.dashboard.games.imperial2030.open_game)
    assert not at.exception and values(at.subheader) == [f"Game 3 of {run}"]
    other = next(name for name in on_lab.runs if name != run)
    at.sidebar.selectbox(key="run").set_value(other).run()
    assert not at.exception and values(at.subheader) == [f"Game 0 of {other}"]


def test_setup_editor_checks_and_saves(on_lab, setups):
    at = start("setup_editor.py")
    assert values(at.error) == ["The distribution is not valid:\n\n"
                                + code_span("No bond is given to anybody, so no nation would have a government")]
    at.selectbox(key="setup_base").set_value("three_nations_each").run()
    assert not at.exception and not at.error
    assert values(at.success) == ["The distribution is valid."]
    assert at.button[0].disabled  # no name yet
    at.text_input[0].input("spread_copy").run()
    at.button[0].click().run()
    assert not at.exception
    saved = setups / "spread_copy.json"
    assert saved.is_file() and f"Saved {saved}" in at.success[-1].value
    at.run().selectbox(key="setup_base").set_value("spread_copy").run()  # listed from the next run on
    assert at.text_input[0].input("spread_copy").run().button[0].disabled  # exists: the box must be ticked


def test_a_setup_file_that_does_not_load_is_reported(on_lab, setups):
    (setups / "broken.json").write_text('{"description": "edited by hand", "players": []}', encoding="utf-8")
    at = start("setup_editor.py")
    at.selectbox(key="setup_base").set_value("broken").run()
    assert not at.exception
    title, message, *_ = at.error[0].value.split("\n\n")
    assert title == f"{code_span('broken')} cannot be loaded; starting from an empty table."
    assert message == code_span(f"{setups / 'broken.json'}: players: must list 2..6 players")


def test_first_start_plays_the_default_dataset_then_compares(tmp_path, setups, monkeypatch):
    """An empty catalogue: the default dataset of every game (heuristic and random bots under each of
    its default setups) is played once with progress; later starts are instant, the sidebar offers a
    page only its game's runs, every game's runs page has a run to show, and the Compare page opens on
    its grid. A grid played from the Compare page's form is compared at once."""
    catalog = tmp_path / "lab.duckdb"
    monkeypatch.setenv("IMPERIAL_LAB_CATALOG", str(catalog))
    monkeypatch.setenv("IMPERIAL_LAB_DEFAULT_GAMES", "1")
    progress = spy_progress(monkeypatch, simulations, "play_default_dataset")
    grids = spy_progress(monkeypatch, simulations, "simulate_grid")
    at = start()
    bot = simulations.default_bot()
    expected = [simulations.run_name(setup, lineup, 1, 1) for lineup in (bot, "random")
                for setup in simulations.dataset_setups()]
    assert simulations.default_run_names() == expected
    others = ["imperia-heuristic-1-s1", "imperia-random-1-s1", "imperial_powers-heuristic-1-s1",
              "imperial_powers-random-1-s1"]
    assert simulations.all_default_run_names() == expected + others
    assert sorted(list_runs(catalog)["name"]) == sorted(expected + others)
    assert progress == [(k, 8) for k in range(1, 9)]  # 4 games of Imperial 2030, 2 of each other game
    assert sorted(at.sidebar.selectbox(key="run").options) == sorted(expected)  # this page's game's runs only
    at.run()
    assert progress == [(k, 8) for k in range(1, 9)]  # nothing played again
    for url, run in (("imperia_runs", "imperia-heuristic-1-s1"), ("ip_runs", "imperial_powers-heuristic-1-s1")):
        runs_page = open_page(url)
        assert runs_page.sidebar.selectbox(key="run").value == run
        assert not [i.value for i in runs_page.info if "has no" in i.value]  # "the catalogue has no ... run"
        assert runs_page.get("plotly_chart")

    at.switch_page(str(page_path("compare.py"))).run()
    assert at.multiselect(key="compare_runs").value == expected  # the first start's grid
    assert sorted(set(at.dataframe[0].value["lineup"])) == ["heuristic t=0.3", "random"]  # rungs of the ladder
    at.multiselect(key="new_setups").set_value(["standard"])
    at.multiselect(key="new_lineups").set_value(["heuristic t=0.3", "random"])
    at.number_input(key="new_games").set_value(3)
    at.button[0].click().run()  # the form's submit button
    assert not at.exception
    played = [f"standard-{bot}-3-s1", "standard-random-3-s1"]
    assert at.multiselect(key="compare_runs").value == played  # two runs or more: a comparison of their own
    assert grids[-1] == (6, 6)
    assert len(at.get("plotly_chart")) == COMPARE_CHARTS


def test_the_terminal_plays_the_default_dataset_before_the_server_starts(tmp_path, monkeypatch, capsys):
    """``imperial dashboard`` prepares a fresh catalogue with a progress bar on stderr, counted in
    games from 0; a second start finds the runs and plays nothing."""
    catalog = tmp_path / "lab.duckdb"
    monkeypatch.setenv("IMPERIAL_LAB_DEFAULT_GAMES", "1")
    played = simulations.prepare_default_dataset(catalog)
    assert sorted(played) == sorted(simulations.all_default_run_names())
    assert sorted(list_runs(catalog)["name"]) == sorted(played) and set(list_runs(catalog)["status"]) == {"complete"}
    err = capsys.readouterr().err
    assert err.startswith(simulations.first_start_note(catalog))
    states = _bar_states(err)
    # a game × 2 line-ups of Imperial 2030's 2 setups, of Imperia's and of Imperial Powers' default
    assert " 0/8 " in states[0] and " 8/8 " in states[-1]
    assert simulations.prepare_default_dataset(catalog) == []
    assert capsys.readouterr().err == ""


def _bar_states(err: str) -> list[str]:
    """The states a tqdm bar drew (it redraws over itself with carriage returns)."""
    return [state for state in re.split(r"[\r\n]", err) if state.startswith("Default dataset")]


def test_an_interrupted_first_start_is_resumed_but_own_runs_are_left_alone(monkeypatch):
    monkeypatch.setenv("IMPERIAL_LAB_DEFAULT_GAMES", "6")
    names = simulations.all_default_run_names()
    assert len(simulations.default_run_names()) == len(simulations.dataset_setups()) * 2  # heuristic, random
    first, *others, last = names

    def catalogue(*rows):
        return pd.DataFrame(rows, columns=["name", "status"])

    assert simulations.needs_default_dataset(catalogue())
    assert simulations.needs_default_dataset(catalogue(*((name, "complete") for name in [first, *others]),
                                                       (last, "partial")))  # Ctrl-C
    assert simulations.needs_default_dataset(catalogue((first, "complete")))
    assert not simulations.needs_default_dataset(catalogue(*((name, "complete") for name in names)))
    assert not simulations.needs_default_dataset(catalogue(("my_run", "partial")))


def test_two_plays_of_one_run_at_once_take_turns(tmp_path):
    """Streamlit starts a rerun (Enter in the form, then its button) while the previous run of the
    script still plays, and sessions share the process: both plays of one run must succeed."""
    catalog = tmp_path / "lab.duckdb"
    with ThreadPoolExecutor(2) as pool:
        played = list(pool.map(lambda _: simulations.simulate_grid(catalog, ["standard"], ["random"], 4), range(2)))
    assert played == [["standard-random-4-s1"]] * 2
    assert list(list_runs(catalog)["games"]) == [4]


def test_dashboard_command_prepares_the_catalogue_then_runs_streamlit_headless(monkeypatch, tmp_path):
    calls = []
    monkeypatch.setattr(simulations, "prepare_default_dataset", lambda catalog: calls.append(catalog))
    monkeypatch.setattr(cli.subprocess, "call", lambda command, env: calls.append((command, env)) or 0)
    assert cli.main(["dashboard", "--catalog", str(tmp_path / "x.duckdb"), "--server.port", "8600"]) == 0
    catalog, (command, env) = calls
    assert Path(catalog) == (tmp_path / "x.duckdb").resolve()
    assert command[:4] == [sys.executable, "-m", "streamlit", "run"]
    assert command[4] == str(Path(app.__file__))
    assert command[5:] == ["--server.headless", "true", "--browser.gatherUsageStats", "false", "--server.port", "8600"]
    assert env["IMPERIAL_LAB_CATALOG"] == str(tmp_path / "x.duckdb")
    assert cli.main(["play", "--server.port", "8600"]) == cli.ERROR_EXIT  # other commands take no extra options



def test_a_league_played_later_is_never_chosen_unasked_for_the_explorer(tmp_path, monkeypatch):
    """A plain run, then a league (the newest run): the explorer and Power & control show the plain run
    until the sidebar picks the league; the League page shows the league."""
    catalog = tmp_path / "lab.duckdb"
    monkeypatch.setenv("IMPERIAL_LAB_CATALOG", str(catalog))
    plain = simulations.simulate_grid(catalog, ["standard"], ["random"], 2)[0]
    league = simulations.play_league(catalog, ["random", "random", "heuristic"], 3)
    assert list(list_runs(catalog)["name"])[0] == league  # the newest
    at = start()
    assert at.sidebar.selectbox(key="run").value == plain
    at.switch_page(str(page_path("power.py"))).run()
    assert at.sidebar.selectbox(key="run").value == plain
    at.switch_page(str(page_path("league.py"))).run()
    assert at.selectbox(key="league_run").value == league
