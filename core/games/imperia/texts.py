"""Imperia's words for imperial_lab.core.session (the plug-in's ``texts`` part), for the terminal, the
Play page and the lessons: what a decision asks with its rule, the events of an action, the actions a
person may ask "why not?" about and why one is refused, and that another seat's draw names a hidden
tile (§7.2).

**Nothing hidden leaks.** The options and the answers are for the seat to move: they read its own
hand and the board (whose stacks are public, G13), never another seat's hand or pile."""

from __future__ import annotations

from imperial_lab.core.games.imperia import rules
from imperial_lab.core.games.imperia.actions import (COLOURS, MOBILISE, PLACE, SWAP_ENEMY, SWAP_OWN, WARLORD,
                                                     action_text)
from imperial_lab.core.games.imperia.board import (ADJACENT, DIRECTIONS, FACINGS, INDEX_RANK, TARGET, TYPE_CLASS,
                                                   TYPE_NAMES, TYPE_RANK, WARLORD_INDEX, space_name)
from imperial_lab.core.games.imperia.explain import explain
from imperial_lab.core.games.imperia.rules_text import REFERENCE
from imperial_lab.core.games.imperia.words import facing, hand_words, type_words, who
from imperial_lab.core.interface import CHANCE
from imperial_lab.core.words import and_list, article, capital, count, refusal_words


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


# ----- why not? -----

def why_not_options(state) -> list[str]:
    """Every action of the decision a person may ask "why not?" about, as text forms: the legal ones,
    then the tempting refused ones. A turn: each tile kind of the hand on the next space facing every
    way, beside the fortress and around the front; the warlord there too. A general's order: each own
    soldier mobilised, swapped with another own soldier or with each enemy soldier."""
    legal = [state.action_to_string(a) for a in state.legal_actions()]
    kind = state.decision_name()
    tempting = _turn_options(state) if kind == "turn" else _order_options(state) if kind == "order" else []
    seen = set(legal)
    return legal + [text for text in dict.fromkeys(map(action_text, tempting)) if text not in seen]


def _turn_options(state) -> list[tuple]:
    p = state.current
    front, n = state.cube[p], rules.next_space(state, p)
    around = [t for t in TARGET[1][front] if t >= 0] if front >= 0 else []
    beside = ADJACENT[state.fortress[p]] if state.fortress[p] >= 0 else ()
    others = [s for s in dict.fromkeys([*beside, *around]) if s != n]
    out: list[tuple] = []
    for t in (t for t in state.game.tiles.types if state.hand[p][t]):
        if n >= 0:
            out += [(PLACE, t, n, f) for f in range(len(DIRECTIONS))]  # the wrong arrow class too
        out += [(PLACE, t, s, FACINGS[TYPE_CLASS[t]][0]) for s in others]
    return out + [(WARLORD, s) for s in (n, front, *others) if s >= 0]


def _order_options(state) -> list[tuple]:
    p = state.current
    own, enemies = rules.soldiers(state, p), _enemy_soldiers(state, p)
    out: list[tuple] = [(MOBILISE, a, _facing_of(state, a)) for a in own]
    out += [(SWAP_OWN, a, b, b, _facing_of(state, a)) for i, a in enumerate(own) for b in own[i + 1:]]
    return out + [(SWAP_ENEMY, a, b, _facing_of(state, a)) for a in own for b in enemies]


def _enemy_soldiers(state, p: int) -> list[int]:
    return [s for q in range(state.n) if q != p for s in rules.soldiers(state, q)]


def _facing_of(state, s: int) -> int:
    """The first facing the top tile of ``s`` may take."""
    return state.game.tiles.facings[state.stacks[s][-1] & 15][0]


def refusal(state, action, error) -> str:
    """Why ``action`` is refused, in one sentence naming its rule in words (``Not allowed: Player B
    (lemon yellow)'s straight cavalry on 3,2 is Player B (lemon yellow)'s front: no tile may cover it (§6.3
    Entering a space).``):
    a placement or an order told from the board and the seat's own hand, anything else in the
    engine's words."""
    found = _why_turn(state, action) if state.decision_name() == "turn" else None
    if state.decision_name() == "order":
        found = _why_order(state, action)
    if found is None:
        return refusal_words(error, REFERENCE.title)
    rule, why = found
    return f"Not allowed: {why} ({REFERENCE.title(rule)})."


def _why_turn(state, a: tuple) -> tuple[str, str] | None:
    """(rule, reason) of a refused placement or warlord; None for another kind of action."""
    p = state.current
    n = rules.next_space(state, p)
    if a[0] == PLACE:
        t, s, f = a[1], a[2], a[3]
        if not state.hand[p][t]:
            return "§6.4", f"you have no {type_words(TYPE_NAMES[t])} in your hand"
        if f not in FACINGS[TYPE_CLASS[t]]:
            return "§6.5", _arrow(t)
        if rules.valid(state, n) and not state.stacks[n] and s != n:
            return "§6.4", f"your next space {space_name(n)} is empty and usable: the campaign must go on there"
        return _why_enter(state, p, TYPE_RANK[t], s) or (
            "§6.4", f"{space_name(s)} is neither your next space nor a free space beside your fortress")
    if a[0] == WARLORD:
        return _why_enter(state, p, INDEX_RANK[WARLORD_INDEX], a[1]) or (
            "§6.7", "the warlord goes only to the next space or, when you must halt and have no free space "
                    "beside your fortress, onto your front")
    return None


