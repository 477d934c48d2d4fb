"""Engine events in plain language, each with the RULES.md section that produced it, so a learner can
follow a game rule by rule: ``explain(event, "RU")`` gives, for a payment in a turn of Russia,

    Player B (Russia's government) pays 3m to the bank for moving Russia 5 spaces on the rondel (§6)

Nations are named by name, seats as "Player A"…, regions by their board names and rondel spaces by
their printed names. ``SENTENCES`` has one entry per event kind of core/games/imperial2030/events.py.
"""

from __future__ import annotations

import re

from imperial_lab.core.games.imperial2030.words import CANAL_NAMES, in_words, nation, place, possessive, space
from imperial_lab.core.interface import seat_name as player_label
from imperial_lab.core.words import and_list, article, count

# Section headings of RULES.md, for the sections events cite.
RULE_TITLES = {
    "§4.2": "Standard setup", "§4.3": "Experienced-players variant", "§4.4": "Investor card",
    "§5": "Turn structure", "§6": "The rondel", "§7.1": "Factory", "§7.2": "Production", "§7.3": "Import",
    "§7.4.1": "Fleets", "§7.4.2": "Armies", "§7.4.3": "Canals", "§7.4.4": "Battles",
    "§7.4.5": "Entering another nation's home province", "§7.4.6": "Protection of the last working factory",
    "§7.4.7": "Destroying a factory", "§7.4.8": "Flags", "§7.5": "Investor", "§7.6": "Taxation",
    "§8": "Passing over Investor; Swiss-bank veto", "§9": "Governments and Swiss banks",
    "§10": "End of the game and scoring",
}


def explain(event: dict, active: str | None = None) -> str:
    """One sentence for an event (``Event.to_json()``), ending with its rule: ``... (§7.6)``.

    ``active`` is the code of the nation whose turn it is: a payment for a rondel move does not
    name the nation, the sentence then does. A kind this module does not know still gets a sentence
    (its fields), so a newer engine never breaks a page.
    """
    sentence = SENTENCES.get(event["kind"], _unknown)(event, active)
    return f"{sentence[0].upper()}{sentence[1:]} ({event['rule']})"


def rule_title(rule: str) -> str:
    """``§7.6`` -> ``§7.6 Taxation`` (the rule itself when RULES.md has no such heading)."""
    return f"{rule} {RULE_TITLES[rule]}" if rule in RULE_TITLES else rule


# ----- names (the game's own: imperial_lab.core.games.imperial2030.words) -----

def party(ref: str) -> str:
    """A payment's ``from``/``to``: the bank, a treasury (nation code) or a player (``player:N``)."""
    if ref == "bank":
        return "the bank"
    if ref.startswith("player:"):
        return player_label(int(ref[7:]))
    return f"{possessive(ref)} treasury"


def _names(seats: list[int]) -> str:
    return and_list(player_label(p) for p in seats)


# ----- payments (§4.2 starting cash ... §7.6 taxation) -----

PAYMENTS = {
    "starting cash": "{payee} receives {amount}m of starting cash from the bank",
    "bond purchase": "{payer} pays {amount}m into {payee} for a bond",
    "bond upgrade": "{payer} pays {amount}m into {payee} for a bond upgrade (the difference in cost)",
    "cash top-up": "{payer} tops up {payee} with {amount}m of personal cash",
    "factory": "{payer} pays {amount}m to the bank for a factory",
    "tax revenue": "the bank pays {amount}m of tax revenue into {payee}",
    "soldiers' pay": "{payer} pays {amount}m of soldiers' pay to the bank (1m per army and fleet)",
    "success bonus": "{payer} pays a success bonus of {amount}m to its government, {payee}",
    "interest": "{payer} pays {amount}m of interest to {payee}",
    "interest the treasury could not pay": "{payer}, as government, pays {amount}m of interest to {payee} "
                                           "from personal cash because the treasury could not",
    "investor card": "{payee} takes {amount}m from the bank as holder of the investor card",
}
RONDEL_MOVE = re.compile(r"rondel move of (\d+) spaces")
IMPORT = re.compile(r"import of a (army|fleet)")


