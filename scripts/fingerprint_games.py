"""Fingerprints of seeded games, to check that a refactoring changes no behaviour, byte for byte.

    .venv/bin/python scripts/fingerprint_games.py                   # this tree: one hash per case
    .venv/bin/python scripts/fingerprint_games.py --old /tmp/base   # another checkout too, then compare
    .venv/bin/python scripts/fingerprint_games.py --rev 6634378     # a worktree of a revision as the old one

For every game, setup and lineup of bots (random, heuristic and a small search, mixed) it plays
``--games`` seeded games three ways and hashes what comes out:

* ``log``: the move log (``imperial_lab.core.gamelog.write_log``) and every event's JSON, from
  ``play_game(..., record=True)``;
* ``tables``: the Parquet bytes of the game's tables (``imperial_lab.core.tables.record_game``, the
  recorder of batch runs, written by ``runstore.arrow_table``);
* ``silent``: the final position document of ``play_game(..., record=False)`` (no events built).

Each checkout runs in a fresh interpreter that imports ``imperial_lab`` from that checkout (a
folder of symlinks, ``package_view``; so a revision of the one-package layout, e03ce72 or later),
and the two engines never mix. Exit status 1 when a hash differs.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from package_view import package_view, worktree  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
# (game, players, setup, lineup): every bot kind of the game, alone and mixed
CASES = (
    ("imperial2030", 4, "standard", ("random",) * 4),
    ("imperial2030", 3, "variant", ("heuristic",) * 3),
    ("imperial2030", 2, "standard", ("mcts:playouts=4:depth=6", "heuristic")),
    ("imperia", 3, "default", ("random",) * 3),
    ("imperia", 4, "default", ("heuristic",) * 4),
    ("imperia", 2, "default", ("mcts:playouts=6:depth=8", "heuristic")),
    ("imperial_powers", 4, "default", ("random",) * 4),
    ("imperial_powers", 3, "default", ("heuristic",) * 3),
    ("imperial_powers", 3, "default", ("mcts:playouts=4:depth=8", "heuristic", "random")),
)


def fingerprints(games: int) -> dict[str, str]:
    """``{case/way: sha256}`` for every case of CASES, in this interpreter's ``imperial_lab``."""
    import pyarrow.parquet as pq

    from imperial_lab.core.bots import make_bot
    from imperial_lab.core.gamelog import write_log
    from imperial_lab.core.play import play_game
    from imperial_lab.core.runstore import arrow_table
    from imperial_lab.core.setups import load_setup
    from imperial_lab.core.tables import frames, merge_rows, record_game

    out = {}
    for game, players, setup, lineup in CASES:
        config = load_setup(setup, players, game=game)
        case = f"{game}/{players}p/{setup}/{','.join(lineup)}"
        hashes = {way: hashlib.sha256() for way in ("log", "tables", "silent")}
        rows = []
        for k in range(games):
            seed = 1000 + k

            def bots():
                return [make_bot(spec, seed * 100 + p, game) for p, spec in enumerate(lineup)]

            events = []
            played = play_game(config, bots(), seed, on_step=lambda s, p, a, ev: events.append(
                [e.to_json() for e in ev]))
            text = io.StringIO()
            write_log(text, played, seed=seed, bots=list(lineup))
            hashes["log"].update(text.getvalue().encode())
            hashes["log"].update(json.dumps(events, sort_keys=True).encode())
            rows.append(record_game(config, bots(), list(lineup), seed, "fingerprint", k, setup))
            silent = play_game(config, bots(), seed, record=False)
            hashes["silent"].update(json.dumps(silent.state.to_json(), sort_keys=True).encode())
        for name, frame in frames(merge_rows(rows, game), game).items():
            buffer = io.BytesIO()
            pq.write_table(arrow_table(frame), buffer)
            hashes["tables"].update(name.encode() + buffer.getvalue())
        out.update({f"{case} {way}": h.hexdigest() for way, h in hashes.items()})
    return out


def run(checkout: Path, games: int) -> dict[str, str]:
    """The fingerprints of ``checkout``, computed in a fresh interpreter importing its ``imperial_lab``."""
    code = ("import json, os, sys; sys.path.insert(0, sys.argv[1]); sys.path.insert(0, sys.argv[2]); "
            "import imperial_lab.core; from fingerprint_games import fingerprints; "
            "print(os.path.realpath(imperial_lab.core.__path__[0])); print(json.dumps(fingerprints(int(sys.argv[3]))))")
    with package_view(checkout) as view:
        env = {**os.environ, "PYTHONHASHSEED": "0", "IMPERIAL_LAB_HOME": str(view)}
        done = subprocess.run([sys.executable, "-c", code, str(view), str(ROOT / "scripts"), str(games)],
                              cwd=view, env=env, capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"fingerprints of {checkout} failed:\n{done.stderr}")
    imported, hashes = done.stdout.splitlines()
    if Path(imported) != (Path(checkout) / "core").resolve():  # the view must win over the editable install
        sys.exit(f"fingerprints of {checkout} imported {imported}")
    return json.loads(hashes)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--old", type=Path, help="a checkout to compare with")
    ap.add_argument("--rev", help="a revision to compare with (a worktree of it in /tmp)")
    ap.add_argument("--games", type=int, default=3, help="games per case (default 3)")
    args = ap.parse_args(argv)
    new = run(ROOT, args.games)
    old_checkout = args.old or (worktree(ROOT, args.rev) if args.rev else None)
    if old_checkout is None:
        for key, digest in new.items():
            print(f"{digest[:16]}  {key}")
        return 0
    old = run(old_checkout, args.games)
    print(f"old: {old_checkout.resolve()}\nnew: {ROOT}\n{args.games} games per case")
    differ = 0
    for key in new:
        same = old.get(key) == new[key]
        differ += not same
        print(f"{'same   ' if same else 'DIFFERS'}  {new[key][:16]}  {key}")
    print(f"{len(new) - differ} of {len(new)} fingerprints identical")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
