"""The dashboard's pages: each registered game's (its plug-in's ``pages`` part, a module with
``PAGES``), then the generic ones, which read the runs of any game. The navigation has a section per
game (its title) and one for the generic pages (``sections``). No Streamlit here: the router
(dashboard/app.py) makes them ``st.Page``s, and tests find a page's script with ``page_path``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from imperial_lab.core.registry import DEFAULT_GAME, GAMES

# Not "pages/": Streamlit would take that folder for an old-style multipage app and serve its
# files without this frame when a page link is the first request after the server starts.
VIEWS = Path(__file__).parent / "views"


@dataclass(frozen=True)
class Page:
    """A page: its script, its title in the navigation and its icon. Its URL is ``url``, by default
    the script's name (``/power`` for power.py); the first page's is ``/``. Every game names the same
    kind of page alike (``views/explorer.py``), so the other games' pages set ``url`` apart
    (``imperia_explorer``). ``reads_runs=False``: the page opens at once, even while a first start
    plays its dataset."""

    path: Path
    title: str
    icon: str
    reads_runs: bool = True
    url: str = ""

    @property
    def url_path(self) -> str:
        return self.url or self.path.stem


@dataclass(frozen=True)
class Dataset:
    """The runs a game's pages show on a fresh start (dashboard/simulations.py plays them before the
    first page that reads runs): ``games`` games of each setup of ``setups`` under each default
    line-up, with ``players`` players (None: the setup's own count). A game's ``pages`` part names
    it as ``DATASET``."""

    setups: tuple[str, ...]
    games: int
    players: int | None = None


GENERIC = (Page(VIEWS / "league.py", "League", ":material/leaderboard:"),)
GENERIC_SECTION = "Lab"  # the navigation's section of the generic pages


def game_pages(game: str) -> list[Page]:
    """The pages of game ``game`` (its plug-in's ``PAGES``), none for a game without them."""
    module = GAMES[game].part("pages")
    return [] if module is None else list(module.PAGES)


def sections() -> dict[str, list[Page]]:
    """The navigation: a section per game with pages (titled like the game), in the order of the
    registry, then the generic pages. Pages have distinct URLs (``Page.url_path``)."""
    found = {GAMES[game].title: pages for game in GAMES if (pages := game_pages(game))}
    return {**found, GENERIC_SECTION: list(GENERIC)}


def game_of(page: Page) -> str | None:
    """The game whose pages hold ``page``; None for a generic page."""
    return next((game for game in GAMES if page in game_pages(game)), None)


def all_pages(game: str = DEFAULT_GAME) -> list[Page]:
    """One game's pages, then the generic ones: that game's part of the navigation (the default
    game's first page is the app's first page, at its root URL)."""
    return game_pages(game) + list(GENERIC)


def page_path(url: str) -> Path:
    """The script of the page at URL ``url`` (``"power"``, ``"imperia_explorer"``; a trailing ``.py``
    is ignored), of any section; KeyError if none is."""
    paths = {page.url_path: page.path for pages in sections().values() for page in pages}
    return paths[url.removesuffix(".py")]
