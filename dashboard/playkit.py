"""The machinery of every game's Play page, for any game (it imports none: core/interface.py and
core/session.py only). A page makes one ``PlayKit`` and calls its small functions; what it draws of
the game itself (the board, the choices, the moves in words) stays the page's own.

    KIT = PlayKit("play", "imperial2030", words=plain)        # "play": the keys play_session, play_undo…
    session = KIT.choose_game(new_game)   # this browser's game, or the address's; New game and Resume
    KIT.advance(session)                  # the bots' replies (unless watched move by move), then saved
    KIT.controls(session)                 # who plays what; Undo, Save, "watch the bots"
    KIT.what_happened(KIT.since_last(session, me, 40), lines_of)   # the moves since me's last decision
    KIT.notice()                          # what the last click did (an undo, a resume)
    st.fragment(KIT.why_not)(link)        # "Why not …?": pick an action of the decision, hear its rule
    st.fragment(KIT.hint)()               # "Hint": what the rollout bot would choose, and how often it won
    if KIT.hand_over(session): return     # hot-seat with hidden hands: pass the device first
    me = KIT.viewer(session)              # whose eyes the page is for
    st.button(..., on_click=KIT.choose, args=(session.changes, number))

**Reload safety.** After every change the game is written as a move log to ``play/`` beside the
catalogue, named by the game's id, and the address carries the id (``?game=ID``): a reload or a
shared link rebuilds the session from it (``PlaySession.from_log``), identically, since the bots are
seeded per decision. The pace of the bots is in the address too (``&watch=1``).

**Hot-seat.** Several seats may be people's; they take turns at one screen. In a game that hides
information from seats (``hidden=True``: Imperia's hands, §7.2), the page must not show one person's
view to the next: when the person to decide is not the one who has the device, the page shows only a
"Pass the device to …" screen until that person clicks. A new, reloaded or resumed hot-seat game has
nobody at the device yet, so it shows no seat's private view before a click.
"""

from __future__ import annotations

import os
import re
import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Callable

import streamlit as st

from imperial_lab.core.errors import ImperialError, LogError, SetupError
from imperial_lab.core.interface import CHANCE, seat_name
from imperial_lab.core.registry import plugin
from imperial_lab.core.session import PlaySession
from imperial_lab.core.words import count
from imperial_lab.dashboard import frame

PERSON = "a person"  # a seat's choice for a person, beside the bots' names
QUERY, WATCH_QUERY = "game", "watch"  # the address's game id; watching the bots (1)
ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
SLOW_SECONDS = 0.3  # bots' replies that take longer say who is thinking
_MARKDOWN = str.maketrans({c: "\\" + c for c in "\\`*_[]<>#|~$"})
HINT_STRENGTHS = (20, 80, 320)  # the hint bot's playouts: 80 about a second in Imperial 2030
HINT_ROWS = 5  # the hint's choice and its most tried alternatives


def _ago(seconds: float) -> str:
    """``just now``, ``5 minutes ago``, ``3 hours ago``, ``2 days ago``."""
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size:
            return f"{count(int(seconds // size), unit)} ago"
    return "just now"


def md(text: str) -> str:
    """Text shown as written by markdown (no emphasis, links, emoji or formulas; an arrow stays ->)."""
    return text.translate(_MARKDOWN).replace("->", "-\\>")


# ----- games in progress on disk (no Streamlit) -----

def hint_rows(session: PlaySession, hint, words: Callable[[str], str] = str, rows: int = HINT_ROWS) -> list[dict]:
    """The hint's choice and its most tried alternatives: number, the game's words (``words`` of the
    text form), tries and the estimated win chance of the seat to move, as table rows."""
    number = {a: k for k, a in enumerate(session.legal(), 1)}
    return [{"choice": number.get(s.action), "action": words(session.state.action_to_string(s.action)),
             "visits": s.visits, "win chance": None if s.value is None else round(100 * s.value)}
            for s in hint.stats[:rows]]


def games_folder(catalog) -> Path:
    """``play/`` beside the catalogue (like ``runs/``)."""
    return Path(catalog).resolve().parent / "play"


def new_id() -> str:
    return secrets.token_hex(5)


