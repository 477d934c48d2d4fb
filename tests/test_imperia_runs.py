"""The Imperia runs page (dashboard/games/imperia/views/runs.py) and its questions
(runs_queries.py, RULES.md §10): on a small run played into a catalogue of its own, every figure
equals a count made here in plain Python from the rows of the tables; the page renders them through
AppTest, says which bots played, and without an Imperia run says how to play one."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from imperial_lab.core.catalog import query
from imperial_lab.dashboard.games.imperia import runs_queries as q
from imperial_lab.core.simulate import simulate
from imperial_lab.core.stats import even_shares, format_p, mean_ci, wilson
from tests import lab_fixtures

RUN, PLAYERS, GAMES = "im-runs", 3, 24


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    root = tmp_path_factory.mktemp("imperia-runs")
    catalog = root / "lab.duckdb"
    simulate(root / "runs" / RUN, games=GAMES, players=PLAYERS, setup="default", bots=["random"] * PLAYERS, seed=5,
             workers=1, chunk_size=12, catalog=catalog, progress=False, game="imperia")
    games = query("SELECT * FROM im_games WHERE run = ? ORDER BY game_id", catalog, [RUN])
    return catalog, [row._asdict() for row in games.itertuples(index=False)]


def seat_games(games):
    """(game, seat, place from the start player, won, alone, score) of every seat of every finished game."""
    for g in games:
        if g["status"] != "finished":
            continue
        for seat in range(g["players"]):
            won = seat in list(g["winners"])
            yield g, seat, (seat - g["start_seat"]) % g["players"], won, won and len(g["winners"]) == 1, \
                g["totals"][seat]


def counted(groups: dict) -> dict:
    """key -> (games, wins, outright, mean score) from key -> [(won, alone, score), ...]."""
    return {key: (len(v), sum(w for w, _, _ in v), sum(a for _, a, _ in v), float(np.mean([s for _, _, s in v])))
            for key, v in sorted(groups.items())}


def check(table, key: str, expected: dict):
    assert list(table[key]) == list(expected)
    for row in table.itertuples():
        n, wins, outright, score = expected[getattr(row, key)]
        assert (row.games, row.wins, row.outright) == (n, wins, outright)
        assert row.score == pytest.approx(score)
        assert (row.low, row.high) == pytest.approx(wilson(wins, n))
        assert row.rate == pytest.approx(wins / n)


def by_place(games) -> dict:
    groups = {}
    for _, _, rel, won, alone, score in seat_games(games):
        groups.setdefault(rel, []).append((won, alone, score))
    return counted(groups)


def test_seats_and_fortress_order_equal_a_count_of_the_games(lab):
    catalog, games = lab
    assert all(g["status"] == "finished" for g in games) and len(games) == GAMES
    seats = q.seat_wins(catalog, RUN, PLAYERS)
    check(seats, "rel", by_place(games))
    scores = [g["totals"][g["start_seat"]] for g in games]
    mean, low, high = mean_ci(scores)
    start = seats.iloc[0]
    assert (start.score_low, start.score_high) == pytest.approx((low, high))  # imperial_lab.core.stats.mean_ci's interval
    # Every game counted once per seat: the shares of the wins add up to the games (more with shared places).
    assert seats["outright"].sum() == sum(len(g["winners"]) == 1 for g in games)
    assert seats["wins"].sum() == sum(len(g["winners"]) for g in games)
    groups = {}
    for g, seat, _, won, alone, score in seat_games(games):
        groups.setdefault(list(g["fortress_order"]).index(seat), []).append((won, alone, score))
    check(q.fortress_order_wins(catalog, RUN, PLAYERS), "rank", counted(groups))


def test_fortress_sites_equal_a_count_of_the_games(lab):
    catalog, games = lab
    spaces = query("SELECT game_id, space, value, covered FROM im_space_final WHERE run = ?", catalog, [RUN])
    value = {(r.game_id, r.space): (0 if r.covered else int(r.value)) for r in spaces.itertuples()}
    groups, leaders = {}, Counter()
    for g in games:
        rows = []
        for seat in range(g["players"]):
            f = g["fortresses"][seat]
            r, c = divmod(int(f), 8)
            distance = min(abs(r - rr) + abs(c - cc) for rr in (3, 4) for cc in (3, 4))
            around = sum(value[g["game_id"], rr * 8 + cc] for rr in range(r - 2, r + 3) for cc in range(c - 2, c + 3)
                         if 0 <= rr < 8 and 0 <= cc < 8 and (rr, cc) != (r, c))
            won = seat in list(g["winners"])
            groups.setdefault(distance, []).append((won, won and len(g["winners"]) == 1, g["totals"][seat]))
            rows.append((distance, around, won))
        for name, key in (("nearest to the castle", lambda x: x[0]), ("farthest from the castle", lambda x: -x[0]),
                          ("richest surroundings", lambda x: -x[1]), ("poorest surroundings", lambda x: x[1])):
            best = min(map(key, rows))
            top = [x for x in rows if key(x) == best]
            if len(top) == 1:
                leaders[name, "games"] += 1
                leaders[name, "wins"] += top[0][2]
    assert set(groups) <= {2, 3, 4}  # the ring of the inner 6×6 (§3.3)
    check(q.fortress_sites(catalog, RUN, PLAYERS), "distance", counted(groups))
    table = q.fortress_leaders(catalog, RUN, PLAYERS)
    for row in table.itertuples():
        assert (row.games, row.wins) == (leaders[row.criterion, "games"], leaders[row.criterion, "wins"])
        assert row.p == pytest.approx(q.against_fair(row.wins, row.games, PLAYERS))


def test_layout_sides_and_tempo_equal_a_count_of_the_games(lab):
    catalog, games = lab
    layouts = q.layouts(catalog, RUN, PLAYERS)
    assert list(layouts["layout"]) == ["default"] and int(layouts["games"].iloc[0]) == GAMES
    assert int(layouts["start_wins"].iloc[0]) == by_place(games)[0][1]
    assert int(layouts["draws"].iloc[0]) == sum(bool(g["draw"]) for g in games)
    assert layouts["p"].iloc[0] == pytest.approx(even_shares([v[2] for v in by_place(games).values()]))
    sides = Counter()
    for g in games:
        for board, placer in zip(g["boards"], g["board_placers"]):
            if placer >= 0:
                side = board.split()[0]
                sides[side, "games"] += 1
                sides[side, "wins"] += placer in list(g["winners"])
    table = q.board_sides(catalog, RUN, PLAYERS)
    assert table["games"].sum() == GAMES * PLAYERS  # three boards placed by the seats, one by chance (§3.2)
    for row in table.itertuples():
        assert (row.games, row.wins) == (sides[row.side, "games"], sides[row.side, "wins"])
    summary = q.length_summary(q.lengths(catalog, RUN, PLAYERS)).set_index("measure")
    for measure in ("plies", "turns"):
        values = [g[measure] for g in games]
        assert summary.loc[measure, ["value", "low", "high"]].tolist() == pytest.approx(list(mean_ci(values)))
        assert summary.loc[measure, "median"] == np.median(values)
    assert summary.loc["draw rate", "value"] == pytest.approx(np.mean([bool(g["draw"]) for g in games]))


def test_warlord_order_equals_a_count_of_the_plies(lab):
    catalog, games = lab
    plies = query("SELECT game_id, ply, turn, seat FROM im_plies WHERE run = ? AND kind = 'warlord' ORDER BY game_id, ply",
                  catalog, [RUN])
    groups, turns = {}, {}
    by_id = {g["game_id"]: g for g in games}
    for game_id, part in plies.groupby("game_id"):
        g = by_id[game_id]
        assert sorted(part["seat"]) == list(range(PLAYERS))  # every warlord placed once: the game ended (§8)
        for rank, row in enumerate(part.itertuples()):
            won = row.seat in list(g["winners"])
            groups.setdefault(rank, []).append((won, won and len(g["winners"]) == 1, g["totals"][row.seat]))
            turns.setdefault(rank, []).append(row.turn)
    table = q.warlord_order(catalog, RUN, PLAYERS)
    check(table, "rank", counted(groups))
    assert table["turn"].tolist() == pytest.approx([np.mean(turns[k]) for k in sorted(turns)])


# ----- the page (AppTest) -----

def open_page() -> AppTest:
    return lab_fixtures.open_page("imperia_runs.py")


def test_the_page_shows_the_comparisons_of_a_run(lab, monkeypatch):
    catalog, games = lab
    monkeypatch.setenv("IMPERIAL_LAB_CATALOG", str(catalog))
    at = open_page()
    assert [e.value for e in at.title] == ["Imperia runs"]
    assert at.sidebar.selectbox(key="run").value == RUN
    assert [e.value for e in at.subheader] == ["First-player advantage", "Fortress site", "Layout", "Tempo"]
    words = "\n".join(e.value for e in [*at.markdown, *at.caption, *at.info])
    assert f"{GAMES} finished games of {PLAYERS} players" in words
    assert "Bots: random ×3." in words and "hold for these bots only" in words
    expected = by_place(games)
    assert f"({PLAYERS - 1} df): **{format_p(even_shares([v[2] for v in expected.values()]))}**" in words
    assert "does not vary the layout" in words  # one setup, one layout
    seats = at.dataframe[0].value
    assert list(seats["place"]) == ["start player", "start + 1", "start + 2"]
    for row, (n, wins, outright, _) in zip(seats.itertuples(), expected.values()):
        assert (row.games, row.wins, row.outright) == (n, wins, outright)
        assert (row.low, row.high) == pytest.approx(wilson(wins, n))
    assert len(at.get("plotly_chart")) == 5  # seats, sites, sides, length, warlords


def test_the_page_says_how_to_make_an_imperia_run(tmp_path, monkeypatch):
    """A catalogue with runs of its own but none of this game (an empty one gets the first start's)."""
    catalog = tmp_path / "lab.duckdb"
    simulate(tmp_path / "runs" / "other", 1, 2, "standard", ["random", "random"], 1, catalog=catalog, progress=False)
    monkeypatch.setenv("IMPERIAL_LAB_CATALOG", str(catalog))
    at = open_page()
    assert not at.subheader and not at.dataframe
    assert "imperial simulate --game imperia --players 3 --games 1000 --bots heuristic --out runs/NAME" in \
        at.info[0].value
