"""Readers of the catalogue (imperial_lab.core.catalog.query, connect(read_only=True)): one SELECT, nothing
written, no file read but the tables of the registered runs, every error on one line."""

from __future__ import annotations

from types import SimpleNamespace

import duckdb
import pytest

from imperial_lab.core.files import HOME_ENV
from imperial_lab.core.catalog import (CATALOG_ENV, MESSAGE_LIMIT, CatalogError, connect, default_catalog,
                          list_runs, query)
from imperial_lab.core.simulate import simulate
from tests.file_snapshots import snapshot


@pytest.fixture(scope="module")
def lab(tmp_path_factory) -> SimpleNamespace:
    """One run of two games in its catalogue, and files next to it that no query may read."""
    root = tmp_path_factory.mktemp("sandbox")
    catalog, run = root / "lab.duckdb", root / "runs" / "tiny"
    simulate(run, 2, None, "standard", ["random"] * 4, 1, workers=1, chunk_size=1, catalog=catalog, progress=False)
    outside = root / "outside.csv"
    outside.write_text("secret\n42\n")
    other = root / "other.duckdb"
    with duckdb.connect(str(other)) as con:
        con.execute("CREATE TABLE secret AS SELECT 42 AS answer")
    return SimpleNamespace(root=root, catalog=catalog, run=run, outside=outside, other=other)


def refused(sql: str, lab, match: str) -> str:
    """The error of ``sql``, checked to be one line that matches, with every file left as it was."""
    before = snapshot(lab.root)
    with pytest.raises(CatalogError, match=match) as caught:
        query(sql, lab.catalog)
    assert snapshot(lab.root) == before
    message = str(caught.value)
    assert "\n" not in message
    return message


# ----- what a query may do -----

def test_selects_over_the_views_and_the_runs_table_work(lab):
    assert query("SELECT count(*) AS n FROM games", lab.catalog).n.tolist() == [2]
    assert query("SELECT count(*) AS n FROM events WHERE run = ? AND game_id = $2", lab.catalog,
                 ["tiny", 1]).n.iloc[0] > 0
    assert query("WITH g AS (FROM games) SELECT list_contains(winners, 0) AS won FROM g", lab.catalog).shape == (2, 1)
    assert "nation_turns" in query("SHOW TABLES", lab.catalog).name.tolist()
    assert list_runs(lab.catalog).name.tolist() == ["tiny"]


def test_two_readers_at_once(lab):
    """Dashboard sessions share a process: each reader sets its sandbox on a database of its own."""
    with connect(lab.catalog, read_only=True) as first, connect(lab.catalog, read_only=True) as second:
        assert first.execute("SELECT count(*) FROM games").fetchone() == second.execute(
            "SELECT count(*) FROM games").fetchone() == (2,)


# ----- what it may not -----

@pytest.mark.parametrize("sql, kind", [
    ("ATTACH '{other}' AS other", "ATTACH"),
    ("DETACH catalogue", "DETACH"),
    ("INSTALL httpfs", "LOAD"),
    ("LOAD httpfs", "LOAD"),
    ("SET enable_external_access = true", "SET"),
    ("RESET lock_configuration", "SET"),
    ("USE memory", "SET"),
    ("CREATE TABLE notes AS SELECT 1", "CREATE"),
    ("CREATE TEMP TABLE notes AS SELECT 1", "CREATE"),
    ("INSERT INTO runs (name, path) VALUES ('x', 'y')", "INSERT"),
    ("UPDATE runs SET games = 0", "UPDATE"),
    ("DELETE FROM runs", "DELETE"),
    ("DROP VIEW games", "DROP"),
    ("PRAGMA show_tables", "PRAGMA"),
    ("CALL pragma_version()", "CALL"),
    ("EXPORT DATABASE '{root}/export'", "EXPORT"),
    ("EXPLAIN SELECT 1", "EXPLAIN"),
    ("CHECKPOINT", "CALL"),
])
def test_only_a_select_statement_runs(lab, sql, kind):
    sql = sql.format(other=lab.other, root=lab.root)
    assert refused(sql, lab, "query: only a SELECT statement") == \
        f"query: only a SELECT statement may run on the catalogue, not {kind}"


def test_copy_to_is_refused_and_writes_no_file(lab):
    for target in (lab.root / "copy.csv", lab.run / "games" / "copy.csv"):  # the second is a folder a query reads
        refused(f"COPY (SELECT * FROM games) TO '{target}'", lab, "not COPY")
        assert not target.exists()


