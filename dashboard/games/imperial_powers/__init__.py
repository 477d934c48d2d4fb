"""Imperial Powers' dashboard pages (``pages.py``; ``views/``: explorer, play, rules) and what they draw
with: ``words`` (the names of regions, powers, cards and events, from data.json), ``explain`` (events
and actions in plain words through one viewer's eyes, with their RULES.md sections), ``steps`` (a move
as the pages tell it, with links to the rules), ``replay`` (a move log as one snapshot per action,
with the starts of its turns and phases), ``mapview`` (the world map, SVG, and the players' panel,
both drawn from one view: a seat's observation or everything) and ``rules_text`` (the rules reference
in our words). Nothing here imports Streamlit but the views'
``show_*`` helpers (imported inside them), so the text module (core/games/imperial_powers/texts.py)
and tests use the same functions."""
