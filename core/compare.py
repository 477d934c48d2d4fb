"""Comparisons of runs as a grid of setups × bot line-ups, with statistics whose unit is the game.

A **cell** is a setup played by one line-up (``imperial_lab.core.bots.lineup_text`` of a run's bots; the runs of
one cell are pooled). Every figure is one value per finished game, so the tests never treat the
seats of one game as independent samples:

* in each cell: the seats' win rates (Wilson intervals), whether seats win equally often (chi-square
  goodness of fit over the games won outright; effect: the gap between the best and the worst seat,
  its interval bootstrapped over games, beside the gap a fair game shows by chance) and whether
  seats' scores differ (Hotelling's T² on each game's scores minus the game's mean; effect: the
  best-scoring seat's points above the mean, t interval);
* between two setups of one line-up: whether the wins are shared out alike (chi-square homogeneity;
  effect: the seat whose win rate differs most, Newcombe interval), and the game length, the lead
  changes and the winning margin (Welch: the difference of means with its interval).

Each fact is tested once per line-up, then all p-values of the comparison are Holm-adjusted together.
A **finding** is a fact significant under at least one line-up: it says under which line-ups it
holds, where it is not significant, and where it reverses (the opposite direction, its interval
clear of zero), and that it is conditional on the bots. ``build`` is pure (per-game rows in);
``load`` queries the catalogue; ``to_json`` is what ``imperial compare --json`` prints.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd

from imperial_lab.core import runstore, stats
from imperial_lab.core.bots import lineup_text
from imperial_lab.core.interface import seat_name
from imperial_lab.core.jsonio import clip
from imperial_lab.core.runstore import RunError

METRICS = {  # per-game figures compared between setups: label, unit
    "rounds": ("game length", "rounds"),
    "lead_changes": ("lead changes", "changes"),
    "margin": ("winning margin", "points"),
}
TEST_NAMES = {
    "seat_balance": "chi-square goodness of fit (equal shares), gap bootstrapped over games",
    "seat_scores": "Hotelling's T² (seat score − game mean)",
    "seat_outcomes": "chi-square homogeneity of winners, Newcombe interval",
    **{m: "Welch's t (difference of means)" for m in METRICS},
}
CONDITIONAL = "conditional on the bots that played"

# The per-game rows come from each game's tables part: its ``COMPARE`` holds ``sql`` (one row per
# finished game: run, game_id, setup, players, bots, winners, scores, rounds, margin, lead_changes;
# ``{runs}`` is the run filter's placeholders, as often as it appears), the unit of ``rounds``
# (``length``) and, optionally, how its seats are counted (``seats``).
DEFAULT_COMPARE = {"length": "rounds", "seats": None}


@dataclass
class Comparison:
    runs: pd.DataFrame      # run, setup, lineup, players, n
    cells: pd.DataFrame     # setup, lineup, players, runs, n, outright, gap, gap_low, gap_high, fair_gap
    seats: pd.DataFrame     # setup, lineup, seat, n, wins, rate, low, high, score, score_low, score_high
    run_seats: pd.DataFrame  # run, seat, n, wins, rate, low, high
    bots: pd.DataFrame      # setup, lineup, bot, n, wins, rate, low, high, fair (cells of two or more bots)
    tests: pd.DataFrame     # id, metric, setup, versus, lineup, subject, effect, low, high, p, holm_p, n, ...
    findings: list[dict] = field(default_factory=list)
    games: pd.DataFrame | None = None  # the per-game rows (charts draw their distributions)
    length: str = "rounds"  # the unit of the game length (Imperia counts turns)
    seats_note: str | None = None  # how the game's seats are counted, when not as played (Imperia: from the start player)

    @property
    def lineups(self) -> list[str]:
        return sorted(self.cells["lineup"].unique())

    @property
    def setups(self) -> list[str]:
        return sorted(self.cells["setup"].unique())


# ----- loading -----

def load(catalog, runs, on_step=None) -> Comparison:
    """The comparison of ``runs`` (names in the catalogue). RunError for an unknown run. ``on_step(done,
    total)`` is called as each step of ``build`` ends (a progress bar)."""
    from imperial_lab.core.catalog import connect

    runs = sorted(set(runs))
    if not runs:
        raise RunError("compare: name one or more runs")
    with connect(catalog, read_only=True) as con:
        listed = con.execute("SELECT name, bots, path FROM runs WHERE name IN (SELECT unnest(?))", [runs]).df()
        missing = sorted(set(runs) - set(listed["name"]))
        if missing:
            raise RunError(f"compare: no run {clip(missing[0])} in the catalogue {catalog} (imperial runs lists them)")
        spec = compare_spec(_game_of_runs(listed["path"]))
        sql = spec["sql"]
        games = con.execute(sql.format(runs=", ".join("?" * len(runs))), runs * sql.count("{runs}")).df()
    lineups = {row.name: lineup_text(row.bots, runstore.is_rotated(row.path)) for row in listed.itertuples()}
    return build(games, lineups, spec["length"], spec["seats"], on_step)


def compare_spec(game: str) -> dict:
    """``game``'s ``COMPARE`` (its tables part) over the defaults. RunError for a game without one."""
    from imperial_lab.core.tables import tables_of

    spec = getattr(tables_of(game), "COMPARE", None)
    if spec is None:
        raise RunError(f"compare: the runs are of {game}, whose tables give no per-game rows to compare")
    return {**DEFAULT_COMPARE, **spec}


