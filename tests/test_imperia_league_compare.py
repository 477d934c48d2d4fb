"""`imperial league` and `imperial compare` on Imperia's tables (core/league.py, core/compare.py with
imperial_lab.core.games.imperia.tables.COMPARE): the standings and the per-game rows equal counts made here in
plain Python from the rows of `im_games` and `im_player_state`; seats are counted from the start
player; runs of two games are not compared together."""

from __future__ import annotations

import json

import pytest

from imperial_lab.core import compare
from imperial_lab.core.catalog import query
from imperial_lab.core.league import league, standings
from imperial_lab.core.runstore import RunError
from imperial_lab.core.simulate import simulate

GAMES = 16


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    root = tmp_path_factory.mktemp("imperia-league")
    catalog = root / "lab.duckdb"
    ran = league(["heuristic", "random"], GAMES, seed=3, workers=1, out=root / "runs" / "lg", catalog=catalog,
                 progress=False, game="imperia")
    variant = root / "distance2.json"
    variant.write_text(json.dumps({"game": "imperia", "fortress_min_distance": 2}))
    simulate(root / "runs" / "d2", games=GAMES, players=2, setup=str(variant), bots=["heuristic", "random"], seed=4,
             workers=1, catalog=catalog, progress=False, rotate=True)
    games = query("SELECT * FROM im_games ORDER BY run, game_id", catalog)
    return catalog, ran, [row._asdict() for row in games.itertuples(index=False)]


def test_league_standings_count_imperias_games(lab):
    catalog, ran, games = lab
    rows = [g for g in games if g["run"] == "lg"]
    assert len(rows) == GAMES and all(g["status"] == "finished" for g in rows)
    table = standings(ran["path"])
    assert table["games"] == GAMES
    for entry in table["bots"]:
        seats = [(g, g["bots"].split(",").index(entry["bot"])) for g in rows]
        assert entry["wins"] == sum(seat in list(g["winners"]) for g, seat in seats)
        assert entry["mean_score"] == pytest.approx(sum(g["totals"][seat] for g, seat in seats) / GAMES)
    assert [s["games"] for s in table["seats"]] == [GAMES, GAMES]  # the seats rotate: each bot plays both


def turned(values, start):
    return list(values[start:]) + list(values[:start])


def lead_changes(catalog, run, game_id):
    """The turns after which the sole leader on the provisional score differs from the last one."""
    rows = query("SELECT turn, ply, seat, total FROM im_player_state WHERE run = ? AND game_id = ? AND turn > 0 "
                 "ORDER BY turn, ply, seat", catalog, [run, game_id])
    last_ply = rows.groupby("turn")["ply"].transform("max")
    changes, leader = 0, None
    for _, turn in rows[rows["ply"] == last_ply].groupby("turn"):
        best = turn["total"].max()
        top = list(turn.loc[turn["total"] == best, "seat"])
        if len(top) == 1:
            changes += leader is not None and top[0] != leader
            leader = top[0]
    return changes


def test_compare_rows_turn_seats_to_the_start_player(lab):
    catalog, _, games = lab
    result = compare.load(catalog, ["lg", "d2"])
    assert result.length == "turns" and "start player" in result.seats_note
    rows = {(r.run, r.game_id): r for r in result.games.itertuples()}
    assert len(rows) == 2 * GAMES
    for g in games:
        row, start = rows[(g["run"], g["game_id"])], g["start_seat"]
        assert list(row.scores) == turned(g["totals"], start)
        assert row.bots == ",".join(turned(g["bots"].split(","), start))
        assert sorted(row.winners) == sorted((w - start) % 2 for w in g["winners"])
        assert row.rounds == g["turns"]
        assert row.margin == abs(g["totals"][0] - g["totals"][1])
        assert row.lead_changes == lead_changes(catalog, g["run"], g["game_id"])
    assert sorted(result.cells["setup"], key=len)[0] == "default"  # a setup file is labelled by its path
    assert sorted(result.cells["setup"], key=len)[1].endswith("distance2.json")
    report = compare.text_report(result)
    assert "seats counted from the start player" in report and "(turns)" in report


def test_runs_of_two_games_are_not_compared_together(lab, tmp_path):
    catalog, _, _ = lab
    simulate(tmp_path / "i2030", games=2, players=2, setup="standard", bots=["random", "random"], seed=1,
             workers=1, catalog=catalog, progress=False)
    with pytest.raises(RunError, match=r"different games \(imperia, imperial2030\)"):
        compare.load(catalog, ["lg", "i2030"])
