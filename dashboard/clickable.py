"""An SVG a person can click (Streamlit's components v2: it is drawn in the page itself, no frame,
nothing fetched from elsewhere). Any element of the SVG with a ``data-click`` attribute sends its
value to Python when clicked; the game's page decides what a click means (a unit picked, a region
to move to, a rondel space, a space of Imperia's board).

    clickable_svg(svg, key="play_board", on_click=lambda value: ...)   # value: "region:moscow"

``on_click`` runs as a widget's callback, before the page runs again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

import streamlit as st

JS = """
export default function(component) {
  const { data, setTriggerValue, parentElement } = component;
  let root = parentElement.querySelector('.clickable-svg');
  if (!root) {
    root = document.createElement('div');
    root.className = 'clickable-svg';
    parentElement.appendChild(root);
  }
  if (root.dataset.svg !== data.digest) {
    root.innerHTML = data.svg;
    root.dataset.svg = data.digest;
  }
  root.onclick = (event) => {
    const target = event.target.closest('[data-click]');
    if (target) setTriggerValue('click', target.getAttribute('data-click'));
  };
}
"""
CSS = """
.clickable-svg svg { width: 100%; height: auto; display: block; }
.clickable-svg [data-click] { cursor: pointer; }
.clickable-svg [data-click]:hover { filter: brightness(0.93); }
"""
_COMPONENT = st.components.v2.component("imperial_lab_clickable_svg", js=JS, css=CSS)


def clickable_svg(svg: str, key: str, on_click: Callable[[str], None]) -> None:
    """Draw ``svg``; a click on an element with ``data-click`` calls ``on_click(value)``."""
    def clicked() -> None:
        value = (st.session_state.get(key) or {}).get("click")
        if value:
            on_click(value)

    # The SVG is replaced only when it changed: a rerun that draws the same board keeps the page still.
    digest = hashlib.sha1(svg.encode()).hexdigest()
    _COMPONENT(key=key, data={"svg": svg, "digest": digest}, on_click_change=clicked)
