"""The game explorer: its library (timeline, map, rondel, nations and bonds, explanations) against
the small lab and hand-written positions, and the page itself through AppTest."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from dataclasses import replace

import pytest
from streamlit.testing.v1 import AppTest

from imperial_lab.core.analysis import better_move_at, big_swings, swing_words, win_chance_line
from imperial_lab.core.bots import make_bot
from imperial_lab.core.catalog import query
from imperial_lab.core.errors import LogError
from imperial_lab.core.gamelog import replay
from imperial_lab.core.games.imperial2030.data import NATIONS, SPACES
from imperial_lab.core.games.imperial2030.words import NATION_NAMES
from imperial_lab.dashboard.games.imperial2030.board_shapes import shapes
from imperial_lab.core.games.imperial2030.explain import RULE_TITLES, SENTENCES, explain, rule_title
from imperial_lab.dashboard.games.imperial2030.explorer_queries import game_log, run_games
from imperial_lab.dashboard.games.imperial2030 import open_game
from imperial_lab.core.games.imperial2030 import events as event_kinds
from imperial_lab.core.interface import make_game
from imperial_lab.core.play import play_game
from imperial_lab.dashboard.frame import code_span
from imperial_lab.dashboard.games.imperial2030.boardview import (FLAG_TINT, HOME_TINT, VIEWS, blend, board, board_svg, frame_of, hover_text,
                                 region_contents)
from imperial_lab.dashboard.games.imperial2030.changes import Battle, Built, Changes, Move, Removed, step_changes
from imperial_lab.dashboard.games.imperial2030.colours import LAND_COLOUR, NATION_COLOURS, SEA_COLOUR
from imperial_lab.dashboard.games.imperial2030.nationview import bonds_html, credit_sums, nation_summaries
from imperial_lab.dashboard.games.imperial2030.rondelview import SECTOR, marker_places, rondel_svg
from imperial_lab.dashboard.games.imperial2030.replay import event_groups, timeline_from_text, turn_chances
from imperial_lab.dashboard.pages import page_path
from tests.lab_fixtures import APP_SECONDS

SVG = "{http://www.w3.org/2000/svg}"  # ElementTree's prefix of the board's tags
PAGE = page_path("explorer.py")

# docs/formats.md "Position documents", extended: a friendly and a hostile army, fleets sharing a sea, flags
# in a neutral land and in Colombia (the Panama canal's controller).
POSITION = {
    "config": {"game": "imperial2030", "players": 2},
    "players": [{"cash": 10, "bonds": ["RU 4", "CN 1"]}, {"cash": 7, "bonds": ["CN 4"]}],
    "nations": {"RU": {"government": 0, "factories": ["moscow", "vladivostok"], "flags": ["ukraine"]},
                "CN": {"government": 1, "factories": ["beijing", "shanghai"], "flags": ["colombia"]}},
    "units": [{"nation": "RU", "unit": "army", "region": "moscow", "count": 2},
              {"nation": "CN", "unit": "army", "region": "moscow", "stance": "friendly"},
              {"nation": "RU", "unit": "army", "region": "beijing", "stance": "hostile"},
              {"nation": "RU", "unit": "fleet", "region": "sea_of_japan", "count": 3},
              {"nation": "CN", "unit": "fleet", "region": "sea_of_japan"}],
    "turn": {"nation": "RU"},
}


@pytest.fixture(scope="module")
def position() -> dict:
    """POSITION as the engine writes it (every field filled in)."""
    return make_game(POSITION["config"]).state_from_json(POSITION).to_json()


@pytest.fixture(scope="module")
def games(lab):
    """(run, game_id, games row, log) of the first two games of each lab run."""
    out = []
    for run in lab.runs:
        rows = run_games(lab.catalog, run)
        out += [(run, int(row.game_id), row, game_log(lab.catalog, run, int(row.game_id)))
                for row in rows.head(2).itertuples()]
    return out


@pytest.fixture(scope="module")
def timelines(games):
    return [timeline_from_text(log, f"{run} {game_id}") for run, game_id, _, log in games]


# ----- timeline -----

def test_one_snapshot_per_nation_turn_and_the_setup(games, timelines):
    for (_, _, row, _), timeline in zip(games, timelines):
        assert len(timeline.snapshots) == row.nation_turns + 1
        assert [s.turn for s in timeline.snapshots] == list(range(row.nation_turns + 1))


def test_last_snapshot_is_the_replayed_final_state(games, timelines):
    for (_, _, _, log), timeline in zip(games, timelines):
        assert timeline.snapshots[-1].position == replay(log.splitlines()).to_json()


def test_turns_cut_as_in_the_events_table(lab, games, timelines):
    """Every snapshot holds exactly the events the events table files under its turn, and a turn
    opens with its nation_turn event (docs/data-dictionary.md)."""
    for (run, game_id, _, _), timeline in zip(games, timelines):
        counts = query(f"SELECT turn, count(*) AS n FROM events WHERE run = '{run}' AND game_id = {game_id} "
                       "GROUP BY turn ORDER BY turn", lab.catalog)
        assert [len(s.events) for s in timeline.snapshots] == counts["n"].tolist()
        for s in timeline.snapshots[1:]:
            assert s.events[0]["kind"] == "nation_turn" and s.events[0]["turn"] == s.turn
            assert (s.nation, s.government) == (s.events[0]["nation"], s.events[0]["government"])
            assert [e["kind"] for e in s.events[1:]].count("nation_turn") == 0


def test_action_steps_cover_the_log_in_order(games, timelines):
    for (_, _, _, log), timeline in zip(games, timelines):
        steps = [a for s in timeline.snapshots for a in s.actions]
        lines = [line for line in log.splitlines()[1:] if line.strip()]
        assert [a.index for a in steps] == list(range(1, len(lines) + 1))
        assert steps[-1].position == timeline.snapshots[-1].position
        # the action that opens a turn closes the previous one: its position is that turn's end
        for s in timeline.snapshots[1:-1]:
            assert s.actions[-1].position == s.position and s.actions[-1].events[-1]["kind"] == "nation_turn"


def test_event_groups_follow_the_actions(timelines):
    snapshot = timelines[0].snapshots[5]
    groups = event_groups(snapshot)
    assert groups[0][0] is None and [e["kind"] for e in groups[0][1]] == ["nation_turn"]
    assert [step for step, _ in groups[1:]] == [a for a in snapshot.actions if a.events[0]["kind"] != "nation_turn"]
    assert [e for _, events in groups for e in events] == snapshot.events


def test_a_setup_without_actions_opens_turn_1_in_the_initial_state():
    """A fixed deal is made with the game: no action, yet the setup ends and turn 1 begins."""
    log = '{"game": "imperial2030", "format": 1, "config": {"players": 4, "deal": ["RU", "CN", "IN", "BR"]}}\n'
    snapshots = timeline_from_text(log).snapshots
    assert [(s.turn, s.nation, len(s.actions)) for s in snapshots] == [(0, None, 0), (1, "RU", 0)]
    assert snapshots[0].position == snapshots[1].position


def test_a_bad_log_raises_with_its_line(games):
    lines = games[0][3].splitlines()
    lines[4] = '{"player": 0, "action": "rondel beach"}'
    with pytest.raises(LogError) as caught:
        timeline_from_text("\n".join(lines), "bad.jsonl")
    assert (caught.value.file, caught.value.line) == ("bad.jsonl", 5)


# ----- the board (imperial_lab.dashboard.games.imperial2030.boardview) -----

def board_tree(position, changes=None, view="World"):
    return ET.fromstring(board_svg(position, changes, view))


def of_class(tree, name: str) -> list:
    return [el for el in tree.iter() if el.get("class") == name]


def test_every_region_is_drawn_once_as_a_shape(position):
    drawn = [el.get("data-region") for el in of_class(board_tree(position), "region")]
    assert sorted(drawn) == sorted(r["id"] for r in board()["regions"])


def test_pieces_show_each_nations_units_with_their_counts(position):
    shown = {(group.get("data-region"), el.get("data-nation"), el.get("data-unit"), el.get("data-stance") or None):
             int(el.get("data-count")) for group in of_class(board_tree(position), "pieces")
             for el in group if el.get("class") == "piece"}
    assert shown == {(u["region"], u["nation"], u["unit"], u.get("stance")): u["count"] for u in position["units"]}


def test_hostile_friendly_armies_and_fleets_look_different(position):
    pieces = {(el.get("data-nation"), el.get("data-unit"), el.get("data-stance")): el
              for el in of_class(board_tree(position), "piece")}
    hostile, friendly = pieces["RU", "army", "hostile"], pieces["CN", "army", "friendly"]
    plain, fleet = pieces["RU", "army", ""], pieces["RU", "fleet", ""]
    assert hostile.get("fill") == plain.get("fill") == NATION_COLOURS["RU"]
    assert friendly.get("fill") == "#ffffff" and friendly.get("stroke") == NATION_COLOURS["CN"]  # lying down
    assert hostile.get("stroke-width") != plain.get("stroke-width")  # standing up: a heavy rim
    assert (plain.tag, fleet.tag) == (f"{SVG}circle", f"{SVG}path")


def test_hover_text_gives_the_full_contents_of_a_region(position):
    regions = region_contents(position)
    moscow = hover_text(regions["moscow"])
    for part in ("Moscow", "home province of Russia", "factory: armaments, built", "Russia: 2 armies",
                 "China: 1 friendly army"):
        assert part in moscow
    beijing = hover_text(regions["beijing"])
    assert "occupied" in beijing and "Russia: 1 hostile army" in beijing
    assert "Sea of Japan · sea" in hover_text(regions["sea_of_japan"])
    assert "Russia: 3 fleets" in hover_text(regions["sea_of_japan"])
    ukraine = hover_text(regions["ukraine"])
    assert "neutral land" in ukraine and "flag: Russia" in ukraine and "units: none" in ukraine
    assert "factory: shipyard, not built" in hover_text(regions["murmansk"])
    tree = board_tree(position)  # the region's shape and its pieces both carry it
    titles = {el.get("data-region"): el.find(f"{SVG}title").text for el in tree.iter()
              if el.get("class") in ("region", "pieces")}
    assert titles["moscow"] == moscow and titles["sea_of_japan"] == hover_text(regions["sea_of_japan"])
    assert [el.get("data-region") for el in of_class(tree, "pieces")].count("moscow") == 1


def test_home_provinces_take_their_nations_colour_and_flags_tint_neutral_land(position):
    fills = {el.get("data-region"): el.get("fill") for el in of_class(board_tree(position), "region")}
    assert fills["moscow"] == blend(NATION_COLOURS["RU"], LAND_COLOUR, HOME_TINT)
    assert fills["ukraine"] == blend(NATION_COLOURS["RU"], LAND_COLOUR, FLAG_TINT)
    assert fills["colombia"] == blend(NATION_COLOURS["CN"], LAND_COLOUR, FLAG_TINT)
    assert fills["peru"] == LAND_COLOUR and fills["north_atlantic"] == SEA_COLOUR


def test_flags_and_factories_are_drawn_an_occupied_factory_crossed(position):
    tree = board_tree(position)
    assert sorted(el.get("data-nation") for el in of_class(tree, "flag")) == ["CN", "RU"]
    assert {el.get("data-region"): el.get("data-state") for el in of_class(tree, "factory")} == {
        "moscow": "built", "vladivostok": "built", "beijing": "occupied", "shanghai": "built"}


def test_canals_are_marked_with_who_controls_them_and_round_earth_links_at_both_edges(position):
    tree = board_tree(position)
    canals = {el.get("data-canal"): el.find(f"{SVG}title").text for el in of_class(tree, "canal")}
    assert "Panama canal" in canals["panama"] and "controlled by China" in canals["panama"]
    assert "Suez canal" in canals["suez"] and "free passage" in canals["suez"]
    wraps = of_class(tree, "wrap")
    assert len(wraps) == 2 * len(board()["wraparound"]["links"])  # an arrow at each edge per link


def test_what_changed_is_drawn_arrows_new_and_removed_pieces_flags(position):
    changes = Changes(moves=(Move("RU", "army", "moscow", "ukraine", (), None, 2),
                             Move("CN", "army", "shanghai", "korea", ("china_sea",), None, 1)),
                      built=(Built("moscow", "RU", "army", 1, "production"),),
                      removed=(Removed("beijing", "CN", "army", 1),), flags_new=(("ukraine", "RU"),),
                      flags_removed=(), factories_new=(("vladivostok", "RU"),), factories_destroyed=(),
                      battles=(Battle("beijing", ("RU", "CN")),), summary="Russia maneuvers")
    tree = board_tree(position, changes)
    moves = of_class(tree, "move")
    assert [el.get("data-nation") for el in moves] == ["RU", "CN"]
    assert moves[1].get("d").count("L") == 2  # the convoy's arrow goes by its sea
    new = [el for el in of_class(tree, "piece") if el.get("data-new")]
    assert [(el.get("data-nation"), el.get("data-unit")) for el in new] == [("RU", "army")]
    assert [(el.get("data-nation"), el.get("data-count")) for el in of_class(tree, "ghost")] == [("CN", "1")]
    assert [el.get("data-nation") for el in of_class(tree, "flag") if el.get("data-new")] == ["RU"]
    assert [el.get("data-region") for el in of_class(tree, "factory") if el.get("data-new")] == ["vladivostok"]
    assert len(of_class(tree, "battle")) == 1
    assert not of_class(board_tree(position), "move")  # no changes, no arrows


def test_a_move_across_the_map_edge_leaves_at_one_edge_and_enters_at_the_other(position):
    changes = step_changes(position, position, [])
    across = replace(changes, moves=(Move("RU", "fleet", "sea_of_japan", "north_pacific", (), None, 1),))
    moves = of_class(board_tree(position, across), "move")
    assert len(moves) == 2
    x0, _, x1, _ = shapes()["view"]
    ends = sorted(float(el.get("d").rsplit("L", 1)[1].split(",")[0]) for el in moves)
    starts = sorted(float(el.get("d")[1:].split(",")[0]) for el in moves)
    assert x1 in ends[1:] or x0 in ends[:1]  # the first part ends on an edge
    assert x0 in starts or x1 in starts  # the second starts on the other


def test_each_view_zooms_into_the_world_map(position):
    world = frame_of("World")
    for view in VIEWS:
        f = frame_of(view)
        assert world.x0 <= f.x0 < f.x1 <= world.x1 and world.y0 <= f.y0 < f.y1 <= world.y1
        assert board_tree(position, view=view).get("viewBox") == f.viewbox()
    assert frame_of("Europe").px < world.px / 3  # pieces and names drawn at a third of the size


def test_every_step_of_a_game_draws_a_well_formed_board(timelines):
    timeline = timelines[0]
    for turn, snapshot in enumerate(timeline.snapshots):
        changes = step_changes(timeline.position_before(turn), snapshot.position, snapshot.events)
        tree = board_tree(snapshot.position, changes)
        assert len(of_class(tree, "move")) >= len(changes.moves)


# ----- rondel, nations, bonds -----

def test_each_nation_marker_stands_on_its_space(timelines):
    position = timelines[0].snapshots[20].position
    places = marker_places(position)
    for code in NATIONS:
        space = position["nations"][code]["rondel"]
        theta, r = places[code]
        assert abs(theta - SPACES.index(space) * SECTOR) < SECTOR / 2 and r > 0
    svg = rondel_svg(position, "RU")
    markers = dict(re.findall(r'<g class="marker" data-nation="(\w+)".*?<circle [^>]* r="(\d+)"', svg))
    assert set(markers) == set(NATIONS)
    assert int(markers["RU"]) > int(markers["CN"])  # the nation on turn


def test_nations_off_the_rondel_stand_in_the_centre(position):
    places = marker_places(position)
    assert all(r == 0 for _, r in places.values())


def test_nation_summaries_match_the_nation_turns_table(lab, games, timelines):
    """A snapshot's active nation has the figures the recorder wrote for the end of that turn."""
    run, game_id, _, _ = games[0]
    rows = query(f"SELECT * FROM nation_turns WHERE run = '{run}' AND game_id = {game_id} ORDER BY turn", lab.catalog)
    for snapshot, row in zip(timelines[0].snapshots[1:], rows.itertuples()):
        n = next(s for s in nation_summaries(snapshot.position) if s["nation"] == snapshot.nation)
        assert (n["treasury"], n["power_points"], n["power_factor"], n["flags"], n["armies"], n["fleets"],
                n["factories"], n["occupied"]) == (row.treasury, row.power_points, row.power_factor, row.flags,
                                                   row.armies, row.fleets, row.factories, row.occupied_factories)


