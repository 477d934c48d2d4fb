"""The game-agnostic play session (core/session.py) that terminal play and the dashboard's Play page
drive: who is waited for, bot and chance moves with their words, determinism from the seed and the
people's choices, undo, hint, why, move logs in and out, and any game of the interface."""

from __future__ import annotations

import json
import random

import pytest

from imperial_lab.core.errors import IllegalActionError, LogError, NotationError, SetupError
from imperial_lab.core.bots import make_bot
from imperial_lab.core.gamelog import replay
from imperial_lab.dashboard.games.imperial2030.replay import timeline_from_text
from imperial_lab.core.interface import CHANCE, make_game
from imperial_lab.core.plugin import GamePlugin
from imperial_lab.core.session import HUMAN, PlaySession, bot_seed

SEATS = [None, "heuristic", "random"]  # a person in seat 0


def config(players: int = 3) -> dict:
    return make_game({"players": players}).config


def play_out(session: PlaySession, choose=lambda legal: legal[0], limit: int | None = None) -> PlaySession:
    """Bots and chance move; the people choose with ``choose``; stop at the end or after ``limit`` choices."""
    chosen = 0
    while not session.is_over() and (limit is None or chosen < limit):
        session.advance_to_human()
        if session.waiting_for() is not None:
            session.play(choose(session.legal()))
            chosen += 1
    return session


def test_waiting_for_is_a_persons_seat_and_nothing_else():
    session = PlaySession(config(), SEATS, seed=4)
    assert session.to_move() == CHANCE and session.waiting_for() is None  # the deal first
    deal = session.step()
    assert deal.player == CHANCE and deal.who == "Chance" and deal.text.startswith("deal ")
    assert any("flag cards are dealt" in line for line in deal.lines)
    steps = session.advance_to_human()
    assert session.waiting_for() == 0 and session.to_move() == 0
    assert all(s.player in (1, 2) for s in steps)
    assert [s.index for s in steps] == list(range(1, 1 + len(steps)))
    with pytest.raises(SetupError, match="a person"):
        session.step()
    lines = session.decision_lines()
    assert lines[0].startswith("Player A: ") and "[§" in lines[0]
    assert len(session.action_notes()) == len(session.legal())
    mine = session.play(session.legal()[0])
    assert mine.player == 0 and mine.who.startswith("Player A") and mine.index == len(session.actions) - 1
    play_out(session)
    assert session.is_over() and session.waiting_for() is None and session.legal() == []
    with pytest.raises(SetupError, match="over"):
        session.play(None)
    with pytest.raises(SetupError, match="over"):
        session.step()


def test_an_illegal_choice_raises_the_engines_error_and_changes_nothing():
    session = PlaySession(config(), SEATS, seed=4)
    session.advance_to_human()
    before, changes = list(session.actions), session.changes
    with pytest.raises(IllegalActionError, match=r"\[RULES.md §"):
        session.play(session.state.string_to_action("pass"))
    assert session.actions == before and session.changes == changes


def test_the_same_seed_and_choices_play_the_same_game():
    games = [play_out(PlaySession(config(), SEATS, seed=9)).actions for _ in range(2)]
    assert games[0] == games[1]
    other = play_out(PlaySession(config(), SEATS, seed=10)).actions
    assert other != games[0]
    # a bot is seeded per decision: by the game's seed, its seat and the actions played so far
    assert len({bot_seed(9, 1, 5), bot_seed(9, 1, 6), bot_seed(9, 2, 5), bot_seed(10, 1, 5)}) == 4


def test_undo_takes_back_the_last_decision_of_a_person_and_the_same_choice_replays_it():
    plain = play_out(PlaySession(config(4), [None, "heuristic", None, "heuristic"], seed=8))
    session = PlaySession(config(4), [None, "heuristic", None, "heuristic"], seed=8)
    assert session.undo() is None  # nobody has decided yet
    play_out(session, limit=6)
    decided = session.last_human_index()
    player, action = session.actions[decided]
    later = len(session.actions) - decided - 1
    undone = session.undo()
    assert (undone.player, undone.action, undone.later) == (player, action, later)
    assert len(session.actions) == decided and session.waiting_for() == player
    assert undone.text == session.state.action_to_string(action)
    play_out(session)
    assert session.actions == plain.actions


