"""Confidence intervals and significance tests for comparing runs; plain numbers in, plain numbers out.

Per-game figures arrive as frequency tables (value, count) from ``dashboard.queries``, so the
functions take values with their counts: a run of a million games is a few hundred (value, count)
pairs, never a million rows in pandas.

* a proportion (a win rate): Wilson score interval; two runs: two-proportion z-test (pooled);
* a mean: Student's t interval;
* two distributions (scores, lengths, ...): Mann–Whitney U test, two-sided, from the frequency tables;
* whether seats win equally often within a run: chi-square goodness of fit against equal shares;
* many tests at once: Holm's step-down adjustment, so "significant at α" holds for the whole family.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import stats as sps

from core.league import wilson as league_wilson

ALPHA = 0.05


def wilson(successes: int, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (core.league.wilson, scipy's); (nan, nan) when
    n is 0, so a table of rates can hold rows without games."""
    if n == 0:
        return math.nan, math.nan
    low, high = league_wilson(successes, n)
    return float(low), float(high)


def mean_ci(values, counts, confidence: float = 0.95) -> tuple[float, float, float]:
    """Mean of ``values`` weighted by ``counts``, with its Student's t interval (nan bounds below n = 2)."""
    values, counts = np.asarray(values, dtype=float), np.asarray(counts, dtype=float)
    n = counts.sum()
    if n == 0:
        return math.nan, math.nan, math.nan
    mean = float((values * counts).sum() / n)
    if n < 2:
        return mean, math.nan, math.nan
    sd = math.sqrt(float((counts * (values - mean) ** 2).sum() / (n - 1)))
    half = sps.t.ppf((1 + confidence) / 2, n - 1) * sd / math.sqrt(n)
    return mean, mean - half, mean + half


def weighted_median(values, counts) -> float:
    """The median of ``values`` repeated ``counts`` times (the lower middle one for an even total)."""
    if len(values) == 0:
        return math.nan
    order = np.argsort(values)
    values, cumulative = np.asarray(values)[order], np.cumsum(np.asarray(counts)[order])
    return float(values[np.searchsorted(cumulative, (cumulative[-1] + 1) // 2)])


def two_proportion_z(k1: int, n1: int, k2: int, n2: int) -> float:
    """Two-sided p-value of the pooled two-proportion z-test of k1/n1 against k2/n2 (the 2×2
    chi-square test without continuity correction). 1.0 when either sample is empty or the pooled
    rate is 0 or 1 (nothing can differ)."""
    if n1 == 0 or n2 == 0:
        return 1.0
    pooled = (k1 + k2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se == 0:
        return 1.0
    z = (k1 / n1 - k2 / n2) / se
    return math.erfc(abs(z) / math.sqrt(2))


def mann_whitney(values_a, counts_a, values_b, counts_b) -> float:
    """Two-sided p-value of the Mann–Whitney U test between two frequency tables.

    Computed on the tables themselves (mid-ranks per distinct value, the normal approximation with
    tie and continuity corrections: scipy's ``method="asymptotic"``), so a million games cost no more
    than their few hundred distinct values. 1.0 when a side is empty or every value is equal.
    """
    a = pd.Series(np.asarray(counts_a, dtype=float), index=np.asarray(values_a)).groupby(level=0).sum()
    b = pd.Series(np.asarray(counts_b, dtype=float), index=np.asarray(values_b)).groupby(level=0).sum()
    both = pd.concat([a, b], axis=1).fillna(0.0).sort_index()
    na, nb = both.iloc[:, 0].to_numpy(), both.iloc[:, 1].to_numpy()
    n1, n2 = na.sum(), nb.sum()
    ties = na + nb
    n = n1 + n2
    if n1 == 0 or n2 == 0 or len(both) < 2:
        return 1.0
    midranks = np.cumsum(ties) - (ties - 1) / 2  # the mean rank of each run of equal values
    u = (na * midranks).sum() - n1 * (n1 + 1) / 2
    sigma = math.sqrt(n1 * n2 / 12 * ((n + 1) - (ties ** 3 - ties).sum() / (n * (n - 1))))
    z = (abs(u - n1 * n2 / 2) - 0.5) / sigma
    return min(1.0, math.erfc(max(z, 0.0) / math.sqrt(2)))


def even_shares_p(counts) -> float:
    """p-value of the chi-square goodness-of-fit test of ``counts`` (e.g. wins per seat) against
    equal shares. 1.0 when there is nothing to share."""
    counts = np.asarray(counts, dtype=float)
    if counts.sum() == 0 or len(counts) < 2:
        return 1.0
    return float(sps.chisquare(counts).pvalue)


def holm(pvalues) -> list[float]:
    """Holm's step-down adjusted p-values, in the order given: reject where adjusted p < α and the
    chance of any false positive in the whole family stays below α."""
    pvalues = list(pvalues)
    m = len(pvalues)
    adjusted = [0.0] * m
    running = 0.0
    for rank, index in enumerate(sorted(range(m), key=pvalues.__getitem__)):
        running = max(running, min(1.0, (m - rank) * pvalues[index]))  # adjusted values never decrease
        adjusted[index] = running
    return adjusted


def balance(rates) -> float:
    """1 − the largest gap between the win rates of the seats: 1 when every seat wins equally often."""
    rates = list(rates)
    return 1 - (max(rates) - min(rates)) if rates else math.nan


def format_p(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"
