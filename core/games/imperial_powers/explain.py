"""Imperial Powers' events and actions in plain words, through one viewer's eyes (RULES.md §6.2), with
the RULES.md sections and rulings each follows. No Streamlit: the explorer, the Play page, the text
module of imperial_lab.core.session (core/games/imperial_powers/texts.py) and tests call these functions.

A **viewer** is ``EVERYTHING`` (the explorer's full view: every card), ``PUBLIC`` (a spectator: what
every seat sees) or a seat (0..4: the public part and that seat's own cards). The events of
``apply_action`` carry hidden content (the card dealt, the slot a card was bid under, a Tactics move);
for a viewer who may not see it, the words leave it out: "Player B is dealt an influence card".
Under ``tactics_visibility: regions_public`` a move's regions are public, never its card (R12).
"""

from __future__ import annotations

from dataclasses import dataclass

from imperial_lab.core.games.imperial_powers.data import data
from imperial_lab.core.games.imperial_powers.words import (card_label, dev_label, event_effect, event_name, power_name,
                                                        region_name, strip_label, who)
from imperial_lab.core.interface import CHANCE, seat_name

EVERYTHING, PUBLIC = "everything", "public"
SEATS = "ABCDE"
# Rulings an event also follows, beside its own ``rule`` (RULES.md §9): the explanation names them.
RULINGS = {"setup_roll": ("R2",), "instigator": ("R6",), "power": ("R3",), "starting_vp": ("R22",),
           "dealt": ("R7", "R8"), "assigned": ("R10",), "developed": ("R9", "R11"), "moved": ("R12",),
           "passed": ("R12",), "revealed": ("R13",), "scored": ("R14", "R15"), "event_assigned": ("R17", "R18"),
           "event_resolved": ("R14", "R17"), "die": ("R17",), "turn_ended": ("R1",), "game_ended": ("R19", "R20")}


@dataclass(frozen=True)
class Context:
    """What the words of an event need to know of the game: each seat's power id (None before it is
    chosen) and whether Tactics moves show their regions (R12)."""

    powers: tuple
    public_tactics: bool = False

    def hides_development(self, seat: int) -> bool:
        """Seat's development cards are face down (the Dutch, R9). A seat of unknown power counts as
        hiding them: the safe side (powers are chosen before any card is dealt)."""
        power = self.powers[seat] if seat < len(self.powers) else None
        return power is None or data().development_hidden[data().powers.index(power)]


def context_of(view: dict) -> Context:
    """The context of a position document or an observation."""
    return Context(tuple(s["power"] for s in view["seats"]),
                   view["config"].get("tactics_visibility") == "regions_public")


def context_of_state(state) -> Context:
    powers = tuple(data().powers[w] if w >= 0 else None for w in state.powers)
    return Context(powers, state.game.public_tactics)


def sees(viewer, seat: int | None) -> bool:
    """Whether ``viewer`` sees seat's private cards (§6.2)."""
    return viewer == EVERYTHING or viewer == seat


def seeing(viewer) -> str:
    """How a viewer is named on the pages."""
    if viewer == EVERYTHING:
        return "everything (every hand, strip and face-down card)"
    if viewer == PUBLIC:
        return "a spectator (what every seat sees)"
    return f"what {seat_name(viewer)} sees"


# ----- events -----

def rules_of(event: dict) -> tuple:
    """The RULES.md section of an event, then the rulings it also follows."""
    return (event["rule"], *(r for r in RULINGS.get(event["kind"], ()) if r != event["rule"]))


def explain(event: dict, ctx: Context, viewer=EVERYTHING) -> str:
    """One event in words, without what ``viewer`` may not see."""
    kind = event["kind"]
    words = _WORDS.get(kind)
    return words(event, ctx, viewer) if words else kind.replace("_", " ")


def _who(event: dict, ctx: Context) -> str:
    return who(event["seat"], ctx.powers)


