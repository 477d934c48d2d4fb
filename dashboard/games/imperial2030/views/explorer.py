"""Game explorer: step through one game nation turn by nation turn (or action by action) and see
the map, the rondel, the nations, the bonds and what happened, every event with the rule behind it.

The game is the open game (imperial_lab.dashboard.games.imperial2030.open_game), which Power & control shows too: a game of the
catalogue (the run picked in the frame's sidebar, or on this page when it runs on its own) or an
uploaded move log. The log is replayed once into a timeline
(imperial_lab.dashboard.games.imperial2030.replay), cached; the step controls and the views are one fragment, so moving the
slider reruns only them.
"""

from __future__ import annotations

import streamlit as st

from imperial_lab.core.analysis import big_swings, swing_words
from imperial_lab.core.errors import ImperialError
from imperial_lab.dashboard.games.imperial2030 import charts
from imperial_lab.dashboard.games.imperial2030.boardview import VIEWS, show_board
from imperial_lab.dashboard.games.imperial2030.cards import nation_cards
from imperial_lab.dashboard.games.imperial2030.changes import step_changes
from imperial_lab.core.games.imperial2030.action_words import choice_words
from imperial_lab.core.games.imperial2030.words import NATION_NAMES
from imperial_lab.core.games.imperial2030.explain import explain, rule_title
from imperial_lab.dashboard.games.imperial2030.nationview import bonds_html
from imperial_lab.dashboard.games.imperial2030 import open_game
from imperial_lab.dashboard.games.imperial2030.open_game import choose_game, load_timeline
from imperial_lab.dashboard.games.imperial2030.rondelview import rondel_svg
from imperial_lab.core.games.imperial2030.rules_text import link_sections, section_link
from imperial_lab.dashboard.games.imperial2030.replay import ActionStep, Snapshot, Timeline, action_groups, turn_chances
from imperial_lab.dashboard.style import player_label

TURN_KEY, ACTION_KEY, PLAY_KEY = "explorer_turn", "explorer_action", "explorer_playing"
BY_ACTION_KEY, VIEW_KEY = "explorer_by_action", "explorer_view"
GAME_KEY, TICKING_KEY = "explorer_game", "explorer_ticking"
CHART_KEY = "explorer_chances"
SHOWN_KEY = "explorer_shown_turn"  # the turn last shown, kept while another page drops the slider's state
BETTER_KEY = "explorer_better"  # the better move last asked for: (game key, turn, answer)
PLAY_SECONDS = 1.0  # one nation turn per second while playing


# ----- the step controls and the views (a fragment) -----

def go(turn: int, action: int | None) -> None:
    """A step button's target: a nation turn, and in action-by-action mode the action in it."""
    st.session_state[TURN_KEY] = turn
    if action is not None:
        st.session_state[ACTION_KEY] = action


def toggle_play() -> None:
    st.session_state[PLAY_KEY] = not st.session_state.get(PLAY_KEY, False)


def explorer(timeline: Timeline, chances: list | None, game=None) -> None:
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
    by_action = st.session_state.get(BY_ACTION_KEY, False) and not playing
    _controls(timeline, by_action, playing)
    slider, views = st.columns([2.6, 1.6], vertical_alignment="bottom")  # the four views' names in full
    turn = slider.select_slider("Nation turn", options=range(last + 1), key=TURN_KEY, disabled=playing,
                                format_func=lambda k: _turn_label(timeline.snapshots[k]))
    view = views.segmented_control("Map", list(VIEWS), default="World", key=VIEW_KEY) or "World"
    st.session_state[SHOWN_KEY] = turn
    step = _chosen_action(timeline.snapshots[turn]) if by_action else None
    _views(timeline, turn, step, view, chances, game)


