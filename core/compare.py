"""Is a setup fair, and for which players? Comparisons of runs as a grid of setups × bot line-ups, read
along the strength ladder (imperial_lab.core.ladder), with statistics whose unit is the game (docs/compare.md).

A **cell** is a setup played by one line-up (``imperial_lab.core.bots.lineup_text`` of a run's bots; the runs of
one cell are pooled). Every figure is one value per finished game, and a shared win splits: each of
its k winners gets 1/k, in the rates, the fair share and the tests alike.

* **Seats' shares** in each cell, with intervals that hold together (``stats.share_ci``): Wilson at the
  Bonferroni level of the cell's *family*, so that every seat of every cell of the family holds its
  true share at once with 95% confidence, and the score test of each seat against the fair share
  1/P agrees with its interval.
* **The verdict** of a cell is an equivalence test against a declared margin (default ±3 points per
  seat): *fair* (every seat's interval within the fair share ± the margin), *unfair* (some seat's
  interval wholly beyond it), or *undecided*, with the games that would decide it (a power
  calculation). The gap between the best and the worst seat has the interval those intervals give it.
* **Along the ladder**, each seat's share per game is regressed on its rung (the slope's test), and
  the setup's verdict says whether an edge grows, shrinks or flips as the players get stronger.
* **Between two setups** of one line-up: each seat's share (score test and interval of the
  difference) and the game length, the lead changes and the winning margin (Welch).
* **Seats' scores** (Hotelling's T² on each game's scores minus the game's mean).

**Families** are fixed by the question, never by the runs loaded: a setup's seat tests over every rung
of its game's ladder and its seats' slopes are one family; its score tests another; each pair of
setups one; a line-up off the ladder a family of its own. Within a family p-values are Bonferroni-
adjusted, so a test is significant exactly when its interval (at the family's level) excludes no
effect. A **finding** is a fact significant under at least one line-up; it *holds* or *reverses*
under another line-up only on the same adjusted evidence. A finding (and a verdict) is
**established** when a fresh-seed replicate of the runs (``play_replicates``: the run named
``NAME-replicate``) shows it again; otherwise it is *found once, not yet replicated*.

``build`` is pure (per-game rows in); ``load`` queries the catalogue; ``to_json`` is what ``imperial
compare --json`` prints; ``summary`` the verdicts in plain words, first on the Compare page.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd

from imperial_lab.core import ladder, runstore, stats
from imperial_lab.core.bots import lineup_text
from imperial_lab.core.interface import seat_name
from imperial_lab.core.jsonio import clip
from imperial_lab.core.registry import DEFAULT_GAME
from imperial_lab.core.runstore import RunError

METRICS = {  # per-game figures compared between setups: label, unit
    "rounds": ("game length", "rounds"),
    "lead_changes": ("lead changes", "changes"),
    "margin": ("winning margin", "points"),
}
TEST_NAMES = {
    "seat_share": "exact binomial test of the seat's share against the fair share (Clopper-Pearson interval)",
    "trend": "slope of the seat's share per game on its rung (OLS, HC1 errors)",
    "seat_scores": "Hotelling's T² (seat score − game mean)",
    "share_difference": "difference of the seat's shares (Newcombe's interval and the test inverting it)",
    **{m: "Welch's t (difference of means)" for m in METRICS},
}
CONDITIONAL = "conditional on the bots that played"
SHARED_WINS = "a shared win splits: each of its k winners gets 1/k"
LADDER = "the ladder"  # the line-up of the slope tests, which span the rungs
REPLICATE_SUFFIX = "-replicate"
REPLICATE_SEED_OFFSET = 1_000_000  # a replicate plays seed + this: other game seeds (simulate.game_seed hashes)
ESTABLISHED = "established"
NOT_REPLICATED = "found once, not yet replicated"
VERDICT_WORDS = {"fair": "fair", "unfair": "unfair", "undecided": "not enough games"}

# Each statistic in one sentence for a player: the Compare page's glossary and its tables' tooltips.
GLOSSARY = {
    "share of the wins": "How often a seat wins: a game won alone counts 1, a win shared by k players counts 1/k "
                         "for each of them.",
    "fair share": "What every seat would win if the seats were worth the same: 1 in 4 (25%) with four players.",
    "interval": "The range in which the seat's true share lies, with 95% confidence for all the seats of a setup "
                "together (its seats under every rung of the ladder, so it is wider than one seat's alone).",
    "margin": "How far from its fair share a seat may be and the setup still count as fair; you choose it "
              "(3 points by default).",
    "fair": "Every seat's interval lies within the fair share ± the margin: the games show no seat is worth more "
            "than the margin.",
    "unfair": "Some seat's interval lies wholly beyond the margin: that seat is shown to be worth more (or less) "
              "than the margin.",
    "too few games": "Neither can be shown yet; the page says about how many games would decide (a power "
                     "calculation on the shares seen so far).",
    "the ladder": "The same setup played by ever stronger players: random bots, the heuristic bot at "
                  "temperature t=1, 0.3, 0.1 and 0 (the less randomness in its choices, the stronger it plays), "
                  "then a stronger bot that looks ahead.",
    "grows / shrinks / flips": "How a seat's edge changes as the players get stronger: a slope tested along the "
                               "ladder, or a seat shown above its share with some players and below with others.",
    "gap": "The best seat's share minus the worst seat's; its interval follows from the seats' intervals.",
    "line-up": "The bots that played a run: one bot in every seat is a rung of the ladder.",
    "family": "The tests asked about one question (one setup along the ladder, or two setups side by side); each "
              "test is judged against the number of tests in its family, however many runs you load.",
    "adjusted p": "A test's p-value times the number of tests in its family (Bonferroni): below 0.05, the "
                  "difference is significant.",
    "established": "The finding showed again on a replicate: the same runs played again on new seeds. "
                   "Otherwise it is found once, not yet replicated.",
}
# The per-game rows come from each game's tables part: its ``COMPARE`` holds ``sql`` (one row per
# finished game: run, game_id, setup, players, bots, winners, scores, rounds, margin, lead_changes;
# ``{runs}`` is the run filter's placeholders, as often as it appears), the unit of ``rounds``
# (``length``), optionally how its seats are counted (``seats``), and other sides to count instead of
# the seats (``by``: name -> {sql, sides (their names), seats}; Imperial Powers' powers).
DEFAULT_COMPARE: dict = {"length": "rounds", "seats": None, "by": {}}


@dataclass
class Comparison:
    runs: pd.DataFrame       # run, setup, lineup, players, n
    cells: pd.DataFrame      # setup, lineup, players, rung, runs, n, gap, gap_low, gap_high, verdict, games_to_decide, family
    seats: pd.DataFrame      # setup, lineup, seat, n, wins, rate, low, high, p, edge, score, score_low, score_high
    run_seats: pd.DataFrame  # run, seat, n, wins, rate, low, high (95%, the run alone)
    bots: pd.DataFrame       # setup, lineup, bot, n, wins, rate, low, high, fair (cells of two or more bots)
    tests: pd.DataFrame      # id, family, metric, setup, versus, lineup, subject, effect..., p, adjusted_p, significant
    families: pd.DataFrame   # family, question, size
    verdicts: pd.DataFrame   # setup, players, verdict, along, seat, text, replication (each setup along the ladder)
    pairs: pd.DataFrame      # setup, versus, lineup, gap, versus_gap, seat, difference, low, high, adjusted_p, ...
    findings: list[dict] = field(default_factory=list)
    games: pd.DataFrame | None = None  # the per-game rows (charts draw their distributions)
    length: str = "rounds"  # the unit of the game length (Imperia counts turns)
    seats_note: str | None = None  # how the game's seats are counted, when not as played (Imperia: from the start player)
    game: str = DEFAULT_GAME
    margin: float = stats.MARGIN
    sides: list[str] | None = None  # the names of the sides counted instead of seats (Imperial Powers' powers)
    replicate: Comparison | None = None  # the same runs on fresh seeds, when they were played

    @property
    def lineups(self) -> list[str]:
        """The line-ups, the ladder's rungs first (weakest first), then the others by name."""
        cells = self.cells.drop_duplicates("lineup")
        order = sorted(zip(cells["rung"].fillna(math.inf), cells["lineup"]))
        return [lineup for _, lineup in order]

    @property
    def setups(self) -> list[str]:
        return sorted(self.cells["setup"].unique())

    def ordered_cells(self) -> pd.DataFrame:
        """The cells by setup, then up the ladder (its rungs weakest first, then the other line-ups)."""
        order = self.cells.assign(order=self.cells["rung"].fillna(math.inf))
        return order.sort_values(["setup", "order", "lineup"]).drop(columns="order")

    @property
    def noun(self) -> str:
        """What the sides are: "seats", or "powers" when the powers are counted instead."""
        return "powers" if self.sides else "seats"

    def side(self, seat: int) -> str:
        """A seat (or a side: a power) as people read it."""
        return self.sides[seat] if self.sides else seat_name(seat)


