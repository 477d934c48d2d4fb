"""A move log replayed into snapshots, for the explorers of every game (each game's ``replay.py`` says
what a snapshot of it holds), and a game of bots written as a move log (a sample to explore). No
Streamlit: a page caches the replay by the log's digest.

    replay = replay_snapshots(text, name, "imperia", snapshot)   # a Replay: .header, .snapshots, .error

``snapshot(index, player, text, events, state)`` is called for the position before the first action
(index 0, no player, no text, no events) and after each action (its events as ``Event.to_json()``);
a log with a bad line is kept up to the line before it, and ``error`` is that line's LogError.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from collections.abc import Callable

from imperial_lab.core.errors import LogError
from imperial_lab.core.gamelog import replay_game
from imperial_lab.core.registry import plugin


@dataclass(frozen=True)
class Replay:
    header: dict
    snapshots: list
    error: LogError | None = None  # the bad line the replay stopped before

    @property
    def players(self) -> int:
        return self.header["config"]["players"]


def replay_snapshots(text: str, name: str, game: str, snapshot: Callable, kind: type = Replay) -> Replay:
    """The log's ``kind`` of Replay (a game's own may add to it): its header, its snapshots and the
    LogError of a bad line (None when it replays whole); a bad header, or a log of another game,
    raises its LogError."""
    header: dict = {}
    snapshots: list = []

    def start(state, found):
        if found["game"] != game:
            raise LogError(name, 1, f"a move log of {found['game']!r}, not of {plugin(game).title}")
        header.update(found)
        snapshots.append(snapshot(0, None, None, [], state))

    def step(state, player, action, events):
        snapshots.append(snapshot(len(snapshots), player, state.action_to_string(action),
                                  [e.to_json() for e in events], state))

    lines = io.StringIO(text)
    lines.name = name  # a LogError names the log
    try:
        replay_game(lines, on_start=start, on_step=step)
    except LogError as exc:
        if not snapshots:
            raise
        return kind(header, snapshots, exc)
    return kind(header, snapshots)


def bots_log(game: str, players: int, seed: int, bot: str) -> str:
    """A game of ``bot`` in every seat (each seeded apart) as a move log."""
    from imperial_lab.core.bots import make_bot
    from imperial_lab.core.gamelog import write_log
    from imperial_lab.core.play import play_game

    bots = [make_bot(bot, seed * 10 + p, game=game) for p in range(players)]
    played = play_game({"game": game, "players": players}, bots, seed=seed, record=True)
    out = io.StringIO()
    write_log(out, played, seed=seed, bots=[bot] * players)
    return out.getvalue()
