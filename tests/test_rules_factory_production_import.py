"""Factory (RULES.md §7.1, T2), production (§7.2, T3) and import (§7.3, T4, Q21, Q22): legal sites,
the government's cash top-up (§5, §11 Q1), unit limits (§1) and hostile versus friendly armies."""

from __future__ import annotations

import pytest

from imperial_lab.core.games.imperial2030.data import NATIONS
from tests.builders import act, legal_texts, position
from tests.rule_asserts import assert_illegal, kinds


def count(s, nation: str, unit: str, region: str) -> int:
    """Units of one nation and type in a region."""
    i = NATIONS.index(nation) * len(s.board.region_ids) + s.board.region_index[region]
    return {"army": s.armies, "fleet": s.fleets}[unit][i]


def factories(s, nation: str) -> list[str]:
    return s.to_json()["nations"][nation]["factories"]


def treasury(s, nation: str) -> int:
    return s.treasury[NATIONS.index(nation)]


def decisions(s) -> set[str]:
    """The legal actions without the government's cash top-ups (§5)."""
    return {t for t in legal_texts(s) if not t.startswith("topup")}


def topups(s) -> set[str]:
    return {t for t in legal_texts(s) if t.startswith("topup")}


# ----- §7.1 factory, T2 -----

def eu_factory_turn(treasury_=7, cash=10, units=(), factories_=("paris", "london"), config=None):
    """EU (government seat 0) on `taxation`, one free step from `factory` (§6)."""
    s = position(cash=[cash, 10, 10], units=units, nation="EU", config=config,
                 nations={"EU": {"government": 0, "rondel": "taxation", "treasury": treasury_,
                                 "factories": list(factories_)},
                          "CN": {"government": 1, "rondel": "factory"},
                          "US": {"government": 2, "rondel": "factory"}})
    return s


def test_t2_europe_builds_a_factory_in_berlin():
    """T2 / §7.1: EU factories paris and london, treasury 7 → legal sites rome (shipyard) and berlin
    (armaments) or nothing; berlin → armaments factory there, treasury 2, paid to the bank."""
    s = eu_factory_turn()
    act(s, "rondel factory")
    assert s.decision_name() == "factory" and s.current_player() == 0
    assert decisions(s) == {"build rome", "build berlin", "build none"}
    events = act(s, "build berlin")
    assert factories(s, "EU") == ["paris", "london", "berlin"]
    assert treasury(s, "EU") == 2
    assert kinds(events, "factory_built") == [{"nation": "EU", "region": "berlin", "type": "armaments"}]
    assert [(p["from"], p["to"], p["amount"]) for p in kinds(events, "payment")] == [("EU", "bank", 5)]
    assert s.cash[0] == 10


def test_t2_rome_gets_a_shipyard():
    """T2 / §7.1: the factory type is the city's colour: rome is light blue → shipyard."""
    s = eu_factory_turn()
    act(s, "rondel factory")
    events = act(s, "build rome")
    assert kinds(events, "factory_built") == [{"nation": "EU", "region": "rome", "type": "shipyard"}]
    assert treasury(s, "EU") == 2


def test_t2_building_is_optional():
    """§7.1 step 2: building is optional; `build none` costs nothing and the turn goes on."""
    s = eu_factory_turn()
    act(s, "rondel factory", "build none")
    assert factories(s, "EU") == ["paris", "london"]
    assert treasury(s, "EU") == 7
    assert s.rondel[NATIONS.index("EU")] == 0  # the marker stays on `factory`
    assert s.decision_name() == "turn_start" and s.nation == NATIONS.index("CN")


def test_t2_hostile_army_in_berlin_leaves_only_rome():
    """T2 variant / §7.1 step 1: a CN army in berlin [hostile] → only rome is a legal site."""
    s = eu_factory_turn(units=["CN army berlin hostile"])
    act(s, "rondel factory")
    assert decisions(s) == {"build rome", "build none"}
    assert_illegal(s, "build berlin", "§7.1", match="occupied")


def test_t2_friendly_army_does_not_block_a_site():
    """§7.4.5: friendly armies have no effect: a US army in berlin [friendly] leaves berlin buildable."""
    s = eu_factory_turn(units=["US army berlin friendly"])
    act(s, "rondel factory")
    assert decisions(s) == {"build rome", "build berlin", "build none"}


