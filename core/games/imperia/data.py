"""Imperia's data file (``data/imperia/data.json``), loaded once and checked at load.

The rules read only the plain tables built here: board sides as 16-letter strings, the covered
spaces and forbidden fortress sites of each player count (as space bit masks), the setup orders
and the tile template. Any malformed entry is a DataError naming the file and the entry.
Spaces are ints ``r * 8 + c`` (RULES.md §0.2).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from imperial_lab.core.errors import DataError
from imperial_lab.core.files import data_path
from imperial_lab.core.jsonio import read_json_file

DATA_PATH = data_path("imperia", "data.json")

TERRAIN_LETTERS = "FMV"
TEMPLATE = ("F", "W", "G1o", "G2o", "G3d", "G4d", "C1o", "C2o", "C3d", "C4d",
            "I1o", "I2o", "I3o", "I4d", "I5d", "I6d")


@dataclass(frozen=True)
class SetupData:
    """One player count's setup (RULES.md §2.4, §3.2, §3.3): orders are relative to the start seat."""

    board_placers: tuple  # relative seats; -1 = the chance board (3 players)
    fortress_order: tuple
    covered: int  # bit mask of covered spaces
    forbidden: int  # bit mask of the extra forbidden fortress sites (A/B)


@dataclass(frozen=True)
class Data:
    colours: tuple
    sides: tuple  # sides[board][side] = 16 letters, local row 0 first (side 0 = A, 1 = B)
    castle: tuple
    ring: tuple
    fortress_zone: tuple
    setups: dict  # player count -> SetupData
    castle_points: int
    terrain_points: dict
    fixtures: dict
    generator_seed: int


def _space(entry, where: str) -> int:
    if (not isinstance(entry, list) or len(entry) != 2
            or not all(type(x) is int and 0 <= x < 8 for x in entry)):
        raise DataError(f"{where}: a space is [row, col] with 0..7, got {entry!r}")
    return entry[0] * 8 + entry[1]


def _spaces(entries, where: str) -> tuple:
    if not isinstance(entries, list):
        raise DataError(f"{where}: must be a list of [row, col]")
    return tuple(_space(e, f"{where}[{k}]") for k, e in enumerate(entries))


def _mask(spaces) -> int:
    out = 0
    for s in spaces:
        out |= 1 << s
    return out


def check_side(rows, where: str) -> str:
    """A board side written as 4 strings of 4 letters F/M/V; returns the 16 letters."""
    if (not isinstance(rows, list) or len(rows) != 4
            or not all(isinstance(r, str) and len(r) == 4 and set(r) <= set(TERRAIN_LETTERS) for r in rows)):
        raise DataError(f"{where}: a side is 4 strings of 4 letters F/M/V, got {rows!r}")
    return "".join(rows)


def _relative(seats, where: str) -> tuple:
    out = []
    for s in seats:
        if s == "random":
            out.append(-1)
        elif isinstance(s, str) and s[:1] == "s" and s[1:].isdigit():
            out.append(int(s[1:]))
        else:
            raise DataError(f"{where}: a seat is 's0'..'s3' or 'random', got {s!r}")
    return tuple(out)


def load_data(path: Path | str = DATA_PATH) -> Data:
    """The data of ``path``; raises DataError naming the entry that is wrong."""
    doc = read_json_file(path, DataError)
    where = str(path)
    try:
        colours = tuple(doc["colours"]["values"])
        if len(colours) != 4 or not all(isinstance(c, str) for c in colours):
            raise DataError(f"{where}: colours.values must be 4 names")
        if tuple(doc["pieces"]["tile_id_template"]) != TEMPLATE:
            raise DataError(f"{where}: pieces.tile_id_template must be {list(TEMPLATE)}")
        boards = doc["board_sides"]["boards"]
        if not isinstance(boards, list) or len(boards) != 4:
            raise DataError(f"{where}: board_sides.boards must list 4 boards")
        sides = tuple((check_side(b["sides"]["A"], f"{where}: board_sides.boards[{k}].sides.A"),
                       check_side(b["sides"]["B"], f"{where}: board_sides.boards[{k}].sides.B"))
                      for k, b in enumerate(boards))
        board = doc["board"]
        castle = _spaces(board["castle_spaces"], f"{where}: board.castle_spaces")
        ring = _spaces(board["castle_ring_spaces"], f"{where}: board.castle_ring_spaces")
        zone = _spaces(board["fortress_zone_4p"], f"{where}: board.fortress_zone_4p")
        if (len(castle), len(ring), len(zone)) != (4, 12, 20):
            raise DataError(f"{where}: board: expected 4 castle, 12 ring and 20 fortress-zone spaces")
        setups = {}
        for n in (2, 3, 4):
            entry = doc["player_count_setup"][str(n)]
            at = f"{where}: player_count_setup.{n}"
            placers = _relative(entry["board_placers"], f"{at}.board_placers")
            order = _relative(entry["fortress_order"], f"{at}.fortress_order")
            if len(placers) != 4 or sorted(order) != list(range(n)):
                raise DataError(f"{at}: 4 board placers and a fortress order of the {n} seats expected")
            setups[n] = SetupData(placers, order, _mask(_spaces(entry["covered_spaces"], f"{at}.covered_spaces")),
                                  _mask(_spaces(entry["fortress_forbidden_extra"], f"{at}.fortress_forbidden_extra")))
        points = {t: doc["terrain"]["types"][t]["points"] for t in TERRAIN_LETTERS}
        castle_points = doc["scoring"]["castle_space_points"]
        if not all(type(v) is int for v in (*points.values(), castle_points)):
            raise DataError(f"{where}: terrain points and castle_space_points must be whole numbers")
        seed = doc["board_sides"]["default_set_generator"]["seed"]
        fixtures = doc.get("fixtures", {})
    except (KeyError, TypeError) as exc:
        raise DataError(f"{where}: missing or malformed entry {exc}") from None
    return Data(colours, sides, castle, ring, zone, setups, castle_points, points, fixtures, seed)


@cache
def data() -> Data:
    """The default data file, loaded once."""
    return load_data()
