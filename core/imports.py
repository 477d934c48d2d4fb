"""``imperial import``: move logs (games played elsewhere, or written down by hand) as a run
(README "Recorded games").

Every log is replayed and checked move by move (``core.tables.record_replay``); a bad one is
reported with its line and nothing of it is added. The good ones go into new chunks of the run
folder, so importing more logs later adds to the run; a log whose content is already in the run
(its SHA-256 is kept in the chunk markers) is skipped, so nothing is imported twice.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from core import runstore
from core.errors import LogError
from core.gamelog import read_log
from core.runstore import RunError
from core.tables import frames, merge_rows, record_replay

CHUNK_SIZE = 1000


def import_logs(paths: list, run: str, out=None, catalog=None, chunk_size: int = CHUNK_SIZE) -> dict:
    """Add the good logs of ``paths`` to run ``run`` (folder ``out``, default ``runs/<run>``); returns
    ``added``, ``skipped`` (already in the run) and ``errors`` (one ``FILE:LINE: why`` per bad file)."""
    folder = Path(out or Path("runs") / run).resolve()
    _claim(folder, run)
    runstore.remove_temporaries(folder)
    done = runstore.markers(folder)
    known = {log["sha256"] for marker in done.values() for log in marker["logs"]}
    next_id = max((m["first"] + m["count"] for m in done.values()), default=0)
    games, logs, errors, skipped = [], [], [], []
    for path in map(Path, paths):
        try:
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
        except OSError as exc:
            errors.append(f"{path}: {exc.strerror or exc}")
            continue
        if digest in known:
            skipped.append(str(path))
            continue
        try:
            games.append(_record(path, run, next_id))
        except LogError as exc:
            errors.append(str(exc))
            continue
        known.add(digest)
        logs.append({"path": str(path.resolve()), "sha256": digest, "game_id": next_id})
        next_id += 1
    chunk = max(done, default=-1) + 1
    for start in range(0, len(games), chunk_size):
        _write(folder, chunk, games[start:start + chunk_size], logs[start:start + chunk_size])
        chunk += 1
    if catalog is not None and (games or not done):
        from core.catalog import register_run
        register_run(folder, "imported", catalog)
    return {"run": run, "path": str(folder), "added": len(games), "skipped": skipped, "errors": errors}


def _claim(folder: Path, run: str) -> None:
    saved = runstore.read_run(folder)
    if saved is None:
        runstore.create_run(folder, {"kind": "import", "name": run})
    elif saved.get("kind") != "import":
        raise RunError(f"{folder}: holds a run of kind {saved.get('kind')!r}; imported games go into a run of their "
                       f"own (choose another --run or --out)")
    elif saved.get("name") != run:
        raise RunError(f"{folder}: holds the run {saved.get('name')!r}, not {run!r}")


def _record(path: Path, run: str, game_id: int) -> dict:
    """The rows of one log; LogError (with the line) if it is malformed or replays an illegal move."""
    config, _ = read_log(path)
    setup = config.get("setup", "standard")
    if setup == "custom":
        # A named setup of core.setups carries its name in the config's free label.
        setup = config.get("name") or "custom"
    return record_replay(path, run, game_id, setup)


def _write(folder: Path, chunk: int, games: list[dict], logs: list[dict]) -> None:
    tables = frames(merge_rows(games))
    first = logs[0]["game_id"]
    marker = {"first": first, "count": len(logs), "failed": 0, "logs": logs,
              "rows": {name: len(df) for name, df in tables.items()}}
    runstore.write_chunk(folder, chunk, tables, marker)
