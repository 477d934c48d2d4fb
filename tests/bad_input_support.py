"""What the bad-input suites share (``tests/test_bad_input*.py``, one per game): the check that a command
was refused as the standards say, the files it must leave alone, and the cases that read alike in
every game (the format of a move log, the words of an action line, queries, options).

A refused command ends with exit status 2, nothing on stdout, exactly one line on stderr that starts
``imperial: error:`` and says where and why (quoting at most ~80 characters of the input), and leaves
the catalogue, every run folder and the shipped setups byte for byte as they were; the folder it is
run from gets no new file either.

Each case is also classified for ``scripts/bad_input_report.py`` when ``BAD_INPUT_REPORT`` names a
file: *clear* (refused as above, with the expected words), *unclear* (an answer, but not that one),
*traceback* (an exception escaped), and whether it *changed* data.
"""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path

import pytest

from imperial_lab.core.cli import main
from imperial_lab.core.gamelog import write_log
from imperial_lab.core.games.imperial2030.setups import SETUPS_DIR
from imperial_lab.core.simulate import simulate

MAX_LINE = 600  # an error line: the message with its quoted input clipped to about 80 characters
DELETE = object()
REPORT_ENV = "BAD_INPUT_REPORT"


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file of the lab (catalogue and runs) and of the shipped setups, by path."""
    files = {}
    for base in (root, SETUPS_DIR):
        for path in sorted(base.rglob("*")):
            if path.is_file() and "inputs" not in path.relative_to(base).parts:
                files[str(path)] = path.read_bytes()
    return files


def record(game: str, case: str, outcome: str, changed: bool) -> None:
    """Add a case's outcome to the report file named by BAD_INPUT_REPORT (if any)."""
    report = os.environ.get(REPORT_ENV)
    if report:
        with open(report, "a", encoding="utf-8") as file:
            file.write(json.dumps({"game": game, "case": case, "outcome": outcome, "changed": changed}) + "\n")


def refusal_check(lab: dict, capsys, game: str, case: str):
    """``check(argv, words)``: run the command in this process, record how it ended, then assert it
    was refused as the standards say; returns the error line."""
    def check(argv: list, words: str) -> str:
        before, cwd_before = snapshot(lab["root"]), sorted(p.name for p in lab["inputs"].iterdir())
        capsys.readouterr()
        crashed = None
        try:
            code = main([str(a) for a in argv])
        except Exception as exc:  # noqa: BLE001 - recorded as a traceback, then raised again below
            crashed, code = exc, None
        out, err = capsys.readouterr()
        lines = err.splitlines()
        changed = (snapshot(lab["root"]) != before
                   or sorted(p.name for p in lab["inputs"].iterdir()) != cwd_before)
        clear = (code == 2 and out == "" and len(lines) == 1 and lines[0].startswith("imperial: error: ")
                 and len(lines[0]) <= MAX_LINE and words in lines[0])
        outcome = "traceback" if crashed is not None or "Traceback" in err else "clear" if clear else "unclear"
        record(game, case, outcome, changed)
        if crashed is not None:
            raise crashed
        assert code == 2, (code, err)
        assert out == ""
        assert len(lines) == 1, err
        assert lines[0].startswith("imperial: error: ") and len(lines[0]) <= MAX_LINE, lines[0][:2000]
        assert words in lines[0], (words, lines[0])
        assert "Traceback" not in err
        assert not changed, "a refused command changed the catalogue, a run or the folder it ran in"
        return lines[0]
    return check


@pytest.fixture
def refused(lab, capsys, monkeypatch, request):
    """``refused(argv, words)`` for the module's GAME and its ``lab``, run from the lab's inputs folder
    with the lab's catalogue as the default."""
    monkeypatch.chdir(lab["inputs"])  # nothing may be written next to the user either
    monkeypatch.setenv("IMPERIAL_LAB_CATALOG", str(lab["catalog"]))
    return refusal_check(lab, capsys, request.module.GAME, request.node.name)


def write(lab, name: str, content) -> Path:
    path = lab["inputs"] / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return path


def changed(doc: dict, edits: dict) -> dict:
    """A copy of ``doc`` with ``{"players.0.cash": 5, ...}`` applied (DELETE removes the key)."""
    doc = copy.deepcopy(doc)
    for dotted, value in edits.items():
        *parents, last = dotted.split(".")
        node = doc
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        key = int(last) if isinstance(node, list) else last
        if value is DELETE:
            del node[key]
        else:
            node[key] = value
    return doc


def log_file(lab, name: str, lines: list) -> Path:
    return write(lab, name, b"\n".join(x if isinstance(x, bytes) else x.encode() for x in lines) + b"\n")


