"""Imperia's board as SVG: the 8×8 grid of terrain with each space's value, the covered spaces, the
royal castle, the fortresses, every stack with its top tile (the owner's colour, the unit's type and
rank, its facing as an arrow) and its height, and each player's front cube (RULES.md §1, §2, §6.1).

``board_svg(position)`` is a pure function of a position document or an observation
(core/games/imperia/position.py): the explorer, the Play page and tests call it. Hovering a space
shows its stack from bottom to top (a ``<title>``); ``no_peeking=True`` draws only what a player at
the table sees, the top tiles and the heights (the rules forbid looking into stacks, §7.2, G13).
``highlight`` rings the spaces a step changed. ``show_board`` puts it on the page with st.markdown:
st.html's sanitiser would drop the SVG.
"""

from __future__ import annotations

import html

from imperial_lab.core.games.imperia.board import CASTLE, DIRECTIONS, VECTORS
from imperial_lab.core.games.imperia.data import data
from imperial_lab.core.games.imperia.words import hand_words, tile_words, who
from imperial_lab.core.words import count

CELL = 56  # px per space
MARGIN = 18  # room for the row and column numbers
SIZE = 8 * CELL + 2 * MARGIN

TERRAIN = {  # letter -> (name, fill)
    "F": ("field", "#d9ebb0"),
    "M": ("mountain", "#c4b49c"),
    "V": ("village", "#f0cf8a"),
    "C": ("royal castle", "#a9adb8"),
    ".": ("no board yet", "#f4f4f4"),
}
COVERED_FILL = "#5b5b5b"
COLOURS = {"red": "#d62728", "lemon_yellow": "#e6d11e", "burgundy": "#7b1e3a", "orange": "#f28c28"}
INK = {"red": "#fff", "lemon_yellow": "#222", "burgundy": "#fff", "orange": "#222"}  # text on a tile
KINDS = {"W": ("warlord", "W", 4), "G": ("general", "G", 3), "C": ("cavalry", "C", 2), "I": ("infantry", "I", 1)}
HIGHLIGHT = "#1f77b4"
TARGET, PREVIEW = "#1a9850", "#111111"  # a legal space of the choice, and the choice's own space

LEGEND = ("Terrain: field 1, mountain 2, village 3, castle 5 points (§2.1, §2.3); dark grey: covered (§2.4). "
          "A tile: its owner's colour, W warlord, G general, C cavalry, I infantry, stars its rank, the "
          "arrow its facing (§1); a number in the corner: the stack's height. A castle outline: a fortress "
          "(§3.3). A small cube: that player's front (§6.1). Hover a space for its stack, bottom to top.")


def space_value(letter: str) -> int | None:
    if letter == "C":
        return data().castle_points
    return data().terrain_points.get(letter)


def _covered(position: dict) -> set[tuple[int, int]]:
    """The covered spaces of the position's player count (§2.4)."""
    players = position["config"]["players"]
    mask = data().setups[players].covered
    return {(s >> 3, s & 7) for s in range(64) if (mask >> s) & 1}


def _xy(r: int, c: int) -> tuple[int, int]:
    return MARGIN + c * CELL, MARGIN + r * CELL


def board_svg(position: dict, no_peeking: bool = False, highlight=(), targets: dict | None = None,
              preview: tuple[int, int] | None = None) -> str:
    """The board of ``position`` (a position document or an observation) as one ``<svg>`` element.
    ``highlight``: (row, col) spaces to ring (what the step changed); ``targets``: the legal spaces of
    a choice, (row, col) -> the facings allowed there (drawn as green ticks at the space's sides);
    ``preview``: the space of the chosen action, outlined (the position shown is the one after it)."""
    covered = _covered(position)
    colours = [p["colour"] for p in position["players"]]
    stacks = {tuple(s["space"]): s for s in position["stacks"]}
    fortresses = {tuple(f): seat for seat, f in enumerate(position["fortresses"]) if f is not None}
    cubes: dict[tuple, list[int]] = {}
    for p in position["players"]:
        if p["cube"] is not None:
            cubes.setdefault(tuple(p["cube"]), []).append(p["seat"])
    out = [f'<svg class="imperia-board" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {SIZE} {SIZE}" '
           f'width="100%" style="max-width:{SIZE + 80}px" font-family="sans-serif" role="img" '
           f'data-peeking="{"no" if no_peeking else "yes"}">']
    out.append(_numbers())
    for r in range(8):
        row = position["terrain"][r]
        for c in range(8):
            out.append(_space(r, c, row[c], (r, c) in covered, stacks.get((r, c)), fortresses.get((r, c)),
                              colours, no_peeking))
    out.append(_castle())
    for (r, c), seats in cubes.items():
        for k, seat in enumerate(seats):
            out.append(_cube(r, c, k, seat, colours[seat]))
    for r, c in highlight:
        x, y = _xy(r, c)
        out.append(f'<rect class="changed" x="{x + 1.5}" y="{y + 1.5}" width="{CELL - 3}" height="{CELL - 3}" '
                   f'fill="none" stroke="{HIGHLIGHT}" stroke-width="3" rx="4"/>')
    for (r, c), facings in (targets or {}).items():
        out.append(_target(r, c, facings))
    if preview is not None:
        x, y = _xy(*preview)
        out.append(f'<rect class="preview" x="{x + 1}" y="{y + 1}" width="{CELL - 2}" height="{CELL - 2}" fill="none" '
                   f'stroke="{PREVIEW}" stroke-width="3" stroke-dasharray="7 3" rx="3"><title>your choice</title></rect>')
    out.append("</svg>")
    return "".join(out)


