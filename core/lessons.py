"""Lessons that teach the rules one step at a time: a small position, a task, the accepted answers
and feedback on the others (docs/lessons.md).

A lesson is a JSON file (``data/<game>/lessons/NN-name.json``; its id is the name without the
number, which only orders the catalogue):

    {"title": "The rondel and its costs", "rules": ["§6"],
     "explanation": "...", "task": "Choose the farthest space China can pay for.",
     "position": {... a position document of the game ...},
     "answers": ["rondel taxation"],
     "success": "Right: ...",
     "feedback": {"generic": "...", "actions": {"rondel maneuver_2": "...", "rondel factory": "..."}},
     "hint": "..."}

``success``, ``hint`` and ``then`` may be left out; ``then`` lists actions played after a right
answer to show what follows from it (``["end maneuver"]``: the flags a battle decided).

``load_lesson(path)`` reads and checks one file: a file that is not JSON, too big or too deep, lacks
a field or has one of the wrong type, holds a position the game refuses (its invariants included),
or names an answer that is not a legal action of that position (or accepts every legal action) is
one ``LessonError`` naming the file and the field. ``Lesson.check(text)`` judges an answer in the
game's action notation: right, a legal but wrong move (with the lesson's feedback for it, or the
generic one), an illegal move (with the engine's own reason and rule), or a text the game cannot
read.

Game-agnostic: positions are made through ``imperial_lab.core.interface.make_game`` (the registry of games)
and used through the State interface only.

**Progress** (the lessons done, per game) is kept in ``lessons.json`` in the user folder
(``imperial_lab.core.files.user_folder``), so it outlives a browser's address and a restart:
``load_progress(game)`` and ``save_progress(game, done)``. A file that cannot be read counts as no
progress (and is replaced at the next save), never an error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import json
import os
import secrets

from imperial_lab.core.errors import DataError, ImperialError
from imperial_lab.core.files import data_path, user_folder
from imperial_lab.core.interface import make_game
from imperial_lab.core.jsonio import clip, read_json_file
from imperial_lab.core.registry import DEFAULT_GAME

DATA_DIR = data_path()
MAX_LESSON_BYTES = 256 * 2**10  # a lesson with a full position document is about 10 KB
MAX_LESSONS = 200
RULE_REF = re.compile(r"^§\d{1,2}(?:\.\d{1,2}){0,3}(?: [A-Z]\d{1,2})?$")  # a ruling: §11 Q2, §9 R12

# field -> (type, required, most: characters of a text or entries of a list)
FIELDS = {
    "title": (str, True, 100),
    "rules": (list, True, 12),
    "explanation": (str, True, 4000),
    "task": (str, True, 600),
    "position": (dict, True, None),
    "answers": (list, True, 20),
    "feedback": (dict, True, None),
    "success": (str, False, 2000),
    "hint": (str, False, 1000),
    "then": (list, False, 10),
}
FEEDBACK_FIELDS = {"generic": (str, True, 2000), "actions": (dict, False, 100)}
MAX_ACTION_CHARS = 200

PROGRESS_FILE = "lessons.json"
MAX_PROGRESS_BYTES = 64 * 2**10

RIGHT, WRONG, ILLEGAL, UNREADABLE = "right", "wrong", "illegal", "unreadable"
DEFAULT_SUCCESS = "Right."


class LessonError(DataError):
    """A lesson file that cannot be used; the message starts with the file and names the field."""


@dataclass(frozen=True)
class Feedback:
    """The verdict on one answer.

    ``verdict``: ``right``, ``wrong`` (legal, not accepted), ``illegal`` or ``unreadable``.
    ``action``: the answer in the game's own text form (None when unreadable). ``advice``: the
    lesson's words for it (its success text, its text for that action, or its generic feedback).
    ``reason`` and ``rule``: the engine's refusal of an illegal or unreadable answer (rule: the
    rules section it names, if any). ``events``: what the move does, for a legal answer (the
    game's event objects, applied to a copy of the lesson's position). ``then``: after a right
    answer, the lesson's follow-up actions and their events, as (text, events) pairs.
    """

    verdict: str
    action: str | None
    advice: str
    reason: str | None = None
    rule: str | None = None
    events: list = field(default_factory=list)
    then: tuple = ()

    @property
    def ok(self) -> bool:
        return self.verdict == RIGHT


@dataclass(frozen=True)
class Lesson:
    id: str
    file: Path
    title: str
    rules: tuple[str, ...]
    explanation: str
    task: str
    position: dict
    answers: tuple[str, ...]  # canonical action texts
    success: str
    generic: str
    specific: dict  # canonical action text -> feedback
    hint: str | None
    then: tuple[str, ...]  # actions played after a right answer, to show what follows
    _prototype: Any = field(repr=False, compare=False)

    def state(self):
        """A fresh state of the lesson's position (the learner's decision)."""
        return self._prototype.clone()

    def legal_texts(self) -> list[str]:
        state = self._prototype
        return [state.action_to_string(a) for a in state.legal_actions()]

    def player(self) -> int:
        return self._prototype.current_player()

    def check(self, text: str) -> Feedback:
        return check_answer(self, text)


def check_answer(lesson: Lesson, text: str) -> Feedback:
    """Judge ``text`` (an action in the game's notation) in the lesson's position."""
    state = lesson.state()
    text = text.strip() if isinstance(text, str) else ""
    if not text:
        return Feedback(UNREADABLE, None, lesson.generic, reason="no action given")
    try:
        action = state.string_to_action(text)
    except ImperialError as exc:
        return Feedback(UNREADABLE, None, lesson.generic, reason=str(exc), rule=getattr(exc, "rule", None))
    canonical = state.action_to_string(action)
    if action not in state.legal_actions():
        reason, rule = _refusal(state, action)
        return Feedback(ILLEGAL, canonical, lesson.specific.get(canonical, lesson.generic), reason=reason, rule=rule)
    events = state.apply_action(action)
    if canonical in lesson.answers:
        then = tuple((step, list(state.apply_action(state.string_to_action(step)))) for step in lesson.then)
        return Feedback(RIGHT, canonical, lesson.success, events=list(events), then=then)
    return Feedback(WRONG, canonical, lesson.specific.get(canonical, lesson.generic), events=list(events))


def lessons_dir(game: str = DEFAULT_GAME) -> Path:
    """Where a game's lessons live: ``data/<game>/lessons``."""
    return DATA_DIR / game / "lessons"


def lesson_id(path) -> str:
    """``07-armies-rail.json`` -> ``armies-rail``."""
    return re.sub(r"^\d+[-_]", "", Path(path).stem)


def load_lessons(folder=None) -> list[Lesson]:
    """Every lesson of the folder (default: Imperial 2030's), in file-name order; the first bad
    file raises its LessonError."""
    lessons, errors = load_catalogue(folder)
    if errors:
        raise errors[0]
    return lessons


def load_catalogue(folder=None) -> tuple[list[Lesson], list[LessonError]]:
    """The lessons that load, and one error per file that does not (for a page that shows both)."""
    folder = Path(folder) if folder is not None else lessons_dir()
    files = sorted(folder.glob("*.json")) if folder.is_dir() else []
    if not files:
        return [], [LessonError(f"{folder}: no lesson files (*.json) found")]
    if len(files) > MAX_LESSONS:
        return [], [LessonError(f"{folder}: {len(files)} lesson files, more than the limit of {MAX_LESSONS}")]
    lessons: list[Lesson] = []
    errors: list[LessonError] = []
    seen: dict[str, Path] = {}
    for path in files:
        try:
            lesson = load_lesson(path)
        except LessonError as exc:
            errors.append(exc)
            continue
        if lesson.id in seen:
            errors.append(LessonError(f"{path}: lesson id {lesson.id!r} is also the id of {seen[lesson.id].name}"))
            continue
        seen[lesson.id] = path
        lessons.append(lesson)
    return lessons, errors


def load_lesson(path) -> Lesson:
    path = Path(path)
    doc = read_json_file(path, LessonError, MAX_LESSON_BYTES)
    where = str(path)
    if not isinstance(doc, dict):
        raise LessonError(f"{where}: a lesson is a JSON object, got {type(doc).__name__}")
    _fields(doc, FIELDS, where)
    rules = tuple(doc["rules"])
    if not rules:
        raise LessonError(f"{where}: rules: name at least one rules section, like \"§6\"")
    for k, ref in enumerate(rules):
        if not isinstance(ref, str) or not RULE_REF.match(ref):
            raise LessonError(f"{where}: rules[{k}]: a rules section is written like \"§7.4.6\" or a ruling like \"§11 Q2\", "
                              f"got {clip(ref)}")
    feedback = doc["feedback"]
    _fields(feedback, FEEDBACK_FIELDS, f"{where}: feedback")
    state = _position(doc["position"], where)
    legal = state.legal_actions()
    answers = []
    if not doc["answers"]:
        raise LessonError(f"{where}: answers: give at least one accepted answer")
    for k, text in enumerate(doc["answers"]):
        action = _action(state, text, f"{where}: answers[{k}]")
        if action not in legal:
            raise LessonError(f"{where}: answers[{k}]: {clip(text)} is not legal in the lesson's position: "
                              f"{_refusal(state, action)[0]}")
        answers.append(state.action_to_string(action))
    then = tuple(doc.get("then") or ())
    for text in answers:
        _follow_up(state, text, then, where)
    if len(set(answers)) == len(legal):
        raise LessonError(f"{where}: answers: every legal action is accepted, so the task has no wrong answer")
    specific = {}
    for text, advice in (feedback.get("actions") or {}).items():
        at = f"{where}: feedback.actions[{clip(text)}]"
        if not isinstance(advice, str) or not advice.strip() or len(advice) > 2000:
            raise LessonError(f"{at}: must be a text of 1..2000 characters")
        canonical = state.action_to_string(_action(state, text, at))
        if canonical in answers:
            raise LessonError(f"{at}: this action is an accepted answer; its words belong in 'success'")
        specific[canonical] = advice
    return Lesson(id=lesson_id(path), file=path, title=doc["title"], rules=rules, explanation=doc["explanation"],
                  task=doc["task"], position=doc["position"], answers=tuple(answers),
                  success=doc.get("success") or DEFAULT_SUCCESS, generic=feedback["generic"], specific=specific,
                  hint=doc.get("hint"), then=then, _prototype=state)


def _follow_up(state, answer: str, then: tuple, where: str) -> None:
    """Every follow-up action is legal, in order, after the accepted ``answer``."""
    after = state.clone()
    after.apply_action(after.string_to_action(answer))
    for k, text in enumerate(then):
        at = f"{where}: then[{k}]"
        if after.is_terminal() or after.is_chance_node():
            raise LessonError(f"{at}: after the answer {answer!r} {'the game is over' if after.is_terminal() else 'chance decides'}")
        action = _action(after, text, at)
        if action not in after.legal_actions():
            raise LessonError(f"{at}: {clip(text)} is not legal after the answer {answer!r}: {_refusal(after, action)[0]}")
        after.apply_action(action)


def _fields(doc: dict, spec: dict, where: str) -> None:
    unknown = sorted(set(doc) - set(spec))
    if unknown:
        raise LessonError(f"{where}: unknown field {clip(unknown[0])} (known: {', '.join(spec)})")
    for name, (kind, required, most) in spec.items():
        if name not in doc:
            if required:
                raise LessonError(f"{where}: missing field {name!r}")
            continue
        value = doc[name]
        if not isinstance(value, kind) or isinstance(value, bool):
            what = {str: "a text", list: "a list", dict: "an object"}[kind]
            raise LessonError(f"{where}: {name}: must be {what}, got {clip(value)}")
        if kind is str and not value.strip():
            raise LessonError(f"{where}: {name}: must not be empty")
        if most is not None and len(value) > most:
            unit = "characters" if kind is str else "entries"
            raise LessonError(f"{where}: {name}: {len(value):,} {unit}, more than the limit of {most}")


def _position(doc: dict, where: str):
    """The lesson's state, made by the game its configuration names; a position the game refuses
    (a malformed document, a broken invariant) or one without a decision is a LessonError."""
    if not isinstance(doc.get("config"), dict):
        raise LessonError(f"{where}: position: a position document is an object with a 'config' object")
    try:
        state = make_game(doc["config"]).state_from_json(doc)
    except (ImperialError, TypeError, KeyError, AttributeError) as exc:
        raise LessonError(f"{where}: position: {exc}") from None
    if state.is_terminal():
        raise LessonError(f"{where}: position: the game is over, so there is nothing to decide")
    if state.is_chance_node():
        raise LessonError(f"{where}: position: chance decides here, not a learner")
    return state


def _action(state, text, where: str):
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_ACTION_CHARS:
        raise LessonError(f"{where}: an action in the game's notation (a text of 1..{MAX_ACTION_CHARS} "
                          f"characters), got {clip(text)}")
    try:
        return state.string_to_action(text)
    except ImperialError as exc:
        raise LessonError(f"{where}: {exc}") from None


def _refusal(state, action) -> tuple[str, str | None]:
    """The engine's own reason for refusing ``action`` (applied to a copy), and the rule it names."""
    try:
        state.clone().apply_action(action)
    except ImperialError as exc:
        return str(exc), getattr(exc, "rule", None)
    return "the game accepts it but does not list it as legal", None


# ----- progress -----

def progress_path() -> Path:
    return user_folder() / PROGRESS_FILE


def _progress() -> dict:
    """The whole progress file (game -> lesson ids), ``{}`` when it is missing or unreadable."""
    try:
        doc = read_json_file(progress_path(), DataError, MAX_PROGRESS_BYTES)
    except (DataError, OSError):
        return {}
    return doc if isinstance(doc, dict) else {}


def load_progress(game: str = DEFAULT_GAME) -> set[str]:
    """The ids of ``game``'s lessons done."""
    done = _progress().get(game)
    return {i for i in done if isinstance(i, str)} if isinstance(done, list) else set()


def save_progress(game: str, done) -> None:
    """Keep ``done`` (lesson ids) as ``game``'s progress, written atomically (a reader never sees half
    a file); the other games' progress stays."""
    doc = _progress()
    doc[game] = sorted(done)
    path = progress_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(3)}.tmp")
    tmp.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, path)
