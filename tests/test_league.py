"""Leagues (core/league.py, ``imperial league``): the line-up rotates over the seats, the results do
not depend on the workers, standings per distinct bot spec with Wilson intervals and OpenSkill
Plackett-Luce ratings, the JSON shape, and bad input refused before anything is written."""

from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from openskill.models import PlackettLuce
from scipy.stats import binomtest

from imperial_lab.core import runstore
from imperial_lab.core.cli import main
from imperial_lab.core.league import WINS_COUNTED, _count_game, league, league_name, standings
from imperial_lab.core.runstore import RunError
from imperial_lab.core.simulate import game_seed

# Three seats, so the rotation shows; two entrants, one of them in two seats. A heuristic bot at a
# high temperature plays almost at random, as fast as the heuristic goes.
LINEUP = ["random", "heuristic:temperature=100", "random"]
GAMES = 7


def games_rows(folder) -> list[dict]:
    files = runstore.chunk_files(folder, "games")
    return sorted(pa.concat_tables([pq.read_table(f) for f in files]).to_pylist(), key=lambda r: r["game_id"])


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> dict:
    root = tmp_path_factory.mktemp("league")
    result = league(LINEUP, GAMES, seed=3, workers=1, out=root / "lg", catalog=root / "lab.duckdb", progress=False)
    return {"root": root, "result": result, "folder": root / "lg"}


def test_game_k_gives_seat_p_the_bot_p_plus_k(played):
    rows = games_rows(played["folder"])
    assert [r["game_id"] for r in rows] == list(range(GAMES))
    for row in rows:
        k = row["game_id"]
        assert row["bots"].split(",") == [LINEUP[(p + k) % 3] for p in range(3)]
        assert row["seed"] == game_seed(3, k)
    saved = json.loads((played["folder"] / "run.json").read_text())
    assert saved["rotate"] is True and saved["bots"] == LINEUP and saved["players"] == 3