def test_credit_sums_and_governments_in_the_bonds_heatmap(position):
    sums = credit_sums(position)
    assert sums.loc["Player A", "RU"] == 9 and sums.loc["Player A", "CN"] == 2 and sums.loc["Player B", "CN"] == 9
    assert sums.values.sum() == 20
    table = bonds_html(position)
    rows = re.findall(r"<tr><th>([^<]*)</th>(.*?)</tr>", table.split("<tbody>")[1])
    starred = [(row, col) for row, (_, cells) in enumerate(rows)
               for col, cell in enumerate(re.findall(r"<td[^>]*>(.*?)</td>", cells)) if "★" in cell]
    assert starred == [(0, NATIONS.index("RU")), (1, NATIONS.index("CN"))]
    assert rows[0][0].startswith("Player A · 10m") and "<b>9m</b><br>no. 4" in rows[0][1]


# ----- explanations -----

def documented_kinds() -> set[str]:
    """The event kinds listed in the docstring of core/games/imperial2030/events.py."""
    listing = event_kinds.__doc__.split("Kinds and their fields")[1]
    return set(re.findall(r"(?:^|\s{2,})([a-z_]+)\s{2,}[a-z]", listing, re.M))


def test_every_event_kind_has_a_sentence():
    assert len(documented_kinds()) == 22
    assert documented_kinds() == set(SENTENCES)


