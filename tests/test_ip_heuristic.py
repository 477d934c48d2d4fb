"""The Imperial Powers heuristic bot (core/games/imperial_powers/heuristic.py): legal in whole games of
every player count and power assignment, seeded, blind to what its seat may not see (§6.2), and
sensible in small positions. Its strength is measured by scripts/bench_imperial_powers.py."""

from __future__ import annotations

import random

import pytest

from imperial_lab.core.bots import RandomBot, make_bot
from imperial_lab.core.games.imperial_powers.data import data
from imperial_lab.core.games.imperial_powers.heuristic import POWER_PREFERENCE
from imperial_lab.core.games.imperial_powers.builders import build
from imperial_lab.core.games.imperial_powers.rules import REGIONS
from imperial_lab.core.interface import make_game
from imperial_lab.core.play import play_game
from tests.test_ip_observation import fresh, midgame, move, other_value, swap

D = data()
A, B, C, DD = range(4)
GAME = "imperial_powers"


def heuristic(seed: int = 0):
    return make_bot("heuristic", seed, game=GAME)


class Checked:
    """A bot that fails the test when it answers with an action that is not legal."""

    def __init__(self, bot):
        self.bot = bot

    def decide(self, state, legal_actions):
        action = self.bot.decide(state, legal_actions)
        assert state.is_legal(action), f"{action} is not legal at {state.decision_name()}"
        return action


def play(players: int, seeds, config: dict | None = None, seed: int = 1):
    config = {"game": GAME, "players": players, **(config or {})}
    return play_game(config, [Checked(heuristic(s)) for s in seeds], seed)


# ----- whole games -----

@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("assignment", ["pick", "random", "fixed"])
def test_plays_legal_complete_games(players, assignment):
    config = {"power_assignment": assignment}
    if assignment == "fixed":
        config["powers"] = list(reversed(D.powers))[:players]
    played = play(players, range(players), config, seed=players)
    assert played.state.is_terminal() and played.state.winners()


def test_the_same_seed_plays_the_same_game_and_other_seeds_vary():
    first = play(4, [1, 2, 3, 4]).actions
    assert play(4, [1, 2, 3, 4]).actions == first
    assert play(4, [5, 6, 7, 8]).actions != first


def test_beats_random_bots():
    wins = 0
    for g in range(8):
        bots = [RandomBot(100 + g * 4 + p) for p in range(4)]
        bots[g % 4] = heuristic(g)
        wins += g % 4 in play_game({"game": GAME, "players": 4}, bots, g).state.winners()
    assert wins >= 6


# ----- blind to hidden information (§6.2) -----

def decision(state, seed: int = 3):
    return heuristic(seed).decide(state, state.legal_actions())


def same_decision(state, other):
    """``other`` differs from ``state`` only in what the deciding seat may not see."""
    me = state.current
    assert fresh(other).observation(me) == state.observation(me)
    assert decision(state) == decision(other)


@pytest.mark.parametrize("players,seed", [(3, 2), (4, 2), (5, 4)])
def test_other_hands_and_the_deck_are_invisible(players, seed):
    _, state = midgame(players, seed, "bid")
    q = (state.current + 1) % players  # the instigator bids first: q holds its whole hand
    other = state.clone()
    c = other.hand[q][0]
    other.hand[q], other.deck = swap(other.hand[q], c, other.deck, other_value(other, other.deck, c))
    same_decision(state, other)


def strip_card(state, q: int) -> tuple[int, int]:
    """(region, card) of some card on seat q's strip."""
    x = next(x for x in range(REGIONS) if state.strip[q * REGIONS + x])
    return x, state.strip[q * REGIONS + x][-1]


def past_first_bidder(state):
    """``state`` once the first bidder has bid all its cards (at random)."""
    first = state.current
    while state.current == first:
        state.apply_action(state.legal_actions()[0])
    return state


@pytest.mark.parametrize("phase", ["bid", "develop", "tactics"])
def test_other_strips_are_invisible_before_the_reveal(phase):
    _, state = midgame(4, 7, phase)
    if phase == "bid":
        state = past_first_bidder(state)
    me = state.current
    q = next(q for q in range(4) if q != me and any(state.strip[q * REGIONS + x] for x in range(REGIONS)))
    moved, dealt = state.clone(), state.clone()  # a card under another slot; a card from the deck instead
    x, c = strip_card(state, q)
    y = (x + 1) % REGIONS
    moved.strip[q * REGIONS + x], moved.strip[q * REGIONS + y] = move(moved.strip[q * REGIONS + x], c,
                                                                      moved.strip[q * REGIONS + y])
    dealt.strip[q * REGIONS + x], dealt.deck = swap(dealt.strip[q * REGIONS + x], c, dealt.deck,
                                                    other_value(dealt, dealt.deck, c))
    same_decision(state, moved)
    same_decision(state, dealt)


