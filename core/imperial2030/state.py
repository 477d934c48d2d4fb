"""The state of a game of Imperial 2030: plain ints and flat lists, cheap to clone.

Units are counts in flat lists indexed ``nation * R + region`` (R = number of regions):
``armies`` (all armies), ``hostile`` (the upright ones among them, only ever in another nation's
home province), ``fleets`` (a fleet on a land region lies in that harbour). Everything a rule
reads is kept up to date incrementally (``occ``: hostile armies per region, unit and flag totals).

The rules themselves live in mixins, one module per part of the game: ``turn`` (rondel,
factory, production, import, taxation), ``maneuver``, ``investor`` and ``setup``.
"""

from __future__ import annotations

from core.errors import IllegalActionError
from core.interface import seat_name
from core.jsonio import clip
from core.imperial2030.actions import ARMY_UNIT, HOSTILE, NO_STANCE, TOPUP, action_text
from core.imperial2030.board import HOME, NATIONS, Board
from core.imperial2030.events import Event
from core.imperial2030.investor import InvestorRules
from core.imperial2030.maneuver import ManeuverRules
from core.imperial2030.setup import SetupRules
from core.imperial2030.turn import TurnRules
from core.imperial2030.pending import CHANCE, P_DEAL, PENDING_NAMES, TERMINAL

_LISTS = ("cash", "swiss", "owner", "treasury", "pp", "rondel", "gov", "factory", "armies", "hostile",
          "fleets", "occ", "n_armies", "n_fleets", "flag", "flag_count")
_DICTS = ("moved_f", "moved_a", "moved_h", "convoyed")
_SCALARS = ("game", "board", "nplayers", "card", "bank", "nation", "nation_turns", "round", "terminal",
            "pending", "queue", "dest", "passing", "topped", "imports", "denied", "armies_phase", "move",
            "arrival", "flag_todo", "end_nation", "variant_step", "setup_done", "events")


