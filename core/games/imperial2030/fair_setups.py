"""``imperial setups search``: a search for starting distributions whose seats win equally often
(docs/setups.md, "Searching for fair setups").

**Candidates.** Every candidate has the same *structure* for every seat, so that the seats differ only
by where they sit (turn order, the investor card, the map of their nations):

* seat p governs ``g = 6 // P`` nations (one for 4-6 players, two for 3, three for 2; the nations
  left over, two for 4 players and one for 5, start unowned: their turns are skipped until someone
  buys one of their bonds), each on the same governing bond (6m, 9m or 12m), optionally with the
  governor's own 2m bond of that nation beside it;
* every seat holds the same minor bonds (none, one or two of 2m, 4m or 6m, each smaller than the
  government's credit) in the nations of the seats ``+k`` after it (the same offsets for every
  seat), so every government faces the same challengers;
* every seat pays the same and keeps the same cash, except for one optional handicap: the seat
  that holds the investor card first (the seat after the government of the first nation to move,
  §4.4) may keep 1m or 2m less. Measured over the 60 candidates of a search without handicaps
  (heuristic bots, 300 games each), that seat won 29.3% of the games on average, the others 23.6%:
  the largest seat effect that equal holdings leave (the card pays it 2m and lets it invest first,
  §7.5).

Candidate 0 is the base: nations in order (for 4 players A RU, B CN, C IN, D BR), a 9m governing
bond, a 2m bond in the next seat's nation, 2m kept: the standard deal's 5m card fixed (§4.2). The
others are seeded random draws of the structure (which nations, which seat governs which, the
bonds, the offsets, the cash, the handicap), distinct from each other. Each passes
``check_setup``, the checks of ``setups.read_setup_file`` on the document in memory.

**Measure.** Every candidate plays the same N games under each line-up (a bot in every seat; by
default the strength ladder's rungs but its top: random, and the heuristic at temperatures 1,
0.3, 0.1 and 0, imperial_lab.core.ladder), without rotating the seats (the seats are what is measured):
game k is played with seed ``imperial_lab.core.simulate.game_seed(seed, k)`` and seat p's bot is
``make_bot(spec, 100 * game_seed + p)``, like ``imperial simulate``, so ``imperial play --setup FILE
--seed <game seed> --bots ...`` plays any of them again. A shared win splits: each of its k winners
gets 1/k. Per line-up, ``imperial_lab.core.stats.seat_figures``: each seat's share with its interval at the
level of the setup's family of tests in ``imperial compare`` (its seats over every rung of the
ladder), the largest edge (a seat's distance from its fair share 1/P), and the verdict against the
margin (fair, unfair, or not enough games).

**Choice and validation.** The fairest candidate is the one whose worst edge over the line-ups is the
smallest (the worst case over the line-ups; ties: the smaller mean of the line-ups' largest edges,
then the lower index). The best of K on the same games looks fairer than it is (the winner's curse:
its small edges are partly luck), so it is measured again on M fresh games of every line-up, and
of the ladder's top rung (a slow bot: few games, ``search_games``), and those are the figures of
the result and of ``--save``. Two optional stages come before: a final round (the F fairest play G
fresh games of each line-up, and the fairest on those is kept) and the tuning of the kept
structure's handicap (0, 1 and 2m, G fresh games each). Each stage plays the next block of game
indices (the search 0..N-1, then N..N+G-1, ...), so no stage reuses another's games. Nothing is
written unless ``save_setup`` is called.
"""

from __future__ import annotations

import json
import os
import random
import re
import sys
from dataclasses import dataclass, replace
from pathlib import Path

from imperial_lab.core import ladder
from imperial_lab.core.bots import bot_classes, make_bot, parse_bot_list, parse_bot_spec
from imperial_lab.core.errors import SetupError
from imperial_lab.core.games.imperial2030.data import NATIONS, load_board
from imperial_lab.core.games.imperial2030.distribution import validate_distribution
from imperial_lab.core.games.imperial2030.setups import FILE_KEYS, PRESETS, SEAT_KEYS, read_setup_file, setups_folder
from imperial_lab.core.interface import make_game
from imperial_lab.core.jsonio import clip

