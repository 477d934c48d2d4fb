"""Games as tables (docs/data-dictionary.md): rows of plain tuples while playing, DataFrames at the end.

Each game brings its own tables (its plug-in's ``tables`` part: ``TABLES`` name -> columns,
``TABLE_ROWS``, ``CLOSED`` categories, ``INTRO`` and a ``GameRecorder`` with ``begin``/``step``/
``finish``/``fail`` and ``rows``); this module plays or replays a game with the recorder of the
game its config or log names, and turns rows into DataFrames with the game's dtypes. Building
tuples is all a recorder does per action; pandas is imported by ``frames`` alone, so workers that
only record never load it.
"""

from __future__ import annotations

import io
import textwrap
import traceback
from itertools import chain
from types import ModuleType
from typing import TYPE_CHECKING

from imperial_lab.core.errors import SetupError
from imperial_lab.core.gamelog import replay_game, write_log
from imperial_lab.core.play import PlayedGame, play_game
from imperial_lab.core.registry import DEFAULT_GAME, GAMES, game_of, plugin

if TYPE_CHECKING:
    import pandas as pd


# Tables every game's runs may hold beside the recorder's, written by other commands: the analyses
# of ``imperial analyse --run`` (imperial_lab.core.analysis). name -> columns; then the intro of each.
ANALYSIS_TABLES: dict[str, list[tuple[str, str, str]]] = {"win_chances": [
    ("run", "category", "the run's name (docs/batch-runs.md)"),
    ("game_id", "int32", "the game's number within its run; (run, game_id) identifies a game"),
    ("step", "int16", "the step of the analysis, from 0: a checkpoint of the game (Imperial 2030: a nation's "
                      "turn begins; Imperia: a placement turn; Imperial Powers: a Bid begins), the last one its end"),
    ("ply", "int32", "the number of actions of the move log played before the step (chance included)"),
    ("mover", "int8", "the seat deciding at the step (-4 at the end)"),
    ("seat", "int8", "the seat this row is about"),
    ("win_chance", "float64", "the seat's chance to win at the step by the game's learned evaluator "
                              "(docs/evaluator.md; public information only); at the end 1 shared by the winners"),

]}
ANALYSIS_INTRO = ("`imperial analyse --run runs/NAME` writes, for every finished game of a run, each seat's chance to win "
         "at every step of the game (docs/evaluator.md), one Parquet file per chunk of the run "
         "(`runs/NAME/win_chances/chunk-*.parquet`); the catalogue's view `win_chances` reads them beside the "
         "run's own tables, so a query can ask where games are decided, e.g. the eventual winner's mean chance "
         "by step:",
         "`SELECT w.step, avg(w.win_chance) FROM win_chances w JOIN games g USING (run, game_id) WHERE "
         "list_contains(g.winners, w.seat) GROUP BY w.step ORDER BY w.step`")



def tables_of(game: str | None = None) -> ModuleType:
    """The tables part of ``game`` (default Imperial 2030); SetupError for a game that records none."""
    owner = plugin(game)
    schema = owner.part("tables")
    if schema is None:
        raise SetupError(f"{owner.title} records no tables yet (games with tables: "
                         f"{', '.join(name for name, p in sorted(GAMES.items()) if p.tables) or 'none'})")
    return schema


def games_table(game: str | None = None) -> str:
    """The name of ``game``'s table of games: the first of its TABLES (one row per game, with a
    ``status`` column: Imperial 2030's ``games``, Imperia's ``im_games``)."""
    return next(iter(tables_of(game).TABLES))


def scores_column(game: str | None = None) -> str:
    """The column of ``game``'s games table that holds the score of each seat in seat order: a tables
    part names it ``SCORES`` when it is not ``scores`` (Imperia's ``totals``)."""
    return getattr(tables_of(game), "SCORES", "scores")


def all_tables() -> dict[str, list[tuple[str, str, str]]]:
    """Every table of every registered game (the catalogue's views) and the analysis tables; a table
    two games share keeps the columns of the first game registered."""
    found: dict[str, list] = {}
    for owner in GAMES.values():
        if owner.tables:
            for name, columns in tables_of(owner.name).TABLES.items():
                found.setdefault(name, columns)
    return {**found, **ANALYSIS_TABLES}