def test_a_game_of_a_league_plays_again_with_its_seed_and_bots(played, capsys):
    row = games_rows(played["folder"])[1]
    assert main(["play", "--players", "3", "--seed", str(row["seed"]), "--bots", row["bots"], "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["winners"] == row["winners"] and summary["scores"] == row["scores"]


def test_equal_specs_are_one_entrant_and_the_game_is_the_unit(played):
    s = played["result"]["standings"]
    by_bot = {b["bot"]: b for b in s["bots"]}
    assert set(by_bot) == {"random", "heuristic:temperature=100"}
    assert by_bot["random"]["games"] == by_bot["heuristic:temperature=100"]["games"] == GAMES
    assert by_bot["random"]["seats"] == 2 * GAMES and by_bot["heuristic:temperature=100"]["seats"] == GAMES
    rows = games_rows(played["folder"])
    for bot, b in by_bot.items():
        won = sum(any(row["bots"].split(",")[p] == bot for p in row["winners"]) for row in rows)
        ci = binomtest(won, GAMES).proportion_ci(method="wilson")
        assert b["wins"] == won and b["win_rate"] == won / GAMES
        assert b["win_rate_ci"] == pytest.approx([ci.low, ci.high])
        scores = [row["scores"][p] for row in rows for p, spec in enumerate(row["bots"].split(",")) if spec == bot]
        assert b["mean_score"] == pytest.approx(sum(scores) / len(scores))
    assert [seat["games"] for seat in s["seats"]] == [GAMES] * 3
    assert [seat["wins"] for seat in s["seats"]] == [sum(p in row["winners"] for row in rows) for p in range(3)]


def test_ratings_are_openskill_plackett_luce_one_update_per_game(played):
    """Recomputed with the library from the games rows: each entrant ranked by its best seat,
    winners first, then by score."""
    model = PlackettLuce()
    ratings = {spec: model.rating(name=spec) for spec in dict.fromkeys(LINEUP)}
    for row in games_rows(played["folder"]):
        keys = [(p in row["winners"], score) for p, score in enumerate(row["scores"])]
        best: dict[str, int] = {}
        for p, spec in enumerate(row["bots"].split(",")):
            rank = 1 + sum(other > keys[p] for other in keys)
            best[spec] = min(best.get(spec, rank), rank)
        new = model.rate([[ratings[spec]] for spec in best], ranks=list(best.values()))
        ratings.update({spec: team[0] for spec, team in zip(best, new)})
    for b in played["result"]["standings"]["bots"]:
        r = ratings[b["bot"]]
        assert b["rating"] == pytest.approx({"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()})
    ordinals = [b["rating"]["ordinal"] for b in played["result"]["standings"]["bots"]]
    assert ordinals == sorted(ordinals, reverse=True)


def test_a_shared_win_counts_for_every_winner():
    model = PlackettLuce()
    entrants = {spec: {"games": 0, "seats": 0, "wins": 0, "score": 0, "rating": model.rating(name=spec)}
                for spec in ("a", "b", "c")}
    seats = [{"games": 0, "wins": 0} for _ in range(3)]
    _count_game({"bots": "a,b,c", "winners": [0, 1], "scores": [50, 50, 20]}, entrants, seats, model)
    assert [entrants[x]["wins"] for x in "abc"] == [1, 1, 0] and [s["wins"] for s in seats] == [1, 1, 0]
    mu = {x: entrants[x]["rating"].mu for x in "abc"}
    assert mu["a"] == pytest.approx(mu["b"]) and mu["b"] > mu["c"]  # the tie is a tie in the ranking too


def test_the_league_is_registered_and_standings_read_by_name(played):
    s = standings("lg", catalog=played["root"] / "lab.duckdb")
    assert s == played["result"]["standings"]
    assert standings(played["folder"]) == s
    for unknown in ("nope", "no/such/folder", ""):
        with pytest.raises(RunError, match="neither a run folder nor a run of the catalogue"):
            standings(unknown, catalog=played["root"] / "lab.duckdb")


def test_one_or_two_workers_give_the_same_league(played, tmp_path):
    """The only test with a Dask LocalCluster: chunks of 1 game (7 games) spread over 2 workers."""
    result = league(LINEUP, GAMES, seed=3, workers=2, out=tmp_path / "lg", progress=False)
    for table in ("games", "nation_turns", "events"):
        one = pa.concat_tables([pq.read_table(f) for f in runstore.chunk_files(played["folder"], table)])
        two = pa.concat_tables([pq.read_table(f) for f in runstore.chunk_files(tmp_path / "lg", table)])
        assert one.equals(two), table
    assert {**result["standings"], "path": None} == {**played["result"]["standings"], "path": None}


def test_json_output_and_default_name_and_folder(tmp_path, capsys):
    catalog = tmp_path / "cat" / "lab.duckdb"
    argv = ["league", "--bots", "random, random", "--games", "3", "--seed", "2", "--workers", "1",
            "--catalog", str(catalog), "--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    name = league_name(["random", "random"], 3, 2, "standard")
    assert out["run"] == name and out["path"] == str((tmp_path / "cat" / "runs" / name).resolve())
    assert out["wins_counted"] == WINS_COUNTED and out["games"] == 3
    (bot,) = out["bots"]
    assert set(bot) == {"bot", "games", "seats", "wins", "win_rate", "win_rate_ci", "mean_score", "rating"}
    assert bot["bot"] == "random" and bot["seats"] == 6 and set(bot["rating"]) == {"mu", "sigma", "ordinal"}
    assert [set(seat) for seat in out["seats"]] == [{"seat", "games", "wins", "win_rate", "win_rate_ci"}] * 2
    assert len(bot["win_rate_ci"]) == 2 and bot["win_rate_ci"][0] <= bot["win_rate"] <= bot["win_rate_ci"][1]
    assert main(argv[:-1]) == 0  # again: the same name (resumed), as text
    text = capsys.readouterr().out
    assert text.startswith(f"League {name}: 3 games (0 failed)") and "Player B" in text and "ordinal" in text


@pytest.mark.parametrize("bots, games, words", [
    ("random", "4", "a league of Imperial 2030 needs 2..6 bots, one per seat"),
    (",".join(["random"] * 7), "4", "got 7"),
    ("random,random", "0", "argument --games: expected a whole number 1.."),
    ("random,genius", "4", "--bots: 'genius': unknown bot 'genius'"),
    ("random,heuristic:temperature=abc", "4", "parameter 'temperature': expected a number"),
    ("random,heuristic:temperature=1e999", "4", "expected a finite number"),
    ("random,mcts:playouts=0", "4", "'mcts:playouts=0'"),
])
def test_bad_input_is_one_error_line_and_nothing_written(tmp_path, capsys, bots, games, words):
    argv = ["league", "--bots", bots, "--games", games, "--workers", "1", "--catalog", str(tmp_path / "lab.duckdb")]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("imperial: error: ") and words in err and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_a_plain_run_records_the_canonical_spec_of_each_seat(tmp_path):
    """Not rotated: every games row has the line-up, each spec in its canonical text, as run.json."""
    from imperial_lab.core.errors import SetupError
    from imperial_lab.core.simulate import simulate

    with pytest.raises(SetupError, match="'random:': '' is not key=value"):
        simulate(tmp_path / "bad", 1, 4, "standard", ["random", "random", "random:", "random"], 1, progress=False)
    assert not (tmp_path / "bad").exists()
    simulate(tmp_path / "plain", 2, 4, "standard", ["heuristic:temperature=100.0", "random", " random", "random"], 1,
             progress=False)
    expected = ["heuristic:temperature=100", "random", "random", "random"]
    rows = games_rows(tmp_path / "plain")
    assert [row["status"] for row in rows] == ["finished"] * 2, [row["error"] for row in rows]
    assert [row["bots"] for row in rows] == [",".join(expected)] * 2
    saved = json.loads((tmp_path / "plain" / "run.json").read_text())
    assert saved["bots"] == expected and "rotate" not in saved
    assert standings(tmp_path / "plain")["bots"][0]["seats"] in (2, 6)  # standings read any run
