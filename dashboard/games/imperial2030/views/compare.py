"""Compare bond distributions: a grid of setups × bot line-ups (imperial_lab.core.compare, docs/compare.md). Every
figure is one value per finished game, every test has the game as its unit, and all p-values of a
comparison are Holm-adjusted together. The summary names only the findings (a difference significant
under at least one line-up), each with the bots it holds for, and flags one that reverses between
line-ups; the page then shows the grid (seat win rates, the seat gap against chance, bots, starting
governments), the per-game figures, each setup's structure and every test.

What the summary says is what ``imperial compare RUN... --json`` prints for the same runs.
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import streamlit as st

from imperial_lab.core import stats
from imperial_lab.core.compare import CONDITIONAL, METRICS, TEST_NAMES
from imperial_lab.core.errors import ImperialError
from imperial_lab.dashboard.games.imperial2030 import queries
from imperial_lab.dashboard.games.imperial2030.colours import nation_order
from imperial_lab.core.games.imperial2030.setups import setups_folder
from imperial_lab.core.interface import seat_name
from imperial_lab.core.setups import custom_folder, setup_names
from imperial_lab.dashboard import cache, charts, frame, simulations
from imperial_lab.dashboard.charts import setup_label

NATION_KEY = "nation governed at the start"  # the axis of the starting governments' win rates

RUNS_KEY = "compare_runs"
PENDING_KEY = "compare_pending"  # runs just played, selected on the next rerun (before the widget exists)
HEURISTIC = "heuristic in every seat"
SEARCH = "one mcts seat (rotating) + heuristics"
CONTROL = "random in every seat (control)"
LINEUP_CHOICES = (HEURISTIC, SEARCH, CONTROL)
# Short names of the tests in the tables (imperial_lab.core.compare's metric ids).
TEST_LABELS = {"seat_balance": "seat gap", "seat_scores": "seat scores", "seat_outcomes": "winners",
               "rounds": "game length", "lead_changes": "lead changes", "margin": "margin"}
EFFECT_UNITS = {"seat_scores": "pts", "margin": "pts", "rounds": "rounds", "lead_changes": "changes"}
# Grids size columns by their first characters, which would cut setup names and line-ups; every table
# fits the main area of a 1366 px screen beside the sidebar (about 900 px).
CELL_COLUMNS = {"setup": st.column_config.TextColumn("setup", width=120),
                "lineup": st.column_config.TextColumn("line-up", width=160),
                "n": st.column_config.NumberColumn("n", width=55, help="the cell's finished games")}


# ----- playing a new comparison -----

def new_comparison(catalog) -> None:
    """The form: setups × line-ups, games per cell (fewer for a search bot's cells); the runs are
    ordinary runs named after what they hold, so asking twice finds them finished."""
    with st.expander("Play a new comparison", expanded=False):
        with st.form("new_comparison"):
            names = setup_names(custom_folder())
            setups = st.multiselect("Setups", names, default=[n for n in simulations.dataset_setups() if n in names],
                                    help="standard, variant, or a custom setup (Setup editor page)", key="new_setups")
            lineups = st.multiselect("Line-ups", LINEUP_CHOICES, default=[HEURISTIC, CONTROL], key="new_lineups",
                                     help=f"{HEURISTIC}: {simulations.default_bot()} bots (each seat its own seed and "
                                          f"draws, so they play varied games); {SEARCH}: the search bot in one seat, "
                                          f"turned by one seat per game, {simulations.default_bot()} bots in the "
                                          f"others; {CONTROL}: what a seat is worth when nobody plays well")
            left, middle, right, far = st.columns(4)
            games = left.number_input("Games per cell", min_value=2, max_value=1000, value=100, step=10,
                                      key="new_games", help="per setup and line-up")
            search_games = middle.number_input("Games per search cell", min_value=2, max_value=1000,
                                               value=simulations.SEARCH_GAMES, step=10, key="new_search_games",
                                               help="the cells of the mcts line-up: a search bot plays slowly "
                                                    "(at 50 playouts about 40 CPU seconds a game: 60 games take "
                                                    "some 20 minutes on two cores)")
            budget = right.text_input("Search budget", value=simulations.SEARCH_BUDGET, key="new_budget",
                                      help="the search seat's bot spec (docs/search.md): playouts per decision, "
                                           "e.g. mcts:playouts=200, or a time, e.g. mcts:seconds=0.5")
            seed = far.number_input("Seed", min_value=0, value=simulations.DEFAULT_SEED, step=1, key="new_seed")
            st.caption("The search bot's cells play fewer games, so their intervals are wider and a difference must "
                       "be larger to be found there; a cell's n is shown beside each of its rates.")
            submitted = st.form_submit_button("Play and compare", type="primary")
        if not submitted:
            return
        if not setups or not lineups:
            st.warning("Choose at least one setup and one line-up.")
            return
        chosen = [{HEURISTIC: simulations.every_seat(simulations.default_bot()),
                 SEARCH: simulations.one_seat(str(budget or simulations.SEARCH_BUDGET).strip()),
                 CONTROL: simulations.every_seat(simulations.CONTROL_BOT)}[choice] for choice in lineups]
        frame.play_then_rerun(lambda on_progress: simulations.simulate_grid(
            catalog, setups, chosen, int(games), int(search_games), int(seed), setups_dir=custom_folder(),
            on_progress=on_progress), "The comparison could not be played.", PENDING_KEY)


def choose_runs(catalog) -> tuple[str, ...]:
    names = list(frame.game_runs(catalog, "imperial2030")["name"])  # the other games' runs have their own pages
    if PENDING_KEY in st.session_state:
        played = [name for name in st.session_state.pop(PENDING_KEY) if name in names]
        # One new run joins the runs already chosen; two or more are a comparison of their own.
        kept = [] if len(played) > 1 else [n for n in st.session_state.get(RUNS_KEY, []) if n not in played]
        st.session_state[RUNS_KEY] = kept + played
    elif RUNS_KEY not in st.session_state:  # first visit: the address's runs, the first start's grid, or two runs
        default = simulations.default_run_names()
        linked = [name for name in st.query_params.get("runs", "").split(",") if name in names]
        if linked:  # /compare?runs=a,b,c: a comparison to link to
            st.session_state[RUNS_KEY] = linked
        elif set(default) <= set(names):
            st.session_state[RUNS_KEY] = default
        else:
            picked = frame.selected_run()
            st.session_state[RUNS_KEY] = sorted(names, key=lambda name: name != picked)[:2]
    return tuple(st.multiselect("Runs to compare", names, key=RUNS_KEY,
                                help="runs of the catalogue; those of one setup and line-up are pooled in one cell"))


# ----- the comparison -----

def overview(c) -> None:
    st.dataframe(c.runs.assign(setup=c.runs["setup"].map(setup_label)).rename(columns={"n": "games"}),
                 hide_index=True, column_config={"run": st.column_config.TextColumn("run", width=280),
                                                 "setup": st.column_config.TextColumn("setup", width=160),
                                                 "lineup": st.column_config.TextColumn("line-up", width=240),
                                                 "players": st.column_config.NumberColumn("players", width=70),
                                                 "games": st.column_config.NumberColumn("games", width=70)})
    st.caption(f"{len(c.cells)} cells, each a setup played by one line-up (a run's bots as `imperial_lab.core.bots.lineup_text` "
               "names them); the runs of one cell are pooled. Only finished games count.")
    if "mixed" in set(c.runs["lineup"]):
        st.warning("Some runs do not name their bots (imported games): they form the line-up “mixed”, whose "
                   "games may have been played by anybody.")


def plain(text: str) -> str:
    """``text`` as markdown shows it literally: every character markdown (or Streamlit's colour and
    emoji codes) could read is escaped."""
    return re.sub(r"([\\`*_{}\[\]()<>#+\-.!|:~$])", r"\\\1", text)


def summary(c) -> None:
    st.subheader("Summary")
    st.caption(f"{len(c.tests)} tests, the game the unit of each, Holm-adjusted together at α = {stats.ALPHA}. A "
               "finding is a difference significant under at least one line-up; it names the bots it was found "
               f"with, says where it holds, and is {CONDITIONAL}: other bots may play the setups otherwise.")
    if not c.findings:
        st.info(f"No finding: no difference in these {len(c.games)} games is significant at α = {stats.ALPHA} after "
                "Holm's adjustment. That is not evidence that the setups are alike: more games per cell detect "
                "smaller differences (see the intervals below).")
        return
    for i, finding in enumerate(c.findings, start=1):
        body = (f"**{i}.** {plain(finding['text'])}  \n"
                f"Holm-adjusted {plain(stats.format_p(finding['holm_p']))} · {plain(finding['where'])}")
        if finding["reverses"]:
            st.warning(f"⚠ **Reverses between line-ups** (under {plain(', '.join(finding['reverses_in']))}): the "
                       "direction depends on the bots.\n\n" + body, icon=":material/warning:")
        else:
            st.markdown(body)


def grid(c, governments: pd.DataFrame) -> None:
    st.subheader("The grid: who wins, per setup and line-up")
    st.plotly_chart(charts.cell_win_rates(c.seats, c.lineups))
    st.caption("Each seat's win rate in each cell with its 95% Wilson interval; n is the cell's finished games (a "
               "shared win counts for every sharer, §10). The dotted line is a fair game's share.")
    show_rates(rate_table(c.seats, "seat", "n", seat_name))
    left, right = st.columns(2)
    left.plotly_chart(charts.seat_gaps(c.cells, c.lineups))
    cells = pd.DataFrame({"setup": c.cells["setup"].map(setup_label), "lineup": c.cells["lineup"], "n": c.cells["n"],
                          "gap": [f"{_pct(g)} [{_pct(lo, '')}, {_pct(hi, '')}]" for g, lo, hi in
                                  zip(c.cells["gap"], c.cells["gap_low"], c.cells["gap_high"])],
                          "chance": c.cells["fair_gap"].map(_pct)})
    right.dataframe(cells, hide_index=True, column_config={  # half the width: every column narrow
        "setup": st.column_config.TextColumn("setup", width=100),
        "lineup": st.column_config.TextColumn("line-up", width=110),
        "n": st.column_config.NumberColumn("n", width=45, help="the cell's finished games"),
        "gap": st.column_config.TextColumn("gap [95% CI]", width=105, help="best seat's win rate − the worst seat's"),
        "chance": st.column_config.TextColumn("by chance", width=70,
                                              help="the median gap of a fair game with as many games")})
    right.caption("The gap's interval is bootstrapped over games. Even a fair game shows a gap (“by chance”): a gap "
                  "is read against it, and the chi-square test of equal shares decides (Every test below).")
    bots(c)
    starting_governments(c, governments)


def _pct(x: float, sign: str = "%") -> str:
    return "–" if x != x else f"{100 * x:.0f}{sign}"


def rate_table(rates: pd.DataFrame, key: str, n: str, name=str) -> pd.DataFrame:
    """One row per cell, a column per seat (or nation): "21% [14, 31]", the win rate and its 95% Wilson
    interval, beside the cell's n; a rate over fewer games (a nation nobody governed in some games)
    says its own n."""
    rows = []
    for (setup, lineup), part in rates.groupby(["setup", "lineup"], sort=True, observed=True):
        most = int(part[n].max())
        row = {"setup": setup_label(setup), "lineup": lineup, "n": most}
        for r in part.itertuples():
            own = "" if getattr(r, n) == most else f" n={getattr(r, n)}"
            row[name(getattr(r, key))] = f"{_pct(r.rate)} [{_pct(r.low, '')}, {_pct(r.high, '')}]{own}"
        rows.append(row)
    return pd.DataFrame(rows)


def show_rates(table: pd.DataFrame) -> None:
    """A rate table: up to six rate columns of 90 px beside the cell's names fit the main area."""
    rates = {name: st.column_config.TextColumn(name, width=90, help="win rate [95% Wilson interval]")
             for name in table.columns if name not in CELL_COLUMNS}
    st.dataframe(table, hide_index=True, column_config=CELL_COLUMNS | rates)


def bots(c) -> None:
    """Per bot, in the cells of two or more bots (a cell of one bot says nothing about bots)."""
    if c.bots.empty:
        return
    rates = c.bots.assign(cell=[f"{setup_label(s)} · {lineup}" for s, lineup in zip(c.bots["setup"],
                                                                                    c.bots["lineup"])])
    st.plotly_chart(charts.win_rates(rates, "bot", "Win rate per bot, in the cells of two or more bots", group="cell",
                                     n="n", fair="fair"))
    st.caption("A bot wins a game when one of its seats is among the winners; its fair share is the share of seats it "
               "holds. 95% Wilson intervals; n is the cell's games. A rotating line-up gives every seat the bot "
               "equally often, so its rate is the bot's, not its seat's.")
    table = pd.DataFrame({"setup": rates["setup"].map(setup_label), "lineup": rates["lineup"], "bot": rates["bot"],
                          "n": rates["n"], "wins": rates["wins"],
                          "rate": [f"{_pct(r)} [{_pct(lo, '')}, {_pct(hi, '')}]" for r, lo, hi in
                                   zip(rates["rate"], rates["low"], rates["high"])],
                          "fair": rates["fair"].map(_pct)})
    st.dataframe(table, hide_index=True, column_config=CELL_COLUMNS | {
        "bot": st.column_config.TextColumn("bot", width="medium"),
        "rate": st.column_config.TextColumn("win rate [95% CI]", width=130),
        "fair": st.column_config.TextColumn("fair share", width=80, help="the share of the seats it holds")})


def government_rates(c, governments: pd.DataFrame) -> pd.DataFrame:
    """queries.government_wins of the runs pooled per cell, with Wilson intervals: cell, setup, lineup,
    nation, games, wins, rate, low, high."""
    cells = c.runs[["run", "setup", "lineup"]]
    table = governments.merge(cells, on="run").groupby(["setup", "lineup", "nation"], as_index=False,
                                                       observed=True)[["games", "wins"]].sum()
    bounds = [stats.wilson(k, n) for k, n in zip(table["wins"], table["games"])]
    return table.assign(cell=[f"{setup_label(s)} · {lineup}" for s, lineup in zip(table["setup"], table["lineup"])],
                        rate=table["wins"] / table["games"], low=[b[0] for b in bounds], high=[b[1] for b in bounds])


def starting_governments(c, governments: pd.DataFrame) -> None:
    table = government_rates(c, governments)
    if table.empty:
        return
    st.plotly_chart(charts.win_rates(table, "nation", "Win rate of the player governing each nation at the start",
                                     group="cell", key_title=NATION_KEY, categories=nation_order()))
    st.caption("Descriptive only, no test: in a setup that fixes the governments, the player governing a nation is "
               "always the same seat, so a test here would repeat the seat tests. 95% Wilson intervals.")
    ordered = table.assign(order=table["nation"].map(nation_order().index)).sort_values(["setup", "lineup", "order"])
    show_rates(rate_table(ordered, "nation", "games"))


def per_game(c) -> None:
    st.subheader("Per game: length, lead changes, margin, scores")
    columns = st.columns(3)
    for column, (metric, (label, unit)) in zip(columns, METRICS.items()):
        column.plotly_chart(charts.cell_distributions(c.games, metric, label.capitalize(), unit, c.lineups))
    st.dataframe(means_table(c), hide_index=True, column_config=CELL_COLUMNS)
    st.caption("Means with their 95% t intervals, one value per finished game; lead changes count the nation "
               "turns after which another seat alone leads the score (ties name no leader). Between two setups of "
               "one line-up, Welch's t test compares each mean (Every test below).")
    st.plotly_chart(charts.seat_scores(c.seats, c.lineups))
    st.caption("Each seat's final score minus its game's mean score, averaged over the cell's games, with the 95% t "
               "interval: the seat's score advantage. Hotelling's T² tests all seats of a cell at once.")


def means_table(c) -> pd.DataFrame:
    rows = []
    for (setup, lineup), part in c.games.groupby(["setup", "lineup"], sort=True, observed=True):
        row = {"setup": setup_label(setup), "lineup": lineup, "n": len(part)}
        for metric, (label, unit) in METRICS.items():
            mean, low, high = stats.mean_ci(part[metric])
            row[f"{label} ({unit})"] = f"{mean:.1f}" + ("" if low != low else f" ({low:.1f}–{high:.1f})")
        rows.append(row)
    return pd.DataFrame(rows)


def structures(c) -> None:
    st.subheader("The setups' structure")
    st.caption("Who holds what and who governs on how much credit at the start, and which single bond transaction "
               "hands a government to another seat in the first investor round: where a seat bias may come from.")
    for setup in c.setups:
        with st.expander(setup_label(setup)):
            from imperial_lab.dashboard.games.imperial2030.structureview import show_structure  # the colleague's view, imported when shown

            path = Path(str(setup))
            if str(setup).endswith(".json"):  # a setup played from another folder is labelled by its path
                show_structure(path.stem, path.parent)
            else:
                show_structure(str(setup), setups_folder())


def effect_text(row) -> str:
    """A test's effect with its 95% interval, in the test's own unit."""
    if row.metric in ("seat_balance", "seat_outcomes"):  # win rates: percentage points
        scale, unit, sign = 100, " pp", "+" if row.metric == "seat_outcomes" else ""
    else:
        scale, unit, sign = 1, " " + EFFECT_UNITS.get(row.metric, ""), "+"
    if row.effect != row.effect:
        return "–"
    number = f"{{:{sign}.{0 if scale == 100 else 1}f}}"
    bounds = "" if row.low != row.low else f" [{number.format(scale * row.low)}, {number.format(scale * row.high)}]"
    return number.format(scale * row.effect) + bounds + unit


def every_test(c) -> None:
    st.subheader("Every test")
    methods = "; ".join(f"{TEST_LABELS[m]}: {TEST_NAMES[m]}" for m in ("seat_balance", "seat_scores", "seat_outcomes"))
    st.caption(f"Unit: the game. Tests: {methods}; game length, lead changes, margin: {TEST_NAMES['rounds']}. Holm p "
               f"adjusts every p of the comparison together; ✓: significant at α = {stats.ALPHA}. Effects: win rates "
               "in percentage points (pp), scores and margins in points (pts).")
    tests = c.tests.reset_index(drop=True)
    shown = pd.DataFrame({
        "#": range(1, len(tests) + 1),
        "test": tests["metric"].map(TEST_LABELS),
        "setup": tests["setup"].map(setup_label),
        "vs": tests["versus"].map(lambda v: "–" if v is None or v != v else setup_label(v)),
        "lineup": tests["lineup"],
        "effect": [effect_text(row) for row in tests.itertuples()],
        "p": tests["p"], "holm_p": tests["holm_p"], "significant": tests["significant"],
        "n": tests["n"], "unit": tests["unit"]})
    st.dataframe(shown, hide_index=True, key="every_test", column_config={
        "#": st.column_config.NumberColumn("#", width=36),
        "test": st.column_config.TextColumn("test", width=92),
        "setup": st.column_config.TextColumn("setup", width=110),
        "vs": st.column_config.TextColumn("vs", width=110, help="the other setup of a comparison of two setups"),
        "lineup": st.column_config.TextColumn("line-up", width=120),
        "effect": st.column_config.TextColumn("effect [95% CI]", width=150,
                                              help="what is measured: the table below, by #"),
        "p": st.column_config.NumberColumn("p", format="%.3g", width=62),
        "holm_p": st.column_config.NumberColumn("Holm p", format="%.3g", width=62),
        "significant": st.column_config.CheckboxColumn("✓", width=32, help=f"Holm p < {stats.ALPHA}"),
        "n": st.column_config.NumberColumn("n", width=50, help="games"),
        "unit": st.column_config.TextColumn("unit", width=48)})
    with st.expander("What each test measures"):
        st.dataframe(pd.DataFrame({"#": range(1, len(tests) + 1), "id": tests["id"], "subject": tests["subject"],
                                   "effect": tests["effect_name"]}), hide_index=True, column_config={
            "#": st.column_config.NumberColumn("#", width=40),
            "id": st.column_config.TextColumn("id (imperial compare --json)", width="large"),
            "subject": st.column_config.TextColumn("subject", width=90),
            "effect": st.column_config.TextColumn("effect", width="large")})


st.title("Compare bond distributions")
catalog = frame.catalog_path()
new_comparison(catalog)
runs = choose_runs(catalog)
if not runs:
    st.info("Choose one or more runs to compare (say one per setup and line-up), or play a new comparison above.")
    st.stop()
try:
    result = cache.compare(catalog, runs)
except ImperialError as exc:  # e.g. a run removed from the catalogue since the list was read
    frame.show_error("These runs cannot be compared.", exc)
    st.stop()
if result.games is None or result.games.empty:
    st.info("These runs have no finished games to compare.")
    st.stop()
overview(result)
summary(result)
grid(result, cache.load(queries.government_wins, catalog, runs))
per_game(result)
structures(result)
every_test(result)
