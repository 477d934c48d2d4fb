"""Imperial Powers' search hooks (docs/interface.md, "Search hooks"; used by core/mcts.py).

* ``resample(state, player, rng)``: what ``player`` has not seen (§6.2) is redealt. The unseen
  influence cards (the deck, the other seats' hands and strips) are shuffled and dealt back in the
  same numbers: each hand as many cards as before, each strip as many, every strip card under a
  uniformly drawn region (the slots are hidden, R10), except that a move made public under
  ``tactics_visibility: regions_public`` keeps a card in its target slot. The seat in the middle
  of its Tactics keeps only its public moves as moved cards (a hidden first decision may have
  been a pass). Unless
  ``player`` is Dutch, the Dutch development hand and face-down discards are redealt from them
  and the development deck. The decks have no order to redraw (a deal is a chance node).
* ``evaluate(state)``: a softmax of the VP (with a little weight on the regions led, the
  tie-break) whose temperature shrinks as the end nears; at the end 0.8 to the winners and 0.2
  by that softmax.
"""

from __future__ import annotations

import math

from core.games.imperial_powers.data import data
from core.games.imperial_powers.rules import REGIONS
from core.games.imperial_powers.scoring import standings

D = data()
TEMPERATURE = 6.0  # VP at the end: a lead of 6 VP is worth e times the share
TEMPERATURE_PER_TURN = 4.0  # VP a lead may still melt away by per turn left
LEAD_WEIGHT = 0.5  # VP a region led is worth in the estimate (it only breaks ties)
WIN_WEIGHT = 0.8


def resample(state, player: int | None, rng):
    other = state.clone()
    other.recording = False
    _redeal_influence(state, other, player, rng)
    dutch = [q for q in range(state.n) if state.powers[q] >= 0 and D.development_hidden[state.powers[q]]]
    for q in dutch:
        if q != player:
            _redeal_development(state, other, q, rng)
    other._legal = other._legal_set = other._outcomes = None
    return other


def _redeal_influence(state, other, player, rng) -> None:
    others = [q for q in range(state.n) if q != player]
    pool = list(state.deck)
    for q in others:
        pool += state.hand[q]
        for x in range(REGIONS):
            pool += state.strip[q * REGIONS + x]
    rng.shuffle(pool)
    k = 0
    for q in others:
        size = len(state.hand[q])
        other.hand[q] = tuple(sorted(pool[k:k + size]))
        k += size
        on_strip = sum(len(state.strip[q * REGIONS + x]) for x in range(REGIONS))
        slots = [[] for _ in range(REGIONS)]
        cards = pool[k:k + on_strip]
        k += on_strip
        for c in cards:
            slots[rng.randrange(REGIONS)].append(c)
        public = [y for p, _, y in state.tactics_log if p == q]
        for c, y in zip(cards, public):  # a public move: some card lies in its target slot
            for slot in slots:
                if c in slot:
                    slot.remove(c)
            slots[y].append(c)
        for x in range(REGIONS):
            other.strip[q * REGIONS + x] = tuple(sorted(slots[x]))
        if q == state.current and state.moved:
            other.moved = tuple(sorted(cards[:len(public)]))
    other.deck = tuple(sorted(pool[k:]))


def _redeal_development(state, other, q: int, rng) -> None:
    pool = list(state.dev_deck) + list(state.dev_hand[q]) + list(state.dev_face_down)
    rng.shuffle(pool)
    size, down = len(state.dev_hand[q]), len(state.dev_face_down)
    other.dev_hand[q] = tuple(sorted(pool[:size]))
    other.dev_face_down = tuple(sorted(pool[size:size + down]))
    other.dev_deck = tuple(sorted(pool[size + down:]))


def softmax(values: list[float], temperature: float) -> list[float]:
    top = max(values)
    weights = [math.exp((v - top) / temperature) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


def evaluate(state) -> list[float]:
    keys = [vp + LEAD_WEIGHT * led for vp, led in standings(state)]
    turns_left = state.game.turns - state.turn + (not state.is_terminal())
    shares = softmax(keys, TEMPERATURE + TEMPERATURE_PER_TURN * turns_left)
    if not state.is_terminal():
        return shares
    won = state.winners()
    values = [(1 - WIN_WEIGHT) * v for v in shares]
    for p in won:
        values[p] += WIN_WEIGHT / len(won)
    return values
