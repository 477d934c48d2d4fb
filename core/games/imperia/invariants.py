"""Every invariant of the specification on one state, as a list of violations (empty = sound).

Called by the position reader and, after every action, by the property tests. Tiles: conserved
per colour and type (board + hand + pile = the game's tile set: 14 soldiers, none of a type the
options leave out), each tile at most once on the board and placed in id order (the board holds
the first k tiles of a type), one top tile per stack (units only, never on a covered or fortress
space), legal facings (of each tile's class in the tile set; none for a warlord), cubes on their
owners' top tiles (and a cube for a player with every tile placed), warlords on top and only for finished
players, fortress sites legal, hands refilled to three while the pile lasts. The setup: the start
seat drawn exactly after the start phase, the boards and the terrain they make, the step of each
phase and the seat it gives, the fortresses placed so far in the setup's order, the recruits' hands.
Play: the seat to move is playing, a general waiting for its order is the mover's front and has
an order to give, a draw has a tile to draw, the counters count placements.
"""

from __future__ import annotations

from imperial_lab.core.games.imperia.board import (FORTRESS_ZONE_MASK, GENERAL_TYPES, NTYPES, SPACES, WARLORD_INDEX, cheb,
                                      space_name, terrain_of, HAND_SIZE, RANDOM_QUADRANT)
from imperial_lab.core.games.imperia.pending import (P_BOARD, P_DRAW, P_FORTRESS, P_ORDER, P_OVER, P_RANDOM_BOARD, P_RECRUIT,
                                                     P_START, P_TURN, PHASES)


def violations(st) -> list[str]:
    out: list[str] = []
    placed = _tiles(st, out)
    _players(st, placed, out)
    _setup(st, out)
    _play(st, out)
    return out


def _tiles(st, out: list[str]) -> list[list[list[int]]]:
    """The board's tiles; returns each seat's placed template indices by type (``[p][t]``)."""
    n, tiles = st.n, st.game.tiles
    seen: set[int] = set()
    placed: list[list[list[int]]] = [[[] for _ in range(NTYPES)] for _ in range(n)]
    for s in range(SPACES):
        stack = st.stacks[s]
        if stack and (st.blocked >> s) & 1:
            out.append(f"{space_name(s)}: tiles on a covered or fortress space")
        for level, tile in enumerate(stack):
            if tile in seen or tile >> 4 >= n or tile & 15 == 0:
                out.append(f"{space_name(s)}: tile {tile} twice, of no player, or a fortress in a stack")
                continue
            seen.add(tile)
            k = tile & 15
            if k == WARLORD_INDEX:
                if level != len(stack) - 1:
                    out.append(f"{space_name(s)}: a warlord is covered")
                if st.warlord[tile >> 4] != s:
                    out.append(f"{space_name(s)}: warlord not recorded for its player")
                if st.facing[tile] != -1:
                    out.append(f"{space_name(s)}: a warlord has no facing")
                continue
            placed[tile >> 4][tiles.index_type[k]].append(k)
            if st.facing[tile] not in tiles.facings[k]:
                out.append(f"{space_name(s)}: tile {tile} faces {st.facing[tile]}, not a facing of its class")
    for tile in range(16 * n):
        if tile not in seen and st.facing[tile] != -1:
            out.append(f"tile {tile} is off the board but has a facing")
    for p in range(n):
        for t in range(NTYPES):
            on_board = len(placed[p][t])
            if on_board + st.hand[p][t] + st.pile[p][t] != tiles.total[t]:
                out.append(f"seat {p}: type {t}: board {on_board} + hand {st.hand[p][t]} + pile "
                           f"{st.pile[p][t]} != {tiles.total[t]}")
            elif sorted(placed[p][t]) != list(tiles.type_ids[t][:on_board]):
                out.append(f"seat {p}: type {t}: the tiles on the board are not the first {on_board} of the type "
                           f"(tiles are placed in id order, §6.5)")
    return placed


