"""Rules: the rules of Imperial 2030 in the lab's own words (data/imperial2030/rules/, read by
imperial_lab.core.games.imperial2030.rules_text), shown by the page every game shares
(imperial_lab.dashboard.rules_page): ``?section=7.4.6`` opens a section."""

from imperial_lab.core.games.imperial2030.rules_text import REFERENCE
from imperial_lab.dashboard import rules_page

rules_page.show(REFERENCE, "Rules of Imperial 2030", "RULES.md", key="rules")
