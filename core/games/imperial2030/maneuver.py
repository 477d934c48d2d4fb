"""Maneuver (§7.4): fleets, armies with rail and convoys, canals, battles, hostile and friendly
armies, factory destruction, and the flag phase.

Phase 1 (fleets) ends when the first army acts (moves, battles or destroys); phase 3 (flags) runs
when the government ends the maneuver. Units that moved are counted per region in ``moved_f``,
``moved_a`` and ``moved_h`` (the hostile ones among ``moved_a``); fleets that convoyed this turn
in ``convoyed``. Refused canal crossings are kept in ``denied`` and not offered again (§11 Q25).
"""

from __future__ import annotations

from collections.abc import Sequence

from imperial_lab.core.games.imperial2030.actions import (ARMY, ARMY_UNIT, BATTLE, CANAL, DECLINE, DEMAND, DESTROY, END, FIGHT,
                                       FLAG, FLEET, FLEET_UNIT, FRIENDLY, HOSTILE, NO_STANCE, STANCE_NAMES,
                                       UNIT_NAMES)
from imperial_lab.core.games.imperial2030.data import HOME, NATIONS, SEA, bits
from imperial_lab.core.games.imperial2030.fields import Fields
from imperial_lab.core.games.imperial2030.pending import P_CANAL, P_DEMAND, P_FIGHT, P_FLAG, P_MANEUVER

# Memos of army moves on the board (see army_moves) are emptied when they grow past this many
# entries: a long batch of games would otherwise keep every position's moves for ever.
CACHE_LIMIT = 200_000

BOTH_STANCES = (HOSTILE, FRIENDLY)
ONLY_HOSTILE = (HOSTILE,)
ONLY_FRIENDLY = (FRIENDLY,)
NO_STANCES = (NO_STANCE,)


