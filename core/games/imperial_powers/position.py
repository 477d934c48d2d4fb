"""Imperial Powers' position document (``State.to_json``), its reader and the observation of a
seat (RULES.md §6.2); the builder of positions for scenarios is ``builders.build``.

The document holds every field of the state, cards by their ids (``navy#1``, ``europe__weapons``),
so ``game.state_from_json(state.to_json())`` rebuilds it exactly; the reader checks the structure
(NotationError naming the field) and then the invariants (``invariants.check_invariants``).

An observation is the document with what the seat may not see taken out (§6.2): the other seats'
influence hands and strips become ``hand_size`` and ``strip_size``, the decks become their sizes,
the Dutch development hand and face-down discards become counts for everyone but the Dutch
player, and the cards moved in Tactics are shown only to the seat moving them. What is left is
public: the map, VP, powers, the discard piles, the face-up development cards, the events and
their dice, the setup rolls, who is to decide, and every seat's strip as the last Reveal showed it
(``revealed``: which card lay under which region, §5.5) from the Reveal until the next Bid.
"""

from __future__ import annotations

from imperial_lab.core.errors import NotationError
from imperial_lab.core.jsonio import clip
from imperial_lab.core.games.imperial_powers.data import data
from imperial_lab.core.games.imperial_powers.rules import REGIONS, SOURCES, leader, value
from imperial_lab.core.games.imperial_powers.pending import DECKS, PHASES

FORMAT = 1
D = data()
_CARD = {name: c for c, name in enumerate(D.card_names)}
_DEV = {name: d for d, name in enumerate(D.dev_ids)}
_REGION = {name: x for x, name in enumerate(D.regions)}
_POWER = {name: w for w, name in enumerate(D.powers)}
_EVENT = {name: e for e, name in enumerate(D.events)}


def _cards(cards) -> list[str]:
    return [D.card_names[c] for c in cards]


def _devs(cards) -> list[str]:
    return [D.dev_ids[d] for d in cards]


def _slots(strip, p: int) -> dict:
    """Seat p's slots of a strip laid out like ``State.strip`` (empty: none), as region -> card ids."""
    return {D.regions[x]: _cards(strip[p * REGIONS + x]) for x in range(REGIONS) if strip and strip[p * REGIONS + x]}


def state_to_document(st) -> dict:
    n = st.n
    seats = []
    for p in range(n):
        seats.append({"seat": p, "power": D.powers[st.powers[p]] if st.powers[p] >= 0 else None,
                      "vp": {name: st.gains[p * 4 + s] for s, name in enumerate(SOURCES)},
                      "hand": _cards(st.hand[p]), "strip": _slots(st.strip, p), "dev_hand": _devs(st.dev_hand[p]),
                      "revealed": _slots(st.revealed, p)})
    return {
        "game": "imperial_powers", "format": FORMAT, "config": st.game.config,
        "phase": PHASES[st.phase], "to_move": st.current, "turn": st.turn, "instigator": st.instigator,
        "first_instigator": st.first_instigator, "ply": st.ply,
        "regions": [{"region": D.regions[x], "resource": st.resources[x], "power": st.power_counters[x],
                     "influence": st.influence[x * n:x * n + n]} for x in range(REGIONS)],
        "seats": seats,
        "influence_deck": _cards(st.deck), "influence_discard": _cards(st.discard),
        "development_deck": _devs(st.dev_deck), "development_discard": _devs(st.dev_discard),
        "development_face_down": _devs(st.dev_face_down),
        "setup": {"rollers": list(st.rollers), "rolls": list(st.rolls),
                  "rounds": [[list(pair) for pair in done] for done in st.roll_rounds]},
        "deal": {"draws": [[p, DECKS[which]] for p, which in st.deal], "done": st.dealt},
        "tactics": {"moves_left": st.moves_left, "moved": _cards(st.moved),
                    "log": [[p, D.regions[x], D.regions[y]] for p, x, y in st.tactics_log]},
        "events": {"left": [D.events[e] for e in st.events_left],
                   "rows": [{"event": D.events[e], "region": D.regions[x], "drawer": d, "dice": list(dice)}
                            for e, x, d, dice in st.event_rows],
                   "pending": D.events[st.pending_event] if st.pending_event >= 0 else None,
                   "resolved": st.resolved, "dice_for": list(st.dice_for)},
    }


