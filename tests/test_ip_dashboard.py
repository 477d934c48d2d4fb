"""Imperial Powers' dashboard pages (dashboard/games/imperial_powers/): the map's SVG at every step
of random games (well-formed, ten regions, a bar per seat, the Leader or "no leader"), every event in
words with a section of the rules reference, and what a seat may see (RULES.md §6.2): a seat's view,
the explorer's step words and the text module's event lines never name another seat's hidden cards or
the slots of its bids. Through Streamlit's AppTest: the explorer opening a sample, an uploaded log and
a game of the catalogue, stepping and jumping, a bad log giving one error line, the viewpoint mode, each
player's chance to win under the map (the same from every viewpoint, naming nothing hidden); the
Play page started, played, undone and reloaded, its bid "the rest too", and hot-seat, where no person
sees another's hand, nor after a resume or a reload; the Rules page and its section links. AppTest
drives ``imperial_lab.dashboard.app.run`` and switches to the page before its first run, so no first-start dataset
is played."""

from __future__ import annotations

import io
import json
import re
import xml.etree.ElementTree as ET

import pytest
from streamlit.testing.v1 import AppTest

from imperial_lab.core.analysis import win_chance_line
from imperial_lab.core.bots import RandomBot
from imperial_lab.core.gamelog import write_log
from imperial_lab.core.games.imperial_powers import texts
from imperial_lab.core.games.imperial_powers.explain import (EVERYTHING, PUBLIC, action_plain, action_words,
                                                          changed_regions, context_of, explain, rules_of)
from imperial_lab.dashboard.games.imperial_powers.boardview import map_svg, players_table, powers_of, view_of
from imperial_lab.dashboard.games.imperial_powers.replay import replay_text
from imperial_lab.core.games.imperial_powers.rules_text import REFERENCE
from imperial_lab.core.games.imperial_powers.steps import step_text
from imperial_lab.core.games.imperial_powers.words import card_name, dev_label, region_name, who
from imperial_lab.core.play import play_game
from imperial_lab.core.registry import plugin
from imperial_lab.core.session import PlaySession
from imperial_lab.core.simulate import simulate
from imperial_lab.dashboard.pages import sections as navigation
from imperial_lab.dashboard.playkit import PERSON
from tests.lab_fixtures import open_page
from tests.chart_support import chance_chart, seat_lines

GAME = "imperial_powers"
SVG = "{http://www.w3.org/2000/svg}"


def log_text(players: int, seed: int, config: dict | None = None) -> str:
    config = {"game": GAME, "players": players, **(config or {})}
    played = play_game(config, [RandomBot(seed * 10 + p) for p in range(players)], seed=seed, record=True)
    out = io.StringIO()
    write_log(out, played, seed=seed, bots=["random"] * players)
    return out.getvalue()


@pytest.fixture(scope="module")
def replays():
    return [replay_text(log_text(n, seed, config), f"game{n}-{seed}")
            for n, seed, config in ((3, 1, None), (4, 2, None), (5, 3, {"tactics_visibility": "regions_public"}))]


def by_class(root, name: str) -> list:
    return [e for e in root.iter() if e.get("class") == name]


def hidden_from(state, viewer) -> set[str]:
    """The names and ids of the cards ``viewer`` may not see (§6.2): other seats' influence hands and
    strips, the Dutch development hand; a card whose kind shows anywhere in the viewer's observation
    (its other copy in the open discard pile, say) is left out, since its name appears rightly."""
    seen = json.dumps(state.observation(None if viewer == PUBLIC else viewer))
    full = state.to_json()
    hidden = set()
    for p, entry in enumerate(full["seats"]):
        if p == viewer:
            continue
        for card in entry["hand"] + [c for cards in entry["strip"].values() for c in cards]:
            if card.split("#")[0] not in seen:
                hidden |= {card, card_name(card)}
        if entry["power"] == "dutch":
            hidden |= {d for d in entry["dev_hand"] if d not in seen} | {dev_label(d) for d in entry["dev_hand"]
                                                                          if d not in seen}
    return hidden


