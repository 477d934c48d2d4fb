"""The folder of a run (docs/batch-runs.md): one Parquet file per table and chunk, a marker per
finished chunk, and the run's parameters.

    runs/NAME/run.json                        parameters (kind, games, seed, ..., the lab's version), written once
    runs/NAME/<table>/chunk-00000.parquet     one file per table of the tables of imperial_lab.core.tables
    runs/NAME/_done/chunk-00000.json          the chunk's marker: written last, so it proves the rest

Every file is written under a temporary name in its own folder and then renamed (``os.replace`` is
atomic on one file system), so a reader never sees half a file, and a chunk without its marker is
simply done again: nothing finished is lost, nothing counted twice.
"""

from __future__ import annotations

import json
import os
from datetime import datetime, UTC
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from imperial_lab.core import lab_version
from imperial_lab.core.errors import ImperialError
from imperial_lab.core.jsonio import clip, read_json_file
from imperial_lab.core.registry import game_of

RUN_FILE = "run.json"
DONE_DIR = "_done"
TEMP_MARK = ".tmp-"
MAX_NAME_CHARS = 100  # a run's name is a folder name and the ``run`` value of every row it holds
KINDS = ("simulate", "import")
# The fields of run.json and their types; the first three are in every run.json this lab writes.
RUN_FIELDS = {"kind": str, "name": str, "created": str, "version": str, "games": int, "players": int, "setup": str, "bots": list,
              "seed": int, "chunk_size": int, "config": dict}
REQUIRED_FIELDS = ("kind", "name", "created")
TYPE_NAMES = {str: "a string", int: "a whole number", list: "a list", dict: "an object"}
MARKER_COUNTS = ("chunk", "first", "count", "failed")
INT64 = range(-2**63, 2**63)  # whole numbers of run.json and the markers must fit the catalogue's BIGINT


class RunError(ImperialError):
    """A run folder cannot be used as asked (other parameters, another kind of run, ...)."""


def chunk_name(chunk: int) -> str:
    return f"chunk-{chunk:05d}"


def check_name(name) -> str:
    """``name`` if it can name a run, else RunError: it becomes a folder of its own, never a path."""
    why = _name_fault(name)
    if why:
        raise RunError(f"run name {clip(name)}: {why}; a run is named by a plain folder name such as h10k")
    return name


def _name_fault(name) -> str | None:
    if not isinstance(name, str) or not name:
        return "is empty"
    if len(name) > MAX_NAME_CHARS:
        return f"longer than {MAX_NAME_CHARS} characters"
    if "/" in name or "\\" in name:
        return "has a / or \\ in it"
    if name.startswith("."):
        return "starts with a dot"
    if not name.isprintable():
        return "has a control character in it"
    return None


# ----- writing -----

def check_new(folder: Path) -> None:
    """Refuse a folder for a new run unless it is missing or empty: a run never mixes with other files."""
    if folder.exists() and not folder.is_dir():
        raise RunError(f"{folder}: is a file, not a folder; choose a new --out")
    if folder.is_dir() and any(folder.iterdir()):
        raise RunError(f"{folder}: the folder is not empty and holds no run.json; choose a new --out")


def create_run(folder: Path, params: dict) -> None:
    """Start a run in ``folder`` (new or empty): its run.json, with the time it was created and the
    version of the lab that made it."""
    check_new(folder)
    stamp = datetime.now(UTC).isoformat(timespec="seconds")
    write_json(folder / RUN_FILE, {**params, "created": stamp, "version": lab_version()})


def write_chunk(folder: Path, chunk: int, frames: dict, marker: dict) -> None:
    """Write every table of one chunk, then its marker (``marker`` is stored in it)."""
    for table, frame in frames.items():
        write_parquet(folder / table / f"{chunk_name(chunk)}.parquet", frame)
    write_json(marker_path(folder, chunk), {"chunk": chunk, **marker})


def marker_path(folder: Path, chunk: int) -> Path:
    return folder / DONE_DIR / f"{chunk_name(chunk)}.json"


def write_parquet(path: Path, frame) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    table = arrow_table(frame)
    _replace_into(path, lambda file: pq.write_table(table, file))


