"""Small labs on disk for dashboard and notebook tests, each registered in its own DuckDB catalogue
(never the user's data/lab.duckdb): ``lab``, two runs of random 4-player games under two setups, and
``league_lab``, a rotated league of three bots and a run of mixed bots that keep their seats."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from imperial_lab.core import runstore
from imperial_lab.core.league import chunk_size, league_name
from imperial_lab.core.simulate import simulate
from imperial_lab.core.tables import record_game

APP_SECONDS = 600  # the bound of one AppTest run of a page: generous for a loaded machine; a hung page still fails
WAIT_SECONDS = 600  # the bound of a wait for another process, which ends as soon as it has done its part


def _app(first):
    from imperial_lab.dashboard.app import run

    run(first)


def open_page(url: str, query: dict | None = None):
    """The router's page at URL ``url`` (``"imperia_explorer"``; a trailing ``.py`` is ignored) after its
    first run through AppTest, with the query parameters ``query``; no exception raised."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_function(_app, default_timeout=APP_SECONDS, args=(url.removesuffix(".py"),))
    at.query_params.update(query or {})
    at.run()
    assert not at.exception, at.exception
    return at


def component_svgs(at) -> list[str]:
    """The SVGs of a page's clickable components (imperial_lab.dashboard.clickable), in page order."""
    import json

    return [json.loads(c.proto.json)["svg"] for c in at.get("bidi_component")]


@dataclass
class Lab:
    root: Path
    catalog: Path
    runs: tuple[str, ...]


def build_lab(root: Path, games: int = 12) -> Lab:
    catalog = root / "lab.duckdb"
    runs = []
    for name, setup in (("small_standard", "standard"), ("small_even", "three_nations_each")):
        simulate(root / "runs" / name, games=games, players=4, setup=setup, bots=["random"] * 4, seed=1,
                 workers=1, chunk_size=6, catalog=catalog, progress=False)
        runs.append(name)
    return Lab(root, catalog, tuple(runs))


@pytest.fixture(scope="session")
def lab(tmp_path_factory) -> Lab:
    """Point the dashboard at it with the environment variable IMPERIAL_LAB_CATALOG."""
    return build_lab(tmp_path_factory.mktemp("lab"))


LEAGUE_BOTS = ["heuristic", "heuristic:temperature=0", "random"]
LEAGUE_GAMES = 9  # a multiple of the 3 seats: every bot plays every seat equally often
FIXED_BOTS = ["heuristic", "random", "random"]  # not rotated: each bot keeps its seat


def build_league_lab(root: Path) -> Lab:
    """A league as ``imperial league`` plays it (its name, chunk size and rotation), then a fixed run."""
    catalog = root / "lab.duckdb"
    name = league_name(LEAGUE_BOTS, LEAGUE_GAMES, 1, "standard")
    simulate(root / "runs" / name, games=LEAGUE_GAMES, players=3, setup="standard", bots=LEAGUE_BOTS, seed=1,
             workers=1, chunk_size=chunk_size(LEAGUE_GAMES), catalog=catalog, progress=False, rotate=True)
    simulate(root / "runs" / "fixed_seats", games=6, players=3, setup="standard", bots=FIXED_BOTS, seed=1, workers=1,
             chunk_size=3, catalog=catalog, progress=False)
    return Lab(root, catalog, (name, "fixed_seats"))


@pytest.fixture(scope="session")
def league_lab(tmp_path_factory) -> Lab:
    """Shared by the tests of a session: a test that plays more runs works on a copy of its catalogue."""
    return build_league_lab(tmp_path_factory.mktemp("league_lab"))


def spy_progress(monkeypatch, module, name: str) -> list:
    """Wrap ``module.name`` (a function taking ``on_progress``) so that every report it makes is also
    kept in the returned list, as (done, total)."""
    progress, play = [], getattr(module, name)

    def spy(*args, **kwargs):
        report = kwargs["on_progress"]
        kwargs["on_progress"] = lambda done, total: (progress.append((done, total)), report(done, total))
        return play(*args, **kwargs)

    monkeypatch.setattr(module, name, spy)
    return progress


def record_after_a_worker_chunk(folder: Path, here: list):
    """A stand-in for imperial_lab.core.simulate's ``record_game`` (monkeypatched in this process only: a Dask
    worker imports imperial_lab.core.simulate afresh) whose first game waits until a worker has finished a chunk
    of the run in ``folder``, so that both sides play chunks however long the cluster takes to start
    (bounded at WAIT_SECONDS: then it plays on). ``here`` collects the game ids this process played."""
    def record(*args):
        here.append(args[5])  # game_id
        deadline = time.monotonic() + WAIT_SECONDS
        while len(here) == 1 and time.monotonic() < deadline and \
                not any(marker["first"] not in here for marker in runstore.markers(folder).values()):
            time.sleep(0.05)
        return record_game(*args)
    return record


def kill_during(argv: list[str], folder: Path, chunks: int = 2) -> dict:
    """Run ``imperial ARGV`` (a simulate into ``folder``) as its own process and SIGKILL it once it has
    written ``chunks`` chunk markers (or ended, or WAIT_SECONDS passed); the markers it left."""
    code = "import sys; from imperial_lab.core.cli import main; sys.exit(main(sys.argv[1:]))"
    proc = subprocess.Popen([sys.executable, "-c", code, *argv], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + WAIT_SECONDS
    while len(runstore.markers(folder)) < chunks and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    return runstore.markers(folder)
