"""Maneuver (RULES.md §7.4): fleets (§7.4.1), armies with rail and convoys (§7.4.2), canals (§7.4.3),
battles (§7.4.4), hostile and friendly armies (§7.4.5), the last working factory (§7.4.6), factory
destruction (§7.4.7) and flags (§7.4.8); scenarios T5-T10, T17-T19, T21, T23-T25."""

from __future__ import annotations

import pytest

from imperial_lab.core.games.imperial2030.data import NATIONS
from tests.builders import act, legal_texts, maneuver, position
from tests.rule_asserts import assert_illegal, kinds


# ----- helpers -----



def count(s, nation: str, unit: str, region: str, stance: str | None = None) -> int:
    """Units of one nation and type in a region (for armies optionally only the hostile ones)."""
    i = NATIONS.index(nation) * len(s.board.region_ids) + s.board.region_index[region]
    if unit == "fleet":
        return s.fleets[i]
    if stance == "hostile":
        return s.hostile[i]
    if stance == "friendly":
        return s.armies[i] - s.hostile[i]
    return s.armies[i]


def flag(s, region: str) -> str | None:
    f = s.flag[s.board.region_index[region]]
    return NATIONS[f] if f >= 0 else None


def occupied(s, region: str) -> bool:
    return s.occ[s.board.region_index[region]] > 0


def army_moves(s, frm: str) -> set[str]:
    """Legal army moves (text) out of ``frm``."""
    return {t for t in legal_texts(s) if t.startswith("move ") and " army " + frm + " -> " in t}


def destinations(s, frm: str) -> set[str]:
    """Destination regions of the legal army moves out of ``frm``."""
    return {t.split(" -> ")[1].split()[0] for t in army_moves(s, frm)}


def fleet_moves(s, frm: str | None = None) -> set[str]:
    return {t for t in legal_texts(s) if t.startswith("move fleet ") and (frm is None or f" {frm} -> " in t)}


def battles(s) -> set[str]:
    return {t for t in legal_texts(s) if t.startswith("battle ")}


def turn_of(s, code: str):
    """The same position at the start of ``code``'s turn (to look at the next rondel action)."""
    doc = s.to_json()
    doc["turn"]["nation"] = code
    doc["decision"] = {"kind": "turn_start"}
    return s.game.state_from_json(doc, check=False)


# ----- §7.4.1 fleets, T5, T19 -----

def test_t5_fleet_movement():
    """T5 / §7.4.1: EU fleets in north_atlantic and london (harbour): the sea fleet may go to
    caribbean_sea, gulf_of_guinea or mediterranean_sea (or stay); the harbour fleet only to
    north_atlantic (or stay)."""
    s = maneuver("EU", units=["EU fleet north_atlantic", "EU fleet london"])
    assert fleet_moves(s) == {"move fleet north_atlantic -> caribbean_sea",
                              "move fleet north_atlantic -> gulf_of_guinea",
                              "move fleet north_atlantic -> mediterranean_sea",
                              "move fleet london -> north_atlantic"}
    assert "end maneuver" in legal_texts(s)  # staying is always possible
    events = act(s, "move fleet london -> north_atlantic")
    assert kinds(events, "unit_moved") == [{"nation": "EU", "unit": "fleet", "from": "london",
                                            "to": "north_atlantic", "via": [], "stance": None}]
    assert count(s, "EU", "fleet", "north_atlantic") == 2 and count(s, "EU", "fleet", "london") == 0
    # one of the two fleets in north_atlantic has not moved yet and may still go on
    assert fleet_moves(s) == {"move fleet north_atlantic -> caribbean_sea",
                              "move fleet north_atlantic -> gulf_of_guinea",
                              "move fleet north_atlantic -> mediterranean_sea"}
    act(s, "move fleet north_atlantic -> gulf_of_guinea")
    assert fleet_moves(s) == set()


def test_7_4_1_illegal_fleet_moves():
    """§7.4.1: a harbour fleet only into its shipyard sea; a fleet at sea never onto land; only to an
    adjacent sea; each fleet at most once. Refused under §7.4.1, state unchanged."""
    s = maneuver("EU", units=["EU fleet north_atlantic", "EU fleet london"])
    assert_illegal(s, "move fleet london -> mediterranean_sea", "§7.4.1", match="harbour")
    assert_illegal(s, "move fleet north_atlantic -> london", "§7.4.1", match="land region")
    assert_illegal(s, "move fleet north_atlantic -> indian_ocean", "§7.4.1", match="not adjacent")
    assert_illegal(s, "move fleet china_sea -> indian_ocean", "§7.4.1", match="no fleet")
    act(s, "move fleet north_atlantic -> caribbean_sea")
    assert_illegal(s, "move fleet caribbean_sea -> north_pacific", "§7.4.1", match="not moved")


def test_t19_round_earth_north_pacific():
    """T19 / §2: a fleet in north_pacific may move to sea_of_japan, china_sea, south_pacific and
    caribbean_sea (canal, no flag in colombia) — never to tasman_sea."""
    s = maneuver("US", units=["US fleet north_pacific"])
    assert fleet_moves(s) == {"move fleet north_pacific -> sea_of_japan", "move fleet north_pacific -> china_sea",
                              "move fleet north_pacific -> south_pacific",
                              "move fleet north_pacific -> caribbean_sea"}
    assert_illegal(s, "move fleet north_pacific -> tasman_sea", "§7.4.1")


def test_t19_round_earth_south_pacific():
    """T19 / §2: a fleet in south_pacific may move to china_sea, tasman_sea, north_pacific,
    south_atlantic."""
    s = maneuver("BR", units=["BR fleet south_pacific"])
    assert fleet_moves(s) == {"move fleet south_pacific -> china_sea", "move fleet south_pacific -> tasman_sea",
                              "move fleet south_pacific -> north_pacific",
                              "move fleet south_pacific -> south_atlantic"}
    act(s, "move fleet south_pacific -> tasman_sea")
    assert count(s, "BR", "fleet", "tasman_sea") == 1


def test_7_4_fleet_phase_closes_when_an_army_moves():
    """§7.4 [R]: once the first army moves no fleet may move any more (refused under §7.4)."""
    s = maneuver("EU", units=["EU fleet north_atlantic", "EU army paris"])
    assert fleet_moves(s)
    act(s, "move army paris -> rome")
    assert fleet_moves(s) == set()
    assert_illegal(s, "move fleet north_atlantic -> caribbean_sea", "§7.4", match="army has acted")


def test_7_4_fleet_phase_closes_with_an_army_battle():
    """§7.4, §7.4.4 step 4: an army battle is an army-phase action: afterwards no fleet moves."""
    s = maneuver("EU", govs={"EU": 0, "BR": 1}, units=["EU fleet north_atlantic", "EU army peru", "BR army peru"])
    act(s, "battle army peru vs BR army")
    assert count(s, "EU", "army", "peru") == 0 and count(s, "BR", "army", "peru") == 0
    assert_illegal(s, "move fleet north_atlantic -> caribbean_sea", "§7.4")


# ----- §7.4.4 battles, T6 -----

def t6(flags=None):
    s = maneuver("EU", govs={"EU": 0, "BR": 1, "US": 2, "CN": 2}, flags=flags,
                 units=["EU fleet north_atlantic", "BR fleet caribbean_sea", "US fleet caribbean_sea"])
    act(s, "move fleet north_atlantic -> caribbean_sea")
    assert s.decision_name() == "fight" and s.current_player() == 0
    assert legal_texts(s) == {"fight BR fleet", "fight US fleet", "decline"}
    return s


T6_FLAGS = [None, {"BR": ["caribbean_sea"]}, {"CN": ["caribbean_sea"]}, {"US": ["caribbean_sea"]}]


@pytest.mark.parametrize("flags", T6_FLAGS)
def test_t6a_europe_fights_the_brazilian_fleet(flags):
    """T6 (a) / §7.4.4 step 1, §7.4.8: EU names the BR fleet → EU and BR fleets removed, US fleet
    remains; in phase 3 the US is sole occupant and caribbean_sea carries a US flag, whether it was
    unflagged or flagged by another nation."""
    s = t6(flags)
    events = act(s, "fight BR fleet")
    assert kinds(events, "battle") == [{"region": "caribbean_sea", "attacker": "EU", "attacker_unit": "fleet",
                                        "defender": "BR", "defender_unit": "fleet", "defender_stance": None}]
    assert (count(s, "EU", "fleet", "caribbean_sea"), count(s, "BR", "fleet", "caribbean_sea"),
            count(s, "US", "fleet", "caribbean_sea")) == (0, 0, 1)
    assert s.decision_name() == "maneuver"
    act(s, "end maneuver")
    assert flag(s, "caribbean_sea") == "US"


