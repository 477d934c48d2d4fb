"""Imperial Powers rules: the rules in the lab's own words, numbered like RULES.md (the text:
data/imperial_powers/rules/rules.md, read by imperial_lab.core.games.imperial_powers.rules_text).

``?section=5.7`` or ``?section=R12`` (what the explorer's and the Play page's rule links point to)
shows that section first; the whole reference follows, one expander per top-level section, the asked
one open.
"""

from __future__ import annotations

import streamlit as st

from imperial_lab.core.errors import ImperialError
from imperial_lab.core.games.imperial_powers.rules_text import QUERY_KEY, REFERENCE, Section
from imperial_lab.dashboard import frame


def text_of(found: Section, level: int) -> str:
    return f"{'#' * level} {found.heading}\n\n{REFERENCE.link_all(found.body)}"


def asked_section(asked: str) -> str | None:
    """The asked section in a box (a top-level one with its subsections); the reference of the
    top-level section holding it, to open below."""
    found = REFERENCE.section(asked)
    if found is None:
        st.warning(f"The reference has no section {frame.code_span(asked)}.")
        return None
    with st.container(border=True, key="ip_rules_asked"):
        st.markdown(text_of(found, 2))
        for inner in REFERENCE.subsections(found.ref) if found.level == 1 else ():
            st.markdown(text_of(inner, 3))
    return found.ref.split(".")[0].split(" ")[0]


def main() -> None:
    st.title("Rules of Imperial Powers")
    try:
        tops = REFERENCE.top_sections()
    except ImperialError as exc:
        frame.show_error("The rules text could not be read.", exc)
        return
    st.caption("The rules in the lab's own words, numbered like the rules specification "
               "shared/imperial_powers/RULES.md, which is the authority (its rulings, §9, fill the gaps of the "
               "original text).")
    asked = st.query_params.get(QUERY_KEY)
    holding = asked_section(asked) if asked else None
    for top in tops:
        with st.expander(top.heading, expanded=top.ref == holding):
            if top.body:
                st.markdown(REFERENCE.link_all(top.body))
            for inner in REFERENCE.subsections(top.ref):
                st.markdown(text_of(inner, 4))


main()
