"""A simple rule-of-thumb bot for Imperia (``ImperiaHeuristicBot``), seeded.

It judges a play decision by a one-move lookahead: apply the action to a copy and score the
result as its own provisional total (§9: the board as it stands) minus the best opponent's,
plus what it can still do (``FUTURE`` per unit left to place, zero once the warlord is down, so
the warlord waits unless it pays now or nothing else is left), plus the value of the space the
new front points at (a playable empty space is worth its points, a dead end costs). A battle or
a swap that takes a scoring enemy space therefore scores twice: its own gain and the rival's loss.
Fortress sites are valued by the terrain within reach (Chebyshev distance 2) and the castle's
nearness; boards are placed with their richest spaces towards the centre. Ties (and near-ties,
``EPSILON``) are broken by the bot's own generator: the same seed plays the same game.

``temperature`` (points, default 0) adds Gumbel noise of that scale to every value, so the bot plays a
softmax draw over its values instead of the best: the strength dial of the lab's ladder
(imperial_lab.core.ladder), as in the other games' heuristics. At 0 it plays the best, as it always did.
"""

from __future__ import annotations

import math
import random

from imperial_lab.core.games.imperia import rules
from imperial_lab.core.games.imperia.actions import BOARD, FORTRESS
from imperial_lab.core.games.imperia.board import CASTLE, CASTLE_MASK, SPACES, cheb, quadrant_spaces, rotate
from imperial_lab.core.games.imperia.scoring import space_points, tallies

FUTURE = 1.2  # points a unit still to be placed is expected to add
DEAD_END = 0.8  # cost of a front whose next space cannot take a tile (a forced halt)
AHEAD = 0.4  # share of the next space's points counted for a front pointing at it
EPSILON = 1e-9
MAX_TEMPERATURE = 100.0  # points: far above any value's spread, every action about as likely as another
CENTRE = (3.5, 3.5)


class ImperiaHeuristicBot:
    """``decide(state, legal_actions)``: the best-valued action (see the module docstring)."""

    name = "heuristic"
    PARAMS = {"temperature": (float, 0.0, MAX_TEMPERATURE, 0.0)}  # imperial_lab.core.bots checks specs against these

    def __init__(self, seed: int | None = None, temperature: float = 0.0):
        self.rng = random.Random(seed)
        self.temperature = temperature

    @classmethod
    def from_params(cls, params: dict, seed: int | None = None) -> ImperiaHeuristicBot:
        return cls(seed, params.get("temperature", 0.0))

    def decide(self, state, legal_actions):
        if len(legal_actions) == 1:
            return legal_actions[0]
        kind = legal_actions[0][0]
        if kind == BOARD:
            score = _board_value
        elif kind == FORTRESS:
            score = _fortress_value
        else:
            me = state.current_player()
            return self._best(legal_actions, lambda a: _lookahead(state, me, a))
        return self._best(legal_actions, lambda a: score(state, a))

    def _best(self, actions, value):
        scored = [(value(a), a) for a in actions]
        if self.temperature > 0:  # the argmax of value + Gumbel noise is a softmax draw at the temperature
            noisy = [v - self.temperature * math.log(-math.log(self.rng.random() or EPSILON)) for v, _ in scored]
            return scored[max(range(len(scored)), key=noisy.__getitem__)][1]
        top = max(v for v, _ in scored)
        best = [a for v, a in scored if v >= top - EPSILON]
        return best[self.rng.randrange(len(best))]


def _board_value(state, a) -> float:
    """Points of the side, weighted towards the castle (where formations meet and score the ring)."""
    _, board, side, quadrant, rotation = a
    grid = rotate(state.game.sides[board][side], rotation * 90)
    total = 0.0
    for k, s in enumerate(quadrant_spaces(quadrant)):
        if (state.game.covered >> s) & 1 or (CASTLE_MASK >> s) & 1:
            continue
        r, c = s >> 3, s & 7
        near = 1.0 / (1.0 + abs(r - CENTRE[0]) + abs(c - CENTRE[1]))
        total += "FMV".index(grid[k]) + 1 + near
    return total


def _fortress_value(state, a) -> float:
    """Terrain within Chebyshev distance 2 (the first campaigns' reach) and nearness to the castle."""
    s = a[1]
    reach = sum(space_points(state, t) for t in range(SPACES)
                if cheb(s, t) <= 2 and not (state.blocked >> t) & 1 and state.terrain[t] != ".")
    return reach - 1.5 * min(cheb(s, c) for c in CASTLE)


def _lookahead(state, me: int, a) -> float:
    after = state.clone()
    after.recording = False
    after.apply_legal(a)
    totals = [t.total for t in tallies(after)]
    best_other = max(t for p, t in enumerate(totals) if p != me)
    value = totals[me] - best_other
    if after.status[me] == 0:
        value += FUTURE * (sum(after.hand[me]) + sum(after.pile[me]))
        n = rules.next_space(after, me)
        if rules.valid(after, n):
            value += AHEAD * (space_points(after, n) if not after.stacks[n] else 0.5)
        elif after.cube[me] >= 0:
            value -= DEAD_END
    return value
