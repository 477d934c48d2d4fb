"""Every invariant of the specification on one state, as a list of violations (empty = sound).

Called by the position reader and, after every action, by the property tests: the 50 influence
and 50 development cards each in exactly one place, piles, hands and slots kept sorted; influence
and counters never below their floors (R21, R23); VP only from the listed sources (the Portuguese
start, places, the Spain bonus, Exploitation); distinct powers once chosen; each phase holding
cards only where it may (hands until the Bid, strips until the Reveal, development hands until
Develop, the revealed strips from the Reveal until the next Bid); the instigator moving one seat per
turn. And the seat each phase asks: the setup rolls (seat order, then the tied highest, R2), the
powers chosen from the instigator on, the deal of the Draw (the allotments of R7, each draw from a
deck that can serve it), the first seat from the instigator with cards to bid or develop, the
Tactics and Event bookkeeping (drawers, resolved events, their dice and the seats still to roll).
"""

from __future__ import annotations

from imperial_lab.core.games.imperial_powers.data import data
from imperial_lab.core.games.imperial_powers.rules import DIE_SIGN, EXPLOITATION, PLACES, REGIONS, SPAIN, START, deal_of
from imperial_lab.core.games.imperial_powers.pending import (DEVELOPMENT, INFLUENCE, P_BID, P_DEVELOP, P_DRAW, P_EVENT_ASSIGN,
                                                             P_EVENT_DIE, P_EVENT_DRAW, P_OVER, P_POWER, P_ROLL, P_TACTICS,
                                                             PHASES)

D = data()
EVENTS = len(D.events)


def check_invariants(st) -> list[str]:
    """The violations of the invariants by ``st`` (see the module docstring)."""
    return [*_cards(st), *_map(st), *_vp(st), *_phase(st), *_setup(st), *_deal(st), *_bidders(st), *_events(st),
            *_revealed(st)]


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
    if st.tactics_log and (not st.game.public_tactics or any(x == y for _, x, y in st.tactics_log)):
        out.append("tactics: a log of moves under hidden Tactics, or a move to the same region (R12)")
    return out


def _order(st) -> list[int]:
    """The seats in order from the instigator (every phase's order, R6)."""
    return [st.seat_after_instigator(k) for k in range(st.n)]


def _setup(st) -> list[str]:
    """§2: every seat rolls in seat order, then only the tied highest (R2), until one roll is highest;
    under ``pick`` the powers are then chosen from the instigator on."""
    out, n, phase = [], st.n, st.phase
    seats = tuple(range(n))  # who rolls in the next round
    for k, done in enumerate(st.roll_rounds):
        if tuple(p for p, _ in done) != seats:
            return [f"setup.rounds[{k}]: rolled by seats {[p for p, _ in done]}, not {list(seats)} (§2, R2)"]
        best = max(v for _, v in done)
        seats = tuple(p for p, v in done if v == best)
        if len(seats) == 1 and k < len(st.roll_rounds) - 1:
            return [f"setup.rounds[{k}]: one highest roll ends the setup rolls (§2)"]
    ended = bool(st.roll_rounds) and len(seats) == 1
    if phase == P_ROLL:
        if ended or st.rollers != seats or len(st.rolls) >= len(st.rollers) or st.current != st.rollers[len(st.rolls)]:
            out.append(f"setup: seat {st.current} rolls with rollers {list(st.rollers)} and rolls {list(st.rolls)} "
                       f"after {len(st.roll_rounds)} rounds (§2, R2)")
    elif st.rollers or st.rolls or not ended or seats[0] != st.first_instigator:
        out.append("setup: the rolls are not done, or their highest roll is not the first instigator's (§2)")
    if phase < P_POWER and any(w >= 0 for w in st.powers):
        out.append("setup: powers chosen before the setup rolls are done (§2)")
    if phase == P_POWER:
        chosen = n - st.powers.count(-1)
        if (st.game.fixed_powers is not None or chosen == n or st.current != st.seat_after_instigator(chosen)
                or any((st.powers[p] >= 0) != (k < chosen) for k, p in enumerate(_order(st)))):
            out.append(f"setup: seat {st.current} chooses a power with powers {st.powers} (R3)")
    elif phase > P_POWER and st.game.fixed_powers is not None and tuple(st.powers) != st.game.fixed_powers:
        out.append(f"powers {st.powers}: not the config's fixed powers")
    if (phase <= P_POWER and st.turn != 1) or (phase == P_OVER and st.turn != st.game.turns):
        out.append(f"turn {st.turn} in phase {PHASES[phase]}")
    if (st.current < 0) != (phase == P_OVER):
        out.append(f"seat {st.current} to move in phase {PHASES[phase]}")
    return out


