"""Plotly figures of every game: a DataFrame (a table of imperial_lab.core.compare or imperial_lab.core.league) in, a figure out,
and the frame every chart shares (``layout``; a game's own charts, such as Imperial 2030's, use it).
Nothing here reads files or knows Streamlit, so notebooks and tests draw the same charts.

Seats, runs and line-ups keep the colours of imperial_lab.dashboard.style everywhere; every chart has a
title, axis titles and a legend naming what its colours mean. The legend sits below the plot, at the
bottom of the figure (LEGEND_BELOW), never under the title: a legend of several rows grows upwards
into the room Plotly makes for it, never over the title or the axis titles.
"""

from __future__ import annotations

import math
from pathlib import PurePath

import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio
from plotly.subplots import make_subplots

from imperial_lab.dashboard.style import PLAYER_COLOURS, player_label, run_colour

HEIGHT = 380
MAX_BINS = 25
# plotly_white for the two trace types drawn here: the whole template (defaults for 24 trace types)
# costs 10 ms a figure to assign and to send, a third of a page's render once its answers are cached.
_WHITE = pio.templates["plotly_white"]
TEMPLATE = go.layout.Template(layout=_WHITE.layout, data={"bar": _WHITE.data.bar, "scatter": _WHITE.data.scatter})


# At the figure's bottom edge (the container, not the plot area): Plotly widens the bottom margin to
# hold it under the axis title, however many rows it wraps into.
LEGEND_BELOW = {"orientation": "h", "yref": "container", "yanchor": "bottom", "y": 0, "x": 0, "xanchor": "left"}


def layout(fig: go.Figure, title: str, x: str, y: str, height: int = HEIGHT, legend: dict = LEGEND_BELOW) -> go.Figure:
    """The common frame: title, axis titles, the legend below the plot, a height that fits a laptop screen."""
    fig.update_layout(title=title, xaxis_title=x, yaxis_title=y, height=height, template=TEMPLATE,
                      legend=legend, margin={"l": 60, "r": 20, "t": 50, "b": 50}, hovermode="x unified")
    return fig


# ----- one game: each seat's chance to win (imperial_lab.core.analysis) -----

def win_chances(chances: list, labels: list[str], current: int | None, big: list[int], step: str,
                title: str | None = None, names: list[str] | None = None, colours: list[str] | None = None) -> go.Figure:
    """Each seat's chance to win at every step of one game (``chances[k]``: a list per seat, or None
    where the analysis does not reach; ``labels[k]`` names step k in the hover; ``step`` what a step
    is, for the axis: "nation turn", "placement turn"): a line per seat (``names`` and ``colours``: the
    game's, else Player A… in the seats' colours), the shown step ``current`` a dotted line (none:
    no line), and each ``big`` swing a diamond on the line of the seat it moved most. A click selects
    a point (its x: the step)."""
    steps = [k for k, row in enumerate(chances) if row is not None]
    seats = len(chances[steps[0]]) if steps else 0
    names = names or [player_label(seat) for seat in range(seats)]
    colours = colours or [PLAYER_COLOURS[seat % len(PLAYER_COLOURS)] for seat in range(seats)]
    fig = go.Figure()
    for seat in range(seats):
        # markers, however small: Plotly selects (a click's event) only points drawn as markers
        fig.add_trace(go.Scatter(x=steps, y=[chances[k][seat] for k in steps], name=names[seat],
                                 mode="lines+markers", marker={"size": 3},
                                 line={"color": colours[seat], "width": 2},
                                 customdata=[labels[k] for k in steps],
                                 hovertemplate=f"{names[seat]}: %{{y:.0%}}<extra>%{{customdata}}</extra>"))
    marks = [(k, _most_moved(chances[k - 1], chances[k])) for k in big
             if 0 < k < len(chances) and chances[k] is not None and chances[k - 1] is not None]
    if marks:
        fig.add_trace(go.Scatter(x=[k for k, _ in marks], y=[chances[k][seat] for k, seat in marks], mode="markers",
                                 name="big swing", marker={"symbol": "diamond", "size": 10, "color": "#333"},
                                 customdata=[labels[k] for k, _ in marks],
                                 hovertemplate="big swing<extra>%{customdata}</extra>"))
    if current is not None:
        fig.add_vline(x=current, line_dash="dot", line_color="#555")
    fig.update_yaxes(tickformat=".0%", range=[0, 1])
    fig.update_layout(hovermode="closest", clickmode="event+select")
    return layout(fig, title or f"Each player's chance to win (the learned evaluator; click a {step} to go there)",
                  step, "chance to win", height=300)


