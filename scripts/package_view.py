"""A checkout seen as the installed package, for the scripts that run two checkouts side by side.

The editable install maps ``imperial_lab.core`` onto this checkout's ``core/`` with setuptools'
import hook, so putting another checkout on ``sys.path`` does not make Python import it: there is
no ``imperial_lab`` folder in a checkout. ``package_view(checkout)`` makes one, a temporary folder
holding ``imperial_lab/`` with symlinks to the checkout's ``core``, ``dashboard`` and ``data``: with
that folder first on ``sys.path``, the ordinary path finder imports the checkout, before the hook.
"""

from __future__ import annotations

import subprocess
import tempfile
from contextlib import contextmanager
from pathlib import Path

PARTS = ("core", "dashboard", "data")


@contextmanager
def package_view(checkout: Path):
    """A temporary folder whose ``imperial_lab`` package is ``checkout``'s (removed on exit)."""
    with tempfile.TemporaryDirectory(prefix="imperial_lab_view_") as folder:
        package = Path(folder) / "imperial_lab"
        package.mkdir()
        (package / "__init__.py").write_text("")
        for part in PARTS:
            (package / part).symlink_to(Path(checkout).resolve() / part, target_is_directory=True)
        yield Path(folder)


def worktree(repo: Path, rev: str) -> Path:
    """A worktree of ``rev`` in /tmp (made once, reused while it exists)."""
    sha = subprocess.run(["git", "rev-parse", "--short", rev], cwd=repo, capture_output=True, text=True,
                         check=True).stdout.strip()
    path = Path(f"/tmp/imperial_lab_{sha}")
    if not path.exists():
        subprocess.run(["git", "worktree", "add", "--detach", str(path), sha], cwd=repo, check=True,
                       capture_output=True)
    return path
