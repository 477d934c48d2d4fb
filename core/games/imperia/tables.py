"""Imperia's tables (RULES.md §10; docs/data-dictionary.md, "Data dictionary: Imperia"): their schema
and the recorder that fills them (the plug-in's ``tables`` part, which ``imperial_lab.core.tables`` plays and
records games with).

A ``GameRecorder`` follows one game through ``imperial_lab.core.play.play_game`` (``on_start``/``on_step``) or a
move-log replay and reads the action and the state after it. The figures of the board (spaces
controlled, formations, provisional scores) change only when a tile moves, so they are computed
after placements and orders and kept for the draws in between; the scores come from
``scoring.tallies``, the function that gives the game's own result, so the tables cannot disagree
with it.

Spaces are ints ``row * 8 + col`` (0 = 0,0 in the north-west, 63 = 7,7), as in the engine.
"""

from __future__ import annotations


from imperial_lab.core.games.imperia.actions import (BOARD, DRAW, FORTRESS, MOBILISE, PLACE, RANDOM_BOARD, RETIRE,
                                                     SWAP_ENEMY, SWAP_OWN, WARLORD, action_text)
from imperial_lab.core.games.imperia.board import (CASTLE_MASK, DIRECTIONS, GENERAL_TYPES, INDEX_KIND, INDEX_RANK, KIND_NAMES,
                                      QUADRANTS, ROTATIONS, SIDES, SPACES, TYPE_CLASS, TYPE_KIND)
from imperial_lab.core.games.imperia.rules import components
from imperial_lab.core.games.imperia.scoring import space_points, tallies
from imperial_lab.core.games.imperia.pending import P_TURN, PHASES
from imperial_lab.core.interface import CHANCE
from imperial_lab.core.tables import Recorder

STATUSES = ("finished", "unfinished", "failed")
KINDS = ("start", "random_board", "board", "fortress", "draw", "place", "warlord", "mobilise", "swap_own",
         "swap_enemy", "retire")  # in the order of the action types of core/games/imperia/actions.py
MOVES = ("continue", "campaign", "warlord_next", "warlord_front")
HOWS = ("empty", "stack", "battle")
TILE_KINDS = KIND_NAMES  # gen cav inf war
CLASSES = ("o", "d")
TERRAINS = ("F", "M", "V", "C")
LAYOUTS = ("default", "generated", "custom")
RINGS = ("touching_12", "orthogonal_8")
BOARD_ACTIONS = frozenset({PLACE, WARLORD, MOBILISE, SWAP_OWN, SWAP_ENEMY})  # the actions that move tiles
TURN_ACTIONS = frozenset({PLACE, WARLORD, RETIRE})  # each begins a turn (§5)

KEY = [("run", "category", "label of the batch of games the game belongs to (a simulation run)"),
       ("game_id", "int32", "the game's number within its run; (run, game_id) identifies a game")]
PLY = [("ply", "int16", "the action's number, from 1, chance and setup included (the engine's `ply` after it)"),
       ("turn", "int16", "0 during the setup; else the turn (one placement, §5) the action belongs to, from 1")]

