"""A game's rules reference: its rules in the lab's own words, section by section, numbered like its
RULES.md, and the link to each section's place on the game's rules page. Each game has one
``Reference`` (its ``rules_text.REFERENCE``); the reading, the spellings and the links are written
here once. Plain functions, no Streamlit: pages, lessons, the terminal's words and tests share them.

The text is data: Markdown whose every heading starts with its reference, down to the subsections
the engine cites,

    # §7 What the rondel spaces do
    ## §7.4 Maneuver
    ### §7.4.6 Protection of the last working factory
    ## §11 Q2 Buying bonds with too little cash       (a ruling: letter Q, in section §11)

either one file (every section in it) or a folder of files ``NN-name.md`` with one top-level section
each (``07-actions.md`` holds §7). A section's text runs to the next heading. ``url("§7.4.6")`` is
the page's link ``/rules?section=7.4.6`` (a ruling ``§11 Q2`` -> ``?section=11-Q2``), which the page
reads from its query parameters; a reference the text lacks (a newer engine's) links to its nearest
enclosing section. A file that breaks the layout is a DataError naming the file, the line and why.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from imperial_lab.core.errors import DataError
from imperial_lab.core.jsonio import read_text

QUERY_KEY = "section"  # the rules page's query parameter
MAX_FILE_BYTES = 256 * 2**10
_HEADING = re.compile(r"^(#{1,4})\s+(.*?)\s*$")


@dataclass(frozen=True)
class Section:
    ref: str  # "§7.4.6", "§11 Q2"
    title: str
    level: int  # 1 for a top-level section, 2, 3, 4 for subsections
    body: str  # Markdown up to the next heading
    file: str

    @property
    def key(self) -> str:
        """The form used in URLs: ``7.4.6``, ``11-Q2``."""
        return self.ref.removeprefix("§").replace(" ", "-")

    @property
    def heading(self) -> str:
        return f"{self.ref} {self.title}"


@dataclass(frozen=True)
class Reference:
    """One game's rules reference: its ``source`` (a Markdown file, or a folder of them), the rules
    ``page`` that shows it (``/rules``), the section of its ``rulings`` (``§11``) and a ruling's
    ``letter`` (``Q``: ``§11 Q2``), the numbers a reference has at most (``depth``: 4 for
    ``§7.4.6.1``), and whether a ruling named alone in a text (``R12``) is linked (``bare_rulings``)."""

    source: Path
    page: str
    rulings: str
    letter: str
    depth: int = 2
    bare_rulings: bool = False

    # ----- spellings -----

    @cached_property
    def _ref(self) -> re.Pattern:
        """"§7.4.6", "§11 Q2", and looser spellings a person or a URL may use: "7.4.6", "11-Q2", "11 q2"."""
        return re.compile(rf"^\s*§?\s*(\d{{1,2}}(?:\.\d{{1,2}}){{0,{self.depth - 1}}})"
                          rf"(?:[\s_-]*[{self.letter}{self.letter.lower()}](\d{{1,2}}))?\s*$")

    @cached_property
    def _in_text(self) -> re.Pattern:
        """A reference inside a text, not already a link's text nor part of an address, never cut short
        ("§7.4.6", not "§7.4"); with ``bare_rulings`` also a ruling named alone ("R12")."""
        ruling = rf"(?: {self.letter}\d{{1,2}})?"
        # a bare ruling is not one of an address either (``?section=9-R12``)
        bare = rf"|(?<![\[\w=/-]){self.letter}\d{{1,2}}\b" if self.bare_rulings else ""
        return re.compile(rf"((?<![\[\w=/])§\d{{1,2}}(?:\.\d{{1,2}}){{0,{self.depth - 1}}}{ruling}(?![.\d]*\d)"
                          rf"{bare})(?!\])")

    def normalize(self, ref) -> str | None:
        """``"7.4.6"``, ``"§7.4.6"`` -> ``"§7.4.6"``; ``"11-Q2"``, ``"§11 q2"``, a ruling alone
        (``"Q2"``) -> ``"§11 Q2"``; None if it is no reference at all."""
        if not isinstance(ref, str):
            return None
        alone = re.fullmatch(rf"\s*[{self.letter}{self.letter.lower()}](\d{{1,2}})\s*", ref)
        if alone:
            return f"{self.rulings} {self.letter}{int(alone[1])}"
        match = self._ref.match(ref)
        if match is None:
            return None
        number, ruling = match.groups()
        return f"§{number}" + (f" {self.letter}{int(ruling)}" if ruling else "")

    def key(self, ref: str) -> str:
        """The form of ``ref`` in URLs: ``7.4.6``, ``11-Q2``."""
        return (self.normalize(ref) or ref).removeprefix("§").replace(" ", "-")

    def parent(self, ref: str) -> str | None:
        """The enclosing reference: ``§7.4.6`` -> ``§7.4``, ``§11 Q2`` -> ``§11``, ``§7`` -> None."""
        canonical = self.normalize(ref)
        if canonical is None:
            return None
        if " " in canonical:
            return canonical.split(" ")[0]
        return canonical.rsplit(".", 1)[0] if "." in canonical else None

    def inside(self, ref: str | None, outer: str | None) -> bool:
        """Whether section ``ref`` lies inside section ``outer`` (at any depth)."""
        while ref is not None:
            ref = self.parent(ref)
            if ref == outer:
                return True
        return False

    # ----- the sections -----

    @cached_property
    def sections(self) -> dict[str, Section]:
        """Every section by its reference, in reading order; DataError for a text that cannot be read
        or breaks the layout."""
        source = Path(self.source)
        files = sorted(source.glob("*.md")) if source.is_dir() else [source]
        if not files:
            raise DataError(f"{source}: no rules text (*.md) found")
        found: dict[str, Section] = {}
        for path in files:
            for section in self.parse_file(path, one_section=source.is_dir()):
                if section.ref in found:
                    raise DataError(f"{path}: section {section.ref} is already in {found[section.ref].file}")
                found[section.ref] = section
        return found

    def parse_file(self, path, one_section: bool = True) -> list[Section]:
        """The sections of one rules file (``one_section``: a file of a folder, which holds exactly one
        top-level section, numbered like the file); a file that breaks the layout is a DataError
        naming it, the line and why."""
        path = Path(path)
        lines = read_text(path, DataError, MAX_FILE_BYTES).splitlines()
        found: list[list] = []  # [ref, title, level, body lines]
        top = None
        for number, line in enumerate(lines, 1):
            heading = _HEADING.match(line)
            if heading is None:
                if found:
                    found[-1][3].append(line)
                elif line.strip():
                    raise DataError(f"{path}:{number}: text before the first heading '# §N Title'")
                continue
            level, text = len(heading.group(1)), heading.group(2)
            ref, _, title = text.partition(" ")
            if re.fullmatch(rf"{self.letter}\d{{1,2}}", title.split(" ")[0]):
                ruling, _, title = title.partition(" ")
                ref = f"{ref} {ruling}"
            canonical = self.normalize(ref) if ref.startswith("§") else None
            if canonical is None or not title.strip():
                raise DataError(f"{path}:{number}: a heading must start with its reference, like '## §7.4 Maneuver'")
            if level == 1:
                if self.parent(canonical) is not None:
                    raise DataError(f"{path}:{number}: a top-level heading '# §N Title' names a top-level section")
                if one_section and found:
                    raise DataError(f"{path}:{number}: a second top-level section ({canonical}); one file per section")
                if one_section:
                    prefix = re.match(r"^(\d+)", path.name)
                    if prefix and int(prefix.group(1)) != int(canonical[1:]):
                        raise DataError(f"{path}:{number}: section {canonical} in a file numbered {prefix.group(1)}")
                top = canonical
            elif not found:
                raise DataError(f"{path}:{number}: the file must start with a top-level heading '# §N Title'")
            elif not self.inside(canonical, top):
                raise DataError(f"{path}:{number}: section {canonical} does not belong in {top}")
            found.append([canonical, title.strip(), level, []])
        if not found:
            raise DataError(f"{path}: no section in this file")
        return [Section(ref, title, level, "\n".join(body).strip(), path.name) for ref, title, level, body in found]

    def section(self, ref) -> Section | None:
        """The section with exactly this reference (any spelling ``normalize`` reads), or None."""
        canonical = self.normalize(ref)
        return self.sections.get(canonical) if canonical else None

    def resolve(self, ref) -> Section | None:
        """The section of ``ref``, or of its nearest enclosing section the text has; None if none."""
        canonical = self.normalize(ref)
        while canonical is not None:
            if canonical in self.sections:
                return self.sections[canonical]
            canonical = self.parent(canonical)
        return None

    def top_sections(self) -> list[Section]:
        return [s for s in self.sections.values() if s.level == 1]

    def subsections(self, ref: str) -> list[Section]:
        """The sections inside ``ref`` (all levels), in reading order."""
        top = self.section(ref)
        if top is None:
            return []
        return [s for s in self.sections.values() if s.ref != top.ref and self.inside(s.ref, top.ref)]

    def holding(self, ref: str) -> Section | None:
        """The top-level section that holds section ``ref`` (itself if it is one)."""
        found = self.resolve(ref)
        while found is not None and found.level > 1:
            found = self.resolve(self.parent(found.ref))
        return found

    # ----- titles and links -----

    def title(self, ref: str) -> str:
        """``§7.6 Taxation``: the reference with its heading (of its nearest enclosing section for a
        finer one; the bare reference when the text has none)."""
        found = self.resolve(ref)
        return f"{ref} {found.title}" if found else ref

    def url(self, ref: str) -> str:
        """The rules page's link for a reference: ``/rules?section=7.4.6``. An unknown reference links
        to its nearest enclosing section, and to the top of the page if there is none."""
        found = self.resolve(ref)
        return f"{self.page}?{QUERY_KEY}={found.key}" if found else self.page

    def link(self, ref: str, label: str | None = None) -> str:
        """A Markdown link to the section: ``[§7.6 Taxation](/rules?section=7.6)`` (``label`` replaces
        the text; without one a finer reference than the text has is shown as it is)."""
        found = self.resolve(ref)
        exact = found is not None and found.ref == self.normalize(ref)
        text = label if label is not None else (f"{ref} {found.title}" if exact and found else ref)
        return f"[{text}]({self.url(ref)})"

    def link_all(self, text: str) -> str:
        """``text`` (Markdown) with every reference it makes, like ``(§7.4.6)``, made a link to its
        section; references without a section (not even an enclosing one) stay text."""
        return self._in_text.sub(lambda m: f"[{m[0]}]({self.url(m[0])})" if self.resolve(m[0]) else m[0], text)

    def references(self, text: str) -> list[str]:
        """The references a text makes, in order, each once."""
        return list(dict.fromkeys(self._in_text.findall(text)))
