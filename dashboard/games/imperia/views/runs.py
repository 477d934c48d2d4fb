"""Imperia runs: a run of Imperia games from the catalogue and the comparisons of RULES.md §10 over
it, each with its 95% interval and n, the game as the unit: the first player's advantage (by seat
from the start player, and by fortress-placement order), the fortress site (its distance to the
castle, the points around it), the layout and the board sides placed, and the tempo (game length,
draws, the order the warlords were placed in against who won).

The questions are dashboard/games/imperia/runs_queries.py's, asked through imperial_lab.dashboard.cache
(keyed by the run's fingerprint, so a run that gains games is read again). Each run has one line-up,
so the page says which bots played: what it finds holds for those bots only.
"""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from imperial_lab.dashboard.games.imperia import runs_queries as q
from imperial_lab.core.stats import even_shares, format_p
from imperial_lab.dashboard import cache, charts, runs_page

PLAYERS_KEY = "imperia_runs_players"
MAKE_ONE = "imperial simulate --game imperia --players 3 --games 1000 --bots heuristic --out runs/NAME"
PERCENT = {column: st.column_config.NumberColumn(column.replace("_", " "), format="percent")
           for column in ("rate", "low", "high", "draw_rate", "draw_low", "draw_high")}
NUMBERS = {"score": st.column_config.NumberColumn("mean score", format="%.2f"),
           "score_low": st.column_config.NumberColumn("score low", format="%.2f"),
           "score_high": st.column_config.NumberColumn("score high", format="%.2f"),
           "around": st.column_config.NumberColumn("points within 2", format="%.1f"),
           "turn": st.column_config.NumberColumn("mean turn placed", format="%.1f"),
           "p": st.column_config.NumberColumn("p", format="%.3f")}
COUNTED = ("95% Wilson intervals; a shared first place counts as a win for every seat in it (`wins`), "
           "`outright` counts the games won alone")


def place(rel: int) -> str:
    return "start player" if rel == 0 else f"start + {rel}"


def table(frame_, **labels) -> None:
    st.dataframe(frame_, hide_index=True, column_config={**PERCENT, **NUMBERS, **labels})


# ----- the sections -----

def first_player(catalog, run: str, players: int) -> None:
    st.subheader("First-player advantage")
    seats = cache.load(q.seat_wins, catalog, run, players)
    seats.insert(0, "place", [place(r) for r in seats["rel"]])  # not "seat": charts would name it Player A
    p = even_shares(seats["outright"].tolist())
    st.plotly_chart(_bars(seats, "place", "Win rate by seat from the start player", players,
                          "seat (counted from the start player)"), key="imperia_runs_seats")
    st.caption(f"n = {int(seats['games'].iloc[0])} games per seat; {COUNTED}. Chi-square test of equal shares of "
               f"the outright wins ({players - 1} df): **{format_p(p)}**; a fair seat wins {1 / players:.1%}. "
               "The start player places the first board and the last fortress (§3).")
    table(seats.drop(columns="rel"))
    order = cache.load(q.fortress_order_wins, catalog, run, players)
    order.insert(0, "fortress placed", [f"{k + 1}{'st' if k == 0 else 'nd' if k == 1 else 'rd' if k == 2 else 'th'}"
                                        for k in order["rank"]])
    st.markdown("**By fortress-placement order** (the last board placer places first, §3.3): "
                f"chi-square of equal shares {format_p(even_shares(order['outright'].tolist()))}.")
    table(order.drop(columns="rank"))


def _bars(rates, key: str, title: str, players: int, key_title: str) -> go.Figure:
    return charts.win_rates(rates.assign(run="win rate"), key, title, 1 / players, key_title=key_title,
                            categories=list(rates[key]))


