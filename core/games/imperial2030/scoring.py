"""Scoring and the winner (§10)."""

from __future__ import annotations


def scores(state) -> list[int]:
    """Σ interest × power factor of the bond's nation, plus cash, for each player."""
    out = list(state.cash)
    for k, p in enumerate(state.owner):
        if p >= 0:
            out[p] += (k % 9 + 1) * state.pf(k // 9)
    return out


def winners(state) -> list[int]:
    """Highest score; ties go to the higher credit sum in the nation with most power points, then
    the next, equal power points taken in turn order; still tied after all six: a shared win."""
    s = scores(state)
    best = max(s)
    tied = [p for p in range(state.nplayers) if s[p] == best]
    for n in sorted(range(6), key=lambda n: (-state.pp[n], n)):
        if len(tied) == 1:
            break
        credits = {p: state.credit(p, n) for p in tied}
        top = max(credits.values())
        tied = [p for p in tied if credits[p] == top]
    return tied
