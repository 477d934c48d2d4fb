"""Imperia explorer: step through one game of Imperia action by action and see its board (the
terrain, the castle, fortresses, stacks with their top tiles and facings, the fronts), what each
action did in plain words with the RULES.md section it follows, the players' hands and piles, and the
scores (§9): provisional on the way, final at the end.

The game is an uploaded move log (JSON Lines, imperial_lab.core.gamelog; ``imperial play --game imperia --log
x.jsonl`` writes one), a sample game played here by the heuristic bots, or, when the catalogue holds
Imperia games with their logs (an ``im_games`` table with a ``log`` column), a game of a run. The log
is replayed once into snapshots (imperial_lab.dashboard.games.imperia.replay), cached by its digest as a
resource (st.cache_data would unpickle every position on each run); the step controls and the views
are one fragment, so a step reruns only them. Keys: ← Back, → Next, Home First, End Last.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass, field

import streamlit as st

from imperial_lab.core.errors import ImperialError, LogError
from imperial_lab.dashboard.games.imperia.boardview import show_board
from imperial_lab.core.games.imperia.explain import explain, who
from imperial_lab.dashboard.games.imperia.replay import Replay, Snapshot, replay_text
from imperial_lab.core.games.imperia.rules_text import REFERENCE
from imperial_lab.dashboard import frame
from imperial_lab.dashboard.style import player_label

STEP_KEY, PEEK_KEY, SHOWN_KEY = "imperia_step", "imperia_no_peeking", "imperia_shown"
SOURCE_KEY, UPLOAD_KEY, OPEN_KEY = "imperia_source", "imperia_upload", "imperia_open"
UPLOAD, SAMPLE, CATALOGUE = "an uploaded move log", "a sample game (heuristic bots)", "a game of the catalogue"


@dataclass(frozen=True)
class OpenLog:
    name: str
    digest: str  # SHA-256 of the text: the replay's cache key
    text: str = field(repr=False)  # kept: the uploader forgets its file on another page


def open_log(name: str, text: str) -> OpenLog:
    return OpenLog(name, hashlib.sha256(text.encode()).hexdigest(), text)


# ----- cached work -----

@st.cache_resource(show_spinner="Replaying the move log…", max_entries=16)
def _replay(digest: str, _text: str, name: str) -> Replay:
    return replay_text(_text, name)


@st.cache_data(show_spinner="Playing a sample game…", max_entries=16)
def sample_log(players: int, seed: int) -> str:
    """A game of heuristic bots as a move log."""
    from imperial_lab.core.bots import make_bot
    from imperial_lab.core.gamelog import write_log
    from imperial_lab.core.play import play_game

    bots = [make_bot("heuristic", seed * 10 + p, game="imperia") for p in range(players)]
    played = play_game({"game": "imperia", "players": players}, bots, seed=seed, record=True)
    out = io.StringIO()
    write_log(out, played, seed=seed, bots=["heuristic"] * players)
    return out.getvalue()


@st.cache_data(show_spinner=False, ttl=60)
def catalogue_games(catalog: str):
    """The catalogue's Imperia games with a move log (run, game_id), None when it has no ``im_games``
    table (or cannot be read)."""
    from imperial_lab.dashboard.queries import fetch

    try:
        found = fetch(catalog, "SELECT count(*) AS n FROM information_schema.tables WHERE table_name = 'im_games'")
        if int(found["n"].iloc[0]) == 0:
            return None
        return fetch(catalog, "SELECT run, game_id FROM im_games WHERE log IS NOT NULL ORDER BY run, game_id")
    except (ImperialError, OSError):
        return None


def _catalogue_log(catalog: str, run: str, game_id: int) -> str | None:
    from imperial_lab.dashboard.queries import fetch

    rows = fetch(catalog, "SELECT log FROM im_games WHERE run = ? AND game_id = ?", [run, game_id])
    return None if rows.empty else rows["log"].iloc[0]


# ----- choosing the game -----

def choose() -> OpenLog | None:
    """The source and the game; the open log is kept in the session (another page drops widgets)."""
    catalog = str(frame.catalog_path())
    games = catalogue_games(catalog)
    sources = (UPLOAD, SAMPLE) + ((CATALOGUE,) if games is not None and not games.empty else ())
    if st.session_state.get(SOURCE_KEY) not in sources:
        st.session_state[SOURCE_KEY] = st.session_state.get("kept:" + SOURCE_KEY, UPLOAD)
        if st.session_state[SOURCE_KEY] not in sources:
            st.session_state[SOURCE_KEY] = UPLOAD
    left, right = st.columns([1, 2.4], vertical_alignment="center")
    source = left.radio("Explore", sources, key=SOURCE_KEY, on_change=_keep_source)
    with right:
        if source == UPLOAD:
            st.file_uploader("Move log", type=["jsonl", "json", "txt"], key=UPLOAD_KEY, on_change=_keep_upload,
                             help="a game record in JSON Lines, e.g. from `imperial play --game imperia --log x.jsonl`")
            kept = st.session_state.get(OPEN_KEY)
            if kept is None:
                st.info("Upload an Imperia move log, or open a sample game.")
            elif st.session_state.get(UPLOAD_KEY) is None:
                st.caption(f"Open: {frame.code_span(kept.name)} (upload another log to replace it)")
        elif source == SAMPLE:
            a, b = st.columns(2)
            players = a.selectbox("Players", (2, 3, 4), index=2, key="imperia_sample_players")
            seed = b.number_input("Seed", 0, 10**6, 1, key="imperia_sample_seed")
            st.session_state[OPEN_KEY] = open_log(f"sample {players} players seed {seed}",
                                                  sample_log(players, int(seed)))
        else:
            labels = {(row.run, int(row.game_id)): f"{row.run} · game {row.game_id}" for row in games.itertuples()}
            chosen = st.selectbox("Game", list(labels), format_func=labels.get, key="imperia_catalogue_game")
            text = _catalogue_log(catalog, *chosen)
            if text is not None:
                st.session_state[OPEN_KEY] = open_log(labels[chosen], text)
    return st.session_state.get(OPEN_KEY)


def _keep_source() -> None:
    st.session_state["kept:" + SOURCE_KEY] = st.session_state[SOURCE_KEY]


def _keep_upload() -> None:
    file = st.session_state[UPLOAD_KEY]
    if file is not None:
        st.session_state[OPEN_KEY] = open_log(file.name, file.getvalue().decode("utf-8", errors="replace"))


# ----- the step controls and the views (a fragment) -----

def go(step: int) -> None:
    st.session_state[STEP_KEY] = step


def explorer(replay: Replay) -> None:
    last = len(replay.snapshots) - 1
    here = min(st.session_state.get(STEP_KEY, 0), last)
    st.session_state[STEP_KEY] = here
    cols = st.columns([1, 1, 1, 1, 1.6], vertical_alignment="center")
    targets = (("First", ":material/first_page:", 0, "Home"), ("Back", ":material/chevron_left:", here - 1, "Left"),
               ("Next", ":material/chevron_right:", here + 1, "Right"), ("Last", ":material/last_page:", last, "End"))
    for col, (label, icon, k, key) in zip(cols, targets):
        col.button(label, icon=icon, key=f"imperia_{label.lower()}", on_click=go, args=(min(max(k, 0), last),),
                   width="stretch", shortcut=key, help=f"{label} step ({key})")
    cols[4].toggle("No peeking", key=PEEK_KEY,
                   help="only what a player at the table sees: the top tiles and heights of the stacks, the "
                        "size of each hand (§7.2); otherwise hover a space for its whole stack")
    if last > 0:
        st.slider("Step", 0, last, key=STEP_KEY, label_visibility="collapsed")
    snapshot = replay.snapshots[st.session_state[STEP_KEY]]
    st.session_state[SHOWN_KEY] = snapshot.index
    views(snapshot, last, st.session_state.get(PEEK_KEY, False))


def heading(snapshot: Snapshot, last: int) -> str:
    if snapshot.index == 0:
        return "Before the first action"
    actor = "Chance" if snapshot.player < 0 else who(snapshot.player)
    return f"Step {snapshot.index} of {last} · {actor}"


def changed_spaces(events: list) -> list[tuple[int, int]]:
    spaces = []
    for event in events:
        for key in ("space", "from", "to", "a", "b"):
            if isinstance(event.get(key), str) and "," in event[key]:
                r, c = event[key].split(",")
                spaces.append((int(r), int(c)))
    return spaces


def views(snapshot: Snapshot, last: int, no_peeking: bool) -> None:
    st.subheader(heading(snapshot, last))
    lines = [f"`{snapshot.text}`"] if snapshot.text else ["The game's configuration, before any action."]
    for event in snapshot.events:
        rule = event["rule"]
        lines.append(f"- {REFERENCE.link_all(explain(event, snapshot.position))} ({REFERENCE.link(rule, REFERENCE.title(rule))})")
    board, side = st.columns([1.1, 1])  # the board beside the step's words: both on a laptop's screen
    with board:
        show_board(snapshot.position, no_peeking, changed_spaces(snapshot.events))
    with side:
        if snapshot.terminal:
            st.success("**Game over.** " + explain(snapshot.events[-1]), icon=":material/trophy:")
        st.markdown("\n".join(lines))
        st.markdown(players_table(snapshot, no_peeking))
        st.markdown(scores_table(snapshot))


def _hand(entry: dict, no_peeking: bool) -> str:
    hand = entry.get("hand", {})
    if no_peeking or not hand:
        return f"{sum(hand.values())} tiles"
    return ", ".join(f"{count}× {name}" for name, count in hand.items())


def players_table(snapshot: Snapshot, no_peeking: bool) -> str:
    """Each player's hand (its tiles, or only its size with no peeking), pile, front and warlord."""
    to_move = snapshot.position["to_move"]
    rows = ["| player | hand | pile | front | warlord |", "|---|---|---|---|---|"]
    for entry in snapshot.position["players"]:
        mark = " ◀" if entry["seat"] == to_move else ""
        front = ",".join(map(str, entry["cube"])) if entry["cube"] else "–"
        warlord = ",".join(map(str, entry["warlord"])) if entry["warlord"] else entry["status"]
        rows.append(f"| {who(entry['seat'])}{mark} | {_hand(entry, no_peeking)} | {sum(entry['pile'].values())} "
                    f"| {front} | {warlord} |")
    return "**Players** (◀ to move)\n\n" + "\n".join(rows)