def make_lab(root: Path, game: str, played, seed: int, positions: dict, simulated_players: int) -> dict:
    """The lab of a suite: a catalogue with a small simulated run ("small", 2 games of
    ``simulated_players`` random bots) and the played game's log imported as run "club"; the log's
    lines and the suite's ``positions`` (phase -> position document) come with it."""
    catalog, inputs = root / "lab.duckdb", root / "inputs"
    inputs.mkdir()
    simulate(root / "runs" / "small", 2, simulated_players, "default", ["random"] * simulated_players, 1,
             catalog=catalog, progress=False, game=game)
    log = inputs / "game.jsonl"
    write_log(log, played, seed=seed, bots=["random"] * played.config["players"])
    assert main(["import", str(log), "--game", game, "--run", "club", "--out", str(root / "runs" / "club"),
                 "--catalog", str(catalog)]) == 0
    return {"root": root, "catalog": catalog, "inputs": inputs, "log": log, "lines": log.read_text().splitlines(),
            "positions": positions}


# ----- cases that read alike in every game -----

def format_cases(game: str) -> dict:
    """Move logs whose lines are not a game record (``replay FILE``): id -> (lines, expected words)."""
    head = json.dumps({"game": game, "format": 1, "config": {}})[:-1]
    return {
        "empty file": ([], "empty log"),
        "blank lines only": (["", "   ", ""], "empty log"),
        "not JSON": (["{oops"], ":1: not valid JSON"),
        "a JSON array": (["[1, 2, 3]"], "expected a JSON object, got list"),
        "a JSON string": (['"header"'], "expected a JSON object, got str"),
        "a JSON number": (["42"], "expected a JSON object, got int"),
        "header without config": ([json.dumps({"game": game, "format": 1})], "header is missing field 'config'"),
        "header without format": ([json.dumps({"game": game, "config": {}})], "header is missing field 'format'"),
        "action before header": (['{"player": 0, "action": "pass"}'], "an action line came before the header"),
        "format 2": ([json.dumps({"game": game, "format": 2, "config": {}})], "unsupported format 2"),
        "format as text": ([json.dumps({"game": game, "format": "1", "config": {}})], "unsupported format '1'"),
        "game is a number": ([json.dumps({"game": 5, "format": 1, "config": {}})], "'game' must be a string"),
        "config is a list": ([json.dumps({"game": game, "format": 1, "config": []})], "'config' an object"),
        "games disagree": ([json.dumps({"game": game, "format": 1, "config": {"game": "chess"}})],
                           "config.game 'chess'"),
        "unknown game": ([json.dumps({"game": "chess", "format": 1, "config": {}})], "unknown game 'chess'"),
        "seed negative": ([head + ', "seed": -1}'], "header: seed must be a whole number 0..2**63-1"),
        "seed beyond int64": ([head + f', "seed": {2**64}}}'], "header: seed must be a whole number"),
        "seed as text": ([head + ', "seed": "7"}'], "header: seed must be a whole number"),
        "bots not a list": ([head + ', "bots": "random"}'], "header: bots must be a list"),
        "seven bots": ([head + ', "bots": ' + json.dumps(["random"] * 7) + "}"], "header: bots must be a list"),
        "number of 5000 digits": (['{"game": "' + game + '", "format": ' + "9" * 5000 + "}"], "number too long"),
        "100,000-deep array": (["[" * 100_000 + "]" * 100_000], "characters, more than the limit"),
        "300-deep array": (["[" * 300 + "]" * 300], "nested more than 32 levels"),
        "a 5 MB line": (['{"game": "' + "x" * 5_000_000 + '"}'], "characters, more than the limit of 65,536"),
        "invalid UTF-8 in the header": ([b'{"game": "\xff\xfe", "format": 1, "config": {}}'], "unknown game"),
    }


ACTION_LINE_CASES = {  # lines after a real header (and the first chance line): id -> (line, expected words)
    "action line without player": ('{"action": "pass"}', "missing field 'player'"),
    "action line without action": ('{"player": 0}', "missing field 'action'"),
    "player as text": ('{"player": "0", "action": "pass"}', "'player' must be a whole number"),
    "player true": ('{"player": true, "action": "pass"}', "'player' must be a whole number"),
    "player of 4000 digits": ('{"player": ' + "9" * 4000 + ', "action": "x"}', "is not the one to decide"),
    "player 99": ('{"player": 99, "action": "pass"}', "is not the one to decide"),
    "action a number": ('{"player": 0, "action": 5}', "'action' must be a string, got 5"),
    "action a long list": ('{"player": 0, "action": [' + ", ".join(["1"] * 3000) + ']}', "'action' must be a string"),
    "action null": ('{"player": 0, "action": null}', "'action' must be a string, got None"),
    "an action line that is a list": ("[0, 1]", "expected a JSON object, got list"),
    "an action line that is not JSON": ("{player: 0}", "not valid JSON"),
}

