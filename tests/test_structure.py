"""The structure of a setup (imperial_lab.core.games.imperial2030.structure, imperial_lab.dashboard.games.imperial2030.structureview, ``imperial setups
structure``): takeovers decided by §9, the first investor round of §7.5, the setup facts of §4.4–§4.5."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from imperial_lab.core.cli import main
from imperial_lab.core.games.imperial2030.structure import setup_structure, weak_points
from imperial_lab.core.setups import setup_names
from tests.lab_fixtures import APP_SECONDS

# A (seat 0) governs RU on RU 1 + RU 2 = 6m; B (seat 1) governs CN on CN 3 = 6m and holds the investor
# card (§4.4: left of Russia's government); C (seat 2) governs nothing: a Swiss bank (§4.3.4).
DOC = {"description": "three players, two governments and a Swiss bank",
       "players": [{"cash": 10, "bonds": ["RU 1", "RU 2"]},
                   {"cash": 7, "bonds": ["CN 3"]},
                   {"cash": 7, "bonds": ["CN 1"]}]}
# The shipped 4-player file of small bonds, whichever name it has now.
EVEN = next(name for name in ("three_nations_each", "even_spread") if name in setup_names())


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "mine.json").write_text(json.dumps(DOC))
    return tmp_path


@pytest.fixture
def mine(folder) -> dict:
    return setup_structure("mine", folder)


def government(structure: dict, nation: str) -> dict:
    return next(gov for gov in structure["governments"] if gov["nation"] == nation)


def takeover(structure: dict, nation: str, seat: int) -> dict:
    return next(t for t in government(structure, nation)["takeovers"] if t["seat"] == seat)


# ----- the setup's fixed facts (§4.4, §4.5, §4.3.4) -----

def test_seats_opening_and_investor_card_s4_4_s4_5(mine):
    assert mine["setup"] == "mine" and mine["random"] is False and mine["players"] == 3
    assert mine["opens"] == {"nation": "RU", "government": 0}  # §4.5: Russia's government opens
    assert mine["investor_card"] == 1  # §4.4: left of Russia's government
    assert mine["seats"][0] == {"seat": 0, "name": "Player A", "cash": 10,
                                "bonds": [{"nation": "RU", "number": 1, "cost": 2},
                                          {"nation": "RU", "number": 2, "cost": 4}],
                                "credit": {"RU": 6}, "governs": ["RU"], "swiss_bank": False}
    assert [seat["swiss_bank"] for seat in mine["seats"]] == [False, False, True]
    assert mine["ungoverned"] == ["IN", "BR", "US", "EU"]
    assert json.loads(json.dumps(mine)) == mine  # plain data


def test_first_investors_are_the_card_holder_then_swiss_banks_s7_5(mine):
    """§7.5 steps 2-3: the card holder invests first, then the Swiss-bank owners from his left."""
    assert mine["first_investors"] == [1, 2]


# ----- takeovers (§9) -----

def test_takeover_is_the_cheapest_transaction_that_wins_s9(mine):
    ru = government(mine, "RU")
    assert (ru["government"], ru["credit"], ru["treasury"]) == (0, 6, 6)
    assert [t["seat"] for t in ru["takeovers"]] == [1, 2]  # the other seats, from the government's left
    assert takeover(mine, "RU", 1) == {"seat": 1, "action": "buy RU 4", "price": 9, "credit": 9}
    # C's cheapest way into CN is an upgrade of its 2m bond: 7m paid for a 9m credit sum.
    assert takeover(mine, "CN", 2) == {"seat": 2, "action": "upgrade CN 1 -> 4", "price": 7, "credit": 9}
    assert takeover(mine, "CN", 0) == {"seat": 0, "action": "buy CN 4", "price": 9, "credit": 9}


def test_a_tie_does_not_take_over_s9(mine):
    """§9: the government keeps the nation on a tie. B could buy RU 3 (6m) to equal A's 6m, and C CN 2
    (4m) to equal B's 6m: neither counts, so both takeovers cost more."""
    assert takeover(mine, "RU", 1)["price"] == 9 and takeover(mine, "CN", 2)["price"] == 7


def test_no_single_transaction_may_do_s9(tmp_path):
    """A 30m government cannot be caught by one bond: the dearest left is 25m."""
    doc = {"description": "one big bond", "players": [{"cash": 0, "bonds": ["RU 9"]}, {"cash": 5, "bonds": ["CN 1"]}]}
    (tmp_path / "big.json").write_text(json.dumps(doc))
    structure = setup_structure("big", tmp_path)
    assert takeover(structure, "RU", 1) == {"seat": 1, "action": None, "price": None, "credit": None}
    assert government(structure, "RU")["affordable_first_round"] == []


