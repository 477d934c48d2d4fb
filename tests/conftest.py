"""Fixtures shared across test files."""

import sys

import pytest

from tests.lab_fixtures import lab  # noqa: F401  (session fixture: a small catalogue with two runs)


@pytest.fixture(autouse=True)
def _keep_main_module():
    """AppTest runs a page as ``__main__`` and leaves it there; a process spawned later in the same
    test process (a Dask worker) would then re-run that page, or a temporary file already deleted,
    instead of starting. Put the real ``__main__`` back after every test."""
    main = sys.modules["__main__"]
    yield
    sys.modules["__main__"] = main
