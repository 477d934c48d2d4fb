"""The catalogue questions of the game explorer: the games of a run with their outcome, and one
game's move log (docs/data-dictionary.md: ``games.log``). No Streamlit here; the page caches them.
"""

from __future__ import annotations

import pandas as pd

from imperial_lab.core.catalog import CatalogError
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



def stored_chances(catalog, run: str, game_id: int) -> list[tuple[int, int, int, list[float]]]:
    """The game's chance line as ``imperial analyse --run`` stored it (the catalogue's ``win_chances``),
    in the shape of imperial_lab.core.analysis.win_chance_line; empty when the run was not analysed."""
    try:
        rows = fetch(catalog, """
            SELECT step, ply, mover, seat, win_chance FROM win_chances
            WHERE run = ? AND game_id = ? ORDER BY step, seat""", [run, game_id])
    except CatalogError:  # a catalogue made before the analysis tables existed has no such view
        return []
    line: dict[tuple[int, int, int], list[float]] = {}
    for row in rows.itertuples():
        line.setdefault((int(row.step), int(row.ply), int(row.mover)), []).append(float(row.win_chance))
    return [(step, ply, mover, chances) for (step, ply, mover), chances in line.items()]
