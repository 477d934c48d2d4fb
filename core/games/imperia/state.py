"""The state of a game of Imperia: flat lists of ints and tuples, cheap to clone.

Fields (one entry per seat where it is a list of n):

* ``phase`` (``PHASES``), ``current`` (the seat that decides, or draws at a chance node), ``step``
  (index into the board or fortress order), ``start`` (the start seat, -1 until drawn), ``ply``;
* ``terrain`` (64 letters F/M/V, C for the castle, '.' where no board lies yet), ``boards``
  (placed sides: (board, side, quadrant, rotation)), ``blocked`` (bit mask: covered or fortress);
* ``stacks`` (64 tuples of tile ids, bottom→top), ``facing`` (per tile id, -1 none);
* ``fortress``, ``cube``, ``warlord`` (a space or -1), ``status`` (0 playing, 1 warlord placed,
  2 retired), ``hand`` and ``pile`` (counts by tile type, board.NTYPES of them, zero for the types
  the game's options leave out: the pile is a multiset, its order does
  not exist until a draw, which is a chance node — the same law as a shuffled pile, §7.3),
  ``general`` (the space of a general waiting to give its order, -1), and the counters
  ``campaigns``, ``redraws``, ``battles`` (analytics, §10).

Events (``imperial_lab.core.engine.Event``) are built only while ``recording`` is true; their kinds:
start_seat, board_placed, fortress_placed, drawn, redraw, placed (how: continue|stack|battle|campaign),
order, warlord, retired, game_ended. The legal-action cache, the checked and unchecked apply and
``clone`` are the shared ``imperial_lab.core.engine.BaseState``'s. The rules of play are in
``rules.py``, the score in ``scoring.py``, the position document in ``position.py``.
"""

from __future__ import annotations

from collections.abc import Callable

from imperial_lab.core.engine import BaseState
from imperial_lab.core.errors import IllegalActionError
from imperial_lab.core.interface import CHANCE, TERMINAL, seat_name
from imperial_lab.core.jsonio import clip
from imperial_lab.core.games.imperia import position, rules
from imperial_lab.core.games.imperia.actions import (BOARD, CHANCE_TYPES, DRAW, FORTRESS, MOBILISE, PLACE, RANDOM_BOARD, RETIRE,
                                        START, SWAP_ENEMY, SWAP_OWN, WARLORD, action_text, parse_action)
from imperial_lab.core.games.imperia.board import (FORTRESS_ZONE_MASK, GENERAL, GENERAL_TYPES, HAND_SIZE, NTYPES,
                                                   RANDOM_QUADRANT, SPACES, TARGET, TYPE_KIND, WARLORD_INDEX, cheb, space_name, terrain_of)
from imperial_lab.core.games.imperia.pending import (CHANCE_PHASES, P_BOARD, P_DRAW, P_FORTRESS, P_ORDER, P_OVER,
                                                     P_RANDOM_BOARD, P_RECRUIT, P_START, P_TURN, PHASES)
from imperial_lab.core.games.imperia.scoring import tallies, winners_of