MAX_CANDIDATES = 1_000
MAX_GAMES = 100_000  # per candidate, and of the validation
MIN_PLAYERS, MAX_PLAYERS = 2, 6  # what custom setups allow
SEARCH_BOTS = ("random", "heuristic")  # a bot that looks ahead plays seconds to minutes a game: too slow for a search
NAME_PATTERN = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")  # the dashboard's setup names (dashboard/games/imperial2030/setup_table.py)
GOVERNING_BONDS = (3, 4, 5)  # bond numbers: 6m, 9m, 12m
MINOR_BONDS = (1, 2, 3)  # 2m, 4m, 6m
OWN_BOND = 1  # the governor's optional 2m bond of his own nation
CASH_KEPT = (0, 1, 2, 3)
MAX_HANDICAP = 2  # millions the first investor-card holder may keep less
MAX_MINORS = 2
DRAW_ATTEMPTS = 200  # random draws per candidate wanted before giving up on finding new ones


@dataclass(frozen=True)
class Structure:
    """One candidate: what every seat holds, the same for every seat but for the first investor-card
    holder's handicap (see the module's docstring)."""

    players: int
    governed: tuple[tuple[int, ...], ...]  # per seat, the nations (indices into NATIONS) it governs
    main: int  # the governing bond's number (1..9), the same in every governed nation
    own: int | None  # the governor's second bond of his nation (number), or None
    minors: tuple[tuple[int, int], ...]  # (offset, number): seat p holds bond `number` of each nation of seat p+offset
    cash: int  # kept by every seat after paying for its bonds
    handicap: int = 0  # kept less by the seat that holds the investor card first


def first_card_holder(structure: Structure) -> int:
    """The seat that gets the investor card at the start: the one after the government of the first
    governed nation in turn order (§4.4, imperial_lab.core.games.imperial2030.setup.finish_setup)."""
    first = min(n for nations in structure.governed for n in nations)
    governor = next(p for p, nations in enumerate(structure.governed) if first in nations)
    return (governor + 1) % structure.players


def seat_letter(p: int) -> str:
    return chr(ord("A") + p)


def base_structure(players: int) -> Structure:
    """Candidate 0: nations in order, a 9m governing bond, a 2m bond in the next seat's nation, 2m kept."""
    g = 6 // players
    governed = tuple(tuple(range(p * g, (p + 1) * g)) for p in range(players))
    return Structure(players, governed, 4, None, ((1, 1),), 2)


def draw_structure(players: int, rng: random.Random) -> Structure:
    """A random structure: which nations are governed by whom, the bonds, the offsets, the cash."""
    cost = load_board().bond_cost
    g = 6 // players
    order = rng.sample(range(6), 6)
    governed = tuple(tuple(sorted(order[p * g:(p + 1) * g])) for p in range(players))
    main = rng.choice(GOVERNING_BONDS)
    own = rng.choice((None, OWN_BOND))
    credit = cost[main - 1] + (cost[own - 1] if own else 0)
    # A minor holder never ties the government: every government is clear from the start.
    numbers = [n for n in MINOR_BONDS if n not in (main, own) and cost[n - 1] < credit]
    count = rng.randint(0, min(MAX_MINORS, players - 1, len(numbers)))
    minors = tuple(sorted(zip(rng.sample(range(1, players), count), rng.sample(numbers, count))))
    cash = rng.choice(CASH_KEPT)
    return Structure(players, governed, main, own, minors, cash, rng.randint(0, min(MAX_HANDICAP, cash)))


