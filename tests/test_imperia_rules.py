"""Imperia's worked scenarios (shared/imperia/RULES.md §12, IM-01 … IM-15) and the text's scoring
example (§9.1), one test per scenario or variant, named by its id."""

from __future__ import annotations

import random

import pytest

from imperial_lab.core.bots import RandomBot
from imperial_lab.core.errors import IllegalActionError, SetupError
from imperial_lab.core.games.imperia.board import D, RING_TOUCHING, TYPE_NAMES
from imperial_lab.core.games.imperia.words import tile_words
from imperial_lab.core.games.imperia.data import TEMPLATE
from imperial_lab.core.games.imperia.game import Imperia
from imperial_lab.core.games.imperia.builders import build
from imperial_lab.core.games.imperia.rules import can_enter, exits, formations, next_space, protected_mask
from imperial_lab.core.games.imperia.scoring import space_points, tallies
from imperial_lab.core.interface import CHANCE
from imperial_lab.core.play import play_game

FIELDS = ["FFFFFFFF"] * 3 + ["FFFCCFFF"] * 2 + ["FFFFFFFF"] * 3
ZONE = [(1, 1), (1, 2), (1, 3), (1, 4), (1, 5), (1, 6), (2, 1), (2, 6), (3, 1), (3, 6), (4, 1), (4, 6), (5, 1),
        (5, 6), (6, 1), (6, 2), (6, 3), (6, 4), (6, 5), (6, 6)]


def sp(r: int, c: int) -> int:
    return r * 8 + c


def texts(state) -> set[str]:
    return {state.action_to_string(a) for a in state.legal_actions()}


def play(state, text: str):
    return state.apply_action(state.string_to_action(text))


def spaces_of(state) -> set[tuple]:
    """The spaces of the legal actions (placements and warlords)."""
    return {tuple(int(x) for x in state.action_to_string(a).split()[-2 if a[0] == 5 else -1].split(","))
            for a in state.legal_actions()}


def fortress_state(players: int):
    return Imperia({"players": players, "start_seat": 0, "terrain_override": FIELDS}).new_initial_state()


def fortress_sites(state) -> set[tuple]:
    return {divmod(a[1], 8) for a in state.legal_actions()}


# ----- IM-01, IM-02: fortresses and covered areas -----

def test_im01_fortress_zone_and_distance():
    s = fortress_state(4)
    assert fortress_sites(s) == set(ZONE)
    for bad, in [((0, 3),), ((2, 2),), ((3, 3),)]:
        with pytest.raises(IllegalActionError) as err:
            play(s, f"fortress {bad[0]},{bad[1]}")
        assert err.value.rule == "§3.3"
    play(s, "fortress 1,1")
    assert fortress_sites(s) == {(1, 4), (1, 5), (1, 6), (2, 6), (3, 6), (4, 1), (4, 6), (5, 1), (5, 6), (6, 1),
                                 (6, 2), (6, 3), (6, 4), (6, 5), (6, 6)}


def test_im02_three_players_covered_area_and_sites():
    s = fortress_state(3)
    assert bin(s.game.covered).count("1") == 12 and 64 - 12 == 52
    assert fortress_sites(s) == {(1, 1), (1, 2), (1, 3), (1, 4), (1, 5), (1, 6), (2, 1), (2, 6), (3, 1), (4, 1),
                                 (5, 1), (6, 1), (6, 2)}


def three_player_position(**kw):
    return build(players=3, fortresses={"R": (1, 2), "Y": (1, 6), "B": (5, 1)}, **kw)


def test_im02_three_players_no_tile_on_a_covered_space():
    s = three_player_position(stacks={(4, 5): ["R-cav/o>S"], (5, 5): ["R-inf/o"]}, cubes={"R": (4, 5)},
                              hands={"R": ["gen/o", "inf/o", "cav/o"]})
    assert next_space(s, 0) == sp(6, 5)  # covered: forced halt
    assert spaces_of(s) == {(0, 2), (1, 1), (1, 3), (2, 2)}
    with pytest.raises(IllegalActionError):
        play(s, "place inf/o 5,6 N")
    play(s, "place gen/o 2,2 E")  # mobilising E would take (4,5) and (5,5) onto covered spaces
    assert s.decision_name() == "order"
    assert not any(t.startswith("mobilise") for t in texts(s))
    with pytest.raises(IllegalActionError) as err:
        play(s, "mobilise 5,5 N")
    assert err.value.rule == "§6.6"


def test_im02_two_players_covered_frame_and_sites():
    s = fortress_state(2)
    assert bin(s.game.covered).count("1") == 32
    sites = {(1, 3), (1, 4), (3, 1), (4, 1), (3, 6), (4, 6), (6, 3), (6, 4)}
    assert fortress_sites(s) == sites
    with pytest.raises(IllegalActionError):
        play(s, "fortress 1,2")  # a B space
    for r, c in sites:
        t = s.clone()
        t.fortress[0] = sp(r, c)
        t.blocked |= 1 << sp(r, c)
        assert len(exits(t, 0)) == 3


