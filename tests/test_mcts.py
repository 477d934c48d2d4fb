"""The search bot (core/mcts.py): game-agnostic max^n UCT with determinisation.

It finds forced wins and obvious best moves, never plays an illegal action, is deterministic for a
seed, honours its budgets, and works on toy games written here against the interface alone (with
and without the optional search hooks their plug-ins declare, with chance nodes and a
hidden-information resample).
"""

from __future__ import annotations

import random

import pytest

from imperial_lab.core import registry
from imperial_lab.core.errors import SetupError
from imperial_lab.core.interface import CHANCE, TERMINAL, make_game
from imperial_lab.core.mcts import MCTSBot, RootStat, default_evaluate
from imperial_lab.core.plugin import Capability, GamePlugin
from tests.builders import position
from tests.toy_games import NIM, Nim

# ----- toy games, written against the interface only -----


class RaceGame:
    """A race to ``goal`` for ``players`` seats: each turn 'walk' (1 step) or 'roll' (chance: 0 or
    3 steps, even odds). It has the search hooks; ``calls`` counts them."""

    name = "race"

    def __init__(self, players=3, goal=6):
        self.num_players, self.goal, self.config = players, goal, {"game": "race", "players": players}
        self.calls = {"evaluate": 0, "policy": 0, "resample": 0}
        self.resampled_for = set()

    def new_initial_state(self):
        return RaceState(self, [0] * self.num_players)

    def state_from_json(self, doc):
        return RaceState(self, list(doc["pos"]), doc["to_move"], doc["rolling"])

    def evaluate(self, state):
        self.calls["evaluate"] += 1
        if state.is_terminal():
            return default_evaluate(state)
        total = sum(state.pos) or 1
        return [p / total for p in state.pos]

    def playout_policy(self, rng):
        self.calls["policy"] += 1
        return lambda state: "walk"

    def resample(self, state, player, rng):
        self.calls["resample"] += 1
        self.resampled_for.add(player)
        return state.clone()


class RaceState:
    def __init__(self, game, pos, to_move=0, rolling=False):
        self.game, self.pos, self.to_move, self.rolling = game, pos, to_move, rolling

    def current_player(self):
        if self.is_terminal():
            return TERMINAL
        return CHANCE if self.rolling else self.to_move

    def is_terminal(self):
        return max(self.pos) >= self.game.goal

    def is_chance_node(self):
        return not self.is_terminal() and self.rolling

    def chance_outcomes(self):
        return [(0, 0.5), (3, 0.5)]

    def legal_actions(self):
        if self.is_terminal():
            return []
        return [0, 3] if self.rolling else ["walk", "roll"]

    def apply_action(self, action):
        assert action in self.legal_actions(), action
        if action == "roll":
            self.rolling = True
            return []
        self.pos[self.to_move] += 1 if action == "walk" else action
        self.rolling = False
        self.to_move = (self.to_move + 1) % self.game.num_players
        return []

    def action_to_string(self, action):
        return str(action)

    def string_to_action(self, text):
        return text if text in ("walk", "roll") else int(text)

    def returns(self):
        return [float(p) for p in self.pos]

    def winners(self):
        return [p for p in range(len(self.pos)) if self.pos[p] >= self.game.goal]

    def clone(self):
        return RaceState(self.game, self.pos[:], self.to_move, self.rolling)

    def observation(self, player):
        return self.to_json()

    def to_json(self):
        return {"pos": self.pos, "to_move": self.to_move, "rolling": self.rolling}


@pytest.fixture(autouse=True)
def toy_games(monkeypatch):
    """The toy games registered, each with the search hooks its plug-in declares."""
    hooks = frozenset({Capability.EVALUATE, Capability.PLAYOUT_POLICY, Capability.RESAMPLE})
    for found in (NIM, GamePlugin("race", "Race", RaceGame, capabilities=hooks),
                  GamePlugin("guess", "Guess", GuessGame,
                             capabilities=frozenset({Capability.RESAMPLE, Capability.HIDDEN_INFORMATION}))):
        monkeypatch.setitem(registry.GAMES, found.name, registry.checked(found))


