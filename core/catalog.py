"""The catalogue of runs (docs/batch-runs.md): an embedded DuckDB file with a ``runs`` table and,
per recorded table, a view over the Parquet files of every registered run, so that a question
across runs is one SQL query:

    SELECT run, count(*) FROM games GROUP BY run

The views list the files of finished chunks by name; they are rebuilt whenever a run is
registered (a resumed run registers again), in the same transaction as its row of ``runs``, so a
command killed half-way leaves the catalogue as it was before: it never lists a run whose rows a
query cannot see. They skip runs whose folder has gone or is damaged; a reader leaves out, with a
warning, a run whose folder has gone since (``runs`` too).

Readers are sandboxed: ``connect(read_only=True)`` attaches the file read-only to a private
in-memory database that may read only the table folders of the registered runs that exist, as real
paths (DuckDB's ``allowed_directories``, then ``enable_external_access = false`` and
``lock_configuration``), and ``query`` runs a single SELECT. A run whose folder, table folders or
anything inside them is a symbolic link is refused (a link to ``/`` would open the whole file
system to a query). So a query can neither write nor read any other file.
"""

from __future__ import annotations

import logging
import os
from datetime import datetime
from pathlib import Path
from typing import Any

import duckdb

from imperial_lab.core import runstore
from imperial_lab.core.errors import ImperialError, OutOfMemory, out_of_memory
from imperial_lab.core.files import user_folder
from imperial_lab.core.runstore import RunError
from imperial_lab.core.tables import all_tables

CATALOG_FILE = "lab.duckdb"  # in the user folder (imperial_lab.core.files)
CATALOG_ENV = "IMPERIAL_LAB_CATALOG"
ALIAS = "catalogue"  # the attached file's name inside a reader's in-memory database
MESSAGE_LIMIT = 300  # characters of a DuckDB error kept in a CatalogError (its first line)
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
# A reader writes nothing: no spilling to a temporary folder, no scan of the caller's Python variables.
READER_CONFIG: dict[str, Any] = {"temp_directory": "", "python_enable_replacements": False}

log = logging.getLogger(__name__)


class CatalogError(ImperialError):
    """A catalogue query failed (bad SQL, a run folder that has gone, ...)."""


INT_TYPES = {"8": "TINYINT", "16": "SMALLINT", "32": "INTEGER", "64": "BIGINT"}


def default_catalog() -> Path:
    """The catalogue file named by the environment variable IMPERIAL_LAB_CATALOG, else lab.duckdb in the user folder (imperial_lab.core.files)."""
    return Path(os.environ.get(CATALOG_ENV) or user_folder() / CATALOG_FILE)


def connect(catalog=None, read_only: bool = False) -> duckdb.DuckDBPyConnection:
    """A connection to the catalogue file (default ``default_catalog()``).

    For writing, the file is created with its ``runs`` table if missing. For reading, it is
    sandboxed (see the module's docstring), and a missing file reads as an empty catalogue: nothing
    is created.
    """
    path = _path(catalog)
    if read_only:
        return _reader(path)
    _check_place(path)
    new = not path.exists()
    folders = [folder for folder in (path.parent, *path.parent.parents) if not folder.exists()]
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        con = _opened(path, lambda: duckdb.connect(str(path)))
        try:
            _check_is_catalogue(con, path)
            con.execute(RUNS_TABLE)
            if not _views_exist(con):
                _create_views(con)
        except BaseException:
            con.close()
            raise
    except BaseException:
        if new:  # nothing half-made is left behind: the file and the folders made for it go
            _remove_new(path, folders)
        raise
    return con


def _remove_new(path: Path, folders: list[Path]) -> None:
    """Remove a catalogue file that was being created (and its write-ahead log), then the folders
    made for it, innermost first."""
    for file in (path, path.with_name(path.name + ".wal")):
        file.unlink(missing_ok=True)
    for folder in folders:
        try:
            folder.rmdir()
        except OSError:  # not empty after all: somebody else's now
            break