def _controls(timeline: Timeline, by_action: bool, playing: bool) -> None:
    """The step buttons (keys Home, ←, →, End), Play and the action-by-action toggle."""
    steps = _steps(timeline, by_action)
    here = _step_number(steps, st.session_state[TURN_KEY], st.session_state.get(ACTION_KEY), by_action)
    cols = st.columns([1.2, 1.2, 1.2, 1.2, 1.1, 1.7], vertical_alignment="center")
    targets = (("First", ":material/first_page:", 0, "Home"), ("Back", ":material/chevron_left:", here - 1, "Left"),
               ("Next", ":material/chevron_right:", here + 1, "Right"), ("Last", ":material/last_page:", len(steps) - 1, "End"))
    for col, (label, icon, k, key) in zip(cols, targets):
        col.button(label, icon=icon, key=f"explorer_{label.lower()}", on_click=go,
                   args=steps[min(max(k, 0), len(steps) - 1)], disabled=playing, width="stretch", shortcut=key,
                   help=f"{label} {'action' if by_action else 'nation turn'}")
    last = len(timeline.snapshots) - 1
    cols[4].button("Pause" if playing else "Play", icon=":material/pause:" if playing else ":material/play_arrow:",
                   key="explorer_play", on_click=toggle_play, type="primary", width="stretch",
                   disabled=st.session_state[TURN_KEY] == last and not playing)
    cols[5].toggle("Action by action", key=BY_ACTION_KEY, disabled=playing,
                   help="step through single actions: the views show the position after the chosen action "
                        "and what it changed")


def _steps(timeline: Timeline, by_action: bool) -> list[tuple[int, int | None]]:
    """Every step of the game in order: (turn, None) per nation turn, or (turn, action) per action."""
    if by_action:
        return [(t, a.index) for t, s in enumerate(timeline.snapshots) for a in s.actions]
    return [(t, None) for t in range(len(timeline.snapshots))]


def _step_number(steps: list, turn: int, action: int | None, by_action: bool) -> int:
    """Where the shown step is in ``steps`` (a turn without actions: the first step after it)."""
    if not by_action:
        return turn
    if (turn, action) in steps:
        return steps.index((turn, action))
    return next((k for k, (t, _) in enumerate(steps) if t >= turn), len(steps) - 1)


def _turn_label(snapshot: Snapshot) -> str:
    return "setup" if snapshot.turn == 0 else f"{snapshot.turn} · {snapshot.nation}"


def _chosen_action(snapshot: Snapshot) -> ActionStep | None:
    """The action picked in the turn (the first when none of this turn is), None if it has none."""
    if not snapshot.actions:
        return None
    steps = {a.index: a for a in snapshot.actions}
    if st.session_state.get(ACTION_KEY) not in steps:
        st.session_state[ACTION_KEY] = snapshot.actions[0].index
    index = st.select_slider("Action", options=list(steps), key=ACTION_KEY,
                             format_func=lambda i: f"{i} · {choice_words(steps[i].text)}")
    return steps[index]


def _views(timeline: Timeline, turn: int, step: ActionStep | None, view: str, chances: list | None, game=None) -> None:
    """What happened in one line, the board with what changed, the players' chances to win, then
    every action and its events, the rondel, the bonds and the nations."""
    snapshot = timeline.snapshots[turn]
    position = step.position if step else snapshot.position
    events = step.events if step else snapshot.events
    changes = step_changes(timeline.position_before(turn, step.index if step else None), position, events)
    st.subheader(_heading(snapshot))
    ended = next((e for e in events if e["kind"] == "game_ended"), None)
    if ended is not None:
        st.success(f"**Game over.** {explain(ended, snapshot.nation)}", icon=":material/trophy:")
    else:
        st.markdown(f"**{changes.summary}**" if changes.summary else "&nbsp;")
    show_board(position, changes, view)
    if chances is not None:
        _chances(timeline, turn, chances, game)
    happened, rondel = st.columns([1.7, 1])
    with happened:
        st.markdown("**What happened**: every action, then what it caused")
        with st.container(height=330):
            _events([(step, step.events)] if step else action_groups(snapshot), snapshot.nation)
    with rondel:
        st.markdown(f"**Rondel** ({section_link('§6', '§6')})")
        st.markdown(rondel_svg(position, snapshot.nation), unsafe_allow_html=True)
    nation_cards(position, snapshot.nation)
    st.markdown(f"**Bonds** ({section_link('§9', '§9')}): credit sums; ★ the government")
    st.markdown(bonds_html(position), unsafe_allow_html=True)


