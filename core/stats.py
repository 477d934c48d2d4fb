"""Intervals and tests whose unit is the game, for comparisons of runs (imperial_lab.core.compare): numbers and
NumPy arrays in, plain numbers out. Every function takes one value (or one vector) per game.

* a rate: Wilson score interval (scipy);
* a difference of two rates: Newcombe's hybrid score interval (statsmodels) and the pooled z-test;
* a difference of two means (game length, lead changes, margins): Welch's t interval and test (scipy);
* whether seats win equally often in one run: chi-square goodness of fit against equal shares, with the
  gap between the best and the worst seat's win rate as the effect, its interval bootstrapped over games;
* whether seats' scores differ in one run: Hotelling's T² on each game's seat scores minus the game mean
  (statsmodels), since the seats of one game are not independent samples;
* whether two runs share out their wins alike: chi-square test of homogeneity over the games' winners;
* many tests at once: Holm's step-down adjustment (statsmodels).
"""

from __future__ import annotations

import math
import warnings

import numpy as np
from scipy import stats as sps


ALPHA = 0.05
BOOTSTRAP = 4000  # resamples: the percentile interval's ends move by well under a point of win rate
BOOTSTRAP_SEED = 20261201  # a fixed seed: a comparison gives the same intervals every time


def wilson(successes: int, n: int) -> tuple[float, float]:
    """The 95% Wilson interval of a proportion (the league's, the comparisons', the benchmarks');
    (nan, nan) without games."""
    if n == 0:
        return math.nan, math.nan
    ci = sps.binomtest(int(successes), int(n)).proportion_ci(confidence_level=0.95, method="wilson")
    return float(ci.low), float(ci.high)


def with_rates(table, wins: str = "wins", games: str = "games", name: str = ""):
    """A table (a DataFrame with one row per group) with ``<name>rate`` = wins / games and its 95%
    Wilson interval (``<name>low``, ``<name>high``); the counts made whole numbers."""
    table = table.copy()
    table[wins], table[games] = table[wins].astype(int), table[games].astype(int)
    table[f"{name}rate"] = table[wins] / table[games]
    bounds = [wilson(k, n) for k, n in zip(table[wins], table[games])]
    table[f"{name}low"], table[f"{name}high"] = [b[0] for b in bounds], [b[1] for b in bounds]
    return table


def with_means(table, columns, n: str = "games"):
    """A table with each mean of ``columns`` beside its 95% Student's t interval (``<column>_low``,
    ``_high``), from the count ``n`` and the standard deviation ``<column>_sd`` (then dropped):
    mean_ci's interval, for means counted in SQL rather than from every value."""
    table = table.copy()
    for column in columns:
        half = [sps.t.ppf(0.975, k - 1) * sd / math.sqrt(k) if k > 1 and sd == sd else math.nan
                for k, sd in zip(table[n], table[f"{column}_sd"].astype(float))]
        table[f"{column}_low"], table[f"{column}_high"] = table[column] - half, table[column] + half
    return table.drop(columns=[f"{column}_sd" for column in columns])


def against_fair(wins: int, games: int, players: int) -> float:
    """Two-sided p of the binomial test that a rate of wins / games is the fair share 1 / players."""
    return float(sps.binomtest(int(wins), int(games), 1 / players).pvalue) if games else math.nan


def mean_ci(values) -> tuple[float, float, float]:
    """Mean of one value per game with its Student's t 95% interval (nan bounds below two games)."""
    values = np.asarray(values, dtype=float)
    if len(values) == 0:
        return math.nan, math.nan, math.nan
    mean = float(values.mean())
    if len(values) < 2:
        return mean, math.nan, math.nan
    half = float(sps.t.ppf(0.975, len(values) - 1) * values.std(ddof=1) / math.sqrt(len(values)))
    return mean, mean - half, mean + half