def setup_deciders(players: int, start: int = 0) -> tuple[list, list, int]:
    """Who decides each board and each fortress, and who plays first (chance boards as CHANCE)."""
    s = Imperia({"players": players, "start_seat": start}).new_initial_state()
    boards, forts = [], []
    while s.decision_name() in ("board", "random_board", "fortress", "recruit"):
        who = s.current_player()
        if s.decision_name() in ("board", "random_board"):
            boards.append(who)
        elif s.decision_name() == "fortress":
            forts.append(who)
        s.apply_action(s.legal_actions()[-1])  # a draw of infantry never triggers a redraw
    return boards, forts, s.current_player()


def test_im02_two_players_setup_orders():
    assert setup_deciders(2) == ([0, 1, 0, 1], [1, 0], 0)


# ----- IM-03 … IM-06: placing units -----

def test_im03_opening_new_campaign_only():
    s = build(hands={"R": ["inf/o", "cav/d", "gen/o"]})
    legal = s.legal_actions()
    assert len(legal) == 48 and spaces_of(s) == {(0, 2), (1, 1), (1, 3), (2, 2)}
    assert not any(a[0] == 6 for a in legal)  # no warlord without a front
    play(s, "place inf/o 2,2 S")
    assert s.cube[0] == sp(2, 2) and next_space(s, 0) == sp(3, 2)
    assert s.current_player() == CHANCE
    play(s, "draw red inf/d")
    assert sum(s.hand[0]) == 3 and sum(s.pile[0]) == 10
    assert s.current_player() == 1


def test_im03_compulsory_continuation():
    s = build(stacks={(2, 2): ["R-inf/o>S"]}, cubes={"R": (2, 2)}, hands={"R": ["cav/d", "gen/o", "inf/d"]})
    t = texts(s)
    assert len(t) == 13 and "warlord 3,2" in t
    assert all(x.split()[2] == "3,2" for x in t if x.startswith("place"))
    with pytest.raises(IllegalActionError) as err:
        play(s, "place cav/d 1,1 NE")
    assert err.value.rule == "§6.4"


def red_front(stacks: dict, front: tuple, **kw):
    return build(stacks=stacks, cubes={"R": front, **kw.pop("cubes", {})}, **kw)


def test_im04a_cavalry_jumps_over_its_own_fortress():
    s = red_front({(1, 1): ["R-cav/o>E"]}, (1, 1))
    assert next_space(s, 0) == sp(1, 3)
    assert spaces_of(s) == {(1, 3)}


def test_im04b_next_space_a_fortress_forces_a_halt():
    s = red_front({(1, 4): ["R-cav/o>E"]}, (1, 4))
    assert spaces_of(s) == {(0, 2), (1, 1), (1, 3), (2, 2)}
    assert not any(a[0] == 6 for a in s.legal_actions())


def test_im04c_next_space_off_the_board():
    s = red_front({(1, 3): ["R-cav/o>N"]}, (1, 3))
    assert next_space(s, 0) == -1
    assert spaces_of(s) == {(0, 2), (1, 1), (2, 2)}


def test_im04d_cavalry_jumps_over_an_enemy():
    s = red_front({(2, 4): ["R-cav/o>E"], (2, 5): ["Y-inf/o"]}, (2, 4))
    assert next_space(s, 0) == sp(2, 6)
    assert spaces_of(s) == {(2, 6)}


def im05(top_of_32: str = "Y-cav/o", yellow_cube=(2, 6)):
    return build(stacks={(2, 2): ["R-inf/o>S"], (3, 2): [top_of_32], (2, 6): ["Y-inf/o"]},
                 cubes={"R": (2, 2), "Y": yellow_cube}, hands={"R": ["inf/o", "cav/d", "gen/o"]})


def test_im05_battle_by_rank_and_optional_halt():
    s = im05()
    t = texts(s)
    at_n = {x for x in t if "3,2" in x}
    assert at_n == {f"place {k} 3,2 {f}" for k, fs in (("cav/d", "NE SE SW NW"), ("gen/o", "N E S W"))
                    for f in fs.split()} | {"warlord 3,2"}
    camp = t - at_n
    assert len(camp) == 36 and {x.split()[2] for x in camp} == {"0,2", "1,1", "1,3"}
    play(s, "place cav/d 3,2 SE")
    assert [s.stacks[sp(3, 2)][0] >> 4, s.stacks[sp(3, 2)][1] >> 4] == [1, 0]
    assert s.cube[0] == sp(3, 2) and next_space(s, 0) == sp(5, 4)
    assert s.battles[0] == 1


