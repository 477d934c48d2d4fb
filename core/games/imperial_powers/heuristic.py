"""A rule-of-thumb bot for Imperial Powers (``ImperialPowersHeuristicBot``), seeded.

It decides from what its seat may observe (RULES.md §6.2) and reads nothing else of the state:
the map (influence, counters), the VP, the powers, the turn, the public discard pile, the number
of cards each seat holds (hand and strip sizes), the events of the turn, and its own hand, strip,
Tactics moves and development cards. It never reads another seat's cards or a deck's order.

**The contest of a region this turn** (``Contest``, for the Bid, Develop and Tactics): each rival
will add an unknown bid there. The bot expects a rival to reveal its cards-held × the mean value
of the cards it has not seen (card counting, R25), spread over the regions in proportion to their
value, and treats the rival's final influence as that expectation with a spread that grows with
the expected bid (a rival either bids a stack there or nothing). From the chance that each rival
ends level or ahead (ties drop to the lower place, R14) it gets the chance of being first, second
or third, and so its expected award: the value V, half of V, or 1. First place is worth more than
V: the Leader's extra influence cards next turn (``CARD_VP`` per power counter: a lead breeds
leads), Spain's +3, the tie-break, and what the likeliest rival Leader loses (weighed like that
rival, ``DENIAL``).

* **Bid** (§5.2): the whole hand is planned at its first card: biggest cards first, each to the
  region where it adds the most expected award, then single cards are moved while that helps.
  So cards go where they can take or defend a place, not to regions lost or already safe.
* **Tactics** (§5.4): the one move (France: one per decision) that gains the most after the
  Develop Phase changed the values: a card out of a hopeless or overkill slot into one where it
  changes the place; else a pass.
* **Develop** (§5.3): the card whose extra value the bot expects to collect (its place chances
  now, and ``FUTURE`` of it per turn left, counters being permanent) minus what the rivals collect.
* **Events** (§5.7): for each free region, the change the event makes to every seat's stake there
  (the award of its place and its Leader bonus, ``FUTURE`` per turn left, and ``MARGIN_VP`` per
  point of influence per turn left), the bot's gain minus the rivals' (weighed towards the VP
  leader), less the mean of the same for the events still in the deck (the region would otherwise
  get one of those). Harmful events go where they hurt the leading rival, good ones where they
  help the bot, Status Quo shields the region the deck threatens most.
* **Power** (``pick``, R3): the power that wins most often in its self-play, of those left.

Rivals are seats with weights summing to 1: a softmax of their VP (``RIVAL_TEMPERATURE``), so the
VP leader weighs most. The constants were tuned in self-play (one variant seat against three
default bots, 800 four-player games a setting; scripts/bench_imperial_powers.py measures the
result). Near-equal choices are drawn by the bot's generator (Gumbel noise of scale
``temperature`` VP on the scores, i.e. a softmax draw): the same seed plays the same game, other
seeds vary.
"""

from __future__ import annotations

import math
import random
from typing import Any

from imperial_lab.core.games.imperial_powers.actions import ASSIGN_ACTIONS, MOVE_ACTIONS, PASS_ACTION
from imperial_lab.core.games.imperial_powers.data import data
from imperial_lab.core.games.imperial_powers.rules import REGIONS, awards, leader_of
from imperial_lab.core.games.imperial_powers.pending import P_BID, P_DEVELOP, P_EVENT_ASSIGN, P_POWER, P_TACTICS

