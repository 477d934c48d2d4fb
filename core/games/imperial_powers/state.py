"""The state of a game of Imperial Powers: flat lists of ints and tuples, cheap to clone.

Fields (lists have one entry per seat, per region, or per seat × region):

* ``phase`` (``PHASES``), ``current`` (the seat that decides, or that a chance node is for: the
  roller, the seat dealt to, the seat a d6 is for), ``turn`` (1..turns), ``instigator``,
  ``first_instigator`` (-1 until the setup rolls are done), ``ply``;
* ``powers`` (per seat, -1 until chosen), ``gains`` (``gains[p * 4 + s]``: the VP of seat p from
  source s = start, places, spain, exploitation; a seat's VP is their sum);
* ``resources``, ``power_counters`` (per region), ``influence`` (``influence[x * n + p]`` = I[X][p]);
* ``deck``, ``discard`` (influence card instances, sorted tuples), ``hand`` (per seat, sorted: the
  canonical bidding order), ``strip`` (``strip[p * 10 + x]``: the cards under p's slot x),
  ``revealed`` (the strips as the last Reveal showed them, laid out like ``strip``: public from
  the Reveal until the next Bid, §5.5; empty otherwise);
* ``dev_deck``, ``dev_discard`` (face up), ``dev_face_down`` (the Dutch discards, R9), ``dev_hand``;
* setup: ``rollers`` (the seats rolling this round), ``rolls`` (their rolls so far),
  ``roll_rounds`` (every finished round: ((seat, roll), ...));
* draw: ``deal`` (this turn's draws in order, (seat, INFLUENCE | DEVELOPMENT)) and ``dealt``;
* tactics: ``moves_left`` (decisions left to the seat deciding), ``moved`` (its cards moved),
  ``tactics_log`` (((seat, from, to), ...), only under ``tactics_visibility: regions_public``);
* events: ``events_left`` (not yet drawn this turn), ``event_rows`` (((event, region, drawer,
  dice), ...) in draw order), ``pending_event`` (drawn, not yet assigned; -1), ``resolved`` (rows
  resolved), ``dice_for`` (the seats still to roll for the event being resolved).

Modelling of chance (RULES.md §6.3; every outcome is an action, so a move log replays exactly):
a deck is an unordered multiset and each card dealt is one chance node whose outcome is the card,
which has the law of dealing from a shuffled deck without a node of 50! outcomes. Influence
outcomes are grouped by card (the copies of a card are alike): the outcome is the lowest copy left,
with probability copies left / cards left, so a deal has at most 25 outcomes. A reshuffle (R8)
just turns the discard pile into the deck. The event deck is drawn the same way (10 - k outcomes
at draw k). Each d10 and d6 is a node of its own.

Modelling of the secret bid (§5.2, R10) and Tactics (§5.4, R12): sequential decisions, one card
at a time in the canonical order (10 options each), and a fixed number of Tactics decisions per
seat (France two, others one; each is a move or a pass), so neither the order of the decisions nor
their number says anything about what was chosen. Only ``observation`` decides what a seat sees.

Rulings where the specification is silent (also in the report of the plug-in):

* the setup rolls go in seat order 0..n-1 (no instigator exists yet), rerolls in seat order;
  under ``fixed`` power assignment the rolls still choose the first instigator; under ``random``
  each seat from the instigator draws uniformly among the powers left (a uniform assignment);
* a seat's whole allotment is dealt influence cards first, then development cards (§5.1's loop);
  a development reshuffle takes the face-down Dutch discards too; a seat without cards (only if
  both piles ran dry) skips the Bid or Develop, but still has its Tactics decisions;
* the canonical bidding order is value, then card id, copy #1 first (data.py);
* a France move slot used for a pass may still be followed by a move (the slots are what is fixed);
  under ``tactics_visibility: regions_public`` a move's two regions are public, never the card;
* under ``event_resolution: after_all_assigned`` the ten events are resolved in draw order once all
  are assigned, their dice rolled when each is resolved;
* the End Phase of the last turn passes the instigator token as every End Phase does (R19).

Events (``imperial_lab.core.engine.Event``) are built only while ``recording`` is true; their kinds:
setup_roll, instigator, power, starting_vp, dealt, reshuffled, draw_lost, assigned, developed,
moved, passed, revealed, scored, event_drawn, event_assigned, event_resolving (influence before),
die, event_resolved (influence after), turn_ended, game_ended. The legal-action cache, the checked
and unchecked apply and ``clone`` are the shared ``imperial_lab.core.engine.BaseState``'s. The map
rules are in ``rules.py``, the final result in ``scoring.py``, the documents and observations in
``position.py``.
"""

