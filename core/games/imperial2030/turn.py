"""A nation turn (§5): rondel (§6), veto (§8), factory (§7.1), production (§7.2), import (§7.3),
taxation (§7.6), end of the game (§10) and the government's cash top-up (§5, §11 Q1/Q10)."""

from __future__ import annotations

from itertools import combinations

from imperial_lab.core.games.imperial2030.actions import (ARMY_UNIT, BUILD, FLEET_UNIT, IMPORT, PRODUCE, RONDEL, TOPUP, UNIT_NAMES,
                                       VETO)
from imperial_lab.core.games.imperial2030.data import ARMAMENTS, INVESTOR, NATIONS, SHIPYARD, SPACES
from imperial_lab.core.games.imperial2030.events import BANK, player_ref
from imperial_lab.core.games.imperial2030.fields import Fields
from imperial_lab.core.games.imperial2030.pending import P_FACTORY, P_IMPORT, P_PRODUCE, P_TURN, P_VETO, TERMINAL
from imperial_lab.core.games.imperial2030.scoring import scores, winners

IMPORT_DONE = (IMPORT, -1, -1)


def passes_investor(start: int, distance: int) -> bool:
    """§6: Investor lies strictly between the start and the destination."""
    return any((start + k) % 8 == INVESTOR for k in range(1, distance))


def move_cost(distance: int, pf: int) -> int:
    """§6: d <= 3 free, else (d - 3) x (1 + PF)."""
    return 0 if distance <= 3 else (distance - 3) * (1 + pf)


# Tables of the hot path: the answers above for every start and distance, and the actions
# themselves (the legal lists are built from these shared tuples).
PASSES = tuple(tuple(passes_investor(start, d) for d in range(8)) for start in range(8))
MOVE_COSTS = tuple(tuple(move_cost(d, pf) for d in range(8)) for pf in range(6))  # power factor 0..5
RONDEL_ACTIONS = tuple((RONDEL, s) for s in range(8))
TOPUP_ACTIONS = [(TOPUP, k) for k in range(1, 201)]  # more is built on demand


