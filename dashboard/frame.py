"""The frame around every page (STYLE (e)1): where the data lives, the dataset of a first start, and
the sidebar's run picker. Pages read the picked run with ``selected_run()``; ``select_run`` picks one
(a link to a game of another run).

The picker shows only the runs of the game whose page is open (a generic page, such as League, has
its own chooser): each game keeps its own choice, and a first visit picks the game's newest run that
is not a league, so a league just played is never shown on the explorer unasked.

Environment variables (so tests and other machines can point the app elsewhere):
``IMPERIAL_LAB_CATALOG`` the catalogue file (default: lab.duckdb in the user folder, imperial_lab.core.files),
``IMPERIAL_LAB_SETUPS`` the folder of custom setups (imperial_lab.core.setups.custom_folder; default: each
game's own), ``IMPERIAL_LAB_DEFAULT_GAMES`` the games per setup and line-up of the first-start runs (default:
each game's ``DATASET``, imperial_lab.dashboard.simulations).
"""

from __future__ import annotations

import re
import threading
from pathlib import Path

import streamlit as st

from imperial_lab.core.bots import lineup_text
from imperial_lab.core.catalog import default_catalog
from imperial_lab.core.errors import ImperialError
from imperial_lab.core.registry import plugin
from imperial_lab.dashboard import cache, simulations

RUN_KEY = "run"  # the picker's widget; the run chosen for each game is kept under KEPT_RUN + game
KEPT_RUN = "run_of:"
GAME_KEY = "run_game"  # the game whose page runs now (None on a generic page)
PENDING_RUN_KEY = "run_pending"  # a run to select in the picker when it is drawn next (select_run)
# Sessions share the server process: two browsers opening a fresh lab at once play its dataset once.
_FIRST_START = threading.Lock()


def catalog_path() -> Path:
    return default_catalog()  # the catalogue the command line uses too


def ensure_dataset(catalog: Path) -> None:
    """The first start's dataset when the server was started without ``imperial dashboard`` (which plays
    it in the terminal before): played here with a progress bar. Later starts find the runs."""
    if not simulations.needs_default_dataset(cache.runs(catalog)):
        return
    with _FIRST_START:
        if not simulations.needs_default_dataset(cache.runs(catalog)):  # another session played it meanwhile
            return
        note = st.info(simulations.first_start_note(catalog))
        bar = st.progress(0.0, text="0 games played")
        try:
            simulations.play_default_dataset(catalog, on_progress=progress_callback(bar))
        except ImperialError as exc:  # e.g. a runs/ folder left with other parameters: say which, stop
            show_error("The first-start dataset could not be played.", exc)
            st.stop()
        bar.empty()
        note.empty()


def progress_callback(bar):
    """``on_progress(done, total)`` for simulations: moves a ``st.progress`` bar."""
    def update(done: int, total: int) -> None:
        bar.progress(done / total, text=f"{done} of {total} games played")
    return update


def play_then_rerun(play, failure: str, pending_key: str) -> None:
    """``play(on_progress)`` with a progress bar that moves; what it returns (the runs played) waits in
    ``pending_key`` for the rerun that follows, which selects it. An ImperialError is shown under
    ``failure`` instead."""
    bar = st.progress(0.0, text="0 games played")
    try:
        played = play(progress_callback(bar))
    except ImperialError as exc:
        show_error(failure, exc)
        return
    st.session_state[pending_key] = played
    st.rerun()


def show_error(title: str, *errors) -> None:
    """An error box: ``title`` (markdown), then each error's message as plain text. Messages quote log
    lines, file names and what was typed, which Streamlit's markdown would change (``->`` becomes an
    arrow, ``**x**`` bold, ``:name:`` an emoji); a code span is the one place it leaves text alone."""
    st.error("\n\n".join([title, *(code_span(str(error)) for error in errors)]), icon=":material/error:")


def code_span(text: str) -> str:
    """``text`` as a markdown code span: fenced by more backticks than it holds in a row, and padded
    with a space each side, which markdown strips again (so a backtick at either end stays)."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    return f"{fence} {text} {fence}"


def game_runs(catalog, game: str):
    """The catalogue's runs of ``game`` (the runs table, newest first)."""
    runs = cache.runs(catalog)
    return runs[runs["game"] == game]


def default_run(runs) -> str | None:
    """The run a page of a game shows unasked: its newest run that is not a league (a league seats
    bots by turns: its games are no example of one line-up), else its newest."""
    if runs.empty:
        return None
    plain = runs[~runs["rotate"].astype(bool)]
    return (plain if not plain.empty else runs)["name"].iloc[0]


def run_picker(catalog: Path, game: str | None) -> None:
    """The sidebar's choice among ``game``'s runs (newest first), shared by that game's pages through
    ``selected_run``; nothing on a generic page (``game`` None)."""
    st.session_state[GAME_KEY] = game
    if game is None:
        st.sidebar.caption(f"Catalogue: `{catalog}`")
        return
    runs = game_runs(catalog, game).set_index("name")
    if runs.empty:
        st.sidebar.info(f"No {plugin(game).title} runs in the catalogue.")
        return
    kept = KEPT_RUN + game
    if PENDING_RUN_KEY in st.session_state and st.session_state[PENDING_RUN_KEY] in runs.index:
        st.session_state[kept] = st.session_state.pop(PENDING_RUN_KEY)
    if st.session_state.get(kept) not in runs.index:
        st.session_state[kept] = default_run(runs.reset_index())
    st.session_state[RUN_KEY] = st.session_state[kept]
    name = st.sidebar.selectbox("Run", list(runs.index), key=RUN_KEY, on_change=_keep_run, args=(kept,),
                                help=f"the batch of {plugin(game).title} games the pages show (imperial simulate "
                                     "/ import)")
    row = runs.loc[name]
    bots = lineup_text(row["bots"], row["rotate"])  # a league: its entrants, not the first game's seats
    setup = row["setup"] if isinstance(row["setup"], str) else "mixed"  # an import has none (null, read as NaN)
    st.sidebar.caption(f"{plugin(row['game']).title} · {row['games']} games · setup {setup} · bots {bots} · "
                       f"{row['status']}")
    st.sidebar.caption(f"Catalogue: `{catalog}`")


def _keep_run(kept: str) -> None:
    # After the app menu's Clear cache, going to another page can call this with the widget's value
    # already dropped (a KeyError on the page): the kept run then stays as it was.
    if RUN_KEY in st.session_state:
        st.session_state[kept] = st.session_state[RUN_KEY]


def selected_run() -> str | None:
    """The run the sidebar picked for the game of the page that runs now (None on a generic page or
    without runs)."""
    game = st.session_state.get(GAME_KEY)
    return None if game is None else st.session_state.get(KEPT_RUN + game)


def select_run(name: str) -> None:
    """Select ``name`` in the picker from the next run of the script on: a page runs after the picker
    is drawn, and a drawn widget's value can no longer be set."""
    st.session_state[PENDING_RUN_KEY] = name