def test_im05_variant_own_stack_takes_any_tile():
    s = im05("R-gen/o")
    assert {x for x in texts(s) if "3,2" in x and x.startswith("place")} == {
        f"place {k} 3,2 {f}" for k, fs in (("inf/o", "N E S W"), ("cav/d", "NE SE SW NW"), ("gen/o", "N E S W"))
        for f in fs.split()}


def test_im06_the_cube_protects():
    s = im05(yellow_cube=(3, 2))
    t = texts(s)
    assert len(t) == 36 and not any("3,2" in x for x in t)


# ----- IM-07: formation edge -----

def test_im07_formation_edge_by_cut_vertices():
    s = build(stacks={(2, 6): ["Y-inf/o"], (3, 6): ["Y-inf/o"], (3, 5): ["Y-inf/o"], (0, 6): ["Y-inf/d"],
                      (5, 3): ["Y-inf/d"], (4, 6): ["Y-cav/o"]}, cubes={"Y": (4, 6)})
    assert [sorted(c) for c in formations(s, 1)] == [sorted(sp(*x) for x in [(2, 6), (3, 6), (3, 5), (4, 6)])]
    for space, open_ in [((2, 6), False), ((3, 6), False), ((4, 6), False), ((3, 5), True), ((0, 6), True),
                         ((5, 3), True)]:
        assert can_enter(s, 0, 3, sp(*space)) is open_, space


def test_im07_variant_loop_through_the_fortress():
    s = build(stacks={(1, 5): ["Y-inf/o"], (2, 5): ["Y-inf/o"], (2, 6): ["Y-inf/o"], (4, 4): ["Y-cav/o"]},
              cubes={"Y": (4, 4)})
    assert protected_mask(s, 1) == 1 << sp(4, 4)  # only the cube


# ----- IM-08 … IM-10: generals -----

def im08(extra: dict | None = None):
    stacks = {(2, 2): ["R-inf/o"], (2, 3): ["Y-inf/o", "R-cav/o"], (3, 2): ["R-inf/o>S"], **(extra or {})}
    return build(stacks=stacks, cubes={"R": (3, 2)}, hands={"R": ["gen/d", "inf/o", "inf/d"]})


def test_im08_mobilisation_moves_the_whole_stack():
    s = im08()
    assert next_space(s, 0) == sp(4, 2)
    play(s, "place gen/d 4,2 SE")
    t = texts(s)
    mobilise = {x for x in t if x.startswith("mobilise")}
    assert mobilise == {f"mobilise {a} {f}" for a in ("2,2", "2,3", "3,2") for f in "N E S W".split()}
    own = {x for x in t if x.startswith("swap own")}
    assert {tuple(x.split()[2:4]) for x in own} == {("2,2", "2,3"), ("2,2", "3,2"), ("2,3", "3,2")}
    assert len(own) == 3 * 2 * 4
    assert not any(x.startswith("swap enemy") for x in t)
    with pytest.raises(IllegalActionError):
        play(s, "place inf/o 5,2 N")  # an order must be given
    play(s, "mobilise 2,3 E")
    assert s.stacks[sp(2, 3)] == ()
    assert [x >> 4 for x in s.stacks[sp(3, 4)]] == [1, 0]
    assert s.cube[0] == sp(3, 4) and next_space(s, 0) == sp(3, 6)
    assert s.stacks[sp(4, 2)][-1] & 15 in (4, 5)  # the diagonal general stays, without the cube


def test_im08_variant_never_onto_an_enemy():
    s = im08({(3, 4): ["B-inf/o"]})
    play(s, "place gen/d 4,2 SE")
    assert not any(x.startswith("mobilise 2,3") for x in texts(s))


def test_im09_directing_troops_against_an_enemy():
    s = build(stacks={(2, 6): ["Y-inf/o"], (3, 6): ["Y-inf/o"], (3, 5): ["B-inf/o", "Y-inf/o"],
                      (2, 2): ["R-inf/o"], (4, 3): ["R-inf/d", "R-cav/o"], (4, 2): ["R-inf/d"],
                      (3, 2): ["R-inf/o>S"]},
              cubes={"Y": (2, 6), "R": (3, 2)}, hands={"R": ["gen/o", "inf/o", "inf/d"]})
    assert next_space(s, 0) == sp(4, 2)
    play(s, "place gen/o 4,2 E")
    t = texts(s)
    assert {x for x in t if x.startswith("swap enemy")} == {f"swap enemy 4,3 3,5 {f}" for f in "N E S W".split()}
    assert {x.split()[1] for x in t if x.startswith("mobilise")} == {"2,2", "3,2", "4,3"}
    play(s, "swap enemy 4,3 3,5 N")
    assert [x >> 4 for x in s.stacks[sp(3, 5)]] == [2, 0] and s.stacks[sp(3, 5)][-1] & 15 in (6, 7)
    assert [x >> 4 for x in s.stacks[sp(4, 3)]] == [0, 1]
    assert s.cube[0] == sp(3, 5) and next_space(s, 0) == sp(1, 5)