SCORES = "totals"  # the score per seat of im_games (imperial_lab.core.tables.scores_column)
TABLES: dict[str, list[tuple[str, str, str]]] = {
    "im_games": KEY + [
        ("seed", "Int64", "seed of the chance actions (bots are seeded by their caller); null if unknown"),
        ("setup", "category", "setup label given by the caller: `default` or a setup file's name"),
        ("players", "int8", "number of seats"),
        ("bots", "category", "the bot of each seat, comma-joined in seat order (canonical bot specs, "
                             "docs/command-line.md); null if unknown (a log without `bots`)"),
        ("layout", "category", "the board sides: `default`, `generated` or `custom` (a list of sides, G1)"),
        ("fortress_distance", "int8", "the Chebyshev distance between fortresses of the config (G5)"),
        ("castle_ring", "category", "the ring of the config: `touching_12` or `orthogonal_8` (G4)"),
        ("start_seat", "Int8", "the start player's seat (§3.1, G25); every order of the setup is relative to it; "
                               "null if the game stopped before it was drawn"),
        ("boards", "list<string>", "the placed board sides in placement order, as the action notation writes "
                                   "them: `2A NW r180` (board, side, quadrant, clockwise rotation); empty with "
                                   "`terrain_override`"),
        ("board_placers", "list<int8>", "the seat that placed each board of `boards`, -1 for the 3-player chance "
                                        "board (§3.2)"),
        ("fortresses", "list<int8>", "the fortress space of each seat, in seat order (-1: none placed)"),
        ("fortress_order", "list<int8>", "the seats in the order they placed their fortresses (§3.3)"),
        ("plies", "int16", "actions played, chance and setup included"),
        ("turns", "int16", "turns played (placements of a unit or a warlord, §5)"),
        ("decisions", "int16", "actions decided by players (chance actions not counted)"),
        ("totals", "list<int16>", "score per seat in seat order (§9): raw + ring - penalty; null if failed"),
        ("raw", "list<int16>", "terrain and castle points of each seat's scoring formation (§9); null if failed"),
        ("ring", "list<int16>", "ring units of each seat's scoring formation (§9, G4); null if failed"),
        ("penalty", "list<int16>", "spaces of each seat's scoring formation beside an active enemy warlord "
                                   "(§9); null if failed"),
        ("winners", "list<int8>", "winning seats, several on a shared first place (§9); null if failed"),
        ("draw", "boolean", "several seats share first place; null if failed"),
        ("tiebreak", "boolean", "the warlord tie-break decided: more seats had the best total than won (§9, "
                                "G24); null if failed"),
        ("status", "category", "`finished` (every warlord placed, §8), `unfinished` (a log that stops before "
                               "the end: scores as the board stands), `failed` (an error stopped it)"),
        ("error", "string", "failed games: the exception, `Type: message (at file:line)`"),
        ("log", "string", "the game's move log (JSON Lines, docs/formats.md), so any game can be replayed "
                          "(`imperial replay`); for a failed game the actions before the error"),
    ],
    "im_plies": KEY + PLY + [
        ("seat", "Int8", "the seat that decided, or for a draw the seat that drew; null for the start seat and "
                         "the 3-player board (chance)"),
        ("chance", "bool", "a chance action (§7.3): the start seat, the 3-player board, a draw"),
        ("phase", "category", "the decision it answered (`state.decision_name()` before it): `start`, "
                              "`random_board`, `board`, `fortress`, `recruit`, `turn`, `order`, `draw`"),
        ("kind", "category", "the action's type: `start`, `random_board`, `board`, `fortress`, `draw`, `place`, "
                             "`warlord`, `mobilise`, `swap_own`, `swap_enemy`, `retire`"),
        ("action", "string", "the action in the notation of docs/imperia.md, e.g. `place cav/d 3,2 SE`"),
        ("move", "category", "placements (§6.4): `continue` (at the next space N), `campaign` (a new campaign "
                             "from an exit), `warlord_next` (the warlord at N), `warlord_front` (the warlord "
                             "onto the front); null for other actions"),
        ("how", "category", "placements: `empty` (an empty space), `stack` (on an own stack), `battle` (covering "
                            "an enemy unit, §6.3); null for other actions"),
        ("tile_kind", "category", "`gen`, `cav`, `inf` or `war`: the tile placed or drawn, or the soldier that is "
                                  "the front after an order; null otherwise"),
        ("tile_class", "category", "its arrow class: `o` (orthogonal) or `d` (diagonal); null for the warlord and "
                                   "actions without a tile"),
        ("space", "Int8", "where the tile went: the placement's or the fortress's space, for an order the space of "
                          "the new front (§6.6); null otherwise"),
        ("facing", "category", "the arrow's facing given (`N` … `NW`); null for the warlord and setup actions"),
        ("covered_owner", "Int8", "the seat of the tile the placement covered (itself on a `stack`); null on an "
                                  "empty space"),
        ("covered_rank", "Int8", "that tile's rank (infantry 1, cavalry 2, general 3, §1)"),
        ("order_from", "Int8", "orders (§6.6): `mobilise` the stack's space before, `swap_own` the first space, "
                               "`swap_enemy` the own soldier's space; null otherwise"),
        ("order_to", "Int8", "orders: `mobilise` the stack's space after, `swap_own` the second space, "
                             "`swap_enemy` the enemy soldier's space"),
        ("broke_formation", "boolean", "placements and orders: the mover's formation (its largest anchored "
                                       "component, §6.2) has fewer spaces after the action than before; null "
                                       "for other actions"),
    ],
    "im_player_state": KEY + PLY + [
        ("seat", "int8", "seat"),
        ("controlled", "int8", "spaces whose top tile is the seat's (Own(p), §0.3)"),
        ("formation", "int8", "spaces of its scoring formation S(p): the largest anchored component (§9, G22)"),
        ("anchored", "int8", "number of anchored components (§6.2)"),
        ("total", "int16", "provisional score (§9, the board as it stands; final at the last ply)"),
        ("raw", "int16", "its terrain and castle points"),
        ("ring", "int8", "its ring units"),
        ("penalty", "int8", "its spaces beside active enemy warlords"),
        ("castle", "int8", "castle spaces the seat controls"),
        ("ring_held", "int8", "ring spaces the seat controls (in formation or not)"),
        ("units_left", "int8", "units in hand and pile (the warlord not counted)"),
        ("campaigns", "int8", "campaigns started so far (§6.5)"),
        ("battles_won", "int8", "enemy units it covered so far (§6.3)"),
        ("battles_lost", "int8", "of its units, those covered by an enemy so far"),
        ("tallest", "int8", "height of its tallest stack (top tile its own); 0 if none"),
        ("warlord_ply", "Int16", "the ply its warlord was placed; null while it is not"),
        ("hand_gen", "int8", "generals in hand (private: for analysis, never to show to opponents)"),
        ("hand_cav", "int8", "cavalry in hand (private)"),
        ("hand_inf", "int8", "infantry in hand (private)"),
    ],
    "im_space_final": KEY + [
        ("space", "int8", "space `row * 8 + col`"),
        ("row", "int8", "row 0-7 from the north"),
        ("col", "int8", "column 0-7 from the west"),
        ("terrain", "category", "`F` field, `M` mountain, `V` village, `C` castle (§2); null where no board lay"),
        ("value", "int8", "the points it scores: F 1, M 2, V 3, castle 5 (§2.1, §2.3)"),
        ("covered", "bool", "covered with fewer than four players (§2.4): no part in play"),
        ("ring", "bool", "in the ring of the config (G4)"),
        ("fortress", "Int8", "the seat whose fortress stands here; null if none"),
        ("owner", "Int8", "the seat of the top tile; null if the space is empty"),
        ("top_kind", "category", "the top tile's kind: `gen`, `cav`, `inf`, `war`; null if empty"),
        ("height", "int8", "tiles in the stack"),
        ("scored", "bool", "the top tile is in its owner's scoring formation S(p) (§9): the space scored"),
    ],
}

