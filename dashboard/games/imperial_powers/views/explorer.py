"""Imperial Powers explorer: step through one game action by action, or jump by turn and phase, and see
the world map (each region's counters, value, influence by seat, Leader and event), what the action
did in plain words with the RULES.md sections and rulings it follows, and each player's power, VP,
cards and strip.

**Viewpoint.** "everything" shows every hand, strip and face-down card; "a spectator" only what every
seat sees; "what Player X sees" renders the page from ``state.observation(X)`` alone (§6.2): the
other seats' hands and strips are counts, their deals, bids and Tactics moves are told without the
card or the slot, and no region of a hidden bid is ringed. Under the map, each player's chance to win
at every turn's Bid as the learned evaluator judges it: from public information only, so the same
from every viewpoint (the shared chart of imperial_lab.dashboard.logkit); a click goes to the Bid clicked.

The game is a game of the run the sidebar picked, a sample game played here by bots, or an uploaded
move log (JSON Lines, imperial_lab.core.gamelog; ``imperial play --game imperial_powers --log x.jsonl``
writes one): the shared chooser of imperial_lab.dashboard.logkit. The log is replayed once into
snapshots (imperial_lab.dashboard.games.imperial_powers.replay); the step controls and the views are one
fragment, so a step reruns only them. Keys: ← Back, → Next, Home First, End Last,
PageUp / PageDown the previous / next phase.
"""

from __future__ import annotations

import streamlit as st

from imperial_lab.core.games.imperial_powers.explain import EVERYTHING, PUBLIC, changed_regions, context_of, explain, seeing
from imperial_lab.core.games.imperial_powers.rules_text import REFERENCE
from imperial_lab.core.games.imperial_powers.steps import step_text
from imperial_lab.core.games.imperial_powers.words import who
from imperial_lab.dashboard.games.imperial_powers.boardview import piles_line, players_table, powers_of, show_map, view_of
from imperial_lab.dashboard.games.imperial_powers.replay import Replay, Snapshot
from imperial_lab.dashboard.logkit import ChanceWords, LogChooser

STEP_KEY, SHOWN_KEY, VIEW_KEY, JUMP_KEY = "ip_step", "ip_shown", "ip_viewpoint", "ip_jump"
CHOOSER = LogChooser("ip", "imperial_powers", "ip_games", "imperial_lab.dashboard.games.imperial_powers.replay",
                     players=(3, 4, 5), default_players=1)


def _turn(k: int, action: int, mover: int) -> str:
    """Step k of the chance line (a Bid begins; the swing to the next: the whole turn) as its turn: "Turn 3"."""
    return f"Turn {k + 1}"


# The chance line's steps: the start of every turn's Bid, every hand dealt (the evaluator's checkpoints).
CHANCE_WORDS = ChanceWords("turn (at its Bid)", "at the start of every turn's Bid", _turn)


# ----- the step controls and the views (a fragment) -----

def go(step: int) -> None:
    st.session_state[STEP_KEY] = step


def jump(starts: list[int]) -> None:
    st.session_state[STEP_KEY] = starts[st.session_state[JUMP_KEY]]


def targets(replay: Replay, here: int) -> tuple:
    """(name, label, icon, step, key) of each step button: First, the phase before, Back, Next, the
    next phase, Last. The phase before is the start of this one when the step is inside it."""
    last = len(replay.snapshots) - 1
    starts = [start for _, start in replay.stages]
    k = replay.stage_at(here)
    earlier = starts[k] if here > starts[k] else starts[max(k - 1, 0)]
    later = starts[k + 1] if k + 1 < len(starts) else last
    return (("first", "First", ":material/first_page:", 0, "Home"),
            ("phase_back", "« Phase", None, earlier, "PageUp"),
            ("back", "Back", ":material/chevron_left:", max(here - 1, 0), "Left"),
            ("next", "Next", ":material/chevron_right:", min(here + 1, last), "Right"),
            ("phase_next", "Phase »", None, later, "PageDown"),
            ("last", "Last", ":material/last_page:", last, "End"))


def viewpoints(replay: Replay) -> list:
    return [EVERYTHING, PUBLIC, *range(replay.players)]


