"""The engine's fast paths give the same game as the plain rules (speed figures: scripts/bench_engine.py).

* the incremental unit masks (``army_at``, ``fleet_at``, ``occ_mask``, ``nations_in``) match the
  unit lists after every action, also in states rebuilt from position documents;
* army moves from the board's memos equal the moves computed afresh, army by army, from
  ``army_destinations`` and ``entry_stances`` (cold memos, warm memos, refused canals);
* ``play_game(record=False)`` plays the same game and hands back a state that records again
  (the unchecked and silent apply of every game: tests/test_engine.py).
"""

from __future__ import annotations

import pytest

from imperial_lab.core.bots import make_bot
from imperial_lab.core.games.imperial2030.actions import ARMY, HOSTILE
from imperial_lab.core.games.imperial2030.data import load_board
from imperial_lab.core.interface import make_game
from imperial_lab.core.play import play_game

CASES = [(2, "standard", 3), (3, "variant", 5), (4, "standard", 8), (5, "standard", 13), (6, "variant", 21)]


def states_of(players: int, setup: str, seed: int) -> list:
    """A copy of the state after every action of one seeded random game."""
    config = {"game": "imperial2030", "players": players, "setup": setup}
    states = []
    play_game(config, [make_bot("random", seed * 10 + p) for p in range(players)], seed,
              on_step=lambda s, *_: states.append(s.clone()))
    return states


@pytest.fixture(scope="module")
def games():
    return {case: states_of(*case) for case in CASES}


def derived(s) -> tuple:
    """The incremental data recomputed from the unit lists."""
    R = s.board.nregions
    army_at = [sum(1 << r for r in range(R) if s.armies[m * R + r]) for m in range(6)]
    fleet_at = [sum(1 << r for r in range(R) if s.fleets[m * R + r]) for m in range(6)]
    occ_mask = sum(1 << r for r in range(R) if s.occ[r])
    nations_in = [sum(1 for m in range(6) if s.armies[m * R + r] or s.fleets[m * R + r]) for r in range(R)]
    return army_at, fleet_at, occ_mask, nations_in


@pytest.mark.parametrize("case", CASES, ids=[f"{p}p-{setup}-{seed}" for p, setup, seed in CASES])
def test_unit_masks_follow_the_units(games, case):
    game = make_game({"game": "imperial2030", "players": case[0], "setup": case[1]})
    for k, s in enumerate(games[case]):
        assert (s.army_at, s.fleet_at, s.occ_mask, s.nations_in) == derived(s), f"step {k + 1}"
        if k % 25 == 0:
            rebuilt = game.state_from_json(s.to_json())
            assert (rebuilt.army_at, rebuilt.fleet_at, rebuilt.occ_mask, rebuilt.nations_in) == derived(s)


def fresh_army_moves(s) -> list:
    """The army moves of a maneuver computed army by army, without any memo (the rules as written)."""
    n, R = s.nation, s.board.nregions
    out = []
    for r in range(R):
        groups = s.army_groups(n, r, unmoved=True)
        if not groups:
            continue
        for to, via in s.army_destinations(r):
            for stance, _ in groups:
                out += [(ARMY, r, stance, to, via, ts) for ts in s.entry_stances(r, stance, to)]
    return [a for a in out if a not in s.denied]


@pytest.mark.parametrize("cold", [True, False], ids=["cold memos", "warm memos"])
def test_army_moves_from_the_memos_equal_the_moves_computed_afresh(games, cold):
    board = load_board()
    checked = 0
    for states in games.values():
        for s in states:
            if s.decision_name() != "maneuver":
                continue
            if cold:
                for memo in (board.dest_cache, board.move_cache, board.lone_cache):
                    memo.clear()
            other = s.clone()
            other._legal = other._legal_set = None  # not the list another test may have left
            assert [a for a in other.legal_actions() if a[0] == ARMY] == fresh_army_moves(s), s.to_json()
            checked += 1
    assert checked > 500


def test_army_moves_leave_out_refused_canal_crossings_and_see_hostile_armies_leave(games):
    """Positions where the memo keys matter: a refused crossing, hostile armies abroad."""
    seen_hostile = 0
    for states in games.values():
        for s in states:
            if s.decision_name() != "maneuver":
                continue
            moves = [a for a in s.legal_actions() if a[0] == ARMY]
            if not moves:
                continue
            seen_hostile += any(a[2] == HOSTILE for a in moves)
            other = s.clone()
            other.denied = s.denied | {moves[0]}
            other._legal = other._legal_set = None
            assert [a for a in other.legal_actions() if a[0] == ARMY] == [a for a in moves if a != moves[0]]
    assert seen_hostile > 0


def test_play_game_without_a_record_plays_the_same_game_and_records_again_afterwards():
    config = {"game": "imperial2030", "players": 4}
    seen = []

    class Spy:
        def __init__(self, seed):
            self.bot = make_bot("random", seed)

        def decide(self, state, legal_actions):
            seen.append(self.bot.decide(state, legal_actions))
            return seen[-1]

    with_record = play_game(config, [make_bot("random", 40 + p) for p in range(4)], 4)
    without = play_game(config, [Spy(40 + p) for p in range(4)], 4, record=False)
    assert without.actions == [] and without.decisions == with_record.decisions
    assert seen == [a for p, a in with_record.actions if p >= 0]
    assert without.state.to_json() == with_record.state.to_json()
    assert without.state.recording and with_record.state.recording

