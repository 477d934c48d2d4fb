"""Imperial 2030's Plotly figures (one game, and a run's nations and governments): a DataFrame (an
answer of ``queries``) in, a figure out, in the frame of the shared charts (dashboard/charts.py).
Nothing here reads files or knows Streamlit, so notebooks and tests draw the same charts; nations and
seats keep their colours (``colours``, dashboard/style.py) everywhere.
"""

from __future__ import annotations

import math

import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from imperial_lab.dashboard.games.imperial2030.colours import NATION_COLOURS, NATION_NAMES, nation_order
from imperial_lab.dashboard.charts import layout
from imperial_lab.dashboard.charts import win_chances as shared_win_chances
from imperial_lab.dashboard.style import PLAYER_COLOURS, player_label

GAME_END_PP = 25  # power points that end the game (§10)
CAUSE_SYMBOLS = {"setup": "circle-open", "investor": "diamond"}


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
        return layout(fig, "Power-point race", "nation turn", "power points")
    return layout(fig, "Treasuries (at the end of each nation's turn)", "nation turn", "treasury (m)")


def player_series(series: pd.DataFrame, column: str, title: str, y_title: str) -> go.Figure:
    """One line per seat of ``column`` (cash, score) after every nation turn (turn 0: the setup)."""
    fig = go.Figure()
    for seat in sorted(series["player"].unique()):
        part = series[series["player"] == seat]
        fig.add_trace(go.Scatter(x=part["turn"], y=part[column], name=player_label(seat), mode="lines",
                                 line_shape="hv", line={"color": PLAYER_COLOURS[seat], "width": 2}))
    return layout(fig, title, "nation turn", y_title)


def win_chances(chances: list, labels: list[str], current: int, big: list[int]) -> go.Figure:
    """Each seat's chance to win after every nation turn (``chances[t]``: a list per seat, or None
    where the analysis does not reach; ``labels[t]`` names turn t): the shared chart
    (imperial_lab.dashboard.charts.win_chances), the shown turn ``current`` a dotted line and each
    ``big`` swing a diamond."""
    return shared_win_chances(chances, labels, current, big, "nation turn",
                              title="Each player's chance to win (the learned evaluator; click a turn to go there)")


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
    return layout(fig, "Who governs when (marks: changes of government and their cause)", "nation turn", "")


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
    layout(fig, "Bond ownership: credit sum held per nation", "", "", height=560)
    fig.update_layout(margin={"t": 75})  # the nations' names between the title and the panels
    return fig


# ----- a whole run -----

def counts_bar(counts: pd.DataFrame, x: str, y: str, title: str, x_title: str, y_title: str = "games") -> go.Figure:
    """A plain bar per value (e.g. game lengths, changes per game) in one neutral colour."""
    fig = go.Figure(go.Bar(x=counts[x], y=counts[y], marker_color=PLAYER_COLOURS[0], name=y_title))
    fig.update_layout(showlegend=False)
    return layout(fig, title, x_title, y_title)


def ended_by(counts: pd.DataFrame) -> go.Figure:
    """How many games each nation ended (by reaching 25 power points), in nation colours."""
    nations = [str(code) for code in counts["nation"]]
    fig = go.Figure(go.Bar(x=nations, y=counts["games"], marker_color=[NATION_COLOURS[c] for c in nations],
                           text=counts["games"], textposition="outside"))
    fig.update_layout(showlegend=False)
    return layout(fig, "Which nation ends the game", "nation", "games")


def change_rounds(changes: pd.DataFrame, games: int) -> go.Figure:
    """When governments change (investor checks, §9): a nation per row, a round per column, each cell
    the changes per 100 of the run's ``games`` finished games, written in the cell; a blank cell: none."""
    nations = _nations(changes) or nation_order()
    rounds = list(range(1, int(changes["round"].max()) + 1)) if len(changes) else [1]
    table = changes.pivot_table(index="nation", columns="round", values="changes", aggfunc="sum", observed=True)
    table = table.reindex(index=nations, columns=rounds) * 100 / max(games, 1)
    text = table.map(lambda v: "" if pd.isna(v) else f"{v:.0f}")
    fig = go.Figure(go.Heatmap(
        z=table.values, x=[str(r) for r in rounds], y=[NATION_NAMES[c] for c in nations], text=text.values,
        texttemplate="%{text}", colorscale="Blues", xgap=2, ygap=2, hoverongaps=False,
        colorbar={"title": {"text": "per 100<br>games"}, "thickness": 12},
        hovertemplate="%{y}, round %{x}: %{z:.1f} changes per 100 games<extra></extra>"))
    fig.update_yaxes(autorange="reversed")  # the rulebook's order from the top
    fig.update_xaxes(type="category")
    layout(fig, "When governments change: changes per 100 games (§9)", "round", "")
    fig.update_layout(hovermode="closest")
    return fig
