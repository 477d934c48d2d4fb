"""Benchmark of batch runs (docs/batch-runs.md): prints figures, asserts nothing.

    .venv/bin/python scripts/bench_simulate.py                 # 10,000 heuristic 4-player games
    .venv/bin/python scripts/bench_simulate.py --games 2000 --speedup 200 --bots random
    .venv/bin/python scripts/bench_simulate.py --speedup 400,4000 --games 0   # the speed-up only

1. speed-up: each ``--speedup`` size (default 400 and 4,000 games) with 1 worker (in this process)
   and with 2 (this process and a Dask LocalCluster of one worker, its start-up included), in wall
   seconds and in CPU seconds of this process and of the worker processes, with the load average:
   on a shared machine the wall time says as much about the neighbours as about the run;
2. ``--games`` games on 2 workers: wall time, games/s, rows and Parquet size per table;
3. nation_turns loaded into pandas: time and memory (target < 1 GB);
4. a DuckDB query of the win rate by seat over the run, through the catalogue (target < 1 s).

Chunks have the automatic size of ``imperial_lab.core.simulate.auto_chunk_size`` unless ``--chunk-size`` is given.
Runs go to a temporary folder (removed at the end) unless ``--out`` is given.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import pandas as pd  # noqa: E402  (after the path set-up, so the script runs from a checkout)
import psutil  # noqa: E402  (a dependency of dask.distributed)
import pyarrow.parquet as pq  # noqa: E402

from imperial_lab.core import runstore  # noqa: E402
from imperial_lab.core.catalog import query, register_run  # noqa: E402
from imperial_lab.core.simulate import simulate  # noqa: E402
from imperial_lab.core.games.imperial2030.tables import TABLES  # noqa: E402

WIN_RATE_BY_SEAT = """
SELECT seat, count(*) AS games, avg(CASE WHEN list_contains(winners, seat) THEN 1 ELSE 0 END) AS win_rate
FROM (SELECT winners, unnest(range(players)) AS seat FROM games WHERE status = 'finished')
GROUP BY seat ORDER BY seat"""


def main() -> None:
    args = _arguments()
    with tempfile.TemporaryDirectory(prefix="bench-simulate-") as tmp:
        root = Path(args.out or tmp)
        bots = [args.bots] * args.players
        common = dict(players=args.players, setup="standard", bots=bots, seed=args.seed, chunk_size=args.chunk_size,
                      progress=not args.quiet)
        print(f"{args.players}-player standard games, bots {args.bots}, chunks of "
              f"{args.chunk_size or 'the automatic size'}, {psutil.cpu_count()} cores")
        for games in args.speedup:
            _speedup(root, games, common)
        if not args.games:
            return
        folder = root / "full"
        wall, _ = _timed(f"{args.games} games on 2 workers", lambda: simulate(folder, args.games, workers=2, **common))
        print(f"{args.games} games on 2 workers: {wall:.1f} s, {args.games / wall:.1f} games/s")
        _sizes(folder)
        _pandas_load(folder)
        _duckdb_query(folder, root / "lab.duckdb")


def _speedup(root: Path, games: int, common: dict) -> None:
    """The same ``games`` on 1 and on 2 workers: wall and CPU seconds, games/s, load average."""
    runs = {}
    for workers in (1, 2):
        result = {}
        runs[workers] = _timed(f"{games} games, {workers} worker{'s' if workers > 1 else ''}",
                               lambda: result.update(simulate(root / f"speedup-{games}-{workers}", games,
                                                              workers=workers, **common)))
        print(f"    in {result['chunks']} chunks; CPU per game {runs[workers][1] / games * 1000:.1f} ms, "
              f"{games / runs[workers][0]:.1f} games/s")
    (one, one_cpu), (two, two_cpu) = runs[1], runs[2]
    # On a shared machine the wall-clock speed-up says more about the neighbours than about Dask;
    # the CPU seconds do not depend on them so much, and bound what an idle machine would give.
    print(f"speed-up on {games} games: x{one / two:.2f} in wall time ({one:.1f} s vs {two:.1f} s, Dask start-up "
          f"included); CPU {one_cpu:.1f} s vs {two_cpu:.1f} s (x{two_cpu / one_cpu:.2f}), so at most about "
          f"x{2 * one_cpu / two_cpu:.2f} on an idle machine")


def _arguments():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="the 2-worker run of steps 2-4 (0: skip them)")
    parser.add_argument("--speedup", type=_sizes_list, default=[400, 4_000],
                        help="comma-separated game counts of the 1- vs 2-worker comparison (default 400,4000)")
    parser.add_argument("--small", type=int, dest="speedup_one", help="one size for the comparison (as --speedup N)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", default="heuristic")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--chunk-size", type=int, default=None, help="games per chunk (default: automatic)")
    parser.add_argument("--out", help="keep the runs in this folder (default: a temporary one)")
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    args = parser.parse_args()
    if args.speedup_one:
        args.speedup = [args.speedup_one]
    return args


def _sizes_list(text: str) -> list[int]:
    return [int(part) for part in text.split(",") if part.strip()]


def _timed(what: str, work) -> tuple[float, float]:
    """Wall and CPU seconds of ``work()``. CPU counts this process and its finished children (the Dask
    workers, reaped when the cluster closes), printed apart, with the load average before and after:
    other processes on the machine skew the wall time."""
    load = os.getloadavg()[0]
    start = time.perf_counter()
    own, children = _cpu_seconds(resource.RUSAGE_SELF), _cpu_seconds(resource.RUSAGE_CHILDREN)
    work()
    seconds = time.perf_counter() - start
    own, children = _cpu_seconds(resource.RUSAGE_SELF) - own, _cpu_seconds(resource.RUSAGE_CHILDREN) - children
    print(f"  {what}: {seconds:.1f} s, {own + children:.1f} CPU s (this process {own:.1f}, worker processes "
          f"{children:.1f}); load average over the last minute {load:.1f} before, {os.getloadavg()[0]:.1f} after, "
          f"on {os.cpu_count()} cores")
    return seconds, own + children


def _cpu_seconds(who) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def _sizes(folder: Path) -> None:
    total_rows = total_bytes = 0
    print(f"  {'table':16}{'rows':>12}{'Parquet MB':>12}")
    for table in TABLES:
        files = runstore.chunk_files(folder, table)
        rows = sum(pq.ParquetFile(path).metadata.num_rows for path in files)
        size = sum(path.stat().st_size for path in files)
        total_rows, total_bytes = total_rows + rows, total_bytes + size
        print(f"  {table:16}{rows:>12,}{size / 1e6:>12.1f}")
    print(f"  {'all':16}{total_rows:>12,}{total_bytes / 1e6:>12.1f}")


def _pandas_load(folder: Path) -> None:
    process = psutil.Process()
    before = process.memory_info().rss
    start = time.perf_counter()
    frame = pd.concat([pd.read_parquet(path) for path in runstore.chunk_files(folder, "nation_turns")],
                      ignore_index=True)
    seconds = time.perf_counter() - start
    grown = process.memory_info().rss - before
    print(f"nation_turns in pandas: {len(frame):,} rows, {frame.memory_usage(deep=True).sum() / 1e6:.0f} MB "
          f"(memory_usage, deep), process grew {grown / 1e6:.0f} MB, loaded in {seconds:.2f} s")


def _duckdb_query(folder: Path, catalog: Path) -> None:
    register_run(folder, "complete", catalog)
    times, result = [], None
    for _ in range(5):
        start = time.perf_counter()
        result = query(WIN_RATE_BY_SEAT, catalog)
        times.append(time.perf_counter() - start)
    print(f"DuckDB win rate by seat over the run: median {statistics.median(times) * 1000:.0f} ms, "
          f"first {times[0] * 1000:.0f} ms (5 runs, connection included)")
    print(result.to_string(index=False))


if __name__ == "__main__":
    main()
