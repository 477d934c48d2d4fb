"""Imperial 2030's board and rondel to click, at a decision of a person (the Play page, the lessons):
click a unit, then a region, to move it; click a region to build, import or place a flag there; click
a rondel space to go there. Where a click may go is ringed in green. A click that fits one legal
action plays it; one that fits several (an army's stance, a convoy's route) offers them as buttons;
one that asks for an action the rules refuse says why not.

What a click means is imperial_lab.dashboard.games.imperial2030.boardclicks' (plain functions); this
module draws (imperial_lab.dashboard.clickable) and keeps the pick and the last answer in
``st.session_state`` under the page's ``prefix``, tied to ``token`` (the position they belong to:
another position forgets them).
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Callable

import streamlit as st

from imperial_lab.core.games.imperial2030.action_words import choice_words
from imperial_lab.core.games.imperial2030.words import region
from imperial_lab.dashboard.clickable import clickable_svg
from imperial_lab.dashboard.games.imperial2030 import boardclicks
from imperial_lab.dashboard.games.imperial2030.boardview import BOARD_CSS, LEGEND, Marks, board_svg
from imperial_lab.dashboard.games.imperial2030.rondelview import rondel_svg
from imperial_lab.core.games.imperial2030.rules_text import link_sections
from imperial_lab.dashboard.playkit import md

HOW = ("Click a unit of the nation to move, then the region it goes to; click a region to build, import or "
       "place a flag there; click a rondel space to go there. Green: where a click may go.")


@dataclass(frozen=True)
class Decision:
    """A person's decision as the board sees it: ``legal`` (its legal actions' text forms), ``kind``
    (``maneuver``, ``factory``…), ``active`` (the nation whose turn it is), ``token`` (the position:
    a pick or an answer of another one is forgotten), ``choose(text)`` (plays a legal action, or
    answers a lesson with it) and ``why(text)`` (the page's answer to an illegal one: a sentence shown
    under the board, or None when the page tells it elsewhere)."""

    legal: list[str]
    kind: str
    active: str | None
    token: object
    choose: Callable[[str], None]
    why: Callable[[str], str | None]


def _state(prefix: str, token) -> dict:
    """The pick and the answer kept for ``token`` (a fresh record for another position)."""
    kept = st.session_state.get(f"{prefix}_clicks")
    if not kept or kept["token"] != token:
        kept = st.session_state[f"{prefix}_clicks"] = {"token": token, "picked": None, "answer": None}
    return kept


def board(position: dict, prefix: str, decision: Decision | None, changes=None, view: str = "World") -> None:
    """The board at ``position``; with a ``decision``, clickable and its targets ringed."""
    if decision is None:
        clickable_svg(BOARD_CSS + board_svg(position, changes, view), key=f"{prefix}_board", on_click=_ignore)
        st.caption(link_sections(LEGEND))
        return
    kept = _state(prefix, decision.token)
    regions, _ = boardclicks.targets(decision.legal, kept["picked"])
    picked = kept["picked"].split(":")[1] if kept["picked"] else None
    svg = BOARD_CSS + board_svg(position, changes, view, Marks(regions, picked))
    clickable_svg(svg, key=f"{prefix}_board", on_click=lambda value: _clicked(prefix, decision, value))
    st.caption(link_sections(LEGEND))


def rondel(position: dict, prefix: str, decision: Decision | None) -> None:
    """The rondel; with a ``decision``, its spaces clickable and those the nation may reach ringed."""
    active = position["turn"]["nation"]
    if decision is None:
        st.markdown(rondel_svg(position, active), unsafe_allow_html=True)
        return
    _, spaces = boardclicks.targets(decision.legal, None)
    clickable_svg(rondel_svg(position, active, spaces, clickable=True), key=f"{prefix}_rondel",
                  on_click=lambda value: _clicked(prefix, decision, value))


def _ignore(value: str) -> None:
    """A click on a board that asks nothing (no decision of a person)."""


def _clicked(prefix: str, decision: Decision, value: str) -> None:
    """A click (a callback, before the page runs again): play, offer, explain or pick."""
    kept = _state(prefix, decision.token)
    answer = boardclicks.click(value, decision.legal, decision.active, decision.kind, kept["picked"])
    if answer.play is not None:
        kept.update(picked=None, answer=None)
        decision.choose(answer.play)
        return
    kept["picked"] = answer.picked
    said = decision.why(answer.why) if answer.why is not None else None
    if said is not None:
        kept["answer"] = ("why", said, answer.why)
    elif answer.choices:
        kept["answer"] = ("choices", answer.choices, None)
    elif answer.note:
        kept["answer"] = ("note", answer.note, None)
    else:
        kept["answer"] = None


def answer(prefix: str, decision: Decision | None) -> None:
    """What the last click said: the unit picked, the actions to choose among, or why not."""
    if decision is None:
        return
    kept = _state(prefix, decision.token)
    picked, said = kept["picked"], kept["answer"]
    if picked:
        where, _, unit, stance = picked.split(":")[1:]
        st.info(f"Picked: the {' '.join(filter(None, (stance, unit)))} in {region(where)}. Click where it goes "
                "(green), or click it again to drop it.", icon=":material/ads_click:")
    if said is None:
        st.caption(HOW)
        return
    kind, what, text = said
    if kind == "why":
        st.warning(f"**{md(choice_words(text))}**: {link_sections(md(what))}", icon=":material/block:")
    elif kind == "note":
        st.caption(what)
    else:
        st.markdown("This click fits several choices:")
        for k, choice in enumerate(what):
            st.button(md(choice_words(choice)), key=f"{prefix}_fits_{k}", on_click=_fits, args=(prefix, decision, choice),
                      width="stretch")


def _fits(prefix: str, decision: Decision, text: str) -> None:
    _state(prefix, decision.token).update(picked=None, answer=None)
    decision.choose(text)
