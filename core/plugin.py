"""What a game gives the shared layer: one ``GamePlugin`` record per game (``imperial_lab.core.registry`` lists them).

Only ``name``, ``title`` and ``game`` are required (``players``: the range of player counts, 2..6
by default). Everything else is optional and **declared**, never discovered: the shared layer asks
the record what a game offers instead of probing its objects, and the registry checks every
declaration when it registers the game (``GamePlugin.problems``): a game that declares what it
lacks is refused, naming what is missing.

**Capabilities** (``capabilities``, a set of ``Capability``) are what a game's classes offer beyond
the required interface (``imperial_lab.core.interface``; each has a Protocol there):

| capability | member | used by |
|---|---|---|
| ``APPLY_LEGAL`` | ``State.apply_legal(action)``: apply without the legality check | ``imperial_lab.core.play``, ``imperial_lab.core.mcts`` |
| ``RECORDING`` | ``State.recording``: a switch that stops building events | ``imperial_lab.core.play``, ``imperial_lab.core.session`` |
| ``EVALUATE`` | ``Game.evaluate(state)`` | ``imperial_lab.core.mcts`` |
| ``PLAYOUT_POLICY`` | ``Game.playout_policy(rng)`` | ``imperial_lab.core.mcts`` |
| ``RESAMPLE`` | ``Game.resample(state, player, rng)`` | ``imperial_lab.core.mcts`` |
| ``HIDDEN_INFORMATION`` | ``State.observation(player)`` hides part of the position (``None``: a spectator's view) | the registration check: it needs ``RESAMPLE``, without which search would see what is hidden |

State capabilities are checked on ``state``, the game's State class, which a game declaring one
names.

**Parts** are modules, named by their dotted path: ``part(name)`` imports one only when a command or
page asks for it (so ``imperial play`` never loads pandas or Streamlit, and a worker that records
games never loads a dashboard) and checks that it has the names its users need:

| part | used by | provides |
|---|---|---|
| ``setups`` | ``imperial_lab.core.setups`` | ``list_setups``, ``setup_names``, ``show_setup``, ``load_setup``, ``play_config`` |
| ``tables`` | ``imperial_lab.core.tables``, ``imperial_lab.core.catalog`` | ``TABLES`` (the first: one row per game, with ``status``), ``TABLE_ROWS``, ``CLOSED``, ``INTRO``, ``GameRecorder`` |
| ``texts`` | ``imperial_lab.core.session`` | the words of decisions, actions and events for people (each optional) |
| ``summary`` | ``imperial play``/``replay`` | ``summary(played)`` (extra keys) and ``summary_rows(summary)`` |
| ``commands`` | ``imperial_lab.core.cli`` | ``add_commands(sub, setups_sub)``: the game's own subcommands |
| ``pages`` | ``dashboard/pages.py`` | ``PAGES`` (``imperial_lab.dashboard.pages.Page`` records), optional ``DATASET_SETUPS`` |

``lessons`` says that the game ships lessons (``data/<game>/lessons/*.json``, read by ``imperial_lab.core.lessons``);
registration checks that the folder holds some.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
from dataclasses import dataclass, field
from enum import StrEnum
from types import ModuleType
from typing import Any
from collections.abc import Callable, Mapping

from imperial_lab.core.files import data_path
from imperial_lab.core.interface import Game


class Capability(StrEnum):
    """What a game may offer beyond the required interface (see the module docstring)."""

    APPLY_LEGAL = "apply_legal"
    RECORDING = "recording"
    EVALUATE = "evaluate"
    PLAYOUT_POLICY = "playout_policy"
    RESAMPLE = "resample"
    HIDDEN_INFORMATION = "hidden_information"


STATE_MEMBERS = {Capability.APPLY_LEGAL: "apply_legal", Capability.RECORDING: "recording"}
GAME_MEMBERS = {Capability.EVALUATE: "evaluate", Capability.PLAYOUT_POLICY: "playout_policy",
                Capability.RESAMPLE: "resample"}
SEARCH_HOOKS = tuple(GAME_MEMBERS)

# part -> the names its module must have
PARTS: dict[str, tuple[str, ...]] = {
    "setups": ("list_setups", "setup_names", "show_setup", "load_setup", "play_config"),
    "tables": ("TABLES", "TABLE_ROWS", "CLOSED", "INTRO", "GameRecorder"),
    "texts": (),
    "summary": ("summary", "summary_rows"),
    "commands": ("add_commands",),
    "pages": ("PAGES",),
}
NAME = re.compile(r"^[a-z][a-z0-9_]{0,39}$")


@dataclass(frozen=True)
class GamePlugin:
    name: str                                   # the ``game`` key of configs, move logs, setup files, runs
    title: str                                  # how people read it: "Imperial 2030"
    game: Callable[[dict[str, Any]], Game]      # the Game class (imperial_lab.core.interface.Game), called with a config
    players: tuple[int, int] = (2, 6)           # the fewest and most players the game takes
    default_setup: str = "default"              # the setup a new game gets without ``--setup``
    bots: Mapping[str, str] = field(default_factory=dict)  # bot name -> "module:Class" (bots that need the rules)
    state: type | None = None                   # the State class (where the state capabilities are checked)
    capabilities: frozenset[Capability] = frozenset()
    lessons: bool = False                       # lessons in data/<name>/lessons/
    setups: str | None = None
    tables: str | None = None
    texts: str | None = None
    summary: str | None = None
    commands: str | None = None
    pages: str | None = None

    def offers(self, capability: Capability) -> bool:
        return capability in self.capabilities

    def part(self, name: str) -> ModuleType | None:
        """The module of part ``name`` (a key of PARTS), or None when this game has none.
        ImportError when the module lacks a name its users need."""
        if name not in PARTS:
            raise KeyError(f"no plug-in part {name!r} (known: {', '.join(PARTS)})")
        path = getattr(self, name)
        if path is None:
            return None
        module = importlib.import_module(path)
        missing = [attr for attr in PARTS[name] if not hasattr(module, attr)]
        if missing:
            raise ImportError(f"{self.title}: its {name} part {path} lacks {', '.join(missing)}")
        return module

    def bot_class(self, name: str) -> Any:
        """The class of this game's bot ``name`` (a key of ``bots``)."""
        module, _, attr = self.bots[name].partition(":")
        return getattr(importlib.import_module(module), attr)

    def problems(self) -> list[str]:
        """What is wrong with this record: each declaration checked against the classes and modules
        it names, without importing a part (its module is only looked for). Empty when all is well."""
        found = []
        if not NAME.match(self.name):
            found.append(f"name {self.name!r} is not a lower-case identifier")
        low, high = self.players
        if not 1 <= low <= high:
            found.append(f"players {self.players} is not a range of player counts")
        unknown = [c for c in self.capabilities if not isinstance(c, Capability)]
        if unknown:
            found.append(f"unknown capabilities {sorted(map(str, unknown))} (known: {', '.join(Capability)})")
        for capability, member in STATE_MEMBERS.items():
            if self.offers(capability) and not _has(self.state, member):
                found.append(f"declares {capability} but its State class {_named(self.state)} has no {member}")
        for capability, member in GAME_MEMBERS.items():
            if self.offers(capability) and not callable(getattr(self.game, member, None)):
                found.append(f"declares {capability} but its Game class {_named(self.game)} has no {member}()")
        if self.offers(Capability.HIDDEN_INFORMATION) and not self.offers(Capability.RESAMPLE):
            found.append("declares hidden_information without resample: search would see what is hidden")
        for name in PARTS:
            path = getattr(self, name)
            if path is not None and not _module_exists(path):
                found.append(f"its {name} part {path} cannot be found")
        for bot, spec in self.bots.items():
            module, colon, attr = spec.partition(":")
            if not colon or not attr or not _module_exists(module):
                found.append(f"its bot {bot!r} ({spec}) is not an existing module:Class")
        if self.lessons and not any(data_path(self.name, "lessons").glob("*.json")):
            found.append(f"declares lessons but data/{self.name}/lessons/ holds none")
        return found


def _has(cls: type | None, member: str) -> bool:
    """``cls`` has ``member``: a method, a slot or an annotated field (a ``recording`` flag)."""
    return cls is not None and (hasattr(cls, member) or any(member in getattr(k, "__annotations__", {})
                                                              for k in cls.__mro__))


def _named(cls: object) -> str:
    return getattr(cls, "__qualname__", "(none)") if cls is not None else "(none)"


def _module_exists(path: str) -> bool:
    try:
        return importlib.util.find_spec(path) is not None
    except ImportError:  # a parent package that is not there
        return False
