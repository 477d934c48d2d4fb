"""Every invariant of the specification on one state, as a list of violations (empty = sound).

Called by the position reader and, after every action, by the property tests: the 50 influence
and 50 development cards each in exactly one place, piles, hands and slots kept sorted; influence
and counters never below their floors (R21, R23); VP only from the listed sources (the Portuguese
start, places, the Spain bonus, Exploitation); distinct powers once chosen; each phase holding
cards only where it may (hands until the Bid, strips until the Reveal, development hands until
Develop); the Tactics and Event bookkeeping; the instigator moving one seat per turn.
"""

from __future__ import annotations

from imperial_lab.core.games.imperial_powers.data import data
from imperial_lab.core.games.imperial_powers.rules import EXPLOITATION, PLACES, REGIONS, SPAIN, START
from imperial_lab.core.games.imperial_powers.pending import (P_BID, P_DEVELOP, P_DRAW, P_EVENT_ASSIGN, P_EVENT_DIE, P_EVENT_DRAW,
                                              P_OVER, P_POWER, P_ROLL, P_TACTICS)

D = data()
EVENTS = len(D.events)


def check_invariants(st) -> list[str]:
    """The violations of the invariants by ``st`` (see the module docstring)."""
    return [*_cards(st), *_map(st), *_vp(st), *_phase(st), *_events(st)]


def _places(piles: dict, total: int, what: str) -> list[str]:
    """Every card 0..total-1 in exactly one of ``piles`` (name -> tuple), each pile sorted."""
    out: list[str] = []
    seen: dict[int, str] = {}
    for name, cards in piles.items():
        if list(cards) != sorted(cards):
            out.append(f"{what}: {name} is not sorted")
        for c in cards:
            if c in seen or not 0 <= c < total:
                out.append(f"{what}: card {c} in {name} and {seen.get(c, 'nowhere else')}")
            seen[c] = name
    if len(seen) != total:
        out.append(f"{what}: {total - len(seen)} cards are missing")
    return out


def _cards(st) -> list[str]:
    n = st.n
    influence = {"deck": st.deck, "discard": st.discard}
    development = {"deck": st.dev_deck, "discard": st.dev_discard, "face down": st.dev_face_down}
    for p in range(n):
        influence[f"hand {p}"] = st.hand[p]
        development[f"hand {p}"] = st.dev_hand[p]
        for x in range(REGIONS):
            influence[f"strip {p} {D.regions[x]}"] = st.strip[p * REGIONS + x]
    out = _places(influence, len(D.card_names), "influence cards")
    out += _places(development, len(D.dev_ids), "development cards")
    if st.dev_face_down and not any(w >= 0 and D.development_hidden[w] for w in st.powers):
        out.append("development cards face down without a Dutch player (R9)")
    return out


def _map(st) -> list[str]:
    out = [f"negative influence in {D.regions[i // st.n]} (R21)" for i, v in enumerate(st.influence) if v < 0]
    for x in range(REGIONS):
        if st.resources[x] < D.initial_resource or st.power_counters[x] < D.initial_power:
            out.append(f"{D.regions[x]}: counters below the start (counters are never removed, R23)")
    return out


def _vp(st) -> list[str]:
    out = []
    chosen = st.phase > P_POWER
    for p in range(st.n):
        g = st.gains[p * 4:p * 4 + 4]
        power = st.powers[p]
        if min(g) < 0:
            out.append(f"seat {p}: negative VP from a source")
        if g[START] != (D.starting_vp[power] if chosen else 0):
            out.append(f"seat {p}: starting VP {g[START]} is not its power's (R22)")
        bonus = D.spain_vp[power] if power >= 0 else 0
        if g[SPAIN] and (not bonus or g[SPAIN] % bonus):
            out.append(f"seat {p}: a Spain bonus of {g[SPAIN]} VP for a power without it (R16)")
        if not chosen and (g[PLACES] or g[EXPLOITATION]):
            out.append(f"seat {p}: VP before the first turn")
    return out


def _phase(st) -> list[str]:
    out, n, phase = [], st.n, st.phase
    chosen = [w for w in st.powers if w >= 0]
    if len(set(chosen)) != len(chosen) or (phase > P_POWER and len(chosen) != n):
        out.append(f"powers {st.powers}: not one different power per seat")
    if phase > P_POWER:
        expected = (st.first_instigator + st.turn - (phase != P_OVER)) % n
        if st.instigator != expected:
            out.append(f"instigator {st.instigator}, expected {expected} in turn {st.turn} (§5.8)")
    elif st.first_instigator != st.instigator or (phase == P_ROLL) != (st.instigator < 0):
        out.append("instigator set before the setup rolls are done (§2)")
    if any(st.hand) and phase not in (P_DRAW, P_BID):
        out.append("influence cards in a hand outside the Draw and Bid phases (§5.2)")
    if any(st.strip) and phase not in (P_BID, P_DEVELOP, P_TACTICS):
        out.append("cards on a strip outside the Bid..Tactics phases (§5.5)")
    if any(st.dev_hand) and phase not in (P_DRAW, P_BID, P_DEVELOP):
        out.append("development cards in a hand after the Develop phase (§5.3)")
    if not 0 <= st.dealt <= len(st.deal) or (phase == P_DRAW and st.dealt == len(st.deal)):
        out.append(f"deal: {st.dealt} of {len(st.deal)} draws done in phase {phase}")
    if phase == P_TACTICS:
        slots = D.tactics_moves[st.powers[st.current]]
        mine = {c for x in range(REGIONS) for c in st.strip[st.current * REGIONS + x]}
        if not 1 <= st.moves_left <= slots or len(st.moved) > slots - st.moves_left or not set(st.moved) <= mine:
            out.append(f"tactics: {st.moves_left} decisions left, moved {st.moved} (R12)")
    elif st.moved:
        out.append("cards marked moved outside the Tactics phase")
    return out


def _events(st) -> list[str]:
    out: list[str] = []
    phase = st.phase
    rows = st.event_rows
    if phase not in (P_EVENT_DRAW, P_EVENT_ASSIGN, P_EVENT_DIE):
        return out
    drawn = [e for e, _, _, _ in rows] + ([st.pending_event] if st.pending_event >= 0 else [])
    if sorted(drawn + list(st.events_left)) != list(range(EVENTS)):
        out.append(f"events: drawn {drawn} and left {st.events_left} are not the ten events once each (R18)")
    if len({x for _, x, _, _ in rows}) != len(rows):
        out.append("events: a region has two events this turn (R18)")
    for k, (_, _, drawer, _) in enumerate(rows):
        if drawer != st.seat_after_instigator(k):
            out.append(f"events: draw {k} by seat {drawer}, not {st.seat_after_instigator(k)} (§5.7)")
    if (phase == P_EVENT_ASSIGN) != (st.pending_event >= 0) or (phase == P_EVENT_DIE) != bool(st.dice_for):
        out.append("events: a drawn event waits outside event_assign, or dice outside event_die")
    if st.resolved > len(rows):
        out.append("events: more events resolved than assigned")
    return out
