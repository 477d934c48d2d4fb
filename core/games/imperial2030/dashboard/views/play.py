"""Play: take a seat against the bots (or several seats, hot-seat) and play a game in the browser.

The game is a ``core.session.PlaySession`` (the same logic as terminal play, ``imperial play
--human``). At each decision of a person the page shows the board (the explorer's map, rondel,
nation cards and bonds), the decision in plain words with its rule, and every legal action grouped
by kind with what it costs and does; a click plays it. The bots' replies are played at once and
listed with what they caused, or one at a time (Next / Skip to my turn). Why not? asks the engine
why an action is refused; Hint asks the search bot; Undo takes back the person's last decision;
Save downloads the move log (the Game explorer opens it as an uploaded move log) and Resume
continues a saved one.

A reload does not lose the game: after every change the game is written as a move log to ``play/``
beside the catalogue (core.games.imperial2030.dashboard.playview) and the address carries its id (``?game=ID``), from
which a new session rebuilds it, identically (the bots are seeded per decision).

The game's part of the page is one fragment: a click reruns it, not the page; the hint and the
why-not form are fragments inside it, so asking them does not redraw the board.
"""

from __future__ import annotations

import random
import re
import time

import streamlit as st

from core.errors import ImperialError, LogError
from core.games.imperial2030.dashboard import playview
from core.games.imperial2030.dashboard.boardview import board_panel
from core.games.imperial2030.dashboard.cards import nation_cards
from core.games.imperial2030.dashboard.changes import Changes, step_changes
from core.games.imperial2030.dashboard.nationview import bonds_figure
from core.games.imperial2030.dashboard.rondelview import rondel_figure
from core.games.imperial2030.dashboard.rules_text import link_sections, section_url
from core.games.imperial2030.setups import PRESETS, read_setup_file, setups_folder
from core.interface import CHANCE, seat_name
from core.session import PlaySession
from core.setups import load_setup, setup_names
from dashboard import frame
from dashboard.style import player_label

SESSION, GAME_ID, SAVED = "play_session", "play_game_id", "play_saved"
WATCH = "play_watch"  # the bots' moves one at a time (Next / Skip to my turn) instead of at once
NOTICE = "play_notice"  # (kind, title, message) to show on the next run: an undo, a resume that failed
HINT, WHY = "play_hint", "play_why"  # the last hint and why-not answers, with the position they answer
UNSAVED = "play_unsaved"  # why the game could not be written for a reload
SKIP = "play_skip_to"  # Skip to my turn was clicked at this state of the game
QUERY, WATCH_QUERY = "game", "watch"  # the query parameters: the game's id; watching the bots (1)
BUTTONS_MAX = 8  # a group of more choices is a list with a Play button
GRID_DETAIL = 70  # a group of 4 or more choices with notes no longer than this is a grid of two columns
SHOWN_MAX = 60  # moves listed under "What happened"
SLOW_SECONDS = 0.3  # bots' replies that take longer say who is thinking
MAX_SEED = 2**31 - 1
_RULE_AT_END = re.compile(r"\s*\[(§\d[\d.]*(?: Q\d+)?) ([^\]]*)\]$")  # describe.decision_lines' rule
_MARKDOWN = str.maketrans({c: "\\" + c for c in "\\`*_[]<>#|~$"})


def _md(text: str) -> str:
    """Text shown as written by markdown (no emphasis, links, emoji or formulas; an arrow stays ->)."""
    return text.translate(_MARKDOWN).replace("->", "-\\>")


def _decision_line(line: str) -> str:
    """The decision's line, its closing ``[§6 The rondel]`` a link to that section of the Rules page."""
    rule = _RULE_AT_END.search(line)
    if rule is None:
        return _linked(line)
    ref, title = rule.group(1), rule.group(2)
    return f"{_md(line[:rule.start()])} [{ref} {_md(title)}]({section_url(ref)})"


def _linked(text: str) -> str:
    """``_md(text)`` with its rule references, like (§7.1), linked to the Rules page."""
    return link_sections(_md(text))


def _folder():
    return playview.games_folder(frame.catalog_path())


# ----- which game -----

