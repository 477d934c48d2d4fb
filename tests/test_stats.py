"""imperial_lab.core.stats against closed forms written out here and against scipy, on fixed data (issue 9.2),
and its fairness statistics (issue 24) by simulation: the seats' intervals and the gap's interval hold
their coverage in fair and unfair games, the equivalence verdict's three outcomes and its error rate
at the margin, the games a decision takes, the 1/k split of shared wins. The default suite draws a
few hundred replicates with NumPy (seeded: the same figures every run); the larger ones are slow."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from scipy import stats as sps

from imperial_lab.core import stats


def test_wilson_known_values_and_no_games():
    assert stats.wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert stats.wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert all(math.isnan(x) for x in stats.wilson(0, 0))


def test_mean_ci_is_students_t():
    mean, low, high = stats.mean_ci([1, 2, 3])  # sd 1, t(0.975, 2) = 4.3027
    assert (mean, low, high) == pytest.approx((2, 2 - 4.3027 / math.sqrt(3), 2 + 4.3027 / math.sqrt(3)), abs=1e-4)
    assert math.isnan(stats.mean_ci([7])[1]) and math.isnan(stats.mean_ci([])[0])


def test_mean_difference_is_welchs_at_the_family_level():
    a, b = np.array([3.0, 5, 4, 6, 7, 5]), np.array([2.0, 3, 2, 4, 1, 3, 2])
    va, vb = a.var(ddof=1) / len(a), b.var(ddof=1) / len(b)
    df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
    half = sps.t.ppf(0.975, df) * math.sqrt(va + vb)
    diff, low, high, p = stats.mean_difference(a, b)
    assert diff == pytest.approx(a.mean() - b.mean())
    assert (low, high) == pytest.approx((diff - half, diff + half))
    assert p == pytest.approx(2 * sps.t.sf(diff / math.sqrt(va + vb), df))
    wider = stats.mean_difference(a, b, tests=10)  # Bonferroni: the interval of one test of ten
    assert wider[1] == pytest.approx(diff - sps.t.ppf(1 - 0.05 / 20, df) * math.sqrt(va + vb)) and wider[3] == p
    assert stats.mean_difference([2, 2], [2, 2]) == (0.0, 0.0, 0.0, 1.0)
    assert stats.mean_difference([3, 3], [2, 2])[3] == 0.0


def test_equal_shares_is_chi_square():
    assert stats.even_shares([25, 25, 25, 25]) == pytest.approx(1.0)
    assert stats.even_shares([30, 10]) == pytest.approx(sps.chi2.sf(10, 1))
    assert stats.even_shares([0, 0, 0]) == 1.0


def test_scores_differ_is_hotellings_t2_on_the_seats_but_one():
    rng = np.random.default_rng(3)
    scores = rng.normal(50, 10, size=(40, 4)) + np.array([4.0, 0, -2, -2])
    dev = scores - scores.mean(axis=1, keepdims=True)
    x = dev[:, :-1]
    n, k = x.shape
    mean, cov = x.mean(axis=0), np.cov(x, rowvar=False)
    t2 = n * mean @ np.linalg.solve(cov, mean)
    f = (n - k) / (k * (n - 1)) * t2
    assert stats.scores_differ(dev) == pytest.approx(sps.f.sf(f, k, n - k))
    assert math.isnan(stats.scores_differ(np.zeros((10, 4))))  # nothing varies: no test
    assert math.isnan(stats.scores_differ(dev[:3]))  # fewer games than seats


def test_scores_differ_of_two_seats_is_the_one_variable_t2():
    """Two seats leave one variable, where Hotelling's T² = n·mean²/var follows F(1, n − 1)."""
    rng = np.random.default_rng(4)
    a = rng.normal(1.5, 4, size=30)
    dev = np.c_[a, -a]
    n, t2 = len(a), len(a) * a.mean() ** 2 / a.var(ddof=1)
    assert stats.scores_differ(dev) == pytest.approx(sps.f.sf(t2, 1, n - 1))
    assert math.isnan(stats.scores_differ(np.zeros((10, 2))))


def test_holm_matches_the_step_down_by_hand_and_keeps_undefined_tests():
    assert stats.holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    adjusted = stats.holm([0.01, math.nan, 0.02])
    assert adjusted[0] == pytest.approx(0.02) and math.isnan(adjusted[1]) and adjusted[2] == pytest.approx(0.02)
    assert stats.holm([]) == []


def test_format_p():
    assert stats.format_p(0.0004) == "p < 0.001" and stats.format_p(0.0123) == "p = 0.012"
    assert stats.format_p(math.nan) == "p undefined"


# ----- seats' shares (issue 24) -----

REPLICATES = 400
SLACK = 2 * math.sqrt(0.05 * 0.95 / REPLICATES)  # two standard errors of a coverage of 95% over the replicates


def draws(shares, games: int, replicates: int = REPLICATES, seed: int = 24) -> np.ndarray:
    """Seat win counts of ``replicates`` simulated cells of ``games`` games won with the true ``shares``."""
    return np.random.default_rng(seed).multinomial(games, shares, size=replicates)