def rendered(snapshot, viewer) -> str:
    """Everything the explorer draws for a snapshot through ``viewer``'s eyes."""
    view = view_of(snapshot.state, viewer)
    words = step_text(snapshot.text, snapshot.player, snapshot.events, context_of(view), viewer)
    return "\n".join([words, map_svg(view), players_table(view)])


# ----- the map and the words -----

def test_the_map_is_well_formed_with_every_region_bar_and_leader(replays):
    for replay in replays:
        assert replay.error is None and replay.snapshots[-1].terminal
        for snapshot in replay.snapshots[::7] + replay.snapshots[-1:]:
            view = view_of(snapshot.state, EVERYTHING)
            root = ET.fromstring(map_svg(view))  # raises on a malformed document
            regions = {e.get("data-region"): e for e in by_class(root, "region")}
            assert list(regions) == [entry["region"] for entry in view["regions"]]
            for entry in view["regions"]:
                tile = regions[entry["region"]]
                bars = [e.get("data-influence") for e in by_class(tile, "influence")]
                assert bars == [str(v) for v in entry["influence"]]
                assert tile.get("data-value") == str(entry["resource"] + entry["power"])
                leader = tile.find(f"{SVG}title").text
                top = max(entry["influence"])
                if entry["leader"] is not None:
                    assert tile.get("data-leader") == str(entry["leader"]) and "Leader: " in leader
                elif top > 0:  # a tie at the top (R14)
                    assert tile.get("data-leader") == "none" and "No Leader: a tie" in leader
                    assert "no leader (tie)" in ET.tostring(tile, encoding="unicode")


def test_the_bids_a_view_may_see_are_drawn_beside_the_influence(replays):
    snapshot = next(s for s in replays[1].snapshots if s.stage == "Turn 2 · Tactics")  # every strip full
    slots = {(p, region) for p, seat in enumerate(snapshot.state.to_json()["seats"]) for region in seat["strip"]}
    assert len({p for p, _ in slots}) > 1

    def drawn(viewer) -> set:
        root = ET.fromstring(map_svg(view_of(snapshot.state, viewer)))
        return {(int(bar.get("data-seat")), tile.get("data-region")) for tile in by_class(root, "region")
                for bar in by_class(tile, "influence") if by_class(bar, "bid")}

    assert drawn(EVERYTHING) == slots
    assert drawn(0) == {(p, region) for p, region in slots if p == 0} and drawn(PUBLIC) == set()


def test_the_event_of_this_turn_is_on_its_region(replays):
    snapshot = next(s for s in replays[1].snapshots if s.stage.endswith("Events") and len(s.state.event_rows) >= 3)
    root = ET.fromstring(map_svg(view_of(snapshot.state, PUBLIC)))
    shown = {e.get("data-event") for e in by_class(root, "event")}
    assert shown == {row["event"] for row in snapshot.state.to_json()["events"]["rows"]}
    before = next(s for s in replays[1].snapshots if s.stage == "Turn 2 · Bid")  # last turn's rows: not shown
    assert not by_class(ET.fromstring(map_svg(view_of(before.state, PUBLIC))), "event")


def test_every_event_has_words_and_a_section_of_the_reference(replays):
    kinds = set()
    for replay in replays:
        for snapshot in replay.snapshots:
            ctx = context_of(view_of(snapshot.state, PUBLIC))
            for event in snapshot.events:
                kinds.add(event["kind"])
                for viewer in (EVERYTHING, PUBLIC, 0):
                    words = explain(event, ctx, viewer)
                    assert words and words != event["kind"].replace("_", " ")
                for rule in rules_of(event):
                    assert REFERENCE.section(rule) is not None, rule
    assert {"setup_roll", "instigator", "power", "dealt", "assigned", "developed", "moved", "passed", "revealed",
            "scored", "event_drawn", "event_assigned", "event_resolved", "die", "turn_ended", "game_ended"} <= kinds
    assert {"§5.2", "§5.7", "§9 R12", "§9 R26"} <= set(REFERENCE.sections)