def current() -> PlaySession | None:
    """The game of this browser session, or of the address's ``?game=ID`` (a reload, a shared link)."""
    wanted, have = st.query_params.get(QUERY), st.session_state.get(GAME_ID)
    if wanted and wanted != have:
        try:
            session = playview.load_game(_folder(), wanted) if playview.valid_id(wanted) else None
            if session is None:
                st.warning(f"There is no game {frame.code_span(wanted)} on this server: start one or resume a "
                           f"saved one.")
        except LogError as exc:
            session = None
            frame.show_error(f"The saved game {frame.code_span(wanted)} cannot be replayed.", exc)
        if session is not None:
            adopt(wanted, session, saved=True)
        else:
            del st.query_params[QUERY]
            if have:
                st.query_params[QUERY] = have
    elif have and not wanted:  # back from another page, which dropped the parameter
        st.query_params[QUERY] = have
    if WATCH not in st.session_state:  # a reload: the pace of the bots is in the address too
        st.session_state[WATCH] = st.query_params.get(WATCH_QUERY) == "1"
    _show_watch()
    return st.session_state.get(SESSION)


def _show_watch() -> None:
    """Keep "watch the bots" in the address (a reload keeps the pace)."""
    if st.session_state.get(WATCH):
        st.query_params[WATCH_QUERY] = "1"
    elif WATCH_QUERY in st.query_params:
        del st.query_params[WATCH_QUERY]


def adopt(game_id: str, session: PlaySession, saved: bool = False) -> None:
    """Make ``session`` this browser session's game."""
    st.session_state[GAME_ID] = game_id
    st.session_state[SESSION] = session
    st.session_state[SAVED] = (game_id, session.changes) if saved else None
    st.session_state.pop(HINT, None)
    st.session_state.pop(WHY, None)
    st.query_params[QUERY] = game_id


def persist(session: PlaySession) -> None:
    """Write the game to ``play/ID.jsonl`` when it changed since it was last written."""
    game_id = st.session_state.get(GAME_ID)
    mark = (game_id, session.changes)
    if game_id and st.session_state.get(SAVED) != mark:
        try:
            playview.save_game(_folder(), game_id, session)
        except OSError as exc:  # e.g. a read-only folder: the game goes on, a reload would lose it
            st.session_state[UNSAVED] = f"{_folder()}: {exc.strerror or exc}"
            return
        st.session_state[SAVED] = mark
        st.session_state.pop(UNSAVED, None)


# ----- a new game, a saved one -----

@st.cache_data(show_spinner=False, max_entries=64)
def _file_players(path: str, stamp: int) -> int | None:
    try:
        return len(read_setup_file(path)["players"])
    except ImperialError:
        return None


def _setup_players(name: str) -> int | None:
    """The player count a setup file fixes (None for standard and variant, which take any)."""
    if name in PRESETS:
        return None
    path = setups_folder() / f"{name}.json"
    return _file_players(str(path), path.stat().st_mtime_ns if path.exists() else 0)


@st.fragment
def new_game() -> None:
    """The seats, the setup and the seed of a new game; Start plays the bots up to the first decision
    of a person. A fragment: choosing reruns only the form."""
    folder = setups_folder()
    top = st.columns([1.3, 1, 1.6, 1])
    setup = top[0].selectbox("Setup", setup_names(folder), key="play_setup",
                             help="standard (bonds dealt by flag cards), variant (experienced players pick "
                                  "bonds), or a setup file of the Setup editor")
    fixed = _setup_players(setup)
    if fixed is None:
        players = top[1].selectbox("Players", range(2, 7), index=2, key="play_players")
    else:
        players = fixed
        top[1].markdown(f"Players  \n**{fixed}** (the setup's)")
    strength = top[2].select_slider("Search bot strength (playouts per decision)", playview.STRENGTHS,
                                    value=playview.STRENGTHS[0], key="play_strength",
                                    help="the mcts bot; early in a game 50 playouts take about 1 s a decision "
                                         "on a laptop, 200 about 3 s, 800 about 10 s")
    if "play_seed" not in st.session_state:
        st.session_state["play_seed"] = random.randrange(1000)
    seed = int(top[3].number_input("Seed", min_value=0, max_value=MAX_SEED, step=1, key="play_seed",
                                   help="chance (the deal) and the bots: the same seed and the same choices "
                                        "play the same game"))
    cols = st.columns(6)
    seats = []
    for p in range(players):
        key = f"play_seat_{p}"
        if key not in st.session_state:
            st.session_state[key] = playview.PERSON if p == 0 else "heuristic"
        seats.append(cols[p].selectbox(seat_name(p), playview.SEAT_CHOICES, key=key))
    people = sum(choice == playview.PERSON for choice in seats)
    if st.button("Start the game", type="primary", icon=":material/play_arrow:", key="play_start",
                 disabled=people == 0):
        specs = [playview.seat_spec(choice, strength) for choice in seats]
        try:
            config = load_setup(setup, players, folder)
            session = PlaySession(config, specs, seed)
        except ImperialError as exc:
            frame.show_error("This game cannot be started.", exc)
            return
        adopt(playview.new_id(), session)
        persist(session)
        st.rerun()
    if people == 0:
        st.caption("Choose at least one seat for a person (several take turns at this screen).")