# ----- toy games -----


@pytest.mark.parametrize("heap, best", [(5, 1), (6, 2), (7, 3), (9, 1)])
def test_nim_two_players_leaves_a_multiple_of_four(heap, best):
    """Without any hook (uniform playouts, winners() at the end) it finds Nim's winning move."""
    bot = MCTSBot(seed=1, playouts=1500)
    state = Nim(heap)
    assert bot.decide(state, state.legal_actions()) == best


def test_nim_takes_the_last_stones_at_once():
    bot = MCTSBot(seed=2, playouts=50)
    for heap in (1, 2, 3):
        state = Nim(heap, players=3)
        assert bot.decide(state, state.legal_actions()) == heap


def test_race_with_chance_prefers_the_sure_step_to_the_finish():
    """One step from the goal: walking wins for sure, rolling (0 or 3) only half the time."""
    game = RaceGame(players=3, goal=6)
    state = game.state_from_json({"pos": [5, 4, 4], "to_move": 0, "rolling": False})
    bot = MCTSBot(seed=4, playouts=200)
    assert bot.decide(state, state.legal_actions()) == "walk"
    by_action = {s.action: s for s in bot.last_root_stats}
    assert by_action["walk"].value > by_action["roll"].value


def test_race_uses_the_game_hooks():
    """The game's evaluate, playout policy and resample are used (resample and evaluate once per
    playout, resample for the searching seat, the policy made once per decision)."""
    game = RaceGame(players=3, goal=30)
    state = game.state_from_json({"pos": [3, 2, 4], "to_move": 1, "rolling": False})
    bot = MCTSBot(seed=5, playouts=40, depth=3)
    action = bot.decide(state, state.legal_actions())
    assert action in state.legal_actions()
    assert 1 <= bot.last_playouts <= 40
    assert game.calls["resample"] == game.calls["evaluate"] == bot.last_playouts
    assert game.resampled_for == {1}
    assert game.calls["policy"] == 1


def test_hooks_the_plugin_does_not_declare_are_not_used(monkeypatch):
    """The declaration decides, not what the Game happens to have: the race registered without
    capabilities is searched with the defaults (its hooks never called)."""
    monkeypatch.setitem(registry.GAMES, "race", GamePlugin("race", "Race", RaceGame))
    game = RaceGame(players=3, goal=30)
    state = game.state_from_json({"pos": [3, 2, 4], "to_move": 1, "rolling": False})
    bot = MCTSBot(seed=5, playouts=40, depth=3)
    assert bot.decide(state, state.legal_actions()) in state.legal_actions()
    assert game.calls == {"evaluate": 0, "policy": 0, "resample": 0}


def test_search_applies_legal_actions_unchecked_where_the_game_declares_it(monkeypatch):
    """Imperial 2030 declares ``apply_legal``: search never calls the checked ``apply_action``."""
    from imperial_lab.core.games.imperial2030.state import State

    checked = []
    monkeypatch.setattr(State, "apply_action", lambda self, action: checked.append(action))
    state = position(players=2, cash=[10, 10], nation="CN", bonds={0: ["CN 4"]},
                     nations={"CN": {"government": 0, "rondel": "investor", "treasury": 4}})
    bot = MCTSBot(seed=1, playouts=12, depth=4)
    assert bot.decide(state, state.legal_actions()) in state.legal_actions() and bot.last_playouts > 1
    assert checked == []


