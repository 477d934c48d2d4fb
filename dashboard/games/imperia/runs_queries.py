"""The questions of the Imperia runs page (RULES.md §10, "Comparisons users will run") over a run's
tables in the catalogue: SQL that counts, then plain pandas that adds the 95% intervals of imperial_lab.core.stats.
Every function takes ``(catalog, run, players)`` (imperial_lab.dashboard.cache.load's order) and reads the run's
finished games of ``players`` seats only; no Streamlit here, so tests and notebooks ask the same.

The unit is the game. A seat's place is counted from the start player (``(seat - start_seat +
players) % players``: 0 is the start player, who places the first board and the last fortress, §3).
A shared first place counts as a win for every seat in it (``wins``); ``outright`` counts the games
won alone, which the chi-square test of equal shares takes (imperial_lab.core.stats.even_shares). A group of
seats that one game fills once each (seat, fortress-placement order, warlord order, a board side's
placer) has one observation per game; the fortress site classes are the exception (a game may put
two fortresses in one class), said so where they are shown, with a per-game test beside them.
"""

from __future__ import annotations


import numpy as np
import pandas as pd

from imperial_lab.core.stats import against_fair, even_shares, mean_ci, wilson, with_means, with_rates
from imperial_lab.dashboard.queries import fetch

# The finished games of run $1 with $2 seats, and one row per seat of each.
_SEATS = """
WITH g AS (SELECT game_id, players, start_seat, winners, totals, fortresses, fortress_order, layout, boards,
                  board_placers, plies, turns, draw, tiebreak
           FROM im_games WHERE run = $1 AND status = 'finished' AND players = $2),
s0 AS (SELECT *, unnest(range(players::BIGINT)) AS seat FROM g),
s AS (SELECT game_id, players, layout, seat, (seat - start_seat + players) % players AS rel,
             list_contains(winners, seat) AS won, list_contains(winners, seat) AND len(winners) = 1 AS alone,
             totals[seat + 1] AS score, fortresses[seat + 1] AS fortress,
             list_position(fortress_order, seat) - 1 AS fortress_rank
      FROM s0)
"""
_COUNTS = ("count(*) AS games, sum(won::INT) AS wins, sum(alone::INT) AS outright, avg(score) AS score, "
           "stddev_samp(score) AS score_sd")
# Manhattan distance from a space to the nearest castle space (3,3)-(4,4): on the fortress zone (the ring
# of the inner 6×6, §3.3) 2 in the middle of a side, 3 beside a corner, 4 on a corner of the 6×6.
_CASTLE_DISTANCE = ("(CASE WHEN fortress // 8 < 3 THEN 3 - fortress // 8 WHEN fortress // 8 > 4 THEN fortress // 8 - 4 "
                    "ELSE 0 END + CASE WHEN fortress % 8 < 3 THEN 3 - fortress % 8 WHEN fortress % 8 > 4 "
                    "THEN fortress % 8 - 4 ELSE 0 END)")
SITE_CLASSES = {2: "side, middle", 3: "side, beside a corner", 4: "corner of the 6×6"}


# ----- intervals -----

def with_score_interval(table: pd.DataFrame) -> pd.DataFrame:
    """The mean score's 95% Student's t interval (``score_low``, ``score_high``)."""
    return with_means(table, ("score",))


# ----- the run -----

def overview(catalog, run: str) -> pd.DataFrame:
    """The run's games by player count, status, line-up and layout (``games``)."""
    return fetch(catalog, "SELECT players, status, bots, layout, count(*) AS games FROM im_games WHERE run = $1 "
                          "GROUP BY ALL ORDER BY players, status, bots, layout", [run])


# ----- 1. first-player advantage -----

def seat_wins(catalog, run: str, players: int) -> pd.DataFrame:
    """Per seat counted from the start player (``rel``): games, wins (a shared first place counted for
    each seat in it), outright wins, rate with its Wilson interval, mean score with its t interval."""
    table = fetch(catalog, _SEATS + f"SELECT rel, {_COUNTS} FROM s GROUP BY rel ORDER BY rel", [run, players])
    return with_score_interval(with_rates(table))


