"""The lab as a user installs it: the wheel built from this checkout, installed into a clean virtual
environment outside it, run from another folder. Every game plays, simulates and is queried; a league
and the dashboard (its first-start dataset, its Streamlit config, its health check) work; the user's
files go to the platform's user data folder, never into the installed package.

uv builds the wheel and makes the environment (its cache links the dependencies in, rather than
unpacking 700 MB of them again): a few CPU seconds instead of a minute with pip."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from imperial_lab.core import lab_version
from imperial_lab.core.registry import GAMES
from imperial_lab.core.tables import games_table
from tests.browser_support import free_port, serving

ROOT = Path(__file__).resolve().parents[1]
UV = Path(sys.executable).parent / "uv"  # a test dependency (pyproject.toml)
SOURCES = ("pyproject.toml", "README.md", "core", "dashboard", "data")  # what the wheel is built from
TIMEOUT = 600  # seconds for one command: generous for a loaded machine; a hung command still fails
pytestmark = pytest.mark.xdist_group("wheel")


def command(argv: list, cwd: Path, env: dict) -> subprocess.CompletedProcess:
    done = subprocess.run([str(arg) for arg in argv], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=TIMEOUT)
    assert done.returncode == 0, f"{argv}: exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """The wheel installed in a fresh environment; its ``imperial``, a folder to run it from, and the
    environment of a user with a home of their own (no IMPERIAL_LAB_HOME: the platform's folder)."""
    root = tmp_path_factory.mktemp("wheel")
    source = root / "source"  # a copy: building writes build/ and *.egg-info beside the sources
    source.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(ROOT / name, source / name)
    env = {key: value for key, value in os.environ.items() if not key.startswith(("IMPERIAL_LAB_", "VIRTUAL_ENV"))}
    env.update(HOME=str(root / "home"), XDG_DATA_HOME=str(root / "home" / "data"), IMPERIAL_LAB_DEFAULT_GAMES="2")
    command([UV, "build", "--quiet", "--wheel", "--out-dir", root / "dist", source], root, env)
    (wheel,) = (root / "dist").glob("imperial_lab-*.whl")
    command([UV, "venv", "--quiet", "--python", sys.executable, root / "venv"], root, env)
    python = root / "venv" / "bin" / "python"
    command([UV, "pip", "install", "--quiet", "--python", python, wheel], root, env)
    (site,) = (root / "venv" / "lib").glob("python3.*/site-packages")
    elsewhere = root / "elsewhere"
    elsewhere.mkdir()
    return {"imperial": root / "venv" / "bin" / "imperial", "cwd": elsewhere, "env": env, "site": site,
            "home": root / "home" / "data" / "imperial-lab", "files": package_files(site)}


def package_files(site: Path) -> set[str]:
    """The files of the installed package (bytecode aside: the interpreter caches it as it imports)."""
    return {str(path.relative_to(site)) for path in (site / "imperial_lab").rglob("*")
            if path.is_file() and "__pycache__" not in path.parts}


def imperial(installed, *argv) -> str:
    return command([installed["imperial"], *argv], installed["cwd"], installed["env"]).stdout


def test_the_wheel_holds_the_lab_and_its_data_under_one_name(installed):
    assert imperial(installed, "--version") == f"imperial (imperial-lab) {lab_version()}\n"
    top = {path.name for path in installed["site"].iterdir() if not path.name.startswith(("_", "."))}
    assert "imperial_lab" in top and not {"core", "dashboard", "data"} & top  # no generic top-level names
    files = installed["files"]
    for game in GAMES:
        assert any(name.startswith(f"imperial_lab/data/{game}/") and name.endswith(".json") for name in files), game
    assert "imperial_lab/dashboard/.streamlit/config.toml" in files
    assert any(name.startswith("imperial_lab/data/setups/") for name in files)


def test_every_game_plays_simulates_and_is_queried_from_another_folder(installed):
    for name, game in GAMES.items():
        players = game.players[0] + 1
        summary = json.loads(imperial(installed, "play", "--game", name, "--players", players, "--seed", 1,
                                      "--bots", "random", "--json"))
        assert summary["finished"] and summary["config"]["game"] == name
        imperial(installed, "simulate", "--game", name, "--players", players, "--games", 2, "--workers", 1,
                 "--out", f"runs/{name}-2", "--no-progress")
        assert (installed["cwd"] / "runs" / f"{name}-2" / "run.json").is_file()  # --out is where it says
    counts = " UNION ALL ".join(f"SELECT run, count(*) AS n FROM {games_table(name)} GROUP BY run" for name in GAMES)
    rows = json.loads(imperial(installed, "query", f"{counts} ORDER BY run", "--json"))
    assert rows == [{"run": f"{name}-2", "n": 2} for name in sorted(GAMES)]
    runs = json.loads(imperial(installed, "runs", "--json"))
    assert {(run["name"], run["game"], run["status"]) for run in runs} == {(f"{name}-2", name, "complete")
                                                                           for name in GAMES}
    assert (installed["home"] / "lab.duckdb").is_file()  # the catalogue: in the user data folder


def test_a_league_and_the_setups_live_in_the_user_folder(installed):
    imperial(installed, "league", "--bots", "random,random", "--games", 2, "--workers", 1, "--no-progress")
    assert len(list((installed["home"] / "runs").glob("league-*/run.json"))) == 1
    mine = installed["home"] / "setups"
    mine.mkdir(parents=True, exist_ok=True)
    setup = json.loads(imperial(installed, "setups", "show", "three_nations_each"))
    (mine / "my_even.json").write_text(json.dumps({key: value for key, value in setup.items() if key != "name"}))
    names = {row["name"] for row in json.loads(imperial(installed, "setups", "--json"))}
    assert {"standard", "three_nations_each", "my_even"} <= names


def test_the_dashboard_plays_its_first_dataset_and_answers_its_health_check(installed, tmp_path):
    """A user's first start (a user folder of its own): the default dataset (2 games a run here) is
    played into the user folder, then the server answers; it reads the config.toml it ships."""
    port = free_port()
    env = {**installed["env"], "XDG_DATA_HOME": str(tmp_path)}
    argv = [str(installed["imperial"]), "dashboard", "--server.port", str(port), "--server.address", "127.0.0.1"]
    with serving(argv, port, env, installed["cwd"]) as (url, output):
        catalog = tmp_path / "imperial-lab" / "lab.duckdb"
        assert f"First start: playing the default runs into {catalog}" in output()
        assert f"URL: http://localhost:{port}" in output() and "External URL" not in output()  # its config.toml
    assert catalog.is_file() and (catalog.parent / "runs" / "standard-heuristic-2-s1" / "_done").is_dir()


def test_nothing_is_written_into_the_installed_package(installed):
    """Last in the file: after every command above, the package's files are the wheel's."""
    assert package_files(installed["site"]) == installed["files"]
