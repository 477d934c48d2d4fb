"""Runs the dashboard plays itself: the default dataset of a first start (each game's ``DATASET``,
so that no page of any game is empty), the new runs of a comparison and the leagues of the League
page. No Streamlit here: progress goes to a callback (or, before the server starts, to a progress
bar in the terminal).

They are ordinary runs (imperial_lab.core.simulate) in the folder ``runs/`` next to the catalogue, registered in
it and named after what they hold (``SETUP-BOT-GAMES-sSEED``, a game's default setup named by the game:
``imperia-heuristic-40-s1``; a rotating line-up of one ``BOT`` seat among ``REST`` bots:
``SETUP-BOT+REST-rot-GAMES-sSEED``, a spec's colons written as underscores). Asking for the same games
again finds the finished run and returns at once, because simulate resumes a run instead of playing
it again.

A comparison is a grid of setups × line-ups (``simulate_grid``, imperial_lab.core.compare): a line-up is one bot in
every seat (the heuristic bots, or random bots as the control), or one seat of a search bot turned by
one seat per game among heuristic bots, so that every seat has it equally often.
"""

from __future__ import annotations

import math
import os
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

from tqdm import tqdm

from imperial_lab.core import runstore
from imperial_lab.core.bots import bot_classes, canonical_spec
from imperial_lab.core.catalog import default_catalog
from imperial_lab.core.registry import DEFAULT_GAME, GAMES, plugin
from imperial_lab.core.setups import load_setup
from imperial_lab.core.simulate import simulate
from imperial_lab.dashboard import queries
from imperial_lab.dashboard.pages import Dataset

DEFAULT_GAMES_ENV = "IMPERIAL_LAB_DEFAULT_GAMES"  # games per setup and line-up of every game's first-start runs
DEFAULT_SEED = 1
# Progress moves once per chunk (imperial_lab.core.simulate reports finished chunks): a few games, a fraction of a
# second. Long runs get longer chunks, since every chunk adds a file per table to each query of the run.
PROGRESS_CHUNK = 5
MAX_CHUNKS = 50
# Shorter runs play in this process: a local Dask cluster takes seconds to start on a busy machine,
# more than its second core saves on a few hundred games, and the progress would not move meanwhile.
DASK_MIN_GAMES = 500
SEARCH_DASK_MIN_GAMES = 4  # a search bot's game takes tens of seconds: a cluster's start is soon repaid
# Sessions share the server process, and Streamlit starts a rerun (Enter in the form, then its button)
# while the previous run of the script still plays: two plays of one run would write its folder at
# once. They take turns; the second finds the run finished (or resumes it) and returns.
_PLAYING = threading.Lock()
# Slow bots: those that search (seconds a decision) and the learned evaluator's greedy bot (seconds a
# game): their cells get fewer games (search_games), in short chunks.
SEARCH_BOTS = ("mcts", "search", "rollout", "greedy")
SEARCH_BUDGET = "mcts:playouts=50"  # the search seat's default spec
SEARCH_GAMES = 60  # per cell with a search bot: its intervals are wider than the other cells'
CONTROL_BOT = "random"  # the control line-up: random bots in every seat


def default_bot(game: str | None = None) -> str:
    """The bot of the dashboard's own runs of ``game``: the heuristic bot, random where it has none."""
    return "heuristic" if "heuristic" in bot_classes(plugin(game).name) else "random"


def datasets() -> dict[str, Dataset]:
    """The first start's runs of every game whose pages name some (``DATASET``), the default game's
    first; IMPERIAL_LAB_DEFAULT_GAMES sets the games per setup and line-up of every game."""
    found = {}
    for game in sorted(GAMES, key=lambda name: name != DEFAULT_GAME):
        module = GAMES[game].part("pages")
        dataset = getattr(module, "DATASET", None) if module is not None else None
        if dataset is not None:
            games = os.environ.get(DEFAULT_GAMES_ENV)
            found[game] = Dataset(dataset.setups, int(games), dataset.players) if games else dataset
    return found


def runs_folder(catalog) -> Path:
    return Path(catalog).resolve().parent / "runs"


