"""Game records as JSON Lines (README "Game records (move logs)").

    {"game": "imperial2030", "format": 1, "config": {"players": 4, "setup": "standard"}, "seed": 7}
    {"player": -1, "action": "deal RU,CN,IN,BR"}
    {"player": 0, "action": "rondel factory"}

The first non-blank line is the header (``seed`` and ``bots`` are metadata: replay needs only the
config); every further line is one action in its text form with the seat that decides it (-1 for
chance). Blank lines are skipped and unknown keys ignored, so hand-written logs may carry a
``"comment"``. Every problem is a LogError whose message starts with ``FILE:LINE:``.
"""

from __future__ import annotations

import json
from pathlib import Path

from core.errors import ImperialError, LogError
from core.interface import CHANCE, make_game
from core.play import PlayedGame

FORMAT = 1
HEADER_FIELDS = ("game", "format", "config")
ACTION_FIELDS = ("player", "action")


# ----- writing -----

def write_log(dest, played: PlayedGame, seed: int | None = None, bots: list[str] | None = None) -> None:
    """Write ``played`` (recorded with ``record=True``) to a path or an open text file."""
    header = {"game": played.config["game"], "format": FORMAT, "config": played.config}
    if seed is not None:
        header["seed"] = seed
    if bots is not None:
        header["bots"] = list(bots)
    # An action's text form depends only on the board, not on the position, so the final state
    # can name every action of the game.
    lines = [header] + [{"player": p, "action": played.state.action_to_string(a)} for p, a in played.actions]
    text = "".join(json.dumps(line) + "\n" for line in lines)
    if hasattr(dest, "write"):
        dest.write(text)
    else:
        Path(dest).write_text(text, encoding="utf-8")


# ----- reading (format only) -----

def read_log(source) -> tuple[dict, list[tuple[int, str]]]:
    """The config and the (player, action text) pairs of a log; checks the format, not the moves."""
    _, _, header, records = _parse(source)
    return header["config"], [(player, text) for _, player, text in records]


def _parse(source) -> tuple[str, int, dict, list[tuple[int, int, str]]]:
    """(file name, header line number, header with a complete config, [(line, player, text)])."""
    name, lines = _lines(source)
    header_line, header, records = 0, None, []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        doc = _json_object(name, number, line)
        if header is None:
            header_line, header = number, _header(name, number, doc)
        else:
            records.append((number, *_action_line(name, number, doc)))
    if header is None:
        raise LogError(name, 1, "empty log: the first line must be the header "
                                '{"game": ..., "format": 1, "config": {...}}')
    return name, header_line, header, records


def _lines(source) -> tuple[str, list[str]]:
    """A path (str or Path) is read from disk; anything else is taken as an iterable of lines."""
    if isinstance(source, (str, Path)):
        # Undecodable bytes become U+FFFD, so they surface as a located parse error, not a crash.
        return str(source), Path(source).read_text(encoding="utf-8", errors="replace").splitlines()
    return getattr(source, "name", "<lines>"), list(source)


def _json_object(name: str, number: int, line: str) -> dict:
    try:
        doc = json.loads(line)
    except json.JSONDecodeError as exc:
        raise LogError(name, number, f"malformed JSON: {exc.msg} at column {exc.colno}") from None
    if not isinstance(doc, dict):
        raise LogError(name, number, f"expected a JSON object, got {type(doc).__name__}")
    return doc


def _header(name: str, number: int, doc: dict) -> dict:
    missing = [key for key in HEADER_FIELDS if key not in doc]
    if missing:
        hint = " (an action line came before the header)" if "action" in doc else ""
        raise LogError(name, number, f"header is missing {_fields(missing)}{hint}")
    if doc["format"] != FORMAT:
        raise LogError(name, number, f"header: unsupported format {doc['format']!r} (this version reads {FORMAT})")
    if not isinstance(doc["game"], str) or not isinstance(doc["config"], dict):
        raise LogError(name, number, "header: 'game' must be a string and 'config' an object")
    if doc["config"].get("game", doc["game"]) != doc["game"]:
        raise LogError(name, number, f"header: game {doc['game']!r} but config.game {doc['config']['game']!r}")
    return {**doc, "config": {**doc["config"], "game": doc["game"]}}


def _action_line(name: str, number: int, doc: dict) -> tuple[int, str]:
    missing = [key for key in ACTION_FIELDS if key not in doc]
    if missing:
        raise LogError(name, number, f"action line is missing {_fields(missing)}")
    player, text = doc["player"], doc["action"]
    # bool is an int subclass, but `true` is never a seat.
    if not isinstance(player, int) or isinstance(player, bool):
        raise LogError(name, number, f"'player' must be a whole number (-1 for chance), got {player!r}")
    if not isinstance(text, str):
        raise LogError(name, number, f"'action' must be a string, got {text!r}")
    return player, text


def _fields(keys: list[str]) -> str:
    return ("field " if len(keys) == 1 else "fields ") + ", ".join(repr(k) for k in keys)


# ----- replaying (every move checked) -----

def replay(source):
    """The state a log leads to, every line checked against the rules; raises LogError."""
    return replay_game(source).state


def replay_game(source, on_start=None, on_step=None) -> PlayedGame:
    """Like ``replay``, but the whole PlayedGame (actions and the count of decisions).

    The hooks follow ``core.play.play_game``, so recorders work on live and replayed games alike:
    ``on_start(state, header)`` sees the initial state and the log's header (seed, bots),
    ``on_step(state, player, action, events)`` runs after every checked line.
    """
    name, header_line, header, records = _parse(source)
    game, state = _start(name, header_line, header["config"])
    if on_start is not None:
        on_start(state, header)
    played = PlayedGame(game.config, state)
    for number, player, text in records:
        action = _step(name, number, state, player, text)
        played.actions.append((player, action))
        played.decisions += player != CHANCE
        if on_step is not None:
            on_step(state, player, action, state.events)
    return played


def _start(name: str, number: int, config: dict):
    """The game and its initial state; a fixed deal in the config is only checked at the start."""
    try:
        game = make_game(config)
        return game, game.new_initial_state()
    # Besides the ImperialErrors of the config checks, a value of the wrong type may slip through
    # to a bare TypeError/AttributeError/KeyError; a log must never crash the reader.
    except (ValueError, TypeError, AttributeError, KeyError) as exc:
        raise LogError(name, number, f"bad config: {exc}") from exc


def _step(name: str, number: int, state, player: int, text: str):
    """Check that ``player`` decides here, parse and apply ``text``; return the action."""
    if state.is_terminal():
        raise LogError(name, number, f"{text!r} comes after the end of the game")
    if player != state.current_player():
        raise LogError(name, number, f"player {player} is not the one to decide: {_who(state.current_player())} "
                                     f"decides here (action {text!r})")
    try:
        action = state.string_to_action(text)
        state.apply_action(action)
    except ImperialError as exc:
        raise LogError(name, number, str(exc)) from exc
    return action


def _who(player: int) -> str:
    return f"chance ({CHANCE})" if player == CHANCE else f"player {player}"
