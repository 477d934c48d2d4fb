"""Imperial Powers' worked scenarios (shared/imperial_powers/RULES.md §10, IP-01 … IP-15), one test per
scenario or variant named by its id, then one test per phase (§5) and per ruling (R1 … R26)."""

from __future__ import annotations

import json
import random

import pytest

from imperial_lab.core.errors import IllegalActionError
from imperial_lab.core.games.imperial_powers.data import data
from imperial_lab.core.games.imperial_powers.game import ImperialPowers
from imperial_lab.core.games.imperial_powers.builders import build
from imperial_lab.core.games.imperial_powers.rules import (DROP, EXPLOITATION, PLACES, SHARE, SPAIN, SPLIT, START, allotment,
                                              awards, leader)
from imperial_lab.core.games.imperial_powers.scoring import standings, winners
from imperial_lab.core.games.imperial_powers.pending import DEVELOPMENT, INFLUENCE, P_OVER
from imperial_lab.core.interface import CHANCE, TERMINAL
from tests.rule_asserts import assert_illegal

D = data()
A, B, C, DD, E = range(5)  # seats (DD: D is the data)


def play(state, *texts: str) -> None:
    for text in texts:
        state.apply_action(state.string_to_action(text))


def texts(state) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def first_outcomes_while(state, phase: str) -> None:
    """Apply the first chance outcome (or legal action) while the state is in ``phase``."""
    while state.decision_name() == phase:
        state.apply_action(state.legal_actions()[0])


def influence(state, region: str) -> list[int]:
    x = D.regions.index(region)
    return state.influence[x * state.n:(x + 1) * state.n]


def gained(state, source: int) -> list[int]:
    return [state.gains[p * 4 + source] for p in range(state.n)]


def all_pass(state) -> None:
    first_outcomes_while(state, "tactics")  # "pass" is always the first tactics action


def draws_of(state, seat: int, deck: int) -> int:
    return sum(1 for p, which in state.deal if p == seat and which == deck)


# ----- IP-01, IP-02: setup and the first deal -----

def ip01_state():
    state = ImperialPowers({"players": 4}).new_initial_state()
    play(state, "d10 A 7", "d10 B 9", "d10 C 9", "d10 D 2")
    assert state.rollers == (B, C) and state.current_player() == CHANCE and state.current == B
    play(state, "d10 B 3", "d10 C 8")
    assert state.instigator == C and state.decision_name() == "choose_power"
    order = []
    for power in ("britain", "portuguese", "dutch", "spain"):
        order.append(state.current_player())
        play(state, f"power {power}")
    assert order == [C, DD, A, B]
    return state


def test_ip01_setup_rolls_power_choice_and_portuguese_vp():
    state = ip01_state()
    assert [D.powers[w] for w in state.powers] == ["dutch", "spain", "britain", "portuguese"]
    assert D.powers.index("france") not in state.powers
    assert state.returns() == [0, 0, 0, 20] and gained(state, START) == [0, 0, 0, 20]
    assert state.resources == [2] * 10 and state.power_counters == [0] * 10 and not any(state.influence)
    assert state.roll_rounds == (((A, 7), (B, 9), (C, 9), (DD, 2)), ((B, 3), (C, 8)))


def test_ip02_draw_turn_1_order_sizes_and_what_b_sees():
    state = ip01_state()
    assert state.decision_name() == "draw" and state.current == C
    assert [p for p, _ in state.deal] == [C] * 8 + [DD] * 9 + [A] * 8 + [B] * 7  # C's allotment first (R8)
    assert [draws_of(state, p, INFLUENCE) for p in (C, DD, A, B)] == [6, 7, 5, 5]
    assert [draws_of(state, p, DEVELOPMENT) for p in (C, DD, A, B)] == [2, 2, 3, 2]
    first_outcomes_while(state, "draw")
    assert len(state.deck) == 27 and len(state.dev_deck) == 41
    seen = state.observation(B)["seats"]
    assert [seen[p]["hand_size"] for p in (C, DD, A, B)] == [6, 7, 5, 5]
    assert seen[C]["dev_hand"] == [D.dev_ids[d] for d in state.dev_hand[C]] and len(seen[DD]["dev_hand"]) == 2
    assert "dev_hand" not in seen[A] and seen[A]["dev_hand_size"] == 3  # the Dutch keep theirs face down
    assert all("hand" not in seen[p] for p in (A, C, DD)) and len(seen[B]["hand"]) == 5


