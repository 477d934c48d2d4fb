"""Imperial Powers rules: the rules in the lab's own words (data/imperial_powers/rules/rules.md, read by
imperial_lab.core.games.imperial_powers.rules_text), shown by the page every game shares
(imperial_lab.dashboard.rules_page): ``?section=5.7`` or ``?section=R12`` opens a section."""

from imperial_lab.core.games.imperial_powers.rules_text import REFERENCE
from imperial_lab.dashboard import rules_page

rules_page.show(REFERENCE, "Rules of Imperial Powers", "shared/imperial_powers/RULES.md (its rulings, §9, fill the "
                "gaps of the original text)", key="ip_rules")
