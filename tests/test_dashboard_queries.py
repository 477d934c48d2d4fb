"""The dashboard's library without Streamlit: its SQL answers (and the per-game rows of imperial_lab.core.compare that
the Compare page draws) against the same figures computed in pandas from the raw tables of the small
lab, the charts' traces, and the setup table behind the Setup editor. The statistics of comparisons are
tested in tests/test_stats.py and tests/test_compare.py."""

from __future__ import annotations

import json

import duckdb
import pandas as pd
import pytest

from imperial_lab.core import compare, runstore
from imperial_lab.core.catalog import connect, query
from imperial_lab.core.errors import SetupError
from imperial_lab.core.games.imperial2030.data import NATIONS
from imperial_lab.dashboard.games.imperial2030 import charts as imperial_charts, queries
from imperial_lab.dashboard.games.imperial2030 import setup_table
from imperial_lab.dashboard.games.imperial2030.colours import NATION_COLOURS, NATION_NAMES
from imperial_lab.core.games.imperial2030.setups import SETUPS_DIR, read_setup_file
from imperial_lab.dashboard import charts, queries as catalog_queries
from imperial_lab.dashboard.style import PLAYER_COLOURS, RUN_COLOURS, player_label


def raw(lab, table: str, run: str | None = None) -> pd.DataFrame:
    where = f" WHERE run = '{run}'" if run else ""
    return query(f"SELECT * FROM {table}{where}", lab.catalog)


@pytest.fixture(scope="module")
def game0(lab):
    """The first game of the first lab run: (run, game_id)."""
    return lab.runs[0], 0


# ----- queries against pandas -----

def test_runs_and_fingerprint(lab):
    runs = catalog_queries.runs(lab.catalog)
    assert set(runs["name"]) == set(lab.runs)
    rows = catalog_queries.fingerprint(runs, lab.runs)
    assert [row[0] for row in rows] == sorted(lab.runs)
    assert catalog_queries.fingerprint(runs, "no such run") == ()


def test_one_reader_shares_a_connection_among_the_queries_of_its_block(lab, monkeypatch):
    """Inside ``one_reader`` the queries of the catalogue share one connection, opened by the first of
    them (none without a query) and closed at the block's end; outside it each query opens its own."""
    opened = []

    def counted(catalog, read_only=False):
        con = connect(catalog, read_only=read_only)
        opened.append(con)
        return con

    monkeypatch.setattr(catalog_queries, "connect", counted)
    with catalog_queries.one_reader(lab.catalog):
        pass
    assert opened == []
    with catalog_queries.one_reader(lab.catalog):
        runs = catalog_queries.runs(lab.catalog)
        with catalog_queries.one_reader(str(lab.catalog)):  # a block inside keeps the outer one's
            overview = queries.overview(lab.catalog, lab.runs)
    assert len(opened) == 1 and set(runs["name"]) == set(overview["run"]) == set(lab.runs)
    with pytest.raises(duckdb.ConnectionException):  # closed with its block
        opened[0].execute("SELECT 1")
    catalog_queries.runs(lab.catalog)
    catalog_queries.runs(lab.catalog)
    assert len(opened) == 3


def test_overview_counts_games(lab):
    overview = queries.overview(lab.catalog, lab.runs).set_index("run")
    games = raw(lab, "games")
    for run in lab.runs:
        mine = games[games["run"] == run]
        assert overview.loc[run, "games"] == len(mine)
        assert overview.loc[run, "finished"] == (mine["status"] == "finished").sum()
        assert overview.loc[run, "setup"] == mine["setup"].iloc[0]


def test_government_wins_use_the_governments_at_the_end_of_the_setup(lab):
    holdings, games = raw(lab, "holdings"), raw(lab, "games")
    start = holdings[(holdings["turn"] == 0) & holdings["governs"]].merge(games, on=["run", "game_id"])
    start = start[start["status"] == "finished"]
    start["won"] = [player in list(w) for player, w in zip(start["player"], start["winners"])]
    expected = start.groupby(["run", "nation"]).agg(games=("won", "size"), wins=("won", "sum"))
    got = queries.government_wins(lab.catalog, lab.runs).set_index(["run", "nation"])
    assert got["games"].to_dict() == expected["games"].to_dict()
    assert got["wins"].to_dict() == expected["wins"].to_dict()


def test_game_lengths_match_pandas(lab):
    games = raw(lab, "games")
    games = games[games["status"] == "finished"]
    got = queries.frequencies(lab.catalog, lab.runs, "rounds")
    for run in lab.runs:
        expected = games[games["run"] == run]["rounds"].value_counts()
        assert got[got["run"] == run].set_index("value")["n"].to_dict() == expected.sort_index().to_dict()
    with pytest.raises(ValueError, match="unknown metric"):
        queries.frequencies(lab.catalog, lab.runs, "final_score")