def resume_game() -> None:
    """A saved move log (Save, ``imperial play --log``/``save``): the game goes on from its end."""
    people, upload = st.columns([1, 2])
    people.multiselect("Seats for people", list(range(6)), format_func=seat_name, key="play_resume_people",
                       placeholder="the log's",
                       help="leave empty to keep the seats the log names (human: a person); otherwise these "
                            "seats are people's and the others keep the log's bots (heuristic where it names "
                            "none)")
    upload.file_uploader("Move log", key="play_upload", on_change=_resume,
                         help="a game record in JSON Lines (docs/formats.md): this page's Save, "
                              "`imperial play --log` or the terminal's save. A seat the log names no bot for "
                              "is played by a person.")


def _resume() -> None:
    upload = st.session_state.get("play_upload")
    if upload is None:
        return
    text = upload.getvalue().decode("utf-8", errors="replace")
    people = set(st.session_state.get("play_resume_people") or ())
    try:
        session = PlaySession.from_log(text, name=upload.name)
        if people & set(range(session.game.num_players)):
            seats = [None if p in people else spec or "heuristic" for p, spec in enumerate(session.seats)]
            session = PlaySession(session.config, seats, session.seed, actions=session.actions)
    except ImperialError as exc:
        st.session_state[NOTICE] = ("error", f"{frame.code_span(upload.name)} cannot be resumed.", str(exc))
        return
    adopt(playview.new_id(), session)
    persist(session)
    st.session_state[NOTICE] = ("success", f"Resumed {_md(upload.name)} after {len(session.actions)} actions.", None)


# ----- the moves (callbacks: they run before the fragment reruns) -----

def _fresh(changes: int) -> PlaySession | None:
    """The game, if it has not changed since the page offered the click (a double click is ignored)."""
    session = st.session_state.get(SESSION)
    return session if session is not None and session.changes == changes else None


def _choose(changes: int, number: int) -> None:
    session = _fresh(changes)
    if session is None or session.waiting_for() is None:
        return
    session.play(session.legal()[number - 1])
    persist(session)


def _choose_listed(changes: int, key: str) -> None:
    number = st.session_state.get(key)
    if number is not None:
        _choose(changes, number)


def _next(changes: int) -> None:
    session = _fresh(changes)
    if session is not None and session.waiting_for() is None and not session.is_over():
        session.step()
        persist(session)


def _skip(changes: int) -> None:
    """Skip to my turn: the fragment's run plays the moves (and says who is thinking)."""
    if _fresh(changes) is not None:
        st.session_state[SKIP] = changes


def _undo(changes: int) -> None:
    session = _fresh(changes)
    if session is None:
        return
    undone = session.undo()
    if undone is None:
        st.session_state[NOTICE] = ("info", "Nothing to undo: no person has decided yet.", None)
        return
    later = undone.later
    after = f" and the {later} move{'s' if later > 1 else ''} after it" if later else ""
    st.session_state[NOTICE] = ("info", f"Undone: {seat_name(undone.player)}'s "
                                        f"{_md(playview.plain(undone.text))} (`{undone.text}`){after}.", None)
    persist(session)