# ----- loading -----

def load(catalog, runs, margin: float | None = None, by: str | None = None, on_step=None) -> Comparison:
    """The comparison of ``runs`` (names in the catalogue), with their replicates (``NAME-replicate``)
    when the catalogue has them; ``by`` counts another side than the seats (the game's ``COMPARE``).
    RunError for an unknown run. ``on_step(done, total)`` is called as each step of ``build`` ends (a
    progress bar)."""
    from imperial_lab.core.catalog import connect

    runs = sorted(set(runs))
    if not runs:
        raise RunError("compare: name one or more runs")
    margin = margin_of(margin)
    wanted = runs + [replicate_name(run) for run in runs]
    with connect(catalog, read_only=True) as con:
        listed = con.execute("SELECT name, bots, path FROM runs WHERE name IN (SELECT unnest(?))", [wanted]).df()
        missing = sorted(set(runs) - set(listed["name"]))
        if missing:
            raise RunError(f"compare: no run {clip(missing[0])} in the catalogue {catalog} (imperial runs lists them)")
        game = _game_of_runs(listed.loc[listed["name"].isin(runs), "path"])
        spec = compare_spec(game, by)
        sql = spec["sql"]
        names = list(listed["name"])
        games = con.execute(sql.format(runs=", ".join("?" * len(names))), names * sql.count("{runs}")).df()
    lineups = {row.name: lineup_text(row.bots, runstore.is_rotated(row.path)) for row in listed.itertuples()}
    if by and games.empty:
        raise RunError(f"compare --by {by}: these runs have no finished game that holds every {by} "
                       f"({spec['seats']})")
    main = games[games["run"].isin(runs)]
    options = dict(length=spec["length"], seats_note=spec["seats"], game=game, margin=margin, sides=spec.get("sides"))
    result = build(main, lineups, **options, on_step=on_step)
    again = games[~games["run"].isin(runs)]
    if not again.empty:
        result.replicate = build(again, lineups, **options)
        confirm(result, result.replicate)
    return result


def compare_spec(game: str, by: str | None = None) -> dict:
    """``game``'s ``COMPARE`` (its tables part) over the defaults, counting the sides ``by`` names when
    given. RunError for a game without one, or a side it does not count."""
    from imperial_lab.core.tables import tables_of

    spec = getattr(tables_of(game), "COMPARE", None)
    if spec is None:
        raise RunError(f"compare: the runs are of {game}, whose tables give no per-game rows to compare")
    spec = {**DEFAULT_COMPARE, **spec}
    if by is None:
        return spec
    if by not in spec["by"]:
        known = ", ".join(sorted(spec["by"])) or "none: only its seats"
        raise RunError(f"compare --by {clip(by)}: {game} counts no such side (known: {known})")
    return {**spec, **spec["by"][by]}


def _game_of_runs(paths) -> str:
    """The one game of the runs in ``paths`` (their run.json's ``game``); RunError for a mix."""
    games = sorted({(runstore.read_run(Path(path)) or {}).get("game", DEFAULT_GAME) for path in paths})
    if len(games) > 1:
        raise RunError(f"compare: the runs are of different games ({', '.join(games)}): compare runs of one game")
    return games[0]


def margin_of(margin) -> float:
    """The equivalence margin asked for (None: stats.MARGIN); RunError unless a share in (0, 0.5)."""
    if margin is None:
        return stats.MARGIN
    if not isinstance(margin, (int, float)) or not 0 < margin < 0.5:
        raise RunError(f"--margin: a share of the wins between 0 and 0.5 (0.03 is 3 points), got {clip(margin)}")
    return float(margin)


# ----- replicates -----

def replicate_name(run: str) -> str:
    return f"{run}{REPLICATE_SUFFIX}"