def test_t2_top_up_then_build():
    """T2 variant / §7.1 step 2, §11 Q1: treasury 3, government cash 4 → the government transfers 2,
    builds, treasury 0, cash 2."""
    s = eu_factory_turn(treasury_=3, cash=4)
    act(s, "rondel factory")
    assert s.decision_name() == "factory"
    assert decisions(s) == {"build none"}  # 3m cannot pay for a factory yet
    assert topups(s) == {"topup 1", "topup 2", "topup 3", "topup 4"}
    assert_illegal(s, "build berlin", "§7.1", match="treasury holds 3m")
    events = act(s, "topup 2")
    assert [(p["from"], p["to"], p["amount"]) for p in kinds(events, "payment")] == [("player:0", "EU", 2)]
    assert treasury(s, "EU") == 5 and s.cash[0] == 2
    assert decisions(s) == {"build rome", "build berlin", "build none"}
    act(s, "build berlin")
    assert treasury(s, "EU") == 0 and s.cash[0] == 2
    assert "berlin" in factories(s, "EU")


def test_t2_treasury_and_cash_too_small_no_factory():
    """T2 variant / §7.1 step 3, Q1: treasury 3, cash 1 → no factory possible; nothing happens, the
    rondel move still counted and the next nation's turn begins."""
    s = eu_factory_turn(treasury_=3, cash=1)
    events = act(s, "rondel factory")
    assert s.decision_name() == "turn_start" and s.nation != NATIONS.index("EU")
    assert s.rondel[NATIONS.index("EU")] == 0
    assert factories(s, "EU") == ["paris", "london"]
    assert treasury(s, "EU") == 3 and s.cash[0] == 1
    assert kinds(events, "factory_built") == []


@pytest.mark.parametrize("treasury_, asked", [(3, False), (5, True)])
def test_5_without_top_ups_cash_cannot_pay_for_a_factory(treasury_, asked):
    """§5 with top-ups switched off (``cash_topup: false``): the government's cash no longer counts, so
    a treasury below 5m leaves 'build none' as the only choice, and that decision is not asked."""
    s = eu_factory_turn(treasury_=treasury_, cash=10, config={"cash_topup": False})
    act(s, "rondel factory")
    assert (s.decision_name() == "factory") == asked
    if asked:
        assert decisions(s) == {"build rome", "build berlin", "build none"} and topups(s) == set()
    else:
        assert s.nation != NATIONS.index("EU") and treasury(s, "EU") == treasury_ and s.cash[0] == 10


def test_7_1_no_legal_site_nothing_happens():
    """§7.1 step 3: with a factory in every home city there is no site: no decision, no payment."""
    s = eu_factory_turn(factories_=("paris", "london", "rome", "berlin"))
    events = act(s, "rondel factory")
    assert s.decision_name() == "turn_start" and s.nation != NATIONS.index("EU")
    assert treasury(s, "EU") == 7
    assert kinds(events, "payment") == []


def test_7_1_only_site_occupied_nothing_happens():
    """§7.1 step 3: the only empty city holds a hostile army → no legal site, nothing happens."""
    s = eu_factory_turn(factories_=("paris", "london", "rome"), units=["RU army berlin hostile"])
    act(s, "rondel factory")
    assert s.decision_name() == "turn_start" and s.nation != NATIONS.index("EU")
    assert factories(s, "EU") == ["paris", "london", "rome"]


def test_7_1_illegal_sites():
    """§7.1 step 1: a city that already has a factory, or another nation's city, is refused (§7.1)."""
    s = eu_factory_turn()
    act(s, "rondel factory")
    assert_illegal(s, "build paris", "§7.1", match="already has a factory")
    assert_illegal(s, "build moscow", "§7.1", match="not a home province")
    assert_illegal(s, "import army berlin", "§7.1")


# ----- §7.2 production, T3 -----

def eu_production_turn(units=(), factories_=("london", "paris", "rome"), config=None, treasury_=4):
    """EU (seat 0) on `factory`, one free step from `production_1`."""
    return position(units=units, nation="EU", config=config,
                    nations={"EU": {"government": 0, "rondel": "factory", "treasury": treasury_,
                                    "factories": list(factories_)},
                             "CN": {"government": 1, "rondel": "factory"},
                             "US": {"government": 2, "rondel": "factory"}})