def test_compare_games_match_pandas(lab):
    """imperial_lab.core.compare's per-game rows (what the Compare page's distributions draw): one per finished game,
    its margin the winner's score over the runner-up's."""
    games = raw(lab, "games")
    games = games[games["status"] == "finished"].sort_values(["run", "game_id"])
    got = compare.load(lab.catalog, lab.runs).games
    assert list(zip(got["run"], got["game_id"])) == list(zip(games["run"], games["game_id"]))
    assert list(got["rounds"]) == list(games["rounds"])
    assert list(got["margin"]) == [sorted(s)[-1] - sorted(s)[-2] for s in games["scores"]]


def lead_changes(scores_by_turn: list[list[int]]) -> int:
    """Lead changes counted plainly: the sole leader after each turn, ties keep the last sole leader."""
    changes, leader = 0, None
    for scores in scores_by_turn:
        best = max(scores)
        if scores.count(best) == 1:
            now = scores.index(best)
            changes += leader is not None and now != leader
            leader = now
    return changes


def test_lead_changes_match_a_plain_count(lab):
    """imperial_lab.core.compare.GAMES_SQL counts each game's lead changes (the Compare page); the Power page's
    distribution of them (queries.frequencies) counts the same."""
    players = raw(lab, "players")
    players = players[players["turn"] > 0].sort_values(["run", "game_id", "turn", "player"])
    games = compare.load(lab.catalog, lab.runs).games
    per_run = queries.frequencies(lab.catalog, lab.runs, "lead_changes")
    for run in lab.runs:
        counts = {game_id: lead_changes([list(t["score"]) for _, t in g.groupby("turn")])
                  for game_id, g in players[players["run"] == run].groupby("game_id")}
        mine = games[games["run"] == run]
        assert dict(zip(mine["game_id"], mine["lead_changes"])) == counts
        expected = pd.Series(list(counts.values())).value_counts().sort_index()
        assert per_run[per_run["run"] == run].set_index("value")["n"].to_dict() == expected.to_dict()
    assert lead_changes([[1, 0], [1, 1], [0, 1], [2, 1], [2, 2], [2, 3]]) == 3  # the tie at turn 2 is no change


def test_ended_by_and_government_changes_match_pandas(lab):
    run = lab.runs[0]
    games = raw(lab, "games", run)
    ended = queries.ended_by(lab.catalog, run)
    assert list(ended["nation"]) == list(NATIONS)
    assert ended.set_index("nation")["games"].to_dict() == {n: (games["ended_by"] == n).sum() for n in NATIONS}
    changes = raw(lab, "control_changes", run)
    investor = changes[changes["cause"] == "investor"]
    per_game = investor.groupby("game_id").size().reindex(games["game_id"], fill_value=0)
    got = queries.government_changes_per_game(lab.catalog, run).set_index("changes")["games"]
    assert got.to_dict() == per_game.value_counts().sort_index().to_dict()
    turns = raw(lab, "nation_turns", run)
    timed = investor.merge(turns[["game_id", "turn", "round"]], on=["game_id", "turn"])
    rounds = queries.government_change_rounds(lab.catalog, run)
    assert rounds["changes"].sum() == len(investor) == len(timed)
    assert rounds.groupby("round")["changes"].sum().to_dict() == timed.groupby("round").size().to_dict()


def test_one_game_series_match_the_tables(lab, game0):
    run, game_id = game0
    players = raw(lab, "players", run)
    players = players[players["game_id"] == game_id]
    series = queries.player_series(lab.catalog, run, game_id)
    assert len(series) == len(players) and series["score"].sum() == players["score"].sum()
    race = queries.nation_race(lab.catalog, run, game_id)
    assert list(race["turn"]) == sorted(race["turn"]) and set(race["nation"]) == set(NATIONS)
    summary = queries.game_summary(lab.catalog, run, game_id)
    assert len(summary) == 1 and "log" not in summary.columns
    assert queries.game_summary(lab.catalog, run, 10_000).empty
    assert queries.game_range(lab.catalog, run) == (0, 11)


