"""Imperial Powers runs: a run of Imperial Powers games from the catalogue and the comparisons of
RULES.md §8 over it, each with its 95% interval and n, the game as the unit: win rate and VP by
power, by seat counted from the first instigator, power against picking order (pick or random
assignment, R3), the VP sources of each power, and what the events do.

The questions are dashboard/games/imperial_powers/runs_queries.py's, through imperial_lab.dashboard.cache
(keyed by the run's fingerprint). The tests of the powers and seats tables are one family, adjusted
together by Holm's method. Each run has one line-up, so the page says which bots played.
"""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from imperial_lab.dashboard.games.imperial_powers import runs_queries as q
from imperial_lab.core.stats import format_p
from imperial_lab.dashboard import cache, charts, runs_page

PLAYERS_KEY = "ip_runs_players"
MAKE_ONE = ("imperial simulate --game imperial_powers --players 5 --games 1000 --bots heuristic --setup FILE.json "
            "--out runs/NAME  # FILE.json: {\"game\": \"imperial_powers\", \"power_assignment\": \"random\"}")
PERCENT = {column: st.column_config.NumberColumn(column.replace("_", " "), format="percent")
           for column in ("rate", "low", "high", "hit_leader_rate", "hit_leader_low", "hit_leader_high",
                          "helped_self_rate", "helped_self_low", "helped_self_high")}
NUMBERS = {column: st.column_config.NumberColumn(column.replace("_", " "), format="%.2f")
           for column in ("score", "score_low", "score_high", "above", "above_low", "above_high", "removed",
                          "removed_low", "removed_high", "vp", "vp_low", "vp_high", "total", "total_low", "total_high",
                          *(f"{c}{s}" for c in q.SOURCES for s in ("", "_low", "_high")))}
PVALUES = {column: st.column_config.NumberColumn(column.replace("_", " "), format="%.3f")
           for column in ("p_wins", "p_above", "holm_p_wins", "holm_p_above")}
COUNTED = ("95% Wilson intervals for rates, Student's t for means; a shared win counts for every winner (`wins`), "
           "`outright` counts the games won alone; `above`: VP above the game's mean; `p wins`: binomial test "
           "against the fair share, `p above`: t test of `above` against 0, each with its Holm-adjusted value over "
           "every test of the two tables above")


def table(frame_, **labels) -> None:
    st.dataframe(frame_, hide_index=True, column_config={**PERCENT, **NUMBERS, **PVALUES, **labels})


def _bars(rates, key: str, title: str, players: int, key_title: str) -> go.Figure:
    return charts.win_rates(rates.assign(run="win rate"), key, title, 1 / players, key_title=key_title,
                            categories=list(rates[key]))


def place(rel: int) -> str:
    return "first instigator" if rel == 0 else f"instigator + {rel}"


# ----- the sections -----

def balance(catalog, run: str, players: int) -> None:
    st.subheader("The powers")
    powers = cache.load(q.power_wins, catalog, run, players)
    seats = cache.load(q.seat_wins, catalog, run, players)
    seats.insert(0, "place", [place(r) for r in seats["rel"]])  # not "seat": charts would name it Player A
    tables = q.adjusted({"powers": powers, "seats": seats})
    st.plotly_chart(_bars(powers, "power", "Win rate by power", players, "power (§1.1)"), key="ip_runs_powers")
    even = q.powers_even(powers, players)
    st.caption(f"Every game seats each power at most once, so a power has one observation per game. {COUNTED}. "
               + (f"Chi-square test that the five powers win outright equally often: **{format_p(even)}**."
                  if even == even else f"With {players} players not every power plays every game: each power's "
                                       "own tests stand."))
    table(tables["powers"])
    st.subheader("Seat from the first instigator")
    st.plotly_chart(_bars(seats, "place", "Win rate by seat from the first instigator", players,
                          "seat (counted from the first instigator, §5.8)"), key="ip_runs_seats")
    st.caption("The instigator acts first in every phase and chooses the first event; the token passes every turn, "
               "so the first instigator holds it most often (§5.8). Under `pick` assignment it also picks first.")
    table(tables["seats"].drop(columns="rel"))


def picking(catalog, run: str, players: int) -> None:
    st.subheader("Power or picking order")
    modes = cache.load(q.power_by_assignment, catalog, run, players)
    if modes["power_assignment"].nunique() < 2:
        st.info(f"All of this run's games assign the powers by `{modes['power_assignment'].iloc[0]}` (R3). Under "
                "`pick` a power's win rate mixes its strength with who picks it; play a run with "
                "`power_assignment: random` (a setup file, see the command above) to separate them.")
    table(modes.assign(mode=modes["power_assignment"]).drop(columns="power_assignment"))
    grid = cache.load(q.power_seat, catalog, run, players)
    st.markdown("**Power × seat from the first instigator** (games, wins, Wilson interval):")
    table(grid)


def sources(catalog, run: str, players: int) -> None:
    st.subheader("Where each power's VP come from")
    found = cache.load(q.vp_sources, catalog, run, players)
    fig = go.Figure([go.Bar(x=found["power"], y=found[column], name=label)
                     for column, label in q.SOURCES.items()])
    fig.update_layout(barmode="stack")
    st.plotly_chart(charts.layout(fig, "Mean VP per game by source", "power", "VP"), key="ip_runs_sources")
    st.caption("Per power, the mean over the games it played of the VP from each source (§5.6, §5.7, R22), with "
               "t intervals: how much of Spain's score is its bonus, whether Portugal's 20 VP make up for it.")
    table(found)


def events(catalog, run: str, players: int) -> None:
    st.subheader("Events")
    effects = cache.load(q.event_effects, catalog, run, players)
    st.caption("Per event: the influence it took off the map (negative: added), the VP it awarded, how often it hit "
               "a Leader other than its drawer and how often it helped the drawer. Each event is drawn once per "
               "turn, so these intervals take the draw as the unit.")
    table(effects)
    order = cache.load(q.instigator_events, catalog, run, players)
    st.markdown("**By draw order** (draw 0: the instigator's first event, ten regions open):")
    table(order)
    lead = cache.load(q.lead_changes, catalog, run, players)
    st.markdown(f"**Lead changes** (turns after which the sole VP leader changes): mean {lead['mean']:.2f} "
                f"(95% CI {lead['low']:.2f}–{lead['high']:.2f}), n = {lead['games']} games.")


# ----- the page -----

runs_page.show("Imperial Powers runs", "imperial_powers", PLAYERS_KEY, MAKE_ONE, q.overview, [balance, picking, sources, events])
