"""Imperia's scoring and tie-break (RULES.md §9, G13, G22-G24, G31).

One simultaneous pass on the position: each player's scoring formation S(p) first, then the
counting. Tiles outside S(p) are "removed" simply by not being counted, and the tiles they
uncover are never counted either (G13), so no stack is changed. The same function gives the
provisional score during play (§7.4).
"""

from __future__ import annotations

from dataclasses import dataclass

from core.games.imperia.board import ADJACENT, CASTLE_MASK, D
from core.games.imperia.rules import components


@dataclass(frozen=True)
class Tally:
    """One player's score and its parts (§9): ``total = raw + ring - penalty``."""

    formation: tuple  # the spaces of S(p), ascending
    raw: int
    ring: int
    penalty: int
    warlord_height: int  # for the tie-break: 0 unless the warlord is in S(p)

    @property
    def total(self) -> int:
        return self.raw + self.ring - self.penalty


def space_points(state, s: int) -> int:
    return D.castle_points if (CASTLE_MASK >> s) & 1 else D.terrain_points.get(state.terrain[s], 0)


def scoring_formation(state, p: int) -> tuple:
    """S(p): the largest anchored component; on a size tie the higher raw score, then the one
    holding p's warlord, then the one with the smallest space (G22)."""
    anchored = [c for c, a in components(state, p) if a]
    if not anchored:
        return ()
    w = state.warlord[p]
    best = min(anchored, key=lambda c: (-len(c), -sum(space_points(state, s) for s in c), w not in c, min(c)))
    return tuple(sorted(best))


def tallies(state) -> list[Tally]:
    """Every player's tally on the current position (final at the end, provisional before)."""
    n = state.n
    forms = [scoring_formation(state, p) for p in range(n)]
    sets = [set(f) for f in forms]
    active = [state.warlord[q] if state.warlord[q] in sets[q] else -1 for q in range(n)]
    ring = state.game.ring_mask
    out = []
    for p in range(n):
        raw = sum(space_points(state, s) for s in forms[p])
        ring_units = sum(1 for s in forms[p] if (ring >> s) & 1)
        penalty = sum(1 for s in forms[p] for q in range(n) if q != p and active[q] >= 0 and active[q] in ADJACENT[s])
        height = len(state.stacks[active[p]]) if active[p] >= 0 else 0
        out.append(Tally(forms[p], raw, ring_units, penalty, height))
    return out


def winners_of(tallies_: list[Tally]) -> list[int]:
    """Highest total; among equal totals the higher warlord height; still equal: all of them."""
    best = max((t.total, t.warlord_height) for t in tallies_)
    return [p for p, t in enumerate(tallies_) if (t.total, t.warlord_height) == best]
