"""How often the Compare page's intervals hold the truth, and how often its verdicts err, by simulation
(docs/compare.md, "Coverage, measured"). Prints figures, asserts nothing.

    .venv/bin/python scripts/fairness_coverage.py [--replicates 4000] [--seed 24]

Each case draws ``--replicates`` cells of N games whose seats win with known shares (a multinomial draw
per cell, NumPy) and counts:

* seats: how often every seat's interval holds its true share at once, for the intervals the lab
  uses (imperial_lab.core.stats.share_ci: Clopper-Pearson at the Bonferroni level of the family) and,
  beside them, Wilson's at the same level (Goodman's simultaneous intervals when the family is the
  cell's P seats);
* the gap between the best and the worst seat: how often its interval holds the true gap, for
  ``stats.gap_ci`` and for the percentile bootstrap the page used before (resampling games);
* the verdict: how often a setup is called fair when one seat sits on the margin (its error), and how
  often the games ``stats.games_to_decide`` asks for decide (their power).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from imperial_lab.core import stats  # noqa: E402  (after the path set-up, so the script runs from a checkout)

BOOTSTRAP = 2000  # resamples of the old gap interval (it used 4,000; its coverage moves by well under a point)


def cells(shares, games: int, replicates: int, rng) -> np.ndarray:
    return rng.multinomial(games, shares, size=replicates)


def seat_coverage(shares, games, tests, replicates, rng) -> tuple[float, float]:
    """(exact, Wilson): how often all seats' intervals hold their shares at once."""
    from statsmodels.stats.proportion import proportion_confint

    shares = np.asarray(shares)
    counts = cells(shares, games, replicates, rng)
    out = []
    for low, high in (stats.share_ci(counts, games, tests),
                      proportion_confint(counts, games, alpha=stats.ALPHA / tests, method="wilson")):
        out.append(float(((low <= shares) & (shares <= high)).all(axis=1).mean()))
    return out[0], out[1]


def gap_coverage(shares, games, replicates, rng) -> tuple[float, float]:
    """(gap_ci from the cell's simultaneous intervals, the old percentile bootstrap): how often the
    interval holds the true gap between the best and the worst seat."""
    shares = np.asarray(shares)
    truth = shares.max() - shares.min()
    counts = cells(shares, games, replicates, rng)
    lows, highs = stats.share_ci(counts, games, len(shares))
    held_new = held_old = 0
    for low, high, count in zip(lows, highs, counts):
        gap_low, gap_high = stats.gap_ci(low, high)
        held_new += gap_low <= truth <= gap_high
        draws = rng.multinomial(games, count / games, size=BOOTSTRAP) / games
        old_low, old_high = np.percentile(draws.max(axis=1) - draws.min(axis=1), [2.5, 97.5])
        held_old += old_low <= truth <= old_high
    return held_new / replicates, held_old / replicates


def verdict_rates(shares, games, tests, replicates, rng, margin=stats.MARGIN) -> dict:
    counts = cells(np.asarray(shares), games, replicates, rng)
    lows, highs = stats.share_ci(counts, games, tests)
    found = [stats.verdict(low, high, 1 / len(shares), margin) for low, high in zip(lows, highs)]
    return {v: found.count(v) / replicates for v in stats.VERDICTS}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--replicates", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=24)
    args = ap.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    n = args.replicates
    print(f"{n} simulated cells a case; a shared win is not simulated (whole wins); margin ±3 points")
    print("\nSeats: all intervals of a cell hold their true shares at once (target 95%)")
    print(f"{'shares':>28} {'games':>6} {'tests':>5} {'exact (the lab)':>16} {'Wilson/Goodman':>15}")
    for shares in ([0.25] * 4, [0.29, 0.25, 0.25, 0.21], [1 / 3] * 3, [0.5, 0.5], [0.40, 0.10, 0.09, 0.23, 0.18]):
        for games in (100, 1000):
            for tests in (len(shares), len(shares) * 7):
                exact, wilson = seat_coverage(shares, games, tests, n, rng)
                label = ",".join(f"{s:.2f}" for s in shares)
                print(f"{label:>28} {games:>6} {tests:>5} {100 * exact:15.1f}% {100 * wilson:14.1f}%")
    print("\nThe gap between the best and the worst seat: its interval holds the true gap (target 95%)")
    print(f"{'shares':>28} {'games':>6} {'stats.gap_ci':>13} {'old bootstrap':>14}")
    for shares, games in (([0.25] * 4, 400), ([0.27, 0.25, 0.25, 0.23], 400), ([0.29, 0.25, 0.25, 0.21], 1000),
                          ([0.35, 0.3, 0.2, 0.15], 300)):
        new, old = gap_coverage(shares, games, min(n, 400), rng)
        label = ",".join(f"{s:.2f}" for s in shares)
        print(f"{label:>28} {games:>6} {100 * new:12.1f}% {100 * old:13.1f}%")
    tests = 4 * 7  # a 4-player setup's family over the ladder of Imperial 2030
    print(f"\nThe verdict, four seats, the family of a setup over the ladder ({tests} tests)")
    for games in (1000, 5000, 20000):
        rates = verdict_rates([0.28, 0.24, 0.24, 0.24], games, tests, n, rng)
        print(f"  a seat on the margin (28%), {games:>6} games: called fair {100 * rates['fair']:.2f}% of the time")
    for shares in ([0.35, 0.25, 0.20, 0.20], [0.25] * 4, [0.265, 0.245, 0.245, 0.245]):
        need = stats.games_to_decide(shares, 0.25, stats.MARGIN, tests)
        rates = verdict_rates(shares, need, tests, n, rng)
        label = ",".join(f"{s:.3f}" for s in shares)
        print(f"  shares {label}: games_to_decide {need:,}; at that many games: fair {100 * rates['fair']:.1f}%, "
              f"unfair {100 * rates['unfair']:.1f}%, undecided {100 * rates['undecided']:.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
