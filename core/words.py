"""English for every game's words (each game's own names are in ``core/games/<game>/words.py``):
counts with the right plural, articles and lists, so that no page says "1 spaces" or "a army".

    count(1, "space")            -> "1 space"
    count(3, "army", "armies")   -> "3 armies"
    article("army")              -> "an army"
    and_list(["A", "B", "C"])    -> "A, B and C"
"""

from __future__ import annotations

import re
from collections.abc import Callable

# Nouns of the games whose plural is not the noun with an "s".
IRREGULAR = {"army": "armies", "factory": "factories", "armies": "armies", "tactics": "tactics"}


def plural(k: int, one: str, many: str | None = None) -> str:
    """``one`` for a count of 1, else its plural (``many``, or the noun with an "s")."""
    if k == 1:
        return one
    return many if many is not None else IRREGULAR.get(one, one + "s")


def count(k: int, one: str, many: str | None = None) -> str:
    """``3 armies``, ``1 space``."""
    return f"{k} {plural(k, one, many)}"


def article(noun: str) -> str:
    """``an army``, ``a fleet``."""
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def and_list(names) -> str:
    """``Moscow``, ``Moscow and Ukraine``, ``Moscow, Ukraine and Turkey`` (empty: ``nothing``)."""
    names = list(names)
    if not names:
        return "nothing"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def capital(text: str) -> str:
    """The text with its first letter upper case (the rest as it is)."""
    return text[:1].upper() + text[1:]


def refusal_words(error, title: Callable[[str], str], names: Callable[[str], str] = str) -> str:
    """Why the engine refused an action, as one sentence naming the rule in words: ``Not allowed:
    REASON (§7.4.6 Protection of the last working factory).`` ``error`` is the engine's
    IllegalActionError (its ``message`` also quotes the action and the pending decision, which the
    page shows already); ``title(rule)`` is the rule with its heading; ``names`` puts ids into words."""
    message = getattr(error, "message", str(error))
    why = message.split("': ", 1)[1] if message.startswith("illegal action '") else message
    why = re.sub(r" \(pending(?: decision)?: [^)]*\)$", "", why)
    rule = getattr(error, "rule", None)
    return f"Not allowed: {names(why)}" + (f" ({title(rule)})." if rule else ".")
