"""The explorer's timeline (dashboard/games/imperial2030/replay.py): every action listed with its events and its plain
words (core/games/imperial2030/action_words.py), the position before a step, and partial timelines of logs with a
bad line."""

from __future__ import annotations

import io
import json

import pytest

from imperial_lab.core.bots import RandomBot
from imperial_lab.core.errors import LogError
from imperial_lab.core.gamelog import replay, write_log
from imperial_lab.core.games.imperial2030.actions import parse_action
from imperial_lab.core.games.imperial2030.data import load_board
from imperial_lab.core.games.imperial2030.action_words import WORDS, action_words
from imperial_lab.core.games.imperial2030.words import nation
from imperial_lab.dashboard.games.imperial2030.replay import action_groups, event_groups, timeline_from_text
from imperial_lab.core.interface import make_game
from imperial_lab.core.play import play_game

CONFIG = {"game": "imperial2030", "players": 4}


def random_log(seed: int, config: dict = CONFIG) -> str:
    played = play_game(config, [RandomBot(10 * seed + p) for p in range(config["players"])], seed)
    out = io.StringIO()
    write_log(out, played, seed=seed)
    return out.getvalue()


@pytest.fixture(scope="module")
def log() -> str:
    """Random game 1: it has a canal crossing its controller refuses."""
    return random_log(1)


@pytest.fixture(scope="module")
def timeline(log):
    return timeline_from_text(log, "game.jsonl")


def capital(text: str) -> str:
    return text[0].upper() + text[1:]


def steps(timeline):
    return [(turn, step) for turn, s in enumerate(timeline.snapshots) for step in s.actions]


# ----- every action of a step -----

def test_action_groups_list_every_action_with_its_events_of_the_turn(timeline):
    for snapshot in timeline.snapshots:
        groups = action_groups(snapshot)
        listed = [step for step, _ in groups if step is not None]
        assert listed == snapshot.actions
        assert [e for _, events in groups for e in events] == snapshot.events
        if groups and groups[0][0] is None:  # what came before the first action: the turn's opening
            assert groups[0][1] and all(e not in step.events for step in snapshot.actions for e in groups[0][1])
        assert [g for g in groups if g[1]] == event_groups(snapshot)


def test_actions_without_events_are_listed(timeline):
    """`end maneuver` without flags, `no veto`, `import done`, a refused move...: no event, still an action."""
    quiet = [(step, events) for s in timeline.snapshots for step, events in action_groups(s)
             if step is not None and not events]
    assert quiet and all(step.words and step.words != step.text for step, _ in quiet)
    assert any(step.text == "end maneuver" for step, _ in quiet)


def test_a_refused_canal_crossing_lists_the_move_and_the_refusal(timeline):
    """§7.4.3: the move asks the canal's controller and changes nothing; `deny` refuses it."""
    for turn, snapshot in enumerate(timeline.snapshots):  # noqa: B007 - the turn is read after the loop
        groups = action_groups(snapshot)
        texts = [step.text if step else None for step, _ in groups]
        if "deny" in texts:
            k = texts.index("deny")
            move, move_events = groups[k - 1]
            deny, deny_events = groups[k]
            break
    else:
        pytest.fail("random game 1 has no refused canal crossing any more: pick another seed")
    assert move.text.startswith("move ") and move_events == []
    assert move.words.startswith(f"{capital(nation(snapshot.nation))} moves ")
    assert [e["kind"] for e in deny_events] == ["canal"] and deny_events[0]["allowed"] is False
    controller = nation(deny_events[0]["controller"])
    assert deny.words.startswith(f"The canal controller ({controller}) refuses the crossing of ")
    assert move.position == timeline.position_before(turn, deny.index)


def test_every_step_has_its_words_from_the_position_before(timeline):
    for turn, step in steps(timeline):
        assert step.words == action_words(step.text, timeline.position_before(turn, step.index))


# ----- the position before a step -----

def test_position_before_a_turn_is_the_previous_turns_end(timeline):
    snapshots = timeline.snapshots
    assert timeline.position_before(0) == snapshots[0].position
    for turn in range(1, len(snapshots)):
        assert timeline.position_before(turn) == snapshots[turn - 1].position


def test_position_before_an_action(timeline):
    snapshots = timeline.snapshots
    config = timeline.header["config"]
    assert timeline.position_before(0, 1) == make_game(config).new_initial_state().to_json() == timeline.start
    for turn in range(1, len(snapshots)):
        first, *rest = snapshots[turn].actions
        assert timeline.position_before(turn, first.index) == snapshots[turn - 1].position
        for previous, step in zip([first] + rest, rest):
            assert timeline.position_before(turn, step.index) == previous.position


# ----- plain words for every action -----

