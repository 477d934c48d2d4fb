"""Setup (RULES.md §4): standard deal (§4.2, T20), experienced-players variant (§4.3), investor card
(§4.4), who starts (§4.5) and custom starting distributions with their refusals."""

from __future__ import annotations

from itertools import combinations

import pytest

from imperial_lab.core.errors import SetupError
from imperial_lab.core.games.imperial2030.data import NATIONS
from imperial_lab.core.interface import make_game
from tests.builders import act, legal_texts
from tests.rule_asserts import assert_illegal

# §4.2 card table: each flag card carries its nation's 9m bond (no. 4) and this nation's 2m bond (no. 1).
CARD_2M = {"RU": "EU", "CN": "US", "IN": "BR", "BR": "CN", "US": "RU", "EU": "IN"}
# §4.2 / T20: undealt pairs of a 4-player game that leave the first-named nation without any bond.
NO_BOND_PAIRS = {("RU", "US"): "RU", ("CN", "BR"): "CN", ("IN", "EU"): "IN", ("BR", "IN"): "BR",
                 ("US", "CN"): "US", ("EU", "RU"): "EU"}


def standard(players: int, deal=None, **extra):
    config = {"game": "imperial2030", "players": players, "setup": "standard", **extra}
    if deal is not None:
        config["deal"] = deal
    return make_game(config).new_initial_state()


def by_code(values) -> dict:
    return dict(zip(NATIONS, values))


def bonds_of(state) -> list[set[str]]:
    return [set(p["bonds"]) for p in state.to_json()["players"]]


def expected_one_card_deal(deal: list[str]) -> tuple[dict, dict]:
    """Treasuries and governments of a one-card-per-player deal, straight from the §4.2 card table."""
    holder = {card: seat for seat, card in enumerate(deal)}
    carrier = {two: card for card, two in CARD_2M.items()}  # nation -> card carrying its 2m bond
    treasury, gov = {}, {}
    for n in NATIONS:
        treasury[n] = (9 if n in holder else 0) + (2 if carrier[n] in holder else 0)
        gov[n] = holder.get(n, holder.get(carrier[n]))
    return treasury, gov


# ----- §4.2 standard deal -----

def test_4_2_six_players_every_card_dealt():
    """§4.2, 6 players: 13m each, pay 11 for the two bonds of the card, keep 2; every treasury 11."""
    deal = ["EU", "US", "BR", "IN", "CN", "RU"]
    s = standard(6, deal)
    assert s.cash == [2] * 6
    assert by_code(s.treasury) == {n: 11 for n in NATIONS}
    assert bonds_of(s) == [{f"{card} 4", f"{CARD_2M[card]} 1"} for card in deal]
    assert by_code(s.gov) == {card: seat for seat, card in enumerate(deal)}
    assert s.swiss == [False] * 6


@pytest.mark.parametrize("players,cards", [(6, 720), (5, 720), (4, 360), (3, 6), (2, 2)])
def test_4_2_deal_is_a_chance_node_over_every_deal(players, cards):
    """§4.2: without a fixed deal the first state is a chance node over all deals, each equally likely;
    players already hold their starting cash (13 / 13 / 13 / 24 / 35)."""
    s = standard(players)
    assert s.is_chance_node()
    assert s.decision_name() == "deal"
    outcomes = s.chance_outcomes()
    assert len(outcomes) == cards
    assert [p for _, p in outcomes] == pytest.approx([1 / cards] * cards)
    assert len({a for a, _ in outcomes}) == cards
    assert s.cash == [{2: 35, 3: 24}.get(players, 13)] * players


def test_4_2_applying_a_chance_deal_completes_the_setup():
    """§4.2: the chosen deal is applied like the configured one."""
    s = standard(4)
    act(s, "deal IN,RU,EU,CN")
    dealt = {k: v for k, v in s.to_json().items() if k != "config"}
    configured = {k: v for k, v in standard(4, ["IN", "RU", "EU", "CN"]).to_json().items() if k != "config"}
    assert dealt == configured


