"""Imperia's fixed tables: spaces, directions, tiles, board sides (RULES.md §0.2, §1, §2).

Everything here is plain ints and tuples computed once at import. A space is ``r * 8 + c``; a
direction is 0..7 in the order N NE E SE S SW W NW (even = orthogonal, odd = diagonal); a tile is
``colour * 16 + k`` with ``k`` its index in the data file's tile template (0 fortress, 1 warlord,
2-5 generals, 6-9 cavalry, 10-15 infantry). Tiles of one *type* (kind, arrow class and, for a
general with a fixed order, that order) are interchangeable for the rules, so hands, piles and
actions speak of types only. Which general has which class and order depends on the game's
options (G9, G18): ``tile_set`` gives a colour's tiles for them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

from imperial_lab.core.games.imperia.data import TEMPLATE, data

SIZE = 8
SPACES = 64
DIRECTIONS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
VECTORS = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))
ORTH, DIAG = 0, 1
FACINGS = ((0, 2, 4, 6), (1, 3, 5, 7))  # by arrow class
QUADRANTS = ("NW", "NE", "SW", "SE")
ORIGINS = (0, 4, 32, 36)  # top-left space of each quadrant
ROTATIONS = (0, 90, 180, 270)
SIDES = "AB"
RANDOM_QUADRANT = QUADRANTS.index("SE")  # the 3-player chance board (G26)
HAND_SIZE = 3  # tiles in a hand (§3.4)

# The tile types: the six of the default rules, then the generals with a fixed order (G18).
GENERAL, CAVALRY, INFANTRY, WARLORD = 0, 1, 2, 3
KIND_NAMES = ("gen", "cav", "inf", "war")
TYPE_NAMES = ("gen/o", "gen/d", "cav/o", "cav/d", "inf/o", "inf/d", "gen/o-mob", "gen/d-mob", "gen/o-dir",
              "gen/d-dir")
NTYPES = len(TYPE_NAMES)
TYPE_INDEX = {name: t for t, name in enumerate(TYPE_NAMES)}
TYPE_KIND = (GENERAL, GENERAL, CAVALRY, CAVALRY, INFANTRY, INFANTRY, GENERAL, GENERAL, GENERAL, GENERAL)
TYPE_CLASS = (ORTH, DIAG, ORTH, DIAG, ORTH, DIAG, ORTH, DIAG, ORTH, DIAG)
GENERAL_TYPES = tuple(t for t in range(NTYPES) if TYPE_KIND[t] == GENERAL)
MOBILISE_ORDER, DIRECT_ORDER = 1, 2  # bits of the orders a general may give (§6.6)
BOTH_ORDERS = MOBILISE_ORDER | DIRECT_ORDER
TYPE_ORDERS = (BOTH_ORDERS, BOTH_ORDERS, 0, 0, 0, 0, MOBILISE_ORDER, MOBILISE_ORDER, DIRECT_ORDER, DIRECT_ORDER)
FORTRESS_INDEX, WARLORD_INDEX = 0, 1
RANK = {GENERAL: 3, CAVALRY: 2, INFANTRY: 1, WARLORD: 4}  # RULES.md §1
WARLORD_RANK = RANK[WARLORD]
TYPE_RANK = tuple(RANK[k] for k in TYPE_KIND)
STEP = {GENERAL: 1, CAVALRY: 2, INFANTRY: 1}  # RULES.md §1 (general: G18)

# Per template index (0..15): the kind (-1 fortress), rank and step; the same whatever the options.
INDEX_KIND = tuple({"F": -1, "W": WARLORD, "G": GENERAL, "C": CAVALRY, "I": INFANTRY}[tid[0]] for tid in TEMPLATE)
INDEX_RANK = tuple(RANK.get(k, 0) for k in INDEX_KIND)
INDEX_STEP = tuple(STEP.get(k, 0) for k in INDEX_KIND)
INDEX_SOLDIER = tuple(k in (CAVALRY, INFANTRY) for k in INDEX_KIND)  # the tiles orders address
GENERALS = INDEX_KIND.count(GENERAL)  # per colour (§1)


@dataclass(frozen=True)
class TileSet:
    """A colour's tiles under the general options (G9, G18), as per-index and per-type tables."""

    ids: tuple  # per template index: the tile's id (G1o, G2o-dir, C3d, ...), written after its colour
    index_type: tuple  # per template index: its type (-1 warlord, -2 fortress)
    facings: tuple  # per template index: the facings of its class (none for the warlord and fortress)
    type_ids: tuple  # per type: its template indices, ascending (placed in this order, §6.5)
    total: tuple  # per type: the colour's tiles of it (14 soldiers in all)
    types: tuple  # the types that have tiles, ascending: the rules loop over these only


