"""Imperia in the browser: people take seats of a game of Imperia, bots (random or heuristic) the
others, and the game is played on this page.

The game is a ``imperial_lab.core.session.PlaySession`` (the same logic as terminal play); the machinery every
game's Play page shares (dashboard/playkit.py) gives it Undo, Save (the move log, which the Imperia
explorer opens), Resume of a saved log, "watch the bots" move by move, and reload safety (the game is
written to ``play/`` after every change and the address carries ``?game=ID``).

The page shows only what one seat may see (``state.observation(seat)``, §7.2): the board, that
seat's own hand, the other hands and piles as counts, and other seats' draws without the tile drawn.
Several seats may be people's (hot-seat): they take turns at one screen, and when the person to
decide is not the one holding the device, the page shows only "Pass the device to …" until that
person clicks (a reloaded or resumed game, too, shows no hand before that click). The legal actions
are grouped by kind in words (place a straight infantry, the warlord, mobilise…): pick a kind and
an action, then Play. The board shows where that kind of action may go (green spaces, a dot at each
side a tile may face there) and the chosen action as it will be, before it is played. "Why not …?"
(the shared PlayKit's) lists the decision's actions, the tempting refused ones too (a tile of the hand
elsewhere or facing the wrong way, the warlord, a swap), and says which rule refuses one.
"""

from __future__ import annotations

import random

import streamlit as st

from imperial_lab.core.games.imperia.action_words import action_words
from imperial_lab.core.games.imperia.explain import explain
from imperial_lab.core.games.imperia.rules import next_space
from imperial_lab.core.games.imperia.rules_text import REFERENCE
from imperial_lab.core.games.imperia.scoring import tallies
from imperial_lab.core.games.imperia.texts import DECISIONS, seen_text
from imperial_lab.core.games.imperia.words import type_words, who
from imperial_lab.core.interface import CHANCE
from imperial_lab.core.session import PlaySession
from imperial_lab.core.words import count
from imperial_lab.dashboard.games.imperia.boardview import hands_table, show_board, targets
from imperial_lab.dashboard.playkit import PERSON, PlayKit, md
from imperial_lab.dashboard.style import player_label

KIT = PlayKit("imperia_play", "imperia", hidden=True, label=who, words=action_words, explorer="the Imperia explorer",
              max_players=4)
BOTS = ("heuristic", "random")
SHOWN_MAX = 40  # moves looked at for "What happened"


def group_of(text: str) -> str:
    """The kind an action is listed under, in words: ``place inf/o 3,2 N`` -> ``Place a straight
    infantry``, ``board 2A NW r0`` -> ``Board 2, side A``, ``warlord 2,5`` -> ``Place the warlord``."""
    words = text.split()
    head = words[0]
    if head == "place":
        return f"Place {'an' if type_words(words[1])[0] in 'aeiou' else 'a'} {type_words(words[1])}"
    if head == "board":
        return f"Board {words[1][0]}, side {words[1][1]}"
    if head == "swap":
        return "Direct troops: swap two of yours" if words[1] == "own" else "Direct troops: take an enemy's place"
    return {"fortress": "Build the fortress", "warlord": "Place the warlord", "mobilise": "Mobilise a stack",
            "retire": "Retire"}.get(head, head)


def grouped(session: PlaySession) -> dict[str, list]:
    """The legal actions by kind, in the engine's order (so the first kind's first is the first legal)."""
    groups: dict[str, list] = {}
    for action in session.legal():
        groups.setdefault(group_of(session.state.action_to_string(action)), []).append(action)
    return groups


# ----- a new game -----

@st.fragment
def new_game() -> None:
    """The player count, the seed and each seat (a person or a bot). A fragment: choosing reruns only the form."""
    st.markdown("Take a seat against the bots, or several: people take turns at this screen, each seeing only "
                "their own hand (§7.2). Seat A begins unless chance draws another start player (§3.1).")
    a, b, _ = st.columns([1, 1, 2])
    players = a.selectbox("Players", (2, 3, 4), index=0, key=KIT.key("players"))
    seed = b.number_input("Seed", 0, 2**31 - 1, value=None, placeholder="random", key=KIT.key("seed_input"))
    seats = KIT.seat_boxes(players, BOTS)
    if KIT.start_button(seats):
        seed = random.randrange(2**31) if seed is None else int(seed)
        specs = [None if choice == PERSON else choice for choice in seats]
        KIT.start(PlaySession({"game": "imperia", "players": players}, specs, seed))


# ----- the game -----

