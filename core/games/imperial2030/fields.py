"""What a position of Imperial 2030 holds (``Fields``): the fields, declared once with their types
(they make the ``__slots__`` and the ``clone`` of the engine base), their starting values, and the
helpers every rule module uses (money, units). The rule mixins (``turn``, ``maneuver``, ``investor``,
``setup``) subclass it and ``state.State`` joins them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar
from collections.abc import Callable, Iterable

from imperial_lab.core.engine import BaseState
from imperial_lab.core.games.imperial2030.actions import ARMY_UNIT, HOSTILE, NO_STANCE
from imperial_lab.core.games.imperial2030.data import HOME, NATIONS, Board
from imperial_lab.core.games.imperial2030.pending import CHANCE, P_DEAL

_NATION_INDEX = {code: n for n, code in enumerate(NATIONS)}


class Fields(BaseState):
    """The data of a position and the helpers over it (see the module docstring)."""

    SHARED = ("board", "nplayers", "card", "bank", "nation", "nation_turns", "round", "terminal", "pending",
              "queue", "dest", "passing", "topped", "imports", "denied", "armies_phase", "move", "arrival",
              "flag_todo", "end_nation", "variant_step", "setup_done", "occ_mask", "bonds_touched")
    LISTS = ("cash", "swiss", "owner", "treasury", "pp", "rondel", "gov", "factory", "armies", "hostile",
             "fleets", "occ", "n_armies", "n_fleets", "flag", "flag_count", "army_at", "fleet_at", "nations_in")
    DICTS = ("moved_f", "moved_a", "moved_h", "convoyed")
    __slots__ = SHARED + LISTS + DICTS

    # What a position holds. Units are counts in flat lists indexed ``nation * R + region`` (R = number
    # of regions): ``armies`` (all armies), ``hostile`` (the upright ones among them, only ever in
    # another nation's home province), ``fleets`` (a fleet on a land region lies in that harbour).
    # Everything a rule reads is kept up to date incrementally (``occ``: hostile armies per region, unit
    # and flag totals, bit masks of the regions holding something: ``army_at[n]``, ``fleet_at[n]`` per
    # nation and ``occ_mask``, so that the rules visit the few occupied regions instead of scanning the
    # map, and ``nations_in``: how many nations have units in each region, so that a battle is looked
    # for only where two meet).
    board: Board
    nplayers: int
    card: int  # the investor card's holder (-1: none yet)
    bank: int
    nation: int  # the nation whose turn it is (-1: none)
    nation_turns: int
    round: int
    terminal: bool
    pending: tuple[int, int]  # (kind of decision, the seat deciding or CHANCE)
    queue: tuple[Any, ...]
    dest: int
    passing: bool
    topped: bool
    imports: tuple[Any, ...]
    denied: frozenset[Any]
    armies_phase: bool
    move: Any
    arrival: Any
    flag_todo: tuple[Any, ...]
    end_nation: int
    variant_step: int
    setup_done: bool
    occ_mask: int
    bonds_touched: int
    cash: list[int]
    swiss: list[bool]
    owner: list[int]
    treasury: list[int]
    pp: list[int]
    rondel: list[int]
    gov: list[int]
    factory: list[bool]
    armies: list[int]
    hostile: list[int]
    fleets: list[int]
    occ: list[int]
    n_armies: list[int]
    n_fleets: list[int]
    flag: list[int]
    flag_count: list[int]
    army_at: list[int]
    fleet_at: list[int]
    nations_in: list[int]
    moved_f: dict[Any, Any]
    moved_a: dict[Any, Any]
    moved_h: dict[Any, Any]
    convoyed: dict[Any, Any]
    # the rules of each kind of decision, indexed by kind (set on State: state.py)
    _GENERATORS: ClassVar[tuple[Callable[..., list[Any]], ...]]
    _APPLIERS: ClassVar[tuple[Callable[..., None], ...]]
    _EXPLAINERS: ClassVar[tuple[Callable[..., tuple[str, str]], ...]]
    _SPACE_ACTIONS: ClassVar[tuple[Callable[..., None], ...]]


    def __init__(self, game, nplayers: int):
        super().__init__(game)
        b: Board = game.board
        R = b.nregions
        self.board, self.nplayers = b, nplayers
        self.cash = [0] * nplayers
        self.swiss = [False] * nplayers
        self.owner = [-1] * 54  # bond (nation * 9 + number - 1) -> player
        self.treasury, self.pp, self.rondel, self.gov = [0] * 6, [0] * 6, [-1] * 6, [-1] * 6
        self.factory = [False] * R
        for r in b.starting_factories:
            self.factory[r] = True
        self.armies, self.hostile, self.fleets = [0] * (6 * R), [0] * (6 * R), [0] * (6 * R)
        self.occ = [0] * R
        self.occ_mask = 0
        self.n_armies, self.n_fleets = [0] * 6, [0] * 6
        self.army_at, self.fleet_at = [0] * 6, [0] * 6
        self.nations_in = [0] * R  # how many nations have units in each region
        self.flag = [-1] * R
        self.flag_count = [0] * 6
        self.moved_f, self.moved_a, self.moved_h, self.convoyed = {}, {}, {}, {}
        self.card = -1
        self.bank = 0  # bank's net balance: money in the game + bank == 0 at all times
        self.nation = -1
        self.nation_turns = 0
        self.round = 0
        self.terminal = False
        self.pending = (P_DEAL, CHANCE)
        self.queue = ()
        self.dest = -1
        self.passing = False
        self.topped = False
        self.imports = ()
        self.denied = frozenset()
        self.armies_phase = False
        self.move = None
        self.arrival = None
        self.flag_todo = ()
        self.end_nation = -1
        self.variant_step = 0
        self.setup_done = False
        self.bonds_touched = 0b111111  # nations whose bonds changed since the last §9 check

    # ----- helpers every rule module uses -----

    def pay(self, payer: str, payee: str, amount: int, reason: str, rule: str) -> None:
        """Move money between 'bank', a nation code (its treasury) and 'player:N'."""
        if amount <= 0:
            return
        self._adjust(payer, -amount)
        self._adjust(payee, amount)
        if self.recording:  # the commonest event: spare building its fields when nobody records
            self.emit("payment", rule, **{"from": payer, "to": payee, "amount": amount, "reason": reason})

    def _adjust(self, who: str, delta: int) -> None:
        if who == "bank":
            self.bank += delta
        elif who in _NATION_INDEX:
            self.treasury[_NATION_INDEX[who]] += delta
        else:  # "player:N"
            self.cash[int(who[7:])] += delta

    def pf(self, n: int) -> int:
        return min(self.pp[n], 25) // 5

    def working_factories(self, n: int) -> list[int]:
        """U(X) of §7.4.6: the nation's factories whose province holds no hostile army."""
        return [r for r in self.board.homes[n] if self.factory[r] and not self.occ[r]]

    def add_units(self, n: int, kind: int, r: int, count: int = 1, stance: int = NO_STANCE) -> None:
        i = n * self.board.nregions + r
        bit = 1 << r
        if not (self.army_at[n] | self.fleet_at[n]) & bit:
            self.nations_in[r] += 1
        if kind == ARMY_UNIT:
            self.armies[i] += count
            self.n_armies[n] += count
            self.army_at[n] |= bit
            if stance == HOSTILE:
                self.hostile[i] += count
                self.occ[r] += count
                self.occ_mask |= bit
        else:
            self.fleets[i] += count
            self.n_fleets[n] += count
            self.fleet_at[n] |= bit

    def remove_unit(self, n: int, kind: int, r: int, stance: int) -> None:
        i = n * self.board.nregions + r
        bit = 1 << r
        if kind == ARMY_UNIT:
            self.armies[i] -= 1
            self.n_armies[n] -= 1
            if stance == HOSTILE:
                self.hostile[i] -= 1
                self.occ[r] -= 1
                if not self.occ[r]:
                    self.occ_mask &= ~bit
            if self.armies[i]:
                return
            self.army_at[n] &= ~bit
        else:
            self.fleets[i] -= 1
            self.n_fleets[n] -= 1
            if self.fleets[i]:
                return
            self.fleet_at[n] &= ~bit
        if not (self.army_at[n] | self.fleet_at[n]) & bit:
            self.nations_in[r] -= 1

    def foreign_home(self, n: int, r: int) -> bool:
        return self.board.kind[r] == HOME and self.board.home_nation[r] != n

    if TYPE_CHECKING:  # the rules one mixin calls in another (turn.py, investor.py), for the type checker
        def next_turn(self) -> None: ...
        def action_done(self) -> None: ...
        def seats_from(self, p: int) -> list[int]: ...
        def bond_transactions(self, p: int, upgrades: bool, nations: Iterable[int] = ...) -> list[Any]: ...
        def explain_bond(self, action: Any, rule: str) -> tuple[str, str]: ...
        def check_governments(self, rule: str) -> None: ...
        def update_swiss_banks(self, rule: str) -> None: ...
        def investor_steps_2_to_6(self) -> None: ...
        def transact(self, p: int, action: Any, rule: str) -> None: ...
        def action_to_string(self, action: Any) -> str: ...
