"""The Play page's plain functions (no Streamlit): the legal actions in plain words and in groups,
the hint as table rows and the bots a seat can be given. Keeping games in progress for a reload is
the shared imperial_lab.dashboard.playkit's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from imperial_lab.dashboard.games.imperial2030.colours import NATION_NAMES
from imperial_lab.core.games.imperial2030.words import SPACE_NAMES, nation, region
from imperial_lab.core.session import PlaySession
from imperial_lab.dashboard.playkit import PERSON

BOTS = ("random", "heuristic", "mcts")  # the bots a seat can be given
STRENGTHS = (50, 200, 800)  # playouts per decision of the search bot (mcts), its strength
HINT_STRENGTHS = (50, 200, 800)
HINT_ROWS = 5  # the hint's choice and its best alternatives

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
# The first word of an action's text form -> the heading of its group (in the order the engine lists them).
GROUPS = {
    "rondel": "Rondel: where the nation goes (§6)",
    "topup": "Top up the treasury from your cash first (§5)",
    "buy": "Buy a bond (§7.5)", "upgrade": "Upgrade a bond (§7.5)", "pass": "Buy nothing",
    "veto": "Swiss-bank veto (§8)", "no": "Swiss-bank veto (§8)",
    "build": "Factory site (§7.1)", "produce": "Which factories produce (§7.2)",
    "import": "Import (§7.3)", "move": "Move a unit (§7.4)", "battle": "Battle (§7.4.4)",
    "destroy": "Destroy a factory (§7.4.7)", "end": "End the maneuver (§7.4.8)",
    "allow": "Canal (§7.4.3)", "deny": "Canal (§7.4.3)",
    "fight": "Battle (§7.4.4)", "demand": "Battle (§7.4.4)", "decline": "No battle",
    "flag": "Place a flag (§7.4.8)",
}
# Groups that share a heading are shown as one.
_SAME = {"no": "veto", "deny": "allow", "demand": "fight"}


# ----- the actions in plain words -----

def plain(text: str) -> str:
    """An action's text form in plain words: ``rondel taxation`` -> ``Taxation``, ``buy RU 3`` ->
    ``Buy Russia bond 3``; a text this does not know is returned as it is."""
    words = text.split()
    if not words:
        return text
    head, rest = words[0], words[1:]
    try:
        return _PLAIN[head](rest) if head in _PLAIN else text
    except (IndexError, KeyError, ValueError):
        return text


def _rondel(rest):
    return SPACE_NAMES[rest[0]]


def _buy(rest):
    return f"Buy {NATION_NAMES[rest[0]]} bond {rest[1]} (interest {rest[1]}m)"


def _upgrade(rest):  # CN 2 -> 5
    return f"Upgrade {NATION_NAMES[rest[0]]} bond {rest[1]} to {rest[3]} (interest {rest[3]}m)"


def _move(rest):
    """``[STANCE] army|fleet A -> B [via S,S] [as STANCE]``"""
    arrow = rest.index("->")
    unit, origin, dest = " ".join(rest[:arrow - 1]), rest[arrow - 1], rest[arrow + 1]
    text = f"{unit.capitalize()} {region(origin)} → {region(dest)}"
    tail = rest[arrow + 2:]
    if "via" in tail:
        seas = tail[tail.index("via") + 1].split(",")
        text += " by convoy over " + ", ".join(region(s) for s in seas)
    if "as" in tail:
        text += f", entering as {tail[tail.index('as') + 1]}"
    return text


def _import(rest):
    return "End the import" if rest == ["done"] else f"Import {'an army' if rest[0] == 'army' else 'a fleet'} " \
                                                     f"in {region(rest[1])} (1m)"


def _battle(rest):  # fleet china_sea vs CN fleet
    vs = rest.index("vs")
    return f"{' '.join(rest[:vs - 1]).capitalize()} in {region(rest[vs - 1])} battles " \
           f"{nation(rest[vs + 1])}'s {' '.join(rest[vs + 2:])}"


def _destroy(rest):  # murmansk with 3 hostile
    return f"Destroy the factory in {region(rest[0])} ({rest[2]} of the 3 armies removed hostile)"


def _produce(rest):
    return "Produce nowhere" if rest == ["none"] else "Produce in " + ", ".join(region(r) for r in rest[0].split(","))


_PLAIN = {
    "rondel": _rondel,
    "topup": lambda rest: f"Top up {rest[0]}m",
    "buy": _buy, "upgrade": _upgrade,
    "pass": lambda rest: "Pass: buy nothing",
    "veto": lambda rest: "Veto: the nation stops on Investor",
    "no": lambda rest: "No veto: let it pass",
    "build": lambda rest: "Build no factory" if rest == ["none"] else f"Build a factory in {region(rest[0])}",
    "produce": _produce, "import": _import, "move": _move, "battle": _battle, "destroy": _destroy,
    "end": lambda rest: "End the maneuver",
    "allow": lambda rest: "Allow the passage", "deny": lambda rest: "Deny the passage",
    "fight": lambda rest: f"Fight {nation(rest[0])}'s {' '.join(rest[1:])}",
    "demand": lambda rest: f"Demand a battle with your {' '.join(rest)}",
    "decline": lambda rest: "Decline the battle",
    "flag": lambda rest: f"Place the flag in {region(rest[0])}",
}


def detail(text: str, note: str | None) -> str:
    """What an action costs and does, beside its plain words: the game's note (a rondel move's
    distance and cost, a bond's price and the government it would take over) and, for a rondel
    space, what the space makes the nation do."""
    words = text.split()
    parts = [note] if note else []
    if words and words[0] == "rondel" and len(words) == 2 and words[1] in SPACE_DOES:
        parts.append(SPACE_DOES[words[1]])
    return " · ".join(parts)


@dataclass(frozen=True)
class Choice:
    """One legal action as the page shows it: its number (1-based, the engine's order), the
    action, its text form, its plain words and what it costs and does."""

    number: int
    action: object
    text: str
    words: str
    detail: str


def choices(session: PlaySession) -> list[Choice]:
    legal = session.legal()
    notes = session.action_notes()
    texts = [session.state.action_to_string(a) for a in legal]
    return [Choice(k, a, t, plain(t), detail(t, n)) for k, (a, t, n) in enumerate(zip(legal, texts, notes), 1)]


def grouped(options: list[Choice]) -> list[tuple[str, list[Choice]]]:
    """The choices by kind (the first word of the text form), in the order the engine lists the kinds."""
    groups: dict[str, list[Choice]] = {}
    for c in options:
        head = c.text.split()[0] if c.text.split() else c.text
        groups.setdefault(_SAME.get(head, head), []).append(c)
    return [(GROUPS.get(head, head.capitalize()), items) for head, items in groups.items()]


def hint_rows(session: PlaySession, hint, rows: int = HINT_ROWS) -> list[dict]:
    """The hint's most visited actions: number, plain words, text form, visits and the estimated win
    chance of the seat to move (the mean value of its playouts), as table rows."""
    number = {a: k for k, a in enumerate(session.legal(), 1)}
    out = []
    for s in hint.stats[:rows]:
        text = session.state.action_to_string(s.action)
        out.append({"choice": number.get(s.action), "action": plain(text), "text form": text, "visits": s.visits,
                    "win chance": None if s.value is None else round(100 * s.value)})
    return out


# ----- seats -----

def seat_spec(choice: str, strength: int) -> str | None:
    """The bot spec of a seat's choice (None for a person); ``strength`` is the search bot's playouts."""
    if choice == PERSON:
        return None
    if choice == "mcts":
        return f"mcts:playouts={strength}"
    return choice

