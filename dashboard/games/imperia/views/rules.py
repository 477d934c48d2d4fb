"""Imperia rules: the rules of Imperia in the lab's own words, numbered like RULES.md (the text:
data/imperia/rules/rules.md, read by imperial_lab.core.games.imperia.rules_text).

``?section=6.4`` (what the explorer's and the Play page's rule links point to) shows that section
first; the whole reference follows, one expander per top-level section, the asked one open.
"""

from __future__ import annotations

import streamlit as st

from imperial_lab.core.errors import ImperialError
from imperial_lab.core.games.imperia.rules_text import (QUERY_KEY, Section, link_sections, section, sections, subsections,
                                                     top_sections)
from imperial_lab.dashboard import frame


def text_of(found: Section, level: int) -> str:
    return f"{'#' * level} {found.heading}\n\n{link_sections(found.body)}"


def main() -> None:
    st.title("Rules of Imperia")
    try:
        everything = sections()
    except ImperialError as exc:
        frame.show_error("The rules text could not be read.", exc)
        return
    st.caption("The rules in the lab's own words, numbered like the rules specification "
               "shared/imperia/RULES.md, which is the authority (its rulings, §11, fill the gaps of the "
               "original text).")
    asked = st.query_params.get(QUERY_KEY)
    found = section(asked) if asked else None
    if asked and found is None:
        st.warning(f"The reference has no section {frame.code_span(asked)}.")
    holding = None
    if found is not None:
        with st.container(border=True, key="imperia_rules_asked"):
            st.markdown(text_of(found, 2))
            for inner in subsections(found.ref) if found.level == 1 else ():
                st.markdown(text_of(inner, 3))
        top = found.ref.split(".")[0].split(" ")[0]
        holding = top if top in everything else None
    for top in top_sections():
        with st.expander(top.heading, expanded=top.ref == holding):
            if top.body:
                st.markdown(link_sections(top.body))
            for inner in subsections(top.ref):
                st.markdown(text_of(inner, 4))


main()
