"""Actions in plain words, for people who do not read the notation (docs/formats.md, "Action
notation"): ``action_words("move army rome -> north_africa via mediterranean_sea", before)`` gives

    Europe moves an army from Rome to North Africa, convoyed over the Mediterranean Sea

An action's text names only what it chooses; who chooses, for which nation and at what price is
read from the position document *before* the action (its ``decision`` and ``turn``), which the
timeline has at hand. Names are the game's words (imperial_lab.core.games.imperial2030.words: board names,
"Player A", …).
"""

from __future__ import annotations

from imperial_lab.core.games.imperial2030.actions import (ARMY, ARMY_UNIT, BATTLE, BUILD, BUY, CANAL, DEAL, DECLINE, DEMAND, DESTROY, END,
                                       FLAG, FLEET, FLEET_UNIT, FIGHT, IMPORT, PASS, PRODUCE, RONDEL, STANCE_NAMES,
                                       TOPUP, UNIT_NAMES, UPGRADE, VETO, parse_action)
from imperial_lab.core.games.imperial2030.data import NATIONS, SPACES, load_board
from imperial_lab.core.games.imperial2030.turn import move_cost, passes_investor
from imperial_lab.core.games.imperial2030.words import bond, nation, place, possessive, space
from imperial_lab.core.interface import seat_name as player_label
from imperial_lab.core.words import and_list, article, capital, count


def action_words(text: str, before: dict) -> str:
    """One sentence for the action ``text`` taken in the position document ``before``; raises
    NotationError when ``text`` does not parse."""
    a = parse_action(load_board(), text)
    sentence = WORDS[a[0]](a, before)
    return sentence[0].upper() + sentence[1:]


def trip(text: str) -> str:
    """A unit move's text form as words, without the nation: ``move army rome -> north_africa via
    mediterranean_sea`` -> ``an army from Rome to North Africa, convoyed over the Mediterranean Sea``;
    NotationError for a text that is no unit move."""
    from imperial_lab.core.errors import NotationError

    a = parse_action(load_board(), text)
    if a[0] not in (FLEET, ARMY):
        raise NotationError(f"not a unit move: {text!r}")
    return _trip(a)


# ----- names -----

def _unit(kind: int, stance: int, with_article: bool = True) -> str:
    noun = f"{STANCE_NAMES[stance]} {UNIT_NAMES[kind]}" if stance else UNIT_NAMES[kind]
    return article(noun) if with_article else noun


def _seat(doc: dict) -> str:
    return player_label(doc["decision"]["player"])


def _active(doc: dict) -> str:
    return doc["turn"]["nation"]


def _asked(doc: dict) -> str:
    """The other nation a canal or demand question goes to (the head of the queue)."""
    return NATIONS[doc["decision"]["queue"][0]]


def _bond(code: str, number: int) -> str:
    return f"{possessive(code)} {load_board().bond_cost[number - 1]}m bond"


def _place(r: int) -> str:
    return place(load_board().region_ids[r])


def _regions(ids: tuple[int, ...]) -> list[str]:
    return [_place(r) for r in ids]


# ----- one function per action type, in the order of the notation table -----

def _deal(a, doc) -> str:
    cards = ", ".join(f"{player_label(p)} {nation(NATIONS[n])}" for p, n in enumerate(a[1]))
    return f"chance deals the lead flag cards: {cards}"


def _buy(a, doc) -> str:
    return f"{_seat(doc)} buys {_bond(NATIONS[a[1]], a[2])}"


def _upgrade(a, doc) -> str:
    cost = load_board().bond_cost
    return (f"{_seat(doc)} buys {_bond(NATIONS[a[1]], a[3])} (pays {cost[a[3] - 1] - cost[a[2] - 1]}m, "
            f"trading in the {cost[a[2] - 1]}m bond)")


def _pass(a, doc) -> str:
    return f"{_seat(doc)} buys no bond"


def _topup(a, doc) -> str:
    return f"{_seat(doc)} moves {a[1]}m of personal cash into {possessive(_active(doc))} treasury"