def observation(st, player: int | None) -> dict:
    """The document without what ``player`` may not see (§6.2; see the module docstring), plus
    each region's value and Leader and each seat's VP total."""
    doc = state_to_document(st)
    dutch = [p for p in range(st.n) if st.powers[p] >= 0 and D.development_hidden[st.powers[p]]]
    for entry in doc["seats"]:
        p = entry["seat"]
        entry["vp_total"] = sum(entry["vp"].values())
        entry["hand_size"] = len(st.hand[p])
        entry["strip_size"] = sum(len(st.strip[p * REGIONS + x]) for x in range(REGIONS))
        entry["dev_hand_size"] = len(st.dev_hand[p])
        if p != player:
            del entry["hand"], entry["strip"]
            if p in dutch:
                del entry["dev_hand"]
    for x, entry in enumerate(doc["regions"]):
        lead = leader(st, x)
        entry["value"], entry["leader"] = value(st, x), lead if lead >= 0 else None
    doc["influence_deck"] = len(st.deck)
    doc["development_deck"] = len(st.dev_deck)
    if player not in dutch:
        doc["development_face_down"] = len(st.dev_face_down)
    if player != st.current:
        del doc["tactics"]["moved"]
    doc["observer"] = player
    return doc


# ----- reading -----

def _bad(where: str, why: str):
    raise NotationError(f"position.{where}: {why}")


def _get(doc: dict, key: str, where: str = ""):
    if not isinstance(doc, dict):
        _bad(where.rstrip(".") or "document", "must be an object")
    if key not in doc:
        _bad(where + key, "missing")
    return doc[key]


def _int(value, low: int, high: int, where: str) -> int:
    if type(value) is not int or not low <= value <= high:
        _bad(where, f"must be a whole number {low}..{high}, got {clip(value)}")
    return value


def _list(value, where: str, limit: int = 100) -> list:
    if not isinstance(value, list) or len(value) > limit:
        _bad(where, f"must be a list (of at most {limit} entries), got {clip(value)}")
    return value


def _ids(value, index: dict, where: str, limit: int = 100) -> tuple:
    """A list of ids as their ints, sorted (every pile, hand and slot is kept sorted)."""
    out = []
    for k, name in enumerate(_list(value, where, limit)):
        if not isinstance(name, str) or name not in index:
            _bad(f"{where}[{k}]", f"unknown id {clip(name)}")
        out.append(index[name])
    return tuple(sorted(out))


def _id(value, index: dict, where: str, allow_none: bool = False) -> int:
    if value is None and allow_none:
        return -1
    if not isinstance(value, str) or value not in index:
        _bad(where, f"unknown id {clip(value)}")
    return index[value]


def _seats(value, n: int, where: str) -> tuple:
    return tuple(_int(p, 0, n - 1, f"{where}[{k}]") for k, p in enumerate(_list(value, where)))


