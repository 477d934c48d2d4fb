"""Colours and labels shared by every page, chart and notebook, so a nation or a seat looks the
same everywhere."""

from core.imperial2030.board import NATIONS
from core.interface import seat_name

NATION_NAMES = {"RU": "Russia", "CN": "China", "IN": "India", "BR": "Brazil", "US": "United States", "EU": "Europe"}
# Distinct under common colour blindness, close to the board's colours where that allows.
NATION_COLOURS = {"RU": "#8c564b", "CN": "#d6b600", "IN": "#ff7f0e", "BR": "#2ca02c", "US": "#d62728", "EU": "#1f77b4"}
PLAYER_COLOURS = ("#4c4c9d", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22", "#9467bd")
SEA_COLOUR, LAND_COLOUR, BORDER_COLOUR = "#dbe9f6", "#f3efe4", "#9a9a9a"
# Runs (setups) compared side by side: dark and saturated, so they stand apart from the nations' and
# the seats' colours when both appear on one page.
RUN_COLOURS = ("#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#a6761d", "#666666")


player_label = seat_name  # one display name for a seat everywhere: core.interface


def nation_order() -> list[str]:
    return list(NATIONS)


def run_colour(index: int) -> str:
    """The colour of the ``index``-th run of a comparison (cycling past the palette)."""
    return RUN_COLOURS[index % len(RUN_COLOURS)]
