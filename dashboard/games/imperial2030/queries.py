"""Imperial 2030's questions as SQL over the catalogue's views (imperial_lab.core.catalog; its tables:
docs/data-dictionary.md): a catalogue path and run names in, a small DataFrame out. No Streamlit here,
so notebooks and tests call the same functions; ``imperial_lab.dashboard.cache`` wraps them for the pages. The
questions of one game also answer over that game's tables held in memory (an uploaded log:
``open_game``), given instead of the path (``imperial_lab.dashboard.queries.fetch``).

Every run-wide figure is aggregated by DuckDB (GROUP BY, windows), so a query returns a few hundred
rows whatever the size of the run: pages never pull a table of millions of rows into pandas.
Statistics over runs count finished games only (docs/data-dictionary.md: ``games.status``).
"""

from __future__ import annotations

import pandas as pd

from imperial_lab.core import runstore
from imperial_lab.core.bots import lineup_text
from imperial_lab.core.games.imperial2030.data import NATIONS
from imperial_lab.core.games.imperial2030.tables import LEAD_CHANGES_SQL
from imperial_lab.dashboard.queries import fetch, runs_filter

FINISHED = "SELECT run, game_id FROM games WHERE status = 'finished'"
# The per-game figures of a whole run that the Power & control page counts, each an SQL expression over
# one ``games`` row. Comparisons of runs take their per-game rows from the tables' COMPARE_SQL.
GAME_METRICS = {"rounds": "rounds"}
METRICS = (*GAME_METRICS, "lead_changes")


def overview(catalog, runs) -> pd.DataFrame:
    """One row per run: setup, players, bots (``imperial_lab.core.bots.lineup_text``: a league's entrants, since its
    games seat them in turn), games and how many of them finished."""
    where, params = runs_filter(runs)
    table = fetch(catalog, f"""
        SELECT run, any_value(setup) AS setup, any_value(players) AS players, count(*) AS games,
               count(*) FILTER (WHERE status = 'finished') AS finished
        FROM games WHERE {where} GROUP BY run ORDER BY run""", params)
    where, params = runs_filter(runs, "name")
    listed = fetch(catalog, f"SELECT name, bots, path FROM runs WHERE {where}", params)
    bots = {row.name: lineup_text(row.bots, runstore.is_rotated(row.path)) for row in listed.itertuples()}
    table.insert(3, "bots", table["run"].map(bots))
    return table


# ----- one game -----

def game_range(catalog, run: str) -> tuple[int, int]:
    """The smallest and largest game_id of a run ((0, -1) for a run without games)."""
    row = fetch(catalog, "SELECT min(game_id), max(game_id) FROM games WHERE run = ?", [run]).iloc[0]
    return (0, -1) if pd.isna(row.iloc[0]) else (int(row.iloc[0]), int(row.iloc[1]))


def game_summary(catalog, run: str, game_id: int) -> pd.DataFrame:
    """The games row of one game without its move log (one row, or none for an unknown id)."""
    return fetch(catalog, "SELECT * EXCLUDE (log) FROM games WHERE run = ? AND game_id = ?", [run, game_id])


def nation_race(catalog, run: str, game_id: int) -> pd.DataFrame:
    """Per nation turn: turn, round, nation, government, power_points and treasury at the end of the turn."""
    return fetch(catalog, """
        SELECT turn, round, nation, government, power_points, treasury FROM nation_turns
        WHERE run = ? AND game_id = ? ORDER BY turn""", [run, game_id])


def player_series(catalog, run: str, game_id: int) -> pd.DataFrame:
    """Per turn (0 = setup) and seat: cash and the score if the game ended then (§10)."""
    return fetch(catalog, """
        SELECT turn, player, cash, score FROM players
        WHERE run = ? AND game_id = ? ORDER BY turn, player""", [run, game_id])


def control_segments(catalog, run: str, game_id: int) -> pd.DataFrame:
    """Who governs each nation when: one row per government with the turn it began (``start``), the
    turn the next began or the game's last turn (``end``), the former government and the cause."""
    return fetch(catalog, """
        WITH last AS (SELECT nation_turns FROM games WHERE run = $1 AND game_id = $2)
        SELECT nation, new AS government, previous, cause, turn AS start,
               coalesce(lead(turn) OVER (PARTITION BY nation ORDER BY turn), (SELECT nation_turns FROM last)) AS "end"
        FROM control_changes WHERE run = $1 AND game_id = $2 ORDER BY nation, turn""", [run, game_id])


