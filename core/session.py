"""A game between people and bots, one move at a time: the logic of terminal play (core/human.py)
and of the dashboard's Play page, without any input or output.

    session = PlaySession(config, ["heuristic", None, "random"], seed=7)   # None: a person's seat
    session.advance_to_human()          # bots and chance play up to the first decision of a person
    p = session.waiting_for()           # the person's seat, or None (bots or chance to move, or over)
    session.play(session.legal()[0])    # the person decides; returns the Step it made
    session.step()                      # one bot or chance move: who, the action, its events in words
    session.why("rondel investor")      # is that legal here, and if not, the engine's reason and rule
    session.hint(80)                    # what the rollout bot (or the search bot) would choose, and why
    session.undo()                      # back to the last decision of a person
    text = session.to_log()             # a move log (core/gamelog.py); PlaySession.from_log(text) resumes

**Deterministic.** A session is a function of its config, its seed, its seats and the choices of
its people. Chance is drawn from ``random.Random(seed)`` as ``imperial_lab.core.play.play_game`` draws it (one
draw per chance node, in order), and a bot is made afresh for every decision, seeded from the
game's seed, its seat and the number of actions played so far (``bot_seed``). So a session rebuilt
from its move log (``undo``, a resumed game, a page reloaded) continues exactly as the
uninterrupted one would have, and ``undo`` followed by the same choice plays the same game.

The module imports no game: it uses the interface (``legal_actions``, ``apply_action``, ``clone``,
``current_player``, ``is_chance_node``, ``chance_outcomes``, the text form of actions) and, for the
words, a game's text module (its plug-in's ``texts`` part: ``core/games/imperial2030/texts.py``), whose functions
are ``decision_lines(state)`` (what is decided, then a few lines of the position),
``action_notes(state)`` (a note or None per legal action), ``actor(state, player)`` (who decides,
in what role), ``active(state)`` (what ``event_lines`` needs to know of the state before an action),
``event_lines(events, active)`` (an action's events in words), ``refusal(state, action, error)`` (why
an action is refused, naming its rule) and ``why_not_options(state)`` (the actions a person may ask
about); a game without one gets plain defaults (``PlainTexts``).
"""

from __future__ import annotations

import io
import random
from dataclasses import dataclass
from typing import Any
from types import SimpleNamespace

from imperial_lab.core.bots import bot_classes, parse_bot_spec
from imperial_lab.core.errors import ImperialError, NotationError, SetupError
from imperial_lab.core.gamelog import replay_game, write_log
from imperial_lab.core.interface import CHANCE, make_game, seat_name
from imperial_lab.core.play import PlayedGame
from imperial_lab.core.plugin import Capability
from imperial_lab.core.registry import plugin, plugin_of

HUMAN = "human"  # the name of a person's seat in a move log's ``bots``
PLY_SPAN = 2**20  # more than the actions of any game a log holds (imperial_lab.core.gamelog.MAX_LINES)
MAX_ADVANCE = 100_000  # moves ``advance_to_human`` plays at most (more than any game has)


def bot_seed(seed: int, seat: int, ply: int) -> int:
    """The seed of the bot that decides for ``seat`` after ``ply`` actions of a game seeded ``seed``."""
    return (seed * 100 + seat) * PLY_SPAN + ply


@dataclass(frozen=True)
class Step:
    """One move of the game: ``index`` counts the actions from 0; ``who`` is the game's name for the
    decider in its role (``Player B for Russia``; ``Chance``); ``events`` are the events it caused
    (``Event.to_json()`` dictionaries) and ``lines`` those events in words."""

    index: int
    player: int
    action: object
    text: str
    who: str
    events: list
    lines: list