class State(TurnRules, ManeuverRules, InvestorRules, SetupRules):
    """One position of a game. Use ``Imperial2030.new_initial_state`` to make one."""

    __slots__ = _LISTS + _DICTS + _SCALARS + ("_legal", "_legal_set")

    def __init__(self, game, nplayers: int):
        b: Board = game.board
        R = len(b.region_ids)
        self.game, self.board, self.nplayers = game, b, nplayers
        self.cash = [0] * nplayers
        self.swiss = [False] * nplayers
        self.owner = [-1] * 54  # bond (nation * 9 + number - 1) -> player
        self.treasury, self.pp, self.rondel, self.gov = [0] * 6, [0] * 6, [-1] * 6, [-1] * 6
        self.factory = [False] * R
        for r in b.starting_factories:
            self.factory[r] = True
        self.armies, self.hostile, self.fleets = [0] * (6 * R), [0] * (6 * R), [0] * (6 * R)
        self.occ = [0] * R
        self.n_armies, self.n_fleets = [0] * 6, [0] * 6
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
        self.events = []
        self._legal = None
        self._legal_set = None

    # ----- the game-agnostic interface -----

    def current_player(self) -> int:
        """The seat that decides next; CHANCE (-1) at a chance node, TERMINAL (-4) at the end."""
        return TERMINAL if self.terminal else self.pending[1]

    def is_terminal(self) -> bool:
        return self.terminal

    def is_chance_node(self) -> bool:
        return not self.terminal and self.pending[1] == CHANCE

    def legal_actions(self) -> list:
        """The legal actions in a stable order (the order of generation); empty when terminal.

        The list is cached and shared with clones: treat it as read-only."""
        if self._legal is None:
            self._legal = [] if self.terminal else self._generate()
        return self._legal

    def is_legal(self, action) -> bool:
        if self._legal_set is None:
            self._legal_set = set(self.legal_actions())
        return action in self._legal_set

    def apply_action(self, action) -> list[Event]:
        """Apply a legal action and return the events it caused.

        Raises IllegalActionError (naming the RULES.md section) and leaves the state unchanged
        when ``action`` is not legal here.
        """
        try:
            legal = self.is_legal(action)
        except TypeError:  # unhashable: certainly not one of ours
            legal = False
        if not legal:
            raise IllegalActionError(*self.explain_illegal(action))
        self._legal = self._legal_set = None
        self.events = []
        self._dispatch(action)
        return self.events

    def chance_outcomes(self) -> list[tuple[tuple, float]]:
        """(action, probability) pairs at a chance node (only the standard deal here)."""
        if not self.is_chance_node():
            raise IllegalActionError("§4.2", "chance outcomes asked for at a state that is not a chance node")
        acts = self.legal_actions()
        return [(a, 1.0 / len(acts)) for a in acts]

    def action_to_string(self, action) -> str:
        return action_text(self.board, action)

    def string_to_action(self, text: str):
        from core.imperial2030.actions import parse_action
        return parse_action(self.board, text)

    def clone(self) -> "State":
        other = State.__new__(State)
        for name in _SCALARS:
            setattr(other, name, getattr(self, name))
        for name in _LISTS:
            setattr(other, name, getattr(self, name)[:])
        for name in _DICTS:
            setattr(other, name, dict(getattr(self, name)))
        other.events = []
        other._legal = self._legal
        other._legal_set = self._legal_set
        return other

    def returns(self) -> list[float]:
        """Each player's score (§10): final at a terminal state, 'if the game ended now' before."""
        from core.imperial2030.scoring import scores
        return [float(x) for x in scores(self)]

    def winners(self) -> list[int]:
        from core.imperial2030.scoring import winners
        return winners(self)

    def to_json(self) -> dict:
        from core.imperial2030.position import state_to_document
        return state_to_document(self)

    def observation(self, player: int) -> dict:
        """Imperial 2030 hides nothing once the flag cards are dealt: every player sees the position."""
        return self.to_json()

    def __eq__(self, other) -> bool:
        return isinstance(other, State) and self.to_json() == other.to_json()

    __hash__ = None

    def decision_name(self) -> str:
        return "game_over" if self.terminal else PENDING_NAMES[self.pending[0]]

    # ----- dispatch and legality -----

    def _generate(self) -> list:
        kind = self.pending[0]
        return self._GENERATORS[kind](self)

    def _dispatch(self, action) -> None:
        if action[0] == TOPUP:
            self.apply_topup(action[1])
            return
        self._APPLIERS[self.pending[0]](self, action)

    def explain_illegal(self, action) -> tuple[str, str]:
        """Why ``action`` is not legal now: (RULES.md section, message)."""
        try:
            text = action_text(self.board, action)
        except (ValueError, IndexError, TypeError):
            return "§5", f"{clip(action)} is not an Imperial 2030 action"
        if self.terminal:
            return "§10", f"{text!r}: the game is over"
        rule, why = self._EXPLAINERS[self.pending[0]](self, action)
        who = "chance" if self.pending[1] == CHANCE else seat_name(self.pending[1])
        return rule, (f"illegal action {text!r}: {why} (pending decision: {PENDING_NAMES[self.pending[0]]} "
                      f"by {who}{'' if self.nation < 0 else ', nation ' + NATIONS[self.nation]})")

    # ----- shared helpers used by several rule modules -----

    def emit(self, kind: str, rule: str, **data) -> None:
        self.events.append(Event(kind, rule, data))

    def pay(self, payer: str, payee: str, amount: int, reason: str, rule: str) -> None:
        """Move money between 'bank', a nation code (its treasury) and 'player:N'."""
        if amount <= 0:
            return
        self._adjust(payer, -amount)
        self._adjust(payee, amount)
        self.emit("payment", rule, **{"from": payer, "to": payee, "amount": amount, "reason": reason})

    def _adjust(self, who: str, delta: int) -> None:
        if who == "bank":
            self.bank += delta
        elif who.startswith("player:"):
            self.cash[int(who[7:])] += delta
        else:
            self.treasury[NATIONS.index(who)] += delta

    def pf(self, n: int) -> int:
        return min(self.pp[n], 25) // 5

    def working_factories(self, n: int) -> list[int]:
        """U(X) of §7.4.6: the nation's factories whose province holds no hostile army."""
        return [r for r in self.board.homes[n] if self.factory[r] and not self.occ[r]]

    def add_units(self, n: int, kind: int, r: int, count: int = 1, stance: int = NO_STANCE) -> None:
        i = n * len(self.board.region_ids) + r
        if kind == ARMY_UNIT:
            self.armies[i] += count
            self.n_armies[n] += count
            if stance == HOSTILE:
                self.hostile[i] += count
                self.occ[r] += count
        else:
            self.fleets[i] += count
            self.n_fleets[n] += count

    def foreign_home(self, n: int, r: int) -> bool:
        return self.board.kind[r] == HOME and self.board.home_nation[r] != n


State._GENERATORS = (
    State.legal_deal, State.legal_variant, State.legal_turn_start, State.legal_veto, State.legal_factory,
    State.legal_produce, State.legal_import, State.legal_maneuver, State.legal_canal, State.legal_fight,
    State.legal_demand, State.legal_flag, State.legal_invest,
)
State._APPLIERS = (
    State.apply_deal, State.apply_variant, State.apply_turn_start, State.apply_veto, State.apply_factory,
    State.apply_produce, State.apply_import, State.apply_maneuver, State.apply_canal, State.apply_fight,
    State.apply_demand, State.apply_flag, State.apply_invest,
)
State._EXPLAINERS = (
    State.explain_deal, State.explain_variant, State.explain_turn_start, State.explain_veto,
    State.explain_factory, State.explain_produce, State.explain_import, State.explain_maneuver,
    State.explain_canal, State.explain_fight, State.explain_demand, State.explain_flag, State.explain_invest,
)