def check_catalog(run: str, folder, catalog=None) -> None:
    """Refuse now (CatalogError), without writing anything, a catalogue that ``register_run(folder)``
    would refuse after the games: a file that is not a catalogue, locked by another process or
    not writable, a folder that cannot be created, or ``run`` naming a run at another folder."""
    path = _path(catalog)
    _check_place(path)
    if not path.exists():
        return
    if not os.access(path, os.W_OK):
        raise CatalogError(f"catalogue {path}: the file is not writable")
    with _reader(path) as con:
        clash = _clash(con, run, Path(folder).resolve())
    if clash:
        raise CatalogError(clash)


def register_run(folder, status: str, catalog=None) -> dict:
    """Add or update the run in ``folder`` (its run.json and finished chunks); rebuild the views."""
    folder = Path(folder).resolve()
    row = _run_row(folder, status)
    with connect(catalog) as con:
        clash = _clash(con, row["name"], folder)
        if clash:
            raise CatalogError(clash)
        # One transaction: the row and the views that show its rows are committed together or not at all.
        con.begin()
        con.execute("DELETE FROM runs WHERE name = ?", [row["name"]])
        try:
            con.execute(f"INSERT INTO runs ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})",
                        list(row.values()))
        except duckdb.Error as exc:  # e.g. a number of run.json beyond the column's type
            con.rollback()
            raise CatalogError(f"{folder}: cannot register the run: {_one_line(exc)}") from None
        _create_views(con)
        con.commit()
    return row


def list_runs(catalog=None):
    """The ``runs`` table as a DataFrame, newest first."""
    return query("SELECT * FROM runs ORDER BY created DESC, name", catalog)


def query(sql: str, catalog=None, params=None):
    """The result of one SELECT statement over the catalogue, as a pandas DataFrame.

    ``params`` fill its ``?`` or ``$1`` placeholders. Any other statement, several statements, or a
    catalogue file that does not exist is a CatalogError.
    """
    path = _path(catalog)
    if not path.exists():
        raise CatalogError(f"no catalogue at {path}: run imperial simulate or imperial import first")
    _load_pandas()
    with _reader(path) as con:
        try:
            _check_select(con.extract_statements(sql))
            return con.execute(sql, params).df()
        except duckdb.OutOfMemoryException as exc:
            raise OutOfMemory(f"out of memory while running the query: {_one_line(exc)}") from None
        except duckdb.PermissionException as exc:
            raise CatalogError(f"query: {_one_line(exc)} (a query reads only the tables of the catalogue's "
                               f"runs)") from None
        except duckdb.Error as exc:
            raise CatalogError(f"query: {_one_line(exc)}") from None


# ----- reading -----

def _load_pandas() -> None:
    """Import pandas here, so that a failure says why: DuckDB's ``.df()`` would blame a missing
    install for an import that ran out of memory."""
    try:
        import pandas  # noqa: F401
    except ImportError as exc:
        if out_of_memory(exc):
            raise OutOfMemory(f"out of memory while loading pandas for the query's result ({exc})") from None
        raise


def _path(catalog) -> Path:
    return Path(catalog) if catalog is not None else default_catalog()


def _reader(path: Path) -> duckdb.DuckDBPyConnection:
    """A sandboxed read-only connection. It is a private in-memory database with the file attached:
    DuckDB shares one instance among the connections to a file, and the sandbox settings are the
    instance's, so they could not be set again for a second reader (nor for a writer)."""
    con = duckdb.connect(":memory:", config=READER_CONFIG)
    try:
        has_runs, gone = False, []
        if path.exists():
            quoted = str(path).replace("'", "''")
            _opened(path, lambda: con.execute(f"ATTACH '{quoted}' AS {ALIAS} (READ_ONLY)"))
            con.execute(f"USE {ALIAS}")
            has_runs = _check_is_catalogue(con, path)
            gone = _gone_runs(con) if has_runs else []
        if gone or not _views_exist(con):  # a missing or empty file, a run folder that has gone: made here
            con.execute("USE memory")
            if has_runs:
                con.execute(f"CREATE TABLE runs AS FROM {ALIAS}.runs WHERE NOT list_contains(?, name)", [gone])
            else:
                con.execute(RUNS_TABLE)
            _create_views(con)
        # The order matters: the folders can no longer be set once external access is off.
        con.execute(f"SET allowed_directories = {_sql_list(_table_folders(con))}")
        con.execute("SET enable_external_access = false")
        con.execute("SET lock_configuration = true")
    except BaseException:
        con.close()
        raise
    return con