def random_game_events(seed: int, config: dict) -> list[tuple[dict, str | None]]:
    """(event, active nation) for every event of one random game."""
    out, active = [], [None]

    def take(events):
        for event in events:
            data = event.to_json()
            active[0] = data["nation"] if data["kind"] == "nation_turn" else active[0]
            out.append((data, active[0]))

    players = config.get("players", 4)
    play_game(config, [make_bot("random", 100 * seed + p) for p in range(players)], seed,
              on_start=lambda state: take(state.events), on_step=lambda state, p, a, events: take(events))
    return out


@pytest.mark.parametrize("seed, config", [(1, {"players": 4}), (2, {"players": 6}), (3, {"players": 3}),
                                          (4, {"players": 2, "setup": "variant"})])
def test_every_event_of_random_games_is_explained_with_its_rule(seed, config):
    region_ids = {r["id"] for r in board()["regions"]}
    for event, active in random_game_events(seed, config):
        assert event["kind"] in SENTENCES
        sentence = explain(event, active)
        assert sentence.endswith(f"({event['rule']})") and event["rule"] in RULE_TITLES
        # names, not ids: no region id, no rondel space id (production_1), no seat reference
        words = set(re.findall(r"[a-z][a-z0-9_]*", sentence))
        assert not words & region_ids and not any("_" in word for word in words)
        assert "None" not in sentence and "player:" not in sentence