def document(structure: Structure) -> dict:
    """The setup document of a structure (the format of data/setups/*.json), with every check stated."""
    cost = load_board().bond_cost
    n_players = structure.players
    holdings: list[list[tuple[int, int]]] = [[] for _ in range(n_players)]
    for p, nations in enumerate(structure.governed):
        for n in nations:
            holdings[p].append((n, structure.main))
            if structure.own:
                holdings[p].append((n, structure.own))
        for offset, number in structure.minors:
            for n in structure.governed[(p + offset) % n_players]:
                holdings[p].append((n, number))
    players, treasuries, governments = [], {code: 0 for code in NATIONS}, {}
    card = first_card_holder(structure)
    for p, bonds in enumerate(holdings):
        bonds.sort(key=lambda bond: (-cost[bond[1] - 1], bond[0]))  # the biggest first, like the shipped files
        paid = sum(cost[number - 1] for _, number in bonds)
        cash = structure.cash - (structure.handicap if p == card else 0)
        players.append({"starting_cash": cash + paid, "cash": cash,
                        "bonds": [f"{NATIONS[n]} {number}" for n, number in bonds]})
        for n, number in bonds:
            treasuries[NATIONS[n]] += cost[number - 1]
    for p, nations in enumerate(structure.governed):
        for n in nations:
            governments[NATIONS[n]] = p
    governments = {code: governments[code] for code in NATIONS if code in governments}
    return {"description": describe(structure), "players": players, "governments": governments,
            "treasuries": treasuries}


def describe(structure: Structure) -> str:
    """One line saying what every seat holds."""
    cost = load_board().bond_cost
    n_players = structure.players
    g = len(structure.governed[0])
    seats = ", ".join(f"{seat_letter(p)} {'+'.join(NATIONS[n] for n in nations)}"
                      for p, nations in enumerate(structure.governed))
    unowned = [code for n, code in enumerate(NATIONS) if not any(n in nations for nations in structure.governed)]
    own = f" plus its {cost[structure.own - 1]}m bond" if structure.own else ""
    governs = "one nation" if g == 1 else f"{('two', 'three')[g - 2]} nations, each"
    text = f"{n_players} players, each governs {governs} on a {cost[structure.main - 1]}m bond{own} ({seats}"
    text += f"; {', '.join(unowned)} unowned)" if unowned else ")"
    if structure.minors:
        text += " and holds " + " and ".join(f"{cost[number - 1]}m in {_whose(offset, n_players, g)}"
                                             for offset, number in structure.minors)
    else:
        text += " and no other bond"
    paid = document_cost(structure)
    text += f"; each pays {paid}m of {paid + structure.cash}m"
    if structure.handicap:
        text += (f", but {seat_letter(first_card_holder(structure))}, the first investor-card holder, "
                 f"keeps {structure.handicap}m less")
    return text


def _whose(offset: int, players: int, g: int) -> str:
    nations = "nation" if g == 1 else "nations"
    if offset == 1:
        return f"the next seat's {nations}"
    if offset == players - 1:
        return f"the previous seat's {nations}"
    return f"the {nations} of the seat {offset} after"


def document_cost(structure: Structure) -> int:
    """What every seat pays for its bonds."""
    cost = load_board().bond_cost
    per_nation = cost[structure.main - 1] + (cost[structure.own - 1] if structure.own else 0)
    g = len(structure.governed[0])
    return g * per_nation + g * sum(cost[number - 1] for _, number in structure.minors)


def first_card_holder_of(doc: dict) -> int:
    """The first investor-card holder of a setup document (§4.4)."""
    first = next(code for code in NATIONS if code in doc["governments"])
    return (doc["governments"][first] + 1) % len(doc["players"])


def check_setup(doc: dict, players: int | None = None) -> dict:
    """The checks of ``setups.read_setup_file`` on a document in memory (SetupError on a fault)."""
    unknown = sorted(set(doc) - FILE_KEYS)
    if unknown:
        raise SetupError(f"unknown keys {clip(unknown)} (known: {sorted(FILE_KEYS)})")
    if not isinstance(doc.get("description"), str) or not 0 < len(doc["description"].strip()) <= 1000:
        raise SetupError("description: must be a text of 1..1,000 characters")
    seats = doc.get("players")
    if not isinstance(seats, list) or not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS or \
            (players is not None and len(seats) != players):
        raise SetupError(f"players: must list {players or '2..6'} players")
    for p, seat in enumerate(seats):
        extra = sorted(set(seat) - SEAT_KEYS) if isinstance(seat, dict) else []
        if extra:
            raise SetupError(f"players[{p}]: unknown keys {clip(extra)} (known: {sorted(SEAT_KEYS)})")
    validate_distribution(doc, len(seats), load_board().bond_cost)
    return doc