def _dealt(e: dict, ctx: Context, viewer) -> str:
    seat, card = e["seat"], e["card"]
    if "#" in card:  # an influence card: private to its holder (§5.1)
        shown = card_label(card) if sees(viewer, seat) else "an influence card (hidden)"
        return f"{_who(e, ctx)} is dealt {shown}."
    if ctx.hides_development(seat) and not sees(viewer, seat):
        return f"{_who(e, ctx)} is dealt a development card (face down, R9)."
    return f"{_who(e, ctx)} is dealt {dev_label(card)} (face up)."


def _assigned(e: dict, ctx: Context, viewer) -> str:
    if sees(viewer, e["seat"]):
        return f"{_who(e, ctx)} bids {card_label(e['card'])} under {region_name(e['region'])}."
    return f"{_who(e, ctx)} bids a card under a slot of the strip (hidden until Reveal, R10)."


def _tactics(e: dict, ctx: Context, viewer) -> str:
    seat = e["seat"]
    moved = e["kind"] == "moved"
    if sees(viewer, seat):
        if moved:
            return (f"{_who(e, ctx)} moves {card_label(e['card'])} from {region_name(e['from'])} to "
                    f"{region_name(e['to'])}.")
        return f"{_who(e, ctx)} passes (no move)."
    if ctx.public_tactics:
        if moved:
            return (f"{_who(e, ctx)} moves a card (hidden) from {region_name(e['from'])} to "
                    f"{region_name(e['to'])}.")
        return f"{_who(e, ctx)} passes (no move)."
    return f"{_who(e, ctx)} makes a Tactics decision (hidden: a move or a pass, R12)."


def _developed(e: dict, ctx: Context, viewer) -> str:
    value = e["resource"] + e["power"]
    rest = "go face down to the discards (R9)" if ctx.hides_development(e["seat"]) else "are discarded"
    return (f"{_who(e, ctx)} plays {dev_label(e['card'])}: {region_name(e['region'])} now has {e['resource']} "
            f"resource and {e['power']} power counters (value {value}); the other development cards {rest}.")


def _awards(e: dict, ctx: Context) -> str:
    got = [f"{SEATS[p]} +{vp}" for p, vp in enumerate(e["awards"]) if vp]
    return ", ".join(got) if got else "nobody scores"


def _scored(e: dict, ctx: Context, viewer) -> str:
    region = region_name(e["region"])
    if e["by"] == "exploitation":
        return f"Exploitation scores {region} again: {_awards(e, ctx)}."
    return f"Score: {region}: {_awards(e, ctx)}."


def _revealed(e: dict, ctx: Context) -> str:
    """The Reveal, with every strip as it was shown (public from now until the next Bid, §5.5)."""
    shown = " | ".join(f"{who(p, ctx.powers)}: {strip_label(strip)}" for p, strip in enumerate(e.get("strips", ()))
                       if strip)
    return (f"Reveal: every strip is shown{f' ({shown})' if shown else ''}, its values are added to the map, and all "
            f"influence cards go to the open discard pile.")


def _influence(values: list) -> str:
    shown = [f"{SEATS[p]} {v}" for p, v in enumerate(values) if v]
    return ", ".join(shown) if shown else "nobody"


def _game_ended(e: dict, ctx: Context, viewer) -> str:
    vp = ", ".join(f"{SEATS[p]} {int(v)}" for p, v in enumerate(e["vp"]))
    winners = e["winners"]
    result = (f"{who(winners[0], ctx.powers)} wins" if len(winners) == 1 else
              " and ".join(who(p, ctx.powers) for p in winners) + " share the win")
    return f"The game is over. VP: {vp}; {result}."


