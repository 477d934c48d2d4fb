"""Batch runs (imperial_lab.core.simulate): the same tables in one process and on Dask, resume after a kill,
Ctrl-C or a lost marker, refused parameters, failed games kept."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import duckdb
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

from imperial_lab.core import bots as bots_module
from imperial_lab.core import lab_version, runstore
from imperial_lab.core import simulate as simulate_module
from imperial_lab.core.bots import RandomBot
from imperial_lab.core.catalog import list_runs
from imperial_lab.core.cli import main
from imperial_lab.core.gamelog import replay
from imperial_lab.core.games.imperial2030.tables import TABLES
from imperial_lab.core.runstore import RunError
from imperial_lab.core.simulate import DEFAULT_CHUNK_SIZE, auto_chunk_size, game_seed, simulate
from tests.lab_fixtures import kill_during, record_after_a_worker_chunk

# The reference run: 24 four-player games in 8 chunks of 3, played in this process.
RUN = dict(games=24, players=4, setup="standard", bots=["random"] * 4, seed=5, chunk_size=3)
CHUNKS = 8


def play(folder: Path, **changes) -> dict:
    return simulate(folder, **{**RUN, "workers": 1, "progress": False, **changes})


def tables_of(folder: Path) -> dict[str, pa.Table]:
    """Every table of a run, its finished chunks in order."""
    return {name: pa.concat_tables([pq.read_table(path) for path in runstore.chunk_files(folder, name)])
            for name in TABLES}


def file_times(folder: Path) -> dict[str, int]:
    return {str(path.relative_to(folder)): path.stat().st_mtime_ns for path in folder.rglob("chunk-*")}


def temporaries(folder: Path) -> list[Path]:
    return list(folder.rglob(f"{runstore.TEMP_MARK}*"))


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> dict:
    """Folders are all named ``batch``, so the ``run`` column agrees and tables compare whole."""
    folder = tmp_path_factory.mktemp("ref") / "batch"
    result = play(folder)
    return {"folder": folder, "result": result, "tables": tables_of(folder)}


def assert_same_tables(folder: Path, reference: dict) -> None:
    tables = tables_of(folder)
    for name, table in reference["tables"].items():
        assert tables[name].equals(table), f"table {name} differs"
    ids = tables["games"].column("game_id").to_pylist()
    assert ids == list(range(RUN["games"]))  # nothing lost, nothing twice


# ----- one process -----

def test_a_run_writes_every_table_of_every_chunk(reference):
    folder, result = reference["folder"], reference["result"]
    assert result["games"] == 24 and result["chunks"] == CHUNKS and result["failed"] == 0
    for name in TABLES:
        assert sorted(p.name for p in (folder / name).iterdir()) == [f"chunk-{c:05d}.parquet" for c in range(CHUNKS)]
        assert result["rows"][name] == reference["tables"][name].num_rows > 0
    saved = json.loads((folder / "run.json").read_text())
    assert {key: saved[key] for key in RUN} == RUN and saved["config"]["setup"] == "standard"
    assert not temporaries(folder)


def test_every_table_reads_with_plain_pandas_pyarrow_polars_and_duckdb(reference):
    """The files of a run, not only the catalogue's views: pd.read_parquet on a table's folder or
    one file, with the default backend, gives the rows with lists as arrays (not a TypeError)."""
    folder, lists = reference["folder"], set()
    for name, table in reference["tables"].items():
        whole, one = pd.read_parquet(folder / name), runstore.chunk_files(folder, name)[0]
        assert len(whole) == table.num_rows and list(whole.columns) == table.column_names, name
        assert len(pd.read_parquet(one)) == pq.read_metadata(one).num_rows > 0, name
        assert pq.read_table(folder / name).num_rows == table.num_rows
        polars = pl.read_parquet(f"{folder / name}/*.parquet")
        described = duckdb.sql(f"DESCRIBE FROM read_parquet('{folder / name}/*.parquet')").fetchall()
        types = {column: kind for column, kind, *_ in described}
        for column in (field.name for field in table.schema if pa.types.is_list(field.type)):
            lists.add((name, column))
            assert [list(value) for value in whole[column]] == table.column(column).to_pylist(), column
            assert types[column].endswith("[]") and polars[column].to_list() == table.column(column).to_pylist()
    assert lists == {("games", "winners"), ("games", "scores"), ("holdings", "bonds")}


def test_a_game_depends_on_the_run_seed_and_its_index_only(reference, tmp_path):
    games = reference["tables"]["games"]
    assert games.column("seed").to_pylist() == [game_seed(5, k) for k in range(24)]
    other = tmp_path / "batch"
    play(other, games=7, chunk_size=5)  # other chunking, fewer games: the same first 7 games
    assert tables_of(other)["games"].equals(games.slice(0, 7))


def test_a_game_of_a_run_can_be_played_again_with_imperial_play(reference, capsys):
    first = reference["tables"]["games"].slice(0, 1).to_pylist()[0]
    assert main(["play", "--seed", str(first["seed"]), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["winners"] == first["winners"] and summary["scores"] == first["scores"]


# ----- Dask -----

def test_a_local_dask_cluster_gives_the_same_tables(reference, tmp_path, monkeypatch):
    """Two workers: this process plays from the start and one Dask worker joins when it is up. This
    process's first game waits here (the worker imports imperial_lab.core.simulate afresh, unpatched) until the
    worker has finished a chunk, so that both play chunks however long the cluster takes to start.
    Meanwhile this process's BLAS runs on one thread (a fork during a multi-threaded OpenBLAS call
    can leave the worker waiting for ever), and afterwards on as many as before."""
    import numpy  # noqa: F401  (loads OpenBLAS, so that the count before is its own)
    from threadpoolctl import threadpool_info

    def blas_threads() -> set:
        return {pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"}

    folder, here, during, before = tmp_path / "batch", [], [], blas_threads()
    recorder = record_after_a_worker_chunk(folder, here)

    def record(*args, **kwargs):
        during.append(blas_threads())
        return recorder(*args, **kwargs)

    monkeypatch.setattr(simulate_module, "record_game", record)
    result = simulate(folder, **RUN, workers=2, progress=False)
    assert during and all(threads <= {1} for threads in during) and blas_threads() == before
    assert result["played_chunks"] == CHUNKS
    assert_same_tables(folder, reference)
    assert 0 < len(here) < RUN["games"] and len(here) % RUN["chunk_size"] == 0, here  # whole chunks on both sides


def test_ctrl_c_while_the_local_cluster_starts(reference, tmp_path, monkeypatch, capsys):
    """Ctrl-C in this process's own chunk, before or while the Dask worker starts: the run stops
    (the cluster is closed, not waited for to play on) and resumes to the same tables."""
    monkeypatch.setitem(bots_module.BOTS, "random", InterruptedOnce)
    monkeypatch.setattr(InterruptedOnce, "fired", False)
    monkeypatch.setattr(InterruptedOnce, "TARGET", game_seed(5, 1))  # chunk 0: always this process's first
    folder, catalog = tmp_path / "batch", tmp_path / "lab.duckdb"
    argv = ["simulate", "--games", "24", "--chunk-size", "3", "--seed", "5", "--workers", "2", "--out", str(folder),
            "--catalog", str(catalog)]
    assert main(argv) == 130
    assert "interrupted" in capsys.readouterr().err
    assert 0 not in runstore.markers(folder) and list_runs(catalog).loc[0, "status"] == "partial"
    assert len(runstore.markers(folder)) < CHUNKS - 1  # the cluster was closed, not left to play the rest
    monkeypatch.setattr(InterruptedOnce, "fired", True)
    assert main(argv) == 0
    assert_same_tables(folder, reference)
    assert not temporaries(folder)


# ----- resume -----

def test_resume_after_the_process_is_killed(reference, tmp_path):
    folder, catalog = tmp_path / "batch", tmp_path / "lab.duckdb"
    argv = ["simulate", "--games", "24", "--chunk-size", "3", "--seed", "5", "--bots", "random", "--workers", "1",
            "--out", str(folder), "--catalog", str(catalog)]
    kept = kill_during(argv, folder)
    assert 2 <= len(kept) < CHUNKS, "the run was not interrupted"
    times = {name: t for name, t in file_times(folder).items() if any(f"chunk-{c:05d}" in name for c in kept)}
    (folder / "games" / f"{runstore.TEMP_MARK}999-chunk-00007.parquet").write_bytes(b"half a file")
    assert main(argv) == 0
    assert {name: t for name, t in file_times(folder).items() if name in times} == times  # nothing redone
    assert_same_tables(folder, reference)
    assert not temporaries(folder)
    assert list_runs(catalog).loc[0, ["games", "chunks", "status"]].tolist() == [24, CHUNKS, "complete"]


def test_a_chunk_without_its_marker_is_played_again(reference, tmp_path):
    folder = tmp_path / "batch"
    shutil.copytree(reference["folder"], folder)
    (folder / runstore.DONE_DIR / "chunk-00002.json").unlink()
    (folder / "events" / "chunk-00002.parquet").unlink()  # as if the writer died before this file
    before = file_times(folder)
    result = play(folder)
    assert result["played_chunks"] == 1 and result["resumed_chunks"] == CHUNKS - 1
    changed = {name for name, t in file_times(folder).items() if before.get(name) != t}
    assert changed == {f"{name}/chunk-00002.parquet" for name in TABLES} | {"_done/chunk-00002.json"}
    assert_same_tables(folder, reference)


class InterruptedOnce(RandomBot):
    """A random bot that raises KeyboardInterrupt (Ctrl-C) once, in the game with seed ``TARGET``."""

    TARGET = game_seed(5, 10)  # a game of chunk 3
    fired = False

    def __init__(self, seed=None):
        super().__init__(seed)
        self.armed = seed is not None and seed // 100 == self.TARGET

    def decide(self, state, legal_actions):
        if self.armed and not InterruptedOnce.fired:
            InterruptedOnce.fired = True
            raise KeyboardInterrupt
        return super().decide(state, legal_actions)


def test_ctrl_c_keeps_the_finished_chunks_and_registers_them(reference, tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(bots_module.BOTS, "random", InterruptedOnce)
    monkeypatch.setattr(InterruptedOnce, "fired", False)
    folder, catalog = tmp_path / "batch", tmp_path / "lab.duckdb"
    argv = ["simulate", "--games", "24", "--chunk-size", "3", "--seed", "5", "--workers", "1", "--out", str(folder),
            "--catalog", str(catalog)]
    assert main(argv) == 130
    err = capsys.readouterr().err
    assert "interrupted" in err and "run the same command again" in err
    assert sorted(runstore.markers(folder)) == [0, 1, 2]
    assert list_runs(catalog).loc[0, ["games", "status"]].tolist() == [9, "partial"]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert "24 games (0 failed) in 8 chunks" in out and "5 chunks played, 3 already done" in out
    assert err == ""  # no progress bar: stderr is not a terminal
    assert_same_tables(folder, reference)


# ----- the chunk size -----

def test_the_automatic_chunk_size_gives_each_process_several_chunks():
    assert auto_chunk_size(400, 2) == 25 and auto_chunk_size(400, 1) == 50
    assert auto_chunk_size(4_000, 2) == auto_chunk_size(10**6, 1) == DEFAULT_CHUNK_SIZE
    assert auto_chunk_size(1, 1) == auto_chunk_size(10, 4) == 1


def first_games_rows(folder: Path, reference: dict, games: int) -> None:
    """The rows of a run of the reference's first ``games`` games are the reference's rows of those games
    (a game depends on the run's seed and its index only); its chunks may differ."""
    for name, table in tables_of(folder).items():  # the dictionaries of categories differ by chunk
        first = reference["tables"][name]
        assert table.to_pylist() == first.filter(pc.less(first["game_id"], games)).to_pylist(), name


def test_without_a_chunk_size_a_new_run_takes_the_automatic_one(reference, tmp_path):
    result = play(tmp_path / "batch", games=6, chunk_size=None)
    assert auto_chunk_size(6, 1) == 1
    assert json.loads((tmp_path / "batch" / "run.json").read_text())["chunk_size"] == 1
    assert result["chunks"] == 6
    first_games_rows(tmp_path / "batch", reference, 6)


def test_without_a_chunk_size_a_resumed_run_keeps_its_own(reference, tmp_path):
    """A run made with another chunk size (an explicit one, or the automatic one of another number of
    workers) resumes with it: nothing refused, nothing played again."""
    folder = tmp_path / "batch"
    play(folder, games=8, chunk_size=4)
    (folder / runstore.DONE_DIR / "chunk-00001.json").unlink()
    assert auto_chunk_size(8, 1) != 4
    result = play(folder, games=8, chunk_size=None)
    assert (result["played_chunks"], result["resumed_chunks"], result["chunks"]) == (1, 1, 2)
    assert json.loads((folder / "run.json").read_text())["chunk_size"] == 4
    first_games_rows(folder, reference, 8)


# ----- refusals and failures -----

def test_other_parameters_for_the_same_folder_are_refused(reference, tmp_path):
    folder = tmp_path / "batch"
    shutil.copytree(reference["folder"], folder)
    with pytest.raises(RunError, match=r"seed 5 \(now 6\).*re-run with the same parameters"):
        play(folder, seed=6)
    with pytest.raises(RunError, match="bots"):
        play(folder, bots=["random"] * 3 + ["heuristic"])
    (tmp_path / "junk").mkdir()
    (tmp_path / "junk" / "notes.txt").write_text("mine")
    with pytest.raises(RunError, match="not empty and holds no run.json"):
        play(tmp_path / "junk")


def test_bad_options_are_refused_before_any_game(tmp_path, capsys):
    base = ["simulate", "--games", "2", "--workers", "1", "--out", str(tmp_path / "x")]
    for extra, words in ((["--bots", "genius"], "unknown bot 'genius'"), (["--setup", "nope"], "unknown setup"),
                         (["--setup", "two_powers", "--players", "3"], "is for 4 players, not 3"),
                         (["--bots", "random,random"], "2 bots named for 4 players")):
        assert main(base + extra) == 2
        assert words in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


class CrashBot(RandomBot):
    """Plays randomly for 40 decisions, then raises."""

    def __init__(self, seed=None):
        super().__init__(seed)
        self.decisions = 0

    def decide(self, state, legal_actions):
        self.decisions += 1
        if self.decisions > 40:
            raise RuntimeError("bot bug")
        return super().decide(state, legal_actions)


class BrokenMachine(RandomBot):
    """A random bot whose decisions raise while ``broken``: a failure of the machine, not of the rules."""

    broken = True

    def decide(self, state, legal_actions):
        if BrokenMachine.broken:
            raise OSError("No space left on device")
        return super().decide(state, legal_actions)


def test_failed_games_end_the_command_with_status_1_and_are_played_again(reference, tmp_path, monkeypatch, capsys):
    """A run with failed games is not ``complete`` and exits 1 with a line saying so; the same command
    again plays the chunks of the failed games again, and only those."""
    monkeypatch.setitem(bots_module.BOTS, "random", BrokenMachine)
    monkeypatch.setattr(BrokenMachine, "broken", True)
    folder, catalog = tmp_path / "batch", tmp_path / "lab.duckdb"
    argv = ["simulate", "--games", "24", "--chunk-size", "3", "--seed", "5", "--workers", "1", "--out", str(folder),
            "--catalog", str(catalog)]
    shutil.copytree(reference["folder"], folder)
    for chunk in (2, 5):  # as if these chunks had been played while the machine was broken
        (folder / runstore.DONE_DIR / f"chunk-{chunk:05d}.json").unlink()
    assert main(argv) == 1
    out, err = capsys.readouterr()
    assert "24 games (6 failed) in 8 chunks" in out
    assert err == ("imperial: error: 6 of 24 games of run batch failed (status 'failed' in its games table, with the "
                   "error and the moves before it); run the same command again to play them again\n")
    assert list_runs(catalog).loc[0, "status"] == "failed"
    assert "OSError: No space left on device" in tables_of(folder)["games"].to_pylist()[6]["error"]
    before = file_times(folder)
    monkeypatch.setattr(BrokenMachine, "broken", False)
    assert main(argv) == 0
    assert "2 chunks played, 6 already done" in capsys.readouterr().out
    changed = {name.split("/")[-1] for name, t in file_times(folder).items() if before[name] != t}
    assert changed == {"chunk-00002.parquet", "chunk-00005.parquet", "chunk-00002.json", "chunk-00005.json"}
    assert list_runs(catalog).loc[0, "status"] == "complete"
    assert_same_tables(folder, reference)


def test_a_run_of_another_version_of_the_lab_is_not_resumed(reference, tmp_path):
    folder = tmp_path / "batch"
    shutil.copytree(reference["folder"], folder)
    saved = json.loads((folder / "run.json").read_text())
    assert saved["version"] == lab_version()
    (folder / "run.json").write_text(json.dumps({**saved, "version": "0.0.1"}))
    with pytest.raises(RunError, match=rf"^{folder} holds a run made by imperial-lab 0.0.1, and this is "
                                       rf"{re.escape(lab_version())}: .* resume it with 0.0.1, or choose a new --out$"):
        play(folder)
    (folder / "run.json").write_text(json.dumps({key: value for key, value in saved.items() if key != "version"}))
    assert play(folder)["played_chunks"] == 0  # made before versions were recorded: resumed


def test_a_game_that_raises_is_a_failed_row_with_seed_and_log(tmp_path, monkeypatch):
    monkeypatch.setitem(bots_module.BOTS, "crash", CrashBot)
    folder = tmp_path / "crashing"
    result = play(folder, games=4, chunk_size=2, bots=["random", "random", "random", "crash"])
    assert result["games"] == 4 and result["failed"] == 4 and result["status"] == "failed"
    games = tables_of(folder)["games"].to_pylist()
    assert [g["game_id"] for g in games] == [0, 1, 2, 3]
    for k, game in enumerate(games):
        assert game["status"] == "failed" and game["seed"] == game_seed(5, k)
        assert "RuntimeError: bot bug" in game["error"]
        state = replay(game["log"].splitlines())  # the log holds every action before the error
        assert not state.is_terminal() and state.current_player() == 3
