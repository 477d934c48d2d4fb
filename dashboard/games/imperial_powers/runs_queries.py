"""The questions of the Imperial Powers runs page and notebook (RULES.md §8, "Comparisons users will
run") over a run's tables in the catalogue: SQL that counts, then plain pandas that adds the 95%
intervals of imperial_lab.core.stats. Every function takes ``(catalog, run, players)`` (imperial_lab.dashboard.cache.load's
order) and reads the run's finished games of ``players`` seats only; no Streamlit here.

The unit is the game. A power plays at most once in a game, and a seat counted from the first
instigator (``rel``: 0 is the first instigator, who is instigator most often, §5.8) is filled once,
so every row of these tables has one observation per game. A shared win counts for every winner
(``wins``); ``outright`` counts the games won alone. A seat's VP *above the game's mean* (``above``)
takes out how high-scoring a game was, so powers are compared within games. Each row's ``p`` is
its own test; ``holm`` adjusts a page's p-values together.
"""

from __future__ import annotations

import math

import pandas as pd
from scipy import stats as sps

from imperial_lab.core.stats import against_fair, even_shares, holm, mean_ci, with_means, with_rates
from imperial_lab.dashboard.queries import fetch

# The finished games of run $1 with $2 seats, and one row per seat of each.
_SEATS = """
WITH g AS (SELECT game_id, players, first_instigator, powers, winners, scores, power_assignment
           FROM ip_games WHERE run = $1 AND status = 'finished' AND players = $2),
s0 AS (SELECT *, unnest(range(players::BIGINT)) AS seat FROM g),
s AS (SELECT game_id, players, power_assignment, seat, (seat - first_instigator + players) % players AS rel,
             powers[seat + 1] AS power, list_contains(winners, seat) AS won,
             list_contains(winners, seat) AND len(winners) = 1 AS alone, scores[seat + 1] AS score,
             scores[seat + 1] - list_avg(scores) AS above
      FROM s0)
"""
_COUNTS = ("count(*) AS games, sum(won::INT) AS wins, sum(alone::INT) AS outright, avg(score) AS score, "
           "stddev_samp(score) AS score_sd, avg(above) AS above, stddev_samp(above) AS above_sd")
MEANS = ("score", "above")  # the means of _COUNTS, each with its interval
SOURCES = {"vp_places": "place awards", "vp_spain": "Spain's bonus", "vp_exploitation": "Exploitation",
           "vp_start": "start bonus"}


# ----- intervals and tests -----

def mean_zero(mean: float, sd: float, n: int) -> float:
    """Two-sided p of Student's t test that a mean (of ``n`` games, standard deviation ``sd``) is 0."""
    if n < 2 or not sd == sd or sd == 0:
        return math.nan
    return float(2 * sps.t.sf(abs(mean) / (sd / math.sqrt(n)), n - 1))


def with_tests(table: pd.DataFrame, players: int) -> pd.DataFrame:
    """``p_wins`` (binomial against 1 / players) and ``p_above`` (t test of the VP above the game's
    mean against 0) per row, before with_means drops the standard deviations."""
    table = table.copy()
    table["p_wins"] = [against_fair(k, n, players) for k, n in zip(table["wins"], table["games"])]
    table["p_above"] = [mean_zero(m, s, int(n)) for m, s, n in zip(table["above"], table["above_sd"], table["games"])]
    return table


def adjusted(tables: dict[str, pd.DataFrame], columns=("p_wins", "p_above")) -> dict[str, pd.DataFrame]:
    """The tables with ``holm_<column>`` beside every p column: Holm over all their tests together
    (the tests a page shows form one family)."""
    cells = [(name, column, k) for name, t in tables.items() for column in columns if column in t
             for k in range(len(t))]
    adjusted_p = holm([tables[name][column].iloc[k] for name, column, k in cells])
    out = {name: t.copy() for name, t in tables.items()}
    for (name, column, k), p in zip(cells, adjusted_p):
        out[name].loc[out[name].index[k], f"holm_{column}"] = p
    return out


# ----- the run -----

def overview(catalog, run: str) -> pd.DataFrame:
    """The run's games by player count, status, line-up and power assignment (``games``)."""
    return fetch(catalog, "SELECT players, status, bots, power_assignment, count(*) AS games FROM ip_games "
                          "WHERE run = $1 GROUP BY ALL ORDER BY players, status, bots, power_assignment", [run])


# ----- 1. the powers -----

def power_wins(catalog, run: str, players: int) -> pd.DataFrame:
    """Per power: games it played, wins, outright wins, rate with its Wilson interval, mean VP and VP
    above the game's mean with their t intervals, ``p_wins`` and ``p_above``."""
    table = fetch(catalog, _SEATS + f"SELECT power, {_COUNTS} FROM s GROUP BY power ORDER BY power",
                  [run, players])
    return with_means(with_tests(with_rates(table), players), MEANS)


def powers_even(table: pd.DataFrame, players: int) -> float:
    """p of the chi-square test that every power wins outright equally often: only when every game
    seats every power (five players); nan otherwise, where each power's own test stands alone."""
    if len(table) != players or len(set(table["games"])) != 1:
        return math.nan
    return even_shares(table["outright"].tolist())


