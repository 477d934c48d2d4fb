"""Game records as JSON Lines (docs/formats.md, "Game records").

    {"game": "imperial2030", "format": 1, "config": {"players": 4, "setup": "standard"}, "seed": 7}
    {"player": -1, "action": "deal RU,CN,IN,BR"}
    {"player": 0, "action": "rondel factory"}

The first non-blank line is the header (``seed`` and ``bots`` are metadata: replay needs only the
config; a header without ``game`` is of the game its config names, Imperial 2030 without one); every
further line is one action in its text form with the seat that decides it (-1 for chance). Blank lines are skipped and unknown keys ignored, so hand-written logs may carry a
``"comment"``. Every problem is a LogError whose message starts with ``FILE:LINE:``.
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring_ascii
from pathlib import Path

from imperial_lab.core.errors import ImperialError, LogError
from imperial_lab.core.interface import CHANCE, make_game, seat_name
from imperial_lab.core.jsonio import MAX_FILE_BYTES, MAX_LINE_CHARS, JSONInputError, clip, loads, read_text
from imperial_lab.core.play import PlayedGame
from imperial_lab.core.registry import game_of

FORMAT = 1
HEADER_FIELDS = ("format", "config")
ACTION_FIELDS = ("player", "action")
MAX_SEED = 2**63 - 1  # seeds are stored in Parquet's int64 columns
MAX_LINES = 100_000  # a logged game has about 1,000 lines


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
    # One template per line rather than a json.dumps of a dict each: the same bytes (json.dumps writes
    # a str as encode_basestring_ascii does), a third of the time, for every game a run records.
    name = played.state.action_to_string
    text = json.dumps(header) + "\n" + "".join(
        f'{{"player": {p}, "action": {encode_basestring_ascii(name(a))}}}\n' for p, a in played.actions)
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
    """A path (str or Path) is read from disk; anything else is taken as an iterable of lines. Either
    holds at most MAX_LINES lines."""
    if isinstance(source, (str, Path)):
        name = str(source)
        # Undecodable bytes become U+FFFD, so they surface as a located parse error, not a crash.
        try:
            source = read_text(source, ImperialError, MAX_FILE_BYTES).splitlines()
        except ImperialError as exc:
            raise LogError(name, 1, str(exc).removeprefix(f"{name}: ")) from None
    else:
        name = getattr(source, "name", "<lines>")
    lines: list[str] = []
    for line in source:
        if len(lines) == MAX_LINES:
            raise LogError(name, MAX_LINES + 1, f"more than {MAX_LINES:,} lines: not a game record")
        lines.append(line)
    return name, lines


def _json_object(name: str, number: int, line: str) -> dict:
    try:
        doc = loads(line, MAX_LINE_CHARS)
    except JSONInputError as exc:
        raise LogError(name, number, str(exc).replace(" (line 1, ", " (")) from None
    if not isinstance(doc, dict):
        raise LogError(name, number, f"expected a JSON object, got {type(doc).__name__}")
    return doc


def _header(name: str, number: int, doc: dict) -> dict:
    missing = [key for key in HEADER_FIELDS if key not in doc]
    if missing:
        hint = " (an action line came before the header)" if "action" in doc else ""
        raise LogError(name, number, f"header is missing {_fields(missing)}{hint}")
    if doc["format"] != FORMAT:
        raise LogError(name, number, f"header: unsupported format {clip(doc['format'])} (this version reads {FORMAT})")
    doc = {**doc, "game": doc.get("game", game_of(doc["config"]))}  # a header without one: its config's game
    if not isinstance(doc["game"], str) or not isinstance(doc["config"], dict):
        raise LogError(name, number, "header: 'game' must be a string and 'config' an object")
    if doc["config"].get("game", doc["game"]) != doc["game"]:
        raise LogError(name, number, f"header: game {clip(doc['game'])} but config.game {clip(doc['config']['game'])}")
    seed, bots = doc.get("seed"), doc.get("bots")
    if seed is not None and not (type(seed) is int and 0 <= seed <= MAX_SEED):
        raise LogError(name, number, f"header: seed must be a whole number 0..2**63-1 or null, got {clip(seed)}")
    if bots is not None and not (isinstance(bots, list) and len(bots) <= 6
                                 and all(isinstance(b, str) and 0 < len(b) <= 200 for b in bots)):
        raise LogError(name, number, f"header: bots must be a list of bot names, one per seat, got {clip(bots)}")
    return {**doc, "config": {**doc["config"], "game": doc["game"]}}


def _action_line(name: str, number: int, doc: dict) -> tuple[int, str]:
    missing = [key for key in ACTION_FIELDS if key not in doc]
    if missing:
        raise LogError(name, number, f"action line is missing {_fields(missing)}")
    player, text = doc["player"], doc["action"]
    # bool is an int subclass, but `true` is never a seat.
    if not isinstance(player, int) or isinstance(player, bool):
        raise LogError(name, number, f"'player' must be a whole number (-1 for chance), got {clip(player)}")
    if not isinstance(text, str):
        raise LogError(name, number, f"'action' must be a string, got {clip(text)}")
    return player, text


def _fields(keys: list[str]) -> str:
    return ("field " if len(keys) == 1 else "fields ") + ", ".join(repr(k) for k in keys)


# ----- replaying (every move checked) -----

def replay(source):
    """The state a log leads to, every line checked against the rules; raises LogError."""
    return replay_game(source).state


def replay_game(source, on_start=None, on_step=None) -> PlayedGame:
    """Like ``replay``, but the whole PlayedGame (actions and the count of decisions).

    The hooks follow ``imperial_lab.core.play.play_game``, so recorders work on live and replayed games alike:
    ``on_start(state, header)`` sees the initial state and the log's header (seed, bots),
    ``on_step(state, player, action, events)`` runs after every checked line.
    """
    name, header_line, header, records = _parse(source)
    game, state = _start(name, header_line, header["config"])
    bots = header.get("bots")
    if bots is not None and len(bots) != game.num_players:
        raise LogError(name, header_line, f"header: bots must name one bot per seat ({game.num_players}), "
                                          f"got {len(bots)}")
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
        raise LogError(name, number, f"{clip(text)} comes after the end of the game")
    if player != state.current_player():
        raise LogError(name, number, f"'player': {clip(player)} is not the one to decide: "
                                     f"{_who(state.current_player())} decides here (action {clip(text)})")
    try:
        action = state.string_to_action(text)
        state.apply_action(action)
    except ImperialError as exc:
        raise LogError(name, number, str(exc)) from exc
    return action


def _who(player: int) -> str:
    return f"chance ({CHANCE})" if player == CHANCE else f"{seat_name(player)} ({player})"
