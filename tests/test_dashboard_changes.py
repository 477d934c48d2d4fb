"""What changed at a step (dashboard/games/imperial2030/changes.py): moves, builds, removals, flags, factories and
battles of real games checked against their events and positions, and the one-line summary."""

from __future__ import annotations

import io
from collections import Counter

import pytest

from imperial_lab.core.bots import make_bot
from imperial_lab.core.gamelog import write_log
from imperial_lab.core.games.imperial2030.words import place
from imperial_lab.dashboard.games.imperial2030.changes import MAX_SUMMARY, step_changes
from imperial_lab.core.games.imperial2030.words import nation, possessive
from imperial_lab.dashboard.games.imperial2030.replay import timeline_from_text
from imperial_lab.core.play import play_game
from imperial_lab.dashboard.style import player_label

GAMES = [  # (config, bot, seed): random and heuristic play, 3 to 5 players, both setups
    ({"game": "imperial2030", "players": 4}, "random", 1),
    ({"game": "imperial2030", "players": 4}, "random", 8),
    ({"game": "imperial2030", "players": 3, "setup": "variant"}, "random", 5),
    ({"game": "imperial2030", "players": 5}, "heuristic", 3),
    ({"game": "imperial2030", "players": 3}, "heuristic", 4),
]


@pytest.fixture(scope="module")
def timelines():
    out = []
    for config, bot, seed in GAMES:
        played = play_game(config, [make_bot(bot, seed + p) for p in range(config["players"])], seed)
        log = io.StringIO()
        write_log(log, played, seed=seed)
        out.append(timeline_from_text(log.getvalue()))
    return out


def turn_steps(timelines):
    """(changes, events, before, after) of every nation turn of the games."""
    for timeline in timelines:
        for turn, snapshot in enumerate(timeline.snapshots):
            before = timeline.position_before(turn)
            yield step_changes(before, snapshot.position, snapshot.events), snapshot.events, before, snapshot.position


def action_steps(timelines):
    """The same for every action of the games."""
    for timeline in timelines:
        for turn, snapshot in enumerate(timeline.snapshots):
            for step in snapshot.actions:
                before = timeline.position_before(turn, step.index)
                yield step_changes(before, step.position, step.events), step.events, before, step.position


def all_steps(timelines):
    yield from turn_steps(timelines)
    yield from action_steps(timelines)


def of_kind(events, kind: str) -> list[dict]:
    return [e for e in events if e["kind"] == kind]


def capital(text: str) -> str:
    return text[0].upper() + text[1:]


# ----- the map's data against the events and the positions -----

def test_moves_are_the_unit_moved_events_merged(timelines):
    for changes, events, _, _ in all_steps(timelines):
        moved = Counter((e["nation"], e["unit"], e["from"], e["to"], tuple(e["via"]), e["stance"])
                        for e in of_kind(events, "unit_moved"))
        assert Counter({m[:6]: m.count for m in changes.moves}) == moved
        assert len(changes.moves) == len(moved)  # identical moves are one arrow with a count


def test_a_maneuver_turn_says_who_moved_where(timelines):
    turns = [(c, events) for c, events, _, _ in turn_steps(timelines) if of_kind(events, "unit_moved")]
    assert len(turns) > 20
    for changes, events in turns:
        mover = of_kind(events, "unit_moved")[0]["nation"]
        assert changes.summary.startswith(f"{capital(nation(mover))} maneuvers: ")
        assert place(changes.moves[0].to) in changes.summary


def test_units_are_conserved(timelines):
    """Per region, nation and unit: after = before + built - removed + moved in - moved out, and
    units are removed only where a battle or a factory's destruction happened."""
    def units(doc):
        counts = Counter()
        for u in doc["units"]:
            counts[(u["region"], u["nation"], u["unit"])] += u["count"]
        return counts

    checked = 0
    for changes, events, before, after in all_steps(timelines):
        expected = units(before)
        for b in changes.built:
            expected[(b.region, b.nation, b.unit)] += b.count
        for r in changes.removed:
            expected[(r.region, r.nation, r.unit)] -= r.count
        for m in changes.moves:
            expected[(m.origin, m.nation, m.unit)] -= m.count
            expected[(m.to, m.nation, m.unit)] += m.count
        assert +expected == units(after) and not -expected
        fights = {e["region"] for e in events if e["kind"] in ("battle", "factory_destroyed")}
        assert {r.region for r in changes.removed} <= fights
        checked += bool(changes.removed)
    assert checked > 10


def test_a_production_turn_lists_its_builds(timelines):
    turns = [(c, events) for c, events, _, _ in turn_steps(timelines)
             if any(e["how"] == "production" for e in of_kind(events, "unit_built"))]
    assert len(turns) > 20
    for changes, events in turns:
        built = Counter((e["region"], e["nation"], e["unit"], e["how"]) for e in of_kind(events, "unit_built"))
        assert Counter({(b.region, b.nation, b.unit, b.how): b.count for b in changes.built}) == built
        producer = changes.built[0].nation
        assert changes.summary.startswith(f"{capital(nation(producer))} produces ")
        assert place(changes.built[0].region) in changes.summary


def test_flags_and_factories_follow_their_events(timelines):
    def pairs(events, kind, key="nation"):
        return {(e["region"], e[key]) for e in of_kind(events, kind)}

    for changes, events, _, _ in all_steps(timelines):
        assert set(changes.flags_new) == pairs(events, "flag_placed")
        assert set(changes.flags_removed) == pairs(events, "flag_removed")
        assert set(changes.factories_new) == pairs(events, "factory_built")
        assert set(changes.factories_destroyed) == pairs(events, "factory_destroyed")


