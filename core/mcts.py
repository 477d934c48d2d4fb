"""Monte-Carlo tree search for any game of the lab, through the game-agnostic interface only.

``MCTSBot.decide(state, legal_actions)`` runs a budget of *playouts* from the state and plays the
root action visited most. Each playout:

1. **Determinise.** ``resample(state, me, rng)``: a state consistent with what the searching seat
   ``me`` has observed (a copy where nothing is hidden). The playout then runs on that state, and
   the tree is shared by every determinisation (single-observer information-set MCTS: a node is a
   sequence of actions; an action's statistics count only the playouts in which it was legal).
2. **Select** down the tree. At a decision node the seat ``p`` that decides picks the child with
   the best UCB1 for *its own* value (max^n style: every node keeps one value sum per seat)::

       W[p] / N  +  c * sqrt(ln(A) / N)      (A: playouts in which that action was legal)

   The playout policy's choice at the node (its *hint*) gets a bonus
   ``prior * sqrt(A) / (1 + N)`` (PUCT with the policy as a one-hot prior).
   At a chance node the outcome is sampled from ``chance_outcomes()`` by its probability.
3. **Expand** one untried action (the hint first, then the others at random).
4. **Play out** with the playout policy for ``depth`` decisions (``None``: to the end), chance
   sampled by its probabilities.
5. **Evaluate** the state reached: one value per seat in [0, 1] (a win-share estimate), and add
   it to every node of the path.

Optional game hooks (``docs/interface.md``, "Search hooks"), on ``state.game`` where its plug-in
declares them (``imperial_lab.core.plugin.Capability``); each has a default here:

* ``game.evaluate(state) -> list[float]``: the default gives 1 shared among ``winners()`` at the
  end, and 1 shared among the seats leading on ``returns()`` ("as if it ended now") before;
* ``game.playout_policy(rng) -> (state -> action)``: the default is uniform over the legal actions;
* ``game.resample(state, player, rng) -> state``: the default is ``state.clone()``.

Budgets: ``playouts=N`` (deterministic for a seed: the generator of a decision is seeded from the
bot's seed and the deciding seat's observation, so the same seed and state give the same action and
statistics) or ``seconds=S`` (wall clock, not reproducible). The search stops early when the most
visited root action can no longer be overtaken within the budget left. A decision with a single
legal action is returned at once, without search.

This module imports nothing game-specific (docs/search.md).
"""

from __future__ import annotations

import json
import math
import random
import time
from dataclasses import dataclass

from imperial_lab.core.bots import TwoBudgets
from imperial_lab.core.errors import SetupError
from imperial_lab.core.plugin import Capability
from imperial_lab.core.registry import plugin_of

DEFAULT_PLAYOUTS = 64
DEFAULT_C = 0.4
DEFAULT_PRIOR = 0.5  # weight of the bonus of the playout policy's choice at a node (PUCT-like)
DEFAULT_DEPTH = None  # playouts to the end of the game


@dataclass(frozen=True)
class RootStat:
    """One root action: how often the search tried it and its mean value for the deciding seat."""

    action: object
    visits: int
    value: float | None  # None when not visited


class _Node:
    __slots__ = ("children", "visits", "avail", "total", "hint")

    def __init__(self, nplayers: int):
        self.children: dict = {}
        self.hint = None  # the playout policy's choice here (a decision node), tried first and favoured
        self.visits = 0
        self.avail = 0  # playouts in which the action leading here was legal (information sets)
        self.total = [0.0] * nplayers


def default_evaluate(state) -> list[float]:
    """1 shared among ``winners()`` at the end; before, among the seats leading on ``returns()``."""
    returns = state.returns()
    if state.is_terminal():
        won = state.winners()
    else:
        best = max(returns)
        won = [p for p, r in enumerate(returns) if r == best]
    values = [0.0] * len(returns)
    for p in won:
        values[p] = 1.0 / len(won)
    return values


def uniform_policy(rng: random.Random):
    """The default playout policy: uniform over the legal actions."""

    def policy(state):
        legal = state.legal_actions()
        return legal[rng.randrange(len(legal))]

    return policy


