"""Imperia's dashboard pages (dashboard/games/imperia/): the board's SVG at every step of random
games (well-formed, every stack's top tile with its facing and height, every front cube, no peeking
hiding what lies under the tops), every event in words with a section of the rules reference, and
through Streamlit's AppTest the explorer stepping an uploaded log, the Rules page, and the Play page:
each player's chance to win under the board (its steps matched to the explorer's, nothing hidden
named), a game played to the end against random bots, undo, a reload, save and resume (a bad upload changes
nothing), the bots watched move by move, and hot-seat, where the device is handed over and no person
ever sees another's hand (§7.2), nor after a reload or a resume. AppTest drives ``imperial_lab.dashboard.app.run``
and switches to the page before its first run, so no first-start dataset is played."""

from __future__ import annotations

import io
import json
import re
import xml.etree.ElementTree as ET

import pytest
from streamlit.testing.v1 import AppTest

from imperial_lab.core.analysis import big_swings, swing_words, win_chance_line
from imperial_lab.core.bots import make_bot
from imperial_lab.core.gamelog import write_log
from imperial_lab.dashboard import logkit
from imperial_lab.dashboard.games.imperia.boardview import board_svg
from imperial_lab.core.games.imperia.words import tile_words
from imperial_lab.core.games.imperia.explain import explain
from imperial_lab.core.games.imperia.action_words import action_words
from imperial_lab.core.games.imperia.words import hand_words as words_of_hand, type_words, who
from imperial_lab.dashboard.games.imperia.replay import replay_text
from imperial_lab.core.games.imperia.rules_text import REFERENCE
from imperial_lab.core.play import play_game
from imperial_lab.dashboard.pages import sections as navigation
from imperial_lab.dashboard.playkit import PERSON
from tests.lab_fixtures import open_page
from tests.chart_support import chance_chart, seat_lines

SVG = "{http://www.w3.org/2000/svg}"


def log_text(players: int, seed: int, bot: str = "random") -> str:
    bots = [make_bot(bot, seed * 10 + p, game="imperia") for p in range(players)]
    played = play_game({"game": "imperia", "players": players}, bots, seed=seed, record=True)
    out = io.StringIO()
    write_log(out, played, seed=seed, bots=[bot] * players)
    return out.getvalue()


GAMES = [(2, 1), (3, 2), (4, 3), (4, 4)]


@pytest.fixture(scope="module")
def replays():
    return [replay_text(log_text(n, seed), f"game{n}-{seed}") for n, seed in GAMES]


def by_class(root, name: str) -> list:
    return [e for e in root.iter() if e.get("class") == name]


# ----- the board -----

def test_the_board_is_well_formed_and_draws_every_top_tile_facing_and_cube(replays):
    for replay in replays:
        assert replay.error is None and replay.snapshots[-1].terminal
        for snapshot in replay.snapshots:
            position = snapshot.position
            root = ET.fromstring(board_svg(position))  # raises on a malformed document
            assert len(by_class(root, "space")) == 64
            tiles = {e.get("data-tile"): e for e in by_class(root, "tile")}
            assert len(tiles) == len(position["stacks"])
            for stack in position["stacks"]:
                top = tiles[stack["tiles"][-1]]
                assert top.get("data-height") == str(len(stack["tiles"]))
                facing = stack["facings"][-1]
                arrows = [e.get("data-facing") for e in top.iter(f"{SVG}polygon")]
                assert arrows == ([] if facing is None else [facing])
            cubes = {(e.get("data-seat")) for e in by_class(root, "cube")}
            assert cubes == {str(p["seat"]) for p in position["players"] if p["cube"] is not None}
            forts = by_class(root, "fortress")
            assert len(forts) == sum(f is not None for f in position["fortresses"])
        covered = [e for e in by_class(root, "space") if e.get("data-terrain") == "#"]
        assert len(covered) == {2: 32, 3: 12, 4: 0}[replay.players]  # §2.4


