"""The board at a position, drawn as SVG: ``board_svg(position, changes, view)`` is a pure function
returning one ``<svg>`` element, so the explorer, the Play page, the lessons and the tests draw the
same board (``show_board`` puts it on a page).

The region shapes are data (data/imperial2030/board_shapes.json, derived from Natural Earth by
scripts/derive_board_shapes.py): land regions filled (home provinces tinted in their nation's
colour, neutral land in the colour of the flag that stands there), seas as water, the polar band
white, unnamed land grey, Switzerland impassable. On top: the canals where they are, the round-earth
links at the map's edges, flags, factories, the units as pieces, and what changed at the step
(``imperial_lab.dashboard.games.imperial2030.changes``): arrows for moves (convoys along their seas), new pieces ringed, removed
ones as ghosts, battles as bursts. Hovering a region or its pieces shows the region's full contents.

Why SVG in the page rather than a Plotly figure: the board is ~60 filled shapes redrawn at every step,
which the browser paints in a few milliseconds, and the step is what a reader does most. Sizes of
pieces and texts are given in screen pixels (``NOMINAL_PX`` across the view) so that every view —
the world, or Europe zoomed — shows them at the same size.
"""

from __future__ import annotations

import html
import json
import math
from dataclasses import dataclass, field
from functools import lru_cache, cache

import streamlit as st

from imperial_lab.core.games.imperial2030.data import DATA_DIR, NATIONS
from imperial_lab.dashboard.games.imperial2030.board_shapes import project, shapes
from imperial_lab.dashboard.games.imperial2030.colours import BORDER_COLOUR, LAND_COLOUR, NATION_COLOURS, NATION_NAMES, SEA_COLOUR
from imperial_lab.core.games.imperial2030.words import nation, region as region_name, unit_noun
from imperial_lab.core.games.imperial2030.rules_text import link_sections

NOMINAL_PX = 1000  # the width the sizes below are meant for; the SVG scales to its column
ZOOMED_PX = 760  # a zoomed view draws pieces and names larger: it has the room
# The views a reader can pick: longitude/latitude boxes (west, south, east, north), the world's cut to
# the map's edges.
VIEWS = {"World": (-180, -57, 180, 78), "Europe": (-14, 24, 62, 71), "Asia": (42, -14, 152, 66),
         "Americas": (-130, -57, -28, 66)}
WATER_COLOUR = "#d9e0e6"  # water that is no region (the Baltic, the Black Sea...): greyer than the seas
OTHER_LAND_COLOUR, POLAR_COLOUR, SWISS_COLOUR = "#e4e1d8", "#fbfbfb", "#c8c8c8"
FACTORY_COLOURS = {"armaments": "#7b5a36", "shipyard": "#4aa3d8"}  # the board's brown and light-blue cities
CANAL_COLOUR, NEW_COLOUR, GONE_COLOUR, BATTLE_COLOUR = "#6a3d9a", "#ffcc00", "#555555", "#d7301f"
TARGET_COLOUR, PICKED_COLOUR = "#1a9850", "#111111"  # where a click may go; the unit picked
HOME_TINT, FLAG_TINT = 0.55, 0.22  # how much of the nation's colour a home province, a flagged land takes
PIECE = 6.0  # a piece's radius in pixels
LABEL_PX = 9.5


@lru_cache(maxsize=1)
def board() -> dict:
    return json.loads((DATA_DIR / "board.json").read_text(encoding="utf-8"))


# ----- what a position says about each region -----

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
    """The region's full contents, one fact per line: name, kind, owner, flag, units, factory."""
    r = region.info
    if r["kind"] == "home":
        built = "built" if region.factory else "not built"
        occupied = ", occupied: no production, no taxes" if region.factory and region.occupied else ""
        lines = [f"{r['name']} · home province of {nation(r['nation'])}", f"factory: {r['factory_slot']}, {built}{occupied}"]
    else:
        lines = [f"{r['name']} · {'sea' if r['kind'] == 'sea' else 'neutral land'}",
                 f"flag: {NATION_NAMES[region.flag] if region.flag else 'none'}"]
    units = [f"  {NATION_NAMES[code]}: {unit_count(count, unit, stance)}"
             for (code, unit, stance), count in sorted_groups(region.units)]
    return "\n".join(lines + (["units:"] + units if units else ["units: none"]))


