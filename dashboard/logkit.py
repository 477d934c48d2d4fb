"""The top of an explorer of a game told by its move log (Imperia's, Imperial Powers'): which game is
open, and its replay. A page makes one ``LogChooser`` and calls ``open_replay()``; what it draws of
the replayed game stays its own.

    CHOOSER = LogChooser("imperia", "imperia", "im_games", "imperial_lab.dashboard.games.imperia.replay")
    replay = CHOOSER.open_replay(STEP_KEY, SHOWN_KEY)   # None: nothing open yet (the page says why)

The game comes from one of three sources: a game of the run the sidebar picked (the first choice
when the game has runs with move logs, so a fresh lab opens on one), an uploaded move log, or a
sample game played here by the game's bots. The chooser folds away under the open game's name once a
game is open. The open game is kept in ``st.session_state`` (Streamlit drops a widget's value, and
an uploader's file, on another page); its replay is cached by the log's digest as a resource
(st.cache_data would unpickle every position on each run).
"""

from __future__ import annotations

import hashlib
import importlib
from dataclasses import dataclass, field

import streamlit as st

from imperial_lab.core.errors import ImperialError, LogError
from imperial_lab.core.registry import plugin
from imperial_lab.dashboard import frame
from imperial_lab.dashboard.playkit import md
from imperial_lab.dashboard.replay import bots_log

CATALOGUE, UPLOAD, SAMPLE = "a game of the run", "an uploaded move log", "a sample game (bots)"


@dataclass(frozen=True)
class OpenLog:
    name: str
    digest: str  # SHA-256 of the text: the replay's cache key
    text: str = field(repr=False)  # kept: the uploader forgets its file on another page


def open_log(name: str, text: str) -> OpenLog:
    return OpenLog(name, hashlib.sha256(text.encode()).hexdigest(), text)


@st.cache_resource(show_spinner="Replaying the move log…", max_entries=16)
def _replay(module: str, digest: str, _text: str, name: str):
    return importlib.import_module(module).replay_text(_text, name)


@st.cache_data(show_spinner="Playing a sample game…", max_entries=16)
def sample_log(game: str, players: int, seed: int, bot: str) -> str:
    """A game of ``bot`` in every seat as a move log."""
    return bots_log(game, players, seed, bot)


@st.cache_data(show_spinner=False, ttl=60)
def run_games(catalog: str, table: str, run: str):
    """The games of ``run`` with a move log (game_id), None when the catalogue has no such table with
    ``run``, ``game_id`` and ``log`` columns (or cannot be read)."""
    from imperial_lab.dashboard.queries import fetch

    try:
        found = fetch(catalog, "SELECT count(*) AS n FROM information_schema.columns WHERE table_name = ? "
                               "AND column_name IN ('run', 'game_id', 'log')", [table])
        if int(found["n"].iloc[0]) < 3:
            return None
        return fetch(catalog, f"SELECT game_id FROM {table} WHERE run = ? AND log IS NOT NULL ORDER BY game_id", [run])
    except (ImperialError, OSError):
        return None


def _run_log(catalog: str, table: str, run: str, game_id: int) -> str | None:
    from imperial_lab.dashboard.queries import fetch

    rows = fetch(catalog, f"SELECT log FROM {table} WHERE run = ? AND game_id = ?", [run, game_id])
    return None if rows.empty else rows["log"].iloc[0]