def test_no_peeking_shows_only_the_top_tiles(replays):
    snapshot = replays[-1].snapshots[-1]
    stack = next(s for s in snapshot.position["stacks"] if len(s["tiles"]) > 1)
    r, c = stack["space"]

    def title(no_peeking: bool) -> str:
        root = ET.fromstring(board_svg(snapshot.position, no_peeking=no_peeking))
        space = next(e for e in by_class(root, "space") if e.get("data-space") == f"{r},{c}")
        return space.find(f"{SVG}title").text

    below = tile_words(stack["tiles"][0], stack["facings"][0])
    assert "bottom to top" in title(False) and f"1. {below}" in title(False)
    hidden = title(True)
    assert "bottom to top" not in hidden and f"stack of {len(stack['tiles'])}" in hidden
    assert tile_words(stack["tiles"][-1], stack["facings"][-1]) in hidden
    # The whole drawing names no tile but the tops.
    svg = board_svg(snapshot.position, no_peeking=True)
    tops = {s["tiles"][-1] for s in snapshot.position["stacks"]}
    assert set(re.findall(r'data-tile="([^"]+)"', svg)) == tops


def test_every_event_has_words_and_a_section_of_the_reference(replays):
    kinds = set()
    for replay in replays:
        for snapshot in replay.snapshots:
            for event in snapshot.events:
                kinds.add(event["kind"])
                words = explain(event, snapshot.position)
                assert words and words != event["kind"]
                assert REFERENCE.section(event["rule"]) is not None, event["rule"]
    assert {"start_seat", "board_placed", "fortress_placed", "drawn", "placed", "warlord", "game_ended"} <= kinds
    assert {"§6.4", "§6.6", "§9", "§11 G21"} <= set(REFERENCE.sections)


def test_another_seats_draw_hides_the_tile():
    event = {"kind": "drawn", "rule": "§6.5", "seat": 1, "tile": 4}
    assert "infantry" in explain(event) and "hidden" in explain(event, viewer=0)
    assert "infantry" in explain(event, viewer=1)


def test_the_navigation_has_a_section_for_imperia():
    sections_ = navigation()
    assert list(sections_)[-1] == "Lab" and "Imperia" in sections_
    urls = [page.url_path for pages in sections_.values() for page in pages]
    assert len(urls) == len(set(urls))  # every page has a URL of its own
    assert [p.url_path for p in sections_["Imperia"]] == ["imperia_explorer", "imperia_play", "imperia_lessons",
                                                          "imperia_rules", "imperia_runs"]


# ----- the pages (AppTest) -----

@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("IMPERIAL_LAB_CATALOG", str(tmp_path / "lab.duckdb"))  # empty: upload only
    return tmp_path


def texts(elements) -> list[str]:
    return [e.value for e in elements]


def test_the_explorer_steps_an_uploaded_log(home):
    text = log_text(4, 3)
    last = len(text.splitlines()) - 1
    at = open_page("imperia_explorer.py")
    assert at.radio(key="imperia_source").value == "an uploaded move log"
    at.file_uploader(key="imperia_upload").upload("game.jsonl", text.encode()).run()
    assert not at.exception and texts(at.subheader) == ["Before the first action"]
    at.button(key="imperia_next").click().run()
    assert texts(at.subheader) == [f"Step 1 of {last} · Chance"]
    step = "\n".join(texts(at.markdown))
    assert "begins, the others follow clockwise" in step and "[§3.1 Who starts](/imperia_rules?section=3.1)" in step
    for _ in range(2):
        at.button(key="imperia_next").click().run()
    assert texts(at.subheader)[0].startswith(f"Step 3 of {last} · Player ")
    assert "§3.2 Building the battlefield" in "\n".join(texts(at.markdown))
    at.button(key="imperia_back").click().run()
    assert texts(at.subheader)[0].startswith(f"Step 2 of {last} · Player ")
    at.button(key="imperia_last").click().run()
    assert texts(at.subheader)[0].startswith(f"Step {last} of {last}")
    assert "the game is over" in at.success[0].value
    assert any("Final scores" in m and "§9 Scoring" in m for m in texts(at.markdown))
    at.toggle(key="imperia_no_peeking").set_value(True).run()
    board = next(m for m in texts(at.markdown) if "imperia-board" in m)
    assert 'data-peeking="no"' in board and "bottom to top" not in board
    at.button(key="imperia_first").click().run()
    assert texts(at.subheader) == ["Before the first action"]


def test_the_explorer_says_which_line_of_a_log_is_bad(home):
    lines = log_text(2, 1).splitlines()
    lines[5] = '{"player": 0, "action": "fortress 9,9"}'
    at = open_page("imperia_explorer.py")
    at.file_uploader(key="imperia_upload").upload("bad.jsonl", "\n".join(lines).encode()).run()
    assert not at.exception and "line 6" in at.error[0].value and "not the one to decide" in at.error[0].value
    at.button(key="imperia_last").click().run()
    assert texts(at.subheader)[0].startswith("Step 4 of 4 · ")  # the four good actions


