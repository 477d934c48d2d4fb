"""The runs a notebook reads: those of your catalogue when it holds runs of the notebook's game, else
small runs the notebook plays itself into a catalogue of a temporary folder (a fresh clone has no
catalogue), never into yours. Each notebook prints which, as its first output.

``IMPERIAL_LAB_CATALOG`` names the catalogue (default: lab.duckdb in the user folder), and
``IMPERIAL_LAB_NOTEBOOK_GAMES`` the games of each run a notebook plays (default: the notebook's own
numbers; fewer play faster, with wider intervals).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from imperial_lab.core.catalog import default_catalog
from imperial_lab.core.registry import plugin
from imperial_lab.core.simulate import simulate
from imperial_lab.dashboard import queries

GAMES_ENV = "IMPERIAL_LAB_NOTEBOOK_GAMES"
SHOWN = 5  # runs named in the first line, newest first


def lab_runs(game: str, plays: list[dict], keep=None):
    """(catalogue, runs) for a notebook about ``game``: the catalogue's runs of ``game`` that ``keep``
    (a function of the runs table, default all) selects, newest first; when there are none, the runs
    of ``plays`` played into a temporary catalogue. Each play is the keyword arguments of
    ``imperial_lab.core.simulate.simulate`` with the run's ``name`` (``{games}`` in it: its games); its
    ``games`` give way to IMPERIAL_LAB_NOTEBOOK_GAMES when that is set."""
    catalog = default_catalog()
    runs = _chosen(catalog, game, keep)
    if len(runs):
        names = ", ".join(runs["name"][:SHOWN]) + (f" and {len(runs) - SHOWN} more" if len(runs) > SHOWN else "")
        print(f"{plugin(game).title}: the runs {names} of the catalogue {catalog}")
        return catalog, runs
    own = Path(tempfile.mkdtemp(prefix=f"{game}-notebook-"))
    catalog = own / "lab.duckdb"
    games = os.environ.get(GAMES_ENV)
    for play in plays:
        play = {"workers": 1, "seed": 1, "players": None, **play, "game": game}
        if games:
            play["games"] = int(games)
        simulate(own / "runs" / play.pop("name").format(games=play["games"]), catalog=catalog, progress=False, **play)
    runs = _chosen(catalog, game, keep)
    print(f"{plugin(game).title}: no run of it in the catalogue {default_catalog()}: played "
          f"{', '.join(f'{name} ({n} games)' for name, n in zip(runs['name'], runs['games']))} into {catalog}")
    return catalog, runs


def _chosen(catalog: Path, game: str, keep):
    if not catalog.exists():
        return _empty()
    runs = queries.runs(catalog)
    runs = runs[runs["game"] == game]
    return (keep(runs) if keep is not None else runs).reset_index(drop=True)


def _empty():
    import pandas as pd

    return pd.DataFrame(columns=["name", "setup", "players", "bots", "games", "status", "created", "chunks", "path",
                                 "rotate", "game"])