def _players(st, placed, out: list[str]) -> None:
    n = st.n
    for p in range(n):
        units = sum(len(k) for k in placed[p])
        c = st.cube[p]
        if c >= 0 and not (st.stacks[c] and st.stacks[c][-1] >> 4 == p):
            out.append(f"seat {p}: cube on {space_name(c)}, not on its own top tile")
        if c < 0 and st.status[p] == 0 and not sum(st.hand[p]) + sum(st.pile[p]):
            out.append(f"seat {p}: every tile placed but no cube (§6.5)")
        w = st.warlord[p]
        if (w >= 0) != (st.status[p] == 1):
            out.append(f"seat {p}: warlord placed {w >= 0} but status {st.status[p]}")
        if w >= 0 and not (st.stacks[w] and st.stacks[w][-1] == 16 * p + WARLORD_INDEX):
            out.append(f"seat {p}: warlord not on top of {space_name(w)}")
        if st.status[p] == 2 and c >= 0:
            out.append(f"seat {p}: retired after placing (only a player who could never place retires, G21)")
        if st.campaigns[p] > units or st.battles[p] > units + (w >= 0):
            out.append(f"seat {p}: {st.campaigns[p]} campaigns and {st.battles[p]} battles in {units} placements")
        f = st.fortress[p]
        if f >= 0 and not ((FORTRESS_ZONE_MASK >> f) & 1 and not ((st.game.covered | st.game.setup.forbidden) >> f) & 1):
            out.append(f"seat {p}: fortress on {space_name(f)} outside the zone or on a forbidden site (§3.3)")
        for q in range(p):
            if f >= 0 and st.fortress[q] >= 0 and cheb(f, st.fortress[q]) < st.game.fortress_min_distance:
                out.append(f"seats {q} and {p}: fortresses too close")
        mid_turn = st.phase in (P_DRAW, P_ORDER) and p == st.current
        if st.phase in (P_TURN, P_ORDER, P_DRAW) and st.status[p] == 0 and not mid_turn:
            held = sum(st.hand[p])
            if held != min(HAND_SIZE, held + sum(st.pile[p])):
                out.append(f"seat {p}: hand of {held} while the pile holds {sum(st.pile[p])}")
        if st.phase < P_TURN and (any(st.stacks) or (st.phase != P_RECRUIT and sum(st.hand[p]))):
            out.append(f"seat {p}: tiles drawn or placed before recruiting")
    if st.phase == P_OVER and any(s == 0 for s in st.status):
        out.append("game over with a player still playing")


