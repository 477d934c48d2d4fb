"""Games as plug-ins (core/plugin.py, core/registry.py): the shared layer imports no game, no game has an
import circle, the registry has one entry per game whose declarations hold (a game declaring what it
lacks is refused), the ``game`` key of documents, ``--game``, and a toy game (Nim) registered in a
test and played through the shared driver, move logs and commands."""

from __future__ import annotations

import ast
import graphlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from imperial_lab.core import registry
from imperial_lab.core.bots import RandomBot, bot_classes, make_bot
from imperial_lab.core.cli import main
from imperial_lab.core.errors import SetupError
from imperial_lab.core.gamelog import replay_game, write_log
from imperial_lab.core.interface import make_game
from imperial_lab.core.play import play_game
from imperial_lab.core.plugin import PARTS, Capability, GamePlugin
from imperial_lab.core.setups import list_setups, load_setup
from tests.toy_games import NIM, Nim, NimGame

ROOT = Path(__file__).resolve().parents[1]
GAMES_DIR = ROOT / "core" / "games"
# The shared layer: every module of core/ outside core/games/ (interface, registry, driver, move logs,
# bots, batch runs, run store, catalogue, ...) and of dashboard/ (router, frame, cache, generic colours
# and charts, the runs' questions, the dashboard's own runs, the generic pages) outside dashboard/games/.
SHARED = sorted([*(ROOT / "core").glob("*.py"),
                 *(path for path in (ROOT / "dashboard").rglob("*.py") if "games" not in path.parts)])


def imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports, at the top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


@pytest.fixture
def nim(monkeypatch):
    monkeypatch.setitem(registry.GAMES, "nim", registry.checked(NIM))
    return NIM


# ----- the layout -----

def test_the_shared_layer_imports_no_game():
    names = {path.stem for path in SHARED}
    assert {"interface", "registry", "plugin", "play", "gamelog", "bots", "mcts", "simulate", "runstore",
            "catalog", "tables", "setups", "session", "cli", "app", "frame", "cache", "style", "charts", "pages",
            "league"} <= names
    for path in SHARED:
        games = sorted(m for m in imported_modules(path)
                       if m.startswith(("imperial_lab.core.games", "imperial_lab.dashboard.games")))
        assert not games, f"{path.relative_to(ROOT)} imports {games}"


# The tables/catalogue/statistics layer of core/: the modules that turn games into DataFrames and
# Parquet files, run batches of them, query them and compare them (each game's ``tables.py`` too).
# Only there may core/ import pandas; Streamlit and Plotly belong to dashboard/ alone.
TABLES_LAYER = {"tables.py", "simulate.py", "runstore.py", "catalog.py", "stats.py", "compare.py", "league.py"}


def test_core_imports_no_streamlit_plotly_or_pandas_outside_the_tables_layer():
    """Streamlit and Plotly nowhere in core/; pandas only in TABLES_LAYER and each game's tables.py
    (imported inside the functions that need it, so that playing a game never loads it)."""
    for path in sorted((ROOT / "core").rglob("*.py")):
        heavy = {m.split(".")[0] for m in imported_modules(path)} & {"streamlit", "plotly", "pandas"}
        in_layer = path.name in TABLES_LAYER and (path.parent.name == "core" or path.name == "tables.py")
        allowed = {"pandas"} if in_layer else set()
        assert heavy <= allowed, f"{path.relative_to(ROOT)} imports {sorted(heavy - allowed)}"