def test_a_seats_view_never_names_what_it_may_not_see(replays):
    """At every step of the bid, tactics and draw phases, through every seat's eyes and a spectator's:
    no hidden card (name or id) in the step's words, the map or the players' panel, no ring on the
    region of another seat's bid; the same cards are drawn when everything is shown."""
    checked = 0
    for replay in replays[:2]:
        for snapshot in replay.snapshots:
            if not any(word in snapshot.stage for word in ("Bid", "Tactics", "Draw", "Develop")):
                continue
            for viewer in (PUBLIC, *range(replay.players)):
                hidden = hidden_from(snapshot.state, viewer)
                page = rendered(snapshot, viewer)
                assert not [name for name in hidden if name in page], (snapshot.index, viewer)
                checked += bool(hidden)
            if snapshot.events and snapshot.events[0]["kind"] == "assigned":
                ctx = context_of(view_of(snapshot.state, PUBLIC))
                bidder = snapshot.events[0]["seat"]
                assert changed_regions(snapshot.events, ctx, (bidder + 1) % replay.players) == []
                assert changed_regions(snapshot.events, ctx, bidder) == [snapshot.events[0]["region"]]
    assert checked > 1000
    bid = next(s for s in replays[1].snapshots if s.stage == "Turn 3 · Tactics")
    everything = rendered(bid, EVERYTHING)
    assert all(name in everything for name in hidden_from(bid.state, 0) if "#" not in name)


def test_public_tactics_show_the_regions_never_the_card(replays):
    ctx = context_of(view_of(replays[2].snapshots[-1].state, PUBLIC))
    assert ctx.public_tactics
    snapshot = next(s for s in replays[2].snapshots if s.events and s.events[0]["kind"] == "moved")
    event = snapshot.events[0]
    other = (event["seat"] + 1) % replays[2].players
    words = explain(event, ctx, other)
    assert region_name(event["from"]) in words and card_name(event["card"]) not in words
    assert event["card"] not in action_words(snapshot.text, snapshot.player, ctx, other)


def test_the_text_modules_event_lines_keep_every_secret():
    """imperial_lab.core.session's words (the terminal prints them for every move): no dealt influence card, no
    bid's card or slot, no Tactics move, no Dutch development card, whoever is to read them."""
    assert plugin(GAME).part("texts") is texts
    session = PlaySession({"game": GAME, "players": 4, "power_assignment": "fixed",
                           "powers": ["dutch", "britain", "spain", "france"]}, ["random"] * 4, seed=5)
    session.advance_to_human(limit=600)
    kinds = set()
    for step in session.history():
        # the Reveal shows every strip, public from then on (§5.5): its line may name the cards
        words = "\n".join(line for line in step.lines if "Reveal: every strip is shown" not in line)
        for event in step.events:
            kinds.add(event["kind"])
            if event["kind"] in ("dealt", "assigned", "moved") and ("#" in event["card"] or event["seat"] == 0):
                assert event["card"] not in words and card_name_or_dev(event["card"]) not in words
            if event["kind"] == "assigned":
                assert region_name(event["region"]) not in words
    assert {"dealt", "assigned", "moved", "passed", "developed"} <= kinds
    ended = PlaySession({"game": GAME, "players": 3}, [None, "random", "random"], seed=2)
    ended.advance_to_human()
    lines = ended.decision_lines()
    assert lines[0].startswith("Player A: choose a power [R3 Choosing powers]")
    assert [note for note in ended.action_notes() if note]  # each power's ability


def card_name_or_dev(card: str) -> str:
    return card_name(card) if "#" in card else dev_label(card)


def test_the_navigation_has_a_section_for_imperial_powers():
    sections_ = navigation()
    assert list(sections_)[-1] == "Lab" and "Imperial Powers" in sections_
    assert [p.url_path for p in sections_["Imperial Powers"]][:4] == ["ip_explorer", "ip_play", "ip_lessons", "ip_rules"]
    urls = [page.url_path for pages in sections_.values() for page in pages]
    assert len(urls) == len(set(urls))  # every page has a URL of its own


def test_the_stages_are_in_order_and_each_starts_its_phase(replays):
    replay = replays[1]
    labels = [label for label, _ in replay.stages]
    assert labels[:8] == ["Setup", "Turn 1 · Draw", "Turn 1 · Bid", "Turn 1 · Develop", "Turn 1 · Tactics",
                          "Turn 1 · Reveal and score", "Turn 1 · Events", "Turn 2 · Draw"]
    assert labels[-1] == "Game over" and len(labels) == 2 + 10 * 6
    for label, start in replay.stages:
        assert replay.snapshots[start].stage == label and replay.stage_at(start) == labels.index(label)


