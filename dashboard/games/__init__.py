"""Each game's dashboard pages and what they draw with, one package per game (its plug-in names
its ``pages`` module)."""
