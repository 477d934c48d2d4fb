"""Imperial 2030 in words for terminal play (``core/human.py``): what a decision is about and its
rule, a compact view of the position that matters for it, a note per legal action (the cost of a
rondel move, the price of a bond and whether it would take over a government), and the events of
an action in plain language.

Everything is read from the position document (``state.to_json()``, docs/formats.md) and the
board's tables, and named in the game's words (``imperial_lab.core.games.imperial2030.words``: no id
reaches a person); events are explained by ``imperial_lab.core.games.imperial2030.explain``.
"""

from __future__ import annotations

from imperial_lab.core.games.imperial2030.actions import BUY, RONDEL, UPGRADE
from imperial_lab.core.games.imperial2030.data import NATIONS, SEA, SPACES
from imperial_lab.core.games.imperial2030.explain import explain, rule_title
from imperial_lab.core.games.imperial2030.turn import move_cost, passes_investor
from imperial_lab.core.games.imperial2030.words import (NATION_NAMES, bonds_text, in_words, nation, nations_text, place,
                                                        possessive, power_points, regions_text, space, units_text)
from imperial_lab.core.interface import seat_name
from imperial_lab.core.words import capital, count, refusal_words

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
    "canal": ("{asked} controls the canal {possessive} {move} would cross: allow or deny the crossing", "§7.4.3"),
    "fight": ("{possessive} {arrival} has arrived in {region}: fight a foreign unit there, or decline", "§7.4.4"),
    "demand": ("{possessive} {arrival} has arrived in {region}: {asked} may demand a battle with one of "
               "its units there, or decline", "§7.4.4"),
    "flag": ("{asked} has too few flags left: choose where to place one", "§7.4.8"),
    "invest": ("Investor: buy or upgrade one bond, or pass{as_swiss}", "§7.5"),
}


def decision_lines(state) -> list[str]:
    """What the seat to move decides, with its rule, then a few lines of the position around it."""
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
        "nation": nation(code) if code else "-", "possessive": possessive(code) if code else "-",
        "destination": space(d["destination"]) if d.get("destination") else "-",
        "factory_cost": state.board.factory_cost, "import_max": state.board.import_max,
        "phase": "armies" if d.get("armies_phase") else "fleets first, then armies",
        "asked": nation(asked) if asked else "-", "move": _move(d.get("move")),
        "arrival": " ".join(filter(None, (arrival.get("stance"), arrival.get("unit")))) or "unit",
        "region": place(arrival["region"]) if arrival.get("region") else "-",
        "as_swiss": "" if doc.get("investor_card") == p else " (as a Swiss bank)",
    }
    question, rule = WHAT.get(kind, (kind.replace("_", " "), ""))
    question = question.format(**fields)
    head = f"{seat_name(p)}: {capital(question)}"
    title = f"{rule} Maneuver" if rule == "§7.4" else rule_title(rule)  # RULES.md's heading of §7.4
    lines = [f"{head} [{title}]" if rule else head]
    if p is not None:
        lines.append("  " + _player_line(doc, p))
    concerned = asked if kind in ("canal", "demand", "flag") else code
    if concerned and kind not in ("invest", "deal"):
        lines.append("  " + _nation_line(doc, concerned, units=kind in ("maneuver", "fight", "demand")))
    lines.append("  " + _game_line(state, doc))
    return lines


def _move(text: str | None) -> str:
    """The move a canal question is about, in words (``army from Rome to North Africa``)."""
    if not text:
        return "move"
    from imperial_lab.core.games.imperial2030.action_words import trip
    return trip(text).split(" ", 1)[1]  # without its article: "Europe's fleet from ..."


def _player_line(doc: dict, p: int) -> str:
    player = doc["players"][p]
    governs = [code for code, n in doc["nations"].items() if n["government"] == p]
    parts = [f"cash {player['cash']}m", "bonds " + bonds_text(player["bonds"]), "governs " + nations_text(governs)]
    if player.get("swiss_bank"):
        parts.append("Swiss bank")
    return f"You ({seat_name(p)}): " + "; ".join(parts)


def _nation_line(doc: dict, code: str, units: bool) -> str:
    n = doc["nations"][code]
    gov = "no government" if n["government"] is None else f"governed by {seat_name(n['government'])}"
    rondel = space(n["rondel"]) if n["rondel"] else "not yet placed"
    parts = [gov, f"treasury {n['treasury']}m", power_points(n["power_points"]), f"rondel {rondel}",
             "factories in " + regions_text(n["factories"])]
    own = [u for u in doc["units"] if u["nation"] == code]
    if units:
        parts.append("units: " + units_text(own))
    else:
        armies = sum(u["count"] for u in own if u["unit"] == "army")
        fleets = sum(u["count"] for u in own if u["unit"] == "fleet")
        parts.append(f"{count(armies, 'army')}, {count(fleets, 'fleet')}")
    if n["flags"]:
        parts.append(count(len(n["flags"]), "flag"))
    return f"{capital(nation(code))}: " + "; ".join(parts)


