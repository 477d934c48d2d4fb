"""The dashboard's pages: each registered game's (its plug-in's ``pages`` part, a module with
``PAGES``), then the generic ones, which read the runs of any game. No Streamlit here: the router
(dashboard/app.py) makes them ``st.Page``s, and tests find a page's script with ``page_path``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from core.registry import GAMES

# Not "pages/": Streamlit would take that folder for an old-style multipage app and serve its
# files without this frame when a page link is the first request after the server starts.
VIEWS = Path(__file__).parent / "views"


@dataclass(frozen=True)
class Page:
    """A page: its script, its title in the navigation and its icon. Its URL is the script's name
    (``/power`` for power.py), the first page's ``/``. ``reads_runs=False``: the page opens at once,
    even while a first start plays its dataset."""

    path: Path
    title: str
    icon: str
    reads_runs: bool = True


GENERIC = (Page(VIEWS / "league.py", "League", ":material/leaderboard:"),)


def all_pages() -> list[Page]:
    """The navigation: every game's pages in the order of the registry, then the generic ones."""
    found = []
    for owner in GAMES.values():
        module = owner.part("pages")
        if module is not None:
            found += module.PAGES
    return found + list(GENERIC)


def page_path(file: str) -> Path:
    """The script of the page whose file is named ``file`` (``"power.py"``); KeyError if none is."""
    paths = {page.path.name: page.path for page in all_pages()}
    return paths[file]
