"""Imperial Powers in words for imperial_lab.core.session (the plug-in's ``texts`` part): what a decision is about
and its rule, a few lines of the position for the seat to decide, a note per legal action, who decides,
and the events of an action.

**Nothing hidden leaks.** ``decision_lines`` and ``action_notes`` are shown to the seat that decides,
so they are read from that seat's observation (RULES.md §6.2): its own hand and strip, the public
rest. ``event_lines`` are shown to everybody at the table (the terminal prints every move's, the Play
page lists them), while the events of ``apply_action`` carry hidden content (the card dealt, the slot
a card was bid under, a Tactics move): they are told as a spectator sees them
(``imperial_lab.core.games.imperial_powers.explain`` with ``PUBLIC``), "Player B is dealt an influence card".
``why_not_options`` and ``refusal`` too read the seat's own observation: its hand, strip and
development cards, the public rest.
"""

from __future__ import annotations

from dataclasses import replace

from imperial_lab.core.games.imperial_powers.explain import PUBLIC, Context, action_words, context_of_state, explain
from imperial_lab.core.games.imperial_powers.rules_text import REFERENCE
from imperial_lab.core.games.imperial_powers.steps import QUIET
from imperial_lab.core.games.imperial_powers.words import (ability, card_label, cards_label, dev_label, dev_region,
                                                        event_effect, event_name, in_words, power_name, region_name,
                                                        strip_label, who)
from imperial_lab.core.games.imperial_powers.data import data
from imperial_lab.core.words import refusal_words

SEATS = "ABCDE"


def _view(state) -> dict:
    return state.observation(state.current_player())


def decision_lines(state) -> list[str]:
    """What the seat to move decides, with its rule, then its cards and the position around it."""
    view = _view(state)
    p, phase = view["to_move"], view["phase"]
    me = view["seats"][p]
    words, rule = question(view)
    lines = [f"{who(p, [s['power'] for s in view['seats']])}: {words} [{REFERENCE.title(rule)}]"]
    if phase in ("bid", "tactics"):
        lines.append(f"  Your hand: {cards_label(me['hand'])}; your strip: {strip_label(me['strip'])}")
    if phase == "develop":
        lines.append(f"  Your development cards: {', '.join(dev_label(d) for d in me['dev_hand'])}")
    lines.append("  " + _standing(view))
    lines.append("  " + _map_line(view))
    shown = [f"{SEATS[s['seat']]}: {strip_label(s['revealed'])}" for s in view["seats"] if s.get("revealed")]
    if shown:  # public from the Reveal until the next Bid (§5.5)
        lines.append("  Strips at the Reveal: " + " | ".join(shown))
    return lines


def question(view: dict) -> tuple[str, str]:
    """What the seat to move decides, in words, and its rule; from that seat's observation ``view``."""
    phase = view["phase"]
    me = view["seats"][view["to_move"]]
    if phase == "choose_power":
        return "choose a power", "R3"
    if phase == "bid":
        hand = me["hand"]
        left = f"{len(hand)} cards" if len(hand) > 1 else "the last card"
        return f"bid {card_label(hand[0])} under a region of your strip ({left} to bid)", "§5.2"
    if phase == "develop":
        return "play one development card (the others are discarded)", "§5.3"
    if phase == "tactics":
        left = view["tactics"]["moves_left"]
        return (f"move one card of your strip to another region, or pass ({left} decision{'s' * (left > 1)} "
                f"left)", "§5.4")
    if phase == "event_assign":
        event = view["events"]["pending"]
        name = event_name(event)
        return f"put {name} on a region without an event. {name}: {event_effect(event)}", "§5.7"
    return phase.replace("_", " "), "§6.1"


def _standing(view: dict) -> str:
    vp = ", ".join(f"{SEATS[s['seat']]} {s['vp_total']}" for s in view["seats"])
    return f"Turn {view['turn']}, instigator {SEATS[view['instigator']]}; VP {vp}"


def _map_line(view: dict) -> str:
    """Every region: its value, the influence by seat and the Leader."""
    parts = []
    for entry in view["regions"]:
        lead = entry["leader"]
        mark = f" *{SEATS[lead]}" if lead is not None else ""
        parts.append(f"{entry['region']} {entry['value']}: {'/'.join(map(str, entry['influence']))}{mark}")
    return "Map (value: influence A/B/...; *Leader): " + " · ".join(parts)


def action_notes(state) -> list[str | None]:
    """One note (or None) per legal action, in the order of ``legal_actions()``: a region's value and
    influence for a bid or an event, a development card's effect, a power's ability."""
    legal = state.legal_actions()
    if state.is_chance_node() or not legal:
        return [None] * len(legal)
    view = _view(state)
    return [_note(state, view, a) for a in legal]


