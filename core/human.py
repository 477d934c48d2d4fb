"""Terminal play (``imperial play --human 0``): people decide some seats on a terminal, bots the others.

Before each decision of a person the session prints what is decided and its rule, a few lines of
the position around it and the legal actions numbered from 1 (with a note where the game gives one:
a rondel move's cost, a bond's price and the government it would take over); then it reads lines
from its input (a terminal or a pipe: a script can play a whole game) until one chooses:

    3                  the third action            rondel taxation   an action in its text form
    ? | hint           what the rollout bot (core/rollout.py) would choose, with its tries and estimates
    why ACTION         is ACTION legal here, and if not, the engine's reason and its rule
    undo               take back the last decision of a person (and every move after it)
    save FILE          the game so far as a move log (core/gamelog.py)
    list | help | quit

Bots' moves and chance are played without waiting and printed (who, the action, what it caused).

The game itself (moves, bots seeded per decision so that replays are identical, hint, why, undo,
move logs) is ``imperial_lab.core.session.PlaySession``, which the dashboard's Play page uses too; this module is
its input and output on a terminal, and the checks of the command line's ``--human``, ``--bots``
and ``--resume``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from imperial_lab.core.bots import canonical_spec, parse_bot_list
from imperial_lab.core.errors import ImperialError, SetupError
from imperial_lab.core.gamelog import replay_game, write_log
from imperial_lab.core.interface import CHANCE, seat_name
from imperial_lab.core.jsonio import clip
from imperial_lab.core.play import PlayedGame
from imperial_lab.core.session import HUMAN, PlaySession, Step

DEFAULT_HINT_PLAYOUTS = 80  # the rollout bot's default: about a second in Imperial 2030
MAX_HINT_PLAYOUTS = 100_000
HINT_ROWS = 5  # the choice of the hint and its best alternatives
MAX_BAD_LINES = 100  # consecutive bad lines before the session gives up
MAX_IDLE_LINES = 1_000  # lines at one decision without a choice (hints, why, ...) before it gives up
MAX_INPUT_CHARS = 1_000  # a longer input line is refused (and read to its end)

HELP = """Commands at a decision:
  NUMBER        choose that action (ACTION in its text form chooses it too)
  ? or hint     what the rollout bot would choose, with its estimates
  why ACTION    is ACTION legal here, and if not, why (the rule)
  undo          take back the last decision of a person and the moves after it
  save FILE     write the game so far as a move log (imperial replay FILE; imperial play --resume FILE)
  list          show the decision again
  quit          stop the game (exit status 2)"""


@dataclass
class Outcome:
    """How a session ended: ``finished``, ``input ended``, ``quit`` or ``bad lines``; the game so far."""

    status: str
    played: PlayedGame


class _Stop(Exception):
    def __init__(self, status: str):
        super().__init__(status)
        self.status = status


_CHOSEN, _OK, _BAD = "chosen", "ok", "bad"  # what a line did


# ----- the command line's checks -----

def parse_human_seats(text: str | None, players: int) -> list[int]:
    """``--human 0,2``: the seats people play, each 0..players-1 once."""
    if text is None:
        return []
    seats = []
    for part in str(text).split(","):
        part = part.strip()
        if not (part.isascii() and part.isdigit() and len(part) <= 3):
            raise SetupError(f"--human: expected seat numbers such as 0 or 0,2, got {clip(text)}")
        seat = int(part)
        if seat >= players:
            raise SetupError(f"--human: seat {seat} is out of range for {players} players (seats 0..{players - 1})")
        if seat in seats:
            raise SetupError(f"--human: seat {seat} given twice")
        seats.append(seat)
    return sorted(seats)


def seat_specs(bots: str | None, humans: list[int], players: int, saved: list | None = None,
               where: str = "--resume", game: str | None = None) -> list[str | None]:
    """The bot spec of every seat of ``game``, None for the people's. ``bots`` (``--bots``) names one bot for all
    the other seats or one per other seat in seat order; without it a resumed game keeps the bots
    its log names (``saved``), a new one plays ``random``."""
    others = [p for p in range(players) if p not in humans]
    seats: list[str | None] = [None] * players
    if bots is not None:
        if not others:
            raise SetupError("--bots: every seat is played by a person (--human): there is no bot to name")
        specs = parse_bot_list(bots, game=game)
        if len(specs) == 1:
            specs = specs * len(others)
        if len(specs) != len(others):
            raise SetupError(f"--bots: {len(specs)} bots named for {len(others)} bot seats (give one for all, or one "
                             f"per bot seat in seat order: {', '.join(seat_name(p) for p in others)})")
        for p, spec in zip(others, specs):
            seats[p] = spec
        return seats
    for p in others:
        if saved is None:
            seats[p] = "random"
            continue
        named = saved[p] if p < len(saved) else None
        if named is None or named == HUMAN:
            raise SetupError(f"{where}: the log names no bot for {seat_name(p)} (seat {p}): give --bots "
                             f"or --human {p}")
        seats[p] = canonical_spec(named, f"{where}: bots", game)
    return seats


def load_saved(path: str) -> tuple[PlayedGame, dict]:
    """A saved game, every move checked (``imperial_lab.core.gamelog.replay_game``), and its log's header."""
    header: dict = {}
    played = replay_game(path, on_start=lambda state, h: header.update(h))
    return played, header


