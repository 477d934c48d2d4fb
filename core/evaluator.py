"""The learned evaluator (docs/evaluator.md): each seat's chance to win a position, for any game
that ships a model.

A game's part is its module ``evaluator.py`` beside its rules (``core/games/<game>/evaluator.py``):
``FEATURES`` (the names of a seat's row), ``features(state)`` (one row of plain numbers per seat,
read from public information only), ``STAGES`` and ``stage(state)`` (for the figures by stage),
``checkpoint(state)`` (the positions a game is judged at: a nation's turn in Imperial 2030) and
``started(state)``. The model is a small network trained with scikit-learn
(``imperial_lab.core.evaluator_train``) and shipped as one JSON file, ``data/<game>/evaluator.json``:
its format version, the feature names it was trained on, the weights, the recipe that rebuilds it
and its held-out figures. Inference runs in numpy: each seat's row is scored by the network (the
chance that this seat wins, read alone), and the seats' chances are scaled to sum to 1.

    from imperial_lab.core.evaluator import evaluator
    evaluator("imperial2030").win_chances(state)      # [0.41, 0.22, 0.19, 0.18]

Models are loaded once per process, when first asked for. A terminal position's chances are the
result itself: 1 shared among the winners.
"""

from __future__ import annotations

import importlib
import json
import random
from functools import cache
from types import ModuleType

import numpy as np

from imperial_lab.core.errors import SetupError
from imperial_lab.core.files import data_path
from imperial_lab.core.registry import plugin

FORMAT = 1  # the model file's format: a file of another format is refused, never misread
MODEL_FILE = "evaluator.json"
_INSTALLED: dict[str, Evaluator] = {}  # models set by training (install) before the shipped ones


def game_part(game: str) -> ModuleType:
    """The game's ``evaluator`` module (its features), beside its rules; SetupError when it has none."""
    from imperial_lab.core.bots import has_evaluator_part

    owner = plugin(game)
    if not has_evaluator_part(owner):
        raise SetupError(f"{owner.title} has no evaluator yet")
    return importlib.import_module(owner.game.__module__.rsplit(".", 1)[0] + ".evaluator")


class Evaluator:
    """A trained model of one game: ``win_chances(state)``, ``score_shares(state)`` and ``values``
    (the chances of many positions' rows at once)."""

    def __init__(self, game: str, doc: dict):
        self.game = game
        self.part = game_part(game)
        if doc.get("format") != FORMAT:
            raise SetupError(f"evaluator of {game}: format {doc.get('format')!r}, this lab reads {FORMAT}; "
                             f"rebuild it with: imperial evaluator train --game {game}")
        if list(doc.get("features", ())) != list(self.part.FEATURES):
            raise SetupError(f"evaluator of {game}: its features differ from the game's "
                             f"(core/games/{game}/evaluator.py); rebuild it with: imperial evaluator train --game {game}")
        self.doc = doc
        net = doc["network"]
        self.mean = np.array(net["mean"])
        self.scale = np.array(net["scale"])
        self.layers = [(np.array(w), np.array(b)) for w, b in zip(net["weights"], net["biases"])]
        share = doc["score_share"]
        self.share_weights, self.share_bias = np.array(share["weights"]), float(share["bias"])
        self.features = self.part.features

    def logits(self, x: np.ndarray) -> np.ndarray:
        """The network's logit for each row of ``x`` (rows of FEATURES, unscaled)."""
        h = (x - self.mean) / self.scale
        *hidden, (w, b) = self.layers
        for wk, bk in hidden:
            h = np.maximum(h @ wk + bk, 0.0)
        return (h @ w + b)[:, 0]

    def win_chances(self, state) -> list[float]:
        """Each seat's chance to win, summing to 1 (the result itself at the end)."""
        if state.is_terminal():
            won = state.winners()
            return [1 / len(won) if p in won else 0.0 for p in range(len(state.returns()))]
        return normalise(self.logits(np.array(self.features(state), dtype=float))).tolist()

    def score_shares(self, state) -> list[float]:
        """Each seat's expected share of the final scores (a linear model of the same rows)."""
        if state.is_terminal():
            scores = np.maximum(np.array(state.returns(), dtype=float), 0.0)
            return (scores / (scores.sum() or 1.0)).tolist()
        x = (np.array(self.features(state), dtype=float) - self.mean) / self.scale
        shares = np.maximum(x @ self.share_weights + self.share_bias, 1e-3)
        return (shares / shares.sum()).tolist()


