"""The League page and the bots of the Compare page, through AppTest against a small league (9 games
of three bots on three seats) and a run whose mixed bots keep their seats; the texts and tables of
imperial_lab.dashboard.ladder against imperial_lab.core.league.standings."""

from __future__ import annotations

import shutil

import pytest

from imperial_lab.core.bots import lineup_text
from imperial_lab.core.catalog import list_runs
from imperial_lab.dashboard.games.imperial2030 import queries as imperial_queries
from imperial_lab.core.league import league_name, standings
from imperial_lab.dashboard import ladder, queries, simulations
from imperial_lab.dashboard.frame import code_span
from tests.lab_fixtures import FIXED_BOTS, LEAGUE_BOTS, LEAGUE_GAMES, league_lab, spy_progress  # noqa: F401 (a fixture)
from tests.test_dashboard_app import setups, start, values  # noqa: F401 (a fixture)

LEAGUE_TEXT = "league of heuristic, heuristic:temperature=0, random"


@pytest.fixture
def on_league(league_lab, setups, monkeypatch):
    monkeypatch.setenv("IMPERIAL_LAB_CATALOG", str(league_lab.catalog))
    return league_lab


@pytest.fixture
def own_copy(league_lab, setups, tmp_path, monkeypatch):
    """The league lab's catalogue copied into tmp_path: runs played here go to tmp_path/runs."""
    catalog = tmp_path / "lab.duckdb"
    shutil.copy(league_lab.catalog, catalog)
    monkeypatch.setenv("IMPERIAL_LAB_CATALOG", str(catalog))
    return catalog


# ----- texts and tables -----

def test_lineup_text_names_a_leagues_entrants_not_one_rotation():
    assert lineup_text("random,random,random,random") == "random ×4"
    assert lineup_text("heuristic,random,random") == "heuristic,random,random"  # seats kept: per seat
    assert lineup_text("random,heuristic,heuristic:temperature=0", rotate=True) == \
        "league of random, heuristic, heuristic:temperature=0"
    assert lineup_text("heuristic,random,random,random", rotate=True) == "league of heuristic, random ×3"
    assert lineup_text("random,random", rotate=True) == "random ×2"
    assert lineup_text(None) == lineup_text(float("nan")) == "mixed"  # imported games


def test_runs_say_which_are_rotated_and_overview_shows_the_entrants(league_lab):
    league, fixed = league_lab.runs
    runs = queries.runs(league_lab.catalog).set_index("name")
    assert runs.loc[league, "rotate"] and not runs.loc[fixed, "rotate"]
    overview = imperial_queries.overview(league_lab.catalog, league_lab.runs).set_index("run")
    assert overview.loc[league, "bots"] == LEAGUE_TEXT
    assert overview.loc[fixed, "bots"] == ",".join(FIXED_BOTS)


def test_bot_and_seat_tables_hold_the_standings(league_lab):
    league = league_lab.runs[0]
    result = standings(league, league_lab.catalog)
    bots = ladder.bot_table(result)
    assert sorted(bots["bot"]) == sorted(LEAGUE_BOTS) and list(bots["games"]) == [LEAGUE_GAMES] * 3
    assert list(bots["ordinal"]) == sorted(bots["ordinal"], reverse=True)  # the ladder's order
    assert (bots["low"] <= bots["rate"]).all() and (bots["rate"] <= bots["high"]).all()
    assert list(bots["fair"]) == pytest.approx([1 / 3] * 3)  # one seat of three each
    seats = ladder.seat_table(result)
    assert list(seats["seat"]) == [0, 1, 2] and list(seats["games"]) == [LEAGUE_GAMES] * 3
    assert list(seats["wins"]) == [s["wins"] for s in result["seats"]]
    fixed = ladder.bot_table(standings(league_lab.runs[1], league_lab.catalog))
    assert list(fixed.set_index("bot")["fair"].sort_index()) == pytest.approx([1 / 3, 2 / 3])  # random has two seats


# ----- the League page -----

