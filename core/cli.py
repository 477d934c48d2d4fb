"""The ``imperial`` command: play, replay, legal, apply (docs/command-line.md); setups, simulate, import,
runs, query (docs/setups.md, docs/batch-runs.md); league (docs/league.md); dashboard; and the commands
each game adds (its plug-in's ``commands`` part: Imperial 2030's ``bench``, ``setups structure``,
``setups search``).

Commands that start something new (``play``, ``simulate``, ``league``, ``import``, ``setups``) take
``--game`` (default ``imperial2030``) and the game's own default setup; a setup file or move log
names its own game, which wins.

Every error, argparse's included, ends as one line on stderr starting ``imperial: error:`` and exit
status 2; a closed pipe (``imperial legal POS | head -1``) ends the command quietly.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

from imperial_lab.core.bots import make_bot, parse_bot_list, seat_bots
from imperial_lab.core.errors import ImperialError, NotationError, SetupError, out_of_memory
from imperial_lab.core.files import package_path
from imperial_lab.core.gamelog import MAX_SEED, replay_game, write_log
from imperial_lab.core.interface import make_game, seat_name
from imperial_lab.core.jsonio import clip, read_json_file
from imperial_lab.core.play import play_game
from imperial_lab.core.registry import DEFAULT_GAME, GAMES, plugin
from imperial_lab.core.setups import list_setups, load_setup, play_config, show_setup

ERROR_EXIT = 2
INTERRUPTED_EXIT = 130  # the shell's code for a command stopped by Ctrl-C
BROKEN_PIPE_EXIT = 141  # the shell's code for a command stopped by SIGPIPE
MAX_MESSAGE = 500  # characters of an error line; the inputs it quotes are clipped shorter still
MAX_BENCH = 10_000  # repeats or games per repeat of ``imperial bench``
MAX_WORKERS = 256  # local worker processes of ``imperial simulate``
LOGGER = "imperial_lab"  # the logger of the lab's notes (the parent of every module's)
BOTS_HELP = ("one bot spec for every seat, or a comma list of one per seat; a spec is NAME or NAME:key=value[:...], "
             "e.g. heuristic:temperature=0.5")


class UsageError(ImperialError):
    """A command line that argparse refuses."""


LOG_LEVELS = ("debug", "info", "warning", "error")


class _Parser(argparse.ArgumentParser):
    """The parser of ``imperial`` and of each of its commands (argparse makes the commands' parsers of
    this class too): a usage error is an exception, so it ends like every other error; ``examples``
    are shown under the options, the description as written; and every command takes the options
    of every command, ``--quiet`` and ``--log-level`` (given before or after the command's name)."""

    def __init__(self, *args, examples: tuple[str, ...] = (), **kwargs):
        if examples:
            kwargs["epilog"] = "examples:\n" + "\n".join(f"  {example}" for example in examples)
        kwargs.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)
        super().__init__(*args, **kwargs)
        # SUPPRESS: a command's parser must not overwrite with its default what was given before its name
        self.add_argument("-q", "--quiet", action="store_true", default=argparse.SUPPRESS,
                          help="print the result and errors only: no progress bar, no notes (--log-level error)")
        self.add_argument("--log-level", choices=LOG_LEVELS, default=argparse.SUPPRESS,
                          help="the least severe notes printed on stderr (default warning)")

    def error(self, message: str):
        raise UsageError(f"{self.prog}: {message} (see '{self.prog} --help')")


class _Version(argparse.Action):
    """``--version``: the installed version, looked up only when asked."""

    def __init__(self, option_strings, dest, **kwargs):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help="print the lab's version and exit")

    def __call__(self, parser, namespace, values, option_string=None):
        from imperial_lab.core import DISTRIBUTION, lab_version

        print(f"imperial ({DISTRIBUTION}) {lab_version()}")
        parser.exit()


def main(argv: list[str] | None = None) -> int:
    try:
        code = _run(argv)
        sys.stdout.flush()  # here, not at exit, so that a reader who has gone is noticed here
        return code
    except BrokenPipeError:
        # The reader has gone: send what is still buffered nowhere, so the exit is quiet too.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return BROKEN_PIPE_EXIT
    except KeyboardInterrupt:
        return INTERRUPTED_EXIT


