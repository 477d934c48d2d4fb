"""Lessons: the rules one step at a time. Each lesson (data/imperial2030/lessons/, docs/lessons.md)
shows a small position on the explorer's board, explains a rule, sets a task, and judges the
learner's move with imperial_lab.core.lessons: the right answer passes (and what it does is shown, event by
event), a wrong one gets the lesson's feedback for it, an illegal one the engine's own reason and
rule. Every rule reference links to the Rules page.

Progress (the lessons done, the lesson open) lives in st.session_state and in the page's query
parameters (``?lesson=convoy&done=setup-bonds,rondel-costs``), so a browser refresh keeps it.
"""

from __future__ import annotations

import os
import re

import pandas as pd
import streamlit as st

from imperial_lab.dashboard.games.imperial2030.boardview import board_panel
from imperial_lab.core.games.imperial2030.explain import explain
from imperial_lab.dashboard.games.imperial2030.nationview import bonds_figure, nation_summaries
from imperial_lab.dashboard.games.imperial2030.rondelview import rondel_figure
from imperial_lab.core.games.imperial2030.rules_text import link_sections, references, section_link
from imperial_lab.core.games.imperial2030.texts import action_notes, decision_lines
from imperial_lab.core.lessons import ILLEGAL, RIGHT, UNREADABLE, WRONG, Lesson, lessons_dir, load_catalogue
from imperial_lab.dashboard import frame
from imperial_lab.dashboard.style import player_label

PICK_KEY, DONE_KEY = "lessons_pick", "lessons_done"
CHOICE_KEY, TEXT_KEY = "lesson_choice", "lesson_text"
NOTES_KEY = "lesson_notes"
FEEDBACK_KEY = "lesson_feedback"  # (lesson id, Feedback) of the last answer checked
RADIO_MOST = 10  # more legal actions than this: a select box instead of radio buttons
LESSONS_ENV = "IMPERIAL_LAB_LESSONS"  # another lessons folder (tests)


@st.cache_resource(show_spinner=False, max_entries=4)
def _catalogue(folder: str, stamp: tuple) -> tuple[list[Lesson], list]:
    return load_catalogue(folder)


def catalogue() -> tuple[list[Lesson], list]:
    folder = os.environ.get(LESSONS_ENV) or str(lessons_dir())
    try:
        stamp = tuple(sorted((entry.name, entry.stat().st_mtime_ns) for entry in os.scandir(folder)))
    except OSError:
        stamp = ()
    return _catalogue(folder, stamp)


# ----- progress -----

def done_lessons(known: list[str]) -> set[str]:
    """The lessons done: this session's, and those the page's URL remembers (after a refresh)."""
    done = st.session_state.setdefault(DONE_KEY, set())
    remembered = st.query_params.get("done", "")
    done |= {i for i in remembered.split(",") if i in known}
    return done


def _remember(done: set[str], current: str) -> None:
    st.query_params["lesson"] = current
    if done:
        st.query_params["done"] = ",".join(sorted(done))
    elif "done" in st.query_params:
        del st.query_params["done"]


def _open(lesson_id: str) -> None:
    st.session_state[PICK_KEY] = lesson_id


def _reset_progress() -> None:
    st.session_state[DONE_KEY] = set()
    if "done" in st.query_params:  # or the next run would read the progress back from the URL
        del st.query_params["done"]
    st.session_state.pop(FEEDBACK_KEY, None)


# ----- checking an answer (button callbacks: they run before the page is drawn again) -----

def _check(lesson: Lesson, key: str) -> None:
    text = (st.session_state.get(key) or "").strip()
    if not text:
        st.session_state[FEEDBACK_KEY] = (lesson.id, None)
        return
    feedback = lesson.check(text)
    st.session_state[FEEDBACK_KEY] = (lesson.id, feedback)
    if feedback.ok:
        st.session_state.setdefault(DONE_KEY, set()).add(lesson.id)


# ----- the page -----

def main() -> None:
    st.title("Lessons")
    lessons, errors = catalogue()
    for error in errors:
        frame.show_error("A lesson file could not be loaded:", error)
    if not lessons:
        return
    ids = [lesson.id for lesson in lessons]
    done = done_lessons(ids)
    if st.session_state.get(PICK_KEY) not in ids:
        asked = st.query_params.get("lesson")
        st.session_state[PICK_KEY] = asked if asked in ids else next((i for i in ids if i not in done), ids[0])
    by_id = {lesson.id: lesson for lesson in lessons}
    number = {lesson.id: k for k, lesson in enumerate(lessons, 1)}
    top, count = st.columns([3, 1], vertical_alignment="bottom")
    current = top.selectbox("Lesson", ids, key=PICK_KEY,
                            format_func=lambda i: f"{'✓' if i in done else '○'} {number[i]}. {by_id[i].title}")
    count.progress(len(done) / len(ids), text=f"{len(done)} of {len(ids)} lessons done")
    _remember(done, current)
    lesson = by_id[current]
    show_lesson(lesson, number[current], current in done)
    later = [i for i in ids[ids.index(current) + 1:] + ids if i not in done and i != current]
    left, right = st.columns(2)
    if later:
        left.button(f"Next lesson: {by_id[later[0]].title}", key="lesson_next", on_click=_open, args=(later[0],),
                    icon=":material/arrow_forward:")
    elif len(done) == len(ids):
        left.success("Every lesson is done.")
    else:
        left.caption("This is the last lesson left.")
    right.button("Start the lessons again", key="lessons_reset", on_click=_reset_progress,
                 help="forget which lessons are done")


