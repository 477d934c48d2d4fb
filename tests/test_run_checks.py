"""Refusals of ``simulate`` and ``import`` (imperial_lab.core.simulate, imperial_lab.core.imports): each is one clear error,
raised before anything is written; and damaged run folders (imperial_lab.core.runstore), reported by name and
kept from stopping the other runs of the catalogue."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from imperial_lab.core import runstore
from imperial_lab.core.catalog import CatalogError, list_runs, query, register_run
from imperial_lab.core.imports import import_logs
from imperial_lab.core.runstore import RunError
from imperial_lab.core.simulate import MAX_CHUNK_SIZE, MAX_CHUNKS, MAX_GAMES, simulate, summarize
from tests.file_snapshots import snapshot
from tests.lab_fixtures import WAIT_SECONDS

SMALL = dict(games=1, players=None, setup="standard", bots=["random"] * 4, seed=1, workers=1, chunk_size=1,
             progress=False)


@pytest.fixture(scope="module")
def lab(tmp_path_factory) -> SimpleNamespace:
    """A catalogue with the run ``alpha`` (one game), and that game's move log."""
    root = tmp_path_factory.mktemp("checks")
    catalog, alpha = root / "lab.duckdb", root / "runs" / "alpha"
    simulate(alpha, catalog=catalog, **SMALL)
    log = root / "game.jsonl"
    log.write_text(query("SELECT log FROM games", catalog).log.iloc[0])
    return SimpleNamespace(root=root, catalog=catalog, alpha=alpha, log=log)


def refused(error, match: str, call, *watched: Path) -> str:
    """``call()`` raises ``error`` matching ``match``, on one line, leaving the ``watched`` files as they were."""
    before = snapshot(*watched)
    with pytest.raises(error, match=match) as caught:
        call()
    assert snapshot(*watched) == before
    assert "\n" not in str(caught.value)
    return str(caught.value)


# ----- simulate: parameters -----

@pytest.mark.parametrize("changes, match", [
    ({"games": 10**12}, f"^--games 1000000000000: must be a whole number from 1 to {MAX_GAMES:,}$"),
    ({"games": 0}, "^--games 0: must be"),
    ({"games": True}, "^--games True: must be"),
    ({"seed": -1}, "^--seed -1: must be a whole number from 0 to 9,223,372,036,854,775,807$"),
    ({"seed": 2**63}, "^--seed 9223372036854775808: must be"),
    ({"chunk_size": 0}, "^--chunk-size 0: must be"),
    ({"chunk_size": MAX_CHUNK_SIZE + 1}, f"^--chunk-size {MAX_CHUNK_SIZE + 1}: must be a whole number from 1 to "),
    ({"workers": 0}, "^--workers 0: must be"),
    ({"games": MAX_CHUNKS + 1}, f"^--games {MAX_CHUNKS + 1:,} in chunks of 1 make {MAX_CHUNKS + 1:,} chunks, more than "
                                f"{MAX_CHUNKS:,}: use --chunk-size 2 or more$"),
])
def test_numbers_out_of_range_are_refused_before_any_game(tmp_path, changes, match):
    refused(RunError, match, lambda: simulate(tmp_path / "run", **{**SMALL, **changes}))
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("name", [".hidden", "a\tb", "x" * 101])
def test_a_run_folder_must_have_a_plain_name(tmp_path, name):
    refused(RunError, "^run name .*: .*; a run is named by a plain folder name such as h10k$",
            lambda: simulate(tmp_path / name, **SMALL))
    assert list(tmp_path.iterdir()) == []


# ----- simulate: the catalogue and the scheduler, checked before the run folder is made -----

def test_a_catalogue_that_is_not_a_duckdb_file_is_refused(tmp_path):
    catalog = tmp_path / "notes.duckdb"
    catalog.write_text("my notes\n")
    refused(CatalogError, f"^catalogue {catalog}: IO Error: .*not a valid DuckDB database file",
            lambda: simulate(tmp_path / "run", catalog=catalog, **SMALL), catalog)
    assert not (tmp_path / "run").exists()


def test_a_catalogue_path_that_cannot_be_a_file_is_refused(tmp_path):
    folder, file = tmp_path / "folder", tmp_path / "file"
    folder.mkdir()
    file.write_text("a file")
    for catalog, why in ((folder, "is a folder, not a file"), (file / "lab.duckdb", f"{file} is a file, not a folder")):
        refused(CatalogError, f"^catalogue {catalog}: {why}$",
                lambda: simulate(tmp_path / "run", catalog=catalog, **SMALL), tmp_path)
    assert not (tmp_path / "run").exists()


