"""The rollout bot (docs/search.md, "The rollout bot"): each candidate move played on many times to
the end of the game, the way a backgammon program "rolls out" a position.

For one decision of seat ``me``:

1. **Candidates.** The heuristic's choice and, when there are more than ``width`` legal actions, the
   ``width - 1`` others the evaluator rates best after one heuristic playout to its next checkpoint
   (``greedy``'s values); otherwise every legal action.
2. **Rollouts in batches.** A batch draws one seed: a determinisation (``resample``: what ``me``
   cannot see is dealt again) and the draws of the heuristic and of chance. Every candidate still in
   the race is applied to a copy of it and played on by the heuristic for every seat, to the end of
   the game (or through ``turns`` checkpoints, where the evaluator judges it). All candidates of a
   batch make the same draws (common random numbers): their results differ by what the moves do,
   not by the luck of their rollouts.
3. **Sequential halving.** After 2, 4, 8, ... batches the worse half of the candidates drops out
   (the heuristic's choice stays), so the budget goes to the moves that might be best.
4. **Choice.** The candidate with the best mean result, if its gain over the heuristic's choice,
   paired batch by batch, is more than ``z`` standard errors; otherwise the heuristic's choice.

Why: the evaluator's differences between the moves of one position follow the rollouts' only
loosely (docs/search.md, "Why rollouts"), so a search that trusts them deviates from the heuristic
where it should not; rollouts to the end judge a move by how games actually end.

Budget: ``playouts`` (rollouts per decision in all, the screen not counted; default 80, about a
second of CPU a decision on average in Imperial 2030, more early in the game, when rollouts are
long, less late), reproducible for a seed; or ``seconds`` (wall clock per decision, not reproducible;
with no ``playouts``, no cap). A decision with one legal action is returned at once.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from imperial_lab.core.bots import TwoBudgets
from imperial_lab.core.errors import SetupError
from imperial_lab.core.evaluator import GreedyBot, heuristic_policy, judge, play_on
from imperial_lab.core.mcts import Hooks, RootStat

DEFAULT_PLAYOUTS = 80  # about 1 s of CPU a decision on average in a four-player Imperial 2030 game
DEFAULT_WIDTH = 8  # candidates kept after the evaluator's screen of a wide decision (a maneuver)
DEFAULT_Z = 1.0  # standard errors a move must gain over the heuristic's choice to be played instead


class RolloutBot(TwoBudgets):
    """Rollouts with common random numbers and sequential halving (see the module docstring).

    Parameters: ``playouts`` (rollouts per decision, reproducible for a seed), ``seconds`` (wall
    clock per decision; given alone, no playout cap), ``turns`` (0: to the end; N: through N checkpoints, then
    the evaluator), ``width``, ``z``, ``seed``. After a decision ``last_playouts`` and
    ``last_seconds`` say what it cost and ``last_means`` holds each candidate's mean result.
    """

    name = "rollout"
    ALONE = ("seconds", "playouts")  # seconds alone: no rollout cap
    # bot spec parameters (imperial_lab.core.bots): name -> (type, low, high, default)
    PARAMS = {"playouts": (int, 1, 10_000_000, DEFAULT_PLAYOUTS), "seconds": (float, 0.001, 86_400.0, None),
              "turns": (int, 0, 10_000, 0), "width": (int, 2, 1_000, DEFAULT_WIDTH),
              "z": (float, 0.0, 10.0, DEFAULT_Z)}

    def __init__(self, seed: int | None = None, playouts: int | None = DEFAULT_PLAYOUTS, seconds: float | None = None,
                 turns: int = 0, width: int = DEFAULT_WIDTH, z: float = DEFAULT_Z):
        if seconds is None and playouts is None:
            raise SetupError("rollout: give seconds or playouts")
        self.rng = random.Random(seed)
        self.seconds, self.playouts, self.turns, self.width, self.z = seconds, playouts, turns, width, z
        self._heuristic: Callable | None = None
        self._screen: GreedyBot | None = None
        self.last_playouts, self.last_seconds = 0, 0.0
        self.last_means: dict = {}

    def decide(self, state, legal_actions):
        if len(legal_actions) == 1:
            return legal_actions[0]
        return self._race(state, legal_actions)[0]

    def analyse(self, state, keep=()) -> list[RootStat]:
        """Every legal action of ``state`` (a decision of some seat) with its rollouts and mean result
        for the deciding seat, the bot's choice first, then by rollouts and mean (an action the race
        never ran: 0 and None). ``keep`` (legal actions) join the candidates and stay in the race to
        its end, so that a move to judge (the move played) gets as many rollouts as the best."""
        legal = list(state.legal_actions())
        if state.is_terminal() or state.is_chance_node() or not legal:
            raise SetupError("rollout: analyse needs a state where a seat decides")
        if len(legal) == 1:
            return [RootStat(legal[0], 0, None)]
        choice, results = self._race(state, legal, keep)
        order = {a: i for i, a in enumerate(legal)}
        stats = [RootStat(a, len(results.get(a, ())), self.last_means.get(a)) for a in legal]
        stats.sort(key=lambda s: (s.action != choice, -s.visits, -(s.value if s.value is not None else -1.0),
                                  order[s.action]))
        return stats

    def _race(self, state, legal_actions, keep=()) -> tuple:
        """The decision's race (see the module docstring): the choice and every candidate's results."""
        start = time.perf_counter()
        if self._heuristic is None:
            self._heuristic = heuristic_policy(state, self.rng)
        hint = self._heuristic(state)
        stay = {hint, *keep}
        race = self._candidates(state, legal_actions, hint, keep)
        resample = Hooks(state).resample
        results: dict = {a: [] for a in race}
        batches, cut = 0, 2
        while True:
            self._batch(state, resample, race, results)
            batches += 1
            if self._spent(start, results):
                break
            if batches == cut and len(race) > 2:
                race = _halve(race, results, stay)
                cut *= 2
        self.last_seconds = time.perf_counter() - start
        self.last_means = {a: sum(r) / len(r) for a, r in results.items()}
        return self._choice(race, results, hint), results

    def _candidates(self, state, legal_actions, hint, keep=()) -> list:
        """The heuristic's choice first, then the others; past ``width``, the evaluator's best, and
        ``keep`` whatever the screen says."""
        others = [a for a in legal_actions if a != hint]
        if len(legal_actions) > self.width:
            if self._screen is None:
                self._screen = GreedyBot(self.rng.getrandbits(32))
            values = self._screen.values(state, others)
            ranked = sorted(range(len(others)), key=lambda i: -values[i])
            others = [others[i] for i in ranked[: self.width - 1]]
        return [hint, *others, *(a for a in dict.fromkeys(keep) if a != hint and a not in others)]

    def _batch(self, state, resample, race: list, results: dict) -> None:
        """One rollout of every candidate in the race, all from one seed."""
        seed = self.rng.getrandbits(64)
        me = state.current_player()
        ends = []
        for action in race:
            rng = random.Random(seed)
            dealt = resample(state, me, rng)
            ends.append(play_on(dealt, action, heuristic_policy(dealt, rng), rng, self.turns))
        for action, value in zip(race, judge(state, ends)):
            results[action].append(value)

    def _spent(self, start: float, results: dict) -> bool:
        self.last_playouts = sum(len(r) for r in results.values())
        if self.playouts is not None and self.last_playouts >= self.playouts:
            return True
        return self.seconds is not None and time.perf_counter() - start >= self.seconds

    def _choice(self, race: list, results: dict, hint):
        """The best mean, if it beats the heuristic's choice by more than ``z`` paired standard errors."""
        best = max(race, key=lambda a: sum(results[a]))
        if best == hint:
            return hint
        gains = [v - h for v, h in zip(results[best], results[hint])]
        n = len(gains)
        if n < 2:
            return hint
        mean = sum(gains) / n
        sd = math.sqrt(sum((g - mean) ** 2 for g in gains) / (n - 1))
        return best if mean > self.z * sd / math.sqrt(n) and mean > 0 else hint


def _halve(race: list, results: dict, stay) -> list:
    """The better half of the race (its candidates have run every batch so far); a candidate in
    ``stay`` (the heuristic's choice, a move the analysis judges) that falls out takes the place of
    the worst kept one not in ``stay``, at the front."""
    ranked = sorted(race, key=lambda a: -sum(results[a]))
    kept = ranked[: (len(race) + 1) // 2]
    for a in reversed([a for a in race if a in stay and a not in kept]):
        out = [b for b in kept if b not in stay]
        if out:
            kept.remove(out[-1])
        kept.insert(0, a)
    return kept
