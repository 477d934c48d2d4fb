"""The dashboard's entry point: the page router and the frame every page shares (STYLE (e)1). The
navigation has a section per registered game with pages, then the generic ones (dashboard/pages.py).

    imperial dashboard            (or: streamlit run dashboard/app.py)
"""

from __future__ import annotations

import streamlit as st

from imperial_lab.core.registry import BROKEN
from imperial_lab.dashboard import frame
from imperial_lab.dashboard.pages import Page, all_pages, game_of, sections


# Less room above each page's title (Streamlit leaves 6rem), so the explorer's controls, the step's line
# and its board fit a laptop's screen together. No Plotly toolbar: it appears over a chart's title and
# its top labels on hover, and the charts need none of its tools (a double click resets a zoom).
STYLE = ("[data-testid='stMainBlockContainer']{padding-top:2.5rem}"
         "[data-testid='stPlotlyChart'] .modebar-container{display:none}")


def run(first: str | None = None) -> None:
    """Build the navigation and run the chosen page (a function, so that a test can drive it). The page
    at URL ``first`` (default: the default game's first page) opens at the app's root: a test opens
    any page in its first run (AppTest finds a page with a URL of its own only after a run)."""
    # An emoji, drawn by the browser: a ":material/...:" favicon is fetched from Google's font host
    # (the icons inside the page come from the font Streamlit ships).
    st.set_page_config(page_title="Imperial lab", page_icon="🌐", layout="wide")
    st.html(f"<style>{STYLE}</style>")
    catalog = frame.catalog_path()
    navigation = {title: [(page, st_page(page, first)) for page in pages] for title, pages in sections().items()}
    listed = [pair for pairs in navigation.values() for pair in pairs]
    # Before the dataset of a first start: the pages are listed at once.
    # expanded: every page listed (Streamlit folds a long list behind "View more", hiding the sections below)
    chosen = st.navigation({title: [shown for _, shown in pairs] for title, pairs in navigation.items()},
                           expanded=True)
    page = next(page for page, shown in listed if shown == chosen)
    if page.reads_runs:
        frame.ensure_dataset(catalog)
    frame.run_picker(catalog, game_of(page))
    for game, why in BROKEN.items():  # the other games' pages work: say why this one is missing
        st.sidebar.error(f"{game} cannot be loaded, so its pages are missing: {why}", icon=":material/error:")
    chosen.run()


def st_page(page: Page, first: str | None = None) -> st.Page:
    """``page`` as st.navigation serves it (a link to it finds the same page): the page at URL
    ``first`` (default: the first of the navigation) is the default, at the app's root URL."""
    default = page.url_path == (first or all_pages()[0].url_path)
    return st.Page(page.path, title=page.title, icon=page.icon, default=default, url_path=page.url_path)


if __name__ == "__main__":
    run()
