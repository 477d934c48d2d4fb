"""Regenerate the golden files of tests/test_golden.py (STYLE.md (c)1-2).

    .venv/bin/python scripts/regen_golden.py

Writes tests/golden/perft.json (position documents with their legal-action counts at depth 1
and 2), tests/golden/transcripts/*.txt (seeded random games, step by step) and, when the rules
specification is beside the repository, tests/golden/rules_md.json (its section numbers and the
hashes of its 10-word runs, for tests/test_rules_reference.py). Run it after a deliberate rule
change and review the diff: every changed count or line is a changed behaviour.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.golden_support import (DEPTH, GAMES, PERFT_FILE, RULES_FINGERPRINT, RULES_MD, TRANSCRIPTS,  # noqa: E402
                                  perft_entries, record_transcript, rules_fingerprint)


def main() -> None:
    entries = perft_entries()
    PERFT_FILE.parent.mkdir(parents=True, exist_ok=True)
    doc = {"comment": "legal-action counts at depth 1..%d; regenerate with scripts/regen_golden.py" % DEPTH,
           "positions": entries}
    PERFT_FILE.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    for e in entries:
        print(f"perft {e['name']:24} {e['decision']:12} {e['counts']}")
    TRANSCRIPTS.mkdir(parents=True, exist_ok=True)
    for stem, config, seed in GAMES:
        lines = record_transcript(config, seed)
        path = TRANSCRIPTS / f"{stem}.txt"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"transcript {path.relative_to(PERFT_FILE.parents[2])}: {len(lines) - 6} steps; {lines[-1]}")
    if RULES_MD.exists():
        doc = rules_fingerprint(RULES_MD.read_text(encoding="utf-8"))
        RULES_FINGERPRINT.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
        print(f"rules fingerprint: {len(doc['numbers'])} headings, {len(doc['questions'])} questions, "
              f"{len(doc['grams']) // 8} runs of {doc['gram_words']} words")
    else:
        print(f"rules fingerprint kept: {RULES_MD} is not there")


if __name__ == "__main__":
    main()
