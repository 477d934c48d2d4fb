"""Imperia's events in plain words (the kinds of ``imperial_lab.core.engine.Event``), each with the
RULES.md section it follows (the event's ``rule``), named in the game's words
(imperial_lab.core.games.imperia.words). No Streamlit: the explorer, the Play page and tests call
``explain``.

``viewer``: the seat whose eyes the words are for (the Play page's person). Another seat's draws
are then told without the tile drawn: a hand is private (§7.2). ``None``: everything (the explorer
replays a whole log).
"""

from __future__ import annotations

from imperial_lab.core.games.imperia.board import QUADRANTS, TYPE_NAMES
from imperial_lab.core.games.imperia.game import tiles_of
from imperial_lab.core.games.imperia.position import tile_name
from imperial_lab.core.games.imperia.words import (facing as facing_words, quarter, tile_kind, tile_owner, turned,
                                                 type_words, who)
from imperial_lab.core.interface import seat_name as player_label
from imperial_lab.core.words import article


def _stack(position: dict | None, space: str) -> dict | None:
    if position is None:
        return None
    r, c = (int(x) for x in space.split(","))
    return next((s for s in position["stacks"] if s["space"] == [r, c]), None)


def explain(event: dict, position: dict | None = None, viewer: int | None = None) -> str:
    """One event in words. ``position``: the position right after it (for the facing a tile was given
    and the tile a battle covered); without it those details are left out."""
    kind, seat = event["kind"], event.get("seat", -1)
    if kind == "start_seat":
        return f"Chance draws the start player: {who(seat)} begins, the others follow clockwise."
    if kind == "board_placed":
        return (f"Board {event['board']}, side {event['side']}, goes into {quarter(QUADRANTS[event['quadrant']])}, "
                f"{turned(event['rotation'])}.")
    if kind == "fortress_placed":
        return f"{who(seat)} builds a fortress on {event['space']}."
    if kind == "drawn":
        where = "into the starting hand" if event["rule"] == "§3.4" else "from the pile"
        if viewer is not None and seat != viewer:
            return f"{who(seat)} draws a tile {where} (hidden)."
        return f"{who(seat)} draws {article(type_words(TYPE_NAMES[event['tile']]))} {where}."
    if kind == "redraw":
        return f"{who(seat)} drew three generals: they go back into the pile and {player_label(seat)} draws again."
    if kind == "placed":
        return _placed(event, position)
    if kind == "order":
        return _order(event, position)
    if kind == "warlord":
        onto = {"empty": "on the empty space", "stack": "onto an own stack",
                "battle": "covering an enemy tile"}[event["how"]]
        stack = _stack(position, event["space"])
        if event["how"] == "battle" and stack and len(stack["tiles"]) > 1:
            below = stack["tiles"][-2]
            onto = f"covering {player_label(tile_owner(below))}'s {tile_kind(below)}"
        return (f"{who(seat)} puts the warlord on {event['space']} {onto} (a stack of {event['height']}): "
                f"{player_label(seat)} is finished.")
    if kind == "retired":
        return f"{who(seat)} has no placement at all and retires."
    if kind == "game_ended":
        totals = ", ".join(f"{player_label(p)} {t}" for p, t in enumerate(event["totals"]))
        winners = event["winners"]
        result = (f"{player_label(winners[0])} wins" if len(winners) == 1 else
                  " and ".join(player_label(p) for p in winners) + " share the win")
        return f"Every warlord is down: the game is over. Totals {totals}; {result}."
    return f"{kind}"


def _placed(event: dict, position: dict | None) -> str:
    seat, space = event["seat"], event["space"]
    stack = _stack(position, space)
    on_top = stack is not None and position is not None and stack["tiles"][-1] == tile_name(event["tile"],
                                                                   tiles_of(position["config"]).ids)
    facing = f" facing {facing_words(stack['facings'][-1])}" if on_top and stack else ""
    text = f"{who(seat)} places {article(tile_kind(event['tile']))}{facing} on {space}"
    if event["how"] == "battle":
        covered = ""
        if stack and len(stack["tiles"]) > 1:
            below = stack["tiles"][-2]
            covered = f" {player_label(tile_owner(below))}'s {tile_kind(below)}"
        text += f", covering{covered}: a battle (§6.3)"
    elif event["how"] == "stack":
        text += ", onto an own stack"
    text += ": a new campaign from the fortress (§6.4)." if event["campaign"] else ", the campaign goes on."
    return text


def _order(event: dict, position: dict | None) -> str:
    seat, order = event["seat"], event["order"]
    if order == "mobilise":
        return (f"The general orders a mobilisation: the stack on {event['from']} moves to {event['to']}, "
                f"and its soldier becomes {player_label(seat)}'s front.")
    if order == "swap_own":
        return (f"The general directs troops: {player_label(seat)}'s soldiers on {event['a']} and {event['b']} "
                f"change places; the one now on {event['cube']} becomes the front.")
    victim = event["victim"]
    return (f"The general directs troops against an enemy: {player_label(seat)}'s soldier on {event['a']} takes "
            f"the place of {player_label(tile_owner(victim))}'s {tile_kind(victim)} on {event['b']}, which goes "
            f"to {event['a']}.")