def test_im10_general_without_order_becomes_the_front():
    s = build(hands={"R": ["gen/o", "inf/o", "inf/d"]})
    play(s, "place gen/o 2,2 S")
    assert s.decision_name() == "draw"  # no order to give
    assert s.cube[0] == sp(2, 2) and next_space(s, 0) == sp(3, 2)
    rng = random.Random(0)
    while s.current_player() != 0:
        if s.is_chance_node():
            s.apply_action(s.legal_actions()[-1])
        else:
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
    assert spaces_of(s) == {(3, 2)}


# ----- IM-11, IM-12: the warlord -----

def im11(at_25: list):
    stacks = {(2, 2): ["R-inf/o"], (2, 3): ["R-cav/o>E"], (5, 5): ["Y-inf/o"]}
    if at_25:
        stacks[(2, 5)] = at_25
    return build(stacks=stacks, cubes={"R": (2, 3), "Y": (5, 5)}, hands={"R": []}, piles={"R": {}}, check=False)


def test_im11a_enemy_warlord_ahead_warlord_onto_the_front():
    s = im11(["Y-war"])
    assert texts(s) == {"warlord 2,3"}
    play(s, "warlord 2,3")
    assert len(s.stacks[sp(2, 3)]) == 2 and s.cube[0] == sp(2, 3) and s.status[0] == 1


def test_im11b_warlord_covers_an_unprotected_unit():
    assert texts(im11(["Y-inf/o"])) == {"warlord 2,5"}


def test_im11c_warlord_onto_the_empty_next_space():
    assert texts(im11([])) == {"warlord 2,5"}


def im12(facing: str):
    return build(stacks={(1, 1): ["R-inf/d"], (0, 2): [f"R-inf/o>{facing}"], (1, 3): ["Y-cav/d"],
                         (2, 2): ["O-gen/o"], (0, 1): ["B-gen/o"], (5, 5): ["B-inf/o"]},
                 cubes={"R": (0, 2), "Y": (1, 3), "B": (5, 5)}, hands={"R": ["inf/o", "inf/o", "inf/d"]})


def test_im12_stuck_warlord_onto_the_front():
    s = im12("N")
    assert sum(s.pile[0]) > 0 and texts(s) == {"warlord 0,2"}
    play(s, "warlord 0,2")
    assert s.status[0] == 1 and s.current_player() == 1


def test_im12_variant_warlord_covers_the_general_ahead():
    assert texts(im12("W")) == {"warlord 0,1", "warlord 0,2"}


# ----- IM-13 and §9.1: scoring -----

FIXTURE = D.fixtures["scoring_example"]
KINDS = {"infantry": "inf", "cavalry": "cav", "general": "gen"}
LETTER = {"red": "R", "lemon_yellow": "Y", "burgundy": "B", "orange": "O"}


def scoring_example():
    stacks: dict = {}
    for e in FIXTURE["stacks_bottom_to_top"]:
        token = f"{LETTER[e['owner']]}-war" if e["kind"] == "warlord" else \
            f"{LETTER[e['owner']]}-{KINDS[e['kind']]}/{e['class'][0]}"
        stacks.setdefault(tuple(e["space"]), []).append(token)
    forts = {LETTER[c]: tuple(v) for c, v in FIXTURE["fortresses"].items()}
    return build(fortresses=forts, stacks=stacks, terrain=FIXTURE["terrain_override"], phase="over")


def test_im13_worked_scoring_example():
    s = scoring_example()
    assert s.is_terminal()
    got = tallies(s)
    for colour, want in FIXTURE["expected"].items():
        if colour == "result":
            continue
        t = got[D.colours.index(colour)]
        assert (len(t.formation), t.raw, t.ring, t.penalty, t.total, t.warlord_height) == (
            want["scoring_units"], want["terrain_and_castle"], want["ring"], want["penalty"], want["total"],
            want["warlord_height_for_tiebreak"]), colour
    scored = {x for t in got for x in t.formation}
    assert not scored & {sp(0, 3), sp(5, 3), sp(0, 7), sp(7, 0)}  # removed before counting
    assert s.returns() == [19.0, 16.0, 12.0, 19.0]
    assert s.winners() == [0, 3]  # red and orange share first place


