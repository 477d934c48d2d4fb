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
import os
import random
import subprocess
import sys
from pathlib import Path

from imperial_lab.core.bots import make_bot, parse_bot_list, seat_bots
from imperial_lab.core.errors import ImperialError, NotationError, SetupError
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
BOTS_HELP = ("one bot spec for every seat, or a comma list of one per seat; a spec is NAME or NAME:key=value[:...], "
             "e.g. heuristic:temperature=0.5")


class UsageError(ImperialError):
    """A command line that argparse refuses."""


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are exceptions, so they end like every other error."""

    def error(self, message: str):
        raise UsageError(f"{self.prog}: {message} (see '{self.prog} --help')")


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
    try:
        args, extra = parser.parse_known_args(argv)
        if extra and not getattr(args, "pass_on", False):  # only ``dashboard`` passes options on (to streamlit)
            parser.error(f"unrecognized arguments: {clip(' '.join(extra))}")
        args.extra = extra
        return args.run(args)
    except SystemExit as exc:  # --help and --version print and exit 0
        return int(exc.code or 0)
    except BrokenPipeError:  # an OSError, but no error of the command: main ends it quietly
        raise
    except (ImperialError, OSError) as exc:
        print(f"imperial: error: {_one_line(exc)}", file=sys.stderr)
        return ERROR_EXIT


def _one_line(exc: Exception) -> str:
    """An error as one line of bounded length (DuckDB and the OS may say more)."""
    if isinstance(exc, OSError) and exc.filename is not None:
        text = f"{exc.filename}: {exc.strerror or exc}"
    else:
        text = str(exc)
    text = " ".join(text.split())
    return text if len(text) <= MAX_MESSAGE else text[:MAX_MESSAGE - 1] + "…"


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="imperial", description="the lab's games: rules engines, bots, batch runs")
    sub = parser.add_subparsers(dest="command", required=True)

    play = sub.add_parser("play", help="play one game with bots and print a summary")
    _game_option(play)
    play.add_argument("--players", type=player_count, help="2..6 (default 4, or as many as a custom distribution lists)")
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
                      metavar="N", help=f"playouts of the search bot behind '?' (default {DEFAULT_HINT_PLAYOUTS})")
    play.set_defaults(run=_play)

    rep = sub.add_parser("replay", help="replay and verify a move log, print its summary")
    rep.add_argument("log", metavar="FILE")
    rep.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    rep.set_defaults(run=_replay)

    legal = sub.add_parser("legal", help="list the legal actions of a position document")
    legal.add_argument("position", metavar="POSITION.json")
    legal.set_defaults(run=_legal)

    apply = sub.add_parser("apply", help="apply one action to a position document, print the new one")
    apply.add_argument("position", metavar="POSITION.json")
    apply.add_argument("action", metavar="ACTION", help='an action in text form, e.g. "rondel factory"')
    apply.set_defaults(run=_apply)

    _add_batch_commands(sub)
    from imperial_lab.core.evaluator_cli import add_commands as add_evaluator_commands  # docs/evaluator.md
    add_evaluator_commands(sub)
    dashboard = sub.add_parser("dashboard", help="start the lab's dashboard (Streamlit); other options go to "
                                                 "streamlit run, e.g. --server.port 8600")
    dashboard.add_argument("--catalog", default=None, metavar="PATH", help="catalogue file (default: lab.duckdb in the user folder)")
    dashboard.set_defaults(run=_dashboard, pass_on=True)
    return parser


def _add_batch_commands(sub) -> None:
    """setups, simulate, import, runs, query: the commands of the batch lab."""
    setups = sub.add_parser("setups", help="list the named starting distributions ('setups show NAME': one)")
    _game_option(setups)
    setups.set_defaults(run=_setups_list)
    setups_sub = setups.add_subparsers(dest="setups_command")
    show = setups_sub.add_parser("show", help="print one setup as JSON")
    show.add_argument("name", metavar="NAME")
    _game_option(show, default=argparse.SUPPRESS)  # given here or before ``show``
    show.set_defaults(run=_setups_show)
    for owner in GAMES.values():
        commands = owner.part("commands")
        if commands is not None:
            commands.add_commands(sub, setups_sub)
    sim = sub.add_parser("simulate", help="play many recorded games into a run folder (Parquet), resumable")
    _game_option(sim)
    sim.add_argument("--games", type=_positive, required=True)
    sim.add_argument("--players", type=player_count, help="2..6 (default 4, or as many as the setup file lists)")
    sim.add_argument("--setup", help="a setup name (imperial setups; default: the game's, Imperial 2030's is "
                                     "standard) or a setup file")
    sim.add_argument("--bots", default="random", help=BOTS_HELP)
    sim.add_argument("--seed", type=seed_value, default=1, help="the run's seed; game k gets a seed made from it and k")
    sim.add_argument("--workers", type=bounded(MAX_WORKERS), default=_default_workers(),
                     help="worker processes of the local Dask cluster; 1 plays in this process (default: cores)")
    sim.add_argument("--out", required=True, metavar="runs/NAME", help="the run folder; its name names the run")
    sim.add_argument("--chunk-size", type=_positive,
                     help="games per chunk (default: about 8 chunks per worker, at most 200; a resumed run keeps its own)")
    sim.add_argument("--scheduler", metavar="ADDRESS",
                     help="use the Dask cluster at ADDRESS (its workers must see --out at the same path)")
    sim.add_argument("--catalog", default=None, metavar="PATH", help="catalogue file (default: lab.duckdb in the user folder)")
    sim.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    sim.set_defaults(run=_simulate)

    imp = sub.add_parser("import", help="check move logs and add the good ones to a run")
    _game_option(imp, "of a new run (a run holds the games of one game; an existing run keeps its own)")
    imp.add_argument("logs", nargs="+", metavar="FILE")
    imp.add_argument("--run", required=True, metavar="NAME", dest="run_name")  # args.run is the handler
    imp.add_argument("--out", metavar="FOLDER", help="the run folder (default runs/NAME)")
    imp.add_argument("--catalog", default=None, metavar="PATH", help="catalogue file (default: lab.duckdb in the user folder)")
    imp.set_defaults(run=_import)

    runs = sub.add_parser("runs", help="list the runs of the catalogue")
    runs.add_argument("--catalog", default=None, metavar="PATH")
    runs.set_defaults(run=_runs)

    cmp = sub.add_parser("compare", help="compare runs as setups × bot line-ups: per-game statistics, findings")
    cmp.add_argument("runs", nargs="+", metavar="RUN", help="run names of the catalogue (imperial runs)")
    cmp.add_argument("--catalog", default=None, metavar="PATH", help="catalogue file (default: lab.duckdb in the user folder)")
    cmp.add_argument("--json", action="store_true", help="print the comparison as one JSON object")
    cmp.set_defaults(run=_compare)

    query = sub.add_parser("query", help="run one SQL query over the catalogue and print the result")
    query.add_argument("sql", metavar="SQL")
    query.add_argument("--catalog", default=None, metavar="PATH")
    query.add_argument("--csv", action="store_true", help="print CSV instead of a table")
    query.set_defaults(run=_query)

    lg = sub.add_parser("league", help="play bots against each other, rotating the seats, and print their standings")
    _game_option(lg)
    lg.add_argument("--bots", required=True, help="2..6 bot specs, one per seat, comma-separated "
                                                  "(e.g. heuristic,heuristic:temperature=0,random,random)")
    lg.add_argument("--games", type=_positive, required=True)
    lg.add_argument("--seed", type=seed_value, default=1, help="the league's seed; game k gets a seed made from it and k")
    lg.add_argument("--setup", help="a setup name (imperial setups; default: the game's, Imperial 2030's is "
                                    "standard) or a setup file")
    lg.add_argument("--workers", type=bounded(MAX_WORKERS), default=_default_workers(),
                    help="worker processes of the local Dask cluster; 1 plays in this process (default: cores)")
    lg.add_argument("--out", metavar="DIR", help="the run folder (default runs/league-<hash> beside the catalogue)")
    lg.add_argument("--catalog", default=None, metavar="PATH", help="catalogue file (default: lab.duckdb in the user folder)")
    lg.add_argument("--json", action="store_true", help="print the standings as one JSON object")
    lg.set_defaults(run=_league)


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
    return _whole(text, 2, 6)


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
    width = max(len(row["name"]) for row in rows)
    print(f"{'name':{width}}  players  description")
    for row in rows:
        players = "2-6" if row["players"] is None else str(row["players"])
        print(f"{row['name']:{width}}  {players:7}  {row['description']}")
    return 0


def _setups_show(args) -> int:
    print(json.dumps(show_setup(args.name, game=args.game), indent=2))
    return 0


# ----- batch runs and the catalogue (pandas, DuckDB and Dask are loaded only here) -----

def _default_workers() -> int:
    return os.cpu_count() or 1


def _catalog(args):
    from imperial_lab.core.catalog import default_catalog

    return args.catalog or default_catalog()


def _simulate(args) -> int:
    from imperial_lab.core.simulate import simulate

    setup = plugin(args.game).default_setup if args.setup is None else args.setup
    game = make_game(load_setup(setup, args.players, game=args.game))
    names = seat_bots(args.bots, game.num_players, game=game.name)
    try:
        result = simulate(args.out, args.games, args.players, setup, names, args.seed, workers=args.workers,
                          chunk_size=args.chunk_size, scheduler=args.scheduler,
                          catalog=_catalog(args), game=game.name)
    except KeyboardInterrupt:
        print(f"imperial: interrupted: the finished chunks in {args.out} are kept; run the same command again "
              f"to play the rest", file=sys.stderr)
        return INTERRUPTED_EXIT
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"Run {result['run']}: {result['games']} games ({result['failed']} failed) in {result['chunks']} chunks "
          f"at {result['path']}")
    print(f"  this call: {result['played_chunks']} chunks played, {result['resumed_chunks']} already done, "
          f"{result['seconds']:.1f} s")
    print("  rows: " + ", ".join(f"{table} {n}" for table, n in result["rows"].items()))
    return 0


def _league(args) -> int:
    from imperial_lab.core.league import format_standings, league

    try:
        result = league(parse_bot_list(args.bots, game=args.game), args.games, args.seed, args.setup,
                        workers=args.workers, out=args.out, catalog=_catalog(args), game=args.game)
    except KeyboardInterrupt:
        print("imperial: interrupted: the finished chunks are kept; run the same command again to play the rest",
              file=sys.stderr)
        return INTERRUPTED_EXIT
    print(json.dumps(result["standings"]) if args.json else format_standings(result))
    return 0


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

    _print_frame(list_runs(_catalog(args)), csv=False)
    return 0


def _compare(args) -> int:
    from imperial_lab.core import compare

    result = compare.load(_catalog(args), args.runs)
    print(json.dumps(compare.to_json(result), indent=1) if args.json else compare.text_report(result))
    return 0


def _query(args) -> int:
    from imperial_lab.core.catalog import query

    _print_frame(query(args.sql, _catalog(args)), args.csv)
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


def _print_frame(frame, csv: bool) -> None:
    if csv:
        print(frame.to_csv(index=False), end="")
    else:
        print(frame.to_string(index=False))
