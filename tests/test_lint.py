"""Lint and types (configured in pyproject.toml): ruff finds nothing in the repository's code, and mypy
finds nothing in core/, whose contract between the shared layer and the games (interface, plugin,
registry, engine, play) it checks strictly.

mypy sees the code as the installed package ``imperial_lab``. The editable install maps it onto
core/, dashboard/ and data/ with an import hook that mypy does not run, so mypy reads a folder of
symlinks, ``.lint/imperial_lab`` (kept between runs, with mypy's cache beside it: a second run
checks only what changed).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINT = ROOT / ".lint"


def package_view() -> Path:
    """``.lint``, holding ``imperial_lab/`` with symlinks to the checkout's core, dashboard and data."""
    package = LINT / "imperial_lab"
    package.mkdir(parents=True, exist_ok=True)
    for part in ("core", "dashboard", "data"):
        link = package / part
        if not link.is_symlink():
            link.symlink_to(ROOT / part, target_is_directory=True)
    return LINT


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], cwd=cwd, capture_output=True, text=True, timeout=900)


def test_ruff_finds_nothing():
    done = run("ruff", "check", "--cache-dir", str(LINT / "ruff_cache"), "core", "dashboard", "tests", "scripts",
               cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_finds_nothing_in_core():
    done = run("mypy", "--config-file", str(ROOT / "pyproject.toml"), "--cache-dir", str(LINT / "mypy_cache"),
               "-p", "imperial_lab.core", cwd=package_view())
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success: no issues found" in done.stdout
