"""Rules engines for the Imperial lab, behind one game-agnostic interface (``imperial_lab.core.interface``)."""
