"""The state of a game of Imperial 2030: plain ints and flat lists, cheap to clone.

Units are counts in flat lists indexed ``nation * R + region`` (R = number of regions):
``armies`` (all armies), ``hostile`` (the upright ones among them, only ever in another nation's
home province), ``fleets`` (a fleet on a land region lies in that harbour). Everything a rule
reads is kept up to date incrementally (``occ``: hostile armies per region, unit and flag totals,
bit masks of the regions holding something: ``army_at[n]``, ``fleet_at[n]`` per nation and
``occ_mask``, so that the rules visit the few occupied regions instead of scanning the map, and
``nations_in``: how many nations have units in each region, so that a battle is looked for only
where two meet).
Units change only through ``add_units`` and ``remove_unit``, which keep all of these in step.

Events (``imperial_lab.core.engine.Event``; their kinds are listed in ``events.py``) are built only
while ``recording`` is true (the default); a driver that reads no events (``play_game(...,
record=False)`` without hooks) switches it off and the rules emit nothing. The legal-action cache,
the checked and unchecked apply and ``clone`` are the shared ``imperial_lab.core.engine.BaseState``'s.

The rules themselves live in mixins, one module per part of the game: ``turn`` (rondel,
factory, production, import, taxation), ``maneuver``, ``investor`` and ``setup``.
"""

from __future__ import annotations

from imperial_lab.core.engine import BaseState
from imperial_lab.core.errors import IllegalActionError
from imperial_lab.core.games.imperial2030.actions import ARMY_UNIT, HOSTILE, NO_STANCE, TOPUP, action_text, parse_action
from imperial_lab.core.games.imperial2030.data import HOME, NATIONS, Board
from imperial_lab.core.games.imperial2030.investor import InvestorRules
from imperial_lab.core.games.imperial2030.maneuver import ManeuverRules
from imperial_lab.core.games.imperial2030.pending import CHANCE, P_DEAL, PENDING_NAMES, TERMINAL
from imperial_lab.core.games.imperial2030.position import state_to_document
from imperial_lab.core.games.imperial2030.scoring import scores, winners
from imperial_lab.core.games.imperial2030.setup import SetupRules
from imperial_lab.core.games.imperial2030.turn import TurnRules
from imperial_lab.core.interface import seat_name
from imperial_lab.core.jsonio import clip

_NATION_INDEX = {code: n for n, code in enumerate(NATIONS)}


class State(BaseState, TurnRules, ManeuverRules, InvestorRules, SetupRules):
    """One position of a game. Use ``Imperial2030.new_initial_state`` to make one."""

    SHARED = ("board", "nplayers", "card", "bank", "nation", "nation_turns", "round", "terminal", "pending",
              "queue", "dest", "passing", "topped", "imports", "denied", "armies_phase", "move", "arrival",
              "flag_todo", "end_nation", "variant_step", "setup_done", "occ_mask", "bonds_touched")
    LISTS = ("cash", "swiss", "owner", "treasury", "pp", "rondel", "gov", "factory", "armies", "hostile",
             "fleets", "occ", "n_armies", "n_fleets", "flag", "flag_count", "army_at", "fleet_at", "nations_in")
    DICTS = ("moved_f", "moved_a", "moved_h", "convoyed")
    __slots__ = SHARED + LISTS + DICTS

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

    # ----- the game-agnostic interface -----

    def current_player(self) -> int:
        """The seat that decides next; CHANCE (-1) at a chance node, TERMINAL (-4) at the end."""
        return TERMINAL if self.terminal else self.pending[1]

    def is_terminal(self) -> bool:
        return self.terminal

    def is_chance_node(self) -> bool:
        return not self.terminal and self.pending[1] == CHANCE

    def _legal_actions(self) -> list:
        """In the order of generation; none when terminal."""
        return [] if self.terminal else self._GENERATORS[self.pending[0]](self)

    def _apply_action(self, action) -> None:
        if action[0] == TOPUP:  # a top-up may come at several decisions (§5)
            self.apply_topup(action[1])
        else:
            self._APPLIERS[self.pending[0]](self, action)

    def chance_outcomes(self) -> list[tuple[tuple, float]]:
        """(action, probability) pairs at a chance node (only the standard deal here)."""
        if not self.is_chance_node():
            raise IllegalActionError("§4.2", "chance outcomes asked for at a state that is not a chance node")
        acts = self.legal_actions()
        return [(a, 1.0 / len(acts)) for a in acts]

    def action_to_string(self, action) -> str:
        return action_text(self.board, action)

    def string_to_action(self, text: str):
        return parse_action(self.board, text)

    def returns(self) -> list[float]:
        """Each player's score (§10): final at a terminal state, 'if the game ended now' before."""
        return [float(x) for x in scores(self)]

    def winners(self) -> list[int]:
        return winners(self)

    def to_json(self) -> dict:
        return state_to_document(self)

    def observation(self, player: int) -> dict:
        """Imperial 2030 hides nothing once the flag cards are dealt: every player sees the position."""
        return self.to_json()

    def decision_name(self) -> str:
        return "game_over" if self.terminal else PENDING_NAMES[self.pending[0]]

    # ----- legality -----

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
