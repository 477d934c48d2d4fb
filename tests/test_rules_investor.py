"""Investor (RULES.md §7.5), governments and Swiss banks (§9): T12, T13, T15, T16, Q2, Q5, Q6, Q7."""

from __future__ import annotations

import pytest

from tests.builders import act, legal_texts, position
from tests.rule_asserts import assert_illegal, kinds

RU, CN, IN, BR, US, EU = range(6)


def bond_holder(state, code: str, number: int) -> int:
    return state.owner[("RU", "CN", "IN", "BR", "US", "EU").index(code) * 9 + number - 1]


def buys(state) -> set[str]:
    return {t for t in legal_texts(state) if t.startswith(("buy", "upgrade"))}


# ----- §7.5 step 1: interest -----

def test_7_5_interest_from_government_left_treasury_then_government_cash():
    """§7.5.1 (Q9): CN government seat 1, treasury 4, cash 1; seats 2 and 0 are owed 3 each. Seat 2
    (left of the government) gets 3 from the treasury, seat 0 gets 1 from the treasury + 1 from the
    government's cash (1 lost); the government's own interest (5) finds an empty treasury."""
    s = position(players=4, cash=[10, 1, 10, 10], nation="CN", investor_card=3,
                 bonds={0: ["CN 2", "CN 1"], 1: ["CN 5"], 2: ["CN 3"], 3: ["RU 1"]},
                 nations={"CN": {"government": 1, "rondel": "maneuver_1", "treasury": 4},
                          "RU": {"government": 3, "rondel": "factory"}, "IN": {"government": 0},
                          "BR": {"government": 2}})
    events = act(s, "rondel investor")
    assert [(i["player"], i["owed"], i["paid"]) for i in kinds(events, "interest")] == [(2, 3, 3), (0, 3, 2), (1, 5, 0)]
    assert s.treasury[CN] == 0
    assert s.cash == [12, 0, 13, 12]  # seat 3 holds the card: +2


def t13(government_cash: int):
    """T13: CN treasury 5; B (seat 1) owns CN 6; government A (seat 0) owns CN 2; card with seat 2."""
    return position(players=3, cash=[government_cash, 0, 0], nation="CN", investor_card=2,
                    bonds={0: ["CN 2"], 1: ["CN 6"], 2: ["RU 1"]},
                    nations={"CN": {"government": 0, "rondel": "maneuver_1", "treasury": 5},
                             "RU": {"government": 2, "rondel": "factory"}})


def test_t13_interest_shortfall_paid_by_government():
    """T13 (§7.5.1): B receives 6 (5 from the treasury, 1 from A); treasury 0; A receives nothing
    (cash 9)."""
    s = t13(10)
    events = act(s, "rondel investor")
    assert [(i["player"], i["paid"]) for i in kinds(events, "interest")] == [(1, 6), (0, 0)]
    assert s.treasury[CN] == 0
    assert s.cash[:2] == [9, 6]


def test_t13_interest_shortfall_government_broke():
    """T13 part 2: with A's cash 0, B receives 5 and the missing 1 is lost."""
    s = t13(0)
    events = act(s, "rondel investor")
    assert [(i["player"], i["owed"], i["paid"]) for i in kinds(events, "interest")] == [(1, 6, 5), (0, 2, 0)]
    assert s.treasury[CN] == 0
    assert s.cash[:2] == [0, 5]


# ----- T12 and bond transactions (Q2) -----

def test_t12_bond_upgrade():
    """T12 (§7.5): A (seat 0, not CN's government) owns CN 2, cash 4, holds the card; CN treasury 20.
    CN lands on investor: A gets interest 2 (6), the card's 2m (8), upgrades CN 2 → CN 5 paying 8
    (cash 0); CN 2 is available again."""
    s = position(players=3, cash=[4, 10, 10], nation="CN", investor_card=0,
                 bonds={0: ["CN 2"], 1: ["CN 6"], 2: ["RU 1"]},
                 nations={"CN": {"government": 1, "rondel": "maneuver_1", "treasury": 20},
                          "RU": {"government": 2, "rondel": "factory"}})
    act(s, "rondel investor")
    assert s.cash[0] == 8 and s.treasury[CN] == 20 - 2 - 6
    assert s.decision_name() == "invest" and s.current_player() == 0
    assert "upgrade CN 2 -> 5" in buys(s) and "upgrade CN 2 -> 6" not in buys(s)  # CN 6 is owned
    events = act(s, "upgrade CN 2 -> 5")
    assert s.cash[0] == 0 and s.treasury[CN] == 20
    assert bond_holder(s, "CN", 2) == -1 and bond_holder(s, "CN", 5) == 0
    assert kinds(events, "bond_returned") == [{"player": 0, "nation": "CN", "number": 2}]
    assert s.gov[CN] == 1  # 16 > 12


