"""Lessons: the rules of Imperial 2030 one step at a time (data/imperial2030/lessons/, docs/lessons.md),
on the page every game's lessons share (imperial_lab.dashboard.lessonkit). Here the views of a lesson's
position: the board, zoomed to the regions the lesson is about (a view of its own per lesson) and
clickable (a unit, then where it goes; a rondel space; a region: that move is checked), the rondel,
the nations and the bonds; after a legal move every view shows the position it leaves.
"""

from __future__ import annotations

import streamlit as st

from imperial_lab.core.games.imperial2030.action_words import choice_words
from imperial_lab.core.games.imperial2030.data import load_board
from imperial_lab.core.games.imperial2030.rules_text import REFERENCE, section_link
from imperial_lab.core.games.imperial2030.texts import action_notes
from imperial_lab.core.lessons import Lesson
from imperial_lab.dashboard.games.imperial2030 import boardclicks, clickboard
from imperial_lab.dashboard.games.imperial2030.boardview import VIEWS, view_for
from imperial_lab.dashboard.games.imperial2030.changes import step_changes
from imperial_lab.dashboard.games.imperial2030.nationview import bonds_html, nation_summaries
from imperial_lab.dashboard.lessonkit import After, LessonKit
from imperial_lab.core.words import count
from imperial_lab.dashboard.style import player_label

KIT = LessonKit("lessons", "imperial2030", REFERENCE, choice_words, notes=action_notes)


def lesson_view(lesson: Lesson) -> str:
    """The view a lesson opens on: the smallest that shows its answers' regions and the units of the
    nation to move."""
    position = lesson.position
    active = position["turn"]["nation"]
    texts = list(lesson.answers) + list(lesson.specific)
    regions = {r for text in texts for r in _regions(text)}
    regions |= {u["region"] for u in position.get("units", []) if u["nation"] == active}
    regions &= set(load_board().region_index)  # not "build none"'s "none"
    return view_for(sorted(regions)) if regions else "World"


def _regions(text: str) -> list[str]:
    """The regions an action's text form names."""
    moved = boardclicks.moves([text])
    if moved:
        return [moved[0].origin, moved[0].dest]
    found = boardclicks.place_of(text)
    return [found] if found else []


def views(lesson: Lesson, state, after: After | None) -> None:
    """The board (clickable), the rondel, the nations and the bonds, of the lesson's position or of the
    one the learner's move leaves."""
    position = state.to_json()
    shown = after.state.to_json() if after is not None else position
    changes = step_changes(position, shown, after.events) if after is not None else None
    legal = lesson.legal_texts()
    decision = clickboard.Decision(legal, state.decision_name(), position["turn"]["nation"], lesson.id,
                                   choose=lambda text: KIT.check(lesson, text), why=lambda text: _why(lesson, text))
    key = f"lesson_view_{lesson.id}"  # a view per lesson: one lesson's choice does not carry over
    view = st.segmented_control("Map", list(VIEWS), default=lesson_view(lesson), key=key,
                                label_visibility="collapsed") or "World"
    clickboard.board(shown, "lesson", decision if after is None else None, changes, view)
    clickboard.answer("lesson", decision if after is None else None)
    rondel, bonds = st.columns([1, 1.6])
    with rondel:
        st.markdown(f"**Rondel** ({section_link('§6', '§6')})")
        clickboard.rondel(shown, "lesson", decision if after is None else None)
    with bonds:
        st.markdown(f"**Bonds**: credit sums ({section_link('§9', '§9')}), ★ marks the government")
        st.markdown(bonds_html(shown), unsafe_allow_html=True)
    # The nations' eight columns need the page's width: beside the rondel they ran past its edge.
    st.markdown(f"**Nations** ({section_link('§10', 'power factor: §10')})")
    st.markdown(nation_table(shown, shown["turn"]["nation"]))


def _why(lesson: Lesson, text: str) -> None:
    """A click that asks for an illegal move: the lesson checks it (its feedback says why)."""
    KIT.check(lesson, text)


def nation_table(position: dict, active: str | None) -> str:
    """The nations as a Markdown table: government, treasury, power, rondel, factories, units, flags."""
    rows = ["| nation | government | treasury | power | rondel | factories | units | flags |",
            "|---|---|---|---|---|---|---|---|"]
    for n in nation_summaries(position):
        government = player_label(n["government"]) if n["government"] is not None else "none"
        factories = f"{n['factories']}" + (f", {n['occupied']} occupied" if n["occupied"] else "")
        rows.append(f"| {n['name']}{' ◀' if n['nation'] == active else ''} | {government} | {n['treasury']}m | "
                    f"{n['power_points']} (×{n['power_factor']}) | {n['rondel'] or 'not yet'} | {factories} | "
                    f"{count(n['armies'], 'army')}, {count(n['fleets'], 'fleet')} | {n['flags']} |")
    return "\n".join(rows)


KIT.page("Lessons", views)
