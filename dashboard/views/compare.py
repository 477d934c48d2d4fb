"""Compare bond distributions: win rates, scores, margins, lengths, balance and lead changes of two
or more runs (usually one per setup), with 95% intervals and the significant differences in words.
Every run is shown with its bots (a league's entrants), and the runs of two or more bots with each
bot's win rate, so that a finding is read with the bots it holds for."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from core.bots import BOTS
from core.errors import ImperialError
from core.league import WINS_COUNTED
from core.setups import setup_names
from dashboard import cache, charts, comparison, frame, ladder, queries, simulations
from dashboard.comparison import METRIC_LABELS, PROPORTION_TEST, RANK_TEST, SHARES_TEST
from dashboard.stats import ALPHA
from dashboard.style import player_label

RUNS_KEY = "compare_runs"
PENDING_KEY = "compare_pending"  # runs just played, selected on the next rerun (before the widget exists)
# The grid sizes columns by their first characters, which cut run names such as even_spread-heuristic-150-s1.
RUN_COLUMN = {"run": st.column_config.TextColumn("run", width="medium")}


def new_comparison(catalog) -> None:
    """Play a few games per chosen setup (ordinary runs, found again when asked for twice) and select them."""
    with st.expander("Play a new comparison", expanded=False):
        with st.form("new_comparison"):
            names = setup_names(frame.setups_dir())
            setups = st.multiselect("Setups", names, default=[n for n in simulations.DEFAULT_SETUPS if n in names],
                                    help="standard, variant, or a custom setup (Setup editor page)",
                                    key="new_setups")
            left, middle, right = st.columns(3)
            games = left.number_input("Games per setup", min_value=2, max_value=1000, value=100, step=10,
                                      key="new_games")
            bots = sorted(BOTS)
            bot = middle.selectbox("Bot in every seat", bots, index=bots.index(simulations.default_bot()),
                                   key="new_bot")
            seed = right.number_input("Seed", min_value=0, value=simulations.DEFAULT_SEED, step=1, key="new_seed")
            submitted = st.form_submit_button("Play and compare", type="primary")
        if not submitted:
            return
        if len(setups) < 1:
            st.warning("Choose at least one setup.")
            return
        bar = st.progress(0.0, text="0 games played")
        try:
            played = simulations.simulate_setups(catalog, setups, int(games), bot, int(seed),
                                                 setups_dir=frame.setups_dir(),
                                                 on_progress=frame.progress_callback(bar))
        except ImperialError as exc:
            frame.show_error("The comparison could not be played.", exc)
            return
        st.session_state[PENDING_KEY] = played
        st.rerun()


def choose_runs(catalog) -> tuple[str, ...]:
    names = list(cache.runs(catalog)["name"])
    if PENDING_KEY in st.session_state:
        played = [name for name in st.session_state.pop(PENDING_KEY) if name in names]
        # One new run joins the runs already chosen; two or more are a comparison of their own.
        kept = [] if len(played) > 1 else [n for n in st.session_state.get(RUNS_KEY, []) if n not in played]
        st.session_state[RUNS_KEY] = kept + played
    elif RUNS_KEY not in st.session_state:  # first visit: the sidebar's run and the newest other one
        picked = frame.selected_run()
        st.session_state[RUNS_KEY] = sorted(names, key=lambda name: name != picked)[:2]
    return tuple(st.multiselect("Runs to compare", names, key=RUNS_KEY,
                                help="two or more runs of the catalogue, e.g. one per setup"))


def summary(result: comparison.Comparison, overview) -> None:
    st.subheader("Summary")
    bots = "; ".join(f"{row.run}: {row.bots}" for row in overview.itertuples())
    st.caption(f"{len(result.tests)} tests at α = {ALPHA}: the {PROPORTION_TEST} for win rates, the {RANK_TEST} for "
               f"scores, margins, lengths and lead changes, and the {SHARES_TEST} for each run's seats. p-values "
               "are Holm-adjusted over all of them, so only differences unlikely to be chance are named. Each "
               f"finding holds for the bots of its runs only ({bots}).")
    lines = result.summary()
    if lines:
        st.markdown("\n".join(f"- {line}" for line in lines))
    else:
        st.info("No difference between these runs is statistically significant at α = 0.05. More games per run "
                "would detect smaller differences.")


def bot_rates(catalog, overview) -> None:
    """Per bot, in each run that seats two or more: a run of one bot says nothing about bots (that
    bot wins every game it finishes), so it is left out."""
    tables = [ladder.bot_table(cache.standings(catalog, run)) for run in overview["run"]]
    tables = [table for table in tables if len(table) > 1]
    if not tables:
        return
    rates = pd.concat(tables, ignore_index=True)
    st.plotly_chart(charts.win_rates(rates, "bot", "Win rate per bot, in the runs of two or more bots"))
    st.caption(f"A bot wins a game when one of its seats is among the winners ({WINS_COUNTED}); 95% Wilson "
               "intervals. Each rate holds for the bots of its own run only (see the League page for the ladder); "
               "a run whose bots keep their seats counts the seats' advantage too.")
    st.dataframe(rates[["run", "bot", "games", "wins", "rate", "low", "high", "fair", "ordinal"]], hide_index=True,
                 column_config=RUN_COLUMN | {
                     "rate": st.column_config.NumberColumn("win rate", format="percent"),
                     "low": st.column_config.NumberColumn("95% CI low", format="percent"),
                     "high": st.column_config.NumberColumn("95% CI high", format="percent"),
                     "fair": st.column_config.NumberColumn("fair share", format="percent"),
                     "ordinal": st.column_config.NumberColumn("rating (ordinal)", format="%.2f")})


def win_rates(result: comparison.Comparison, overview) -> None:
    players = set(overview["players"])
    fair = 1 / players.pop() if len(players) == 1 else None  # one fair share only when all runs seat as many
    left, right = st.columns(2)
    left.plotly_chart(charts.win_rates(result.seats, "seat", "Win rate by seat", fair))
    right.plotly_chart(charts.win_rates(result.governments, "nation",
                                        "Win rate of the player governing each nation at the start"))
    table = result.balance.assign(best_seat=result.balance["best_seat"].map(player_label),
                                  worst_seat=result.balance["worst_seat"].map(player_label))
    st.dataframe(table, hide_index=True, column_config=RUN_COLUMN | {
        "balance": st.column_config.NumberColumn("balance", format="%.2f",
                                                 help="1 − the largest gap between the seats' win rates"),
        "best_rate": st.column_config.NumberColumn(format="percent"),
        "worst_rate": st.column_config.NumberColumn(format="percent"),
        "p_even_shares": st.column_config.NumberColumn("p (equal shares)", format="%.3f")})


def distributions(result: comparison.Comparison) -> None:
    columns = st.columns(2)
    for i, metric in enumerate(queries.METRICS):
        label, unit = METRIC_LABELS[metric]
        columns[i % 2].plotly_chart(charts.distributions(result.frequencies[metric], label, unit))
    table = result.metrics.assign(metric=result.metrics["metric"].map(lambda m: METRIC_LABELS[m][0]))
    st.dataframe(table, hide_index=True, column_config=RUN_COLUMN | {
        "low": st.column_config.NumberColumn("95% CI low", format="%.1f"),
        "high": st.column_config.NumberColumn("95% CI high", format="%.1f"),
        "mean": st.column_config.NumberColumn(format="%.1f")})


st.title("Compare bond distributions")
catalog = frame.catalog_path()
new_comparison(catalog)
runs = choose_runs(catalog)
if len(runs) < 2:
    st.info("Choose two or more runs to compare, or play a new comparison above.")
    st.stop()
overview = cache.load(queries.overview, catalog, runs)
st.dataframe(overview, hide_index=True, column_config=RUN_COLUMN)
if overview["bots"].nunique() > 1:
    st.warning("These runs use different bots: a difference may come from the bots rather than the setup.")
result = cache.compare(catalog, runs)
summary(result, overview)
st.subheader("Who wins")
bot_rates(catalog, overview)
win_rates(result, overview)
st.subheader("Scores, margins, lengths and lead changes")
distributions(result)
with st.expander("Every test"):
    st.dataframe(result.tests, hide_index=True)
