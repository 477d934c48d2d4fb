"""Intervals and tests whose unit is the game, for comparisons of runs (imperial_lab.core.compare) and the
search for fair setups: numbers and NumPy arrays in, plain numbers out. Every function takes one value
(or one vector) per game.

* a rate: Wilson score interval (scipy);
* **a seat's share of the wins** (a shared win splits: each of its k winners gets 1/k, ``win_shares``)
  against the fair share 1/P: the exact binomial test and its inversion, the Clopper-Pearson
  interval, both at a Bonferroni level over the tests of a family (``share_ci``, ``share_p``), so a
  seat's interval excludes the fair share exactly when its adjusted test is significant, and the
  intervals of a family hold all at once (their coverage is checked by simulation);
* whether a setup is fair: an equivalence verdict against a declared margin (``verdict``: shown fair
  within it, shown unfair beyond it, or not enough games) and the games a decision would take, by a
  power calculation (statsmodels, ``games_to_decide``); the gap between the best and the worst
  seat's share with the interval the simultaneous intervals give it (``gap_ci``);
* a seat's share in two setups: Newcombe's interval of the difference and the test that inverts it;
* whether a seat's share changes along the strength ladder: the slope of its share per game on the
  rung's position, OLS with a robust (HC1) error (statsmodels);
* a difference of two means (game length, lead changes, margins): Welch's t interval and test (scipy);
* whether seats' scores differ in one run: Hotelling's T² on each game's seat scores minus the game mean
  (statsmodels), since the seats of one game are not independent samples;
* many tests at once: Holm's step-down adjustment (statsmodels) and Bonferroni's.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
from scipy import stats as sps


ALPHA = 0.05
MARGIN = 0.03  # the default equivalence margin: a seat within 3 points of its fair share is fair enough
POWER = 0.8  # the chance of a decision that "games to decide" plans for
MAX_GAMES_TO_DECIDE = 10_000_000  # beyond it (an edge at the margin itself) no run decides: said so
VERDICTS = ("fair", "unfair", "undecided")


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


def mean_difference(a, b, tests: int = 1) -> tuple[float, float, float, float]:
    """(mean a − mean b, Welch's interval at the Bonferroni level of ``tests`` tests (95% for one),
    Welch's two-sided p). Two constant samples: the difference is exact (p 1 when equal, 0 otherwise)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    diff = float(a.mean() - b.mean())
    if a.std() == 0 and b.std() == 0:
        return diff, diff, diff, 1.0 if diff == 0 else 0.0
    with warnings.catch_warnings():  # a few nearly equal values (tiny runs): scipy warns, the interval says it
        warnings.filterwarnings("ignore", "Precision loss occurred", RuntimeWarning)
        test = sps.ttest_ind(a, b, equal_var=False)
        ci = test.confidence_interval(1 - ALPHA / tests)
    return diff, float(ci.low), float(ci.high), float(test.pvalue)


# ----- seats' shares of the wins -----

def win_shares(winners, players: int) -> np.ndarray:
    """A row per game, a column per seat: each of a game's k winners gets 1/k (a shared win splits, so
    every game hands out exactly one win and the seats' shares add up to 1)."""
    out = np.zeros((len(winners), players))
    for row, won in enumerate(winners):
        won = list(won)
        if won:
            out[row, won] = 1 / len(won)
    return out


def share_ci(wins, n, tests: int = 1):
    """Clopper-Pearson (exact) intervals of the shares ``wins / n`` (arrays or numbers) at the
    Bonferroni level of ``tests`` tests: each holds its share with probability at least 1 − ALPHA /
    tests, so all of a family's hold together with at least 1 − ALPHA. (Wilson's, which at the level of
    a cell's P seats are Goodman's simultaneous multinomial intervals, held all four seats of 100 fair
    games only 94.1% of the time in 4,000 simulated cells; the exact ones never fell below 95%, and are
    as narrow from a thousand games on.) A fractional count (shared wins) is read on the same beta
    distributions: a share per game in [0, 1] varies no more than a 0/1 win of the same mean."""
    from statsmodels.stats.proportion import proportion_confint

    low, high = proportion_confint(np.asarray(wins, dtype=float), np.asarray(n, dtype=float),
                                   alpha=ALPHA / tests, method="beta")
    return low, high


def share_p(wins, n, par: float) -> np.ndarray:
    """Two-sided p of the exact (equal-tailed) test that a share ``wins / n`` is ``par``: twice the
    smaller tail, the test whose inversion is ``share_ci``, so p · tests < ALPHA exactly when the
    interval at ``tests`` leaves ``par`` out."""
    wins, n = np.asarray(wins, dtype=float), np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):  # no wins (or all): that tail is 1
        lower = np.where(wins > 0, sps.beta.cdf(par, np.maximum(wins, 1e-12), n - wins + 1), 1.0)
        upper = np.where(wins < n, sps.beta.sf(par, wins + 1, np.maximum(n - wins, 1e-12)), 1.0)
    return np.minimum(1.0, 2 * np.minimum(lower, upper))


