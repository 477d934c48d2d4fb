"""The search for fair distributions (imperial_lab.core.games.imperial2030.fair_setups, ``imperial setups search``): candidates,
determinism, the worst case over the line-ups of the ladder, the validation on fresh games of every
line-up at the level of ``imperial compare``'s family, the command line, --save and the refusals."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from imperial_lab.core import ladder, stats
from imperial_lab.core.cli import main
from imperial_lab.core.errors import SetupError
from imperial_lab.core.games.imperial2030 import fair_setups
from imperial_lab.core.games.imperial2030.data import NATIONS, load_board
from imperial_lab.core.games.imperial2030.setups import read_setup_file
from imperial_lab.core.interface import make_game
from imperial_lab.core.setups import load_setup

COST = load_board().bond_cost
TINY = ("--players", "4", "--lineups", "random", "--candidates", "2", "--games", "3", "--validate", "2", "--seed", "5")
TWO = ["random", "heuristic:temperature=0"]  # two line-ups: a worst case over them


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def setups(tmp_path, monkeypatch):
    """A setups folder of the test's own, for --save (IMPERIAL_LAB_SETUPS)."""
    folder = tmp_path / "setups"
    folder.mkdir()
    monkeypatch.setenv("IMPERIAL_LAB_SETUPS", str(folder))
    return folder


def paid(seat: dict) -> int:
    return sum(COST[int(bond.split()[1]) - 1] for bond in seat["bonds"])


def credit(seat: dict, code: str) -> int:
    return sum(COST[int(bond.split()[1]) - 1] for bond in seat["bonds"] if bond.startswith(code + " "))


# ----- candidates -----

