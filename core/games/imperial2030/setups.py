"""Imperial 2030's named starting distributions (docs/setups.md; the plug-in's ``setups`` part, which
``imperial_lab.core.setups`` asks): ``standard``, ``variant`` and the custom files of
``data/setups/*.json``.

A setup file is ``{"description": ..., "players": [{"cash": 3, "bonds": ["RU 4"]}, ...]}`` with
optional ``game`` (``imperial2030``), ``governments`` and ``treasuries`` (and per player ``starting_cash``) that
``validate_distribution`` cross-checks, so a file that does not add up is refused before any game.
"""

from __future__ import annotations

from pathlib import Path

from imperial_lab.core.errors import ImperialError, SetupError
from imperial_lab.core.files import data_path, user_folder
from imperial_lab.core.games.imperial2030.data import load_board
from imperial_lab.core.games.imperial2030.distribution import validate_distribution
from imperial_lab.core.games.imperial2030.game import Imperial2030
from imperial_lab.core.jsonio import clip, read_json_file
from imperial_lab.core.setups import check_description, custom_folder, is_file

SETUPS_DIR = data_path("setups")  # the shipped named setups
PRESETS = {
    "standard": "the standard deal for the player count: flag cards dealt at random (§4.2)",
    "variant": "experienced players' variant: starting cash, then each seat's bot picks bonds nation by nation (§4.3)",
}
FILE_KEYS = {"game", "description", "players", "governments", "treasuries"}
SEAT_KEYS = {"cash", "bonds", "starting_cash"}


def setups_folder() -> Path:
    """The folder of the user's own setups, which the dashboard and ``--save`` write to:
    ``$IMPERIAL_LAB_SETUPS``, else ``setups/`` in the user folder (imperial_lab.core.files)."""
    return custom_folder() or user_folder() / "setups"


def setup_files(folder: Path | None = None) -> dict[str, Path]:
    """Every setup file by name: the shipped ones (data/setups), then the user's (``folder``, default
    ``setups_folder()``), whose file wins where both have a name."""
    folder = setups_folder() if folder is None else folder
    found = {path.stem: path for path in sorted(SETUPS_DIR.glob("*.json"))}
    if folder.is_dir():
        found.update({path.stem: path for path in sorted(folder.glob("*.json")) if not _of_another_game(path)})
    return dict(sorted(found.items()))


def _of_another_game(path: Path) -> bool:
    """Whether the user's file names another game (a setup file of Imperia or Imperial Powers kept in
    the same folder, given by its path): it is not one of Imperial 2030's named setups. A file that
    cannot be read is kept, so that using it names what is wrong with it."""
    try:
        doc = read_json_file(path, SetupError)
    except ImperialError:
        return False
    return isinstance(doc, dict) and doc.get("game", Imperial2030.name) != Imperial2030.name


def list_setups(folder: Path | None = None) -> list[dict]:
    """Every named setup: ``name``, ``players`` (None: any count 2..6) and ``description``."""
    rows: list[dict] = [{"name": name, "players": None, "description": text} for name, text in PRESETS.items()]
    for name, path in setup_files(folder).items():
        doc = read_setup_file(path)
        rows.append({"name": name, "players": len(doc["players"]), "description": doc["description"]})
    return rows


def setup_names(folder: Path | None = None) -> list[str]:
    """The names ``load_setup`` knows, without reading the files."""
    return [*PRESETS, *setup_files(folder)]


def show_setup(name: str, folder: Path | None = None) -> dict:
    """The document of one setup: a preset's description, or the whole (checked) file."""
    if name in PRESETS:
        return {"name": name, "players": None, "description": PRESETS[name]}
    return {"name": name, **read_setup_file(_path(name, folder))}


def load_setup(name: str, players: int | None = None, folder: Path | None = None) -> dict:
    """The game configuration of setup ``name`` (a preset, a file of ``folder`` or a file path).

    ``players`` defaults to 4 for the presets and to the count a file lists; a file refuses any other.
    """
    if name in PRESETS:
        return Imperial2030({"players": 4 if players is None else players, "setup": name}).config
    path = _path(name, folder)
    doc = read_setup_file(path)
    listed = len(doc["players"])
    if players is not None and players != listed:
        raise SetupError(f"setup {name!r} ({path}) is for {listed} players, not {players}")
    distribution = {key: value for key, value in doc.items() if key not in ("description", "game")}
    # The name travels with the config into move logs, so a game says which file it started from.
    return Imperial2030({"players": listed, "setup": "custom", "distribution": distribution,
                      "name": Path(name).stem}).config


def play_config(setup: str, players: int | None = None) -> dict:
    """``imperial play --setup``: a named setup, or a file holding a bare distribution object."""
    if setup in setup_names():
        return load_setup(setup, players)
    if not is_file(Path(setup)):
        named = ", ".join(setup_names()[2:])
        raise SetupError(f"--setup: {clip(setup)} is neither standard nor variant, nor a named setup "
                         f"({named}), nor a distribution file")
    config = {"game": Imperial2030.name, "setup": "custom", "distribution": read_json_file(setup, SetupError)}
    return config if players is None else {**config, "players": players}


def _path(name: str, folder: Path | None) -> Path:
    """A setup file by name, else an existing file path (so ``--setup my.json`` works too)."""
    named = setup_files(folder).get(name)
    if "/" not in name and named is not None:
        return named
    if is_file(Path(name)):
        return Path(name)
    known = ", ".join(setup_names(folder))
    raise SetupError(f"unknown setup {clip(name)} (known: {known}; or give the path of a setup file)")


def read_setup_file(path: Path) -> dict:
    """The checked document of a setup file; any fault is a SetupError naming the file and field."""
    doc = read_json_file(path, SetupError)
    if not isinstance(doc, dict):
        raise SetupError(f"{path}: a setup file is a JSON object with 'description' and 'players'")
    unknown = sorted(set(doc) - FILE_KEYS)
    if unknown:
        raise SetupError(f"{path}: unknown keys {clip(unknown)} (known: {sorted(FILE_KEYS)})")
    if doc.get("game", Imperial2030.name) != Imperial2030.name:
        raise SetupError(f"{path}: a setup file of game {clip(doc['game'])}, not of Imperial 2030")
    check_description(doc.get("description"), path)
    players = doc.get("players")
    if not isinstance(players, list) or not 2 <= len(players) <= 6:
        raise SetupError(f"{path}: players: must list 2..6 players")
    for p, seat in enumerate(players):
        # validate_distribution ignores keys it does not know; a typo there would silently drop a check.
        extra = sorted(set(seat) - SEAT_KEYS) if isinstance(seat, dict) else []
        if extra:
            raise SetupError(f"{path}: players[{p}]: unknown keys {clip(extra)} (known: {sorted(SEAT_KEYS)})")
    try:
        validate_distribution(doc, len(players), load_board().bond_cost)
    except ImperialError as exc:
        raise SetupError(f"{path}: {exc}") from None
    # A field of the wrong JSON type (e.g. a list for 'treasuries') may slip past the checks as a bare error.
    except (TypeError, AttributeError, KeyError, ValueError) as exc:
        raise SetupError(f"{path}: malformed setup ({type(exc).__name__}: {clip(str(exc))})") from None
    return doc
