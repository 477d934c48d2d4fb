"""The open game: the one game the Game explorer and Power & control both show, chosen on either.

It is a game of the catalogue (a run and a game id) or an uploaded move log. What is open lives in
``st.session_state`` under keys of its own, not only in the chooser's widgets: Streamlit drops a
widget's value when the user goes to another page, and a file uploader's file with it, so the
chooser draws its widgets from what is kept and keeps what they are set to (the upload's text too).

A link opens a game of the catalogue in a new session: ``game_link(run, game_id)``, the explorer's
address with ``?run=NAME&game=ID``, which the chooser follows once on arrival.

The loaders are cached: a catalogue game's by the run's fingerprint (imperial_lab.dashboard.cache), so a run
registered again is read again; an upload's by the digest of its text.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from urllib.parse import urlencode

import pandas as pd
import streamlit as st

from imperial_lab.core.analysis import better_move_at, win_chance_line
from imperial_lab.core.errors import LogError
from imperial_lab.core.rollout import DEFAULT_PLAYOUTS
from imperial_lab.dashboard.games.imperial2030 import queries
from imperial_lab.dashboard.games.imperial2030.explorer_queries import game_log, run_games, stored_chances
from imperial_lab.core.imports import setup_name
from imperial_lab.core.tables import frames, record_replay
from imperial_lab.dashboard import cache, frame
from imperial_lab.dashboard.app import st_page
from imperial_lab.dashboard.pages import all_pages
from imperial_lab.dashboard.style import player_label
# _NamedLines: the lines of the text with the file's name, which a LogError then gives.
from imperial_lab.dashboard.games.imperial2030.replay import Timeline, _NamedLines, timeline_from_text

CATALOGUE, UPLOAD = "a run of the catalogue", "an uploaded move log"
BETTER_PLAYOUTS = DEFAULT_PLAYOUTS  # the rollout bot's default: about a second of rollouts
# The chooser's widgets (named after the explorer, where they began).
SOURCE_KEY, RUN_KEY, UPLOAD_KEY = "explorer_source", "explorer_run", "explorer_upload"
KEPT = "open_game:"  # prefix of the kept value of a widget key
UPLOADED_KEY = "open_game:upload"  # the Upload open, or None
LINK_COLUMN = st.column_config.LinkColumn("open", display_text="open", width=60,
                                          help="the game in the Game explorer (a new tab)")


# ----- what can be open -----

@dataclass(frozen=True)
class CatalogueGame:
    catalog: str
    run: str
    game_id: int

    @property
    def key(self) -> tuple:
        return ("catalogue", self.catalog, self.run, self.game_id)

    @property
    def title(self) -> str:
        return f"Game {self.game_id} of {self.run}"

    def timeline(self) -> Timeline:
        return _catalogue_timeline(self.catalog, cache.fingerprint(self.catalog, self.run), self.run, self.game_id)

    def answer(self, query) -> pd.DataFrame:
        """``query(catalog, run, game_id)``, one of the one-game questions of ``queries``."""
        return cache.load(query, self.catalog, self.run, self.game_id)

    def chance_line(self) -> list:
        """Each seat's chance to win at every step (imperial_lab.core.analysis.win_chance_line): the
        catalogue's stored analysis when the run has one, else worked out now (about 2 s a game)."""
        return _catalogue_chances(self.catalog, cache.fingerprint(self.catalog, self.run), self.run, self.game_id)

    def better_move(self, ply: int) -> dict:
        """The rollout bot's better move at the step beginning at action ``ply``
        (imperial_lab.core.analysis.better_move_at), cached."""
        return _catalogue_better(self.catalog, cache.fingerprint(self.catalog, self.run), self.run, self.game_id, ply)