# ----- recording whole games -----

class Recorder:
    """What every game's ``GameRecorder`` shares: the game's key and the caller's labels, the rows
    per table of its ``TABLES``, and the move log of the actions it has seen (for a failed game, the
    actions before its error)."""

    TABLES: dict = {}

    def __init__(self, run: str, game_id: int, seed: int | None, setup: str, bots: list[str]):
        self.run, self.game_id, self.seed, self.setup, self.bots = run, game_id, seed, setup, list(bots)
        self.rows: dict[str, list[tuple]] = {name: [] for name in self.TABLES}
        self.state = None  # the live state, kept so that ``fail`` can write its move log
        self.actions: list[tuple] = []  # (player, action), in order
        self._key = (run, game_id)

    def _log(self) -> str | None:
        if self.state is None:
            return None
        out = io.StringIO()
        write_log(out, PlayedGame(self.state.game.config, self.state, self.actions), seed=self.seed,
                  bots=self.bots or None)
        return out.getvalue()


def record_game(config: dict, bots: list, bot_names: list[str], seed: int, run: str, game_id: int,
                setup: str) -> dict[str, list[tuple]]:
    """Play one game with ``imperial_lab.core.play.play_game`` and record it. Any exception inside the game
    (a bad config, a bot, the engine) becomes a ``failed`` games row: a batch never stops on one game."""
    recorder = tables_of(game_of(config)).GameRecorder(run, game_id, seed, setup, bot_names)
    try:
        played = play_game(config, bots, seed, record=False, on_step=recorder.step, on_start=recorder.begin)
    except Exception as exc:  # noqa: BLE001 - every failure is data here
        recorder.fail(recorder.state, describe(exc))
    else:
        recorder.finish(played.state)
    return recorder.rows


def describe(exc: BaseException) -> str:
    """``Type: message (at file:line)``, the line being where it was raised."""
    where = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
    at = f" (at {where.filename}:{where.lineno})" if where else ""
    return f"{type(exc).__name__}: {exc}{at}"


def record_replay(lines_or_path, run: str, game_id: int, setup: str) -> dict[str, list[tuple]]:
    """Record a move log with the recorder of the game its header names, every line checked as by
    ``imperial_lab.core.gamelog.replay`` (raises LogError).

    A log that stops before the end gives an ``unfinished`` game. ``seed`` and ``bots`` come from
    the header when it has them.
    """
    recorders = []

    def begin(state, header) -> None:
        seed, bots = header.get("seed"), header.get("bots")
        seed = seed if isinstance(seed, int) and not isinstance(seed, bool) else None
        bots = [str(b) for b in bots] if isinstance(bots, list) else []
        recorders.append(tables_of(game_of(header)).GameRecorder(run, game_id, seed, setup, bots))
        recorders[0].begin(state)

    played = replay_game(lines_or_path, on_start=begin, on_step=lambda *step: recorders[0].step(*step))
    recorders[0].finish(played.state)
    return recorders[0].rows


def merge_rows(many: list[dict], game: str | None = None) -> dict[str, list[tuple]]:
    """The rows of many games of ``game``, table by table."""
    many = list(many)  # read once per table
    return {name: list(chain.from_iterable(rows[name] for rows in many)) for name in tables_of(game).TABLES}


# ----- DataFrames -----

def frames(rows: dict[str, list[tuple]], game: str | None = None) -> dict[str, pd.DataFrame]:
    """One DataFrame per table of ``game`` with the dtypes of its TABLES.

    Lists are pyarrow lists (``pd.ArrowDtype``). Write them with ``imperial_lab.core.runstore.arrow_table``, not
    ``DataFrame.to_parquet``, whose files plain ``pd.read_parquet`` cannot read (pandas #57411).
    """
    import pandas as pd

    schema = tables_of(game)
    out = {}
    for name, columns in schema.TABLES.items():
        values = list(zip(*rows[name])) or [()] * len(columns)
        out[name] = pd.DataFrame({col: _column(col, dtype, list(vals), schema.CLOSED)
                                  for (col, dtype, _), vals in zip(columns, values)})
    return out