def _payment(e: dict, active: str | None) -> str:
    payer, payee, amount, reason = party(e["from"]), party(e["to"]), e["amount"], e["reason"]
    if reason in PAYMENTS:
        return PAYMENTS[reason].format(payer=payer, payee=payee, amount=amount)
    if m := RONDEL_MOVE.fullmatch(reason):
        if active is None:
            return f"{payer} pays {amount}m to the bank for a rondel move of {count(int(m[1]), 'space')}"
        return (f"{payer} ({possessive(active)} government) pays {amount}m to the bank for moving "
                f"{nation(active)} {count(int(m[1]), 'space')} on the rondel")
    if m := IMPORT.fullmatch(reason):
        return f"{payer} pays {amount}m to the bank to import {article(m[1])}"
    return f"{payer} pays {amount}m to {payee} ({reason})"


# ----- everything else, in the order of the events.py docstring -----

def _deal(e: dict, active) -> str:
    cards = ", ".join(f"{player_label(p)} {nation(code)}" for p, code in enumerate(e["cards"]))
    return (f"the flag cards are dealt, the lead card of each seat: {cards}; a card brings its nation's 9m bond "
            "and another nation's 2m bond")


def _bond_taken(e: dict, active) -> str:
    return f"{player_label(e['player'])} takes bond no. {e['number']} of {nation(e['nation'])} ({e['cost']}m)"


def _bond_returned(e: dict, active) -> str:
    return f"{player_label(e['player'])} returns bond no. {e['number']} of {nation(e['nation'])} to its pile"


def _nation_turn(e: dict, active) -> str:
    return (f"turn {e['turn']}, round {e['round']}: {possessive(e['nation'])} turn, governed by "
            f"{player_label(e['government'])}")


def _rondel(e: dict, active) -> str:
    who, to = nation(e["nation"]), space(e["to"])
    if e["from"] is None:
        return f"{who} places its rondel marker on {to} (its first move is free)"
    vetoed = e["rule"] == "§8"  # only the forced stop on Investor after a veto cites §8
    moves = f"stops on {to} after the veto" if vetoed else f"moves to {to}"
    passing = ", passing over Investor" if e["passed_investor"] else ""
    cost = f"; its government pays {e['cost']}m" if e["cost"] else "; free"
    return f"{who} {moves}: {count(e['distance'], 'space')} on the rondel from {space(e['from'])}{passing}{cost}"


def _veto(e: dict, active) -> str:
    return (f"{player_label(e['player'])}, a Swiss bank, vetoes {possessive(e['nation'])} move to "
            f"{space(e['wanted'])}: {nation(e['nation'])} must stop on Investor")


def _factory_built(e: dict, active) -> str:
    kind = "an armaments factory" if e.get("type") == "armaments" else "a shipyard"
    return f"{nation(e['nation'])} builds {kind} in {place(e['region'])}"


def _factory_destroyed(e: dict, active) -> str:
    hostile = e.get("hostile_removed", 0)
    return (f"{possessive(e['by'])} armies destroy {possessive(e['nation'])} factory in {place(e['region'])}; "
            f"three of them are removed ({hostile} hostile, {3 - hostile} friendly)")


def _unit_built(e: dict, active) -> str:
    unit = article(e["unit"])
    if e["how"] == "import":
        return f"{nation(e['nation'])} imports {unit} into {place(e['region'])}"
    return f"{nation(e['nation'])} produces {unit} in {place(e['region'])}"


def _unit_moved(e: dict, active) -> str:
    text = f"{possessive(e['nation'])} {e['unit']} moves from {place(e['from'])} to {place(e['to'])}"
    if e.get("via"):
        text += " by convoy through " + ", ".join(place(sea) for sea in e["via"])
    if e.get("stance"):
        text += f" and enters as a {e['stance']} army"
    return text


def _canal(e: dict, active) -> str:
    answer = "allows" if e["allowed"] else "refuses"
    move = f" of {_trip(e['action'])}" if e.get("action") else ""
    return (f"{nation(e['controller'])}, whose flag controls the {CANAL_NAMES.get(e['canal'], e['canal'])} canal, "
            f"{answer} {possessive(e['nation'])} crossing{move}")


