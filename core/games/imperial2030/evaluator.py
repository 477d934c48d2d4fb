"""What Imperial 2030's learned evaluator reads (docs/evaluator.md): one row of plain numbers per
seat, the stage of a position, and where a game is sampled.

Imperial 2030 hides nothing once the flag cards are dealt, so every feature is public. A seat's row
holds its own standing (cash, scores now and projected, bonds, governments, the investor card, a
Swiss bank), its gaps to the best rival, its interest in each nation and whether it governs it, and
then the same context for every seat: each nation's power points, treasury, factories, units and
rondel place, the round, the leader's power points and the number of players. Nations keep their
identity (the map is not symmetric); seats do not (a seat is "me" or "the rivals").

``features`` is in the hot path of search: plain Python over the state's lists, no pandas.
"""

from __future__ import annotations

from imperial_lab.core.games.imperial2030.data import NATIONS
from imperial_lab.core.games.imperial2030.pending import P_DEAL, P_TURN, P_VARIANT
from imperial_lab.core.games.imperial2030.search import expected_power_points, softmax, temperature

_SEAT = ("cash", "score", "projected", "interest", "bond_value", "governments", "gov_treasury", "gov_units",
         "gov_factories", "projected_gap", "score_gap", "projected_share", "rank", "investor_card", "swiss",
         "to_move", "leader_credit", "hook")
_OWN = tuple(f"interest_{code}" for code in NATIONS) + tuple(f"governs_{code}" for code in NATIONS)
_NATION = tuple(f"{what}_{code}" for code in NATIONS
                for what in ("pp", "expected_pp", "treasury", "factories", "occupied", "units", "flags", "rondel",
                             "governed"))
_CONTEXT = ("round", "max_pp", "players", "nation_turns")
FEATURES = _SEAT + _OWN + _NATION + _CONTEXT

# The training games (docs/evaluator.md): bot specs drawn per seat by weight, player counts by weight.
TRAINING_BOTS = (("heuristic", 4), ("heuristic:temperature=0.1", 2), ("heuristic:temperature=1", 2),
                 ("random", 1), ("mcts:playouts=8:depth=40", 0.25))
TRAINING_PLAYERS = ((2, 1), (3, 2), (4, 4), (5, 2), (6, 1))
# Setups (name, weight, players: None draws them from TRAINING_PLAYERS): the shipped ones too, so
# that a setup's start chances (the Compare page) are judged on positions like those trained on.
TRAINING_SETUPS = (("standard", 8, None), ("variant", 1, None), ("three_nations_each", 1, 4),
                   ("heuristic_tuned_4p", 1, 4), ("three_way_split", 0.5, 3), ("two_powers", 0.5, 4))
# Setups renamed since the shipped model was trained, with the name its games carried: the search
# bots draw from what a seat observes, the setup's name included, so the model rebuilds exactly only
# when the games carry the old name.
TRAINED_AS = {"heuristic_tuned_4p": "balanced_4p"}
# Expert iteration: games where the bots on the model of the round before take seats (greedy at the
# margin and the draws the shipped model was trained with).
ITERATION_BOTS = (("greedy:margin=0.01:same_draws=0", 3), ("search:playouts=64:c=0.25:prior=0.5", 1), ("heuristic", 2))
RECIPE = {"games": 1500, "rounds": 1, "iteration_games": 150, "epochs": 40}
SAMPLE = 0.3  # the share of a game's checkpoints kept as training positions
LEAF_DECISIONS = 40  # decisions a playout of search or greedy may take to reach the next checkpoint

# Stages by round (a four-player game lasts about 12 rounds): "the first round" is stage 0.
STAGES = ("round 1", "rounds 2-3", "rounds 4-6", "rounds 7-9", "rounds 10-12", "rounds 13+")
_STAGE_OF_ROUND = (0, 0, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4)


def stage(state) -> int:
    """The index in STAGES of a position's stage of the game."""
    return _STAGE_OF_ROUND[state.round] if state.round < len(_STAGE_OF_ROUND) else len(STAGES) - 1


def checkpoint(state) -> bool:
    """A nation's turn begins (its government chooses a rondel space): the steps of the analysis and
    the positions sampled for training."""
    return not state.terminal and state.pending[0] == P_TURN


def started(state) -> bool:
    """The deal is over: positions before it have no seats' holdings to judge."""
    return state.pending[0] not in (P_DEAL, P_VARIANT)


def features(state) -> list[list[float]]:
    """One row of FEATURES per seat (see the module docstring)."""
    n = state.nplayers
    board = state.board
    expected = expected_power_points(state)
    factor = [pp / 5 for pp in expected]
    pf = [min(pp, 25) // 5 for pp in state.pp]
    cost = board.bond_cost
    cash = state.cash
    interest = [[0] * 6 for _ in range(n)]
    credit = [[0] * 6 for _ in range(n)]
    for k, p in enumerate(state.owner):
        if p >= 0:
            interest[p][k // 9] += k % 9 + 1
            credit[p][k // 9] += cost[k % 9]
    score = [cash[p] + sum(i * f for i, f in zip(interest[p], pf)) for p in range(n)]
    projected = [cash[p] + sum(i * f for i, f in zip(interest[p], factor)) for p in range(n)]
    factories = [sum(1 for r in board.homes[x] if state.factory[r]) for x in range(6)]
    units = [state.n_armies[x] + state.n_fleets[x] for x in range(6)]
    nation_rows = []
    for x in range(6):
        occupied = sum(1 for r in board.homes[x] if state.factory[r] and state.occ[r])
        nation_rows += [state.pp[x], expected[x], state.treasury[x], factories[x], occupied, units[x],
                        state.flag_count[x], state.rondel[x], float(state.gov[x] >= 0)]
    max_pp = max(state.pp)
    leader = max(range(6), key=lambda x: (state.pp[x], -x))
    context = [state.round, max_pp, n, state.nation_turns]
    total = sum(projected) or 1.0
    order = sorted(projected, reverse=True)
    to_move = state.current_player()
    hook = softmax(projected, temperature(state))  # the evaluate hook (search.py), a strong late feature
    rows = []
    for p in range(n):
        governed = [x for x in range(6) if state.gov[x] == p]
        best_rival = max(projected[q] for q in range(n) if q != p)
        best_rival_now = max(score[q] for q in range(n) if q != p)
        leader_credit = credit[p][leader] / (sum(credit[q][leader] for q in range(n)) or 1)
        row = [cash[p], score[p], projected[p], sum(interest[p]), projected[p] - cash[p], len(governed),
               sum(state.treasury[x] for x in governed), sum(units[x] for x in governed),
               sum(factories[x] for x in governed), projected[p] - best_rival, score[p] - best_rival_now,
               projected[p] / total, order.index(projected[p]), float(state.card == p), float(state.swiss[p]),
               float(to_move == p), leader_credit, hook[p]]
        row += interest[p]
        row += [float(state.gov[x] == p) for x in range(6)]
        rows.append(row + nation_rows + context)
    return rows


def move_words(state, action) -> str:
    """The action, about to be taken in ``state``, in plain words (action_words.py)."""
    from imperial_lab.core.games.imperial2030.action_words import action_words

    return action_words(state.action_to_string(action), state.to_json())
