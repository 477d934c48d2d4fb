"""``imperial league``: bots against each other, one per seat, and their standings (docs/league.md).

A league is a ``imperial_lab.core.simulate`` run with ``rotate=True``: game k gives seat p the bot
``bots[(p + k) % P]``, so every bot plays every seat equally often (up to the last games when N is
not a multiple of P). Its tables are those of any run, and ``standings`` reads them back: it works
on any run folder, rotated or not.

Statistics are per *entrant*, a distinct canonical bot spec: a spec named for two seats is one
entrant with two seats per game. The game is the unit: an entrant *wins* a game when one of its
seats is among the winners (a shared win counts as a win for every winner), and its win rate is
wins / games with a 95% Wilson interval. Each game updates the ratings once, with OpenSkill's
Plackett-Luce model, from the final ranking of the entrants: winners first, then by score; an
entrant with several seats is ranked by its best seat, like its wins.
"""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path

from imperial_lab.core import runstore
from imperial_lab.core.bots import canonical_spec
from imperial_lab.core.errors import SetupError
from imperial_lab.core.interface import seat_name
from imperial_lab.core.jsonio import clip
from imperial_lab.core.registry import DEFAULT_GAME, plugin
from imperial_lab.core.runstore import RunError
from imperial_lab.core.simulate import DEFAULT_CHUNK_SIZE, simulate
from imperial_lab.core.stats import wilson

MIN_BOTS, MAX_BOTS = 2, 6  # one bot per seat: the number of bots is the number of players
CHUNKS_WANTED = 20  # a league of a few hundred games still spreads over the workers
WINS_COUNTED = "a shared win counts as a win for every winner"


def league_name(bots: list[str], games: int, seed: int, setup: str, game: str = DEFAULT_GAME) -> str:
    """The default name of a league: the same game, line-up, games, seed and setup give the same name
    (so running it again resumes it), anything else another one."""
    # Imperial 2030's leagues keep the names they had before there were other games.
    text = json.dumps([bots, games, seed, setup] + ([] if game == DEFAULT_GAME else [game]))
    return "league-" + hashlib.blake2b(text.encode(), digest_size=5).hexdigest()


def chunk_size(games: int) -> int:
    """Games per chunk: about CHUNKS_WANTED chunks, at most DEFAULT_CHUNK_SIZE games each. It depends
    on the games only, never on the workers, so a league resumes on any number of them."""
    return max(1, min(DEFAULT_CHUNK_SIZE, math.ceil(games / CHUNKS_WANTED)))


def check_lineup(bots: list[str], game: str | None = None) -> list[str]:
    """The canonical specs of a league's line-up for ``game``; SetupError unless there are as many as
    the game takes players."""
    specs = [canonical_spec(spec, "--bots", game) for spec in bots]
    low, high = plugin(game).players
    if not low <= len(specs) <= high:
        raise SetupError(f"--bots: a league of {plugin(game).title} needs {low}..{high} bots, one per seat (the "
                         f"number of bots is the number of players); got {len(specs)}")
    return specs


def league(bots: list[str], games: int, seed: int = 1, setup: str | None = None, workers: int = 1, out=None,
           catalog=None, progress: bool = True, scheduler: str | None = None, on_progress=None,
           game: str | None = None) -> dict:
    """Play (or resume) a league of ``game`` (default Imperial 2030; ``setup`` defaults to the game's
    own) and return the run's summary (``imperial_lab.core.simulate.simulate``) with its ``standings``. ``out``
    defaults to ``runs/<league_name>`` beside the catalogue; ``on_progress`` is simulate's. Every
    refusal comes before anything is written."""
    game = plugin(game).name
    setup = plugin(game).default_setup if setup is None else setup
    specs = check_lineup(bots, game)
    name = league_name(specs, games, seed, setup, game)
    if out is None:
        from imperial_lab.core.catalog import default_catalog

        out = Path(catalog or default_catalog()).resolve().parent / "runs" / name
    run = simulate(out, games, len(specs), setup, specs, seed, workers=workers, chunk_size=chunk_size(games),
                   scheduler=scheduler, catalog=catalog, progress=progress, rotate=True, on_progress=on_progress,
                   game=game)
    return {**run, "standings": standings(run["path"])}


# ----- standings -----

def standings(source, catalog=None) -> dict:
    """The standings of a run: a run folder, or the name of a run of the catalogue.

    Returns ``run``, ``path``, ``setup``, ``players``, ``seed``, ``rotate``, ``games`` (finished
    games counted), ``failed`` and ``unfinished`` (left out), ``wins_counted``, ``bots`` (per entrant, best rating first: ``bot``, ``games``,
    ``seats`` (seat-games), ``wins``, ``win_rate``, ``win_rate_ci``, ``mean_score`` (per seat-game),
    ``rating`` {``mu``, ``sigma``, ``ordinal``}) and ``seats`` (per seat: ``seat``, ``games``,
    ``wins``, ``win_rate``, ``win_rate_ci``). RunError for a folder that holds no run.
    """
    from openskill.models import PlackettLuce

    folder = _run_folder(source, catalog)
    params = runstore.read_run(folder)
    if params is None:
        raise RunError(f"{folder}: no run.json: not a run folder")
    rows = _games(folder, params.get("game", DEFAULT_GAME))
    # an imported game may not say which bots played it
    finished = [row for row in rows if row["status"] == "finished" and row["bots"]
                and len(row["bots"].split(",")) == len(row["scores"])]
    model = PlackettLuce()
    order = list(dict.fromkeys([*(params.get("bots") or []), *(s for r in finished for s in r["bots"].split(","))]))
    entrants = {spec: {"games": 0, "seats": 0, "wins": 0, "score": 0, "rating": model.rating(name=spec)}
                for spec in order}
    players = max((len(row["scores"]) for row in finished), default=params.get("players") or 0)
    seats = [{"games": 0, "wins": 0} for _ in range(players)]
    for row in finished:
        _count_game(row, entrants, seats, model)
    bots = [{"bot": spec, "games": e["games"], "seats": e["seats"], "wins": e["wins"],
             **_rate(e["wins"], e["games"]), "mean_score": e["score"] / e["seats"] if e["seats"] else None,
             "rating": {"mu": e["rating"].mu, "sigma": e["rating"].sigma, "ordinal": e["rating"].ordinal()}}
            for spec, e in entrants.items() if e["games"]]
    bots.sort(key=lambda b: -b["rating"]["ordinal"])
    return {"run": params["name"], "path": str(folder), "setup": params.get("setup"), "players": players,
            "seed": params.get("seed"), "rotate": bool(params.get("rotate")), "games": len(finished),
            "failed": sum(row["status"] == "failed" for row in rows),
            "unfinished": sum(row["status"] == "unfinished" for row in rows), "wins_counted": WINS_COUNTED,
            "bots": bots,
            "seats": [{"seat": p, "games": s["games"], "wins": s["wins"], **_rate(s["wins"], s["games"])}
                      for p, s in enumerate(seats)]}


