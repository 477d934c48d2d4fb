"""Investor (§7.5), bond transactions, governments and Swiss banks (§9)."""

from __future__ import annotations

from imperial_lab.core.games.imperial2030.actions import BUY, PASS, UPGRADE
from imperial_lab.core.games.imperial2030.data import NATIONS
from imperial_lab.core.games.imperial2030.events import BANK, player_ref
from imperial_lab.core.games.imperial2030.fields import Fields
from imperial_lab.core.games.imperial2030.pending import P_INVEST
from imperial_lab.core.interface import seat_name


# the actions of bond_transactions, shared by every legal list: [nation][bond index] and
# [nation][old bond index][new bond index]
BUY_ACTIONS = tuple(tuple((BUY, n, k + 1) for k in range(9)) for n in range(6))
UPGRADE_ACTIONS = tuple(tuple(tuple((UPGRADE, n, old + 1, k + 1) for k in range(9)) for old in range(9))
                        for n in range(6))


def bond_index(nation: int, number: int) -> int:
    return nation * 9 + number - 1


class InvestorRules(Fields):
    __slots__ = ()

    def credit(self, p: int, n: int) -> int:
        """Credit sum of player p in nation n: total cost of his n bonds."""
        cost = self.board.bond_cost
        return sum(cost[k] for k in range(9) if self.owner[n * 9 + k] == p)

    def seats_from(self, p: int) -> list[int]:
        return [(p + k) % self.nplayers for k in range(self.nplayers)]

    # ----- §7.5 steps -----

    def investor_landing(self) -> None:
        self.pay_interest(self.nation)
        self.investor_steps_2_to_6()

    def pay_interest(self, n: int) -> None:
        """§7.5 step 1: others first, from the government's left; treasury, then government cash."""
        code, g = NATIONS[n], self.gov[n]
        owed = [0] * self.nplayers
        for k in range(9):
            p = self.owner[n * 9 + k]
            if p >= 0:
                owed[p] += k + 1
        for p in self.seats_from(g)[1:]:
            if not owed[p]:
                continue
            x = min(owed[p], self.treasury[n])
            y = min(owed[p] - x, self.cash[g])
            self.pay(code, player_ref(p), x, "interest", "§7.5")
            self.pay(player_ref(g), player_ref(p), y, "interest the treasury could not pay", "§7.5")
            self.emit("interest", "§7.5", nation=code, player=p, owed=owed[p], paid=x + y)
        if owed[g]:
            x = min(owed[g], self.treasury[n])
            self.pay(code, player_ref(g), x, "interest", "§7.5")
            self.emit("interest", "§7.5", nation=code, player=g, owed=owed[g], paid=x)

    def investor_steps_2_to_6(self) -> None:
        holder = self.card
        self.pay(BANK, player_ref(holder), 2, "investor card", "§7.5")
        self.queue = tuple(p for p in self.seats_from(holder)[1:] if self.swiss[p])
        self.pending = (P_INVEST, holder)

    def legal_invest(self) -> list:
        return self.bond_transactions(self.pending[1], upgrades=True) + [(PASS,)]

    def bond_transactions(self, p: int, upgrades: bool, nations=range(6)) -> list:
        """Purchases (and upgrades) player p can pay for from his own cash (§7.5, §11 Q2)."""
        cost, owner, cash = self.board.bond_cost, self.owner, self.cash[p]
        affordable = [k for k in range(9) if cost[k] <= cash]
        out = []
        for n in nations:
            bonds = owner[n * 9:n * 9 + 9]
            out += [BUY_ACTIONS[n][k] for k in affordable if bonds[k] < 0]
            if upgrades and p in bonds:
                free = [k for k, who in enumerate(bonds) if who < 0]
                for old, who in enumerate(bonds):
                    if who == p:
                        out += [UPGRADE_ACTIONS[n][old][k] for k in free if cost[old] < cost[k] <= cash + cost[old]]
        return out

    def explain_bond(self, action, rule: str) -> tuple[str, str]:
        p = self.pending[1]
        if action[0] not in (BUY, UPGRADE, PASS):
            return rule, "the investor must buy a bond, upgrade one, or pass"
        if action[0] == UPGRADE and rule == "§4.3":
            return "§4.3", "no upgrades in the experienced-players variant"
        cost = self.board.bond_cost
        n, new = action[1], action[-1]
        if self.owner[bond_index(n, new)] >= 0:
            return rule, f"bond {NATIONS[n]} {new} is not available (owned by {seat_name(self.owner[bond_index(n, new)])})"
        price = cost[new - 1]
        if action[0] == UPGRADE:
            old = action[2]
            if self.owner[bond_index(n, old)] != p:
                return rule, f"{seat_name(p)} does not own bond {NATIONS[n]} {old}"
            if cost[old - 1] >= price:
                return rule, "an upgrade must take a more expensive bond"
            price -= cost[old - 1]
        return rule, f"it costs {price}m and {seat_name(p)} has {self.cash[p]}m of cash (no borrowing, §11 Q2)"

    def explain_invest(self, action) -> tuple[str, str]:
        return self.explain_bond(action, "§7.5")

    def apply_invest(self, action) -> None:
        self.transact(self.pending[1], action, "§7.5")
        if self.queue:
            self.pending = (P_INVEST, self.queue[0])
            self.queue = self.queue[1:]
        else:
            self.finish_investor()

    def transact(self, p: int, action, rule: str) -> None:
        if action[0] == PASS:
            return
        cost = self.board.bond_cost
        n, new = action[1], action[-1]
        price = cost[new - 1]
        if action[0] == UPGRADE:
            old = action[2]
            self.owner[bond_index(n, old)] = -1
            price -= cost[old - 1]
            self.emit("bond_returned", rule, player=p, nation=NATIONS[n], number=old)
        self.owner[bond_index(n, new)] = p
        self.bonds_touched |= 1 << n
        self.pay(player_ref(p), NATIONS[n], price, "bond upgrade" if action[0] == UPGRADE else "bond purchase", rule)
        self.emit("bond_taken", rule, player=p, nation=NATIONS[n], number=new, cost=cost[new - 1])

    def try_transaction(self, p: int, action):
        """A silent clone after player p's bond purchase or upgrade with §9 checked at once (in play the
        check comes at the end of the investor step): its governments, cash and credit say what the
        transaction would do."""
        trial = self.clone()
        trial.recording = False
        trial.transact(p, action, "§7.5")
        trial.check_governments("§9")
        return trial

    def finish_investor(self) -> None:
        """§7.5 steps 4-6: government check, Swiss-bank update, the card passes clockwise."""
        self.check_governments("§9")
        self.update_swiss_banks("§9")
        old = self.card
        self.card = (old + 1) % self.nplayers
        self.emit("investor_card", "§7.5", previous=old, new=self.card)
        self.next_turn()

    # ----- §9 -----

    def check_governments(self, rule: str) -> None:
        """§9 for the nations whose bonds changed since the last check: the others still have the
        government their bonds gave them (a new state marks every nation)."""
        cost = self.board.bond_cost
        touched, self.bonds_touched = self.bonds_touched, 0
        for n in range(6):
            if not touched >> n & 1:
                continue
            sums = [0] * self.nplayers
            for p, c in zip(self.owner[n * 9:n * 9 + 9], cost):
                if p >= 0:
                    sums[p] += c
            top = max(sums)
            g = self.gov[n]
            if top == 0 or (g >= 0 and sums[g] == top):
                continue
            new = next(p for p in self.seats_from(self.card) if sums[p] == top)
            self.gov[n] = new
            self.emit("government", rule, nation=NATIONS[n], previous=g if g >= 0 else None, new=new)

    def update_swiss_banks(self, rule: str) -> None:
        for p in range(self.nplayers):
            has = p not in self.gov
            if has != self.swiss[p]:
                self.swiss[p] = has
                self.emit("swiss_bank", rule, player=p, has=has)
