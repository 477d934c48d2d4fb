"""Imperial Powers' tables (RULES.md §8, core/games/imperial_powers/tables.py): every row checked
against a replay of the game's move log made here in plain Python (the map at the Reveal and at the
end of each Event Phase, the engine's own record of each event, the actions themselves); the
schema; a run on a local Dask cluster registered and queried by SQL; resume after a kill; imported
logs; league standings and compare rows."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from imperial_lab.core import compare, runstore
from imperial_lab.core.bots import make_bot
from imperial_lab.core.catalog import list_runs, query
from imperial_lab.core.cli import main
from imperial_lab.core.gamelog import replay
from imperial_lab.core.games.imperial_powers.actions import DEAL_INFLUENCE, MOVE, PLAY
from imperial_lab.core.games.imperial_powers.data import data
from imperial_lab.core.games.imperial_powers.rules import EXPLOITATION, PLACES, REGIONS, SPAIN, START
from imperial_lab.core.games.imperial_powers.pending import P_OVER, P_POWER
from imperial_lab.core.games.imperial_powers.tables import TABLES
from imperial_lab.core.imports import import_logs
from imperial_lab.core.interface import make_game
from imperial_lab.core.league import league, standings
from imperial_lab.core.play import play_game
from imperial_lab.core.simulate import simulate
from imperial_lab.core.tables import data_dictionary, frames, record_game, record_replay

ROOT = Path(__file__).resolve().parents[1]
D = data()
GAME = "imperial_powers"
# name: (config, seed); random bots, which reach every event and the piles' reshuffles
GAMES = {
    "default4": ({"players": 4}, 7),
    "variants3": ({"players": 3, "power_assignment": "random", "tie_rule": "share_highest_place",
                   "spain_bonus_on_exploitation": True, "event_resolution": "after_all_assigned"}, 11),
    "variants5": ({"players": 5, "power_assignment": "fixed", "tie_rule": "split_places",
                   "powers": ["spain", "portuguese", "france", "britain", "dutch"], "portuguese_bonus": "every_turn",
                   "tactics_visibility": "regions_public"}, 3),
}
RUN = dict(games=6, players=4, setup="default", bots=["random"] * 4, seed=5, chunk_size=2, game=GAME)
EVENT_PHASES = ("event_draw", "event_assign", "event_die")


def row_of(st, x: int) -> tuple:
    return tuple(st.influence[x * st.n:(x + 1) * st.n])


def place(values: tuple, p: int) -> int:
    """§0.2, R14: the present seats with at least p's influence; 0 if p is absent."""
    return sum(v >= values[p] for v in values) if values[p] > 0 else 0


def sole_leader(values: tuple):
    best = max(values)
    return values.index(best) if best > 0 and values.count(best) == 1 else None


class Replay:
    """What a replay of the actions shows, per turn: the map when the Tactics Phase begins, at the
    Reveal and at the end of the Event Phase, the VP by source at those moments, the engine's record
    of each event, and each seat's deals, bid before Tactics, moves and development card."""

    def __init__(self, config: dict, actions: list):
        st = make_game(config).new_initial_state()
        self.turns: dict[int, dict] = {}
        for player, action in actions:
            phase, turn = st.decision_name(), st.turn
            t = self.turn(turn, st) if st.phase > P_POWER else None
            if phase == "tactics" and "pre" not in t:
                t["pre"] = [[tuple(st.strip[p * REGIONS + x]) for x in range(REGIONS)] for p in range(st.n)]
                t["start_influence"] = st.influence[:]
            if action[0] == MOVE:
                t["moves"][player].append((action[1], st.strip_region(player, action[1]), action[2]))
            events = st.apply_action(action)
            if action[0] == DEAL_INFLUENCE:
                t["dealt"][action[1]] += 1
            elif action[0] == PLAY:
                t["played"][player] = action[1]
            for e in events:
                if e.kind in ("event_resolving", "event_resolved", "die"):
                    t["record"].append(e.to_json())
            if phase == "tactics" and st.decision_name() != "tactics":
                t["reveal"] = self.snapshot(st)
            if phase in EVENT_PHASES and (st.turn != turn or st.phase == P_OVER):
                t["end"] = {**self.snapshot(st), "event_rows": st.event_rows}
            if (phase in EVENT_PHASES and st.turn != turn) or (phase in ("setup_roll", "choose_power")
                                                               and st.phase > P_POWER):
                self.turn(st.turn, st)  # a turn begins: its Draw Phase's Leaders are the map's now
        self.state = st

    def turn(self, turn: int, st) -> dict:
        if turn not in self.turns:
            n = st.n
            previous = self.turns.get(turn - 1)
            self.turns[turn] = {"instigator": st.instigator, "dealt": [0] * n, "played": [None] * n,
                                "moves": [[] for _ in range(n)], "record": [],
                                "leaders": [sole_leader(row_of(st, x)) for x in range(REGIONS)],
                                "counters": st.power_counters[:],
                                "begin_gains": st.gains[:],  # the start bonus is paid at the setup
                                "start_gains": previous["end"]["gains"] if previous else [0] * (4 * n)}
        return self.turns[turn]

    @staticmethod
    def snapshot(st) -> dict:
        return {"influence": st.influence[:], "resources": st.resources[:], "power": st.power_counters[:],
                "gains": st.gains[:]}