def _count_game(row: dict, entrants: dict, seats: list[dict], model) -> None:
    """Add one finished game to the entrants' counts and ratings and to the seats' counts."""
    specs, winners, scores = row["bots"].split(","), set(row["winners"]), row["scores"]
    keys = [(p in winners, score) for p, score in enumerate(scores)]
    ranks = [1 + sum(other > key for other in keys) for key in keys]  # 1 = first; equal keys share a rank
    best: dict[str, int] = {}
    for p, spec in enumerate(specs):
        e = entrants[spec]
        e["seats"] += 1
        e["score"] += scores[p]
        best[spec] = min(best.get(spec, ranks[p]), ranks[p])
        seats[p]["games"] += 1
        seats[p]["wins"] += p in winners
    won = {specs[p] for p in winners}
    for spec in best:
        entrants[spec]["games"] += 1
        entrants[spec]["wins"] += spec in won
    if len(best) > 1:  # a game of one entrant against itself says nothing about its rating
        teams = [[entrants[spec]["rating"]] for spec in best]
        for spec, (rating,) in zip(best, model.rate(teams, ranks=list(best.values()))):
            entrants[spec]["rating"] = rating


def _rate(wins: int, games: int) -> dict:
    """The win rate and its 95% Wilson interval (None without games)."""
    if not games:
        return {"win_rate": None, "win_rate_ci": None}
    return {"win_rate": wins / games, "win_rate_ci": list(wilson(wins, games))}


def _run_folder(source, catalog) -> Path:
    folder = Path(source)
    if str(source) and folder.is_dir():  # Path("") would be the current folder
        return folder.resolve()
    if isinstance(source, str) and source and folder.name == source:  # a name, not a path
        from imperial_lab.core.catalog import list_runs

        runs = list_runs(catalog)
        found = runs.loc[runs["name"] == source, "path"]
        if len(found):
            return Path(found.iloc[0])
    raise RunError(f"{clip(str(source))}: neither a run folder nor a run of the catalogue")


def _games(folder: Path, game: str) -> list[dict]:
    """The games rows of the finished chunks, in game order (the ratings depend on it), with each
    seat's score as ``scores`` whatever the game's table calls it."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from imperial_lab.core.tables import games_table, scores_column

    columns = {"game_id": "game_id", "bots": "bots", "winners": "winners", scores_column(game): "scores",
               "status": "status"}
    files = runstore.chunk_files(folder, games_table(game))
    if not files:
        return []
    table = pa.concat_tables([pq.read_table(path, columns=list(columns)) for path in files])
    return sorted(({columns[key]: value for key, value in row.items()} for row in table.to_pylist()),
                  key=lambda row: row["game_id"])


# ----- text -----

def format_standings(result: dict) -> str:
    """The standings as the lines ``imperial league`` prints."""
    s = result["standings"] if "standings" in result else result
    lines = [f"League {s['run']}: {s['games']} games ({s['failed']} failed), {s['players']} players, "
             f"{s['setup']} setup, seed {s['seed']}, at {s['path']}",
             f"  wins: {WINS_COUNTED}; 95% Wilson intervals; rating: OpenSkill Plackett-Luce, "
             f"ordinal = mu - 3 sigma"]
    width = max([len("bot")] + [len(b["bot"]) for b in s["bots"]])
    lines.append(f"  {'bot':{width}}  seats  games   wins  win rate (95% CI)       mean score      mu  sigma  ordinal")
    for b in s["bots"]:
        r = b["rating"]
        lines.append(f"  {b['bot']:{width}}  {b['seats']:5}  {b['games']:5}  {b['wins']:5}  "
                     f"{_rate_text(b):22}  {b['mean_score']:10.1f}  {r['mu']:6.2f}  {r['sigma']:5.2f}  "
                     f"{r['ordinal']:7.2f}")
    lines.append("  win rate by seat:")
    for seat in s["seats"]:
        lines.append(f"  {seat_name(seat['seat']):10}  {seat['games']:5} games  {seat['wins']:5} wins  "
                     f"{_rate_text(seat)}")
    return "\n".join(lines)


def _rate_text(row: dict) -> str:
    if row["win_rate"] is None:
        return "-"
    lo, hi = row["win_rate_ci"]
    return f"{row['win_rate']:6.1%} ({lo:.1%}-{hi:.1%})"
