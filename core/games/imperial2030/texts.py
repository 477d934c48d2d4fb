"""Imperial 2030 in words for terminal play (``core/human.py``): what a decision is about and its
rule, a compact view of the position that matters for it, a note per legal action (the cost of a
rondel move, the price of a bond and whether it would take over a government), and the events of
an action in plain language.

Everything is read from the position document (``state.to_json()``, docs/formats.md) and the
board's tables; events are explained by ``imperial_lab.core.games.imperial2030.explain`` (plain functions over event
dictionaries; it imports no Streamlit).
"""

from __future__ import annotations

from imperial_lab.core.games.imperial2030.actions import BUY, RONDEL, UPGRADE
from imperial_lab.core.games.imperial2030.data import NATIONS, SPACES
from imperial_lab.core.games.imperial2030.turn import move_cost, passes_investor
from imperial_lab.core.interface import seat_name

MAX_EVENT_LINES = 5  # event sentences shown for one action; the rest are counted
# Payments that the event explained next to them already tells (its amount or its cost).
_TOLD_PAYMENTS = {"bond purchase", "bond upgrade", "tax revenue", "soldiers' pay", "success bonus", "interest",
                  "interest the treasury could not pay", "factory"}

WHAT = {  # decision kind -> (the question, with {nation} and friends; the rule)
    "deal": ("chance deals the flag cards", "§4.2"),
    "variant_pick": ("pick a bond of {nation}, or pass (experienced-players variant)", "§4.3"),
    "turn_start": ("{possessive} turn: choose its rondel space (a top-up of its treasury may come first)", "§6"),
    "veto": ("{nation} wants to move over Investor to {destination}: as a Swiss bank, veto it "
             "({nation} must then stop on Investor) or let it pass", "§8"),
    "factory": ("choose where {nation} builds a factory ({factory_cost}m from its treasury), or build none", "§7.1"),
    "production": ("a unit limit bites: choose which of {possessive} factories produce", "§7.2"),
    "import": ("{possessive} import: place a unit (1m each from the treasury, at most {import_max}) "
               "or end the import", "§7.3"),
    "maneuver": ("{possessive} maneuver ({phase}): move a unit, battle, destroy a factory, or end it", "§7.4"),
    "canal": ("{asked} controls the canal on {possessive} move '{move}': allow or deny it", "§7.4.3"),
    "fight": ("{possessive} {arrival} has arrived in {region}: fight a foreign unit there, or decline", "§7.4.4"),
    "demand": ("{possessive} {arrival} has arrived in {region}: {asked} may demand a battle with one of "
               "its units there, or decline", "§7.4.4"),
    "flag": ("{asked} has too few flags left: choose where to place one", "§7.4.8"),
    "invest": ("Investor: buy or upgrade one bond, or pass{as_swiss}", "§7.5"),
}


def _explain():
    from imperial_lab.core.games.imperial2030 import explain  # plain functions; nothing of Streamlit
    return explain


def nation_name(code: str) -> str:
    return _explain().nation(code)


