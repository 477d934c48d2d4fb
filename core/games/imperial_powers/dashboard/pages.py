"""Imperial Powers' dashboard pages (the plug-in's ``pages`` part; dashboard/app.py puts them in a
section of their own). A page's URL is its script's name, so the scripts are prefixed: ``/ip_explorer``,
``/ip_play``, ``/ip_rules``, ``/ip_runs``."""

from pathlib import Path

from dashboard.pages import Page

VIEWS = Path(__file__).parent / "views"
PAGES = (
    # reads_runs=False: an upload or a sample needs no dataset; the catalogue is read only for its ip_games.
    Page(VIEWS / "ip_explorer.py", "Imperial Powers explorer", ":material/public:", reads_runs=False),
    Page(VIEWS / "ip_play.py", "Imperial Powers against bots", ":material/swords:", reads_runs=False),
    Page(VIEWS / "ip_rules.py", "Imperial Powers rules", ":material/gavel:", reads_runs=False),
    # reads_runs=False: it reads Imperial Powers runs only, never the first start's Imperial 2030 dataset.
    Page(VIEWS / "ip_runs.py", "Imperial Powers runs", ":material/query_stats:", reads_runs=False),
)
