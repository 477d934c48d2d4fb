"""Taxation (RULES.md §7.6): T11, the revenue cap, soldiers' pay, the success bonus, power points and
the end of the game at 25 PP (§10)."""

from __future__ import annotations

from tests.builders import act, position
from tests.rule_asserts import assert_illegal, kinds

RU, CN, IN, BR, US, EU = range(6)
NEUTRAL = ["alaska", "canada", "quebec", "mexico", "colombia", "peru", "argentina", "guinea", "north_africa",
           "nigeria", "congo", "south_africa", "east_africa", "near_east", "turkey", "ukraine", "iran"]


def taxing(code: str, treasury: int, pp: int = 0, factories=None, flags=(), units=(), cash: int = 3):
    """``code`` (government seat 0) on production_2, about to move 2 spaces to taxation (free);
    seat 1 governs another nation so the game goes on."""
    other = "CN" if code != "CN" else "RU"
    nation = {"government": 0, "rondel": "production_2", "treasury": treasury, "power_points": pp,
              "flags": list(flags)}
    if factories is not None:
        nation["factories"] = list(factories)
    return position(players=2, cash=[cash, 10], bonds={0: [f"{code} 4"], 1: [f"{other} 4"]}, nation=code,
                    investor_card=1, units=units,
                    nations={code: nation, other: {"government": 1, "rondel": "factory"}})


def test_t11_us_taxation():
    """T11 (§7.6): US factories chicago, new_york, new_orleans, 5 flags, 2 fleets + 1 army, treasury 4,
    PP 10, government cash 3 → revenue 11 (15), soldiers' pay 3 (12), bonus 2 (10, cash 5), PP 14."""
    s = taxing("US", 4, pp=10, factories=["chicago", "new_york", "new_orleans"],
               flags=["alaska", "canada", "quebec", "mexico", "caribbean_sea"],
               units=["US fleet north_pacific x2", "US army mexico"])
    events = act(s, "rondel taxation")
    money = [(p["from"], p["to"], p["amount"]) for p in kinds(events, "payment")]
    assert money == [("bank", "US", 11), ("US", "bank", 3), ("US", "player:0", 2)]
    assert s.treasury[US] == 10 and s.cash[0] == 5
    assert s.pp[US] == 14
    assert kinds(events, "power_points") == [{"nation": "US", "gained": 4, "total": 14}]
    (tax,) = kinds(events, "taxation")
    assert (tax["factories"], tax["flags"], tax["revenue"], tax["soldiers_pay"], tax["bonus"]) == (3, 5, 11, 3, 2)


def test_7_6_occupied_factory_does_not_count():
    """§7.6.1: a factory whose province holds a hostile army earns nothing; a friendly army does not
    matter (chicago occupied, new_orleans with a friendly army: F = 1 of 2)."""
    s = taxing("US", 0, factories=["chicago", "new_orleans"], flags=NEUTRAL[:4],
               units=["CN army chicago hostile", "EU army new_orleans friendly"])
    events = act(s, "rondel taxation")
    (tax,) = kinds(events, "taxation")
    assert (tax["factories"], tax["revenue"]) == (1, 6)
    assert s.treasury[US] == 5 and s.cash[0] == 4 and s.pp[US] == 1


def test_7_6_maximum_revenue_23():
    """§7.6.1: 4 working factories and all 15 flags → revenue 23, bonus 5, +10 PP."""
    s = taxing("RU", 0, factories=["moscow", "murmansk", "vladivostok", "novosibirsk"], flags=NEUTRAL[:15])
    events = act(s, "rondel taxation")
    (tax,) = kinds(events, "taxation")
    assert (tax["revenue"], tax["bonus"]) == (23, 5)
    assert s.treasury[RU] == 18 and s.cash[0] == 8 and s.pp[RU] == 10


