"""What each seat of Imperial Powers may observe (RULES.md §6.2, R9, R10, R12, R25) and the search
hooks built on it.

Pairs of states that differ only in hidden content (a card swapped between another seat's hand and
the deck, between two other hands, between another seat's strip slots, a Dutch development card
swapped with the deck, a Tactics move against a pass) look the same to the observing seat; the seat
that holds the cards sees the difference, and so does everyone when the difference is public (the
discard pile, the map, a face-up development hand, the strips as the Reveal showed them).
``resample`` redraws exactly the hidden part.
"""

from __future__ import annotations

import json
import random

import pytest

from imperial_lab.core.bots import RandomBot, make_bot
from imperial_lab.core.games.imperial_powers.data import data
from imperial_lab.core.games.imperial_powers.explain import PUBLIC, context_of_state, explain
from imperial_lab.core.games.imperial_powers.invariants import check_invariants
from imperial_lab.core.games.imperial_powers.builders import build
from imperial_lab.core.games.imperial_powers.rules import REGIONS
from imperial_lab.core.games.imperial_powers.texts import decision_lines
from imperial_lab.core.interface import make_game
from imperial_lab.core.play import play_game

D = data()
A, B, C, DD = range(4)


def fresh(state):
    """``state`` after a hand edit: no cached legal actions."""
    state._legal = state._legal_set = state._outcomes = None
    return state


def swap(first: tuple, a: int, second: tuple, b: int) -> tuple[tuple, tuple]:
    """``first`` with card a replaced by b, ``second`` with b replaced by a, both kept sorted."""
    return (tuple(sorted([c for c in first if c != a] + [b])), tuple(sorted([c for c in second if c != b] + [a])))


def move(source: tuple, card: int, target: tuple) -> tuple[tuple, tuple]:
    return tuple(c for c in source if c != card), tuple(sorted(target + (card,)))


def midgame(players: int, seed: int, phase: str, config: dict | None = None):
    """The first state of a random game in ``phase`` after turn 1 (so the map and piles are used)."""
    game = make_game({"game": "imperial_powers", "players": players, **(config or {})})
    played = play_game(game.config, [RandomBot(seed + p) for p in range(players)], seed)
    state = game.new_initial_state()
    for _, action in played.actions:
        if state.turn >= 2 and state.decision_name() == phase:
            return game, state
        state.apply_action(action)
    raise AssertionError(f"no {phase} after turn 1")


def other_value(state, pile: tuple, card: int) -> int:
    """A card of ``pile`` of another value than ``card`` (so the swap changes the holder's view)."""
    return next(c for c in pile if D.card_values[c] != D.card_values[card])


def same_for(state, other, seats) -> None:
    for p in seats:
        assert state.observation(p) == other.observation(p), f"seat {p} sees the hidden difference"


# ----- hidden pairs -----

@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_hand_card_swapped_with_the_deck_is_invisible_to_others(players):
    _, state = midgame(players, 2, "bid")
    q = (state.current + 1) % players  # the instigator bids first: q holds its whole hand
    other = state.clone()
    c = other.hand[q][0]
    other.hand[q], other.deck = swap(other.hand[q], c, other.deck, other_value(other, other.deck, c))
    fresh(other)
    same_for(state, other, [p for p in range(players) if p != q] + [None])
    assert state.observation(q) != other.observation(q)


def test_cards_swapped_between_two_other_hands_are_invisible():
    _, state = midgame(4, 5, "bid")
    q, r = (state.current + 1) % 4, (state.current + 2) % 4
    other = state.clone()
    c = other.hand[q][0]
    other.hand[q], other.hand[r] = swap(other.hand[q], c, other.hand[r], other_value(other, other.hand[r], c))
    fresh(other)
    same_for(state, other, [state.current, (state.current + 3) % 4])
    assert state.observation(q) != other.observation(q) and state.observation(r) != other.observation(r)


