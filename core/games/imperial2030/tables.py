"""Imperial 2030's tables (docs/data-dictionary.md; the plug-in's ``tables`` part, which ``imperial_lab.core.tables``
plays and records games with): their schema and the recorder that fills them.

A ``GameRecorder`` follows one game through ``imperial_lab.core.play.play_game`` (``on_start``/``on_step``) or a
move-log replay and reads only the engine's events and state. Building tuples is all it does per
action.

A nation turn ends with the action whose events start the next turn (``nation_turn``) or end the
game (``game_ended``). Both are the last event of their action, so the state after that action
holds the closing figures of the turn; the recorder checks this instead of trusting it.
"""

from __future__ import annotations

import json
from typing import Any

from imperial_lab.core.games.imperial2030.data import NATIONS, SPACES
from imperial_lab.core.games.imperial2030.scoring import scores
from imperial_lab.core.interface import CHANCE
from imperial_lab.core.tables import Recorder

STATUSES = ("finished", "unfinished", "failed")
CAUSES = ("setup", "investor")
# Bond payments are the investor's own investment, not an expense of governing (government_paid).
BOND_REASONS = frozenset({"bond purchase", "bond upgrade"})
# Event fields that have a column of their own; the rest goes to the JSON of ``data``.
EVENT_COLUMNS = ("nation", "player", "amount")

KEY = [("run", "category", "label of the batch of games the game belongs to (a simulation run)"),
       ("game_id", "int32", "the game's number within its run; (run, game_id) identifies a game")]

TABLES: dict[str, list[tuple[str, str, str]]] = {
    "games": KEY + [
        ("seed", "Int64", "seed of the chance actions (bots are seeded by their caller); null if unknown"),
        ("setup", "category", "setup label given by the caller: `standard`, `variant` or a custom distribution's name"),
        ("players", "int8", "number of seats"),
        ("bots", "category", "the bot of each seat in this game, comma-joined in seat order: its canonical bot "
                             "spec, `NAME` or `NAME:key=value[:key=value]` with the parameters that differ from "
                             "the defaults (docs/command-line.md); in a league the line-up turns from game to game "
                             "(docs/league.md); null if unknown (a log without `bots`)"),
        ("rounds", "int16", "rounds begun (§5)"),
        ("nation_turns", "int16", "nation turns begun"),
        ("decisions", "int32", "actions decided by players (chance actions not counted)"),
        ("ended_by", "category", "the nation whose 25 power points ended the game (§10); null if it did not end"),
        ("winners", "list<int8>", "winning seats, several on a shared win (§10); null if failed"),
        ("scores", "list<int16>", "score per seat in seat order (§10); null if failed"),
        *[(f"pp_{code}", "Int8", f"power points of {code} at the end; null if failed") for code in NATIONS],
        ("status", "category", "`finished` (the game ended, §10), `unfinished` (a log that stops before the end: "
                               "scores and winners as if it ended there), `failed` (an error stopped it)"),
        ("error", "string", "failed games: the exception, `Type: message (at file:line)`"),
        ("log", "string", "the game's move log (JSON Lines, docs/formats.md), so any game can be "
                          "replayed and explored; for a failed game the actions before the error, null if it "
                          "could not even be set up"),
    ],
    "nation_turns": KEY + [
        ("turn", "int16", "nation turn number, from 1"),
        ("round", "int16", "round number, from 1 (§5)"),
        ("nation", "category", "the active nation"),
        ("government", "int8", "seat governing the nation during the turn"),
        ("rondel_from", "category", "rondel space before the move; null on the nation's first turn"),
        ("rondel_to", "category", "rondel space the government chose (§6)"),
        ("space", "category", "rondel space whose action was performed: `investor` after a veto (§8), "
                              "else `rondel_to`"),
        ("vetoed", "bool", "a Swiss bank vetoed the move (§8)"),
        ("government_paid", "int16", "money the government paid from its own cash in the turn: rondel cost, "
                                     "top-ups, interest the treasury could not pay (not bond purchases)"),
        ("power_points", "int8", "power points at the end of the turn"),
        ("power_factor", "int8", "power factor at the end of the turn (§10)"),
        ("treasury", "int16", "treasury at the end of the turn"),
        ("tax_revenue", "Int8", "tax revenue (§7.6); null unless the space was taxation"),
        ("flags", "int8", "flags of the nation on the board at the end of the turn"),
        ("armies", "int8", "armies at the end of the turn"),
        ("fleets", "int8", "fleets at the end of the turn"),
        ("factories", "int8", "factories in its home provinces at the end of the turn"),
        ("occupied_factories", "int8", "of those, factories whose province holds a hostile army (§7.4.6)"),
    ],
    "holdings": KEY + [
        ("turn", "int16", "0: after the setup; else the nation turn after which the snapshot was taken"),
        ("player", "int8", "seat"),
        ("nation", "category", "nation of the bonds"),
        ("bonds", "list<int8>", "numbers (1-9) of the player's bonds of the nation, ascending"),
        ("credit_sum", "int16", "what the bonds cost: their credit sum (§9)"),
        ("interest", "int8", "interest per investor payment: the sum of the bond numbers (§7.5)"),
        ("governs", "bool", "the player governs the nation at the snapshot"),
    ],
    "players": KEY + [
        ("turn", "int16", "0: after the setup; else the nation turn at whose end the row was taken"),
        ("player", "int8", "seat"),
        ("cash", "int16", "cash"),
        ("swiss_bank", "bool", "holds a Swiss bank (§9)"),
        ("score", "int16", "score if the game ended now (§10): the final score at the last turn of a finished game"),
    ],
    "control_changes": KEY + [
        ("turn", "int16", "0: at the setup; else the nation turn in which the government changed"),
        ("nation", "category", "nation whose government changed"),
        ("previous", "Int8", "the former government's seat; null if the nation had none"),
        ("new", "int8", "the new government's seat"),
        ("cause", "category", "`setup` (§4) or `investor` (the check after an investor turn, §9)"),
    ],
    "events": KEY + [
        ("step", "int32", "index of the action that caused the event: 0 = the setup made with the game, "
                          "1 = the first action (the deal of a standard setup, chance included)"),
        ("turn", "int16", "nation turn in which it happened; 0 during the setup (a `nation_turn` event "
                          "carries the turn it starts)"),
        ("kind", "category", "event kind (core/games/imperial2030/events.py lists every kind and its fields)"),
        ("rule", "category", "RULES.md section that made it happen, e.g. `§7.6`"),
        ("nation", "category", "the event's `nation` field; null if it has none"),
        ("player", "Int8", "the event's `player` field (a seat); null if it has none"),
        ("amount", "Int16", "money moved by a `payment`; null for other kinds"),
        ("data", "string", "the remaining fields as a JSON object, e.g. a payment's `from`, `to`, `reason`"),
    ],
}