def test_one_statement_at_a_time(lab):
    refused("SELECT 1; SELECT 2", lab, "^query: one statement at a time, not 2$")
    refused("SELECT 1; DROP VIEW games", lab, "one statement at a time")
    for empty in ("", "   \n", ";", "-- a comment"):
        with pytest.raises(CatalogError, match="^query: the query is empty$"):
            query(empty, lab.catalog)


@pytest.mark.parametrize("reader", [
    "read_csv('/etc/passwd')", "read_text('/etc/passwd')", "read_csv('{outside}')", "glob('/*')",
    "read_text('{run}/run.json')",  # in the run folder, but not a table: a query reads the tables only
    "read_parquet('{run}/games/../../../outside.csv')", "'{other}'", "read_blob('{other}')",
    "read_csv('https://example.com/data.csv')",
])
def test_no_file_but_the_tables_of_the_runs_can_be_read(lab, reader):
    sql = "SELECT * FROM " + reader.format(outside=lab.outside, run=lab.run, other=lab.other)
    assert refused(sql, lab, "Permission Error").endswith("(a query reads only the tables of the catalogue's runs)")


def test_a_reader_cannot_lift_its_sandbox(lab):
    """connect(read_only=True), the connection of the dashboard's own queries, runs any statement:
    the locked configuration still holds."""
    with connect(lab.catalog, read_only=True) as con:
        for sql in ("SET enable_external_access = true", "SET lock_configuration = false",
                    "SET allowed_directories = ['/']", "RESET lock_configuration"):
            with pytest.raises(duckdb.InvalidInputException, match="locked"):
                con.execute(sql)
        with pytest.raises(duckdb.PermissionException):
            con.execute(f"SELECT * FROM read_csv('{lab.outside}')")
        with pytest.raises(duckdb.Error):
            con.execute("DELETE FROM runs")
    assert list_runs(lab.catalog).name.tolist() == ["tiny"]


# ----- errors -----

def test_duckdb_errors_are_one_clipped_line(lab):
    message = refused("SELECT * FROM no_such_table", lab, "^query: Catalog Error: Table with name no_such_table")
    assert "LINE 1" not in message
    long = refused("SELECT * FROM " + "x" * 2000, lab, "^query: Catalog Error")
    assert len(long) <= len("query: ") + MESSAGE_LIMIT and long.endswith("…")
    refused("SELEC 1", lab, '^query: Parser Error: syntax error at or near "SELEC"$')


def test_a_missing_catalogue_is_an_error_and_nothing_is_created(tmp_path):
    catalog = tmp_path / "nowhere" / "lab.duckdb"
    for read in (lambda: query("SELECT 1", catalog), lambda: list_runs(catalog)):
        with pytest.raises(CatalogError, match=f"^no catalogue at {catalog}: run imperial simulate or imperial "
                                               f"import first$"):
            read()
    with connect(catalog, read_only=True) as con:  # what the dashboard shows on a first start: no runs
        assert con.execute("SELECT count(*) FROM games").fetchone() == (0,)
        assert con.execute("SELECT count(*) FROM runs").fetchone() == (0,)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("content, match", [
    (b"name,games\nalpha,8\n", "exists, but it is not a valid DuckDB database file"),
    (b"", "exists, but it is not a valid DuckDB database file"),
])
def test_a_file_that_is_not_a_catalogue_is_refused_by_name(tmp_path, content, match):
    catalog = tmp_path / "lab.duckdb"
    catalog.write_bytes(content)
    with pytest.raises(CatalogError, match=f"^catalogue {catalog}: IO Error: .*{match}"):
        query("SELECT 1", catalog)
    assert catalog.read_bytes() == content


def test_another_duckdb_database_is_not_a_catalogue(lab):
    before = snapshot(lab.other)
    with pytest.raises(CatalogError, match=f"^catalogue {lab.other}: a DuckDB file without a runs table"):
        query("SELECT * FROM secret", lab.other)
    assert snapshot(lab.other) == before


def test_the_default_catalogue_comes_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv(CATALOG_ENV, str(tmp_path / "mine.duckdb"))
    assert default_catalog() == tmp_path / "mine.duckdb"
    with pytest.raises(CatalogError, match=f"no catalogue at {tmp_path / 'mine.duckdb'}"):
        query("SELECT 1")
    monkeypatch.setenv(CATALOG_ENV, "")
    monkeypatch.setenv(HOME_ENV, str(tmp_path / "home"))
    assert default_catalog() == tmp_path / "home" / "lab.duckdb"  # in the user folder
    monkeypatch.delenv(CATALOG_ENV)
    assert default_catalog() == tmp_path / "home" / "lab.duckdb"