def _trip(text: str) -> str:
    """A move's text form as words (``an army from Rome to North Africa``); the text as it is if it
    does not parse (an event of a newer engine)."""
    from imperial_lab.core.games.imperial2030.action_words import trip  # it names things through these words
    from imperial_lab.core.errors import NotationError

    try:
        return trip(text)
    except NotationError:
        return in_words(text)


def _battle(e: dict, active) -> str:
    defender = f"{e['defender_stance']} {e['defender_unit']}" if e.get("defender_stance") else e["defender_unit"]
    return (f"battle in {place(e['region'])}: {possessive(e['attacker'])} {e['attacker_unit']} and "
            f"{possessive(e['defender'])} {defender} destroy each other")


def _flag_placed(e: dict, active) -> str:
    return f"{nation(e['nation'])} places a flag in {place(e['region'])}"


def _flag_removed(e: dict, active) -> str:
    return f"{possessive(e['nation'])} flag is removed from {place(e['region'])} and returns to its supply"


def _taxation(e: dict, active) -> str:
    f, flags, revenue = e["factories"], e["flags"], e["revenue"]
    capped = ", capped at 23" if 2 * f + flags > revenue else ""
    bonus = f"a success bonus of {e['bonus']}m" if e["bonus"] else "no success bonus"
    return (f"{nation(e['nation'])} collects {revenue}m of tax revenue (2 × {f} working factories + "
            f"{flags} flags{capped}), pays {e['soldiers_pay']}m of soldiers' pay and {bonus}")


def _power_points(e: dict, active) -> str:
    points = "power point" if e["gained"] == 1 else "power points"
    return f"{nation(e['nation'])} gains {e['gained']} {points} (now {e['total']})"


def _interest(e: dict, active) -> str:
    paid = "in full" if e["paid"] == e["owed"] else f"only {e['paid']}m"
    return (f"{player_label(e['player'])} is owed {e['owed']}m of interest on {possessive(e['nation'])} bonds "
            f"and is paid {paid}")


def _government(e: dict, active) -> str:
    if e["previous"] is None:
        return f"{player_label(e['new'])} becomes {possessive(e['nation'])} government"
    return (f"{player_label(e['new'])} takes over {possessive(e['nation'])} government from "
            f"{player_label(e['previous'])}, with the highest credit sum")


def _swiss_bank(e: dict, active) -> str:
    if e["has"]:
        return f"{player_label(e['player'])} governs no nation and gets a Swiss bank"
    return f"{player_label(e['player'])} governs a nation again and gives up the Swiss bank"


def _investor_card(e: dict, active) -> str:
    if e["previous"] is None:
        return f"{player_label(e['new'])} receives the investor card"
    return f"the investor card passes from {player_label(e['previous'])} to {player_label(e['new'])}"


def _game_ended(e: dict, active) -> str:
    scores = ", ".join(f"{player_label(p)} {score}" for p, score in enumerate(e["scores"]))
    winners = e["winners"]
    verdict = (f"{_names(winners)} wins" if len(winners) == 1 else f"{_names(winners)} share the win")
    return f"the game ends: {nation(e['nation'])} reaches 25 power points; scores {scores}; {verdict}"


def _unknown(e: dict, active) -> str:
    fields = ", ".join(f"{k} {v}" for k, v in e.items() if k not in ("kind", "rule"))
    return f"{e['kind'].replace('_', ' ')}: {fields}"


SENTENCES = {
    "payment": _payment, "deal": _deal, "bond_taken": _bond_taken, "bond_returned": _bond_returned,
    "nation_turn": _nation_turn, "rondel": _rondel, "veto": _veto, "factory_built": _factory_built,
    "factory_destroyed": _factory_destroyed, "unit_built": _unit_built, "unit_moved": _unit_moved,
    "canal": _canal, "battle": _battle, "flag_placed": _flag_placed, "flag_removed": _flag_removed,
    "taxation": _taxation, "power_points": _power_points, "interest": _interest, "government": _government,
    "swiss_bank": _swiss_bank, "investor_card": _investor_card, "game_ended": _game_ended,
}