def game(session: PlaySession) -> None:
    KIT.advance(session)
    KIT.controls(session)
    KIT.notice()
    if KIT.hand_over(session):
        return
    me = KIT.viewer(session)
    since = KIT.since_last(session, me, SHOWN_MAX)
    _heading(session, me)
    left, right = st.columns([1.2, 1])
    with right:  # first: the choice decides what the board previews
        chosen = choose(session) if session.waiting_for() is not None else None
        st.fragment(KIT.why_not)(linked)
        st.fragment(KIT.hint)()
    with left:
        _board(session, me, since, chosen)
    with right:
        st.markdown(hands_table(session.state.observation(me), me))
        st.markdown(scores_table(session.state))
        KIT.what_happened(since, lambda step: _lines(step, me), height=260)


def _board(session: PlaySession, me: int | None, since: list, chosen) -> None:
    """The board through ``me``'s eyes: the spaces the moves since my last changed; with a choice
    made, its legal spaces and the position after it (the preview)."""
    state = session.state
    if chosen is None:
        changed = [s for step in since for e in step.events for key in ("space", "to", "a", "b")
                   if isinstance(s := e.get(key), str) and "," in s]
        show_board(state.observation(me), highlight=[tuple(int(x) for x in s.split(",")) for s in changed])
        return
    action, kind_texts = chosen
    after = state.clone()
    after.apply_action(action)
    spot = targets([state.action_to_string(action)])
    show_board(after.observation(me), targets=targets(kind_texts), preview=next(iter(spot), None))


def _heading(session: PlaySession, me: int | None) -> None:
    """The end and its winners, the person's decision, or (watching the bots) who moves next."""
    state = session.state
    if session.is_over():
        ended = next(e for step in session.history(len(session.actions) - 1) for e in step.events
                     if e["kind"] == "game_ended")
        st.subheader("Game over")
        (st.success if me in ended["winners"] else st.info)(explain(ended), icon=":material/trophy:")
    elif session.waiting_for() is not None:
        st.subheader(f"Your turn, {who(me)}")
        question, rule = DECISIONS.get(state.decision_name(), (state.decision_name(), "§5"))
        st.markdown(f"You {question} ({REFERENCE.link(rule, REFERENCE.title(rule))})."
                    + REFERENCE.link_all(_front_line(state, me)))
    else:
        st.subheader(f"Next to move: {KIT.mover(session)}")
        KIT.watch_buttons(session)


def _front_line(state, me: int) -> str:
    if state.decision_name() != "turn" or state.cube[me] < 0:
        return ""
    f, n = state.cube[me], next_space(state, me)
    where = f"{n >> 3},{n & 7}" if n >= 0 else "off the board or none (a warlord front)"
    return f" Your front is {f >> 3},{f & 7}; its next space is {where} (§6.1)."


def choose(session: PlaySession):
    """The legal actions by kind: a kind, then one of its actions (in words), then Play. Returns the
    chosen action and the text forms of its kind (the board shows them)."""
    groups = grouped(session)
    changes = session.changes  # widget keys per position: the options change with it
    kinds = list(groups)
    kind = st.radio("Kind", kinds, horizontal=True, key=f"{KIT.key('kind')}_{changes}") if len(kinds) > 1 else kinds[0]
    actions = groups[kind]
    text_of = session.state.action_to_string
    action = st.selectbox(f"{count(len(actions), 'choice')}: {kind.lower()}", actions,
                          format_func=lambda a: action_words(text_of(a)), key=f"{KIT.key('action')}_{changes}")
    st.button("Play", icon=":material/play_arrow:", type="primary", key=KIT.key("move"), on_click=KIT.choose,
              args=(changes, session.legal().index(action) + 1), width="stretch",
              help=f"{text_of(action)}: the board shows it as it will be")
    return action, [text_of(a) for a in actions]


def linked(text: str) -> str:
    """``text`` as Markdown, its rule references linked to the rules page."""
    return REFERENCE.link_all(md(text))


def scores_table(state) -> str:
    parts = ", ".join(f"{player_label(p)} {t.total}" for p, t in enumerate(tallies(state)))
    word = "Final" if state.is_terminal() else "Provisional"
    return f"**{word} scores** ({REFERENCE.link('§9', REFERENCE.title('§9'))}): {parts}"


def _lines(step, me: int | None) -> list[str]:
    """A move through ``me``'s eyes: other seats' draws without their tiles (§7.2)."""
    eyes = CHANCE if me is None else me  # an observer's: every draw is another seat's
    actor = "Chance" if step.player == CHANCE else ("You" if step.player == me else player_label(step.player))
    lines = [f"- **{actor}**: {action_words(seen_text(None, step.player, step.text, me))}"]
    return lines + [f"    - {explain(event, viewer=eyes)} ({REFERENCE.link(event['rule'])})" for event in step.events]


KIT.page("Imperia against bots", new_game, game)
