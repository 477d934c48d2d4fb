"""imperial_lab.core.compare (issues 9 and 24): the grid of setups × line-ups read along the strength ladder,
tests whose unit is the game in families fixed by the question, shared wins split 1/k, verdicts of
three outcomes with the games that would decide, the change along the ladder, findings that hold or
reverse only on adjusted evidence, replication on fresh seeds, and ``imperial compare``."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

from imperial_lab.core import compare, ladder, stats
from imperial_lab.core.bots import canonical_spec
from imperial_lab.core.catalog import list_runs
from imperial_lab.core.cli import main
from imperial_lab.core.runstore import RunError
from tests.lab_fixtures import lab  # noqa: F401 (a fixture)


def games(run: str, setup: str, bots: str, outcomes: list[tuple], players: int = 4, rounds: int = 10,
          start: int = 0) -> list[dict]:
    """Per-game rows: ``outcomes`` is (winning seat, or a tuple of seats sharing the win, how many games);
    a winner scores 60, the rest 40."""
    rows, k = [], start
    for won, count in outcomes:
        won = list(won) if isinstance(won, tuple) else [won]
        for _ in range(count):
            scores = [40] * players
            for seat in won:
                scores[seat] = 60 + k % 3
            rows.append({"run": run, "game_id": k, "setup": setup, "players": players, "bots": bots,
                         "winners": won, "scores": scores, "rounds": rounds + k % 4, "margin": 20 + k % 3,
                         "lead_changes": k % 5})
            k += 1
    return rows


H, R = "heuristic,heuristic,heuristic,heuristic", "random,random,random,random"
T0 = "heuristic:temperature=0,heuristic:temperature=0,heuristic:temperature=0,heuristic:temperature=0"
LINEUPS = {"x-h": "heuristic ×4", "x-r": "random ×4", "x-0": "heuristic:temperature=0 ×4", "y-h": "heuristic ×4",
           "y-r": "random ×4", "x-h-replicate": "heuristic ×4"}
EVEN = [(0, 250), (1, 250), (2, 250), (3, 250)]
RUNGS = len(ladder.rungs())


def build(*parts, **options) -> compare.Comparison:
    frame = pd.DataFrame([row for part in parts for row in part])
    return compare.build(frame, {run: LINEUPS.get(run, run) for run in frame["run"].unique()}, **options)


def finding(c, metric: str, setup: str = "x", subject: str | None = None) -> dict:
    return next(f for f in c.findings if f["metric"] == metric and f["setup"] == setup
                and (subject is None or f["subject"] == subject))


# ----- the ladder -----

def test_the_ladder_of_each_game_goes_from_random_to_its_strongest_bot():
    for game in ("imperial2030", "imperia", "imperial_powers"):
        rungs = ladder.rungs(game)
        assert rungs[0] == "random" and len(rungs) == len(set(rungs))
        assert [ladder.rung_words(spec, game) for spec in rungs[1:5]] == [
            f"heuristic t={t:g}" for t in ladder.HEURISTIC_TEMPERATURES]
        top = ladder.TOP[game]
        assert rungs[-1] == (canonical_spec(top, game=game) if top else "heuristic:temperature=0" if game != "imperia"
                             else "heuristic")  # Imperia's heuristic plays at 0 by default
    assert ladder.rungs("imperial2030")[2] == "heuristic"  # temperature 0.3 is its default
    assert ladder.rung_of("heuristic ×4", "imperial2030", 4) == 2
    assert ladder.rung_of("heuristic ×5", "imperial2030", 4) is None and ladder.rung_of("mixed", None, 4) is None


def test_line_ups_are_listed_up_the_ladder_then_the_others():
    c = build(games("x-h", "x", H, EVEN), games("x-r", "x", R, EVEN), games("x-0", "x", T0, EVEN),
              games("league", "x", "mcts,heuristic,heuristic,heuristic", EVEN))
    assert c.lineups == ["random ×4", "heuristic ×4", "heuristic:temperature=0 ×4", "league"]
    assert c.cells.set_index("lineup")["rung"].to_dict() == pytest.approx(
        {"random ×4": 0, "heuristic ×4": 2, "heuristic:temperature=0 ×4": 4, "league": math.nan}, nan_ok=True)
    doc = compare.to_json(c)
    assert [r["bots"] for r in doc["ladder"]] == ladder.rungs()
    assert {cell["bots"]: cell["rung"] for cell in doc["cells"]}["league"] is None


# ----- shared wins, the families -----

def test_a_shared_win_counts_1_over_k_in_rates_tests_and_bots():
    c = build(games("m", "x", "mcts,heuristic,heuristic,heuristic", [((0, 1), 40), (2, 20), ((0, 1, 2), 30),
                                                                     (3, 10)]))
    seats = c.seats.set_index("seat")
    assert seats["wins"].tolist() == pytest.approx([20 + 10, 20 + 10, 20 + 10, 10])
    assert seats["rate"].sum() == pytest.approx(1.0)  # every game hands out one win
    test = c.tests[c.tests["id"] == "seat_share:x:m:Player A"].iloc[0]
    assert test.p == pytest.approx(stats.share_p(30, 100, 0.25))
    bots = c.bots.set_index("bot")
    assert bots.loc["mcts", "wins"] == pytest.approx(30) and bots["wins"].sum() == pytest.approx(100)


def test_families_are_fixed_by_the_question_not_by_the_runs_loaded():
    """A setup's seat tests over the ladder are one family of P × rungs + P tests (its seats' slopes),
    whether one rung was played or three; each is Bonferroni-adjusted within it."""
    alone = build(games("x-h", "x", H, [(0, 300), (1, 250), (2, 250), (3, 200)]))
    grid = build(games("x-h", "x", H, [(0, 300), (1, 250), (2, 250), (3, 200)]), games("x-r", "x", R, EVEN),
                 games("y-h", "y", H, EVEN), games("y-r", "y", R, EVEN))
    key = "seat_share:x:heuristic ×4:Player A"
    one, many = (t.tests.set_index("id").loc[key] for t in (alone, grid))
    assert one.family == many.family == "shares:x" and one["size"] == many["size"] == 4 * RUNGS + 4
    assert one.adjusted_p == many.adjusted_p == pytest.approx(min(1, one.p * (4 * RUNGS + 4)))
    families = grid.families.set_index("family")["size"].to_dict()
    assert families == {"shares:x": 4 * RUNGS + 4, "scores:x": RUNGS, "shares:y": 4 * RUNGS + 4, "scores:y": RUNGS,
                        "pair:x:y": (4 + 3) * RUNGS}
    off = build(games("m", "x", "mcts,heuristic,heuristic,heuristic", EVEN))  # off the ladder: a family of its own
    assert set(off.tests["family"]) == {"shares:x:m", "scores:x:m"}
    assert set(off.tests.loc[off.tests["metric"] == "seat_share", "size"]) == {4}


def test_every_test_has_the_game_as_unit_and_its_interval_agrees_with_it():
    c = build(games("x-h", "x", H, [(0, 400), (1, 200), (2, 200), (3, 200)]), games("x-r", "x", R, EVEN),
              games("y-h", "y", H, EVEN, rounds=14), games("y-r", "y", R, EVEN))
    tests = c.tests
    assert set(tests["unit"]) == {"game"} and tests["id"].is_unique
    # per cell 4 seats and a score test; per setup 4 slopes; per pair and line-up 4 seats and 3 means
    assert len(tests) == 4 * 5 + 2 * 4 + 2 * 7
    cells = c.cells.set_index(["setup", "lineup"])["n"]
    for t in tests[tests["metric"] != "trend"].itertuples():
        assert t.n == cells[(t.setup, t.lineup)] + (cells[(t.versus, t.lineup)] if t.versus else 0)
    shares = tests[tests["metric"].isin(["seat_share", "share_difference"])]
    excluded = (shares["low"] > 0) | (shares["high"] < 0)
    assert (excluded == shares["significant"]).all()  # an interval leaves 0 out exactly when its test is significant
    rounds = tests[(tests["metric"] == "rounds") & (tests["lineup"] == "heuristic ×4")].iloc[0]
    assert rounds.effect == pytest.approx(-4.0) and rounds.low < -4 < rounds.high and rounds.significant


# ----- findings: holds, reverses -----

def test_a_seat_edge_that_reverses_between_line_ups_is_flagged():
    """Seat A wins 80% under the heuristic and 5% under random bots: the finding names both."""
    c = build(games("x-h", "x", H, [(0, 80), (1, 10), (2, 5), (3, 5)]),
              games("x-r", "x", R, [(0, 5), (1, 32), (2, 32), (3, 31)]))
    edge = finding(c, "seat_share", subject="Player A")
    assert edge["holds_for"] == ["heuristic ×4"] and edge["reverses_in"] == ["random ×4"]
    assert edge["reverses"] and "REVERSES under random ×4" in edge["where"]
    assert "Player A wins more than its fair share — 80.0%" in edge["text"] and "n = 100 games" in edge["text"]
    assert edge["where"].endswith(compare.CONDITIONAL)
    assert c.findings[0]["reverses"]  # reversals come first


def test_reversing_needs_the_same_adjusted_evidence_as_holding():
    """Under random bots seat A wins 18% of 250 games: below its share on an unadjusted test (p ≈
    0.01), but not after the adjustment in its family, so the finding does not reverse there."""
    c = build(games("x-h", "x", H, [(0, 80), (1, 10), (2, 5), (3, 5)]),
              games("x-r", "x", R, [(0, 45), (1, 69), (2, 68), (3, 68)]))
    row = c.tests.set_index("id").loc["seat_share:x:random ×4:Player A"]
    assert row.p < 0.05 and not row.significant
    edge = finding(c, "seat_share", subject="Player A")
    assert edge["status"] == {"random ×4": "not significant", "heuristic ×4": "holds"} and not edge["reverses"]


def test_not_significant_and_not_played_line_ups_are_named():
    c = build(games("x-h", "x", H, [(1, 70), (0, 10), (2, 10), (3, 10)]), games("x-r", "x", R, EVEN),
              games("y-r", "y", R, EVEN))
    edge = finding(c, "seat_share", subject="Player B")
    assert edge["not_significant_in"] == ["random ×4"] and not edge["reverses"]
    assert c.findings and all(s in ("holds", "reverses", "not significant", "not played")
                              for f in c.findings for s in f["status"].values())


def test_a_finding_of_one_line_up_says_so():
    c = build(games("x-h", "x", H, [(1, 70), (0, 10), (2, 10), (3, 10)]))
    edge = finding(c, "seat_share", subject="Player B")
    assert edge["where"].startswith("holds for heuristic ×4 only (one line-up played)")


def test_line_ups_of_another_player_count_are_not_listed_as_not_played():
    c = build(games("x-h", "x", H, [(0, 80), (1, 10), (2, 5), (3, 5)]),
              games("z-3", "z", "heuristic,heuristic,heuristic", [(0, 30), (1, 30), (2, 30)], players=3))
    edge = finding(c, "seat_share", subject="Player A")
    assert set(edge["status"]) == {"heuristic ×4"} and edge["not_played_in"] == []


def test_scores_are_compared_per_game_not_per_seat():
    c = build(games("x-h", "x", H, [(2, 60), (0, 20), (1, 10), (3, 10)]))
    scores = c.tests[c.tests["metric"] == "seat_scores"].iloc[0]
    assert scores.subject == "Player C" and scores.n == 100
    dev = np.array([[g - np.mean(s) for g in s] for s in c.games["scores"]])
    assert scores.effect == pytest.approx(dev[:, 2].mean())


# ----- verdicts -----

def test_each_cell_has_a_verdict_of_three_outcomes():
    c = build(games("x-h", "x", H, [(0, 400), (1, 200), (2, 200), (3, 200)]),
              games("x-r", "x", R, [(0, 5000), (1, 5000), (2, 5000), (3, 5000)]),
              games("y-h", "y", H, EVEN))
    cells = c.cells.set_index(["setup", "lineup"])
    assert cells.loc[("x", "heuristic ×4"), "verdict"] == "unfair"
    assert cells.loc[("x", "random ×4"), "verdict"] == "fair"
    assert cells.loc[("y", "heuristic ×4"), "verdict"] == "undecided"
    decide = cells.loc[("y", "heuristic ×4"), "games_to_decide"]
    assert decide == stats.games_to_decide([0.25] * 4, 0.25, stats.MARGIN, 4 * RUNGS + 4) and decide > 1000
    assert pd.isna(cells.loc[("x", "random ×4"), "games_to_decide"])
    gap = cells.loc[("x", "heuristic ×4")]
    assert gap.gap == pytest.approx(0.2) and 0 < gap.gap_low < 0.2 < gap.gap_high  # from the family's intervals
    looser = build(games("y-h", "y", H, EVEN), margin=0.2)
    assert looser.cells["verdict"].iloc[0] == "fair"  # every seat within ±20 points: the margin is declared


def test_the_setup_verdict_says_whether_an_edge_grows_shrinks_or_flips():
    grows = build(games("x-r", "x", R, EVEN), games("x-h", "x", H, [(1, 400), (0, 200), (2, 200), (3, 200)]),
                  games("x-0", "x", T0, [(1, 600), (0, 134), (2, 133), (3, 133)]))
    row = grows.verdicts.iloc[0]
    assert (row.verdict, row.along, row.seat) == ("unfair", "grows", 1)
    assert "Player B's edge grows: 25.0% → 60.0%" in row.text and "random → heuristic t=0" in row.text
    assert row.text.startswith("x: unfair with heuristic t=0.3, heuristic t=0")
    shrinks = build(games("x-r", "x", R, [(1, 400), (0, 200), (2, 200), (3, 200)]), games("x-0", "x", T0, EVEN))
    assert shrinks.verdicts.iloc[0].along == "shrinks"
    flips = build(games("x-r", "x", R, [(1, 400), (0, 200), (2, 200), (3, 200)]),
                  games("x-0", "x", T0, [(1, 100), (0, 300), (2, 300), (3, 300)]))
    assert flips.verdicts.iloc[0].along == "flips" and "Player B's edge flips" in flips.verdicts.iloc[0].text
    still = build(games("x-r", "x", R, EVEN), games("x-0", "x", T0, EVEN))
    assert still.verdicts.iloc[0].along == "no change shown"
    assert "no seat's share is shown to change" in still.verdicts.iloc[0].text


def test_two_setups_are_told_apart_or_the_games_that_would_are_given():
    c = build(games("x-h", "x", H, [(0, 280), (1, 250), (2, 250), (3, 220)]), games("y-h", "y", H, EVEN))
    pair = c.pairs.iloc[0]
    assert not pair.told_apart and pair.games_each == stats.games_to_tell_apart(0.28, 0.25, (4 + 3) * RUNGS)
    assert compare.summary(c)[-1] == (f"Best-minus-worst seat of x vs y: y looks fairer with heuristic t=0.3 6.0 vs "
                                      f"0.0 points; 1,000 games a setup cannot tell them apart; about "
                                      f"{pair.games_each:,} games each would (with heuristic t=0.3).")
    apart = build(games("x-h", "x", H, [(0, 400), (1, 200), (2, 200), (3, 200)]), games("y-h", "y", H, EVEN),
                  games("x-r", "x", R, EVEN), games("y-r", "y", R, [(0, 240), (1, 260), (2, 250), (3, 250)]))
    assert compare.summary(apart)[-1] == (
        "Best-minus-worst seat of x vs y: x looks fairer with random 0.0 vs 2.0 points; y looks fairer with heuristic "
        "t=0.3 20.0 vs 0.0 points. They differ with heuristic t=0.3: Player A wins 40.0% in x and 25.0% in y "
        "(1,000 games each).")


# ----- replication -----

def test_a_finding_is_established_only_when_a_replicate_shows_it_again():
    main_rows = games("x-h", "x", H, [(0, 400), (1, 200), (2, 200), (3, 200)])
    c = build(main_rows)
    assert all(f["replication"] == compare.NOT_REPLICATED for f in c.findings)
    again = build(games("x-h-replicate", "x", H, [(0, 390), (1, 210), (2, 200), (3, 200)]))
    compare.confirm(c, again)
    edge = finding(c, "seat_share", subject="Player A")
    assert edge["replication"] == compare.ESTABLISHED and edge["replicate"]["n"] == 1000
    assert c.cells["replication"].tolist() == [compare.ESTABLISHED]  # unfair again
    other = build(main_rows)
    compare.confirm(other, build(games("x-h-replicate", "x", H, EVEN)))
    assert finding(other, "seat_share", subject="Player A")["replication"] == compare.NOT_REPLICATED
    assert other.cells["replication"].tolist() == [compare.NOT_REPLICATED]


# ----- loading, the command -----

def test_json_has_the_documented_keys():
    c = build(games("x-h", "x", H, [(0, 40), (1, 20), (2, 20), (3, 20)]), games("y-h", "y", H, EVEN))
    doc = json.loads(json.dumps(compare.to_json(c)))
    assert set(doc) == {"alpha", "adjustment", "margin", "unit", "shared_wins", "game", "length_unit", "seats_counted",
                        "sides", "ladder", "summary", "runs", "replicates", "families", "cells", "verdicts", "pairs",
                        "seats", "bots", "tests", "findings"}
    assert set(doc["runs"][0]) >= {"run", "setup", "bots", "n"}
    assert set(doc["cells"][0]) >= {"setup", "bots", "rung", "n", "seats", "gap", "gap_ci", "verdict",
                                    "games_to_decide", "family", "replication"}
    assert set(doc["cells"][0]["seats"][0]) == {"seat", "name", "wins", "win_share", "ci", "p", "edge"}
    # The ladder, weakest first, and each cell's place on it.
    assert [rung["bots"] for rung in doc["ladder"]] == ladder.rungs(doc["game"])
    assert [rung["rung"] for rung in doc["ladder"]] == list(range(len(doc["ladder"])))
    assert doc["ladder"][0]["words"] == "random" and doc["ladder"][2]["words"] == "heuristic t=0.3"
    assert all(doc["ladder"][cell["rung"]]["bots"] == "heuristic" and cell["bots"] == "heuristic ×4"
               for cell in doc["cells"])
    assert set(doc["tests"][0]) >= {"family", "metric", "effect", "ci", "p", "adjusted_p", "n", "unit"}
    assert all(t["unit"] == "game" for t in doc["tests"]) and doc["shared_wins"] == compare.SHARED_WINS
    assert doc["summary"] == compare.summary(c) and doc["summary"][0].startswith("x: ")
    for f in doc["findings"]:
        assert f["test"] in {t["id"] for t in doc["tests"]} and f["replication"] == compare.NOT_REPLICATED


def test_load_reads_the_catalogue_and_the_cli_prints_the_same(lab, capsys):  # noqa: F811
    c = compare.load(lab.catalog, lab.runs)
    assert set(c.runs["run"]) == set(lab.runs) and set(c.lineups) == {"random ×4"} and c.replicate is None
    assert c.games.groupby("run").size().to_dict() == c.runs.set_index("run")["n"].to_dict()
    assert main(["compare", *lab.runs, "--catalog", str(lab.catalog), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(json.dumps(compare.to_json(c)))
    assert main(["compare", *lab.runs, "--catalog", str(lab.catalog)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(compare.summary(c)[0]) and "unit of every test: the game" in out


def test_replicate_plays_each_run_again_on_fresh_seeds_and_marks_what_holds(lab, tmp_path, capsys):  # noqa: F811
    import shutil

    catalog = tmp_path / "lab.duckdb"
    shutil.copy(lab.catalog, catalog)
    run = lab.runs[0]
    assert main(["compare", run, "--catalog", str(catalog), "--replicate", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    runs = list_runs(catalog).set_index("name")
    name = compare.replicate_name(run)
    assert runs.loc[name, "games"] == runs.loc[run, "games"] and runs.loc[name, "bots"] == runs.loc[run, "bots"]
    assert runs.loc[name, "seed"] == runs.loc[run, "seed"] + compare.REPLICATE_SEED_OFFSET
    assert [r["run"] for r in doc["replicates"]] == [name] and [r["run"] for r in doc["runs"]] == [run]
    c = compare.load(catalog, [run])
    assert c.replicate is not None and not c.replicate.games.empty
    assert not set(c.replicate.games["game_id"].astype(str) + c.replicate.games["rounds"].astype(str)) == set(
        c.games["game_id"].astype(str) + c.games["rounds"].astype(str))  # other games
    assert main(["compare", run, "--catalog", str(catalog), "--replicate", "--json"]) == 0  # found finished
    assert json.loads(capsys.readouterr().out) == doc


def test_an_unknown_run_or_a_bad_margin_is_one_line(lab, capsys):  # noqa: F811
    with pytest.raises(RunError, match="no run 'nope'"):
        compare.load(lab.catalog, ["nope"])
    for argv, words in ((["nope"], "no run 'nope'"), ([lab.runs[0], "--margin", "0.7"], "--margin"),
                        ([lab.runs[0], "--margin", "nan"], "--margin"),
                        ([lab.runs[0], "--by", "power"], "counts no such side")):
        assert main(["compare", *argv, "--catalog", str(lab.catalog)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and words in err, err


def test_imperial_powers_is_compared_by_power_when_asked(tmp_path):
    """``--by power``: a game's winners, scores and bots in the order of the powers (every power plays
    with five players), the sides named after the powers; fewer players hold no game of every power."""
    from imperial_lab.core.catalog import query
    from imperial_lab.core.simulate import simulate

    catalog = tmp_path / "lab.duckdb"
    setup = tmp_path / "random_powers.json"
    setup.write_text(json.dumps({"game": "imperial_powers", "players": 5, "power_assignment": "random"}))
    simulate(tmp_path / "runs" / "five", games=4, players=5, setup=str(setup), bots=["random"] * 5, seed=2, workers=1,
             catalog=catalog, progress=False)
    c = compare.load(catalog, ["five"], by="power")
    assert c.sides == ["Britain", "France", "Spain", "Dutch", "Portuguese"] and c.noun == "powers"
    order = ["britain", "france", "spain", "dutch", "portuguese"]
    rows = query("SELECT game_id, powers, winners, scores FROM ip_games WHERE run = 'five' ORDER BY game_id", catalog)
    for row, game in zip(c.games.itertuples(), rows.itertuples()):
        powers = list(game.powers)
        assert sorted(row.winners) == sorted(order.index(powers[w]) for w in game.winners)
        assert list(row.scores) == [game.scores[powers.index(power)] for power in order]
    assert "Britain" in set(c.tests["subject"]) and compare.to_json(c)["sides"] == c.sides
    simulate(tmp_path / "runs" / "three", games=2, players=3, setup="default", bots=["random"] * 3, seed=2,
             workers=1, catalog=catalog, progress=False, game="imperial_powers")
    with pytest.raises(RunError, match="no finished game that holds every power"):
        compare.load(catalog, ["three"], by="power")