def _gone_runs(con) -> list[str]:
    """The names of the registered runs whose folder has gone, each named in a warning: they are
    left out of the reader's ``runs`` and views (whose files would be missing)."""
    gone = []
    for name, path in con.execute("SELECT name, path FROM runs ORDER BY name").fetchall():
        if not Path(path).is_dir():
            log.warning("imperial: warning: the run %r is left out of queries: its folder %s has gone", name, path)
            gone.append(name)
    return gone


def _table_folders(con) -> list[str]:
    """The folders the views read: each table folder that exists in a registered run (with a slash,
    since DuckDB allows every path that starts with one). CatalogError for a run whose folder or
    table folders are symbolic links or hold one: DuckDB allows a path by its text, so a link would
    let a query read wherever it points."""
    folders = []
    for name, path in con.execute("SELECT name, path FROM runs ORDER BY name").fetchall():
        run = Path(path)
        if run.is_dir():
            folders += _real_table_folders(name, run)
    return folders


def _real_table_folders(name: str, run: Path) -> list[str]:
    if run.resolve() != run:
        raise CatalogError(f"run {name!r}: its folder {run} is a symbolic link or has one on its way (to "
                           f"{run.resolve()}); a query reads only real folders: register the run at its real place")
    found = []
    for table in all_tables():
        folder = run / table
        if folder.is_symlink():
            _refuse_link(name, folder)
        if folder.is_dir():
            _check_no_links(name, folder)
            found.append(f"{folder}{os.sep}")
    return found


def _check_no_links(name: str, folder: Path) -> None:
    """Refuse a symbolic link anywhere under ``folder`` (without following any: ``scandir`` tells a
    link from what it points to without a further system call)."""
    todo = [folder]
    while todo:
        with os.scandir(todo.pop()) as entries:
            for entry in entries:
                if entry.is_symlink():
                    _refuse_link(name, Path(entry.path))
                if entry.is_dir(follow_symlinks=False):
                    todo.append(Path(entry.path))


def _refuse_link(name: str, link: Path):
    raise CatalogError(f"run {name!r}: {link} is a symbolic link (to {os.readlink(link)}); a run's tables must be "
                       f"real files inside its folder: remove the link")


def _check_select(statements) -> None:
    if not statements:  # only blanks, semicolons or comments
        raise CatalogError("query: the query is empty")
    if len(statements) != 1:
        raise CatalogError(f"query: one statement at a time, not {len(statements)}")
    kind = statements[0].type
    if kind != duckdb.StatementType.SELECT:
        raise CatalogError(f"query: only a SELECT statement may run on the catalogue, not {kind.name}")


def _one_line(exc: duckdb.Error) -> str:
    """The first line of a DuckDB error (the rest points at the SQL), at most MESSAGE_LIMIT characters."""
    first = next((line for line in str(exc).splitlines() if line.strip()), type(exc).__name__)
    return first if len(first) <= MESSAGE_LIMIT else first[:MESSAGE_LIMIT - 1] + "…"


def _opened(path: Path, open_file):
    """``open_file()``, its DuckDB error (no DuckDB file, locked by another process) as one line."""
    try:
        return open_file()
    except duckdb.OutOfMemoryException as exc:
        raise OutOfMemory(f"out of memory while opening the catalogue {path}: {_one_line(exc)}") from None
    except duckdb.Error as exc:
        raise CatalogError(f"catalogue {path}: {_one_line(exc)}") from None