def _deal(st) -> list[str]:
    """§5.1, R7, R8: the Draw deals this turn's allotments in order; a draw waits only on a deck that
    can serve it; a draw is lost only when its deck and discards are empty."""
    phase = st.phase
    if phase <= P_POWER:
        return [] if not st.deal and not st.dealt else ["deal: cards dealt before the first turn"]
    if phase != P_DRAW:
        return [] if st.dealt == len(st.deal) else [f"deal: {st.dealt} of {len(st.deal)} draws done after the Draw"]
    if st.deal != deal_of(st) or st.dealt >= len(st.deal):
        return ["deal: not this turn's allotments in order from the instigator, or all dealt (§5.1, R7)"]
    p, which = st.deal[st.dealt]
    influence = which == INFLUENCE
    if st.current != p or not (st.deck if influence else st.dev_deck):
        return [f"deal: draw {st.dealt} is for seat {p} from the {'influence' if influence else 'development'} deck, "
                f"which has cards (§5.1, R8)"]
    out = []
    done = st.deal[:st.dealt]
    for q in range(st.n):
        cards, devs = done.count((q, INFLUENCE)), done.count((q, DEVELOPMENT))
        if len(st.hand[q]) > cards or len(st.dev_hand[q]) > devs:
            out.append(f"deal: seat {q} holds more cards than it was dealt")
    if sum(map(len, st.hand)) < sum(d == INFLUENCE for _, d in done) and (st.deck or st.discard):
        out.append("deal: an influence draw was lost while cards were left (R8)")
    if sum(map(len, st.dev_hand)) < sum(d != INFLUENCE for _, d in done) and (st.dev_deck or st.dev_discard
                                                                            or st.dev_face_down):
        out.append("deal: a development draw was lost while cards were left (R8)")
    return out


def _bidders(st) -> list[str]:
    """§5.2, §5.3: the Bid and Develop ask the first seat from the instigator that holds cards."""
    phase, order = st.phase, _order(st)
    if phase not in (P_BID, P_DEVELOP) or st.current < 0:
        return []
    hands = st.hand if phase == P_BID else st.dev_hand
    k = order.index(st.current)
    if not hands[st.current] or any(hands[p] for p in order[:k]):
        return [f"{PHASES[phase]}: seat {st.current} is asked, not the first seat from the instigator holding cards"]
    if phase == P_BID and any(st.strip[p * REGIONS + x] for p in order[k + 1:] for x in range(REGIONS)):
        return ["bid: a seat after the bidder has bid already (§5.2)"]
    if phase == P_DEVELOP and any(st.hand):
        return ["develop: influence cards left in a hand after the Bid (§5.2)"]
    return []


