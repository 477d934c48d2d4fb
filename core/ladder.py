"""The strength ladder: the line-ups along which the lab asks whether a setup is fair (docs/compare.md).

A **rung** is one bot in every seat. The rungs go from the weakest players to the strongest: random
bots; the game's heuristic at the temperatures 1, 0.3, 0.1 and 0 (the noise on its judgement: the
less noise, the stronger it plays; at 0 it plays its best move); and, on top, a stronger bot (``TOP``).
A seat's edge measured with one rung is a fact about those players; the ladder shows whether it
grows, shrinks or flips as the players get stronger.

The ladder also fixes the size of the families of tests (imperial_lab.core.compare): a setup's seat tests
are one family over every rung of its game's ladder, whether or not all of them were played, so
loading fewer runs never makes a test easier to pass.
"""

from __future__ import annotations

from imperial_lab.core.bots import canonical_spec, parse_bot_spec
from imperial_lab.core.registry import DEFAULT_GAME

HEURISTIC_TEMPERATURES = (1, 0.3, 0.1, 0)
# The top rung of each game: its strongest bot measured, unless that one takes minutes a game; then a
# strong one whose cells of hundreds of games fit in about an hour on two cores. One line a game.
TOP = {
    # 42.8% (38.0-47.6) as one seat against three heuristics, about 3 s a game of four. mcts:playouts=128
    # wins 73% so but takes 0.9 s a decision: minutes a game, days for a rung's cells.
    "imperial2030": "greedy",
    # 49.0% (42.2-55.9) as one seat against three heuristics (mcts:playouts=32:depth=20: 40.8%); two of it
    # against two of that search win 53.3% (43.1-63.3, 90 games) at a fifth of its cost a decision.
    "imperial_powers": "greedy",
    "imperia": None,  # mcts:playouts=64 won 7 of 60 against the heuristic: the heuristic at 0 is the strongest
}


def rungs(game: str | None = None) -> list[str]:
    """The canonical specs of ``game``'s rungs, weakest first."""
    game = game or DEFAULT_GAME
    specs: list[str] = ["random", *(f"heuristic:temperature={t}" for t in HEURISTIC_TEMPERATURES)]
    top = TOP.get(game)
    if top:
        specs.append(top)
    return list(dict.fromkeys(canonical_spec(spec, "ladder", game) for spec in specs))


def rung_lineups(game: str | None, players: int) -> list[str]:
    """The line-ups of the rungs as ``imperial_lab.core.bots.lineup_text`` names them (``heuristic ×4``)."""
    return [f"{spec} ×{players}" for spec in rungs(game)]


def rung_of(lineup: str, game: str | None, players: int) -> int | None:
    """The position of a line-up on ``game``'s ladder (0 the weakest), None when it is not a rung."""
    lineups = rung_lineups(game, players)
    return lineups.index(lineup) if lineup in lineups else None


def searches(spec: str) -> bool:
    """Whether a rung's bot looks ahead (search, or the win-chance bot's one ply): its games take seconds to
    minutes, so its cells play fewer of them."""
    return parse_bot_spec(spec)[0] not in ("random", "heuristic")


def rung_words(spec: str, game: str | None = None) -> str:
    """A rung in a few words: "random", "heuristic t=0.3" (its temperature), or the search bot's spec."""
    name, params = parse_bot_spec(spec, "ladder", game)
    if name != "heuristic":
        return spec
    from imperial_lab.core.bots import bot_classes

    temperature = params.get("temperature", bot_classes(game)[name].PARAMS["temperature"][3])
    return f"heuristic t={temperature:g}"

