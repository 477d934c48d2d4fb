"""The Imperial Powers game: its configuration (RULES.md §6.4, data.json › options) and the factory
of states, with the search hooks.

Config keys: ``game`` ("imperial_powers"), ``players`` (3-5, default 4; ``n_players`` is the same
key under data.json's name), ``power_assignment`` (``pick``, the default: from the instigator
clockwise, R3; ``random``: a chance node per seat; ``fixed``: ``powers``, a list of one power id
per seat), ``tie_rule`` (R14), ``spain_bonus_on_exploitation`` (R16), ``portuguese_bonus`` (R7),
``event_resolution`` (R17), ``tactics_visibility`` (R12) and ``turns`` (R19, 1..100). Defaults are
data.json's. The normalised ``config`` names every option, so a move log says which rules it was
played under. Chance is the driver's (core/play.py): there is no ``seed`` key. Every bad value is
a SetupError naming the key.
"""

from __future__ import annotations

from imperial_lab.core.engine import game_config
from imperial_lab.core.errors import SetupError
from imperial_lab.core.jsonio import clip
from imperial_lab.core.games.imperial_powers.data import data
from imperial_lab.core.games.imperial_powers.pending import CHANCE_PHASES, P_POWER
from imperial_lab.core.games.imperial_powers.position import state_from_document
from imperial_lab.core.games.imperial_powers.rules import TIE_RULES
from imperial_lab.core.games.imperial_powers.state import State

D = data()
OPTIONS = ("power_assignment", "tie_rule", "spain_bonus_on_exploitation", "portuguese_bonus", "event_resolution",
           "tactics_visibility", "turns")
CONFIG_KEYS = {"game", "players", "n_players", "powers", *OPTIONS}
MAX_TURNS = 100


class ImperialPowers:
    """Imperial Powers configured by a dict; makes states and offers the search hooks."""

    name = "imperial_powers"

    def __init__(self, config: dict | None = None):
        config = game_config(config, self.name, CONFIG_KEYS)
        self.num_players = _players(config)
        options = {key: _option(config, key) for key in OPTIONS}
        self.power_assignment = options["power_assignment"]
        self.fixed_powers = _powers(config, self.power_assignment, self.num_players)
        self.tie_rule = TIE_RULES.index(options["tie_rule"])
        self.spain_bonus_on_exploitation = options["spain_bonus_on_exploitation"]
        self.portuguese_every_turn = options["portuguese_bonus"] == "every_turn"
        self.immediate_events = options["event_resolution"] == "immediate"
        self.public_tactics = options["tactics_visibility"] == "regions_public"
        self.turns = options["turns"]
        self.chance_phases = frozenset(CHANCE_PHASES + ((P_POWER,) if self.power_assignment == "random" else ()))
        self.config = {"game": self.name, "players": self.num_players, **options}
        if self.fixed_powers is not None:
            self.config["powers"] = [D.powers[w] for w in self.fixed_powers]

    def new_initial_state(self):
        return State(self)

    def state_from_json(self, doc: dict, check: bool = True):
        """The state of a position document (``State.to_json``); NotationError if malformed or,
        with ``check``, if it breaks an invariant."""
        return state_from_document(State(self), doc, check)

    # ----- search hooks (docs/interface.md, "Search hooks") -----

    def resample(self, state, player: int, rng):
        """A state consistent with what ``player`` has seen: the cards it has not seen redealt."""
        from imperial_lab.core.games.imperial_powers.search import resample
        return resample(state, player, rng)

    def evaluate(self, state) -> list[float]:
        """Each seat's estimated share of the win from the VP (final at the end)."""
        from imperial_lab.core.games.imperial_powers.search import evaluate
        return evaluate(state)

    def playout_policy(self, rng):
        """The heuristic bot (a function state -> action) for the playouts, seeded from ``rng``."""
        from imperial_lab.core.games.imperial_powers.search import playout_policy
        return playout_policy(rng)


def _players(config: dict) -> int:
    players = config.get("players", config.get("n_players", D.options["n_players"][0]))
    if "players" in config and "n_players" in config and config["n_players"] != players:
        raise SetupError(f"config.n_players: {clip(config['n_players'])} but config.players {clip(players)}")
    if type(players) is not int or players not in D.player_counts:
        key = "players" if "players" in config else "n_players"
        raise SetupError(f"config.{key}: must be one of {list(D.player_counts)}, got {clip(players)}")
    return players


def _option(config: dict, key: str):
    default, allowed = D.options[key]
    value = config.get(key, default)
    if key == "turns":
        if type(value) is not int or not 1 <= value <= MAX_TURNS:
            raise SetupError(f"config.turns: must be a whole number 1..{MAX_TURNS}, got {clip(value)}")
    elif allowed is None:  # a yes/no ruling
        if type(value) is not bool:
            raise SetupError(f"config.{key}: must be true or false, got {clip(value)}")
    elif value not in allowed:
        raise SetupError(f"config.{key}: must be one of {list(allowed)}, got {clip(value)}")
    return value


def _powers(config: dict, mode: str, n: int) -> tuple | None:
    """The fixed powers by seat (R3), or None for the other modes."""
    powers = config.get("powers")
    if mode != "fixed":
        if powers is not None:
            raise SetupError("config.powers: only with power_assignment 'fixed'")
        return None
    if (not isinstance(powers, list) or len(powers) != n or len(set(map(str, powers))) != n
            or not all(w in D.powers for w in powers)):
        raise SetupError(f"config.powers: {n} different powers of {list(D.powers)} (one per seat) for "
                         f"power_assignment 'fixed', got {clip(powers)}")
    return tuple(D.powers.index(w) for w in powers)
