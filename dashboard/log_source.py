"""The game an explorer shows, for every game that shows its moves from a move log: an uploaded log
(JSON Lines, imperial_lab.core.gamelog), a sample game played here by bots, or, when the catalogue
holds the game's games with their logs, a game of a run.

The open log is kept in the session under the explorer's own keys (``<prefix>_source``, ``_upload``,
``_open``, ...): another page drops a page's widgets, and the uploader forgets its file.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from imperial_lab.core.errors import ImperialError, LogError
from imperial_lab.core.registry import plugin
from imperial_lab.dashboard import frame

UPLOAD, SAMPLE, CATALOGUE = "an uploaded move log", "a sample game (bots)", "a game of the catalogue"
SAMPLE_PLAYERS = 4  # the sample's player count first offered (within the game's range)


@dataclass(frozen=True)
class OpenLog:
    name: str
    digest: str  # SHA-256 of the text: the replay's cache key
    text: str = field(repr=False)  # kept: the uploader forgets its file on another page


def open_log(name: str, text: str) -> OpenLog:
    return OpenLog(name, hashlib.sha256(text.encode()).hexdigest(), text)


def sample_bot(game: str) -> str:
    """The sample's bots: the game's heuristic when it has one, else random."""
    return "heuristic" if "heuristic" in plugin(game).bots else "random"


@st.cache_data(show_spinner="Playing a sample game…", max_entries=16)
def sample_log(game: str, players: int, seed: int, bot: str) -> str:
    """A game of ``bot`` in every seat as a move log."""
    from imperial_lab.core.bots import make_bot
    from imperial_lab.core.gamelog import write_log
    from imperial_lab.core.play import play_game

    bots = [make_bot(bot, seed * 10 + p, game=game) for p in range(players)]
    played = play_game({"game": game, "players": players}, bots, seed=seed, record=True)
    out = io.StringIO()
    write_log(out, played, seed=seed, bots=[bot] * players)
    return out.getvalue()


@st.cache_resource(show_spinner="Replaying the move log…", max_entries=16)
def _replayed(game: str, digest: str, _text: str, name: str, _replay_text: Callable[[str, str], Any]) -> Any:
    # A resource, not data: st.cache_data would unpickle every position of the replay on each run.
    return _replay_text(_text, name)


@st.cache_data(show_spinner=False, ttl=60)
def catalogue_games(catalog: str, table: str):
    """The catalogue's games with a move log (run, game_id) in ``table``; None when it has no such table
    with ``run``, ``game_id`` and ``log`` columns (or cannot be read)."""
    from imperial_lab.dashboard.queries import fetch

    try:
        found = fetch(catalog, "SELECT count(*) AS n FROM information_schema.columns WHERE table_name = ? "
                               "AND column_name IN ('run', 'game_id', 'log')", [table])
        if int(found["n"].iloc[0]) < 3:
            return None
        return fetch(catalog, f"SELECT run, game_id FROM {table} WHERE log IS NOT NULL ORDER BY run, game_id")
    except (ImperialError, OSError):
        return None


def catalogue_log(catalog: str, table: str, run: str, game_id: int) -> str | None:
    from imperial_lab.dashboard.queries import fetch

    rows = fetch(catalog, f"SELECT log FROM {table} WHERE run = ? AND game_id = ?", [run, game_id])
    return None if rows.empty else rows["log"].iloc[0]


@dataclass(frozen=True)
class LogSource:
    """Where one game's explorer finds its game: ``game`` (the plug-in name), ``table`` (the
    catalogue's table of its games, with their logs), ``prefix`` (of its session keys)."""

    game: str
    table: str
    prefix: str

    def key(self, name: str) -> str:
        return f"{self.prefix}_{name}"

    def choose(self) -> OpenLog | None:
        """The source and the game, in a box folded once a game is open (so the step controls and the
        board come up the screen); the open log, or None."""
        catalog = str(frame.catalog_path())
        games = catalogue_games(catalog, self.table)
        sources = (UPLOAD, SAMPLE) + ((CATALOGUE,) if games is not None and not games.empty else ())
        source_key = self.key("source")
        if st.session_state.get(source_key) not in sources:
            kept = st.session_state.get("kept:" + source_key)
            st.session_state[source_key] = kept if kept in sources else UPLOAD
        kept = st.session_state.get(self.key("open"))
        with st.expander("Game: " + (kept.name if kept else "none open"), expanded=kept is None,
                         icon=":material/folder_open:"):
            left, right = st.columns([1, 2.4], vertical_alignment="center")
            source = left.radio("Explore", sources, key=source_key, on_change=self._keep_source)
            with right:
                if source == UPLOAD:
                    self._upload()
                elif source == SAMPLE:
                    self._sample()
                else:
                    self._catalogue(catalog, games)
        return st.session_state.get(self.key("open"))

    def replay(self, replay_text: Callable[[str, str], Any]) -> Any:
        """The open game's replay (``replay_text(text, name)``, once per log), its step back at the start
        when the game is another; None when no game is open or its log cannot be replayed (said why)."""
        opened = self.choose()
        if opened is None:
            return None
        try:
            replay = _replayed(self.game, opened.digest, opened.text, opened.name, replay_text)
        except LogError as exc:
            frame.show_error(f"{frame.code_span(opened.name)}: this move log cannot be replayed.", exc)
            return None
        if replay.error is not None:
            frame.show_error(f"{frame.code_span(opened.name)}, line {replay.error.line}: this line cannot be "
                             f"replayed. The game is shown up to the line before it.", replay.error.why)
        step = self.key("step")
        if st.session_state.get(self.key("game")) != opened.digest:  # another game: start at its beginning
            st.session_state[self.key("game")] = opened.digest
            st.session_state[step] = 0
        elif step not in st.session_state:  # back from another page: Streamlit forgot the slider
            st.session_state[step] = st.session_state.get(self.key("shown"), 0)
        return replay

    def _upload(self) -> None:
        st.file_uploader("Move log", type=["jsonl", "json", "txt"], key=self.key("upload"), on_change=self._keep_upload,
                         help=f"a game record in JSON Lines, e.g. from `imperial play --game {self.game} --log x.jsonl` "
                              "or the Play page's Save")
        kept = st.session_state.get(self.key("open"))
        if kept is None:
            st.info(f"Upload an {plugin(self.game).title} move log, or open a sample game.")
        elif st.session_state.get(self.key("upload")) is None:
            st.caption(f"Open: {frame.code_span(kept.name)} (upload another log to replace it)")

    def _sample(self) -> None:
        low, high = plugin(self.game).players
        counts = tuple(range(max(low, 2), high + 1))
        a, b, c = st.columns(3)
        players = a.selectbox("Players", counts, index=counts.index(min(max(SAMPLE_PLAYERS, counts[0]), counts[-1])),
                              key=self.key("sample_players"))
        seed = b.number_input("Seed", 0, 10**6, 1, key=self.key("sample_seed"))
        bot = sample_bot(self.game)
        c.caption(f"Every seat: the {bot} bot.")
        st.session_state[self.key("open")] = open_log(f"sample {players} players seed {seed} ({bot})",
                                                      sample_log(self.game, players, int(seed), bot))

    def _catalogue(self, catalog: str, games) -> None:
        labels = {(row.run, int(row.game_id)): f"{row.run} · game {row.game_id}" for row in games.itertuples()}
        chosen = st.selectbox("Game", list(labels), format_func=labels.get, key=self.key("catalogue_game"))
        text = catalogue_log(catalog, self.table, *chosen)
        if text is not None:
            st.session_state[self.key("open")] = open_log(labels[chosen], text)

    def _keep_source(self) -> None:
        st.session_state["kept:" + self.key("source")] = st.session_state[self.key("source")]

    def _keep_upload(self) -> None:
        file = st.session_state[self.key("upload")]
        if file is not None:
            st.session_state[self.key("open")] = open_log(file.name, file.getvalue().decode("utf-8", errors="replace"))
