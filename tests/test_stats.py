"""imperial_lab.core.stats against closed forms written out here and against scipy, on fixed data (issue 9.2)."""

from __future__ import annotations

import math

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


def test_rate_difference_is_newcombes_hybrid_score_interval():
    """Newcombe (1998), method 10: the Wilson intervals of both rates combined."""
    k1, n1, k2, n2 = 56, 70, 48, 80
    p1, p2 = k1 / n1, k2 / n2
    (l1, u1), (l2, u2) = stats.wilson(k1, n1), stats.wilson(k2, n2)
    diff, low, high, p = stats.rate_difference(k1, n1, k2, n2)
    assert diff == pytest.approx(p1 - p2)
    assert low == pytest.approx(p1 - p2 - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2), abs=1e-9)
    assert high == pytest.approx(p1 - p2 + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2), abs=1e-9)
    table = [[k1, n1 - k1], [k2, n2 - k2]]
    assert p == pytest.approx(sps.chi2_contingency(table, correction=False).pvalue)
    assert stats.rate_difference(0, 10, 0, 12)[3] == 1.0


def test_mean_difference_is_welchs():
    a, b = np.array([3.0, 5, 4, 6, 7, 5]), np.array([2.0, 3, 2, 4, 1, 3, 2])
    va, vb = a.var(ddof=1) / len(a), b.var(ddof=1) / len(b)
    df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
    half = sps.t.ppf(0.975, df) * math.sqrt(va + vb)
    diff, low, high, p = stats.mean_difference(a, b)
    assert diff == pytest.approx(a.mean() - b.mean())
    assert (low, high) == pytest.approx((diff - half, diff + half))
    assert p == pytest.approx(2 * sps.t.sf(diff / math.sqrt(va + vb), df))
    assert stats.mean_difference([2, 2], [2, 2]) == (0.0, 0.0, 0.0, 1.0)
    assert stats.mean_difference([3, 3], [2, 2])[3] == 0.0


def test_equal_shares_and_homogeneity_are_chi_square():
    assert stats.even_shares([25, 25, 25, 25]) == pytest.approx(1.0)
    assert stats.even_shares([30, 10]) == pytest.approx(sps.chi2.sf(10, 1))
    assert stats.even_shares([0, 0, 0]) == 1.0
    table = np.array([[30, 10, 10, 0], [12, 14, 14, 0]])  # an outcome no game had is left out (2 df, not 3)
    expected = np.outer(table.sum(1), table.sum(0)) / table.sum()
    keep = table.sum(0) > 0
    chi2 = ((table[:, keep] - expected[:, keep]) ** 2 / expected[:, keep]).sum()
    assert stats.homogeneity(table) == pytest.approx(sps.chi2.sf(chi2, 2))


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


def test_gap_bootstrap_resamples_games_through_their_outcomes():
    wins = np.array([[1, 0, 0]] * 30 + [[0, 1, 0]] * 15 + [[0, 0, 1]] * 5 + [[1, 1, 0]] * 2, dtype=float)
    gap, draws = stats.gap_bootstrap(wins)
    assert gap == pytest.approx(32 / 52 - 5 / 52)
    assert len(draws) == stats.BOOTSTRAP
    again = stats.gap_bootstrap(wins)[1]
    assert np.array_equal(draws, again)  # seeded: a comparison is the same every time
    # the same resampling done game by game gives the same distribution
    rng = np.random.default_rng(0)
    direct = []
    for _ in range(2000):
        rates = wins[rng.integers(0, len(wins), len(wins))].mean(axis=0)
        direct.append(rates.max() - rates.min())
    assert np.mean(draws) == pytest.approx(np.mean(direct), abs=0.01)
    assert np.std(draws) == pytest.approx(np.std(direct), abs=0.01)
    low, high = stats.percentile_ci(draws)
    assert low < gap < high


def test_fair_gap_shrinks_with_games():
    assert stats.fair_gap(60, 4) > stats.fair_gap(600, 4) > stats.fair_gap(6000, 4) > 0


def test_holm_matches_the_step_down_by_hand_and_keeps_undefined_tests():
    assert stats.holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    adjusted = stats.holm([0.01, math.nan, 0.02])
    assert adjusted[0] == pytest.approx(0.02) and math.isnan(adjusted[1]) and adjusted[2] == pytest.approx(0.02)
    assert stats.holm([]) == []


def test_format_p():
    assert stats.format_p(0.0004) == "p < 0.001" and stats.format_p(0.0123) == "p = 0.012"
    assert stats.format_p(math.nan) == "p undefined"
