"""A filled graph SVG as PNG, drawn by resvg with the DejaVu fonts, styled as the page styles it.

resvg understands class selectors but not CSS custom properties, so ``static/graph.css`` is
flattened for one theme first: every ``var(--g-…)`` replaced by that theme's colour, the theme
blocks, media queries and animations dropped. The page and the PNG keep one stylesheet.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from starlette.exceptions import HTTPException

from app.offload import rasterise
from app.paths import GRAPH_CSS
from app.standalone import Theme
from engine.errors import GradstepError

FONT_DIRS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu")
FONT_FAMILY = "DejaVu Sans"
MAX_PNG_PIXELS = 40_000_000  # about 8000 × 5000: a bigger picture is refused, not drawn
PT_TO_PX = 4 / 3  # Graphviz sizes the SVG in points; CSS pixels are 0.75 pt

_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_ROOT_BLOCK = re.compile(r":root(?:\[[^\]]*\])?\s*\{(?P<body>[^}]*)\}")
_PROPERTY = re.compile(r"(--[\w-]+)\s*:\s*([^;]+);")
_NESTED_AT_RULE = re.compile(r"@(?:media|keyframes)[^{]*\{(?:[^{}]*\{[^{}]*\})*\s*\}")
_VAR = re.compile(r"var\((--[\w-]+)\)")
_SIZE = re.compile(r'\b(width|height)="([\d.]+)pt"')


class FontMissingError(HTTPException):
    """No DejaVu font on this machine: PNG text would not be drawn at all (503, not a 500)."""

    kind = "unavailable"

    def __init__(self, message: str) -> None:
        super().__init__(503, message)


def _theme_properties(css: str) -> dict[str, dict[str, str]]:
    """The custom properties of ``:root`` (light) and ``:root[data-theme="dark"]``."""
    themes: dict[str, dict[str, str]] = {}
    for match in _ROOT_BLOCK.finditer(css):
        name = "dark" if "dark" in match.group(0).split("{", 1)[0] else "light"
        themes.setdefault(name, {}).update(_PROPERTY.findall(match["body"]))
    return themes


@lru_cache(maxsize=4)
def _flat_css(css: str, theme: Theme) -> str:
    css = _COMMENT.sub("", css)
    themes = _theme_properties(_NESTED_AT_RULE.sub("", css))
    colours = {**themes.get("light", {}), **themes.get(theme, {})}
    rules = _ROOT_BLOCK.sub("", _NESTED_AT_RULE.sub("", css))
    return _VAR.sub(lambda m: colours.get(m.group(1), "black"), rules)


def flat_css(theme: Theme) -> str:
    """static/graph.css for ``theme`` with no custom properties, as resvg can read it."""
    return _flat_css(GRAPH_CSS.read_text(encoding="utf-8"), theme)


def background(theme: Theme) -> str:
    css = _COMMENT.sub("", GRAPH_CSS.read_text(encoding="utf-8"))
    themes = _theme_properties(_NESTED_AT_RULE.sub("", css))
    return {**themes.get("light", {}), **themes.get(theme, {})}.get("--g-bg", "#ffffff")


@lru_cache(maxsize=1)
def font_dirs() -> tuple[str, ...]:
    dirs = tuple(d for d in FONT_DIRS if Path(d).is_dir())
    if not dirs:
        raise FontMissingError(
            "no DejaVu fonts found (looked in " + ", ".join(FONT_DIRS) + "): install the "
            "Debian package fonts-dejavu-core to draw PNGs"
        )
    return dirs


def svg_size(svg: str) -> tuple[float, float]:
    """The root's width and height in CSS pixels."""
    root = svg[svg.index("<svg") : svg.index(">", svg.index("<svg"))]
    sizes = dict(_SIZE.findall(root))
    return float(sizes["width"]) * PT_TO_PX, float(sizes["height"]) * PT_TO_PX


def png_size(svg: str, scale: float) -> tuple[int, int]:
    width, height = svg_size(svg)
    return round(width * scale), round(height * scale)


def fit_scale(svg: str, max_side: int, preferred: float = 2.0) -> float:
    """``preferred`` (2: sharp on a slide), lowered so the longer side is at most ``max_side``
    pixels: the README's graph is 8,600 CSS pixels wide, and a 17,000-pixel PNG helps nobody."""
    width, height = svg_size(svg)
    return min(preferred, max_side / max(width, height, 1.0))


def svg_to_png(svg: str, theme: Theme = "light", scale: float = 2.0) -> bytes:
    """A filled graph SVG (``SvgTemplate.fill``'s output, no inline style) as PNG bytes, at
    ``scale`` pixels per CSS pixel. Raises GradstepError (kind ``limit``) when too large."""
    width, height = png_size(svg, scale)
    if width * height > MAX_PNG_PIXELS:
        raise GradstepError(
            f"the picture would be {width} × {height} pixels, more than the "
            f"{MAX_PNG_PIXELS:,} allowed: use a smaller scale",
            "limit",
        )
    root_end = svg.index(">", svg.index("<svg"))
    root = _SIZE.sub(lambda m: f'{m[1]}="{float(m[2]) * PT_TO_PX:.2f}"', svg[:root_end], count=2)
    png = rasterise(  # resvg in a process of its own: it holds the GIL for ~0.5 s
        svg_string=root + svg[root_end:],
        zoom=scale,
        background=background(theme),
        style_sheet=flat_css(theme),
        skip_system_fonts=True,
        font_dirs=list(font_dirs()),
        font_family=FONT_FAMILY,
        sans_serif_family=FONT_FAMILY,
        serif_family=FONT_FAMILY,
        text_rendering="optimize_legibility",
    )
    return bytes(png)