def test_sentences_of_rare_and_example_events():
    cases = [
        ({"kind": "payment", "rule": "§6", "from": "player:1", "to": "bank", "amount": 3,
          "reason": "rondel move of 5 spaces"}, "RU",
         "Player B (Russia's government) pays 3m to the bank for moving Russia 5 spaces on the rondel (§6)"),
        ({"kind": "canal", "rule": "§7.4.3", "canal": "suez", "controller": "US", "nation": "EU", "allowed": False,
          "action": "move fleet mediterranean_sea -> indian_ocean"}, "EU",
         "The United States, whose flag controls the Suez canal, refuses Europe's crossing "
         "of a fleet from the Mediterranean Sea to the Indian Ocean (§7.4.3)"),
        ({"kind": "factory_destroyed", "rule": "§7.4.7", "nation": "RU", "by": "EU", "region": "murmansk",
          "hostile_removed": 3}, "EU",
         "Europe's armies destroy Russia's factory in Murmansk; three of them are removed (3 hostile, 0 friendly) "
         "(§7.4.7)"),
        ({"kind": "veto", "rule": "§8", "player": 2, "nation": "EU", "wanted": "production_2"}, "EU",
         "Player C, a Swiss bank, vetoes Europe's move to Production 2: Europe must stop on Investor (§8)"),
        ({"kind": "rondel", "rule": "§8", "nation": "EU", "from": "taxation", "to": "investor", "distance": 4,
          "cost": 3, "passed_investor": False}, "EU",
         "Europe stops on Investor after the veto: 4 spaces on the rondel from Taxation; its government pays 3m (§8)"),
        ({"kind": "battle", "rule": "§7.4.4", "region": "berlin", "attacker": "CN", "attacker_unit": "army",
          "defender": "US", "defender_unit": "army", "defender_stance": "hostile"}, "CN",
         "Battle in Berlin: China's army and the United States' hostile army destroy each other (§7.4.4)"),
        ({"kind": "taxation", "rule": "§7.6", "nation": "US", "revenue": 11, "factories": 3, "flags": 5,
          "soldiers_pay": 3, "bonus": 2}, "US",  # T11
         "The United States collects 11m of tax revenue (2 × 3 working factories + 5 flags), pays 3m of "
         "soldiers' pay and a success bonus of 2m (§7.6)"),
        ({"kind": "game_ended", "rule": "§10", "nation": "RU", "scores": [42, 42, 30], "winners": [0, 1]}, "RU",
         "The game ends: Russia reaches 25 power points; scores Player A 42, Player B 42, Player C 30; "
         "Player A and Player B share the win (§10)"),
    ]
    for event, active, sentence in cases:
        assert explain(event, active) == sentence