def show_lesson(lesson: Lesson, number: int, done: bool) -> None:
    st.header(f"{number}. {lesson.title}" + (" ✓" if done else ""))
    st.caption("Rules: " + " · ".join(section_link(ref) for ref in lesson.rules))
    st.markdown(link_sections(lesson.explanation))
    state = lesson.state()
    position = state.to_json()
    st.info(f"**Task.** {lesson.task}", icon=":material/school:")
    st.caption(decision_text(state))
    board(position)
    answer(lesson, state)
    feedback(lesson, position)


def decision_text(state) -> str:
    """What the learner decides, its rule (``[§7.4 Maneuver]`` at the end) made a link."""
    line = decision_lines(state)[0]
    tag = re.search(r" \[(§[^\]]+)\]$", line)
    refs = references(tag.group(1)) if tag else []
    if not refs:
        return link_sections(line)
    return f"{link_sections(line[:tag.start()])} ({section_link(refs[0], tag.group(1))})"


def board(position: dict) -> None:
    """The explorer's views of the lesson's position: map, rondel, nations, bonds."""
    active = position["turn"]["nation"]
    board_panel(position, key="lesson_view")
    rondel, nations = st.columns([1, 1.6])
    with rondel:
        st.markdown(f"**Rondel** ({section_link('§6', '§6')})")
        st.plotly_chart(rondel_figure(position, active, height=300), key="lesson_rondel")
    with nations:
        st.markdown(f"**Nations** ({section_link('§10', 'power factor: §10')})")
        st.dataframe(nation_table(position, active), hide_index=True)
        st.markdown(f"**Bonds**: credit sums ({section_link('§9', '§9')}), ★ marks the government")
        st.plotly_chart(bonds_figure(position, height=220), key="lesson_bonds")


def nation_table(position: dict, active: str | None) -> pd.DataFrame:
    rows = []
    for n in nation_summaries(position):
        rows.append({
            "nation": n["name"] + (" ◀" if n["nation"] == active else ""),
            "government": player_label(n["government"]) if n["government"] is not None else "none",
            "treasury": f"{n['treasury']}m", "power": f"{n['power_points']} (×{n['power_factor']})",
            "rondel": n["rondel"] or "not yet", "factories": n["factories"] - n["occupied"],
            "occupied": n["occupied"], "armies": n["armies"], "fleets": n["fleets"], "flags": n["flags"],
        })
    return pd.DataFrame(rows)


def answer(lesson: Lesson, state) -> None:
    """The legal actions to choose from (with the game's note on each), or any action typed in."""
    legal = lesson.legal_texts()
    # The game's notes (a move's cost, a bond's price and the government it takes over) often give the
    # answer away: off until the learner asks.
    with_notes = st.toggle("Show the game's note on each move (its cost, what it takes over)", key=NOTES_KEY)
    notes = dict(zip(legal, action_notes(state))) if with_notes else {}
    label = f"Your move ({player_label(lesson.player())})"
    key = f"{CHOICE_KEY}_{lesson.id}"
    if len(legal) <= RADIO_MOST:  # radio labels are Markdown: a code span keeps "->" as typed
        st.radio(label, legal, key=key, index=None,
                 format_func=lambda text: f"`{text}`" + (f" — {notes[text]}" if notes.get(text) else ""))
    else:
        st.selectbox(label, legal, key=key, index=None, placeholder="choose a legal action",
                     format_func=lambda text: text + (f" — {notes[text]}" if notes.get(text) else ""))
    st.button("Check my move", key="lesson_check", type="primary", on_click=_check, args=(lesson, key))
    with st.expander("Try any action, even one not offered: the engine says why it is not allowed"):
        text_key = f"{TEXT_KEY}_{lesson.id}"
        st.text_input("Action in the game's notation", key=text_key, placeholder=legal[0],
                      help="the notation of docs/formats.md, e.g. `rondel taxation` or `move army rome -> berlin`")
        st.button("Check this action", key="lesson_try", on_click=_check, args=(lesson, text_key))
    if lesson.hint:
        with st.expander("Hint"):
            st.markdown(link_sections(lesson.hint))


def feedback(lesson: Lesson, position: dict) -> None:
    shown = st.session_state.get(FEEDBACK_KEY)
    if not shown or shown[0] != lesson.id:
        return
    result = shown[1]
    if result is None:
        st.info("Choose a move first (or type one).", icon=":material/touch_app:")
        return
    move = f"You played `{result.action}`" if result.action else "Your move"
    if result.verdict == RIGHT:
        st.success(f"{move}. {link_sections(result.advice)}", icon=":material/check_circle:")
    elif result.verdict == WRONG:
        st.warning(f"{move}: allowed, but not what the task asks. {link_sections(result.advice)}",
                   icon=":material/lightbulb:")
    elif result.verdict == ILLEGAL:
        rule = f" ({section_link(result.rule)})" if result.rule else ""
        st.error(f"{move}: not allowed here{rule}. The engine says: {frame.code_span(result.reason)}\n\n"
                 f"{link_sections(result.advice)}", icon=":material/block:")
    elif result.verdict == UNREADABLE:
        st.error(f"The engine cannot read this action: {frame.code_span(result.reason)}", icon=":material/error:")
    if result.events:
        title = "What it does" if result.ok else "What your move would do"
        active = position["turn"]["nation"]
        with st.expander(title, expanded=result.ok):
            st.markdown(_sentences(result.events, active))
            for text, events in result.then:
                st.markdown(f"Then `{text}`:\n\n" + _sentences(events, active))


def _sentences(events: list, active: str | None) -> str:
    return "\n".join(f"- {link_sections(explain(_event(e), active))}" for e in events) or "- nothing happens"


def _event(event) -> dict:
    return event.to_json() if hasattr(event, "to_json") else dict(event)


main()
