"""The rondel (RULES.md §6), turn order (§5) and the Swiss-bank veto (§8): T1, T14, T26, Q26."""

from __future__ import annotations

import pytest

from imperial_lab.core.games.imperial2030.data import SPACES
from tests.builders import act, legal_texts, position
from tests.rule_asserts import assert_illegal, kinds

RU, CN, IN, BR, US, EU = range(6)
BR_FLAGS = ["peru", "colombia", "argentina", "south_atlantic", "caribbean_sea"]  # 5 flags


def rondel_texts(state) -> set[str]:
    return {t for t in legal_texts(state) if t.startswith("rondel ")}


def the_move(events) -> dict:
    (move,) = kinds(events, "rondel")
    return move


# ----- T1 -----

def china_on_investor(cash: int, pp: int = 11):
    """T1: CN on investor with PP ``pp``; seat 0 governs CN, seat 1 governs RU (no Swiss bank)."""
    return position(players=2, cash=[cash, 10], bonds={0: ["CN 4"], 1: ["RU 4"]}, nation="CN", investor_card=1,
                    nations={"CN": {"power_points": pp, "rondel": "investor", "government": 0, "treasury": 0},
                             "RU": {"government": 1, "rondel": "factory"}})


def test_t1_rondel_cost_china_11pp():
    """T1 (§6): CN PP 11 (PF 2) on investor, government cash 10: taxation (d = 4) costs 3 from the
    government's cash to the bank, not the treasury, and is no pass-over."""
    s = china_on_investor(10)
    events = act(s, "rondel taxation")
    assert s.cash[0] == 7
    move = the_move(events)
    assert (move["distance"], move["cost"], move["passed_investor"]) == (4, 3, False)
    (paid,) = [p for p in kinds(events, "payment") if p["reason"].startswith("rondel")]
    assert (paid["from"], paid["to"], paid["amount"]) == ("player:0", "bank", 3)
    assert s.card == 1  # no Investor steps


def test_t1_factory_costs_6():
    """T1 (§6): from investor, factory (d = 5) costs 2 x (1 + 2) = 6."""
    s = china_on_investor(10)
    events = act(s, "rondel factory")
    assert s.cash[0] == 4
    assert (the_move(events)["distance"], the_move(events)["cost"]) == (5, 6)


def test_t1_full_option_list_from_investor():
    """T1 (§6): import 0, production_2 0, maneuver_2 0, taxation 3, factory 6, production_1 9;
    maneuver_1 (d = 7) and investor (d = 0) illegal."""
    s = china_on_investor(10)
    assert rondel_texts(s) == {"rondel import", "rondel production_2", "rondel maneuver_2", "rondel taxation",
                               "rondel factory", "rondel production_1"}
    costs = {}
    for space in ("import", "production_2", "maneuver_2", "taxation", "factory", "production_1"):
        t = s.clone()
        before = t.cash[0]
        act(t, f"rondel {space}")
        costs[space] = before - t.cash[0]
    assert costs == {"import": 0, "production_2": 0, "maneuver_2": 0, "taxation": 3, "factory": 6,
                     "production_1": 9}
    assert_illegal(s, "rondel maneuver_1", "§6", match="7 spaces is never allowed")
    assert_illegal(s, "rondel investor", "§6", match="staying on the same space is forbidden")


def test_t1_cash_5_cannot_pay_factory_or_production_1():
    """T1 (§6, Q4): with cash 5 the 6m and 9m moves are illegal; the cheaper ones stay legal."""
    s = china_on_investor(5)
    assert rondel_texts(s) == {"rondel import", "rondel production_2", "rondel maneuver_2", "rondel taxation"}
    assert_illegal(s, "rondel factory", "§6", match="moving 5 spaces costs 6m .* holds 5m")
    assert_illegal(s, "rondel production_1", "§6", match="moving 6 spaces costs 9m .* holds 5m")


def test_t1_extra_17pp_each_extra_space_costs_4():
    """T1 extra (§6): with 17 PP (PF 3) taxation costs 4, factory 8, production_1 12."""
    costs = {}
    for space in ("taxation", "factory", "production_1"):
        s = china_on_investor(12, pp=17)
        act(s, f"rondel {space}")
        costs[space] = 12 - s.cash[0]
    assert costs == {"taxation": 4, "factory": 8, "production_1": 12}


