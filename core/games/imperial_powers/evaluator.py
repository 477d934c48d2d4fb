"""What Imperial Powers' learned evaluator reads (docs/evaluator.md): one row of plain numbers per
seat, the stage of a position, and where a game is sampled.

Only public information (§6.2): VP by source, the influence on the map and the awards it pays each
Score Phase, region leads, how many cards each seat holds and has bid (never which), its power and
development cards in play, the Score Phases left. The existing ``evaluate`` hook counts the bids on
the strips as revealed, which no seat may see before the Reveal; these rows do not, so the same
row serves every viewer.
"""

from __future__ import annotations

from imperial_lab.core.games.imperial_powers.data import data
from imperial_lab.core.games.imperial_powers.rules import REGIONS, awards, leader_of, vp_totals
from imperial_lab.core.games.imperial_powers.search import scorings_left
from imperial_lab.core.games.imperial_powers.state import P_BID, P_POWER

D = data()
POWERS = len(D.powers)
FEATURES = (("vp", "vp_gap", "vp_second_gap", "vp_rank", "paid", "paid_gap", "held", "held_share", "leads",
             "hand", "strip", "dev_hand", "instigator", "to_move", "scorings_left", "turn", "players")
            + tuple(f"power_{k}" for k in range(POWERS)))

TRAINING_BOTS = (("heuristic", 5), ("heuristic:temperature=1", 2), ("random", 1),
                 ("mcts:playouts=8:depth=20", 0.25))
TRAINING_PLAYERS = ((3, 1), (4, 2), (5, 1))
ITERATION_BOTS = (("greedy:margin=0.01:same_draws=0", 3), ("search:playouts=16:c=0.25:prior=0.5", 1), ("heuristic", 2))
RECIPE = {"games": 1000, "rounds": 1, "iteration_games": 80}
SAMPLE = 1.0
LEAF_DECISIONS = 4  # decisions a playout of search or greedy may take to reach the next checkpoint

STAGES = ("turn 1", "turns 2-3", "turns 4-5", "turns 6-7", "turns 8+")
_STAGE_OF_TURN = (0, 0, 1, 1, 2, 2, 3, 3)


def stage(state) -> int:
    return _STAGE_OF_TURN[state.turn] if state.turn < len(_STAGE_OF_TURN) else len(STAGES) - 1


def checkpoint(state) -> bool:
    """A Bid begins (the first seat's first card of the turn's Bid Phase): once a turn, every seat's
    hand dealt. The steps of the analysis are every decision (``started``)."""
    return state.phase == P_BID and not any(state.strip)


def started(state) -> bool:
    """Powers are chosen and the first cards dealt: the seats have something to judge."""
    return state.phase > P_POWER


def features(state) -> list[list[float]]:
    """One row of FEATURES per seat (see the module docstring)."""
    n, inf = state.n, state.influence
    vp = vp_totals(state)
    paid, held, leads = [0.0] * n, [0.0] * n, [0] * n
    for x in range(REGIONS):
        row = [inf[x * n + p] for p in range(n)]
        got = awards(row, state.resources[x] + state.power_counters[x], state.game.tie_rule)
        lead = leader_of(row)
        if lead >= 0:
            got[lead] += D.spain_vp[state.powers[lead]]
            leads[lead] += 1
        for p in range(n):
            paid[p] += got[p]
            held[p] += row[p]
    left = scorings_left(state)
    whole = sum(held) or 1.0
    order = sorted(vp, reverse=True)
    rows = []
    for p in range(n):
        rivals = sorted((vp[q] for q in range(n) if q != p), reverse=True)
        strip = sum(len(state.strip[p * REGIONS + x]) for x in range(REGIONS))
        power = [0.0] * POWERS
        if state.powers[p] >= 0:
            power[state.powers[p]] = 1.0
        rows.append([vp[p], vp[p] - rivals[0], vp[p] - rivals[min(1, len(rivals) - 1)], order.index(vp[p]),
                     paid[p], paid[p] - max(paid[q] for q in range(n) if q != p), held[p], held[p] / whole,
                     leads[p], len(state.hand[p]), strip, len(state.dev_hand[p]), float(state.instigator == p),
                     float(state.current == p and not state.is_chance_node()), left, state.turn, n] + power)
    return rows


def move_words(state, action) -> str:
    """The action, about to be taken in ``state``, as the seat taking it reads it (texts.py)."""
    from imperial_lab.core.session import texts_for

    player = state.current_player()
    return texts_for(state.game.name).seen_text(state, player, state.action_to_string(action), player)