from __future__ import annotations

from bisect import insort

from imperial_lab.core.engine import BaseState
from imperial_lab.core.errors import IllegalActionError
from imperial_lab.core.interface import CHANCE, TERMINAL, seat_name
from imperial_lab.core.jsonio import clip
from imperial_lab.core.games.imperial_powers import position, rules, scoring
from imperial_lab.core.games.imperial_powers.actions import (ASSIGN, ASSIGN_ACTIONS, CHANCE_TYPES, DEAL_DEVELOPMENT,
                                                DEAL_DEVELOPMENT_ACTIONS, DEAL_INFLUENCE, DEAL_INFLUENCE_ACTIONS,
                                                DIE, DIE_ACTIONS, EVENT, EVENT_ACTIONS, MOVE, MOVE_ACTIONS,
                                                PASS, PASS_ACTION, PLAY, PLAY_ACTIONS, POWER, POWER_ACTIONS, ROLL,
                                                ROLL_ACTIONS, TARGET, TARGET_ACTIONS, action_text, parse_action)
from imperial_lab.core.games.imperial_powers.data import data
from imperial_lab.core.games.imperial_powers.pending import (DEVELOPMENT, INFLUENCE, P_BID, P_DEVELOP, P_DRAW,
                                                             P_EVENT_ASSIGN, P_EVENT_DIE, P_EVENT_DRAW, P_OVER,
                                                             P_POWER, P_ROLL, P_TACTICS, PHASES)

D = data()
REGIONS = len(D.regions)
EVENTS = len(D.events)
VALUE, KIND = D.card_values, D.card_kind
ROLL_OUTCOMES = tuple([(a, 1 / 10) for a in acts] for acts in ROLL_ACTIONS)
DIE_OUTCOMES = tuple([(a, 1 / 6) for a in acts] for acts in DIE_ACTIONS)


