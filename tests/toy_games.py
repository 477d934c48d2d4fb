"""A toy game for the game-agnostic parts (search, terminal play, lessons), written against the
interface only: Nim with one heap, a move takes 1..3 stones, whoever takes the last stone wins."""

from __future__ import annotations

from imperial_lab.core.errors import IllegalActionError, NotationError
from imperial_lab.core.interface import TERMINAL
from imperial_lab.core.plugin import GamePlugin


class Nim:
    """``players`` seats in turn. Its plug-in declares no capability: a search uses its defaults."""

    def __init__(self, heap: int, players: int = 2, to_move: int = 0, game: NimGame | None = None):
        self.heap, self.players, self.to_move, self.winner = heap, players, to_move, None
        self.game = game if game is not None else NimGame({"heap": heap})

    def current_player(self):
        return TERMINAL if self.is_terminal() else self.to_move

    def is_terminal(self):
        return self.winner is not None

    def is_chance_node(self):
        return False

    def chance_outcomes(self):
        return []

    def legal_actions(self):
        return [] if self.is_terminal() else [k for k in (1, 2, 3) if k <= self.heap]

    def apply_action(self, action):
        if action not in self.legal_actions():
            raise IllegalActionError("nim", f"cannot take {action} of {self.heap} stones")
        self.heap -= action
        if self.heap == 0:
            self.winner = self.to_move
        self.to_move = (self.to_move + 1) % self.players
        return [f"{action} taken"]

    def action_to_string(self, action):
        return f"take {action}"

    def string_to_action(self, text):
        words = text.split()
        if len(words) != 2 or words[0] != "take" or not words[1].isdigit():
            raise NotationError(f"cannot parse {text!r}: expected 'take N'")
        return int(words[1])

    def returns(self):
        return [float(p == self.winner) for p in range(self.players)]

    def winners(self):
        return [] if self.winner is None else [self.winner]

    def clone(self):
        other = Nim(self.heap, self.players, self.to_move, self.game)
        other.winner = self.winner
        return other

    def observation(self, player):
        return self.to_json()

    def to_json(self):
        return {"heap": self.heap, "to_move": self.to_move, "winner": self.winner}


class NimGame:
    """Nim's Game: made from a config, makes states."""

    name, num_players = "nim", 2

    def __init__(self, config):
        self.config = {"game": "nim", "heap": config.get("heap", 9)}

    def new_initial_state(self):
        return Nim(self.config["heap"], game=self)

    def state_from_json(self, doc):
        return Nim(doc["heap"], to_move=doc.get("to_move", 0), game=self)


# Nim as a plug-in with nothing but its rules: tests register it with
# ``monkeypatch.setitem(imperial_lab.core.registry.GAMES, "nim", NIM)``.
NIM = GamePlugin(name="nim", title="Nim", game=NimGame)
