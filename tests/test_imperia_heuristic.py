"""The Imperia heuristic bot (core/games/imperia/heuristic.py): legal, seeded, better than random.
The 400-game measurement is scripts/bench_imperia.py."""

from __future__ import annotations

from imperial_lab.core.bots import RandomBot
from imperial_lab.core.games.imperia.heuristic import ImperiaHeuristicBot
from imperial_lab.core.games.imperia.builders import build
from imperial_lab.core.play import play_game


def test_heuristic_is_seeded_and_legal():
    config = {"game": "imperia", "players": 3}
    a = play_game(config, [ImperiaHeuristicBot(1), RandomBot(2), RandomBot(3)], 5)
    b = play_game(config, [ImperiaHeuristicBot(1), RandomBot(2), RandomBot(3)], 5)
    assert a.actions == b.actions and a.state.is_terminal()


def test_heuristic_beats_random_bots():
    wins = 0
    for g in range(12):
        bots = [RandomBot(100 + g), RandomBot(200 + g)]
        bots[g % 2] = ImperiaHeuristicBot(g)
        wins += g % 2 in play_game({"game": "imperia", "players": 2}, bots, g).state.winners()
    assert wins >= 9


def test_heuristic_takes_the_battle_it_wins():
    """Red's front on (2,4) points at a yellow edge unit on (2,5): covering it extends red's
    formation and shrinks yellow's, better than a new campaign or the warlord."""
    s = build(stacks={(1, 3): ["R-inf/d"], (2, 3): ["R-inf/d"], (2, 4): ["R-inf/o>E"], (2, 5): ["Y-inf/o"],
                      (2, 6): ["Y-inf/o"]},
              cubes={"R": (2, 4), "Y": (2, 6)}, hands={"R": ["inf/o", "cav/d", "gen/o"]})
    action = ImperiaHeuristicBot(0).decide(s, s.legal_actions())
    assert action[0] == 5 and action[2] == 2 * 8 + 5


def test_temperature_draws_among_the_values_seeded_and_zero_plays_as_before():
    """``heuristic:temperature=T`` (the ladder's strength dial): seeded, legal, other choices than at 0;
    the default is 0, the bot as it always played."""
    from imperial_lab.core.bots import canonical_spec, make_bot

    config = {"game": "imperia", "players": 2}

    def game(spec):
        return play_game(config, [make_bot(spec, 1, "imperia"), make_bot(spec, 2, "imperia")], 7)

    hot = game("heuristic:temperature=2")
    assert hot.actions == game("heuristic:temperature=2").actions and hot.state.is_terminal()
    assert hot.actions != game("heuristic").actions
    assert game("heuristic").actions == play_game(config, [ImperiaHeuristicBot(1), ImperiaHeuristicBot(2)], 7).actions
    assert canonical_spec("heuristic:temperature=0", game="imperia") == "heuristic"