def test_an_unknown_kind_still_gets_a_sentence():
    assert explain({"kind": "comet", "rule": "§99", "region": "peru"}) == "Comet: region peru (§99)"
    assert rule_title("§7.6") == "§7.6 Taxation" and rule_title("§99") == "§99"


# ----- the page -----

@pytest.fixture
def page(lab, monkeypatch) -> AppTest:
    monkeypatch.setenv("IMPERIAL_LAB_CATALOG", str(lab.catalog))
    at = AppTest.from_file(str(PAGE), default_timeout=APP_SECONDS)
    at.run()
    assert not at.exception
    return at


def heading(at: AppTest) -> str:
    return at.subheader[0].value


def events_text(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown)


def test_page_opens_on_the_setup_of_a_catalogue_game(page, lab):
    assert heading(page) == "Setup"
    assert page.selectbox(key="explorer_run").options == list(lab.runs)[::-1]  # newest first
    games = page.selectbox(key=f"explorer_game_of_{page.selectbox(key='explorer_run').value}")
    assert len(games.options) == 12 and "won" in games.options[0] and "nation turns" in games.options[0]
    shown = "\n".join(m.value for m in page.markdown)
    assert "imperial-rondel" in shown and "bonds-table" in shown and len(page.get("plotly_chart")) == 1  # the chances
    assert sum("imperial-board" in m.value for m in page.markdown) == 1
    assert "Player A receives 13m of starting cash from the bank ([§4.2](/rules?section=4.2))" in events_text(page)


