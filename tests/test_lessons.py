"""Lessons (core/lessons.py, data/imperial2030/lessons/, the Lessons page; docs/lessons.md): every lesson
loads, its position passes the engine's checks, its answers are legal and not everything is accepted;
its rules exist in the rules reference; together the lessons cover the rules; a malformed lesson file
is one error naming the file and the field; the page passes the right answer, gives each wrong one
its feedback, gives an illegal one the engine's reason, and keeps progress over a refresh."""

from __future__ import annotations

import importlib
import json
import re
import shutil
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from imperial_lab.core.interface import make_game
from imperial_lab.core.jsonio import MAX_DEPTH
from imperial_lab.core.games.imperial2030.action_words import choice_words
from imperial_lab.core.lessons import (ILLEGAL, RIGHT, UNREADABLE, WRONG, LessonError, lesson_id, lessons_dir,
                                       load_catalogue, load_lesson, load_lessons, load_progress, progress_path,
                                       save_progress)
from imperial_lab.core.games.imperial2030.rules_text import references, section, sections
from imperial_lab.dashboard.pages import page_path
from imperial_lab.dashboard.playkit import md
from tests.lab_fixtures import APP_SECONDS, component_svgs, open_page
from tests.toy_games import NIM

PAGE = page_path("lessons.py")
FILES = sorted(lessons_dir().glob("*.json"))
LESSONS = load_lessons()
BY_ID = {lesson.id: lesson for lesson in LESSONS}

# The topics of issue 10 -> the sections one lesson must cover together.
TOPICS = {
    "setup and bonds": {"§4.2", "§4.3", "§1"},
    "the rondel and its costs": {"§6"},
    "factory": {"§7.1"},
    "production": {"§7.2"},
    "import": {"§7.3"},
    "maneuver: fleets": {"§7.4.1"},
    "maneuver: armies and rail": {"§7.4.2", "§11 Q23"},
    "maneuver: convoy": {"§7.4.2"},
    "maneuver: canals": {"§7.4.3"},
    "battles": {"§7.4.4"},
    "hostile and friendly armies": {"§7.4.5"},
    "the last working factory": {"§7.4.6"},
    "taxation and power points": {"§7.6"},
    "investor turn and interest": {"§7.5"},
    "Swiss banks": {"§8", "§9"},
    "government changes": {"§9"},
    "end of game and scoring": {"§10"},
}
# Topics whose sections another topic shares: the lesson that teaches each (by its id).
TAUGHT_BY = {"maneuver: armies and rail": "armies-rail", "maneuver: convoy": "convoy", "maneuver: canals": "canals",
             "Swiss banks": "swiss-bank-veto", "government changes": "government-change"}


def test_at_least_twelve_lessons_each_with_its_own_id():
    assert len(LESSONS) >= 12 and len(LESSONS) == len(FILES)
    assert [lesson.id for lesson in LESSONS] == [lesson_id(path) for path in FILES]
    assert len(BY_ID) == len(LESSONS)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_a_lesson_loads_and_its_position_passes_the_engines_checks(path):
    lesson = load_lesson(path)
    doc = json.loads(path.read_text(encoding="utf-8"))
    state = make_game(doc["position"]["config"]).state_from_json(doc["position"])  # invariants checked
    assert not state.is_terminal() and not state.is_chance_node()
    assert make_game(doc["position"]["config"]).state_from_json(state.to_json()).to_json() == state.to_json()
    legal = {state.action_to_string(a) for a in state.legal_actions()}
    assert set(lesson.answers) <= legal and legal - set(lesson.answers)  # something to get wrong
    assert lesson.title and lesson.task and lesson.explanation and lesson.generic


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.id)
def test_a_lessons_answers_and_feedback(lesson):
    for answer in lesson.answers:
        result = lesson.check(answer)
        assert result.verdict == RIGHT and result.ok and result.events and result.advice == lesson.success
    legal = lesson.legal_texts()
    for text, advice in lesson.specific.items():
        result = lesson.check(text)
        assert result.verdict == (WRONG if text in legal else ILLEGAL) and result.advice == advice
        if result.verdict == ILLEGAL:  # the engine's own reason and the rule it names
            assert "[RULES.md §" in result.reason and result.rule and section(result.rule)
    others = [t for t in legal if t not in lesson.answers and t not in lesson.specific]
    if others:  # a wrong move the lesson has no words of its own for: the generic feedback
        assert lesson.check(others[0]).verdict == WRONG and lesson.check(others[0]).advice == lesson.generic
    assert lesson.check("fly to the moon").verdict == UNREADABLE
    assert lesson.check("   ").verdict == UNREADABLE


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.id)
def test_the_sections_a_lesson_names_exist_in_the_rules_reference(lesson):
    texts = [lesson.explanation, lesson.task, lesson.success, lesson.generic, lesson.hint or "",
             *lesson.specific.values()]
    named = set(lesson.rules) | {ref for text in texts for ref in references(text)}
    assert not sorted(ref for ref in named if section(ref) is None)
    assert set(references(lesson.explanation)) <= set(lesson.rules)  # the rules it covers are listed


