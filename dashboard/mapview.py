"""A position document drawn on a world map: ``map_figure(position)`` is a pure function returning a
Plotly figure, so pages, notebooks and tests draw the same map.

The map is a plain longitude/latitude plot, not a geographic projection: Plotly's geo maps fetch
their coastlines from a CDN at view time, and the lab must work offline. Every region sits at its
board.json coordinates (our own estimates of where the region lies). The borders are drawn by kind
(land–land, coast, sea lane), the two canals and the four round-earth links stand out (a
round-earth link is drawn from each of its seas to the map edge it crosses).
Regions are small markers: seas circles, neutral lands squares, home provinces hexagons; a neutral
region takes the colour of the nation whose flag stands there. Units are larger markers with their
count, one trace per nation, grouped around their region; factories sit on their province. Hovering
any marker shows the region's full contents.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from functools import lru_cache

import plotly.graph_objects as go

from core.imperial2030.board import DATA_DIR, NATIONS
from dashboard.explain import nation
from dashboard.style import BORDER_COLOUR, NATION_COLOURS, NATION_NAMES, SEA_COLOUR

# (unit, stance) -> marker symbol; a stance exists only in another nation's home province (§7.4.5):
# a hostile army stands upright (a star), a friendly one lies down (an open circle).
UNIT_SYMBOLS = {("army", None): "circle", ("army", "hostile"): "star", ("army", "friendly"): "circle-open",
                ("fleet", None): "diamond"}
UNIT_KEY = {("army", None): "army", ("army", "hostile"): "hostile army", ("army", "friendly"): "friendly army",
            ("fleet", None): "fleet"}
PLURALS = {"army": "armies", "fleet": "fleets"}
REGION_KINDS = {"sea": "Sea", "land": "Neutral land", "home": "Home province"}
REGION_SYMBOLS = {"sea": "circle", "land": "square", "home": "hexagon"}
# The board's factory colours: brown cities make armies, light-blue ones fleets.
FACTORY_COLOURS = {"armaments": "#7b5a36", "shipyard": "#4aa3d8"}
FREE_COLOURS = {"sea": "#a9cbe6", "land": "#ffffff"}  # neutral regions without a flag
# kind -> (legend name, colour, width, dash)
EDGE_STYLES = {
    "land-land": ("Land border", BORDER_COLOUR, 1, "solid"),
    "land-sea": ("Coast", "#9cc3e0", 1, "dot"),
    "sea-sea": ("Sea lane", "#5b9bd1", 1.5, "dash"),
    "canal": ("Canal", "#6a3d9a", 3.5, "solid"),
    "wraparound": ("Round-earth link", "#2b6cb0", 2, "dash"),
}
UNIT_RING = 3.4  # degrees of longitude between a region and its units
LAT_STRETCH = 1.35  # screen size of a degree of latitude relative to one of longitude
FACTORY_DROP = 2.0  # degrees of latitude between a province and its factory marker
NODE_SIZE, UNIT_SIZE = 10, 17


@lru_cache(maxsize=1)
def board() -> dict:
    return json.loads((DATA_DIR / "board.json").read_text(encoding="utf-8"))


@dataclass
class Region:
    """What a position document says about one region."""

    info: dict  # the board.json entry
    flag: str | None = None
    factory: bool = False
    units: dict[tuple[str, str, str | None], int] = field(default_factory=dict)  # (nation, unit, stance) -> count

    @property
    def occupied(self) -> bool:
        """A hostile army stands here (§7.4.5): the province's factory does not work."""
        return any(stance == "hostile" for _, _, stance in self.units)


def region_contents(position: dict) -> dict[str, Region]:
    """Flags, factories and units per region id, in board order."""
    regions = {r["id"]: Region(r) for r in board()["regions"]}
    for code, n in position["nations"].items():
        for rid in n.get("flags", []):
            regions[rid].flag = code
        for rid in n.get("factories", []):
            regions[rid].factory = True
    for u in position.get("units", []):
        key = (u["nation"], u["unit"], u.get("stance"))
        units = regions[u["region"]].units
        units[key] = units.get(key, 0) + u.get("count", 1)  # a document may split a group over entries
    return regions


def hover_text(region: Region) -> str:
    """The region's full contents: name, kind, owner, flag, every unit with its stance, the factory."""
    r = region.info
    if r["kind"] == "home":
        built = "built" if region.factory else "not built"
        occupied = ", occupied: no production, no taxes" if region.factory and region.occupied else ""
        lines = [f"<b>{r['name']}</b> · home province of {nation(r['nation'])}",
                 f"factory: {r['factory_slot']}, {built}{occupied}"]
    else:
        lines = [f"<b>{r['name']}</b> · {'sea' if r['kind'] == 'sea' else 'neutral land'}",
                 f"flag: {NATION_NAMES[region.flag] if region.flag else 'none'}"]
    units = [f"  {NATION_NAMES[code]}: {_count(count, unit, stance)}"
             for (code, unit, stance), count in _sorted(region.units)]
    return "<br>".join(lines + (["units:"] + units if units else ["units: none"]))


