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

from app.serving import GRAPH_CSS

Theme = Literal["light", "dark"]

_GROUP_OR_TEXT = re.compile(
    r'<g id="(?P<gid>[^"]*)" class="[^"]*">|<text (?P<attrs>[^>]*)>(?P<body>[^<]*)</text>'
)
_DRAWN_ID = re.compile(r"[ncm]\d+|e\d+-\d+")  # values, folded calls' boxes, edges
# a value's texts in the order Graphviz writes its record's fields: a constant is only its
# number; an input its name, data and grad; a computed value has its op's symbol first
_FIELDS_BY_COUNT = {1: ("label",), 3: ("label", "data", "grad"), 4: ("op", "label", "data", "grad")}
_ROW = ("label", "data", "grad")  # a value listed in a folded call's box
_SLOTTED = frozenset(_ROW)
# what the page never shows: a comment and a <title> (a "n12" tooltip) per node and edge, and the
# same font-family on every text (written once on the root instead: texts inherit it)
_UNSHOWN = re.compile(r'<!--.*?-->\n?|<title>[^<]*</title>\n?| font-family="[^"]*"')
_FONT_FAMILY = re.compile(r' font-family="[^"]*"')
# a record (a value, a folded call's box): the lines between its fields, a <polyline> each, drawn
# as one <path class="fields"> that the stylesheet colours (two elements fewer per computed value:
# the browser lays out and walks each one at every step)
_RECORD = re.compile(r'<g id="[nc]\d+" class="[^"]*">.*?</g>', re.DOTALL)
_SEPARATOR = re.compile(
    r'<polyline fill="none" stroke="(?P<stroke>[^"]*)" points="(?P<points>[^"]*)"/>\n?'
)


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


def make_template(svg: str, listed: Mapping[int, tuple[int, ...]] | None = None) -> SvgTemplate:
    """Cut a Graphviz SVG (drawn from ``app.draw.dot``'s DOT) into a template; ``listed``
    says which values each folded call's box lists (their data and grad are slots too)."""
    listed = listed or {}
    svg = svg[svg.index("<svg") :].replace("&#45;", "-")
    font = _FONT_FAMILY.search(svg)
    svg = _RECORD.sub(_one_fields_path, _UNSHOWN.sub("", svg))
    svg = svg.replace("<svg ", f'<svg class="gradstep-graph"{font[0] if font else ""} ', 1)
    parts: list[str] = []
    slots: list[str] = []
    literal = [""]  # the literal text since the last slot, built up to ``last``
    last = 0
    group = ""
    texts: list[re.Match[str]] = []

    def keep(upto: int, then: str = "", resume: int | None = None) -> None:
        """Literal text up to ``upto``, then ``then`` in place of what lies before ``resume``."""
        nonlocal last
        literal[0] += svg[last:upto] + then
        last = upto if resume is None else resume

    def slot(name: str, resume: int) -> None:
        nonlocal last
        parts.append(literal[0])
        slots.append(name)
        literal[0] = ""
        last = resume

    def flush() -> None:
        """Give a value's texts their ids (its name, data and grad become slots), and those of
        the values a box lists."""
        if group.startswith("n"):
            named = [(group, f) for f in _FIELDS_BY_COUNT.get(len(texts), ())]
        elif group.startswith("c"):  # the title, then name, data, grad of each listed value
            rows = [(f"n{v}", f) for v in listed.get(int(group[1:]), ()) for f in _ROW]
            named = [(group, "title"), *rows]
        else:
            named = []
        for match, (owner, field) in zip(texts, named, strict=False):
            tag = f'<text id="{owner}-{field}" {match["attrs"]}>'
            keep(match.start(), tag, resume=match.start("body"))
            if field in _SLOTTED:  # the op's symbol, a box's title: never changed
                slot(f"{owner}.{field}", match.start("body") + len(match["body"]))
        texts.clear()

    for match in _GROUP_OR_TEXT.finditer(svg):
        gid = match["gid"]
        if gid is None:
            if _DRAWN_ID.fullmatch(group):
                texts.append(match)
            continue
        flush()
        group = gid
        if _DRAWN_ID.fullmatch(gid):
            opening = f'<g id="{gid}" class="'
            keep(match.start() + len(opening))
            slot(f"{gid}.class", svg.index('"', last))
    flush()
    keep(len(svg))
    parts.append(literal[0])
    return SvgTemplate(tuple(parts), tuple(slots))


def _one_fields_path(record: re.Match[str]) -> str:
    """A record's group with its separator lines as one path, where the first of them was."""
    group = record[0]
    lines = list(_SEPARATOR.finditer(group))
    if not lines:
        return group
    d = " ".join("M" + " L".join(line["points"].split()) for line in lines)
    path = f'<path class="fields" fill="none" stroke="{lines[0]["stroke"]}" d="{d}"/>\n'
    first = lines[0].start()
    return group[:first] + path + _SEPARATOR.sub("", group[first:])


@lru_cache(maxsize=1)
def _css(mtime_ns: int) -> str:
    return GRAPH_CSS.read_text(encoding="utf-8").replace("]]>", "]]]]><![CDATA[>")


def graph_css() -> str:
    """static/graph.css as it is on disk now (re-read when it changes); empty if missing."""
    try:
        return _css(GRAPH_CSS.stat().st_mtime_ns)
    except FileNotFoundError:
        return ""


def standalone_svg(svg: str, theme: Theme | None = "light") -> str:
    """``svg`` (a filled template) as a file: XML declaration, theme class, inline CSS. With
    ``theme`` None it has none of its own: it follows the colour scheme of where it is shown
    (the system's, or that of the page that embeds it)."""
    root_end = svg.index(">", svg.index("<svg")) + 1
    root = svg[:root_end]
    if theme is not None:
        themed = f'class="gradstep-graph theme-{theme}" data-theme="{theme}"'
        root = root.replace('class="gradstep-graph"', themed, 1)
    style = f"\n<style><![CDATA[\n{graph_css()}\n]]></style>"
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + root + style + svg[root_end:]
