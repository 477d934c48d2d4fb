"""The Compare page through Streamlit's AppTest (dashboard/games/imperial2030/views/compare.py, issues 9, 23
and 24): the verdict first, in the words and figures ``imperial compare --json`` gives for the same runs
and margin; the ladder chart, a rung per line-up weakest first; the glossary and the tables' tooltips;
findings with their replication, a reversal flagged; the replicate button; the bots of cells with
several; a grid of rungs played from the form."""

from __future__ import annotations

import re
import shutil

import numpy as np
import pandas as pd
import pytest

from imperial_lab.core import compare, ladder
from imperial_lab.core.analysis import start_chances
from imperial_lab.core.setups import load_setup
from imperial_lab.core.catalog import list_runs
from imperial_lab.dashboard import cache, simulations
from tests.lab_fixtures import league_lab  # noqa: F401 (a fixture)
from tests.test_dashboard_app import (COMPARE_CHARTS, COMPARE_OPENED, on_lab, setups, start,  # noqa: F401 (fixtures)
                                      values)

SHOWN = {"fair": "✓ fair", "unfair": "✗ unfair", "undecided": "? too few games"}
ROTATING = "one search seat (rotating) among heuristics"
STRONG = "the win-chance bot (greedy) in every seat"
MODEL_ROW = "start chance (model)"
SECTIONS = ["Verdict", "Who wins: each setup along the ladder", "Findings",
            "Per game: length, lead changes, margin, scores", "The setups' structure", "Every test"]


@pytest.fixture
def fresh_comparisons():
    """The cached comparisons are dropped before and after: a test that changes how they are computed
    must not see, or leave, another test's."""
    cache._comparison.clear()
    yield
    cache._comparison.clear()


