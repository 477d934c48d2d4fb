"""Starting distributions of bonds and cash (§4.3 and custom setups), and the text form of a bond.

Below the game and the position documents, which both read bonds: so neither imports the other.
"""

from __future__ import annotations

from imperial_lab.core.errors import SetupError
from imperial_lab.core.games.imperial2030.data import NATIONS
from imperial_lab.core.games.imperial2030.limits import MAX_MONEY
from imperial_lab.core.jsonio import clip


def parse_bond(entry, where: str) -> tuple[int, int]:
    """A bond written "RU 4", "RU4" or {"nation": "RU", "number": 4}."""
    if isinstance(entry, dict):
        code, number = entry.get("nation"), entry.get("number")
    elif isinstance(entry, str) and len(entry.replace(" ", "")) >= 3:
        text = entry.replace(" ", "")
        code, number = text[:2], text[2:]
    else:
        raise SetupError(f"{where}: a bond is written like 'RU 4', got {clip(entry)}")
    if code not in NATIONS:
        raise SetupError(f"{where}: unknown nation {clip(code)} in bond {clip(entry)}")
    if isinstance(number, str) and number.isascii() and number.isdigit() and len(number) == 1:
        number = int(number)
    if type(number) is not int or not 1 <= number <= 9:
        raise SetupError(f"{where}: bond number must be 1..9 in {clip(entry)}")
    return NATIONS.index(code), number


def validate_distribution(doc, nplayers: int, bond_cost) -> dict:
    """A custom starting distribution: each player's bonds and cash (after paying for them).

    Optional checks: ``starting_cash`` per player (= cash + cost of his bonds), ``treasuries``
    (= cost of the bonds sold in each nation), ``governments`` (must hold the highest credit sum).
    Refuses bonds given twice, unknown nations or bonds, negative cash and sums that do not add up.
    """
    if not isinstance(doc, dict) or not isinstance(doc.get("players"), list):
        raise SetupError("distribution: needs a 'players' list")
    if len(doc["players"]) != nplayers:
        raise SetupError(f"distribution: {len(doc['players'])} players listed for a {nplayers}-player game")
    seen: dict[tuple[int, int], int] = {}
    players: list[dict] = []
    for p, seat in enumerate(doc["players"]):
        where = f"distribution: players[{p}]"
        if not isinstance(seat, dict):
            raise SetupError(f"{where}: must be an object with 'cash' and 'bonds'")
        cash, bonds = _money(seat.get("cash"), f"{where}.cash"), seat.get("bonds", [])
        if not isinstance(bonds, list) or len(bonds) > 54:
            raise SetupError(f"{where}.bonds: must be a list of at most 54 bonds")
        parsed = []
        for k, entry in enumerate(bonds):
            bond = parse_bond(entry, f"{where}.bonds[{k}]")
            if bond in seen:
                raise SetupError(f"{where}.bonds[{k}]: bond {NATIONS[bond[0]]} {bond[1]} already given to "
                                 f"players[{seen[bond]}]")
            seen[bond] = p
            parsed.append(bond)
        paid = sum(bond_cost[number - 1] for _, number in parsed)
        if "starting_cash" in seat and _money(seat["starting_cash"], f"{where}.starting_cash") != cash + paid:
            raise SetupError(f"{where}: starting_cash {seat['starting_cash']} does not add up: cash {cash} + "
                             f"bonds {paid} = {cash + paid}")
        players.append({"cash": cash, "bonds": parsed})
    if not seen:
        raise SetupError("distribution: no bond is given to anybody, so no nation would have a government")
    for code, amount in _by_nation(doc, "treasuries").items():
        amount = _money(amount, f"distribution.treasuries.{code}")
        sold = sum(bond_cost[number - 1] for (n, number) in seen if NATIONS[n] == code)
        if amount != sold:
            raise SetupError(f"distribution.treasuries.{code}: {amount} does not add up to the bonds sold ({sold})")
    governments = {}
    for code, p in _by_nation(doc, "governments").items():
        if type(p) is not int or not 0 <= p < nplayers:
            raise SetupError(f"distribution.governments.{code}: must be a seat 0..{nplayers - 1}, got {clip(p)}")
        n = NATIONS.index(code)
        credit = [sum(bond_cost[num - 1] for (m, num) in pl["bonds"] if m == n) for pl in players]
        if credit[p] == 0 or credit[p] < max(credit):
            raise SetupError(f"distribution.governments.{code}: players[{p}] does not hold the highest credit sum")
        governments[n] = p
    return {"players": players, "governments": governments}


def _money(value, where: str) -> int:
    if type(value) is not int or not 0 <= value <= MAX_MONEY:
        raise SetupError(f"{where}: must be a whole number 0..{MAX_MONEY:,} (millions), got {clip(value)}")
    return value


def _by_nation(doc: dict, key: str) -> dict:
    """The optional object ``doc[key]`` keyed by nation code, checked."""
    entries = doc.get(key) or {}
    if not isinstance(entries, dict):
        raise SetupError(f"distribution.{key}: must be an object keyed by nation code, got {clip(entries)}")
    for code in entries:
        if code not in NATIONS:
            raise SetupError(f"distribution.{key}: unknown nation {clip(code)}")
    return entries