def _setup(st, out: list[str]) -> None:
    """The start seat, the boards and terrain, the step and seat of each setup phase, the fortresses."""
    game, setup, phase, step = st.game, st.game.setup, st.phase, st.step
    if (st.start < 0) != (phase == P_START) or (game.start_seat is not None and st.start != game.start_seat):
        out.append(f"start seat {st.start} in phase {PHASES[phase]} (drawn at the start, or the config's, §3.1)")
    boards = st.boards
    if len({b for b, _, _, _ in boards}) != len(boards) or len({q for _, _, q, _ in boards}) != len(boards):
        out.append("boards: a board or a quadrant is used twice (§3.2)")
    if phase in (P_RANDOM_BOARD, P_BOARD):
        expected = step
    elif phase == P_START or game.terrain_override is not None:
        expected = 0
    else:
        expected = 4
    if len(boards) != expected:
        out.append(f"boards: {len(boards)} placed, {expected} expected in phase {PHASES[phase]} (step {step})")
    for k, (_, _, quadrant, _) in enumerate(boards):
        if k < len(setup.board_placers) and setup.board_placers[k] < 0 and quadrant != RANDOM_QUADRANT:
            out.append(f"boards[{k}]: the chance board lies in the SE quadrant (G26)")
    terrain = game.terrain_override if game.terrain_override is not None else terrain_of(game.sides, boards)
    if st.terrain != terrain:
        out.append("terrain: not the terrain of the placed boards (§3.2)")
    order = setup.fortress_order
    if phase in (P_START, P_RANDOM_BOARD, P_BOARD):
        ok_step, done, mover = phase == P_START and step == 0, 0, -1
        if phase != P_START and step < 4:
            ok_step = (setup.board_placers[step] < 0) == (phase == P_RANDOM_BOARD)
            mover = -1 if phase == P_RANDOM_BOARD else st.rel(setup.board_placers[step])
    elif phase == P_FORTRESS:
        ok_step, done = step < len(order), step
        mover = st.rel(order[step]) if ok_step else st.current
    elif phase == P_RECRUIT:
        ok_step, done = step < st.n, len(order)
        mover = st.rel(step) if ok_step else st.current
    else:
        ok_step, done, mover = step == st.n, len(order), st.current
    if not ok_step or st.current != mover:
        out.append(f"step {step} and seat {st.current} do not fit phase {PHASES[phase]} (§3)")
    elif phase <= P_RECRUIT:
        having = {st.rel(order[k]) for k in range(done)}
        if {p for p in range(st.n) if st.fortress[p] >= 0} != having:
            out.append(f"fortresses: placed for seats {sorted(p for p in range(st.n) if st.fortress[p] >= 0)}, "
                       f"expected {sorted(having)} (the order of §3.3)")
        if phase == P_RECRUIT:
            _recruits(st, out)
    elif any(f < 0 for f in st.fortress):
        out.append("a fortress is missing after the fortress phase")


def _recruits(st, out: list[str]) -> None:
    """§3.4: the seats before the one drawing hold three tiles (never three generals), the rest none."""
    for k in range(st.n):
        p = st.rel(k)
        held = sum(st.hand[p])
        generals = sum(st.hand[p][g] for g in GENERAL_TYPES)
        if (k < st.step and (held != HAND_SIZE or generals == HAND_SIZE)) or (k == st.step and held >= HAND_SIZE) \
                or (k > st.step and held):
            out.append(f"seat {p}: a hand of {held} while recruiting seat {st.current} (§3.4)")


def _play(st, out: list[str]) -> None:
    """The seat to move is playing; the general of an order; a draw's pile."""
    phase, p = st.phase, st.current
    if (phase == P_OVER and p != -1) or (phase in (P_TURN, P_ORDER, P_DRAW) and p < 0):
        out.append(f"seat {p} to move in phase {PHASES[phase]}")
        return
    if phase in (P_TURN, P_ORDER, P_DRAW) and st.status[p] != 0:
        out.append(f"seat {p} is to move in phase {PHASES[phase]} but has finished")
        return
    if phase == P_DRAW and (not sum(st.pile[p]) or sum(st.hand[p]) != HAND_SIZE - 1):
        out.append(f"seat {p} draws with a hand of {sum(st.hand[p])} and a pile of {sum(st.pile[p])} (§6.5)")
    if phase == P_ORDER and sum(st.pile[p]) and sum(st.hand[p]) != HAND_SIZE - 1:
        out.append(f"seat {p} gives an order with a hand of {sum(st.hand[p])} (§6.5)")
    g = st.general
    if (g >= 0) != (phase == P_ORDER):
        out.append(f"general {space_name(g) if g >= 0 else None} in phase {PHASES[phase]}: a general waits for its "
                   f"order only in the order phase (§6.6)")
    elif g >= 0:
        top = st.stacks[g][-1] if st.stacks[g] else -1
        if top < 0 or top >> 4 != p or st.game.tiles.index_type[top & 15] not in GENERAL_TYPES or st.cube[p] != g:
            out.append(f"general: {space_name(g)} is not the front of seat {p} with its general on top (§6.6)")
        else:
            from imperial_lab.core.games.imperia.rules import legal_orders
            if not legal_orders(st, p, g):
                out.append(f"general: the general on {space_name(g)} has no order to give (§6.6)")
