"""The phases of a game of Imperia (what is pending: who decides what, or which chance node);
shared by the state, its document, its invariants and its tables."""

P_START, P_RANDOM_BOARD, P_BOARD, P_FORTRESS, P_RECRUIT, P_TURN, P_ORDER, P_DRAW, P_OVER = range(9)
PHASES = ("start", "random_board", "board", "fortress", "recruit", "turn", "order", "draw", "over")
CHANCE_PHASES = (P_START, P_RANDOM_BOARD, P_RECRUIT, P_DRAW)
