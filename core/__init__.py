"""Rules engines for the Imperial lab, behind one game-agnostic interface (``core.interface``)."""
