"""Imperial 2030's rules reference (imperial_lab.core.rules_text): the rules in the lab's own words,
one Markdown file per top-level section in ``data/imperial2030/rules/`` (``07-actions.md`` holds §7
and its subsections, down to ``§7.4.6``; the rulings are ``§11 Q1`` …), shown on the Rules page
(``/rules?section=7.4.6``). Plain functions, no Streamlit: the explorer, the lessons, the Play page,
the terminal's words and tests share them.
"""

from __future__ import annotations

from imperial_lab.core.files import data_path
from imperial_lab.core.rules_text import Reference, Section

RULES_DIR = data_path("imperial2030", "rules")
REFERENCE = Reference(RULES_DIR, "/rules", rulings="§11", letter="Q", depth=4)

# The names the pages, the lessons and the terminal's words use.
section, resolve = REFERENCE.section, REFERENCE.resolve
section_url, section_link, link_sections = REFERENCE.url, REFERENCE.link, REFERENCE.link_all
references, normalize, parent = REFERENCE.references, REFERENCE.normalize, REFERENCE.parent


def sections() -> dict[str, Section]:
    """Every section by its reference, in reading order."""
    return REFERENCE.sections
