"""A game's move log replayed once into snapshots an explorer steps through, for a game whose
explorer keeps one snapshot per action (Imperia's, Imperial Powers'): snapshot 0 before the first
action, snapshot k after action k with that action's events. What a snapshot holds is the game's
(``make_snapshot``); a log with a bad line is kept up to the line before it (``Replay.error``).
No Streamlit: the page caches the replay by the log's digest (imperial_lab.dashboard.log_source).
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from imperial_lab.core.errors import LogError
from imperial_lab.core.gamelog import replay_game
from imperial_lab.core.registry import plugin

# (index, player, the action's text, its events as JSON, the state after it) -> a game's snapshot
MakeSnapshot = Callable[[int, Any, Any, list, Any], Any]


@dataclass(frozen=True)
class Replay:
    header: dict
    snapshots: list
    error: LogError | None = None  # the bad line the replay stopped before

    @property
    def players(self) -> int:
        return self.header["config"]["players"]


def replay_log(text: str, name: str, game: str, make_snapshot: MakeSnapshot) -> tuple[dict, list, LogError | None]:
    """(header, snapshots, the error of a bad line or None) of the log ``text`` of ``game``; LogError
    when its header is bad or it is another game's."""
    header: dict = {}
    snapshots: list = []

    def start(state, found):
        if found["game"] != game:
            raise LogError(name, 1, f"a move log of {found['game']!r}, not of {plugin(game).title}")
        header.update(found)
        snapshots.append(make_snapshot(0, None, None, [], state))

    def step(state, player, action, events):
        snapshots.append(make_snapshot(len(snapshots), player, state.action_to_string(action),
                                       [e.to_json() for e in events], state))

    lines = io.StringIO(text)
    lines.name = name  # type: ignore[attr-defined]  # a LogError names the log
    try:
        replay_game(lines, on_start=start, on_step=step)
    except LogError as exc:
        if not snapshots:
            raise
        return header, snapshots, exc
    return header, snapshots, None