D = data()
VALUE = D.card_values
CARD_VP = 12.0  # VP the Leader's extra influence card (per power counter, R23) is worth: far above a card's VP
TIEBREAK_VP = 0.25  # a region led, for the final tie-break (R20)
SPREAD = 2.2  # a rival's spread around its expected bid, per sqrt(expected bid x mean card)
SURE_SPREAD = 0.3  # the spread of a rival with nothing left to reveal (its influence is known)
FUTURE = 0.35  # share of a region's stake that carries over to each turn left (influence persists)
MARGIN_VP = 0.5  # VP per point of influence per turn left, beyond the places it gives
MIN_MOVE_GAIN = 0.05  # a Tactics move must gain this much (VP) over a pass
IMPROVE_PASSES = 2  # rounds of single-card moves after the greedy bid plan
DENIAL = 1.0  # weight of what first place takes from the likeliest rival Leader (its weight times its loss)
LEFT_EVENTS = 1.0  # weight of the event a region would otherwise get (the mean of those left)
RIVAL_TEMPERATURE = 10.0  # VP: how much more the leading rival weighs than a rival behind it
DEFAULT_TEMPERATURE = 0.2  # VP of Gumbel noise on the scores (a softmax draw); 0 plays the best
MAX_TEMPERATURE = 100.0
EPSILON = 1e-9
TOTAL_CARDS, TOTAL_VALUE = len(D.card_values), sum(D.card_values)
# The self-play strength of the powers (best first), for ``pick``: measured by
# scripts/bench_imperial_powers.py --powers (heuristic self-play under random assignment).
POWER_PREFERENCE = tuple(D.powers.index(w) for w in ("britain", "spain", "france", "dutch", "portuguese"))
# E[max(0, I - d6)] for I < 6 (at 6 and above it is I - 3.5)
_GREAT_GAME = tuple(sum(max(0, i - d) for d in range(1, 7)) / 6 for i in range(6))