def _chances(timeline: Timeline, turn: int, chances: list, game=None) -> None:
    """Each player's chance to win over the game, the shown turn marked, and the turn's swing in words;
    a click on the chart goes to the turn clicked; on request, a better move for the turn's player."""
    snapshots = timeline.snapshots
    judged = [row for row in chances if row is not None]  # the turns before a bad line's, if the log has one
    st.plotly_chart(charts.win_chances(chances, [_turn_label(s) for s in snapshots], turn, big_swings(judged)),
                    key=CHART_KEY, on_select=_chart_clicked, selection_mode="points")
    now, before = chances[turn], chances[turn - 1] if turn else None
    if now is None:
        st.caption("The learned evaluator has not judged this turn (the log stops before it).")
    elif before is None:
        st.markdown("**Chances to win after the setup:** " + ", ".join(
            f"{player_label(seat)} {chance:.0%}" for seat, chance in enumerate(now)))
    else:
        snapshot = snapshots[turn]
        nation = NATION_NAMES[snapshot.nation]
        who = nation if snapshot.government is None else f"{player_label(snapshot.government)} for {nation}"
        st.markdown(f"**This turn's swing:** {swing_words(who, before, now)}.")
        if game is not None and snapshot.government is not None and snapshot.actions:
            _better(game, snapshot)


def _better(game, snapshot: Snapshot) -> None:
    """The move the rollout bot finds best at the start of the turn, beside the move played, once asked
    (seconds of rollouts, kept per game and turn)."""
    who = player_label(snapshot.government)
    here = (game.key, snapshot.turn)
    if st.button(f"Was there a better move for {who}?", key="explorer_better_ask",
                 help=f"plays each promising choice at the start of this turn on to the end of the game, "
                      f"{open_game.BETTER_PLAYOUTS} games in all (heuristic bots in every seat, the same luck for "
                      f"every choice): about a second"):
        with st.spinner("Playing each promising choice on to the end …"):
            try:
                answer = game.better_move(snapshot.actions[0].index - 1)  # the step that begins this turn
            except ImperialError as exc:
                answer = {"error": str(exc)}
        st.session_state[BETTER_KEY] = (here, answer)
    shown = st.session_state.get(BETTER_KEY)
    if shown and shown[0] == here:
        answer = shown[1]
        if "error" in answer:
            st.caption(f"No better move: {answer['error']}")
        else:
            st.markdown(f"**For {who}:** {answer['words']}.")
            st.caption(f"How often {who} won when each choice was played on to the end of the game "
                       f"({answer['how']}, heuristic bots in every seat).")


def _chart_clicked() -> None:
    """A click on the chance chart: go to the nation turn clicked (its x)."""
    points = st.session_state[CHART_KEY].selection.points
    if points:
        go(int(points[0]["x"]), None)


def _heading(snapshot: Snapshot) -> str:
    if snapshot.turn == 0:
        return "Setup"
    return (f"Turn {snapshot.turn} · round {snapshot.round} · {NATION_NAMES[snapshot.nation]}, "
            f"governed by {player_label(snapshot.government)}")


def _events(groups: list, active: str | None) -> None:
    """Every action in plain words, the events it caused under it, then the rules;
    one markdown element for the whole list (a step redraws it, and elements cost time)."""
    parts = []
    for step, events in groups:
        if step is not None:
            who = "Chance" if step.player < 0 else player_label(step.player)
            parts.append(f"**{step.index}. {who}:** {step.words}")
        if events:
            parts.append("\n".join(f"- {link_sections(explain(event, active))}" for event in events))
    rules = dict.fromkeys(event["rule"] for _, events in groups for event in events)
    if rules:
        parts.append("Rules: " + " · ".join(section_link(rule, rule_title(rule)) for rule in rules))
    st.markdown("\n\n".join(parts))


# ----- the page -----

def main() -> None:
    st.title("Game explorer")
    game = choose_game(link=("power", "Power & control of this game"))  # Power & control shows it too
    timeline = load_timeline(game) if game else None
    if timeline is None:
        return
    key = game.key
    if st.session_state.get(GAME_KEY) != key:  # another game: start at its setup, not playing
        st.session_state[GAME_KEY] = key
        st.session_state[TURN_KEY] = 0
        st.session_state[PLAY_KEY] = False
    elif TURN_KEY not in st.session_state:  # back from another page: Streamlit forgot the slider, not the turn
        st.session_state[TURN_KEY] = st.session_state.get(SHOWN_KEY, 0)
    playing = st.session_state[PLAY_KEY]
    st.session_state[TICKING_KEY] = playing
    st.fragment(explorer, run_every=PLAY_SECONDS if playing else None)(timeline, _chance_line(game, timeline), game)


def _chance_line(game, timeline: Timeline) -> list | None:
    """Each turn's chances to win (replay.turn_chances), None when the evaluator cannot judge the game."""
    try:
        return turn_chances(timeline, game.chance_line())
    except ImperialError as exc:
        st.caption(f"No chances to win: {exc}")
        return None


main()
