"""Bots: objects with ``decide(state, legal_actions) -> action`` (catanatron's API), and the bot specs
that name them.

They see the game only through the game-agnostic interface (``imperial_lab.core.interface``). The bots of every game
are here (``random``, and the search bot ``mcts``); a bot that needs a game's rules (Imperial 2030's
``heuristic``) is that game's, declared in its plug-in (``imperial_lab.core.plugin.GamePlugin.bots``), so every
function that reads a spec takes the ``game`` it is for (default Imperial 2030).

A **bot spec** is ``NAME`` or ``NAME:key=value[:key=value...]``, e.g. ``heuristic:temperature=0.5``
or ``mcts:playouts=200``. Each bot class declares its parameters in ``PARAMS``: name ->
``(type, low, high, default)`` with ``type`` ``int`` or ``float`` and ``low..high`` the accepted
range (a parameter whose default is None also takes ``none``), and builds itself with
``from_params(params, seed)``; a class whose defaults depend on other parameters says so in
``spec_defaults(params)``. ``canonical_spec`` gives the one text of a spec (keys sorted, numbers
normalised, parameters at their default dropped): that text is what logs, run.json and the
``bots`` column hold, so two spellings of one bot are one entrant of a league.
Specs hold no commas: ``--bots`` is a comma list of per-seat specs.
"""

from __future__ import annotations

import importlib.util
import math
import random
import re

from imperial_lab.core.errors import SetupError
from imperial_lab.core.jsonio import clip
from imperial_lab.core.registry import plugin

MAX_SPEC_CHARS = 200  # a move log's header refuses longer bot names (core/gamelog.py)
_INT = re.compile(r"[+-]?[0-9]{1,18}\Z")
# float() alone would take "1_0", "inf", "nan" and " 1": a spec number is plain decimal notation
_FLOAT = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]{1,4})?\Z")


class RandomBot:
    """Uniform over the legal actions, from its own seeded generator."""

    name = "random"
    PARAMS: dict = {}

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    @classmethod
    def from_params(cls, params: dict, seed: int | None = None) -> RandomBot:
        return cls(seed)

    def decide(self, state, legal_actions):
        return legal_actions[self.rng.randrange(len(legal_actions))]


class TwoBudgets:
    """The spec side of a bot with two budgets, a number of playouts and seconds of wall clock, of
    which one has a default: ``ALONE = (given, dropped)`` says that a spec giving ``given`` without
    ``dropped`` drops ``dropped``'s default (``mcts:seconds=1`` has no playout cap), both when the bot
    is built and in its canonical spec."""

    PARAMS: dict
    ALONE: tuple[str, str]

    @classmethod
    def from_params(cls, params: dict, seed: int | None = None):
        given, dropped = cls.ALONE
        if given in params and dropped not in params:
            params = {**params, dropped: None}
        return cls(seed, **params)  # type: ignore[call-arg]

    @classmethod
    def spec_defaults(cls, params: dict) -> dict:
        """The defaults given the other parameters (``ALONE``)."""
        given, dropped = cls.ALONE
        defaults = {key: d[3] for key, d in cls.PARAMS.items()}
        if params.get(given) is not None:
            defaults[dropped] = None
        return defaults


BOTS: dict[str, type] = {"random": RandomBot}  # the bots of every game
EVALUATOR_BOTS: dict = {}  # the bots of every game with a learned evaluator: greedy, rollout, search (docs/evaluator.md)
_MISSING: dict[str, str] = {}  # bots that could not be loaded, and why (named when one is asked for)


def bot_classes(game: str | None = None) -> dict:
    """The bots of ``game``: BOTS, the search bot ``mcts`` when core/mcts.py provides ``MCTSBot``, the
    bots on the learned evaluator (``greedy``, ``rollout``, ``search``) when the game has one, and the game's own bots. mcts is imported only here, so ``import imperial_lab.core.bots`` stays light, and a missing or
    broken core/mcts.py costs only that bot."""
    if "mcts" not in BOTS and "mcts" not in _MISSING:
        try:
            from imperial_lab.core.mcts import MCTSBot, SearchBot
        except ImportError as exc:
            _MISSING["mcts"] = _MISSING["search"] = f"core/mcts.py cannot be loaded: {exc}"
        else:
            BOTS["mcts"], EVALUATOR_BOTS["search"] = MCTSBot, SearchBot
    if "greedy" not in EVALUATOR_BOTS and "greedy" not in _MISSING:
        try:
            from imperial_lab.core.evaluator import GreedyBot
        except ImportError as exc:  # numpy missing
            _MISSING["greedy"] = f"core/evaluator.py cannot be loaded: {exc}"
        else:
            from imperial_lab.core.rollout import RolloutBot

            EVALUATOR_BOTS["greedy"], EVALUATOR_BOTS["rollout"] = GreedyBot, RolloutBot
    owner = plugin(game)
    judged = EVALUATOR_BOTS if has_evaluator_part(owner) else {}
    return {**BOTS, **judged, **{name: owner.bot_class(name) for name in owner.bots}}


def has_evaluator_part(owner) -> bool:
    """Whether a game (its plug-in) has a learned evaluator's part, ``evaluator.py`` beside its rules
    (imperial_lab.core.evaluator), found without importing it."""
    package = owner.game.__module__.rsplit(".", 1)[0]
    try:
        return importlib.util.find_spec(f"{package}.evaluator") is not None
    except ModuleNotFoundError:
        return False


