"""What changed at a step of a game (a whole nation turn, or one action), as plain data a map can
draw and one line a person can read:

    changes = step_changes(timeline.position_before(turn), snapshot.position, snapshot.events)
    changes.moves     # arrows: Move(nation, unit, origin, to, via, stance, count)
    changes.summary   # "Russia maneuvers: 2 armies to Ukraine, a fleet to the North Atlantic; battle in Ukraine"

Moves, builds and battles come from the events (they say where a unit came from, which the
positions do not); units removed (battles, factory destruction) are what the position lost beyond
that; flags and factories are read from the two positions. Pure functions: no Streamlit.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import NamedTuple

from imperial_lab.core.games.imperial2030.data import load_board
from imperial_lab.core.games.imperial2030.words import nation, place, possessive, space, unit_count
from imperial_lab.core.words import and_list
from imperial_lab.dashboard.style import player_label

MAX_SUMMARY = 120  # characters: one line under the map


class Move(NamedTuple):
    nation: str
    unit: str  # army | fleet
    origin: str
    to: str
    via: tuple[str, ...]  # the seas of a convoy
    stance: str | None  # the army's stance on entering another nation's home province
    count: int


class Built(NamedTuple):
    region: str
    nation: str
    unit: str
    count: int
    how: str  # production | import


class Removed(NamedTuple):
    region: str
    nation: str
    unit: str
    count: int


class Battle(NamedTuple):
    region: str
    nations: tuple[str, ...]  # every nation that fought there, in the order they first did


@dataclass(frozen=True)
class Changes:
    moves: tuple[Move, ...]
    built: tuple[Built, ...]
    removed: tuple[Removed, ...]
    flags_new: tuple[tuple[str, str], ...]  # (region, nation)
    flags_removed: tuple[tuple[str, str], ...]
    factories_new: tuple[tuple[str, str], ...]
    factories_destroyed: tuple[tuple[str, str], ...]
    battles: tuple[Battle, ...]
    summary: str


def step_changes(before: dict, after: dict, events: list[dict]) -> Changes:
    """The changes from position document ``before`` to ``after`` made by ``events`` (Event.to_json())."""
    moves = _moves(events)
    built = _built(events)
    return Changes(moves, built, _removed(before, after, moves, built),
                   *_sites(before, after, "flags"), *_sites(before, after, "factories"),
                   _battles(events), _summary(before, after, events))


# ----- the map's data -----

def _moves(events: list[dict]) -> tuple[Move, ...]:
    counts = Counter((e["nation"], e["unit"], e["from"], e["to"], tuple(e["via"]), e["stance"])
                     for e in events if e["kind"] == "unit_moved")
    return tuple(Move(*key, count) for key, count in counts.items())


def _built(events: list[dict]) -> tuple[Built, ...]:
    counts = Counter((e["region"], e["nation"], e["unit"], e["how"]) for e in events if e["kind"] == "unit_built")
    return tuple(Built(region, code, unit, count, how) for (region, code, unit, how), count in counts.items())


def _removed(before: dict, after: dict, moves, built) -> tuple[Removed, ...]:
    """Units the step should have left (before, plus builds and moves) that ``after`` lacks."""
    expected = _units(before)
    for m in moves:
        expected[(m.origin, m.nation, m.unit)] -= m.count
        expected[(m.to, m.nation, m.unit)] += m.count
    for b in built:
        expected[(b.region, b.nation, b.unit)] += b.count
    gone = expected - _units(after)  # Counter subtraction keeps the positive counts only
    return tuple(Removed(*key, count) for key, count in gone.items())


def _units(doc: dict) -> Counter:
    """Units per (region, nation, unit), whatever their stance."""
    counts: Counter = Counter()
    for u in doc["units"]:
        counts[(u["region"], u["nation"], u["unit"])] += u["count"]
    return counts


def _sites(before: dict, after: dict, key: str) -> tuple[tuple, tuple]:
    """(new, gone) (region, nation) pairs of the nations' ``flags`` or ``factories``."""
    def sites(doc: dict) -> set[tuple[str, str]]:
        return {(region, code) for code, n in doc["nations"].items() for region in n[key]}
    old, new = sites(before), sites(after)
    return tuple(sorted(new - old)), tuple(sorted(old - new))


