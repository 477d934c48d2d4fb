"""Position documents: any state of Imperial 2030 as JSON, and back (docs/formats.md, "Position documents").

Only ``config``, ``players`` and ``nations`` are required when a teacher or a test writes a
position by hand; everything else has a default (no units, no flags, the decision at the start
of ``turn.nation``'s turn). Ids are the RULES.md ones: nation codes, region ids, rondel spaces.
"""

from __future__ import annotations

from imperial_lab.core.errors import NotationError
from imperial_lab.core.games.imperial2030.invariants import MAX_PP, check_invariants
from imperial_lab.core.games.imperial2030.limits import MAX_MONEY, MAX_NATION_TURNS
from imperial_lab.core.jsonio import clip
from imperial_lab.core.games.imperial2030.actions import (ARMY_UNIT, FLEET_UNIT, FRIENDLY, HOSTILE, NO_STANCE, STANCE_NAMES, UNIT_NAMES,
                                       action_text, parse_action)
from imperial_lab.core.games.imperial2030.data import NATIONS, SPACES
from imperial_lab.core.games.imperial2030.distribution import parse_bond
from imperial_lab.core.games.imperial2030.pending import CHANCE, P_TURN, PENDING_NAMES

FORMAT = 1


def state_to_document(s) -> dict:
    b = s.board
    R = len(b.region_ids)
    names = b.region_ids
    players = [{"cash": s.cash[p], "swiss_bank": s.swiss[p],
                "bonds": [f"{NATIONS[k // 9]} {k % 9 + 1}" for k in range(54) if s.owner[k] == p]}
               for p in range(s.nplayers)]
    nations = {}
    for n, code in enumerate(NATIONS):
        nations[code] = {
            "treasury": s.treasury[n], "power_points": s.pp[n],
            "rondel": SPACES[s.rondel[n]] if s.rondel[n] >= 0 else None,
            "government": s.gov[n] if s.gov[n] >= 0 else None,
            "factories": [names[r] for r in b.homes[n] if s.factory[r]],
            "flags": [names[r] for r in range(R) if s.flag[r] == n],
        }
    units = []
    for n, code in enumerate(NATIONS):
        active = n == s.nation
        for r in range(R):
            i = n * R + r
            if s.fleets[i]:
                units.append({"nation": code, "unit": "fleet", "region": names[r], "count": s.fleets[i],
                              "moved": s.moved_f.get(r, 0) if active else 0,
                              "convoyed": s.convoyed.get(r, 0) if active else 0})
            if s.armies[i]:
                moved_a = s.moved_a.get(r, 0) if active else 0
                moved_h = s.moved_h.get(r, 0) if active else 0
                groups: tuple[tuple[int, int, int], ...]
                if s.foreign_home(n, r):
                    groups = ((HOSTILE, s.hostile[i], moved_h), (FRIENDLY, s.armies[i] - s.hostile[i], moved_a - moved_h))
                else:
                    groups = ((NO_STANCE, s.armies[i], moved_a),)
                for stance, count, moved in groups:
                    if count:
                        units.append({"nation": code, "unit": "army", "region": names[r], "count": count,
                                      "stance": STANCE_NAMES[stance] or None, "moved": moved})
    text = lambda a: action_text(b, a)  # noqa: E731
    decision = {
        "kind": "game_over" if s.terminal else PENDING_NAMES[s.pending[0]],
        "player": None if s.terminal or s.pending[1] < 0 else s.pending[1],
        "queue": list(s.queue), "destination": SPACES[s.dest] if s.dest >= 0 else None,
        "passing_investor": s.passing, "topped_up": s.topped,
        "imports": [[UNIT_NAMES[k], names[r]] for k, r in s.imports],
        "denied": sorted(text(a) for a in s.denied), "armies_phase": s.armies_phase,
        "move": text(s.move) if s.move else None,
        "arrival": None if s.arrival is None else {
            "unit": UNIT_NAMES[s.arrival[0]], "region": names[s.arrival[1]],
            "stance": STANCE_NAMES[s.arrival[2]] or None},
        "flags_to_place": [[NATIONS[m], [names[r] for r in regs]] for m, regs in s.flag_todo],
        "variant_step": s.variant_step,
    }
    return {
        "game": "imperial2030", "format": FORMAT, "config": s.game.config,
        "players": players, "nations": nations, "units": units,
        "investor_card": s.card if s.card >= 0 else None, "bank": s.bank,
        "turn": {"nation": NATIONS[s.nation] if s.nation >= 0 else None, "nation_turns": s.nation_turns,
                 "round": s.round, "setup_done": s.setup_done, "ended_by": NATIONS[s.end_nation] if s.end_nation >= 0 else None},
        "decision": decision,
    }


