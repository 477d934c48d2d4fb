"""The rondel of a position document (RULES.md §6) as SVG: its eight spaces clockwise from Factory at
the top, and each nation's marker on its space (a nation that has not moved yet stands in the
centre). ``rondel_svg(position, active)`` is a pure function returning one ``<svg>`` element, so the
explorer, the Play page, the lessons and the notebooks draw the same rondel; on the Play page and in
the lessons its spaces can be clicked (``clickable``: each space's ``data-click`` is ``space:ID``)
and the spaces the nation may move to are ringed (``targets``).
"""

from __future__ import annotations

import html
import math

from imperial_lab.core.games.imperial2030.data import NATIONS, SPACES
from imperial_lab.dashboard.games.imperial2030.colours import NATION_COLOURS, NATION_NAMES
from imperial_lab.core.games.imperial2030.words import SPACE_NAMES

SECTOR = 360 / len(SPACES)
# Pale tints, one per kind of action, so the two Production and the two Maneuver spaces match.
SPACE_COLOURS = {"factory": "#e6d3bd", "production_1": "#cfe3f3", "maneuver_1": "#d5ecd0", "investor": "#f6e7a9",
                 "import": "#f4d6c2", "production_2": "#cfe3f3", "maneuver_2": "#d5ecd0", "taxation": "#e2d5ee"}
# Where the j-th nation on one space stands: angle offset (degrees) and radius, two rows of three.
SLOTS = [(-13, 0.5), (0, 0.5), (13, 0.5), (-13, 0.82), (0, 0.82), (13, 0.82)]
R_OUT, R_IN, R_LABEL = 100, 24, 112  # the ring, its hole and the names, in the SVG's units
TARGET_COLOUR = "#1a9850"


def marker_places(position: dict) -> dict[str, tuple[float, float]]:
    """(angle in degrees clockwise from Factory, radius in [0, 1]) of every nation's marker, in turn order.

    Nations sharing a space take the slots of SLOTS in turn order; nations off the rondel share the
    centre ring (radius 0, drawn at the hole's edge) at evenly spread angles.
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


def _point(angle: float, radius: float) -> tuple[float, float]:
    """A point at ``angle`` degrees clockwise from the top, ``radius`` units from the centre."""
    a = math.radians(angle)
    return radius * math.sin(a), -radius * math.cos(a)


def _sector(k: int) -> str:
    """The path of space ``k``: a ring sector centred on its angle."""
    a0, a1 = k * SECTOR - SECTOR / 2, k * SECTOR + SECTOR / 2
    (x0, y0), (x1, y1) = _point(a0, R_OUT), _point(a1, R_OUT)
    (x2, y2), (x3, y3) = _point(a1, R_IN), _point(a0, R_IN)
    return (f"M{x0:.1f},{y0:.1f}A{R_OUT},{R_OUT} 0 0 1 {x1:.1f},{y1:.1f}L{x2:.1f},{y2:.1f}"
            f"A{R_IN},{R_IN} 0 0 0 {x3:.1f},{y3:.1f}Z")


def rondel_svg(position: dict, active: str | None = None, targets=(), clickable: bool = False) -> str:
    """The rondel with every nation's marker (``active``, a nation code, drawn larger); ``targets``:
    spaces to ring (where the nation may go); ``clickable``: spaces carry ``data-click``."""
    parts = []
    for k, space in enumerate(SPACES):
        click = f' data-click="space:{space}"' if clickable else ""
        ring = (f' stroke="{TARGET_COLOUR}" stroke-width="4"' if space in targets else ' stroke="#fff" stroke-width="2"')
        parts.append(f'<path class="space" data-space="{space}"{click} d="{_sector(k)}" fill="{SPACE_COLOURS[space]}"'
                     f'{ring}><title>{SPACE_NAMES[space]}{" (you may go here)" if space in targets else ""}</title>'
                     f'</path>')
        x, y = _point(k * SECTOR, R_LABEL)
        anchor = "middle" if abs(x) < 5 else ("start" if x > 0 else "end")
        parts.append(f'<text x="{x:.1f}" y="{y + 4:.1f}" font-size="11" text-anchor="{anchor}" fill="#333" '
                     f'pointer-events="none">{SPACE_NAMES[space]}</text>')
    for code, (theta, r) in marker_places(position).items():
        x, y = _point(theta, R_IN + 8 if r == 0 else R_IN + r * (R_OUT - R_IN))
        size = 11 if code == active else 8
        doc = position["nations"][code]
        where = SPACE_NAMES[doc["rondel"]] if doc["rondel"] else "the centre (it has not moved yet)"
        ink = "#222" if code == "CN" else "#fff"
        parts.append(f'<g class="marker" data-nation="{code}" pointer-events="none"><title>{NATION_NAMES[code]} on '
                     f'{html.escape(where)}, {doc["power_points"]} power points</title>'
                     f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{size}" fill="{NATION_COLOURS[code]}" stroke="#000" '
                     f'stroke-width="{2.5 if code == active else 1}"/><text x="{x:.1f}" y="{y + 3:.1f}" '
                     f'font-size="8" text-anchor="middle" fill="{ink}">{code}</text></g>')
    return (f'<svg class="imperial-rondel" viewBox="-175 -125 350 250" width="100%" style="max-width:420px" '
            f'xmlns="http://www.w3.org/2000/svg" role="img" aria-label="the rondel" font-family="sans-serif">'
            f'{"".join(parts)}</svg>')