def _advance(session: PlaySession, status) -> None:
    """Play the bots' and chance's moves up to the next decision of a person; a slow reply says who
    is thinking (a search bot's)."""
    start = time.perf_counter()

    def thinking(step=None) -> None:
        if time.perf_counter() - start > SLOW_SECONDS and not session.is_over() and session.waiting_for() is None:
            p = session.to_move()
            who = "Chance" if p == CHANCE else f"{player_label(p)} ({session.seats[p]})"
            status.info(f"{who} is thinking … ({len(session.actions)} actions played)",
                        icon=":material/hourglass_top:")

    session.advance_to_human(on_step=thinking)
    status.empty()


# ----- the game (a fragment) -----

def game() -> None:
    session = st.session_state.get(SESSION)
    if session is None:
        return
    status = st.empty()
    skip = st.session_state.pop(SKIP, None) == session.changes
    if (skip or not st.session_state.get(WATCH, False)) and session.waiting_for() is None and not session.is_over():
        _advance(session, status)
    persist(session)
    _bar(session)
    notice = st.session_state.pop(NOTICE, None)
    if notice:
        kind, title, message = notice
        if kind == "error":
            frame.show_error(title, message)
        else:
            getattr(st, kind)(title)
    doc = session.state.to_json()
    active = doc.get("turn", {}).get("nation")
    left, right = st.columns([1.45, 1], gap="medium")
    with right:
        _decision(session)
        _happened(session)
    with left:
        board_panel(doc, key="play_view", changes=_changes(session, doc))
        nation_cards(doc, active, per_row=3)
        rondel, bonds = st.columns([1, 1.3])
        with rondel:
            st.markdown("**Rondel** (§6)")
            st.plotly_chart(rondel_figure(doc, active, height=280), key="play_rondel")
        with bonds:
            st.markdown("**Bonds**: credit sums (§9); ★ the government")
            st.plotly_chart(bonds_figure(doc, height=280), key="play_bonds")


def _bar(session: PlaySession) -> None:
    """Who plays which seat, and the game's controls: Undo, Save, the pace of the bots."""
    seats = " · ".join(f"{player_label(p)} {'(person)' if spec is None else spec}"
                       for p, spec in enumerate(session.seats))
    setup = session.config.get("name") or session.config.get("setup")
    game_id = st.session_state.get(GAME_ID)
    st.caption(f"Game `{game_id}` · {session.game.num_players} players · setup {_md(str(setup))} · seed "
               f"{session.seed} · {seats} · {len(session.actions)} actions played")
    if st.session_state.get(UNSAVED):
        frame.show_error("The game cannot be written for a reload of the page (Save still works):",
                         st.session_state[UNSAVED])
    cols = st.columns([1, 1, 2.4, 2], vertical_alignment="center")
    cols[0].button("Undo", icon=":material/undo:", key="play_undo", on_click=_undo, args=(session.changes,),
                   disabled=session.last_human_index() is None, width="stretch",
                   help="take back the last decision of a person and every move after it")
    cols[1].download_button("Save", data=session.to_log, file_name=f"imperial2030-{game_id}.jsonl",
                            mime="application/jsonl", icon=":material/download:", key="play_save",
                            on_click="ignore", width="stretch",
                            help="the move log of the game so far: Resume continues it; the Game explorer "
                                 "shows it (an uploaded move log); imperial replay checks it")
    cols[2].toggle("Watch the bots move by move", key=WATCH, on_change=_show_watch,
                   help="off: the bots reply at once and their moves are listed; on: Next plays one move, "
                        "Skip to my turn the rest")


def _decision(session: PlaySession) -> None:
    if session.is_over():
        _final(session)
        return
    p = session.waiting_for()
    if p is None:
        _bots_to_move(session)
        return
    lines = session.decision_lines()
    with st.container(border=True):
        st.markdown(f"**{_decision_line(lines[0])}**")
        if len(lines) > 1:
            st.caption("  \n".join(_md(line.strip()) for line in lines[1:]))
        for g, (heading, items) in enumerate(playview.grouped(playview.choices(session))):
            _group(session, g, heading, items)
    _tools(session)