@pytest.mark.parametrize("flags", [None, {"US": ["caribbean_sea"]}, {"CN": ["caribbean_sea"]}])
def test_t6b_europe_fights_the_us_fleet(flags):
    """T6 (b): EU names the US fleet → EU and US fleets removed; Brazil becomes sole occupant and gets
    the caribbean_sea flag."""
    s = t6(flags)
    act(s, "fight US fleet")
    assert (count(s, "EU", "fleet", "caribbean_sea"), count(s, "BR", "fleet", "caribbean_sea"),
            count(s, "US", "fleet", "caribbean_sea")) == (0, 1, 0)
    act(s, "end maneuver")
    assert flag(s, "caribbean_sea") == "BR"


@pytest.mark.parametrize("flags", T6_FLAGS)
def test_t6c_nobody_fights(flags):
    """T6 (c) / §7.4.4 steps 2-3: EU declines; BR then US are asked; neither demands → all three fleets
    stay; the region is shared and its flag does not change."""
    s = t6(flags)
    act(s, "decline")
    assert s.decision_name() == "demand" and s.current_player() == 1
    assert legal_texts(s) == {"demand fleet", "decline"}
    act(s, "decline")
    assert s.decision_name() == "demand" and s.current_player() == 2
    act(s, "decline")
    assert s.decision_name() == "maneuver"
    assert (count(s, "EU", "fleet", "caribbean_sea"), count(s, "BR", "fleet", "caribbean_sea"),
            count(s, "US", "fleet", "caribbean_sea")) == (1, 1, 1)
    before = flag(s, "caribbean_sea")
    # the arriving fleet's move is over: it may neither move on nor start a battle
    assert fleet_moves(s) == set() and battles(s) == set()
    act(s, "end maneuver")
    assert flag(s, "caribbean_sea") == before


@pytest.mark.parametrize("flags", T6_FLAGS)
def test_t6d_brazil_demands_battle(flags):
    """T6 (d) / §7.4.4 step 2: EU declines; BR demands → EU and BR fleets removed; US flag."""
    s = t6(flags)
    act(s, "decline")
    events = act(s, "demand fleet")
    assert kinds(events, "battle")[0]["defender"] == "BR"
    assert (count(s, "EU", "fleet", "caribbean_sea"), count(s, "BR", "fleet", "caribbean_sea"),
            count(s, "US", "fleet", "caribbean_sea")) == (0, 0, 1)
    assert s.decision_name() == "maneuver"  # US is not asked any more
    act(s, "end maneuver")
    assert flag(s, "caribbean_sea") == "US"


def test_t6_illegal_fight_and_demand():
    """§7.4.4: only a unit present that the arriving unit can fight may be named or demanded."""
    s = t6()
    assert_illegal(s, "fight CN fleet", "§7.4.4")
    assert_illegal(s, "fight BR army", "§7.4.4")
    assert_illegal(s, "end maneuver", "§7.4.4")
    act(s, "decline")
    assert_illegal(s, "demand army", "§7.4.4")
    assert_illegal(s, "fight BR fleet", "§7.4.4")


def test_7_4_4_demand_order_is_turn_order_after_the_active_nation():
    """§7.4.4 step 2, §11 Q24: the other nations are asked in turn order starting after the active
    nation (BR → US, EU, RU); the first demand ends the asking."""
    govs = {"RU": 0, "CN": 1, "IN": 2, "BR": 3, "US": 4, "EU": 5}
    s = maneuver("BR", govs=govs, players=6,
                 units=["BR fleet south_atlantic", "RU fleet caribbean_sea", "US fleet caribbean_sea",
                        "EU fleet caribbean_sea"])
    act(s, "move fleet south_atlantic -> caribbean_sea", "decline")
    assert s.to_json()["decision"]["queue"] == [4, 5, 0]
    asked = []
    while s.decision_name() == "demand" and s.current_player() != 0:
        asked.append(s.current_player())
        act(s, "decline")
    assert asked == [4, 5] and s.current_player() == 0
    act(s, "demand fleet")
    assert count(s, "RU", "fleet", "caribbean_sea") == 0 and count(s, "BR", "fleet", "caribbean_sea") == 0
    assert count(s, "US", "fleet", "caribbean_sea") == 1 and count(s, "EU", "fleet", "caribbean_sea") == 1


def test_7_4_4_demanding_government_chooses_its_unit():
    """§7.4.4 step 3 [R]: the demanding government chooses which of its units fights: IN, with an army
    and a fleet in harbour in mumbai, chooses the fleet; CN (asked first) may offer its hostile army."""
    s = maneuver("EU", govs={"EU": 0, "IN": 1, "CN": 2},
                 units=["EU army iran", "IN army mumbai", "IN fleet mumbai", "CN army mumbai hostile"])
    act(s, "move army iran -> mumbai as hostile")
    assert legal_texts(s) == {"fight CN hostile army", "fight IN army", "fight IN fleet", "decline"}
    act(s, "decline")
    assert s.current_player() == 2 and legal_texts(s) == {"demand hostile army", "decline"}
    act(s, "decline")
    assert s.current_player() == 1 and legal_texts(s) == {"demand army", "demand fleet", "decline"}
    events = act(s, "demand fleet")
    assert kinds(events, "battle") == [{"region": "mumbai", "attacker": "EU", "attacker_unit": "army",
                                        "defender": "IN", "defender_unit": "fleet", "defender_stance": None}]
    assert count(s, "IN", "fleet", "mumbai") == 0 and count(s, "IN", "army", "mumbai") == 1
    assert count(s, "EU", "army", "mumbai") == 0
    assert count(s, "CN", "army", "mumbai", "hostile") == 1


def test_7_4_4_mover_may_name_an_army_against_a_hostile_defender():
    """§7.4.4 step 1: the mover names which foreign unit fights (here CN's hostile army in mumbai)."""
    s = maneuver("EU", govs={"EU": 0, "IN": 1, "CN": 2},
                 units=["EU army iran", "IN army mumbai", "CN army mumbai hostile"])
    act(s, "move army iran -> mumbai as friendly", "fight CN hostile army")
    assert count(s, "CN", "army", "mumbai") == 0 and not occupied(s, "mumbai")
    assert count(s, "IN", "army", "mumbai") == 1 and count(s, "EU", "army", "mumbai") == 0


def test_7_4_5_removed_hostile_army_no_longer_occupies():
    """§7.4.5 order on entry step 3: if the arriving army is removed in a battle its stance no longer
    matters: mumbai is not occupied and IN produces there again."""
    s = maneuver("EU", govs={"EU": 0, "IN": 1}, units=["EU army iran", "IN army mumbai"])
    act(s, "move army iran -> mumbai as hostile")
    assert occupied(s, "mumbai")
    act(s, "fight IN army")
    assert not occupied(s, "mumbai") and count(s, "EU", "army", "mumbai") == 0
    act(s, "end maneuver")
    t = turn_of(s, "IN")
    events = act(t, "rondel production_1")
    assert sorted(e["region"] for e in kinds(events, "unit_built")) == ["mumbai", "new_delhi"]


def test_7_4_2_rail_passage_is_no_arrival():
    """§7.4.2 [R]: only the region where the move ends counts as arriving: rail through a province with
    a friendly foreign army triggers no battle."""
    s = maneuver("RU", govs={"RU": 0, "EU": 1}, units=["RU army moscow", "EU army novosibirsk friendly"])
    act(s, "move army moscow -> vladivostok")
    assert s.decision_name() == "maneuver"
    assert count(s, "RU", "army", "vladivostok") == 1 and count(s, "EU", "army", "novosibirsk") == 1


def test_7_4_4_coexistence_without_battle():
    """§7.4.4 step 3, §7.4.5: an army arriving where foreign armies stand may coexist; a hostile army
    may coexist with defenders (§11 Q18)."""
    s = maneuver("EU", govs={"EU": 0, "IN": 1}, units=["EU army iran", "IN army mumbai"])
    act(s, "move army iran -> mumbai as hostile", "decline", "decline")
    assert s.decision_name() == "maneuver"
    assert count(s, "EU", "army", "mumbai", "hostile") == 1 and count(s, "IN", "army", "mumbai") == 1
    assert occupied(s, "mumbai")