TABLE_ROWS = {
    "im_games": "one row per game",
    "im_plies": "one row per action (ply), chance and setup included",
    "im_player_state": "one row per seat at the end of the setup (the last draw of recruiting, turn 0) and after "
                       "every later action",
    "im_space_final": "one row per space (64 per game) on the last position of a finished or unfinished game",
}

# Category columns over fixed sets: stable codes and order across chunks.
CLOSED = {"status": STATUSES, "phase": PHASES[:-1], "kind": KINDS, "move": MOVES, "how": HOWS,
          "tile_kind": TILE_KINDS, "top_kind": TILE_KINDS, "tile_class": CLASSES, "facing": DIRECTIONS,
          "terrain": TERRAINS, "layout": LAYOUTS, "castle_ring": RINGS}


class GameRecorder(Recorder):
    """Collects the rows of one game from its actions and states.

    ``begin`` with the initial state (``play_game``'s ``on_start``), ``step`` after every action
    (``on_step``), then ``finish`` or ``fail``. ``rows[table]`` holds tuples in the column order of
    ``TABLES[table]``.
    """

    TABLES = TABLES

    def __init__(self, run: str, game_id: int, seed: int | None, setup: str, bots: list[str]):
        super().__init__(run, game_id, seed, setup, bots)
        self._turn = self._decisions = 0
        self._phase = 0
        self._cube: list[int] = []
        self._board: list[tuple] | None = None  # per seat: the figures of the board (``_board_figures``)
        self._placers: list[int] = []
        self._fortress_order: list[int] = []
        self._lost: list[int] = []
        self._warlord_ply: list[int | None] = []

    # ----- hooks -----

    def begin(self, state) -> None:
        self.state = state
        n = state.n
        self._lost, self._warlord_ply = [0] * n, [None] * n
        self._remember(state)
        if state.phase >= P_TURN:  # a game that starts in play (not a position of this engine today)
            self._player_rows(state)

    def step(self, state, player, action, events) -> None:
        self.actions.append((player, action))
        kind = action[0]
        self._decisions += player != CHANCE
        if kind in TURN_ACTIONS:
            self._turn += 1
        before = self._board
        moved = kind in BOARD_ACTIONS
        self.rows["im_plies"].append(self._ply_row(state, player, action, before, moved))
        if kind == BOARD:
            self._placers.append(player)
        elif kind == RANDOM_BOARD:
            self._placers.append(-1)
        elif kind == FORTRESS:
            self._fortress_order.append(player)
        elif kind == WARLORD:
            self._warlord_ply[player] = state.ply
        if state.phase >= P_TURN:
            self._player_rows(state)
        self._remember(state)

    def finish(self, state) -> None:
        self.state = state
        tally = tallies(state)
        totals = tuple(t.total for t in tally)
        winners = tuple(state.winners())
        tied = sum(t == max(totals) for t in totals)
        figures = (totals, tuple(t.raw for t in tally), tuple(t.ring for t in tally),
                   tuple(t.penalty for t in tally), winners, len(winners) > 1, tied > len(winners))
        self._game_row("finished" if state.is_terminal() else "unfinished", figures, None)
        self._space_rows(state, tally)

    def fail(self, state, error: str) -> None:
        """The game stopped on an error: its state may be half-changed, so no figures are read from it."""
        self.state = state if state is not None else self.state
        self._game_row("failed", (None,) * 7, error)

    # ----- per action -----

    def _remember(self, state) -> None:
        self._phase, self._cube = state.phase, list(state.cube)

    def _ply_row(self, state, player: int, a: tuple, before, moved: bool) -> tuple:
        kind = a[0]
        seat = a[1] if kind == DRAW else (None if player == CHANCE else player)
        move = how = tile_kind = tile_class = space = facing = c_owner = c_rank = o_from = o_to = broke = None
        stacks = state.stacks
        if kind == PLACE or kind == WARLORD:
            space = a[2] if kind == PLACE else a[1]
            stack = stacks[space]
            if kind == PLACE:
                t = a[1]
                tile_kind, tile_class, facing = KIND_NAMES[TYPE_KIND[t]], CLASSES[TYPE_CLASS[t]], DIRECTIONS[a[3]]
                move = "campaign" if _event(state, "placed")["campaign"] else "continue"
            else:
                tile_kind = "war"
                move = "warlord_front" if space == self._cube[player] else "warlord_next"
            if len(stack) > 1:
                covered = stack[-2]
                c_owner, c_rank = covered >> 4, INDEX_RANK[covered & 15]
                how = "stack" if c_owner == player else "battle"
                if how == "battle":
                    self._lost[c_owner] += 1
            else:
                how = "empty"
        elif kind in (MOBILISE, SWAP_OWN, SWAP_ENEMY):
            space = state.cube[player]
            top = stacks[space][-1]
            tile_kind = KIND_NAMES[INDEX_KIND[top & 15]]
            tile_class = CLASSES[TYPE_CLASS[state.game.tiles.index_type[top & 15]]]
            facing = DIRECTIONS[a[-1]]
            if kind == MOBILISE:
                o_from, o_to = a[1], space
            else:
                o_from, o_to = a[1], a[2]
        elif kind == DRAW:
            tile_kind, tile_class = KIND_NAMES[TYPE_KIND[a[2]]], CLASSES[TYPE_CLASS[a[2]]]
        elif kind == FORTRESS:
            space = a[1]
        if moved:
            self._board = _board_figures(state)
            broke = before is not None and self._board[player][1] < before[player][1]
        return (*self._key, state.ply, self._turn, seat, player == CHANCE, PHASES[self._phase], KINDS[kind],
                action_text(a), move, how, tile_kind, tile_class, space, facing, c_owner, c_rank, o_from, o_to, broke)

    def _player_rows(self, state) -> None:
        if self._board is None:  # the end of the setup; later, ``_ply_row`` updates it after every move
            self._board = _board_figures(state)
        key, ply, turn = self._key, state.ply, self._turn
        rows = self.rows["im_player_state"]
        for p, figures in enumerate(self._board):
            hand, pile = state.hand[p], state.pile[p]
            rows.append((*key, ply, turn, p, *figures[:9], sum(hand) + sum(pile), state.campaigns[p],
                         state.battles[p], self._lost[p], figures[9], self._warlord_ply[p],
                         sum(hand[g] for g in GENERAL_TYPES), hand[2] + hand[3], hand[4] + hand[5]))

    # ----- at the end -----

    def _space_rows(self, state, tally) -> None:
        scored = [set(t.formation) for t in tally]
        ring, covered = state.game.ring_mask, state.game.covered
        fortress = {s: p for p, s in enumerate(state.fortress) if s >= 0}
        rows = self.rows["im_space_final"]
        for s in range(SPACES):
            stack = state.stacks[s]
            letter = state.terrain[s]
            owner = stack[-1] >> 4 if stack else None
            rows.append((*self._key, s, s >> 3, s & 7, letter if letter in TERRAINS else None,
                         space_points(state, s), bool((covered >> s) & 1), bool((ring >> s) & 1), fortress.get(s),
                         owner, KIND_NAMES[INDEX_KIND[stack[-1] & 15]] if stack else None, len(stack),
                         owner is not None and s in scored[owner]))

    def _game_row(self, status: str, figures: tuple, error: str | None) -> None:
        st = self.state
        config: dict = st.game.config if st is not None else {}
        layout = config.get("layout", "default")
        boards = tuple(f"{b + 1}{SIDES[side]} {QUADRANTS[q]} r{ROTATIONS[r]}" for b, side, q, r in st.boards) \
            if st is not None else ()
        self.rows["im_games"].append((
            *self._key, self.seed, self.setup, st.n if st is not None else len(self.bots),
            ",".join(self.bots) or None, layout if isinstance(layout, str) else "custom",
            config.get("fortress_min_distance", 3), config.get("castle_ring", "touching_12"),
            st.start if st is not None and st.start >= 0 else None, boards, tuple(self._placers),
            tuple(st.fortress) if st is not None else (), tuple(self._fortress_order),
            st.ply if st is not None else 0, self._turn, self._decisions, *figures, status, error, self._log()))



