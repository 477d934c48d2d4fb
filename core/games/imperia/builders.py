"""A builder of Imperia's play positions for scenarios and fixtures, written compactly (the
notation of RULES.md §12): it writes the position document and reads it with the game's reader."""

from __future__ import annotations

from imperial_lab.core.games.imperia.board import DIRECTIONS, FACINGS, NTYPES, TYPE_CLASS, TYPE_INDEX
from imperial_lab.core.games.imperia.game import Imperia
from imperial_lab.core.games.imperia.position import COLOURS, FORMAT, _counts, tile_name
from imperial_lab.core.games.imperia.state import State

LETTERS = {"R": 0, "Y": 1, "B": 2, "O": 3}
BASE_FORTRESSES = {"R": (1, 2), "Y": (1, 6), "B": (6, 5), "O": (5, 1)}  # RULES.md §12 base position


def _seat(who) -> int:
    return LETTERS[who] if isinstance(who, str) else who


def build(players: int = 4, fortresses: dict | None = None, stacks: dict | None = None, cubes: dict | None = None,
          hands: dict | None = None, piles: dict | None = None, to_move="R", terrain: list | None = None,
          phase: str = "turn", options: dict | None = None, check: bool = True) -> State:
    """A position of the play phase, written compactly (the notation of RULES.md §12):

    * ``fortresses`` {seat: (r, c)} (seats as 0..3 or R/Y/B/O; default the §12 base position);
    * ``stacks`` {(r, c): ["Y-inf/o", "R-cav/o>E", "B-war"]} bottom→top, ``>F`` a facing;
    * ``cubes`` {seat: (r, c)}: each player's front;
    * ``hands`` {seat: ["inf/o", ...]}: default the first three types left, in type order;
    * ``piles`` {seat: {"inf/o": 2}}: default every tile not on the board nor in the hand;
    * ``terrain``: 8 strings F/M/V/C (default all fields around the castle);
    * ``options``: more config keys of the game (``general_orders``, ``uncovered_tiles_score``, …);
      tokens then name the types of its tile set (``R-gen/o-mob``).

    A warlord on the board marks its owner finished. ``check=False`` skips the invariants, for
    scenarios that leave tiles unaccounted for (RULES.md IM-11).
    """
    rows = terrain or ["FFFFFFFF"] * 3 + ["FFFCCFFF"] * 2 + ["FFFFFFFF"] * 3
    game = Imperia({"game": "imperia", "players": players, "start_seat": 0, "terrain_override": rows,
                    **(options or {})})
    tileset = game.tiles
    fortresses = fortresses if fortresses is not None else {k: v for k, v in BASE_FORTRESSES.items()
                                                          if LETTERS[k] < players}
    on_board = [[0] * NTYPES for _ in range(players)]
    stack_docs, warlords = [], {}
    for (r, c), tokens in (stacks or {}).items():
        tiles, facings = [], []
        for token in tokens:
            owner, _, rest = token.partition("-")
            p = LETTERS[owner]
            body, _, facing = rest.partition(">")
            if body == "war":
                tiles.append(f"{COLOURS[p]}:W")
                warlords[p] = [r, c]
            else:
                t = TYPE_INDEX[body]
                tiles.append(tile_name(16 * p + tileset.type_ids[t][on_board[p][t]], tileset.ids))
                on_board[p][t] += 1
                facing = facing or DIRECTIONS[FACINGS[TYPE_CLASS[t]][0]]
            facings.append(facing or None)
        stack_docs.append({"space": [r, c], "tiles": tiles, "facings": facings})
    hands = {_seat(k): v for k, v in (hands or {}).items()}
    piles = {_seat(k): v for k, v in (piles or {}).items()}
    cubes = {_seat(k): v for k, v in (cubes or {}).items()}
    player_docs = []
    for p in range(players):
        left = [tileset.total[t] - on_board[p][t] for t in range(NTYPES)]
        if p in hands:
            hand = [0] * NTYPES
            for name in hands[p]:
                hand[TYPE_INDEX[name]] += 1
        else:
            hand, budget = [0] * NTYPES, 3
            for t in range(NTYPES):
                take = min(left[t], budget)
                hand[t], budget = take, budget - take
        pile = [0] * NTYPES
        if p in piles:
            for name, count in piles[p].items():
                pile[TYPE_INDEX[name]] = count
        else:
            pile = [left[t] - hand[t] for t in range(NTYPES)]
        player_docs.append({"seat": p, "colour": COLOURS[p], "hand": _counts(tuple(hand)), "pile": _counts(tuple(pile)),
                            "cube": list(cubes[p]) if p in cubes else None, "warlord": warlords.get(p),
                            "status": "finished" if p in warlords else "playing", "campaigns": 0, "redraws": 0,
                            "battles": 0})
    doc = {"game": "imperia", "format": FORMAT, "config": game.config, "phase": phase,
           "to_move": -1 if phase == "over" else _seat(to_move), "start_seat": 0, "step": players, "ply": 0,
           "boards": [], "terrain": rows,
           "fortresses": [list(fortresses[k]) if k in fortresses else None
                          for k in [next((x for x in fortresses if _seat(x) == p), None) for p in range(players)]],
           "stacks": stack_docs, "players": player_docs, "general": None}
    return game.state_from_json(doc, check)