def sorted_groups(units: dict) -> list[tuple]:
    """Unit groups in turn order, armies before fleets, so pieces and texts keep their places."""
    order = {code: i for i, code in enumerate(NATIONS)}
    return sorted(units.items(), key=lambda item: (order[item[0][0]], item[0][1], item[0][2] or ""))


def unit_count(count: int, unit: str, stance: str | None) -> str:
    """``1 army``, ``3 hostile armies``: a count even for one (the hover lists counts)."""
    return f"{count} {unit_noun(unit, stance, count)}"


@dataclass(frozen=True)
class Marks:
    """What the Play page and the lessons add to the board: ``targets``, the regions to ring (where a
    click may go), and ``picked``, the region of the unit picked (ringed dashed). A board with marks is
    clickable: every region carries ``data-click="region:ID"`` and every piece
    ``data-click="unit:REGION:NATION:UNIT:STANCE"`` (imperial_lab.dashboard.clickable sends it)."""

    targets: frozenset = frozenset()
    picked: str | None = None


# ----- the frame: views, coordinates -----

@dataclass(frozen=True)
class Frame:
    """A view's box in map units (y up) and the map units of one screen pixel."""

    x0: float
    y0: float
    x1: float
    y1: float
    pixels: int = NOMINAL_PX  # the screen width the view's sizes are meant for

    @property
    def px(self) -> float:
        return (self.x1 - self.x0) / self.pixels

    def viewbox(self) -> str:
        return f"{self.x0:.2f} {-self.y1:.2f} {self.x1 - self.x0:.2f} {self.y1 - self.y0:.2f}"


def view_for(region_ids) -> str:
    """The smallest view that shows every region of ``region_ids`` (by its label's longitude and
    latitude), World when no zoomed view does (a move across the Pacific's edge)."""
    points = [_lon_lat(rid) for rid in region_ids]
    zoomed = sorted((name for name in VIEWS if name != "World"),
                    key=lambda name: (VIEWS[name][2] - VIEWS[name][0]) * (VIEWS[name][3] - VIEWS[name][1]))
    for name in zoomed:
        west, south, east, north = VIEWS[name]
        if points and all(west <= lon <= east and south <= lat <= north for lon, lat in points):
            return name
    return "World"


def _lon_lat(rid: str) -> tuple[float, float]:
    entry = next(r for r in board()["regions"] if r["id"] == rid)
    return entry["lon"], entry["lat"]


@cache
def frame_of(view: str) -> Frame:
    x0, y0, x1, y1 = shapes()["view"]
    west, south, east, north = VIEWS[view]
    (a, b), (c, d) = project(west, south), project(east, north)
    if view == "World":  # longitudes span the whole map, whatever its cut
        return Frame(x0, max(b, y0), x1, min(d, y1))
    return Frame(max(a, x0), max(b, y0), min(c, x1), min(d, y1), ZOOMED_PX)


def _xy(point) -> str:
    """A point of the map (y up) as SVG coordinates (y down)."""
    return f"{point[0]:.2f},{-point[1]:.2f}"


def _path(polygons: list) -> str:
    """SVG path data of a list of polygons (rings: exterior, then holes; drawn with even-odd).

    Every point is rounded to a tenth of a map unit (a third of a pixel across the world, a pixel in
    a zoomed view) and written as a step from the one before: half the bytes of absolute points,
    and a border two shapes share is still drawn on the same points."""
    out = []
    for polygon in polygons:
        for ring in polygon:
            tenths = [(round(x * 10), round(-y * 10)) for x, y in ring]
            (x0, y0), steps = tenths[0], zip(tenths, tenths[1:])
            moves = "".join(_step(b[0] - a[0], b[1] - a[1]) for a, b in steps if a != b)
            out.append(f"M{_tenths(x0)},{_tenths(y0)}l{moves.lstrip(',')}z")
    return "".join(out)


def _step(dx: int, dy: int) -> str:
    """A relative step, a comma before a positive first number (a minus sign separates by itself)."""
    return ("," if dx >= 0 else "") + _tenths(dx) + ("," if dy >= 0 else "") + _tenths(dy)


def _tenths(k: int) -> str:
    """k/10 as briefly as SVG reads it: 12 -> 1.2, -5 -> -.5, 30 -> 3."""
    whole, tenth = divmod(abs(k), 10)
    sign = "-" if k < 0 else ""
    return f"{sign}{whole}" if tenth == 0 else f"{sign}{whole or ''}.{tenth}"


