"""One package per game; each registers itself in ``imperial_lab.core.registry`` with a ``plugin`` module."""
