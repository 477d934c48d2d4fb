"""Imperial Powers' rules reference (imperial_lab.core.rules_text): the rules in the lab's own words
(data/imperial_powers/rules/rules.md), one section per heading, numbered like RULES.md (``## §5.7
...``, the rulings ``## §9 R12 ...``, which the texts name alone: "R12"), shown on the rules page
(``/ip_rules?section=5.7``, ``?section=9-R12``).
"""

from __future__ import annotations

from imperial_lab.core.files import data_path
from imperial_lab.core.rules_text import Reference

RULES_FILE = data_path("imperial_powers", "rules", "rules.md")
REFERENCE = Reference(RULES_FILE, "/ip_rules", rulings="§9", letter="R", bare_rulings=True)