def _run(argv: list[str] | None) -> int:
    parser = _parser()
    notes = None
    try:
        args, extra = parser.parse_known_args(argv)
        if extra and not getattr(args, "pass_on", False):  # only ``dashboard`` passes options on (to streamlit)
            parser.error(f"unrecognized arguments: {clip(' '.join(extra))}")
        args.extra = extra
        _check_players(args)
        notes = _notes_to_stderr("error" if getattr(args, "quiet", False) else getattr(args, "log_level", "warning"))
        return args.run(args)
    except SystemExit as exc:  # --help and --version print and exit 0
        return int(exc.code or 0)
    except BrokenPipeError:  # an OSError, but no error of the command: main ends it quietly
        raise
    except (ImperialError, OSError) as exc:
        print(f"imperial: error: {_one_line(exc)}", file=sys.stderr)
        return ERROR_EXIT
    except (MemoryError, ImportError) as exc:
        if not out_of_memory(exc):
            raise
        command = " ".join((sys.argv[1:] if argv is None else argv)[:1])
        print(f"imperial: error: out of memory while running imperial {command}: {_one_line(exc) or type(exc).__name__} "
              f"(free some memory, or ask for less: fewer --workers, a smaller --chunk-size)", file=sys.stderr)
        return ERROR_EXIT
    finally:
        if notes is not None:
            logging.getLogger(LOGGER).removeHandler(notes)


class _StderrNotes(logging.Handler):
    """The lab's log records as lines ``imperial: LEVEL: message`` on the stderr of the moment."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            print(f"imperial: {record.levelname.lower()}: {record.getMessage()}", file=sys.stderr)
        except Exception:  # noqa: BLE001 - logging's own rule: a note that cannot be printed ends nothing
            self.handleError(record)


def _notes_to_stderr(level: str) -> logging.Handler:
    """Print the lab's notes of ``level`` and above for this command (its handler, removed at the end)."""
    handler = _StderrNotes()
    logger = logging.getLogger(LOGGER)
    logger.setLevel(level.upper())
    logger.addHandler(handler)
    return handler


def _one_line(exc: Exception) -> str:
    """An error as one line of bounded length (DuckDB and the OS may say more)."""
    if isinstance(exc, OSError) and exc.filename is not None:
        text = f"{exc.filename}: {exc.strerror or exc}"
    else:
        text = str(exc)
    text = " ".join(text.split())
    return text if len(text) <= MAX_MESSAGE else text[:MAX_MESSAGE - 1] + "…"


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="imperial", description=(
        "The Imperial lab: rules engines of Imperial 2030, Imperia and Imperial Powers, their bots, batch\n"
        "runs as tables (Parquet and a DuckDB catalogue, on Dask), leagues, comparisons and a dashboard.\n"
        "'imperial COMMAND --help' describes a command, with examples."),
        examples=("imperial play --players 4 --seed 7 --bots heuristic,random,random,random",
                  "imperial simulate --game imperia --players 3 --games 200 --bots heuristic --out runs/im200",
                  "imperial dashboard"))
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", required=True,
                                help="what to do ('imperial COMMAND --help' describes it)")

    play = sub.add_parser(
        "play", help="play one game with bots and print a summary",
        description="Play one game with bots (or people on this terminal: --human) and print who won, the scores\n"
                    "and the game's length; --log writes it as a move log that 'imperial replay' verifies.",
        examples=("imperial play --players 4 --seed 7 --bots heuristic,random,random,random",
                  "imperial play --game imperia --players 3 --human 0 --log mine.jsonl"))
    _game_option(play)
    play.add_argument("--players", type=player_count, metavar="N", help=_players_help(
        "default 4, or as many as a custom distribution lists"))
    play.add_argument("--seed", type=seed_value, help="seed of the deal and the bots (default: random, printed)")
    play.add_argument("--bots", help=BOTS_HELP + " (default random; with --human: one for all the other seats, or "
                                                 "one per other seat in seat order)")
    play.add_argument("--setup",
                      help="the game's default setup (Imperial 2030: standard), another setup name (imperial "
                           "setups), or the path of a setup file (Imperial 2030: also a distribution JSON file)")
    play.add_argument("--log", metavar="FILE", help="write the game as a move log (JSON Lines)")
    play.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    from imperial_lab.core.human import DEFAULT_HINT_PLAYOUTS, MAX_HINT_PLAYOUTS  # terminal play (docs/command-line.md)
    play.add_argument("--human", metavar="SEATS", help="seats played on this terminal, e.g. 0 or 0,2: their "
                                                       "decisions are asked on stdin")
    play.add_argument("--resume", metavar="FILE", help="continue the game of a move log (imperial play --human's "
                                                       "save, or any log), with --human's seats on the terminal")
    play.add_argument("--hint-playouts", type=bounded(MAX_HINT_PLAYOUTS), default=DEFAULT_HINT_PLAYOUTS,
                      metavar="N", help=f"playouts of the bot behind '?' (the rollout bot; default {DEFAULT_HINT_PLAYOUTS})")
    play.set_defaults(run=_play)

    rep = sub.add_parser(
        "replay", help="replay and verify a move log, print its summary",
        description="Replay a move log action by action, checking every move against the rules, and print the\n"
                    "game's summary; an illegal or malformed line is reported with its line number.",
        examples=("imperial replay game.jsonl", "imperial replay game.jsonl --json"))
    rep.add_argument("log", metavar="FILE", help="a move log (JSON Lines: imperial play --log, docs/formats.md)")
    rep.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    rep.set_defaults(run=_replay)

    legal = sub.add_parser(
        "legal", help="list the legal actions of a position document",
        description="List the legal actions of a position document (docs/formats.md), one per line, in the\n"
                    "text form 'imperial apply' takes.",
        examples=("imperial legal position.json", "imperial legal position.json | head -3"))
    legal.add_argument("position", metavar="POSITION.json", help="a position document (a state's to_json)")
    legal.set_defaults(run=_legal)

    apply = sub.add_parser(
        "apply", help="apply one action to a position document, print the new one",
        description="Apply one action to a position document and print the position after it; an illegal\n"
                    "action is refused naming the rule.",
        examples=('imperial apply position.json "rondel factory" > next.json',))
    apply.add_argument("position", metavar="POSITION.json", help="a position document (a state's to_json)")
    apply.add_argument("action", metavar="ACTION", help='an action in text form, e.g. "rondel factory"')
    apply.set_defaults(run=_apply)

    _add_batch_commands(sub)
    from imperial_lab.core.evaluator_cli import add_commands as add_evaluator_commands  # docs/evaluator.md
    add_evaluator_commands(sub)
    dashboard = sub.add_parser(
        "dashboard", help="start the lab's dashboard (Streamlit)",
        description="Start the lab's dashboard (Streamlit) on http://localhost:8501, headless. Its first start\n"
                    "plays a small default dataset into the catalogue. Other options go to 'streamlit run'.",
        examples=("imperial dashboard", "imperial dashboard --catalog my.duckdb --server.port 8600"))
    dashboard.add_argument("--catalog", default=None, metavar="PATH", help=CATALOG_HELP)
    dashboard.set_defaults(run=_dashboard, pass_on=True)
    return parser


