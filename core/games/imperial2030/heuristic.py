"""A rule-of-thumb bot for Imperial 2030 that plays like a sensible beginner.

``HeuristicBot.decide`` scores every legal action with cheap arithmetic on the state's flat
lists and draws one from a softmax over the scores (``temperature``; at 0 it plays the best one,
ties broken by its seeded generator): no cloning, no lookahead. Scores are guesses of the change
in the bot's own final score (cash + Σ interest × power factor, §10), so weights of different
decisions are comparable; ``Weights`` names them all.

How it judges, in short:

* **Nations.** It *governs* some, holds a *stake* (bonds) in others, and treats the rest as
  *rivals*: hurting a rival (taking its flags, occupying or destroying its factories, killing its
  units) is welcome, hurting a nation it holds bonds in is not.
* **Bonds** (Investor, variant picks). A bond is worth interest × (expected final power factor +
  expected further interest payments), discounted; it buys the best one if that, plus the value of
  winning or defending a government, beats its cost by a margin. Otherwise it keeps the cash. In
  the variant's picks it keeps enough cash to lead some nation until it does.
* **Rondel.** Each space gets the value of what it would yield now (taxation: bonus, power points,
  treasury; factory; production and import when units are short of targets; maneuver: flags in
  reach; investor: interest it receives), minus the fee of a long move, weighed well above its
  face value. A taxation that would end the game counts as a win or a loss (§10).
* **Maneuver.** Units move one at a time to the best-scoring region (a new flag, a rival's flag, a
  threatened or occupied own province, a rival's factory), else one step nearer to such a region;
  the maneuver ends when no move scores above zero. Battles only when they free its own
  factories, keep its flags or cost a rival more than they cost itself.

Per-board tables live in a module-level cache (``_tables``), built once.
"""

from __future__ import annotations

import math
import random
import statistics
from dataclasses import asdict, dataclass, fields
from itertools import compress

from imperial_lab.core.games.imperial2030.actions import (ARMY, BATTLE, BUILD, BUY, CANAL, DEMAND, DESTROY, END, FIGHT, FLEET, FLEET_UNIT,
                                       FRIENDLY, HOSTILE, IMPORT, TOPUP, UPGRADE, VETO)
from imperial_lab.core.games.imperial2030.data import ARMAMENTS, HOME, INVESTOR, SEA, SHIPYARD
from imperial_lab.core.games.imperial2030.pending import (P_CANAL, P_DEMAND, P_FACTORY, P_FIGHT, P_FLAG, P_IMPORT, P_INVEST,
                                       P_MANEUVER, P_PRODUCE, P_TURN, P_VARIANT, P_VETO)
from imperial_lab.core.games.imperial2030.turn import passes_investor

DEFAULT_TEMPERATURE = 0.3  # see HeuristicBot; docs/league.md gives its win rate against random bots
MAX_TEMPERATURE = 100.0  # far above it every action is as likely as any other: a typo, not a setting
NEVER = -1e8  # scores at or below this mark actions the bot must not take (a top-up at the rondel)
SPHERE = 3  # regions this many steps from home count when judging whether units are short
BOARD_MEMO_KEPT = 20_000  # a board's memos (distances, flag gains) are emptied beyond this many entries
VIEWS_KEPT = 4096  # a bot's memo of views (bond holdings x governments seen) is emptied beyond this
# per start space and distance: does the move land on or pass over Investor (§6, §8)
_VISITS_INVESTOR = tuple(tuple(d > 0 and ((cur + d) % 8 == INVESTOR or passes_investor(cur, d)) for d in range(8))
                         for cur in range(8))


