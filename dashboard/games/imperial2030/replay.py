"""A game's move log replayed once into snapshots that a page, a notebook or a test can step through.

A *snapshot* is one nation turn (turn 0 is the setup): the position document at the end of the
turn and the events of the turn. The turn boundaries are those of the data dictionary (docs/data-dictionary.md):
a turn ends with the action that starts the next one or ends the game, so its snapshot holds the
state after that action, and the ``nation_turn`` event that action emits last opens the next
snapshot. Each snapshot also lists its *actions*, the finer steps, each with the position after it
and its plain words; ``action_groups`` pairs them with their events, ``position_before`` gives the
position a turn or an action started from (imperial_lab.dashboard.games.imperial2030.changes compares the two).

Replaying is cheap (a 300-turn game takes well under a second with every position document), so
the explorer replays the log instead of storing positions in the tables. A log with a bad line can
still be explored up to the line before it (``partial=True``), the error kept with the timeline.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from imperial_lab.core.errors import LogError

# The line-numbered reader and stepper of imperial_lab.core.gamelog (imperial_lab.core.tables records replays with them too):
# the public replay() returns only the final state, and the explorer needs every action's events.
from imperial_lab.core.gamelog import replay_game
from imperial_lab.core.games.imperial2030.action_words import action_words


@dataclass(frozen=True)
class ActionStep:
    """One action of the log: ``index`` counts from 1 (the ``step`` column of the events table)."""

    index: int
    player: int  # the deciding seat, -1 for chance
    text: str  # the action in text form (docs/formats.md, "Action notation")
    events: list[dict]  # Event.to_json() of everything it caused
    position: dict  # the position document after it
    words: str  # the action in plain words (imperial_lab.core.games.imperial2030.action_words)


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
    start: dict  # the position document of the initial state
    error: LogError | None = None  # the bad line a partial timeline stops before

    def position_before(self, turn: int, action: int | None = None) -> dict:
        """The position before nation turn ``turn`` (the previous turn's end; the setup is its own
        'before'), or before the action of index ``action`` of that turn (the previous action's
        position, the previous turn's end for a turn's first action, the initial state for the
        setup's first action)."""
        snapshot = self.snapshots[turn]
        if action is None:
            return self.snapshots[turn - 1].position if turn else snapshot.position
        k = next(k for k, step in enumerate(snapshot.actions) if step.index == action)
        if k:
            return snapshot.actions[k - 1].position
        return self.snapshots[turn - 1].position if turn else self.start


def turn_chances(timeline: Timeline, line: list) -> list[list[float] | None]:
    """Each snapshot's chances to win at its end (imperial_lab.core.analysis.win_chance_line's steps
    matched by the number of actions played: a nation turn ends where the next one begins, the last
    at the game's end); None for a snapshot the line does not reach."""
    by_ply = {ply: chances for _, ply, _, chances in line}
    out, ply = [], 0
    for snapshot in timeline.snapshots:
        if snapshot.actions:
            ply = snapshot.actions[-1].index
        out.append(by_ply.get(ply))
    return out


class _NamedLines(list):
    """Lines that carry a file name, so that a LogError names the uploaded file."""

    def __init__(self, lines, name: str):
        super().__init__(lines)
        self.name = name


def timeline_from_text(text: str, name: str = "<log>", partial: bool = False) -> Timeline:
    """Replay a move log given as text; raises imperial_lab.core.errors.LogError (``name:LINE: why``).

    With ``partial`` a bad action line does not raise: the timeline ends with the line before it
    (its unfinished turn closed there) and ``error`` holds the LogError. A bad header still raises:
    there is nothing to explore.
    """
    lines = _NamedLines(text.splitlines(), name)
    return _partial_timeline(lines) if partial else timeline_from_lines(lines)


def timeline_from_lines(source) -> Timeline:
    """Replay a move log (a path or an iterable of lines), every line checked as by ``imperial replay``."""
    builder = _Builder()
    replay_game(source, on_start=builder.start, on_step=builder.step)
    return builder.timeline()


def _partial_timeline(lines: _NamedLines) -> Timeline:
    builder = _Builder()
    try:
        replay_game(lines, on_start=builder.start, on_step=builder.step)
    except LogError as exc:
        if builder.started:  # a move was refused: on_step has delivered every line before it
            return builder.timeline(exc)
        if not any(line.strip() for line in lines[:exc.line - 1]):
            raise  # the header (or the config it names) is bad: no game to explore
        # Every line is parsed before the first move is replayed: replay the lines before the one
        # that does not parse (a move among them may still be refused, and then ends the timeline).
        shorter = _partial_timeline(_NamedLines(lines[:exc.line - 1], lines.name))
        return shorter if shorter.error else replace(shorter, error=exc)
    return builder.timeline()


class _Builder:
    """The replay's hooks: cuts the stream of events into snapshots at every ``nation_turn`` event."""

    def __init__(self):
        self.done: list[Snapshot] = []
        self.current = Snapshot(0, 0, None, None, {})
        self.actions = 0
        self.header: dict = {}
        self.initial: dict = {}
        self.position: dict = {}  # after the last action delivered
        self.started = False

    def start(self, state, header: dict) -> None:
        self.started = True
        self.header = header
        self.initial = state.to_json()
        # The setup's own events (starting cash; with a fixed deal or a custom distribution the
        # whole setup and the opening of turn 1) come with the initial state, before any action.
        self.add([e.to_json() for e in state.events], self.initial)

    def step(self, state, player: int, action, events) -> None:
        text = state.action_to_string(action)
        done = ActionStep(self.actions + 1, player, text, [e.to_json() for e in events], state.to_json(),
                          action_words(text, self.position))
        self.add(done.events, done.position, done)

    def add(self, events: list[dict], position: dict, step: ActionStep | None = None) -> None:
        """The events of one action (or of the initial state) and the position after them."""
        self.position = position
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

    def timeline(self, error: LogError | None = None) -> Timeline:
        """The timeline so far, the current turn closed with the last position."""
        self._close(self.position)
        return Timeline(self.header, self.done, self.initial, error)

    def _close(self, position: dict) -> None:
        c = self.current
        self.done.append(Snapshot(c.turn, c.round, c.nation, c.government, position, c.events, c.actions))


def action_groups(snapshot: Snapshot) -> list[tuple[ActionStep | None, list[dict]]]:
    """Every action of the snapshot in order, each with the events it caused in this turn (none for
    ``end maneuver``, ``no veto``…; the action that opens the next turn keeps its ``nation_turn``
    there), after the group of None: the events that came before the first action (the
    ``nation_turn`` event that opened the turn, or the setup's own events), when there are any."""
    here = {id(event) for event in snapshot.events}
    owned = {id(event) for step in snapshot.actions for event in step.events}
    leading = [event for event in snapshot.events if id(event) not in owned]
    groups = [(step, [event for event in step.events if id(event) in here]) for step in snapshot.actions]
    return ([(None, leading)] if leading else []) + groups


def event_groups(snapshot: Snapshot) -> list[tuple[ActionStep | None, list[dict]]]:
    """The snapshot's events in order, grouped by the action of this turn that caused them; the
    group of None holds those that came before its first action. Unlike ``action_groups``, actions
    that caused no event in this turn are left out."""
    return [(step, events) for step, events in action_groups(snapshot) if events]