def _game_of_runs(paths) -> str:
    """The one game of the runs in ``paths`` (their run.json's ``game``); RunError for a mix."""
    from imperial_lab.core.registry import DEFAULT_GAME

    games = sorted({(runstore.read_run(Path(path)) or {}).get("game", DEFAULT_GAME) for path in paths})
    if len(games) > 1:
        raise RunError(f"compare: the runs are of different games ({', '.join(games)}): compare runs of one game")
    return games[0]


# ----- the figures -----

def build(games: pd.DataFrame, lineups: dict[str, str], length: str = "rounds",
          seats_note: str | None = None, on_step=None) -> Comparison:
    """The comparison of the finished games ``games`` (one row each: run, game_id, setup, players, bots,
    winners, scores, rounds, margin, lead_changes); ``lineups`` names each run's line-up; ``length`` is
    the unit of ``rounds``, ``seats_note`` how seats are counted (the game's ``COMPARE``)."""
    games = games.assign(lineup=games["run"].map(lineups).fillna("mixed"))
    runs = (games.groupby("run", observed=True)
            .agg(setup=("setup", "first"), lineup=("lineup", "first"), players=("players", "first"),
                 n=("game_id", "size")).reset_index())
    cells, seats, bots, tests = [], [], [], []
    groups = {key: part for key, part in games.groupby(["setup", "lineup", "players"], observed=True, sort=True)}
    step = on_step or (lambda done, total: None)
    for done, ((setup, lineup, players), part) in enumerate(groups.items(), 1):  # the steps: each cell, the pairs
        cell, cell_seats, cell_tests = _cell(setup, lineup, int(players), part)
        cells.append(cell)
        seats += cell_seats
        tests += cell_tests
        bots += _bot_rates(setup, lineup, int(players), part)
        step(done, len(groups) + 1)
    for (a, b) in combinations(sorted(groups), 2):
        if a[1:] == b[1:]:  # two setups, one line-up, as many seats
            tests += _pair_tests(a[0], b[0], a[1], groups[a], groups[b], length)
    tests = pd.DataFrame(tests, columns=TEST_COLUMNS)
    tests["versus"] = tests["versus"].astype(object).where(tests["versus"].notna(), None)  # None, not NaN
    tests["holm_p"] = stats.holm(tests["p"])
    tests["significant"] = tests["holm_p"] < stats.ALPHA
    run_seats = pd.DataFrame([dict(run=run, **row) for run, part in games.groupby("run", observed=True)
                              for row in _seat_rates(_wins(part, int(part["players"].iloc[0])))],
                             columns=["run", "seat", "n", "wins", "rate", "low", "high"])
    comparison = Comparison(runs, pd.DataFrame(cells, columns=CELL_COLUMNS), pd.DataFrame(seats, columns=SEAT_COLUMNS),
                            run_seats, pd.DataFrame(bots, columns=BOT_COLUMNS), tests, games=games, length=length,
                            seats_note=seats_note)
    comparison.findings = findings(comparison)
    step(len(groups) + 1, len(groups) + 1)
    return comparison


