"""A custom starting distribution as an editable table (the Setup editor page): one row per player,
a ``cash`` column and one column per nation holding that player's bond numbers ("4", "1,3").

``parse`` turns the table into the ``players`` list of a setup file and checks it with the engine's
own ``validate_distribution``, so the page accepts exactly what ``imperial simulate --setup`` will;
``document`` adds what follows from it (starting cash, treasuries, governments) and ``save`` writes
the file of data/setups/ (docs/setups.md) and reads it back through imperial_lab.core.setups.
"""

from __future__ import annotations

import json
import math
import os
import re
from pathlib import Path

import pandas as pd

from imperial_lab.core.errors import ImperialError, SetupError
from imperial_lab.core.games.imperial2030.data import NATIONS, load_board
from imperial_lab.core.games.imperial2030.distribution import validate_distribution
from imperial_lab.core.games.imperial2030.setups import PRESETS, read_setup_file
from imperial_lab.dashboard.style import player_label

NAME_PATTERN = re.compile(r"[a-z0-9][a-z0-9_-]*")
BOND_SEPARATORS = re.compile(r"[\s,;]+")


def blank(players: int) -> pd.DataFrame:
    """A table of ``players`` rows without cash or bonds."""
    return pd.DataFrame({"cash": [0] * players, **{code: [""] * players for code in NATIONS}},
                        index=[player_label(p) for p in range(players)])


def from_setup(doc: dict) -> pd.DataFrame:
    """The table of a setup file's document (imperial_lab.core.setups.read_setup_file)."""
    table = blank(len(doc["players"]))
    for p, seat in enumerate(doc["players"]):
        table.iloc[p, 0] = seat["cash"]
        held: dict[str, list[int]] = {}
        for bond in seat.get("bonds", []):
            code, number = _bond_parts(bond)
            held.setdefault(code, []).append(number)
        for code, numbers in held.items():
            table.loc[player_label(p), code] = ",".join(map(str, sorted(numbers)))
    return table


def _bond_parts(bond) -> tuple[str, int]:
    """A bond as written in setup files: "RU 4", "RU4" or {"nation": "RU", "number": 4}."""
    if isinstance(bond, dict):
        return bond["nation"], int(bond["number"])
    text = str(bond).replace(" ", "")
    return text[:2], int(text[2:])


def parse(table: pd.DataFrame) -> tuple[list[dict], list[str]]:
    """The ``players`` list of the table and every problem found, in words a player understands.

    Cell problems (a missing cash, a bond number that is not 1–9) are all reported; the engine's
    check (a bond given twice, nobody holding a bond, ...) runs only on a table without them.
    """
    players, errors = [], []
    for p, (_, row) in enumerate(table.iterrows()):
        who = player_label(p)
        cash = row["cash"]
        if cash is None or (isinstance(cash, float) and math.isnan(cash)):
            errors.append(f"{who}: cash is missing (write 0 for none)")
            cash = 0
        elif float(cash) != int(cash):
            errors.append(f"{who}: cash {cash} is not a whole number of millions")
        bonds = []
        for code in NATIONS:
            for token in BOND_SEPARATORS.split(str(row[code] or "").strip()):
                if not token:
                    continue
                if token.isdigit() and 1 <= int(token) <= 9:
                    bonds.append(f"{code} {int(token)}")
                else:
                    errors.append(f"{who}, {code}: {token!r} is not a bond number (1–9)")
        players.append({"cash": int(cash), "bonds": bonds})
    if not errors:
        errors = check(players)
    return players, errors


def check(players: list[dict]) -> list[str]:
    """The engine's verdict on a distribution: [] when it is valid, else its message with seats named
    as on the page (``players[1]`` becomes Player B)."""
    try:
        validate_distribution({"players": players}, len(players), load_board().bond_cost)
    except ImperialError as exc:
        return [_friendly(str(exc))]
    return []


def _friendly(message: str) -> str:
    message = re.sub(r"^distribution: ", "", message)
    message = re.sub(r"players\[(\d+)\](\.bonds\[\d+\])?", lambda m: player_label(int(m.group(1))), message)
    message = re.sub(r"player (\d+)", lambda m: player_label(int(m.group(1))), message)
    return message[:1].upper() + message[1:]


def document(players: list[dict], description: str) -> dict:
    """The setup file of a valid ``players`` list: each player's starting cash (cash + bonds), the
    treasuries (what the bonds sold bring in) and the governments (the highest credit sum, §4; on a
    tie the first seat, as the engine decides from the investor card at seat 0)."""
    cost = load_board().bond_cost
    credit = {code: [0] * len(players) for code in NATIONS}
    seats = []
    for p, seat in enumerate(players):
        for bond in seat["bonds"]:
            code, number = _bond_parts(bond)
            credit[code][p] += cost[number - 1]
        paid = sum(cost[_bond_parts(bond)[1] - 1] for bond in seat["bonds"])
        seats.append({"starting_cash": seat["cash"] + paid, "cash": seat["cash"], "bonds": seat["bonds"]})
    governments = {code: sums.index(max(sums)) for code, sums in credit.items() if max(sums) > 0}
    return {"description": description, "players": seats, "governments": governments,
            "treasuries": {code: sum(sums) for code, sums in credit.items()}}


def nation_summary(doc: dict) -> pd.DataFrame:
    """Per nation: treasury and government of a ``document``, to show before saving."""
    return pd.DataFrame({"treasury": doc["treasuries"],
                         "government": {code: player_label(doc["governments"][code]) if code in doc["governments"]
                                        else "none" for code in NATIONS}})


def seat_summary(doc: dict) -> pd.DataFrame:
    """Per player: starting cash, what the bonds cost and the cash left, to compare the seats."""
    return pd.DataFrame([{"starting cash": seat["starting_cash"], "bonds cost": seat["starting_cash"] - seat["cash"],
                          "cash left": seat["cash"]} for seat in doc["players"]],
                        index=[player_label(p) for p in range(len(doc["players"]))])


def check_name(name: str) -> list[str]:
    """Problems with a setup name: it becomes a file name and a label in runs and tables."""
    if not NAME_PATTERN.fullmatch(name):
        return ["The name may use lower-case letters, digits, '_' and '-' only, starting with a letter or digit."]
    if name in PRESETS:
        return [f"{name!r} is a built-in setup; choose another name."]
    return []


def save(doc: dict, name: str, folder: Path) -> Path:
    """Write ``doc`` to ``folder/name.json`` (one player per line, like the files shipped in
    data/setups). It is first written beside and read back with imperial_lab.core.setups, so a document that would
    not load raises SetupError and leaves any earlier file of that name as it was."""
    problems = check_name(name)
    if problems:
        raise SetupError(problems[0])
    folder.mkdir(parents=True, exist_ok=True)
    path, draft = folder / f"{name}.json", folder / f".{name}.json.draft"
    players = ",\n".join(f"    {json.dumps(seat)}" for seat in doc["players"])
    draft.write_text(f'{{\n  "description": {json.dumps(doc["description"])},\n  "players": [\n{players}\n  ],\n'
                    f'  "governments": {json.dumps(doc["governments"])},\n'
                    f'  "treasuries": {json.dumps(doc["treasuries"])}\n}}\n', encoding="utf-8")
    try:
        read_setup_file(draft)
    except SetupError:
        draft.unlink()
        raise
    os.replace(draft, path)
    return path
