"""Derive the board map's region shapes from Natural Earth: writes data/imperial2030/board_shapes.json.

    .venv/bin/python scripts/derive_board_shapes.py                # npm pack world-atlas@2.0.2 into a temp dir
    .venv/bin/python scripts/derive_board_shapes.py --atlas PATH   # a downloaded .tgz or its unpacked folder
    .venv/bin/python scripts/derive_board_shapes.py --check        # check only, write nothing

The output is committed: the dashboard reads it through dashboard/games/imperial2030/board_shapes.py and never runs
this script (nor needs shapely). Run it again only to change the derivation; the same atlas gives a
byte-identical file.

Method. Natural Earth's 1:50m countries (TopoJSON, decoded here) are cut at the Bering Strait,
projected (Miller, imperial_lab.dashboard.games.imperial2030.board_shapes.project) and simplified together as one coverage, so
shared borders stay shared. Land: each country goes wholesale to one region, or is split among
several by the Voronoi cells of hand-placed seeds (COUNTRY_REGIONS, LAND_SEEDS); islands off the
two big landmasses go whole to the region, "other" land or polar seed nearest to them; a few hand
polygons move borders where the board differs from the globe (LAND_PATCHES). Water: everything
else in the view, split among the 11 seas, "none" (water that is no region: Baltic, Black Sea,
lakes...) and polar water by the Voronoi cells of SEA_SEEDS, plus seed pairs placed on the coast
exactly where two land regions meet so a sea border lands on their land border (SEA_JUNCTIONS).
Everything north of POLAR_LAT is polar. All borders are snap-rounded together to 2 decimals (one
exact coverage), then checked against board.json: adjacency with border lengths, own points,
canals, the wraparound edges. Every problem is printed; the file is written either way.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import tarfile
import tempfile
from collections import defaultdict
from pathlib import Path

import numpy as np
import shapely
from shapely import affinity
from shapely.geometry import LineString, MultiPoint, MultiPolygon, Point, Polygon, box
from shapely.ops import nearest_points, polylabel

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from imperial_lab.core.games.imperial2030.data import DATA_DIR  # noqa: E402
from imperial_lab.dashboard.games.imperial2030.board_shapes import CUT_LON, project  # noqa: E402

ATLAS = "world-atlas@2.0.2"
OUT = DATA_DIR / "board_shapes.json"

SOUTH_LAT, NORTH_LAT = -58.0, 80.0  # the view: Cape Horn in, Antarctica out
POLAR_LAT = 75.0  # everything north of this is polar (white on the board)
SIMPLIFY = 0.15  # coverage simplification tolerance, map units
MIN_ISLAND = 0.08  # islands smaller than this (square map units) become water
ROUND = 0.01  # output grid: 2 decimals
BORDER_TOL = 0.3  # a border shorter than this is no border (the tests use the same)
EPS = 0.01  # how close two boundaries must be to count as shared
LAND_CRUMB = 1.0  # detached land smaller than this (square map units) joins its neighbour
JUNCTION_RADIUS = 0.6  # distance of a junction's seed pair from the land junction

OTHER, POLAR, SWITZERLAND, NONE = "other", "polar", "switzerland", "none"

# ---------------------------------------------------------------------------------------------
# Hand-placed data. Countries are Natural Earth names; points are (lon, lat).

# Country -> the region it belongs to, or the regions it is split among by LAND_SEEDS.
# Countries not listed are "other" land; that is refused for land on the two big landmasses.
COUNTRY_REGIONS = {
    # North and Central America
    "United States of America": ("alaska", "san_francisco", "chicago", "new_york", "new_orleans"),
    "Canada": ("canada", "quebec"),
    **dict.fromkeys(["Mexico", "Guatemala", "Belize", "Honduras", "El Salvador", "Nicaragua",
                     "Costa Rica"], "mexico"),
    # South America: Panama belongs to colombia, the canal's owner
    **dict.fromkeys(["Panama", "Colombia", "Venezuela", "Ecuador"], "colombia"),
    **dict.fromkeys(["Peru", "Bolivia"], "peru"),
    **dict.fromkeys(["Argentina", "Chile", "Uruguay", "Paraguay"], "argentina"),
    **dict.fromkeys(["Guyana", "Suriname"], "manaus"),
    "Brazil": ("manaus", "fortaleza", "brasilia", "rio_de_janeiro"),
    "France": ("paris", "manaus"),  # French Guiana
    # Europe
    **dict.fromkeys(["Spain", "Portugal", "Andorra", "Monaco", "Belgium", "Luxembourg"], "paris"),
    **dict.fromkeys(["United Kingdom", "Ireland", "Isle of Man"], "london"),
    **dict.fromkeys(["Germany", "Netherlands", "Denmark", "Norway", "Sweden", "Poland", "Czechia",
                     "Slovakia", "Austria", "Liechtenstein"], "berlin"),
    **dict.fromkeys(["Italy", "San Marino", "Vatican", "Malta", "Slovenia", "Croatia",
                     "Bosnia and Herz.", "Serbia", "Montenegro", "Kosovo", "Macedonia", "Albania",
                     "Greece", "Bulgaria", "Romania", "Hungary"], "rome"),
    **dict.fromkeys(["Ukraine", "Belarus", "Moldova"], "ukraine"),
    **dict.fromkeys(["Finland", "Estonia", "Latvia", "Lithuania"], "murmansk"),
    "Switzerland": SWITZERLAND,
    # Russia and its neighbours; Kaliningrad goes to berlin
    "Russia": ("moscow", "murmansk", "novosibirsk", "vladivostok", "berlin"),
    **dict.fromkeys(["Georgia", "Armenia", "Azerbaijan"], "moscow"),
    **dict.fromkeys(["Kazakhstan", "Uzbekistan", "Kyrgyzstan"], "kazakhstan"),
    # Turkmenistan keeps iran off kazakhstan
    **dict.fromkeys(["Afghanistan", "Turkmenistan", "Tajikistan"], "afghanistan"),
    "Mongolia": "mongolia",
    # Middle East and Africa
    "Turkey": "turkey",
    "Iran": "iran",
    **dict.fromkeys(["Saudi Arabia", "Yemen", "Oman", "United Arab Emirates", "Qatar", "Bahrain",
                     "Kuwait", "Iraq", "Jordan", "Israel", "Palestine", "Lebanon", "Syria"],
                    "near_east"),
    **dict.fromkeys(["Morocco", "W. Sahara", "Mauritania", "Algeria", "Tunisia", "Libya", "Egypt"],
                    "north_africa"),
    **dict.fromkeys(["Senegal", "Gambia", "Guinea-Bissau", "Guinea", "Sierra Leone", "Liberia",
                     "Côte d'Ivoire", "Mali", "Burkina Faso", "Ghana"], "guinea"),
    **dict.fromkeys(["Nigeria", "Niger", "Benin", "Togo", "Chad", "Cameroon"], "nigeria"),
    **dict.fromkeys(["Dem. Rep. Congo", "Congo", "Gabon", "Eq. Guinea", "Angola",
                     "Central African Rep."], "congo"),
    **dict.fromkeys(["South Africa", "Namibia", "Botswana", "Zimbabwe", "Mozambique", "Lesotho",
                     "eSwatini", "Zambia", "Malawi"], "south_africa"),
    **dict.fromkeys(["Sudan", "S. Sudan", "Ethiopia", "Eritrea", "Djibouti", "Somalia", "Somaliland",
                     "Kenya", "Uganda", "Tanzania", "Rwanda", "Burundi"], "east_africa"),
    # South and East Asia
    "India": ("new_delhi", "mumbai", "kolkata", "chennai"),
    "Siachen Glacier": "new_delhi",
    "Pakistan": ("afghanistan", "mumbai"),
    **dict.fromkeys(["Nepal", "Bhutan", "Bangladesh"], "kolkata"),
    "China": ("urumqi", "beijing", "shanghai", "chongqing", "vladivostok"),
    **dict.fromkeys(["Hong Kong", "Macao"], "shanghai"),
    **dict.fromkeys(["North Korea", "South Korea"], "korea"),
    "Japan": "japan",
    **dict.fromkeys(["Myanmar", "Thailand", "Laos", "Cambodia", "Vietnam", "Singapore"], "indochina"),
    "Malaysia": ("indochina", "indonesia"),  # the peninsula and Borneo
    **dict.fromkeys(["Indonesia", "Timor-Leste", "Papua New Guinea", "Brunei"], "indonesia"),
    "Philippines": "philippines",
    "Australia": "australia",
    "New Zealand": "new_zealand",
}

# Where the two landmasses are (every other land polygon is an island).
LANDMASS_POINTS = [(20.0, 10.0), (-100.0, 40.0)]

# Seeds splitting the countries listed with several regions, and placing islands.
LAND_SEEDS = {
    "alaska": [(-152, 64), (-160, 60), (-145, 62), (-135, 58)],
    "san_francisco": [(-121, 46), (-120, 38), (-113, 36), (-114, 44), (-110, 41)],
    "chicago": [(-100, 46), (-92, 42), (-87, 42), (-97, 39), (-104, 44)],
    "new_york": [(-75, 42), (-72, 43), (-78, 38), (-80, 40), (-69, 45)],
    "new_orleans": [(-90, 31), (-98, 31), (-84, 33), (-82, 28), (-104, 33), (-92, 35)],
    "canada": [(-115, 55), (-100, 55), (-125, 55), (-88, 50), (-66, 46), (-95, 64), (-120, 63), (-80, 45)],
    "quebec": [(-72, 49), (-70, 53), (-62, 53), (-75, 58)],
    "manaus": [(-62, -4), (-55, -3), (-66, -8), (-53, 2)],
    "fortaleza": [(-40, -6), (-43, -9), (-46, -4)],
    "brasilia": [(-49, -14), (-55, -13), (-53, -19)],
    "rio_de_janeiro": [(-45, -22), (-51, -27), (-48, -20)],
    "paris": [(2, 47), (-4, 40)],
    "berlin": [(10, 51), (19, 52), (21, 54.7)],
    "moscow": [(38, 55), (45, 52), (48, 57), (43, 45), (55, 54)],
    "murmansk": [(33, 67), (32, 62), (30, 59), (45, 64), (55, 65), (60, 71)],
    "novosibirsk": [(83, 55), (75, 62), (90, 65), (100, 60), (68, 58), (95, 72), (110, 68), (70, 68)],
    "vladivostok": [(135, 45), (135, 55), (128, 62), (150, 63), (165, 65), (178, 66), (160, 56),
                    (143, 50), (120, 56)],
    "new_delhi": [(77, 28.5), (75, 32), (79, 30)],
    "mumbai": [(72, 20), (74, 17), (71, 23), (76, 21), (68, 25.5), (65.5, 27)],
    "kolkata": [(87, 23), (84, 25), (92, 26), (94, 27.5)],
    "chennai": [(78, 12), (79, 16)],
    "afghanistan": [(72, 33.5), (73.5, 35.5), (66, 34)],
    "urumqi": [(85, 41), (82, 35), (95, 37), (88, 33)],
    "chongqing": [(104, 29), (102, 25), (96, 31), (107, 27)],
    "beijing": [(116, 40), (125, 45), (106, 37), (111, 42), (118, 36), (100, 40)],
    "shanghai": [(118, 29), (113, 23), (109, 23), (114, 28), (110, 19), (120, 32)],
    "indochina": [(102, 4), (101, 15)],
    "indonesia": [(114, 1), (117, 5)],
    # island seeds only: Japan is one country, but its islands compete with OTHER seeds
    "japan": [(138, 36), (143, 43.3), (131, 32.5), (133.5, 33.7)],
}

# Islands nearest to these seeds are "other" land (not regions) or polar.
ISLAND_SEEDS = {
    # Hawaii, the Aleutians at and west of the cut, Galapagos, Canaries, Azores, Madeira, Reunion,
    # Okinawa, the Bonin islands, the southern Kurils, the French Antilles, Greenland
    OTHER: [(-157, 20.5), (178, 52), (-176, 51.8), (-168.8, 53.2), (-91, -0.5), (-16, 28), (-27, 38.5), (-17, 32.7),
            (55.5, -21), (127.8, 26.3), (142.2, 27.1), (146, 44), (148, 45.3), (-61, 15), (-42, 70)],
    # the Canadian Arctic Archipelago, Svalbard, the New Siberian Islands
    POLAR: [(-70, 70), (-110, 71), (-122, 72.5), (-97, 73), (-97.5, 69), (-80, 73), (15, 78), (139, 75)],
}

# Land that changes hands ("assign": the listed countries' land inside the polygon) or is added
# ("bridge": new land) where the board differs from the globe.
LAND_PATCHES = [
    # Strait of Dover: london and paris share a land border on the board
    ("bridge", "london", None, [(0.9, 51.0), (1.5, 51.4), (2.1, 51.0), (1.5, 50.6)]),
    # the Tumen river mouth: korea borders vladivostok for real
    ("assign", "vladivostok", ["China"], [(129.6, 42.4), (130.8, 42.2), (131.4, 43.1), (130.3, 43.5),
                                          (129.6, 43.1)]),
    # the Altai knot: kazakhstan touches mongolia, novosibirsk does not touch urumqi
    ("assign", "kazakhstan", ["Russia"], [(86.0, 48.9), (88.9, 48.9), (88.9, 50.2), (86.0, 50.2)]),
]

# Seeds splitting the water. Seeds sit where a sea must reach (bays, coasts, the map edges:
# sea_of_japan, china_sea and tasman_sea meet the right edge where north_pacific and south_pacific
# meet the left one, for the wraparound links).
SEA_SEEDS = {
    "north_pacific": [(-150, 30), (-130, 40), (-145, 50), (-160, 55), (-166, 58), (-165, 62),
                      (-140, 20), (-160, 10), (-125, 25), (-110, 18), (-100, 12), (-90, 8), (-84, 5),
                      (-167, 8), (-167, 40)],
    "south_pacific": [(-120, -30), (-100, -20), (-85, -15), (-90, -45), (-140, -15), (-160, -40),
                      (-167, -8), (-167, -30), (-76, -50), (-70, -57), (-110, -55)],
    "north_atlantic": [(-30, 50), (-50, 45), (-65, 42), (-70, 39), (-45, 58), (-58, 60), (-62, 48),
                       (-20, 60), (-10, 55), (-5, 49), (3, 56), (5, 62), (10, 67), (20, 71),
                       (35, 71), (45, 70), (38, 66), (-20, 40), (-15, 30), (-20, 20), (-10, 37),
                       (-8, 44), (-6, 36), (-15, 65), (-30, 62), (-60, 36), (-40, 33), (-24, 14)],
    "caribbean_sea": [(-75, 15), (-65, 15), (-85, 20), (-90, 25), (-95, 25), (-84, 26), (-78, 29),
                      (-55, 12), (-45, 8), (-38, 2), (-33, -3), (-30, 5), (-70, 25), (-33, -9)],
    "south_atlantic": [(-30, -30), (-40, -40), (-15, -35), (0, -42), (-45, -50), (-25, -50),
                       (-34, -20)],
    "gulf_of_guinea": [(3, 2), (-5, 3), (-12, 3), (5, -8), (9, -18), (12, -28), (-15, -5)],
    "mediterranean_sea": [(5, 38), (18, 35), (28, 34), (33, 33), (12, 40), (15, 43), (25, 38.5),
                          (0, 37), (-4.5, 36.2)],
    "indian_ocean": [(60, -10), (75, -15), (88, 13), (65, 18), (60, 24), (51, 27), (38, 20),
                     (34.5, 27), (32.6, 29.5), (34.8, 28.8), (45, 12), (43, -20), (55, -35),
                     (30, -38), (90, -40), (95, 0), (100, -10), (97, 5), (40, -50)],
    "tasman_sea": [(160, -35), (150, -20), (130, -12), (125, -15), (112, -25), (115, -36),
                   (135, -38), (150, -45), (170, -45), (180, -30), (188, -40), (188, -28),
                   (137, -9), (110, -50)],
    "china_sea": [(115, 15), (112, 8), (105, 8), (108, 18), (123, 28), (123, 35), (120, 38.5),
                  (130, 3), (128, -4), (135, 5), (140, 12), (150, 10), (160, 5), (175, 5), (188, 5),
                  (188, -12), (170, -10), (150, 0), (145, -3), (155, -8)],
    "sea_of_japan": [(135, 40), (140, 45), (148, 50), (150, 57), (145, 35), (133, 33), (160, 35),
                     (170, 45), (180, 55), (170, 60), (188, 60), (188, 30), (189, 64), (163, 57),
                     (128.5, 32.5)],
    # no region: the Baltic (else the Baltic states would border north_atlantic), the Black Sea and
    # the Sea of Azov (ukraine and moscow border no sea), Hudson Bay
    NONE: [(20, 58), (19, 55.5), (21, 63), (25, 60), (14.5, 55), (34, 43), (30, 43.5), (31, 46),
           (36, 45.5), (39, 42.5), (29.5, 42), (-85, 59), (-80, 55), (-88, 63), (-78, 63)],
    # the Arctic Ocean: novosibirsk borders no sea
    POLAR: [(-140, 72), (-125, 71), (-105, 69), (-90, 70), (-75, 72), (-65, 71), (-20, 73),
            (65, 72), (75, 73), (85, 74), (110, 74), (130, 73), (150, 72), (170, 70), (185, 69),
            (-165, 70), (-150, 72)],
}

# (land a, land b, sea of a, sea of b, near (lon, lat)): the sea border meets the coast exactly
# where the two land regions meet, because neither land region borders the other one's sea.
SEA_JUNCTIONS = [
    ("new_york", "new_orleans", "north_atlantic", "caribbean_sea", (-79, 33)),
    ("colombia", "peru", "north_pacific", "south_pacific", (-80.3, -3.4)),
    ("fortaleza", "rio_de_janeiro", "caribbean_sea", "south_atlantic", (-39, -13)),
    ("murmansk", "novosibirsk", "north_atlantic", POLAR, (60, 69)),
]

CANALS = {"panama": (-79.7, 9.1), "suez": (32.4, 30.6)}

# Where a name is written, for readability: the seas (polylabel would put most of them far out in
# the ocean), and the home provinces where their names and pieces would crowd (polylabel would put
# Paris in Spain); other regions use the pole of inaccessibility of their largest polygon.
LABELS = {
    "north_pacific": (-140, 35), "south_pacific": (-115, -35), "north_atlantic": (-40, 45),
    "caribbean_sea": (-72, 15), "south_atlantic": (-25, -38), "gulf_of_guinea": (-2, -8),
    "mediterranean_sea": (18, 34.5), "indian_ocean": (75, -18), "sea_of_japan": (152, 40),
    "china_sea": (116, 14), "tasman_sea": (160, -38),
    "london": (-1.5, 53), "paris": (2.5, 46.5), "berlin": (11, 51.5), "rome": (13, 42.5),
    "new_delhi": (77, 29.5), "kolkata": (86.5, 23), "mumbai": (74.5, 20.5), "chennai": (78.5, 13),
    "chongqing": (102, 28), "shanghai": (115.5, 26), "beijing": (117, 42), "urumqi": (86, 36),
    "san_francisco": (-118, 38), "chicago": (-90, 42.5), "new_york": (-77, 42), "new_orleans": (-93, 32),
}


# ---------------------------------------------------------------------------------------------
# Reading the atlas


def atlas_topology(atlas: str | None) -> dict:
    """countries-50m.json of world-atlas, from a folder, a tarball, or `npm pack`."""
    if atlas and Path(atlas).is_dir():
        folder = Path(atlas)
        path = folder / "countries-50m.json"
        if not path.exists():
            path = folder / "package" / "countries-50m.json"
        return json.loads(path.read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory() as tmp:
        tarball = Path(atlas) if atlas else _npm_pack(Path(tmp))
        with tarfile.open(tarball) as tar:
            return json.load(tar.extractfile("package/countries-50m.json"))


def _npm_pack(folder: Path) -> Path:
    name = subprocess.run(["npm", "pack", ATLAS], cwd=folder, check=True, capture_output=True,
                          text=True).stdout.strip().splitlines()[-1]
    return folder / name


def decode_countries(topology: dict) -> dict[str, MultiPolygon]:
    """TopoJSON countries -> {name: MultiPolygon in (lon, lat)}, Antarctica left out.

    Arcs are quantised and delta-encoded; a negative arc index ~i means arc i reversed. Rings may
    cross the antimeridian (world-atlas 2 is spherical), so longitudes are unwrapped along a ring.
    """
    (sx, sy), (tx, ty) = topology["transform"]["scale"], topology["transform"]["translate"]
    arcs = []
    for arc in topology["arcs"]:
        q = np.cumsum(np.array(arc, dtype=float), axis=0)
        arcs.append(np.column_stack([q[:, 0] * sx + tx, q[:, 1] * sy + ty]))

    def ring(indexes):
        parts = [arcs[i] if i >= 0 else arcs[~i][::-1] for i in indexes]
        pts = np.vstack([parts[0]] + [p[1:] for p in parts[1:]])
        jumps = np.round(np.diff(pts[:, 0]) / 360.0)
        pts[1:, 0] -= 360.0 * np.cumsum(jumps)
        return pts

    countries = {}
    for g in topology["objects"]["countries"]["geometries"]:
        name = g["properties"]["name"]
        if name == "Antarctica":
            continue
        polys = [g["arcs"]] if g["type"] == "Polygon" else g["arcs"]
        countries[name] = MultiPolygon([Polygon(ring(p[0]), [ring(h) for h in p[1:]]) for p in polys])
    return countries


# ---------------------------------------------------------------------------------------------
# Projection and the view


def to_map(geom):
    """A (lon, lat) geometry, longitudes unwrapped, cut at the Bering Strait and projected."""
    parts = []
    for shift in (-360.0, 0.0, 360.0):
        lo = CUT_LON - shift
        piece = geom.intersection(box(lo, SOUTH_LAT, lo + 360.0, NORTH_LAT))
        if not piece.is_empty:
            parts.append(shapely.transform(piece, lambda xy, s=shift: _project_array(xy[:, 0] + s, xy[:, 1])))
    return shapely.union_all(parts) if parts else Polygon()


def _project_array(lon, lat):
    return np.array([project(x if x >= CUT_LON else x + 360.0, y) for x, y in zip(lon, lat)]).reshape(-1, 2)


def mpoint(lon: float, lat: float) -> Point:
    return Point(project(lon, lat))


def view_box():
    x0, y0 = project(CUT_LON, SOUTH_LAT)
    _, y1 = project(CUT_LON, NORTH_LAT)
    return box(x0, y0, x0 + 360.0, y1)


def polys(geom) -> list[Polygon]:
    """The polygons of any geometry (collections from make_valid included)."""
    if geom.is_empty:
        return []
    if geom.geom_type == "Polygon":
        return [geom]
    if geom.geom_type in ("MultiPolygon", "GeometryCollection"):
        return [p for g in geom.geoms for p in polys(g)]
    return []


def multi(geom) -> MultiPolygon:
    return MultiPolygon(polys(geom))


# ---------------------------------------------------------------------------------------------
# Land


def simplified_countries(countries: dict) -> dict:
    """Project every country and simplify them together, keeping shared borders shared."""
    names = sorted(countries)
    projected = [shapely.make_valid(to_map(countries[n])) for n in names]
    keep = [i for i, g in enumerate(projected) if not g.is_empty]
    simple = shapely.coverage_simplify([projected[i] for i in keep], SIMPLIFY)
    return {names[i]: shapely.make_valid(g) for i, g in zip(keep, simple) if not g.is_empty}


def regions_of(name: str):
    """The labels a country is split among (one for a wholesale country)."""
    value = COUNTRY_REGIONS.get(name, OTHER)
    return (value,) if isinstance(value, str) else value


def on_map(seeds: dict) -> dict:
    """{label: [(lon, lat)]} -> {label: [(x, y)]}."""
    return {label: [project(lon, lat) for lon, lat in pts] for label, pts in seeds.items()}


def territories(seeds: dict, view) -> dict:
    """{label: the union of the Voronoi cells of its seeds (map points)}, over the whole view."""
    owner = [label for label in seeds for _ in seeds[label]]
    pts = MultiPoint([p for label in seeds for p in seeds[label]])
    cells = shapely.voronoi_polygons(pts, extend_to=view, ordered=True).geoms
    return {label: shapely.union_all([c for c, o in zip(cells, owner) if o == label]).intersection(view)
            for label in seeds}


def assign_land(countries: dict, view, board: dict) -> dict[str, list]:
    """{label: [geometries]}: regions, other land, polar land and Switzerland."""
    land = shapely.union_all(list(countries.values()))
    parts = [p for p in polys(land) if p.area >= MIN_ISLAND]
    masses = [p for p in parts if any(p.contains(mpoint(*q)) for q in LANDMASS_POINTS)]
    islands = [p for p in parts if p not in masses]
    out = assign_landmasses(countries, shapely.union_all(masses), view)
    for label, island in assign_islands(countries, islands, board):
        out[label].append(island)
    return out


def assign_landmasses(countries: dict, mass, view) -> dict[str, list]:
    """Countries on the two landmasses go wholesale to their region or split by LAND_SEEDS."""
    out = defaultdict(list)
    cells = {}
    for name in sorted(countries):
        labels = regions_of(name)
        on_mass = countries[name].intersection(mass)
        if on_mass.area > 0 and labels == (OTHER,):
            raise SystemExit(f"{name} is on a landmass but has no region: list it in COUNTRY_REGIONS")
        if len(labels) == 1:
            out[labels[0]].append(on_mass)
            continue
        if labels not in cells:
            cells[labels] = territories(on_map({label: LAND_SEEDS[label] for label in labels}), view)
        for label, cell in cells[labels].items():
            out[label].append(on_mass.intersection(cell))
    return out


def assign_islands(countries: dict, islands: list, board: dict):
    """(label, island) pairs: an island goes whole to the nearest seed among its main country's
    regions (a region without LAND_SEEDS uses its board.json point), other land and polar land."""
    seeds = {r["id"]: [(r["lon"], r["lat"])] for r in board["regions"]}
    seeds = on_map({**seeds, **LAND_SEEDS, **ISLAND_SEEDS})
    names = sorted(countries)
    tree = shapely.STRtree([countries[n] for n in names])
    for island in islands:
        main = max(tree.query(island), key=lambda i: countries[names[i]].intersection(island).area)
        labels = [x for x in regions_of(names[main]) if x not in (OTHER, SWITZERLAND)] + [OTHER, POLAR]
        inside = island.representative_point()
        _, label = min((inside.distance(Point(p)), label) for label in labels for p in seeds[label])
        yield label, island


def apply_land_patches(land: dict, countries: dict) -> dict:
    for kind, region, owners, ring in LAND_PATCHES:
        patch = to_map(Polygon(ring))
        if kind == "bridge":
            taken = patch.difference(shapely.union_all(list(land.values())))
        else:
            taken = patch.intersection(shapely.union_all([countries[n] for n in owners]))
        land = {label: g.difference(taken) for label, g in land.items()}
        land[region] = land[region].union(taken)
    return land


def shared(a, b) -> float:
    """Length of a's boundary lying on b's boundary (within EPS)."""
    return a.boundary.intersection(b.buffer(EPS)).length


def absorb_fragments(shapes: dict, movable, hosts, crumb: float = math.inf) -> dict:
    """Give every part of a movable label that is not its largest, is smaller than `crumb` and
    touches other labels of `hosts` to the host it shares the longest border with: Voronoi cells
    leave such crumbs across bays, and enclaves such as Ceuta would make borders the board does
    not have."""
    shapes = dict(shapes)
    for label in movable:
        parts = sorted(polys(shapes[label]), key=lambda p: -p.area)
        keep = parts[:1]
        for part in parts[1:]:
            if part.area >= crumb:
                keep.append(part)
                continue
            lengths = {h: shared(part, shapes[h]) for h in hosts if h != label}
            host = max(sorted(lengths), key=lambda h: lengths[h]) if lengths else None
            if host is not None and lengths[host] > EPS:
                shapes[host] = shapes[host].union(part)
            else:
                keep.append(part)
        shapes[label] = MultiPolygon(keep)
    return shapes


# ---------------------------------------------------------------------------------------------
# Water


def junction_seeds(land: dict) -> dict:
    """{sea: [map points]}: for each SEA_JUNCTIONS entry, the two points where a circle around
    the coastal land junction crosses the coast, one on each land region's side. Being equally
    far from the junction, their Voronoi border runs through it."""
    coast = shapely.union_all(list(land.values())).boundary
    seeds = defaultdict(list)
    for a, b, sea_a, sea_b, near in SEA_JUNCTIONS:
        meet = land[a].buffer(1e-6).intersection(land[b].buffer(1e-6)).intersection(coast)
        if meet.is_empty:
            raise SystemExit(f"{a} and {b} meet nowhere on the coast")
        junction = nearest_points(meet, mpoint(*near))[0]
        crossings = junction.buffer(JUNCTION_RADIUS, quad_segs=64).exterior.intersection(coast)
        pts = [p for p in getattr(crossings, "geoms", [crossings]) if p.geom_type == "Point"]
        for sea, side in ((sea_a, land[a]), (sea_b, land[b])):
            seeds[sea].append(min(pts, key=side.distance).coords[0])
    return seeds


def assign_water(land: dict, view) -> dict:
    """{label: geometry}: seas, none and polar water."""
    water = view.difference(shapely.union_all(list(land.values())))
    parts = sorted(polys(water), key=lambda p: -p.area)
    ocean, lakes = parts[0], parts[1:]
    seeds = on_map(SEA_SEEDS)
    for sea, extra in junction_seeds(land).items():
        seeds[sea] = extra + seeds[sea]
    cells = territories(seeds, view)
    out = {label: ocean.intersection(cell) for label, cell in cells.items()}
    out[NONE] = out[NONE].union(shapely.union_all(lakes))
    seas = [s for s in SEA_SEEDS if s not in (NONE, POLAR)]
    return absorb_fragments(out, seas, list(out))


# ---------------------------------------------------------------------------------------------
# Putting it together


def derive(topology: dict, board: dict) -> dict:
    view = view_box()
    countries = simplified_countries(decode_countries(topology))
    pieces = assign_land(countries, view, board)
    land = {label: shapely.union_all(gs) for label, gs in pieces.items()}
    land_regions = [r["id"] for r in board["regions"] if r["kind"] != "sea"]
    land = {label: land.get(label, Polygon()) for label in sorted(set(land) | set(land_regions))}
    land = apply_land_patches(land, countries)
    land = absorb_fragments(land, land_regions, list(land), LAND_CRUMB)
    water = assign_water(land, view)
    return on_grid(with_polar_band(land, water, view), view)


def with_polar_band(land: dict, water: dict, view) -> dict:
    """One shape per label, polar land and water joined, everything north of POLAR_LAT polar."""
    x0, _, x1, y1 = view.bounds
    band = box(x0, project(0, POLAR_LAT)[1], x1, y1)
    polar = shapely.union_all([land.get(POLAR, Polygon()), water.get(POLAR, Polygon()), band])
    shapes = {k: g.difference(band) for k, g in {**land, **water}.items() if k != POLAR}
    return {**shapes, POLAR: polar}


def on_grid(shapes: dict, view) -> dict:
    """The shapes rounded to the output grid as one exact coverage.

    Rounding each shape on its own would let neighbours drift apart or overlap where their
    borders were computed by different operations; instead all borders are snap-rounded together,
    the faces between them rebuilt, and each face given to the shape that holds it."""
    labels = sorted(shapes)
    network = shapely.union_all([shapes[k].boundary for k in labels] + [view.boundary], grid_size=ROUND)
    faces = list(shapely.polygonize(line_parts(network)).geoms)
    tree = shapely.STRtree([shapes[k] for k in labels])
    owned = defaultdict(list)
    for face in faces:
        inside = face.representative_point()
        hits = [labels[i] for i in tree.query(inside, predicate="within")]
        owner = hits[0] if hits else labels[int(tree.query_nearest(inside)[0])]
        owned[owner].append(face)
    return {k: multi(shapely.union_all(owned.get(k, []), grid_size=ROUND)) for k in labels}


def line_parts(geom) -> list:
    """The line strings of a linear geometry."""
    return list(geom.geoms) if hasattr(geom, "geoms") else [geom]


# ---------------------------------------------------------------------------------------------
# Checks


def edge_span(geom, x: float, view):
    """The part of the map edge x = const that the shape touches, moved to x = 0."""
    line = LineString([(x, view.bounds[1]), (x, view.bounds[3])])
    return affinity.translate(geom.buffer(EPS).intersection(line), -x, 0)


def check(shapes: dict, board: dict, view) -> list[str]:
    """Every difference from board.json, as lines of text (empty: all good)."""
    ids = [r["id"] for r in board["regions"]]
    problems = [f"{i}: no valid shape" for i in ids if shapes[i].is_empty or not shapes[i].is_valid]
    if problems:
        return problems
    return (check_borders(shapes, board) + check_edges(shapes, board, view) + check_points(shapes, board)
            + check_canals(shapes, board))


def check_borders(shapes: dict, board: dict) -> list[str]:
    """Borders longer than BORDER_TOL exactly between neighbours (canal and wraparound links
    excluded); shorter contacts that are no border are printed as notes."""
    ids = [r["id"] for r in board["regions"]] + [SWITZERLAND]
    wraps = {tuple(sorted(p)) for p in board["wraparound"]["links"]}
    want = {tuple(sorted((e["a"], e["b"]))) for e in board["edges"] if not e.get("canal")} - wraps
    want |= {tuple(sorted((SWITZERLAND, r))) for r in ("paris", "berlin", "rome")}
    tree = shapely.STRtree([shapes[i] for i in ids])
    lengths = {}
    for a in ids:
        for m in tree.query(shapes[a].buffer(EPS)):
            if ids[m] > a:
                lengths[(a, ids[m])] = shared(shapes[a], shapes[ids[m]])
    problems = []
    for pair in sorted(want | set(lengths)):
        length = lengths.get(pair, 0.0)
        if pair in want and length <= BORDER_TOL:
            problems.append(f"missing border {pair[0]}-{pair[1]}: {length:.2f}")
        elif pair not in want and length > BORDER_TOL:
            problems.append(f"extra border {pair[0]}-{pair[1]}: {length:.2f}")
        elif pair not in want and length > 0.05:
            print(f"note: short contact {pair[0]}-{pair[1]}: {length:.2f}")
    return problems


def check_edges(shapes: dict, board: dict, view) -> list[str]:
    """The wraparound links, and only they, meet across the left and right map edges."""
    wraps = {tuple(sorted(p)) for p in board["wraparound"]["links"]}
    ids = [r["id"] for r in board["regions"]]
    left = {i: edge_span(shapes[i], view.bounds[0], view) for i in ids}
    right = {i: edge_span(shapes[i], view.bounds[2], view) for i in ids}
    problems = []
    for a in (i for i in ids if not left[i].is_empty):
        for b in (i for i in ids if not right[i].is_empty):
            overlap = left[a].intersection(right[b]).length
            is_wrap = tuple(sorted((a, b))) in wraps
            if is_wrap and overlap <= BORDER_TOL:
                problems.append(f"wraparound {a}|{b} overlaps only {overlap:.2f}")
            if not is_wrap and overlap > BORDER_TOL:
                problems.append(f"edge overlap {a}|{b} not a wraparound: {overlap:.2f}")
    return problems


def check_points(shapes: dict, board: dict) -> list[str]:
    problems = []
    for r in board["regions"]:
        if not shapes[r["id"]].contains(mpoint(r["lon"], r["lat"])):
            problems.append(f"point of {r['id']} ({r['lat']}, {r['lon']}) outside its shape")
        if not shapes[r["id"]].contains(label_point(r["id"], shapes[r["id"]])):
            problems.append(f"label of {r['id']} outside its shape")
    return problems


def check_canals(shapes: dict, board: dict) -> list[str]:
    """Each marker in (or on) its controlling region and within 1.5 of both its seas."""
    problems = []
    for canal in board["canals"]:
        p = mpoint(*CANALS[canal["id"]])
        if shapes[canal["controlled_by_flag_in"]].distance(p) > EPS:
            problems.append(f"canal {canal['id']} marker outside {canal['controlled_by_flag_in']}")
        for sea in canal["seas"]:
            if shapes[sea].distance(p) > 1.5:
                problems.append(f"canal {canal['id']} marker {shapes[sea].distance(p):.2f} from {sea}")
    return problems


# ---------------------------------------------------------------------------------------------
# Output


def label_point(rid: str, geom) -> Point:
    if rid in LABELS:
        return mpoint(*LABELS[rid])
    return polylabel(max(polys(geom), key=lambda p: p.area), 0.05)


def coords(geom) -> list:
    """A MultiPolygon as lists of rings, exterior counter-clockwise, first point not repeated."""
    out = []
    for p in sorted(polys(shapely.orient_polygons(geom)), key=lambda p: (-p.area, p.bounds)):
        rings = [p.exterior] + sorted(p.interiors, key=lambda r: -Polygon(r).area)
        out.append([[[_r(x), _r(y)] for x, y in r.coords[:-1]] for r in rings])
    return out


def _r(v: float) -> float:
    return round(v, 2) + 0.0


def document(shapes: dict, board: dict, view) -> str:
    regions = {}
    for r in board["regions"]:
        g = shapes[r["id"]]
        x, y = project(r["lon"], r["lat"])
        lp = label_point(r["id"], g)
        regions[r["id"]] = {"polygons": coords(g), "point": [_r(x), _r(y)], "label": [_r(lp.x), _r(lp.y)]}
    about = {
        "source": "Natural Earth 1:50m via world-atlas 2.0.2 (public domain)",
        "derived_by": "scripts/derive_board_shapes.py",
        "projection": f"Miller cylindrical, cut at longitude {CUT_LON:g} (longitudes west of it "
                      "shifted by +360): x = longitude in degrees, y = 1.25 ln(tan(pi/4 + 0.4 lat)) "
                      "* 180/pi; see dashboard/games/imperial2030/board_shapes.py project()",
        "units": "degree-like map units, y up (north); coordinates rounded to 2 decimals; "
                 "area of view not covered by shapes is non-region water",
    }
    parts = [
        f'"_about":{json.dumps(about, ensure_ascii=False)}',
        f'"view":{json.dumps([_r(v) for v in view.bounds])}',
        '"regions":{\n' + ",\n".join(f'{json.dumps(k)}:{json.dumps(v, separators=(",", ":"))}'
                                      for k, v in regions.items()) + "}",
        f'"other_land":{json.dumps(coords(shapes[OTHER]), separators=(",", ":"))}',
        f'"polar":{json.dumps(coords(shapes[POLAR]), separators=(",", ":"))}',
        f'"impassable":{{"switzerland":{json.dumps(coords(shapes[SWITZERLAND]), separators=(",", ":"))}}}',
        '"canals":' + json.dumps({k: [_r(c) for c in project(*v)] for k, v in CANALS.items()},
                                 separators=(",", ":")),
    ]
    return "{" + ",\n".join(parts) + "}\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--atlas", help="world-atlas tarball or folder (default: npm pack)")
    parser.add_argument("--check", action="store_true", help="check only, write nothing")
    args = parser.parse_args()
    board = json.loads((DATA_DIR / "board.json").read_text(encoding="utf-8"))
    shapes = derive(atlas_topology(args.atlas), board)
    problems = check(shapes, board, view_box())
    for line in problems:
        print(line)
    print(f"{len(problems)} problems")
    if not args.check:
        text = document(shapes, board, view_box())
        OUT.write_text(text, encoding="utf-8")
        print(f"wrote {OUT} ({len(text.encode()) / 1024:.0f} KB)")


if __name__ == "__main__":
    main()
