"""One package per game; each registers itself in ``core.registry`` with a ``plugin`` module."""