def _game_line(state, doc: dict) -> str:
    turn = doc["turn"]
    pp = ", ".join(f"{NATION_NAMES[code]} {n['power_points']}" for code, n in doc["nations"].items())
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
        text = f"{count(d, 'space')}, " + (f"costs {cost}m" if cost else "free")
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
            text += f"; you would govern {nation(code)} (§9)"
        else:
            text += f"; takes {possessive(code)} government from {seat_name(gov)} (§9)"
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
    return f"{seat_name(player)} for {nation(code)}" if code else seat_name(player)


def active(state) -> str | None:
    """The code of the nation whose turn it is (events of payments for its rondel move name it)."""
    return state.to_json()["turn"]["nation"]


def event_lines(events, active: str | None = None) -> list[str]:
    """The events of one action in plain language: a new nation turn as a heading line (starting
    ``==``), the others indented, at most ``MAX_EVENT_LINES`` of them, payments already told by
    another event left out."""
    out, said = [], []
    for event in events:
        e = event.to_json() if hasattr(event, "to_json") else dict(event)
        if e["kind"] == "nation_turn":
            out.append(f"== {explain(e, active)}")
            active = e["nation"]
            continue
        if e["kind"] == "payment" and (e["reason"] in _TOLD_PAYMENTS or e["reason"].startswith(("rondel move",
                                                                                               "import of"))):
            continue
        said.append(f"    {explain(e, active)}")
    if len(said) > MAX_EVENT_LINES:
        said = said[:MAX_EVENT_LINES - 1] + [f"    (and {len(said) - MAX_EVENT_LINES + 1} more events)"]
    # the heading of a new turn comes after what ended the previous one
    return said + out


# ----- why not? -----

def refusal(state, action, error) -> str:
    """Why the seat to move may not play ``action``: one sentence, its ids in words, naming the rule
    in words (``Not allowed: Ukraine cannot be reached from Moscow by rail and one land step (§7.4.2
    Armies).``). ``error`` is the engine's IllegalActionError for it."""
    return refusal_words(error, rule_words, in_words)


def rule_words(rule: str) -> str:
    """``§7.4.6`` -> ``§7.4.6 Protection of the last working factory``: the section with its heading
    on the Rules page (its nearest enclosing section's for a finer reference)."""
    from imperial_lab.core.games.imperial2030.rules_text import REFERENCE

    found = REFERENCE.resolve(rule)
    return f"{rule} {found.title}" if found is not None else rule


def why_not_options(state) -> list[str]:
    """Every action of the decision a person may ask "why not?" about, as text forms: the legal ones,
    then the tempting illegal ones the board suggests: every rondel space, every bond of every
    nation, a factory in every home province, an import into each, and every unit's step to each
    neighbouring region."""
    legal = [state.action_to_string(a) for a in state.legal_actions()]
    doc = state.to_json()
    kind, code = doc["decision"]["kind"], doc["turn"]["nation"]
    board = state.board
    tempting: list[str] = []
    if kind == "turn_start":
        tempting = [f"rondel {s}" for s in SPACES]
    elif kind in ("invest", "variant_pick"):
        tempting = [f"buy {n} {k}" for n in NATIONS for k in range(1, len(board.bond_cost) + 1)] + ["pass"]
    elif kind == "factory":
        tempting = [f"build {board.region_ids[r]}" for r in board.homes[NATIONS.index(code)]]
    elif kind == "import":
        tempting = [f"import {unit} {board.region_ids[r]}" for unit in ("army", "fleet")
                    for r in board.homes[NATIONS.index(code)]]
    elif kind == "maneuver":
        tempting = _steps(board, doc, code) + ["end maneuver"]
    seen = set(legal)
    return legal + [text for text in dict.fromkeys(tempting) if text not in seen]


def _steps(board, doc: dict, code: str) -> list[str]:
    """A step of each of the nation's units to each neighbouring region (a fleet at sea to the seas
    around it, a fleet in harbour to its sea, an army to the lands around it)."""
    out = []
    for u in doc["units"]:
        if u["nation"] != code:
            continue
        r = board.region_index[u["region"]]
        if u["unit"] == "fleet":
            around = board.sea_adj[r] if board.kind[r] == SEA else (board.shipyard_sea[r],)
            out += [f"move fleet {u['region']} -> {board.region_ids[to]}" for to in around if to >= 0]
        else:
            mover = " ".join(filter(None, (u.get("stance"), "army")))
            out += [f"move {mover} {u['region']} -> {board.region_ids[to]}" for to in board.land_adj[r]]
    return out