# ----- the pages (AppTest) -----

@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("IMPERIAL_LAB_CATALOG", str(tmp_path / "lab.duckdb"))  # empty: no ip_games
    return tmp_path


def texts_of(elements) -> list[str]:
    return [e.value for e in elements]


def page_text(at: AppTest) -> str:
    """Everything the page shows in words: markdown (with the map's SVG), captions, headings, notices."""
    parts = [at.markdown, at.caption, at.subheader, at.title, at.success, at.info, at.warning, at.error]
    return "\n".join(str(v) for elements in parts for v in texts_of(elements))


def run(driven) -> AppTest:
    """Run the app after an interaction (``driven``: the AppTest, or a widget just set or clicked)."""
    at = driven.run()
    assert not at.exception, at.exception
    return at


def upload(at: AppTest, text: str, name: str = "game.jsonl") -> AppTest:
    at.file_uploader(key="ip_upload").upload(name, text.encode())
    return run(at)


def test_the_explorer_opens_a_sample_and_steps(home):
    at = open_page("ip_explorer.py")
    assert at.radio(key="ip_source").value == "an uploaded move log"
    assert "a game of the run" not in at.radio(key="ip_source").options  # no run
    run(at.radio(key="ip_source").set_value("a sample game (bots)"))
    assert texts_of(at.subheader) == ["Before the first action"]
    run(at.button(key="ip_next").click())
    assert re.match(r"Step 1 of \d+ · Chance · Setup", at.subheader[0].value)
    step = page_text(at)
    assert "rolls" in step and "[§2 Setting up](/ip_rules?section=2)" in step and "R2 Tied setup rolls" in step
    assert 'class="ip-map"' in step and step.count('class="region"') == 10


def test_the_explorer_steps_and_jumps_through_an_uploaded_log(home):
    text = log_text(4, 7)
    last = len(text.splitlines()) - 1
    at = upload(open_page("ip_explorer.py"), text)
    assert texts_of(at.subheader) == ["Before the first action"]
    for _ in range(3):
        run(at.button(key="ip_next").click())
    assert at.subheader[0].value.startswith(f"Step 3 of {last} · ")
    run(at.button(key="ip_back").click())
    assert at.subheader[0].value.startswith(f"Step 2 of {last} · ")
    run(at.button(key="ip_phase_next").click())
    assert at.subheader[0].value.endswith("· Turn 1 · Draw")
    run(at.button(key="ip_phase_next").click())
    assert at.subheader[0].value.endswith("· Turn 1 · Bid")
    stages = [label for label, _ in replay_text(text).stages]
    run(at.selectbox(key="ip_jump").set_value(stages.index("Turn 3 · Bid")))
    assert at.subheader[0].value.endswith("· Turn 3 · Bid")
    run(at.button(key="ip_phase_back").click())
    assert at.subheader[0].value.endswith("· Turn 3 · Draw")
    run(at.button(key="ip_last").click())
    assert at.subheader[0].value.startswith(f"Step {last} of {last}") and "The game is over" in at.success[0].value
    assert "[§7 The end and the winner](/ip_rules?section=7)" in page_text(at)
    run(at.button(key="ip_first").click())
    assert texts_of(at.subheader) == ["Before the first action"]


def test_a_bad_log_gives_one_error_line(home):
    lines = log_text(3, 1).splitlines()
    lines[6] = '{"player": 0, "action": "assign navy#1 europe"}'
    at = upload(open_page("ip_explorer.py"), "\n".join(lines), "bad.jsonl")
    assert len(at.error) == 1 and "line 7" in at.error[0].value and "illegal action" in at.error[0].value
    run(at.button(key="ip_last").click())
    assert at.subheader[0].value.startswith("Step 5 of 5 · ")  # the five good actions
    foreign = '{"game": "imperia", "format": 1, "config": {"game": "imperia", "players": 2}}\n'
    at = upload(open_page("ip_explorer.py"), foreign, "imperia.jsonl")
    assert len(at.error) == 1 and "not of Imperial Powers" in at.error[0].value and not at.subheader


