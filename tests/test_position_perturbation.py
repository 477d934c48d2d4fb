"""Position documents one edit away from real ones (issue 21), in every game: the reader either refuses the document
with one line, or every action it then lists applies, and a game in play lists at least one.

Real positions are taken from seeded random games of every game, of player counts and options that
change what a position holds (Imperial 2030's variant setup; Imperia's drawn start seat and fixed
general orders; Imperial Powers' power assignment, event resolution, public Tactics), a few from
every phase. Hypothesis then changes one field of one of
them: a number moved a little or far, a value of the same field in another real position, another
field's value, a list entry dropped or doubled, a key removed, a null. A document the reader takes
must behave like a position of the game: ``legal`` lists what ``apply`` takes, through the actions'
texts as the command line does, and the position it leads to is read back as sound.

The default suite tries a modest number of edits per game; ``-m slow`` many more.
"""

from __future__ import annotations

import copy
import json
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from imperial_lab.core.bots import RandomBot
from imperial_lab.core.errors import ImperialError
from imperial_lab.core.interface import make_game
from imperial_lab.core.play import play_game

CONFIGS = {
    "imperial2030": [{"players": 3}, {"players": 4, "setup": "variant"}],
    "imperia": [{"players": 2, "start_seat": None}, {"players": 3}, {"players": 4, "start_seat": None},
                {"players": 4, "general_orders": "fixed_types_2_mobilise_2_direct",
                 "general_classes": {"orth": 3, "diag": 1}}],
    "imperial_powers": [{"players": 3}, {"players": 4, "power_assignment": "random",
                                         "event_resolution": "after_all_assigned"},
                        {"players": 5, "tactics_visibility": "regions_public", "turns": 3}],
}
PER_PHASE = 4  # real positions kept per (config, phase)
EXAMPLES, SLOW_EXAMPLES = 150, 3000
DROP = object()


@cache
def real_positions(game_name: str) -> list[dict]:
    """Position documents of seeded random games, up to PER_PHASE per config and phase, spread over
    each game."""
    docs = []
    for k, options in enumerate(CONFIGS[game_name]):
        game = make_game({"game": game_name, **options})
        seen: dict[str, list] = {}

        def keep(state, player, action, events):
            seen.setdefault(state.decision_name(), []).append(state.to_json())

        played = play_game(game.config, [RandomBot(7 * k + p) for p in range(game.num_players)], 100 + k,
                           on_step=keep)
        seen.setdefault("start", []).append(game.new_initial_state().to_json())
        assert played.state.is_terminal()
        for found in seen.values():
            step = max(1, len(found) // PER_PHASE)
            docs += found[::step][:PER_PHASE]
    return docs


@pytest.fixture(scope="module", params=sorted(CONFIGS))
def game_name(request) -> str:
    """Each game; its real positions are ``real_positions(game_name)`` (kept out of Hypothesis' reports)."""
    return request.param


def paths(node, prefix=()) -> list[tuple]:
    """The path of every value in a document (objects by key, lists by index), the root excepted."""
    out = []
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, value in items:
        out.append(prefix + (key,))
        out += paths(value, prefix + (key,))
    return out


def value_at(doc, path):
    """The value at ``path`` in ``doc``, None where it has none."""
    for key in path:
        if isinstance(doc, dict):
            doc = doc.get(key)
        elif isinstance(doc, list) and isinstance(key, int) and key < len(doc):
            doc = doc[key]
        else:
            return None
    return doc


@st.composite
def walk(draw, doc) -> tuple:
    """A path into ``doc`` chosen key by key from the top, so that each top-level field is as likely
    as a whole list of stacks; at a list or an object the walk may stop (that value is changed)."""
    path, node = (), doc
    while isinstance(node, (dict, list)) and node and (not path or draw(st.integers(0, 2))):
        key = draw(st.sampled_from(list(node) if isinstance(node, dict) else range(len(node))))
        path, node = path + (key,), node[key]
    return path or (draw(st.sampled_from(list(doc))),)


@st.composite
def perturbed(draw, docs: list[dict]) -> tuple[dict, str]:
    """One real document with one of its values changed, and a word on the change."""
    doc = copy.deepcopy(draw(st.sampled_from(docs)))
    path = draw(walk(doc))
    *parents, last = path
    holder = value_at(doc, parents)
    old = holder[last]
    choices = [st.sampled_from([None, DROP]), st.sampled_from([value_at(other, path) for other in docs]),
               st.sampled_from([value_at(doc, other) for other in paths(doc)])]
    if type(old) is int:
        choices += [st.integers(old - 3, old + 3), st.integers(-2, 12), st.sampled_from([10**6, -10**6, 2**64])]
    if isinstance(old, list) and old:
        choices.append(st.sampled_from([old[:-1], old[1:], old + old[-1:], old[::-1], []]))
    new = draw(st.one_of(choices))
    if new is DROP:
        if isinstance(holder, list):
            holder.pop(last)
        else:
            del holder[last]
    else:
        holder[last] = copy.deepcopy(new)
    return doc, f"{'.'.join(map(str, path))}: {json.dumps(old)[:60]} -> {'(dropped)' if new is DROP else json.dumps(new)[:60]}"


def check(game_name: str, doc: dict, change: str) -> bool:
    """Whether the reader took ``doc``; if it did, its actions apply; if not, it said why in one line."""
    try:  # as imperial legal does: the game of the document's config reads it
        game = make_game(doc["config"]) if isinstance(doc.get("config"), dict) else None
        if game is None or game.name != game_name:
            raise ImperialError("not a position of this game")
        state = game.state_from_json(doc)
    except ImperialError as exc:  # refused: one line
        assert "\n" not in str(exc), (change, str(exc))
        return False
    legal = state.legal_actions()
    assert state.is_terminal() or legal, (change, "a game in play without a legal action")
    for action in legal:
        text = state.action_to_string(action)
        after = state.clone()
        after.apply_action(after.string_to_action(text))
        # The position an action leads to is sound too (but for a ply counter taken to the reader's limit).
        game.state_from_json({**after.to_json(), **({"ply": doc["ply"]} if "ply" in doc else {})})
    return True


def _property(examples: int):
    @settings(max_examples=examples, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(data=st.data())
    def run(game_name, data):
        doc, change = data.draw(perturbed(real_positions(game_name)), label="edit")
        check(game_name, doc, change)
    return run


test_one_edit_is_refused_or_played = _property(EXAMPLES)
test_one_edit_is_refused_or_played_many = pytest.mark.slow(_property(SLOW_EXAMPLES))


def test_the_real_positions_are_read_and_played(game_name):
    """The base of the edits: every real position is accepted and all its actions apply."""
    docs = real_positions(game_name)
    phases = {doc.get("phase") or (doc.get("decision") or {}).get("kind", "turn_start") for doc in docs}
    assert len(phases) >= 7, phases
    assert all(check(game_name, doc, "none") for doc in docs)
