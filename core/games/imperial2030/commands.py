"""Imperial 2030's own subcommands of ``imperial`` (the plug-in's ``commands`` part, which core/cli.py
asks): ``bench`` (the engine's speed in Imperial 2030's units), ``setups structure`` and ``setups
search`` (bond distributions)."""

from __future__ import annotations

import json
import sys

from imperial_lab.core.cli import MAX_BENCH, bounded, player_count, seed_value
from imperial_lab.core.errors import SetupError


def add_commands(sub, setups_sub) -> None:
    """Add the subcommands to ``imperial`` (``sub``) and to ``imperial setups`` (``setups_sub``)."""
    bench = sub.add_parser(
        "bench", help="time random games and the engine's hot calls",
        description="Time random Imperial 2030 games (games, nation turns and decisions per second, the median and\n"
                    "range over repeats) and the engine's hot calls (legal_actions, apply_action, clone).",
        examples=("imperial bench", "imperial bench --repeats 3 --games 50 --players 6 --json"))
    bench.add_argument("--repeats", type=bounded(MAX_BENCH), default=5, help="how many times to time them (default 5)")
    bench.add_argument("--games", type=bounded(MAX_BENCH), default=20, help="games per repeat (default 20)")
    bench.add_argument("--players", type=player_count, default=4, help="players of each game, 2-6 (default 4)")
    bench.add_argument("--seed", type=seed_value, default=1, help="seeds the games (default 1)")
    bench.add_argument("--json", action="store_true", help="print the raw result as one JSON object")
    bench.set_defaults(run=_bench)

    structure = setups_sub.add_parser(
        "structure", help="who governs on what, and the cheapest takeovers (§9)",
        description="Show an Imperial 2030 setup's structure: who governs each nation on how much credit, who\n"
                    "invests first, and which single bond purchase takes a government over (§9).",
        examples=("imperial setups structure three_nations_each", "imperial setups structure standard --json"))
    structure.add_argument("name", metavar="NAME", help="a setup name (imperial setups lists them)")
    structure.add_argument("--json", action="store_true", help="print the structure as one JSON object")
    structure.set_defaults(run=_setups_structure)
    from imperial_lab.core.games.imperial2030.fair_setups import MAX_CANDIDATES, MAX_GAMES  # a light module (no scipy)
    fair = setups_sub.add_parser(
        "search", help="search for a distribution whose seats win equally often, validated on fresh games",
        description="Search for an Imperial 2030 bond distribution whose seats win equally often under every\n"
                    "line-up of the strength ladder: play each candidate, keep the fairest in the worst case,\n"
                    "and measure it again on fresh games against every rung (docs/setups.md).",
        examples=("imperial setups search --candidates 20 --games 200",
                  "imperial setups search --players 3 --candidates 40 --games 300 --tune-handicap --save fair3"))
    fair.add_argument("--players", type=player_count, default=4, help="players, 2-6 (default 4)")
    fair.add_argument("--lineups", metavar="SPECS",
                      help="the line-ups to be fair under, each a bot in every seat, comma-separated (default: the "
                           "ladder's rungs but its top: random and the heuristic at temperatures 1, 0.3, "
                           "0.1, 0); heuristic or random bots only")
    fair.add_argument("--candidates", type=bounded(MAX_CANDIDATES), required=True,
                      help=f"candidate distributions, 1..{MAX_CANDIDATES:,}")
    fair.add_argument("--games", type=bounded(MAX_GAMES), required=True,
                      help=f"games per candidate, 1..{MAX_GAMES:,} (the seats are not rotated)")
    fair.add_argument("--seed", type=seed_value, default=1, help="seeds the candidates and the games (default 1)")
    fair.add_argument("--validate", type=bounded(MAX_GAMES), metavar="M",
                      help="fresh games that measure the best candidate again (default: --games)")
    fair.add_argument("--finalists", type=bounded(MAX_CANDIDATES), default=1, metavar="F",
                      help="play the F fairest again on --final-games fresh games and keep the fairest of those "
                           "(default 1: no final round)")
    fair.add_argument("--final-games", type=bounded(MAX_GAMES), metavar="G",
                      help="games of each finalist and of each handicap variant (default: --games)")
    fair.add_argument("--tune-handicap", action="store_true",
                      help="try the kept candidate with its first investor-card holder keeping 0, 1 or 2m less, "
                           "on --final-games fresh games each, and validate the fairest")
    fair.add_argument("--search-games", type=bounded(MAX_GAMES), metavar="S",
                      help="validate on S games of the ladder's top rung too (greedy in every seat: seconds a game)")
    fair.add_argument("--margin", type=float, metavar="SHARE",
                      help="a seat within this share of its fair share is fair enough (default 0.03: 3 points)")
    fair.add_argument("--save", metavar="NAME", help="write the best candidate as a new setup NAME.json "
                                                     "(never overwrites)")
    fair.add_argument("--json", action="store_true", help="print the result as one JSON object")
    fair.set_defaults(run=_setups_search)


# ----- bench -----

def _bench(args) -> int:
    from imperial_lab.core.games.imperial2030.bench import run_bench

    print(f"imperial bench: {args.repeats} x {args.games} random {args.players}-player games ...", file=sys.stderr)
    result = run_bench(args.repeats, args.games, args.seed, args.players, progress=_bench_progress)
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"{result['players']} players, {result['repeats']} repeats of {result['games_per_repeat']} games "
          f"(seed {args.seed}); median (min-max) over the repeats")
    for key, label, digits in (("games_per_s", "games/s", 2), ("nation_turns_per_s", "nation turns/s", 0),
                               ("decisions_per_s", "decisions/s", 0),
                               ("nation_turns_per_game", "nation turns/game", 1)):
        row = result[key]
        print(f"  {label:18}{row['median']:>10.{digits}f}  ({row['min']:.{digits}f}-{row['max']:.{digits}f})")
    calls = result["per_call_us"]
    print(f"per call over the {calls['states_measured']} states of one game (best of 5 passes):")
    for name in ("legal_actions", "apply_action", "apply_legal", "clone"):
        print(f"  {name:18}{calls[name]:>10.1f} µs")
    return 0


def _bench_progress(done: int, repeats: int, row: dict) -> None:
    print(f"  repeat {done}/{repeats}: {row['games_per_s']:.2f} games/s", file=sys.stderr)


# ----- setups -----

def _setups_structure(args) -> int:
    from imperial_lab.core.games.imperial2030.structure import setup_structure, structure_lines

    structure = setup_structure(args.name)
    print(json.dumps(structure) if args.json else "\n".join(structure_lines(structure)))
    return 0


def _setups_search(args) -> int:
    from imperial_lab.core.compare import margin_of
    from imperial_lab.core.games.imperial2030.fair_setups import check_lineups, check_save_name, format_result, save_setup, search

    check_lineups(args.lineups)  # every refusal before the first game
    margin = margin_of(args.margin)
    if args.finalists > args.candidates:
        raise SetupError(f"--finalists: {args.finalists} is more than the {args.candidates} candidates")
    if args.save is not None:
        check_save_name(args.save)
    result = search(args.players, args.lineups, args.candidates, args.games, args.seed, args.validate,
                    args.finalists, args.final_games, args.tune_handicap, args.search_games or 0, margin)
    if args.save is not None:
        save_setup(result, args.save)
    print(json.dumps(result) if args.json else format_result(result))
    return 0
