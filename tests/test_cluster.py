"""``imperial simulate --scheduler`` on a real cluster: a ``dask scheduler`` and its workers started
with docs/batch-runs.md's own commands on 127.0.0.1, one cluster for the module. Every game's tables
come out byte for byte as in a local run; a worker without the lab, without the game's data or without
the run folder is refused before any game with one line naming it (exit 2), and so are a cluster with
no worker and a cluster of another version."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from fnmatch import fnmatch
from pathlib import Path

import pytest

from imperial_lab.core import cluster as cluster_module
from imperial_lab.core import lab_version, runstore
from imperial_lab.core.cli import main
from imperial_lab.core.league import league
from imperial_lab.core.registry import plugin
from imperial_lab.core.simulate import QUIET_DASK, auto_chunk_size, simulate

DOCS = Path(__file__).resolve().parents[1] / "docs" / "batch-runs.md"
BIN = Path(sys.executable).parent  # the dask command of this environment
QUIET = {"DASK_" + key.upper().replace(".", "__").replace("-", "_"): str(value) for key, value in QUIET_DASK.items()}
HOST = "127.0.0.1"  # every process of the cluster listens on the loopback only
START = 120  # seconds for the cluster's processes to start and register: generous for a loaded machine
pytestmark = pytest.mark.xdist_group("cluster")  # one cluster: its tests share a worker process

# Preloads of a third worker (dask worker --preload FILE), each lacking one thing.
NO_LAB = """
import sys
from importlib.abc import MetaPathFinder

class NoLab(MetaPathFinder):  # as on a machine where the lab's package cannot be imported
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "imperial_lab":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)

sys.meta_path.insert(0, NoLab())
"""
NO_DATA = """
from pathlib import Path
import imperial_lab.core.files as files

files.data_path = lambda *parts: Path("/nonexistent/imperial_lab/data").joinpath(*parts)  # as a wheel without data
"""


def documented_commands() -> dict[str, list[str]]:
    """The ``dask scheduler`` and ``dask worker`` lines of docs/batch-runs.md's set-up, by their second word."""
    block = re.search(r"### On a cluster.*?```bash\n(.*?)```", DOCS.read_text(), re.S).group(1)
    lines = [shlex.split(line) for line in block.splitlines() if line.startswith("dask ")]
    return {words[1]: words for words in lines}


class Cluster:
    """A scheduler and workers as separate processes, started with the documented commands."""

    def __init__(self, root: Path):
        self.root, self.procs = root, []
        commands = documented_commands()
        # Port 0: the scheduler takes a free port itself (no other process can take it first) and
        # writes its address into a file.
        scheduler = [arg.replace("8786", "0") for arg in commands["scheduler"]]
        self.scheduler = self.start(scheduler + ["--host", HOST, "--no-dashboard",
                                                 "--scheduler-file", str(root / "scheduler.json")])
        self.address = self.scheduler_address(root / "scheduler.json")
        self.worker_command = [arg.replace("tcp://SCHEDULER:8786", self.address) for arg in commands["worker"]]
        from dask.distributed import Client

        self.client = Client(self.address, timeout=START)
        self.workers = self.add(self.worker_command + ["--host", HOST, "--no-dashboard"], expect=2)

    def start(self, argv: list[str]) -> subprocess.Popen:
        """Start ``argv`` (its ``dask``: this environment's) with its output in a log file of the cluster,
        and Dask's periodic work as sparse as simulate's own cluster has it (the test's CPU)."""
        argv = [str(BIN / "dask") if arg == "dask" else arg for arg in argv]
        with open(self.root / f"process-{len(self.procs)}.log", "wb") as log:
            proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, **QUIET})
        self.procs.append(proc)
        return proc

    def scheduler_address(self, file: Path) -> str:
        deadline = time.monotonic() + START
        while True:
            try:
                return json.loads(file.read_text())["address"]
            except (OSError, ValueError):  # not written yet, or half written
                assert self.scheduler.poll() is None and time.monotonic() < deadline, "the scheduler did not start"
                time.sleep(0.1)

    def add(self, argv: list[str], expect: int = 1):
        """Start a worker command; returns (its process, the addresses of the workers it added)."""
        before = set(self.client.nthreads())
        proc = self.start(argv)
        deadline = time.monotonic() + START
        while len(set(self.client.nthreads()) - before) < expect:
            assert proc.poll() is None and time.monotonic() < deadline, "the worker did not start"
            time.sleep(0.1)
        return proc, sorted(set(self.client.nthreads()) - before)

    def remove(self, proc: subprocess.Popen, addresses: list[str]) -> None:
        proc.terminate()
        proc.wait(timeout=START)
        self.client.retire_workers(addresses, close_workers=True)
        deadline = time.monotonic() + START
        while set(addresses) & set(self.client.nthreads()) and time.monotonic() < deadline:
            time.sleep(0.1)

    def close(self) -> None:
        self.client.close()
        for proc in reversed(self.procs):
            proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    running = Cluster(tmp_path_factory.mktemp("cluster"))
    try:
        yield running
    finally:
        running.close()


