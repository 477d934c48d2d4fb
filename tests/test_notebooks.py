"""notebooks/02_compare_bond_distributions.ipynb runs from top to bottom against the small lab."""

from __future__ import annotations

from pathlib import Path

import nbformat
from nbclient import NotebookClient

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "02_compare_bond_distributions.ipynb"


def test_compare_notebook_runs(lab, monkeypatch):
    monkeypatch.setenv("IMPERIAL_LAB_CATALOG", str(lab.catalog))  # the kernel inherits it
    nb = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOK.parent)}}
                   ).execute()  # raises CellExecutionError on the first failing cell
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.outputs]
    figures = [o for o in outputs if "application/vnd.plotly.v1+json" in o.get("data", {})]
    text = "".join(o.get("text", "") for o in outputs)
    assert len(figures) == 6  # win rates by seat and by starting government, four distributions
    assert "tests at alpha = 0.05, Holm-adjusted" in text
    tables = "".join(o.get("data", {}).get("text/plain", "") for o in outputs)
    assert all(run in tables for run in lab.runs)