def fortress_order_wins(catalog, run: str, players: int) -> pd.DataFrame:
    """The same per place in the fortress-placement order (``rank`` 0: the first to place, the last
    board placer, §3.3)."""
    table = fetch(catalog, _SEATS + f"SELECT fortress_rank AS rank, {_COUNTS} FROM s GROUP BY rank ORDER BY rank",
                  [run, players])
    return with_score_interval(with_rates(table))


# ----- 2. fortress site -----

def _sites_sql() -> str:
    # Per seat of a game: the fortress's distance to the castle and the points of the playable spaces
    # within (Chebyshev) distance 2 of it, the fortress's own space left out (it never scores, §3.3).
    return _SEATS + f""",
near AS (SELECT s.game_id, s.seat, sum(f.value) AS around
         FROM s JOIN im_space_final f ON f.run = $1 AND f.game_id = s.game_id
         WHERE greatest(abs(f.row - s.fortress // 8), abs(f.col - s.fortress % 8)) <= 2
               AND f.space <> s.fortress AND NOT f.covered
         GROUP BY ALL),
sites AS (SELECT s.*, {_CASTLE_DISTANCE} AS distance, near.around FROM s JOIN near USING (game_id, seat))
"""


def fortress_sites(catalog, run: str, players: int) -> pd.DataFrame:
    """Per fortress site class (``distance``: Manhattan distance to the castle, 2–4; ``site`` its name):
    seat-games (``games``: a game counts once per fortress of the class), wins, rate and Wilson
    interval, mean score with its t interval, mean points within distance 2 (``around``)."""
    table = fetch(catalog, _sites_sql() + f"SELECT distance, {_COUNTS}, avg(around) AS around FROM sites "
                                         "GROUP BY distance ORDER BY distance", [run, players])
    table.insert(1, "site", [SITE_CLASSES.get(int(d), str(d)) for d in table["distance"]])
    return with_score_interval(with_rates(table))


def fortress_leaders(catalog, run: str, players: int) -> pd.DataFrame:
    """The game as the unit: in the games where one seat alone has the fortress nearest to the castle
    (or farthest, or the richest or poorest surroundings: points within distance 2), how often that
    seat wins. ``games`` counts the games with such a seat, ``wins`` its wins (shared ones counted),
    with the Wilson interval and ``p``, the binomial test against the fair share 1 / players."""
    criteria = {"nearest to the castle": "distance", "farthest from the castle": "-distance",
                "richest surroundings": "-around", "poorest surroundings": "around"}
    parts = []
    for name, key in criteria.items():
        parts.append(f"""SELECT '{name}' AS criterion, count(*) AS games, coalesce(sum(won::INT), 0) AS wins FROM (
            SELECT won, {key} AS key, min({key}) OVER (PARTITION BY game_id) AS best,
                   count(*) OVER (PARTITION BY game_id, {key}) AS n FROM sites) WHERE key = best AND n = 1""")
    table = with_rates(fetch(catalog, _sites_sql() + " UNION ALL ".join(parts), [run, players]))
    table["p"] = [against_fair(k, n, players) for k, n in zip(table["wins"], table["games"])]
    return table


# ----- 3. layout -----

def layout_seats(catalog, run: str, players: int) -> pd.DataFrame:
    """Per layout (``default``, ``generated``, ``custom``) and seat from the start player: games, wins,
    outright wins, Wilson interval."""
    return with_rates(fetch(catalog, _SEATS + f"SELECT layout, rel, {_COUNTS} FROM s GROUP BY ALL "
                                              "ORDER BY layout, rel", [run, players]))


