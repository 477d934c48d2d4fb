"""Rules: the rules of Imperial 2030 in the lab's own words, section by section, numbered like
RULES.md (the text: data/imperial2030/rules/, read by imperial_lab.core.games.imperial2030.rules_text).

``?section=7.4.6`` (what ``rules_text.section_url`` links to, from the explorer, the lessons and the
Play page) shows that section first, with the sections around it; the whole reference follows,
one expander per top-level section, the one holding the asked section open.
"""

from __future__ import annotations

import streamlit as st

from imperial_lab.core.errors import ImperialError
from imperial_lab.dashboard import frame
from imperial_lab.core.games.imperial2030.rules_text import (QUERY_KEY, Section, link_sections, parent, resolve, section, section_link,
                                  sections, subsections, top_sections)

GOTO_KEY = "rules_goto"


def _go() -> None:
    chosen = st.session_state.get(GOTO_KEY)
    if chosen:
        st.query_params[QUERY_KEY] = section(chosen).key


def asked_section() -> tuple[Section | None, str | None]:
    """The section the URL asks for (or its nearest enclosing one), and the asked text if the
    reference has no such section."""
    asked = st.query_params.get(QUERY_KEY)
    if not asked:
        return None, None
    return resolve(asked), (None if section(asked) else asked)


def text_of(found: Section, heading_level: int = 3) -> str:
    """A section's heading and text, its references linked."""
    return f"{'#' * heading_level} {found.heading}\n\n{link_sections(found.body)}" if found.body else \
        f"{'#' * heading_level} {found.heading}"


def show_section(found: Section) -> None:
    """The asked section with the sections inside it, and the way back up."""
    trail, up = [], parent(found.ref)
    while up is not None:
        if section(up):
            trail.insert(0, section_link(up))
        up = parent(up)
    with st.container(border=True, key="rules_asked"):
        if trail:
            st.caption(" › ".join(trail))
        st.markdown(text_of(found, 2))
        for inner in subsections(found.ref):
            st.markdown(text_of(inner, min(inner.level - found.level + 2, 5)))


def main() -> None:
    st.title("Rules of Imperial 2030")
    try:
        everything = sections()
    except ImperialError as exc:
        frame.show_error("The rules text could not be read.", exc)
        return
    st.caption("The rules in the lab's own words, numbered like the rules specification RULES.md, which is "
               "the authority. Every § reference is a link.")
    found, unknown = asked_section()
    refs = list(everything)
    st.selectbox("Go to a section", refs, index=refs.index(found.ref) if found else None, key=GOTO_KEY,
                 format_func=lambda ref: ("    " * (everything[ref].level - 1)) + everything[ref].heading,
                 placeholder="choose a section", on_change=_go)
    if unknown is not None:
        where = f"; showing {found.heading}" if found else ""
        st.warning(f"The reference has no section {frame.code_span(unknown)}{where}.")
    if found is not None:
        show_section(found)
        st.divider()
    holding = None
    if found is not None:
        holding = found.ref if found.level == 1 else next(t.ref for t in top_sections()
                                                          if found in subsections(t.ref))
    for top in top_sections():
        with st.expander(top.heading, expanded=top.ref == holding):
            if top.body:
                st.markdown(link_sections(top.body))
            for inner in subsections(top.ref):
                st.markdown(text_of(inner, min(inner.level + 1, 5)))


main()