class ImperialPowersHeuristicBot:
    """``decide(state, legal_actions)`` from the seat's observation (see the module docstring)."""

    name = "heuristic"
    PARAMS = {"temperature": (float, 0.0, MAX_TEMPERATURE, DEFAULT_TEMPERATURE)}

    def __init__(self, seed: int | None = None, temperature: float = DEFAULT_TEMPERATURE):
        self.rng = random.Random(seed)
        self.temperature = temperature
        self._plan_key: Any = None
        self._plan: dict = {}
        self._event_key: Any = None
        self._event_memo: dict = {}

    @classmethod
    def from_params(cls, params: dict, seed: int | None = None) -> ImperialPowersHeuristicBot:
        return cls(seed, params.get("temperature", DEFAULT_TEMPERATURE))

    def decide(self, state, legal_actions):
        if len(legal_actions) == 1:
            return legal_actions[0]
        phase = state.phase
        if phase == P_BID:
            return self._bid(state)
        if phase == P_TACTICS:
            return self._tactics(state)
        if phase == P_DEVELOP:
            return self._develop(state, legal_actions)
        if phase == P_EVENT_ASSIGN:
            return self._assign_event(state, legal_actions)
        if phase == P_POWER:
            return self._best(legal_actions, [-POWER_PREFERENCE.index(a[1]) for a in legal_actions])
        raise ValueError(f"the heuristic bot has no rule for the decision {state.decision_name()!r}")

    def noise(self) -> float:
        """Gumbel noise: the argmax of score + noise is a softmax draw at ``temperature``."""
        if self.temperature <= 0:
            return EPSILON * self.rng.random()
        return -self.temperature * math.log(-math.log(self.rng.random() or EPSILON))

    def _best(self, actions, scores):
        best = max(range(len(actions)), key=lambda k: scores[k] + self.noise())
        return actions[best]

    # ----- Bid (§5.2) -----

    def _bid(self, state):
        me = state.current
        card = state.hand[me][0]
        amounts = strip_amounts(state, me)
        key = (me, state.turn, tuple(sorted(state.hand[me] + own_strip_cards(state, me))), tuple(state.influence),
               tuple(state.resources), tuple(state.power_counters))
        if key != self._plan_key or card not in self._plan or not self._follows_plan(state, me):
            contest = Contest(state, me)
            self._plan_key, self._plan = key, self.plan_bid(contest, amounts, state.hand[me])
        return ASSIGN_ACTIONS[card][self._plan[card]]

    def _follows_plan(self, state, me) -> bool:
        """Every card already bid lies where the plan put it (search may have bid it elsewhere)."""
        plan = self._plan
        for x in range(REGIONS):
            for c in state.strip[me * REGIONS + x]:
                if plan.get(c, x) != x:
                    return False
        return True

    def plan_bid(self, contest: Contest, amounts: list[int], cards) -> dict:
        """Card -> region for ``cards`` on top of ``amounts`` already bid: greedy, biggest card
        first, then single-card moves while one gains."""
        amounts = amounts[:]
        plan = {}
        for c in sorted(cards, key=lambda c: -VALUE[c]):
            v = VALUE[c]
            gains = [contest.award(x, amounts[x] + v) - contest.award(x, amounts[x]) + self.noise()
                     for x in range(REGIONS)]
            x = max(range(REGIONS), key=gains.__getitem__)
            plan[c] = x
            amounts[x] += v
        for _ in range(IMPROVE_PASSES):
            moved = False
            for c in cards:
                v, x = VALUE[c], plan[c]
                y, gain = contest.best_move(amounts, x, v)
                if gain > EPSILON:
                    plan[c] = y
                    amounts[x] -= v
                    amounts[y] += v
                    moved = True
            if not moved:
                break
        return plan

    # ----- Tactics (§5.4, R12) -----

    def _tactics(self, state):
        me = state.current
        contest = Contest(state, me)
        amounts = strip_amounts(state, me)
        best, best_gain = PASS_ACTION, MIN_MOVE_GAIN
        for x in range(REGIONS):
            seen = set()
            for c in state.strip[me * REGIONS + x]:
                v = VALUE[c]
                if c in state.moved or v in seen:
                    continue
                seen.add(v)  # cards of one value in one slot move alike
                y, gain = contest.best_move(amounts, x, v)
                gain += self.noise()
                if gain > best_gain:
                    best, best_gain = MOVE_ACTIONS[c][y], gain
        return best

    # ----- Develop (§5.3) -----

    def _develop(self, state, legal_actions):
        me = state.current
        contest = Contest(state, me)
        amounts = strip_amounts(state, me)
        weights = rival_weights(state, me)
        future = FUTURE * turns_after(state)
        scores = [contest.development_gain(d, amounts, weights, future) for _, d in legal_actions]
        return self._best(legal_actions, scores)

    # ----- Events (§5.7) -----

    def _assign_event(self, state, legal_actions):
        me, n = state.current, state.n
        weights = [-w for w in rival_weights(state, me)]  # what a rival gains counts against the bot
        weights[me] = 1.0
        key = (me, state.turn, tuple(weights))
        if key != self._event_key:  # the memo holds for one seat, turn and standing
            self._event_key, self._event_memo = key, {}
        context = (me, weights, [D.spain_vp[w] for w in state.powers], turns_after(state), state.game.tie_rule)
        left = state.events_left
        scores = []
        for _, x in legal_actions:
            region = (tuple(state.influence[x * n:x * n + n]), state.resources[x], state.power_counters[x])
            baseline = sum(self._event_delta(e, region, context) for e in left) / len(left) if left else 0.0
            scores.append(self._event_delta(state.pending_event, region, context) - LEFT_EVENTS * baseline)
        return self._best(legal_actions, scores)

    def _event_delta(self, e: int, region: tuple, context: tuple) -> float:
        got = self._event_memo.get((e, region))
        if got is None:
            got = self._event_memo[(e, region)] = event_delta(e, region, *context)
        return got


def own_strip_cards(state, me: int) -> tuple:
    return sum((state.strip[me * REGIONS + x] for x in range(REGIONS)), ())


def strip_amounts(state, me: int) -> list[int]:
    """The value of the seat's own bid in each region."""
    return [sum(VALUE[c] for c in state.strip[me * REGIONS + x]) for x in range(REGIONS)]


def cards_to_reveal(state, q: int) -> int:
    """How many influence cards seat q holds this turn (public: hand size plus strip size)."""
    return len(state.hand[q]) + sum(len(state.strip[q * REGIONS + x]) for x in range(REGIONS))


def unseen_mean(state, me: int) -> float:
    """The mean value of the influence cards ``me`` has not seen (deck and rivals' cards, R25)."""
    own = state.hand[me] + own_strip_cards(state, me)
    cards = TOTAL_CARDS - len(state.discard) - len(own)
    if cards <= 0:
        return 0.0
    return (TOTAL_VALUE - sum(VALUE[c] for c in state.discard) - sum(VALUE[c] for c in own)) / cards