CATALOG_HELP = "the catalogue file (default: $IMPERIAL_LAB_CATALOG, else lab.duckdb in the user folder)"
PROGRESS_HELP = "no progress bar (there is none either when stderr is not a terminal)"


def _add_batch_commands(sub) -> None:
    """setups, simulate, import, runs, compare, query, league: the commands of the batch lab."""
    setups = sub.add_parser(
        "setups", help="list the named starting setups of a game",
        description="List the named starting setups (distributions) of a game: the shipped ones and your own\n"
                    "in the user folder's setups/ (docs/setups.md). 'imperial setups show NAME' prints one.",
        examples=("imperial setups", "imperial setups --game imperial_powers --json", "imperial setups show standard"))
    _game_option(setups, "whose setups to list")
    setups.add_argument("--json", action="store_true", help="print the list as one JSON array")
    setups.set_defaults(run=_setups_list)
    setups_sub = setups.add_subparsers(dest="setups_command", metavar="SUBCOMMAND",
                                       help="one setup, or a game's own commands about setups (optional)")
    show = setups_sub.add_parser(
        "show", help="print one setup as JSON",
        description="Print one named setup as the JSON document a setup file holds.",
        examples=("imperial setups show standard", "imperial setups show default --game imperia"))
    show.add_argument("name", metavar="NAME", help="a setup name (imperial setups lists them)")
    _game_option(show, "whose setup to show", default=argparse.SUPPRESS)  # given here or before ``show``
    show.set_defaults(run=_setups_show)
    for owner in GAMES.values():
        commands = owner.part("commands")
        if commands is not None:
            commands.add_commands(sub, setups_sub)

    sim = sub.add_parser(
        "simulate", help="play many recorded games into a run folder (Parquet), resumable",
        description="Play many games and record them as tables in a run folder (Parquet, one file per table and\n"
                    "chunk), registered in the catalogue; run it again to resume it. On this machine's cores, or\n"
                    "on a Dask cluster (--scheduler; its workers are checked first). Exit status 1 when games\n"
                    "failed: their rows say why, and running the command again plays them again.",
        examples=("imperial simulate --games 1000 --bots heuristic --out runs/h1k",
                  "imperial simulate --game imperial_powers --players 5 --games 500 --out runs/ip500 --workers 2",
                  "imperial simulate --games 100000 --bots heuristic --out /shared/runs/big "
                  "--scheduler tcp://10.0.0.5:8786"))
    _game_option(sim)
    sim.add_argument("--games", type=_positive, required=True, metavar="N", help="how many games (required)")
    sim.add_argument("--players", type=player_count, metavar="N",
                     help=_players_help("default 4, or as many as the setup file lists"))
    sim.add_argument("--setup", help="a setup name (imperial setups; default: the game's, Imperial 2030's is "
                                     "standard) or a setup file")
    sim.add_argument("--bots", default="random", help=BOTS_HELP + " (default random)")
    sim.add_argument("--seed", type=seed_value, default=1,
                     help="the run's seed; game k gets a seed made from it and k (default 1)")
    _workers_option(sim)
    sim.add_argument("--out", required=True, metavar="runs/NAME",
                     help="the run folder; its name names the run (required)")
    sim.add_argument("--chunk-size", type=_positive, metavar="K",
                     help="games per chunk (default: about 8 chunks per worker, at most 200; a resumed run keeps "
                          "its own)")
    _scheduler_option(sim)
    sim.add_argument("--catalog", default=None, metavar="PATH", help=CATALOG_HELP)
    sim.add_argument("--no-progress", action="store_true", help=PROGRESS_HELP)
    sim.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    sim.set_defaults(run=_simulate)

    imp = sub.add_parser(
        "import", help="check move logs and add the good ones to a run",
        description="Replay move logs (games played elsewhere, or written down by hand), check every move, and\n"
                    "add the good ones to a run of the catalogue; a bad log is named with its line, a log\n"
                    "already in the run is skipped.",
        examples=("imperial import games/*.jsonl --run club", "imperial import g1.jsonl --run club --out data/club"))
    _game_option(imp, "of a new run (a run holds the games of one game; an existing run keeps its own)")
    imp.add_argument("logs", nargs="+", metavar="FILE", help="move logs (JSON Lines, docs/formats.md)")
    imp.add_argument("--run", required=True, metavar="NAME", dest="run_name",  # args.run is the handler
                     help="the run to add the games to (new or existing; required)")
    imp.add_argument("--out", metavar="FOLDER", help="the run folder (default runs/NAME)")
    imp.add_argument("--catalog", default=None, metavar="PATH", help=CATALOG_HELP)
    imp.set_defaults(run=_import)

    runs = sub.add_parser(
        "runs", help="list the runs of the catalogue",
        description="List the runs of the catalogue, newest first: name, game, where, when, games, players,\n"
                    "setup, bots, seed, status (complete, partial, failed, imported) and chunks.",
        examples=("imperial runs", "imperial runs --json"))
    runs.add_argument("--catalog", default=None, metavar="PATH", help=CATALOG_HELP)
    runs.add_argument("--json", action="store_true", help="print the runs as one JSON array of objects")
    runs.set_defaults(run=_runs)

    cmp = sub.add_parser(
        "compare", help="compare runs as setups × bot line-ups: per-game statistics, findings",
        description="Compare runs of one game as a grid of setups × bot line-ups: each seat's win rate and score\n"
                    "with intervals, the tests (the game as the unit, Holm-adjusted) and the findings in plain\n"
                    "words (docs/compare.md).",
        examples=("imperial compare standard-heuristic-150-s1 three_nations_each-heuristic-150-s1",
                  "imperial compare h1k even1k --json"))
    cmp.add_argument("runs", nargs="+", metavar="RUN", help="run names of the catalogue (imperial runs)")
    cmp.add_argument("--catalog", default=None, metavar="PATH", help=CATALOG_HELP)
    cmp.add_argument("--no-progress", action="store_true", help=PROGRESS_HELP)
    cmp.add_argument("--json", action="store_true", help="print the comparison as one JSON object")
    cmp.add_argument("--margin", type=float, metavar="SHARE",
                     help="a seat within this share of its fair share is fair enough (default 0.03: 3 points)")
    cmp.add_argument("--by", metavar="SIDE", help="count another side than the seats (Imperial Powers: power)")
    cmp.add_argument("--replicate", action="store_true", help="first play a fresh-seed replicate of each run "
                     "(NAME-replicate, resumed if begun): a finding is established when it holds there too")
    cmp.add_argument("--workers", type=bounded(MAX_WORKERS), default=1, help="workers of the replicates (default 1)")
    cmp.set_defaults(run=_compare)

    query = sub.add_parser(
        "query", help="run one SQL query over the catalogue and print the result",
        description="Run one read-only SQL SELECT over the catalogue's tables (every run's games as views,\n"
                    "docs/data-dictionary.md) and print the result.",
        examples=('imperial query "SELECT run, count(*) AS games FROM games GROUP BY run"',
                  'imperial query --csv "SELECT * FROM im_games" > imperia.csv'))
    query.add_argument("sql", metavar="SQL", help="one SELECT statement")
    query.add_argument("--catalog", default=None, metavar="PATH", help=CATALOG_HELP)
    query_format = query.add_mutually_exclusive_group()
    query_format.add_argument("--csv", action="store_true", help="print CSV instead of a table")
    query_format.add_argument("--json", action="store_true", help="print the rows as one JSON array of objects")
    query.set_defaults(run=_query)

    lg = sub.add_parser(
        "league", help="play bots against each other, rotating the seats, and print their standings",
        description="Play bots against each other, one per seat, turning the seats by one every game so that\n"
                    "every bot plays every seat; print each bot's win rate with its interval and its OpenSkill\n"
                    "rating (docs/league.md). Resumable, like simulate; exit status 1 when games failed.",
        examples=("imperial league --bots heuristic,heuristic:temperature=0,random,random --games 400",
                  "imperial league --game imperia --bots heuristic,random,random --games 300 --json"))
    _game_option(lg)
    lg.add_argument("--bots", required=True, help="one bot spec per seat, comma-separated: as many as the game has "
                                                  f"players ({_ranges()}), e.g. "
                                                  "heuristic,heuristic:temperature=0,random,random (required)")
    lg.add_argument("--games", type=_positive, required=True, metavar="N", help="how many games (required)")
    lg.add_argument("--seed", type=seed_value, default=1,
                    help="the league's seed; game k gets a seed made from it and k (default 1)")
    lg.add_argument("--setup", help="a setup name (imperial setups; default: the game's, Imperial 2030's is "
                                    "standard) or a setup file")
    _workers_option(lg)
    _scheduler_option(lg)
    lg.add_argument("--out", metavar="DIR", help="the run folder (default runs/league-<hash> beside the catalogue)")
    lg.add_argument("--catalog", default=None, metavar="PATH", help=CATALOG_HELP)
    lg.add_argument("--no-progress", action="store_true", help=PROGRESS_HELP)
    lg.add_argument("--json", action="store_true", help="print the standings as one JSON object")
    lg.set_defaults(run=_league)