class ManeuverRules(Fields):
    __slots__ = ()

    def begin_maneuver(self) -> None:
        n = self.nation
        self.moved_f, self.moved_a, self.moved_h, self.convoyed = {}, {}, {}, {}
        self.denied = frozenset()
        self.armies_phase = False
        if self.n_armies[n] + self.n_fleets[n]:
            self.pending = (P_MANEUVER, self.gov[n])
        else:
            self.resolve_flags()

    def back_to_maneuver(self) -> None:
        self.move = self.arrival = None
        self.queue = ()
        self.pending = (P_MANEUVER, self.gov[self.nation])

    # ----- unit groups -----

    def army_groups(self, m: int, r: int, unmoved: bool = False) -> list[tuple[int, int]]:
        """(stance, count) of nation m's armies in r; with ``unmoved`` only those that may still act."""
        i = m * self.board.nregions + r
        total, hostile = self.armies[i], self.hostile[i]
        if unmoved:
            total -= self.moved_a.get(r, 0)
            hostile -= self.moved_h.get(r, 0)
        if total <= 0:
            return []
        if not self.board.foreign_home_mask[m] >> r & 1:
            return [(NO_STANCE, total)]
        if not hostile:
            return [(FRIENDLY, total)]
        return [(HOSTILE, hostile), (FRIENDLY, total - hostile)] if total > hostile else [(HOSTILE, hostile)]

    def unmoved_fleets(self, r: int) -> int:
        return self.fleets[self.nation * self.board.nregions + r] - self.moved_f.get(r, 0)

    # ----- legal actions -----

    def unmoved(self, mask: int, counts: list, moved: dict) -> int:
        """The regions of ``mask`` (where the active nation has units counted in ``counts``) that
        still hold one that has not moved (``moved``: units that moved, per region)."""
        base = self.nation * self.board.nregions
        for r, c in moved.items():
            if counts[base + r] <= c:
                mask &= ~(1 << r)
        return mask

    def legal_maneuver(self) -> list:
        n = self.nation
        acts = []
        if not self.armies_phase:
            ready = bits(self.unmoved(self.fleet_at[n], self.fleets, self.moved_f))
            if ready:
                acts += self.fleet_moves(ready)
                acts += self.fleet_battles(ready)
        ready = bits(self.unmoved(self.army_at[n], self.armies, self.moved_a))
        if ready:
            acts += self.army_moves(ready)
            acts += self.army_battles(ready)
        acts += self.destroys()
        acts.append((END,))
        return acts

    def fleet_moves(self, ready: Sequence[int]) -> list:
        """§7.4.1: each fleet that has not moved, to an adjacent sea (from a harbour: its one sea)."""
        b = self.board
        out = []
        for r in ready:
            out += [(FLEET, r, t) for t in (b.sea_adj[r] if b.kind[r] == SEA else (b.shipyard_sea[r],))]
        return [a for a in out if a not in self.denied] if self.denied else out

    def fleet_battles(self, ready: Sequence[int]) -> list:
        """§7.4.4 step 4, phase 1: a fleet that has not moved against a foreign unit beside it."""
        b, n = self.board, self.nation
        R = b.nregions
        out = []
        for r in ready:
            if self.nations_in[r] < 2:
                continue  # nobody else here
            if b.kind[r] == SEA:
                out += [(BATTLE, r, FLEET_UNIT, NO_STANCE, m, FLEET_UNIT, NO_STANCE)
                        for m in range(6) if m != n and self.fleets[m * R + r]]
            else:  # a fleet in harbour fights only armies (§7.4.4 step 5)
                out += [(BATTLE, r, FLEET_UNIT, NO_STANCE, m, ARMY_UNIT, s)
                        for m in range(6) if m != n and self.armies[m * R + r] for s, _ in self.army_groups(m, r)]
        return out

    def army_targets(self, r: int) -> list[tuple[int, int, int]]:
        """Foreign units an army of the active nation in r could fight: (nation, unit, stance)."""
        b, n = self.board, self.nation
        R = b.nregions
        armies = self.armies
        out = [(m, ARMY_UNIT, s) for m in range(6) if m != n and armies[m * R + r] for s, _ in self.army_groups(m, r)]
        x = b.home_nation[r]
        if b.kind[r] == HOME and x != n and self.fleets[x * R + r]:
            out.append((x, FLEET_UNIT, NO_STANCE))
        return out

    def army_battles(self, ready: Sequence[int]) -> list:
        """§7.4.4 step 4, phase 2: an army that has not moved against a foreign unit beside it."""
        out = []
        for r in ready:
            if self.nations_in[r] < 2:
                continue  # nobody else here (another nation's fleet on land would be in its harbour: a target)
            targets = self.army_targets(r)
            out += [(BATTLE, r, ARMY_UNIT, s, m, k, t)
                    for s, _ in self.army_groups(self.nation, r, unmoved=True) for m, k, t in targets]
        return out

    def destroys(self) -> list:
        """§7.4.7: three armies, no defender unit in the province, not the owner's last working factory."""
        b, n = self.board, self.nation
        R = b.nregions
        out = []
        for r in bits(self.army_at[n] & b.foreign_home_mask[n]):
            i = n * R + r
            if self.armies[i] < 3 or not self.factory[r]:
                continue
            x = b.home_nation[r]
            if self.armies[x * R + r] or self.fleets[x * R + r] or self.working_factories(x) == [r]:
                continue
            hostile = self.hostile[i]
            friendly = self.armies[i] - hostile
            out += [(DESTROY, r, h) for h in range(max(0, 3 - friendly), min(3, hostile) + 1)]
        return out

    def army_moves(self, ready: Sequence[int]) -> list:
        """Every army move of the nation's armies that have not moved, from per-origin memos.

        An origin's moves depend only on what the key holds: the destinations on the occupation of
        the nation's own home provinces (rail) and on its fleets that may still convoy; the entry
        stances (entry_stances) on the army stances there, on whether a hostile army leaving frees
        a factory, and on each nation's last working factory. Refused canal crossings are filtered
        afterwards (they last one maneuver)."""
        b, n = self.board, self.nation
        occupied = self.occ_mask & b.home_mask[n]
        fleets = self.convoy_mask()
        lone = self.lone_factories()
        dest_cache, cache = b.dest_cache, b.move_cache
        for memo in (dest_cache, cache, b.lone_cache):
            if len(memo) > CACHE_LIMIT:
                memo.clear()
        key = (n, occupied, fleets, lone)
        origins = cache.get(key)  # (origin, stances, frees) -> moves, for this key
        if origins is None:
            origins = cache[key] = {}
        rails: dict[int, list[int]] = {}
        base, abroad = n * b.nregions, b.foreign_home_mask[n]
        out: list[tuple] = []
        for r in ready:
            # the stances of army_groups(n, r, unmoved=True), without building the groups
            stances: tuple[int, ...] = NO_STANCES
            frees = False
            if abroad >> r & 1:
                total = self.armies[base + r] - self.moved_a.get(r, 0)
                hostile = self.hostile[base + r] - self.moved_h.get(r, 0)
                stances = BOTH_STANCES if 0 < hostile < total else ONLY_HOSTILE if hostile else ONLY_FRIENDLY
                frees = hostile > 0 and self.occ[r] == 1 and self.factory[r]
            moves = origins.get((r, stances, frees))
            if moves is None:
                dests = dest_cache.get((n, r, occupied, fleets))
                if dests is None:
                    dests = dest_cache[n, r, occupied, fleets] = tuple(self.army_destinations(r, rails, fleets))
                moves = origins[r, stances, frees] = tuple(
                    (ARMY, r, s, to, via, ts) for to, via in dests for s in stances
                    for ts in self.entry_stances(r, s, to, lone))
            out += moves
        if self.denied:
            out = [a for a in out if a not in self.denied]
        return out

    def lone_factories(self) -> tuple[int, ...]:
        """Per nation other than the active one: its only working factory, or -1 (none or several).
        Memoised on the board by what it reads: the factories and which home provinces are occupied."""
        b = self.board
        key = (self.nation, self.occ_mask & b.all_home_mask, bytes(self.factory))
        lone = b.lone_cache.get(key)
        if lone is None:
            factory, occ = self.factory, self.occ
            out = []
            for x, homes in enumerate(b.homes):
                working = [h for h in homes if factory[h] and not occ[h]]
                out.append(working[0] if len(working) == 1 and x != self.nation else -1)
            lone = b.lone_cache[key] = tuple(out)
        return lone

    def entry_stances(self, frm: int, stance: int, to: int, lone: tuple[int, ...] | None = None) -> tuple[int, ...]:
        """§7.4.5-6: hostile or friendly in another nation's home, friendly only if it is the last
        working factory of that nation (counted after this army has left its own province).
        ``lone``: lone_factories() when the caller has it."""
        b, n = self.board, self.nation
        if not self.foreign_home(n, to):
            return NO_STANCES
        x = b.home_nation[to]
        if stance == HOSTILE and b.home_nation[frm] == x and self.occ[frm] == 1 and self.factory[frm]:
            return BOTH_STANCES  # leaving frees a factory of x, so x has another working one
        last = (self.lone_factories() if lone is None else lone)[x]
        return ONLY_FRIENDLY if last == to else BOTH_STANCES

    def rail_reach(self, r: int, rails: dict | None = None) -> list[int]:
        """§7.4.2 rail: own home provinces reachable from r, none of them occupied (r included).
        ``rails`` memoises the answer while the position does not change."""
        if rails is not None and r in rails:
            return rails[r]
        b, n = self.board, self.nation
        if b.home_nation[r] != n or self.occ[r]:
            seen = [r]
        else:
            seen = [r]
            for x in seen:
                for y in b.rail_adj[x]:
                    if y not in seen and not self.occ[y]:
                        seen.append(y)
        if rails is not None:
            rails[r] = seen
        return seen

    def convoy_mask(self) -> int:
        """The seas where the active nation has a fleet that has not convoyed yet."""
        n = self.nation
        mask = self.fleet_at[n] & self.board.sea_mask
        base = n * self.board.nregions
        for s, c in self.convoyed.items():
            if self.fleets[base + s] <= c:
                mask &= ~(1 << s)
        return mask

    def army_destinations(self, r: int, rails: dict | None = None,
                          avail: int | None = None) -> list[tuple[int, tuple[int, ...]]]:
        """(destination, convoy seas) of one army in r: rail, then one land step or one convoy,
        then rail again if the step ended in an own working home province (§7.4.2, T7, T8, T24).

        Convoys are listed only to destinations no move without a convoy reaches, once per set of
        seas used (different sets use different fleets and may cross different canals)."""
        b = self.board
        rails = {} if rails is None else rails
        found: dict = {}

        def land(to: int, via: tuple) -> None:
            for z in self.rail_reach(to, rails):
                if via:
                    # a convoy is offered only where no move without one arrives: otherwise it
                    # would be the same move, only spending fleets
                    key = (z, frozenset(via))
                    if z != r and z not in found and key not in found:
                        found[key] = (z, via)
                elif z != r and z not in found:
                    found[z] = (z, via)

        start = self.rail_reach(r, rails)
        for x in start:
            if x != r and x not in found:
                found[x] = (x, ())
        for x in start:
            for y in b.land_adj[x]:
                land(y, ())
        avail = self.convoy_mask() if avail is None else avail
        seas = []
        for x in start:
            seas += [s for s in b.coast[x] if avail >> s & 1 and s not in seas]
        if seas:

            def convoy(path: list[int]) -> None:
                last = path[-1]
                via = tuple(path)
                for y in b.shore[last]:
                    land(y, via)
                for t in b.sea_adj[last]:
                    if avail >> t & 1 and t not in path:
                        path.append(t)
                        convoy(path)
                        path.pop()

            for s in seas:
                convoy([s])
        return list(found.values())

    # ----- apply -----

    def apply_maneuver(self, action) -> None:
        t = action[0]
        if t == END:
            self.resolve_flags()
        elif t == FLEET:
            self.request(action, self.canal_controllers((action[1], action[2])))
        elif t == ARMY:
            self.armies_phase = True  # the army phase has begun, even if a canal crossing is refused
            self.request(action, self.canal_controllers(action[4]))
        elif t == BATTLE:
            self.stationary_battle(action)
        else:
            self.destroy(action)

    def canal_controllers(self, path: tuple[int, ...]) -> tuple[int, ...]:
        """Nations (other than the mover) whose permission each canal crossing on the path needs."""
        b, n = self.board, self.nation
        out = []
        for a, c in zip(path, path[1:]):
            k = b.canal.get((a, c))
            if k is not None:
                m = self.flag[b.canal_owner_region[k]]
                if m >= 0 and m != n:
                    out.append(m)
        return tuple(out)

    def request(self, action, controllers: tuple[int, ...]) -> None:
        if controllers:
            self.move = action
            self.queue = controllers
            self.pending = (P_CANAL, self.gov[controllers[0]])
        else:
            self.execute(action)

    def legal_canal(self) -> list:
        return [(CANAL, 1), (CANAL, 0)]

    def apply_canal(self, action) -> None:
        m = self.queue[0]
        k = self.crossed_canal(m)
        self.emit("canal", "§7.4.3", canal=self.board.canal_ids[k], controller=NATIONS[m],
                  nation=NATIONS[self.nation], allowed=bool(action[1]), action=self.action_to_string(self.move))
        if not action[1]:
            refused = {self.move}
            if self.move[0] == ARMY and self.move[5]:  # the crossing was refused, whatever the stance
                refused |= {self.move[:5] + (stance,) for stance in BOTH_STANCES}
            self.denied = self.denied | refused
            self.back_to_maneuver()
            return
        self.queue = self.queue[1:]
        if self.queue:
            self.pending = (P_CANAL, self.gov[self.queue[0]])
        else:
            move, self.move = self.move, None
            self.execute(move)

    def crossed_canal(self, controller: int) -> int:
        """The canal of the crossing asked now: crossings are asked in path order and ``queue`` holds
        the controllers still to answer (one nation may control both canals of a convoy)."""
        b = self.board
        path = (self.move[1], self.move[2]) if self.move[0] == FLEET else self.move[4]
        asked = [k for k in (b.canal.get(pair) for pair in zip(path, path[1:]))
                 if k is not None and self.flag[b.canal_owner_region[k]] not in (-1, self.nation)]
        k = asked[len(asked) - len(self.queue)]
        if self.flag[b.canal_owner_region[k]] != controller:
            raise AssertionError("canal request without a canal")
        return k

    def execute(self, action) -> None:
        b, n = self.board, self.nation
        names = b.region_ids
        if action[0] == FLEET:
            _, r, t = action
            self.remove_unit(n, FLEET_UNIT, r, NO_STANCE)
            self.add_units(n, FLEET_UNIT, t)
            self.moved_f[t] = self.moved_f.get(t, 0) + 1
            if self.recording:
                self.emit("unit_moved", "§7.4.1", nation=NATIONS[n], unit="fleet", **{"from": names[r]},
                          to=names[t], via=[], stance=None)
            self.arrival = (FLEET_UNIT, t, NO_STANCE)
        else:
            _, r, s, to, via, ts = action
            self.armies_phase = True
            self.remove_unit(n, ARMY_UNIT, r, s)
            self.add_units(n, ARMY_UNIT, to, 1, ts)
            self.moved_a[to] = self.moved_a.get(to, 0) + 1
            if ts == HOSTILE:
                self.moved_h[to] = self.moved_h.get(to, 0) + 1
            for sea in via:
                self.convoyed[sea] = self.convoyed.get(sea, 0) + 1
            if self.recording:  # the names of the convoy seas are worth building only for the event
                self.emit("unit_moved", "§7.4.2", nation=NATIONS[n], unit="army", **{"from": names[r]},
                          to=names[to], via=[names[x] for x in via], stance=STANCE_NAMES[ts] or None)
            self.arrival = (ARMY_UNIT, to, ts)
        if self.fight_targets():
            self.pending = (P_FIGHT, self.gov[n])
        else:
            self.back_to_maneuver()

    # ----- battles §7.4.4 -----

    def fight_targets(self) -> list[tuple[int, int, int]]:
        kind, r, _ = self.arrival
        if self.nations_in[r] < 2:
            return []  # the arriving unit is alone here
        if kind == FLEET_UNIT:
            R = self.board.nregions
            return [(m, FLEET_UNIT, NO_STANCE) for m in range(6) if m != self.nation and self.fleets[m * R + r]]
        return self.army_targets(r)

    def legal_fight(self) -> list:
        return [(FIGHT, m, k, s) for m, k, s in self.fight_targets()] + [(DECLINE,)]

    def apply_fight(self, action) -> None:
        if action[0] == FIGHT:
            self.arrival_battle(action[1], action[2], action[3])
            return
        n = self.nation
        present = {m for m, _, _ in self.fight_targets()}
        self.queue = tuple(m for m in ((n + k) % 6 for k in range(1, 6)) if m in present)
        self.ask_demand()

    def ask_demand(self) -> None:
        if self.queue:
            self.pending = (P_DEMAND, self.gov[self.queue[0]])
        else:
            self.back_to_maneuver()

    def defenders(self, m: int) -> list[tuple[int, int]]:
        """(unit, stance) groups of nation m that can fight the arriving unit."""
        kind, r, _ = self.arrival
        R = self.board.nregions
        if kind == FLEET_UNIT:
            return [(FLEET_UNIT, NO_STANCE)] if self.fleets[m * R + r] else []
        out = [(ARMY_UNIT, s) for s, _ in self.army_groups(m, r)]
        if self.board.home_nation[r] == m and self.fleets[m * R + r]:
            out.append((FLEET_UNIT, NO_STANCE))
        return out

    def legal_demand(self) -> list:
        return [(DEMAND, k, s) for k, s in self.defenders(self.queue[0])] + [(DECLINE,)]

    def apply_demand(self, action) -> None:
        if action[0] == DEMAND:
            self.arrival_battle(self.queue[0], action[1], action[2])
        else:
            self.queue = self.queue[1:]
            self.ask_demand()

    def arrival_battle(self, m: int, kind: int, stance: int) -> None:
        akind, r, astance = self.arrival
        if akind == FLEET_UNIT:
            self.moved_f[r] -= 1
        else:
            self.moved_a[r] -= 1
            if astance == HOSTILE:
                self.moved_h[r] -= 1
        self.battle(r, akind, astance, m, kind, stance)
        self.back_to_maneuver()

    def stationary_battle(self, action) -> None:
        _, r, kind, stance, m, tkind, tstance = action
        if kind == ARMY_UNIT:
            self.armies_phase = True
        self.battle(r, kind, stance, m, tkind, tstance)

    def battle(self, r: int, kind: int, stance: int, m: int, tkind: int, tstance: int) -> None:
        """One unit of each side is removed (§7.4.4 step 5)."""
        self.remove_unit(self.nation, kind, r, stance)
        self.remove_unit(m, tkind, r, tstance)
        self.emit("battle", "§7.4.4", region=self.board.region_ids[r], attacker=NATIONS[self.nation],
                  attacker_unit=UNIT_NAMES[kind], defender=NATIONS[m], defender_unit=UNIT_NAMES[tkind],
                  defender_stance=STANCE_NAMES[tstance] or None)

    # ----- §7.4.7 factory destruction -----

    def destroy(self, action) -> None:
        """Removes h hostile and 3 - h friendly armies; armies that already moved go first, since
        an army that has not moved keeps every option of one that has."""
        _, r, h = action
        n = self.nation
        self.armies_phase = True
        self.factory[r] = False
        mh = min(h, self.moved_h.get(r, 0))
        mf = min(3 - h, self.moved_a.get(r, 0) - self.moved_h.get(r, 0))
        if mh + mf:
            self.moved_h[r] = self.moved_h.get(r, 0) - mh
            self.moved_a[r] -= mh + mf
        for stance, count in ((HOSTILE, h), (FRIENDLY, 3 - h)):
            for _ in range(count):
                self.remove_unit(n, ARMY_UNIT, r, stance)
        self.emit("factory_destroyed", "§7.4.7", nation=NATIONS[self.board.home_nation[r]], by=NATIONS[n],
                  region=self.board.region_ids[r], hostile_removed=h)

    # ----- §7.4.8 flags -----

    def resolve_flags(self) -> None:
        """§7.4.8: a region outside the home provinces where one nation alone has units wants its flag."""
        b, n, flag = self.board, self.nation, self.flag
        present = [a | f for a, f in zip(self.army_at, self.fleet_at)]
        seen = twice = 0
        for units in present:
            twice |= seen & units
            seen |= units
        wants: dict[int, list[int]] = {}
        for r in bits(seen & ~twice & b.neutral_mask):
            old = flag[r]
            if old >= 0 and present[old] >> r & 1:
                continue  # its flag is there already
            m = next(m for m, units in enumerate(present) if units >> r & 1)
            wants.setdefault(m, []).append(r)
            if old >= 0:
                self.flag_count[old] -= 1
                self.emit("flag_removed", "§7.4.8", nation=NATIONS[old], region=b.region_ids[r])
                flag[r] = -1
        order = ((n + k) % 6 for k in range(6))
        self.flag_todo = tuple((m, tuple(wants[m])) for m in order if m in wants)
        self.place_flags()

    def place_flags(self) -> None:
        limit = self.board.flags_per_nation
        while self.flag_todo:
            m, regions = self.flag_todo[0]
            supply = limit - self.flag_count[m]
            if len(regions) <= supply:
                for r in regions:
                    self.plant(m, r)
            elif supply:
                self.pending = (P_FLAG, self.gov[m])
                return
            self.flag_todo = self.flag_todo[1:]
        self.action_done()

    def plant(self, m: int, r: int) -> None:
        self.flag[r] = m
        self.flag_count[m] += 1
        self.emit("flag_placed", "§7.4.8", nation=NATIONS[m], region=self.board.region_ids[r])

    def legal_flag(self) -> list:
        return [(FLAG, r) for r in self.flag_todo[0][1]]

    def apply_flag(self, action) -> None:
        m, regions = self.flag_todo[0]
        self.plant(m, action[1])
        rest = tuple(r for r in regions if r != action[1])
        if self.flag_count[m] < self.board.flags_per_nation and rest:
            self.flag_todo = ((m, rest),) + self.flag_todo[1:]
        else:
            self.flag_todo = self.flag_todo[1:]
        self.place_flags()

    # ----- explanations of illegal actions -----

    def explain_maneuver(self, action) -> tuple[str, str]:
        b, n, t = self.board, self.nation, action[0]
        names = b.region_ids
        if t == FLEET:
            _, r, to = action
            if self.armies_phase:
                return "§7.4", "once an army has acted no fleet may move any more"
            if self.unmoved_fleets(r) <= 0:
                return "§7.4.1", f"{NATIONS[n]} has no fleet in {names[r]} that has not moved yet"
            if action in self.denied:
                return "§7.4.3", "this canal crossing was refused earlier in this maneuver"
            if b.kind[r] != SEA:
                return "§7.4.1", f"a fleet in the harbour of {names[r]} can only move into {names[b.shipyard_sea[r]]}"
            if b.kind[to] != SEA:
                return "§7.4.1", "a fleet at sea can never enter a land region"
            return "§7.4.1", f"{names[to]} is not adjacent to {names[r]}"
        if t == ARMY:
            _, r, s, to, via, ts = action
            if s not in [g for g, _ in self.army_groups(n, r, unmoved=True)]:
                return "§7.4.2", (f"{NATIONS[n]} has no {STANCE_NAMES[s]} army in {names[r]} that has not "
                                  "moved yet").replace("  ", " ")
            if action in self.denied:
                return "§7.4.3", "this canal crossing was refused earlier in this maneuver"
            reachable = self.army_destinations(r)
            listed = [v for d, v in reachable if d == to and v and set(v) == set(via) and v != via]
            if listed:
                return "§7.4.2", (f"a convoy through these seas from {names[r]} to {names[to]} is written "
                                  f"'via {','.join(names[x] for x in listed[0])}' (a chain of adjacent seas "
                                  "starting beside the army)")
            if (to, via) in reachable:
                stances = self.entry_stances(r, s, to)
                if stances == ONLY_FRIENDLY:
                    return "§7.4.6", f"{names[to]} holds the last working factory of its nation: entry is friendly"
                return "§7.4.5", ("an army entering another nation's home province is declared 'as hostile' or "
                                  "'as friendly'; elsewhere it has no stance")
            if via:
                return "§7.4.2", (f"no convoy along {','.join(names[x] for x in via)} takes an army from "
                                  f"{names[r]} to {names[to]} (each sea needs a {NATIONS[n]} fleet that has not "
                                  "convoyed yet; the army must end on land)")
            return "§7.4.2", (f"{names[to]} cannot be reached from {names[r]} by rail and one land step "
                              "(rail only through own unoccupied home provinces)")
        if t == BATTLE:
            return "§7.4.4", ("a battle needs an own unit that has not moved and a foreign unit it can fight in the "
                              "same region (fleets only before the first army acts)")
        if t == DESTROY:
            r = action[1]
            x = b.home_nation[r]
            if not self.factory[r] or not self.foreign_home(n, r):
                return "§7.4.7", f"{names[r]} has no factory of another nation"
            if self.armies[n * len(names) + r] < 3:
                return "§7.4.7", f"destroying a factory needs three {NATIONS[n]} armies in {names[r]}"
            if self.armies[x * len(names) + r] or self.fleets[x * len(names) + r]:
                return "§7.4.7", f"{NATIONS[x]} still has units in {names[r]}"
            if self.working_factories(x) == [r]:
                return "§7.4.7", f"it is the last factory of {NATIONS[x]} free of hostile armies"
            return "§7.4.7", "choose how many of the three removed armies are hostile (only as many as stand there)"
        return "§7.4", "during a maneuver the government moves units, fights, destroys factories or ends the maneuver"

    def explain_canal(self, action) -> tuple[str, str]:
        return "§7.4.3", "the canal's controller must answer 'allow' or 'deny'"

    def explain_fight(self, action) -> tuple[str, str]:
        return "§7.4.4", "the mover may name one foreign unit in the region that the arriving unit can fight, or decline"

    def explain_demand(self, action) -> tuple[str, str]:
        return "§7.4.4", "a nation asked may demand battle with one of its own units there that can fight, or decline"

    def explain_flag(self, action) -> tuple[str, str]:
        return "§7.4.8", "the flag must go to a region that wants this nation's flag"