def rate_difference(k1: int, n1: int, k2: int, n2: int) -> tuple[float, float, float, float]:
    """(k1/n1 − k2/n2, its Newcombe 95% interval, the two-sided p of the pooled z-test)."""
    from statsmodels.stats.proportion import confint_proportions_2indep

    diff = k1 / n1 - k2 / n2
    low, high = confint_proportions_2indep(k1, n1, k2, n2, method="newcomb", compare="diff")
    pooled = (k1 + k2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    p = 1.0 if se == 0 else math.erfc(abs(diff) / se / math.sqrt(2))
    return diff, float(low), float(high), p


def mean_difference(a, b) -> tuple[float, float, float, float]:
    """(mean a − mean b, Welch's 95% interval, Welch's two-sided p). Two constant samples: the
    difference is exact (p 1 when equal, 0 otherwise)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    diff = float(a.mean() - b.mean())
    if a.std() == 0 and b.std() == 0:
        return diff, diff, diff, 1.0 if diff == 0 else 0.0
    with warnings.catch_warnings():  # a few nearly equal values (tiny runs): scipy warns, the interval says it
        warnings.filterwarnings("ignore", "Precision loss occurred", RuntimeWarning)
        test = sps.ttest_ind(a, b, equal_var=False)
        ci = test.confidence_interval(0.95)
    return diff, float(ci.low), float(ci.high), float(test.pvalue)


def even_shares(counts) -> float:
    """p of the chi-square goodness of fit of ``counts`` (games won outright per seat) against equal
    shares; 1 when nothing is shared."""
    counts = np.asarray(counts, dtype=float)
    if counts.sum() == 0 or len(counts) < 2:
        return 1.0
    return float(sps.chisquare(counts).pvalue)


def homogeneity(table) -> float:
    """p of the chi-square test that the rows of ``table`` (runs × outcome: games won outright by each
    seat) share one distribution; outcomes no game had are left out."""
    table = np.asarray(table, dtype=float)
    table = table[:, table.sum(axis=0) > 0]
    if table.shape[1] < 2 or (table.sum(axis=1) == 0).any():
        return 1.0
    return float(sps.chi2_contingency(table, correction=False).pvalue)


def scores_differ(deviations) -> float:
    """p of Hotelling's T² that every seat's mean score minus the game mean is 0. ``deviations`` has a
    row per game and a column per seat; the last column is left out, since a row sums to 0."""
    from statsmodels.stats.multivariate import test_mvmean

    x = np.asarray(deviations, dtype=float)[:, :-1]
    if len(x) <= x.shape[1] or np.linalg.matrix_rank(np.atleast_2d(np.cov(x, rowvar=False))) < x.shape[1]:
        return math.nan  # too few games, or scores that never vary: no test
    if x.shape[1] == 1:  # two seats: T² of one variable is Student's t², which statsmodels does not take
        from scipy.stats import ttest_1samp

        return float(ttest_1samp(x[:, 0], 0.0).pvalue)
    return float(test_mvmean(x, mean_null=np.zeros(x.shape[1])).pvalue)


def gap_bootstrap(wins) -> tuple[float, np.ndarray]:
    """The gap between the best and the worst seat's win rate of ``wins`` (a row per game, a 0/1
    column per seat) and BOOTSTRAP resampled gaps over games.

    Games are resampled through their kinds of outcome (who won), so a run of a million games costs
    as little as one of a hundred: a resample is a multinomial draw of how many games of each kind."""
    wins = np.asarray(wins, dtype=float)
    kinds, counts = np.unique(wins, axis=0, return_counts=True)
    n = counts.sum()
    rates = counts @ kinds / n
    draws = np.random.default_rng(BOOTSTRAP_SEED).multinomial(n, counts / n, size=BOOTSTRAP) @ kinds / n
    return float(rates.max() - rates.min()), draws.max(axis=1) - draws.min(axis=1)


def fair_gap(games: int, seats: int) -> float:
    """The median gap between the best and worst seat's share of ``games`` games won by a fair draw:
    what chance alone shows, so a measured gap is read against it."""
    draws = np.random.default_rng(BOOTSTRAP_SEED).multinomial(games, [1 / seats] * seats, size=BOOTSTRAP) / games
    return float(np.median(draws.max(axis=1) - draws.min(axis=1)))


def percentile_ci(draws) -> tuple[float, float]:
    low, high = np.percentile(draws, [2.5, 97.5])
    return float(low), float(high)


def holm(pvalues) -> list[float]:
    """Holm's step-down adjusted p-values, in the order given (NaN, an undefined test, stays NaN)."""
    from statsmodels.stats.multitest import multipletests

    p = np.asarray(list(pvalues), dtype=float)
    out = np.full(len(p), math.nan)
    ok = ~np.isnan(p)
    if ok.any():
        out[ok] = multipletests(p[ok], method="holm")[1]
    return out.tolist()


def format_p(p: float) -> str:
    if p != p:
        return "p undefined"
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"