@pytest.mark.parametrize("leftover", NATIONS)
def test_4_2_five_players_leftover_card(leftover):
    """§4.2, 5 players: the undealt card X goes to the owner of X's 2m bond; X's treasury is 2 and the
    nation whose 2m bond was on card X has 9."""
    deal = [n for n in NATIONS if n != leftover]
    s = standard(5, deal)
    treasury, gov = expected_one_card_deal(deal)
    assert treasury[leftover] == 2 and treasury[CARD_2M[leftover]] == 9
    assert by_code(s.treasury) == treasury
    assert by_code(s.gov) == gov
    carrier = next(card for card, two in CARD_2M.items() if two == leftover)
    assert s.gov[NATIONS.index(leftover)] == deal.index(carrier)
    assert s.cash == [2] * 5


def test_t20_five_players_eu_left_over():
    """T20 part 1: RU, CN, IN, BR, US dealt → EU card to the RU holder; treasuries 11/11/9/11/11/2;
    cash 2 each; investor card left of the RU holder; RU starts."""
    s = standard(5, ["CN", "IN", "RU", "BR", "US"])  # RU card with seat 2
    assert by_code(s.treasury) == {"RU": 11, "CN": 11, "IN": 9, "BR": 11, "US": 11, "EU": 2}
    assert s.gov[NATIONS.index("EU")] == 2
    assert s.cash == [2] * 5
    assert s.card == 3
    assert s.nation == NATIONS.index("RU")
    assert s.current_player() == 2 and s.decision_name() == "turn_start"


@pytest.mark.parametrize("undealt", list(combinations(NATIONS, 2)))
def test_4_2_four_players_two_cards_left_over(undealt):
    """§4.2, 4 players: for every pair of undealt cards, treasuries and governments follow the card
    table; exactly the six listed pairs leave the first-named nation without bond or government."""
    deal = [n for n in NATIONS if n not in undealt]
    s = standard(4, deal)
    treasury, gov = expected_one_card_deal(deal)
    assert by_code(s.treasury) == treasury
    assert by_code(s.gov) == {n: (-1 if g is None else g) for n, g in gov.items()}
    ungoverned = {n for n in NATIONS if s.gov[NATIONS.index(n)] < 0}
    no_bond = NO_BOND_PAIRS.get(undealt) or NO_BOND_PAIRS.get(undealt[::-1])
    assert ungoverned == ({no_bond} if no_bond else set())
    if no_bond:
        n = NATIONS.index(no_bond)
        assert s.treasury[n] == 0
        assert all(s.owner[n * 9 + k] < 0 for k in range(9))


def test_t20_four_players_ru_and_us_undealt():
    """T20 part 2: RU and US undealt → RU has no bond and no government; CN starts; the investor
    card goes to the left of CN's government."""
    s = standard(4, ["IN", "BR", "CN", "EU"])  # CN government: seat 2
    assert s.gov[NATIONS.index("RU")] == -1
    assert s.treasury[NATIONS.index("RU")] == 0
    assert s.gov[NATIONS.index("US")] == 2  # US 2m bond came with the CN card
    assert by_code(s.treasury) == {"RU": 0, "CN": 11, "IN": 11, "BR": 11, "US": 2, "EU": 9}
    assert s.nation == NATIONS.index("CN") and s.current_player() == 2
    assert s.card == 3


