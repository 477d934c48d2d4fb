"""An Imperial Powers move log replayed once into snapshots the explorer steps through: snapshot 0 is
the position before the first action, snapshot k the position after action k with that action's
events. A snapshot keeps the state itself (a clone: flat lists, cheap), not a document, because the
page draws it through the eyes of a chosen viewer (``state.observation(seat)``, §6.2) or with
everything. A log with a bad line is kept up to the line before it (``Replay.error``).

``Replay.stages`` are the places to jump to: the start of the setup, of each turn's phases (the
snapshot where the phase's first decision is awaited) and of the Reveal and Score (the snapshot of
the last Tactics decision, whose events are the reveal and the scores), then the end. No Streamlit:
the page caches ``replay_text`` by the log's digest.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from functools import cached_property

from imperial_lab.dashboard import replay

# The phase of a state's pending decision -> the stage it belongs to (RULES.md §4: the eight phases;
# Reveal and Score have no decisions, so they are found by their events).
STAGES = {"setup_roll": "Setup", "choose_power": "Setup", "draw": "Draw", "bid": "Bid", "develop": "Develop",
          "tactics": "Tactics", "event_draw": "Events", "event_assign": "Events", "event_die": "Events",
          "over": "Game over"}
REVEAL = "Reveal and score"


@dataclass(frozen=True)
class Snapshot:
    index: int  # 0 before the first action, then the action's number from 1
    player: int | None  # the deciding seat, -1 for chance, None for snapshot 0
    text: str | None  # the action in its text form
    events: list  # Event.to_json() of what the action caused
    state: object = field(repr=False)  # the state after the action (read-only)
    stage: str = ""  # "Turn 3 · Bid", "Setup", "Game over"

    @property
    def terminal(self) -> bool:
        return self.state.is_terminal()


@dataclass(frozen=True)
class Replay(replay.Replay):
    """A replay with its stages: the places to jump to."""

    @cached_property  # the replay is shared by every session (a cached resource) and never changes
    def stages(self) -> list[tuple[str, int]]:
        """(label, first snapshot) of every stage, in order."""
        out = []
        for snapshot in self.snapshots:
            if not out or out[-1][0] != snapshot.stage:
                out.append((snapshot.stage, snapshot.index))
        return out

    def stage_at(self, index: int) -> int:
        """The number (in ``stages``) of the stage snapshot ``index`` belongs to."""
        return bisect_right(self._starts, index) - 1

    @cached_property
    def _starts(self) -> list[int]:
        return [start for _, start in self.stages]


def stage_of(state, events: list) -> str:
    if any(e["kind"] == "revealed" for e in events):
        name = REVEAL
    else:
        name = STAGES[state.decision_name()]
    return name if name in ("Setup", "Game over") else f"Turn {state.turn} · {name}"


def replay_text(text: str, name: str = "<log>") -> Replay:
    """The snapshots of the log ``text``; LogError when its header is bad or it is not Imperial Powers'."""
    return replay.replay_snapshots(text, name, "imperial_powers", _snapshot, Replay)


def _snapshot(index: int, player, text, events: list, state) -> Snapshot:
    return Snapshot(index, player, text, events, state.clone(), stage_of(state, events))