# ----- the session -----

class TerminalPlay:
    """One game on a terminal: the input and output around a ``imperial_lab.core.session.PlaySession``.
    ``seats[p]`` is a bot spec, or None for a person; ``actions`` are the (player, action) pairs
    already played (a resumed game). ``run()`` plays to the end or until the input stops it and
    returns an ``Outcome``."""

    def __init__(self, config: dict, seats: list, seed: int, stdin, stdout, actions=(),
                 hint_playouts: int = DEFAULT_HINT_PLAYOUTS, echo: bool | None = None):
        self.session = PlaySession(config, seats, seed, actions=actions)
        self.seats, self.humans = self.session.seats, self.session.humans
        self.seed = seed
        self.inp, self.out = stdin, stdout
        if echo is None:  # a terminal echoes what is typed; from a pipe the transcript shows it
            echo = not (hasattr(stdin, "isatty") and stdin.isatty())
        self.echo = echo
        self.hint_playouts = hint_playouts
        self.saved: set[Path] = set()
        self.last_saved: str | None = None  # the file of the last ``save``
        self._hint: tuple[int, list[str]] | None = None
        self.resumed = self.session.resumed

    @property
    def names(self) -> list[str]:
        """What a move log's header calls each seat: its bot spec, or ``human``."""
        return self.session.names

    @property
    def state(self):
        return self.session.state

    @property
    def actions(self) -> list:
        return self.session.actions

    def played(self) -> PlayedGame:
        return self.session.played()

    # ----- output -----

    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    def intro(self) -> None:
        self.say("Seats: " + ", ".join(f"{seat_name(p)} {'(you)' if spec is None else spec}"
                                       for p, spec in enumerate(self.seats)))
        if self.resumed:
            self.say(f"Resumed after {self.resumed} actions.")
        if self.humans:
            self.say("Choose by number; ? for a hint, why ACTION, undo, save FILE, quit, help.")

    # ----- the game -----

    def run(self) -> Outcome:
        self.intro()
        try:
            while not self.session.is_over():
                p = self.session.waiting_for()
                if p is None:
                    self._tell(self.session.step())
                else:
                    self._ask(p)
        except _Stop as stop:
            return Outcome(stop.status, self.played())
        self.out.flush()
        return Outcome("finished", self.played())

    def _tell(self, step: Step) -> None:
        """A move as it was made: who (a bot with its spec), the action as the person at the keyboard
        may read it (with several people at one terminal, as none of them: nobody's hidden cards are
        printed), what it caused."""
        who = step.who
        if step.player != CHANCE and step.player not in self.humans:
            who = f"{who} [{self.seats[step.player]}]"
        viewer = next(iter(self.humans)) if len(self.humans) == 1 else None
        self.say(f"{who}: {self.session.seen_text(step, viewer)}")
        for line in step.lines:
            self.say(line)

    def _play(self, action) -> None:
        self._tell(self.session.play(action))

    def _ask(self, p: int) -> None:
        legal = self.session.legal()
        self._show(legal)
        bad = idle = 0
        while True:
            line = self._read(p, len(legal))
            done = self._line(line, p, legal)
            if done == _CHOSEN:
                return
            idle += 1
            bad = bad + 1 if done == _BAD else 0
            if bad >= MAX_BAD_LINES or idle >= MAX_IDLE_LINES:
                self.say(f"Giving up after {idle} lines without a choice.")
                raise _Stop("bad lines")

    def _show(self, legal: list) -> None:
        self.say()
        for line in self.session.decision_lines():
            self.say(line)
        for line in _rows([self.state.action_to_string(a) for a in legal], self.session.action_notes()):
            self.say(line)

    def _read(self, p: int, n: int) -> str | None:
        """One line of input (None for one too long); raises _Stop at the end of the input."""
        print(f"{seat_name(p)} [1-{n}, ? hint, help]> ", end="", file=self.out, flush=True)
        line = self.inp.readline(MAX_INPUT_CHARS + 1)
        if line == "":
            self.say()
            raise _Stop("input ended")
        if len(line) > MAX_INPUT_CHARS and not line.endswith("\n"):
            while True:  # read the rest of the long line
                rest = self.inp.readline(MAX_INPUT_CHARS)
                if rest == "" or rest.endswith("\n"):
                    break
            if self.echo:
                self.say(line[:60] + "...")
            return None
        line = line.rstrip("\r\n")
        if self.echo:
            self.say(line)
        return line

    def _line(self, line: str | None, p: int, legal: list) -> str:
        """Act on one input line; say whether it chose, was a command, or was bad."""
        if line is None:
            self.say(f"That line is longer than {MAX_INPUT_CHARS:,} characters: type a number 1-{len(legal)}.")
            return _BAD
        words = line.split()
        if not words:
            self.say(f"Type a number 1-{len(legal)}, ? for a hint, or help for the commands.")
            return _BAD
        head, rest = words[0].lower(), line.strip()[len(words[0]):].strip()
        if head.isascii() and head.isdigit() and len(words) == 1:
            k = int(head) if len(head) <= 9 else 0
            if not 1 <= k <= len(legal):
                self.say(f"There is no choice {clip(head)}: choose 1-{len(legal)}.")
                return _BAD
            self._play(legal[k - 1])
            return _CHOSEN
        if head in ("?", "hint") and not rest:
            self._hint_lines(legal)
            return _OK
        if head == "why":
            return self._why(rest, legal)
        if head == "undo" and not rest:
            return self._undo()
        if head == "save":
            return self._save(rest)
        if head in ("quit", "exit") and not rest:
            raise _Stop("quit")
        if head == "help" and not rest:
            self.say(HELP)
            return _OK
        if head == "list" and not rest:
            self._show(legal)
            return _OK
        try:  # an action in its text form chooses it
            action = self.state.string_to_action(line.strip())
        except ImperialError:
            action = None
        if action is not None and action in legal:
            self._play(action)
            return _CHOSEN
        if action is not None:
            self.say(self.session.refusal(action))
            return _BAD
        self.say(f"{clip(line.strip(), 60)} is not a choice: type a number 1-{len(legal)}, ? for a hint, "
                 f"or help for the commands.")
        return _BAD

    # ----- commands -----

    def _hint_lines(self, legal: list) -> None:
        key = self.session.changes  # the same position: the same lines
        if self._hint is not None and self._hint[0] == key:
            lines = self._hint[1]
        elif len(legal) == 1:
            lines = [f"Only one choice: 1. {self.state.action_to_string(legal[0])}"]
        else:
            self.say(f"Thinking ({self.hint_playouts} playouts)...")
            self.out.flush()
            hint = self.session.hint(self.hint_playouts)
            stats = hint.stats
            number = {a: k for k, a in enumerate(legal, 1)}
            me = seat_name(hint.player)
            best = stats[0]
            lines = [f"Hint: {hint.bot_words} ({hint.playouts} playouts) would choose "
                     f"{number[best.action]}. {self.state.action_to_string(best.action)}",
                     f"  {hint.search_words}",
                     f"  tries and the estimated win chance of {me} (the mean result of its playouts):"]
            width = max(len(self.state.action_to_string(s.action)) for s in stats[:HINT_ROWS])
            for s in stats[:HINT_ROWS]:
                value = "not tried" if s.value is None else f"{100 * s.value:.0f}%"
                lines.append(f"  {number[s.action]:>4}. {self.state.action_to_string(s.action):{width}}  "
                             f"{s.visits:>5} tries  {value}")
            if len(stats) > HINT_ROWS:
                lines.append(f"  ({len(stats) - HINT_ROWS} other choices with fewer tries)")
        self._hint = (key, lines)
        for line in lines:
            self.say(line)

    def _why(self, text: str, legal: list) -> str:
        if not text:
            self.say("why needs an action in its text form, e.g.: why " + self.state.action_to_string(legal[0]))
            return _BAD
        self.say(self.session.why(text).message)
        return _OK

    def _undo(self) -> str:
        undone = self.session.undo()
        if undone is None:
            self.say("Nothing to undo: no person has decided yet" + (" since the resumed position." if self.resumed
                                                                      else "."))
            return _BAD
        later = undone.later
        after = f" and the {later} move{'s' if later > 1 else ''} after it" if later else ""
        self.say(f"Undone: {seat_name(undone.player)}'s {undone.text!r}{after}.")
        return _CHOSEN  # the decision is taken back: the session asks it again

    def _save(self, name: str) -> str:
        if not name:
            self.say("save needs a file name, e.g.: save game.jsonl")
            return _BAD
        path = Path(name).expanduser()
        key = path.resolve()
        if path.exists() and key not in self.saved:
            self.say(f"{clip(name, 80)} exists: not overwritten (choose another name; a file this session saved "
                     f"is updated).")
            return _BAD
        try:
            write_log(path, self.played(), seed=self.seed, bots=self.names)
        except OSError as exc:
            self.say(f"Cannot save to {clip(name, 80)}: {exc.strerror or exc}")
            return _BAD
        self.saved.add(key)
        self.last_saved = name
        self.say(f"Saved {len(self.actions)} actions to {name} (imperial replay {name}; "
                 f"imperial play --resume {name} --human ...).")
        return _OK