def _most_moved(before: list[float], after: list[float]) -> int:
    return max(range(len(after)), key=lambda seat: abs(after[seat] - before[seat]))


# ----- comparing runs: imperial_lab.core.compare's tables -----

KEY_TITLES = {"seat": "seat", "bot": "bot"}


def setup_label(setup) -> str:
    """A setup as charts name it: a file's name without its folder (a setup played from a folder other
    than data/setups is labelled by its path)."""
    text = str(setup)
    return PurePath(text).stem if text.endswith(".json") else text


def colours(groups) -> dict:
    """A colour per group (run, line-up, cell), in the order given: pass a comparison's line-ups to keep
    each line-up's colour across charts that show only some of them."""
    return {group: run_colour(i) for i, group in enumerate(dict.fromkeys(groups))}


def win_rates(rates: pd.DataFrame, key: str, title: str, expected: float | None = None, group: str = "run",
              n: str = "games", fair: str | None = None, order=None, key_title: str | None = None,
              categories: list | None = None) -> go.Figure:
    """Grouped bars of win rates with their 95% intervals, one colour per ``group`` value (a run, a
    line-up, a cell; ``order`` fixes their colours); ``key`` is the category column ("seat", "bot", or
    a game's own, such as Imperial 2030's "nation", named by ``key_title``), in the order given or in
    ``categories``' order, ``n`` the column of games. ``expected`` draws the rate of a fair game
    (1 / players) as a line; ``fair`` names a column of each bar's own fair rate, drawn as a marker."""
    fig = go.Figure()
    palette = colours(order if order is not None else rates[group])
    for i, name in enumerate(g for g in palette if g in set(rates[group])):
        part = rates[rates[group] == name]
        labels = [player_label(s) if key == "seat" else str(s) for s in part[key]]
        fig.add_trace(go.Bar(x=labels, y=part["rate"], name=str(name), marker_color=palette[name], offsetgroup=str(name),
                             error_y={"type": "data", "array": part["high"] - part["rate"],
                                      "arrayminus": part["rate"] - part["low"]},
                             customdata=part[["wins", n]],
                             hovertemplate=f"{name}: %{{y:.0%}} (%{{customdata[0]}} of %{{customdata[1]}} games)"
                                           f"<extra></extra>"))
        if fair is not None:
            fig.add_trace(go.Scatter(x=labels, y=part[fair], mode="markers", name="fair share", offsetgroup=str(name),
                                     marker={"symbol": "diamond-open", "size": 11, "color": "#333",
                                             "line": {"width": 2}},
                                     legendgroup="fair", showlegend=i == 0,
                                     hovertemplate="fair share %{y:.0%}<extra></extra>"))
    if expected is not None:
        fair_line(fig, expected)
    fig.update_layout(barmode="group", scattermode="group", hovermode="closest")
    if categories is not None:  # a game's own order (the query sorts them by name)
        fig.update_xaxes(categoryorder="array", categoryarray=list(categories))
    fig.update_yaxes(tickformat=".0%", rangemode="tozero")
    return layout(fig, title, key_title or KEY_TITLES[key], "win rate (95% CI)")