def run_files(folder: Path) -> dict[str, bytes]:
    """Every table file and marker of a run, by its path in the run folder."""
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("chunk-*"))}


def cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(arg) for arg in argv])
    out, err = capsys.readouterr()
    return code, out, err


# ----- the same tables as a local run -----

@pytest.mark.parametrize("game, players, games, chunk_size", [
    ("imperial2030", 4, 4, 2),
    ("imperia", 3, 9, None),  # the chunk size from the cluster's 2 worker threads: 9 / (8 x 2) -> 1
    ("imperial_powers", 5, 4, 2),
])
def test_every_game_gives_the_tables_of_a_local_run(cluster, tmp_path, capsys, game, players, games, chunk_size):
    """``--workers 1`` beside ``--scheduler``: the automatic chunk size counts the cluster's threads,
    not this machine's processes (9 games on 1 would make chunks of 2)."""
    size = chunk_size or auto_chunk_size(games, 2)
    assert chunk_size or auto_chunk_size(games, 1) != size
    local = tmp_path / "local" / "run"
    simulate(local, games, players, plugin(game).default_setup, ["random"] * players, seed=3, workers=1,
             chunk_size=size, progress=False, game=game)
    remote = tmp_path / "cluster" / "run"
    code, out, err = cli(capsys, "simulate", "--game", game, "--players", players, "--games", games, "--seed", 3,
                         "--workers", 1, "--out", remote, "--scheduler", cluster.address,
                         *(["--chunk-size", chunk_size] if chunk_size else []), "--catalog", tmp_path / "lab.duckdb")
    assert code == 0 and err == "", err
    assert f"Run run: {games} games (0 failed) in {-(-games // size)} chunks" in out
    assert runstore.read_run(remote)["chunk_size"] == size
    assert run_files(remote) == run_files(local) and len(run_files(local)) > games // size


def test_a_league_plays_on_the_cluster_as_in_this_process(cluster, tmp_path, capsys):
    """The seats rotate over the cluster's workers as in one process: the same tables, the same standings."""
    local = league(["random", "heuristic"], 5, seed=2, workers=1, out=tmp_path / "local" / "lg",
                   catalog=tmp_path / "local.duckdb", progress=False)
    code, out, err = cli(capsys, "league", "--bots", "random,heuristic", "--games", 5, "--seed", 2, "--scheduler",
                         cluster.address, "--out", tmp_path / "cluster" / "lg", "--catalog", tmp_path / "lab.duckdb",
                         "--json")
    standings = json.loads(out)
    assert code == 0 and err == "" and standings["games"] == 5 and standings["rotate"]
    assert {bot["bot"]: bot["seats"] for bot in standings["bots"]} == {"random": 5, "heuristic": 5}
    assert run_files(tmp_path / "cluster" / "lg") == run_files(tmp_path / "local" / "lg")
    assert {**standings, "path": None} == {**local["standings"], "path": None}


# ----- refusals: one line naming the worker and what it lacks, nothing written -----