@dataclass(frozen=True)
class Weights:
    """The bot's judgement, in points of its own final score (1 point = 1m of cash).

    Maneuver and battles:
      flag         a new flag of a nation it governs (one more tax revenue at every taxation)
      rival_flag   a flag of another nation, per unit of relation: removing a rival's flag (relation
                   -1) gains this, removing a flag of a nation it holds bonds in (+0.5) costs half
      canal        extra for a flag in a canal region (colombia, north_africa)
      liberate     freeing an own factory from hostile armies
      guard        an army standing in an own factory province with foreign armies next door
      occupy       a rival factory occupied by a hostile army
      destroy      a rival factory destroyed (three armies are spent on top, see ``unit``)
      unit         one own unit (lost in battle; produced or imported while units are short)
      rival_unit   one unit of a rival removed in battle
      approach     per step a unit gets nearer to the closest target when none is in reach
      convoy       per sea of a convoy (keeps fleets free for other armies)
    Rondel and the nation's money:
      treasury     1m in the treasury of a governed nation (cash counts 1) ...
      treasury_cap ... up to this much; more would lie idle
      pp_drive     a power point of a governed nation, on top of its bonds' share of it
      factory      a new factory at the start of the game (scaled down as the game advances)
      move_cost    multiplier on the fee of a rondel move of 4-6 spaces: the fee is lost score,
                   and what it buys is mostly a turn's head start (a free move of 1-3 spaces
                   usually sets up the same action next turn), so it is weighed well above 1
      gift         1m of interest paid to other players (it raises their scores)
      win          ending the game: +win if it then wins, -win if not ...
      patience     ... fading to nothing over this many nation turns (so self-play always ends)
    Bonds and governments:
      typical_share  share of the leader's remaining power-point growth an average nation is
                     expected to get (before the power points say more)
      own_share    the same for a nation it governs (it will push it)
      landings     interest payments a nation is expected to make over a whole game
      bond_trust   discount on a bond's expected future value (uncertainty; cash is sure)
      buy_margin   expected gain a bond transaction needs to beat keeping the cash
      control      becoming a nation's government (halved when it governs another already)
      defend       lifting its credit in a governed nation above every challenger's reach
      reserve      cash (m) kept in the variant's picks, until it leads a nation, for a bond that would
    Swiss bank:
      veto_interest  vetoes a pass over Investor when it holds at least this interest in the nation
    """

    flag: float = 2.0
    rival_flag: float = 1.0
    canal: float = 0.5
    liberate: float = 4.0
    guard: float = 1.0
    occupy: float = 1.5
    destroy: float = 6.0
    unit: float = 1.0
    rival_unit: float = 0.5
    approach: float = 0.3
    convoy: float = 0.05
    treasury: float = 0.3
    treasury_cap: float = 15.0
    pp_drive: float = 0.4
    factory: float = 10.0
    move_cost: float = 5.0
    gift: float = 0.3
    win: float = 50.0
    patience: float = 300.0
    typical_share: float = 0.55
    own_share: float = 0.9
    landings: float = 3.0
    bond_trust: float = 0.8
    buy_margin: float = 1.0
    control: float = 16.0
    defend: float = 5.0
    reserve: float = 9.0
    veto_interest: float = 1.0


# ----- per-board tables -----

class _Tables:
    """Static facts the bot reads in its hot path, per board."""

    def __init__(self, b):
        R = len(b.region_ids)
        self.R = R
        self.canal = frozenset(b.canal_owner_region)
        self.is_canal = [float(r in self.canal) for r in range(R)]
        self.is_neutral = [float(b.kind[r] != HOME) for r in range(R)]
        # where a foreign army could occupy a home province from: next door, or inside it (friendly)
        self.guarded = tuple((r,) + b.land_adj[r] for r in range(R))
        # armies may cross seas by convoy, so seas count as steps when measuring distances
        self.army_graph = tuple(b.land_adj[r] + b.coast[r] if b.kind[r] != SEA else b.shore[r] + b.sea_adj[r]
                                for r in range(R))
        self.fleet_reach = tuple(b.sea_adj[r] if b.kind[r] == SEA else
                                 ((b.shipyard_sea[r],) if b.shipyard_sea[r] >= 0 else ()) for r in range(R))
        # one army move: a land step, or (from home) rail then a land step
        self.army_reach = []
        for n, homes in enumerate(b.homes):
            from_home = tuple(sorted(set(homes).union(*(b.land_adj[h] for h in homes))))
            self.army_reach.append(tuple(from_home if b.home_nation[r] == n else b.land_adj[r] for r in range(R)))
        self.sphere_land, self.sphere_sea = [], []
        for homes in b.homes:
            near = self.within(homes, SPHERE)
            self.sphere_land.append(tuple(r for r in near if b.kind[r] != HOME and b.kind[r] != SEA))
            self.sphere_sea.append(tuple(r for r in near if b.kind[r] == SEA))
        self.dist_cache: dict = {}
        self.gain_cache: dict = {}

    def within(self, sources, depth: int) -> list[int]:
        """Regions at most ``depth`` steps (land borders and seas) from ``sources``."""
        seen, frontier = set(sources), list(sources)
        for _ in range(depth):
            frontier = [y for x in frontier for y in self.army_graph[x]
                        if y not in seen and not seen.add(y)]  # type: ignore[func-returns-value]
        return sorted(seen)

    def distances(self, targets: int, fleets: bool, board) -> list[int]:
        """Steps from every region to the nearest region of the bit mask ``targets``; memoised."""
        key = (targets, fleets)
        found = self.dist_cache.get(key)
        if found is not None:
            return found
        if len(self.dist_cache) > BOARD_MEMO_KEPT:
            self.dist_cache.clear()
        R = self.R
        far = R + 1
        dist = [far] * R
        frontier = [r for r in range(R) if targets >> r & 1]
        for r in frontier:
            dist[r] = 0
        graph = board.sea_adj if fleets else self.army_graph
        d = 0
        while frontier:
            d += 1
            nxt = []
            for x in frontier:
                for y in graph[x]:
                    if dist[y] == far:
                        dist[y] = d
                        nxt.append(y)
            frontier = nxt
        if fleets:  # a fleet in harbour is one step from its sea
            for r in range(R):
                s = board.shipyard_sea[r]
                if s >= 0:
                    dist[r] = dist[s] + 1
        self.dist_cache[key] = dist
        return dist