def investing(cash: int, bonds=None, swiss_seats=()):
    """RU (government seat 0) just landed on investor without interest; seat 1 holds the card and
    invests with ``cash`` + 2."""
    nations = {"RU": {"government": 0, "rondel": "maneuver_1", "treasury": 0}}
    if 1 not in swiss_seats:
        nations["CN"] = {"government": 1, "rondel": "factory"}
    if 2 not in swiss_seats:
        nations["IN"] = {"government": 2, "rondel": "factory"}
    s = position(players=3, cash=[0, cash - 2, 10], nation="RU", investor_card=1, bonds=bonds or {},
                 nations=nations)
    act(s, "rondel investor")
    assert s.decision_name() == "invest" and s.current_player() == 1 and s.cash[1] == cash
    return s


def test_q2_buy_only_what_cash_covers():
    """§7.5 / Q2: a bond may be bought when its cost ≤ cash (9m: numbers 1-4, exactly 9 included)."""
    s = investing(9)
    assert {t for t in buys(s) if " IN " in t} == {"buy IN 1", "buy IN 2", "buy IN 3", "buy IN 4"}
    assert_illegal(s, "buy IN 5", "§7.5", match="costs 12m and Player B has 9m")
    act(s, "buy IN 4")
    assert s.cash[1] == 0 and s.treasury[IN] == 9 and bond_holder(s, "IN", 4) == 1


def test_q2_upgrade_pays_the_difference():
    """§7.5 / Q2: an upgrade returns an own bond and takes a dearer available one of the same nation,
    paying the difference from cash (CN 2 (4m) with 9m cash → up to CN 5 (12m))."""
    s = investing(9, bonds={1: ["CN 2"], 2: ["CN 4"]})
    upgrades = {t for t in buys(s) if t.startswith("upgrade")}
    assert upgrades == {"upgrade CN 2 -> 3", "upgrade CN 2 -> 5"}  # CN 4 is owned by seat 2
    assert_illegal(s, "upgrade CN 2 -> 6", "§7.5", match="costs 12m and Player B has 9m")
    assert_illegal(s, "upgrade CN 2 -> 1", "§7.5", match="must take a more expensive bond")
    assert_illegal(s, "upgrade CN 2 -> 4", "§7.5", match=r"CN 4 is not available \(owned by Player C\)")
    assert_illegal(s, "upgrade CN 3 -> 5", "§7.5", match="Player B does not own bond CN 3")
    assert_illegal(s, "upgrade RU 2 -> 5", "§7.5", match="Player B does not own bond RU 2")
    assert_illegal(s, "buy CN 4", "§7.5", match=r"not available \(owned by Player C\)")
    assert_illegal(s, "rondel factory", "§7.5", match="buy a bond, upgrade one, or pass")
    act(s, "upgrade CN 2 -> 5")
    assert s.cash[1] == 1 and s.treasury[CN] == 8
    assert bond_holder(s, "CN", 2) == -1 and bond_holder(s, "CN", 5) == 1


def test_q2_treasury_money_never_counts():
    """Q2: only personal cash pays for bonds: the card holder governing CN (treasury 50) with 2m of
    cash can only buy 2m bonds."""
    s = position(players=2, cash=[10, 0], nation="RU", investor_card=1, bonds={0: ["RU 2"], 1: ["CN 1"]},
                 nations={"RU": {"government": 0, "rondel": "maneuver_1", "treasury": 0},
                          "CN": {"government": 1, "rondel": "factory", "treasury": 50}})
    act(s, "rondel investor")
    assert s.current_player() == 1 and s.cash[1] == 2
    assert buys(s) == {f"buy {code} 1" for code in ("RU", "IN", "BR", "US", "EU")} | {"upgrade CN 1 -> 2"}
    assert_illegal(s, "upgrade CN 1 -> 3", "§7.5", match="costs 4m and Player B has 2m")
    assert_illegal(s, "buy CN 2", "§7.5", match="costs 4m and Player B has 2m")


# ----- Q6 and the order of investors -----

