"""Imperial Powers' entry in the registry of games (core/registry.py): its rules only, so far (no
bots of its own, tables or pages yet)."""

from core.games.imperial_powers.game import ImperialPowers
from core.plugin import GamePlugin

PLUGIN = GamePlugin(
    name="imperial_powers",
    title="Imperial Powers",
    game=ImperialPowers,
    default_setup="default",
    bots={},
)