def viewpoint_label(viewer, powers: list) -> str:
    if viewer == EVERYTHING:
        return "everything"
    if viewer == PUBLIC:
        return "a spectator"
    return who(viewer, powers)


def explorer(replay: Replay) -> None:
    last = len(replay.snapshots) - 1
    here = min(st.session_state.get(STEP_KEY, 0), last)
    st.session_state[STEP_KEY] = here
    cols = st.columns([1, 1.3, 1, 1, 1.3, 1], vertical_alignment="center")  # a phase button's key hint is long
    for col, (name, label, icon, k, key) in zip(cols, targets(replay, here)):
        col.button(label, icon=icon, key=f"ip_{name}", on_click=go, args=(k,), width="stretch", shortcut=key,
                   help=f"{name.replace('_', ' ').capitalize()} ({key})")
    stages = replay.stages
    st.session_state[JUMP_KEY] = replay.stage_at(here)
    slider, jumper = st.columns([3, 1], vertical_alignment="center")
    if last > 0:
        slider.slider("Step", 0, last, key=STEP_KEY, label_visibility="collapsed")
    jumper.selectbox("Jump to", range(len(stages)), format_func=lambda k: stages[k][0], key=JUMP_KEY,
                     on_change=jump, args=([start for _, start in stages],), label_visibility="collapsed",
                     help="the start of a turn's phase (PageUp / PageDown: the phase before / after)")
    powers = powers_of(view_of(replay.snapshots[-1].state, PUBLIC))  # the powers chosen, for the labels
    options = viewpoints(replay)
    if st.session_state.get(VIEW_KEY) not in options:  # a game with fewer seats: back to everything
        st.session_state[VIEW_KEY] = EVERYTHING
    st.radio("Viewpoint: what each sees", options, key=VIEW_KEY, horizontal=True,
             format_func=lambda v: viewpoint_label(v, powers),
             help="everything: every card; a spectator: the public part; a seat: only what that seat may see at "
                  "that moment (§6.2)")
    snapshot = replay.snapshots[st.session_state[STEP_KEY]]
    st.session_state[SHOWN_KEY] = snapshot.index
    views(snapshot, last, st.session_state[VIEW_KEY], replay)


def heading(snapshot: Snapshot, last: int, view: dict) -> str:
    if snapshot.index == 0:
        return "Before the first action"
    actor = "Chance" if snapshot.player < 0 else who(snapshot.player, powers_of(view))
    return f"Step {snapshot.index} of {last} · {actor} · {snapshot.stage}"


def views(snapshot: Snapshot, last: int, viewer, replay: Replay | None = None) -> None:
    """The step through ``viewer``'s eyes: its words, the map, the chances to win under it (of
    ``replay``'s game: public, the same for every viewer), the players."""
    view = view_of(snapshot.state, viewer)
    st.subheader(heading(snapshot, last, view), anchor=False)
    if snapshot.terminal:
        st.success(explain(snapshot.events[-1], context_of(view)), icon=":material/trophy:")
    words, side = st.columns([1.6, 1])
    words.markdown(step_text(snapshot.text, snapshot.player, snapshot.events, context_of(view), viewer))
    side.caption(f"Seen as {seeing(viewer)}. {piles_line(view)}")
    show_map(view, changed_regions(snapshot.events, context_of(view), viewer))
    if replay is not None:
        public = powers_of(view_of(replay.snapshots[-1].state, PUBLIC))  # the powers chosen: public
        CHOOSER.show_chances(replay, snapshot.index, STEP_KEY, CHANCE_WORDS,
                             names=[who(seat, public) for seat in range(replay.players)])
    st.markdown(f"**Players** ({REFERENCE.link('§1.1', 'powers')}, {REFERENCE.link('§5.6', 'VP')}, "
                f"{REFERENCE.link('§6.2', 'what is hidden')})\n\n{players_table(view)}", unsafe_allow_html=True)


# ----- the page -----

def main() -> None:
    st.title("Imperial Powers explorer")
    replay = CHOOSER.open_replay(STEP_KEY, SHOWN_KEY)
    if replay is not None:
        st.fragment(explorer)(replay)


main()