QUERY_CASES = [  # (sql, expected words): one SELECT over the catalogue, nothing else
    ("", "empty"),
    ("   ", "empty"),
    ("-- only a comment", "empty"),
    ("SELEC 1", "query"),
    ("SELECT * FROM no_such_table", "no_such_table"),
    ("COPY runs TO 'out.csv'", "COPY"),
    ("ATTACH 'other.duckdb' AS o", "ATTACH"),
    ("INSTALL httpfs", "not LOAD"),  # DuckDB's parser files INSTALL under LOAD
    ("LOAD httpfs", "LOAD"),
    ("SET enable_external_access = true", "SET"),
    ("CREATE TABLE t AS SELECT 1", "CREATE"),
    ("DELETE FROM runs", "DELETE"),
    ("DROP VIEW runs", "DROP"),
    ("SELECT 1; DELETE FROM runs", "one statement"),
    ("SELECT * FROM read_csv('/etc/passwd')", "passwd"),
    ("SELECT * FROM read_text('/etc/hostname')", "hostname"),
    ("SELECT * FROM glob('/*')", "query"),
]


# ----- the tests every game's suite runs over its own cases -----
#
# A suite (tests/test_bad_input_<game>.py) imports these tests and ``pytest_generate_tests``; each
# test reads the suite's GAME and case tables through the argument named after the table:
# ``format_case`` (made from GAME), ``header_case`` (HEADER_CASES: header line, words),
# ``position_case`` (POSITION_CASES: base phase, edits, words), ``apply_case`` (APPLY_CASES),
# ``setup_case`` (SETUP_CASES: file content, words), ``setup_file_case`` (SETUP_FILE_CASES: bytes,
# words), ``option_case`` (OPTION_CASES: argv, words), ``import_case`` (IMPORT_CASES: names of
# header cases). LINKED_TABLES names three tables for the symbolic links: one of the run's table
# folders, the games table (a folder of files), and a table of another game (no folder in the run).

CASE_TABLES = {"header_case": "HEADER_CASES", "position_case": "POSITION_CASES", "apply_case": "APPLY_CASES",
               "setup_case": "SETUP_CASES", "setup_file_case": "SETUP_FILE_CASES", "option_case": "OPTION_CASES",
               "import_case": "IMPORT_CASES"}
UNREADABLE_LOGS = [  # (file name, how to make it, expected words)
    ("missing", None, "missing.jsonl:1: No such file or directory"),
    ("folder", lambda p: p.mkdir(), "a folder, not a file to read"),
    ("huge", lambda p: p.write_bytes(b" " * (8 * 2**20 + 1)), "more than 8,388,608 bytes"),
]
NO_DOCUMENTS = [  # position files that are no documents: (content, expected words)
    ("", "not valid JSON: Expecting value"),
    ("[" * 100_000, "nested more than 32 levels"),
    ('{"a": ' * 40 + "1" + "}" * 40, "nested more than 32 levels"),
    ("[1, 2]", "a position document is a JSON object"),
    ('{"phase": "turn"}', "a position document is a JSON object with a 'config' object"),
    (b"\xff\xfe{}", "not valid JSON"),
]


def pytest_generate_tests(metafunc):
    """Parametrize the shared tests over the case tables of the suite that runs them."""
    module = metafunc.module
    for argument, table in CASE_TABLES.items():
        if argument in metafunc.fixturenames:
            cases = getattr(module, table)
            metafunc.parametrize(argument, list(cases.values()) if isinstance(cases, dict) else cases,
                                 ids=list(cases) if isinstance(cases, dict) else None)
    if "format_case" in metafunc.fixturenames:
        cases = format_cases(module.GAME)
        metafunc.parametrize("format_case", list(cases.values()), ids=list(cases))


def test_bad_log_format(lab, refused, format_case):
    lines, words = format_case
    refused(["replay", log_file(lab, "bad.jsonl", lines)], words)


def test_bad_log_headers(lab, refused, header_case):
    line, words = header_case
    refused(["replay", log_file(lab, "bad.jsonl", [line])], words)


def test_a_log_file_of_more_than_100000_lines(lab, refused):
    """The line limit holds for a file as for lines handed over one by one."""
    path = log_file(lab, "long.jsonl", [lab["lines"][0]] + [""] * 100_000)
    refused(["replay", path], "long.jsonl:100001: more than 100,000 lines")


