"""The dashboard's wiring through Streamlit's AppTest: the router and its run picker, the Power & control,
Compare and Setup editor pages against the small lab (the League page: tests/test_dashboard_league.py),
the first start on an empty catalogue, and the ``imperial dashboard`` command.

AppTest drives ``dashboard.app.run`` from a script of its own (STYLE (e)1): started from
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

from core import cli
from core.catalog import list_runs
from core.setups import SETUPS_DIR
from dashboard import simulations
from dashboard.app import PAGES_DIR
from dashboard.frame import code_span
from tests.lab_fixtures import APP_SECONDS, spy_progress


def _app():
    from dashboard.app import run

    run()


def start(page: str | None = None) -> AppTest:
    at = AppTest.from_function(_app, default_timeout=APP_SECONDS).run()
    assert not at.exception, at.exception
    if page is not None:
        at.switch_page(str(PAGES_DIR / page)).run()
        assert not at.exception, at.exception
    return at


@pytest.fixture
def setups(tmp_path, monkeypatch):
    """A setups folder of the test's own, holding a copy of even_spread."""
    folder = tmp_path / "setups"
    folder.mkdir()
    shutil.copy(SETUPS_DIR / "even_spread.json", folder)
    monkeypatch.setenv("IMPERIAL_LAB_SETUPS", str(folder))
    return folder


@pytest.fixture
def on_lab(lab, setups, monkeypatch):
    monkeypatch.setenv("IMPERIAL_LAB_CATALOG", str(lab.catalog))
    return lab


def values(elements) -> list:
    return [element.value for element in elements]


def test_the_router_shows_the_run_picker(on_lab):
    at = start()
    picker = at.sidebar.selectbox(key="run")
    assert sorted(picker.options) == sorted(on_lab.runs)
    assert picker.value == list_runs(on_lab.catalog)["name"].iloc[0]  # the newest run


def test_power_page_follows_the_game_and_the_run(on_lab):
    at = start("power.py")
    run = at.sidebar.selectbox(key="run").value
    assert values(at.subheader) == [f"Game 0 of {run}"]
    assert len(at.get("plotly_chart")) == 6 + 5  # one game: 6 charts; whole run: 5
    assert {m.label for m in at.metric} >= {"Winner", "Ended by", "Rounds", "Finished games", "Lead changes per game"}
    at.number_input(key=f"power_game:{run}").set_value(3).run()
    assert not at.exception and values(at.subheader) == [f"Game 3 of {run}"]
    other = next(name for name in on_lab.runs if name != run)
    at.sidebar.selectbox(key="run").set_value(other).run()
    assert not at.exception and values(at.subheader) == [f"Game 0 of {other}"]


def test_compare_page_compares_the_chosen_runs(on_lab):
    at = start("compare.py")
    chosen = at.multiselect(key="compare_runs")
    assert sorted(chosen.value) == sorted(on_lab.runs)
    assert list(at.dataframe[0].value["bots"]) == ["random ×4"] * 2  # the bots each finding holds for
    assert not at.warning  # the same bots: no warning that they differ
    assert values(at.subheader) == ["Summary", "Who wins", "Scores, margins, lengths and lead changes"]
    assert "Holm-adjusted" in at.caption[0].value
    assert len(at.get("plotly_chart")) == 2 + 4  # no chart per bot: each run has one bot
    chosen.set_value([on_lab.runs[0]]).run()
    assert not at.exception
    assert values(at.info) == ["Choose two or more runs to compare, or play a new comparison above."]
    assert not at.get("plotly_chart")


