"""Streamlit's cache in front of dashboard.queries and dashboard.comparison (STYLE (e)4).

Answers are keyed by the catalogue path, the runs' fingerprint (their rows of the catalogue's
``runs`` table) and the arguments: a run that gains games or is registered again changes its
fingerprint, so a page never shows a stale answer, while unchanged runs are answered from memory.
One cached function serves every query, keyed also by the query's name: Streamlit keys a cache by
the function's code, so wrappers made by one factory would share (and mix up) a single cache.
"""

from __future__ import annotations

import streamlit as st

from dashboard import comparison, queries


@st.cache_data(show_spinner=False, max_entries=512)
def _answer(name: str, catalog: str, fingerprint: tuple, runs, args: tuple):
    return getattr(queries, name)(catalog, runs, *args)


def load(query, catalog, runs, *args):
    """``query(catalog, runs, *args)`` through the cache; ``runs`` is one run name or a tuple of them."""
    runs = runs if isinstance(runs, str) else tuple(runs)
    return _answer(query.__name__, str(catalog), queries.fingerprint(catalog, runs), runs, args)


@st.cache_data(show_spinner="Comparing the runs ...", max_entries=64)
def _comparison(catalog: str, fingerprint: tuple, runs: tuple) -> comparison.Comparison:
    return comparison.load(catalog, runs)


def compare(catalog, runs) -> comparison.Comparison:
    """``comparison.load(catalog, runs)`` through the cache (the runs in any order)."""
    runs = tuple(sorted(runs))
    return _comparison(str(catalog), queries.fingerprint(catalog, runs), runs)