def test_together_the_lessons_cover_the_rules():
    for topic, refs in TOPICS.items():
        covering = [lesson.id for lesson in LESSONS if refs <= set(lesson.rules)]
        assert covering, f"no lesson covers {topic} ({', '.join(sorted(refs))})"
        if topic in TAUGHT_BY:
            assert TAUGHT_BY[topic] in covering, topic


def test_the_lessons_answers_are_of_many_kinds():
    """Together the answers exercise the rondel, bonds, factories, production, import, units, battles,
    destruction and the veto: each a different decision of the engine."""
    kinds = {answer.split()[0] for lesson in LESSONS for answer in lesson.answers}
    assert {"rondel", "buy", "upgrade", "build", "produce", "import", "move", "fight", "destroy", "veto"} <= kinds


def test_a_follow_up_shows_what_the_answer_leads_to():
    result = BY_ID["battles"].check("fight US fleet")
    (text, events), = result.then
    placed = [e.to_json() for e in events if e.to_json()["kind"] == "flag_placed"]
    assert text == "end maneuver" and placed and placed[0]["nation"] == "BR"


# ----- malformed lesson files -----

def good_doc() -> dict:
    return json.loads(FILES[1].read_text(encoding="utf-8"))  # the rondel lesson


def write(tmp_path, doc, name="05-broken.json") -> Path:
    path = tmp_path / name
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    return path


def broken(change):
    doc = good_doc()
    change(doc)
    return doc


def deep() -> str:
    return '{"title": ' + "[" * (MAX_DEPTH + 5) + "]" * (MAX_DEPTH + 5) + "}"


MALFORMED = {
    "bad JSON": ('{"title": "x",', "not valid JSON"),
    "deep JSON": (deep(), f"nested more than {MAX_DEPTH} levels"),
    "not an object": ("[1, 2]", "a lesson is a JSON object"),
    "missing field": (broken(lambda d: d.pop("task")), "missing field 'task'"),
    "unknown field": (broken(lambda d: d.update(answer="rondel taxation")), "unknown field 'answer'"),
    "wrong type": (broken(lambda d: d.update(answers="rondel taxation")), "answers: must be a list"),
    "empty text": (broken(lambda d: d.update(title="  ")), "title: must not be empty"),
    "bad rule": (broken(lambda d: d.update(rules=["7.4"])), "rules[0]: a rules section is written like"),
    "no rule": (broken(lambda d: d.update(rules=[])), "rules: name at least one"),
    "no answer": (broken(lambda d: d.update(answers=[])), "answers: give at least one"),
    "illegal answer": (broken(lambda d: d.update(answers=["rondel factory"])),
                       "answers[0]: 'rondel factory' is not legal in the lesson's position: illegal action "
                       "'rondel factory': moving 5 spaces costs 6m"),
    "unreadable answer": (broken(lambda d: d.update(answers=["rondel beach"])),
                          "answers[0]: cannot parse action 'rondel beach'"),
    "everything accepted": (broken(lambda d: d.update(answers=["rondel import", "rondel production_2",
                                                                "rondel maneuver_2", "rondel taxation"])),
                            "every legal action is accepted"),
    "feedback without generic": (broken(lambda d: d["feedback"].pop("generic")), "feedback: missing field 'generic'"),
    "feedback for the answer": (broken(lambda d: d["feedback"]["actions"].update({"rondel taxation": "yes"})),
                                "feedback.actions['rondel taxation']: this action is an accepted answer"),
    "feedback for nonsense": (broken(lambda d: d["feedback"]["actions"].update({"dance": "no"})),
                              "feedback.actions['dance']: cannot parse action"),
    "position without config": (broken(lambda d: d["position"].pop("config")), "position: a position document"),
    "position breaking an invariant": (broken(lambda d: d["position"]["nations"]["CN"].update(government=1)),
                                       "position: position breaks an invariant"),
    "position with a bad region": (broken(lambda d: d["position"]["nations"]["CN"].update(factories=["atlantis"])),
                                   "position: position nations.CN.factories: unknown region 'atlantis'"),
    "position of an unknown game": (broken(lambda d: d["position"]["config"].update(game="chess")),
                                    "position: unknown game 'chess'"),
    "position at the end": (broken(lambda d: d["position"]["decision"].update(kind="game_over")),
                            "position: position breaks an invariant: the game is over but"),
    "follow-up not legal": (broken(lambda d: d.update(then=["build berlin"])),
                            "then[0]: 'build berlin' is not legal after the answer 'rondel taxation'"),
}