class State(BaseState):
    """One position of a game of Imperia. Use ``Imperia.new_initial_state`` to make one."""

    # ``cache`` (rules.py's memo of one position) is shared by a copy and replaced by every action
    SHARED = ("n", "phase", "current", "step", "start", "ply", "terrain", "boards", "blocked", "general", "cache")
    LISTS = ("stacks", "facing", "fortress", "cube", "warlord", "status", "hand", "pile", "campaigns", "redraws",
             "battles")
    __slots__ = SHARED + LISTS

    def __init__(self, game):
        super().__init__(game)
        n = game.num_players
        self.n = n
        self.phase, self.current, self.step, self.start, self.ply = P_START, -1, 0, -1, 0
        self.terrain = "." * SPACES
        self.boards = ()
        self.blocked = game.covered
        self.general = -1
        self.cache = {}
        self.stacks = [()] * SPACES
        self.facing = [-1] * (16 * n)
        self.fortress, self.cube, self.warlord = [-1] * n, [-1] * n, [-1] * n
        self.status = [0] * n
        self.hand = [(0,) * NTYPES] * n
        self.pile = [game.tiles.total] * n
        self.campaigns, self.redraws, self.battles = [0] * n, [0] * n, [0] * n

    def begin(self) -> None:
        """Set up from the game's config: the start seat if fixed, then the boards (§3)."""
        if self.game.start_seat is not None:
            self._set_start(self.game.start_seat)

    # ----- the game-agnostic interface -----

    def current_player(self) -> int:
        if self.phase == P_OVER:
            return TERMINAL
        return CHANCE if self.phase in CHANCE_PHASES else self.current

    def is_terminal(self) -> bool:
        return self.phase == P_OVER

    def is_chance_node(self) -> bool:
        return self.phase in CHANCE_PHASES

    def _legal_actions(self) -> list:
        return _GENERATORS[self.phase](self)

    def chance_outcomes(self) -> list[tuple[tuple, float]]:
        """(action, probability) at a chance node (§7.3): start seat and 3-player board uniform,
        a draw by the number of tiles of each type left in the pile."""
        if not self.is_chance_node():
            raise IllegalActionError("§7.3", "chance outcomes asked for at a state that is not a chance node")
        if self.phase in (P_RECRUIT, P_DRAW):
            pile = self.pile[self.current]
            total = sum(pile)
            return [(a, pile[a[2]] / total) for a in self.legal_actions()]
        acts = self.legal_actions()
        return [(a, 1.0 / len(acts)) for a in acts]

    def _apply_action(self, action) -> None:
        self.cache = {}
        self.ply += 1
        _APPLIERS[action[0]](self, action)

    def action_to_string(self, action) -> str:
        return action_text(action)

    def string_to_action(self, text: str):
        return parse_action(text)

    def returns(self) -> list[float]:
        """Each player's total (§9): final at the end, provisional (the board as it stands) before."""
        return [float(t.total) for t in tallies(self)]

    def winners(self) -> list[int]:
        return winners_of(tallies(self))

    def to_json(self) -> dict:
        return position.state_to_document(self)

    def observation(self, player: int | None) -> dict:
        """What ``player`` may see (§7.2): the public position and its own hand; other hands and
        every pile only as sizes and the public multiset hand ∪ pile. ``None``: an observer."""
        return position.observation(self, player)

    def decision_name(self) -> str:
        return PHASES[self.phase]

    # ----- legality -----

    def explain_illegal(self, action) -> tuple[str, str]:
        """Why ``action`` is not legal now: (RULES.md section, message)."""
        try:
            text = action_text(action)
        except (ValueError, IndexError, TypeError, KeyError):
            return "§7.1", f"{clip(action)} is not an Imperia action"
        if self.phase == P_OVER:
            return "§8", f"{text!r}: the game is over"
        who = "chance" if self.is_chance_node() else seat_name(self.current)
        rule, why = _explain(self, action)
        return rule, f"illegal action {text!r}: {why} (pending: {PHASES[self.phase]} by {who})"

    # ----- setup (§3) -----

    def _set_start(self, seat: int) -> None:
        self.start = seat
        self.emit("start_seat", "§3.1", seat=seat)
        if self.game.terrain_override is not None:
            self.terrain = self.game.terrain_override
            self._begin_fortresses()
        else:
            self.step = 0
            self._next_board()

    def rel(self, k: int) -> int:
        """The seat k places after the start seat (orders of §3 are relative to it)."""
        return (self.start + k) % self.n

    def _next_board(self) -> None:
        if self.step == 4:
            self._begin_fortresses()
            return
        placer = self.game.setup.board_placers[self.step]
        if placer < 0:
            self.phase, self.current = P_RANDOM_BOARD, -1
        else:
            self.phase, self.current = P_BOARD, self.rel(placer)

    def _put_board(self, board: int, side: int, quadrant: int, rotation: int) -> None:
        self.boards += ((board, side, quadrant, rotation),)
        self.terrain = terrain_of(self.game.sides, self.boards)
        self.emit("board_placed", "§3.2", board=board + 1, side="AB"[side], quadrant=quadrant, rotation=rotation * 90)
        self.step += 1
        self._next_board()

    def _begin_fortresses(self) -> None:
        self.phase, self.step = P_FORTRESS, 0
        self.current = self.rel(self.game.setup.fortress_order[0])

    def fortress_sites(self) -> list[int]:
        """Legal fortress spaces (§3.3): the zone, not covered nor forbidden, far enough away."""
        free = FORTRESS_ZONE_MASK & ~self.game.covered & ~self.game.setup.forbidden
        placed = [f for f in self.fortress if f >= 0]
        dist = self.game.fortress_min_distance
        return [s for s in range(SPACES) if (free >> s) & 1 and all(cheb(s, f) >= dist for f in placed)]

    def _begin_recruiting(self) -> None:
        self.phase, self.step, self.current = P_RECRUIT, 0, self.rel(0)


