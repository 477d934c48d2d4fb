"""Imperia's entry in the registry of games (core/registry.py): its rules, its heuristic bot and its
tables (RULES.md §10)."""

from imperial_lab.core.games.imperia.game import Imperia
from imperial_lab.core.games.imperia.state import State
from imperial_lab.core.plugin import Capability, GamePlugin

PLUGIN = GamePlugin(
    name="imperia",
    title="Imperia",
    game=Imperia,
    players=(2, 4),
    state=State,
    capabilities=frozenset({Capability.APPLY_LEGAL, Capability.RECORDING, Capability.EVALUATE,
                            Capability.RESAMPLE, Capability.HIDDEN_INFORMATION}),  # the hands (§7.2)
    default_setup="default",
    bots={"heuristic": "imperial_lab.core.games.imperia.heuristic:ImperiaHeuristicBot"},
    tables="imperial_lab.core.games.imperia.tables",
    texts="imperial_lab.core.games.imperia.texts",
    pages="imperial_lab.dashboard.games.imperia.pages",
)