def _workers_option(parser) -> None:
    parser.add_argument("--workers", type=bounded(MAX_WORKERS), default=_default_workers(), metavar="W",
                        help="processes that play on this machine: this one and W-1 Dask workers; 1 plays in this "
                             "process (default: the cores, here %(default)s)")


def _scheduler_option(parser) -> None:
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="play on the Dask cluster at ADDRESS (tcp://HOST:8786) instead; its workers must have "
                             "this version of the lab and see the run folder at the same path (docs/batch-runs.md)")


def _game_option(parser, what: str = "to play", default=DEFAULT_GAME) -> None:
    parser.add_argument("--game", type=_game, default=default,
                        help=f"the game {what}: {', '.join(sorted(GAMES))} (default {DEFAULT_GAME})")


def _game(text: str) -> str:
    try:
        return plugin(text).name
    except SetupError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _whole(text: str, low: int, high: int) -> int:
    # isdigit before int(): int() would take "1_000", " 7" and refuse 5,000 digits with its own message
    if not (text.isascii() and text.isdigit() and len(text) <= 20 and low <= int(text) <= high):
        raise argparse.ArgumentTypeError(f"expected a whole number {low}..{high:,}, got {clip(text)}")
    return int(text)


def _positive(text: str) -> int:
    return _whole(text, 1, 2**63 - 1)


