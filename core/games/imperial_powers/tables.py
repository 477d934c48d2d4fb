"""Imperial Powers' tables (RULES.md §8; docs/data-dictionary.md, "Data dictionary: Imperial Powers"):
their schema and the recorder that fills them (the plug-in's ``tables`` part, which ``imperial_lab.core.tables``
plays and records games with).

A ``GameRecorder`` follows one game through ``imperial_lab.core.play.play_game`` (``on_start``/``on_step``) or a
move-log replay. Most actions need nothing from it: per action it only keeps the bid's cards, the
development card played, the Tactics moves and the seats of the dice. The map is read at two
moments of a turn: after the last Tactics decision (Reveal and Score run inside that action) and
after the action that ends the Event Phase. Both moments suffice for every event: an event touches
only the region it is assigned to, and each region gets one event a turn (R18), so a region's
influence before its event is its influence after the Score Phase. VP come from the engine's own
counters by source (``state.gains``) and from its ``scored`` events, so the tables cannot disagree
with the result.

Lists "per seat" are in seat order (seat 0 = Player A); lists "per region" follow data.json's
region order (``REGION_ORDER``).
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Any

from imperial_lab.core.games.imperial_powers.actions import ASSIGN, DIE, MOVE, PASS, PLAY, POWER, ROLL, TARGET
from imperial_lab.core.games.imperial_powers.data import data
from imperial_lab.core.games.imperial_powers.rules import EXPLOITATION, PLACES, REGIONS, SPAIN, START, leader, leader_of
from imperial_lab.core.games.imperial_powers.scoring import standings
from imperial_lab.core.games.imperial_powers.pending import INFLUENCE, P_OVER, P_POWER, P_TACTICS
from imperial_lab.core.games.imperial_powers.words import power_name
from imperial_lab.core.interface import CHANCE
from imperial_lab.core.tables import Recorder

D = data()
VALUE = D.card_values
STATUSES = ("finished", "unfinished", "failed")
CHECKPOINTS = ("after_reveal", "after_score", "after_event")
VARIANTS = ("tie_rule", "power_assignment", "spain_bonus_on_exploitation", "portuguese_bonus", "event_resolution",
            "tactics_visibility")  # the config's rulings (RULES.md §9), one games column each
REGION_ORDER = ", ".join(D.regions)
_REGION_INDEX = {name: x for x, name in enumerate(D.regions)}

KEY = [("run", "category", "label of the batch of games the game belongs to (a simulation run)"),
       ("game_id", "int32", "the game's number within its run; (run, game_id) identifies a game")]
TURN = [("turn", "int8", "the turn, from 1 (§4)")]

TABLES: dict[str, list[tuple[str, str, str]]] = {
    "ip_games": KEY + [
        ("seed", "Int64", "seed of the chance actions (bots are seeded by their caller); null if unknown"),
        ("setup", "category", "setup label given by the caller: `default` or a setup file's name"),
        ("players", "int8", "number of seats (3-5)"),
        ("bots", "category", "the bot of each seat, comma-joined in seat order (canonical bot specs, "
                             "docs/command-line.md); null if unknown (a log without `bots`)"),
        ("powers", "list<string>", "the power of each seat, in seat order (`britain`, `france`, `spain`, `dutch`, "
                                   "`portuguese`; null before it is chosen)"),
        ("first_instigator", "Int8", "the seat of the first instigator (the setup d10, §2); every order of a "
                                     "turn starts at the instigator; null if the game stopped before the rolls "
                                     "decided"),
        ("tie_rule", "category", "config (R14): `drop_to_lowest_shared_place`, `share_highest_place` or "
                                 "`split_places`"),
        ("power_assignment", "category", "config (R3): `pick` (from the first instigator clockwise), `random` or "
                                         "`fixed`"),
        ("spain_bonus_on_exploitation", "boolean", "config (R16): Spain's bonus is also paid when Exploitation "
                                                   "rescores a region"),
        ("portuguese_bonus", "category", "config (R7): the Portuguese 2 extra influence cards `once` (turn 1) or "
                                         "`every_turn`"),
        ("event_resolution", "category", "config (R17): `immediate` or `after_all_assigned`"),
        ("tactics_visibility", "category", "config (R12): `hidden` or `regions_public`"),
        ("turn_limit", "int8", "config `turns`: the length of the game (R19, 10 by default)"),
        ("scores", "list<int16>", "VP per seat in seat order (§7; the VP so far for an unfinished game); null "
                                  "if failed"),
        ("winners", "list<int8>", "winning seats: most VP, then most regions led (§7, R20), several on a shared "
                                  "win; null if failed"),
        ("shared", "boolean", "several seats share the win; null if failed"),
        ("tiebreak", "boolean", "the tie-break decided: more seats had the most VP than won (§7, R20); null if "
                                "failed"),
        ("regions_led", "list<int8>", "regions each seat leads on the final map (R20, the tie-break); null if "
                                      "failed"),
        ("turns", "int8", "turns completed (their Event Phase done)"),
        ("plies", "int16", "actions played, chance and setup included"),
        ("decisions", "int16", "actions decided by players (chance actions not counted)"),
        ("status", "category", "`finished` (the End Phase of the last turn done, R19), `unfinished` (a log that "
                               "stops before the end: VP as they stand), `failed` (an error stopped it)"),
        ("error", "string", "failed games: the exception, `Type: message (at file:line)`"),
        ("log", "string", "the game's move log (JSON Lines, docs/formats.md), so any game can be replayed "
                          "(`imperial replay`); for a failed game the actions before the error. It holds every "
                          "card dealt and bid, private during play"),
    ],
    "ip_region_turn": KEY + TURN + [
        ("region", "category", "region id (§0.2)"),
        ("checkpoint", "category", "`after_reveal` (the bids added, §5.5), `after_score` (the Score Phase, §5.6: "
                                   "it moves no counter nor influence, so only `vp` differs from after_reveal), "
                                   "`after_event` (the end of the Event Phase, §5.7)"),
        ("resource", "int16", "resource counters"),
        ("power", "int16", "power counters (R23)"),
        ("value", "int16", "the region's value V = resource + power (§0.2)"),
        ("influence", "list<int16>", "influence per seat, I[X][p]"),
        ("places", "list<int8>", "place per seat as §0.2 defines it (R14): the number of present seats with at "
                                 "least as much influence, so tied seats share the lowest place; 0 if absent. "
                                 "The awards follow `tie_rule` (see `vp`)"),
        ("leader", "Int8", "the Leader: the seat with strictly the most influence; null on a tie at the top or "
                           "an empty region (R14)"),
        ("vp", "list<int16>", "VP per seat gained in the region at this checkpoint: 0 after_reveal; after_score "
                              "the place awards and Spain's bonus; after_event those of Exploitation"),
        ("event", "category", "the event assigned to the region this turn (R18); null for an unfinished turn"),
        ("drawer", "Int8", "the seat that drew and assigned that event"),
    ],
    "ip_player_turn": KEY + TURN + [
        ("seat", "int8", "seat"),
        ("power", "category", "the seat's power (§1.1)"),
        ("rel_seat", "int8", "seat counted from the first instigator: (seat - first_instigator) % players"),
        ("instigator", "bool", "the seat is this turn's instigator (acts first in every phase, R6)"),
        ("drawn_base", "int8", "influence cards of the Draw Phase (§5.1): the base allotment"),
        ("drawn_britain", "int8", "extra cards of the power (Britain's +1)"),
        ("drawn_counters", "int8", "extra cards for the power counters of the regions the seat led at the start "
                                   "of the Draw Phase (R7, R23)"),
        ("drawn_portugal", "int8", "the Portuguese extra cards (turn 1 only under `portuguese_bonus: once`)"),
        ("hand", "int8", "influence cards dealt and bid (fewer than the allotment only if both piles ran dry, "
                         "R8; private until the Reveal)"),
        ("hand_value", "int16", "their total value"),
        ("bid_cards", "list<int8>", f"cards per region of the bid as revealed, after Tactics (private until the "
                                    f"Reveal; regions: {REGION_ORDER})"),
        ("bid_value", "list<int16>", "value per region of the revealed bid: the influence the Reveal added"),
        ("bid_cards_pre", "list<int8>", "cards per region of the bid before Tactics (private: never revealed, R12)"),
        ("bid_value_pre", "list<int16>", "value per region of the bid before Tactics (private)"),
        ("regions_bid", "int8", "regions with at least one card in the revealed bid"),
        ("moves", "int8", "cards moved in the Tactics Phase (0-1; France 0-2, R12; private)"),
        ("moved", "list<string>", "the moves, `card from>to` (e.g. `spies#1 europe>india`; private)"),
        ("moved_value", "int16", "the value of the cards moved"),
        ("development", "category", "the development card played (§5.3, public, also the Dutch one); null if the "
                                    "seat had none"),
        ("development_region", "category", "its region"),
        ("regions_led", "int8", "regions the seat leads at the end of the turn (after the Event Phase)"),
        ("influence", "int16", "the seat's influence on the whole map at the end of the turn"),
        ("vp_places", "int16", "VP of the turn from place awards of the Score Phase (§5.6)"),
        ("vp_spain", "int16", "from Spain's bonus (§5.6; also Exploitation's under "
                              "`spain_bonus_on_exploitation`)"),
        ("vp_exploitation", "int16", "from Exploitation's rescoring (§5.7)"),
        ("vp_start", "int16", "the starting VP (Portugal's 20, R22), counted in turn 1"),
        ("vp", "int16", "cumulative VP at the end of the turn: the sum of every vp_* column so far"),
    ],
    "ip_events": KEY + TURN + [
        ("draw", "int8", "the draw index k, 0-9: drawn by the seat k places from the instigator (§5.7)"),
        ("drawer", "int8", "the seat that drew the event and assigned it"),
        ("event", "category", "event id (§1.4)"),
        ("region", "category", "the region it was assigned to"),
        ("before", "list<int16>", "influence per seat in the region before the event resolved"),
        ("after", "list<int16>", "influence per seat after it resolved"),
        ("value_before", "int16", "the region's value before (Nation Building adds a resource counter)"),
        ("value_after", "int16", "the region's value after"),
        ("dice", "list<int8>", "the d6 rolls, in order (Great Game, Balance of Power); empty otherwise"),
        ("dice_seats", "list<int8>", "the seat each roll was for"),
        ("vp", "list<int16>", "VP per seat the event awarded (Exploitation; 0 for the others)"),
        ("leader_before", "Int8", "the region's Leader before (null: none, R14)"),
        ("leader_after", "Int8", "the region's Leader after"),
        ("hit_leader", "bool", "the region had a Leader other than the drawer, and the event lowered his influence"),
        ("helped_self", "bool", "the event raised the drawer's influence or VP there, or improved his place "
                                "(a present place smaller than before, or present after being absent)"),
    ],
}

TABLE_ROWS = {
    "ip_games": "one row per game",
    "ip_region_turn": "one row per turn × region × checkpoint (30 per turn); a log that stops in an Event Phase "
                      "has the after_reveal and after_score rows of that turn, an earlier stop none",
    "ip_player_turn": "one row per completed turn × seat",
    "ip_events": "one row per event drawn in a completed turn (10 per turn), in draw order",
}

# Category columns over fixed sets: stable codes and order across chunks.
CLOSED = {"status": STATUSES, "checkpoint": CHECKPOINTS, "region": D.regions, "event": D.events, "power": D.powers,
          "development": D.dev_ids, "development_region": D.regions,
          **{key: D.options[key][1] for key in VARIANTS if D.options[key][1] is not None}}


class GameRecorder(Recorder):
    """Collects the rows of one game from its actions and states.

    ``begin`` with the initial state (``play_game``'s ``on_start``), ``step`` after every action
    (``on_step``, with the action's events), then ``finish`` or ``fail``. ``rows[table]`` holds
    tuples in the column order of ``TABLES[table]``.
    """

    TABLES = TABLES

    def __init__(self, run: str, game_id: int, seed: int | None, setup: str, bots: list[str]):
        super().__init__(run, game_id, seed, setup, bots)
        self._turn = self._completed = 0
        self._instigator = -1  # this turn's
        self._gains0: list[int] = []  # state.gains at the start of the turn (zeros before turn 1)
        self._new_turn(0)

    # ----- hooks -----

    def begin(self, state) -> None:
        self.state = state
        self._gains0 = [0] * len(state.gains)  # the start bonus (setup) is turn 1's

    def step(self, state, player, action, events) -> None:
        self.actions.append((player, action))
        on = _ON[action[0]]
        if on is not None:
            on(self, state, player, action, events)

    def finish(self, state) -> None:
        self.state = state
        if self._reached is not None:  # a log that stops in an Event Phase
            self._region_rows(state, None)
        keys = standings(state)
        vp, led = tuple(k[0] for k in keys), tuple(k[1] for k in keys)
        winners = tuple(state.winners())
        tied = sum(key[0] == max(vp) for key in keys)
        figures = (vp, winners, len(winners) > 1, tied > len(winners), led)
        self._game_row("finished" if state.is_terminal() else "unfinished", figures, None)

    def fail(self, state, error: str) -> None:
        """The game stopped on an error: its state may be half-changed, so no figures are read from it."""
        self.state = state if state is not None else self.state
        self._game_row("failed", (None,) * 5, error)

    # ----- per action (``_ON``) -----

    def _setup(self, st, player, a, events) -> None:
        if st.phase > P_POWER:  # the setup is over: turn 1's Draw Phase has begun
            self._begin_turn(st)

    def _assign(self, st, player, a, events) -> None:
        self._assigned.append((player, a[1], a[2]))
        self._slot[a[1]] = a[2]

    def _play(self, st, player, a, events) -> None:
        self._played[player] = a[1]

    def _move(self, st, player, a, events) -> None:
        c = a[1]
        self._moves.append((player, c, self._slot[c], a[2]))
        self._slot[c] = a[2]
        self._tactics(st, player, a, events)

    def _tactics(self, st, player, a, events) -> None:
        if st.phase != P_TACTICS:  # the last Tactics decision: Reveal and Score ran inside it
            self._reached: Any = (st.influence[:], st.resources[:], st.power_counters[:], _scored(events, "score_phase"))

    def _die(self, st, player, a, events) -> None:
        self._die_seats.append(a[1])
        self._event(st, player, a, events)

    def _event(self, st, player, a, events) -> None:
        self._event_vp.update(_scored(events, "exploitation"))
        if st.turn != self._turn or st.phase == P_OVER:  # the Event Phase is over (§5.8)
            self._end_turn(st)
            if st.phase != P_OVER:
                self._begin_turn(st)

    # ----- turns -----

    def _new_turn(self, n: int) -> None:
        self._assigned: list[tuple] = []  # (seat, card, region) of the bid, in order
        self._slot: dict[int, int] = {}  # card -> its region now (Tactics moves it)
        self._moves: list[tuple] = []  # (seat, card, from, to)
        self._played = [-1] * n  # development card per seat
        self._die_seats: list[int] = []  # the seat of every d6 of the turn, in order
        self._event_vp: dict[int, tuple] = {}  # region -> VP per seat its event awarded
        self._reached = None  # (influence, resources, power counters, VP per region) after the Score Phase
        self._drawn: list[tuple] = []

    def _begin_turn(self, st) -> None:
        """Split each seat's allotment (§5.1), which the engine has just computed into ``st.deal``."""
        self._new_turn(st.n)
        self._turn, self._instigator = st.turn, st.instigator
        leaders = [leader(st, x) for x in range(REGIONS)]  # nothing has moved since the Draw Phase began
        allotted = [0] * st.n
        for p, deck in st.deal:
            allotted[p] += deck == INFLUENCE
        for p in range(st.n):
            power = st.powers[p]
            counters = sum(st.power_counters[x] for x in range(REGIONS) if leaders[x] == p)
            base, extra = D.base_influence, D.extra_influence[power]
            # what is left of the engine's allotment is the Portuguese bonus (R7)
            self._drawn.append((base, extra, counters, allotted[p] - base - extra - counters))

    def _end_turn(self, st) -> None:
        led = self._region_rows(st, st.event_rows)
        self._event_rows(st)
        self._player_rows(st, led)
        self._completed += 1
        self._gains0 = st.gains[:]
        self._reached = None

    def _region_rows(self, st, event_rows) -> list[int]:
        """The turn's rows of ip_region_turn: the after_event ones only with ``event_rows`` (the turn
        is complete). Returns the regions each seat leads after the Event Phase."""
        n, key, rows = st.n, (*self._key, self._turn), self.rows["ip_region_turn"]
        inf0, res0, pow0, score_vp = self._reached
        inf1, res1, pow1 = st.influence, st.resources, st.power_counters
        assigned = {x: (D.events[e], drawer) for e, x, drawer, _ in event_rows or ()}
        zeros, led = (0,) * n, [0] * n
        for x in range(REGIONS):
            region, (event, drawer) = D.regions[x], assigned.get(x, (None, None))
            before = tuple(inf0[x * n:x * n + n])
            common = (res0[x], pow0[x], res0[x] + pow0[x], before, _places(before), _seat(leader_of(before)))
            rows.append((*key, region, "after_reveal", *common, zeros, event, drawer))
            rows.append((*key, region, "after_score", *common, score_vp.get(x, zeros), event, drawer))
            if event_rows is None:
                continue
            after = tuple(inf1[x * n:x * n + n])
            lead = leader_of(after)
            if lead >= 0:
                led[lead] += 1
            rows.append((*key, region, "after_event", res1[x], pow1[x], res1[x] + pow1[x], after, _places(after),
                         _seat(lead), self._event_vp.get(x, zeros), event, drawer))
        return led

    def _event_rows(self, st) -> None:
        n, key, rows = st.n, (*self._key, self._turn), self.rows["ip_events"]
        inf0, res0, pow0, _ = self._reached
        inf1, res1, pow1 = st.influence, st.resources, st.power_counters
        zeros, seats = (0,) * n, iter(self._die_seats)  # dice are rolled in draw order (R17)
        for k, (e, x, drawer, dice) in enumerate(st.event_rows):
            before, after = tuple(inf0[x * n:x * n + n]), tuple(inf1[x * n:x * n + n])
            vp = self._event_vp.get(x, zeros)
            lead0 = leader_of(before)
            hit = lead0 >= 0 and lead0 != drawer and after[lead0] < before[lead0]
            was, now = _place(before, drawer), _place(after, drawer)
            helped = after[drawer] > before[drawer] or vp[drawer] > 0 or (now > 0 and (was == 0 or now < was))
            rows.append((*key, k, drawer, D.events[e], D.regions[x], before, after, res0[x] + pow0[x],
                         res1[x] + pow1[x], dice, tuple(next(seats) for _ in dice), vp, _seat(lead0),
                         _seat(leader_of(after)), hit, helped))

    def _player_rows(self, st, led: list[int]) -> None:
        n, key, rows = st.n, (*self._key, self._turn), self.rows["ip_player_turn"]
        pre_cards, pre_value = [[0] * REGIONS for _ in range(n)], [[0] * REGIONS for _ in range(n)]
        cards, value = [[0] * REGIONS for _ in range(n)], [[0] * REGIONS for _ in range(n)]
        for p, c, x in self._assigned:
            y, v = self._slot[c], VALUE[c]  # a card is moved at most once a turn (R12)
            pre_cards[p][x] += 1
            pre_value[p][x] += v
            cards[p][y] += 1
            value[p][y] += v
        moved: list[list] = [[] for _ in range(n)]
        moved_value = [0] * n
        for p, c, x, y in self._moves:
            moved[p].append(f"{D.card_names[c]} {D.regions[x]}>{D.regions[y]}")
            moved_value[p] += VALUE[c]
        g0, g1, inf = self._gains0, st.gains, st.influence
        for p in range(n):
            gained = [g1[4 * p + s] - g0[4 * p + s] for s in range(4)]
            dev = self._played[p]
            rows.append((*key, p, D.powers[st.powers[p]], (p - st.first_instigator) % n, p == self._instigator,
                         *self._drawn[p], sum(cards[p]), sum(value[p]), tuple(cards[p]), tuple(value[p]),
                         tuple(pre_cards[p]), tuple(pre_value[p]), REGIONS - cards[p].count(0), len(moved[p]),
                         tuple(moved[p]), moved_value[p], D.dev_ids[dev] if dev >= 0 else None,
                         D.regions[D.dev_region[dev]] if dev >= 0 else None, led[p],
                         sum(inf[x * n + p] for x in range(REGIONS)), gained[PLACES], gained[SPAIN],
                         gained[EXPLOITATION], gained[START], sum(g1[4 * p:4 * p + 4])))

    # ----- the game -----

    def _game_row(self, status: str, figures: tuple, error: str | None) -> None:
        st = self.state
        config: dict = st.game.config if st is not None else {}
        powers = tuple(D.powers[w] if w >= 0 else None for w in st.powers) if st is not None else ()
        first = st.first_instigator if st is not None and st.first_instigator >= 0 else None
        self.rows["ip_games"].append((
            *self._key, self.seed, self.setup, st.n if st is not None else len(self.bots),
            ",".join(self.bots) or None, powers, first, *(config.get(key) for key in VARIANTS),
            config.get("turns", D.options["turns"][0]), *figures, self._completed,
            st.ply if st is not None else 0, sum(p != CHANCE for p, _ in self.actions), status, error, self._log()))


def _scored(events, by: str) -> dict[int, tuple]:
    """Region -> the VP per seat of the ``scored`` events of one action from ``by`` (the engine's
    record of what it paid, Spain's bonus included)."""
    return {_REGION_INDEX[e.data["region"]]: tuple(e.data["awards"]) for e in events
            if e.kind == "scored" and e.data["by"] == by}


def _place(values: tuple, p: int) -> int:
    """The place of seat p (§0.2, R14): present seats with at least as much influence; 0 if absent."""
    mine = values[p]
    return sum(v >= mine for v in values) if mine > 0 else 0


def _places(values: tuple) -> tuple:
    """``_place`` of every seat: the seats with at least v are those at or after v's first index in
    the sorted values (the absent, at 0, are never among them for a present v)."""
    ranked, n = sorted(values), len(values)
    return tuple(n - bisect_left(ranked, v) if v > 0 else 0 for v in values)


def _seat(p: int) -> int | None:
    return p if p >= 0 else None


# What the recorder does after each type of action (deals and event draws need nothing).
_ON_TYPE = {ROLL: GameRecorder._setup, POWER: GameRecorder._setup, ASSIGN: GameRecorder._assign,
            PLAY: GameRecorder._play, MOVE: GameRecorder._move, PASS: GameRecorder._tactics,
            TARGET: GameRecorder._event, DIE: GameRecorder._die}
_ON = tuple(_ON_TYPE.get(kind) for kind in range(DIE + 1))  # the action types are 0..DIE (actions.py)


# The opening paragraphs of Imperial Powers' part of docs/data-dictionary.md (imperial_lab.core.tables.data_dictionary).
INTRO = (
    "Imperial Powers' games are four tables (RULES.md §8), recorded by `core/games/imperial_powers/tables.py` "
    "through the same `imperial_lab.core.tables` functions (`record_game`, `record_replay`, `frames`) and stored and "
    "catalogued like the other games'; their names start with `ip_`. Every table starts with `run` and "
    "`game_id`. Seats are numbered from 0 (Player A); the first instigator is `ip_games.first_instigator`, and "
    "`ip_player_turn.rel_seat` counts seats from it (the instigator token then moves one seat a turn, §5.8). "
    "Lists per seat are in seat order; lists per region follow data.json's order: " + REGION_ORDER + ".",
    "The figures are the engine's: VP by source come from its counters and its record of each scoring, so "
    "the `vp_*` columns of a game's `ip_player_turn` rows add up to `ip_games.scores`, and a region's "
    "`after_event` row of one turn is where its `after_reveal` row of the next turn starts (plus that turn's "
    "development cards and bids). The tables hold full information, like the move logs: the bids "
    "(`bid_*`), the cards in hand and the Tactics moves are private during play (R10, R12), the bids before "
    "Tactics are never revealed at all. Recorded for analysis only: never show them to a player during a game.",
)


# ----- comparisons of runs (imperial_lab.core.compare) -----

# Seats are counted from the first instigator (seat 0 of a row is the first instigator): the setup
# roll decides who it is, so the seat as played says nothing about the order of play. Bots, winners
# and scores are turned alike, so a line-up's entrants keep their seats. DuckDB lists are 1-based.
_TURNED = "list_concat({0}[first_instigator + 1:], {0}[1:first_instigator])"
# Lead changes per finished game: the turns after which the sole VP leader (ip_player_turn.vp, the
# end of each turn) differs from the one before; a tie names none, and the last sole leader stands
# until another appears (as the other games' comparisons count). ``8 * vp + seat`` orders by VP,
# then seat (seats are 0-4): its maximum names the highest seat among those with the most VP, the
# maximum of ``8 * vp + 7 - seat`` the lowest one, and the leader is alone when they agree.
LEAD_CHANGES_SQL = """
SELECT f.run, f.game_id, count(*) FILTER (WHERE x.changed) AS lead_changes
FROM (SELECT run, game_id FROM ip_games WHERE status = 'finished' AND run IN ({runs})) f
LEFT JOIN (
    SELECT run, game_id, leader <> lag(leader) OVER (PARTITION BY run, game_id ORDER BY turn) AS changed
    FROM (SELECT run, game_id, turn, max(8 * vp::INTEGER + seat) % 8 AS leader
          FROM ip_player_turn WHERE run IN ({runs})
          GROUP BY ALL
          HAVING max(8 * vp::INTEGER + seat) % 8 = 7 - max(8 * vp::INTEGER + 7 - seat) % 8)) x
USING (run, game_id)
GROUP BY ALL"""
COMPARE_SQL = f"""
SELECT g.run, g.game_id, g.setup, g.players,
       array_to_string({_TURNED.format("string_split(g.bots, ',')")}, ',') AS bots,
       list_transform(g.winners, lambda w: (w - g.first_instigator + g.players) % g.players) AS winners,
       {_TURNED.format("g.scores")} AS scores, g.turns AS rounds,
       list_reverse_sort(g.scores)[1] - list_reverse_sort(g.scores)[2] AS margin, lead.lead_changes
FROM (SELECT * FROM ip_games WHERE status = 'finished' AND run IN ({{runs}})) g
JOIN ({LEAD_CHANGES_SQL}) lead USING (run, game_id)
ORDER BY g.run, g.game_id"""
# The same rows with the powers as the sides (``imperial compare --by power``): winners, scores and bots
# in the order of D.powers, for the games that hold every power (as many players as powers).
_POWERS = "[" + ", ".join(f"'{power}'" for power in D.powers) + "]"
COMPARE_BY_POWER_SQL = f"""
SELECT g.run, g.game_id, g.setup, g.players,
       array_to_string(list_transform({_POWERS}, lambda w: string_split(g.bots, ',')[list_position(g.powers, w)]), ',')
           AS bots,
       list_transform(g.winners, lambda w: list_position({_POWERS}, g.powers[w + 1]) - 1) AS winners,
       list_transform({_POWERS}, lambda w: g.scores[list_position(g.powers, w)]) AS scores, g.turns AS rounds,
       list_reverse_sort(g.scores)[1] - list_reverse_sort(g.scores)[2] AS margin, lead.lead_changes
FROM (SELECT * FROM ip_games WHERE status = 'finished' AND run IN ({{runs}}) AND len(powers) = {len(D.powers)}) g
JOIN ({LEAD_CHANGES_SQL}) lead USING (run, game_id)
ORDER BY g.run, g.game_id"""
COMPARE = {"sql": COMPARE_SQL, "length": "turns", "seats": "counted from the first instigator",
           "by": {"power": {"sql": COMPARE_BY_POWER_SQL, "sides": [power_name(power) for power in D.powers],
                            "seats": f"counted as sides ({len(D.powers)} players: every power in every game)"}}}