def test_next_and_the_slider_change_the_turn_and_its_events(page):
    page.button(key="explorer_next").click().run()
    assert heading(page).startswith("Turn 1 · round 1 · Russia")
    assert "Turn 1, round 1: Russia's turn" in events_text(page)
    page.select_slider(key="explorer_turn").set_value(12).run()
    assert heading(page).startswith("Turn 12 ·")
    assert "Turn 12, round" in events_text(page) and "Turn 1, round 1" not in events_text(page)
    page.button(key="explorer_back").click().run()
    assert heading(page).startswith("Turn 11 ·")
    page.button(key="explorer_last").click().run()
    assert "The game ends" in events_text(page)
    assert not page.exception


def shown_timeline(page: AppTest, lab):
    """The timeline of the game the page shows."""
    run = page.selectbox(key="explorer_run").value
    game_id = page.selectbox(key=f"explorer_game_of_{run}").value
    return timeline_from_text(game_log(lab.catalog, run, game_id))


def chance_chart(page: AppTest) -> dict:
    """The figure of the explorer's one Plotly chart, the chances to win."""
    charts = page.get("plotly_chart")
    assert len(charts) == 1
    return json.loads(charts[0].proto.spec)


def test_the_chance_chart_marks_the_shown_turn_and_its_swing_is_named_in_words(page, lab):
    timeline = shown_timeline(page, lab)
    run = page.selectbox(key="explorer_run").value
    log = game_log(lab.catalog, run, page.selectbox(key=f"explorer_game_of_{run}").value)
    chances = turn_chances(timeline, win_chance_line(log.splitlines()))
    assert len(chances) == len(timeline.snapshots) and None not in chances and 1.0 in chances[-1]  # the result
    figure = chance_chart(page)
    assert figure["layout"]["title"]["text"].startswith("Each player's chance to win")
    assert [t["name"] for t in figure["data"]][:4] == ["Player A", "Player B", "Player C", "Player D"]
    assert figure["data"][0]["y"] == pytest.approx([row[0] for row in chances])
    assert figure["layout"]["shapes"][0]["x0"] == 0  # the setup is shown
    assert "**Chances to win after the setup:** Player A " in events_text(page)
    turn = 5
    page.select_slider(key="explorer_turn").set_value(turn).run()
    snapshot = timeline.snapshots[turn]
    swing = swing_words(f"Player {'ABCD'[snapshot.government]} for {NATION_NAMES[snapshot.nation]}",
                        chances[turn - 1], chances[turn])
    assert f"**This turn's swing:** {swing}." in events_text(page) and "chance to win" in swing
    assert chance_chart(page)["layout"]["shapes"][0]["x0"] == turn
    big = big_swings(chances)
    marked = [t for t in chance_chart(page)["data"] if t["name"] == "big swing"]
    assert (marked[0]["x"] if marked else []) == big



