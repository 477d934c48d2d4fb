"""Golden regression tests (STYLE.md (c)1-2), for every game: perft counts and step-by-step game transcripts.

A failure here means the engine now behaves differently from when the files were written. If the
change is a deliberate rule fix, regenerate with ``.venv/bin/python scripts/regen_golden.py`` and
review the diff; otherwise the message (a divide for perft, the first differing line for a
transcript) shows where the behaviour moved.
"""

from __future__ import annotations

import pytest

from imperial_lab.core import registry
from tests.golden_support import (GOLDEN_GAMES, divide, load_position, perft, read_perft, replay_transcript,
                                  transcripts_dir)

PERFT = [(game, entry) for game in sorted(GOLDEN_GAMES) for entry in read_perft(game)]
TRANSCRIPT_FILES = [path for game in sorted(GOLDEN_GAMES) for path in sorted(transcripts_dir(game).glob("*.txt"))]


@pytest.mark.parametrize("game, entry", PERFT, ids=[f"{game}-{e['name']}" for game, e in PERFT])
def test_perft(game, entry):
    state = load_position(entry["position"])
    assert state.game.name == game
    assert state.decision_name() == entry["decision"], f"{entry['name']}: {entry['description']}"
    for depth, expected in enumerate(entry["counts"], 1):
        got = perft(state, depth)
        if got != expected:
            lines = "\n".join(f"  {text}: {n}" for text, n in divide(state, depth).items())
            pytest.fail(f"{entry['name']} ({entry['description']}): perft({depth}) = {got}, expected {expected}.\n"
                        f"divide (count below each first action):\n{lines}")


def test_every_registered_game_has_goldens():
    assert set(GOLDEN_GAMES) == set(registry.GAMES)


@pytest.mark.parametrize("game", sorted(GOLDEN_GAMES))
def test_perft_file_covers_every_decision_kind_of_interest(game):
    entries = read_perft(game)
    assert GOLDEN_GAMES[game].kinds <= {e["decision"] for e in entries}
    assert all(len(e["counts"]) >= 2 for e in entries) and len(entries) >= 10


@pytest.mark.parametrize("path", TRANSCRIPT_FILES, ids=[f"{p.parent.parent.name}-{p.stem}" for p in TRANSCRIPT_FILES])
def test_transcript(path):
    expected = path.read_text(encoding="utf-8").splitlines()
    got = replay_transcript(expected)
    for number, (want, have) in enumerate(zip(expected, got), 1):
        assert have == want, f"{path.name}:{number} differs\n  file:   {want}\n  engine: {have}"
    assert len(got) == len(expected), f"{path.name}: {len(expected)} lines in the file, {len(got)} replayed"


@pytest.mark.parametrize("game", sorted(GOLDEN_GAMES))
def test_every_golden_game_has_a_transcript(game):
    """One file per seeded game (OpenSpiel checks every registered game has its playthrough)."""
    assert sorted(p.stem for p in transcripts_dir(game).glob("*.txt")) == sorted(
        stem for stem, _, _ in GOLDEN_GAMES[game].games)
