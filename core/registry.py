"""One table of names for every game the lab can play."""

from core.games.imperia.game import Imperia
from core.imperial2030.game import Imperial2030

GAMES = {"imperial2030": Imperial2030, "imperia": Imperia}
