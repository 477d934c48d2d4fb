"""Reading JSON that a user hands the lab (logs, positions, setups, run folders) within bounds.

Every fault is one ImperialError of the caller's class naming where and why, in bounded time and
memory: files and lines over a size limit are refused before they are parsed, nesting deeper than
``MAX_DEPTH`` is refused (never a RecursionError), and an error quotes at most ``QUOTE_LIMIT``
characters of the input (``clip``), so a 5 MB line never becomes a 5 MB message.
"""

from __future__ import annotations

import json
from pathlib import Path

from imperial_lab.core.errors import ImperialError, NotationError

MAX_DEPTH = 32  # the deepest document of the lab (a position) nests 5 levels
MAX_FILE_BYTES = 8 * 2**20  # a logged game is about 50 KB; a position or setup about 10 KB
MAX_LINE_CHARS = 64 * 2**10  # a log line: a header with a custom distribution is about 1 KB
QUOTE_LIMIT = 80


def clip(value, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)`` cut to about ``limit`` characters, for quoting input in an error line."""
    if isinstance(value, int) and value.bit_length() > 4 * limit:  # repr would be long, or refused
        return f"a whole number of {value.bit_length():,} bits"
    text = repr(value)
    if len(text) <= limit:
        return text
    size = len(value) if isinstance(value, str) else len(text)
    return f"{text[:limit - 1]}… ({size:,} characters)"


def action_words(text: str) -> list[str]:
    """The words of an action's text form, which are separated by spaces: any other white space (a
    line break, a tab) is a NotationError, so that an action is one line as a move log writes it."""
    if not text.isprintable() and any(c.isspace() and c != " " for c in text):
        bad = next(c for c in text if c.isspace() and c != " ")
        raise NotationError(f"cannot parse action {clip(text)}: {bad!r} in it: the words of an action are "
                            f"separated by spaces")
    return text.split()


class JSONInputError(ImperialError):
    """Text that is not JSON the lab reads; the message says why, the caller adds where."""


def loads(text: str, limit: int = MAX_FILE_BYTES):
    """The value of the JSON ``text``, or JSONInputError."""
    if len(text) > limit:
        raise JSONInputError(f"{len(text):,} characters, more than the limit of {limit:,}")
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise JSONInputError(f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})") from None
    except RecursionError:
        raise JSONInputError(f"JSON nested more than {MAX_DEPTH} levels deep") from None
    except ValueError:  # Python refuses to convert integers of more than 4,300 digits
        raise JSONInputError("not valid JSON: a number too long to read (over 4,300 digits)") from None
    if _depth(value) > MAX_DEPTH:
        raise JSONInputError(f"JSON nested more than {MAX_DEPTH} levels deep")
    return value


def parse_json(text: str, where: str, error: type[ImperialError], limit: int = MAX_FILE_BYTES):
    """The value of the JSON ``text``; ``where`` (a file, a field) starts every error message."""
    try:
        return loads(text, limit)
    except JSONInputError as exc:
        raise error(f"{where}: {exc}") from None


def read_json_file(path, error: type[ImperialError], limit: int = MAX_FILE_BYTES):
    """The value of the JSON file at ``path``; a missing, oversized, undecodable or malformed file
    is an ``error`` naming the file."""
    return parse_json(read_text(path, error, limit), str(path), error, limit)


def read_text(path, error: type[ImperialError], limit: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of ``path`` (bad bytes become U+FFFD, to fail later with a location)."""
    path = Path(path)
    try:
        data = _read_bytes(path, limit)
    except OSError as exc:
        raise error(f"{path}: {exc.strerror or exc}") from None
    except ValueError:  # a NUL byte: no file has such a name
        raise error(f"{clip(str(path))}: no file can have this name") from None
    if data is None:  # a folder, or a device (/dev/zero never ends)
        raise error(f"{path}: {'a folder' if path.is_dir() else 'not a regular file'}, not a file to read")
    if len(data) > limit:
        raise error(f"{path}: more than {limit:,} bytes, the limit for this kind of file")
    return data.decode("utf-8", errors="replace")


def _read_bytes(path: Path, limit: int) -> bytes | None:
    """At most ``limit + 1`` bytes of a regular file (never more, even if it grows); None if ``path``
    is something else. A missing file raises FileNotFoundError."""
    if path.exists() and not path.is_file():
        return None
    with open(path, "rb") as file:
        return file.read(limit + 1)


def _depth(value) -> int:
    """How deep lists and objects nest in ``value`` (iteratively: no recursion limit applies)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        deepest = max(deepest, depth)
        if deepest > MAX_DEPTH:
            return deepest
        stack.extend((child, depth + 1) for child in children)
    return deepest