def player_count(text: str) -> int:
    """A player count some game takes; ``_check_players`` then holds it to the chosen game's range."""
    return _whole(text, min(g.players[0] for g in GAMES.values()), max(g.players[1] for g in GAMES.values()))


def _ranges() -> str:
    """Each game's range of players, as help texts and errors give it: "Imperial 2030 2-6, Imperia 2-4, ..."."""
    return ", ".join(f"{g.title} {g.players[0]}-{g.players[1]}" for g in GAMES.values())


def _players_help(default: str) -> str:
    return f"the number of players: {_ranges()} ({default})"


def _check_players(args) -> None:
    """Refuse a ``--players`` outside the range of the game the command plays (a setup file names its own
    game: its own checks speak for it)."""
    players, game = getattr(args, "players", None), getattr(args, "game", None)
    setup = getattr(args, "setup", None)
    if players is None or game is None or (setup and Path(setup).is_file()):
        return
    owner = plugin(game)
    low, high = owner.players
    if not low <= players <= high:
        raise UsageError(f"imperial {args.command}: argument --players: {owner.title} takes {low}-{high} players, "
                         f"got {players} ({_ranges()}; see 'imperial {args.command} --help')")


def seed_value(text: str) -> int:
    return _whole(text, 0, MAX_SEED)