@dataclass(frozen=True)
class Hint:
    """What the hint's bot (``bot``: ``rollout`` where the game has one, else ``mcts``) would choose for
    ``player``: ``stats`` (``imperial_lab.core.mcts.RootStat``, its choice first, then the most tried)
    after ``playouts`` playouts (0 with a single choice) of the ``asked`` ones."""

    player: int
    playouts: int
    stats: list
    asked: int = 0
    bot: str = "mcts"

    @property
    def bot_words(self) -> str:
        return "the rollout bot" if self.bot == "rollout" else "the search bot"

    @property
    def search_words(self) -> str:
        """How the search went, in one sentence: all its playouts, or why it stopped early."""
        if self.playouts == 0:
            return "There is only one choice: no search is needed."
        if self.bot == "rollout":
            return (f"It played the promising choices on to the end of the game, {self.playouts} games in all, "
                    f"each with the same luck; it prefers a choice to the heuristic bot's only when that choice "
                    f"wins clearly more often.")
        if self.playouts < self.asked:
            left = self.asked - self.playouts
            return (f"The search stopped early, after {self.playouts} of {self.asked} playouts: its most visited "
                    f"choice was so far ahead that the {left} playouts left could not have overtaken it.")
        return f"The search used all {self.playouts} playouts."


@dataclass(frozen=True)
class ChanceChange:
    """A person's decision (``text``) and ``player``'s chance to win ``before`` and ``after`` it; what the
    win-chance bot would have played there (``bot_text``) and the chance after that (``bot_after``)."""

    player: int
    text: str
    before: float
    after: float
    bot_text: str
    bot_after: float


@dataclass(frozen=True)
class Why:
    """The answer to "why not ACTION?": ``action`` is None when the text does not parse; ``choice``
    is the 1-based number of a legal action; ``message`` the engine's (or the notation's) words."""

    text: str
    action: object
    legal: bool
    choice: int | None
    message: str


@dataclass(frozen=True)
class Undone:
    """What ``undo`` took back: a person's decision and the ``later`` moves after it."""

    player: int
    action: object
    text: str
    later: int