def test_t3_europe_production():
    """T3 / §7.2: EU factories london, paris, rome; CN army paris [hostile]; US army london
    [friendly] → +1 EU fleet in london, +1 in rome, no army in paris; treasury unchanged."""
    s = eu_production_turn(units=["CN army paris hostile", "US army london friendly"])
    events = act(s, "rondel production_1")
    built = kinds(events, "unit_built")
    assert sorted((e["unit"], e["region"]) for e in built) == [("fleet", "london"), ("fleet", "rome")]
    assert all(e["how"] == "production" for e in built)
    assert count(s, "EU", "fleet", "london") == 1 and count(s, "EU", "fleet", "rome") == 1
    assert count(s, "EU", "army", "paris") == 0
    assert s.n_armies[NATIONS.index("EU")] == 0 and s.n_fleets[NATIONS.index("EU")] == 2
    assert treasury(s, "EU") == 4
    assert kinds(events, "payment") == []


def test_7_2_units_already_present_are_irrelevant():
    """§7.2: every working factory produces one unit regardless of units already there."""
    s = eu_production_turn(units=["EU army paris x3", "EU fleet london x2"], factories_=("paris", "london"))
    act(s, "rondel production_1")
    assert count(s, "EU", "army", "paris") == 4 and count(s, "EU", "fleet", "london") == 3


def test_7_2_never_in_foreign_factories():
    """§7.2: a nation never produces in foreign factories it occupies (EU hostile in moscow)."""
    s = eu_production_turn(units=["EU army moscow hostile"], factories_=("paris",))
    act(s, "rondel production_1")
    assert count(s, "EU", "army", "paris") == 1
    assert count(s, "EU", "army", "moscow") == 1
    assert count(s, "RU", "army", "moscow") == 0


def test_7_2_unit_limit_government_chooses_factories():
    """§7.2 [R], §11 Q22: when the army limit stops some production, the government chooses which
    armaments factories produce; unlimited shipyards still produce."""
    s = eu_production_turn(factories_=("paris", "london", "berlin"),
                           config={"unit_limits": {"EU": {"armies": 3}}},
                           units=["EU army rome x2"])
    act(s, "rondel production_1")
    assert s.decision_name() == "production" and s.current_player() == 0
    assert legal_texts(s) == {"produce paris,london", "produce london,berlin"}
    assert_illegal(s, "produce paris,london,berlin", "§7.2")
    assert_illegal(s, "produce paris", "§7.2")
    events = act(s, "produce london,berlin")
    assert sorted((e["unit"], e["region"]) for e in kinds(events, "unit_built")) == [
        ("army", "berlin"), ("fleet", "london")]
    assert count(s, "EU", "army", "paris") == 0 and s.n_armies[NATIONS.index("EU")] == 3


def test_7_2_unit_limit_reached_nothing_produced():
    """§7.2, §1: with no army left in the supply the armaments factory produces nothing (no choice)."""
    s = eu_production_turn(factories_=("paris", "london"), config={"unit_limits": {"EU": {"armies": 2}}},
                           units=["EU army rome x2"])
    events = act(s, "rondel production_1")
    assert s.decision_name() == "turn_start"
    assert [(e["unit"], e["region"]) for e in kinds(events, "unit_built")] == [("fleet", "london")]
    assert s.n_armies[NATIONS.index("EU")] == 2


def test_7_2_fleet_limit_government_chooses_shipyards():
    """§7.2 [R]: the same choice for shipyards when the fleet limit bites."""
    s = eu_production_turn(factories_=("paris", "london", "rome"), config={"unit_limits": {"EU": {"fleets": 1}}})
    act(s, "rondel production_1")
    assert legal_texts(s) == {"produce paris,london", "produce paris,rome"}
    act(s, "produce paris,rome")
    assert count(s, "EU", "fleet", "rome") == 1 and count(s, "EU", "fleet", "london") == 0
    assert count(s, "EU", "army", "paris") == 1


# ----- §7.3 import, T4 -----

def cn_import_turn(treasury_=5, cash=0, units=(), imports=None, config=None):
    """CN (seat 0) on `investor`, one free step from `import`."""
    nations = {"CN": {"government": 0, "rondel": "investor", "treasury": treasury_},
               "EU": {"government": 1, "rondel": "factory"}, "US": {"government": 2, "rondel": "factory"}}
    decision = None
    if imports is not None:
        decision = {"kind": "import", "imports": imports}
        nations["CN"]["rondel"] = "import"
    return position(cash=[cash, 10, 10], units=units, nation="CN", nations=nations, decision=decision,
                    config=config)


