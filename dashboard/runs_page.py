"""The parts every game's runs page shares (Imperia's, Imperial Powers'): choosing one of the game's
runs, the player count to compare, and the line that says n, what was left out and which bots
played (what a page finds holds for those bots only). No game is imported here."""

from __future__ import annotations

import streamlit as st

from imperial_lab.core.bots import lineup_text
from imperial_lab.core.errors import ImperialError
from imperial_lab.core.registry import plugin
from imperial_lab.dashboard import cache, frame


def open_run(catalog, game: str, keys: tuple[str, str], make_one: str, overview) -> tuple[str, int] | None:
    """The top of a runs page: the run of ``game`` and the player count to compare (``keys``: their
    widgets' keys), with the scope line, as ``(run, players)``; None when there is nothing to show
    (said why). ``overview(catalog, run)`` is the page's query of the run's games by players, status
    and bots."""
    row = choose_run(catalog, game, keys[0], make_one)
    if row is None:
        return None
    try:
        games = cache.load(overview, catalog, row.name)
    except ImperialError as exc:  # e.g. a run folder that has gone since it was registered
        frame.show_error(f"The games of {frame.code_span(row.name)} cannot be read.", exc)
        return None
    players = choose_players(games, keys[1])
    if players is None:
        st.info(f"Run {row.name} has no finished game yet.")
        return None
    scope(games, players, row)
    return row.name, players


def choose_run(catalog, game: str, key: str, make_one: str):
    """The run of ``game`` shown (a row of the runs table), or None (said what to do) when there is
    none. On a first visit the sidebar's run if it is this game's, else the newest. ``make_one`` is a
    command that plays one (after ``.venv/bin/``)."""
    title = plugin(game).title
    runs = cache.runs(catalog)
    runs = runs[runs["game"] == game]
    if runs.empty:
        st.info(f"The catalogue has no {title} run. Play one, e.g.\n\n"
                f"```bash\n.venv/bin/{make_one}\n```\n\n(`--catalog` or `IMPERIAL_LAB_CATALOG` names the "
                "catalogue; this page reads the one the sidebar names), then reload this page.")
        return None
    names = list(runs["name"])
    if st.session_state.get(key) not in names:
        picked = frame.selected_run()
        st.session_state[key] = picked if picked in names else names[0]
    rows = runs.set_index("name")
    name = st.selectbox("Run", names, key=key, help=f"a run of {title} games (imperial simulate --game {game})",
                        format_func=lambda n: f"{n} · {rows.loc[n, 'games']} games · "
                                              f"{lineup_text(rows.loc[n, 'bots'], rows.loc[n, 'rotate'])}")
    return rows.loc[name]


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