def default_resample(state, player: int, rng: random.Random):
    """Nothing hidden: the state itself (a copy)."""
    return state.clone()


def sample_chance(state, rng: random.Random):
    """A chance outcome drawn by its probability."""
    outcomes = state.chance_outcomes()
    x = rng.random() * sum(p for _, p in outcomes)
    for action, p in outcomes:
        x -= p
        if x < 0:
            return action
    return outcomes[-1][0]


class Hooks:
    """What search takes from a state's game, as its plug-in declares it (``GamePlugin.capabilities``):
    the search hooks, or the defaults for those it does not offer, and ``apply(state, action)`` for
    actions taken from ``legal_actions()`` or ``chance_outcomes()`` (``applier``). ``evaluate``
    replaces the game's (the ``search`` bot judges positions with the learned evaluator)."""

    def __init__(self, state, evaluate=None):
        owner, game = plugin_of(state), state.game
        self.evaluate = evaluate or (game.evaluate if owner.offers(Capability.EVALUATE) else default_evaluate)
        self.playout_policy = game.playout_policy if owner.offers(Capability.PLAYOUT_POLICY) else uniform_policy
        self.resample = game.resample if owner.offers(Capability.RESAMPLE) else default_resample
        self.apply = applier(state)


def applier(state):
    """How the search applies actions it took from ``legal_actions()`` or ``chance_outcomes()``: the
    game's unchecked ``apply_legal`` where its plug-in declares one."""
    return _apply_legal if plugin_of(state).offers(Capability.APPLY_LEGAL) else _apply_action


def _apply_legal(state, action):
    return state.apply_legal(action)


def _apply_action(state, action):
    return state.apply_action(action)


