"""Imperial Powers' data file (``data/imperial_powers/data.json``), loaded once and checked at load.

The rules read only the plain tables built here, every one indexed by a small int (RULES.md §0.2,
§1): regions 0..9, powers 0..4, events 0..9 and development cards 0..49 in the file's order, and
influence card *instances* 0..49 numbered in the canonical bidding order of §5.2 (value, then
card id, copy #1 before #2). A sorted tuple of instances is therefore a hand in the order its
cards are bid, and the copies of one card are consecutive numbers. A malformed entry is a
DataError naming the file and the entry.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from imperial_lab.core.errors import DataError
from imperial_lab.core.files import data_path
from imperial_lab.core.jsonio import read_json_file

DATA_PATH = data_path("imperial_powers", "data.json")
REGION_COUNT = 10  # one event per region per turn (R18) needs as many events as regions


@dataclass(frozen=True)
class Data:
    regions: tuple  # region ids, §0.2
    powers: tuple  # power ids, §1.1
    # power effects (§1.1), one entry per power
    extra_influence: tuple  # influence cards in every Draw Phase (Britain)
    tactics_moves: tuple  # cards moved in the Tactics Phase (France 2, others 1)
    spain_vp: tuple  # VP per region led in the Score Phase (Spain)
    extra_development: tuple  # development cards in every Draw Phase (Dutch)
    development_hidden: tuple  # development cards face down (Dutch)
    starting_vp: tuple  # Portuguese
    extra_influence_turn1: tuple  # Portuguese (R7)
    card_names: tuple  # influence instance -> "navy#1"
    card_kind: tuple  # influence instance -> index of its card (copies share one)
    card_values: tuple
    dev_ids: tuple  # development card -> "europe__weapons"
    dev_region: tuple
    dev_resource: tuple  # resource counters it adds (0 for a power card)
    dev_power: tuple  # power counters it adds (1 for a power card)
    events: tuple  # event ids
    event_ops: tuple  # per event, its ops as the file gives them (compiled in rules.py)
    initial_resource: int
    initial_power: int
    base_influence: int
    base_development: int
    player_counts: tuple
    options: dict  # option name -> (default, allowed values or None)


def _ids(entries, where: str) -> tuple:
    if not isinstance(entries, list) or not all(isinstance(e, dict) and isinstance(e.get("id"), str)
                                                for e in entries):
        raise DataError(f"{where}: a list of entries with an 'id'")
    ids = tuple(e["id"] for e in entries)
    if len(set(ids)) != len(ids):
        raise DataError(f"{where}: ids must be distinct")
    return ids


def _whole(value, where: str, low: int = 0) -> int:
    if type(value) is not int or value < low:
        raise DataError(f"{where}: must be a whole number >= {low}, got {value!r}")
    return value


def _effects(powers: list, where: str) -> dict:
    """Each effect of §1.1 as one tuple per power (0/False where a power lacks it)."""
    keys = {"extra_influence_cards_per_draw": 0, "tactics_moves": 1, "score_phase_vp_per_region_led": 0,
            "extra_development_cards_per_draw": 0, "development_cards_hidden": False, "starting_vp": 0,
            "extra_influence_cards_turn1": 0}
    out: dict[str, list] = {key: [] for key in keys}
    for k, power in enumerate(powers):
        effects = power.get("effects")
        if not isinstance(effects, dict) or not set(effects) <= set(keys):
            raise DataError(f"{where}[{k}].effects: an object of the known effects {sorted(keys)}")
        for key, default in keys.items():
            value = effects.get(key, default)
            if type(value) is not type(default) or (type(value) is int and value < 0):
                raise DataError(f"{where}[{k}].effects.{key}: got {value!r}")
            out[key].append(value)
    return {key: tuple(values) for key, values in out.items()}


def _influence(deck: dict, where: str) -> tuple:
    """(names, kinds, values) of the instances in canonical order."""
    cards = deck["cards"]
    ids = _ids(cards, f"{where}.cards")
    kinds = sorted(range(len(cards)), key=lambda k: (_whole(cards[k]["value"], f"{where}.cards[{k}].value", 1),
                                                       ids[k]))
    names, kind_of, values = [], [], []
    for rank, k in enumerate(kinds):
        for copy in range(1, _whole(cards[k]["copies"], f"{where}.cards[{k}].copies", 1) + 1):
            names.append(f"{ids[k]}#{copy}")
            kind_of.append(rank)
            values.append(cards[k]["value"])
    if len(names) != deck["total_cards"] or sum(values) != deck["total_value"]:
        raise DataError(f"{where}: the cards do not add up to total_cards and total_value")
    return tuple(names), tuple(kind_of), tuple(values)


def _development(deck: dict, regions: tuple, where: str) -> tuple[tuple, tuple, tuple, tuple]:
    cards = deck["cards"]
    ids = _ids(cards, f"{where}.cards")
    region, resource, power = [], [], []
    for k, card in enumerate(cards):
        at = f"{where}.cards[{k}]"
        if card.get("region") not in regions or card.get("type") not in ("resource", "power"):
            raise DataError(f"{at}: a region id and a type resource|power, got {card!r}")
        amount = _whole(card.get("amount"), f"{at}.amount", 1)
        if card["type"] == "power" and amount != 1:
            raise DataError(f"{at}: a power card adds one power counter (R23)")
        region.append(regions.index(card["region"]))
        resource.append(amount if card["type"] == "resource" else 0)
        power.append(amount if card["type"] == "power" else 0)
    if len(ids) != deck["total_cards"] or sum(power) != deck["power_cards"]:
        raise DataError(f"{where}: the cards do not add up to total_cards and power_cards")
    return ids, tuple(region), tuple(resource), tuple(power)


def _options(options: dict, where: str) -> dict:
    out = {}
    for name, entry in options.items():
        if name.startswith("_"):
            continue
        if not isinstance(entry, dict) or "default" not in entry:
            raise DataError(f"{where}.{name}: an object with a 'default'")
        allowed = entry.get("allowed")
        if allowed is not None and entry["default"] not in allowed:
            raise DataError(f"{where}.{name}: the default is not one of the allowed values")
        out[name] = (entry["default"], None if allowed is None else tuple(allowed))
    return out


def load_data(path: Path | str = DATA_PATH) -> Data:
    """The data of ``path``; raises DataError naming the entry that is wrong."""
    doc = read_json_file(path, DataError)
    where = str(path)
    try:
        regions = _ids(doc["regions"], f"{where}: regions")
        if len(regions) != REGION_COUNT:
            raise DataError(f"{where}: regions: {REGION_COUNT} regions expected")
        powers = _ids(doc["powers"], f"{where}: powers")
        effects = _effects(doc["powers"], f"{where}: powers")
        names, kinds, values = _influence(doc["influence_deck"], f"{where}: influence_deck")
        dev = _development(doc["development_deck"], regions, f"{where}: development_deck")
        events = _ids(doc["event_deck"]["cards"], f"{where}: event_deck.cards")
        ops = tuple(tuple(card["ops"]) for card in doc["event_deck"]["cards"])
        if len(events) != REGION_COUNT:
            raise DataError(f"{where}: event_deck: one event per region expected (R18)")
        counters = doc["initial_region_counters"]
        draw = doc["draw_phase"]
        data = Data(
            regions, powers, effects["extra_influence_cards_per_draw"], effects["tactics_moves"],
            effects["score_phase_vp_per_region_led"], effects["extra_development_cards_per_draw"],
            effects["development_cards_hidden"], effects["starting_vp"], effects["extra_influence_cards_turn1"],
            names, kinds, values, *dev, events, ops,
            _whole(counters["resource"], f"{where}: initial_region_counters.resource"),
            _whole(counters["power"], f"{where}: initial_region_counters.power"),
            _whole(draw["influence_cards_base"], f"{where}: draw_phase.influence_cards_base"),
            _whole(draw["development_cards_base"], f"{where}: draw_phase.development_cards_base", 1),
            tuple(doc["player_counts"]), _options(doc["options"], f"{where}: options"))
    except (KeyError, TypeError, AttributeError) as exc:
        raise DataError(f"{where}: missing or malformed entry {exc}") from None
    if len(data.powers) < max(data.player_counts):
        raise DataError(f"{where}: powers: fewer powers than players")
    return data


@cache
def data() -> Data:
    """The default data file, loaded once."""
    return load_data()
