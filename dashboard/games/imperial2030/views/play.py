"""Play: take a seat against the bots (or several seats, hot-seat) and play a game in the browser.

The game is a ``imperial_lab.core.session.PlaySession`` (the same logic as terminal play, ``imperial play
--human``). At each decision of a person the page shows the board large (the explorer's map, with
the bots' replies drawn on it), the rondel, the decision in plain words with its rule, and every
legal action grouped by kind with what it costs and does; a click on a choice plays it, and so does
a click on the board (a unit, then where it goes; a rondel space; a region to build or import in:
imperial_lab.dashboard.games.imperial2030.clickboard). The bots' replies are played at once and listed
with what they caused, or one at a time (Next / Skip to my turn). Why not? lists every action of the
decision, the tempting illegal ones too, and says in one sentence which rule refuses one; Hint asks
the search bot and says how its search went; Undo takes back the person's last decision; Save
downloads the move log (the Game explorer opens it as an uploaded move log), Resume continues a
saved one, and the games in progress on this computer are listed to go on with.

A reload does not lose the game: the machinery every game's Play page shares (dashboard/playkit.py)
writes the game to ``play/`` beside the catalogue after every change and keeps its id in the
address (``?game=ID``), from which a new session rebuilds it, identically (the bots are seeded per
decision). Nothing is hidden in Imperial 2030, so hot-seat needs no hand-over.

The game's part of the page is one fragment: a click reruns it, not the page; the hint and the
why-not form are fragments inside it, so asking them does not redraw the board.
"""

from __future__ import annotations

import random
import re

import streamlit as st

from imperial_lab.core.analysis import action_hint, chance_words
from imperial_lab.core.errors import ImperialError
from imperial_lab.core.games.imperial2030.action_words import choice_words
from imperial_lab.core.games.imperial2030.rules_text import link_sections, section_url
from imperial_lab.core.games.imperial2030.setups import PRESETS, read_setup_file, setups_folder
from imperial_lab.core.interface import CHANCE
from imperial_lab.core.session import PlaySession
from imperial_lab.core.setups import load_setup, setup_names
from imperial_lab.dashboard import frame
from imperial_lab.dashboard.games.imperial2030 import clickboard, playview
from imperial_lab.dashboard.games.imperial2030.boardview import VIEWS
from imperial_lab.dashboard.games.imperial2030.cards import nation_cards
from imperial_lab.dashboard.games.imperial2030.changes import Changes, step_changes
from imperial_lab.dashboard.games.imperial2030.nationview import bonds_html
from imperial_lab.dashboard.playkit import PERSON, PlayKit, md
from imperial_lab.dashboard.style import player_label

KIT = PlayKit("play", "imperial2030", words=choice_words, explorer="the Game explorer")
BUTTONS_MAX = 8  # a group of more choices is a list with a Play button
SHORT_LABEL = 14  # characters: labels no longer fit two buttons to a row of the decision's column
SHOWN_MAX = 60  # moves listed under "What happened"
MAX_SEED = 2**31 - 1
_RULE_AT_END = re.compile(r"\s*\[(§\d[\d.]*(?: Q\d+)?) ([^\]]*)\]$")  # texts.decision_lines' rule


def _decision_line(line: str) -> str:
    """The decision's line, its closing ``[§6 The rondel]`` a link to that section of the Rules page."""
    rule = _RULE_AT_END.search(line)
    if rule is None:
        return _linked(line)
    ref, title = rule.group(1), rule.group(2)
    return f"{md(line[:rule.start()])} [{ref} {md(title)}]({section_url(ref)})"


def _linked(text: str) -> str:
    """``md(text)`` with its rule references, like (§7.1), linked to the Rules page."""
    return link_sections(md(text))


# ----- a new game -----

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
    seats = KIT.seat_boxes(players, playview.BOTS)
    if KIT.start_button(seats):
        specs = [None if choice == PERSON else playview.seat_spec(choice, strength) for choice in seats]
        try:
            config = load_setup(setup, players, folder)
            session = PlaySession(config, specs, seed)
        except ImperialError as exc:
            frame.show_error("This game cannot be started.", exc)
            return
        KIT.start(session)


# ----- the game (a fragment) -----

def game() -> None:
    session = KIT.session()
    if session is None:
        return
    KIT.advance(session)
    setup = session.config.get("name") or session.config.get("setup")
    KIT.controls(session, [f"setup {md(str(setup))}"])
    KIT.notice()
    doc = session.state.to_json()
    active = doc.get("turn", {}).get("nation")
    decision = _board_decision(session)
    board, side = st.columns([2.3, 1], gap="medium")  # the board as large as the decision's column allows
    with board:
        view = st.segmented_control("Map", list(VIEWS), default="World", key="play_view",
                                    label_visibility="collapsed") or "World"
        clickboard.board(doc, "play", decision, _changes(session, doc), view)
        rondel, said = st.columns([1, 1.3], vertical_alignment="top")
        with rondel:
            st.markdown("**Rondel** (§6)" + (": click a space to go there" if decision and any(
                text.startswith("rondel ") for text in decision.legal) else ""))
            clickboard.rondel(doc, "play", decision)
        with said:
            clickboard.answer("play", decision)
    with side:
        _chance_change(session)
        _decision(session)
        _happened(session)
    nation_cards(doc, active, per_row=6)
    st.markdown("**Bonds**: credit sums (§9); ★ the government")
    st.markdown(bonds_html(doc), unsafe_allow_html=True)


