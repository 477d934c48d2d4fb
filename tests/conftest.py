"""Fixtures shared across test files."""

from tests.lab_fixtures import lab  # noqa: F401  (session fixture: a small catalogue with two runs)
