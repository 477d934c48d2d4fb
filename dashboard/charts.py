"""Plotly figures: a DataFrame (an answer of dashboard.queries or dashboard.comparison) in, a figure
out. Nothing here reads files or knows Streamlit, so notebooks and tests draw the same charts.

Nations, seats and runs keep the colours of dashboard.style everywhere; every chart has a title,
axis titles and a legend naming what its colours mean.
"""

from __future__ import annotations

import math

import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio
from plotly.subplots import make_subplots

from dashboard.style import NATION_COLOURS, NATION_NAMES, PLAYER_COLOURS, nation_order, player_label, run_colour

GAME_END_PP = 25  # power points that end the game (§10)
CAUSE_SYMBOLS = {"setup": "circle-open", "investor": "diamond"}
HEIGHT = 380
MAX_BINS = 25
# plotly_white for the two trace types drawn here: the whole template (defaults for 24 trace types)
# costs 10 ms a figure to assign and to send, a third of a page's render once its answers are cached.
_WHITE = pio.templates["plotly_white"]
TEMPLATE = go.layout.Template(layout=_WHITE.layout, data={"bar": _WHITE.data.bar, "scatter": _WHITE.data.scatter})


LEGEND_ABOVE = {"orientation": "h", "yanchor": "bottom", "y": 1.02, "x": 0}
LEGEND_RIGHT = {"orientation": "v", "yanchor": "top", "y": 1, "x": 1.02}  # for legends of several groups


def _layout(fig: go.Figure, title: str, x: str, y: str, height: int = HEIGHT, legend: dict = LEGEND_ABOVE) -> go.Figure:
    """The common frame: title, axis titles, the legend, a height that fits a laptop screen."""
    fig.update_layout(title=title, xaxis_title=x, yaxis_title=y, height=height, template=TEMPLATE,
                      legend=legend, margin={"l": 60, "r": 20, "t": 80, "b": 50}, hovermode="x unified")
    return fig


def _nations(frame: pd.DataFrame) -> list[str]:
    """The nations present in ``frame``, in the rulebook's order (RU CN IN BR US EU)."""
    present = set(frame["nation"].astype(str))
    return [code for code in nation_order() if code in present]


# ----- one game -----

def nation_race(race: pd.DataFrame, column: str = "power_points") -> go.Figure:
    """Power points (or ``column``, e.g. treasury) of every nation after each of its turns, as steps."""
    fig = go.Figure()
    for code in _nations(race):
        part = race[race["nation"] == code]
        fig.add_trace(go.Scatter(x=part["turn"], y=part[column], name=code, mode="lines", line_shape="hv",
                                 line={"color": NATION_COLOURS[code], "width": 2},
                                 hovertemplate=f"{NATION_NAMES[code]}: %{{y}}<extra></extra>"))
    if column == "power_points":
        fig.add_hline(y=GAME_END_PP, line_dash="dot", line_color="#555",
                      annotation_text="25: the game ends (§10)", annotation_position="top left")
        return _layout(fig, "Power-point race", "nation turn", "power points")
    return _layout(fig, "Treasuries (at the end of each nation's turn)", "nation turn", "treasury (m)")


def player_series(series: pd.DataFrame, column: str, title: str, y_title: str) -> go.Figure:
    """One line per seat of ``column`` (cash, score) after every nation turn (turn 0: the setup)."""
    fig = go.Figure()
    for seat in sorted(series["player"].unique()):
        part = series[series["player"] == seat]
        fig.add_trace(go.Scatter(x=part["turn"], y=part[column], name=player_label(seat), mode="lines",
                                 line_shape="hv", line={"color": PLAYER_COLOURS[seat], "width": 2}))
    return _layout(fig, title, "nation turn", y_title)


