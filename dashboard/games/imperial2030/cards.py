"""Nation cards, a page part shared by the explorer and the Play page (Streamlit)."""

from __future__ import annotations

import html

import streamlit as st

from imperial_lab.dashboard.games.imperial2030.colours import NATION_COLOURS
from imperial_lab.dashboard.games.imperial2030.nationview import nation_summaries
from imperial_lab.core.words import count
from imperial_lab.dashboard.style import player_label

# One element for all the cards (a grid), not a column and a container per card: the explorer
# redraws them at every step, and every element costs the browser a little.
GRID = ("display:grid;grid-template-columns:repeat({per_row},minmax(0,1fr));gap:0.6rem;"
        "font-size:0.9rem;line-height:1.45")
CARD = "border:1px solid rgba(49,51,63,0.2);border-radius:0.5rem;padding:0.5rem 0.7rem"


def nation_cards(position: dict, active: str | None, per_row: int = 6) -> None:
    """One card per nation, ``per_row`` to a row: government, treasury, power (§10), rondel space,
    flags, units, factories; the active nation marked ◀."""
    cards = "".join(f'<div style="{CARD}">{_card(n, active)}</div>' for n in nation_summaries(position))
    st.markdown(f'<div style="{GRID.format(per_row=per_row)}">{cards}</div>', unsafe_allow_html=True)


def _card(n: dict, active: str | None) -> str:
    turn = " ◀" if n["nation"] == active else ""
    gov = f"{player_label(n['government'])} governs" if n["government"] is not None else "no government"
    occupied = f", {n['occupied']} occupied" if n["occupied"] else ""
    lines = [f"<span style='color:{NATION_COLOURS[n['nation']]}'>■</span> <b>{html.escape(n['name'])}</b>{turn}",
             gov, f"treasury {n['treasury']}m", f"{n['power_points']} PP, factor {n['power_factor']}",
             f"rondel: {n['rondel'] or 'not yet'}", count(n["flags"], "flag"),
             f"{count(n['armies'], 'army')}, {count(n['fleets'], 'fleet')}",
             f"{count(n['factories'], 'factory')}{occupied}"]
    return "<br>".join(lines)

