"""The Play page's plain functions (no Streamlit): the legal actions in plain words and in groups,
and the bots a seat can be given. Keeping games in progress for a reload is
the shared imperial_lab.dashboard.playkit's.
"""

from __future__ import annotations

from dataclasses import dataclass

from imperial_lab.core.games.imperial2030.action_words import SPACE_DOES, choice_words
from imperial_lab.core.session import PlaySession
from imperial_lab.dashboard.playkit import PERSON

BOTS = ("random", "heuristic", "mcts", "rollout")  # the bots a seat can be given (rollout: the strongest, ~1 s)
STRENGTHS = (50, 200, 800)  # playouts per decision of the search bot (mcts), its strength

# The first word of an action's text form -> the heading of its group (in the order the engine lists them).
GROUPS = {
    "rondel": "Rondel: where the nation goes (§6)",
    "topup": "Top up the treasury from your cash first (§5)",
    "buy": "Buy a bond (§7.5)", "upgrade": "Upgrade a bond (§7.5)", "pass": "Buy nothing",
    "veto": "Swiss-bank veto (§8)", "no": "Swiss-bank veto (§8)",
    "build": "Factory site (§7.1)", "produce": "Which factories produce (§7.2)",
    "import": "Import (§7.3)", "move": "Move a unit (§7.4)", "battle": "Battle (§7.4.4)",
    "destroy": "Destroy a factory (§7.4.7)", "end": "End the maneuver (§7.4.8)",
    "allow": "Canal (§7.4.3)", "deny": "Canal (§7.4.3)",
    "fight": "Battle (§7.4.4)", "demand": "Battle (§7.4.4)", "decline": "No battle",
    "flag": "Place a flag (§7.4.8)",
}
# Groups that share a heading are shown as one.
_SAME = {"no": "veto", "deny": "allow", "demand": "fight"}


def detail(text: str, note: str | None) -> str:
    """What an action costs and does, beside its plain words: the game's note (a rondel move's
    distance and cost, a bond's price and the government it would take over) and, for a rondel
    space, what the space makes the nation do."""
    words = text.split()
    parts = [note] if note else []
    if words and words[0] == "rondel" and len(words) == 2 and words[1] in SPACE_DOES:
        parts.append(SPACE_DOES[words[1]])
    return " · ".join(parts)


@dataclass(frozen=True)
class Choice:
    """One legal action as the page shows it: its number (1-based, the engine's order), the
    action, its text form, its plain words and what it costs and does."""

    number: int
    action: object
    text: str
    words: str
    detail: str


def choices(session: PlaySession) -> list[Choice]:
    legal = session.legal()
    notes = session.action_notes()
    texts = [session.state.action_to_string(a) for a in legal]
    return [Choice(k, a, t, choice_words(t), detail(t, n)) for k, (a, t, n) in enumerate(zip(legal, texts, notes), 1)]


def grouped(options: list[Choice]) -> list[tuple[str, list[Choice]]]:
    """The choices by kind (the first word of the text form), in the order the engine lists the kinds."""
    groups: dict[str, list[Choice]] = {}
    for c in options:
        head = c.text.split()[0] if c.text.split() else c.text
        groups.setdefault(_SAME.get(head, head), []).append(c)
    return [(GROUPS.get(head, head.capitalize()), items) for head, items in groups.items()]


# ----- seats -----

def seat_spec(choice: str, strength: int) -> str | None:
    """The bot spec of a seat's choice (None for a person); ``strength`` is the search bot's playouts."""
    if choice == PERSON:
        return None
    if choice == "mcts":
        return f"mcts:playouts={strength}"
    return choice

