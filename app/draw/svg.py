"""An SVG laid out once, with holes where the numbers, labels and state classes go; and a
filled one as a standalone file (styles inlined, usable as ``<img src>``).

Graphviz writes one ``<g id="..." class="...">`` per node and edge and, inside a value's
record, its texts in field order (label, data, grad). The template keeps everything else as
literal text, so drawing the same structure with other numbers or another step is one join.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain
from typing import Literal
from xml.sax.saxutils import escape

from app.paths import GRAPH_CSS

Theme = Literal["light", "dark"]

_GROUP_OR_TEXT = re.compile(
    r'<g id="(?P<gid>[^"]*)" class="[^"]*">|<text (?P<attrs>[^>]*)>(?P<body>[^<]*)</text>'
)
_DRAWN_ID = re.compile(r"(?:n|op|r)\d+|e\d+-\d+")
_VALUE_ID = re.compile(r"n\d+")
_TEXT_FIELDS = ("label", "data", "grad")


@dataclass(frozen=True, slots=True)
class SvgTemplate:
    """``parts[0] + slot 0 + parts[1] + ... + parts[-1]``; slots are named ``"n3.data"``,
    ``"n3.class"``, ``"op3.class"``, ``"e3-0.class"`` ..."""

    parts: tuple[str, ...]
    slots: tuple[str, ...]

    def fill(self, texts: Mapping[str, str]) -> str:
        """The SVG with every slot replaced by ``texts[slot]`` (plain text: it is escaped)."""
        values = [escape(texts[slot], _QUOTES) for slot in self.slots]
        return "".join(chain.from_iterable(zip(self.parts, values, strict=False))) + self.parts[-1]


_QUOTES = {'"': "&quot;"}


def make_template(svg: str) -> SvgTemplate:
    """Cut a Graphviz SVG (drawn from ``app.draw.dot``'s DOT) into a template."""
    svg = svg[svg.index("<svg") :].replace("&#45;", "-")
    svg = svg.replace("<svg ", '<svg class="gradstep-graph" ', 1)
    parts: list[str] = []
    slots: list[str] = []
    last = 0
    group = ""
    field = 0
    for match in _GROUP_OR_TEXT.finditer(svg):
        gid = match["gid"]
        if gid is not None:
            group, field = gid, 0
            if _DRAWN_ID.fullmatch(gid):
                parts.append(svg[last : match.start()] + f'<g id="{gid}" class="')
                slots.append(f"{gid}.class")
                last = match.start() + len(f'<g id="{gid}" class="')
                last = svg.index('"', last)
            continue
        if _VALUE_ID.fullmatch(group) and field < len(_TEXT_FIELDS):
            name = _TEXT_FIELDS[field]
            field += 1
            parts.append(svg[last : match.start()] + f'<text id="{group}-{name}" {match["attrs"]}>')
            slots.append(f"{group}.{name}")
            last = match.start("body") + len(match["body"])
    parts.append(svg[last:])
    return SvgTemplate(tuple(parts), tuple(slots))


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
