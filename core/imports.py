"""``imperial import``: move logs (games played elsewhere, or written down by hand) as a run
(docs/batch-runs.md, "Recorded games").

Every log is replayed and checked move by move (``imperial_lab.core.tables.record_replay``); a bad one is
reported with its line and nothing of it is added. The good ones go into new chunks of the run
folder, so importing more logs later adds to the run; a log whose content is already in the run
(its SHA-256 is kept in the chunk markers) is skipped, so nothing is imported twice.
"""

from __future__ import annotations

import hashlib
from itertools import islice
from pathlib import Path

from imperial_lab.core import runstore
from imperial_lab.core.errors import ImperialError
from imperial_lab.core.gamelog import read_log
from imperial_lab.core.jsonio import clip, read_text
from imperial_lab.core.registry import game_of, plugin
from imperial_lab.core.runstore import RunError
from imperial_lab.core.tables import frames, merge_rows, record_replay

CHUNK_SIZE = 1000


def import_logs(paths: list, run: str, out=None, catalog=None, chunk_size: int = CHUNK_SIZE,
                game: str | None = None) -> dict:
    """Add the good logs of ``paths`` to run ``run`` (folder ``out``, default ``runs/<run>``); returns
    ``added``, ``skipped`` (already in the run) and ``errors`` (one ``FILE:LINE: why`` per bad file).
    A run holds the games of one game: the one its run.json names, else ``game`` (default Imperial
    2030); a log of another game is a bad file.

    The run, its folder and the catalogue are checked before any log is read; nothing is written
    (no folder, no catalogue entry) unless at least one log is good and new.
    """
    runstore.check_name(run)  # also with --out: it is the run column of every row
    folder = Path(out or Path("runs") / run).resolve()
    saved = _saved_run(folder, run)
    game = plugin(game_of(saved) if saved is not None else game).name
    done = runstore.markers(folder)
    if catalog is not None:
        from imperial_lab.core.catalog import check_catalog
        check_catalog(run, folder, catalog)
    known = _known_logs(folder, done)
    next_id = max((m["first"] + m["count"] for m in done.values()), default=0)
    errors: list[str] = []
    skipped: list[str] = []
    good = _good_logs(map(Path, paths), run, game, known, next_id, errors, skipped)
    added, chunk = 0, max(done, default=-1) + 1
    while batch := list(islice(good, chunk_size)):  # a chunk at a time: the rows of all logs may not fit
        if not added:  # the first good log: only now is anything written
            _open(folder, run, game, saved)
        _write(folder, chunk, batch, game)
        added, chunk = added + len(batch), chunk + 1
    if catalog is not None and added:
        from imperial_lab.core.catalog import register_run
        register_run(folder, "imported", catalog)
    return {"run": run, "path": str(folder), "added": added, "skipped": skipped, "errors": errors}


def _saved_run(folder: Path, run: str) -> dict | None:
    """The run.json of the import run in ``folder``, None if there is no run there yet."""
    saved = runstore.read_run(folder)
    if saved is None:
        runstore.check_new(folder)
    elif saved["kind"] != "import":
        raise RunError(f"{folder}: holds a run of kind {saved['kind']!r}; imported games go into a run of their "
                       f"own (choose another --run or --out)")
    elif saved["name"] != run:
        raise RunError(f"{folder}: holds the run {saved['name']!r}, not {run!r}")
    return saved


def _open(folder: Path, run: str, game: str, saved: dict | None) -> None:
    if saved is None:
        runstore.create_run(folder, {"kind": "import", "game": game, "name": run})
    else:
        runstore.remove_temporaries(folder)


def _known_logs(folder: Path, done: dict[int, dict]) -> set[str]:
    """The SHA-256 of every log already in the run, from its markers."""
    known: set[str] = set()
    for chunk, marker in done.items():
        logs = marker.get("logs")
        if not (isinstance(logs, list) and all(isinstance(log, dict) and isinstance(log.get("sha256"), str)
                                               for log in logs)):
            raise RunError(f"{runstore.marker_path(folder, chunk)}: no list of the chunk's logs with their sha256: "
                           f"not a marker of an import run")
        known.update(log["sha256"] for log in logs)
    return known


def _good_logs(paths, run: str, game: str, known: set[str], next_id: int, errors: list, skipped: list):
    """(rows, log entry) of each good log that is not in the run yet, numbered from ``next_id``; a
    bad file goes to ``errors``, a known one to ``skipped``."""
    for path in paths:
        try:
            digest = _digest(path)
            if digest in known:
                skipped.append(str(path))
                continue
            rows = _record(path, run, game, next_id)
        except ImperialError as exc:
            errors.append(str(exc))
            continue
        known.add(digest)
        yield rows, {"path": str(path.resolve()), "sha256": digest, "game_id": next_id}
        next_id += 1


def _digest(path: Path) -> str:
    """The SHA-256 of the log's text in UTF-8, which is that of its bytes for every log in UTF-8; the
    text is read within the bounds of imperial_lab.core.jsonio."""
    return hashlib.sha256(read_text(path, ImperialError).encode("utf-8")).hexdigest()


def _record(path: Path, run: str, game: str, game_id: int) -> dict:
    """The rows of one log; an ImperialError naming the file (LogError: and the line) if it cannot be
    read, is malformed, is a game of another game than the run's or replays an illegal move."""
    config, _ = read_log(path)
    if game_of(config) != game:
        raise RunError(f"{path}: a game of {clip(game_of(config))}, but run {run!r} holds games of {game}")
    return record_replay(path, run, game_id, setup_name(config))


def setup_name(config: dict) -> str:
    """The name a recorded game's setup goes by in the tables (a config without one: its game's default)."""
    setup = config.get("setup", plugin(game_of(config)).default_setup)
    if setup == "custom":
        # A named setup of imperial_lab.core.setups carries its name in the config's free label.
        setup = config.get("name") or "custom"
    return setup


def _write(folder: Path, chunk: int, batch: list[tuple[dict, dict]], game: str) -> None:
    games, logs = zip(*batch)
    tables = frames(merge_rows(games, game), game)
    marker = {"first": logs[0]["game_id"], "count": len(logs), "failed": 0, "logs": list(logs),
              "rows": {name: len(df) for name, df in tables.items()}}
    runstore.write_chunk(folder, chunk, tables, marker)