@dataclass(frozen=True)
class Lineup:
    """A line-up of a comparison's grid: ``bot`` (a spec) in every seat, or, with ``rest``, one seat of
    ``bot`` among ``rest`` bots, turned by one seat per game (imperial_lab.core.simulate ``rotate``), so that over
    the games every seat has it equally often."""

    bot: str
    rest: str | None = None

    def bots(self, players: int) -> list[str]:
        return [self.bot] * players if self.rest is None else [self.bot] + [self.rest] * (players - 1)

    @property
    def rotate(self) -> bool:
        return self.rest is not None

    @property
    def search(self) -> bool:
        """Whether a seat plays slowly (SEARCH_BOTS): such cells play search_games games, in short chunks."""
        return any(spec.split(":")[0] in SEARCH_BOTS for spec in (self.bot, self.rest) if spec)

    @property
    def slug(self) -> str:
        """The line-up in a run's name: ``heuristic``, ``mcts_playouts=50+heuristic-rot``."""
        text = self.bot if self.rest is None else f"{self.bot}+{self.rest}-rot"
        return text.replace(":", "_")

    def canonical(self, game: str | None = None) -> Lineup:
        """The same line-up with canonical specs of ``game``'s bots (SetupError for a bad one), so two
        spellings share a run."""
        rest = None if self.rest is None else canonical_spec(self.rest, "line-up", game)
        return Lineup(canonical_spec(self.bot, "line-up", game), rest)


def every_seat(bot: str) -> Lineup:
    return Lineup(bot)


def one_seat(bot: str = SEARCH_BUDGET, rest: str | None = None) -> Lineup:
    """One seat of ``bot`` (rotating) among bots of ``rest`` (default: the default bot)."""
    return Lineup(bot, rest or default_bot())


def run_name(setup: str, lineup, games: int, seed: int, game: str | None = None) -> str:
    """``SETUP-LINEUP-GAMES-sSEED``; ``lineup`` is a Lineup or a bot spec (that bot in every seat). A
    game's default setup is named by the game (``imperia-heuristic-40-s1``): every game has one."""
    slug = lineup.slug if isinstance(lineup, Lineup) else every_seat(lineup).slug
    owner = plugin(game)
    stem = owner.name if setup == owner.default_setup and owner.part("setups") is None else Path(setup).stem
    return f"{stem}-{slug}-{games}-s{seed}"


def default_lineups(game: str | None = None) -> list[Lineup]:
    """The line-ups of the first-start dataset: the default bot in every seat, and random bots as the
    control (what a seat is worth when nobody plays well)."""
    bots = list(dict.fromkeys([default_bot(game), CONTROL_BOT]))
    return [every_seat(bot) for bot in bots]


def prepare_default_dataset(catalog=None, progress: bool = True) -> list[str]:
    """Before the server starts (``imperial dashboard``): play the first start's dataset into
    ``catalog`` (default: imperial_lab.core.catalog.default_catalog) with a progress bar on stderr, if it needs one
    (see ``needs_default_dataset``). Returns the names of the runs played, [] when there was nothing to do."""
    catalog = Path(catalog or default_catalog())
    if not needs_default_dataset(queries.runs(catalog)):
        return []
    print(first_start_note(catalog), file=sys.stderr, flush=True)
    total = sum(d.games * len(d.setups) * len(default_lineups(game)) for game, d in datasets().items())
    with tqdm(total=total, unit="game", desc="Default dataset", file=sys.stderr, disable=not progress,
              dynamic_ncols=True) as bar:
        return play_default_dataset(catalog, on_progress=lambda done, _: bar.update(done - bar.n))


def needs_default_dataset(runs) -> bool:
    """Whether a catalogue whose ``runs`` table is ``runs`` (name and status) lacks the default dataset:
    it has no runs, or only runs of the default dataset and one of them is missing or unfinished (a
    first start stopped by Ctrl-C). A catalogue with runs of its own never gets it."""
    names = set(runs["name"])
    expected = set(all_default_run_names())
    if names - expected:
        return False
    complete = set(runs.loc[runs["status"] == "complete", "name"])
    return complete != expected


def default_run_names(game: str | None = None) -> list[str]:
    """The first-start runs of ``game`` (default: the default game's, the grid the Compare page shows
    first), in the order they are played: each line-up under each setup."""
    name = plugin(game).name
    dataset = datasets().get(name)
    if dataset is None:
        return []
    return [run_name(setup, lineup, dataset.games, DEFAULT_SEED, name) for lineup in default_lineups(name)
            for setup in dataset.setups]


def all_default_run_names() -> list[str]:
    """The first-start runs of every game, in the order they are played."""
    return [name for game in datasets() for name in default_run_names(game)]


def first_start_note(catalog) -> str:
    parts = [f"{plugin(game).title}: {d.games} games of each line-up ({' and '.join(lineup.bot for lineup in default_lineups(game))}"
             f" bots) under {', '.join(d.setups)}" for game, d in datasets().items()]
    return f"First start: playing the default runs into {catalog}. {'; '.join(parts)}. Later starts skip this."