def fortress(catalog, run: str, players: int) -> None:
    st.subheader("Fortress site")
    sites = cache.load(q.fortress_sites, catalog, run, players)
    st.plotly_chart(_bars(sites, "site", "Win rate by fortress site", players,
                          "fortress site (Manhattan distance to the castle: 2, 3, 4)"), key="imperia_runs_sites")
    st.caption("Every fortress stands on the ring of the inner 6×6 (§3.3), at Chebyshev distance 2 from the castle; "
               "its Manhattan distance tells a side's middle (2), a space beside a corner (3) and a corner (4). "
               f"n counts seat-games: a game with two fortresses of one class counts twice, so the seats of a game "
               f"are not independent here; the table below takes the game as the unit. {COUNTED}. `points within 2`: "
               "the mean value (§2.1) of the playable spaces within distance 2 of the fortress.")
    table(sites.drop(columns="distance"))
    leaders = cache.load(q.fortress_leaders, catalog, run, players)
    st.markdown("**The game as the unit**: in the games where one seat alone has the fortress so placed, how often "
                f"that seat wins (95% Wilson; p: binomial test against the fair share {1 / players:.1%}).")
    table(leaders, games=st.column_config.NumberColumn("games", help="games with one such seat (ties left out)"))


def layout(catalog, run: str, players: int) -> None:
    st.subheader("Layout")
    layouts = cache.load(q.layouts, catalog, run, players)
    if len(layouts) == 1:
        st.info(f"This run does not vary the layout: all its games use the `{layouts['layout'].iloc[0]}` board "
                "sides. To compare, play a run with `--setup FILE.json`, a file holding `{\"game\": \"imperia\", "
                "\"layout\": \"generated\"}`, and pick it here.")
    st.markdown("**Per layout**: the start player's win rate and the draw rate (95% Wilson), and the chi-square "
                "test of equal shares of outright wins by seat (p).")
    table(layouts, start_wins=st.column_config.NumberColumn("start player's wins"))
    sides = cache.load(q.board_sides, catalog, run, players)
    st.markdown("**By board side placed**: the games a side was placed in by a seat (the 3-player chance board left "
                f"out), and how often its placer won (95% Wilson; a fair share is {1 / players:.1%}).")
    st.plotly_chart(_bars(sides.assign(side=sides["layout"] + " " + sides["side"]), "side",
                          "Win rate of the seat that placed each board side", players, "board side (layout, side)"),
                    key="imperia_runs_sides")
    table(sides)


def tempo(catalog, run: str, players: int) -> None:
    st.subheader("Tempo")
    lengths = cache.load(q.lengths, catalog, run, players)
    summary = q.length_summary(lengths)
    st.markdown(" · ".join(
        f"{r.measure}: mean {r.value:.1f} (95% CI {r.low:.1f}–{r.high:.1f}), median {r.median:.0f}, "
        f"{r.min:.0f}–{r.max:.0f}" if r.measure in ("plies", "turns") else
        f"{r.measure} {r.value:.1%} ({r.low:.1%}–{r.high:.1%})" for r in summary.itertuples())
        + f"; n = {int(summary['games'].iloc[0])} games.")
    counts = lengths.groupby("turns")["games"].sum()
    fig = go.Figure(go.Bar(x=counts.index, y=counts / counts.sum(), name="games", marker_color="#4c4c9d",
                           customdata=counts.to_numpy(), hovertemplate="%{x} turns: %{y:.1%} (%{customdata} games)"
                                                                       "<extra></extra>"))
    fig.update_yaxes(tickformat=".0%")
    st.plotly_chart(charts.layout(fig, "Game length", "turns (placements, §5)", "share of games"),
                    key="imperia_runs_lengths")
    warlords = cache.load(q.warlord_order, catalog, run, players)
    warlords.insert(0, "warlord placed", ["first" if k == 0 else "last" if k == players - 1 else f"{k + 1}."
                                          for k in warlords["rank"]])
    p = even_shares(warlords["outright"].tolist())
    st.plotly_chart(_bars(warlords, "warlord placed", "Win rate by the order the warlords were placed", players,
                          "whose warlord (§6.7)"), key="imperia_runs_warlords")
    first = warlords.iloc[0]
    st.caption(f"The seat that placed its warlord first won {int(first['wins'])} of {int(first['games'])} games "
               f"({first['rate']:.1%}, 95% Wilson {first['low']:.1%}–{first['high']:.1%}; binomial test against "
               f"{1 / players:.1%}: {format_p(q.against_fair(first['wins'], first['games'], players))}). "
               f"Chi-square test of equal shares of outright wins by warlord order: {format_p(p)}. {COUNTED}.")
    table(warlords.drop(columns="rank"))


# ----- the page -----

runs_page.show("Imperia runs", "imperia", PLAYERS_KEY, MAKE_ONE, q.overview, [first_player, fortress, layout, tempo])
