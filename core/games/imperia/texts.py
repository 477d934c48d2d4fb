"""Imperia's words for imperial_lab.core.session (the plug-in's ``texts`` part), for the terminal, the
Play page and the lessons: what a decision asks with its rule, the events of an action, why an action
is refused, and that another seat's draw names a hidden tile (§7.2)."""

from __future__ import annotations

from imperial_lab.core.games.imperia.actions import COLOURS
from imperial_lab.core.games.imperia.explain import explain
from imperial_lab.core.games.imperia.rules_text import REFERENCE
from imperial_lab.core.games.imperia.words import hand_words, who
from imperial_lab.core.interface import CHANCE
from imperial_lab.core.words import capital, count, refusal_words


def seen_text(state, player: int, text: str, viewer) -> str:
    """A move's text as ``viewer`` may read it: ``draw red inf/o`` names the tile only to red's seat."""
    words = text.split()
    if player == CHANCE and words[0] == "draw" and (viewer is None or COLOURS.index(words[1]) != viewer):
        return f"draw {words[1]} (hidden)"
    return text


# What a decision asks (the state's decision name) and its rule.
DECISIONS = {
    "board": ("lay a board: which one, which side, where and turned how far", "§3.2"),
    "fortress": ("build your fortress", "§3.3"),
    "turn": ("place a tile: a soldier from your hand, or the warlord", "§6.4"),
    "order": ("give the general's order", "§6.6"),
}


def decision_lines(state) -> list[str]:
    """What the seat to move decides, with its rule, then its hand and front (its own view, §7.2)."""
    p = state.current_player()
    question, rule = DECISIONS.get(state.decision_name(), (state.decision_name(), "§5"))
    view = state.observation(p)
    me = view["players"][p]
    lines = [f"{who(p)}: {capital(question)} [{REFERENCE.title(rule)}]",
             f"  Your hand: {hand_words(me['hand'])}; your pile: {count(me['pile_size'], 'tile')}"]
    if me["cube"] is not None:
        lines.append(f"  Your front: {','.join(map(str, me['cube']))}")
    return lines


def active(state):
    return None


def event_lines(events, active=None) -> list[str]:
    """The events of one action as everybody at the table may hear them: draws without their tile."""
    out = []
    for event in events or ():
        e = event.to_json() if hasattr(event, "to_json") else dict(event)
        out.append(f"    {explain(e, viewer=CHANCE)} ({e['rule']})")
    return out


def refusal(state, action, error) -> str:
    """Why ``action`` is refused, in one sentence naming its rule in words."""
    return refusal_words(error, REFERENCE.title)
