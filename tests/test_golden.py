"""Golden regression tests (STYLE.md (c)1-2): perft counts and step-by-step game transcripts.

A failure here means the engine now behaves differently from when the files were written. If the
change is a deliberate rule fix, regenerate with ``.venv/bin/python scripts/regen_golden.py`` and
review the diff; otherwise the message (a divide for perft, the first differing line for a
transcript) shows where the behaviour moved.
"""

from __future__ import annotations

import pytest

from tests.golden_support import DEPTH, GAMES, TRANSCRIPTS, divide, load_position, perft, read_perft, replay_transcript

PERFT = read_perft()
TRANSCRIPT_FILES = sorted(TRANSCRIPTS.glob("*.txt"))


@pytest.mark.parametrize("entry", PERFT, ids=[e["name"] for e in PERFT])
def test_perft(entry):
    state = load_position(entry["position"])
    assert state.decision_name() == entry["decision"], f"{entry['name']}: {entry['description']}"
    for depth, expected in enumerate(entry["counts"], 1):
        got = perft(state, depth)
        if got != expected:
            lines = "\n".join(f"  {text}: {n}" for text, n in divide(state, depth).items())
            pytest.fail(f"{entry['name']} ({entry['description']}): perft({depth}) = {got}, expected {expected}.\n"
                        f"divide (count below each first action):\n{lines}")


def test_perft_file_covers_every_decision_kind_of_interest():
    kinds = {e["decision"] for e in PERFT}
    assert {"deal", "variant_pick", "turn_start", "factory", "import", "maneuver", "invest"} <= kinds
    assert all(len(e["counts"]) == DEPTH for e in PERFT) and len(PERFT) >= 10


@pytest.mark.parametrize("path", TRANSCRIPT_FILES, ids=[p.stem for p in TRANSCRIPT_FILES])
def test_transcript(path):
    expected = path.read_text(encoding="utf-8").splitlines()
    got = replay_transcript(expected)
    for number, (want, have) in enumerate(zip(expected, got), 1):
        assert have == want, f"{path.name}:{number} differs\n  file:   {want}\n  engine: {have}"
    assert len(got) == len(expected), f"{path.name}: {len(expected)} lines in the file, {len(got)} replayed"


def test_every_golden_game_has_a_transcript():
    """One file per seeded game (OpenSpiel checks every registered game has its playthrough)."""
    assert sorted(p.stem for p in TRANSCRIPT_FILES) == sorted(stem for stem, _, _ in GAMES)
