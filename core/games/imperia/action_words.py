"""Imperia's actions in plain words, for people who do not read the notation (docs/imperia.md,
"Action notation"): ``action_words("place cav/d 3,2 SE")`` gives

    A slanted cavalry on 3,2, facing south-east

The text form names everything an action chooses, so no position is needed. A draw names its tile:
show it only to the seat that draws (``texts.seen_text`` hides it from the others, §7.2). The names
are the game's words (imperial_lab.core.games.imperia.words).
"""

from __future__ import annotations

from imperial_lab.core.errors import NotationError
from imperial_lab.core.games.imperia.actions import parse_action
from imperial_lab.core.games.imperia.words import facing, quarter, turned, type_words, who
from imperial_lab.core.words import article, capital


def action_words(text: str) -> str:
    """One phrase for the action ``text``; the text as it is when it does not parse (or is a draw
    shown hidden: ``draw red (hidden)``)."""
    words = text.split()
    try:
        parse_action(text)
    except NotationError:
        return _hidden_draw(words) or text
    return capital(WORDS[words[0]](words))


def _hidden_draw(words: list[str]) -> str | None:
    if words[:1] == ["draw"] and words[-1] == "(hidden)":
        return f"{capital(words[1].replace('_', ' '))} draws a tile (hidden)"
    return None


def _swap(w):
    if w[1] == "own":
        return (f"direct troops: your soldiers on {w[2]} and {w[3]} change places; the front goes to {w[5]}, "
                f"facing {facing(w[6])}")
    return f"direct troops: your soldier on {w[2]} takes the enemy's place on {w[3]}, facing {facing(w[4])}"


# The first word of an action's text form -> its words (w: the text's words).
WORDS = {
    "start": lambda w: f"chance draws the start player: {who(int(w[1]))} begins",
    "random": lambda w: f"chance lays board {w[2][0]}, side {w[2][1]}, in the last free quarter, {turned(w[3])}",
    "board": lambda w: f"board {w[1][0]}, side {w[1][1]}, in {quarter(w[2])}, {turned(w[3])}",
    "fortress": lambda w: f"the fortress on {w[1]}",
    "draw": lambda w: f"{w[1].replace('_', ' ')} draws {article(type_words(w[2]))}",
    "place": lambda w: f"{article(type_words(w[1]))} on {w[2]}, facing {facing(w[3])}",
    "warlord": lambda w: f"the warlord on {w[1]}",
    "mobilise": lambda w: f"mobilise: the stack on {w[1]} marches on, its soldier then facing {facing(w[2])}",
    "swap": _swap,
    "retire": lambda w: "retire: there is no placement at all",
}
