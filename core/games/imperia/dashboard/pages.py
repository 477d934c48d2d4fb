"""Imperia's dashboard pages (the plug-in's ``pages`` part; dashboard/app.py puts them in a section of
their own). Their scripts' names differ from Imperial 2030's, since a page's URL is its script's name:
``/imperia_explorer``, ``/imperia_play``, ``/imperia_rules``, ``/imperia_runs``."""

from pathlib import Path

from dashboard.pages import Page

VIEWS = Path(__file__).parent / "views"
PAGES = (
    # reads_runs=False: an upload needs no dataset; the catalogue is read only when it has Imperia games.
    Page(VIEWS / "imperia_explorer.py", "Imperia explorer", ":material/grid_view:", reads_runs=False),
    Page(VIEWS / "imperia_play.py", "Imperia against bots", ":material/swords:", reads_runs=False),
    Page(VIEWS / "imperia_rules.py", "Imperia rules", ":material/gavel:", reads_runs=False),
    # reads_runs=False: without an Imperia run the page says how to play one (no first-start dataset).
    Page(VIEWS / "imperia_runs.py", "Imperia runs", ":material/query_stats:", reads_runs=False),
)
