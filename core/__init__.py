"""Rules engines for the Imperial lab, behind one game-agnostic interface (``imperial_lab.core.interface``)."""

DISTRIBUTION = "imperial-lab"  # the name the lab is installed under (pip install imperial-lab)


def lab_version() -> str:
    """The installed version of the lab: ``imperial --version`` prints it, every run.json records it, and
    the workers of a cluster must have the same."""
    from importlib.metadata import version  # only when asked: it reads the installed distributions

    return version(DISTRIBUTION)