def test_the_explorer_draws_each_players_chance_to_win_after_every_placement_turn(home):
    text = log_text(4, 3)
    line = win_chance_line(text.splitlines())
    actions, chances = [row[1] for row in line], [row[3] for row in line]
    at = open_page("imperia_explorer.py")
    at.file_uploader(key="imperia_upload").upload("game.jsonl", text.encode()).run()
    figure = chance_chart(at)
    seats = seat_lines(figure)
    assert [t["name"] for t in seats] == [who(seat) for seat in range(4)]  # one line per seat, its colour
    assert seats[0]["y"] == pytest.approx([row[0] for row in chances]) and seats[0]["x"] == list(range(len(line)))
    marked = [t for t in figure["data"] if t["name"] == "big swing"]
    assert (marked[0]["x"] if marked else []) == big_swings(chances)
    assert not figure["layout"].get("shapes")  # before the first placement turn: no step marked
    assert any("after every placement turn, as the lab's learned evaluator judges it (public information only"
               in c.value for c in at.caption)
    assert f"The chances to win begin at the first placement turn (step {actions[0]})." in page_text(at)
    at.slider(key="imperia_step").set_value(actions[0]).run()
    assert chance_chart(at)["layout"]["shapes"][0]["x0"] == 0
    assert "**Chances to win at the first placement turn:** Player A (red) " in page_text(at)
    here = actions[5] + 1  # inside the sixth placement turn: the chance at its start
    at.slider(key="imperia_step").set_value(here).run()
    assert chance_chart(at)["layout"]["shapes"][0]["x0"] == 5
    swing = swing_words(f"Player {'ABCD'[line[4][2]]}'s placement turn 5", chances[4], chances[5])
    assert f"**The swing up to here:** {swing}." in page_text(at)
    peeking = chance_chart(at)
    at.toggle(key="imperia_no_peeking").set_value(True).run()
    assert chance_chart(at) == peeking  # public information only: the same line either way
    assert not re.search(r"general|cavalry|infantry|warlord|gen/|cav/|inf/", json.dumps(peeking))  # no tile named
    at.button(key="imperia_last").click().run()
    assert chance_chart(at)["layout"]["shapes"][0]["x0"] == len(line) - 1
    assert "the end of the game" in json.dumps(chance_chart(at)) and 1.0 in chances[-1]


def test_a_chance_steps_explorer_step_and_a_click_go_both_ways():
    actions = [21, 23, 25, 28, 140]
    assert [logkit.step_at(actions, i) for i in (0, 20, 21, 22, 23, 27, 28, 139, 140, 500)] == \
        [None, None, 0, 0, 1, 2, 3, 3, 4, 4]
    assert logkit.clicked_action([{"x": 2, "y": 0.3, "curve_number": 0}], actions) == 25
    assert logkit.clicked_action([{"x": 4}], actions) == 140 and logkit.clicked_action([], actions) is None
    for k, action in enumerate(actions):  # a click goes to the step, and the step shows the point clicked
        assert logkit.step_at(actions, logkit.clicked_action([{"x": k}], actions)) == k == \
            logkit.step_at(actions, action)


def test_a_game_without_an_evaluator_has_no_chance_line(monkeypatch):
    import imperial_lab.core.bots

    text = log_text(2, 5)
    assert logkit.chance_line("imperia", "too-short", text, 3) is None  # stops before the first placement turn
    assert logkit.chance_line("imperia", "whole", text)[-1][3] in ([1.0, 0.0], [0.0, 1.0], [0.5, 0.5])
    monkeypatch.setattr(imperial_lab.core.bots, "has_evaluator_part", lambda owner: False)
    assert logkit.chance_line("imperia", "no-evaluator", text) is None


# ----- the Play page -----

def start_play(seats=(PERSON, "random"), seed: int = 11, watch: bool = False) -> AppTest:
    """The Play page with a game started: ``seats`` a person's (PERSON) or a bot's."""
    at = open_page("imperia_play.py")
    at.session_state["imperia_play_watch"] = watch
    at.selectbox(key="imperia_play_players").set_value(len(seats)).run()
    for p, choice in enumerate(seats):
        at.selectbox(key=f"imperia_play_seat_{p}").set_value(choice)
    at.number_input(key="imperia_play_seed_input").set_value(seed)
    at.button(key="imperia_play_start").click().run()
    assert not at.exception, at.exception
    return at


def session_of(at: AppTest):
    return at.session_state["imperia_play_session"]