def coverage(shares, games: int, tests: int, replicates: int = REPLICATES) -> float:
    """How often every seat's interval (``share_ci`` at ``tests``) holds its true share at once."""
    counts = draws(shares, games, replicates)
    low, high = stats.share_ci(counts, games, tests)
    return float(((low <= shares) & (shares <= high)).all(axis=1).mean())


def test_a_shared_win_splits_among_its_winners():
    shares = stats.win_shares([[0], [1, 2], [0, 1, 2, 3], []], 4)
    assert shares.tolist() == [[1, 0, 0, 0], [0, 0.5, 0.5, 0], [0.25] * 4, [0] * 4]
    assert shares[:3].sum(axis=1).tolist() == [1, 1, 1]  # every game hands out one win


def test_the_seats_intervals_are_exact_and_agree_with_their_tests():
    """Clopper-Pearson intervals (statsmodels' "beta") at the family's Bonferroni level; a seat's exact
    test is significant exactly when its interval leaves out the fair share, shared wins (halves)
    included."""
    from statsmodels.stats.proportion import proportion_confint

    counts = np.array([310, 240.5, 249.5, 200])
    low, high = stats.share_ci(counts, 1000, tests=28)
    assert np.c_[low, high] == pytest.approx(np.c_[proportion_confint(counts, 1000, 0.05 / 28, "beta")])
    assert stats.share_p(30, 100, 0.25) == pytest.approx(2 * sps.binom.sf(29, 100, 0.25))  # twice the upper tail
    assert stats.share_p(0, 10, 0.25) == pytest.approx(2 * 0.75 ** 10)
    for tests in (1, 4, 28):
        counts = draws([0.28, 0.25, 0.25, 0.22], 600, 200) + 0.5 * (np.arange(4) == 1)  # a shared win or two
        low, high = stats.share_ci(counts, 600, tests)
        excluded = (low > 0.25) | (high < 0.25)
        significant = stats.bonferroni(stats.share_p(counts, 600, 0.25), tests) < stats.ALPHA
        assert (excluded == significant).all()


@pytest.mark.parametrize("shares, games, tests", [
    ([0.25] * 4, 200, 4),  # a fair game, one cell
    ([0.25] * 4, 1000, 28),  # a fair game, a setup's family over the ladder
    ([0.31, 0.25, 0.24, 0.20], 500, 4),  # a known edge
    ([0.40, 0.10, 0.09, 0.23, 0.18], 300, 35),  # five powers, very unequal
])
def test_the_seats_intervals_hold_together_at_least_95_percent_of_the_time(shares, games, tests):
    assert coverage(np.array(shares), games, tests) >= 0.95 - SLACK


def test_the_gap_interval_holds_its_coverage_in_fair_and_unfair_games():
    """The gap between the best and the worst seat: its interval from the simultaneous intervals holds
    the true gap at least 95% of the time, fair (gap 0: the old bootstrap never held it) or not, and
    always holds its own estimate."""
    for shares, games in (([0.25] * 4, 400), ([0.29, 0.25, 0.25, 0.21], 800), ([0.35, 0.3, 0.2, 0.15], 300)):
        shares = np.array(shares)
        truth = shares.max() - shares.min()
        counts = draws(shares, games)
        lows, highs = stats.share_ci(counts, games, 4)
        held = 0
        for low, high, count in zip(lows, highs, counts):
            gap_low, gap_high = stats.gap_ci(low, high)
            estimate = (count.max() - count.min()) / games
            assert gap_low <= estimate <= gap_high
            held += gap_low <= truth <= gap_high
        assert held / REPLICATES >= 0.95 - SLACK, (shares, held)


def test_the_verdict_has_three_outcomes():
    assert stats.verdict([0.23, 0.235, 0.24, 0.23], [0.27, 0.265, 0.26, 0.27], 0.25) == "fair"
    assert stats.verdict([0.30, 0.2, 0.2, 0.2], [0.36, 0.3, 0.3, 0.3], 0.25) == "unfair"
    assert stats.verdict([0.20, 0.2, 0.2, 0.2], [0.30, 0.3, 0.3, 0.3], 0.25) == "undecided"
    assert stats.verdict([0.26, 0.19], [0.31, 0.3], 0.25, margin=0.05) == "undecided"  # an edge, not shown beyond
    assert stats.verdict([0.27, 0.2], [0.29, 0.3], 0.25, margin=0.01) == "unfair"


def verdicts(shares, games, tests=4, margin=stats.MARGIN, replicates=REPLICATES) -> dict:
    counts = draws(np.array(shares), games, replicates)
    lows, highs = stats.share_ci(counts, games, tests)
    found = [stats.verdict(low, high, 1 / len(shares), margin) for low, high in zip(lows, highs)]
    return {v: found.count(v) / replicates for v in stats.VERDICTS}


