"""The notebooks run from top to bottom as on a fresh clone: each finds no run of its game in the
catalogue, plays small runs of its own into a temporary catalogue (IMPERIAL_LAB_NOTEBOOK_GAMES games
each), says so first, and reads them through the same library functions as the dashboard."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from imperial_lab.core.simulate import simulate

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
GAMES = 6  # per run a notebook plays: enough for every chart and test to have its games
CELL_SECONDS = 900  # the bound of one cell: generous for a loaded machine; a hung cell still fails


@pytest.fixture(scope="module")
def imperia_only(tmp_path_factory) -> Path:
    """A catalogue whose only run is of Imperia: no notebook but Imperia's may take it."""
    root = tmp_path_factory.mktemp("imperia_only")
    simulate(root / "runs" / "someone-elses", 2, 2, "default", ["random"] * 2, seed=1, workers=1,
             catalog=root / "lab.duckdb", progress=False, game="imperia")
    return root / "lab.duckdb"


def run_notebook(name: str, catalog: Path, monkeypatch, tmp_path) -> tuple[list, list[str], str, list]:
    """(plotly figures, the text of each output, text/plain results, HTML outputs) of the executed notebook."""
    monkeypatch.setenv("IMPERIAL_LAB_CATALOG", str(catalog))  # the kernel inherits these
    monkeypatch.setenv("IMPERIAL_LAB_NOTEBOOK_GAMES", str(GAMES))
    monkeypatch.setenv("TMPDIR", str(tmp_path))  # the kernel's temporary folders: the test's own
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    NotebookClient(nb, timeout=CELL_SECONDS, startup_timeout=CELL_SECONDS, kernel_name="python3",
                   resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()  # raises on the first failing cell
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.outputs]
    figures = [o for o in outputs if "application/vnd.plotly.v1+json" in o.get("data", {})]
    texts = [o.get("text", "") for o in outputs if o.get("text")]
    plain = "".join(o.get("data", {}).get("text/plain", "") for o in outputs)
    drawn = [o["data"]["text/html"] for o in outputs if "text/html" in o.get("data", {})]
    return figures, texts, plain, drawn


def played_here(first: str, title: str, runs: list[str], tmp_path: Path) -> None:
    """The first output says the notebook played its own runs, and where: in the test's temporary folder."""
    assert first.startswith(f"{title}: no run of it in the catalogue "), first
    assert all(f"{run} ({GAMES} games)" in first for run in runs), first
    assert f" into {tmp_path}/" in first and first.rstrip().endswith("/lab.duckdb"), first


def test_explore_a_game_notebook_runs(imperia_only, monkeypatch, tmp_path):
    """Its catalogue has an Imperia run only: the notebook plays an Imperial 2030 run rather than take it."""
    figures, texts, plain, drawn = run_notebook("01_explore_a_game.ipynb", imperia_only, monkeypatch, tmp_path)
    played_here(texts[0], "Imperial 2030", [f"explore-random-{GAMES}"], tmp_path)
    assert "someone-elses" not in plain
    assert not figures  # the rondel and the bonds are drawn as the explorer draws them: SVG and HTML
    assert sum("imperial-board" in html for html in drawn) == 2  # the board of a turn and the final one
    assert sum("imperial-rondel" in html for html in drawn) == 1 and sum("bonds-table" in html for html in drawn) == 1
    text = "".join(texts)
    assert "(§5)" in text and "The game ends" in text and "(§10)" in text


def test_compare_notebook_runs(monkeypatch, tmp_path):
    figures, texts, plain, _ = run_notebook("02_compare_bond_distributions.ipynb", tmp_path / "none.duckdb",
                                            monkeypatch, tmp_path)
    runs = [f"{setup}-{bot}-{GAMES}" for bot in ("heuristic", "random") for setup in ("standard", "three_nations_each")]
    played_here(texts[0], "Imperial 2030", runs, tmp_path)
    assert len(figures) == 6  # win rates by seat and by starting government, four distributions
    assert "tests at alpha = 0.05, Bonferroni-adjusted within" in "".join(texts)
    assert all(run in plain for run in runs) and not (tmp_path / "none.duckdb").exists()


def test_imperia_notebook_runs(monkeypatch, tmp_path):
    figures, texts, _, _ = run_notebook("03_imperia.ipynb", tmp_path / "none.duckdb", monkeypatch, tmp_path)
    played_here(texts[0], "Imperia", [f"imperia-random-{GAMES}", f"imperia-heuristic-{GAMES}"], tmp_path)
    assert len(figures) == 3  # the score over the game, the final board, win rates by seat
    text = "".join(texts)
    assert "the final board (ply" in text
    assert text.count("95% Wilson") == 6 and text.count("chi-square 2 df") == 2  # 3 seats × 2 line-ups


def test_imperial_powers_notebook_runs(imperia_only, monkeypatch, tmp_path):
    """Five players, powers assigned at random, random and heuristic bots."""
    figures, texts, _, _ = run_notebook("04_imperial_powers.ipynb", imperia_only, monkeypatch, tmp_path)
    played_here(texts[0], "Imperial Powers", [f"ip-random-{GAMES}", f"ip-heuristic-{GAMES}"], tmp_path)
    assert len(figures) == 3  # win rates by power; VP sources of each line-up
    text = "".join(texts)
    assert text.count("95% Wilson") == 10 and text.count("chi-square of equal shares") == 2  # 5 powers × 2 line-ups
    assert "wins more often than 20%:" in text and "heuristic" in text