def arrow_table(frame) -> pa.Table:
    """``frame`` as an Arrow table whose Parquet file every reader takes, plain ``pd.read_parquet`` too.

    pandas records a ``pd.ArrowDtype`` column (our lists) under a dtype name it cannot parse back
    (pandas #57411); recorded as ``object``, it is read as one array per row, and as Arrow lists by
    ``dtype_backend="pyarrow"``, DuckDB and pyarrow, which go by the Parquet schema.
    """
    table = pa.Table.from_pandas(frame, preserve_index=False)
    pandas_meta = json.loads(table.schema.metadata[b"pandas"])
    for column in pandas_meta["columns"]:
        if column["numpy_type"].endswith("[pyarrow]"):
            column["numpy_type"] = "object"
    return table.replace_schema_metadata({**table.schema.metadata, b"pandas": json.dumps(pandas_meta)})


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

def is_rotated(folder) -> bool:
    """Whether the run in ``folder`` turns its line-up by one seat per game (a league). A run.json that
    is missing or unreadable counts as not rotated: lists of runs must not fail on one bad folder."""
    try:
        params = read_run(Path(folder))
    except (RunError, OSError):
        return False
    return bool(params and params.get("rotate"))


def run_game(folder) -> str:
    """The game of the run in ``folder`` (its run.json's ``game``; the default game without one). A
    run.json that is missing or unreadable counts as the default game, as in ``is_rotated``."""
    try:
        params = read_run(Path(folder))
    except (RunError, OSError):
        params = None
    return game_of(params or {})


def read_run(folder: Path) -> dict | None:
    """The parameters of the run in ``folder``, or None when there is none yet; RunError naming
    run.json if it is not one this lab wrote."""
    path = folder / RUN_FILE
    if not path.exists():
        return None
    params = read_json_file(path, RunError)
    why = _run_fault(params)
    if why:
        raise RunError(f"{path}: {why}: not the run.json of a run of this lab")
    return params


def _run_fault(params) -> str | None:
    if not isinstance(params, dict):
        return "not a JSON object"
    missing = [key for key in REQUIRED_FIELDS if key not in params]
    if missing:
        return f"no {missing[0]!r}"
    for key, kind in RUN_FIELDS.items():
        value = params.get(key)
        if value is not None and not _is(value, kind):
            return f"{key!r} is {clip(value)}, not {TYPE_NAMES[kind]}"
    if params["kind"] not in KINDS:
        return f"'kind' is {clip(params['kind'])}, not one of {', '.join(KINDS)}"
    if not all(isinstance(bot, str) for bot in params.get("bots") or []):
        return "'bots' holds a value that is not a bot name"
    try:
        datetime.fromisoformat(params["created"])
    except ValueError:
        return f"'created' is {clip(params['created'])}, not a date and time"
    name_fault = _name_fault(params["name"])
    return name_fault and f"'name' {clip(params['name'])} {name_fault}"


def _is(value, kind: type) -> bool:
    """``isinstance`` where a whole number is an int of BIGINT's range, never a bool."""
    if kind is int:
        return type(value) is int and value in INT64
    return isinstance(value, kind)


def markers(folder: Path) -> dict[int, dict]:
    """The markers of the finished chunks, by chunk number; RunError naming a marker that is not one
    this lab wrote."""
    done = {}
    for path in sorted((folder / DONE_DIR).glob("chunk-*.json")):
        marker = read_json_file(path, RunError)
        why = _marker_fault(marker, path)
        if why:
            raise RunError(f"{path}: {why}: not a chunk marker of this lab")
        done[marker["chunk"]] = marker
    return done


def _marker_fault(marker, path: Path) -> str | None:
    if not isinstance(marker, dict):
        return "not a JSON object"
    for key in MARKER_COUNTS:
        if not (_is(marker.get(key), int) and marker[key] >= 0):
            return f"{key!r} is {clip(marker.get(key))}, not a whole number >= 0"
    if marker_path(path.parents[1], marker["chunk"]) != path:
        return f"it is the marker of chunk {marker['chunk']}"
    rows = marker.get("rows")
    if not (isinstance(rows, dict) and all(_is(n, int) and n >= 0 for n in rows.values())):
        return f"'rows' is {clip(rows)}, not a row count per table"
    return None


def chunk_files(folder: Path, table: str) -> list[Path]:
    """The Parquet files of ``table`` that belong to finished chunks (never a chunk in progress)."""
    files = (folder / table / f"{chunk_name(chunk)}.parquet" for chunk in sorted(markers(folder)))
    return [path for path in files if path.is_file()]