def test_4_2_nation_without_bond_skipped_until_a_bond_is_bought():
    """§4.2 / §9: a nation without bonds is skipped; once someone buys one of its bonds it gets a
    government at the end of that Investor turn and takes its turns again."""
    s = standard(4, ["CN", "IN", "BR", "EU"])  # RU and US undealt: RU has no bond
    ru = NATIONS.index("RU")
    assert s.nation == NATIONS.index("CN")
    events = act(s, "rondel investor")  # CN: interest 1 to seat 2, 4 to seat 0; card holder seat 1 +2
    assert s.cash == [6, 4, 3, 2]
    assert s.current_player() == 1 and s.decision_name() == "invest"
    assert "buy RU 2" in legal_texts(s) and "buy RU 3" not in legal_texts(s)
    events = act(s, "buy RU 2")
    assert s.gov[ru] == 1 and s.treasury[ru] == 4
    assert [e.kind for e in events].index("government") > [e.kind for e in events].index("bond_taken")
    assert s.nation == NATIONS.index("IN")  # this round RU's turn is already past
    act(s, "rondel factory", "build none")  # IN: first placement, declines to build
    for _ in range(3):  # BR, US, EU place their markers on production_1 (no decision follows)
        act(s, "rondel production_1")
    assert s.nation == ru and s.current_player() == 1  # new round: RU is no longer skipped


def test_4_2_three_players_card_groups():
    """§4.2, 3 players: 24m each; IN-holder also gets US, RU-holder BR, CN-holder EU; each pays 22,
    keeps 2; every treasury 11; each governs the nations of his cards."""
    s = standard(3, ["RU", "CN", "IN"])
    assert s.cash == [2, 2, 2]
    assert by_code(s.treasury) == {n: 11 for n in NATIONS}
    assert bonds_of(s) == [{"RU 4", "EU 1", "BR 4", "CN 1"}, {"CN 4", "US 1", "EU 4", "IN 1"},
                           {"IN 4", "BR 1", "US 4", "RU 1"}]
    assert by_code(s.gov) == {"RU": 0, "BR": 0, "CN": 1, "EU": 1, "IN": 2, "US": 2}
    assert s.card == 1 and s.nation == 0 and s.current_player() == 0


def test_4_2_two_players_card_groups():
    """§4.2, 2 players: 35m each; CN-holder also gets EU and BR, RU-holder IN and US; each pays 33,
    keeps 2; every treasury 11."""
    s = standard(2, ["CN", "RU"])
    assert s.cash == [2, 2]
    assert by_code(s.treasury) == {n: 11 for n in NATIONS}
    assert bonds_of(s) == [{"CN 4", "US 1", "EU 4", "IN 1", "BR 4", "CN 1"},
                           {"RU 4", "EU 1", "IN 4", "BR 1", "US 4", "RU 1"}]
    assert by_code(s.gov) == {"CN": 0, "EU": 0, "BR": 0, "RU": 1, "IN": 1, "US": 1}
    assert s.card == 0  # left of RU's government (seat 1)
    assert s.nation == 0 and s.current_player() == 1


@pytest.mark.parametrize("players,deal", [(3, ["RU", "CN", "US"]), (3, ["RU", "CN", "CN"]), (2, ["RU", "IN"]),
                                          (4, ["RU", "CN", "IN"]), (4, ["RU", "RU", "IN", "BR"])])
def test_4_2_configured_deal_refused(players, deal):
    """§4.2: a configured deal must give each player a different card from the cards dealt at random."""
    with pytest.raises(SetupError, match=r"deal .*different card from"):
        standard(players, deal)


def test_4_2_illegal_chance_deal_refused():
    """§4.2: an impossible deal at the chance node is refused, naming §4.2, state unchanged."""
    s = standard(3)
    assert_illegal(s, "deal RU,CN,EU", "§4.2", match="different card")
    assert_illegal(s, "rondel factory", "§4.2", match="dealt first")


# ----- §4.3 experienced-players variant -----

def variant(players: int, start_player: int = 0):
    return make_game({"game": "imperial2030", "players": players, "setup": "variant",
                      "start_player": start_player}).new_initial_state()


