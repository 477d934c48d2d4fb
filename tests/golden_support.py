"""Golden files (STYLE.md (c)1-2): the fixed positions and games of every game, and how they are written.

Shared by ``tests/test_golden.py`` (checks) and ``scripts/regen_golden.py`` (writes), one folder per
game (``GOLDEN_GAMES``):

* ``tests/golden/<game>/perft.json``: position documents with their legal-action counts at depth
  1, 2, ... (depth 2 = the legal actions summed over every child of a depth-1 action; at a chance
  node the chance outcomes count as actions);
* ``tests/golden/<game>/transcripts/*.txt``: seeded random games, one line per step:
  ``step | player | decision | legal N | action text | event kinds``, then a closing line with
  the game's own figures (Imperial 2030: nation turns and round), the scores and the winners.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from collections.abc import Callable

from imperial_lab.core.bots import RandomBot
from imperial_lab.core.interface import make_game
from imperial_lab.core.play import play_game
from imperial_lab.core.registry import plugin
from tests.builders import act, maneuver, position

GOLDEN = Path(__file__).resolve().parent / "golden"
# What the rules reference's tests need of RULES.md, which lives outside the repository (../shared):
# its numbered headings and questions, and a hash of every run of GRAM_WORDS words (not its text).
RULES_MD = Path(__file__).resolve().parents[2] / "shared" / "imperial2030" / "RULES.md"
RULES_FINGERPRINT = GOLDEN / "rules_md.json"
GRAM_WORDS = 10


# ----- perft -----

def perft(state, depth: int) -> int:
    """Number of legal action sequences of length ``depth`` from ``state`` (python-chess perft)."""
    actions = state.legal_actions()
    if depth <= 1:
        return len(actions)
    total = 0
    for a in actions:
        child = state.clone()
        child.apply_action(a)
        total += perft(child, depth - 1)
    return total


def divide(state, depth: int) -> dict[str, int]:
    """perft(depth - 1) below each first action, keyed by its text: where a count goes wrong."""
    out = {}
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        out[state.action_to_string(a)] = perft(child, depth - 1) if depth > 1 else 1
    return out


def load_position(doc: dict):
    return make_game(doc["config"]).state_from_json(doc, check=False)  # hand-built: see builders.position


def _random_until(config: dict, seed: int, stop) -> object:
    """Play a seeded random game until ``stop(state)`` holds; that state."""
    game = make_game(config)
    state = game.new_initial_state()
    bots = [RandomBot(seed * 10 + p) for p in range(game.num_players)]
    chance = random.Random(seed)
    while not stop(state):
        assert not state.is_terminal(), f"seed {seed}: the game ended before the wanted position"
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            action = chance.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = bots[state.current_player()].decide(state, state.legal_actions())
        state.apply_action(action)
    return state


def _first_of(config: dict, seed: int, kind: str, after: int = 0) -> object:
    """The first position of decision ``kind`` after ``after`` steps of a seeded random game."""
    steps = [0]

    def stop(state) -> bool:
        steps[0] += 1
        return steps[0] > after and state.decision_name() == kind
    return _random_until(config, seed, stop)


Position = tuple[str, str, Any, int]  # name, description, state, depth


def imperial2030_positions() -> list[Position]:
    """Imperial 2030's perft positions (depth 2), built from the rules' scenarios."""
    out = []

    def add(name, description, state):
        out.append((name, description, state, 2))

    add("deal_4p", "§4.2 standard setup, 4 players: the chance node of the flag-card deal",
        make_game({"players": 4}).new_initial_state())
    add("deal_2p", "§4.2 standard setup, 2 players: CN and RU dealt, each bringing two more cards",
        make_game({"players": 2}).new_initial_state())
    add("variant_first_pick_3p", "§4.3 experienced-players variant, 3 players: the first RU pick",
        make_game({"players": 3, "setup": "variant"}).new_initial_state())
    add("variant_mid_pick_5p", "§4.3 variant, 5 players, after 12 random picks (IN picks in progress)",
        _random_until({"players": 5, "setup": "variant"}, 5, lambda s: s.variant_step >= 12))
    add("turn_start_t1", "T1: CN (11 PP) on investor, government cash 10: rondel costs 0/3/6/9, top-ups",
        position(players=3, cash=[10, 10, 10], nation="CN", bonds={0: ["CN 4"]},
                 nations={"CN": {"government": 0, "rondel": "investor", "power_points": 11, "treasury": 4}}))

    s = position(players=3, cash=[4, 10, 10], nation="EU", bonds={0: ["EU 4"]},
                 nations={"EU": {"government": 0, "rondel": "taxation", "treasury": 3}})
    act(s, "rondel factory")
    add("factory_t2_topup", "T2 variant: EU treasury 3, government cash 4: build only after a top-up", s)

    s = position(players=3, cash=[0, 10, 10], nation="CN", bonds={0: ["CN 4"]},
                 nations={"CN": {"government": 0, "rondel": "investor", "treasury": 5}},
                 units=["RU army urumqi hostile"])
    act(s, "rondel import")
    add("import_t4", "T4: CN imports with treasury 5; urumqi occupied by a hostile RU army", s)

    add("maneuver_t7_convoy", "T7: RU armies x2 in vladivostok, fleets x2 sea_of_japan, x1 china_sea",
        maneuver("RU", ["RU army vladivostok x2", "RU fleet sea_of_japan x2", "RU fleet china_sea"], {"RU": 0}))
    add("maneuver_t10_suez", "T10: US flag in north_africa (Suez); EU fleets, army paris; IN shipyard mumbai",
        maneuver("EU", ["EU fleet mediterranean_sea", "EU fleet rome", "EU army paris"],
                  {"EU": 0, "US": 1, "IN": 2}, flags={"US": ["north_africa"]}))
    add("maneuver_t6_battles", "T6: EU fleet north_atlantic; BR and US fleets in caribbean_sea; "
        "US flag in colombia (Panama); stationary battles in the mediterranean and berlin",
        maneuver("EU", ["EU fleet north_atlantic", "BR fleet caribbean_sea", "US fleet caribbean_sea",
                         "EU fleet mediterranean_sea", "IN fleet mediterranean_sea", "EU army berlin x3",
                         "RU army moscow", "IN army berlin hostile"],
                  {"EU": 0, "BR": 1, "US": 2, "RU": 1, "IN": 2}, flags={"US": ["colombia"]}))

    s = position(players=3, cash=[4, 10, 3], nation="CN", investor_card=0,
                 bonds={0: ["CN 2"], 1: ["CN 4", "EU 1"], 2: ["RU 3"]},
                 nations={"CN": {"government": 1, "rondel": "production_1", "treasury": 20},
                          "RU": {"government": 2, "rondel": "factory"}, "EU": {"government": 1}})
    act(s, "rondel investor")
    add("investor_t12", "T12: CN lands on investor; card holder A (CN 2, cash 4 + 2 interest + 2) may buy or "
        "upgrade", s)
    add("midgame_maneuver_4p", "a 4-player seeded random game, first maneuver with at least 8 actions after "
        "150 steps", _random_until({"players": 4}, 11, _richmaneuver()))
    return out


def _richmaneuver():
    steps = [0]

    def stop(state) -> bool:
        steps[0] += 1
        return steps[0] > 150 and state.decision_name() == "maneuver" and len(state.legal_actions()) >= 8
    return stop


def imperia_positions() -> list[Position]:
    """Imperia's perft positions: every phase of a seeded random game (setup: §3; play: §6), a
    crowded late turn, and the §12 base position with a general in hand."""
    from imperial_lab.core.games.imperia.builders import build

    three, four = {"game": "imperia", "players": 3}, {"game": "imperia", "players": 4}
    out: list[Position] = [
        ("start_4p", "§3.1 4 players: the chance node of the start seat", make_game(four).new_initial_state(), 3),
        ("random_board_3p", "§3.2 3 players: the chance board, after the start seat",
         _first_of(three, 5, "random_board"), 2),
        ("board_4p", "§3.2 4 players: the first board placement (4 boards x 2 sides x 4 quadrants x 4 "
         "rotations)", _first_of(four, 5, "board"), 2),
    ]
    for kind, rules in (("fortress", "§3.3"), ("recruit", "§3.4"), ("turn", "§6.4"), ("draw", "§6.5"),
                        ("order", "§6.6")):
        out.append((f"{kind}_3p", f"{rules} 3 players: the first {kind} of a seeded random game",
                     _first_of(three, 5, kind), 3))
    out.append(("late_turn_4p", "§6 4 players: a turn after 60 steps of a seeded random game (stacks, battles)",
                _first_of(four, 7, "turn", after=60), 3))
    out.append(("base_general_in_hand", "§12 base position, 4 players: Red holds a general, an infantry and a "
                "defensive infantry", build(hands={"R": ["gen/o", "inf/o", "inf/d"]}), 3))
    return out


def imperial_powers_positions() -> list[Position]:
    """Imperial Powers' perft positions: every phase of a seeded random game (setup §2, the turn
    §5.1-§5.7), the options that change the decisions (random powers, public tactics, events
    resolved after all are assigned) and a later turn's tactics."""
    four = {"game": "imperial_powers", "players": 4}
    variant = {"game": "imperial_powers", "players": 5, "power_assignment": "random",
               "tactics_visibility": "regions_public", "event_resolution": "after_all_assigned"}
    out: list[Position] = [("setup_roll_4p", "§2 4 players: the first d10 of the setup rolls",
                            make_game(four).new_initial_state(), 3)]
    for kind, rules in (("choose_power", "R3"), ("draw", "§5.1"), ("bid", "§5.2"), ("develop", "§5.3"),
                        ("tactics", "§5.4"), ("event_draw", "§5.7"), ("event_assign", "§5.7"),
                        ("event_die", "§5.7")):
        out.append((f"{kind}_4p", f"{rules} 4 players: the first {kind} of a seeded random game",
                    _first_of(four, 5, kind), 3))
    out.append(("random_power_5p", "R3 5 players, random powers: the chance node of a power",
                _first_of(variant, 3, "choose_power"), 3))
    out.append(("public_tactics_5p", "R12 5 players, tactics regions public: the first tactics",
                _first_of(variant, 3, "tactics"), 2))
    out.append(("all_assigned_events_5p", "R17 5 players, events resolved after all are assigned: the "
                "first event assignment", _first_of(variant, 3, "event_assign"), 3))
    out.append(("late_tactics_4p", "§5.4 4 players: a tactics decision after 400 steps (a later turn)",
                _first_of(four, 9, "tactics", after=400), 2))
    return out


