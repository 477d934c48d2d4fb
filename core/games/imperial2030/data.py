"""The Imperial 2030 map and numeric tables, loaded from ``data/imperial2030`` and validated.

Everything the rules read in the hot path is precomputed here as tuples of ints indexed by
region or nation, so the engine never touches the JSON while playing. The map as a networkx graph is
built only when asked for (``Board.graph()``): importing networkx costs a quarter of a second, and
neither the engine nor the command line runs a graph algorithm.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from imperial_lab.core.errors import DataError
from imperial_lab.core.files import data_path

DATA_DIR = data_path("imperial2030")

NATIONS = ("RU", "CN", "IN", "BR", "US", "EU")
SPACES = ("factory", "production_1", "maneuver_1", "investor", "import", "production_2", "maneuver_2", "taxation")
INVESTOR = 3

SEA, LAND, HOME = 0, 1, 2
KINDS = {"sea": SEA, "land": LAND, "home": HOME}
NO_SLOT, ARMAMENTS, SHIPYARD = 0, 1, 2
SLOTS = {None: NO_SLOT, "armaments": ARMAMENTS, "shipyard": SHIPYARD}


@dataclass(frozen=True)
class Board:
    """Static facts of the map and the rules tables, indexed by small ints."""

    region_ids: tuple[str, ...]
    nregions: int  # R: unit lists are indexed nation * R + region
    region_index: dict[str, int]
    region_names: tuple[str, ...]
    kind: tuple[int, ...]
    home_nation: tuple[int, ...]  # nation index of a home province, else -1
    factory_slot: tuple[int, ...]
    shipyard_sea: tuple[int, ...]  # -1 unless a shipyard city
    starting_factories: tuple[int, ...]
    lat: tuple[float, ...]
    lon: tuple[float, ...]
    land_adj: tuple[tuple[int, ...], ...]  # land-land neighbours
    coast: tuple[tuple[int, ...], ...]  # seas bordering a land region
    shore: tuple[tuple[int, ...], ...]  # land regions bordering a sea
    sea_adj: tuple[tuple[int, ...], ...]  # sea-sea neighbours
    canal: dict[tuple[int, int], int]  # (sea, sea) -> canal index, both directions
    canal_ids: tuple[str, ...]
    canal_owner_region: tuple[int, ...]  # region whose flag controls each canal
    rail_adj: tuple[tuple[int, ...], ...]  # own-nation home neighbours of a home province
    homes: tuple[tuple[int, ...], ...]  # per nation, its four home provinces
    shipyard_cities: tuple[tuple[int, ...], ...]
    neutral: tuple[int, ...]  # regions that can carry flags
    borders: tuple[tuple[int, int], ...]  # every border once, as (region, region) in board.json's order
    # the same sets as bit masks (bit r = region r), to meet the state's per-nation unit masks
    sea_mask: int
    neutral_mask: int
    home_mask: tuple[int, ...]  # per nation, its home provinces
    foreign_home_mask: tuple[int, ...]  # per nation, the home provinces of the other nations
    all_home_mask: int
    # tables
    bond_cost: tuple[int, ...]  # index number-1
    tax_bonus: tuple[int, ...]  # index revenue 0..23
    tax_pp: tuple[int, ...]
    max_revenue: int
    unit_limits: tuple[tuple[int, int], ...]  # per nation (armies, fleets)
    flags_per_nation: int
    factory_cost: int
    import_max: int
    card_bonds: tuple[tuple[tuple[int, int], ...], ...]  # per flag card: ((nation, number), ...)
    standard: dict
    variant_cash: dict[int, int]
    tables: dict
    # memos of maneuver.army_moves, shared by every state on this board
    dest_cache: dict = field(default_factory=dict, compare=False, repr=False)
    lone_cache: dict = field(default_factory=dict, compare=False, repr=False)
    move_cache: dict = field(default_factory=dict, compare=False, repr=False)

    def region(self, name: str) -> int:
        try:
            return self.region_index[name]
        except KeyError:
            raise DataError(f"unknown region {name!r}") from None

    def graph(self):
        """The map as a ``networkx.Graph`` of region indices, for graph algorithms (networkx is
        imported here, on first use, not by the engine)."""
        import networkx as nx

        graph = nx.Graph()
        graph.add_nodes_from(range(self.nregions))
        graph.add_edges_from(self.borders)
        return graph


_BITS: dict[int, tuple[int, ...]] = {}


def bits(mask: int) -> tuple[int, ...]:
    """The regions of a bit mask, in ascending order (the order of a scan over all regions).
    Memoised: the same few masks (a nation's units) come back all game long."""
    out = _BITS.get(mask)
    if out is None:
        found = []
        rest = mask
        while rest:
            low = rest & -rest
            found.append(low.bit_length() - 1)
            rest ^= low
        if len(_BITS) > 100_000:
            _BITS.clear()
        out = _BITS[mask] = tuple(found)
    return out


def nation_index(code: str) -> int:
    try:
        return NATIONS.index(code)
    except ValueError:
        raise DataError(f"unknown nation {code!r} (expected one of {', '.join(NATIONS)})") from None


def _need(entry: dict, field: str, where: str):
    if field not in entry:
        raise DataError(f"{where}: missing field {field!r}")
    return entry[field]


def _read(path: Path) -> dict:
    try:
        return json.loads(path.read_text())
    except FileNotFoundError:
        raise DataError(f"{path}: file not found") from None
    except json.JSONDecodeError as exc:
        raise DataError(f"{path}: not valid JSON ({exc})") from None


def build_board(board: dict, tables: dict, board_file: str = "board.json", tables_file: str = "tables.json") -> Board:
    """Validate the two data documents and precompute the tables; raises DataError naming the entry."""
    regions = _need(board, "regions", board_file)
    ids: list[str] = []
    for i, r in enumerate(regions):
        where = f"{board_file}: regions[{i}]"
        for key in ("id", "name", "kind", "lat", "lon"):
            _need(r, key, where)
        if r["kind"] not in KINDS:
            raise DataError(f"{where} ({r['id']}): unknown kind {r['kind']!r}")
        if r["id"] in ids:
            raise DataError(f"{where}: region {r['id']!r} listed twice")
        ids.append(r["id"])
    index = {rid: i for i, rid in enumerate(ids)}
    n = len(ids)

    def rid(name, where):
        if name not in index:
            raise DataError(f"{where}: unknown region {name!r}")
        return index[name]

    kind = [KINDS[r["kind"]] for r in regions]
    home_nation, slot, yard_sea, start = [-1] * n, [NO_SLOT] * n, [-1] * n, []
    for i, r in enumerate(regions):
        where = f"{board_file}: regions[{i}] ({r['id']})"
        if kind[i] != HOME:
            continue
        for key in ("nation", "factory_slot", "shipyard_sea", "starting_factory"):
            _need(r, key, where)
        if r["nation"] not in NATIONS:
            raise DataError(f"{where}: unknown nation {r['nation']!r}")
        home_nation[i] = NATIONS.index(r["nation"])
        if r["factory_slot"] not in ("armaments", "shipyard"):
            raise DataError(f"{where}: factory_slot must be 'armaments' or 'shipyard', got {r['factory_slot']!r}")
        slot[i] = SLOTS[r["factory_slot"]]
        if slot[i] == SHIPYARD:
            if not r["shipyard_sea"]:
                raise DataError(f"{where}: a shipyard city needs its shipyard_sea")
            yard_sea[i] = rid(r["shipyard_sea"], where)
            if kind[yard_sea[i]] != SEA:
                raise DataError(f"{where}: shipyard_sea {r['shipyard_sea']!r} is not a sea")
        if r["starting_factory"]:
            start.append(i)

    adjacent: list[set[int]] = [set() for _ in range(n)]
    borders: list[tuple[int, int]] = []
    seen: set[frozenset] = set()
    canal_ids: list[str] = []
    canal_links: dict[tuple[int, int], int] = {}
    for k, e in enumerate(_need(board, "edges", board_file)):
        where = f"{board_file}: edges[{k}]"
        a, b = rid(_need(e, "a", where), where), rid(_need(e, "b", where), where)
        if a == b:
            raise DataError(f"{where}: self-loop on {ids[a]!r}")
        pair = frozenset((a, b))
        if pair in seen:
            raise DataError(f"{where}: border {ids[a]}-{ids[b]} listed twice")
        seen.add(pair)
        borders.append((a, b))
        adjacent[a].add(b)
        adjacent[b].add(a)
        if e.get("canal"):
            if kind[a] != SEA or kind[b] != SEA:
                raise DataError(f"{where}: canal {e['canal']!r} must join two seas")
            if e["canal"] not in canal_ids:
                canal_ids.append(e["canal"])
            canal_links[(a, b)] = canal_links[(b, a)] = canal_ids.index(e["canal"])
    canal_owner = [-1] * len(canal_ids)
    for k, c in enumerate(_need(board, "canals", board_file)):
        where = f"{board_file}: canals[{k}]"
        cid = _need(c, "id", where)
        if cid not in canal_ids:
            raise DataError(f"{where}: canal {cid!r} has no edge")
        canal_owner[canal_ids.index(cid)] = rid(_need(c, "controlled_by_flag_in", where), where)
    if -1 in canal_owner:
        raise DataError(f"{board_file}: canal {canal_ids[canal_owner.index(-1)]!r} has no entry in 'canals'")

    def nbrs(i, want):
        return tuple(sorted(j for j in adjacent[i] if want(j)))

    land_adj = tuple(nbrs(i, lambda j: kind[j] != SEA) if kind[i] != SEA else () for i in range(n))
    coast = tuple(nbrs(i, lambda j: kind[j] == SEA) if kind[i] != SEA else () for i in range(n))
    shore = tuple(nbrs(i, lambda j: kind[j] != SEA) if kind[i] == SEA else () for i in range(n))
    sea_adj = tuple(nbrs(i, lambda j: kind[j] == SEA) if kind[i] == SEA else () for i in range(n))
    for i in range(n):
        if slot[i] == SHIPYARD and coast[i] != (yard_sea[i],):
            raise DataError(f"{board_file}: shipyard {ids[i]!r} must border exactly its shipyard_sea")

    homes = tuple(tuple(i for i in range(n) if home_nation[i] == k) for k in range(len(NATIONS)))
    for k, h in enumerate(homes):
        if len(h) != 4:
            raise DataError(f"{board_file}: nation {NATIONS[k]} has {len(h)} home provinces, expected 4")
    rail_adj = tuple(
        tuple(j for j in land_adj[i] if home_nation[j] == home_nation[i]) if kind[i] == HOME else ()
        for i in range(n)
    )

    ladder = _need(_need(tables, "bonds", tables_file), "ladder", f"{tables_file}: bonds")
    bond_cost = tuple(row["cost"] for row in sorted(ladder, key=lambda row: row["number"]))
    if len(bond_cost) != 9:
        raise DataError(f"{tables_file}: bonds.ladder must have numbers 1..9")
    chart = sorted(_need(_need(tables, "tax_chart", tables_file), "rows", f"{tables_file}: tax_chart"),
                   key=lambda row: row["tax_revenue"])
    taxation = _need(tables, "taxation", tables_file)
    limits_doc = _need(_need(tables, "unit_limits", tables_file), "per_nation", f"{tables_file}: unit_limits")
    limits = []
    for code in NATIONS:
        entry = _need(limits_doc, code, f"{tables_file}: unit_limits.per_nation")
        limits.append((entry["armies"], entry["fleets"]))
    cards_doc = _need(_need(tables, "nation_flag_cards", tables_file), "contents", f"{tables_file}: nation_flag_cards")
    cards = []
    for code in NATIONS:
        entry = _need(cards_doc, code, f"{tables_file}: nation_flag_cards.contents")
        cards.append(tuple((nation_index(b["nation"]), b["number"]) for b in entry["bonds"]))
    standard = _need(_need(tables, "standard_setup", tables_file), "by_player_count", f"{tables_file}: standard_setup")
    variant_cash = {int(k): v for k, v in
                    _need(_need(tables, "experienced_variant", tables_file), "starting_cash",
                          f"{tables_file}: experienced_variant").items()}

    def mask(regions) -> int:
        return sum(1 << r for r in regions)

    return Board(
        region_ids=tuple(ids), nregions=n, region_index=index, region_names=tuple(r["name"] for r in regions),
        kind=tuple(kind), home_nation=tuple(home_nation), factory_slot=tuple(slot), shipyard_sea=tuple(yard_sea),
        starting_factories=tuple(start), lat=tuple(float(r["lat"]) for r in regions),
        lon=tuple(float(r["lon"]) for r in regions), land_adj=land_adj, coast=coast, shore=shore,
        sea_adj=sea_adj, canal=canal_links, canal_ids=tuple(canal_ids), canal_owner_region=tuple(canal_owner),
        rail_adj=rail_adj, homes=homes,
        shipyard_cities=tuple(tuple(i for i in h if slot[i] == SHIPYARD) for h in homes),
        neutral=tuple(i for i in range(n) if kind[i] != HOME), borders=tuple(borders),
        sea_mask=mask(i for i in range(n) if kind[i] == SEA), neutral_mask=mask(i for i in range(n) if kind[i] != HOME),
        home_mask=tuple(mask(h) for h in homes),
        all_home_mask=mask(i for i in range(n) if home_nation[i] >= 0),
        foreign_home_mask=tuple(mask(i for i in range(n) if home_nation[i] not in (-1, k))
                                for k in range(len(NATIONS))),
        bond_cost=bond_cost, tax_bonus=tuple(r["success_bonus"] for r in chart),
        tax_pp=tuple(r["power_points"] for r in chart), max_revenue=taxation["max_revenue"],
        unit_limits=tuple(limits), flags_per_nation=_need(tables, "flags", tables_file)["per_nation"],
        factory_cost=_need(tables, "factory", tables_file)["cost"],
        import_max=_need(tables, "import", tables_file)["max_units_per_action"],
        card_bonds=tuple(cards), standard=standard, variant_cash=variant_cash, tables=tables,
    )


@cache
def load_board(directory: str | None = None) -> Board:
    """The board from ``data/imperial2030`` (or another folder holding board.json and tables.json)."""
    folder = Path(directory) if directory else DATA_DIR
    board_path, tables_path = folder / "board.json", folder / "tables.json"
    return build_board(_read(board_path), _read(tables_path), str(board_path), str(tables_path))