def fair_line(fig: go.Figure, rate: float, legend: bool = True, **where) -> None:
    """The win rate of a fair game as a dotted line, named in the legend (a label on the plot would
    sit on a bar); ``where``: a subplot's ``row`` and ``col``."""
    fig.add_hline(y=rate, line_dash="dot", line_color="#555", **where)
    if legend:
        fig.add_trace(go.Scatter(x=[None], y=[None], mode="lines", name=f"fair share {rate:.0%}",
                                 line={"dash": "dot", "color": "#555"}, hoverinfo="skip"))


def _seat_panels(seats: pd.DataFrame, column: str, low: str, high: str, title: str, y_title: str, lineups=None,
                 rate: bool = True) -> go.Figure:
    """A panel per setup, seats along x, a bar per line-up (colour) with its interval."""
    setups = list(dict.fromkeys(seats["setup"]))
    palette = colours(lineups if lineups is not None else sorted(seats["lineup"].unique()))
    fig = make_subplots(rows=1, cols=max(1, len(setups)), shared_yaxes=True, horizontal_spacing=0.03,
                        subplot_titles=[setup_label(s) for s in setups])
    shown = set()
    for col, setup in enumerate(setups, start=1):
        mine = seats[seats["setup"] == setup]
        for lineup in [name for name in palette if name in set(mine["lineup"])]:
            part = mine[mine["lineup"] == lineup].sort_values("seat")
            value = "%{y:.0%}" if rate else "%{y:+.1f} points"
            fig.add_trace(go.Bar(x=[player_label(s) for s in part["seat"]], y=part[column], name=str(lineup),
                                 marker_color=palette[lineup], legendgroup=str(lineup), showlegend=lineup not in shown,
                                 error_y={"type": "data", "array": part[high] - part[column],
                                          "arrayminus": part[column] - part[low]},
                                 customdata=part[["n"]],
                                 hovertemplate=f"{setup_label(setup)}, {lineup}: {value} (n = %{{customdata[0]}} "
                                               f"games)<extra></extra>"),
                          row=1, col=col)
            shown.add(lineup)
        if rate and len(mine):
            fair_line(fig, 1 / (int(mine["seat"].max()) + 1), legend=col == len(setups), row=1, col=col)
    if not rate:
        fig.add_hline(y=0, line_color="#555", line_width=1)
    fig.update_layout(barmode="group", hovermode="closest")
    fig.update_yaxes(tickformat=".0%" if rate else "+.0f", rangemode="tozero" if rate else "normal")
    fig.update_yaxes(title_text=y_title, col=1)
    fig.update_xaxes(title_text="seat")
    layout(fig, title, "seat", y_title)
    fig.update_layout(margin={"t": 75})  # the setups' names between the title and the panels
    return fig


def cell_win_rates(seats: pd.DataFrame, lineups=None) -> go.Figure:
    """imperial_lab.core.compare's ``seats``: each seat's win rate with its 95% Wilson interval, a panel per setup and
    a colour per line-up (``lineups`` fixes their colours)."""
    return _seat_panels(seats, "rate", "low", "high", "Win rate by seat, per setup and line-up",
                        "win rate (95% CI)", lineups)


def seat_scores(seats: pd.DataFrame, lineups=None) -> go.Figure:
    """imperial_lab.core.compare's ``seats``: each seat's mean score minus its game's mean (its score advantage) with
    the 95% t interval, a panel per setup and a colour per line-up."""
    return _seat_panels(seats, "score", "score_low", "score_high", "Score advantage by seat (score − the game's mean)",
                        "points (95% CI)", lineups, rate=False)


