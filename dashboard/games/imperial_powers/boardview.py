"""Imperial Powers' map as SVG and the players' panel, both drawn from one **view**: a seat's
observation (``state.observation(seat)``, RULES.md §6.2), a spectator's (``observation(None)``), or
``everything(state)``, the observation of someone who sees every card. What a view lacks (another
seat's hand or strip, the Dutch development cards) is never drawn, so a page that renders a seat's
view cannot show what that seat may not see.

The map is a hand-made schematic of the world (no board art): the ten regions as tiles placed roughly
where they lie, over pale continents. A tile shows the region's name, its value V (§0.2: resource
plus power counters), the counters, each seat's influence as a bar in the seat's colour with its
number, the Leader (a star, a border in its colour) or "no leader" on a tie at the top (R14), and the
event put there this turn (§5.7). Hovering a tile gives the details: places and the VP each seat would
score now (§5.6), the Leader's extra cards (R23), the event and its dice, and the bids the view may see.

``map_svg(view)`` and ``players_table(view)`` are pure functions (tests call them); ``show_map`` puts
the map on a page with st.markdown (st.html's sanitiser would drop the SVG).
"""

from __future__ import annotations

import html

from imperial_lab.core.games.imperial_powers.explain import EVERYTHING, PUBLIC, context_of
from imperial_lab.core.games.imperial_powers.words import (card_value, cards_label, dev_label, event_name, power_name,
                                                        region_name, strip_label, who)
from imperial_lab.core.games.imperial_powers.rules import TIE_RULES, awards
from imperial_lab.core.interface import seat_name
from imperial_lab.dashboard.style import PLAYER_COLOURS

WIDTH, HEIGHT = 1080, 585
TILE_W, TILE_H = 176, 128
BAR_TOP, BAR_STEP, BAR_HEIGHT = 42, 13, 10  # the influence bars inside a tile: one row per seat
SEA, LAND, TILE, INK, MUTED = "#d9e9f2", "#efe7d2", "#fffdf7", "#222", "#666"
VALUE_FILL, HIGHLIGHT, BID_INK = "#3d3d3d", "#1f77b4", "#c26a00"
SEATS = "ABCDE"
# Top-left corner of each region's tile: a rough world map, west to east (data.json's region ids).
PLACES = {
    "north_america": (40, 36), "central_america": (64, 232), "caribbean": (262, 196),
    "south_america": (214, 404), "europe": (470, 36), "africa": (462, 352), "middle_east": (664, 190),
    "india": (694, 356), "orient": (856, 36), "se_asia": (884, 420),
}
# Pale continents behind the tiles (decorative outlines drawn by hand for this schematic).
CONTINENTS = (
    "M20,22 L430,18 L446,150 L330,196 L252,232 L256,372 L150,380 L44,300 Z",  # North and Central America
    "M196,392 L404,388 L410,470 L330,572 L262,574 L206,500 Z",  # South America
    "M450,20 L1062,18 L1066,408 L872,420 L870,520 L690,508 L668,350 L652,330 L450,186 Z",  # Eurasia
    "M446,342 L660,338 L664,452 L580,574 L500,570 L448,470 Z",  # Africa
)
ISLANDS = ((300, 336, 26, 7), (350, 346, 14, 5), (388, 340, 10, 4))  # the Caribbean's (cx, cy, rx, ry)
LEGEND = ("Each region: its name, its value V (resource + power counters, §0.2), the counters, each seat's "
          "influence in the seat's colour, the Leader (★ and a border in its colour; \"no leader\" on a tie at "
          "the top, R14) and this turn's event (§5.7); +N in orange: a bid you may see, added at the Reveal "
          "(§5.5). Hover a region for places, the VP each seat would score now (§5.6) and those bids.")


def colour(seat: int) -> str:
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


# ----- views -----

