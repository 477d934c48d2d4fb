"""Position documents: any state of Imperial 2030 as JSON, and back (documented in README).

Only ``config``, ``players`` and ``nations`` are required when a teacher or a test writes a
position by hand; everything else has a default (no units, no flags, the decision at the start
of ``turn.nation``'s turn). Ids are the RULES.md ones: nation codes, region ids, rondel spaces.
"""

from __future__ import annotations

from core.errors import NotationError
from core.imperial2030.actions import (ARMY_UNIT, FLEET_UNIT, FRIENDLY, HOSTILE, NO_STANCE, STANCE_NAMES, UNIT_NAMES,
                                       action_text, parse_action)
from core.imperial2030.board import NATIONS, SPACES
from core.imperial2030.pending import CHANCE, P_TURN, PENDING_NAMES

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
    def __init__(self, board):
        self.board = board

    def region(self, name, where: str) -> int:
        if name not in self.board.region_index:
            raise NotationError(f"position {where}: unknown region {name!r}")
        return self.board.region_index[name]

    def nation(self, code, where: str) -> int:
        if code not in NATIONS:
            raise NotationError(f"position {where}: unknown nation {code!r}")
        return NATIONS.index(code)

    def choice(self, value, options, where: str) -> int:
        if value not in options:
            raise NotationError(f"position {where}: {value!r} is not one of {', '.join(map(str, options))}")
        return list(options).index(value)


def state_from_document(game, doc: dict):
    """Rebuild a state; raises NotationError naming the field that is wrong."""
    try:
        return _state_from_document(game, doc)
    except NotationError:
        raise
    except (AttributeError, TypeError, ValueError, KeyError) as exc:
        raise NotationError(f"malformed position document: a field has the wrong type or is missing "
                            f"({type(exc).__name__}: {exc})") from None


def _state_from_document(game, doc: dict):
    from core.imperial2030.game import _bond
    from core.imperial2030.state import State

    if not isinstance(doc, dict) or doc.get("game", "imperial2030") != "imperial2030":
        raise NotationError("position: not an Imperial 2030 position document")
    b = game.board
    R = len(b.region_ids)
    rd = _Reader(b)
    s = State(game, game.num_players)
    s.factory = [False] * R
    players = doc.get("players")
    if not isinstance(players, list) or len(players) != game.num_players:
        raise NotationError(f"position players: expected a list of {game.num_players} players")
    for p, pl in enumerate(players):
        s.cash[p] = int(pl.get("cash", 0))
        s.swiss[p] = bool(pl.get("swiss_bank", False))
        for k, bond in enumerate(pl.get("bonds", [])):
            try:
                n, number = _bond(bond, f"players[{p}].bonds[{k}]")
            except ValueError as exc:
                raise NotationError(f"position {exc}") from None
            if s.owner[n * 9 + number - 1] >= 0:
                raise NotationError(f"position players[{p}].bonds[{k}]: bond {bond!r} owned twice")
            s.owner[n * 9 + number - 1] = p
    nations = doc.get("nations")
    if not isinstance(nations, dict):
        raise NotationError("position nations: expected an object keyed by nation code")
    for code, nd in nations.items():
        n = rd.nation(code, "nations")
        where = f"nations.{code}"
        s.treasury[n] = int(nd.get("treasury", 0))
        s.pp[n] = int(nd.get("power_points", 0))
        s.rondel[n] = -1 if nd.get("rondel") is None else rd.choice(nd["rondel"], SPACES, where + ".rondel")
        g = nd.get("government")
        if g is not None and not (isinstance(g, int) and 0 <= g < game.num_players):
            raise NotationError(f"position {where}.government: unknown player {g!r}")
        s.gov[n] = -1 if g is None else g
        for name in nd.get("factories", []):
            r = rd.region(name, where + ".factories")
            if b.home_nation[r] != n:
                raise NotationError(f"position {where}.factories: {name} is not a home province of {code}")
            s.factory[r] = True
        for name in nd.get("flags", []):
            r = rd.region(name, where + ".flags")
            if b.home_nation[r] >= 0:
                raise NotationError(f"position {where}.flags: no flag may stand in the home province {name}")
            s.flag[r] = n
            s.flag_count[n] += 1
    turn = doc.get("turn") or {}
    s.nation = -1 if turn.get("nation") is None else rd.nation(turn["nation"], "turn.nation")
    for k, u in enumerate(doc.get("units", [])):
        where = f"units[{k}]"
        n = rd.nation(u.get("nation"), where + ".nation")
        r = rd.region(u.get("region"), where + ".region")
        kind = rd.choice(u.get("unit"), UNIT_NAMES, where + ".unit")
        count, moved = int(u.get("count", 1)), int(u.get("moved", 0))
        stance = rd.choice(u.get("stance") or "", STANCE_NAMES, where + ".stance")
        if count < 1 or not 0 <= moved <= count:
            raise NotationError(f"position {where}: count must be >= 1 and 0 <= moved <= count")
        if kind == ARMY_UNIT and (stance != NO_STANCE) != s.foreign_home(n, r):
            raise NotationError(f"position {where}: an army has a stance exactly when it stands in another "
                                "nation's home province")
        if kind == ARMY_UNIT and b.kind[r] == 0:
            raise NotationError(f"position {where}: an army cannot stand at sea ({u['region']})")
        if kind == FLEET_UNIT and b.kind[r] != 0 and not (b.home_nation[r] == n and b.shipyard_sea[r] >= 0):
            raise NotationError(f"position {where}: a fleet on land must lie in a harbour of its own nation")
        s.add_units(n, kind, r, count, stance)
        if moved and n == s.nation:
            if kind == FLEET_UNIT:
                s.moved_f[r] = s.moved_f.get(r, 0) + moved
            else:
                s.moved_a[r] = s.moved_a.get(r, 0) + moved
                if stance == HOSTILE:
                    s.moved_h[r] = s.moved_h.get(r, 0) + moved
        if kind == FLEET_UNIT and u.get("convoyed") and n == s.nation:
            s.convoyed[r] = int(u["convoyed"])
    s.card = -1 if doc.get("investor_card") is None else int(doc["investor_card"])
    s.bank = int(doc["bank"]) if "bank" in doc else -(sum(s.cash) + sum(s.treasury))
    s.nation_turns = int(turn.get("nation_turns", 1 if s.nation >= 0 else 0))
    s.round = int(turn.get("round", 1 if s.nation >= 0 else 0))
    s.setup_done = bool(turn.get("setup_done", s.nation >= 0))
    if turn.get("ended_by") is not None:
        s.end_nation = rd.nation(turn["ended_by"], "turn.ended_by")
    _read_decision(s, doc.get("decision") or {}, rd)
    return s