def play_replicates(catalog, runs, workers: int = 1, progress: bool = True, on_progress=None) -> list[str]:
    """Play (or resume) a fresh-seed replicate of each run of ``runs``: the same game, setup, bots,
    seat rotation and number of games, seeded ``seed + REPLICATE_SEED_OFFSET``, into the folder
    ``NAME-replicate`` beside the run's. Returns the replicates' names. ``on_progress(done, total)``
    counts the games of all of them. RunError for a run that was imported (its games cannot be played
    again) or unknown, before anything is played."""
    from imperial_lab.core.catalog import list_runs
    from imperial_lab.core.simulate import simulate

    table = list_runs(catalog).set_index("name")
    plans = []
    for run in sorted(set(runs)):
        if run not in table.index:
            raise RunError(f"compare --replicate: no run {clip(run)} in the catalogue {catalog}")
        folder = Path(table.loc[run, "path"])
        params = runstore.read_run(folder) or {}
        if params.get("kind") != "simulate":
            raise RunError(f"compare --replicate: {run} was imported, not played by the lab: it cannot be replicated")
        plans.append((folder.parent / runstore.check_name(replicate_name(run)), params))
    total, done = sum(params["games"] for _, params in plans), 0
    for out, params in plans:
        report = None if on_progress is None else (lambda k, _, before=done: on_progress(before + k, total))
        simulate(out, params["games"], params["players"], params["setup"], params["bots"],
                 (params["seed"] + REPLICATE_SEED_OFFSET) % 2**63, workers=workers, catalog=catalog, progress=progress,
                 on_progress=report, rotate=bool(params.get("rotate")), game=params.get("game"))
        done += params["games"]
    return [out.name for out, _ in plans]


# ----- the figures -----

def build(games: pd.DataFrame, lineups: dict[str, str], length: str = "rounds", seats_note: str | None = None,
          game: str = DEFAULT_GAME, margin: float = stats.MARGIN, sides: list[str] | None = None, on_step=None) -> Comparison:
    """The comparison of the finished games ``games`` (one row each: run, game_id, setup, players, bots,
    winners, scores, rounds, margin, lead_changes); ``lineups`` names each run's line-up; ``length`` is
    the unit of ``rounds``, ``seats_note`` how seats are counted, ``sides`` the names of the sides
    counted instead of seats (the game's ``COMPARE``); ``margin`` the equivalence margin per seat."""
    games = games.assign(lineup=games["run"].map(lineups).fillna("mixed"), setup=games["setup"].astype(str))
    runs = (games.groupby("run", observed=True)
            .agg(setup=("setup", "first"), lineup=("lineup", "first"), players=("players", "first"),
                 n=("game_id", "size")).reset_index())
    rungs = len(ladder.rungs(game))
    groups = {key: part for key, part in games.groupby(["setup", "lineup", "players"], observed=True, sort=True)}
    cells, seats, tests, bots, shares = [], [], [], [], {}
    step = on_step or (lambda done, total: None)
    for done, ((setup, lineup, players), part) in enumerate(groups.items(), 1):  # the steps: each cell, the rest
        players = int(players)
        rung = ladder.rung_of(lineup, game, players)
        shares[(setup, lineup)] = stats.win_shares(part["winners"], players)
        family, size = _share_family(setup, lineup, rung, players, rungs)
        cell, cell_seats, cell_tests = _cell(setup, lineup, players, rung, part, shares[(setup, lineup)], family,
                                             size, margin, sides)
        cells.append(cell)
        seats += cell_seats
        tests += cell_tests
        tests.append(_scores_test(setup, lineup, rung, part, cell_seats, rungs, sides))
        bots += _bot_rates(setup, lineup, players, part)
        step(done, len(groups) + 1)
    cells = pd.DataFrame(cells, columns=CELL_COLUMNS)
    seats = pd.DataFrame(seats, columns=SEAT_COLUMNS)
    for (setup, players), part in cells[cells["rung"].notna()].groupby(["setup", "players"], sort=True):
        tests += _trend_tests(setup, int(players), part, shares, rungs, sides)
    pairs = []
    for a, b in combinations(sorted(groups), 2):
        if a[1:] == b[1:]:  # two setups, one line-up, as many seats
            pair_tests, pair = _pair(a[0], b[0], a[1], int(a[2]), groups[a], groups[b], shares, cells, rungs,
                                     length, sides)
            tests += pair_tests
            pairs.append(pair)
    tests = pd.DataFrame(tests, columns=TEST_COLUMNS)
    tests["versus"] = tests["versus"].astype(object).where(tests["versus"].notna(), None)  # None, not NaN
    tests["adjusted_p"] = stats.bonferroni(tests["p"], tests["size"]) if len(tests) else []
    tests["significant"] = tests["adjusted_p"] < stats.ALPHA
    families = (tests.groupby("family", sort=False).agg(question=("question", "first"), size=("size", "first"))
                .reset_index())
    run_seats = pd.DataFrame([dict(run=run, **row) for run, part in games.groupby("run", observed=True)
                              for row in _run_seats(stats.win_shares(part["winners"], int(part["players"].iloc[0])))],
                             columns=["run", "seat", "n", "wins", "rate", "low", "high"])
    c = Comparison(runs, cells, seats, run_seats, pd.DataFrame(bots, columns=BOT_COLUMNS), tests, families,
                   pd.DataFrame(columns=SETUP_COLUMNS), pd.DataFrame(pairs, columns=PAIR_COLUMNS), games=games,
                   length=length, seats_note=seats_note, game=game, margin=margin, sides=sides)
    c.verdicts = pd.DataFrame([_along(c, setup, int(players)) for (setup, players), _ in
                               cells.groupby(["setup", "players"], sort=True)], columns=SETUP_COLUMNS)
    c.verdicts = c.verdicts.sort_values("setup", key=lambda setups: setups.map(label), kind="stable")
    c.findings = findings(c)
    step(len(groups) + 1, len(groups) + 1)
    return c


CELL_COLUMNS = ["setup", "lineup", "players", "rung", "runs", "n", "gap", "gap_low", "gap_high", "verdict",
                "games_to_decide", "family", "replication"]
SEAT_COLUMNS = ["setup", "lineup", "seat", "n", "wins", "rate", "low", "high", "p", "edge", "score", "score_low",
                "score_high"]
BOT_COLUMNS = ["setup", "lineup", "bot", "n", "wins", "rate", "low", "high", "fair"]
TEST_COLUMNS = ["id", "family", "question", "size", "metric", "setup", "versus", "lineup", "subject", "effect_name",
                "effect", "low", "high", "p", "n", "unit", "test", "direction"]
SETUP_COLUMNS = ["setup", "players", "verdict", "along", "seat", "text", "replication"]
PAIR_COLUMNS = ["setup", "versus", "lineup", "players", "n", "versus_n", "gap", "versus_gap", "seat", "rate",
                "versus_rate", "difference", "low", "high", "adjusted_p", "told_apart", "games_each", "family"]


def _share_family(setup: str, lineup: str, rung: int | None, players: int, rungs: int) -> tuple[str, int]:
    """The family of a cell's seat tests and its size: a setup's seats over every rung of the ladder,
    and its seats' slopes along it; a line-up off the ladder, its seats alone."""
    if rung is None:
        return f"shares:{setup}:{lineup}", players
    return f"shares:{setup}", players * rungs + players