def test_league_page_shows_the_ladder_of_a_league(on_league):
    at = start("league.py")
    league = on_league.runs[0]
    assert at.selectbox(key="league_run").value == league  # the newest league, whatever the sidebar shows
    assert values(at.subheader) == ["Ladder", "Seat effect"]
    form, scope, seats = values(at.main.caption)
    assert scope.startswith(f"{LEAGUE_GAMES} finished games of 3 players, setup standard, seed 1; bots: {LEAGUE_TEXT}.")
    assert "Chi-square test of equal win shares" in seats
    assert not at.warning and not at.info
    ladder_table = at.dataframe[0].value
    expected = standings(league, on_league.catalog)["bots"]
    assert list(ladder_table["bot"]) == [b["bot"] for b in expected]
    assert list(ladder_table["wins"]) == [b["wins"] for b in expected]
    assert len(at.get("plotly_chart")) == 2  # win rate per bot, win rate by seat
    fixed = on_league.runs[1]
    at.selectbox(key="league_run").set_value(fixed).run()
    assert not at.exception
    assert values(at.warning) == ["This run kept each bot in its seat (it is not a rotated league), so a bot's win "
                                  "rate includes its seats' advantage: see the seat effect below."]


def test_league_page_on_a_run_of_one_bot_says_so(lab, setups, monkeypatch):
    monkeypatch.setenv("IMPERIAL_LAB_CATALOG", str(lab.catalog))
    at = start("league.py")
    assert at.selectbox(key="league_run").value == list_runs(lab.catalog)["name"][0]  # no league: the newest run
    assert "says nothing about bots" in at.info[0].value
    assert len(at.get("plotly_chart")) == 1  # the seat effect only
    assert not at.dataframe  # no ladder of one bot "winning" every game


def test_sidebar_names_the_entrants_of_a_league(on_league):
    at = start()
    league = on_league.runs[0]
    at.sidebar.selectbox(key="run").set_value(league).run()
    assert f"bots {LEAGUE_TEXT} ·" in at.sidebar.caption[0].value


def test_a_league_played_from_the_page_moves_its_bar_and_is_shown(own_copy, monkeypatch):
    progress = spy_progress(monkeypatch, simulations, "play_league")
    at = start("league.py")
    at.text_input(key="league_seat_0").input("random")
    at.text_input(key="league_seat_1").input("heuristic:temperature=0.50")  # spelled otherwise: one canonical text
    at.text_input(key="league_seat_2").input("")
    at.number_input(key="league_games").set_value(4)
    at.button[0].click().run()  # the form's submit button
    assert not at.exception and not at.error
    name = league_name(["random", "heuristic:temperature=0.5"], 4, 1, "standard")
    assert at.selectbox(key="league_run").value == name
    assert progress == [(k, 4) for k in range(1, 5)]  # one game a chunk: the bar moves every game
    assert (own_copy.parent / "runs" / name).is_dir()
    assert sorted(at.dataframe[0].value["bot"]) == ["heuristic:temperature=0.5", "random"]
    assert values(at.main.caption)[1].startswith("4 finished games of 2 players")


def test_a_bad_line_up_is_one_error_and_writes_nothing(own_copy):
    before = sorted(list_runs(own_copy)["name"])
    at = start("league.py")
    at.text_input(key="league_seat_0").input("heuristic:temp=1")
    at.text_input(key="league_seat_1").input("random:x=**2**")
    at.button[0].click().run()
    assert not at.exception
    assert len(at.error) == 1
    title, *messages = at.error[0].value.split("\n\n")
    assert title == "The league could not be played: the line-up is not valid."
    assert messages[0].startswith(code_span("Player A: 'heuristic:temp=1': unknown parameter 'temp' of bot heuristic")
                                  .removesuffix(" `"))
    assert messages[1] == code_span("Player B: 'random:x=**2**': unknown parameter 'x' of bot random (it takes none)")
    assert len(messages) == 2
    assert not (own_copy.parent / "runs").exists()
    assert sorted(list_runs(own_copy)["name"]) == before
    at.text_input(key="league_seat_0").input("")
    at.text_input(key="league_seat_1").input("")
    at.text_input(key="league_seat_2").input("random")
    at.button[0].click().run()
    assert values(at.error) == ["The league could not be played: the line-up is not valid.\n\n" + code_span(
        "a league needs 2..6 bots, one per seat; 1 seat is filled")]
    assert not (own_copy.parent / "runs").exists()
    at.text_input(key="league_seat_0").input("random")
    at.selectbox(key="league_setup").set_value("three_nations_each")  # a setup for 4 players, not 2
    at.button[0].click().run()
    assert len(at.error) == 1 and at.error[0].value.startswith("The league could not be played.\n\n")
    assert "is for 4 players, not 2" in at.error[0].value
    assert not (own_copy.parent / "runs").exists()
    assert sorted(list_runs(own_copy)["name"]) == before


# ----- the Compare page -----