def map_figure(position: dict, height: int = 640) -> go.Figure:
    """The board at this position: borders, regions, factories, units per nation and a legend."""
    regions = region_contents(position)
    fig = go.Figure([*border_traces(position), *region_traces(regions), factory_trace(regions),
                     *unit_traces(regions), *legend_traces(), label_trace()])
    fig.update_layout(
        height=height, margin=dict(l=0, r=0, t=0, b=0), plot_bgcolor=SEA_COLOUR, paper_bgcolor="rgba(0,0,0,0)",
        # "normal" order: grouped (the default with legend groups) stacks the unit shapes in a column.
        legend=dict(orientation="h", x=0, y=0, yanchor="top", font=dict(size=11), itemsizing="constant",
                    traceorder="normal"),
        hoverlabel=dict(align="left"), dragmode="pan",
        xaxis=dict(range=[-180, 180], visible=False, fixedrange=False),
        # Latitude is stretched (units are placed with the same factor) to fill a laptop-wide plot.
        yaxis=dict(range=[-50, 72], visible=False, scaleanchor="x", scaleratio=LAT_STRETCH),
    )
    return fig


# ----- borders -----

def border_traces(position: dict) -> list[go.Scatter]:
    """One line trace per border kind; canals and round-earth links carry a hover text."""
    where = {r["id"]: (r["lon"], r["lat"]) for r in board()["regions"]}
    segments: dict[str, list] = {kind: [] for kind in EDGE_STYLES}
    for e in board()["edges"]:
        a, b = where[e["a"]], where[e["b"]]
        kind = "canal" if e["canal"] else "wraparound" if e["wraparound"] else e["kind"]
        segments[kind] += _wrap_halves(a, b) if kind == "wraparound" else [(a, b)]
    traces = []
    for kind, (name, colour, width, dash) in EDGE_STYLES.items():
        lons, lats = _polyline(segments[kind])
        texts = {"canal": _canal_texts(position), "wraparound": _wrap_texts()}.get(kind)
        traces.append(go.Scatter(
            x=lons, y=lats, mode="lines", name=name, line=dict(color=colour, width=width, dash=dash),
            hoverinfo="text" if texts else "skip", text=_per_point(texts, 3) if texts else None))
    return traces


def _wrap_halves(a: tuple, b: tuple) -> list[tuple]:
    """A round-earth link as two segments from its seas to the map edges, meeting at one latitude."""
    west, east = sorted((a, b))  # the sea in the western hemisphere leaves by the left edge
    to_left, to_right = west[0] + 180, 180 - east[0]
    edge_lat = east[1] + (west[1] - east[1]) * to_right / (to_left + to_right)
    return [(west, (-180, edge_lat)), (east, (180, edge_lat))]


def _polyline(segments: list[tuple]) -> tuple[list, list]:
    """Separate segments as one trace: None breaks the line between them."""
    lons, lats = [], []
    for (lon1, lat1), (lon2, lat2) in segments:
        lons += [lon1, lon2, None]
        lats += [lat1, lat2, None]
    return lons, lats


def _per_point(texts: list[str], points: int) -> list[str]:
    """A text per segment repeated for each of its points (its two ends and the None break)."""
    return [t for t in texts for _ in range(points)]


def _canal_texts(position: dict) -> list[str]:
    """Who controls each canal at this position (§7.4.3): the nation whose flag stands in its region."""
    names = {r["id"]: r["name"] for r in board()["regions"]}
    flags = {rid: code for code, n in position["nations"].items() for rid in n.get("flags", [])}
    texts = []
    for e in board()["edges"]:
        if e["canal"]:
            owner = flags.get(e["canal_controlled_by_flag_in"])
            where = names[e["canal_controlled_by_flag_in"]]
            control = (f"controlled by {nation(owner)} (flag in {where})" if owner
                       else f"free passage (no flag in {where})")
            texts.append(f"{e['canal'].title()} canal: {names[e['a']]} ↔ {names[e['b']]}<br>{control}")
    return texts


def _wrap_texts() -> list[str]:
    names = {r["id"]: r["name"] for r in board()["regions"]}
    return [f"round earth: {names[e['a']]} ↔ {names[e['b']]}" for e in board()["edges"] if e["wraparound"]
            for _ in range(2)]


# ----- regions and factories -----

def region_traces(regions: dict[str, Region]) -> list[go.Scatter]:
    """One trace per region kind, so the legend explains the shapes."""
    traces = []
    for kind, name in REGION_KINDS.items():
        chosen = [r for r in regions.values() if r.info["kind"] == kind]
        traces.append(go.Scatter(
            x=[r.info["lon"] for r in chosen], y=[r.info["lat"] for r in chosen], mode="markers",
            name=name, legendgroup=kind, showlegend=False, customdata=[r.info["id"] for r in chosen],
            marker=dict(symbol=REGION_SYMBOLS[kind], size=NODE_SIZE + 3 * (kind == "home"),
                        color=[_region_colour(r) for r in chosen], line=dict(color="#444444", width=1)),
            hovertext=[hover_text(r) for r in chosen], hoverinfo="text"))
    return traces