def test_q6_one_transaction_per_eligible_player():
    """§7.5 / Q6: the card holder makes one transaction, then each Swiss bank once, then the turn
    goes on; nobody is asked twice."""
    s = investing(20, swiss_seats=(2,))
    assert s.swiss == [False, False, True]
    act(s, "buy IN 1")
    assert s.current_player() == 2 and s.decision_name() == "invest"
    act(s, "buy IN 2")
    assert s.decision_name() == "turn_start" and s.nation == CN
    assert bond_holder(s, "IN", 1) == 1 and bond_holder(s, "IN", 2) == 2


def test_q6_swiss_bank_card_holder_invests_once_with_2m():
    """Q6: a Swiss bank holding the card gets the 2m and invests once, not a second time as Swiss bank."""
    s = investing(5, swiss_seats=(1, 2))
    assert s.swiss == [False, True, True]
    act(s, "buy CN 2")
    assert s.current_player() == 2
    act(s, "pass")
    assert s.decision_name() == "turn_start"
    assert s.cash[1] == 1


def test_7_5_swiss_banks_invest_in_seat_order_from_card_holder():
    """§7.5.3: card holder seat 3 first, then the Swiss banks 4, 0, 1 (seat order from the holder)."""
    s = position(players=5, cash=[10] * 5, nation="RU", investor_card=3, bonds={2: ["RU 1"]},
                 nations={"RU": {"government": 2, "rondel": "maneuver_1", "treasury": 5},
                          "CN": {"government": 3, "rondel": "factory"}})
    assert s.swiss == [True, True, False, False, True]
    act(s, "rondel investor")
    order = []
    while s.decision_name() == "invest":
        order.append(s.current_player())
        act(s, "pass")
    assert order == [3, 4, 0, 1]


# ----- §9 governments, Swiss banks, card -----

def test_t15a_tie_does_not_take_over():
    """T15 (a) (§9): government A holds EU 12m + 4m (16); card holder B buys EU 16m → a tie, A stays."""
    s = position(players=3, cash=[10, 14, 10], nation="EU", investor_card=1,
                 bonds={0: ["EU 5", "EU 2"], 1: ["RU 1"], 2: ["CN 1"]},
                 nations={"EU": {"government": 0, "rondel": "maneuver_1", "treasury": 20},
                          "RU": {"government": 1, "rondel": "factory"}, "CN": {"government": 2, "rondel": "factory"}})
    act(s, "rondel investor")
    assert s.cash[1] == 16
    events = act(s, "buy EU 6")
    assert s.gov[EU] == 0
    assert not kinds(events, "government")
    assert s.card == 2


def test_9_strictly_higher_credit_takes_over():
    """§9: government A holds EU 6m + 2m (8); card holder B buys EU 9m → 9 > 8, B governs EU; A, who
    governs nothing else, gets a Swiss bank and B loses his."""
    s = position(players=3, cash=[10, 7, 10], nation="EU", investor_card=1,
                 bonds={0: ["EU 3", "EU 1"], 2: ["CN 1"]},
                 nations={"EU": {"government": 0, "rondel": "maneuver_1", "treasury": 20},
                          "CN": {"government": 2, "rondel": "factory"}})
    assert s.swiss == [False, True, False]
    act(s, "rondel investor", "buy EU 4")
    assert s.gov[EU] == 1
    assert s.swiss == [True, False, False]


def t15b(card: int):
    """T15 (b): A (seat 0) governs EU with EU 9m + 2m; B (seat 1) holds EU 4m; C (seat 2) holds EU 6m;
    B and C are Swiss banks."""
    return position(players=3, cash=[10, 10, 10], nation="EU", investor_card=card,
                    bonds={0: ["EU 4", "EU 1"], 1: ["EU 2"], 2: ["EU 3"]},
                    nations={"EU": {"government": 0, "rondel": "maneuver_1", "treasury": 20}})


def test_t15b_first_of_tied_challengers_from_card_holder_wins():
    """T15 (b) (§9): B (card) buys EU 12m (16), C upgrades EU 6m → 16m (16): B, first from the card
    holder, becomes EU's government; A gets a Swiss bank, B loses his, C keeps his; card → C."""
    s = t15b(card=1)
    assert s.swiss == [False, True, True]
    act(s, "rondel investor")  # interest: B 2, C 3, A 5
    assert s.cash == [15, 14, 13]
    act(s, "buy EU 5")
    assert s.current_player() == 2
    events = act(s, "upgrade EU 3 -> 6")
    assert s.cash == [15, 2, 3] and s.treasury[EU] == 20 - 10 + 12 + 10
    assert kinds(events, "government") == [{"nation": "EU", "previous": 0, "new": 1}]
    assert s.gov[EU] == 1
    assert s.swiss == [True, False, True]
    assert s.card == 2
    kinds_in_order = [e.kind for e in events if e.kind in ("government", "swiss_bank", "investor_card")]
    assert kinds_in_order == ["government", "swiss_bank", "swiss_bank", "investor_card"]