def _events(st) -> list[str]:
    """§5.7, R17, R18: ten events a turn, once each, drawn in turn from the instigator, each on its own
    region, resolved at once or all after the last assignment, with their dice."""
    out: list[str] = []
    phase = st.phase
    rows = st.event_rows
    in_events = phase in (P_EVENT_DRAW, P_EVENT_ASSIGN, P_EVENT_DIE)
    drawn = [e for e, _, _, _ in rows] + ([st.pending_event] if st.pending_event >= 0 else [])
    if in_events and sorted(drawn + list(st.events_left)) != list(range(EVENTS)):
        out.append(f"events: drawn {drawn} and left {st.events_left} are not the ten events once each (R18)")
    if not in_events:
        before = st.turn == 1 and phase != P_OVER
        if st.events_left or st.pending_event >= 0 or st.dice_for or len(rows) not in ((0,) if before else (0, EVENTS)) \
                or sorted(drawn) != list(range(len(rows))) or st.resolved != len(rows):
            out.append(f"events: {len(rows)} events drawn, {len(st.events_left)} left, {st.resolved} resolved "
                       f"outside the Event phase (the last turn's ten, R18)")
    if len({x for _, x, _, _ in rows}) != len(rows):
        out.append("events: a region has two events this turn (R18)")
    passed = 0 if in_events else 1  # after its Event phase a turn's End passed the instigator on (§5.8)
    for k, (_, _, drawer, _) in enumerate(rows):
        if drawer != st.seat_after_instigator(k - passed):
            out.append(f"events: draw {k} by seat {drawer}, not {st.seat_after_instigator(k - passed)} (§5.7)")
    if (phase == P_EVENT_ASSIGN) != (st.pending_event >= 0) or (phase == P_EVENT_DIE) != bool(st.dice_for):
        out.append("events: a drawn event waits outside event_assign, or dice outside event_die")
    if out or not in_events:
        return out + _dice(st, len(rows) if not in_events else st.resolved)
    if phase == P_EVENT_DIE:
        due = len(rows) - 1 if st.game.immediate_events else st.resolved
        if st.resolved != due or (not st.game.immediate_events and len(rows) != EVENTS) or st.current != st.dice_for[0]:
            out.append(f"events: seat {st.current} rolls for event {st.resolved} of {len(rows)} (§5.7, R17)")
    else:
        due = len(rows) if st.game.immediate_events else 0
        if st.resolved != due or st.current != st.seat_after_instigator(len(rows)) or not st.events_left \
                and phase == P_EVENT_DRAW:
            out.append(f"events: seat {st.current} draws or assigns event {len(rows)} with {st.resolved} resolved "
                       f"(§5.7, R17)")
    return out or _dice(st, st.resolved)


def _dice(st, resolved: int) -> list[str]:
    """The dice of the events: a resolved event rolled one d6 for its drawer (Balance of Power, added)
    or one for each seat present (Great Game, taken off), others none; an event not yet resolved none;
    the event being resolved has the seats still to roll after the ones that have (R17)."""
    out, n = [], st.n
    for k, (e, x, drawer, dice) in enumerate(st.event_rows):
        sign = DIE_SIGN[e]  # data.json's die ops: subtract for each seat present, add for the drawer
        if k < resolved:
            wrong = len(dice) != 1 if sign > 0 else len(dice) > n if sign < 0 else bool(dice)
        elif k > resolved or st.phase != P_EVENT_DIE:
            wrong = bool(dice)
        else:
            seats = list(st.dice_for)
            present = [p for p in _order(st) if st.influence[x * n + p] > 0]
            wrong = (not sign or len(dice) + len(seats) > n or len(set(seats)) != len(seats)
                     or (sign > 0 and (dice or seats != [drawer]))
                     or (sign < 0 and seats != [p for p in present if p in seats]))
        if wrong:
            out.append(f"events: {D.events[e]} in {D.regions[x]} with dice {list(dice)} (§5.7)")
    return out


def _revealed(st) -> list[str]:
    """§5.5: the strips the Reveal showed are public until the next Bid; they were discarded then."""
    if not st.revealed:
        return []
    cards = [c for slot in st.revealed for c in slot]
    out = [] if len(set(cards)) == len(cards) and all(list(slot) == sorted(slot) for slot in st.revealed) else \
        ["revealed cards: a card shown twice, or a slot not sorted"]
    if st.phase not in (P_DRAW, P_EVENT_DRAW, P_EVENT_ASSIGN, P_EVENT_DIE, P_OVER) or (st.phase == P_DRAW
                                                                                    and st.turn == 1):
        out.append(f"revealed strips in phase {PHASES[st.phase]}: they are shown from the Reveal to the next Bid")
    elif st.phase != P_DRAW and not set(cards) <= set(st.discard):
        out.append("revealed cards not in the discard pile (§5.5)")
    return out
