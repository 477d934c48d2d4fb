"""Imperial Powers' dashboard pages (the plug-in's ``pages`` part; dashboard/app.py puts them in a
section of their own). Their scripts have the names of every game's pages; their URLs are named apart
from Imperial 2030's: ``/ip_explorer``, ``/ip_play``, ``/ip_lessons``, ``/ip_rules``, ``/ip_runs``."""

from pathlib import Path

from imperial_lab.dashboard.pages import Dataset, Page

VIEWS = Path(__file__).parent / "views"
PAGES = (
    # reads_runs=False: an upload or a sample needs no dataset; the catalogue is read only for its ip_games.
    Page(VIEWS / "explorer.py", "Imperial Powers explorer", ":material/public:", reads_runs=False, url="ip_explorer"),
    Page(VIEWS / "play.py", "Imperial Powers against bots", ":material/swords:", reads_runs=False, url="ip_play"),
    Page(VIEWS / "lessons.py", "Imperial Powers lessons", ":material/school:", reads_runs=False, url="ip_lessons"),
    Page(VIEWS / "rules.py", "Imperial Powers rules", ":material/gavel:", reads_runs=False, url="ip_rules"),
    Page(VIEWS / "runs.py", "Imperial Powers runs", ":material/query_stats:", url="ip_runs"),
)
DATASET = Dataset(setups=("default",), games=40, players=4)  # the first start's runs