CN_IMPORTS = {"import army beijing", "import army urumqi", "import army shanghai", "import army chongqing",
              "import fleet shanghai", "import done"}


def test_t4_china_imports_three_units():
    """T4 / §7.3: CN treasury 5 imports army→shanghai, army→shanghai, fleet→shanghai → treasury 2,
    shanghai holds 1 CN fleet and 2 CN armies; the import then ends by itself (3 is the maximum)."""
    s = cn_import_turn()
    act(s, "rondel import")
    assert s.decision_name() == "import"
    assert legal_texts(s) == CN_IMPORTS
    events = act(s, "import army shanghai", "import army shanghai", "import fleet shanghai")
    assert treasury(s, "CN") == 2
    assert count(s, "CN", "army", "shanghai") == 2 and count(s, "CN", "fleet", "shanghai") == 1
    assert s.n_armies[NATIONS.index("CN")] == 2 and s.n_fleets[NATIONS.index("CN")] == 1
    assert [(p["from"], p["to"], p["amount"]) for p in kinds(events, "payment")] == [("CN", "bank", 1)] * 3
    assert all(e["how"] == "import" for e in kinds(events, "unit_built"))
    assert s.decision_name() == "turn_start" and s.nation != NATIONS.index("CN")


def test_t4_fleets_only_into_light_blue_cities():
    """T4 / §7.3 step 2: a fleet in beijing, urumqi or chongqing is illegal (§7.3)."""
    s = cn_import_turn()
    act(s, "rondel import")
    for city in ("beijing", "urumqi", "chongqing"):
        assert_illegal(s, f"import fleet {city}", "§7.3", match="light-blue")
    assert_illegal(s, "import army moscow", "§7.3", match="not a home province")


@pytest.mark.parametrize("city", ["beijing", "urumqi", "chongqing", "shanghai"])
def test_t4_armies_into_any_home_province(city):
    """T4 / §7.3 step 2: legal alternatives: armies in beijing, urumqi or chongqing (and shanghai)."""
    s = cn_import_turn()
    act(s, "rondel import", f"import army {city}")
    assert count(s, "CN", "army", city) == 1 and treasury(s, "CN") == 4


def test_t4_fourth_unit_illegal():
    """T4 / §7.3 step 1: at most 3 units; with three placed only `import done` is legal."""
    s = cn_import_turn(treasury_=2, imports=[["army", "beijing"], ["army", "shanghai"], ["fleet", "shanghai"]],
                       units=["CN army beijing", "CN army shanghai", "CN fleet shanghai"])
    assert legal_texts(s) == {"import done"}
    assert_illegal(s, "import fleet shanghai", "§7.3", match="at most 3")


def test_t4_treasury_two_at_most_two_units():
    """T4 / §7.3 step 1: with treasury 2 (no transfer) at most 2 units; the import then ends."""
    s = cn_import_turn(treasury_=2, cash=0)
    act(s, "rondel import")
    act(s, "import army beijing")
    assert "import army urumqi" in legal_texts(s)
    act(s, "import army urumqi")
    assert treasury(s, "CN") == 0
    assert s.n_armies[NATIONS.index("CN")] == 2
    assert s.decision_name() == "turn_start" and s.nation != NATIONS.index("CN")


def test_t4_treasury_two_no_top_up_after_first_purchase():
    """T4 / §5: a top-up comes before the purchases; after one import the treasury cannot be topped
    up, so treasury 2 still buys at most 2 units."""
    s = cn_import_turn(treasury_=2, cash=5)
    act(s, "rondel import")
    assert topups(s) == {f"topup {k}" for k in range(1, 6)}
    act(s, "import army beijing")
    assert topups(s) == set()
    assert_illegal(s, "topup 1", "§5")
    act(s, "import army beijing")
    assert treasury(s, "CN") == 0 and s.decision_name() == "turn_start"


def test_7_3_empty_treasury_top_up_then_import():
    """§7.3 with §5: an empty treasury imports nothing until the government tops it up."""
    s = cn_import_turn(treasury_=0, cash=2)
    act(s, "rondel import")
    assert decisions(s) == {"import done"}
    assert_illegal(s, "import army beijing", "§7.3", match="treasury")
    act(s, "topup 2")
    assert decisions(s) == CN_IMPORTS
    act(s, "import fleet shanghai", "import fleet shanghai")
    assert count(s, "CN", "fleet", "shanghai") == 2 and treasury(s, "CN") == 0 and s.cash[0] == 0