def test_ip03_draw_with_power_counters_turn_2():
    state = build(powers=["dutch", "spain", "britain", "portuguese"], turn=2, instigator=DD, phase="draw",
                  influence={"europe": [4, 0, 9, 0], "orient": [0, 6, 0, 6], "caribbean": [0, 0, 0, 3]},
                  counters={"europe": (2, 1), "orient": (2, 2), "caribbean": (2, 1)})
    assert [draws_of(state, p, INFLUENCE) for p in (C, DD, A, B)] == [7, 6, 5, 5]
    assert [p for p, _ in state.deal][0] == DD  # dealing starts at the instigator


# ----- IP-04: bid and tactics -----

IP04_HAND = ["navy#1", "spies#1", "fleet#1", "agents#1", "treaty#1"]


def ip04_state(power: str = "britain"):
    powers = [power] + [w for w in ("britain", "spain", "dutch", "portuguese") if w != power][:3]
    state = build(powers=powers, phase="bid", hands={A: IP04_HAND})
    assert texts(state)[0] == "assign spies#1 europe"  # canonical order: value, then id
    return state


def ip04_bid(state) -> None:
    play(state, "assign spies#1 europe", "assign agents#1 africa", "assign treaty#1 africa",
         "assign fleet#1 africa", "assign navy#1 europe")


def test_ip04_bid_every_card_one_region_at_a_time():
    """§5.2: every card of the hand goes under one region, one decision per card, none left out."""
    state = ip04_state()
    play(state, "assign spies#1 europe", "assign agents#1 africa")
    assert_illegal(state, "assign fleet#1 africa", "§5.2", "next is treaty#1")  # Treaty cannot be left out
    assert_illegal(state, "pass", "§5.2", "must first assign every influence card")
    play(state, "assign treaty#1 africa", "assign fleet#1 africa", "assign navy#1 europe")
    assert state.decision_name() == "tactics" and state.current == A
    assert state.strip[A * 10:A * 10 + 2] == [tuple(D.card_names.index(c) for c in ("spies#1", "navy#1")),
                                                tuple(D.card_names.index(c) for c in ("agents#1", "treaty#1",
                                                                                      "fleet#1"))]


def test_ip04_tactics_one_move_then_reveal():
    """§5.4, §5.5: one optional move to another region, then the strips are revealed."""
    state = ip04_state()
    ip04_bid(state)
    assert_illegal(state, "move navy#1 europe", "§5.4", "under europe already")
    assert len(state.legal_actions()) == 5 * 9 + 1
    play(state, "move spies#1 india")
    assert state.current == B  # a second move is not A's to make
    assert_illegal(state, "move agents#1 india", "§5.4", "not on the strip of Player B")
    all_pass(state)
    assert [influence(state, r)[A] for r in ("europe", "africa", "india")] == [9, 13, 1]


def test_ip04_france_moves_two_different_cards():
    state = ip04_state("france")
    ip04_bid(state)
    play(state, "move spies#1 india")
    assert state.current == A
    assert_illegal(state, "move spies#1 africa", "R12", "moved already")
    play(state, "move agents#1 india")
    assert state.current == B
    all_pass(state)
    assert [influence(state, r)[A] for r in ("europe", "africa", "india")] == [9, 11, 3]


# ----- IP-05: develop -----