def parse_bot_spec(text: str, where: str = "bot spec", game: str | None = None) -> tuple[str, dict]:
    """``(name, params)`` of a bot spec for ``game``, each value of its declared type and range.

    SetupError, starting with ``where`` (e.g. ``--bots``) and quoting the spec, for an empty or
    unknown name, an unknown, repeated or malformed key, or a value out of range.
    """
    if not isinstance(text, str):
        raise SetupError(f"{where}: a bot spec is a text such as heuristic:temperature=0.5, got {clip(text)}")
    spec = text.strip()

    def refuse(why: str):
        raise SetupError(f"{where}: {clip(spec)}: {why}")

    if len(spec) > MAX_SPEC_CHARS:
        refuse(f"longer than {MAX_SPEC_CHARS} characters")
    name, *pairs = spec.split(":")
    name = name.strip()
    classes = bot_classes(game)
    if not name:
        refuse(f"unknown bot '': no name (a spec is NAME or NAME:key=value[:key=value]; known: "
               f"{', '.join(sorted(classes))})")
    if name not in classes:
        why = f"; {_MISSING[name]}" if name in _MISSING else ""
        refuse(f"unknown bot {clip(name)} (known: {', '.join(sorted(classes))}){why}")
    declared = classes[name].PARAMS
    known = f"known: {', '.join(declared)}" if declared else "it takes none"
    params: dict = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or not key or not value:
            refuse(f"{clip(pair)} is not key=value")
        if key not in declared:
            refuse(f"unknown parameter {clip(key)} of bot {name} ({known})")
        if key in params:
            refuse(f"parameter {key!r} given twice")
        def bad(why: str, key=key):
            refuse(f"parameter {key!r}: {why}")
        params[key] = _value(value, declared[key], bad)
    return name, params


def _value(text: str, declared: tuple, refuse):
    kind, low, high = declared[:3]
    if text.lower() == "none" and len(declared) > 3 and declared[3] is None:
        return None
    if kind is int:
        if not _INT.match(text):
            refuse(f"expected a whole number {low:,}..{high:,}, got {clip(text)}")
        value: float = int(text)
    else:
        if not _FLOAT.match(text):
            refuse(f"expected a number {_number(low)}..{_number(high)}, got {clip(text)}")
        value = float(text)
        if not math.isfinite(value):  # 1e999 reads as inf
            refuse(f"expected a finite number {_number(low)}..{_number(high)}, got {clip(text)}")
    if not low <= value <= high:
        refuse(f"must be {_number(low)}..{_number(high)}, got {clip(text)}")
    return value


def _number(x) -> str:
    """A spec number's one text: 0.50 -> 0.5, 1.0 -> 1, 2 -> 2."""
    if isinstance(x, str):
        return x
    if isinstance(x, int):
        return str(x)
    text = repr(float(x))
    return text[:-2] if text.endswith(".0") else text


def canonical_spec(text: str, where: str = "bot spec", game: str | None = None) -> str:
    """The one text of a bot spec: its name, then its non-default parameters sorted by key, numbers
    normalised (``heuristic:temperature=0.50`` and ``heuristic:temperature=0.5`` give the same)."""
    name, params = parse_bot_spec(text, where, game)
    cls = bot_classes(game)[name]
    defaults = (cls.spec_defaults(params) if hasattr(cls, "spec_defaults")
                else {key: d[3] for key, d in cls.PARAMS.items() if len(d) > 3})
    kept = sorted((key, value) for key, value in params.items() if key not in defaults or value != defaults[key])
    return ":".join([name] + [f"{key}={'none' if value is None else _number(value)}" for key, value in kept])


def parse_bot_list(text: str, where: str = "--bots", game: str | None = None) -> list[str]:
    """The canonical specs of a comma list of bot specs (one per seat), in order."""
    return [canonical_spec(part, where, game) for part in str(text).split(",")]


def seat_bots(text: str, players: int, where: str = "--bots", game: str | None = None) -> list[str]:
    """``--bots`` of ``imperial play`` and ``simulate``: one spec for every seat, or one per seat."""
    specs = parse_bot_list(text, where, game)
    if len(specs) == 1:
        return specs * players
    if len(specs) != players:
        raise SetupError(f"{where}: {len(specs)} bots named for {players} players (give one, or one per seat)")
    return specs


def make_bot(spec: str, seed: int | None = None, game: str | None = None):
    """The bot of a spec for ``game`` (``random``, ``heuristic:temperature=0.5``), seeded with ``seed``."""
    name, params = parse_bot_spec(spec, game=game)
    return bot_classes(game)[name].from_params(params, seed)


def lineup_entrants(bots: str | None) -> list[str]:
    """The distinct specs of a comma list of per-seat specs, in seat order ([] for imported games)."""
    return list(dict.fromkeys(bots.split(","))) if isinstance(bots, str) and bots else []


def lineup_text(bots: str | None, rotate: bool = False) -> str:
    """How a run's bots are shown: "heuristic ×4" for one bot in every seat, "league of heuristic,
    random ×2" for a rotated line-up (its seats change every game, so only the entrants say what
    played), the per-seat list otherwise, and "mixed" for imported games, which do not say."""
    if not isinstance(bots, str) or not bots:  # pandas reads a NULL as None or NaN
        return "mixed"
    seats = bots.split(",")
    names = lineup_entrants(bots)
    if len(names) == 1:
        return f"{names[0]} ×{len(seats)}"
    if not rotate:
        return bots
    counted = [name if seats.count(name) == 1 else f"{name} ×{seats.count(name)}" for name in names]
    return "league of " + ", ".join(counted)
