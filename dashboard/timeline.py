"""A game's move log replayed once into snapshots that a page, a notebook or a test can step through.

A *snapshot* is one nation turn (turn 0 is the setup): the position document at the end of the
turn and the events of the turn. The turn boundaries are those of the data dictionary (docs/data-dictionary.md):
a turn ends with the action that starts the next one or ends the game, so its snapshot holds the
state after that action, and the ``nation_turn`` event that action emits last opens the next
snapshot. Each snapshot also lists its *actions*, the finer steps, each with the position after it.

Replaying is cheap (a 300-turn game takes well under a second with every position document), so
the explorer replays the log instead of storing positions in the tables.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# The line-numbered reader and stepper of core.gamelog (core.tables records replays with them too):
# the public replay() returns only the final state, and the explorer needs every action's events.
from core.gamelog import replay_game


@dataclass(frozen=True)
class ActionStep:
    """One action of the log: ``index`` counts from 1 (the ``step`` column of the events table)."""

    index: int
    player: int  # the deciding seat, -1 for chance
    text: str  # the action in text form (docs/formats.md, "Action notation")
    events: list[dict]  # Event.to_json() of everything it caused
    position: dict  # the position document after it


@dataclass(frozen=True)
class Snapshot:
    """One nation turn, or the setup when ``turn`` is 0 (then ``nation`` and ``government`` are None)."""

    turn: int
    round: int
    nation: str | None
    government: int | None
    position: dict  # the position document at the end of the turn
    events: list[dict] = field(default_factory=list)
    actions: list[ActionStep] = field(default_factory=list)


@dataclass(frozen=True)
class Timeline:
    header: dict  # the log's header: config, and seed and bots when the log has them
    snapshots: list[Snapshot]


class _NamedLines(list):
    """Lines that carry a file name, so that a LogError names the uploaded file."""

    def __init__(self, lines, name: str):
        super().__init__(lines)
        self.name = name


def timeline_from_text(text: str, name: str = "<log>") -> Timeline:
    """Replay a move log given as text; raises core.errors.LogError (``name:LINE: why``)."""
    return timeline_from_lines(_NamedLines(text.splitlines(), name))


def timeline_from_lines(source) -> Timeline:
    """Replay a move log (a path or an iterable of lines), every line checked as by ``imperial replay``."""
    builder = _Builder()
    header: dict = {}

    def begin(state, log_header) -> None:
        header.update(log_header)
        # The setup's own events (starting cash; with a fixed deal or a custom distribution the
        # whole setup and the opening of turn 1) come with the initial state, before any action.
        builder.add([e.to_json() for e in state.events], state.to_json())

    def step(state, player, action, events) -> None:
        index = builder.actions + 1
        done = ActionStep(index, player, state.action_to_string(action), [e.to_json() for e in events],
                          state.to_json())
        builder.add(done.events, done.position, done)

    played = replay_game(source, on_start=begin, on_step=step)
    return Timeline(header, builder.finish(played.state.to_json()))


class _Builder:
    """Cuts the stream of events into snapshots at every ``nation_turn`` event."""

    def __init__(self):
        self.done: list[Snapshot] = []
        self.current = Snapshot(0, 0, None, None, {})
        self.actions = 0

    def add(self, events: list[dict], position: dict, step: ActionStep | None = None) -> None:
        """The events of one action (or of the initial state) and the position after them."""
        if step is not None:
            self.actions += 1
            self.current.actions.append(step)
        for event in events:
            if event["kind"] == "nation_turn":
                # nation_turn is the last event of its action: the position after the action
                # closes the previous turn, and the action belongs to that turn.
                self._close(position)
                self.current = Snapshot(event["turn"], event["round"], event["nation"], event["government"], {})
            self.current.events.append(event)

    def finish(self, position: dict) -> list[Snapshot]:
        self._close(position)
        return self.done

    def _close(self, position: dict) -> None:
        c = self.current
        self.done.append(Snapshot(c.turn, c.round, c.nation, c.government, position, c.events, c.actions))


def event_groups(snapshot: Snapshot) -> list[tuple[ActionStep | None, list[dict]]]:
    """The snapshot's events in order, grouped by the action of this turn that caused them; the
    group of None holds those that came before its first action (the ``nation_turn`` event that
    opened the turn, or the setup's own events)."""
    owner = {id(event): step for step in snapshot.actions for event in step.events}
    groups: list[tuple[ActionStep | None, list[dict]]] = []
    for event in snapshot.events:
        step = owner.get(id(event))
        if not groups or groups[-1][0] is not step:
            groups.append((step, []))
        groups[-1][1].append(event)
    return groups