@pytest.mark.parametrize("name, make, words", UNREADABLE_LOGS)
def test_log_files_that_cannot_be_read(lab, refused, name, make, words):
    path = lab["inputs"] / f"{name}.jsonl"
    if make:
        make(path)
    refused(["replay", path], words)
    if path.is_dir():
        path.rmdir()
    path.unlink(missing_ok=True)


def test_bad_positions(lab, refused, position_case):
    base, edits, words = position_case
    doc = json.loads(json.dumps(lab["positions"][base]))
    if callable(edits):
        edits(doc)
    else:
        doc = changed(doc, edits)
    assert "pos.json" in refused(["legal", write(lab, "pos.json", json.dumps(doc))], words)


@pytest.mark.parametrize("content, words", NO_DOCUMENTS)
def test_position_files_that_are_no_documents(lab, refused, content, words):
    refused(["legal", write(lab, "pos.json", content)], words)


def test_the_base_positions_are_read(lab, capsys):
    """Each position case fails for its own edit: its base position is accepted."""
    for name, doc in lab["positions"].items():
        assert main(["legal", str(write(lab, "pos.json", json.dumps(doc)))]) == 0, name
    capsys.readouterr()


def test_apply_refuses_bad_actions(lab, refused, apply_case):
    base, action, words = apply_case
    refused(["apply", write(lab, "pos.json", json.dumps(lab["positions"][base])), action], words)


@pytest.mark.parametrize("command", ["play", "simulate", "show"])
def test_bad_setup_files(lab, refused, request, command, setup_case):
    doc, words = setup_case
    game, path = request.module.GAME, write(lab, "mine.json", json.dumps(doc))
    argv = {"play": ["play", "--game", game, "--setup", path],
            "simulate": ["simulate", "--game", game, "--games", "2", "--setup", path, "--out",
                         lab["root"] / "runs" / "mine", "--workers", "1"],
            "show": ["setups", "show", path, "--game", game]}[command]
    refused(argv, words)
    assert not (lab["root"] / "runs" / "mine").exists()


def test_setup_files_that_are_no_setups(lab, refused, request, setup_file_case):
    content, words = setup_file_case
    refused(["play", "--game", request.module.GAME, "--setup", write(lab, "mine.json", content)], words)


def test_the_setups_list_gives_the_games_player_range(capsys, request):
    from imperial_lab.core.registry import plugin

    game = request.module.GAME
    assert main(["setups", "--game", game]) == 0
    low, high = plugin(game).players
    assert f"  {low}-{high}  " in capsys.readouterr().out


def test_bad_options(refused, option_case):
    refused(*option_case)


def test_an_import_of_bad_logs_writes_nothing(lab, refused, request, import_case):
    line, words = request.module.HEADER_CASES[import_case]
    refused(["import", log_file(lab, "bad.jsonl", [line]), "--game", request.module.GAME, "--run", "fresh",
             "--catalog", lab["catalog"]], words)
    assert not (lab["inputs"] / "runs").exists()


def test_an_import_into_a_simulated_run(lab, refused):
    refused(["import", lab["log"], "--run", "small", "--out", lab["root"] / "runs" / "small", "--catalog",
             lab["catalog"]], "holds a run of kind 'simulate'")


@pytest.mark.parametrize("sql, words", QUERY_CASES)
def test_bad_queries(refused, sql, words):
    refused(["query", sql], words)


@pytest.mark.parametrize("where", ["table folder", "file", "subfolder", "missing table"])
def test_a_symbolic_link_in_a_run_is_refused(lab, refused, request, where):
    """A link at a table folder's name, or inside one, would let a query read what it points to
    (``/``: the whole file system); the query is refused, naming the link."""
    folder, files, other = request.module.LINKED_TABLES
    run = lab["root"] / "runs" / "small"
    link = {"table folder": run / folder, "file": run / files / "chunk-99999.parquet",
            "subfolder": run / files / "more", "missing table": run / other}[where]
    if where == "table folder":
        os.rename(link, link.with_name("kept"))
    os.symlink("/", link)
    try:
        refused(["query", f"SELECT * FROM read_text('{link}/etc/hostname')"], f"{link} is a symbolic link (to /)")
    finally:
        link.unlink()
        if where == "table folder":
            os.rename(link.with_name("kept"), link)


def test_simulate_with_a_scheduler_that_is_not_there(lab, refused, request):
    refused(["simulate", "--game", request.module.GAME, "--games", "2", "--out", lab["root"] / "runs" / "remote",
             "--scheduler", "tcp://127.0.0.1:1"], "scheduler")
    assert not (lab["root"] / "runs" / "remote").exists()