@cache
def region_path(rid: str) -> str:
    """A region's path data, worked out once: every board of the explorer draws every region."""
    return _path(shapes()["regions"][rid]["polygons"])


def label_point(rid: str) -> tuple[float, float]:
    return tuple(shapes()["regions"][rid]["label"])


# ----- drawing -----

def board_svg(position: dict, changes=None, view: str = "World", marks: Marks | None = None) -> str:
    """The board at ``position`` in ``view`` (a key of VIEWS); ``changes`` (a imperial_lab.dashboard.games.imperial2030.changes
    Changes, or None) adds what the step changed; ``marks`` makes it clickable and rings its targets."""
    frame = frame_of(view)
    regions = region_contents(position)
    clickable = marks is not None
    layers = [_background(frame), _regions(regions, clickable), _static_layers(), _edge_marks(frame, position),
              _labels(frame)]
    if marks is not None:
        layers.append(_marks(marks))
    layers += [_markers(frame, regions, changes), _pieces(frame, regions, changes, clickable)]
    if changes is not None:
        layers.append(_arrows(frame, changes))
    return (f'<svg class="imperial-board" viewBox="{frame.viewbox()}" width="100%" '
            f'preserveAspectRatio="xMidYMid meet" xmlns="http://www.w3.org/2000/svg" role="img" '
            f'aria-label="the board ({view.lower()})">{_defs(frame)}{"".join(layers)}</svg>')


def show_board(position: dict, changes=None, view: str = "World") -> None:
    """The board on the page (markdown keeps SVG; st.html's sanitiser drops it), its key below."""
    st.markdown(f'<div class="board-view">{BOARD_CSS}{board_svg(position, changes, view)}</div>',
                unsafe_allow_html=True)
    st.caption(link_sections(LEGEND))


LEGEND = ("Pieces: ● army (a dark rim: hostile, standing; hollow: friendly, lying down, §7.4.5) · hull: fleet · "
          "the number: how many. ■ factory (brown: armaments, blue: shipyard; crossed: occupied) · flag: who holds "
          "the region. Yellow ring: new at this step · dashed ✕: removed · red burst: battle · purple dot: canal · "
          "blue ◀ ▶: the Pacific continues across the edge. Hover a region for everything in it.")


def board_panel(position: dict, key: str, changes=None) -> None:
    """The view picker, then the board (pages whose controls have no room for the picker)."""
    view = st.segmented_control("Map", list(VIEWS), default="World", key=key, label_visibility="collapsed")
    show_board(position, changes, view or "World")


BOARD_CSS = ("<style>.imperial-board path,.imperial-board line,.imperial-board polyline,.imperial-board circle,"
             ".imperial-board rect,.imperial-board polygon{vector-effect:non-scaling-stroke}"
             ".imperial-board .region:hover{stroke:#222;stroke-width:2}"
             ".imperial-board text{paint-order:stroke;stroke:#ffffffcc;stroke-linejoin:round;"
             "font-family:sans-serif;pointer-events:none}</style>")


def _defs(frame: Frame) -> str:
    """The arrow heads, one per nation colour (SVG 1.1 markers cannot take their line's colour)."""
    heads = "".join(
        f'<marker id="head-{code}" viewBox="0 0 10 10" refX="7" refY="5" markerWidth="4" markerHeight="4" '
        f'orient="auto-start-reverse"><path d="M0,0L10,5L0,10Z" fill="{NATION_COLOURS[code]}" stroke="#222" '
        f'stroke-width="0.6"/></marker>' for code in NATIONS)
    return f"<defs>{heads}</defs>"


def _background(frame: Frame) -> str:
    x0, y0, x1, y1 = shapes()["view"]
    return f'<rect x="{x0}" y="{-y1}" width="{x1 - x0}" height="{y1 - y0}" fill="{WATER_COLOUR}"/>'


def _regions(regions: dict[str, Region], clickable: bool = False) -> str:
    """Seas first, then land, each with its full contents as a tooltip."""
    order = sorted(regions.values(), key=lambda r: r.info["kind"] != "sea")
    return "".join(
        f'<path class="region" data-region="{r.info["id"]}"{_click("region:" + r.info["id"], clickable)} '
        f'd="{region_path(r.info["id"])}" fill="{_fill(r)}" fill-rule="evenodd" '
        f'stroke="{"#7fa6c9" if r.info["kind"] == "sea" else "#4d4d4d"}" stroke-width="0.9">'
        f'<title>{html.escape(hover_text(r))}</title></path>' for r in order)


