"""Nations and bonds of a position document: the figures of a nation card, the players × nations
table of credit sums (§9) and its heatmap with the governments marked. Pure functions, no Streamlit.
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from imperial_lab.core.games.imperial2030.data import NATIONS, load_board
from imperial_lab.dashboard.games.imperial2030.colours import NATION_NAMES
from imperial_lab.core.games.imperial2030.words import SPACE_NAMES
from imperial_lab.dashboard.style import player_label

GOVERNS = "★"  # marks the government's cell


def nation_summaries(position: dict) -> list[dict]:
    """Per nation in turn order: government (seat or None), treasury, power points and factor (§10),
    rondel space, flags, armies, fleets, factories and how many of those are occupied (§7.4.5)."""
    hostile = {u["region"] for u in position.get("units", []) if u.get("stance") == "hostile"}
    rows = []
    for code in NATIONS:
        n = position["nations"][code]
        units = [u for u in position.get("units", []) if u["nation"] == code]
        rows.append({
            "nation": code, "name": NATION_NAMES[code], "government": n["government"],
            "treasury": n["treasury"], "power_points": n["power_points"], "power_factor": n["power_points"] // 5,
            "rondel": SPACE_NAMES[n["rondel"]] if n["rondel"] else None, "flags": len(n["flags"]),
            "armies": sum(u["count"] for u in units if u["unit"] == "army"),
            "fleets": sum(u["count"] for u in units if u["unit"] == "fleet"),
            "factories": len(n["factories"]), "occupied": len(set(n["factories"]) & hostile),
        })
    return rows


def bonds_held(position: dict) -> dict[tuple[int, str], list[int]]:
    """(seat, nation code) -> the numbers of that player's bonds of that nation, ascending."""
    held: dict[tuple[int, str], list[int]] = {}
    for p, player in enumerate(position["players"]):
        for bond in player["bonds"]:  # "RU 4", as to_json writes them
            code, number = bond.split()
            held.setdefault((p, code), []).append(int(number))
    return {key: sorted(numbers) for key, numbers in held.items()}


def credit_sums(position: dict) -> pd.DataFrame:
    """Players (rows, "Player A"…) × nations (columns, codes): the cost of the bonds held (§9)."""
    cost = load_board().bond_cost
    sums = pd.DataFrame(0, index=[player_label(p) for p in range(len(position["players"]))], columns=list(NATIONS))
    for (p, code), numbers in bonds_held(position).items():
        sums.loc[player_label(p), code] = sum(cost[k - 1] for k in numbers)
    return sums


def bonds_figure(position: dict, height: int = 300) -> go.Figure:
    """The credit sums as a heatmap; each cell lists the bond numbers, the government's cell has a ★.

    Row labels give each player's cash and Swiss bank, the other half of an investor's position.
    """
    sums, held = credit_sums(position), bonds_held(position)
    govs = {code: position["nations"][code]["government"] for code in NATIONS}
    text, hover = [], []
    for p in range(len(sums)):
        text.append([_cell(held.get((p, code)), sums.iat[p, i], govs[code] == p) for i, code in enumerate(NATIONS)])
        hover.append([_cell_hover(p, code, held.get((p, code)), sums.iat[p, i], govs[code] == p)
                      for i, code in enumerate(NATIONS)])
    rows = [_row_label(p, player) for p, player in enumerate(position["players"])]
    fig = go.Figure(go.Heatmap(
        z=sums.where(sums > 0).values, x=[NATION_NAMES[c] for c in NATIONS], y=rows, text=text,
        texttemplate="%{text}", hovertext=hover, hoverinfo="text", colorscale="Blues", xgap=2, ygap=2,
        colorbar=dict(title=dict(text="credit<br>sum (m)"), thickness=12)))
    fig.update_layout(height=height, margin=dict(l=10, r=10, t=10, b=10), paper_bgcolor="rgba(0,0,0,0)",
                      yaxis=dict(autorange="reversed"), xaxis=dict(side="top"))
    return fig


def _row_label(p: int, player: dict) -> str:
    swiss = " · Swiss bank" if player.get("swiss_bank") else ""
    return f"{player_label(p)} · {player['cash']}m{swiss}"


def _cell(numbers: list[int] | None, credit: int, governs: bool) -> str:
    if not numbers:
        return ""
    return f"{GOVERNS + ' ' if governs else ''}{credit}m<br>no. {', '.join(map(str, numbers))}"


def _cell_hover(p: int, code: str, numbers: list[int] | None, credit: int, governs: bool) -> str:
    if not numbers:
        return f"{player_label(p)} holds no bond of {NATION_NAMES[code]}"
    role = f"<br>{player_label(p)} governs {NATION_NAMES[code]}" if governs else ""
    return (f"{player_label(p)} holds {NATION_NAMES[code]} bonds no. {', '.join(map(str, numbers))}<br>"
            f"credit sum {credit}m, interest {sum(numbers)}m per investor payment{role}")