@pytest.mark.parametrize("players,cash", [(6, 13), (5, 15), (4, 19), (3, 25), (2, 37)])
def test_4_3_variant_starting_cash(players, cash):
    """§4.3.1: starting cash 13 / 15 / 19 / 25 / 37; no cards dealt, the first decision is a pick."""
    s = variant(players)
    assert s.cash == [cash] * players
    assert s.decision_name() == "variant_pick"
    assert s.gov == [-1] * 6 and s.treasury == [0] * 6


@pytest.mark.parametrize("start", [0, 1, 2])
def test_4_3_variant_pick_order(start):
    """§4.3.2: nation k (RU, CN, IN, BR, US, EU) is first offered to the player k seats left of the
    start player, then once around the table clockwise."""
    s = variant(3, start)
    seen = []
    for step in range(18):
        seen.append((NATIONS[step // 3], s.current_player()))
        assert {t.split()[1] for t in legal_texts(s) if t.startswith("buy")} == {NATIONS[step // 3]}
        act(s, "buy RU 1" if step == 0 else "pass")
    expected = [(NATIONS[k], (start + k + j) % 3) for k in range(6) for j in range(3)]
    assert seen == expected


def test_4_3_variant_full_auction():
    """§4.3: full bond cost into the treasury; governments = highest credit sum; no sale → no
    government; a player governing nothing gets a Swiss bank (§4.3.4); card left of RU's government
    (§4.4); RU starts (§4.5)."""
    s = variant(3, 0)
    picks = ["buy RU 4", "buy RU 2", "pass",        # RU: seats 0, 1, 2
             "buy CN 5", "buy CN 3", "pass",        # CN: seats 1, 2, 0
             "pass", "pass", "pass",                # IN: seats 2, 0, 1
             "buy BR 1", "pass", "pass",            # BR: seats 0, 1, 2
             "pass", "pass", "pass",                # US: seats 1, 2, 0
             "buy EU 2", "buy EU 3", "pass"]        # EU: seats 2, 0, 1
    act(s, *picks)
    assert s.cash == [25 - 9 - 2 - 6, 25 - 4 - 12, 25 - 6 - 4]
    assert by_code(s.treasury) == {"RU": 13, "CN": 18, "IN": 0, "BR": 2, "US": 0, "EU": 10}
    assert by_code(s.gov) == {"RU": 0, "CN": 1, "IN": -1, "BR": 0, "US": -1, "EU": 0}
    assert s.swiss == [False, False, True]
    assert s.card == 1
    assert s.nation == 0 and s.decision_name() == "turn_start" and s.current_player() == 0


def test_4_3_variant_one_bond_per_player_per_nation_and_no_upgrades():
    """§4.3.2: a player who bought a nation's bond is not offered that nation again; upgrades and other
    nations' bonds are refused under §4.3; unaffordable bonds are not offered."""
    s = variant(2, 0)
    assert legal_texts(s) == {"buy RU 1", "buy RU 2", "buy RU 3", "buy RU 4", "buy RU 5", "buy RU 6",
                              "buy RU 7", "buy RU 8", "buy RU 9", "pass"}  # 37m: everything up to 30m
    act(s, "buy RU 9")  # seat 0, cash 7
    assert s.current_player() == 1
    act(s, "buy RU 1")
    assert s.current_player() == 1  # CN starts one seat left of the start player
    act(s, "pass")
    assert s.current_player() == 0
    assert {t for t in legal_texts(s) if t != "pass"} == {"buy CN 1", "buy CN 2", "buy CN 3"}  # cash 7
    assert_illegal(s, "buy RU 2", "§4.3", match="bond of CN")
    assert_illegal(s, "upgrade RU 9 -> 8", "§4.3", match="no upgrades")
    assert_illegal(s, "buy CN 4", "§4.3", match="costs 9m and Player A has 7m")


def test_4_3_variant_card_falls_back_when_russia_ungoverned():
    """§4.3 + §4.4/§4.5: nobody buys RU or CN → the investor card goes left of IN's government and
    IN starts."""
    s = variant(3, 2)
    picks = ["pass"] * 6 + ["buy IN 2"] + ["pass"] * 11  # IN first offered to seat (2 + 2) % 3 = 1
    act(s, *picks)
    assert s.gov == [-1, -1, 1, -1, -1, -1]
    assert s.swiss == [True, False, True]
    assert s.card == 2
    assert s.nation == 2 and s.current_player() == 1


# ----- §4.4 investor card, §4.5 who starts (custom distributions make any case) -----

def custom(players: int, seats: list, **extra):
    return make_game({"game": "imperial2030", "players": players, "setup": "custom",
                      "distribution": {"players": seats, **extra}})


@pytest.mark.parametrize("first", NATIONS)
def test_4_4_investor_card_falls_down_the_turn_order(first):
    """§4.4/§4.5: the investor card goes to the left of the government of the first governed nation in
    turn order (RU, else CN, IN, BR, US, EU), which opens the game."""
    later = NATIONS[(NATIONS.index(first) + 1) % 6]
    seats = [{"cash": 5, "bonds": []}, {"cash": 5, "bonds": [f"{first} 1"]},
             {"cash": 5, "bonds": [f"{later} 2"] if later != "RU" else []}]
    s = custom(3, seats).new_initial_state()
    assert s.gov[NATIONS.index(first)] == 1
    assert s.card == 2
    assert s.nation == NATIONS.index(first) and s.current_player() == 1


def test_4_4_investor_card_wraps_to_seat_zero():
    """§4.4: left of the last seat is seat 0."""
    s = standard(4, ["CN", "IN", "EU", "RU"])
    assert s.gov[0] == 3 and s.card == 0


# ----- custom distributions -----

def test_custom_distribution_players_pay_their_bonds():
    """Custom setup (§4.2 procedure): each player pays his bonds at full cost into the treasuries and
    keeps 'cash'; governments = highest credit sums; players governing nothing get Swiss banks."""
    s = custom(3, [{"cash": 2, "bonds": ["RU 4", "EU 1"]}, {"cash": 7, "bonds": ["RU 3", "CN 2"]},
                   {"cash": 0, "bonds": ["EU 2"], "starting_cash": 4}],
               treasuries={"RU": 15, "EU": 6, "CN": 4}).new_initial_state()
    assert s.cash == [2, 7, 0]
    assert by_code(s.treasury) == {"RU": 15, "CN": 4, "IN": 0, "BR": 0, "US": 0, "EU": 6}
    assert by_code(s.gov) == {"RU": 0, "CN": 1, "IN": -1, "BR": -1, "US": -1, "EU": 2}
    assert s.swiss == [False, False, False]
    assert s.card == 1


def test_custom_distribution_governments_option():
    """Custom setup: 'governments' may name a player tied for the highest credit sum (6 = 4 + 2);
    a player governing nothing has a Swiss bank."""
    seats = [{"cash": 1, "bonds": ["RU 3"]}, {"cash": 1, "bonds": ["RU 2", "RU 1"]}, {"cash": 1, "bonds": []}]
    s = custom(3, seats, governments={"RU": 1}).new_initial_state()
    assert s.gov[0] == 1
    assert s.swiss == [True, False, True]
    assert s.card == 2


@pytest.mark.parametrize("seats,extra,message", [
    ([{"cash": 1, "bonds": ["RU 4"]}, {"cash": 1, "bonds": ["RU 4"]}], {},
     r"players\[1\]\.bonds\[0\]: bond RU 4 already given to players\[0\]"),
    ([{"cash": 1, "bonds": ["XX 4"]}, {"cash": 1, "bonds": []}], {}, r"unknown nation 'XX'"),
    ([{"cash": 1, "bonds": ["RU 10"]}, {"cash": 1, "bonds": []}], {}, r"bond number must be 1\.\.9"),
    ([{"cash": 1, "bonds": ["RU 0"]}, {"cash": 1, "bonds": []}], {}, r"bond number must be 1\.\.9"),
    ([{"cash": 1, "bonds": ["R"]}, {"cash": 1, "bonds": []}], {}, r"a bond is written like 'RU 4'"),
    ([{"cash": -1, "bonds": ["RU 4"]}, {"cash": 1, "bonds": []}], {},
     r"players\[0\]\.cash: must be a whole number 0\.\.10,000"),
    ([{"cash": 2, "bonds": ["RU 4", "EU 1"], "starting_cash": 12}, {"cash": 1, "bonds": []}], {},
     r"starting_cash 12 does not add up: cash 2 \+ bonds 11 = 13"),
    ([{"cash": 2, "bonds": ["RU 4", "EU 1"]}, {"cash": 1, "bonds": []}], {"treasuries": {"RU": 11}},
     r"treasuries\.RU: 11 does not add up to the bonds sold \(9\)"),
    ([{"cash": 2, "bonds": ["RU 4"]}, {"cash": 1, "bonds": []}], {"treasuries": {"EU": 2}},
     r"treasuries\.EU: 2 does not add up to the bonds sold \(0\)"),
    ([{"cash": 2, "bonds": ["RU 4"]}, {"cash": 1, "bonds": []}], {"treasuries": {"XX": 0}},
     r"treasuries: unknown nation 'XX'"),
    ([{"cash": 2, "bonds": ["RU 4"]}, {"cash": 1, "bonds": ["RU 3"]}], {"governments": {"RU": 1}},
     r"governments\.RU: players\[1\] does not hold the highest credit sum"),
    ([{"cash": 2, "bonds": ["RU 4"]}, {"cash": 1, "bonds": []}], {"governments": {"CN": 0}},
     r"governments\.CN: players\[0\] does not hold the highest credit sum"),
    ([{"cash": 2, "bonds": ["RU 4"]}, {"cash": 1, "bonds": []}], {"governments": {"RU": 5}},
     r"governments\.RU: must be a seat 0\.\.1, got 5"),
    ([{"cash": 2, "bonds": []}, {"cash": 1, "bonds": []}], {}, r"no bond is given to anybody"),
    ([{"cash": 2, "bonds": ["RU 4"]}], {}, r"1 players listed for a 2-player game"),
])
def test_custom_distribution_refused(seats, extra, message):
    """Custom setup refusals: bond given twice, unknown nation or bond, negative cash, starting_cash or
    treasuries that do not add up, a government without the highest credit sum; each says why."""
    with pytest.raises(SetupError, match=message):
        make_game({"game": "imperial2030", "players": 2, "setup": "custom",
                   "distribution": {"players": seats, **extra}})


def test_4_3_variant_last_pick_must_buy_if_nothing_sold():
    """§4.3 / §4.5 [our ruling]: if every earlier pick passed, the very last pick may not pass (no nation
    would have a government to open the game); it is refused under §4.3 and the state is unchanged."""
    s = variant(2, 0)
    act(s, *["pass"] * 11)
    assert s.current_player() == 0  # EU: seat (0 + 5) % 2 = 1 first, then seat 0
    assert "pass" not in legal_texts(s)
    assert "buy EU 1" in legal_texts(s)
    assert_illegal(s, "pass", "§4.3", match="last pick must buy")
    act(s, "buy EU 1")
    assert s.gov == [-1, -1, -1, -1, -1, 0]
    assert s.swiss == [False, True]
    assert s.card == 1 and s.nation == 5 and s.current_player() == 0


def test_4_3_variant_last_pick_may_pass_once_a_bond_is_sold():
    """§4.3: passing stays legal on the last pick when some bond was sold before."""
    s = variant(2, 0)
    act(s, "buy RU 1", *["pass"] * 10)
    assert "pass" in legal_texts(s)
