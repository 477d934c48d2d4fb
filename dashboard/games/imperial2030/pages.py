"""Imperial 2030's dashboard pages (the plug-in's ``pages`` part; dashboard/app.py routes to them), and
the runs of a fresh start (dashboard/simulations.py)."""

from pathlib import Path

from imperial_lab.dashboard.pages import Dataset, Page

VIEWS = Path(__file__).parent / "views"
PAGES = (
    Page(VIEWS / "explorer.py", "Game explorer", ":material/travel_explore:"),
    Page(VIEWS / "power.py", "Power & control", ":material/flag:"),
    Page(VIEWS / "compare.py", "Compare bond distributions", ":material/compare_arrows:"),
    Page(VIEWS / "setup_editor.py", "Setup editor", ":material/edit_note:"),
    Page(VIEWS / "play.py", "Play", ":material/sports_esports:", reads_runs=False),
    Page(VIEWS / "lessons.py", "Lessons", ":material/school:", reads_runs=False),
    Page(VIEWS / "rules.py", "Rules", ":material/menu_book:", reads_runs=False),
)
# The first start's runs: each of these setups under the default line-ups, the grid the Compare page
# compares first. 100 games a cell keep a first start under a minute on two cores.
DATASET = Dataset(setups=("standard", "three_nations_each"), games=100)