def test_the_viewpoint_mode_shows_only_what_the_seat_sees(home):
    text = log_text(4, 3)
    replay = replay_text(text)
    at = upload(open_page("ip_explorer.py"), text)
    stages = [label for label, _ in replay.stages]
    run(at.selectbox(key="ip_jump").set_value(stages.index("Turn 2 · Bid")))  # every hand full
    checked = 0
    for viewer in (0, 2):
        run(at.radio(key="ip_viewpoint").set_value(viewer))
        for _ in range(12):  # through the bids, the seat's own and the others'
            snapshot = replay.snapshots[at.session_state["ip_shown"]]
            hidden = hidden_from(snapshot.state, viewer)
            page = page_text(at)
            assert hidden and not [name for name in hidden if name in page], snapshot.index
            assert f'data-observer="{viewer}"' in page and "(you)" in page
            first = snapshot.events[0] if snapshot.events else {"kind": None}
            if first["kind"] == "assigned" and first["seat"] != viewer:
                assert 'class="changed"' not in page  # no ring on the slot of a hidden bid
            checked += 1
            run(at.button(key="ip_next").click())
    assert checked == 24
    run(at.radio(key="ip_viewpoint").set_value(EVERYTHING))
    snapshot = replay.snapshots[at.session_state["ip_shown"]]
    page = page_text(at)
    assert [name for name in hidden_from(snapshot.state, 0) if name in page]  # everything: the cards are there


def test_the_chance_line_is_drawn_at_every_bid_the_same_from_every_viewpoint(home):
    text = log_text(4, 3)
    replay = replay_text(text)
    line = win_chance_line(text.splitlines())
    powers = powers_of(view_of(replay.snapshots[-1].state, PUBLIC))
    at = upload(open_page("ip_explorer.py"), text)
    figure = chance_chart(at)
    seats = seat_lines(figure)
    assert [t["name"] for t in seats] == [who(seat, powers) for seat in range(4)]  # one line per seat
    assert seats[2]["y"] == pytest.approx([row[3][2] for row in line])
    assert [replay.snapshots[row[1]].stage for row in line[:3]] == ["Turn 1 · Bid", "Turn 2 · Bid", "Turn 3 · Bid"]
    assert any("at the start of every turn's Bid, as the lab's learned evaluator judges it (public information "
               "only" in c for c in texts_of(at.caption))
    stages = [label for label, _ in replay.stages]
    run(at.selectbox(key="ip_jump").set_value(stages.index("Turn 2 · Bid")))  # every hand full
    for _ in range(3):
        run(at.button(key="ip_next").click())  # into the Bid: the chance at its start
    assert chance_chart(at)["layout"]["shapes"][0]["x0"] == 1 and "**The swing up to here:** " in page_text(at)
    assert "Turn 1: " in page_text(at)  # the swing of the first turn
    shown = {}
    for viewer in (EVERYTHING, PUBLIC, 0, 2):
        run(at.radio(key="ip_viewpoint").set_value(viewer))
        shown[viewer] = chance_chart(at)
        snapshot = replay.snapshots[at.session_state["ip_shown"]]
        words = json.dumps(shown[viewer]) + page_text(at)
        hidden = hidden_from(snapshot.state, viewer)
        assert viewer == EVERYTHING or hidden and not [name for name in hidden if name in words], viewer
    assert all(figure == shown[EVERYTHING] for figure in shown.values())  # public information only
    everything = hidden_from(replay.snapshots[at.session_state["ip_shown"]].state, 0)
    assert not [name for name in everything if name in json.dumps(shown[EVERYTHING])]  # the chart names no card


def test_a_game_of_the_catalogue_opens_when_ip_games_has_logs(home):
    simulate(home / "runs" / "ip-run", games=2, players=3, setup="default", bots=["random"] * 3, seed=4, workers=1,
             catalog=home / "lab.duckdb", progress=False, game=GAME)
    at = open_page("ip_explorer.py")
    assert at.radio(key="ip_source").value == "a game of the run"  # the first choice when the run has games
    assert at.selectbox(key="ip_game_of_ip-run").options == ["game 0", "game 1"]
    assert "ip-run · game 0" in at.caption[0].value  # the open game is named, never "none open"
    assert texts_of(at.subheader) == ["Before the first action"]
    run(at.button(key="ip_last").click())
    assert "The game is over" in at.success[0].value


