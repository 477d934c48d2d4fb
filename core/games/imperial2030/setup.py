"""Setup (§4): the standard flag-card deal, the experienced-players variant, custom distributions."""

from __future__ import annotations

from functools import cache
from itertools import permutations

from imperial_lab.core.errors import SetupError
from imperial_lab.core.games.imperial2030.actions import BUY, DEAL, PASS
from imperial_lab.core.games.imperial2030.data import NATIONS
from imperial_lab.core.games.imperial2030.events import BANK, player_ref
from imperial_lab.core.games.imperial2030.fields import Fields
from imperial_lab.core.games.imperial2030.investor import bond_index
from imperial_lab.core.games.imperial2030.pending import CHANCE, P_DEAL, P_VARIANT


def deal_cards(board, nplayers: int) -> list[str]:
    """The cards dealt at random for this player count (§4.2)."""
    spec = board.standard[str(nplayers)]["random_deal"]
    return list(spec) if isinstance(spec, list) else list(NATIONS)


def card_groups(board, nplayers: int) -> dict[int, tuple[int, ...]]:
    """For 2 and 3 players a dealt card brings further cards with it (§4.2)."""
    groups = board.standard[str(nplayers)].get("groups", {})
    return {NATIONS.index(k): tuple(NATIONS.index(x) for x in v) for k, v in groups.items()}


@cache
def _deals(cards: tuple[int, ...], nplayers: int) -> tuple:
    """Every deal of ``cards`` to the seats, in a stable order (360 for 4 players: built once)."""
    return tuple((DEAL, p) for p in permutations(cards, nplayers))


class SetupRules(Fields):
    __slots__ = ()

    # ----- §4.2 standard deal -----

    def legal_deal(self) -> list:
        return list(_deals(tuple(sorted(NATIONS.index(c) for c in deal_cards(self.board, self.nplayers))),
                           self.nplayers))

    def explain_deal(self, action) -> tuple[str, str]:
        if action[0] != DEAL:
            return "§4.2", "the flag cards must be dealt first"
        cards = ", ".join(deal_cards(self.board, self.nplayers))
        return "§4.2", f"a deal gives each of the {self.nplayers} players a different card from {cards}"

    def apply_deal(self, action) -> None:
        b = self.board
        groups = card_groups(b, self.nplayers)
        self.emit("deal", "§4.2", cards=[NATIONS[n] for n in action[1]])
        held = {}
        for p, lead in enumerate(action[1]):
            for card in groups.get(lead, (lead,)):
                held[card] = p
                for nation, number in b.card_bonds[card]:
                    self.take_bond(p, nation, number, "§4.2")
                self.gov[card] = p
        for card in range(6):
            if card not in held:
                two = self.owner[bond_index(card, 1)]
                if two >= 0:
                    self.gov[card] = two
        for n in range(6):
            if self.gov[n] >= 0:
                self.emit("government", "§4.2", nation=NATIONS[n], previous=None, new=self.gov[n])
        self.finish_setup()

    def take_bond(self, p: int, nation: int, number: int, rule: str) -> None:
        cost = self.board.bond_cost[number - 1]
        self.owner[bond_index(nation, number)] = p
        self.bonds_touched |= 1 << nation
        self.pay(player_ref(p), NATIONS[nation], cost, "bond purchase", rule)
        self.emit("bond_taken", rule, player=p, nation=NATIONS[nation], number=number, cost=cost)

    # ----- §4.3 experienced-players variant -----

    def variant_chooser(self) -> tuple[int, int]:
        """(nation, player) of the current pick: nation k starts k seats left of the start player."""
        k, j = divmod(self.variant_step, self.nplayers)
        return k, (self.game.start_player + k + j) % self.nplayers

    def legal_variant(self) -> list:
        n, p = self.variant_chooser()
        buys = self.bond_transactions(p, upgrades=False, nations=(n,))
        return buys if self.last_chance_for_a_bond() and buys else buys + [(PASS,)]

    def last_chance_for_a_bond(self) -> bool:
        """The final pick with nothing sold yet: passing would leave no government to open the game (§4.5)."""
        return self.variant_step == 6 * self.nplayers - 1 and max(self.owner) < 0

    def explain_variant(self, action) -> tuple[str, str]:
        n, _ = self.variant_chooser()
        if action[0] == PASS:
            return "§4.3", "nobody has bought a bond yet: the last pick must buy one so that a nation has a government"
        if action[0] == BUY and action[1] != n:
            return "§4.3", f"this pick is for a bond of {NATIONS[n]}"
        return self.explain_bond(action, "§4.3")

    def apply_variant(self, action) -> None:
        _, p = self.variant_chooser()
        if action[0] == BUY:
            self.take_bond(p, action[1], action[2], "§4.3")
        self.variant_step += 1
        if self.variant_step == 6 * self.nplayers:
            self.check_governments("§4.3")
            self.finish_setup()
        else:
            self.pending = (P_VARIANT, self.variant_chooser()[1])

    # ----- common end of setup -----

    def finish_setup(self) -> None:
        """Swiss banks (§4.3.4), the investor card (§4.4), the first nation turn (§4.5)."""
        self.update_swiss_banks("§4.3")
        first = next((n for n in range(6) if self.gov[n] >= 0), None)
        if first is None:
            raise SetupError("no nation has a government: at least one bond must be sold at setup")
        self.card = (self.gov[first] + 1) % self.nplayers
        self.emit("investor_card", "§4.4", previous=None, new=self.card)
        self.setup_done = True
        self.next_turn()


def start(state, config) -> None:
    """Bring a fresh state to its first decision according to the game configuration."""
    b, np_ = state.board, state.nplayers
    if config.setup == "standard":
        cash = b.standard[str(np_)]["starting_cash"]
        for p in range(np_):
            state.pay(BANK, player_ref(p), cash, "starting cash", "§4.2")
        state.pending = (P_DEAL, CHANCE)
        if config.deal is not None:
            deal = (DEAL, tuple(NATIONS.index(c) for c in config.deal))
            if deal not in state.legal_actions():
                raise SetupError(f"deal {config.deal}: {state.explain_deal(deal)[1]}")
            paid = state.events  # apply_action starts a fresh event list: keep the starting cash
            state.apply_action(deal)
            state.events = paid + state.events
    elif config.setup == "variant":
        for p in range(np_):
            state.pay(BANK, player_ref(p), b.variant_cash[np_], "starting cash", "§4.3")
        state.pending = (P_VARIANT, config.start_player)
    else:
        apply_distribution(state, config.distribution)


def apply_distribution(state, dist) -> None:
    """A custom starting distribution (already validated): players buy their bonds at full cost."""
    for p, seat in enumerate(dist["players"]):
        total = seat["cash"] + sum(state.board.bond_cost[number - 1] for _, number in seat["bonds"])
        state.pay(BANK, player_ref(p), total, "starting cash", "§4.2")
        for nation, number in seat["bonds"]:
            state.take_bond(p, nation, number, "§4.2")
    for n, g in dist.get("governments", {}).items():
        state.gov[n] = g
        state.emit("government", "§4.2", nation=NATIONS[n], previous=None, new=g)
    state.card = dist.get("investor_card", 0)
    state.check_governments("§9")
    state.finish_setup()