def _event(state, kind: str) -> dict:
    return next(e.data for e in state.events if e.kind == kind)


def _board_figures(state) -> list[tuple]:
    """Per seat: (controlled, formation, anchored, total, raw, ring, penalty, castle, ring_held, tallest)."""
    n, ring = state.n, state.game.ring_mask
    controlled, castle, ring_held, tallest = [0] * n, [0] * n, [0] * n, [0] * n
    for s, stack in enumerate(state.stacks):
        if stack:
            p = stack[-1] >> 4
            controlled[p] += 1
            castle[p] += (CASTLE_MASK >> s) & 1
            ring_held[p] += (ring >> s) & 1
            tallest[p] = max(tallest[p], len(stack))
    out = []
    for p, t in enumerate(tallies(state)):
        anchored = sum(a for _, a in components(state, p)) if controlled[p] else 0
        out.append((controlled[p], len(t.formation), anchored, t.total, t.raw, t.ring, t.penalty, castle[p],
                    ring_held[p], tallest[p]))
    return out


# The opening paragraphs of Imperia's part of docs/data-dictionary.md (imperial_lab.core.tables.data_dictionary).
INTRO = (
    "Imperia's games are four tables (RULES.md §10), recorded by `core/games/imperia/tables.py` through "
    "the same `imperial_lab.core.tables` functions (`record_game`, `record_replay`, `frames`) and stored and catalogued "
    "like Imperial 2030's; their names start with `im_` so that both games' views live in one catalogue. "
    "Every table starts with `run` and `game_id`. A space is the int `row * 8 + col` (row 0 north, column "
    "0 west: 27 is 3,3, a castle space); seats are numbered from 0 in colour order and the start player is "
    "`im_games.start_seat`, so the seat relative to the start player is `(seat - start_seat + players) % "
    "players`. A ply is one action, chance included; a turn is one placement (§5) with the order and the draw "
    "that follow it.",
    "Scores are those of `imperial_lab.core.games.imperia.scoring.tallies`, the game's own result: the last "
    "`im_player_state` rows of a finished game equal `im_games.totals`, and `im_space_final.scored` marks "
    "the spaces of the scoring formations. Hands (`hand_*`) are private information, recorded for analysis "
    "only.",
)


