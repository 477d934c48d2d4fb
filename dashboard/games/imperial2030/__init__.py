"""Imperial 2030's dashboard: its pages (``pages.PAGES``, which dashboard/app.py routes to) and the
modules they draw with (the board, the rondel, nation cards, a step's changes, the timeline of a game,
the explorer's and Power page's questions and charts). The frame, the cache, the generic colours and
charts and the League page are the shared dashboard's (dashboard/)."""
