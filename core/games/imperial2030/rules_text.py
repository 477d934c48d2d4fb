"""The rules reference: the rules of Imperial 2030 in the lab's own words, section by section,
numbered like RULES.md, and the link to each section's place on the Rules page.

The text is data: one Markdown file per top-level section in ``data/imperial2030/rules/``
(``07-actions.md`` holds §7 and its subsections). Every heading that starts with a reference is a
section, down to the subsections the engine cites:

    # §7 What the rondel spaces do
    ## §7.4 Maneuver
    ### §7.4.6 Protection of the last working factory
    ## §11 Q2 Buying bonds with too little cash

A section's text runs to the next heading. ``section_url("§7.4.6")`` is the page link
``/rules?section=7.4.6`` (``§11 Q2`` -> ``/rules?section=11-Q2``), which the Rules page reads from
``st.query_params``; ``link_sections(text)`` turns every reference in a Markdown text into such a
link. A reference the reference lacks (a newer engine's) links to its nearest enclosing section.
Plain functions, no Streamlit: the explorer, the lessons, the Play page and tests share them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from imperial_lab.core.errors import DataError
from imperial_lab.core.files import data_path
from imperial_lab.core.jsonio import read_text

RULES_DIR = data_path("imperial2030", "rules")
RULES_PAGE = "/rules"  # the Rules page's path (pages.py: views/rules.py, title "Rules")
QUERY_KEY = "section"
MAX_FILE_BYTES = 256 * 2**10

# "§7.4.6", "§11 Q2", and looser spellings a person or a URL may use: "7.4.6", "11-Q2", "11 q2".
_REF = re.compile(r"^\s*§?\s*(\d{1,2}(?:\.\d{1,2}){0,3})(?:[\s_-]*[Qq](\d{1,2}))?\s*$")
# A reference inside a text: not already a link's text, never cut short ("§7.4.6" not "§7.4").
_IN_TEXT = re.compile(r"(?<!\[)§\d{1,2}(?:\.\d{1,2}){0,3}(?: Q\d{1,2})?(?![.\d]*\d)(?!\])")
_HEADING = re.compile(r"^(#{1,4})\s+(.*?)\s*$")
_HEADING_REF = re.compile(r"^(§\d{1,2}(?:\.\d{1,2}){0,3}(?: Q\d{1,2})?)\s+(\S.*)$")


@dataclass(frozen=True)
class Section:
    ref: str  # "§7.4.6", "§11 Q2"
    title: str
    level: int  # 1 for a top-level section (its file), 2, 3, 4 for subsections
    body: str  # Markdown up to the next heading
    file: str

    @property
    def key(self) -> str:
        """The form used in URLs: ``7.4.6``, ``11-Q2``."""
        return section_key(self.ref)

    @property
    def heading(self) -> str:
        return f"{self.ref} {self.title}"


def normalize(ref: str) -> str | None:
    """``"7.4.6"``, ``"§7.4.6"`` -> ``"§7.4.6"``; ``"11-Q2"``, ``"§11 q2"`` -> ``"§11 Q2"``; None if
    it is no reference at all."""
    match = _REF.match(ref) if isinstance(ref, str) else None
    if match is None:
        return None
    number, question = match.groups()
    return f"§{number}" + (f" Q{int(question)}" if question else "")


def section_key(ref: str) -> str:
    canonical = normalize(ref) or ref
    return canonical.removeprefix("§").replace(" ", "-")


def parent(ref: str) -> str | None:
    """The enclosing section's reference: ``§7.4.6`` -> ``§7.4``, ``§11 Q2`` -> ``§11``, ``§7`` -> None."""
    canonical = normalize(ref)
    if canonical is None:
        return None
    if " Q" in canonical:
        return canonical.split(" ")[0]
    return canonical.rsplit(".", 1)[0] if "." in canonical else None


def resolve(ref: str) -> Section | None:
    """The section of ``ref``, or of its nearest enclosing section the reference has; None if none."""
    canonical = normalize(ref)
    known = sections()
    while canonical is not None:
        if canonical in known:
            return known[canonical]
        canonical = parent(canonical)
    return None


def section(ref: str) -> Section | None:
    """The section with exactly this reference (any spelling ``normalize`` reads), or None."""
    canonical = normalize(ref)
    return sections().get(canonical) if canonical else None


