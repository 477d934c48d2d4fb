"""What a game gives the shared layer: one ``GamePlugin`` record per game (``imperial_lab.core.registry`` lists them).

Only ``name``, ``title`` and ``game`` are required (``players``: the range of player counts, 2..6 by default). Every other part is optional, so a game leaves
out what it does not have yet (no tables, no dashboard pages), and is named by its dotted module
path: ``part(name)`` imports it only when a command or page asks for it, so ``imperial play`` never
loads pandas or Streamlit, and a worker that records games never loads a dashboard.

A part is a module with the functions the shared module that uses it names:

| part | used by | provides |
|---|---|---|
| ``setups`` | ``imperial_lab.core.setups`` | ``list_setups``, ``setup_names``, ``show_setup``, ``load_setup``, ``play_config`` |
| ``tables`` | ``imperial_lab.core.tables``, ``imperial_lab.core.catalog`` | ``TABLES`` (the first: one row per game, with ``status``), ``TABLE_ROWS``, ``CLOSED``, ``INTRO``, ``GameRecorder`` |
| ``texts`` | ``imperial_lab.core.session`` | the words of decisions, actions and events for people |
| ``summary`` | ``imperial play``/``replay`` | ``summary(played)`` (extra keys) and ``summary_rows(summary)`` |
| ``commands`` | ``imperial_lab.core.cli`` | ``add_commands(setups_sub)``: subcommands of ``imperial setups`` |
| ``pages`` | ``dashboard/pages.py`` | ``PAGES`` (``imperial_lab.dashboard.pages.Page`` records), optional ``DATASET_SETUPS`` |
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from types import ModuleType
from typing import Callable, Mapping

PARTS = ("setups", "tables", "texts", "summary", "commands", "pages")


@dataclass(frozen=True)
class GamePlugin:
    name: str                                   # the ``game`` key of configs, move logs, setup files, runs
    title: str                                  # how people read it: "Imperial 2030"
    game: Callable[[dict], object]              # the Game class (imperial_lab.core.interface.Game), called with a config
    players: tuple[int, int] = (2, 6)           # the fewest and most players the game takes
    default_setup: str = "default"              # the setup a new game gets without ``--setup``
    bots: Mapping[str, str] = field(default_factory=dict)  # bot name -> "module:Class" (bots that need the rules)
    setups: str | None = None
    tables: str | None = None
    texts: str | None = None
    summary: str | None = None
    commands: str | None = None
    pages: str | None = None

    def part(self, name: str) -> ModuleType | None:
        """The module of part ``name`` (one of PARTS), or None when this game has none."""
        if name not in PARTS:
            raise KeyError(f"no plug-in part {name!r} (known: {', '.join(PARTS)})")
        module = getattr(self, name)
        return None if module is None else importlib.import_module(module)

    def bot_class(self, name: str):
        """The class of this game's bot ``name`` (a key of ``bots``)."""
        module, _, attr = self.bots[name].partition(":")
        return getattr(importlib.import_module(module), attr)
