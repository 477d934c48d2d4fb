"""Runs the dashboard plays itself: the default dataset of a first start, the new runs of a
comparison and the leagues of the League page. No Streamlit here: progress goes to a callback (or,
before the server starts, to a progress bar in the terminal).

They are ordinary runs (core.simulate) in the folder ``runs/`` next to the catalogue, registered in
it and named after what they hold (``SETUP-BOT-GAMES-sSEED``). Asking for the same games again finds
the finished run and returns at once, because simulate resumes a run instead of playing it again.
"""

from __future__ import annotations

import math
import os
import sys
import threading
from pathlib import Path

from tqdm import tqdm

from core import league, runstore
from core.bots import BOTS
from core.catalog import default_catalog
from core.setups import PRESETS, SETUPS_DIR, load_setup
from core.simulate import simulate
from dashboard import queries

DEFAULT_SETUPS = ("standard", "even_spread")
DEFAULT_GAMES = 150  # per setup: a first start plays 300 games, about ten seconds on one core
DEFAULT_GAMES_ENV = "IMPERIAL_LAB_DEFAULT_GAMES"
DEFAULT_SEED = 1
# Progress moves once per chunk (core.simulate reports finished chunks): a few games, a fraction of a
# second. Long runs get longer chunks, since every chunk adds a file per table to each query of the run.
PROGRESS_CHUNK = 5
MAX_CHUNKS = 50
# Shorter runs play in this process: a local Dask cluster takes seconds to start on a busy machine,
# more than its second core saves on a few hundred games, and the progress would not move meanwhile.
DASK_MIN_GAMES = 500
# Sessions share the server process, and Streamlit starts a rerun (Enter in the form, then its button)
# while the previous run of the script still plays: two plays of one run would write its folder at
# once. They take turns; the second finds the run finished (or resumes it) and returns.
_PLAYING = threading.Lock()


def default_bot() -> str:
    """The bot of the dashboard's own runs: the heuristic bot, random where it is not available."""
    return "heuristic" if "heuristic" in BOTS else "random"


def default_games() -> int:
    """Games per setup of the first-start dataset: IMPERIAL_LAB_DEFAULT_GAMES, or DEFAULT_GAMES."""
    return int(os.environ.get(DEFAULT_GAMES_ENV) or DEFAULT_GAMES)


def runs_folder(catalog) -> Path:
    return Path(catalog).resolve().parent / "runs"


def run_name(setup: str, bot: str, games: int, seed: int) -> str:
    return f"{Path(setup).stem}-{bot}-{games}-s{seed}"


def prepare_default_dataset(catalog=None, progress: bool = True) -> list[str]:
    """Before the server starts (``imperial dashboard``): play the first start's dataset into
    ``catalog`` (default: core.catalog.default_catalog) with a progress bar on stderr, if it needs one
    (see ``needs_default_dataset``). Returns the names of the runs played, [] when there was nothing to do."""
    catalog = Path(catalog or default_catalog())
    if not needs_default_dataset(queries.runs(catalog)):
        return []
    print(first_start_note(catalog), file=sys.stderr, flush=True)
    with tqdm(total=default_games() * len(DEFAULT_SETUPS), unit="game", desc="Default dataset", file=sys.stderr,
              disable=not progress, dynamic_ncols=True) as bar:
        return play_default_dataset(catalog, on_progress=lambda done, _: bar.update(done - bar.n))


def needs_default_dataset(runs) -> bool:
    """Whether a catalogue whose ``runs`` table is ``runs`` (name and status) lacks the default dataset:
    it has no runs, or only runs of the default dataset and one of them is missing or unfinished (a
    first start stopped by Ctrl-C). A catalogue with runs of its own never gets it."""
    names = set(runs["name"])
    expected = set(default_run_names())
    if names - expected:
        return False
    complete = set(runs.loc[runs["status"] == "complete", "name"])
    return complete != expected


def default_run_names() -> list[str]:
    return [run_name(setup, default_bot(), default_games(), DEFAULT_SEED) for setup in DEFAULT_SETUPS]


def first_start_note(catalog) -> str:
    return (f"First start: playing the default dataset into {catalog}: {default_games()} games of "
            f"{default_bot()} bots under each of the setups {', '.join(DEFAULT_SETUPS)}. Later starts skip this.")


def play_default_dataset(catalog, on_progress=None) -> list[str]:
    """The default dataset (DEFAULT_SETUPS, the default bot in every seat), from the shipped setups:
    DEFAULT_SETUPS names shipped files, whatever IMPERIAL_LAB_SETUPS says."""
    return simulate_setups(catalog, DEFAULT_SETUPS, default_games(), default_bot(), on_progress=on_progress)


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
        report = None if on_progress is None else (lambda done, _, before=i * games: on_progress(before + done, total))
        name = run_name(setup, bot, games, seed)
        folder = runs_folder(catalog) / name
        simulate(folder, games, None, source, [bot] * players, seed, workers=_workers(games),
                 chunk_size=_chunk_size(folder, games), catalog=catalog, progress=False, on_progress=report)
        names.append(name)
    return names


def play_league(catalog, bots: list[str], games: int, seed: int = DEFAULT_SEED, setup: str = "standard",
                setups_dir=SETUPS_DIR, on_progress=None) -> str:
    """Play (or resume) the league of ``bots`` (one spec per seat) into ``runs/`` beside the catalogue,
    under the name ``imperial league`` gives it, so the page and the command find each other's
    leagues; returns the run's name. SetupError for a bad line-up, before anything is written."""
    with _PLAYING:
        return league.league(bots, games, seed, _setup_source(setup, Path(setups_dir)), workers=_workers(games),
                             catalog=catalog, progress=False, on_progress=on_progress)["run"]


def _setup_source(setup: str, folder: Path) -> str:
    """What simulate is given: the name where core.setups finds it (it becomes the games' ``setup``
    label), else the file's path."""
    if setup in PRESETS or folder.resolve() == SETUPS_DIR.resolve():
        return setup
    return str(folder / f"{setup}.json")


def _chunk_size(folder: Path, games: int) -> int:
    """A folder played before keeps its chunk size (simulate refuses to resume a run with another one)."""
    saved = runstore.read_run(folder)
    if saved is not None and "chunk_size" in saved:
        return saved["chunk_size"]
    return max(PROGRESS_CHUNK, math.ceil(games / MAX_CHUNKS))


def _workers(games: int) -> int:
    return 1 if games < DASK_MIN_GAMES else os.cpu_count() or 1
