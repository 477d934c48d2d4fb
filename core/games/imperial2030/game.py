"""The Imperial 2030 game: its configuration (setup and rule options) and the factory of states."""

from __future__ import annotations

from imperial_lab.core.engine import game_config
from imperial_lab.core.errors import SetupError
from imperial_lab.core.games.imperial2030 import search
from imperial_lab.core.games.imperial2030.data import NATIONS, load_board
from imperial_lab.core.games.imperial2030.distribution import validate_distribution
from imperial_lab.core.games.imperial2030.limits import MAX_UNIT_LIMIT
from imperial_lab.core.games.imperial2030.position import state_from_document
from imperial_lab.core.games.imperial2030.setup import start
from imperial_lab.core.games.imperial2030.state import State
from imperial_lab.core.jsonio import clip

SETUPS = ("standard", "variant", "custom")
CONFIG_KEYS = {"game", "players", "setup", "deal", "start_player", "distribution", "unit_limits", "cash_topup",
               "name"}


class Imperial2030:
    """Imperial 2030 configured by a dict (docs/formats.md, "Game configuration")."""

    name = "imperial2030"

    def __init__(self, config: dict | None = None):
        config = game_config(config, self.name, CONFIG_KEYS)
        self.board = load_board()
        self.setup = config.get("setup", "standard")
        if self.setup not in SETUPS:
            raise SetupError(f"config.setup: {clip(self.setup)} is not one of {', '.join(SETUPS)}")
        players = config.get("players")
        listed = config.get("distribution", {}).get("players") if isinstance(config.get("distribution"), dict) else None
        if self.setup == "custom" and players is None and isinstance(listed, list):
            players = len(listed)
        players = 4 if players is None else players
        if type(players) is not int or not 2 <= players <= 6:
            raise SetupError(f"config.players: must be 2..6, got {clip(players)}")
        if not isinstance(config.get("name", ""), str) or len(config.get("name", "")) > 200:
            raise SetupError(f"config.name: a setup's name (text of at most 200 characters), got {clip(config['name'])}")
        self.num_players = players
        self.deal = config.get("deal")
        if self.deal is not None and (self.setup != "standard" or not isinstance(self.deal, list)):
            raise SetupError("config.deal: a list of flag cards per seat, only with the standard setup")
        for code in self.deal or []:
            if code not in NATIONS:
                raise SetupError(f"config.deal: unknown flag card {clip(code)} (expected one of {', '.join(NATIONS)})")
        self.start_player = config.get("start_player", 0)
        if (not isinstance(self.start_player, int) or isinstance(self.start_player, bool)
                or not 0 <= self.start_player < players):
            raise SetupError(f"config.start_player: must be a seat 0..{players - 1}")
        self.distribution = None
        if self.setup == "custom":
            self.distribution = validate_distribution(config.get("distribution"), players, self.board.bond_cost)
        limits = list(self.board.unit_limits)
        if not isinstance(config.get("unit_limits") or {}, dict):
            raise SetupError('config.unit_limits: an object like {"CN": {"armies": 10, "fleets": 6}}')
        for code, entry in (config.get("unit_limits") or {}).items():
            if code not in NATIONS or not isinstance(entry, dict):
                raise SetupError(f"config.unit_limits: unknown nation {clip(code)}")
            a, f = entry.get("armies", limits[NATIONS.index(code)][0]), entry.get("fleets", limits[NATIONS.index(code)][1])
            if not all(type(v) is int and 0 <= v <= MAX_UNIT_LIMIT for v in (a, f)):
                raise SetupError(f"config.unit_limits.{code}: armies and fleets must be whole numbers "
                                 f"0..{MAX_UNIT_LIMIT}")
            limits[NATIONS.index(code)] = (a, f)
        self.unit_limits = tuple(limits)
        self.cash_topup = config.get("cash_topup", True)
        if not isinstance(self.cash_topup, bool):
            raise SetupError("config.cash_topup: must be true or false")
        self.config = {"game": self.name, **config, "players": players, "setup": self.setup}

    def new_initial_state(self):
        state = State(self, self.num_players)
        start(state, self)  # its events (a given deal, a custom distribution) stay in state.events
        return state

    def state_from_json(self, doc: dict, check: bool = True):
        """The state of a position document; ``check=False`` skips the invariant checks, for tests
        that build a position around one rule (a government without bonds, say)."""
        return state_from_document(State(self, self.num_players), doc, check)

    # ----- search hooks (docs/interface.md, "Search hooks"; core/games/imperial2030/search.py) -----

    def evaluate(self, state) -> list[float]:
        """Each seat's estimated share of the win, in [0, 1] (the scores if it ended now, softened)."""
        return search.evaluate(state)

    def playout_policy(self, rng):
        """A cheap policy for playouts, state -> action: the heuristic bot seeded from ``rng``."""
        return search.playout_policy(rng)

    def resample(self, state, player: int, rng):
        """A state consistent with what ``player`` has seen: nothing is hidden, so a copy."""
        return search.resample(state, player, rng)
