"""The one table of the games the lab can play: registering a game is one entry of ``PLUGINS``.

Each entry names the module whose ``PLUGIN`` (a ``imperial_lab.core.plugin.GamePlugin``) says what the game
gives the shared layer. The shared layer finds a game only here, by the ``game`` key of a config,
move log, setup file or run; a document without one is Imperial 2030's (all the lab's first
documents are).

A game whose data cannot be loaded (a malformed or missing data file: a ``DataError``), or whose
plug-in declares what the game lacks (``GamePlugin.problems``), is left out of ``GAMES`` and kept in
``BROKEN`` with the reason, so one broken file stops that game only: the other games, the commands
and the dashboard go on, and asking for the broken game says why.
"""

from __future__ import annotations

import importlib
from typing import Any
from collections.abc import Iterable

from imperial_lab.core.errors import DataError, SetupError
from imperial_lab.core.jsonio import clip
from imperial_lab.core.plugin import GamePlugin

PLUGINS = (
    "imperial_lab.core.games.imperial2030.plugin",
    "imperial_lab.core.games.imperia.plugin",
    "imperial_lab.core.games.imperial_powers.plugin",
)
DEFAULT_GAME = "imperial2030"  # the game of a document without a ``game`` key, and of ``--game``'s default


def game_name(module: str) -> str:
    """The game a plug-in module registers, by its package's name (``imperial_lab.core.games.imperia.plugin``
    registers ``imperia``): known without importing it, for the report of a game that cannot load."""
    return module.rsplit(".", 2)[-2]


def _load(modules: Iterable[str]) -> tuple[dict[str, GamePlugin], dict[str, str]]:
    games, broken = {}, {}
    for module in modules:
        try:
            found = importlib.import_module(module).PLUGIN
        except DataError as exc:
            broken[game_name(module)] = str(exc)
            continue
        problems = found.problems()
        if problems:
            broken[found.name] = f"its plug-in ({module}) {'; '.join(problems)}"
        else:
            games[found.name] = found
    return games, broken


def checked(found: GamePlugin) -> GamePlugin:
    """``found`` when its declarations hold (what ``_load`` asks of every game), else SetupError
    naming what is wrong: for games registered by hand (tests' toy games)."""
    problems = found.problems()
    if problems:
        raise SetupError(f"game {found.name} cannot be registered: {'; '.join(problems)}")
    return found


GAMES, BROKEN = _load(PLUGINS)  # name -> GamePlugin; name -> why it cannot be loaded


def plugin(name: str | None = None) -> GamePlugin:
    """The plug-in of game ``name`` (default: Imperial 2030). SetupError listing the known games."""
    name = DEFAULT_GAME if name is None else name
    if isinstance(name, str) and name in BROKEN:
        raise SetupError(f"game {name} cannot be loaded: {BROKEN[name]}")
    if not isinstance(name, str) or name not in GAMES:
        raise SetupError(f"unknown game {clip(name)} (known: {', '.join(sorted(GAMES))})")
    return GAMES[name]


def plugin_of(state: Any) -> GamePlugin:
    """The plug-in of the game that made ``state`` (``state.game``)."""
    return plugin(state.game.name)


def game_of(doc: Any) -> Any:
    """The game a document (config, move log header, setup file, run) names: its own ``game`` key, or
    Imperial 2030 without one (a malformed key as it is: ``plugin`` refuses it, naming it)."""
    return doc.get("game", DEFAULT_GAME) if isinstance(doc, dict) else DEFAULT_GAME