@pytest.mark.parametrize("case", MALFORMED, ids=str)
def test_a_malformed_lesson_is_one_error_naming_the_file_and_the_field(tmp_path, case):
    doc, why = MALFORMED[case]
    path = write(tmp_path, doc)
    with pytest.raises(LessonError) as info:
        load_lesson(path)
    message = str(info.value)
    assert message.startswith(f"{path}:") and why in message and "\n" not in message
    assert len(message) < 600


def test_a_lesson_file_too_big_is_refused_before_it_is_read(tmp_path):
    path = write(tmp_path, " " * (300 * 2**10) + json.dumps(good_doc()))
    with pytest.raises(LessonError, match=f"^{path}: more than"):
        load_lesson(path)


def test_a_catalogue_with_a_bad_file_loads_the_others_and_names_the_bad_one(tmp_path):
    shutil.copy(FILES[0], tmp_path)
    shutil.copy(FILES[1], tmp_path)
    bad = write(tmp_path, '{"title": ', "03-bad.json")
    lessons, errors = load_catalogue(tmp_path)
    assert [lesson.id for lesson in lessons] == [lesson_id(FILES[0]), lesson_id(FILES[1])]
    assert len(errors) == 1 and str(errors[0]).startswith(f"{bad}: not valid JSON")
    with pytest.raises(LessonError, match="03-bad.json"):
        load_lessons(tmp_path)
    shutil.copy(FILES[1], tmp_path / "09-rondel-costs.json")  # the same id twice
    _, errors = load_catalogue(tmp_path)
    assert any("lesson id 'rondel-costs' is also the id of" in str(e) for e in errors)
    _, errors = load_catalogue(tmp_path / "none")
    assert "no lesson files" in str(errors[0])


# ----- the page -----

def page(**query) -> AppTest:
    at = AppTest.from_file(str(PAGE), default_timeout=APP_SECONDS)
    for key, value in query.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, at.exception
    return at


def choose(at: AppTest, lesson, text: str, key: str = "choice", button: str = "check") -> AppTest:
    widgets = [w for w in (*at.radio, *at.selectbox) if w.key == f"lessons_{key}_{lesson.id}"]
    widgets[0].set_value(text)
    at.button(key=f"lessons_{button}").click().run()
    assert not at.exception, at.exception
    return at


def shown_views(at: AppTest) -> dict:
    """The lesson's views as drawn: the board's SVG, the nations' table, the bonds' heatmap."""
    text = [m.value for m in at.markdown]
    return {"board": component_svgs(at)[0], "nations": next(t for t in text if t.startswith("| nation |")),
            "bonds": next(t for t in text if 'class="bonds-table"' in t)}


def query(at: AppTest, key: str) -> str:
    value = at.query_params.get(key, "")
    return value[0] if isinstance(value, list) else value


# The page with a few lessons (every lesson's answers are checked above, without the page): a
# choice of bonds, a move across the Pacific (a view of its own), an illegal move (a canal).
PAGE_LESSONS = ["setup-bonds", "fleets", "canals"]


@pytest.mark.parametrize("lesson_key", PAGE_LESSONS)
def test_the_lessons_page_passes_the_right_answer_and_explains_a_wrong_one(lesson_key):
    lesson = BY_ID[lesson_key]
    at = page(lesson=lesson.id)
    assert at.header[0].value.endswith(lesson.title)
    assert any("/rules?section=" in c.value for c in at.caption)  # the rules it covers, as links
    board, rondel = component_svgs(at)
    assert "imperial-board" in board and "imperial-rondel" in rondel and 'data-click="region:' in board
    assert lesson.task in at.info[0].value
    legal = lesson.legal_texts()
    labels = [at.radio(key=f"lessons_choice_{lesson.id}").format_func(t) for t in legal] if len(legal) <= 10 else []
    assert not [label for label in labels if label in legal]  # in words, never the notation
    wrong = next((t for t in lesson.specific if t in legal), None) or next(t for t in legal if t not in lesson.answers)
    before = shown_views(at)
    choose(at, lesson, wrong)
    assert at.warning and lesson.specific.get(wrong, lesson.generic)[:40] in at.warning[0].value
    assert f"**{md(choice_words(wrong))}**" in at.warning[0].value and not at.success
    assert any("After your move" in m.value for m in at.markdown)  # the views follow the move
    after = shown_views(at)
    assert after["board"] != before["board"]
    if wrong.startswith("buy"):  # a bond bought: the bond heatmap and the treasuries show it
        assert after["bonds"] != before["bonds"] and after["nations"] != before["nations"]
    illegal = next((t for t in lesson.specific if t not in legal), None)
    if illegal is not None:
        choose(at, lesson, illegal, key="other", button="try")
        error = at.error[0].value
        assert "Not allowed: " in error and "RULES.md" not in error and lesson.specific[illegal][:40] in error
    choose(at, lesson, lesson.answers[0])
    assert at.success and lesson.success[:40] in at.success[0].value
    assert lesson.id in load_progress("imperial2030")  # kept in the user folder
    assert at.selectbox(key="lessons_pick").value == lesson.id
    assert "1 of" in at.get("progress")[0].proto.text
    save_progress("imperial2030", set())