# ----- §7.4.4 step 4 stationary battles -----

def test_7_4_4_stationary_fleet_battle_only_in_phase_1():
    """§7.4.4 step 4 [P for fleets, R]: an unmoved fleet may start a battle against a foreign fleet in
    its sea during phase 1; once an army has moved the battle is refused (§7.4.4)."""
    s = maneuver("EU", govs={"EU": 0, "US": 1},
                 units=["EU fleet north_atlantic x2", "US fleet north_atlantic", "EU army paris"])
    assert battles(s) == {"battle fleet north_atlantic vs US fleet"}
    events = act(s, "battle fleet north_atlantic vs US fleet")
    assert kinds(events, "battle")[0]["defender"] == "US"
    assert count(s, "EU", "fleet", "north_atlantic") == 1 and count(s, "US", "fleet", "north_atlantic") == 0
    assert s.decision_name() == "maneuver" and fleet_moves(s)  # still phase 1

    s = maneuver("EU", govs={"EU": 0, "US": 1}, units=["EU fleet north_atlantic", "US fleet north_atlantic",
                                                       "EU army paris"])
    act(s, "move army paris -> rome")
    assert battles(s) == set()
    assert_illegal(s, "battle fleet north_atlantic vs US fleet", "§7.4.4")


def test_7_4_4_moved_fleet_cannot_start_a_battle():
    """§7.4.4 step 4: only a unit that has not moved may start a stationary battle."""
    s = maneuver("EU", govs={"EU": 0, "US": 1}, units=["EU fleet london", "US fleet north_atlantic",
                                                       "RU fleet north_atlantic"])
    act(s, "move fleet london -> north_atlantic", "decline", "decline")
    assert battles(s) == set()
    assert_illegal(s, "battle fleet north_atlantic vs US fleet", "§7.4.4")


def test_7_4_4_army_against_fleet_in_harbour():
    """§7.4.4 steps 1, 4, 5: an unmoved army may fight a fleet lying in harbour in the same foreign home
    province; both are removed and the province is no longer occupied."""
    s = maneuver("EU", govs={"EU": 0, "IN": 1}, units=["EU army mumbai hostile", "IN fleet mumbai"])
    assert battles(s) == {"battle hostile army mumbai vs IN fleet"}
    act(s, "battle hostile army mumbai vs IN fleet")
    assert count(s, "EU", "army", "mumbai") == 0 and count(s, "IN", "fleet", "mumbai") == 0
    assert not occupied(s, "mumbai")


def test_7_4_4_fleet_in_harbour_fights_only_armies():
    """§7.4.4 step 5: a fleet in harbour fights only armies: IN's harbour fleet may attack the hostile
    CN army in mumbai (phase 1), never a fleet at sea."""
    s = maneuver("IN", govs={"IN": 0, "CN": 1}, units=["IN fleet mumbai", "CN army mumbai hostile",
                                                       "CN fleet indian_ocean"])
    assert battles(s) == {"battle fleet mumbai vs CN hostile army"}
    assert_illegal(s, "battle fleet mumbai vs CN fleet", "§7.4.4")
    act(s, "battle fleet mumbai vs CN hostile army")
    assert count(s, "IN", "fleet", "mumbai") == 0 and count(s, "CN", "army", "mumbai") == 0
    assert not occupied(s, "mumbai")


def test_7_4_4_stationary_army_battle_in_own_province():
    """§7.4.4 step 4: an unmoved own army may attack a hostile army in its own home province."""
    s = maneuver("IN", govs={"IN": 0, "CN": 1}, units=["IN army kolkata", "CN army kolkata hostile"])
    assert battles(s) == {"battle army kolkata vs CN hostile army"}
    act(s, "battle army kolkata vs CN hostile army")
    assert not occupied(s, "kolkata") and count(s, "IN", "army", "kolkata") == 0


def test_7_4_4_moved_army_cannot_start_a_battle():
    """§7.4.4 step 4: an army that moved (and declined on arrival) cannot start a battle later."""
    s = maneuver("EU", govs={"EU": 0, "BR": 1}, units=["EU army colombia", "BR army peru"])
    act(s, "move army colombia -> peru", "decline", "decline")
    assert battles(s) == set()
    assert_illegal(s, "battle army peru vs BR army", "§7.4.4")


# ----- §7.4.2 armies: T7, T8, T24 -----

T7_LAND = {"moscow", "murmansk", "novosibirsk", "iran", "kazakhstan", "turkey", "ukraine", "berlin", "mongolia",
           "beijing", "korea"}


def t7():
    return maneuver("RU", units=["RU army vladivostok x2", "RU fleet sea_of_japan x2", "RU fleet china_sea"])


def test_t7_convoy_from_vladivostok():
    """T7 / §7.4.2: army 1's destinations: rail (moscow, murmansk, novosibirsk), rail + land step (iran,
    kazakhstan, turkey, ukraine, berlin, mongolia, beijing, korea), japan by sea_of_japan convoy,
    shanghai, indochina, philippines, indonesia by sea_of_japan + china_sea convoy."""
    s = t7()
    assert destinations(s, "vladivostok") == T7_LAND | {"japan", "shanghai", "indochina", "philippines", "indonesia"}
    moves = army_moves(s, "vladivostok")
    assert "move army vladivostok -> japan via sea_of_japan" in moves
    for island in ("indochina", "philippines", "indonesia"):
        assert f"move army vladivostok -> {island} via sea_of_japan,china_sea" in moves
    for text in ("move army vladivostok -> korea", "move army vladivostok -> moscow",
                 "move army vladivostok -> shanghai via sea_of_japan,china_sea as hostile",
                 "move army vladivostok -> beijing as friendly", "move army vladivostok -> berlin as hostile"):
        assert text in moves
    # korea needs no convoy (land border): the convoy to it is not a separate move
    assert not any(t.startswith("move army vladivostok -> korea via") for t in moves)


def test_t7_second_army_after_convoy_to_indonesia():
    """T7 / §7.4.2: army 1 → indonesia uses one sea_of_japan fleet and the china_sea fleet; army 2 may
    then reach the land set and japan only — no longer shanghai, indochina, philippines, indonesia."""
    s = t7()
    events = act(s, "move army vladivostok -> indonesia via sea_of_japan,china_sea")
    assert kinds(events, "unit_moved")[0]["via"] == ["sea_of_japan", "china_sea"]
    assert count(s, "RU", "army", "indonesia") == 1
    assert destinations(s, "vladivostok") == T7_LAND | {"japan"}
    assert "move army vladivostok -> japan via sea_of_japan" in army_moves(s, "vladivostok")
    assert_illegal(s, "move army vladivostok -> philippines via sea_of_japan,china_sea", "§7.4.2",
                   match="no convoy")
    act(s, "move army vladivostok -> japan via sea_of_japan")
    assert count(s, "RU", "army", "japan") == 1 and count(s, "RU", "army", "vladivostok") == 0
    # the fleets did not move by convoying; they stay where they were
    assert count(s, "RU", "fleet", "sea_of_japan") == 2 and count(s, "RU", "fleet", "china_sea") == 1


def test_t7_each_army_moves_once():
    """§7.4.2: each army may move once: the army that arrived in moscow cannot move again."""
    s = maneuver("RU", units=["RU army vladivostok"])
    act(s, "move army vladivostok -> moscow")
    assert army_moves(s, "moscow") == set()
    assert_illegal(s, "move army moscow -> ukraine", "§7.4.2", match="not moved")


T8_NEW_DELHI = {"mumbai", "kolkata", "chennai", "afghanistan", "urumqi", "iran", "chongqing", "indochina",
                "east_africa", "south_africa", "north_africa", "near_east", "indonesia"}


def test_t8_rail_from_new_delhi():
    """T8 / §7.4.2: from new_delhi: mumbai, kolkata, chennai (rail); afghanistan, urumqi, iran, chongqing,
    indochina (rail + step); east_africa, south_africa, north_africa, near_east, indonesia (rail to a
    coastal province + convoy via the indian_ocean fleet). Exactly these."""
    s = maneuver("IN", units=["IN army new_delhi", "IN fleet indian_ocean"])
    assert destinations(s, "new_delhi") == T8_NEW_DELHI
    moves = army_moves(s, "new_delhi")
    for coast in ("east_africa", "south_africa", "north_africa", "near_east", "indonesia"):
        assert f"move army new_delhi -> {coast} via indian_ocean" in moves
    assert "move army new_delhi -> indochina" in moves and "move army new_delhi -> chongqing as hostile" in moves