def test_ip05_develop_counters_discards_and_the_dutch_face_down():
    state = build(phase="develop", dev_hands={A: ["europe__shipbuilding", "africa__gold"],
                                              B: ["europe__weapons", "orient__tea"],
                                              C: ["india__gems", "india__rugs"],
                                              DD: ["caribbean__rum", "caribbean__fish", "se_asia__spices"]})
    assert state.current == A and texts(state) == ["play europe__shipbuilding", "play africa__gold"]
    play(state, "play europe__shipbuilding")
    assert (state.resources[0], state.power_counters[0]) == (2, 1)
    play(state, "play europe__weapons")
    assert (state.resources[0], state.power_counters[0]) == (6, 1)
    play(state, "play india__gems", "play caribbean__rum")
    assert state.decision_name() == "tactics" and not any(state.dev_hand)
    unplayed = {"africa__gold", "orient__tea", "india__rugs"}
    face_down = {"caribbean__fish", "se_asia__spices"}
    public = {D.dev_ids[d] for d in state.dev_discard}
    assert public == unplayed | {"europe__shipbuilding", "europe__weapons", "india__gems", "caribbean__rum"}
    assert {D.dev_ids[d] for d in state.dev_face_down} == face_down
    for p in (A, B, C):
        assert state.observation(p)["development_face_down"] == 2
    assert set(state.observation(DD)["development_face_down"]) == face_down


# ----- IP-06, IP-07: scoring -----

def score(influence_map: dict, counters: dict, powers=None, config=None):
    """A position whose Score Phase is played: all pass in Tactics (empty strips)."""
    state = build(powers=powers, phase="tactics", influence=influence_map, counters=counters, config=config)
    all_pass(state)
    assert state.decision_name() == "event_draw"
    return state


def test_ip06_score_with_a_tie_for_second():
    """§5.6: the two tied for second share place 3 and take 1 VP each."""
    state = score({"europe": [12, 9, 9, 3]}, {"europe": (6, 1)})
    assert gained(state, PLACES) == [7, 1, 1, 0]


def test_ip06_spain_leading_gets_10_and_the_leader_an_extra_card():
    state = score({"europe": [12, 9, 9, 3]}, {"europe": (6, 1)}, powers=["spain", "britain", "france", "dutch"])
    assert gained(state, PLACES)[A] + gained(state, SPAIN)[A] == 10
    leaders = [leader(state, x) for x in range(10)]
    assert leaders[0] == A and allotment(state, leaders, A) == (6, 2)


def test_ip07_ties_at_the_top_lone_player_three_tied_for_second():
    state = score({"africa": [6, 6, 2, 0], "india": [0, 0, 0, 1], "orient": [12, 9, 9, 9]},
                  {"africa": (5, 0), "india": (4, 0), "orient": (8, 0)}, powers=["britain", "spain", "france", "dutch"])
    assert gained(state, PLACES) == [2 + 8, 2, 1, 4]
    assert gained(state, SPAIN) == [0, 0, 0, 0]  # Spain (B) ties at the top of Africa: no Leader there


def test_ip07_share_highest_place_option():
    assert awards([6, 6, 2, 0], 5, SHARE) == [5, 5, 1, 0]
    state = score({"africa": [6, 6, 2, 0]}, {"africa": (5, 0)}, config={"tie_rule": "share_highest_place"})
    assert gained(state, PLACES) == [5, 5, 1, 0]


# ----- IP-08 … IP-12: events -----

def event(region: str, values: list[int], name: str, instigator: int = A, counters=None, powers=None, config=None):
    """Draw ``name`` first this Event Phase and assign it to ``region``."""
    state = build(phase="event_draw", instigator=instigator, influence={region: values}, powers=powers,
                  counters=counters, config=config)
    play(state, f"event {name}", f"event to {region}")
    return state


@pytest.mark.parametrize("before, after", [([10, 4, 4, 0], [10, 0, 0, 0]), ([5, 5, 0, 0], [5, 5, 0, 0]),
                                           ([7, 0, 0, 0], [7, 0, 0, 0]), ([10, 3, 3, 3], [10, 0, 0, 0])])