def _why_enter(state, p: int, rank: int, s: int) -> tuple[str, str] | None:
    """Why a tile of ``p`` with ``rank`` may not enter ``s`` (§6.1, §6.3); None if it may."""
    if not rules.valid(state, s):
        return "§6.1", f"{space_name(s)} is covered or holds a fortress: no tile goes there"
    top = rules.top(state, s)
    if top < 0 or top >> 4 == p:
        return None
    q, tile = top >> 4, _tile(state, s)
    if (top & 15) == WARLORD_INDEX:
        return "§6.7", f"{tile} on {space_name(s)} may never be covered"
    if rank < INDEX_RANK[top & 15]:
        return "§6.3", f"{tile} on {space_name(s)} outranks your tile"
    if state.cube[q] == s:
        return "§6.3", f"{tile} on {space_name(s)} is {who(q)}'s front: no tile may cover it"
    if (rules.protected_mask(state, q) >> s) & 1:
        return "§6.2", f"{tile} on {space_name(s)} holds {who(q)}'s formation to its fortress: it is protected"
    return None


def _why_order(state, a: tuple) -> tuple[str, str] | None:
    """(rule, reason) of a refused order of the general just placed (§6.6)."""
    p = state.current
    if a[0] not in (MOBILISE, SWAP_OWN, SWAP_ENEMY):
        return None
    general = TYPE_NAMES[_type_at(state, state.general)]
    if general.endswith("-dir" if a[0] == MOBILISE else "-mob"):  # a general of a fixed order
        return "§11 G18", f"this general may not {'mobilise' if a[0] == MOBILISE else 'direct troops'}"
    first, second = a[1], (a[2] if a[0] != MOBILISE else a[1])
    own = rules.soldiers(state, p)
    if first not in own:
        return "§6.6", f"{space_name(first)} has no soldier of yours on top: orders move your own infantry and cavalry"
    if a[0] == SWAP_OWN and (second not in own or second == first):
        return "§6.6", f"{space_name(second)} has no other soldier of yours on top to change places with"
    if a[0] == SWAP_OWN and a[3] not in (first, second):
        return "§6.6", "the front goes to one of the two soldiers that change places"
    f = a[2] if a[0] == MOBILISE else a[4] if a[0] == SWAP_OWN else a[3]
    turned = a[3] if a[0] == SWAP_OWN else first
    if f not in state.game.tiles.facings[state.stacks[turned][-1] & 15]:
        return "§6.5", _arrow(_type_at(state, turned))
    if a[0] == MOBILISE:
        to = TARGET[1][first][state.facing[state.stacks[state.general][-1]]]
        if not rules.valid(state, to):
            return "§6.6", (f"the stack on {space_name(first)} would march off the board or onto a covered space "
                            f"or a fortress")
        return "§6.6", f"the stack on {space_name(first)} would march onto an enemy on {space_name(to)}"
    if a[0] == SWAP_OWN:  # written with its spaces in another order than the engine's: its own words
        return None
    if second not in _enemy_soldiers(state, p):
        return "§6.6", f"{space_name(second)} has no enemy soldier on top"
    top, enemy = state.stacks[first][-1], state.stacks[second][-1]
    tile = _tile(state, second)
    if INDEX_RANK[top & 15] < INDEX_RANK[enemy & 15]:
        return "§6.6", f"{tile} on {space_name(second)} outranks your soldier"
    if len(state.stacks[first]) < len(state.stacks[second]):
        return "§6.6", (f"the stack on {space_name(second)} is higher ({len(state.stacks[second])}) than yours "
                        f"({len(state.stacks[first])})")
    q = enemy >> 4
    if state.cube[q] == second:
        return "§6.6", f"{tile} on {space_name(second)} is {who(q)}'s front: it may not be swapped"
    return "§6.2", f"{tile} on {space_name(second)} holds {who(q)}'s formation to its fortress: it is protected"


def _arrow(t: int) -> str:
    """A tile's arrow decides its facings (§6.5): ``a straight infantry faces only north, east, south or west``."""
    ways = and_list([facing(DIRECTIONS[f]) for f in FACINGS[TYPE_CLASS[t]]]).replace(" and ", " or ")
    return f"{article(type_words(TYPE_NAMES[t]))} faces only {ways}"


def _type_at(state, s: int) -> int:
    """The tile type of the top tile of ``s``."""
    return state.game.tiles.index_type[state.stacks[s][-1] & 15]


def _tile(state, s: int) -> str:
    """The top tile of ``s`` in words: ``Player B (blue)'s straight cavalry``, ``Player B (blue)'s warlord``."""
    top = state.stacks[s][-1]
    name = "warlord" if (top & 15) == WARLORD_INDEX else type_words(TYPE_NAMES[_type_at(state, s)])
    return f"{who(top >> 4)}'s {name}"