def play_first(at: AppTest) -> AppTest:
    """Play the first legal action (the choice the page offers first)."""
    at.button(key="imperia_play_move").click().run()
    assert not at.exception, at.exception
    return at


def page_text(at: AppTest) -> str:
    return "\n".join(texts(at.markdown))


def hands_row(at: AppTest, seat: int) -> str:
    hands = next(m for m in texts(at.markdown) if m.startswith("**Hands and piles**"))
    return next(line for line in hands.splitlines() if line.startswith(f"| {who(seat)}"))


def hand_words(session, seat: int) -> str:
    """``seat``'s hand as the page writes it (``1× straight cavalry, 2× slanted infantry``)."""
    return words_of_hand(session.state.observation(seat)["players"][seat]["hand"])


def hand_names(session) -> set[str]:
    """The tile types in any seat's hand, in notation (``gen/o``) and in words (``straight general``)."""
    seats = range(session.game.num_players)
    names = {name for p in seats for name in session.state.observation(p)["players"][p]["hand"]}
    return names | {type_words(name) for name in names}


def assert_handed_over(at: AppTest, seat: int) -> None:
    """The hand-over screen for ``seat``, and nothing private: no hand, no choice, no hand's tile."""
    page = page_text(at)
    assert f"**Pass the device to {who(seat)}.**" in page and "**Hands and piles**" not in page
    assert not [name for name in hand_names(session_of(at)) if name in page]
    assert "imperia_play_move" not in [b.key for b in at.button] and not at.subheader
    assert not [w for w in at.selectbox if w.key.startswith("imperia_play_why_")]  # no Why not? of a hand


def test_the_play_page_plays_a_two_player_game_to_the_end(home):
    at = start_play()
    assert texts(at.subheader) == ["Your turn, Player A (red)"]
    seen = set()
    for _ in range(40):  # each time the first legal action
        if texts(at.subheader) == ["Game over"]:
            break
        hands = next(m for m in texts(at.markdown) if m.startswith("**Hands and piles**"))
        if re.search(r"Player A \(red\) \(you\) \| \d× ", hands):  # the person's own tiles
            seen.add("own types")
        if "Player B (lemon yellow) | 3 tiles" in hands:  # the bot's: only a count (§7.2)
            seen.add("other's count")
        play_first(at)
    assert texts(at.subheader) == ["Game over"] and seen == {"own types", "other's count"}
    assert "the game is over" in (at.success or at.info)[0].value
    assert any(m.startswith("**Final scores**") for m in texts(at.markdown))
    game_id = at.query_params["game"]
    assert (home / "play" / f"{game_id}.jsonl").read_text() == session_of(at).to_log()


def test_undo_restores_the_position_before_the_persons_last_decision(home):
    at = start_play(seats=(PERSON, "heuristic"), seed=5)
    assert at.button(key="imperia_play_undo").disabled
    for _ in range(3):  # into the turns, where the bot answers each decision
        play_first(at)
    s = session_of(at)
    before, position, text = list(s.actions), s.state.to_json(), s.state.action_to_string(s.legal()[0])
    play_first(at)
    assert len(session_of(at).actions) > len(before) + 1  # the bot replied
    at.button(key="imperia_play_undo").click().run()
    assert not at.exception, at.exception
    assert session_of(at).actions == before and session_of(at).state.to_json() == position
    assert f"Undone: Player A (red)'s decision “{action_words(text)}” (`{text}`) and the " in texts(at.info)[0]
    assert texts(at.subheader) == ["Your turn, Player A (red)"]


def test_a_reload_reopens_the_game(home):
    at = start_play(seats=(PERSON, "heuristic"), seed=8)
    for _ in range(6):
        play_first(at)
    game_id = at.query_params["game"]
    reloaded = open_page("imperia_play.py", {"game": game_id})  # a new browser session at the same address
    assert session_of(reloaded).actions == session_of(at).actions
    assert texts(reloaded.subheader) == texts(at.subheader) and hands_row(reloaded, 0) == hands_row(at, 0)
    play_first(at)
    play_first(reloaded)
    assert session_of(reloaded).actions == session_of(at).actions  # the bots go on as they would have
    unknown = open_page("imperia_play.py", {"game": "0000000000"})
    assert "There is no game" in unknown.warning[0].value and "game" not in unknown.query_params