# ----- the Play page -----

def start_play(seats=(PERSON, "random", "random"), seed: int = 11, mode: str = "pick") -> AppTest:
    """The Play page with a game started: ``seats`` a person's (PERSON) or a bot's."""
    at = open_page("ip_play.py")
    at.session_state["ip_play_watch"] = False
    run(at.selectbox(key="ip_play_players").set_value(len(seats)))
    for p, choice in enumerate(seats):
        at.selectbox(key=f"ip_play_seat_{p}").set_value(choice)
    at.number_input(key="ip_play_seed_input").set_value(seed)
    at.radio(key="ip_play_assignment").set_value(mode)
    return run(at.button(key="ip_play_start").click())


def session_of(at: AppTest) -> PlaySession:
    return at.session_state["ip_play_session"]


def play_first(at: AppTest) -> AppTest:
    """Play the first legal action (the first choice button the page offers)."""
    return run(at.button(key="ip_play_choice_1").click())


def assert_private_to(at: AppTest, seat: int | None) -> None:
    """The page names no card ``seat`` may not see (None: a spectator, on the hand-over screen)."""
    state = session_of(at).state
    hidden = hidden_from(state, PUBLIC if seat is None else seat)
    page = page_text(at)
    assert not [name for name in hidden if name in page]


def test_the_play_page_plays_decisions_of_every_kind(home):
    at = start_play()
    assert texts_of(at.subheader) == ["Your turn, Player A"] and "choose a power" in page_text(at)
    offered = at.selectbox(key="ip_play_seat_1").options  # a person, random and the game's own bots
    assert {"a person", "random", *plugin(GAME).bots} == set(offered)
    seen = set()
    for _ in range(40):
        s = session_of(at)
        phase = s.state.decision_name()
        seen.add(phase)
        if any(e.label.startswith("What happened") for e in at.expander):  # the others' moves since mine
            seen.add("what happened")
        assert_private_to(at, 0)
        if phase == "bid":
            hand = s.state.observation(0)["seats"][0]["hand"]
            assert f"**{card_name(hand[0])} (" in page_text(at)  # the card to bid now, the whole hand after it
            assert all(card_name(c) in page_text(at) for c in hand)
        if phase == "tactics" and "ip_play_move" in [b.key for b in at.button]:
            run(at.button(key="ip_play_move").click())
            continue
        play_first(at)
    assert {"choose_power", "bid", "develop", "tactics", "event_assign", "what happened"} <= seen
    game_id = at.query_params["game"]
    assert (home / "play" / f"{game_id}.jsonl").read_text() == session_of(at).to_log()


def test_the_rest_of_a_bid_goes_under_one_region_in_one_click(home):
    at = start_play(mode="random")
    assert session_of(at).state.decision_name() == "bid"
    hand = session_of(at).state.observation(0)["seats"][0]["hand"]
    run(at.toggle(key="ip_play_rest").set_value(True))
    run(at.button(key="ip_play_choice_3").click())  # Orient
    s = session_of(at)
    mine = [s.state.action_to_string(a) for p, a in s.actions if p == 0]
    assert mine == [f"assign {card} orient" for card in hand] and s.state.decision_name() != "bid"


def test_undo_restores_the_position_before_the_persons_last_decision(home):
    at = start_play(mode="random", seed=5)
    assert at.button(key="ip_play_undo").disabled
    for _ in range(8):  # the bid, then the develop, where the bots answer
        play_first(at)
    s = session_of(at)
    before, position = list(s.actions), s.state.to_json()
    play_first(at)
    assert len(session_of(at).actions) > len(before) + 1  # the bots replied
    run(at.button(key="ip_play_undo").click())
    assert session_of(at).actions == before and session_of(at).state.to_json() == position
    assert texts_of(at.info)[0].startswith("Undone: Player A's ")