def bounded(high: int):
    def whole(text: str) -> int:
        return _whole(text, 1, high)
    whole.__name__ = "whole number"  # argparse names the type in its messages
    return whole


# ----- play and replay -----

def _play(args) -> int:
    if args.human is not None or args.resume is not None:
        return _play_terminal(args)
    game = make_game(play_config(args.setup, args.players, args.game))
    seed = random.randrange(2**31) if args.seed is None else args.seed
    names = seat_bots("random" if args.bots is None else args.bots, game.num_players, game=game.name)
    # One generator per seat, distinct for every (seed, seat), so seats never mirror each other.
    bots = [make_bot(name, seed * 100 + p, game.name) for p, name in enumerate(names)]
    played = play_game(game.config, bots, seed)
    if args.log:
        write_log(args.log, played, seed=seed, bots=names)
    summary = {"config": played.config, "seed": seed, "bots": names, "log": args.log, **_summary(played)}
    _print_summary(summary, _title(game, seed, names), args.json)
    return 0


def _play_terminal(args) -> int:
    """``imperial play --human SEATS`` / ``--resume FILE``: people decide their seats on stdin (core/human.py)."""
    from imperial_lab.core.human import TerminalPlay, load_saved, parse_human_seats, seat_specs

    saved = None
    if args.resume is not None:
        if args.players is not None or args.setup is not None:
            raise SetupError("--resume: the players and the setup are the saved game's: "
                             "leave out --players and --setup")
        played, header = load_saved(args.resume)
        config, actions, saved = played.config, played.actions, header.get("bots")
        seed = header.get("seed")
        if seed is not None and args.seed is not None and args.seed != seed:
            raise SetupError(f"--seed: {args.seed}, but {args.resume} was played with seed {seed} (leave out --seed)")
        if seed is None:
            seed = args.seed
    else:
        config = play_config(args.setup, args.players, args.game)
        actions, seed = [], args.seed
    game = make_game(config)
    humans = parse_human_seats(args.human, game.num_players)
    seats = seat_specs(args.bots, humans, game.num_players, saved=saved, where=f"--resume {args.resume}",
                       game=game.name)
    seed = random.randrange(2**31) if seed is None else seed
    for stream in (sys.stdin, sys.stdout):  # a stray byte or a character the terminal lacks ends nothing
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")
    session = TerminalPlay(game.config, seats, seed, sys.stdin, sys.stdout, actions=actions,
                           hint_playouts=args.hint_playouts)
    names = session.names
    if args.log:  # a FILE that cannot be written is refused before anybody plays
        write_log(args.log, session.played(), seed=seed, bots=names)
    title = _title(game, seed, names)
    print(title)
    outcome = session.run()
    played = outcome.played
    if args.log:
        write_log(args.log, played, seed=seed, bots=names)
    if outcome.status != "finished":
        kept = (f"; the game so far is in {args.log}" if args.log else
                f"; last saved to {session.last_saved}" if session.last_saved else "; nothing was saved")
        why = {"input ended": "error: input ended before the end of the game",
               "quit": "quit before the end of the game",
               "bad lines": "error: too many lines without a choice: giving up"}[outcome.status]
        sys.stdout.flush()
        print(f"imperial: {why} (after {len(played.actions)} actions{kept})", file=sys.stderr)
        return ERROR_EXIT
    summary = {"config": played.config, "seed": seed, "bots": names, "log": args.log, **_summary(played)}
    print()
    _print_summary(summary, title, args.json)
    return 0


def _title(game, seed: int, names: list[str]) -> str:
    owner = plugin(game.name)
    setup = game.config.get("setup", owner.default_setup)
    return f"{owner.title}: {game.num_players} players, {setup} setup, seed {seed}, bots {','.join(names)}"


def _replay(args) -> int:
    played = replay_game(args.log)
    summary = {"log": args.log, "config": played.config, **_summary(played)}
    title = f"Replayed {args.log}: {len(played.actions)} actions verified"
    _print_summary(summary, title, args.json)
    return 0


