"""Imperial Powers' rules on the map (RULES.md §0.2, §5.1, §5.6, §5.7): Leaders, places and awards,
the Draw Phase allotment, region scoring and the events. Plain functions over a State's flat
fields: ``influence[x * n + p]`` is I[X][p], ``gains[p * 4 + source]`` a seat's VP by source.

The events are read from data.json's ``ops`` (compiled once below), so the table of §5.7 lives in
the data file. An event with a die ends with its die op: resolving it names the seats to roll for,
and each roll is then a chance node (``apply_die``).

Rulings where the specification is silent: the Leader is the unique top under every ``tie_rule``
(the option changes the awards only, R14 "one definition of Leader everywhere"); under
``share_highest_place`` the places are competition ranks (6/6/2 take places 1, 1, 3); under
``split_places`` a tied group shares the awards of the places it occupies, each share rounded
down; Exploitation's VP are counted as a source of their own, and its Spain bonus (when the option
pays one) as the Spain source.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence

from imperial_lab.core.errors import DataError
from imperial_lab.core.games.imperial_powers.data import data
from imperial_lab.core.games.imperial_powers.pending import DEVELOPMENT, INFLUENCE

D = data()
REGIONS = len(D.regions)
START, PLACES, SPAIN, EXPLOITATION = range(4)  # the sources of VP (§8 ip_player_turn)
SOURCES = ("start", "places", "spain", "exploitation")
DROP, SHARE, SPLIT = range(3)  # tie rules (R14), in data.json's order
TIE_RULES = ("drop_to_lowest_shared_place", "share_highest_place", "split_places")


# ----- Leaders, places, awards (§0.2, §5.6, R14) -----

def row(st, x: int) -> list[int]:
    """I[X][p] for every seat p."""
    n = st.n
    return st.influence[x * n:x * n + n]


def leader_of(values: Sequence[int]) -> int:
    """The seat with strictly the most influence, if present; -1 on a tie at the top (R14)."""
    best = max(values)
    if best <= 0 or values.count(best) > 1:
        return -1
    return values.index(best)


def leader(st, x: int) -> int:
    return leader_of(row(st, x))


def vp_totals(st) -> list[int]:
    """Each seat's VP: the sum of its sources."""
    g = st.gains
    return [g[4 * p] + g[4 * p + 1] + g[4 * p + 2] + g[4 * p + 3] for p in range(st.n)]


def value(st, x: int) -> int:
    """V[X]: resource plus power counters (R23)."""
    return st.resources[x] + st.power_counters[x]


def award(place: int, v: int) -> int:
    """The VP of a place (§5.6): 1st the value, 2nd half of it, 3rd one, later nothing."""
    return v if place == 1 else v // 2 if place == 2 else 1 if place == 3 else 0


def awards(values: list[int], v: int, tie_rule: int) -> list[int]:
    """Each seat's award in a region of value ``v`` (absent seats 0). A present seat occupies the
    places above+1 .. at_least, where ``above`` counts present seats with more influence and
    ``at_least`` those with as much or more (itself included); R14 says which place pays."""
    present = sorted(u for u in values if u > 0)
    out = [0] * len(values)
    count = len(present)
    for p, u in enumerate(values):
        if u <= 0:
            continue
        at_least = count - bisect_left(present, u)
        if tie_rule == DROP:
            out[p] = award(at_least, v)
            continue
        above = count - bisect_right(present, u)
        if tie_rule == SHARE:
            out[p] = award(above + 1, v)
        else:  # SPLIT: the tied seats share the awards of their places, each share rounded down
            out[p] = sum(award(k, v) for k in range(above + 1, at_least + 1)) // (at_least - above)
    return out


def score_region(st, x: int, source: int, spain_bonus: bool) -> list[int]:
    """Score region x (§5.6): every present seat gets its award under ``source``; the Spanish
    Leader also the Spain bonus when ``spain_bonus``. Returns the VP gained per seat."""
    values = row(st, x)
    got = awards(values, value(st, x), st.game.tie_rule)
    gains = st.gains
    for p, vp in enumerate(got):
        gains[p * 4 + source] += vp
    if spain_bonus:
        lead = leader_of(values)
        bonus = D.spain_vp[st.powers[lead]] if lead >= 0 else 0
        if bonus:
            gains[lead * 4 + SPAIN] += bonus
            got[lead] += bonus
    return got


# ----- the Draw Phase (§5.1, R7, R8) -----

def allotment(st, leaders: list[int], p: int) -> tuple[int, int]:
    """(influence cards, development cards) seat p draws this turn, from the Leaders fixed at the
    start of the phase (R7)."""
    power = st.powers[p]
    cards = D.base_influence + D.extra_influence[power]
    cards += sum(st.power_counters[x] for x in range(REGIONS) if leaders[x] == p)
    if st.turn == 1 or st.game.portuguese_every_turn:
        cards += D.extra_influence_turn1[power]
    return cards, D.base_development + D.extra_development[power]


# ----- events (§5.7, R17) -----

