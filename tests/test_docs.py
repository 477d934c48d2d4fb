"""The README and docs/ are the front door and the reference: every relative link in them names a
file of the repository (an anchor is not checked, the file is)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINK = re.compile(r"\]\(([^)\s]+)\)")
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_relative_link_names_a_file(page):
    missing = []
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        if re.match(r"^[a-z]+:", target) or target.startswith("#"):
            continue  # a web address, or an anchor of this page
        if not (page.parent / target.split("#")[0]).exists():
            missing.append(target)
    assert not missing, f"{page.name} links to missing files: {missing}"


def table_rows(text: str) -> list[list[tuple[int, int]]]:
    """Every Markdown table of ``text``: per table, (line number, cells) of each row. A table is a run
    of lines that start with ``|`` and whose second line is the delimiter row (``|---|:---:|``); cells
    are split on pipes not escaped by a backslash (GitHub splits a code span's pipes too)."""
    tables, lines = [], text.splitlines()
    fenced = False
    k = 0
    while k < len(lines):
        if lines[k].lstrip().startswith("```"):
            fenced = not fenced
        if fenced or not lines[k].lstrip().startswith("|"):
            k += 1
            continue
        start = k
        while k < len(lines) and lines[k].lstrip().startswith("|"):
            k += 1
        block = lines[start:k]
        if len(block) >= 2 and re.fullmatch(r"\s*\|?(\s*:?-+:?\s*\|)+\s*:?-*:?\s*", block[1]):
            tables.append([(start + 1 + i, _cells(line)) for i, line in enumerate(block)])
    return tables


def _cells(line: str) -> int:
    row = line.strip()
    row = row[1:] if row.startswith("|") else row
    row = row[:-1] if row.endswith("|") and not row.endswith("\\|") else row
    return len(re.split(r"(?<!\\)\|", row))


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_table_row_has_as_many_cells_as_its_header(page):
    bad = [f"line {number}: {cells} cells, the header has {table[0][1]}"
           for table in table_rows(page.read_text(encoding="utf-8")) for number, cells in table
           if cells != table[0][1]]
    assert not bad, f"{page.name}: {bad}"


def test_a_row_with_a_cell_too_many_is_found():
    text = "| a | b |\n|---|---|\n| 1 | 2 |\n| 1 | 2 | 3 |\n| x \\| y | 2 |\n"
    assert [[cells for _, cells in table] for table in table_rows(text)] == [[2, 2, 2, 3, 2]]
