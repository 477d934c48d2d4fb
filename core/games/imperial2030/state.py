"""The state of a game of Imperial 2030: plain ints and flat lists, cheap to clone.

The fields (``fields.Fields``, where they are described) are plain ints and flat lists; units
change only through ``add_units`` and ``remove_unit``, which keep the incremental totals and masks
in step.

Events (``imperial_lab.core.engine.Event``; their kinds are listed in ``events.py``) are built only
while ``recording`` is true (the default); a driver that reads no events (``play_game(...,
record=False)`` without hooks) switches it off and the rules emit nothing. The legal-action cache,
the checked and unchecked apply and ``clone`` are the shared ``imperial_lab.core.engine.BaseState``'s.

The rules themselves live in mixins, one module per part of the game: ``turn`` (rondel,
factory, production, import, taxation), ``maneuver``, ``investor`` and ``setup``.
"""

from __future__ import annotations

from imperial_lab.core.errors import IllegalActionError
from imperial_lab.core.games.imperial2030.actions import TOPUP, action_text, parse_action
from imperial_lab.core.games.imperial2030.data import NATIONS
from imperial_lab.core.games.imperial2030.investor import InvestorRules
from imperial_lab.core.games.imperial2030.maneuver import ManeuverRules
from imperial_lab.core.games.imperial2030.pending import CHANCE, PENDING_NAMES, TERMINAL
from imperial_lab.core.games.imperial2030.position import state_to_document
from imperial_lab.core.games.imperial2030.scoring import scores, winners
from imperial_lab.core.games.imperial2030.setup import SetupRules
from imperial_lab.core.games.imperial2030.turn import TurnRules
from imperial_lab.core.interface import seat_name
from imperial_lab.core.jsonio import clip


class State(TurnRules, ManeuverRules, InvestorRules, SetupRules):
    """One position of a game. Use ``Imperial2030.new_initial_state`` to make one. Its fields and the
    helpers every rule module uses are ``fields.Fields``'s."""

    __slots__ = ()

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