def test_a_game_of_another_game_is_not_opened_here(home):
    from imperial_lab.core.session import PlaySession
    from imperial_lab.dashboard.playkit import save_game

    imperial = PlaySession({"game": "imperial2030", "players": 3}, [None, "random", "random"], seed=1)
    save_game(home / "play", "imperial1", imperial)
    at = open_page("imperia_play.py", {"game": "imperial1"})
    assert "There is no game" in at.warning[0].value and "imperia_play_session" not in at.session_state
    at.file_uploader(key="imperia_play_upload").set_value(("imperial.jsonl", imperial.to_log().encode(),
                                                           "application/jsonl")).run()
    assert len(at.error) == 1 and "imperial.jsonl is a game of Imperial 2030, not of Imperia" in at.error[0].value


def test_save_then_resume_continues_the_game(home):
    at = start_play(seats=(PERSON, "heuristic"), seed=7)
    for _ in range(5):
        play_first(at)
    assert at.download_button(key="imperia_play_save").label == "Save"
    log = session_of(at).to_log()
    other = open_page("imperia_play.py")
    other.file_uploader(key="imperia_play_upload").set_value(("my game.jsonl", log.encode(), "application/jsonl"))
    other.run()
    assert not other.exception, other.exception
    resumed = session_of(other)
    assert resumed.actions == session_of(at).actions and resumed.seats == [None, "heuristic"] and resumed.seed == 7
    assert other.query_params["game"] != at.query_params["game"]  # a game of its own
    assert "Resumed my game.jsonl after " in other.success[0].value
    play_first(at)
    play_first(other)
    assert session_of(other).actions == session_of(at).actions  # it goes on as the original


def test_a_malformed_upload_gives_one_error_line_and_changes_nothing(home):
    at = start_play(seats=(PERSON, "heuristic"), seed=7)
    play_first(at)
    s, game_id, actions = session_of(at), at.query_params["game"], list(session_of(at).actions)
    bad = ('{"game": "imperia", "format": 1, "config": {"game": "imperia", "players": 2}}\n'
           '{"player": 0, "action": "x"}\n')
    at.file_uploader(key="imperia_play_upload").set_value(("bad.jsonl", bad.encode(), "application/jsonl")).run()
    assert not at.exception, at.exception
    assert len(at.error) == 1 and "cannot be resumed" in at.error[0].value and "bad.jsonl:2:" in at.error[0].value
    assert session_of(at) is s and s.actions == actions and at.query_params["game"] == game_id
    assert texts(at.subheader) == ["Your turn, Player A (red)"]  # the game goes on, shown as before


def test_hot_seat_hands_the_device_over_and_never_shows_the_other_hand(home):
    at = start_play(seats=(PERSON, PERSON), seed=3)
    holder, handed = None, 0  # nobody has the device before the first hand-over
    while not session_of(at).is_over():
        s = session_of(at)
        p = s.waiting_for()
        if p != holder:  # another person decides: only the hand-over screen, until they click
            assert_handed_over(at, p)
            at.button(key="imperia_play_hand_over").click().run()
            assert not at.exception, at.exception
            holder, handed = p, handed + bool(hand_names(s))
        assert "imperia_play_hand_over" not in [b.key for b in at.button]
        assert texts(at.subheader) == [f"Your turn, {who(p)}"]
        other, sizes = 1 - p, [entry["hand_size"] for entry in s.state.observation(None)["players"]]
        assert hands_row(at, p).startswith(f"| {who(p)} (you) | {hand_words(s, p)} |")  # the right hand
        assert hands_row(at, other).startswith(f"| {who(other)} | {sizes[other]} tiles |")  # the other's: a count
        play_first(at)
    assert handed >= 3  # hands were held on both sides of a hand-over


def test_a_resumed_or_reloaded_hot_seat_game_shows_only_the_seat_to_move(home):
    from imperial_lab.core.session import PlaySession

    hot = PlaySession({"game": "imperia", "players": 2}, [None, None], seed=3)
    for _ in range(12):
        hot.play(hot.legal()[0]) if hot.waiting_for() is not None else hot.advance_to_human()
    p = hot.waiting_for()
    assert p is not None and hand_names(hot)  # in the turns: both hands hold tiles
    at = open_page("imperia_play.py")
    at.file_uploader(key="imperia_play_upload").set_value(("hot.jsonl", hot.to_log().encode(), "application/jsonl"))
    at.run()
    assert not at.exception, at.exception
    assert session_of(at).seats == [None, None] and session_of(at).actions == hot.actions
    assert_handed_over(at, p)
    at.button(key="imperia_play_hand_over").click().run()
    assert texts(at.subheader) == [f"Your turn, {who(p)}"] and hand_words(hot, p) in hands_row(at, p)
    assert "(you)" not in hands_row(at, 1 - p)
    reloaded = open_page("imperia_play.py", {"game": at.query_params["game"]})
    assert_handed_over(reloaded, p)