def bonferroni(p, tests: int):
    """Bonferroni-adjusted p-values (NaN stays NaN)."""
    return np.minimum(1.0, np.asarray(p, dtype=float) * tests)


def verdict(low, high, par: float, margin: float = MARGIN) -> str:
    """Whether seats whose shares lie in [``low``, ``high``] (one interval per seat, a family's) make a
    fair game, against a margin: "fair" when every seat's interval lies within par ± margin (shown
    fair within the margin), "unfair" when some seat's lies wholly beyond it (shown an edge larger
    than the margin), "undecided" otherwise (not enough games). An equivalence test: "fair" is never
    read from a test that merely failed to find an edge."""
    low, high = np.asarray(low, dtype=float), np.asarray(high, dtype=float)
    if ((low >= par - margin) & (high <= par + margin)).all():
        return "fair"
    if ((low > par + margin) | (high < par - margin)).any():
        return "unfair"
    return "undecided"


def edge_shown(low: float, high: float, par: float) -> int:
    """+1 when a seat's interval lies above the fair share, −1 below, 0 when it holds it."""
    return 1 if low > par else -1 if high < par else 0


def games_to_decide(rates, par: float, margin: float = MARGIN, tests: int = 1, power: float = POWER) -> int:
    """About how many games would decide the verdict of seats whose shares are ``rates``, if those are
    the true shares: a power calculation (statsmodels' NormalIndPower, one sample, Cohen's h) at the
    level of each end of ``share_ci`` (one-sided ALPHA / (2 · tests)). A seat beyond the margin: the
    games that show it beyond, with probability ``power``. Every seat within it: the games that show
    the seat nearest the margin inside, each of the 2P ends of the seats' intervals failing with
    probability at most (1 − power) / 2P, so all hold together with at least ``power``.
    MAX_GAMES_TO_DECIDE when a share sits on the margin itself."""
    from statsmodels.stats.power import NormalIndPower
    from statsmodels.stats.proportion import proportion_effectsize

    rates = np.clip(np.asarray(rates, dtype=float), 1e-6, 1 - 1e-6)
    seat = int(np.abs(rates - par).argmax())
    if abs(rates[seat] - par) <= margin:  # aiming to show it fair: every end of every interval inside
        power = 1 - (1 - power) / (2 * len(rates))
    bound = min(max(par + margin if rates[seat] >= par else par - margin, 1e-6), 1 - 1e-6)
    h = abs(float(proportion_effectsize(rates[seat], bound)))
    if h < 1e-9:
        return MAX_GAMES_TO_DECIDE
    n = NormalIndPower().solve_power(effect_size=h, alpha=ALPHA / (2 * tests), power=power, ratio=0,
                                     alternative="larger")
    return int(min(MAX_GAMES_TO_DECIDE, math.ceil(n)))


def gap_ci(low, high) -> tuple[float, float]:
    """The interval of the gap between the best and the worst seat's true share that simultaneous
    intervals [``low``, ``high``] (one per seat) give: when every seat's share is in its interval, the
    gap is at least the highest lower end minus the lowest upper end (or 0) and at most the highest
    upper end minus the lowest lower end. It holds at least as often as the intervals hold together,
    and always holds its own estimate."""
    low, high = np.asarray(low, dtype=float), np.asarray(high, dtype=float)
    return max(0.0, float(low.max() - high.min())), float(high.max() - low.min())


def seat_figures(wins, n: int, tests: int, margin: float = MARGIN) -> dict:
    """The seats of one cell (a setup played by one line-up, ``n`` games; ``wins`` per seat, shared wins
    split 1/k), at the level of a family of ``tests`` tests: each seat's share with its interval and
    its p against the fair share 1/P, the largest edge, the gap between the best and the worst seat
    with its interval, the verdict against ``margin`` and, when undecided, the games that would
    decide. Plain lists and numbers (JSON as it is)."""
    wins = np.asarray(wins, dtype=float)
    par = 1 / len(wins)
    rates = wins / n
    low, high = share_ci(wins, n, tests)
    decided = verdict(low, high, par, margin)
    return {"games": int(n), "wins": wins.tolist(), "win_rate": rates.tolist(),
            "win_rate_ci": [[float(lo), float(hi)] for lo, hi in zip(low, high)],
            "p": share_p(wins, n, par).tolist(), "par": par, "tests": tests, "margin": margin,
            "edge": float(np.abs(rates - par).max()), "gap": float(rates.max() - rates.min()),
            "gap_ci": list(gap_ci(low, high)), "verdict": decided,
            "games_to_decide": games_to_decide(rates, par, margin, tests) if decided == "undecided" else None}