def state_from_document(st, doc, check: bool = True):
    """``st`` (a blank ``State`` of the game) set to the position of ``doc``; NotationError naming
    the field when it is malformed or (``check``) breaks an invariant of the rules."""
    game = st.game
    if not isinstance(doc, dict):
        raise NotationError(f"position: must be an object, got {clip(doc)}")
    if doc.get("game") != "imperial_powers" or doc.get("format") != FORMAT:
        _bad("game", f"an Imperial Powers position of format {FORMAT} expected")
    if _get(doc, "config") != game.config:
        _bad("config", "the position was made for another configuration than this game's")
    n = game.num_players
    phase = _get(doc, "phase")
    if phase not in PHASES:
        _bad("phase", f"one of {', '.join(PHASES)}, got {clip(phase)}")
    st.phase = PHASES.index(phase)
    st.current = _int(_get(doc, "to_move"), -1, n - 1, "to_move")
    st.turn = _int(_get(doc, "turn"), 1, game.turns, "turn")
    st.instigator = _int(_get(doc, "instigator"), -1, n - 1, "instigator")
    st.first_instigator = _int(_get(doc, "first_instigator"), -1, n - 1, "first_instigator")
    st.ply = _int(_get(doc, "ply"), 0, 10**6, "ply")
    _read_regions(st, _get(doc, "regions"))
    _read_seats(st, _get(doc, "seats"))
    st.deck = _ids(_get(doc, "influence_deck"), _CARD, "influence_deck")
    st.discard = _ids(_get(doc, "influence_discard"), _CARD, "influence_discard")
    st.dev_deck = _ids(_get(doc, "development_deck"), _DEV, "development_deck")
    st.dev_discard = _ids(_get(doc, "development_discard"), _DEV, "development_discard")
    st.dev_face_down = _ids(_get(doc, "development_face_down"), _DEV, "development_face_down")
    setup = _get(doc, "setup")
    st.rollers = _seats(_get(setup, "rollers", "setup."), n, "setup.rollers")
    st.rolls = tuple(_int(v, 1, 10, f"setup.rolls[{k}]") for k, v in enumerate(_list(_get(setup, "rolls", "setup."),
                                                                                      "setup.rolls")))
    st.roll_rounds = tuple(_read_round(done, n, f"setup.rounds[{k}]")
                           for k, done in enumerate(_list(_get(setup, "rounds", "setup."), "setup.rounds")))
    _read_deal(st, _get(doc, "deal"))
    _read_tactics(st, _get(doc, "tactics"))
    _read_events(st, _get(doc, "events"))
    if check:
        from imperial_lab.core.games.imperial_powers.invariants import check_invariants
        problems = check_invariants(st)
        if problems:
            raise NotationError("position: " + "; ".join(problems[:5]))
    return st


def _read_regions(st, regions) -> None:
    n = st.n
    if len(_list(regions, "regions")) != REGIONS:
        _bad("regions", f"{REGIONS} regions in the order of data.json")
    for x, entry in enumerate(regions):
        where = f"regions[{x}]."
        if _get(entry, "region", where) != D.regions[x]:
            _bad(where + "region", f"expected {D.regions[x]!r}")
        st.resources[x] = _int(_get(entry, "resource", where), 0, 10**6, where + "resource")
        st.power_counters[x] = _int(_get(entry, "power", where), 0, 10**6, where + "power")
        values = _list(_get(entry, "influence", where), where + "influence")
        if len(values) != n:
            _bad(where + "influence", f"one value per seat ({n})")
        st.influence[x * n:x * n + n] = [_int(v, 0, 10**6, f"{where}influence[{p}]") for p, v in enumerate(values)]


def _read_seats(st, seats) -> None:
    if len(_list(seats, "seats")) != st.n:
        _bad("seats", f"one entry per seat ({st.n})")
    revealed = [()] * (st.n * REGIONS)
    for p, entry in enumerate(seats):
        where = f"seats[{p}]."
        if _get(entry, "seat", where) != p:
            _bad(where + "seat", f"expected {p}")
        st.powers[p] = _id(_get(entry, "power", where), _POWER, where + "power", allow_none=True)
        vp = _get(entry, "vp", where)
        if not isinstance(vp, dict) or set(vp) != set(SOURCES):
            _bad(where + "vp", f"an object with the sources {list(SOURCES)}")
        for s, name in enumerate(SOURCES):
            st.gains[p * 4 + s] = _int(vp[name], 0, 10**6, f"{where}vp.{name}")
        st.hand[p] = _ids(_get(entry, "hand", where), _CARD, where + "hand")
        _read_slots(st.strip, p, _get(entry, "strip", where), where + "strip")
        st.dev_hand[p] = _ids(_get(entry, "dev_hand", where), _DEV, where + "dev_hand")
        _read_slots(revealed, p, entry.get("revealed", {}), where + "revealed")
    st.revealed = tuple(revealed) if any(revealed) else ()


