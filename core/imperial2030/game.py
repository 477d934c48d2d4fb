"""The Imperial 2030 game: its configuration (setup and rule options) and the factory of states."""

from __future__ import annotations

from core.errors import SetupError
from core.imperial2030.board import NATIONS, load_board
from core.imperial2030.limits import MAX_MONEY, MAX_UNIT_LIMIT
from core.jsonio import clip

SETUPS = ("standard", "variant", "custom")
CONFIG_KEYS = {"game", "players", "setup", "deal", "start_player", "distribution", "unit_limits", "cash_topup",
               "name"}


def _bond(entry, where: str) -> tuple[int, int]:
    """A bond written "RU 4", "RU4" or {"nation": "RU", "number": 4}."""
    if isinstance(entry, dict):
        code, number = entry.get("nation"), entry.get("number")
    elif isinstance(entry, str) and len(entry.replace(" ", "")) >= 3:
        text = entry.replace(" ", "")
        code, number = text[:2], text[2:]
    else:
        raise SetupError(f"{where}: a bond is written like 'RU 4', got {clip(entry)}")
    if code not in NATIONS:
        raise SetupError(f"{where}: unknown nation {clip(code)} in bond {clip(entry)}")
    if isinstance(number, str) and number.isascii() and number.isdigit() and len(number) == 1:
        number = int(number)
    if type(number) is not int or not 1 <= number <= 9:
        raise SetupError(f"{where}: bond number must be 1..9 in {clip(entry)}")
    return NATIONS.index(code), number


def validate_distribution(doc, nplayers: int, bond_cost) -> dict:
    """A custom starting distribution: each player's bonds and cash (after paying for them).

    Optional checks: ``starting_cash`` per player (= cash + cost of his bonds), ``treasuries``
    (= cost of the bonds sold in each nation), ``governments`` (must hold the highest credit sum).
    Refuses bonds given twice, unknown nations or bonds, negative cash and sums that do not add up.
    """
    if not isinstance(doc, dict) or not isinstance(doc.get("players"), list):
        raise SetupError("distribution: needs a 'players' list")
    if len(doc["players"]) != nplayers:
        raise SetupError(f"distribution: {len(doc['players'])} players listed for a {nplayers}-player game")
    seen: dict[tuple[int, int], int] = {}
    players = []
    for p, seat in enumerate(doc["players"]):
        where = f"distribution: players[{p}]"
        if not isinstance(seat, dict):
            raise SetupError(f"{where}: must be an object with 'cash' and 'bonds'")
        cash, bonds = _money(seat.get("cash"), f"{where}.cash"), seat.get("bonds", [])
        if not isinstance(bonds, list) or len(bonds) > 54:
            raise SetupError(f"{where}.bonds: must be a list of at most 54 bonds")
        parsed = []
        for k, entry in enumerate(bonds):
            bond = _bond(entry, f"{where}.bonds[{k}]")
            if bond in seen:
                raise SetupError(f"{where}.bonds[{k}]: bond {NATIONS[bond[0]]} {bond[1]} already given to "
                                 f"players[{seen[bond]}]")
            seen[bond] = p
            parsed.append(bond)
        paid = sum(bond_cost[number - 1] for _, number in parsed)
        if "starting_cash" in seat and _money(seat["starting_cash"], f"{where}.starting_cash") != cash + paid:
            raise SetupError(f"{where}: starting_cash {seat['starting_cash']} does not add up: cash {cash} + "
                             f"bonds {paid} = {cash + paid}")
        players.append({"cash": cash, "bonds": parsed})
    if not seen:
        raise SetupError("distribution: no bond is given to anybody, so no nation would have a government")
    for code, amount in _by_nation(doc, "treasuries").items():
        amount = _money(amount, f"distribution.treasuries.{code}")
        sold = sum(bond_cost[number - 1] for (n, number) in seen if NATIONS[n] == code)
        if amount != sold:
            raise SetupError(f"distribution.treasuries.{code}: {amount} does not add up to the bonds sold ({sold})")
    governments = {}
    for code, p in _by_nation(doc, "governments").items():
        if type(p) is not int or not 0 <= p < nplayers:
            raise SetupError(f"distribution.governments.{code}: must be a seat 0..{nplayers - 1}, got {clip(p)}")
        n = NATIONS.index(code)
        credit = [sum(bond_cost[num - 1] for (m, num) in pl["bonds"] if m == n) for pl in players]
        if credit[p] == 0 or credit[p] < max(credit):
            raise SetupError(f"distribution.governments.{code}: players[{p}] does not hold the highest credit sum")
        governments[n] = p
    return {"players": players, "governments": governments}


def _money(value, where: str) -> int:
    if type(value) is not int or not 0 <= value <= MAX_MONEY:
        raise SetupError(f"{where}: must be a whole number 0..{MAX_MONEY:,} (millions), got {clip(value)}")
    return value


def _by_nation(doc: dict, key: str) -> dict:
    """The optional object ``doc[key]`` keyed by nation code, checked."""
    entries = doc.get(key) or {}
    if not isinstance(entries, dict):
        raise SetupError(f"distribution.{key}: must be an object keyed by nation code, got {clip(entries)}")
    for code in entries:
        if code not in NATIONS:
            raise SetupError(f"distribution.{key}: unknown nation {clip(code)}")
    return entries


class Imperial2030:
    """Imperial 2030 configured by a dict (docs/formats.md, "Game configuration")."""

    name = "imperial2030"

    def __init__(self, config: dict | None = None):
        config = dict(config or {})
        unknown = set(config) - CONFIG_KEYS
        if unknown:
            raise SetupError(f"config: unknown keys {sorted(unknown)} (known: {sorted(CONFIG_KEYS)})")
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
        from core.imperial2030.setup import start
        from core.imperial2030.state import State

        state = State(self, self.num_players)
        start(state, self)  # its events (a given deal, a custom distribution) stay in state.events
        return state

    def state_from_json(self, doc: dict, check: bool = True):
        """The state of a position document; ``check=False`` skips the invariant checks, for tests
        that build a position around one rule (a government without bonds, say)."""
        from core.imperial2030.position import state_from_document
        return state_from_document(self, doc, check)

    # ----- search hooks (docs/interface.md, "Search hooks"; core/imperial2030/search.py) -----

    def evaluate(self, state) -> list[float]:
        """Each seat's estimated share of the win, in [0, 1] (the scores if it ended now, softened)."""
        from core.imperial2030.search import evaluate
        return evaluate(state)

    def playout_policy(self, rng):
        """A cheap policy for playouts, state -> action: the heuristic bot seeded from ``rng``."""
        from core.imperial2030.search import playout_policy
        return playout_policy(rng)

    def resample(self, state, player: int, rng):
        """A state consistent with what ``player`` has seen: nothing is hidden, so a copy."""
        from core.imperial2030.search import resample
        return resample(state, player, rng)