def _summary(played) -> dict:
    """What a game came to, for every game: finished, winners, scores, decisions and actions; then
    what its plug-in's ``summary`` part adds (Imperial 2030: length, power points, who ended it)."""
    state = played.state
    finished = state.is_terminal()
    summary = {
        "finished": finished,
        "winners": state.winners() if finished else [],
        "scores": [_number(x) for x in state.returns()],
        "decisions": played.decisions,
        "actions": len(played.actions),
    }
    extra = plugin(played.config.get("game")).part("summary")
    return summary if extra is None else {**summary, **extra.summary(played)}


def _number(x: float) -> int | float:
    return int(x) if x == int(x) else x


def _print_summary(summary: dict, title: str, as_json: bool) -> None:
    if as_json:
        print(json.dumps(summary))
        return
    scores = summary["scores"]
    if summary["finished"]:
        won = " and ".join(seat_name(p) for p in summary["winners"])
        verdict = f"{won} ({scores[summary['winners'][0]]} points)"
    else:
        verdict = "none yet: the game is not over (scores as if it ended now)"
    extra = plugin(summary["config"].get("game")).part("summary")
    rows = [
        ("Winner" if len(summary["winners"]) < 2 else "Winners", verdict),
        ("Scores", ", ".join(f"{seat_name(p)} {s}" for p, s in enumerate(scores))),
        *(extra.summary_rows(summary) if extra is not None else
          [("Decisions", f"{summary['decisions']} ({summary['actions']} actions with chance)")]),
    ]
    print(title)
    for label, value in rows:
        print(f"  {label + ':':14}{value}")


# ----- positions -----

def _legal(args) -> int:
    state = _load_position(args.position)
    if state.is_terminal():
        print("imperial: the game is over: no legal actions", file=sys.stderr)
    for action in state.legal_actions():
        print(state.action_to_string(action))
    return 0


def _apply(args) -> int:
    state = _load_position(args.position)
    state.apply_action(state.string_to_action(args.action))
    print(json.dumps(state.to_json(), indent=2))
    return 0


def _load_position(path: str):
    doc = read_json_file(path, NotationError)
    if not isinstance(doc, dict) or not isinstance(doc.get("config"), dict):
        raise NotationError(f"{path}: a position document is a JSON object with a 'config' object")
    try:
        return make_game(doc["config"]).state_from_json(doc)
    except ImperialError as exc:
        raise NotationError(f"{path}: {exc}") from exc


# ----- setups -----

def _setups_list(args) -> int:
    rows = list_setups(game=args.game)
    if args.json:
        print(json.dumps(rows))
        return 0
    width = max(len(row["name"]) for row in rows)
    low, high = plugin(args.game).players  # a setup for any count takes the game's range
    print(f"{'name':{width}}  players  description")
    for row in rows:
        players = f"{low}-{high}" if row["players"] is None else str(row["players"])
        print(f"{row['name']:{width}}  {players:7}  {row['description']}")
    return 0


def _setups_show(args) -> int:
    print(json.dumps(show_setup(args.name, game=args.game), indent=2))
    return 0


# ----- batch runs and the catalogue (pandas, DuckDB and Dask are loaded only here) -----

FAILED_EXIT = 1  # the command ran, but some of its games failed (their rows say why)


def _default_workers() -> int:
    return os.cpu_count() or 1


def _catalog(args):
    from imperial_lab.core.catalog import default_catalog

    return args.catalog or default_catalog()


def _progress(args) -> bool:
    """A progress bar only for a person watching: on a terminal, unless --no-progress or --quiet."""
    return not (getattr(args, "no_progress", False) or getattr(args, "quiet", False)) and sys.stderr.isatty()


def _simulate(args) -> int:
    from imperial_lab.core.simulate import simulate

    setup = plugin(args.game).default_setup if args.setup is None else args.setup
    game = make_game(load_setup(setup, args.players, game=args.game))
    names = seat_bots(args.bots, game.num_players, game=game.name)
    try:
        result = simulate(args.out, args.games, args.players, setup, names, args.seed, workers=args.workers,
                          chunk_size=args.chunk_size, scheduler=args.scheduler, catalog=_catalog(args),
                          progress=_progress(args), game=game.name)
    except KeyboardInterrupt:
        print(f"imperial: interrupted: the finished chunks in {args.out} are kept; run the same command again "
              f"to play the rest", file=sys.stderr)
        return INTERRUPTED_EXIT
    if args.json:
        print(json.dumps(result))
    else:
        print(f"Run {result['run']}: {result['games']} games ({result['failed']} failed) in {result['chunks']} "
              f"chunks at {result['path']}")
        print(f"  this call: {result['played_chunks']} chunks played, {result['resumed_chunks']} already done, "
              f"{result['seconds']:.1f} s")
        print("  rows: " + ", ".join(f"{table} {n}" for table, n in result["rows"].items()))
    return _failed_games(result)


