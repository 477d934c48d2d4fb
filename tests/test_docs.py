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
