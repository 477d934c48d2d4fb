"""Invariants of an Imperial 2030 state: every broken one as a message (python-chess ``status()`` style).

``check_invariants(state)`` builds nothing and changes nothing; it returns an empty list for a sound
state. It checks one state on its own. Facts about a *transition* (payments add up to the change of
money, governments change only at an Investor turn, the game ends the moment a nation reaches
25 PP) need two states and are checked by ``tests/test_properties.py``.

When each check applies:

* Money, bonds, units, flags, factories and power points: always.
* Swiss banks (§9 step 5) and governments (§9 step 4) are set at the end of setup and at the end
  of every Investor turn, and the engine does steps 4 and 5 inside the same action. Before setup
  ends (the deal, the variant picks) neither is checked.
* "Every player governing nothing has a Swiss bank, and nobody else": after setup, at every
  state. Governments only change in step 4, immediately followed by step 5, so the Swiss banks
  always describe the governments as they stand, also halfway through an Investor turn.
* "The government holds the highest credit sum (and a nation has one iff a bond is sold)": after
  setup, except while bond transactions are still pending (decision ``invest``): bonds bought in
  steps 2-3 count only at the government check of step 4 (§9: "never in between"). Bonds change
  at no other time, so the check holds at every other state. Halfway through an Investor turn
  the weaker fact still holds: a government owns at least one bond of its nation.
"""

from __future__ import annotations

from imperial_lab.core.games.imperial2030.data import HOME, NATIONS, SEA, SHIPYARD
from imperial_lab.core.interface import seat_name
from imperial_lab.core.games.imperial2030.actions import FLEET_UNIT, HOSTILE
from imperial_lab.core.games.imperial2030.pending import (P_CANAL, P_DEAL, P_DEMAND, P_FACTORY, P_FIGHT, P_FLAG, P_IMPORT,
                                       P_INVEST, P_MANEUVER, P_PRODUCE, P_TURN, P_VARIANT, PENDING_NAMES)

MAX_PP = 25


def check_invariants(state) -> list[str]:
    """Every violated invariant of ``state`` as a readable message; ``[]`` when all hold."""
    out: list[str] = []
    _money(state, out)
    _bonds(state, out)
    _units(state, out)
    _flags(state, out)
    _factories(state, out)
    _power_and_end(state, out)
    _pending(state, out)
    if state.setup_done and state.pending[0] not in (P_DEAL, P_VARIANT):
        _swiss_banks(state, out)
        _governments(state, out)
        _decider(state, out)
    return out


def _money(s, out: list[str]) -> None:
    """§1: players, treasuries and the bank's balance add up to zero; nobody is in debt."""
    total = sum(s.cash) + sum(s.treasury) + s.bank
    if total != 0:
        out.append(f"money not conserved: cash {sum(s.cash)} + treasuries {sum(s.treasury)} + bank {s.bank} = {total}")
    for p, c in enumerate(s.cash):
        if c < 0:
            out.append(f"{seat_name(p)} has negative cash {c}")
    for n, t in enumerate(s.treasury):
        if t < 0:
            out.append(f"{NATIONS[n]} treasury is negative: {t}")


def _bonds(s, out: list[str]) -> None:
    """§1: 54 bonds, each available (-1) or owned by one seat (one owner per bond by construction)."""
    if len(s.owner) != 54:
        out.append(f"{len(s.owner)} bond entries instead of 54")
    for k, p in enumerate(s.owner):
        if not -1 <= p < s.nplayers:
            out.append(f"bond {NATIONS[k // 9]} {k % 9 + 1} has an unknown owner {p}")