def words_of_random_games(games: int) -> None:
    """Over ``games`` random games (2-6 players, the standard and the variant setup, tight unit limits so
    that production has choices), every action gets a sentence that is more than its notation, and
    every kind of action comes up."""
    seen = set()
    for seed in range(games):
        config = {"game": "imperial2030", "players": 2 + seed % 5}
        if seed % 3 == 1:
            config["setup"] = "variant"
        if seed % 4 == 2:
            config["unit_limits"] = {code: {"armies": 2, "fleets": 2} for code in ("RU", "CN", "IN", "BR", "US", "EU")}
        before = {}

        def start(state):
            before["doc"] = state.to_json()

        def step(state, player, action, events):
            text = state.action_to_string(action)
            words = action_words(text, before["doc"])
            assert words and words != text and words[0].isupper(), (seed, text, words)
            seen.add(action[0])
            before["doc"] = state.to_json()

        play_game(config, [RandomBot(seed + p) for p in range(config["players"])], seed, record=False,
                  on_start=start, on_step=step)
    assert set(WORDS) - seen <= {parse_action(load_board(), "flag peru")[0]}  # flags run short too rarely


def test_every_action_of_random_games_has_words():
    words_of_random_games(20)  # every kind of action comes up within the first 5


@pytest.mark.slow
def test_every_action_of_many_random_games_has_words():
    words_of_random_games(200)


def before(nation="EU", kind="maneuver", player=0, nations=None, **decision) -> dict:
    """The few facts of a position document the words read."""
    return {"turn": {"nation": nation, "nation_turns": 9}, "nations": nations or {},
            "decision": {"kind": kind, "player": player, **decision}}


ARRIVAL = {"unit": "fleet", "region": "china_sea", "stance": None}
EXAMPLES = [  # one per form of the notation table of docs/formats.md, with the decision it answers
    ("deal RU,CN,IN,BR", before(None, "deal", -1),
     "Chance deals the lead flag cards: Player A Russia, Player B China, Player C India, Player D Brazil"),
    ("buy BR 9", before(kind="invest", player=1), "Player B buys Brazil's 30m bond"),
    ("upgrade RU 1 -> 3", before(kind="invest", player=1),
     "Player B buys Russia's 6m bond (pays 4m, trading in the 2m bond)"),
    ("pass", before(kind="invest", player=2), "Player C buys no bond"),
    ("topup 3", before("RU", "turn_start"), "Player A moves 3m of personal cash into Russia's treasury"),
    ("rondel factory", before("RU", "turn_start", nations={"RU": {"rondel": None, "power_points": 0}}),
     "Russia places its rondel marker on Factory"),
    ("rondel taxation", before("RU", "turn_start", nations={"RU": {"rondel": "production_1", "power_points": 12}}),
     "Russia moves to Taxation (6 spaces, pays 9m, passing over Investor)"),
    ("rondel import", before("RU", "turn_start", nations={"RU": {"rondel": "investor", "power_points": 0}}),
     "Russia moves to Import (1 space, free)"),
    ("veto", before("RU", "veto", 2, destination="taxation"),
     "Player C, a Swiss bank, vetoes Russia's move to Taxation: it stops on Investor"),
    ("no veto", before("RU", "veto", 2, destination="taxation"),
     "Player C, a Swiss bank, lets Russia pass over Investor to Taxation (no veto)"),
    ("build berlin", before(kind="factory"), "Europe builds a factory in Berlin"),
    ("build none", before(kind="factory"), "Europe builds no factory"),
    ("produce moscow,vladivostok", before("RU", "production"),
     "Russia produces only in Moscow and Vladivostok (a unit limit bites)"),
    ("produce none", before("RU", "production"), "Russia produces nothing (a unit limit bites)"),
    ("import army moscow", before("RU", "import"), "Russia imports an army into Moscow"),
    ("import fleet murmansk", before("RU", "import"), "Russia imports a fleet into Murmansk"),
    ("import done", before("RU", "import"), "Russia ends its import"),
    ("move fleet london -> north_atlantic", before(), "Europe moves a fleet from London to the North Atlantic"),
    ("move army rome -> north_africa via mediterranean_sea", before(),
     "Europe moves an army from Rome to North Africa, convoyed over the Mediterranean Sea"),
    ("move hostile army berlin -> murmansk as friendly", before("CN"),
     "China moves a hostile army from Berlin to Murmansk, entering as a friendly army"),
    ("move army ukraine -> berlin as hostile", before("RU"),
     "Russia moves an army from Ukraine to Berlin, entering as a hostile army"),
    ("allow", before(kind="canal", player=1, queue=[4], move="move fleet mediterranean_sea -> indian_ocean"),
     "The canal controller (the United States) allows the crossing of Europe's fleet from the Mediterranean Sea "
     "to the Indian Ocean"),
    ("deny", before(kind="canal", player=1, queue=[2],
                    move="move army paris -> mumbai via mediterranean_sea,indian_ocean as hostile"),
     "The canal controller (India) refuses the crossing of Europe's army from Paris to Mumbai, convoyed over "
     "the Mediterranean Sea and the Indian Ocean, entering as a hostile army"),
    ("fight CN fleet", before(kind="fight", arrival=ARRIVAL),
     "Europe's fleet arriving in the China Sea fights China's fleet"),
    ("fight CN hostile army", before(kind="fight", arrival={"unit": "army", "region": "beijing", "stance": "hostile"}),
     "Europe's hostile army arriving in Beijing fights China's hostile army"),
    ("decline", before(kind="fight", arrival=ARRIVAL), "Europe's fleet arriving in the China Sea fights no one"),
    ("decline", before(kind="demand", player=1, queue=[1], arrival=ARRIVAL),
     "China demands no battle with Europe's fleet arriving in the China Sea"),
    ("demand fleet", before(kind="demand", player=1, queue=[1], arrival=ARRIVAL),
     "China demands a battle of its fleet with Europe's fleet arriving in the China Sea"),
    ("battle fleet china_sea vs CN fleet", before(),
     "Europe's fleet in the China Sea battles China's fleet there"),
    ("destroy murmansk with 3 hostile", before(),
     "Europe's armies destroy the factory in Murmansk; three of them are removed (3 hostile, 0 friendly)"),
    ("end maneuver", before("CN"), "China ends its maneuver"),
    ("flag peru", before(kind="flag", flags_to_place=[["BR", ["peru", "colombia"]]]), "Brazil places a flag in Peru"),
]


