"""Colours and labels shared by every page, chart and notebook of every game, so a seat or a run looks
the same everywhere (a game's own colours, such as Imperial 2030's nations, are in its dashboard)."""

from imperial_lab.core.interface import seat_name

PLAYER_COLOURS = ("#4c4c9d", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22", "#9467bd")
# Runs (setups) compared side by side: dark and saturated, so they stand apart from a game's own and
# the seats' colours when both appear on one page.
RUN_COLOURS = ("#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#a6761d", "#666666")


player_label = seat_name  # one display name for a seat everywhere: imperial_lab.core.interface


def run_colour(index: int) -> str:
    """The colour of the ``index``-th run of a comparison (cycling past the palette)."""
    return RUN_COLOURS[index % len(RUN_COLOURS)]