def test_a_reload_reopens_the_game(home):
    at = start_play(seed=8)
    for _ in range(6):
        play_first(at)
    game_id = at.query_params["game"]
    reloaded = open_page("ip_play.py", {"game": game_id})  # a new browser session at the same address
    assert session_of(reloaded).actions == session_of(at).actions
    assert texts_of(reloaded.subheader) == texts_of(at.subheader)
    play_first(at)
    play_first(reloaded)
    assert session_of(reloaded).actions == session_of(at).actions  # the bots go on as they would have
    unknown = open_page("ip_play.py", {"game": "0000000000"})
    assert "There is no game" in unknown.warning[0].value and "game" not in unknown.query_params


def test_hot_seat_hands_the_device_over_and_never_shows_the_other_hand(home):
    at = start_play(seats=(PERSON, PERSON, "random"), seed=3, mode="random")
    holder, handed = None, 0  # nobody has the device before the first hand-over
    for _ in range(45):  # into the second turn: bids, developments, tactics and events of both people
        s = session_of(at)
        p = s.waiting_for()
        if p != holder:  # another person decides: only the hand-over screen, until they click
            assert f"**Pass the device to Player {'ABC'[p]}.**" in page_text(at) and not at.subheader
            assert 'class="ip-map"' not in page_text(at) and "ip_play_choice_1" not in [b.key for b in at.button]
            assert_private_to(at, None)
            run(at.button(key="ip_play_hand_over").click())
            holder, handed = p, handed + 1
        assert texts_of(at.subheader)[0].startswith(f"Your turn, Player {'ABC'[p]}")
        assert_private_to(at, p)
        play_first(at)
    assert handed >= 4 and session_of(at).state.turn >= 2


def test_an_undo_in_hot_seat_does_not_tell_another_persons_decision(home):
    at = start_play(seats=(PERSON, PERSON, "random"), seed=3, mode="random")
    holder = None
    for _ in range(30):
        s = session_of(at)
        p = s.waiting_for()
        if p != holder:
            run(at.button(key="ip_play_hand_over").click())
            holder = p
        last = s.last_human_index()
        if last is not None and s.actions[last][0] != p:  # the other person decided last
            other, action = s.actions[last]
            run(at.button(key="ip_play_undo").click())
            notice = texts_of(at.info)[0]
            assert notice.startswith(f"Undone: Player {'ABC'[other]}'s last decision")
            assert s.state.action_to_string(action) not in notice and "(`" not in notice
            assert f"**Pass the device to Player {'ABC'[other]}.**" in page_text(at)
            return
        play_first(at)
    raise AssertionError("no decision of the other person to undo")


def test_a_resumed_or_reloaded_hot_seat_game_shows_only_the_seat_to_move(home):
    hot = PlaySession({"game": GAME, "players": 3, "power_assignment": "random"}, [None, None, "random"], seed=3)
    for _ in range(9):
        hot.play(hot.legal()[0]) if hot.waiting_for() is not None else hot.advance_to_human()
    hot.advance_to_human()
    p = hot.waiting_for()
    assert p is not None and hot.state.decision_name() in ("bid", "develop", "tactics", "event_assign")
    at = open_page("ip_play.py")
    at.file_uploader(key="ip_play_upload").set_value(("hot.jsonl", hot.to_log().encode(), "application/jsonl"))
    run(at)
    assert session_of(at).seats == [None, None, "random"] and session_of(at).actions == hot.actions
    assert f"**Pass the device to Player {'ABC'[p]}.**" in page_text(at)
    assert_private_to(at, None)
    run(at.button(key="ip_play_hand_over").click())
    assert texts_of(at.subheader)[0].startswith(f"Your turn, Player {'ABC'[p]}")
    assert_private_to(at, p)
    reloaded = open_page("ip_play.py", {"game": at.query_params["game"]})
    assert f"**Pass the device to Player {'ABC'[p]}.**" in page_text(reloaded)
    assert_private_to(reloaded, None)