@pytest.mark.parametrize("seed", [1, 7])
def test_strip_slots_are_invisible_until_the_reveal(seed):
    _, state = midgame(4, seed, "tactics")
    q = state.current
    other = state.clone()
    x = next(x for x in range(REGIONS) if other.strip[q * REGIONS + x])
    c = other.strip[q * REGIONS + x][0]
    y = (x + 1) % REGIONS
    other.strip[q * REGIONS + x], other.strip[q * REGIONS + y] = move(other.strip[q * REGIONS + x], c,
                                                                      other.strip[q * REGIONS + y])
    fresh(other)
    same_for(state, other, [p for p in range(4) if p != q] + [None])
    assert state.observation(q) != other.observation(q)
    for s in (state, other):  # everyone sees every slot once revealed: the maps now differ
        while s.decision_name() == "tactics":
            s.apply_action(s.legal_actions()[0])
    assert state.observation(None)["regions"] != other.observation(None)["regions"]


def test_a_tactics_move_and_a_pass_look_alike():
    """France's first decision: move Spies from Europe to India, or Spies bid to India and a pass."""
    hand = ["navy#1", "spies#1"]
    moved = build(powers=["france", "britain", "spain", "dutch"], phase="bid", hands={A: hand})
    moved.apply_action(moved.string_to_action("assign spies#1 europe"))
    moved.apply_action(moved.string_to_action("assign navy#1 africa"))
    passed = build(powers=["france", "britain", "spain", "dutch"], phase="bid", hands={A: hand})
    passed.apply_action(passed.string_to_action("assign spies#1 india"))
    passed.apply_action(passed.string_to_action("assign navy#1 africa"))
    moved.apply_action(moved.string_to_action("move spies#1 india"))
    passed.apply_action(passed.string_to_action("pass"))
    assert moved.current == passed.current == A and moved.moves_left == passed.moves_left == 1
    same_for(moved, passed, [B, C, DD, None])
    assert moved.observation(A)["tactics"]["moved"] == ["spies#1"] and passed.observation(A)["tactics"]["moved"] == []


def test_the_dutch_development_hand_and_face_down_discards_are_invisible():
    state = build(phase="develop", dev_hands={DD: ["orient__tea", "orient__jade", "orient__silk"],
                                              A: ["europe__science", "europe__weapons"]})
    other = state.clone()
    jade, rum = D.dev_ids.index("orient__jade"), D.dev_ids.index("caribbean__rum")
    other.dev_hand[DD], other.dev_deck = swap(other.dev_hand[DD], jade, other.dev_deck, rum)
    same_for(state, fresh(other), [A, B, C, None])
    assert state.observation(DD) != other.observation(DD)
    for s in (state, other):
        s.apply_action(s.string_to_action("play europe__science"))
        s.apply_action(s.string_to_action("play orient__tea"))  # jade or rum goes face down
    same_for(state, other, [A, B, C, None])
    assert state.observation(DD)["development_face_down"] != other.observation(DD)["development_face_down"]


# ----- public differences -----

def test_public_differences_are_seen_by_everyone():
    _, state = midgame(4, 3, "bid")
    changes = []
    discard = state.clone()  # a card of the deck in the discard pile instead (public, R25)
    discard.deck, discard.discard = swap(discard.deck, discard.deck[0], discard.discard, discard.discard[0])
    changes.append(discard)
    board = state.clone()
    board.influence[0] += 1
    changes.append(board)
    face_up = state.clone()  # a non-Dutch development hand is face up
    q = next(p for p in range(4) if face_up.dev_hand[p] and not D.development_hidden[face_up.powers[p]])
    face_up.dev_hand[q], face_up.dev_deck = swap(face_up.dev_hand[q], face_up.dev_hand[q][0], face_up.dev_deck,
                                                 face_up.dev_deck[0])
    changes.append(face_up)
    for other in changes:
        for p in (*range(4), None):
            assert fresh(other).observation(p) != state.observation(p)


