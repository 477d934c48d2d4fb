"""Imperial Powers explorer: step through one game action by action, or jump by turn and phase, and see
the world map (each region's counters, value, influence by seat, Leader and event), what the action
did in plain words with the RULES.md sections and rulings it follows, and each player's power, VP,
cards and strip.

**Viewpoint.** "everything" shows every hand, strip and face-down card; "a spectator" only what every
seat sees; "what Player X sees" renders the page from ``state.observation(X)`` alone (§6.2): the
other seats' hands and strips are counts, their deals, bids and Tactics moves are told without the
card or the slot, and no region of a hidden bid is ringed.

The game is an uploaded move log (JSON Lines, imperial_lab.core.gamelog; ``imperial play --game imperial_powers
--log x.jsonl`` writes one), a sample game played here by bots, or, when the catalogue holds
Imperial Powers games with their logs (an ``ip_games`` table with a ``log`` column), a game of a run.
The log is replayed once into snapshots (imperial_lab.dashboard.games.imperial_powers.replay), cached by its
digest as a resource (st.cache_data would unpickle every state on each run); the step controls and
the views are one fragment, so a step reruns only them. Keys: ← Back, → Next, Home First, End Last,
PageUp / PageDown the previous / next phase.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass, field

import streamlit as st

from imperial_lab.core.errors import ImperialError, LogError
from imperial_lab.core.games.imperial_powers.explain import (EVERYTHING, PUBLIC, changed_regions, context_of, explain,
                                                          seeing)
from imperial_lab.dashboard.games.imperial_powers.boardview import piles_line, players_table, powers_of, show_map, view_of
from imperial_lab.dashboard.games.imperial_powers.replay import Replay, Snapshot, replay_text
from imperial_lab.core.games.imperial_powers.rules_text import REFERENCE
from imperial_lab.core.games.imperial_powers.steps import step_text
from imperial_lab.core.games.imperial_powers.words import who
from imperial_lab.core.registry import plugin
from imperial_lab.dashboard import frame

STEP_KEY, SHOWN_KEY, VIEW_KEY, JUMP_KEY = "ip_step", "ip_shown", "ip_viewpoint", "ip_jump"
SOURCE_KEY, UPLOAD_KEY, OPEN_KEY, GAME_KEY = "ip_source", "ip_upload", "ip_open", "ip_game"
UPLOAD, SAMPLE, CATALOGUE = "an uploaded move log", "a sample game (bots)", "a game of the catalogue"
GAME = "imperial_powers"


@dataclass(frozen=True)
class OpenLog:
    name: str
    digest: str  # SHA-256 of the text: the replay's cache key
    text: str = field(repr=False)  # kept: the uploader forgets its file on another page


def open_log(name: str, text: str) -> OpenLog:
    return OpenLog(name, hashlib.sha256(text.encode()).hexdigest(), text)


def sample_bot() -> str:
    """The sample's bots: the game's heuristic when it has one, else random."""
    return "heuristic" if "heuristic" in plugin(GAME).bots else "random"


# ----- cached work -----

@st.cache_resource(show_spinner="Replaying the move log…", max_entries=16)
def _replay(digest: str, _text: str, name: str) -> Replay:
    return replay_text(_text, name)


@st.cache_data(show_spinner="Playing a sample game…", max_entries=16)
def sample_log(players: int, seed: int, bot: str) -> str:
    """A game of ``bot`` in every seat as a move log."""
    from imperial_lab.core.bots import make_bot
    from imperial_lab.core.gamelog import write_log
    from imperial_lab.core.play import play_game

    bots = [make_bot(bot, seed * 10 + p, game=GAME) for p in range(players)]
    played = play_game({"game": GAME, "players": players}, bots, seed=seed, record=True)
    out = io.StringIO()
    write_log(out, played, seed=seed, bots=[bot] * players)
    return out.getvalue()


@st.cache_data(show_spinner=False, ttl=60)
def catalogue_games(catalog: str):
    """The catalogue's Imperial Powers games with a move log (run, game_id); None when it has no
    ``ip_games`` table with ``run``, ``game_id`` and ``log`` columns (or cannot be read)."""
    from imperial_lab.dashboard.queries import fetch

    try:
        found = fetch(catalog, "SELECT count(*) AS n FROM information_schema.columns WHERE table_name = 'ip_games' "
                               "AND column_name IN ('run', 'game_id', 'log')")
        if int(found["n"].iloc[0]) < 3:
            return None
        return fetch(catalog, "SELECT run, game_id FROM ip_games WHERE log IS NOT NULL ORDER BY run, game_id")
    except (ImperialError, OSError):
        return None


def _catalogue_log(catalog: str, run: str, game_id: int) -> str | None:
    from imperial_lab.dashboard.queries import fetch

    rows = fetch(catalog, "SELECT log FROM ip_games WHERE run = ? AND game_id = ?", [run, game_id])
    return None if rows.empty else rows["log"].iloc[0]


# ----- choosing the game -----

def choose() -> OpenLog | None:
    """The source and the game; the open log is kept in the session (another page drops widgets)."""
    catalog = str(frame.catalog_path())
    games = catalogue_games(catalog)
    sources = (UPLOAD, SAMPLE) + ((CATALOGUE,) if games is not None and not games.empty else ())
    if st.session_state.get(SOURCE_KEY) not in sources:
        kept = st.session_state.get("kept:" + SOURCE_KEY)
        st.session_state[SOURCE_KEY] = kept if kept in sources else UPLOAD
    kept = st.session_state.get(OPEN_KEY)
    # Folded once a game is open, so the step controls and the map come up the screen.
    with st.expander("Game: " + (kept.name if kept else "none open"), expanded=kept is None,
                     icon=":material/folder_open:"):
        left, right = st.columns([1, 2.4], vertical_alignment="center")
        source = left.radio("Explore", sources, key=SOURCE_KEY, on_change=_keep_source)
        with right:
            if source == UPLOAD:
                _upload()
            elif source == SAMPLE:
                _sample()
            else:
                _catalogue(catalog, games)
    return st.session_state.get(OPEN_KEY)


def _upload() -> None:
    st.file_uploader("Move log", type=["jsonl", "json", "txt"], key=UPLOAD_KEY, on_change=_keep_upload,
                     help="a game record in JSON Lines, e.g. from `imperial play --game imperial_powers --log x.jsonl` "
                          "or the Play page's Save")
    kept = st.session_state.get(OPEN_KEY)
    if kept is None:
        st.info("Upload an Imperial Powers move log, or open a sample game.")
    elif st.session_state.get(UPLOAD_KEY) is None:
        st.caption(f"Open: {frame.code_span(kept.name)} (upload another log to replace it)")


def _sample() -> None:
    a, b, c = st.columns(3)
    players = a.selectbox("Players", (3, 4, 5), index=1, key="ip_sample_players")
    seed = b.number_input("Seed", 0, 10**6, 1, key="ip_sample_seed")
    bot = sample_bot()
    c.caption(f"Every seat: the {bot} bot.")
    st.session_state[OPEN_KEY] = open_log(f"sample {players} players seed {seed} ({bot})",
                                          sample_log(players, int(seed), bot))


def _catalogue(catalog: str, games) -> None:
    labels = {(row.run, int(row.game_id)): f"{row.run} · game {row.game_id}" for row in games.itertuples()}
    chosen = st.selectbox("Game", list(labels), format_func=labels.get, key="ip_catalogue_game")
    text = _catalogue_log(catalog, *chosen)
    if text is not None:
        st.session_state[OPEN_KEY] = open_log(labels[chosen], text)


def _keep_source() -> None:
    st.session_state["kept:" + SOURCE_KEY] = st.session_state[SOURCE_KEY]


def _keep_upload() -> None:
    file = st.session_state[UPLOAD_KEY]
    if file is not None:
        st.session_state[OPEN_KEY] = open_log(file.name, file.getvalue().decode("utf-8", errors="replace"))


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
    views(snapshot, last, st.session_state[VIEW_KEY])


def heading(snapshot: Snapshot, last: int, view: dict) -> str:
    if snapshot.index == 0:
        return "Before the first action"
    actor = "Chance" if snapshot.player < 0 else who(snapshot.player, powers_of(view))
    return f"Step {snapshot.index} of {last} · {actor} · {snapshot.stage}"


def views(snapshot: Snapshot, last: int, viewer) -> None:
    view = view_of(snapshot.state, viewer)
    st.subheader(heading(snapshot, last, view), anchor=False)
    if snapshot.terminal:
        st.success(explain(snapshot.events[-1], context_of(view)), icon=":material/trophy:")
    words, side = st.columns([1.6, 1])
    words.markdown(step_text(snapshot.text, snapshot.player, snapshot.events, context_of(view), viewer))
    side.caption(f"Seen as {seeing(viewer)}. {piles_line(view)}")
    show_map(view, changed_regions(snapshot.events, context_of(view), viewer))
    st.markdown(f"**Players** ({REFERENCE.link('§1.1', 'powers')}, {REFERENCE.link('§5.6', 'VP')}, "
                f"{REFERENCE.link('§6.2', 'what is hidden')})\n\n{players_table(view)}", unsafe_allow_html=True)


# ----- the page -----

def main() -> None:
    st.title("Imperial Powers explorer")
    opened = choose()
    if opened is None:
        return
    try:
        replay = _replay(opened.digest, opened.text, opened.name)
    except LogError as exc:
        frame.show_error(f"{frame.code_span(opened.name)}: this move log cannot be replayed.", exc)
        return
    if replay.error is not None:
        frame.show_error(f"{frame.code_span(opened.name)}, line {replay.error.line}: this line cannot be replayed. "
                         f"The game is shown up to the line before it.", replay.error.why)
    if st.session_state.get(GAME_KEY) != opened.digest:  # another game: start at its beginning
        st.session_state[GAME_KEY] = opened.digest
        st.session_state[STEP_KEY] = 0
    elif STEP_KEY not in st.session_state:  # back from another page: Streamlit forgot the slider
        st.session_state[STEP_KEY] = st.session_state.get(SHOWN_KEY, 0)
    st.fragment(explorer)(replay)


main()