def candidates(players: int, count: int, seed: int) -> list[dict]:
    """``count`` distinct candidates for ``players`` seats: ``{"index", "structure", "distribution"}``,
    candidate 0 the base, the others seeded random draws; the same (players, count, seed) give the same."""
    return [entry(i, s) for i, s in enumerate(structures(players, count, seed))]


def entry(index: int, structure: Structure) -> dict:
    return {"index": index, "structure": describe(structure), "distribution": document(structure)}


def handicap_variants(structure: Structure) -> list[Structure]:
    """The structure with each handicap of the first investor-card holder, 0..min(MAX_HANDICAP, cash)."""
    return [replace(structure, handicap=h) for h in range(min(MAX_HANDICAP, structure.cash) + 1)]


def structures(players: int, count: int, seed: int) -> list[Structure]:
    """The structures of ``candidates``."""
    check_players(players)
    check_count(count, MAX_CANDIDATES, "--candidates")
    rng = random.Random(f"imperial-fair-setups:{players}:{seed}")
    found: list[Structure] = []
    seen: set[str] = set()
    attempts = 0
    structure = base_structure(players)
    while len(found) < count:
        doc = document(structure)
        key = json.dumps([doc["players"], doc["governments"]])
        if key not in seen:
            check_setup(doc, players)
            seen.add(key)
            found.append(structure)
        attempts += 1
        if attempts > DRAW_ATTEMPTS * count:
            raise SetupError(f"--candidates {count}: only {len(found)} distinct candidates found for {players} players")
        structure = draw_structure(players, rng)
    return found


# ----- checking the inputs (each a SetupError of one line) -----

def check_players(players) -> int:
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise SetupError(f"--players: must be {MIN_PLAYERS}..{MAX_PLAYERS}, got {clip(players)}")
    return players


def check_count(value, high: int, where: str) -> int:
    if type(value) is not int or not 1 <= value <= high:
        raise SetupError(f"{where}: must be a whole number 1..{high:,}, got {clip(value)}")
    return value


def check_lineups(text) -> list[str]:
    """The canonical specs of ``--lineups`` (a comma list or a list, each a bot in every seat; None: the
    ladder's rungs but its top), random and heuristic bots only: a bot that looks ahead is far too slow
    for the thousands of games of a search (the validation plays the ladder's top rung itself)."""
    if text is None:
        return [spec for spec in ladder.rungs() if not ladder.searches(spec)]
    specs = parse_bot_list(",".join(text) if isinstance(text, (list, tuple)) else text, "--lineups")
    for spec in specs:
        name, _ = parse_bot_spec(spec, "--lineups")
        if name not in SEARCH_BOTS:
            raise SetupError(f"--lineups: {clip(spec)}: a search plays {' or '.join(SEARCH_BOTS)} bots only ({name} "
                             f"looks ahead: far too slow for thousands of games)")
    return list(dict.fromkeys(specs))


def check_save_name(name: str, folder: Path | None = None) -> Path:
    """The path ``--save NAME`` would write; SetupError for a bad name or one that is taken."""
    folder = setups_folder() if folder is None else Path(folder)
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):
        raise SetupError(f"--save: {clip(name)}: a setup name is 1..64 lower-case letters, digits, '_' and '-', "
                         f"starting with a letter or digit")
    if name in PRESETS:
        raise SetupError(f"--save: {name!r} is a built-in setup; choose another name")
    if not folder.is_dir():
        raise SetupError(f"--save: the setups folder {folder} does not exist")
    path = folder / f"{name}.json"
    if path.exists():
        raise SetupError(f"--save: {path} exists; choose another name (a setup is never overwritten)")
    return path


# ----- measuring -----

