"""What a click on Imperial 2030's board means (dashboard/games/imperial2030/boardclicks.py): a unit,
then a region, moves it; a click that fits several actions offers them; one that asks for a refused
move is explained; a region builds, imports or flags there; a rondel space goes there. The clicks in
a real browser: tests/test_dashboard_browser.py."""

from __future__ import annotations

from imperial_lab.dashboard.games.imperial2030.boardclicks import click, targets

MANEUVER = ["move fleet london -> north_atlantic", "move fleet london -> north_sea", "move army paris -> berlin",
            "move army paris -> spain", "move army paris -> marseille as hostile",
            "move army paris -> marseille as friendly", "end maneuver"]


def test_a_unit_then_a_region_plays_the_one_move_that_fits():
    picked = click("unit:paris:EU:army:", MANEUVER, "EU", "maneuver")
    assert picked.picked == "unit:paris:EU:army:" and picked.play is None
    assert targets(MANEUVER, picked.picked)[0] == {"berlin", "spain", "marseille"}  # where it may go
    assert click("region:berlin", MANEUVER, "EU", "maneuver", picked.picked).play == "move army paris -> berlin"


def test_a_click_that_fits_several_moves_offers_them():
    answer = click("region:marseille", MANEUVER, "EU", "maneuver", "unit:paris:EU:army:")
    assert answer.choices == ("move army paris -> marseille as hostile", "move army paris -> marseille as friendly")


def test_a_refused_move_is_asked_why_not_and_the_pick_stays():
    answer = click("region:moscow", MANEUVER, "EU", "maneuver", "unit:paris:EU:army:")
    assert answer.why == "move army paris -> moscow" and answer.picked == "unit:paris:EU:army:"
    assert click("region:paris", MANEUVER, "EU", "maneuver", "unit:paris:EU:army:").picked is None  # dropped


def test_another_nations_unit_or_a_region_without_a_pick():
    assert click("unit:paris:RU:army:hostile", MANEUVER, "EU", "maneuver").note  # not the nation to move
    assert click("region:paris", MANEUVER, "EU", "maneuver").note  # pick one of its units first
    assert targets(MANEUVER, None)[0] == {"london", "paris"}  # where a move may start


def test_regions_of_other_decisions_and_rondel_spaces():
    assert click("region:rome", ["build rome", "build none"], "EU", "factory").play == "build rome"
    assert click("region:moscow", ["build rome", "build none"], "EU", "factory").why == "build moscow"
    imports = ["import army rome", "import fleet rome", "import done"]
    assert click("region:rome", imports, "EU", "import").choices == ("import army rome", "import fleet rome")
    rondel = ["rondel taxation", "rondel investor"]
    assert click("space:taxation", rondel, "EU", "turn_start").play == "rondel taxation"
    assert click("space:factory", rondel, "EU", "turn_start").why == "rondel factory"
    assert targets(rondel, None)[1] == {"taxation", "investor"}