def _click(value: str, clickable: bool) -> str:
    return f' data-click="{value}"' if clickable else ""


def _marks(marks: Marks) -> str:
    """The targets ringed in green, the picked unit's region in a dashed dark line."""
    out = [f'<path class="target" data-region="{rid}" d="{region_path(rid)}" fill="{TARGET_COLOUR}" '
           f'fill-opacity="0.18" fill-rule="evenodd" stroke="{TARGET_COLOUR}" stroke-width="3" pointer-events="none"/>'
           for rid in sorted(marks.targets)]
    if marks.picked:
        out.append(f'<path class="picked" data-region="{marks.picked}" d="{region_path(marks.picked)}" fill="none" '
                   f'stroke="{PICKED_COLOUR}" stroke-width="3" stroke-dasharray="6,3" pointer-events="none"/>')
    return "".join(out)


def _fill(region: Region) -> str:
    kind = region.info["kind"]
    if kind == "home":
        return blend(NATION_COLOURS[region.info["nation"]], LAND_COLOUR, HOME_TINT)
    if kind == "sea":  # a sea stays water: its flag marker tells who holds it
        return SEA_COLOUR
    return blend(NATION_COLOURS[region.flag], LAND_COLOUR, FLAG_TINT) if region.flag else LAND_COLOUR


def blend(colour: str, base: str, share: float) -> str:
    """``share`` of ``colour`` over ``base`` (both #rrggbb), as #rrggbb."""
    a, b = (tuple(int(c[k:k + 2], 16) for k in (1, 3, 5)) for c in (colour, base))
    return "#" + "".join(f"{round(share * p + (1 - share) * q):02x}" for p, q in zip(a, b))


@lru_cache(maxsize=1)
def _static_layers() -> str:
    """What never changes: the polar band, unnamed land, Switzerland."""
    data = shapes()

    def layer(polygons, fill: str, title: str) -> str:
        return (f'<path d="{_path(polygons)}" fill="{fill}" fill-rule="evenodd" stroke="{BORDER_COLOUR}" '
                f'stroke-width="0.5"><title>{title}</title></path>')

    return (layer(data["polar"], POLAR_COLOUR, "Polar region: no unit may enter")
            + layer(data["other_land"], OTHER_LAND_COLOUR, "Unnamed land: no region")
            + "".join(layer(p, SWISS_COLOUR, "Switzerland: the seat of the banks; armies may never enter")
                      for p in data["impassable"].values()))


def _edge_marks(frame: Frame, position: dict) -> str:
    """The canals as markers on their coasts, with who controls them (§7.4.3); the round-earth links
    as short arrows at the map's edges."""
    flags = {rid: code for code, n in position["nations"].items() for rid in n.get("flags", [])}
    marks = []
    for canal in board()["canals"]:
        x, y = shapes()["canals"][canal["id"]]
        owner = flags.get(canal["controlled_by_flag_in"])
        where = region_name(canal["controlled_by_flag_in"])
        control = (f"controlled by {NATION_NAMES[owner]} (flag in {where})" if owner
                   else f"free passage (no flag in {where})")
        a, b = (region_name(s) for s in canal["seas"])
        r = 3.2 * frame.px
        marks.append(f'<g class="canal" data-canal="{canal["id"]}"><title>{canal["id"].title()} canal: {a} ↔ {b}\n{html.escape(control)}</title>'
                     f'<circle cx="{x:.2f}" cy="{-y:.2f}" r="{r:.2f}" fill="{CANAL_COLOUR}" stroke="#fff" '
                     f'stroke-width="1.2"/></g>')
    x0, _, x1, _ = shapes()["view"]
    for a, b in board()["wraparound"]["links"]:
        left, right = sorted((a, b), key=lambda rid: label_point(rid)[0])
        y = (label_point(left)[1] + label_point(right)[1]) / 2
        title = f"Round earth: {region_name(left)} ↔ {region_name(right)}"
        marks += [_edge_arrow(x0, y, -1, frame, title), _edge_arrow(x1, y, 1, frame, title)]
    return "".join(marks)


