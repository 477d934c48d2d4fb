"""Imperia against bots: a person takes one seat of a game of Imperia, the others are bots (random or
heuristic), and the game is played in the browser.

The game is a ``core.session.PlaySession`` (the same logic as terminal play): the person's choices,
then bots and chance up to the person's next decision. The page shows only what the person's seat
may see (``state.observation(seat)``, §7.2): the board, the person's own hand, the other hands and
piles as counts, and other seats' draws without the tile drawn. The legal actions are grouped by
kind (``place inf/o``, ``warlord``, ``mobilise``…): pick a kind and an action, then Play. Save
downloads the move log, which the Imperia explorer opens.
"""

from __future__ import annotations

import random

import streamlit as st

from core.errors import ImperialError
from core.games.imperia.dashboard.boardview import show_board
from core.games.imperia.dashboard.explain import explain, who
from core.games.imperia.dashboard.rules_text import link_sections, rule_title, section_link
from core.games.imperia.rules import next_space
from core.games.imperia.scoring import tallies
from core.interface import CHANCE
from core.session import PlaySession
from dashboard import frame
from dashboard.style import player_label

SESSION = "imperia_play_session"
BOTS = ("heuristic", "random")
SHOWN_MAX = 40  # moves listed under "What happened"
DECISIONS = {
    "board": "lay a board: which one, which side, where and turned how far (§3.2)",
    "fortress": "build your fortress (§3.3)",
    "turn": "place a tile: a soldier from your hand, or the warlord (§6.4)",
    "order": "give the general's order (§6.6)",
}


def group_of(text: str) -> str:
    """The kind an action is listed under: ``place inf/o``, ``board 2A``, ``swap own``, ``warlord``…"""
    words = text.split()
    return " ".join(words[:2]) if words[0] in ("place", "board", "swap") else words[0]


def grouped(session: PlaySession) -> dict[str, list]:
    """The legal actions by kind, in the engine's order (so the first kind's first is the first legal)."""
    groups: dict[str, list] = {}
    for action in session.legal():
        groups.setdefault(group_of(session.state.action_to_string(action)), []).append(action)
    return groups


# ----- starting -----

def start_form() -> None:
    st.markdown("Take a seat against the bots. Seat A begins unless chance draws another start player (§3.1).")
    a, b, c, d = st.columns(4)
    players = a.selectbox("Players", (2, 3, 4), index=0, key="imperia_play_players")
    seat = b.selectbox("Your seat", range(players), format_func=who, key="imperia_play_seat")
    bots = c.selectbox("Bots", BOTS, key="imperia_play_bots",
                       help="heuristic: looks one move ahead; random: any legal action")
    seed = d.number_input("Seed", 0, 2**31 - 1, value=None, placeholder="random", key="imperia_play_seed_input")
    if st.button("Start the game", type="primary", key="imperia_play_start"):
        seats = [None if p == seat else bots for p in range(players)]
        seed = random.randrange(2**31) if seed is None else int(seed)
        session = PlaySession({"game": "imperia", "players": players}, seats, seed)
        session.advance_to_human()
        st.session_state[SESSION] = session
        st.rerun()


# ----- playing -----

def _play(action) -> None:
    session: PlaySession = st.session_state[SESSION]
    session.play(action)
    session.advance_to_human()


def _new_game() -> None:
    st.session_state.pop(SESSION, None)


def person_of(session: PlaySession) -> int:
    return min(session.humans)


