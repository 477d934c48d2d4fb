"""The names people read for Imperia's ids, one place for the explorer, Play, the lessons and the
terminal: seats with their colours, tiles (``gen/o`` -> a straight general, ``red:C3d`` -> red
cavalry with a slanting arrow), facings (``NE`` -> north-east), spaces (``3,2``: row 3, column 2, as
the board prints them), board quarters and turns. The engine keeps the ids.

    who(0)                 -> "Player A (red)"
    type_words("gen/o")    -> "straight general"
    facing("NE")           -> "north-east"
"""

from __future__ import annotations

from imperial_lab.core.games.imperia.data import TEMPLATE, data
from imperial_lab.core.interface import seat_name

KIND_WORDS = {"W": "warlord", "G": "general", "C": "cavalry", "I": "infantry"}
ARROW_WORDS = {"o": "straight", "d": "slanted"}  # an arrow along a row or column, or along a diagonal (§1)
ORDER_WORDS = {"mob": "mobilising", "dir": "troop-directing"}  # a general with a fixed order (G18)
FACINGS = {"N": "north", "NE": "north-east", "E": "east", "SE": "south-east", "S": "south", "SW": "south-west",
           "W": "west", "NW": "north-west"}
QUARTERS = {"NW": "top-left", "NE": "top-right", "SW": "bottom-left", "SE": "bottom-right"}


def colour(seat: int) -> str:
    return data().colours[seat].replace("_", " ")


def who(seat: int) -> str:
    """``Player A (red)``."""
    return f"{seat_name(seat)} ({colour(seat)})"


def type_words(name: str) -> str:
    """A tile type of the notation (``gen/o``, ``cav/d``, ``gen/o-mob``) in words: ``straight general``,
    ``slanted cavalry``, ``straight mobilising general``."""
    kind, _, rest = name.partition("/")
    arrow, _, order = rest.partition("-")
    noun = {"gen": "general", "cav": "cavalry", "inf": "infantry"}[kind]
    return " ".join(filter(None, (ARROW_WORDS[arrow], ORDER_WORDS.get(order), noun)))



def hand_words(hand: dict) -> str:
    """A hand by tile type (``{"gen/o": 2, "inf/d": 1}``): ``2× straight general, 1× slanted infantry``."""
    return ", ".join(f"{k}× {type_words(name)}" for name, k in hand.items()) or "empty"


def tile_kind(tile) -> str:
    """A tile (an id int of the events, or ``red:C3d`` of a position) as ``infantry`` etc."""
    tid = TEMPLATE[tile & 15] if isinstance(tile, int) else tile.split(":")[1]
    return KIND_WORDS[tid[0]]


def tile_words(tile: str, facing_name: str | None = None) -> str:
    """A tile of a position (``red:C3d``) in words: ``red slanted cavalry facing south-east``;
    ``red:G1o-mob`` -> ``red straight mobilising general``; a warlord has no facing."""
    owner, tid = tile.split(":")
    tid, _, order = tid.partition("-")
    if tid[0] == "W":
        return f"{owner.replace('_', ' ')} warlord"
    kind = {"G": "gen", "C": "cav", "I": "inf"}[tid[0]]
    name = type_words(f"{kind}/{tid[-1]}" + (f"-{order}" if order else ""))
    return f"{owner.replace('_', ' ')} {name}" + (f" facing {facing(facing_name)}" if facing_name else "")


def tile_owner(tile) -> int:
    return tile >> 4 if isinstance(tile, int) else data().colours.index(tile.split(":")[0])


def facing(name: str) -> str:
    """``NE`` -> ``north-east``."""
    return FACINGS.get(name, name)


def quarter(name: str) -> str:
    """A board's quadrant (``NW``) as its place on the table: ``the top-left quarter``."""
    return f"the {QUARTERS.get(name, name)} quarter"


def turned(degrees: int | str) -> str:
    """A board's rotation: ``not turned``, ``turned a quarter clockwise``, ``turned half round``…"""
    return {0: "not turned", 90: "turned a quarter clockwise", 180: "turned half round",
            270: "turned three quarters clockwise"}.get(int(str(degrees).lstrip("r")), f"turned {degrees}°")
