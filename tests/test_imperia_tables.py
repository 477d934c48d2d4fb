"""Imperia's tables (RULES.md §10, core/games/imperia/tables.py): every recorded figure checked against
the engine, a run on a local Dask cluster registered and queried by SQL, resume after a kill, and a
recorded log imported into the same rows."""

from __future__ import annotations

import re
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from imperial_lab.core import runstore
from imperial_lab.core.bots import make_bot
from imperial_lab.core.catalog import list_runs, query
from imperial_lab.core.cli import main
from imperial_lab.core.games.imperia.rules import components
from imperial_lab.core.games.imperia.scoring import tallies
from imperial_lab.core.games.imperia.pending import P_TURN
from imperial_lab.core.games.imperia.tables import TABLES
from imperial_lab.core.imports import import_logs
from imperial_lab.core.interface import CHANCE, make_game
from imperial_lab.core.play import play_game
from imperial_lab.core.simulate import simulate
from imperial_lab.core.tables import data_dictionary, frames, merge_rows, record_game

ROOT = Path(__file__).resolve().parents[1]
# name: (config, bots, seed)
GAMES = {
    "random3": ({"game": "imperia", "players": 3}, "random", 7),
    "random2": ({"game": "imperia", "players": 2}, "random", 11),
    "heuristic4": ({"game": "imperia", "players": 4}, "heuristic", 3),
}
RUN = dict(games=6, players=3, setup="default", bots=["random"] * 3, seed=5, chunk_size=2, game="imperia")


class Game:
    """One game played twice from the same seeds: plainly (its actions), and recorded."""

    def __init__(self, name: str):
        self.config, bot, self.seed = GAMES[name]
        self.n = make_game(self.config).num_players
        self.names = [bot] * self.n
        self.played = play_game(self.config, self.bots(), self.seed)
        self.rows = record_game(self.config, self.bots(), self.names, self.seed, "test", 0, "default")

    def bots(self) -> list:
        return [make_bot(name, self.seed * 100 + p, "imperia") for p, name in enumerate(self.names)]

    def table(self, name: str) -> list[dict]:
        columns = [c for c, _, _ in TABLES[name]]
        return [dict(zip(columns, row)) for row in self.rows[name]]

    def states(self):
        """(ply, state) after every action, on a fresh state."""
        state = make_game(self.config).new_initial_state()
        for ply, (_, action) in enumerate(self.played.actions, 1):
            state.apply_action(action)
            yield ply, state


@pytest.fixture(scope="module", params=sorted(GAMES))
def game(request) -> Game:
    return Game(request.param)


def test_one_ply_row_per_action(game):
    plies = game.table("im_plies")
    state = game.played.state
    assert len(plies) == len(game.played.actions) == state.ply
    assert [r["ply"] for r in plies] == list(range(1, state.ply + 1))
    for row, (player, action) in zip(plies, game.played.actions):
        assert row["action"] == state.action_to_string(action)
        assert row["chance"] == (player == CHANCE)
        assert row["seat"] == (action[1] if row["kind"] == "draw" else None if player == CHANCE else player)
    placements = [r for r in plies if r["kind"] in ("place", "warlord")]
    assert len(placements) == game.table("im_games")[0]["turns"] == plies[-1]["turn"]
    assert sum(r["how"] == "battle" for r in placements) == sum(state.battles)
    assert sum(r["move"] == "campaign" for r in placements) == sum(state.campaigns)
    assert sum(r["move"] in ("warlord_next", "warlord_front") for r in placements) == game.n


