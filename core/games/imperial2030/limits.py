"""The bounds on every number a file may give the engine (docs/errors-and-limits.md).

The rules set no limit on the bank, but no real game comes near these figures, and they bound the
work an action can cause: a government may top up its treasury by 1..cash, one action per unit of
money, so an unbounded cash figure would make ``legal_actions`` unbounded too.
"""

MAX_MONEY = 10_000  # any one cash, treasury or starting-cash figure, in millions
MAX_UNIT_LIMIT = 100  # a configured unit limit per nation and kind (printed: 6 to 10)
MAX_NATION_TURNS = 100_000  # a random game takes 146 to 444 nation turns
