"""The rules page of every game: its rules in the lab's own words (a game's
``imperial_lab.core.rules_text.Reference``), numbered like its RULES.md.

``?section=7.4.6`` (what every rule link of the other pages points to) shows that section first,
with the sections inside it and the way back up; the whole reference follows, one expander per
top-level section, the one holding the asked section open. "Go to a section" picks one.
"""

from __future__ import annotations

import streamlit as st

from imperial_lab.core.errors import ImperialError
from imperial_lab.core.rules_text import QUERY_KEY, Reference, Section
from imperial_lab.dashboard import frame


def show(reference: Reference, title: str, authority: str, key: str) -> None:
    """The page: ``title``, a line naming ``authority`` (the rules specification the text retells),
    the asked section and the whole reference; ``key`` names its widgets apart from other pages'."""
    st.title(title)
    try:
        everything = reference.sections
    except ImperialError as exc:
        frame.show_error("The rules text could not be read.", exc)
        return
    st.caption(f"The rules in the lab's own words, numbered like the rules specification {authority}, which is "
               "the authority. Every § reference is a link.")
    asked = st.query_params.get(QUERY_KEY)
    found = reference.resolve(asked) if asked else None
    refs = list(everything)
    st.selectbox("Go to a section", refs, index=refs.index(found.ref) if found else None, key=f"{key}_goto",
                 format_func=lambda ref: ("    " * (everything[ref].level - 1)) + everything[ref].heading,
                 placeholder="choose a section", on_change=_go, args=(reference, f"{key}_goto"))
    if asked and reference.section(asked) is None:
        where = f"; showing {found.heading}" if found else ""
        st.warning(f"The reference has no section {frame.code_span(asked)}{where}.")
    if found is not None:
        _asked(reference, found, key)
        st.divider()
    holding = reference.holding(found.ref) if found else None
    for top in reference.top_sections():
        with st.expander(top.heading, expanded=holding is not None and top.ref == holding.ref):
            if top.body:
                st.markdown(reference.link_all(top.body))
            for inner in reference.subsections(top.ref):
                st.markdown(text_of(reference, inner, min(inner.level + 1, 5)))


def _go(reference: Reference, key: str) -> None:
    chosen = st.session_state.get(key)
    if chosen:
        st.query_params[QUERY_KEY] = reference.section(chosen).key


def text_of(reference: Reference, found: Section, heading_level: int) -> str:
    """A section's heading and text, its references linked."""
    heading = f"{'#' * heading_level} {found.heading}"
    return f"{heading}\n\n{reference.link_all(found.body)}" if found.body else heading


def _asked(reference: Reference, found: Section, key: str) -> None:
    """The asked section with the sections inside it, and the way back up."""
    trail, up = [], reference.parent(found.ref)
    while up is not None:
        if reference.section(up):
            trail.insert(0, reference.link(up))
        up = reference.parent(up)
    with st.container(border=True, key=f"{key}_asked"):
        if trail:
            st.caption(" › ".join(trail))
        st.markdown(text_of(reference, found, 2))
        for inner in reference.subsections(found.ref):
            st.markdown(text_of(reference, inner, min(inner.level - found.level + 2, 5)))
