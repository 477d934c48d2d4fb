"""Setup editor: write a custom starting distribution in a table, checked by the engine as you type,
and save it as a setup file that the Compare page and ``imperial simulate --setup NAME`` can use."""

from __future__ import annotations

import streamlit as st

from imperial_lab.core.errors import SetupError
from imperial_lab.core.games.imperial2030.data import NATIONS
from imperial_lab.dashboard.games.imperial2030 import setup_table
from imperial_lab.dashboard.games.imperial2030.colours import NATION_NAMES
from imperial_lab.core.games.imperial2030.setups import PRESETS, read_setup_file, setups_folder
from imperial_lab.core.setups import setup_names
from imperial_lab.dashboard import frame

EMPTY = "(empty table)"


def starting_table(folder) -> tuple[str, str, object]:
    """Where the table starts (a key), the description, and the table: an existing custom setup of
    ``folder``, or an empty table of N players."""
    left, right = st.columns([2, 1])
    customs = [name for name in setup_names(folder) if name not in PRESETS]  # presets have no fixed bonds
    base = left.selectbox("Start from", [EMPTY, *customs], key="setup_base")
    if base == EMPTY:
        players = int(right.number_input("Players", min_value=2, max_value=6, value=4, key="setup_players"))
        return f"{EMPTY}:{players}", "", setup_table.blank(players)
    try:
        doc = read_setup_file(folder / f"{base}.json")
    except SetupError as exc:  # a file edited by hand may not load: say why, and offer an empty table
        frame.show_error(f"{frame.code_span(base)} cannot be loaded; starting from an empty table.", exc)
        return f"{EMPTY}:4", "", setup_table.blank(4)
    right.caption(f"{len(doc['players'])} players")
    return base, doc["description"], setup_table.from_setup(doc)


def edit(key: str, table):
    """The editable table; its key follows the starting point, so choosing another one starts afresh."""
    bonds_help = "bond numbers 1–9 of this nation, separated by commas, e.g. 4 or 1,3"
    config = {"cash": st.column_config.NumberColumn("cash (m)", min_value=0, step=1, required=True,
                                                    help="cash left after paying for the bonds")}
    config |= {code: st.column_config.TextColumn(f"{code} ({NATION_NAMES[code]})", help=bonds_help) for code in NATIONS}
    return st.data_editor(table, key=f"setup_table:{key}", column_config=config)


def save_form(doc: dict, folder, description: str) -> None:
    name = st.text_input("Name", placeholder="my_setup", help="the file name: lower-case letters, digits, _ and -")
    doc["description"] = st.text_input("Description", value=description,
                                       placeholder="what makes this distribution interesting")
    path = folder / f"{name}.json"
    overwrite = path.is_file() and st.checkbox(f"Replace the existing {path.name}")
    problems = setup_table.check_name(name) if name else ["Give the setup a name."]
    if not doc["description"].strip():
        problems.append("Give the setup a description.")
    if path.is_file() and not overwrite:
        problems.append(f"{path} exists: tick the box to replace it, or choose another name.")
    for problem in problems:
        st.caption(problem)
    if st.button("Save setup", type="primary", disabled=bool(problems)):
        try:
            saved = setup_table.save(doc, name, folder)
        except SetupError as exc:
            frame.show_error("The setup could not be saved.", exc)
            return
        st.success(f"Saved {saved}. Compare it on the Compare page, or `imperial simulate --setup {name}`.")


st.title("Setup editor")
st.caption("One row per player: the cash left after buying the bonds, and the numbers of the bonds held in each "
           "nation. The treasuries receive what the bonds cost and each nation is governed by its largest "
           "creditor (§4).")
folder = setups_folder()
key, description, table = starting_table(folder)
edited = edit(key, table)
players, errors = setup_table.parse(edited)
if errors:
    frame.show_error("The distribution is not valid:", *errors)
    st.stop()
doc = setup_table.document(players, description)
st.success("The distribution is valid.")
left, right = st.columns(2)  # a third of the width cuts the seat table's last column
left.dataframe(setup_table.seat_summary(doc))
right.dataframe(setup_table.nation_summary(doc))
save_form(doc, folder, description)
