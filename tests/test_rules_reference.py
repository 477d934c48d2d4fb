"""The rules reference (core/games/imperial2030/rules_text.py, data/imperial2030/rules/, the Rules page): every section
the engine, the explorer and the terminal texts cite has a text, numbered like RULES.md; links and
their spellings; a malformed rules file is one error naming it; the text is the lab's own words."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from imperial_lab.core.bots import make_bot
from imperial_lab.core.errors import DataError
from imperial_lab.core.gamelog import write_log
from imperial_lab.core.games.imperial2030 import rules_text
from imperial_lab.core.games.imperial2030.explain import RULE_TITLES, explain
from imperial_lab.core.games.imperial2030.texts import WHAT
from imperial_lab.core.play import play_game
from imperial_lab.core.games.imperial2030.rules_text import (REFERENCE, link_sections, normalize, resolve, section,
                                                            section_link, section_url, sections)
from imperial_lab.core.rules_text import MAX_FILE_BYTES, Reference
from imperial_lab.dashboard.games.imperial2030.replay import timeline_from_text
from imperial_lab.dashboard.pages import page_path
from tests.golden_support import RULES_FINGERPRINT, gram_hash, words
from tests.lab_fixtures import APP_SECONDS

ROOT = Path(__file__).resolve().parents[1]
RULES_PAGE = page_path("rules.py")
EXPLORER_PAGE = page_path("explorer.py")
IMPERIAL_DASHBOARD = ROOT / "core" / "games" / "imperial2030"
RULES = json.loads(RULES_FINGERPRINT.read_text(encoding="utf-8"))  # RULES.md's numbers and 10-word runs
# "§7.4.6", "§11 Q2", and "§11 Q1/Q10" (two questions of one section)
CITED = re.compile(r"§(\d+(?:\.\d+)*)((?: Q\d+)(?:/Q\d+)*)?")
LINK = re.compile(r"\]\(/rules\?section=([^)\s]+)\)")


def cited_in(files) -> set[str]:
    refs = set()
    for path in files:
        for number, questions in CITED.findall(Path(path).read_text(encoding="utf-8")):
            if questions:
                refs |= {f"§{number} {q}" for q in re.findall(r"Q\d+", questions)}
            else:
                refs.add(f"§{number}")
    return refs


def test_every_section_the_engine_cites_has_a_text():
    cited = cited_in((ROOT / "core" / "games" / "imperial2030").glob("*.py"))
    assert {"§7.4.6", "§7.5", "§9", "§10", "§11 Q2", "§4.3.4", "§8.1", "§8.4"} <= cited  # the grep finds them
    missing = sorted(ref for ref in cited if section(ref) is None)
    assert not missing, f"sections the engine cites without a text in data/imperial2030/rules/: {missing}"
    for ref in cited:
        assert section(ref).body.strip(), ref


def test_the_explorer_and_the_terminal_texts_cite_only_sections_with_a_text():
    cited = cited_in([IMPERIAL_DASHBOARD / "explain.py", EXPLORER_PAGE,
                      ROOT / "core" / "games" / "imperial2030" / "texts.py"])
    cited |= set(RULE_TITLES) | {rule for _, rule in WHAT.values()}
    assert not sorted(ref for ref in cited if section(ref) is None)


def test_numbered_like_rules_md():
    """Every numbered heading of RULES.md (## 7. …, ### 7.4 …, #### 7.4.6 …) has its section here."""
    numbers, questions = RULES["numbers"], RULES["questions"]
    assert len(numbers) > 30
    assert not [n for n in numbers if section(f"§{n}") is None]
    assert len(questions) == 28 and not [q for q in questions if section(f"§11 Q{q}") is None]


def test_the_text_is_written_in_our_own_words():
    """No run of 10 words of RULES.md is repeated, apart from lists of names and numbers (compared
    through the hashes of RULES.md's runs in tests/golden/rules_md.json)."""
    n = RULES["gram_words"]
    grams = {RULES["grams"][k:k + 8] for k in range(0, len(RULES["grams"]), 8)}
    assert len(grams) > 5000
    copied = []
    for path in sorted(rules_text.RULES_DIR.glob("*.md")):
        ours = words(path.read_text(encoding="utf-8"))
        for k in range(len(ours) - n):
            gram = ours[k:k + n]
            names = sum(w.isdigit() or w in NAME_WORDS for w in gram)
            if gram_hash(gram) in grams and names < n // 2:
                copied.append(f"{path.name}: {' '.join(gram)}")
    assert not copied, copied[:5]


NAME_WORDS = {"ru", "russia", "cn", "china", "in", "india", "br", "brazil", "us", "eu", "factory", "production",
              "maneuver", "investor", "import", "taxation", "rondel", "spaces", "clockwise", "–"}


def test_sections_are_read_in_order_with_their_subsections():
    tops = [s.ref for s in REFERENCE.top_sections()]
    assert tops == [f"§{k}" for k in range(14)]
    assert [s.ref for s in REFERENCE.subsections("§7.4")] == [f"§7.4.{k}" for k in range(1, 9)]
    assert [s.ref for s in REFERENCE.subsections("§11")] == [f"§11 Q{k}" for k in range(1, 29)]
    assert section("§7.4.6").title == "Protection of the last working factory" and section("§7.4.6").level == 3
    assert all(s.file.endswith(".md") for s in sections().values())


def test_references_and_their_links():
    assert normalize("7.4.6") == normalize("§7.4.6") == normalize(" §7.4.6 ") == "§7.4.6"
    assert normalize("11-Q2") == normalize("§11 q2") == normalize("11 Q2") == "§11 Q2"
    assert normalize("beach") is None and normalize("") is None
    assert REFERENCE.key("§11 Q2") == "11-Q2" and REFERENCE.key("§7.4.6") == "7.4.6"
    assert normalize("Q2") == "§11 Q2"  # a ruling named alone
    assert section_url("§7.4.6") == "/rules?section=7.4.6"
    assert section_url("§11 Q2") == "/rules?section=11-Q2"
    assert section_url("§7.4.9") == "/rules?section=7.4"  # a newer engine's subsection: its enclosing section
    assert section_url("§99") == "/rules"
    assert resolve("§7.4.9").ref == "§7.4" and resolve("§99") is None
    assert section_link("§7.6") == "[§7.6 Taxation](/rules?section=7.6)"
    assert section_link("§7.6", "here") == "[here](/rules?section=7.6)"


def test_link_sections_links_every_reference_once_and_whole():
    text = "pays 3m (§6); see §7.4.6. Then §11 Q1/Q10, §5-§7, [§9](/x) and §99."
    assert link_sections(text) == ("pays 3m ([§6](/rules?section=6)); see [§7.4.6](/rules?section=7.4.6). Then "
                                   "[§11 Q1](/rules?section=11-Q1)/Q10, [§5](/rules?section=5)-[§7](/rules?section=7), "
                                   "[§9](/x) and §99.")
    assert link_sections(link_sections(text)) == link_sections(text)  # links are not linked again


def explorer_links(markdown: str) -> list[str]:
    return LINK.findall(markdown)


def test_every_event_sentence_links_to_an_existing_section():
    """The explorer shows ``link_sections(explain(event))``: over whole games every link resolves to a
    section of exactly that number (no fallback to an enclosing one)."""
    seen = set()
    for seed in (1, 2):
        played = play_game({"game": "imperial2030", "players": 4}, [make_bot("heuristic", seed * 10 + p)
                                                                     for p in range(4)], seed)
        log = io.StringIO()
        write_log(log, played, seed)
        for snapshot in timeline_from_text(log.getvalue()).snapshots:
            for action in snapshot.actions:
                for event in action.events:
                    keys = explorer_links(link_sections(explain(event, snapshot.nation)))
                    assert len(keys) == 1, event
                    seen.add(keys[0])
    assert {"4.2", "6", "7.5", "7.6", "10"} <= seen
    assert not [key for key in seen if section(key) is None]


@pytest.fixture(scope="module")
def move_log() -> str:
    played = play_game({"game": "imperial2030", "players": 3},
                       [make_bot("heuristic", p) for p in range(3)], 5)
    log = io.StringIO()
    write_log(log, played, 5)
    return log.getvalue()


def test_the_explorer_page_links_its_rules(move_log, tmp_path, monkeypatch):
    monkeypatch.setenv("IMPERIAL_LAB_CATALOG", str(tmp_path / "none.duckdb"))
    at = AppTest.from_file(str(EXPLORER_PAGE), default_timeout=APP_SECONDS).run()
    at.radio(key="explorer_source").set_value("an uploaded move log").run()
    at.file_uploader(key="explorer_upload").upload("game.jsonl", move_log.encode()).run()
    assert not at.exception
    for turn in (0, 1, 5):
        at.select_slider(key="explorer_turn").set_value(turn).run()
        texts = "\n".join(m.value for m in at.markdown) + "\n" + "\n".join(c.value for c in at.caption)
        keys = explorer_links(texts)
        assert "6" in keys and "9" in keys  # the rondel's and the bonds' headings
        assert "7.4.5" in keys  # the board's key: the stance of armies
        assert len(keys) > 3 and not [key for key in keys if section(key) is None]
        if turn == 0:  # the rules of the step, under its events, with RULES.md's headings
            assert "Rules: [§4.2 Standard setup](/rules?section=4.2)" in texts


# ----- the Rules page -----

def rules_page(section_key: str | None = None) -> AppTest:
    at = AppTest.from_file(str(RULES_PAGE), default_timeout=APP_SECONDS)
    if section_key is not None:
        at.query_params["section"] = section_key
    at.run()
    assert not at.exception, at.exception
    return at


@pytest.mark.parametrize("key, ref", [("7.4.6", "§7.4.6"), ("11-Q2", "§11 Q2"), ("7", "§7"), ("8.4", "§8.4")])
def test_the_rules_page_shows_the_asked_section_first(key, ref):
    at = rules_page(key)
    asked = section(ref)
    shown = [m.value for m in at.markdown]
    assert any(m.startswith(f"## {asked.heading}") for m in shown[:2]), shown[:2]
    assert asked.body.splitlines()[0] in "\n".join(shown[:2])
    assert at.selectbox(key="rules_goto").value == ref
    open_ones = [e.label for e in at.expander if e.proto.expanded]
    holding = ref.split(".")[0].split(" ")[0]
    assert open_ones == [section(holding).heading]
    if asked.level > 1:  # the way back up: links to the enclosing sections
        assert f"(/rules?section={REFERENCE.key(holding)})" in at.caption[1].value


def test_the_rules_page_without_a_section_lists_every_section():
    at = rules_page()
    assert [e.label for e in at.expander] == [s.heading for s in REFERENCE.top_sections()]
    assert not any(e.proto.expanded for e in at.expander)
    text = "\n".join(m.value for m in at.markdown)
    for found in sections().values():
        assert found.heading in text or found.level == 1
    assert "[§7.4.6](/rules?section=7.4.6)" in text  # references inside the text are links


def test_an_unknown_section_is_said_and_its_enclosing_one_shown():
    at = rules_page("7.4.9")
    assert "7.4.9" in at.warning[0].value and at.markdown[0].value.startswith("## §7.4 ")
    at = rules_page("beach")
    assert "beach" in at.warning[0].value


def test_choosing_a_section_puts_it_in_the_address():
    at = rules_page()
    at.selectbox(key="rules_goto").set_value("§7.5").run()
    assert at.query_params["section"] == ["7.5"] or at.query_params["section"] == "7.5"
    assert at.markdown[0].value.startswith("## §7.5 Investor")


# ----- a malformed rules folder -----

@pytest.mark.parametrize("name, text, why", [
    ("07-x.md", "Some text\n# §7 Title\n", "text before the first heading"),
    ("07-x.md", "# §7 Title\n## Maneuver\n", "must start with its reference"),
    ("07-x.md", "## §7.1 Title\n", "must start with a top-level heading"),
    ("08-x.md", "# §7 Title\n", "in a file numbered 08"),
    ("07-x.md", "# §7 Title\n# §8 Other\n", "one file per section"),
    ("07-x.md", "# §7 Title\n## §8.1 Wrong place\n", "does not belong in §7"),
    ("07-x.md", "", "no section in this file"),
])
def test_a_malformed_rules_file_is_one_error_naming_it(tmp_path, name, text, why):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as info:
        REFERENCE.parse_file(path)
    assert str(info.value).startswith(str(path)) and why in str(info.value)


def test_a_section_given_twice_or_a_huge_file_is_refused(tmp_path):
    (tmp_path / "01-a.md").write_text("# §1 One\n## §1.1 Sub\n", encoding="utf-8")
    (tmp_path / "01-b.md").write_text("# §1 Again\n", encoding="utf-8")
    with pytest.raises(DataError, match="01-b.md: section §1 is already in 01-a.md"):
        _ = Reference(tmp_path, "/rules", "§11", "Q").sections
    huge = tmp_path / "big" / "02-big.md"
    huge.parent.mkdir()
    huge.write_text("# §2 Big\n" + "x" * (MAX_FILE_BYTES + 1), encoding="utf-8")
    with pytest.raises(DataError, match="more than"):
        _ = Reference(huge.parent, "/rules", "§11", "Q").sections