class Game:
    """One game played plainly (its actions) and recorded, from the same seeds, and replayed."""

    def __init__(self, name: str):
        config, self.seed = GAMES[name]
        self.config = {"game": GAME, **config}
        self.n = make_game(self.config).num_players
        self.played = play_game(self.config, self.bots(), self.seed)
        self.rows = record_game(self.config, self.bots(), ["random"] * self.n, self.seed, "test", 0, "default")
        self.replay = Replay(self.config, self.played.actions)

    def bots(self) -> list:
        return [make_bot("random", self.seed * 100 + p, GAME) for p in range(self.n)]

    def table(self, name: str) -> list[dict]:
        columns = [c for c, _, _ in TABLES[name]]
        return [dict(zip(columns, row)) for row in self.rows[name]]


@pytest.fixture(scope="module", params=sorted(GAMES))
def game(request) -> Game:
    return Game(request.param)


# ----- each table against the replay -----

def test_one_region_row_per_turn_region_and_checkpoint(game):
    rows = game.table("ip_region_turn")
    keys = [(r["turn"], r["region"], r["checkpoint"]) for r in rows]
    assert len(keys) == len(set(keys)) == 10 * REGIONS * 3
    assert set(keys) == {(t, x, c) for t in range(1, 11) for x in D.regions
                         for c in ("after_reveal", "after_score", "after_event")}