def family_size(players: int) -> int:
    """The tests of a setup's family in ``imperial compare`` (its seats over every rung of the ladder and
    their slopes): the validation's intervals are at its level, so they are the ones ``imperial
    compare`` gives for the same games."""
    return players * len(ladder.rungs()) + players


def seat_balance(wins, games: int, margin: float | None = None) -> dict:
    """Seat balance of ``games`` games in which seat p won ``wins[p]`` (a shared win split among its
    winners): ``imperial_lab.core.stats.seat_figures`` at the level of the setup's family."""
    from imperial_lab.core import stats  # SciPy and statsmodels: only when games are measured

    if games < 1 or len(wins) < 2:
        raise SetupError("seat balance: needs at least one game and two seats")
    return stats.seat_figures(wins, games, family_size(len(wins)), stats.MARGIN if margin is None else margin)


def play_seat_games(config: dict, bots: list[str], seed: int, first: int, games: int, margin: float | None = None,
                    on_game=None) -> dict:
    """Play games ``first..first+games-1`` of ``seed`` from ``config`` (no rotation) and measure them."""
    from imperial_lab.core.play import play_game
    from imperial_lab.core.simulate import game_seed

    wins = [0.0] * config["players"]
    for k in range(first, first + games):
        s = game_seed(seed, k)
        winners = play_game(config, [make_bot(spec, s * 100 + p) for p, spec in enumerate(bots)], s,
                            record=False).state.winners()
        for p in winners:
            wins[p] += 1 / len(winners)
        if on_game is not None:
            on_game()
    return seat_balance(wins, games, margin)


def setup_config(doc: dict, name: str = "candidate") -> dict:
    """The game configuration of a setup document (like ``setups.load_setup`` of its file)."""
    distribution = {key: value for key, value in doc.items() if key != "description"}
    return make_game({"game": "imperial2030", "players": len(doc["players"]), "setup": "custom",
                      "distribution": distribution, "name": name}).config


def worst_case(balances: dict) -> dict:
    """A candidate's measure over the line-ups: each line-up's seat balance, the worst edge (the largest
    distance of any seat from its fair share under any line-up: what the search minimises) and the
    mean of the line-ups' largest edges (the tie-break)."""
    edges = [b["edge"] for b in balances.values()]
    return {"lineups": balances, "worst": max(edges), "mean": sum(edges) / len(edges)}


def fairness_key(entry: dict, stage: str = "search") -> tuple:
    """Smaller is fairer: the worst edge of that stage's games, then the mean edge, then the index."""
    measure = entry[stage]
    return measure["worst"], measure["mean"], entry["index"]