def test_a_setup_is_seldom_called_fair_when_a_seat_sits_on_the_margin():
    """The equivalence claim's error: a seat exactly 3 points off (the margin) is shown fair within
    ±3 points at most 5% of the time, at any number of games."""
    for games in (1000, 5000):
        assert verdicts([0.28, 0.24, 0.24, 0.24], games)["fair"] <= 0.05


def test_the_verdict_of_fair_unfair_and_short_runs():
    assert verdicts([0.25] * 4, 20_000)["fair"] >= 0.95  # fair and many games: shown fair
    assert verdicts([0.37, 0.21, 0.21, 0.21], 1000)["unfair"] >= 0.95  # 12 points off: shown unfair
    assert verdicts([0.25] * 4, 200)["undecided"] == 1.0  # 200 games cannot show ±3 points


def test_games_to_decide_are_about_enough():
    """At the games a power calculation asks for, the simulated cells decide at least POWER of the
    time: a clear edge is shown unfair, a fair game fair (its every seat inside the margin)."""
    for shares, expected in (([0.35, 0.25, 0.20, 0.20], "unfair"), ([0.25] * 4, "fair")):
        n = stats.games_to_decide(shares, 0.25, tests=4)
        rate = verdicts(shares, n)[expected]
        assert stats.POWER - SLACK <= rate <= 1, (shares, n, rate)
    assert stats.games_to_decide([0.28, 0.24, 0.24, 0.24], 0.25) == stats.MAX_GAMES_TO_DECIDE  # on the margin


def test_share_difference_is_newcombes_interval_and_the_test_that_inverts_it():
    from statsmodels.stats.proportion import confint_proportions_2indep

    diff, low, high, p = stats.share_difference(310.5, 1000, 250, 1000, tests=7)
    assert diff == pytest.approx(0.0605)
    assert (low, high) == pytest.approx(confint_proportions_2indep(310.5, 1000, 250, 1000, method="newcomb",
                                                                   alpha=0.05 / 7))
    for tests in (1, 7, 42):  # the interval at the level of `tests` leaves 0 out exactly when p · tests < α
        for a, b in ((310, 250), (280, 250), (0, 9), (100, 100), (30, 0)):
            _, low, high, p = stats.share_difference(a, 1000, b, 1000, tests)
            assert (low > 0 or high < 0) == (p * tests < 0.05), (a, b, tests)
    assert stats.share_difference(0, 10, 0, 12) == (0.0, 0.0, 0.0, 1.0)


def test_games_to_tell_apart_is_statsmodels_power_for_two_shares():
    n = stats.games_to_tell_apart(0.30, 0.25, tests=7)
    rng = np.random.default_rng(5)
    found = [stats.share_difference(a, n, b, n, 7)[3] * 7 < 0.05
             for a, b in zip(rng.binomial(n, 0.30, 200), rng.binomial(n, 0.25, 200))]
    assert 0.7 <= np.mean(found) <= 0.9  # about POWER of the time


def test_the_trend_is_the_ols_slope_with_robust_errors():
    position = np.repeat([0, 1, 2], 300)
    rng = np.random.default_rng(2)
    share = (rng.random(900) < 0.2 + 0.1 * position).astype(float)
    slope, low, high, p = stats.trend(position, share, tests=4)
    assert slope == pytest.approx(np.polyfit(position, share, 1)[0])
    assert low < 0.1 < high and p < 0.001
    assert all(math.isnan(x) for x in stats.trend([1, 1, 1], [0, 1, 0]))  # one rung: no slope
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # statsmodels divides by the residual degrees of freedom: none here
        assert all(math.isnan(x) for x in stats.trend([0, 1], [0, 1]))  # a game a rung: no error to measure


def test_seat_figures_of_a_cell():
    figures = stats.seat_figures([400, 200, 200, 200], 1000, tests=28)
    assert figures["verdict"] == "unfair" and figures["games_to_decide"] is None
    assert figures["edge"] == pytest.approx(0.15) and figures["gap"] == pytest.approx(0.2)
    low, high = stats.share_ci(np.array([400.0, 200, 200, 200]), 1000, 28)
    assert figures["win_rate_ci"] == [list(pair) for pair in zip(low, high)]
    assert figures["gap_ci"] == list(stats.gap_ci(low, high))
    undecided = stats.seat_figures([26, 24, 25, 25], 100, tests=4)
    assert undecided["verdict"] == "undecided" and undecided["games_to_decide"] > 100


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_coverage_holds_over_many_replicates_and_sizes(players):
    """The larger check (opt-in): 4,000 replicates a case, fair and unfair shares, from 100 to 5,000
    games, one cell and a family of a setup's ladder."""
    par = 1 / players
    unfair = np.full(players, par)
    unfair[0], unfair[-1] = par + 0.04, par - 0.04
    for shares in (np.full(players, par), unfair):
        for games in (100, 1000, 5000):
            for tests in (players, players * 7):
                assert coverage(shares, games, tests, 4000) >= 0.95 - 2 * math.sqrt(0.05 * 0.95 / 4000)
