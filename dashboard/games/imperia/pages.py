"""Imperia's dashboard pages (the plug-in's ``pages`` part; dashboard/app.py puts them in a section of
their own). Their scripts have the names of every game's pages; their URLs are named apart from
Imperial 2030's: ``/imperia_explorer``, ``/imperia_play``, ``/imperia_lessons``, ``/imperia_rules``, ``/imperia_runs``."""

from pathlib import Path

from imperial_lab.dashboard.pages import Dataset, Page

VIEWS = Path(__file__).parent / "views"
PAGES = (
    # reads_runs=False: an upload needs no dataset; the catalogue is read only when it has Imperia games.
    Page(VIEWS / "explorer.py", "Imperia explorer", ":material/grid_view:", reads_runs=False, url="imperia_explorer"),
    Page(VIEWS / "play.py", "Imperia against bots", ":material/swords:", reads_runs=False, url="imperia_play"),
    Page(VIEWS / "lessons.py", "Imperia lessons", ":material/school:", reads_runs=False, url="imperia_lessons"),
    Page(VIEWS / "rules.py", "Imperia rules", ":material/gavel:", reads_runs=False, url="imperia_rules"),
    Page(VIEWS / "runs.py", "Imperia runs", ":material/query_stats:", url="imperia_runs"),
)
# The first start's runs: three players (a heuristic game of four takes twice as long).
DATASET = Dataset(setups=("default",), games=40, players=3)
