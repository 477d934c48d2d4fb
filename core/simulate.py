"""``imperial simulate``: many recorded games, in fixed chunks, in one process or on Dask
(docs/batch-runs.md).

Game ``k`` of a run seeded ``S`` is played with seed ``game_seed(S, k)`` and bots seeded like
``imperial play`` (seat p: ``100 * seed + p``), so its rows depend on (S, k) only: neither the chunk
size, the number of workers nor the order chunks finish in changes a table, and
``imperial play --seed <its seed> --bots <its bots>`` plays any game of a run again. A rotated run
(``rotate=True``, the runs of ``imperial league``) turns the line-up by one seat per game
(``game_lineup``), so every bot plays every seat equally often.
"""

from __future__ import annotations

import hashlib
import logging
import math
import queue
import signal
import sys
import threading
import time
from collections import deque
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from threadpoolctl import threadpool_limits

from imperial_lab.core import lab_version, runstore
from imperial_lab.core.bots import canonical_spec, make_bot
from imperial_lab.core.errors import OutOfMemory, out_of_memory
from imperial_lab.core.gamelog import MAX_SEED
from imperial_lab.core.interface import make_game
from imperial_lab.core.jsonio import clip
from imperial_lab.core.registry import game_of
from imperial_lab.core.runstore import RunError
from imperial_lab.core.setups import load_setup
from imperial_lab.core.tables import frames, games_table, merge_rows, record_game, tables_of

DEFAULT_CHUNK_SIZE = 200  # the largest automatic chunk (chunk_size=None), and the CLI's default today
STOP_POLL = 0.2  # seconds: how soon the thread feeding the local cluster sees a Ctrl-C of the main thread
CHUNKS_PER_WORKER = 8  # automatic chunks: enough per process that the last ones end close together
MAX_GAMES = 1_000_000  # per run: about 15 hours of heuristic games on two cores; 10**12 is a typo
MAX_CHUNK_SIZE = 1_000  # a worker holds a chunk's rows: about 0.5 MB per heuristic game, 1 MB per random one
MAX_CHUNKS = 10_000  # per run: a chunk is seven files, and the catalogue's views name every file
MAX_WORKERS = 256  # local worker processes, each holding a chunk (the default is one per core)
log = logging.getLogger(__name__)
# A renamed folder changes "name", and with it the run column: the old chunks would disagree.
RUN_KEYS = ("game", "name", "games", "players", "setup", "bots", "seed", "chunk_size", "config", "rotate")
# The local cluster's servers live in this process, which plays chunks too: their periodic callbacks
# (event-loop ticks every 20 ms, work stealing, memory and system monitors) take the GIL from the
# games, and the statistical profiler samples every worker's stack every 10 ms. None of it is used.
QUIET_DASK = {"distributed.admin.tick.interval": "1s", "distributed.scheduler.work-stealing": False,
              "distributed.worker.profile.enabled": False, "distributed.worker.memory.monitor-interval": "1s",
              "distributed.admin.system-monitor.interval": "2s", "distributed.admin.system-monitor.gil.enabled": False}
