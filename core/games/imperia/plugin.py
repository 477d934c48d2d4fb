"""Imperia's entry in the registry of games (core/registry.py): its rules and its heuristic bot; no
tables, setups or pages yet."""

from core.games.imperia.game import Imperia
from core.plugin import GamePlugin

PLUGIN = GamePlugin(
    name="imperia",
    title="Imperia",
    game=Imperia,
    default_setup="default",
    bots={"heuristic": "core.games.imperia.heuristic:ImperiaHeuristicBot"},
)
