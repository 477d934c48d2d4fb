"""Imperia's position document (``State.to_json``), its reader and the observation of a player
(RULES.md §7.2); the builder of play positions for scenarios and fixtures is ``builders.build``.

The document (docs/imperia.md, "Position document") holds every field of the state, so
``game.state_from_json(state.to_json())`` rebuilds it exactly; the reader checks the structure
(NotationError naming the field) and then the invariants (``invariants.violations``).
"""

from __future__ import annotations

from imperial_lab.core.errors import NotationError
from imperial_lab.core.jsonio import clip
from imperial_lab.core.games.imperia.board import DIRECTIONS, QUADRANTS, SIDES, SPACES, TYPE_NAMES, rc
from imperial_lab.core.games.imperia.data import data
from imperial_lab.core.games.imperia.pending import PHASES

FORMAT = 1
COLOURS = data().colours
STATUS = ("playing", "finished", "retired")


def tile_name(tile: int, ids: tuple) -> str:
    """``red:C3d``: the colour and the tile's id in the game's tile set (``game.tiles.ids``)."""
    return f"{COLOURS[tile >> 4]}:{ids[tile & 15]}"


def _space_or_none(s: int):
    return rc(s) if s >= 0 else None


def _counts(counts: tuple) -> dict:
    return {TYPE_NAMES[t]: c for t, c in enumerate(counts) if c}


def state_to_document(st) -> dict:
    stacks = []
    for s in range(SPACES):
        if st.stacks[s]:
            stacks.append({"space": rc(s), "tiles": [tile_name(t, st.game.tiles.ids) for t in st.stacks[s]],
                           "facings": [DIRECTIONS[st.facing[t]] if st.facing[t] >= 0 else None for t in st.stacks[s]]})
    players = []
    for p in range(st.n):
        players.append({"seat": p, "colour": COLOURS[p], "hand": _counts(st.hand[p]), "pile": _counts(st.pile[p]),
                        "cube": _space_or_none(st.cube[p]), "warlord": _space_or_none(st.warlord[p]),
                        "status": STATUS[st.status[p]], "campaigns": st.campaigns[p], "redraws": st.redraws[p],
                        "battles": st.battles[p]})
    return {
        "game": "imperia", "format": FORMAT, "config": st.game.config,
        "phase": PHASES[st.phase], "to_move": st.current, "start_seat": st.start if st.start >= 0 else None,
        "step": st.step, "ply": st.ply,
        "boards": [{"board": b + 1, "side": SIDES[side], "quadrant": QUADRANTS[q], "rotation": r * 90}
                   for b, side, q, r in st.boards],
        "terrain": [st.terrain[r * 8:r * 8 + 8] for r in range(8)],
        "fortresses": [_space_or_none(f) for f in st.fortress],
        "stacks": stacks, "players": players, "general": _space_or_none(st.general),
    }


def observation(st, player: int | None) -> dict:
    """The public document plus ``player``'s own hand (§7.2). For every seat: hand and pile sizes;
    for the others the public multiset hand ∪ pile (``unseen``), never the split."""
    doc = state_to_document(st)
    for entry in doc["players"]:
        p = entry["seat"]
        entry["hand_size"], entry["pile_size"] = sum(st.hand[p]), sum(st.pile[p])
        if p != player:
            entry["unseen"] = _counts(tuple(h + k for h, k in zip(st.hand[p], st.pile[p])))
            del entry["hand"], entry["pile"]
    doc["observer"] = player
    return doc


# ----- reading -----

def _bad(where: str, why: str):
    raise NotationError(f"position.{where}: {why}")


def _get(doc: dict, key: str, where: str = ""):
    if key not in doc:
        _bad(where + key, "missing")
    return doc[key]


def _int(value, low: int, high: int, where: str) -> int:
    if type(value) is not int or not low <= value <= high:
        _bad(where, f"must be a whole number {low}..{high}, got {clip(value)}")
    return value


