"""The one table of the games the lab can play: registering a game is one entry of ``PLUGINS``.

Each entry names the module whose ``PLUGIN`` (a ``core.plugin.GamePlugin``) says what the game
gives the shared layer. The shared layer finds a game only here, by the ``game`` key of a config,
move log, setup file or run; a document without one is Imperial 2030's (all the lab's first
documents are).
"""

from __future__ import annotations

import importlib

from core.errors import SetupError
from core.jsonio import clip
from core.plugin import GamePlugin

PLUGINS = (
    "core.games.imperial2030.plugin",
    "core.games.imperia.plugin",
)
DEFAULT_GAME = "imperial2030"  # the game of a document without a ``game`` key, and of ``--game``'s default


def _load(module: str) -> GamePlugin:
    return importlib.import_module(module).PLUGIN


GAMES: dict[str, GamePlugin] = {plugin.name: plugin for plugin in map(_load, PLUGINS)}


def plugin(name: str | None = None) -> GamePlugin:
    """The plug-in of game ``name`` (default: Imperial 2030). SetupError listing the known games."""
    name = DEFAULT_GAME if name is None else name
    if not isinstance(name, str) or name not in GAMES:
        raise SetupError(f"unknown game {clip(name)} (known: {', '.join(sorted(GAMES))})")
    return GAMES[name]


def game_of(doc: dict) -> str:
    """The game a document (config, move log header, setup file, run) names: its own ``game`` key, or
    Imperial 2030 without one."""
    return doc.get("game", DEFAULT_GAME) if isinstance(doc, dict) else DEFAULT_GAME
