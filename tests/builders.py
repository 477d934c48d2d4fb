"""Build Imperial 2030 positions for tests from a few facts, through the position document."""

from __future__ import annotations

from imperial_lab.core.games.imperial2030.data import NATIONS
from imperial_lab.core.interface import make_game


def position(players=3, cash=None, bonds=None, nations=None, units=(), nation="RU", decision=None,
             investor_card=0, swiss=None, config=None):
    """A state at ``decision`` (default: start of ``nation``'s turn).

    cash: list per player (default 10 each); bonds: {player: ["RU 4", ...]};
    nations: {"EU": {"treasury": 7, "rondel": "investor", "government": 1, "power_points": 11,
    "factories": [...], "flags": [...]}} (every nation not given: no government, starting factories);
    units: ("EU fleet north_atlantic", "CN army berlin hostile", "RU army vladivostok x2", ...).
    """
    game = make_game({"game": "imperial2030", "players": players, **(config or {})})
    cash = cash if cash is not None else [10] * players
    bonds = bonds or {}
    docs = {}
    for code in NATIONS:
        given = dict((nations or {}).get(code, {}))
        given.setdefault("factories", [game.board.region_ids[r] for r in game.board.starting_factories
                                       if game.board.home_nation[r] == NATIONS.index(code)])
        docs[code] = given
    governed = {g["government"] for g in docs.values() if g.get("government") is not None}
    doc = {
        "config": game.config,
        "players": [{"cash": cash[p], "bonds": list(bonds.get(p, [])),
                     "swiss_bank": (swiss[p] if swiss is not None else p not in governed)} for p in range(players)],
        "nations": docs,
        "units": [parse_unit(u) for u in units],
        "investor_card": investor_card,
        "turn": {"nation": nation},
        "decision": decision or {"kind": "turn_start"},
    }
    # Rule tests set only the facts of their rule (a government without bonds, say): no invariant check.
    return game.state_from_json(doc, check=False)


def parse_unit(text: str) -> dict:
    """'CN army berlin hostile x2' -> a units entry of the position document."""
    words = text.split()
    count = 1
    if words[-1].startswith("x"):
        count = int(words.pop()[1:])
    stance = words[3] if len(words) > 3 else None
    return {"nation": words[0], "unit": words[1], "region": words[2], "count": count, "stance": stance}


def act(state, *texts):
    """Apply actions given in text form; returns all their events."""
    events = []
    for text in texts:
        events += state.apply_action(state.string_to_action(text))
    return events


def legal_texts(state) -> set[str]:
    return {state.action_to_string(a) for a in state.legal_actions()}


def maneuver(active: str, units=(), govs=None, flags=None, factories=None, players=3, treasury=None):
    """A position at the start of ``active``'s turn, its marker on `production_1`, then
    `rondel maneuver_1` (one free step, §6) applied.

    govs: {nation: seat} (default: the active nation is governed by seat 0); flags: {nation: [regions]};
    factories: {nation: [regions]} (default: the starting factories)."""
    govs = dict(govs or {active: 0})
    nations = {}
    for code in set(govs) | set(flags or {}) | set(factories or {}):
        nd = {"rondel": "production_1" if code == active else "factory"}
        if code in govs:
            nd["government"] = govs[code]
        if flags and code in flags:
            nd["flags"] = list(flags[code])
        if factories and code in factories:
            nd["factories"] = list(factories[code])
        if treasury and code in treasury:
            nd["treasury"] = treasury[code]
        nations[code] = nd
    s = position(players=players, units=units, nation=active, nations=nations)
    act(s, "rondel maneuver_1")
    assert s.decision_name() == "maneuver"
    return s
