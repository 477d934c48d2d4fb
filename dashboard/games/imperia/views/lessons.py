"""Imperia lessons: the rules of Imperia one step at a time (data/imperia/lessons/, docs/lessons.md),
on the page every game's lessons share (imperial_lab.dashboard.lessonkit). Here the views of a
lesson's position through the learner's eyes (§7.2): the board, with the spaces its choices may go to
(a dot at each side a tile may face), and the hands; after a legal move, the position it leaves.
"""

from __future__ import annotations

import streamlit as st

from imperial_lab.core.games.imperia.action_words import action_words
from imperial_lab.core.games.imperia.rules_text import REFERENCE
from imperial_lab.core.lessons import Lesson
from imperial_lab.dashboard.games.imperia.boardview import hands_table, show_board, targets
from imperial_lab.dashboard.lessonkit import After, LessonKit

KIT = LessonKit("imperia_lessons", "imperia", REFERENCE, action_words)


def views(lesson: Lesson, state, after: After | None) -> None:
    me = lesson.player()
    board, hands = st.columns([1.2, 1])
    with board:
        if after is None:
            show_board(state.observation(me), targets=targets(lesson.legal_texts()))
        else:
            spot = next(iter(targets([after.text])), None)
            show_board(after.state.observation(me), preview=spot)
    with hands:
        st.markdown(hands_table((after.state if after else state).observation(me), me))


KIT.page("Imperia lessons", views)
