"""Imperia's entry in the registry of games (core/registry.py): its rules, its heuristic bot and its
tables (RULES.md §10)."""

from core.games.imperia.game import Imperia
from core.plugin import GamePlugin

PLUGIN = GamePlugin(
    name="imperia",
    title="Imperia",
    game=Imperia,
    default_setup="default",
    bots={"heuristic": "core.games.imperia.heuristic:ImperiaHeuristicBot"},
    tables="core.games.imperia.tables",
    texts="core.games.imperia.texts",
    pages="core.games.imperia.dashboard.pages",
)
