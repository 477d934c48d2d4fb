"""Streamlit's cache in front of the pages' questions (imperial_lab.dashboard.queries and a game's own, such as
dashboard/games/imperial2030/queries.py), imperial_lab.core.compare, imperial_lab.core.league.standings and the win-chance
model's start chances of a setup (STYLE (e)4).

Answers are keyed by the catalogue path, the runs' fingerprint (their rows of the catalogue's
``runs`` table) and the arguments: a run that gains games or is registered again changes its
fingerprint, so a page never shows a stale answer, while unchanged runs are answered from memory.
One cached function serves every query, keyed also by the query's module and name: Streamlit keys a cache by
the function's code, so wrappers made by one factory would share (and mix up) a single cache.

The runs table itself (the run list and the fingerprints) is read once per state of the catalogue
file: opening the catalogue costs tens of milliseconds, a page asks for a dozen answers per rerun,
and every registration of a run writes the file (or its write-ahead log), which changes its stamp.
"""

from __future__ import annotations

import importlib
import json
import os

from typing import TYPE_CHECKING

import streamlit as st

from imperial_lab.dashboard import queries

if TYPE_CHECKING:
    from imperial_lab.core.compare import Comparison


@st.cache_data(show_spinner=False, max_entries=512)
def _answer(module: str, name: str, catalog: str, fingerprint: tuple, runs, args: tuple):
    return getattr(importlib.import_module(module), name)(catalog, runs, *args)


def load(query, catalog, runs, *args):
    """``query(catalog, runs, *args)`` through the cache; ``runs`` is one run name or a tuple of them."""
    runs = runs if isinstance(runs, str) else tuple(runs)
    return _answer(query.__module__, query.__name__, str(catalog), fingerprint(catalog, runs), runs, args)


@st.cache_data(show_spinner="Comparing the runs ...", max_entries=64)
def _comparison(catalog: str, fingerprint: tuple, runs: tuple, margin: float | None) -> Comparison:
    from imperial_lab.core import compare as comparisons  # SciPy and statsmodels: only for the pages that compare

    return comparisons.load(catalog, runs, margin)


def compare(catalog, runs, margin: float | None = None) -> Comparison:
    """``imperial_lab.core.compare.load(catalog, runs, margin)`` through the cache (the runs in any order), keyed by
    the catalogue and the fingerprint of the runs and their replicates: a run that gains games, or a
    replicate played, is compared again."""
    from imperial_lab.core.compare import replicate_name

    runs = tuple(sorted(runs))
    return _comparison(str(catalog), fingerprint(catalog, runs + tuple(map(replicate_name, runs))), runs, margin)


@st.cache_data(show_spinner=False, max_entries=64)
def _start_chances(config: str) -> list[float]:
    from imperial_lab.core.analysis import start_chances as chances  # the learned evaluator: only where it is shown

    return chances(json.loads(config))


def start_chances(config: dict) -> list[float]:
    """``imperial_lab.core.analysis.start_chances(config)`` (each seat's chance to win a setup by the
    win-chance model) through the cache, keyed by the setup's content."""
    return _start_chances(json.dumps(config, sort_keys=True))


@st.cache_data(show_spinner="Counting the standings ...", max_entries=64)
def _standings(catalog: str, fingerprint: tuple, run: str) -> dict:
    from imperial_lab.core import league  # Dask and OpenSkill: only for the League page

    return league.standings(run, catalog)


def standings(catalog, run: str) -> dict:
    """``imperial_lab.core.league.standings(run, catalog)`` through the cache: read again when the run changes."""
    return _standings(str(catalog), fingerprint(catalog, run), run)


def runs(catalog):
    """``queries.runs(catalog)``, read again only when the catalogue file has changed."""
    return _runs(str(catalog), _stamp(catalog))


def fingerprint(catalog, runs) -> tuple:
    """``queries.fingerprint`` of ``runs`` in the runs table, read again only when the catalogue file has changed."""
    return queries.fingerprint(_runs(str(catalog), _stamp(catalog)), runs)


@st.cache_data(show_spinner=False, max_entries=8)
def _runs(catalog: str, stamp: tuple):
    return queries.runs(catalog)


def _stamp(catalog) -> tuple:
    """The change times of the catalogue file and of its write-ahead log (0 for a missing file)."""
    paths = (str(catalog), f"{catalog}.wal")
    return tuple(os.stat(path).st_mtime_ns if os.path.exists(path) else 0 for path in paths)
