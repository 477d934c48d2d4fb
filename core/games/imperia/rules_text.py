"""Imperia's rules reference: the rules in the lab's own words (data/imperia/rules/rules.md), one
section per heading, numbered like RULES.md (``# §6 ...``, ``## §6.4 ...``, ``## §11 G21 ...``), and
links to a section's place on the Imperia rules page (``/imperia_rules?section=6.4``). Plain
functions, no Streamlit: the explorer, the Play page and tests share them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from imperial_lab.core.errors import DataError
from imperial_lab.core.files import data_path
from imperial_lab.core.jsonio import read_text

RULES_FILE = data_path("imperia", "rules", "rules.md")
RULES_PAGE = "/imperia_rules"  # pages.py: views/imperia_rules.py
QUERY_KEY = "section"
_HEADING = re.compile(r"^(#{1,3})\s+(§\d{1,2}(?:\.\d{1,2})?(?: G\d{1,2})?)\s+(\S.*?)\s*$")
_IN_TEXT = re.compile(r"(?<!\[)§\d{1,2}(?:\.\d{1,2})?(?![.\d]*\d)(?!\])")


@dataclass(frozen=True)
class Section:
    ref: str  # "§6.4", "§11 G21"
    title: str
    level: int  # 1 for a top-level section
    body: str

    @property
    def key(self) -> str:
        """The form in URLs: ``6.4``, ``11-G21``."""
        return self.ref.lstrip("§").replace(" ", "-")

    @property
    def heading(self) -> str:
        return f"{self.ref} {self.title}"


@lru_cache(maxsize=1)
def sections() -> dict[str, Section]:
    """Every section by its reference, in the file's order; DataError for a file that cannot be read."""
    text = read_text(RULES_FILE, DataError, 256 * 2**10)
    found: dict[str, Section] = {}
    current: tuple[str, str, int] | None = None
    body: list[str] = []

    def close():
        if current is not None:
            found[current[0]] = Section(current[0], current[1], current[2], "\n".join(body).strip())

    for line in text.splitlines():
        match = _HEADING.match(line)
        if match:
            close()
            current, body = (match[2], match[3], len(match[1])), []
        else:
            body.append(line)
    close()
    return found


def ref_of(rule: str) -> str:
    """The reference of an event's ``rule``: ``§6.5`` stays, a ruling ``G21`` is ``§11 G21``."""
    return f"§11 {rule}" if rule.startswith("G") else rule


def section(rule: str) -> Section | None:
    """The section of ``rule`` (``§6.5``, ``G21``, ``6.4``, ``11-G21``), or its enclosing one; None if none."""
    ref = rule.strip().replace("-", " ")
    ref = ref_of(ref if ref.startswith(("§", "G")) else f"§{ref}")
    everything = sections()
    while ref:
        if ref in everything:
            return everything[ref]
        ref = ref.rsplit(" ", 1)[0] if " " in ref else ref.rsplit(".", 1)[0] if "." in ref else ""
    return None


def rule_title(rule: str) -> str:
    """``§6.5 Placing a tile``: the rule's heading in the reference (the bare rule if it has none)."""
    found = section(rule)
    return f"{ref_of(rule)} {found.title}" if found else rule


def section_url(rule: str) -> str:
    found = section(rule)
    return f"{RULES_PAGE}?{QUERY_KEY}={found.key if found else rule.lstrip('§')}"


def section_link(rule: str, label: str | None = None) -> str:
    """A markdown link to the rule's section on the Imperia rules page."""
    return f"[{label or ref_of(rule)}]({section_url(rule)})"


def link_sections(text: str) -> str:
    """Every ``§x.y`` reference of a markdown text as a link to its section."""
    return _IN_TEXT.sub(lambda m: section_link(m[0]), text)


def top_sections() -> list[Section]:
    return [s for s in sections().values() if s.level == 1]


def subsections(ref: str) -> list[Section]:
    """The sections inside top-level section ``ref`` (``§6``: §6.1 … §6.7; ``§11``: its rulings)."""
    inner = []
    for s in sections().values():
        if s.ref != ref and (s.ref.startswith(ref + ".") or s.ref.startswith(ref + " ")):
            inner.append(s)
    return inner