@dataclass(frozen=True)
class Upload:
    name: str  # the file's name
    digest: str  # SHA-256 of its bytes
    text: str = field(repr=False)  # kept: the uploader forgets the file on another page

    @property
    def key(self) -> tuple:
        return ("upload", self.digest)

    @property
    def title(self) -> str:
        return f"Move log {frame.code_span(self.name)}"

    def timeline(self) -> Timeline:
        return _uploaded_timeline(self.digest, self.text, self.name)

    def answer(self, query) -> pd.DataFrame:
        """The same question over the tables the lab would record for this log (imperial_lab.core.tables); raises
        LogError for a log that cannot be replayed."""
        return _uploaded_answer(query.__name__, self.digest, self.text, self.name)

    def chance_line(self) -> list:
        """Each seat's chance to win at every step, worked out now (about 2 s a game)."""
        return _uploaded_chances(self.digest, self.text, self.name)

    def better_move(self, ply: int) -> dict:
        """The rollout bot's better move at the step beginning at action ``ply``, cached."""
        return _uploaded_better(self.digest, self.text, self.name, ply)


# ----- cached loading -----

@st.cache_data(show_spinner=False, max_entries=64)
def _games(catalog: str, fingerprint: tuple, run: str) -> pd.DataFrame:
    return run_games(catalog, run)


# Timelines are kept as resources, not data: st.cache_data would unpickle a game's every position
# document on each run of the page (60 ms for a 100-turn game); nothing changes a timeline.
@st.cache_resource(show_spinner="Replaying the game…", max_entries=8)
def _catalogue_timeline(catalog: str, fingerprint: tuple, run: str, game_id: int) -> Timeline:
    return timeline_from_text(game_log(catalog, run, game_id), f"{run} game {game_id}", partial=True)


@st.cache_resource(show_spinner="Replaying the move log…", max_entries=8)
def _uploaded_timeline(digest: str, _text: str, name: str) -> Timeline:
    return timeline_from_text(_text, name, partial=True)


@st.cache_data(show_spinner=False, max_entries=64)
def _uploaded_answer(query: str, digest: str, _text: str, name: str) -> pd.DataFrame:
    return getattr(queries, query)(_uploaded_tables(digest, _text, name), name, 0)


@st.cache_data(show_spinner="Recording the move log…", max_entries=8)
def _uploaded_tables(digest: str, _text: str, name: str) -> dict[str, pd.DataFrame]:
    """The log's tables as ``imperial import`` would record it, as run ``name``, game 0; of a log that
    stops on a bad line, those of the lines before it (the timeline's), the games row's ``error``
    quoting the line. Raises LogError for a bad header."""
    timeline = _uploaded_timeline(digest, _text, name)
    lines = _text.splitlines()
    if timeline.error:
        lines = lines[:timeline.error.line - 1]
    tables = frames(record_replay(_NamedLines(lines, name), name, 0, setup_name(timeline.header["config"])))
    if timeline.error:
        tables["games"]["error"] = str(timeline.error)
    return tables


JUDGING = "Judging every nation turn with the learned evaluator…"


@st.cache_data(show_spinner=JUDGING, max_entries=16)
def _catalogue_chances(catalog: str, fingerprint: tuple, run: str, game_id: int) -> list:
    stored = stored_chances(catalog, run, game_id)
    if stored:
        return stored
    return _judged(_catalogue_timeline(catalog, fingerprint, run, game_id), game_log(catalog, run, game_id) or "")


@st.cache_data(show_spinner=JUDGING, max_entries=16)
def _uploaded_chances(digest: str, _text: str, name: str) -> list:
    return _judged(_uploaded_timeline(digest, _text, name), _text)


def _judged(timeline: Timeline, text: str) -> list:
    """The chance line of a log's lines up to the timeline's end (a bad line's predecessors)."""
    return win_chance_line(_good_lines(timeline, text))


def _good_lines(timeline: Timeline, text: str) -> list[str]:
    lines = text.splitlines()
    return lines[:timeline.error.line - 1] if timeline.error else lines


