"""The catalogue of runs (README "Batch runs"): an embedded DuckDB file with a ``runs`` table and,
per recorded table, a view over the Parquet files of every registered run, so that a question
across runs is one SQL query:

    SELECT run, count(*) FROM games GROUP BY run

The views list the files of finished chunks by name; they are rebuilt whenever a run is
registered (a resumed run registers again), and skip runs whose folder has gone.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import duckdb

from core import runstore
from core.errors import ImperialError
from core.tables import TABLES

DEFAULT_CATALOG = Path(__file__).resolve().parents[1] / "data" / "lab.duckdb"
RUNS_TABLE = """
CREATE TABLE IF NOT EXISTS runs (
    name VARCHAR PRIMARY KEY,  -- the run's name, also the ``run`` column of its tables
    path VARCHAR NOT NULL,     -- absolute path of the run folder
    created TIMESTAMP,         -- when the run was started
    games BIGINT,              -- games in finished chunks
    players INTEGER,           -- seats per game (NULL for imported games: see their games rows)
    setup VARCHAR,             -- (NULL for imported games)
    bots VARCHAR,              -- one name per seat, comma-separated (NULL for imported games)
    seed BIGINT,               -- the run's seed (NULL for imported games)
    status VARCHAR,            -- complete, partial (interrupted: resume it) or imported
    chunks INTEGER             -- finished chunks
)"""


class CatalogError(ImperialError):
    """A catalogue query failed (bad SQL, a run folder that has gone, ...)."""


INT_TYPES = {"8": "TINYINT", "16": "SMALLINT", "32": "INTEGER", "64": "BIGINT"}


def connect(catalog=DEFAULT_CATALOG, read_only: bool = False) -> duckdb.DuckDBPyConnection:
    """A connection to the catalogue file (created with its ``runs`` table if missing)."""
    path = Path(catalog)
    if read_only and not path.is_file():
        read_only = False  # a catalogue that does not exist yet has to be created once
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        con = duckdb.connect(str(path), read_only=read_only)
    except duckdb.Error as exc:  # e.g. another process holds the file for writing
        raise CatalogError(f"catalogue {path}: {exc}") from None
    if not read_only:
        con.execute(RUNS_TABLE)
        if not _views_exist(con):
            _create_views(con)
    return con


def register_run(folder, status: str, catalog=DEFAULT_CATALOG) -> dict:
    """Add or update the run in ``folder`` (its run.json and finished chunks); rebuild the views."""
    row = _run_row(Path(folder).resolve(), status)
    with connect(catalog) as con:
        clash = con.execute("SELECT path FROM runs WHERE name = ? AND path <> ?", [row["name"], row["path"]]).fetchone()
        if clash:
            raise CatalogError(f"the catalogue already has a run named {row['name']!r} at {clash[0]}; give this "
                               f"run another name (the --out folder's name; --run for an import)")
        con.execute("DELETE FROM runs WHERE name = ?", [row["name"]])
        con.execute(f"INSERT INTO runs ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})", list(row.values()))
        _create_views(con)
    return row


def list_runs(catalog=DEFAULT_CATALOG):
    """The ``runs`` table as a DataFrame, newest first."""
    return query("SELECT * FROM runs ORDER BY created DESC, name", catalog)


def query(sql: str, catalog=DEFAULT_CATALOG):
    """The result of one SQL statement over the catalogue, as a pandas DataFrame."""
    with connect(catalog, read_only=True) as con:
        try:
            return con.execute(sql).df()
        except duckdb.Error as exc:
            raise CatalogError(f"query: {exc}") from None


def _run_row(folder: Path, status: str) -> dict:
    params = runstore.read_run(folder)
    if params is None:
        raise runstore.RunError(f"{folder}: no run.json: not a run folder")
    done = runstore.markers(folder)
    return {"name": params.get("name", folder.name), "path": str(folder),
            "created": datetime.fromisoformat(params["created"]), "games": sum(m["count"] for m in done.values()),
            "players": params.get("players"), "setup": params.get("setup"),
            "bots": ",".join(params.get("bots") or []) or None, "seed": params.get("seed"), "status": status,
            "chunks": len(done)}


def _views_exist(con) -> bool:
    names = {row[0] for row in con.execute("SELECT view_name FROM duckdb_views() WHERE NOT internal").fetchall()}
    return set(TABLES) <= names


def _create_views(con) -> None:
    """One view per table over the finished chunks of every registered run still on disk."""
    folders = [Path(path) for (path,) in con.execute("SELECT path FROM runs ORDER BY name").fetchall()]
    for table, columns in TABLES.items():
        files = [str(path) for folder in folders if folder.is_dir() for path in runstore.chunk_files(folder, table)]
        con.execute(f"CREATE OR REPLACE VIEW {table} AS {_select(files, columns)}")


def _select(files: list[str], columns) -> str:
    if files:
        # Files of older runs may lack a newer column: union_by_name fills it with NULL.
        listed = ", ".join("'" + name.replace("'", "''") + "'" for name in files)
        return f"SELECT * FROM read_parquet([{listed}], union_by_name = true)"
    typed = ", ".join(f"CAST(NULL AS {_sql_type(dtype)}) AS {name}" for name, dtype, _ in columns)
    return f"SELECT {typed} WHERE false"


def _sql_type(dtype: str) -> str:
    """The DuckDB type a column of this TABLES dtype has in Parquet (categories are strings)."""
    if dtype.startswith("list<"):
        return _sql_type(dtype[5:-1]) + "[]"
    if dtype.lower().startswith("int"):
        return INT_TYPES[dtype[3:]]
    return {"bool": "BOOLEAN", "float64": "DOUBLE"}.get(dtype, "VARCHAR")
