"""Imperia's play rules (RULES.md §6): next space, formations, entering, the turn's options and
the generals' orders. Plain functions over a State's flat fields.

A stack is a tuple of tile ids bottom→top; ``tile >> 4`` is its colour (= seat) and ``tile & 15``
its template index (core/games/imperia/board.py). Protection (§6.2) is computed on the current
position when asked and cached on the state until the next action (G12).
"""

from __future__ import annotations

from imperial_lab.core.games.imperia.actions import MOBILISE, PLACE, RETIRE, SWAP_ENEMY, SWAP_OWN, WARLORD
from imperial_lab.core.games.imperia.board import (ADJACENT, DIRECT_ORDER, FACINGS, INDEX_RANK, INDEX_SOLDIER, INDEX_STEP,
                                      MOBILISE_ORDER, SPACES, TARGET, TYPE_CLASS, TYPE_ORDERS, TYPE_RANK,
                                      WARLORD_INDEX, WARLORD_RANK)


def top(state, s: int) -> int:
    stack = state.stacks[s]
    return stack[-1] if stack else -1


def valid(state, s: int) -> bool:
    """On the board and playable: not covered, no fortress (§6.1)."""
    return s >= 0 and not (state.blocked >> s) & 1


def next_space(state, p: int) -> int:
    """N(p) of §6.1: the space the front's arrow designates; -1 without a front, for a warlord
    front or off the board."""
    f = state.cube[p]
    if f < 0:
        return -1
    t = top(state, f)
    k = INDEX_STEP[t & 15]
    if not k:
        return -1
    return TARGET[k][f][state.facing[t]]


def exits(state, p: int) -> list[int]:
    """Playable spaces adjacent to p's fortress."""
    f = state.fortress[p]
    return [e for e in ADJACENT[f] if not (state.blocked >> e) & 1] if f >= 0 else []


def own_spaces(state, p: int) -> list[int]:
    stacks = state.stacks
    return [s for s in range(SPACES) if stacks[s] and stacks[s][-1] >> 4 == p]


def components(state, p: int) -> list[tuple[list[int], bool]]:
    """The connected components of Own(p) under orthogonal adjacency, each with whether it is
    anchored (a space adjacent to p's fortress) (§6.2)."""
    own = set(own_spaces(state, p))
    anchor = set(ADJACENT[state.fortress[p]]) if state.fortress[p] >= 0 else set()
    out = []
    while own:
        start = own.pop()
        comp, todo = [start], [start]
        while todo:
            s = todo.pop()
            for t in ADJACENT[s]:
                if t in own:
                    own.discard(t)
                    comp.append(t)
                    todo.append(t)
        out.append((comp, any(s in anchor for s in comp)))
    return out


def formations(state, p: int) -> list[list[int]]:
    """The anchored components with the most spaces (all of them on a tie, G11)."""
    anchored = [c for c, a in components(state, p) if a]
    if not anchored:
        return []
    most = max(len(c) for c in anchored)
    return [c for c in anchored if len(c) == most]


def cut_vertices(comp: list[int], anchor: set[int]) -> set[int]:
    """Spaces of ``comp`` whose removal disconnects another space of it from the fortress vertex
    (the protection test of §6.2: BFS from the fortress in H_C − s)."""
    members = set(comp)
    out = set()
    for s in comp:
        seen = {t for t in comp if t in anchor and t != s}
        todo = list(seen)
        while todo:
            u = todo.pop()
            for v in ADJACENT[u]:
                if v in members and v != s and v not in seen:
                    seen.add(v)
                    todo.append(v)
        if len(seen) < len(comp) - 1:
            out.add(s)
    return out


def protected_mask(state, q: int) -> int:
    """Bit mask of q's spaces that other players may not cover or swap (§6.2): q's front, q's
    warlord, and the cut vertices of q's formations. Cached until the next action."""
    cached = state.cache.get(q)
    if cached is not None:
        return cached
    m = 0
    if state.cube[q] >= 0:
        m |= 1 << state.cube[q]
    if state.warlord[q] >= 0:
        m |= 1 << state.warlord[q]
    anchor = set(ADJACENT[state.fortress[q]]) if state.fortress[q] >= 0 else set()
    for comp in formations(state, q):
        for s in cut_vertices(comp, anchor):
            m |= 1 << s
    state.cache[q] = m
    return m