def test_t8_rail_then_step_to_indochina():
    """T8: rail to kolkata then step to indochina is one move; the army ends there."""
    s = maneuver("IN", units=["IN army new_delhi", "IN fleet indian_ocean"])
    events = act(s, "move army new_delhi -> indochina")
    assert kinds(events, "unit_moved")[0]["via"] == []
    assert count(s, "IN", "army", "indochina") == 1 and s.convoyed == {}


def test_t8_from_afghanistan():
    """T8 / §7.4.2: an IN army in afghanistan reaches iran, kazakhstan, urumqi, new_delhi, mumbai and,
    by rail after entering India, kolkata and chennai; never indochina, chongqing or a convoy target."""
    s = maneuver("IN", units=["IN army afghanistan", "IN fleet indian_ocean"])
    assert destinations(s, "afghanistan") == {"iran", "kazakhstan", "urumqi", "new_delhi", "mumbai", "kolkata",
                                              "chennai"}
    assert_illegal(s, "move army afghanistan -> indochina", "§7.4.2")
    assert_illegal(s, "move army afghanistan -> east_africa via indian_ocean", "§7.4.2")


def test_t8_hostile_army_in_kolkata():
    """T8 variant / §7.4.2, Q23: CN army in kolkata [hostile] → the new_delhi army cannot rail into
    kolkata (it may step into it), cannot reach chongqing; indochina still by convoy from mumbai or
    chennai."""
    s = maneuver("IN", govs={"IN": 0, "CN": 1},
                 units=["IN army new_delhi", "IN fleet indian_ocean", "CN army kolkata hostile"])
    assert destinations(s, "new_delhi") == {"mumbai", "chennai", "kolkata", "afghanistan", "urumqi", "iran",
                                            "east_africa", "south_africa", "north_africa", "near_east",
                                            "indochina", "indonesia"}
    assert "move army new_delhi -> indochina via indian_ocean" in army_moves(s, "new_delhi")
    assert_illegal(s, "move army new_delhi -> indochina", "§7.4.2", match="rail")
    assert_illegal(s, "move army new_delhi -> chongqing as hostile", "§7.4.2")
    act(s, "move army new_delhi -> kolkata")
    assert s.decision_name() == "fight" and legal_texts(s) == {"fight CN hostile army", "decline"}


def test_t24_rail_after_a_convoy():
    """T24 / §7.4.2 [R]: EU army in london, CN army in paris [hostile], EU fleet in north_atlantic: no
    rail from london; step into paris, or convoy via north_atlantic to any land region on it and, having
    landed in berlin, rail on to rome. Exactly these destinations."""
    s = maneuver("EU", govs={"EU": 0, "CN": 1},
                 units=["EU army london", "CN army paris hostile", "EU fleet north_atlantic"])
    assert destinations(s, "london") == {"paris", "canada", "quebec", "guinea", "north_africa", "murmansk",
                                         "new_york", "berlin", "rome"}
    assert "move army london -> rome via north_atlantic" in army_moves(s, "london")
    assert "move army london -> paris" in army_moves(s, "london")
    assert_illegal(s, "move army london -> rome", "§7.4.2", match="rail")
    act(s, "move army london -> rome via north_atlantic")
    assert count(s, "EU", "army", "rome") == 1 and count(s, "EU", "army", "london") == 0


def test_q23_no_rail_out_of_an_occupied_province():
    """§7.4.2 [R for "leaves"], Q23: an army standing in an occupied own province cannot rail out; it
    steps to a neighbour (and may rail on from an unoccupied own province)."""
    s = maneuver("RU", govs={"RU": 0, "EU": 1}, units=["RU army novosibirsk", "EU army novosibirsk hostile"])
    assert destinations(s, "novosibirsk") == {"kazakhstan", "mongolia", "moscow", "murmansk", "vladivostok"}
    assert_illegal(s, "move army novosibirsk -> korea", "§7.4.2")


def test_q23_no_rail_into_or_through_an_occupied_province():
    """§7.4.2, Q23: rail never enters or passes an occupied own province: from moscow with novosibirsk
    occupied, vladivostok is out of reach; novosibirsk itself only as the step."""
    s = maneuver("RU", govs={"RU": 0, "EU": 1}, units=["RU army moscow", "EU army novosibirsk hostile"])
    assert destinations(s, "moscow") == {"murmansk", "turkey", "ukraine", "iran", "kazakhstan", "novosibirsk",
                                         "berlin"}
    assert_illegal(s, "move army moscow -> vladivostok", "§7.4.2")


def test_7_4_2_friendly_armies_do_not_stop_rail():
    """§7.4.5: friendly armies have no effect, rail passes their provinces."""
    s = maneuver("RU", govs={"RU": 0, "EU": 1}, units=["RU army moscow", "EU army novosibirsk friendly"])
    assert {"vladivostok", "korea", "beijing"} <= destinations(s, "moscow")


def test_7_4_2_fleets_in_harbour_cannot_convoy():
    """§7.4.2: fleets in harbours cannot convoy."""
    s = maneuver("EU", units=["EU army paris", "EU fleet london", "EU fleet rome"])
    assert not any(" via " in t for t in army_moves(s, "paris"))
    assert destinations(s, "paris") == {"london", "rome", "berlin", "turkey", "ukraine", "murmansk"}


def test_7_4_2_moved_fleets_may_convoy():
    """§7.4.2: fleets that moved earlier in the same maneuver may convoy."""
    s = maneuver("EU", units=["EU army paris", "EU fleet london"])
    act(s, "move fleet london -> north_atlantic")
    assert "move army paris -> canada via north_atlantic" in army_moves(s, "paris")


# ----- §7.4.3 canals, T10, T18 -----

def t10(**kw):
    return maneuver("EU", govs={"EU": 0, "US": 1, "IN": 2}, flags={"US": ["north_africa"]},
                    factories={"IN": ["new_delhi", "mumbai"]},
                    units=["EU fleet mediterranean_sea", "EU fleet rome", "EU army paris"], **kw)


def test_t10_suez_canal_allowed():
    """T10 / §7.4.3: with a US flag in north_africa, the EU fleet mediterranean→indian_ocean needs the US
    government's permission; the rome fleet needs none; the paris army convoyed through Suez to mumbai
    asks again; allowed, it lands, is declared hostile and mumbai's shipyard is occupied."""
    s = t10()
    act(s, "move fleet mediterranean_sea -> indian_ocean")
    assert s.decision_name() == "canal" and s.current_player() == 1
    assert legal_texts(s) == {"allow", "deny"}
    assert count(s, "EU", "fleet", "mediterranean_sea") == 1  # not moved yet
    events = act(s, "allow")
    assert kinds(events, "canal") == [{"canal": "suez", "controller": "US", "nation": "EU", "allowed": True,
                                       "action": "move fleet mediterranean_sea -> indian_ocean"}]
    assert count(s, "EU", "fleet", "indian_ocean") == 1
    act(s, "move fleet rome -> mediterranean_sea")
    assert s.decision_name() == "maneuver"
    move = "move army paris -> mumbai via mediterranean_sea,indian_ocean as hostile"
    assert move in army_moves(s, "paris")
    act(s, move)
    assert s.decision_name() == "canal" and s.current_player() == 1
    assert count(s, "EU", "army", "paris") == 1
    act(s, "allow")
    assert count(s, "EU", "army", "mumbai", "hostile") == 1 and occupied(s, "mumbai")
    act(s, "end maneuver")
    assert flag(s, "indian_ocean") == "EU" and flag(s, "mediterranean_sea") == "EU"
    assert flag(s, "north_africa") == "US"
    # mumbai's shipyard is occupied: no IN production there (§7.4.5)
    t = turn_of(s, "IN")
    events = act(t, "rondel production_1")
    assert [(e["unit"], e["region"]) for e in kinds(events, "unit_built")] == [("army", "new_delhi")]


