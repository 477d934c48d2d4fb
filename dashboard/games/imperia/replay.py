"""An Imperia move log replayed once into snapshots the explorer steps through: snapshot 0 is the
position before the first action, snapshot k the position after action k with that action's events,
and every snapshot the provisional scores of its position (§9; final at the end). A log with a bad
line is kept up to the line before it (``Replay.error``). No Streamlit: the page caches
``replay_text`` by the log's digest.
"""

from __future__ import annotations

from dataclasses import dataclass

from imperial_lab.core.games.imperia.scoring import tallies
from imperial_lab.dashboard.replay import Replay, replay_snapshots


@dataclass(frozen=True)
class Snapshot:
    index: int  # 0 before the first action, then the action's number from 1
    player: int | None  # the deciding seat, -1 for chance, None for snapshot 0
    text: str | None  # the action in its text form
    events: list  # Event.to_json() of what the action caused
    position: dict  # the position document after the action
    tallies: list  # imperial_lab.core.games.imperia.scoring.Tally per seat, on this position
    terminal: bool


def replay_text(text: str, name: str = "<log>") -> Replay:
    """The snapshots of the log ``text``; LogError when its header is bad or it is not Imperia's."""
    return replay_snapshots(text, name, "imperia", _snapshot)


def _snapshot(index: int, player, text, events: list, state) -> Snapshot:
    return Snapshot(index, player, text, events, state.to_json(), tallies(state), state.is_terminal())