TABLE_ROWS = {
    "games": "one row per game",
    "nation_turns": "one row per completed nation turn, figures of the active nation",
    "holdings": "bond ownership: every (player, nation) holding at least one bond, after the setup and after "
                "every nation turn in which a bond changed hands",
    "players": "one row per player after the setup and at the end of every completed nation turn",
    "control_changes": "one row per change of a nation's government",
    "events": "the full event stream, one row per engine event in order",
}

# Category columns whose values form a closed set: fixed categories keep codes and order stable
# across batches (pd.concat of two games keeps the category dtype).
CLOSED = {"nation": NATIONS, "ended_by": NATIONS, "rondel_from": SPACES, "rondel_to": SPACES, "space": SPACES,
          "status": STATUSES, "cause": CAUSES}

_dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
# Most events repeat field for field (payments, unit moves, rondel moves), and encoding is the
# recorder's largest cost, so the JSON of each distinct event is kept; the board bounds their number.
# The key holds the kind and the field names; the engine gives each field of a kind one type, so
# True and 1 (equal as keys) never meet in the same field.
_JSON_CACHE: dict[tuple, str] = {}
_JSON_CACHE_LIMIT = 50_000


def _data_json(kind: str, data: dict) -> str:
    """The JSON of the fields of ``data`` that have no column of their own."""
    try:
        key = (kind, *data.items())
        return _JSON_CACHE[key]
    except TypeError:  # a list among the values (a deal, the end of the game): not cacheable
        return _dumps({k: v for k, v in data.items() if k not in EVENT_COLUMNS})
    except KeyError:
        text = _dumps({k: v for k, v in data.items() if k not in EVENT_COLUMNS})
        if len(_JSON_CACHE) < _JSON_CACHE_LIMIT:
            _JSON_CACHE[key] = text
        return text