def test_t10_refused_fleet_moves_elsewhere():
    """T10 / §7.4.3, Q25: if the US refuses, the fleet has not used its move: it may move elsewhere
    (north_atlantic) or stay; the refused crossing is not offered again this maneuver (§7.4.3)."""
    s = t10()
    act(s, "move fleet mediterranean_sea -> indian_ocean")
    events = act(s, "deny")
    assert kinds(events, "canal")[0]["allowed"] is False
    assert s.decision_name() == "maneuver" and s.current_player() == 0
    assert count(s, "EU", "fleet", "mediterranean_sea") == 1
    assert fleet_moves(s, "mediterranean_sea") == {"move fleet mediterranean_sea -> north_atlantic"}
    assert_illegal(s, "move fleet mediterranean_sea -> indian_ocean", "§7.4.3", match="refused")
    act(s, "move fleet mediterranean_sea -> north_atlantic")
    assert s.decision_name() == "maneuver" and count(s, "EU", "fleet", "north_atlantic") == 1


def test_t10_refused_convoy():
    """§7.4.3: a refused convoy is cancelled; the army may move otherwise; the refused convoy is not
    offered again."""
    s = t10()
    act(s, "move fleet mediterranean_sea -> indian_ocean", "allow", "move fleet rome -> mediterranean_sea")
    move = "move army paris -> mumbai via mediterranean_sea,indian_ocean as hostile"
    act(s, move, "deny")
    assert count(s, "EU", "army", "paris") == 1 and s.convoyed == {}
    assert move not in legal_texts(s)
    assert move.replace("as hostile", "as friendly") not in legal_texts(s)  # the crossing itself was refused
    assert_illegal(s, move, "§7.4.3")
    act(s, "move army paris -> near_east via mediterranean_sea")
    assert count(s, "EU", "army", "near_east") == 1


def test_7_4_3_canal_controller_answers_allow_or_deny():
    """§7.4.3: at a canal question only `allow` or `deny` is legal."""
    s = t10()
    act(s, "move fleet mediterranean_sea -> indian_ocean")
    assert_illegal(s, "decline", "§7.4.3")
    assert_illegal(s, "move fleet rome -> mediterranean_sea", "§7.4.3")


def test_t18_free_canal_without_flag():
    """T18 / §7.4.3: no flag in colombia → any fleet passes caribbean_sea↔north_pacific freely."""
    s = maneuver("BR", govs={"BR": 0, "US": 1}, units=["BR fleet caribbean_sea"])
    act(s, "move fleet caribbean_sea -> north_pacific")
    assert s.decision_name() == "maneuver" and count(s, "BR", "fleet", "north_pacific") == 1


def test_t18_own_canal_passes_freely():
    """T18 / §7.4.3: with a US flag in colombia US fleets pass freely."""
    s = maneuver("US", govs={"US": 0, "BR": 1}, flags={"US": ["colombia"]}, units=["US fleet caribbean_sea"])
    act(s, "move fleet caribbean_sea -> north_pacific")
    assert s.decision_name() == "maneuver" and count(s, "US", "fleet", "north_pacific") == 1


def test_t18_foreign_fleet_needs_permission():
    """T18 / §7.4.3: with a US flag in colombia a BR fleet needs the US government's permission."""
    s = maneuver("BR", govs={"BR": 0, "US": 1}, flags={"US": ["colombia"]}, units=["BR fleet north_pacific"])
    act(s, "move fleet north_pacific -> caribbean_sea")
    assert s.decision_name() == "canal" and s.current_player() == 1
    act(s, "allow")
    assert count(s, "BR", "fleet", "caribbean_sea") == 1


def test_t18_convoy_route_decides_the_canal():
    """T18 / §7.4.3: with BR fleets in caribbean_sea and north_pacific and a US flag in colombia, a BR
    army convoyed fortaleza → caribbean_sea → mexico does not cross the canal (no permission);
    fortaleza → caribbean_sea → north_pacific → alaska crosses Panama and needs US permission. The
    moving government names the route."""
    units = ["BR army fortaleza", "BR fleet caribbean_sea", "BR fleet north_pacific"]
    s = maneuver("BR", govs={"BR": 0, "US": 1}, flags={"US": ["colombia"]}, units=units)
    moves = army_moves(s, "fortaleza")
    assert {"move army fortaleza -> mexico via caribbean_sea",
            "move army fortaleza -> mexico via caribbean_sea,north_pacific",
            "move army fortaleza -> alaska via caribbean_sea,north_pacific"} <= moves
    act(s, "move army fortaleza -> mexico via caribbean_sea")
    assert s.decision_name() == "maneuver" and count(s, "BR", "army", "mexico") == 1

    s = maneuver("BR", govs={"BR": 0, "US": 1}, flags={"US": ["colombia"]}, units=units)
    act(s, "move army fortaleza -> alaska via caribbean_sea,north_pacific")
    assert s.decision_name() == "canal" and s.current_player() == 1
    events = act(s, "allow")
    assert kinds(events, "canal")[0]["canal"] == "panama"
    assert count(s, "BR", "army", "alaska") == 1

    s = maneuver("BR", govs={"BR": 0, "US": 1}, flags={"US": ["colombia"]}, units=units)
    act(s, "move army fortaleza -> mexico via caribbean_sea,north_pacific")
    assert s.decision_name() == "canal"


# ----- §7.4.5 hostile / friendly, §7.4.6 last working factory -----

def test_7_4_5_stance_per_army():
    """§7.4.5 [R]: the stance is chosen per army on entry: two EU armies entering mumbai, one hostile,
    one friendly; the province is occupied by the one hostile army."""
    s = maneuver("EU", govs={"EU": 0, "IN": 1}, units=["EU army iran x2"])
    assert army_moves(s, "iran") >= {"move army iran -> mumbai as hostile", "move army iran -> mumbai as friendly"}
    events = act(s, "move army iran -> mumbai as hostile")
    assert kinds(events, "unit_moved")[0]["stance"] == "hostile"
    act(s, "move army iran -> mumbai as friendly")
    assert count(s, "EU", "army", "mumbai", "hostile") == 1 and count(s, "EU", "army", "mumbai", "friendly") == 1
    assert s.occ[s.board.region_index["mumbai"]] == 1
    units = [u for u in s.to_json()["units"] if u["nation"] == "EU"]
    assert sorted((u["region"], u["stance"], u["count"]) for u in units) == [("mumbai", "friendly", 1),
                                                                             ("mumbai", "hostile", 1)]


def test_7_4_5_stance_must_be_declared_only_in_foreign_home():
    """§7.4.5: entering another nation's home province needs `as hostile` or `as friendly`; elsewhere
    no stance may be given (refused under §7.4.5)."""
    s = maneuver("EU", govs={"EU": 0, "IN": 1}, units=["EU army iran"])
    assert_illegal(s, "move army iran -> mumbai", "§7.4.5")
    assert_illegal(s, "move army iran -> turkey as hostile", "§7.4.5")
    s = maneuver("EU", units=["EU army paris"])
    assert_illegal(s, "move army paris -> rome as friendly", "§7.4.5")


def occupation_position():
    """IN (seat 0) with factories new_delhi and mumbai; EU hostile in mumbai and chennai, friendly in
    kolkata."""
    return position(units=["EU army mumbai hostile", "EU army chennai hostile", "EU army kolkata friendly",
                           "IN army new_delhi"],
                    nation="IN", nations={"IN": {"government": 0, "rondel": "maneuver_2", "treasury": 10},
                                          "EU": {"government": 1, "rondel": "factory"}})


def test_7_4_5_occupation_blocks_factory_building():
    """§7.4.5, §7.1: no factory in an occupied province; friendly armies have no effect."""
    s = occupation_position()
    s.rondel[NATIONS.index("IN")] = 7  # taxation → factory is one step
    act(s, "rondel factory")
    assert {t for t in legal_texts(s) if t.startswith("build")} == {"build kolkata", "build none"}
    assert_illegal(s, "build chennai", "§7.1", match="occupied")


def test_7_4_5_occupation_blocks_production():
    """§7.4.5, §7.2: the occupied mumbai shipyard produces nothing."""
    s = occupation_position()
    s.rondel[NATIONS.index("IN")] = 0
    events = act(s, "rondel production_1")
    assert [(e["unit"], e["region"]) for e in kinds(events, "unit_built")] == [("army", "new_delhi")]


