"""Final scoring and tie-breaks (RULES.md §10, §11 Q14): T22, equal power points, shared wins."""

from __future__ import annotations

from imperial_lab.core.games.imperial2030.data import NATIONS
from tests.builders import position
from tests.rule_asserts import assert_illegal

T22_PP = {"RU": 25, "CN": 17, "IN": 12, "BR": 9, "US": 4, "EU": 12}  # PF 5, 3, 2, 1, 0, 2


def ended(cash, bonds, pp=None, players=None):
    """A finished game (decision game_over) with the T22 power points unless ``pp`` is given."""
    pp = pp or T22_PP
    nations = {code: {"power_points": pp[code], "government": None} for code in NATIONS}
    s = position(players=players or len(cash), cash=cash, bonds=bonds, nations=nations, nation="RU",
                 decision={"kind": "game_over"})
    assert s.is_terminal()
    return s


def test_t22_final_scoring_and_tie_break():
    """T22 (§10): A = 4x5 + 5x3 + 7 = 42; B = 3x5 + 1x5 + 9x0 + 4x2 + 14 = 42; tie → credit sums in
    RU (most PP): A 9, B 8 → A wins."""
    s = ended([7, 14], {0: ["RU 4", "CN 5"], 1: ["RU 3", "RU 1", "US 9", "IN 4"]})
    assert s.returns() == [42.0, 42.0]
    assert s.winners() == [0]


def test_10_higher_score_wins_whatever_the_credit_sums():
    """§10: the tie-break only applies to equal scores (B one point ahead wins despite A's RU credit)."""
    s = ended([7, 15], {0: ["RU 4", "CN 5"], 1: ["RU 3", "RU 1", "US 9", "IN 4"]})
    assert s.returns() == [42.0, 43.0]
    assert s.winners() == [1]


def tie_down_to_in_and_eu(pp):
    """A and B score 50 each with equal credit sums in RU (6/6) and CN (6/6); A leads in IN (9 vs 6),
    B in EU (12 vs 2); BR and US bonds: none."""
    return ended([16, 10], {0: ["RU 3", "CN 3", "IN 4", "EU 1"], 1: ["RU 2", "RU 1", "CN 2", "CN 1", "IN 3", "EU 5"]},
                 pp=pp)


def test_t22_equal_pp_compared_in_turn_order():
    """T22 / §10 [R]: IN and EU both have 12 PP → compared in turn order, IN before EU → A wins."""
    s = tie_down_to_in_and_eu(T22_PP)
    assert s.returns() == [50.0, 50.0]
    assert s.winners() == [0]


def test_10_tie_break_follows_pp_not_turn_order():
    """§10: with EU at 13 PP (still PF 2) EU comes before IN in the tie-break → B wins."""
    s = tie_down_to_in_and_eu(T22_PP | {"EU": 13})
    assert s.returns() == [50.0, 50.0]
    assert s.winners() == [1]


def test_10_tie_break_goes_past_the_first_nation():
    """§10 (Q14): A = 3x5 + 2x3 + 10 = 31, B = 2x5 + 1x5 + 1x3 + 1x1 + 12 = 31; RU credit tied
    (6 = 4 + 2) → CN (17 PP, second most) decides: A 4 > B 2."""
    s = ended([10, 12], {0: ["RU 3", "CN 2"], 1: ["RU 2", "RU 1", "CN 1", "BR 1"]})
    assert s.returns() == [31.0, 31.0]
    assert s.winners() == [0]  # RU 6 = 6, CN 4 > 2


def test_10_shared_win_when_tied_everywhere():
    """§10 [R]: equal scores and equal credit sums in all six nations → the win is shared; a player
    with a lower score is not among the winners (A: RU 6m, B: RU 4m + 2m, both 3x5 + 10 = 25)."""
    s = ended([10, 10, 5], {0: ["RU 3"], 1: ["RU 2", "RU 1"]})
    assert s.returns() == [25.0, 25.0, 5.0]
    assert s.winners() == [0, 1]


def test_10_scores_count_interest_times_power_factor_plus_cash():
    """§10: score = Σ interest x PF of the bond's nation + cash (PF = ⌊PP/5⌋)."""
    s = ended([3, 0, 1], {0: ["BR 9", "US 9"], 1: ["EU 6", "CN 1"], 2: []})
    assert s.returns() == [9 * 1 + 9 * 0 + 3, 6 * 2 + 1 * 3, 1.0]


def test_10_finished_game_accepts_no_action():
    """§10: a finished game refuses every action under §10 and stays unchanged."""
    s = ended([7, 14], {0: ["RU 4", "CN 5"], 1: ["RU 3", "RU 1", "US 9", "IN 4"]})
    assert s.legal_actions() == []
    assert_illegal(s, "rondel factory", "§10", match="the game is over")
