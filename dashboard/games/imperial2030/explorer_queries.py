"""The catalogue questions of the game explorer: the games of a run with their outcome, and one
game's move log (docs/data-dictionary.md: ``games.log``). No Streamlit here; the page caches them.
"""

from __future__ import annotations

import pandas as pd

from imperial_lab.dashboard.queries import fetch


def run_games(catalog, run: str) -> pd.DataFrame:
    """One row per game of the run, by id: game_id, status, winners, scores, nation_turns, rounds,
    ended_by, and whether a move log is stored (``has_log``)."""
    return fetch(catalog, """
        SELECT game_id, status, winners, scores, nation_turns, rounds, ended_by, log IS NOT NULL AS has_log
        FROM games WHERE run = ? ORDER BY game_id""", [run])


def game_log(catalog, run: str, game_id: int) -> str | None:
    """The game's move log (JSON Lines), None if the game or its log is missing."""
    rows = fetch(catalog, "SELECT log FROM games WHERE run = ? AND game_id = ?", [run, game_id])
    return None if rows.empty or pd.isna(rows.at[0, "log"]) else rows.at[0, "log"]