# On Linux the workers are forked from this process rather than spawned: a fork starts in half the
# time, needs no fresh interpreter to import Dask, pandas and the engine again, begins with the
# engine's memos of army moves that this process has already filled, and ends at once (spawned
# workers took 0.4 s more to close). Only the forking thread lives on in the child, and CPython
# takes the import lock and resets logging's locks around a fork, so the playing thread's state
# cannot deadlock it. Elsewhere (macOS, Windows) fork is unsafe or absent: Dask's default, spawn.
if sys.platform == "linux":
    QUIET_DASK["distributed.worker.multiprocessing-method"] = "fork"


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded ``seed`` (63 bits: fits Parquet's int64)."""
    digest = hashlib.blake2b(f"{seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def game_lineup(bots: list[str], game: int, rotate: bool) -> list[str]:
    """The bot of each seat in game ``game``: the line-up ``bots``, or, rotated, seat p gets
    ``bots[(p + game) % len(bots)]``."""
    if not rotate:
        return list(bots)
    return [bots[(p + game) % len(bots)] for p in range(len(bots))]


def auto_chunk_size(games: int, workers: int) -> int:
    """The chunk size of a new run when none is given: about CHUNKS_PER_WORKER chunks per process, so
    that the processes finish together, and at most DEFAULT_CHUNK_SIZE games (10,000 games: 50 chunks)."""
    return max(1, min(DEFAULT_CHUNK_SIZE, math.ceil(games / (CHUNKS_PER_WORKER * max(1, workers)))))


def simulate(out, games: int, players: int | None, setup: str, bots: list[str], seed: int, workers: int = 1,
             chunk_size: int | None = None, scheduler: str | None = None, catalog=None,
             progress: bool = True, on_progress=None, rotate: bool = False, game: str | None = None) -> dict:
    """Play the chunks of the run in ``out`` that are not finished yet; returns a summary.

    The run is of ``game`` (default Imperial 2030), or of the game a setup file names (its own key
    wins); run.json says which under ``game``, and the lab's version under ``version``.

    ``bots`` gives one bot spec per seat (imperial_lab.core.bots; stored in their canonical text), turned by one
    seat per game when ``rotate`` (``game_lineup``). Re-running an interrupted call resumes it, and plays
    again the chunks of games that failed; other parameters, or another version of the lab, for the
    same folder are refused (RunError). ``catalog`` (a path) registers the run when given, as
    ``complete``, ``failed`` (some games failed: run it again to retry them) or ``partial``.
    ``scheduler`` sends the chunks to the Dask cluster at that address, once its workers are checked
    (imperial_lab.core.cluster). ``chunk_size=None`` takes the chunk size saved in the folder's run.json
    when there is one (a resumed run keeps its chunks, on any number of workers), else
    ``auto_chunk_size(games, W)`` for the W worker threads of the cluster, or ``workers``.
    ``on_progress(done_games, total_games)`` is called as each chunk finishes (e.g. a dashboard's bar).
    Every refusal comes before anything is written: the folder, the catalogue and the cluster's
    workers are checked first.
    """
    config = load_setup(setup, players, game=game)
    game, seats = game_of(config), make_game(config).num_players
    if len(bots) != seats:
        raise RunError(f"{len(bots)} bots named for {seats} players")
    bots = [canonical_spec(spec, "--bots", game) for spec in bots]  # a bad spec fails here, not in every game
    folder = Path(out).resolve()
    name = runstore.check_name(folder.name)
    with _cluster(scheduler, config, folder) as cluster:
        if chunk_size is None:
            chunk_size = _saved_chunk_size(folder) or auto_chunk_size(games, cluster.threads if cluster else workers)
        _check_numbers(games, seed, chunk_size, workers)
        params: dict[str, Any] = {"kind": "simulate", "game": game, "name": name, "games": games, "players": seats, "setup": setup,
                                   "bots": bots, "seed": seed, "chunk_size": chunk_size, "config": config}
        if rotate:  # only then: the run.json of unrotated runs stays as it was, so they still resume
            params["rotate"] = True
        saved = _saved_run(folder, params)
        done = runstore.markers(folder)
        if catalog is not None:
            from imperial_lab.core.catalog import check_catalog
            check_catalog(name, folder, catalog)
        if saved is None:
            runstore.create_run(folder, params)
        runstore.remove_temporaries(folder)
        kept = {chunk: marker for chunk, marker in done.items() if not marker["failed"]}  # failed games: again
        todo = [task for task in _tasks(folder, params) if task["chunk"] not in kept]
        where = (f"the cluster at {scheduler} ({cluster.threads} worker threads)" if cluster is not None else
                 "this process" if workers == 1 else f"{workers} processes")
        log.info("run %s: %d games in chunks of %d; %d chunks done, %d to play on %s", name, games, chunk_size,
                 len(kept), len(todo), where)
        start = time.perf_counter()
        played = sum(marker["count"] for marker in kept.values())
        bar = _progress_bar(games, played, progress)
        status = "partial"
        try:
            if todo:
                on_done = _on_chunk(bar, played, games, on_progress)
                if cluster is not None:
                    _run_on_cluster(todo, on_done, cluster.client, folder)
                elif workers == 1:
                    _run_in_process(todo, on_done)
                else:
                    # One BLAS thread here while the cluster forks its workers from another thread: a
                    # fork in the middle of a multi-threaded OpenBLAS call (the evaluator of greedy or
                    # search) copies the held lock of OpenBLAS's thread server into the child, which
                    # then waits on it for ever (seen once: a worker idle, the run hanging). The
                    # evaluator's products are too small to gain from threads anyway.
                    with threadpool_limits(limits=1, user_api="blas"):
                        _run_here_and_on_local_cluster(todo, on_done, workers)
            status = "failed" if summarize(folder)["failed"] else "complete"
        finally:
            bar.close()
            if catalog is not None:  # also after Ctrl-C, so the finished chunks can be queried
                from imperial_lab.core.catalog import register_run
                register_run(folder, status, catalog)
    return {"run": name, "path": str(folder), "status": status, "resumed_chunks": len(kept),
            "played_chunks": len(todo), "seconds": time.perf_counter() - start, **summarize(folder)}


@contextmanager
def _cluster(scheduler: str | None, config: dict, folder: Path):
    """The checked cluster at ``scheduler`` (imperial_lab.core.cluster) while the run needs it; None without one."""
    if scheduler is None:
        yield None
        return
    from imperial_lab.core.cluster import open_cluster

    cluster = open_cluster(scheduler, config, folder)
    try:
        yield cluster
    finally:
        cluster.close()


def summarize(folder: Path) -> dict:
    """Games, failed games, chunks and rows per table of a run folder, from its markers."""
    done = runstore.markers(folder).values()
    rows: dict[str, int] = {}
    for marker in done:
        for table, n in marker["rows"].items():
            rows[table] = rows.get(table, 0) + n
    return {"games": sum(m["count"] for m in done), "failed": sum(m["failed"] for m in done),
            "chunks": len(done), "rows": rows}


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
    saved = {**saved, "game": game_of(saved)}  # a run.json without one is Imperial 2030's
    made_by = saved.get("version")  # none in the run.json of runs made before versions were recorded
    if made_by is not None and made_by != lab_version():
        raise RunError(f"{folder} holds a run made by imperial-lab {made_by}, and this is {lab_version()}: its games "
                       f"would not all come from one engine; resume it with {made_by}, or choose a new --out")
    changed = [key for key in RUN_KEYS if saved.get(key) != params.get(key)]
    if changed:
        was = ", ".join(f"{key} {saved.get(key)!r} (now {params.get(key)!r})" for key in changed if key != "config")
        raise RunError(f"{folder} holds a run with other parameters: {was or 'the setup file has changed'}; "
                       f"re-run with the same parameters to resume it, or choose a new --out")
    return saved


def _saved_chunk_size(folder: Path) -> int | None:
    """The chunk size of the run already in ``folder``, if any (a bad run.json is refused later, by
    ``_saved_run``, with the message it deserves)."""
    try:
        saved = runstore.read_run(folder)
    except RunError:
        return None
    size = (saved or {}).get("chunk_size")
    return size if type(size) is int and size >= 1 else None


def _tasks(folder: Path, params: dict) -> list[dict]:
    """One task per chunk of ``chunk_size`` consecutive games (the last one may be shorter)."""
    size = params["chunk_size"]
    common = {"out": str(folder), "run": params["name"], "config": params["config"], "bots": params["bots"],
              "seed": params["seed"], "setup": params["setup"], "rotate": params.get("rotate", False)}
    return [{**common, "chunk": c, "first": first, "count": min(size, params["games"] - first)}
            for c, first in enumerate(range(0, params["games"], size))]


def run_chunk(task: dict, after_game=None) -> dict:
    """Play and write one chunk (in any process: it needs only the task); returns its marker.
    ``after_game()``, when given, is called after every game (this process's own bookkeeping)."""
    games, game = [], game_of(task["config"])
    for k in range(task["first"], task["first"] + task["count"]):
        seed = game_seed(task["seed"], k)
        names = game_lineup(task["bots"], k, task.get("rotate", False))
        bots = [make_bot(name, seed * 100 + p, game) for p, name in enumerate(names)]
        games.append(record_game(task["config"], bots, names, seed, task["run"], k, task["setup"]))
        if after_game is not None:
            after_game()
    tables = frames(merge_rows(games, game), game)
    marker = {"first": task["first"], "count": task["count"], "failed": _failed(tables[games_table(game)]),
              "rows": {name: len(df) for name, df in tables.items()}}
    runstore.write_chunk(Path(task["out"]), task["chunk"], tables, marker)
    return {"chunk": task["chunk"], **marker}


def _failed(games_frame) -> int:
    return int((games_frame["status"] == "failed").sum())


def _run_in_process(tasks: list[dict], on_done) -> None:
    for task in tasks:
        on_done(run_chunk(task))


def _run_on_cluster(tasks: list[dict], on_done, client, folder: Path) -> None:
    """Chunks as Dask tasks on a cluster's workers. A worker that dies has its chunk rerun elsewhere by
    Dask; a chunk's files are replaced whole, so a rerun can never leave a mix of two attempts. A
    chunk whose marker this process cannot see (a worker writing to another file system than the
    one checked) stops the run rather than counting games that are nowhere."""
    from dask.distributed import as_completed

    futures = client.map(run_chunk, tasks, pure=False)
    try:
        for future in as_completed(futures):
            marker = future.result()
            if not runstore.marker_path(folder, marker["chunk"]).is_file():
                raise RunError(f"a worker finished chunk {marker['chunk']}, but its files are not in {folder} as this "
                               f"machine sees it: every worker must see the run folder at the same path")
            on_done(marker)
    finally:
        client.cancel(futures)


class _Chunks:
    """The chunks still to play, shared by this process's main thread and the thread that feeds the
    local cluster; finished chunks of the cluster wait in ``finished`` for the main thread."""

    def __init__(self, tasks: list[dict]):
        self._todo, self._lock = deque(tasks), threading.Lock()
        self.finished: queue.Queue = queue.Queue()  # markers, or the exception that ended the cluster's part
        self.stop = threading.Event()  # set by the main thread: hand out nothing more (Ctrl-C, an error)

    def take(self) -> dict | None:
        with self._lock:
            return None if self.stop.is_set() or not self._todo else self._todo.popleft()


def _run_here_and_on_local_cluster(tasks: list[dict], on_done, workers: int) -> None:
    """``workers`` processes play: this one from the start, and a LocalCluster of ``workers - 1``
    worker processes as soon as it is up, both taking the next chunk from one queue.

    This process would otherwise only wait: here it plays while the cluster starts (importing Dask,
    spawning the workers, importing the project in them: a second or more), and the cluster has one
    process fewer to start and to share the cores with. Each Dask worker holds one chunk at a time,
    so the last chunks go to whichever process is free. Progress (``on_done``) is reported from the
    main thread only, between games.
    """
    chunks = _Chunks(tasks)
    _import_before_fork(tasks[0])
    feeder = threading.Thread(target=_feed_local_cluster, args=(chunks, workers - 1), name="simulate-dask",
                              daemon=True)
    feeder.start()

    def report() -> None:
        while True:
            try:
                item = chunks.finished.get_nowait()
            except queue.Empty:
                return
            if isinstance(item, BaseException):
                raise _worker_failure(item)
            on_done(item)

    try:
        while (task := chunks.take()) is not None:
            on_done(run_chunk(task, after_game=report))
            report()
        while feeder.is_alive():  # the cluster's last chunks, then its shut-down
            feeder.join(0.05)
            report()
        report()
    finally:
        chunks.stop.set()
        feeder.join()


def _worker_failure(exc: BaseException) -> BaseException:
    """What the run ends with when the local cluster failed: a worker process that ran out of memory
    or died (a MemoryError there, Dask's KilledWorker) as one line; anything else as it is."""
    if not out_of_memory(exc):
        return exc
    return OutOfMemory(f"out of memory while playing a chunk on a worker process, or the worker died "
                       f"({type(exc).__name__}); the finished chunks are kept: run the same command again, with "
                       f"fewer --workers, to play the rest")


def _import_before_fork(task: dict) -> None:
    """Import here, before the cluster forks its workers, what this process's first chunk would
    import while they start: a fork copies the lock of a module being imported by another thread,
    held for ever in the child, which then hangs on its own import of it (pandas in
    ``dask_setup``, seen with games fast enough to end a chunk during the cluster's start)."""
    import pandas  # noqa: F401  (``frames``)

    tables_of(game_of(task["config"]))


def _feed_local_cluster(chunks: _Chunks, workers: int) -> None:
    """Start a LocalCluster of ``workers`` processes, keep one chunk on each, close it when the
    chunks run out or the main thread stops; results and errors go to ``chunks.finished``."""
    cluster = client = None
    try:
        import dask
        from dask.distributed import Client, wait

        with dask.config.set(QUIET_DASK):
            cluster = _local_cluster(workers)
            client = Client(cluster)
            running = {client.submit(run_chunk, task, pure=False)
                       for task in (chunks.take() for _ in range(workers)) if task is not None}
            while running and not chunks.stop.is_set():
                try:
                    done, running = wait(running, timeout=STOP_POLL, return_when="FIRST_COMPLETED")
                except TimeoutError:  # nothing finished yet: look at chunks.stop again
                    continue
                for future in done:
                    chunks.finished.put(future.result())
                    task = chunks.take()
                    if task is not None:
                        running.add(client.submit(run_chunk, task, pure=False))
    except BaseException as exc:  # noqa: BLE001 - handed to the main thread, which raises it
        chunks.finished.put(exc)
    finally:
        if client is not None:
            client.close()
        if cluster is not None:
            _close_quietly(cluster)


def _close_quietly(cluster) -> None:
    """Close a local cluster whose outcome is already handed over. A nanny still restarting a worker
    that died (out of memory, killed) fails distributed's own status check while closing; that must
    not raise in this thread after the run has ended with its one line."""
    try:
        cluster.close()
    except AssertionError:
        pass


def dask_setup(worker) -> None:
    """Preload of the local cluster's workers (``preload=["imperial_lab.core.simulate"]``): ignore Ctrl-C, which
    reaches every process of the terminal's group, so a worker never dies mid-chunk with a traceback;
    this process handles the KeyboardInterrupt and closes the cluster. Importing this module also
    imports the engine and pyarrow before the first chunk; pandas is imported here too."""
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the process's main thread: nothing to protect
        pass
    import pandas  # noqa: F401  (imperial_lab.core.tables imports it lazily, in ``frames``)


def _local_cluster(workers: int):
    """A LocalCluster of ``workers`` processes with one thread each (the engine is pure Python,
    threads would only fight over the GIL), whose workers ignore Ctrl-C (``dask_setup``).

    It is started from a thread while the main thread plays, so SIGINT cannot be ignored in this
    process while the workers spawn (they would inherit it): the preload ignores it in each worker,
    from its start-up on. A Ctrl-C in the second a worker takes to start may still end that worker
    with a traceback; the run stops all the same, and its finished chunks are kept.
    """
    from dask.distributed import LocalCluster

    # Workers log only what is critical: a chunk cancelled by Ctrl-C is not, and a chunk that failed
    # ends the run with its own one-line error. The diagnostics page takes any free port (None still
    # tries 8787 and warns when it is taken).
    return LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0",
                        silence_logs=logging.CRITICAL, preload=["imperial_lab.core.simulate"])


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
