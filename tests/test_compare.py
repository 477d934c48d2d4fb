"""imperial_lab.core.compare (issue 9): the grid of setups × line-ups, tests whose unit is the game, one test per
fact, findings that say under which line-ups they hold and flag a reversal, and ``imperial compare``."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from imperial_lab.core import compare
from imperial_lab.core.cli import main
from imperial_lab.core.runstore import RunError
from tests.lab_fixtures import lab  # noqa: F401 (a fixture)


def games(run: str, setup: str, bots: str, outcomes: list[tuple[int, int]], players: int = 4, rounds: int = 10,
          start: int = 0) -> list[dict]:
    """Per-game rows: ``outcomes`` is (winning seat, how many games); the winner scores 60, the rest 40."""
    rows, k = [], start
    for seat, count in outcomes:
        for _ in range(count):
            scores = [40] * players
            scores[seat] = 60 + k % 3
            rows.append({"run": run, "game_id": k, "setup": setup, "players": players, "bots": bots,
                         "winners": [seat], "scores": scores, "rounds": rounds + k % 4, "margin": 20 + k % 3,
                         "lead_changes": k % 5})
            k += 1
    return rows


H, R = "heuristic,heuristic,heuristic,heuristic", "random,random,random,random"
LINEUPS = {"x-h": "heuristic ×4", "x-r": "random ×4", "y-h": "heuristic ×4", "y-r": "random ×4"}


def build(*parts) -> compare.Comparison:
    frame = pd.DataFrame([row for part in parts for row in part])
    return compare.build(frame, {run: LINEUPS.get(run, run) for run in frame["run"].unique()})


def test_a_seat_bias_that_reverses_between_line_ups_is_flagged():
    """Seat A wins 80% under the heuristic and 5% under random bots: the finding names both."""
    c = build(games("x-h", "x", H, [(0, 80), (1, 10), (2, 5), (3, 5)]),
              games("x-r", "x", R, [(0, 5), (1, 32), (2, 32), (3, 31)]))
    [balance] = [f for f in c.findings if f["metric"] == "seat_balance"]
    assert balance["holds_for"] == ["heuristic ×4"] and balance["reverses_in"] == ["random ×4"]
    assert balance["reverses"] and "REVERSES under random ×4" in balance["where"]
    assert "Player A wins 80%" in balance["text"] and "n = 100 games under heuristic ×4" in balance["text"]
    assert balance["where"].endswith(compare.CONDITIONAL)
    assert c.findings[0]["reverses"]  # reversals come first


def test_a_finding_of_one_line_up_says_so():
    c = build(games("x-h", "x", H, [(1, 70), (0, 10), (2, 10), (3, 10)]))
    [balance] = [f for f in c.findings if f["metric"] == "seat_balance"]
    assert balance["where"].startswith("holds for heuristic ×4 only (one line-up played)")
    assert not balance["reverses"]


def test_not_significant_and_not_played_line_ups_are_named():
    c = build(games("x-h", "x", H, [(1, 70), (0, 10), (2, 10), (3, 10)]),
              games("x-r", "x", R, [(0, 25), (1, 25), (2, 25), (3, 25)]),
              games("y-r", "y", R, [(0, 25), (1, 25), (2, 25), (3, 25)]))
    [balance] = [f for f in c.findings if f["metric"] == "seat_balance" and f["setup"] == "x"]
    assert balance["not_significant_in"] == ["random ×4"] and not balance["reverses"]
    # setup y was played by random bots only: its facts under the heuristic are "not played"
    statuses = {f["setup"]: f["status"] for f in c.findings}
    assert all(s in ("holds", "reverses", "not significant", "not played") for st in statuses.values()
               for s in st.values())


def test_every_test_has_the_game_as_unit_and_one_row_per_fact():
    c = build(games("x-h", "x", H, [(0, 40), (1, 20), (2, 20), (3, 20)]),
              games("y-h", "y", H, [(0, 25), (1, 25), (2, 25), (3, 25)], rounds=14),
              games("x-r", "x", R, [(0, 25), (1, 25), (2, 25), (3, 25)]),
              games("y-r", "y", R, [(0, 25), (1, 25), (2, 25), (3, 25)]))
    tests = c.tests
    assert set(tests["unit"]) == {"game"}
    assert tests["id"].is_unique
    # 2 facts per cell (4 cells), 4 per pair of setups under one line-up (2 pairs)
    assert len(tests) == 2 * 4 + 4 * 2
    cells = c.cells.set_index(["setup", "lineup"])["n"]
    for t in tests.itertuples():
        games_in = cells[(t.setup, t.lineup)] + (cells[(t.versus, t.lineup)] if t.versus else 0)
        assert t.n == games_in  # games, never seat-games
    assert tests["holm_p"].ge(tests["p"]).all()
    rounds = tests[(tests["metric"] == "rounds") & (tests["lineup"] == "heuristic ×4")].iloc[0]
    assert rounds.effect == pytest.approx(-4.0) and rounds.low < -4 < rounds.high and rounds.significant


def test_seat_rates_have_n_and_intervals_and_bots_of_a_mixed_line_up():
    mixed = games("m", "x", "mcts,heuristic,heuristic,heuristic", [(0, 30), (1, 10), (2, 10), (3, 10)])
    for k, row in enumerate(mixed):  # rotating: the mcts seat moves every game
        seats = ["heuristic"] * 4
        seats[k % 4] = "mcts"
        row["bots"] = ",".join(seats)
    c = build(mixed)
    seat_a = c.seats[c.seats["seat"] == 0].iloc[0]
    assert (seat_a.n, seat_a.wins) == (60, 30) and seat_a.low < 0.5 < seat_a.high
    bots = c.bots.set_index("bot")
    assert bots.loc["mcts", "fair"] == pytest.approx(0.25) and bots.loc["heuristic", "fair"] == pytest.approx(0.75)
    assert bots.loc["mcts", "wins"] == sum(row["winners"] == [k % 4] for k, row in enumerate(mixed))
    assert bots.loc["heuristic", "wins"] + bots.loc["mcts", "wins"] == 60


def test_scores_are_compared_per_game_not_per_seat():
    c = build(games("x-h", "x", H, [(2, 60), (0, 20), (1, 10), (3, 10)]))
    scores = c.tests[c.tests["metric"] == "seat_scores"].iloc[0]
    assert scores.subject == "Player C" and scores.n == 100
    dev = np.array([[g - np.mean(s) for g in s] for s in c.games["scores"]])
    assert scores.effect == pytest.approx(dev[:, 2].mean())


def test_json_has_the_documented_keys():
    c = build(games("x-h", "x", H, [(0, 40), (1, 20), (2, 20), (3, 20)]),
              games("y-h", "y", H, [(0, 25), (1, 25), (2, 25), (3, 25)]))
    doc = json.loads(json.dumps(compare.to_json(c)))
    assert {"runs", "seats", "tests", "findings"} <= set(doc)
    assert set(doc["runs"][0]) >= {"run", "setup", "bots", "n"}
    assert set(doc["seats"][0]) >= {"run", "seat", "wins", "n", "win_rate", "ci"}
    assert set(doc["tests"][0]) >= {"metric", "effect", "ci", "p", "holm_p", "n", "unit"}
    assert all(t["unit"] == "game" for t in doc["tests"])
    for finding in doc["findings"]:
        assert set(finding) >= {"text", "holds_for", "test"}
        assert finding["test"] in {t["id"] for t in doc["tests"]}


def test_load_reads_the_catalogue_and_the_cli_prints_the_same(lab, capsys):  # noqa: F811
    c = compare.load(lab.catalog, lab.runs)
    assert set(c.runs["run"]) == set(lab.runs) and set(c.lineups) == {"random ×4"}
    assert c.games.groupby("run").size().to_dict() == c.runs.set_index("run")["n"].to_dict()
    assert main(["compare", *lab.runs, "--catalog", str(lab.catalog), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(json.dumps(compare.to_json(c)))
    assert main(["compare", *lab.runs, "--catalog", str(lab.catalog)]) == 0
    assert "unit of every test: the game" in capsys.readouterr().out


def test_an_unknown_run_is_one_line(lab, capsys):  # noqa: F811
    with pytest.raises(RunError, match="no run 'nope'"):
        compare.load(lab.catalog, ["nope"])
    assert main(["compare", "nope", "--catalog", str(lab.catalog)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no run 'nope'" in err


def test_line_ups_of_another_player_count_are_not_listed_as_not_played():
    three = "heuristic,heuristic,heuristic"
    c = build(games("x-h", "x", H, [(0, 80), (1, 10), (2, 5), (3, 5)]),
              games("z-3", "z", three, [(0, 30), (1, 30), (2, 30)], players=3))
    [balance] = [f for f in c.findings if f["metric"] == "seat_balance"]
    assert set(balance["status"]) == {"heuristic ×4"} and balance["not_played_in"] == []
