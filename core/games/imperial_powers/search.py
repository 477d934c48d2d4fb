"""Imperial Powers' search hooks (docs/interface.md, "Search hooks"; used by core/mcts.py).

* ``resample(state, player, rng)``: what ``player`` has not seen (§6.2) is redealt. The unseen
  influence cards (the deck, the other seats' hands and strips) are shuffled and dealt back in the
  same numbers: each hand as many cards as before, each strip as many. The slots are hidden
  (R10), so any placement is consistent with the observation; a seat's strip cards go where the
  heuristic bot (seeded from ``rng``) would bid them from that seat's view, so that the
  determinised rivals bid like players rather than uniformly at random (a uniform placement made
  the search underrate the competition in valuable regions). A move made public under
  ``tactics_visibility: regions_public`` keeps a card in its target slot. The seat in the middle
  of its Tactics keeps only its public moves as moved cards (a hidden first decision may have
  been a pass). Unless ``player`` is Dutch, the Dutch development hand and face-down discards are
  redealt from them and the development deck. The decks have no order to redraw (a deal is a
  chance node).
* ``evaluate(state)``: before the end, each seat's estimated chance to win: a softmax (conditional
  logit) of a weighted sum of its VP, the awards and Spain bonus the map pays it per Score Phase
  and its influence on the map, the bids on the strips counted as revealed; the weights depend on
  the Score Phases left (``WIN_MODEL``). At the end 0.8 to the winners and 0.2 by a softmax of
  the final VP.
* ``playout_policy(rng)``: the heuristic bot (heuristic.py), seeded from ``rng``.
"""

from __future__ import annotations

import math

from imperial_lab.core.games.imperial_powers.data import data
from imperial_lab.core.games.imperial_powers.heuristic import Contest, ImperialPowersHeuristicBot
from imperial_lab.core.games.imperial_powers.rules import REGIONS, awards, leader_of, vp_totals
from imperial_lab.core.games.imperial_powers.pending import P_EVENT_DRAW, P_OVER
from imperial_lab.core.games.imperial_powers.scoring import standings

D = data()
VALUE = D.card_values
# The win model before the end, by Score Phases left (0..10, more counts as 10): the weights of a
# seat's (VP, awards the map pays it per Score Phase, its influence on the map) in a conditional
# logit of the winner, fitted by maximum likelihood on 400 heuristic self-play games (3-5 players;
# positions at the start of each Bid and after each Score Phase). Early on a VP lead draws the
# rivals' events (negative weight) and influence on the map counts most; late the VP decide.
WIN_MODEL = ((0.229, 0.020, -0.005), (0.071, 0.055, 0.016), (0.030, 0.051, 0.013), (0.017, 0.027, 0.018),
             (0.008, 0.019, 0.018), (0.003, 0.011, 0.019), (-0.005, 0.013, 0.021), (-0.013, 0.011, 0.022),
             (-0.024, 0.004, 0.026), (-0.039, 0.011, 0.032), (-0.041, 0.011, 0.032))
FINAL_TEMPERATURE = 3.0  # VP: the softmax of the final scores that breaks ties among wins and losses
LEAD_WEIGHT = 0.5  # VP a region led is worth in the final softmax (it only breaks ties)
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
        cards = pool[k:k + on_strip]
        k += on_strip
        slots = _planned_slots(other, q, cards, rng) if cards else [[] for _ in range(REGIONS)]
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


def _planned_slots(other, q: int, cards: list, rng) -> list[list]:
    """The slots the heuristic bot, seeded from ``rng``, bids ``cards`` under from seat q's view
    of ``other`` (the map as it is now, q holding just these cards)."""
    hand = other.hand[q]
    other.hand[q] = tuple(sorted(cards))
    for x in range(REGIONS):
        other.strip[q * REGIONS + x] = ()
    plan = ImperialPowersHeuristicBot(rng.getrandbits(64)).plan_bid(Contest(other, q), [0] * REGIONS, cards)
    other.hand[q] = hand
    slots: list[list[int]] = [[] for _ in range(REGIONS)]
    for c in cards:
        slots[plan[c]].append(c)
    return slots


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


def scorings_left(state) -> int:
    """Score Phases still to come: this turn's too until it is played (before the Event Phase)."""
    before_score = state.phase < P_EVENT_DRAW
    return state.game.turns - state.turn + before_score


def features(state) -> list[tuple[float, float, float]]:
    """Each seat's (VP, awards and Spain bonus the map pays per Score Phase, influence on the map),
    the bids on the strips counted as revealed."""
    n, inf, strip = state.n, state.influence, state.strip
    value = VALUE
    per_scoring, on_map = [0.0] * n, [0.0] * n
    for x in range(REGIONS):
        row = [inf[x * n + p] + sum(value[c] for c in strip[p * REGIONS + x]) for p in range(n)]
        got = awards(row, state.resources[x] + state.power_counters[x], state.game.tie_rule)
        lead = leader_of(row)
        if lead >= 0:
            got[lead] += D.spain_vp[state.powers[lead]]
        for p in range(n):
            per_scoring[p] += got[p]
            on_map[p] += row[p]
    return list(zip(vp_totals(state), per_scoring, on_map))


def evaluate(state) -> list[float]:
    if state.phase != P_OVER:
        a, b, c = WIN_MODEL[min(scorings_left(state), len(WIN_MODEL) - 1)]
        return softmax([a * vp + b * paid + c * held for vp, paid, held in features(state)], 1.0)
    keys = [vp + LEAD_WEIGHT * led for vp, led in standings(state)]
    shares = softmax(keys, FINAL_TEMPERATURE)
    won = state.winners()
    values = [(1 - WIN_WEIGHT) * v for v in shares]
    for p in won:
        values[p] += WIN_WEIGHT / len(won)
    return values


def playout_policy(rng):
    """The heuristic bot as a function state -> action, seeded from ``rng``."""
    bot = ImperialPowersHeuristicBot(rng.getrandbits(64))

    def policy(state):
        return bot.decide(state, state.legal_actions())

    return policy
