"""The folder of a run (README "Batch runs"): one Parquet file per table and chunk, a marker per
finished chunk, and the run's parameters.

    runs/NAME/run.json                        parameters (kind, games, seed, ...), written once
    runs/NAME/<table>/chunk-00000.parquet     one file per table of the tables of core.tables
    runs/NAME/_done/chunk-00000.json          the chunk's marker: written last, so it proves the rest

Every file is written under a temporary name in its own folder and then renamed (``os.replace`` is
atomic on one file system), so a reader never sees half a file, and a chunk without its marker is
simply done again: nothing finished is lost, nothing counted twice.
"""

from __future__ import annotations

import json
import os
from datetime import datetime, timezone
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from core.errors import ImperialError

RUN_FILE = "run.json"
DONE_DIR = "_done"
TEMP_MARK = ".tmp-"


class RunError(ImperialError):
    """A run folder cannot be used as asked (other parameters, another kind of run, ...)."""


def chunk_name(chunk: int) -> str:
    return f"chunk-{chunk:05d}"


# ----- writing -----

def create_run(folder: Path, params: dict) -> None:
    """Start a run in ``folder`` (new or empty): its run.json, with the time it was created."""
    if folder.is_dir() and any(folder.iterdir()):
        raise RunError(f"{folder}: the folder is not empty and holds no run.json; choose a new --out")
    stamp = datetime.now(timezone.utc).isoformat(timespec="seconds")
    write_json(folder / RUN_FILE, {**params, "created": stamp})


def write_chunk(folder: Path, chunk: int, frames: dict, marker: dict) -> None:
    """Write every table of one chunk, then its marker (``marker`` is stored in it)."""
    name = chunk_name(chunk)
    for table, frame in frames.items():
        write_parquet(folder / table / f"{name}.parquet", frame)
    write_json(folder / DONE_DIR / f"{name}.json", {"chunk": chunk, **marker})


def write_parquet(path: Path, frame) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    table = pa.Table.from_pandas(frame, preserve_index=False)
    _replace_into(path, lambda file: pq.write_table(table, file))


def write_json(path: Path, doc: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    _replace_into(path, lambda file: file.write((json.dumps(doc, indent=2) + "\n").encode("utf-8")))


def _replace_into(target: Path, write) -> None:
    """``write(file)`` into a temporary file, then rename it over ``target``.

    The data is synced before the rename, so even a machine crash cannot leave a marker whose
    files are empty; the pid keeps the temporaries of two writers apart.
    """
    tmp = target.with_name(f"{TEMP_MARK}{os.getpid()}-{target.name}")
    try:
        with open(tmp, "wb") as file:
            write(file)
            file.flush()
            os.fsync(file.fileno())
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


def remove_temporaries(folder: Path) -> None:
    """Delete what interrupted writers left behind."""
    for path in folder.rglob(f"{TEMP_MARK}*"):
        if path.is_file():
            path.unlink(missing_ok=True)


# ----- reading -----

def read_run(folder: Path) -> dict | None:
    """The parameters of the run in ``folder``, or None when there is none yet."""
    path = folder / RUN_FILE
    if not path.is_file():
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise RunError(f"{path}: not valid JSON ({exc}); is this a run folder?") from None


def markers(folder: Path) -> dict[int, dict]:
    """The markers of the finished chunks, by chunk number."""
    done = {}
    for path in sorted((folder / DONE_DIR).glob("chunk-*.json")):
        marker = json.loads(path.read_text(encoding="utf-8"))
        done[marker["chunk"]] = marker
    return done


def chunk_files(folder: Path, table: str) -> list[Path]:
    """The Parquet files of ``table`` that belong to finished chunks (never a chunk in progress)."""
    files = (folder / table / f"{chunk_name(chunk)}.parquet" for chunk in sorted(markers(folder)))
    return [path for path in files if path.is_file()]
