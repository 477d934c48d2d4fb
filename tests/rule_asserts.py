"""Assertions shared by the rule tests: an illegal action is refused with its rule, state untouched."""

from __future__ import annotations

import pytest

from imperial_lab.core.errors import IllegalActionError


def assert_illegal(state, text: str, rule: str, match: str | None = None) -> IllegalActionError:
    """Applying ``text`` raises IllegalActionError naming ``rule`` and leaves ``state.to_json()`` as it was."""
    before = state.to_json()
    action = state.string_to_action(text)
    assert action not in state.legal_actions()
    with pytest.raises(IllegalActionError, match=match) as info:
        state.apply_action(action)
    assert info.value.rule == rule, f"{text!r} refused under {info.value.rule}, expected {rule}"
    assert state.to_json() == before
    return info.value


def kinds(events, kind: str) -> list:
    """The data of every event of one kind, in order."""
    return [e.data for e in events if e.kind == kind]