def turns_after(state) -> int:
    """Turns still to be played after this one."""
    return state.game.turns - state.turn


def rival_weights(state, me: int) -> list[float]:
    """Per seat, how much its gains count against the bot: a softmax of the rivals' VP (summing
    to 1 over the rivals, the VP leader weighing most); 0 for the bot itself."""
    vp = [sum(state.gains[4 * p:4 * p + 4]) for p in range(state.n)]
    top = max(v for p, v in enumerate(vp) if p != me)
    weights = [0.0 if p == me else math.exp((v - top) / RIVAL_TEMPERATURE) for p, v in enumerate(vp)]
    total = sum(weights)
    return [w / total for w in weights]


class Contest:
    """Seat ``me``'s chances in every region this turn, as a function of what it adds there (see
    the module docstring): ``award(x, added)`` is its expected award in region x."""

    __slots__ = ("base", "rivals", "prizes", "memo", "lead_extra", "values")

    def __init__(self, state, me: int):
        n, inf = state.n, state.influence
        values = [r + p for r, p in zip(state.resources, state.power_counters)]
        total = sum(values)
        mean = unseen_mean(state, me)
        masses = [0.0 if q == me else cards_to_reveal(state, q) * mean for q in range(n)]
        last = turns_after(state) <= 0
        weights = rival_weights(state, me)
        self.lead_extra = D.spain_vp[state.powers[me]] + TIEBREAK_VP
        self.values = values
        self.base, self.rivals, self.prizes = [], [], []
        for x in range(REGIONS):
            share = values[x] / total
            rivals = []
            for q in range(n):
                expected = masses[q] * share
                if q == me or inf[x * n + q] + expected <= 0:
                    continue  # a rival with nothing there and nothing to add cannot be present
                spread = SURE_SPREAD + SPREAD * math.sqrt(expected * mean)
                rivals.append((inf[x * n + q] + expected, 1.0 / spread, q))
            self.base.append(inf[x * n + me])
            self.rivals.append(rivals)
            cards = 0.0 if last else CARD_VP * state.power_counters[x]
            first, second = values[x] + cards, values[x] // 2
            denied = 0.0  # first place taken from the likeliest rival Leader: what it loses
            if rivals:
                _, _, top = max(rivals)
                denied = DENIAL * weights[top] * (first + D.spain_vp[state.powers[top]] + TIEBREAK_VP - second)
            self.prizes.append((first + self.lead_extra + denied, second, 1))
        self.memo: list[dict] = [{} for _ in range(REGIONS)]

    def places(self, x: int, added: int) -> tuple[float, float, float]:
        """The chances of being first, second and third in region x with ``added`` more influence."""
        m = self.base[x] + added
        if m <= 0:
            return 0.0, 0.0, 0.0
        first, second, third = 1.0, 0.0, 0.0
        for expected, inverse_spread, _ in self.rivals[x]:
            # P(rival >= m): a level rival takes the place too (R14); tanh never overflows
            p = 0.5 + 0.5 * math.tanh(0.5 * (expected - m + 0.5) * inverse_spread)
            r = 1.0 - p
            third = third * r + second * p
            second = second * r + first * p
            first *= r
        return first, second, third

    def award(self, x: int, added: int) -> float:
        memo = self.memo[x]
        got = memo.get(added)
        if got is None:
            first, second, third = self.places(x, added)
            a, b, c = self.prizes[x]
            got = memo[added] = first * a + second * b + third * c
        return got

    def best_move(self, amounts: list[int], x: int, v: int) -> tuple[int, float]:
        """(region, gain) of moving a card of value v out of region x to the best other region."""
        loss = self.award(x, amounts[x]) - self.award(x, amounts[x] - v)
        best, gain = x, -math.inf
        for y in range(REGIONS):
            if y != x:
                g = self.award(y, amounts[y] + v) - self.award(y, amounts[y])
                if g > gain:
                    best, gain = y, g
        return best, gain - loss

    def development_gain(self, d: int, amounts: list[int], weights: list[float], future: float) -> float:
        """What playing development card d gains the bot minus what it gains the rivals (weighed):
        the extra value times each one's chance of collecting it, now and ``future`` times over."""
        x = D.dev_region[d]
        extra, power = D.dev_resource[d] + D.dev_power[d], D.dev_power[d]
        v = self.values[x]
        first, second, _ = self.places(x, amounts[x])
        half = (v + extra) // 2 - v // 2
        lead = extra + (power * CARD_VP if future > 0 else 0.0)  # no Draw Phase after the last turn
        mine = first * lead + second * half
        # the rivals: their places by their expected influence, the bot's included
        m = self.base[x] + amounts[x]
        rivals = self.rivals[x]
        theirs = 0.0
        for e, _, q in rivals:
            place = 1 + (m >= e) + sum(1 for f, _, r in rivals if r != q and f >= e)
            theirs += weights[q] * (lead if place == 1 else half if place == 2 else 0)
        return (mine - theirs) * (1.0 + future)


