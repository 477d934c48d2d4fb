"""The bad-input suites' outcome per game (issue 21): runs ``tests/test_bad_input*.py`` and prints, for
each game, the cases tried and how many were refused clearly, unclearly or with a traceback, and how
many changed data.

    .venv/bin/python scripts/bad_input_report.py            # every suite, in one process
    .venv/bin/python scripts/bad_input_report.py -n 2       # more options go to pytest

A case is one bad input handed to the ``imperial`` command (``tests/bad_input_support.py``): *clear*
means refused as the standards say (exit 2, one ``imperial: error:`` line with the expected words, at
most 600 characters, nothing on stdout); *unclear* any other answer; *traceback* an exception that
escaped; *changed data* a case after which a catalogue, run, shipped setup or the working folder
differed. The exit status is pytest's.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REPORT_ENV = "BAD_INPUT_REPORT"  # tests/bad_input_support.py appends one JSON line per case to it
OUTCOMES = ("clear", "unclear", "traceback")


def table(rows: list[dict]) -> str:
    by_game: dict[str, Counter] = defaultdict(Counter)
    for row in rows:
        by_game[row["game"]][row["outcome"]] += 1
        by_game[row["game"]]["changed"] += row["changed"]
    lines = ["| game | tried | clear | unclear | traceback | changed data |", "|---|---|---|---|---|---|"]
    for game, counts in sorted(by_game.items()):
        tried = sum(counts[o] for o in OUTCOMES)
        lines.append(f"| {game} | {tried} | " + " | ".join(str(counts[o]) for o in OUTCOMES) + f" | {counts['changed']} |")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    suites = sorted(str(path) for path in (ROOT / "tests").glob("test_bad_input*.py"))
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "cases.jsonl"
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *suites, *argv],
                              env={**os.environ, REPORT_ENV: str(report)}, cwd=ROOT)
        rows = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()] if report.exists() else []
    print(table(rows))
    for row in rows:
        if row["outcome"] != "clear" or row["changed"]:
            print(f"  {row['game']}: {row['case']}: {row['outcome']}{', changed data' if row['changed'] else ''}")
    return done.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
