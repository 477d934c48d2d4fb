"""The DuckDB catalogue (imperial_lab.core.catalog) against pandas, and ``imperial import`` of move logs."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from imperial_lab.core import runstore
from imperial_lab.core.catalog import CatalogError, connect, list_runs, query, register_run
from imperial_lab.core.cli import main
from imperial_lab.core.games.imperial2030.tables import TABLES
from imperial_lab.core.imports import import_logs
from imperial_lab.core.runstore import RunError
from imperial_lab.core.simulate import simulate

WIN_RATE_BY_SEAT = """
    SELECT seat, count(*) AS games, avg(CASE WHEN list_contains(winners, seat) THEN 1 ELSE 0 END) AS win_rate
    FROM (SELECT winners, unnest(range(players)) AS seat FROM games WHERE status = 'finished')
    GROUP BY seat ORDER BY seat"""


def read_run(folder: Path, table: str) -> pd.DataFrame:
    return pd.concat([pd.read_parquet(path, dtype_backend="pyarrow") for path in runstore.chunk_files(folder, table)],
                     ignore_index=True)


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory) -> dict:
    """Two runs in one catalogue: standard and three_nations_each, 8 random four-player games each."""
    root = tmp_path_factory.mktemp("catalog")
    catalog = root / "lab.duckdb"
    runs = {}
    for name, setup, seed in (("alpha", "standard", 1), ("beta", "three_nations_each", 2)):
        runs[name] = root / "runs" / name
        simulate(runs[name], 8, None, setup, ["random"] * 4, seed, workers=1, chunk_size=4, catalog=catalog,
                 progress=False)
    return {"root": root, "catalog": catalog, "runs": runs}


def both(two_runs, table: str) -> pd.DataFrame:
    return pd.concat([read_run(folder, table) for folder in two_runs["runs"].values()], ignore_index=True)


# ----- the runs table and the views -----

def test_the_runs_table_describes_each_run(two_runs):
    runs = list_runs(two_runs["catalog"]).set_index("name")
    assert sorted(runs.index) == ["alpha", "beta"]
    beta = runs.loc["beta"]
    assert (beta.games, beta.players, beta.setup, beta.bots, beta.seed, beta.status, beta.chunks) == \
           (8, 4, "three_nations_each", "random,random,random,random", 2, "complete", 2)
    assert beta.path == str(two_runs["runs"]["beta"])


def test_every_table_is_a_view_over_all_runs(two_runs):
    for table in TABLES:
        counts = query(f"SELECT run, count(*) AS n FROM {table} GROUP BY run ORDER BY run", two_runs["catalog"])
        expected = both(two_runs, table).groupby("run", observed=True).size()
        assert counts.set_index("run")["n"].to_dict() == expected.to_dict()


def test_win_rate_by_seat_matches_pandas(two_runs):
    sql = query(WIN_RATE_BY_SEAT, two_runs["catalog"])
    games = both(two_runs, "games")
    finished = games[games.status == "finished"]
    rates = [finished.winners.map(lambda w, seat=seat: seat in list(w)).mean() for seat in range(4)]
    assert sql.games.tolist() == [len(finished)] * 4
    assert sql.win_rate.tolist() == pytest.approx(rates)


def test_nation_figures_match_pandas(two_runs):
    sql = query("""SELECT run, nation, count(*) AS turns, avg(treasury) AS treasury, max(power_points) AS pp,
                          sum(tax_revenue) AS revenue
                   FROM nation_turns GROUP BY run, nation ORDER BY run, nation""", two_runs["catalog"])
    frame = both(two_runs, "nation_turns")
    frame["nation"] = frame.nation.astype(str)
    grouped = frame.groupby(["run", "nation"], observed=True).agg(
        turns=("turn", "size"), treasury=("treasury", "mean"), pp=("power_points", "max"),
        revenue=("tax_revenue", "sum")).reset_index()
    for column in ("turns", "pp", "revenue"):
        assert sql[column].tolist() == grouped[column].astype(int).tolist(), column
    assert sql.treasury.tolist() == pytest.approx(grouped.treasury.astype(float).tolist())


def test_events_and_players_match_pandas(two_runs):
    sql = query("SELECT kind, count(*) AS n FROM events GROUP BY kind ORDER BY kind", two_runs["catalog"])
    events = both(two_runs, "events")
    assert dict(zip(sql.kind, sql.n)) == events.kind.astype(str).value_counts().to_dict()
    final = query("""SELECT run, game_id, player, score FROM players
                     QUALIFY turn = max(turn) OVER (PARTITION BY run, game_id) ORDER BY run, game_id, player""",
                  two_runs["catalog"])
    games = both(two_runs, "games").sort_values(["run", "game_id"])
    assert final.score.tolist() == [s for scores in games.scores for s in scores]


def empty_catalogue(folder: Path) -> Path:
    catalog = folder / "empty.duckdb"
    connect(catalog).close()
    return catalog


def test_a_catalogue_without_runs_has_empty_typed_views(tmp_path):
    catalog = empty_catalogue(tmp_path)
    assert query("SELECT count(*) AS n FROM games", catalog).n.tolist() == [0]
    columns = query("DESCRIBE nation_turns", catalog)
    assert columns.column_name.tolist() == [name for name, _, _ in TABLES["nation_turns"]]
    assert list_runs(catalog).empty


def test_registering_rebuilds_the_views_and_skips_vanished_runs(two_runs, tmp_path):
    catalog = tmp_path / "lab.duckdb"
    copies = {}
    for name, folder in two_runs["runs"].items():
        copies[name] = tmp_path / name
        shutil.copytree(folder, copies[name])
    register_run(copies["alpha"], "complete", catalog)
    assert query("SELECT count(*) AS n FROM games", catalog).n.tolist() == [8]
    shutil.rmtree(copies["alpha"])
    register_run(copies["beta"], "complete", catalog)
    assert query("SELECT DISTINCT run FROM games", catalog).run.tolist() == ["beta"]


def test_one_name_cannot_stand_for_two_folders(two_runs, tmp_path):
    other = tmp_path / "alpha"
    shutil.copytree(two_runs["runs"]["alpha"], other)
    with pytest.raises(CatalogError, match="already has a run named 'alpha'"):
        register_run(other, "complete", two_runs["catalog"])


def test_bad_sql_is_a_catalog_error(two_runs, capsys):
    with pytest.raises(CatalogError, match="query: .*no_such_table"):
        query("SELECT * FROM no_such_table", two_runs["catalog"])
    assert main(["query", "SELECT nope", "--catalog", str(two_runs["catalog"])]) == 2
    assert capsys.readouterr().err.startswith("imperial: error: query:")


def test_cli_runs_and_query(two_runs, capsys):
    assert main(["runs", "--catalog", str(two_runs["catalog"])]) == 0
    out = capsys.readouterr().out
    assert "alpha" in out and "three_nations_each" in out
    assert main(["query", WIN_RATE_BY_SEAT, "--csv", "--catalog", str(two_runs["catalog"])]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "seat,games,win_rate" and len(lines) == 5


# ----- import -----

@pytest.fixture(scope="module")
def logs(tmp_path_factory) -> dict[str, Path]:
    """Two good logs (one finished, one stopped early) and two bad ones."""
    folder = tmp_path_factory.mktemp("logs")
    good = folder / "good.jsonl"
    assert main(["play", "--seed", "4", "--setup", "two_powers", "--log", str(good), "--json"]) == 0
    lines = good.read_text().splitlines()
    paths = {"good": good, "short": folder / "short.jsonl", "illegal": folder / "illegal.jsonl",
             "malformed": folder / "malformed.jsonl"}
    paths["short"].write_text("\n".join(lines[:30]) + "\n")
    illegal = list(lines)
    illegal[11] = json.dumps({**json.loads(illegal[11]), "action": "rondel beach"})
    paths["illegal"].write_text("\n".join(illegal) + "\n")
    paths["malformed"].write_text(lines[0] + "\n" + lines[1] + "\n{oops\n")
    return paths


def test_import_adds_the_good_logs_and_names_the_bad_lines(logs, tmp_path, capsys):
    catalog = tmp_path / "lab.duckdb"
    argv = ["import", *(str(logs[k]) for k in ("good", "illegal", "short", "malformed")), "--run", "club",
            "--out", str(tmp_path / "club"), "--catalog", str(catalog)]
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert f"{logs['illegal']}:12: cannot parse action 'rondel beach'" in err
    assert f"{logs['malformed']}:3: not valid JSON" in err
    assert "Imported 2 games into run club" in out
    games = query("SELECT game_id, status, setup, seed FROM games ORDER BY game_id", catalog)
    assert games.values.tolist() == [[0, "finished", "two_powers", 4], [1, "unfinished", "two_powers", 4]]
    # Nothing of a bad file: every row of every table belongs to one of the two good games.
    for table in TABLES:
        assert set(query(f"SELECT DISTINCT game_id FROM {table}", catalog).game_id) <= {0, 1}
    assert list_runs(catalog).loc[0, ["name", "games", "status"]].tolist() == ["club", 2, "imported"]


def test_imported_game_agrees_with_replay(logs, tmp_path, capsys):
    import_logs([logs["good"]], "solo", tmp_path / "solo")
    game = read_run(tmp_path / "solo", "games").iloc[0]
    assert main(["replay", str(logs["good"]), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert list(game.winners) == summary["winners"] and list(game.scores) == summary["scores"]
    assert game.nation_turns == summary["nation_turns"] and game.decisions == summary["decisions"]


def test_importing_again_adds_only_new_logs(logs, tmp_path):
    first = import_logs([logs["good"]], "club", tmp_path / "club")
    again = import_logs([logs["good"], logs["short"]], "club", tmp_path / "club")
    assert (first["added"], again["added"], again["skipped"]) == (1, 1, [str(logs["good"])])
    assert read_run(tmp_path / "club", "games").game_id.tolist() == [0, 1]
    assert sorted(runstore.markers(tmp_path / "club")) == [0, 1]


def test_import_refuses_a_simulation_folder(two_runs):
    with pytest.raises(RunError, match="kind 'simulate'"):
        import_logs([], "alpha", two_runs["runs"]["alpha"])


def test_empty_views_have_the_types_of_the_parquet_files(two_runs, tmp_path):
    full = {table: query(f"DESCRIBE {table}", two_runs["catalog"]) for table in TABLES}
    catalog = empty_catalogue(tmp_path)
    for table in TABLES:
        empty = query(f"DESCRIBE {table}", catalog)
        assert empty.column_type.tolist() == full[table].column_type.tolist(), table


# ----- consistency (issue 21) -----

KILLED_REGISTRATION = """
import os, sys
from imperial_lab.core import catalog
catalog._create_views = lambda con: os._exit(9)  # killed after the row of runs, before the views are rebuilt
catalog.register_run(sys.argv[1], "complete", sys.argv[2])
"""


def test_a_registration_killed_half_way_leaves_the_catalogue_as_it_was(two_runs, tmp_path):
    """A run's row and the views that show its rows are one transaction: a process killed between them
    (a kill right after the last chunk) leaves neither, so the catalogue never lists a run whose rows a
    query cannot see; registering again then shows both."""
    catalog = tmp_path / "lab.duckdb"
    shutil.copy(two_runs["catalog"], catalog)
    copy = tmp_path / "gamma"
    shutil.copytree(two_runs["runs"]["alpha"], copy)
    run_json = json.loads((copy / runstore.RUN_FILE).read_text())
    runstore.write_json(copy / runstore.RUN_FILE, {**run_json, "name": "gamma"})
    done = subprocess.run([sys.executable, "-c", KILLED_REGISTRATION, str(copy), str(catalog)], timeout=300)
    assert done.returncode == 9
    assert sorted(list_runs(catalog).name) == ["alpha", "beta"]
    assert query("SELECT count(*) AS n FROM games", catalog).n.tolist() == [16]
    register_run(copy, "complete", catalog)
    assert sorted(list_runs(catalog).name) == ["alpha", "beta", "gamma"]
    assert query("SELECT count(*) AS n FROM games", catalog).n.tolist() == [24]  # gamma's copies of alpha's games


def test_a_run_folder_that_has_gone_is_left_out_of_queries_with_a_warning(two_runs, tmp_path, capsys, caplog):
    """docs/batch-runs.md: a registered run whose folder was deleted is left out of the queries (and of
    ``imperial runs``) with one warning line, instead of every query on its tables failing."""
    catalog = tmp_path / "lab.duckdb"
    copies = {}
    for name, folder in two_runs["runs"].items():
        copies[name] = tmp_path / name
        shutil.copytree(folder, copies[name])
        register_run(copies[name], "complete", catalog)
    shutil.rmtree(copies["alpha"])
    capsys.readouterr()
    caplog.clear()
    assert main(["query", "SELECT DISTINCT run FROM games", "--catalog", str(catalog)]) == 0
    out = capsys.readouterr().out
    assert "beta" in out and "alpha" not in out
    assert [record.getMessage() for record in caplog.records] == [
        f"imperial: warning: the run 'alpha' is left out of queries: its folder {copies['alpha']} has gone"]
    assert list_runs(catalog).name.tolist() == ["beta"]


def test_a_new_catalogue_that_fails_to_be_made_leaves_nothing(tmp_path, monkeypatch):
    """Out of memory (or any failure) while a new catalogue is made: no file and no folder is left."""
    from imperial_lab.core import catalog as module

    def out_of_memory(con):
        raise MemoryError
    monkeypatch.setattr(module, "_create_views", out_of_memory)
    path = tmp_path / "new" / "deeper" / "lab.duckdb"
    with pytest.raises(MemoryError):
        connect(path)
    assert list(tmp_path.iterdir()) == []