def test_a_catalogue_locked_by_another_process_is_refused(lab, tmp_path):
    ready = tmp_path / "ready"
    holder = subprocess.Popen([sys.executable, "-c", "import duckdb, pathlib, sys; con = duckdb.connect(sys.argv[1]); "
                               "pathlib.Path(sys.argv[2]).touch(); sys.stdin.read()", str(lab.catalog), str(ready)],
                              stdin=subprocess.PIPE)
    try:
        deadline = time.monotonic() + WAIT_SECONDS
        while not ready.exists() and holder.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert ready.exists(), "the other process did not open the catalogue"
        refused(CatalogError, f"^catalogue {lab.catalog}: IO Error: Could not set lock on file .*Conflicting lock",
                lambda: simulate(tmp_path / "run", catalog=lab.catalog, **SMALL), lab.catalog)
    finally:
        holder.communicate(timeout=WAIT_SECONDS)  # closes its stdin: it exits
    assert not (tmp_path / "run").exists()


def test_a_run_name_taken_by_another_folder_is_refused(lab, tmp_path):
    other = tmp_path / "alpha"
    refused(CatalogError, f"^the catalogue already has a run named 'alpha' at {lab.alpha}; give this run another name",
            lambda: simulate(other, catalog=lab.catalog, **SMALL), lab.catalog)
    assert not other.exists()


def test_the_same_run_resumes_in_its_catalogue(lab):
    result = simulate(lab.alpha, catalog=lab.catalog, **SMALL)
    assert (result["played_chunks"], result["resumed_chunks"]) == (0, 1)


@pytest.mark.parametrize("address, match", [
    ("nonsense", "^--scheduler 'nonsense': not a scheduler address such as tcp://HOST:8786$"),
    ("tcp://127.0.0.1:99999", "not a scheduler address"),
    ("inproc://127.0.0.1/1", "not a scheduler address"),
    ("tcp://127.0.0.1:1", r"^--scheduler tcp://127.0.0.1:1: cannot connect \(Connection refused\); is a dask "
                          r"scheduler running there\?$"),
])
def test_a_scheduler_that_does_not_answer_is_refused(lab, tmp_path, address, match):
    refused(RunError, match, lambda: simulate(tmp_path / "run", scheduler=address, catalog=lab.catalog, **SMALL),
            lab.catalog)
    assert not (tmp_path / "run").exists()


# ----- import -----

def bad_logs(folder: Path) -> list[Path]:
    malformed, empty, big = folder / "malformed.jsonl", folder / "empty.jsonl", folder / "big.jsonl"
    malformed.write_text('{"game": "imperial2030"\n')
    empty.write_text("")
    with open(big, "wb") as file:
        file.truncate(9 * 2**20)  # sparse: its size is refused before it is read
    return [malformed, empty, big, folder / "missing.jsonl", folder]