def test_setup_editor_checks_and_saves(on_lab, setups):
    at = start("setup_editor.py")
    assert values(at.error) == ["The distribution is not valid:\n\n"
                                + code_span("No bond is given to anybody, so no nation would have a government")]
    at.selectbox(key="setup_base").set_value("even_spread").run()
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
    """An empty catalogue: the default dataset is played once with progress; later starts are instant.
    A run played from the Compare page joins the runs compared at once."""
    catalog = tmp_path / "lab.duckdb"
    monkeypatch.setenv("IMPERIAL_LAB_CATALOG", str(catalog))
    monkeypatch.setenv("IMPERIAL_LAB_DEFAULT_GAMES", "2")
    progress = spy_progress(monkeypatch, simulations, "simulate_setups")
    at = start()
    bot = simulations.default_bot()
    expected = sorted(simulations.run_name(setup, bot, 2, 1) for setup in simulations.DEFAULT_SETUPS)
    assert sorted(list_runs(catalog)["name"]) == expected
    assert progress == [(2, 4), (4, 4)]
    assert sorted(at.sidebar.selectbox(key="run").options) == expected
    at.run()
    assert progress == [(2, 4), (4, 4)]  # nothing played again

    at.switch_page(str(PAGES_DIR / "compare.py")).run()
    at.multiselect(key="new_setups").set_value(["standard"])
    at.number_input(key="new_games").set_value(2)
    at.selectbox(key="new_bot").set_value("random")
    at.button[0].click().run()  # the form's submit button
    assert not at.exception
    assert at.multiselect(key="compare_runs").value == [*expected, "standard-random-2-s1"]  # joins the chosen runs
    assert progress[-1] == (2, 2)
    assert len(at.get("plotly_chart")) == 2 + 4


def test_the_terminal_plays_the_default_dataset_before_the_server_starts(tmp_path, monkeypatch, capsys):
    """``imperial dashboard`` prepares a fresh catalogue with a progress bar on stderr, counted in
    games from 0; a second start finds the runs and plays nothing."""
    catalog = tmp_path / "lab.duckdb"
    monkeypatch.setenv("IMPERIAL_LAB_DEFAULT_GAMES", "6")
    played = simulations.prepare_default_dataset(catalog)
    assert sorted(played) == sorted(simulations.default_run_names())
    assert sorted(list_runs(catalog)["name"]) == sorted(played) and set(list_runs(catalog)["status"]) == {"complete"}
    err = capsys.readouterr().err
    assert err.startswith(simulations.first_start_note(catalog))
    states = _bar_states(err)
    assert " 0/12 " in states[0] and " 12/12 " in states[-1]
    assert simulations.prepare_default_dataset(catalog) == []
    assert capsys.readouterr().err == ""


def _bar_states(err: str) -> list[str]:
    """The states a tqdm bar drew (it redraws over itself with carriage returns)."""
    return [state for state in re.split(r"[\r\n]", err) if state.startswith("Default dataset")]


def test_an_interrupted_first_start_is_resumed_but_own_runs_are_left_alone(monkeypatch):
    monkeypatch.setenv("IMPERIAL_LAB_DEFAULT_GAMES", "6")
    first, second = simulations.default_run_names()

    def catalogue(*rows):
        return pd.DataFrame(rows, columns=["name", "status"])

    assert simulations.needs_default_dataset(catalogue())
    assert simulations.needs_default_dataset(catalogue((first, "complete"), (second, "partial")))  # Ctrl-C
    assert simulations.needs_default_dataset(catalogue((first, "complete")))
    assert not simulations.needs_default_dataset(catalogue((first, "complete"), (second, "complete")))
    assert not simulations.needs_default_dataset(catalogue(("my_run", "partial")))


def test_two_plays_of_one_run_at_once_take_turns(tmp_path):
    """Streamlit starts a rerun (Enter in the form, then its button) while the previous run of the
    script still plays, and sessions share the process: both plays of one run must succeed."""
    catalog = tmp_path / "lab.duckdb"
    with ThreadPoolExecutor(2) as pool:
        played = list(pool.map(lambda _: simulations.simulate_setups(catalog, ["standard"], 4, "random"), range(2)))
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
    assert command[4] == str(PAGES_DIR.parent / "app.py")
    assert command[5:] == ["--server.headless", "true", "--browser.gatherUsageStats", "false", "--server.port", "8600"]
    assert env["IMPERIAL_LAB_CATALOG"] == str(tmp_path / "x.duckdb")
    assert cli.main(["play", "--server.port", "8600"]) == cli.ERROR_EXIT  # other commands take no extra options

