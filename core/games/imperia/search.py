"""Imperia's search hooks (docs/interface.md, "Search hooks"; used by core/mcts.py).

* ``resample(state, player, rng)``: the hidden information is the other players' hands (every
  pile is an unordered multiset, its order drawn only when a tile is drawn). Each other hand is
  redrawn uniformly from that player's unseen tiles (hand ∪ pile, which everyone knows, §7.2),
  refusing three generals for a hand that was never played from (the redraw rule, §3.4).
* ``evaluate(state)``: before the end a softmax of the provisional totals (the board as it
  stands), at the end 0.8 to the winners and 0.2 by a softmax of the totals.
"""

from __future__ import annotations

import math

from imperial_lab.core.games.imperia.board import GENERAL, NTYPES, TYPE_KIND

TEMPERATURE = 4.0  # points: a lead of 4 points is worth e times the share
WIN_WEIGHT = 0.8


def resample(state, player: int, rng):
    other = state.clone()
    other.recording = False
    for q in range(state.n):
        size = sum(state.hand[q])
        if q == player or not size:
            continue
        pool = [t for t in state.game.tiles.types for _ in range(state.hand[q][t] + state.pile[q][t])]
        fresh = sum(state.hand[q]) + sum(state.pile[q]) == sum(state.game.tiles.total)
        while True:
            drawn = rng.sample(pool, size)
            if not (fresh and size == 3 and all(TYPE_KIND[t] == GENERAL for t in drawn)):
                break
        hand = [0] * NTYPES
        for t in drawn:
            hand[t] += 1
        other.hand[q] = tuple(hand)
        other.pile[q] = tuple(h + k - x for h, k, x in zip(state.hand[q], state.pile[q], hand))
    other._legal = other._legal_set = None
    other.cache = {}
    return other


def softmax(values: list[float], temperature: float) -> list[float]:
    top = max(values)
    weights = [math.exp((v - top) / temperature) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


def evaluate(state) -> list[float]:
    totals = state.returns()
    if not state.is_terminal():
        return softmax(totals, TEMPERATURE)
    won = state.winners()
    values = [(1 - WIN_WEIGHT) * v for v in softmax(totals, TEMPERATURE)]
    for p in won:
        values[p] += WIN_WEIGHT / len(won)
    return values