def seat_wins(catalog, run: str, players: int) -> pd.DataFrame:
    """Per seat counted from the first instigator (``rel``): the same figures as power_wins."""
    table = fetch(catalog, _SEATS + f"SELECT rel, {_COUNTS} FROM s GROUP BY rel ORDER BY rel", [run, players])
    return with_means(with_tests(with_rates(table), players), MEANS)


def power_by_assignment(catalog, run: str, players: int) -> pd.DataFrame:
    """Per power assignment mode (``pick``: chosen from the first instigator clockwise, R3; ``random``;
    ``fixed``) and power: games, wins, rate with its Wilson interval. Under ``pick`` a power's rate
    mixes its strength with who picks it; ``random`` separates them."""
    table = fetch(catalog, _SEATS + f"SELECT power_assignment, power, {_COUNTS} FROM s GROUP BY ALL "
                                    "ORDER BY power_assignment, power", [run, players])
    return with_rates(table).drop(columns=["score_sd", "above_sd"])


def power_seat(catalog, run: str, players: int) -> pd.DataFrame:
    """Per power and seat from the first instigator: games, wins, rate with its Wilson interval (the
    power × seat grid of §8)."""
    table = fetch(catalog, _SEATS + f"SELECT power, rel, {_COUNTS} FROM s GROUP BY ALL ORDER BY power, rel",
                  [run, players])
    return with_rates(table).drop(columns=["score_sd", "above_sd"])


def vp_sources(catalog, run: str, players: int) -> pd.DataFrame:
    """Per power: the mean VP per game from each source (place awards, Spain's bonus, Exploitation,
    the start bonus) with its t interval, and the total; ``games`` it played."""
    sums = ", ".join(f"sum({c}) AS {c}" for c in SOURCES)
    table = fetch(catalog, f"""
        WITH g AS (SELECT game_id FROM ip_games WHERE run = $1 AND status = 'finished' AND players = $2),
        t AS (SELECT game_id, seat, any_value(power) AS power, {sums} FROM ip_player_turn
              WHERE run = $1 AND game_id IN (SELECT game_id FROM g) GROUP BY game_id, seat)
        SELECT power, count(*) AS games, {", ".join(f"avg({c}) AS {c}, stddev_samp({c}) AS {c}_sd" for c in SOURCES)},
               avg({" + ".join(SOURCES)}) AS total, stddev_samp({" + ".join(SOURCES)}) AS total_sd
        FROM t GROUP BY power ORDER BY power""", [run, players])
    return with_means(table, (*SOURCES, "total"))


# ----- 2. events -----

def event_effects(catalog, run: str, players: int) -> pd.DataFrame:
    """Per event: times drawn (``draws``), the mean influence it took off the map (``removed``, the sum
    over seats of before − after; negative: added) and the mean VP it awarded, with t intervals; how
    often it hit a Leader other than its drawer (``hit_leader``) and helped its drawer
    (``helped_self``), with Wilson intervals. An event is drawn once per turn, so a row mixes ten draws
    of each game: its intervals treat draws as the unit (said on the page)."""
    table = fetch(catalog, """
        WITH g AS (SELECT game_id FROM ip_games WHERE run = $1 AND status = 'finished' AND players = $2),
        e AS (SELECT event, list_sum(before) - list_sum(after) AS removed, list_sum(vp) AS vp, hit_leader, helped_self
              FROM ip_events WHERE run = $1 AND game_id IN (SELECT game_id FROM g))
        SELECT event, count(*) AS games, avg(removed) AS removed, stddev_samp(removed) AS removed_sd,
               avg(vp) AS vp, stddev_samp(vp) AS vp_sd, sum(hit_leader::INT) AS hit_leader,
               sum(helped_self::INT) AS helped_self
        FROM e GROUP BY event ORDER BY event""", [run, players])
    table = with_means(table, ("removed", "vp"))
    for column in ("hit_leader", "helped_self"):
        table = with_rates(table, column, "games", f"{column}_")
    return table.rename(columns={"games": "draws"})


def instigator_events(catalog, run: str, players: int) -> pd.DataFrame:
    """Per draw index k (0: the instigator's first event, §5.7): the share of draws that hit a Leader
    other than the drawer and that helped the drawer, with Wilson intervals: the value of choosing
    early, when ten regions are open."""
    table = fetch(catalog, """
        WITH g AS (SELECT game_id FROM ip_games WHERE run = $1 AND status = 'finished' AND players = $2)
        SELECT draw, count(*) AS draws, sum(hit_leader::INT) AS hit_leader, sum(helped_self::INT) AS helped_self
        FROM ip_events WHERE run = $1 AND game_id IN (SELECT game_id FROM g) GROUP BY draw ORDER BY draw""",
                  [run, players])
    for column in ("hit_leader", "helped_self"):
        table = with_rates(table, column, "draws", f"{column}_")
    return table


def lead_changes(catalog, run: str, players: int) -> dict:
    """Lead changes in VP per game (the turns after which the sole VP leader differs from the last
    one): mean with its t interval, n."""
    from imperial_lab.core.games.imperial_powers.tables import LEAD_CHANGES_SQL

    values = fetch(catalog, "SELECT c.lead_changes FROM (" + LEAD_CHANGES_SQL.replace("{runs}", "$1") + ") c "
                   "JOIN ip_games g USING (run, game_id) WHERE g.players = $2", [run, players])["lead_changes"]
    mean, low, high = mean_ci(values)
    return {"mean": mean, "low": low, "high": high, "games": len(values)}
