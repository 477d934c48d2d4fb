"""A builder of Imperial Powers' positions for scenarios and fixtures, at the start of a phase,
written compactly with seats 0..n-1 and the ids of data.json."""

from __future__ import annotations

from imperial_lab.core.games.imperial_powers.data import data
from imperial_lab.core.games.imperial_powers.game import ImperialPowers
from imperial_lab.core.games.imperial_powers.position import _CARD, _DEV, _REGION
from imperial_lab.core.games.imperial_powers.rules import REGIONS
from imperial_lab.core.games.imperial_powers.state import State, start_phase

D = data()

def build(players: int = 4, powers: list | None = None, instigator: int = 0, turn: int = 1, phase: str = "tactics",
          influence: dict | None = None, counters: dict | None = None, hands: dict | None = None,
          strips: dict | None = None, dev_hands: dict | None = None, deck: list | None = None,
          config: dict | None = None) -> State:
    """A position at the start of ``phase`` (draw, bid, develop, tactics or event_draw), written
    compactly with seats 0..n-1 and the ids of data.json:

    * ``powers``: one power id per seat (default Britain, France, Spain, Dutch, Portuguese in order);
    * ``influence`` {region: [I per seat]}, ``counters`` {region: (resource, power)} (default 2/0);
    * ``hands`` {seat: [influence card ids]}, ``strips`` {seat: {region: [card ids]}},
      ``dev_hands`` {seat: [development card ids]}: taken out of their decks;
    * ``deck``: the influence cards left in the deck (default every card not held); the others
      are in the discard pile;
    * ``config``: more of the game's options (the powers are always ``fixed``).

    The Portuguese starting VP is granted as in the setup; the instigator has held the token since
    turn 1 in seat order, so ``first_instigator`` follows from it.
    """
    powers = list(powers or D.powers[:players])
    game = ImperialPowers({"players": players, **(config or {}), "power_assignment": "fixed", "powers": powers})
    st = State(game)
    st.powers[:] = game.fixed_powers
    st.turn, st.instigator, st.first_instigator = turn, instigator, (instigator - turn + 1) % players
    for p in range(players):
        st.gains[p * 4] = D.starting_vp[st.powers[p]]
    for name, values in (influence or {}).items():
        x = _REGION[name]
        st.influence[x * players:x * players + players] = values
    for name, (resource, power) in (counters or {}).items():
        st.resources[_REGION[name]], st.power_counters[_REGION[name]] = resource, power
    held = []
    for p, names in (hands or {}).items():
        st.hand[p] = tuple(sorted(_CARD[c] for c in names))
        held += st.hand[p]
    for p, slots in (strips or {}).items():
        for name, cards in slots.items():
            st.strip[p * REGIONS + _REGION[name]] = tuple(sorted(_CARD[c] for c in cards))
            held += st.strip[p * REGIONS + _REGION[name]]
    free = [c for c in st.deck if c not in held]
    kept = free if deck is None else sorted(_CARD[c] for c in deck)
    st.deck, st.discard = tuple(kept), tuple(c for c in free if c not in kept)
    devs = []
    for p, names in (dev_hands or {}).items():
        st.dev_hand[p] = tuple(sorted(_DEV[d] for d in names))
        devs += st.dev_hand[p]
    st.dev_deck = tuple(d for d in st.dev_deck if d not in devs)
    st.rollers = ()  # one round of setup rolls, won by the first instigator
    st.roll_rounds = (tuple((p, 10 if p == st.first_instigator else 1) for p in range(players)),)
    start_phase(st, phase)
    return st