def test_card_holder_gets_2m_and_swiss_banks_invest_s7_5(mine):
    """§7.5 step 2: B's 7m + the card's 2m pay the 9m RU bond; step 3: C, a Swiss bank, pays its 7m
    upgrade. A could pay 9m for CN but is no first investor (no card, no Swiss bank)."""
    assert government(mine, "RU")["affordable_first_round"] == [1]
    assert government(mine, "CN")["affordable_first_round"] == [2]
    assert weak_points(mine) == [
        "Player A governs RU on 6m: Player B can take it over with one 9m purchase in the first investor round",
        "Player B governs CN on 6m: Player C can take it over with one 7m upgrade in the first investor round"]


def test_even_spread_governments_on_4m_fall_to_one_4m_transaction_s9():
    """C and D govern on 4m bonds that one 4m upgrade takes over; A and B govern on 6m bonds."""
    structure = setup_structure(EVEN)
    cheapest = {gov["nation"]: min(t["price"] for t in gov["takeovers"] if t["price"] is not None)
                for gov in structure["governments"]}
    governs = {gov["nation"]: gov["government"] for gov in structure["governments"]}
    for nation in ("IN", "BR", "US", "EU"):
        assert governs[nation] in (2, 3) and cheapest[nation] == 4, nation
    for nation in ("RU", "CN"):
        assert governs[nation] in (0, 1) and cheapest[nation] > 4, nation
    assert takeover(structure, "IN", 1) == {"seat": 1, "action": "upgrade IN 1 -> 3", "price": 4, "credit": 6}
    assert structure["first_investors"] == [1]  # everyone governs: no Swiss bank
    assert government(structure, "IN")["affordable_first_round"] == [1]  # 3m + the card's 2m


@pytest.mark.parametrize("preset", ["standard", "variant"])
def test_chance_presets_have_no_fixed_structure_s4_2_s4_3(preset):
    structure = setup_structure(preset)
    assert structure["setup"] == preset and structure["random"] is True and "§4." in structure["why"]


# ----- the command line -----

def test_cli_prints_the_structure_s9(capsys, folder):
    code, out, err = run(capsys, "setups", "structure", str(folder / "mine.json"))
    assert code == 0 and err == ""
    assert "Investor card: Player B. First investor round: Player B, Player C." in out
    assert "  Player C: cash 7m; CN 1 (2m); governs nothing, Swiss bank" in out
    assert "    Player C: upgrade CN 1 -> 4 (7m, credit 9m)" in out
    assert "Player B can take it over with one 9m purchase in the first investor round" in out


def test_cli_json_is_the_structure(capsys):
    code, out, _ = run(capsys, "setups", "structure", EVEN, "--json")
    assert code == 0 and json.loads(out) == setup_structure(EVEN)
    code, out, _ = run(capsys, "setups", "structure", "standard", "--json")
    assert code == 0 and json.loads(out)["random"] is True


def test_cli_unknown_setup_is_one_line_exit_2(capsys):
    code, out, err = run(capsys, "setups", "structure", "nope")
    assert code == 2 and out == "" and err.startswith("imperial: error: unknown setup 'nope'")
    assert len(err.splitlines()) == 1


# ----- the dashboard -----

def _view(name, folder):
    from imperial_lab.dashboard.games.imperial2030.structureview import show_structure

    show_structure(name, folder)


def test_show_structure_renders_both_tables_and_the_weak_points_s9(folder):
    at = AppTest.from_function(_view, args=("mine", folder), default_timeout=APP_SECONDS).run()
    assert not at.exception, at.exception
    seats, governments = (frame.value for frame in at.dataframe)
    assert list(seats.columns) == ["Seat", "Cash", "Bonds", "Governs", "Swiss bank"]
    assert seats["Swiss bank"].tolist() == ["", "", "yes"]
    assert list(governments.columns) == ["Nation", "Gov", "On", "A", "B", "C", "1st round"]
    cn = governments.set_index("Nation").loc["CN"]
    assert (cn["B"], cn["C"], cn["A"], cn["1st round"]) == ("governs", "7m upgrade 1→4", "9m buy 4", "Player C")
    summary = at.markdown[0].value
    assert "Player B governs China on 6m: Player C can take it over with one 7m upgrade" in summary
    assert "2m more" in at.caption[0].value and "not counted" in at.caption[0].value


def test_show_structure_of_a_preset_says_why(folder):
    at = AppTest.from_function(_view, args=("standard", folder), default_timeout=APP_SECONDS).run()
    assert not at.exception and "dealt at random" in at.info[0].value and not at.dataframe