@pytest.mark.parametrize("text, doc, words", EXAMPLES, ids=[f"{k}:{e[0]}" for k, e in enumerate(EXAMPLES)])
def test_words_of_each_notation_form(text, doc, words):
    assert action_words(text, doc) == words


def test_the_examples_cover_every_action_type():
    assert {parse_action(load_board(), text)[0] for text, _, _ in EXAMPLES} == set(WORDS)


# ----- partial logs -----

def corrupt(log: str, number: int, line: str) -> str:
    lines = log.splitlines()
    lines[number - 1] = line
    return "\n".join(lines) + "\n"


def last_good(log: str, number: int) -> dict:
    """The position after the lines before ``number``."""
    return replay(log.splitlines()[:number - 1]).to_json()


@pytest.mark.parametrize("why, bad", [
    ("bad JSON", lambda line: line[:-3]),
    ("illegal move", lambda line: json.dumps({**json.loads(line), "action": "rondel nowhere"})),
    ("wrong player", lambda line: json.dumps({**json.loads(line), "player": (json.loads(line)["player"] + 1) % 4})),
])
def test_a_bad_line_ends_a_partial_timeline_before_it(log, why, bad):
    number = 300
    text = corrupt(log, number, bad(log.splitlines()[number - 1]))
    with pytest.raises(LogError) as strict:
        timeline_from_text(text, "game.jsonl")
    partial = timeline_from_text(text, "game.jsonl", partial=True)
    assert partial.error is not None and partial.error.line == number == strict.value.line
    assert str(partial.error).startswith(f"game.jsonl:{number}: ")
    actions = [step for s in partial.snapshots for step in s.actions]
    assert len(actions) == number - 2  # line 1 is the header; line k holds action k - 1
    assert actions[-1].text == json.loads(log.splitlines()[number - 2])["action"]
    assert partial.snapshots[-1].position == actions[-1].position == last_good(log, number)
    assert [s.turn for s in partial.snapshots] == list(range(len(partial.snapshots)))


def test_the_first_bad_line_ends_the_timeline(log):
    """An illegal move before a line that does not parse: every line is parsed before any move is
    replayed, yet the timeline ends before the illegal move, and its error is the one shown."""
    lines = log.splitlines()
    illegal = json.dumps({**json.loads(lines[199]), "action": "rondel nowhere"})
    text = corrupt(corrupt(log, 500, "{not json"), 200, illegal)
    partial = timeline_from_text(text, "game.jsonl", partial=True)
    assert partial.error.line == 200
    assert partial.snapshots[-1].position == last_good(log, 200)


def test_a_line_after_the_end_of_the_game(log):
    text = log + json.dumps({"player": 0, "action": "pass"}) + "\n"
    partial = timeline_from_text(text, "game.jsonl", partial=True)
    assert "after the end of the game" in str(partial.error)
    assert partial.snapshots == timeline_from_text(log).snapshots


def test_a_good_log_has_no_error(log, timeline):
    partial = timeline_from_text(log, "game.jsonl", partial=True)
    assert partial.error is None and partial.snapshots == timeline.snapshots


@pytest.mark.parametrize("header", [
    "{not json",
    json.dumps({"game": "imperial2030", "format": 1, "config": {"players": 9}}),
    json.dumps({"game": "chess", "format": 1, "config": {}}),
    json.dumps({"player": 0, "action": "pass"}),
])
def test_a_bad_header_still_raises(log, header):
    with pytest.raises(LogError) as error:
        timeline_from_text("\n" + corrupt(log, 1, header), "game.jsonl", partial=True)
    assert error.value.line == 2  # the header line, after a blank one


def test_an_empty_log_still_raises():
    with pytest.raises(LogError, match="empty log"):
        timeline_from_text("\n\n", partial=True)