def everything(state) -> dict:
    """The observation of someone who sees every card: the spectator's (with its derived fields: values,
    Leaders, sizes) plus every hand, strip, development hand, deck and Tactics move."""
    view = state.observation(None)
    doc = state.to_json()
    for entry, full in zip(view["seats"], doc["seats"]):
        entry.update(hand=full["hand"], strip=full["strip"], dev_hand=full["dev_hand"])
    for key in ("influence_deck", "development_deck", "development_face_down"):
        view[key] = doc[key]
    view["tactics"] = doc["tactics"]
    view["observer"] = EVERYTHING
    return view


def view_of(state, viewer) -> dict:
    """The view of ``viewer``: EVERYTHING, PUBLIC or a seat."""
    if viewer == EVERYTHING:
        return everything(state)
    return state.observation(None if viewer == PUBLIC else viewer)


def powers_of(view: dict) -> list:
    return [s["power"] for s in view["seats"]]


def size(pile) -> int:
    """A pile's size: an observation gives the hidden piles as their sizes, a full view as lists."""
    return pile if isinstance(pile, int) else len(pile)


def events_here(view: dict) -> dict[str, dict]:
    """region -> its event row this turn. The rows stay until the next Event Phase begins, so outside
    the Event Phase (and the end) they are last turn's: shown then only in the details."""
    return {row["region"]: row for row in view["events"]["rows"]}


def in_event_phase(view: dict) -> bool:
    return view["phase"] in ("event_draw", "event_assign", "event_die", "over")


# ----- the map -----

def map_svg(view: dict, highlight=()) -> str:
    """The map of ``view`` as one ``<svg>`` element; ``highlight``: region ids to ring (what a step changed)."""
    n = len(view["seats"])
    rows = events_here(view)
    out = [f'<svg class="ip-map" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="100%" '
           f'style="max-width:{WIDTH}px" font-family="sans-serif" role="img" '
           f'data-observer="{html.escape(str(view["observer"]))}">',
           f'<rect width="{WIDTH}" height="{HEIGHT}" fill="{SEA}" rx="14"/>']
    out += [f'<path d="{d}" fill="{LAND}" stroke="#d8cdb0" stroke-width="1.5"/>' for d in CONTINENTS]
    out += [f'<ellipse cx="{x}" cy="{y}" rx="{rx}" ry="{ry}" fill="{LAND}" stroke="#d8cdb0"/>'
            for x, y, rx, ry in ISLANDS]
    strips = {s["seat"]: s["strip"] for s in view["seats"] if "strip" in s}
    for entry in view["regions"]:
        region = entry["region"]
        out.append(_tile(view, entry, n, rows.get(region), strips, region in highlight))
    out.append(_status(view))
    out.append("</svg>")
    return "".join(out)


def _tile(view: dict, entry: dict, n: int, row: dict | None, strips: dict, ringed: bool) -> str:
    region, values = entry["region"], entry["influence"]
    x, y = PLACES[region]
    lead = entry["leader"]
    top = max(values)
    state = "empty" if top <= 0 else ("none" if lead is None else str(lead))
    border = colour(lead) if lead is not None else "#8c8c8c"
    parts = [f'<g class="region" data-region="{region}" data-value="{entry["value"]}" data-leader="{state}">',
             f"<title>{html.escape(details(view, entry, row, strips))}</title>"]
    if ringed:
        parts.append(f'<rect class="changed" x="{x - 5}" y="{y - 5}" width="{TILE_W + 10}" height="{TILE_H + 10}" '
                     f'rx="14" fill="none" stroke="{HIGHLIGHT}" stroke-width="3" stroke-dasharray="7 4"/>')
    parts += [f'<rect x="{x}" y="{y}" width="{TILE_W}" height="{TILE_H}" rx="10" fill="{TILE}" stroke="{border}" '
              f'stroke-width="{3 if lead is not None else 1.2}"/>',
              f'<text x="{x + 9}" y="{y + 18}" font-size="13.5" font-weight="bold" fill="{INK}">'
              f'{html.escape(region_name(region))}</text>',
              f'<circle cx="{x + TILE_W - 17}" cy="{y + 16}" r="12" fill="{VALUE_FILL}"/>',
              f'<text class="value" x="{x + TILE_W - 17}" y="{y + 20.5}" font-size="12" font-weight="bold" '
              f'text-anchor="middle" fill="#fff">{entry["value"]}</text>',
              f'<text x="{x + 9}" y="{y + 33}" font-size="10" fill="{MUTED}">{entry["resource"]} resource · '
              f'{entry["power"]} power</text>']
    bids = {seat: sum(card_value(c) for c in strip.get(region, ())) for seat, strip in strips.items()}
    parts += [_bar(x, y + BAR_TOP + p * BAR_STEP, p, values[p], top, p == lead, bids.get(p, 0)) for p in range(n)]
    parts.append(_footer(view, x, y, lead, top, row))
    parts.append("</g>")
    return "".join(parts)