class State(BaseState):
    """One position of a game of Imperial Powers. Use ``ImperialPowers.new_initial_state``."""

    SHARED = ("n", "phase", "current", "turn", "instigator", "first_instigator", "ply", "revealed", "deck", "discard",
              "dev_deck", "dev_discard", "dev_face_down", "rollers", "rolls", "roll_rounds", "deal", "dealt",
              "moves_left", "moved", "tactics_log", "events_left", "event_rows", "pending_event", "resolved",
              "dice_for", "_outcomes")
    LISTS = ("powers", "gains", "resources", "power_counters", "influence", "hand", "strip", "dev_hand")
    __slots__ = SHARED + LISTS

    def __init__(self, game):
        super().__init__(game)
        n = game.num_players
        self.n = n
        # the setup (§2): every seat rolls a d10, seat 0 first
        self.phase, self.current, self.turn, self.instigator, self.first_instigator = P_ROLL, 0, 1, -1, -1
        self.ply = 0
        self.powers = [-1] * n
        self.gains = [0] * (4 * n)
        self.resources = [D.initial_resource] * REGIONS  # §2 step 1, R4
        self.power_counters = [D.initial_power] * REGIONS
        self.influence = [0] * (REGIONS * n)
        self.deck, self.discard = tuple(range(len(D.card_names))), ()
        self.hand = [()] * n
        self.strip = [()] * (n * REGIONS)
        self.revealed = ()
        self.dev_deck, self.dev_discard, self.dev_face_down = tuple(range(len(D.dev_ids))), (), ()
        self.dev_hand = [()] * n
        self.rollers, self.rolls, self.roll_rounds = tuple(range(n)), (), ()
        self.deal, self.dealt = (), 0
        self.moves_left, self.moved, self.tactics_log = 0, (), ()
        self.events_left, self.event_rows, self.pending_event, self.resolved, self.dice_for = (), (), -1, 0, ()
        self._outcomes = None  # the chance outcomes, cached as the legal actions are

    # ----- the game-agnostic interface -----

    def current_player(self) -> int:
        if self.phase in self.game.chance_phases:
            return CHANCE
        return TERMINAL if self.phase == P_OVER else self.current

    def is_terminal(self) -> bool:
        return self.phase == P_OVER

    def is_chance_node(self) -> bool:
        return self.phase in self.game.chance_phases

    def _legal_actions(self) -> list:
        if self.is_chance_node():
            return [a for a, _ in self.chance_outcomes()]
        return _GENERATORS[self.phase](self)

    def chance_outcomes(self) -> list[tuple[tuple, float]]:
        """(action, probability) at a chance node (§6.3): a die uniform, a deal by the copies left
        of each card, an event or a random power uniform over those left."""
        if self._outcomes is None:
            if self.phase not in self.game.chance_phases:
                raise IllegalActionError("§6.3", "chance outcomes asked for at a state that is not a chance node")
            self._outcomes = _OUTCOMES[self.phase](self)
        return self._outcomes

    def _apply_action(self, action) -> None:
        self._outcomes = None
        self.ply += 1
        _APPLIERS[action[0]](self, action)

    def action_to_string(self, action) -> str:
        return action_text(action)

    def string_to_action(self, text: str):
        return parse_action(text)

    def returns(self) -> list[float]:
        """Each seat's VP (§7): final at the end, the VP so far before."""
        return [float(vp) for vp in rules.vp_totals(self)]

    def winners(self) -> list[int]:
        """Most VP, then most regions led, else a shared win (§7, R20); on the map as it stands."""
        return scoring.winners(self)

    def to_json(self) -> dict:
        return position.state_to_document(self)

    def observation(self, player: int | None) -> dict:
        """What ``player`` may see (§6.2): the public position and its own cards; other hands and
        strips only as sizes, no deck's contents. ``None``: an observer who sees only the public."""
        return position.observation(self, player)

    def decision_name(self) -> str:
        return PHASES[self.phase]

    def seat_after_instigator(self, k: int) -> int:
        """The seat k places clockwise from the instigator (every order of a phase, R6)."""
        return (self.instigator + k) % self.n

    def strip_region(self, p: int, c: int) -> int:
        """The slot of p's strip that holds card c, or -1."""
        base = p * REGIONS
        for x in range(REGIONS):
            if c in self.strip[base + x]:
                return x
        return -1

    # ----- legality -----

    def explain_illegal(self, action) -> tuple[str, str]:
        """Why ``action`` is not legal now: (RULES.md section, message)."""
        try:
            text = action_text(action)
        except ValueError:
            return "§6.1", f"{clip(action)} is not an Imperial Powers action"
        if self.phase == P_OVER:
            return "§5.8", f"{text!r}: the game is over"
        who = "chance" if self.is_chance_node() else seat_name(self.current)
        rule, why = _explain(self, action)
        return rule, f"illegal action {text!r}: {why} (pending: {PHASES[self.phase]} by {who})"


# ----- setup (§2) -----

def _apply_roll(st: State, a: tuple) -> None:
    st.rolls += (a[2],)
    st.emit("setup_roll", "§2", seat=a[1], roll=a[2])
    if len(st.rolls) < len(st.rollers):
        st.current = st.rollers[len(st.rolls)]
        return
    done = tuple(zip(st.rollers, st.rolls))
    st.roll_rounds += (done,)
    best = max(st.rolls)
    top = tuple(p for p, v in done if v == best)
    st.rolls = ()
    if len(top) > 1:  # only the tied highest roll again (R2)
        st.rollers, st.current = top, top[0]
        return
    st.rollers = ()
    st.instigator = st.first_instigator = top[0]
    st.emit("instigator", "§2", seat=top[0])
    if st.game.fixed_powers is not None:
        st.powers[:] = st.game.fixed_powers
        _finish_setup(st)
    else:
        st.phase, st.current = P_POWER, top[0]


def _apply_power(st: State, a: tuple) -> None:
    st.powers[st.current] = a[1]
    st.emit("power", "§2", seat=st.current, power=D.powers[a[1]])
    chosen = st.n - st.powers.count(-1)
    if chosen == st.n:
        _finish_setup(st)
    else:
        st.current = st.seat_after_instigator(chosen)


