"""Imperial 2030's entry in the registry of games (core/registry.py)."""

from imperial_lab.core.games.imperial2030.game import Imperial2030
from imperial_lab.core.games.imperial2030.state import State
from imperial_lab.core.plugin import Capability, GamePlugin

_HERE = "imperial_lab.core.games.imperial2030"

PLUGIN = GamePlugin(
    name="imperial2030",
    title="Imperial 2030",
    game=Imperial2030,
    players=(2, 6),
    state=State,
    capabilities=frozenset({Capability.APPLY_LEGAL, Capability.RECORDING, Capability.EVALUATE,
                            Capability.PLAYOUT_POLICY, Capability.RESAMPLE}),  # nothing hidden once dealt
    lessons=True,
    default_setup="standard",
    bots={"heuristic": f"{_HERE}.heuristic:HeuristicBot"},
    setups=f"{_HERE}.setups",
    tables=f"{_HERE}.tables",
    texts=f"{_HERE}.texts",
    summary=f"{_HERE}.summary",
    commands=f"{_HERE}.commands",
    pages="imperial_lab.dashboard.games.imperial2030.pages",
)
