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
from imperial_lab.core.games.imperial2030.words import nation, place, possessive, space
from imperial_lab.core.interface import seat_name as player_label
from imperial_lab.core.words import and_list, article, count


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
