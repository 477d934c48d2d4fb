"""A small lab on disk for dashboard and notebook tests: two runs of random 4-player games under
two setups, registered in their own DuckDB catalogue (never the user's data/lab.duckdb)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from core.simulate import simulate

APP_SECONDS = 180  # the bound of one AppTest run of a page: generous for a busy machine; a hung page still fails


@dataclass
class Lab:
    root: Path
    catalog: Path
    runs: tuple[str, ...]


def build_lab(root: Path, games: int = 12) -> Lab:
    catalog = root / "lab.duckdb"
    runs = []
    for name, setup in (("small_standard", "standard"), ("small_even", "even_spread")):
        simulate(root / "runs" / name, games=games, players=4, setup=setup, bots=["random"] * 4, seed=1,
                 workers=1, chunk_size=6, catalog=catalog, progress=False)
        runs.append(name)
    return Lab(root, catalog, tuple(runs))


@pytest.fixture(scope="session")
def lab(tmp_path_factory) -> Lab:
    """Point the dashboard at it with the environment variable IMPERIAL_LAB_CATALOG."""
    return build_lab(tmp_path_factory.mktemp("lab"))