class GameRecorder(Recorder):
    """Collects the rows of one game from the engine's events and state.

    ``begin`` with the initial state (``play_game``'s ``on_start``), ``step`` after every action
    (``on_step``), then ``finish`` or ``fail``. ``rows[table]`` holds tuples in the column order of
    ``TABLES[table]``.
    """

    TABLES = TABLES

    def __init__(self, run: str, game_id: int, seed: int | None, setup: str, bots: list[str]):
        super().__init__(run, game_id, seed, setup, bots)
        self._step = self._decisions = 0
        self._turn = self._round = 0
        self._nation = self._gov = -1
        self._gov_ref: str | None = None
        self._reset_turn()

    # ----- hooks -----

    def begin(self, state) -> None:
        self.state = state
        self._take(state, state.events)

    def step(self, state, player, action, events) -> None:
        self.actions.append((player, action))
        self._step += 1
        self._decisions += player != CHANCE
        self._take(state, events)

    def finish(self, state) -> None:
        self.state = state
        figures = (NATIONS[state.end_nation] if state.is_terminal() else None, state.winners(), scores(state),
                   *state.pp)
        self._game_row("finished" if state.is_terminal() else "unfinished", figures, None, self._log())

    def fail(self, state, error: str) -> None:
        """The game stopped on an error: its state may be half-changed, so no figures are read from it."""
        self.state = state if state is not None else self.state
        self._game_row("failed", (None,) * (3 + len(NATIONS)), error, self._log())

    # ----- events -----

    def _take(self, state, events) -> None:
        rows = self.rows["events"]
        for event in events:
            kind, data = event.kind, event.data
            if kind == "nation_turn":
                self._close_turn(state, events, event)
                self._open_turn(data)
            rows.append((*self._key, self._step, self._turn, kind, event.rule, data.get("nation"), data.get("player"),
                         data.get("amount"), _data_json(kind, data)))
            handler = _HANDLERS.get(kind)
            if handler is not None:
                handler(self, data)
            if kind == "game_ended":
                self._close_turn(state, events, event)

    def _reset_turn(self) -> None:
        self._from: Any = None
        self._to: Any = None
        self._space: Any = None
        self._revenue: Any = None
        self._vetoed = self._bonds_moved = False
        self._paid = 0

    def _open_turn(self, data: dict) -> None:
        self._turn, self._round = data["turn"], data["round"]
        self._nation, self._gov = NATIONS.index(data["nation"]), data["government"]
        self._gov_ref = f"player:{self._gov}"
        self._reset_turn()

    def _on_rondel(self, data: dict) -> None:
        self._from, self._space = data["from"], data["to"]
        if not self._vetoed:
            self._to = data["to"]

    def _on_veto(self, data: dict) -> None:
        self._vetoed, self._to = True, data["wanted"]

    def _on_payment(self, data: dict) -> None:
        if data["from"] == self._gov_ref and data["reason"] not in BOND_REASONS:
            self._paid += data["amount"]

    def _on_taxation(self, data: dict) -> None:
        self._revenue = data["revenue"]

    def _on_bond(self, data: dict) -> None:
        self._bonds_moved = True

    def _on_government(self, data: dict) -> None:
        cause = "investor" if self._turn else "setup"
        self.rows["control_changes"].append((*self._key, self._turn, data["nation"], data["previous"], data["new"],
                                             cause))

    # ----- snapshots at the end of a turn (turn 0: the setup) -----

    def _close_turn(self, state, events, event) -> None:
        if event is not events[-1]:
            raise RuntimeError(f"a {event.kind!r} event is not the last of its action: the state after it "
                               "no longer shows the end of the turn")
        if self._turn:
            self.rows["nation_turns"].append(self._turn_row(state))
        key, turn = self._key, self._turn
        self.rows["players"] += [(*key, turn, p, state.cash[p], state.swiss[p], score)
                                 for p, score in enumerate(scores(state))]
        if self._bonds_moved or not turn:
            self._holdings(state)

    def _turn_row(self, state) -> tuple:
        n = self._nation
        factories = sum(state.factory[r] for r in state.board.homes[n])
        return (*self._key, self._turn, self._round, NATIONS[n], self._gov, self._from, self._to, self._space,
                self._vetoed, self._paid, state.pp[n], state.pf(n), state.treasury[n], self._revenue,
                state.flag_count[n], state.n_armies[n], state.n_fleets[n], factories,
                factories - len(state.working_factories(n)))

    def _holdings(self, state) -> None:
        held: dict[tuple[int, int], list[int]] = {}
        for k, p in enumerate(state.owner):
            if p >= 0:
                held.setdefault((p, k // 9), []).append(k % 9 + 1)
        cost = state.board.bond_cost  # the credit sum of §9, without a pass over the owners per holding
        self.rows["holdings"] += [(*self._key, self._turn, p, NATIONS[n], tuple(numbers),
                                   sum(cost[b - 1] for b in numbers), sum(numbers), state.gov[n] == p)
                                  for (p, n), numbers in sorted(held.items())]

    # ----- the games row -----

    def _game_row(self, status: str, figures: tuple, error: str | None, log: str | None) -> None:
        players = self.state.nplayers if self.state is not None else len(self.bots)
        self.rows["games"].append((*self._key, self.seed, self.setup, players, ",".join(self.bots) or None,
                                   self._round, self._turn, self._decisions, *figures, status, error, log))



_HANDLERS = {"rondel": GameRecorder._on_rondel, "veto": GameRecorder._on_veto,
             "payment": GameRecorder._on_payment, "taxation": GameRecorder._on_taxation,
             "bond_taken": GameRecorder._on_bond, "bond_returned": GameRecorder._on_bond,
             "government": GameRecorder._on_government}

# The opening paragraphs of docs/data-dictionary.md (imperial_lab.core.tables.data_dictionary).
INTRO = (
    "`imperial_lab.core.tables` turns games into six tables. `record_game(config, bots, bot_names, seed, run, game_id, "
    "setup)` plays and records one game (an error inside it becomes a `failed` games row, it never "
    "propagates); `record_replay(log, run, game_id, setup)` records a move log, checked like `imperial "
    "replay`. Both return rows of plain tuples per table; `merge_rows` joins the rows of many games and "
    "`frames(rows)` makes DataFrames with the dtypes below. Every table starts with `run` and `game_id`. "
    "Turn 0 is the setup; a nation turn ends with the action that starts the next one or ends the game, "
    "and \"end of the turn\" figures are the engine's state after that action. Nation codes, rondel "
    "spaces, `status` and `cause` are categories over their fixed sets (nations in the order RU CN IN BR "
    "US EU); power points per nation are six columns so that queries filter and average them directly.",
    "`list<...>` columns are pyarrow lists: DuckDB queries them (`list_contains(winners, 0)`). In the "
    "Parquet files of a run they stay lists for DuckDB, pyarrow and `pd.read_parquet(path, "
    "dtype_backend=\"pyarrow\")`; plain `pd.read_parquet` gives one NumPy array per row.")


# ----- comparisons of runs (imperial_lab.core.compare) -----

# Lead changes per finished game (Ludii's LeadChange): the nation turns after which the score leader
# (§10, "if the game ended now") differs from the leader before. A tie for the lead names no leader,
# and the last sole leader stands until another one appears, so a tie and its resolution by the same
# seat is not a change; the setup (turn 0) does not count, its scores are only the starting cash.
# One grouping pass over ``players`` finds each turn's sole leader (the costly part: a 10,000-game
# run has 4 million rows): ``8 * score + player`` orders by score, then seat (seats are 0-5); its
# maximum names the highest seat among those with the top score, the maximum of ``8 * score + 7 -
# player`` the lowest one, and the leader is alone when they agree. ``{runs}`` is the run filter's
# placeholders, twice. The Power page's distribution (dashboard/queries.py) counts the same rows.
LEAD_CHANGES_SQL = """
SELECT f.run, f.game_id, count(*) FILTER (WHERE x.changed) AS lead_changes
FROM (SELECT run, game_id FROM games WHERE status = 'finished' AND run IN ({runs})) f
LEFT JOIN (
    SELECT run, game_id, leader <> lag(leader) OVER (PARTITION BY run, game_id ORDER BY turn) AS changed
    FROM (SELECT run, game_id, turn, max(8 * score::INTEGER + player) % 8 AS leader
          FROM players WHERE turn > 0 AND run IN ({runs})
          GROUP BY ALL
          HAVING max(8 * score::INTEGER + player) % 8 = 7 - max(8 * score::INTEGER + 7 - player) % 8)) x
USING (run, game_id)
GROUP BY ALL"""
# One row per finished game (imperial_lab.core.compare's per-game rows). DuckDB lists are 1-based: [1] is the highest score after the sort.
COMPARE_SQL = f"""
SELECT g.run, g.game_id, g.setup, g.players, g.bots, g.winners, g.scores, g.rounds,
       list_reverse_sort(g.scores)[1] - list_reverse_sort(g.scores)[2] AS margin, lead.lead_changes
FROM games g JOIN ({LEAD_CHANGES_SQL}) lead USING (run, game_id)
ORDER BY g.run, g.game_id"""
COMPARE = {"sql": COMPARE_SQL, "length": "rounds"}