def decision_lines(state) -> list[str]:
    """What the seat to move decides, with its rule, then a few lines of the position around it."""
    ex = _explain()
    doc = state.to_json()
    d = doc["decision"]
    kind, p = d["kind"], d["player"]
    code = doc["turn"]["nation"]
    queue = d.get("queue") or []
    asked = NATIONS[queue[0]] if kind in ("canal", "demand") and queue else None
    if kind == "flag" and d.get("flags_to_place"):
        asked = d["flags_to_place"][0][0]
    if kind == "variant_pick":
        code = NATIONS[min(d["variant_step"] // len(doc["players"]), 5)]
    arrival = d.get("arrival") or {}
    fields = {
        "nation": ex.nation(code) if code else "-", "possessive": ex.possessive(code) if code else "-",
        "destination": ex.space(d["destination"]) if d.get("destination") else "-",
        "factory_cost": state.board.factory_cost, "import_max": state.board.import_max,
        "phase": "armies" if d.get("armies_phase") else "fleets first, then armies",
        "asked": ex.nation(asked) if asked else "-", "move": d.get("move") or "-",
        "arrival": " ".join(filter(None, (arrival.get("stance"), arrival.get("unit")))) or "unit",
        "region": ex.region(arrival["region"]) if arrival.get("region") else "-",
        "as_swiss": "" if doc.get("investor_card") == p else " (as a Swiss bank)",
    }
    question, rule = WHAT.get(kind, (kind.replace("_", " "), ""))
    question = question.format(**fields)
    head = f"{seat_name(p)}: {question[0].upper()}{question[1:]}"
    title = f"{rule} Maneuver" if rule == "§7.4" else ex.rule_title(rule)  # RULES.md's heading of §7.4
    lines = [f"{head} [{title}]" if rule else head]
    if p is not None:
        lines.append("  " + _player_line(doc, p))
    concerned = asked if kind in ("canal", "demand", "flag") else code
    if concerned and kind not in ("invest", "deal"):
        lines.append("  " + _nation_line(doc, concerned, units=kind in ("maneuver", "fight", "demand")))
    lines.append("  " + _game_line(state, doc))
    return lines


def _player_line(doc: dict, p: int) -> str:
    player = doc["players"][p]
    governs = [code for code, n in doc["nations"].items() if n["government"] == p]
    parts = [f"cash {player['cash']}m", "bonds " + (", ".join(player["bonds"]) or "none"),
             "governs " + (", ".join(governs) or "nothing")]
    if player.get("swiss_bank"):
        parts.append("Swiss bank")
    return f"You ({seat_name(p)}): " + "; ".join(parts)


def _nation_line(doc: dict, code: str, units: bool) -> str:
    ex = _explain()
    n = doc["nations"][code]
    gov = "no government" if n["government"] is None else f"governed by {seat_name(n['government'])}"
    rondel = ex.space(n["rondel"]) if n["rondel"] else "not yet placed"
    parts = [gov, f"treasury {n['treasury']}m", _count(n["power_points"], "power point", "power points"),
             f"rondel {rondel}",
             "factories " + (", ".join(n["factories"]) or "none")]
    own = [u for u in doc["units"] if u["nation"] == code]
    if units:
        placed = [f"{' '.join(filter(None, (u.get('stance'), u['unit'])))} {u['region']}"
                  + (f" ×{u['count']}" if u["count"] > 1 else "") for u in own]
        parts.append("units " + (", ".join(placed) or "none"))
    else:
        armies = sum(u["count"] for u in own if u["unit"] == "army")
        fleets = sum(u["count"] for u in own if u["unit"] == "fleet")
        parts.append(f"{_count(armies, 'army', 'armies')}, {_count(fleets, 'fleet', 'fleets')}")
    if n["flags"]:
        parts.append(_count(len(n["flags"]), "flag", "flags"))
    return f"{ex.nation(code)[0].upper()}{ex.nation(code)[1:]}: " + "; ".join(parts)


def _count(k: int, one: str, many: str) -> str:
    return f"{k} {one if k == 1 else many}"


def _game_line(state, doc: dict) -> str:
    turn = doc["turn"]
    pp = " ".join(f"{code} {n['power_points']}" for code, n in doc["nations"].items())
    scores = ", ".join(f"{chr(ord('A') + p)} {_number(x)}" for p, x in enumerate(state.returns()))
    return f"Round {turn['round']}, nation turn {turn['nation_turns']}; power points {pp}; scores now {scores}"


def _number(x: float):
    return int(x) if x == int(x) else round(x, 1)


def action_notes(state) -> list[str | None]:
    """One note (or None) per legal action, in the order of ``legal_actions()``: a rondel move's
    distance and cost, a bond's price and the government it would take over."""
    legal = state.legal_actions()
    if not any(a[0] in (RONDEL, BUY, UPGRADE) for a in legal):
        return [None] * len(legal)
    doc = state.to_json()
    return [_note(state, doc, a) for a in legal]


def _note(state, doc: dict, a) -> str | None:
    if a[0] == RONDEL:
        code = doc["turn"]["nation"]
        n = doc["nations"][code]
        if n["rondel"] is None:
            return "first placement, free"
        cur = SPACES.index(n["rondel"])
        d = (a[1] - cur) % 8
        cost = move_cost(d, min(n["power_points"], 25) // 5)
        text = f"{d} space{'s' if d != 1 else ''}, " + (f"costs {cost}m" if cost else "free")
        return text + (", passes Investor" if passes_investor(cur, d) else "")
    if a[0] in (BUY, UPGRADE):
        return _bond_note(state, doc, a)
    return None


def _bond_note(state, doc: dict, a) -> str:
    cost = state.board.bond_cost
    code, new = NATIONS[a[1]], a[-1]
    p = doc["decision"]["player"]
    if a[0] == UPGRADE:
        price = cost[new - 1] - cost[a[2] - 1]
        text = f"pays {price}m (bond {a[2]} goes back)"
    else:
        price = cost[new - 1]
        text = f"costs {price}m"
    gov = doc["nations"][code]["government"]
    if gov != p and state.try_transaction(p, a).gov[a[1]] == p:
        if gov is None:
            text += f"; you would govern {code} (§9)"
        else:
            text += f"; takes {code}'s government from {seat_name(gov)} (§9)"
    return text


def actor(state, player: int) -> str:
    """Who decides, in what role: ``Player B for Russia``, ``Player C (Swiss bank)``."""
    kind = state.decision_name()
    doc = state.to_json()
    d = doc["decision"]
    code = doc["turn"]["nation"]
    if kind in ("canal", "demand") and d.get("queue"):
        code = NATIONS[d["queue"][0]]
    elif kind == "flag" and d.get("flags_to_place"):
        code = d["flags_to_place"][0][0]
    elif kind == "veto":
        return f"{seat_name(player)} (Swiss bank)"
    elif kind == "invest":
        return f"{seat_name(player)} ({'investor' if doc.get('investor_card') == player else 'Swiss bank'})"
    elif kind == "variant_pick":
        code = None
    return f"{seat_name(player)} for {nation_name(code)}" if code else seat_name(player)


def active(state) -> str | None:
    """The code of the nation whose turn it is (events of payments for its rondel move name it)."""
    return state.to_json()["turn"]["nation"]


def event_lines(events, active: str | None = None) -> list[str]:
    """The events of one action in plain language: a new nation turn as a heading line (starting
    ``==``), the others indented, at most ``MAX_EVENT_LINES`` of them, payments already told by
    another event left out."""
    ex = _explain()
    out, said = [], []
    for event in events:
        e = event.to_json() if hasattr(event, "to_json") else dict(event)
        if e["kind"] == "nation_turn":
            out.append(f"== {ex.explain(e, active)}")
            active = e["nation"]
            continue
        if e["kind"] == "payment" and (e["reason"] in _TOLD_PAYMENTS or e["reason"].startswith(("rondel move",
                                                                                               "import of"))):
            continue
        said.append(f"    {ex.explain(e, active)}")
    if len(said) > MAX_EVENT_LINES:
        said = said[:MAX_EVENT_LINES - 1] + [f"    (and {len(said) - MAX_EVENT_LINES + 1} more events)"]
    # the heading of a new turn comes after what ended the previous one
    return said + out