def test_toy_games_played_to_the_end_with_legal_actions():
    """Whole games of Nim (no hooks) and of the race (hooks, chance), every seat searched."""
    rng = random.Random(6)
    for _ in range(3):
        state = Nim(11, players=3)
        bots = [MCTSBot(seed=p, playouts=20) for p in range(3)]
        while not state.is_terminal():
            legal = state.legal_actions()
            action = bots[state.current_player()].decide(state, legal)
            assert action in legal
            state.apply_action(action)
        game = RaceGame(players=2, goal=8)
        state = game.new_initial_state()
        bots = [MCTSBot(seed=p, playouts=20, depth=None) for p in range(2)]
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.legal_actions()))
                continue
            legal = state.legal_actions()
            action = bots[state.current_player()].decide(state, legal)
            assert action in legal
            state.apply_action(action)


# ----- Imperial 2030 -----

NEUTRAL = ["alaska", "canada", "quebec", "mexico", "colombia", "peru", "argentina"]


def taxing(cash0: int, cash1: int):
    """RU (government seat 0, RU 4, PP 23, 7 flags) on production_2: 'rondel taxation' (2 spaces,
    free) brings it to 25 PP and ends the game at once with seat 0 at 4 x 5 + cash + 2 (bonus);
    seat 1 holds CN 4 at PF 0."""
    return position(players=2, cash=[cash0, cash1], bonds={0: ["RU 4"], 1: ["CN 4"]}, nation="RU", investor_card=1,
                    nations={"RU": {"government": 0, "rondel": "production_2", "treasury": 0, "power_points": 23,
                                    "flags": NEUTRAL},
                             "CN": {"government": 1, "rondel": "factory"}})


def test_imperial_takes_the_taxation_that_wins_the_game():
    state = taxing(3, 10)  # 25 against 10
    taxation = state.string_to_action("rondel taxation")
    assert taxation in state.legal_actions()
    bot = MCTSBot(seed=7, playouts=60)
    assert bot.decide(state, state.legal_actions()) == taxation
    assert bot.last_root_stats[0].action == taxation and bot.last_root_stats[0].value > 0.8


def test_imperial_avoids_the_taxation_that_loses_the_game():
    state = taxing(3, 40)  # the game would end 25 against 40
    taxation = state.string_to_action("rondel taxation")
    bot = MCTSBot(seed=8, playouts=60)
    action = bot.decide(state, state.legal_actions())
    assert action != taxation and action in state.legal_actions()
    by_action = {s.action: s for s in bot.last_root_stats}
    assert by_action[taxation].visits == 0 or by_action[taxation].value < 0.2


def random_states(count: int, seed: int):
    """States met in random 4-player games, at decisions with several legal actions."""
    rng = random.Random(seed)
    game = make_game({"game": "imperial2030", "players": 4})
    out = []
    while len(out) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(out) < count:
            legal = state.legal_actions()
            if not state.is_chance_node() and len(legal) > 1 and rng.random() < 0.05:
                out.append(state.clone())
            state.apply_action(legal[rng.randrange(len(legal))])
    return out


def test_imperial_never_plays_an_illegal_action():
    for k, state in enumerate(random_states(30, 9)):
        legal = state.legal_actions()
        before = state.to_json()
        bot = MCTSBot(seed=k, playouts=6, depth=4)
        action = bot.decide(state, legal)
        assert action in legal
        assert state.to_json() == before  # the search works on copies
        assert sum(s.visits for s in bot.last_root_stats) == bot.last_playouts


def test_deterministic_for_a_seed():
    """Same seed, same state: same action and the same root statistics; another bot object or
    the same one asked twice. (A fresh state rebuilt from its document gives the same too.)"""
    state = random_states(1, 10)[0]
    game = make_game({"game": "imperial2030", "players": 4})
    a, b = MCTSBot(seed=11, playouts=30, depth=8), MCTSBot(seed=11, playouts=30, depth=8)
    first = a.analyse(state)
    assert a.analyse(state) == first
    assert b.analyse(game.state_from_json(state.to_json())) == first
    assert a.decide(state, state.legal_actions()) == first[0].action
    assert all(isinstance(s, RootStat) for s in first)


