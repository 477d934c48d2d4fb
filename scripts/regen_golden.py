"""Regenerate the golden files of tests/test_golden.py (STYLE.md (c)1-2), for every game.

    .venv/bin/python scripts/regen_golden.py               # every game
    .venv/bin/python scripts/regen_golden.py imperia       # one game

Writes, per game, tests/golden/<game>/perft.json (position documents with their legal-action
counts at depth 1, 2, ...) and tests/golden/<game>/transcripts/*.txt (seeded random games, step
by step) and, when the rules specification is beside the repository,
tests/golden/rules_md.json (Imperial 2030's RULES.md: its section numbers and the hashes of its
10-word runs, for tests/test_rules_reference.py). Run it after a deliberate rule change and review
the diff: every changed count or line is a changed behaviour.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.golden_support import (GOLDEN, GOLDEN_GAMES, RULES_FINGERPRINT, RULES_MD, perft_entries,  # noqa: E402
                                  perft_file, record_transcript, rules_fingerprint, transcripts_dir)


def regenerate(game: str) -> None:
    entries = perft_entries(game)
    path = perft_file(game)
    path.parent.mkdir(parents=True, exist_ok=True)
    deepest = max(len(e["counts"]) for e in entries)
    doc = {"comment": f"legal-action counts at depth 1..{deepest}; regenerate with scripts/regen_golden.py",
           "positions": entries}
    path.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    for e in entries:
        print(f"{game} perft {e['name']:24} {e['decision']:12} {e['counts']}")
    folder = transcripts_dir(game)
    folder.mkdir(parents=True, exist_ok=True)
    for stem, config, seed in GOLDEN_GAMES[game].games:
        lines = record_transcript(config, seed)
        out = folder / f"{stem}.txt"
        out.write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"transcript {out.relative_to(GOLDEN.parent.parent)}: {len(lines) - 6} steps; {lines[-1]}")


def main(argv: list[str]) -> None:
    unknown = set(argv) - set(GOLDEN_GAMES)
    if unknown:
        sys.exit(f"regen_golden: unknown games {sorted(unknown)} (known: {', '.join(GOLDEN_GAMES)})")
    for game in argv or GOLDEN_GAMES:
        regenerate(game)
    if RULES_MD.exists():
        doc = rules_fingerprint(RULES_MD.read_text(encoding="utf-8"))
        RULES_FINGERPRINT.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
        print(f"rules fingerprint: {len(doc['numbers'])} headings, {len(doc['questions'])} questions, "
              f"{len(doc['grams']) // 8} runs of {doc['gram_words']} words")
    else:
        print(f"rules fingerprint kept: {RULES_MD} is not there")


if __name__ == "__main__":
    main(sys.argv[1:])
