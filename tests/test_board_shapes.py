"""Region shapes against board.json (issue: "contains own point, adjacency matches, canals placed").

Reads the committed data/imperial2030/board_shapes.json through imperial_lab.dashboard.games.imperial2030.board_shapes, not the
derivation (scripts/derive_board_shapes.py). Two regions border each other when the boundary of
one runs within EPS of the other for more than BORDER_TOL map units.
"""

from __future__ import annotations

import json
from functools import lru_cache

import pytest
import shapely
from shapely.geometry import LineString, MultiPolygon, Point, Polygon

from imperial_lab.core.games.imperial2030.data import DATA_DIR
from imperial_lab.dashboard.games.imperial2030.board_shapes import project, shapes

BOARD = json.loads((DATA_DIR / "board.json").read_text())
IDS = [r["id"] for r in BOARD["regions"]]
KIND = {r["id"]: r["kind"] for r in BOARD["regions"]}
WRAPS = {frozenset(link) for link in BOARD["wraparound"]["links"]}
CANAL_PAIRS = {frozenset((e["a"], e["b"])) for e in BOARD["edges"] if e.get("canal")}
NEIGHBOURS = {frozenset((e["a"], e["b"])) for e in BOARD["edges"]} - WRAPS - CANAL_PAIRS

BORDER_TOL = 0.3  # map units; about 30 km at the equator
EPS = 0.01  # the output grid is 0.01: closer than this is touching
AREA_TOL = 1e-3  # square map units: rounding slivers, not overlaps


def geometry(polygons) -> MultiPolygon:
    return MultiPolygon([Polygon(p[0], p[1:]) for p in polygons])


@lru_cache(maxsize=1)
def regions() -> dict:
    return {rid: geometry(entry["polygons"]) for rid, entry in shapes()["regions"].items()}


def shared(a, b) -> float:
    return a.boundary.intersection(b.buffer(EPS)).length


@lru_cache(maxsize=1)
def border_lengths() -> dict:
    """{frozenset({a, b}): shared border length} for every pair of regions that touch."""
    ids = list(regions())
    geoms = [regions()[i] for i in ids]
    tree = shapely.STRtree(geoms)
    out = {}
    for n, g in enumerate(geoms):
        for m in tree.query(g.buffer(EPS)):
            if m > n:
                out[frozenset((ids[n], ids[m]))] = shared(g, geoms[m])
    return out


def edge_span(geom, x: float):
    """The stretch of the map edge x = const that a shape touches, moved onto x = 0."""
    _, y0, _, y1 = shapes()["view"]
    return shapely.affinity.translate(geom.buffer(EPS).intersection(LineString([(x, y0), (x, y1)])), -x, 0)


def test_every_board_region_has_one_valid_shape_and_nothing_else_is_a_region():
    assert list(shapes()["regions"]) == IDS
    for rid, geom in regions().items():
        assert geom.is_valid and geom.area > 1.0, rid
    for name in ("other_land", "polar"):
        assert geometry(shapes()[name]).is_valid
    assert list(shapes()["impassable"]) == ["switzerland"]


def test_each_shape_contains_its_board_point_and_its_label():
    for r in BOARD["regions"]:
        entry = shapes()["regions"][r["id"]]
        assert entry["point"] == pytest.approx(project(r["lon"], r["lat"]), abs=0.005), r["id"]
        assert regions()[r["id"]].contains(Point(entry["point"])), r["id"]
        assert regions()[r["id"]].contains(Point(entry["label"])), r["id"]


def test_regions_share_a_border_exactly_when_board_json_lists_them_as_neighbours():
    lengths = border_lengths()
    missing = sorted(tuple(sorted(p)) for p in NEIGHBOURS if lengths.get(p, 0.0) <= BORDER_TOL)
    extra = sorted((*sorted(p), round(n, 2)) for p, n in lengths.items() if n > BORDER_TOL and p not in NEIGHBOURS)
    assert (missing, extra) == ([], [])


def test_canal_seas_share_no_border():
    """Panama and Suez join their seas only through the canal: Central America and Sinai stay land."""
    assert len(CANAL_PAIRS) == 2
    for pair in CANAL_PAIRS:
        a, b = (regions()[s] for s in pair)
        assert a.distance(b) > 5 * EPS, sorted(pair)


def test_wraparound_links_meet_across_the_map_edge_and_no_other_pair_does():
    x0, _, x1, _ = shapes()["view"]
    left = {i: edge_span(g, x0) for i, g in regions().items() if not edge_span(g, x0).is_empty}
    right = {i: edge_span(g, x1) for i, g in regions().items() if not edge_span(g, x1).is_empty}
    assert set(left) == {"north_pacific", "south_pacific"}
    assert set(right) == {"sea_of_japan", "china_sea", "tasman_sea"}
    for a, span_a in left.items():
        for b, span_b in right.items():
            overlap = span_a.intersection(span_b).length
            assert (overlap > BORDER_TOL) == (frozenset((a, b)) in WRAPS), (a, b, overlap)


def test_regions_do_not_overlap():
    ids = list(regions())
    for n, a in enumerate(ids):
        for b in ids[n + 1:]:
            if frozenset((a, b)) in border_lengths():
                assert regions()[a].intersection(regions()[b]).area < AREA_TOL, (a, b)


def test_land_regions_are_land_and_sea_regions_are_water():
    """A sea never covers land (land regions, other land, Switzerland); no region is polar."""
    other = shapely.union_all([geometry(shapes()["other_land"]), geometry(shapes()["impassable"]["switzerland"])])
    land = shapely.union_all([g for i, g in regions().items() if KIND[i] != "sea"] + [other])
    polar = geometry(shapes()["polar"])
    for rid, geom in regions().items():
        covered = land if KIND[rid] == "sea" else other
        assert geom.intersection(covered).area < AREA_TOL, rid
        assert geom.intersection(polar).area < AREA_TOL, rid


def test_canal_markers_sit_in_their_owner_within_reach_of_both_seas():
    for canal in BOARD["canals"]:
        marker = Point(shapes()["canals"][canal["id"]])
        assert regions()[canal["controlled_by_flag_in"]].distance(marker) < EPS, canal["id"]
        for sea in canal["seas"]:
            assert regions()[sea].distance(marker) <= 1.5, (canal["id"], sea)


def test_switzerland_touches_paris_berlin_and_rome_but_is_no_region():
    swiss = geometry(shapes()["impassable"]["switzerland"])
    assert "switzerland" not in shapes()["regions"]
    for rid in ("paris", "berlin", "rome"):
        assert shared(swiss, regions()[rid]) > BORDER_TOL, rid
    for rid, geom in regions().items():
        assert geom.intersection(swiss).area < AREA_TOL, rid


def test_projection_is_miller_cut_at_the_bering_strait():
    assert project(0, 0) == pytest.approx((0.0, 0.0))
    assert project(-170, 0)[0] == 190.0 and project(-168, 0)[0] == -168.0
    assert project(0, 45)[1] == pytest.approx(48.29, abs=0.01)  # 1.25 ln tan(63°), in degrees
