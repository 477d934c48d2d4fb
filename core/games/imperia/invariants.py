"""Every invariant of the specification on one state, as a list of violations (empty = sound).

Called by the position reader and, after every action, by the property tests: tiles conserved
per colour and type (board + hand + pile = the game's tile set: 14 soldiers, none of a type the
options leave out), each tile at most once on the board, one top tile per stack (units only,
never on a covered or fortress space), legal facings (of each tile's class in the tile set), cubes on
their owner's top tiles, warlords on top and only for finished players, fortress sites legal,
hands refilled to three while the pile lasts.
"""

from __future__ import annotations

from imperial_lab.core.games.imperia.board import FORTRESS_ZONE_MASK, NTYPES, SPACES, WARLORD_INDEX, cheb, space_name
from imperial_lab.core.games.imperia.pending import P_DRAW, P_FORTRESS, P_ORDER, P_RECRUIT, P_TURN, P_OVER


def violations(st) -> list[str]:
    out: list[str] = []
    n = st.n
    tiles = st.game.tiles
    seen: set[int] = set()
    by_type = [[0] * NTYPES for _ in range(n)]
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
                continue
            by_type[tile >> 4][tiles.index_type[k]] += 1
            if st.facing[tile] not in tiles.facings[k]:
                out.append(f"{space_name(s)}: tile {tile} faces {st.facing[tile]}, not a facing of its class")
    for tile in range(16 * n):
        if tile not in seen and st.facing[tile] != -1:
            out.append(f"tile {tile} is off the board but has a facing")
    for p in range(n):
        for t in range(NTYPES):
            if by_type[p][t] + st.hand[p][t] + st.pile[p][t] != tiles.total[t]:
                out.append(f"seat {p}: type {t}: board {by_type[p][t]} + hand {st.hand[p][t]} + pile "
                           f"{st.pile[p][t]} != {tiles.total[t]}")
        c = st.cube[p]
        if c >= 0 and not (st.stacks[c] and st.stacks[c][-1] >> 4 == p):
            out.append(f"seat {p}: cube on {space_name(c)}, not on its own top tile")
        w = st.warlord[p]
        if (w >= 0) != (st.status[p] == 1):
            out.append(f"seat {p}: warlord placed {w >= 0} but status {st.status[p]}")
        if w >= 0 and not (st.stacks[w] and st.stacks[w][-1] == 16 * p + WARLORD_INDEX):
            out.append(f"seat {p}: warlord not on top of {space_name(w)}")
        f = st.fortress[p]
        if f >= 0 and not ((FORTRESS_ZONE_MASK >> f) & 1 and not (st.game.covered >> f) & 1):
            out.append(f"seat {p}: fortress on {space_name(f)} outside the zone")
        for q in range(p):
            if f >= 0 and st.fortress[q] >= 0 and cheb(f, st.fortress[q]) < st.game.fortress_min_distance:
                out.append(f"seats {q} and {p}: fortresses too close")
        if st.phase > P_FORTRESS and f < 0:
            out.append(f"seat {p}: no fortress after the fortress phase")
        mid_turn = st.phase in (P_DRAW, P_ORDER) and p == st.current
        recruiting = st.phase == P_RECRUIT
        if st.phase in (P_TURN, P_ORDER, P_DRAW) and st.status[p] == 0 and not mid_turn and not recruiting:
            held = sum(st.hand[p])
            if held != min(3, held + sum(st.pile[p])):
                out.append(f"seat {p}: hand of {held} while the pile holds {sum(st.pile[p])}")
        if st.phase < P_TURN and st.phase != P_RECRUIT and (sum(st.hand[p]) or seen):
            out.append(f"seat {p}: tiles drawn or placed before recruiting")
    if st.phase == P_OVER and any(s == 0 for s in st.status):
        out.append("game over with a player still playing")
    return out
