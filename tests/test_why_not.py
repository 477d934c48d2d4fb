"""Why not? without typing, for Imperia and Imperial Powers (issue 23; Imperial 2030's is in
tests/test_words.py): each game's texts list the decision's legal actions, then the tempting refused
ones, and answer a refused one in one sentence naming its rule by its section title, in words (no
ids, no notation), from what the seat to move may know (its own hand, never another's)."""

from __future__ import annotations

import re

import pytest

from imperial_lab.core.games.imperia import texts as imperia_texts
from imperial_lab.core.games.imperia.builders import build as imperia_position
from imperial_lab.core.games.imperial_powers import texts as ip_texts
from imperial_lab.core.games.imperial_powers.builders import build as ip_position
from imperial_lab.core.games.imperial_powers.data import data
from imperial_lab.core.errors import ImperialError
from imperial_lab.core.lessons import lessons_dir, load_catalogue
from imperial_lab.core.session import PlaySession

# Notation a player must never read: Imperia's tile types and facings, Imperial Powers' ids.
IMPERIA_NOTATION = re.compile(r"\b(?:gen|cav|inf)/|\b(?:N|NE|E|SE|S|SW|W|NW)\b|pending|RULES\.md")
IP_IDS = {*data().regions, *data().powers, *data().dev_ids}
RULE_WITH_TITLE = r"\((?:§\d[\d.]*(?: [GR]\d+)?|R\d+) [A-Z][a-z ]"


def answers(state, texts) -> dict[str, str]:
    """Every refused option of the decision -> the game's answer (the engine refuses it on a copy)."""
    legal = {state.action_to_string(a) for a in state.legal_actions()}
    out = {}
    for text in texts.why_not_options(state):
        if text in legal:
            continue
        try:
            state.clone().apply_action(state.string_to_action(text))
        except ImperialError as exc:
            out[text] = texts.refusal(state, state.string_to_action(text), exc)
        else:
            raise AssertionError(f"{text} is offered as refused but the engine plays it")
    return out


def assert_one_sentence_with_its_rule(answer: str) -> None:
    assert answer.startswith("Not allowed: ") and answer.endswith(").") and answer.count(". ") == 0, answer
    assert re.search(RULE_WITH_TITLE, answer), answer


def assert_legal_first(state, texts) -> list[str]:
    options = texts.why_not_options(state)
    legal = [state.action_to_string(a) for a in state.legal_actions()]
    assert options[:len(legal)] == legal and len(set(options)) == len(options)
    return options


# ----- Imperia -----

def imperia_turn(yellow_hand=("gen/o", "gen/d", "cav/o")):
    """Red's turn: its front an infantry on 2,2 facing south, the next space 3,2 held by yellow's
    straight cavalry (which red's infantry may not cover, §6.3)."""
    return imperia_position(stacks={(2, 2): ["R-inf/o>S"], (3, 2): ["Y-cav/o>E"]}, cubes={"R": (2, 2)},
                            hands={"R": ["inf/o", "cav/d", "gen/o"], "Y": list(yellow_hand)})


def test_imperia_lists_each_tile_of_the_hand_on_the_next_space_elsewhere_and_the_warlord():
    state = imperia_turn()
    options = assert_legal_first(state, imperia_texts)
    assert {"place inf/o 3,2 S", "place inf/o 3,2 NE", "place cav/d 3,2 N", "warlord 3,2", "warlord 2,2"} <= set(options)
    assert any(text.startswith("place gen/o ") and " 3,2 " not in text for text in options)  # beside the fortress
    assert not [text for text in options if text.split()[:2] in (["place", "inf/d"], ["place", "gen/d"])]  # not in hand


def test_imperia_answers_name_the_rule_in_words_and_no_notation():
    state = imperia_turn()
    said = answers(state, imperia_texts)
    assert said
    for answer in said.values():
        assert_one_sentence_with_its_rule(answer)
        assert not IMPERIA_NOTATION.search(answer), answer
    assert said["place inf/o 3,2 S"] == ("Not allowed: Player B (lemon yellow)'s straight cavalry on 3,2 outranks "
                                         "your tile (§6.3 Entering a space).")
    assert said["place inf/o 3,2 NE"] == ("Not allowed: a straight infantry faces only north, east, south or west "
                                          "(§6.5 Placing a tile).")


def test_imperia_a_campaign_that_must_go_on_and_a_protected_front():
    empty_next = imperia_position(stacks={(2, 2): ["R-inf/o>S"]}, cubes={"R": (2, 2)},
                                  hands={"R": ["inf/o", "cav/d", "gen/o"]})
    said = answers(empty_next, imperia_texts)
    elsewhere = next(text for text in said if text.startswith("place ") and " 3,2 " not in text)
    assert "your next space 3,2 is empty and usable: the campaign must go on there (§6.4 The choices of a turn)" \
        in said[elsewhere]
    front = imperia_position(stacks={(2, 2): ["R-inf/o>S"], (3, 2): ["Y-inf/o>E"]}, cubes={"R": (2, 2), "Y": (3, 2)},
                             hands={"R": ["inf/o", "cav/d", "gen/o"]})
    assert "is Player B (lemon yellow)'s front: no tile may cover it (§6.3" in answers(front, imperia_texts)[
        "place inf/o 3,2 S"]


def test_imperia_options_and_answers_use_only_the_seats_own_hand():
    """Another hand changes nothing a seat is told (§7.2)."""
    mine, other = imperia_turn(), imperia_turn(yellow_hand=("inf/d", "inf/o", "cav/d"))
    assert imperia_texts.why_not_options(mine) == imperia_texts.why_not_options(other)
    assert answers(mine, imperia_texts) == answers(other, imperia_texts)