def _column(name: str, dtype: str, values: list, closed: dict):
    import pandas as pd
    import pyarrow as pa

    if dtype.startswith("list<"):
        item = getattr(pa, dtype[5:-1])()
        return pd.arrays.ArrowExtensionArray(pa.array(values, type=pa.list_(item)))
    if dtype == "category":
        # pandas would turn a value outside fixed categories into a silent null.
        unknown = set(values).difference(closed.get(name, values), (None,))
        if unknown:
            raise ValueError(f"column {name!r}: values {sorted(unknown)} are not among {closed[name]}")
        # Open sets get string categories even when every value is null, so a chunk's Parquet
        # schema never depends on its data (an all-null column would otherwise become double).
        categories = closed.get(name) or sorted({v for v in values if v is not None})
        return pd.Categorical(values, categories=pd.Index(categories, dtype="string"))
    return pd.array(values, dtype=dtype)  # raises on a value that does not fit the dtype


# ----- docs/data-dictionary.md -----

def data_dictionary(game: str | None = None) -> str:
    """The data dictionary of ``game``, generated from its TABLES so that the two cannot drift: the
    section ``## Data dictionary`` of docs/data-dictionary.md for Imperial 2030, ``## Data dictionary:
    TITLE`` for another game (``data_dictionaries`` gives the whole file)."""
    schema, owner = tables_of(game), plugin(game)
    title = "" if owner.name == DEFAULT_GAME else f": {owner.title}"
    parts = [f"## Data dictionary{title}\n"] + [_wrap(text) + "\n" for text in schema.INTRO]
    for name, columns in schema.TABLES.items():
        rows = "".join(f"| `{col}` | `{dtype}` | {meaning} |\n" for col, dtype, meaning in columns)
        what = schema.TABLE_ROWS[name]
        parts.append(f"### `{name}`\n\n{_wrap(what[0].upper() + what[1:] + '.')}\n\n"
                     f"| column | dtype | meaning |\n|---|---|---|\n{rows}")
    return "\n".join(parts)


def _wrap(text: str) -> str:
    return textwrap.fill(text, width=100, break_long_words=False, break_on_hyphens=False)


def data_dictionaries() -> str:
    """docs/data-dictionary.md: the data dictionary of every game with tables, the default game first.
    Regenerate the file with ``.venv/bin/python -m imperial_lab.core.tables > docs/data-dictionary.md``."""
    games = sorted((name for name, owner in GAMES.items() if owner.tables), key=lambda name: name != DEFAULT_GAME)
    return "\n".join([data_dictionary(name) for name in games] + [analysis_dictionary()])


def analysis_dictionary() -> str:
    """The section of the analysis tables (``ANALYSIS_TABLES``), the same for every game."""
    parts = ["## Data dictionary: analyses\n"] + [_wrap(text) + "\n" for text in ANALYSIS_INTRO]
    for name, columns in ANALYSIS_TABLES.items():
        rows = "".join(f"| `{col}` | `{dtype}` | {meaning} |\n" for col, dtype, meaning in columns)
        parts.append(f"### `{name}`\n\nOne row per seat and step of an analysed game.\n\n"
                     f"| column | dtype | meaning |\n|---|---|---|\n{rows}")
    return "\n".join(parts)


if __name__ == "__main__":
    print(data_dictionaries(), end="")


def analysis_frame(table: str, columns: dict[str, list]):
    """The rows of the analysis table ``table`` (plain lists by column, ``ANALYSIS_TABLES``' order) as
    a DataFrame of its declared types, so that every chunk's Parquet file has the same schema."""
    import pandas as pd

    frame = pd.DataFrame({name: pd.array(columns[name], dtype="string" if dtype == "category" else dtype)
                          for name, dtype, _ in ANALYSIS_TABLES[table]})
    for name, dtype, _ in ANALYSIS_TABLES[table]:
        if dtype == "category":
            frame[name] = frame[name].astype("category")
    return frame
