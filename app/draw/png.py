"""A filled graph SVG as PNG, drawn by resvg with the DejaVu fonts, styled as the page styles it.

resvg understands class selectors but not CSS custom properties, so ``static/graph.css`` is
flattened for one theme first: every ``var(--g-…)`` replaced by that theme's colour, the theme
blocks, media queries and animations dropped. The page and the PNG keep one stylesheet.

resvg draws a PNG in about half a second and holds the GIL all the while, so in the server's
process every other request (a graph takes milliseconds) would wait behind each PNG. It runs in
a small process pool instead, on its own core; a gate bounds its queue (503 + Retry-After
beyond), and a pool whose process died is replaced: the PNG it was drawing is answered 503, and
a PNG that finds it dead already goes to the fresh one.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import re
import threading
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import lru_cache
from pathlib import Path
from typing import Any

from app.capacity import BACKGROUND_NICENESS, Gate, Unavailable
from app.draw import png_process
from app.draw.svg import Theme
from app.serving import GRAPH_CSS
from engine.errors import GradstepError

FONT_DIRS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu")
FONT_FAMILY = "DejaVu Sans"
# A 4K slide (3840 × 2160). Memory, not time, sets it: resvg holds about 8 bytes a pixel while
# it draws (70 MB at this size, in the PNG process); a GIF's frames have a lower limit, as the
# server decodes them itself (frames.GIF_LIMIT). A bigger picture is refused, not drawn.
MAX_PNG_PIXELS = 3840 * 2160
PT_TO_PX = 4 / 3  # Graphviz sizes the SVG in points; CSS pixels are 0.75 pt

_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_ROOT_BLOCK = re.compile(r":root(?:\[[^\]]*\])?\s*\{(?P<body>[^}]*)\}")
_PROPERTY = re.compile(r"(--[\w-]+)\s*:\s*([^;]+);")
_LIGHT_DARK = re.compile(r"light-dark\(\s*([^,()]+?)\s*,\s*([^,()]+?)\s*\)")
_NESTED_AT_RULE = re.compile(r"@(?:media|keyframes)[^{]*\{(?:[^{}]*\{[^{}]*\})*\s*\}")
_VAR = re.compile(r"var\((--[\w-]+)\)")
_SIZE = re.compile(r'\b(width|height)="([\d.]+)pt"')


class FontMissingError(Unavailable):
    """No DejaVu font on this machine: PNG text would not be drawn at all (503, not a 500)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, "unavailable")


def theme_colours(css: str, theme: Theme) -> dict[str, str]:
    """The custom properties of ``:root`` with every ``light-dark(light, dark)`` resolved."""
    pick = 1 if theme == "light" else 2
    css = _NESTED_AT_RULE.sub("", _COMMENT.sub("", css))
    colours: dict[str, str] = {}
    for match in _ROOT_BLOCK.finditer(css):
        for name, value in _PROPERTY.findall(match["body"]):
            colours[name] = _LIGHT_DARK.sub(lambda m: m.group(pick), value).strip()
    return colours


@lru_cache(maxsize=4)
def _flat_css(css: str, theme: Theme) -> str:
    colours = theme_colours(css, theme)
    rules = _ROOT_BLOCK.sub("", _NESTED_AT_RULE.sub("", _COMMENT.sub("", css)))
    return _VAR.sub(lambda m: colours.get(m.group(1), "black"), rules)


def flat_css(theme: Theme) -> str:
    """static/graph.css for ``theme`` with no custom properties, as resvg can read it."""
    return _flat_css(GRAPH_CSS.read_text(encoding="utf-8"), theme)


def background(theme: Theme) -> str:
    return theme_colours(GRAPH_CSS.read_text(encoding="utf-8"), theme).get("--g-bg", "#ffffff")


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


def fit_scale(
    svg: str, max_side: int, preferred: float = 2.0, max_pixels: int = MAX_PNG_PIXELS
) -> float:
    """``preferred`` (2: sharp on a slide), lowered so the longer side is at most ``max_side``
    pixels (the README's graph is 8,600 CSS pixels wide, and a 17,000-pixel PNG helps nobody)
    and the picture at most ``max_pixels``."""
    width, height = svg_size(svg)
    scale = min(
        preferred,
        max_side / max(width, height, 1.0),
        math.sqrt(max_pixels / max(width * height, 1)),
    )
    while math.prod(png_size(svg, scale)) > max_pixels:  # rounding to whole pixels: a row more
        scale *= 0.999
    return scale


def largest_scale(scale: float, pixels: int, max_pixels: int) -> str:
    """The largest scale (two decimals, rounded down) at which ``pixels`` at ``scale`` fit."""
    return f"{math.floor(100 * scale * math.sqrt(max_pixels / pixels)) / 100:g}"


PixelLimit = tuple[int, str]  # pixels, and the limit's name as a refusal writes it
PICTURE_LIMIT: PixelLimit = (MAX_PNG_PIXELS, "MAX_PNG_PIXELS, 3840 × 2160")


