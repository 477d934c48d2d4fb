"""The Play page machinery (dashboard/playkit.py) for any game: a page of a dozen lines for the toy
game Nim (tests/toy_games.py, registered as a plug-in here), driven through Streamlit's AppTest. Undo,
a reload from the address, resume (a bad log changes nothing), the bots watched move by move, and
hot-seat: with hidden information (``hidden=True``) the device is handed over whenever another
person is to decide, and a reloaded game shows nobody's view before a click; without, never."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from imperial_lab.core import registry
from imperial_lab.core.session import PlaySession
from imperial_lab.dashboard.playkit import PERSON, game_file, load_game, save_game, valid_id
from tests.lab_fixtures import APP_SECONDS
from tests.toy_games import NIM


def _nim_page():
    """Nim's Play page: the kit's parts, and the heap "seen by" the viewer as the private part."""
    import streamlit as st

    from imperial_lab.core.session import PlaySession
    from imperial_lab.dashboard.playkit import PERSON, PlayKit

    kit = PlayKit("nim", "nim", hidden=st.session_state.get("nim_hidden", False), default_bot="random",
                  max_players=2)

    def new_game():
        seats = kit.seat_boxes(2, ("random",))
        if kit.start_button(seats):
            kit.start(PlaySession({"game": "nim", "heap": 9}, [None if c == PERSON else c for c in seats], seed=1))

    session = kit.choose_game(new_game)
    if session is not None:
        kit.advance(session)
        kit.controls(session)
        kit.notice()
        if not kit.hand_over(session):
            st.markdown(f"Heap {session.state.heap}, seen by {kit.viewer(session)}")
            if session.waiting_for() is not None:
                for k, action in enumerate(session.legal(), 1):
                    st.button(session.state.action_to_string(action), key=f"nim_take_{k}", on_click=kit.choose,
                              args=(session.changes, k))
            elif not session.is_over():
                kit.watch_buttons(session)


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setitem(registry.GAMES, "nim", NIM)
    monkeypatch.setenv("IMPERIAL_LAB_CATALOG", str(tmp_path / "lab.duckdb"))
    return tmp_path


def open_nim(query: dict | None = None, hidden: bool = False, watch: bool | None = None) -> AppTest:
    at = AppTest.from_function(_nim_page, default_timeout=APP_SECONDS)
    at.session_state["nim_hidden"] = hidden
    if watch is not None:
        at.session_state["nim_watch"] = watch
    at.query_params.update(query or {})
    at.run()
    assert not at.exception, at.exception
    return at


def start(at: AppTest, seats=(PERSON, "random")) -> AppTest:
    for p, choice in enumerate(seats):
        at.selectbox(key=f"nim_seat_{p}").set_value(choice)
    at.button(key="nim_start").click().run()
    assert not at.exception, at.exception
    return at


def click(at: AppTest, key: str) -> AppTest:
    at.button(key=key).click().run()
    assert not at.exception, at.exception
    return at


def session(at: AppTest) -> PlaySession:
    return at.session_state["nim_session"]


def page(at: AppTest) -> str:
    return "\n".join(e.value for e in at.markdown)


def keys(at: AppTest) -> list[str]:
    return [b.key for b in at.button]


def test_the_store_writes_and_reads_a_game(home):
    played = PlaySession({"game": "nim", "heap": 5}, [None, "random"], seed=2)
    played.play(played.legal()[0])
    played.advance_to_human()
    assert valid_id("abc_1-2") and not valid_id("../x") and not valid_id(None)
    with pytest.raises(ValueError, match="not a game id"):
        game_file(home, "../x")
    path = save_game(home / "play", "g1", played)
    assert path == home / "play" / "g1.jsonl" and [p.name for p in path.parent.iterdir()] == ["g1.jsonl"]
    assert load_game(home / "play", "g1").actions == played.actions and load_game(home / "play", "g2") is None


def test_undo_reload_and_resume(home):
    at = start(open_nim())
    game_id = at.query_params["game"]
    assert session(at).seats == [None, "random"] and "Heap 9, seen by 0" in page(at)
    click(at, "nim_take_2")  # the bot replies at once
    assert len(session(at).actions) == 2 and (home / "play" / f"{game_id}.jsonl").read_text() == session(at).to_log()
    click(at, "nim_undo")
    assert session(at).actions == [] and "Undone: Player A's decision “take 2” (`take 2`) and the 1 move after it." == \
        at.info[0].value
    click(at, "nim_take_1")
    reloaded = open_nim({"game": game_id})  # a new browser session at the same address
    assert session(reloaded).actions == session(at).actions and reloaded.query_params["game"] == game_id
    bad = '{"game": "nim", "format": 1, "config": {"game": "nim", "heap": 9}}\n{"player": 0, "action": "take 7"}\n'
    before = session(at)
    at.file_uploader(key="nim_upload").set_value(("bad.jsonl", bad.encode(), "application/jsonl")).run()
    assert len(at.error) == 1 and "bad.jsonl:2:" in at.error[0].value
    assert session(at) is before and at.query_params["game"] == game_id
    fresh = open_nim()
    fresh.multiselect(key="nim_resume_people").set_value([1])  # seat B a person, A the default bot (the log's person)
    fresh.file_uploader(key="nim_upload").set_value(("g.jsonl", before.to_log().encode(), "application/jsonl"))
    fresh.run()
    assert session(fresh).seats == ["random", None] and session(fresh).actions[:2] == before.actions
    assert fresh.query_params["game"] != game_id and "Resumed g.jsonl after 2 actions." == fresh.success[0].value


def test_watching_the_bots_keeps_the_pace_in_the_address(home):
    at = start(open_nim(watch=True))
    click(at, "nim_take_1")
    assert len(session(at).actions) == 1 and "nim_next" in keys(at) and at.query_params["watch"] == "1"
    click(at, "nim_next")
    assert len(session(at).actions) == 2 and session(at).waiting_for() == 0
    reloaded = open_nim({"game": at.query_params["game"], "watch": "1"})
    assert reloaded.toggle(key="nim_watch").value


def test_hot_seat_with_hidden_information_hands_the_device_over(home):
    at = start(open_nim(hidden=True), seats=(PERSON, PERSON))
    assert "**Pass the device to Player A.**" in page(at) and "seen by" not in page(at)  # nobody has it yet
    click(at, "nim_hand_over")
    assert "Heap 9, seen by 0" in page(at) and "nim_hand_over" not in keys(at)
    click(at, "nim_take_1")
    assert "**Pass the device to Player B.**" in page(at) and "seen by" not in page(at)
    assert "nim_take_1" not in keys(at)
    click(at, "nim_hand_over")
    assert "Heap 8, seen by 1" in page(at)
    click(at, "nim_take_1")
    click(at, "nim_undo")  # Player B takes back: B still has the device
    assert "Heap 8, seen by 1" in page(at)
    click(at, "nim_undo")  # then Player A's decision: the device goes back to A first
    assert "**Pass the device to Player A.**" in page(at) and "seen by" not in page(at)
    reloaded = open_nim({"game": at.query_params["game"]}, hidden=True)
    assert "**Pass the device to Player A.**" in page(reloaded) and "seen by" not in page(reloaded)


def test_hot_seat_without_hidden_information_needs_no_hand_over(home):
    at = start(open_nim(), seats=(PERSON, PERSON))
    assert "Heap 9, seen by None" in page(at)
    click(at, "nim_take_1")
    assert "Heap 8, seen by None" in page(at) and "nim_hand_over" not in keys(at)