def layouts(catalog, run: str, players: int) -> pd.DataFrame:
    """Per layout: games, the start player's win rate (Wilson), the draw rate (Wilson: ``draw_low``,
    ``draw_high``) and ``p``, the chi-square test of equal shares of outright wins by seat."""
    seats = layout_seats(catalog, run, players)
    games = fetch(catalog, "SELECT layout, count(*) AS games, sum(draw::INT) AS draws FROM im_games WHERE run = $1 "
                           "AND status = 'finished' AND players = $2 GROUP BY layout ORDER BY layout", [run, players])
    start = seats[seats["rel"] == 0].set_index("layout")
    table = with_rates(games.assign(wins=[int(start.loc[name, "wins"]) for name in games["layout"]]))
    draws = with_rates(games.rename(columns={"draws": "wins"}))
    table["draw_rate"], table["draw_low"], table["draw_high"] = draws["rate"], draws["low"], draws["high"]
    table["p"] = [even_shares(seats.loc[seats["layout"] == name, "outright"].tolist()) for name in games["layout"]]
    return table.rename(columns={"wins": "start_wins"}).astype({"draws": int})


def board_sides(catalog, run: str, players: int) -> pd.DataFrame:
    """Per layout and board side placed by a seat (``side``: ``2A``; the 3-player chance board left
    out): games it was placed in, and how often its placer won (Wilson interval). A side lies once at
    most in a game, so each row has one observation per game."""
    table = fetch(catalog, """
        WITH g AS (SELECT game_id, layout, winners, boards, board_placers FROM im_games
                   WHERE run = $1 AND status = 'finished' AND players = $2),
        b AS (SELECT game_id, layout, winners, unnest(boards) AS board, unnest(board_placers) AS placer FROM g)
        SELECT layout, split_part(board, ' ', 1) AS side, count(*) AS games,
               sum(list_contains(winners, placer)::INT) AS wins
        FROM b WHERE placer >= 0 GROUP BY ALL ORDER BY layout, side""", [run, players])
    return with_rates(table)


# ----- 4. tempo -----

def lengths(catalog, run: str, players: int) -> pd.DataFrame:
    """Games per (plies, turns, draw, tiebreak) of the finished games: the distribution of game length."""
    return fetch(catalog, "SELECT plies, turns, draw, tiebreak, count(*) AS games FROM im_games WHERE run = $1 AND "
                          "status = 'finished' AND players = $2 GROUP BY ALL ORDER BY plies, turns", [run, players])


def length_summary(table: pd.DataFrame) -> pd.DataFrame:
    """``lengths``'s table summed up: per measure (plies, turns) the mean with its t interval, the
    median, min and max, n; then the draw and tie-break rates with their Wilson intervals."""
    rows = []
    n = int(table["games"].sum())
    for measure in ("plies", "turns"):
        values = np.repeat(table[measure].to_numpy(dtype=float), table["games"].to_numpy(dtype=int))
        mean, low, high = mean_ci(values)
        rows.append({"measure": measure, "value": mean, "low": low, "high": high, "median": float(np.median(values)),
                     "min": float(values.min()), "max": float(values.max()), "games": n})
    for measure, name in (("draw", "draw rate"), ("tiebreak", "tie-break rate")):
        k = int(table.loc[table[measure].astype(bool), "games"].sum())
        low, high = wilson(k, n)
        rows.append({"measure": name, "value": k / n, "low": low, "high": high, "games": n})
    return pd.DataFrame(rows)


def warlord_order(catalog, run: str, players: int) -> pd.DataFrame:
    """Per place in the order the warlords were placed (``rank`` 0: the first warlord on the board,
    §6.7): games, wins (shared counted), outright wins, rate and Wilson interval, mean score with its t
    interval, and the mean turn of the placement (``turn``)."""
    table = fetch(catalog, _SEATS + f""",
        w AS (SELECT game_id, seat, turn, row_number() OVER (PARTITION BY game_id ORDER BY ply) - 1 AS rank
              FROM im_plies WHERE run = $1 AND kind = 'warlord')
        SELECT rank, {_COUNTS}, avg(turn) AS turn FROM s JOIN w USING (game_id, seat)
        GROUP BY rank ORDER BY rank""", [run, players])
    return with_score_interval(with_rates(table))