TEXT_TALLY = {  # §9.1: the text's tally per player (terrain counts, castle units, ring units, penalty)
    "burgundy": ({"M": 2, "F": 2, "C": 1}, 1, 0, 12),
    "lemon_yellow": ({"M": 4, "F": 3, "V": 1}, 3, 1, 16),
    "red": ({"M": 1, "F": 2, "C": 3}, 2, 2, 19),
    "orange": ({"M": 6, "F": 3}, 4, 0, 19),
}


def test_9_1_tally_arithmetic():
    """§9.1: the text's four tallies recomputed from the point values; all four totals are right."""
    for colour, (terrain, ring, penalty, total) in TEXT_TALLY.items():
        raw = sum(count * (D.castle_points if t == "C" else D.terrain_points[t]) for t, count in terrain.items())
        assert raw + ring - penalty == total, colour


def test_9_1_fixture_realises_the_text_tally():
    s = scoring_example()
    for t, (colour, (terrain, ring, penalty, _)) in zip(tallies(s), [(c, TEXT_TALLY[c]) for c in D.colours]):
        counts: dict = {}
        for x in t.formation:
            counts[s.terrain[x]] = counts.get(s.terrain[x], 0) + 1
        assert counts == terrain and t.ring == ring and t.penalty == penalty, colour
    assert 1 + 3 + 2 + 4 == 10 > 8 and len(RING_TOUCHING) == 12  # why the ring has 12 spaces (G4)


def test_im14_height_tie_break_and_uncovered_tiles_do_not_score():
    s = build(players=2, fortresses={"R": (1, 3), "Y": (6, 4)},
              stacks={(2, 3): ["R-inf/o"], (3, 3): ["Y-inf/o", "R-war"], (5, 4): ["Y-inf/o"], (4, 4): ["Y-war"],
                      (4, 5): ["Y-inf/o", "R-inf/o"]}, phase="over")
    red, yellow = tallies(s)
    assert set(red.formation) == {sp(2, 3), sp(3, 3)} and red.total == 7
    assert set(yellow.formation) == {sp(4, 4), sp(5, 4)} and yellow.total == 7
    assert red.penalty == yellow.penalty == 0
    assert (red.warlord_height, yellow.warlord_height) == (2, 1)
    assert s.winners() == [0]
    assert space_points(s, sp(4, 5)) == 1 and sp(4, 5) not in yellow.formation  # G13: yellow would have 9


# ----- IM-15: setup orders and the redraw -----

def test_im15_four_players_setup_orders():
    assert setup_deciders(4) == ([0, 1, 2, 3], [3, 2, 1, 0], 0)


def test_im15_three_players_setup_orders():
    assert setup_deciders(3) == ([CHANCE, 0, 1, 2], [2, 1, 0], 0)


def test_im15_orders_follow_the_start_seat():
    assert setup_deciders(4, start=2) == ([2, 3, 0, 1], [1, 0, 3, 2], 2)


def recruiting_state():
    s = fortress_state(4)
    for a in ("fortress 1,2", "fortress 1,6", "fortress 6,5", "fortress 5,1"):
        play(s, a)
    assert s.decision_name() == "recruit"
    return s


def test_im15_three_generals_are_redrawn():
    s = recruiting_state()
    events = [e.kind for text in ("draw red gen/o", "draw red gen/d", "draw red gen/o") for e in play(s, text)]
    assert events[-1] == "redraw" and s.redraws[0] == 1
    assert sum(s.hand[0]) == 0 and sum(s.pile[0]) == 14 and s.current == 0 and s.is_chance_node()


def test_im15_redraw_frequency_is_one_in_91():
    base = recruiting_state()
    prob = 1.0
    s = base.clone()
    for name in ("gen/o", "gen/d", "gen/o"):
        prob *= dict((s.action_to_string(a), p) for a, p in s.chance_outcomes())[f"draw red {name}"]
        play(s, f"draw red {name}")
    first_two = dict((base.action_to_string(a), p) for a, p in base.chance_outcomes())
    assert first_two["draw red gen/o"] == pytest.approx(2 / 14)
    rng, trials, redraws = random.Random(5), 9100, 0
    for _ in range(trials):
        s = base.clone()
        while s.current == 0 and s.is_chance_node():
            outcomes = s.chance_outcomes()
            events = s.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            redraws += any(e.kind == "redraw" for e in events)
        assert s.hand[0][0] + s.hand[0][1] < 3
    assert abs(redraws / trials - 1 / 91) < 4 * (1 / 91 / trials) ** 0.5  # within four standard errors
    assert TYPE_NAMES[:2] == ("gen/o", "gen/d")


# ----- the configurable options: general_classes (G9), general_orders (G18), uncovered_tiles_score (G13) -----

FIXED = {"general_orders": "fixed_types_2_mobilise_2_direct"}


def generals_of(game) -> tuple:
    """The ids of a colour's four generals (template indices 2-5) in the game's tile set."""
    return game.tiles.ids[2:6]


