"""Imperial Powers' actions: small int tuples in the hot path, a stable text form for people and logs.

An action is a tuple whose first item is its type (RULES.md §6.1). Seats are 0..4 (written A..E),
regions 0..9, powers 0..4, events 0..9 and development cards 0..49 in data.json's order; influence
cards are instances 0..49 in the canonical bidding order (data.py). The text names everything from
the action alone, never from the position, so a move log can be written from the final state:

    d10 A 7                    chance: seat A's setup roll (§2 step 3; rerolls alike, R2)
    power britain              the seat to choose takes a power (§2 step 4); chance under random assignment
    deal A navy#1              chance: seat A is dealt an influence card (§5.1)
    deal A europe__weapons     chance: seat A is dealt a development card (§5.1)
    assign navy#1 europe       bid: put the next card of the hand under a region slot (§5.2)
    play europe__weapons       develop: play a development card (§5.3)
    move spies#1 india         tactics: move a card of the own strip to another slot (§5.4)
    pass                       tactics: no move with this move slot (§5.4)
    event conquest             chance: the top event card (§5.7)
    event to europe            the drawer assigns the drawn event to a region (§5.7)
    d6 B 4                     chance: a d6 rolled for seat B (Great Game, Balance of Power; §5.7)

A text that does not parse is a NotationError naming the rule of the part that is wrong.
"""

from __future__ import annotations

from imperial_lab.core.errors import NotationError
from imperial_lab.core.jsonio import action_words, clip
from imperial_lab.core.games.imperial_powers.data import data

ROLL, POWER, DEAL_INFLUENCE, DEAL_DEVELOPMENT, ASSIGN, PLAY, MOVE, PASS, EVENT, TARGET, DIE = range(11)
CHANCE_TYPES = (ROLL, DEAL_INFLUENCE, DEAL_DEVELOPMENT, EVENT, DIE)  # POWER too, under random assignment

D = data()
SEATS = "ABCDE"
REGIONS, POWERS, CARDS, DEVS, EVENTS = D.regions, D.powers, D.card_names, D.dev_ids, D.events
_INDEX = {kind: {name: k for k, name in enumerate(names)}
          for kind, names in (("region", REGIONS), ("power", POWERS), ("card", CARDS), ("dev", DEVS),
                              ("event", EVENTS), ("seat", SEATS))}
_RULE = {"region": "§0.2", "power": "§1.1", "card": "§1.2", "dev": "§1.3", "event": "§1.4", "seat": "§0.2"}

# The actions as shared tuples, so that the legal actions are built without allocating new ones
# (the bid's and the dice's lists are the legal actions themselves: shared, read-only).
ASSIGN_ACTIONS = tuple([(ASSIGN, c, x) for x in range(len(REGIONS))] for c in range(len(CARDS)))
MOVE_ACTIONS = tuple(tuple((MOVE, c, x) for x in range(len(REGIONS))) for c in range(len(CARDS)))
DEAL_INFLUENCE_ACTIONS = tuple(tuple((DEAL_INFLUENCE, p, c) for c in range(len(CARDS))) for p in range(len(SEATS)))
DEAL_DEVELOPMENT_ACTIONS = tuple(tuple((DEAL_DEVELOPMENT, p, d) for d in range(len(DEVS))) for p in range(len(SEATS)))
PLAY_ACTIONS = tuple((PLAY, d) for d in range(len(DEVS)))
POWER_ACTIONS = tuple((POWER, w) for w in range(len(POWERS)))
EVENT_ACTIONS = tuple((EVENT, e) for e in range(len(EVENTS)))
TARGET_ACTIONS = tuple((TARGET, x) for x in range(len(REGIONS)))
ROLL_ACTIONS = tuple([(ROLL, p, v) for v in range(1, 11)] for p in range(len(SEATS)))
DIE_ACTIONS = tuple([(DIE, p, v) for v in range(1, 7)] for p in range(len(SEATS)))
PASS_ACTION = (PASS,)