def test_7_4_5_occupation_blocks_import():
    """§7.4.5, §7.3: no import into occupied provinces; the province with a friendly army is open."""
    s = occupation_position()
    s.rondel[NATIONS.index("IN")] = 3
    act(s, "rondel import")
    assert {t for t in legal_texts(s) if t.startswith("import")} == {
        "import army new_delhi", "import army kolkata", "import fleet kolkata", "import done"}
    assert_illegal(s, "import fleet mumbai", "§7.3", match="occupied")
    assert_illegal(s, "import army chennai", "§7.3", match="occupied")


def test_7_4_5_occupation_blocks_taxation_of_the_factory():
    """§7.4.5, §7.6 step 1: an occupied factory does not count for taxation: revenue 2 × 1."""
    s = occupation_position()
    events = act(s, "rondel taxation")
    assert kinds(events, "taxation")[0]["factories"] == 1 and kinds(events, "taxation")[0]["revenue"] == 2


def test_7_4_5_occupation_blocks_rail():
    """§7.4.5, §7.4.2: rail never uses the occupied mumbai and chennai; kolkata (friendly) is open."""
    s = occupation_position()
    s.rondel[NATIONS.index("IN")] = 1
    act(s, "rondel maneuver_1")
    assert destinations(s, "new_delhi") == {"kolkata", "mumbai", "chennai", "afghanistan", "urumqi", "indochina",
                                            "chongqing"}


def test_t21_last_factory_protection():
    """T21 / §7.4.6: IN factories new_delhi and mumbai, CN army in new_delhi [hostile] → an EU army
    entering mumbai is automatically friendly (`as hostile` refused under §7.4.6); IN still produces
    in mumbai."""
    s = maneuver("EU", govs={"EU": 0, "IN": 1, "CN": 2}, factories={"IN": ["new_delhi", "mumbai"]},
                 units=["EU army iran", "CN army new_delhi hostile"])
    assert {t for t in army_moves(s, "iran") if "mumbai" in t} == {"move army iran -> mumbai as friendly"}
    assert_illegal(s, "move army iran -> mumbai as hostile", "§7.4.6", match="last working factory")
    act(s, "move army iran -> mumbai as friendly")
    assert count(s, "EU", "army", "mumbai", "friendly") == 1 and not occupied(s, "mumbai")
    act(s, "end maneuver")
    t = turn_of(s, "IN")
    events = act(t, "rondel production_1")
    assert [(e["unit"], e["region"]) for e in kinds(events, "unit_built")] == [("fleet", "mumbai")]


def test_7_4_6_checked_for_every_entering_army():
    """§7.4.6, §11 Q19: the protection holds for every army entering, not only the first."""
    s = maneuver("EU", govs={"EU": 0, "IN": 1, "CN": 2}, factories={"IN": ["new_delhi", "mumbai"]},
                 units=["EU army iran x3", "CN army new_delhi hostile"])
    for _ in range(3):
        assert_illegal(s, "move army iran -> mumbai as hostile", "§7.4.6")
        act(s, "move army iran -> mumbai as friendly")
    assert count(s, "EU", "army", "mumbai", "friendly") == 3


def test_7_4_6_no_protection_without_working_factory():
    """§7.4.6: if U(X) is empty there is no protection: both factories occupied → hostile allowed."""
    s = maneuver("EU", govs={"EU": 0, "IN": 1, "CN": 2}, factories={"IN": ["new_delhi", "mumbai"]},
                 units=["EU army iran", "CN army new_delhi hostile", "CN army mumbai hostile"])
    assert {"move army iran -> mumbai as hostile", "move army iran -> mumbai as friendly"} <= army_moves(s, "iran")


def test_7_4_6_second_factory_allows_hostile_until_occupied():
    """§7.4.6, §7.4.5 order on entry: with two working factories the first army may enter hostile; that
    leaves one working factory (new_delhi), whose province is then entered friendly only."""
    s = maneuver("EU", govs={"EU": 0, "IN": 1}, factories={"IN": ["new_delhi", "mumbai"]},
                 units=["EU army iran", "EU army afghanistan"])
    act(s, "move army iran -> mumbai as hostile")
    assert {t for t in army_moves(s, "afghanistan") if "new_delhi" in t} == {
        "move army afghanistan -> new_delhi as friendly"}
    assert {"move army afghanistan -> mumbai as hostile"} <= army_moves(s, "afghanistan")


def test_7_4_6_factory_counted_free_before_the_army_arrives():
    """§7.4.5 step 1: the province's factory counts as free before this army arrives, and an army that
    leaves another province of X no longer occupies it: EU's only hostile army in new_delhi moves to
    mumbai and may stay hostile, since new_delhi is then free again."""
    s = maneuver("EU", govs={"EU": 0, "IN": 1}, factories={"IN": ["new_delhi", "mumbai"]},
                 units=["EU army new_delhi hostile"])
    assert {"move hostile army new_delhi -> mumbai as hostile",
            "move hostile army new_delhi -> mumbai as friendly"} <= legal_texts(s)
    act(s, "move hostile army new_delhi -> mumbai as hostile")
    assert occupied(s, "mumbai") and not occupied(s, "new_delhi")


# ----- §7.4.7 destroying a factory, T9, T25 -----

def t9(ru_factories=("moscow", "murmansk")):
    return maneuver("EU", govs={"EU": 0, "RU": 1}, factories={"RU": list(ru_factories)},
                    units=["RU fleet murmansk", "EU army berlin x2", "EU army rome x2"])


def test_t9_destroying_the_murmansk_shipyard():
    """T9 / §7.4.7: berlin→murmansk [hostile] battles the RU fleet (both removed); both rome armies rail
    to berlin and step to murmansk [hostile]; the second berlin army follows → 3 hostile EU armies, no
    RU unit → EU destroys: the murmansk factory returns to supply and the 3 EU armies are removed."""
    s = t9()
    act(s, "move army berlin -> murmansk as hostile")
    assert legal_texts(s) == {"fight RU fleet", "decline"}
    act(s, "fight RU fleet")
    assert count(s, "RU", "fleet", "murmansk") == 0 and count(s, "EU", "army", "murmansk") == 0
    act(s, "move army rome -> murmansk as hostile", "move army rome -> murmansk as hostile",
        "move army berlin -> murmansk as hostile")
    assert count(s, "EU", "army", "murmansk", "hostile") == 3
    assert {t for t in legal_texts(s) if t.startswith("destroy")} == {"destroy murmansk with 3 hostile"}
    events = act(s, "destroy murmansk with 3 hostile")
    assert kinds(events, "factory_destroyed") == [{"nation": "RU", "by": "EU", "region": "murmansk",
                                                   "hostile_removed": 3}]
    assert s.to_json()["nations"]["RU"]["factories"] == ["moscow"]
    assert s.n_armies[NATIONS.index("EU")] == 0 and not occupied(s, "murmansk")
    assert s.decision_name() == "maneuver"


def test_t9_negative_defending_fleet_blocks_destruction():
    """T9 negative / §7.4.7: if the RU fleet had not been removed, destruction is illegal."""
    s = t9()
    act(s, "move army berlin -> murmansk as hostile", "decline")
    assert s.decision_name() == "demand" and s.current_player() == 1
    act(s, "decline")
    for origin in ("rome", "rome", "berlin"):
        # every arrival meets the RU fleet again: EU and RU both decline the battle
        act(s, f"move army {origin} -> murmansk as hostile")
        assert legal_texts(s) == {"fight RU fleet", "decline"}
        act(s, "decline", "decline")
    assert count(s, "EU", "army", "murmansk") == 4
    assert not any(t.startswith("destroy") for t in legal_texts(s))
    assert_illegal(s, "destroy murmansk with 3 hostile", "§7.4.7", match="still has units")


def test_t9_negative_last_working_factory():
    """T9 negative / §7.4.6, §7.4.7: murmansk is RU's only factory free of hostile armies → every EU army
    entering is friendly and destruction is illegal."""
    s = t9(ru_factories=("murmansk",))
    assert_illegal(s, "move army berlin -> murmansk as hostile", "§7.4.6")
    act(s, "move army berlin -> murmansk as friendly", "fight RU fleet")
    for origin in ("rome", "rome", "berlin"):
        assert_illegal(s, f"move army {origin} -> murmansk as hostile", "§7.4.6")
        act(s, f"move army {origin} -> murmansk as friendly")
    assert count(s, "EU", "army", "murmansk", "friendly") == 3
    assert not any(t.startswith("destroy") for t in legal_texts(s))
    assert_illegal(s, "destroy murmansk with 0 hostile", "§7.4.7", match="last factory")


