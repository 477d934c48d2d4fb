"""The structure of a setup in view (imperial_lab.core.games.imperial2030.structure): a table of the seats, a table of the
governments with each seat's cheapest takeover, and one line naming the weak points.

Tables stay narrow (short labels, short cells, one column per seat) so that every column shows at a
laptop's 1366 px beside the sidebar.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from imperial_lab.core.errors import ImperialError
from imperial_lab.dashboard.games.imperial2030.colours import NATION_NAMES
from imperial_lab.core.games.imperial2030.structure import setup_structure, weak_points
from imperial_lab.dashboard.frame import show_error
from imperial_lab.dashboard.style import player_label

CAPTION = ("Cash as the setup leaves it; in the first investor round the investor-card holder has 2m more "
           "(§7.5). Interest and taxes before that round are not counted.")


def show_structure(setup: str, setups_dir=None) -> None:
    """Seats, governments and weak points of ``setup``; a preset dealt by chance says why it has none."""
    try:
        structure = setup_structure(setup, setups_dir)
    except ImperialError as exc:  # a hand-edited file may not load: say why instead of a traceback
        show_error(f"The structure of {setup} cannot be shown.", exc)
        return
    if structure["random"]:
        st.info(f"{setup} has no fixed structure: {structure['why']}.")
        return
    st.markdown(summary_line(structure))
    st.dataframe(seats_table(structure), hide_index=True, column_config={
        "Bonds": st.column_config.TextColumn("Bonds", width="large", help="number (cost) of every bond held")})
    st.dataframe(governments_table(structure), hide_index=True, column_config={
        "On": st.column_config.TextColumn("On", help="the government's credit sum in the nation"),
        "1st round": st.column_config.TextColumn(
            "1st round", help="first investors (card holder, Swiss banks) whose cash pays their takeover"),
        **{letter(p): st.column_config.TextColumn(
            letter(p), help=f"the cheapest single purchase or upgrade that makes {player_label(p)} the government "
                            "(§9: a tie leaves the government in place)")
           for p in range(structure["players"])}})
    opens = structure["opens"]
    st.caption(f"{NATION_NAMES[opens['nation']]} ({player_label(opens['government'])}) opens; the investor card is "
               f"with {player_label(structure['investor_card'])}. {CAPTION}")


def letter(p: int) -> str:
    """A seat's column label: "A" for Player A, short enough for six of them side by side."""
    return player_label(p).split()[-1]


def summary_line(structure: dict) -> str:
    weak = weak_points(structure, NATION_NAMES)
    if not weak:
        return "**Weak points:** no government can be taken over in the first investor round."
    return "**Weak points:** " + "; ".join(weak) + "."


def seats_table(structure: dict) -> pd.DataFrame:
    return pd.DataFrame([{
        "Seat": seat["name"],
        "Cash": f"{seat['cash']}m",
        "Bonds": ", ".join(f"{b['nation']} {b['number']} ({b['cost']}m)" for b in seat["bonds"]),
        "Governs": ", ".join(seat["governs"]) or "–",
        "Swiss bank": "yes" if seat["swiss_bank"] else "",
    } for seat in structure["seats"]])


def governments_table(structure: dict) -> pd.DataFrame:
    rows = []
    for gov in structure["governments"]:
        row = {"Nation": gov["nation"], "Gov": player_label(gov["government"]), "On": f"{gov['credit']}m"}
        by_seat = {t["seat"]: t for t in gov["takeovers"]}
        for p in range(structure["players"]):
            row[letter(p)] = "governs" if p == gov["government"] else takeover_cell(by_seat[p], gov["nation"])
        row["1st round"] = ", ".join(player_label(p) for p in gov["affordable_first_round"]) or "–"
        rows.append(row)
    return pd.DataFrame(rows)


def takeover_cell(takeover: dict, nation: str) -> str:
    """ "4m upgrade 1→3": the price, then the engine's action text without the nation (the row says it)."""
    if takeover["action"] is None:
        return "none"
    action = takeover["action"].replace(f" {nation} ", " ").replace(" -> ", "→")
    return f"{takeover['price']}m {action}"
