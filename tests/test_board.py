"""Board and tables data (RULES.md §2, issue: "load and validate them at start"): the shipped
files load into the expected map, and every kind of bad entry is refused naming file and entry."""

from __future__ import annotations

import copy
import json

import pytest

from imperial_lab.core.errors import DataError
from imperial_lab.core.games.imperial2030.data import DATA_DIR, HOME, LAND, SEA, build_board, load_board

BOARD = json.loads((DATA_DIR / "board.json").read_text())
TABLES = json.loads((DATA_DIR / "tables.json").read_text())


def test_shipped_board_matches_rules_section_2():
    """§2: 62 regions (11 seas, 27 neutral lands, 24 home provinces), 162 borders, two canals."""
    b = load_board()
    assert len(b.region_ids) == 62
    assert [b.kind.count(k) for k in (SEA, LAND, HOME)] == [11, 27, 24]
    assert b.graph().number_of_edges() == len(b.borders) == 162
    assert sorted(b.canal_ids) == ["panama", "suez"]
    assert {b.region_ids[r] for r in b.canal_owner_region} == {"colombia", "north_africa"}
    assert all(len(h) == 4 for h in b.homes)
    assert b.bond_cost == (2, 4, 6, 9, 12, 16, 20, 25, 30)


def test_every_region_is_reachable_from_every_other():
    """§2: the map is one connected graph of borders (networkx, imported by ``Board.graph`` only)."""
    import networkx as nx

    graph = load_board().graph()
    assert nx.is_connected(graph) and nx.diameter(graph) > 3


def test_round_earth_and_islands():
    """§2 round earth: north_pacific borders sea_of_japan and china_sea; islands have no land border."""
    b = load_board()
    np_ = b.region("north_pacific")
    assert {b.region_ids[s] for s in b.sea_adj[np_]} >= {"sea_of_japan", "china_sea", "south_pacific"}
    for island in ("japan", "philippines", "indonesia", "australia", "new_zealand"):
        assert b.land_adj[b.region(island)] == ()


def _broken(change) -> dict:
    board = copy.deepcopy(BOARD)
    change(board)
    return board


@pytest.mark.parametrize("change, message", [
    (lambda d: d["edges"].append({"a": "peru", "b": "atlantis", "kind": "land-land"}),
     "edges[162]: unknown region 'atlantis'"),
    (lambda d: d["edges"].append(dict(d["edges"][0])), "edges[162]: border north_pacific-south_pacific listed twice"),
    (lambda d: d["regions"][0].pop("kind"), "regions[0]: missing field 'kind'"),
    (lambda d: d["regions"].append(dict(d["regions"][0])), "regions[62]: region 'north_pacific' listed twice"),
    (lambda d: d["regions"][11].update(kind="swamp"), "regions[11] (alaska): unknown kind 'swamp'"),
    (lambda d: next(r for r in d["regions"] if r["id"] == "murmansk").update(shipyard_sea=None),
     "(murmansk): a shipyard city needs its shipyard_sea"),
    (lambda d: next(r for r in d["regions"] if r["id"] == "murmansk").update(nation="XX"),
     "(murmansk): unknown nation 'XX'"),
    (lambda d: d["edges"].append({"a": "peru", "b": "peru"}), "edges[162]: self-loop on 'peru'"),
])
def test_bad_board_entries_are_refused_with_file_and_entry(change, message):
    with pytest.raises(DataError) as err:
        build_board(_broken(change), TABLES, "board.json", "tables.json")
    assert message in str(err.value)
    assert str(err.value).startswith("board.json: ")


def test_bad_tables_entry_is_refused():
    tables = copy.deepcopy(TABLES)
    del tables["unit_limits"]["per_nation"]["CN"]
    with pytest.raises(DataError, match="tables.json: unit_limits.per_nation: missing field 'CN'"):
        build_board(BOARD, tables, "board.json", "tables.json")


def test_missing_or_malformed_files_name_the_file(tmp_path):
    with pytest.raises(DataError, match="board.json: file not found"):
        load_board(str(tmp_path))
    (tmp_path / "board.json").write_text("{not json")
    (tmp_path / "tables.json").write_text(json.dumps(TABLES))
    with pytest.raises(DataError, match=r"board.json: not valid JSON"):
        load_board(str(tmp_path))