# A better move costs seconds of rollouts (BETTER_PLAYOUTS): each is kept, by game and step.
@st.cache_data(show_spinner=False, max_entries=256)
def _catalogue_better(catalog: str, fingerprint: tuple, run: str, game_id: int, ply: int) -> dict:
    text = game_log(catalog, run, game_id) or ""
    return better_move_at(_good_lines(_catalogue_timeline(catalog, fingerprint, run, game_id), text), ply,
                          BETTER_PLAYOUTS)


@st.cache_data(show_spinner=False, max_entries=256)
def _uploaded_better(digest: str, _text: str, name: str, ply: int) -> dict:
    return better_move_at(_good_lines(_uploaded_timeline(digest, _text, name), _text), ply, BETTER_PLAYOUTS)


def load_timeline(game) -> Timeline | None:
    """The game's timeline, None when its log cannot be replayed at all; an error shows why, and for
    a log that stops on a bad line, which line (the timeline ends before it)."""
    try:
        timeline = game.timeline()
    except LogError as exc:  # a bad header: nothing to explore
        show_log_error(exc)
        return None
    if timeline.error:
        show_log_error(timeline.error, partial=True)
    return timeline


def show_log_error(exc: LogError, partial: bool = False) -> None:
    """The bad line and why; ``partial``: the game is shown up to the line before it."""
    shown = f" The game is shown up to line {exc.line - 1}." if partial else ""
    frame.show_error(f"{frame.code_span(exc.file)}, line {exc.line}: this move log cannot be replayed.{shown}",
                     exc.why)


# ----- choosing the game -----

def choose_game(link: tuple[str, str] | None = None) -> CatalogueGame | Upload | None:
    """The chooser both pages draw, and the game it leaves open (None when there is nothing to show
    yet); ``link`` (page file, label) links the open game's other page beside it. A link's game is
    opened first."""
    _follow_link()
    # One row, so that the explorer's step controls and its map fit a laptop's screen below it.
    source_col, game_col, link_col = st.columns([1, 2.2, 1.3], vertical_alignment="center")
    with source_col:
        source = _kept_choice(st.radio, "Explore", (CATALOGUE, UPLOAD), SOURCE_KEY)
    with game_col:
        game = _from_catalogue() if source == CATALOGUE else _from_upload()
    if game is not None and link is not None:
        with link_col:
            page_link(*link)
    return game


def _kept_choice(widget, label: str, options, key: str, **kwargs):
    """``widget(label, options, key=key)`` set to its kept value (the first option when that is not
    among the options), which it keeps up to date."""
    kept = st.session_state.get(KEPT + key)
    st.session_state[KEPT + key] = st.session_state[key] = kept if kept in options else options[0]
    return widget(label, options, key=key, on_change=_keep, args=(key,), **kwargs)


def _keep(key: str) -> None:
    st.session_state[KEPT + key] = st.session_state[key]


def _catalogue_runs(catalog: str) -> list[str]:
    """The catalogue's Imperial 2030 runs (the other games' runs have their own pages)."""
    return frame.game_runs(catalog, "imperial2030")["name"].tolist()


def _games_with_logs(catalog: str, run: str) -> pd.DataFrame:
    games = _games(catalog, cache.fingerprint(catalog, run), run)
    return games[games["has_log"]]


def _game_key(run: str) -> str:
    return f"explorer_game_of_{run}"


def _from_catalogue() -> CatalogueGame | None:
    catalog = str(frame.catalog_path())
    runs = _catalogue_runs(catalog)
    if not runs:
        st.info(f"The catalogue `{catalog}` has no runs yet: play some (`imperial simulate`) or upload a move log.")
        return None
    run = frame.selected_run()
    label = f"Game of run {run} (the sidebar picks the run)"
    if run not in runs:  # the page runs on its own: no sidebar picker
        run = _kept_choice(st.selectbox, "Run", runs, RUN_KEY)
        label = "Game"
    games = _games_with_logs(catalog, run)
    if games.empty:
        st.info(f"Run {run} has no game with a move log.")
        return None
    labels = {int(row.game_id): _game_label(row) for row in games.itertuples()}
    game_id = _kept_choice(st.selectbox, label, list(labels), _game_key(run), format_func=labels.get)
    return CatalogueGame(catalog, run, game_id)