def t25(extra=()):
    return maneuver("EU", govs={"EU": 0, "RU": 1, "CN": 2}, factories={"RU": ["moscow", "vladivostok"]},
                    units=["EU army vladivostok friendly x3", *extra])


def test_t25_destroying_with_friendly_armies():
    """T25 / §7.4.7, Q20: 3 friendly EU armies in vladivostok, no RU unit, RU keeps moscow free → EU may
    destroy the vladivostok shipyard."""
    s = t25()
    assert {t for t in legal_texts(s) if t.startswith("destroy")} == {"destroy vladivostok with 0 hostile"}
    assert_illegal(s, "destroy vladivostok with 1 hostile", "§7.4.7")
    act(s, "destroy vladivostok with 0 hostile")
    assert s.to_json()["nations"]["RU"]["factories"] == ["moscow"]
    assert count(s, "EU", "army", "vladivostok") == 0


def test_t25_variant_last_working_factory():
    """T25 variant / §7.4.7: a hostile CN army in moscow makes vladivostok RU's last working factory →
    destruction illegal."""
    s = t25(["CN army moscow hostile"])
    assert not any(t.startswith("destroy") for t in legal_texts(s))
    assert_illegal(s, "destroy vladivostok with 0 hostile", "§7.4.7", match="last factory")


def test_7_4_7_three_armies_needed():
    """§7.4.7: two armies cannot destroy a factory; a province without factory cannot lose one."""
    s = maneuver("EU", govs={"EU": 0, "RU": 1}, units=["EU army vladivostok friendly x2",
                                                       "EU army novosibirsk hostile x3"])
    assert_illegal(s, "destroy vladivostok with 0 hostile", "§7.4.7", match="three")
    assert_illegal(s, "destroy novosibirsk with 3 hostile", "§7.4.7", match="no factory")


def test_7_4_7_more_than_three_armies_government_picks():
    """§7.4.7: with more than three armies there the government picks which three go (how many
    hostile); armies that already moved go first, so an unmoved one may still move."""
    s = maneuver("EU", govs={"EU": 0, "RU": 1}, factories={"RU": ["moscow", "vladivostok"]},
                 units=["EU army vladivostok hostile", "EU army mongolia x3"])
    for _ in range(3):
        act(s, "move army mongolia -> vladivostok as hostile")
    assert {t for t in legal_texts(s) if t.startswith("destroy")} == {"destroy vladivostok with 3 hostile"}
    act(s, "destroy vladivostok with 3 hostile")
    assert count(s, "EU", "army", "vladivostok", "hostile") == 1
    assert "move hostile army vladivostok -> korea" in legal_texts(s)


def test_7_4_7_mixed_stances_choice():
    """§7.4.7: with 2 hostile and 2 friendly armies the government chooses 1 or 2 hostile among the
    three removed."""
    s = maneuver("EU", govs={"EU": 0, "RU": 1}, factories={"RU": ["moscow", "vladivostok"]},
                 units=["EU army vladivostok hostile x2", "EU army vladivostok friendly x2"])
    assert {t for t in legal_texts(s) if t.startswith("destroy")} == {"destroy vladivostok with 1 hostile",
                                                                      "destroy vladivostok with 2 hostile"}
    act(s, "destroy vladivostok with 1 hostile")
    assert count(s, "EU", "army", "vladivostok", "hostile") == 1
    assert count(s, "EU", "army", "vladivostok", "friendly") == 0


def test_7_4_7_destruction_is_an_army_phase_action():
    """§7.4.7, §7.4: destruction happens in the army phase: afterwards no fleet may move."""
    s = t25(["EU fleet north_atlantic"])
    act(s, "destroy vladivostok with 0 hostile")
    assert fleet_moves(s) == set()
    assert_illegal(s, "move fleet north_atlantic -> caribbean_sea", "§7.4")


# ----- §7.4.8 flags, T17, T23 -----

def test_7_4_8_flags_never_in_home_provinces():
    """§7.4.5, §7.4.8: armies never plant flags in home provinces, foreign or own; neutral land and sea
    get the sole occupant's flag."""
    s = maneuver("EU", govs={"EU": 0, "IN": 1},
                 units=["EU army iran x2", "EU army paris", "EU fleet london", "EU army moscow friendly"])
    act(s, "move army iran -> mumbai as hostile", "move army paris -> berlin")
    events = act(s, "end maneuver")
    placed = sorted(e["region"] for e in kinds(events, "flag_placed"))
    assert placed == ["iran"]
    assert s.to_json()["nations"]["EU"]["flags"] == ["iran"]
    assert all(s.board.home_nation[r] < 0 for r in range(len(s.board.region_ids)) if s.flag[r] >= 0)


def test_7_4_8_flag_stays_in_empty_or_shared_region():
    """§7.4.8 steps 1 and 6: a flag stays in a region left empty and in a shared region."""
    s = maneuver("EU", govs={"EU": 0, "BR": 1}, flags={"EU": ["peru", "colombia"]},
                 units=["EU army peru", "EU army colombia", "BR army manaus"])
    act(s, "move army peru -> argentina")
    events = act(s, "end maneuver")
    assert flag(s, "peru") == "EU"  # empty now
    assert flag(s, "argentina") == "EU"
    assert kinds(events, "flag_removed") == []
    s = maneuver("EU", govs={"EU": 0, "BR": 1}, flags={"EU": ["peru"]}, units=["EU army peru", "BR army peru"])
    act(s, "end maneuver")
    assert flag(s, "peru") == "EU"  # shared


def test_7_4_8_other_nation_left_alone_takes_the_flag():
    """§7.4.8 step 2 [R]: a nation left alone after the active nation moved away gets the flag."""
    s = maneuver("EU", govs={"EU": 0, "BR": 1}, flags={"EU": ["peru"]}, units=["EU army peru", "BR army peru"])
    act(s, "move army peru -> argentina")
    events = act(s, "end maneuver")
    assert flag(s, "peru") == "BR" and flag(s, "argentina") == "EU"
    assert kinds(events, "flag_removed") == [{"nation": "EU", "region": "peru"}]
    assert [e["nation"] for e in kinds(events, "flag_placed")] == ["EU", "BR"]  # turn order from EU


T23_RU_FLAGS = ["alaska", "canada", "quebec", "mexico", "colombia", "guinea", "nigeria", "congo", "south_africa",
                "east_africa", "near_east", "turkey", "ukraine", "iran"]


def t23():
    s = maneuver("RU", govs={"RU": 0, "BR": 1, "CN": 2, "EU": 2},
                 flags={"RU": T23_RU_FLAGS, "CN": ["gulf_of_guinea"], "EU": ["peru"]},
                 units=["RU fleet south_pacific", "RU fleet indian_ocean", "RU army colombia", "BR army peru x2"])
    act(s, "move fleet south_pacific -> south_atlantic", "move fleet indian_ocean -> gulf_of_guinea")
    act(s, "move army colombia -> peru", "fight BR army")
    assert count(s, "BR", "army", "peru") == 1 and count(s, "RU", "army", "peru") == 0
    return s


def test_t23_flag_resolution_order_and_short_supply():
    """T23 / §7.4.8 steps 3-4: RU (1 flag in supply) is sole occupant of south_atlantic (unflagged) and
    gulf_of_guinea (CN flag); a lone BR army is left in peru (EU flag). The CN and EU flags return to
    their supplies; RU's government chooses one of the two seas; then BR places a flag in peru."""
    s = t23()
    events = act(s, "end maneuver")
    assert sorted((e["nation"], e["region"]) for e in kinds(events, "flag_removed")) == [
        ("CN", "gulf_of_guinea"), ("EU", "peru")]
    assert s.decision_name() == "flag" and s.current_player() == 0
    assert legal_texts(s) == {"flag south_atlantic", "flag gulf_of_guinea"}
    assert flag(s, "gulf_of_guinea") is None and flag(s, "peru") is None
    assert_illegal(s, "flag peru", "§7.4.8")
    assert_illegal(s, "flag colombia", "§7.4.8")
    assert_illegal(s, "battle fleet gulf_of_guinea vs CN fleet", "§7.4.8")  # no battles in phase 3
    events = act(s, "flag gulf_of_guinea")
    assert [(e["nation"], e["region"]) for e in kinds(events, "flag_placed")] == [("RU", "gulf_of_guinea"),
                                                                                   ("BR", "peru")]
    assert flag(s, "south_atlantic") is None and flag(s, "peru") == "BR"
    assert s.flag_count[NATIONS.index("RU")] == 15
    assert flag(s, "colombia") == "RU"  # left empty, the flag stays
    assert s.decision_name() == "turn_start"


