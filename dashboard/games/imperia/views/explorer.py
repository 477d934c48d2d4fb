"""Imperia explorer: step through one game of Imperia action by action and see its board (the
terrain, the castle, fortresses, stacks with their top tiles and facings, the fronts), what each
action did in plain words with the RULES.md section it follows, the players' hands and piles, and the
scores (§9): provisional on the way, final at the end. Under the board, each player's chance to win
after every placement turn as the learned evaluator judges it from public information (the shared
chart of imperial_lab.dashboard.logkit), the shown step marked; a click goes to the turn clicked.

The game is a game of the run the sidebar picked, a sample game played here by the heuristic bots,
or an uploaded move log (JSON Lines, imperial_lab.core.gamelog; ``imperial play --game imperia --log
x.jsonl`` writes one): the shared chooser of imperial_lab.dashboard.logkit. The log is replayed once
into snapshots (imperial_lab.dashboard.games.imperia.replay); the step controls and the views are one
fragment, so a step reruns only them. Keys: ← Back, → Next, Home First, End Last.
"""

from __future__ import annotations

import streamlit as st

from imperial_lab.core.games.imperia.action_words import action_words
from imperial_lab.core.games.imperia.explain import explain
from imperial_lab.core.games.imperia.rules_text import REFERENCE
from imperial_lab.core.games.imperia.data import data
from imperial_lab.core.games.imperia.words import hand_words, who
from imperial_lab.core.interface import seat_name
from imperial_lab.core.words import count
from imperial_lab.dashboard.games.imperia.boardview import COLOURS, show_board
from imperial_lab.dashboard.games.imperia.replay import Replay, Snapshot
from imperial_lab.dashboard.logkit import ChanceWords, LogChooser
from imperial_lab.dashboard.style import player_label

STEP_KEY, PEEK_KEY, SHOWN_KEY = "imperia_step", "imperia_no_peeking", "imperia_shown"
CHOOSER = LogChooser("imperia", "imperia", "im_games", "imperial_lab.dashboard.games.imperia.replay",
                     players=(2, 3, 4), default_players=2)
# The chance line's steps: the start of every placement turn (the evaluator's checkpoints).
CHANCE_WORDS = ChanceWords("placement turn", "after every placement turn",
                           lambda k, action, mover: f"{seat_name(mover)}'s placement turn {k + 1}")


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
    views(snapshot, last, st.session_state.get(PEEK_KEY, False), replay)


def chances(replay: Replay, here: int) -> None:
    """Each player's chance to win after every placement turn (public information only, so with or
    without peeking), in the seats' colours."""
    seats = range(replay.players)
    CHOOSER.show_chances(replay, here, STEP_KEY, CHANCE_WORDS, names=[who(seat) for seat in seats],
                         colours=[COLOURS.get(data().colours[seat], "#666") for seat in seats])


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


def views(snapshot: Snapshot, last: int, no_peeking: bool, replay: Replay | None = None) -> None:
    """The step: its words beside the board, the chances to win under them (of ``replay``'s game), then
    the players and the scores."""
    st.subheader(heading(snapshot, last))
    lines = ([f"**{action_words(snapshot.text)}** · `{snapshot.text}`"] if snapshot.text
             else ["The game's configuration, before any action."])
    for event in snapshot.events:
        rule = event["rule"]
        lines.append(f"- {REFERENCE.link_all(explain(event, snapshot.position))} "
                     f"({REFERENCE.link(rule, REFERENCE.title(rule))})")
    board, side = st.columns([1.1, 1])  # the board beside the step's words: both on a laptop's screen
    with board:
        show_board(snapshot.position, no_peeking, changed_spaces(snapshot.events))
    with side:
        if snapshot.terminal:
            st.success("**Game over.** " + explain(snapshot.events[-1]), icon=":material/trophy:")
        st.markdown("\n".join(lines))
    if replay is not None:
        chances(replay, snapshot.index)
    # Full width: the tables have seven columns, too many for the side of the board.
    players, scores = st.columns([1, 1.25])
    players.markdown(players_table(snapshot, no_peeking))
    scores.markdown(scores_table(snapshot))


def _hand(entry: dict, no_peeking: bool) -> str:
    hand = entry.get("hand", {})
    if no_peeking or not hand:
        return count(sum(hand.values()), "tile")
    return hand_words(hand)


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
        rows.append(f"| {player_label(seat)} | {count(len(t.formation), 'space')} | {t.raw} | +{t.ring} | −{t.penalty} | "
                    f"{total} | {t.warlord_height} |")
    title = "Final scores" if snapshot.terminal else "Provisional scores (the board as it stands)"
    return f"**{title}** ({REFERENCE.link('§9', REFERENCE.title('§9'))})\n\n" + "\n".join(rows)


# ----- the page -----

def main() -> None:
    st.title("Imperia explorer")
    replay = CHOOSER.open_replay(STEP_KEY, SHOWN_KEY)
    if replay is not None:
        st.fragment(explorer)(replay)


main()