def test_the_dutch_development_hand_is_invisible():
    state = build(phase="develop", dev_hands={DD: ["orient__tea", "orient__jade", "orient__silk"],
                                              A: ["europe__science", "europe__weapons"]})
    other = state.clone()
    jade, rum = D.dev_ids.index("orient__jade"), D.dev_ids.index("caribbean__rum")
    other.dev_hand[DD], other.dev_deck = swap(other.dev_hand[DD], jade, other.dev_deck, rum)
    same_decision(state, other)


@pytest.mark.parametrize("phase", ["develop", "event_assign"])
def test_the_dutch_face_down_discards_are_invisible(phase):
    config = {"power_assignment": "fixed", "powers": ["britain", "dutch", "spain", "france"]}
    _, state = midgame(4, 3, phase, config)
    dutch = 1
    assert state.current != dutch and state.dev_face_down  # the decider is not the seat whose discards are hidden
    other = state.clone()
    down = other.dev_face_down[0]
    other.dev_face_down, other.dev_deck = swap(other.dev_face_down, down, other.dev_deck, other.dev_deck[0])
    same_decision(state, other)


# ----- sensible decisions -----

def act(state, *texts):
    for text in texts:
        state.apply_action(state.string_to_action(text))
    return state


def chosen(state, seed: int = 0) -> str:
    return state.action_to_string(decision(state, seed))


@pytest.mark.parametrize("seed", range(3))
def test_one_card_goes_where_it_takes_the_lead(seed):
    """Europe (value 10): A 4 behind B 6, the card of 5 takes the lead; Africa (value 10): B, C and
    D hold 40, 30 and 20, hopeless; the other regions are worth 2. The rivals hold one card each."""
    state = build(phase="bid", hands={A: ["settlers#1"], B: ["spies#1"], C: ["agents#1"], DD: ["explorers#1"]},
                  influence={"europe": [4, 6, 0, 0], "africa": [0, 40, 30, 20]},
                  counters={"europe": (10, 0), "africa": (10, 0)})
    assert chosen(state, seed) == "assign settlers#1 europe"


@pytest.mark.parametrize("seed", range(3))
def test_tactics_moves_a_card_out_of_a_hopeless_region(seed):
    """A's Navy lies under Africa, where B has 40; in Europe (value 10) it turns second into first."""
    state = build(phase="bid", hands={A: ["navy#2", "spies#1"], B: ["armies#1"], C: ["armies#2"], DD: ["fleet#1"]},
                  influence={"europe": [5, 7, 0, 0], "africa": [0, 40, 0, 0]},
                  counters={"europe": (10, 0), "africa": (10, 0)})
    act(state, "assign spies#1 india", "assign navy#2 africa", "assign armies#1 orient", "assign armies#2 se_asia",
        "assign fleet#1 caribbean")
    assert state.decision_name() == "tactics" and state.current == A
    assert chosen(state, seed) == "move navy#2 europe"


@pytest.mark.parametrize("seed", range(3))
def test_develops_a_region_it_leads(seed):
    state = build(phase="develop", dev_hands={A: ["europe__manufactured_goods", "africa__diamonds"]},
                  influence={"europe": [15, 3, 0, 0], "africa": [3, 15, 0, 0]})
    assert chosen(state, seed) == "play europe__manufactured_goods"


@pytest.mark.parametrize("seed", range(3))
def test_revolution_goes_to_the_leading_rival_not_to_its_own_region(seed):
    """A leads Europe alone; B, ahead on VP, leads Africa: Revolution hits Africa."""
    state = build(phase="event_draw", turn=3, influence={"europe": [20, 0, 0, 0], "africa": [2, 15, 3, 0]},
                  counters={"europe": (8, 0), "africa": (8, 0)})
    state.gains[B * 4 + 1] = 30
    act(state, "event revolution")
    assert chosen(state, seed) == "event to africa"


@pytest.mark.parametrize("seed", range(3))
def test_balance_of_power_goes_where_it_takes_the_lead(seed):
    """A trails B by 2 in Europe (value 10): the d6 of Balance of Power likely takes the lead."""
    state = build(phase="event_draw", turn=3, influence={"europe": [8, 10, 0, 0]}, counters={"europe": (10, 0)})
    act(state, "event balance_of_power")
    assert chosen(state, seed) == "event to europe"


def test_picks_the_strongest_power_first():
    game = make_game({"game": GAME, "players": 4, "power_assignment": "pick"})
    state = game.new_initial_state()
    while state.decision_name() == "setup_roll":  # seat A rolls 10, the others 1
        rolls = state.legal_actions()
        state.apply_action(rolls[-1] if state.current == A else rolls[0])
    assert decision(state)[1] == POWER_PREFERENCE[0]


# ----- the search hooks built on it (search.py) -----

@pytest.mark.parametrize("phase", ["bid", "develop", "tactics", "event_assign"])
def test_playout_policy_and_evaluate(phase):
    game, state = midgame(4, 5, phase)
    policy = game.playout_policy(random.Random(1))
    assert state.is_legal(policy(state))
    values = game.evaluate(state)
    assert len(values) == 4 and abs(sum(values) - 1) < 1e-9 and all(0 < v < 1 for v in values)

