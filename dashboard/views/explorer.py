"""Game explorer: step through one game nation turn by nation turn (or action by action) and see
the map, the rondel, the nations, the bonds and what happened, every event with the rule behind it.

The game comes from the catalogue (the run picked in the frame's sidebar, or on this page when it
runs on its own) or from an uploaded move log. The log is replayed once into a timeline
(dashboard.timeline), cached; the step controls and the views are one fragment, so moving the
slider reruns only them.
"""

from __future__ import annotations

import hashlib
import os

import pandas as pd
import streamlit as st

from core.catalog import list_runs
from core.errors import LogError
from dashboard import frame
from dashboard.cards import nation_cards
from dashboard.explain import explain, rule_title
from dashboard.explorer_queries import game_log, run_games
from dashboard.mapview import map_figure
from dashboard.nationview import bonds_figure
from dashboard.rondelview import rondel_figure
from dashboard.rules_text import link_sections, section_link
from dashboard.style import NATION_NAMES, player_label
from dashboard.timeline import Snapshot, Timeline, event_groups, timeline_from_text

TURN_KEY, ACTION_KEY, PLAY_KEY = "explorer_turn", "explorer_action", "explorer_playing"
GAME_KEY, TICKING_KEY = "explorer_game", "explorer_ticking"
SHOWN_KEY = "explorer_shown_turn"  # the turn last shown, kept while another page drops the slider's state
CATALOGUE, UPLOAD = "a run of the catalogue", "an uploaded move log"
PLAY_SECONDS = 1.0  # one nation turn per second while playing


# ----- cached loading (keyed by the catalogue file's change time, so new runs show up) -----

@st.cache_data(show_spinner=False, max_entries=8)
def _runs(catalog: str, stamp: int) -> list[str]:
    return list_runs(catalog)["name"].tolist()


@st.cache_data(show_spinner=False, max_entries=64)
def _games(catalog: str, stamp: int, run: str) -> pd.DataFrame:
    return run_games(catalog, run)


@st.cache_data(show_spinner="Replaying the game…", max_entries=8)
def _catalogue_timeline(catalog: str, stamp: int, run: str, game_id: int) -> Timeline:
    return timeline_from_text(game_log(catalog, run, game_id), f"{run} game {game_id}")


@st.cache_data(show_spinner="Replaying the move log…", max_entries=8)
def _uploaded_timeline(digest: str, _text: str, name: str) -> Timeline:
    return timeline_from_text(_text, name)


def _stamp(catalog) -> int:
    return os.stat(catalog).st_mtime_ns if os.path.exists(catalog) else 0


# ----- choosing the game -----

def choose_game() -> tuple[tuple, Timeline] | None:
    """(a key naming the game, its timeline), or None when there is nothing to show yet."""
    # Side by side, so that the step controls and the top of the map fit a laptop's screen.
    left, right = st.columns([1, 3])
    source = left.radio("Explore", (CATALOGUE, UPLOAD), key="explorer_source")
    with right:
        return _from_catalogue() if source == CATALOGUE else _from_upload()


def _from_catalogue() -> tuple[tuple, Timeline] | None:
    catalog = frame.catalog_path()
    stamp = _stamp(catalog)
    runs = _runs(str(catalog), stamp) if stamp else []
    if not runs:
        st.info(f"The catalogue `{catalog}` has no runs yet: play some (`imperial simulate`) or upload a move log.")
        return None
    run = frame.selected_run()
    if run not in runs:  # the page runs on its own: no sidebar picker
        run = st.selectbox("Run", runs, key="explorer_run")
    else:
        st.caption(f"Run **{run}** (change it in the sidebar)")
    games = _games(str(catalog), stamp, run)
    games = games[games["has_log"]]
    if games.empty:
        st.info(f"Run {run} has no game with a move log.")
        return None
    labels = {row.game_id: _game_label(row) for row in games.itertuples()}
    game_id = st.selectbox("Game", list(labels), format_func=labels.get, key=f"explorer_game_of_{run}")
    try:
        return ("catalogue", str(catalog), run, game_id), _catalogue_timeline(str(catalog), stamp, run, game_id)
    except LogError as exc:  # a stored log of a failed game may stop on its error
        _log_error(exc)
        return None