# ----- §6 distances and costs -----

def russia_on(space: str, pf: int = 0, cash: int = 20, treasury: int = 0):
    """RU (seat 0, no bonds so no interest) on ``space``; seat 1 governs CN and holds the card."""
    nations = {"RU": {"government": 0, "rondel": space, "power_points": 5 * pf, "treasury": treasury},
               "CN": {"government": 1, "rondel": "factory"}}
    return position(players=2, cash=[cash, 10], nations=nations, nation="RU", investor_card=1)


@pytest.mark.parametrize("pf,costs", [(0, (1, 2, 3)), (1, (2, 4, 6)), (2, (3, 6, 9)), (3, (4, 8, 12)),
                                      (4, (5, 10, 15))])
def test_6_cost_table(pf, costs):
    """§6: moves of 1-3 spaces are free, 4/5/6 spaces cost (d - 3) x (1 + PF) from the government's cash."""
    for d in range(1, 7):
        s = russia_on("factory", pf)
        events = act(s, f"rondel {SPACES[d]}")
        want = 0 if d <= 3 else costs[d - 4]
        assert (the_move(events)["distance"], the_move(events)["cost"]) == (d, want)
        assert s.cash[0] == 20 - want


def test_6_distances_one_to_six_clockwise_wrapping():
    """§6: from taxation the legal destinations are the next 1-6 spaces clockwise (wrapping)."""
    s = russia_on("taxation")
    assert rondel_texts(s) == {f"rondel {SPACES[k]}" for k in (0, 1, 2, 3, 4, 5)}
    assert_illegal(s, "rondel maneuver_2", "§6", match="7 spaces")
    assert_illegal(s, "rondel taxation", "§6", match="staying")


def test_6_unaffordable_moves_illegal():
    """§6 (Q4): with no cash only the free moves (1-3 spaces) are legal."""
    s = russia_on("factory", pf=1, cash=1)
    assert rondel_texts(s) == {"rondel production_1", "rondel maneuver_1", "rondel investor"}
    assert_illegal(s, "rondel import", "§6", match="moving 4 spaces costs 2m .* holds 1m")
    s = russia_on("factory", pf=1, cash=2)
    assert "rondel import" in rondel_texts(s) and "rondel production_2" not in rondel_texts(s)


def test_6_first_placement_free_anywhere():
    """§6: a nation's first placement may be any of the 8 spaces, free even without cash."""
    s = russia_on(None, pf=3, cash=0)
    assert rondel_texts(s) == {f"rondel {space}" for space in SPACES}
    events = act(s, "rondel taxation")
    assert the_move(events) == {"nation": "RU", "from": None, "to": "taxation", "distance": 0, "cost": 0,
                                     "passed_investor": False}
    assert s.cash[0] == 0


def test_6_first_placement_never_passes_investor():
    """§6: a first placement on import (past Investor) is no pass-over: the card stays."""
    s = russia_on(None)
    act(s, "rondel import", "import done")
    assert s.card == 1
    assert s.nation == CN and s.decision_name() == "turn_start"


def test_6_pass_over_triggers_investor_steps():
    """§6/§8.4: maneuver_1 → import passes Investor: after the import, Investor steps 2-6 (2m to the
    card holder, who may invest; the card passes) — but no interest (step 1)."""
    s = russia_on("maneuver_1", treasury=3)
    events = act(s, "rondel import")
    assert the_move(events)["passed_investor"] is True
    assert s.decision_name() == "import"
    events = act(s, "import army moscow", "import done")
    assert not kinds(events, "interest")
    assert s.cash == [20, 12]
    assert s.decision_name() == "invest" and s.current_player() == 1
    act(s, "pass")
    assert s.card == 0 and s.nation == CN


def test_6_leaving_investor_is_no_pass_over():
    """§6: leaving the Investor space does not pass over it."""
    s = russia_on("investor")
    events = act(s, "rondel import", "import done")
    assert the_move(events)["passed_investor"] is False
    assert s.card == 1 and s.cash == [20, 10]
    assert s.nation == CN


# ----- every space performs its action -----