def test_7_6_revenue_capped_at_23():
    """§7.6.1: R = min(23, 2F + flags). A hand-made position with 17 flags (beyond the 15-flag supply,
    which no game reaches) shows the cap itself: 8 + 17 = 25 → 23."""
    s = taxing("RU", 0, factories=["moscow", "murmansk", "vladivostok", "novosibirsk"], flags=NEUTRAL[:17])
    events = act(s, "rondel taxation")
    (tax,) = kinds(events, "taxation")
    assert tax["revenue"] == 23
    assert s.treasury[RU] == 18 and s.pp[RU] == 10


def test_7_6_soldiers_pay_stops_at_empty_treasury():
    """§7.6.2-4: revenue 10 into an empty treasury, 12 units → only 10 paid, no bonus left; PP still
    +3 (independent of steps 2-3)."""
    s = taxing("RU", 0, flags=NEUTRAL[:6], units=["RU army moscow x6", "RU fleet sea_of_japan x6"])
    events = act(s, "rondel taxation")
    (tax,) = kinds(events, "taxation")
    assert (tax["revenue"], tax["soldiers_pay"], tax["bonus"]) == (10, 10, 0)
    assert s.treasury[RU] == 0 and s.cash[0] == 3
    assert s.pp[RU] == 3


def test_7_6_bonus_limited_by_treasury():
    """§7.6.3: revenue 11 (bonus 2), 10 units paid → 1 left, so the government gets only 1; PP +4."""
    s = taxing("RU", 0, flags=NEUTRAL[:7], units=["RU army moscow x5", "RU fleet sea_of_japan x5"])
    events = act(s, "rondel taxation")
    (tax,) = kinds(events, "taxation")
    assert (tax["revenue"], tax["soldiers_pay"], tax["bonus"]) == (11, 10, 1)
    assert s.treasury[RU] == 0 and s.cash[0] == 4 and s.pp[RU] == 4


def test_7_6_low_revenue_no_bonus_no_points():
    """§7.6 chart: revenue ≤ 5 gives no bonus and no power points (2 factories + 1 flag = 5)."""
    s = taxing("RU", 2, flags=NEUTRAL[:1])
    events = act(s, "rondel taxation")
    assert not kinds(events, "power_points")
    assert s.treasury[RU] == 7 and s.cash[0] == 3 and s.pp[RU] == 0


def test_7_6_game_goes_on_below_25():
    """§10: 20 + 4 = 24 PP does not end the game; the next nation moves."""
    s = taxing("RU", 0, pp=20, flags=NEUTRAL[:7])
    act(s, "rondel taxation")
    assert s.pp[RU] == 24 and not s.is_terminal()
    assert s.nation == CN and s.decision_name() == "turn_start"


def test_10_power_points_capped_at_25_and_game_ends():
    """§7.6.4 / §10 (Q13): 23 + 4 PP is capped at 25 and the game ends at once; RU's PF 5 scores."""
    s = taxing("RU", 0, pp=23, flags=NEUTRAL[:7])
    events = act(s, "rondel taxation")
    assert s.pp[RU] == 25
    assert kinds(events, "power_points") == [{"nation": "RU", "gained": 4, "total": 25}]
    assert s.is_terminal() and s.decision_name() == "game_over"
    assert not kinds(events, "nation_turn")
    (end,) = kinds(events, "game_ended")
    assert end["nation"] == "RU"
    assert end["scores"] == [4 * 5 + 3 + 2, 10] and end["winners"] == [0]
    assert s.returns() == [25.0, 10.0]


def test_10_no_action_after_the_end():
    """§10: once a nation reaches 25 PP nothing is legal any more (refused under §10, state untouched)."""
    s = taxing("RU", 0, pp=15, factories=["moscow", "murmansk", "vladivostok", "novosibirsk"], flags=NEUTRAL[:15])
    act(s, "rondel taxation")
    assert s.pp[RU] == 25 and s.is_terminal()
    assert s.legal_actions() == []
    assert_illegal(s, "rondel factory", "§10", match="the game is over")
    assert_illegal(s, "pass", "§10", match="the game is over")
