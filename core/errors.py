"""The errors every game of the lab raises; all are ValueErrors so callers can catch them at once."""


class ImperialError(ValueError):
    """Base class of every error the lab raises on bad input."""


class DataError(ImperialError):
    """A data file (board, tables, setup) is malformed; the message names the file and entry."""


class SetupError(ImperialError):
    """A game configuration or starting distribution is refused."""


class NotationError(ImperialError):
    """An action text or a position document does not parse."""


class IllegalActionError(ImperialError):
    """An action is not legal in the current state; ``rule`` names the RULES.md section broken."""

    def __init__(self, rule: str, message: str):
        super().__init__(f"{message} [RULES.md {rule}]")
        self.rule, self.message = rule, message

    def __reduce__(self):  # pickled by st.cache_data: rebuild from the arguments, not the message
        return type(self), (self.rule, self.message)


class LogError(ImperialError):
    """A move log is malformed or replays an illegal move; the message starts with ``FILE:LINE:``."""

    def __init__(self, file: str, line: int, why: str):
        super().__init__(f"{file}:{line}: {why}")
        self.file, self.line, self.why = file, line, why

    def __reduce__(self):  # pickled by st.cache_data (a partial timeline keeps its error)
        return type(self), (self.file, self.line, self.why)


class OutOfMemory(ImperialError):
    """The machine (or a limit such as ``ulimit -v``) ran out of memory: the message says while doing what."""


def out_of_memory(exc: BaseException) -> bool:
    """Whether ``exc`` says that memory ran out: a MemoryError, DuckDB's out-of-memory error, a worker
    process that died (Dask's KilledWorker: the kernel ends a process that takes too much), or a
    library that could not be mapped into memory (its import fails with ENOMEM)."""
    name = type(exc).__name__
    return (isinstance(exc, MemoryError) or name in ("OutOfMemoryException", "KilledWorker")
            or (isinstance(exc, ImportError) and not isinstance(exc, ModuleNotFoundError)
                and any(words in str(exc) for words in ("failed to map segment", "Cannot allocate memory"))))