def russia_first_placement():
    """RU (seat 0, owns RU 4) with 12m, one army in moscow; CN governed by seat 1 (card), seat 2 Swiss."""
    return position(players=3, cash=[10, 10, 10], bonds={0: ["RU 4"], 1: ["CN 4"]}, nation="RU", investor_card=1,
                    nations={"RU": {"government": 0, "treasury": 12}, "CN": {"government": 1, "rondel": "factory"}},
                    units=["RU army moscow"])


def test_6_landing_on_factory_offers_a_factory():
    """§6 → §7.1: landing on factory asks RU's government where to build."""
    s = russia_first_placement()
    act(s, "rondel factory")
    assert s.decision_name() == "factory" and s.current_player() == 0
    assert {t for t in legal_texts(s) if t.startswith("build")} == {"build murmansk", "build novosibirsk",
                                                                    "build none"}


@pytest.mark.parametrize("space", ["production_1", "production_2"])
def test_6_landing_on_production_produces(space):
    """§6 → §7.2: both production spaces produce one army in moscow and one fleet in vladivostok."""
    s = russia_first_placement()
    events = act(s, f"rondel {space}")
    built = {(u["unit"], u["region"]) for u in kinds(events, "unit_built")}
    assert built == {("army", "moscow"), ("fleet", "vladivostok")}
    assert (s.n_armies[RU], s.n_fleets[RU]) == (2, 1)
    assert s.nation == CN


@pytest.mark.parametrize("space", ["maneuver_1", "maneuver_2"])
def test_6_landing_on_maneuver_starts_a_maneuver(space):
    """§6 → §7.4: both maneuver spaces let RU's government move its units."""
    s = russia_first_placement()
    act(s, f"rondel {space}")
    assert s.decision_name() == "maneuver" and s.current_player() == 0
    assert any(t.startswith("move army moscow ->") for t in legal_texts(s))


def test_6_landing_on_investor_pays_interest_and_invests():
    """§6 → §7.5: interest 4 from RU's treasury to its bond holder, 2m to the card holder who invests."""
    s = russia_first_placement()
    act(s, "rondel investor")
    assert s.treasury[RU] == 8 and s.cash == [14, 12, 10]
    assert s.decision_name() == "invest" and s.current_player() == 1


def test_6_landing_on_import_offers_imports():
    """§6 → §7.3: landing on import asks RU's government to place imported units."""
    s = russia_first_placement()
    act(s, "rondel import")
    assert s.decision_name() == "import"
    assert {"import army moscow", "import fleet vladivostok", "import fleet murmansk", "import done"} <= legal_texts(s)


def test_6_landing_on_taxation_taxes():
    """§6 → §7.6: 2 factories, no flags → revenue 4, soldiers' pay 1 → treasury 15; no bonus, no PP."""
    s = russia_first_placement()
    events = act(s, "rondel taxation")
    (tax,) = kinds(events, "taxation")
    assert (tax["revenue"], tax["soldiers_pay"], tax["bonus"]) == (4, 1, 0)
    assert s.treasury[RU] == 15 and s.pp[RU] == 0


# ----- §5 turn order -----

def test_5_turn_order_skips_ungoverned_nations():
    """§5: RU → IN → EU → RU when CN, BR and US have no government; a new round starts at RU."""
    s = position(players=3, nation="RU", nations={"RU": {"government": 0}, "IN": {"government": 1},
                                                  "EU": {"government": 2}})
    seen = []
    for _ in range(4):
        events = act(s, "rondel taxation" if s.rondel[s.nation] < 0 else "rondel production_1")
        (turn,) = kinds(events, "nation_turn")
        seen.append((turn["nation"], turn["government"], turn["round"]))
    assert seen == [("IN", 1, 1), ("EU", 2, 1), ("RU", 0, 2), ("IN", 1, 2)]


# ----- §8 veto -----

def t14(eu_treasury: int):
    """T14: seats A0, B1, C2; card A; C Swiss; EU (gov B) on maneuver_1, PP 0; EU bonds interest 6."""
    return position(players=3, cash=[10, 10, 10], bonds={0: ["RU 4", "EU 2"], 1: ["EU 4"]}, nation="EU",
                    investor_card=0, nations={"RU": {"government": 0, "rondel": "factory"},
                                              "EU": {"government": 1, "rondel": "maneuver_1", "treasury": eu_treasury}})