# ----- legal actions per phase -----

def _legal_start(st: State) -> list:
    return [(START, s) for s in range(st.n)]


def _legal_random_board(st: State) -> list:
    return [(RANDOM_BOARD, b, side, r) for b in range(4) for side in range(2) for r in range(4)]


def _legal_board(st: State) -> list:
    used = {b for b, _, _, _ in st.boards}
    free = [q for q in range(4) if q not in {q for _, _, q, _ in st.boards}]
    return [(BOARD, b, side, q, r) for b in range(4) if b not in used for side in range(2) for q in free
            for r in range(4)]


def _legal_fortress(st: State) -> list:
    return [(FORTRESS, s) for s in st.fortress_sites()]


def _legal_draw(st: State) -> list:
    pile = st.pile[st.current]
    return [(DRAW, st.current, t) for t in st.game.tiles.types if pile[t]]


def _legal_turn(st: State) -> list:
    return rules.legal_turn(st, st.current)


def _legal_order(st: State) -> list:
    return rules.legal_orders(st, st.current, st.general)


_GENERATORS: tuple[Callable[[State], list], ...] = (_legal_start, _legal_random_board, _legal_board, _legal_fortress, _legal_draw, _legal_turn,
               _legal_order, _legal_draw, lambda st: [])


# ----- applying -----

def _apply_start(st: State, a: tuple) -> None:
    st._set_start(a[1])


def _apply_random_board(st: State, a: tuple) -> None:
    st._put_board(a[1], a[2], RANDOM_QUADRANT, a[3])


def _apply_board(st: State, a: tuple) -> None:
    st._put_board(a[1], a[2], a[3], a[4])


def _apply_fortress(st: State, a: tuple) -> None:
    p, s = st.current, a[1]
    st.fortress[p] = s
    st.blocked |= 1 << s
    st.emit("fortress_placed", "§3.3", seat=p, space=space_name(s))
    st.step += 1
    order = st.game.setup.fortress_order
    if st.step == len(order):
        st._begin_recruiting()
    else:
        st.current = st.rel(order[st.step])


def _apply_draw(st: State, a: tuple) -> None:
    p, t = a[1], a[2]
    pile, hand = list(st.pile[p]), list(st.hand[p])
    pile[t] -= 1
    hand[t] += 1
    st.emit("drawn", "§3.4" if st.phase == P_RECRUIT else "§6.5", seat=p, tile=t)
    if st.phase == P_DRAW:
        st.pile[p], st.hand[p] = tuple(pile), tuple(hand)
        _next_turn(st, p)
        return
    if sum(hand) == HAND_SIZE and sum(hand[g] for g in GENERAL_TYPES) == HAND_SIZE:  # three generals (§3.4)
        pile = [x + y for x, y in zip(pile, hand)]
        hand = [0] * NTYPES
        st.redraws[p] += 1
        st.emit("redraw", "§3.4", seat=p)
    st.pile[p], st.hand[p] = tuple(pile), tuple(hand)
    if sum(hand) == HAND_SIZE:
        st.step += 1
        if st.step == st.n:
            st.phase, st.current = P_TURN, st.rel(0)
        else:
            st.current = st.rel(st.step)


