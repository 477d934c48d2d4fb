"""Compare bond distributions: is a setup fair, and for which players? (imperial_lab.core.compare,
docs/compare.md). The page says it first in a board-gamer's words: a verdict per setup along the
strength ladder (from random bots to the strongest bot the lab has: fair within a declared margin,
unfair, or not enough games and how many would tell), whether a seat's edge grows, shrinks or flips as
the players get stronger, and which of two setups looks fairer. A chart shows every seat's share of
the wins along the ladder, and beside the measured shares each seat's chance at the start by the
win-chance model; a glossary says what each statistic means in one sentence; the figures and every
test (the game their unit, Bonferroni within families fixed by the question) stay below, the costlier
charts in expanders drawn when opened.

What the verdicts say is what ``imperial compare RUN... --json`` prints for the same runs and margin.
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import streamlit as st

from imperial_lab.core import compare, ladder, stats
from imperial_lab.core.compare import CONDITIONAL, GLOSSARY, METRICS, TEST_NAMES, label
from imperial_lab.core.errors import ImperialError
from imperial_lab.core.games.imperial2030.setups import setups_folder
from imperial_lab.core.setups import custom_folder, load_setup, setup_names
from imperial_lab.dashboard import cache, charts, frame, simulations
from imperial_lab.dashboard.games.imperial2030 import queries
from imperial_lab.dashboard.games.imperial2030.colours import nation_order

NATION_KEY = "nation governed at the start"  # the axis of the starting governments' win rates

RUNS_KEY = "compare_runs"
PENDING_KEY = "compare_pending"  # runs just played, selected on the next rerun (before the widget exists)
REPLICATED_KEY = "compare_replicated"  # replicates just played: the rerun compares them, nothing to select
GOVERNMENTS_KEY = "compare_governments"  # the lazy expanders: open, their figures are drawn
PER_GAME_KEY = "compare_per_game"
ROTATING = "one search seat (rotating) among heuristics"
STRONG = "the win-chance bot (greedy) in every seat"  # the ladder's top: the strongest it can play in minutes
STRONG_SPEC = "greedy"
MODEL_ROW = "start chance (model)"  # the share table's row of a setup's start chances (fits the line-up column)
# Short names of the tests in the tables (imperial_lab.core.compare's metric ids).
TEST_LABELS = {"seat_share": "seat share", "trend": "along ladder", "seat_scores": "seat scores",
               "share_difference": "seat share A−B", "rounds": "game length", "lead_changes": "lead changes",
               "margin": "margin"}
EFFECT_UNITS = {"seat_scores": "pts", "margin": "pts", "rounds": "rounds", "lead_changes": "changes"}
VERDICT_SHOWN = {"fair": "✓ fair", "unfair": "✗ unfair", "undecided": "? too few games"}
# Grids size columns by their first characters, which would cut setup names and line-ups; every table
# fits the main area of a 1366 px screen beside the sidebar (about 900 px).
CELL_COLUMNS = {"setup": st.column_config.TextColumn("setup", width=130),
                "lineup": st.column_config.TextColumn("line-up", width=150, help=GLOSSARY["line-up"]),
                "n": st.column_config.NumberColumn("n", width=55, help="the cell's finished games")}


# ----- playing a new comparison -----

def rung_choices() -> dict[str, str]:
    """The form's line-ups: each rung of the ladder in words -> its spec (its top, the learned evaluator's
    greedy bot in every seat, as the strong line-up), then the rotating search seat."""
    rungs = {ladder.rung_words(spec): spec for spec in ladder.rungs()}
    return {(STRONG if spec == STRONG_SPEC else words): spec for words, spec in rungs.items()} | {ROTATING: ROTATING}


def new_comparison(catalog) -> None:
    """The form: setups × line-ups (the ladder's rungs, or a search seat turned among heuristics), games
    per cell (fewer for a search bot's cells); the runs are ordinary runs named after what they hold,
    so asking twice finds them finished."""
    choices = rung_choices()
    with st.expander("Play a new comparison", expanded=False):
        with st.form("new_comparison"):
            names = setup_names(custom_folder())
            setups = st.multiselect("Setups", names, default=[n for n in simulations.dataset_setups() if n in names],
                                    help="standard, variant, or a custom setup (Setup editor page)", key="new_setups")
            fast = [words for words, spec in choices.items() if spec != ROTATING and not ladder.searches(spec)]
            lineups = st.multiselect("Line-ups (the ladder: weakest first)", list(choices), default=fast,
                                     key="new_lineups",
                                     help=f"{GLOSSARY['the ladder']} Each rung is that bot in every seat, each seat "
                                          f"its own seed. {STRONG}: strong players, each picking the move the "
                                          f"win-chance model rates best; about 3 seconds a game (a cell of 60 games "
                                          f"takes a few minutes). The rollout bot (rollout) plays far better still "
                                          f"(one such seat won 93% of 200 games against three heuristics) but "
                                          f"thinks about a second a decision, some 5 minutes a game in every seat: "
                                          f"give it the rotating seat below, or play it from the terminal "
                                          f"(docs/search.md). {ROTATING}: the search bot below in one "
                                          f"seat, turned by one seat per game, {simulations.default_bot()} bots in "
                                          f"the others.")
            left, middle, right, far = st.columns(4)
            games = left.number_input("Games per cell", min_value=2, max_value=10_000, value=100, step=10,
                                      key="new_games", help="per setup and line-up; about 1,000 tell a 3-point "
                                                            "edge from none")
            search_games = middle.number_input("Games per slow cell", min_value=2, max_value=1000,
                                               value=simulations.SEARCH_GAMES, step=10, key="new_search_games",
                                               help="the cells of a search bot or of the win-chance bot, which play "
                                                    "slowly (seconds to minutes a game)")
            budget = right.text_input("Rotating seat's bot", value=simulations.SEARCH_BUDGET, key="new_budget",
                                      help="the bot spec of the rotating search seat (docs/search.md), e.g. "
                                           "rollout (the strongest, about a second a decision) or "
                                           "mcts:playouts=200")
            seed = far.number_input("Seed", min_value=0, value=simulations.DEFAULT_SEED, step=1, key="new_seed")
            st.caption("The slow cells (a search bot, the win-chance bot) play fewer games, so their intervals are "
                       "wider and an edge must be larger to be shown there; every cell says its number of games.")
            submitted = st.form_submit_button("Play and compare", type="primary")
        if not submitted:
            return
        if not setups or not lineups:
            st.warning("Choose at least one setup and one line-up.")
            return
        chosen = [simulations.one_seat(str(budget or simulations.SEARCH_BUDGET).strip()) if choices[words] == ROTATING
                  else simulations.every_seat(choices[words]) for words in lineups]
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
    st.session_state.pop(REPLICATED_KEY, None)
    return tuple(st.multiselect("Runs to compare", names, key=RUNS_KEY,
                                help="runs of the catalogue; those of one setup and line-up are pooled in one cell "
                                     "(a run's replicate, NAME-replicate, is read beside it, not pooled)"))


def margin_and_replicate(catalog, runs) -> float:
    """The margin the verdicts use (points, as a share), and the button that plays a fresh-seed replicate
    of the runs compared."""
    left, right = st.columns([1, 2])
    margin = left.number_input("Fair within ± points", min_value=0.5, max_value=20.0, value=100 * stats.MARGIN,
                               step=0.5, key="compare_margin", help=GLOSSARY["margin"])
    right.caption("**Replicate:** a verdict or a finding is *established* only when the same runs, played again on "
                  "new seeds, show it again. The button plays each run again (same setup, bots and number of games); "
                  "a run already replicated is not played again.")
    if right.button("Play a replicate (fresh seeds)", key="compare_replicate",
                    help="imperial compare RUN... --replicate does the same"):
        frame.play_then_rerun(lambda on_progress: compare.play_replicates(catalog, runs, progress=False,
                                                                          on_progress=on_progress),
                              "The replicate could not be played.", REPLICATED_KEY)
    return margin / 100


# ----- the verdict first -----

def plain(text: str) -> str:
    """``text`` as markdown shows it literally: every character markdown (or Streamlit's colour and
    emoji codes) could read is escaped."""
    return re.sub(r"([\\`*_{}\[\]()<>#+\-.!|:~$])", r"\\\1", text)


def verdict(c) -> None:
    st.subheader("Verdict")
    for row in c.verdicts.itertuples():
        mark = {"unfair": ":material/cancel:", "fair": ":material/check_circle:"}.get(row.verdict, ":material/help:")
        tail = f" \\[{plain(row.replication)}\\]" if row.replication else ""
        st.markdown(f"{mark} {plain(row.text)}{tail}")
    for text in compare.summary(c)[len(c.verdicts):]:  # the pairs of setups
        st.markdown(f":material/compare_arrows: {plain(text)}")
    replicated = "" if c.replicate is None else (
        f" Replicates of {len(c.replicate.runs)} runs were read: a verdict or finding they show again is "
        f"marked established.")
    st.caption(f"Fair means every seat within ±{100 * c.margin:g} points of its fair share, shown with 95% "
               f"confidence for all the seats of a setup at once; shared wins split 1/k; {CONDITIONAL}. "
               f"The glossary below says what each word means.{replicated}")


def rung_labels(c) -> dict[str, str]:
    """Each line-up of the cells as the tables and the chart's axis name it: a rung in short words
    (``heuristic t=0.3``), else its text."""
    cells = c.cells.drop_duplicates("lineup")
    return {lineup: lineup if rung != rung or rung is None else ladder.rung_words(lineup.rsplit(" ×", 1)[0], c.game)
            for lineup, rung in zip(cells["lineup"], cells["rung"])}


def glossary() -> None:
    with st.expander("What the words mean"):
        st.markdown("\n".join(f"* **{word}**: {plain(sentence)}" for word, sentence in GLOSSARY.items()))


# ----- the figures -----

def _pct(x: float, sign: str = "%") -> str:
    return "–" if x != x else f"{100 * x:.0f}{sign}"


def verdict_table(c) -> pd.DataFrame:
    """One row per cell: its verdict, its seat farthest from the fair share "B 37.0 [33, 41]" (percent,
    the family's interval), the gap, the games that would decide, and what a replicate showed."""
    rows, names = [], rung_labels(c)
    for cell in c.ordered_cells().itertuples():
        seats = c.seats[(c.seats["setup"] == cell.setup) & (c.seats["lineup"] == cell.lineup)]
        par = 1 / int(cell.players)
        worst = max(seats.itertuples(), key=lambda s: abs(s.rate - par))
        decide = cell.games_to_decide
        rows.append({"setup": label(cell.setup), "lineup": names[cell.lineup], "n": cell.n,
                     "verdict": VERDICT_SHOWN[cell.verdict],
                     "worst seat": f"{c.side(int(worst.seat))[-1] if not c.sides else c.side(int(worst.seat))} "
                                   f"{100 * worst.rate:.1f} [{_pct(worst.low, '')}, {_pct(worst.high, '')}]",
                     "gap": f"{_pct(cell.gap, '')} [{_pct(cell.gap_low, '')}, {_pct(cell.gap_high, '')}]",
                     "to decide": ("" if decide is None or decide != decide else "too many to play"
                                   if decide >= stats.MAX_GAMES_TO_DECIDE else f"~{int(decide):,}"),
                     "replicate": cell.replication or ""})
    return pd.DataFrame(rows)


def share_table(c, chances: dict) -> pd.DataFrame:
    """One row per cell, a column per seat: its share of the wins "25.1 [21, 29]" (percent, the
    family's interval); after a setup's cells, the row of its seats' chances at the start by the
    win-chance model (``chances``: start_chances)."""
    rows, names = [], rung_labels(c)
    cells = c.ordered_cells()
    for i, cell in enumerate(cells.itertuples()):
        row = {"setup": label(cell.setup), "lineup": names[cell.lineup], "n": cell.n}
        seats = c.seats[(c.seats["setup"] == cell.setup) & (c.seats["lineup"] == cell.lineup)]
        for s in seats.itertuples():
            row[c.side(int(s.seat))] = f"{100 * s.rate:.1f} [{_pct(s.low, '')}, {_pct(s.high, '')}]"
        rows.append(row)
        key = (cell.setup, int(cell.players))
        last = i + 1 == len(cells) or (cells["setup"].iloc[i + 1], int(cells["players"].iloc[i + 1])) != key
        if last and key in chances:
            rows.append({"setup": label(cell.setup), "lineup": MODEL_ROW, "n": None} |
                        {c.side(seat): f"{100 * chance:.1f}" for seat, chance in enumerate(chances[key])})
    return pd.DataFrame(rows).astype({"n": "Int64"})


def start_chances(c) -> dict[tuple[str, int], list[float]]:
    """(setup, players) -> each seat's chance to win at the start by the win-chance model (the learned
    evaluator, imperial_lab.core.analysis.start_chances), for the setups that can still be read."""
    chances = {}
    for setup, players in c.cells[["setup", "players"]].drop_duplicates().itertuples(index=False):
        try:
            config = load_setup(str(setup), int(players), folder=custom_folder(), game=c.game)
        except ImperialError:  # a custom setup removed since its runs were played
            continue
        chances[(setup, int(players))] = cache.start_chances(config)
    return chances


def start_words(c, chances: dict) -> list[str]:
    """A sentence per setup: the seat the win-chance model favours at the start, then the others."""
    texts = []
    for (setup, _), seats in chances.items():
        best = max(range(len(seats)), key=seats.__getitem__)
        others = ", ".join(f"{c.side(seat)} {100 * chance:.0f}%" for seat, chance in enumerate(seats) if seat != best)
        texts.append(f"{label(setup)}: the win-chance model gives {c.side(best)} {100 * seats[best]:.0f}% at the start "
                     f"({others}).")
    return texts


def grid(c, catalog) -> None:
    st.subheader("Who wins: each setup along the ladder")
    names = rung_labels(c)
    st.plotly_chart(charts.seat_ladder(c.seats, c.lineups, c.margin, names, c.sides), config={"displayModeBar": False})
    st.caption(f"Each seat's share of the wins ({GLOSSARY['share of the wins'].lower()}) with its interval; the dotted "
               f"line is the fair share and the grey band the margin (±{100 * c.margin:g} points). A seat whose "
               "interval stays inside the band everywhere is fair along the ladder.")
    st.dataframe(verdict_table(c), hide_index=True, column_config=CELL_COLUMNS | {
        "verdict": st.column_config.TextColumn("verdict", width=115,
                                               help=f"fair: {GLOSSARY['fair']} unfair: {GLOSSARY['unfair']}"),
        "worst seat": st.column_config.TextColumn("worst seat", width=120,
                                                  help="the seat farthest from its fair share: its share of the wins, "
                                                       f"% [{GLOSSARY['interval']}]"),
        "gap": st.column_config.TextColumn("gap", width=80, help=GLOSSARY["gap"]),
        "to decide": st.column_config.TextColumn("to decide", width=85, help=GLOSSARY["too few games"]),
        "replicate": st.column_config.TextColumn("replicate", width=95, help=GLOSSARY["established"])})
    chances = start_chances(c)
    table = share_table(c, chances)
    sides = [name for name in table.columns if name not in CELL_COLUMNS]
    st.dataframe(table, hide_index=True, column_config=CELL_COLUMNS | {
        name: st.column_config.TextColumn(name, width=90, help=f"share of the wins, % [{GLOSSARY['interval']}]; "
                                                               f"{MODEL_ROW}: the chance, %")
        for name in sides})
    for text in start_words(c, chances):
        st.markdown(plain(text))
    if chances:
        st.caption(f"{MODEL_ROW}: each seat's chance to win by the lab's win-chance model (a model learned from "
                   "heuristic games, docs/evaluator.md), judged before the first move and averaged over the draws "
                   "that start a game. It is a forecast, not a measurement: the shares above count whole games "
                   "played by the line-up named.")
    bots(c)
    starting_governments(c, catalog)


def findings(c) -> None:
    st.subheader("Findings")
    st.caption("A finding is a difference significant in its family under at least one line-up; it says where it "
               "holds, and it is established only when a replicate on new seeds shows it again.")
    if not c.findings:
        st.info(f"No finding: no difference in these {len(c.games)} games is significant at α = {stats.ALPHA} in its "
                "family. That is not evidence that the setups are alike: the verdicts above say what the games can "
                "tell, and how many more would.")
        return
    for i, finding in enumerate(c.findings, start=1):
        body = (f"**{i}.** {plain(finding['text'])}  \n"
                f"adjusted {plain(stats.format_p(finding['adjusted_p']))} · {plain(finding['replication'])} · "
                f"{plain(finding['where'])}")
        if finding["reverses"]:
            st.warning(f"⚠ **Reverses between line-ups** (under {plain(', '.join(finding['reverses_in']))}): the "
                       "direction depends on the bots.\n\n" + body, icon=":material/warning:")
        else:
            st.markdown(body)


def bots(c) -> None:
    """Per bot, in the cells of two or more bots (a cell of one bot says nothing about bots)."""
    if c.bots.empty:
        return
    rates = c.bots.assign(cell=[f"{label(s)} · {lineup}" for s, lineup in zip(c.bots["setup"], c.bots["lineup"])])
    st.plotly_chart(charts.win_rates(rates, "bot", "Share of the wins per bot, in the cells of two or more bots",
                                     group="cell", n="n", fair="fair"), config={"displayModeBar": False})
    st.caption("A bot's share of a game's win is the part its seats hold of the winners (a shared win splits); its fair "
               "share is the share of seats it holds. 95% Wilson intervals; n is the cell's games. A rotating line-up "
               "gives every seat the bot equally often, so its rate is the bot's, not its seat's.")
    table = pd.DataFrame({"setup": rates["setup"].map(label), "lineup": rates["lineup"], "bot": rates["bot"],
                          "n": rates["n"],
                          "rate": [f"{_pct(r)} [{_pct(lo, '')}, {_pct(hi, '')}]" for r, lo, hi in
                                   zip(rates["rate"], rates["low"], rates["high"])],
                          "fair": rates["fair"].map(_pct)})
    st.dataframe(table, hide_index=True, column_config=CELL_COLUMNS | {
        "bot": st.column_config.TextColumn("bot", width="medium"),
        "rate": st.column_config.TextColumn("share [95% CI]", width=130),
        "fair": st.column_config.TextColumn("fair share", width=80, help="the share of the seats it holds")})


def government_rates(c, governments: pd.DataFrame) -> pd.DataFrame:
    """queries.government_wins of the runs pooled per cell, with Wilson intervals: cell, setup, lineup,
    nation, games, wins, rate, low, high."""
    cells = c.runs[["run", "setup", "lineup"]]
    table = governments.merge(cells, on="run").groupby(["setup", "lineup", "nation"], as_index=False,
                                                       observed=True)[["games", "wins"]].sum()
    bounds = [stats.wilson(k, n) for k, n in zip(table["wins"], table["games"])]
    return table.assign(cell=[f"{label(s)} · {lineup}" for s, lineup in zip(table["setup"], table["lineup"])],
                        rate=table["wins"] / table["games"], low=[b[0] for b in bounds], high=[b[1] for b in bounds])


def lazy_expander(label: str, key: str):
    """An expander whose content is worked out only while it is open (opening it reruns the page): the
    page's first view skips the figures below the verdict that cost the most and say the least."""
    return st.expander(label, key=key, on_change="rerun")


def starting_governments(c, catalog) -> None:
    with lazy_expander("Who wins with each starting government", GOVERNMENTS_KEY) as box:
        if not box.open:
            return
        table = government_rates(c, cache.load(queries.government_wins, catalog, tuple(c.runs["run"])))
        if table.empty:
            st.info("These runs hold no finished game with a government at the start.")
            return
        st.plotly_chart(charts.win_rates(table, "nation", "Win rate of the player governing each nation at the start",
                                         group="cell", key_title=NATION_KEY, categories=nation_order()),
                        config={"displayModeBar": False})
        st.caption("Descriptive only, no test: in a setup that fixes the governments, the player governing a nation "
                   "is always the same seat, so a test here would repeat the seat tests. 95% Wilson intervals; a "
                   "shared win counts for each sharer here.")


def per_game(c) -> None:
    st.subheader("Per game: length, lead changes, margin, scores")
    st.dataframe(means_table(c), hide_index=True, column_config=CELL_COLUMNS)
    st.caption("Means with their 95% t intervals, one value per finished game; lead changes count the nation "
               "turns after which another seat alone leads the score (ties name no leader). Between two setups of "
               "one line-up, Welch's t test compares each mean (Every test below).")
    with lazy_expander("Charts: how long the games last, lead changes, margins, each seat's score", PER_GAME_KEY) as box:
        if not box.open:
            return
        columns = st.columns(3)
        for column, (metric, (what, unit)) in zip(columns, METRICS.items()):
            column.plotly_chart(charts.cell_distributions(c.games, metric, what.capitalize(), unit, c.lineups),
                                config={"displayModeBar": False})
        st.plotly_chart(charts.seat_scores(c.seats, c.lineups), config={"displayModeBar": False})
        st.caption("Each seat's final score minus its game's mean score, averaged over the cell's games, with the 95% "
                   "t interval: the seat's score advantage. Hotelling's T² tests all seats of a cell at once.")


def means_table(c) -> pd.DataFrame:
    rows = []
    for (setup, lineup), part in c.games.groupby(["setup", "lineup"], sort=True, observed=True):
        row = {"setup": label(setup), "lineup": lineup, "n": len(part)}
        for metric, (what, unit) in METRICS.items():
            mean, low, high = stats.mean_ci(part[metric])
            row[f"{what} ({unit})"] = f"{mean:.1f}" + ("" if low != low else f" ({low:.1f}–{high:.1f})")
        rows.append(row)
    return pd.DataFrame(rows)


def structures(c) -> None:
    st.subheader("The setups' structure")
    st.caption("Who holds what and who governs on how much credit at the start, and which single bond transaction "
               "hands a government to another seat in the first investor round: where a seat's edge may come from.")
    for setup in c.setups:
        with st.expander(label(setup)):
            from imperial_lab.dashboard.games.imperial2030.structureview import show_structure  # the colleague's view, imported when shown

            path = Path(str(setup))
            if str(setup).endswith(".json"):  # a setup played from another folder is labelled by its path
                show_structure(path.stem, path.parent)
            else:
                show_structure(str(setup), setups_folder())


def effect_text(row) -> str:
    """A test's effect with its interval (at the family's level), in the test's own unit."""
    if row.metric in ("seat_share", "share_difference", "trend"):  # shares: percentage points
        scale, unit, sign = 100, " pp", "+"
    else:
        scale, unit, sign = 1, " " + EFFECT_UNITS.get(row.metric, ""), "+"
    if row.effect != row.effect:
        return "–"
    number = f"{{:{sign}.{1 if scale == 100 else 1}f}}"
    bounds = "" if row.low != row.low else f" [{number.format(scale * row.low)}, {number.format(scale * row.high)}]"
    return number.format(scale * row.effect) + bounds + unit


def every_test(c) -> None:
    st.subheader("Every test")
    methods = "; ".join(f"{TEST_LABELS[m]}: {TEST_NAMES[m]}" for m in ("seat_share", "trend", "seat_scores",
                                                                         "share_difference"))
    st.caption(f"Unit: the game. Tests: {methods}; game length, lead changes, margin: {TEST_NAMES['rounds']}. "
               f"Adjusted p is Bonferroni's within the test's family (its size in the table below); ✓: significant at "
               f"α = {stats.ALPHA}, exactly when the interval, at the family's level, leaves out no effect. Effects: "
               "shares in percentage points (pp), scores and margins in points (pts).")
    tests, names = c.tests.reset_index(drop=True), rung_labels(c)
    shown = pd.DataFrame({
        "#": range(1, len(tests) + 1),
        "test": tests["metric"].map(TEST_LABELS),
        "setup": tests["setup"].map(label),
        "vs": tests["versus"].map(lambda v: "–" if v is None or v != v else label(v)),
        "lineup": tests["lineup"].map(lambda lineup: names.get(lineup, lineup)),
        "subject": tests["subject"],
        "effect": [effect_text(row) for row in tests.itertuples()],
        "p": tests["p"], "adjusted_p": tests["adjusted_p"], "significant": tests["significant"],
        "n": tests["n"]})
    st.dataframe(shown, hide_index=True, key="every_test", column_config={
        "#": st.column_config.NumberColumn("#", width=32),
        "test": st.column_config.TextColumn("test", width=85),
        "setup": st.column_config.TextColumn("setup", width=125),
        "vs": st.column_config.TextColumn("vs", width=125, help="the other setup of a comparison of two setups"),
        "lineup": st.column_config.TextColumn("line-up", width=105, help=GLOSSARY["line-up"]),
        "subject": st.column_config.TextColumn("subject", width=75),
        "effect": st.column_config.TextColumn("effect [CI]", width=135,
                                              help="what is measured: the table below, by #; the interval at the "
                                                   "level of the test's family"),
        "p": st.column_config.NumberColumn("p", format="%.2g", width=52),
        "adjusted_p": st.column_config.NumberColumn("adj. p", format="%.2g", width=52, help=GLOSSARY["adjusted p"]),
        "significant": st.column_config.CheckboxColumn("✓", width=30, help=f"adjusted p < {stats.ALPHA}"),
        "n": st.column_config.NumberColumn("n", width=50, help="games")})
    with st.expander("What each test measures, and its family"):
        st.dataframe(pd.DataFrame({"#": range(1, len(tests) + 1), "id": tests["id"], "family": tests["family"],
                                   "tests": tests["size"], "effect": tests["effect_name"]}),
                     hide_index=True, column_config={
            "#": st.column_config.NumberColumn("#", width=40),
            "id": st.column_config.TextColumn("id (imperial compare --json)", width="medium"),
            "family": st.column_config.TextColumn("family", width=140, help=GLOSSARY["family"]),
            "tests": st.column_config.NumberColumn("tests", width=50, help="the family's size"),
            "effect": st.column_config.TextColumn("effect", width="medium")})


def overview(c) -> None:
    with st.expander(f"The runs compared ({len(c.runs)})"):
        st.dataframe(c.runs.assign(setup=c.runs["setup"].map(label)).rename(columns={"n": "games"}),
                     hide_index=True, column_config={"run": st.column_config.TextColumn("run", width=280),
                                                     "setup": st.column_config.TextColumn("setup", width=140),
                                                     "lineup": st.column_config.TextColumn("line-up", width=240),
                                                     "players": st.column_config.NumberColumn("players", width=70),
                                                     "games": st.column_config.NumberColumn("games", width=70)})
        st.caption("A cell is a setup played by one line-up; the runs of one cell are pooled. Only finished games "
                   "count.")
    if "mixed" in set(c.runs["lineup"]):
        st.warning("Some runs do not name their bots (imported games): they form the line-up “mixed”, whose "
                   "games may have been played by anybody.")


st.title("Compare bond distributions")
catalog = frame.catalog_path()
new_comparison(catalog)
runs = choose_runs(catalog)
if not runs:
    st.info("Choose one or more runs to compare (say one per setup and line-up), or play a new comparison above.")
    st.stop()
margin = margin_and_replicate(catalog, runs)
try:
    result = cache.compare(catalog, runs, margin)
except ImperialError as exc:  # e.g. a run removed from the catalogue since the list was read
    frame.show_error("These runs cannot be compared.", exc)
    st.stop()
if result.games is None or result.games.empty:
    st.info("These runs have no finished games to compare.")
    st.stop()
verdict(result)
glossary()
grid(result, catalog)
overview(result)
findings(result)
per_game(result)
structures(result)
every_test(result)