def normalise(logits: np.ndarray) -> np.ndarray:
    """Each seat's chance read alone (a sigmoid of its logit), scaled so the seats' chances sum to 1."""
    p = 1.0 / (1.0 + np.exp(-logits))
    return p / p.sum()


def model_path(game: str):
    return data_path(game, MODEL_FILE)


def evaluator(game: str) -> Evaluator:
    """The evaluator of ``game`` (a model training installed, else the shipped one); SetupError when
    the game has none."""
    if game in _INSTALLED:
        return _INSTALLED[game]
    return _shipped(game)


@cache
def _shipped(game: str) -> Evaluator:
    path = model_path(game)
    if not path.is_file():
        game_part(game)  # a game without features says so first
        raise SetupError(f"no evaluator shipped for {game}: build it with imperial evaluator train --game {game}")
    return Evaluator(game, json.loads(path.read_text(encoding="utf-8")))


def install(game: str, model: Evaluator | None) -> None:
    """Use ``model`` as ``game``'s evaluator in this process (and processes forked from it), or the
    shipped one again with None: training rounds play with the model of the round before."""
    if model is None:
        _INSTALLED.pop(game, None)
    else:
        _INSTALLED[game] = model


def win_chances(state) -> list[float]:
    """Each seat's chance to win ``state`` by its game's evaluator."""
    return evaluator(state.game.name).win_chances(state)


DEFAULT_MARGIN = 0.03  # chance a move must gain over the heuristic's choice to be played instead: one
# heuristic playout per action is noisy (Imperial 2030, one seat against three heuristics, before the
# playouts shared their draws: 0.01 won 30.5% of 400 games, 0.03 won 38.8%; with shared draws 0.03
# won 42.8% of 400 fresh games: docs/search.md)


class GreedyBot:
    """One ply on the evaluator, the fast strength (docs/evaluator.md): every legal action is applied
    to a copy, played on by the heuristic (the game's playout policy) to the next checkpoint, and the
    resulting positions are judged in one pass of the model; the bot plays the heuristic's choice
    unless another action raises its chance by more than ``margin``. Seeded like the heuristic.

    With ``same_draws`` (the default) every action's playout draws from the same seed (common random
    numbers): the heuristic and the chance of one decision's playouts make the same draws whatever
    the action, so two actions' values differ by what the actions do rather than by the luck of their
    playouts. ``same_draws=0`` draws them one after the other from the bot's generator, as the bot
    did before (the expert-iteration games of the shipped models were played so)."""

    name = "greedy"
    PARAMS = {"margin": (float, 0.0, 1.0, DEFAULT_MARGIN), "same_draws": (int, 0, 1, 1)}

    def __init__(self, seed: int | None = None, margin: float = DEFAULT_MARGIN, same_draws: int = 1):
        self.rng = random.Random(seed)
        self.margin = margin
        self.same_draws = same_draws
        self._policy = None
        self.last_values: list[float] = []

    @classmethod
    def from_params(cls, params: dict, seed: int | None = None) -> GreedyBot:
        return cls(seed, **params)

    def decide(self, state, legal_actions):
        if len(legal_actions) == 1:
            return legal_actions[0]
        hint = self._hint(state, legal_actions)
        values = self.values(state, legal_actions)
        best = max(range(len(legal_actions)), key=values.__getitem__)
        if hint is None or values[best] - values[legal_actions.index(hint)] > self.margin:
            return legal_actions[best]
        return hint

    def values(self, state, legal_actions) -> list[float]:
        """The deciding seat's chance after each action (``same_draws``: every playout from one seed)."""
        if self.same_draws:
            seed = self.rng.getrandbits(32)
            children = []
            for action in legal_actions:
                rng = random.Random(seed)
                children.append(after(state, action, heuristic_policy(state, rng), rng))
        else:
            children = [after(state, action, self._heuristic(state), self.rng) for action in legal_actions]
        self.last_values = judge(state, children)
        return self.last_values

    def _hint(self, state, legal_actions):
        policy = self._heuristic(state)
        return policy(state) if policy else None

    def _heuristic(self, state):
        """The heuristic of the bot's own choices (and of its playouts with ``same_draws=0``)."""
        if self._policy is None:
            self._policy = heuristic_policy(state, self.rng)
        return self._policy