def scores_table(snapshot: Snapshot) -> str:
    """§9 for every player: the scoring formation's points, the ring bonus, the warlord penalty, the
    total (provisional before the end), and the tie-break height."""
    best = max((t.total, t.warlord_height) for t in snapshot.tallies)
    rows = ["| player | formation | points | ring | penalty | total | warlord height |", "|---|---|---|---|---|---|---|"]
    for seat, t in enumerate(snapshot.tallies):
        total = f"**{t.total}**" if snapshot.terminal and (t.total, t.warlord_height) == best else str(t.total)
        rows.append(f"| {player_label(seat)} | {len(t.formation)} spaces | {t.raw} | +{t.ring} | −{t.penalty} | "
                    f"{total} | {t.warlord_height} |")
    title = "Final scores" if snapshot.terminal else "Provisional scores (the board as it stands)"
    return f"**{title}** ({REFERENCE.link('§9', REFERENCE.title('§9'))})\n\n" + "\n".join(rows)


# ----- the page -----

def main() -> None:
    st.title("Imperia explorer")
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
    if st.session_state.get("imperia_game") != opened.digest:  # another game: start at its beginning
        st.session_state["imperia_game"] = opened.digest
        st.session_state[STEP_KEY] = 0
    elif STEP_KEY not in st.session_state:  # back from another page: Streamlit forgot the slider
        st.session_state[STEP_KEY] = st.session_state.get(SHOWN_KEY, 0)
    st.fragment(explorer)(replay)


main()