def _finish_setup(st: State) -> None:
    for p in range(st.n):
        vp = D.starting_vp[st.powers[p]]
        if vp:
            st.gains[p * 4 + rules.START] += vp  # R22
            st.emit("starting_vp", "§2", seat=p, vp=vp)
    _begin_turn(st)


# ----- draw (§5.1) -----

def _begin_turn(st: State) -> None:
    st.deal, st.dealt = rules.deal_of(st), 0
    _next_deal(st)


def _next_deal(st: State) -> None:
    """Go to the next draw that a deck can serve (reshuffling an empty one, R8), else the Bid."""
    while st.dealt < len(st.deal):
        p, which = st.deal[st.dealt]
        if which == INFLUENCE:
            if not st.deck and st.discard:
                st.deck, st.discard = st.discard, ()
                st.emit("reshuffled", "R8", deck="influence", cards=len(st.deck))
            ready = bool(st.deck)
        else:
            if not st.dev_deck and (st.dev_discard or st.dev_face_down):
                st.dev_deck = tuple(sorted(st.dev_discard + st.dev_face_down))
                st.dev_discard = st.dev_face_down = ()
                st.emit("reshuffled", "R8", deck="development", cards=len(st.dev_deck))
            ready = bool(st.dev_deck)
        if ready:
            st.phase, st.current = P_DRAW, p
            return
        st.emit("draw_lost", "R8", seat=p, deck="influence" if which == INFLUENCE else "development")
        st.dealt += 1
    _begin_bid(st)


def _outcomes_draw(st: State) -> list:
    p, which = st.deal[st.dealt]
    if which == DEVELOPMENT:
        acts, w = DEAL_DEVELOPMENT_ACTIONS[p], 1 / len(st.dev_deck)
        return [(acts[d], w) for d in st.dev_deck]
    firsts: list[int] = []
    copies: list[int] = []
    last = -1
    for c in st.deck:  # sorted: the copies of a card are next to each other
        k = KIND[c]
        if k == last:
            copies[-1] += 1
        else:
            firsts.append(c)
            copies.append(1)
            last = k
    acts, w = DEAL_INFLUENCE_ACTIONS[p], 1 / len(st.deck)
    return [(acts[c], m * w) for c, m in zip(firsts, copies)]


def _apply_deal_influence(st: State, a: tuple) -> None:
    p, c = a[1], a[2]
    i = st.deck.index(c)
    st.deck = st.deck[:i] + st.deck[i + 1:]
    hand = list(st.hand[p])
    insort(hand, c)
    st.hand[p] = tuple(hand)
    if st.recording:  # the hot path: the event's data is built only when recorded
        st.emit("dealt", "§5.1", seat=p, card=D.card_names[c])
    st.dealt += 1
    _next_deal(st)


def _apply_deal_development(st: State, a: tuple) -> None:
    p, d = a[1], a[2]
    i = st.dev_deck.index(d)
    st.dev_deck = st.dev_deck[:i] + st.dev_deck[i + 1:]
    hand = list(st.dev_hand[p])
    insort(hand, d)
    st.dev_hand[p] = tuple(hand)
    st.emit("dealt", "§5.1", seat=p, card=D.dev_ids[d])
    st.dealt += 1
    _next_deal(st)


# ----- bid (§5.2) -----

def _begin_bid(st: State) -> None:
    st.phase, st.revealed = P_BID, ()
    _next_bidder(st, 0)


def _next_bidder(st: State, k: int) -> None:
    """The k-th seat from the instigator bids, or the next one holding cards; then Develop."""
    for j in range(k, st.n):
        p = st.seat_after_instigator(j)
        if st.hand[p]:
            st.current = p
            return
    _begin_develop(st)


def _legal_bid(st: State) -> list:
    return ASSIGN_ACTIONS[st.hand[st.current][0]]


def _apply_assign(st: State, a: tuple) -> None:
    p, c, x = st.current, a[1], a[2]
    st.hand[p] = st.hand[p][1:]
    st.strip[p * REGIONS + x] += (c,)  # cards come in increasing order: the slot stays sorted
    if st.recording:
        st.emit("assigned", "§5.2", seat=p, card=D.card_names[c], region=D.regions[x])
    if not st.hand[p]:
        _next_bidder(st, (p - st.instigator) % st.n + 1)


# ----- develop (§5.3) -----

