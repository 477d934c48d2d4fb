"""The Imperial Powers runs page (dashboard/games/imperial_powers/views/runs.py) and its
questions (runs_queries.py, RULES.md §8): on a small 5-player run with random power assignment,
played into a catalogue of its own, every figure equals a count made here in plain Python from the
rows of the tables; the page renders them through AppTest, says which bots played, adjusts its
tests together, and without a run says how to play one."""

from __future__ import annotations

import json
from collections import defaultdict

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from imperial_lab.core.catalog import query
from imperial_lab.dashboard.games.imperial_powers import runs_queries as q
from imperial_lab.core.simulate import simulate
from imperial_lab.core.stats import even_shares, holm, mean_ci, wilson
from tests import lab_fixtures

RUN, PLAYERS, GAMES = "ip-runs", 5, 16


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    root = tmp_path_factory.mktemp("ip-runs")
    catalog = root / "lab.duckdb"
    setup = root / "random5.json"
    setup.write_text(json.dumps({"game": "imperial_powers", "players": PLAYERS, "power_assignment": "random"}))
    simulate(root / "runs" / RUN, games=GAMES, players=PLAYERS, setup=str(setup), bots=["random"] * PLAYERS, seed=5,
             workers=1, chunk_size=8, catalog=catalog, progress=False)
    games = query("SELECT * FROM ip_games WHERE run = ? ORDER BY game_id", catalog, [RUN])
    return catalog, [row._asdict() for row in games.itertuples(index=False)]


def seats(games):
    """(game, seat, seat from the first instigator, power, won, alone, VP, VP above the game's mean)."""
    for g in games:
        scores = list(g["scores"])
        for seat in range(g["players"]):
            won = seat in list(g["winners"])
            yield (g, seat, (seat - g["first_instigator"]) % g["players"], g["powers"][seat], won,
                   won and len(g["winners"]) == 1, scores[seat], scores[seat] - np.mean(scores))


def check(table, key: str, index: int, games):
    groups = defaultdict(list)
    for row in seats(games):
        groups[row[index]].append(row)
    assert list(table[key]) == sorted(groups)
    for row in table.itertuples():
        rows = groups[getattr(row, key)]
        wins, outright = sum(r[4] for r in rows), sum(r[5] for r in rows)
        assert (row.games, row.wins, row.outright) == (len(rows), wins, outright)
        assert (row.low, row.high) == pytest.approx(wilson(wins, len(rows)))
        assert (row.score, row.score_low, row.score_high) == pytest.approx(mean_ci([r[6] for r in rows]))
        assert (row.above, row.above_low, row.above_high) == pytest.approx(mean_ci([r[7] for r in rows]))
        assert row.p_wins == pytest.approx(q.against_fair(wins, len(rows), PLAYERS))


def test_powers_and_seats_equal_a_count_of_the_games(lab):
    catalog, games = lab
    assert len(games) == GAMES and all(g["status"] == "finished" for g in games)
    powers = q.power_wins(catalog, RUN, PLAYERS)
    check(powers, "power", 3, games)
    check(q.seat_wins(catalog, RUN, PLAYERS), "rel", 2, games)
    assert set(powers["games"]) == {GAMES}  # five players: every power in every game
    assert q.powers_even(powers, PLAYERS) == pytest.approx(even_shares(powers["outright"].tolist()))
    modes = q.power_by_assignment(catalog, RUN, PLAYERS)
    assert set(modes["power_assignment"]) == {"random"} and list(modes["wins"]) == list(powers["wins"])


def test_holm_adjusts_every_test_of_the_page_together(lab):
    catalog, _ = lab
    tables = {"powers": q.power_wins(catalog, RUN, PLAYERS), "seats": q.seat_wins(catalog, RUN, PLAYERS)}
    raw = [p for t in tables.values() for column in ("p_wins", "p_above") for p in t[column]]
    adjusted = q.adjusted(tables)
    got = [p for t in adjusted.values() for column in ("holm_p_wins", "holm_p_above") for p in t[column]]
    assert got == pytest.approx(holm(raw), nan_ok=True)