CELL_COLUMNS = ["setup", "lineup", "players", "runs", "n", "outright", "gap", "gap_low", "gap_high", "fair_gap"]
SEAT_COLUMNS = ["setup", "lineup", "seat", "n", "wins", "rate", "low", "high", "score", "score_low", "score_high"]
BOT_COLUMNS = ["setup", "lineup", "bot", "n", "wins", "rate", "low", "high", "fair"]
TEST_COLUMNS = ["id", "metric", "setup", "versus", "lineup", "subject", "effect_name", "effect", "low", "high", "p",
                "n", "unit", "test", "direction"]


def _wins(part: pd.DataFrame, players: int) -> np.ndarray:
    """A row per game, a 0/1 column per seat: among the winners (a shared win counts for each sharer)."""
    out = np.zeros((len(part), players))
    for row, won in enumerate(part["winners"]):
        out[row, list(won)] = 1
    return out


def _deviations(part: pd.DataFrame) -> np.ndarray:
    scores = np.array([list(s) for s in part["scores"]], dtype=float)
    return scores - scores.mean(axis=1, keepdims=True)


def _seat_rates(wins: np.ndarray) -> list[dict]:
    n = len(wins)
    return [{"seat": seat, "n": n, "wins": int(k), "rate": k / n, "low": lo, "high": hi}
            for seat, k in enumerate(wins.sum(axis=0)) for lo, hi in [stats.wilson(k, n)]]


def _cell(setup: str, lineup: str, players: int, part: pd.DataFrame) -> tuple[dict, list[dict], list[tuple]]:
    wins, dev = _wins(part, players), _deviations(part)
    n = len(part)
    outright = wins[wins.sum(axis=1) == 1]
    gap, draws = stats.gap_bootstrap(wins)
    gap_low, gap_high = stats.percentile_ci(draws)
    cell = {"setup": setup, "lineup": lineup, "players": players, "runs": ", ".join(sorted(part["run"].unique())),
            "n": n, "outright": len(outright), "gap": gap, "gap_low": gap_low, "gap_high": gap_high,
            "fair_gap": stats.fair_gap(n, players)}
    seats = []
    for rate in _seat_rates(wins):
        score, low, high = stats.mean_ci(dev[:, rate["seat"]])
        seats.append({"setup": setup, "lineup": lineup, **rate, "score": score, "score_low": low, "score_high": high})
    best = max(seats, key=lambda s: s["rate"])
    top = max(seats, key=lambda s: s["score"])
    tests = [
        (_test_id("seat_balance", setup, None, lineup), "seat_balance", setup, None, lineup, "all seats",
         "gap best − worst seat (win rate)", gap, gap_low, gap_high, stats.even_shares(outright.sum(axis=0)), n,
         "game", TEST_NAMES["seat_balance"], best["seat"]),
        (_test_id("seat_scores", setup, None, lineup), "seat_scores", setup, None, lineup, seat_name(top["seat"]),
         "best seat's score − game mean (points)", top["score"], top["score_low"], top["score_high"],
         stats.scores_differ(dev), n, "game", TEST_NAMES["seat_scores"], top["seat"]),
    ]
    return cell, seats, tests


def _pair_tests(a: str, b: str, lineup: str, part_a: pd.DataFrame, part_b: pd.DataFrame,
                length: str = "rounds") -> list[tuple]:
    players = int(part_a["players"].iloc[0])
    wins_a, wins_b = _wins(part_a, players), _wins(part_b, players)
    n_a, n_b = len(wins_a), len(wins_b)
    outright = [np.append(w[w.sum(axis=1) == 1].sum(axis=0), (w.sum(axis=1) > 1).sum()) for w in (wins_a, wins_b)]
    diffs = [stats.rate_difference(int(wins_a[:, s].sum()), n_a, int(wins_b[:, s].sum()), n_b) for s in range(players)]
    seat = max(range(players), key=lambda s: abs(diffs[s][0]))
    diff, low, high, _ = diffs[seat]
    rows: list[tuple] = [(_test_id("seat_outcomes", a, b, lineup), "seat_outcomes", a, b, lineup, seat_name(seat),
             f"{seat_name(seat)}'s win rate, {a} − {b}", diff, low, high, stats.homogeneity(outright),
             n_a + n_b, "game", TEST_NAMES["seat_outcomes"], seat)]
    for metric, (label, unit) in METRICS.items():
        unit = length if metric == "rounds" else unit
        diff, low, high, p = stats.mean_difference(part_a[metric], part_b[metric])
        rows.append((_test_id(metric, a, b, lineup), metric, a, b, lineup, label, f"mean {label}, {a} − {b} ({unit})",
                     diff, low, high, p, n_a + n_b, "game", TEST_NAMES[metric], None))
    return rows


