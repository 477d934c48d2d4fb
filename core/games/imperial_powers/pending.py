"""The phases of a game of Imperial Powers (what is pending: who decides what, or which chance
node) and the two decks a draw deals from; shared by the state, its document, its invariants, its
tables and the bots."""

P_ROLL, P_POWER, P_DRAW, P_BID, P_DEVELOP, P_TACTICS, P_EVENT_DRAW, P_EVENT_ASSIGN, P_EVENT_DIE, P_OVER = range(10)
PHASES = ("setup_roll", "choose_power", "draw", "bid", "develop", "tactics", "event_draw", "event_assign",
          "event_die", "over")
CHANCE_PHASES = (P_ROLL, P_DRAW, P_EVENT_DRAW, P_EVENT_DIE)  # and P_POWER under random assignment
INFLUENCE, DEVELOPMENT = 0, 1  # the deck of a draw
DECKS = ("influence", "development")