def bond_ownership(catalog, run: str, game_id: int) -> pd.DataFrame:
    """Credit sum (§9) each seat holds in each nation at every holdings snapshot, 0 where it holds none
    (the table lists holdings only): turn, player, nation, credit_sum, governs."""
    return fetch(catalog, """
        WITH h AS (SELECT turn, player, nation, credit_sum, governs FROM holdings WHERE run = $1 AND game_id = $2),
             grid AS (SELECT * FROM (SELECT DISTINCT turn FROM h), (SELECT DISTINCT player, nation FROM h))
        SELECT grid.turn, grid.player, grid.nation, coalesce(h.credit_sum, 0) AS credit_sum,
               coalesce(h.governs, false) AS governs
        FROM grid LEFT JOIN h USING (turn, player, nation) ORDER BY turn, player, nation""", [run, game_id])


# ----- a whole run -----

def ended_by(catalog, run: str) -> pd.DataFrame:
    """How many finished games each nation ended (§10): nation, games (every nation listed)."""
    return fetch(catalog, """
        SELECT n.nation, count(g.game_id) AS games
        FROM unnest($2::VARCHAR[]) AS n(nation)
        LEFT JOIN games g ON g.ended_by = n.nation AND g.run = $1 AND g.status = 'finished'
        GROUP BY n.nation ORDER BY list_position($2, n.nation)""", [run, list(NATIONS)])


def government_changes_per_game(catalog, run: str) -> pd.DataFrame:
    """Distribution of investor-caused government changes (§9) per finished game: changes, games."""
    return fetch(catalog, f"""
        WITH per_game AS (
            SELECT f.game_id, count(c.nation) AS changes
            FROM ({FINISHED} AND run = $1) f
            LEFT JOIN control_changes c ON c.run = $1 AND c.game_id = f.game_id AND c.cause = 'investor'
            GROUP BY f.game_id)
        SELECT changes, count(*) AS games FROM per_game GROUP BY changes ORDER BY changes""", [run])


def government_change_rounds(catalog, run: str) -> pd.DataFrame:
    """When governments change: investor-caused changes (§9) of finished games by round and nation."""
    return fetch(catalog, f"""
        SELECT t.round, c.nation, count(*) AS changes
        FROM control_changes c
        JOIN nation_turns t ON t.run = c.run AND t.game_id = c.game_id AND t.turn = c.turn
        WHERE c.run = $1 AND c.cause = 'investor' AND (c.run, c.game_id) IN ({FINISHED} AND run = $1)
        GROUP BY ALL ORDER BY t.round, c.nation""", [run])


def frequencies(catalog, runs, metric: str) -> pd.DataFrame:
    """The distribution of one per-game figure of METRICS over finished games: run, value, n (games)."""
    if metric == "lead_changes":
        return _lead_change_frequencies(catalog, runs)
    if metric not in GAME_METRICS:
        raise ValueError(f"unknown metric {metric!r} (known: {', '.join(METRICS)})")
    where, params = runs_filter(runs)
    return fetch(catalog, f"""
        SELECT run, value, count(*) AS n
        FROM (SELECT run, {GAME_METRICS[metric]} AS value FROM games WHERE status = 'finished' AND {where})
        GROUP BY run, value ORDER BY run, value""", params)


def _lead_change_frequencies(catalog, runs) -> pd.DataFrame:
    """Lead changes per finished game as comparisons count them (tables.LEAD_CHANGES_SQL), as a distribution."""
    names = [runs] if isinstance(runs, str) else list(runs)
    placeholders = ", ".join("?" * len(names)) or "NULL"  # no runs: no rows
    return fetch(catalog, f"""
        SELECT run, lead_changes AS value, count(*) AS n FROM ({LEAD_CHANGES_SQL.format(runs=placeholders)})
        GROUP BY run, value ORDER BY run, value""", names * 2)


# ----- win rates -----

def government_wins(catalog, runs) -> pd.DataFrame:
    """Per run and nation: finished games in which a seat governed the nation at the end of the setup
    (holdings at turn 0), and how many of them that seat won."""
    where, params = runs_filter(runs, "h.run")
    return fetch(catalog, f"""
        SELECT h.run, h.nation, count(*) AS games, count(*) FILTER (WHERE list_contains(g.winners, h.player)) AS wins
        FROM holdings h JOIN games g ON g.run = h.run AND g.game_id = h.game_id
        WHERE h.turn = 0 AND h.governs AND g.status = 'finished' AND {where}
        GROUP BY h.run, h.nation ORDER BY h.run, h.nation""", params)