def _bot_rates(setup: str, lineup: str, players: int, part: pd.DataFrame) -> list[dict]:
    """Per entrant of a cell of two or more bots: the games it won (one of its seats among the winners)."""
    per_game = [str(b).split(",") for b in part["bots"]]
    names = sorted({name for seats in per_game for name in seats})
    if len(names) < 2:
        return []
    rows, n = [], len(part)
    for name in names:
        wins = sum(any(seats[p] == name for p in won) for seats, won in zip(per_game, part["winners"]))
        share = sum(seats.count(name) for seats in per_game) / n / players
        low, high = stats.wilson(wins, n)
        rows.append({"setup": setup, "lineup": lineup, "bot": name, "n": n, "wins": wins, "rate": wins / n,
                     "low": low, "high": high, "fair": share})
    return rows


def _test_id(metric: str, setup: str, versus: str | None, lineup: str) -> str:
    return ":".join(x for x in (metric, setup, versus, lineup) if x)


# ----- findings -----

def findings(c: Comparison) -> list[dict]:
    """One finding per fact (a metric of a setup, or of a pair of setups) significant under at least
    one line-up, strongest first, with its status under every line-up of the comparison."""
    out = []
    tests = c.tests
    for (metric, setup, versus), group in tests.groupby(["metric", "setup", tests["versus"].fillna("")], sort=False):
        significant = group[group["significant"]]
        if significant.empty:
            continue
        ref = significant.sort_values("holm_p").iloc[0]
        seats = _players(c, ref.setup, ref.lineup)  # line-ups of another player count cannot play this setup
        status = {lineup: "not played" for lineup in sorted(c.cells[c.cells["players"] == seats]["lineup"].unique())}
        for row in group.itertuples():
            status[row.lineup] = _status(c, row, ref)
        holds = [lineup for lineup, s in status.items() if s == "holds"]
        reverses = [lineup for lineup, s in status.items() if s == "reverses"]
        out.append({"id": ref["id"], "metric": metric, "setup": setup, "versus": versus or None,
                    "text": _finding_text(c, ref), "holds_for": holds, "reverses_in": reverses,
                    "not_significant_in": [lineup for lineup, s in status.items() if s == "not significant"],
                    "not_played_in": [lineup for lineup, s in status.items() if s == "not played"],
                    "reverses": bool(reverses), "status": status, "test": ref["id"], "tests": list(group["id"]),
                    "holm_p": float(ref["holm_p"]), "where": where_text(holds, reverses, status)})
    return sorted(out, key=lambda f: (not f["reverses"], f["holm_p"]))


def _status(c: Comparison, row, ref) -> str:
    """How the fact of ``ref`` (its strongest line-up) stands under ``row``'s line-up."""
    sign = _direction(c, ref, ref)
    here = _direction(c, row, ref)
    if row.significant and here == sign:
        return "holds"
    if here == -sign and _clear(c, row, ref):
        return "reverses"
    return "not significant"


def _direction(c: Comparison, row, ref) -> int:
    """+1 / −1: the direction of ``row`` on the subject of ``ref`` (its best seat, or the sign of its
    difference)."""
    if ref.metric in ("seat_balance", "seat_scores"):
        seat = _seat(c, row.setup, row.lineup, int(ref.direction))
        value = seat["rate"] - 1 / _players(c, row.setup, row.lineup) if ref.metric == "seat_balance" else seat["score"]
        return 1 if value > 0 else -1
    if ref.metric == "seat_outcomes":
        diff = _seat(c, row.setup, row.lineup, int(ref.direction))["rate"] - _seat(c, row.versus, row.lineup,
                                                                                  int(ref.direction))["rate"]
        return 1 if diff > 0 else -1
    return 1 if row.effect > 0 else -1