def valid_id(text) -> bool:
    return isinstance(text, str) and bool(ID_PATTERN.match(text))


def game_file(folder: Path, game_id: str) -> Path:
    if not valid_id(game_id):
        raise ValueError(f"not a game id: {game_id!r}")
    return Path(folder) / f"{game_id}.jsonl"


def save_game(folder: Path, game_id: str, session: PlaySession) -> Path:
    """Write the game as a move log, atomically (a reader never sees half a file)."""
    path = game_file(folder, game_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(3)}.tmp")
    tmp.write_text(session.to_log(), encoding="utf-8")
    os.replace(tmp, path)
    return path


def load_game(folder: Path, game_id: str) -> PlaySession | None:
    """The game of that id, or None when there is no such file; a bad file raises LogError."""
    path = game_file(folder, game_id)
    if not path.is_file():
        return None
    return PlaySession.from_log(path.read_text(encoding="utf-8", errors="replace"), name=path.name)


@dataclass(frozen=True)
class Saved:
    """A game of ``play/`` as the list of games in progress shows it."""

    game_id: str
    modified: float  # seconds since the epoch
    players: int
    people: tuple[int, ...]  # the seats of people
    actions: int
    to_move: int | None  # the person whose decision the game waits for (None: a bot or chance)


def games_in_progress(folder: Path, game: str, most: int = 20) -> list[Saved]:
    """The ``most`` newest games of ``game`` in ``folder`` that are not over, newest first; a file that
    cannot be replayed is left out (the address still says why when it is opened)."""
    files = sorted(Path(folder).glob("*.jsonl"), key=lambda p: p.stat().st_mtime, reverse=True) \
        if Path(folder).is_dir() else []
    found = []
    for path in files:
        if len(found) >= most:
            break
        saved = _saved(str(path), path.stat().st_mtime, game)
        if saved is not None:
            found.append(saved)
    return found


@st.cache_data(show_spinner=False, max_entries=256)
def _saved(path: str, modified: float, game: str) -> Saved | None:
    """One saved game (cached by its file's change time: a game is replayed once per change)."""
    text = Path(path).read_text(encoding="utf-8", errors="replace")
    if f'"game": "{game}"' not in text.split("\n", 1)[0]:
        return None
    try:
        session = PlaySession.from_log(text, name=Path(path).name)
    except ImperialError:
        return None
    if session.is_over() or not session.humans:
        return None
    return Saved(Path(path).stem, modified, session.game.num_players, tuple(sorted(session.humans)),
                 len(session.actions), session.waiting_for())


# ----- the kit -----