def _failed_games(result: dict) -> int:
    """Exit 0, or, when games of the run failed, FAILED_EXIT with a line saying how to find and retry them."""
    if not result["failed"]:
        return 0
    print(f"imperial: error: {result['failed']} of {result['games']} games of run {result['run']} failed (status "
          f"'failed' in its games table, with the error and the moves before it); run the same command again to "
          f"play them again", file=sys.stderr)
    return FAILED_EXIT


def _league(args) -> int:
    from imperial_lab.core.league import format_standings, league

    try:
        result = league(parse_bot_list(args.bots, game=args.game), args.games, args.seed, args.setup,
                        workers=args.workers, out=args.out, catalog=_catalog(args), progress=_progress(args),
                        scheduler=args.scheduler, game=args.game)
    except KeyboardInterrupt:
        print("imperial: interrupted: the finished chunks are kept; run the same command again to play the rest",
              file=sys.stderr)
        return INTERRUPTED_EXIT
    print(json.dumps(result["standings"]) if args.json else format_standings(result))
    return _failed_games(result)


def _import(args) -> int:
    from imperial_lab.core.imports import import_logs

    result = import_logs(args.logs, args.run_name, args.out, catalog=_catalog(args), game=args.game)
    for message in result["errors"]:
        print(f"imperial: error: {message}", file=sys.stderr)
    for path in result["skipped"]:
        print(f"imperial: {path}: already in run {result['run']}, skipped", file=sys.stderr)
    if result["errors"] and not result["added"]:
        return ERROR_EXIT  # nothing was imported: the error lines say it all
    print(f"Imported {result['added']} games into run {result['run']} at {result['path']}"
          f" ({len(result['errors'])} bad files, {len(result['skipped'])} already there)")
    return ERROR_EXIT if result["errors"] else 0


def _runs(args) -> int:
    from imperial_lab.core.catalog import list_runs
    from imperial_lab.core.runstore import run_game

    runs = list_runs(_catalog(args))
    runs.insert(1, "game", [run_game(path) for path in runs["path"]])
    _print_frame(runs, json_rows=args.json)
    return 0


def _compare(args) -> int:
    from imperial_lab.core import compare

    if args.replicate:
        compare.margin_of(args.margin)  # every refusal before the first game
        compare.play_replicates(_catalog(args), args.runs, workers=args.workers, progress=_progress(args))
    with _steps_bar("compare", _progress(args)) as step:
        result = compare.load(_catalog(args), args.runs, args.margin, args.by, on_step=step)
    print(json.dumps(compare.to_json(result), indent=1) if args.json else compare.text_report(result))
    return 0


def _query(args) -> int:
    from imperial_lab.core.catalog import query

    _print_frame(query(args.sql, _catalog(args)), csv=args.csv, json_rows=args.json)
    return 0


def _dashboard(args) -> int:
    """``streamlit run dashboard/app.py`` in this environment, headless (no browser is opened, no usage
    statistics are sent), with ``--catalog`` as IMPERIAL_LAB_CATALOG and the other options passed on."""
    app = package_path("dashboard", "app.py")
    env = dict(os.environ)
    if args.catalog:
        env["IMPERIAL_LAB_CATALOG"] = str(Path(args.catalog).resolve())
    from imperial_lab.dashboard.simulations import prepare_default_dataset  # only this command needs the dashboard
    prepare_default_dataset(env.get("IMPERIAL_LAB_CATALOG"))  # in the terminal, before the server starts
    extra = args.extra[1:] if args.extra[:1] == ["--"] else args.extra
    command = [sys.executable, "-m", "streamlit", "run", str(app), "--server.headless", "true",
               "--browser.gatherUsageStats", "false", *extra]
    try:
        return subprocess.call(command, env=env)
    except KeyboardInterrupt:  # Ctrl-C reaches streamlit too, which stops on its own
        return INTERRUPTED_EXIT


def _print_frame(frame, csv: bool = False, json_rows: bool = False) -> None:
    if csv:
        print(frame.to_csv(index=False), end="")
    elif json_rows:
        print(frame.to_json(orient="records", date_format="iso"))
    else:
        print(frame.to_string(index=False))


@contextmanager
def _steps_bar(what: str, enabled: bool):
    """A progress bar over the steps of a long computation: yields ``step(done, total)``, to be called as
    each step ends."""
    from tqdm import tqdm

    with tqdm(desc=what, unit="step", file=sys.stderr, disable=not enabled, dynamic_ncols=True) as bar:
        def step(done: int, total: int) -> None:
            bar.total = total
            bar.update(done - bar.n)
        yield step
