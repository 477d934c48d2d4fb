"""League: the standings of a run's bots (imperial_lab.core.league.standings, docs/league.md) as a ladder sorted
by rating, their win rates with 95% intervals, the seat effect, and a form that plays a new league.

Leagues are listed first among the runs; any run has standings (a run of one bot in every seat has
one entrant, which says nothing about bots, but its seat effect still holds).
"""

from __future__ import annotations

import streamlit as st

from imperial_lab.core.bots import bot_classes, canonical_spec, lineup_text
from imperial_lab.core.errors import ImperialError, SetupError
from imperial_lab.core.interface import seat_name
from imperial_lab.core.league import MAX_BOTS, MIN_BOTS, WINS_COUNTED
from imperial_lab.core.setups import custom_folder, setup_names
from imperial_lab.core.stats import even_shares, format_p
from imperial_lab.dashboard import cache, charts, frame, ladder, simulations

RUN_KEY = "league_run"
PENDING_KEY = "league_pending"  # the league just played, chosen on the next rerun (before the widget exists)
LINEUP = ("heuristic", "heuristic:temperature=0", "random")  # the form's first line-up: three seats, filled
SEAT_KEYS = [f"league_seat_{seat}" for seat in range(MAX_BOTS)]
RATING = "OpenSkill Plackett-Luce rating; ordinal = mu − 3·sigma, a cautious estimate, and the ladder's order"


def new_league(catalog) -> None:
    """The form: one bot spec per seat (empty seats stay out), games, seed, setup. A bad line-up is one
    error naming every bad spec, before anything is played or written."""
    with st.expander("Play a new league", expanded=False):
        with st.form("new_league"):
            st.caption(f"One bot spec per seat ({MIN_BOTS}–{MAX_BOTS} seats; leave the rest empty), e.g. "
                       f"`heuristic:temperature=0.5`. Known bots: {_known_bots()}. Game k seats bot (p + k) mod P "
                       "in seat p, so every bot plays every seat.")
            columns = st.columns(3)
            specs = [columns[seat % 3].text_input(seat_name(seat), value=LINEUP[seat] if seat < len(LINEUP) else "",
                                                  key=key)
                     for seat, key in enumerate(SEAT_KEYS)]
            left, middle, right = st.columns(3)
            games = left.number_input("Games", min_value=1, max_value=10_000, value=30, step=10, key="league_games")
            seed = middle.number_input("Seed", min_value=0, value=simulations.DEFAULT_SEED, step=1, key="league_seed")
            names = setup_names(custom_folder())
            setup = right.selectbox("Setup", names, index=names.index("standard"), key="league_setup",
                                    help="standard works for any number of players; a custom setup only for its own")
            submitted = st.form_submit_button("Play the league", type="primary")
        if not submitted:
            return
        try:
            lineup = _lineup(specs)
        except SetupError as exc:
            frame.show_error("The league could not be played: the line-up is not valid.", *exc.args)
            return
        frame.play_then_rerun(lambda on_progress: simulations.play_league(
            catalog, lineup, int(games), int(seed), setup, setups_dir=custom_folder(), on_progress=on_progress),
            "The league could not be played.", PENDING_KEY)


def _lineup(specs: list[str]) -> list[str]:
    """The canonical specs of the filled seats. SetupError whose args are one message per bad seat,
    so that every mistake shows at once."""
    filled = [(seat, text.strip()) for seat, text in enumerate(specs) if text.strip()]
    problems, lineup = [], []
    for seat, text in filled:
        try:
            lineup.append(canonical_spec(text, seat_name(seat)))
        except SetupError as exc:
            problems.append(str(exc))
    if len(filled) < MIN_BOTS:
        filled_text = "1 seat is" if len(filled) == 1 else f"{len(filled)} seats are"
        problems.append(f"a league needs {MIN_BOTS}..{MAX_BOTS} bots, one per seat; {filled_text} filled")
    if problems:
        raise SetupError(*problems)
    return lineup


def _known_bots() -> str:
    """Each bot with its parameters, from the classes themselves (``PARAMS``), so the list never lags."""
    parts = []
    for name, cls in sorted(bot_classes().items()):
        params = getattr(cls, "PARAMS", None)
        # A class without PARAMS checks its parameters itself (imperial_lab.core.bots): they are in its docstring.
        listed = ", ".join(params) if params else ("none" if params is not None else "see docs/command-line.md")
        if params and len(params) > 4:
            listed = ", ".join(list(params)[:4]) + ", …"
        parts.append(f"{name} ({listed})")
    return "; ".join(parts)


