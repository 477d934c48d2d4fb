"""The structure of a setup that explains seat biases (docs/setups.md, "Structure of a setup"): who holds
what, who governs on how much credit, who invests first, and which single bond transaction hands a
government to another seat.

Everything is read off the real engine: the game is made from the setup, and a takeover is decided by
applying the engine's own ``transact`` and ``check_governments`` (§9) to a clone of the position, so
ties, the investor-card order and upgrades follow the rules exactly as games play them.

The first investor round (§7.5) is the engine's steps 2-3 on a clone of the initial position: the card
holder gets his 2m, then the Swiss-bank owners follow. Interest (§7.5 step 1) and any taxes or
bonuses before that round are not counted: the cash shown is the setup's cash (+2m for the holder).
"""

from __future__ import annotations

from pathlib import Path
from typing import cast

from imperial_lab.core.games.imperial2030.data import NATIONS
from imperial_lab.core.games.imperial2030.events import BANK, player_ref
from imperial_lab.core.games.imperial2030.setups import PRESETS, load_setup, show_setup
from imperial_lab.core.games.imperial2030.state import State
from imperial_lab.core.interface import make_game, seat_name

# The chance presets have no fixed starting position to describe.
RANDOM_WHY = {
    "standard": "the flag cards are dealt at random (§4.2): which seat governs which nation, and so who can "
                "take over what, depends on the deal",
    "variant": "each seat's bot picks its bonds nation by nation (§4.3): the governments depend on the picks",
}


def setup_structure(setup: str, setups_dir=None) -> dict:
    """The structure of setup ``setup`` as plain JSON-able data (seats are numbered from 0).

    Keys: ``setup``, ``random`` (True for the presets, with only ``why`` besides), ``description``,
    ``players``, ``opens`` {nation, government}, ``investor_card`` (seat), ``first_investors`` (seats,
    in the order they invest), ``seats`` [{seat, name, cash, bonds [{nation, number, cost}], credit
    {nation: sum}, governs [nations], swiss_bank}], ``governments`` [{nation, government, credit,
    treasury, takeovers [{seat, action, price, credit}], affordable_first_round [seats]}] and
    ``ungoverned`` [nations]. A takeover's action is None when no single purchase or upgrade makes that
    seat the government. ``affordable_first_round``: the first investors whose cash in that round (the
    setup's cash, the card holder +2m; interest and taxes before it not counted) pays their takeover.
    """
    if setup in PRESETS:
        return {"setup": setup, "random": True, "why": RANDOM_WHY[setup]}
    folder = None if setups_dir is None else Path(setups_dir)  # a str works too
    state = cast(State, make_game(load_setup(setup, folder=folder)).new_initial_state())
    first = first_investor_round(state)
    investors = [first.pending[1], *first.queue]
    return {
        "setup": setup,
        "random": False,
        "description": show_setup(setup, folder).get("description", ""),
        "players": state.nplayers,
        "opens": {"nation": NATIONS[state.nation], "government": state.gov[state.nation]},
        "investor_card": state.card,
        "first_investors": investors,
        "seats": [_seat(state, p) for p in range(state.nplayers)],
        "governments": [_government(first, n, investors) for n in range(6) if state.gov[n] >= 0],
        "ungoverned": [code for n, code in enumerate(NATIONS) if state.gov[n] < 0],
    }


def first_investor_round(state):
    """A clone at the first investor round: §7.5 steps 2-3 as the engine starts them (the holder's 2m,
    the queue of Swiss banks); step 1, interest, is skipped because it depends on the nation landing."""
    first = state.clone()
    first.recording = False
    first.investor_steps_2_to_6()
    return first


