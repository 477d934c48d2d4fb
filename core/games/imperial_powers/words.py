"""The names people read for Imperial Powers' ids (data.json: regions, powers, influence cards,
development cards, events), and a seat's name with its power. The engine's data (data.py) keeps only
the ids; the names are read here once, from the same file.

    card_label("navy#1")           -> "Navy (9)"
    dev_label("europe__weapons")   -> "Europe: Weapons (4R)"
    who(1, ["britain", "spain"])   -> "Player B (Spain)"
    in_words("navy#1 is under europe already")   -> "Navy (9) is under Europe already"
"""

from __future__ import annotations

import re
from functools import lru_cache

from imperial_lab.core.errors import DataError
from imperial_lab.core.games.imperial_powers.data import DATA_PATH
from imperial_lab.core.interface import seat_name
from imperial_lab.core.jsonio import read_json_file


@lru_cache(maxsize=1)
def _file() -> dict:
    doc = read_json_file(DATA_PATH, DataError)
    return {
        "region": {r["id"]: r["name"] for r in doc["regions"]},
        "power": {w["id"]: w["name"] for w in doc["powers"]},
        "ability": {w["id"]: w["ability"] for w in doc["powers"]},
        "card": {c["id"]: (c["name"], c["value"]) for c in doc["influence_deck"]["cards"]},
        "dev": {d["id"]: (d["region"], d["name"], d["printed_bonus"]) for d in doc["development_deck"]["cards"]},
        "event": {e["id"]: e["name"] for e in doc["event_deck"]["cards"]},
        "effect": {e["id"]: e["effect"] for e in doc["event_deck"]["cards"]},
    }


def region_name(region: str) -> str:
    return _file()["region"][region]


def power_name(power: str | None) -> str:
    return "no power yet" if power is None else _file()["power"][power]


def ability(power: str) -> str:
    return _file()["ability"][power]


def card_name(card: str) -> str:
    """``navy#1`` -> ``Navy`` (the copies of a card look alike)."""
    return _file()["card"][card.split("#")[0]][0]


def card_value(card: str) -> int:
    return _file()["card"][card.split("#")[0]][1]


def card_label(card: str) -> str:
    return f"{card_name(card)} ({card_value(card)})"


def cards_label(cards) -> str:
    """``Navy (9), Spies (1) = 10``; ``none`` for no cards."""
    cards = list(cards)
    if not cards:
        return "none"
    total = sum(card_value(c) for c in cards)
    return ", ".join(card_label(c) for c in cards) + (f" = {total}" if len(cards) > 1 else "")


def strip_label(strip: dict) -> str:
    """A bidding strip (region -> cards): ``Europe: Navy (9), Spies (1) = 10; India: Fleet (7)``."""
    return "; ".join(f"{region_name(region)}: {cards_label(cards)}" for region, cards in strip.items()) or "empty"


def dev_region(dev: str) -> str:
    return _file()["dev"][dev][0]


def dev_label(dev: str) -> str:
    region, name, bonus = _file()["dev"][dev]
    return f"{region_name(region)}: {name} ({bonus})"


def event_name(event: str) -> str:
    return _file()["event"][event]


def event_effect(event: str) -> str:
    return _file()["effect"][event]


def who(seat: int, powers) -> str:
    """``Player B (Spain)``; only ``Player B`` before the seat has a power (§2 step 4)."""
    power = powers[seat] if seat < len(powers) else None
    return seat_name(seat) if power is None else f"{seat_name(seat)} ({power_name(power)})"


_ID = re.compile(r"\b[a-z][a-z_]*(?:#\d+)?")


def in_words(text: str) -> str:
    """An engine text (an error's reason) with its ids put into words: a card (``navy#1``), a
    development card, a region or a power by its name; a word that is no id stays as it is."""
    names = _file()

    def name(match: re.Match) -> str:
        word = match[0]
        if "#" in word and word.split("#")[0] in names["card"]:
            return card_label(word)
        for kind, label in (("dev", dev_label), ("region", region_name), ("power", power_name)):
            if word in names[kind]:
                return label(word)
        return word
    return _ID.sub(name, text)