def _begin_develop(st: State) -> None:
    st.phase = P_DEVELOP
    _next_developer(st, 0)


def _next_developer(st: State, k: int) -> None:
    for j in range(k, st.n):
        p = st.seat_after_instigator(j)
        if st.dev_hand[p]:
            st.current = p
            return
    _begin_tactics(st)


def _legal_develop(st: State) -> list:
    return [PLAY_ACTIONS[d] for d in st.dev_hand[st.current]]


def _apply_play(st: State, a: tuple) -> None:
    p, d = st.current, a[1]
    x = D.dev_region[d]
    st.resources[x] += D.dev_resource[d]
    st.power_counters[x] += D.dev_power[d]
    rest = tuple(c for c in st.dev_hand[p] if c != d)
    st.dev_hand[p] = ()
    if D.development_hidden[st.powers[p]]:  # R9: the played card is shown, the rest go face down
        st.dev_discard = tuple(sorted(st.dev_discard + (d,)))
        st.dev_face_down = tuple(sorted(st.dev_face_down + rest))
    else:
        st.dev_discard = tuple(sorted(st.dev_discard + (d,) + rest))
    st.emit("developed", "§5.3", seat=p, card=D.dev_ids[d], region=D.regions[x],
            resource=st.resources[x], power=st.power_counters[x])
    _next_developer(st, (p - st.instigator) % st.n + 1)


# ----- tactics (§5.4, R12) -----

def _begin_tactics(st: State) -> None:
    st.phase, st.tactics_log = P_TACTICS, ()
    _start_tactics_of(st, st.instigator)


def _start_tactics_of(st: State, p: int) -> None:
    st.current, st.moved, st.moves_left = p, (), D.tactics_moves[st.powers[p]]


def _legal_tactics(st: State) -> list:
    p, moved, strip = st.current, st.moved, st.strip
    out = [PASS_ACTION]
    for x in range(REGIONS):
        for c in strip[p * REGIONS + x]:
            if c not in moved:
                acts = MOVE_ACTIONS[c]
                out += acts[:x]
                out += acts[x + 1:]
    return out


def _apply_move(st: State, a: tuple) -> None:
    p, c, y = st.current, a[1], a[2]
    x = st.strip_region(p, c)
    st.strip[p * REGIONS + x] = tuple(k for k in st.strip[p * REGIONS + x] if k != c)
    slot = list(st.strip[p * REGIONS + y])
    insort(slot, c)
    st.strip[p * REGIONS + y] = tuple(slot)
    st.moved = tuple(sorted(st.moved + (c,)))
    if st.game.public_tactics:
        st.tactics_log += ((p, x, y),)
    st.emit("moved", "§5.4", seat=p, card=D.card_names[c], **{"from": D.regions[x], "to": D.regions[y]})
    _end_tactics_decision(st)


def _apply_pass(st: State, a: tuple) -> None:
    st.emit("passed", "§5.4", seat=st.current)
    _end_tactics_decision(st)


def _end_tactics_decision(st: State) -> None:
    st.moves_left -= 1
    if st.moves_left:
        return
    k = (st.current - st.instigator) % st.n + 1
    if k < st.n:
        _start_tactics_of(st, st.seat_after_instigator(k))
        return
    st.moved = ()
    _reveal(st)
    _score_phase(st)
    _begin_events(st)


# ----- reveal and score (§5.5, §5.6) -----

def _reveal(st: State) -> None:
    n, strip, influence = st.n, st.strip, st.influence
    bids = tuple(strip)
    st.revealed = bids if any(bids) else ()
    shown = []
    for p in range(n):
        for x in range(REGIONS):
            cards = strip[p * REGIONS + x]
            if cards:
                influence[x * n + p] += sum(VALUE[c] for c in cards)
                shown += cards
                strip[p * REGIONS + x] = ()
    st.discard = tuple(sorted(st.discard + tuple(shown)))
    if st.recording:
        st.emit("revealed", "§5.5", influence=[rules.row(st, x) for x in range(REGIONS)],
                strips=[{D.regions[x]: [D.card_names[c] for c in bids[p * REGIONS + x]]
                         for x in range(REGIONS) if bids[p * REGIONS + x]} for p in range(n)])