def _clear(c: Comparison, row, ref) -> bool:
    """Whether ``row``'s interval on the subject of ``ref`` is clear of no effect."""
    if ref.metric in ("seat_balance", "seat_scores"):
        seat = _seat(c, row.setup, row.lineup, int(ref.direction))
        if ref.metric == "seat_scores":
            return seat["score_low"] > 0 or seat["score_high"] < 0
        fair = 1 / _players(c, row.setup, row.lineup)
        return seat["low"] > fair or seat["high"] < fair
    if ref.metric == "seat_outcomes":
        k = int(ref.direction)
        a, b = _seat(c, row.setup, row.lineup, k), _seat(c, row.versus, row.lineup, k)
        _, low, high, _ = stats.rate_difference(a["wins"], a["n"], b["wins"], b["n"])
        return low > 0 or high < 0
    return row.low > 0 or row.high < 0


def _seat(c: Comparison, setup: str, lineup: str, seat: int) -> dict:
    s = c.seats
    return s[(s["setup"] == setup) & (s["lineup"] == lineup) & (s["seat"] == seat)].iloc[0].to_dict()


def _players(c: Comparison, setup: str, lineup: str) -> int:
    cells = c.cells
    return int(cells[(cells["setup"] == setup) & (cells["lineup"] == lineup)]["players"].iloc[0])


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def _finding_text(c: Comparison, ref) -> str:
    setup, lineup = ref.setup, ref.lineup
    if ref.metric == "seat_balance":
        seats = c.seats[(c.seats["setup"] == setup) & (c.seats["lineup"] == lineup)].sort_values("rate")
        best, worst = seats.iloc[-1], seats.iloc[0]
        cell = c.cells[(c.cells["setup"] == setup) & (c.cells["lineup"] == lineup)].iloc[0]
        return (f"{setup}: seats do not win equally often — {seat_name(int(best.seat))} wins {_pct(best.rate)} "
                f"({_pct(best.low)}–{_pct(best.high)}), {seat_name(int(worst.seat))} {_pct(worst.rate)} "
                f"({_pct(worst.low)}–{_pct(worst.high)}), n = {int(best.n)} games under {lineup}; gap "
                f"{_pct(cell.gap)} (95% CI {_pct(cell.gap_low)}–{_pct(cell.gap_high)}; a fair game shows "
                f"{_pct(cell.fair_gap)} by chance)")
    if ref.metric == "seat_scores":
        return (f"{setup}: {ref.subject} scores {ref.effect:+.1f} points against the game's mean (95% CI "
                f"{ref.low:+.1f} to {ref.high:+.1f}), n = {int(ref.n)} games under {lineup}")
    if ref.metric == "seat_outcomes":
        a, b = (_seat(c, s, lineup, int(ref.direction)) for s in (setup, ref.versus))
        return (f"{setup} and {ref.versus} share out their wins differently: {ref.subject} wins {_pct(a['rate'])} "
                f"(n = {a['n']}) vs {_pct(b['rate'])} (n = {b['n']}), a difference of {100 * ref.effect:+.0f} "
                f"points (95% CI {100 * ref.low:+.0f} to {100 * ref.high:+.0f}) under {lineup}")
    label, unit = METRICS[ref.metric]
    unit = c.length if ref.metric == "rounds" else unit
    more = "longer" if ref.metric == "rounds" else "more" if ref.metric == "lead_changes" else "wider"
    noun = "games" if ref.metric == "rounds" else "lead changes" if ref.metric == "lead_changes" else "margins"
    first, second = (setup, ref.versus) if ref.effect > 0 else (ref.versus, setup)
    return (f"{noun.capitalize()}: {more} in {first} than in {second} by {abs(ref.effect):.1f} {unit} on average "
            f"(95% CI {min(abs(ref.low), abs(ref.high)):.1f}–{max(abs(ref.low), abs(ref.high)):.1f}), "
            f"n = {int(ref.n)} games under {lineup}")


def where_text(holds: list[str], reverses: list[str], status: dict) -> str:
    """Under which line-ups a finding holds, in words."""
    parts = []
    others = [lineup for lineup in status if lineup not in holds]
    if len(status) == 1 or not others:
        parts.append(f"holds for {' and '.join(holds)}" + (" only (one line-up played)" if len(status) == 1 else
                                                         " (every line-up played)"))
    else:
        parts.append(f"holds for {' and '.join(holds)} only")
    for lineup in reverses:
        parts.append(f"REVERSES under {lineup}")
    quiet = [lineup for lineup, s in status.items() if s == "not significant"]
    if quiet:
        parts.append(f"not significant under {', '.join(quiet)}")
    unplayed = [lineup for lineup, s in status.items() if s == "not played"]
    if unplayed:
        parts.append(f"not played under {', '.join(unplayed)}")
    return "; ".join(parts) + f"; {CONDITIONAL}"


