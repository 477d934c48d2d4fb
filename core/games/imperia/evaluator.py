"""What Imperia's learned evaluator reads (docs/evaluator.md): one row of plain numbers per seat,
the stage of a position, and where a game is sampled.

Only public information (§7.2): the board, each seat's provisional tally (formation points, ring
units, warlord penalty), its warlord and status, and the tiles it has left (hand and pile together,
which everyone knows; the hand alone is hidden). So the same row serves every viewer, and an
analysis shown to a seat never uses another seat's hand.
"""

from __future__ import annotations

from imperial_lab.core.games.imperia.board import CASTLE_MASK, GENERAL, INDEX_KIND, SPACES, TYPE_KIND
from imperial_lab.core.games.imperia.scoring import tallies
from imperial_lab.core.games.imperia.state import P_ORDER, P_TURN

FEATURES = ("total", "raw", "ring", "penalty", "gap", "second_gap", "rank", "share", "controlled", "castle",
            "tops_height", "tiles_left", "generals_left", "warlord_placed", "warlord_height", "retired",
            "to_move", "turn_order", "placed_share", "players", "tiles_per_seat")

TRAINING_BOTS = (("heuristic", 6), ("random", 1), ("mcts:playouts=16", 0.5))
TRAINING_PLAYERS = ((2, 3), (3, 2), (4, 1))
ITERATION_BOTS = (("greedy:margin=0.01:same_draws=0", 3), ("search:playouts=64:c=0.25:prior=0.5", 1), ("heuristic", 2))
RECIPE = {"games": 600, "rounds": 1, "iteration_games": 100}
SAMPLE = 0.5
# The heuristic looks ahead over every action (about 2 ms a decision): asked at every node it takes
# nine tenths of the search's time, but without it (uniform order) the search won 1 of 8 games
# against the heuristic instead of 3 of 8 (200 playouts): kept.
SEARCH_PRIOR = True
LEAF_DECISIONS = 6  # decisions a playout of search or greedy may take to reach the next checkpoint

STAGES = ("first round", "to a quarter placed", "to half placed", "to three quarters", "last quarter")


def _placed_share(state) -> float:
    total = state.n * sum(state.game.tiles.total)
    left = sum(sum(h) + sum(p) for h, p in zip(state.hand, state.pile))
    return 1 - left / total if total else 0.0


def stage(state) -> int:
    """The index in STAGES: the first round of placements, then by the share of tiles placed."""
    share = _placed_share(state)
    if share * sum(state.game.tiles.total) < 1 + 3 / state.n:  # each seat's first tile or so
        return 0
    return min(1 + int(share * 4), len(STAGES) - 1)


def checkpoint(state) -> bool:
    """A seat's turn begins (a placement): the steps of the analysis and the training positions."""
    return state.phase == P_TURN


def started(state) -> bool:
    """The boards and fortresses are placed and the seats hold tiles: setup is over."""
    return state.phase >= P_TURN


def features(state) -> list[list[float]]:
    """One row of FEATURES per seat (see the module docstring)."""
    n = state.n
    tally = tallies(state)
    totals = [t.total for t in tally]
    controlled, castle, height = [0] * n, [0] * n, [0] * n
    for s in range(SPACES):
        stack = state.stacks[s]
        if stack and INDEX_KIND[stack[-1] & 15] >= 0:
            p = stack[-1] >> 4
            controlled[p] += 1
            castle[p] += (CASTLE_MASK >> s) & 1
            height[p] += len(stack)
    per_seat = sum(state.game.tiles.total)
    placed = _placed_share(state)
    order = sorted(totals, reverse=True)
    whole = sum(max(t, 0) for t in totals) or 1
    to_move = state.current if state.phase in (P_TURN, P_ORDER) else -1
    rows = []
    for p in range(n):
        rivals = sorted((totals[q] for q in range(n) if q != p), reverse=True)
        left = [h + k for h, k in zip(state.hand[p], state.pile[p])]
        rows.append([totals[p], tally[p].raw, tally[p].ring, tally[p].penalty, totals[p] - rivals[0],
                     totals[p] - (rivals[1] if len(rivals) > 1 else rivals[0]), order.index(totals[p]),
                     max(totals[p], 0) / whole, controlled[p], castle[p], height[p], sum(left),
                     sum(c for t, c in enumerate(left) if TYPE_KIND[t] == GENERAL), float(state.warlord[p] >= 0),
                     tally[p].warlord_height, float(state.status[p] == 2), float(to_move == p),
                     (p - max(state.start, 0)) % n, placed, n, per_seat])
    return rows


def move_words(state, action) -> str:
    """The action, about to be taken in ``state``, as the seat taking it reads it (texts.py)."""
    from imperial_lab.core.session import texts_for

    player = state.current_player()
    return texts_for(state.game.name).seen_text(state, player, state.action_to_string(action), player)