@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_candidates_pass_the_setup_check_and_every_seat_pays_and_governs_alike(tmp_path, players):
    found = fair_setups.candidates(players, 25, seed=3)
    assert [entry["index"] for entry in found] == list(range(25))
    keys = {json.dumps(entry["distribution"]["players"]) for entry in found}
    assert len(keys) == 25  # distinct
    for entry in found:
        doc = entry["distribution"]
        path = tmp_path / f"c{players}_{entry['index']}.json"
        path.write_text(json.dumps(doc))
        assert read_setup_file(path) == doc  # imperial_lab.core.setups' own check, from a file
        seats = doc["players"]
        assert len({paid(seat) for seat in seats}) == 1  # every seat pays the same
        # and keeps the same cash, but the first investor-card holder may keep up to 2m less
        card = make_game(fair_setups.setup_config(doc)).new_initial_state().card
        others = {seat["cash"] for q, seat in enumerate(seats) if q != card}
        assert len(others) == 1 and 0 <= others.pop() - seats[card]["cash"] <= 2
        governed = [[code for code, p in doc["governments"].items() if p == seat] for seat in range(players)]
        assert len({len(nations) for nations in governed}) == 1 and len(governed[0]) == 6 // players
        # every government stands on the same credit and is clear: nobody else holds as much
        credits = {credit(seats[p], code) for code, p in doc["governments"].items()}
        assert len(credits) == 1
        for code, p in doc["governments"].items():
            assert all(credit(seat, code) < credit(seats[p], code) for q, seat in enumerate(seats) if q != p)
        unowned = set(NATIONS) - set(doc["governments"])
        assert all(doc["treasuries"][code] == 0 for code in unowned) and len(unowned) == 6 - players * (6 // players)
        assert entry["structure"] == doc["description"] and len(doc["description"]) <= 1000


def test_some_candidates_handicap_the_first_investor_card_holder():
    found = [entry["distribution"]["players"] for entry in fair_setups.candidates(4, 40, seed=1)]
    handicapped = [seats for seats in found if len({seat["cash"] for seat in seats}) > 1]
    assert 0 < len(handicapped) < len(found)
    assert any("first investor-card holder, keeps" in entry["structure"]
               for entry in fair_setups.candidates(4, 40, seed=1))


def test_candidate_zero_is_the_standard_card_fixed():
    base = fair_setups.candidates(4, 1, seed=99)[0]["distribution"]
    assert [seat["bonds"] for seat in base["players"]] == [["RU 4", "CN 1"], ["CN 4", "IN 1"], ["IN 4", "BR 1"],
                                                          ["BR 4", "RU 1"]]
    assert [seat["starting_cash"] for seat in base["players"]] == [13] * 4  # as in the standard 4-player deal
    assert base["governments"] == {"RU": 0, "CN": 1, "IN": 2, "BR": 3}


def test_the_same_seed_gives_the_same_candidates_and_another_seed_others():
    assert fair_setups.candidates(4, 8, seed=1) == fair_setups.candidates(4, 8, seed=1)
    assert fair_setups.candidates(4, 8, seed=1)[1:] != fair_setups.candidates(4, 8, seed=2)[1:]
    assert fair_setups.candidates(4, 3, seed=1) == fair_setups.candidates(4, 8, seed=1)[:3]  # K only adds more


# ----- statistics -----

def test_seat_balance_is_the_cells_figures_at_the_level_of_the_setups_family():
    """A shared win splits (3.5 wins), and the intervals are those ``imperial compare`` gives a cell of
    the ladder: at the level of the setup's family (its seats over every rung, and their slopes)."""
    wins, games = [31, 17.5, 25.5, 26], 100
    balance = fair_setups.seat_balance(wins, games)
    assert fair_setups.family_size(4) == 4 * len(ladder.rungs()) + 4
    assert balance == stats.seat_figures(wins, games, fair_setups.family_size(4), stats.MARGIN)
    assert balance["win_rate"] == [0.31, 0.175, 0.255, 0.26] and balance["edge"] == pytest.approx(0.075)
    assert balance["verdict"] == "undecided" and balance["games_to_decide"] > games
    assert fair_setups.seat_balance([1000, 4000, 2500, 2500], 10_000)["verdict"] == "unfair"
    with pytest.raises(SetupError):
        fair_setups.seat_balance([1], 1)


def test_play_seat_games_splits_a_shared_win():
    config = load_setup("standard", 4)
    balance = fair_setups.play_seat_games(config, ["random"] * 4, 3, 0, 4)
    assert sum(balance["wins"]) == pytest.approx(4)  # one win per game, however shared


# ----- the search -----

def test_search_is_deterministic_keeps_the_fairest_worst_case_and_validates_on_fresh_games():
    steps = []
    result = fair_setups.search(4, TWO, 3, 4, seed=5, validate=3, progress=False,
                                on_progress=lambda done, total: steps.append((done, total)))
    assert steps == [(k, 2 * (3 * 4 + 3)) for k in range(1, 31)]  # the progress moves once per game
    again = fair_setups.search(4, TWO, 3, 4, seed=5, validate=3, progress=False)
    assert again == result
    best = result["best"]
    worst = [entry["search"]["worst"] for entry in result["candidates"]]
    assert result["candidates"][best["index"]]["search"]["worst"] == min(worst) == worst[result["ranking"][0]]
    for entry in result["candidates"]:  # the worst case: the largest edge of any seat under any line-up
        assert entry["search"]["worst"] == max(b["edge"] for b in entry["search"]["lineups"].values())
        assert list(entry["search"]["lineups"]) == TWO and entry["search"]["lineups"]["random"]["games"] == 4
    assert best["validation_games"] == [4, 6]
    config = fair_setups.setup_config(best["distribution"])
    for spec in TWO:
        assert best["validation"]["lineups"][spec] == fair_setups.play_seat_games(config, [spec] * 4, 5, 4, 3)
    assert best["verdict"] == fair_setups.overall_verdict(best["validation"])
    assert result["search_games"] == 0  # the ladder's top rung not played


def test_the_default_line_ups_are_the_ladder_without_its_search_bot():
    assert fair_setups.check_lineups(None) == [spec for spec in ladder.rungs() if not ladder.searches(spec)]
    assert fair_setups.check_lineups("random,heuristic:temperature=0.30,random") == ["random", "heuristic"]


def test_the_validation_plays_the_search_rung_when_asked(monkeypatch):
    monkeypatch.setitem(ladder.TOP, "imperial2030", "mcts:playouts=1")  # a tiny search bot: a fast test
    result = fair_setups.search(4, ["random"], 1, 1, seed=3, validate=2, search_games=1, progress=False)
    validation = result["best"]["validation"]["lineups"]
    assert list(validation) == ["random", "mcts:playouts=1"] and validation["mcts:playouts=1"]["games"] == 1
    assert result["search_games"] == 1
    assert "mcts:playouts=1 (1 games)" in fair_setups.saved_description(result)


def test_finalists_play_fresh_games_and_the_fairest_of_them_is_validated():
    steps = []
    result = fair_setups.search(4, "random", 4, 3, seed=2, validate=2, finalists=2, final_games=5, progress=False,
                                on_progress=lambda done, total: steps.append(total))
    assert steps == [4 * 3 + 2 * 5 + 2] * len(steps) and len(steps) == steps[0]
    finals = result["final_ranking"]
    assert sorted(finals) == sorted(result["ranking"][:2])  # the two fairest of the first round
    by_index = {entry["index"]: entry for entry in result["candidates"]}
    assert all(("final" in by_index[i]) == (i in finals) for i in by_index)
    assert result["best"]["index"] == finals[0]
    assert fair_setups.fairness_key(by_index[finals[0]], "final") <= fair_setups.fairness_key(by_index[finals[1]],
                                                                                             "final")
    config = fair_setups.setup_config(by_index[finals[1]]["distribution"])
    assert by_index[finals[1]]["final"]["lineups"]["random"] == fair_setups.play_seat_games(config, ["random"] * 4, 2,
                                                                                           3, 5)
    assert result["best"]["validation_games"] == [8, 9]  # after the search games 0..2 and the final games 3..7
    assert "then of 2 finalists x 5 games" in fair_setups.saved_description(result)


def test_tuning_the_handicap_plays_each_variant_on_fresh_games_and_validates_the_fairest():
    totals = []
    result = fair_setups.search(4, "random", 3, 2, seed=4, validate=2, final_games=3, tune_handicap=True,
                                progress=False, on_progress=lambda done, total: totals.append(total))
    variants = result["handicap_variants"]
    kept = fair_setups.structures(4, 3, 4)[result["best"]["index"]]
    assert [v["handicap"] for v in variants] == list(range(min(2, kept.cash) + 1))
    assert totals[-1] == len(totals) == 3 * 2 + 3 * len(variants) + 2
    for v in variants:  # the same structure, its card holder keeping h less, on games 2..4
        assert v["distribution"] == fair_setups.document(replace(kept, handicap=v["handicap"]))
        assert v["balance"]["lineups"]["random"] == fair_setups.play_seat_games(
            fair_setups.setup_config(v["distribution"]), ["random"] * 4, 4, 2, 3)
    chosen = min(variants, key=lambda v: (v["balance"]["worst"], v["balance"]["mean"], v["handicap"]))
    assert result["best"]["distribution"] == chosen["distribution"]
    assert result["best"]["handicap"] == chosen["handicap"]
    assert result["best"]["validation_games"] == [5, 6]
    assert "then its handicap tuned on 3 games per variant" in fair_setups.saved_description(result)


def test_json_output_has_its_keys(capsys, setups):
    code, out, err = run(capsys, "setups", "search", *TINY, "--json")
    assert code == 0 and "game" in err  # the progress bar is on stderr
    result = json.loads(out)
    assert set(result) == {"players", "lineups", "seed", "candidates_count", "games", "finalists", "final_games",
                           "tune_handicap", "validate", "search_games", "margin", "tests", "par", "candidates",
                           "ranking", "final_ranking", "handicap_variants", "best", "saved"}
    assert result["lineups"] == ["random"] and result["saved"] is None and result["par"] == 0.25
    assert set(result["best"]) == {"index", "structure", "distribution", "search", "final", "handicap", "validation",
                                   "validation_games", "verdict"}
    assert result["finalists"] == 1 and result["final_games"] == 0 and result["final_ranking"] == []
    assert result["tune_handicap"] is False and result["handicap_variants"] == []
    assert set(result["best"]["validation"]) == {"lineups", "worst", "mean"}
    assert set(result["best"]["validation"]["lineups"]["random"]) == {
        "games", "wins", "win_rate", "win_rate_ci", "p", "par", "tests", "margin", "edge", "gap", "gap_ci", "verdict",
        "games_to_decide"}
    assert set(result["candidates"][0]) == {"index", "structure", "distribution", "search"}
    assert list(setups.iterdir()) == []  # nothing written without --save


def test_text_output_names_the_best_and_its_validation(capsys, setups):
    code, out, _ = run(capsys, "setups", "search", *TINY)
    assert code == 0
    assert out.startswith("Search for fair 4-player setups: 2 candidates x 3 games under each of 1 line-ups (random)")
    assert "Validation on fresh games (3..4 of seed 5" in out and "  random (2 games): A " in out
    assert "Verdict along the line-ups: undecided" in out


def test_save_writes_exactly_one_file_and_refuses_an_existing_name(capsys, setups):
    code, out, _ = run(capsys, "setups", "search", *TINY, "--save", "fair_test", "--json")
    assert code == 0
    assert [path.name for path in setups.iterdir()] == ["fair_test.json"]
    result = json.loads(out)
    assert result["saved"] == str(setups / "fair_test.json")
    doc = read_setup_file(setups / "fair_test.json")
    assert doc["players"] == result["best"]["distribution"]["players"]
    v = result["best"]["validation"]["lineups"]["random"]
    assert f"random (2 games) {fair_setups.verdict_text(v)}, worst seat {fair_setups.worst_seat_text(v)}" in \
        doc["description"]
    assert "validated on fresh games (3.. of seed 5)" in doc["description"]
    assert load_setup("fair_test", folder=setups)["name"] == "fair_test"
    before = (setups / "fair_test.json").read_bytes()
    code, out, err = run(capsys, "setups", "search", *TINY, "--save", "fair_test")
    assert code == 2 and out == "" and err.count("\n") == 1 and "exists" in err
    assert [path.name for path in setups.iterdir()] == ["fair_test.json"]
    assert (setups / "fair_test.json").read_bytes() == before
    with pytest.raises(SetupError, match="exists"):
        fair_setups.save_setup(result, "fair_test", setups)


@pytest.mark.parametrize("argv, words", [
    (("--lineups", "mcts"), "far too slow for thousands of games"),
    (("--lineups", "random,mcts:playouts=2"), "a search plays random or heuristic bots only"),
    (("--lineups", "genius"), "unknown bot 'genius'"),
    (("--margin", "2"), "--margin"),
    (("--candidates", "0"), "--candidates: expected a whole number 1..1,000"),
    (("--candidates", "1001"), "--candidates: expected a whole number 1..1,000"),
    (("--games", "100001"), "--games: expected a whole number 1..100,000"),
    (("--games", "-3"), "--games"),
    (("--validate", "0"), "--validate: expected a whole number 1..100,000"),
    (("--finalists", "3"), "--finalists: 3 is more than the 2 candidates"),
    (("--finalists", "2", "--final-games", "0"), "--final-games: expected a whole number 1..100,000"),
    (("--players", "7"), "--players: expected a whole number 2..6"),
    (("--seed", "x"), "--seed"),
    (("--save", "../escape"), "a setup name is 1..64 lower-case letters"),
    (("--save", "Mixed"), "a setup name is 1..64 lower-case letters"),
    (("--save", "standard"), "'standard' is a built-in setup"),
])
def test_bad_input_is_one_line_exit_2_and_writes_nothing(capsys, setups, argv, words):
    code, out, err = run(capsys, "setups", "search", *TINY, *argv)
    assert code == 2 and out == "" and err.startswith("imperial: error:") and err.count("\n") == 1
    assert words in err
    assert list(setups.iterdir()) == []


def test_the_api_refuses_bad_numbers_too():
    with pytest.raises(SetupError, match="--candidates: must be a whole number 1..1,000"):
        fair_setups.search(4, "random", 0, 3, seed=1, progress=False)
    with pytest.raises(SetupError, match="--games"):
        fair_setups.search(4, "random", 1, 10**6, seed=1, progress=False)
    with pytest.raises(SetupError, match="--players"):
        fair_setups.candidates(1, 3, seed=1)
    with pytest.raises(SetupError, match="far too slow"):
        fair_setups.search(4, ["random", "mcts"], 1, 1, seed=1, progress=False)
