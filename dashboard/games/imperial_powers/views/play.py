"""Imperial Powers in the browser: people take seats of a game, bots (random, and the game's own such as
its heuristic) the others, and the game is played on this page.

The game is a ``imperial_lab.core.session.PlaySession`` (the same logic as terminal play); the machinery every
game's Play page shares (dashboard/playkit.py) gives it Undo, Save (the move log, which the Imperial
Powers explorer opens), Resume of a saved log, "watch the bots" move by move, and reload safety (the
game is written to ``play/`` after every change and the address carries ``?game=ID``).

The page shows only what one seat may see (``state.observation(seat)``, RULES.md §6.2): the map, that
seat's own hand, strip and development cards, the others' as counts (the face-up development cards
too), and the other seats' deals, bids and Tactics moves without their cards or slots. Several seats
may be people's (hot-seat): they take turns at one screen, and when the person to decide is not the
one holding the device, the page shows only "Pass the device to …" until that person clicks (a
reloaded or resumed game, too, shows no hand before that click).

The engine asks for a bid one card at a time (§5.2); the page shows the whole hand and the strip so
far, the card to place now first, a button per region, and "the rest too" to put every card left
under the same region in one click. "Why not …?" (the shared PlayKit's) lists the decision's actions,
the tempting refused ones too (each card of the hand under each region, every development card, each
Tactics move, every power), and says which rule refuses one.
"""

from __future__ import annotations

import random

import streamlit as st

from imperial_lab.core.games.imperial_powers.explain import (PUBLIC, action_plain, action_words, changed_regions,
                                                          context_of, explain)
from imperial_lab.dashboard.games.imperial_powers.boardview import piles_line, players_table, show_map, view_of
from imperial_lab.core.games.imperial_powers.rules_text import REFERENCE
from imperial_lab.core.games.imperial_powers.steps import QUIET, event_line
from imperial_lab.core.games.imperial_powers.words import (card_label, card_value, dev_label, power_name, region_name,
                                                        strip_label, who)
from imperial_lab.core.games.imperial_powers.texts import question
from imperial_lab.core.registry import plugin
from imperial_lab.core.session import PlaySession
from imperial_lab.dashboard.playkit import PERSON, PlayKit, md

GAME = "imperial_powers"
SHOWN_MAX = 200  # moves looked at for "What happened" (a turn has about 90)
ASSIGNMENTS = {"pick": "picked from the instigator on (R3)", "random": "dealt at random"}


def bot_names() -> tuple:
    """Random and the game's own bots (read at every run: a bot the plug-in gains later is offered too)."""
    return tuple(dict.fromkeys(("random", *plugin(GAME).bots)))


KIT = PlayKit("ip_play", GAME, hidden=True, words=action_plain, explorer="the Imperial Powers explorer",
              max_players=5, default_bot="heuristic" if "heuristic" in bot_names() else "random")


# ----- a new game -----

@st.fragment
def new_game() -> None:
    """The player count, the seed, how powers are chosen and each seat (a person or a bot). A fragment:
    choosing reruns only the form."""
    st.markdown(REFERENCE.link_all("Take a seat against the bots, or several: people take turns at this screen, each "
                                   "seeing only their own cards and strip (§6.2). The highest d10 takes the "
                                   "instigator token and acts first (§2)."))
    a, b, c = st.columns([1, 1, 2])
    players = a.selectbox("Players", (3, 4, 5), index=1, key=KIT.key("players"))
    seed = b.number_input("Seed", 0, 2**31 - 1, value=None, placeholder="random", key=KIT.key("seed_input"))
    mode = c.radio("Powers", tuple(ASSIGNMENTS), format_func=ASSIGNMENTS.get, horizontal=True,
                   key=KIT.key("assignment"))
    seats = KIT.seat_boxes(players, bot_names())
    if KIT.start_button(seats):
        seed = random.randrange(2**31) if seed is None else int(seed)
        specs = [None if choice == PERSON else choice for choice in seats]
        KIT.start(PlaySession({"game": GAME, "players": players, "power_assignment": mode}, specs, seed))


# ----- the game -----

def game(session: PlaySession) -> None:
    KIT.advance(session)
    KIT.controls(session, details=[f"powers {session.config['power_assignment']}"])
    KIT.notice()
    if KIT.hand_over(session):
        return
    me = KIT.viewer(session)
    viewer = PUBLIC if me is None else me
    view = view_of(session.state, viewer)
    since = KIT.since_last(session, me, SHOWN_MAX)
    _heading(session, view, me)
    if session.waiting_for() is not None:
        decide(session, view)
        st.fragment(KIT.why_not)(linked)
        st.fragment(KIT.hint)()
    ctx = context_of(view)
    show_map(view, [x for step in since for x in changed_regions(step.events, ctx, viewer)])
    st.markdown(f"**Players** ({REFERENCE.link('§6.2', 'what is hidden')})\n\n{players_table(view)}",
                unsafe_allow_html=True)
    st.caption(piles_line(view))
    ctx = context_of(view)
    KIT.what_happened(since, lambda step: _lines(step, ctx, viewer))


def _heading(session: PlaySession, view: dict, me: int | None) -> None:
    """The end and its winners, the person's decision, or (watching the bots) who moves next."""
    powers = [s["power"] for s in view["seats"]]
    if session.is_over():
        ended = next(e for step in session.history(len(session.actions) - 1) for e in step.events
                     if e["kind"] == "game_ended")
        st.subheader("Game over")
        (st.success if me in ended["winners"] else st.info)(explain(ended, context_of(view)), icon=":material/trophy:")
    elif session.waiting_for() is not None:
        st.subheader(f"Your turn, {who(me, powers)}")
    else:
        st.subheader(f"Next to move: {KIT.mover(session)}")
        KIT.watch_buttons(session)


