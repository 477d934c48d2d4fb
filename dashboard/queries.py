"""SQL over the catalogue's views (imperial_lab.core.catalog) for the pages of every game: ``fetch`` (one
statement, a small DataFrame out), the runs table and the runs' fingerprints. A game's own questions
(Imperial 2030's: dashboard/games/imperial2030/queries.py) are built on ``fetch``; ``fetch``
also answers over one game's tables held in memory (an uploaded log), given instead of the path. No
Streamlit here, so notebooks and tests call the same functions; ``imperial_lab.dashboard.cache`` wraps them.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager

import duckdb
import pandas as pd

from imperial_lab.core import runstore
from imperial_lab.core.catalog import CatalogError, connect

_SHARED = threading.local()  # per thread: catalogue path -> the reader one_reader shares (None until a query)


def fetch(catalog, sql: str, params: list | tuple = ()) -> pd.DataFrame:
    """One parameterised SQL statement over the catalogue (read-only), as a DataFrame. ``catalog`` may
    also be tables held in memory (see ``_connect``). Inside ``one_reader(catalog)`` it uses the
    block's connection."""
    shared = _shared()
    if not isinstance(catalog, dict) and str(catalog) in shared:
        if shared[str(catalog)] is None:
            shared[str(catalog)] = connect(catalog, read_only=True)
        return _execute(shared[str(catalog)], sql, params)
    with _connect(catalog) as con:
        return _execute(con, sql, params)


@contextmanager
def one_reader(catalog):
    """Inside the block, this thread's queries of ``catalog`` share one read-only connection, opened by
    the first of them (none when every answer comes from the cache), instead of one each: opening
    one costs tens of milliseconds, most of it DuckDB's start, and a page asks a handful at once.
    Keep the block to reading: while the connection is open, the file is attached and a writer of
    this process (a run being registered) could not open it."""
    shared, key = _shared(), str(catalog)
    if isinstance(catalog, dict) or key in shared:  # an upload's tables, or an enclosing block
        yield
        return
    shared[key] = None
    try:
        yield
    finally:
        con = shared.pop(key)
        if con is not None:
            con.close()


def _shared() -> dict:
    if not hasattr(_SHARED, "readers"):
        _SHARED.readers = {}
    return _SHARED.readers


def _execute(con, sql: str, params) -> pd.DataFrame:
    try:
        return con.execute(sql, list(params)).df()
    except duckdb.Error as exc:
        raise CatalogError(f"query: {exc}") from None


def _connect(catalog) -> duckdb.DuckDBPyConnection:
    """A read-only connection to the catalogue file, or, for a dict of DataFrames (``imperial_lab.core.tables.frames``
    of an uploaded log), an in-memory database holding each under its table's name: the queries of one
    game then answer for a game that is in no catalogue. Categories become strings there, as they are
    in the catalogue's Parquet files (DuckDB would sort them in their categories' order)."""
    if not isinstance(catalog, dict):
        return connect(catalog, read_only=True)
    con = duckdb.connect()
    for name, table in catalog.items():
        strings = {column: "string" for column, dtype in table.dtypes.items() if dtype == "category"}
        con.register(name, table.astype(strings))
    return con


def runs_filter(runs, column: str = "run") -> tuple[str, list]:
    """``column IN (?, ...)``: constants the Parquet scan can prune row groups with (one run per chunk file)."""
    names = [runs] if isinstance(runs, str) else list(runs)
    if not names:
        return "false", []
    return f"{column} IN ({', '.join('?' * len(names))})", names


# ----- the runs table -----

def runs(catalog) -> pd.DataFrame:
    """The catalogue's runs, newest first: name, setup, players, bots, games, status, created, chunks,
    path, ``rotate``: whether the run turns its line-up by one seat per game (a league), and ``game``:
    the game its games are of (``imperial2030``, ``imperia``, ...), so that a game's pages pick its runs.

    ``rotate`` and ``game`` come from each run's run.json, since the catalogue's runs table does not
    hold them; a run.json that is missing or unreadable counts as not rotated and of the default game
    (the sidebar must not fail on it)."""
    table = fetch(catalog, "SELECT name, setup, players, bots, games, status, created, chunks, path FROM runs "
                           "ORDER BY created DESC, name")
    table["rotate"] = [runstore.is_rotated(path) for path in table["path"]]
    table["game"] = [runstore.run_game(path) for path in table["path"]]
    return table


def fingerprint(table: pd.DataFrame, runs) -> tuple:
    """The rows of ``runs`` in the runs table ``table`` (``runs(catalog)``): they change whenever a run
    gains chunks or is registered again, so cached answers keyed by them are never stale. Read from the
    table the sidebar already holds: a connection to the catalogue costs tens of milliseconds."""
    names = [runs] if isinstance(runs, str) else list(runs)
    rows = table[table["name"].isin(names)].sort_values("name")[["name", "created", "games", "chunks", "status"]]
    return tuple(tuple(str(value) for value in row) for row in rows.itertuples(index=False))
