"""Comparing runs (typically one per starting distribution): the tables, intervals and tests behind the
"Compare bond distributions" page and notebooks/02_compare_bond_distributions.ipynb.

``build`` is pure (query results in, a ``Comparison`` out); ``load`` runs the queries first. Every
pair of runs is tested on every figure, then the p-values of all tests are adjusted together with
Holm's method, so the summary may name a difference only when it is significant at α = 0.05 for the
whole family of tests, not one test among dozens that came out low by chance.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import pandas as pd

from dashboard import queries, stats
from dashboard.style import NATION_NAMES, player_label

# How each per-game figure of queries.METRICS is named in tables and sentences: label, unit.
METRIC_LABELS = {
    "final_score": ("Final score (every seat)", "points"),
    "margin": ("Winning margin (winner − runner-up)", "points"),
    "rounds": ("Game length", "rounds"),
    "lead_changes": ("Lead changes per game", "changes"),
}
PROPORTION_TEST = "two-proportion z-test"
RANK_TEST = "Mann–Whitney U test"
SHARES_TEST = "chi-square goodness of fit against equal shares"


@dataclass
class Comparison:
    """The figures of a comparison, one row per run (and seat, nation or metric)."""

    runs: list[str]
    seats: pd.DataFrame        # run, seat, games, wins, rate, low, high (Wilson 95%)
    governments: pd.DataFrame  # run, nation, games, wins, rate, low, high: the seat governing it at setup
    frequencies: dict[str, pd.DataFrame]  # metric -> run, value, n
    metrics: pd.DataFrame      # run, metric, n, mean, low, high (t 95%), median
    balance: pd.DataFrame      # run, balance, best_seat, worst_seat, p_even_shares
    tests: pd.DataFrame        # figure, subject, runs, test, p, p_holm, significant, finding

    def summary(self) -> list[str]:
        """The significant differences in plain words, most significant first; empty when there is none."""
        found = self.tests[self.tests["significant"]].sort_values("p_holm")
        return [f"{row.finding} — {row.test}, {stats.format_p(row.p_holm)}" for row in found.itertuples()]


def load(catalog, runs) -> Comparison:
    """Query the catalogue for ``runs`` and build the comparison (for notebooks)."""
    runs = tuple(runs)
    return build(queries.seat_wins(catalog, runs), queries.government_wins(catalog, runs),
                 {metric: queries.frequencies(catalog, runs, metric) for metric in queries.METRICS}, runs)


def build(seat_wins: pd.DataFrame, government_wins: pd.DataFrame, frequencies: dict[str, pd.DataFrame],
          runs) -> Comparison:
    """The comparison of ``runs`` from the answers of queries.seat_wins, government_wins and frequencies."""
    runs = sorted(runs)  # the queries' order too: a run keeps its colour in every chart
    seats, governments = with_rates(seat_wins), with_rates(government_wins)
    metrics = metric_table(frequencies, runs)
    balances = balance_table(seats, runs)
    tests = pd.DataFrame(_proportion_tests(seats, "seat", runs) + _proportion_tests(governments, "nation", runs)
                         + _distribution_tests(frequencies, metrics, runs) + _balance_tests(balances),
                         columns=["figure", "subject", "runs", "test", "p", "finding"])
    tests["p_holm"] = stats.holm(tests["p"]) if len(tests) else []
    tests["significant"] = tests["p_holm"] < stats.ALPHA
    return Comparison(runs, seats, governments, frequencies, metrics, balances, tests)


def with_rates(wins: pd.DataFrame) -> pd.DataFrame:
    """``wins`` (games, wins columns) with the win rate and its Wilson 95% interval."""
    out = wins.copy()
    out["rate"] = out["wins"] / out["games"]
    bounds = [stats.wilson(k, n) for k, n in zip(out["wins"], out["games"])]
    out["low"], out["high"] = [b[0] for b in bounds], [b[1] for b in bounds]
    return out


def metric_table(frequencies: dict[str, pd.DataFrame], runs: list[str]) -> pd.DataFrame:
    """Per run and metric: the number of values, the mean with its t interval, and the median."""
    rows = []
    for metric, table in frequencies.items():
        for run in runs:
            part = table[table["run"] == run]
            mean, low, high = stats.mean_ci(part["value"], part["n"])
            rows.append({"run": run, "metric": metric, "n": int(part["n"].sum()), "mean": mean, "low": low,
                         "high": high, "median": stats.weighted_median(part["value"], part["n"])})
    return pd.DataFrame(rows, columns=["run", "metric", "n", "mean", "low", "high", "median"])


def balance_table(seats: pd.DataFrame, runs: list[str]) -> pd.DataFrame:
    """Per run: 1 − the largest gap between seat win rates, the best and worst seat, and the p-value of
    equal win shares."""
    rows = []
    for run in runs:
        part = seats[seats["run"] == run]
        if part.empty:
            continue
        best, worst = part.loc[part["rate"].idxmax()], part.loc[part["rate"].idxmin()]
        rows.append({"run": run, "balance": stats.balance(part["rate"]), "best_seat": int(best["seat"]),
                     "best_rate": best["rate"], "worst_seat": int(worst["seat"]), "worst_rate": worst["rate"],
                     "p_even_shares": stats.even_shares_p(part["wins"])})
    return pd.DataFrame(rows, columns=["run", "balance", "best_seat", "best_rate", "worst_seat", "worst_rate",
                                       "p_even_shares"])


# ----- the tests, one row each: figure, subject, runs, test, p, finding -----

def _proportion_tests(rates: pd.DataFrame, key: str, runs: list[str]) -> list[tuple]:
    """Each pair of runs on the win rate of each seat (``key`` "seat") or of each nation's starting
    government (``key`` "nation")."""
    rows = []
    for a, b in combinations(runs, 2):
        both = rates[rates["run"] == a].merge(rates[rates["run"] == b], on=key, suffixes=("_a", "_b"))
        for r in both.itertuples():
            p = stats.two_proportion_z(r.wins_a, r.games_a, r.wins_b, r.games_b)
            subject = player_label(r.seat) if key == "seat" else r.nation
            (hi, hi_rate), (lo, lo_rate) = sorted([(a, r.rate_a), (b, r.rate_b)], key=lambda x: -x[1])
            who = (f"{subject} wins" if key == "seat"
                   else f"The player governing {NATION_NAMES[subject]} at the start wins")
            rows.append((f"win rate by {key}", subject, f"{a} vs {b}", PROPORTION_TEST, p,
                         f"{who} more often in {hi} ({hi_rate:.0%}) than in {lo} ({lo_rate:.0%})"))
    return rows


def _distribution_tests(frequencies: dict[str, pd.DataFrame], metrics: pd.DataFrame, runs: list[str]) -> list[tuple]:
    rows = []
    for metric, table in frequencies.items():
        label, unit = METRIC_LABELS[metric]
        means = metrics[metrics["metric"] == metric].set_index("run")["mean"]
        for a, b in combinations(runs, 2):
            ta, tb = table[table["run"] == a], table[table["run"] == b]
            p = stats.mann_whitney(ta["value"], ta["n"], tb["value"], tb["n"])
            hi, lo = (a, b) if means.get(a, 0) >= means.get(b, 0) else (b, a)
            rows.append((metric, label, f"{a} vs {b}", RANK_TEST, p,
                         f"{label}: higher in {hi} than in {lo}, mean {means[hi]:.1f} vs {means[lo]:.1f} {unit}"))
    return rows


def _balance_tests(balances: pd.DataFrame) -> list[tuple]:
    return [("seat balance", "all seats", r.run, SHARES_TEST, r.p_even_shares,
             f"Seats do not win equally often in {r.run}: {player_label(r.best_seat)} wins {r.best_rate:.0%}, "
             f"{player_label(r.worst_seat)} {r.worst_rate:.0%}")
            for r in balances.itertuples()]
