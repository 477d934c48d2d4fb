"""Runs the dashboard plays itself: the default dataset of a first start and the new runs of a
comparison. No Streamlit here: progress goes to a callback.

They are ordinary runs (core.simulate) in the folder ``runs/`` next to the catalogue, registered in
it and named after what they hold (``SETUP-BOT-GAMES-sSEED``). Asking for the same games again finds
the finished run and returns at once, because simulate resumes a run instead of playing it again.
"""

from __future__ import annotations

import math
import os
import threading
from pathlib import Path

from core.bots import BOTS
from core.setups import PRESETS, SETUPS_DIR, load_setup
from core.simulate import simulate

DEFAULT_SETUPS = ("standard", "even_spread")
DEFAULT_GAMES = 150  # per setup: a first start plays 300 games, about half a minute on one core
DEFAULT_SEED = 1
CHUNKS_PER_RUN = 10  # progress moves in steps of a chunk: about a tenth of a run
MIN_CHUNK = 10
# Sessions share the server process, and Streamlit starts a rerun (Enter in the form, then its button)
# while the previous run of the script still plays: two plays of one run would write its folder at
# once. They take turns; the second finds the run finished (or resumes it) and returns.
_PLAYING = threading.Lock()


def default_bot() -> str:
    """The bot of the dashboard's own runs: the heuristic bot, random where it is not available."""
    return "heuristic" if "heuristic" in BOTS else "random"


def runs_folder(catalog) -> Path:
    return Path(catalog).resolve().parent / "runs"


def run_name(setup: str, bot: str, games: int, seed: int) -> str:
    return f"{Path(setup).stem}-{bot}-{games}-s{seed}"


def simulate_setups(catalog, setups, games: int, bot: str, seed: int = DEFAULT_SEED, setups_dir=SETUPS_DIR,
                    on_progress=None) -> list[str]:
    """Play ``games`` games of ``bot`` in every seat for each setup (a preset or the name of a file of
    ``setups_dir``), into the catalogue; returns the run names. ``on_progress(done, total)`` counts
    the games of all setups together."""
    with _PLAYING:
        return _play_setups(catalog, setups, games, bot, seed, Path(setups_dir), on_progress)


def _play_setups(catalog, setups, games: int, bot: str, seed: int, setups_dir: Path, on_progress) -> list[str]:
    total, names = games * len(setups), []
    for i, setup in enumerate(setups):
        source = _setup_source(setup, setups_dir)
        players = load_setup(source)["players"]
        chunk = max(MIN_CHUNK, math.ceil(games / CHUNKS_PER_RUN))
        report = None if on_progress is None else (lambda done, _, before=i * games: on_progress(before + done, total))
        name = run_name(setup, bot, games, seed)
        simulate(runs_folder(catalog) / name, games, None, source, [bot] * players, seed,
                 workers=_workers(games, chunk), chunk_size=chunk, catalog=catalog, progress=False,
                 on_progress=report)
        names.append(name)
    return names


def _setup_source(setup: str, folder: Path) -> str:
    """What simulate is given: the name where core.setups finds it (it becomes the games' ``setup``
    label), else the file's path."""
    if setup in PRESETS or folder.resolve() == SETUPS_DIR.resolve():
        return setup
    return str(folder / f"{setup}.json")


def _workers(games: int, chunk: int) -> int:
    """A local Dask cluster for a run of several chunks (its start costs a few seconds); one process
    when a single chunk would keep the others idle anyway."""
    return max(1, min(os.cpu_count() or 1, math.ceil(games / chunk)))