@dataclass(frozen=True)
class PlayKit:
    """One game's Play page machinery. ``prefix`` names its keys in the session state and its
    widgets' (``play`` -> ``play_session``, ``play_undo``), so two games' pages keep their games apart;
    ``game`` is the registry's name of the game (a saved game or a log of another game is refused).
    ``hidden``: the game hides information from seats, so hot-seat hands the device over.
    ``label`` names a seat as the page does, ``words`` an action's text form in plain words (the
    undo's notice), ``explorer`` the page that shows a saved log; ``max_players`` and ``default_bot``
    (the bot of a seat a resumed log names none for) are the game's."""

    prefix: str
    game: str
    hidden: bool = False
    label: Callable[[int], str] = seat_name
    words: Callable[[str], str] = str
    explorer: str = "the explorer"
    max_players: int = 6
    default_bot: str = "heuristic"

    def key(self, name: str) -> str:
        return f"{self.prefix}_{name}"

    def session(self) -> PlaySession | None:
        return st.session_state.get(self.key("session"))

    def game_id(self) -> str | None:
        return st.session_state.get(self.key("game_id"))

    def folder(self) -> Path:
        return games_folder(frame.catalog_path())

    # ----- which game -----

    def page(self, title: str, new_game: Callable[[], None], game: Callable[[PlaySession], None]) -> None:
        """A Play page whose game is drawn at once: ``title``, the top (``choose_game``), then
        ``game(session)``; an ImperialError of the game is said in one box, the page goes on."""
        st.title(title)
        session = self.choose_game(new_game)
        if session is None:
            return
        try:
            game(session)
        except ImperialError as exc:
            frame.show_error("The game cannot go on.", exc)

    def choose_game(self, new_game: Callable[[], None]) -> PlaySession | None:
        """The page's top: the game of this browser session or of the address (``current``), the
        New game expander (``new_game()`` draws its form) and Resume. Without a game, what to do."""
        session = self.current()
        with st.expander("New game", expanded=session is None, icon=":material/add:"):
            new_game()
        waiting = [g for g in games_in_progress(self.folder(), self.game) if g.game_id != self.game_id()]
        if waiting:
            with st.expander(f"Your games in progress ({len(waiting)})", expanded=session is None,
                             icon=":material/pending_actions:"):
                self.in_progress(waiting)
        with st.expander("Resume a saved game", icon=":material/upload_file:"):
            self.resume_form()
        if session is None:
            self.notice(errors_only=True)
            st.info("Choose the seats above and start a game: a person in one seat or more, a bot in the others.")
        return session

    def current(self) -> PlaySession | None:
        """The game of this browser session, or of the address's ``?game=ID`` (a reload, a shared link)."""
        wanted, have = st.query_params.get(QUERY), self.game_id()
        if wanted and wanted != have:
            self._open(wanted, have)
        elif have and not wanted:  # back from another page, which dropped the parameter
            st.query_params[QUERY] = have
        if self.key("watch") not in st.session_state:  # a reload: the pace of the bots is in the address too
            st.session_state[self.key("watch")] = st.query_params.get(WATCH_QUERY) == "1"
        self._show_watch()
        return self.session()

    def _open(self, wanted: str, have: str | None) -> None:
        """Adopt the saved game ``wanted``; if there is none (of this game), say so and put this
        session's own game (if any) back in the address."""
        try:
            session = self._load(wanted)
            if session is None:
                st.warning(f"There is no game {frame.code_span(wanted)} on this server: start one or resume a "
                           f"saved one.")
        except LogError as exc:
            session = None
            frame.show_error(f"The saved game {frame.code_span(wanted)} cannot be replayed.", exc)
        if session is not None:
            self.adopt(wanted, session, saved=True)
            return
        del st.query_params[QUERY]
        if have:
            st.query_params[QUERY] = have

    def _load(self, game_id: str) -> PlaySession | None:
        session = load_game(self.folder(), game_id) if valid_id(game_id) else None
        return session if session is not None and session.game.name == self.game else None

    def adopt(self, game_id: str, session: PlaySession, saved: bool = False) -> None:
        """Make ``session`` this browser session's game; nobody has the device yet (hot-seat)."""
        st.session_state[self.key("game_id")] = game_id
        st.session_state[self.key("session")] = session
        st.session_state[self.key("saved")] = (game_id, session.changes) if saved else None
        st.session_state.pop(self.key("viewer"), None)
        st.query_params[QUERY] = game_id

    def start(self, session: PlaySession) -> None:
        """A new game: adopted under a new id, written, and the page run again to show it."""
        self.adopt(new_id(), session)
        self.persist(session)
        st.rerun()

    def persist(self, session: PlaySession) -> None:
        """Write the game to ``play/ID.jsonl`` when it changed since it was last written."""
        game_id = self.game_id()
        mark = (game_id, session.changes)
        if game_id and st.session_state.get(self.key("saved")) != mark:
            try:
                save_game(self.folder(), game_id, session)
            except OSError as exc:  # e.g. a read-only folder: the game goes on, a reload would lose it
                st.session_state[self.key("unsaved")] = f"{self.folder()}: {exc.strerror or exc}"
                return
            st.session_state[self.key("saved")] = mark
            st.session_state.pop(self.key("unsaved"), None)

    def in_progress(self, games: list[Saved]) -> None:
        """A line per game in progress on this computer (``play/`` in the user folder), newest first,
        each with a button that goes on with it."""
        now = time.time()
        for g in games:
            text, button = st.columns([4, 1], vertical_alignment="center")
            people = ", ".join(self.label(p) for p in g.people)
            turn = f"{self.label(g.to_move)} to decide" if g.to_move is not None else "the bots to move"
            text.markdown(f"**{_ago(now - g.modified)}** · {g.players} players, {people} played by "
                          f"{'a person' if len(g.people) == 1 else 'people'} · {count(g.actions, 'action')} · {turn}")
            button.button("Go on", key=self.key(f"resume_{g.game_id}"), icon=":material/play_arrow:",
                          on_click=self._go_on, args=(g.game_id,), width="stretch")

    def _go_on(self, game_id: str) -> None:
        """Open the saved game ``game_id`` (a callback: the page then runs with it)."""
        try:
            session = self._load(game_id)
        except LogError as exc:
            self._tell("error", f"The saved game {frame.code_span(game_id)} cannot be replayed.", str(exc))
            return
        if session is not None:
            self.adopt(game_id, session, saved=True)

    # ----- a new game's seats -----

    def seat_boxes(self, players: int, bots) -> list[str]:
        """A choice per seat: ``PERSON`` or one of ``bots`` (seat A a person, the others
        ``default_bot`` at first). Several people take turns at the screen (hot-seat)."""
        cols = st.columns(self.max_players)
        seats = []
        for p in range(players):
            key = self.key(f"seat_{p}")
            if key not in st.session_state:
                st.session_state[key] = PERSON if p == 0 else self.default_bot
            seats.append(cols[p].selectbox(self.label(p), (PERSON, *bots), key=key))
        return seats

    def start_button(self, seats: list[str]) -> bool:
        """Start the game (clicked: True); refused while no seat is a person's."""
        people = sum(choice == PERSON for choice in seats)
        clicked = st.button("Start the game", type="primary", icon=":material/play_arrow:", key=self.key("start"),
                            disabled=people == 0)
        if people == 0:
            st.caption("Choose at least one seat for a person (several take turns at this screen).")
        return clicked

    # ----- a saved game -----

    def resume_form(self) -> None:
        """A saved move log (Save, ``imperial play --log``/``save``): the game goes on from its end."""
        people, upload = st.columns([1, 2])
        people.multiselect("Seats for people", list(range(self.max_players)), format_func=self.label,
                           key=self.key("resume_people"), placeholder="the log's",
                           help=f"leave empty to keep the seats the log names (human: a person); otherwise these "
                                f"seats are people's and the others keep the log's bots ({self.default_bot} where "
                                f"it names none)")
        upload.file_uploader("Move log", key=self.key("upload"), on_change=self._resume,
                             help="a game record in JSON Lines (docs/formats.md): this page's Save, "
                                  "`imperial play --log` or the terminal's save. A seat the log names no bot for "
                                  "is played by a person.")

    def resumed(self, text: str, name: str, people=()) -> PlaySession:
        """The session of a move log, ``people`` (seats) played by people if any are given; an
        ImperialError names what is wrong (the log's line, or a log of another game)."""
        session = PlaySession.from_log(text, name=name)
        if session.game.name != self.game:
            raise SetupError(f"{name} is a game of {plugin(session.game.name).title}, not of "
                             f"{plugin(self.game).title}")
        if set(people) & set(range(session.game.num_players)):
            seats = [None if p in people else spec or self.default_bot for p, spec in enumerate(session.seats)]
            session = PlaySession(session.config, seats, session.seed, actions=session.actions)
        return session

    def _resume(self) -> None:
        upload = st.session_state.get(self.key("upload"))
        if upload is None:
            return
        text = upload.getvalue().decode("utf-8", errors="replace")
        try:
            session = self.resumed(text, upload.name, st.session_state.get(self.key("resume_people")) or ())
        except ImperialError as exc:  # the game in progress, if any, goes on unchanged
            self._tell("error", f"{frame.code_span(upload.name)} cannot be resumed.", str(exc))
            return
        self.adopt(new_id(), session)
        self.persist(session)
        self._tell("success", f"Resumed {md(upload.name)} after {len(session.actions)} actions.")

    # ----- the moves (callbacks: they run before the page, or its fragment, runs again) -----

    def fresh(self, changes: int) -> PlaySession | None:
        """The game, if it has not changed since the page offered the click (a double click is ignored)."""
        session = self.session()
        return session if session is not None and session.changes == changes else None

    def choose(self, changes: int, number: int) -> None:
        """The person to move plays choice ``number`` (1-based, in the engine's order of ``legal()``)."""
        session = self.fresh(changes)
        if session is None or session.waiting_for() is None:
            return
        session.play(session.legal()[number - 1])
        self.persist(session)

    def _next(self, changes: int) -> None:
        session = self.fresh(changes)
        if session is not None and session.waiting_for() is None and not session.is_over():
            session.step()
            self.persist(session)

    def _skip(self, changes: int) -> None:
        """Skip to my turn: the page's next run plays the moves (and says who is thinking)."""
        if self.fresh(changes) is not None:
            st.session_state[self.key("skip_to")] = changes

    def _undo(self, changes: int) -> None:
        session = self.fresh(changes)
        if session is None:
            return
        undone = session.undo()
        if undone is None:
            self._tell("info", "Nothing to undo: no person has decided yet.")
            return
        later = undone.later
        after = f" and the {count(later, 'move')} after it" if later else ""
        what = f"decision “{md(self.words(undone.text))}” (`{undone.text}`)"
        if self.hidden and self.viewer(session) != undone.player:  # another person's choice stays private
            what = "last decision"
        self._tell("info", f"Undone: {self.label(undone.player)}'s {what}{after}.")
        self.persist(session)

    # ----- the bots -----

    def advance(self, session: PlaySession) -> None:
        """The bots' and chance's moves up to the next decision of a person, unless they are watched
        move by move (then Next and Skip to my turn play them); then the game is written."""
        status = st.empty()
        skip = st.session_state.pop(self.key("skip_to"), None) == session.changes
        if (skip or not self._watching(session)) and session.waiting_for() is None and not session.is_over():
            self._advance(session, status)
        self.persist(session)

    def _watching(self, session: PlaySession) -> bool:
        """The bots are watched move by move: asked for, and through someone's eyes (in a hot-seat game
        with hidden information nobody has the device before the first hand-over: they play on)."""
        return st.session_state.get(self.key("watch"), False) and (not self.hidden or self.viewer(session) is not None)

    def _advance(self, session: PlaySession, status) -> None:
        """A slow reply (a search bot's) says who is thinking."""
        start = time.perf_counter()

        def thinking(step=None) -> None:
            if time.perf_counter() - start > SLOW_SECONDS and not session.is_over() and session.waiting_for() is None:
                status.info(f"{self.mover(session)} is thinking … ({len(session.actions)} actions played)",
                            icon=":material/hourglass_top:")

        session.advance_to_human(on_step=thinking)
        status.empty()

    def mover(self, session: PlaySession) -> str:
        """Who moves next: ``Chance``, or the seat and its bot (``Player B (random)``)."""
        p = session.to_move()
        return "Chance" if p == CHANCE else f"{self.label(p)} ({session.seats[p]})"

    def watch_buttons(self, session: PlaySession) -> None:
        """Watching the bots: Next (one move) and Skip to my turn."""
        nxt, skip = st.columns(2)
        nxt.button("Next", icon=":material/skip_next:", key=self.key("next"), on_click=self._next,
                   args=(session.changes,), type="primary", width="stretch", help="one move of a bot or of chance")
        skip.button("Skip to my turn", icon=":material/fast_forward:", key=self.key("skip"), on_click=self._skip,
                    args=(session.changes,), width="stretch",
                    help="the bots play on up to the next decision of a person (or the end)")

    def _show_watch(self) -> None:
        """Keep "watch the bots" in the address (a reload keeps the pace)."""
        if st.session_state.get(self.key("watch")):
            st.query_params[WATCH_QUERY] = "1"
        elif WATCH_QUERY in st.query_params:
            del st.query_params[WATCH_QUERY]

    # ----- the game's bar and notices -----

    def controls(self, session: PlaySession, details=()) -> None:
        """Who plays which seat (``details``: the game's own words, after the player count), then the
        game's controls: Undo, Save, the pace of the bots."""
        seats = " · ".join(f"{self.label(p)} {'(person)' if spec is None else spec}"
                           for p, spec in enumerate(session.seats))
        game_id = self.game_id()
        st.caption(" · ".join([f"Game `{game_id}`", f"{session.game.num_players} players", *details,
                               f"seed {session.seed}", seats, f"{len(session.actions)} actions played"]))
        if st.session_state.get(self.key("unsaved")):
            frame.show_error("The game cannot be written for a reload of the page (Save still works):",
                             st.session_state[self.key("unsaved")])
        cols = st.columns([1, 1, 2.4, 2], vertical_alignment="center")
        cols[0].button("Undo", icon=":material/undo:", key=self.key("undo"), on_click=self._undo,
                       args=(session.changes,), disabled=session.last_human_index() is None, width="stretch",
                       help="take back the last decision of a person and every move after it")
        every_hand = "; it holds every seat's hidden cards and tiles" if self.hidden else ""
        cols[1].download_button("Save", data=session.to_log, file_name=f"{self.game}-{game_id}.jsonl",
                                mime="application/jsonl", icon=":material/download:", key=self.key("save"),
                                on_click="ignore", width="stretch",
                                help=f"the move log of the game so far: Resume continues it; {self.explorer} "
                                     f"shows it (an uploaded move log); imperial replay checks it{every_hand}")
        cols[2].toggle("Watch the bots move by move", key=self.key("watch"), on_change=self._show_watch,
                       help="off: the bots reply at once and their moves are listed; on: Next plays one move, "
                            "Skip to my turn the rest")

    def _tell(self, kind: str, title: str, message: str | None = None) -> None:
        """A notice for the next run (``kind``: info, success or error)."""
        st.session_state[self.key("notice")] = (kind, title, message)

    def notice(self, errors_only: bool = False) -> None:
        """What the last click did: an undo, a resume (or why it failed)."""
        notice = st.session_state.pop(self.key("notice"), None)
        if not notice or (errors_only and notice[0] != "error"):
            return
        kind, title, message = notice
        if kind == "error":
            frame.show_error(title, message)
        else:
            getattr(st, kind)(title)

    # ----- why not? -----

    def why_not(self, link: Callable[[str], str] = md, also: str = "") -> None:
        """"Why not …?": every action of the person's decision (the legal ones, then the tempting
        refused ones: ``PlaySession.why_options``) in a list in the game's words (``words``, ✓ allowed,
        ✗ refused); the one picked is answered in one sentence naming its rule (``link(text)``: the
        answer as Markdown, its rule a link to the rules page; ``also``: more of the list's help, another
        way of asking the page has). Meant as a fragment: asking reruns only it. The options are the seat
        to move's own (its hand, never another's), and the page calls it only when that seat has the
        device."""
        session = self.session()
        if session is None or session.waiting_for() is None:
            return
        here, key = (self.game_id(), session.changes), self.key(f"why_{session.changes}")
        legal = {session.state.action_to_string(a) for a in session.legal()}
        with st.expander("Why not …?", icon=":material/help:"):
            st.selectbox("An action of this decision", session.why_options(), index=None, key=key,
                         placeholder="choose an action to ask about", on_change=self._ask_why, args=(here, key),
                         format_func=lambda text: f"{'✓' if text in legal else '✗'} {self.words(text)}",
                         help=" ".join(filter(None, ("✓ allowed now, ✗ refused: choose one to hear why.", also))))
            answer = st.session_state.get(self.key("why"))
            if answer and answer[0] == here:
                text, why = answer[1], answer[2]
                if why.legal:
                    st.success(f"**{md(self.words(text))}** is allowed here: choice {why.choice}.")
                else:
                    st.warning(f"**{md(self.words(text))}**: {link(why.message)}", icon=":material/block:")

    def _ask_why(self, here: tuple, key: str) -> None:
        session, text = self.session(), st.session_state.get(key)
        if session is not None and text:
            st.session_state[self.key("why")] = (here, text, session.why(text))

    # ----- hint -----

    def hint(self, extra: Callable[[PlaySession, object], str] | None = None) -> None:
        """"Hint": what the hint's bot would choose for the person to move (``PlaySession.hint``: the
        rollout bot where the game has one), its choice and the most tried others in the game's words,
        with how often each was played out and how often the person won. Its playouts deal again what
        that seat cannot see, so the hint knows no more than the person. ``extra(session, action)``: a
        line of the page's own under the choice (Imperial 2030: the learned evaluator's words). Meant
        as a fragment, called like ``why_not`` only when the seat to move has the device."""
        session = self.session()
        if session is None or session.waiting_for() is None:
            return
        here = (self.game_id(), session.changes)
        with st.expander("Hint", icon=":material/lightbulb:"):
            playouts = st.select_slider("Playouts", HINT_STRENGTHS, value=HINT_STRENGTHS[1], key=self.key("hint_playouts"),
                                        help="games the bot plays to the end to judge the choices: more is surer "
                                             "and slower (80: about a second in Imperial 2030, a few in the others)")
            if st.button("What would the bot choose?", key=self.key("hint_ask"), type="primary"):
                with st.spinner(f"Thinking ({playouts} playouts) …"):
                    st.session_state[self.key("hint")] = (here, session.hint(playouts))
            shown = st.session_state.get(self.key("hint"))
            if not shown or shown[0] != here:
                return
            hint = shown[1]
            rows = hint_rows(session, hint, self.words)
            st.markdown(f"{hint.bot_words.capitalize()} would choose **{rows[0]['choice']}. {md(rows[0]['action'])}**. "
                        f"{hint.search_words}")
            if extra is not None:
                st.markdown(extra(session, hint.stats[0].action))
            st.caption(f"How often each choice was tried, and the win chance it estimates for "
                       f"{self.label(hint.player)} (the mean result of its playouts):")
            st.dataframe(rows, hide_index=True, width="stretch", column_config={
                "choice": st.column_config.NumberColumn("no.", width=40),
                "action": st.column_config.TextColumn("choice", width="large"),
                "visits": st.column_config.NumberColumn("tries", width=55),
                "win chance": st.column_config.NumberColumn("win", format="%d%%", width=55)})
            if len(hint.stats) > len(rows):
                st.caption(f"({len(hint.stats) - len(rows)} other choices with fewer tries)")

    # ----- what happened -----

    def since_last(self, session: PlaySession, me: int | None, most: int) -> list:
        """The moves (``Step``) since ``me``'s last decision, of the ``most`` last ones (all of them
        when ``me`` has not decided among those)."""
        history = session.history(max(0, len(session.actions) - most))
        last = next((k for k in range(len(history) - 1, -1, -1) if history[k].player == me), -1)
        return history[last + 1:]

    def what_happened(self, steps: list, lines_of: Callable[[object], list[str]], height: int = 300) -> None:
        """The moves since the viewer's last decision, each as the page's Markdown lines
        (``lines_of(step)``: the viewer's words for it), in a box of ``height`` pixels that scrolls."""
        if not steps:
            return
        with st.expander(f"What happened ({count(len(steps), 'move')} since your last)", expanded=True):
            with st.container(height=height):
                st.markdown("\n".join(line for step in steps for line in lines_of(step)))

    # ----- hot-seat with hidden information -----

    def viewer(self, session: PlaySession) -> int | None:
        """The seat whose eyes the page is for: the one person's; in hot-seat, the person who has the
        device (None before the first hand-over: the page then shows no seat's private view)."""
        if len(session.humans) == 1:
            return next(iter(session.humans))
        return st.session_state.get(self.key("viewer"))

    def handed_to(self, session: PlaySession) -> int | None:
        """The person the device must be passed to before the page shows anything private: the person
        to decide, in a hot-seat game with hidden information, when another person has the device."""
        p = session.waiting_for()
        if not self.hidden or len(session.humans) < 2 or p is None:
            return None
        return None if p == st.session_state.get(self.key("viewer")) else p

    def hand_over(self, session: PlaySession) -> bool:
        """If the device must be passed on (``handed_to``): a screen that says so and nothing else of
        the game, until that person clicks; True while it is shown (the page draws no more)."""
        p = self.handed_to(session)
        if p is None:
            return False
        with st.container(border=True):
            st.markdown(f"**Pass the device to {md(self.label(p))}.**")
            st.caption("Each seat's hand is its own: only the seat to decide looks at the screen now.")
            st.button(f"Show {self.label(p)}'s view", icon=":material/visibility:", key=self.key("hand_over"),
                      type="primary", on_click=self._take_device, args=(session.changes, p))
        return True

    def _take_device(self, changes: int, p: int) -> None:
        session = self.fresh(changes)
        if session is not None and session.waiting_for() == p:
            st.session_state[self.key("viewer")] = p