def _game_label(row) -> str:
    if row.status == "finished":
        winners = " and ".join(player_label(p) for p in row.winners)
        return f"Game {row.game_id} · {winners} won · {row.nation_turns} nation turns ({row.rounds} rounds)"
    return f"Game {row.game_id} · {row.status} after {row.nation_turns} nation turns"


def _from_upload() -> Upload | None:
    st.file_uploader("Move log", key=UPLOAD_KEY, on_change=_keep_upload,
                     help="a game record in JSON Lines, as `imperial play --log` writes it "
                          "(docs/formats.md, Game records)")
    upload = st.session_state.get(UPLOADED_KEY)
    if upload is None:
        st.info("Upload a move log to explore it, e.g. one written by `imperial play --log game.jsonl`.")
    elif st.session_state[UPLOAD_KEY] is None:  # back from another page: the uploader is empty again
        st.caption(f"Open: {frame.code_span(upload.name)} (upload another log to replace it)")
    return upload


def _keep_upload() -> None:
    """Keep the uploaded file's text, or drop it when the file was removed."""
    file = st.session_state[UPLOAD_KEY]
    if file is None:
        st.session_state[UPLOADED_KEY] = None
        return
    data = file.getvalue()
    # Undecodable bytes become U+FFFD, as imperial_lab.core.gamelog reads files: a located error, not a crash.
    st.session_state[UPLOADED_KEY] = Upload(file.name, hashlib.sha256(data).hexdigest(),
                                            data.decode("utf-8", errors="replace"))


# ----- links -----

def game_link(run: str, game_id: int) -> str:
    """The address that opens the game in the explorer, relative to any page of the dashboard (all are
    served at the app's root: ``./explorer?...``, or ``./?...`` while the explorer is the first page)."""
    return f"./{_page('explorer').url_path}?{urlencode({'run': run, 'game': game_id})}"


def linked_games(catalog, run: str) -> pd.DataFrame:
    """The games of the run that the explorer opens (those with a move log), as
    imperial_lab.dashboard.games.imperial2030.explorer_queries.run_games lists them, with an ``open`` column of links for ``LINK_COLUMN``."""
    games = _games_with_logs(str(catalog), run)
    return games.assign(open=[game_link(run, int(game_id)) for game_id in games["game_id"]])


def _follow_link() -> None:
    """Open the game named by the address's ``run`` and ``game`` (``game_link``), once: they are then
    taken off the address, so that later choices stand. A run the sidebar does not show yet is
    selected there, which takes a rerun, since the sidebar is drawn before the page."""
    params = st.query_params
    if "run" not in params and "game" not in params:
        return
    run, game = params.pop("run", ""), params.pop("game", "")
    catalog = str(frame.catalog_path())
    if run not in _catalogue_runs(catalog):
        frame.show_error(f"This link opens no game: the catalogue has no run {frame.code_span(run)}.")
        return
    ids = _games_with_logs(catalog, run)["game_id"].tolist()
    if not game.isdigit() or int(game) not in ids:
        frame.show_error(f"This link opens no game: run {frame.code_span(run)} has no game "
                         f"{frame.code_span(game)} with a move log.")
        return
    st.session_state[KEPT + SOURCE_KEY] = CATALOGUE
    st.session_state[KEPT + RUN_KEY] = run  # for a page on its own
    st.session_state[KEPT + _game_key(run)] = int(game)
    if frame.selected_run() not in (None, run):
        frame.select_run(run)
        st.rerun()


def page_link(url: str, label: str) -> None:
    """A link to the page at URL ``url``, in this session: it finds the same open game there. It
    works when a page runs on its own too, as tests run them."""
    page = _page(url)
    st.page_link(page, label=label, icon=page.icon)


def _page(url: str):
    """The page at URL ``url`` (``"power"``) as st.navigation serves it."""
    return st_page(next(page for page in all_pages() if page.url_path == url))