def section_url(ref: str) -> str:
    """The Rules page's link for a reference: ``/rules?section=7.4.6``. An unknown reference links
    to its nearest enclosing section, and to the top of the page if there is none."""
    found = resolve(ref)
    return f"{RULES_PAGE}?{QUERY_KEY}={found.key}" if found else RULES_PAGE


def section_link(ref: str, label: str | None = None) -> str:
    """A Markdown link to the section: ``[§7.6 Taxation](/rules?section=7.6)`` (``label`` replaces
    the text)."""
    found = resolve(ref)
    text = label if label is not None else (f"{ref} {found.title}" if found and found.ref == normalize(ref) else ref)
    return f"[{text}]({section_url(ref)})"


def link_sections(text: str) -> str:
    """``text`` (Markdown) with every reference it makes, like ``(§7.4.6)``, made a link to its
    section; references the reference has no section for (not even an enclosing one) stay text."""
    def link(match: re.Match) -> str:
        ref = match.group(0)
        return f"[{ref}]({section_url(ref)})" if resolve(ref) else ref
    return _IN_TEXT.sub(link, text)


def references(text: str) -> list[str]:
    """The references a text makes, in order, each once."""
    return list(dict.fromkeys(_IN_TEXT.findall(text)))


def subsections(ref: str) -> list[Section]:
    """The sections inside ``ref`` (all levels), in reading order."""
    top = section(ref)
    if top is None:
        return []
    return [s for s in sections().values() if s.ref != top.ref and _inside(s.ref, top.ref)]


def top_sections() -> list[Section]:
    return [s for s in sections().values() if s.level == 1]


def _inside(ref: str | None, outer: str | None) -> bool:
    while ref is not None:
        ref = parent(ref)
        if ref == outer:
            return True
    return False


def sections() -> dict[str, Section]:
    """Every section of the reference, keyed by reference, in reading order."""
    return _load(str(RULES_DIR))


@lru_cache(maxsize=4)
def _load(folder: str) -> dict[str, Section]:
    files = sorted(Path(folder).glob("*.md"))
    if not files:
        raise DataError(f"{folder}: no rules text (*.md) found")
    out: dict[str, Section] = {}
    for path in files:
        for found in parse_file(path):
            if found.ref in out:
                raise DataError(f"{path}: section {found.ref} is already in {out[found.ref].file}")
            out[found.ref] = found
    return out


def parse_file(path) -> list[Section]:
    """The sections of one rules file; a file that breaks the layout is a DataError naming it, the
    line and why."""
    path = Path(path)
    lines = read_text(path, DataError, MAX_FILE_BYTES).splitlines()
    found: list[list] = []  # [ref, title, level, body lines]
    top = None
    for number, line in enumerate(lines, 1):
        heading = _HEADING.match(line)
        if heading is None:
            if not found:
                if line.strip():
                    raise DataError(f"{path}:{number}: text before the first heading '# §N Title'")
                continue
            found[-1][3].append(line)
            continue
        level, text = len(heading.group(1)), heading.group(2)
        ref_title = _HEADING_REF.match(text)
        if ref_title is None:
            raise DataError(f"{path}:{number}: a heading must start with its reference, like '## §7.4 Maneuver'")
        ref, title = normalize(ref_title.group(1)) or "", ref_title.group(2)  # the pattern matches references only
        if not found:
            if level != 1 or parent(ref) is not None:
                raise DataError(f"{path}:{number}: the file must start with a top-level heading '# §N Title'")
            top = ref
            prefix = re.match(r"^(\d+)", path.name)
            if prefix and int(prefix.group(1)) != int(ref[1:]):
                raise DataError(f"{path}:{number}: section {ref} in a file numbered {prefix.group(1)}")
        elif level == 1:
            raise DataError(f"{path}:{number}: a second top-level section ({ref}); one file per section")
        elif not _inside(ref, top):
            raise DataError(f"{path}:{number}: section {ref} does not belong in {top}")
        found.append([ref, title, level, []])
    if not found:
        raise DataError(f"{path}: no section in this file")
    return [Section(ref, title, level, "\n".join(body).strip(), path.name) for ref, title, level, body in found]