@dataclass(frozen=True)
class GoldenGame:
    """What the golden files of one game hold and how its transcripts end."""

    positions: Callable[[], list[Position]]
    kinds: frozenset[str]  # the decision kinds the perft positions must cover
    games: tuple[tuple[str, dict, int], ...]  # transcripts: (file stem, config, seed)
    figures: Callable[[Any], str]  # the closing line's own figures

    def __post_init__(self) -> None:
        assert self.games, "a game's goldens include at least one transcript"


GOLDEN_GAMES = {
    "imperial2030": GoldenGame(
        imperial2030_positions,
        frozenset({"deal", "variant_pick", "turn_start", "factory", "import", "maneuver", "invest"}),
        (("random_2p_standard", {"game": "imperial2030", "players": 2, "setup": "standard"}, 2030),
         ("random_4p_variant", {"game": "imperial2030", "players": 4, "setup": "variant"}, 4030),
         ("random_6p_standard", {"game": "imperial2030", "players": 6, "setup": "standard"}, 6030)),
        lambda s: f"nation_turns {s.nation_turns} | round {s.round}"),
    "imperia": GoldenGame(
        imperia_positions,
        frozenset({"start", "random_board", "board", "fortress", "recruit", "turn", "draw", "order"}),
        (("random_2p", {"game": "imperia", "players": 2}, 2002),
         ("random_4p", {"game": "imperia", "players": 4}, 2004)),
        lambda s: f"ply {s.ply}"),
    "imperial_powers": GoldenGame(
        imperial_powers_positions,
        frozenset({"setup_roll", "choose_power", "draw", "bid", "develop", "tactics", "event_draw",
                   "event_assign", "event_die"}),
        (("random_3p", {"game": "imperial_powers", "players": 3}, 3003),
         ("random_5p_variant", {"game": "imperial_powers", "players": 5, "power_assignment": "random",
                                "tactics_visibility": "regions_public", "event_resolution": "after_all_assigned",
                                "turns": 4}, 3005)),
        lambda s: f"turn {s.turn} | ply {s.ply}"),
}