def test_a_malformed_resume_gives_one_error_line_and_changes_nothing(home):
    at = start_play(seed=7)
    play_first(at)
    s, actions = session_of(at), list(session_of(at).actions)
    bad = (f'{{"game": "{GAME}", "format": 1, "config": {{"game": "{GAME}", "players": 3}}}}\n'
           '{"player": 0, "action": "x"}\n')
    at.file_uploader(key="ip_play_upload").set_value(("bad.jsonl", bad.encode(), "application/jsonl"))
    run(at)
    assert len(at.error) == 1 and "cannot be resumed" in at.error[0].value and "bad.jsonl:2:" in at.error[0].value
    assert session_of(at) is s and s.actions == actions


# ----- the Rules page -----

def test_the_rules_page_renders_and_opens_an_asked_section(home):
    at = open_page("ip_rules.py")
    assert texts_of(at.title) == ["Rules of Imperial Powers"]
    assert [e.label for e in at.expander][:3] == ["§0 Words used", "§1 What is in the game", "§2 Setting up"]
    at = open_page("ip_rules.py", {"section": "5.7"})
    assert any(m.startswith("## §5.7 Event") for m in texts_of(at.markdown))
    assert next(e for e in at.expander if e.label == "§5 The phases").proto.expanded
    at = open_page("ip_rules.py", {"section": "R12"})
    assert any(m.startswith("## §9 R12 Tactics moves") for m in texts_of(at.markdown))
    at = open_page("ip_rules.py", {"section": "42"})
    assert "no section" in at.warning[0].value


def test_every_rules_link_of_the_pages_points_to_a_section(replays):
    links = set()
    for snapshot in replays[0].snapshots:
        ctx = context_of(view_of(snapshot.state, PUBLIC))
        words = step_text(snapshot.text, snapshot.player, snapshot.events, ctx, EVERYTHING)
        links |= set(re.findall(r"\(/ip_rules\?section=([^)]+)\)", words))
    assert {"2", "5.1", "5.2", "5.7", "9-R12"} <= links
    assert all(REFERENCE.section(key) is not None and REFERENCE.section(key).key == key for key in links)


def test_why_not_lists_the_bids_cards_and_regions_and_names_the_rule(home):
    """Why not? without typing: each card of the person's own hand under each region (✓ the card bid
    now, ✗ the later ones), in words, never another seat's card; a refused one is answered naming its
    rule, linked to the rules page."""
    at = start_play(mode="random")
    s = session_of(at)
    assert s.state.decision_name() == "bid"
    legal = [s.state.action_to_string(a) for a in s.legal()]
    why = at.selectbox(key=f"ip_play_why_{s.changes}")
    assert why.options[:len(legal)] == [f"✓ {action_plain(text)}" for text in legal]
    hand = s.state.observation(0)["seats"][0]["hand"]
    assert len(why.options) == len(hand) * len(legal)  # every card of the hand under every region
    labels = "\n".join(why.options)
    assert "#" not in labels and "_" not in labels and not [name for name in hidden_from(s.state, 0) if name in labels]
    refused = next(text for text in s.why_options() if text not in legal)
    why.set_value(refused).run()
    warning = "\n".join(texts_of(at.warning))
    assert f"**{action_plain(refused)}**: Not allowed: your cards are bid one at a time" in warning
    assert "(/ip_rules?section=5.2)" in warning  # §5.2, linked
    at.selectbox(key=f"ip_play_why_{s.changes}").set_value(legal[0]).run()
    assert f"**{action_plain(legal[0])}** is allowed here: choice 1." in texts_of(at.success)


def test_the_hint_gives_the_rollout_bots_choice_from_the_persons_view(home):
    """Hint: the rollout bot's choice and the most tried others in words; its playouts deal the cards
    the person cannot see again, so the page still names no card of another seat."""
    at = start_play(mode="random")
    run(at.select_slider(key="ip_play_hint_playouts").set_value(20))
    run(at.button(key="ip_play_hint_ask").click())
    s = session_of(at)
    hint = s.hint(20)  # the page's, remembered by the session
    assert hint.bot == "rollout" and "The rollout bot would choose **" in page_text(at) and hint.search_words in page_text(at)
    table = at.dataframe[0].value
    assert table["action"][0] == action_plain(s.state.action_to_string(hint.stats[0].action))
    assert table["choice"][0] == s.legal().index(hint.stats[0].action) + 1
    assert_private_to(at, 0)