def _units(s, out: list[str]) -> None:
    """Unit totals, hostile armies, where units may stand (§7.4.1, §7.4.5) and unit limits (§1)."""
    b = s.board
    R = len(b.region_ids)
    names = b.region_ids
    occ = [0] * R
    for n in range(6):
        code = NATIONS[n]
        arm, hos, flt = s.armies[n * R:(n + 1) * R], s.hostile[n * R:(n + 1) * R], s.fleets[n * R:(n + 1) * R]
        armies, fleets = sum(arm), sum(flt)
        # fast path: only regions where this nation has a unit (or a bad negative count) are looked at
        for r in [r for r in range(R) if arm[r] or hos[r] or flt[r]]:
            a, h, f = arm[r], hos[r], flt[r]
            occ[r] += h
            if a < 0 or h < 0 or f < 0:
                out.append(f"{code} has a negative unit count in {names[r]}: armies {a}, hostile {h}, fleets {f}")
            if h > a:
                out.append(f"{code} has {h} hostile armies but only {a} armies in {names[r]}")
            if h and not (b.kind[r] == HOME and b.home_nation[r] != n):
                out.append(f"{code} has hostile armies in {names[r]}, which is not another nation's home province")
            if a and b.kind[r] == SEA:
                out.append(f"{code} has {a} armies at sea in {names[r]}")
            if f and b.kind[r] != SEA and not (b.home_nation[r] == n and b.factory_slot[r] == SHIPYARD):
                out.append(f"{code} has {f} fleets on land in {names[r]}, which is not one of its own harbours")
        if armies != s.n_armies[n]:
            out.append(f"{code} army total {s.n_armies[n]} differs from the {armies} armies on the board")
        if fleets != s.n_fleets[n]:
            out.append(f"{code} fleet total {s.n_fleets[n]} differs from the {fleets} fleets on the board")
        lim_a, lim_f = s.game.unit_limits[n]
        if armies > lim_a:
            out.append(f"{code} has {armies} armies, more than its limit of {lim_a}")
        if fleets > lim_f:
            out.append(f"{code} has {fleets} fleets, more than its limit of {lim_f}")
    if occ != s.occ:
        for r in range(R):
            if occ[r] != s.occ[r]:
                out.append(f"occupation count of {names[r]} is {s.occ[r]}, but {occ[r]} hostile armies stand there")
    _masks(s, out)
    _moved(s, out)


def _masks(s, out: list[str]) -> None:
    """The region masks the rules read instead of scanning the map agree with the unit counts."""
    R = s.board.nregions
    bits = lambda counts: sum(1 << r for r, k in enumerate(counts) if k)  # noqa: E731
    for n in range(6):
        for what, mask, counts in (("army", s.army_at[n], s.armies[n * R:(n + 1) * R]),
                                   ("fleet", s.fleet_at[n], s.fleets[n * R:(n + 1) * R])):
            if mask != bits(counts):
                out.append(f"{NATIONS[n]} {what} mask disagrees with its units on the board")
    if s.occ_mask != bits(s.occ):
        out.append("the mask of occupied regions disagrees with the hostile armies on the board")
    present = [sum(1 for n in range(6) if (s.army_at[n] | s.fleet_at[n]) >> r & 1) for r in range(R)]
    if present != s.nations_in:
        out.append("the count of nations per region disagrees with the units on the board")


def _moved(s, out: list[str]) -> None:
    """The active nation's per-turn records never count more units than stand there."""
    if s.nation < 0:
        return
    b = s.board
    R = len(b.region_ids)
    i0 = s.nation * R
    for name, record, limit in (("moved fleets", s.moved_f, s.fleets), ("convoying fleets", s.convoyed, s.fleets),
                                ("moved armies", s.moved_a, s.armies), ("moved hostile armies", s.moved_h, s.hostile)):
        for r, k in record.items():
            if not 0 <= k <= limit[i0 + r]:
                out.append(f"{k} {name} of {NATIONS[s.nation]} recorded in {b.region_ids[r]}, "
                           f"where {limit[i0 + r]} stand")


def _flags(s, out: list[str]) -> None:
    """§1 and §7.4.8: at most 15 flags a nation, only in neutral regions, totals kept up to date."""
    b = s.board
    counts = [0] * 6
    for r, m in enumerate(s.flag):
        if m == -1:
            continue
        if not 0 <= m < 6:
            out.append(f"unknown flag owner {m} in {b.region_ids[r]}")
            continue
        counts[m] += 1
        if b.kind[r] == HOME:
            out.append(f"{NATIONS[m]} flag in the home province {b.region_ids[r]}")
    for n in range(6):
        if counts[n] != s.flag_count[n]:
            out.append(f"{NATIONS[n]} flag total {s.flag_count[n]} differs from the {counts[n]} flags on the board")
        if counts[n] > b.flags_per_nation:
            out.append(f"{NATIONS[n]} has {counts[n]} flags on the board, more than {b.flags_per_nation}")


def _factories(s, out: list[str]) -> None:
    """§7.1: factories stand only in home provinces (each city's slot fixes the factory type)."""
    b = s.board
    for r, built in enumerate(s.factory):
        if built and b.kind[r] != HOME:
            out.append(f"factory in {b.region_ids[r]}, which is not a home province")