def _region_colour(region: Region) -> str:
    if region.info["kind"] == "home":
        return NATION_COLOURS[region.info["nation"]]
    return NATION_COLOURS[region.flag] if region.flag else FREE_COLOURS[region.info["kind"]]


def factory_trace(regions: dict[str, Region]) -> go.Scatter:
    """Built factories just below their province; an occupied one is crossed out (it does not work)."""
    built = [r for r in regions.values() if r.factory]
    return go.Scatter(
        x=[r.info["lon"] for r in built], y=[r.info["lat"] - FACTORY_DROP for r in built], mode="markers",
        name="Factory (crossed: occupied)", customdata=[r.info["id"] for r in built],
        marker=dict(symbol=["square-x" if r.occupied else "square" for r in built], size=9,
                    color=[FACTORY_COLOURS[r.info["factory_slot"]] for r in built],
                    line=dict(color=["#c00000" if r.occupied else "#222222" for r in built], width=1.5)),
        hovertext=[hover_text(r) for r in built], hoverinfo="text")


def label_trace() -> go.Scatter:
    """Region names under their markers; a click on the legend entry hides them."""
    regions = board()["regions"]
    return go.Scatter(x=[r["lon"] for r in regions], y=[r["lat"] for r in regions], mode="text",
                      name="Region names", text=[r["name"] for r in regions], textposition="bottom center",
                      textfont=dict(size=9, color="#333333"), hoverinfo="skip")


# ----- units -----

def unit_traces(regions: dict[str, Region]) -> list[go.Scatter]:
    """One trace per nation (in turn order), a marker per (region, unit, stance) with its count.

    ``customdata`` rows are ``[region id, unit, stance, count]``. The groups of a region are placed
    on a small ring around it so that several nations there stay readable.
    """
    points: dict[str, list] = {code: [] for code in NATIONS}
    for rid, region in regions.items():
        groups = _sorted(region.units)
        for k, ((code, unit, stance), count) in enumerate(groups):
            lon, lat = _ring(region.info, k, len(groups))
            points[code].append((lon, lat, rid, unit, stance, count, hover_text(region)))
    return [_nation_units(code, rows) for code, rows in points.items()]


def _nation_units(code: str, rows: list) -> go.Scatter:
    lon, lat, rid, unit, stance, count, hover = zip(*rows) if rows else ((),) * 7
    # Yellow China needs dark digits; an open (friendly) marker shows them on the map itself.
    light = code == "CN"
    return go.Scatter(
        x=lon, y=lat, mode="markers+text", name=NATION_NAMES[code], legendgroup=code, showlegend=False,
        text=[str(c) for c in count], customdata=[list(row) for row in zip(rid, unit, stance, count)],
        textfont=dict(size=10, color=["#222222" if light or s == "friendly" else "#ffffff" for s in stance]),
        marker=dict(symbol=[UNIT_SYMBOLS[u, s] for u, s in zip(unit, stance)], size=UNIT_SIZE,
                    color=NATION_COLOURS[code], line=dict(color="#222222", width=[2.5 if s == "friendly" else 0.8
                                                                                   for s in stance])),
        hovertext=hover, hoverinfo="text")


def legend_traces() -> list[go.Scatter]:
    """Legend entries without points, so that each shows a fixed shape and colour (the traces' own
    entries would show their first point's): the region kinds, the nations, the unit shapes.
    A click on a region kind or a nation hides its markers (same legend group)."""
    entries = [(name, kind, REGION_SYMBOLS[kind], FREE_COLOURS.get(kind, "#bbbbbb"))  # home: any nation
               for kind, name in REGION_KINDS.items()]
    entries += [(NATION_NAMES[code], code, "circle", NATION_COLOURS[code]) for code in NATIONS]
    entries += [(label, "units", UNIT_SYMBOLS[key], "#777777") for key, label in UNIT_KEY.items()]
    return [go.Scatter(x=[None], y=[None], mode="markers", name=name, legendgroup=group, hoverinfo="skip",
                       marker=dict(symbol=symbol, size=12, color=colour, line=dict(color="#222222", width=1)))
            for name, group, symbol, colour in entries]


def _ring(info: dict, k: int, n: int) -> tuple[float, float]:
    """The k-th of n places on a ring around a region, starting up and to the right (round on
    screen: latitude is stretched by LAT_STRETCH)."""
    angle = math.pi / 4 + 2 * math.pi * k / n
    return info["lon"] + UNIT_RING * math.cos(angle), info["lat"] + UNIT_RING * math.sin(angle) / LAT_STRETCH


def _sorted(units: dict) -> list[tuple]:
    """Unit groups in turn order, fleets after armies, so the ring and the hover text are stable."""
    order = {code: i for i, code in enumerate(NATIONS)}
    return sorted(units.items(), key=lambda item: (order[item[0][0]], item[0][1], item[0][2] or ""))


def _count(count: int, unit: str, stance: str | None) -> str:
    noun = unit if count == 1 else PLURALS[unit]
    return f"{count} {stance} {noun}" if stance else f"{count} {noun}"