_TABLES: dict[int, tuple] = {}


def _tables(board) -> _Tables:
    found = _TABLES.get(id(board))
    if found is None or found[0] is not board:
        found = _TABLES[id(board)] = (board, _Tables(board))
    return found[1]


# ----- how the deciding player stands towards the nations -----

class _View:
    """How the deciding player ``me`` stands towards each nation: stake, relation, flag values."""

    __slots__ = ("me", "stake", "rel", "fv")

    def __init__(self, state, me: int, w: Weights):
        self.me = me
        owner = state.owner
        stake = [0] * 6
        for m in range(6):
            bonds = owner[m * 9:m * 9 + 9]
            if me in bonds:
                stake[m] = sum(k + 1 for k, p in enumerate(bonds) if p == me)
        gov = state.gov
        # relation: +1 governs it, +0.5 holds bonds in it, -1 a rival (hurting it is welcome)
        self.rel = [1.0 if gov[m] == me else 0.5 if stake[m] else -1.0 for m in range(6)]
        # value to me of a flag of each nation; index -1 (no flag) is worth nothing
        self.fv = [w.flag if r == 1.0 else w.rival_flag * r for r in self.rel] + [0.0]
        self.stake = stake


class _Control:
    """Who could govern each nation (§9), for the value of a bond transaction adding to my credit."""

    __slots__ = ("w", "mine", "top", "reach", "now", "leads")

    def __init__(self, state, me: int, w: Weights):
        cost = state.board.bond_cost
        credit = [[0] * 6 for _ in range(state.nplayers)]
        for k, p in enumerate(state.owner):
            if p >= 0:
                credit[p][k // 9] += cost[k % 9]
        rivals = [credit[p] for p in range(state.nplayers) if p != me]
        cash = [state.cash[p] for p in range(state.nplayers) if p != me]
        self.w = w
        self.mine = mine = credit[me]
        self.top = top = [max(c[n] for c in rivals) for n in range(6)]
        # what a challenger could reach with one transaction: his credit plus all his cash
        self.reach = [max(c[n] + x for c, x in zip(rivals, cash)) for n in range(6)]
        gov = state.gov
        # governing now (ties keep the government), or leading a nation nobody governs yet (the variant's picks)
        self.now = [mine[n] > top[n] or (mine[n] == top[n] and gov[n] == me and mine[n] > 0) for n in range(6)]
        self.leads = sum(self.now)

    def value(self, n: int, added: int) -> float:
        """Winning nation n's government by adding ``added`` to my credit, or lifting my credit
        above every challenger's reach."""
        mine, w = self.mine[n], self.w
        if self.now[n]:
            return w.defend if mine <= self.reach[n] < mine + added else 0.0
        if mine + added > self.top[n]:
            return w.control * (0.5 if self.leads else 1.0)
        return 0.0


class HeuristicBot:
    """Scores each legal action by its expected effect on its own score (see the module docstring),
    then draws one: action a with probability ∝ exp((score(a) - best) / (temperature × spread)).

    ``spread`` is the median absolute deviation of the decision's scores (half their range when at
    least half of them are equal, which makes that deviation 0). Scores of different decisions lie
    on different scales (a rondel choice may weigh a 50-point game end against 1-point differences,
    a bond 10m against 12m), and dividing by the spread makes one temperature mean the same
    everywhere: at temperature t, an action one spread below the best is e^(1/t) times less likely
    than the best. The median, not the range, so that one extreme option (ending the game, keeping
    all the cash) does not flatten the choice among the others. Actions scored at or below ``NEVER``
    are never drawn (unless all are), and a decision whose scores are all equal is drawn uniformly
    (as ties were before).

    Temperature 0 plays the best action, ties broken by the generator: the deterministic bot of
    earlier versions, bit for bit. The default (``DEFAULT_TEMPERATURE``) is low enough that the bot
    still beats three random bots in at least 95% of 4-player games, and high enough that its
    opening bond transactions differ from seed to seed. Every draw comes from the bot's own seeded
    generator: the same seed plays the same game.
    """

    name = "heuristic"
    # bot spec parameters (imperial_lab.core.bots): name -> (type, low, high, default)
    PARAMS = {"temperature": (float, 0.0, MAX_TEMPERATURE, DEFAULT_TEMPERATURE),
              **{f.name: (float, 1.0 if f.name == "patience" else 0.0, 10_000.0, f.default) for f in fields(Weights)}}

    def __init__(self, seed: int | None = None, weights: Weights | None = None,
                 temperature: float = DEFAULT_TEMPERATURE):
        self.rng = random.Random(seed)
        self.w = weights or Weights()
        self.temperature = temperature
        self._views: dict[tuple, _View] = {}

    def view(self, state, me: int) -> _View:
        """``_View(state, me, self.w)``, memoised: it reads only the bonds and the governments, which
        change at a few decisions a game, and a playout asks for it at every one."""
        key = (me, *state.owner, *state.gov)
        found = self._views.get(key)
        if found is None:
            if len(self._views) > VIEWS_KEPT:
                self._views.clear()
            found = self._views[key] = _View(state, me, self.w)
        return found

    @classmethod
    def from_params(cls, params: dict, seed: int | None = None) -> HeuristicBot:
        """A bot with ``temperature`` and the weights (names of ``Weights``) of ``params``, the
        defaults for the rest."""
        weights = {key: value for key, value in params.items() if key != "temperature"}
        return cls(seed, Weights(**weights), params.get("temperature", DEFAULT_TEMPERATURE))

    def params(self) -> dict:
        """The temperature and the weights as a plain dict (``from_params`` takes it back)."""
        return {"temperature": self.temperature, **asdict(self.w)}

    def decide(self, state, legal_actions):
        if len(legal_actions) == 1:
            return legal_actions[0]
        return _DECIDERS[state.pending[0]](self, state, legal_actions)

    def pick(self, actions: list, scores: list[float]):
        """An action drawn by its score (see the class docstring); at temperature 0 the best one,
        ties broken by the bot's generator."""
        best = max(scores)
        if self.temperature > 0:
            return self.draw(actions, scores, best)
        ties = [a for a, s in zip(actions, scores) if s == best]
        return ties[0] if len(ties) == 1 else ties[self.rng.randrange(len(ties))]

    def draw(self, actions: list, scores: list[float], best: float):
        kept = [(a, s) for a, s in zip(actions, scores) if s > NEVER] or list(zip(actions, scores))
        if len(kept) == 1:
            return kept[0][0]
        values = [s for _, s in kept]
        scale = self.temperature * _spread(values)
        if scale == 0:
            return kept[self.rng.randrange(len(kept))][0]
        weights = [math.exp((s - best) / scale) for s in values]
        return self.rng.choices([a for a, _ in kept], weights)[0]

    # ----- bonds: Investor (§7.5) and the variant's picks (§4.3) -----

    def invest(self, state, legal):
        """The bond transaction worth most (or none): Investor, Swiss banks, the variant's picks."""
        me, w = state.pending[1], self.w
        per = _interest_worth(state, me, w)
        control = _Control(state, me, w)
        cost = state.board.bond_cost
        # the variant's picks: until it leads a nation, it keeps the cash to take the lead of a later one
        saving = state.pending[0] == P_VARIANT and not control.leads and state.variant_chooser()[0] < 5
        scores = []
        for a in legal:
            t = a[0]
            if t == BUY:
                n, k = a[1], a[2]
                paid, s = cost[k - 1], k * per[n]
            elif t == UPGRADE:
                n, old, new = a[1], a[2], a[3]
                paid, s = cost[new - 1] - cost[old - 1], (new - old) * per[n]
            else:  # PASS: keep the cash (it is score)
                scores.append(w.buy_margin)
                continue
            lead = control.value(n, paid)
            if saving and not lead and state.cash[me] - paid < w.reserve:
                s -= w.control
            scores.append(s - paid + lead)
        return self.pick(legal, scores)

    # ----- the rondel (§6) -----

    def turn_start(self, state, legal):
        """§6: the space worth most after the fee; never a top-up here."""
        n = state.nation
        me = state.pending[1]
        w = self.w
        v = self.view(state, me)
        t = _tables(state.board)
        gain, _ = _region_values(state, t, n, v, w)
        values = self.space_values(state, t, n, v, gain)
        cur, pf = state.rondel[n], state.pf(n)
        card = 2.0 if state.card == me else 0.0  # the investor card's 2m after Investor or a pass over it
        scores = []
        for a in legal:
            if a[0] == TOPUP:  # only ever topped up for a factory, at the factory decision
                scores.append(-1e9)
            elif cur < 0:  # first placement: free, passes nothing
                scores.append(values[a[1]])
            else:
                d = (a[1] - cur) % 8
                fee = 0 if d <= 3 else (d - 3) * (1 + pf)  # §6
                scores.append(values[a[1]] - w.move_cost * fee + card * _VISITS_INVESTOR[cur][d])
        return self.pick(legal, scores)

    def space_values(self, state, t: _Tables, n: int, v: _View, gain: list[float]) -> list[float]:
        """What landing on each rondel space would yield now, in points for the government."""
        w = self.w
        need_a, need_f = _unit_need(state, t, n, gain)
        production = w.unit * _production_units(state, n, need_a, need_f)
        treasury = state.treasury[n]
        imports = max(0, min(3, treasury, need_a + need_f))
        imported = w.unit * imports - self.funds(treasury) + self.funds(treasury - imports)
        maneuver = _maneuver_yield(state, t, n, gain)
        return [self.factory_value(state, n, v), production, maneuver, self.investor_value(state, n, v),
                imported, production, maneuver, self.taxation_value(state, n, v)]

    def funds(self, treasury: int) -> float:
        """Worth to me of a governed nation's treasury: money beyond what it can use soon is idle."""
        return self.w.treasury * min(treasury, self.w.treasury_cap)

    def factory_value(self, state, n: int, v: _View) -> float:
        """§7.1: a factory yields 2 revenue per taxation and a unit per production for the rest of the game."""
        w = self.w
        if not state.factory_sites():
            return 0.0
        fee = state.board.factory_cost
        topup = max(0, fee - state.treasury[n])
        if topup > state.cash[v.me] or (topup and not state.game.cash_topup):
            return 0.0
        worth = w.factory * (1 - max(state.pp) / 25)
        return worth - topup - self.funds(state.treasury[n]) + self.funds(state.treasury[n] + topup - fee)

    def taxation_value(self, state, n: int, v: _View) -> float:
        """§7.6: bonus to me, power points for my bonds, net treasury; a game-ending taxation is
        judged by whether it makes me the winner."""
        w, b = self.w, state.board
        revenue = min(b.max_revenue, 2 * len(state.working_factories(n)) + state.flag_count[n])
        treasury = state.treasury[n] + revenue
        treasury -= min(state.n_armies[n] + state.n_fleets[n], treasury)
        bonus = min(b.tax_bonus[revenue], treasury)
        gained = b.tax_pp[revenue]
        value = bonus + self.funds(treasury - bonus) - self.funds(state.treasury[n])
        value += gained * (v.stake[n] / 5 + w.pp_drive)
        if state.pp[n] + gained < 25:
            return value
        if _wins_if_ended(state, v.me, n, bonus):
            return w.win
        # it would lose: put the end off, but less and less, so that a game where every government
        # would lose by ending it still ends
        return value - w.win * max(0.0, 1 - state.nation_turns / w.patience)

    def investor_value(self, state, n: int, v: _View) -> float:
        """§7.5 step 1 from the government's seat: interest I receive, minus what the others are
        paid (from the treasury, or from my cash when it is short)."""
        w, me = self.w, v.me
        owed = [0] * state.nplayers
        for k in range(n * 9, n * 9 + 9):
            p = state.owner[k]
            if p >= 0:
                owed[p] += k % 9 + 1
        treasury = state.treasury[n]
        to_others = from_cash = 0
        for p in range(state.nplayers):
            if p != me and owed[p]:
                x = min(owed[p], treasury)
                treasury -= x
                y = min(owed[p] - x, state.cash[me] - from_cash)
                from_cash += y
                to_others += x + y
        received = min(owed[me], treasury)
        drained = self.funds(state.treasury[n]) - self.funds(treasury - received)
        return received - from_cash - w.gift * to_others - drained

    # ----- the rondel's actions (§7.1-7.3) -----

    def factory(self, state, legal):
        """§7.1: build where units are short (armaments or shipyard), topping up only for this."""
        n, w = state.nation, self.w
        v = self.view(state, state.pending[1])
        if self.factory_value(state, n, v) <= 0:
            return (BUILD, -1)
        fee = state.board.factory_cost
        if state.treasury[n] < fee:
            topup = (TOPUP, fee - state.treasury[n])
            return topup if topup in legal else (BUILD, -1)
        t = _tables(state.board)
        gain, _ = _region_values(state, t, n, v, w)
        need_a, need_f = _unit_need(state, t, n, gain)
        want = ARMAMENTS if need_a >= need_f else SHIPYARD
        b = state.board
        scores = [0.0 if a[0] != BUILD or a[1] < 0 else 1.0 + (b.factory_slot[a[1]] == want) for a in legal]
        return self.pick(legal, scores)

    def produce(self, state, legal):
        return legal[0]  # which factories fill the last free units hardly matters

    def import_units(self, state, legal):
        """§7.3: armies (or fleets) while units are short of targets, placed nearest to them."""
        n, w = state.nation, self.w
        if state.treasury[n] < 1 or w.unit <= w.treasury:
            return (IMPORT, -1, -1)
        v = self.view(state, state.pending[1])
        t = _tables(state.board)
        gain, _ = _region_values(state, t, n, v, w)
        need_a, need_f = _unit_need(state, t, n, gain)
        if need_a <= 0 and need_f <= 0:
            return (IMPORT, -1, -1)
        kind = FLEET_UNIT if need_f > need_a else 0
        targets = _target_mask(t, gain, fleets=kind == FLEET_UNIT, board=state.board)
        dist = t.distances(targets, kind == FLEET_UNIT, state.board)
        scores = [-dist[a[2]] if a[0] == IMPORT and a[1] == kind else -1e9 for a in legal]
        if max(scores) == -1e9:
            return (IMPORT, -1, -1)
        return self.pick(legal, scores)

    # ----- maneuver (§7.4) -----

    def maneuver(self, state, legal):
        """§7.4: the best-scoring single move (fleets first), else a step towards a target, else end."""
        n, w = state.nation, self.w
        v = self.view(state, state.pending[1])
        t = _tables(state.board)
        gain, loss = _region_values(state, t, n, v, w)
        convoy = w.convoy
        # the moves worth something, fleets apart: once an army acts no fleet may move (§7.4)
        fleet_acts, fleet_scores, army_acts, army_scores = [], [], [], []
        for a in legal:
            typ = a[0]
            if typ == ARMY:
                s = (0.0 if a[5] == FRIENDLY else gain[a[3]]) - loss[a[1]] - convoy * len(a[4])
            elif typ == FLEET:
                s = gain[a[2]] - loss[a[1]]
            elif typ == BATTLE:
                s = self.battle_value(state, v, a[1], n, a[3], a[4], a[6])
            elif typ == DESTROY:
                s = w.destroy * -v.rel[state.board.home_nation[a[1]]] - 3 * w.unit
            else:
                continue
            if s <= 0:
                continue
            if typ == FLEET or (typ == BATTLE and a[2] == FLEET_UNIT):
                fleet_acts.append(a)
                fleet_scores.append(s)
            else:
                army_acts.append(a)
                army_scores.append(s)
        if fleet_acts:  # fleets first
            return self.pick(fleet_acts, fleet_scores)
        if not state.armies_phase:
            step = self.approach(state, t, legal, gain, loss, FLEET)
            if step is not None:
                return step
        if army_acts:
            return self.pick(army_acts, army_scores)
        step = self.approach(state, t, legal, gain, loss, ARMY)
        return step if step is not None else (END,)

    def approach(self, state, t: _Tables, legal, gain, loss, typ: int):
        """The move of type ``typ`` that brings a unit most steps nearer to a target, if any."""
        fleets = typ == FLEET
        targets = _target_mask(t, gain, fleets, state.board)
        if not targets:
            return None
        dist = t.distances(targets, fleets, state.board)
        w = self.w
        acts, scores = [], []
        for a in legal:
            # on the way, armies enter other nations' provinces as friendly (hostility is a target's business)
            if a[0] != typ or (not fleets and a[5] == HOSTILE):
                continue
            if fleets:
                s = w.approach * (dist[a[1]] - dist[a[2]]) - loss[a[1]]
            else:
                s = w.approach * (dist[a[1]] - dist[a[3]]) - loss[a[1]] - w.convoy * len(a[4])
            if s > 0:
                acts.append(a)
                scores.append(s)
        return self.pick(acts, scores) if acts else None

    def battle_value(self, state, v: _View, r: int, mine: int, my_stance: int, other: int,
                     other_stance: int) -> float:
        """§7.4.4: one unit of nation ``mine`` (governed by me) and one of ``other`` leave region r.
        Worth: the rival's unit, an own factory freed, a flag changing hands at the flag phase."""
        w, b = self.w, state.board
        value = w.rival_unit * -v.rel[other] - w.unit
        if b.kind[r] == HOME:
            removed = (my_stance == HOSTILE) + (other_stance == HOSTILE)
            if removed and state.factory[r]:
                x = b.home_nation[r]
                freed = w.liberate if v.rel[x] == 1.0 else w.occupy * v.rel[x]
                value += freed * removed / state.occ[r]  # each hostile army removed is a share of the way
            return value
        R = len(b.region_ids)
        before = after = -1
        for m in range(6):
            c = state.armies[m * R + r] + state.fleets[m * R + r]
            if c:
                before = m if before == -1 else -2
            c -= (m == mine) + (m == other)
            if c > 0:
                after = m if after == -1 else -2
        flag = state.flag[r]
        return value + v.fv[after if after >= 0 else flag] - v.fv[before if before >= 0 else flag]

    def fight(self, state, legal):
        """The arriving unit (state.arrival) may fight one foreign unit there, or decline."""
        n = state.nation
        v = self.view(state, state.pending[1])
        _, r, stance = state.arrival
        scores = [self.battle_value(state, v, r, n, stance, a[1], a[3]) if a[0] == FIGHT else 0.0 for a in legal]
        return self.pick(legal, scores)

    def demand(self, state, legal):
        """Another nation's unit arrived where my nation (the first asked) has units."""
        mine = state.queue[0]
        v = self.view(state, state.pending[1])
        _, r, stance = state.arrival
        scores = [self.battle_value(state, v, r, mine, a[2], state.nation, stance) if a[0] == DEMAND else 0.0
                  for a in legal]
        return self.pick(legal, scores)

    def canal(self, state, legal):
        """§7.4.3: let through the nations it holds bonds in (or governs), nobody else."""
        v = self.view(state, state.pending[1])
        return (CANAL, int(v.stake[state.nation] > 0 or v.rel[state.nation] == 1.0))

    def flag(self, state, legal):
        """§7.4.8 short supply: canal regions first, then regions its units still hold."""
        m = state.flag_todo[0][0]
        R = len(state.board.region_ids)
        canal = _tables(state.board).canal
        scores = [(a[1] in canal) * 10 + state.armies[m * R + a[1]] + state.fleets[m * R + a[1]] for a in legal]
        return self.pick(legal, scores)

    def veto(self, state, legal):
        """§8: a veto forces Investor, so the nation pays me interest now."""
        v = self.view(state, state.pending[1])
        return (VETO, int(v.stake[state.nation] >= self.w.veto_interest))


# ----- shared estimates -----

def _spread(scores: list[float]) -> float:
    """The scale of a decision's scores: their median absolute deviation, else half their range."""
    middle = statistics.median(scores)
    mad = statistics.median([abs(s - middle) for s in scores])
    return mad if mad > 0 else (max(scores) - min(scores)) / 2


def _interest_worth(state, me: int, w: Weights) -> list[float]:
    """Per nation: expected points per interest point of a bond held to the end (final power
    factor plus further interest payments), discounted by ``bond_trust``."""
    pp = state.pp
    top = max(pp)
    progress = top / 25
    out = []
    for n in range(6):
        prior = w.own_share if state.gov[n] == me else w.typical_share
        share = progress * (pp[n] + 1) / (top + 1) + (1 - progress) * prior
        final_pp = min(25.0, pp[n] + (25 - top) * share)
        out.append(w.bond_trust * (final_pp / 5 + w.landings * (1 - progress)))
    return out


def _wins_if_ended(state, me: int, n: int, bonus: int) -> bool:
    """Would I win (alone or shared) if nation n's taxation ended the game now (§10)?"""
    scores = list(state.cash)
    scores[me] += bonus
    for k, p in enumerate(state.owner):
        if p >= 0:
            m = k // 9
            scores[p] += (k % 9 + 1) * (5 if m == n else state.pf(m))
    return scores[me] >= max(scores)


def _region_values(state, t: _Tables, n: int, v: _View, w: Weights) -> tuple[list[float], list[float]]:
    """Per region, for nation n's maneuver: ``gain`` of one more unit arriving there, ``loss`` of
    one leaving (what it would give up: a flag about to be planted, a flag it guards, a guard)."""
    b = state.board
    R = t.R
    A, F, flag = state.armies, state.fleets, state.flag
    base = n * R
    others, anyone = _presence(A, F, n, R)
    fv = v.fv
    own = fv[n] if state.flag_count[n] < b.flags_per_nation else 0.0
    canal = w.canal
    # an empty neutral region would take my flag in place of the one it has (plus the canal extra);
    # flags and their values change seldom, so this part is memoised, its few values shared
    key = (n, own, canal, *fv, *flag)
    found = t.gain_cache.get(key)
    if found is None:
        if len(t.gain_cache) > BOARD_MEMO_KEPT:
            t.gain_cache.clear()
        plain = [own - x for x in fv]  # per flag in the region (index -1: none)
        on_canal = [x + canal for x in plain]
        found = t.gain_cache[key] = [0.0 if f == n or not neutral else on_canal[f] if c else plain[f]
                                     for f, neutral, c in zip(flag, t.is_neutral, t.is_canal)]
    gain = found.copy()
    loss = [0.0] * R
    for r in compress(range(R), anyone):
        if not t.is_neutral[r]:
            continue
        mine = A[base + r] + F[base + r]
        if not others[r]:  # mine alone: the flag is planted unless the last unit leaves
            if mine == 1:
                loss[r] = gain[r]
        elif flag[r] == n and mine == 1:  # shared: leaving would hand my flag over
            loss[r] = fv[n]
        gain[r] = 0.0
    occ, factory = state.occ, state.factory
    for r in b.homes[n]:
        if occ[r]:
            gain[r] = w.liberate
        elif factory[r]:
            mine = A[base + r]
            # a foreign unit next door (or a friendly army inside) may mean an occupation: keep an army there
            if mine <= 1 and any(others[q] for q in t.guarded[r]):
                if mine == 0:
                    gain[r] = w.guard
                else:
                    loss[r] = w.guard
    for x in range(6):
        if x == n or v.rel[x] >= 0:
            continue
        for r in b.homes[x]:
            if not factory[r]:
                continue
            if occ[r] == 0:
                gain[r] = w.occupy
            elif state.hostile[base + r] == occ[r]:  # only my hostile armies occupy it
                if not others[r] and A[base + r] < 3:  # no defender: build up to the three that destroy it
                    gain[r] = w.destroy / 3
                if occ[r] == 1:
                    loss[r] = w.occupy
    return gain, loss


def _presence(A: list[int], F: list[int], n: int, R: int) -> tuple[bytes, bytes]:
    """Per region, nonzero where a nation other than n has units, and where anybody has (from the
    flat ``nation * R + region`` lists). Fast: each list becomes one big int of byte lanes
    (``bytes`` refuses counts above 255), and OR-ing lanes cannot carry into a neighbour."""
    x = int.from_bytes(bytes(A), "little") | int.from_bytes(bytes(F), "little")
    lane = (1 << 8 * R) - 1
    others = 0
    for m in range(6):
        if m != n:
            others |= x >> 8 * R * m & lane
    anyone = others | x >> 8 * R * n & lane
    return others.to_bytes(R, "little"), anyone.to_bytes(R, "little")


def _target_mask(t: _Tables, gain: list[float], fleets: bool, board) -> int:
    """Bit mask of the regions with a positive gain that units of this kind can stand in."""
    mask = 0
    kind = board.kind
    for r, g in enumerate(gain):
        if g > 0 and (kind[r] == SEA) == fleets:
            mask |= 1 << r
    return mask


def _unit_need(state, t: _Tables, n: int, gain: list[float]) -> tuple[int, int]:
    """How many more armies and fleets nation n could use: targets near home minus units it has."""
    land = sum(1 for r in t.sphere_land[n] if gain[r] > 0)
    land += sum(1 for r in state.board.homes[n] if state.occ[r])
    sea = sum(1 for r in t.sphere_sea[n] if gain[r] > 0)
    return land - state.n_armies[n], sea - state.n_fleets[n]


def _production_units(state, n: int, need_a: int, need_f: int) -> int:
    """Units a production would add that nation n needs (§7.2, unit limits apply)."""
    arms, yards, cap_a, cap_f = _producing(state, n)
    return max(0, min(arms, cap_a, need_a)) + max(0, min(yards, cap_f, need_f))


def _producing(state, n: int) -> tuple[int, int, int, int]:
    b = state.board
    arms = yards = 0
    for r in b.homes[n]:
        if state.factory[r] and not state.occ[r]:
            if b.factory_slot[r] == ARMAMENTS:
                arms += 1
            else:
                yards += 1
    lim_a, lim_f = state.game.unit_limits[n]
    return arms, yards, lim_a - state.n_armies[n], lim_f - state.n_fleets[n]


def _maneuver_yield(state, t: _Tables, n: int, gain: list[float]) -> float:
    """Gains in one move's reach of nation n's units: the best as many as there are such units."""
    R = t.R
    base = n * R
    found: dict[int, float] = {}
    units = 0
    for reach, counts in ((t.army_reach[n], state.armies[base:base + R]), (t.fleet_reach, state.fleets[base:base + R])):
        for r in compress(range(R), counts):
            hit = False
            for q in reach[r]:
                if gain[q] > 0:
                    found[q] = gain[q]
                    hit = True
            if hit:
                units += counts[r]
    return sum(sorted(found.values(), reverse=True)[:units])


_DECIDERS = {  # per pending decision (the deal, P_DEAL, is chance: never a bot's)
    P_VARIANT: HeuristicBot.invest,
    P_TURN: HeuristicBot.turn_start,
    P_VETO: HeuristicBot.veto,
    P_FACTORY: HeuristicBot.factory,
    P_PRODUCE: HeuristicBot.produce,
    P_IMPORT: HeuristicBot.import_units,
    P_MANEUVER: HeuristicBot.maneuver,
    P_CANAL: HeuristicBot.canal,
    P_FIGHT: HeuristicBot.fight,
    P_DEMAND: HeuristicBot.demand,
    P_FLAG: HeuristicBot.flag,
    P_INVEST: HeuristicBot.invest,
}