def test_control_segments_cover_each_game_and_agree_with_nation_turns(lab, game0):
    run, game_id = game0
    segments = queries.control_segments(lab.catalog, run, game_id)
    last = int(queries.game_summary(lab.catalog, run, game_id)["nation_turns"].iloc[0])
    for _, own in segments.groupby("nation"):
        assert own["start"].iloc[0] == 0 and own["end"].iloc[-1] == last
        assert list(own["end"].iloc[:-1]) == list(own["start"].iloc[1:])  # no gap, no overlap
    turns = queries.nation_race(lab.catalog, run, game_id)
    for row in turns.itertuples():  # the government during a turn: a change in that turn comes after it
        nation = segments[segments["nation"] == row.nation]
        own = nation[(nation["start"] < row.turn) & (row.turn <= nation["end"])]
        assert list(own["government"]) == [row.government]


def test_bond_ownership_fills_the_holdings_with_zeros(lab, game0):
    run, game_id = game0
    holdings = raw(lab, "holdings", run)
    holdings = holdings[holdings["game_id"] == game_id]
    grid = queries.bond_ownership(lab.catalog, run, game_id)
    held = grid[grid["credit_sum"] > 0]
    assert len(held) == len(holdings) and held["credit_sum"].sum() == holdings["credit_sum"].sum()
    pairs = grid[["player", "nation"]].drop_duplicates()
    assert len(grid) == grid["turn"].nunique() * len(pairs)


# ----- charts -----

def test_one_game_charts_have_a_trace_per_nation_or_seat(lab, game0):
    run, game_id = game0
    race = queries.nation_race(lab.catalog, run, game_id)
    fig = imperial_charts.nation_race(race)
    assert [t.name for t in fig.data] == list(NATIONS)
    assert [t.line.color for t in fig.data] == [NATION_COLOURS[n] for n in NATIONS]
    fig = imperial_charts.player_series(queries.player_series(lab.catalog, run, game_id), "score", "Score", "points")
    assert [t.name for t in fig.data] == [player_label(p) for p in range(4)]
    assert [t.line.color for t in fig.data] == list(PLAYER_COLOURS[:4])
    segments = queries.control_segments(lab.catalog, run, game_id)
    fig = imperial_charts.control_timeline(segments)
    bars = [t for t in fig.data if t.type == "bar"]
    assert len(bars) == segments["government"].nunique()
    assert {t.name for t in fig.data if t.type == "scatter"} == {f"change: {c}" for c in set(segments["cause"])}
    holdings = queries.bond_ownership(lab.catalog, run, game_id)
    fig = imperial_charts.bond_ownership(holdings, 300)
    assert len(fig.data) == len(holdings[["player", "nation"]].drop_duplicates())
    assert all(t.x[-1] == 300 for t in fig.data)
    assert sum(bool(t.showlegend) for t in fig.data) <= 4


def test_run_and_comparison_charts(lab):
    run = lab.runs[0]
    fig = imperial_charts.ended_by(queries.ended_by(lab.catalog, run))
    assert list(fig.data[0].x) == list(NATIONS)
    changes = queries.government_change_rounds(lab.catalog, run)
    fig = imperial_charts.change_rounds(changes, 10)
    assert fig.data[0].type == "heatmap" and list(fig.data[0].y) == [NATION_NAMES[c] for c in NATIONS
                                                                     if c in set(changes["nation"])]
    first = changes.iloc[0]  # each cell: the changes per 100 games, written in it
    row, col = list(fig.data[0].y).index(NATION_NAMES[first["nation"]]), list(fig.data[0].x).index(str(first["round"]))
    assert fig.data[0].text[row][col] == f"{first['changes'] * 10:.0f}"
    lengths = queries.frequencies(lab.catalog, run, "rounds")
    assert imperial_charts.counts_bar(lengths, "value", "n", "Game length", "rounds").data[0].y.tolist() == lengths["n"].tolist()
    c = compare.load(lab.catalog, lab.runs)
    fig = charts.win_rates(c.run_seats, "seat", "Win rate by seat", 0.25, n="n")
    assert [t.name for t in fig.data if t.type == "bar"] == sorted(lab.runs)
    assert [t.name for t in fig.data if t.type == "scatter"] == ["fair share 25%"]  # in the legend, not on a bar
    assert [t.marker.color for t in fig.data if t.type == "bar"] == list(RUN_COLOURS[:2])
    assert all(t.error_y.array is not None for t in fig.data if t.type == "bar")
    assert not fig.layout.annotations  # no label on the plot
    for distribution in ("rounds", "lead_changes", "margin"):
        fig = charts.cell_distributions(c.games, distribution, "per game", "x", c.lineups)
        assert [t.name for t in fig.data] == [f"{setup} · random ×4" for setup in sorted(c.setups)]  # a line a cell
        assert all(sum(t.y) == pytest.approx(1.0) for t in fig.data)  # shares of each cell's games