def test_playing_a_game_loads_none_of_the_tables_layer():
    code = ("import sys; from imperial_lab.core.cli import main\n"
            "for game in ('imperial2030', 'imperia', 'imperial_powers'):\n"
            "    main(['play', '--game', game, '--seed', '1', '--players', '3', '--json'])\n"
            "print(sorted(m for m in ('pandas', 'pyarrow', 'duckdb', 'streamlit', 'plotly', 'scipy') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[]"


@pytest.mark.parametrize("game", sorted(registry.GAMES))
def test_no_game_package_has_an_import_circle(game):
    """Counting imports inside functions too: a lazy import hides a circle, it does not remove it."""
    package = GAMES_DIR / game
    prefix = f"imperial_lab.core.games.{game}."
    own = {prefix + path.stem for path in package.glob("*.py")}
    graph = {prefix + path.stem: imported_modules(path) & own for path in package.glob("*.py")}
    graphlib.TopologicalSorter(graph).prepare()  # raises CycleError on a circle


def test_the_router_lists_the_games_pages_then_the_generic_ones():
    from imperial_lab.dashboard.pages import GENERIC, all_pages, page_path

    listed = all_pages()
    imperial = registry.plugin("imperial2030").part("pages").PAGES
    assert listed == [*imperial, *GENERIC] and listed[0].path.name == "explorer.py"  # the explorer is at /
    assert page_path("league.py").parent == ROOT / "dashboard" / "views"
    assert page_path("power.py").parent == ROOT / "dashboard" / "games" / "imperial2030" / "views"
    assert page_path("imperia_explorer").parent == ROOT / "dashboard" / "games" / "imperia" / "views"


def test_a_game_without_pages_adds_none(nim):
    from imperial_lab.dashboard.pages import all_pages

    assert [page.path.name for page in all_pages()][-1] == "league.py" and nim.pages is None


# ----- the registry -----

def test_one_entry_per_game_each_naming_its_game():
    assert len(registry.PLUGINS) == len(registry.GAMES) == len(set(registry.PLUGINS))
    for name, plugin in registry.GAMES.items():
        assert plugin.name == name and make_game({"game": name}).name == name
        assert plugin.default_setup in list(s["name"] for s in list_setups(game=name))
    assert registry.DEFAULT_GAME == "imperial2030"


@pytest.mark.parametrize("game", sorted(registry.GAMES))
def test_every_part_a_game_declares_loads_with_the_names_its_users_need(game):
    owner = registry.plugin(game)
    assert owner.problems() == []
    for part in PARTS:
        if getattr(owner, part) is not None:
            assert owner.part(part) is not None, part  # part() checks the names of PARTS[part]
    for bot in owner.bots:
        assert owner.bot_class(bot).name == bot
    with pytest.raises(KeyError, match="no plug-in part 'boards'"):
        owner.part("boards")


@pytest.mark.parametrize("game", sorted(registry.GAMES))
def test_every_game_declares_what_its_classes_offer(game):
    """The declarations are what the classes have: a capability not declared is not there either
    (or it would be unused), and the State class named is the one the game makes."""
    owner = registry.plugin(game)
    state = make_game({"game": game}).new_initial_state()
    assert type(state) is owner.state
    assert owner.offers(Capability.APPLY_LEGAL) == hasattr(state, "apply_legal")
    assert owner.offers(Capability.RECORDING) == hasattr(state, "recording")
    for hook in ("evaluate", "playout_policy", "resample"):
        assert owner.offers(Capability(hook)) == hasattr(state.game, hook), hook


def test_a_game_that_declares_what_it_lacks_is_refused():
    lying = GamePlugin("nim", "Nim", NimGame, state=Nim, lessons=True, tables="imperial_lab.core.games.nim.tables",
                       capabilities=frozenset({Capability.APPLY_LEGAL, Capability.RECORDING, Capability.EVALUATE,
                                               Capability.HIDDEN_INFORMATION}),
                       bots={"smart": "imperial_lab.core.games.nim.smart"})
    problems = lying.problems()
    assert problems == [
        "declares apply_legal but its State class Nim has no apply_legal",
        "declares recording but its State class Nim has no recording",
        "declares evaluate but its Game class NimGame has no evaluate()",
        "declares hidden_information without resample: search would see what is hidden",
        "its tables part imperial_lab.core.games.nim.tables cannot be found",
        "its bot 'smart' (imperial_lab.core.games.nim.smart) is not an existing module:Class",
        "declares lessons but data/nim/lessons/ holds none"]
    with pytest.raises(SetupError, match=r"^game nim cannot be registered: declares apply_legal but its State"):
        registry.checked(lying)
    assert GamePlugin("Nim!", "Nim", NimGame, players=(3, 2)).problems() == [
        "name 'Nim!' is not a lower-case identifier", "players (3, 2) is not a range of player counts"]


def test_the_registry_leaves_out_a_game_whose_declarations_do_not_hold(tmp_path, monkeypatch):
    package = tmp_path / "lying_game"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "plugin.py").write_text(
        "from imperial_lab.core.plugin import Capability, GamePlugin\n"
        "from tests.toy_games import NimGame\n"
        "PLUGIN = GamePlugin('lying_game', 'Lying', NimGame, capabilities=frozenset({Capability.RESAMPLE}))\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    games, broken = registry._load(["imperial_lab.core.games.imperia.plugin", "lying_game.plugin"])
    assert list(games) == ["imperia"]
    assert broken == {"lying_game": "its plug-in (lying_game.plugin) declares resample but its Game class NimGame "
                                    "has no resample()"}


def test_an_unknown_game_is_refused_with_the_known_ones(nim, capsys):
    for refuse in (lambda: make_game({"game": "chess"}), lambda: registry.plugin("chess"),
                   lambda: make_bot("random", 1, game="chess"), lambda: load_setup("standard", game="chess")):
        with pytest.raises(SetupError, match=r"unknown game 'chess' \(known: imperia, imperial2030, imperial_powers, nim\)"):
            refuse()
    assert main(["play", "--game", "chess"]) == 2
    assert "unknown game 'chess' (known: imperia, imperial2030, imperial_powers, nim)" in capsys.readouterr().err


def test_a_game_that_cannot_load_is_left_out_with_its_reason(tmp_path, monkeypatch):
    package = tmp_path / "broken_game"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "plugin.py").write_text("from imperial_lab.core.errors import DataError\n"
                                       "raise DataError('data/broken_game/data.json: line 1: not JSON')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    games, broken = registry._load(["imperial_lab.core.games.imperia.plugin", "broken_game.plugin"])
    assert list(games) == ["imperia"]
    assert broken == {"broken_game": "data/broken_game/data.json: line 1: not JSON"}
    monkeypatch.setattr(registry, "BROKEN", broken)
    with pytest.raises(SetupError, match="^game broken_game cannot be loaded: data/broken_game/data.json: line 1"):
        registry.plugin("broken_game")


def test_a_malformed_data_file_stops_only_its_game(tmp_path):
    """A copy of the lab whose Imperia data file is cut short: Imperial 2030 still plays, Imperia is
    refused in one line naming the file, and the dashboard's router still builds its navigation."""
    lab = tmp_path / "imperial_lab"  # the installed layout: imperial_lab.core, .dashboard, .data
    for folder in ("core", "data/imperia", "data/imperial2030", "dashboard"):
        shutil.copytree(ROOT / folder, lab / folder, ignore=shutil.ignore_patterns("__pycache__", "*.duckdb"))
    shutil.copy(ROOT / "data" / "__init__.py", lab / "data")
    data = lab / "data" / "imperia" / "data.json"
    data.write_text(data.read_text()[:500])
    script = ("import sys; from imperial_lab.core.cli import main; from imperial_lab.dashboard.pages import sections; "
              "print(sorted(sections())); sys.exit(main(sys.argv[1:]))")

    def imperial(*args):
        return subprocess.run([sys.executable, "-c", script, *args], cwd=tmp_path, capture_output=True, text=True,
                              env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"}, timeout=300)

    ok = imperial("play", "--players", "2", "--seed", "3", "--json")
    assert ok.returncode == 0, ok.stderr
    assert "'Imperial 2030'" in ok.stdout and "'Imperia'" not in ok.stdout
    assert json.loads(ok.stdout.splitlines()[-1])["winners"]
    refused = imperial("play", "--game", "imperia")
    assert refused.returncode == 2
    assert refused.stderr.count("\n") == 1 and "game imperia cannot be loaded" in refused.stderr
    assert str(data) in refused.stderr


def test_a_document_without_game_is_imperial2030(tmp_path):
    assert make_game({}).name == make_game({"players": 3}).name == "imperial2030"
    assert registry.game_of({}) == registry.game_of({"players": 4}) == "imperial2030"
    played = play_game({"players": 2}, [make_bot("random", p) for p in range(2)], 5)
    log = tmp_path / "g.jsonl"
    write_log(log, played, seed=5)
    header, *moves = log.read_text().splitlines()
    bare = {key: value for key, value in json.loads(header).items() if key != "game"}
    bare["config"] = {key: value for key, value in bare["config"].items() if key != "game"}
    log.write_text("\n".join([json.dumps(bare), *moves]) + "\n")
    assert replay_game(log).state.to_json() == played.state.to_json()
    setup = tmp_path / "mine.json"
    setup.write_text(json.dumps({"description": "no game key",
                                 "players": [{"cash": 2, "bonds": ["RU 4"]}, {"cash": 2, "bonds": ["CN 4"]}]}))
    assert load_setup(str(setup))["game"] == "imperial2030"


def test_a_documents_own_game_key_wins(nim, tmp_path):
    setup = tmp_path / "nim.json"
    setup.write_text(json.dumps({"game": "nim", "heap": 5}))
    assert load_setup(str(setup), game="imperial2030")["game"] == "nim"
    played = play_game({"game": "nim", "heap": 5}, [RandomBot(1), RandomBot(2)], 1)
    log = tmp_path / "nim.jsonl"
    write_log(log, played)
    assert json.loads(log.read_text().splitlines()[0])["game"] == "nim"  # the log says which game it is
    assert replay_game(log).state.to_json() == played.state.to_json()
    setup_file = tmp_path / "imperial.json"
    setup_file.write_text(json.dumps({"game": "nim", "description": "x", "players": []}))
    with pytest.raises(SetupError, match="a setup file of game 'nim', not of Imperial 2030"):
        registry.plugin("imperial2030").part("setups").read_setup_file(setup_file)


# ----- a toy game as a plug-in -----

def test_nim_plays_through_the_shared_driver_and_bots(nim):
    assert set(bot_classes("nim")) == {"random", "mcts"}  # no heuristic: that bot is Imperial 2030's
    with pytest.raises(SetupError, match="unknown bot 'heuristic'"):
        make_bot("heuristic", 1, game="nim")
    bots = [make_bot("random", 1, "nim"), make_bot("mcts:playouts=20", 2, "nim")]
    played = play_game({"game": "nim", "heap": 11}, bots, 3)
    assert played.state.is_terminal() and len(played.state.winners()) == 1
    assert played.config == {"game": "nim", "heap": 11}
    assert list_setups(game="nim") == [{"name": "default", "players": None, "description": "the Nim default"}]


def test_imperial_play_takes_the_game(nim, capsys, tmp_path):
    log = tmp_path / "nim.jsonl"
    assert main(["play", "--game", "nim", "--seed", "4", "--log", str(log), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["config"] == {"game": "nim", "heap": 9} and summary["finished"]
    assert len(summary["winners"]) == 1 and sorted(summary["scores"]) == [0, 1]
    assert main(["replay", str(log), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["winners"] == summary["winners"]
    assert main(["play", "--game", "nim", "--seed", "4"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("Nim: 2 players, default setup, seed 4, bots random,random") and "Decisions:" in text
    assert main(["setups", "--game", "nim"]) == 0 and "default" in capsys.readouterr().out
    for argv in (["setups", "--game", "nim", "show", "default"], ["setups", "show", "default", "--game", "nim"]):
        assert main(argv) == 0 and json.loads(capsys.readouterr().out)["description"] == "the Nim default"


def test_imperial_play_defaults_to_imperial2030(capsys):
    assert main(["play", "--seed", "7", "--players", "2", "--json"]) == 0
    default = json.loads(capsys.readouterr().out)
    assert main(["play", "--game", "imperial2030", "--seed", "7", "--players", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == default
    assert default["config"]["setup"] == "standard" and {"winners", "scores", "power_points"} <= set(default)


def test_a_game_without_tables_is_refused_by_simulate_before_anything_is_written(nim, tmp_path, capsys):
    out = tmp_path / "runs" / "nim"
    assert main(["simulate", "--game", "nim", "--games", "2", "--workers", "1", "--out", str(out),
                 "--catalog", str(tmp_path / "lab.duckdb")]) == 2
    with_tables = ", ".join(sorted(name for name, owner in registry.GAMES.items() if owner.tables))
    assert f"Nim records no tables yet (games with tables: {with_tables})" in capsys.readouterr().err
    assert "imperial2030" in with_tables and "nim" not in with_tables