def test_each_lesson_opens_on_its_own_view_of_the_board():
    """The view is the lesson's (the smallest showing its regions), never the one chosen in another."""
    at = page(lesson="battles")
    assert at.get("button_group")[0].value == "Americas"
    at = page(lesson="convoy")
    assert at.get("button_group")[0].value == "Asia"
    at.get("button_group")[0].set_value("Europe").run()
    at.selectbox(key="lessons_pick").set_value("fleets").run()  # across the Pacific's edge: the world
    assert at.get("button_group")[0].value == "World" and 'aria-label="the board (world)"' in component_svgs(at)[0]


def test_progress_is_kept_in_the_user_folder_and_the_next_lesson_button():
    first, second = LESSONS[0], LESSONS[1]
    save_progress("imperial2030", set())
    at = page()
    assert at.selectbox(key="lessons_pick").value == first.id  # a first visit opens the first lesson
    choose(at, first, first.answers[0])
    assert progress_path().is_file() and load_progress("imperial2030") == {first.id}
    again = page()  # a new session, a plain address (/lessons): the user folder remembers
    assert again.selectbox(key="lessons_pick").value == second.id  # the first lesson not done
    assert f"1 of {len(LESSONS)} lessons done" == again.get("progress")[0].proto.text
    again = page(lesson=first.id)
    assert "✓" in again.header[0].value
    again.button(key="lessons_next").click().run()
    assert again.selectbox(key="lessons_pick").value == second.id and query(again, "lesson") == second.id
    again.button(key="lessons_reset").click().run()
    assert load_progress("imperial2030") == set() and f"0 of {len(LESSONS)}" in again.get("progress")[0].proto.text


def test_checking_nothing_asks_for_a_move():
    at = page(lesson="rondel-costs")
    at.button(key="lessons_check").click().run()
    assert "Choose a move first" in at.info[-1].value


def test_the_page_names_a_bad_lesson_file_and_shows_the_others(tmp_path, monkeypatch):
    shutil.copy(FILES[0], tmp_path)
    write(tmp_path, broken(lambda d: d.update(answers=["rondel factory"])), "02-broken.json")
    monkeypatch.setenv("IMPERIAL_LAB_LESSONS", str(tmp_path))
    at = page()
    assert "02-broken.json" in at.error[0].value and "answers[0]" in at.error[0].value
    assert at.selectbox(key="lessons_pick").options[0].endswith(LESSONS[0].title)


def test_the_lessons_the_rules_reference_names_exist():
    named = {re.sub(r"\s+", " ", title) for s in sections().values()
             for title in re.findall(r'\(lessons? "([^"]+)"\)', s.body, re.DOTALL)}
    assert len(named) >= 10 and named <= {lesson.title for lesson in LESSONS}


def _app():
    from imperial_lab.dashboard.app import run

    run()


def test_the_router_lists_lessons_and_rules_and_opens_them_before_any_dataset(tmp_path, monkeypatch):
    """Navigation labels "Lessons" and "Rules"; neither page waits for a first start's dataset."""
    from imperial_lab.dashboard import frame
    from imperial_lab.dashboard.pages import all_pages, page_path

    listed = {page.path.name: page for page in all_pages()}
    assert listed["lessons.py"].title == "Lessons" and not listed["lessons.py"].reads_runs
    assert listed["rules.py"].title == "Rules" and not listed["rules.py"].reads_runs
    monkeypatch.setenv("IMPERIAL_LAB_CATALOG", str(tmp_path / "none.duckdb"))
    monkeypatch.setattr(frame, "ensure_dataset", lambda catalog: pytest.fail("the dataset was played"))
    at = AppTest.from_function(_app, default_timeout=APP_SECONDS)
    at.switch_page(str(page_path("lessons.py"))).run()
    assert not at.exception and at.title[0].value == "Lessons"
    at.switch_page(str(page_path("rules.py"))).run()
    assert not at.exception and at.title[0].value == "Rules of Imperial 2030"


