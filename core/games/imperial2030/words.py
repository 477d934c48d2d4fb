"""The names people read for Imperial 2030's ids, one place for every page, the lessons and the
terminal: nations (``RU`` -> Russia), regions (``new_delhi`` -> New Delhi; a sea takes "the"),
rondel spaces, canals, units with their stances, bonds, and an engine text with its ids put into
words (``in_words``). The engine (data.py, the rules) keeps the ids.

    nation("US")                 -> "the United States"
    possessive("US")             -> "the United States'"
    place("indian_ocean")        -> "the Indian Ocean"
    units_text([{"nation": "IN", "unit": "fleet", "region": "indian_ocean", "count": 1, "stance": None}])
                                 -> "a fleet in the Indian Ocean"
"""

from __future__ import annotations

import re
from functools import lru_cache

from imperial_lab.core.games.imperial2030.data import NATIONS, SEA, load_board
from imperial_lab.core.words import and_list, article, count

NATION_NAMES = {"RU": "Russia", "CN": "China", "IN": "India", "BR": "Brazil", "US": "United States", "EU": "Europe"}
SPACE_NAMES = {"factory": "Factory", "production_1": "Production 1", "maneuver_1": "Maneuver 1",
               "investor": "Investor", "import": "Import", "production_2": "Production 2",
               "maneuver_2": "Maneuver 2", "taxation": "Taxation"}
CANAL_NAMES = {"panama": "Panama", "suez": "Suez"}
UNIT_PLURALS = {"army": "armies", "fleet": "fleets"}
# A word of an engine text that may be an id: a region id (lower case, underscores) or a nation code.
_ID = re.compile(r"\b(?:[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z]{3,}|RU|CN|IN|BR|US|EU)\b")


@lru_cache(maxsize=1)
def _region_names() -> dict[str, str]:
    board = load_board()
    return dict(zip(board.region_ids, board.region_names))


def region(region_id: str) -> str:
    """``new_delhi`` -> ``New Delhi`` (an unknown id as it is)."""
    return _region_names().get(region_id, region_id)


def place(region_id: str) -> str:
    """A region as a sentence names it: seas take "the" (``the North Atlantic``), lands do not."""
    board = load_board()
    index = board.region_index.get(region_id)
    name = region(region_id)
    return "the " + name if index is not None and board.kind[index] == SEA else name


def nation(code: str) -> str:
    """``RU`` -> ``Russia``; ``US`` -> ``the United States``."""
    name = NATION_NAMES.get(code, code)
    return "the " + name if code == "US" else name


def possessive(code: str) -> str:
    """The possessive: ``Russia's``, ``the United States'``."""
    name = nation(code)
    return name + ("'" if name.endswith("s") else "'s")


def space(space_id: str) -> str:
    return SPACE_NAMES.get(space_id, space_id)


def bond(code: str, number: int) -> str:
    """``RU``, 4 -> ``Russia's bond 4 (9m)``: its number is its interest, the price in brackets."""
    return f"{possessive(code)} bond {number} ({load_board().bond_cost[number - 1]}m)"


def bonds_text(bonds) -> str:
    """A player's bonds (``["RU 3", "CN 1"]``, as position documents write them) by nation:
    ``Russia 3, China 1`` (``none``)."""
    by_nation: dict[str, list[str]] = {}
    for entry in bonds:
        code, number = entry.split()
        by_nation.setdefault(code, []).append(number)
    return ", ".join(f"{NATION_NAMES.get(c, c)} {' and '.join(ns)}" for c, ns in by_nation.items()) or "none"


def unit_noun(unit: str, stance: str | None = None, k: int = 1) -> str:
    """``army``, ``hostile armies`` (k > 1), ``fleet``."""
    noun = unit if k == 1 else UNIT_PLURALS.get(unit, unit + "s")
    return f"{stance} {noun}" if stance else noun


def unit_count(k: int, unit: str, stance: str | None = None) -> str:
    """``a fleet``, ``3 hostile armies``."""
    return article(unit_noun(unit, stance)) if k == 1 else f"{k} {unit_noun(unit, stance, k)}"


def units_text(units) -> str:
    """Unit groups of a position document (``nation``, ``unit``, ``region``, ``count``, ``stance``)
    as words: ``2 armies in Moscow and a fleet in the Black Sea`` (``none``)."""
    parts = [f"{unit_count(u.get('count', 1), u['unit'], u.get('stance'))} in {place(u['region'])}" for u in units]
    return and_list(parts) if parts else "none"


def regions_text(ids) -> str:
    """``Moscow, Vladivostok and Novosibirsk`` (``none``)."""
    ids = list(ids)
    return and_list([place(r) for r in ids]) if ids else "none"


def nations_text(codes) -> str:
    codes = list(codes)
    return and_list([nation(c) for c in codes]) if codes else "nothing"


def power_points(k: int) -> str:
    return count(k, "power point")


def in_words(text: str) -> str:
    """An engine text (an error's reason, a canal's move) with its region ids and nation codes put
    into words: ``new_delhi is not a home province of IN`` -> ``New Delhi is not a home province of
    India``. A word that is no id stays as it is."""
    def name(match: re.Match) -> str:
        word = match[0]
        if word in NATION_NAMES:
            return nation(word)
        return place(word) if word in _region_names() else word
    return _ID.sub(name, text)


def nation_order() -> list[str]:
    return list(NATIONS)