def test_vp_sources_add_up_to_each_powers_score(lab):
    catalog, games = lab
    found = q.vp_sources(catalog, RUN, PLAYERS).set_index("power")
    turns = query("SELECT game_id, seat, power, vp_places, vp_spain, vp_exploitation, vp_start FROM ip_player_turn "
                  "WHERE run = ?", catalog, [RUN])
    per_game = turns.groupby(["game_id", "seat", "power"]).sum().reset_index()
    scores = {(g["game_id"], seat): g["scores"][seat] for g in games for seat in range(PLAYERS)}
    for row in per_game.itertuples():  # the sources are every VP a seat gets (§8)
        assert row.vp_places + row.vp_spain + row.vp_exploitation + row.vp_start == scores[row.game_id, row.seat]
    for power, part in per_game.groupby("power"):
        for column in q.SOURCES:
            assert found.loc[power, column] == pytest.approx(part[column].mean())
    assert found.loc["portuguese", "vp_start"] == 20 and found.loc["spain", "vp_spain"] >= 0
    assert set(found.loc[found.index != "spain", "vp_spain"]) == {0}


def test_events_equal_a_count_of_the_event_rows(lab):
    catalog, _ = lab
    rows = query("SELECT event, draw, before, after, vp, hit_leader, helped_self FROM ip_events WHERE run = ?",
                 catalog, [RUN])
    table = q.event_effects(catalog, RUN, PLAYERS).set_index("event")
    assert table["draws"].sum() == GAMES * 10 * 10  # ten events a turn, ten turns (R18, R19)
    for event, part in rows.groupby("event"):
        removed = [sum(b) - sum(a) for b, a in zip(part["before"], part["after"])]
        assert table.loc[event, "removed"] == pytest.approx(np.mean(removed))
        assert table.loc[event, "hit_leader"] == part["hit_leader"].sum()
        assert (table.loc[event, "helped_self_low"], table.loc[event, "helped_self_high"]) == \
            pytest.approx(wilson(int(part["helped_self"].sum()), len(part)))
    assert table.loc["nation_building", "removed"] == 0 and table.loc["revolution", "removed"] >= 0
    order = q.instigator_events(catalog, RUN, PLAYERS)
    assert list(order["draw"]) == list(range(10)) and set(order["draws"]) == {GAMES * 10}


# ----- the page (AppTest) -----

def open_page() -> AppTest:
    return lab_fixtures.open_page("ip_runs.py")


def test_the_page_shows_the_comparisons_of_a_run(lab, monkeypatch):
    catalog, games = lab
    monkeypatch.setenv("IMPERIAL_LAB_CATALOG", str(catalog))
    at = open_page()
    assert [e.value for e in at.title] == ["Imperial Powers runs"]
    assert at.sidebar.selectbox(key="run").value == RUN
    assert [e.value for e in at.subheader] == ["The powers", "Seat from the first instigator", "Power or picking order",
                                               "Where each power's VP come from", "Events"]
    words = "\n".join(e.value for e in [*at.markdown, *at.caption, *at.info])
    assert f"{GAMES} finished games of {PLAYERS} players" in words and "Bots: random ×5." in words
    assert "five powers win outright equally often" in words
    powers = at.dataframe[0].value
    assert list(powers["power"]) == ["britain", "dutch", "france", "portuguese", "spain"]
    assert "holm_p_wins" in powers and (powers["holm_p_wins"] >= powers["p_wins"]).all()
    assert len(at.get("plotly_chart")) == 3  # powers, seats, VP sources


def test_the_page_says_how_to_make_a_run(tmp_path, monkeypatch):
    """A catalogue with runs of its own but none of this game (an empty one gets the first start's)."""
    catalog = tmp_path / "lab.duckdb"
    simulate(tmp_path / "runs" / "other", 1, 2, "standard", ["random", "random"], 1, catalog=catalog, progress=False)
    monkeypatch.setenv("IMPERIAL_LAB_CATALOG", str(catalog))
    at = open_page()
    assert not at.subheader and not at.dataframe
    assert "imperial simulate --game imperial_powers" in at.info[0].value