def _bar(x: float, y: float, seat: int, value: int, top: int, leads: bool, bid: int) -> str:
    """One seat's influence: its letter, a bar scaled to the region's top influence, the number, and
    ``+bid``: the cards on its strip there, when the view shows the strip (added at Reveal, §5.5)."""
    room = TILE_W - 58 - (16 if bid else 0)
    width = room * value / top if top > 0 else 0
    star = "★ " if leads else ""
    pending = f'<tspan class="bid" fill="{BID_INK}"> +{bid}</tspan>' if bid else ""
    return (f'<g class="influence" data-seat="{seat}" data-influence="{value}">'
            f'<text x="{x + 9}" y="{y + 9}" font-size="9.5" fill="{colour(seat)}" font-weight="bold">'
            f'{SEATS[seat]}</text>'
            f'<rect x="{x + 22}" y="{y}" width="{room}" height="{BAR_HEIGHT}" rx="2" fill="#eee"/>'
            f'<rect x="{x + 22}" y="{y}" width="{width:.1f}" height="{BAR_HEIGHT}" rx="2" fill="{colour(seat)}"/>'
            f'<text x="{x + TILE_W - 8}" y="{y + 9}" font-size="9.5" text-anchor="end" fill="{INK}">{star}{value}'
            f'{pending}</text></g>')


def _footer(view: dict, x: float, y: float, lead, top: int, row: dict | None) -> str:
    """The Leader on the left, this turn's event on the right."""
    base = y + TILE_H - 7
    if lead is not None:
        left = f'<text class="leader" x="{x + 9}" y="{base}" font-size="9.5" fill="{colour(lead)}" ' \
               f'font-weight="bold">★ Leader {SEATS[lead]}</text>'
    else:
        words = "no influence" if top <= 0 else "no leader (tie)"
        left = f'<text class="leader" x="{x + 9}" y="{base}" font-size="9.5" fill="{MUTED}">{words}</text>'
    if row is None or not in_event_phase(view):
        return left
    event = f"{event_name(row['event'])} · {SEATS[row['drawer']]}"
    return (left + f'<text class="event" data-event="{row["event"]}" x="{x + TILE_W - 8}" y="{base}" '
                   f'font-size="9.5" text-anchor="end" fill="#8a3b12" font-weight="bold">⚡ {html.escape(event)}'
                   f'</text>')


def _status(view: dict) -> str:
    """The turn, the phase and the instigator, in the sea at the bottom left."""
    turns = view["config"]["turns"]
    inst = view["instigator"]
    parts = [f"Turn {view['turn']} of {turns}", view["phase"].replace("_", " ")]
    if inst >= 0:
        parts.append(f"instigator {seat_name(inst)}")
    pending = view["events"].get("pending")
    if pending:
        parts.append(f"drawn: {event_name(pending)}")
    return (f'<text class="status" x="22" y="{HEIGHT - 14}" font-size="12" fill="#34495e">'
            f'{html.escape(" · ".join(parts))}</text>')


