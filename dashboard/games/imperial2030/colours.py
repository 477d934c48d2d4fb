"""Imperial 2030's colours and names, so a nation looks the same on every page, chart and notebook
(the seats' and runs' colours are the shared dashboard's: dashboard/style.py)."""

from imperial_lab.core.games.imperial2030.data import NATIONS
from imperial_lab.core.games.imperial2030.words import NATION_NAMES  # noqa: F401  (the names of the game's words)

# Distinct under common colour blindness, close to the board's colours where that allows.
NATION_COLOURS = {"RU": "#8c564b", "CN": "#d6b600", "IN": "#ff7f0e", "BR": "#2ca02c", "US": "#d62728", "EU": "#1f77b4"}
SEA_COLOUR, LAND_COLOUR, BORDER_COLOUR = "#dbe9f6", "#f3efe4", "#9a9a9a"


def nation_order() -> list[str]:
    return list(NATIONS)