def unescaped(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def shown_verdicts(at) -> list[str]:
    """The verdict's sentences as the page shows them (icon and markdown escapes undone)."""
    return [unescaped(re.sub(r"^:material/\w+: ", "", m.value)).removesuffix(f" [{compare.NOT_REPLICATED}]")
            for m in at.markdown if m.value.startswith(":material/")]


def shown_findings(at) -> list[str]:
    """The findings' texts as the page shows them, in its numbering (markdown escapes undone)."""
    found = {}
    for element in [*at.markdown, *at.warning]:
        for number, text in re.findall(r"\*\*(\d+)\.\*\* (.*?)  \n", element.value):
            found[int(number)] = unescaped(text)
    return [found[i] for i in sorted(found)]


def table_with(at, column: str) -> pd.DataFrame:
    return next(frame.value for frame in at.dataframe if column in frame.value.columns)


def ladder_figure(at) -> dict:
    """The first chart's figure as the page sent it (Plotly sends numbers as base64 typed arrays)."""
    import base64
    import json

    def decoded(value):
        if isinstance(value, dict) and "bdata" in value:
            return np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"]).tolist()
        return value

    figure = json.loads(at.get("plotly_chart")[0].proto.spec)
    return [{key: decoded(value) for key, value in trace.items()} for trace in figure["data"]]


def test_the_verdict_comes_first_in_the_words_of_imperial_compare(on_lab):
    at = start("compare.py")
    assert sorted(at.multiselect(key="compare_runs").value) == sorted(on_lab.runs)
    assert values(at.subheader) == SECTIONS
    expected = compare.to_json(compare.load(on_lab.catalog, on_lab.runs))
    assert shown_verdicts(at) == expected["summary"]  # every setup, then every pair of setups
    assert shown_verdicts(at)[0].startswith("standard: ")
    cells = table_with(at, "verdict")
    assert list(cells["lineup"]) == ["random", "random"] and list(cells["n"]) == [12, 12]
    assert list(cells["verdict"]) == [SHOWN[c["verdict"]] for c in expected["cells"]]
    shares = table_with(at, "Player A")
    shares = shares[shares["lineup"] != MODEL_ROW]  # the win-chance model's rows: their own test
    assert list(shares["Player A"].str.split(" ").str[0].astype(float)) == pytest.approx(
        [round(100 * c["seats"][0]["win_share"], 1) for c in expected["cells"]])
    assert len(at.get("plotly_chart")) == COMPARE_CHARTS
    tests = table_with(at, "adjusted_p")
    assert list(tests["adjusted_p"]) == pytest.approx([t["adjusted_p"] for t in expected["tests"]])
    assert shown_findings(at) == [f["text"] for f in expected["findings"]]
    structure = next(e for e in at.expander if e.label == "three_nations_each")
    assert any(m.value.startswith("**Weak points:**") for m in structure.markdown)
    at.multiselect(key="compare_runs").set_value([]).run()
    assert not at.exception and not at.get("plotly_chart")
    assert values(at.info) == ["Choose one or more runs to compare (say one per setup and line-up), or play a new "
                               "comparison above."]


def chart_titles(at) -> list[str]:
    import json

    return [json.loads(chart.proto.spec)["layout"]["title"]["text"] for chart in at.get("plotly_chart")]


def test_the_figures_below_the_verdict_are_drawn_when_their_expanders_open(on_lab):
    """The first view draws the ladder alone; the starting governments' win rates and the per-game
    charts are worked out when their expanders are opened (a rerun), and closing them drops them."""
    at = start("compare.py")
    assert chart_titles(at) == ["A seat's share of the wins as the players get stronger"]
    labels = [e.label for e in at.expander]
    assert "Who wins with each starting government" in labels
    assert "Charts: how long the games last, lead changes, margins, each seat's score" in labels
    at.session_state["compare_governments"] = True
    at.session_state["compare_per_game"] = True
    at.run()
    assert not at.exception
    titles = chart_titles(at)
    assert len(titles) == COMPARE_CHARTS + COMPARE_OPENED
    assert "Win rate of the player governing each nation at the start" in titles
    assert "Score advantage by seat (score − the game's mean)" in titles
    at.session_state["compare_governments"] = False
    at.run()
    assert "Win rate of the player governing each nation at the start" not in chart_titles(at)


def test_each_seats_start_chance_from_the_win_chance_model_stands_beside_the_measured_shares(on_lab):
    """After each setup's cells, the share table holds a row of its seats' chances at the start by the
    win-chance model (imperial_lab.core.analysis.start_chances), and a sentence says it in words."""
    at = start("compare.py")
    shares = table_with(at, "Player A")
    model = shares[shares["lineup"] == MODEL_ROW]
    assert list(shares["lineup"]) == ["random", MODEL_ROW, "random", MODEL_ROW]  # each beside its setup's cells
    assert list(model["setup"]) == ["standard", "three_nations_each"]
    sentences = [text for text in map(unescaped, values(at.markdown)) if "the win-chance model gives" in text]
    assert len(sentences) == 2
    for (_, row), setup, sentence in zip(model.iterrows(), ("standard", "three_nations_each"), sentences):
        chances = start_chances(load_setup(setup, 4, game="imperial2030"))
        assert [float(row[f"Player {seat}"]) for seat in "ABCD"] == pytest.approx([round(100 * p, 1) for p in chances])
        best = max(range(4), key=chances.__getitem__)
        assert sentence.startswith(f"{setup}: the win-chance model gives Player {'ABCD'[best]} "
                                   f"{100 * chances[best]:.0f}% at the start (")
        assert abs(sum(chances) - 1) < 1e-6


def test_a_glossary_and_tooltips_say_what_each_statistic_means(on_lab):
    at = start("compare.py")
    words = next(e for e in at.expander if e.label == "What the words mean").markdown[0].value
    for word in compare.GLOSSARY:
        assert f"**{word}**" in unescaped(words)
    assert at.number_input(key="compare_margin").help == compare.GLOSSARY["margin"]
    assert at.button(key="compare_replicate").help


def test_the_margin_changes_the_verdict_as_the_command_would(on_lab, fresh_comparisons):
    at = start("compare.py")
    at.number_input(key="compare_margin").set_value(20.0).run()
    assert not at.exception
    assert shown_verdicts(at) == compare.summary(compare.load(on_lab.catalog, on_lab.runs, 0.2))
    assert "within ±20 points" in at.caption[next(i for i, c in enumerate(at.caption)
                                                  if c.value.startswith("Fair means"))].value


def ladder_rows(runs) -> pd.DataFrame:
    """Per-game rows of one setup under three rungs: seat B's share grows from 25% to 60%."""
    rows = []
    for run, bot, b_wins in ((runs[0], "random", 100), (runs[1], "heuristic", 160), (runs[2], "heuristic:temperature=0",
                                                                                      240)):
        for game in range(400):
            winner = 1 if game < b_wins else (0, 2, 3)[game % 3]
            scores = [30, 30, 30, 30]
            scores[winner] = 40
            rows.append({"run": run, "game_id": game, "setup": "standard", "players": 4, "bots": ",".join([bot] * 4),
                         "winners": [winner], "scores": scores, "rounds": 12, "margin": 10, "lead_changes": 2})
    return pd.DataFrame(rows)


def test_the_ladder_chart_shows_each_seat_up_the_ladder(on_lab, monkeypatch):
    runs = ("r0", "r2", "r4")
    built = compare.build(ladder_rows(runs), {"r0": "random ×4", "r2": "heuristic ×4",
                                              "r4": "heuristic:temperature=0 ×4"})
    monkeypatch.setattr(cache, "compare", lambda catalog, chosen, margin=None: built)
    at = start("compare.py")
    assert not at.exception
    figure = ladder_figure(at)
    seats = [trace for trace in figure if trace["type"] == "scatter"]
    assert [trace["name"] for trace in seats] == ["Player A", "Player B", "Player C", "Player D"]
    assert seats[1]["x"] == ["random", "heuristic t=0.3", "heuristic t=0"]  # weakest first
    assert seats[1]["y"] == pytest.approx([0.25, 0.4, 0.6])
    assert "Player B's edge grows: 25.0% → 60.0%" in shown_verdicts(at)[0]
    assert table_with(at, "verdict")["lineup"].tolist() == ["random", "heuristic t=0.3", "heuristic t=0"]


def reversing_games(runs: tuple[str, str]) -> pd.DataFrame:
    """Per-game rows of two runs of one setup: seat A wins 60 of 100 games under the heuristic bots and
    5 of 100 under the random ones, so the seat's edge found under one line-up reverses under the other."""
    rng = np.random.default_rng(7)
    rows = []
    for run, bot, a_wins in ((runs[0], "heuristic", 60), (runs[1], "random", 5)):
        for game in range(100):
            winner = 0 if game < a_wins else 1 + game % 3
            scores = [int(x) for x in rng.integers(20, 40, 4)]
            scores[winner] = max(scores) + 1 + int(rng.integers(0, 6))
            top = sorted(scores, reverse=True)
            rows.append({"run": run, "game_id": game, "setup": "standard", "players": 4, "bots": ",".join([bot] * 4),
                         "winners": [winner], "scores": scores, "rounds": int(rng.integers(10, 20)),
                         "margin": top[0] - top[1], "lead_changes": int(rng.integers(0, 5))})
    return pd.DataFrame(rows)


def test_a_finding_that_reverses_between_line_ups_is_flagged(on_lab, monkeypatch):
    runs = tuple(sorted(on_lab.runs))
    built = compare.build(reversing_games(runs), {runs[0]: "heuristic ×4", runs[1]: "random ×4"})
    expected = compare.to_json(built)["findings"]
    assert any(f["reverses"] for f in expected)
    monkeypatch.setattr(cache, "compare", lambda catalog, chosen, margin=None: built)
    at = start("compare.py")
    assert not at.exception
    assert shown_findings(at) == [f["text"] for f in expected]
    flagged = [w.value for w in at.warning if "Reverses between line-ups" in w.value]
    assert len(flagged) == sum(f["reverses"] for f in expected)
    assert flagged[0].startswith("⚠") and "REVERSES under random ×4" in unescaped(flagged[0])
    assert compare.NOT_REPLICATED in unescaped(flagged[0])


def test_the_replicate_button_plays_fresh_seeds_and_the_page_reads_them(lab, setups, tmp_path, monkeypatch):  # noqa: F811
    catalog = tmp_path / "lab.duckdb"
    shutil.copy(lab.catalog, catalog)
    monkeypatch.setenv("IMPERIAL_LAB_CATALOG", str(catalog))
    at = start("compare.py")
    at.multiselect(key="compare_runs").set_value([lab.runs[0]]).run()
    at.button(key="compare_replicate").click().run()
    assert not at.exception
    names = set(list_runs(catalog)["name"])
    assert compare.replicate_name(lab.runs[0]) in names and compare.replicate_name(lab.runs[1]) not in names
    assert at.multiselect(key="compare_runs").value == [lab.runs[0]]  # the replicate is read beside, not chosen
    assert any("Replicates of 1 runs were read" in c.value for c in at.caption)
    expected = compare.load(catalog, [lab.runs[0]])
    assert expected.replicate is not None
    assert shown_verdicts(at)[0].split(" [")[0] == compare.summary(expected)[0].split(" [")[0]


def test_compare_page_shows_each_bot_of_the_cells_of_several(league_lab, setups, monkeypatch):  # noqa: F811
    """The league (three bots turned through the seats) and the run whose bots keep their seats are two
    line-ups of the standard setup: both get shares of the wins per bot, with their fair shares."""
    monkeypatch.setenv("IMPERIAL_LAB_CATALOG", str(league_lab.catalog))
    at = start("compare.py")
    at.multiselect(key="compare_runs").set_value(list(league_lab.runs)).run()
    assert not at.exception
    league, fixed = (compare.load(league_lab.catalog, [run]).lineups[0] for run in league_lab.runs)
    assert sorted(table_with(at, "verdict")["lineup"]) == sorted([league, fixed])
    bots = table_with(at, "bot")
    assert sorted(zip(bots["lineup"], bots["bot"])) == sorted(
        [(league, "heuristic"), (league, "heuristic:temperature=0"), (league, "random"), (fixed, "heuristic"),
         (fixed, "random")])
    assert len(at.get("plotly_chart")) == COMPARE_CHARTS + 1  # and the chart per bot


def test_the_form_plays_rungs_of_the_ladder_and_a_search_seat(lab, setups, tmp_path, monkeypatch):  # noqa: F811
    """The form's line-ups are the ladder's rungs and a rotating search seat among heuristics: a rung
    plays its bot in every seat; the search seat's cells play the search games and get win shares per
    bot. A spec that is not a bot is one error, before anything is played."""
    catalog = tmp_path / "lab.duckdb"
    shutil.copy(lab.catalog, catalog)  # runs played here go to tmp_path/runs
    monkeypatch.setenv("IMPERIAL_LAB_CATALOG", str(catalog))
    at = start("compare.py")
    assert ladder.rungs()[-1] == "greedy"  # the top rung, named in words
    assert at.multiselect(key="new_lineups").options == [ladder.rung_words(spec) for spec in ladder.rungs()[:-1]] + [
        STRONG, ROTATING]
    at.multiselect(key="new_setups").set_value(["standard"])
    at.multiselect(key="new_lineups").set_value([ROTATING])
    at.text_input(key="new_budget").input("mcts:playouts=0")
    at.button[0].click().run()
    assert not at.exception
    assert at.error[0].value.startswith("The comparison could not be played.")
    assert "playouts" in at.error[0].value and not (tmp_path / "runs").exists()
    at.text_input(key="new_budget").input("mcts:playouts=1")  # a tiny budget: a fast test
    at.multiselect(key="new_lineups").set_value(["heuristic t=0", ROTATING])
    at.number_input(key="new_games").set_value(3)
    at.number_input(key="new_search_games").set_value(2)
    at.button[0].click().run()
    assert not at.exception
    played = ["standard-heuristic_temperature=0-3-s1", "standard-mcts_playouts=1+heuristic-rot-2-s1"]
    assert at.multiselect(key="compare_runs").value == played  # two runs or more: a comparison of their own
    assert list_runs(catalog).set_index("name").loc[played, "games"].tolist() == [3, 2]
    lineup = "league of mcts:playouts=1, heuristic ×3"
    assert table_with(at, "verdict")["lineup"].tolist() == ["heuristic t=0", lineup]
    bots = table_with(at, "bot")
    assert sorted(zip(bots["lineup"], bots["bot"])) == [(lineup, "heuristic"), (lineup, "mcts:playouts=1")]


def test_the_form_offers_the_win_chance_bot_in_every_seat_with_the_slow_cells_games(lab, setups, monkeypatch):  # noqa: F811
    """The strong line-up of the form is the learned evaluator's greedy bot in every seat; its cells
    play the slow cells' number of games, and the help says what a search line-up would cost."""
    monkeypatch.setenv("IMPERIAL_LAB_CATALOG", str(lab.catalog))
    asked = []
    monkeypatch.setattr(simulations, "simulate_grid", lambda catalog, setups, lineups, games, search_games, seed, **_:
                        asked.append((setups, lineups, games, search_games)) or [])
    at = start("compare.py")
    assert STRONG not in at.multiselect(key="new_lineups").value  # slow: not chosen at first
    assert "about a second a decision" in at.multiselect(key="new_lineups").help
    at.multiselect(key="new_setups").set_value(["standard"])
    at.multiselect(key="new_lineups").set_value([STRONG])
    at.number_input(key="new_games").set_value(50)
    at.number_input(key="new_search_games").set_value(4)
    at.button[0].click().run()
    assert not at.exception
    [(setups_asked, lineups, games, search_games)] = asked
    assert setups_asked == ["standard"] and lineups == [simulations.every_seat("greedy")]
    assert lineups[0].search and (games, search_games) == (50, 4)  # a slow cell: it plays 4 games, not 50
    assert simulations.run_name("standard", lineups[0], 4, 1) == "standard-greedy-4-s1"