def present_seats(st, x: int) -> tuple:
    """The seats present in x, in seat order from the instigator (R6)."""
    n, base, inf = st.n, x * st.n, st.influence
    return tuple(p for p in ((st.instigator + k) % n for k in range(n)) if inf[base + p] > 0)


def _zero_lowest(st, x: int, drawer: int, min_present: int) -> tuple:
    present = present_seats(st, x)
    if len(present) < min_present:
        return ()
    n, inf = st.n, st.influence
    low = min(inf[x * n + p] for p in present)
    lowest = [p for p in present if inf[x * n + p] == low]
    if len(lowest) < len(present):  # all tied: no effect
        for p in lowest:
            inf[x * n + p] = 0
    return ()


def _score(st, x: int, drawer: int, _) -> tuple:
    got = score_region(st, x, EXPLOITATION, st.game.spain_bonus_on_exploitation)
    st.emit("scored", "§5.7", region=D.regions[x], awards=got, by="exploitation")
    return ()


def _halve_leader(st, x: int, drawer: int, _) -> tuple:
    lead = leader(st, x)
    if lead >= 0:
        st.influence[x * st.n + lead] //= 2
    return ()


def _halve_present(st, x: int, drawer: int, _) -> tuple:
    for i in range(x * st.n, x * st.n + st.n):
        st.influence[i] //= 2
    return ()


def _zero_all(st, x: int, drawer: int, _) -> tuple:
    for i in range(x * st.n, x * st.n + st.n):
        st.influence[i] = 0
    return ()


def _zero_others(st, x: int, drawer: int, _) -> tuple:
    lead = leader(st, x)
    if lead >= 0:
        for p in range(st.n):
            if p != lead:
                st.influence[x * st.n + p] = 0
    return ()


def _add_resource(st, x: int, drawer: int, amount: int) -> tuple:
    st.resources[x] += amount
    return ()


def _dice_present(st, x: int, drawer: int, _) -> tuple:
    return present_seats(st, x)


def _dice_drawer(st, x: int, drawer: int, _) -> tuple:
    return (drawer,)


def _compile(op: dict, where: str) -> tuple:
    """(function, parameter, die sign) of one op of data.json › event_deck; DataError if unknown."""
    kind, target = op.get("op"), op.get("target")
    if kind == "zero_lowest_present" and op.get("if_all_present_tied", "no_effect") == "no_effect":
        return _zero_lowest, op.get("min_present", 2), 0
    if kind == "score_region":
        return _score, None, 0
    if kind == "halve" and target in ("leader", "each_present"):
        return (_halve_leader if target == "leader" else _halve_present), None, 0
    if kind == "set_zero" and target in ("all", "all_but_leader"):
        return (_zero_all if target == "all" else _zero_others), None, 0
    if kind == "add_counters" and op.get("kind") == "resource" and type(op.get("amount")) is int:
        return _add_resource, op["amount"], 0
    if kind == "subtract_die" and target == "each_present" and op.get("die") == "d6" and op.get("floor") == 0:
        return _dice_present, None, -1
    if kind == "add_die" and target == "drawer" and op.get("die") == "d6":
        return _dice_drawer, None, 1
    raise DataError(f"{where}: unknown event op {op!r}")


def _compile_events() -> tuple[tuple, tuple]:
    ops, signs = [], []
    for e, raw in enumerate(D.event_ops):
        compiled = [_compile(op, f"data.json: event_deck.cards[{e}].ops[{k}]") for k, op in enumerate(raw)]
        if any(sign for _, _, sign in compiled[:-1]):
            raise DataError(f"data.json: event_deck.cards[{e}]: a die op must be the event's last op")
        ops.append(tuple((fn, param) for fn, param, _ in compiled))
        signs.append(compiled[-1][2] if compiled else 0)
    return tuple(ops), tuple(signs)


EVENT_OPS, DIE_SIGN = _compile_events()


def resolve(st, e: int, x: int, drawer: int) -> tuple:
    """Resolve event e in region x for ``drawer`` (§5.7): apply its ops; the seats a die is to be
    rolled for, in order (empty when the event rolls none)."""
    for fn, param in EVENT_OPS[e]:
        seats = fn(st, x, drawer, param)
        if seats:
            return seats
    return ()


def apply_die(st, e: int, x: int, p: int, roll: int) -> None:
    """A d6 of event e for seat p: Great Game takes it off, not below 0; Balance of Power adds it."""
    i = x * st.n + p
    st.influence[i] = max(0, st.influence[i] + DIE_SIGN[e] * roll)


def deal_of(st) -> tuple:
    """This turn's draws in order ((seat, INFLUENCE | DEVELOPMENT), ...), from the map as it is before
    anything is dealt (the Leaders are fixed then, R7; the map does not change while dealing)."""
    leaders = [leader(st, x) for x in range(REGIONS)]
    deal = []
    for k in range(st.n):
        p = st.seat_after_instigator(k)
        cards, devs = allotment(st, leaders, p)
        deal += [(p, INFLUENCE)] * cards + [(p, DEVELOPMENT)] * devs
    return tuple(deal)