def _cell(setup, lineup, players, rung, part, shares, family, size, margin, sides):
    n = len(part)
    figures = stats.seat_figures(shares.sum(axis=0), n, size, margin)
    par = figures["par"]
    dev = _deviations(part)
    question = (f"is {setup} fair along the ladder?" if rung is not None else f"is {setup} fair under {lineup}?")
    rows, tests = [], []
    for seat in range(players):
        score, score_low, score_high = stats.mean_ci(dev[:, seat])
        wins, rate, p = figures["wins"][seat], figures["win_rate"][seat], figures["p"][seat]
        low, high = figures["win_rate_ci"][seat]
        rows.append({"setup": setup, "lineup": lineup, "seat": seat, "n": n, "wins": wins, "rate": rate, "low": low,
                     "high": high, "p": p, "edge": stats.edge_shown(low, high, par), "score": score,
                     "score_low": score_low, "score_high": score_high})
        name = _side(seat, sides)
        tests.append((_test_id("seat_share", setup, None, lineup, name), family, question, size, "seat_share", setup,
                      None, lineup, name, f"{name}'s share of the wins − the fair share {par:.0%}", rate - par,
                      low - par, high - par, p, n, "game", TEST_NAMES["seat_share"], None))
    cell = {"setup": setup, "lineup": lineup, "players": players, "rung": rung,
            "runs": ", ".join(sorted(part["run"].unique())), "n": n, "gap": figures["gap"],
            "gap_low": figures["gap_ci"][0], "gap_high": figures["gap_ci"][1], "verdict": figures["verdict"],
            "games_to_decide": figures["games_to_decide"], "family": family, "replication": None}
    return cell, rows, tests


def _scores_test(setup, lineup, rung, part, seats, rungs, sides) -> tuple:
    """Hotelling's T² of the cell's seat scores, in the setup's family of score tests (one per rung)."""
    family, size = (f"scores:{setup}", rungs) if rung is not None else (f"scores:{setup}:{lineup}", 1)
    top = max(seats, key=lambda s: s["score"])
    return (_test_id("seat_scores", setup, None, lineup), family, f"do the seats of {setup} score alike?", size,
            "seat_scores", setup, None, lineup, _side(top["seat"], sides), "best seat's score − game mean (points)",
            top["score"], top["score_low"], top["score_high"], stats.scores_differ(_deviations(part)), len(part), "game",
            TEST_NAMES["seat_scores"], top["seat"])


def _trend_tests(setup, players, cells, shares, rungs, sides) -> list[tuple]:
    """Each seat's slope of its share per game on the rung, over the ladder's cells of ``setup`` (two
    rungs or more), in the setup's seat family."""
    if len(cells) < 2:
        return []
    family, size = _share_family(setup, "", 0, players, rungs)
    position = np.concatenate([np.full(int(cell.n), cell.rung) for cell in cells.itertuples()])
    stacked = np.vstack([shares[(setup, cell.lineup)] for cell in cells.itertuples()])
    rows = []
    for seat in range(players):
        name = _side(seat, sides)
        slope, low, high, p = stats.trend(position, stacked[:, seat], size)
        rows.append((_test_id("trend", setup, None, LADDER, name), family, f"is {setup} fair along the ladder?", size,
                     "trend", setup, None, LADDER, name, f"{name}'s share per rung up the ladder", slope, low, high, p,
                     len(position), "game", TEST_NAMES["trend"], None))
    return rows


def _pair(a, b, lineup, players, part_a, part_b, shares, cells, rungs, length, sides):
    """The tests between setups ``a`` and ``b`` under one line-up (each seat's share, and the per-game
    means), in the family of that pair (over the ladder, or of that line-up off it), and the pair's
    verdict: which looks fairer, and whether the games tell them apart."""
    rung = _rung(cells, a, lineup)
    family = f"pair:{a}:{b}" if rung is not None else f"pair:{a}:{b}:{lineup}"
    size = (players + len(METRICS)) * (rungs if rung is not None else 1)
    question = f"do {a} and {b} play alike?"
    n_a, n_b = len(part_a), len(part_b)
    wins_a, wins_b = shares[(a, lineup)].sum(axis=0), shares[(b, lineup)].sum(axis=0)
    rows, diffs = [], []
    for seat in range(players):
        name = _side(seat, sides)
        diff, low, high, p = stats.share_difference(wins_a[seat], n_a, wins_b[seat], n_b, size)
        diffs.append((diff, low, high, p))
        rows.append((_test_id("share_difference", a, b, lineup, name), family, question, size, "share_difference", a, b,
                     lineup, name, f"{name}'s share, {a} − {b}", diff, low, high, p, n_a + n_b, "game",
                     TEST_NAMES["share_difference"], None))
    for metric, (what, unit) in METRICS.items():
        unit = length if metric == "rounds" else unit
        diff, low, high, p = stats.mean_difference(part_a[metric], part_b[metric], size)
        rows.append((_test_id(metric, a, b, lineup), family, question, size, metric, a, b, lineup, what,
                     f"mean {what}, {a} − {b} ({unit})", diff, low, high, p, n_a + n_b, "game", TEST_NAMES[metric],
                     None))
    seat = max(range(players), key=lambda s: abs(diffs[s][0]))
    diff, low, high, p = diffs[seat]
    adjusted = [min(1.0, d[3] * size) for d in diffs]
    told = min(adjusted) < stats.ALPHA
    rate_a, rate_b = wins_a[seat] / n_a, wins_b[seat] / n_b
    gap = {s: float(cells.loc[(cells["setup"] == s) & (cells["lineup"] == lineup), "gap"].iloc[0]) for s in (a, b)}
    pair = {"setup": a, "versus": b, "lineup": lineup, "players": players, "n": n_a, "versus_n": n_b, "gap": gap[a],
            "versus_gap": gap[b], "seat": seat, "rate": rate_a, "versus_rate": rate_b, "difference": diff, "low": low,
            "high": high, "adjusted_p": adjusted[seat], "told_apart": told,
            "games_each": None if told else stats.games_to_tell_apart(rate_a, rate_b, size), "family": family}
    return rows, pair


def _rung(cells: pd.DataFrame, setup: str, lineup: str):
    rung = cells.loc[(cells["setup"] == setup) & (cells["lineup"] == lineup), "rung"].iloc[0]
    return None if rung is None or rung != rung else int(rung)


def _bot_rates(setup: str, lineup: str, players: int, part: pd.DataFrame) -> list[dict]:
    """Per entrant of a cell of two or more bots: its share of the wins (a game's win split among its k
    winners, an entrant taking the parts of its seats), against the share of the seats it holds."""
    per_game = [str(b).split(",") for b in part["bots"]]
    names = sorted({name for seats in per_game for name in seats})
    if len(names) < 2:
        return []
    rows, n = [], len(part)
    for name in names:
        wins = sum(sum(seats[p] == name for p in won) / len(won) for seats, won in zip(per_game, part["winners"])
                   if len(won))
        share = sum(seats.count(name) for seats in per_game) / n / players
        low, high = stats.wilson(wins, n)
        rows.append({"setup": setup, "lineup": lineup, "bot": name, "n": n, "wins": wins, "rate": wins / n,
                     "low": low, "high": high, "fair": share})
    return rows


