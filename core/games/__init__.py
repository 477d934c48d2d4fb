"""One package per game of the lab."""