class _Reader:
    """Typed fields of a position document: every fault names its field (``where``)."""

    def __init__(self, board):
        self.board = board

    def region(self, name, where: str) -> int:
        if not isinstance(name, str) or name not in self.board.region_index:
            raise NotationError(f"position {where}: unknown region {clip(name)}")
        return self.board.region_index[name]

    def nation(self, code, where: str) -> int:
        if code not in NATIONS:
            raise NotationError(f"position {where}: unknown nation {clip(code)}")
        return NATIONS.index(code)

    def choice(self, value, options, where: str) -> int:
        if not isinstance(value, str) or value not in options:
            raise NotationError(f"position {where}: {clip(value)} is not one of {', '.join(map(str, options))}")
        return list(options).index(value)

    @staticmethod
    def integer(value, where: str, low: int, high: int) -> int:
        # bool is an int subclass, but `true` is never a count
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise NotationError(f"position {where}: must be a whole number {low}..{high:,}, got {clip(value)}")
        return value

    @staticmethod
    def items(value, where: str, most: int) -> list:
        if not isinstance(value, list) or len(value) > most:
            raise NotationError(f"position {where}: must be a list of at most {most} entries")
        return value

    @staticmethod
    def typed(value, kind: type, where: str):
        if not isinstance(value, kind):
            what = {bool: "true or false", dict: "an object"}[kind]
            raise NotationError(f"position {where}: must be {what}, got {clip(value)}")
        return value

    def flag(self, value, where: str) -> bool:
        return self.typed(value, bool, where)

    def obj(self, value, where: str) -> dict:
        return self.typed(value, dict, where)


def state_from_document(blank, doc: dict, check: bool = True):
    """Fill ``blank`` (a new State of the document's game, made by the game: so this module needs no
    State class and the state module can use this one) with the position; raises NotationError naming the field that is wrong or, with ``check``, the
    invariant (imperial_lab.core.games.imperial2030.invariants) that the position breaks."""
    try:
        state = _state_from_document(blank, doc)
    except NotationError:
        raise
    except (AttributeError, TypeError, ValueError, KeyError) as exc:
        raise NotationError(f"malformed position document: a field has the wrong type or is missing "
                            f"({type(exc).__name__}: {clip(str(exc))})") from None
    broken = check_invariants(state) if check else []
    if broken:
        more = f" (and {len(broken) - 1} more)" if len(broken) > 1 else ""
        raise NotationError(f"position breaks an invariant: {broken[0]}{more}")
    return state


def _state_from_document(s, doc: dict):
    game = s.game
    if not isinstance(doc, dict) or doc.get("game", "imperial2030") != "imperial2030":
        raise NotationError("position: not an Imperial 2030 position document")
    rd = _Reader(game.board)
    s.factory = [False] * len(game.board.region_ids)
    _read_players(s, rd, doc.get("players"))
    nations = rd.obj(doc.get("nations"), "nations")
    for code, nd in nations.items():
        _read_nation(s, rd, rd.nation(code, "nations"), rd.obj(nd, f"nations.{code}"))
    turn = rd.obj(doc.get("turn") or {}, "turn")
    s.nation = -1 if turn.get("nation") is None else rd.nation(turn["nation"], "turn.nation")
    for k, u in enumerate(rd.items(doc.get("units", []), "units", 6 * len(game.board.region_ids) * 3)):
        _read_units(s, rd, rd.obj(u, f"units[{k}]"), f"units[{k}]")
    in_play = (s.nplayers + 6) * MAX_MONEY
    s.bank = rd.integer(doc["bank"], "bank", -in_play, in_play) if "bank" in doc else -(sum(s.cash) + sum(s.treasury))
    started = 1 if s.nation >= 0 else 0
    s.nation_turns = rd.integer(turn.get("nation_turns", started), "turn.nation_turns", 0, MAX_NATION_TURNS)
    s.round = rd.integer(turn.get("round", started), "turn.round", 0, MAX_NATION_TURNS)
    s.setup_done = rd.flag(turn.get("setup_done", s.nation >= 0), "turn.setup_done")
    # A game under way always has an investor card holder: a hand-written position gets seat 0.
    card = doc.get("investor_card", 0 if s.setup_done else None)
    s.card = -1 if card is None else rd.integer(card, "investor_card", 0, s.nplayers - 1)
    if turn.get("ended_by") is not None:
        s.end_nation = rd.nation(turn["ended_by"], "turn.ended_by")
    _read_decision(s, rd.obj(doc.get("decision") or {}, "decision"), rd)
    return s