def test_a_log_round_trip_resumes_the_same_game():
    whole = play_out(PlaySession(config(), SEATS, seed=6))
    half = play_out(PlaySession(config(), SEATS, seed=6), limit=20)
    text = half.to_log()
    header = text.splitlines()[0]
    assert '"seed": 6' in header and f'"bots": ["{HUMAN}", "heuristic", "random"]' in header
    assert replay(text.splitlines()).to_json() == half.state.to_json()  # imperial replay checks it
    assert timeline_from_text(text, "game.jsonl").snapshots  # and the explorer shows it
    resumed = PlaySession.from_log(text, name="game.jsonl")
    assert (resumed.seats, resumed.seed, resumed.actions) == (half.seats, 6, half.actions)
    assert resumed.resumed == len(half.actions) and resumed.waiting_for() == half.waiting_for()
    assert play_out(resumed).actions == whole.actions  # the bots go on as in the uninterrupted game
    # the moves of the log, in words, as the session that made them told them
    assert [(s.who, s.text, s.lines) for s in resumed.history(len(half.actions) - 5)][:5] == \
           [(s.who, s.text, s.lines) for s in half.history(len(half.actions) - 5)]


def test_a_log_names_the_seats_and_the_seed_or_they_are_given():
    session = PlaySession(config(), SEATS, seed=3)
    session.step()
    lines = session.to_log().splitlines()
    header = json.loads(lines[0])
    del header["seed"], header["bots"]
    bare = "\n".join([json.dumps(header), *lines[1:]])
    resumed = PlaySession.from_log(bare, seed=3, unnamed="random")
    assert resumed.seats == ["random"] * 3 and resumed.seed == 3 and resumed.actions == session.actions
    assert PlaySession.from_log(bare, seats=[None, None, "random"], seed=3).humans == {0, 1}
    with pytest.raises(LogError, match=r"^bad\.jsonl:2: "):
        PlaySession.from_log(lines[0] + '\n{"player": -1, "action": "rondel beach"}\n', name="bad.jsonl")


def test_why_gives_the_engines_reason_the_notations_error_or_the_choice():
    session = PlaySession(config(), SEATS, seed=4)
    session.advance_to_human()
    refused = session.why("pass")
    assert not refused.legal and refused.action is not None and refused.choice is None
    # in a player's words, the rule named by its section's title (issue 23), not the engine's notation
    assert refused.message == ("Not allowed: the government must first choose a rondel destination (§5 How a "
                               "nation's turn goes).")
    garbled = session.why("rondel beach")
    assert garbled.action is None and "unknown rondel space 'beach'" in garbled.message
    first = session.state.action_to_string(session.legal()[0])
    fine = session.why(f"  {first} ")
    assert fine.legal and fine.choice == 1 and fine.message == f"{first!r} is legal here: it is choice 1."
    assert session.refusal(session.state.string_to_action("pass")) == refused.message
    with pytest.raises(NotationError):
        session.state.string_to_action("rondel beach")


def test_hint_is_the_rollout_bots_analysis_remembered_until_the_game_changes():
    session = PlaySession(config(), SEATS, seed=4)
    session.advance_to_human()
    hint = session.hint(12)
    # the rollout bot, seeded with the game's seed: its choice first; it ends a batch it began
    assert hint.bot == "rollout" and hint.player == 0 and hint.playouts >= 12
    assert hint.stats[0].action == make_bot("rollout:playouts=12", 4, game="imperial2030").decide(
        session.state, session.legal())
    assert {s.action for s in hint.stats} == set(session.legal())
    visits = [s.visits for s in hint.stats]
    assert visits == sorted(visits, reverse=True) and sum(visits) == hint.playouts
    assert all(s.value is None or 0 <= s.value <= 1 for s in hint.stats)
    assert session.hint(12) is hint  # remembered
    again = PlaySession(config(), SEATS, seed=4)
    again.advance_to_human()
    assert again.hint(12).stats == hint.stats  # deterministic with the seed
    session.play(session.legal()[0])
    session.advance_to_human()
    if session.waiting_for() is not None:
        assert session.hint(12) is not hint


