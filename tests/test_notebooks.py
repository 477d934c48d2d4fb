"""The notebooks run from top to bottom against the small lab, through the same library
functions as the dashboard."""

from __future__ import annotations

from pathlib import Path

import nbformat
from nbclient import NotebookClient

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


def run_notebook(name: str, lab, monkeypatch) -> tuple[list, str, str, list]:
    """(plotly figures, printed text, text/plain results, boards drawn) of the executed notebook."""
    monkeypatch.setenv("IMPERIAL_LAB_CATALOG", str(lab.catalog))  # the kernel inherits it
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    NotebookClient(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOKS)}}
                   ).execute()  # raises CellExecutionError on the first failing cell
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.outputs]
    figures = [o for o in outputs if "application/vnd.plotly.v1+json" in o.get("data", {})]
    text = "".join(o.get("text", "") for o in outputs)
    plain = "".join(o.get("data", {}).get("text/plain", "") for o in outputs)
    boards = [o for o in outputs if "imperial-board" in o.get("data", {}).get("text/html", "")]
    return figures, text, plain, boards


def test_explore_a_game_notebook_runs(lab, monkeypatch):
    figures, text, _, boards = run_notebook("01_explore_a_game.ipynb", lab, monkeypatch)
    assert len(figures) == 2 and len(boards) == 2  # rondel, bonds; the board of a turn and the final one
    assert "(§5)" in text and "The game ends" in text and "(§10)" in text


def test_compare_notebook_runs(lab, monkeypatch):
    figures, text, plain, _ = run_notebook("02_compare_bond_distributions.ipynb", lab, monkeypatch)
    assert len(figures) == 6  # win rates by seat and by starting government, four distributions
    assert "tests at alpha = 0.05, Bonferroni-adjusted within" in text
    assert all(run in plain for run in lab.runs)


def test_imperia_notebook_runs(lab, monkeypatch, tmp_path):
    """The lab has no Imperia run: the notebook plays its own (random and heuristic bots) in a temporary folder."""
    monkeypatch.setenv("TMPDIR", str(tmp_path))  # the kernel's temporary folder: the test's own
    figures, text, _, _ = run_notebook("03_imperia.ipynb", lab, monkeypatch)
    assert len(figures) == 3  # the score over the game, the final board, win rates by seat
    assert "no Imperia run in the catalogue" in text and "the final board (ply" in text
    assert text.count("95% Wilson") == 6 and text.count("chi-square 2 df") == 2  # 3 seats × 2 line-ups


def test_imperial_powers_notebook_runs(lab, monkeypatch, tmp_path):
    """The lab has no Imperial Powers run: the notebook plays its own (random and heuristic bots, five
    players, powers assigned at random) in a temporary folder."""
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    figures, text, _, _ = run_notebook("04_imperial_powers.ipynb", lab, monkeypatch)
    assert len(figures) == 3  # win rates by power; VP sources of each line-up
    assert "no 5-player Imperial Powers run in the catalogue" in text
    assert text.count("95% Wilson") == 10 and text.count("chi-square of equal shares") == 2  # 5 powers × 2 line-ups
    assert "wins more often than 20%:" in text and "heuristic" in text
