"""The heuristic bot (core/imperial2030/heuristic.py): legal, deterministic, tunable, and better than random."""

from __future__ import annotations

from core.bots import RandomBot, make_bot
from core.imperial2030.actions import BUY, TOPUP, UPGRADE
from core.imperial2030.board import NATIONS, load_board
from core.imperial2030.heuristic import HeuristicBot, Weights
from core.imperial2030.pending import P_DEAL, PENDING_NAMES
from core.play import play_game
from tests.builders import position

TIGHT = {code: {"armies": 2, "fleets": 1} for code in NATIONS}  # unit limits bite: production choices
CONFIGS = [{"players": 4}, {"players": 4, "setup": "variant"}, {"players": 3, "unit_limits": TIGHT},
           {"players": 2}, {"players": 5, "setup": "variant"}, {"players": 6}, {"players": 3, "setup": "variant"}]


class Checked(HeuristicBot):
    """Asserts every answer is legal, and that cash goes into a treasury only for a factory;
    notes the kinds of decision met."""

    def __init__(self, seed, seen):
        super().__init__(seed)
        self.seen = seen

    def decide(self, state, legal_actions):
        action = super().decide(state, legal_actions)
        assert action in legal_actions, (state.decision_name(), action)
        assert action[0] != TOPUP or state.decision_name() == "factory", (state.decision_name(), action)
        self.seen.add(state.decision_name())
        return action


class Consulting(RandomBot):
    """Plays at random, but first asks the heuristic bot (for whoever decides) and checks its answer:
    positions no heuristic player would reach."""

    def __init__(self, seed, seen):
        super().__init__(seed)
        self.heuristic = Checked(seed, seen)

    def decide(self, state, legal_actions):
        self.heuristic.decide(state, legal_actions)
        return super().decide(state, legal_actions)


def flag_choice_state():
    """RU has one flag left in its supply but two regions to flag (§7.4.8): a flag decision."""
    b = load_board()
    neutral = [b.region_ids[r] for r in b.neutral]
    return position(nations={"RU": {"government": 0, "flags": neutral[:b.flags_per_nation - 1]}},
                    bonds={0: ["RU 4"]},
                    decision={"kind": "flag", "player": 0, "flags_to_place": [["RU", neutral[-2:]]]})


def test_only_legal_actions_in_every_kind_of_decision():
    seen: set[str] = set()
    for k, config in enumerate(CONFIGS):
        for seed in range(2):
            players = config["players"]
            # heuristic seats among random ones: random play leads into rarer corners (vetoes, canals)
            bots = [Checked(seed * 10 + p, seen) if (p + seed) % 2 == 0 else Consulting(seed * 10 + p, seen)
                    for p in range(players)]
            play_game({"game": "imperial2030", **config}, bots, seed=100 * k + seed, record=False)
    state = flag_choice_state()
    Checked(0, seen).decide(state, state.legal_actions())
    assert seen == set(PENDING_NAMES) - {PENDING_NAMES[P_DEAL]}


def _game(bots, seed=7):
    return play_game({"game": "imperial2030", "players": 4}, bots, seed=seed)


def test_the_same_seeds_give_the_same_game():
    first = _game([HeuristicBot(p) for p in range(4)])
    again = _game([HeuristicBot(p) for p in range(4)])
    assert first.actions == again.actions
    assert first.state.returns() == again.state.returns()


def test_weights_change_behaviour():
    def bond_deals(weights):
        played = _game([HeuristicBot(p, weights) for p in range(4)])
        return played.actions, [a for _, a in played.actions if a[0] in (BUY, UPGRADE)]

    actions, deals = bond_deals(Weights())
    stingy_actions, stingy_deals = bond_deals(Weights(buy_margin=1000.0))
    assert deals and not stingy_deals  # a huge margin keeps all the cash
    assert bond_deals(Weights(flag=5.0, move_cost=3.0))[0] != actions


def test_from_params_and_registry():
    bot = HeuristicBot.from_params({"flag": 3.5, "control": 0.0}, seed=1)
    assert bot.w.flag == 3.5 and bot.w.control == 0.0 and bot.w.unit == Weights().unit
    assert bot.params()["flag"] == 3.5
    assert isinstance(make_bot("heuristic", 2), HeuristicBot)


def test_beats_random_bots():
    """One heuristic seat (rotating) against three random ones; a shared win counts as a win."""
    games, wins = 40, 0
    for k in range(games):
        seat = k % 4
        bots = [HeuristicBot(k * 10 + p) if p == seat else RandomBot(k * 10 + p) for p in range(4)]
        wins += seat in _game(bots, seed=k).state.winners()
    assert wins >= 0.6 * games
