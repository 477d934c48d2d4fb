"""A Dask cluster for ``imperial simulate --scheduler`` (docs/batch-runs.md, "On a cluster"): wait for
its workers, check each of them before a game is played, and refuse with one line naming the worker
and what it lacks.

Every worker plays chunks and writes their Parquet files itself, so each must run the lab in this
version (``imperial_lab.core.lab_version``), read the game's data, and see and write the run folder
at the path this process sees it. A worker that lacks any of it would otherwise fail in ways that
say nothing (a task that never returns, every game ``failed``, files written where nobody looks).
"""

from __future__ import annotations

import logging
import secrets
import socket
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from imperial_lab.core import DISTRIBUTION, lab_version
from imperial_lab.core.jsonio import clip
from imperial_lab.core.runstore import TEMP_MARK, RunError

CONNECT_TIMEOUT = 5.0  # seconds for the scheduler to answer before anything is written
WORKER_WAIT = 60.0  # seconds to wait for a first worker to join the scheduler
CHECK_FILE = f"{TEMP_MARK}worker-check"  # a temporary name: an interrupted check leaves nothing a run keeps
MAX_TEXT = 200  # characters of a worker's error quoted in the refusal

log = logging.getLogger(__name__)


@dataclass
class Cluster:
    """A client of a checked cluster and the worker threads it had when checked."""

    client: Any  # dask.distributed.Client
    threads: int

    def close(self) -> None:
        self.client.close()


def open_cluster(address: str, config: dict, folder: Path, wait: float | None = None) -> Cluster:
    """A client of the Dask scheduler at ``address`` whose workers can play games of ``config`` into
    ``folder``, else RunError (one line). Waits up to ``wait`` seconds (default WORKER_WAIT) for a
    first worker, saying so on the log; then every worker must report this lab's version, read the
    game's data and see and write ``folder``. Nothing is left behind: the check's files are removed,
    and so is ``folder`` when the check made it."""
    check_address(address)
    from dask.distributed import Client

    client = Client(address, timeout=CONNECT_TIMEOUT)
    try:
        _wait_for_workers(client, address, WORKER_WAIT if wait is None else wait)
        _check_versions(client, address)
        _check_workers(client, address, config, folder)
        return Cluster(client, sum(client.nthreads().values()))
    except BaseException:
        client.close()
        raise


def check_address(address: str) -> None:
    """Refuse (RunError) a Dask scheduler address that is malformed or does not answer within
    CONNECT_TIMEOUT seconds."""
    url = urlsplit(address if "://" in address else f"tcp://{address}")  # Dask's default protocol
    try:
        host, port = url.hostname, url.port
    except ValueError:  # a port that is not a number of 0..65535
        host = port = None
    if url.scheme not in ("tcp", "tls") or not host or not port:
        raise RunError(f"--scheduler {clip(address)}: not a scheduler address such as tcp://HOST:8786")
    try:
        socket.create_connection((host, port), timeout=CONNECT_TIMEOUT).close()
    except OSError as exc:
        raise RunError(f"--scheduler {address}: cannot connect ({exc.strerror or exc}); is a dask scheduler "
                       f"running there?") from None


def _wait_for_workers(client, address: str, wait: float) -> None:
    if client.nthreads():
        return
    log.warning("waiting up to %.0f s for a worker to join the scheduler at %s (start one with: dask worker %s "
                "--nthreads 1)", wait, address, address)
    try:
        client.wait_for_workers(1, timeout=wait)
    except TimeoutError:
        raise RunError(f"--scheduler {address}: no worker joined in {wait:.0f} s; start one with: dask worker "
                       f"{address} --nthreads 1") from None


def _check_versions(client, address: str) -> None:
    """Every worker has this version of the lab installed (asked through the standard library, so
    that a worker without the lab, or with an old one, can answer too)."""
    from importlib.metadata import version

    wanted = lab_version()
    found = client.run(version, DISTRIBUTION, on_error="return")
    faults = {}
    for worker, got in found.items():
        if isinstance(got, BaseException):
            faults[worker] = f"has no {DISTRIBUTION} installed: install {DISTRIBUTION} {wanted} there"
        elif got != wanted:
            faults[worker] = f"has {DISTRIBUTION} {got}, this is {wanted}: install {DISTRIBUTION} {wanted} there"
    _refuse(address, faults)


def _check_workers(client, address: str, config: dict, folder: Path) -> None:
    """Every worker imports the lab, reads the game's data and sees and writes ``folder``."""
    made = _missing_top(folder)
    token = secrets.token_hex(8)
    mark = folder / f"{CHECK_FILE}-{token}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        mark.write_text(token)
        found = client.run(worker_check, config, str(folder), token, on_error="return")
        faults = {}
        for worker, fault in found.items():
            if isinstance(fault, BaseException):
                text = _text(fault)
                what = "cannot import the lab" if "No module named" in text else "failed the lab's check"
                fault = f"{what} ({text}): install {DISTRIBUTION} {lab_version()} there"
            elif fault is None and not _answer(folder, token, worker).is_file():
                fault = f"wrote its check into {folder}, but not where this machine sees it"
            if fault:
                faults[worker] = fault
        _refuse(address, faults)
    finally:
        for path in folder.glob(f"{CHECK_FILE}-{token}*"):
            path.unlink(missing_ok=True)
        if made is not None:
            _remove_made(folder, made)


def worker_check(config: dict, folder: str, token: str, dask_worker=None) -> str | None:
    """Run on each worker (``Client.run``, which passes the worker as ``dask_worker``): what this worker
    lacks to play ``config`` into ``folder``, or None. Its answer file proves to the client that both
    see the same folder."""
    from imperial_lab.core.interface import make_game

    try:
        make_game(config).new_initial_state()
    except Exception as exc:  # noqa: BLE001 - whatever stops the data loading is what the worker lacks
        return f"cannot read the data of {config.get('game', 'imperial2030')} ({_text(exc)}): reinstall the lab there"
    mark = Path(folder) / f"{CHECK_FILE}-{token}"
    try:
        seen = mark.read_text()
    except OSError:
        seen = None
    if seen != token:
        return (f"does not see the run folder {folder} (it must be at the same path on every worker, on a shared "
                f"file system)")
    try:
        _answer(Path(folder), token, dask_worker.address).write_text(token)
    except OSError as exc:
        return f"cannot write in the run folder {folder} ({exc.strerror or exc})"
    return None


def _answer(folder: Path, token: str, worker: str) -> Path:
    return folder / f"{CHECK_FILE}-{token}-{worker.rsplit(':', 1)[-1]}"


def _refuse(address: str, faults: dict[str, str]) -> None:
    if faults:
        worker = min(faults)
        more = f" (and {len(faults) - 1} more workers)" if len(faults) > 1 else ""
        raise RunError(f"--scheduler {address}: worker {worker} {faults[worker]}{more}")


def _text(exc: BaseException) -> str:
    """An exception a worker returned, as a short text (Dask wraps some in an Exception of their repr)."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT - 1] + "…"


def _missing_top(folder: Path) -> Path | None:
    """The highest folder of ``folder``'s path that does not exist yet (None if ``folder`` exists)."""
    if folder.exists():
        return None
    while not folder.parent.exists():
        folder = folder.parent
    return folder


def _remove_made(folder: Path, top: Path) -> None:
    """Remove the empty folders the check made: ``folder`` and its parents up to ``top``."""
    for path in (folder, *folder.parents):
        try:
            path.rmdir()
        except OSError:  # not empty: a worker left something there
            return
        if path == top:
            return