class TurnRules(Fields):
    __slots__ = ()

    # ----- §5 turn order -----

    def next_turn(self) -> None:
        prev = self.nation
        for k in range(1, 7):
            n = (prev + k) % 6
            if self.gov[n] >= 0:
                break
        if prev < 0 or n <= prev:
            self.round += 1
        self.nation = n
        self.nation_turns += 1
        self.passing = self.topped = self.armies_phase = False
        self.dest = -1
        self.imports = ()
        self.denied = frozenset()
        self.move = self.arrival = None
        self.moved_f, self.moved_a, self.moved_h, self.convoyed = {}, {}, {}, {}
        if self.recording:  # an event of every turn: its fields are built only for a record
            self.emit("nation_turn", "§5", nation=NATIONS[n], government=self.gov[n], turn=self.nation_turns,
                      round=self.round)
        self.pending = (P_TURN, self.gov[n])

    def action_done(self) -> None:
        """The space's action is over: Investor steps 2-6 after a pass-over (§8.4), then the next nation."""
        if self.terminal:
            return
        if self.passing:
            self.passing = False
            self.investor_steps_2_to_6()
        else:
            self.next_turn()

    # ----- §5 / Q10 cash top-up -----

    def topups(self) -> list:
        if not self.game.cash_topup or self.topped:
            return []
        cash = self.cash[self.gov[self.nation]]
        return TOPUP_ACTIONS[:cash] if cash <= len(TOPUP_ACTIONS) else [(TOPUP, k) for k in range(1, cash + 1)]

    def apply_topup(self, amount: int) -> None:
        self.pay(player_ref(self.gov[self.nation]), NATIONS[self.nation], amount, "cash top-up", "§5")
        self.topped = True

    def explain_topup(self, action) -> tuple[str, str] | None:
        if action[0] != TOPUP:
            return None
        if not self.game.cash_topup:
            return "§5", "cash top-ups are switched off in this game's configuration"
        if self.topped:
            return "§5", "the government has already topped up the treasury at this point"
        return "§5", f"the government has only {self.cash[self.gov[self.nation]]}m of cash"

    # ----- §6 rondel -----

    def rondel_options(self) -> list[tuple[int, int, int]]:
        """(destination, distance, cost) of every affordable move of the active nation."""
        n = self.nation
        cur = self.rondel[n]
        if cur < 0:
            return [(s, 0, 0) for s in range(8)]
        costs, cash = MOVE_COSTS[self.pf(n)], self.cash[self.gov[n]]
        return [((cur + d) % 8, d, costs[d]) for d in range(1, 7) if costs[d] <= cash]

    def legal_turn_start(self) -> list:
        return [RONDEL_ACTIONS[s] for s, _, _ in self.rondel_options()] + self.topups()

    def explain_turn_start(self, action) -> tuple[str, str]:
        found = self.explain_topup(action)
        if found:
            return found
        if action[0] != RONDEL:
            return "§5", "the government must first choose a rondel destination"
        n, dest = self.nation, action[1]
        cur = self.rondel[n]
        d = (dest - cur) % 8
        if d == 0:
            return "§6", "the marker must move: staying on the same space is forbidden"
        if d == 7:
            return "§6", "a move of 7 spaces is never allowed (at most 6)"
        cost = move_cost(d, self.pf(n))
        return "§6", (f"moving {d} spaces costs {cost}m from the government's own cash, "
                      f"which holds {self.cash[self.gov[n]]}m")

    def apply_turn_start(self, action) -> None:
        n, dest = self.nation, action[1]
        cur = self.rondel[n]
        passes = cur >= 0 and PASSES[cur][(dest - cur) % 8]
        if passes and self.veto_possible(n):
            c = self.card
            self.queue = tuple(p for p in ((c + k) % self.nplayers for k in range(self.nplayers)) if self.swiss[p])
            self.dest = dest
            self.ask_next_veto()
        else:
            self.execute_move(dest, passes)

    # ----- §8 Swiss-bank veto -----

    def veto_possible(self, n: int) -> bool:
        """§8.1: some Swiss bank exists and the treasury can pay the interest on every sold bond."""
        if not any(self.swiss):
            return False
        owed = sum(k % 9 + 1 for k in range(n * 9, n * 9 + 9) if self.owner[k] >= 0)
        return self.treasury[n] >= owed

    def ask_next_veto(self) -> None:
        if self.queue:
            self.pending = (P_VETO, self.queue[0])
            self.queue = self.queue[1:]
        else:
            self.execute_move(self.dest, True)

    def legal_veto(self) -> list:
        return [(VETO, 1), (VETO, 0)]

    def explain_veto(self, action) -> tuple[str, str]:
        return "§8", "a Swiss bank must answer 'veto' or 'no veto'"

    def apply_veto(self, action) -> None:
        if action[1]:
            self.emit("veto", "§8", player=self.pending[1], nation=NATIONS[self.nation],
                      wanted=SPACES[self.dest])
            self.queue = ()
            self.execute_move(INVESTOR, False)
        else:
            self.ask_next_veto()

    def execute_move(self, dest: int, passed: bool) -> None:
        """§5 steps 3-4: pay for the move actually made, move the marker, act on the space."""
        n = self.nation
        cur = self.rondel[n]
        d = 0 if cur < 0 else (dest - cur) % 8
        cost = MOVE_COSTS[self.pf(n)][d]
        rule = "§8" if self.dest >= 0 and dest != self.dest else "§6"
        if cost:
            self.pay(player_ref(self.gov[n]), BANK, cost, f"rondel move of {d} spaces", rule)
        self.rondel[n] = dest
        if self.recording:
            self.emit("rondel", rule, nation=NATIONS[n], **{"from": SPACES[cur] if cur >= 0 else None},
                      to=SPACES[dest], distance=d, cost=cost, passed_investor=passed)
        self.passing = passed
        self.dest = -1
        self.topped = False
        self._SPACE_ACTIONS[dest](self)

    # ----- §7.1 factory -----

    def factory_sites(self) -> list[int]:
        return [r for r in self.board.homes[self.nation] if not self.factory[r] and not self.occ[r]]

    def begin_factory(self) -> None:
        n = self.nation
        # Without top-ups the government's cash cannot help: with too little in the treasury,
        # 'build none' would be the only choice, and a decision without a choice is not asked.
        topup = self.cash[self.gov[n]] if self.game.cash_topup else 0
        if self.factory_sites() and self.treasury[n] + topup >= self.board.factory_cost:
            self.pending = (P_FACTORY, self.gov[n])
        else:
            self.action_done()

    def legal_factory(self) -> list:
        builds = []
        if self.treasury[self.nation] >= self.board.factory_cost:
            builds = [(BUILD, r) for r in self.factory_sites()]
        return builds + [(BUILD, -1)] + self.topups()

    def explain_factory(self, action) -> tuple[str, str]:
        found = self.explain_topup(action)
        if found:
            return found
        if action[0] != BUILD:
            return "§7.1", "the government must choose a factory site or 'build none'"
        r, b, n = action[1], self.board, self.nation
        if b.home_nation[r] != n:
            return "§7.1", f"{b.region_ids[r]} is not a home province of {NATIONS[n]}"
        if self.factory[r]:
            return "§7.1", f"{b.region_ids[r]} already has a factory"
        if self.occ[r]:
            return "§7.1", f"{b.region_ids[r]} is occupied by a hostile army"
        return "§7.1", (f"the treasury holds {self.treasury[n]}m, a factory costs {b.factory_cost}m "
                        "(the government may top up first)")

    def apply_factory(self, action) -> None:
        r = action[1]
        if r >= 0:
            n = self.nation
            self.pay(NATIONS[n], BANK, self.board.factory_cost, "factory", "§7.1")
            self.factory[r] = True
            self.emit("factory_built", "§7.1", nation=NATIONS[n], region=self.board.region_ids[r],
                      type="armaments" if self.board.factory_slot[r] == ARMAMENTS else "shipyard")
        self.action_done()

    # ----- §7.2 production -----

    def producing(self) -> tuple[list[int], list[int], int, int]:
        b, n = self.board, self.nation
        works = self.working_factories(n)
        arms = [r for r in works if b.factory_slot[r] == ARMAMENTS]
        yards = [r for r in works if b.factory_slot[r] == SHIPYARD]
        lim_a, lim_f = self.game.unit_limits[n]
        return arms, yards, max(0, lim_a - self.n_armies[n]), max(0, lim_f - self.n_fleets[n])

    def begin_production(self) -> None:
        arms, yards, cap_a, cap_f = self.producing()
        if (len(arms) > cap_a and cap_a) or (len(yards) > cap_f and cap_f):
            self.pending = (P_PRODUCE, self.gov[self.nation])
        else:
            self.produce(arms[:cap_a] + yards[:cap_f])

    def legal_produce(self) -> list:
        arms, yards, cap_a, cap_f = self.producing()
        return [(PRODUCE, tuple(sorted(a + f)))
                for a in combinations(arms, min(len(arms), cap_a))
                for f in combinations(yards, min(len(yards), cap_f))]

    def explain_produce(self, action) -> tuple[str, str]:
        arms, yards, cap_a, cap_f = self.producing()
        return "§7.2", (f"unit limits allow {cap_a} more armies and {cap_f} more fleets; choose that many of "
                        "the working factories")

    def apply_produce(self, action) -> None:
        self.produce(list(action[1]))

    def produce(self, regions: list[int]) -> None:
        b, n = self.board, self.nation
        for r in regions:
            kind = ARMY_UNIT if b.factory_slot[r] == ARMAMENTS else FLEET_UNIT
            self.add_units(n, kind, r)
            self.emit("unit_built", "§7.2", nation=NATIONS[n], unit=UNIT_NAMES[kind], region=b.region_ids[r],
                      how="production")
        self.action_done()

    # ----- §7.3 import -----

    def import_placements(self) -> list:
        b, n = self.board, self.nation
        if len(self.imports) >= b.import_max or self.treasury[n] < 1:
            return []
        lim_a, lim_f = self.game.unit_limits[n]
        last = self.imports[-1] if self.imports else (0, -1)
        out = []
        if self.n_armies[n] < lim_a:
            out += [(IMPORT, ARMY_UNIT, r) for r in b.homes[n] if not self.occ[r] and (ARMY_UNIT, r) >= last]
        if self.n_fleets[n] < lim_f:
            out += [(IMPORT, FLEET_UNIT, r) for r in b.shipyard_cities[n]
                    if not self.occ[r] and (FLEET_UNIT, r) >= last]
        return out

    def begin_import(self) -> None:
        self.imports = ()
        n = self.nation
        could_pay = self.treasury[n] > 0 or (self.game.cash_topup and self.cash[self.gov[n]] > 0)
        if could_pay and self.import_candidates():
            self.pending = (P_IMPORT, self.gov[n])
        else:
            self.action_done()

    def import_candidates(self) -> bool:
        b, n = self.board, self.nation
        lim_a, lim_f = self.game.unit_limits[n]
        return ((self.n_armies[n] < lim_a and any(not self.occ[r] for r in b.homes[n])) or
                (self.n_fleets[n] < lim_f and any(not self.occ[r] for r in b.shipyard_cities[n])))

    def legal_import(self) -> list:
        return self.import_placements() + [IMPORT_DONE] + (self.topups() if not self.imports else [])

    def explain_import(self, action) -> tuple[str, str]:
        if action[0] == TOPUP and self.imports:
            return "§5", "a top-up comes before the import purchases"
        found = self.explain_topup(action)
        if found:
            return found
        if action[0] != IMPORT:
            return "§7.3", "the government must place an imported unit or end the import"
        b, n = self.board, self.nation
        _, kind, r = action
        if len(self.imports) >= b.import_max:
            return "§7.3", f"at most {b.import_max} units may be imported"
        if self.treasury[n] < 1:
            return "§7.3", "each imported unit costs 1m from the treasury, which is empty"
        if b.home_nation[r] != n:
            return "§7.3", f"{b.region_ids[r]} is not a home province of {NATIONS[n]}"
        if kind == FLEET_UNIT and b.factory_slot[r] != SHIPYARD:
            return "§7.3", f"fleets can only be imported into light-blue cities; {b.region_ids[r]} is not one"
        if self.occ[r]:
            return "§7.3", f"{b.region_ids[r]} is occupied by a hostile army"
        if self.imports and (kind, r) < self.imports[-1]:
            return "§7.3", "imports are listed in canonical order (armies before fleets, by region)"
        return "§1", f"{NATIONS[n]} has no {UNIT_NAMES[kind]} left in its supply (unit limit)"

    def apply_import(self, action) -> None:
        _, kind, r = action
        if kind < 0:
            self.action_done()
            return
        n = self.nation
        self.pay(NATIONS[n], BANK, 1, f"import of a {UNIT_NAMES[kind]}", "§7.3")
        self.add_units(n, kind, r)
        self.imports += ((kind, r),)
        self.emit("unit_built", "§7.3", nation=NATIONS[n], unit=UNIT_NAMES[kind], region=self.board.region_ids[r],
                  how="import")
        if not self.import_placements():
            self.action_done()

    # ----- §7.6 taxation and §10 end -----

    def taxation(self) -> None:
        b, n = self.board, self.nation
        code = NATIONS[n]
        factories, flags = len(self.working_factories(n)), self.flag_count[n]
        revenue = min(b.max_revenue, 2 * factories + flags)
        self.pay(BANK, code, revenue, "tax revenue", "§7.6")
        soldiers = min(self.n_armies[n] + self.n_fleets[n], self.treasury[n])
        self.pay(code, BANK, soldiers, "soldiers' pay", "§7.6")
        bonus = min(b.tax_bonus[revenue], self.treasury[n])
        self.pay(code, player_ref(self.gov[n]), bonus, "success bonus", "§7.6")
        self.emit("taxation", "§7.6", nation=code, revenue=revenue, factories=factories, flags=flags,
                  soldiers_pay=soldiers, bonus=bonus)
        gained = b.tax_pp[revenue]
        if gained:
            self.pp[n] = min(25, self.pp[n] + gained)
            self.emit("power_points", "§7.6", nation=code, gained=gained, total=self.pp[n])
        if self.pp[n] >= 25:
            self.end_game(n)
        self.action_done()

    def end_game(self, n: int) -> None:
        self.terminal = True
        self.passing = False
        self.end_nation = n
        self.pending = (P_TURN, TERMINAL)
        self.emit("game_ended", "§10", nation=NATIONS[n], scores=scores(self), winners=winners(self))


TurnRules._SPACE_ACTIONS = (
    TurnRules.begin_factory, TurnRules.begin_production, lambda s: s.begin_maneuver(),
    lambda s: s.investor_landing(), TurnRules.begin_import, TurnRules.begin_production,
    lambda s: s.begin_maneuver(), TurnRules.taxation,
)