def _deviations(part: pd.DataFrame) -> np.ndarray:
    scores = np.array([list(s) for s in part["scores"]], dtype=float)
    return scores - scores.mean(axis=1, keepdims=True)


def _run_seats(shares: np.ndarray) -> list[dict]:
    n = len(shares)
    return [{"seat": seat, "n": n, "wins": float(k), "rate": k / n, "low": lo, "high": hi}
            for seat, k in enumerate(shares.sum(axis=0)) for lo, hi in [stats.wilson(k, n)]]


def label(setup) -> str:
    """A setup as people read it: a setup file's name without its folder and ``.json``."""
    text = str(setup)
    return Path(text).stem if text.endswith(".json") else text


def _side(seat: int, sides) -> str:
    return sides[seat] if sides else seat_name(seat)


def _test_id(metric: str, setup: str, versus: str | None, lineup: str, subject: str | None = None) -> str:
    return ":".join(x for x in (metric, setup, versus, lineup, subject) if x)


# ----- the verdict along the ladder -----

def _along(c: Comparison, setup: str, players: int) -> dict:
    """The setup's verdict: its cells' verdicts (the ladder's first, weakest first) and whether an
    edge grows, shrinks or flips along the ladder (the slopes and the seats' intervals, adjusted in
    the setup's family), in words."""
    cells = c.cells[(c.cells["setup"] == setup) & (c.cells["players"] == players)]
    rungs = cells[cells["rung"].notna()].sort_values("rung")
    verdicts = set(cells["verdict"])
    overall = "unfair" if "unfair" in verdicts else "fair" if verdicts == {"fair"} else "undecided"
    along, seat, words = None, None, ""
    if len(rungs) >= 2:
        along, seat, words = _trend_words(c, setup, players, rungs)
    text = f"{label(setup)}: {_cells_words(c, cells)}" + (f" {words}" if words else "")
    return {"setup": setup, "players": players, "verdict": overall, "along": along, "seat": seat, "text": text,
            "replication": None}


def _trend_words(c: Comparison, setup: str, players: int, rungs: pd.DataFrame) -> tuple[str, int | None, str]:
    par = 1 / players
    seats = c.seats[c.seats["setup"] == setup]
    weak, strong = rungs.iloc[0], rungs.iloc[-1]
    names = f"{ladder.rung_words(_spec(weak.lineup), c.game)} → {ladder.rung_words(_spec(strong.lineup), c.game)}"
    edges = {s: set(seats[(seats["seat"] == s) & seats["lineup"].isin(rungs["lineup"])]["edge"]) for s in range(players)}
    flipped = [s for s in range(players) if {1, -1} <= edges[s]]

    def rate(s, lineup):
        row = seats[(seats["seat"] == s) & (seats["lineup"] == lineup)].iloc[0]
        return row.rate

    if flipped:
        s = max(flipped, key=lambda s: abs(rate(s, strong.lineup) - rate(s, weak.lineup)))
        above = [ladder.rung_words(_spec(lu), c.game) for lu in rungs["lineup"]
                 if seats[(seats["seat"] == s) & (seats["lineup"] == lu)]["edge"].iloc[0] == 1]
        below = [ladder.rung_words(_spec(lu), c.game) for lu in rungs["lineup"]
                 if seats[(seats["seat"] == s) & (seats["lineup"] == lu)]["edge"].iloc[0] == -1]
        return "flips", s, (f"Along the ladder {c.side(s)}'s edge flips: above its share with {', '.join(above)}, "
                            f"below it with {', '.join(below)}.")
    trends = c.tests[(c.tests["metric"] == "trend") & (c.tests["setup"] == setup) & c.tests["significant"]]
    if trends.empty:
        slopes = c.tests[(c.tests["metric"] == "trend") & (c.tests["setup"] == setup)]
        bound = max([abs(x) for x in (*slopes["low"], *slopes["high"]) if x == x] or [math.nan])
        return "no change shown", None, (f"Along the ladder ({names}) no seat's share is shown to change"
                                         + (f" (each within ±{100 * bound:.1f} points a rung)." if bound == bound
                                            else "."))
    # Of the seats whose share is shown to change, the one farthest from its fair share at either end.
    changing = [p for p in range(players) if c.side(p) in set(trends["subject"])]
    s = max(changing, key=lambda p: max(abs(rate(p, weak.lineup) - par), abs(rate(p, strong.lineup) - par)))
    first, last = rate(s, weak.lineup), rate(s, strong.lineup)
    kind = "grows" if abs(last - par) > abs(first - par) else "shrinks"
    above = (last if kind == "grows" else first) > par  # the side of the fair share its larger distance is on
    return kind, s, (f"As the players get stronger ({names}), {c.side(s)}'s {'edge' if above else 'shortfall'} "
                     f"{kind}: {_pct(first)} → {_pct(last)} of the wins (fair share {_pct(par)}).")


def _cells_words(c: Comparison, cells: pd.DataFrame) -> str:
    """The verdicts of a setup's cells in one sentence: where it is unfair (its strongest edge), fair,
    and undecided (with the games that would decide)."""
    order = cells.assign(order=cells["rung"].fillna(math.inf)).sort_values(["order", "lineup"])
    parts = []
    unfair = order[order["verdict"] == "unfair"]
    if len(unfair):
        worst = max(unfair.itertuples(), key=lambda cell: _worst_seat(c, cell)[1])
        seat, _ = _worst_seat(c, worst)
        row = c.seats[(c.seats["setup"] == worst.setup) & (c.seats["lineup"] == worst.lineup)
                      & (c.seats["seat"] == seat)].iloc[0]
        parts.append(f"unfair with {_lineups_words(c, unfair)} (beyond ±{_pts(c.margin)} a seat): "
                     f"{c.side(seat)} wins {_pct(row.rate)} ({_ci(row.low, row.high)}) of {int(row.n):,} games "
                     f"with {_lineup_words(c, worst.lineup)}")
    fair = order[order["verdict"] == "fair"]
    if len(fair):
        parts.append(f"fair within ±{_pts(c.margin)} a seat with {_lineups_words(c, fair)}")
    undecided = order[order["verdict"] == "undecided"]
    if len(undecided):
        least, most = int(undecided["games_to_decide"].min()), int(undecided["games_to_decide"].max())
        games = ("more games than anyone could play: a seat sits on the margin" if least >= stats.MAX_GAMES_TO_DECIDE
                 else f"about {least:,} games a line-up would decide" if most == least
                 else f"about {least:,} games a line-up would decide, more than anyone could play where a seat "
                      f"sits on the margin" if most >= stats.MAX_GAMES_TO_DECIDE
                 else f"about {least:,} to {most:,} games a line-up would decide")
        parts.append(f"not enough games to tell with {_lineups_words(c, undecided)} ({_games_words(undecided['n'])}; "
                     f"{games})")
    return "; ".join(parts) + "."


