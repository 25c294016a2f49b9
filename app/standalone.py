"""A step of a graph as a standalone SVG file: styles inlined, usable as ``<img src>``."""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from app.paths import GRAPH_CSS

Theme = Literal["light", "dark"]


@lru_cache(maxsize=1)
def _css(mtime_ns: int) -> str:
    return GRAPH_CSS.read_text(encoding="utf-8").replace("]]>", "]]]]><![CDATA[>")


def graph_css() -> str:
    """static/graph.css as it is on disk now (re-read when it changes); empty if missing."""
    try:
        return _css(GRAPH_CSS.stat().st_mtime_ns)
    except FileNotFoundError:
        return ""


def standalone_svg(svg: str, theme: Theme = "light") -> str:
    """``svg`` (a filled template) as a file: XML declaration, theme class, inline CSS."""
    root_end = svg.index(">", svg.index("<svg")) + 1
    root = svg[:root_end].replace(
        'class="gradstep-graph"', f'class="gradstep-graph theme-{theme}" data-theme="{theme}"', 1
    )
    style = f"\n<style><![CDATA[\n{graph_css()}\n]]></style>"
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + root + style + svg[root_end:]
