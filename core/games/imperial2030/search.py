"""Imperial 2030's search hooks (docs/interface.md, "Search hooks"; used by core/mcts.py).

* ``evaluate(state)``: one value per seat in [0, 1] summing to 1, an estimate of each seat's
  share of the win. Before the end it is a softmax of *projected* scores with a temperature that
  falls as the leading nation's power points (PP) near 25. The projection is the §10 score
  (Σ interest × power factor + cash) with each nation's power factor taken at its expected final
  PP (``GROWTH``: a linear fit of the further PP on the nation's factories, flags, treasury,
  units and PP, scaled by the part of the game left). The score "if the game ended now"
  (``state.returns()``) undervalues bonds early and ignores what makes a nation grow, so a search
  on it would never invest or build. Fitted to heuristic self-play (200 four-player games; the
  temperatures maximise the log-likelihood of the actual winner on about 6,700 positions): the
  projection predicts the winner better than ``returns()`` below 15 PP and about as well after.
  Early positions say little about the winner (a high temperature), late ones a lot. This part
  serves playouts cut off by ``depth``; the bot's default plays out to the end (docs/search.md).
  At the end: 0.8 to the winners (shared) + 0.2 × softmax of the final scores, so that among
  moves that all win or all lose the search still prefers the better score.
* ``playout_policy(rng)``: the heuristic bot (core/games/imperial2030/heuristic.py), about 50 µs a
  decision, seeded from ``rng``.
* ``resample(state, player, rng)``: nothing is hidden once the flag cards are dealt (and before,
  nobody has decided anything): a copy, with event building switched off.
"""

from __future__ import annotations

import math

WIN_WEIGHT = 0.8  # at the end: share of the value that is the win itself, the rest follows the scores
# softmax temperature (points of score) by the leading nation's power points, linear in between
TEMPERATURES = ((0, 16.0), (5, 12.0), (10, 10.0), (15, 8.0), (25, 8.0))
T_END = TEMPERATURES[-1][1]
# A nation's expected further power points, per 1.0 of the game left (L = (25 - max PP) / 25):
# L x (BASE + FACTORY x factories + FLAG x flags + TREASURY x treasury/10 (at most 30m) + UNIT x units
# + PP x PP/25 + GOVERNED x (has a government)); least squares on heuristic self-play (R² 0.48,
# against 0.29 for "half the leader's remaining growth").
GROWTH = {"base": 10.38, "factory": 0.99, "flag": 0.34, "treasury": 1.74, "unit": 0.63, "pp": -15.81,
          "governed": -0.22}


def softmax(scores: list[float], temperature: float) -> list[float]:
    top = max(scores)
    weights = [math.exp((s - top) / temperature) for s in scores]
    total = sum(weights)
    return [w / total for w in weights]


def temperature(state) -> float:
    pp = min(max(state.pp), 25)
    for (p0, t0), (p1, t1) in zip(TEMPERATURES, TEMPERATURES[1:]):
        if pp <= p1:
            return t0 + (t1 - t0) * (pp - p0) / (p1 - p0)
    return T_END


def expected_power_points(state) -> list[float]:
    """Each nation's expected final power points (at most 25), from its PP, factories, flags,
    treasury and units and how much of the game is left."""
    left = (25 - min(max(state.pp), 25)) / 25
    g = GROWTH
    out = []
    for n in range(6):
        factories = sum(1 for r in state.board.homes[n] if state.factory[r])
        units = state.n_armies[n] + state.n_fleets[n]
        growth = (g["base"] + g["factory"] * factories + g["flag"] * state.flag_count[n]
                  + g["treasury"] * min(state.treasury[n], 30) / 10 + g["unit"] * units
                  + g["pp"] * state.pp[n] / 25 + g["governed"] * (state.gov[n] >= 0))
        out.append(min(25.0, max(0.0, state.pp[n] + left * growth)))
    return out


def projected_scores(state) -> list[float]:
    """§10 scores with each nation's power factor at its expected final power points."""
    factor = [pp / 5 for pp in expected_power_points(state)]
    out = [float(c) for c in state.cash]
    for k, p in enumerate(state.owner):
        if p >= 0:
            out[p] += (k % 9 + 1) * factor[k // 9]
    return out


def evaluate(state) -> list[float]:
    """Each seat's estimated share of the win (see the module docstring)."""
    if not state.is_terminal():
        return softmax(projected_scores(state), temperature(state))
    scores = state.returns()
    won = state.winners()
    values = [(1 - WIN_WEIGHT) * v for v in softmax(scores, T_END)]
    for p in won:
        values[p] += WIN_WEIGHT / len(won)
    return values


def playout_policy(rng):
    """The heuristic bot as a function state -> action."""
    from imperial_lab.core.games.imperial2030.heuristic import HeuristicBot

    bot = HeuristicBot(rng.getrandbits(32))

    def policy(state):
        return bot.decide(state, state.legal_actions())

    return policy


def resample(state, player: int, rng):
    """A copy that builds no events (``State.recording``): playouts read none, and are about
    30% faster without them."""
    other = state.clone()
    if hasattr(other, "recording"):
        other.recording = False
    return other