def test_ip08_conquest(before, after):
    assert influence(event("europe", before, "conquest"), "europe") == after


def test_ip09_exploitation_scores_without_the_spain_bonus_then_halves_the_leader():
    state = event("orient", [11, 5, 5, 0], "exploitation", counters={"orient": (6, 0)},
                  powers=["spain", "britain", "france", "dutch"])
    assert gained(state, EXPLOITATION) == [6, 1, 1, 0] and gained(state, SPAIN) == [0, 0, 0, 0]
    assert influence(state, "orient") == [5, 5, 5, 0]


def test_ip09_variant_no_leader_no_halving():
    state = event("orient", [8, 8, 0, 0], "exploitation", counters={"orient": (6, 0)})
    assert gained(state, EXPLOITATION) == [3, 3, 0, 0] and influence(state, "orient") == [8, 8, 0, 0]


def test_ip10_great_game_rolls_for_the_present_from_the_instigator():
    state = event("middle_east", [5, 2, 0, 9], "great_game", instigator=B)
    assert state.decision_name() == "event_die" and state.dice_for == (B, DD, A)
    assert_illegal(state, "d6 C 1", "§6.3")
    play(state, "d6 B 4", "d6 D 3", "d6 A 6")
    assert influence(state, "middle_east") == [0, 0, 0, 6]
    assert state.event_rows[0][3] == (4, 3, 6) and state.decision_name() == "event_draw"


@pytest.mark.parametrize("name, before, after", [
    ("rebellion", [9, 7, 0, 0], [4, 7, 0, 0]), ("rebellion", [7, 7, 0, 0], [7, 7, 0, 0]),
    ("small_wars", [9, 7, 1, 0], [4, 3, 0, 0]),
    ("domination", [9, 7, 1, 0], [9, 0, 0, 0]), ("domination", [5, 5, 2, 0], [5, 5, 2, 0])])
def test_ip11_rebellion_small_wars_domination(name, before, after):
    assert influence(event("north_america", before, name), "north_america") == after


def test_ip12_revolution_nation_building_status_quo():
    assert influence(event("caribbean", [6, 2, 0, 0], "revolution"), "caribbean") == [0, 0, 0, 0]
    state = event("caribbean", [6, 2, 0, 0], "nation_building", counters={"caribbean": (4, 0)})
    assert state.resources[9] == 5 and influence(state, "caribbean") == [6, 2, 0, 0]
    state = event("caribbean", [6, 2, 0, 0], "status_quo")
    assert influence(state, "caribbean") == [6, 2, 0, 0] and state.resources[9] == 2


def test_ip12_balance_of_power_for_the_drawer():
    state = event("caribbean", [6, 2, 0, 0], "balance_of_power", instigator=C)
    assert state.dice_for == (C,)
    play(state, "d6 C 5")
    assert influence(state, "caribbean") == [6, 2, 5, 0]


# ----- IP-13, IP-14 -----

@pytest.mark.parametrize("players, drawers", [(3, "ABCABCABCA"), (4, "ABCDABCDAB"), (5, "ABCDEABCDE")])
def test_ip13_event_draw_order_and_one_event_per_region(players, drawers):
    state = build(players=players, phase="event_draw")
    seen, options = [], []
    while state.decision_name().startswith("event"):
        if state.decision_name() == "event_assign":
            seen.append("ABCDE"[state.current])
            options.append(len(state.legal_actions()))
        state.apply_action(state.legal_actions()[0])
    assert "".join(seen) == drawers and options == list(range(10, 0, -1))
    assert sorted(x for _, x, _, _ in state.event_rows) == list(range(10))
    assert state.decision_name() == "draw" and state.turn == 2