def test_history_of_a_resumed_game_is_found_by_replaying_it():
    session = play_out(PlaySession(config(), SEATS, seed=5), limit=10)
    made = session.history(0)
    assert [(s.player, s.action) for s in made] == session.actions
    resumed = PlaySession.from_log(session.to_log())
    assert resumed.history(0) == made
    assert resumed.history(len(made)) == [] and resumed.history(10**6) == []


def test_a_seat_count_that_does_not_fit_is_refused():
    with pytest.raises(SetupError, match="2 seats given for 3 players"):
        PlaySession(config(), [None, "random"], seed=1)
    with pytest.raises(SetupError, match="unknown bot"):
        PlaySession(config(), [None, "random", "genius"], seed=1)


def test_people_in_every_seat_play_a_whole_game():
    session = PlaySession(config(2), [None, None], seed=2)
    rng = random.Random(2)
    play_out(session, choose=rng.choice)
    assert session.is_over() and session.state.winners()
    assert all(p in (0, 1, CHANCE) for p, _ in session.actions)


# ----- any game of the interface -----

class _Race:
    """Two players race to 10; each turn chance rolls 1 or 2, then the mover adds 0 or the roll."""

    def __init__(self, game):
        self.game, self.score, self.to_move, self.roll = game, [0, 0], 0, None

    def current_player(self):
        return -4 if self.is_terminal() else CHANCE if self.roll is None else self.to_move

    def is_terminal(self):
        return max(self.score) >= 10

    def is_chance_node(self):
        return not self.is_terminal() and self.roll is None

    def chance_outcomes(self):
        return [(1, 0.5), (2, 0.5)]

    def legal_actions(self):
        return [] if self.is_terminal() or self.roll is None else ["keep", "skip"]

    def apply_action(self, action):
        if self.is_chance_node():
            self.roll = action
            return [{"kind": "roll"}]
        if action not in self.legal_actions():
            raise IllegalActionError("race", f"cannot {action}")
        if action == "keep":
            self.score[self.to_move] += self.roll
        self.roll, self.to_move = None, 1 - self.to_move
        return [{"kind": action}]

    def action_to_string(self, action):
        return str(action)

    def string_to_action(self, text):
        if text in ("keep", "skip", "1", "2"):
            return int(text) if text.isdigit() else text
        raise NotationError(f"cannot parse {text!r}")

    def returns(self):
        return [float(s) for s in self.score]

    def winners(self):
        return [p for p in range(2) if self.score[p] == max(self.score)] if self.is_terminal() else []

    def clone(self):
        other = _Race(self.game)
        other.score, other.to_move, other.roll = list(self.score), self.to_move, self.roll
        return other

    def observation(self, player):
        return {"score": self.score, "to_move": self.to_move, "roll": self.roll}


class _RaceGame:
    name, num_players = "race", 2

    def __init__(self, config):
        self.config = {"game": "race"}

    def new_initial_state(self):
        return _Race(self)


def test_any_game_of_the_interface_with_plain_words(monkeypatch):
    from imperial_lab.core import registry

    monkeypatch.setitem(registry.GAMES, "race", GamePlugin("race", "Race", _RaceGame))
    runs = []
    for _ in range(2):
        session = PlaySession({"game": "race"}, [None, "random"], seed=3)
        session.advance_to_human()
        assert session.decision_lines() == ["Player A decides"] and session.action_notes() == [None, None]
        assert session.why("jump").action is None
        assert session.why("skip").legal and "cannot 1" in session.why("1").message
        assert (session.hint(8).player, session.hint(8).bot) == (0, "mcts")  # no heuristic nor model: the search bot
        first = session.play("keep")
        assert first.lines == ["    keep"] and first.who == "Player A"
        play_out(session, choose=lambda legal: "keep")
        runs.append(session.actions)
        assert session.undo().player == 0
    assert runs[0] == runs[1]


def test_the_position_before_a_move_is_the_state_after_the_moves_before_it():
    session = PlaySession({"players": 3}, [None, "random", "random"], seed=4)
    session.advance_to_human()
    moves = len(session.actions)
    assert session.position_before(moves) == session.state.to_json()
    assert session.position_before(0) == session.game.new_initial_state().to_json()
    assert session.position_before(moves - 1) != session.state.to_json()