@cache
def tile_set(orth: int, fixed_orders: bool) -> TileSet:
    """The tiles when generals G1..G<orth> are orthogonal and the others diagonal (G9) and, with
    ``fixed_orders``, the odd-numbered generals mobilise and the even-numbered direct troops (G18).
    Alternating by number keeps two mobilisers and two directors whatever the classes, and gives
    each class that has two generals one of each."""
    ids = []
    for tid in TEMPLATE:
        if tid[0] == "G":
            number = int(tid[1])
            order = ("-mob" if number % 2 else "-dir") if fixed_orders else ""
            tid = f"G{number}{'o' if number <= orth else 'd'}{order}"
        ids.append(tid)
    index_type = tuple(-2 if k == FORTRESS_INDEX else -1 if k == WARLORD_INDEX
                       else TYPE_INDEX[f"{KIND_NAMES[INDEX_KIND[k]]}/{tid[2:]}"] for k, tid in enumerate(ids))
    type_ids = tuple(tuple(k for k in range(16) if index_type[k] == t) for t in range(NTYPES))
    total = tuple(len(k) for k in type_ids)
    return TileSet(tuple(ids), index_type, tuple(FACINGS[TYPE_CLASS[t]] if t >= 0 else () for t in index_type),
                   type_ids, total, tuple(t for t in range(NTYPES) if total[t]))


# The default rules' type of each template index, for readers with no game at hand (notebooks): a
# tile's kind is the same in every tile set, its class and order are not (the rules use game.tiles).
INDEX_TYPE = tile_set(2, False).index_type


def space_name(s: int) -> str:
    return f"{s >> 3},{s & 7}"


def rc(s: int) -> list[int]:
    return [s >> 3, s & 7]


def _target(s: int, d: int, k: int) -> int:
    r, c = (s >> 3) + k * VECTORS[d][0], (s & 7) + k * VECTORS[d][1]
    return r * 8 + c if 0 <= r < 8 and 0 <= c < 8 else -1


# TARGET[k][s][d]: the space k steps from s in direction d, or -1 off the board.
TARGET = {k: tuple(tuple(_target(s, d, k) for d in range(8)) for s in range(SPACES)) for k in (1, 2)}
ADJACENT = tuple(tuple(t for t in (TARGET[1][s][d] for d in FACINGS[ORTH]) if t >= 0) for s in range(SPACES))


def cheb(a: int, b: int) -> int:
    return max(abs((a >> 3) - (b >> 3)), abs((a & 7) - (b & 7)))


def mask(spaces) -> int:
    out = 0
    for s in spaces:
        out |= 1 << s
    return out


def spaces_of(m: int) -> list[int]:
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


D = data()
CASTLE = D.castle
CASTLE_MASK = mask(CASTLE)
RING_TOUCHING = D.ring
# The alternative ring of G4: the 8 spaces orthogonally adjacent to the castle.
RING_ORTHOGONAL = tuple(s for s in RING_TOUCHING if any(t in CASTLE for t in ADJACENT[s]))
FORTRESS_ZONE_MASK = mask(D.fortress_zone)


def rotate(side: str, rotation: int) -> str:
    """A 16-letter side turned clockwise by ``rotation`` degrees (G2: new[i][j] = old[3-j][i])."""
    for _ in range(rotation // 90):
        side = "".join(side[(3 - j) * 4 + i] for i in range(4) for j in range(4))
    return side


def reflect(side: str) -> str:
    return "".join(side[i * 4 + 3 - j] for i in range(4) for j in range(4))


def symmetries(side: str) -> set[str]:
    """The side under its 8 rotations and reflections."""
    out = set()
    for s in (side, reflect(side)):
        for rotation in ROTATIONS:
            out.add(rotate(s, rotation))
    return out


def quadrant_spaces(quadrant: int) -> tuple:
    o = ORIGINS[quadrant]
    return tuple(o + i * 8 + j for i in range(4) for j in range(4))


def terrain_of(sides: tuple, boards: tuple) -> str:
    """The 64 letters of the ``boards`` placed so far ((board, side, quadrant, rotation) each, §3.2;
    '.' where no board lies yet), with the castle once all four lie."""
    cells = ["."] * SPACES
    for board, side, quadrant, rotation in boards:
        for s, letter in zip(quadrant_spaces(quadrant), rotate(sides[board][side], rotation * 90)):
            cells[s] = letter
    if len(boards) == 4:
        for s in CASTLE:
            cells[s] = "C"
    return "".join(cells)


def generate_sides(seed: int, counts: dict | None = None) -> tuple:
    """Eight sides by the data file's generator (board_sides.default_set_generator): shuffle the
    letters, reject two orthogonally adjacent villages or a side equal to an accepted one under a
    symmetry. Returns ((1A, 1B), (2A, 2B), (3A, 3B), (4A, 4B)). Seed 1 gives the default set."""
    counts = counts or {"F": 7, "M": 6, "V": 3}
    rng = random.Random(seed)
    accepted: list[str] = []
    seen: set[str] = set()
    for _ in range(100_000):
        cells = [letter for letter in "FMV" for _ in range(counts[letter])]
        rng.shuffle(cells)
        side = "".join(cells)
        if _villages_touch(side) or side in seen:
            continue
        accepted.append(side)
        seen |= symmetries(side)
        if len(accepted) == 8:
            return tuple((accepted[2 * k], accepted[2 * k + 1]) for k in range(4))
    raise ValueError(f"no 8 distinct sides with the proportions {counts}")


def _villages_touch(side: str) -> bool:
    for i in range(4):
        for j in range(4):
            if side[i * 4 + j] == "V" and ((j < 3 and side[i * 4 + j + 1] == "V")
                                           or (i < 3 and side[(i + 1) * 4 + j] == "V")):
                return True
    return False


assert TEMPLATE[FORTRESS_INDEX] == "F" and TEMPLATE[WARLORD_INDEX] == "W"
assert tile_set(2, False).ids == TEMPLATE  # the data file's template is the default rules' set
