"""The Imperial 2030 board drawn as a map: region shapes, coastlines, canals.

``data/imperial2030/board_shapes.json`` holds one shape per region of ``board.json`` (land regions
as filled polygons, sea regions as water areas), the land that is no region, the polar areas,
Switzerland and the two canal markers, all in the map units of :func:`project`. It is derived from
Natural Earth by ``scripts/derive_board_shapes.py`` and committed; the dashboard only reads it, so
this module needs no geometry library.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache

from imperial_lab.core.games.imperial2030.data import DATA_DIR

# The map is cut at the Bering Strait: longitudes west of the cut are moved to the right edge.
CUT_LON = -169.0


def project(lon: float, lat: float) -> tuple[float, float]:
    """Miller cylindrical projection in degree-like units (x = shifted longitude), north up.

    y is Miller's 1.25·ln(tan(π/4 + 0.4·φ)) scaled by 180/π so that x and y are comparable.
    """
    x = lon + 360.0 if lon < CUT_LON else lon
    y = 1.25 * math.log(math.tan(math.pi / 4 + 0.4 * math.radians(lat))) * 180.0 / math.pi
    return x, y


@lru_cache(maxsize=1)
def shapes() -> dict:
    """The board shapes document (see the module docstring), read once."""
    with open(DATA_DIR / "board_shapes.json", encoding="utf-8") as f:
        return json.load(f)