def seat_ladder(seats: pd.DataFrame, lineups, margin: float, names: dict | None = None,
                sides: list[str] | None = None) -> go.Figure:
    """imperial_lab.core.compare's ``seats`` along the strength ladder: a panel per setup, the line-ups along x in
    the order of ``lineups`` (a comparison's: the ladder's rungs weakest first, then the others), a line
    per seat (``sides`` names them) with its interval, the fair share dotted and the band of ± ``margin``
    around it. ``names`` gives a line-up's label on the axis."""
    setups = list(dict.fromkeys(sorted(seats["setup"])))
    names = names or {}
    fig = make_subplots(rows=1, cols=max(1, len(setups)), shared_yaxes=True, horizontal_spacing=0.04,
                        subplot_titles=[setup_label(s) for s in setups])
    for col, setup in enumerate(setups, start=1):
        mine = seats[seats["setup"] == setup]
        order = [lineup for lineup in lineups if lineup in set(mine["lineup"])]
        players = int(mine["seat"].max()) + 1
        par = 1 / players
        fig.add_hrect(y0=par - margin, y1=par + margin, fillcolor="#999", opacity=0.15, line_width=0, row=1, col=col)
        fig.add_hline(y=par, line_dash="dot", line_color="#555", row=1, col=col)
        for seat in range(players):
            part = mine[mine["seat"] == seat].set_index("lineup").loc[order]
            name = sides[seat] if sides else player_label(seat)
            fig.add_trace(go.Scatter(
                x=[names.get(lineup, lineup) for lineup in order], y=part["rate"], mode="lines+markers", name=name,
                legendgroup=name, showlegend=col == 1, line={"color": PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]},
                error_y={"type": "data", "array": part["high"] - part["rate"], "arrayminus": part["rate"] - part["low"],
                         "width": 3},
                customdata=list(zip(part["n"], part["low"], part["high"])),
                hovertemplate=f"{name}: %{{y:.1%}} (%{{customdata[1]:.1%}}–%{{customdata[2]:.1%}}), n = "
                              "%{customdata[0]} games<extra></extra>"), row=1, col=col)
    fig.update_yaxes(tickformat=".0%", rangemode="tozero")
    layout(fig, "A seat's share of the wins as the players get stronger", "", "share of the wins", height=420)
    fig.update_layout(hovermode="closest", margin={"t": 75})  # the setups' names between the title and the panels
    return fig


def cell_distributions(games: pd.DataFrame, metric: str, title: str, x_title: str, lineups=None) -> go.Figure:
    """imperial_lab.core.compare's ``games``: the share of games per value of ``metric`` (rounds, lead_changes,
    margin) in each cell, a line per cell: the colour is the line-up's, the dash the setup's. Wide value
    ranges are binned into at most MAX_BINS bins so small samples stay readable."""
    frame = games[["setup", "lineup", metric]].rename(columns={metric: "value"}).dropna()
    width = _bin_width(frame["value"])
    frame["value"] = frame["value"] // width * width
    palette = colours(lineups if lineups is not None else sorted(frame["lineup"].unique()))
    setups = list(dict.fromkeys(sorted(frame["setup"].unique())))
    fig = go.Figure()
    for (setup, lineup), part in frame.groupby(["setup", "lineup"], sort=True, observed=True):
        counts = part["value"].value_counts().sort_index()
        name = f"{setup_label(setup)} · {lineup}"
        fig.add_trace(go.Scatter(x=counts.index, y=counts / counts.sum(), name=name, mode="lines+markers",
                                 line={"color": palette.get(lineup, "#666"), "width": 2,
                                       "dash": DASHES[setups.index(setup) % len(DASHES)]},
                                 marker={"size": 5}, customdata=[len(part)] * len(counts),
                                 hovertemplate=f"{name}: %{{y:.1%}} of %{{customdata}} games<extra></extra>"))
    fig.update_yaxes(tickformat=".0%", rangemode="tozero")
    fig.update_layout(hovermode="closest")
    suffix = f" (bins of {width})" if width > 1 else ""
    return layout(fig, title, x_title + suffix, "share of games")


DASHES = ("solid", "dash", "dot", "dashdot", "longdash")


def _bin_width(values: pd.Series) -> int:
    if values.empty:
        return 1
    return max(1, math.ceil((values.max() - values.min() + 1) / MAX_BINS))
