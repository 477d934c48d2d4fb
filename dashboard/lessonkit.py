"""The Lessons page of every game: the rules one step at a time. Each lesson (``data/<game>/lessons/``,
checked by the engine: imperial_lab.core.lessons) shows a small position, explains a rule, sets a
task and judges the learner's move: the right answer passes (and what it does is told, event by
event), a wrong one gets the lesson's feedback for it, an illegal one the engine's reason and rule in
words. Every rule reference links to the game's rules page.

A game's page makes one ``LessonKit`` and calls ``page(title, views)``; ``views(lesson, state,
after)`` draws the game's own views (its board and the rest) of the lesson's position, or, once the
learner has played a legal move, of the position after it (``after``: every view follows the move).
The choices are in words (the game's ``words``); "Try another action" offers the tempting illegal
ones of the decision (the game's texts: ``why_not_options``), so nobody has to type notation.

Progress (the lessons done) is kept in the user folder (imperial_lab.core.lessons.save_progress), so a
new address or a restart keeps it; the lesson open is in the address (``?lesson=convoy``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from collections.abc import Callable

import streamlit as st

from imperial_lab.core.lessons import (ILLEGAL, RIGHT, UNREADABLE, WRONG, Feedback, Lesson, lessons_dir,
                                       load_catalogue, load_progress, save_progress)
from imperial_lab.core.rules_text import Reference
from imperial_lab.core.session import texts_for
from imperial_lab.core.words import capital
from imperial_lab.dashboard import frame
from imperial_lab.dashboard.playkit import md
from imperial_lab.dashboard.style import player_label

RADIO_MOST = 10  # more legal actions than this: a select box instead of radio buttons
LESSONS_ENV = "IMPERIAL_LAB_LESSONS"  # another lessons folder (tests), for the default game's page


@dataclass(frozen=True)
class After:
    """The position after the learner's legal move ``text`` (and a right answer's follow-up actions):
    ``state``, and ``events`` (of the move and its follow-ups) in order."""

    text: str
    state: object
    events: list


@st.cache_resource(show_spinner="Loading the lessons…", max_entries=8)
def _catalogue(folder: str, stamp: tuple) -> tuple[list[Lesson], list]:
    return load_catalogue(folder)


@dataclass(frozen=True)
class LessonKit:
    """One game's Lessons page. ``prefix`` names its keys (``lessons`` -> ``lessons_pick``…),
    ``game`` is the registry's name, ``reference`` its rules, ``words`` an action's text form as a
    choice in words, ``notes`` (optional) the game's note per legal action of a state (a move's cost:
    off until the learner asks, since it often gives the answer away)."""

    prefix: str
    game: str
    reference: Reference
    words: Callable[[str], str]
    notes: Callable | None = None

    def key(self, name: str) -> str:
        return f"{self.prefix}_{name}"

    # ----- the lessons and the progress -----

    def catalogue(self) -> tuple[list[Lesson], list]:
        folder = os.environ.get(LESSONS_ENV) if self.prefix == "lessons" else None
        folder = folder or str(lessons_dir(self.game))
        try:
            stamp = tuple(sorted((entry.name, entry.stat().st_mtime_ns) for entry in os.scandir(folder)))
        except OSError:
            stamp = ()
        return _catalogue(folder, stamp)

    def done(self) -> set[str]:
        """The lessons done: read from the user folder once per session, kept up to date here."""
        key = self.key("done")
        if key not in st.session_state:
            st.session_state[key] = load_progress(self.game)
        return st.session_state[key]

    def _passed(self, lesson_id: str) -> None:
        done = self.done()
        if lesson_id not in done:
            done.add(lesson_id)
            self._save(done)

    def _reset(self) -> None:
        st.session_state[self.key("done")] = set()
        st.session_state.pop(self.key("feedback"), None)
        self._save(set())

    def _save(self, done: set[str]) -> None:
        try:
            save_progress(self.game, done)
        except OSError as exc:  # a read-only folder: the session keeps it, a restart will not
            st.session_state[self.key("unsaved")] = str(exc)

    def _open(self, lesson_id: str) -> None:
        st.session_state[self.key("pick")] = lesson_id

    # ----- checking an answer (callbacks: they run before the page is drawn again) -----

    def check(self, lesson: Lesson, text: str | None) -> None:
        """Judge ``text`` (an action's text form) in ``lesson``; a right answer counts as done."""
        if not text:
            st.session_state[self.key("feedback")] = (lesson.id, None)
            return
        feedback = lesson.check(text)
        st.session_state[self.key("feedback")] = (lesson.id, feedback)
        if feedback.ok:
            self._passed(lesson.id)

    def _check_key(self, lesson: Lesson, key: str) -> None:
        self.check(lesson, st.session_state.get(key))

    def feedback_of(self, lesson: Lesson) -> Feedback | None:
        shown = st.session_state.get(self.key("feedback"))
        return shown[1] if shown and shown[0] == lesson.id else None

    def after(self, lesson: Lesson) -> After | None:
        """The position after the learner's last legal move in ``lesson`` (None before one)."""
        feedback = self.feedback_of(lesson)
        if feedback is None or feedback.verdict not in (RIGHT, WRONG):
            return None
        state = lesson.state()
        state.apply_action(state.string_to_action(feedback.action))
        events = list(feedback.events)
        for text, more in feedback.then:
            state.apply_action(state.string_to_action(text))
            events += more
        return After(feedback.action, state, [_plain(e) for e in events])

    # ----- the page -----

    def page(self, title: str, views: Callable[[Lesson, object, After | None], None]) -> None:
        st.title(title)
        lessons, errors = self.catalogue()
        for error in errors:
            frame.show_error("A lesson file could not be loaded:", error)
        if not lessons:
            return
        ids = [lesson.id for lesson in lessons]
        done = self.done() & set(ids)
        pick = self.key("pick")
        if st.session_state.get(pick) not in ids:
            asked = st.query_params.get("lesson")
            st.session_state[pick] = asked if asked in ids else next((i for i in ids if i not in done), ids[0])
        by_id = {lesson.id: lesson for lesson in lessons}
        number = {lesson.id: k for k, lesson in enumerate(lessons, 1)}
        top, count = st.columns([3, 1], vertical_alignment="bottom")
        current = top.selectbox("Lesson", ids, key=pick,
                                format_func=lambda i: f"{'✓' if i in done else '○'} {number[i]}. {by_id[i].title}")
        count.progress(len(done) / len(ids), text=f"{len(done)} of {len(ids)} lessons done")
        st.query_params["lesson"] = current
        if st.session_state.get(self.key("unsaved")):
            frame.show_error("The progress cannot be written to the user folder (it lasts this session):",
                             st.session_state[self.key("unsaved")])
        lesson = by_id[current]
        self.show(lesson, number[current], current in done, views)
        later = [i for i in ids[ids.index(current) + 1:] + ids if i not in done and i != current]
        left, right = st.columns(2)
        if later:
            left.button(f"Next lesson: {by_id[later[0]].title}", key=self.key("next"), on_click=self._open,
                        args=(later[0],), icon=":material/arrow_forward:")
        elif len(done) == len(ids):
            left.success("Every lesson is done.")
        else:
            left.caption("This is the last lesson left.")
        right.button("Start the lessons again", key=self.key("reset"), on_click=self._reset,
                     help="forget which lessons are done")

    def show(self, lesson: Lesson, number: int, done: bool, views) -> None:
        ref = self.reference
        st.header(f"{number}. {lesson.title}" + (" ✓" if done else ""))
        st.caption("Rules: " + " · ".join(ref.link(rule) for rule in lesson.rules))
        st.markdown(ref.link_all(lesson.explanation))
        state = lesson.state()
        st.info(f"**Task.** {lesson.task}", icon=":material/school:")
        texts = texts_for(self.game)
        line = texts.decision_lines(state)[0]
        st.caption(ref.link_all(md(line.replace("[", "(").replace("]", ")"))))
        after = self.after(lesson)
        if after is not None:
            st.markdown(f"**After your move** ({md(self.words(after.text))}): every view below shows the "
                        "position it leaves.")
        views(lesson, state, after)
        self.answer(lesson, state)
        self.feedback(lesson, state)

    def answer(self, lesson: Lesson, state) -> None:
        """The legal actions in words to choose from (with the game's note on each, if asked), and the
        tempting illegal ones to try."""
        legal = lesson.legal_texts()
        notes = {}
        if self.notes is not None and st.toggle("Show the game's note on each move (its cost, what it takes over)",
                                                key=self.key("notes")):
            notes = dict(zip(legal, self.notes(state)))
        label = f"Your move ({player_label(lesson.player())})"
        key = self.key(f"choice_{lesson.id}")

        def words(text: str) -> str:
            return md(self.words(text)) + (f" — {md(notes[text])}" if notes.get(text) else "")

        if len(legal) <= RADIO_MOST:
            st.radio(label, legal, key=key, index=None, format_func=words)
        else:
            st.selectbox(label, legal, key=key, index=None, placeholder="choose a move", format_func=words)
        st.button("Check my move", key=self.key("check"), type="primary", on_click=self._check_key, args=(lesson, key))
        # The moves the lesson has words for come first: they are the tempting ones it teaches.
        options = [*lesson.specific, *texts_for(self.game).why_not_options(state)]
        tempting = [text for text in dict.fromkeys(options) if text not in legal]
        if tempting:
            with st.expander("Try a move that is not offered: the engine says why it is not allowed"):
                other = self.key(f"other_{lesson.id}")
                st.selectbox("A move the rules refuse here", tempting, key=other, index=None, format_func=words,
                             placeholder="choose a move")
                st.button("Check this move", key=self.key("try"), on_click=self._check_key, args=(lesson, other))
        if lesson.hint:
            with st.expander("Hint"):
                st.markdown(self.reference.link_all(lesson.hint))

    def feedback(self, lesson: Lesson, state) -> None:
        shown = st.session_state.get(self.key("feedback"))
        if not shown or shown[0] != lesson.id:
            return
        result, ref = shown[1], self.reference
        if result is None:
            st.info("Choose a move first.", icon=":material/touch_app:")
            return
        move = f"You played **{md(self.words(result.action))}**" if result.action else "Your move"
        if result.verdict == RIGHT:
            st.success(f"{move}. {ref.link_all(result.advice)}", icon=":material/check_circle:")
        elif result.verdict == WRONG:
            st.warning(f"{move}: allowed, but not what the task asks. {ref.link_all(result.advice)}",
                       icon=":material/lightbulb:")
        elif result.verdict == ILLEGAL:
            why = texts_for(self.game).refusal(state, state.string_to_action(result.action), _Refused(result))
            st.error(f"{move}: {ref.link_all(md(why))}\n\n{ref.link_all(result.advice)}", icon=":material/block:")
        elif result.verdict == UNREADABLE:
            st.error(f"The engine cannot read this action: {frame.code_span(result.reason)}", icon=":material/error:")
        after = self.after(lesson)
        if after is not None and after.events:
            texts = texts_for(self.game)
            lines = [line.strip() for line in texts.event_lines(after.events, texts.active(state))]
            with st.expander("What it does" if result.ok else "What your move would do", expanded=result.ok):
                st.markdown("\n".join(f"- {ref.link_all(md(capital(line.lstrip('= '))))}" for line in lines)
                            or "- nothing happens")


class _Refused(Exception):
    """A lesson's verdict on an illegal move, in the shape of the engine's error (``rule``, ``message``)
    for the game's words of a refusal."""

    def __init__(self, result: Feedback):
        super().__init__(result.reason)
        self.rule = result.rule
        self.message = (result.reason or "").removesuffix(f" [RULES.md {result.rule}]")


def _plain(event) -> dict:
    return event.to_json() if hasattr(event, "to_json") else dict(event)