def _games_words(counts) -> str:
    """``1,000 games each`` or ``1,000, 500 games``."""
    counts = [int(n) for n in counts]
    if len(set(counts)) == 1:
        return f"{counts[0]:,} games" + (" each" if len(counts) > 1 else "")
    return ", ".join(f"{n:,}" for n in counts) + " games"


def _worst_seat(c: Comparison, cell) -> tuple[int, float]:
    """The seat farthest from its fair share in a cell, and how far."""
    seats = c.seats[(c.seats["setup"] == cell.setup) & (c.seats["lineup"] == cell.lineup)]
    par = 1 / int(cell.players)
    row = max(seats.itertuples(), key=lambda s: abs(s.rate - par))
    return int(row.seat), abs(row.rate - par)


def _spec(lineup: str) -> str:
    """The bot of a line-up of one bot in every seat (``heuristic ×4`` -> ``heuristic``)."""
    return lineup.rsplit(" ×", 1)[0]


def _lineup_words(c: Comparison, lineup: str) -> str:
    rung = c.cells.loc[c.cells["lineup"] == lineup, "rung"].iloc[0]
    return ladder.rung_words(_spec(lineup), c.game) if rung == rung and rung is not None else lineup


def _lineups_words(c: Comparison, cells: pd.DataFrame) -> str:
    return ", ".join(_lineup_words(c, lineup) for lineup in cells["lineup"])


def _pct(x: float) -> str:
    return "–" if x != x else f"{100 * x:.1f}%"


def _ci(low: float, high: float) -> str:
    """An interval of shares: ``34.1–40.0%``."""
    return "–" if low != low else f"{100 * low:.1f}–{100 * high:.1f}%"


def _pts(x: float) -> str:
    return f"{100 * x:g} points"


# ----- findings -----

def findings(c: Comparison) -> list[dict]:
    """One finding per fact (a seat's share, a seat's slope, a setup's scores, a seat's share or a mean
    between two setups) significant under at least one line-up, strongest first, with its status under
    every line-up of the comparison that can play it."""
    out = []
    tests = c.tests
    keys = ["metric", "setup", tests["versus"].fillna(""), tests["subject"].where(tests["metric"] != "seat_scores", "")]
    for _, group in tests.groupby(keys, sort=False):
        significant = group[group["significant"]]
        if significant.empty:
            continue
        ref = significant.sort_values("adjusted_p").iloc[0]
        if ref.metric == "trend":
            status = {LADDER: "holds"}
        else:
            players = int(c.cells.loc[c.cells["setup"] == ref.setup, "players"].iloc[0])
            status = {lineup: "not played" for lineup in c.lineups
                      if (c.cells[c.cells["lineup"] == lineup]["players"] == players).any()}
            for row in group.itertuples():
                status[row.lineup] = _status(c, row, ref)
        holds = [lineup for lineup, s in status.items() if s == "holds"]
        reverses = [lineup for lineup, s in status.items() if s == "reverses"]
        where = (f"along the ladder's rungs played; {CONDITIONAL}" if ref.metric == "trend"
                 else where_text(holds, reverses, status))
        out.append({"id": ref["id"], "metric": ref.metric, "setup": ref.setup, "versus": ref.versus,
                    "subject": ref.subject, "family": ref.family, "text": _finding_text(c, ref), "holds_for": holds,
                    "reverses_in": reverses,
                    "not_significant_in": [lineup for lineup, s in status.items() if s == "not significant"],
                    "not_played_in": [lineup for lineup, s in status.items() if s == "not played"],
                    "reverses": bool(reverses), "status": status, "test": ref["id"], "tests": list(group["id"]),
                    "adjusted_p": float(ref["adjusted_p"]), "where": where,
                    "replication": NOT_REPLICATED, "replicate": None})
    return sorted(out, key=lambda f: (not f["reverses"], f["adjusted_p"]))


def _status(c: Comparison, row, ref) -> str:
    """How the fact of ``ref`` (its strongest line-up) stands under ``row``'s line-up: it holds or
    reverses only when significant in its family, in the same or the opposite direction."""
    if not row.significant:
        return "not significant"
    return "holds" if _direction(c, row, ref) == _direction(c, ref, ref) else "reverses"


def _direction(c: Comparison, row, ref) -> int:
    """+1 / −1: the direction of ``row`` on the subject of ``ref`` (the sign of its effect; for scores,
    the sign of ``ref``'s seat's score advantage under ``row``'s line-up)."""
    if ref.metric == "seat_scores":
        seats = c.seats
        score = seats[(seats["setup"] == row.setup) & (seats["lineup"] == row.lineup)
                      & (seats["seat"] == int(ref.direction))]["score"].iloc[0]
        return 1 if score > 0 else -1
    return 1 if row.effect > 0 else -1


def _finding_text(c: Comparison, ref) -> str:
    setup, lineup, n = ref.setup, ref.lineup, int(ref.n)
    if ref.metric == "seat_share":
        row = c.seats[(c.seats["setup"] == setup) & (c.seats["lineup"] == lineup)
                      & (c.seats["seat"] == _seat_of(c, ref.subject))].iloc[0]
        more = "more" if ref.effect > 0 else "less"
        return (f"{label(setup)}: {ref.subject} wins {more} than its fair share — {_pct(row.rate)} "
                f"({_ci(row.low, row.high)}) against {_pct(1 / _players(c, setup))}, n = {n:,} games "
                f"under {lineup}")
    if ref.metric == "trend":
        way = "rises" if ref.effect > 0 else "falls"
        return (f"{label(setup)}: {ref.subject}'s share {way} up the ladder by {100 * abs(ref.effect):.1f} points a rung "
                f"({100 * ref.low:+.1f} to {100 * ref.high:+.1f}), n = {n:,} games")
    if ref.metric == "seat_scores":
        return (f"{label(setup)}: the {c.noun} do not score alike — {ref.subject} scores {ref.effect:+.1f} points against the "
                f"game's mean (95% CI {ref.low:+.1f} to {ref.high:+.1f}), n = {n:,} games under {lineup}")
    if ref.metric == "share_difference":
        a, b = (c.seats[(c.seats["setup"] == s) & (c.seats["lineup"] == lineup)
                        & (c.seats["seat"] == _seat_of(c, ref.subject))].iloc[0] for s in (setup, ref.versus))
        return (f"{label(setup)} and {label(ref.versus)} share out their wins differently: {ref.subject} wins {_pct(a.rate)} "
                f"(n = {int(a.n):,}) vs {_pct(b.rate)} (n = {int(b.n):,}), a difference of {100 * ref.effect:+.1f} "
                f"points ({100 * ref.low:+.1f} to {100 * ref.high:+.1f}) under {lineup}")
    unit = METRICS[ref.metric][1]
    unit = c.length if ref.metric == "rounds" else unit
    more = "longer" if ref.metric == "rounds" else "more" if ref.metric == "lead_changes" else "wider"
    noun = "games" if ref.metric == "rounds" else "lead changes" if ref.metric == "lead_changes" else "margins"
    first, second = (label(setup), label(ref.versus)) if ref.effect > 0 else (label(ref.versus), label(setup))
    return (f"{noun.capitalize()}: {more} in {first} than in {second} by {abs(ref.effect):.1f} {unit} on average "
            f"({min(abs(ref.low), abs(ref.high)):.1f}–{max(abs(ref.low), abs(ref.high)):.1f}), n = {n:,} games "
            f"under {lineup}")