# ----- comparisons of runs (imperial_lab.core.compare) -----

# Seats are counted from the start player (seat 0 of a row is the start player, §3.1): a game draws
# its start player (G25), so the seat as played says nothing about the order of play. Bots, winners
# and scores are turned alike, so a line-up's entrants keep their seats. DuckDB lists are 1-based.
_TURNED = "list_concat({0}[start_seat + 1:], {0}[1:start_seat])"
# Lead changes per finished game: the turns after which the sole leader on the provisional score (the
# last action of the turn, §9 on the board as it stands) differs from the one before; a tie names
# none, and the last sole leader stands until another appears (as Imperial 2030's comparisons count).
# ``8 * (total + 1000) + seat`` orders by score, then seat (totals can be negative, seats are 0-3).
LEAD_CHANGES_SQL = """
SELECT f.run, f.game_id, count(*) FILTER (WHERE x.changed) AS lead_changes
FROM (SELECT run, game_id FROM im_games WHERE status = 'finished' AND run IN ({runs})) f
LEFT JOIN (
    SELECT run, game_id, leader <> lag(leader) OVER (PARTITION BY run, game_id ORDER BY turn) AS changed
    FROM (SELECT run, game_id, turn, max(8 * (total + 1000) + seat) % 8 AS leader
          FROM (SELECT run, game_id, turn, seat, total FROM im_player_state WHERE turn > 0 AND run IN ({runs})
                QUALIFY ply = max(ply) OVER (PARTITION BY run, game_id, turn))
          GROUP BY ALL
          HAVING max(8 * (total + 1000) + seat) % 8 = 7 - max(8 * (total + 1000) + 7 - seat) % 8)) x
USING (run, game_id)
GROUP BY ALL"""
COMPARE_SQL = f"""
SELECT g.run, g.game_id, g.setup, g.players,
       array_to_string({_TURNED.format("string_split(g.bots, ',')")}, ',') AS bots,
       list_transform(g.winners, lambda w: (w - g.start_seat + g.players) % g.players) AS winners,
       {_TURNED.format("g.totals")} AS scores, g.turns AS rounds,
       list_reverse_sort(g.totals)[1] - list_reverse_sort(g.totals)[2] AS margin, lead.lead_changes
FROM (SELECT * FROM im_games WHERE status = 'finished' AND run IN ({{runs}})) g
JOIN ({LEAD_CHANGES_SQL}) lead USING (run, game_id)
ORDER BY g.run, g.game_id"""
COMPARE = {"sql": COMPARE_SQL, "length": "turns", "seats": "counted from the start player (Player A starts)"}