def _battles(events: list[dict]) -> tuple[Battle, ...]:
    fought: dict[str, dict[str, None]] = {}
    for e in events:
        if e["kind"] == "battle":
            fought.setdefault(e["region"], {}).update(dict.fromkeys((e["attacker"], e["defender"])))
    return tuple(Battle(region, tuple(nations)) for region, nations in fought.items())


# ----- the summary line -----

# Per rondel space: the kinds of event that tell what it did, and what to say when none happened
# (a maneuver without units, ...) and the turn is over; while it is not (a step of one action), the
# move on the rondel is said. Taxation always tells.
MANEUVER = ({"unit_moved", "battle", "factory_destroyed"}, "{nation} maneuvers: no unit moves")
PRODUCTION = ({"unit_built"}, "{nation} produces nothing")
DID = {"factory": ({"factory_built"}, "{nation} builds no factory"), "production_1": PRODUCTION,
       "production_2": PRODUCTION, "import": ({"unit_built"}, "{nation} imports nothing"), "maneuver_1": MANEUVER,
       "maneuver_2": MANEUVER, "investor": ({"bond_taken"}, "investor: no bond bought")}


class _Part(NamedTuple):
    """One clause of the summary: ``head`` then its items, cut from the end when the line is long."""
    head: str
    items: list[str]
    sep: str = ", "


def _summary(before: dict, after: dict, events: list[dict]) -> str:
    """One line in plain words for a step (at most ``MAX_SUMMARY`` characters)."""
    built = _built(events)
    # The nation's action first; a pass over Investor brings the investor's purchase after it.
    parts = [part for part in (_setup(events), _factories(events), _units_built(built, "production"),
                               _units_built(built, "import"), _maneuver(_moves(events)), _battle_part(events),
                               _destroyed(events), _flags(events), _taxes(events), _investor(events),
                               _governments(events), _game_over(events))
             if part is not None]
    rondel = next((e for e in events if e["kind"] == "rondel"), None)
    if rondel and rondel["to"] in DID and not DID[rondel["to"]][0] & {e["kind"] for e in events}:
        parts.insert(0, _Part(_undone(rondel, before, after), []))
    line = _fit(parts) if parts else "nothing changes"
    return line[0].upper() + line[1:]


def _undone(rondel: dict, before: dict, after: dict) -> str:
    """A rondel move whose space did nothing (yet)."""
    if after["turn"]["nation_turns"] != before["turn"]["nation_turns"]:  # the turn is over
        return DID[rondel["to"]][1].format(nation=nation(rondel["nation"]))
    return f"{nation(rondel['nation'])} moves to {space(rondel['to'])}"


def _setup(events) -> _Part | None:
    """Who governs what after the setup; in the variant setup, a pick before the governments form."""
    setup = [e for e in events if e["rule"].startswith("§4")]
    governs: dict[int, list[str]] = {}
    for e in setup:
        if e["kind"] == "government":
            governs.setdefault(e["new"], []).append(nation(e["nation"]))
    if governs:  # "Player C governs Russia and Europe, Player A China, ..."
        items = [f"{player_label(p)}{' governs' if k == 0 else ''} {and_list(names)}"
                 for k, (p, names) in enumerate(governs.items())]
        return _Part("setup: ", items)
    picks = [_bond_bought(e, {}) for e in setup if e["kind"] == "bond_taken"]
    return _Part("setup: ", picks) if picks else None


def _investor(events) -> _Part | None:
    returned = {(e["player"], e["nation"]): e["number"] for e in events if e["kind"] == "bond_returned"}
    bought = [_bond_bought(e, returned) for e in events
              if e["kind"] == "bond_taken" and not e["rule"].startswith("§4")]
    return _Part("investor: ", bought) if bought else None


def _bond_bought(e: dict, returned) -> str:
    text = f"{player_label(e['player'])} buys {possessive(e['nation'])} {e['cost']}m bond"
    if (e["player"], e["nation"]) in returned:
        old = load_board().bond_cost[returned[(e["player"], e["nation"])] - 1]
        text += f" (trading in the {old}m)"
    return text


