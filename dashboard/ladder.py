"""The bots of a run and their standings (imperial_lab.core.league.standings) as the texts and DataFrames the pages,
charts and notebooks take. No Streamlit here; ``imperial_lab.dashboard.cache.standings`` caches the standings.

An *entrant* is a distinct canonical bot spec (docs/league.md): a spec named for two seats is one
entrant with two seats a game, and it wins a game when one of its seats is among the winners.
"""

from __future__ import annotations

import pandas as pd


BOT_COLUMNS = ["run", "bot", "games", "seats", "wins", "rate", "low", "high", "fair", "mean_score", "mu", "sigma",
               "ordinal"]
SEAT_COLUMNS = ["run", "seat", "games", "wins", "rate", "low", "high"]


def bot_table(standings: dict) -> pd.DataFrame:
    """One row per entrant, best rating first: run, bot, games, seats (seat-games), wins, rate with its
    95% Wilson interval (low, high), ``fair`` (the win rate of a bot as good as the others: its seats
    per game over the players), mean_score (per seat-game), and the rating mu, sigma, ordinal."""
    players = standings["players"]
    rows = [{"run": standings["run"], "bot": b["bot"], "games": b["games"], "seats": b["seats"], "wins": b["wins"],
             "rate": b["win_rate"], "low": b["win_rate_ci"][0], "high": b["win_rate_ci"][1],
             "fair": b["seats"] / b["games"] / players, "mean_score": b["mean_score"], **b["rating"]}
            for b in standings["bots"]]
    return pd.DataFrame(rows, columns=BOT_COLUMNS)


def seat_table(standings: dict) -> pd.DataFrame:
    """One row per seat with games: run, seat, games, wins, rate, low, high (Wilson 95%)."""
    rows = [{"run": standings["run"], "seat": s["seat"], "games": s["games"], "wins": s["wins"],
             "rate": s["win_rate"], "low": s["win_rate_ci"][0], "high": s["win_rate_ci"][1]}
            for s in standings["seats"] if s["games"]]
    return pd.DataFrame(rows, columns=SEAT_COLUMNS)