class MCTSBot(TwoBudgets):
    """Max^n UCT with determinisation (see the module docstring).

    Parameters: ``playouts`` (per decision, default 64 when no ``seconds`` is given), ``seconds``
    (wall-clock budget per decision; with both, whichever ends first), ``c`` (exploration, values
    are in [0, 1]), ``prior`` (weight of the hint's bonus), ``depth`` (playout decisions before the
    evaluation; ``None``, the default: to the end; 0: evaluate at the leaf), ``seed``. Bad values
    raise ``SetupError``.
    After a search, ``last_root_stats`` lists the root actions (``RootStat``, most visited first)
    and ``last_playouts`` / ``last_seconds`` what it cost.
    """

    name = "mcts"
    ALONE = ("seconds", "playouts")  # seconds alone: no playout cap
    # bot spec parameters (imperial_lab.core.bots): name -> (type, low, high, default)
    PARAMS = {"playouts": (int, 1, 10_000_000, DEFAULT_PLAYOUTS), "seconds": (float, 0.001, 86_400.0, None),
              "c": (float, 0.0, 100.0, DEFAULT_C), "prior": (float, 0.0, 100.0, DEFAULT_PRIOR),
              "depth": (int, 0, 10_000_000, DEFAULT_DEPTH)}

    def __init__(self, seed: int | None = None, playouts: int | None = None, seconds: float | None = None,
                 c: float = DEFAULT_C, depth: int | None = DEFAULT_DEPTH, prior: float = DEFAULT_PRIOR):
        if playouts is None and seconds is None:
            playouts = DEFAULT_PLAYOUTS
        if playouts is not None and (type(playouts) is not int or playouts < 1):
            raise SetupError(f"mcts: playouts must be a whole number >= 1, got {playouts!r}")
        if seconds is not None and not (isinstance(seconds, (int, float)) and seconds > 0):
            raise SetupError(f"mcts: seconds must be a number > 0, got {seconds!r}")
        if not (isinstance(c, (int, float)) and c >= 0):
            raise SetupError(f"mcts: c must be a number >= 0, got {c!r}")
        if depth is not None and (type(depth) is not int or depth < 0):
            raise SetupError(f"mcts: depth must be a whole number >= 0, got {depth!r}")
        if not (isinstance(prior, (int, float)) and prior >= 0):
            raise SetupError(f"mcts: prior must be a number >= 0, got {prior!r}")
        self.seed, self.playouts, self.seconds, self.c, self.depth = seed, playouts, seconds, float(c), depth
        self.prior = float(prior)
        self._fresh = random.Random(seed)  # only for seed=None
        self.last_root_stats: list[RootStat] = []
        self.last_playouts = 0
        self.last_seconds = 0.0

    def params(self) -> dict:
        return {"playouts": self.playouts, "seconds": self.seconds, "c": self.c, "depth": self.depth,
                "prior": self.prior}

    # ----- the bot -----

    def decide(self, state, legal_actions):
        if len(legal_actions) == 1:
            self.last_root_stats = [RootStat(legal_actions[0], 0, None)]
            self.last_playouts, self.last_seconds = 0, 0.0
            return legal_actions[0]
        return self.analyse(state)[0].action

    def analyse(self, state) -> list[RootStat]:
        """Search ``state`` (a decision of some seat) and return its root actions, most visited
        first (ties: higher mean value, then the order of ``legal_actions()``)."""
        legal = list(state.legal_actions())
        if state.is_terminal() or state.is_chance_node() or not legal:
            raise SetupError("mcts: analyse needs a state where a seat decides")
        root = self._search(state, legal)
        me = state.current_player()
        order = {a: i for i, a in enumerate(legal)}
        stats = []
        for a in legal:
            node = root.children.get(a)
            if node is None or node.visits == 0:
                stats.append(RootStat(a, 0, None))
            else:
                stats.append(RootStat(a, node.visits, node.total[me] / node.visits))
        stats.sort(key=lambda s: (-s.visits, -(s.value if s.value is not None else -1.0), order[s.action]))
        self.last_root_stats = stats
        return stats

    def _rng(self, state) -> random.Random:
        """The decision's generator: from the seed and what the deciding seat observes."""
        if self.seed is None:
            return random.Random(self._fresh.getrandbits(64))
        me = state.current_player()
        try:
            seen = json.dumps(state.observation(me), sort_keys=True, default=str)
        except (TypeError, ValueError):
            seen = repr(state.observation(me))
        return random.Random(f"mcts:{self.seed}:{me}:{seen}")

    def hooks(self, state) -> Hooks:
        """The search hooks of ``state``'s game (the ``search`` bot brings its own evaluation)."""
        return Hooks(state)

    def policy(self, hooks: Hooks, state, rng: random.Random):
        """The playout policy (and the hint at each node) for this search."""
        return hooks.playout_policy(rng)

    def prior_weight(self, state) -> float:
        """The weight of the policy's choice at a node (``prior``)."""
        return self.prior

    def playout_limits(self, state) -> tuple:
        """How far a playout goes: at most ``depth`` decisions (None: no limit), and a test of the
        states where it stops earlier (None here; the ``search`` bot: its evaluator's checkpoints)."""
        return self.depth, None

    def _search(self, state, legal) -> _Node:
        hooks = self.hooks(state)
        rng = self._rng(state)
        policy = self.policy(hooks, state, rng)
        evaluate, resample, apply = hooks.evaluate, hooks.resample, hooks.apply
        depth, stop = self.playout_limits(state)
        me = state.current_player()
        n = len(state.returns())
        root = _Node(n)
        c, prior = self.c, self.prior_weight(state)
        budget, deadline = self.playouts, None
        start = time.perf_counter()
        if self.seconds is not None:
            deadline = start + self.seconds
        done = 0
        while True:
            s = resample(state, me, rng)
            node, path = root, [root]
            # selection and expansion
            while not s.is_terminal():
                if s.is_chance_node():
                    a = sample_chance(s, rng)
                    apply(s, a)
                    child = node.children.get(a)
                    if child is None:
                        child = node.children[a] = _Node(n)
                    node = child
                    path.append(node)
                    continue
                acts = s.legal_actions()
                children = node.children
                if node.hint is None:
                    node.hint = policy(s)
                untried = [a for a in acts if a not in children]
                if untried:
                    a = node.hint
                    if a not in untried:
                        a = untried[rng.randrange(len(untried))]
                    apply(s, a)
                    node = children[a] = _Node(n)
                    node.avail = 1
                    path.append(node)
                    break
                p = s.current_player()
                best, best_score = None, -math.inf
                hint = node.hint
                for a in acts:
                    ch = children[a]
                    ch.avail += 1
                    score = ch.total[p] / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                    if a == hint:
                        score += prior * math.sqrt(ch.avail) / (1 + ch.visits)
                    if score > best_score:
                        best, best_score = a, score
                apply(s, best)
                node = children[best]
                path.append(node)
            # playout
            steps = 0
            while not s.is_terminal() and (depth is None or steps < depth) and not (stop and stop(s)):
                if s.is_chance_node():
                    apply(s, sample_chance(s, rng))
                else:
                    apply(s, policy(s))
                    steps += 1
            values = evaluate(s)
            for nd in path:
                nd.visits += 1
                tot = nd.total
                for k in range(n):
                    tot[k] += values[k]
            done += 1
            if budget is not None and done >= budget:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
            if budget is not None and self._settled(root, legal, budget - done):
                break
        self.last_playouts = done
        self.last_seconds = time.perf_counter() - start
        return root

    @staticmethod
    def _settled(root: _Node, legal, left: int) -> bool:
        """The most visited root action stays so whatever the ``left`` playouts do."""
        if len(root.children) < len(legal):
            return False
        visits = sorted((ch.visits for ch in root.children.values()), reverse=True)
        return visits[0] - visits[1] > left


