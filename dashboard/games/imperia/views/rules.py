"""Imperia rules: the rules of Imperia in the lab's own words (data/imperia/rules/rules.md, read by
imperial_lab.core.games.imperia.rules_text), shown by the page every game shares
(imperial_lab.dashboard.rules_page): ``?section=6.4`` opens a section."""

from imperial_lab.core.games.imperia.rules_text import REFERENCE
from imperial_lab.dashboard import rules_page

rules_page.show(REFERENCE, "Rules of Imperia", "shared/imperia/RULES.md (its rulings, §11, fill the gaps of the "
                "original text)", key="imperia_rules")