def _group(session: PlaySession, g: int, heading: str, items: list) -> None:
    changes = session.changes
    st.markdown(f"**{_linked(heading)}**")
    if 4 <= len(items) <= BUTTONS_MAX and max(len(c.detail) for c in items) <= GRID_DETAIL:
        cells = st.columns(2)
        for k, c in enumerate(items):
            with cells[k % 2]:
                st.button(_md(c.words), key=f"play_choice_{changes}_{c.number}", on_click=_choose,
                          args=(changes, c.number), width="stretch", help=f"`{c.text}` (choice {c.number})")
                st.caption(_linked(c.detail) if c.detail else f"`{c.text}`")
        return
    if len(items) <= BUTTONS_MAX:
        for c in items:
            button, words = st.columns([1.25, 1.6], vertical_alignment="center")
            button.button(_md(c.words), key=f"play_choice_{changes}_{c.number}", on_click=_choose,
                          args=(changes, c.number), width="stretch", help=f"`{c.text}` (choice {c.number})")
            words.caption(_linked(c.detail) if c.detail else f"`{c.text}`")
        return
    key = f"play_list_{changes}_{g}"
    by_number = {c.number: c for c in items}
    with st.form(key=f"play_form_{changes}_{g}", border=False):
        pick, play = st.columns([4, 1], vertical_alignment="bottom")
        pick.selectbox(f"{heading}: {len(items)} choices", list(by_number), key=key, label_visibility="collapsed",
                       format_func=lambda k: _listed(by_number[k]))
        play.form_submit_button("Play", on_click=_choose_listed, args=(changes, key), width="stretch")


def _listed(c) -> str:
    return f"{c.words} · {c.detail}" if c.detail else c.words


def _bots_to_move(session: PlaySession) -> None:
    """Watching the bots: the move just made, then Next and Skip to my turn."""
    p = session.to_move()
    who = "Chance" if p == CHANCE else f"{player_label(p)} ({session.seats[p]})"
    with st.container(border=True):
        st.markdown(f"**Next to move: {_md(who)}**")
        last = session.history(len(session.actions) - 1) if session.actions else []
        if last and session.last_human_index() != len(session.actions) - 1:
            st.caption("Last move:")
            _steps(session, last)
        nxt, skip = st.columns(2)
        nxt.button("Next", icon=":material/skip_next:", key="play_next", on_click=_next, args=(session.changes,),
                   type="primary", width="stretch", help="one move of a bot or of chance")
        skip.button("Skip to my turn", icon=":material/fast_forward:", key="play_skip", on_click=_skip,
                    args=(session.changes,), width="stretch",
                    help="the bots play on up to the next decision of a person (or the end)")


def _final(session: PlaySession) -> None:
    state = session.state
    winners = " and ".join(player_label(p) for p in state.winners())
    scores = ", ".join(f"{player_label(p)} {score:g}" for p, score in enumerate(state.returns()))
    st.success(f"**The game is over: {winners} won.** Scores (§10): {scores}.", icon=":material/trophy:")
    st.caption("Save the game to look at it again in the Game explorer, or start a new one above.")


def _changes(session: PlaySession, doc: dict) -> Changes:
    """What the moves since the last decision of a person (that decision included) changed, for
    the board: the bots' replies drawn as arrows, new pieces ringed."""
    last = session.last_human_index()
    start = 0 if last is None else last
    events = [event for step in session.history(start) for event in step.events]
    return step_changes(session.position_before(start), doc, events)


def _happened(session: PlaySession) -> None:
    """The moves since the last decision of a person (that decision included), with what they caused."""
    last = session.last_human_index()
    start = max(0 if last is None else last, len(session.actions) - SHOWN_MAX)
    steps = session.history(start)
    st.markdown("**What happened**" + (" since the last decision of a person" if last is not None else ""))
    if not steps:
        st.caption("Nothing yet.")
        return
    if start and start != last:
        st.caption(f"The last {len(steps)} moves; the whole game: Save, then open it in the Game explorer.")
    lines = sum(1 + len(s.lines) for s in steps)
    with st.container(height=400 if lines > 14 else "content", border=True):
        _steps(session, steps)


