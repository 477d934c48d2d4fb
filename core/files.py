"""Where the lab's files are: the data it ships, and the one folder of the user's own files.

*Shipped data* (each game's data, rules text, lessons, named setups) lives in the package
``imperial_lab.data`` (the repository's ``data/``) and is read through ``importlib.resources``, so a
checkout and an installed wheel find the same files. It is never written to.

*The user folder* holds what the lab writes for its user: the catalogue (``lab.duckdb``), the runs
the dashboard plays (``runs/``), saved games (``play/``), custom setups (``setups/``) and lesson
progress. It is ``$IMPERIAL_LAB_HOME``; else, when the lab runs from a source checkout, the checkout
itself (``runs/``, ``lab.duckdb``… beside ``core/``, ignored by git); else the platform's user data
folder (platformdirs: ``~/.local/share/imperial-lab`` on Linux). Never the install folder.
"""

from __future__ import annotations

import os
from importlib.resources import files
from pathlib import Path

HOME_ENV = "IMPERIAL_LAB_HOME"
APP_NAME = "imperial-lab"


def data_path(*parts: str) -> Path:
    """A shipped data file or folder: ``data_path("imperial2030", "board.json")``."""
    return Path(str(files("imperial_lab.data").joinpath(*parts)))


def package_path(*parts: str) -> Path:
    """A file of the installed package ``imperial_lab`` (``package_path("dashboard", "app.py")``)."""
    return Path(str(files("imperial_lab.core"))).parent.joinpath(*parts)


def checkout() -> Path | None:
    """The source checkout the lab runs from (the folder of ``pyproject.toml`` beside ``core/``), or
    None for an installed wheel."""
    root = Path(__file__).resolve().parents[1]
    return root if (root / "pyproject.toml").is_file() and (root / "core" / "files.py").is_file() else None


def user_folder() -> Path:
    """The folder of the user's files (see the module's text); not created here."""
    if os.environ.get(HOME_ENV):
        return Path(os.environ[HOME_ENV]).expanduser().resolve()
    root = checkout()
    if root is not None:
        return root
    import platformdirs  # only an installed lab outside a checkout needs it

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