def test_t23_other_choice():
    """T23: the RU government may equally choose south_atlantic; gulf_of_guinea then stays unflagged."""
    s = t23()
    act(s, "end maneuver", "flag south_atlantic")
    assert flag(s, "south_atlantic") == "RU" and flag(s, "gulf_of_guinea") is None and flag(s, "peru") == "BR"


T17_RU_FLAGS = ["mongolia", "alaska", "canada", "quebec", "mexico", "colombia", "peru", "argentina", "guinea",
                "north_africa", "nigeria", "congo", "south_africa", "east_africa", "near_east"]


def test_t17_flag_limit_removal_without_replacement_and_later_placement():
    """T17 / §7.4.8 steps 3-5: RU has all 15 flags placed; its army becomes sole occupant of kazakhstan
    (CN flag) → the CN flag is removed and kazakhstan stays unflagged. Later (CN's maneuver) a CN army
    takes RU-flagged mongolia → that RU flag returns to supply and RU places it in kazakhstan at once."""
    s = maneuver("RU", govs={"RU": 0, "CN": 1}, flags={"RU": T17_RU_FLAGS, "CN": ["kazakhstan"]},
                 units=["RU army moscow", "CN army urumqi"])
    act(s, "move army moscow -> kazakhstan")
    events = act(s, "end maneuver")
    assert kinds(events, "flag_removed") == [{"nation": "CN", "region": "kazakhstan"}]
    assert kinds(events, "flag_placed") == []
    assert flag(s, "kazakhstan") is None and s.flag_count[NATIONS.index("RU")] == 15
    assert s.decision_name() == "turn_start" and s.nation == NATIONS.index("CN")
    s.rondel[NATIONS.index("CN")] = 1  # production_1: maneuver_1 is one step
    act(s, "rondel maneuver_1", "move army urumqi -> mongolia")
    events = act(s, "end maneuver")
    assert kinds(events, "flag_removed") == [{"nation": "RU", "region": "mongolia"}]
    assert [(e["nation"], e["region"]) for e in kinds(events, "flag_placed")] == [("CN", "mongolia"),
                                                                                   ("RU", "kazakhstan")]
    assert flag(s, "kazakhstan") == "RU" and s.flag_count[NATIONS.index("RU")] == 15


def test_7_4_8_returned_flag_available_in_the_same_resolution():
    """§7.4.8 step 5: RU (15 flags placed) moves its army from shared mongolia (RU flag) to CN-flagged
    kazakhstan: the CN army left alone takes mongolia, RU's flag returns in step 3 and is placed in
    kazakhstan in step 4 of the same resolution (RU first, the active nation)."""
    s = maneuver("RU", govs={"RU": 0, "CN": 1}, flags={"RU": T17_RU_FLAGS, "CN": ["kazakhstan"]},
                 units=["RU army mongolia", "CN army mongolia"])
    act(s, "move army mongolia -> kazakhstan")
    events = act(s, "end maneuver")
    assert sorted((e["nation"], e["region"]) for e in kinds(events, "flag_removed")) == [
        ("CN", "kazakhstan"), ("RU", "mongolia")]
    assert [(e["nation"], e["region"]) for e in kinds(events, "flag_placed")] == [("RU", "kazakhstan"),
                                                                                   ("CN", "mongolia")]


def test_7_4_8_sea_regions_and_islands_carry_flags():
    """§7.4.8 step 1: neutral regions are land or sea: a lone fleet flags its sea, a convoyed army its
    island."""
    s = t7()
    act(s, "move army vladivostok -> japan via sea_of_japan", "end maneuver")
    assert flag(s, "japan") == "RU" and flag(s, "sea_of_japan") == "RU" and flag(s, "china_sea") == "RU"
    assert flag(s, "vladivostok") is None


def test_7_4_8_maneuver_without_units_still_resolves_flags():
    """§7.4.8 step 5: a nation without units still resolves flags; another nation's flag that returned
    is placed at that resolution."""
    s = position(nation="CN", units=["RU army kazakhstan"],
                 nations={"CN": {"government": 1, "rondel": "production_1"},
                          "RU": {"government": 0, "rondel": "factory", "flags": T17_RU_FLAGS[1:]}})
    act(s, "rondel maneuver_1")
    assert flag(s, "kazakhstan") == "RU"


def test_t10_refused_convoy_keeps_the_army_phase():
    """§7.4 [P: phases strictly in order], §7.4.3: ordering an army's convoy starts the army phase even
    if the canal's controller refuses it: the fleets may not move afterwards (refused under §7.4)."""
    s = maneuver("EU", govs={"EU": 0, "US": 1, "IN": 2}, flags={"US": ["north_africa"]},
                 units=["EU fleet mediterranean_sea", "EU fleet indian_ocean", "EU fleet rome", "EU army paris"])
    act(s, "move army paris -> mumbai via mediterranean_sea,indian_ocean as hostile", "deny")
    assert count(s, "EU", "army", "paris") == 1
    assert fleet_moves(s) == set()
    assert_illegal(s, "move fleet rome -> mediterranean_sea", "§7.4")


def both_canals_us(active_units):
    return maneuver("EU", govs={"EU": 0, "US": 1, "BR": 2}, flags={"US": ["colombia", "north_africa"]},
                    units=active_units)


FIVE_SEAS = ["EU fleet mediterranean_sea", "EU fleet indian_ocean", "EU fleet china_sea", "EU fleet north_pacific",
             "EU fleet caribbean_sea"]
AROUND = "move army paris -> manaus via mediterranean_sea,indian_ocean,china_sea,north_pacific,caribbean_sea"


def test_7_4_3_every_crossing_asked_separately():
    """§7.4.3: the controller decides separately for every convoy crossing: a convoy through Suez and
    Panama (both US) asks twice, first for Suez, then for Panama."""
    s = both_canals_us(["EU army paris", *FIVE_SEAS])
    act(s, AROUND + " as hostile")
    assert s.decision_name() == "canal" and s.current_player() == 1
    events = act(s, "allow")
    assert [(e["canal"], e["controller"]) for e in kinds(events, "canal")] == [("suez", "US")]
    assert s.decision_name() == "canal" and s.current_player() == 1
    events = act(s, "allow")
    assert [(e["canal"], e["controller"]) for e in kinds(events, "canal")] == [("panama", "US")]
    assert count(s, "EU", "army", "manaus", "hostile") == 1


def test_7_4_3_second_crossing_refused_cancels_the_convoy():
    """§7.4.3: Suez allowed (US), Panama refused (BR) → the whole convoy is cancelled."""
    s = maneuver("EU", govs={"EU": 0, "US": 1, "BR": 2}, flags={"US": ["north_africa"], "BR": ["colombia"]},
                 units=["EU army paris", *FIVE_SEAS])
    act(s, AROUND + " as friendly")
    assert s.current_player() == 1
    act(s, "allow")
    assert s.decision_name() == "canal" and s.current_player() == 2
    events = act(s, "deny")
    assert [(e["canal"], e["controller"], e["allowed"]) for e in kinds(events, "canal")] == [("panama", "BR", False)]
    assert count(s, "EU", "army", "paris") == 1 and count(s, "EU", "army", "manaus") == 0
    assert s.convoyed == {}
    assert_illegal(s, AROUND + " as friendly", "§7.4.3", match="refused")


def test_7_4_2_convoy_route_must_be_a_chain_from_the_army():
    """§7.4.2: the convoy chain starts at a sea beside the army and runs through adjacent seas; the same
    seas named in another order are refused under §7.4.2 (not as a stance problem)."""
    s = t7()
    assert_illegal(s, "move army vladivostok -> indonesia via china_sea,sea_of_japan", "§7.4.2")
    assert_illegal(s, "move army vladivostok -> shanghai via china_sea,sea_of_japan as hostile", "§7.4.2")
    assert_illegal(s, "move army vladivostok -> japan via china_sea", "§7.4.2")
    assert_illegal(s, "move army vladivostok -> korea via sea_of_japan", "§7.4.2")
    assert_illegal(s, "move army vladivostok -> australia via sea_of_japan,china_sea", "§7.4.2")