def test_battles_name_their_region_and_nations(timelines):
    seen = 0
    for changes, events, _, _ in all_steps(timelines):
        fought = {}
        for e in of_kind(events, "battle"):
            fought.setdefault(e["region"], set()).update((e["attacker"], e["defender"]))
        assert {b.region: set(b.nations) for b in changes.battles} == fought
        seen += len(fought)
    assert seen > 0


# ----- the summary line -----

def test_summaries_are_one_short_line(timelines):
    for changes, _, _, _ in all_steps(timelines):
        assert 0 < len(changes.summary) <= MAX_SUMMARY and "\n" not in changes.summary
        assert changes.summary[0].isupper()


def test_setup_names_the_governments(timelines):
    for timeline in timelines:
        setup = timeline.snapshots[0]
        summary = step_changes(timeline.position_before(0), setup.position, setup.events).summary
        assert summary.startswith("Setup: Player ") and " governs " in summary
        governs = {n["government"] for n in setup.position["nations"].values() if n["government"] is not None}
        assert all(player_label(p) in summary for p in governs) or summary.endswith(" more")


def test_taxation_investor_and_the_end_of_the_game(timelines):
    """A taxation turn starts with its taxes; a purchase on (or passing) Investor follows the turn's
    action unless the line is full."""
    for changes, events, _, _ in turn_steps(timelines):
        for tax in of_kind(events, "taxation"):
            assert changes.summary.startswith(f"{capital(nation(tax['nation']))} taxes: {tax['revenue']}m, ")
        bought = [e for e in of_kind(events, "bond_taken") if not e["rule"].startswith("§4")]
        if bought and not changes.summary.endswith(" more"):
            first = bought[0]
            assert (f"nvestor: {player_label(first['player'])} buys {possessive(first['nation'])} "
                    f"{first['cost']}m bond") in changes.summary
    for timeline in timelines:
        last = timeline.snapshots[-1]
        end = of_kind(last.events, "game_ended")[0]
        winner = end["winners"][0]
        before = timeline.position_before(len(timeline.snapshots) - 1)
        summary = step_changes(before, last.position, last.events).summary
        assert f"ame over: {player_label(winner)} " in summary and f" with {end['scores'][winner]} points" in summary


def doc(units=(), nation_turns=5) -> dict:
    """The facts of a position document the changes read."""
    return {"units": [{"region": r, "nation": n, "unit": u, "count": k} for r, n, u, k in units],
            "nations": {}, "turn": {"nation_turns": nation_turns}}


def moved(unit, origin, to, code="RU", via=()) -> dict:
    return {"kind": "unit_moved", "rule": "§7.4.2", "nation": code, "unit": unit, "from": origin, "to": to,
            "via": list(via), "stance": None}


def test_a_maneuver_summary_and_its_arrows():
    events = [moved("army", "moscow", "ukraine"), moved("army", "moscow", "ukraine"),
              moved("fleet", "murmansk", "north_atlantic"),
              {"kind": "battle", "rule": "§7.4.4", "region": "ukraine", "attacker": "RU", "attacker_unit": "army",
               "defender": "EU", "defender_unit": "army", "defender_stance": None}]
    before = doc([("moscow", "RU", "army", 3), ("murmansk", "RU", "fleet", 1), ("ukraine", "EU", "army", 1)])
    after = doc([("moscow", "RU", "army", 1), ("ukraine", "RU", "army", 1), ("north_atlantic", "RU", "fleet", 1)])
    changes = step_changes(before, after, events)
    assert changes.summary == "Russia maneuvers: 2 armies to Ukraine, a fleet to the North Atlantic; battle in Ukraine"
    assert [(m.unit, m.origin, m.to, m.count) for m in changes.moves] == [
        ("army", "moscow", "ukraine", 2), ("fleet", "murmansk", "north_atlantic", 1)]
    assert sorted(changes.removed) == [("ukraine", "EU", "army", 1), ("ukraine", "RU", "army", 1)]
    assert [(b.region, b.nations) for b in changes.battles] == [("ukraine", ("RU", "EU"))]


def test_a_long_summary_is_cut_with_a_count():
    seas = ["north_pacific", "south_pacific", "north_atlantic", "caribbean_sea", "south_atlantic", "gulf_of_guinea",
            "mediterranean_sea", "indian_ocean", "sea_of_japan", "china_sea", "tasman_sea"]
    events = [moved("fleet", "vladivostok", sea) for sea in seas]
    summary = step_changes(doc([("vladivostok", "RU", "fleet", 11)]), doc([(s, "RU", "fleet", 1) for s in seas]),
                           events).summary
    assert len(summary) <= MAX_SUMMARY and summary.startswith("Russia maneuvers: a fleet to the North Pacific, ")
    shown, more = summary.count(" to "), int(summary.split(" … and ")[1].removesuffix(" more"))
    assert shown + more == len(seas)


def test_a_rondel_move_alone_is_said_until_the_turn_is_over():
    """The action `rondel factory` moves the marker; the factory decision follows. A whole turn
    with the same events built no factory."""
    events = [{"kind": "rondel", "rule": "§6", "nation": "CN", "from": "taxation", "to": "factory", "distance": 1,
               "cost": 0, "passed_investor": False}]
    assert step_changes(doc(), doc(), events).summary == "China moves to Factory"
    assert step_changes(doc(), doc(nation_turns=6), events).summary == "China builds no factory"