def test_region_rows_are_the_replayed_map(game):
    tie_rule = game.played.state.game.config["tie_rule"]
    for row in game.table("ip_region_turn"):
        t = game.replay.turns[row["turn"]]
        x = D.regions.index(row["region"])
        at = t["end"] if row["checkpoint"] == "after_event" else t["reveal"]
        influence = tuple(at["influence"][x * game.n:(x + 1) * game.n])
        assert row["influence"] == influence
        assert (row["resource"], row["power"]) == (at["resources"][x], at["power"][x])
        assert row["value"] == row["resource"] + row["power"]
        assert row["places"] == tuple(place(influence, p) for p in range(game.n))
        assert row["leader"] == sole_leader(influence)
        (event, drawer), = [(e, d) for e, y, d, _ in t["end"]["event_rows"] if y == x]
        assert (row["event"], row["drawer"]) == (D.events[event], drawer)
        if row["checkpoint"] == "after_reveal":
            assert row["vp"] == (0,) * game.n
        if row["checkpoint"] == "after_score" and tie_rule == "drop_to_lowest_shared_place":
            v, spain = row["value"], D.powers.index("spain")
            award = {1: v, 2: v // 2, 3: 1}
            expected = [award.get(place(influence, p), 0) for p in range(game.n)]
            if row["leader"] is not None and game.played.state.powers[row["leader"]] == spain:
                expected[row["leader"]] += D.spain_vp[spain]
            assert list(row["vp"]) == expected
    # whatever the tie rule: each checkpoint's VP per region add up to the VP it paid
    for turn, t in game.replay.turns.items():
        for checkpoint, before, after in (("after_score", t["begin_gains"], t["reveal"]["gains"]),
                                          ("after_event", t["reveal"]["gains"], t["end"]["gains"])):
            paid = [sum(after[4 * p:4 * p + 4]) - sum(before[4 * p:4 * p + 4]) for p in range(game.n)]
            rows = [r["vp"] for r in game.table("ip_region_turn") if (r["turn"], r["checkpoint"]) == (turn, checkpoint)]
            assert [sum(vp[p] for vp in rows) for p in range(game.n)] == paid


def test_player_rows_are_the_replayed_turns(game):
    st = game.played.state
    rows = game.table("ip_player_turn")
    assert [(r["turn"], r["seat"]) for r in rows] == [(t, p) for t in range(1, 11) for p in range(game.n)]
    every_turn = st.game.config["portuguese_bonus"] == "every_turn"
    for row in rows:
        t, p = game.replay.turns[row["turn"]], row["seat"]
        power = D.powers[st.powers[p]]
        assert row["power"] == power and row["rel_seat"] == (p - st.first_instigator) % game.n
        assert t["instigator"] == (st.first_instigator + row["turn"] - 1) % game.n  # the token moves (§5.8)
        assert row["instigator"] == (p == t["instigator"])
        # the allotment (§5.1, R7): its parts add up to the cards dealt
        assert row["drawn_base"] == 5 and row["drawn_britain"] == (power == "britain")
        assert row["drawn_portugal"] == (2 if power == "portuguese" and (row["turn"] == 1 or every_turn) else 0)
        assert row["drawn_counters"] == sum(t["counters"][x] for x in range(REGIONS) if t["leaders"][x] == p)
        drawn = row["drawn_base"] + row["drawn_britain"] + row["drawn_counters"] + row["drawn_portugal"]
        assert drawn == row["hand"] == t["dealt"][p] == sum(row["bid_cards"]) == sum(row["bid_cards_pre"])
        # the bid: revealed = what the Reveal added to the map; before Tactics = the strip then
        revealed = [t["reveal"]["influence"][x * game.n + p] - t["start_influence"][x * game.n + p]
                    for x in range(REGIONS)]
        assert list(row["bid_value"]) == revealed and row["hand_value"] == sum(revealed) == sum(row["bid_value_pre"])
        assert row["bid_cards_pre"] == tuple(len(cards) for cards in t["pre"][p])
        assert row["bid_value_pre"] == tuple(sum(D.card_values[c] for c in cards) for cards in t["pre"][p])
        assert row["regions_bid"] == sum(v > 0 for v in row["bid_cards"])
        moves = t["moves"][p]
        assert row["moves"] == len(moves) and row["moved_value"] == sum(D.card_values[c] for c, _, _ in moves)
        assert row["moved"] == tuple(f"{D.card_names[c]} {D.regions[x]}>{D.regions[y]}" for c, x, y in moves)
        after = list(row["bid_value_pre"])
        for c, x, y in moves:
            after[x] -= D.card_values[c]
            after[y] += D.card_values[c]
        assert after == revealed
        dev = t["played"][p]
        assert row["development"] == D.dev_ids[dev]
        assert row["development_region"] == D.regions[D.dev_region[dev]]
        end = t["end"]["influence"]
        assert row["regions_led"] == sum(sole_leader(tuple(end[x * game.n:(x + 1) * game.n])) == p
                                         for x in range(REGIONS))
        assert row["influence"] == sum(end[x * game.n + p] for x in range(REGIONS))
        gains = [t["end"]["gains"][4 * p + s] - t["start_gains"][4 * p + s] for s in range(4)]
        assert (row["vp_places"], row["vp_spain"], row["vp_exploitation"], row["vp_start"]) == (
            gains[PLACES], gains[SPAIN], gains[EXPLOITATION], gains[START])
    # the VP sources add up to the final VP, turn by turn
    (games_row,) = game.table("ip_games")
    for p in range(game.n):
        mine = [r for r in rows if r["seat"] == p]
        running = 0
        for r in mine:
            running += r["vp_places"] + r["vp_spain"] + r["vp_exploitation"] + r["vp_start"]
            assert r["vp"] == running
        assert running == games_row["scores"][p] == st.returns()[p]
        assert sum(r["vp_start"] for r in mine) == D.starting_vp[st.powers[p]]
        assert all(r["vp_spain"] == 0 for r in mine) or D.powers[st.powers[p]] == "spain"


def test_event_rows_are_the_engines_record(game):
    rows = game.table("ip_events")
    assert [(r["turn"], r["draw"]) for r in rows] == [(t, k) for t in range(1, 11) for k in range(10)]
    by_turn: dict[int, list] = {}
    for row in rows:
        by_turn.setdefault(row["turn"], []).append(row)
    for turn, events in by_turn.items():
        t = game.replay.turns[turn]
        assert sorted(r["region"] for r in events) == sorted(D.regions)  # one event per region (R18)
        assert [r["drawer"] for r in events] == [(t["instigator"] + k) % game.n for k in range(10)]
        record = t["record"]  # event_resolving, its dice, event_resolved: in resolution order = draw order
        for row in events:
            start = next(i for i, e in enumerate(record) if e["kind"] == "event_resolving")
            end = next(i for i, e in enumerate(record) if e["kind"] == "event_resolved")
            resolving, dice, resolved = record[start], record[start + 1:end], record[end]
            del record[:end + 1]
            assert (resolving["event"], resolving["region"]) == (row["event"], row["region"])
            assert row["before"] == tuple(resolving["influence"]) and row["after"] == tuple(resolved["influence"])
            assert row["dice"] == tuple(d["roll"] for d in dice) == tuple(resolved["dice"])
            assert row["dice_seats"] == tuple(d["seat"] for d in dice) and resolved["drawer"] == row["drawer"]
            x = D.regions.index(row["region"])
            assert row["value_after"] == resolved["resource"] + t["end"]["power"][x]
            assert row["value_before"] == t["reveal"]["resources"][x] + t["reveal"]["power"][x]
            region_vp = next(r["vp"] for r in game.table("ip_region_turn")
                             if (r["turn"], r["region"], r["checkpoint"]) == (turn, row["region"], "after_event"))
            assert row["vp"] == region_vp and (row["event"] == "exploitation" or not any(row["vp"]))
            before, after, d = row["before"], row["after"], row["drawer"]
            lead = sole_leader(before)
            assert (row["leader_before"], row["leader_after"]) == (lead, sole_leader(after))
            assert row["hit_leader"] == (lead is not None and lead != d and after[lead] < before[lead])
            was, now = place(before, d), place(after, d)
            assert row["helped_self"] == (after[d] > before[d] or row["vp"][d] > 0
                                          or (now > 0 and (was == 0 or now < was)))


def test_the_games_row_is_the_result(game, tmp_path):
    (row,) = game.table("ip_games")
    st = game.played.state
    config = st.game.config
    assert row["status"] == "finished" and row["error"] is None and row["turns"] == row["turn_limit"] == 10
    assert list(row["scores"]) == st.returns() and list(row["winners"]) == st.winners()
    assert row["powers"] == tuple(D.powers[w] for w in st.powers) and row["first_instigator"] == st.first_instigator
    assert {key: row[key] for key in ("tie_rule", "power_assignment", "spain_bonus_on_exploitation",
                                      "portuguese_bonus", "event_resolution", "tactics_visibility")} == {
        key: config[key] for key in ("tie_rule", "power_assignment", "spain_bonus_on_exploitation",
                                     "portuguese_bonus", "event_resolution", "tactics_visibility")}
    final = game.replay.turns[10]["end"]["influence"]
    led = [sum(sole_leader(tuple(final[x * game.n:(x + 1) * game.n])) == p for x in range(REGIONS))
           for p in range(game.n)]
    assert list(row["regions_led"]) == led
    best = max(row["scores"])
    assert row["shared"] == (len(row["winners"]) > 1)
    assert row["tiebreak"] == (list(row["scores"]).count(best) > len(row["winners"]))
    assert all(led[w] == max(led[p] for p in range(game.n) if row["scores"][p] == best) for w in row["winners"])
    assert row["plies"] == st.ply and row["decisions"] == game.played.decisions
    assert row["bots"] == ",".join(["random"] * game.n) and row["seed"] == game.seed
    log = tmp_path / "game.jsonl"
    log.write_text(row["log"])
    assert replay(log).to_json() == st.to_json()


def test_every_column_of_tables_with_its_dtype(game):
    dfs = frames(game.rows, GAME)
    for name, columns in TABLES.items():
        df = dfs[name]
        assert list(df.columns) == [c for c, _, _ in columns] and len(df) == len(game.rows[name])
        for col, dtype, _ in columns:
            found = df[col].dtype
            if dtype.startswith("list<"):
                assert str(found.pyarrow_dtype) == f"list<item: {dtype[5:-1]}>", col
            else:
                assert str(found) == dtype, col


# ----- games that do not finish -----

def test_an_exception_in_a_game_becomes_a_failed_row():
    class Broken:
        def decide(self, state, legal):
            if state.turn == 3:
                raise RuntimeError("bot broke")
            return legal[0]

    rows = record_game({"game": GAME, "players": 3}, [Broken()] * 3, ["broken"] * 3, 1, "t", 0, "default")
    (row,) = rows["ip_games"]
    row = dict(zip([c for c, _, _ in TABLES["ip_games"]], row))
    assert row["status"] == "failed" and "bot broke" in row["error"] and row["scores"] is None
    assert row["turns"] == 2 and len(rows["ip_player_turn"]) == 2 * 3 and len(rows["ip_events"]) == 2 * 10
    assert row["log"].count("\n") == 1 + row["plies"]
    frames(rows, GAME)  # nulls fit the dtypes


def test_a_log_that_stops_in_an_event_phase_keeps_the_checkpoints_it_reached(game):
    lines = game.rows["ip_games"][0][-1].splitlines(keepends=True)
    assignments = [i for i, line in enumerate(lines) if '"event to ' in line]
    rows = record_replay(lines[:assignments[24] + 1], "t", 0, "default")  # the 5th event of turn 3
    (row,) = rows["ip_games"]
    row = dict(zip([c for c, _, _ in TABLES["ip_games"]], row))
    assert row["status"] == "unfinished" and row["turns"] == 2
    last = [r for r in rows["ip_region_turn"] if r[2] == 3]
    assert sorted({r[4] for r in last}) == ["after_reveal", "after_score"] and len(last) == 2 * REGIONS
    assert all(r[-2] is None and r[-1] is None for r in last)  # no event known for that turn yet
    assert {r[2] for r in rows["ip_player_turn"] + rows["ip_events"]} == {1, 2}
    frames(rows, GAME)


def test_the_data_dictionary_is_generated_from_tables():
    text = (ROOT / "docs" / "data-dictionary.md").read_text(encoding="utf-8")
    found = re.search(r"^## Data dictionary: Imperial Powers\n.*?(?=^## |\Z)", text, flags=re.S | re.M)
    assert found, "docs/data-dictionary.md has no '## Data dictionary: Imperial Powers' section"
    assert found.group(0).rstrip("\n") == data_dictionary(GAME).rstrip("\n")


# ----- runs -----

def run_tables(folder: Path) -> dict[str, pa.Table]:
    return {name: pa.concat_tables([pq.read_table(path) for path in runstore.chunk_files(folder, name)])
            for name in TABLES}


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> dict:
    folder = tmp_path_factory.mktemp("ref") / "batch"
    simulate(folder, **RUN, workers=1, progress=False)
    return {"folder": folder, "tables": run_tables(folder)}


def test_a_run_is_registered_and_queryable(reference, tmp_path):
    """(The same run on Dask workers: tests/test_cluster.py, for every game.)"""
    folder, catalog = tmp_path / "batch", tmp_path / "lab.duckdb"
    result = simulate(folder, **RUN, workers=1, catalog=catalog, progress=False)
    assert result["rows"] == {"ip_games": 6, "ip_region_turn": 6 * 300, "ip_player_turn": 6 * 40,
                              "ip_events": 6 * 100}
    tables = run_tables(folder)
    for name, table in reference["tables"].items():
        assert tables[name].equals(table), f"table {name} differs"
    assert list_runs(catalog).loc[0, ["name", "games", "players", "status"]].tolist() == ["batch", 6, 4, "complete"]
    sums = query("SELECT g.game_id, list_sum(g.scores) AS total, sum(p.vp_places + p.vp_spain + p.vp_exploitation "
                 "+ p.vp_start) AS sources FROM ip_games g JOIN ip_player_turn p USING (run, game_id) "
                 "GROUP BY ALL ORDER BY g.game_id", catalog)
    assert sums["total"].tolist() == sums["sources"].tolist() and len(sums) == 6
    keys = query("SELECT count(*) AS n, count(DISTINCT (game_id, turn, region, checkpoint)) AS keys "
                 "FROM ip_region_turn", catalog)
    assert keys.iloc[0].tolist() == [1800, 1800]
    assert query("SELECT count(*) AS n FROM games", catalog)["n"][0] == 0  # Imperial 2030's views stay empty
    assert main(["query", "--catalog", str(catalog), "SELECT event, avg(hit_leader::INT) FROM ip_events "
                 "GROUP BY event"]) == 0


def test_imported_logs_give_the_same_rows(reference, tmp_path):
    games = run_tables(reference["folder"])["ip_games"].to_pandas()
    paths = []
    for game_id, log in zip(games["game_id"], games["log"]):
        paths.append(tmp_path / f"game{game_id}.jsonl")
        paths[-1].write_text(log)
    catalog = tmp_path / "lab.duckdb"
    argv = ["import", "--game", GAME, "--run", "batch", "--out", str(tmp_path / "runs" / "batch"), "--catalog",
            str(catalog), *map(str, paths)]
    assert main(argv) == 0
    imported = run_tables(tmp_path / "runs" / "batch")
    for name, table in reference["tables"].items():
        assert imported[name].to_pylist() == table.to_pylist(), f"table {name} differs"
    assert list_runs(catalog).loc[0, "status"] == "imported"
    again = import_logs(paths, "batch", out=tmp_path / "runs" / "batch", catalog=catalog)
    assert again["added"] == 0 and len(again["skipped"]) == 6


# ----- league and compare -----

LEAGUE_GAMES = 12


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    root = tmp_path_factory.mktemp("ip-league")
    catalog = root / "lab.duckdb"
    ran = league(["random"] * 3, LEAGUE_GAMES, seed=3, workers=1, out=root / "runs" / "lg", catalog=catalog,
                 progress=False, game=GAME)
    variant = root / "share.json"
    variant.write_text(json.dumps({"game": GAME, "tie_rule": "share_highest_place"}))
    simulate(root / "runs" / "share", games=LEAGUE_GAMES, players=3, setup=str(variant), bots=["random"] * 3,
             seed=4, workers=1, catalog=catalog, progress=False, rotate=True)
    games = query("SELECT * FROM ip_games ORDER BY run, game_id", catalog)
    return catalog, ran, [row._asdict() for row in games.itertuples(index=False)]


def test_league_standings_count_the_games(lab):
    _, ran, games = lab
    rows = [g for g in games if g["run"] == "lg"]
    table = standings(ran["path"])
    assert table["games"] == LEAGUE_GAMES == len(rows) and all(g["status"] == "finished" for g in rows)
    (entry,) = table["bots"]  # one entrant with three seats a game
    assert (entry["bot"], entry["games"], entry["seats"], entry["wins"]) == ("random", 12, 36, 12)
    assert entry["mean_score"] == pytest.approx(sum(sum(g["scores"]) for g in rows) / 36)
    assert [s["wins"] for s in table["seats"]] == [sum(p in list(g["winners"]) for g in rows) for p in range(3)]


def lead_changes(catalog, run: str, game_id: int) -> int:
    """The turns after which the sole VP leader differs from the last one."""
    rows = query("SELECT turn, seat, vp FROM ip_player_turn WHERE run = ? AND game_id = ? ORDER BY turn, seat",
                 catalog, [run, game_id])
    changes, leader = 0, None
    for _, turn in rows.groupby("turn"):
        top = list(turn.loc[turn["vp"] == turn["vp"].max(), "seat"])
        if len(top) == 1:
            changes += leader is not None and top[0] != leader
            leader = top[0]
    return changes


def turned(values, start: int) -> list:
    return list(values[start:]) + list(values[:start])


def test_compare_rows_count_seats_from_the_first_instigator(lab):
    catalog, _, games = lab
    result = compare.load(catalog, ["lg", "share"])
    assert result.length == "turns" and result.seats_note == "counted from the first instigator"
    rows = {(r.run, r.game_id): r for r in result.games.itertuples()}
    assert len(rows) == 2 * LEAGUE_GAMES
    for g in games:
        row, first = rows[(g["run"], g["game_id"])], g["first_instigator"]
        assert list(row.scores) == turned(g["scores"], first)
        assert row.bots == ",".join(turned(g["bots"].split(","), first))
        assert sorted(row.winners) == sorted((w - first) % 3 for w in g["winners"])
        assert row.rounds == 10
        ranked = sorted(g["scores"], reverse=True)
        assert row.margin == ranked[0] - ranked[1]
        assert row.lead_changes == lead_changes(catalog, g["run"], g["game_id"])
    report = compare.text_report(result)
    assert "seats counted from the first instigator" in report and "(turns)" in report
