"""Named setups of every game (docs/setups.md): the shared layer's door to each game's own.

A game's named setups are its plug-in's ``setups`` part (Imperial 2030: ``standard``, ``variant``
and the files of ``data/setups``); a game without one has a single named setup, its
``default_setup`` (its config with nothing but the players), and takes a setup file as its config. A setup *file* given by its path says which game
it is for with its own ``game`` key (Imperial 2030 without one), and that key wins over ``game``.
"""

from __future__ import annotations

import os
from pathlib import Path

from imperial_lab.core.errors import SetupError
from imperial_lab.core.jsonio import clip, read_json_file
from imperial_lab.core.registry import game_of, plugin

SETUPS_ENV = "IMPERIAL_LAB_SETUPS"  # a folder of custom setups that the dashboard and --save use instead
MAX_DESCRIPTION = 1000  # characters of a setup file's description


def list_setups(folder: Path | None = None, game: str | None = None) -> list[dict]:
    """Every named setup of ``game``: ``name``, ``players`` (None: any count) and ``description``."""
    owner = plugin(game)
    module = owner.part("setups")
    if module is None:
        return [{"name": owner.default_setup, "players": None, "description": f"the {owner.title} default"}]
    return module.list_setups(*_folder(folder))


def setup_names(folder: Path | None = None, game: str | None = None) -> list[str]:
    """The names ``load_setup`` knows for ``game``, without reading the files."""
    owner = plugin(game)
    module = owner.part("setups")
    return [owner.default_setup] if module is None else module.setup_names(*_folder(folder))


def show_setup(name: str, folder: Path | None = None, game: str | None = None) -> dict:
    """The document of one setup of ``game`` (a file's own ``game`` key wins): for a game without a
    setups part, its default or a setup file's description and (checked) config."""
    owner = plugin(setup_game(name, folder, game))
    module = owner.part("setups")
    if module is not None:
        return module.show_setup(name, *_folder(folder))
    if name == owner.default_setup:
        return list_setups(game=owner.name)[0]
    description, config = _setup_file(owner, name)
    return {"name": name, "players": config["players"], "description": description, "config": config}


def load_setup(name: str, players: int | None = None, folder: Path | None = None, game: str | None = None) -> dict:
    """The game configuration of setup ``name`` of ``game``: a named setup, or a setup file's path
    (whose own ``game`` key wins). SetupError for an unknown game or setup."""
    owner = plugin(setup_game(name, folder, game))
    module = owner.part("setups")
    if module is not None:
        return module.load_setup(name, players, *_folder(folder))
    if name == owner.default_setup:
        return owner.game({"game": owner.name, **({} if players is None else {"players": players})}).config
    return _setup_file(owner, name, players)[1]


def _setup_file(owner, name, players: int | None = None) -> tuple[str | None, dict]:
    """The description and the game config of the setup file ``name`` of a game without a setups
    part (the file is its config, with an optional description); SetupError naming the file."""
    if not (isinstance(name, str) and is_file(Path(name))):
        raise _unknown(owner, name)
    doc = read_json_file(name, SetupError)
    if not isinstance(doc, dict):
        raise SetupError(f"{name}: a setup file of {owner.title} is a JSON object: its config")
    description = doc.get("description")
    if description is not None:
        check_description(description, name)
    config = {key: value for key, value in doc.items() if key != "description"}
    try:
        game = owner.game({**config, "game": owner.name, **({} if players is None else {"players": players})})
    except SetupError as exc:
        raise SetupError(f"{name}: {exc}") from None
    return description, game.config


def check_description(text, where) -> str:
    """``text`` if it can describe a setup: 1..MAX_DESCRIPTION characters, not only blanks."""
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_DESCRIPTION:
        raise SetupError(f"{where}: description: must be a text of 1..{MAX_DESCRIPTION:,} characters, got "
                         f"{clip(text)}")
    return text


def play_config(name: str | None, players: int | None = None, game: str | None = None) -> dict:
    """``imperial play --setup``: the config of setup ``name`` of ``game`` (None: the game's default
    setup). A game's setups part may take more there than ``load_setup`` does (its ``play_config``;
    Imperial 2030: a file holding a bare distribution)."""
    owner = plugin(game)
    name = owner.default_setup if name is None else name
    owner = plugin(setup_game(name, None, owner.name))
    module = owner.part("setups")
    return load_setup(name, players, game=owner.name) if module is None else module.play_config(name, players)


def setup_game(name: str, folder: Path | None, game: str | None) -> str:
    """The game a setup is for: a named setup of ``game`` is ``game``'s; a file given by its path names
    its own game (Imperial 2030 without a ``game`` key)."""
    game = plugin(game).name
    if not isinstance(name, str) or name in setup_names(folder, game) or not is_file(Path(name)):
        return game
    return game_of(read_json_file(name, SetupError))


def custom_folder() -> Path | None:
    """``$IMPERIAL_LAB_SETUPS``: the folder of custom setups the dashboard shows and ``setups search
    --save`` writes to instead of a game's own (None: each game's own folder)."""
    folder = os.environ.get(SETUPS_ENV)
    return Path(folder) if folder else None


def is_file(path: Path) -> bool:
    """Whether ``path`` names a file; a name no file can have (a NUL byte, too long) names none."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def _folder(folder) -> tuple:
    """The optional folder argument of a game's setups functions (their own default without one)."""
    return () if folder is None else (Path(folder),)


def _unknown(owner, name) -> SetupError:
    return SetupError(f"unknown setup {clip(name)} of {owner.title} (known: {owner.default_setup}, or the path "
                      f"of a setup file)")
