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

Under the board a page may draw each player's chance to win over the game (``show_chances``): the
learned evaluator's line (imperial_lab.core.analysis.win_chance_line) of the open log, cached by the
log's digest, at the game's steps (its evaluator's checkpoints: Imperia's placement turns, Imperial
Powers' Bids), which the page names in a ``ChanceWords``. The evaluator reads public information
only, so the line is the same from every viewpoint; a game without an evaluator shows none.

    CHOOSER.show_chances(replay, here, STEP_KEY, ChanceWords("placement turn", "after every placement turn", label))
"""

from __future__ import annotations

import hashlib
import importlib
from bisect import bisect_right
from dataclasses import dataclass, field
from collections.abc import Callable

import streamlit as st

from imperial_lab.core.errors import ImperialError, LogError
from imperial_lab.core.registry import plugin
from imperial_lab.dashboard import charts, frame
from imperial_lab.dashboard.playkit import md
from imperial_lab.dashboard.replay import bots_log
from imperial_lab.dashboard.style import player_label

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


# ----- each player's chance to win (the learned evaluator) -----

@dataclass(frozen=True)
class ChanceWords:
    """How a game names the steps of its chance line (its evaluator's checkpoints). ``step``: one step,
    the chart's axis ("placement turn"); ``when``: the caption's "each player's chance to win ___"
    ("after every placement turn"); ``label(k, action, mover)``: step k (from 0; ``action`` the index of
    the explorer's step showing it, ``mover`` the seat to move there) in words ("Player B's placement
    turn 12"), which also names the cause of the swing from step k to step k + 1."""

    step: str
    when: str
    label: Callable[[int, int, int], str]


@st.cache_data(show_spinner="Judging each player's chance to win…", max_entries=32)
def chance_line(game: str, digest: str, _text: str, lines: int | None = None) -> list | None:
    """imperial_lab.core.analysis.win_chance_line of a move log (its first ``lines`` lines: a log with a
    bad line is judged up to the line before it), cached by the log's digest: [(step, action index,
    mover, [chance per seat])]; None when the game has no evaluator (or nothing to judge yet)."""
    from imperial_lab.core.analysis import win_chance_line
    from imperial_lab.core.bots import has_evaluator_part

    if not has_evaluator_part(plugin(game)):
        return None
    try:
        return win_chance_line(_text.splitlines()[:lines])
    except ImperialError:  # no model file, or the log stops before the first step
        return None


def step_at(actions: list[int], index: int) -> int | None:
    """The step of a chance line shown at the explorer's step ``index``: the last whose action index
    (``actions``, ascending) is at or before it; None before the first."""
    k = bisect_right(actions, index) - 1
    return k if k >= 0 else None


def clicked_action(points: list, actions: list[int]) -> int | None:
    """The explorer's step a click on the chance chart goes to: the action index of the step clicked
    (a point's x is the step); None when nothing was clicked."""
    if not points:
        return None
    k = int(points[0]["x"])
    return actions[min(max(k, 0), len(actions) - 1)]


def chance_figure(line: list, here: int, words: ChanceWords, names: list[str] | None = None,
                  colours: list[str] | None = None):
    """The Plotly figure of a chance line at the explorer's step ``here`` (imperial_lab.dashboard.charts.win_chances):
    a line per seat, the step shown dotted, the big swings marked."""
    from imperial_lab.core.analysis import big_swings

    chances = [row[3] for row in line]
    labels = [_step_label(line, k, words) for k in range(len(line))]
    current = step_at([row[1] for row in line], here)
    return charts.win_chances(chances, labels, current, big_swings(chances), words.step, names=names, colours=colours)


def chance_text(line: list, here: int, words: ChanceWords, names: list[str] | None = None) -> str:
    """The shown step's chances in words: at the first step each seat's chance, later the swing that
    led to it (imperial_lab.core.analysis.swing_words: the step that caused it, then each seat whose
    chance changed); before the first step, where the line begins."""
    from imperial_lab.core.analysis import swing_words

    k = step_at([row[1] for row in line], here)
    if k is None:
        return f"The chances to win begin at the first {words.step} (step {line[0][1]})."
    now = line[k][3]
    if k == 0:
        names = names or [player_label(seat) for seat in range(len(now))]
        return f"**Chances to win at the first {words.step}:** " + ", ".join(
            f"{name} {chance:.0%}" for name, chance in zip(names, now))
    return f"**The swing up to here:** {swing_words(_step_label(line, k - 1, words), line[k - 1][3], now)}."


def _step_label(line: list, k: int, words: ChanceWords) -> str:
    step, action, mover, _ = line[k]
    if mover < 0 and k == len(line) - 1:
        return "the end of the game"
    return words.label(step, action, mover)


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

    def show_chances(self, replay, here: int, step_key: str, words: ChanceWords, names: list[str] | None = None,
                     colours: list[str] | None = None) -> None:
        """Each player's chance to win over the open game (``chance_line``) at the explorer's step
        ``here``, with a caption, the shown step's swing in words, and a click on the chart going to the
        step clicked (``step_key``: the page's step). Nothing when the game has no evaluator."""
        opened = st.session_state.get(self.key("open"))
        if opened is None:
            return
        line = chance_line(self.game, opened.digest, opened.text,
                           replay.error.line - 1 if replay.error is not None else None)
        if not line:
            return
        actions = [row[1] for row in line]
        key = self.key("chances")

        def clicked() -> None:
            target = clicked_action(st.session_state[key].selection.points, actions)
            if target is not None:
                st.session_state[step_key] = target

        st.plotly_chart(chance_figure(line, here, words, names, colours), key=key, on_select=clicked,
                        selection_mode="points")
        st.caption(f"Each player's chance to win {words.when}, as the lab's learned evaluator judges it (public "
                   "information only: the same whatever the viewpoint). A diamond marks a big swing; click a point "
                   "to go there.")
        st.markdown(chance_text(line, here, words, names))

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