def heuristic_policy(state, rng):
    """The game's playout policy (its heuristic) seeded from ``rng``, else its heuristic bot, else None."""
    policy = getattr(state.game, "playout_policy", None)
    if policy is not None:
        return policy(rng)
    from imperial_lab.core.bots import bot_classes, make_bot

    if "heuristic" not in bot_classes(state.game.name):
        return None
    bot = make_bot("heuristic", rng.getrandbits(32), game=state.game.name)
    return lambda s: bot.decide(s, s.legal_actions())


def after(state, action=None, policy=None, rng=None):
    """A copy of ``state`` with ``action``, one of its legal actions, applied (None: none); with
    ``policy``, played on to the evaluator's next checkpoint (``play_on``), so that the position
    judged is one like those the model was trained on (not the middle of a turn)."""
    return play_on(state.clone(), action, policy, rng)


def play_on(state, action=None, policy=None, rng=None, turns: int = 1):
    """``state`` itself (a copy the caller owns), building no events, with ``action`` applied (None:
    none); with ``policy`` (chance drawn from ``rng``), played on through ``turns`` of the evaluator's
    checkpoints, taking at most the game part's ``LEAF_DECISIONS`` decisions for each, or with
    ``turns=0`` to the end of the game."""
    from imperial_lab.core.mcts import applier, sample_chance

    if hasattr(state, "recording"):
        state.recording = False
    apply = applier(state)
    if action is not None:
        apply(state, action)
    if policy is None:
        return state
    part = evaluator(state.game.name).part
    passed = steps = 0
    while not state.is_terminal():
        if turns and part.checkpoint(state):
            passed += 1
            if passed >= turns:
                break
        if turns and steps >= part.LEAF_DECISIONS * turns:
            break
        if state.is_chance_node():
            apply(state, sample_chance(state, rng))
        else:
            apply(state, policy(state))
            steps += 1
    return state


def action_values(state, actions, policy=None, rng=None) -> list[float]:
    """The deciding seat's chance to win after each of ``actions`` (one ply, one pass of the model);
    with ``policy`` (state -> action) each position is first played on to the next checkpoint
    (``after``)."""
    return judge(state, [after(state, action, policy, rng) for action in actions])


def judge(state, children) -> list[float]:
    """The chance to win of ``state``'s deciding seat in each of ``children`` (positions after its
    decision), in one pass of the model."""
    model = evaluator(state.game.name)
    me = state.current_player()
    values = [0.0] * len(children)
    rows, where = [], []
    for i, child in enumerate(children):
        if child.is_terminal():
            values[i] = model.win_chances(child)[me]
        else:
            rows.append(model.features(child))
            where.append(i)
    if rows:
        n = len(rows[0])
        p = 1.0 / (1.0 + np.exp(-model.logits(np.array(rows, dtype=float).reshape(len(rows) * n, -1))))
        p = p.reshape(len(rows), n)
        mine = p[:, me] / p.sum(axis=1)
        for i, v in zip(where, mine.tolist()):
            values[i] = v
    return values