def _cover(st: State, p: int, tile: int, s: int) -> str:
    """Put ``tile`` on top of s; return how (§6.3): onto an empty space, an own stack, or a battle."""
    stack = st.stacks[s]
    how = "empty" if not stack else "stack" if stack[-1] >> 4 == p else "battle"
    if how == "battle":
        st.battles[p] += 1
    st.stacks[s] = stack + (tile,)
    return how


def _apply_place(st: State, a: tuple) -> None:
    _, t, s, f = a
    p = st.current
    hand = list(st.hand[p])
    tiles = st.game.tiles
    tile = 16 * p + tiles.type_ids[t][tiles.total[t] - hand[t] - st.pile[p][t]]  # the next unplaced one
    n = rules.next_space(st, p)
    hand[t] -= 1
    st.hand[p] = tuple(hand)
    how = _cover(st, p, tile, s)
    if s != n:
        st.campaigns[p] += 1
    st.facing[tile] = f
    st.cube[p] = s
    st.emit("placed", "§6.5", seat=p, tile=tile, space=space_name(s), how=how, campaign=s != n)
    if TYPE_KIND[t] == GENERAL:
        orders = rules.legal_orders(st, p, s)
        if orders:
            st.phase, st.general = P_ORDER, s
            st._legal = orders
            return
    _after_placement(st, p)


def _after_placement(st: State, p: int) -> None:
    if sum(st.pile[p]):
        st.phase = P_DRAW
    else:
        _next_turn(st, p)


def _next_turn(st: State, p: int) -> None:
    for k in range(1, st.n + 1):
        q = (p + k) % st.n
        if st.status[q] == 0:
            st.phase, st.current = P_TURN, q
            return
    st.phase, st.current = P_OVER, -1
    if st.recording:
        tally = tallies(st)
        st.emit("game_ended", "§9", totals=[t.total for t in tally], winners=winners_of(tally))


def _apply_warlord(st: State, a: tuple) -> None:
    p, s = st.current, a[1]
    how = _cover(st, p, 16 * p + WARLORD_INDEX, s)
    st.cube[p] = st.warlord[p] = s
    st.status[p] = 1
    st.emit("warlord", "§6.7", seat=p, space=space_name(s), how=how, height=len(st.stacks[s]))
    _next_turn(st, p)


def _apply_retire(st: State, a: tuple) -> None:
    st.status[st.current] = 2
    st.emit("retired", "G21", seat=st.current)
    _next_turn(st, st.current)


def _apply_mobilise(st: State, a: tuple) -> None:
    p, src, f = st.current, a[1], a[2]
    d = st.facing[st.stacks[st.general][-1]]
    dst = TARGET[1][src][d]
    st.stacks[dst] = st.stacks[dst] + st.stacks[src]
    st.stacks[src] = ()
    st.facing[st.stacks[dst][-1]] = f
    st.cube[p] = dst
    st.emit("order", "§6.6", seat=p, order="mobilise", **{"from": space_name(src), "to": space_name(dst)})
    _end_order(st, p)


def _exchange(st: State, a: int, b: int) -> None:
    sa, sb = st.stacks[a], st.stacks[b]
    st.stacks[a], st.stacks[b] = sa[:-1] + sb[-1:], sb[:-1] + sa[-1:]


def _apply_swap_own(st: State, a: tuple) -> None:
    p, x, y, c, f = st.current, a[1], a[2], a[3], a[4]
    _exchange(st, x, y)
    st.facing[st.stacks[c][-1]] = f
    st.cube[p] = c
    st.emit("order", "§6.6", seat=p, order="swap_own", a=space_name(x), b=space_name(y), cube=space_name(c))
    _end_order(st, p)