def test_ip14_reshuffle_during_the_deal():
    state = build(powers=["france", "spain", "dutch", "portuguese"], turn=2, phase="draw",
                  deck=["navy#1", "spies#1", "treaty#2"])
    assert len(state.deck) == 3 and len(state.discard) == 47
    for _ in range(3):
        play(state, texts(state)[0])
    # the deck ran out during A's draw: the 47 discards are the new deck, and A draws on
    assert len(state.hand[A]) == 3 and state.current == A and len(state.deck) == 47 and not state.discard
    while state.decision_name() == "draw":
        state.apply_action(state.legal_actions()[0])
    assert [len(h) for h in state.hand] == [5] * 4 and len(state.deck) == 30 and not state.discard


# ----- IP-15: instigator rotation and the winner -----

def test_ip15_instigator_rotation_over_ten_turns_and_the_end():
    state = ImperialPowers({"players": 4}).new_initial_state()
    play(state, "d10 A 9", "d10 B 1", "d10 C 1", "d10 D 1")
    rng = random.Random(15)
    instigators = []
    while not state.is_terminal():
        if state.decision_name() == "draw" and len(instigators) < state.turn:
            instigators.append("ABCD"[state.instigator])
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    assert "".join(instigators) == "ABCDABCDAB" and state.turn == 10
    assert state.current_player() == TERMINAL and state.legal_actions() == []
    assert len(state.event_rows) == 10 and state.resolved == 10  # turn 10's events were played (R19)


def ip15_final(led_by_b: int):
    regions = ["europe", "africa", "orient", "india", "se_asia", "middle_east"]
    owners = [A, A, A] + [B] * led_by_b
    state = build(phase="event_draw", influence={r: [5 if p == o else 0 for p in range(4)]
                                                 for r, o in zip(regions, owners)})
    for p, vp in enumerate((120, 120, 95, 80)):
        state.gains[p * 4 + PLACES] = vp - state.gains[p * 4 + START]
    return state


def test_ip15_winner_by_regions_led_then_shared():
    assert standings(ip15_final(2))[:2] == [(120, 3), (120, 2)] and winners(ip15_final(2)) == [A]
    assert winners(ip15_final(3)) == [A, B]


# ----- the phases (§2, §5) -----

def test_s2_setup_every_seat_rolls_then_chooses():
    state = ImperialPowers({"players": 3}).new_initial_state()
    assert state.decision_name() == "setup_roll" and state.current_player() == CHANCE
    assert [p for _, p in state.chance_outcomes()] == [0.1] * 10
    assert_illegal(state, "d10 B 3", "§6.3")
    assert_illegal(state, "power spain", "§2")
    play(state, "d10 A 2", "d10 B 5", "d10 C 4", "power spain", "power dutch")
    assert_illegal(state, "power spain", "R3", "already taken")
    play(state, "power britain")  # B chose first, then C, then A
    assert [D.powers[w] for w in state.powers] == ["britain", "spain", "dutch"]


def test_s5_1_draw_is_chance_with_probabilities_by_copies_left():
    state = build(phase="draw", deck=["navy#1", "navy#2", "spies#1"])
    outcomes = state.chance_outcomes()
    assert [(state.action_to_string(a), p) for a, p in outcomes] == [("deal A spies#1", 1 / 3),
                                                                       ("deal A navy#1", 2 / 3)]
    with pytest.raises(IllegalActionError) as err:
        state.apply_action(state.string_to_action("deal A navy#2"))  # the lowest copy left is the outcome
    assert err.value.rule == "§6.3"


def test_s5_3_develop_plays_exactly_one_card():
    state = build(phase="develop", dev_hands={A: ["europe__science", "africa__gold"]})
    assert_illegal(state, "play orient__tea", "§5.3")
    assert_illegal(state, "pass", "§5.3")
    play(state, "play africa__gold")
    assert state.resources[1] == 4 and state.decision_name() == "tactics"


def test_s5_5_reveal_adds_to_the_map_and_discards_face_up():
    state = build(phase="tactics", influence={"india": [3, 0, 0, 0]}, strips={A: {"india": ["navy#1"]},
                                                                             B: {"india": ["spies#2"]}})
    all_pass(state)
    assert influence(state, "india") == [12, 1, 0, 0]
    assert {D.card_names[c] for c in state.discard} == {"navy#1", "spies#2"} and not any(state.strip)
    assert state.observation(C)["influence_discard"] == ["spies#2", "navy#1"]