def game(session: PlaySession) -> None:
    me = person_of(session)
    state = session.state
    view = state.observation(me)
    history = session.history(max(0, len(session.actions) - SHOWN_MAX))
    last_mine = next((k for k in range(len(history) - 1, -1, -1) if history[k].player == me), -1)
    since = history[last_mine + 1:]  # the moves since the person's last (all of them before it)
    if session.is_over():
        ended = next(e for step in history for e in step.events if e["kind"] == "game_ended")
        st.subheader("Game over")
        won = me in ended["winners"]
        (st.success if won else st.info)(explain(ended), icon=":material/trophy:")
    else:
        st.subheader(f"Your turn, {who(me)}")
        st.markdown(link_sections(f"You {DECISIONS.get(state.decision_name(), state.decision_name())}."
                                  + _front_line(state, me)))
    left, right = st.columns([1.2, 1])
    with left:
        changed = [s for step in since for e in step.events for key in ("space", "to", "a", "b")
                   if isinstance(s := e.get(key), str) and "," in s]
        show_board(view, highlight=[tuple(int(x) for x in s.split(",")) for s in changed])
    with right:
        if not session.is_over():
            choose(session)
        st.markdown(hands_table(view, me))
        st.markdown(scores_table(state))
        what_happened(since, me)
        b1, b2 = st.columns(2)
        b1.download_button("Save (move log)", session.to_log(), file_name=f"imperia-{session.seed}.jsonl",
                           mime="application/jsonl", key="imperia_play_save", width="stretch")
        b2.button("New game", on_click=_new_game, key="imperia_play_new", width="stretch")


def _front_line(state, me: int) -> str:
    if state.decision_name() != "turn" or state.cube[me] < 0:
        return ""
    f, n = state.cube[me], next_space(state, me)
    where = f"{n >> 3},{n & 7}" if n >= 0 else "off the board or none (a warlord front)"
    return f" Your front is {f >> 3},{f & 7}; its next space is {where} (§6.1)."


def choose(session: PlaySession) -> None:
    """The legal actions by kind: a kind, then one of its actions, then Play."""
    groups = grouped(session)
    ply = len(session.actions)  # widget keys per decision: the options change with it
    kinds = list(groups)
    kind = st.radio("Kind", kinds, horizontal=True, key=f"imperia_play_kind_{ply}") if len(kinds) > 1 else kinds[0]
    actions = groups[kind]
    text = session.state.action_to_string
    action = st.selectbox(f"{len(actions)} choices of {kind}", actions, format_func=text,
                          key=f"imperia_play_action_{ply}")
    st.button("Play", icon=":material/play_arrow:", type="primary", key="imperia_play_move", on_click=_play,
              args=(action,), width="stretch")


def hands_table(view: dict, me: int) -> str:
    """Your hand by tile type; the others' hands and piles as counts only (§7.2)."""
    rows = ["| player | hand | pile | status |", "|---|---|---|---|"]
    for entry in view["players"]:
        seat = entry["seat"]
        if seat == me:
            hand = ", ".join(f"{count}× {name}" for name, count in entry["hand"].items()) or "empty"
        else:
            hand = f"{entry['hand_size']} tiles"
        mark = " (you)" if seat == me else ""
        rows.append(f"| {who(seat)}{mark} | {hand} | {entry['pile_size']} | {entry['status']} |")
    return "**Hands and piles**\n\n" + "\n".join(rows)


def scores_table(state) -> str:
    parts = ", ".join(f"{player_label(p)} {t.total}" for p, t in enumerate(tallies(state)))
    word = "Final" if state.is_terminal() else "Provisional"
    return f"**{word} scores** ({section_link('§9', rule_title('§9'))}): {parts}"


def _action_text(step, me: int) -> str:
    """A move's text, without the tile of another seat's draw (hidden, §7.2)."""
    drawn = next((e for e in step.events if e["kind"] == "drawn"), None)
    if step.player == CHANCE and drawn is not None and drawn["seat"] != me:
        return f"draw {step.text.split()[1]} (hidden)"
    return step.text


def what_happened(steps: list, me: int) -> None:
    if not steps:
        return
    lines = []
    for step in steps:
        actor = "Chance" if step.player == CHANCE else ("You" if step.player == me else player_label(step.player))
        lines.append(f"- **{actor}**: `{_action_text(step, me)}`")
        for event in step.events:
            lines.append(f"    - {explain(event, viewer=me)} ({section_link(event['rule'])})")
    with st.expander(f"What happened ({len(steps)} moves since your last)", expanded=True):
        with st.container(height=260):
            st.markdown("\n".join(lines))


def main() -> None:
    st.title("Imperia against bots")
    session = st.session_state.get(SESSION)
    if session is None:
        start_form()
        return
    try:
        game(session)
    except ImperialError as exc:
        frame.show_error("The game cannot go on.", exc)


main()