def _edge_arrow(x: float, y: float, side: int, frame: Frame, title: str) -> str:
    """A small arrow at the edge ``x`` pointing out of the map (side −1 left, +1 right)."""
    d, h = 9 * frame.px, 4 * frame.px
    tip, back = x, x - side * d
    return (f'<path class="wrap" d="M{back:.2f},{-y - h:.2f}L{tip:.2f},{-y:.2f}L{back:.2f},{-y + h:.2f}Z" '
            f'fill="#2b6cb0">'
            f'<title>{html.escape(title)}</title></path>')


def _labels(frame: Frame) -> str:
    size = LABEL_PX * frame.px
    texts = []
    for r in board()["regions"]:
        x, y = label_point(r["id"])
        style = "font-style:italic;fill:#2c5d8a" if r["kind"] == "sea" else "fill:#222"
        texts.append(f'<text x="{x:.2f}" y="{-y:.2f}" font-size="{size:.2f}" stroke-width="{size / 4:.2f}" '
                     f'text-anchor="middle" style="{style}">{html.escape(r["name"])}</text>')
    return "".join(texts)


def _markers(frame: Frame, regions: dict[str, Region], changes) -> str:
    """Flags and factories above the name; new ones ringed, a destroyed factory as a ghost."""
    new_flags = {rid for rid, _ in changes.flags_new} if changes else set()
    new_factories = {rid for rid, _ in changes.factories_new} if changes else set()
    gone = {rid for rid, _ in changes.factories_destroyed} if changes else set()
    out = []
    for rid, region in regions.items():
        x, y = label_point(rid)
        top = y + 14 * frame.px  # above the name
        if region.flag:
            out.append(_flag(x - 5 * frame.px, top, region.flag, frame, rid in new_flags))
        if region.factory or rid in gone:
            out.append(_factory(x + 5 * frame.px, top, region, frame, rid in new_factories, rid in gone))
    return "".join(out)


def _flag(x: float, y: float, code: str, frame: Frame, new: bool) -> str:
    p = frame.px
    ring = _ring(x + 3 * p, y + 2 * p, 7 * p) if new else ""
    mark = ' data-new="1"' if new else ""
    return (f'{ring}<path class="flag" data-nation="{code}"{mark} d="M{x:.2f},{-y + 4 * p:.2f}V{-y - 8 * p:.2f}h{7 * p:.2f}v{4.5 * p:.2f}h{-7 * p:.2f}" '
            f'fill="{NATION_COLOURS[code]}" stroke="#222" stroke-width="0.8"><title>{NATION_NAMES[code]}\'s flag'
            f'{" (new)" if new else ""}</title></path>')


def _factory(x: float, y: float, region: Region, frame: Frame, new: bool, gone: bool) -> str:
    p, kind = frame.px, region.info.get("factory_slot", "armaments")
    s = 7 * p
    ring = _ring(x, y, 7 * p) if new else ""
    fill = "none" if gone else FACTORY_COLOURS[kind]
    stroke = "#c00000" if region.occupied and not gone else (GONE_COLOUR if gone else "#222")
    what = "destroyed factory" if gone else f"{kind} factory{' (occupied: does not work)' if region.occupied else ''}"
    cross = (f'<path d="M{x - s / 2:.2f},{-y - s / 2:.2f}l{s:.2f},{s:.2f}m0,{-s:.2f}l{-s:.2f},{s:.2f}" '
             f'stroke="{stroke}" stroke-width="1.5"/>' if gone or region.occupied else "")
    state = "destroyed" if gone else "occupied" if region.occupied else "built"
    mark = ' data-new="1"' if new else ""
    return (f'<g class="factory" data-region="{region.info["id"]}" data-state="{state}"{mark}>'
            f'{ring}<rect x="{x - s / 2:.2f}" y="{-y - s / 2:.2f}" width="{s:.2f}" height="{s:.2f}" fill="{fill}" '
            f'stroke="{stroke}" stroke-width="1.2" stroke-dasharray="{"2,1" if gone else "none"}"/>{cross}'
            f'<title>{what}</title></g>')


def _ring(x: float, y: float, r: float) -> str:
    """The highlight of something new at this step: yellow on a dark rim, so that it shows on every
    nation's colour (China's is yellow too) and on the sea."""
    return (f'<circle class="new-ring" cx="{x:.2f}" cy="{-y:.2f}" r="{r:.2f}" fill="none" stroke="#111" '
            f'stroke-width="5"/><circle cx="{x:.2f}" cy="{-y:.2f}" r="{r:.2f}" fill="none" stroke="{NEW_COLOUR}" '
            f'stroke-width="2.5"/>')