def test_a_better_move_for_the_turns_player_is_worked_out_on_request(page, lab, monkeypatch):
    monkeypatch.setattr(open_game, "BETTER_PLAYOUTS", 16)  # the page's 80 cost seconds; the same path
    timeline = shown_timeline(page, lab)
    run = page.selectbox(key="explorer_run").value
    log = game_log(lab.catalog, run, page.selectbox(key=f"explorer_game_of_{run}").value)
    turn = 5
    page.select_slider(key="explorer_turn").set_value(turn).run()
    snapshot = timeline.snapshots[turn]
    who = f"Player {'ABCD'[snapshot.government]}"
    assert f"**For {who}:**" not in events_text(page)  # only when asked: it costs seconds of rollouts
    page.button(key="explorer_better_ask").click().run()
    assert not page.exception
    # the step that begins the turn, judged by the rollout bot beside the move played
    answer = better_move_at(log.splitlines(), snapshot.actions[0].index - 1, 16)
    assert answer["mover"] == snapshot.government and answer["played"] is not None and answer["how"] == "rollouts, 16 playouts"
    assert f"**For {who}:** {answer['words']}." in events_text(page)
    page.select_slider(key="explorer_turn").set_value(turn + 1).run()
    assert "**For Player" not in events_text(page)  # another turn: not its answer

def test_every_action_of_the_turn_is_listed_in_words(page, lab):
    """Actions that cause no event (``end maneuver``, ``no veto``, a refused crossing) are listed too."""
    timeline = shown_timeline(page, lab)
    turn = next(k for k, s in enumerate(timeline.snapshots) if any(not a.events for a in s.actions))
    page.select_slider(key="explorer_turn").set_value(turn).run()
    shown = events_text(page)
    for action in timeline.snapshots[turn].actions:
        assert f"**{action.index}. " in shown and action.words in shown and f"`{action.text}`" not in shown


def test_a_line_says_what_the_step_changed_and_the_last_turn_has_the_result(page, lab):
    timeline = shown_timeline(page, lab)
    page.select_slider(key="explorer_turn").set_value(4).run()
    summary = step_changes(timeline.position_before(4), timeline.snapshots[4].position,
                           timeline.snapshots[4].events).summary
    assert f"**{summary}**" in [m.value for m in page.markdown]
    page.button(key="explorer_last").click().run()
    assert "Game over." in page.success[0].value and "wins" in page.success[0].value


def test_next_and_back_step_single_actions_in_action_by_action_mode(page, lab):
    timeline = shown_timeline(page, lab)
    turn = next(k for k in range(2, len(timeline.snapshots))
                if len(timeline.snapshots[k].actions) > 1 and timeline.snapshots[k - 1].actions)
    page.select_slider(key="explorer_turn").set_value(turn).run()
    page.toggle(key="explorer_by_action").set_value(True).run()
    actions = timeline.snapshots[turn].actions
    assert page.select_slider(key="explorer_action").value == actions[0].index
    page.button(key="explorer_next").click().run()
    assert page.select_slider(key="explorer_action").value == actions[1].index
    page.button(key="explorer_back").click().run()
    page.button(key="explorer_back").click().run()  # back over the turn's start: the previous turn's last action
    assert page.select_slider(key="explorer_turn").value == turn - 1
    assert page.select_slider(key="explorer_action").value == timeline.snapshots[turn - 1].actions[-1].index
    assert not page.exception


def test_the_map_view_zooms_in(page):
    page.button_group(key="explorer_view").set_value("Europe").run()
    board_markdown = next(m.value for m in page.markdown if "imperial-board" in m.value)
    assert f'viewBox="{frame_of("Europe").viewbox()}"' in board_markdown