def test_an_import_of_bad_logs_only_writes_nothing(lab, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    paths = bad_logs(tmp_path)
    before = snapshot(lab.catalog, tmp_path)
    result = import_logs(paths, "club", catalog=lab.catalog)
    assert result["added"] == 0 and len(result["errors"]) == len(paths)
    assert [error.split(":")[0] for error in result["errors"]] == [str(path) for path in paths]
    assert all("\n" not in error for error in result["errors"])
    assert "more than" in result["errors"][2]
    assert snapshot(lab.catalog, tmp_path) == before
    assert not (tmp_path / "runs").exists()


def test_an_import_of_known_logs_only_writes_nothing(lab, tmp_path):
    club = tmp_path / "club"
    first = import_logs([lab.log], "club", club)
    assert first["added"] == 1
    before = snapshot(club)
    again = import_logs([lab.log, *bad_logs(tmp_path)[:1]], "club", club)
    assert (again["added"], again["skipped"], len(again["errors"])) == (0, [str(lab.log)], 1)
    assert snapshot(club) == before


@pytest.mark.parametrize("name", ["../../x", "a/b", "a\\b", "", ".", "..", ".club", "x" * 101, "a\nb"])
def test_an_import_run_must_have_a_plain_name(lab, tmp_path, monkeypatch, name):
    work = tmp_path / "a" / "b"
    work.mkdir(parents=True)
    monkeypatch.chdir(work)
    refused(RunError, "^run name .*; a run is named by a plain folder name such as h10k$",
            lambda: import_logs([lab.log], name, catalog=lab.catalog), lab.catalog)
    refused(RunError, "^run name ", lambda: import_logs([lab.log], name, tmp_path / "out"))
    assert [path.name for path in tmp_path.rglob("*")] == ["a", "b"]


def test_an_import_into_a_taken_name_is_refused_before_reading_a_log(lab, tmp_path):
    refused(CatalogError, "already has a run named 'alpha'",
            lambda: import_logs([lab.log], "alpha", tmp_path / "alpha", catalog=lab.catalog), lab.catalog)
    assert not (tmp_path / "alpha").exists()


# ----- damaged run folders -----

MARKER = {"chunk": 0, "first": 0, "count": 1, "failed": 0, "rows": {"games": 1}}


@pytest.mark.parametrize("content, match", [
    ("{oops", "not valid JSON"),
    ("[]", "not a JSON object"),
    ({**MARKER, "count": "1"}, "'count' is '1', not a whole number >= 0"),
    ({**MARKER, "first": -1}, "'first' is -1, not a whole number >= 0"),
    ({**MARKER, "failed": True}, "'failed' is True"),
    ({**MARKER, "chunk": 2**70}, "'chunk' is 1180591620717411303424"),
    ({k: v for k, v in MARKER.items() if k != "chunk"}, "'chunk' is None"),
    ({**MARKER, "chunk": 3}, "it is the marker of chunk 3"),
    ({**MARKER, "rows": [1]}, "'rows' is \\[1\\], not a row count per table"),
    ({**MARKER, "rows": {"games": -1}}, "'rows' is"),
    ("[" * 100 + "]" * 100, "nested more than"),
])
def test_a_damaged_marker_is_named(tmp_path, content, match):
    path = runstore.marker_path(tmp_path, 0)
    path.parent.mkdir()
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    with pytest.raises(RunError, match=f"^{path}: .*{match}"):
        runstore.markers(tmp_path)
    with pytest.raises(RunError, match=f"^{path}: "):
        summarize(tmp_path)


def test_a_huge_marker_is_refused_unread(tmp_path):
    path = runstore.marker_path(tmp_path, 0)
    path.parent.mkdir()
    with open(path, "wb") as file:
        file.truncate(9 * 2**20)
    with pytest.raises(RunError, match=f"^{path}: .*more than .*8,388,608"):
        runstore.markers(tmp_path)


RUN = {"kind": "simulate", "name": "r", "created": "2030-01-01T00:00:00+00:00", "games": 1, "players": 4,
       "setup": "standard", "bots": ["random"] * 4, "seed": 1, "chunk_size": 1, "config": {}}


@pytest.mark.parametrize("content, match", [
    ("nope", "not valid JSON"),
    ('"run"', "not a JSON object"),
    ({k: v for k, v in RUN.items() if k != "created"}, "no 'created'"),
    ({**RUN, "kind": "magic"}, "'kind' is 'magic', not one of simulate, import"),
    ({**RUN, "games": "many"}, "'games' is 'many', not a whole number"),
    ({**RUN, "seed": 2**64}, "'seed' is 18446744073709551616, not a whole number"),
    ({**RUN, "bots": "random"}, "'bots' is 'random', not a list"),
    ({**RUN, "bots": [1, 2]}, "'bots' holds a value that is not a bot name"),
    ({**RUN, "created": "yesterday"}, "'created' is 'yesterday', not a date and time"),
    ({**RUN, "name": "../x"}, "'name' '../x' has a / or"),
])
def test_a_damaged_run_json_is_named(tmp_path, content, match):
    path = tmp_path / runstore.RUN_FILE
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    with pytest.raises(RunError, match=f"^{path}: .*{match}"):
        runstore.read_run(tmp_path)


def test_a_damaged_run_is_named_for_itself_and_left_out_for_the_others(tmp_path, caplog):
    catalog, beta, gamma = tmp_path / "lab.duckdb", tmp_path / "beta", tmp_path / "gamma"
    for folder in (beta, gamma):
        simulate(folder, catalog=catalog, **SMALL)
    marker = runstore.marker_path(beta, 0)
    marker.write_text("{oops")
    run_json = gamma / runstore.RUN_FILE
    run_json.write_text(json.dumps({**json.loads(run_json.read_text()), "games": "all"}))
    for call in (lambda: simulate(beta, catalog=catalog, **SMALL), lambda: register_run(beta, "complete", catalog)):
        refused(RunError, f"^{marker}: not valid JSON", call, catalog, beta)
    for call in (lambda: simulate(gamma, catalog=catalog, **SMALL), lambda: register_run(gamma, "complete", catalog)):
        refused(RunError, f"^{run_json}: 'games' is 'all'", call, catalog, gamma)
    with caplog.at_level(logging.WARNING, logger="imperial_lab.core.catalog"):
        simulate(tmp_path / "delta", catalog=catalog, **SMALL)  # registering another run rebuilds the views
    assert f"the run at {beta} is left out of the catalogue's views: {marker}: not valid JSON" in caplog.text
    assert query("SELECT DISTINCT run FROM games ORDER BY run", catalog).run.tolist() == ["delta", "gamma"]
    assert sorted(list_runs(catalog).name) == ["beta", "delta", "gamma"]