# ----- events (§5.7): their effect on one region's row of influence, for the bot's estimate -----

def _unchanged(row, value, leader, me):
    return row, value


def _conquest(row, value, leader, me):
    present = [u for u in row if u > 0]
    if len(present) < 2 or min(present) == max(present):
        return row, value
    low = min(present)
    return [0 if u == low else u for u in row], value


def _halve_leader(row, value, leader, me):
    return [u // 2 if p == leader else u for p, u in enumerate(row)], value


def _great_game(row, value, leader, me):  # the expected loss of a d6, not below 0
    return [u - 3.5 if u >= 6 else _GREAT_GAME[int(u)] for u in row], value


def _revolution(row, value, leader, me):
    return [0] * len(row), value


def _balance_of_power(row, value, leader, me):  # the drawer's expected d6
    return [u + 3.5 if p == me else u for p, u in enumerate(row)], value


def _nation_building(row, value, leader, me):
    return row, value + 1


def _domination(row, value, leader, me):
    return (row if leader < 0 else [u if p == leader else 0 for p, u in enumerate(row)]), value


def _small_wars(row, value, leader, me):
    return [u // 2 for u in row], value


# per event: its effect on the row and whether it scores the region first (Exploitation)
_EFFECTS = {"status_quo": (_unchanged, False), "conquest": (_conquest, False), "exploitation": (_halve_leader, True),
            "great_game": (_great_game, False), "rebellion": (_halve_leader, False), "revolution": (_revolution, False),
            "balance_of_power": (_balance_of_power, False), "nation_building": (_nation_building, False),
            "domination": (_domination, False), "small_wars": (_small_wars, False)}
EFFECTS = tuple(_EFFECTS[name] for name in D.events)


def event_delta(e: int, region: tuple, me: int, weights: list[float], spain: list[int], turns: int,
                tie_rule: int) -> float:
    """The weighed sum of the seats' gains (``weights``: the bot's 1, the rivals' negative) from
    event e in a region of (influence row, resource, power counters): the VP it pays now
    (Exploitation) plus the change of every seat's stake and influence there, which count for the
    ``turns`` still to come."""
    row, resource, power = region
    row, value = list(row), resource + power
    effect, scores = EFFECTS[e]
    after, after_value = effect(row, value, leader_of(row), me)
    now = awards(row, value, tie_rule) if scores else [0] * len(row)
    if after is row and after_value == value and not scores:
        return 0.0  # nothing changes there
    future, margin = FUTURE * turns, MARGIN_VP * turns
    before = stakes(row, value, power, spain, future, tie_rule)
    later = stakes(after, after_value, power, spain, future, tie_rule)
    return sum(w * (now[p] + later[p] - before[p] + margin * (after[p] - row[p])) for p, w in enumerate(weights))


def stakes(row, value: int, power: int, spain: list[int], future: float, tie_rule: int) -> list[float]:
    """Each seat's stake in a region: ``future`` times its award and Leader bonus (the extra
    cards, Spain's +3), plus the tie-break for the Leader."""
    got = [future * a for a in awards(row, value, tie_rule)]
    leader = leader_of(row)
    if leader >= 0:
        got[leader] += future * (power * CARD_VP + spain[leader]) + TIEBREAK_VP
    return got

