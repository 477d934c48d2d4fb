"""The frame around every page (STYLE (e)1): where the data lives, the dataset of a first start, and
the sidebar's run picker. Pages read the picked run with ``selected_run()``.

Environment variables (so tests and other machines can point the app elsewhere):
``IMPERIAL_LAB_CATALOG`` the catalogue file (default data/lab.duckdb), ``IMPERIAL_LAB_SETUPS`` the
folder of custom setups (default data/setups), ``IMPERIAL_LAB_DEFAULT_GAMES`` the games per setup of
the first-start dataset (default dashboard.simulations.DEFAULT_GAMES).
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import streamlit as st

from core.catalog import DEFAULT_CATALOG
from core.errors import ImperialError
from core.setups import SETUPS_DIR
from dashboard import cache, simulations

CATALOG_ENV, SETUPS_ENV, DEFAULT_GAMES_ENV = "IMPERIAL_LAB_CATALOG", "IMPERIAL_LAB_SETUPS", "IMPERIAL_LAB_DEFAULT_GAMES"
RUN_KEY = "run"
# Sessions share the server process: two browsers opening a fresh lab at once play its dataset once.
_FIRST_START = threading.Lock()


def catalog_path() -> Path:
    return Path(os.environ.get(CATALOG_ENV) or DEFAULT_CATALOG)


def setups_dir() -> Path:
    return Path(os.environ.get(SETUPS_ENV) or SETUPS_DIR)


def ensure_dataset(catalog: Path) -> None:
    """A catalogue without runs (a fresh machine) gets the default dataset, played here with a
    progress bar: DEFAULT_SETUPS with the default bot in every seat. Later starts find the runs."""
    if not cache.runs(catalog).empty:
        return
    with _FIRST_START:
        if not cache.runs(catalog).empty:  # another session played it while this one waited
            return
        games = int(os.environ.get(DEFAULT_GAMES_ENV) or simulations.DEFAULT_GAMES)
        bot, setups = simulations.default_bot(), simulations.DEFAULT_SETUPS
        note = st.info(f"First start: the catalogue {catalog} has no runs yet. Playing {games} games of "
                       f"{bot} bots under each of the setups {', '.join(setups)}; later starts skip this.")
        bar = st.progress(0.0, text="starting")
        try:
            # From the shipped data/setups, not IMPERIAL_LAB_SETUPS: DEFAULT_SETUPS names shipped files.
            simulations.simulate_setups(catalog, setups, games, bot, on_progress=progress_callback(bar))
        except ImperialError as exc:  # e.g. a runs/ folder left with other parameters: say which, stop
            st.error(f"The first-start dataset could not be played: {exc}")
            st.stop()
        bar.empty()
        note.empty()


def progress_callback(bar):
    """``on_progress(done, total)`` for simulations: moves a ``st.progress`` bar."""
    def update(done: int, total: int) -> None:
        bar.progress(done / total, text=f"{done} of {total} games played")
    return update


def run_picker(catalog: Path) -> None:
    """The sidebar's choice of run (newest first), shared by the pages through ``selected_run``."""
    runs = cache.runs(catalog).set_index("name")
    if runs.empty:
        st.sidebar.info("No runs in the catalogue.")
        return
    name = st.sidebar.selectbox("Run", list(runs.index), key=RUN_KEY,
                                help="the batch of games the pages show (imperial simulate / import)")
    row = runs.loc[name]
    st.sidebar.caption(f"{row['games']} games · setup {row['setup'] or 'mixed'} · bots {bots_text(row['bots'])} · "
                       f"{row['status']}")
    st.sidebar.caption(f"Catalogue: `{catalog}`")


def bots_text(bots: str | None) -> str:
    """"heuristic ×4" for four seats of one bot, the comma list otherwise ("mixed" for imported games)."""
    if not bots:
        return "mixed"
    names = bots.split(",")
    return f"{names[0]} ×{len(names)}" if len(set(names)) == 1 else bots


def selected_run() -> str | None:
    return st.session_state.get(RUN_KEY)