class PlaySession:
    """One game. ``seats[p]`` is a bot spec, or None for a person; ``actions`` are the (player,
    action) pairs already played (a resumed game), replayed at once."""

    def __init__(self, config: dict, seats: list, seed: int, actions=()):
        self.game = make_game(config)
        self.config = self.game.config
        if len(seats) != self.game.num_players:
            raise SetupError(f"{len(seats)} seats given for {self.game.num_players} players")
        self.seats = list(seats)
        self.humans = {p for p, spec in enumerate(self.seats) if spec is None}
        self._bots = {}
        for p, spec in enumerate(self.seats):
            if spec is not None:
                name, params = parse_bot_spec(spec, game=self.game.name)
                self._bots[p] = (bot_classes(self.game.name)[name], params)
        self.seed = seed
        self.texts = texts_for(self.game.name)
        self.changes = 0  # counts every change of the game (a move, an undo): a key for caches
        self._hints: dict[tuple[int, int], Hint] = {}
        self._steps: dict[int, Step] = {}
        self._decided: tuple | None = None  # decision_chance's answer, with the decision it answers
        actions = list(actions)
        self.resumed = len(actions)
        self._restore(actions)

    # ----- what the game is -----

    @property
    def names(self) -> list[str]:
        """What a move log's header calls each seat: its bot spec, or ``human``."""
        return [HUMAN if spec is None else spec for spec in self.seats]

    @property
    def state(self):
        return self._state

    @property
    def actions(self) -> list:
        """The (player, action) pairs played, chance included (do not change it: use the methods)."""
        return self._actions

    def legal(self) -> list:
        """The legal actions of the seat to move, in the engine's order (empty for chance and at the end)."""
        if self._state.is_terminal() or self._state.is_chance_node():
            return []
        return list(self._state.legal_actions())

    def is_over(self) -> bool:
        return self._state.is_terminal()

    def to_move(self) -> int:
        """The seat to move, ``CHANCE`` at a chance node, ``TERMINAL`` at the end."""
        return self._state.current_player()

    def waiting_for(self) -> int | None:
        """The person's seat whose decision the game waits for; None when a bot or chance is to move
        or the game is over."""
        if self._state.is_terminal():
            return None
        p = self._state.current_player()
        return p if p in self.humans else None

    def played(self) -> PlayedGame:
        return PlayedGame(self.config, self._state, list(self._actions),
                          sum(1 for p, _ in self._actions if p != CHANCE))

    def decision_lines(self) -> list[str]:
        """What the seat to move decides, with its rule, then a few lines of the position (the game's words)."""
        return list(self.texts.decision_lines(self._state))

    def action_notes(self) -> list:
        """A note (or None) per legal action: a rondel move's cost, a bond's price (the game's words)."""
        return list(self.texts.action_notes(self._state))

    # ----- moves -----

    def seen_text(self, step: Step, viewer) -> str:
        """``step``'s action text as seat ``viewer`` may read it (None: nobody's private view)."""
        return self.texts.seen_text(self._state, step.player, step.text, viewer)

    def play(self, action) -> Step:
        """The person to move chooses ``action`` (one of ``legal()``; an illegal one raises the
        engine's IllegalActionError, the game unchanged)."""
        p = self.waiting_for()
        if p is None:
            raise SetupError("no person is to decide here" + (": the game is over" if self.is_over() else
                                                            f": {self._who_moves()} moves next"))
        return self._apply(p, action)

    def step(self) -> Step:
        """One move of chance or of a bot; raises SetupError when a person is to decide or the game is over."""
        if self._state.is_terminal():
            raise SetupError("the game is over")
        p = self._state.current_player()
        if p == CHANCE:
            return self._apply(p, draw_chance(self._chance, self._state))
        if p in self.humans:
            raise SetupError(f"{seat_name(p)} (a person) is to decide here")
        action = self.bot_for(p).decide(self._state, self._state.legal_actions())
        return self._apply(p, action)

    def advance_to_human(self, limit: int = MAX_ADVANCE, on_step=None) -> list[Step]:
        """Bots and chance move until a person is to decide or the game ends (at most ``limit``
        moves); ``on_step(step)`` sees each move as it is made. Returns the moves."""
        done: list[Step] = []
        while len(done) < limit and not self._state.is_terminal() and self.waiting_for() is None:
            step = self.step()
            done.append(step)
            if on_step is not None:
                on_step(step)
        return done

    bot_moves_until_human = advance_to_human

    def bot_for(self, p: int):
        """A fresh bot for seat ``p`` at this point of the game (``bot_seed``)."""
        cls, params = self._bots[p]
        return cls.from_params(params, bot_seed(self.seed, p, len(self._actions)))

    def _apply(self, player: int, action) -> Step:
        state = self._state
        who = "Chance" if player == CHANCE else self.texts.actor(state, player)
        active = self.texts.active(state)
        events = state.apply_action(action)  # checked: an illegal action changes nothing
        events = [e.to_json() if hasattr(e, "to_json") else e for e in events or ()]
        step = Step(len(self._actions), player, action, state.action_to_string(action), who, events,
                    list(self.texts.event_lines(events, active)))
        self._actions.append((player, action))
        self._steps[step.index] = step
        self.changes += 1
        return step

    def _who_moves(self) -> str:
        p = self._state.current_player()
        return "chance" if p == CHANCE else f"{seat_name(p)} ({self.seats[p]})"

    # ----- undo, history -----

    def last_human_index(self) -> int | None:
        """The index in ``actions`` of the last decision of a person, None when there is none."""
        return next((k for k in range(len(self._actions) - 1, -1, -1) if self._actions[k][0] in self.humans), None)

    def undo(self) -> Undone | None:
        """Take back the last decision of a person (of any human seat) and every move after it; the
        game then waits for that decision again. None when no person has decided yet."""
        last = self.last_human_index()
        if last is None:
            return None
        player, action = self._actions[last]
        undone = Undone(player, action, self._state.action_to_string(action), len(self._actions) - last - 1)
        self._restore(self._actions[:last])
        self.changes += 1
        return undone

    def history(self, start: int = 0) -> list[Step]:
        """The moves from index ``start`` on, each with its events in words. Moves made by this
        session are remembered; the others (a resumed game's) are found by replaying the game."""
        start = max(0, min(start, len(self._actions)))
        missing = [k for k in range(start, len(self._actions)) if k not in self._steps]
        if missing:
            self._replay_steps(missing[0])
        return [self._steps[k] for k in range(start, len(self._actions))]

    def position_before(self, index: int) -> dict:
        """The position document before move ``index`` (after the moves before it), replayed: the
        Play page draws what the moves since then changed."""
        return self._state_before(index).to_json()

    def _state_before(self, index: int):
        state: Any = self.game.new_initial_state()
        if plugin_of(state).offers(Capability.RECORDING):
            state.recording = False  # nobody reads these events
        for _, action in self._actions[:index]:
            state.apply_action(action)
        return state

    def decision_chance(self) -> ChanceChange | None:
        """How the last decision of a person changed that seat's chance to win, as the game's learned
        evaluator judges it from the position it was made in (``analysis.action_hint``: the seat's
        turn played on by the heuristic, without and with the decision; public information only, and
        nothing that was played after it), with what the win-chance bot would have played there judged
        the same way (``analysis.bot_choice``). None before any decision of a person; remembered."""
        last = self.last_human_index()
        if last is None:
            return None
        player, action = self._actions[last]
        key = (last, player, self._state.action_to_string(action))
        if self._decided is None or self._decided[0] != key:
            from imperial_lab.core.analysis import action_hint, bot_choice

            state = self._state_before(last)
            hint = action_hint(state, action, seed=self.seed)
            bot_action, bot_after = bot_choice(state, seed=self.seed)
            self._decided = (key, ChanceChange(player, key[2], float(hint["before"]), float(hint["after"]),
                                               state.action_to_string(bot_action), float(bot_after)))
        return self._decided[1]

    def _replay_steps(self, start: int) -> None:
        """Replay the game and remember the Step of every move from ``start`` on."""
        state: Any = self.game.new_initial_state()
        quiet = plugin_of(state).offers(Capability.RECORDING)
        for k, (player, action) in enumerate(self._actions):
            if k < start:
                if quiet:
                    state.recording = False  # nobody reads these events
                state.apply_action(action)
                continue
            if quiet:
                state.recording = True
            who = "Chance" if player == CHANCE else self.texts.actor(state, player)
            active = self.texts.active(state)
            events = [e.to_json() if hasattr(e, "to_json") else e for e in state.apply_action(action) or ()]
            self._steps[k] = Step(k, player, action, state.action_to_string(action), who, events,
                                  list(self.texts.event_lines(events, active)))

    def _restore(self, actions: list) -> None:
        """The state after ``actions``, and the chance generator as it stood there."""
        state = self.game.new_initial_state()
        chance = random.Random(self.seed)
        for _, action in actions:
            if state.is_chance_node():
                draw_chance(chance, state)  # the draw the game made here, so the later ones are the same
            state.apply_action(action)
        self._state, self._chance, self._actions = state, chance, actions
        self._steps = {k: s for k, s in self._steps.items() if k < len(actions) and s.action == actions[k][1]
                       and s.player == actions[k][0]}

    # ----- hint and why -----

    def hint(self, playouts: int) -> Hint:
        """What the hint's bot, seeded with the game's seed, would choose for the seat to move with
        ``playouts`` playouts: the rollout bot (core/rollout.py: the strongest, about a second for 80
        playouts in Imperial 2030) in a game that has one, else the search bot (core/mcts.py). Both
        deal what the seat cannot see again in every playout; remembered until the game changes."""
        legal = self.legal()
        if not legal:
            raise SetupError("a hint needs a decision of a seat" + (": the game is over" if self.is_over() else ""))
        key = (self.changes, playouts)
        if key not in self._hints:
            p = self._state.current_player()
            if len(legal) == 1:
                from imperial_lab.core.mcts import RootStat

                hint = Hint(p, 0, [RootStat(legal[0], 0, None)], playouts)
            else:
                from imperial_lab.core.bots import bot_classes, make_bot

                game = self._state.game.name
                name = "rollout" if "rollout" in bot_classes(game) else "mcts"
                bot = make_bot(f"{name}:playouts={playouts}", self.seed, game=game)
                stats = bot.analyse(self._state)
                hint = Hint(p, bot.last_playouts, list(stats), playouts, name)
            self._hints = {key: hint}
        return self._hints[key]

    def why(self, text: str) -> Why:
        """Whether the action ``text`` (its text form) is legal here; if not, the engine's own reason
        (the action applied to a copy), or the notation's error for a text that does not parse."""
        text = text.strip()
        try:
            action = self._state.string_to_action(text)
        except NotationError as exc:
            return Why(text, None, False, None, str(exc))
        legal = self.legal()
        if action in legal:
            k = legal.index(action) + 1
            return Why(text, action, True, k, f"{self._state.action_to_string(action)!r} is legal here: "
                                                f"it is choice {k}.")
        return Why(text, action, False, None, self.refusal(action))

    def refusal(self, action) -> str:
        """Why the engine refuses ``action`` here (applied to a copy), in the game's words: one
        sentence naming the rule."""
        try:
            self._state.clone().apply_action(action)
        except ImperialError as exc:
            return self.texts.refusal(self._state, action, exc)
        return f"{self._state.action_to_string(action)!r} is legal here."  # not in the legal list: never

    def why_options(self) -> list[str]:
        """The actions (text forms) a person may ask "why not?" about here: the legal ones, then those
        the game finds tempting (the game's words; without them, the legal ones)."""
        if not self.legal():
            return []
        return list(self.texts.why_not_options(self._state))

    # ----- move logs -----

    def to_log(self) -> str:
        """The game so far as a move log (core/gamelog.py: header with ``seed`` and ``bots``, ``human``
        for the people's seats), which ``imperial replay`` checks and the explorer shows."""
        out = io.StringIO()
        write_log(out, self.played(), seed=self.seed, bots=self.names)
        return out.getvalue()

    @classmethod
    def from_log(cls, text: str, name: str = "<log>", seats: list | None = None, seed: int | None = None,
                 unnamed: str | None = None) -> PlaySession:
        """The session of a move log, every line checked (``LogError`` naming ``name`` and the line).
        The seats are ``seats`` if given, else the log's ``bots`` (``human`` is a person); a seat the
        log does not name is ``unnamed`` (a bot spec, or None: a person). The seed is the log's, else
        ``seed``, else a random one."""
        header: dict = {}
        played = replay_game(_Lines(text.splitlines(), name), on_start=lambda state, h: header.update(h))
        players = make_game(played.config).num_players
        if seats is None:
            saved = header.get("bots") or []
            seats = []
            for p in range(players):
                spec = saved[p] if p < len(saved) else None
                seats.append(unnamed if spec is None else None if spec == HUMAN else spec)
        if header.get("seed") is not None:
            seed = header["seed"]
        if seed is None:
            seed = random.randrange(2**31)
        return cls(played.config, seats, seed, actions=played.actions)


