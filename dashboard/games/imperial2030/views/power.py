"""Power & control: the race for power and who governs what, in one game and over a whole run."""

from __future__ import annotations

import math

import numpy as np

import streamlit as st

from imperial_lab.core import stats
from imperial_lab.core.errors import LogError
from imperial_lab.dashboard.games.imperial2030 import charts, queries
from imperial_lab.dashboard.games.imperial2030 import open_game
from imperial_lab.dashboard import cache, frame
from imperial_lab.dashboard.queries import one_reader
from imperial_lab.dashboard.style import player_label


def game_metrics(game) -> None:
    """The headline of one game: winner, how it ended, its length and the final scores."""
    finished = game["status"] == "finished"
    scores = list(game["scores"]) if game["scores"] is not None else []
    winners = list(game["winners"]) if game["winners"] is not None else []
    cols = st.columns(5)
    names = " & ".join(player_label(p) for p in winners) or "—"
    cols[0].metric("Winner" if len(winners) < 2 else "Shared win", names)
    cols[1].metric("Ended by", game["ended_by"] or "—")
    cols[2].metric("Rounds", game["rounds"])
    cols[3].metric("Nation turns", game["nation_turns"])
    cols[4].metric("Winning score", scores[winners[0]] if winners else "—")
    st.caption("Final scores: " + " · ".join(f"{player_label(p)} {s}" for p, s in enumerate(scores)))
    if not finished:
        why = frame.code_span(game["error"]) if game["error"] else "it stopped before the end"
        st.warning(f"This game is {game['status']}: {why}. The charts show what was recorded; scores are as if "
                   "it ended there.")


@st.fragment
def one_game() -> None:
    """The open game (imperial_lab.dashboard.games.imperial2030.open_game: the one the Game explorer shows), and the chooser that
    changes it for both pages; choosing reruns only this part of the page. Its questions share one
    connection to the catalogue."""
    with one_reader(frame.catalog_path()):
        game_figures()


def game_figures() -> None:
    game = open_game.choose_game(link=("explorer", "Open in the explorer"))
    if game is None:
        return
    try:
        summary = game.answer(queries.game_summary)
    except LogError as exc:  # an uploaded log with a bad header
        open_game.show_log_error(exc)
        return
    st.subheader(game.title)
    game_metrics(summary.iloc[0])
    race = game.answer(queries.nation_race)
    left, right = st.columns(2)
    left.plotly_chart(charts.nation_race(race, "power_points"))
    right.plotly_chart(charts.nation_race(race, "treasury"))
    series = game.answer(queries.player_series)
    left, right = st.columns(2)
    left.plotly_chart(charts.player_series(series, "cash", "Cash", "cash (m)"))
    right.plotly_chart(charts.player_series(series, "score", "Score if the game ended now (§10)", "points"))
    st.plotly_chart(charts.control_timeline(game.answer(queries.control_segments)))
    holdings = game.answer(queries.bond_ownership)
    st.plotly_chart(charts.bond_ownership(holdings, int(summary.iloc[0]["nation_turns"])))


def mean_metric(column, label: str, frequencies, hint: str | None = None) -> None:
    """The mean of a per-game figure, its 95% t interval below it (none under 2 games)."""
    mean, low, high = stats.mean_ci(np.repeat(frequencies["value"].to_numpy(), frequencies["n"].to_numpy()))
    column.metric(label, f"{mean:.1f}", help=hint)
    if not math.isnan(low):
        column.caption(f"95% CI {low:.1f}–{high:.1f}")


def whole_run(catalog, run: str) -> None:
    """Every finished game of the run: lengths, who ends it, government changes, lead changes."""
    lengths = cache.load(queries.frequencies, catalog, run, "rounds")
    if lengths.empty:
        st.info(f"Run {run} has no finished games.")
        return
    per_game = cache.load(queries.government_changes_per_game, catalog, run)
    per_game = per_game.rename(columns={"changes": "value", "games": "n"})
    leads = cache.load(queries.frequencies, catalog, run, "lead_changes")
    cols = st.columns(4)
    cols[0].metric("Finished games", int(lengths["n"].sum()))
    mean_metric(cols[1], "Mean length (rounds)", lengths)
    mean_metric(cols[2], "Government changes per game", per_game, hint="changes after investor turns (§9)")
    mean_metric(cols[3], "Lead changes per game", leads,
                hint="nation turns after which the score leader (score if the game ended then) is another seat")
    left, right = st.columns(2)
    left.plotly_chart(charts.counts_bar(lengths, "value", "n", "Game length", "rounds"))
    right.plotly_chart(charts.ended_by(cache.load(queries.ended_by, catalog, run)))
    left, right = st.columns(2)
    left.plotly_chart(charts.counts_bar(per_game, "value", "n", "Government changes per game", "changes (§9)"))
    right.plotly_chart(charts.change_rounds(cache.load(queries.government_change_rounds, catalog, run),
                                            int(lengths["n"].sum())))
    st.plotly_chart(charts.counts_bar(leads, "value", "n", "How often the leading player changes", "lead changes"))


def run_games(catalog, run: str) -> None:
    """The run's games, each with a link that opens it in the Game explorer."""
    games = open_game.linked_games(catalog, run)
    games["winners"] = [" & ".join(player_label(p) for p in w) if w is not None else "—" for w in games["winners"]]
    st.markdown(f"**The games of {run}**")
    st.dataframe(games[["game_id", "status", "winners", "rounds", "nation_turns", "ended_by", "open"]],
                 hide_index=True, column_config={"game_id": st.column_config.NumberColumn("game", width=60),
                                                 "open": open_game.LINK_COLUMN})


st.title("Power & control")
catalog, run = frame.catalog_path(), frame.selected_run()
# Not tabs: Streamlit draws every tab at every run, and the two parts hold eleven charts between them.
part = st.segmented_control("Show", ["One game", "Whole run"], default="One game", key="power_part",
                            label_visibility="collapsed") or "One game"
if part == "One game":  # an uploaded log needs no run
    one_game()
elif run is None:
    st.info("The catalogue has no Imperial 2030 runs yet: play some with `imperial simulate`.")
else:
    with one_reader(catalog):  # the run's questions share one connection
        whole_run(catalog, run)
        run_games(catalog, run)
