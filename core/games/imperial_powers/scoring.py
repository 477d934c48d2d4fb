"""Imperial Powers' result (RULES.md §7, R19, R20): VP, then regions led on the final map.

``standings`` gives each seat's (VP, regions led), the key the winner is chosen by; during play it
is the position as it stands (the VP so far and the Leaders now), so the same functions serve the
provisional result.
"""

from __future__ import annotations

from imperial_lab.core.games.imperial_powers.rules import REGIONS, leader, vp_totals


def standings(st) -> list[tuple[int, int]]:
    """(VP, regions led) per seat (R20: the Leader is the unique top, R14)."""
    led = [0] * st.n
    for x in range(REGIONS):
        lead = leader(st, x)
        if lead >= 0:
            led[lead] += 1
    return list(zip(vp_totals(st), led))


def winners(st) -> list[int]:
    """Most VP; among those, most regions led; still tied: all of them share the win (§7)."""
    keys = standings(st)
    best = max(keys)
    return [p for p, key in enumerate(keys) if key == best]

