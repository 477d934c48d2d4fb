"""Imperial Powers' rules reference: the rules in the lab's own words (data/imperial_powers/rules/rules.md),
one section per heading, numbered like RULES.md (``# §5 ...``, ``## §5.7 ...``, and the rulings as
``## §9 R12 ...``), and links to a section's place on the rules page (``/ip_rules?section=5.7``,
``?section=R12``). Plain functions, no Streamlit: the explorer, the Play page and tests share them.

``Reference`` holds what is particular to one game's reference (its file, its page, the section of its
rulings and their letter), so the reading and linking are written once; ``REFERENCE`` is this game's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from imperial_lab.core.errors import DataError
from imperial_lab.core.files import data_path
from imperial_lab.core.jsonio import read_text

RULES_FILE = data_path("imperial_powers", "rules", "rules.md")
QUERY_KEY = "section"
MAX_BYTES = 256 * 2**10


@dataclass(frozen=True)
class Section:
    ref: str  # "§5.7", "§9 R12"
    title: str
    level: int  # 1 for a top-level section
    body: str

    @property
    def key(self) -> str:
        """The form in URLs: ``5.7``, ``9-R12``."""
        return self.ref.lstrip("§").replace(" ", "-")

    @property
    def heading(self) -> str:
        return f"{self.ref} {self.title}"


@dataclass(frozen=True)
class Reference:
    """A rules reference in markdown whose headings are ``§n``, ``§n.m`` or ``§k Xn`` (a ruling ``Xn``
    of section ``§k``), shown on the page ``page``."""

    file: Path
    page: str  # "/ip_rules"
    rulings: str  # the section of the rulings: "§9"
    letter: str  # a ruling's letter: "R" (R12)

    @cached_property
    def _heading(self) -> re.Pattern:
        return re.compile(rf"^(#{{1,3}})\s+(§\d{{1,2}}(?:\.\d{{1,2}})?(?: {self.letter}\d{{1,2}})?)\s+(\S.*?)\s*$")

    @cached_property
    def _in_text(self) -> re.Pattern:
        """A ``§x.y`` or a ruling ``R12`` in running text, not already inside a link."""
        return re.compile(rf"(?<![\[\w=/-])(§\d{{1,2}}(?:\.\d{{1,2}})?(?![.\d]*\d)|{self.letter}\d{{1,2}}\b)(?!\])")

    @cached_property
    def sections(self) -> dict[str, Section]:
        """Every section by its reference, in the file's order; DataError for a file that cannot be read."""
        text = read_text(self.file, DataError, MAX_BYTES)
        found: dict[str, Section] = {}
        current, body = None, []
        for line in text.splitlines() + ["# §99 end"]:  # the sentinel closes the last section
            match = self._heading.match(line)
            if not match:
                body.append(line)
                continue
            if current is not None:
                found[current[0]] = Section(*current, "\n".join(body).strip())
            current, body = (match[2], match[3], len(match[1])), []
        return found

    def ref_of(self, rule: str) -> str:
        """The reference of a rule as events name it: ``§5.7`` stays, a ruling ``R12`` is ``§9 R12``."""
        return f"{self.rulings} {rule}" if re.fullmatch(rf"{self.letter}\d+", rule) else rule

    def section(self, rule: str) -> Section | None:
        """The section of ``rule`` (``§5.7``, ``R12``, ``5.7``, ``9-R12``), or its enclosing one; None if none."""
        ref = rule.strip().replace("-", " ")
        ref = self.ref_of(ref if ref.startswith(("§", self.letter)) else f"§{ref}")
        while ref:
            if ref in self.sections:
                return self.sections[ref]
            ref = ref.rsplit(" ", 1)[0] if " " in ref else ref.rsplit(".", 1)[0] if "." in ref else ""
        return None

    def title(self, rule: str) -> str:
        """``§5.7 Event``: the rule with its heading in the reference (the bare rule if it has none)."""
        found = self.section(rule)
        return f"{rule} {found.title}" if found else rule

    def url(self, rule: str) -> str:
        found = self.section(rule)
        return f"{self.page}?{QUERY_KEY}={found.key if found else rule.lstrip('§')}"

    def link(self, rule: str, label: str | None = None) -> str:
        """A markdown link to the rule's section on the rules page."""
        return f"[{label or rule}]({self.url(rule)})"

    def link_all(self, text: str) -> str:
        """Every ``§x.y`` and ruling of a markdown text as a link to its section."""
        return self._in_text.sub(lambda m: self.link(m[0]), text)

    def top_sections(self) -> list[Section]:
        return [s for s in self.sections.values() if s.level == 1]

    def subsections(self, ref: str) -> list[Section]:
        """The sections inside top-level section ``ref`` (``§5``: §5.1 … §5.8; ``§9``: the rulings)."""
        return [s for s in self.sections.values()
                if s.ref != ref and (s.ref.startswith(ref + ".") or s.ref.startswith(ref + " "))]


REFERENCE = Reference(RULES_FILE, "/ip_rules", "§9", "R")
