"""The parts every game's runs page shares (Imperia's, Imperial Powers'): the game's run the sidebar
picked (imperial_lab.dashboard.frame), the player count to compare, and the line that says n, what
was left out and which bots played (what a page finds holds for those bots only). No game is
imported here."""

from __future__ import annotations

import streamlit as st

from imperial_lab.core.bots import lineup_text
from imperial_lab.core.errors import ImperialError
from imperial_lab.core.registry import plugin
from imperial_lab.dashboard import cache, frame


def show(title: str, game: str, players_key: str, make_one: str, overview, parts) -> None:
    """A runs page: ``title``, the top (``open_run``), then each of ``parts`` (``part(catalog, run,
    players)``: a finding of the run, drawn)."""
    st.title(title)
    catalog = frame.catalog_path()
    opened = open_run(catalog, game, players_key, make_one, overview)
    if opened is None:
        return
    for part in parts:
        part(catalog, *opened)


def open_run(catalog, game: str, players_key: str, make_one: str, overview) -> tuple[str, int] | None:
    """The top of a runs page: the run of ``game`` the sidebar picked and the player count to compare
    (``players_key``: its widget's key), with the scope line, as ``(run, players)``; None when there
    is nothing to show (said why). ``overview(catalog, run)`` is the page's query of the run's games by
    players, status and bots."""
    row = chosen_run(catalog, game, make_one)
    if row is None:
        return None
    try:
        games = cache.load(overview, catalog, row.name)
    except ImperialError as exc:  # e.g. a run folder that has gone since it was registered
        frame.show_error(f"The games of {frame.code_span(row.name)} cannot be read.", exc)
        return None
    players = choose_players(games, players_key)
    if players is None:
        st.info(f"Run {row.name} has no finished game yet.")
        return None
    scope(games, players, row)
    return row.name, players


def chosen_run(catalog, game: str, make_one: str):
    """The run of ``game`` the sidebar picked (a row of the runs table), or None (said what to do) when
    the catalogue has none. ``make_one`` is a command that plays one (after ``.venv/bin/``)."""
    runs = frame.game_runs(catalog, game).set_index("name")
    name = frame.selected_run()
    if name not in runs.index:
        name = frame.default_run(runs.reset_index())
    if name is None:
        st.info(f"The catalogue has no {plugin(game).title} run. Play one, e.g.\n\n"
                f"```bash\n.venv/bin/{make_one}\n```\n\n(`--catalog` or `IMPERIAL_LAB_CATALOG` names the "
                "catalogue; this page reads the one the sidebar names), then reload this page.")
        return None
    st.caption(f"Run **{name}** (the sidebar picks another)")
    return runs.loc[name]


def choose_players(overview, key: str) -> int | None:
    """The player count compared: the only one of the run's finished games, or the one chosen."""
    finished = overview[overview["status"] == "finished"]
    counts = sorted(int(n) for n in finished["players"].unique())
    if not counts:
        return None
    if len(counts) == 1:
        return counts[0]
    return st.selectbox("Players", counts, key=key, help="the run holds games of several player counts: "
                                                         "each is compared on its own")


def scope(overview, players: int, row) -> None:
    """n, what is left out, and the bots the findings hold for."""
    mine = overview[overview["players"] == players]
    finished = int(mine.loc[mine["status"] == "finished", "games"].sum())
    left = {status: int(part["games"].sum()) for status, part in mine.groupby("status") if status != "finished"}
    out = "; ".join(f"{n} {status} left out" for status, n in left.items() if n)
    lineups = sorted({str(b) for b in mine["bots"].dropna()}) or ["unknown (imported games that do not say)"]
    bots = lineup_text(row["bots"], row["rotate"]) if len(lineups) == 1 and isinstance(row["bots"], str) \
        else ", ".join(lineups)
    st.markdown(f"**{finished} finished games of {players} players**{f' ({out})' if out else ''}. "
                f"**Bots: {bots}.** The findings hold for these bots only: another line-up can play the same "
                "game very differently.")