def _steps(session: PlaySession, steps: list) -> None:
    """Moves as one markdown element: each a bold line (who, the action in words and in its text
    form), then its events; a new nation turn as a line of its own."""
    blocks = []
    for s in steps:
        who = s.who if s.player == CHANCE or s.player in session.humans else f"{s.who} [{session.seats[s.player]}]"
        events = [f"- {_linked(line.strip())}" for line in s.lines if not line.strip().startswith("==")]
        blocks.append("\n".join([f"**{_md(who)}:** {_md(playview.plain(s.text))} · `{s.text}`", *events]))
        blocks += [f"**{_md(line.strip().lstrip('= '))}**" for line in s.lines if line.strip().startswith("==")]
    st.markdown("\n\n".join(blocks))


# ----- hint and why not (fragments inside the game's) -----

def _tools(session: PlaySession) -> None:
    st.fragment(_hint)()
    st.fragment(_why)()


def _hint() -> None:
    session = st.session_state.get(SESSION)
    if session is None or session.waiting_for() is None:
        return
    here = (st.session_state.get(GAME_ID), session.changes)
    with st.expander("Hint", icon=":material/lightbulb:"):
        playouts = st.select_slider("Playouts", playview.HINT_STRENGTHS, value=200, key="play_hint_playouts",
                                    help="the search bot's budget: more is stronger and slower (200: a few seconds)")
        if st.button("What would the search bot choose?", key="play_hint_ask", type="primary"):
            with st.spinner(f"Thinking (mcts, {playouts} playouts) …"):
                hint = session.hint(playouts)
            st.session_state[HINT] = (here, playouts, hint)
        shown = st.session_state.get(HINT)
        if shown and shown[0] == here:
            _, playouts, hint = shown
            rows = playview.hint_rows(session, hint)
            best = rows[0]
            st.markdown(f"The search bot (mcts, {hint.playouts} playouts) would choose **{best['choice']}. "
                        f"{_md(best['action'])}** (`{best['text form']}`).")
            st.caption(f"Visits and the estimated win chance of {player_label(hint.player)} (the mean value of "
                       f"its playouts, %):")
            st.dataframe(rows, hide_index=True, width="stretch",
                         column_config={"win chance": st.column_config.NumberColumn("win chance", format="%d%%")})
            if len(hint.stats) > len(rows):
                st.caption(f"({len(hint.stats) - len(rows)} other choices with fewer visits)")


def _why() -> None:
    session = st.session_state.get(SESSION)
    if session is None or session.waiting_for() is None:
        return
    here = (st.session_state.get(GAME_ID), session.changes)
    legal = session.legal()
    example = "rondel investor" if session.state.action_to_string(legal[0]).startswith("rondel") else "pass"
    with st.expander("Why not …?", icon=":material/help:"):
        with st.form("play_why_form", border=False):
            text = st.text_input("An action in the engine's notation", key="play_why_text",
                                 placeholder=f"e.g. {example}",
                                 help="as the text forms under the choices and in docs/formats.md "
                                      "(Action notation): rondel taxation, buy RU 3, move army moscow -> ukraine")
            asked = st.form_submit_button("Why not?")
        if asked and text.strip():
            st.session_state[WHY] = (here, session.why(text[:1000]))
        answer = st.session_state.get(WHY)
        if answer and answer[0] == here:
            why = answer[1]
            if why.legal:
                st.success(f"{_md(why.message)} ({_md(playview.plain(why.text))})")
            elif why.action is None:
                frame.show_error("That is not an action of the notation:", why.message)
            else:
                frame.show_error("The engine refuses it:", why.message)
        st.caption(f"Example: `{example}`; the text forms of the legal actions are under the choices.")


# ----- the page -----

def main() -> None:
    st.title("Play")
    session = current()
    with st.expander("New game", expanded=session is None, icon=":material/add:"):
        new_game()
    with st.expander("Resume a saved game", icon=":material/upload_file:"):
        resume_game()
    if session is None:
        notice = st.session_state.pop(NOTICE, None)
        if notice and notice[0] == "error":
            frame.show_error(notice[1], notice[2])
        st.info("Choose the seats above and start a game: a person in one seat or more, a bot in the others.")
        return
    st.fragment(game)()


main()