def search(players: int, lineups, count: int, games: int, seed: int, validate: int | None = None,
           finalists: int = 1, final_games: int | None = None, tune_handicap: bool = False, search_games: int = 0,
           margin: float | None = None, progress: bool = True, on_progress=None) -> dict:
    """Propose ``count`` candidates and play ``games`` games of each under every line-up of ``lineups``
    (a bot in every seat each; None: the ladder's rungs but its top), keep the one whose worst
    seat under its worst line-up is nearest its fair share, and validate it on ``validate`` (default
    ``games``) fresh games of every line-up, and ``search_games`` of the ladder's top rung when that
    bot looks ahead (0: not played). Writes nothing.

    With ``finalists`` F > 1 the F fairest of that first round play ``final_games`` (default ``games``)
    fresh games of each line-up, and the fairest on those is kept. With ``tune_handicap`` the kept
    structure is played with each handicap of its first investor-card holder (0..2m, at most its
    cash) on ``final_games`` fresh games of each line-up, and the fairest variant is validated. Every
    stage plays games no earlier stage played: the search games 0..N-1, then the finals, the handicap
    variants and the validation, each on the next block of game seeds (the same block for every
    line-up).

    ``on_progress(done, total)`` after every game (``total`` grows once, when the number of handicap
    variants is known); a tqdm bar on stderr when ``progress``.
    """
    check_players(players)
    specs = check_lineups(lineups)
    check_count(count, MAX_CANDIDATES, "--candidates")
    check_count(games, MAX_GAMES, "--games")
    validate = games if validate is None else check_count(validate, MAX_GAMES, "--validate")
    check_count(finalists, count, "--finalists (at most --candidates)")
    final_games = games if final_games is None else check_count(final_games, MAX_GAMES, "--final-games")
    if search_games:
        check_count(search_games, MAX_GAMES, "--search-games")
    top = ladder.rungs()[-1]
    validated = specs + ([top] if search_games and ladder.searches(top) else [])
    if margin is None:
        from imperial_lab.core.stats import MARGIN as margin
    found = structures(players, count, seed)
    proposed = [entry(i, structure) for i, structure in enumerate(found)]
    lineup_count = len(specs)
    finals_games = final_games if finalists > 1 else 0
    total = [lineup_count * (count * games + finalists * finals_games + validate) + len(validated[lineup_count:])
             * search_games]
    from tqdm import tqdm

    bar = tqdm(total=total[0], unit="game", desc=f"candidate 1/{count}", file=sys.stderr, disable=not progress,
               dynamic_ncols=True)
    done = [0]

    def step() -> None:
        done[0] += 1
        bar.update(1)
        if on_progress is not None:
            on_progress(done[0], total[0])

    def measure(doc: dict, first: int, n: int, among=specs, search_n: int = 0) -> dict:
        config = setup_config(doc)
        return worst_case({spec: play_seat_games(config, [spec] * players, seed, first,
                                                 search_n if ladder.searches(spec) else n, margin, step)
                           for spec in among})

    first = games  # the next fresh game
    variants: list[dict] = []
    try:
        for candidate in proposed:
            bar.set_description(f"candidate {candidate['index'] + 1}/{count}")
            candidate["search"] = measure(candidate["distribution"], 0, games)
        ranking = sorted(proposed, key=fairness_key)
        best, finals = ranking[0], []
        if finalists > 1:
            for k, candidate in enumerate(ranking[:finalists], 1):
                bar.set_description(f"finalist {k}/{finalists}")
                candidate["final"] = measure(candidate["distribution"], first, final_games)
            finals = sorted(ranking[:finalists], key=lambda candidate: fairness_key(candidate, "final"))
            best = finals[0]
            first += final_games
        kept = {"index": best["index"], "structure": best["structure"], "distribution": best["distribution"],
                "search": best["search"], "final": best.get("final"), "handicap": found[best["index"]].handicap}
        if tune_handicap:
            options = handicap_variants(found[best["index"]])
            total[0] += len(options) * final_games * lineup_count
            bar.total = total[0]
            for variant in options:
                bar.set_description(f"handicap {variant.handicap}m of candidate {best['index']}")
                doc = check_setup(document(variant), players)
                variants.append({"handicap": variant.handicap, "structure": describe(variant), "distribution": doc,
                                 "balance": measure(doc, first, final_games)})
            chosen = min(variants, key=lambda v: (v["balance"]["worst"], v["balance"]["mean"], v["handicap"]))
            kept.update(structure=chosen["structure"], distribution=chosen["distribution"],
                        handicap=chosen["handicap"])
            first += final_games
        bar.set_description(f"validating candidate {best['index']}")
        kept["validation"] = measure(kept["distribution"], first, validate, validated, search_games)
        kept["validation_games"] = [first, first + validate - 1]
        kept["verdict"] = overall_verdict(kept["validation"])
    finally:
        bar.close()
    return {"players": players, "lineups": specs, "seed": seed, "candidates_count": count, "games": games,
            "finalists": finalists, "final_games": final_games if finalists > 1 or tune_handicap else 0,
            "tune_handicap": tune_handicap, "validate": validate, "search_games": search_games if validated != specs
            else 0, "margin": margin, "tests": family_size(players), "par": 1 / players, "candidates": proposed,
            "ranking": [candidate["index"] for candidate in ranking],
            "final_ranking": [candidate["index"] for candidate in finals], "handicap_variants": variants,
            "best": kept, "saved": None}


def overall_verdict(measure: dict) -> str:
    """Unfair when some line-up shows it unfair, fair when every line-up shows it fair, else undecided."""
    verdicts = {b["verdict"] for b in measure["lineups"].values()}
    return "unfair" if "unfair" in verdicts else "fair" if verdicts == {"fair"} else "undecided"