def _power_and_end(s, out: list[str]) -> None:
    """§7.6 and §10: PP 0..25; the game is over exactly when one nation has reached 25."""
    at_max = [n for n in range(6) if s.pp[n] >= MAX_PP]
    for n in range(6):
        if not 0 <= s.pp[n] <= MAX_PP:
            out.append(f"{NATIONS[n]} has {s.pp[n]} power points, outside 0..{MAX_PP}")
        if not -1 <= s.rondel[n] < 8:
            out.append(f"{NATIONS[n]} rondel position {s.rondel[n]} is not a space")
    if s.terminal and not at_max:
        out.append("the game is over but no nation has 25 power points")
    if not s.terminal and at_max:
        out.append(f"{', '.join(NATIONS[n] for n in at_max)} reached 25 power points but the game goes on")
    if len(at_max) > 1:
        out.append(f"several nations have 25 power points ({', '.join(NATIONS[n] for n in at_max)}): "
                   "the game should have ended at the first")
    if s.terminal and at_max and at_max != [s.end_nation]:
        ended = NATIONS[s.end_nation] if s.end_nation >= 0 else "none"
        out.append(f"the game was ended by {ended}, but {NATIONS[at_max[0]]} has 25 power points")
    if not s.terminal and s.end_nation != -1:
        out.append(f"the game is not over but records {NATIONS[s.end_nation]} as having ended it")


def _pending(s, out: list[str]) -> None:
    """§7.4.3-§7.4.8: a decision about a unit that has just moved has that unit (a fleet or an army of
    the active nation that moved there this turn), a demand has nations to ask, a canal a move, the
    flags a nation to place them."""
    kind = s.pending[0]
    if s.terminal:
        return
    setup = kind in (P_DEAL, P_VARIANT)
    if setup == s.setup_done or (not setup and not 0 <= s.nation < 6):
        out.append(f"a {PENDING_NAMES[kind]} decision {'after' if s.setup_done else 'before'} the setup is done, "
                   f"or without an active nation (§4, §5)")
    if kind in (P_FIGHT, P_DEMAND):
        unit, r, stance = s.arrival if s.arrival is not None else (None, -1, 0)
        moved = (s.moved_f if unit == FLEET_UNIT else s.moved_h if stance == HOSTILE else s.moved_a).get(r, 0)
        if s.arrival is None or moved < 1:
            out.append(f"a {PENDING_NAMES[kind]} decision without a unit of the active nation that has just moved "
                       f"there (§7.4.4)")
    if kind == P_DEMAND and not s.queue:
        out.append("a demand decision without a nation to ask (§7.4.4)")
    if kind == P_CANAL and s.move is None:
        out.append("a canal decision without a move through the canal (§7.4.3)")
    if kind == P_FLAG and not s.flag_todo:
        out.append("a flag decision without flags to place (§7.4.8)")


# Decisions of the active nation's own turn, which its government makes (§5-§7).
GOVERNMENT_DECISIONS = (P_TURN, P_FACTORY, P_PRODUCE, P_IMPORT, P_MANEUVER)


def _decider(s, out: list[str]) -> None:
    """§5: the active nation's government decides its turn; a nation without one has no turn."""
    kind, player = s.pending
    if s.terminal or kind not in GOVERNMENT_DECISIONS:
        return
    if not 0 <= s.nation < 6 or s.gov[s.nation] < 0:
        out.append(f"a {PENDING_NAMES[kind]} decision, but no governed nation is active")
    elif player != s.gov[s.nation]:
        out.append(f"the {PENDING_NAMES[kind]} decision of {NATIONS[s.nation]} is made by its government "
                   f"{seat_name(s.gov[s.nation])}, not seat {player}")


def _swiss_banks(s, out: list[str]) -> None:
    """§9 step 5: a Swiss bank exactly for the players who govern no nation."""
    for p in range(s.nplayers):
        governs = p in s.gov
        if s.swiss[p] == governs:
            out.append(f"{seat_name(p)} {'governs' if governs else 'governs nothing'} but "
                       f"{'has' if s.swiss[p] else 'has no'} Swiss bank")


def _governments(s, out: list[str]) -> None:
    """§9 step 4: each government holds the highest credit sum; a nation is governed iff a bond is sold."""
    if not 0 <= s.card < s.nplayers:
        out.append(f"the investor card is held by unknown seat {s.card}")
    settled = s.pending[0] != P_INVEST or s.terminal
    credit = [[0] * s.nplayers for _ in range(6)]  # credit sums, in one pass over the bonds
    for k, p in enumerate(s.owner):
        if 0 <= p < s.nplayers:
            credit[k // 9][p] += s.board.bond_cost[k % 9]
    for n in range(6):
        g = s.gov[n]
        code = NATIONS[n]
        if not -1 <= g < s.nplayers:
            out.append(f"{code} has an unknown government {g}")
            continue
        sums = credit[n]
        if g >= 0 and sums[g] == 0:
            out.append(f"{code} is governed by {seat_name(g)}, who owns none of its bonds")
        if not settled:
            continue
        top = max(sums)
        if g < 0 and top > 0:
            out.append(f"{code} has no government although bonds worth {top} are sold")
        elif g >= 0 and sums[g] < top:
            out.append(f"{code} government {seat_name(g)} has credit sum {sums[g]}, below the highest ({top})")