def test_q7_counting_from_card_holder_includes_the_holder():
    """§9 / Q7: with C holding the card, the tie between C and B goes to C (the holder counts first)."""
    s = t15b(card=2)
    act(s, "rondel investor")
    assert s.current_player() == 2
    act(s, "upgrade EU 3 -> 6")
    assert s.current_player() == 1
    events = act(s, "buy EU 5")
    assert kinds(events, "government") == [{"nation": "EU", "previous": 0, "new": 2}]
    assert s.swiss == [True, True, False]
    assert s.card == 0


def test_9_government_changes_only_at_end_of_investor_turn():
    """§9: a purchase that outbids the government changes nothing until every investor has acted."""
    s = t15b(card=1)
    act(s, "rondel investor", "buy EU 5")
    assert s.gov[EU] == 0 and s.decision_name() == "invest"
    act(s, "pass")
    assert s.gov[EU] == 1


@pytest.mark.parametrize("card", [0, 1, 2])
def test_q5_card_passes_clockwise_even_if_nobody_invests(card):
    """Q5 (§7.5.6): after the Investor turn the card goes to the next seat, whoever that is."""
    s = position(players=3, nation="RU", investor_card=card, bonds={0: ["RU 1"]},
                 nations={"RU": {"government": 0, "rondel": "maneuver_1", "treasury": 5}})
    act(s, "rondel investor")
    while s.decision_name() == "invest":
        act(s, "pass")
    assert s.card == (card + 1) % 3


def test_q5_card_passes_after_a_pass_over():
    """Q5: a pass-over (no veto possible) also moves the card on, after the card holder's 2m."""
    s = position(players=2, cash=[10, 10], nation="RU", investor_card=1, bonds={0: ["RU 1"], 1: ["CN 1"]},
                 nations={"RU": {"government": 0, "rondel": "maneuver_1"},
                          "CN": {"government": 1, "rondel": "factory"}})
    act(s, "rondel production_2")
    assert s.cash == [10, 12] and s.current_player() == 1
    act(s, "pass")
    assert s.card == 0


def brazil_final_turn():
    """T16: BR (gov seat 0, cash 12) on maneuver_1 with PP 21, revenue would be 11 (3 factories, 5 flags);
    seat 1 governs RU and holds the card; seat 2 is a Swiss bank."""
    return position(players=3, cash=[12, 10, 10], bonds={0: ["BR 4"], 1: ["RU 4"]}, nation="BR", investor_card=1,
                    nations={"RU": {"government": 1, "rondel": "factory"},
                             "BR": {"government": 0, "rondel": "maneuver_1", "power_points": 21, "treasury": 20,
                                    "factories": ["brasilia", "rio_de_janeiro", "fortaleza"],
                                    "flags": ["peru", "colombia", "argentina", "south_atlantic", "caribbean_sea"]}})


def test_t16_last_turn_passing_investor_no_investor_steps():
    """T16 (§8.4, §10): maneuver_1 → taxation (d = 5) costs 2 x 5 = 10 and passes Investor; no veto →
    BR taxes (11, +4 → 25 PP), the game ends: no 2m, no Swiss-bank investment, the card stays;
    scoring with BR at PF 5."""
    s = brazil_final_turn()
    act(s, "rondel taxation")
    assert s.decision_name() == "veto"
    events = act(s, "no veto")
    (move,) = kinds(events, "rondel")
    assert (move["distance"], move["cost"], move["passed_investor"]) == (5, 10, True)
    (tax,) = kinds(events, "taxation")
    assert (tax["revenue"], tax["bonus"]) == (11, 2)
    assert s.pp[BR] == 25 and s.is_terminal() and s.decision_name() == "game_over"
    assert s.card == 1
    assert s.cash == [12 - 10 + 2, 10, 10]  # seat 1 did not get the 2m
    assert not [p for p in kinds(events, "payment") if p["reason"] == "investor card"]
    assert kinds(events, "game_ended")[0]["nation"] == "BR"
    assert s.returns() == [4 * 5 + 4, 10.0, 10.0]
    assert s.winners() == [0]
    assert s.legal_actions() == []
    assert_illegal(s, "pass", "§10", match="the game is over")
