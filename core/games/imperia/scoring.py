"""Imperia's scoring and tie-break (RULES.md §9, G13, G22-G24, G31).

One simultaneous pass on the position (G31): each player's scoring formation S(p) first, then the
removal, then the counting. Tiles outside S(p) are "removed" simply by not being counted, so no
stack is changed. By default the tiles they uncover are never counted either (G13). With the
option ``uncovered_tiles_score`` the tile just beneath each removed tile becomes the top of its
space and scores for its owner when it joins the owner's S(p), directly or through other uncovered
tiles of the owner. There is still one removal only: an uncovered tile that joins nothing simply
does not score. Whose warlord is active is decided on S(p) before the uncovered tiles join, so a
removed warlord never counts even if its space is uncovered into its owner's formation. The same
function gives the provisional score during play (§7.4).
"""

from __future__ import annotations

from dataclasses import dataclass

from imperial_lab.core.games.imperia.board import ADJACENT, CASTLE_MASK, D
from imperial_lab.core.games.imperia.rules import components


@dataclass(frozen=True)
class Tally:
    """One player's score and its parts (§9): ``total = raw + ring - penalty``."""

    formation: tuple  # the spaces that score: S(p) (grown by uncovered tiles under the option), ascending
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
    active = [state.warlord[q] if state.warlord[q] in forms[q] else -1 for q in range(n)]
    if state.game.uncovered_tiles_score:
        forms = with_uncovered(state, forms)
    ring = state.game.ring_mask
    out = []
    for p in range(n):
        raw = sum(space_points(state, s) for s in forms[p])
        ring_units = sum(1 for s in forms[p] if (ring >> s) & 1)
        penalty = sum(1 for s in forms[p] for q in range(n) if q != p and active[q] >= 0 and active[q] in ADJACENT[s])
        height = len(state.stacks[active[p]]) if active[p] >= 0 else 0
        out.append(Tally(forms[p], raw, ring_units, penalty, height))
    return out


def with_uncovered(state, forms: list[tuple]) -> list[tuple]:
    """Each S(p) grown by the uncovered tiles of p joined to it (G13 option, see the module docstring)."""
    kept = {s for form in forms for s in form}
    uncovered = {s: stack[-2] >> 4 for s, stack in enumerate(state.stacks) if len(stack) > 1 and s not in kept}
    out = []
    for p, form in enumerate(forms):
        grown, todo = set(form), list(form)
        while todo:
            for t in ADJACENT[todo.pop()]:
                if t not in grown and uncovered.get(t) == p:
                    grown.add(t)
                    todo.append(t)
        out.append(tuple(sorted(grown)))
    return out


def winners_of(tallies_: list[Tally]) -> list[int]:
    """Highest total; among equal totals the higher warlord height; still equal: all of them."""
    best = max((t.total, t.warlord_height) for t in tallies_)
    return [p for p, t in enumerate(tallies_) if (t.total, t.warlord_height) == best]