def test_t14_swiss_bank_vetoes_pass_over():
    """T14 (§8): C vetoes → EU moves 1 space to investor (free), pays interest 6 (A 2, B 4), A gets
    2m and invests, then C, then the government check; the card passes to B."""
    s = t14(10)
    act(s, "rondel production_2")
    assert s.decision_name() == "veto" and s.current_player() == 2
    events = act(s, "veto")
    assert kinds(events, "veto") == [{"player": 2, "nation": "EU", "wanted": "production_2"}]
    move = the_move(events)
    assert (move["to"], move["distance"], move["cost"]) == ("investor", 1, 0)
    assert [(i["player"], i["paid"]) for i in kinds(events, "interest")] == [(0, 2), (1, 4)]
    assert s.treasury[EU] == 4
    assert s.n_armies[EU] + s.n_fleets[EU] == 0  # the intended production is lost
    assert s.cash == [14, 14, 10]
    assert s.decision_name() == "invest" and s.current_player() == 0
    act(s, "pass")
    assert s.current_player() == 2 and s.decision_name() == "invest"
    act(s, "pass")
    assert s.card == 1
    assert s.nation == RU


def test_t14_no_veto_when_treasury_cannot_pay_all_interest():
    """T14 part 2 (§8.1): EU treasury 5 < 6 → no veto asked; EU produces, then A gets 2m and may
    invest, C may invest, the card passes to B."""
    s = t14(5)
    events = act(s, "rondel production_2")
    assert the_move(events)["passed_investor"] is True
    assert {(u["unit"], u["region"]) for u in kinds(events, "unit_built")} == {("army", "paris"),
                                                                              ("fleet", "london")}
    assert not kinds(events, "interest")
    assert s.treasury[EU] == 5 and s.cash == [12, 10, 10]
    assert s.decision_name() == "invest" and s.current_player() == 0
    act(s, "pass")
    assert s.current_player() == 2
    act(s, "pass")
    assert s.card == 1 and s.nation == RU


@pytest.mark.parametrize("start,wanted,distance,cost", [("taxation", "production_2", 4, 3),
                                                         ("maneuver_2", "import", 5, 6),
                                                         ("maneuver_1", "import", 1, 0)])
def test_t26_cost_of_a_vetoed_pass_over(start, wanted, distance, cost):
    """T26 (§8.3): EU PF 2; a vetoed move stops on investor and costs what that distance costs."""
    s = position(players=3, cash=[10, 20, 10], bonds={0: ["RU 4", "EU 4"]}, nation="EU", investor_card=0,
                 nations={"RU": {"government": 0, "rondel": "factory"},
                          "EU": {"government": 1, "rondel": start, "treasury": 10, "power_points": 10}})
    act(s, f"rondel {wanted}")
    assert s.decision_name() == "veto"
    assert s.cash[1] == 20  # nothing paid before the veto question
    events = act(s, "veto")
    move = the_move(events)
    assert (move["to"], move["distance"], move["cost"]) == ("investor", distance, cost)
    assert s.cash[1] == 20 - cost


def four_seats(card: int, swiss_seats: set[int], eu_treasury: int = 10):
    """4 players: seat 0 governs EU (on maneuver_1, owns EU 4), the others RU unless Swiss."""
    govs = [p for p in range(1, 4) if p not in swiss_seats]
    nations = {"EU": {"government": 0, "rondel": "maneuver_1", "treasury": eu_treasury}}
    for code, p in zip(("RU", "CN", "IN"), govs):
        nations[code] = {"government": p, "rondel": "factory"}
    return position(players=4, bonds={0: ["EU 4"], 1: ["EU 1"]}, nation="EU", investor_card=card, nations=nations)


def test_8_veto_order_from_card_holder():
    """§8.2 (Q12): Swiss banks are asked in seating order from the card holder (seat 2 → 3 then 1);
    the first veto wins."""
    s = four_seats(card=2, swiss_seats={1, 3})
    act(s, "rondel import")
    assert s.current_player() == 3 and s.decision_name() == "veto"
    act(s, "no veto")
    assert s.current_player() == 1 and s.decision_name() == "veto"
    events = act(s, "veto")
    assert kinds(events, "veto")[0]["player"] == 1
    assert s.rondel[EU] == SPACES.index("investor")