def _score_phase(st: State) -> None:
    for x in range(REGIONS):
        got = rules.score_region(st, x, rules.PLACES, True)
        st.emit("scored", "§5.6", region=D.regions[x], awards=got, by="score_phase")


# ----- events (§5.7, R17, R18) -----

def _begin_events(st: State) -> None:
    st.phase, st.current = P_EVENT_DRAW, st.instigator
    st.events_left, st.event_rows, st.pending_event, st.resolved = tuple(range(EVENTS)), (), -1, 0


def _outcomes_event(st: State) -> list:
    w = 1 / len(st.events_left)
    return [(EVENT_ACTIONS[e], w) for e in st.events_left]


def _apply_event(st: State, a: tuple) -> None:
    e = a[1]
    st.events_left = tuple(k for k in st.events_left if k != e)
    st.pending_event, st.phase = e, P_EVENT_ASSIGN
    st.emit("event_drawn", "§5.7", seat=st.current, event=D.events[e])


def _legal_event_assign(st: State) -> list:
    taken = {r[1] for r in st.event_rows}
    return [TARGET_ACTIONS[x] for x in range(REGIONS) if x not in taken]


def _apply_target(st: State, a: tuple) -> None:
    x = a[1]
    st.event_rows += ((st.pending_event, x, st.current, ()),)
    st.emit("event_assigned", "§5.7", seat=st.current, event=D.events[st.pending_event], region=D.regions[x])
    st.pending_event = -1
    _continue_events(st)


def _continue_events(st: State) -> None:
    """Resolve the events that are due (each at once, or all ten after the last assignment, R17),
    stopping at a die; then draw the next event or end the turn."""
    rows = st.event_rows
    due = len(rows) if st.game.immediate_events or len(rows) == EVENTS else 0
    while st.resolved < due:
        e, x, drawer, _ = rows[st.resolved]
        if st.recording:
            st.emit("event_resolving", "§5.7", event=D.events[e], region=D.regions[x], influence=rules.row(st, x))
        seats = rules.resolve(st, e, x, drawer)
        if seats:
            st.phase, st.dice_for, st.current = P_EVENT_DIE, seats, seats[0]
            return
        _resolved(st)
    if len(rows) < EVENTS:
        st.phase, st.current = P_EVENT_DRAW, st.seat_after_instigator(len(rows))
    else:
        _end_turn(st)


def _resolved(st: State) -> None:
    e, x, drawer, dice = st.event_rows[st.resolved]
    if st.recording:
        st.emit("event_resolved", "§5.7", event=D.events[e], region=D.regions[x], drawer=drawer, dice=list(dice),
                influence=rules.row(st, x), resource=st.resources[x])
    st.resolved += 1


def _apply_die(st: State, a: tuple) -> None:
    p, roll = a[1], a[2]
    e, x, drawer, dice = st.event_rows[st.resolved]
    rules.apply_die(st, e, x, p, roll)
    rows = st.event_rows
    st.event_rows = rows[:st.resolved] + ((e, x, drawer, dice + (roll,)),) + rows[st.resolved + 1:]
    st.emit("die", "§5.7", seat=p, roll=roll, event=D.events[e])
    st.dice_for = st.dice_for[1:]
    if st.dice_for:
        st.current = st.dice_for[0]
        return
    _resolved(st)
    _continue_events(st)


# ----- end (§5.8) -----

def _end_turn(st: State) -> None:
    st.instigator = (st.instigator + 1) % st.n
    st.emit("turn_ended", "§5.8", turn=st.turn, instigator=st.instigator)
    if st.turn < st.game.turns:
        st.turn += 1
        _begin_turn(st)
        return
    st.phase, st.current = P_OVER, -1
    if st.recording:
        st.emit("game_ended", "§7", vp=st.returns(), winners=st.winners())


def start_phase(st: State, phase: str) -> None:
    """Start ``phase`` (draw, bid, develop, tactics or event_draw) on a position built for a
    scenario (``builders.build``), as the phase before it would."""
    {"draw": _begin_turn, "bid": _begin_bid, "develop": _begin_develop, "tactics": _begin_tactics,
     "event_draw": _begin_events}[phase](st)


# ----- tables of the phases and actions -----

def _legal_power(st: State) -> list:
    return [POWER_ACTIONS[w] for w in range(len(D.powers)) if w not in st.powers]


