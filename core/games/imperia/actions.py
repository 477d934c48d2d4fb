"""Imperia's actions: small int tuples in the hot path, a stable text form for people and logs.

An action is a tuple whose first item is its type; spaces are ints ``r * 8 + c``, facings 0..7
(N NE E SE S SW W NW), tile types 0..9 (gen/o gen/d cav/o cav/d inf/o inf/d, then the generals of
a fixed order gen/o-mob gen/d-mob gen/o-dir gen/d-dir, G18). The text form names
everything from the action alone (never from the position), so a move log can be written from the
final state (docs/imperia.md, "Action notation"):

    start 2                      chance: the start seat (G25, when the config does not fix it)
    random board 3B r90          chance: the 3-player board, side and rotation, in quadrant SE (G26)
    board 2A NW r180             place board 2 side A in quadrant NW turned 180° clockwise (§3.2)
    fortress 1,2                 place the fortress on row 1, column 2 (§3.3)
    draw red inf/o               chance: red draws an orthogonal infantry from its pile (§3.4, §6.5)
    place cav/d 3,2 SE           place a unit from the hand, arrow facing SE (§6.4, §6.5)
    warlord 2,5                  place the warlord (§6.7)
    mobilise 2,3 E               general's order: move the stack on 2,3, the soldier then faces E (§6.6)
    swap own 2,2 2,3 cube 2,3 N  general's order: exchange two own soldiers, the cube goes to 2,3
    swap enemy 4,3 3,5 N         general's order: own soldier on 4,3 takes the enemy's place on 3,5
    retire                       no move at all (G21; unreachable under the default rules)
"""

from __future__ import annotations

from imperial_lab.core.errors import NotationError
from imperial_lab.core.jsonio import action_words, clip
from imperial_lab.core.games.imperia.board import DIRECTIONS, QUADRANTS, ROTATIONS, SIDES, TYPE_INDEX, TYPE_NAMES, space_name
from imperial_lab.core.games.imperia.data import data

START, RANDOM_BOARD, BOARD, FORTRESS, DRAW, PLACE, WARLORD, MOBILISE, SWAP_OWN, SWAP_ENEMY, RETIRE = range(11)
CHANCE_TYPES = (START, RANDOM_BOARD, DRAW)

_DIRECTION_INDEX = {name: d for d, name in enumerate(DIRECTIONS)}
COLOURS = data().colours


def action_text(a: tuple) -> str:
    """The documented text form of action ``a``."""
    t = a[0]
    if t == PLACE:
        return f"place {TYPE_NAMES[a[1]]} {space_name(a[2])} {DIRECTIONS[a[3]]}"
    if t == DRAW:
        return f"draw {COLOURS[a[1]]} {TYPE_NAMES[a[2]]}"
    if t == WARLORD:
        return f"warlord {space_name(a[1])}"
    if t == MOBILISE:
        return f"mobilise {space_name(a[1])} {DIRECTIONS[a[2]]}"
    if t == SWAP_OWN:
        return f"swap own {space_name(a[1])} {space_name(a[2])} cube {space_name(a[3])} {DIRECTIONS[a[4]]}"
    if t == SWAP_ENEMY:
        return f"swap enemy {space_name(a[1])} {space_name(a[2])} {DIRECTIONS[a[3]]}"
    if t == FORTRESS:
        return f"fortress {space_name(a[1])}"
    if t == BOARD:
        return f"board {a[1] + 1}{SIDES[a[2]]} {QUADRANTS[a[3]]} r{ROTATIONS[a[4]]}"
    if t == RANDOM_BOARD:
        return f"random board {a[1] + 1}{SIDES[a[2]]} r{ROTATIONS[a[3]]}"
    if t == START:
        return f"start {a[1]}"
    if t == RETIRE:
        return "retire"
    raise NotationError(f"not an Imperia action: {clip(a)}")


def parse_action(text: str) -> tuple:
    """The action written ``text`` (the grammar of the module docstring); NotationError if not."""
    if not isinstance(text, str):
        raise NotationError(f"an action text must be a string, got {clip(text)}")
    words = action_words(text)
    try:
        return _parse(words)
    except (KeyError, ValueError, IndexError):
        raise NotationError(f"cannot read the Imperia action {clip(text)} (see docs/imperia.md, "
                            f"'Action notation')") from None


def _parse(w: list[str]) -> tuple:
    head, n = (w[0] if w else ""), len(w)
    if head == "place" and n == 4:
        return PLACE, TYPE_INDEX[w[1]], _space(w[2]), _direction(w[3])
    if head == "draw" and n == 3:
        return DRAW, COLOURS.index(w[1]), TYPE_INDEX[w[2]]
    if head == "warlord" and n == 2:
        return WARLORD, _space(w[1])
    if head == "mobilise" and n == 3:
        return MOBILISE, _space(w[1]), _direction(w[2])
    if head == "swap" and n == 7 and w[1] == "own" and w[4] == "cube":
        return SWAP_OWN, _space(w[2]), _space(w[3]), _space(w[5]), _direction(w[6])
    if head == "swap" and n == 5 and w[1] == "enemy":
        return SWAP_ENEMY, _space(w[2]), _space(w[3]), _direction(w[4])
    if head == "fortress" and n == 2:
        return FORTRESS, _space(w[1])
    if head == "board" and n == 4:
        board, side = _board_side(w[1])
        return BOARD, board, side, QUADRANTS.index(w[2]), _rotation(w[3])
    if head == "random" and n == 4 and w[1] == "board":
        board, side = _board_side(w[2])
        return RANDOM_BOARD, board, side, _rotation(w[3])
    if head == "start" and n == 2 and w[1].isascii() and w[1].isdigit() and len(w[1]) == 1:
        return START, int(w[1])
    if head == "retire" and n == 1:
        return (RETIRE,)
    raise ValueError(head)


def _space(word: str) -> int:
    r, c = word.split(",")
    if not (len(r) == len(c) == 1 and r in "01234567" and c in "01234567"):
        raise ValueError(word)
    return int(r) * 8 + int(c)


def _direction(word: str) -> int:
    return _DIRECTION_INDEX[word]


def _board_side(word: str) -> tuple[int, int]:
    if len(word) != 2 or word[0] not in "1234" or word[1] not in SIDES:
        raise ValueError(word)
    return int(word[0]) - 1, SIDES.index(word[1])


def _rotation(word: str) -> int:
    if word[:1] != "r":
        raise ValueError(word)
    return tuple(str(r) for r in ROTATIONS).index(word[1:])