def test_g9_g13_g18_defaults_change_nothing():
    """G9, G13, G18: the default config is the rulings' game: generals 2 orthogonal + 2 diagonal with
    both orders, the data file's tile ids, uncovered tiles not scoring; spelling the defaults out
    plays the same game."""
    game = Imperia({})
    assert game.tiles.ids == TEMPLATE and game.uncovered_tiles_score is False
    assert game.new_initial_state().pile[0] == (2, 2, 2, 2, 3, 3, 0, 0, 0, 0)
    explicit = {"general_classes": {"orth": 2, "diag": 2}, "general_orders": "both_orders",
                "uncovered_tiles_score": False}
    assert Imperia(explicit).tiles == game.tiles
    plain, spelt = (play_game({"game": "imperia", "players": 3, **cfg}, [RandomBot(5 + p) for p in range(3)], 5)
                    for cfg in ({}, explicit))
    assert plain.actions == spelt.actions and plain.state.returns() == spelt.state.returns()


def test_g9_general_classes_set_the_generals_of_the_pile():
    """G9: {"orth": 3, "diag": 1} gives three orthogonal generals G1o G2o G3o and one diagonal G4d;
    the draw odds follow (3/14 for an orthogonal general at the first draw)."""
    game = Imperia({"general_classes": {"orth": 3, "diag": 1}, "start_seat": 0, "terrain_override": FIELDS})
    assert generals_of(game) == ("G1o", "G2o", "G3o", "G4d")
    s = game.new_initial_state()
    assert s.pile[0][:2] == (3, 1) and sum(s.pile[0]) == 14
    for a in ("fortress 1,2", "fortress 1,6", "fortress 6,5", "fortress 5,1"):
        play(s, a)
    odds = {s.action_to_string(a): p for a, p in s.chance_outcomes()}
    assert odds["draw red gen/o"] == pytest.approx(3 / 14) and odds["draw red gen/d"] == pytest.approx(1 / 14)
    assert generals_of(Imperia({"general_classes": {"orth": 0, "diag": 4}})) == ("G1d", "G2d", "G3d", "G4d")


def test_g9_third_orthogonal_general_is_g3o_and_turns_orthogonally():
    """G9: with three orthogonal generals, the third one placed is G3o, offered the 4 orthogonal
    facings only, and the position document names it so."""
    options = {"general_classes": {"orth": 3, "diag": 1}}
    s = build(stacks={(0, 7): ["R-gen/o"], (7, 0): ["R-gen/o"]}, hands={"R": ["gen/o", "inf/o", "inf/d"]},
              options=options)
    assert {x for x in texts(s) if x.startswith("place gen/o 2,2")} == {f"place gen/o 2,2 {f}" for f in "NESW"}
    assert not any(x.startswith("place gen/d") for x in texts(s))
    play(s, "place gen/o 2,2 S")
    stack = next(e for e in s.to_json()["stacks"] if e["space"] == [2, 2])
    assert stack["tiles"] == ["red:G3o"] and stack["facings"] == ["S"]
    assert Imperia({**s.game.config}).state_from_json(s.to_json()) == s


@pytest.mark.parametrize("value", [{"orth": 3, "diag": 3}, {"orth": 4}, {"orth": -1, "diag": 5},
                                   {"orth": 2.0, "diag": 2}, {"orth": True, "diag": 3}, "2+2", [2, 2],
                                   {"orth": 2, "diag": 2, "cav": 0}])
def test_g9_bad_general_classes_raise_a_setup_error(value):
    """G9: the classes must be {"orth": a, "diag": b}, whole numbers summing to the 4 generals."""
    with pytest.raises(SetupError) as err:
        Imperia({"general_classes": value})
    assert "general_classes" in str(err.value) and "'orth'" in str(err.value) and "4" in str(err.value)


def test_g18_fixed_types_two_mobilisers_two_directors_whatever_the_classes():
    """G18: with fixed types the odd-numbered generals mobilise and the even-numbered direct troops:
    two of each for every split of G9, and each class of two generals or more has both."""
    assert generals_of(Imperia(FIXED)) == ("G1o-mob", "G2o-dir", "G3d-mob", "G4d-dir")
    for orth in range(5):
        ids = generals_of(Imperia({**FIXED, "general_classes": {"orth": orth, "diag": 4 - orth}}))
        assert [i.endswith("-mob") for i in ids] == [True, False, True, False]
        assert [i[2] for i in ids] == ["o"] * orth + ["d"] * (4 - orth)
    game = Imperia(FIXED)
    assert game.new_initial_state().pile[0] == (0, 0, 2, 2, 3, 3, 1, 1, 1, 1)