def control_timeline(segments: pd.DataFrame) -> go.Figure:
    """Who governs each nation when: a bar per government, coloured by seat, and a marker at each
    change naming its cause (setup §4 or investor §9) and the former government."""
    fig = go.Figure()
    rows = segments.assign(nation=segments["nation"].astype(str))
    for seat in sorted(rows["government"].unique()):
        part = rows[rows["government"] == seat]
        fig.add_trace(go.Bar(y=part["nation"], x=part["end"] - part["start"], base=part["start"], orientation="h",
                             name=player_label(seat), marker_color=PLAYER_COLOURS[seat], legendgroup="seats",
                             customdata=part[["start", "end"]],
                             hovertemplate=f"%{{y}}: {player_label(seat)} governs, turns %{{customdata[0]}}–"
                                           f"%{{customdata[1]}}<extra></extra>"))
    for cause, symbol in CAUSE_SYMBOLS.items():
        part = rows[rows["cause"] == cause]
        if part.empty:
            continue
        text = [_change_text(r) for r in part.itertuples()]
        fig.add_trace(go.Scatter(x=part["start"], y=part["nation"], mode="markers", name=f"change: {cause}",
                                 marker={"symbol": symbol, "size": 10, "color": "black"}, text=text,
                                 hovertemplate="%{text}<extra></extra>", legendgroup="causes"))
    fig.update_layout(barmode="overlay", hovermode="closest")
    fig.update_yaxes(categoryorder="array", categoryarray=list(reversed(_nations(rows))))
    return _layout(fig, "Who governs when (marks: changes of government and their cause)", "nation turn", "",
                   legend=LEGEND_RIGHT)


def _change_text(row) -> str:
    before = "nobody" if pd.isna(row.previous) else player_label(int(row.previous))
    return f"turn {row.start}: {row.nation} from {before} to {player_label(row.government)} ({row.cause})"