def test_s5_7_event_phase_one_region_each_and_the_last_forced():
    state = build(phase="event_draw")
    assert_illegal(state, "event to europe", "§5.7")
    play(state, "event conquest", "event to europe")
    play(state, "event revolution")
    assert_illegal(state, "event to europe", "R18", "already has an event")
    assert len(state.legal_actions()) == 9


def test_s5_8_game_over_refuses_everything():
    state = build(players=3, phase="event_draw", config={"turns": 1})
    first_outcomes_while(state, "event_draw")
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert state.phase == P_OVER and state.instigator == B
    with pytest.raises(IllegalActionError) as err:
        state.apply_action(state.string_to_action("pass"))
    assert err.value.rule == "§5.8"


# ----- the rulings (§9) -----

def test_r1_r6_every_order_starts_at_the_instigator_and_goes_clockwise():
    state = build(players=5, instigator=DD, phase="develop",
                  dev_hands={p: [D.dev_ids[p * 2], D.dev_ids[p * 2 + 1]] for p in range(5)})
    order = []
    while state.decision_name() == "develop":
        order.append(state.current)
        state.apply_action(state.legal_actions()[0])
    assert order == [DD, E, A, B, C]
    order = []
    while state.decision_name() == "tactics":
        order.append(state.current)
        state.apply_action(state.legal_actions()[0])
    assert order == [DD, E, A, B, B, C]  # B is France: two decisions


def test_r2_only_the_tied_highest_roll_again():
    state = ImperialPowers({"players": 5}).new_initial_state()
    play(state, "d10 A 8", "d10 B 8", "d10 C 2", "d10 D 8", "d10 E 1")
    assert state.rollers == (A, B, DD)
    play(state, "d10 A 5", "d10 B 5", "d10 D 4")
    assert state.rollers == (A, B)
    play(state, "d10 A 1", "d10 B 6")
    assert state.instigator == B and state.first_instigator == B


def test_r3_random_and_fixed_power_assignment():
    state = ImperialPowers({"players": 3, "power_assignment": "random"}).new_initial_state()
    play(state, "d10 A 1", "d10 B 2", "d10 C 9")
    assert state.decision_name() == "choose_power" and state.current_player() == CHANCE
    assert [p for _, p in state.chance_outcomes()] == [0.2] * 5
    play(state, "power dutch")
    assert state.powers[C] == 3 and state.current == A and len(state.chance_outcomes()) == 4
    fixed = ImperialPowers({"players": 3, "power_assignment": "fixed", "powers": ["spain", "portuguese", "dutch"]})
    state = fixed.new_initial_state()
    play(state, "d10 A 1", "d10 B 2", "d10 C 9")
    assert [D.powers[w] for w in state.powers] == ["spain", "portuguese", "dutch"] and state.returns()[B] == 20
    assert state.decision_name() == "draw"


def test_r4_r5_r23_r24_counters_values_and_supplies():
    state = build(counters={"europe": (2, 3)}, influence={"europe": [1000, 0, 0, 0]}, phase="tactics")
    all_pass(state)
    assert gained(state, PLACES)[A] == 5  # a power counter is worth 1 like a resource counter (R23)
    leaders = [leader(state, x) for x in range(10)]
    assert allotment(state, leaders, A)[0] == 5 + 1 + 3  # Britain, three power counters (R7, R23)
    assert build(phase="tactics").resources == [2] * 10  # R4: value 2 everywhere
    state = event("europe", [0, 0, 0, 0], "nation_building")
    assert (state.resources[0], state.power_counters[0]) == (3, 0)  # R24: one resource counter