def share_difference(w1: float, n1: int, w2: float, n2: int, tests: int = 1) -> tuple[float, float, float, float]:
    """(w1/n1 − w2/n2, Newcombe's hybrid score interval at the Bonferroni level of ``tests``, the
    two-sided p of the test that inverts it): a seat's share in two setups. The p is the level at
    which the interval just touches 0, so the interval at ``tests`` leaves 0 out exactly when
    p · tests < ALPHA. (Newcombe's interval combines the two Wilson intervals in closed form: it
    stays defined when a share is 0 or 1, where the Miettinen-Nurminen score interval fails.)"""
    diff = w1 / n1 - w2 / n2
    if w1 + w2 in (0, n1 + n2):  # nobody, or everybody, won: no variation to test
        return diff, diff, diff, 1.0
    low, high = _newcombe(w1, n1, w2, n2, sps.norm.isf(ALPHA / tests / 2))
    if diff == 0:
        return diff, low, high, 1.0
    toward = (lambda z: _newcombe(w1, n1, w2, n2, z)[0]) if diff > 0 else (lambda z: -_newcombe(w1, n1, w2, n2, z)[1])
    z_low, z_high = 0.0, 40.0  # the z at which the near end reaches 0: bisection (the end moves monotonically)
    if toward(z_high) > 0:
        return diff, low, high, 0.0
    for _ in range(60):
        z = (z_low + z_high) / 2
        z_low, z_high = (z, z_high) if toward(z) > 0 else (z_low, z)
    return diff, low, high, float(2 * sps.norm.sf(z_low))


def _newcombe(w1: float, n1: int, w2: float, n2: int, z: float) -> tuple[float, float]:
    """Newcombe's (1998) method 10 at the normal quantile ``z``: the Wilson intervals of both shares
    combined."""
    def wilson_at(w, n):
        p, z2 = w / n, z * z
        centre = (p + z2 / (2 * n)) / (1 + z2 / n)
        half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
        return p, centre - half, centre + half

    (p1, l1, u1), (p2, l2, u2) = wilson_at(w1, n1), wilson_at(w2, n2)
    d = p1 - p2
    return d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2), d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)


def games_to_tell_apart(rate1: float, rate2: float, tests: int = 1, power: float = POWER) -> int:
    """About how many games per setup would show two shares ``rate1`` and ``rate2`` apart (two-sided at
    ALPHA / tests), if they are the true ones: statsmodels' NormalIndPower on Cohen's h."""
    from statsmodels.stats.power import NormalIndPower
    from statsmodels.stats.proportion import proportion_effectsize

    h = abs(float(proportion_effectsize(*np.clip([rate1, rate2], 1e-6, 1 - 1e-6))))
    if h < 1e-9:
        return MAX_GAMES_TO_DECIDE
    n = NormalIndPower().solve_power(effect_size=h, alpha=ALPHA / tests, power=power, ratio=1)
    return int(min(MAX_GAMES_TO_DECIDE, math.ceil(n)))


def trend(position, share, tests: int = 1) -> tuple[float, float, float, float]:
    """(slope, its interval at the Bonferroni level of ``tests``, two-sided p): how a seat's share per
    game (``share``) changes per step of ``position`` (its game's rung on the ladder), by OLS with
    heteroskedasticity-robust (HC1) errors, since a share's variance differs from rung to rung."""
    from statsmodels.regression.linear_model import OLS  # not statsmodels.api: it imports every model (0.5 s)

    x, y = np.asarray(position, dtype=float), np.asarray(share, dtype=float)
    if len(np.unique(x)) < 2 or y.std() == 0 or len(y) <= 2:  # two games fit a line exactly: no error left
        return math.nan, math.nan, math.nan, math.nan
    fit = OLS(y, np.column_stack([np.ones_like(x), x])).fit(cov_type="HC1")
    low, high = fit.conf_int(alpha=ALPHA / tests)[1]
    return float(fit.params[1]), float(low), float(high), float(fit.pvalues[1])


def even_shares(counts) -> float:
    """p of the chi-square goodness of fit of ``counts`` (games won outright per seat) against equal
    shares; 1 when nothing is shared."""
    counts = np.asarray(counts, dtype=float)
    if counts.sum() == 0 or len(counts) < 2:
        return 1.0
    return float(sps.chisquare(counts).pvalue)


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