def _outcomes_power(st: State) -> list:
    acts = _legal_power(st)
    return [(a, 1 / len(acts)) for a in acts]


def _none(st: State) -> list:
    return []


_GENERATORS = {P_POWER: _legal_power, P_BID: _legal_bid, P_DEVELOP: _legal_develop, P_TACTICS: _legal_tactics,
               P_EVENT_ASSIGN: _legal_event_assign, P_OVER: _none}
_OUTCOMES = {P_ROLL: lambda st: ROLL_OUTCOMES[st.current], P_POWER: _outcomes_power, P_DRAW: _outcomes_draw,
             P_EVENT_DRAW: _outcomes_event, P_EVENT_DIE: lambda st: DIE_OUTCOMES[st.current]}
_APPLIER_OF = {ROLL: _apply_roll, POWER: _apply_power, DEAL_INFLUENCE: _apply_deal_influence,
               DEAL_DEVELOPMENT: _apply_deal_development, ASSIGN: _apply_assign, PLAY: _apply_play,
               MOVE: _apply_move, PASS: _apply_pass, EVENT: _apply_event, TARGET: _apply_target, DIE: _apply_die}
_APPLIERS = tuple(_APPLIER_OF[k] for k in range(len(_APPLIER_OF)))


# ----- explanations -----

_PHASE_RULES = {P_ROLL: "§2", P_POWER: "R3", P_DRAW: "§5.1", P_BID: "§5.2", P_DEVELOP: "§5.3",
                P_TACTICS: "§5.4", P_EVENT_DRAW: "§5.7", P_EVENT_ASSIGN: "§5.7", P_EVENT_DIE: "§5.7"}
_EXPECTED = {P_ROLL: "a setup d10 (chance)", P_POWER: "a power", P_DRAW: "a card dealt (chance)",
             P_BID: "the region of the next influence card", P_DEVELOP: "a development card to play",
             P_TACTICS: "a move or a pass", P_EVENT_DRAW: "the top event card (chance)",
             P_EVENT_ASSIGN: "the region of the drawn event", P_EVENT_DIE: "a d6 (chance)"}
_PHASE_OF = {ROLL: P_ROLL, POWER: P_POWER, DEAL_INFLUENCE: P_DRAW, DEAL_DEVELOPMENT: P_DRAW, ASSIGN: P_BID,
             PLAY: P_DEVELOP, MOVE: P_TACTICS, PASS: P_TACTICS, EVENT: P_EVENT_DRAW, TARGET: P_EVENT_ASSIGN,
             DIE: P_EVENT_DIE}


def _explain(st: State, a: tuple) -> tuple[str, str]:
    phase, p = st.phase, st.current
    if _PHASE_OF[a[0]] != phase:
        if phase == P_BID:
            return "§5.2", f"{seat_name(p)} must first assign every influence card in hand ({len(st.hand[p])} left)"
        return _PHASE_RULES[phase], f"the decision here is {_EXPECTED[phase]}"
    if a[0] in CHANCE_TYPES or st.is_chance_node():
        return "§6.3", "not a possible chance outcome here"
    if phase == P_POWER:
        return "R3", f"{D.powers[a[1]]} is already taken"
    if phase == P_BID:
        if a[1] not in st.hand[p]:
            return "§5.2", f"{D.card_names[a[1]]} is not in the hand of {seat_name(p)}"
        return "§5.2", f"the cards are assigned in the canonical order: next is {D.card_names[st.hand[p][0]]}"
    if phase == P_DEVELOP:
        return "§5.3", f"{D.dev_ids[a[1]]} is not in the development hand of {seat_name(p)}"
    if phase == P_TACTICS:
        return _explain_move(st, a)
    return "R18", f"{D.regions[a[1]]} already has an event this turn"


def _explain_move(st: State, a: tuple) -> tuple[str, str]:
    p, c = st.current, a[1]
    if c in st.moved:
        return "R12", f"{D.card_names[c]} was moved already: a second move takes a different card"
    x = st.strip_region(p, c)
    if x < 0:
        return "§5.4", f"{D.card_names[c]} is not on the strip of {seat_name(p)}"
    return "§5.4", f"{D.card_names[c]} is under {D.regions[x]} already: a move goes to another region"
