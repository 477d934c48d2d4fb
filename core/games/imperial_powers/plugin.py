"""Imperial Powers' entry in the registry of games (core/registry.py): its rules, its heuristic bot,
its words for people (texts), its tables (RULES.md §8) and its dashboard pages."""

from core.games.imperial_powers.game import ImperialPowers
from core.plugin import GamePlugin

PLUGIN = GamePlugin(
    name="imperial_powers",
    title="Imperial Powers",
    game=ImperialPowers,
    default_setup="default",
    texts="core.games.imperial_powers.texts",
    pages="core.games.imperial_powers.dashboard.pages",
    tables="core.games.imperial_powers.tables",
    bots={"heuristic": "core.games.imperial_powers.heuristic:ImperialPowersHeuristicBot"},
)
