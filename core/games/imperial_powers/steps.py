"""A move as the explorer and the Play page tell it: its action as the viewer may read it, then each
event in words (``explain``) with links to the rules page's sections and rulings it follows. No
Streamlit: the pages put these markdown lines on screen, tests read them.
"""

from __future__ import annotations

from imperial_lab.core.games.imperial_powers.explain import Context, action_words, explain, rules_of
from imperial_lab.core.games.imperial_powers.rules_text import REFERENCE

QUIET = {"event_resolving"}  # the influence before an event: the line after it tells the outcome


def event_line(event: dict, ctx: Context, viewer) -> str:
    """``- words ([§5.2 Bid](/ip_rules?section=5.2), [R10 Secret bids](...))``."""
    links = ", ".join(REFERENCE.link(rule, REFERENCE.title(rule)) for rule in rules_of(event))
    return f"- {REFERENCE.link_all(explain(event, ctx, viewer))} ({links})"


def step_lines(text: str | None, player: int | None, events: list, ctx: Context, viewer) -> list[str]:
    """The action in its text form (what the viewer may read of it), then its events' lines."""
    if not text:
        return ["The game's configuration, before any action."]
    return [f"`{action_words(text, player, ctx, viewer)}`",
            *(event_line(event, ctx, viewer) for event in events if event["kind"] not in QUIET)]


def step_text(text: str | None, player: int | None, events: list, ctx: Context, viewer) -> str:
    return "\n".join(step_lines(text, player, events, ctx, viewer))