# ----- any game of the interface -----

def test_lessons_work_for_any_game_of_the_interface(tmp_path, monkeypatch):
    from imperial_lab.core import lessons, registry
    assert "imperial_lab.core.games.imperial2030" not in Path(lessons.__file__).read_text(encoding="utf-8")  # the interface only
    monkeypatch.setitem(registry.GAMES, "nim", NIM)
    doc = {"title": "Leave four", "rules": ["§1"], "explanation": "Take 1 to 3 stones; the last one wins.",
           "task": "Seven stones: leave your opponent a multiple of four.", "answers": ["take 3"],
           "feedback": {"generic": "Count what is left.", "actions": {"take 4": "At most three."}},
           "position": {"config": {"game": "nim"}, "heap": 7}}
    lesson = load_lesson(write(tmp_path, doc, "01-leave-four.json"))
    assert lesson.id == "leave-four" and lesson.legal_texts() == ["take 1", "take 2", "take 3"]
    assert lesson.check("take 3").ok and lesson.check("take 3").events == ["3 taken"]
    assert lesson.check("take 1").verdict == WRONG and lesson.check("take 1").advice == "Count what is left."
    illegal = lesson.check("take 4")
    assert illegal.verdict == ILLEGAL and illegal.rule == "nim" and "cannot take 4 of 7" in illegal.reason
    assert illegal.advice == "At most three."


# ----- the lessons of Imperia and Imperial Powers -----

OTHER_GAMES = {"imperia": ("imperia_lessons", 6), "imperial_powers": ("ip_lessons", 6)}


@pytest.mark.parametrize("game", OTHER_GAMES)
def test_every_lesson_of_the_other_games_is_checked_by_the_engine(game):
    """At least six lessons each; every answer right, every lesson's move with words of its own judged
    as the file says (a legal one wrong, an illegal one refused by the engine with its rule), and every
    rule they name in that game's rules reference."""
    from imperial_lab.core.registry import plugin

    reference = importlib.import_module(f"imperial_lab.core.games.{game}.rules_text").REFERENCE
    lessons, errors = load_catalogue(lessons_dir(game))
    assert not errors and len(lessons) >= OTHER_GAMES[game][1]
    assert all(lesson.state().game.name == plugin(game).name for lesson in lessons)
    for lesson in lessons:
        assert all(lesson.check(answer).ok for answer in lesson.answers)
        legal = lesson.legal_texts()
        assert set(legal) - set(lesson.answers)  # something to get wrong
        for text in lesson.specific:
            result = lesson.check(text)
            assert result.verdict == (WRONG if text in legal else ILLEGAL), (lesson.id, text)
            if result.verdict == ILLEGAL:
                assert reference.resolve(result.rule) is not None, (lesson.id, result.rule)
        texts = [lesson.explanation, lesson.task, lesson.success, lesson.generic, *lesson.specific.values()]
        named = set(lesson.rules) | {ref for text in texts for ref in reference.references(text)}
        assert not [ref for ref in named if reference.section(ref) is None], lesson.id


@pytest.mark.parametrize("game", OTHER_GAMES)
def test_the_other_games_lessons_pages_judge_a_move_in_words(game):
    """The game's Lessons page: choices in words, a wrong move's feedback, the right one passes and is
    kept in the user folder under the game's name."""
    url, _ = OTHER_GAMES[game]
    lesson = load_catalogue(lessons_dir(game))[0][-1]
    at = open_page(url, {"lesson": lesson.id})
    assert at.header[0].value.endswith(lesson.title) and lesson.task in at.info[0].value
    prefix = url
    choice = [w for w in (*at.radio, *at.selectbox) if w.key == f"{prefix}_choice_{lesson.id}"][0]
    assert not [text for text in lesson.legal_texts() if choice.format_func(text) == text]  # in words
    wrong = next(t for t in lesson.specific if t in lesson.legal_texts())
    choice.set_value(wrong)
    at.button(key=f"{prefix}_check").click().run()
    assert not at.exception and lesson.specific[wrong][:30] in at.warning[0].value
    [w for w in (*at.radio, *at.selectbox) if w.key == f"{prefix}_choice_{lesson.id}"][0].set_value(lesson.answers[0])
    at.button(key=f"{prefix}_check").click().run()
    assert lesson.success[:30] in at.success[0].value and lesson.id in load_progress(game)
    save_progress(game, set())
