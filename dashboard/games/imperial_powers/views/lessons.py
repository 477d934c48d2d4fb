"""Imperial Powers lessons: the rules of Imperial Powers one step at a time
(data/imperial_powers/lessons/, docs/lessons.md), on the page every game's lessons share
(imperial_lab.dashboard.lessonkit). Here the views of a lesson's position through the learner's eyes
(§6.2): the map and the players; after a legal move, the position it leaves, the regions it changed
ringed.
"""

from __future__ import annotations

import streamlit as st

from imperial_lab.core.games.imperial_powers.explain import action_plain, changed_regions, context_of
from imperial_lab.core.games.imperial_powers.rules_text import REFERENCE
from imperial_lab.core.games.imperial_powers.texts import action_notes
from imperial_lab.core.lessons import Lesson
from imperial_lab.dashboard.games.imperial_powers.boardview import players_table, show_map, view_of
from imperial_lab.dashboard.lessonkit import After, LessonKit

KIT = LessonKit("ip_lessons", "imperial_powers", REFERENCE, action_plain, notes=action_notes)


def views(lesson: Lesson, state, after: After | None) -> None:
    me = lesson.player()
    view = view_of(after.state if after else state, me)
    changed = changed_regions(after.events, context_of(view), me) if after else []
    show_map(view, changed)
    st.markdown(f"**Players** ({REFERENCE.link('§6.2', 'what is hidden')})\n\n{players_table(view)}",
                unsafe_allow_html=True)


KIT.page("Imperial Powers lessons", views)