def check_pixels(svg: str, scale: float, limit: PixelLimit = PICTURE_LIMIT) -> None:
    """Refuses, before drawing, a picture of more pixels than ``limit`` allows."""
    width, height = png_size(svg, scale)
    most, name = limit
    if width * height > most:
        raise GradstepError(
            f"the picture would be {width} × {height} pixels, more than the {most:,} allowed "
            f"({name}): use a smaller scale (at most "
            f"{largest_scale(scale, width * height, most)} here)",
            "limit",
        )


def svg_to_png(svg: str, theme: Theme = "light", scale: float = 2.0, wait: bool = False) -> bytes:
    """A filled graph SVG (``SvgTemplate.fill``'s output, no inline style) as PNG bytes, at
    ``scale`` pixels per CSS pixel. Raises GradstepError (kind ``limit``) when too large;
    ``Unavailable`` when the renderer is full, unless ``wait`` (an admitted export's frame)."""
    check_pixels(svg, scale)
    root_end = svg.index(">", svg.index("<svg"))
    # the picture's size in whole pixels, the drawing fitted to it by its viewBox: resvg rounds
    # a zoomed size up, so 137 pt at 1.5 (274.0000001 px) would come out 275 pixels high
    width, height = png_size(svg, scale)
    size = {"width": width, "height": height}
    root = _SIZE.sub(lambda m: f'{m[1]}="{size[m[1]]}"', svg[:root_end], count=2)
    png = rasterise(  # resvg in a process of its own: it holds the GIL for ~0.5 s
        wait,
        svg_string=root + svg[root_end:],
        zoom=1.0,
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


# ── the PNG process pool ──────────────────────────────────────────────────────────────────────

PNG_PROCESSES = max(1, (os.cpu_count() or 2) // 2)  # leave the other cores to requests
PNG_QUEUE = 2  # PNGs waiting for a process: under full load a longer queue waited 20 s
RETRY_AFTER_PNG_S = 2

_gate = Gate("PNG render", PNG_PROCESSES, PNG_QUEUE, RETRY_AFTER_PNG_S)
_lock = threading.Lock()
_pool: ProcessPoolExecutor | None = None
_closed = False  # the app is shutting down: no new process (it would outlive the server)


def _current_pool() -> ProcessPoolExecutor:
    global _pool
    with _lock:
        if _closed:  # an export still running when the app shut its pool down
            raise Unavailable("the server is shutting down", "unavailable", RETRY_AFTER_PNG_S)
        if _pool is None:
            spawn = multiprocessing.get_context("spawn")  # never fork a threaded server
            _pool = ProcessPoolExecutor(
                PNG_PROCESSES,
                mp_context=spawn,
                initializer=png_process.start,
                initargs=(BACKGROUND_NICENESS, os.getpid()),
            )
        return _pool


def _discard(pool: ProcessPoolExecutor, wait: bool = False) -> None:
    global _pool
    with _lock:
        if _pool is pool:
            _pool = None
    pool.shutdown(wait=wait, cancel_futures=True)


def check_room() -> None:
    """Refuses a PNG now (``Unavailable``, busy) when the renderer has no room for it."""
    _gate.check()


def rasterise(wait: bool = False, **arguments: Any) -> bytes:
    """``resvg_py.svg_to_bytes(**arguments)``, run in the PNG process pool (``wait``: for a
    place in its queue, rather than be refused). A PNG whose process died while drawing it is
    a 503; the next one gets a fresh process."""
    with _gate.slot(wait):
        pool, drawing = _submit(arguments)
        try:
            return drawing.result()
        except BrokenProcessPool:
            _discard(pool)  # the next PNG starts a fresh process
            raise Unavailable(
                "the PNG renderer failed (its process ended); please try again",
                "render_failed",
                1,
            ) from None


def _submit(arguments: dict[str, Any]) -> tuple[ProcessPoolExecutor, Future[bytes]]:
    """The PNG handed to the pool, and the pool. A pool whose process ended while idle (killed,
    or out of memory, after its last PNG was answered) refuses it at once: this PNG lost
    nothing, so it goes to a fresh pool, not back to its client as a 503."""
    pool = _current_pool()
    try:
        return pool, pool.submit(png_process.render, arguments)
    except BrokenProcessPool:
        _discard(pool)
    pool = _current_pool()
    return pool, pool.submit(png_process.render, arguments)


def start() -> None:
    """An app starts: PNGs may start a process again (several apps share this module in one
    test run, one after another)."""
    global _closed
    with _lock:
        _closed = False


def shutdown() -> None:
    """End the PNG process and wait for it (the app is shutting down); until ``start``, a PNG
    asked for (an export's next frame, still running) is refused instead of starting another
    process, which would hold multiprocessing's resource tracker past the server's end."""
    global _closed
    with _lock:
        pool, _closed = _pool, True
    if pool is not None:
        _discard(pool, wait=True)