def _read_players(s, rd: _Reader, players) -> None:
    if not isinstance(players, list) or len(players) != s.nplayers:
        raise NotationError(f"position players: expected a list of {s.nplayers} players")
    for p, pl in enumerate(players):
        where = f"players[{p}]"
        rd.obj(pl, where)
        s.cash[p] = rd.integer(pl.get("cash", 0), where + ".cash", 0, MAX_MONEY)
        s.swiss[p] = rd.flag(pl.get("swiss_bank", False), where + ".swiss_bank")
        for k, bond in enumerate(rd.items(pl.get("bonds", []), where + ".bonds", 54)):
            try:
                n, number = parse_bond(bond, f"{where}.bonds[{k}]")
            except ValueError as exc:
                raise NotationError(f"position {exc}") from None
            if s.owner[n * 9 + number - 1] >= 0:
                raise NotationError(f"position {where}.bonds[{k}]: bond {clip(bond)} owned twice")
            s.owner[n * 9 + number - 1] = p


def _read_nation(s, rd: _Reader, n: int, nd: dict) -> None:
    b = s.board
    code = NATIONS[n]
    where = f"nations.{code}"
    s.treasury[n] = rd.integer(nd.get("treasury", 0), where + ".treasury", 0, MAX_MONEY)
    s.pp[n] = rd.integer(nd.get("power_points", 0), where + ".power_points", 0, MAX_PP)
    s.rondel[n] = -1 if nd.get("rondel") is None else rd.choice(nd["rondel"], SPACES, where + ".rondel")
    g = nd.get("government")
    s.gov[n] = -1 if g is None else rd.integer(g, where + ".government", 0, s.nplayers - 1)
    for name in rd.items(nd.get("factories", []), where + ".factories", len(b.homes[n])):
        r = rd.region(name, where + ".factories")
        if b.home_nation[r] != n:
            raise NotationError(f"position {where}.factories: {name} is not a home province of {code}")
        s.factory[r] = True
    for name in rd.items(nd.get("flags", []), where + ".flags", len(b.region_ids)):
        r = rd.region(name, where + ".flags")
        if b.home_nation[r] >= 0:
            raise NotationError(f"position {where}.flags: no flag may stand in the home province {name}")
        if s.flag[r] >= 0:
            raise NotationError(f"position {where}.flags: {name} already has the flag of {NATIONS[s.flag[r]]}")
        s.flag[r] = n
        s.flag_count[n] += 1


def _read_units(s, rd: _Reader, u: dict, where: str) -> None:
    b = s.board
    n = rd.nation(u.get("nation"), where + ".nation")
    r = rd.region(u.get("region"), where + ".region")
    kind = rd.choice(u.get("unit"), UNIT_NAMES, where + ".unit")
    most = s.game.unit_limits[n][0 if kind == ARMY_UNIT else 1]
    count = rd.integer(u.get("count", 1), where + ".count", 1, max(1, most))
    moved = rd.integer(u.get("moved", 0), where + ".moved", 0, count)
    convoyed = rd.integer(u.get("convoyed", 0), where + ".convoyed", 0, count)
    stance = rd.choice(u.get("stance") or "", STANCE_NAMES, where + ".stance")
    if kind == ARMY_UNIT and (stance != NO_STANCE) != s.foreign_home(n, r):
        raise NotationError(f"position {where}: an army has a stance exactly when it stands in another "
                            "nation's home province")
    if kind == ARMY_UNIT and b.kind[r] == 0:
        raise NotationError(f"position {where}: an army cannot stand at sea ({u['region']})")
    if kind == FLEET_UNIT and b.kind[r] != 0 and not (b.home_nation[r] == n and b.shipyard_sea[r] >= 0):
        raise NotationError(f"position {where}: a fleet on land must lie in a harbour of its own nation")
    s.add_units(n, kind, r, count, stance)
    if n != s.nation:
        return
    if moved and kind == FLEET_UNIT:
        s.moved_f[r] = s.moved_f.get(r, 0) + moved
    elif moved:
        s.moved_a[r] = s.moved_a.get(r, 0) + moved
        if stance == HOSTILE:
            s.moved_h[r] = s.moved_h.get(r, 0) + moved
    if kind == FLEET_UNIT and convoyed:
        s.convoyed[r] = convoyed