def test_7_3_fewer_or_zero_units():
    """§7.3 step 3: importing fewer or zero units is allowed (`import done`)."""
    s = cn_import_turn()
    act(s, "rondel import", "import done")
    assert treasury(s, "CN") == 5 and s.n_armies[NATIONS.index("CN")] == 0
    s = cn_import_turn()
    act(s, "rondel import", "import army urumqi", "import done")
    assert treasury(s, "CN") == 4 and s.n_armies[NATIONS.index("CN")] == 1


def test_7_3_canonical_order():
    """§7.3 (encoding): placements are single actions in canonical order, armies before fleets, by
    region index; an army after a fleet is refused under §7.3."""
    s = cn_import_turn()
    act(s, "rondel import", "import fleet shanghai")
    assert legal_texts(s) == {"import fleet shanghai", "import done"}
    assert_illegal(s, "import army shanghai", "§7.3", match="canonical order")


def test_7_3_unit_limit_for_armies():
    """§7.3 step 3, §1, Q22: unit limits apply to imports: with one army left only one army import."""
    s = cn_import_turn(config={"unit_limits": {"CN": {"armies": 3}}}, units=["CN army beijing x2"])
    act(s, "rondel import", "import army beijing")
    assert legal_texts(s) == {"import fleet shanghai", "import done"}
    assert_illegal(s, "import army urumqi", "§1", match="unit limit")
    act(s, "import fleet shanghai", "import fleet shanghai")
    assert s.n_armies[NATIONS.index("CN")] == 3 and s.n_fleets[NATIONS.index("CN")] == 2


def test_7_3_unit_limit_reached_before_import():
    """§7.3 step 3: a nation at both limits gets no import decision at all."""
    s = cn_import_turn(config={"unit_limits": {"CN": {"armies": 1, "fleets": 1}}},
                       units=["CN army beijing", "CN fleet shanghai"])
    act(s, "rondel import")
    assert s.decision_name() == "turn_start" and s.nation != NATIONS.index("CN")
    assert treasury(s, "CN") == 5


def eu_import_turn(units=(), factories_=("paris", "london"), treasury_=5):
    return position(cash=[0, 10, 10], units=units, nation="EU",
                    nations={"EU": {"government": 0, "rondel": "investor", "treasury": treasury_,
                                    "factories": list(factories_)},
                             "CN": {"government": 1, "rondel": "factory"},
                             "US": {"government": 2, "rondel": "factory"}})


def test_q21_friendly_armies_do_not_block_import():
    """§7.3 step 2, §11 Q21: a US army in london [friendly] does not block imports there; a CN army in
    paris [hostile] does."""
    s = eu_import_turn(units=["US army london friendly", "CN army paris hostile"])
    act(s, "rondel import")
    assert legal_texts(s) == {"import army london", "import army rome", "import army berlin",
                              "import fleet london", "import fleet rome", "import done"}
    assert_illegal(s, "import army paris", "§7.3", match="occupied")
    act(s, "import army london", "import fleet london")
    assert count(s, "EU", "army", "london") == 1 and count(s, "EU", "fleet", "london") == 1


def test_q21_fleets_into_unbuilt_shipyard_slots():
    """§7.3 step 2 [R], Q21: fleets go into own light-blue cities with or without a built shipyard
    (rome has none); never into a brown city (berlin, paris)."""
    s = eu_import_turn(factories_=("paris",))
    act(s, "rondel import")
    assert {t for t in legal_texts(s) if "fleet" in t} == {"import fleet london", "import fleet rome"}
    assert_illegal(s, "import fleet berlin", "§7.3", match="light-blue")
    assert_illegal(s, "import fleet paris", "§7.3", match="light-blue")
    act(s, "import fleet rome")
    assert count(s, "EU", "fleet", "rome") == 1
    assert factories(s, "EU") == ["paris"]


def test_7_3_occupied_shipyard_city_takes_no_fleet():
    """§7.3 step 2: a light-blue city holding a hostile army takes neither armies nor fleets."""
    s = eu_import_turn(units=["RU army london hostile"])
    act(s, "rondel import")
    assert not any("london" in t for t in legal_texts(s))
    assert_illegal(s, "import fleet london", "§7.3", match="occupied")
