"""Game tables (imperial_lab.core.tables): every recorded figure checked against the engine, step by step."""

from __future__ import annotations

import io
import json
import re
from collections import Counter
from pathlib import Path

import duckdb
import pandas as pd
import pytest

from imperial_lab.core.bots import RandomBot
from imperial_lab.core.errors import LogError
from imperial_lab.core.gamelog import replay, replay_game, write_log
from imperial_lab.core.games.imperial2030.data import NATIONS, SPACES
from imperial_lab.core.games.imperial2030.tables import TABLES
from imperial_lab.core.interface import make_game
from imperial_lab.core.play import play_game
from imperial_lab.core.tables import data_dictionary, frames, merge_rows, record_game, record_replay

ROOT = Path(__file__).resolve().parents[1]
TWO_POWERS = json.loads((ROOT / "data" / "setups" / "two_powers.json").read_text())

# name: (config, seed). Setups end at different points: the deal (step 1), the last variant pick,
# or inside new_initial_state (step 0: a fixed deal, a custom distribution).
GAMES = {
    "standard4": ({"game": "imperial2030", "players": 4}, 7),
    "variant3": ({"game": "imperial2030", "players": 3, "setup": "variant"}, 3),
    "custom4": ({"game": "imperial2030", "setup": "custom", "distribution": TWO_POWERS}, 5),
    "deal2": ({"game": "imperial2030", "players": 2, "deal": ["CN", "RU"]}, 2),
}


def bots_for(config: dict, seed: int) -> list:
    players = make_game(config).num_players
    return [RandomBot(seed * 10 + p) for p in range(players)]


class Game:
    """A game played twice from the same seeds: once plainly (its actions), once recorded."""

    def __init__(self, name: str):
        self.name = name
        self.config, self.seed = GAMES[name]
        self.played = play_game(self.config, bots_for(self.config, self.seed), self.seed)
        self.names = ["random"] * len(bots_for(self.config, self.seed))
        self.rows = record_game(self.config, bots_for(self.config, self.seed), self.names, self.seed, "test",
                                1, name)

    def table(self, name: str) -> list[dict]:
        columns = [c for c, _, _ in TABLES[name]]
        return [dict(zip(columns, row)) for row in self.rows[name]]

    def walk(self):
        """(step, state, events) on a fresh state: the setup (step 0), then after every action."""
        state = make_game(self.config).new_initial_state()
        yield 0, state, list(state.events)
        for step, (player, action) in enumerate(self.played.actions, 1):
            assert state.current_player() == player
            yield step, state, state.apply_action(action)


@pytest.fixture(scope="module", params=list(GAMES))
def game(request) -> Game:
    return Game(request.param)


@pytest.fixture(scope="module")
def standard() -> Game:
    return Game("standard4")


def ended_turns(game: Game):
    """(turn, state, turn start facts) each time a turn (0 = the setup) ends, judged by the state alone:
    the count of nation turns grows, or the game ends."""
    last, start = 0, None
    for _, state, events in game.walk():
        assert all(e.kind not in ("nation_turn", "game_ended") for e in events[:-1]), \
            "a turn must end with the last event of its action"
        if state.nation_turns > last or state.is_terminal() and start is not None:
            yield last, state, start
            start = {"nation": state.nation, "round": state.round, "gov": state.gov[state.nation],
                     "bonds": list(state.owner)}
            last = state.nation_turns
            if state.is_terminal():
                return


def assert_has(row: dict, expected: dict) -> None:
    assert {k: row[k] for k in expected} == expected