def perft_file(game: str) -> Path:
    return GOLDEN / game / "perft.json"


def transcripts_dir(game: str) -> Path:
    return GOLDEN / game / "transcripts"


def read_perft(game: str) -> list[dict]:
    return json.loads(perft_file(game).read_text(encoding="utf-8"))["positions"]


def perft_entries(game: str) -> list[dict]:
    """The perft golden entries of ``game`` as they are now (what regen writes)."""
    entries = []
    for name, description, state, depth in GOLDEN_GAMES[game].positions():
        counts = [perft(state, d) for d in range(1, depth + 1)]
        entries.append({"name": name, "description": description, "decision": state.decision_name(),
                        "counts": counts, "position": state.to_json()})
    return entries


# ----- transcripts -----


def _kinds(events) -> str:
    """Event kinds in order, runs of one kind written ``kind*n``."""
    out: list[list] = []
    for e in events:
        if out and out[-1][0] == e.kind:
            out[-1][1] += 1
        else:
            out.append([e.kind, 1])
    return " ".join(k if n == 1 else f"{k}*{n}" for k, n in out) or "-"


def step_line(step: int, state, action) -> tuple[str, list]:
    """The transcript line of applying ``action`` at ``state`` (which it changes), and its events."""
    player = state.current_player()
    decision = state.decision_name()
    legal = len(state.legal_actions())
    text = state.action_to_string(action)
    events = state.apply_action(action)
    return f"{step} | {player} | {decision} | legal {legal} | {text} | {_kinds(events)}", events