def test_observations_never_hold_hidden_parts_in_whole_games():
    for seed in range(3):
        players = 3 + seed

        def check(state, player, action, events):
            for p in range(players):
                seen = state.observation(p)
                json.dumps(seen)
                assert isinstance(seen["influence_deck"], int) and isinstance(seen["development_deck"], int)
                for entry in seen["seats"]:
                    q = entry["seat"]
                    hidden_dev = state.powers[q] >= 0 and D.development_hidden[state.powers[q]]
                    assert ("hand" in entry) == ("strip" in entry) == (q == p)
                    assert ("dev_hand" in entry) == (q == p or not hidden_dev)
                    assert entry["hand_size"] == len(state.hand[q])

        play_game({"game": "imperial_powers", "players": players, "turns": 2},
                  [RandomBot(seed + p) for p in range(players)], seed, on_step=check)


# ----- resample -----

@pytest.mark.parametrize("phase", ["bid", "develop", "tactics", "event_assign"])
def test_resample_redraws_only_the_hidden(phase):
    game, state = midgame(4, 11, phase, {"tactics_visibility": "regions_public"})
    me = state.current
    rng = random.Random(1)
    hands = set()
    for _ in range(20):
        other = game.resample(state, me, rng)
        assert other.observation(me) == state.observation(me)
        assert other.legal_actions() == state.legal_actions()
        assert check_invariants(other) == []
        hands.add(tuple(other.hand) + tuple(other.strip))
    assert len(hands) > 1 or not any(state.hand) and not any(state.strip)


def test_resample_keeps_every_observation_in_whole_games():
    for seed in range(4):
        config = {"game": "imperial_powers", "players": 3 + seed % 3, "turns": 2,
                  "tactics_visibility": ("hidden", "regions_public")[seed % 2]}
        game = make_game(config)
        rng = random.Random(seed)

        def check(state, player, action, events):
            for p in range(state.n):
                assert game.resample(state, p, rng).observation(p) == state.observation(p)

        play_game(config, [RandomBot(seed + p) for p in range(game.num_players)], seed, on_step=check)


def test_mcts_plays_through_observations():
    bots = [make_bot("mcts:playouts=4:depth=30", 1, game="imperial_powers")] + [RandomBot(p) for p in range(2)]
    played = play_game({"game": "imperial_powers", "players": 3, "turns": 1}, bots, 4)
    assert played.state.is_terminal() and played.state.winners()


# ----- after the Reveal -----

def revealed(strip: dict):
    """A turn whose Tactics all pass, seat B having bid ``strip``; the state after the Reveal and the
    Reveal's event."""
    state = build(phase="tactics", strips={B: strip})
    events = []
    while state.decision_name() == "tactics":
        events += state.apply_action(state.string_to_action("pass"))
    return state, next(e for e in events if e.kind == "revealed")


def test_the_revealed_strips_are_public_until_the_next_bid():
    """§5.5, §6.2: at the Reveal every strip is shown, so every seat may know which card lay under which
    region. Two strips of the same cards and the same totals per region (two cards of value 5
    swapped) give the same map and discard pile, but different observations to every other seat."""
    strip = {"europe": ["forts#1"], "india": ["governor#1"]}
    one, event = revealed(strip)
    two, _ = revealed({"europe": ["governor#1"], "india": ["forts#1"]})
    assert one.influence == two.influence and one.discard == two.discard and one.decision_name() == "event_draw"
    for p in (A, C, DD, None):
        assert one.observation(p)["seats"][B]["revealed"] == strip
        assert one.observation(p) != two.observation(p)
    assert "Europe: Forts (5); India: Governor (5)" in explain(event.to_json(), context_of_state(one), PUBLIC)
    phases = set()
    while one.decision_name() != "bid":  # the events, the End, the next Draw: still shown
        phases.add(one.decision_name())
        assert one.observation(A)["seats"][B]["revealed"] == strip
        if one.decision_name() == "event_assign":  # the words of the seat deciding say it too
            assert any("Strips at the Reveal: B: Europe: Forts (5); India: Governor (5)" in line
                       for line in decision_lines(one))
        one.apply_action(one.legal_actions()[0])
    assert {"event_assign", "draw"} <= phases
    assert all(entry["revealed"] == {} for entry in one.observation(A)["seats"])  # the new bids are secret again