def refused(capsys, cluster, out: Path, *extra) -> str:
    code, stdout, err = cli(capsys, "simulate", "--games", 2, "--out", out, "--scheduler", cluster.address,
                            "--catalog", out.parent / "lab.duckdb", *extra)
    assert code == 2 and stdout == "" and err.count("\n") == 1 and err.startswith("imperial: error: "), err
    assert not out.exists() and not (out.parent / "lab.duckdb").exists()
    return err


def one_worker(cluster) -> list[str]:
    """A worker of one process (no nanny: it is cheaper, and stops with its command)."""
    return cluster.worker_command[:3] + ["--nthreads", "1", "--no-nanny", "--host", HOST, "--no-dashboard"]


def third_worker(cluster, tmp_path: Path, preload: str):
    (tmp_path / "preload.py").write_text(preload)
    return cluster.add(one_worker(cluster) + ["--preload", str(tmp_path / "preload.py")])


@pytest.mark.parametrize("preload, lacks", [
    (NO_LAB, f"cannot import the lab (ModuleNotFoundError(\"No module named 'imperial_lab'\")): install imperial-lab "
             f"{lab_version()} there"),
    # the registry finds the data folder empty first (no lessons, no board): either names it
    (NO_DATA, "cannot read the data of imperial2030 (*data/imperial2030/*): reinstall "
              "the lab there"),
], ids=["no lab", "no data"])
def test_a_worker_without_the_lab_or_its_data_is_named(cluster, tmp_path, capsys, preload, lacks):
    proc, (worker,) = third_worker(cluster, tmp_path, preload)
    try:
        err = refused(capsys, cluster, tmp_path / "runs" / "r")
    finally:
        cluster.remove(proc, [worker])
    assert fnmatch(err, f"imperial: error: --scheduler {cluster.address}: worker {worker} {lacks}\n")
    assert err.count("\n") == 1


def test_a_worker_that_does_not_see_the_run_folder_is_named(cluster, tmp_path, capsys):
    """The third worker runs in a mount namespace of its own, where the runs' folder is an empty tmpfs:
    as on a machine that does not mount the shared file system."""
    shared = tmp_path / "shared"
    shared.mkdir()
    command = shlex.join([str(BIN / "dask"), *one_worker(cluster)[1:]])
    proc, (worker,) = cluster.add([shutil.which("unshare"), "--map-root-user", "--mount", "--", "sh", "-c",
                                   f"mount -t tmpfs none {shlex.quote(str(shared))} && exec {command}"])
    try:
        err = refused(capsys, cluster, shared / "runs" / "r")
    finally:
        cluster.remove(proc, [worker])
    assert err == (f"imperial: error: --scheduler {cluster.address}: worker {worker} does not see the run folder "
                   f"{shared / 'runs' / 'r'} (it must be at the same path on every worker, on a shared file system)\n")
    assert list(shared.iterdir()) == []  # the folders the check made are gone


def test_workers_of_another_version_are_named(cluster, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(cluster_module, "lab_version", lambda: "0.0.1")
    err = refused(capsys, cluster, tmp_path / "runs" / "r")
    assert re.fullmatch(rf"imperial: error: --scheduler {cluster.address}: worker tcp://127\.0\.0\.1:\d+ has "
                        rf"imperial-lab \S+, this is 0\.0\.1: install imperial-lab 0\.0\.1 there \(and 1 more "
                        rf"workers\)\n", err), err


def test_a_scheduler_without_workers_is_waited_for_then_refused(tmp_path, capsys, monkeypatch):
    from dask.distributed import LocalCluster

    monkeypatch.setattr(cluster_module, "WORKER_WAIT", 1.0)
    with LocalCluster(n_workers=0, host=HOST, dashboard_address=f"{HOST}:0") as empty:  # a scheduler alone
        address = empty.scheduler_address
        code, out, err = cli(capsys, "simulate", "--games", 2, "--out", tmp_path / "r", "--scheduler", address)
    assert code == 2 and out == "" and not (tmp_path / "r").exists()
    assert err == (f"imperial: warning: waiting up to 1 s for a worker to join the scheduler at {address} (start one "
                   f"with: dask worker {address} --nthreads 1)\n"
                   f"imperial: error: --scheduler {address}: no worker joined in 1 s; start one with: dask worker "
                   f"{address} --nthreads 1\n")
