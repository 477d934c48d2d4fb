"""Plain words for people (issue 23): every game's words name regions, nations, tiles and cards by
their display names (core/games/<game>/words.py), count with the right plural (core/words.py), and a
refused action is told in one sentence naming its rule in words."""

from __future__ import annotations

import re

import pytest

from imperial_lab.core.games.imperial2030.action_words import choice_words
from imperial_lab.core.games.imperial2030.data import NATIONS, load_board
from imperial_lab.core.games.imperial2030.texts import refusal, rule_words, why_not_options
from imperial_lab.core.session import PlaySession
from imperial_lab.core.words import and_list, article, count

# A bare count of one with a plural noun: "1 spaces", "1 moves", "1 armies".
ONE_PLURAL = re.compile(r"(?<![\d.,])\b1 (spaces|moves|armies|fleets|flags|factories|points|power points|cards|tiles)\b")


def test_counts_articles_and_lists():
    assert count(1, "space") == "1 space" and count(2, "space") == "2 spaces"
    assert count(1, "army") == "1 army" and count(3, "army") == "3 armies" and count(0, "factory") == "0 factories"
    assert article("army") == "an army" and article("fleet") == "a fleet"
    assert and_list(["A"]) == "A" and and_list(["A", "B", "C"]) == "A, B and C" and and_list([]) == "nothing"


def _ids_in(text: str) -> list[str]:
    """The region ids (``new_delhi``) and nation codes (``IN``) a text for people shows."""
    board = load_board()
    words = set(re.findall(r"[A-Za-z_]+", text))
    return sorted(w for w in words if w in board.region_index and "_" in w or w in NATIONS)


@pytest.fixture(scope="module")
def sessions():
    """Two short games of Imperial 2030 with a person in seat A (the bots play on)."""
    out = []
    for seed in (3, 8):
        session = PlaySession({"game": "imperial2030", "players": 4, "setup": "standard"},
                              [None, "heuristic", "heuristic", "heuristic"], seed)
        out.append(session)
    return out


def test_the_decision_lines_and_notes_name_no_id_and_count_right(sessions):
    """What a person reads at each decision (terminal and Play page alike): the decision, the position
    lines, the note of each choice, the events of every move: no internal id, no "1 spaces"."""
    seen = 0
    for session in sessions:
        for _ in range(120):
            session.advance_to_human(limit=400)
            if session.is_over():
                break
            text = "\n".join(session.decision_lines() + [n for n in session.action_notes() if n])
            text += "\n".join(line for step in session.history(max(0, len(session.actions) - 30))
                              for line in step.lines)
            assert not _ids_in(text), (_ids_in(text), text)
            assert not ONE_PLURAL.search(text), text
            seen += 1
            session.play(session.legal()[-1])
    assert seen > 50


def test_every_move_played_has_words_not_notation():
    """Every move of a game (the chance deal, the bots', the person's) as the Play page lists it:
    in words (``Deal the flag cards …``, not ``deal BR,IN,CN,RU``), naming no internal id."""
    session = PlaySession({"game": "imperial2030", "players": 4, "setup": "standard"},
                          [None, "heuristic", "heuristic", "heuristic"], 5)
    for _ in range(25):
        session.advance_to_human(limit=400)
        session.play(session.legal()[0])
    texts = {step.text for step in session.history(0)}
    assert any(t.startswith("deal ") for t in texts) and len(texts) > 50
    for text in texts:
        words = choice_words(text)
        assert words != text and not _ids_in(words), (text, words)


def test_why_not_lists_tempting_actions_and_answers_in_one_sentence_with_its_rule(sessions):
    session = PlaySession({"game": "imperial2030", "players": 4, "setup": "standard"},
                          [None, "heuristic", "heuristic", "heuristic"], 5)
    session.advance_to_human()
    while not (session.state.decision_name() == "turn_start"  # a nation whose marker is on the rondel
               and session.state.to_json()["nations"][session.state.to_json()["turn"]["nation"]]["rondel"]):
        session.play(session.legal()[0])
        session.advance_to_human()
    options = why_not_options(session.state)
    legal = [session.state.action_to_string(a) for a in session.legal()]
    assert options[:len(legal)] == legal
    assert {f"rondel {space}" for space in ("factory", "investor", "taxation")} <= set(options)
    answers = [session.why(text) for text in options]
    refused = [why for why in answers if not why.legal]
    assert refused, "a rondel decision refuses some spaces (a long move costs more than the cash)"
    for why in refused:
        assert why.message.startswith("Not allowed: ") and why.message.endswith(").")
        assert "pending decision" not in why.message and "RULES.md" not in why.message
        assert not _ids_in(why.message), why.message
        assert re.search(r"\(§\d[\d.]* [A-Z][a-z]", why.message), why.message  # the rule with its title


def test_a_refusal_names_regions_and_nations_in_words():
    from imperial_lab.core.errors import IllegalActionError

    error = IllegalActionError("§7.1", "illegal action 'build new_delhi': new_delhi is not a home province of RU "
                                       "(pending decision: factory by Player A, nation RU)")
    assert refusal(None, None, error) == ("Not allowed: New Delhi is not a home province of Russia "
                                          "(§7.1 Factory).")
    assert rule_words("§7.4.6") == "§7.4.6 Protection of the last working factory"


def test_the_hint_says_how_its_search_went():
    from imperial_lab.core.session import Hint

    assert Hint(0, 152, [], 200).search_words == ("The search stopped early, after 152 of 200 playouts: its most "
                                                 "visited choice was so far ahead that the 48 playouts left could not "
                                                 "have overtaken it.")
    assert Hint(0, 200, [], 200).search_words == "The search used all 200 playouts."
    assert Hint(0, 0, [], 200).search_words == "There is only one choice: no search is needed."
    session = PlaySession({"game": "imperial2030", "players": 3, "setup": "standard"}, [None, "random", "random"], 5)
    session.advance_to_human()
    hint = session.hint(50)
    assert hint.asked == 50 and hint.playouts >= 50 and f"{hint.playouts} games in all" in hint.search_words


def test_imperia_actions_and_hands_in_words():
    from imperial_lab.core.games.imperia.action_words import action_words
    from imperial_lab.core.games.imperia.words import hand_words, tile_words

    assert action_words("place cav/d 3,2 SE") == "A slanted cavalry on 3,2, facing south-east"
    assert action_words("board 2A NW r180") == "Board 2, side A, in the top-left quarter, turned half round"
    assert action_words("swap enemy 4,3 3,5 N") == ("Direct troops: your soldier on 4,3 takes the enemy's place on 3,5, "
                                                    "facing north")
    assert hand_words({"gen/o": 1, "inf/d": 2}) == "1× straight general, 2× slanted infantry"
    assert tile_words("red:G3d-mob", "SE") == "red slanted mobilising general facing south-east"