def test_turn_rows_agree_with_the_engine_state(game):
    turns = {r["turn"]: r for r in game.table("nation_turns")}
    players = {(r["turn"], r["player"]): r for r in game.table("players")}
    holdings = game.table("holdings")
    seen_space, closed = {}, []
    for turn, state, start in ended_turns(game):
        closed.append(turn)
        for p, score in enumerate(state.returns()):
            assert_has(players[turn, p], {"run": "test", "game_id": 1, "cash": state.cash[p],
                                          "swiss_bank": state.swiss[p], "score": score})
        snapshot = {(r["player"], r["nation"], r["bonds"], r["credit_sum"], r["interest"], r["governs"])
                    for r in holdings if r["turn"] == turn}
        owners = [(k // 9, k % 9 + 1, p) for k, p in enumerate(state.owner) if p >= 0]
        if turn == 0 or start["bonds"] != state.owner:
            bonds = {(p, n): tuple(b for m, b, q in owners if (m, q) == (n, p)) for n, _, p in owners}
            assert snapshot == {(p, NATIONS[n], numbers, state.credit(p, n), sum(numbers), state.gov[n] == p)
                                for (p, n), numbers in bonds.items()}
        else:
            assert not snapshot
        if turn == 0:
            continue
        n = start["nation"]
        factories = sum(state.factory[r] for r in state.board.homes[n])
        row = turns[turn]
        assert_has(row, {"round": start["round"], "nation": NATIONS[n], "government": start["gov"],
                         "rondel_from": seen_space.get(n), "space": SPACES[state.rondel[n]],
                         "power_points": state.pp[n], "power_factor": state.pf(n), "treasury": state.treasury[n],
                         "flags": state.flag_count[n], "armies": state.n_armies[n], "fleets": state.n_fleets[n],
                         "factories": factories,
                         "occupied_factories": factories - len(state.working_factories(n))})
        assert row["vetoed"] == (row["space"] != row["rondel_to"])
        assert (row["tax_revenue"] is not None) == (row["space"] == "taxation")
        seen_space[n] = row["space"]
    assert sorted(turns) == closed[1:] and sorted({t for t, _ in players}) == closed
    final = game.played.state
    assert_has(game.table("games")[0], {
        "seed": game.seed, "setup": game.name, "players": final.nplayers, "bots": ",".join(game.names),
        "rounds": final.round, "nation_turns": final.nation_turns, "decisions": game.played.decisions,
        "ended_by": NATIONS[final.end_nation], "winners": final.winners(), "scores": final.returns(),
        "status": "finished", "error": None, **{f"pp_{c}": final.pp[k] for k, c in enumerate(NATIONS)}})
    assert replay_game(game.table("games")[0]["log"].splitlines()).state.to_json() == final.to_json()


def test_events_table_is_the_event_stream(game):
    columns = ("nation", "player", "amount")
    expected, turn = [], 0
    for step, _, events in game.walk():
        for e in events:
            turn = e.data["turn"] if e.kind == "nation_turn" else turn
            rest = {k: v for k, v in e.data.items() if k not in columns}
            # JSON text, not decoded values: True == 1 in Python, and the types must survive too.
            expected.append((step, turn, e.kind, e.rule, *(e.data.get(k) for k in columns),
                             json.dumps(rest, separators=(",", ":"), ensure_ascii=False)))
    got = [(r["step"], r["turn"], r["kind"], r["rule"], *(r[k] for k in columns), r["data"])
           for r in game.table("events")]
    assert got == expected


def _money(game: Game) -> tuple[dict, dict]:
    """Cash per (turn, player) and treasury per turn at each turn's end, from the payments alone."""
    balance = Counter()
    cash, treasury = {}, {}
    events = game.table("events")
    turns = {r["turn"]: r for r in game.table("nation_turns")}
    ends = {r["turn"] for r in game.table("players")}
    for k, e in enumerate(events):
        if e["kind"] == "payment":
            data = json.loads(e["data"])
            balance[data["from"]] -= e["amount"]
            balance[data["to"]] += e["amount"]
        turn_over = k + 1 == len(events) or events[k + 1]["turn"] != e["turn"]
        if turn_over and e["turn"] in ends:
            cash.update({(e["turn"], p): balance[f"player:{p}"] for p in range(game.played.state.nplayers)})
            if e["turn"] in turns:
                treasury[e["turn"]] = balance[turns[e["turn"]]["nation"]]
    return cash, treasury


def test_payments_add_up_to_cash_and_treasuries(game):
    cash, treasury = _money(game)
    assert cash == {(r["turn"], r["player"]): r["cash"] for r in game.table("players")}
    assert treasury == {r["turn"]: r["treasury"] for r in game.table("nation_turns")}


def test_government_paid_is_every_outlay_but_bonds(game):
    """cash(end) - cash(start) = money received - government_paid - bonds bought, for the governing seat."""
    cash = {(r["turn"], r["player"]): r["cash"] for r in game.table("players")}
    flows = Counter()
    for e in game.table("events"):
        if e["kind"] == "payment":
            data = json.loads(e["data"])
            bond = data["reason"] in ("bond purchase", "bond upgrade")
            flows[e["turn"], data["to"], "in"] += e["amount"]
            flows[e["turn"], data["from"], "bonds" if bond else "out"] += e["amount"]
    for row in game.table("nation_turns"):
        t, g = row["turn"], row["government"]
        who = f"player:{g}"
        assert row["government_paid"] == flows[t, who, "out"]
        assert cash[t, g] - cash[t - 1, g] == flows[t, who, "in"] - row["government_paid"] - flows[t, who, "bonds"]


def test_holdings_add_up_to_the_bonds_sold(game):
    sold = Counter()
    for e in game.table("events"):
        if e["kind"] == "payment" and json.loads(e["data"])["reason"] in ("bond purchase", "bond upgrade"):
            sold[e["turn"]] += e["amount"]
    holdings = game.table("holdings")
    for turn in sorted({r["turn"] for r in holdings}):
        rows = [r for r in holdings if r["turn"] == turn]
        assert sum(r["credit_sum"] for r in rows) == sum(v for t, v in sold.items() if t <= turn)
        assert all(r["interest"] == sum(r["bonds"]) for r in rows)


def governments_after(changes: list[dict], turn: int) -> dict[str, int]:
    return {c["nation"]: c["new"] for c in changes if c["turn"] <= turn}


def test_control_changes_agree_with_governments(game):
    changes = game.table("control_changes")
    for k, c in enumerate(changes):
        assert c["previous"] == governments_after(changes[:k], c["turn"]).get(c["nation"])
        assert c["cause"] == ("setup" if c["turn"] == 0 else "investor")
    for row in game.table("nation_turns"):
        assert governments_after(changes, row["turn"] - 1)[row["nation"]] == row["government"]
    for row in game.table("holdings"):
        assert row["governs"] == (governments_after(changes, row["turn"]).get(row["nation"]) == row["player"])
    final = game.played.state
    assert governments_after(changes, final.nation_turns) == {NATIONS[n]: g for n, g in enumerate(final.gov) if g >= 0}


class Crash:
    """A bot that plays its first legal action, then raises at its ``after``-th decision."""

    def __init__(self, after: int):
        self.after = after

    def decide(self, state, legal_actions):
        self.after -= 1
        if self.after < 0:
            raise RuntimeError("bot crashed on purpose")
        return legal_actions[0]


def test_an_exception_in_a_game_becomes_a_failed_row():
    config, seed = {"game": "imperial2030", "players": 4}, 11
    bots = [Crash(40)] + bots_for(config, seed)[1:]
    rows = record_game(config, bots, ["crash", "random", "random", "random"], seed, "test", 3, "standard")
    (game,) = rows["games"]
    row = dict(zip([c for c, _, _ in TABLES["games"]], game))
    assert row["status"] == "failed" and row["seed"] == seed and row["bots"] == "crash,random,random,random"
    assert row["error"].startswith("RuntimeError: bot crashed on purpose (at ") and "test_tables.py" in row["error"]
    assert row["winners"] is None and row["pp_RU"] is None
    played = replay_game(row["log"].splitlines())
    assert json.loads(row["log"].splitlines()[0])["seed"] == seed
    assert not played.state.is_terminal() and played.decisions == row["decisions"]
    assert played.state.nation_turns == row["nation_turns"] == len(rows["nation_turns"]) + 1
    assert len(rows["events"]) > 0
    assert frames(rows)["games"]["status"].tolist() == ["failed"]


def test_a_game_that_cannot_start_fails_without_a_log():
    rows = record_game({"game": "imperial2030", "players": 9}, [], ["random"] * 9, 1, "test", 4, "standard")
    row = dict(zip([c for c, _, _ in TABLES["games"]], rows["games"][0]))
    assert row["status"] == "failed" and row["log"] is None and row["players"] == 9
    assert row["error"].startswith("SetupError: config.players")
    assert all(not rows[t] for t in TABLES if t != "games")


def test_replaying_a_log_records_the_same_rows(standard, tmp_path):
    path = tmp_path / "game.jsonl"
    write_log(path, standard.played, seed=standard.seed, bots=standard.names)
    assert record_replay(path, "test", 1, "standard4") == standard.rows
    lines = path.read_text().splitlines()
    assert record_replay(lines, "test", 1, "standard4") == standard.rows


def test_a_log_that_stops_early_is_unfinished(standard):
    out = io.StringIO()
    write_log(out, standard.played)  # no seed, no bots in the header
    lines = out.getvalue().splitlines()[:200]
    rows = record_replay(lines, "test", 2, "standard")
    state = replay(lines)
    row = dict(zip([c for c, _, _ in TABLES["games"]], rows["games"][0]))
    assert row["status"] == "unfinished" and row["seed"] is None and row["bots"] is None
    assert row["ended_by"] is None and row["scores"] == state.returns() and row["winners"] == state.winners()
    assert row["nation_turns"] == state.nation_turns == len(rows["nation_turns"]) + 1
    with pytest.raises(LogError, match=r"<lines>:3: "):
        record_replay(lines[:2] + ['{"player": 0, "action": "rondel nowhere"}'], "test", 2, "standard")


def test_frames_have_the_compact_dtypes_of_the_dictionary(game, standard, tmp_path):
    dfs = frames(merge_rows([game.rows, standard.rows]))
    for name, columns in TABLES.items():
        df = dfs[name]
        assert list(df.columns) == [c for c, _, _ in columns]
        assert len(df) == len(game.rows[name]) + len(standard.rows[name])
        for column, dtype, _ in columns:
            got = df[column].dtype
            if dtype == "category":
                assert isinstance(got, pd.CategoricalDtype), column
            elif dtype.startswith("list<"):
                assert str(got) == f"list<item: {dtype[5:-1]}>[pyarrow]", column
            else:
                assert str(got) == dtype, column
    events = dfs["events"]
    assert events.memory_usage(deep=True).sum() / len(events) < 200
    path = tmp_path / "games.parquet"
    dfs["games"].to_parquet(path)
    back = pd.read_parquet(path, dtype_backend="pyarrow")
    assert back["scores"].tolist() == dfs["games"]["scores"].tolist()
    games = dfs["games"]
    won = duckdb.sql("select game_id, list_contains(winners, 2) as won from games order by game_id").fetchall()
    assert won == [(g, 2 in w) for g, w in zip(games["game_id"], games["winners"])]


def test_a_value_outside_a_closed_category_is_refused(standard):
    rows = merge_rows([standard.rows])
    rows["nation_turns"] = [row[:4] + ("XX",) + row[5:] for row in rows["nation_turns"]]
    with pytest.raises(ValueError, match="column 'nation': values \\['XX'\\]"):
        frames(rows)


def test_empty_rows_make_empty_frames():
    dfs = frames(merge_rows([]))
    assert all(len(df) == 0 and len(df.columns) == len(TABLES[name]) for name, df in dfs.items())


def test_the_data_dictionary_is_generated_from_tables():
    readme = (ROOT / "docs" / "data-dictionary.md").read_text(encoding="utf-8")
    found = re.search(r"^## Data dictionary\n.*?(?=^## |\Z)", readme, flags=re.S | re.M)
    assert found, "docs/data-dictionary.md has no '## Data dictionary' section"
    assert found.group(0).rstrip("\n") == data_dictionary().rstrip("\n")