def _game_label(row) -> str:
    if row.status == "finished":
        winners = " and ".join(player_label(p) for p in row.winners)
        return f"Game {row.game_id} · {winners} won · {row.nation_turns} nation turns ({row.rounds} rounds)"
    return f"Game {row.game_id} · {row.status} after {row.nation_turns} nation turns"


def _from_upload() -> tuple[tuple, Timeline] | None:
    upload = st.file_uploader("Move log", key="explorer_upload",
                              help="a game record in JSON Lines, as `imperial play --log` writes it "
                                   "(docs/formats.md, Game records)")
    if upload is None:
        st.info("Upload a move log to explore it, e.g. one written by `imperial play --log game.jsonl`.")
        return None
    data = upload.getvalue()
    digest = hashlib.sha256(data).hexdigest()
    try:
        # Undecodable bytes become U+FFFD, as core.gamelog reads files: a located error, not a crash.
        timeline = _uploaded_timeline(digest, data.decode("utf-8", errors="replace"), upload.name)
    except LogError as exc:
        _log_error(exc)
        return None
    return ("upload", digest), timeline


def _log_error(exc: LogError) -> None:
    why = str(exc).removeprefix(f"{exc.file}:{exc.line}: ")
    frame.show_error(f"{frame.code_span(exc.file)}, line {exc.line}: this move log cannot be replayed.", why)


# ----- the step controls and the views (a fragment) -----

def step_to(target: int) -> None:
    st.session_state[TURN_KEY] = target


def toggle_play() -> None:
    st.session_state[PLAY_KEY] = not st.session_state.get(PLAY_KEY, False)


def explorer(timeline: Timeline) -> None:
    """Controls, then the views of the chosen step. While playing, each run of the fragment (the
    timer's) advances one nation turn, and the last turn stops the play."""
    playing = st.session_state.get(PLAY_KEY, False)
    if playing != st.session_state.get(TICKING_KEY, False):
        st.rerun(scope="app")  # Play was pressed inside the fragment: restart it with (or without) its timer
    last = len(timeline.snapshots) - 1
    if playing:
        st.session_state[TURN_KEY] = min(st.session_state[TURN_KEY] + 1, last)
        if st.session_state[TURN_KEY] == last:
            st.session_state[PLAY_KEY] = False
    turn, toggle_slot = _controls(timeline, last, playing)
    st.session_state[SHOWN_KEY] = turn
    snapshot = timeline.snapshots[turn]
    position, groups = _chosen_step(snapshot, playing, toggle_slot)
    _views(snapshot, position, groups)


def _controls(timeline: Timeline, last: int, playing: bool) -> tuple[int, object]:
    """The step buttons and the turn slider: the chosen turn, and the row's free end (for the
    action-by-action toggle, which needs the chosen turn)."""
    turn = st.session_state[TURN_KEY]
    buttons = st.columns([1, 1, 1, 1, 1.1, 3], vertical_alignment="center")
    steps = (("First", ":material/first_page:", 0), ("Back", ":material/chevron_left:", max(turn - 1, 0)),
             ("Next", ":material/chevron_right:", min(turn + 1, last)), ("Last", ":material/last_page:", last))
    for col, (label, icon, target) in zip(buttons, steps):
        col.button(label, icon=icon, key=f"explorer_{label.lower()}", on_click=step_to, args=(target,),
                   disabled=playing, width="stretch")
    buttons[4].button("Pause" if playing else "Play", icon=":material/pause:" if playing else ":material/play_arrow:",
                      key="explorer_play", on_click=toggle_play, type="primary", width="stretch",
                      disabled=turn == last and not playing)
    turn = st.select_slider("Nation turn", options=range(last + 1), key=TURN_KEY, disabled=playing,
                            format_func=lambda k: _turn_label(timeline.snapshots[k]))
    return turn, buttons[5]