def test_r7_draw_allotment_and_the_portuguese_bonus():
    state = build(players=5, powers=["portuguese", "britain", "france", "spain", "dutch"], phase="draw")
    assert draws_of(state, A, INFLUENCE) == 7 and draws_of(state, B, INFLUENCE) == 6
    assert draws_of(state, E, DEVELOPMENT) == 3
    later = build(players=5, powers=["portuguese", "britain", "france", "spain", "dutch"], phase="draw", turn=2)
    assert draws_of(later, A, INFLUENCE) == 5
    every = build(players=5, powers=["portuguese", "britain", "france", "spain", "dutch"], phase="draw", turn=2,
                  config={"portuguese_bonus": "every_turn"})
    assert draws_of(every, A, INFLUENCE) == 7


def test_r8_development_reshuffle_takes_the_face_down_cards_and_lost_draws():
    state = build(phase="develop", dev_hands={DD: ["caribbean__rum", "caribbean__fish", "caribbean__sugar"]})
    play(state, "play caribbean__rum")
    assert len(state.dev_face_down) == 2
    state.dev_deck, state.dev_discard = (), tuple(sorted(state.dev_discard + state.dev_deck))
    all_pass(state)
    while state.decision_name() != "draw":
        state.apply_action(state.legal_actions()[0])
    first_outcomes_while(state, "draw")
    assert len(state.dev_deck) == 50 - 9 and not state.dev_face_down and not state.dev_discard
    empty = build(phase="draw", deck=[], hands={A: list(D.card_names)})
    assert not empty.deck and not empty.discard and empty.deal[empty.dealt] == (A, DEVELOPMENT)
    assert [e.kind for e in empty.events].count("draw_lost") == 6  # A's influence draws are lost


def test_r9_r11_the_dutch_card_played_is_shown():
    state = build(phase="develop", dev_hands={DD: ["orient__tea", "orient__jade", "orient__silk"]},
                  instigator=DD)
    play(state, "play orient__jade")
    assert [D.dev_ids[d] for d in state.dev_discard] == ["orient__jade"]
    assert state.observation(A)["development_discard"] == ["orient__jade"]


def test_r10_bids_are_invisible_to_others_until_reveal():
    state = ip04_state()
    play(state, "assign spies#1 europe", "assign agents#1 africa")
    seen = state.observation(B)
    assert "strip" not in seen["seats"][A] and (seen["seats"][A]["hand_size"], seen["seats"][A]["strip_size"]) == (3, 2)
    assert not any(card in json.dumps(seen) for card in IP04_HAND)
    ip04_bid_rest = ("assign treaty#1 africa", "assign fleet#1 africa", "assign navy#1 europe")
    play(state, *ip04_bid_rest)
    assert not any(card in json.dumps(state.observation(B)) for card in IP04_HAND)
    all_pass(state)
    assert all(card in json.dumps(state.observation(B)) for card in IP04_HAND)  # shown at the Reveal


def test_r12_france_may_pass_then_move_and_the_public_regions_option():
    state = ip04_state("france")
    ip04_bid(state)
    play(state, "pass", "move navy#1 india")
    assert influence(state, "india")[A] == 0 and state.current == B
    public = build(powers=["france", "britain", "spain", "dutch"], phase="bid", hands={A: IP04_HAND},
                   config={"tactics_visibility": "regions_public"})
    ip04_bid(public)
    play(public, "move navy#1 india")
    assert public.tactics_log == ((A, 0, 3),)
    seen = public.observation(B)
    assert seen["tactics"]["log"] == [[A, "europe", "india"]] and "moved" not in seen["tactics"]
    assert public.observation(A)["tactics"]["moved"] == ["navy#1"]


def test_r13_reveal_accumulates_over_turns():
    state = build(phase="tactics", influence={"africa": [4, 0, 0, 0]}, strips={A: {"africa": ["forts#1"]}})
    all_pass(state)
    assert influence(state, "africa")[A] == 9