# ----- pieces -----

def _pieces(frame: Frame, regions: dict[str, Region], changes, clickable: bool = False) -> str:
    """Each region's unit groups as pieces in rows under its name, with their counts; new pieces
    ringed, removed ones drawn as ghosts after them, a battle as a burst beside the name."""
    built = _by_region(changes.built if changes else ())
    removed = _by_region(changes.removed if changes else ())
    battles = {b.region for b in changes.battles} if changes else set()
    out = []
    for rid, region in regions.items():
        groups = [(key, count, key[:2] in built.get(rid, {})) for key, count in sorted_groups(region.units)]
        ghosts = [((code, unit, None), count) for (code, unit), count in removed.get(rid, {}).items()]
        if not groups and not ghosts and rid not in battles:
            continue
        x, y = label_point(rid)
        spots = _spots(x, y - 12 * frame.px, len(groups) + len(ghosts), frame)
        drawn = [_piece(spot, key, count, frame, new, f"unit:{rid}:{':'.join(k or '' for k in key)}" if clickable else None)
                 for spot, (key, count, new) in zip(spots, groups)]
        drawn += [_ghost(spot, key, count, frame) for spot, (key, count) in zip(spots[len(groups):], ghosts)]
        if rid in battles:
            drawn.append(_burst(x + 0.5 * _text_width(region.info["name"], frame) + 7 * frame.px, y, frame))
        out.append(f'<g class="pieces" data-region="{rid}"><title>{html.escape(hover_text(region))}</title>'
                   f'{"".join(drawn)}</g>')
    return "".join(out)


def _by_region(rows) -> dict[str, dict[tuple[str, str], int]]:
    """Built or Removed rows as region -> (nation, unit) -> count."""
    out: dict[str, dict] = {}
    for row in rows:
        per = out.setdefault(row.region, {})
        per[row.nation, row.unit] = per.get((row.nation, row.unit), 0) + row.count
    return out


def _spots(x: float, y: float, n: int, frame: Frame) -> list[tuple[float, float]]:
    """n places in rows of up to four, centred under (x, y)."""
    step, per_row = 2.3 * PIECE * frame.px, 4
    spots = []
    for k in range(n):
        row, col = divmod(k, per_row)
        in_row = min(per_row, n - row * per_row)
        spots.append((x + (col - (in_row - 1) / 2) * step, y - row * step))
    return spots


def _piece(spot, key, count: int, frame: Frame, new: bool, click: str | None = None) -> str:
    """An army is a disc (a hostile one with a dark rim, a friendly one hollow: lying down); a fleet
    a hull. The count is written on the piece. ``click``: the piece's ``data-click``."""
    (x, y), (code, unit, stance) = spot, key
    r, colour = PIECE * frame.px, NATION_COLOURS[code]
    ring = _ring(x, y, r * 1.55) if new else ""
    data = f'class="piece" data-nation="{code}" data-unit="{unit}" data-stance="{stance or ""}" data-count="{count}"'
    data += ' data-new="1"' if new else ""
    if unit == "fleet":
        shape = (f'<path {data} d="M{x - r * 1.25:.2f},{-y - r * 0.35:.2f}h{2.5 * r:.2f}l{-0.45 * r:.2f},{r:.2f}'
                 f'h{-1.6 * r:.2f}Z" fill="{colour}" stroke="#222" stroke-width="1"/>'
                 f'<path d="M{x:.2f},{-y - r * 0.35:.2f}v{-r * 0.75:.2f}" stroke="#222" stroke-width="1.2"/>')
        ty = y - 0.25 * r
    else:
        fill, rim = (("#ffffff", colour) if stance == "friendly" else
                     (colour, "#111" if stance == "hostile" else "#222"))
        width = 2.6 if stance in ("hostile", "friendly") else 1
        shape = (f'<circle {data} cx="{x:.2f}" cy="{-y:.2f}" r="{r:.2f}" fill="{fill}" stroke="{rim}" '
                 f'stroke-width="{width}"/>')
        ty = y - 0.36 * r
    light = code == "CN" or stance == "friendly"
    text = (f'<text x="{x:.2f}" y="{-ty:.2f}" font-size="{r * 1.35:.2f}" text-anchor="middle" '
            f'style="fill:{"#222" if light else "#fff"};stroke:none;font-weight:bold">{count}</text>')
    if click is not None:
        return f'{ring}<g class="pick" data-click="{click}">{shape}{text}</g>'
    return ring + shape + text


