"""Nations and bonds of a position document: the figures of a nation card, the players × nations
table of credit sums (§9) and that table as a heatmap in HTML (each cell shaded by its credit sum,
the bond numbers written in it, the governments starred), large enough to read beside the board.
Pure functions, no Streamlit.
"""

from __future__ import annotations

import html

import pandas as pd

from imperial_lab.core.games.imperial2030.data import NATIONS, load_board
from imperial_lab.dashboard.games.imperial2030.colours import NATION_COLOURS, NATION_NAMES
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


def bonds_html(position: dict) -> str:
    """The credit sums as an HTML heatmap: a row per player (with cash and Swiss bank, the other half
    of an investor's position), a column per nation; each cell shaded by its credit sum, with the sum
    and the bond numbers, the government's cell starred. Every cell says it all on hover too."""
    sums, held = credit_sums(position), bonds_held(position)
    top = max(int(sums.values.max()), 1)
    head = "".join(f'<th style="border-bottom:3px solid {NATION_COLOURS[c]}">{NATION_NAMES[c]}</th>' for c in NATIONS)
    rows = []
    for p, player in enumerate(position["players"]):
        cells = []
        for i, code in enumerate(NATIONS):
            credit, numbers = int(sums.iat[p, i]), held.get((p, code))
            governs = position["nations"][code]["government"] == p
            shade = f"rgba(31,119,180,{0.12 + 0.6 * credit / top:.2f})" if numbers else "transparent"
            ink = "#fff" if numbers and credit / top > 0.6 else "#222"
            text = _cell(numbers, credit, governs)
            tip = html.escape(_cell_hover(p, code, numbers, credit, governs).replace("<br>", "; "))
            cells.append(f'<td title="{tip}" data-governs="{int(governs)}" style="background:{shade};color:{ink}">'
                         f'{text}</td>')
        rows.append(f"<tr><th>{html.escape(_row_label(p, player))}</th>{''.join(cells)}</tr>")
    return (f'<table class="bonds-table"><thead><tr><th></th>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'
            f"{BONDS_CSS}")


BONDS_CSS = ("<style>.bonds-table{border-collapse:separate;border-spacing:3px;width:100%;font-size:0.9rem}"
             ".bonds-table th{font-weight:600;text-align:center;padding:2px 4px;white-space:nowrap}"
             ".bonds-table tbody th{text-align:left}"
             ".bonds-table td{text-align:center;padding:4px 2px;border-radius:4px;line-height:1.25}</style>")


def _row_label(p: int, player: dict) -> str:
    swiss = " · Swiss bank" if player.get("swiss_bank") else ""
    return f"{player_label(p)} · {player['cash']}m{swiss}"


def _cell(numbers: list[int] | None, credit: int, governs: bool) -> str:
    if not numbers:
        return ""
    return f"{GOVERNS + ' ' if governs else ''}<b>{credit}m</b><br>no. {', '.join(map(str, numbers))}"


def _cell_hover(p: int, code: str, numbers: list[int] | None, credit: int, governs: bool) -> str:
    if not numbers:
        return f"{player_label(p)} holds no bond of {NATION_NAMES[code]}"
    role = f"<br>{player_label(p)} governs {NATION_NAMES[code]}" if governs else ""
    return (f"{player_label(p)} holds {NATION_NAMES[code]} bonds no. {', '.join(map(str, numbers))}<br>"
            f"credit sum {credit}m, interest {sum(numbers)}m per investor payment{role}")