def test_r14_tie_rules():
    assert awards([6, 6, 2, 0], 5, DROP) == [2, 2, 1, 0]
    assert awards([6, 6, 2, 0], 5, SPLIT) == [3, 3, 1, 0]  # (5 + 2) // 2 each
    assert awards([12, 9, 9, 9], 8, DROP) == [8, 0, 0, 0]
    assert awards([12, 9, 9, 9], 8, SHARE) == [8, 4, 4, 4]
    assert awards([12, 9, 9, 9], 8, SPLIT) == [8, 1, 1, 1]  # (4 + 1 + 0) // 3
    assert awards([0, 0, 0], 9, DROP) == [0, 0, 0]


def test_r15_halves_round_down():
    assert influence(event("india", [9, 3, 0, 0], "small_wars"), "india") == [4, 1, 0, 0]


def test_r16_spain_bonus_on_exploitation_option():
    state = event("orient", [11, 5, 5, 0], "exploitation", counters={"orient": (6, 0)},
                  powers=["spain", "britain", "france", "dutch"], config={"spain_bonus_on_exploitation": True})
    assert gained(state, EXPLOITATION)[A] == 6 and gained(state, SPAIN)[A] == 3


def test_r17_after_all_assigned_resolves_in_draw_order():
    state = build(phase="event_draw", influence={"europe": [6, 2, 0, 0]},
                  config={"event_resolution": "after_all_assigned"})
    play(state, "event revolution", "event to europe")
    assert influence(state, "europe") == [6, 2, 0, 0]  # not yet
    play(state, "event balance_of_power", "event to africa")
    while state.decision_name() in ("event_draw", "event_assign"):
        state.apply_action(state.legal_actions()[0])
    assert influence(state, "europe") == [0, 0, 0, 0] and state.decision_name() == "event_die"
    assert state.dice_for == (B,)  # Balance of Power, drawn by B, resolved second
    play(state, "d6 B 2")
    assert influence(state, "africa")[B] == 2


def test_r18_the_event_deck_is_full_every_turn():
    state = build(phase="event_draw")
    assert len(state.chance_outcomes()) == 10 and sum(p for _, p in state.chance_outcomes()) == pytest.approx(1)
    while state.decision_name() != "draw":
        state.apply_action(state.legal_actions()[0])
    first_outcomes_while(state, "draw")
    while state.decision_name() != "event_draw":
        state.apply_action(state.legal_actions()[0])
    assert len(state.events_left) == 10 and not state.event_rows


def test_r19_r22_turns_option_and_portuguese_vp_public():
    state = ImperialPowers({"players": 3, "turns": 2, "power_assignment": "fixed",
                            "powers": ["portuguese", "spain", "dutch"]}).new_initial_state()
    play(state, "d10 A 5", "d10 B 1", "d10 C 1")
    assert state.observation(C)["seats"][A]["vp"]["start"] == 20
    rng = random.Random(3)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    assert state.turn == 2 and state.instigator == C


def test_r20_winners_use_regions_led_on_the_final_map():
    state = ip15_final(2)
    state.influence[0:4] = [5, 5, 0, 0]  # A's Europe lead becomes a tie: 2 regions each
    assert winners(state) == [A, B]


def test_r26_no_limit_on_cards_per_region():
    hand = ["navy#1", "navy#2", "armies#1", "armies#2", "trade_route#1", "fleet#1", "fleet#2", "factories#1",
            "governor#1", "forts#1", "treaty#1", "spies#1"]
    state = build(phase="bid", hands={A: hand})
    for _ in hand:
        play(state, texts(state)[0])  # every card under Europe
    all_pass(state)
    assert influence(state, "europe")[A] == sum(D.card_values[D.card_names.index(c)] for c in hand) == 77


def test_r21_great_game_never_below_zero():
    state = event("india", [2, 0, 0, 0], "great_game")
    play(state, "d6 A 6")
    assert influence(state, "india") == [0, 0, 0, 0]


def test_r25_the_discard_pile_is_public_card_counting():
    state = build(phase="tactics", strips={B: {"europe": ["armies#1"]}})
    assert state.observation(A)["influence_discard"] == []
    all_pass(state)
    assert state.observation(A)["influence_discard"] == ["armies#1"]