def can_enter(state, p: int, rank: int, s: int) -> bool:
    """§6.3: may a unit of p with ``rank`` go onto s (a placement or a swap's target)?"""
    if not valid(state, s):
        return False
    stack = state.stacks[s]
    if not stack:
        return True
    u = stack[-1]
    q = u >> 4
    if q == p:
        return True
    if (u & 15) == WARLORD_INDEX or rank < INDEX_RANK[u & 15]:
        return False
    return not (protected_mask(state, q) >> s) & 1


def legal_turn(state, p: int) -> list[tuple]:
    """The options of p's turn (§6.4), in a stable order: continue at N, new campaign on an exit,
    the warlord at N, the warlord onto the front."""
    hand = state.hand[p]
    front, n = state.cube[p], next_space(state, p)
    nv = valid(state, n)
    n_empty = nv and not state.stacks[n]
    types = [t for t in state.game.tiles.types if hand[t]]
    w_next = nv and can_enter(state, p, WARLORD_RANK, n)
    if not types:  # only the warlord is left
        return [(WARLORD, n)] if w_next else [(WARLORD, front)]
    out: list[tuple] = []
    if nv:
        for t in types:
            if can_enter(state, p, TYPE_RANK[t], n):
                out += [(PLACE, t, n, f) for f in FACINGS[TYPE_CLASS[t]]]
    may_halt = front < 0 or not nv or not n_empty
    camp = False  # a usable exit: halting is possible, so the warlord may not go onto the front
    if may_halt:
        for e in exits(state, p):
            u = top(state, e)
            if u >= 0 and u >> 4 == p:  # never onto one's own tile (G17)
                continue
            for t in types:
                if can_enter(state, p, TYPE_RANK[t], e):
                    camp = True
                    if e != n:  # N's placements are listed above
                        out += [(PLACE, t, e, f) for f in FACINGS[TYPE_CLASS[t]]]
    if w_next:
        out.append((WARLORD, n))
    if front >= 0 and may_halt and not camp:
        out.append((WARLORD, front))
    return out or [(RETIRE,)]


def soldiers(state, p: int) -> list[int]:
    """Spaces whose top tile is p's infantry or cavalry (the tiles a general may order, §6.6)."""
    stacks = state.stacks
    return [s for s in range(SPACES) if stacks[s] and stacks[s][-1] >> 4 == p and INDEX_SOLDIER[stacks[s][-1] & 15]]


def legal_orders(state, p: int, general: int) -> list[tuple]:
    """The orders the general just placed on ``general`` may give (§6.6): mobilise, own swaps,
    swaps against an enemy; a general of a fixed type only its own kind of order (G18). Empty
    when none is legal (the general then stays the front)."""
    g = state.stacks[general][-1]
    orders = TYPE_ORDERS[state.game.tiles.index_type[g & 15]]
    own = soldiers(state, p)
    out = []
    if orders & MOBILISE_ORDER:
        out += _mobilise_orders(state, p, own, state.facing[g])
    if orders & DIRECT_ORDER:
        out += _direct_orders(state, p, own)
    return out


def _mobilise_orders(state, p: int, own: list[int], d: int) -> list[tuple]:
    """Mobilise (§6.6): an own soldier's stack one step the way the general faces, never onto an enemy."""
    stacks, facings = state.stacks, state.game.tiles.facings
    out = []
    for a in own:
        b = TARGET[1][a][d]
        if valid(state, b) and (not stacks[b] or stacks[b][-1] >> 4 == p):
            out += [(MOBILISE, a, f) for f in facings[stacks[a][-1] & 15]]
    return out


def _direct_orders(state, p: int, own: list[int]) -> list[tuple]:
    """Direct troops (§6.6): swaps of two own soldiers, then swaps with an enemy soldier (rank, level,
    protection)."""
    stacks, facings = state.stacks, state.game.tiles.facings
    out: list[tuple] = []
    for i, a in enumerate(own):
        for b in own[i + 1:]:
            out += [(SWAP_OWN, a, b, b, f) for f in facings[stacks[a][-1] & 15]]
            out += [(SWAP_OWN, a, b, a, f) for f in facings[stacks[b][-1] & 15]]
    enemies = [s for q in range(state.n) if q != p for s in soldiers(state, q)]
    for a in own:
        ta = stacks[a][-1]
        rank, level = INDEX_RANK[ta & 15], len(stacks[a])
        for b in enemies:
            tb = stacks[b][-1]
            if (rank >= INDEX_RANK[tb & 15] and level >= len(stacks[b])
                    and not (protected_mask(state, tb >> 4) >> b) & 1):
                out += [(SWAP_ENEMY, a, b, f) for f in facings[ta & 15]]
    return out