def _read_decision(s, d: dict, rd: _Reader) -> None:
    b = s.board
    kind = d.get("kind", "turn_start")
    s.variant_step = rd.integer(d.get("variant_step", 0), "decision.variant_step", 0, 6 * s.nplayers)
    if kind == "game_over":
        s.terminal = True
        s.pending = (P_TURN, -4)
        return
    k = rd.choice(kind, PENDING_NAMES, "decision.kind")
    player = d.get("player")
    if player is None:
        player = CHANCE if kind == "deal" else (s.gov[s.nation] if s.nation >= 0 else None)
    if player != CHANCE and not (isinstance(player, int) and not isinstance(player, bool)
                                 and 0 <= player < s.nplayers):
        raise NotationError(f"position decision.player: unknown player {clip(player)}")
    s.pending = (k, player)
    s.queue = tuple(rd.integer(x, "decision.queue", 0, max(6, s.nplayers) - 1)
                    for x in rd.items(d.get("queue", []), "decision.queue", max(6, s.nplayers)))
    s.dest = -1 if d.get("destination") is None else rd.choice(d["destination"], SPACES, "decision.destination")
    s.passing = rd.flag(d.get("passing_investor", False), "decision.passing_investor")
    s.topped = rd.flag(d.get("topped_up", False), "decision.topped_up")
    s.imports = tuple(_read_import(rd, entry) for entry in rd.items(d.get("imports", []), "decision.imports", 3))
    try:
        s.denied = frozenset(parse_action(b, _text(t, "decision.denied"))
                             for t in rd.items(d.get("denied", []), "decision.denied", 64))
        s.move = parse_action(b, _text(d["move"], "decision.move")) if d.get("move") else None
    except ValueError as exc:
        raise NotationError(f"position decision: {exc}") from None
    s.armies_phase = rd.flag(d.get("armies_phase", False), "decision.armies_phase")
    arr = d.get("arrival")
    if arr:
        rd.obj(arr, "decision.arrival")
        s.arrival = (rd.choice(arr.get("unit"), UNIT_NAMES, "decision.arrival.unit"),
                     rd.region(arr.get("region"), "decision.arrival.region"),
                     rd.choice(arr.get("stance") or "", STANCE_NAMES, "decision.arrival.stance"))
    s.flag_todo = tuple(_read_flags_to_place(rd, entry)
                        for entry in rd.items(d.get("flags_to_place", []), "decision.flags_to_place", 6))


def _read_import(rd: _Reader, entry) -> tuple[int, int]:
    if not isinstance(entry, list) or len(entry) != 2:
        raise NotationError(f"position decision.imports: an import is [unit, region], got {clip(entry)}")
    return rd.choice(entry[0], UNIT_NAMES, "decision.imports"), rd.region(entry[1], "decision.imports")


def _read_flags_to_place(rd: _Reader, entry) -> tuple[int, tuple[int, ...]]:
    if not isinstance(entry, list) or len(entry) != 2:
        raise NotationError(f"position decision.flags_to_place: an entry is [nation, [regions]], got {clip(entry)}")
    regions = rd.items(entry[1], "decision.flags_to_place", len(rd.board.region_ids))
    return rd.nation(entry[0], "decision.flags_to_place"), tuple(rd.region(r, "decision.flags_to_place")
                                                                   for r in regions)


def _text(value, where: str) -> str:
    if not isinstance(value, str):
        raise NotationError(f"position {where}: an action in text form, got {clip(value)}")
    return value