class _Lines(list):
    """Lines that carry a name, so that a LogError names the log."""

    def __init__(self, lines, name: str):
        super().__init__(lines)
        self.name = name


def draw_chance(chance: random.Random, state):
    """A chance outcome drawn as ``imperial_lab.core.play.play_game`` draws it."""
    outcomes = state.chance_outcomes()
    return chance.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]


class PlainTexts:
    """The words for a game without a text module: seats, action texts and event kinds."""

    @staticmethod
    def decision_lines(state) -> list[str]:
        return [f"{seat_name(state.current_player())} decides"]

    @staticmethod
    def action_notes(state) -> list:
        return [None] * len(state.legal_actions())

    @staticmethod
    def actor(state, player: int) -> str:
        return seat_name(player)

    @staticmethod
    def active(state):
        return None

    @staticmethod
    def seen_text(state, player: int, text: str, viewer) -> str:
        """A move's text as ``viewer`` (a seat, or None for nobody's private view) may read it: a
        game with hidden information leaves out what that seat may not see. Nothing is hidden here."""
        return text

    @staticmethod
    def refusal(state, action, error) -> str:
        """Why ``action`` is refused: the engine's own words."""
        return str(error)

    @staticmethod
    def why_not_options(state) -> list[str]:
        return [state.action_to_string(a) for a in state.legal_actions()]

    @staticmethod
    def event_lines(events, active=None) -> list[str]:
        out = []
        for event in events or ():
            e = event.to_json() if hasattr(event, "to_json") else event
            out.append(f"    {e.get('kind', e) if isinstance(e, dict) else e}")
        return out


TEXTS = ("decision_lines", "action_notes", "actor", "active", "seen_text", "event_lines", "refusal", "why_not_options")


def texts_for(game_name: str):
    """The words of a game: its plug-in's ``texts`` part, with ``PlainTexts`` for what it leaves out."""
    module = plugin(game_name).part("texts")
    if module is None:
        return PlainTexts
    return SimpleNamespace(**{name: getattr(module, name, getattr(PlainTexts, name)) for name in TEXTS})
