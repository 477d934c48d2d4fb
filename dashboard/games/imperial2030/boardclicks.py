"""What a click on Imperial 2030's board or rondel means at a decision (the Play page and the lessons):
click a unit, then a region, to move it; click a region to build, import or place a flag there; click
a rondel space to go there. Plain functions over the legal actions' text forms (docs/formats.md,
"Action notation"), no Streamlit.

A click is the ``data-click`` value of what was clicked (imperial_lab.dashboard.games.imperial2030.boardview
``Marks``; rondelview): ``unit:REGION:NATION:UNIT:STANCE``, ``region:REGION`` or ``space:SPACE``. Its
``Answer`` says what to do: play the one legal action it chose, offer the few it fits (an army's
stance, a convoy's route), explain why the action it asks for is not allowed, or pick a unit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_MOVE = re.compile(r"^move (?:(hostile|friendly) )?(army|fleet) (\S+) -> (\S+)")
_PLACES = re.compile(r"^(?:build|flag|import (?:army|fleet)|destroy) (\S+)|^battle .* (\S+) vs ")


@dataclass(frozen=True)
class Answer:
    """What a click does: ``play`` the one legal action it chose; offer ``choices`` (the legal
    actions it fits, when several do); say ``why`` not (an action it asks for that is not legal);
    pick a unit (``picked``: its click value; None drops the pick); or just a ``note``."""

    play: str | None = None
    choices: tuple[str, ...] = ()
    why: str | None = None
    picked: str | None = None
    note: str | None = None


@dataclass(frozen=True)
class Move:
    text: str
    stance: str  # "" for a fleet or an army without a stance
    unit: str
    origin: str
    dest: str


def moves(legal: list[str]) -> list[Move]:
    """The unit moves among the legal actions (text forms)."""
    out = []
    for text in legal:
        m = _MOVE.match(text)
        if m:
            out.append(Move(text, m[1] or "", m[2], m[3], m[4]))
    return out


def place_of(text: str) -> str | None:
    """The region an action other than a move names: ``build berlin``, ``import army moscow``, ``flag
    peru``, ``destroy murmansk with 3 hostile``, ``battle fleet china_sea vs CN fleet``."""
    m = _PLACES.match(text)
    place = (m[1] or m[2]) if m else None
    return None if place == "none" else place  # "build none"


def _unit(picked: str) -> tuple[str, str, str, str]:
    """``unit:REGION:NATION:UNIT:STANCE`` -> (region, nation, unit, stance)."""
    _, region, nation, unit, stance = picked.split(":")
    return region, nation, unit, stance


def _from(legal: list[str], picked: str) -> list[Move]:
    region, _, unit, stance = _unit(picked)
    return [m for m in moves(legal) if (m.origin, m.unit, m.stance) == (region, unit, stance)]


def targets(legal: list[str], picked: str | None) -> tuple[frozenset, frozenset]:
    """(regions, rondel spaces) to ring: with a unit picked, where it may go; else where a unit may
    start a move and every region another action names; the spaces a rondel move may reach."""
    spaces = frozenset(text.split()[1] for text in legal if text.startswith("rondel "))
    if picked is not None:
        return frozenset(m.dest for m in _from(legal, picked)), spaces
    regions = {m.origin for m in moves(legal)} | {p for text in legal if (p := place_of(text))}
    return frozenset(regions), spaces


def click(value: str, legal: list[str], active: str | None, kind: str, picked: str | None = None) -> Answer:
    """What the click ``value`` does at a decision of kind ``kind`` (``maneuver``, ``factory``…) of
    nation ``active``, whose legal actions are ``legal``; ``picked``: the unit picked before."""
    what, _, rest = value.partition(":")
    if what == "space":
        text = f"rondel {rest}"
        return Answer(play=text) if text in legal else Answer(why=text)
    if what == "unit":
        region, nation, unit, stance = _unit(value)
        if nation == active and _from(legal, value) and value != picked:
            return Answer(picked=value)
        return click(f"region:{region}", legal, active, kind, picked)
    return _region(rest, legal, kind, picked)


def _region(region: str, legal: list[str], kind: str, picked: str | None) -> Answer:
    if picked is not None:
        origin, _, unit, stance = _unit(picked)
        fits = [m.text for m in _from(legal, picked) if m.dest == region]
        if len(fits) == 1:
            return Answer(play=fits[0])
        if fits:
            return Answer(choices=tuple(fits), picked=picked)
        if region == origin:
            return Answer(picked=None, note="The pick is dropped: click a unit to pick another.")
        mover = f"{stance} {unit}" if stance else unit
        return Answer(why=f"move {mover} {origin} -> {region}", picked=picked)
    here = [text for text in legal if place_of(text) == region]
    if len(here) == 1:
        return Answer(play=here[0])
    if here:
        return Answer(choices=tuple(here))
    starts = {(m.unit, m.stance) for m in moves(legal) if m.origin == region}
    if starts:
        return Answer(note="Click one of the units there to pick it, then where it goes.")
    tempting = {"factory": f"build {region}", "import": f"import army {region}", "flag": f"flag {region}"}
    if kind in tempting:
        return Answer(why=tempting[kind])
    return Answer(note="No choice of this decision is in that region.")