def im08_fixed(general: str):
    """IM-08's position with red holding one fixed-type general."""
    stacks = {(2, 2): ["R-inf/o"], (2, 3): ["Y-inf/o", "R-cav/o"], (3, 2): ["R-inf/o>S"]}
    return build(stacks=stacks, cubes={"R": (3, 2)}, hands={"R": [general, "inf/o", "inf/d"]}, options=FIXED)


def test_g18_fixed_mobiliser_only_mobilises():
    """G18, IM-08 with a mobiliser: the same 12 mobilisations, no swap."""
    s = im08_fixed("gen/d-mob")
    play(s, "place gen/d-mob 4,2 SE")
    assert texts(s) == {f"mobilise {a} {f}" for a in ("2,2", "2,3", "3,2") for f in "NESW"}


def test_g18_fixed_director_only_directs_troops():
    """G18, IM-08 with a troop-director: the 24 own swaps, no mobilisation."""
    s = im08_fixed("gen/d-dir")
    play(s, "place gen/d-dir 4,2 SE")
    t = texts(s)
    assert len(t) == 24 and all(x.startswith("swap own") for x in t)
    with pytest.raises(IllegalActionError) as err:
        play(s, "mobilise 2,3 E")
    assert err.value.rule == "§6.6"


def test_g18_fixed_director_swaps_with_an_enemy():
    """G18, IM-09 with a troop-director: the enemy swap and the own swaps, no mobilisation."""
    s = build(stacks={(2, 6): ["Y-inf/o"], (3, 6): ["Y-inf/o"], (3, 5): ["B-inf/o", "Y-inf/o"],
                      (2, 2): ["R-inf/o"], (4, 3): ["R-inf/d", "R-cav/o"], (4, 2): ["R-inf/d"],
                      (3, 2): ["R-inf/o>S"]},
              cubes={"Y": (2, 6), "R": (3, 2)}, hands={"R": ["gen/o-dir", "inf/o", "inf/d"]}, options=FIXED)
    play(s, "place gen/o-dir 4,2 E")
    t = texts(s)
    assert {x for x in t if x.startswith("swap enemy")} == {f"swap enemy 4,3 3,5 {f}" for f in "NESW"}
    assert not any(x.startswith("mobilise") for x in t) and any(x.startswith("swap own") for x in t)


def mobiliser_blocked(options: dict | None, general: str):
    """Red's soldiers on (2,2) and (0,5): one step north is red's fortress or off the board."""
    s = build(stacks={(2, 2): ["R-inf/o>S"], (0, 5): ["R-inf/o"]}, cubes={"R": (2, 2)},
              hands={"R": [general, "inf/o", "inf/d"]}, options=options)
    play(s, f"place {general} 3,2 N")
    return s


def test_g18_a_mobiliser_with_nothing_to_mobilise_becomes_the_front():
    """G18: a general of a fixed type with no legal order of its kind gives none, even though a
    troop-director could swap; it stays the front with step 1 (as IM-10)."""
    assert mobiliser_blocked(None, "gen/o").decision_name() == "order"  # both orders: the swap is there
    s = mobiliser_blocked(FIXED, "gen/o-mob")
    assert s.decision_name() == "draw" and s.cube[0] == sp(3, 2) and next_space(s, 0) == sp(2, 2)


def test_g18_fixed_types_visible_on_the_board_hidden_in_hands():
    """G18, §7.2: a placed general's type is public (its id, the action text, the board's words);
    in a hand it is hidden like the rest of the tile: other seats see only the public multiset."""
    s = im08_fixed("gen/d-mob")
    play(s, "place gen/d-mob 4,2 SE")
    stack = next(e for e in s.observation(1)["stacks"] if e["space"] == [4, 2])
    assert stack["tiles"] == ["red:G3d-mob"]
    assert tile_words("red:G3d-mob", "SE") == "red slanted mobilising general facing south-east"
    assert tile_words("red:G2o-dir") == "red straight troop-directing general"
    red = s.observation(1)["players"][0]
    assert "hand" not in red and red["unseen"]["gen/o-mob"] == 1 and "gen/d-mob" not in red["unseen"]
    game = Imperia({**FIXED, "players": 2})
    played = play_game(game.config, [RandomBot(p) for p in range(2)], 3)
    state = game.new_initial_state()
    for _, action in played.actions[:30]:
        state.apply_action(action)
    rng = random.Random(4)
    for p in range(2):
        assert game.resample(state, p, rng).observation(p) == state.observation(p)


def test_g18_three_fixed_generals_are_redrawn():
    """G18, §3.4: three generals of any types in the starting hand go back."""
    s = Imperia({**FIXED, "start_seat": 0, "terrain_override": FIELDS}).new_initial_state()
    for a in ("fortress 1,2", "fortress 1,6", "fortress 6,5", "fortress 5,1"):
        play(s, a)
    assert {s.action_to_string(a): p for a, p in s.chance_outcomes()}["draw red gen/o-mob"] == pytest.approx(1 / 14)
    events = [e.kind for t in ("gen/o-mob", "gen/d-dir", "gen/o-dir") for e in play(s, f"draw red {t}")]
    assert events[-1] == "redraw" and sum(s.pile[0]) == 14