def _seat(state, p: int) -> dict:
    cost = state.board.bond_cost
    bonds = [{"nation": NATIONS[k // 9], "number": k % 9 + 1, "cost": cost[k % 9]}
             for k in range(54) if state.owner[k] == p]
    return {
        "seat": p,
        "name": seat_name(p),
        "cash": state.cash[p],
        "bonds": bonds,
        "credit": {code: state.credit(p, n) for n, code in enumerate(NATIONS) if state.credit(p, n)},
        "governs": [code for n, code in enumerate(NATIONS) if state.gov[n] == p],
        "swiss_bank": state.swiss[p],
    }


def _government(first, n: int, investors: list[int]) -> dict:
    g = first.gov[n]
    # the other seats in seating order from the government's left, as §7.5 pays interest
    takeovers = [{"seat": p, **cheapest_takeover(first, p, n)} for p in first.seats_from(g)[1:]]
    affordable = [t["seat"] for t in takeovers
                  if t["seat"] in investors and t["price"] is not None and first.cash[t["seat"]] >= t["price"]]
    return {"nation": NATIONS[n], "government": g, "credit": first.credit(g, n), "treasury": first.treasury[n],
            "takeovers": takeovers, "affordable_first_round": sorted(affordable, key=investors.index)}


def cheapest_takeover(state, p: int, n: int) -> dict:
    """The cheapest single purchase or upgrade of an ``n`` bond after which §9 makes ``p`` the
    government: {action, price, credit}, all None if none does. Cash is no limit here (affordability is
    judged apart), so ``p`` is lent the price of the dearest bond on a clone; on equal prices the larger
    resulting credit wins (a safer lead), then the engine's order of actions."""
    rich = state.clone()
    rich.recording = False
    rich.pay(BANK, player_ref(p), max(state.board.bond_cost), "lent to list every transaction", "§7.5")
    best = None
    for action in rich.bond_transactions(p, upgrades=True, nations=(n,)):
        trial = rich.try_transaction(p, action)
        if trial.gov[n] != p:
            continue
        found = {"action": rich.action_to_string(action), "price": rich.cash[p] - trial.cash[p],
                 "credit": trial.credit(p, n)}
        if best is None or (found["price"], -found["credit"]) < (best["price"], -best["credit"]):
            best = found
    return best or {"action": None, "price": None, "credit": None}


def weak_points(structure: dict, nation_names: dict | None = None) -> list[str]:
    """In plain words, every government a first investor can pay to take over in the first investor
    round, e.g. "Player C governs IN on 4m: Player B can take it over with one 4m upgrade in the first
    investor round"."""
    names = nation_names or {}
    out = []
    for gov in structure.get("governments", []):
        by_seat = {t["seat"]: t for t in gov["takeovers"]}
        for p in gov["affordable_first_round"]:
            t = by_seat[p]
            kind = "upgrade" if t["action"].startswith("upgrade") else "purchase"
            out.append(f"{seat_name(gov['government'])} governs {names.get(gov['nation'], gov['nation'])} on "
                       f"{gov['credit']}m: {seat_name(p)} can take it over with one {t['price']}m {kind} "
                       f"in the first investor round")
    return out


def structure_lines(structure: dict) -> list[str]:
    """The structure as readable lines (``imperial setups structure NAME``)."""
    if structure["random"]:
        return [f"{structure['setup']}: no fixed structure: {structure['why']}"]
    s = structure
    opens = s["opens"]
    lines = [f"{s['setup']}: {s['players']} players. {s['description']}",
             f"Opens: {opens['nation']} ({seat_name(opens['government'])}). "
             f"Investor card: {seat_name(s['investor_card'])}. "
             f"First investor round: {', '.join(seat_name(p) for p in s['first_investors'])}.",
             "Seats:"]
    for seat in s["seats"]:
        bonds = ", ".join(f"{b['nation']} {b['number']} ({b['cost']}m)" for b in seat["bonds"]) or "no bonds"
        governs = ", ".join(seat["governs"]) or "nothing"
        swiss = ", Swiss bank" if seat["swiss_bank"] else ""
        lines.append(f"  {seat['name']}: cash {seat['cash']}m; {bonds}; governs {governs}{swiss}")
    lines.append("Governments (cheapest takeover per seat):")
    for gov in s["governments"]:
        lines.append(f"  {gov['nation']}: {seat_name(gov['government'])} on {gov['credit']}m, "
                     f"treasury {gov['treasury']}m")
        for t in gov["takeovers"]:
            how = f"{t['action']} ({t['price']}m, credit {t['credit']}m)" if t["action"] else "no single transaction"
            lines.append(f"    {seat_name(t['seat'])}: {how}")
    if s["ungoverned"]:
        lines.append(f"Ungoverned: {', '.join(s['ungoverned'])}")
    weak = weak_points(s)
    lines.append("Weak points: " + ("; ".join(weak) if weak else "no government can be taken over in the first "
                                                                  "investor round"))
    return lines