def _seat_of(c: Comparison, name: str) -> int:
    players = int(c.seats["seat"].max()) + 1
    return next(p for p in range(players) if c.side(p) == name)


def _players(c: Comparison, setup: str) -> int:
    return int(c.cells.loc[c.cells["setup"] == setup, "players"].iloc[0])


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


# ----- replication -----

def confirm(c: Comparison, again: Comparison) -> None:
    """Mark what the replicate ``again`` (the same runs on fresh seeds) shows again: a finding is
    established when its strongest test is significant in the same direction on the replicate; a
    cell's verdict (fair or unfair) when the replicate's cell gives the same; a setup's change along
    the ladder when the replicate finds the same change of the same seat."""
    tests = again.tests.set_index("id")
    for f in c.findings:
        ref = c.tests.set_index("id").loc[f["test"]]
        if f["test"] not in tests.index:
            continue
        row = tests.loc[f["test"]]
        same = bool(row.significant) and np.sign(row.effect) == np.sign(ref.effect)
        if f["metric"] == "seat_scores":
            same = bool(row.significant) and row.subject == ref.subject
        f["replicate"] = {"adjusted_p": _num(row.adjusted_p), "effect": _num(row.effect), "n": int(row.n)}
        if same:
            f["replication"] = ESTABLISHED
    verdicts = again.cells.set_index(["setup", "lineup"])["verdict"]
    c.cells["replication"] = [
        (ESTABLISHED if verdicts.get((cell.setup, cell.lineup)) == cell.verdict else NOT_REPLICATED)
        if cell.verdict != "undecided" and (cell.setup, cell.lineup) in verdicts.index else None
        for cell in c.cells.itertuples()]
    along = again.verdicts.set_index("setup")
    c.verdicts["replication"] = [
        (ESTABLISHED if (along.loc[s.setup, "along"], along.loc[s.setup, "seat"]) == (s.along, s.seat) else
         NOT_REPLICATED) if s.along in ("grows", "shrinks", "flips") and s.setup in along.index else None
        for s in c.verdicts.itertuples()]


# ----- in words -----

def summary(c: Comparison) -> list[str]:
    """The verdicts in plain words, first on the page and in the report: one sentence per setup (its
    verdicts along the ladder, whether an edge grows, shrinks or flips), then one per pair of setups
    (which looks fairer under each line-up both played, and whether the games tell them apart)."""
    lines = []
    for s in c.verdicts.itertuples():
        mark = f" [{s.replication}]" if s.replication else ""
        lines.append(s.text + mark)
    for _, pairs in c.pairs.groupby(["setup", "versus"], sort=True):
        lines.append(pair_text(c, pairs))
    return lines


def pair_text(c: Comparison, pairs: pd.DataFrame) -> str:
    """Two setups in one sentence: which looks fairer (the smaller best-minus-worst seat) under each
    line-up both played, then where they differ, or that the games a setup cannot tell them apart and
    about how many would: "three_nations_each looks fairer than standard with random (gap 5.0 vs 10.0
    points), ..., but 150 games a setup cannot tell them apart; about 2,400 games each would"."""
    order = pairs.assign(order=[_rung_order(c, lineup) for lineup in pairs["lineup"]]).sort_values("order")
    first = order.iloc[0]
    a, b = label(first.setup), label(first.versus)
    parts = []
    for looks, rows in _by_looks(order, a, b):
        gaps = ", ".join(f"{_lineup_words(c, p.lineup)} {100 * p.gap:.1f} vs {100 * p.versus_gap:.1f}"
                         for p in rows.itertuples())
        parts.append(f"{looks} with {gaps} points")
    head = f"Best-minus-worst seat of {a} vs {b}: " + "; ".join(parts)
    apart = order[order["told_apart"]]
    if len(apart):
        p = apart.iloc[0]
        return (f"{head}. They differ with {_lineup_words(c, p.lineup)}: {c.side(int(p.seat))} wins {_pct(p.rate)} "
                f"in {a} and {_pct(p.versus_rate)} in {b} ({_games_words([p.n, p.versus_n])}).")
    p = order.sort_values("games_each").iloc[0]
    games = _games_words(sorted(set(order["n"]) | set(order["versus_n"])))
    if p.games_each >= stats.MAX_GAMES_TO_DECIDE:
        return f"{head}; no {c.noun[:-1]}'s share is shown to differ between them ({games} a setup)."
    return (f"{head}; {games} a setup cannot tell them apart; about {int(p.games_each):,} games each would "
            f"(with {_lineup_words(c, p.lineup)}).")


def _by_looks(pairs: pd.DataFrame, a: str, b: str):
    """The pairs' line-ups grouped by which setup looks fairer there (the smaller gap), in order."""
    def looks(p) -> str:
        if round(1000 * p.gap) == round(1000 * p.versus_gap):
            return f"{a} and {b} look alike"
        return f"{a} looks fairer" if p.gap < p.versus_gap else f"{b} looks fairer"

    keys = [looks(p) for p in pairs.itertuples()]
    for key in dict.fromkeys(keys):
        yield key, pairs[[k == key for k in keys]]


def _rung_order(c: Comparison, lineup: str) -> float:
    rung = c.cells.loc[c.cells["lineup"] == lineup, "rung"].iloc[0]
    return math.inf if rung is None or rung != rung else float(rung)


# ----- output -----