def _space(value, where: str, allow_none: bool = False) -> int:
    if value is None and allow_none:
        return -1
    if (not isinstance(value, list) or len(value) != 2
            or not all(type(x) is int and 0 <= x < 8 for x in value)):
        _bad(where, f"a space is [row, col] with 0..7, got {clip(value)}")
    return value[0] * 8 + value[1]


def _type_counts(value, total: tuple, where: str) -> tuple:
    if not isinstance(value, dict) or not set(value) <= set(TYPE_NAMES):
        _bad(where, f"an object of tile-type counts like {{'inf/o': 2}}, got {clip(value)}")
    return tuple(_int(value.get(name, 0), 0, total[t], f"{where}.{name}") for t, name in enumerate(TYPE_NAMES))


def _tile(text, n: int, ids: tuple, where: str) -> int:
    if not isinstance(text, str) or text.count(":") != 1:
        _bad(where, f"a tile is written 'colour:ID' (e.g. 'red:C3d'), got {clip(text)}")
    colour, tid = text.split(":")
    if colour not in COLOURS[:n] or tid not in ids or tid == "F":
        _bad(where, f"unknown tile {clip(text)} for {n} players and this game's tiles")
    return 16 * COLOURS.index(colour) + ids.index(tid)


def state_from_document(st, doc, check: bool = True):
    """``st`` (a blank ``State`` of the game) set to the position of ``doc``; NotationError naming
    the field when it is malformed or (``check``) breaks an invariant of the rules."""
    game = st.game
    if not isinstance(doc, dict):
        raise NotationError(f"position: must be an object, got {clip(doc)}")
    if doc.get("game") != "imperia" or doc.get("format") != FORMAT:
        _bad("game", f"an Imperia position of format {FORMAT} expected")
    if _get(doc, "config") != game.config:
        _bad("config", "the position was made for another configuration than this game's")
    n = game.num_players
    phase = _get(doc, "phase")
    if phase not in PHASES:
        _bad("phase", f"one of {', '.join(PHASES)}, got {clip(phase)}")
    st.phase = PHASES.index(phase)
    st.current = _int(_get(doc, "to_move"), -1, n - 1, "to_move")
    start = _get(doc, "start_seat")
    st.start = -1 if start is None else _int(start, 0, n - 1, "start_seat")
    st.step = _int(_get(doc, "step"), 0, 4, "step")
    st.ply = _int(_get(doc, "ply"), 0, 10_000, "ply")
    boards = _get(doc, "boards")
    if not isinstance(boards, list) or len(boards) > 4:
        _bad("boards", "a list of at most 4 placed boards")
    placed = []
    for k, b in enumerate(boards):
        where = f"boards[{k}]"
        if not isinstance(b, dict) or b.get("side") not in ("A", "B") or b.get("quadrant") not in QUADRANTS \
                or type(b.get("rotation")) is not int or b["rotation"] not in (0, 90, 180, 270):
            _bad(where, f"{{board: 1..4, side: A|B, quadrant: NW|NE|SW|SE, rotation: 0|90|180|270}}, got {clip(b)}")
        placed.append((_int(b.get("board"), 1, 4, f"{where}.board") - 1, SIDES.index(b["side"]),
                       QUADRANTS.index(b["quadrant"]), b["rotation"] // 90))
    st.boards = tuple(placed)
    terrain = _get(doc, "terrain")
    if (not isinstance(terrain, list) or len(terrain) != 8
            or not all(isinstance(r, str) and len(r) == 8 and set(r) <= set("FMVC.") for r in terrain)):
        _bad("terrain", "8 strings of 8 letters F/M/V/C or '.'")
    st.terrain = "".join(terrain)
    forts = _get(doc, "fortresses")
    if not isinstance(forts, list) or len(forts) != n:
        _bad("fortresses", f"a list of {n} spaces or nulls")
    st.fortress = [_space(f, f"fortresses[{p}]", True) for p, f in enumerate(forts)]
    for f in st.fortress:
        if f >= 0:
            st.blocked |= 1 << f
    _read_stacks(st, _get(doc, "stacks"), n)
    players = _get(doc, "players")
    if not isinstance(players, list) or len(players) != n:
        _bad("players", f"a list of {n} players")
    for p, entry in enumerate(players):
        where = f"players[{p}]."
        if not isinstance(entry, dict):
            _bad(f"players[{p}]", "must be an object")
        st.hand[p] = _type_counts(_get(entry, "hand", where), game.tiles.total, where + "hand")
        st.pile[p] = _type_counts(_get(entry, "pile", where), game.tiles.total, where + "pile")
        st.cube[p] = _space(_get(entry, "cube", where), where + "cube", True)
        st.warlord[p] = _space(_get(entry, "warlord", where), where + "warlord", True)
        if entry.get("status") not in STATUS:
            _bad(where + "status", f"one of {', '.join(STATUS)}")
        st.status[p] = STATUS.index(entry["status"])
        for key in ("campaigns", "redraws", "battles"):
            getattr(st, key)[p] = _int(_get(entry, key, where), 0, 10_000, where + key)
    st.general = _space(_get(doc, "general"), "general", True)
    _check_tiles(st)
    if check:
        from imperial_lab.core.games.imperia.invariants import violations
        problems = violations(st)
        if problems:
            raise NotationError("position: " + "; ".join(problems[:5]))
        if not st.is_terminal() and not st.legal_actions():
            raise NotationError(f"position: the game goes on but {PHASES[st.phase]} has no legal action")
    return st


def _check_tiles(st) -> None:
    """Checked even without the invariants, since a placement takes the next tile of its type by
    counting (``_apply_place``): no colour holds more tiles of a type than it owns, and the board
    holds the first tiles of each type, each once."""
    tiles, seen = st.game.tiles, set()
    for s in range(SPACES):
        for tile in st.stacks[s]:
            if tile in seen:
                _bad("stacks", f"the tile {tile_name(tile, tiles.ids)} stands twice on the board")
            seen.add(tile)
    for p in range(st.n):
        for t in tiles.types:
            ids = [16 * p + k for k in tiles.type_ids[t]]
            on_board = sum(tile in seen for tile in ids)
            if on_board + st.hand[p][t] + st.pile[p][t] > tiles.total[t]:
                _bad(f"players[{p}]", f"{on_board} {TYPE_NAMES[t]} on the board, {st.hand[p][t]} in the hand and "
                                      f"{st.pile[p][t]} in the pile: more than the {tiles.total[t]} of the colour")
            if any(tile not in seen for tile in ids[:on_board]):
                _bad("stacks", f"the {TYPE_NAMES[t]} tiles of {COLOURS[p]} on the board are not its first "
                               f"{on_board} ({', '.join(tile_name(x, tiles.ids) for x in ids[:on_board])}): tiles "
                               f"are placed in id order (§6.5)")


def _read_stacks(st, stacks, n: int) -> None:
    if not isinstance(stacks, list) or len(stacks) > SPACES:
        _bad("stacks", "a list of {space, tiles, facings}")
    seen = set()
    for k, entry in enumerate(stacks):
        where = f"stacks[{k}]"
        if not isinstance(entry, dict):
            _bad(where, "must be an object")
        s = _space(_get(entry, "space", where + "."), where + ".space")
        tiles, facings = _get(entry, "tiles", where + "."), _get(entry, "facings", where + ".")
        if s in seen or not isinstance(tiles, list) or not tiles or not isinstance(facings, list) \
                or len(facings) != len(tiles) or len(tiles) > 16 * n:
            _bad(where, "one entry per space, with as many facings (or nulls) as tiles")
        seen.add(s)
        ids = tuple(_tile(t, n, st.game.tiles.ids, f"{where}.tiles[{i}]") for i, t in enumerate(tiles))
        for i, (tile, f) in enumerate(zip(ids, facings)):
            if f is None:
                continue
            if f not in DIRECTIONS:
                _bad(f"{where}.facings[{i}]", f"a direction {'/'.join(DIRECTIONS)} or null, got {clip(f)}")
            st.facing[tile] = DIRECTIONS.index(f)
        st.stacks[s] = ids
