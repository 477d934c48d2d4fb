"""The dashboard's library without Streamlit: its SQL answers against the same figures computed in
pandas from the raw tables of the small lab, the statistics against known values, the comparison's
summary, the charts' traces, and the setup table behind the Setup editor."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from core.catalog import query
from core.errors import SetupError
from core.imperial2030.board import NATIONS
from core.setups import SETUPS_DIR, read_setup_file
from dashboard import charts, comparison, queries, setup_table, stats
from dashboard.style import NATION_COLOURS, PLAYER_COLOURS, RUN_COLOURS, player_label


def raw(lab, table: str, run: str | None = None) -> pd.DataFrame:
    where = f" WHERE run = '{run}'" if run else ""
    return query(f"SELECT * FROM {table}{where}", lab.catalog)


@pytest.fixture(scope="module")
def game0(lab):
    """The first game of the first lab run: (run, game_id)."""
    return lab.runs[0], 0


# ----- queries against pandas -----

def test_runs_and_fingerprint(lab):
    runs = queries.runs(lab.catalog)
    assert set(runs["name"]) == set(lab.runs)
    rows = queries.fingerprint(lab.catalog, lab.runs)
    assert [row[0] for row in rows] == sorted(lab.runs)
    assert queries.fingerprint(lab.catalog, "no such run") == ()


def test_overview_counts_games(lab):
    overview = queries.overview(lab.catalog, lab.runs).set_index("run")
    games = raw(lab, "games")
    for run in lab.runs:
        mine = games[games["run"] == run]
        assert overview.loc[run, "games"] == len(mine)
        assert overview.loc[run, "finished"] == (mine["status"] == "finished").sum()
        assert overview.loc[run, "setup"] == mine["setup"].iloc[0]


def test_seat_wins_match_pandas(lab):
    games = raw(lab, "games")
    games = games[games["status"] == "finished"]
    got = queries.seat_wins(lab.catalog, lab.runs).set_index(["run", "seat"])
    for run in lab.runs:
        mine = games[games["run"] == run]
        for seat in range(4):
            assert got.loc[(run, seat), "games"] == len(mine)
            assert got.loc[(run, seat), "wins"] == sum(seat in list(w) for w in mine["winners"])


def test_government_wins_use_the_governments_at_the_end_of_the_setup(lab):
    holdings, games = raw(lab, "holdings"), raw(lab, "games")
    start = holdings[(holdings["turn"] == 0) & holdings["governs"]].merge(games, on=["run", "game_id"])
    start = start[start["status"] == "finished"]
    start["won"] = [player in list(w) for player, w in zip(start["player"], start["winners"])]
    expected = start.groupby(["run", "nation"]).agg(games=("won", "size"), wins=("won", "sum"))
    got = queries.government_wins(lab.catalog, lab.runs).set_index(["run", "nation"])
    assert got["games"].to_dict() == expected["games"].to_dict()
    assert got["wins"].to_dict() == expected["wins"].to_dict()


@pytest.mark.parametrize("metric", ["rounds", "margin", "final_score"])
def test_frequencies_match_pandas(lab, metric):
    games = raw(lab, "games")
    games = games[games["status"] == "finished"]
    values = {"rounds": lambda g: [g["rounds"]],
              "margin": lambda g: [sorted(g["scores"])[-1] - sorted(g["scores"])[-2]],
              "final_score": lambda g: list(g["scores"])}[metric]
    got = queries.frequencies(lab.catalog, lab.runs, metric)
    for run in lab.runs:
        expected = pd.Series([v for _, g in games[games["run"] == run].iterrows() for v in values(g)]).value_counts()
        mine = got[got["run"] == run].set_index("value")["n"]
        assert mine.to_dict() == expected.sort_index().to_dict()


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
    players = raw(lab, "players")
    players = players[players["turn"] > 0].sort_values(["run", "game_id", "turn", "player"])
    got = queries.frequencies(lab.catalog, lab.runs, "lead_changes")
    for run in lab.runs:
        counts = [lead_changes([list(t["score"]) for _, t in g.groupby("turn")])
                  for _, g in players[players["run"] == run].groupby("game_id")]
        expected = pd.Series(counts).value_counts().sort_index()
        assert got[got["run"] == run].set_index("value")["n"].to_dict() == expected.to_dict()
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


# ----- statistics -----

def test_wilson_interval_known_values():
    assert stats.wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert stats.wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert stats.wilson(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    assert all(math.isnan(x) for x in stats.wilson(0, 0))


def test_mean_interval_and_median():
    mean, low, high = stats.mean_ci([1, 2, 3], [1, 1, 1])  # sd 1, t(0.975, 2) = 4.3027
    assert (mean, low, high) == pytest.approx((2, 2 - 4.3027 / math.sqrt(3), 2 + 4.3027 / math.sqrt(3)), abs=1e-4)
    assert stats.mean_ci([7], [2])[:1] == (7.0,) and math.isnan(stats.mean_ci([7], [1])[1])
    assert stats.weighted_median([1, 2, 10], [1, 1, 1]) == 2
    assert stats.weighted_median([3, 1], [1, 3]) == 1


def test_two_proportion_z_test_known_value():
    # pooled rate 0.4, se = sqrt(0.4 * 0.6 * 2 / 100), z = 0.2 / se = 2.887
    assert stats.two_proportion_z(50, 100, 30, 100) == pytest.approx(0.00389, abs=1e-5)
    assert stats.two_proportion_z(3, 10, 3, 10) == pytest.approx(1.0)
    assert stats.two_proportion_z(0, 10, 0, 12) == 1.0 and stats.two_proportion_z(1, 0, 1, 5) == 1.0


def test_mann_whitney_on_frequency_tables_equals_scipy():
    rng = np.random.default_rng(7)
    a, b = rng.integers(0, 20, 60), rng.integers(3, 23, 45)
    (va, ca), (vb, cb) = np.unique(a, return_counts=True), np.unique(b, return_counts=True)
    expected = sps.mannwhitneyu(a, b, alternative="two-sided", method="asymptotic").pvalue
    assert stats.mann_whitney(va, ca, vb, cb) == pytest.approx(expected, rel=1e-9)
    assert stats.mann_whitney([4], [10], [4], [9]) == 1.0 and stats.mann_whitney([], [], [1], [2]) == 1.0


def test_even_shares_holm_and_balance():
    assert stats.even_shares_p([25, 25, 25, 25]) == pytest.approx(1.0)
    assert stats.even_shares_p([30, 10]) == pytest.approx(0.001565, abs=1e-6)  # chi-square 10 on 1 df
    assert stats.holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert stats.holm([]) == []
    assert stats.balance([0.25, 0.25, 0.25, 0.25]) == 1.0
    assert stats.balance([0.5, 0.1, 0.2, 0.2]) == pytest.approx(0.6)
    assert stats.format_p(0.0004) == "p < 0.001" and stats.format_p(0.0123) == "p = 0.012"


# ----- the comparison -----

def synthetic_comparison() -> comparison.Comparison:
    """Two runs of 200 games that differ only in how often seat A wins (90% against 20%)."""
    seat_wins = pd.DataFrame({"run": ["a"] * 2 + ["b"] * 2, "seat": [0, 1, 0, 1], "games": [200] * 4,
                              "wins": [180, 20, 40, 160]})
    government_wins = pd.DataFrame({"run": ["a", "b"], "nation": ["RU", "RU"], "games": [200, 200],
                                    "wins": [100, 104]})
    same = pd.DataFrame({"run": ["a", "a", "b", "b"], "value": [10, 11, 10, 11], "n": [100, 100, 101, 99]})
    return comparison.build(seat_wins, government_wins, {metric: same for metric in queries.METRICS}, ["b", "a"])


def test_summary_names_only_the_significant_differences():
    result = synthetic_comparison()
    assert result.runs == ["a", "b"]
    lines = result.summary()
    assert "Player A wins more often in a (90%) than in b (20%) — two-proportion z-test, p < 0.001" in lines
    assert any(line.startswith("Seats do not win equally often in a") for line in lines)
    assert not any("Russia" in line or "Game length" in line for line in lines)
    tests = result.tests
    assert len(tests) == 2 + 1 + len(queries.METRICS) + 2  # seats, RU, metrics, one balance test per run
    assert tests["p_holm"].ge(tests["p"]).all()
    assert result.balance.set_index("run").loc["a", "balance"] == pytest.approx(1 - (0.9 - 0.1))


def test_comparison_of_the_lab_runs(lab):
    result = comparison.load(lab.catalog, lab.runs)
    assert set(result.seats["run"]) == set(lab.runs)
    assert ((result.seats["low"] <= result.seats["rate"]) & (result.seats["rate"] <= result.seats["high"])).all()
    assert set(result.metrics["metric"]) == set(queries.METRICS)
    assert set(result.tests["test"]) == {comparison.PROPORTION_TEST, comparison.RANK_TEST, comparison.SHARES_TEST}


# ----- charts -----

def test_one_game_charts_have_a_trace_per_nation_or_seat(lab, game0):
    run, game_id = game0
    race = queries.nation_race(lab.catalog, run, game_id)
    fig = charts.nation_race(race)
    assert [t.name for t in fig.data] == list(NATIONS)
    assert [t.line.color for t in fig.data] == [NATION_COLOURS[n] for n in NATIONS]
    fig = charts.player_series(queries.player_series(lab.catalog, run, game_id), "score", "Score", "points")
    assert [t.name for t in fig.data] == [player_label(p) for p in range(4)]
    assert [t.line.color for t in fig.data] == list(PLAYER_COLOURS[:4])
    segments = queries.control_segments(lab.catalog, run, game_id)
    fig = charts.control_timeline(segments)
    bars = [t for t in fig.data if t.type == "bar"]
    assert len(bars) == segments["government"].nunique()
    assert {t.name for t in fig.data if t.type == "scatter"} == {f"change: {c}" for c in set(segments["cause"])}
    holdings = queries.bond_ownership(lab.catalog, run, game_id)
    fig = charts.bond_ownership(holdings, 300)
    assert len(fig.data) == len(holdings[["player", "nation"]].drop_duplicates())
    assert all(t.x[-1] == 300 for t in fig.data)
    assert sum(bool(t.showlegend) for t in fig.data) <= 4


def test_run_and_comparison_charts(lab):
    run = lab.runs[0]
    fig = charts.ended_by(queries.ended_by(lab.catalog, run))
    assert list(fig.data[0].x) == list(NATIONS)
    fig = charts.change_rounds(queries.government_change_rounds(lab.catalog, run))
    assert all(t.marker.color == NATION_COLOURS[t.name] for t in fig.data)
    lengths = queries.frequencies(lab.catalog, run, "rounds")
    assert charts.counts_bar(lengths, "value", "n", "Game length", "rounds").data[0].y.tolist() == lengths["n"].tolist()
    result = comparison.load(lab.catalog, lab.runs)
    fig = charts.win_rates(result.seats, "seat", "Win rate by seat", 0.25)
    assert [t.name for t in fig.data] == sorted(lab.runs)
    assert [t.marker.color for t in fig.data] == list(RUN_COLOURS[:2])
    assert all(t.error_y.array is not None for t in fig.data)
    fig = charts.distributions(result.frequencies["final_score"], "Final score", "points")
    assert [t.name for t in fig.data] == sorted(lab.runs)
    assert all(sum(t.y) == pytest.approx(1.0) for t in fig.data)  # shares of each run


# ----- the setup table -----

def test_setup_table_round_trip_of_a_shipped_setup():
    doc = read_setup_file(SETUPS_DIR / "even_spread.json")
    table = setup_table.from_setup(doc)
    assert list(table.columns) == ["cash", *NATIONS] and table.loc["Player A", "RU"] == "3"
    players, errors = setup_table.parse(table)
    assert errors == []
    rebuilt = setup_table.document(players, doc["description"])
    assert rebuilt["governments"] == doc["governments"] and rebuilt["treasuries"] == doc["treasuries"]
    assert [seat["starting_cash"] for seat in rebuilt["players"]] == [13] * 4


def test_setup_table_messages_name_the_player_and_the_cell():
    table = setup_table.from_setup(read_setup_file(SETUPS_DIR / "even_spread.json"))
    table.loc["Player B", "CN"] = "3, 12"
    table.loc["Player C", "cash"] = float("nan")
    assert setup_table.parse(table)[1] == ["Player B, CN: '12' is not a bond number (1–9)",
                                           "Player C: cash is missing (write 0 for none)"]
    table = setup_table.from_setup(read_setup_file(SETUPS_DIR / "even_spread.json"))
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
    assert queries._rotated(str(tmp_path / "gone")) is False
    (tmp_path / "run.json").write_text("{not json", encoding="utf-8")
    assert queries._rotated(str(tmp_path)) is False
