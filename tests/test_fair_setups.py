"""The search for fair distributions (imperial_lab.core.games.imperial2030.fair_setups, ``imperial setups search``): candidates,
determinism, the statistics against scipy, the command line, --save and the refusals."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from scipy.stats import binomtest, chisquare

from imperial_lab.core.cli import main
from imperial_lab.core.errors import SetupError
from imperial_lab.core.games.imperial2030 import fair_setups
from imperial_lab.core.games.imperial2030.data import NATIONS, load_board
from imperial_lab.core.games.imperial2030.setups import read_setup_file
from imperial_lab.core.interface import make_game
from imperial_lab.core.setups import load_setup

COST = load_board().bond_cost
TINY = ("--players", "4", "--bots", "random", "--candidates", "2", "--games", "3", "--validate", "2", "--seed", "5")


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

def test_seat_balance_matches_scipy_on_fixed_data():
    wins, games = [31, 18, 27, 26], 100
    balance = fair_setups.seat_balance(wins, games)
    test = chisquare(wins)
    assert balance["chi2"] == pytest.approx(test.statistic) and balance["p_value"] == pytest.approx(test.pvalue)
    assert balance["chi2"] == pytest.approx(sum((w - 25.5) ** 2 / 25.5 for w in wins))
    assert balance["df"] == 3 and balance["par"] == 0.25
    for w, (low, high) in zip(wins, balance["win_rate_ci"]):
        ci = binomtest(w, games).proportion_ci(confidence_level=0.95, method="wilson")
        assert (low, high) == pytest.approx((ci.low, ci.high))
    assert balance["win_rate"] == [0.31, 0.18, 0.27, 0.26]
    assert balance["gap"] == pytest.approx(0.13)
    assert balance["covers_par"]  # 18/100: Wilson 11.7%-26.7% still holds 25%
    assert not fair_setups.seat_balance([40, 10, 25, 25], 100)["covers_par"]
    even = fair_setups.seat_balance([5, 5, 5], 15)
    assert even["chi2"] == 0 and even["p_value"] == pytest.approx(1) and even["gap"] == 0


# ----- the search -----

def test_search_is_deterministic_keeps_the_fairest_and_validates_on_fresh_games():
    steps = []
    result = fair_setups.search(4, "random", 3, 4, seed=5, validate=3, progress=False,
                                on_progress=lambda done, total: steps.append((done, total)))
    assert steps == [(k, 3 * 4 + 3) for k in range(1, 16)]  # the progress moves once per game
    again = fair_setups.search(4, "random", 3, 4, seed=5, validate=3, progress=False)
    assert again == result
    best = result["best"]
    chi2 = [entry["search"]["chi2"] for entry in result["candidates"]]
    assert result["candidates"][best["index"]]["search"]["chi2"] == min(chi2) == chi2[result["ranking"][0]]
    assert best["validation_games"] == [4, 6]
    config = fair_setups.setup_config(best["distribution"])
    assert best["validation"] == fair_setups.play_seat_games(config, ["random"] * 4, 5, 4, 3)
    assert best["validation"]["games"] == 3 and sum(best["validation"]["wins"]) >= 3
    assert all(entry["search"]["games"] == 4 for entry in result["candidates"])


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
    assert by_index[finals[0]]["final"]["chi2"] <= by_index[finals[1]]["final"]["chi2"]
    config = fair_setups.setup_config(by_index[finals[1]]["distribution"])
    assert by_index[finals[1]]["final"] == fair_setups.play_seat_games(config, ["random"] * 4, 2, 3, 5)
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
        assert v["balance"] == fair_setups.play_seat_games(fair_setups.setup_config(v["distribution"]),
                                                           ["random"] * 4, 4, 2, 3)
    chosen = min(variants, key=lambda v: (v["balance"]["chi2"], v["balance"]["gap"], v["handicap"]))
    assert result["best"]["distribution"] == chosen["distribution"]
    assert result["best"]["handicap"] == chosen["handicap"]
    assert result["best"]["validation_games"] == [5, 6]
    assert "then its handicap tuned on 3 games per variant" in fair_setups.saved_description(result)


def test_json_output_has_its_keys(capsys, setups):
    code, out, err = run(capsys, "setups", "search", *TINY, "--json")
    assert code == 0 and "game" in err  # the progress bar is on stderr
    result = json.loads(out)
    assert set(result) == {"players", "bots", "seed", "candidates_count", "games", "finalists", "final_games",
                           "tune_handicap", "validate", "par", "candidates", "ranking", "final_ranking",
                           "handicap_variants", "best", "saved"}
    assert result["bots"] == ["random"] * 4 and result["saved"] is None and result["par"] == 0.25
    assert set(result["best"]) == {"index", "structure", "distribution", "search", "final", "handicap", "validation",
                                   "validation_games"}
    assert result["finalists"] == 1 and result["final_games"] == 0 and result["final_ranking"] == []
    assert result["tune_handicap"] is False and result["handicap_variants"] == []
    assert set(result["best"]["validation"]) == {"games", "wins", "win_rate", "win_rate_ci", "chi2", "df", "p_value",
                                                 "gap", "par", "covers_par"}
    assert set(result["candidates"][0]) == {"index", "structure", "distribution", "search"}
    assert list(setups.iterdir()) == []  # nothing written without --save


def test_text_output_names_the_best_and_its_validation(capsys, setups):
    code, out, _ = run(capsys, "setups", "search", *TINY)
    assert code == 0
    assert out.startswith("Search for fair 4-player setups: 2 candidates x 3 games, bots random,random,random,random")
    assert "Validation on 2 fresh games (3..4 of seed 5)" in out and "Player D" in out and "chi-square" in out


def test_save_writes_exactly_one_file_and_refuses_an_existing_name(capsys, setups):
    code, out, _ = run(capsys, "setups", "search", *TINY, "--save", "fair_test", "--json")
    assert code == 0
    assert [path.name for path in setups.iterdir()] == ["fair_test.json"]
    result = json.loads(out)
    assert result["saved"] == str(setups / "fair_test.json")
    doc = read_setup_file(setups / "fair_test.json")
    assert doc["players"] == result["best"]["distribution"]["players"]
    v = result["best"]["validation"]
    for p in range(4):
        assert f"{'ABCD'[p]} {100 * v['win_rate'][p]:.1f}%" in doc["description"]
    assert "random bots over 2 fresh games (3..4 of seed 5)" in doc["description"]
    assert load_setup("fair_test", folder=setups)["name"] == "fair_test"
    before = (setups / "fair_test.json").read_bytes()
    code, out, err = run(capsys, "setups", "search", *TINY, "--save", "fair_test")
    assert code == 2 and out == "" and err.count("\n") == 1 and "exists" in err
    assert [path.name for path in setups.iterdir()] == ["fair_test.json"]
    assert (setups / "fair_test.json").read_bytes() == before
    with pytest.raises(SetupError, match="exists"):
        fair_setups.save_setup(result, "fair_test", setups)


@pytest.mark.parametrize("argv, words", [
    (("--bots", "mcts"), "mcts is too slow for a search"),
    (("--bots", "random,mcts:playouts=2,random,random"), "mcts is too slow for a search"),
    (("--bots", "random,random"), "2 bots named for 4 players"),
    (("--bots", "genius"), "unknown bot 'genius'"),
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
    with pytest.raises(SetupError, match="mcts is too slow"):
        fair_setups.search(4, ["random", "random", "random", "mcts"], 1, 1, seed=1, progress=False)