def test_player_state_per_seat_after_every_action_of_play(game):
    rows = game.table("im_player_state")
    first = next(ply for ply, state in game.states() if state.phase >= P_TURN)  # the end of the setup
    assert len(rows) == game.n * (game.played.state.ply - first + 1)
    by_ply = {}
    for row in rows:
        by_ply.setdefault(row["ply"], []).append(row)
    for ply, state in game.states():
        if ply < first:
            assert ply not in by_ply
            continue
        seats = by_ply[ply]
        assert [r["seat"] for r in seats] == list(range(game.n))
        for p, (row, tally) in enumerate(zip(seats, tallies(state))):
            assert (row["total"], row["raw"], row["ring"], row["penalty"]) == (tally.total, tally.raw, tally.ring,
                                                                               tally.penalty)
            assert row["formation"] == len(tally.formation)
            own = [s for s in range(64) if state.stacks[s] and state.stacks[s][-1] >> 4 == p]
            assert row["controlled"] == len(own)
            assert row["anchored"] == sum(a for _, a in components(state, p))
            assert row["tallest"] == max((len(state.stacks[s]) for s in own), default=0)
            assert row["units_left"] == sum(state.hand[p]) + sum(state.pile[p])
            assert (row["hand_gen"], row["hand_cav"], row["hand_inf"]) == tuple(
                sum(state.hand[p][k:k + 2]) for k in (0, 2, 4))
            assert (row["campaigns"], row["battles_won"]) == (state.campaigns[p], state.battles[p])
            assert (row["warlord_ply"] is not None) == (state.warlord[p] >= 0)
    last = by_ply[game.played.state.ply]
    assert [r["total"] for r in last] == game.played.state.returns()
    lost = sum(r["battles_lost"] for r in last)
    assert lost == sum(game.played.state.battles)  # every battle has a loser


def test_broke_formation_is_a_smaller_formation(game):
    sizes = {(r["ply"], r["seat"]): r["formation"] for r in game.table("im_player_state")}
    for row in game.table("im_plies"):
        if row["broke_formation"] is not None:
            before = max(p for p, s in sizes if s == row["seat"] and p < row["ply"])
            assert row["broke_formation"] == (sizes[row["ply"], row["seat"]] < sizes[before, row["seat"]])


def test_space_final_is_the_last_board(game):
    state = game.played.state
    spaces = game.table("im_space_final")
    assert [r["space"] for r in spaces] == list(range(64))
    tally = tallies(state)
    for row in spaces:
        stack = state.stacks[row["space"]]
        assert row["height"] == len(stack) and (row["row"], row["col"]) == divmod(row["space"], 8)
        assert row["owner"] == (stack[-1] >> 4 if stack else None)
        assert row["scored"] == (bool(stack) and row["space"] in tally[row["owner"]].formation)
    for p, t in enumerate(tally):
        mine = [r for r in spaces if r["scored"] and r["owner"] == p]
        assert len(mine) == len(t.formation) and sum(r["value"] for r in mine) == t.raw
        assert sum(r["ring"] for r in mine) == t.ring
    assert sorted(r["space"] for r in spaces if r["fortress"] is not None) == sorted(state.fortress)
    assert sum(r["covered"] for r in spaces) == bin(state.game.covered).count("1")


def test_the_games_row_is_the_result(game):
    (row,) = game.table("im_games")
    state = game.played.state
    assert row["status"] == "finished" and row["error"] is None
    assert list(row["winners"]) == state.winners() and list(row["totals"]) == state.returns()
    assert row["draw"] == (len(state.winners()) > 1)
    assert [r + g - p for r, g, p in zip(row["raw"], row["ring"], row["penalty"])] == list(row["totals"])
    assert row["plies"] == state.ply and row["decisions"] == game.played.decisions
    assert list(row["fortresses"]) == state.fortress and sorted(row["fortress_order"]) == list(range(game.n))
    assert len(row["boards"]) == len(row["board_placers"]) == 4 and row["start_seat"] == state.start
    assert row["fortress_order"][0] == row["board_placers"][-1]  # the last board placer goes first (§3.3)
    assert row["bots"] == ",".join(game.names) and row["seed"] == game.seed


def test_frames_take_every_row_and_the_log_replays(game, tmp_path):
    dfs = frames(game.rows, "imperia")
    assert {name: len(df) for name, df in dfs.items()} == {name: len(rows) for name, rows in game.rows.items()}
    log = tmp_path / "game.jsonl"
    log.write_text(dfs["im_games"].loc[0, "log"])
    assert main(["replay", str(log)]) == 0