def _factories(events) -> _Part | None:
    built = [e for e in events if e["kind"] == "factory_built"]
    if not built:
        return None
    return _Part(f"{nation(built[0]['nation'])} builds a factory in ", [place(e["region"]) for e in built], " and ")


def _units_built(built, how: str) -> _Part | None:
    """``China produces 2 armies (Beijing, Chongqing) and a fleet (Shanghai)``."""
    mine = [b for b in built if b.how == how]
    if not mine:
        return None
    items = []
    for unit in ("army", "fleet"):
        where = [b for b in mine if b.unit == unit]
        if where:
            names = ", ".join(dict.fromkeys(place(b.region) for b in where))
            items.append(f"{unit_count(sum(b.count for b in where), unit)} ({names})")
    verb = "produces" if how == "production" else "imports"
    return _Part(f"{nation(mine[0].nation)} {verb} ", items, " and ")


def _maneuver(moves) -> _Part | None:
    """``Russia maneuvers: 2 armies to Ukraine, a fleet to the North Atlantic``."""
    if not moves:
        return None
    arrivals = Counter()
    for m in moves:
        arrivals[(m.unit, m.to)] += m.count
    items = [f"{unit_count(count, unit)} to {place(to)}" for (unit, to), count in arrivals.items()]
    return _Part(f"{nation(moves[0].nation)} maneuvers: ", items)


def _battle_part(events) -> _Part | None:
    fought = Counter(e["region"] for e in events if e["kind"] == "battle")
    items = [("battle" if k == 1 else f"{k} battles") + f" in {place(region)}" for region, k in fought.items()]
    return _Part("", items) if items else None


def _destroyed(events) -> _Part | None:
    items = [f"{possessive(e['nation'])} factory in {place(e['region'])} destroyed"
             for e in events if e["kind"] == "factory_destroyed"]
    return _Part("", items) if items else None


def _flags(events) -> _Part | None:
    placed = [e for e in events if e["kind"] == "flag_placed"]
    return _Part("new flags in ", [place(e["region"]) for e in placed]) if placed else None


def _taxes(events) -> _Part | None:
    """``India taxes: 12m, 3 power points``."""
    tax = next((e for e in events if e["kind"] == "taxation"), None)
    if tax is None:
        return None
    gained = sum(e["gained"] for e in events if e["kind"] == "power_points")
    points = "no power points" if not gained else "1 power point" if gained == 1 else f"{gained} power points"
    return _Part(f"{nation(tax['nation'])} taxes: ", [f"{tax['revenue']}m", points])


def _governments(events) -> _Part | None:
    items = [f"{player_label(e['new'])} takes over {nation(e['nation'])}"
             for e in events if e["kind"] == "government" and not e["rule"].startswith("§4")]
    return _Part("", items) if items else None


def _game_over(events) -> _Part | None:
    end = next((e for e in events if e["kind"] == "game_ended"), None)
    if end is None:
        return None
    winners, best = end["winners"], max(end["scores"])
    verdict = "wins" if len(winners) == 1 else "share the win"
    return _Part("game over: ", [f"{and_list([player_label(p) for p in winners])} {verdict} with {best} points"])



def _fit(parts: list[_Part]) -> str:
    """The parts joined by "; ", with as many items as fit in ``MAX_SUMMARY`` characters and the
    rest counted ("… and 3 more"); a part without items is a whole clause (its head)."""
    total = shown = sum(len(p.items) for p in parts)
    line = _render(parts, shown)
    while len(line) > MAX_SUMMARY and shown:
        shown -= 1
        line = f"{_render(parts, shown)} … and {total - shown} more"
    return line


def _render(parts: list[_Part], shown: int) -> str:
    """The first ``shown`` items of the parts (a part without items never needs one)."""
    clauses = []
    for part in parts:
        if not part.items:
            clauses.append(part.head)
            continue
        items, shown = part.items[:shown], max(shown - len(part.items), 0)
        if items:
            clauses.append(part.head + part.sep.join(items))
    return "; ".join(clauses)