def bond_ownership(holdings: pd.DataFrame, end_turn: int) -> go.Figure:
    """Per nation, the credit sum (§9) each seat holds over the game, stacked: the government is the
    seat with the largest band. Snapshots hold until the next one, so the last is carried to ``end_turn``."""
    nations = _nations(holdings) if len(holdings) else nation_order()
    cols = 3
    fig = make_subplots(rows=math.ceil(len(nations) / cols), cols=cols, shared_xaxes=True,
                        subplot_titles=[NATION_NAMES[code] for code in nations], vertical_spacing=0.12)
    for i, code in enumerate(nations):
        part = holdings[holdings["nation"] == code]
        for seat in sorted(holdings["player"].unique()):
            mine = part[part["player"] == seat].sort_values("turn")
            if mine.empty:
                continue
            x = [*mine["turn"], end_turn]
            y = [*mine["credit_sum"], mine["credit_sum"].iloc[-1]]
            fig.add_trace(go.Scatter(x=x, y=y, name=player_label(seat), stackgroup=code, line_shape="hv",
                                     line={"color": PLAYER_COLOURS[seat], "width": 0.5},
                                     fillcolor=PLAYER_COLOURS[seat], legendgroup=str(seat), showlegend=i == 0),
                          row=i // cols + 1, col=i % cols + 1)
    fig.update_yaxes(title_text="credit sum (m)", col=1)
    fig.update_xaxes(title_text="nation turn", row=math.ceil(len(nations) / cols))
    return _layout(fig, "Bond ownership: credit sum held per nation", "", "", height=520, legend=LEGEND_RIGHT)


# ----- a whole run -----

def counts_bar(counts: pd.DataFrame, x: str, y: str, title: str, x_title: str, y_title: str = "games") -> go.Figure:
    """A plain bar per value (e.g. game lengths, changes per game) in one neutral colour."""
    fig = go.Figure(go.Bar(x=counts[x], y=counts[y], marker_color=PLAYER_COLOURS[0], name=y_title))
    fig.update_layout(showlegend=False)
    return _layout(fig, title, x_title, y_title)


def ended_by(counts: pd.DataFrame) -> go.Figure:
    """How many games each nation ended (by reaching 25 power points), in nation colours."""
    nations = [str(code) for code in counts["nation"]]
    fig = go.Figure(go.Bar(x=nations, y=counts["games"], marker_color=[NATION_COLOURS[c] for c in nations],
                           text=counts["games"], textposition="outside"))
    fig.update_layout(showlegend=False)
    return _layout(fig, "Which nation ends the game", "nation", "games")


def change_rounds(changes: pd.DataFrame) -> go.Figure:
    """When governments change: changes per round, stacked by nation."""
    fig = go.Figure()
    for code in _nations(changes):
        part = changes[changes["nation"] == code]
        fig.add_trace(go.Bar(x=part["round"], y=part["changes"], name=code, marker_color=NATION_COLOURS[code]))
    fig.update_layout(barmode="stack", legend_traceorder="normal")  # nations in the rulebook's order
    return _layout(fig, "When governments change (investor checks, §9)", "round", "changes")


# ----- comparing runs -----

KEY_TITLES = {"seat": "seat", "nation": "nation governed at the start", "bot": "bot"}


def win_rates(rates: pd.DataFrame, key: str, title: str, expected: float | None = None) -> go.Figure:
    """Grouped bars of win rates with their 95% intervals, one colour per run; ``key`` is the category
    column ("seat", "nation" or "bot", in the order given); ``expected`` draws the rate of a fair game
    (1 / players)."""
    fig = go.Figure()
    for i, run in enumerate(rates["run"].drop_duplicates()):
        part = rates[rates["run"] == run]
        labels = [player_label(s) if key == "seat" else str(s) for s in part[key]]
        fig.add_trace(go.Bar(x=labels, y=part["rate"], name=str(run), marker_color=run_colour(i),
                             error_y={"type": "data", "array": part["high"] - part["rate"],
                                      "arrayminus": part["rate"] - part["low"]},
                             customdata=part[["wins", "games"]],
                             hovertemplate=f"{run}: %{{y:.0%}} (%{{customdata[0]}} of %{{customdata[1]}})"
                                           f"<extra></extra>"))
    if expected is not None:
        # The label sits on the bars of the last seat: a white ground keeps it readable.
        fig.add_hline(y=expected, line_dash="dot", line_color="#555", annotation_text=f"fair share {expected:.0%}",
                      annotation_bgcolor="rgba(255,255,255,0.85)")
    fig.update_layout(barmode="group", hovermode="closest")
    if key == "nation":  # the rulebook's order, as everywhere else (the query sorts them by name)
        fig.update_xaxes(categoryorder="array", categoryarray=nation_order())
    fig.update_yaxes(tickformat=".0%", rangemode="tozero")
    return _layout(fig, title, KEY_TITLES[key], "win rate (95% CI)")


def distributions(frequencies: pd.DataFrame, title: str, x_title: str) -> go.Figure:
    """Share of games (or seats) per value for each run, one line per run; wide value ranges are
    binned into at most MAX_BINS bins so small samples stay readable."""
    frame = frequencies.copy()
    width = _bin_width(frame["value"])
    frame["value"] = frame["value"] // width * width
    frame = frame.groupby(["run", "value"], as_index=False, sort=True)["n"].sum()
    fig = go.Figure()
    for i, run in enumerate(frame["run"].drop_duplicates()):
        part = frame[frame["run"] == run]
        share = part["n"] / part["n"].sum()
        fig.add_trace(go.Scatter(x=part["value"], y=share, name=str(run), mode="lines+markers",
                                 line={"color": run_colour(i), "width": 2}, marker={"size": 5},
                                 hovertemplate=f"{run}: %{{y:.1%}}<extra></extra>"))
    fig.update_yaxes(tickformat=".0%", rangemode="tozero")
    suffix = f" (bins of {width})" if width > 1 else ""
    return _layout(fig, title, x_title + suffix, "share")


def _bin_width(values: pd.Series) -> int:
    if values.empty:
        return 1
    return max(1, math.ceil((values.max() - values.min() + 1) / MAX_BINS))