def test_8_card_holder_swiss_bank_asked_first():
    """§8.2: a Swiss bank holding the investor card is asked first (seat 3, then seat 1)."""
    s = four_seats(card=3, swiss_seats={1, 3})
    act(s, "rondel import")
    assert s.current_player() == 3
    act(s, "no veto")
    assert s.current_player() == 1


def test_8_nobody_vetoes_move_goes_ahead():
    """§8.4: if every Swiss bank declines, the nation moves where it wanted and acts there."""
    s = four_seats(card=2, swiss_seats={1, 3})
    act(s, "rondel import", "no veto")
    events = act(s, "no veto")
    move = the_move(events)
    assert (move["to"], move["passed_investor"]) == ("import", True)
    assert s.decision_name() == "import"


@pytest.mark.parametrize("treasury,asked", [(5, True), (4, False)])
def test_8_veto_needs_treasury_for_all_interest_including_government(treasury, asked):
    """§8.1 (Q3): the veto needs treasury ≥ interest of all sold bonds, the government's own included
    (EU 4 + EU 1 = 5)."""
    s = four_seats(card=2, swiss_seats={1, 3}, eu_treasury=treasury)
    act(s, "rondel import")
    assert (s.decision_name() == "veto") == asked


def test_8_no_swiss_bank_no_veto():
    """§8.1: without any Swiss bank a pass-over is never vetoed."""
    s = four_seats(card=2, swiss_seats=set())
    assert not any(s.swiss)
    act(s, "rondel import")
    assert s.decision_name() == "import"


def test_8_veto_answers_only():
    """§8: while a Swiss bank is asked, only 'veto' or 'no veto' is legal (refused under §8)."""
    s = four_seats(card=2, swiss_seats={1, 3})
    act(s, "rondel import")
    assert legal_texts(s) == {"veto", "no veto"}
    assert_illegal(s, "rondel taxation", "§8", match="'veto' or 'no veto'")
    assert_illegal(s, "pass", "§8")


def brazil_final_turn(swiss_seat_cash: int = 10):
    """BR (gov seat 0, cash 12) on maneuver_1 with PP 21; revenue would be 11 (3 factories, 5 flags);
    seat 1 governs RU and holds the card; seat 2 is a Swiss bank."""
    return position(players=3, cash=[12, 10, swiss_seat_cash], bonds={0: ["BR 4"], 1: ["RU 4"]}, nation="BR",
                    investor_card=1,
                    nations={"RU": {"government": 1, "rondel": "factory"},
                             "BR": {"government": 0, "rondel": "maneuver_1", "power_points": 21, "treasury": 20,
                                    "factories": ["brasilia", "rio_de_janeiro", "fortaleza"], "flags": BR_FLAGS}})


def test_q26_swiss_bank_may_veto_the_final_turn():
    """Q26 (§8): a veto is possible on the move that would end the game; vetoed, BR does not tax and the
    game goes on (Investor instead, card passes)."""
    s = brazil_final_turn()
    act(s, "rondel taxation")
    assert s.decision_name() == "veto" and s.current_player() == 2
    events = act(s, "veto")
    assert not kinds(events, "taxation")
    assert s.pp[BR] == 21 and not s.is_terminal()
    assert s.cash[0] == 12 + 4  # the 1-space move to investor is free; interest 4 on BR 4
    assert s.decision_name() == "invest" and s.current_player() == 1


def test_5_top_up_limited_to_government_cash():
    """§5 (Q10): at the start of the turn the government may move up to his own cash into the treasury;
    more is refused under §5, and a second top-up at the same point too."""
    s = russia_on("factory", cash=10)
    assert {t for t in legal_texts(s) if t.startswith("topup")} == {f"topup {k}" for k in range(1, 11)}
    assert_illegal(s, "topup 11", "§5", match="has only 10m")
    act(s, "topup 4")
    assert s.cash[0] == 6 and s.treasury[RU] == 4
    assert_illegal(s, "topup 1", "§5", match="already topped up")
