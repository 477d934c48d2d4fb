"""Imperia's words for imperial_lab.core.session (the plug-in's ``texts`` part): only what its generic defaults
(imperial_lab.core.session.PlainTexts) cannot know, that another seat's draw names a hidden tile (§7.2)."""

from __future__ import annotations

from imperial_lab.core.games.imperia.actions import COLOURS
from imperial_lab.core.interface import CHANCE


def seen_text(state, player: int, text: str, viewer) -> str:
    """A move's text as ``viewer`` may read it: ``draw red inf/o`` names the tile only to red's seat."""
    words = text.split()
    if player == CHANCE and words[0] == "draw" and (viewer is None or COLOURS.index(words[1]) != viewer):
        return f"draw {words[1]} (hidden)"
    return text