def test_comparison_charts_draw_a_bar_per_cell_coloured_by_line_up(lab):
    c = compare.load(lab.catalog, lab.runs)
    for fig in (charts.cell_win_rates(c.seats, c.lineups), charts.seat_scores(c.seats, c.lineups)):
        bars = [t for t in fig.data if t.type == "bar"]
        assert len(bars) == len(c.cells) and {t.name for t in bars} == {"random ×4"}
        assert [t.marker.color for t in bars] == [RUN_COLOURS[0]] * len(bars)  # one line-up, one colour
        assert sum(bool(t.showlegend) for t in bars) == 1  # named once, however many setups
        assert [a.text for a in fig.layout.annotations][:len(c.setups)] == c.setups  # a panel per setup
    assert charts.setup_label("/somewhere/setups/three_nations_each.json") == "three_nations_each"


def test_every_chart_has_its_legend_below_the_plot_never_under_its_title(lab, game0):
    run, game_id = game0
    c = compare.load(lab.catalog, lab.runs)
    figures = [imperial_charts.nation_race(queries.nation_race(lab.catalog, run, game_id)),
               imperial_charts.player_series(queries.player_series(lab.catalog, run, game_id), "cash", "Cash", "m"),
               imperial_charts.control_timeline(queries.control_segments(lab.catalog, run, game_id)),
               imperial_charts.bond_ownership(queries.bond_ownership(lab.catalog, run, game_id), 300),
               imperial_charts.ended_by(queries.ended_by(lab.catalog, run)),
               imperial_charts.change_rounds(queries.government_change_rounds(lab.catalog, run), 12),
               imperial_charts.counts_bar(queries.frequencies(lab.catalog, run, "rounds"), "value", "n", "Length", "rounds"),
               charts.win_rates(c.run_seats, "seat", "Win rate by seat", n="n"),
               charts.cell_win_rates(c.seats), charts.seat_scores(c.seats), charts.seat_ladder(c.seats, c.lineups, 0.03),
               charts.cell_distributions(c.games, "rounds", "Game length", "rounds")]
    for fig in figures:
        legend = fig.layout.legend
        assert (legend.yref, legend.yanchor, legend.y, legend.orientation) == ("container", "bottom", 0, "h")
        assert fig.layout.title.text


# ----- the setup table -----

def test_setup_table_round_trip_of_a_shipped_setup():
    doc = read_setup_file(SETUPS_DIR / "three_nations_each.json")
    table = setup_table.from_setup(doc)
    assert list(table.columns) == ["cash", *NATIONS] and table.loc["Player A", "RU"] == "3"
    players, errors = setup_table.parse(table)
    assert errors == []
    rebuilt = setup_table.document(players, doc["description"])
    assert rebuilt["governments"] == doc["governments"] and rebuilt["treasuries"] == doc["treasuries"]
    assert [seat["starting_cash"] for seat in rebuilt["players"]] == [13] * 4


def test_setup_table_messages_name_the_player_and_the_cell():
    table = setup_table.from_setup(read_setup_file(SETUPS_DIR / "three_nations_each.json"))
    table.loc["Player B", "CN"] = "3, 12"
    table.loc["Player C", "cash"] = float("nan")
    assert setup_table.parse(table)[1] == ["Player B, CN: '12' is not a bond number (1–9)",
                                           "Player C: cash is missing (write 0 for none)"]
    table = setup_table.from_setup(read_setup_file(SETUPS_DIR / "three_nations_each.json"))
    table.loc["Player D", "RU"] = "3"
    assert setup_table.parse(table)[1] == ["Player D: bond RU 3 already given to Player A"]
    assert setup_table.parse(setup_table.blank(3))[1] == [
        "No bond is given to anybody, so no nation would have a government"]


def test_setup_table_saves_a_file_that_loads(tmp_path):
    players, _ = setup_table.parse(setup_table.from_setup(read_setup_file(SETUPS_DIR / "two_powers.json")))
    doc = setup_table.document(players, "two powers, again")
    path = setup_table.save(doc, "again", tmp_path)
    assert read_setup_file(path)["governments"] == {"RU": 0, "US": 2}
    assert json.loads(path.read_text())["treasuries"]["CN"] == 0
    assert setup_table.check_name("Bad Name") and setup_table.check_name("standard")
    with pytest.raises(SetupError):
        setup_table.save({**doc, "description": ""}, "empty", tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["again.json"]  # the refused draft is gone


def test_a_run_whose_run_json_cannot_be_read_counts_as_not_rotated(tmp_path):
    """The sidebar lists every run: one folder gone or damaged must not break it."""
    assert runstore.is_rotated(str(tmp_path / "gone")) is False
    (tmp_path / "run.json").write_text("{not json", encoding="utf-8")
    assert runstore.is_rotated(str(tmp_path)) is False