def test_imperia_a_generals_orders_are_listed_and_refused_in_words():
    """A game of 3 until red's general gives an order: mobilise, swaps with own and enemy soldiers."""
    session = PlaySession({"game": "imperia", "players": 3}, [None, "heuristic", "heuristic"], 12)
    for _ in range(60):
        session.advance_to_human()
        if session.state.decision_name() == "order" or session.is_over():
            break
        legal = [session.state.action_to_string(a) for a in session.legal()]
        general = next((k for k, text in enumerate(legal) if text.startswith("place gen")), 0)
        session.play(session.legal()[general])
    state = session.state
    assert state.decision_name() == "order"
    options = assert_legal_first(state, imperia_texts)
    assert {text.split()[0] for text in options} >= {"mobilise", "swap"}
    said = answers(state, imperia_texts)
    assert said
    for answer in said.values():
        assert_one_sentence_with_its_rule(answer)
        assert not IMPERIA_NOTATION.search(answer), answer


# ----- Imperial Powers -----

def ip_words_only(answer: str) -> None:
    assert_one_sentence_with_its_rule(answer)
    assert "#" not in answer and not set(re.findall(r"[a-z_]+", answer)) & IP_IDS, answer
    assert "pending" not in answer and "RULES.md" not in answer


def test_ip_the_bid_lists_each_card_of_the_hand_under_each_region():
    hand = ["navy#1", "spies#1", "fleet#1", "agents#1", "treaty#1"]
    state = ip_position(phase="bid", hands={0: hand})
    options = assert_legal_first(state, ip_texts)
    assert {f"assign {card} {region}" for card in hand for region in data().regions} == set(options)
    said = answers(state, ip_texts)
    assert said["assign navy#1 europe"] == ("Not allowed: your cards are bid one at a time in a fixed order: "
                                            "Spies (1) is next (§5.2 Bid).")
    for answer in said.values():
        ip_words_only(answer)


def test_ip_a_seats_options_and_answers_never_use_another_hand():
    mine = ip_position(phase="bid", hands={0: ["navy#1", "spies#1"], 1: ["fleet#1", "agents#1"]})
    other = ip_position(phase="bid", hands={0: ["navy#1", "spies#1"], 1: ["treaty#1", "explorers#1"]})
    assert ip_texts.why_not_options(mine) == ip_texts.why_not_options(other)
    assert answers(mine, ip_texts) == answers(other, ip_texts)
    assert not [text for text in ip_texts.why_not_options(mine) if "fleet#1" in text or "agents#1" in text]


def test_ip_development_tactics_and_events_are_refused_in_words():
    develop = ip_position(phase="develop", dev_hands={0: ["europe__shipbuilding", "africa__gold"],
                                                      1: ["europe__weapons", "orient__tea"]})
    options = assert_legal_first(develop, ip_texts)
    assert len(options) == len(data().dev_ids)  # every development card
    said = answers(develop, ip_texts)
    assert said["play europe__weapons"] == ("Not allowed: Europe: Weapons (4R) is not among your development "
                                            "cards (§5.3 Develop).")
    tactics = ip_position(phase="tactics", strips={0: {"europe": ["navy#1"], "india": ["spies#1"]}})
    options = assert_legal_first(tactics, ip_texts)
    assert "move navy#1 europe" in options and "pass" in options
    said |= answers(tactics, ip_texts)
    assert "Navy (9) is under Europe already: a move goes to another region (§5.4 Tactics)" in said["move navy#1 europe"]
    events = ip_position(phase="event_draw")
    for text in ("event conquest", "event to europe", "event revolution"):
        events.apply_action(events.string_to_action(text))
    assert_legal_first(events, ip_texts)
    said |= answers(events, ip_texts)
    assert said["event to europe"] == "Not allowed: Europe already has an event this turn (R18 The event deck)."
    for answer in said.values():
        ip_words_only(answer)


def test_ip_every_power_is_listed_and_a_taken_one_refused():
    session = PlaySession({"game": "imperial_powers", "players": 3, "power_assignment": "pick"},
                          [None, "random", "random"], 4)  # seat C (the instigator) picks first, then A
    session.advance_to_human()
    while session.state.observation(0)["phase"] != "choose_power":
        session.play(session.legal()[0])
        session.advance_to_human()
    state = session.state
    options = assert_legal_first(state, ip_texts)
    assert len(options) == len(data().powers) > len(session.legal())
    for answer in answers(state, ip_texts).values():
        ip_words_only(answer)
        assert "is already taken (R3 Choosing powers)" in answer


@pytest.mark.parametrize("game, texts, notation", [("imperia", imperia_texts, IMPERIA_NOTATION),
                                                   ("imperial_powers", ip_texts, None)])
def test_every_lessons_position_is_answered_in_words(game, texts, notation):
    """The lessons' positions (small, hand-made: a front without a fortress, a general's order, the
    end of a bid): every refused option answered in one sentence naming its rule, no notation."""
    lessons, errors = load_catalogue(lessons_dir(game))
    assert lessons and not errors
    kinds = set()
    for lesson in lessons:
        state = lesson.state()
        assert_legal_first(state, texts)
        kinds.add(state.decision_name())
        for answer in answers(state, texts).values():
            if notation is None:
                ip_words_only(answer)
            else:
                assert_one_sentence_with_its_rule(answer)
                assert not notation.search(answer), answer
    assert len(kinds) >= 2
