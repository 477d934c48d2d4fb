"""Nation cards, a page part shared by the explorer and the Play page (Streamlit)."""

from __future__ import annotations

import streamlit as st

from dashboard.nationview import nation_summaries
from dashboard.style import NATION_COLOURS, player_label

PLURALS = {"flag": "flags", "army": "armies", "fleet": "fleets", "factory": "factories"}


def nation_cards(position: dict, active: str | None, per_row: int = 6) -> None:
    """One card per nation, ``per_row`` to a row: government, treasury, power (§10), rondel space,
    flags, units, factories; the active nation marked ◀."""
    rows = nation_summaries(position)
    for start in range(0, len(rows), per_row):
        for col, n in zip(st.columns(per_row), rows[start:start + per_row]):
            with col.container(border=True):
                st.markdown(_card(n, active), unsafe_allow_html=True)


def _card(n: dict, active: str | None) -> str:
    turn = " ◀" if n["nation"] == active else ""
    gov = f"{player_label(n['government'])} governs" if n["government"] is not None else "no government"
    occupied = f", {n['occupied']} occupied" if n["occupied"] else ""
    return (f"<span style='color:{NATION_COLOURS[n['nation']]}'>■</span> **{n['name']}**{turn}  \n"
            f"{gov}  \ntreasury {n['treasury']}m  \n{n['power_points']} PP, factor {n['power_factor']}  \n"
            f"rondel: {n['rondel'] or 'not yet'}  \n{_count(n['flags'], 'flag')}  \n"
            f"{_count(n['armies'], 'army')}, {_count(n['fleets'], 'fleet')}  \n"
            f"{_count(n['factories'], 'factory')}{occupied}")


def _count(count: int, noun: str) -> str:
    return f"{count} {noun if count == 1 else PLURALS[noun]}"
