"""Kinds of pending decision and who makes them; shared by every rule module."""

CHANCE = -1
TERMINAL = -4

# Pending decisions: (kind, deciding player). The rule each belongs to names errors.
(P_DEAL, P_VARIANT, P_TURN, P_VETO, P_FACTORY, P_PRODUCE, P_IMPORT, P_MANEUVER, P_CANAL, P_FIGHT,
 P_DEMAND, P_FLAG, P_INVEST) = range(13)
PENDING_NAMES = ("deal", "variant_pick", "turn_start", "veto", "factory", "production", "import",
                 "maneuver", "canal", "fight", "demand", "flag", "invest")
PENDING_RULES = ("§4.2", "§4.3", "§6", "§8", "§7.1", "§7.2", "§7.3", "§7.4", "§7.4.3", "§7.4.4",
                 "§7.4.4", "§7.4.8", "§7.5")