def details(view: dict, entry: dict, row: dict | None, strips: dict) -> str:
    """The hover text of a region: counters, each present seat's influence, place and award now, the
    Leader, the event, the bids the view may see."""
    region, values, value = entry["region"], entry["influence"], entry["value"]
    powers = powers_of(view)
    lines = [f"{region_name(region)}: value {value} ({entry['resource']} resource, {entry['power']} power counters)"]
    present = [p for p, v in enumerate(values) if v > 0]
    if present:
        got = awards(values, value, TIE_RULES.index(view["config"]["tie_rule"]))
        lines.append("Influence, place and the VP a scoring now would give (§5.6):")
        for p in sorted(present, key=lambda q: -values[q]):
            place = sum(v >= values[p] for v in values if v > 0)
            lines.append(f"  {who(p, powers)}: {values[p]}, place {place}, {got[p]} VP")
    else:
        lines.append("No influence here yet.")
    lead = entry["leader"]
    if lead is not None:
        extra = (f"; draws {entry['power']} extra influence card(s) for its power counters (R23)"
                 if entry["power"] else "")
        lines.append(f"Leader: {who(lead, powers)}{extra}")
    elif present:
        lines.append("No Leader: a tie at the top (R14)")
    if row is not None:
        when = "This turn's event" if in_event_phase(view) else "Last turn's event"
        dice = f", dice {', '.join(map(str, row['dice']))}" if row["dice"] else ""
        lines.append(f"{when}: {event_name(row['event'])}, put here by {who(row['drawer'], powers)}{dice}")
    for seat, strip in strips.items():
        if region in strip:
            lines.append(f"Bid of {seat_name(seat)}: {cards_label(strip[region])}")
    return "\n".join(lines)


def show_map(view: dict, highlight=()) -> None:
    """The map on the page (markdown keeps SVG; st.html drops it), the legend below."""
    import streamlit as st

    st.markdown(f'<div class="ip-map-view">{map_svg(view, highlight)}</div>', unsafe_allow_html=True)
    st.caption(LEGEND)


# ----- the players' panel -----

def swatch(seat: int) -> str:
    return f'<span style="color:{colour(seat)}">■</span>'


def players_table(view: dict) -> str:
    """A markdown table, one row per seat: power, VP (by source), the influence hand, the development
    hand (face up but the Dutch's, R9), the strip and the instigator token; what the view hides only as
    counts."""
    rows = ["| player | power | VP | influence hand | development hand | strip |", "|---|---|---|---|---|---|"]
    for entry in view["seats"]:
        seat = entry["seat"]
        marks = []
        if seat == view["instigator"]:
            marks.append("◆ instigator")
        if seat == view["to_move"] and view["phase"] != "over":
            marks.append("◀ to move")
        if seat == view["observer"]:
            marks.append("(you)")
        name = f"{swatch(seat)} {seat_name(seat)}" + (f" {' '.join(marks)}" if marks else "")
        rows.append(f"| {name} | {power_name(entry['power'])} | {_vp(entry)} | {_hand(entry)} | {_devs(view, entry)} "
                    f"| {_strip(entry)} |")
    return "\n".join(rows)


def _vp(entry: dict) -> str:
    parts = [f"{name} {vp}" for name, vp in entry["vp"].items() if vp]
    return f"**{entry['vp_total']}**" + (f" ({', '.join(parts)})" if len(parts) > 1 else "")


def _hand(entry: dict) -> str:
    if not entry["hand_size"]:
        return "empty"
    return cards_label(entry["hand"]) if "hand" in entry else f"{entry['hand_size']} cards (hidden)"


def _devs(view: dict, entry: dict) -> str:
    if not entry["dev_hand_size"]:
        return "empty"
    if "dev_hand" not in entry:
        return f"{entry['dev_hand_size']} cards (face down)"
    cards = ", ".join(dev_label(d) for d in entry["dev_hand"])
    return cards + (" (face down)" if context_of(view).hides_development(entry["seat"]) else "")


def _strip(entry: dict) -> str:
    if "strip" not in entry:
        return f"{entry['strip_size']} cards (hidden)" if entry["strip_size"] else "empty"
    return strip_label(entry["strip"])


def piles_line(view: dict) -> str:
    """The decks and discard piles (the influence discard is open, R25)."""
    face_down = size(view["development_face_down"])
    down = f" (+{face_down} face down)" if face_down else ""
    return (f"Influence deck {size(view['influence_deck'])} cards, open discard pile {len(view['influence_discard'])}; "
            f"development deck {size(view['development_deck'])}, discards {len(view['development_discard'])}{down}.")