def _apply_swap_enemy(st: State, a: tuple) -> None:
    p, x, y, f = st.current, a[1], a[2], a[3]
    victim = st.stacks[y][-1]
    _exchange(st, x, y)
    st.facing[st.stacks[y][-1]] = f
    st.cube[p] = y
    st.emit("order", "§6.6", seat=p, order="swap_enemy", a=space_name(x), b=space_name(y), victim=victim)
    _end_order(st, p)


def _end_order(st: State, p: int) -> None:
    st.general = -1
    _after_placement(st, p)


_APPLIER_OF = {START: _apply_start, RANDOM_BOARD: _apply_random_board, BOARD: _apply_board,
               FORTRESS: _apply_fortress, DRAW: _apply_draw, PLACE: _apply_place, WARLORD: _apply_warlord,
               MOBILISE: _apply_mobilise, SWAP_OWN: _apply_swap_own, SWAP_ENEMY: _apply_swap_enemy,
               RETIRE: _apply_retire}
_APPLIERS = tuple(_APPLIER_OF[k] for k in range(len(_APPLIER_OF)))


# ----- explanations -----

_PHASE_RULES = {P_START: "§3.1", P_RANDOM_BOARD: "§3.2", P_BOARD: "§3.2", P_FORTRESS: "§3.3", P_RECRUIT: "§3.4",
                P_TURN: "§6.4", P_ORDER: "§6.6", P_DRAW: "§6.5"}
_EXPECTED = {P_START: "the start seat (chance)", P_RANDOM_BOARD: "the 3-player board (chance)",
             P_BOARD: "a board placement", P_FORTRESS: "a fortress placement", P_RECRUIT: "a draw (chance)",
             P_TURN: "a placement of a unit or the warlord", P_ORDER: "the general's order", P_DRAW: "a draw (chance)"}
_PHASE_OF = {START: P_START, RANDOM_BOARD: P_RANDOM_BOARD, BOARD: P_BOARD, FORTRESS: P_FORTRESS, DRAW: P_DRAW,
             PLACE: P_TURN, WARLORD: P_TURN, RETIRE: P_TURN, MOBILISE: P_ORDER, SWAP_OWN: P_ORDER,
             SWAP_ENEMY: P_ORDER}


def _explain(st: State, a: tuple) -> tuple[str, str]:
    rule = _PHASE_RULES[st.phase]
    kind = _PHASE_OF.get(a[0])
    if kind != st.phase and not (kind == P_DRAW and st.phase == P_RECRUIT):
        return rule, f"the decision here is {_EXPECTED[st.phase]}"
    if a[0] in CHANCE_TYPES:
        return "§7.3", "not a possible chance outcome here"
    if st.phase == P_FORTRESS:
        return "§3.3", "not a fortress site (zone, covered, forbidden A/B spaces, distance to other fortresses)"
    if st.phase == P_TURN:
        return _explain_turn(st, a)
    if st.phase == P_ORDER:
        return "§6.6", ("not an order this general may give (its type, G18; own top soldiers; never onto an enemy; "
                        "rank, level, protection)")
    return rule, "not one of the legal choices"


def _explain_turn(st: State, a: tuple) -> tuple[str, str]:
    p = st.current
    n = rules.next_space(st, p)
    if a[0] == PLACE and not (0 <= a[1] < NTYPES and st.hand[p][a[1]]):
        return "§6.4", "no such tile in the hand"
    s = a[2] if a[0] == PLACE else a[1] if a[0] == WARLORD else -1
    if a[0] == PLACE and sum(st.hand[p]) and rules.valid(st, n) and not st.stacks[n] and s != n:
        return "§6.4", f"the next space {space_name(n)} is empty and playable: the campaign must continue there"
    if s >= 0 and not rules.valid(st, s):
        return "§6.1", "covered or fortress spaces take no tile"
    if s >= 0 and st.stacks[s] and st.stacks[s][-1] >> 4 != p:
        return "§6.3", "the unit there may not be covered (rank, warlord, cube or formation protection)"
    if a[0] == WARLORD:
        return "§6.7", "the warlord goes only to the next space or, when stuck or last, onto the front"
    return "§6.4", "neither the next space nor a free exit of the fortress"
