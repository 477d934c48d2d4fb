"""notebooks/01_explore_a_game.ipynb runs from top to bottom against the small lab."""

from __future__ import annotations

from pathlib import Path

import nbformat
from nbclient import NotebookClient

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "01_explore_a_game.ipynb"


def test_explore_a_game_notebook_runs(lab, monkeypatch):
    monkeypatch.setenv("IMPERIAL_LAB_CATALOG", str(lab.catalog))  # the kernel inherits it
    nb = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOK.parent)}}
                   ).execute()  # raises CellExecutionError on the first failing cell
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.outputs]
    figures = [o for o in outputs if "application/vnd.plotly.v1+json" in o.get("data", {})]
    text = "".join(o.get("text", "") for o in outputs)
    assert len(figures) == 4  # map of a turn, rondel, bonds, final map
    assert "(§5)" in text and "The game ends" in text and "(§10)" in text