def action_text(a: tuple) -> str:
    """The documented text form of action ``a``; NotationError for a value that is none of ours."""
    if not (isinstance(a, tuple) and a and all(type(v) is int and v >= 0 for v in a)):
        raise NotationError(f"not an Imperial Powers action: {clip(a)} [RULES.md §6.1]")
    try:
        t = a[0]
        if t == ASSIGN:
            return f"assign {CARDS[a[1]]} {REGIONS[a[2]]}"
        if t == DEAL_INFLUENCE:
            return f"deal {SEATS[a[1]]} {CARDS[a[2]]}"
        if t == DEAL_DEVELOPMENT:
            return f"deal {SEATS[a[1]]} {DEVS[a[2]]}"
        if t == MOVE:
            return f"move {CARDS[a[1]]} {REGIONS[a[2]]}"
        if t == PASS and len(a) == 1:
            return "pass"
        if t == PLAY:
            return f"play {DEVS[a[1]]}"
        if t == EVENT:
            return f"event {EVENTS[a[1]]}"
        if t == TARGET:
            return f"event to {REGIONS[a[1]]}"
        if t == DIE and 1 <= a[2] <= 6:
            return f"d6 {SEATS[a[1]]} {a[2]}"
        if t == ROLL and 1 <= a[2] <= 10:
            return f"d10 {SEATS[a[1]]} {a[2]}"
        if t == POWER:
            return f"power {POWERS[a[1]]}"
    except IndexError:
        pass
    raise NotationError(f"not an Imperial Powers action: {clip(a)} [RULES.md §6.1]")


def parse_action(text: str) -> tuple:
    """The action written ``text`` (the grammar of the module docstring); NotationError if not."""
    if not isinstance(text, str):
        raise NotationError(f"an action text must be a string, got {clip(text)}")
    w = action_words(text)
    head, n = (w[0] if w else ""), len(w)
    if head == "assign" and n == 3:
        return ASSIGN, _look("card", w[1], text), _look("region", w[2], text)
    if head == "deal" and n == 3:
        seat = _look("seat", w[1], text)
        if w[2] in _INDEX["dev"]:
            return DEAL_DEVELOPMENT, seat, _INDEX["dev"][w[2]]
        return DEAL_INFLUENCE, seat, _look("card", w[2], text)
    if head == "move" and n == 3:
        return MOVE, _look("card", w[1], text), _look("region", w[2], text)
    if head == "pass" and n == 1:
        return PASS_ACTION
    if head == "play" and n == 2:
        return PLAY, _look("dev", w[1], text)
    if head == "event" and n == 3 and w[1] == "to":
        return TARGET, _look("region", w[2], text)
    if head == "event" and n == 2:
        return EVENT, _look("event", w[1], text)
    if head in ("d6", "d10") and n == 3:
        sides = 6 if head == "d6" else 10
        if not (w[2].isascii() and w[2].isdigit() and len(w[2]) <= 2 and 1 <= int(w[2]) <= sides):
            rule = "§5.7" if sides == 6 else "§2"
            raise NotationError(f"cannot read {clip(text)}: a {head} shows 1..{sides} [RULES.md {rule}]")
        return (DIE if sides == 6 else ROLL), _look("seat", w[1], text), int(w[2])
    if head == "power" and n == 2:
        return POWER, _look("power", w[1], text)
    raise NotationError(f"cannot read the Imperial Powers action {clip(text)}: expected one of assign, deal, "
                        f"move, pass, play, event, event to, d6, d10, power (core/games/imperial_powers/actions.py) "
                        f"[RULES.md §6.1]")


def _look(kind: str, word: str, text: str) -> int:
    try:
        return _INDEX[kind][word]
    except KeyError:
        raise NotationError(f"cannot read {clip(text)}: {clip(word)} is not a {kind} id "
                            f"[RULES.md {_RULE[kind]}]") from None