def rates_text(balance: dict) -> str:
    """``A 24.8% (20.8-29.2), B ...``: the per seat rates of a balance with their intervals."""
    return ", ".join(f"{seat_letter(p)} {100 * rate:.1f}% ({100 * low:.1f}-{100 * high:.1f})"
                     for p, (rate, (low, high)) in enumerate(zip(balance["win_rate"], balance["win_rate_ci"])))


def verdict_text(balance: dict) -> str:
    """``fair within ±3 points`` / ``unfair`` / ``not enough games (about 5,200 would decide)``."""
    if balance["verdict"] == "fair":
        return f"fair within ±{100 * balance['margin']:g} points"
    if balance["verdict"] == "unfair":
        return "unfair"
    return f"not enough games (about {balance['games_to_decide']:,} would decide)"


def worst_seat_text(balance: dict) -> str:
    """The seat farthest from its fair share: ``B 23.1% (19.5-27.1)``."""
    p = max(range(len(balance["win_rate"])), key=lambda q: abs(balance["win_rate"][q] - balance["par"]))
    low, high = balance["win_rate_ci"][p]
    return f"{seat_letter(p)} {100 * balance['win_rate'][p]:.1f}% ({100 * low:.1f}-{100 * high:.1f})"


def saved_description(result: dict) -> str:
    """The description of the saved best: its structure, the search, then each line-up's validation on
    fresh games (its verdict and its worst seat, n and the seeds)."""
    best = result["best"]
    first, last = best["validation_games"]
    finals = (f", then of {result['finalists']} finalists x {result['final_games']} games"
              if result.get("finalists", 1) > 1 else "")
    if result.get("tune_handicap"):
        finals += f", then its handicap tuned on {result['final_games']} games per variant"
    checks = "; ".join(f"{spec} ({b['games']} games) {verdict_text(b)}, worst seat {worst_seat_text(b)}"
                       for spec, b in best["validation"]["lineups"].items())
    text = (f"{best['structure']}. Found by imperial setups search against {len(result['lineups'])} line-ups (best of "
            f"{result['candidates_count']} candidates x {result['games']} games{finals}, seed {result['seed']}); "
            f"validated on fresh games ({first}.. of seed {result['seed']}), shared wins split: {checks}")
    return text if len(text) <= 1000 else text[:999] + "…"


def save_setup(result: dict, name: str, folder: Path | None = None) -> Path:
    """Write the best candidate of ``result`` as ``folder/NAME.json`` (default ``setups_folder()``) with
    ``saved_description``; refuses a bad or existing name. The file is written beside first and read
    back with this game's setups module, so nothing but the one checked file is left."""
    folder = setups_folder() if folder is None else Path(folder)
    path = check_save_name(name, folder)
    doc = {**result["best"]["distribution"], "description": saved_description(result)}
    check_setup(doc, result["players"])
    draft = folder / f".{name}.json.draft"
    players = ",\n".join(f"    {json.dumps(seat)}" for seat in doc["players"])
    text = (f'{{\n  "description": {json.dumps(doc["description"], ensure_ascii=False)},\n  "players": [\n{players}\n'
            f'  ],\n  "governments": {json.dumps(doc["governments"])},\n'
            f'  "treasuries": {json.dumps(doc["treasuries"])}\n}}\n')
    try:
        draft.write_text(text, encoding="utf-8")
        read_setup_file(draft)
        try:
            os.link(draft, path)  # fails if the name was taken meanwhile: never overwrites
        except FileExistsError:
            raise SetupError(f"--save: {path} exists; choose another name (a setup is never overwritten)") from None
        except OSError:  # a file system without hard links
            if path.exists():
                raise SetupError(f"--save: {path} exists; choose another name") from None
            os.replace(draft, path)
    finally:
        draft.unlink(missing_ok=True)
    result["saved"] = str(path)
    return path