@dataclass(frozen=True)
class LogChooser:
    """One game's chooser. ``prefix`` names its keys (``imperia`` -> ``imperia_source``…), ``game``
    is the registry's name, ``table`` the catalogue's table of its games (with their logs), ``replay``
    the module whose ``replay_text(text, name)`` replays a log, ``players`` the sample's choices of
    player count (the first index: ``default_players``)."""

    prefix: str
    game: str
    table: str
    replay: str
    players: tuple[int, ...] = (2, 3, 4)
    default_players: int = 0

    def key(self, name: str) -> str:
        return f"{self.prefix}_{name}"

    @property
    def bot(self) -> str:
        """The sample's bots: the game's heuristic when it has one, else random."""
        return "heuristic" if "heuristic" in plugin(self.game).bots else "random"

    # ----- the open game -----

    def open_replay(self, step_key: str, shown_key: str):
        """The replay of the open game (None when none is open or its log cannot be replayed: said
        why). Another game starts at its first step; back from another page (which dropped the
        step's widget) the step last shown is kept."""
        opened = self.choose()
        if opened is None:
            return None
        try:
            replay = _replay(self.replay, opened.digest, opened.text, opened.name)
        except LogError as exc:
            frame.show_error(f"{frame.code_span(opened.name)}: this move log cannot be replayed.", exc)
            return None
        if replay.error is not None:
            frame.show_error(f"{frame.code_span(opened.name)}, line {replay.error.line}: this line cannot be "
                             f"replayed. The game is shown up to the line before it.", replay.error.why)
        if st.session_state.get(self.key("game")) != opened.digest:
            st.session_state[self.key("game")] = opened.digest
            st.session_state[step_key] = 0
        elif step_key not in st.session_state:
            st.session_state[step_key] = st.session_state.get(shown_key, 0)
        return replay

    def choose(self) -> OpenLog | None:
        """The source and the game, in an expander named after the open game (folded once one is
        open, so the step controls and the board come up the screen)."""
        catalog = str(frame.catalog_path())
        run = frame.selected_run()
        games = run_games(catalog, self.table, run) if run else None
        sources = ((CATALOGUE,) if games is not None and not games.empty else ()) + (UPLOAD, SAMPLE)
        source_key, kept_key = self.key("source"), f"kept:{self.key('source')}"
        if st.session_state.get(source_key) not in sources:
            kept = st.session_state.get(kept_key)
            st.session_state[source_key] = kept if kept in sources else sources[0]
        # The open game is named below the expander, once its body has chosen it (a sample is
        # chosen while the body is drawn: a label written before would name the previous one).
        with st.expander("Game", expanded=self.key("open") not in st.session_state, icon=":material/folder_open:"):
            left, right = st.columns([1, 2.4], vertical_alignment="center")
            source = left.radio("Explore", sources, key=source_key, on_change=self._keep, args=(source_key,))
            with right:
                if source == CATALOGUE:
                    self._from_run(catalog, run, games)
                elif source == SAMPLE:
                    self._sample()
                else:
                    self._upload()
        opened = st.session_state.get(self.key("open"))
        if opened is not None:
            st.caption(f"Open: **{md(opened.name)}** (another game: under Game above)")
        return opened

    def _keep(self, key: str) -> None:
        st.session_state[f"kept:{key}"] = st.session_state[key]

    def _from_run(self, catalog: str, run: str, games) -> None:
        ids = [int(g) for g in games["game_id"]]
        key = self.key(f"game_of_{run}")
        chosen = st.selectbox(f"Game of run {run} (the sidebar picks the run)", ids, key=key,
                              format_func=lambda g: f"game {g}")
        text = _run_log(catalog, self.table, run, chosen)
        if text is not None:
            st.session_state[self.key("open")] = open_log(f"{run} · game {chosen}", text)

    def _sample(self) -> None:
        a, b, c = st.columns(3)
        players = a.selectbox("Players", self.players, index=self.default_players, key=self.key("sample_players"))
        seed = b.number_input("Seed", 0, 10**6, 1, key=self.key("sample_seed"))
        c.caption(f"Every seat: the {self.bot} bot.")
        st.session_state[self.key("open")] = open_log(f"sample {players} players seed {seed} ({self.bot})",
                                                       sample_log(self.game, players, int(seed), self.bot))

    def _upload(self) -> None:
        st.file_uploader("Move log", type=["jsonl", "json", "txt"], key=self.key("upload"), on_change=self._uploaded,
                         help=f"a game record in JSON Lines, e.g. from `imperial play --game {self.game} --log x.jsonl` "
                              "or the Play page's Save")
        if st.session_state.get(self.key("open")) is None:
            st.info(f"Upload a {plugin(self.game).title} move log, or open a sample game.")

    def _uploaded(self) -> None:
        file = st.session_state[self.key("upload")]
        if file is not None:
            st.session_state[self.key("open")] = open_log(file.name, file.getvalue().decode("utf-8", errors="replace"))