def _note(state, view: dict, action) -> str | None:
    text = state.action_to_string(action).split()
    regions = {entry["region"]: entry for entry in view["regions"]}
    if text[0] in ("assign", "move") or text[:2] == ["event", "to"]:
        return _region_note(regions[text[-1]], view)
    if text[0] == "play":
        entry = regions[dev_region(text[1])]
        d = data().dev_ids.index(text[1])
        return (f"{region_name(entry['region'])} value {entry['value']} -> "
                f"{entry['value'] + data().dev_resource[d] + data().dev_power[d]}")
    if text[0] == "power":
        return ability(text[1])
    return None


def _region_note(entry: dict, view: dict) -> str:
    lead = entry["leader"]
    leader = f", Leader {SEATS[lead]}" if lead is not None else ""
    return f"value {entry['value']}, influence {'/'.join(map(str, entry['influence']))}{leader}"


def actor(state, player: int) -> str:
    """``Player B (Spain)``."""
    return who(player, context_of_state(state).powers)


def active(state) -> Context:
    """What the words of the events need from the state before an action: the powers (a Dutch seat's
    development cards are face down) and whether Tactics moves are public."""
    return context_of_state(state)


def event_lines(events, active: Context | None = None) -> list[str]:
    """The events of one action as every seat may hear them (``PUBLIC``), indented."""
    ctx = active or Context(())
    out = []
    for event in events or ():
        e = event.to_json() if hasattr(event, "to_json") else dict(event)
        if e["kind"] == "power":  # the next events of this action name the seat with its power
            powers = list(ctx.powers) + [None] * (e["seat"] + 1 - len(ctx.powers))
            powers[e["seat"]] = e["power"]
            ctx = replace(ctx, powers=tuple(powers))
        if e["kind"] not in QUIET:
            out.append(f"    {explain(e, ctx, PUBLIC)}")
    return out


def seen_text(state, player: int, text: str, viewer) -> str:
    """A move's text as ``viewer`` (a seat, or None: nobody's private view) may read it: another
    seat's card dealt, bid or moved is left out (§6.2)."""
    return action_words(text, player, context_of_state(state), PUBLIC if viewer is None else viewer)


# ----- why not? -----

def why_not_options(state) -> list[str]:
    """Every action of the decision a person may ask "why not?" about, as text forms: the legal ones,
    then the tempting refused ones, from the seat's own observation: every power; in the Bid each
    card of the hand under each region; every development card; each card of the strip moved to each
    region; the event to each region."""
    legal = [state.action_to_string(a) for a in state.legal_actions()]
    view = _view(state)
    me, regions = view["seats"][view["to_move"]], [entry["region"] for entry in view["regions"]]
    tempting = {
        "choose_power": lambda: [f"power {w}" for w in data().powers],
        "bid": lambda: [f"assign {card} {x}" for card in me["hand"] for x in regions],
        "develop": lambda: [f"play {d}" for d in data().dev_ids],
        "tactics": lambda: [f"move {card} {x}" for cards in me["strip"].values() for card in cards for x in regions],
        "event_assign": lambda: [f"event to {x}" for x in regions],
    }.get(view["phase"], list)()
    seen = set(legal)
    return legal + [text for text in dict.fromkeys(tempting) if text not in seen]


def refusal(state, action, error) -> str:
    """Why ``action`` is refused, in one sentence naming its rule in words (``Not allowed: Europe
    already has an event this turn (R18 The event deck).``): the seat's own cards by name, read from
    its observation; anything else in the engine's words, its ids in words."""
    found = _why(_view(state), state.action_to_string(action).split())
    if found is None:
        return refusal_words(error, REFERENCE.title, in_words)
    rule, why = found
    return f"Not allowed: {why} ({REFERENCE.title(rule)})."


def _why(view: dict, words: list[str]) -> tuple[str, str] | None:
    """(rule, reason) of a refused action of the decision's own kind; None for another kind."""
    phase, head = view["phase"], words[0]
    me = view["seats"][view["to_move"]]
    if phase == "choose_power" and head == "power":
        return "R3", f"{power_name(words[1])} is already taken"
    if phase == "bid" and head == "assign":
        card = words[1]
        if card not in me["hand"]:
            return "§5.2", f"{card_label(card)} is not in your hand"
        return "§5.2", f"your cards are bid one at a time in a fixed order: {card_label(me['hand'][0])} is next"
    if phase == "develop" and head == "play":
        return "§5.3", f"{dev_label(words[1])} is not among your development cards"
    if phase == "tactics" and head == "move":
        card = words[1]
        if card in view["tactics"].get("moved", ()):
            return "R12", f"{card_label(card)} was moved already: a second move takes another card"
        where = next((x for x, cards in me["strip"].items() if card in cards), None)
        if where is None:
            return "§5.4", f"{card_label(card)} is not on your strip"
        return "§5.4", f"{card_label(card)} is under {region_name(where)} already: a move goes to another region"
    if phase == "event_assign" and words[:2] == ["event", "to"]:
        return "R18", f"{region_name(words[2])} already has an event this turn"
    return None