def _read_slots(strip: list, p: int, slots, where: str) -> None:
    """Seat p's slots (region -> card ids) into ``strip``, laid out like ``State.strip``."""
    if not isinstance(slots, dict) or not set(slots) <= set(D.regions):
        _bad(where, f"an object region -> cards, got {clip(slots)}")
    for name, cards in slots.items():
        strip[p * REGIONS + _REGION[name]] = _ids(cards, _CARD, f"{where}.{name}")


def _read_round(done, n: int, where: str) -> tuple:
    out = []
    for k, pair in enumerate(_list(done, where)):
        if not isinstance(pair, list) or len(pair) != 2:
            _bad(f"{where}[{k}]", f"a [seat, roll] pair, got {clip(pair)}")
        out.append((_int(pair[0], 0, n - 1, f"{where}[{k}][0]"), _int(pair[1], 1, 10, f"{where}[{k}][1]")))
    return tuple(out)


def _read_deal(st, deal) -> None:
    draws = []
    for k, pair in enumerate(_list(_get(deal, "draws", "deal."), "deal.draws", 1000)):
        if not isinstance(pair, list) or len(pair) != 2 or pair[1] not in DECKS:
            _bad(f"deal.draws[{k}]", f"a [seat, 'influence' | 'development'] pair, got {clip(pair)}")
        draws.append((_int(pair[0], 0, st.n - 1, f"deal.draws[{k}][0]"), DECKS.index(pair[1])))
    st.deal = tuple(draws)
    st.dealt = _int(_get(deal, "done", "deal."), 0, len(draws), "deal.done")


def _read_tactics(st, tactics) -> None:
    st.moves_left = _int(_get(tactics, "moves_left", "tactics."), 0, 10, "tactics.moves_left")
    st.moved = _ids(_get(tactics, "moved", "tactics."), _CARD, "tactics.moved")
    log = []
    for k, entry in enumerate(_list(_get(tactics, "log", "tactics."), "tactics.log")):
        if not isinstance(entry, list) or len(entry) != 3:
            _bad(f"tactics.log[{k}]", f"a [seat, from, to] entry, got {clip(entry)}")
        log.append((_int(entry[0], 0, st.n - 1, f"tactics.log[{k}][0]"),
                    _id(entry[1], _REGION, f"tactics.log[{k}][1]"), _id(entry[2], _REGION, f"tactics.log[{k}][2]")))
    st.tactics_log = tuple(log)


def _read_events(st, events) -> None:
    left = _list(_get(events, "left", "events."), "events.left")
    st.events_left = tuple(_id(name, _EVENT, f"events.left[{k}]") for k, name in enumerate(left))
    rows = []
    for k, row in enumerate(_list(_get(events, "rows", "events."), "events.rows")):
        where = f"events.rows[{k}]."
        dice = _list(_get(row, "dice", where), where + "dice")
        rows.append((_id(_get(row, "event", where), _EVENT, where + "event"),
                     _id(_get(row, "region", where), _REGION, where + "region"),
                     _int(_get(row, "drawer", where), 0, st.n - 1, where + "drawer"),
                     tuple(_int(v, 1, 6, f"{where}dice[{i}]") for i, v in enumerate(dice))))
    st.event_rows = tuple(rows)
    st.pending_event = _id(_get(events, "pending", "events."), _EVENT, "events.pending", allow_none=True)
    st.resolved = _int(_get(events, "resolved", "events."), 0, len(rows), "events.resolved")
    st.dice_for = _seats(_get(events, "dice_for", "events."), st.n, "events.dice_for")