def test_single_legal_action_is_returned_without_search():
    state = Nim(1)
    bot = MCTSBot(seed=0, playouts=1000)
    assert bot.decide(state, state.legal_actions()) == 1
    assert bot.last_playouts == 0


def test_seconds_budget():
    """A time budget returns, after at least one playout (no timing assertion: machines differ)."""
    state = random_states(1, 12)[0]
    bot = MCTSBot(seed=None, seconds=0.05, depth=4)
    assert bot.decide(state, state.legal_actions()) in state.legal_actions()
    assert bot.last_playouts >= 1


def test_early_stop_keeps_the_budget_honest():
    """With 2 actions, the search stops once the leader cannot be overtaken: never more playouts
    than the budget, and the leader then has more visits than the rest could catch up."""
    state = Nim(2)
    bot = MCTSBot(seed=0, playouts=500)
    assert bot.decide(state, state.legal_actions()) == 2
    assert 1 <= bot.last_playouts <= 500


def test_from_params():
    bot = MCTSBot.from_params({"playouts": 12, "c": 0.7, "depth": None, "prior": 0.0}, seed=3)
    assert (bot.playouts, bot.c, bot.depth, bot.seconds, bot.seed, bot.prior) == (12, 0.7, None, None, 3, 0.0)
    assert MCTSBot.from_params(bot.params(), seed=3).params() == bot.params()
    assert MCTSBot.from_params({"seconds": 0.5}).playouts is None
    assert MCTSBot.from_params({}).playouts == 64
    for bad in ({"playouts": 0}, {"seconds": -1.0}, {"depth": -2}, {"prior": -1.0}, {"playouts": "12"}):
        with pytest.raises(SetupError):
            MCTSBot.from_params(bad)


class GuessGame:
    """Seat 0 guesses the parity of a hidden card (1, 2 or 3, dealt face down); seat 1 watches.
    ``resample`` redeals the card as seat 0 may believe it: uniformly."""

    name = "guess"
    num_players = 2
    config = {"game": "guess"}

    def resample(self, state, player, rng):
        return GuessState(self, rng.choice((1, 2, 3)) if player == 0 else state.card)


class GuessState(Nim):
    def __init__(self, game, card):
        self.game, self.card, self.guess = game, card, None

    def current_player(self):
        return TERMINAL if self.guess is not None else 0

    def is_terminal(self):
        return self.guess is not None

    def legal_actions(self):
        return [] if self.is_terminal() else ["odd", "even"]

    def apply_action(self, action):
        self.guess = action
        return []

    def returns(self):
        if self.guess is None:
            return [0.0, 0.0]
        right = (self.card % 2 == 1) == (self.guess == "odd")
        return [1.0, 0.0] if right else [0.0, 1.0]

    def winners(self):
        return [] if self.guess is None else [0 if self.returns()[0] else 1]

    def clone(self):
        other = GuessState(self.game, self.card)
        other.guess = self.guess
        return other

    def to_json(self):
        return {"guess": self.guess}  # the card is hidden

    def observation(self, player):
        return self.to_json()


def test_hidden_information_searches_the_determinisations():
    """The true card is 2 (even), but seat 0 cannot see it: over its determinisations 'odd' wins
    2 times in 3, so the search plays 'odd' and values it near 2/3."""
    state = GuessState(GuessGame(), 2)
    bot = MCTSBot(seed=13, playouts=300, prior=0)
    assert bot.decide(state, state.legal_actions()) == "odd"
    odd = next(s for s in bot.last_root_stats if s.action == "odd")
    assert 0.5 < odd.value < 0.8


def test_bot_spec():
    """imperial_lab.core.bots builds it from a spec (registered there lazily from this module)."""
    from imperial_lab.core.bots import make_bot

    bot = make_bot("mcts:playouts=4:depth=none", 3)
    assert isinstance(bot, MCTSBot) and bot.playouts == 4 and bot.depth is None and bot.seed == 3