def _target(r: int, c: int, facings) -> str:
    """A legal space of the choice: a green frame, and a tick at each side or corner the tile may face."""
    x, y = _xy(r, c)
    parts = [f'<rect class="target" data-space="{r},{c}" x="{x + 3}" y="{y + 3}" width="{CELL - 6}" '
             f'height="{CELL - 6}" fill="{TARGET}" fill-opacity="0.12" stroke="{TARGET}" stroke-width="2" rx="4" '
             f'pointer-events="none"/>']
    cx, cy = x + CELL / 2, y + CELL / 2
    for name in facings:
        dr, dc = VECTORS[DIRECTIONS.index(name)]
        tx, ty = cx + dc * (CELL / 2 - 5), cy + dr * (CELL / 2 - 5)
        parts.append(f'<circle class="facing-target" data-facing="{name}" cx="{tx:.1f}" cy="{ty:.1f}" r="3.2" '
                     f'fill="{TARGET}" pointer-events="none"/>')
    return "".join(parts)


def _numbers() -> str:
    """Row numbers on the left, column numbers on top (spaces are written ``row,col``, §0.2)."""
    parts = []
    for k in range(8):
        centre = MARGIN + k * CELL + CELL / 2
        parts.append(f'<text x="{centre}" y="{MARGIN - 5}" font-size="11" text-anchor="middle" fill="#666">{k}</text>')
        parts.append(f'<text x="{MARGIN / 2}" y="{centre + 4}" font-size="11" text-anchor="middle" fill="#666">{k}</text>')
    return "".join(parts)


