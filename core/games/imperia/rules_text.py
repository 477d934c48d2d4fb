"""Imperia's rules reference (imperial_lab.core.rules_text): the rules in the lab's own words
(data/imperia/rules/rules.md), one section per heading, numbered like RULES.md (``## §6.4 ...``, the
rulings ``## §11 G21 ...``), shown on the Imperia rules page (``/imperia_rules?section=6.4``).
"""

from __future__ import annotations

from imperial_lab.core.files import data_path
from imperial_lab.core.rules_text import Reference

RULES_FILE = data_path("imperia", "rules", "rules.md")
REFERENCE = Reference(RULES_FILE, "/imperia_rules", rulings="§11", letter="G")
