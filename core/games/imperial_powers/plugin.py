"""Imperial Powers' entry in the registry of games (core/registry.py): its rules, its heuristic bot,
its words for people (texts), its tables (RULES.md §8) and its dashboard pages."""

from imperial_lab.core.games.imperial_powers.game import ImperialPowers
from imperial_lab.core.games.imperial_powers.state import State
from imperial_lab.core.plugin import Capability, GamePlugin

PLUGIN = GamePlugin(
    name="imperial_powers",
    title="Imperial Powers",
    game=ImperialPowers,
    players=(3, 5),
    state=State,
    capabilities=frozenset({Capability.APPLY_LEGAL, Capability.RECORDING, Capability.EVALUATE,
                            Capability.PLAYOUT_POLICY, Capability.RESAMPLE,
                            Capability.HIDDEN_INFORMATION}),  # hands, strips, decks (§6.2)
    default_setup="default",
    texts="imperial_lab.core.games.imperial_powers.texts",
    pages="imperial_lab.dashboard.games.imperial_powers.pages",
    tables="imperial_lab.core.games.imperial_powers.tables",
    bots={"heuristic": "imperial_lab.core.games.imperial_powers.heuristic:ImperialPowersHeuristicBot"},
)