def test_play_advances_one_turn_per_run_until_paused(page):
    page.button(key="explorer_play").click().run()
    assert page.session_state["explorer_playing"] and heading(page).startswith("Turn 1 ·")
    page.run()  # the fragment's timer
    assert heading(page).startswith("Turn 2 ·")
    page.button(key="explorer_play").click().run()
    assert not page.session_state["explorer_playing"]
    page.run()
    assert heading(page).startswith("Turn 2 ·") and not page.exception


def test_action_by_action_shows_one_action(page):
    page.select_slider(key="explorer_turn").set_value(3).run()
    page.toggle(key="explorer_by_action").set_value(True).run()
    action = page.select_slider(key="explorer_action")
    first = action.value
    assert f"**{first}." in events_text(page)
    if len(action.options) > 1:
        action.set_value(action.options[-1]).run()
        assert f"**{first}." not in events_text(page)
    assert not page.exception


def test_an_empty_catalogue_points_to_the_upload(tmp_path, monkeypatch):
    monkeypatch.setenv("IMPERIAL_LAB_CATALOG", str(tmp_path / "none.duckdb"))
    at = AppTest.from_file(str(PAGE), default_timeout=APP_SECONDS).run()
    assert not at.exception and "has no runs yet" in at.info[0].value and not at.subheader


def test_a_bad_upload_shows_its_line_and_a_good_one_works(page, games):
    page.radio(key="explorer_source").set_value("an uploaded move log").run()
    lines = games[0][3].splitlines()
    bad = "\n".join(lines[:5] + ['{"player": 0, "action": "rondel beach"}'] + lines[6:])
    page.file_uploader(key="explorer_upload").upload("bad.jsonl", bad.encode()).run()
    assert not page.exception and "line 6" in page.error[0].value and "bad.jsonl" in page.error[0].value
    page.file_uploader(key="explorer_upload").clear().upload("good.jsonl", games[0][3].encode()).run()
    assert not page.exception and not page.error and heading(page) == "Setup"
    page.button(key="explorer_last").click().run()
    assert heading(page).startswith(f"Turn {games[0][2].nation_turns} ·")


def test_an_error_quotes_the_log_line_as_written(page, games):
    """Markdown would draw ``->`` as an arrow and ``**x**`` in bold: the message is shown as plain text."""
    page.radio(key="explorer_source").set_value("an uploaded move log").run()
    bad = "\n".join(games[0][3].splitlines()[:5] + ['{"player": 0, "action": "rondel -> **x**"}'])
    page.file_uploader(key="explorer_upload").upload("bad.jsonl", bad.encode()).run()
    title, message = page.error[0].value.split("\n\n")
    assert title == (f"{code_span('bad.jsonl')}, line 6: this move log cannot be replayed. "
                     "The game is shown up to line 5.")
    assert "'rondel -> **x**'" in code_span_text(message)


def code_span_text(markdown: str) -> str:
    """The text a markdown code span shows (CommonMark: between equal backtick fences, one space
    stripped each side when both are there); fails if ``markdown`` is anything else."""
    match = re.fullmatch(r"(`+)(.*?)\1", markdown, re.DOTALL)
    assert match and not re.search(f"(?<!`){match[1]}(?!`)", match[2]), f"not one code span: {markdown!r}"
    text = match[2]
    return text[1:-1] if text.startswith(" ") and text.endswith(" ") and text.strip() else text


@pytest.mark.parametrize("text", ["plain", "a `b` c", "``x``", "`", "` x `", " padded "])
def test_a_code_span_shows_any_text_as_written(text):
    assert code_span_text(code_span(text)) == text


def test_a_new_piece_is_ringed_on_a_dark_rim_that_shows_on_every_colour(timelines):
    """A new piece's yellow ring lies on a dark rim: it shows on China's yellow and on the sea."""
    timeline = timelines[0]
    turn = next(k for k, s in enumerate(timeline.snapshots) if any(e["kind"] == "unit_built" for e in s.events))
    snapshot = timeline.snapshots[turn]
    svg = board_svg(snapshot.position, step_changes(timeline.position_before(turn), snapshot.position, snapshot.events))
    rims = re.findall(r'<circle class="new-ring" [^>]*stroke="#111"[^>]*/><circle [^>]*stroke="#ffcc00"', svg)
    assert rims and len(rims) == svg.count('class="new-ring"')