def to_json(c: Comparison) -> dict:
    """What ``imperial compare --json`` prints."""
    def ci(low, high):
        return [_num(low), _num(high)]

    def cell_seats(cell):
        seats = c.seats[(c.seats["setup"] == cell.setup) & (c.seats["lineup"] == cell.lineup)]
        return [{"seat": int(s.seat), "name": c.side(int(s.seat)), "wins": _num(s.wins), "win_share": _num(s.rate),
                 "ci": ci(s.low, s.high), "p": _num(s.p), "edge": int(s.edge)} for s in seats.itertuples()]

    return {
        "alpha": stats.ALPHA, "adjustment": "bonferroni within each family", "margin": c.margin, "unit": "game",
        "shared_wins": SHARED_WINS, "game": c.game, "length_unit": c.length, "seats_counted": c.seats_note, "sides": c.sides,
        "ladder": [{"rung": i, "bots": spec, "words": ladder.rung_words(spec, c.game)}
                   for i, spec in enumerate(ladder.rungs(c.game))],
        "summary": summary(c),
        "runs": [{"run": r.run, "setup": r.setup, "bots": r.lineup, "players": int(r.players), "n": int(r.n)}
                 for r in c.runs.itertuples()],
        "replicates": None if c.replicate is None else [
            {"run": r.run, "setup": r.setup, "bots": r.lineup, "n": int(r.n)} for r in c.replicate.runs.itertuples()],
        "families": [{"family": f.family, "question": f.question, "tests": int(f.size)} for f in c.families.itertuples()],
        "cells": [{"setup": r.setup, "bots": r.lineup, "rung": None if r.rung != r.rung or r.rung is None else int(r.rung),
                   "runs": r.runs.split(", "), "n": int(r.n), "seats": cell_seats(r), "gap": _num(r.gap),
                   "gap_ci": ci(r.gap_low, r.gap_high), "verdict": r.verdict,
                   "games_to_decide": None if r.games_to_decide is None or r.games_to_decide != r.games_to_decide
                   else int(r.games_to_decide), "family": r.family, "replication": r.replication}
                  for r in c.cells.itertuples()],
        "verdicts": [{"setup": s.setup, "players": int(s.players), "verdict": s.verdict, "along": s.along,
                    "seat": None if s.seat is None or s.seat != s.seat else int(s.seat), "text": s.text,
                    "replication": s.replication} for s in c.verdicts.itertuples()],
        "pairs": [{"setup": p.setup, "versus": p.versus, "bots": p.lineup, "gap": _num(p.gap),
                   "versus_gap": _num(p.versus_gap), "seat": int(p.seat), "difference": _num(p.difference),
                   "ci": ci(p.low, p.high), "adjusted_p": _num(p.adjusted_p), "told_apart": bool(p.told_apart),
                   "games_each": None if p.games_each is None or p.games_each != p.games_each else int(p.games_each)}
                  for p in c.pairs.itertuples()],
        "seats": [{"run": r.run, "seat": int(r.seat), "wins": _num(r.wins), "n": int(r.n), "win_share": _num(r.rate),
                   "ci": ci(r.low, r.high)} for r in c.run_seats.itertuples()],
        "bots": [{"setup": r.setup, "lineup": r.lineup, "bot": r.bot, "wins": _num(r.wins), "n": int(r.n),
                  "win_share": _num(r.rate), "ci": ci(r.low, r.high), "fair": _num(r.fair)} for r in c.bots.itertuples()],
        "tests": [{"id": r.id, "family": r.family, "metric": r.metric, "setup": r.setup, "versus": r.versus,
                   "bots": r.lineup, "subject": r.subject, "effect_name": r.effect_name, "effect": _num(r.effect),
                   "ci": ci(r.low, r.high), "p": _num(r.p), "adjusted_p": _num(r.adjusted_p),
                   "significant": bool(r.significant), "n": int(r.n), "unit": r.unit, "test": r.test}
                  for r in c.tests.itertuples()],
        "findings": [{"text": f["text"], "where": f["where"], "holds_for": f["holds_for"], "reverses": f["reverses"],
                      "reverses_in": f["reverses_in"], "not_significant_in": f["not_significant_in"],
                      "not_played_in": f["not_played_in"], "test": f["test"], "tests": f["tests"],
                      "family": f["family"], "adjusted_p": _num(f["adjusted_p"]), "replication": f["replication"],
                      "replicate": f["replicate"]} for f in c.findings],
    }


def _num(x):
    if x is None or (isinstance(x, float) and x != x):
        return None
    return round(float(x), 6)


def text_report(c: Comparison) -> str:
    """The comparison as ``imperial compare`` prints it: the verdicts in words first, then each cell,
    the findings and every test."""
    sides = f"; {c.noun} {c.seats_note}" if c.seats_note else ""
    lines = [*summary(c), "",
             f"{len(c.runs)} runs, {len(c.cells)} cells (setup × line-up); unit of every test: the game; {SHARED_WINS}; "
             f"{len(c.tests)} tests in {len(c.families)} families, Bonferroni within each at α = {stats.ALPHA}; "
             f"margin ±{_pts(c.margin)} a seat{sides}"
             + ("" if c.replicate is None else f"; replicates: {len(c.replicate.runs)} runs on fresh seeds"), ""]
    for cell in c.ordered_cells().itertuples():
        seats = c.seats[(c.seats["setup"] == cell.setup) & (c.seats["lineup"] == cell.lineup)]
        rates = ", ".join(f"{c.side(int(s.seat))} {_pct(s.rate)} ({_ci(s.low, s.high)})"
                          for s in seats.itertuples())
        decide = (f", about {int(cell.games_to_decide):,} games would decide"
                  if cell.verdict == "undecided" else "")
        mark = f" [{cell.replication}]" if cell.replication else ""
        lines.append(f"{label(cell.setup)} | {cell.lineup} | n = {cell.n:,}: {rates}; gap {_pct(cell.gap)} "
                     f"({_ci(cell.gap_low, cell.gap_high)}); {VERDICT_WORDS[cell.verdict]}{decide}{mark}")
    lines.append("")
    lines.append("Findings:" if c.findings else
                 f"Findings: none significant at α = {stats.ALPHA} after the adjustment in its family.")
    for f in c.findings:
        lines.append(f"- {f['text']} [{stats.format_p(f['adjusted_p'])} adjusted; {f['replication']}] — {f['where']}")
    lines += ["", "Tests (effect [interval at the family's level], p, adjusted p, family):"]
    for t in c.tests.itertuples():
        lines.append(f"  {t.id}: {t.effect_name} = {_fmt(t.effect)} [{_fmt(t.low)}, {_fmt(t.high)}], "
                     f"{stats.format_p(t.p)}, adjusted {stats.format_p(t.adjusted_p)}, n = {t.n} games, {t.family} "
                     f"({t.size} tests)")
    return "\n".join(lines)


def _fmt(x: float) -> str:
    return "nan" if x != x else f"{x:.3g}"
