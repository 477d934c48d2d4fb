"""The rondel of a position document (RULES.md §6): its eight spaces clockwise from Factory at the
top, and each nation's marker on its space. A nation that has not moved yet stands in the centre.
``rondel_figure(position, active)`` is a pure function returning a Plotly figure.
"""

from __future__ import annotations

import plotly.graph_objects as go

from imperial_lab.core.games.imperial2030.data import NATIONS, SPACES
from imperial_lab.dashboard.games.imperial2030.colours import NATION_COLOURS, NATION_NAMES
from imperial_lab.core.games.imperial2030.words import SPACE_NAMES

SECTOR = 360 / len(SPACES)
# Pale tints, one per kind of action, so the two Production and the two Maneuver spaces match.
SPACE_COLOURS = {"factory": "#e6d3bd", "production_1": "#cfe3f3", "maneuver_1": "#d5ecd0", "investor": "#f6e7a9",
                 "import": "#f4d6c2", "production_2": "#cfe3f3", "maneuver_2": "#d5ecd0", "taxation": "#e2d5ee"}
# Where the j-th nation on one space stands: angle offset (degrees) and radius, two rows of three.
SLOTS = [(-13, 0.5), (0, 0.5), (13, 0.5), (-13, 0.82), (0, 0.82), (13, 0.82)]


def rondel_figure(position: dict, active: str | None = None, height: int = 340) -> go.Figure:
    """The rondel with one marker trace per nation; ``active`` (a nation code) is drawn larger."""
    fig = go.Figure(go.Barpolar(
        theta=[k * SECTOR for k in range(len(SPACES))], r=[1] * len(SPACES), width=[SECTOR] * len(SPACES),
        marker=dict(color=[SPACE_COLOURS[s] for s in SPACES], line=dict(color="#ffffff", width=2)),
        hovertext=[SPACE_NAMES[s] for s in SPACES], hoverinfo="text", showlegend=False))
    for code, (theta, r) in marker_places(position).items():
        fig.add_trace(go.Scatterpolar(
            theta=[theta], r=[r], mode="markers+text", name=NATION_NAMES[code], text=[code],
            textfont=dict(size=9, color="#222222" if code == "CN" else "#ffffff"),
            marker=dict(size=24 if code == active else 17, color=NATION_COLOURS[code],
                        line=dict(color="#000000", width=3 if code == active else 1)),
            hovertext=[_hover(code, position["nations"][code])], hoverinfo="text"))
    fig.update_layout(
        height=height, margin=dict(l=70, r=70, t=25, b=25), showlegend=False, paper_bgcolor="rgba(0,0,0,0)",
        polar=dict(hole=0.22, bgcolor="rgba(0,0,0,0)",
                   radialaxis=dict(range=[0, 1], visible=False),
                   angularaxis=dict(direction="clockwise", rotation=90, showgrid=False, showline=False,
                                    tickvals=[k * SECTOR for k in range(len(SPACES))],
                                    ticktext=[SPACE_NAMES[s] for s in SPACES], tickfont=dict(size=11))))
    return fig


def marker_places(position: dict) -> dict[str, tuple[float, float]]:
    """(angle in degrees clockwise from Factory, radius) of every nation's marker, in turn order.

    Nations sharing a space take the slots of SLOTS in turn order; nations off the rondel share the
    centre ring (radius 0, which the hole turns into a circle) at evenly spread angles.
    """
    places, taken = {}, {}
    for i, code in enumerate(NATIONS):
        space = position["nations"][code]["rondel"]
        if space is None:
            places[code] = (i * 360 / len(NATIONS), 0.0)
            continue
        j = taken[space] = taken.get(space, -1) + 1
        offset, r = SLOTS[j]
        places[code] = (SPACES.index(space) * SECTOR + offset, r)
    return places


def _hover(code: str, doc: dict) -> str:
    where = SPACE_NAMES[doc["rondel"]] if doc["rondel"] else "the centre (it has not moved yet)"
    return f"{NATION_NAMES[code]} on {where}<br>{doc['power_points']} power points"