def _board_decision(session: PlaySession) -> clickboard.Decision | None:
    """The person's decision as the board sees it (None while the bots or chance move)."""
    if session.waiting_for() is None:
        return None
    state, changes = session.state, session.changes
    legal = [state.action_to_string(a) for a in session.legal()]
    return clickboard.Decision(legal, state.decision_name(), state.to_json()["turn"]["nation"], (KIT.game_id(), changes),
                               choose=lambda text: KIT.choose(changes, legal.index(text) + 1),
                               why=lambda text: session.why(text).message)


def _chance_change(session: PlaySession) -> None:
    """How the person's last decision changed their chance to win, by the learned evaluator (judged
    from the position the decision was made in: nothing the bots did after it), and what the win-chance
    bot would have played there."""
    change = session.decision_chance()
    if change is None:
        return
    whose = "Your" if len(session.humans) == 1 else f"{player_label(change.player)}'s"
    if change.bot_text == change.text:
        bot = "The win-chance bot would have chosen the same."
    else:
        bot = (f"The win-chance bot would have chosen **{md(choice_words(change.bot_text))}**: "
               f"{'your' if whose == 'Your' else whose} chance {change.bot_after:.0%} after it.")
    st.info(f"**{md(choice_words(change.text))}**: {chance_words(change.before, change.after, whose)}.  \n{bot}",
            icon=":material/monitoring:")
    st.caption("As the lab's learned evaluator judges it: the turn played on by the heuristic bot, without and "
               "with this choice (and with the bot's).")


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
            st.caption("  \n".join(md(line.strip()) for line in lines[1:]))
        for g, (heading, items) in enumerate(playview.grouped(playview.choices(session))):
            _group(session, g, heading, items)
    _tools(session)


def _group(session: PlaySession, g: int, heading: str, items: list) -> None:
    """A kind of choices: a button each, what it costs and does under it (two to a row when every
    label is short, else one: no label is cut); more than BUTTONS_MAX: a list and a Play button."""
    changes = session.changes
    st.markdown(f"**{_linked(heading)}**")
    if len(items) <= BUTTONS_MAX:
        per_row = 2 if len(items) >= 4 and max(len(c.words) for c in items) <= SHORT_LABEL else 1
        for start in range(0, len(items), per_row):
            for cell, c in zip(st.columns(per_row), items[start:start + per_row]):
                cell.button(md(c.words), key=f"play_choice_{changes}_{c.number}", on_click=KIT.choose,
                            args=(changes, c.number), width="stretch", help=f"`{c.text}` (choice {c.number})")
                if c.detail:
                    cell.caption(_linked(c.detail))
        return
    key = f"play_list_{changes}_{g}"
    by_number = {c.number: c for c in items}
    with st.form(key=f"play_form_{changes}_{g}", border=False):
        st.selectbox(f"{heading}: {len(items)} choices", list(by_number), key=key, label_visibility="collapsed",
                     format_func=lambda k: _listed(by_number[k]))
        st.form_submit_button("Play", on_click=_choose_listed, args=(changes, key), width="stretch")
    if heading.startswith("Move"):
        st.caption("Or click the unit on the board, then where it goes.")


def _listed(c) -> str:
    return f"{c.words} · {c.detail}" if c.detail else c.words


def _choose_listed(changes: int, key: str) -> None:
    """Play: the choice the list holds (a callback, run before the fragment reruns)."""
    number = st.session_state.get(key)
    if number is not None:
        KIT.choose(changes, number)


def _bots_to_move(session: PlaySession) -> None:
    """Watching the bots: the move just made, then Next and Skip to my turn."""
    with st.container(border=True):
        st.markdown(f"**Next to move: {md(KIT.mover(session))}**")
        last = session.history(len(session.actions) - 1) if session.actions else []
        if last and session.last_human_index() != len(session.actions) - 1:
            st.caption("Last move:")
            _steps(session, last)
        KIT.watch_buttons(session)


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
    """Moves as one markdown element: each a bold line (who, the action in words), then its events;
    a new nation turn as a line of its own."""
    blocks = []
    for s in steps:
        who = s.who if s.player == CHANCE or s.player in session.humans else f"{s.who} [{session.seats[s.player]}]"
        events = [f"- {_linked(line.strip())}" for line in s.lines if not line.strip().startswith("==")]
        blocks.append("\n".join([f"**{md(who)}:** {md(choice_words(s.text))}", *events]))
        blocks += [f"**{md(line.strip().lstrip('= '))}**" for line in s.lines if line.strip().startswith("==")]
    st.markdown("\n\n".join(blocks))


# ----- hint and why not (fragments inside the game's) -----

def _tools(session: PlaySession) -> None:
    st.fragment(KIT.hint)(_evaluator_words)
    st.fragment(KIT.why_not)(_linked, "A click on the board asks too.")


def _evaluator_words(session: PlaySession, action) -> str:
    """The hint's extra line: how the learned evaluator judges the choice."""
    return f"By the learned evaluator: {md(action_hint(session.state, action, session.seed)['words'])}."


# ----- the page -----

def main() -> None:
    st.title("Play")
    if KIT.choose_game(new_game) is not None:
        st.fragment(game)()


main()
