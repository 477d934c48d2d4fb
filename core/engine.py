"""What every game's State shares: the event record, the legal-action cache, the checked and the
unchecked apply, and a clone written from the fields the game declares (and, for its Game, the
check of a config: ``game_config``).

A game's State subclasses ``BaseState`` and keeps its own rules and data layout. It declares its
fields in three tuples (on the State or on a class of fields it derives from), which make both its
``__slots__`` and its ``clone``:

    class State(BaseState):
        SHARED = ("game", "phase", "current", "boards")   # ints, strings, tuples: shared by a copy
        LISTS = ("stacks", "hand")                          # flat lists: copied with [:]
        DICTS = ()                                          # dicts: copied with .copy()
        __slots__ = SHARED + LISTS + DICTS

and writes four methods: ``_legal_actions()`` (the generator behind the cached ``legal_actions``),
``_apply_action(action)`` (the rules of one legal action, building events with ``emit``),
``explain_illegal(action)`` (the RULES.md section and why, for the error of an illegal action)
and the rest of the interface (``current_player``, ``chance_outcomes``, ``returns``, ...; see
``imperial_lab.core.interface.State``).

The legal actions are computed once per position and shared with clones (a clone of a position
has the same ones): callers treat the list as read-only. ``apply_action`` checks an action against
them and raises ``IllegalActionError`` naming the rule, the state untouched; ``apply_legal`` skips
the check, for drivers and search that took the action from ``legal_actions()`` or
``chance_outcomes()``. Events are built only while ``recording`` is true.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from imperial_lab.core.errors import IllegalActionError, SetupError
from imperial_lab.core.interface import Action
from imperial_lab.core.jsonio import clip


def game_config(config: dict[str, Any] | None, name: str, known: set[str]) -> dict[str, Any]:
    """A copy of the config a Game is made from, checked where every game checks it the same way:
    SetupError for a key not in ``known`` or a ``game`` key naming another game."""
    config = dict(config or {})
    unknown = set(config) - known
    if unknown:
        raise SetupError(f"config: unknown keys {sorted(unknown)} (known: {sorted(known)})")
    if config.get("game", name) != name:
        raise SetupError(f"config.game: {clip(config['game'])} is not {name!r}")
    return config


@dataclass(slots=True)
class Event:
    """One thing that happened: its ``kind``, the RULES.md section (``rule``, e.g. ``§7.6``) that
    made it happen, and its fields (each game lists its kinds beside its rules)."""

    kind: str
    rule: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "rule": self.rule, **self.data}


class BaseState(ABC):
    """The shared half of a game's State (see the module docstring)."""

    # The fields this class owns, all copied by reference but ``events`` (a clone starts with none).
    __slots__ = ("game", "events", "recording", "_legal", "_legal_set")
    SHARED: ClassVar[tuple[str, ...]] = ()
    LISTS: ClassVar[tuple[str, ...]] = ()
    DICTS: ClassVar[tuple[str, ...]] = ()

    game: Any
    events: list[Event]
    recording: bool
    _legal: list[Action] | None
    _legal_set: set[Action] | None

    def __init__(self, game: Any) -> None:
        self.game = game
        self.events = []
        self.recording = True
        self._legal = self._legal_set = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.SHARED or cls.LISTS or cls.DICTS:  # each class with fields clones into its own kind
            cls.clone = _clone_function(cls)  # type: ignore[method-assign]

    # ----- what a game writes -----

    @abstractmethod
    def _legal_actions(self) -> list[Action]:
        """The legal actions here, generated (``legal_actions`` caches them)."""

    @abstractmethod
    def _apply_action(self, action: Action) -> None:
        """The rules of a legal ``action``: change the state, ``emit`` the events."""

    @abstractmethod
    def explain_illegal(self, action: Action) -> tuple[str, str]:
        """Why ``action`` is not legal here: (RULES.md section, message)."""

    # ----- the shared half of the interface -----

    def legal_actions(self) -> list[Action]:
        """The legal actions in a stable order (the chance outcomes at a chance node); empty at
        the end. The list is cached and shared with clones: treat it as read-only."""
        if self._legal is None:
            self._legal = self._legal_actions()
        return self._legal

    def is_legal(self, action: Action) -> bool:
        if self._legal_set is None:
            self._legal_set = set(self.legal_actions())
        try:
            return action in self._legal_set
        except TypeError:  # unhashable: certainly not one of ours
            return False

    def apply_action(self, action: Action) -> list[Event]:
        """Apply a legal action and return the events it caused (none while not ``recording``).
        Raises IllegalActionError (naming the RULES.md section) and leaves the state unchanged
        when ``action`` is not legal here."""
        if not self.is_legal(action):
            raise IllegalActionError(*self.explain_illegal(action))
        return self.apply_legal(action)

    def apply_legal(self, action: Action) -> list[Event]:
        """``apply_action`` without the legality check, for callers that took ``action`` from this
        state's ``legal_actions()`` or ``chance_outcomes()``: anything else leaves it corrupt."""
        self._legal = self._legal_set = None
        self.events = []
        self._apply_action(action)
        return self.events

    def emit(self, kind: str, rule: str, **data: Any) -> None:
        """Record an event (only while ``recording``)."""
        if self.recording:
            self.events.append(Event(kind, rule, data))

    def clone(self) -> Self:
        """An independent copy: lists and dicts copied, everything else shared, no events yet,
        ``recording`` and the legal actions (read-only) as here. Written for each State class
        from its SHARED, LISTS and DICTS (``_clone_function``, set by ``__init_subclass__``); this
        one serves a class that declares none of its own."""
        copy: Self = _clone_function(type(self))(self)
        return copy

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The position as its game's document (each game's position.py)."""

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]  # a mutable position


def _clone_function(cls: type[BaseState]) -> Any:
    """``clone`` for ``cls`` as straight-line code over its fields (as dataclasses write their
    methods): a loop of getattr/setattr over fifty fields costs a third more, and search clones a lot."""
    shared = ("game", "recording", "_legal", "_legal_set", *cls.SHARED)
    lines = ["def clone(self):", "    other = new(cls)", "    other.events = []"]
    lines += [f"    other.{name} = self.{name}" for name in shared]
    lines += [f"    other.{name} = self.{name}[:]" for name in cls.LISTS]
    lines += [f"    other.{name} = self.{name}.copy()" for name in cls.DICTS]
    lines += ["    return other"]
    namespace: dict[str, Any] = {"new": object.__new__, "cls": cls}
    exec("\n".join(lines), namespace)  # noqa: S102 - code made from the class's own field names
    clone = namespace["clone"]
    clone.__doc__ = BaseState.clone.__doc__
    clone.__qualname__ = f"{cls.__qualname__}.clone"
    return clone