def _check_is_catalogue(con, path: Path) -> bool:
    """Whether the file has its ``runs`` table yet. A DuckDB file of other tables is someone else's
    database: the lab never adds its own to it."""
    tables = {name for (name,) in con.execute("SELECT table_name FROM duckdb_tables() WHERE database_name = "
                                              "current_database()").fetchall()}
    if tables and "runs" not in tables:
        raise CatalogError(f"catalogue {path}: a DuckDB file without a runs table, not a catalogue of this lab")
    return bool(tables)


def _check_place(path: Path) -> None:
    """``path`` is no folder, and can be created: the nearest folder that exists on its way is a
    writable folder."""
    if path.is_dir():
        raise CatalogError(f"catalogue {path}: is a folder, not a file")
    parent = path.parent
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir():
        raise CatalogError(f"catalogue {path}: {parent} is a file, not a folder")
    if not path.exists() and not os.access(parent, os.W_OK | os.X_OK):
        raise CatalogError(f"catalogue {path}: cannot create it in {parent}: the folder is not writable")


def _clash(con, name: str, folder: Path) -> str | None:
    """Why ``name`` cannot name the run at ``folder`` in this catalogue (None if it can)."""
    clash = con.execute("SELECT path FROM runs WHERE name = ? AND path <> ?", [name, str(folder)]).fetchone()
    if clash is None:
        return None
    return (f"the catalogue already has a run named {name!r} at {clash[0]}; give this run another name "
            f"(the --out folder's name; --run for an import)")


# ----- the runs table and the views -----

def _run_row(folder: Path, status: str) -> dict:
    params = runstore.read_run(folder)
    if params is None:
        raise RunError(f"{folder}: no run.json: not a run folder")
    done = runstore.markers(folder)
    return {"name": params["name"], "path": str(folder), "created": datetime.fromisoformat(params["created"]),
            "games": sum(m["count"] for m in done.values()), "players": params.get("players"),
            "setup": params.get("setup"), "bots": ",".join(params.get("bots") or []) or None,
            "seed": params.get("seed"), "status": status, "chunks": len(done)}


def _views_exist(con) -> bool:
    names = {row[0] for row in con.execute("SELECT view_name FROM duckdb_views() WHERE NOT internal AND "
                                           "database_name = current_database()").fetchall()}
    return set(all_tables()) <= names


def _create_views(con) -> None:
    """One view per table over the finished chunks of every registered run still on disk. A run
    whose markers are damaged is left out with a warning, so that it never stops the others."""
    files: dict[str, list[str]] = {table: [] for table in all_tables()}
    for (path,) in con.execute("SELECT path FROM runs ORDER BY name").fetchall():
        folder = Path(path)
        if not folder.is_dir():
            continue
        try:
            found = {table: runstore.chunk_files(folder, table) for table in all_tables()}
        except RunError as exc:
            log.warning("the run at %s is left out of the catalogue's views: %s", folder, exc)
            continue
        for table, paths in found.items():
            files[table] += map(str, paths)
    for table, columns in all_tables().items():
        con.execute(f"CREATE OR REPLACE VIEW {table} AS {_select(files[table], columns)}")


def _select(files: list[str], columns) -> str:
    if files:
        # Files of older runs may lack a newer column: union_by_name fills it with NULL.
        return f"SELECT * FROM read_parquet({_sql_list(files)}, union_by_name = true)"
    typed = ", ".join(f"CAST(NULL AS {_sql_type(dtype)}) AS {name}" for name, dtype, _ in columns)
    return f"SELECT {typed} WHERE false"


def _sql_list(texts: list[str]) -> str:
    return "[" + ", ".join("'" + text.replace("'", "''") + "'" for text in texts) + "]"


def _sql_type(dtype: str) -> str:
    """The DuckDB type a column of this dtype of a game's TABLES has in Parquet (categories are strings)."""
    if dtype.startswith("list<"):
        return _sql_type(dtype[5:-1]) + "[]"
    if dtype.lower().startswith("int"):
        return INT_TYPES[dtype[3:]]
    return {"bool": "BOOLEAN", "boolean": "BOOLEAN", "float64": "DOUBLE"}.get(dtype, "VARCHAR")