# ----- helpers -----

def _rows(texts: list[str], notes: list) -> list[str]:
    """The numbered list of actions. A run of four or more texts ``WORD 1``, ``WORD 2``, ... without
    notes (Imperial's cash top-ups) is one line ``9-48. topup 1 .. topup 40``."""
    runs, k = [], 0  # (first, last) index of each row
    while k < len(texts):
        end = k
        while end + 1 < len(texts) and notes[end + 1] is None and _follows(texts[end], texts[end + 1]):
            end += 1
        if end - k < 3 or notes[k] is not None:
            end = k
        runs.append((k, end))
        k = end + 1
    labels = [str(a + 1) if a == b else f"{a + 1}-{b + 1}" for a, b in runs]
    width = max(map(len, labels), default=1)
    pad = min(max((len(t) for t in texts), default=0), 44)
    rows = []
    for label, (a, b) in zip(labels, runs):
        if a != b:
            rows.append(f"  {label:>{width}}. {texts[a]} .. {texts[b]}")
        else:
            note = f"  {notes[a]}" if notes[a] else ""
            rows.append(f"  {label:>{width}}. {texts[a]:{pad}}{note}".rstrip())
    return rows


def _follows(a: str, b: str) -> bool:
    """``b`` is ``a`` with its last word (a number) one higher: ``topup 3`` -> ``topup 4``."""
    head_a, _, n_a = a.rpartition(" ")
    head_b, _, n_b = b.rpartition(" ")
    return (bool(head_a) and head_a == head_b and n_a.isdigit() and n_b.isdigit() and int(n_b) == int(n_a) + 1)