DEFAULT_SECONDS = 1.0  # the search bot's budget per decision
SEARCH_C = 0.25  # the learned evaluator's values are steadier than playouts': less exploration


class SearchBot(MCTSBot):
    """The search on the learned evaluator (docs/search.md, "The search bot"): the same tree, but a
    playout stops at the evaluator's next checkpoint (Imperial 2030: the next nation's turn), or after
    ``depth`` decisions (default: the game part's ``LEAF_DECISIONS``), and is judged there by the
    game's model (``imperial_lab.core.evaluator``); the heuristic's choice is the prior at every node,
    and the budget is time (``seconds``, default 1). With ``playouts`` and no ``seconds`` it is
    a playout budget alone, reproducible for a seed (the training games of expert iteration)."""

    name = "search"
    ALONE = ("playouts", "seconds")  # playouts alone: no time budget, so search:playouts=64 is reproducible
    PARAMS = {"seconds": (float, 0.001, 86_400.0, DEFAULT_SECONDS), "playouts": (int, 1, 10_000_000, None),
              "c": (float, 0.0, 100.0, SEARCH_C), "prior": (float, 0.0, 100.0, DEFAULT_PRIOR),
              "depth": (int, 0, 10_000_000, None)}

    def __init__(self, seed: int | None = None, seconds: float | None = DEFAULT_SECONDS, playouts: int | None = None,
                 c: float = SEARCH_C, depth: int | None = None, prior: float = DEFAULT_PRIOR):
        super().__init__(seed, playouts, seconds, c, depth, prior)

    def hooks(self, state) -> Hooks:
        from imperial_lab.core.evaluator import evaluator

        return Hooks(state, evaluate=evaluator(state.game.name).win_chances)

    def playout_limits(self, state) -> tuple:
        """A playout stops at the evaluator's next checkpoint (the positions it was trained on), or
        after ``depth`` decisions (default: the game part's ``LEAF_DECISIONS``)."""
        from imperial_lab.core.evaluator import evaluator

        part = evaluator(state.game.name).part
        return (part.LEAF_DECISIONS if self.depth is None else self.depth), part.checkpoint

    def policy(self, hooks: Hooks, state, rng: random.Random):
        """The heuristic (the game's playout policy, else its heuristic bot), unless the evaluator's
        part says it is too slow to ask at every node (``SEARCH_PRIOR = False``: uniform)."""
        from imperial_lab.core.evaluator import heuristic_policy

        if not self.prior_weight(state):
            return uniform_policy(rng)
        return heuristic_policy(state, rng) or hooks.playout_policy(rng)

    def prior_weight(self, state) -> float:
        """``prior``, or 0 where the game's part has no cheap prior (``SEARCH_PRIOR = False``): a
        choice drawn at random must not be favoured."""
        from imperial_lab.core.evaluator import evaluator

        return self.prior if getattr(evaluator(state.game.name).part, "SEARCH_PRIOR", True) else 0.0