def choose_run(catalog) -> str | None:
    """The run shown: leagues first (newest first), then the other runs of every game. On a first visit
    the newest league (the newest run when there is none); a league just played is chosen at once."""
    runs = cache.runs(catalog)
    if runs.empty:
        return None
    ordered = runs.sort_values("rotate", ascending=False, kind="stable")  # already newest first
    names = list(ordered["name"])
    lineups = {row.name: lineup_text(row.bots, row.rotate) for row in ordered.itertuples()}
    if PENDING_KEY in st.session_state:
        played = st.session_state.pop(PENDING_KEY)
        if played in names:
            st.session_state[RUN_KEY] = played
    if st.session_state.get(RUN_KEY) not in names:
        st.session_state[RUN_KEY] = names[0]
    return st.selectbox("Run", names, key=RUN_KEY, format_func=lambda name: f"{name} · {lineups[name]}",
                        help="a league (imperial league, or the form above), or any other run of the catalogue")


def ladder_section(standings: dict, lineup: str) -> None:
    bots = ladder.bot_table(standings)
    st.subheader("Ladder")
    st.caption(_scope(standings, lineup))
    if len(bots) < 2:  # its one row would read "100% win rate": no ladder at all
        st.info("This run has one bot in every seat, so it says nothing about bots: that bot wins every game it "
                "finishes. Play a league to compare bots (the form above); the seat effect below still holds.")
        return
    if not standings["rotate"]:
        st.warning("This run kept each bot in its seat (it is not a rotated league), so a bot's win rate includes "
                   "its seats' advantage: see the seat effect below.")
    fair = bots["fair"].iloc[0] if bots["fair"].nunique() == 1 else None
    st.plotly_chart(charts.win_rates(bots, "bot", "Win rate per bot", fair))
    st.dataframe(bots.drop(columns=["run"]), hide_index=True, column_config={
        "bot": st.column_config.TextColumn("bot", width="medium"),
        "seats": st.column_config.NumberColumn("seats", help="seat-games: games × its seats per game"),
        "rate": st.column_config.NumberColumn("win rate", format="percent"),
        "low": st.column_config.NumberColumn("95% CI low", format="percent"),
        "high": st.column_config.NumberColumn("95% CI high", format="percent"),
        "fair": st.column_config.NumberColumn("fair share", format="percent",
                                              help="the win rate of a bot as strong as the others: seats / players"),
        "mean_score": st.column_config.NumberColumn("mean score", format="%.1f", help="per seat-game (§10)"),
        "mu": st.column_config.NumberColumn(format="%.2f"), "sigma": st.column_config.NumberColumn(format="%.2f"),
        "ordinal": st.column_config.NumberColumn(format="%.2f", help=RATING)})


def _scope(standings: dict, lineup: str) -> str:
    """Which games and bots the figures hold for, and how they are counted."""
    left_out = [f"{standings[key]} {key}" for key in ("failed", "unfinished") if standings[key]]
    out = f" ({' and '.join(left_out)} left out)" if left_out else ""
    return (f"{standings['games']} finished games{out} of {standings['players']} players, setup "
            f"{standings['setup'] or 'mixed'}, seed {standings['seed']}; bots: {lineup}. The figures hold for these "
            f"bots against each other on this setup only. A bot wins a game when one of its seats is among the "
            f"winners ({WINS_COUNTED}); 95% Wilson intervals, the game as the unit. Rating: {RATING}.")


def seat_section(standings: dict) -> None:
    seats = ladder.seat_table(standings)
    st.subheader("Seat effect")
    if seats.empty:
        return
    st.plotly_chart(charts.win_rates(seats, "seat", "Win rate by seat", 1 / standings["players"]))
    p = even_shares(seats["wins"])
    if standings["rotate"]:
        why = "every bot plays every seat equally often, so a difference here is the seat's (turn order, the deal)"
    elif len(standings["bots"]) == 1:
        why = "one bot plays every seat, so a difference here is the seat's (turn order, the deal)"
    else:
        why = "each bot keeps its seat, so a seat's rate is also its bot's"
    st.caption(f"Win rate of each seat over all {standings['games']} games, with 95% Wilson intervals; {why}. "
               f"Chi-square test of equal win shares: {format_p(p)}.")


st.title("League")
catalog = frame.catalog_path()
new_league(catalog)
run = choose_run(catalog)
if run is None:
    st.info("The catalogue has no runs yet: play a league above (or `imperial league`).")
    st.stop()
try:
    result = cache.standings(catalog, run)
except ImperialError as exc:  # e.g. a run folder that has gone since it was registered
    frame.show_error(f"The standings of {frame.code_span(run)} cannot be counted.", exc)
    st.stop()
row = cache.runs(catalog).set_index("name").loc[run]
if not result["games"]:
    st.info(f"Run {run} has no finished game whose bots are known (imported games may not name them).")
    st.stop()
ladder_section(result, lineup_text(row["bots"], row["rotate"]))
seat_section(result)