def test_watching_the_bots_move_by_move(home):
    at = start_play(seats=(PERSON, "heuristic"), seed=2, watch=True)
    assert session_of(at).actions == [] and texts(at.subheader) == ["Next to move: Chance"]  # who starts (§3.1)
    at.button(key="imperia_play_next").click().run()
    assert len(session_of(at).actions) == 1 and at.query_params["watch"] == "1"
    at.button(key="imperia_play_skip").click().run()
    assert session_of(at).waiting_for() == 0 and texts(at.subheader) == ["Your turn, Player A (red)"]


def test_the_rules_page_renders_and_opens_an_asked_section(home):
    at = open_page("imperia_rules.py")
    assert texts(at.title) == ["Rules of Imperia"]
    assert [e.label for e in at.expander][:3] == ["§1 What is in the box", "§2 The board", "§3 Setting up"]
    at = open_page("imperia_rules.py", {"section": "6.6"})
    assert at.markdown and any(m.startswith("## §6.6 A general's orders") for m in texts(at.markdown))


def test_the_play_page_shows_the_choice_in_words_and_previews_it_on_the_board(home):
    """The choices in words (no ``gen/o`` or ``NW r0``); the board rings where the chosen kind may go,
    with a dot at each side a tile may face, and shows the chosen action as it will be."""
    at = start_play()
    s = session_of(at)
    action = next(w for w in at.selectbox if w.key.startswith("imperia_play_action_"))
    labels = action.options  # as the page writes them
    assert labels and not [label for label in labels if "/" in label or " r0" in label]
    assert s.state.decision_name() == "board" and not any(c != "." for row in s.state.to_json()["terrain"] for c in row)
    board = next(m for m in texts(at.markdown) if "imperia-board" in m)
    assert 'data-terrain="F"' in board  # the board chosen, shown laid before it is played
    while s.state.decision_name() != "turn":  # on to a tile: where it may go, and its facings
        at = play_first(at)
        s = session_of(at)
    board = next(m for m in texts(at.markdown) if "imperia-board" in m)
    assert 'class="preview"' in board and 'class="target"' in board and 'class="facing-target"' in board


def test_why_not_lists_the_turns_actions_in_words_and_names_the_rule(home):
    """Why not? without typing: the decision's actions in words (✓ allowed, ✗ refused: a tile of the
    hand elsewhere or facing the wrong way, the warlord); a refused one is answered naming its rule,
    linked to the rules page."""
    at = start_play()
    while session_of(at).state.decision_name() != "turn":
        at = play_first(at)
    s = session_of(at)
    legal = [s.state.action_to_string(a) for a in s.legal()]
    why = at.selectbox(key=f"imperia_play_why_{s.changes}")
    assert why.options[:len(legal)] == [f"✓ {action_words(text)}" for text in legal]
    assert not [label for label in why.options if "/" in label or re.search(r"\b(?:NE|SE|SW|NW)\b", label)]
    refused = [text for text in s.why_options() if text not in legal]
    assert refused and len(why.options) == len(legal) + len(refused)
    assert f"✗ {action_words(refused[0])}" in why.options
    why.set_value(refused[0]).run()
    warning = "\n".join(texts(at.warning))
    assert f"**{action_words(refused[0])}**: Not allowed: " in warning and "(/imperia_rules?section=6" in warning
    assert "pending" not in warning and "RULES.md" not in warning
    at.selectbox(key=f"imperia_play_why_{s.changes}").set_value(legal[0]).run()
    assert f"**{action_words(legal[0])}** is allowed here: choice 1." in texts(at.success)


def test_the_hint_gives_the_rollout_bots_choice_in_words(home):
    at = start_play()
    while session_of(at).state.decision_name() != "turn":
        at = play_first(at)
    at.select_slider(key="imperia_play_hint_playouts").set_value(20).run()
    at.button(key="imperia_play_hint_ask").click().run()
    assert not at.exception, at.exception
    s = session_of(at)
    hint = s.hint(20)  # the page's, remembered by the session
    assert hint.bot == "rollout" and "The rollout bot would choose **" in page_text(at)
    table = at.dataframe[0].value
    assert table["action"][0] == action_words(s.state.action_to_string(hint.stats[0].action))
    assert list(table["visits"]) == sorted(table["visits"], reverse=True)
