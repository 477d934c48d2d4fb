"""The commands of the learned evaluator (docs/evaluator.md): ``imperial evaluator train``,
``imperial evaluator check`` and ``imperial analyse``. ``imperial_lab.core.cli`` adds them with
``add_commands(sub)``."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from imperial_lab.core.errors import SetupError
from imperial_lab.core.registry import DEFAULT_GAME, GAMES

MAX_GAMES = 100_000
MAX_SECONDS = 600.0


def add_commands(sub) -> None:
    ev = sub.add_parser(
        "evaluator", help="the learned evaluator: train a game's model, check it on held-out games",
        description="The learned evaluator of each game: each seat's chance to win a position, from public\n"
                    "information (docs/evaluator.md). 'train' rebuilds a model from a seed, 'check' measures it.",
        examples=("imperial evaluator check --game imperia", "imperial evaluator train --game imperia --out my.json"))
    ev_sub = ev.add_subparsers(dest="evaluator_command", required=True, metavar="SUBCOMMAND",
                               help="train or check")

    train = ev_sub.add_parser(
        "train", help="rebuild a game's evaluator from a seed (self-play, expert iteration)",
        description="Rebuild a game's evaluator: play its recipe's games of mixed line-ups, fit the model, then\n"
                    "play rounds of expert iteration with the search on it. The same seed gives the same file.",
        examples=("imperial evaluator train --game imperia --out my.json",
                  "imperial evaluator train --game imperial2030 --games 300 --rounds 0 --out quick.json"))
    _game(train)
    train.add_argument("--seed", type=_whole(0, 2**62), default=0, help="the training's seed (default 0: the shipped model)")
    train.add_argument("--games", type=_whole(10, MAX_GAMES), help="games of the mixed line-ups (default: the game's recipe)")
    train.add_argument("--rounds", type=_whole(0, 10), help="rounds of expert iteration (default: the recipe's)")
    train.add_argument("--iteration-games", type=_whole(1, MAX_GAMES), help="games per round of expert iteration")
    train.add_argument("--workers", type=_whole(1, 256), default=os.cpu_count() or 1, help="processes (default: cores)")
    train.add_argument("--out", metavar="FILE", help="where to write the model (default: the shipped file, "
                                                     "data/<game>/evaluator.json, in a checkout)")
    train.set_defaults(run=_train)

    check = ev_sub.add_parser(
        "check", help="a game's evaluator on fresh held-out games: log loss, Brier score, accuracy by stage "
                      "against two baselines, calibration",
        description="Play fresh held-out games and measure the game's evaluator on their positions against two\n"
                    "baselines (the score leader wins; the game's evaluate hook): log loss, Brier score and\n"
                    "accuracy by stage, and a calibration table of 10 bins.",
        examples=("imperial evaluator check --game imperia", "imperial evaluator check --games 50 --json"))
    _game(check)
    check.add_argument("--games", type=_whole(1, MAX_GAMES), default=200, help="held-out games to play (default 200)")
    check.add_argument("--seed", type=_whole(0, 2**62), help="their seed (default: the model's)")
    check.add_argument("--workers", type=_whole(1, 256), default=os.cpu_count() or 1, help="processes (default: cores)")
    check.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    check.set_defaults(run=_check)

    an = sub.add_parser(
        "analyse", help="each seat's win chance through a game (a move log), its swings and the better moves "
                        "the search finds",
        description="Each seat's chance to win after every step of a game (a move log), the largest swings with\n"
                    "who caused them, and for the movers' biggest drops a better move, in words.\n"
                    "With --run, every finished game of a run, stored as the catalogue's table win_chances.",
        examples=("imperial analyse game.jsonl", "imperial analyse game.jsonl --playouts-per-step 80 --json",
                  "imperial analyse --run runs/my-run"))
    an.add_argument("log", metavar="LOG", nargs="?", help="a move log (imperial play --log)")
    an.add_argument("--run", metavar="runs/NAME", dest="run_folder", help="instead of a log: analyse every finished game of a run and "
                                                      "store each seat's win chance per step as its table win_chances "
                                                      "(the catalogue's view)")
    an.add_argument("--catalog", default=None, metavar="PATH", help="catalogue file (default: lab.duckdb in the user folder)")
    an.add_argument("--json", action="store_true", help="print the analysis as one JSON object")
    an.add_argument("--seconds-per-step", type=_seconds, default=0.0, metavar="S",
                    help="seconds of rollouts (the rollout bot) for each of the movers' biggest drops (default 0: one ply on "
                         "the evaluator); not reproducible, unlike --playouts-per-step")
    an.add_argument("--playouts-per-step", type=_whole(0, 100_000), default=0, metavar="N",
                    help="rollouts (the rollout bot) for each of the movers' biggest drops, reproducible (80: about a second "
                         "in Imperial 2030; default 0: one ply on the evaluator)")
    an.add_argument("--view", type=_whole(0, 5), metavar="SEAT",
                    help="analyse as this seat sees the game (Imperia, Imperial Powers: the evaluator reads public "
                         "information only, whichever seat)")
    an.add_argument("--drops", type=_whole(0, 50), default=3, help="the movers' biggest drops explained (default 3)")
    an.set_defaults(run=_analyse)


def _game(parser) -> None:
    parser.add_argument("--game", choices=sorted(GAMES), default=DEFAULT_GAME, help="the game (default imperial2030)")


def _whole(low: int, high: int):
    def whole(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number {low}..{high}, got {text[:40]!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be {low}..{high}, got {value}")
        return value

    return whole


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds 0..{MAX_SECONDS:g}, got {text[:40]!r}") from None
    if not 0 <= value <= MAX_SECONDS:
        raise argparse.ArgumentTypeError(f"must be 0..{MAX_SECONDS:g} seconds, got {text[:40]!r}")
    return value


def _train(args) -> int:
    from imperial_lab.core import evaluator_train as t
    from imperial_lab.core.evaluator import model_path

    out = Path(args.out) if args.out else model_path(args.game)
    if not out.parent.is_dir():
        raise SetupError(f"--out {out}: no such folder")
    doc = t.train(args.game, args.seed, args.games, args.rounds, args.iteration_games, args.workers)
    t.save(doc, out)
    print(t.report(doc["figures"]))
    print(f"\nwrote {out} ({doc['recipe']['seconds']:.0f} s)")
    return 0


def _check(args) -> int:
    from imperial_lab.core import evaluator_train as t

    figs = t.check(args.game, args.games, args.seed, args.workers)
    if args.json:
        print(json.dumps(figs))
        return 0
    print(t.report(figs))
    failing = t.beats_baselines(figs)
    print("\nthe model beats both baselines at every stage after the first" if not failing
          else "\nthe model does not beat both baselines at: " + ", ".join(failing))
    return 0


def _analyse(args) -> int:
    from imperial_lab.core.analysis import analyse_log, analyse_run, report

    if (args.log is None) == (args.run_folder is None):
        raise SetupError("imperial analyse: give a move log LOG or --run runs/NAME (one of them)")
    if args.run_folder is not None:
        result = analyse_run(args.run_folder, args.catalog)
        print(json.dumps(result) if args.json else f"{result['rows']} rows of win chances of run {result['run']} "
                                                   f"written to {result['path']}")
        return 0
    result = analyse_log(args.log, seconds_per_step=args.seconds_per_step, view=args.view, drops=args.drops,
                         playouts_per_step=args.playouts_per_step)
    print(json.dumps(result) if args.json else report(result))
    return 0