_WORDS = {
    "setup_roll": lambda e, ctx, v: f"{seat_name(e['seat'])} rolls {e['roll']} on the d10 for the instigator token.",
    "instigator": lambda e, ctx, v: (f"{seat_name(e['seat'])} rolled highest and takes the instigator token: it acts "
                                     f"first in every phase."),
    "power": lambda e, ctx, v: f"{seat_name(e['seat'])} takes {power_name(e['power'])}.",
    "starting_vp": lambda e, ctx, v: f"{_who(e, ctx)} starts with {e['vp']} VP.",
    "dealt": _dealt,
    "reshuffled": lambda e, ctx, v: (f"The {e['deck']} deck is empty: its discard pile ({e['cards']} cards) "
                                     f"becomes the new deck."),
    "draw_lost": lambda e, ctx, v: (f"The {e['deck']} deck and its discards are empty: a draw of {_who(e, ctx)} "
                                    f"is lost."),
    "assigned": _assigned,
    "developed": _developed,
    "moved": _tactics,
    "passed": _tactics,
    "revealed": lambda e, ctx, v: _revealed(e, ctx),
    "scored": _scored,
    "event_drawn": lambda e, ctx, v: (f"{_who(e, ctx)} draws {event_name(e['event'])}: "
                                      f"{event_effect(e['event'])}."),
    "event_assigned": lambda e, ctx, v: (f"{_who(e, ctx)} puts {event_name(e['event'])} on "
                                         f"{region_name(e['region'])}."),
    "event_resolving": lambda e, ctx, v: (f"{event_name(e['event'])} in {region_name(e['region'])}, influence "
                                          f"before: {_influence(e['influence'])}."),
    "die": lambda e, ctx, v: f"{_who(e, ctx)}'s d6 for {event_name(e['event'])}: {e['roll']}.",
    "event_resolved": lambda e, ctx, v: (f"{event_name(e['event'])} in {region_name(e['region'])}, influence "
                                         f"after: {_influence(e['influence'])}."),
    "turn_ended": lambda e, ctx, v: (f"End of turn {e['turn']}: the instigator token passes to "
                                     f"{who(e['instigator'], ctx.powers)}."),
    "game_ended": _game_ended,
}


PRIVATE = {"dealt", "assigned", "moved", "passed"}  # events whose details are their seat's (§6.2)


def changed_regions(events: list, ctx: Context, viewer=EVERYTHING) -> list[str]:
    """The regions an action changed that ``viewer`` may know of (the slot of another seat's bid is
    hidden, R10; a Tactics move's regions only under ``regions_public``, R12). The Score Phase's ten
    scorings are left out: they would ring every region."""
    out = []
    for e in events:
        if e["kind"] in PRIVATE and not (sees(viewer, e["seat"]) or (ctx.public_tactics and e["kind"] == "moved")):
            continue
        if e["kind"] == "scored" and e["by"] == "score_phase":
            continue
        out += [e[key] for key in ("region", "from", "to") if key in e]
    return out


# ----- actions -----

def action_words(text: str, player: int | None, ctx: Context, viewer=EVERYTHING) -> str:
    """An action's text form (core/games/imperial_powers/actions.py) as ``viewer`` may read it: another
    seat's card dealt, bid or moved is left out (§6.2)."""
    words = text.split()
    head = words[0]
    if head == "deal":
        seat = SEATS.index(words[1])
        if "#" in words[2]:
            return text if sees(viewer, seat) else f"deal {words[1]} (an influence card)"
        hidden = ctx.hides_development(seat) and not sees(viewer, seat)
        return f"deal {words[1]} (a face-down development card)" if hidden else text
    if player == CHANCE or sees(viewer, player):
        return text
    if head == "assign":
        return "assign (a hidden card to a hidden slot)"
    if head in ("move", "pass"):
        if not ctx.public_tactics:
            return "tactics (hidden)"
        return f"move (a hidden card) {words[2]}" if head == "move" else text
    return text


def action_plain(text: str) -> str:
    """An action of the person in plain words: ``assign navy#1 europe`` -> ``Navy (9) to Europe``."""
    words = text.split()
    head = words[0]
    if head == "assign":
        return f"{card_label(words[1])} to {region_name(words[2])}"
    if head == "move":
        return f"moving {card_label(words[1])} to {region_name(words[2])}"
    if head == "play":
        return dev_label(words[1])
    if head == "event":
        return f"the event to {region_name(words[2])}"
    if head == "power":
        return power_name(words[1])
    return text