def play_default_dataset(catalog, on_progress=None) -> list[str]:
    """Every game's first-start runs (its setups × default_lineups), from the game's own setups,
    whatever IMPERIAL_LAB_SETUPS says. ``on_progress(done, total)`` counts every game's games."""
    plan = datasets()
    total = sum(d.games * len(d.setups) * len(default_lineups(game)) for game, d in plan.items())
    names, done = [], 0
    for game, dataset in plan.items():
        report = None if on_progress is None else (lambda k, _, before=done: on_progress(before + k, total))
        # The control first: the newest run, which a page shows first (frame.default_run), is then the
        # default bot's.
        names += simulate_grid(catalog, dataset.setups, default_lineups(game)[::-1], dataset.games,
                               on_progress=report, game=game, players=dataset.players)
        done += dataset.games * len(dataset.setups) * len(default_lineups(game))
    return names


def dataset_setups(game: str | None = None) -> tuple[str, ...]:
    """The setups of ``game``'s first-start runs (default: the default game's)."""
    owner = plugin(game)
    dataset = datasets().get(owner.name)
    return dataset.setups if dataset is not None else (owner.default_setup,)


def simulate_grid(catalog, setups, lineups, games: int, search_games: int = SEARCH_GAMES, seed: int = DEFAULT_SEED,
                  setups_dir=None, on_progress=None, game: str | None = None, players: int | None = None) -> list[str]:
    """Play every cell of the grid ``setups`` × ``lineups`` (Lineup, or a bot spec for that bot in every
    seat) of ``game`` (default: the default game): ``games`` games per cell, ``search_games`` for a
    line-up with a search bot, each with ``players`` players (None: the setup's). Returns the run
    names, line-up by line-up. ``on_progress(done, total)`` counts the games of all cells together.
    Every spec and setup is checked before the first game (SetupError)."""
    game = plugin(game).name
    lineups = [(lineup if isinstance(lineup, Lineup) else every_seat(lineup)).canonical(game) for lineup in lineups]
    sources = {setup: _setup_source(setup, setups_dir) for setup in setups}
    seats = {setup: load_setup(source, players, game=game)["players"] for setup, source in sources.items()}
    cells = [(setup, lineup, search_games if lineup.search else games) for lineup in lineups for setup in setups]
    total, done, names = sum(n for _, _, n in cells), 0, []
    with _PLAYING:
        for setup, lineup, n in cells:
            report = None if on_progress is None else (lambda k, _, before=done: on_progress(before + k, total))
            name = run_name(setup, lineup, n, seed, game)
            folder = runs_folder(catalog) / name
            simulate(folder, n, seats[setup], sources[setup], lineup.bots(seats[setup]), seed,
                     workers=_workers(n, lineup.search), chunk_size=_chunk_size(folder, n, lineup.search),
                     catalog=catalog, progress=False, on_progress=report, rotate=lineup.rotate, game=game)
            done += n
            names.append(name)
    return names


def play_league(catalog, bots: list[str], games: int, seed: int = DEFAULT_SEED, setup: str | None = None,
                setups_dir=None, on_progress=None) -> str:
    """Play (or resume) the league of ``bots`` (one spec per seat) into ``runs/`` beside the catalogue,
    under the name ``imperial league`` gives it, so the page and the command find each other's
    leagues; returns the run's name. SetupError for a bad line-up, before anything is written."""
    with _PLAYING:
        setup = plugin().default_setup if setup is None else setup
        from imperial_lab.core import league  # OpenSkill and SciPy: only when a league is played

        return league.league(bots, games, seed, _setup_source(setup, setups_dir), workers=_workers(games),
                             catalog=catalog, progress=False, on_progress=on_progress)["run"]


def _setup_source(setup: str, folder) -> str:
    """What simulate is given: the name where imperial_lab.core.setups finds it itself (a preset, a file of the
    game's own folder: it becomes the games' ``setup`` label), else the path of the file in ``folder``
    (a folder of custom setups, imperial_lab.core.setups.custom_folder)."""
    path = None if folder is None else Path(folder) / f"{setup}.json"
    return str(path) if path is not None and path.is_file() else setup


def _chunk_size(folder: Path, games: int, search: bool = False) -> int:
    """A folder played before keeps its chunk size (simulate refuses to resume a run with another one).
    A search bot's game takes tens of seconds: its runs report every game (up to MAX_CHUNKS chunks)."""
    saved = runstore.read_run(folder)
    if saved is not None and "chunk_size" in saved:
        return saved["chunk_size"]
    return max(1 if search else PROGRESS_CHUNK, math.ceil(games / MAX_CHUNKS))


def _workers(games: int, search: bool = False) -> int:
    """Every core for long runs, and for a search bot's, whose games outlast a Dask start many times."""
    wanted = SEARCH_DASK_MIN_GAMES if search else DASK_MIN_GAMES
    return 1 if games < wanted else os.cpu_count() or 1
