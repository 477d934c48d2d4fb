"""``imperial simulate``: many recorded games, in fixed chunks, in one process or on Dask
(docs/batch-runs.md).

Game ``k`` of a run seeded ``S`` is played with seed ``game_seed(S, k)`` and bots seeded like
``imperial play`` (seat p: ``100 * seed + p``), so its rows depend on (S, k) only: neither the chunk
size, the number of workers nor the order chunks finish in changes a table, and
``imperial play --seed <its seed>`` plays any game of a run again.
"""

from __future__ import annotations

import hashlib
import logging
import math
import signal
import socket
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

from core import runstore
from core.bots import make_bot
from core.gamelog import MAX_SEED
from core.jsonio import clip
from core.runstore import RunError
from core.setups import load_setup
from core.tables import frames, merge_rows, record_game

DEFAULT_CHUNK_SIZE = 200
MAX_GAMES = 1_000_000  # per run: about 15 hours of heuristic games on two cores; 10**12 is a typo
MAX_CHUNK_SIZE = 1_000  # a worker holds a chunk's rows: about 0.5 MB per heuristic game, 1 MB per random one
MAX_CHUNKS = 10_000  # per run: a chunk is seven files, and the catalogue's views name every file
MAX_WORKERS = 256  # local worker processes, each holding a chunk (the default is one per core)
SCHEDULER_TIMEOUT = 5.0  # seconds for --scheduler to answer before anything is written
# A renamed folder changes "name", and with it the run column: the old chunks would disagree.
RUN_KEYS = ("name", "games", "players", "setup", "bots", "seed", "chunk_size", "config")


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded ``seed`` (63 bits: fits Parquet's int64)."""
    digest = hashlib.blake2b(f"{seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def simulate(out, games: int, players: int | None, setup: str, bots: list[str], seed: int, workers: int = 1,
             chunk_size: int = DEFAULT_CHUNK_SIZE, scheduler: str | None = None, catalog=None,
             progress: bool = True, on_progress=None) -> dict:
    """Play the chunks of the run in ``out`` that are not finished yet; returns a summary.

    ``bots`` names one bot per seat. Re-running an interrupted call resumes it; other parameters
    for the same folder are refused (RunError). ``catalog`` (a path) registers the run when given.
    ``on_progress(done_games, total_games)`` is called as each chunk finishes (e.g. a dashboard's bar).
    Every refusal comes before anything is written: the folder, the catalogue and the scheduler
    are checked first.
    """
    config = load_setup(setup, players)
    if len(bots) != config["players"]:
        raise RunError(f"{len(bots)} bots named for {config['players']} players")
    for name in set(bots):
        make_bot(name)  # an unknown name fails here, not in every game
    _check_numbers(games, seed, chunk_size, workers)
    folder = Path(out).resolve()
    params = {"kind": "simulate", "name": runstore.check_name(folder.name), "games": games,
              "players": config["players"], "setup": setup, "bots": bots, "seed": seed, "chunk_size": chunk_size,
              "config": config}
    saved = _saved_run(folder, params)
    done = runstore.markers(folder)
    if catalog is not None:
        from core.catalog import check_catalog
        check_catalog(params["name"], folder, catalog)
    if scheduler is not None:
        check_scheduler(scheduler)
    if saved is None:
        runstore.create_run(folder, params)
    runstore.remove_temporaries(folder)
    todo = [task for task in _tasks(folder, params) if task["chunk"] not in done]
    start = time.perf_counter()
    played = sum(marker["count"] for marker in done.values())
    bar = _progress_bar(games, played, progress)
    status = "partial"
    try:
        run = _run_in_process if workers == 1 and scheduler is None else _run_on_dask
        if todo:
            run(todo, _on_chunk(bar, played, games, on_progress), workers, scheduler)
        status = "complete"
    finally:
        bar.close()
        if catalog is not None:  # also after Ctrl-C, so the finished chunks can be queried
            from core.catalog import register_run
            register_run(folder, status, catalog)
    return {"run": params["name"], "path": str(folder), "resumed_chunks": len(done), "played_chunks": len(todo),
            "seconds": time.perf_counter() - start, **summarize(folder)}


def summarize(folder: Path) -> dict:
    """Games, failed games, chunks and rows per table of a run folder, from its markers."""
    done = runstore.markers(folder).values()
    rows: dict[str, int] = {}
    for marker in done:
        for table, n in marker["rows"].items():
            rows[table] = rows.get(table, 0) + n
    return {"games": sum(m["count"] for m in done), "failed": sum(m["failed"] for m in done),
            "chunks": len(done), "rows": rows}


def check_scheduler(address: str) -> None:
    """Refuse (RunError) a Dask scheduler address that is malformed or does not answer within
    SCHEDULER_TIMEOUT seconds."""
    url = urlsplit(address if "://" in address else f"tcp://{address}")  # Dask's default protocol
    try:
        host, port = url.hostname, url.port
    except ValueError:  # a port that is not a number of 0..65535
        host = port = None
    if url.scheme not in ("tcp", "tls") or not host or not port:
        raise RunError(f"--scheduler {clip(address)}: not a scheduler address such as tcp://HOST:8786")
    try:
        socket.create_connection((host, port), timeout=SCHEDULER_TIMEOUT).close()
    except OSError as exc:
        raise RunError(f"--scheduler {address}: cannot connect ({exc.strerror or exc}); is a dask scheduler "
                       f"running there?") from None


def _check_numbers(games: int, seed: int, chunk_size: int, workers: int) -> None:
    for option, value, low, high in (("--games", games, 1, MAX_GAMES), ("--seed", seed, 0, MAX_SEED),
                                     ("--chunk-size", chunk_size, 1, MAX_CHUNK_SIZE),
                                     ("--workers", workers, 1, MAX_WORKERS)):
        if type(value) is not int or not low <= value <= high:
            raise RunError(f"{option} {clip(value)}: must be a whole number from {low:,} to {high:,}")
    chunks = math.ceil(games / chunk_size)
    if chunks > MAX_CHUNKS:
        raise RunError(f"--games {games:,} in chunks of {chunk_size:,} make {chunks:,} chunks, more than "
                       f"{MAX_CHUNKS:,}: use --chunk-size {math.ceil(games / MAX_CHUNKS):,} or more")


def _saved_run(folder: Path, params: dict) -> dict | None:
    """The run.json of the run in ``folder`` (None for a new run), which must have the same parameters."""
    saved = runstore.read_run(folder)
    if saved is None:
        runstore.check_new(folder)
        return None
    if saved.get("kind") != "simulate":
        raise RunError(f"{folder}: holds a run of kind {saved.get('kind')!r}, not a simulation; choose a new --out")
    changed = [key for key in RUN_KEYS if saved.get(key) != params[key]]
    if changed:
        was = ", ".join(f"{key} {saved.get(key)!r} (now {params[key]!r})" for key in changed if key != "config")
        raise RunError(f"{folder} holds a run with other parameters: {was or 'the setup file has changed'}; "
                       f"re-run with the same parameters to resume it, or choose a new --out")
    return saved


def _tasks(folder: Path, params: dict) -> list[dict]:
    """One task per chunk of ``chunk_size`` consecutive games (the last one may be shorter)."""
    size = params["chunk_size"]
    common = {"out": str(folder), "run": params["name"], "config": params["config"], "bots": params["bots"],
              "seed": params["seed"], "setup": params["setup"]}
    return [{**common, "chunk": c, "first": first, "count": min(size, params["games"] - first)}
            for c, first in enumerate(range(0, params["games"], size))]


def run_chunk(task: dict) -> dict:
    """Play and write one chunk (in any process: it needs only the task); returns its marker."""
    names = task["bots"]
    games = []
    for k in range(task["first"], task["first"] + task["count"]):
        seed = game_seed(task["seed"], k)
        bots = [make_bot(name, seed * 100 + p) for p, name in enumerate(names)]
        games.append(record_game(task["config"], bots, names, seed, task["run"], k, task["setup"]))
    tables = frames(merge_rows(games))
    marker = {"first": task["first"], "count": task["count"], "failed": _failed(tables["games"]),
              "rows": {name: len(df) for name, df in tables.items()}}
    runstore.write_chunk(Path(task["out"]), task["chunk"], tables, marker)
    return marker


def _failed(games_frame) -> int:
    return int((games_frame["status"] == "failed").sum())


def _run_in_process(tasks: list[dict], on_done, workers: int, scheduler: str | None) -> None:
    for task in tasks:
        on_done(run_chunk(task))


def _run_on_dask(tasks: list[dict], on_done, workers: int, scheduler: str | None) -> None:
    """Chunks as Dask tasks: on a LocalCluster of ``workers`` processes, or on the cluster at ``scheduler``.

    A worker that dies has its chunk rerun elsewhere by Dask; a chunk's files are replaced whole,
    so a rerun can never leave a mix of two attempts.
    """
    from dask.distributed import Client, as_completed

    cluster = None if scheduler is not None else _local_cluster(workers)
    client = Client(scheduler or cluster)
    try:
        for future in as_completed(client.map(run_chunk, tasks, pure=False)):
            on_done(future.result())
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _local_cluster(workers: int):
    """A LocalCluster whose worker processes ignore Ctrl-C.

    Ctrl-C reaches every process of the terminal's group. Worker processes inherit an ignored
    SIGINT (it survives exec), so they do not die mid-chunk with tracebacks: the client handles
    the KeyboardInterrupt and closes the cluster. One thread per process: the engine is pure
    Python, threads would only fight over the GIL.
    """
    from dask.distributed import LocalCluster

    def start():
        # Workers log only errors: a chunk cancelled by Ctrl-C is not one. The diagnostics page
        # takes any free port (None still tries 8787 and warns when it is taken).
        return LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0",
                    silence_logs=logging.ERROR)

    if threading.current_thread() is not threading.main_thread():  # only the main thread may set handlers
        return start()
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        return start()
    finally:
        signal.signal(signal.SIGINT, previous)


def _on_chunk(bar, played: int, total: int, on_progress):
    """What to do as a chunk finishes: advance the bar and report to ``on_progress`` (when given)."""
    def advance(marker: dict) -> None:
        nonlocal played
        played += marker["count"]  # counted here: a disabled tqdm bar does not count
        bar.update(marker["count"])
        if on_progress is not None:
            on_progress(played, total)
    return advance


def _progress_bar(total: int, initial: int, enabled: bool):
    from tqdm import tqdm

    return tqdm(total=total, initial=initial, unit="game", desc="games", file=sys.stderr, disable=not enabled,
                smoothing=0.1, dynamic_ncols=True)