def _turn_label(snapshot: Snapshot) -> str:
    return "setup" if snapshot.turn == 0 else f"{snapshot.turn} · {snapshot.nation}"


def _chosen_step(snapshot: Snapshot, playing: bool, toggle_slot) -> tuple[dict, list]:
    """The position and event groups to show: the whole turn, or one of its actions."""
    by_action = toggle_slot.toggle("Action by action", key="explorer_by_action",
                                   disabled=playing or not snapshot.actions,
                                   help="step through the actions of this turn: the views show the position "
                                        "after the chosen action and its events")
    if not by_action or playing or not snapshot.actions:
        return snapshot.position, event_groups(snapshot)
    steps = {a.index: a for a in snapshot.actions}
    if st.session_state.get(ACTION_KEY) not in steps:
        st.session_state[ACTION_KEY] = snapshot.actions[0].index
    index = st.select_slider("Action", options=list(steps), key=ACTION_KEY,
                             format_func=lambda i: f"{i} · {steps[i].text}")
    return steps[index].position, [(steps[index], steps[index].events)]


def _views(snapshot: Snapshot, position: dict, groups: list) -> None:
    st.subheader(_heading(snapshot))
    st.plotly_chart(map_figure(position, height=600), key="explorer_map", config={"scrollZoom": True})
    happened, rondel = st.columns([1.3, 1])
    with happened:
        st.markdown("**What happened**")
        with st.container(height=360):
            _events(groups, snapshot.nation)
    with rondel:
        st.markdown(f"**Rondel** ({section_link('§6', '§6')})")
        st.plotly_chart(rondel_figure(position, snapshot.nation), key="explorer_rondel")
    nation_cards(position, snapshot.nation)
    st.markdown(f"**Bonds**: credit sums ({section_link('§9', '§9')}) with the bond numbers; ★ marks the government")
    st.plotly_chart(bonds_figure(position), key="explorer_bonds")


def _heading(snapshot: Snapshot) -> str:
    if snapshot.turn == 0:
        return "Setup"
    return (f"Turn {snapshot.turn} · round {snapshot.round} · {NATION_NAMES[snapshot.nation]}, "
            f"governed by {player_label(snapshot.government)}")


def _events(groups: list, active: str | None) -> None:
    """The events in plain language under the action that caused them, then the rules they cite."""
    for step, events in groups:
        if step is not None:
            who = "Chance" if step.player < 0 else player_label(step.player)
            st.markdown(f"**{step.index}. {who}:** `{step.text}`")
        st.markdown("\n".join(f"- {link_sections(explain(event, active))}" for event in events))
    rules = dict.fromkeys(event["rule"] for _, events in groups for event in events)
    if rules:
        st.caption("Rules: " + " · ".join(section_link(rule, rule_title(rule)) for rule in rules))


# ----- the page -----

def main() -> None:
    st.title("Game explorer")
    chosen = choose_game()
    if chosen is None:
        return
    key, timeline = chosen
    if st.session_state.get(GAME_KEY) != key:  # another game: start at its setup, not playing
        st.session_state[GAME_KEY] = key
        st.session_state[TURN_KEY] = 0
        st.session_state[PLAY_KEY] = False
    elif TURN_KEY not in st.session_state:  # back from another page: Streamlit forgot the slider, not the turn
        st.session_state[TURN_KEY] = st.session_state.get(SHOWN_KEY, 0)
    playing = st.session_state[PLAY_KEY]
    st.session_state[TICKING_KEY] = playing
    st.fragment(explorer, run_every=PLAY_SECONDS if playing else None)(timeline)


main()