def _read_decision(s, d: dict, rd: _Reader) -> None:
    b = s.board
    kind = d.get("kind", "turn_start")
    s.variant_step = int(d.get("variant_step", 0))
    if kind == "game_over":
        s.terminal = True
        s.pending = (P_TURN, -4)
        return
    k = rd.choice(kind, PENDING_NAMES, "decision.kind")
    player = d.get("player")
    if player is None:
        player = CHANCE if kind == "deal" else (s.gov[s.nation] if s.nation >= 0 else None)
    if player is None or not (player == CHANCE or 0 <= player < s.nplayers):
        raise NotationError(f"position decision.player: unknown player {player!r}")
    s.pending = (k, player)
    s.queue = tuple(int(x) for x in d.get("queue", []))
    s.dest = -1 if d.get("destination") is None else rd.choice(d["destination"], SPACES, "decision.destination")
    s.passing = bool(d.get("passing_investor", False))
    s.topped = bool(d.get("topped_up", False))
    s.imports = tuple((rd.choice(u, UNIT_NAMES, "decision.imports"), rd.region(r, "decision.imports"))
                      for u, r in d.get("imports", []))
    try:
        s.denied = frozenset(parse_action(b, t) for t in d.get("denied", []))
        s.move = parse_action(b, d["move"]) if d.get("move") else None
    except ValueError as exc:
        raise NotationError(f"position decision: {exc}") from None
    s.armies_phase = bool(d.get("armies_phase", False))
    arr = d.get("arrival")
    if arr:
        s.arrival = (rd.choice(arr["unit"], UNIT_NAMES, "decision.arrival.unit"),
                     rd.region(arr["region"], "decision.arrival.region"),
                     rd.choice(arr.get("stance") or "", STANCE_NAMES, "decision.arrival.stance"))
    s.flag_todo = tuple((rd.nation(m, "decision.flags_to_place"),
                         tuple(rd.region(r, "decision.flags_to_place") for r in regs))
                        for m, regs in d.get("flags_to_place", []))