# ----- output -----

def to_json(c: Comparison) -> dict:
    """What ``imperial compare --json`` prints."""
    def ci(low, high):
        return [_num(low), _num(high)]

    return {
        "alpha": stats.ALPHA, "adjustment": "holm", "unit": "game", "length_unit": c.length,
        "runs": [{"run": r.run, "setup": r.setup, "bots": r.lineup, "players": int(r.players), "n": int(r.n)}
                 for r in c.runs.itertuples()],
        "cells": [{"setup": r.setup, "bots": r.lineup, "runs": r.runs.split(", "), "n": int(r.n),
                   "gap": _num(r.gap), "gap_ci": ci(r.gap_low, r.gap_high), "fair_gap": _num(r.fair_gap)}
                  for r in c.cells.itertuples()],
        "seats": [{"run": r.run, "seat": int(r.seat), "wins": int(r.wins), "n": int(r.n), "win_rate": _num(r.rate),
                   "ci": ci(r.low, r.high)} for r in c.run_seats.itertuples()],
        "bots": [{"setup": r.setup, "lineup": r.lineup, "bot": r.bot, "wins": int(r.wins), "n": int(r.n),
                  "win_rate": _num(r.rate), "ci": ci(r.low, r.high), "fair": _num(r.fair)} for r in c.bots.itertuples()],
        "tests": [{"id": r.id, "metric": r.metric, "setup": r.setup, "versus": r.versus, "bots": r.lineup,
                   "subject": r.subject, "effect_name": r.effect_name, "effect": _num(r.effect), "ci": ci(r.low, r.high),
                   "p": _num(r.p), "holm_p": _num(r.holm_p), "significant": bool(r.significant), "n": int(r.n),
                   "unit": r.unit, "test": r.test} for r in c.tests.itertuples()],
        "findings": [{"text": f["text"], "where": f["where"], "holds_for": f["holds_for"], "reverses": f["reverses"],
                      "reverses_in": f["reverses_in"], "not_significant_in": f["not_significant_in"],
                      "not_played_in": f["not_played_in"], "test": f["test"], "tests": f["tests"]}
                     for f in c.findings],
    }


def _num(x):
    if x is None or (isinstance(x, float) and x != x):
        return None
    return round(float(x), 6)


def text_report(c: Comparison) -> str:
    """The comparison as ``imperial compare`` prints it."""
    lines = [f"{len(c.runs)} runs, {len(c.cells)} cells (setup × line-up); unit of every test: the game; "
             f"{len(c.tests)} tests, Holm-adjusted at α = {stats.ALPHA}"
             + (f"; seats {c.seats_note}" if c.seats_note else ""), ""]
    for cell in c.cells.itertuples():
        seats = c.seats[(c.seats["setup"] == cell.setup) & (c.seats["lineup"] == cell.lineup)]
        rates = ", ".join(f"{seat_name(int(s.seat))[-1]} {_pct(s.rate)} ({_pct(s.low)}–{_pct(s.high)})"
                          for s in seats.itertuples())
        lines.append(f"{cell.setup} | {cell.lineup} | n = {cell.n}: {rates}; gap {_pct(cell.gap)} "
                     f"({_pct(cell.gap_low)}–{_pct(cell.gap_high)}, {_pct(cell.fair_gap)} by chance)")
    lines.append("")
    lines.append("Findings:" if c.findings else "Findings: none significant at α = 0.05 after Holm's adjustment.")
    for f in c.findings:
        lines.append(f"- {f['text']} [{stats.format_p(f['holm_p'])} Holm] — {f['where']}")
    lines += ["", "Tests (effect [95% CI], p, Holm p):"]
    for t in c.tests.itertuples():
        lines.append(f"  {t.id}: {t.effect_name} = {_fmt(t.effect)} [{_fmt(t.low)}, {_fmt(t.high)}], "
                     f"{stats.format_p(t.p)}, Holm {stats.format_p(t.holm_p)}, n = {t.n} games")
    return "\n".join(lines)


def _fmt(x: float) -> str:
    return "nan" if x != x else f"{x:.3g}"