def test_an_exception_in_a_game_becomes_a_failed_row():
    class Broken:
        def decide(self, state, legal):
            if state.ply > 30:
                raise RuntimeError("bot broke")
            return legal[0]

    rows = record_game({"game": "imperia", "players": 3}, [Broken()] * 3, ["broken"] * 3, 1, "t", 0, "default")
    (row,) = rows["im_games"]
    columns = [c for c, _, _ in TABLES["im_games"]]
    row = dict(zip(columns, row))
    assert row["status"] == "failed" and "bot broke" in row["error"] and row["winners"] is None
    assert row["log"].count("\n") == 1 + len(rows["im_plies"]) and not rows["im_space_final"]
    frames(rows, "imperia")  # nulls fit the dtypes


def test_the_data_dictionary_is_generated_from_tables():
    text = (ROOT / "docs" / "data-dictionary.md").read_text(encoding="utf-8")
    found = re.search(r"^## Data dictionary: Imperia\n.*?(?=^## |\Z)", text, flags=re.S | re.M)
    assert found, "docs/data-dictionary.md has no '## Data dictionary: Imperia' section"
    assert found.group(0).rstrip("\n") == data_dictionary("imperia").rstrip("\n")


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
    assert result["rows"]["im_games"] == 6 and result["rows"]["im_space_final"] == 6 * 64
    tables = run_tables(folder)
    for name, table in reference["tables"].items():
        assert tables[name].equals(table), f"table {name} differs"
    assert list_runs(catalog).loc[0, ["name", "games", "players", "status"]].tolist() == ["batch", 6, 3, "complete"]
    seats = query("SELECT g.game_id, count(*) AS seats, max(s.total) AS best, any_value(g.totals) AS totals "
                  "FROM im_games g JOIN im_player_state s USING (run, game_id) "
                  "WHERE s.ply = g.plies GROUP BY g.game_id ORDER BY g.game_id", catalog)
    assert seats["seats"].tolist() == [3] * 6
    assert all(best == max(totals) for best, totals in zip(seats["best"], seats["totals"]))
    assert query("SELECT count(*) AS n FROM im_space_final", catalog)["n"][0] == 6 * 64
    assert query("SELECT count(*) AS n FROM games", catalog)["n"][0] == 0  # Imperial 2030's views stay empty
    assert main(["query", "--catalog", str(catalog), "SELECT count(*) AS n FROM im_plies WHERE kind = 'place'"]) == 0

    from imperial_lab.dashboard import queries
    assert queries.runs(catalog).set_index("name").loc["batch", "game"] == "imperia"


def test_an_imported_log_gives_the_same_rows(reference, tmp_path):
    games = run_tables(reference["folder"])["im_games"].to_pandas()
    paths = []
    for game_id, log in zip(games["game_id"], games["log"]):
        paths.append(tmp_path / f"game{game_id}.jsonl")
        paths[-1].write_text(log)
    catalog = tmp_path / "lab.duckdb"
    result = import_logs(paths, "batch", out=tmp_path / "runs" / "batch", catalog=catalog, game="imperia")
    assert result["added"] == 6 and not result["errors"]
    imported = run_tables(tmp_path / "runs" / "batch")
    for name, table in reference["tables"].items():
        assert imported[name].to_pylist() == table.to_pylist(), f"table {name} differs"
    assert list_runs(catalog).loc[0, "status"] == "imported"


def test_merge_rows_of_many_games_keeps_each_table():
    rows = [record_game({"game": "imperia", "players": 2}, [make_bot("random", 100 * g + p, "imperia")
                                                            for p in range(2)], ["random"] * 2, g, "t", g, "default")
            for g in range(3)]
    merged = merge_rows(rows, "imperia")
    assert len(merged["im_games"]) == 3 and len(merged["im_space_final"]) == 3 * 64
