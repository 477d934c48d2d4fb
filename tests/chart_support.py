"""What the log explorers' AppTests read of a page's chance chart (dashboard/logkit.py show_chances)."""

from __future__ import annotations

import json


def chance_chart(at) -> dict:
    """The figure of the page's one Plotly chart, the chances to win."""
    charts = at.get("plotly_chart")
    assert len(charts) == 1
    return json.loads(charts[0].proto.spec)


def seat_lines(figure: dict) -> list[dict]:
    """The chart's line of each seat (the big swings' marks left out)."""
    return [trace for trace in figure["data"] if trace["name"] != "big swing"]
