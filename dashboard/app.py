"""The dashboard's entry point: the page router and the frame every page shares (STYLE (e)1).

    imperial dashboard            (or: streamlit run dashboard/app.py)
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from dashboard import frame

# Not "pages/": Streamlit would take that folder for an old-style multipage app and serve its
# files without this frame when a page link is the first request after the server starts.
PAGES_DIR = Path(__file__).parent / "views"
PAGES = (  # file in views/, title, icon
    ("explorer.py", "Game explorer", ":material/travel_explore:"),
    ("power.py", "Power & control", ":material/flag:"),
    ("compare.py", "Compare bond distributions", ":material/compare_arrows:"),
    ("league.py", "League", ":material/leaderboard:"),
    ("setup_editor.py", "Setup editor", ":material/edit_note:"),
    ("play.py", "Play", ":material/sports_esports:"),
    ("lessons.py", "Lessons", ":material/school:"),
    ("rules.py", "Rules", ":material/menu_book:"),
)
# Pages that read no runs: they open at once, even while a first start plays its dataset.
NO_DATASET = ("play.py", "lessons.py", "rules.py")


def run() -> None:
    """Build the navigation and run the chosen page (a function, so that a test can drive it)."""
    # An emoji, drawn by the browser: a ":material/...:" favicon is fetched from Google's font host
    # (the icons inside the page come from the font Streamlit ships).
    st.set_page_config(page_title="Imperial 2030 lab", page_icon="🌐", layout="wide")
    # Less room above each page's title (Streamlit leaves 6rem), so the explorer's controls, the step's
    # line and its board fit a laptop's screen together.
    st.html("<style>[data-testid='stMainBlockContainer']{padding-top:2.5rem}</style>")
    catalog = frame.catalog_path()
    pages = [st.Page(PAGES_DIR / file, title=title, icon=icon) for file, title, icon in PAGES]
    page = st.navigation(pages)  # before the dataset of a first start: the pages are listed at once
    if page not in [p for p, (file, _, _) in zip(pages, PAGES) if file in NO_DATASET]:
        frame.ensure_dataset(catalog)
    frame.run_picker(catalog)
    page.run()


if __name__ == "__main__":
    run()