def _ghost(spot, key, count: int, frame: Frame) -> str:
    """A removed group: a dashed outline crossed out, with how many went."""
    (x, y), (code, unit, _) = spot, key
    r = PIECE * frame.px
    return (f'<circle class="ghost" data-nation="{code}" data-unit="{unit}" data-count="{count}" cx="{x:.2f}" '
            f'cy="{-y:.2f}" r="{r:.2f}" fill="#ffffffaa" stroke="{NATION_COLOURS[code]}" '
            f'stroke-width="1.5" stroke-dasharray="2,1.5"/>'
            f'<path d="M{x - r * 0.7:.2f},{-y - r * 0.7:.2f}l{1.4 * r:.2f},{1.4 * r:.2f}m0,{-1.4 * r:.2f}'
            f'l{-1.4 * r:.2f},{1.4 * r:.2f}" stroke="{GONE_COLOUR}" stroke-width="1.5"/>'
            f'<title>{NATION_NAMES[code]}: {unit_count(count, unit, None)} removed</title>')


def _burst(x: float, y: float, frame: Frame) -> str:
    """A battle: an eight-pointed burst."""
    r = 7 * frame.px
    points = " ".join(f"{x + (r if k % 2 == 0 else r * 0.45) * math.cos(k * math.pi / 8):.2f},"
                      f"{-y - (r if k % 2 == 0 else r * 0.45) * math.sin(k * math.pi / 8):.2f}" for k in range(16))
    return f'<polygon class="battle" points="{points}" fill="{BATTLE_COLOUR}" stroke="#fff" stroke-width="1"><title>battle</title></polygon>'


def _text_width(text: str, frame: Frame) -> float:
    return 0.55 * LABEL_PX * frame.px * len(text)


# ----- what moved -----

def _arrows(frame: Frame, changes) -> str:
    """One arrow per move, from its region through its convoy's seas to where it went, in the mover's
    colour with a white casing; a move over the map's edge leaves at one edge and comes in at the other."""
    out = []
    for code, unit, origin, dest, via, _, count in changes.moves:
        points = [label_point(rid) for rid in (origin, *via, dest)]
        title = f"{NATION_NAMES[code]}: {unit_count(count, unit, None)} {region_name(origin)} → {region_name(dest)}"
        if via:
            title += " via " + ", ".join(region_name(s) for s in via)
        for line in _wrapped(points):
            d = "M" + "L".join(_xy(p) for p in line)
            out.append(f'<path d="{d}" fill="none" stroke="#fff" stroke-width="5" stroke-linejoin="round"/>'
                       f'<path class="move" data-nation="{code}" d="{d}" fill="none" stroke="{NATION_COLOURS[code]}" stroke-width="2.5" '
                       f'stroke-linejoin="round" marker-end="url(#head-{code})"><title>{html.escape(title)}</title></path>')
        if count > 1:
            mx, my = _midpoint(points)
            out.append(f'<text x="{mx:.2f}" y="{-my:.2f}" font-size="{11 * frame.px:.2f}" text-anchor="middle" '
                       f'stroke-width="{3 * frame.px:.2f}" style="fill:#111;font-weight:bold">×{count}</text>')
    return "".join(out)


def _wrapped(points: list[tuple[float, float]]) -> list[list[tuple[float, float]]]:
    """The polyline cut where a step jumps more than half the map across (a round-earth link): the
    part before leaves by the nearer edge, the part after comes in from the other."""
    x0, _, x1, _ = shapes()["view"]
    width = x1 - x0
    lines, line = [], [points[0]]
    for a, b in zip(points, points[1:]):
        if abs(b[0] - a[0]) > width / 2:
            shifted = (b[0] - width, b[1]) if b[0] > a[0] else (b[0] + width, b[1])
            edge = x0 if shifted[0] < x0 else x1
            t = (edge - a[0]) / (shifted[0] - a[0])
            y = a[1] + t * (b[1] - a[1])
            lines.append(line + [(edge, y)])
            line = [(x1 if edge == x0 else x0, y)]
        line.append(b)
    lines.append(line)
    return lines


def _midpoint(points: list[tuple[float, float]]) -> tuple[float, float]:
    a, b = points[len(points) // 2 - 1] if len(points) > 1 else points[0], points[len(points) // 2]
    return (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
