"""Property tests over many complete random games (STYLE.md (c)3).

Random bots play games to the end: in the default suite one seeded game of every player count (2-6)
and setup (the standard deal and the experienced-players variant); with ``--slow``, GAMES games for
which Hypothesis draws the chance seed, the player count and the setup. After *every* action:

* ``check_invariants`` finds nothing (money, bonds, units, flags, PP, Swiss banks, governments);
* the position document round-trips: ``state_from_json(to_json())`` gives the same document and
  the same legal actions. To stay within the time budget this runs on a sample: every step
  that leads to a decision other than ``turn_start`` and ``maneuver``, and every 4th step
  otherwise (about 40% of all steps, every kind of decision included);
* the payment events of the action add up, holder by holder, to the change of money;
* governments (and Swiss banks) change only at the end of setup or of an Investor turn, each
  change reported by its event;
* the game ends in exactly the action in which a nation reaches 25 PP, with one ``game_ended``.

Every 40th step a clone is mutated (an action applied, its lists changed) and the original must
not notice. At the end the recorded action list, replayed from a fresh initial state, must give
the same final document.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from imperial_lab.core.bots import RandomBot
from imperial_lab.core.games.imperial2030.data import NATIONS
from imperial_lab.core.games.imperial2030.invariants import check_invariants
from imperial_lab.core.games.imperial2030.pending import P_DEAL, P_INVEST, P_VARIANT
from imperial_lab.core.interface import TERMINAL, make_game
from imperial_lab.core.play import play_game

GAMES = 200  # --slow: the full run (about two CPU-minutes)
KINDS = [(players, setup) for players in range(2, 7) for setup in ("standard", "variant")]  # the default suite
CLONE_EVERY = 40
# The document round-trip is the costliest check (about 1 ms a step); it runs at every step that
# leads to a rarer decision and at every 4th step leading to the two that make up ~3/4 of a game.
ROUND_TRIP_EVERY = 4
COMMON_DECISIONS = ("turn_start", "maneuver")


def money(state) -> Counter:
    holders = Counter({"bank": state.bank})
    holders.update({f"player:{p}": c for p, c in enumerate(state.cash)})
    holders.update({code: state.treasury[n] for n, code in enumerate(NATIONS)})
    return holders


class Checker:
    """The on_step observer: compares each state with the one before it."""

    def __init__(self, config: dict, label: str):
        self.game = make_game(config)
        self.label = label
        self.prev = self.game.new_initial_state()
        assert check_invariants(self.prev) == [], self.where("initial state")
        self.step = 0

    def where(self, what: str) -> str:
        return f"{self.label}, step {self.step}: {what}"

    def __call__(self, state, player, action, events) -> None:
        self.step += 1
        text = self.prev.action_to_string(action)
        problems = check_invariants(state)
        assert problems == [], self.where(f"after {text!r}: {problems}")
        if self.step % ROUND_TRIP_EVERY == 0 or state.decision_name() not in COMMON_DECISIONS:
            self.round_trip(state, text)
        self.payments(state, events, text)
        self.governments(state, events, text)
        self.end(state, events, text)
        if self.step % CLONE_EVERY == 0:
            self.clone_independence(state)
        self.prev = state.clone()

    def round_trip(self, state, text: str) -> None:
        doc = state.to_json()
        rebuilt = self.game.state_from_json(doc)
        assert rebuilt.to_json() == doc, self.where(f"after {text!r} the position document does not round-trip")
        assert rebuilt.legal_actions() == state.legal_actions(), \
            self.where(f"after {text!r} the rebuilt position offers other legal actions")

    def payments(self, state, events, text: str) -> None:
        paid = Counter()
        for e in events:
            if e.kind == "payment":
                assert e.data["amount"] > 0, self.where(f"{text!r}: payment of {e.data['amount']}")
                paid[e.data["from"]] -= e.data["amount"]
                paid[e.data["to"]] += e.data["amount"]
        before, after = money(self.prev), money(state)
        change = {k: after[k] - before[k] for k in after if after[k] != before[k]}
        assert change == {k: v for k, v in paid.items() if v}, \
            self.where(f"{text!r}: money changed by {dict(change)} but payments say {dict(paid)}")

    def governments(self, state, events, text: str) -> None:
        changed = {NATIONS[n]: state.gov[n] for n in range(6) if state.gov[n] != self.prev.gov[n]}
        reported = {e.data["nation"]: e.data["new"] for e in events if e.kind == "government"}
        assert changed == reported, self.where(f"{text!r}: governments changed {changed}, events say {reported}")
        swiss = {p: state.swiss[p] for p in range(state.nplayers) if state.swiss[p] != self.prev.swiss[p]}
        said = {e.data["player"]: e.data["has"] for e in events if e.kind == "swiss_bank"}
        assert swiss == said, self.where(f"{text!r}: Swiss banks changed {swiss}, events say {said}")
        if changed or swiss:
            kind = self.prev.pending[0]
            setup = kind in (P_DEAL, P_VARIANT)
            investor_end = kind == P_INVEST and any(e.kind == "investor_card" for e in events)
            assert setup or investor_end, \
                self.where(f"{text!r}: governments/Swiss banks changed outside setup and the end of an Investor turn")

    def end(self, state, events, text: str) -> None:
        reached = [n for n in range(6) if state.pp[n] == 25 and self.prev.pp[n] < 25]
        ended = [e for e in events if e.kind == "game_ended"]
        assert not self.prev.is_terminal()
        if state.is_terminal():
            assert len(reached) == 1 and len(ended) == 1, self.where(f"{text!r}: ended without reaching 25 PP")
            assert ended[0].data["nation"] == NATIONS[reached[0]] and events[-1] is ended[0]
            assert state.legal_actions() == [] and state.current_player() == TERMINAL
        else:
            assert not reached and not ended, self.where(f"{text!r}: a nation reached 25 PP and play goes on")

    def clone_independence(self, state) -> None:
        doc, legal = state.to_json(), list(state.legal_actions())
        other = state.clone()
        if legal:
            other.apply_action(legal[-1])
        for name in ("cash", "treasury", "pp", "gov", "owner", "armies", "fleets", "flag", "factory"):
            getattr(other, name)[0] = getattr(other, name)[0] + 1
        other.moved_a[0] = 99
        other.bank += 7
        assert state.to_json() == doc and state.legal_actions() == legal, \
            self.where("changing a clone changed the original")


def play_checked(seed: int, players: int, setup: str) -> tuple:
    config = {"game": "imperial2030", "players": players, "setup": setup}
    label = f"seed {seed}, {players} players, {setup} setup"
    checker = Checker(config, label)
    bots = [RandomBot(seed * 10 + p) for p in range(players)]
    played = play_game(config, bots, seed, on_step=checker)
    final = played.state
    assert final.is_terminal() and checker.step == len(played.actions)
    replay = make_game(config).new_initial_state()
    for player, action in played.actions:
        assert replay.current_player() == player, f"{label}: replay diverged"
        replay.apply_action(action)
    assert replay.to_json() == final.to_json(), f"{label}: replaying the action list gives another final state"
    return played


@pytest.mark.parametrize("players, setup", KINDS)
def test_a_random_game_of_every_kind_keeps_every_invariant(players, setup):
    play_checked(1000 * players + len(setup), players, setup)


# No shrinking: a smaller seed is just another game, so shrinking only costs minutes.
@pytest.mark.slow
@settings(max_examples=GAMES, deadline=None, phases=(Phase.explicit, Phase.reuse, Phase.generate),
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6), setup=st.sampled_from(["standard", "variant"]))
def test_random_games_keep_every_invariant(seed, players, setup):
    play_checked(seed, players, setup)


# ----- the checker itself is not vacuous: each corruption is reported -----

@pytest.fixture(scope="module")
def midgame():
    """A 4-player position some 300 actions into a seeded random game (an armies/fleets/flags mix)."""
    states = []
    play_game({"game": "imperial2030", "players": 4}, [RandomBot(p) for p in range(4)], 7,
              on_step=lambda s, *_: states.append(s.clone()))
    state = next(s for s in states[300:] if s.pending[0] != P_INVEST and any(s.flag_count) and any(s.n_fleets))
    assert check_invariants(state) == []
    return state


def _corrupt(state, change) -> list[str]:
    s = state.clone()
    change(s)
    return check_invariants(s)


def _first(values, predicate) -> int:
    return next(i for i, v in enumerate(values) if predicate(v))


@pytest.mark.parametrize("change, words", [
    (lambda s: s.cash.__setitem__(0, s.cash[0] + 1), "money not conserved"),
    (lambda s: (s.cash.__setitem__(1, -1), setattr(s, "bank", s.bank + s.cash[1] + 1)), "negative cash"),
    (lambda s: s.owner.__setitem__(0, 9), "unknown owner"),
    (lambda s: s.n_armies.__setitem__(0, s.n_armies[0] + 1), "army total"),
    (lambda s: s.occ.__setitem__(0, 1), "occupation count"),
    (lambda s: s.flag_count.__setitem__(2, s.flag_count[2] + 1), "flag total"),
    (lambda s: s.pp.__setitem__(1, 26), "outside 0..25"),
    (lambda s: s.pp.__setitem__(1, 25), "reached 25 power points but the game goes on"),
    (lambda s: setattr(s, "terminal", True), "no nation has 25"),
    (lambda s: s.swiss.__setitem__(s.gov[_first(s.gov, lambda g: g >= 0)], True), "Swiss bank"),
])
def test_check_invariants_reports_each_corruption(midgame, change, words):
    problems = _corrupt(midgame, change)
    assert any(words in p for p in problems), problems


def test_check_invariants_reports_units_in_wrong_places(midgame):
    b = midgame.board
    sea = b.region_index["north_atlantic"]
    moscow, berlin, london = (b.region_index[x] for x in ("moscow", "berlin", "london"))

    def army_at_sea(s):
        s.armies[sea] += 1  # RU
        s.n_armies[0] += 1
    assert any("armies at sea" in p for p in _corrupt(midgame, army_at_sea))

    def hostile_at_home(s):
        s.armies[moscow] += 1
        s.hostile[moscow] += 1
        s.n_armies[0] += 1
        s.occ[moscow] += 1
    assert any("not another nation's home" in p for p in _corrupt(midgame, hostile_at_home))

    def foreign_fleet_in_harbour(s):
        s.fleets[london] += 1  # a RU fleet in the EU harbour
        s.n_fleets[0] += 1
    assert any("not one of its own harbours" in p for p in _corrupt(midgame, foreign_fleet_in_harbour))

    def too_many(s):
        s.armies[berlin] += 20  # RU armies, friendly
        s.n_armies[0] += 20
    assert any("more than its limit" in p for p in _corrupt(midgame, too_many))

    def flag_at_home(s):
        s.flag[berlin] = 0
        s.flag_count[0] += 1
    assert any("home province" in p for p in _corrupt(midgame, flag_at_home))


def test_check_invariants_reports_a_government_below_the_top(midgame):
    n = _first(midgame.gov, lambda g: g >= 0)
    rival = (midgame.gov[n] + 1) % midgame.nplayers

    def give_bonds(s):
        for k in range(n * 9, n * 9 + 9):
            if s.owner[k] < 0:
                s.owner[k] = rival
    assert any("below the highest" in p for p in _corrupt(midgame, give_bonds))