def _space(r: int, c: int, letter: str, covered: bool, stack: dict | None, fortress: int | None,
           colours: list, no_peeking: bool) -> str:
    x, y = _xy(r, c)
    name, fill = TERRAIN.get(letter, TERRAIN["."])
    value = space_value(letter)
    lines = [f"{r},{c} · {name}" + (f" ({value})" if value is not None else "")]
    if covered:
        fill, lines[0] = COVERED_FILL, f"{r},{c} · covered (§2.4)"
    parts = [f'<g class="space" data-space="{r},{c}" data-terrain="{"#" if covered else letter}">',
             f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" stroke="#fff" stroke-width="1"/>']
    if value is not None and not covered:
        parts.append(f'<text x="{x + 4}" y="{y + 11}" font-size="9" fill="#555">{value}</text>')
    if fortress is not None:
        lines.append(f"fortress of {colours[fortress].replace('_', ' ')} (§3.3)")
        parts.append(_fortress(x, y, colours[fortress]))
    if stack is not None:
        tiles, facings = stack["tiles"], stack["facings"]
        if no_peeking:
            lines.append(f"stack of {len(tiles)}; on top: {tile_words(tiles[-1], facings[-1])}")
        else:
            lines.append(f"stack of {len(tiles)}, bottom to top:")
            lines += [f"  {k + 1}. {tile_words(t, f)}" for k, (t, f) in enumerate(zip(tiles, facings))]
        parts.append(_tile(x, y, tiles[-1], facings[-1], len(tiles)))
    parts.insert(1, f"<title>{html.escape(chr(10).join(lines))}</title>")
    parts.append("</g>")
    return "".join(parts)


def _fortress(x: float, y: float, colour: str) -> str:
    """A crenellated wall in the owner's colour."""
    left, right, top, bottom = x + 10, x + CELL - 10, y + 16, y + CELL - 10
    w = (right - left) / 5
    d = (f"M{left},{bottom}V{top}h{w}v6h{w}v-6h{w}v6h{w}v-6h{w}V{bottom}Z")
    return (f'<path class="fortress" data-colour="{colour}" d="{d}" fill="{COLOURS[colour]}" stroke="#222" '
            f'stroke-width="1.5"/>')


def _tile(x: float, y: float, tile: str, facing: str | None, height: int) -> str:
    colour, tid = tile.split(":")
    kind, letter, rank = KINDS[tid[0]]
    inset = 7
    fill, ink = COLOURS[colour], INK[colour]
    cx, cy = x + CELL / 2, y + CELL / 2
    parts = [f'<g class="tile" data-tile="{tile}" data-kind="{kind}" data-facing="{facing or ""}" '
             f'data-height="{height}">',
             f'<rect x="{x + inset}" y="{y + inset}" width="{CELL - 2 * inset}" height="{CELL - 2 * inset}" '
             f'rx="5" fill="{fill}" stroke="#222" stroke-width="{2.5 if kind == "warlord" else 1}"/>',
             f'<text x="{cx}" y="{cy + 3}" font-size="15" font-weight="bold" text-anchor="middle" fill="{ink}">'
             f'{letter}</text>',
             f'<text x="{cx}" y="{cy + 14}" font-size="7" text-anchor="middle" fill="{ink}">{"★" * rank}</text>']
    if facing and kind != "warlord":
        parts.append(_arrow(cx, cy, facing, ink))
    if height > 1:
        parts.append(f'<circle cx="{x + CELL - 9}" cy="{y + 9}" r="7" fill="#fff" stroke="#222" stroke-width="1"/>'
                     f'<text class="height" x="{x + CELL - 9}" y="{y + 12.5}" font-size="9.5" text-anchor="middle" '
                     f'fill="#222">{height}</text>')
    parts.append("</g>")
    return "".join(parts)


def _arrow(cx: float, cy: float, facing: str, ink: str) -> str:
    """A triangle near the tile's edge, pointing the way the tile faces."""
    dr, dc = VECTORS[DIRECTIONS.index(facing)]
    length = (dr * dr + dc * dc) ** 0.5
    ux, uy = dc / length, dr / length
    reach = 15 if length == 1 else 17
    tip_x, tip_y = cx + ux * (reach + 5), cy + uy * (reach + 5)
    base_x, base_y = cx + ux * reach, cy + uy * reach
    px, py = -uy * 5, ux * 5
    return (f'<polygon class="facing" data-facing="{facing}" points="{tip_x:.1f},{tip_y:.1f} '
            f'{base_x + px:.1f},{base_y + py:.1f} {base_x - px:.1f},{base_y - py:.1f}" fill="{ink}" '
            f'stroke="#222" stroke-width="0.6"/>')


def _castle() -> str:
    """The royal castle's outline over its four spaces (§2.3)."""
    rows = sorted({s >> 3 for s in CASTLE})
    cols = sorted({s & 7 for s in CASTLE})
    x, y = _xy(rows[0], cols[0])
    w, h = len(cols) * CELL, len(rows) * CELL
    return (f'<g class="castle"><rect x="{x + 1}" y="{y + 1}" width="{w - 2}" height="{h - 2}" fill="none" '
            f'stroke="#44464f" stroke-width="3" stroke-dasharray="6 3"/></g>')


def _cube(r: int, c: int, k: int, seat: int, colour: str) -> str:
    """The front cube at the space's bottom-left corner (a second one beside it)."""
    x, y = _xy(r, c)
    cx, cy = x + 3 + 12 * k, y + CELL - 14
    return (f'<rect class="cube" data-seat="{seat}" data-colour="{colour}" x="{cx}" y="{cy}" width="11" '
            f'height="11" fill="{COLOURS[colour]}" stroke="#000" stroke-width="1.6"><title>front of '
            f'{colour.replace("_", " ")}</title></rect>')


def targets(texts: list[str]) -> dict[tuple[int, int], list[str]]:
    """The spaces a kind of action may go to (row, col) and, for a tile, the facings allowed there."""
    out: dict[tuple[int, int], list[str]] = {}
    for text in texts:
        words = text.split()
        place = next((w for w in words[1:] if "," in w and w.replace(",", "").isdigit()), None)
        if words[0] in ("swap",):
            place = words[3]
        if place is None:
            continue
        facings = out.setdefault(tuple(int(x) for x in place.split(",")), [])
        if words[0] in ("place", "mobilise") and words[-1] not in facings:
            facings.append(words[-1])
    return out


def hands_table(view: dict, me: int | None) -> str:
    """Your hand by tile type; the others' hands and piles as counts only (§7.2)."""
    rows = ["| player | hand | pile | status |", "|---|---|---|---|"]
    for entry in view["players"]:
        seat = entry["seat"]
        hand = hand_words(entry["hand"]) if seat == me else count(entry["hand_size"], "tile")
        mark = " (you)" if seat == me else ""
        rows.append(f"| {who(seat)}{mark} | {hand} | {entry['pile_size']} | {entry['status']} |")
    return "**Hands and piles**\n\n" + "\n".join(rows)


def show_board(position: dict, no_peeking: bool = False, highlight=(), targets: dict | None = None,
               preview: tuple[int, int] | None = None) -> None:
    """The board on the page (markdown keeps SVG; st.html drops it), the legend below."""
    import streamlit as st

    svg = board_svg(position, no_peeking, highlight, targets, preview)
    st.markdown(f'<div class="imperia-board-view">{svg}</div>', unsafe_allow_html=True)
    st.caption(LEGEND + (CHOICE_LEGEND if targets or preview else ""))


CHOICE_LEGEND = (" Your choice: green, the spaces it may go to, a dot at each side it may face; dashed dark, the "
                 "space you chose, shown as it will be.")