def format_result(result: dict, shown: int = 10) -> str:
    """The text report of ``search``: the fairest candidates on the search games (and the finalists on
    theirs, the handicap variants), each with its largest seat edge under each line-up, then the kept
    one's validation on fresh games, line-up by line-up."""
    specs = result["lineups"]
    names = " ".join(f"{_short(spec):>7}" for spec in specs)
    header = f"{'rank':>4} {'cand':>4} {'worst':>6} {names}  structure"
    by_index = {entry["index"]: entry for entry in result["candidates"]}

    def edges(measure) -> str:
        return " ".join(f"{100 * measure['lineups'][spec]['edge']:6.1f}%" for spec in specs)

    def rows(order, stage, limit):
        for rank, index in enumerate(order[:limit], 1):
            entry = by_index[index]
            yield f"{rank:>4} {index:>4} {100 * entry[stage]['worst']:5.1f}% {edges(entry[stage])}  {entry['structure']}"

    lines = [f"Search for fair {result['players']}-player setups: {result['candidates_count']} candidates x "
             f"{result['games']} games under each of {len(specs)} line-ups ({', '.join(specs)}), seed {result['seed']} "
             f"(no seat rotation; a shared win split among its winners)",
             "Each line-up's figure is its largest seat edge (the distance of a seat's share of the wins from "
             f"{100 * result['par']:.1f}%); the search keeps the smallest worst edge over the line-ups.",
             header, *rows(result["ranking"], "search", shown)]
    if len(result["ranking"]) > shown:
        lines.append(f"  ... {len(result['ranking']) - shown} more candidates (--json lists them all)")
    finals = result.get("final_ranking") or []
    if finals:
        lines += [f"Finalists: the {len(finals)} fairest, {result['final_games']} fresh games each "
                  f"(games {result['games']}..{result['games'] + result['final_games'] - 1}):",
                  header, *rows(finals, "final", len(finals))]
    variants = result.get("handicap_variants") or []
    if variants:
        card = seat_letter(first_card_holder_of(variants[0]["distribution"]))
        start = result["best"]["validation_games"][0] - result["final_games"]
        lines += [f"Handicaps of {card}, the first investor-card holder, of candidate {result['best']['index']}: "
                  f"{result['final_games']} fresh games each (games {start}..{start + result['final_games'] - 1}):",
                  f"{'keeps less':>10} {'worst':>6} {names}"]
        for variant in variants:
            b = variant["balance"]
            lines.append(f"{str(variant['handicap']) + 'm':>10} {100 * b['worst']:5.1f}% {edges(b)}")
    best = result["best"]
    first, last = best["validation_games"]
    stage, n = ("final", len(finals)) if finals else ("search", result["candidates_count"])
    tuned = f", handicap {best['handicap']}m (the fairest of {len(variants)})" if variants else ""
    lines += [f"Best: candidate {best['index']}{tuned} (worst edge {100 * best[stage]['worst']:.1f} points on the "
              f"{stage} games, biased low: the best of {n})",
              f"  {best['structure']}",
              f"Validation on fresh games ({first}..{last} of seed {result['seed']}; intervals at the level of the "
              f"setup's {result['tests']} tests in imperial compare; margin ±{100 * result['margin']:g} points):"]
    for spec, b in best["validation"]["lineups"].items():
        lines.append(f"  {spec} ({b['games']:,} games): {rates_text(b)}; gap {100 * b['gap']:.1f} points; "
                     f"{verdict_text(b)}")
    if not result.get("search_games"):
        lines.append(f"  (the ladder's top rung, {ladder.rungs()[-1]}, not played: --search-games N plays it)")
    lines.append(f"Verdict along the line-ups: {best['verdict']}")
    if result["saved"]:
        lines.append(f"Saved {result['saved']}")
    return "\n".join(lines)


def _short(spec: str) -> str:
    """A line-up in a column head: ``random``, ``t=0.3``, ``t=0``."""
    name, params = parse_bot_spec(spec)
    if name != "heuristic":
        return name[:7]
    return f"t={params.get('temperature', bot_classes()[name].PARAMS['temperature'][3]):g}"