def _rondel(a, doc) -> str:
    code = _active(doc)
    state = doc["nations"][code]
    if state["rondel"] is None:
        return f"{nation(code)} places its rondel marker on {space(SPACES[a[1]])}"
    start = SPACES.index(state["rondel"])
    distance = (a[1] - start) % 8
    cost = move_cost(distance, min(state["power_points"], 25) // 5)
    spaces = count(distance, "space")
    price = f"pays {cost}m" if cost else "free"
    passing = ", passing over Investor" if passes_investor(start, distance) else ""
    return f"{nation(code)} moves to {space(SPACES[a[1]])} ({spaces}, {price}{passing})"


def _veto(a, doc) -> str:
    code, wanted = _active(doc), space(doc["decision"]["destination"])
    if a[1]:
        return f"{_seat(doc)}, a Swiss bank, vetoes {possessive(code)} move to {wanted}: it stops on Investor"
    return f"{_seat(doc)}, a Swiss bank, lets {nation(code)} pass over Investor to {wanted} (no veto)"


def _build(a, doc) -> str:
    if a[1] < 0:
        return f"{nation(_active(doc))} builds no factory"
    return f"{nation(_active(doc))} builds a factory in {_place(a[1])}"


def _produce(a, doc) -> str:
    where = f"only in {and_list(_regions(a[1]))}" if a[1] else "nothing"
    return f"{nation(_active(doc))} produces {where} (a unit limit bites)"


def _import(a, doc) -> str:
    if a[1] < 0:
        return f"{nation(_active(doc))} ends its import"
    return f"{nation(_active(doc))} imports {_unit(a[1], 0)} into {_place(a[2])}"


def _trip(a, with_article: bool = True) -> str:
    """What a move moves, and where: ``an army from Rome to North Africa, convoyed over …``."""
    if a[0] == FLEET:
        origin, to = _regions((a[1], a[2]))
        return f"{_unit(FLEET_UNIT, 0, with_article)} from {origin} to {to}"
    _, frm, stance, dest, via, as_stance = a
    origin, to = _regions((frm, dest))
    text = f"{_unit(ARMY_UNIT, stance, with_article)} from {origin} to {to}"
    if via:
        text += f", convoyed over {and_list(_regions(via))}"
    if as_stance:
        text += f", entering as a {STANCE_NAMES[as_stance]} army"
    return text


def _move(a, doc) -> str:
    return f"{nation(_active(doc))} moves {_trip(a)}"


def _canal(a, doc) -> str:
    move = parse_action(load_board(), doc["decision"]["move"])
    answer = "allows" if a[1] else "refuses"
    return (f"the canal controller ({nation(_asked(doc))}) {answer} the crossing of "
            f"{possessive(_active(doc))} {_trip(move, with_article=False)}")


def _arrival(doc: dict) -> str:
    """The unit whose arrival is being fought over: ``Europe's fleet arriving in the China Sea``."""
    unit = doc["decision"]["arrival"]
    noun = " ".join(filter(None, (unit["stance"], unit["unit"])))
    return f"{possessive(_active(doc))} {noun} arriving in {place(unit['region'])}"


def _fight(a, doc) -> str:
    return f"{_arrival(doc)} fights {possessive(NATIONS[a[1]])} {_unit(a[2], a[3], with_article=False)}"


def _decline(a, doc) -> str:
    if doc["decision"]["kind"] == "demand":
        return f"{nation(_asked(doc))} demands no battle with {_arrival(doc)}"
    return f"{_arrival(doc)} fights no one"


def _demand(a, doc) -> str:
    return (f"{nation(_asked(doc))} demands a battle of its {_unit(a[1], a[2], with_article=False)} "
            f"with {_arrival(doc)}")


def _battle(a, doc) -> str:
    _, where, kind, stance, other, tkind, tstance = a
    return (f"{possessive(_active(doc))} {_unit(kind, stance, with_article=False)} in {_place(where)} "
            f"battles {possessive(NATIONS[other])} {_unit(tkind, tstance, with_article=False)} there")


def _destroy(a, doc) -> str:
    hostile = a[2]
    return (f"{possessive(_active(doc))} armies destroy the factory in {_place(a[1])}; three of "
            f"them are removed ({hostile} hostile, {3 - hostile} friendly)")


def _end(a, doc) -> str:
    return f"{nation(_active(doc))} ends its maneuver"


def _flag(a, doc) -> str:
    code = doc["decision"]["flags_to_place"][0][0]
    return f"{nation(code)} places a flag in {_place(a[1])}"


WORDS = {
    DEAL: _deal, BUY: _buy, UPGRADE: _upgrade, PASS: _pass, TOPUP: _topup, RONDEL: _rondel, VETO: _veto,
    BUILD: _build, PRODUCE: _produce, IMPORT: _import, FLEET: _move, ARMY: _move, CANAL: _canal,
    FIGHT: _fight, DECLINE: _decline, DEMAND: _demand, BATTLE: _battle, DESTROY: _destroy, END: _end,
    FLAG: _flag,
}


# ----- short words for a choice (a button, a list, a lesson's answers) -----

# What a rondel space makes the nation do (RULES.md §7), after the space's name.
SPACE_DOES = {
    "factory": "builds a factory, 5m (§7.1)",
    "production_1": "its factories produce units (§7.2)",
    "production_2": "its factories produce units (§7.2)",
    "maneuver_1": "moves its units: battles, flags (§7.4)",
    "maneuver_2": "moves its units: battles, flags (§7.4)",
    "investor": "pays interest; bonds are bought (§7.5)",
    "import": "buys up to 3 units, 1m each (§7.3)",
    "taxation": "taxes, bonus, power points (§7.6)",
}


def choice_words(text: str) -> str:
    """An action's text form as a short choice, without the position: ``rondel taxation`` ->
    ``Taxation``, ``buy RU 3`` -> ``Buy Russia's bond 3 (6m)``, ``move army moscow -> ukraine`` ->
    ``Army Moscow → Ukraine``; a text this does not know is returned as it is."""
    words = text.split()
    if not words or words[0] not in _CHOICES:
        return text
    try:
        return _CHOICES[words[0]](words[1:])
    except (IndexError, KeyError, ValueError):
        return text


def _choice_move(rest):
    """``[STANCE] army|fleet A -> B [via S,S] [as STANCE]``"""
    arrow = rest.index("->")
    unit, origin, dest = " ".join(rest[:arrow - 1]), rest[arrow - 1], rest[arrow + 1]
    text = f"{capital(unit)} {place(origin)} → {place(dest)}"
    tail = rest[arrow + 2:]
    if "via" in tail:
        text += " by convoy over " + ", ".join(place(s) for s in tail[tail.index("via") + 1].split(","))
    if "as" in tail:
        text += f", entering as {tail[tail.index('as') + 1]}"
    return text


def _choice_import(rest):
    if rest == ["done"]:
        return "End the import"
    return f"Import {article(rest[0])} in {place(rest[1])} (1m)"


def _choice_battle(rest):  # fleet china_sea vs CN fleet
    vs = rest.index("vs")
    return (f"{capital(' '.join(rest[:vs - 1]))} in {place(rest[vs - 1])} battles "
            f"{possessive(rest[vs + 1])} {' '.join(rest[vs + 2:])}")


def _choice_produce(rest):
    return "Produce nowhere" if rest == ["none"] else "Produce in " + and_list(place(r) for r in rest[0].split(","))


_CHOICES = {
    "deal": lambda rest: "Deal the flag cards (each seat's lead card): " + and_list(
        f"{player_label(k)} {nation(code)}" for k, code in enumerate(rest[0].split(","))),
    "rondel": lambda rest: space(rest[0]),
    "topup": lambda rest: f"Top up {rest[0]}m",
    "buy": lambda rest: f"Buy {bond(rest[0], int(rest[1]))}",
    "upgrade": lambda rest: f"Upgrade {possessive(rest[0])} bond {rest[1]} to bond {rest[3]} "
                            f"({load_board().bond_cost[int(rest[3]) - 1]}m)",
    "pass": lambda rest: "Pass: buy nothing",
    "veto": lambda rest: "Veto: the nation stops on Investor",
    "no": lambda rest: "No veto: let it pass",
    "build": lambda rest: "Build no factory" if rest == ["none"] else f"Build a factory in {place(rest[0])}",
    "produce": _choice_produce, "import": _choice_import, "move": _choice_move, "battle": _choice_battle,
    "destroy": lambda rest: f"Destroy the factory in {place(rest[0])} ({rest[2]} of the 3 armies removed hostile)",
    "end": lambda rest: "End the maneuver",
    "allow": lambda rest: "Allow the passage", "deny": lambda rest: "Deny the passage",
    "fight": lambda rest: f"Fight {possessive(rest[0])} {' '.join(rest[1:])}",
    "demand": lambda rest: f"Demand a battle with your {' '.join(rest)}",
    "decline": lambda rest: "Decline the battle",
    "flag": lambda rest: f"Place the flag in {place(rest[0])}",
}