@pytest.mark.parametrize("value", ["fixed", "fixed_types", None, 2, ["both_orders"]])
def test_g18_bad_general_orders_raise_a_setup_error(value):
    """G18: general_orders is one of the two names; the message lists them."""
    with pytest.raises(SetupError) as err:
        Imperia({"general_orders": value})
    assert "general_orders" in str(err.value) and "fixed_types_2_mobilise_2_direct" in str(err.value)


def im14(**options):
    return build(players=2, fortresses={"R": (1, 3), "Y": (6, 4)},
                 stacks={(2, 3): ["R-inf/o"], (3, 3): ["Y-inf/o", "R-war"], (5, 4): ["Y-inf/o"], (4, 4): ["Y-war"],
                         (4, 5): ["Y-inf/o", "R-inf/o"], **options.pop("stacks", {})},
                 phase="over", options=options)


def test_g13_uncovered_tile_scores_with_the_option():
    """G13, IM-14 with uncovered_tiles_score: the red infantry on (4,5) is removed, the yellow one
    under it joins yellow's formation and scores 1 + 1 (ring): yellow 9 beats red 7."""
    assert [t.total for t in tallies(im14())] == [7, 7]  # the default (IM-14)
    s = im14(uncovered_tiles_score=True)
    red, yellow = tallies(s)
    assert red.total == 7 and set(yellow.formation) == {sp(4, 4), sp(5, 4), sp(4, 5)}
    assert (yellow.raw, yellow.ring, yellow.total) == (7, 2, 9) and s.winners() == [1]


def test_g13_uncovered_tiles_score_only_joined_to_the_formation():
    """G13 option, G31: one removal; an uncovered tile scores if it joins its owner's formation,
    directly or through other uncovered tiles ((4,6) through (4,5)); the yellow tile uncovered on
    (2,5) joins nothing and does not score, and nothing under it is looked at."""
    extra = {(4, 6): ["Y-inf/d", "R-inf/o"], (2, 5): ["Y-cav/o", "Y-inf/d", "R-cav/o"]}
    _, yellow = tallies(im14(uncovered_tiles_score=True, stacks=extra))
    assert set(yellow.formation) == {sp(4, 4), sp(5, 4), sp(4, 5), sp(4, 6)} and yellow.total == 10


def test_g13_a_removed_warlord_stays_inactive_when_its_space_is_uncovered():
    """G13 option, G24: the yellow warlord outside yellow's formation is removed; the yellow tile
    under it joins the formation and scores, but the warlord counts for nothing (height 0)."""
    s = build(players=2, fortresses={"R": (1, 3), "Y": (6, 4)},
              stacks={(2, 3): ["R-inf/o"], (3, 3): ["Y-inf/o", "R-war"], (5, 4): ["Y-inf/o"], (4, 4): ["Y-inf/d"],
                      (4, 5): ["Y-inf/o", "R-inf/o"], (4, 6): ["Y-inf/d", "Y-war"]},
              phase="over", options={"uncovered_tiles_score": True})
    _, yellow = tallies(s)
    assert sp(4, 6) in yellow.formation and yellow.warlord_height == 0


def test_g13_an_uncovered_tile_is_penalised_by_an_active_warlord():
    """G13 option, G23: the yellow tile uncovered on (2,4) (the burgundy infantry on it is in no
    formation) joins yellow's formation beside red's active warlord on (1,4): it scores 1 + 1 (ring)
    and costs 1. Provisional scores, as during play."""
    stacks = {(1, 3): ["R-inf/o"], (1, 4): ["R-war"], (2, 6): ["Y-inf/o"], (2, 5): ["Y-inf/o"],
              (2, 4): ["Y-inf/d", "B-inf/o"]}
    plain, option = (tallies(build(stacks=stacks, to_move="Y", options=o))[1]
                     for o in ({}, {"uncovered_tiles_score": True}))
    assert (plain.raw, plain.ring, plain.penalty, plain.total) == (2, 1, 0, 3)
    assert (option.raw, option.ring, option.penalty, option.total) == (3, 2, 1, 4)


@pytest.mark.parametrize("value", ["true", 1, None, "yes"])
def test_g13_bad_uncovered_tiles_score_raises_a_setup_error(value):
    """G13: uncovered_tiles_score is true or false."""
    with pytest.raises(SetupError) as err:
        Imperia({"uncovered_tiles_score": value})
    assert "uncovered_tiles_score" in str(err.value) and "true or false" in str(err.value)
