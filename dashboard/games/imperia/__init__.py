"""Imperia's dashboard pages (``pages.py``; ``views/``: explorer, play, rules) and what they draw with:
``boardview`` (the board, SVG), ``replay`` (a move log as one snapshot per action), ``explain`` (events
in plain words with their RULES.md section), ``rules_text`` (the rules reference in our words)."""