def end_line(state) -> str:
    figures = GOLDEN_GAMES[state.game.name].figures(state)
    return f"end | {figures} | scores {[int(x) for x in state.returns()]} | winners {state.winners()}"


def header_lines(config: dict, seed: int) -> list[str]:
    return [f"# {plugin(config['game']).title} golden transcript: a seeded random game, one line per step.",
            "# Regenerate with: .venv/bin/python scripts/regen_golden.py",
            "# step | deciding player (-1 chance) | decision | legal action count | action | event kinds",
            f"# config: {json.dumps(config, sort_keys=True)}",
            f"# seed: {seed} (chance: random.Random(seed); seat p: RandomBot(seed * 10 + p))"]


def record_transcript(config: dict, seed: int) -> list[str]:
    """Play the seeded game and write it out."""
    lines = header_lines(config, seed)
    game = make_game(config)
    bots = [RandomBot(seed * 10 + p) for p in range(game.num_players)]
    played = play_game(config, bots, seed)
    state = game.new_initial_state()
    for k, (_, action) in enumerate(played.actions, 1):
        lines.append(step_line(k, state, action)[0])
    lines.append(end_line(state))
    return lines


def replay_transcript(lines: list[str]) -> list[str]:
    """Re-derive every line of a transcript from the actions it names (the check of a golden file)."""
    config = json.loads(next(x for x in lines if x.startswith("# config: "))[len("# config: "):])
    out = [x for x in lines if x.startswith("#")]
    state = make_game(config).new_initial_state()
    for line in lines:
        if line.startswith(("#", "end |")):
            continue
        step, _, _, _, text, _ = line.split(" | ")
        if state.is_terminal():
            out.append(f"{step} | the game is already over")
            break
        try:
            action = state.string_to_action(text)
            out.append(step_line(int(step), state, action)[0])
        except ValueError as exc:
            out.append(f"{step} | {text!r} cannot be applied: {exc}")
            break
    else:
        out.append(end_line(state))
    return out


def words(text: str) -> list[str]:
    """The words of a text as the own-words test compares them."""
    return re.findall(r"[a-z0-9§.']+", text.lower())


def gram_hash(gram) -> str:
    """8 hex digits of a run of words: with some 9,000 runs of RULES.md, a run of ours matches one by
    chance with a probability of about 2 in a million."""
    return hashlib.blake2b(" ".join(gram).encode(), digest_size=4).hexdigest()


def rules_fingerprint(text: str) -> dict:
    """RULES.md's numbered headings (## 7. …, ### 7.4 …), its questions (**Q2 …) and the hashes of
    its runs of GRAM_WORDS words."""
    spec = words(text)
    grams = sorted({gram_hash(spec[k:k + GRAM_WORDS]) for k in range(len(spec) - GRAM_WORDS)})
    return {"comment": "from ../shared/imperial2030/RULES.md; regenerate with scripts/regen_golden.py",
            "numbers": re.findall(r"^#{2,4} (\d+(?:\.\d+)*)\.? ", text, re.MULTILINE),
            "questions": re.findall(r"^\*\*Q(\d+) ", text, re.MULTILINE),
            "gram_words": GRAM_WORDS, "grams": "".join(grams)}
