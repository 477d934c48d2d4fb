"""Benchmark of batch runs (docs/batch-runs.md): prints figures, asserts nothing.

    .venv/bin/python scripts/bench_simulate.py                 # 10,000 heuristic 4-player games
    .venv/bin/python scripts/bench_simulate.py --games 2000 --small 200 --bots random

1. speed-up: the same ``--small`` games (in 20 chunks) with 1 worker (in this process) and with 2
   (a Dask LocalCluster, its start-up included), in wall and in CPU seconds;
2. ``--games`` games on 2 workers: wall time, games/s, rows and Parquet size per table;
3. nation_turns loaded into pandas: time and memory (target < 1 GB);
4. a DuckDB query of the win rate by seat over the run, through the catalogue (target < 1 s).

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

from core import runstore  # noqa: E402
from core.catalog import query, register_run  # noqa: E402
from core.simulate import simulate  # noqa: E402
from core.tables import TABLES  # noqa: E402

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
        print(f"{args.players}-player standard games, bots {args.bots}, chunks of {args.chunk_size}, "
              f"{psutil.cpu_count()} cores")
        # 20 chunks, so that two workers share the small run evenly.
        small = {**common, "chunk_size": max(1, args.small // 20)}
        one, one_cpu = _timed(lambda: simulate(root / "small-1", args.small, workers=1, **small))
        two, two_cpu = _timed(lambda: simulate(root / "small-2", args.small, workers=2, **small))
        print(f"speed-up on {args.small} games in chunks of {small['chunk_size']}: "
              f"1 worker {one:.1f} s ({args.small / one:.1f} games/s), "
              f"2 workers {two:.1f} s ({args.small / two:.1f} games/s, Dask start-up included): x{one / two:.2f}")
        # On a shared machine the wall-clock speed-up says more about the neighbours than about Dask;
        # CPU seconds do not depend on them, and bound the speed-up an idle machine would give.
        print(f"CPU per game: 1 worker {one_cpu / args.small * 1000:.0f} ms, 2 workers "
              f"{two_cpu / args.small * 1000:.0f} ms (all processes); CPU-bound speed-up on an idle machine "
              f"about x{2 * one_cpu / two_cpu:.2f}")
        folder = root / "full"
        wall, _ = _timed(lambda: simulate(folder, args.games, workers=2, **common))
        print(f"{args.games} games on 2 workers: {wall:.1f} s, {args.games / wall:.1f} games/s")
        _sizes(folder)
        _pandas_load(folder)
        _duckdb_query(folder, root / "lab.duckdb")


def _arguments():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--small", type=int, default=1_000, help="games of the 1- vs 2-worker comparison")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", default="heuristic")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--chunk-size", type=int, default=200)
    parser.add_argument("--out", help="keep the runs in this folder (default: a temporary one)")
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    return parser.parse_args()


def _timed(work) -> tuple[float, float]:
    """Wall and CPU seconds of ``work()``, CPU counting this process and its finished children (the
    Dask workers). The load average is printed too, as other processes skew the wall time."""
    start, cpu = time.perf_counter(), _cpu_seconds()
    work()
    seconds, cpu = time.perf_counter() - start, _cpu_seconds() - cpu
    print(f"  ({seconds:.1f} s, {cpu:.1f} CPU s; load average over the last minute: {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores)")
    return seconds, cpu


def _cpu_seconds() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


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