# ----- the decisions -----

def decide(session: PlaySession, view: dict) -> None:
    """The decision of the person to move, by phase (§6.1): its words with its rule, then the choices."""
    words, rule = question(view)
    st.markdown(f"You {REFERENCE.link_all(words)} ({REFERENCE.link(rule, REFERENCE.title(rule))}).")
    me = view["seats"][view["to_move"]]
    phase = view["phase"]
    choices = _choices(session)
    if phase == "bid":
        _bid(session, me, choices)
    elif phase == "tactics":
        _tactics(session, me, choices)
    elif phase == "develop":
        _buttons(session, choices, lambda text: dev_label(text.split()[1]), per_row=3)
    elif phase == "event_assign":
        _buttons(session, choices, lambda text: region_name(text.split()[-1]), per_row=5)
    elif phase == "choose_power":
        _buttons(session, choices, lambda text: power_name(text.split()[1]), per_row=5, notes=True)
    else:
        _buttons(session, choices, str, per_row=5)


def _choices(session: PlaySession) -> list[tuple[int, str, str | None]]:
    """(number, text form, note) of every legal action: the number is what ``KIT.choose`` plays."""
    state = session.state
    texts = [state.action_to_string(a) for a in session.legal()]
    return [(k + 1, text, note) for k, (text, note) in enumerate(zip(texts, session.action_notes()))]


def _buttons(session: PlaySession, choices, label, per_row: int, callback=None, notes: bool = False) -> None:
    """A button per choice, ``per_row`` to a row, its tooltip the choice's note (``notes``: the note
    written under it too, e.g. what a power does); a click plays it (``callback(changes, number)``, by
    default ``KIT.choose``)."""
    for start in range(0, len(choices), per_row):
        cols = st.columns(per_row)
        for col, (number, text, hint) in zip(cols, choices[start:start + per_row]):
            col.button(label(text), key=KIT.key(f"choice_{number}"), on_click=callback or KIT.choose,
                       args=(session.changes, number), width="stretch", help=hint)
            if notes and hint:
                col.caption(hint)


def _bid(session: PlaySession, me: dict, choices) -> None:
    """The hand (the card to bid now first) and the strip so far; a button per region (§5.2)."""
    hand, strip = me["hand"], me["strip"]
    later = "".join(f", {card_label(c)}" for c in hand[1:])
    st.markdown(f"Your hand, in the order the cards are bid: **{card_label(hand[0])}**{later}  \n"
                f"Your strip so far: {strip_label(strip)}")
    rest = st.toggle(f"and the rest too ({len(hand) - 1} more)", key=KIT.key("rest"), disabled=len(hand) < 2,
                     help="every card left goes under the region clicked (each card is still one decision: Undo "
                          "takes back the last)")

    def label(text: str) -> str:
        region = text.split()[-1]
        bid = sum(card_value(c) for c in strip.get(region, ()))
        return f"{region_name(region)} · {bid}" if bid else region_name(region)

    _buttons(session, choices, label, per_row=5, callback=_bid_rest if rest and len(hand) > 1 else None)


def _bid_rest(changes: int, number: int) -> None:
    """The person puts the card to bid and every one after it under the same region."""
    session = KIT.fresh(changes)
    if session is None or session.waiting_for() is None:
        return
    p, region = session.waiting_for(), session.state.action_to_string(session.legal()[number - 1]).split()[-1]
    while session.waiting_for() == p and session.state.decision_name() == "bid":
        session.play(next(a for a in session.legal() if session.state.action_to_string(a).split()[-1] == region))
    KIT.persist(session)


def _tactics(session: PlaySession, me: dict, choices) -> None:
    """Pass, or move a card of the strip to another region (France: two decisions, R12)."""
    st.markdown(f"Your strip: {strip_label(me['strip'])}")
    moves: dict[str, list] = {}
    for number, text, hint in choices:
        if text != "pass":
            moves.setdefault(text.split()[1], []).append((number, text.split()[2], hint))
    cols = st.columns([1, 1.4, 1.4, 1], vertical_alignment="bottom")
    passing = next(number for number, text, _ in choices if text == "pass")
    cols[0].button("Pass", key=KIT.key(f"choice_{passing}"), on_click=KIT.choose, args=(session.changes, passing),
                   width="stretch", help="keep the strip as it is")
    if not moves:
        return
    card = cols[1].selectbox("Card", list(moves), format_func=card_label, key=KIT.key(f"card_{session.changes}"))
    targets = {region: (number, hint) for number, region, hint in moves[card]}
    region = cols[2].selectbox("To", list(targets), format_func=region_name, key=KIT.key(f"to_{session.changes}"))
    number, hint = targets[region]
    cols[3].button("Move", key=KIT.key("move"), type="primary", on_click=KIT.choose, args=(session.changes, number),
                   width="stretch", help=hint)


def linked(text: str) -> str:
    """``text`` as Markdown, its rule references (``§5.4``, ``R12``) linked to the rules page."""
    return REFERENCE.link_all(md(text))


# ----- what happened -----

def _lines(step, ctx, viewer) -> list[str]:
    """A move through the viewer's eyes (§6.2): its events, or its action when it caused none told."""
    events = [event_line(e, ctx, viewer) for e in step.events if e["kind"] not in QUIET]
    return events or [f"- {action_words(step.text, step.player, ctx, viewer)}"]


KIT.page("Imperial Powers against bots", new_game, game)
